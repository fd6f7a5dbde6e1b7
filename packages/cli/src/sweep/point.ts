/**
 * One sweep point: its command line run in-process through the CLI's own entry {@link main} (the
 * same arguments a user would type, so the sweep follows the commands as they evolve), its output
 * document captured in memory, and the summary outputs taken from it.
 *
 * @module
 */
import type { SimulateDocument } from '../commands/simulate.js';
import { type Io, main, modelProblem, modelSystem } from '../main.js';
import { findProblem, findSystem } from '../registry.js';
import { axisNames, type OutputSpec, pointArgv, pointCoordinates, type SweepSpec } from './spec.js';
import type { Cell, PointStatus, Row } from './table.js';

/** Where a point's `--out` goes: never a real file, the point's Io captures it. */
const VIRTUAL_OUT = '\0geomech-sweep-point.json';

/** Files a point may read (model, guess), by the path its command line names. */
export type PointFiles = ReadonlyMap<string, string>;

type Doc = Record<string, unknown>;

class OutputError extends Error {}

/**
 * The statistic `o` of a series of `count` states, `value(k)` the chosen component of state k
 * (throwing an OutputError for a component the series does not have).
 */
function statOf(
  o: Extract<OutputSpec, { kind: 'series' }>,
  count: number,
  value: (k: number) => number,
): number | null {
  if (count === 0) return null;
  if (o.stat === 'final') return value(count - 1);
  if (o.stat === 'initial') return value(0);
  const start = count - Math.max(1, Math.ceil(o.tail * count - 1e-9));
  const x0 = value(0);
  let acc = o.stat === 'max' ? -Infinity : o.stat === 'min' ? Infinity : 0;
  for (let k = start; k < count; k++) {
    const x = value(k);
    switch (o.stat) {
      case 'drift':
        acc = Math.max(acc, Math.abs(x - x0));
        break;
      case 'max':
        acc = Math.max(acc, x);
        break;
      case 'min':
        acc = Math.min(acc, x);
        break;
      case 'maxabs':
        acc = Math.max(acc, Math.abs(x));
        break;
      case 'mean':
        acc += x;
        break;
    }
  }
  return o.stat === 'mean' ? acc / (count - start) : acc;
}

function noSeries(o: Extract<OutputSpec, { kind: 'series' }>, fields: readonly string[]): never {
  throw new OutputError(
    `output ${o.name}: the result has no series '${o.field}' (fields: ${fields.join(', ')})`,
  );
}

function seriesStat(doc: Doc, o: Extract<OutputSpec, { kind: 'series' }>): number | null {
  const series = doc.series as Record<string, unknown> | undefined;
  if (series === undefined) return null;
  const data = series[o.field];
  if (!Array.isArray(data)) noSeries(o, Object.keys(series));
  return statOf(o, data.length, (k: number): number => {
    const e = data[k] as unknown;
    if (typeof e === 'number') {
      if (o.component !== undefined && o.component !== 0)
        throw new OutputError(
          `output ${o.name}: ${o.field} is a scalar series, it has no component ${o.component}`,
        );
      return e;
    }
    if (Array.isArray(e)) {
      if (o.component === undefined)
        throw new OutputError(
          `output ${o.name}: ${o.field} has ${e.length} components, name one (${o.field}[0])`,
        );
      if (o.component >= e.length)
        throw new OutputError(
          `output ${o.name}: ${o.field} has ${e.length} components, no component ${o.component}`,
        );
      return e[o.component] as number;
    }
    throw new OutputError(`output ${o.name}: ${o.field} is not numeric`);
  });
}

/**
 * {@link seriesStat} on a document taken as values (`Io.takeDocument`): the same statistic of the
 * same numbers, read from the flat series. The document's text would hold `t` and each series
 * (width 1 as numbers, wider as arrays), and its round trip turns −0 into 0: so do these reads,
 * and the cell is the one the text gives.
 */
function documentSeriesStat(
  doc: SimulateDocument,
  o: Extract<OutputSpec, { kind: 'series' }>,
): number | null {
  const out = doc.output;
  const count = out.count;
  // the text's `series` object: `t`, then each series (a repeated key: the last one wins)
  let s: (typeof out.series)[number] | undefined;
  for (const x of out.series) if (x.name === o.field) s = x;
  let data: Float64Array;
  let width: number;
  if (s !== undefined) {
    data = s.data;
    width = s.width;
  } else if (o.field === 't') {
    data = out.t;
    width = 1;
  } else noSeries(o, [...new Set(['t', ...out.series.map((x) => x.name)])]);
  if (count > 0) {
    if (width === 1) {
      if (o.component !== undefined && o.component !== 0)
        throw new OutputError(
          `output ${o.name}: ${o.field} is a scalar series, it has no component ${o.component}`,
        );
    } else if (o.component === undefined)
      throw new OutputError(
        `output ${o.name}: ${o.field} has ${width} components, name one (${o.field}[0])`,
      );
    else if (o.component >= width)
      throw new OutputError(
        `output ${o.name}: ${o.field} has ${width} components, no component ${o.component}`,
      );
  }
  const j = width === 1 ? 0 : o.component!;
  return flatStatOf(o, count, data, width, j);
}

