/**
 * {@link OcpSolver}: a primal-dual interior-point method in the style of IPOPT for stage-structured
 * optimal-control problems ({@link StageOcp}), whose linear algebra is the O(N) stage-wise KKT
 * factorization with exact inertia ({@link StageKktSystem}).
 *
 * The method (details and equation numbers in `ipm.ts` and `restoration.ts`) follows Wächter &
 * Biegler (2006): barrier problem with slacks for the inequalities, monotone barrier update,
 * fraction-to-the-boundary rule, primal-dual bound multipliers with the κ_Σ safeguard, filter line
 * search with the switching condition, Armijo condition, second-order corrections and the filter
 * resets, inertia correction (so every accepted step comes from a matrix with the inertia of a
 * descent step and the limit is a local minimum, not a maximum or saddle), ℓ₁ feasibility
 * restoration with the same stage structure, infeasible starts, exact Hessians, IPOPT's
 * gradient-based scaling and termination tests.
 *
 * Decisions (where IPOPT leaves room or the stage structure asks for one):
 * - initial equality multipliers: IPOPT's least-squares estimate, discarded when larger than
 *   `constrMultInitMax` (set it to 0 for zero multipliers);
 * - the dual regularization δ_c applies to the rows of g, not to the dynamics rows (whose Jacobian
 *   ∂c_k/∂x_{k+1} is invertible, so they never cause a rank deficiency), and δ_w to (x, u), not to
 *   the slacks (whose block Σ is positive): both restore the inertia exactly as IPOPT's do;
 * - the watchdog and the soft restoration phase of IPOPT are not implemented (heuristics beyond the
 *   paper's Algorithm A); the filter-reset heuristic is;
 * - after a restoration phase the equality multipliers restart at 0 (IPOPT's default
 *   `constr_mult_reset_threshold` 0) and the bound multipliers take IPOPT's Newton update;
 * - the restoration phase's buffers are allocated the first time it is needed and kept.
 *
 * The second-order verdict: at the returned point, with the final Σ = S⁻¹Z (which fixes the
 * strongly active inequalities), the KKT matrix is factored with the primal shifts −ε and +ε,
 * ε = {@link OCP_SECOND_ORDER_MARGIN} relative to the problem's scale, counting the whole inertia
 * each time (so the test does not depend on the size of any single pivot). `minimum`: the shifted
 * matrix still has the inertia (n, m, 0), i.e. the constraint Jacobian has full rank and the
 * reduced Hessian on its null space is positive definite with curvatures above ε; `saddle`: a
 * curvature below −ε; `singular`: a flat direction (curvature within ±ε). Dependent active
 * constraints alone (a degenerate vertex of a linear program) are handled by a small dual
 * regularization and still give `minimum`. A problem with a continuous symmetry (a cost and
 * constraints invariant under a one-parameter group, such as a rotation of the whole trajectory)
 * has a flat direction at every solution; remove it with a gauge constraint (fix the symmetry's
 * coordinate at one stage with a row of g). `success` is true only for `converged` or `acceptable`
 * with a `minimum`; `inertia` is that of the unshifted matrix.
 *
 * @module
 */
import { OCP_SECOND_ORDER_DUAL_REG, OCP_SECOND_ORDER_MARGIN } from '../constants.js';
import { DimensionError, DomainError, NonFiniteError, ResourceLimitError } from '../errors.js';
import { type CoreExit, IpmCore } from './ipm.js';
import {
  type OcpIterationInfo,
  type OcpSolverOptions,
  type ResolvedOcpOptions,
  resolveOcpOptions,
} from './options.js';
import type { OcpStageDims, StageOcp } from './problem.js';
import { RestorationPhase } from './restoration.js';
import { ScaledStageOcp } from './scaled.js';
import { OCP_MAX_STAGE_DIM, OCP_MAX_STAGES, StageKktSystem } from './stageKkt.js';

