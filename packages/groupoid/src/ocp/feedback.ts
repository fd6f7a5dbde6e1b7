/**
 * Time-varying LQR feedback around a solution of a {@link LieOcp} (issue 19), and the closed-loop
 * simulation that uses it.
 *
 * The problem layer's chart is x = x*·cay(δ) per group factor (x* + δ on Rⁿ), δ in the
 * concatenated factor tangents (core's conventions: se(n) as [v, ω]); its stage Jacobians are the
 * derivatives in these left-trivialized (body) tangent coordinates. Core's
 * {@link ocpFeedbackGains} turns them into A_k = ∂x_{k+1}/∂x_k and B_k = ∂x_{k+1}/∂u_k (the
 * implicit function theorem on the dynamics rows c(x_k, u_k, x_{k+1}) = 0), takes the weights from
 * the Hessian of the Lagrangian at the optimum (or the user's), and runs the backward Riccati
 * recursion with the equality rows and the active bounds. The feedback law is
 *
 *     u_k = u*_k − K_k · δx_k,   δx_k = log(x*_k⁻¹ x_k)  (per factor; x_k − x*_k on Rⁿ)
 *
 * The logarithm and the Cayley chart agree to first order (cay⁻¹ = log + O(|δ|³)), so A_k, B_k and
 * K_k are the same in both; the logarithm is what users know. For a free horizon T the internal
 * state carries T as an extra coordinate: the gains' column for it is dropped and the simulation
 * keeps T at its optimum.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type LqrOptions,
  type MethodTraits,
  methodTraits,
  NonFiniteError,
  type OcpFeedbackGains,
  ocpFeedbackGains,
  Recorder,
  type SeriesSpec,
  type Solution,
} from '@geomech/core';
import type { LieOcp, LieOcpSolution } from './problem.js';

/** The gains of {@link lqrGains} and the trajectory they belong to. */
export interface LieOcpFeedback {
  /** Number of steps N. */
  readonly N: number;
  /** Tangent dimension n of the user's state (the columns of K_k). */
  readonly dim: number;
  /** Number of controls m (the rows of K_k). */
  readonly controls: number;
  /** The horizon T of the solution. */
  readonly T: number;
  /** K_k for k < N, N × m × n row-major: u_k = u*_k − K_k·log(x*_k⁻¹x_k). */
  readonly K: Float64Array;
  /** Internal tangent dimension n_x (n, plus 1 for a free horizon). */
  readonly nx: number;
  /** A_k = ∂x_{k+1}/∂x_k, N × n_x × n_x (internal tangent coordinates). */
  readonly A: Float64Array;
  /** B_k = ∂x_{k+1}/∂u_k, N × n_x × m. */
  readonly B: Float64Array;
  /** The reference states x*_k (user storage, (N + 1) × S) and controls u*_k (N × m). */
  readonly x: Float64Array;
  readonly u: Float64Array;
  /** Core's result: the linear-quadratic model, K_k, P_k, E_k over the internal coordinates. */
  readonly gains: OcpFeedbackGains;
}

/**
 * Time-varying LQR gains around a solution of `ocp` (module comment): A_k and B_k from the
 * dynamics' stage Jacobians, weights the Hessian of the Lagrangian at the optimum (default) or
 * the user's constant Q, R, Q_N (`options.weights`, in the internal coordinates), the backward
 * Riccati recursion with the path equalities, the active bounds and the end conditions.
 *
 * @throws DimensionError when `sol` is not a solution of `ocp` (another N or state size);
 *   DomainError when the solution is not a strict minimum of the linear-quadratic model (see
 *   core's {@link riccatiGains}).
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 40 });
 * const sol = ocp.solve({ guess: unicycleGuess(ocp) });
 * const fb = lqrGains(ocp, sol);
 * // u_k = u*_k − K_k·log(x*_k⁻¹x_k): 40 gains of 3 × 3
 * fb.K.length; // 360
 * ```
 */