/**
 * {@link statOf} of component `j` of a flat series of `count` states of `width` numbers each, read
 * as the document's text would give them (−0 as 0): the same arithmetic in the same order, so the
 * same cell. A loop of its own per statistic on the Float64Array, not a closure per read: every
 * point of a sweep runs these, and one function called with a different closure and statistic
 * each time was optimized and thrown away by V8 again and again in each worker (six optimized
 * compiles over a sweep's first points, against one per loop here).
 */
function flatStatOf(
  o: Extract<OutputSpec, { kind: 'series' }>,
  count: number,
  data: Float64Array,
  width: number,
  j: number,
): number | null {
  if (count === 0) return null;
  if (o.stat === 'final') return data[(count - 1) * width + j]! + 0;
  if (o.stat === 'initial') return data[j]! + 0;
  const start = count - Math.max(1, Math.ceil(o.tail * count - 1e-9));
  switch (o.stat) {
    case 'drift':
      return flatDrift(data, width, j, start, count);
    case 'max':
      return flatMax(data, width, j, start, count);
    case 'min':
      return flatMin(data, width, j, start, count);
    case 'maxabs':
      return flatMaxAbs(data, width, j, start, count);
    case 'mean':
      return flatMean(data, width, j, start, count);
  }
}

/** max over k in [start, count) of |x_k − x_0|, x_k = data[k·width + j] (as {@link statOf}). */
function flatDrift(data: Float64Array, width: number, j: number, start: number, count: number) {
  const x0 = data[j]! + 0;
  let acc = 0;
  for (let k = start; k < count; k++) acc = Math.max(acc, Math.abs(data[k * width + j]! + 0 - x0));
  return acc;
}

/** max over k in [start, count) of x_k (as {@link statOf}). */
function flatMax(data: Float64Array, width: number, j: number, start: number, count: number) {
  let acc = -Infinity;
  for (let k = start; k < count; k++) acc = Math.max(acc, data[k * width + j]! + 0);
  return acc;
}

/** min over k in [start, count) of x_k (as {@link statOf}). */
function flatMin(data: Float64Array, width: number, j: number, start: number, count: number) {
  let acc = Infinity;
  for (let k = start; k < count; k++) acc = Math.min(acc, data[k * width + j]! + 0);
  return acc;
}

/** max over k in [start, count) of |x_k| (as {@link statOf}). */
function flatMaxAbs(data: Float64Array, width: number, j: number, start: number, count: number) {
  let acc = 0;
  for (let k = start; k < count; k++) acc = Math.max(acc, Math.abs(data[k * width + j]! + 0));
  return acc;
}

/** The mean of x_k over k in [start, count), summed in order (as {@link statOf}). */
function flatMean(data: Float64Array, width: number, j: number, start: number, count: number) {
  let acc = 0;
  for (let k = start; k < count; k++) acc += data[k * width + j]! + 0;
  return acc / (count - start);
}

function docField(doc: Doc, field: string): Cell {
  if (field === 'finestError') {
    // order: the error of the finest level (the last)
    const errors = doc.error;
    return Array.isArray(errors) && typeof errors.at(-1) === 'number'
      ? (errors.at(-1) as number)
      : null;
  }
  let v = doc[field];
  if (v === undefined) v = (doc.stats as Doc | undefined)?.[field];
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return null;
}

/** A simulate document taken as values by a point's Io (`Io.takeDocument`), not as text. */
export class TakenDocument {
  constructor(readonly document: SimulateDocument) {}
}

/**
 * {@link docField} of a document taken as values: a header entry, else a `stats` entry, as the
 * text would give it (a non-finite number is `null` in JSON).
 */
function documentField(doc: SimulateDocument, field: string): Cell {
  if (field === 'finestError') return null; // an `order` field; a simulate document has none
  let v = doc.header[field];
  if (v === undefined) v = doc.stats[field];
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return null;
}

/**
 * The summary outputs of one point from its command's JSON document: its text parsed (`Doc`), or
 * a simulate document taken as values ({@link TakenDocument}), which gives the same cells.
 */
export function summarize(
  spec: SweepSpec,
  doc: Doc | TakenDocument | undefined,
  wallMs: number,
): Cell[] {
  return spec.outputs.map((o) => {
    if (o.kind === 'wallMs') return wallMs;
    if (doc === undefined) return null;
    if (doc instanceof TakenDocument) {
      const taken = doc.document;
      return o.kind === 'doc' ? documentField(taken, o.field) : documentSeriesStat(taken, o);
    }
    if (o.kind === 'doc') return docField(doc, o.field);
    return seriesStat(doc, o);
  });
}

