/**
 * Time-varying LQR feedback in the CLI (issue 19): the feedback file that `geomech solve …
 * --feedback FILE` writes, and `geomech simulate --feedback FILE [--model OCP.json] [--perturb
 * v1,…]`, which rebuilds the problem named in the file, runs the closed loop
 * u_k = u*_k − K_k·log(x*_k⁻¹x_k) and the open loop u_k = u*_k from the same perturbed start
 * x_0 = x*_0·exp(δ), and reports the tracking error |log(x*_k⁻¹x_k)| of both per step.
 *
 * The feedback file (one JSON object): `kind: "feedback"`, `problem` (its name), `model` (true for
 * a `--model` problem: give the same model file to `simulate`), `params` (the solve's parameters
 * and choices), `boundary`, `law`, `weights` (`lagrangian` or `unit`), `N`, `T`, `storage` (S: numbers per state), `dim` (n: the
 * tangent dimension, the columns of K_k), `controls` (m), `x` (N + 1 states, S numbers each), `u`
 * (N rows of m), `K` (N rows of m·n numbers, K_k row-major).
 *
 * @module
 */
import { simulateFeedback } from '@geomech/groupoid';
import { quoteUser, UsageError } from '../errors.js';
import { toJson } from '../output.js';
import { findProblem, type ProblemDescriptor } from '../registry.js';
import type { FeedbackData, SimulationOutput, SolveRequest } from '../runner.js';
import { parseVector } from '../values.js';

/** Default perturbation of every tangent coordinate of the start (`--perturb` not given). */
export const DEFAULT_PERTURBATION = 0.01;