export function lqrGains(
  ocp: LieOcp,
  sol: LieOcpSolution,
  options: LqrOptions = {},
): LieOcpFeedback {
  const N = ocp.N;
  if (sol.N !== N) throw new DimensionError('lqrGains: sol.N', N, sol.N);
  const Si = ocp.program.storage;
  if (sol.result.x.length !== (N + 1) * Si)
    throw new DimensionError('lqrGains: sol (state storage)', (N + 1) * Si, sol.result.x.length);
  const gains = ocpFeedbackGains(ocp.stageOcp, sol.result, options);
  const nx = ocp.program.nx;
  const n = ocp.dim;
  const m = ocp.controls;
  const K = new Float64Array(N * m * n);
  const A = new Float64Array(N * nx * nx);
  const B = new Float64Array(N * nx * m);
  for (let k = 0; k < N; k++) {
    const Kk = gains.K[k]!;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) K[(k * m + i) * n + j] = Kk[i * nx + j]!;
    A.set(gains.model.stages[k]!.A, k * nx * nx);
    B.set(gains.model.stages[k]!.B, k * nx * m);
  }
  return {
    N,
    dim: n,
    controls: m,
    T: sol.T,
    K,
    nx,
    A,
    B,
    x: Float64Array.from(sol.x),
    u: Float64Array.from(sol.u),
    gains,
  };
}

/**
 * What {@link simulateFeedback} needs of a {@link LieOcpFeedback}: the reference trajectory and
 * the gains (e.g. read back from a file).
 */
export type FeedbackLaw = Pick<LieOcpFeedback, 'N' | 'dim' | 'controls' | 'T' | 'K' | 'x' | 'u'>;

/** Per-factor scratch of {@link tangentError} and {@link perturbState}. */
class Scratch {
  /** The factor's part of the reference and of the state (copies: no views made per step). */
  readonly ref: Float64Array[];
  readonly x: Float64Array[];
  readonly inv: Float64Array[];
  readonly rel: Float64Array[];
  readonly tan: Float64Array[];
  constructor(ocp: LieOcp) {
    this.ref = ocp.factors.map((f) => new Float64Array(f.storage));
    this.x = ocp.factors.map((f) => new Float64Array(f.storage));
    this.inv = ocp.factors.map((f) => new Float64Array(f.storage));
    this.rel = ocp.factors.map((f) => new Float64Array(f.storage));
    this.tan = ocp.factors.map((f) => new Float64Array(f.dim));
  }
}

/**
 * out ← log(ref⁻¹x) per factor, with the reference read from `ref` at `refOffset` (a stage of a
 * stored trajectory) and the state `x` from 0; allocation-free.
 */
function errorInto(
  ocp: LieOcp,
  s: Scratch,
  out: Float64Array,
  ref: Float64Array,
  refOffset: number,
  x: Float64Array,
): void {
  let so = 0;
  let to = 0;
  const factors = ocp.factors;
  for (let i = 0; i < factors.length; i++) {
    const f = factors[i]!;
    const a = s.ref[i]!;
    const b = s.x[i]!;
    for (let j = 0; j < f.storage; j++) {
      a[j] = ref[refOffset + so + j]!;
      b[j] = x[so + j]!;
    }
    f.group.compose(s.rel[i]!, f.group.inverse(s.inv[i]!, a), b);
    f.group.log(s.tan[i]!, s.rel[i]!);
    out.set(s.tan[i]!, to);
    so += f.storage;
    to += f.dim;
  }
}

/**
 * The tracking error δ = log(ref⁻¹x) per factor (x − ref on Rⁿ) of a state of `ocp` (user
 * storage), in the concatenated factor tangents.
 *
 * @throws DimensionError for states of the wrong size.
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 20 });
 * tangentError(ocp, se2FromPose(0, 0, 0), se2FromPose(0.1, 0, 0)); // [0.1, 0, 0]
 * ```
 */
export function tangentError(
  ocp: LieOcp,
  ref: ArrayLike<number>,
  x: ArrayLike<number>,
): Float64Array {
  const S = ocp.storage;
  if (ref.length !== S) throw new DimensionError('tangentError: ref', S, ref.length);
  if (x.length !== S) throw new DimensionError('tangentError: x', S, x.length);
  const out = new Float64Array(ocp.dim);
  errorInto(ocp, new Scratch(ocp), out, Float64Array.from(ref), 0, Float64Array.from(x));
  return out;
}