/**
 * Why a solve ended (IPOPT's return statuses): `converged` (Solve_Succeeded), `acceptable`
 * (Solved_To_Acceptable_Level), `infeasible` (Infeasible_Problem_Detected), `maxIterations`,
 * `maxWallTime`, `diverging` (Diverging_Iterates), `restorationFailed`, `invalidNumbers`
 * (Invalid_Number_Detected), `stepComputationFailed` (Error_In_Step_Computation), `stepTooSmall`
 * (Search_Direction_Becomes_Too_Small), `userStop` (User_Requested_Stop).
 */
export type OcpStatus =
  | 'converged'
  | 'acceptable'
  | 'infeasible'
  | 'maxIterations'
  | 'maxWallTime'
  | 'diverging'
  | 'restorationFailed'
  | 'invalidNumbers'
  | 'stepComputationFailed'
  | 'stepTooSmall'
  | 'userStop';

/** The second-order verdict (module comment). */
export type OcpSecondOrder = 'minimum' | 'saddle' | 'singular';

/** Inertia of the (condensed) KKT matrix: positive, negative and zero eigenvalues. */
export interface OcpInertia {
  readonly positive: number;
  readonly negative: number;
  readonly zero: number;
}

/**
 * A starting point. `x` is the flat state storage (stage k at Σ_{j<k} stateStorage(j)), `u` the
 * flat controls. The trajectory need not satisfy the dynamics (infeasible starts). With the
 * `warmStart` option the multipliers of a previous solution may be given (missing ones are 0).
 */
export interface OcpGuess {
  readonly x: ArrayLike<number>;
  readonly u: ArrayLike<number>;
  /** Dynamics multipliers (Σ n_x,k+1). */
  readonly lambda?: ArrayLike<number>;
  /** Path-equality multipliers (Σ n_g,k). */
  readonly mu?: ArrayLike<number>;
  /** Inequality multipliers z ≥ 0 (Σ n_h,k). */
  readonly z?: ArrayLike<number>;
  /** Slacks s = h(x, u) ≥ 0 (Σ n_h,k); default h at the guess, pushed off 0. */
  readonly s?: ArrayLike<number>;
}

/** Wall-clock times of a solve in milliseconds. */
export interface OcpTimings {
  readonly totalMs: number;
  /** Time in the problem's `evaluate` (with the `profile` option; restoration included). */
  readonly evaluationMs: number | undefined;
  /** Time in the stage-wise factorizations and solves (with the `profile` option). */
  readonly linearAlgebraMs: number | undefined;
}

/** The answer of {@link OcpSolver.solve}. */
export interface OcpResult {
  readonly status: OcpStatus;
  /** `converged` or `acceptable`, and `secondOrder === 'minimum'`. */
  readonly success: boolean;
  readonly message: string;
  /** Iterations, restoration iterations included. */
  readonly iterations: number;
  /** Σ ℓ_k at the returned point (unscaled). */
  readonly cost: number;
  /** Constraint violation max(‖c‖∞, ‖g‖∞, ‖max(0, −h)‖∞) at the returned point, unscaled. */
  readonly primalInfeasibility: number;
  /** ‖∇L‖∞, unscaled (including the slack rows). */
  readonly dualInfeasibility: number;
  /** max sᵢzᵢ, unscaled. */
  readonly complementarity: number;
  /** Second-order verdict at the returned point; undefined for `infeasible`, `diverging`, `invalidNumbers` or when the KKT matrix cannot be factored. */
  readonly secondOrder: OcpSecondOrder | undefined;
  /**
   * Inertia of the unregularized KKT matrix at the returned point (with the verdict); for
   * `minimum` the (n, m, 0) of the verdict's −ε matrix, which the unshifted one shares.
   */
  readonly inertia: OcpInertia | undefined;
  /** Flat state storage. */
  readonly x: Float64Array;
  readonly u: Float64Array;
  /** Multipliers of the dynamics (L = Σℓ + λᵀc + μᵀg − zᵀh). */
  readonly lambda: Float64Array;
  readonly mu: Float64Array;
  /** Inequality multipliers (≥ 0 at a solution). */
  readonly z: Float64Array;
  /** Slacks of the inequalities. */
  readonly s: Float64Array;
  /** Barrier parameter at the end. */
  readonly barrier: number;
  /** Number of restoration phases. */
  readonly restorations: number;
  /** Copies of the iteration lines (with the `history` option). */
  readonly history: OcpIterationInfo[] | undefined;
  /**
   * max(infPr, infDu) of every iteration line, restoration lines included, in order: the
   * residuals an `onIteration` callback would see, recorded without one (always).
   */
  readonly residuals: Float64Array;
  readonly timings: OcpTimings;
}

