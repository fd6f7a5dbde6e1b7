/**
 * The primal-dual interior-point iteration on a {@link StageOcp} (internal; the public entry point
 * is {@link OcpSolver}). It follows Wächter & Biegler (2006), "On the implementation of an
 * interior-point filter line-search algorithm for large-scale nonlinear programming", Math. Prog.
 * 106, 25–57 (cited as [WB] with equation numbers), and IPOPT 3.14's defaults where the paper
 * leaves a choice.
 *
 * Formulation [WB §3.4]: inequalities get slacks, h(w) − s = 0, s ≥ 0, and the barrier problem is
 *
 *     min φ_μ(w, s) = f(w) − μ Σ ln sᵢ + κ_d μ Σ sᵢ   s.t.  c(w) = 0, g(w) = 0, h(w) − s = 0
 *
 * (the κ_d term is IPOPT's linear damping of one-sided bounds). Multipliers: λ (dynamics), μ (path
 * equalities), y (the rows h − s; the Lagrangian is f + λᵀc + μᵀg + yᵀ(h − s) − zᵀs), and the bound
 * multipliers z ≥ 0 of s. The Newton step of the primal-dual equations [WB (4)–(5)] eliminates
 * dz = μS⁻¹e − z − Σ ds (Σ = S⁻¹Z) and then, for each inequality row with the right-hand sides
 * r = h − s and r_s = y + μ/s − κ_dμ of its two rows,
 * - if Σᵢ ≤ {@link OCP_SLACK_CONDENSE_SIGMA} (inactive or weakly active), condenses the row:
 *   dsᵢ = J_h,i dw + rᵢ, dyᵢ = Σᵢ dsᵢ − r_s,i, adding Σᵢ J_h,iᵀJ_h,i to the Hessian and
 *   J_h,iᵀ(r_s,i − Σᵢrᵢ) to the right-hand side;
 * - otherwise (strongly active) keeps it as a row of {@link StageKktSystem} with unknown dyᵢ:
 *   J_h,i dw − dyᵢ/Σᵢ = −rᵢ + r_s,i/Σᵢ, and dsᵢ = (r_s,i + dyᵢ)/Σᵢ — the condensed form would need
 *   cancellations of entries of size Σᵢ ≈ z²/μ (IPOPT keeps all slacks in its augmented system);
 *   a kept row on the state alone is carried by the factorization to the initial stage, so when
 *   those would exceed {@link OCP_MAX_CARRIED_CONSTRAINTS} the state-only rows are condensed too.
 *
 * The stage-structured system is then
 *
 *     [W + J_hᵀΣJ_h (condensed rows) + δ_w I   J_cᵀ   J_gᵀ            J_h,keptᵀ      ] [dw]
 *     [J_c                                                                              ] [dλ]
 *     [J_g                                                 −δ_c I                       ] [dμ]
 *     [J_h,kept                                                          −Σ⁻¹ − δ_c I ] [dy]
 *
 * with right-hand side (−∇_wL + condensed terms, −c, −g, kept rows above). Eliminating a slack pair
 * adds (1, 1) to the inertia, so this matrix has the inertia of a descent step, (n_w, m + n_kept, 0),
 * exactly when the full system has. δ_w is applied to w only, not to the slacks: Σ is already
 * positive, so this restores the inertia as IPOPT's δ_w on (x, s) does without recondensing per
 * trial.
 *
 * The algorithm is [WB Algorithm A]: monotone barrier update [WB (7)] with κ_ε, κ_μ, θ_μ; the
 * fraction-to-the-boundary rule [WB (8), (15)] with τ = max(τ_min, 1 − μ); the κ_Σ safeguard of
 * the bound multipliers [WB (16)]; inertia correction [WB Algorithm IC, IPOPT's
 * PDPerturbationHandler: δ_c alone first when the matrix is singular]; the filter line search
 * [WB §2.3] with the switching condition (19), Armijo condition (20), sufficient decrease (18),
 * second-order corrections [WB §2.4, A-5.5–A-5.10], α_min (23), the filter reset on barrier updates
 * and IPOPT's filter-reset heuristic; tiny steps [IPOPT DetectTinyStep]; evaluation errors cut the
 * step in half. The feasibility restoration phase is delegated to a {@link RestorationHandler}.
 *
 * @module
 */

import { OCP_MAX_CARRIED_CONSTRAINTS, OCP_SLACK_CONDENSE_SIGMA } from '../constants.js';
import { EvaluationDomainError } from '../errors.js';
import type { OcpIterationInfo, ResolvedOcpOptions } from './options.js';
import type { OcpStageDims, OcpStageEval, StageOcp } from './problem.js';
import type { ScaledStageOcp } from './scaled.js';
import { stageOffsets } from './scaled.js';
import { type KktFactorStatus, StageKktSystem } from './stageKkt.js';

/** How a run of the interior-point core ended. */
export type CoreExit =
  | 'converged'
  | 'acceptable'
  | 'maxIterations'
  | 'maxWallTime'
  | 'diverging'
  | 'invalidNumbers'
  | 'stepComputationFailed'
  | 'lineSearchFailed'
  | 'stepTooSmall'
  | 'userStop'
  | 'infeasible'
  | 'restorationFailed'
  | 'restorationReturn';

/** The feasibility restoration phase, as seen by the main core. */
export interface RestorationHandler {
  /**
   * Runs the restoration phase from the core's current point; on success it has replaced the
   * core's primal point and bound multipliers and returns 'success'; otherwise the exit to report.
   */
  restore(core: IpmCore): 'success' | CoreExit;
}

/** Per-iteration check of a restoration-phase core: true ends the phase ('restorationReturn'). */
export type RestorationExitCheck = (core: IpmCore) => boolean;

const S_MAX = 100;

/** Modes of {@link IpmCore.computeErrors}. */
const ERRORS_ONLY = 0;
/** The errors, then the tests of the iteration (convergence, acceptable, diverging) and its line. */
const ERRORS_ITERATE = 1;
/** μ ← the next barrier parameter [WB (7)] first; nothing else when it does not change. */
const ERRORS_DECREASE_BARRIER = 2;
type ErrorsMode = typeof ERRORS_ONLY | typeof ERRORS_ITERATE | typeof ERRORS_DECREASE_BARRIER;

/** The interior-point iteration state and algorithm for one problem (see the module comment). */
export class IpmCore {
  readonly problem: StageOcp;
  readonly o: ResolvedOcpOptions;
  readonly role: 'main' | 'restoration';
  readonly N: number;
  readonly kkt: StageKktSystem;
  readonly dimsList: readonly OcpStageDims[];
  readonly nxA: Int32Array;
  readonly nuA: Int32Array;
  readonly ngA: Int32Array;
  readonly nhA: Int32Array;
  readonly nyA: Int32Array;
  /** Offsets: state storage, controls, equality rows, inequality rows, tangent states, J_h blocks. */
  readonly xsOff: Int32Array;
  readonly gOffC: Int32Array;
  readonly uOff: Int32Array;
  readonly hOff: Int32Array;
  readonly txOff: Int32Array;
  readonly hjOff: Int32Array;
  readonly nTotalH: number;

  // primal and dual variables
  readonly x: Float64Array;
  readonly u: Float64Array;
  readonly s: Float64Array;
  readonly lam: Float64Array;
  readonly mu: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly xT: Float64Array;
  readonly uT: Float64Array;
  readonly sT: Float64Array;

  // evaluation at the current point (Jacobians and Hessian live in kkt)
  readonly cost: Float64Array;
  readonly costGrad: Float64Array;
  readonly c: Float64Array;
  readonly g: Float64Array;
  readonly h: Float64Array;
  readonly hJac: Float64Array;
  // values at the trial point
  readonly costT: Float64Array;
  readonly cT: Float64Array;
  readonly gT: Float64Array;
  readonly hT: Float64Array;

  // step and right-hand sides
  readonly dw: Float64Array;
  readonly dl: Float64Array;
  readonly dm: Float64Array;
  readonly ds: Float64Array;
  readonly dy: Float64Array;
  readonly dz: Float64Array;
  private readonly dwS: Float64Array;
  private readonly dlS: Float64Array;
  private readonly dmS: Float64Array;
  private readonly dMuK: Float64Array;
  private readonly dsS: Float64Array;
  private readonly dyS: Float64Array;
  private readonly dzS: Float64Array;
  private readonly rhsW: Float64Array;
  private readonly rhsWBase: Float64Array;
  private readonly rhsC: Float64Array;
  private readonly rhsG: Float64Array;
  /** Inequality rows kept as KKT rows this iteration: count per stage and stage-local indices. */
  readonly keptCount: Int32Array;
  readonly keptMap: Int32Array;
  readonly kept: Uint8Array;
  private readonly rHS: Float64Array;
  private readonly rhsS: Float64Array;
  private readonly cSoc: Float64Array;
  private readonly gSoc: Float64Array;
  private readonly hsSoc: Float64Array;
  readonly sigma: Float64Array;
  readonly gradLag: Float64Array;
  private readonly stepScaled: Float64Array;

  // per-stage views handed to the problem
  private readonly xV: Float64Array[] = [];
  private readonly uV: Float64Array[] = [];
  private readonly xTV: Float64Array[] = [];
  private readonly uTV: Float64Array[] = [];
  private readonly stepV: Float64Array[] = [];
  private readonly lamV: Float64Array[] = [];
  private readonly muV: Float64Array[] = [];
  private readonly etaV: Float64Array[] = [];
  private readonly eta: Float64Array;
  private readonly evalCur: OcpStageEval[] = [];
  private readonly evalTrial: OcpStageEval[] = [];

