/**
 * The sweep table: its columns, its rows (one per point, ordered by point index), and its three
 * serializations — the JSON table and the CSV table of a whole sweep, and the shard file of one
 * `--shard K/N` slice, which `geomech merge` joins back into the whole table byte for byte.
 * Numbers are written in JavaScript's shortest round-trip form, so equal rows give equal bytes.
 *
 * @module
 */
import { UsageError } from '../errors.js';
import type { AxisValue, PlotSpec } from './spec.js';

/** A table cell: a coordinate, a summary value, a status or an error text; null when absent. */
export type Cell = AxisValue | boolean | null;

/**
 * Row status: the point's exit code 0 (`ok`), 1 (`failed`, a numerical failure) or 2 (`invalid`,
 * bad input), or `timeout` (still running after the spec's `timeoutMs`; its worker was replaced).
 */
export type PointStatus = 'ok' | 'failed' | 'invalid' | 'timeout';

/** What identifies a table: the spec it comes from. */
export interface TableHeader {
  readonly command: string;
  /** `system`, `problem` or `model`, and the name. */
  readonly target: readonly [string, string];
  /** Points of the whole sweep. */
  readonly points: number;
  readonly specHash: string;
}

/** A row: the cells in column order (index first, error last). */
export type Row = readonly Cell[];

/**
 * The columns of a sweep: `index`, the swept coordinates, `status`, the outputs, `error`.
 *
 * @example
 * ```ts
 * tableColumns(['h'], ['drift:energy']); // ['index', 'h', 'status', 'drift:energy', 'error']
 * ```
 */
export function tableColumns(axes: readonly string[], outputs: readonly string[]): string[] {
  return ['index', ...axes, 'status', ...outputs, 'error'];
}

const cellJson = (c: Cell): string => JSON.stringify(c);

/**
 * The table's `sweep` header: counts of failed and invalid points, and of timed-out points only
 * when there are any (so tables without a point budget read as before).
 */
function headerJson(h: TableHeader, rows: readonly Row[], statusColumn: number): string {
  let failed = 0;
  let invalid = 0;
  let timeout = 0;
  for (const r of rows) {
    if (r[statusColumn] === 'failed') failed++;
    else if (r[statusColumn] === 'invalid') invalid++;
    else if (r[statusColumn] === 'timeout') timeout++;
  }
  const timedOut = timeout > 0 ? `,"timeout":${timeout}` : '';
  return `{"command":${JSON.stringify(h.command)},${JSON.stringify(h.target[0])}:${JSON.stringify(h.target[1])},"points":${h.points},"failed":${failed},"invalid":${invalid}${timedOut},"specHash":${JSON.stringify(h.specHash)}}`;
}

function rowsJson(rows: readonly Row[]): string {
  return rows.length === 0
    ? '[]'
    : `[\n${rows.map((r) => `[${r.map(cellJson).join(',')}]`).join(',\n')}\n]`;
}

/**
 * The JSON table: `{"sweep": {command, system|problem|model, points, failed, invalid, [timeout,]
 * specHash},
 * "columns": [...], "rows": [[...], ...]}`, one row per line.
 */
export function tableJson(
  h: TableHeader,
  columns: readonly string[],
  rows: readonly Row[],
): string {
  return `{"sweep":${headerJson(h, rows, columns.indexOf('status'))},"columns":${JSON.stringify(columns)},"rows":${rowsJson(rows)}}\n`;
}

function csvCell(c: Cell): string {
  if (c === null) return '';
  const s = Array.isArray(c) ? c.join(',') : String(c);
  return /[",\n\r]/.test(s) || s !== s.trim() ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The CSV table: one header line, one row per point; vectors as a quoted comma list, null empty.
 *
 * @example
 * ```ts
 * tableCsv(['index', 'init.q0', 'status', 'error'], [[0, [1, 2], 'ok', null]]);
 * // 'index,init.q0,status,error\n0,"1,2",ok,\n'
 * ```
 */
export function tableCsv(columns: readonly string[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvCell(c)).join(',')];
  for (const r of rows) lines.push(r.map(csvCell).join(','));
  return `${lines.join('\n')}\n`;
}

/** A shard file's `shard` field. */
export interface ShardId {
  readonly k: number;
  readonly n: number;
}

/**
 * Parses `K/N` (0 ≤ K < N): the K-th of N slices holds the points with index mod N = K.
 *
 * @example
 * ```ts
 * parseShard('3/8', 100_000); // { k: 3, n: 8 }
 * ```
 */
export function parseShard(text: string, limit: number): ShardId {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`expected K/N (e.g. 0/4), got '${text}'`, '--shard');
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (!(n >= 1 && n <= limit))
    throw new UsageError(`N must be in [1, ${limit}], got ${n}`, '--shard');
  if (!(k < n)) throw new UsageError(`K must be in [0, ${n - 1}] (0-based), got ${k}`, '--shard');
  return { k, n };
}