/**
 * Largest memory (bytes) of the stage KKT system an {@link OcpSolver} accepts: 4 GiB. The bytes are
 * those {@link StageKktSystem}'s constructor allocates ({@link StageKktSystem.bufferSizes}, with
 * each stage's inequality rows counted as local rows), checked before anything is allocated
 * (the plate-ball needs 4332 bytes per stage: ≈ 0.43 GB at n = 10⁵; n = 10⁷ would need ≈ 43 GB
 * and is refused).
 */
export const OCP_MAX_BYTES = 4 * 2 ** 30;

/**
 * The interior-point solver for one {@link StageOcp}. It owns every buffer (trajectory copies for
 * trial points, stage evaluations, the stage-wise factorization, the filter), so repeated solves
 * and the iterations of one solve allocate no buffers after the first iteration (the first
 * restoration phase allocates its own buffers once). The once-per-iteration scalar code (barrier
 * update, filter and Armijo tests, inertia correction, residual log) lives in methods with O(N)
 * loops, which V8 optimizes within the first solves, or reads no double: 0 bytes per iteration
 * after the first once the problem's own code is optimized (bench/js/ocp.mjs; V8 may still
 * allocate while it deoptimizes and recompiles a function, as spikes of tens of KB).
 *
 * @example
 * ```ts
 * // min Σ ½u_k² + ½x_N²-free: steer x₀ = 1 to x₂ = 0 with x_{k+1} = x_k + u_k
 * const problem: StageOcp = {
 *   N: 2,
 *   dims: (k) => ({ nx: 1, nu: k < 2 ? 1 : 0, ng: k === 0 || k === 2 ? 1 : 0, nh: 0 }),
 *   stateStorage: () => 1,
 *   retract: (_k, out, x, dx) => { out[0] = x[0]! + dx[0]!; },
 *   evaluate: (k, x, u, xn, level, sigma, lambda, _mu, _eta, out) => {
 *     out.cost = k < 2 ? 0.5 * u[0]! ** 2 : 0;
 *     if (k < 2) out.c[0] = x[0]! + u[0]! - xn![0]!;
 *     if (k === 0) out.g[0] = x[0]! - 1;
 *     if (k === 2) out.g[0] = x[0]!;
 *     if (level === 0) return;
 *     out.costGrad.fill(0);
 *     if (k < 2) { out.costGrad[1] = u[0]!; out.cJac.set([1, 1, -1]); }
 *     if (k !== 1) out.gJac[0] = 1;
 *     if (level === 2) { out.hess.fill(0); if (k < 2) out.hess[4] = sigma; }
 *   },
 * };
 * const result = new OcpSolver(problem).solve({ x: [0, 0, 0], u: [0, 0] });
 * // result.status 'converged', result.secondOrder 'minimum', result.u ≈ [−0.5, −0.5], cost 0.25
 * ```
 */
export class OcpSolver {
  readonly problem: StageOcp;
  readonly options: ResolvedOcpOptions;
  readonly N: number;
  readonly stageDims: readonly OcpStageDims[];
  /** Offsets of the stages in the flat state storage and controls. */
  readonly stateOffset: Int32Array;
  readonly controlOffset: Int32Array;
  private readonly scaled: ScaledStageOcp;
  private readonly core: IpmCore;
  private restorationPhase: RestorationPhase | null = null;
  private history: OcpIterationInfo[] | undefined;

