/**
 * `geomech solve <problem> [options]`: resolves an optimal-control request against the problem's
 * descriptor (defaults, names, ranges), solves it and serializes the result (CLI contract,
 * "geomech solve").
 *
 * @module
 */
import { quoteUser, UsageError } from '../errors.js';
import { MAX_CONTINUATION, MAX_ITERATIONS } from '../limits.js';
import { assertFinite, type Format, toCsv, toJson } from '../output.js';
import { findProblem, type ProblemDescriptor, problems } from '../registry.js';
import type { SolveOutput, SolveProgress, SolveRequest } from '../runner.js';
import { parseAssignments, parseCount, parseNumber, parseVector } from '../values.js';
import { checkCount } from './simulate.js';

/** Raw option values as commander hands them over. */
export interface SolveOptions {
  method?: string;
  param: string[];
  n?: string;
  start?: string;
  end?: string;
  tol?: string;
  maxIter?: string;
  guess?: string;
  continuation?: string;
  format?: string;
  out?: string;
  plot?: string;
  quiet?: boolean;
  /** `--feedback FILE`: also write the time-varying LQR gains of the solution. */
  feedback?: string;
  /** `--feedback-weights lagrangian|unit`. */
  feedbackWeights?: string;
}

/**
 * Resolves and validates a request. `readFile` reads the `--guess` file (a previous solution's
 * JSON document: its `series` becomes the warm start).
 */
export function resolveSolve(
  name: string,
  o: SolveOptions,
  readFile: (path: string) => string,
  model?: ProblemDescriptor,
): SolveRequest {
  const problem = model ?? findProblem(name);
  if (!problem) {
    throw new UsageError(
      `unknown problem ${quoteUser(name)} (known: ${problems.map((p) => p.name).join(', ')})`,
      'geomech solve',
    );
  }
  const method = o.method ?? problem.methods[0]!;
  if (!problem.methods.includes(method)) {
    throw new UsageError(
      `unknown method ${quoteUser(method)} for ${problem.name} (choose ${problem.methods.join(', ')})`,
      '--method',
    );
  }
  const { params, choices } = resolveParams(problem, o);
  const boundary = new Map<string, readonly number[]>();
  for (const b of problem.boundary) {
    const text = b.name === 'start' ? o.start : b.name === 'end' ? o.end : undefined;
    const flag = `--${b.name}`;
    const value = text === undefined ? (b.default as readonly number[]) : parseVector(text, flag);
    const expected = (b.default as readonly number[]).length;
    if (value.length !== expected)
      throw new UsageError(
        `takes ${expected} numbers (${b.description}), got ${value.length}`,
        flag,
      );
    boundary.set(b.name, value);
  }
  for (const [flag, text] of [
    ['start', o.start],
    ['end', o.end],
  ] as const) {
    if (text !== undefined && !problem.boundary.some((b) => b.name === flag))
      throw new UsageError(`${problem.name} has a fixed ${flag}`, `--${flag}`);
  }
  const tol = o.tol === undefined ? 1e-10 : parseNumber(o.tol, '--tol');
  if (!(tol > 0)) throw new UsageError(`must be > 0, got ${tol}`, '--tol');
  const continuation =
    o.continuation === undefined
      ? 0
      : parseCount(o.continuation, '--continuation', 0, MAX_CONTINUATION, 'continuation');
  const guess = o.guess === undefined ? undefined : readGuess(o.guess, readFile);
  return {
    problem,
    method,
    params,
    choices,
    boundary,
    tol,
    continuation,
    // 0 evaluates the guess: status and second-order verdict only
    ...(o.maxIter === undefined
      ? {}
      : { maxIterations: parseCount(o.maxIter, '--max-iter', 0, MAX_ITERATIONS, 'max-iter') }),
    ...(guess === undefined ? {} : { guess }),
    ...(o.feedback === undefined ? {} : { feedback: true }),
    ...(o.feedbackWeights === undefined
      ? {}
      : { feedbackWeights: feedbackWeights(o.feedbackWeights, o.feedback !== undefined) }),
  };
}

function feedbackWeights(text: string, given: boolean): 'lagrangian' | 'unit' {
  if (!given) throw new UsageError('needs --feedback FILE', '--feedback-weights');
  if (text !== 'lagrangian' && text !== 'unit')
    throw new UsageError(
      `unknown weights ${quoteUser(text)} (choose lagrangian or unit)`,
      '--feedback-weights',
    );
  return text;
}