/**
 * The state x·exp(δ) per factor (x + δ on Rⁿ): a perturbation of x by a tangent vector δ (the
 * concatenated factor tangents), so that log(x⁻¹·result) = δ (within the logarithm's branch).
 *
 * @throws DimensionError for sizes that do not match; NonFiniteError for a non-finite δ.
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 20 });
 * perturbState(ocp, se2FromPose(0, 0, 0), [0.1, 0, 0]); // se2FromPose(0.1, 0, 0)
 * ```
 */
export function perturbState(
  ocp: LieOcp,
  x: ArrayLike<number>,
  delta: ArrayLike<number>,
): Float64Array {
  const S = ocp.storage;
  if (x.length !== S) throw new DimensionError('perturbState: x', S, x.length);
  if (delta.length !== ocp.dim)
    throw new DimensionError('perturbState: delta', ocp.dim, delta.length);
  for (let i = 0; i < delta.length; i++)
    if (!Number.isFinite(delta[i]!)) throw new NonFiniteError('perturbState: delta', i);
  const out = new Float64Array(S);
  let so = 0;
  let to = 0;
  for (const f of ocp.factors) {
    const e = f.group.exp(
      new Float64Array(f.storage),
      Float64Array.from({ length: f.dim }, (_, j) => delta[to + j]!),
    );
    f.group.compose(
      out.subarray(so, so + f.storage),
      Float64Array.from({ length: f.storage }, (_, j) => x[so + j]!),
      e,
    );
    so += f.storage;
    to += f.dim;
  }
  return out;
}

/** Options of {@link simulateFeedback}. */
export interface FeedbackSimulationOptions {
  /** The start: a tangent perturbation δ of the reference start (x_0 = x*_0·exp(δ)). */
  readonly perturbation?: ArrayLike<number>;
  /** Or a start state (user storage). Default: the reference start. */
  readonly start?: ArrayLike<number>;
  /** Apply the reference controls only (K = 0): the open-loop comparison. Default false. */
  readonly openLoop?: boolean;
}

/**
 * The method of a {@link simulateFeedback} run: the problem's own explicit discrete dynamics
 * x_{k+1} = F(t_k, x_k, u_k) (spec.ts: kinematic, increment or next) driven by a control law.
 * Explicit, one-step; its order and structure are those of the problem's dynamics, so they are not
 * claimed here (`undefined`).
 *
 * @example
 * ```ts
 * feedbackSimulationMethod.name; // 'ocp-dynamics'
 * feedbackSimulationMethod.isExplicit; // true
 * ```
 */
export const feedbackSimulationMethod: MethodTraits = methodTraits({
  name: 'ocp-dynamics',
  description: "the optimal-control problem's own explicit discrete dynamics under a control law",
  isExplicit: true,
});

/** The series of a {@link FeedbackSimulation}. */
export type FeedbackField = 'x' | 'delta' | 'error' | 'u';

/**
 * The answer of {@link simulateFeedback}: core's one {@link Solution}, N + 1 samples, sample k the
 * stage k at t_k = k·h (h = T/N of the problem, or of the gains' T for a free horizon):
 * - `x`: the states x_k, (N + 1) × S (user storage);
 * - `delta`: the tracking errors δx_k = log(x*_k⁻¹x_k), (N + 1) × n;
 * - `error`: their Euclidean norms |δx_k|, N + 1;
 * - `u`: the control applied on leaving state k (timing `'leaving'`), (N + 1) × m; the last row is
 *   NaN (no step leaves x_N), so the first N × m numbers are the controls u_0 … u_{N−1}.
 */
export type FeedbackSimulation = Solution<FeedbackField>;

/**
 * Simulates the closed loop u_k = u*_k − K_k·log(x*_k⁻¹x_k) (or the open loop u_k = u*_k) through
 * the problem's own discrete dynamics x_{k+1} = F(t_k, x_k, u_k) from a start near the reference,
 * and records the states, the tracking error per step and the applied controls in core's one
 * {@link Solution} ({@link FeedbackSimulation}: series `x`, `delta`, `error` and the 'leaving'
 * series `u`, whose last row is NaN; t_k = k·h, the stage times the dynamics see). Controls are not
 * clipped to their bounds (a component on an active bound has no feedback: the gains keep it there).
 *
 * @throws DimensionError for a feedback of another problem or a start of the wrong size;
 *   DomainError for implicit dynamics (`{ defect }`: no explicit step) or when both `perturbation`
 *   and `start` are given.
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 40 });
 * const fb = lqrGains(ocp, ocp.solve({ guess: unicycleGuess(ocp) }));
 * const run = simulateFeedback(ocp, fb, { perturbation: [0.05, -0.05, 0.1] });
 * // the loop brings the car back to the reference
 * run.error[40]! < 0.1 * run.error[0]!; // true
 * run.count; // 41: the states x_0 … x_40, at run.t[k] = k·h
 * run.sample('u', 40).every(Number.isNaN); // true: no control leaves x_40
 * ```
 */