  constructor(problem: StageOcp, options: OcpSolverOptions = {}) {
    this.options = resolveOcpOptions(options);
    const N = problem.N;
    if (!Number.isInteger(N) || N < 0 || N >= OCP_MAX_STAGES) {
      throw new DimensionError(
        'OcpSolver: problem.N',
        `an integer in [0, ${OCP_MAX_STAGES - 1}]`,
        N,
      );
    }
    this.problem = problem;
    this.N = N;
    const dims: OcpStageDims[] = [];
    const storage = new Int32Array(N + 1);
    for (let k = 0; k <= N; k++) {
      const d = problem.dims(k);
      for (const key of ['nx', 'nu', 'ng', 'nh'] as const) {
        const v = d[key];
        const min = key === 'nx' ? 1 : 0;
        if (!Number.isInteger(v) || v < min || v > OCP_MAX_STAGE_DIM) {
          throw new DimensionError(
            `OcpSolver: dims(${k}).${key}`,
            `an integer in [${min}, ${OCP_MAX_STAGE_DIM}]`,
            v,
          );
        }
      }
      dims.push({ nx: d.nx, nu: d.nu, ng: d.ng, nh: d.nh });
      const ns = problem.stateStorage(k);
      if (!Number.isInteger(ns) || ns < 1 || ns > OCP_MAX_STAGE_DIM * OCP_MAX_STAGE_DIM) {
        throw new DimensionError(`OcpSolver: stateStorage(${k})`, 'a positive integer', ns);
      }
      storage[k] = ns;
    }
    // memory before work: the stage KKT system's buffers (exactly what its constructor will
    // allocate, from the stage widths alone) against OCP_MAX_BYTES, instead of running out of memory
    const kktDims = dims.map((d) => ({ nx: d.nx, nu: d.nu, ng: d.ng + d.nh }));
    const bytes = StageKktSystem.bufferSizes(kktDims).bytes;
    if (bytes > OCP_MAX_BYTES) {
      throw new ResourceLimitError(
        'OcpSolver: memory of the stage KKT system',
        OCP_MAX_BYTES,
        bytes,
        'bytes',
      );
    }
    this.stageDims = dims;
    this.stateOffset = new Int32Array(N + 2);
    this.controlOffset = new Int32Array(N + 2);
    for (let k = 0; k <= N; k++) {
      this.stateOffset[k + 1] = this.stateOffset[k]! + storage[k]!;
      this.controlOffset[k + 1] = this.controlOffset[k]! + dims[k]!.nu;
    }
    this.scaled = new ScaledStageOcp(problem, dims, storage);
    this.core = new IpmCore(this.scaled, this.options, 'main');
    this.core.scaling = this.scaled;
    this.core.restoration = {
      restore: (c) => this.getRestoration().restore(c),
    };
    this.core.reporter = (c) => this.report(c, false);
  }

  private getRestoration(): RestorationPhase {
    if (this.restorationPhase === null) {
      this.restorationPhase = new RestorationPhase(this.scaled, this.core, this.options);
      this.restorationPhase.reporter = (c) => this.report(c, true);
    }
    return this.restorationPhase;
  }

  /** Emits one iteration line; false when the callback asks to stop. */
  private report(c: IpmCore, restoration: boolean): boolean {
    const o = this.options;
    // the main phase's line was filled, and its residual recorded, by the core's computeErrors
    // (no double is read here)
    if (!restoration && o.onIteration === undefined && !o.history) return true;
    let info = c.info;
    if (restoration) {
      const sf = this.scaled.objScale;
      const R = this.restorationPhase!.problem;
      let f = 0;
      for (let k = 0; k < R.innerCost.length; k++) f += R.innerCost[k]!;
      info = c.fillInfo(true);
      info.objective = f / sf;
      const phase = this.restorationPhase!;
      phase.originalInfPrInto(this.scaled.cScale, this.scaled.gScale, this.scaled.hScale);
      info.infPr = phase.infPr;
      this.core.recordLine(info);
      if (o.onIteration === undefined && !o.history) return true;
    }
    if (this.history !== undefined) this.history.push({ ...info });
    if (o.onIteration !== undefined) return o.onIteration(info) !== false;
    return true;
  }