  // scalars of the iteration
  /** Barrier parameter μ. */
  barrier = 0.1;
  tau = 0.99;
  fCur = 0;
  fTrial = 0;
  iter = 0;
  /** Iterations counted before this core's run (restoration continues the main count). */
  iterBase = 0;
  /** Iteration budget of this run (counting from iterBase). */
  iterLimit = 0;
  /** Wall-clock deadline (performance.now() milliseconds); set with {@link setDeadline}. */
  deadline = Number.POSITIVE_INFINITY;
  /** Whether {@link deadline} is finite (a boolean, so that the per-iteration test reads no double). */
  private hasDeadline = false;
  deltaW = 0;
  deltaC = 0;
  private deltaWLast = 0;
  alphaPr = 0;
  alphaDu = 0;
  lsTrials = 0;
  dNorm = 0;
  thetaMax = -1;
  thetaMin = -1;
  private tinyStepLast = false;
  private tinyStepFlag = false;
  private lastRejectionByFilter = false;
  private successiveFilterRejections = 0;
  private filterResets = 0;
  private filterTheta: Float64Array;
  private filterPhi: Float64Array;
  private filterCount = 0;
  private acceptableCount = 0;
  private lastObjective = Number.NaN;
  private firstIteration = true;
  /** Whether θ_max and θ_min of this run are set (by the first iteration). */
  private thetaBoundsSet = false;
  /** μ_min of the monotone barrier update [WB (7)], from the options (constant per core). */
  private readonly muMin: number;
  // Tests of the current point, computed at the end of computeErrors (see its comment)
  /** {@link isConverged} at the last `computeErrors(ERRORS_ITERATE)`. */
  private testConverged = false;
  /** {@link isAcceptable} at the last `computeErrors(ERRORS_ITERATE)`. */
  private testAcceptable = false;
  /** {@link isDiverging} at the last `computeErrors(ERRORS_ITERATE)`. */
  private testDiverging = false;
  /** E_μ ≤ κ_ε·μ [WB (7)] at the last computeErrors. */
  private barrierReached = false;
  /** Whether the last `computeErrors(ERRORS_DECREASE_BARRIER)` changed μ. */
  private barrierChanged = false;
  // error measures at the current point
  dualInf = 0;
  primalInf = 0;
  complInf = 0;
  errorNlp = 0;
  errorBarrier = 0;
  unscaledDualInf = 0;
  unscaledPrimalInf = 0;
  unscaledComplInf = 0;
  /** Message describing the last exit (filled when a run ends). */
  message = '';
  /** Stage of a failed evaluation or factorization (−1: none). */
  failStage = -1;
  lastFactorStatus: KktFactorStatus = 'ok';
  /**
   * Whether the last assembled matrix condensed the state-only inequality rows because keeping
   * them would carry more than {@link OCP_MAX_CARRIED_CONSTRAINTS} rows (see `prepareMatrix`).
   */
  condensedStateOnly = false;
  /** Milliseconds in the problem's evaluations and in factorizations and solves (option `profile`). */
  evaluationMs = 0;
  linearAlgebraMs = 0;
  /**
   * True while the evaluation buffers (cost, c, g, h, their Jacobians and the Hessian `kkt.hess`)
   * hold a level-2 evaluation of the current point with the current multipliers, untouched since:
   * set by a successful `evaluate(2, false)`, cleared by any other evaluation of the current point
   * and by everything that writes into the Hessian buffer (`prepareMatrix`, which adds the condensed
   * slacks, and `leastSquaresMultipliers`). {@link factorForVerdict} then skips its own level-2
   * evaluation, which would recompute the same numbers.
   */
  private evaluatedAtPoint = false;
  /**
   * True while `kkt` holds the dynamics factors (LU of E_k and Â_k, which depend on the dynamics
   * Jacobians `kkt.cJac` alone) of the current point: set by a factorization of the current
   * point, cleared by every evaluation of the current point at level ≥ 1 (which writes `cJac`)
   * except {@link evaluateSamePoint}'s. The next factorization of the same point is then a
   * `kkt.refactor`, bit-identical to `kkt.factor` without the dynamics step: iteration 0
   * refactors the matrix of the least-squares multipliers' factorization (one dynamics step less
   * per solve).
   */
  private dynamicsCurrent = false;

  scaling: ScaledStageOcp | null = null;
  restoration: RestorationHandler | null = null;
  exitCheck: RestorationExitCheck | null = null;
  readonly info: OcpIterationInfo = {
    iteration: 0,
    restoration: false,
    objective: 0,
    infPr: 0,
    infDu: 0,
    mu: 0,
    dNorm: 0,
    deltaW: 0,
    alphaDu: 0,
    alphaPr: 0,
    lsTrials: 0,
  };
  /** Receives the iteration line (the solver reports restoration lines through the main one). */
  reporter: ((core: IpmCore) => boolean) | null = null;