function resolveParams(
  problem: ProblemDescriptor,
  o: SolveOptions,
): { params: Map<string, readonly number[]>; choices: Map<string, string> } {
  const choices = new Map<string, string>();
  const numeric: string[] = [];
  for (const item of o.param) {
    const eq = item.indexOf('=');
    const key = eq > 0 ? item.slice(0, eq).trim() : '';
    const choice = problem.choices.find((c) => c.name === key);
    if (choice) {
      const value = item.slice(eq + 1).trim();
      if (!choice.choices.includes(value))
        throw new UsageError(
          `unknown ${choice.name} '${value}' (choose ${choice.choices.join(', ')})`,
          `--param ${choice.name}`,
        );
      choices.set(choice.name, value);
    } else numeric.push(item);
  }
  for (const c of problem.choices) if (!choices.has(c.name)) choices.set(c.name, c.default);
  const given = parseAssignments(numeric, '--param');
  const nQuantity = problem.params.find((q) => q.name === 'n');
  if (o.n !== undefined) {
    if (given.has('n')) throw new UsageError('give --n or --param n=..., not both', '--n');
    given.set('n', [
      parseCount(
        o.n,
        '--n',
        nQuantity?.count?.min ?? 1,
        nQuantity?.count?.max ?? Number.MAX_SAFE_INTEGER,
        'n',
      ),
    ]);
  }
  const params = new Map<string, readonly number[]>();
  for (const [k, v] of given) {
    if (!problem.params.some((q) => q.name === k)) {
      const known = [...problem.params.map((q) => q.name), ...problem.choices.map((c) => c.name)];
      throw new UsageError(
        `unknown parameter '${k}' for ${problem.name} (known: ${known.join(', ')})`,
        '--param',
      );
    }
    if (v.length !== 1)
      throw new UsageError(`${k} takes one number, got ${v.length}`, `--param ${k}`);
    checkCount(problem.params.find((q) => q.name === k)!, v, '--param');
    params.set(k, v);
  }
  for (const q of problem.params)
    if (!params.has(q.name)) params.set(q.name, [q.default as number]);
  const n = params.get('n')![0]!;
  if (!(Number.isInteger(n) && n >= 2))
    throw new UsageError(`n must be an integer ≥ 2, got ${n}`, '--n');
  return { params, choices };
}

function readGuess(path: string, readFile: (path: string) => string): Record<string, unknown> {
  const where = `--guess ${quoteUser(path)}`;
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `cannot read guess file: ${err instanceof Error ? err.message : String(err)}`,
      where,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `guess file is not JSON: ${err instanceof Error ? err.message : String(err)}`,
      where,
    );
  }
  if (
    typeof doc !== 'object' ||
    doc === null ||
    typeof (doc as { series?: unknown }).series !== 'object' ||
    (doc as { series?: unknown }).series === null
  )
    throw new UsageError('guess file has no "series" object (a previous solve output)', where);
  return (doc as { series: Record<string, unknown> }).series;
}

/** The serialized document and the raw output (for `--plot`). */
export interface SolveResult {
  readonly text: string;
  readonly output: SolveOutput;
}

/** Solves a resolved request and serializes it (JSON by default; CSV holds the series only). */
export async function runSolve(
  request: SolveRequest,
  format: Format,
  progress: (p: SolveProgress) => void = () => {},
): Promise<SolveResult> {
  const runner = await request.problem.load();
  const started = performance.now();
  const out = runner.solve(request, progress);
  const wallMs = Math.round((performance.now() - started) * 1000) / 1000;
  assertFinite(out);
  if (format === 'csv') {
    // an answer that is not a converged minimum carries the CSV failure marker (# ok=false …)
    const failure = out.ok
      ? undefined
      : out.converged
        ? `converged to a ${out.secondOrder} point, not a minimum (status ${out.status})`
        : `not converged: status ${out.status} after ${out.iterations} iterations (KKT error ${out.residualNorm.toExponential(3)})`;
    return { text: toCsv(out, failure), output: out };
  }
  const params: Record<string, unknown> = {};
  for (const [k, v] of request.params) params[k] = v.length === 1 ? v[0]! : v;
  for (const [k, v] of request.choices) params[k] = v;
  const header: Record<string, unknown> = {
    ok: out.ok,
    problem: request.problem.name,
    method: request.method,
    params,
    ...(request.boundary.size > 0 ? { boundary: Object.fromEntries(request.boundary) } : {}),
    converged: out.converged,
    status: out.status,
    secondOrder: out.secondOrder,
    iterations: out.iterations,
    residualNorm: out.residualNorm,
    cost: out.cost,
    ...(out.extra ?? {}),
    ...(out.hint === undefined ? {} : { hint: out.hint }),
    history: out.history,
  };
  const text = toJson(header, out, {
    newtonIterations: out.stats.newtonIterations,
    maxResidual: out.stats.maxResidual,
    wallMs,
  });
  return { text, output: out };
}