  /** Solves from `guess` (see {@link OcpGuess}); never throws for a failed solve (see `status`). */
  solve(guess: OcpGuess): OcpResult {
    const t0 = performance.now();
    const o = this.options;
    const core = this.core;
    const sc = this.scaled;
    this.checkGuess(guess);
    this.history = o.history ? [] : undefined;
    core.resetForRun(o.muInit);
    core.evaluationMs = 0;
    core.linearAlgebraMs = 0;
    if (this.restorationPhase !== null) {
      this.restorationPhase.core.evaluationMs = 0;
      this.restorationPhase.core.linearAlgebraMs = 0;
    }
    core.iterBase = 0;
    core.iterLimit = o.maxIterations;
    core.setDeadline(
      Number.isFinite(o.maxWallTime) ? t0 + 1000 * o.maxWallTime : Number.POSITIVE_INFINITY,
    );
    for (let i = 0; i < core.x.length; i++) core.x[i] = guess.x[i]!;
    for (let i = 0; i < core.u.length; i++) core.u[i] = guess.u[i]!;
    const restorationsBefore = this.restorationPhase?.calls ?? 0;
    sc.resetScaling();
    let exit: CoreExit;
    if (!core.evaluate(1, false)) {
      exit = 'invalidNumbers';
      core.message =
        'the problem cannot be evaluated at the starting point (NaN, ±∞ or outside its domain)';
      core.lam.fill(0);
      core.mu.fill(0);
      core.y.fill(0);
      core.s.fill(0);
      core.z.fill(0);
    } else {
      if (o.nlpScalingMethod === 'gradient-based' || o.objScalingFactor !== 1) {
        this.computeScaling();
        // the scaled problem's values; when every factor is 1 they are those already in the
        // buffers (the adapter passes calls through), and the evaluation is not repeated
        if (!sc.isIdentity) core.evaluate(1, false);
      }
      this.initializeIterate(guess);
      // the Hessian with the initial multipliers; the Jacobians, and the dynamics factors of the
      // least-squares multipliers' factorization, stay those of this point
      if (!core.evaluateSamePoint()) {
        exit = 'invalidNumbers';
        core.message = 'the problem\u2019s Hessian cannot be evaluated at the starting point';
      } else {
        exit = core.run();
      }
    }
    // second-order verdict
    let secondOrder: OcpSecondOrder | undefined;
    let inertia: OcpInertia | undefined;
    if (exit !== 'infeasible' && exit !== 'diverging' && exit !== 'invalidNumbers') {
      const st = core.factorForVerdict(OCP_SECOND_ORDER_MARGIN, OCP_SECOND_ORDER_DUAL_REG);
      if (st === 'ok' || st === 'wrongInertia' || st === 'singular') {
        secondOrder = st === 'ok' ? 'minimum' : st === 'wrongInertia' ? 'saddle' : 'singular';
        // the inertia of the unshifted matrix (possibly with the verdict's dual regularization)
        const I = core.kkt.inertia;
        inertia = { positive: I[0]!, negative: I[1]!, zero: I[2]! };
      }
      core.computeErrors();
    }
    const status = exit as OcpStatus;
    const success =
      (status === 'converged' || status === 'acceptable') && secondOrder === 'minimum';
    let message = core.message;
    if ((status === 'converged' || status === 'acceptable') && secondOrder !== 'minimum') {
      message += `; but the second-order test finds a ${secondOrder ?? 'non-factorable'} point (not a minimum)`;
    }
    return {
      status,
      success,
      message,
      iterations: core.iter,
      cost: core.fCur / sc.objScale,
      primalInfeasibility: this.constraintViolation(),
      dualInfeasibility: core.unscaledDualInf,
      complementarity: core.unscaledComplInf,
      secondOrder,
      inertia,
      ...this.unscaledIterate(),
      barrier: core.barrier,
      restorations: (this.restorationPhase?.calls ?? 0) - restorationsBefore,
      history: this.history,
      residuals: core.residualLog.slice(0, core.lineCount),
      timings: this.timings(t0),
    };
  }

