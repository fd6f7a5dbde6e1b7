/**
 * `geomech simulate <system> [options]`: resolves the request against the system's descriptor
 * (defaults, names, ranges, the limits of `../limits.ts`), runs it, checks the result against the
 * system's accuracy bands and serializes it; a failed run yields its partial result.
 *
 * @module
 */
import { isNumericalError, NumericalFailure, quoteUser, UsageError } from '../errors.js';
import { formatBytes } from '../files.js';
import { formatCount, formatShort, MAX_ITERATIONS, MAX_STEPS } from '../limits.js';
import {
  csvChunks,
  estimateOutputBytes,
  type Format,
  finiteStates,
  jsonChunks,
  keptStates,
  MAX_OUTPUT_BYTES,
  truncated,
} from '../output.js';
import {
  findSystem,
  type ParamReader,
  type Quantity,
  type SystemDescriptor,
  systems,
} from '../registry.js';
import type { SimulateRequest, SimulationOutput } from '../runner.js';
import { parseAssignments, parseCount, parseNumber } from '../values.js';

/** Raw option values as commander hands them over. */
export interface SimulateOptions {
  method?: string;
  h?: string;
  steps?: string;
  tEnd?: string;
  param: string[];
  init: string[];
  every?: string;
  tol?: string;
  maxIter?: string;
  format?: string;
  out?: string;
  model?: string;
}

/** Chooses the output format from `--format`, else from the extension of `--out`, else JSON. */
export function resolveFormat(format: string | undefined, out: string | undefined): Format {
  if (format !== undefined) {
    if (format === 'json' || format === 'csv') return format;
    throw new UsageError(`unknown format ${quoteUser(format)} (choose json or csv)`, '--format');
  }
  if (out?.toLowerCase().endsWith('.csv')) return 'csv';
  return 'json';
}

/**
 * Checks a size-like quantity (`count` set in the registry): an integer in [min, max].
 * @throws UsageError naming the flag and the limit.
 */
export function checkCount(q: Quantity, value: readonly number[], flag: string): void {
  if (q.count === undefined) return;
  const where = `${flag} ${q.name}`;
  if (value.length !== 1)
    throw new UsageError(`${q.name} takes one number, got ${value.length}`, where);
  const v = value[0]!;
  if (v > q.count.max)
    throw new UsageError(
      `${q.name} = ${formatCount(v)} is over the limit of ${formatCount(q.count.max)} ${q.count.unit}`,
      where,
    );
  if (!(Number.isInteger(v) && v >= q.count.min))
    throw new UsageError(`${q.name} must be an integer ≥ ${q.count.min}, got ${v}`, where);
}

function resolveQuantities(
  given: Map<string, number[]>,
  system: SystemDescriptor,
  which: 'params' | 'init',
): Map<string, number[]> {
  const flag = which === 'params' ? '--param' : '--init';
  const declared = system[which];
  const alternatives = which === 'init' ? system.initAlternatives : undefined;
  let names: readonly string[] = declared.map((q) => q.name);
  if (alternatives) {
    const match = alternatives.find((alt) => [...given.keys()].every((k) => alt.includes(k)));
    if (!match) {
      const unknown = [...given.keys()].find((k) => !alternatives.some((alt) => alt.includes(k)));
      if (unknown !== undefined)
        throw new UsageError(`unknown initial datum '${unknown}' for ${system.name}`, flag);
      throw new UsageError(
        `conflicting initial data ${[...given.keys()].join(', ')}; give one of ${alternatives.map((a) => `(${a.join(', ')})`).join(' or ')}`,
        flag,
      );
    }
    names = match;
  }
  for (const k of given.keys()) {
    if (!names.includes(k)) {
      const known = names.length > 0 ? names.join(', ') : 'none';
      throw new UsageError(
        `unknown ${which === 'params' ? 'parameter' : 'initial datum'} '${k}' for ${system.name} (known: ${known})`,
        flag,
      );
    }
  }
  const out = new Map<string, number[]>();
  for (const name of names) {
    const value = given.get(name);
    const q = declared.find((d) => d.name === name);
    if (value !== undefined) {
      if (q !== undefined) checkCount(q, value, flag);
      out.set(name, value);
    } else {
      if (!q) throw new UsageError(`${name} has no default; give ${flag} ${name}=...`, flag);
      out.set(name, typeof q.default === 'number' ? [q.default] : [...q.default]);
    }
  }
  return out;
}

/** Reads scalar parameters of a resolved map (NaN for a missing or vector one). */
export function paramReader(params: ReadonlyMap<string, readonly number[]>): ParamReader {
  return (name) => {
    const v = params.get(name);
    return v !== undefined && v.length === 1 ? v[0]! : Number.NaN;
  };
}