/** The shard file of slice `shard`: the table's header and columns, its rows, its id. */
export function shardJson(
  h: TableHeader,
  shard: ShardId,
  columns: readonly string[],
  rows: readonly Row[],
  plot: unknown,
): string {
  return `{"geomechSweepShard":1,"shard":"${shard.k}/${shard.n}","plot":${JSON.stringify(plot ?? null)},"sweep":${headerJson(h, rows, columns.indexOf('status'))},"columns":${JSON.stringify(columns)},"rows":${rowsJson(rows)}}\n`;
}

/** A table or shard file read back. */
export interface ReadTable {
  readonly header: TableHeader;
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
  readonly shard: ShardId | undefined;
  /** A shard file's copy of the spec's `plot` choices (for `merge --plot`). */
  readonly plot?: PlotSpec | undefined;
}

/** Reads a JSON table or shard file (for `merge`, `--resume` and `--plot`). */
export function readTable(text: string, where: string): ReadTable {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `not a sweep table or shard file: ${err instanceof Error ? err.message : String(err)}`,
      where,
    );
  }
  const d = doc as Record<string, unknown>;
  const s = d?.sweep as Record<string, unknown> | undefined;
  if (
    typeof d !== 'object' ||
    d === null ||
    typeof s !== 'object' ||
    s === null ||
    !Array.isArray(d.columns) ||
    !Array.isArray(d.rows)
  )
    throw new UsageError('not a sweep table or shard file (no sweep, columns or rows)', where);
  const kind = ['system', 'problem', 'model'].find((k) => typeof s[k] === 'string');
  if (
    typeof s.command !== 'string' ||
    kind === undefined ||
    typeof s.points !== 'number' ||
    typeof s.specHash !== 'string'
  )
    throw new UsageError('not a sweep table or shard file (incomplete sweep header)', where);
  let shard: ShardId | undefined;
  if (d.geomechSweepShard !== undefined) {
    if (typeof d.shard !== 'string') throw new UsageError('shard file without a shard id', where);
    shard = parseShard(d.shard, Number.MAX_SAFE_INTEGER);
  }
  const columns = d.columns as unknown[];
  if (!columns.every((c) => typeof c === 'string') || columns[0] !== 'index')
    throw new UsageError('not a sweep table (bad columns)', where);
  const rows = d.rows as unknown[];
  for (const [k, r] of rows.entries())
    if (!Array.isArray(r) || r.length !== columns.length || typeof r[0] !== 'number')
      throw new UsageError(`row ${k} does not match the columns`, where);
  return {
    header: {
      command: s.command,
      target: [kind, s[kind] as string],
      points: s.points,
      specHash: s.specHash,
    },
    columns: columns as string[],
    rows: rows as Row[],
    shard,
    plot: typeof d.plot === 'object' && d.plot !== null ? (d.plot as PlotSpec) : undefined,
  };
}

/** A journal line's first entry: what the journal belongs to. */
export interface JournalHead {
  readonly geomechSweepJournal: 1;
  readonly specHash: string;
  readonly shard: string | null;
}

/**
 * Reads a journal (`OUT.partial`, JSON lines: a head, then one row per line). A line cut short by a
 * kill, or anything after it, is dropped; rows keep their first occurrence.
 */
export function readJournal(text: string): { head: JournalHead | undefined; rows: Row[] } {
  const lines = text.split('\n');
  let head: JournalHead | undefined;
  const rows: Row[] = [];
  for (const [k, line] of lines.entries()) {
    if (line === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      break;
    }
    if (k === 0) {
      const h = v as Partial<JournalHead>;
      if (h?.geomechSweepJournal !== 1 || typeof h.specHash !== 'string') break;
      head = h as JournalHead;
    } else if (Array.isArray(v) && typeof v[0] === 'number') rows.push(v as Row);
    else break;
  }
  return { head, rows };
}