export function simulateFeedback(
  ocp: LieOcp,
  fb: FeedbackLaw,
  options: FeedbackSimulationOptions = {},
): FeedbackSimulation {
  const N = ocp.N;
  const S = ocp.storage;
  const n = ocp.dim;
  const m = ocp.controls;
  if (
    fb.N !== N ||
    fb.dim !== n ||
    fb.controls !== m ||
    fb.x.length !== (N + 1) * S ||
    fb.u.length !== N * m ||
    fb.K.length !== N * m * n
  )
    throw new DimensionError(
      'simulateFeedback: fb',
      `gains of this problem (N = ${N}, n = ${n}, m = ${m})`,
      `N = ${fb.N}, n = ${fb.dim}, m = ${fb.controls}`,
    );
  if (options.perturbation !== undefined && options.start !== undefined)
    throw new DomainError('simulateFeedback', 'perturbation and start', 'one of them');
  const next = ocp.program.next();
  const Si = ocp.program.storage;
  const free = ocp.program.s.freeHorizon;
  const ref0 = fb.x.subarray(0, S);
  let x0: Float64Array;
  if (options.start !== undefined) {
    if (options.start.length !== S)
      throw new DimensionError('simulateFeedback: start', S, options.start.length);
    x0 = Float64Array.from(options.start);
    for (let i = 0; i < S; i++)
      if (!Number.isFinite(x0[i]!)) throw new NonFiniteError('simulateFeedback: start', i);
  } else if (options.perturbation !== undefined) {
    x0 = perturbState(ocp, ref0, options.perturbation);
  } else x0 = Float64Array.from(ref0);
  const open = options.openLoop === true;
  // t_k = k·h as the dynamics see it (program.ts stageArgs: h = T/N, T the state's last
  // coordinate for a free horizon, here fb.T)
  const h = free ? fb.T / N : ocp.h;
  const rec = new Recorder<FeedbackField>(feedbackSimulationMethod, specsOf(S, n, m), N + 1);
  rec.setClock(0, h);
  const scratch = new Scratch(ocp);
  const xi = new Float64Array(Si);
  const xn = new Float64Array(Si);
  const uk = new Float64Array(m);
  // one kept sample: [x_k (S), δx_k (n), |δx_k|]
  const row = new Float64Array(S + n + 1);
  const cur = xi.subarray(0, S);
  const dk = row.subarray(S, S + n);
  xi.set(x0);
  if (free) xi[Si - 1] = fb.T;
  const p = ocp.stageOcp.p;
  for (let k = 0; ; k++) {
    row.set(cur);
    errorInto(ocp, scratch, dk, fb.x, k * S, cur);
    let e = 0;
    for (let j = 0; j < n; j++) e += dk[j]! * dk[j]!;
    row[S + n] = Math.sqrt(e);
    rec.keepStep(k, row);
    if (k === N) break;
    for (let i = 0; i < m; i++) {
      let v = fb.u[k * m + i]!;
      if (!open) for (let j = 0; j < n; j++) v -= fb.K[(k * m + i) * n + j]! * dk[j]!;
      uk[i] = v;
    }
    rec.setLeaving(uk);
    p[0] = k;
    next(xn, xi, uk, p);
    xi.set(xn);
  }
  return rec.finish({ steps: N, h });
}

/** The series of a {@link FeedbackSimulation}: the state series in the row order of `keep`. */
function specsOf(S: number, n: number, m: number): SeriesSpec<FeedbackField>[] {
  return [
    { name: 'x', width: S },
    { name: 'delta', width: n },
    { name: 'error', width: 1 },
    { name: 'u', width: m, timing: 'leaving' },
  ];
}