/**
 * The number of steps of `--t-end T` with step `h`: round(T/h), computed so that an overflowing
 * or tiny ratio gives a message naming its cause.
 */
function stepsFromTEnd(tEnd: number, h: number): number {
  const ratio = tEnd / h;
  if (!(ratio <= MAX_STEPS + 0.5))
    throw new UsageError(
      `t-end ${formatShort(tEnd)} with h = ${formatShort(h)} needs ${formatCount(ratio)} steps, over the limit of ${formatCount(MAX_STEPS)} steps per run; give a larger --h or a shorter --t-end`,
      '--t-end',
    );
  const steps = Math.round(ratio);
  if (!(steps >= 1)) throw new UsageError(`t-end ${tEnd} gives no step with h = ${h}`, '--t-end');
  return steps;
}

/**
 * Resolves and validates a request from raw options; every limit is checked here, before any work.
 * `checks.outputSize: false` skips the output estimate (for `geomech order`, which keeps only the
 * last state of each run).
 */
export function resolveSimulate(
  name: string,
  o: SimulateOptions,
  given?: SystemDescriptor,
  checks: { readonly outputSize?: boolean } = {},
): SimulateRequest {
  const system = given ?? findSystem(name, 'system');
  if (!system) {
    const names = systems.filter((s) => s.kind === 'system').map((s) => s.name);
    throw new UsageError(
      `unknown system ${quoteUser(name)} (known: ${names.join(', ')})`,
      'geomech simulate',
    );
  }
  const method = o.method ?? system.methods[0]!;
  if (!system.methods.includes(method)) {
    throw new UsageError(
      `unknown method ${quoteUser(method)} for ${system.name} (choose ${system.methods.join(', ')})`,
      '--method',
    );
  }
  const h = o.h === undefined ? system.defaults.h : parseNumber(o.h, '--h');
  if (!(h > 0)) throw new UsageError(`h must be > 0, got ${h}`, '--h');
  if (o.steps !== undefined && o.tEnd !== undefined)
    throw new UsageError('give --steps or --t-end, not both', '--t-end');
  let steps = system.defaults.steps;
  if (o.steps !== undefined) steps = parseCount(o.steps, '--steps', 1, MAX_STEPS, 'steps');
  else if (o.tEnd !== undefined) steps = stepsFromTEnd(parseNumber(o.tEnd, '--t-end'), h);
  else if (!(Number.isSafeInteger(steps) && steps >= 1 && steps <= MAX_STEPS))
    throw new UsageError(
      `the default number of steps ${formatCount(steps)} of ${system.name} is over the limit of ${formatCount(MAX_STEPS)}; give --steps`,
      '--steps',
    );
  if (!Number.isFinite(steps * h))
    throw new UsageError(
      `the horizon steps·h = ${formatCount(steps)}·${h} is not a finite time`,
      o.h === undefined ? '--steps' : '--h',
    );
  const every = o.every === undefined ? 1 : parseCount(o.every, '--every', 1, MAX_STEPS, 'every');
  const params = resolveQuantities(parseAssignments(o.param, '--param'), system, 'params');
  const init = resolveQuantities(parseAssignments(o.init, '--init'), system, 'init');
  if (checks.outputSize !== false) checkOutputSize(system, params, steps, every);
  const request: SimulateRequest = {
    system,
    method,
    h,
    steps,
    every,
    params,
    init,
    ...(o.tol === undefined ? {} : { tol: positive(parseNumber(o.tol, '--tol'), '--tol') }),
    ...(o.maxIter === undefined
      ? {}
      : { maxIterations: parseCount(o.maxIter, '--max-iter', 1, MAX_ITERATIONS, 'max-iter') }),
  };
  return request;
}

/**
 * Refuses a run whose output would exceed {@link MAX_OUTPUT_BYTES}, estimated from the number of
 * kept states and the system's numbers per state, and names the `--every` that fits.
 */
function checkOutputSize(
  system: SystemDescriptor,
  params: ReadonlyMap<string, readonly number[]>,
  steps: number,
  every: number,
): void {
  if (system.outputWidth === undefined) return;
  const width = system.outputWidth(paramReader(params));
  if (!Number.isFinite(width)) return;
  const fields = system.fields.length + 1;
  const states = keptStates(steps, every);
  const bytes = estimateOutputBytes(states, width, fields);
  if (bytes <= MAX_OUTPUT_BYTES) return;
  const perState = estimateOutputBytes(1, width, fields);
  const fit = Math.ceil(steps / Math.max(1, Math.floor(MAX_OUTPUT_BYTES / perState) - 2));
  throw new UsageError(
    `the output would hold ${formatCount(states)} states × ${width} numbers ≈ ${formatBytes(bytes)}, over the limit of ${formatBytes(MAX_OUTPUT_BYTES)}; keep fewer states with --every ${fit} (or more)`,
    '--every',
  );
}

