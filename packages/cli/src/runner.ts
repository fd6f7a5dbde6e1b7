/**
 * The contract between the CLI and a system implementation: a request of plain numbers in, flat
 * series out.
 *
 * @module
 */
import type { LieOcp } from '@geomech/groupoid';
import { UsageError } from './errors.js';
import type { ProblemDescriptor, SystemDescriptor } from './registry.js';

/** A fully resolved simulation request (defaults applied, names checked). */
export interface SimulateRequest {
  readonly system: SystemDescriptor;
  readonly method: string;
  readonly h: number;
  readonly steps: number;
  readonly every: number;
  readonly params: ReadonlyMap<string, readonly number[]>;
  /** Initial data actually given or defaulted, by name. */
  readonly init: ReadonlyMap<string, readonly number[]>;
  readonly tol?: number;
  readonly maxIterations?: number;
  /** The control sequence of `--input` (checked against the model's inputs by its runner). */
  readonly inputs?: ControlSequence;
  /** Progress of the run (steps done, steps); set by the CLI when it draws a progress bar. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A control sequence: `rows` rows of `width` finite numbers, flat row-major in `data`. */
export interface ControlSequence {
  readonly rows: number;
  readonly width: number;
  readonly data: Float64Array;
}

/** One output series: `width` numbers per kept state (1 for scalars). */
export interface Series {
  readonly name: string;
  readonly width: number;
  readonly data: Float64Array;
}

/** What a runner returns. */
export interface SimulationOutput {
  readonly count: number;
  readonly t: Float64Array;
  readonly series: readonly Series[];
  readonly stats: { readonly newtonIterations: number; readonly maxResidual: number };
  /** Diagnostics that did not stop the run; shown on stderr when it is a terminal. */
  readonly warnings?: readonly string[];
  /**
   * Set when the run stopped at a failed step (core's `integrate` with `onFailure: 'return'`):
   * the series hold the states before it, and the CLI writes them with `"ok": false`.
   */
  readonly failure?: RunFailure;
}

/** Why and where a run stopped (the shape of core's `IntegrationFailure`). */
export interface RunFailure {
  /** The step that failed (0-based: the step leaving state k). */
  readonly step: number;
  /** Its start time t_k. */
  readonly t: number;
  readonly error: Error;
}

/**
 * The {@link RunFailure} of a library solution run with `onFailure: 'return'` (undefined when it
 * completed), as a spreadable part of a {@link SimulationOutput}.
 */
export function runFailure(sol: {
  readonly failure?:
    | { readonly step: number; readonly t: number; readonly error: Error }
    | undefined;
}): { failure?: RunFailure } {
  const f = sol.failure;
  return f === undefined ? {} : { failure: { step: f.step, t: f.t, error: f.error } };
}

export interface SystemRunner {
  simulate(request: SimulateRequest): SimulationOutput;
  /**
   * The exact (or reference-accurate) final state of the request's initial-value problem at
   * t = steps·h, in the layout of {@link orderFields}; used by `geomech order`.
   */
  reference?(request: SimulateRequest): Float64Array;
  /** Series compared by `geomech order` (their last entries, concatenated). */
  readonly orderFields?: readonly string[];
  /** Initial-data names `geomech order` requires (a start independent of h). */
  readonly orderInit?: readonly string[];
}

/**
 * A resolved parameter or initial datum of exactly `length` finite numbers.
 * @throws UsageError naming the flag and the datum otherwise.
 */
export function requestVector(
  map: ReadonlyMap<string, readonly number[]>,
  name: string,
  flag: string,
  length: number,
): readonly number[] {
  const v = map.get(name);
  if (v === undefined) throw new UsageError(`missing ${name}`, flag);
  if (v.length !== length) {
    const expected = length === 1 ? 'one number' : `${length} numbers`;
    throw new UsageError(`${name} takes ${expected}, got ${v.length}`, `${flag} ${name}`);
  }
  for (const x of v) {
    if (!Number.isFinite(x)) throw new UsageError(`${name} must be finite`, `${flag} ${name}`);
  }
  return v;
}

/** A resolved scalar parameter or initial datum (see {@link requestVector}). */
export function requestScalar(
  map: ReadonlyMap<string, readonly number[]>,
  name: string,
  flag: string,
): number {
  return requestVector(map, name, flag, 1)[0]!;
}

/**
 * A resolved `--param` that must be positive (a mass, an inertia, a radius).
 * @throws UsageError naming `--param name` when it is not > 0 (or missing, or not finite).
 */
export function requestPositive(request: SimulateRequest, name: string): number {
  const x = requestScalar(request.params, name, '--param');
  if (!(x > 0)) throw new UsageError(`${name} must be > 0, got ${x}`, `--param ${name}`);
  return x;
}

/** A fully resolved optimal-control request of `geomech solve`. */
export interface SolveRequest {
  readonly problem: ProblemDescriptor;
  readonly method: string;
  /** Parameters by name (`n` included), defaults applied. */
  readonly params: ReadonlyMap<string, readonly number[]>;
  /** Non-numeric parameters (e.g. `map=cayley`). */
  readonly choices: ReadonlyMap<string, string>;
  /** Boundary data by name (`start`, `end`), defaults applied. */
  readonly boundary: ReadonlyMap<string, readonly number[]>;
  readonly tol: number;
  readonly maxIterations?: number;
  /** A previous solution's `series` (warm start). */
  readonly guess?: Readonly<Record<string, unknown>>;
  /** Number of intermediate problems solved first (continuation), 0 for none. */
  readonly continuation: number;
  /** Also compute the time-varying LQR gains around the solution (`--feedback FILE`). */
  readonly feedback?: boolean;
  /**
   * Their weights (`--feedback-weights`): `lagrangian` (default; the Hessian of the Lagrangian at
   * the optimum) or `unit` (Q = I, R = I, Q_N = I in the tangent coordinates and the controls).
   */
  readonly feedbackWeights?: 'lagrangian' | 'unit';
}

/**
 * The time-varying LQR gains of a solution (`geomech solve --feedback FILE`): the reference
 * states x*_k (user storage, (N + 1) × S), controls u*_k (N × m) and gains K_k (N × m × n) of the
 * law u_k = u*_k − K_k·log(x*_k⁻¹x_k).
 */
export interface FeedbackData {
  readonly N: number;
  readonly T: number;
  /** Storage S of a state, tangent dimension n, number of controls m. */
  readonly storage: number;
  readonly dim: number;
  readonly controls: number;
  readonly x: Float64Array;
  readonly u: Float64Array;
  readonly K: Float64Array;
}

/** Progress of a solve: one call per solver iteration. */
export interface SolveProgress {
  readonly stage: string;
  readonly iteration: number;
  readonly residualNorm: number;
}

/** What a problem runner returns. */
export interface SolveOutput extends SimulationOutput {
  /** A converged local minimum: `converged` and `secondOrder === 'minimum'` (the CLI's `ok`). */
  readonly ok: boolean;
  /** The solver reached its tolerance (status `converged` or `acceptable`). */
  readonly converged: boolean;
  /**
   * How the solve ended, as an interior-point solver reports it: `converged`, `acceptable`,
   * `infeasible`, `iteration-limit`, `time-limit`, `diverging`, `restoration-failed`,
   * `invalid-numbers`, `step-failed`, `step-too-small`, `user-stop`.
   */
  readonly status: string;
  /** Second-order verdict at the answer: `minimum`, `saddle`, `singular` or `not-checked`. */
  readonly secondOrder: string;
  readonly iterations: number;
  readonly residualNorm: number;
  readonly cost: number;
  /** max(primal, dual infeasibility) per iteration. */
  readonly history: readonly number[];
  /** Why it failed and what to try (in CLI flags), when not `ok`. */
  readonly hint?: string;
  /** Extra scalar results for the JSON header (e.g. constraint norm). */
  readonly extra?: Readonly<Record<string, number>>;
  /** The LQR gains, when the request asked for them and the answer is a converged minimum. */
  readonly feedback?: FeedbackData;
}

export interface ProblemRunner {
  solve(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput;
  /**
   * The compiled problem of a request (problems posed with groupoid's `defineOcp`): what
   * `geomech simulate --feedback` steps through. Absent for problems without LQR feedback.
   */
  ocp?(request: SolveRequest): LieOcp;
}