  /** max(‖c‖∞, ‖g‖∞, ‖max(0, −h)‖∞) of the original (unscaled) problem at the current point. */
  private constraintViolation(): number {
    const core = this.core;
    const sc = this.scaled;
    let v = 0;
    for (let i = 0; i < core.c.length; i++) v = Math.max(v, Math.abs(core.c[i]! / sc.cScale[i]!));
    for (let i = 0; i < core.g.length; i++) v = Math.max(v, Math.abs(core.g[i]! / sc.gScale[i]!));
    for (let i = 0; i < core.h.length; i++) v = Math.max(v, -core.h[i]! / sc.hScale[i]!);
    return v;
  }

  private timings(t0: number): OcpTimings {
    const totalMs = performance.now() - t0;
    if (!this.options.profile)
      return { totalMs, evaluationMs: undefined, linearAlgebraMs: undefined };
    const r = this.restorationPhase?.core;
    return {
      totalMs,
      evaluationMs: this.core.evaluationMs + (r?.evaluationMs ?? 0),
      linearAlgebraMs: this.core.linearAlgebraMs + (r?.linearAlgebraMs ?? 0),
    };
  }

  private checkGuess(guess: OcpGuess): void {
    const core = this.core;
    const check = (
      what: string,
      a: ArrayLike<number> | undefined,
      n: number,
      required: boolean,
    ) => {
      if (a === undefined) {
        if (required) throw new DimensionError(`OcpSolver.solve: guess.${what}`, n, 'undefined');
        return;
      }
      if (a.length !== n) throw new DimensionError(`OcpSolver.solve: guess.${what}`, n, a.length);
      for (let i = 0; i < n; i++) {
        if (!Number.isFinite(a[i]!)) throw new NonFiniteError(`OcpSolver.solve: guess.${what}`, i);
      }
    };
    check('x', guess.x, core.x.length, true);
    check('u', guess.u, core.u.length, true);
    check('lambda', guess.lambda, core.lam.length, false);
    check('mu', guess.mu, core.mu.length, false);
    check('z', guess.z, core.z.length, false);
    check('s', guess.s, core.s.length, false);
    if (guess.z !== undefined) {
      for (let i = 0; i < guess.z.length; i++) {
        if (guess.z[i]! < 0)
          throw new DomainError(`OcpSolver.solve: guess.z[${i}]`, guess.z[i], 'must be ≥ 0');
      }
    }
  }

  /** IPOPT's gradient-based scaling factors from the level-1 evaluation at the start. */
  private computeScaling(): void {
    const o = this.options;
    const core = this.core;
    const sc = this.scaled;
    const kkt = core.kkt;
    const gmax = o.nlpScalingMaxGradient;
    const gmin = o.nlpScalingMinValue;
    const factor = (norm: number) => (norm > gmax ? Math.max(gmin, gmax / norm) : 1);
    const gradient = o.nlpScalingMethod === 'gradient-based';
    let fn = 0;
    for (let i = 0; i < core.costGrad.length; i++) fn = Math.max(fn, Math.abs(core.costGrad[i]!));
    sc.objScale = (gradient ? factor(fn) : 1) * o.objScalingFactor;
    if (gradient) {
      for (let k = 0; k <= this.N; k++) {
        const nw = core.nxA[k]! + core.nuA[k]!;
        const ny = core.nyA[k]!;
        const cw = nw + ny;
        const cj = kkt.cJacOffset[k]!;
        for (let i = 0; i < ny; i++) {
          let m = 0;
          for (let a = 0; a < cw; a++) m = Math.max(m, Math.abs(kkt.cJac[cj + i * cw + a]!));
          sc.cScale[kkt.cOffset[k]! + i] = factor(m);
        }
        const gj = kkt.gJacOffset[k]!;
        for (let i = 0; i < core.ngA[k]!; i++) {
          let m = 0;
          for (let a = 0; a < nw; a++) m = Math.max(m, Math.abs(kkt.gJac[gj + i * nw + a]!));
          sc.gScale[core.gOffC[k]! + i] = factor(m);
        }
        const hj = core.hjOff[k]!;
        for (let i = 0; i < core.nhA[k]!; i++) {
          let m = 0;
          for (let a = 0; a < nw; a++) m = Math.max(m, Math.abs(core.hJac[hj + i * nw + a]!));
          sc.hScale[core.hOff[k]! + i] = factor(m);
        }
      }
    }
    sc.updateIdentity();
  }

