/**
 * `geomech sweep SPEC.json` (CLI contract, "geomech sweep"): runs every point of a sweep spec — a
 * `simulate`, `solve` or `order` run of a built-in or model-file system — on worker threads and
 * writes one table, a row per point ordered by point index, so the bytes do not depend on the
 * number of workers. `--shard K/N` runs the points with index mod N = K and writes a shard file
 * for `geomech merge`; `--resume` continues a killed run from its journal (`OUT.partial`, one JSON
 * line per finished point, appended as points finish), and the finished table is written
 * atomically (a temporary file renamed over OUT), so a kill never leaves a torn table.
 *
 * @module
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Io } from '../main.js';
import { createProgress } from '../progress.js';
import { renderSweepPlot } from '../sweep/plot.js';
import { timeoutRow } from '../sweep/point.js';
import { type PoolTimeout, runPool } from '../sweep/pool.js';
import {
  axisNames,
  type PlotSpec,
  parseSweepSpec,
  SWEEP_LIMITS,
  type SweepSpec,
  specHash,
} from '../sweep/spec.js';
import {
  type JournalHead,
  parseShard,
  type Row,
  readJournal,
  readTable,
  type ShardId,
  shardJson,
  type TableHeader,
  tableColumns,
  tableCsv,
  tableJson,
} from '../sweep/table.js';
import type { WorkerInit } from '../sweep/worker.js';
import { parseCount, parsePositiveInt } from '../values.js';
import { version } from '../version.js';
import { resolveFormat } from './simulate.js';

/** Raw options of `geomech sweep`. */
export interface SweepOptions {
  workers?: string;
  pointTimeout?: string;
  shard?: string;
  resume?: boolean;
  out?: string;
  format?: string;
  plot?: string;
  quiet?: boolean;
  /** false with `--no-cache`: the sweep and its workers neither read nor write the model cache. */
  cache?: boolean;
}