function positive(x: number, where: string): number {
  if (!(x > 0)) throw new UsageError(`must be > 0, got ${x}`, where);
  return x;
}

/**
 * Warnings known before the run: a step above the system's time scale (see
 * {@link SystemDescriptor.timeScale}) resolves no oscillation.
 */
export function preflightWarnings(request: SimulateRequest): string[] {
  const scale = request.system.timeScale;
  if (scale === undefined) return [];
  const value = scale.value(paramReader(request.params));
  if (!(Number.isFinite(value) && value > 0 && request.h > value)) return [];
  return [
    `h = ${request.h} is ${formatShort(request.h / value)} times the time scale ${scale.formula} = ${formatShort(value)} of ${request.system.name}: fewer than 2π steps per oscillation, so the run cannot be accurate; try --h ${formatShort(value / 10)} or smaller`,
  ];
}

/** What to try after a failed or inaccurate run: a smaller step, another method. */
function retryHint(request: SimulateRequest, newton: boolean): string {
  const scale = request.system.timeScale;
  const value = scale?.value(paramReader(request.params)) ?? Number.NaN;
  const preferred = request.system.methods[0]!;
  const method = request.method === preferred ? '' : ` or --method ${preferred}`;
  if (scale !== undefined && Number.isFinite(value) && value > 0 && request.h > value / 10)
    return `h = ${request.h} is ${formatShort(request.h / value)} times the time scale ${scale.formula} = ${formatShort(value)}: try --h ${formatShort(value / 10)} or smaller${method}`;
  return `try a smaller --h${method}${newton ? ', or a larger --max-iter' : ''}`;
}

/**
 * The warnings of a finished run whose accuracy bands (see {@link SystemDescriptor.bands}) were
 * left: the worst value, where, the band and what to try.
 */
export function bandWarnings(request: SimulateRequest, out: SimulationOutput): string[] {
  const warnings: string[] = [];
  const p = paramReader(request.params);
  for (const band of request.system.bands ?? []) {
    if (band.applies !== undefined && !band.applies(p)) continue;
    const s = out.series.find((x) => x.name === band.field);
    if (s === undefined || out.count === 0) continue;
    let worst = 0;
    let at = 0;
    let ref = 0;
    for (let j = 0; j < s.width; j++) ref = Math.max(ref, Math.abs(s.data[j]!));
    for (let i = 0; i < out.count; i++) {
      for (let j = 0; j < s.width; j++) {
        const x = s.data[i * s.width + j]!;
        const d = band.measure === 'residual' ? Math.abs(x) : Math.abs(x - s.data[j]!);
        if (!(d <= worst)) {
          worst = d;
          at = i;
        }
      }
    }
    const scale = band.scale?.(p) ?? (band.measure === 'residual' ? 1 : 0);
    const size = band.measure === 'residual' ? scale : Math.max(ref, scale);
    const limit = band.tol * (size > 0 ? size : 1);
    if (worst <= limit) continue;
    const scaleText = band.scaleText ?? (band.measure === 'residual' ? '1' : `|${band.field}(0)|`);
    const what =
      band.measure === 'residual'
        ? `${band.field} residual reached ${formatShort(worst)} at t = ${formatShort(out.t[at]!)}, outside the band ${band.tol}·${scaleText} = ${formatShort(limit)} of ${request.system.name} (the exact flow keeps it 0)`
        : `${band.field} drifted by ${formatShort(worst)} from ${formatShort(s.data[0]!)} at t = ${formatShort(out.t[at]!)}, outside the band ${band.tol}·${scaleText} = ${formatShort(limit)} of ${request.system.name} (the exact flow keeps it constant)`;
    warnings.push(
      `${what}: ${request.method} at h = ${request.h} is not accurate here; ${retryHint(request, false)}`,
    );
  }
  return warnings;
}

/**
 * The parts of a run's JSON document as values, before serialization: `jsonChunks(header,
 * output, stats)` writes exactly this document. A sweep point reads its summary outputs from these
 * numbers instead of writing them out as text and parsing them back (see `Io.takeDocument`).
 */
export interface SimulateDocument {
  /** `ok`, `system`, `method`, `h`, `steps`, `params`, `init`, [`error`], [`warnings`]. */
  readonly header: Readonly<Record<string, unknown>>;
  /** The series (truncated to the finite states of a failed run). */
  readonly output: SimulationOutput;
  /** `newtonIterations`, `maxResidual`, `wallMs`. */
  readonly stats: Readonly<Record<string, number>>;
}