/** The feedback file of a solve (module comment). */
export function feedbackDocument(request: SolveRequest, model: boolean, fb: FeedbackData): string {
  const params: Record<string, unknown> = {};
  for (const [k, v] of request.params) params[k] = v.length === 1 ? v[0]! : v;
  for (const [k, v] of request.choices) params[k] = v;
  const rows = (a: Float64Array, count: number, width: number) =>
    Array.from({ length: count }, (_, k) => Array.from(a.subarray(k * width, (k + 1) * width)));
  const doc = {
    kind: 'feedback',
    problem: request.problem.name,
    model,
    params,
    boundary: Object.fromEntries(request.boundary),
    law: 'u_k = u*_k - K_k log(x*_k^-1 x_k)',
    weights: request.feedbackWeights ?? 'lagrangian',
    N: fb.N,
    T: fb.T,
    storage: fb.storage,
    dim: fb.dim,
    controls: fb.controls,
    x: rows(fb.x, fb.N + 1, fb.storage),
    u: rows(fb.u, fb.N, fb.controls),
    K: rows(fb.K, fb.N, fb.controls * fb.dim),
  };
  return `${JSON.stringify(doc)}\n`;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A matrix field of the file: `count` rows of `width` finite numbers, flattened. */
function matrix(
  doc: Record<string, unknown>,
  key: string,
  count: number,
  width: number,
  where: string,
): Float64Array {
  const v = doc[key];
  const at = `${where} ${key}`;
  if (!Array.isArray(v) || v.length !== count)
    throw new UsageError(`must be a list of ${count} rows`, at);
  const out = new Float64Array(count * width);
  v.forEach((row: unknown, k) => {
    if (!Array.isArray(row) || row.length !== width)
      throw new UsageError(`row ${k} must have ${width} numbers`, at);
    row.forEach((x: unknown, j) => {
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new UsageError(`row ${k} has a non-finite entry`, at);
      out[k * width + j] = x;
    });
  });
  return out;
}

function count(doc: Record<string, unknown>, key: string, where: string, min: number): number {
  const v = doc[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new UsageError(`${key} must be an integer ≥ ${min}`, where);
  return v;
}

/** What `simulate --feedback` takes besides the file. */
export interface FeedbackSimulateOptions {
  /** `--perturb`: the tangent perturbation of the start (comma list, n numbers). */
  readonly perturb?: string;
  /** The problem of a `--model` file (loaded by the caller). */
  readonly model?: ProblemDescriptor;
}

/** The document and output of {@link runFeedbackSimulation}. */
export interface FeedbackSimulationResult {
  readonly text: string;
  readonly output: SimulationOutput;
}

/**
 * Reads a feedback file, rebuilds its problem and simulates the closed and the open loop from the
 * perturbed start (module comment). Output: the contract's JSON document with `series` `t`, `x`
 * (the states' storage), `u` (the applied controls; state k carries step k's, the last state
 * repeats the last step's), `delta` (log(x*_k⁻¹x_k)), `error` (|delta|), `openLoopError`, and a
 * header with `initialError`, `finalError`, `openLoopFinalError`.
 *
 * @throws UsageError (exit 2) for a malformed file, a problem without feedback, or a perturbation
 *   of the wrong length.
 */
export async function runFeedbackSimulation(
  text: string,
  file: string,
  options: FeedbackSimulateOptions,
): Promise<FeedbackSimulationResult> {
  const where = `--feedback ${quoteUser(file)}`;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`not JSON: ${err instanceof Error ? err.message : String(err)}`, where);
  }
  if (!isObject(doc) || doc.kind !== 'feedback')
    throw new UsageError(
      'not a feedback file (kind "feedback", written by geomech solve --feedback)',
      where,
    );
  if (typeof doc.problem !== 'string') throw new UsageError('problem must be a name', where);
  const isModel = doc.model === true;
  let problem: ProblemDescriptor | undefined;
  if (isModel) {
    if (options.model === undefined)
      throw new UsageError(
        `the gains belong to the model ${quoteUser(doc.problem)}: give its file with --model`,
        where,
      );
    problem = options.model;
  } else {
    if (options.model !== undefined)
      throw new UsageError(
        `the gains belong to the built-in problem ${quoteUser(doc.problem)}, not to a --model`,
        '--model',
      );
    problem = findProblem(doc.problem);
    if (problem === undefined)
      throw new UsageError(`unknown problem ${quoteUser(doc.problem)}`, where);
  }
  if (!isObject(doc.params)) throw new UsageError('params must be an object', where);
  if (!isObject(doc.boundary)) throw new UsageError('boundary must be an object', where);
  const params = new Map<string, readonly number[]>();
  const choices = new Map<string, string>();
  for (const q of problem.params) {
    const v = doc.params[q.name];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new UsageError(`params.${q.name} must be a finite number`, where);
    params.set(q.name, [v]);
  }
  for (const c of problem.choices) {
    const v = doc.params[c.name];
    if (typeof v !== 'string' || !c.choices.includes(v))
      throw new UsageError(`params.${c.name} must be one of ${c.choices.join(', ')}`, where);
    choices.set(c.name, v);
  }
  const boundary = new Map<string, readonly number[]>();
  for (const b of problem.boundary) {
    const v = doc.boundary[b.name];
    const n = (b.default as readonly number[]).length;
    if (
      !Array.isArray(v) ||
      v.length !== n ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    )
      throw new UsageError(`boundary.${b.name} must be ${n} finite numbers`, where);
    boundary.set(b.name, v as number[]);
  }
  const request: SolveRequest = {
    problem,
    method: problem.methods[0]!,
    params,
    choices,
    boundary,
    tol: 1e-10,
    continuation: 0,
  };
  const runner = await problem.load();
  if (runner.ocp === undefined) throw new UsageError(`${problem.name} has no LQR feedback`, where);
  const ocp = runner.ocp(request);
  const N = count(doc, 'N', where, 1);
  const S = count(doc, 'storage', where, 1);
  const n = count(doc, 'dim', where, 1);
  const m = count(doc, 'controls', where, 0);
  if (N !== ocp.N || S !== ocp.storage || n !== ocp.dim || m !== ocp.controls)
    throw new UsageError(
      `N = ${N}, storage ${S}, dim ${n}, controls ${m} do not match ${problem.name} with these params (N = ${ocp.N}, storage ${ocp.storage}, dim ${ocp.dim}, controls ${ocp.controls})`,
      where,
    );
  const T = doc.T;
  if (typeof T !== 'number' || !(T > 0) || !Number.isFinite(T))
    throw new UsageError('T must be a number > 0', where);
  const law = {
    N,
    dim: n,
    controls: m,
    T,
    x: matrix(doc, 'x', N + 1, S, where),
    u: matrix(doc, 'u', N, m, where),
    K: matrix(doc, 'K', N, m * n, where),
  };
  const perturbation =
    options.perturb === undefined
      ? new Array<number>(n).fill(DEFAULT_PERTURBATION)
      : parseVector(options.perturb, '--perturb');
  if (perturbation.length !== n)
    throw new UsageError(
      `takes ${n} numbers (the tangent coordinates of ${problem.name}'s state), got ${perturbation.length}`,
      '--perturb',
    );
  const started = performance.now();
  const closed = simulateFeedback(ocp, law, { perturbation });
  const open = simulateFeedback(ocp, law, { perturbation, openLoop: true });
  const wallMs = Math.round((performance.now() - started) * 1000) / 1000;
  // the run's 'leaving' series u has NaN in its last row (no step leaves x_N); the output's
  // last state repeats the last step's control
  const uStates = closed.u.slice();
  uStates.copyWithin(N * m, (N - 1) * m, N * m);
  const output: SimulationOutput = {
    count: N + 1,
    // k·T/N as written since issue 19 (closed.t is k·(T/N), which may differ in the last bit)
    t: Float64Array.from({ length: N + 1 }, (_, k) => (k * T) / N),
    series: [
      { name: 'x', width: S, data: closed.x },
      { name: 'u', width: m, data: uStates },
      { name: 'delta', width: n, data: closed.delta },
      { name: 'error', width: 1, data: closed.error },
      { name: 'openLoopError', width: 1, data: open.error },
    ],
    stats: { newtonIterations: 0, maxResidual: 0 },
  };
  const header = {
    ok: true,
    problem: problem.name,
    feedback: file,
    perturb: perturbation,
    initialError: closed.error[0]!,
    finalError: closed.error[N]!,
    openLoopFinalError: open.error[N]!,
  };
  return { text: toJson(header, output, { newtonIterations: 0, maxResidual: 0, wallMs }), output };
}
