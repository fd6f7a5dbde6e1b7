/**
 * `geomech merge SHARD...` (CLI contract, "geomech sweep"): joins the shard files of
 * `geomech sweep --shard K/N` into the table a single run of the spec gives, byte for byte
 * (rows ordered by point index). Refuses, with exit code 2 and one line, shards of different specs,
 * different N, a missing or duplicated shard, or a shard whose rows are not its slice.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Io } from '../main.js';
import { renderSweepPlot } from '../sweep/plot.js';
import { type ReadTable, type Row, readTable } from '../sweep/table.js';
import { resolveFormat } from './simulate.js';
import { serializeTable, writeAtomic } from './sweep.js';

/** Largest shard file read (bytes): a 10⁶-point table with 64 outputs fits. */
const MAX_SHARD_BYTES = 2 ** 30;

/** Raw options of `geomech merge`. */
export interface MergeOptions {
  out?: string;
  format?: string;
  plot?: string;
}

/** Joins read shard files into one table's header, columns and rows; `names` are for messages. */
export function mergeShards(shards: readonly ReadTable[], names: readonly string[]): ReadTable {
  if (shards.length === 0) throw new UsageError('no shard files given', 'geomech merge');
  const first = shards[0]!;
  const n = first.shard?.n;
  const byK = new Map<number, string>();
  shards.forEach((s, k) => {
    const name = names[k]!;
    if (s.shard === undefined) throw new UsageError('not a shard file (no shard id)', name);
    if (s.header.specHash !== first.header.specHash)
      throw new UsageError(
        `shard of another spec (hash ${s.header.specHash.slice(0, 12)}… ≠ ${first.header.specHash.slice(0, 12)}…, in ${names[0]})`,
        name,
      );
    if (s.shard.n !== n)
      throw new UsageError(
        `shard ${s.shard.k}/${s.shard.n} of a split into ${s.shard.n}, not ${n}`,
        name,
      );
    const dup = byK.get(s.shard.k);
    if (dup !== undefined)
      throw new UsageError(`duplicate shard ${s.shard.k}/${n} (also ${dup})`, name);
    byK.set(s.shard.k, name);
    if (JSON.stringify(s.columns) !== JSON.stringify(first.columns))
      throw new UsageError('shard with other columns than the first', name);
  });
  const missing: number[] = [];
  for (let k = 0; k < n!; k++) if (!byK.has(k)) missing.push(k);
  if (missing.length > 0)
    throw new UsageError(
      `missing shard${missing.length > 1 ? 's' : ''} ${missing
        .slice(0, 10)
        .map((k) => `${k}/${n}`)
        .join(', ')}${missing.length > 10 ? `, … (${missing.length} in all)` : ''}`,
      'geomech merge',
    );
  const points = first.header.points;
  const rows = new Array<Row | undefined>(points);
  shards.forEach((s, k) => {
    let expected = 0;
    for (const r of s.rows) {
      const i = r[0] as number;
      if (
        !(Number.isInteger(i) && i >= 0 && i < points) ||
        i % n! !== s.shard!.k ||
        rows[i] !== undefined
      )
        throw new UsageError(
          `row of point ${i} does not belong to shard ${s.shard!.k}/${n}`,
          names[k]!,
        );
      rows[i] = r;
      expected++;
    }
    const size = Math.floor((points - s.shard!.k + n! - 1) / n!);
    if (expected !== size)
      throw new UsageError(
        `incomplete shard ${s.shard!.k}/${n}: ${expected} of ${size} points`,
        names[k]!,
      );
  });
  return {
    header: first.header,
    columns: first.columns,
    rows: rows as Row[],
    shard: undefined,
    plot: first.plot,
  };
}

/** Runs `geomech merge`. */
export async function runMerge(files: readonly string[], o: MergeOptions, io: Io): Promise<void> {
  if (o.plot !== undefined && !o.plot.toLowerCase().endsWith('.svg'))
    throw new UsageError(`plot file must end in .svg, got '${o.plot}'`, '--plot');
  const format = resolveFormat(o.format, o.out);
  const shards = files.map((f) => {
    let text: string;
    try {
      if (statSync(f).size > MAX_SHARD_BYTES)
        throw new Error(`larger than ${MAX_SHARD_BYTES} bytes`);
      text = readFileSync(f, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read: ${err instanceof Error ? err.message : String(err)}`, f);
    }
    return readTable(text, f);
  });
  const table = mergeShards(shards, files);
  const text = serializeTable(table.header, table.columns, table.rows, format, undefined);
  if (o.out !== undefined) writeAtomic(o.out, text);
  else await io.stdout(text);
  if (o.plot !== undefined)
    io.writeFile(
      o.plot,
      renderSweepPlot(
        table.columns,
        table.rows,
        table.plot,
        `${table.header.target[1]} (${table.header.command})`,
      ),
    );
}