/** Writes `text` to `path` atomically: a temporary file in the same folder, renamed over it. */
export function writeAtomic(path: string, text: string): void {
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.geomech-tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The table's serialization in `format` (a shard file when `shard` is given). */
export function serializeTable(
  header: TableHeader,
  columns: readonly string[],
  rows: readonly Row[],
  format: 'json' | 'csv',
  shard: ShardId | undefined,
  plot?: PlotSpec,
): string {
  if (shard !== undefined) return shardJson(header, shard, columns, rows, plot);
  return format === 'csv' ? tableCsv(columns, rows) : tableJson(header, columns, rows);
}

/** Largest spec, model or guess file read (bytes), checked before reading. */
const MAX_FILE_BYTES = 64 * 2 ** 20;

/** Reads a regular text file of at most MAX_FILE_BYTES, or throws a UsageError naming `where`. */
function readLimited(path: string, where: string): string {
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > MAX_FILE_BYTES) throw new Error(`${st.size} bytes (limit ${MAX_FILE_BYTES})`);
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`,
      where,
    );
  }
}

/**
 * Reads the spec and the files it names; checks a `simulate` model file once, before any worker
 * starts, and with `cacheDir` (the model cache, or undefined for none) leaves the file's entry in
 * the cache, so that every worker reads its parse trees from there and none loads mathjs.
 */
async function loadSpec(
  path: string,
  cacheDir: string | undefined,
): Promise<{ spec: SweepSpec; init: WorkerInit; header: TableHeader }> {
  const text = readLimited(path, path);
  const spec = parseSweepSpec(text, path);
  const base = dirname(path);
  const near = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const files: [string, string][] = [];
  const readNamed = (p: string, field: string): string => readLimited(p, `${path}: ${field}`);

  let modelPath: string | undefined;
  if (spec.model !== undefined) {
    modelPath = near(spec.model);
    const modelText = readNamed(modelPath, 'model');
    // a malformed model is one error before the sweep, not one per point (simulate's model
    // files; solve's optimal-control files are checked by the solve command, point by point)
    const cache = cacheDir === undefined ? undefined : { dir: cacheDir, version: version() };
    if (spec.command === 'simulate') {
      const { loadModelLazily } = await import('../model/load.js');
      await loadModelLazily(modelText, modelPath, cache);
    }
    // a solve sweep's optimal-control file is not loaded here: its analysis costs more than the
    // parse a cache entry saves (measured: a first run's main-thread load added ~13% CPU and 7% to
    // the time to the first row), so on a first run each worker parses and writes the entry, and
    // every later sweep of the file reads it in every worker
    files.push([modelPath, modelText]);
  }
  let guessPath: string | undefined;
  const guess = spec.options.get('guess');
  if (typeof guess === 'string') {
    guessPath = near(guess);
    files.push([guessPath, readNamed(guessPath, 'options.guess')]);
  }
  const hash = specHash(
    text,
    files.map(([, t]) => t),
  );
  const target: [string, string] =
    spec.model !== undefined
      ? ['model', spec.model]
      : [spec.command === 'solve' ? 'problem' : 'system', spec.target!];
  return {
    spec,
    init: { specText: text, specFile: path, modelPath, guessPath, files, cacheDir },
    header: { command: spec.command, target, points: spec.points, specHash: hash },
  };
}

/** Rows already finished: from the journal of a killed run, or a finished OUT of the same spec. */
function resumeRows(
  out: string,
  header: TableHeader,
  columns: readonly string[],
  shard: ShardId | undefined,
  format: 'json' | 'csv',
  expected: number,
): Row[] | 'complete' {
  const journal = `${out}.partial`;
  const shardText = shard === undefined ? null : `${shard.k}/${shard.n}`;
  if (existsSync(journal)) {
    const { head, rows } = readJournal(readFileSync(journal, 'utf8'));
    if (head === undefined || head.specHash !== header.specHash || head.shard !== shardText)
      throw new UsageError(
        `the journal ${journal} belongs to another spec or shard; remove it or drop --resume`,
        '--resume',
      );
    return rows.filter((r) => r.length === columns.length);
  }
  if (!existsSync(out)) return [];
  const text = readFileSync(out, 'utf8');
  if (format === 'csv' && shard === undefined) {
    const lines = text.split('\n').filter((l) => l !== '');
    if (lines[0] === tableCsv(columns, []).trim() && lines.length - 1 === expected)
      return 'complete';
    throw new UsageError(
      `${out} is not a finished table of this spec; remove it or drop --resume`,
      '--resume',
    );
  }
  const table = readTable(text, out);
  if (
    table.header.specHash !== header.specHash ||
    (table.shard ? `${table.shard.k}/${table.shard.n}` : null) !== shardText
  )
    throw new UsageError(
      `${out} is a table of another spec or shard; remove it or drop --resume`,
      '--resume',
    );
  return [...table.rows];
}

/** Runs `geomech sweep`. */
export async function runSweep(specPath: string, o: SweepOptions, io: Io): Promise<void> {
  const workers =
    o.workers === undefined ? os.availableParallelism() : parsePositiveInt(o.workers, '--workers');
  if (workers > SWEEP_LIMITS.workers)
    throw new UsageError(`at most ${SWEEP_LIMITS.workers} workers, got ${workers}`, '--workers');
  const shard = o.shard === undefined ? undefined : parseShard(o.shard, SWEEP_LIMITS.shards);
  if (shard !== undefined && o.plot !== undefined)
    throw new UsageError('plot the merged table, not a shard (geomech merge --plot)', '--plot');
  if (o.plot !== undefined && !o.plot.toLowerCase().endsWith('.svg'))
    throw new UsageError(`plot file must end in .svg, got '${o.plot}'`, '--plot');
  if (o.resume && o.out === undefined)
    throw new UsageError('--resume needs --out (the table to continue)', '--resume');
  const format = resolveFormat(o.format, o.out);
  if (shard !== undefined && format === 'csv')
    throw new UsageError(
      'a shard file is JSON (merge the shards, then choose csv)',
      o.format === undefined ? '--out' : '--format',
    );
  const flagTimeout =
    o.pointTimeout === undefined
      ? undefined
      : parseCount(o.pointTimeout, '--point-timeout', 1, SWEEP_LIMITS.timeoutMs, 'the budget');
  const { spec, init, header } = await loadSpec(
    specPath,
    o.cache === false ? undefined : io.modelCacheDir?.(),
  );
  // --point-timeout overrides the spec's timeoutMs
  const budget = flagTimeout ?? spec.timeoutMs;
  const timeout: PoolTimeout | undefined =
    budget === undefined
      ? undefined
      : { ms: budget, row: (index) => timeoutRow(spec, index, budget) };
  const columns = tableColumns(
    axisNames(spec),
    spec.outputs.map((x) => x.name),
  );
  const mine: number[] = [];
  for (let i = shard?.k ?? 0; i < spec.points; i += shard?.n ?? 1) mine.push(i);

  const done = new Map<number, Row>();
  if (o.resume && o.out !== undefined) {
    const prior = resumeRows(o.out, header, columns, shard, format, mine.length);
    if (prior === 'complete') return;
    const wanted = new Set(mine);
    for (const r of prior) {
      const i = r[0] as number;
      if (wanted.has(i) && !done.has(i)) done.set(i, r);
    }
  }
  const todo = mine.filter((i) => !done.has(i));

  // the journal: a head line, then one line per finished row, appended as rows arrive
  const journal = o.out === undefined ? undefined : `${o.out}.partial`;
  if (journal !== undefined) {
    const head: JournalHead = {
      geomechSweepJournal: 1,
      specHash: header.specHash,
      shard: shard === undefined ? null : `${shard.k}/${shard.n}`,
    };
    const lines = [JSON.stringify(head), ...[...done.values()].map((r) => JSON.stringify(r))];
    writeAtomic(journal, `${lines.join('\n')}\n`);
  }
  // one descriptor for the whole run: a row is one write(2) of one line
  const fd = journal === undefined ? undefined : openSync(journal, 'a');
  const showProgress = io.stderrIsTTY && !o.quiet;
  const bar = createProgress((t) => io.stderr(t), showProgress);
  let failed = 0;
  const statusAt = columns.indexOf('status');
  try {
    await runPool(
      init,
      todo,
      workers,
      (row) => {
        done.set(row[0] as number, row);
        if (row[statusAt] !== 'ok') failed++;
        if (fd !== undefined) writeSync(fd, `${JSON.stringify(row)}\n`);
        bar.update(
          `point ${done.size} of ${mine.length}${failed > 0 ? ` (${failed} failed)` : ''}`,
          done.size / mine.length,
        );
      },
      timeout,
    );
  } finally {
    bar.done();
    if (fd !== undefined) closeSync(fd);
  }
  const rows = mine.map((i) => done.get(i)!);
  const text = serializeTable(header, columns, rows, format, shard, spec.plot);
  if (o.out !== undefined) {
    writeAtomic(o.out, text);
    if (journal !== undefined) rmSync(journal, { force: true });
  } else await io.stdout(text);
  if (o.plot !== undefined)
    io.writeFile(
      o.plot,
      renderSweepPlot(columns, rows, spec.plot, `${header.target[1]} (${spec.command})`),
    );
  const bad = rows.filter((r) => r[statusAt] !== 'ok');
  if (bad.length > 0 && bad.length === rows.length && bad.every((r) => r[statusAt] === 'invalid'))
    throw new UsageError(
      `every point is invalid; the first: ${String(bad[0]![columns.length - 1])}`,
      specPath,
    );
  if (bad.length > 0 && showProgress)
    io.stderr(
      `geomech: warning: ${bad.length} of ${rows.length} points did not succeed (see the status and error columns)\n`,
    );
}