  constructor(problem: StageOcp, options: ResolvedOcpOptions, role: 'main' | 'restoration') {
    this.problem = problem;
    this.o = options;
    this.role = role;
    const N = problem.N;
    this.N = N;
    const count = N + 1;
    const dims: OcpStageDims[] = [];
    const storage = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      dims.push(problem.dims(k));
      storage[k] = problem.stateStorage(k);
    }
    this.dimsList = dims;
    // the KKT system's local rows: the rows of g, then the inequality rows kept as rows
    this.kkt = new StageKktSystem(dims.map((d) => ({ nx: d.nx, nu: d.nu, ng: d.ng + d.nh })));
    const kkt = this.kkt;
    this.nxA = kkt.nx;
    this.nuA = kkt.nu;
    this.nyA = kkt.ny;
    this.ngA = new Int32Array(count);
    this.nhA = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      this.ngA[k] = dims[k]!.ng;
      this.nhA[k] = dims[k]!.nh;
    }
    this.gOffC = stageOffsets(count, (k) => this.ngA[k]!);
    this.xsOff = stageOffsets(count, (k) => storage[k]!);
    this.uOff = stageOffsets(count, (k) => this.nuA[k]!);
    this.hOff = stageOffsets(count, (k) => this.nhA[k]!);
    this.txOff = stageOffsets(count, (k) => this.nxA[k]!);
    this.hjOff = stageOffsets(count, (k) => this.nhA[k]! * (this.nxA[k]! + this.nuA[k]!));
    const nxs = this.xsOff[count]!;
    const nuT = this.uOff[count]!;
    const nh = this.hOff[count]!;
    const nw = kkt.nPrimal;
    const nc = kkt.cOffset[count]!;
    const ng = this.gOffC[count]!;
    const ngK = kkt.gOffset[count]!;
    this.nTotalH = nh;
    this.x = new Float64Array(nxs);
    this.u = new Float64Array(nuT);
    this.s = new Float64Array(nh);
    this.lam = new Float64Array(nc);
    this.mu = new Float64Array(ng);
    this.y = new Float64Array(nh);
    this.z = new Float64Array(nh);
    this.eta = new Float64Array(nh);
    this.xT = new Float64Array(nxs);
    this.uT = new Float64Array(nuT);
    this.sT = new Float64Array(nh);
    this.cost = new Float64Array(count);
    this.costGrad = new Float64Array(nw);
    this.c = new Float64Array(nc);
    this.g = new Float64Array(ng);
    this.h = new Float64Array(nh);
    this.hJac = new Float64Array(this.hjOff[count]!);
    this.costT = new Float64Array(count);
    this.cT = new Float64Array(nc);
    this.gT = new Float64Array(ng);
    this.hT = new Float64Array(nh);
    this.dw = new Float64Array(nw);
    this.dl = new Float64Array(nc);
    this.dm = new Float64Array(ng);
    this.ds = new Float64Array(nh);
    this.dy = new Float64Array(nh);
    this.dz = new Float64Array(nh);
    this.dwS = new Float64Array(nw);
    this.dlS = new Float64Array(nc);
    this.dmS = new Float64Array(ng);
    this.dsS = new Float64Array(nh);
    this.dyS = new Float64Array(nh);
    this.dzS = new Float64Array(nh);
    this.rhsW = new Float64Array(nw);
    this.rhsWBase = new Float64Array(nw);
    this.rhsC = new Float64Array(nc);
    this.rhsG = new Float64Array(ngK);
    this.dMuK = new Float64Array(ngK);
    this.keptCount = new Int32Array(count);
    this.keptMap = new Int32Array(nh);
    this.kept = new Uint8Array(nh);
    this.rHS = new Float64Array(nh);
    this.rhsS = new Float64Array(nh);
    this.cSoc = new Float64Array(nc);
    this.gSoc = new Float64Array(ng);
    this.hsSoc = new Float64Array(nh);
    this.sigma = new Float64Array(nh);
    this.gradLag = new Float64Array(nw);
    this.stepScaled = new Float64Array(this.txOff[count]!);
    // scratch for derivatives a level-0 evaluation must not write (shared by all stages)
    let maxNw = 0;
    let maxNy = 0;
    let maxNg = 0;
    let maxNh = 0;
    for (let k = 0; k < count; k++) {
      maxNw = Math.max(maxNw, this.nxA[k]! + this.nuA[k]!);
      maxNy = Math.max(maxNy, this.nyA[k]!);
      maxNg = Math.max(maxNg, this.ngA[k]!);
      maxNh = Math.max(maxNh, this.nhA[k]!);
    }
    const junkGrad = new Float64Array(maxNw);
    const junkCJac = new Float64Array(maxNy * (maxNw + maxNy));
    const junkGJac = new Float64Array(maxNg * maxNw);
    const junkHJac = new Float64Array(maxNh * maxNw);
    const junkHess = new Float64Array((maxNw + maxNy) ** 2);
    const sub = (a: Float64Array, o: Int32Array, k: number) => a.subarray(o[k]!, o[k + 1]!);
    for (let k = 0; k < count; k++) {
      const nwk = this.nxA[k]! + this.nuA[k]!;
      const nyk = this.nyA[k]!;
      this.xV.push(sub(this.x, this.xsOff, k));
      this.uV.push(sub(this.u, this.uOff, k));
      this.xTV.push(sub(this.xT, this.xsOff, k));
      this.uTV.push(sub(this.uT, this.uOff, k));
      this.stepV.push(sub(this.stepScaled, this.txOff, k));
      this.lamV.push(sub(this.lam, kkt.cOffset, k));
      this.muV.push(sub(this.mu, this.gOffC, k));
      this.etaV.push(sub(this.eta, this.hOff, k));
      this.evalCur.push({
        cost: 0,
        costGrad: sub(this.costGrad, kkt.wOffset, k),
        c: sub(this.c, kkt.cOffset, k),
        cJac: sub(kkt.cJac, kkt.cJacOffset, k),
        g: sub(this.g, this.gOffC, k),
        gJac: kkt.gJac.subarray(kkt.gJacOffset[k]!, kkt.gJacOffset[k]! + this.ngA[k]! * nwk),
        h: sub(this.h, this.hOff, k),
        hJac: sub(this.hJac, this.hjOff, k),
        hess: sub(kkt.hess, kkt.hessOffset, k),
      });
      this.evalTrial.push({
        cost: 0,
        costGrad: junkGrad.subarray(0, nwk),
        c: sub(this.cT, kkt.cOffset, k),
        cJac: junkCJac.subarray(0, nyk * (nwk + nyk)),
        g: sub(this.gT, this.gOffC, k),
        gJac: junkGJac.subarray(0, this.ngA[k]! * nwk),
        h: sub(this.hT, this.hOff, k),
        hJac: junkHJac.subarray(0, this.nhA[k]! * nwk),
        hess: junkHess.subarray(0, (nwk + nyk) ** 2),
      });
    }
    this.muMin = Math.max(
      options.muTarget,
      Math.min(options.tol, options.complInfTol) / (options.barrierTolFactor + 1),
    );
    const cap = Math.min(options.maxIterations, 1_000_000) + 16;
    this.filterTheta = new Float64Array(cap);
    this.filterPhi = new Float64Array(cap);
    this.residualLog = new Float64Array(role === 'main' ? cap : 0);
  }

  // ---------------------------------------------------------------------------------------------
  // evaluation

  /**
   * Evaluates every stage at the current (`trial` false) or trial point to `level`; false when the
   * problem threw {@link EvaluationDomainError} or returned a non-finite value (the stage is in
   * `failStage`). At level 2 the Hessian weights are (1, λ, μ, y).
   */
  evaluate(level: 0 | 1 | 2, trial: boolean): boolean {
    if (!trial) {
      this.evaluatedAtPoint = false;
      if (level > 0) this.dynamicsCurrent = false;
    }
    let ok: boolean;
    if (!this.o.profile) ok = this.evaluateStages(level, trial);
    else {
      const t0 = performance.now();
      ok = this.evaluateStages(level, trial);
      this.evaluationMs += performance.now() - t0;
    }
    if (!trial && level === 2) this.evaluatedAtPoint = ok;
    return ok;
  }

  /**
   * `evaluate(2, false)` of the current point again, with new multipliers, where only the Hessian
   * changes: the dynamics Jacobians it writes are those already in `kkt.cJac` (the same stage
   * functions at the same point), so the dynamics factors of a factorization since the last
   * evaluation stay valid (see {@link dynamicsCurrent}). The solver's set-up evaluates this way
   * after the least-squares multipliers.
   */
  evaluateSamePoint(): boolean {
    const keep = this.dynamicsCurrent;
    const ok = this.evaluate(2, false);
    this.dynamicsCurrent = keep && ok;
    return ok;
  }

  private evaluateStages(level: 0 | 1 | 2, trial: boolean): boolean {
    const N = this.N;
    const X = trial ? this.xTV : this.xV;
    const U = trial ? this.uTV : this.uV;
    const E = trial ? this.evalTrial : this.evalCur;
    const costs = trial ? this.costT : this.cost;
    if (level === 2) this.eta.set(this.y);
    let total = 0;
    for (let k = 0; k <= N; k++) {
      const out = E[k]!;
      try {
        this.problem.evaluate(
          k,
          X[k]!,
          U[k]!,
          k < N ? X[k + 1]! : undefined,
          level,
          1,
          this.lamV[k]!,
          this.muV[k]!,
          this.etaV[k]!,
          out,
        );
      } catch (e) {
        if (e instanceof EvaluationDomainError) {
          this.failStage = k;
          return false;
        }
        throw e;
      }
      const v = out.cost;
      costs[k] = v;
      total += v;
    }
    if (trial) this.fTrial = total;
    else this.fCur = total;
    // finiteness: v − v is 0 for finite v and NaN otherwise
    let chk = total - total;
    const cc = trial ? this.cT : this.c;
    const gg = trial ? this.gT : this.g;
    const hh = trial ? this.hT : this.h;
    for (let i = 0; i < cc.length; i++) chk += cc[i]! - cc[i]!;
    for (let i = 0; i < gg.length; i++) chk += gg[i]! - gg[i]!;
    for (let i = 0; i < hh.length; i++) chk += hh[i]! - hh[i]!;
    if (level >= 1) {
      const arrs1 = this.costGrad;
      for (let i = 0; i < arrs1.length; i++) chk += arrs1[i]! - arrs1[i]!;
      const cj = this.kkt.cJac;
      for (let i = 0; i < cj.length; i++) chk += cj[i]! - cj[i]!;
      const gj = this.kkt.gJac;
      for (let i = 0; i < gj.length; i++) chk += gj[i]! - gj[i]!;
      const hj = this.hJac;
      for (let i = 0; i < hj.length; i++) chk += hj[i]! - hj[i]!;
    }
    if (level === 2) {
      const hs = this.kkt.hess;
      for (let i = 0; i < hs.length; i++) chk += hs[i]! - hs[i]!;
    }
    if (chk !== 0) {
      this.failStage = -1;
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // merit quantities

  // Scalars of the line search live in fields: a double returned from, or passed to, a method
  // that the optimizing compiler does not inline is boxed (heap-allocated) on every call.
  /** Output of {@link thetaInto} and {@link barrierInto}. */
  mTheta = 0.5;
  mBarr = 0.5;
  /** Output of {@link primalInfMaxInto}. */
  private mPrimalInf = 0.5;
  /** Candidate (θ, φ) for the acceptance tests (set before calling them). */
  testTheta = 0.5;
  testBarr = 0.5;
  private alphaTrial = 0.5;
  private alphaTest = 0.5;
  private ftb = 0.5;
  private relStep = 0.5;

  /** mTheta ← θ = ‖(c, g, h − s)‖₁ at the current (false) or trial (true) point. */
  thetaInto(trial: boolean): void {
    const c = trial ? this.cT : this.c;
    const g = trial ? this.gT : this.g;
    const h = trial ? this.hT : this.h;
    const s = trial ? this.sT : this.s;
    let t = 0;
    for (let i = 0; i < c.length; i++) t += Math.abs(c[i]!);
    for (let i = 0; i < g.length; i++) t += Math.abs(g[i]!);
    for (let i = 0; i < h.length; i++) t += Math.abs(h[i]! - s[i]!);
    this.mTheta = t;
  }

  /** mBarr ← φ_μ = f − μ Σ ln s + κ_d μ Σ s at the current or trial point. */
  barrierInto(trial: boolean): void {
    const s = trial ? this.sT : this.s;
    let lg = 0;
    let sum = 0;
    for (let i = 0; i < s.length; i++) {
      lg += Math.log(s[i]!);
      sum += s[i]!;
    }
    const f = trial ? this.fTrial : this.fCur;
    this.mBarr = f - this.barrier * lg + this.o.kappaD * this.barrier * sum;
  }

  /**
   * mPrimalInf ← ‖(c, g, h − s)‖∞ at the current point (scaled). Into a field, not returned:
   * computeErrors calls it every iteration, and when V8 does not inline it into that large
   * method a returned double is boxed (a heap number per call: V8's sampling heap profiler put
   * ~22 B per iteration on primalInfMax < computeErrors for the satellite at n = 400, 0 after).
   */
  private primalInfMaxInto(): void {
    let t = 0;
    const { c, g, h, s } = this;
    for (let i = 0; i < c.length; i++) t = Math.max(t, Math.abs(c[i]!));
    for (let i = 0; i < g.length; i++) t = Math.max(t, Math.abs(g[i]!));
    for (let i = 0; i < h.length; i++) t = Math.max(t, Math.abs(h[i]! - s[i]!));
    this.mPrimalInf = t;
  }

  /** gradLag ← ∇_w L = ∇f + J_cᵀλ + J_gᵀμ + J_hᵀy at the current point. */
  computeGradLag(): void {
    const { N, kkt, gradLag, costGrad, lam, mu, y, hJac } = this;
    gradLag.set(costGrad);
    for (let k = 0; k <= N; k++) {
      const nx = this.nxA[k]!;
      const nw = nx + this.nuA[k]!;
      const ny = this.nyA[k]!;
      const ng = this.ngA[k]!;
      const nh = this.nhA[k]!;
      const wo = kkt.wOffset[k]!;
      if (ny > 0) {
        const cw = nw + ny;
        const co = kkt.cJacOffset[k]!;
        const lo = kkt.cOffset[k]!;
        const wn = kkt.wOffset[k + 1]!;
        for (let i = 0; i < ny; i++) {
          const l = lam[lo + i]!;
          if (l === 0) continue;
          const row = co + i * cw;
          for (let a = 0; a < nw; a++) gradLag[wo + a] = gradLag[wo + a]! + l * kkt.cJac[row + a]!;
          for (let j = 0; j < ny; j++)
            gradLag[wn + j] = gradLag[wn + j]! + l * kkt.cJac[row + nw + j]!;
        }
      }
      const go = kkt.gJacOffset[k]!;
      const mo = this.gOffC[k]!;
      for (let i = 0; i < ng; i++) {
        const m = mu[mo + i]!;
        if (m === 0) continue;
        for (let a = 0; a < nw; a++)
          gradLag[wo + a] = gradLag[wo + a]! + m * kkt.gJac[go + i * nw + a]!;
      }
      const ho = this.hjOff[k]!;
      const yo = this.hOff[k]!;
      for (let i = 0; i < nh; i++) {
        const yi = y[yo + i]!;
        if (yi === 0) continue;
        for (let a = 0; a < nw; a++)
          gradLag[wo + a] = gradLag[wo + a]! + yi * hJac[ho + i * nw + a]!;
      }
    }
  }

  /**
   * The optimality errors at the current point [WB (5)–(6)]: scaled dual infeasibility, primal
   * infeasibility, complementarity, E₀ and E_μ, and the unscaled measures of IPOPT's termination
   * test (through the problem's scaling when it has one); then whether E_μ ≤ κ_ε·μ.
   *
   * The once-per-iteration scalar work lives here, behind the per-stage loops, rather than in small
   * methods of its own: a method that runs a few times per iteration stays in V8's unoptimized tiers
   * for hundreds of solves, and there every double it reads or computes is a heap allocation,
   * whereas this method is optimized within the first solve. `mode`:
   * - ERRORS_ITERATE: also the tests of {@link run} (isConverged, isAcceptable, isDiverging,
   *   as booleans), the objective of the acceptable test's next iteration, and the iteration line
   *   ({@link info}, of the main phase);
   * - ERRORS_DECREASE_BARRIER: first the monotone update μ ← max(μ_min, min(κ_μμ, μ^θ_μ)),
   *   τ ← max(τ_min, 1 − μ) [WB (7)]; `barrierChanged` tells whether μ changed, and when it did
   *   not, nothing else is done.
   */
  computeErrors(mode: ErrorsMode = ERRORS_ONLY): void {
    const o = this.o;
    if (mode === ERRORS_DECREASE_BARRIER) {
      const mu0 = this.barrier;
      let next = Math.min(o.muLinearDecreaseFactor * mu0, mu0 ** o.muSuperlinearDecreasePower);
      next = Math.max(next, this.muMin);
      if (next === mu0) {
        this.barrierChanged = false;
        return;
      }
      this.barrierChanged = true;
      this.barrier = next;
      this.tau = Math.max(o.tauMin, 1 - next);
    }
    this.computeGradLag();
    const { gradLag, y, z, s, lam, mu, nTotalH } = this;
    let du = 0;
    for (let i = 0; i < gradLag.length; i++) du = Math.max(du, Math.abs(gradLag[i]!));
    let duS = 0;
    for (let i = 0; i < nTotalH; i++) duS = Math.max(duS, Math.abs(y[i]! + z[i]!));
    const dual = Math.max(du, duS);
    this.primalInfMaxInto();
    const primal = this.mPrimalInf;
    let compl0 = 0;
    let complMu = 0;
    let zsum = 0;
    for (let i = 0; i < nTotalH; i++) {
      const sz = s[i]! * z[i]!;
      compl0 = Math.max(compl0, Math.abs(sz));
      complMu = Math.max(complMu, Math.abs(sz - this.barrier));
      zsum += Math.abs(z[i]!);
    }
    let multSum = zsum;
    for (let i = 0; i < lam.length; i++) multSum += Math.abs(lam[i]!);
    for (let i = 0; i < mu.length; i++) multSum += Math.abs(mu[i]!);
    for (let i = 0; i < nTotalH; i++) multSum += Math.abs(y[i]!);
    const nMult = lam.length + mu.length + 2 * nTotalH;
    const sd = nMult > 0 ? Math.max(S_MAX, multSum / nMult) / S_MAX : 1;
    const sc = nTotalH > 0 ? Math.max(S_MAX, zsum / nTotalH) / S_MAX : 1;
    this.dualInf = dual;
    this.primalInf = primal;
    this.complInf = compl0;
    this.errorNlp = Math.max(dual / sd, primal, compl0 / sc);
    this.errorBarrier = Math.max(dual / sd, primal, complMu / sc);
    const sc0 = this.scaling;
    if (sc0 === null) {
      this.unscaledDualInf = dual;
      this.unscaledPrimalInf = primal;
      this.unscaledComplInf = compl0;
    } else {
      const sf = sc0.objScale;
      let ud = du / sf;
      let up = 0;
      let uc = 0;
      for (let i = 0; i < this.c.length; i++)
        up = Math.max(up, Math.abs(this.c[i]! / sc0.cScale[i]!));
      for (let i = 0; i < this.g.length; i++)
        up = Math.max(up, Math.abs(this.g[i]! / sc0.gScale[i]!));
      for (let i = 0; i < nTotalH; i++) {
        const dh = sc0.hScale[i]!;
        up = Math.max(up, Math.abs((this.h[i]! - s[i]!) / dh));
        ud = Math.max(ud, (Math.abs(y[i]! + z[i]!) * dh) / sf);
        uc = Math.max(uc, Math.abs(s[i]! * z[i]!) / sf);
      }
      this.unscaledDualInf = ud;
      this.unscaledPrimalInf = up;
      this.unscaledComplInf = uc;
    }
    this.barrierReached = this.errorBarrier <= o.barrierTolFactor * this.barrier;
    if (mode !== ERRORS_ITERATE) return;
    // isConverged and isAcceptable (IPOPT's tests), written out: see the method comment
    this.testConverged =
      this.errorNlp <= o.tol &&
      this.unscaledDualInf <= o.dualInfTol &&
      this.unscaledPrimalInf <= o.constrViolTol &&
      this.unscaledComplInf <= o.complInfTol;
    let objOk = true;
    if (o.acceptableObjChangeTol < 1e20 && !Number.isNaN(this.lastObjective)) {
      objOk =
        Math.abs(this.fCur - this.lastObjective) / Math.max(1, Math.abs(this.fCur)) <=
        o.acceptableObjChangeTol;
    }
    this.testAcceptable =
      o.acceptableIter !== 0 &&
      this.errorNlp <= o.acceptableTol &&
      this.unscaledDualInf <= o.acceptableDualInfTol &&
      this.unscaledPrimalInf <= o.acceptableConstrViolTol &&
      this.unscaledComplInf <= o.acceptableComplInfTol &&
      objOk;
    // the acceptable test of the next iteration compares with this objective
    this.lastObjective = this.fCur;
    // isDiverging
    const t = o.divergingIteratesTol;
    const { x, u } = this;
    let div = false;
    for (let i = 0; i < x.length && !div; i++) if (!(Math.abs(x[i]!) <= t)) div = true;
    for (let i = 0; i < u.length && !div; i++) if (!(Math.abs(u[i]!) <= t)) div = true;
    for (let i = 0; i < s.length && !div; i++) if (!(Math.abs(s[i]!) <= t)) div = true;
    this.testDiverging = div;
    // the iteration line (fillInfo; a restoration phase's reporter fills its own)
    const info = this.info;
    const first = this.iter === 0;
    info.iteration = this.iterBase + this.iter;
    info.restoration = false;
    info.objective = sc0 === null ? this.fCur : this.fCur / sc0.objScale;
    info.infPr = this.unscaledPrimalInf;
    info.infDu = this.dualInf;
    info.mu = this.barrier;
    info.dNorm = first ? 0 : this.dNorm;
    info.deltaW = first ? 0 : this.deltaW;
    info.alphaDu = first ? 0 : this.alphaDu;
    info.alphaPr = first ? 0 : this.alphaPr;
    info.lsTrials = first ? 0 : this.lsTrials;
    // the line's residual (a restoration phase's lines are recorded by the solver's reporter)
    if (this.role === 'main') {
      const n = this.lineCount;
      if (n < this.residualLog.length) {
        this.residualLog[n] = Math.max(this.unscaledPrimalInf, this.dualInf);
        this.lineCount = n + 1;
      } else {
        this.recordLine(info);
      }
    }
  }

  /**
   * max(infPr, infDu) of the iteration lines of the current run, in order (the main phase's and
   * its restoration phases'): entries 0..lineCount−1, written without a callback (a callback
   * that reads the doubles of a line runs unoptimized and allocates them). Capacity: the filter's,
   * doubled when full.
   */
  residualLog: Float64Array;
  lineCount = 0;

  /**
   * Appends max(infPr, infDu) of `line` to {@link residualLog}, growing it when full (the line,
   * not the double, is passed: a double argument of a call that is not inlined is boxed).
   */
  recordLine(line: Readonly<OcpIterationInfo>): void {
    if (this.lineCount >= this.residualLog.length) {
      const grown = new Float64Array(Math.max(16, 2 * this.residualLog.length));
      grown.set(this.residualLog);
      this.residualLog = grown;
    }
    this.residualLog[this.lineCount++] = Math.max(line.infPr, line.infDu);
  }

  /**
   * IPOPT's "acceptable" test of the current point (without the iteration count); the main loop
   * uses the same test as computed by `computeErrors(ERRORS_ITERATE)`.
   */
  isAcceptable(): boolean {
    const o = this.o;
    if (o.acceptableIter === 0) return false;
    let objOk = true;
    if (o.acceptableObjChangeTol < 1e20 && !Number.isNaN(this.lastObjective)) {
      objOk =
        Math.abs(this.fCur - this.lastObjective) / Math.max(1, Math.abs(this.fCur)) <=
        o.acceptableObjChangeTol;
    }
    return (
      this.errorNlp <= o.acceptableTol &&
      this.unscaledDualInf <= o.acceptableDualInfTol &&
      this.unscaledPrimalInf <= o.acceptableConstrViolTol &&
      this.unscaledComplInf <= o.acceptableComplInfTol &&
      objOk
    );
  }

  // ---------------------------------------------------------------------------------------------
  // initialization

  /**
   * Pushes the slacks off the bounds (s = max(h, κ₁)) and sets the bound multipliers (z = z₀)
   * [WB §3.6]; the equality multipliers are set by {@link leastSquaresMultipliers} or by the
   * caller. Requires a level-1 evaluation at the current point.
   */
  initializeSlacks(push: number, zInit: number): void {
    for (let i = 0; i < this.nTotalH; i++) {
      this.s[i] = Math.max(this.h[i]!, push);
      this.z[i] = zInit;
    }
  }

  /**
   * Least-squares equality multipliers [WB §3.6]: the multipliers of
   * min ½‖dw‖² + ½‖ds‖² s.t. the linearized constraints, i.e. the solution of
   * [[I, Jᵀ], [J, 0]] with right-hand side (−∇f, z) — IPOPT's `least_square_mults` — discarded
   * (set to 0) when their ∞-norm exceeds `constrMultInitMax` or the matrix is singular. Requires
   * a level-1 evaluation; overwrites the Hessian buffer.
   */
  leastSquaresMultipliers(): void {
    const { kkt, lam, mu, y } = this;
    lam.fill(0);
    mu.fill(0);
    y.fill(0);
    // the Hessian weights changed (and the Hessian buffer is overwritten below)
    this.evaluatedAtPoint = false;
    if (this.o.constrMultInitMax === 0) return;
    // Hessian block I + J_hᵀJ_h (the identity through δ_w = 1), no cross blocks
    kkt.hess.fill(0);
    this.kept.fill(0);
    for (let k = 0; k <= this.N; k++) {
      this.addCondensedSlacks(k, null);
      this.keptCount[k] = 0;
      kkt.localRows[k] = this.ngA[k]!;
      const go = kkt.gOffset[k]!;
      for (let i = 0; i < this.ngA[k]!; i++) kkt.rowReg[go + i] = 0;
    }
    const st = kkt.factor(1, 0);
    // the factorization stopped at a stage or not, the dynamics factors it computed are those of
    // this point's cJac (the later stages' ones are recomputed by a refactor that needs them)
    this.dynamicsCurrent = true;
    if (st !== 'ok') return;
    const { rhsW, rhsC, rhsG, costGrad, hJac, z } = this;
    for (let i = 0; i < rhsW.length; i++) rhsW[i] = -costGrad[i]!;
    rhsC.fill(0);
    rhsG.fill(0);
    for (let k = 0; k <= this.N; k++) {
      const nw = this.nxA[k]! + this.nuA[k]!;
      const wo = kkt.wOffset[k]!;
      const ho = this.hjOff[k]!;
      const yo = this.hOff[k]!;
      for (let i = 0; i < this.nhA[k]!; i++) {
        const zi = z[yo + i]!;
        for (let a = 0; a < nw; a++) rhsW[wo + a] = rhsW[wo + a]! + hJac[ho + i * nw + a]! * zi;
      }
    }
    kkt.solve(rhsW, rhsC, rhsG, this.dw, lam, this.dMuK);
    for (let k = 0; k <= this.N; k++) {
      const go = kkt.gOffset[k]!;
      const mo = this.gOffC[k]!;
      for (let i = 0; i < this.ngA[k]!; i++) mu[mo + i] = this.dMuK[go + i]!;
    }
    // y = J_h dw − z
    this.jhTimes(this.dw, y);
    let mx = 0;
    for (let i = 0; i < y.length; i++) {
      y[i] = y[i]! - z[i]!;
      mx = Math.max(mx, Math.abs(y[i]!));
    }
    for (let i = 0; i < lam.length; i++) mx = Math.max(mx, Math.abs(lam[i]!));
    for (let i = 0; i < mu.length; i++) mx = Math.max(mx, Math.abs(mu[i]!));
    if (!(mx <= this.o.constrMultInitMax)) {
      lam.fill(0);
      mu.fill(0);
      y.fill(0);
    }
  }

  /** out ← J_h·v for a primal vector v (KKT layout). */
  private jhTimes(v: Float64Array, out: Float64Array): void {
    const { kkt, hJac } = this;
    for (let k = 0; k <= this.N; k++) {
      const nw = this.nxA[k]! + this.nuA[k]!;
      const wo = kkt.wOffset[k]!;
      const ho = this.hjOff[k]!;
      const yo = this.hOff[k]!;
      for (let i = 0; i < this.nhA[k]!; i++) {
        let s = 0;
        for (let a = 0; a < nw; a++) s += hJac[ho + i * nw + a]! * v[wo + a]!;
        out[yo + i] = s;
      }
    }
  }

  /** Adds J_hᵀ·diag(σ)·J_h of stage k to its Hessian block (σ = 1 when `sig` is null). */
  private addCondensedSlacks(k: number, sig: Float64Array | null): void {
    const nh = this.nhA[k]!;
    if (nh === 0) return;
    const { kkt, hJac } = this;
    const nw = this.nxA[k]! + this.nuA[k]!;
    const hw = nw + this.nyA[k]!;
    const hb = kkt.hessOffset[k]!;
    const ho = this.hjOff[k]!;
    const yo = this.hOff[k]!;
    const H = kkt.hess;
    for (let i = 0; i < nh; i++) {
      if (sig !== null && this.kept[yo + i] === 1) continue;
      const si = sig === null ? 1 : sig[yo + i]!;
      if (si === 0) continue;
      const r = ho + i * nw;
      for (let a = 0; a < nw; a++) {
        const va = si * hJac[r + a]!;
        if (va === 0) continue;
        for (let b = 0; b < nw; b++) H[hb + a * hw + b] = H[hb + a * hw + b]! + va * hJac[r + b]!;
      }
    }
  }

  /** Sets the wall-clock deadline of the runs (performance.now() milliseconds; +∞: none). */
  setDeadline(ms: number): void {
    this.deadline = ms;
    this.hasDeadline = ms !== Number.POSITIVE_INFINITY;
  }

  /** Resets the filter and line-search state for a new run. */
  resetForRun(mu0: number): void {
    this.barrier = mu0;
    this.tau = Math.max(this.o.tauMin, 1 - mu0);
    this.filterCount = 0;
    this.filterResets = 0;
    this.lastRejectionByFilter = false;
    this.successiveFilterRejections = 0;
    this.thetaMax = -1;
    this.thetaMin = -1;
    this.thetaBoundsSet = false;
    this.tinyStepLast = false;
    this.tinyStepFlag = false;
    this.acceptableCount = 0;
    this.lastObjective = Number.NaN;
    this.deltaW = 0;
    this.deltaC = 0;
    this.deltaWLast = 0;
    this.alphaPr = 0;
    this.alphaDu = 0;
    this.lsTrials = 0;
    this.dNorm = 0;
    this.iter = 0;
    this.lineCount = 0;
    this.firstIteration = true;
    this.message = '';
    this.failStage = -1;
    this.dynamicsCurrent = false;
  }

  // ---------------------------------------------------------------------------------------------
  // the main loop

  /** Runs Algorithm A from the current (initialized and level-2 evaluated) point. */
  run(): CoreExit {
    const o = this.o;
    for (;;) {
      // the errors and the scalar tests of this iteration (booleans read below), in one call
      this.computeErrors(ERRORS_ITERATE);
      if (!this.thetaBoundsSet) {
        this.thetaBoundsSet = true;
        this.thetaInto(false);
        const th = this.mTheta;
        this.thetaMax = (this.role === 'main' ? o.thetaMaxFact : 1e8) * Math.max(1, th);
        this.thetaMin = o.thetaMinFact * Math.max(1, th);
      }
      // restoration phase: has the original problem made enough progress?
      if (this.exitCheck !== null && !this.firstIteration && this.exitCheck(this)) {
        return 'restorationReturn';
      }
      if (this.reporter !== null && !this.reporter(this)) {
        this.message = 'stopped by the onIteration callback';
        return 'userStop';
      }
      if (this.testConverged) {
        this.message = `optimal solution found (scaled optimality error ${this.errorNlp.toExponential(2)} ≤ tol)`;
        return 'converged';
      }
      if (this.testAcceptable) this.acceptableCount++;
      else this.acceptableCount = 0;
      if (o.acceptableIter > 0 && this.acceptableCount >= o.acceptableIter) {
        this.message = `solved to an acceptable level (${o.acceptableIter} consecutive iterations with optimality error ≤ ${o.acceptableTol})`;
        return 'acceptable';
      }
      if (this.iter >= this.iterLimit) {
        this.message = `iteration limit reached (${this.iterBase + this.iter} iterations)`;
        return 'maxIterations';
      }
      if (this.hasDeadline && performance.now() > this.deadline) {
        this.message = 'wall-clock budget exhausted';
        return 'maxWallTime';
      }
      if (this.testDiverging) {
        this.message = `iterates diverging (‖x‖∞ > ${o.divergingIteratesTol})`;
        return 'diverging';
      }
      // barrier update [WB (7)]
      const upd = this.updateBarrier();
      if (upd !== null) return upd;
      this.firstIteration = false;
      // search direction with inertia correction
      const dir = this.computeSearchDirection();
      let accepted = false;
      if (dir === 'ok') {
        accepted = this.lineSearch();
      } else if (dir !== 'retry') {
        return dir;
      }
      if (!accepted) {
        const r = this.enterRestoration();
        if (r !== 'success') return r;
        continue;
      }
      this.iter++;
      if (!this.evaluate(2, false)) {
        this.message =
          this.failStage >= 0
            ? `the problem's derivatives cannot be evaluated at the accepted point (stage ${this.failStage})`
            : 'the problem returned NaN or ±∞ in its derivatives at the accepted point';
        return 'invalidNumbers';
      }
    }
  }

  /**
   * Monotone Fiacco–McCormick update of μ and τ [WB (7), IPOPT MonotoneMuUpdate]: while
   * E_μ ≤ κ_ε·μ (or after tiny steps), μ ← max(μ_min, min(κ_μμ, μ^θ_μ)), τ ← max(τ_min, 1 − μ),
   * and the errors at the new μ (all in `computeErrors(ERRORS_DECREASE_BARRIER)`). When μ is at
   * μ_min it is left as is (τ then already is max(τ_min, 1 − μ)).
   */
  private updateBarrier(): CoreExit | null {
    if (this.role === 'restoration' && this.firstIteration) return null;
    let tiny = this.tinyStepFlag;
    this.tinyStepFlag = false;
    let changedAny = false;
    for (let guard = 0; guard < 100; guard++) {
      if (!(this.barrierReached || tiny)) break;
      this.computeErrors(ERRORS_DECREASE_BARRIER);
      if (!this.barrierChanged && tiny) {
        this.message =
          'search direction becomes too small (tiny steps at the smallest barrier parameter)';
        return 'stepTooSmall';
      }
      tiny = false;
      if (!this.barrierChanged) break;
      changedAny = true;
    }
    if (changedAny) this.resetFilter();
    return null;
  }

  private resetFilter(): void {
    this.filterCount = 0;
    this.lastRejectionByFilter = false;
    this.successiveFilterRejections = 0;
  }

  /** Forms the condensed system and the right-hand side at the current point. */
  private assembleSystem(): void {
    const { s, y, h, rhsWBase, rhsC, rHS, rhsS, gradLag } = this;
    const mub = this.barrier;
    const kd = this.o.kappaD * mub;
    for (let i = 0; i < this.nTotalH; i++) {
      rHS[i] = h[i]! - s[i]!;
      rhsS[i] = y[i]! + mub / s[i]! - kd;
    }
    this.prepareMatrix();
    // −∇_w L (gradLag holds ∇_w L from computeErrors)
    for (let i = 0; i < rhsWBase.length; i++) rhsWBase[i] = -gradLag[i]!;
    for (let i = 0; i < rhsC.length; i++) rhsC[i] = -this.c[i]!;
  }

  /**
   * Whether row `i` of stage k's inequality Jacobian (or, with `g`, of its equality Jacobian) is
   * state-only: its control part is zero, so the stage's controls cannot eliminate it and the
   * stage-wise factorization carries it to the initial stage (see {@link StageKktSystem}).
   */
  private stateOnlyRow(jac: Float64Array, row: number, nx: number, nw: number): boolean {
    for (let a = nx; a < nw; a++) if (jac[row + a] !== 0) return false;
    return true;
  }

  /**
   * True when the state-only rows that would be kept this iteration, with the state-only equality
   * rows, exceed {@link OCP_MAX_CARRIED_CONSTRAINTS}: a state bound nearly active at many stages
   * (Σᵢ > {@link OCP_SLACK_CONDENSE_SIGMA} at a start close to the bound) would otherwise stop the
   * factorization with `tooManyCarried`. Every state-only equality row counts, a kept state-only
   * inequality row counts; rows with a control part are absorbed by their stage.
   */
  private carriedRowsExceeded(): boolean {
    const { kkt, hJac, kept } = this;
    let count = 0;
    for (let k = 0; k <= this.N; k++) {
      const nx = this.nxA[k]!;
      const nw = nx + this.nuA[k]!;
      const gj = kkt.gJacOffset[k]!;
      for (let i = 0; i < this.ngA[k]!; i++) {
        if (this.stateOnlyRow(kkt.gJac, gj + i * nw, nx, nw)) count++;
      }
      const yo = this.hOff[k]!;
      const ho = this.hjOff[k]!;
      for (let i = 0; i < this.nhA[k]!; i++) {
        if (kept[yo + i] === 1 && this.stateOnlyRow(hJac, ho + i * nw, nx, nw)) count++;
      }
    }
    return count > OCP_MAX_CARRIED_CONSTRAINTS;
  }

  /**
   * Condenses every state-only inequality row (J_hᵀΣJ_h in the Hessian, as HPIPM and FATROP treat
   * all inequalities) instead of keeping it as a carried KKT row. The price is the cancellation
   * described at {@link OCP_SLACK_CONDENSE_SIGMA}: curvature along directions that keep several
   * strongly active rows satisfied is computed from entries of size Σ ≈ z/s, with a relative error
   * of about ε·Σ; the step is still a Newton step of the same KKT system.
   */
  private condenseStateOnlyRows(): void {
    const { hJac, kept } = this;
    for (let k = 0; k <= this.N; k++) {
      const nx = this.nxA[k]!;
      const nw = nx + this.nuA[k]!;
      const yo = this.hOff[k]!;
      const ho = this.hjOff[k]!;
      for (let i = 0; i < this.nhA[k]!; i++) {
        if (kept[yo + i] === 1 && this.stateOnlyRow(hJac, ho + i * nw, nx, nw)) kept[yo + i] = 0;
      }
    }
  }

  /**
   * Condenses every inequality row kept in the assembled matrix (adds Σᵢ J_h,iᵀJ_h,i to the
   * Hessian, drops the row from the stage's local rows); false when no row was kept. The fallback
   * of the factorization's `tooManyCarried`: kept rows that the stage's controls cannot eliminate
   * (state-only rows, and rank-deficient ones such as both sides of a two-sided bound kept at
   * once) are carried to the initial stage; condensed, they are part of the Hessian instead.
   */
  private condenseKeptRows(): boolean {
    const { kkt, hJac, kept, sigma } = this;
    const H = kkt.hess;
    let any = false;
    for (let k = 0; k <= this.N; k++) {
      if (this.keptCount[k] === 0) continue;
      any = true;
      const nw = this.nxA[k]! + this.nuA[k]!;
      const hw = nw + this.nyA[k]!;
      const hb = kkt.hessOffset[k]!;
      const ho = this.hjOff[k]!;
      const yo = this.hOff[k]!;
      for (let i = 0; i < this.nhA[k]!; i++) {
        if (kept[yo + i] === 0) continue;
        kept[yo + i] = 0;
        const si = sigma[yo + i]!;
        const r = ho + i * nw;
        for (let a = 0; a < nw; a++) {
          const va = si * hJac[r + a]!;
          if (va === 0) continue;
          for (let b = 0; b < nw; b++) H[hb + a * hw + b] = H[hb + a * hw + b]! + va * hJac[r + b]!;
        }
      }
      this.keptCount[k] = 0;
      kkt.localRows[k] = this.ngA[k]!;
    }
    return any;
  }

  /**
   * The KKT matrix at the current point: Σ = Z/S; inequality rows with Σᵢ > OCP_SLACK_CONDENSE_SIGMA
   * (strongly active) stay KKT rows with diagonal −1/Σᵢ, the others are condensed into the Hessian
   * as J_hᵀΣJ_h. Requires a level-2 evaluation (the Hessian buffer holds the Lagrangian Hessian).
   */
  private prepareMatrix(): void {
    const { kkt, s, z, sigma, hJac } = this;
    this.evaluatedAtPoint = false;
    for (let i = 0; i < this.nTotalH; i++) {
      const si = z[i]! / s[i]!;
      sigma[i] = si;
      this.kept[i] = si > OCP_SLACK_CONDENSE_SIGMA ? 1 : 0;
    }
    this.condensedStateOnly = this.carriedRowsExceeded();
    if (this.condensedStateOnly) this.condenseStateOnlyRows();
    for (let k = 0; k <= this.N; k++) {
      const ng = this.ngA[k]!;
      const nh = this.nhA[k]!;
      const nw = this.nxA[k]! + this.nuA[k]!;
      const go = kkt.gOffset[k]!;
      const gj = kkt.gJacOffset[k]!;
      const yo = this.hOff[k]!;
      const ho = this.hjOff[k]!;
      for (let i = 0; i < ng; i++) kkt.rowReg[go + i] = 0;
      let j = 0;
      for (let i = 0; i < nh; i++) {
        if (this.kept[yo + i] === 0) continue;
        this.keptMap[yo + j] = i;
        const row = gj + (ng + j) * nw;
        for (let a = 0; a < nw; a++) kkt.gJac[row + a] = hJac[ho + i * nw + a]!;
        kkt.rowReg[go + ng + j] = 1 / sigma[yo + i]!;
        j++;
      }
      this.keptCount[k] = j;
      kkt.localRows[k] = ng + j;
      this.addCondensedSlacks(k, sigma);
    }
  }

  /**
   * rhsW ← rhsWBase + J_hᵀ(rhsS − Σ·r) for the slack-row residual r (condensation of the slack
   * rows), then solves the factored system into the given step buffers and recovers (ds, dy, dz).
   */
  private solveStep(
    r: Float64Array,
    dw: Float64Array,
    dl: Float64Array,
    dm: Float64Array,
    ds: Float64Array,
    dy: Float64Array,
    dz: Float64Array,
    rhsC: Float64Array,
    gRes: Float64Array,
  ): void {
    const { kkt, rhsW, rhsWBase, rhsS, sigma, hJac, s, z, rhsG, dMuK, kept } = this;
    rhsW.set(rhsWBase);
    for (let k = 0; k <= this.N; k++) {
      const nh = this.nhA[k]!;
      const ng = this.ngA[k]!;
      const go = kkt.gOffset[k]!;
      const mo = this.gOffC[k]!;
      for (let i = 0; i < ng; i++) rhsG[go + i] = -gRes[mo + i]!;
      if (nh === 0) continue;
      const nw = this.nxA[k]! + this.nuA[k]!;
      const wo = kkt.wOffset[k]!;
      const ho = this.hjOff[k]!;
      const yo = this.hOff[k]!;
      let j = 0;
      for (let i = 0; i < nh; i++) {
        if (kept[yo + i] === 1) {
          // kept row: J_h,i dw − dy_i/Σ_i = −r_i + rhs_s,i/Σ_i
          rhsG[go + ng + j] = -r[yo + i]! + rhsS[yo + i]! / sigma[yo + i]!;
          j++;
          continue;
        }
        const t = rhsS[yo + i]! - sigma[yo + i]! * r[yo + i]!;
        if (t === 0) continue;
        for (let a = 0; a < nw; a++) rhsW[wo + a] = rhsW[wo + a]! + hJac[ho + i * nw + a]! * t;
      }
    }
    if (this.o.profile) {
      const t0 = performance.now();
      kkt.solve(rhsW, rhsC, rhsG, dw, dl, dMuK);
      this.linearAlgebraMs += performance.now() - t0;
    } else {
      kkt.solve(rhsW, rhsC, rhsG, dw, dl, dMuK);
    }
    this.jhTimes(dw, ds);
    const mub = this.barrier;
    for (let k = 0; k <= this.N; k++) {
      const ng = this.ngA[k]!;
      const go = kkt.gOffset[k]!;
      const mo = this.gOffC[k]!;
      for (let i = 0; i < ng; i++) dm[mo + i] = dMuK[go + i]!;
      const yo = this.hOff[k]!;
      const nh = this.nhA[k]!;
      let j = 0;
      for (let i = 0; i < nh; i++) {
        const t = yo + i;
        let dsi: number;
        if (kept[t] === 1) {
          const dyi = dMuK[go + ng + j]!;
          j++;
          dy[t] = dyi;
          dsi = (rhsS[t]! + dyi) / sigma[t]!;
        } else {
          dsi = ds[t]! + r[t]!;
          dy[t] = sigma[t]! * dsi - rhsS[t]!;
        }
        ds[t] = dsi;
        dz[t] = mub / s[t]! - z[t]! - sigma[t]! * dsi;
      }
    }
  }

  /**
   * Factors with inertia correction [WB Algorithm IC; IPOPT PDPerturbationHandler] and solves for
   * the search direction. 'ok', or the exit when no direction can be computed ('retry' means:
   * go to the restoration phase).
   */
  private computeSearchDirection(): 'ok' | 'retry' | CoreExit {
    const o = this.o;
    this.assembleSystem();
    const kkt = this.kkt;
    let dW = 0;
    let dC = 0;
    let triedCOnly = false;
    const t0 = this.o.profile ? performance.now() : 0;
    // δ_w and δ_c reach the refactorizations through kkt.shifts (doubles passed as arguments to
    // a call that is not inlined are heap-allocated)
    const shifts = kkt.shifts;
    // one call site for both cases: with `dynamicsCurrent ? kkt.refactor(0, 0) : kkt.factor(0, 0)`
    // the refactor site runs only at iteration 0, and when V8 optimized this method before that
    // site's first recorded run (the first solve runs it before the method has a feedback vector)
    // the next solve deoptimized it there; the method then ran unoptimized around its
    // on-stack-replaced loop below (V8 enters that code instead of re-optimizing the method),
    // boxing 48 B per iteration (bench/js/ocp.mjs, satellite, after a second solver instance)
    if (!this.dynamicsCurrent) kkt.invalidateDynamics();
    let status = kkt.refactor(0, 0);
    this.dynamicsCurrent = true;
    for (let guard = 0; status !== 'ok' && guard < 200; guard++) {
      if (status === 'singularDynamics') {
        this.failStage = kkt.failStage;
        this.message = `∂c_k/∂x_{k+1} is singular at stage ${kkt.failStage}: the step cannot be computed`;
        this.lastFactorStatus = status;
        return 'stepComputationFailed';
      }
      if (status === 'tooManyCarried' && this.condenseKeptRows()) {
        // kept rows the controls cannot absorb (e.g. both sides of a narrow two-sided bound kept
        // at a centred start, which the stage's control eliminates only once): condense them all
        shifts[0] = dW;
        shifts[1] = dC;
        status = kkt.refactorShifted();
        continue;
      }
      if (status === 'tooManyCarried') {
        this.message =
          'more equality rows must be carried between stages than OCP_MAX_CARRIED_CONSTRAINTS allows (equalities on the state alone, g(x) = 0, at many stages: state-only inequality rows are condensed instead, but equalities cannot be)';
        this.lastFactorStatus = status;
        return 'stepComputationFailed';
      }
      if (status === 'nonFinite') {
        this.message = 'NaN or ±∞ in the KKT matrix';
        this.lastFactorStatus = status;
        return 'invalidNumbers';
      }
      if (status === 'singular' && dC === 0 && !triedCOnly) {
        // IPOPT tries the Jacobian regularization alone first
        dC = o.jacobianRegularizationValue * this.barrier ** o.jacobianRegularizationExponent;
        triedCOnly = true;
      } else {
        if (dW === 0) {
          dW =
            this.deltaWLast === 0
              ? o.firstHessianPerturbation
              : Math.max(o.minHessianPerturbation, o.perturbDecFact * this.deltaWLast);
        } else {
          dW =
            this.deltaWLast === 0 || 1e5 * this.deltaWLast < dW
              ? o.perturbIncFactFirst * dW
              : o.perturbIncFact * dW;
        }
        if (dW > o.maxHessianPerturbation) {
          this.deltaWLast = 0;
          this.lastFactorStatus = status;
          this.deltaW = dW;
          this.message = 'the inertia correction exceeded max_hessian_perturbation';
          return 'retry';
        }
      }
      shifts[0] = dW;
      shifts[1] = dC;
      status = kkt.refactorShifted();
    }
    if (this.o.profile) this.linearAlgebraMs += performance.now() - t0;
    if (status !== 'ok') {
      this.lastFactorStatus = status;
      return 'retry';
    }
    this.lastFactorStatus = 'ok';
    this.deltaW = dW;
    this.deltaC = dC;
    if (dW > 0) this.deltaWLast = dW;
    this.solveStep(
      this.rHS,
      this.dw,
      this.dl,
      this.dm,
      this.ds,
      this.dy,
      this.dz,
      this.rhsC,
      this.g,
    );
    let dn = 0;
    for (let i = 0; i < this.dw.length; i++) dn = Math.max(dn, Math.abs(this.dw[i]!));
    for (let i = 0; i < this.ds.length; i++) dn = Math.max(dn, Math.abs(this.ds[i]!));
    this.dNorm = dn;
    return 'ok';
  }

  /** ftb ← the largest α ∈ (0, 1] with v + α dv ≥ (1 − τ) v [WB (15)]. */
  private fractionToBoundary(v: Float64Array, dv: Float64Array): void {
    // without inequalities no double is read: this method, called twice per iteration, then
    // never becomes hot, and each double it read unoptimized would be a heap allocation
    if (v.length === 0) {
      this.ftb = 1;
      return;
    }
    let a = 1;
    const t = this.tau;
    for (let i = 0; i < v.length; i++) {
      const d = dv[i]!;
      if (d < 0) {
        const r = (-t * v[i]!) / d;
        if (r < a) a = r;
      }
    }
    this.ftb = a;
  }

  /** Sets the trial primal point w ⊕ α dw, s + α ds (α = alphaTrial) and evaluates it at level 0. */
  private setTrial(dw: Float64Array, ds: Float64Array): boolean {
    const { N, kkt, stepScaled } = this;
    const alpha = this.alphaTrial;
    for (let k = 0; k <= N; k++) {
      const nx = this.nxA[k]!;
      const nu = this.nuA[k]!;
      const wo = kkt.wOffset[k]!;
      const to = this.txOff[k]!;
      for (let i = 0; i < nx; i++) stepScaled[to + i] = alpha * dw[wo + i]!;
      this.problem.retract(k, this.xTV[k]!, this.xV[k]!, this.stepV[k]!);
      const uo = this.uOff[k]!;
      for (let i = 0; i < nu; i++) this.uT[uo + i] = this.u[uo + i]! + alpha * dw[wo + nx + i]!;
    }
    for (let i = 0; i < this.nTotalH; i++) this.sT[i] = this.s[i]! + alpha * ds[i]!;
    return this.evaluate(0, true);
  }

  /** Compare_le of IPOPT: lhs ≤ rhs up to 10ε·|basval|. */
  private static le(lhs: number, rhs: number, basval: number): boolean {
    return lhs - rhs <= 10 * Number.EPSILON * Math.abs(basval);
  }

  // line-search reference values
  private refTheta = 0;
  private refBarr = 0;
  private refGradBarrTDelta = 0;

  /** Sufficient decrease with respect to the current iterate [WB (18)] and IPOPT's obj_max_inc. */
  acceptableToCurrentIterate(fromResto: boolean): boolean {
    const o = this.o;
    const trialBarr = this.testBarr;
    const trialTheta = this.testTheta;
    if (!fromResto && trialBarr > this.refBarr) {
      const basval = Math.abs(this.refBarr) > 10 ? Math.log10(Math.abs(this.refBarr)) : 1;
      if (Math.log10(trialBarr - this.refBarr) > o.objMaxInc + basval) return false;
    }
    return (
      IpmCore.le(trialTheta, (1 - o.gammaTheta) * this.refTheta, this.refTheta) ||
      IpmCore.le(trialBarr - this.refBarr, -o.gammaPhi * this.refTheta, this.refBarr)
    );
  }

  /** Acceptable to the filter: for every entry, θ ≤ θ_l or φ ≤ φ_l (IPOPT's FilterEntry). */
  acceptableToFilter(): boolean {
    const trialBarr = this.testBarr;
    const trialTheta = this.testTheta;
    for (let i = 0; i < this.filterCount; i++) {
      if (!(trialTheta <= this.filterTheta[i]! || trialBarr <= this.filterPhi[i]!)) return false;
    }
    return true;
  }

  /** Adds ((1 − γ_θ)θ, φ − γ_φθ) to the filter, dropping the entries it dominates. */
  augmentFilter(): void {
    const o = this.o;
    const theta = this.refTheta;
    const barr = this.refBarr;
    const th = (1 - o.gammaTheta) * theta;
    const ph = barr - o.gammaPhi * theta;
    let j = 0;
    for (let i = 0; i < this.filterCount; i++) {
      const ti = this.filterTheta[i]!;
      const pi = this.filterPhi[i]!;
      if (th <= ti && ph <= pi) continue; // dominated by the new entry
      this.filterTheta[j] = ti;
      this.filterPhi[j] = pi;
      j++;
    }
    if (j >= this.filterTheta.length) {
      // keep the newest entries (the capacity exceeds the iteration budget, so this is a guard)
      this.filterTheta.copyWithin(0, 1);
      this.filterPhi.copyWithin(0, 1);
      j--;
    }
    this.filterTheta[j] = th;
    this.filterPhi[j] = ph;
    this.filterCount = j + 1;
  }

  /**
   * [WB] plus IPOPT's θ_max test and filter-reset heuristic. θ and φ_μ of the trial
   * point are computed here, as thetaInto(true) and barrierInto(true) do, rather than by calls:
   * with these loops in its body this method is optimized within the first solve, and its scalar
   * tests (and the small methods it calls, inlined) with it; called a few times per iteration
   * without them, it would stay unoptimized, allocating every double it touches.
   */
  private checkAcceptability(): boolean {
    const o = this.o;
    const { cT, gT, hT, sT } = this;
    let t = 0;
    for (let i = 0; i < cT.length; i++) t += Math.abs(cT[i]!);
    for (let i = 0; i < gT.length; i++) t += Math.abs(gT[i]!);
    for (let i = 0; i < hT.length; i++) t += Math.abs(hT[i]! - sT[i]!);
    this.testTheta = t;
    if (this.thetaMax > 0 && t > this.thetaMax) return false;
    let lg = 0;
    let sum = 0;
    for (let i = 0; i < sT.length; i++) {
      lg += Math.log(sT[i]!);
      sum += sT[i]!;
    }
    const barr = this.fTrial - this.barrier * lg + o.kappaD * this.barrier * sum;
    this.testBarr = barr;
    if (!(barr - barr === 0)) return false;
    // The tests below are the switching condition [WB (19)], the Armijo condition [WB (20)],
    // acceptableToCurrentIterate(false) and acceptableToFilter written out (same expressions, same order): TurboFan compiles this method
    // during its first calls, from its loops, and did not inline those calls, which then ran
    // unoptimized. IpmCore.le(l, r, b) is l − r ≤ 10ε|b|.
    const eps10 = 10 * Number.EPSILON;
    const refTheta = this.refTheta;
    const refBarr = this.refBarr;
    const alphaTest = this.alphaTest;
    let accept: boolean;
    let ftype = false;
    if (alphaTest > 0) {
      let g = this.refGradBarrTDelta;
      if (refTheta === 0 && g > 0 && g < 100 * Number.EPSILON) {
        g = -Number.EPSILON;
        this.refGradBarrTDelta = g;
      }
      ftype = g < 0 && alphaTest * (-g) ** o.sPhi > o.delta * refTheta ** o.sTheta;
    }
    if (ftype && refTheta <= this.thetaMin) {
      // Armijo [WB (20)]
      accept =
        barr - refBarr - o.etaPhi * alphaTest * this.refGradBarrTDelta <= eps10 * Math.abs(refBarr);
    } else {
      // sufficient decrease [WB (18)] and obj_max_inc
      accept = true;
      if (barr > refBarr) {
        const basval = Math.abs(refBarr) > 10 ? Math.log10(Math.abs(refBarr)) : 1;
        if (Math.log10(barr - refBarr) > o.objMaxInc + basval) accept = false;
      }
      accept &&=
        t - (1 - o.gammaTheta) * refTheta <= eps10 * Math.abs(refTheta) ||
        barr - refBarr - -o.gammaPhi * refTheta <= eps10 * Math.abs(refBarr);
    }
    if (!accept) {
      this.lastRejectionByFilter = false;
      return false;
    }
    // the filter
    const fTheta = this.filterTheta;
    const fPhi = this.filterPhi;
    for (let i = 0; i < this.filterCount; i++) {
      if (!(t <= fTheta[i]! || barr <= fPhi[i]!)) {
        this.lastRejectionByFilter = true;
        return false;
      }
    }
    if (o.maxFilterResets > 0 && this.filterResets < o.maxFilterResets) {
      if (this.lastRejectionByFilter) {
        this.successiveFilterRejections++;
        if (this.successiveFilterRejections >= o.filterResetTrigger) {
          this.resetFilter();
          this.filterResets++;
        }
      } else {
        this.successiveFilterRejections = 0;
      }
    }
    this.lastRejectionByFilter = false;
    return true;
  }

  /**
   * relStep ← max over the primal unknowns of |dᵢ|/(1 + |wᵢ|) (states: relative to their storage's
   * ∞-norm), and relStepTiny ← the first test of {@link detectTinyStep}, relStep ≤ tiny_step_tol.
   */
  private relativeStepSize(dw: Float64Array, ds: Float64Array): void {
    const { kkt, s } = this;
    let m = 0;
    for (let k = 0; k <= this.N; k++) {
      const nx = this.nxA[k]!;
      const nu = this.nuA[k]!;
      const wo = kkt.wOffset[k]!;
      let xs = 0;
      for (let i = this.xsOff[k]!; i < this.xsOff[k + 1]!; i++)
        xs = Math.max(xs, Math.abs(this.x[i]!));
      for (let i = 0; i < nx; i++) m = Math.max(m, Math.abs(dw[wo + i]!) / (1 + xs));
      const uo = this.uOff[k]!;
      for (let i = 0; i < nu; i++)
        m = Math.max(m, Math.abs(dw[wo + nx + i]!) / (1 + Math.abs(this.u[uo + i]!)));
    }
    for (let i = 0; i < this.nTotalH; i++)
      m = Math.max(m, Math.abs(ds[i]!) / (1 + Math.abs(s[i]!)));
    this.relStep = m;
    const tol = this.o.tinyStepTol;
    this.relStepTiny = !(tol === 0 || m > tol);
  }

  /** Whether relStep ≤ tiny_step_tol (set by relativeStepSize). */
  private relStepTiny = false;

  /** IPOPT's DetectTinyStep: every |dᵢ| ≤ tol·(1 + |wᵢ|) and the violation is small. */
  private detectTinyStep(): boolean {
    if (!this.relStepTiny) return false;
    this.thetaInto(false);
    return this.mTheta <= 1e-4;
  }

  /**
   * Backtracking filter line search [WB A-5] with second-order corrections; on success the trial
   * point and the multipliers are accepted.
   */
  private lineSearch(): boolean {
    const o = this.o;
    this.thetaInto(false);
    this.refTheta = this.mTheta;
    this.barrierInto(false);
    this.refBarr = this.mBarr;
    const { dw, ds, costGrad, s } = this;
    let gd = 0;
    for (let i = 0; i < dw.length; i++) gd += costGrad[i]! * dw[i]!;
    const mub = this.barrier;
    const kd = o.kappaD * mub;
    for (let i = 0; i < this.nTotalH; i++) gd += (-mub / s[i]! + kd) * ds[i]!;
    this.refGradBarrTDelta = gd;
    this.fractionToBoundary(s, ds);
    const alphaMax = this.ftb;
    this.relativeStepSize(dw, ds);
    // tiny steps are taken unchecked
    this.alphaTrial = alphaMax;
    if (this.detectTinyStep() && this.setTrial(dw, ds)) {
      let dyMax = 0;
      for (let i = 0; i < this.dl.length; i++) dyMax = Math.max(dyMax, Math.abs(this.dl[i]!));
      for (let i = 0; i < this.dm.length; i++) dyMax = Math.max(dyMax, Math.abs(this.dm[i]!));
      for (let i = 0; i < this.dy.length; i++) dyMax = Math.max(dyMax, Math.abs(this.dy[i]!));
      if (this.tinyStepLast) this.tinyStepFlag = true;
      this.tinyStepLast = dyMax < o.tinyStepYTol;
      this.lsTrials = 1;
      this.alphaStep = alphaMax;
      this.alphaTest = alphaMax;
      this.acceptStep();
      return true;
    }
    this.tinyStepLast = false;
    // α_min [WB (23)]
    let amin = o.gammaTheta;
    const th = this.refTheta;
    if (gd < 0) {
      amin = Math.min(o.gammaTheta, (o.gammaPhi * th) / -gd);
      if (th <= this.thetaMin) amin = Math.min(amin, (o.delta * th ** o.sTheta) / (-gd) ** o.sPhi);
    }
    amin *= o.alphaMinFrac;
    let alpha = alphaMax;
    let nSteps = 0;
    let accepted = false;
    let soc = false;
    // backtrack down to α_min, but not to steps that no longer change the iterate (10ε relative):
    // there the acceptance tests would compare the current point with itself
    const floor = 10 * Number.EPSILON;
    while ((alpha > amin || nSteps === 0) && alpha * this.relStep > floor) {
      this.alphaTrial = alpha;
      this.alphaTest = alpha;
      const ok = this.setTrial(dw, ds);
      if (ok && this.checkAcceptability()) {
        accepted = true;
        break;
      }
      if (ok && alpha === alphaMax && o.maxSoc > 0) {
        this.thetaInto(true);
        if (this.refTheta <= this.mTheta && this.trySecondOrderCorrection()) {
          accepted = true;
          soc = true;
          break;
        }
      }
      alpha *= o.alphaRedFactor;
      nSteps++;
    }
    this.lsTrials = nSteps + 1;
    if (!accepted) return false;
    this.alphaStep = soc ? this.alphaSoc : alpha;
    this.alphaTest = alpha;
    this.acceptStep();
    return true;
  }

  /** The primal step length of the accepted step (α, or α_soc for a corrected step). */
  private alphaStep = 0.5;

  private alphaSoc = 0;

  /**
   * Second-order corrections [WB ]: c_soc ← α c_soc + c(x_trial), solve with the same
   * matrix, test x + α_soc d_soc with the original step size in the acceptance tests.
   */
  private trySecondOrderCorrection(): boolean {
    const o = this.o;
    const { cSoc, gSoc, hsSoc } = this;
    cSoc.set(this.c);
    gSoc.set(this.g);
    for (let i = 0; i < this.nTotalH; i++) hsSoc[i] = this.h[i]! - this.s[i]!;
    let alphaSoc = this.alphaTest;
    let thetaOld = 0;
    this.thetaInto(true);
    let thetaTrial = this.mTheta;
    for (let count = 0; count < o.maxSoc; count++) {
      if (count > 0 && !(thetaTrial <= o.kappaSoc * thetaOld)) return false;
      thetaOld = thetaTrial;
      for (let i = 0; i < cSoc.length; i++) cSoc[i] = alphaSoc * cSoc[i]! + this.cT[i]!;
      for (let i = 0; i < gSoc.length; i++) gSoc[i] = alphaSoc * gSoc[i]! + this.gT[i]!;
      for (let i = 0; i < this.nTotalH; i++)
        hsSoc[i] = alphaSoc * hsSoc[i]! + this.hT[i]! - this.sT[i]!;
      // rhs for the constraint rows: −c_soc
      for (let i = 0; i < cSoc.length; i++) this.rhsC[i] = -cSoc[i]!;
      this.solveStep(
        hsSoc,
        this.dwS,
        this.dlS,
        this.dmS,
        this.dsS,
        this.dyS,
        this.dzS,
        this.rhsC,
        gSoc,
      );
      this.fractionToBoundary(this.s, this.dsS);
      alphaSoc = this.ftb;
      this.alphaTrial = alphaSoc;
      if (!this.setTrial(this.dwS, this.dsS)) return false;
      if (this.checkAcceptability()) {
        this.alphaSoc = alphaSoc;
        // the accepted direction is the corrected one
        this.dw.set(this.dwS);
        this.dl.set(this.dlS);
        this.dm.set(this.dmS);
        this.ds.set(this.dsS);
        this.dy.set(this.dyS);
        this.dz.set(this.dzS);
        return true;
      }
      this.thetaInto(true);
      thetaTrial = this.mTheta;
    }
    return false;
  }

  /**
   * Accepts the trial point: filter update [WB A-7] (when the step was not an f-type step with
   * Armijo decrease), primal variables, multipliers with α (λ, μ, y) and α_z (z) [WB (14)], and
   * the κ_Σ safeguard [WB (16)].
   */
  private acceptStep(): void {
    const o = this.o;
    const alpha = this.alphaStep;
    this.barrierInto(true);
    const barr = this.mBarr;
    this.testBarr = barr;
    // The switching condition [WB (19)], the Armijo condition [WB (20)] and augmentFilter written
    // out (same expressions, same order), as in checkAcceptability: this method is optimized early
    // (its loops are O(N)), but then the small methods it called once per iteration had no type
    // feedback yet and were not inlined; they ran unoptimized for hundreds of solves, boxing every
    // double (~300 B per iteration).
    const refTheta = this.refTheta;
    const refBarr = this.refBarr;
    const alphaTest = this.alphaTest;
    let g = this.refGradBarrTDelta;
    if (refTheta === 0 && g > 0 && g < 100 * Number.EPSILON) {
      g = -Number.EPSILON;
      this.refGradBarrTDelta = g;
    }
    const ftype = g < 0 && alphaTest * (-g) ** o.sPhi > o.delta * refTheta ** o.sTheta;
    // Armijo [WB (20)]: IpmCore.le(φ − φ_ref, η_φ α ∇φᵀd, φ_ref)
    const armijo =
      ftype && barr - refBarr - o.etaPhi * alphaTest * g <= 10 * Number.EPSILON * Math.abs(refBarr);
    if (!armijo) {
      // augmentFilter: add ((1 − γ_θ)θ, φ − γ_φθ), dropping the entries it dominates
      const th = (1 - o.gammaTheta) * refTheta;
      const ph = refBarr - o.gammaPhi * refTheta;
      const fTheta = this.filterTheta;
      const fPhi = this.filterPhi;
      let j = 0;
      for (let i = 0; i < this.filterCount; i++) {
        const ti = fTheta[i]!;
        const pi = fPhi[i]!;
        if (th <= ti && ph <= pi) continue;
        fTheta[j] = ti;
        fPhi[j] = pi;
        j++;
      }
      if (j >= fTheta.length) {
        fTheta.copyWithin(0, 1);
        fPhi.copyWithin(0, 1);
        j--;
      }
      fTheta[j] = th;
      fPhi[j] = ph;
      this.filterCount = j + 1;
    }
    this.x.set(this.xT);
    this.u.set(this.uT);
    this.s.set(this.sT);
    this.fractionToBoundary(this.z, this.dz);
    const az = this.ftb;
    const { lam, mu, y, z, dl, dm, dy, dz, s } = this;
    for (let i = 0; i < lam.length; i++) lam[i] = lam[i]! + alpha * dl[i]!;
    for (let i = 0; i < mu.length; i++) mu[i] = mu[i]! + alpha * dm[i]!;
    for (let i = 0; i < y.length; i++) y[i] = y[i]! + alpha * dy[i]!;
    const mub = this.barrier;
    const ks = o.kappaSigma;
    for (let i = 0; i < z.length; i++) {
      const zi = z[i]! + az * dz[i]!;
      const si = s[i]!;
      z[i] = Math.max(Math.min(zi, (ks * mub) / si), mub / (ks * si));
    }
    this.alphaPr = alpha;
    this.alphaDu = az;
  }

  /** Line search failed: IPOPT's checks, then the restoration phase [WB A-9]. */
  private enterRestoration(): 'success' | CoreExit {
    if (this.role === 'restoration') {
      this.message = 'the line search failed in the restoration phase';
      return 'lineSearchFailed';
    }
    if (this.isAcceptable()) {
      this.message = 'the restoration phase was called at an acceptable point';
      return 'acceptable';
    }
    this.thetaInto(false);
    const th = this.mTheta;
    this.primalInfMaxInto();
    if (this.mPrimalInf <= 1e-2 * this.o.tol) {
      this.message = `the restoration phase was called at an almost feasible point (violation ${th.toExponential(2)})`;
      return 'restorationFailed';
    }
    if (this.restoration === null) {
      this.message = 'the line search failed and no restoration phase is available';
      return 'restorationFailed';
    }
    this.refTheta = th;
    this.barrierInto(false);
    this.refBarr = this.mBarr;
    this.augmentFilter();
    const r = this.restoration.restore(this);
    if (r !== 'success') {
      // report the point the restoration phase ended at
      this.evaluate(2, false);
      return r;
    }
    this.resetAfterRestoration();
    if (!this.evaluate(2, false)) {
      this.message =
        'the problem cannot be evaluated at the point returned by the restoration phase';
      return 'invalidNumbers';
    }
    return 'success';
  }

  /** State after a successful restoration: the caller has set x, u, s, z; λ = μ = y = 0. */
  private resetAfterRestoration(): void {
    this.lam.fill(0);
    this.mu.fill(0);
    this.y.fill(0);
    this.tinyStepLast = false;
    this.deltaW = 0;
  }

  /**
   * The iteration line of the current point, its `objective` left to the caller (a double
   * argument would be boxed when the call is not inlined).
   */
  fillInfo(restoration: boolean): OcpIterationInfo {
    const info = this.info;
    info.iteration = this.iterBase + this.iter;
    info.restoration = restoration;
    info.infPr = this.unscaledPrimalInf;
    info.infDu = this.dualInf;
    info.mu = this.barrier;
    info.dNorm = this.iter === 0 ? 0 : this.dNorm;
    info.deltaW = this.iter === 0 ? 0 : this.deltaW;
    info.alphaDu = this.iter === 0 ? 0 : this.alphaDu;
    info.alphaPr = this.iter === 0 ? 0 : this.alphaPr;
    info.lsTrials = this.iter === 0 ? 0 : this.lsTrials;
    return info;
  }

  /** max |entry| of the Hessian and the Jacobians of c, g and h (the verdict's scale). */
  private largestMatrixEntry(): number {
    const { hess, cJac, gJac } = this.kkt;
    const hJac = this.hJac;
    let scale = 0;
    for (let i = 0; i < hess.length; i++) scale = Math.max(scale, Math.abs(hess[i]!));
    for (let i = 0; i < cJac.length; i++) scale = Math.max(scale, Math.abs(cJac[i]!));
    for (let i = 0; i < gJac.length; i++) scale = Math.max(scale, Math.abs(gJac[i]!));
    for (let i = 0; i < hJac.length; i++) scale = Math.max(scale, Math.abs(hJac[i]!));
    return scale;
  }

  /**
   * The second-order test at the current point, with the current Σ (fixing strongly active
   * inequalities): is the reduced Hessian (the Lagrangian Hessian on the null space of the
   * constraint Jacobian) positive definite with a margin? With ε = `margin`·scale (scale: the largest
   * entry of the Lagrangian Hessian and of the constraint Jacobians, not Σ), the KKT matrix is
   * factored with the primal shifts −ε and +ε, whose inertia counts are exact (Haynsworth; they do
   * not depend on any pivot being large, only on none being zero):
   * - correct inertia with −ε: every reduced curvature exceeds ε → 'ok' (a strict minimum);
   * - wrong inertia with +ε: a curvature below −ε → 'wrongInertia' (a saddle or maximum);
   * - correct with +ε but not with −ε: a curvature in [−ε, ε] → 'singular' (a flat direction,
   *   e.g. a continuous symmetry).
   * When a shifted matrix is singular (dependent active constraints, as at a degenerate vertex of
   * a linear program), the test is repeated with the dual regularization δ = `dualReg`·scale on
   * the constraint rows: by Finsler's lemma W + JᵀJ/δ has the inertia of W on null(J) for small δ.
   * For 'wrongInertia' and 'singular' the KKT matrix is then factored once more without shift for
   * the reported inertia (left in `kkt.inertia`). For 'ok' it is not: the unshifted matrix is the
   * −ε one plus ε·diag(I, 0), so by the null-space argument above (the reduced Hessian
   * Zᵀ(W − εI)Z ≻ 0 implies ZᵀWZ ≻ 0, with the same Jacobian) it has the same inertia (n, m, 0),
   * which `kkt.inertia` already holds.
   *
   * The level-2 evaluation at the current point is redone only when the buffers no longer hold
   * it (after a line-search or restoration failure the Hessian buffer holds an assembled matrix);
   * when the run stopped at the top of an iteration they still do, and the result is the same.
   */
  factorForVerdict(margin: number, dualReg: number): KktFactorStatus {
    // the Hessian buffer holds the raw Hessian of the final evaluation, or, after an exit in the
    // middle of an iteration, the condensed matrix of the last step: then rebuild it
    if (!this.evaluatedAtPoint && !this.evaluate(2, false)) return 'nonFinite';
    const kkt = this.kkt;
    // the O(N) loops live in methods of their own: this one runs once per solve, and V8 has been
    // seen to deoptimize it on every call (an eager deopt at the re-evaluation above, repeated
    // with the same optimized code), running whatever loop it holds in the interpreter
    const scale = this.largestMatrixEntry();
    this.prepareMatrix();
    const eps = margin * scale;
    let verdict: KktFactorStatus = 'singular';
    let dC = 0;
    let fresh = true;
    for (const dc of [0, dualReg * scale]) {
      dC = dc;
      // the first factorization after the evaluation; the others reuse its dynamics factors
      let minus = fresh && !this.dynamicsCurrent ? kkt.factor(-eps, dc) : kkt.refactor(-eps, dc);
      fresh = false;
      this.dynamicsCurrent = true;
      if (minus === 'tooManyCarried' && this.condenseKeptRows()) minus = kkt.refactor(-eps, dc);
      if (minus === 'ok') {
        verdict = 'ok';
        break;
      }
      if (minus === 'nonFinite' || minus === 'singularDynamics' || minus === 'tooManyCarried') {
        return minus;
      }
      const plus = kkt.refactor(eps, dc);
      if (plus === 'wrongInertia') {
        verdict = 'wrongInertia';
        break;
      }
      if (plus === 'ok') {
        verdict = 'singular';
        break;
      }
    }
    if (verdict !== 'ok') kkt.refactor(0, dC);
    return verdict;
  }
}