const STATUS: Record<number, PointStatus> = { 0: 'ok', 1: 'failed', 2: 'invalid' };

/**
 * Runs point `index` of `spec` through {@link main} with captured output and returns its row:
 * index, coordinates, status (`ok`, `failed` for a numerical failure, `invalid` for bad input),
 * the outputs and the error line's text (null when ok).
 */
export async function runPoint(
  spec: SweepSpec,
  index: number,
  files: PointFiles,
  modelPath: string | undefined,
  guessPath: string | undefined,
): Promise<Row> {
  const argv = pointArgv(spec, index, modelPath, guessPath);
  argv.push(`--out=${VIRTUAL_OUT}`);
  let written: string | undefined;
  let taken: SimulateDocument | undefined;
  let stderr = '';
  // `checkOutput` (main's Io from the input-limits work) must accept the virtual --out path; the
  // cast keeps this object valid whether or not this version of Io declares it
  const io = {
    checkOutput: () => {},
    stdout: () => {},
    stderr: (t) => {
      stderr += t;
    },
    stderrIsTTY: false,
    writeFile: (path, text) => {
      if (path === VIRTUAL_OUT) written = text;
      else
        throw Object.assign(new Error(`a sweep point writes no files (${path})`), {
          code: 'EACCES',
        });
    },
    takeDocument: (path, document) => {
      if (path !== VIRTUAL_OUT) return false;
      taken = document;
      return true;
    },
    readFile: (path) => {
      const text = files.get(path);
      if (text === undefined)
        throw Object.assign(new Error(`no such file '${path}'`), { code: 'ENOENT' });
      return text;
    },
  } as Io;
  const started = performance.now();
  const code = await main(argv, io);
  const wallMs = Math.round((performance.now() - started) * 1000) / 1000;
  let status: PointStatus = STATUS[code] ?? 'failed';
  let error: string | null = null;
  if (code !== 0) {
    const line = stderr.split('\n').find((l) => l.startsWith('geomech: error: '));
    error = line === undefined ? `exit code ${code}` : line.slice('geomech: error: '.length);
  }
  let doc: Doc | TakenDocument | undefined;
  if (taken !== undefined) doc = new TakenDocument(taken);
  else if (written !== undefined) {
    try {
      doc = JSON.parse(written) as Doc;
    } catch {
      doc = undefined;
    }
  }
  let values: Cell[];
  try {
    values = summarize(spec, doc, wallMs);
  } catch (err) {
    if (!(err instanceof OutputError)) throw err;
    status = 'invalid';
    error = err.message;
    values = summarize(spec, undefined, wallMs);
  }
  return [index, ...pointCoordinates(spec, index), status, ...values, error];
}

/**
 * The row of point `index` when it ran out of its time budget of `ms` ms: status `timeout`, every
 * output null (nothing was measured), the reason in the error column. A function of the point and
 * the budget only, so a sweep whose slow points time out still writes the same bytes every run.
 *
 * @example
 * ```ts
 * const spec = parseSweepSpec(
 *   '{"command":"simulate","system":"pendulum","grid":{"h":[0.1]},"outputs":["final:q[0]"],"timeoutMs":50}',
 *   'spec.json',
 * );
 * timeoutRow(spec, 0, 50); // [0, 0.1, 'timeout', null, 'no result within the point time budget of 50 ms']
 * ```
 */
export function timeoutRow(spec: SweepSpec, index: number, ms: number): Row {
  return [
    index,
    ...pointCoordinates(spec, index),
    'timeout',
    ...spec.outputs.map(() => null),
    `no result within the point time budget of ${ms} ms`,
  ];
}

/**
 * Loads what the points of `spec` run, before the first one starts (a point's time budget then
 * does not pay for it): the built-in system's or problem's runner and its package, or the model
 * file's analysis (kept for the points, see `modelSystem`), its parse trees read from the model
 * cache in `cacheDir` when given. Never throws: a target that cannot be loaded is reported by each
 * point, as without this step.
 */
export async function preparePoints(
  spec: SweepSpec,
  files: PointFiles,
  modelPath: string | undefined,
  cacheDir?: string,
): Promise<void> {
  try {
    if (spec.model !== undefined) {
      const text = modelPath === undefined ? undefined : files.get(modelPath);
      if (text === undefined || modelPath === undefined) return;
      if (spec.command === 'solve') await (await modelProblem(text, modelPath, cacheDir)).load();
      else await (await modelSystem(text, modelPath, cacheDir)).load();
    } else if (spec.command === 'solve') await findProblem(spec.target!)?.load();
    else {
      await findSystem(spec.target!, 'system')?.load();
      if (spec.command === 'order') await import('@geomech/core');
    }
  } catch {
    // reported by the points
  }
}

/** The number of coordinate columns of a spec's rows. */
export const coordinateCount = (spec: SweepSpec): number => axisNames(spec).length;