  /** Slacks, bound multipliers and equality multipliers at the start [WB §3.6]. */
  private initializeIterate(guess: OcpGuess): void {
    const o = this.options;
    const core = this.core;
    const sc = this.scaled;
    const sf = sc.objScale;
    if (!o.warmStart) {
      core.initializeSlacks(o.boundPush, o.boundMultInitVal);
      core.leastSquaresMultipliers();
      return;
    }
    const push = o.warmStartBoundPush;
    for (let i = 0; i < core.nTotalH; i++) {
      const dh = sc.hScale[i]!;
      const given = guess.s === undefined ? core.h[i]! : guess.s[i]! * dh;
      core.s[i] = Math.max(given, push);
      const zi = guess.z === undefined ? 0 : (guess.z[i]! * sf) / dh;
      core.y[i] = -zi;
      core.z[i] = Math.max(zi, o.warmStartMultBoundPush);
    }
    for (let i = 0; i < core.lam.length; i++) {
      core.lam[i] = guess.lambda === undefined ? 0 : (guess.lambda[i]! * sf) / sc.cScale[i]!;
    }
    for (let i = 0; i < core.mu.length; i++) {
      core.mu[i] = guess.mu === undefined ? 0 : (guess.mu[i]! * sf) / sc.gScale[i]!;
    }
  }

  private unscaledIterate(): Pick<OcpResult, 'x' | 'u' | 'lambda' | 'mu' | 'z' | 's'> {
    const core = this.core;
    const sc = this.scaled;
    const sf = sc.objScale;
    const lambda = new Float64Array(core.lam.length);
    for (let i = 0; i < lambda.length; i++) lambda[i] = (core.lam[i]! * sc.cScale[i]!) / sf;
    const mu = new Float64Array(core.mu.length);
    for (let i = 0; i < mu.length; i++) mu[i] = (core.mu[i]! * sc.gScale[i]!) / sf;
    const z = new Float64Array(core.nTotalH);
    const s = new Float64Array(core.nTotalH);
    for (let i = 0; i < z.length; i++) {
      z[i] = (-core.y[i]! * sc.hScale[i]!) / sf;
      s[i] = core.s[i]! / sc.hScale[i]!;
    }
    return { x: Float64Array.from(core.x), u: Float64Array.from(core.u), lambda, mu, z, s };
  }
}

/**
 * One-shot convenience: `new OcpSolver(problem, options).solve(guess)`. Keep an {@link OcpSolver}
 * for repeated solves (it owns the buffers).
 *
 * @example
 * ```ts
 * // min (x − 2)² over one stage with x ≥ 3 (one inequality row): x = 3, z = 2
 * const problem: StageOcp = {
 *   N: 0,
 *   dims: () => ({ nx: 1, nu: 0, ng: 0, nh: 1 }),
 *   stateStorage: () => 1,
 *   retract: (_k, out, x, dx) => { out[0] = x[0]! + dx[0]!; },
 *   evaluate: (_k, x, _u, _xn, level, sigma, _l, _m, _e, out) => {
 *     out.cost = (x[0]! - 2) ** 2;
 *     out.h[0] = x[0]! - 3;
 *     if (level >= 1) { out.costGrad[0] = 2 * (x[0]! - 2); out.hJac[0] = 1; }
 *     if (level === 2) out.hess[0] = 2 * sigma;
 *   },
 * };
 * const r = solveOcp(problem, { x: [5], u: [] }); // r.x ≈ [3], r.z ≈ [2], r.status 'converged'
 * ```
 */
export function solveOcp(
  problem: StageOcp,
  guess: OcpGuess,
  options: OcpSolverOptions = {},
): OcpResult {
  return new OcpSolver(problem, options).solve(guess);
}
