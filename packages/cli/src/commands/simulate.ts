/**
 * `geomech simulate <system> [options]`: resolves the request against the system's descriptor
 * (defaults, names, ranges), runs it and serializes the result.
 *
 * @module
 */
import { UsageError } from '../errors.js';
import { assertFinite, type Format, toCsv, toJson } from '../output.js';
import { findSystem, type SystemDescriptor, systems } from '../registry.js';
import type { SimulateRequest, SimulationOutput } from '../runner.js';
import { parseAssignments, parseNumber, parsePositiveInt } from '../values.js';

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
    throw new UsageError(`unknown format '${format}' (choose json or csv)`, '--format');
  }
  if (out?.toLowerCase().endsWith('.csv')) return 'csv';
  return 'json';
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
    if (value !== undefined) out.set(name, value);
    else {
      const q = declared.find((d) => d.name === name);
      if (!q) throw new UsageError(`${name} has no default; give ${flag} ${name}=...`, flag);
      out.set(name, typeof q.default === 'number' ? [q.default] : [...q.default]);
    }
  }
  return out;
}

/** Resolves and validates a request from raw options. */
export function resolveSimulate(
  name: string,
  o: SimulateOptions,
  given?: SystemDescriptor,
): SimulateRequest {
  const system = given ?? findSystem(name, 'system');
  if (!system) {
    const names = systems.filter((s) => s.kind === 'system').map((s) => s.name);
    throw new UsageError(
      `unknown system '${name}' (known: ${names.join(', ')})`,
      'geomech simulate',
    );
  }
  const method = o.method ?? system.methods[0]!;
  if (!system.methods.includes(method)) {
    throw new UsageError(
      `unknown method '${method}' for ${system.name} (choose ${system.methods.join(', ')})`,
      '--method',
    );
  }
  const h = o.h === undefined ? system.defaults.h : parseNumber(o.h, '--h');
  if (!(h > 0)) throw new UsageError(`h must be > 0, got ${h}`, '--h');
  if (o.steps !== undefined && o.tEnd !== undefined)
    throw new UsageError('give --steps or --t-end, not both', '--t-end');
  let steps = system.defaults.steps;
  if (o.steps !== undefined) steps = parsePositiveInt(o.steps, '--steps');
  if (o.tEnd !== undefined) {
    const tEnd = parseNumber(o.tEnd, '--t-end');
    steps = Math.round(tEnd / h);
    if (!(steps >= 1)) throw new UsageError(`t-end ${tEnd} gives no step with h = ${h}`, '--t-end');
  }
  const every = o.every === undefined ? 1 : parsePositiveInt(o.every, '--every');
  const request: SimulateRequest = {
    system,
    method,
    h,
    steps,
    every,
    params: resolveQuantities(parseAssignments(o.param, '--param'), system, 'params'),
    init: resolveQuantities(parseAssignments(o.init, '--init'), system, 'init'),
    ...(o.tol === undefined ? {} : { tol: positive(parseNumber(o.tol, '--tol'), '--tol') }),
    ...(o.maxIter === undefined
      ? {}
      : { maxIterations: parsePositiveInt(o.maxIter, '--max-iter') }),
  };
  return request;
}

function positive(x: number, where: string): number {
  if (!(x > 0)) throw new UsageError(`must be > 0, got ${x}`, where);
  return x;
}

/** The serialized document and the raw output (for `--plot`). */
export interface SimulateResult {
  readonly text: string;
  readonly output: SimulationOutput;
}

/** Runs a resolved request and returns the serialized document. */
export async function runSimulate(
  request: SimulateRequest,
  format: Format,
  warn: (message: string) => void = () => {},
): Promise<string> {
  return (await runSimulateWithOutput(request, format, warn)).text;
}

/** {@link runSimulate}, also returning the runner's output. */
export async function runSimulateWithOutput(
  request: SimulateRequest,
  format: Format,
  warn: (message: string) => void = () => {},
): Promise<SimulateResult> {
  const runner = await request.system.load();
  const started = performance.now();
  const out = runner.simulate(request);
  const wallMs = Math.round((performance.now() - started) * 1000) / 1000;
  for (const message of out.warnings ?? []) warn(message);
  assertFinite(out);
  if (format === 'csv') return { text: toCsv(out), output: out };
  const vectorOrScalar = (v: readonly number[]) => (v.length === 1 ? v[0]! : v);
  const text = toJson(
    {
      ok: true,
      system: request.system.name,
      method: request.method,
      h: request.h,
      steps: request.steps,
      params: Object.fromEntries([...request.params].map(([k, v]) => [k, vectorOrScalar(v)])),
      init: Object.fromEntries([...request.init].map(([k, v]) => [k, vectorOrScalar(v)])),
      ...(out.warnings && out.warnings.length > 0 ? { warnings: out.warnings } : {}),
    },
    out,
    { newtonIterations: out.stats.newtonIterations, maxResidual: out.stats.maxResidual, wallMs },
  );
  return { text, output: out };
}