/** The serialized document and the raw output (for `--plot`). */
export interface SimulateResult {
  /** The document in chunks of text (JSON or CSV), written as they come. */
  readonly chunks: () => Iterable<string>;
  /** The JSON document's parts as values (whatever the format). */
  readonly document: SimulateDocument;
  readonly output: SimulationOutput;
  /** Every warning of the run (also in the JSON document). */
  readonly warnings: readonly string[];
  /** Set when the run failed: the one-line error; `chunks` then holds the partial result. */
  readonly failure?: NumericalFailure;
}

/**
 * Runs a resolved request and returns the serialized document.
 * @throws the run's failure (a numerical failure: exit code 1) when it did not complete.
 */
export async function runSimulate(
  request: SimulateRequest,
  format: Format,
  warn: (message: string) => void = () => {},
): Promise<string> {
  const result = await runSimulateWithOutput(request, format, warn);
  if (result.failure !== undefined) throw result.failure;
  return [...result.chunks()].join('');
}

const EMPTY_OUTPUT: SimulationOutput = {
  count: 0,
  t: new Float64Array(0),
  series: [],
  stats: { newtonIterations: 0, maxResidual: 0 },
};

/** The step a library error names, if any. */
function stepOf(err: Error): number | undefined {
  const step = (err as { step?: unknown }).step;
  return typeof step === 'number' ? step : undefined;
}

/**
 * The one-line failure of a run: the error, where it happened (when the message does not say),
 * and what to try. `step` is the 0-based step that failed (leaving t = step·h).
 */
function failureOf(request: SimulateRequest, error: Error, step?: number): NumericalFailure {
  if (error instanceof NumericalFailure) return error;
  const message = error.message;
  const at =
    step === undefined || /\bstep \d+/.test(message)
      ? ''
      : ` at step ${step + 1} of ${request.steps} (from t = ${formatShort(step * request.h)})`;
  const newton = /newton/i.test(message);
  return new NumericalFailure(
    `${message}${at}; ${retryHint(request, newton)}`,
    `geomech simulate ${request.system.name}`,
  );
}

/**
 * {@link runSimulate}, also returning the runner's output and the failure of a failed run instead
 * of throwing it (so that the caller can still write the partial result).
 */
export async function runSimulateWithOutput(
  request: SimulateRequest,
  format: Format,
  warn: (message: string) => void = () => {},
): Promise<SimulateResult> {
  const runner = await request.system.load();
  const warnings = preflightWarnings(request);
  for (const message of warnings) warn(message);
  const started = performance.now();
  let out: SimulationOutput;
  let failure: NumericalFailure | undefined;
  try {
    out = runner.simulate(request);
  } catch (err) {
    if (!isNumericalError(err)) throw err;
    out = EMPTY_OUTPUT;
    failure = failureOf(request, err, stepOf(err));
  }
  const wallMs = Math.round((performance.now() - started) * 1000) / 1000;
  if (failure === undefined && out.failure !== undefined)
    failure = failureOf(request, out.failure.error, out.failure.step);
  const finite = finiteStates(out);
  if (finite < out.count) {
    if (failure === undefined) {
      const bad = out.t[finite]!;
      failure = new NumericalFailure(
        `non-finite value at t = ${formatShort(bad)} (state ${finite}); ${retryHint(request, false)}`,
        `geomech simulate ${request.system.name}`,
      );
    }
    out = truncated(out, finite);
  }
  const runWarnings = [...(out.warnings ?? [])];
  if (failure === undefined) runWarnings.push(...bandWarnings(request, out));
  for (const message of runWarnings) warn(message);
  warnings.push(...runWarnings);
  const output = out;
  const reason = failure?.what;
  const vectorOrScalar = (v: readonly number[]) => (v.length === 1 ? v[0]! : v);
  const document: SimulateDocument = {
    header: {
      ok: failure === undefined,
      system: request.system.name,
      method: request.method,
      h: request.h,
      steps: request.steps,
      params: Object.fromEntries([...request.params].map(([k, v]) => [k, vectorOrScalar(v)])),
      init: Object.fromEntries([...request.init].map(([k, v]) => [k, vectorOrScalar(v)])),
      ...(reason === undefined ? {} : { error: reason }),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    output,
    stats: {
      newtonIterations: output.stats.newtonIterations,
      maxResidual: output.stats.maxResidual,
      wallMs,
    },
  };
  const chunks = (): Iterable<string> =>
    format === 'csv'
      ? csvChunks(output, reason)
      : jsonChunks(document.header, output, document.stats);
  return { chunks, document, output, warnings, ...(failure === undefined ? {} : { failure }) };
}
