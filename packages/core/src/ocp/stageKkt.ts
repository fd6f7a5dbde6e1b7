/**
 * The stage-wise factorization of the KKT system of a discrete optimal-control problem: a
 * generalized Riccati recursion (backward sweep) that is O(N) in the number of stages, reports the
 * inertia of the whole KKT matrix exactly (Sylvester/Haynsworth) and never forms a dense or a
 * general sparse matrix.
 *
 * ## The system
 *
 * Stages k = 0..N with tangent state dimension n_x,k, controls n_u,k and equality rows n_g,k; the
 * dynamics rows of stage k < N number n_y,k = n_x,k+1. Primal unknowns per stage w_k = (Δx_k, Δu_k).
 * With W the Hessian (block diagonal over stages except for the cross blocks of the dynamics
 * multipliers' Hessian, which couple w_k with Δx_{k+1}), the system is
 *
 *     [ W + δ_w I   J_cᵀ   J_gᵀ   ] [Δw]   [r_w]
 *     [ J_c         0      0      ] [Δλ] = [r_c]        J_c row block k: [A_k  B_k  E_k] over (Δx_k, Δu_k, Δx_{k+1})
 *     [ J_g         0     −δ_c I  ] [Δμ]   [r_g]        J_g row block k: G_k over (Δx_k, Δu_k)
 *
 * with E_k = ∂c_k/∂x_{k+1} invertible. The caller fills, per stage k, the Hessian block over
 * (Δx_k, Δu_k, Δx_{k+1}) (`hess`, (n_w + n_y)² row-major, symmetric; the Δx_{k+1}Δx_{k+1} part is
 * added to stage k+1's Δx block), `cJac` (n_y × (n_w + n_y)) and `gJac` (n_g × n_w). The dual
 * regularization δ_c applies to the rows of g only: the dynamics rows always have full row rank
 * (E_k is invertible), so they never need it (IPOPT regularizes all constraint rows; the
 * difference only matters for the size of the perturbation, not for the inertia it restores).
 *
 * ## The recursion
 *
 * Backward over k = N..0 (the sweep of Bryson & Ho, Applied Optimal Control §2.7 and §3.9, for
 * terminal constraints, generalized to stage constraints): the tail k+1..N is summarized by a
 * quadratic in (Δx_{k+1}, ν), ν the multipliers of q_{k+1} equality rows the tail could not
 * eliminate ("carried" rows):
 *
 *     tail gradient at Δx_{k+1}:  P y + F ν + p,        carried rows:  Fᵀ y + S ν + h = 0.
 *
 * Stage k eliminates Δx_{k+1} and Δλ_k through the dynamics (y = Â w + b̂, Â = −E⁻¹[A B],
 * b̂ = E⁻¹r_c, a pivot pair of inertia (n_y, n_y)), forms the stage Hessian
 * M = W_ww + W_wy Â + ÂᵀW_yw + ÂᵀPÂ + δ_w I, splits its own rows G_k by QR with column pivoting of
 * ∂g/∂u into ρ rows the controls eliminate and n_g − ρ rows that join the carried set, and
 * eliminates (Δu_k, Δμ_k,1) with the symmetric indefinite block
 *
 *     B_k = [ M_uu   G₁ᵀ   ]
 *           [ G₁    −δ_c I ]        (Bunch–Kaufman LDLᵀ, expected inertia (n_u, ρ, 0)),
 *
 * whose Schur complement gives the stage's (P, F, S, p, h). The carried rows are never eliminated
 * by later controls (which would be a dead-beat elimination with gains ~ 1/hʳ for constraints of
 * relative degree r): they are solved for at the end, together with Δx_0, from the final block
 * [[P_0, F_0], [F_0ᵀ, S_0]] (expected inertia (n_x,0, q_0, 0)). A forward pass recovers Δu, Δμ,
 * Δx_{k+1} and Δλ_k = −E_k⁻ᵀ(W_yw w_k + P_{k+1}Δx_{k+1} + F_{k+1}ν + p_{k+1}).
 *
 * Every pivot block is a principal Schur complement, so by Sylvester's law and Haynsworth's
 * inertia additivity the inertia of the KKT matrix is the sum of the pivots' inertias (each
 * dynamics pair contributes (n_y, n_y)); the matrix has the inertia (n, m, 0) that makes the step a
 * descent direction (n primal unknowns, m equality rows) exactly when the constraint Jacobian has
 * full row rank and the reduced Hessian on its null space is positive definite. The individual
 * blocks need not have "their" share: a control direction of negative curvature in B_k may be
 * fixed by a carried constraint, whose final-block pivot then has one negative eigenvalue less, so
 * only the total is tested. The backward order is essential: a forward recursion meets singular
 * blocks whenever a stage cost does not depend on the state.
 *
 * Generality: any stage dimensions (n_u = 0 and n_g up to and beyond n_x at any stage), cross-stage
 * Hessian blocks, indefinite W; the limits are {@link OCP_MAX_CARRIED_CONSTRAINTS} carried rows at
 * one stage (boundary conditions carry ≤ 2 n_x), and a pivot block B_k that is exactly singular
 * although the whole matrix is not (a control without curvature, M_uu = 0 in some direction, that
 * only a carried constraint determines): the recursion then reports `singular`, and the
 * interior-point method regularizes (δ_w) as for a singular matrix. The cost per stage is
 * O((n_x + n_u)³ + q·n_x·n_w).
 *
 * @module
 */
import {
  OCP_DYNAMICS_SINGULAR_RTOL,
  OCP_LOCAL_RANK_RTOL,
  OCP_MAX_CARRIED_CONSTRAINTS,
  OCP_PIVOT_ZERO_RTOL,
} from '../constants.js';
import { DimensionError } from '../errors.js';
import { luFactorInPlace, luSolveInPlace, luSolveTransposeInPlace } from '../linalg/lu.js';
import { qrColumnPivotInPlace } from './householder.js';
import {
  bunchKaufmanFactorInPlace,
  bunchKaufmanSolveInPlace,
  bunchKaufmanSolveManyInPlace,
} from './ldlt.js';

/** Dimensions of one stage of a {@link StageKktSystem}. */
export interface KktStageDims {
  /** Tangent dimension of the state Δx_k (≥ 1). */
  readonly nx: number;
  /** Number of controls Δu_k (≥ 0). */
  readonly nu: number;
  /**
   * Capacity of stage k's local equality rows (≥ 0): the rows of g_k and, in the interior-point
   * method, the inequality rows kept as rows. The rows in use are set in
   * {@link StageKktSystem.localRows} (default: all).
   */
  readonly ng: number;
}

/**
 * Outcome of {@link StageKktSystem.factor}:
 * - `ok`: the matrix has inertia (n, m, 0);
 * - `wrongInertia`: it has more than m negative eigenvalues (W is not positive definite on the
 *   constraints' null space);
 * - `singular`: a zero pivot (dependent constraints or a singular reduced Hessian);
 * - `singularDynamics`: some E_k = ∂c_k/∂x_{k+1} is singular (see `failStage`);
 * - `tooManyCarried`: more than {@link OCP_MAX_CARRIED_CONSTRAINTS} carried rows;
 * - `nonFinite`: the data contain NaN or ±∞.
 */
export type KktFactorStatus =
  | 'ok'
  | 'wrongInertia'
  | 'singular'
  | 'singularDynamics'
  | 'tooManyCarried'
  | 'nonFinite';

/** Most stages a {@link StageKktSystem} accepts (N + 1 ≤ this). */
export const OCP_MAX_STAGES = 10_000_000;

/** Largest stage dimension (n_x, n_u or n_g) a {@link StageKktSystem} accepts. */
export const OCP_MAX_STAGE_DIM = 1000;

/**
 * What a {@link StageKktSystem} allocates at construction for given stage dimensions (see
 * {@link StageKktSystem.bufferSizes}): typed-array elements of each kind and their bytes.
 */
export interface StageKktBufferSizes {
  /** Float64Array elements (data, factors, scratch and the carried-row buffers). */
  readonly float64: number;
  /** Int32Array elements (dimensions, offsets, pivots). */
  readonly int32: number;
  /** 8·float64 + 4·int32: the bytes of every buffer the constructor allocates. */
  readonly bytes: number;
  /** Initial capacity of carried rows (the carried-row buffers grow at most to OCP_MAX_CARRIED_CONSTRAINTS). */
  readonly carriedCapacity: number;
}

/** Per-kind totals of the buffers of a {@link StageKktSystem} (one pass over the stage dims). */
interface KktLayout {
  count: number;
  /** Σ n_g, Σ (n_w + n_y)², Σ n_y(n_w + n_y), Σ n_g·n_w, Σ n_y², Σ n_y, Σ n_y·n_w. */
  ngSum: number;
  hess: number;
  cJac: number;
  gJac: number;
  eLu: number;
  ny: number;
  ahat: number;
  /** Σ min(n_g, n_u), Σ n_u, Σ n_b, Σ n_b², Σ n_x², Σ n_x (n_b = n_u + min(n_g, n_u)). */
  tau: number;
  nu: number;
  nb: number;
  nb2: number;
  nx2: number;
  nx: number;
  /** Σ n_x·n_b. */
  nxnb: number;
  maxNw: number;
  maxNx: number;
  maxNy: number;
  maxNg: number;
  maxNb: number;
  /** Initial carried capacity. */
  qCap: number;
}

/** The sizes the constructor allocates, from the stage dimensions alone (no allocation). */
function kktLayout(dims: readonly KktStageDims[]): KktLayout {
  const count = dims.length;
  const L: KktLayout = {
    count,
    ngSum: 0,
    hess: 0,
    cJac: 0,
    gJac: 0,
    eLu: 0,
    ny: 0,
    ahat: 0,
    tau: 0,
    nu: 0,
    nb: 0,
    nb2: 0,
    nx2: 0,
    nx: 0,
    nxnb: 0,
    maxNw: 0,
    maxNx: 0,
    maxNy: 0,
    maxNg: 0,
    maxNb: 0,
    qCap: 0,
  };
  let lower = 0;
  let tail = 0;
  for (let k = count - 1; k >= 0; k--) {
    const { nx, nu, ng } = dims[k]!;
    const ny = k < count - 1 ? dims[k + 1]!.nx : 0;
    const nw = nx + nu;
    const nb = nu + Math.min(ng, nu);
    L.ngSum += ng;
    L.hess += (nw + ny) ** 2;
    L.cJac += ny * (nw + ny);
    L.gJac += ng * nw;
    L.eLu += ny * ny;
    L.ny += ny;
    L.ahat += ny * nw;
    L.tau += Math.min(ng, nu);
    L.nu += nu;
    L.nb += nb;
    L.nb2 += nb * nb;
    L.nx2 += nx * nx;
    L.nx += nx;
    L.nxnb += nx * nb;
    L.maxNw = Math.max(L.maxNw, nw);
    L.maxNx = Math.max(L.maxNx, nx);
    L.maxNy = Math.max(L.maxNy, ny);
    L.maxNg = Math.max(L.maxNg, ng);
    L.maxNb = Math.max(L.maxNb, nb);
    // carried rows that no control can eliminate, for dimension reasons alone
    tail += Math.max(0, ng - nu);
    lower = Math.max(lower, tail);
  }
  L.qCap = Math.min(OCP_MAX_CARRIED_CONSTRAINTS, lower + L.maxNx);
  return L;
}

/** Float64 and Int32 elements of the buffers that depend on the carried capacity qCap. */
function carriedElements(L: KktLayout, nx0: number, qCap: number): [number, number] {
  const nf = nx0 + qCap;
  const f64 =
    L.nx * qCap + // F
    2 * (L.nxnb + qCap * L.nb) + // Cplᵀ, Xᵀ: Σ (n_x + qCap)·n_b each
    2 * qCap * qCap + // S_{k+1}, S_k
    2 * qCap + // h_{k+1}, h_k
    qCap * L.maxNw + // C
    qCap + // ν
    nf * nf + // final block
    nf; // its right-hand side
  const i32 = 2 * (L.count + 1) + 2 * nf; // F and Cpl offsets, final pivots and blocks
  return [f64, i32];
}

/** Float64 and Int32 elements of every buffer the constructor allocates. */
function kktElements(L: KktLayout, nx0: number): [number, number] {
  const c = L.count;
  const vlen = Math.max(L.maxNw, L.maxNy, L.maxNg, L.maxNb, 1);
  const f64 =
    L.ngSum + // rowReg
    L.hess +
    L.cJac +
    2 * L.gJac + // gJac, gw
    L.eLu +
    L.ny + // b̂
    L.ahat +
    L.tau +
    L.nb2 + // B_k
    L.nb + // k_all
    L.nx2 + // P_k
    L.nx + // p_k
    4 + // zero tolerances, shifts
    L.maxNw * L.maxNw + // M
    L.maxNw * Math.max(L.maxNy, 1) + // Q1
    2 * vlen +
    Math.max(L.maxNb, L.maxNx) +
    OCP_MAX_CARRIED_CONSTRAINTS +
    1 + // Bunch–Kaufman work
    2 * L.maxNg * L.maxNg; // T and its scratch
  const i32 =
    7 * c + // n_x, n_u, n_g, n_y, localRows, rank, nbCap
    (c + 1) + // qStage
    16 * (c + 1) + // the stage offsets
    L.ny + // pivots of E_k
    L.nu + // column permutations
    2 * L.nb + // Bunch–Kaufman permutations and blocks
    6; // inertia, local inertia
  const [cf, ci] = carriedElements(L, nx0, L.qCap);
  return [f64 + cf, i32 + ci];
}

/**
 * The KKT system of a stage-structured equality-constrained QP (see the module comment for the
 * layout and the algorithm), with its data buffers, an O(N) factorization with exact inertia and
 * solves. One instance owns every buffer; `factor` and `solve` allocate nothing (the buffers of the
 * carried rows grow once, at the first factorization that needs more, up to
 * {@link OCP_MAX_CARRIED_CONSTRAINTS}).
 *
 * Vector layouts: `rhsW`/`dw` hold per stage (Δx_k, Δu_k) at `wOffset[k]`; `rhsC`/`dLambda` hold
 * n_y,k entries at `cOffset[k]`; `rhsG`/`dMu` hold n_g,k entries at `gOffset[k]`.
 *
 * @example
 * ```ts
 * // one stage, no dynamics: min ½(x² + u²) − x s.t. x + u = 1  →  x = 1, u = 0, μ = 0
 * const kkt = new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }]);
 * kkt.hess.set([1, 0, 0, 1]);
 * kkt.gJac.set([1, 1]);
 * kkt.factor(0, 0); // 'ok'; kkt.inertia = [2, 1, 0]
 * const dw = new Float64Array(2);
 * const dMu = new Float64Array(1);
 * kkt.solve(Float64Array.of(1, 0), new Float64Array(0), Float64Array.of(1), dw, new Float64Array(0), dMu);
 * // dw = [1, 0], dMu = [0]
 * ```
 */
export class StageKktSystem {
  /** Index of the last stage (stages 0..N). */
  readonly N: number;
  /** Number of primal unknowns n = Σ (n_x,k + n_u,k). */
  readonly nPrimal: number;
  /** Number of equality rows in use, m = Σ n_y,k + Σ `localRows[k]`. */
  get nEquality(): number {
    let m = this.cOffset[this.N + 1]!;
    for (let k = 0; k <= this.N; k++) m += this.localRows[k]!;
    return m;
  }
  readonly nx: Int32Array;
  readonly nu: Int32Array;
  readonly ng: Int32Array;
  /** n_y,k = n_x,k+1 for k < N, 0 for k = N. */
  readonly ny: Int32Array;
  readonly wOffset: Int32Array;
  readonly cOffset: Int32Array;
  readonly gOffset: Int32Array;
  /** Stage Hessian blocks over (Δx_k, Δu_k, Δx_{k+1}), (n_w + n_y)² each, at `hessOffset[k]`. */
  readonly hess: Float64Array;
  readonly hessOffset: Int32Array;
  /** Dynamics Jacobians [A_k B_k E_k], n_y × (n_w + n_y) each, at `cJacOffset[k]`. */
  readonly cJac: Float64Array;
  readonly cJacOffset: Int32Array;
  /** Local-row Jacobians G_k, (capacity n_g) × n_w each, at `gJacOffset[k]`. */
  readonly gJac: Float64Array;
  readonly gJacOffset: Int32Array;
  /** Local rows in use at each stage (≤ the capacity n_g,k; default n_g,k): rows 0..localRows[k]−1. */
  readonly localRows: Int32Array;
  /**
   * Diagonal D ≥ 0 of each local row (layout of `gOffset`, default 0): row i reads
   * G_i Δw − (D_i + δ_c) Δμ_i = r_i. The interior-point method keeps strongly active inequality
   * rows as local rows with D_i = s_i/z_i (the slack eliminated) instead of adding
   * J_hᵀ(z/s)J_h to W, which would need cancellations of entries of size z/s ≈ 1/μ.
   */
  readonly rowReg: Float64Array;
  /**
   * Inertia [positive, negative, zero] of the KKT matrix from the last `factor`: exact when the
   * status is `ok` or `wrongInertia`; after a `singular` status (or a failure), the counts of the
   * blocks processed so far.
   */
  readonly inertia = new Int32Array(3);
  /** Stage at which the last `factor` stopped (−1: none; N+1 stands for the final block). */
  failStage = -1;
  /** Number of carried rows at stage 0 in the last successful factorization. */
  carriedRows = 0;

  // per-stage factor storage
  private readonly eLu: Float64Array;
  private readonly eLuOff: Int32Array;
  private readonly ePiv: Int32Array;
  private readonly ePivOff: Int32Array;
  private readonly ahatT: Float64Array;
  private readonly ahatOff: Int32Array;
  private readonly gw: Float64Array;
  private readonly tau: Float64Array;
  private readonly tauOff: Int32Array;
  private readonly colPerm: Int32Array;
  private readonly colPermOff: Int32Array;
  private readonly rank: Int32Array;
  private readonly qStage: Int32Array;
  private readonly bMat: Float64Array;
  private readonly bOff: Int32Array;
  private readonly bPerm: Int32Array;
  private readonly bBlocks: Int32Array;
  private readonly bPermOff: Int32Array;
  private readonly pMat: Float64Array;
  private readonly pOff: Int32Array;
  private readonly pVec: Float64Array;
  private readonly pVecOff: Int32Array;
  private readonly bhat: Float64Array;
  private readonly kall: Float64Array;
  private readonly kallOff: Int32Array;
  private readonly nbCap: Int32Array;
  // buffers whose size depends on the carried capacity
  private qCap = 0;
  private fMat = new Float64Array(0);
  private fOff = new Int32Array(0);
  private cplT = new Float64Array(0);
  private xT = new Float64Array(0);
  private cplOff = new Int32Array(0);
  private sA = new Float64Array(0);
  private sB = new Float64Array(0);
  private hA = new Float64Array(0);
  private hB = new Float64Array(0);
  private cAll = new Float64Array(0);
  private nuVec = new Float64Array(0);
  private finalMat = new Float64Array(0);
  private finalPerm = new Int32Array(0);
  private finalBlocks = new Int32Array(0);
  private finalRhs = new Float64Array(0);
  // scratch
  private readonly mScr: Float64Array;
  private readonly q1Scr: Float64Array;
  private readonly vecScr: Float64Array;
  private readonly vecScr2: Float64Array;
  private readonly bkWork: Float64Array;
  private readonly tScr: Float64Array;
  private readonly tScr2: Float64Array;
  private readonly localInertia = new Int32Array(3);
  private readonly maxNw: number;
  private factored = false;
  private factorStatus: KktFactorStatus = 'ok';

  constructor(dims: readonly KktStageDims[]) {
    const count = dims.length;
    if (count < 1 || count > OCP_MAX_STAGES) {
      throw new DimensionError('StageKktSystem: number of stages', `1..${OCP_MAX_STAGES}`, count);
    }
    const N = count - 1;
    this.N = N;
    this.nx = new Int32Array(count);
    this.nu = new Int32Array(count);
    this.ng = new Int32Array(count);
    this.ny = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const d = dims[k]!;
      checkDim(`StageKktSystem: stage ${k} nx`, d.nx, 1);
      checkDim(`StageKktSystem: stage ${k} nu`, d.nu, 0);
      checkDim(`StageKktSystem: stage ${k} ng`, d.ng, 0);
      this.nx[k] = d.nx;
      this.nu[k] = d.nu;
      this.ng[k] = d.ng;
    }
    for (let k = 0; k < N; k++) this.ny[k] = this.nx[k + 1]!;
    const layout = kktLayout(dims);
    const off = (f: (k: number) => number): [Int32Array, number] => {
      const o = new Int32Array(count + 1);
      for (let k = 0; k < count; k++) o[k + 1] = o[k]! + f(k);
      return [o, o[count]!];
    };
    const nw = (k: number) => this.nx[k]! + this.nu[k]!;
    let total: number;
    [this.wOffset, total] = off(nw);
    this.nPrimal = total;
    let nc: number;
    let ngt: number;
    [this.cOffset, nc] = off((k) => this.ny[k]!);
    [this.gOffset, ngt] = off((k) => this.ng[k]!);
    void nc;
    this.localRows = Int32Array.from(this.ng);
    this.rowReg = new Float64Array(ngt);
    [this.hessOffset, total] = off((k) => (nw(k) + this.ny[k]!) ** 2);
    this.hess = new Float64Array(total);
    [this.cJacOffset, total] = off((k) => this.ny[k]! * (nw(k) + this.ny[k]!));
    this.cJac = new Float64Array(total);
    [this.gJacOffset, total] = off((k) => this.ng[k]! * nw(k));
    this.gJac = new Float64Array(total);
    this.gw = new Float64Array(total);
    [this.eLuOff, total] = off((k) => this.ny[k]! ** 2);
    this.eLu = new Float64Array(total);
    [this.ePivOff, total] = off((k) => this.ny[k]!);
    this.ePiv = new Int32Array(total);
    this.bhat = new Float64Array(total);
    [this.ahatOff, total] = off((k) => this.ny[k]! * nw(k));
    this.ahatT = new Float64Array(total);
    [this.tauOff, total] = off((k) => Math.min(this.ng[k]!, this.nu[k]!));
    this.tau = new Float64Array(total);
    [this.colPermOff, total] = off((k) => this.nu[k]!);
    this.colPerm = new Int32Array(total);
    this.rank = new Int32Array(count);
    this.qStage = new Int32Array(count + 1);
    this.nbCap = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      this.nbCap[k] = this.nu[k]! + Math.min(this.ng[k]!, this.nu[k]!);
    }
    [this.bOff, total] = off((k) => this.nbCap[k]! ** 2);
    this.bMat = new Float64Array(total);
    [this.bPermOff, total] = off((k) => this.nbCap[k]!);
    this.bPerm = new Int32Array(total);
    this.bBlocks = new Int32Array(total);
    [this.kallOff, total] = off((k) => this.nbCap[k]!);
    this.kall = new Float64Array(total);
    [this.pOff, total] = off((k) => this.nx[k]! ** 2);
    this.pMat = new Float64Array(total);
    [this.pVecOff, total] = off((k) => this.nx[k]!);
    this.pVec = new Float64Array(total);
    const { maxNw, maxNx, maxNy, maxNg, maxNb, qCap } = layout;
    this.maxNw = maxNw;
    this.mScr = new Float64Array(maxNw * maxNw);
    this.q1Scr = new Float64Array(maxNw * Math.max(maxNy, 1));
    const vlen = Math.max(maxNw, maxNy, maxNg, maxNb, 1);
    this.vecScr = new Float64Array(vlen);
    this.vecScr2 = new Float64Array(vlen);
    this.bkWork = new Float64Array(Math.max(maxNb, maxNx) + OCP_MAX_CARRIED_CONSTRAINTS + 1);
    this.tScr = new Float64Array(maxNg * maxNg);
    this.tScr2 = new Float64Array(maxNg * maxNg);
    this.allocateCarried(qCap);
  }

  /**
   * The buffers the constructor allocates for `dims`, from the dimensions alone (O(N) arithmetic,
   * nothing allocated), so that a caller can check a memory limit before constructing
   * ({@link OcpSolver} against OCP_MAX_BYTES). The constructor sizes its buffers from the same
   * layout. The carried-row buffers may grow later, at most to
   * {@link OCP_MAX_CARRIED_CONSTRAINTS} rows (a factorization that needs more carried rows than
   * `carriedCapacity`).
   *
   * @example
   * ```ts
   * // the bytes of every buffer of new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }])
   * StageKktSystem.bufferSizes([{ nx: 1, nu: 1, ng: 1 }]).bytes; // 1224
   * ```
   */
  static bufferSizes(dims: readonly KktStageDims[]): StageKktBufferSizes {
    const L = kktLayout(dims);
    const [f64, i32] = kktElements(L, dims[0]?.nx ?? 0);
    return { float64: f64, int32: i32, bytes: 8 * f64 + 4 * i32, carriedCapacity: L.qCap };
  }

  /** (Re)allocates the buffers that depend on the carried-row capacity. */
  private allocateCarried(qCap: number): void {
    const count = this.N + 1;
    this.qCap = qCap;
    this.fOff = new Int32Array(count + 1);
    this.cplOff = new Int32Array(count + 1);
    for (let k = 0; k < count; k++) {
      this.fOff[k + 1] = this.fOff[k]! + this.nx[k]! * qCap;
      this.cplOff[k + 1] = this.cplOff[k]! + (this.nx[k]! + qCap) * this.nbCap[k]!;
    }
    this.fMat = new Float64Array(this.fOff[count]!);
    this.cplT = new Float64Array(this.cplOff[count]!);
    this.xT = new Float64Array(this.cplOff[count]!);
    this.sA = new Float64Array(qCap * qCap);
    this.sB = new Float64Array(qCap * qCap);
    this.hA = new Float64Array(qCap);
    this.hB = new Float64Array(qCap);
    this.cAll = new Float64Array(qCap * this.maxNw);
    this.nuVec = new Float64Array(qCap);
    const nf = this.nx[0]! + qCap;
    this.finalMat = new Float64Array(nf * nf);
    this.finalPerm = new Int32Array(nf);
    this.finalBlocks = new Int32Array(nf);
    this.finalRhs = new Float64Array(nf);
  }

  /**
   * Factors the KKT matrix with primal regularization `deltaW` and dual regularization `deltaC`
   * (on the local rows) and counts its inertia: the sum of the inertias of the pivot blocks
   * (Haynsworth). Blocks with negative eigenvalues are factored like any other (Bunch–Kaufman),
   * because a direction of negative curvature in one block can be compensated by a carried
   * constraint in a later one; the recursion stops only at a zero pivot, beyond which the Schur
   * complements do not exist. A pivot is zero when |pivot| ≤ max(OCP_PIVOT_ZERO_RTOL·r, `zeroAbs`)
   * with r the largest entry of its row in the pivot block (the rounding level of that row);
   * `zeroAbs` lets a caller impose a threshold on the problem's own scale (the second-order verdict
   * does).
   */
  factor(deltaW: number, deltaC: number, zeroAbs = 0): KktFactorStatus {
    this.invalidateDynamics();
    return this.refactor(deltaW, deltaC, zeroAbs);
  }

  /**
   * Marks the dynamics factors stale (`cJac` has changed): the next {@link refactor} recomputes
   * them, so `invalidateDynamics(); refactor(δ_w, δ_c)` is {@link factor}`(δ_w, δ_c)`. For a
   * caller that factors either way from one call site (the interior-point method's search
   * direction: a `refactor` at iteration 0, a `factor` after).
   *
   * @example
   * ```ts
   * const kkt = new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }]);
   * kkt.hess.set([1, 0, 0, 1]);
   * kkt.gJac.set([1, 1]);
   * // the same factorization as kkt.factor(0, 0)
   * kkt.invalidateDynamics();
   * kkt.refactor(0, 0); // 'ok'
   * ```
   */
  invalidateDynamics(): void {
    this.dynFrom = this.N + 1;
  }

  /**
   * {@link factor} for a matrix whose dynamics Jacobians `cJac` have not changed since the last
   * `factor` or `refactor` (only δ_w, δ_c, `zeroAbs`, `hess`, `gJac`, `rowReg` or `localRows`
   * did): the LU factors of E_k and Â_k = −E_k⁻¹[A_k B_k], which depend on `cJac` alone, are
   * reused. The interior-point method refactors this way during the inertia correction
   * (2 factorizations per iteration on average for the plate-ball) and for the second-order
   * verdict. The result is bit-identical to `factor`.
   */
  refactor(deltaW: number, deltaC: number, zeroAbs = 0): KktFactorStatus {
    // the scalars go to typed arrays: a double passed to a method that is not inlined is boxed
    this.shifts[0] = deltaW;
    this.shifts[1] = deltaC;
    this.zeroTol[1] = zeroAbs;
    return this.refactorLoop();
  }

  /**
   * The regularizations [δ_w, δ_c] of the last factorization (set by {@link factor} and
   * {@link refactor}), or of the next {@link refactorShifted} (written by its caller).
   */
  readonly shifts = new Float64Array(2);

  /**
   * `refactor(shifts[0], shifts[1])`, the same factorization, for a caller in a loop: a double
   * passed as an argument to a call that the optimizing compiler does not inline is allocated on
   * the heap (16 bytes per call), a double written to `shifts` is not. The interior-point method's
   * inertia correction refactors this way (0 bytes per iteration).
   *
   * @example
   * ```ts
   * const kkt = new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }]);
   * // W = diag(0, −1) is indefinite on the null space of [1 1]: inertia correction needed
   * kkt.hess.set([0, 0, 0, -1]);
   * kkt.gJac.set([1, 1]);
   * kkt.factor(0, 0); // 'wrongInertia'
   * // δ_w = 2: W + 2I = diag(2, 1)
   * kkt.shifts[0] = 2;
   * kkt.refactorShifted(); // 'ok'
   * ```
   */
  refactorShifted(): KktFactorStatus {
    // no double is read here: this method runs a few times per solve, unoptimized, where every
    // double read is a heap allocation; the per-stage steps read the shifts
    this.zeroTol[1] = 0;
    return this.refactorLoop();
  }

  /** factorOnce until the carried-row buffers are large enough. */
  private refactorLoop(): KktFactorStatus {
    for (;;) {
      const status = this.factorOnce();
      if (status !== 'grow') {
        this.factored = true;
        this.factorStatus = status;
        return status;
      }
    }
  }

  /** Status of the last {@link factor} call. */
  get status(): KktFactorStatus {
    return this.factorStatus;
  }

  // Per-stage steps of the factorization. They are separate small methods (rather than one long
  // loop body) so that the optimizing compiler compiles each quickly and keeps them optimized.

  /** Stages k ≥ dynFrom hold the dynamics factors (LU of E_k, Â_k) of the current `cJac`. */
  private dynFrom = 0;
  /** [relative, absolute] zero-pivot tolerances of the Bunch–Kaufman factorizations. */
  private readonly zeroTol = Float64Array.of(OCP_PIVOT_ZERO_RTOL, 0);

  private factorOnce(): KktFactorStatus | 'grow' {
    const N = this.N;
    const inertia = this.inertia;
    inertia[0] = 0;
    inertia[1] = 0;
    inertia[2] = 0;
    this.failStage = -1;
    this.sNext = this.sA;
    this.sCur = this.sB;
    this.qStage[N + 1] = 0;
    for (let k = N; k >= 0; k--) {
      const ng = this.localRows[k]!;
      if (!(ng >= 0 && ng <= this.ng[k]!)) {
        throw new DimensionError(`StageKktSystem: localRows[${k}]`, `0..${this.ng[k]}`, ng);
      }
      if (k < this.dynFrom) {
        if (this.nyA(k) > 0) {
          const code = this.dynamicsStep(k);
          if (code === 1) return this.fail('nonFinite', k);
          if (code === 2) return this.fail('singularDynamics', k);
        }
        this.dynFrom = k;
      }
      this.stageHessian(k);
      const qt = this.qStage[k + 1]!;
      if (this.nyA(k) > 0) this.tailCoupling(k, qt);
      const rho = this.localSplit(k, ng);
      if (rho < 0) return this.fail('nonFinite', k);
      const qk = qt + ng - rho;
      if (qk > this.qCap) {
        if (qk > OCP_MAX_CARRIED_CONSTRAINTS) return this.fail('tooManyCarried', k);
        this.allocateCarried(Math.min(OCP_MAX_CARRIED_CONSTRAINTS, Math.max(2 * this.qCap, qk)));
        return 'grow';
      }
      this.qStage[k] = qk;
      this.rotatedDiagonal(k, ng, rho);
      this.newCarriedRows(k, ng, rho, qt);
      this.buildBlock(k, ng, rho, qk, qt);
      const nb = this.nu[k]! + rho;
      const ny = this.nyA(k);
      if (nb > 0) {
        const code = this.factorBlock(k, nb);
        if (code === 1) return this.fail('nonFinite', k);
        inertia[0]! += this.localInertia[0]! + ny;
        inertia[1]! += this.localInertia[1]! + ny;
        inertia[2]! += this.localInertia[2]!;
        if (code === 2) return this.fail('singular', k);
        // no early exit on an indefinite block: a control direction of negative curvature may be
        // fixed by a carried constraint, and the final block then has one negative eigenvalue
        // less (e.g. [[−1, 1], [1, 0]] eliminated in this order); only the total inertia decides
        this.solveCoupling(k, nb, qk);
      } else {
        inertia[0]! += ny;
        inertia[1]! += ny;
      }
      if (!this.schurComplement(k, ng, rho, qk, qt)) return this.fail('nonFinite', k);
      const tmp = this.sNext;
      this.sNext = this.sCur;
      this.sCur = tmp;
    }
    return this.finalBlock();
  }

  private nyA(k: number): number {
    return this.ny[k]!;
  }

  // rolling S buffers: S_{k+1} (sNext) → S_k (sCur)
  private sNext = new Float64Array(0);
  private sCur = new Float64Array(0);

  /** LU of E_k and Â = −E⁻¹[A B] (stored transposed, n_w × n_y). 0 ok, 1 non-finite, 2 singular. */
  private dynamicsStep(k: number): number {
    const { cJac, eLu, ePiv, ahatT } = this;
    const nx = this.nx[k]!;
    const nw = nx + this.nu[k]!;
    const ny = this.ny[k]!;
    const hw = nw + ny;
    const cjOff = this.cJacOffset[k]!;
    const eOff = this.eLuOff[k]!;
    const aOff = this.ahatOff[k]!;
    let emax = 0;
    for (let i = 0; i < ny; i++) {
      const row = cjOff + i * hw + nw;
      for (let j = 0; j < ny; j++) {
        const v = cJac[row + j]!;
        eLu[eOff + i * ny + j] = v;
        const av = Math.abs(v);
        if (av > emax) emax = av;
      }
    }
    if (!(emax - emax === 0)) return 1;
    if (emax === 0) return 2;
    const epo = this.ePivOff[k]!;
    luFactorInPlace(eLu, ny, ePiv, eOff, epo);
    const etol = OCP_DYNAMICS_SINGULAR_RTOL * emax;
    for (let i = 0; i < ny; i++) if (!(Math.abs(eLu[eOff + i * ny + i]!) > etol)) return 2;
    for (let b = 0; b < nw; b++) {
      const r = aOff + b * ny;
      for (let i = 0; i < ny; i++) ahatT[r + i] = -cJac[cjOff + i * hw + b]!;
    }
    luSolveMany(eLu, eOff, ny, ePiv, epo, ahatT, aOff, nw);
    return 0;
  }

  /** M = W_ww + δ_w I (+ stage k−1's Δx_kΔx_k block) + W_wyÂ + ÂᵀW_yw + ÂᵀP_{k+1}Â. */
  private stageHessian(k: number): void {
    const { hess, ahatT } = this;
    const deltaW = this.shifts[0]!;
    const M = this.mScr;
    const nx = this.nx[k]!;
    const nw = nx + this.nu[k]!;
    const ny = this.ny[k]!;
    const hw = nw + ny;
    const hOff = this.hessOffset[k]!;
    for (let a = 0; a < nw; a++) {
      const src = hOff + a * hw;
      const dst = a * nw;
      for (let b = 0; b < nw; b++) M[dst + b] = hess[src + b]!;
      M[dst + a] = M[dst + a]! + deltaW;
    }
    if (k > 0) {
      const nwp = this.nx[k - 1]! + this.nu[k - 1]!;
      const hwp = nwp + nx;
      const hp = this.hessOffset[k - 1]!;
      for (let a = 0; a < nx; a++) {
        const src = hp + (nwp + a) * hwp + nwp;
        for (let b = 0; b < nx; b++) M[a * nw + b] = M[a * nw + b]! + hess[src + b]!;
      }
    }
    if (ny === 0) return;
    const P = this.pMat;
    const pn = this.pOff[k + 1]!;
    const aOff = this.ahatOff[k]!;
    const Q1 = this.q1Scr;
    // Q1 = ÂᵀP/2 + W_wy (n_w × n_y)
    for (let a = 0; a < nw; a++) {
      const ar = aOff + a * ny;
      const hr = hOff + a * hw + nw;
      for (let j = 0; j < ny; j++) {
        let s = 0;
        for (let i = 0; i < ny; i++) s += ahatT[ar + i]! * P[pn + i * ny + j]!;
        Q1[a * ny + j] = 0.5 * s + hess[hr + j]!;
      }
    }
    // M += Q1·Â + (Q1·Â)ᵀ
    for (let a = 0; a < nw; a++) {
      const qa = a * ny;
      const ar = aOff + a * ny;
      for (let b = 0; b <= a; b++) {
        const qb = b * ny;
        const br = aOff + b * ny;
        let s = 0;
        for (let j = 0; j < ny; j++)
          s += Q1[qa + j]! * ahatT[br + j]! + Q1[qb + j]! * ahatT[ar + j]!;
        const v = M[a * nw + b]! + s;
        M[a * nw + b] = v;
        M[b * nw + a] = v;
      }
    }
  }

  /** The tail's carried rows at this stage: C = F_{k+1}ᵀÂ (q_t × n_w), into cAll. */
  private tailCoupling(k: number, qt: number): void {
    const { ahatT, cAll } = this;
    const F = this.fMat;
    const qCap = this.qCap;
    const nw = this.nx[k]! + this.nu[k]!;
    const ny = this.ny[k]!;
    const fn = this.fOff[k + 1]!;
    const aOff = this.ahatOff[k]!;
    for (let r = 0; r < qt; r++) {
      const dst = r * nw;
      for (let b = 0; b < nw; b++) {
        const br = aOff + b * ny;
        let s = 0;
        for (let i = 0; i < ny; i++) s += F[fn + i * qCap + r]! * ahatT[br + i]!;
        cAll[dst + b] = s;
      }
    }
  }

  /**
   * QR with column pivoting of ∂g/∂u of the stage's `ng` local rows (copied to gw); returns the
   * number ρ of rows the controls eliminate, or −1 for non-finite data.
   */
  private localSplit(k: number, ng: number): number {
    if (ng === 0) {
      this.rank[k] = 0;
      return 0;
    }
    const { gJac, gw } = this;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const nw = nx + nu;
    const gOff = this.gJacOffset[k]!;
    let gmax = 0;
    for (let t = 0; t < ng * nw; t++) {
      const v = gJac[gOff + t]!;
      gw[gOff + t] = v;
      const av = Math.abs(v);
      if (av > gmax) gmax = av;
    }
    if (!(gmax - gmax === 0)) return -1;
    let rho = 0;
    if (nu > 0) {
      rho = qrColumnPivotInPlace(
        gw,
        gOff,
        ng,
        nw,
        nx,
        nu,
        this.tau,
        this.tauOff[k]!,
        this.colPerm,
        this.colPermOff[k]!,
        OCP_LOCAL_RANK_RTOL,
      );
    }
    this.rank[k] = rho;
    return rho;
  }

  /** T = U·diag(D + δ_c)·Uᵀ over the stage's local rows (δ_c·I when D = 0), into tScr. */
  private rotatedDiagonal(k: number, ng: number, rho: number): void {
    const T = this.tScr;
    const deltaC = this.shifts[1]!;
    const go = this.gOffset[k]!;
    let uniform = true;
    for (let i = 0; i < ng; i++) if (this.rowReg[go + i] !== 0) uniform = false;
    if (uniform || rho === 0) {
      for (let i = 0; i < ng; i++) {
        for (let j = 0; j < ng; j++) T[i * ng + j] = i === j ? this.rowReg[go + i]! + deltaC : 0;
      }
      return;
    }
    const nx = this.nx[k]!;
    const nw = nx + this.nu[k]!;
    const gOff = this.gJacOffset[k]!;
    const tOff = this.tauOff[k]!;
    // A = U·diag(d) column by column (A stored column-major), then T = U·Aᵀ column by column
    // (the reflections of qrColumnPivotInPlace applied in place, as in backwardVector)
    const A = this.tScr2;
    const { gw, tau } = this;
    for (let c = 0; c < ng; c++) {
      for (let i = 0; i < ng; i++) A[c * ng + i] = i === c ? this.rowReg[go + i]! + deltaC : 0;
      const yo = c * ng;
      for (let j = 0; j < rho; j++) {
        const t = tau[tOff + j]!;
        if (t === 0) continue;
        const cj = gOff + nx + j;
        let s = A[yo + j]!;
        for (let i = j + 1; i < ng; i++) s += gw[cj + i * nw]! * A[yo + i]!;
        s *= t;
        A[yo + j] = A[yo + j]! - s;
        for (let i = j + 1; i < ng; i++) A[yo + i] = A[yo + i]! - s * gw[cj + i * nw]!;
      }
    }
    for (let c = 0; c < ng; c++) {
      for (let i = 0; i < ng; i++) T[c * ng + i] = A[i * ng + c]!;
      const yo = c * ng;
      for (let j = 0; j < rho; j++) {
        const t = tau[tOff + j]!;
        if (t === 0) continue;
        const cj = gOff + nx + j;
        let s = T[yo + j]!;
        for (let i = j + 1; i < ng; i++) s += gw[cj + i * nw]! * T[yo + i]!;
        s *= t;
        T[yo + j] = T[yo + j]! - s;
        for (let i = j + 1; i < ng; i++) T[yo + i] = T[yo + i]! - s * gw[cj + i * nw]!;
      }
    }
    for (let i = 0; i < ng; i++) {
      for (let j = 0; j < i; j++) {
        const v = 0.5 * (T[i * ng + j]! + T[j * ng + i]!);
        T[i * ng + j] = v;
        T[j * ng + i] = v;
      }
    }
  }

  /** The rows ρ..ng−1 of U·G_k join the carried set (rows q_t.. of cAll), full (x, u) coupling. */
  private newCarriedRows(k: number, ng: number, rho: number, qt: number): void {
    const { gw, cAll, colPerm } = this;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const nw = nx + nu;
    const gOff = this.gJacOffset[k]!;
    const cpOff = this.colPermOff[k]!;
    for (let r = 0; r < ng - rho; r++) {
      const row = gOff + (rho + r) * nw;
      const dst = (qt + r) * nw;
      for (let a = 0; a < nx; a++) cAll[dst + a] = gw[row + a]!;
      for (let c = 0; c < nu; c++)
        cAll[dst + nx + colPerm[cpOff + c]!] = c >= rho ? gw[row + nx + c]! : 0;
    }
  }

  /** B_k = [M_uu G₁ᵀ; G₁ −T₁₁] and Cplᵀ ((n_x + q_k) × n_b): rows x [M_xu | G₁ₓᵀ], rows ν [C_u | −T₂₁]. */
  private buildBlock(k: number, ng: number, rho: number, qk: number, qt: number): void {
    const { gw, bMat, cplT, cAll, colPerm } = this;
    const M = this.mScr;
    const T = this.tScr;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const nw = nx + nu;
    const nb = nu + rho;
    const bo = this.bOff[k]!;
    const gOff = this.gJacOffset[k]!;
    const cpOff = this.colPermOff[k]!;
    for (let t = 0; t < nu; t++) {
      for (let s = 0; s < nu; s++) bMat[bo + t * nb + s] = M[(nx + t) * nw + nx + s]!;
    }
    for (let i = 0; i < rho; i++) {
      const row = gOff + i * nw;
      for (let c = 0; c < nu; c++) {
        const v = c >= i ? gw[row + nx + c]! : 0;
        const s = colPerm[cpOff + c]!;
        bMat[bo + (nu + i) * nb + s] = v;
        bMat[bo + s * nb + nu + i] = v;
      }
      for (let j = 0; j < rho; j++) bMat[bo + (nu + i) * nb + nu + j] = -T[i * ng + j]!;
    }
    const co = this.cplOff[k]!;
    for (let a = 0; a < nx; a++) {
      const row = co + a * nb;
      for (let t = 0; t < nu; t++) cplT[row + t] = M[(nx + t) * nw + a]!;
      for (let i = 0; i < rho; i++) cplT[row + nu + i] = gw[gOff + i * nw + a]!;
    }
    for (let r = 0; r < qk; r++) {
      const row = co + (nx + r) * nb;
      const src = r * nw + nx;
      for (let t = 0; t < nu; t++) cplT[row + t] = cAll[src + t]!;
      for (let i = 0; i < rho; i++) cplT[row + nu + i] = r < qt ? 0 : -T[(rho + r - qt) * ng + i]!;
    }
  }

  /** Bunch–Kaufman LDLᵀ of B_k; its inertia in localInertia. 0 ok, 1 non-finite, 2 zero pivot. */
  private factorBlock(k: number, nb: number): number {
    const { bMat } = this;
    const bo = this.bOff[k]!;
    let chk = 0;
    for (let t = 0; t < nb * nb; t++) chk += bMat[bo + t]! - bMat[bo + t]!;
    if (chk !== 0) return 1;
    const li = this.localInertia;
    li[0] = 0;
    li[1] = 0;
    li[2] = 0;
    const zeros = bunchKaufmanFactorInPlace(
      bMat,
      nb,
      this.bPerm,
      this.bBlocks,
      li,
      this.zeroTol,
      this.bkWork,
      bo,
      this.bPermOff[k]!,
    );
    return zeros > 0 ? 2 : 0;
  }

  /** Xᵀ = (B⁻¹Cpl)ᵀ row by row. */
  private solveCoupling(k: number, nb: number, qk: number): void {
    const { cplT, xT } = this;
    const co = this.cplOff[k]!;
    const rows = this.nx[k]! + qk;
    for (let t = 0; t < rows * nb; t++) xT[co + t] = cplT[co + t]!;
    bunchKaufmanSolveManyInPlace(
      this.bMat,
      nb,
      this.bPerm,
      this.bBlocks,
      xT,
      this.bkWork,
      rows,
      this.bOff[k]!,
      this.bPermOff[k]!,
      co,
    );
  }

  /** P_k, F_k, S_k from the Schur complement of B_k; false when P_k is not finite. */
  private schurComplement(k: number, ng: number, rho: number, qk: number, qt: number): boolean {
    const { cplT, xT, cAll } = this;
    const M = this.mScr;
    const T = this.tScr;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const nw = nx + nu;
    const nb = nu + rho;
    const co = this.cplOff[k]!;
    const P = this.pMat;
    const po = this.pOff[k]!;
    let trace = 0;
    for (let a = 0; a < nx; a++) {
      const ca = co + a * nb;
      for (let b = 0; b <= a; b++) {
        const cb = co + b * nb;
        let s = 0;
        for (let t = 0; t < nb; t++) s += cplT[ca + t]! * xT[cb + t]! + cplT[cb + t]! * xT[ca + t]!;
        const v = 0.5 * (M[a * nw + b]! + M[b * nw + a]! - s);
        P[po + a * nx + b] = v;
        P[po + b * nx + a] = v;
      }
      trace += P[po + a * nx + a]!;
    }
    if (!(trace - trace === 0)) return false;
    const F = this.fMat;
    const qCap = this.qCap;
    const fo = this.fOff[k]!;
    for (let a = 0; a < nx; a++) {
      const ca = co + a * nb;
      for (let r = 0; r < qk; r++) {
        const xr = co + (nx + r) * nb;
        let s = cAll[r * nw + a]!;
        for (let t = 0; t < nb; t++) s -= cplT[ca + t]! * xT[xr + t]!;
        F[fo + a * qCap + r] = s;
      }
    }
    const sNext = this.sNext;
    const sCur = this.sCur;
    for (let r = 0; r < qk; r++) {
      const cr = co + (nx + r) * nb;
      for (let s = 0; s <= r; s++) {
        const cs = co + (nx + s) * nb;
        let v =
          r < qt && s < qt
            ? sNext[r * qCap + s]!
            : r >= qt && s >= qt
              ? -T[(rho + r - qt) * ng + rho + s - qt]!
              : 0;
        let d = 0;
        for (let t = 0; t < nb; t++) d += cplT[cr + t]! * xT[cs + t]! + cplT[cs + t]! * xT[cr + t]!;
        v -= 0.5 * d;
        sCur[r * qCap + s] = v;
        sCur[s * qCap + r] = v;
      }
    }
    return true;
  }

  /** The final block [[P_0, F_0], [F_0ᵀ, S_0]]: factor, inertia, status. */
  private finalBlock(): KktFactorStatus {
    const N = this.N;
    const inertia = this.inertia;
    const qCap = this.qCap;
    const nx0 = this.nx[0]!;
    const q0 = this.qStage[0]!;
    this.carriedRows = q0;
    const nf = nx0 + q0;
    const fm = this.finalMat;
    const P = this.pMat;
    const F = this.fMat;
    const S = this.sNext;
    for (let a = 0; a < nx0; a++) {
      for (let b = 0; b < nx0; b++) fm[a * nf + b] = P[a * nx0 + b]!;
      for (let r = 0; r < q0; r++) {
        const v = F[a * qCap + r]!;
        fm[a * nf + nx0 + r] = v;
        fm[(nx0 + r) * nf + a] = v;
      }
    }
    for (let r = 0; r < q0; r++) {
      for (let s = 0; s < q0; s++) fm[(nx0 + r) * nf + nx0 + s] = S[r * qCap + s]!;
    }
    let chk = 0;
    for (let t = 0; t < nf * nf; t++) chk += fm[t]! - fm[t]!;
    if (chk !== 0) return this.fail('nonFinite', N + 1);
    const li = this.localInertia;
    li[0] = 0;
    li[1] = 0;
    li[2] = 0;
    const zeros = bunchKaufmanFactorInPlace(
      fm,
      nf,
      this.finalPerm,
      this.finalBlocks,
      li,
      this.zeroTol,
      this.bkWork,
    );
    inertia[0]! += li[0]!;
    inertia[1]! += li[1]!;
    inertia[2]! += li[2]!;
    if (zeros > 0) return this.fail('singular', N + 1);
    return inertia[1] === this.nEquality && inertia[2] === 0 ? 'ok' : 'wrongInertia';
  }

  private fail(status: KktFactorStatus, stage: number): KktFactorStatus {
    this.failStage = stage;
    return status;
  }

  /**
   * Solves the factored system for the right-hand side (r_w, r_c, r_g) (layouts in the class
   * comment), writing Δw, Δλ, Δμ. Requires a preceding `factor` with status `ok` or
   * `wrongInertia` (a nonsingular matrix). The inputs are not modified and may not alias the
   * outputs.
   */
  solve(
    rhsW: Float64Array,
    rhsC: Float64Array,
    rhsG: Float64Array,
    dw: Float64Array,
    dLambda: Float64Array,
    dMu: Float64Array,
  ): void {
    if (!this.factored || (this.factorStatus !== 'ok' && this.factorStatus !== 'wrongInertia')) {
      throw new DimensionError(
        'StageKktSystem.solve: factorization',
        'nonsingular',
        this.factorStatus,
      );
    }
    const N = this.N;
    this.hNext = this.hA;
    this.hCur = this.hB;
    for (let k = N; k >= 0; k--) {
      this.backwardVector(k, rhsW, rhsC, rhsG);
      const tmp = this.hNext;
      this.hNext = this.hCur;
      this.hCur = tmp;
    }
    this.finalSolve(dw);
    for (let k = 0; k <= N; k++) this.forwardStage(k, dw, dLambda, dMu);
  }

  // rolling carried-row constants of the vector pass: h_{k+1} (hNext) → h_k (hCur)
  private hNext = new Float64Array(0);
  private hCur = new Float64Array(0);

  /** Backward vector pass at stage k: b̂_k, the stage gradient m, k_all, p_k and h_k. */
  private backwardVector(
    k: number,
    rhsW: Float64Array,
    rhsC: Float64Array,
    rhsG: Float64Array,
  ): void {
    const { hess, eLu, ePiv, ahatT, gw, tau, kall, cplT } = this;
    const qCap = this.qCap;
    const P = this.pMat;
    const F = this.fMat;
    const pv = this.pVec;
    const m = this.vecScr;
    const t2 = this.vecScr2;
    const bhat = this.bhat;
    const hNext = this.hNext;
    const hCur = this.hCur;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const ng = this.localRows[k]!;
    const ny = this.ny[k]!;
    const nw = nx + nu;
    const hw = nw + ny;
    const hOff = this.hessOffset[k]!;
    const wo = this.wOffset[k]!;
    const qt = this.qStage[k + 1]!;
    const qk = this.qStage[k]!;
    const rho = this.rank[k]!;
    for (let a = 0; a < nw; a++) m[a] = -rhsW[wo + a]!;
    if (ny > 0) {
      const eo = this.ePivOff[k]!;
      const co = this.cOffset[k]!;
      for (let i = 0; i < ny; i++) bhat[eo + i] = rhsC[co + i]!;
      luSolveInPlace(eLu, ny, ePiv, bhat, this.eLuOff[k]!, eo, eo);
      const pn = this.pOff[k + 1]!;
      const pvn = this.pVecOff[k + 1]!;
      for (let i = 0; i < ny; i++) {
        let s = pv[pvn + i]!;
        for (let j = 0; j < ny; j++) s += P[pn + i * ny + j]! * bhat[eo + j]!;
        t2[i] = s;
      }
      const aOff = this.ahatOff[k]!;
      for (let a = 0; a < nw; a++) {
        const hr = hOff + a * hw + nw;
        const ar = aOff + a * ny;
        let s = 0;
        for (let i = 0; i < ny; i++) s += hess[hr + i]! * bhat[eo + i]! + ahatT[ar + i]! * t2[i]!;
        m[a] = m[a]! + s;
      }
      const fn = this.fOff[k + 1]!;
      for (let r = 0; r < qt; r++) {
        let s = hNext[r]!;
        for (let i = 0; i < ny; i++) s += F[fn + i * qCap + r]! * bhat[eo + i]!;
        hCur[r] = s;
      }
    }
    // local rows: U·(−r_g) → [g₁; constants of the new carried rows]
    const go = this.gOffset[k]!;
    for (let i = 0; i < ng; i++) t2[i] = -rhsG[go + i]!;
    if (rho > 0) {
      // t2 ← U·t2 (the reflections written out here: a helper called for a few stages only would
      // stay unoptimized and box every double it touches)
      const gOff = this.gJacOffset[k]!;
      const tOff = this.tauOff[k]!;
      for (let j = 0; j < rho; j++) {
        const t = tau[tOff + j]!;
        if (t === 0) continue;
        const cj = gOff + nx + j;
        let s = t2[j]!;
        for (let i = j + 1; i < ng; i++) s += gw[cj + i * nw]! * t2[i]!;
        s *= t;
        t2[j] = t2[j]! - s;
        for (let i = j + 1; i < ng; i++) t2[i] = t2[i]! - s * gw[cj + i * nw]!;
      }
    }
    for (let r = 0; r < ng - rho; r++) hCur[qt + r] = t2[rho + r]!;
    // k_all = −B⁻¹[m_u; g₁]
    const nb = nu + rho;
    const ko = this.kallOff[k]!;
    const co = this.cplOff[k]!;
    for (let t = 0; t < nu; t++) kall[ko + t] = -m[nx + t]!;
    for (let i = 0; i < rho; i++) kall[ko + nu + i] = -t2[i]!;
    if (nb > 0) {
      bunchKaufmanSolveInPlace(
        this.bMat,
        nb,
        this.bPerm,
        this.bBlocks,
        kall,
        this.bkWork,
        this.bOff[k]!,
        this.bPermOff[k]!,
        ko,
      );
    }
    const pvo = this.pVecOff[k]!;
    for (let a = 0; a < nx; a++) {
      const ca = co + a * nb;
      let s = m[a]!;
      for (let t = 0; t < nb; t++) s += cplT[ca + t]! * kall[ko + t]!;
      pv[pvo + a] = s;
    }
    for (let r = 0; r < qk; r++) {
      const cr = co + (nx + r) * nb;
      let s = hCur[r]!;
      for (let t = 0; t < nb; t++) s += cplT[cr + t]! * kall[ko + t]!;
      hCur[r] = s;
    }
  }

  /** [P_0 F_0; F_0ᵀ S_0][Δx_0; ν] = −[p_0; h_0] into dw (Δx_0) and nuVec (ν). */
  private finalSolve(dw: Float64Array): void {
    const nx0 = this.nx[0]!;
    const q0 = this.qStage[0]!;
    const nf = nx0 + q0;
    const z = this.finalRhs;
    const pv = this.pVec;
    const h0 = this.hNext;
    for (let a = 0; a < nx0; a++) z[a] = -pv[a]!;
    for (let r = 0; r < q0; r++) z[nx0 + r] = -h0[r]!;
    bunchKaufmanSolveInPlace(this.finalMat, nf, this.finalPerm, this.finalBlocks, z, this.bkWork);
    const nuV = this.nuVec;
    for (let a = 0; a < nx0; a++) dw[a] = z[a]!;
    for (let r = 0; r < q0; r++) nuV[r] = z[nx0 + r]!;
  }

  /** Forward pass at stage k: Δu_k, Δμ_k, Δx_{k+1} and Δλ_k from Δx_k and ν. */
  private forwardStage(
    k: number,
    dw: Float64Array,
    dLambda: Float64Array,
    dMu: Float64Array,
  ): void {
    const { hess, eLu, ePiv, ahatT, gw, tau, kall, xT } = this;
    const qCap = this.qCap;
    const P = this.pMat;
    const F = this.fMat;
    const pv = this.pVec;
    const nuV = this.nuVec;
    const m = this.vecScr;
    const bhat = this.bhat;
    const nx = this.nx[k]!;
    const nu = this.nu[k]!;
    const ng = this.localRows[k]!;
    const ny = this.ny[k]!;
    const nw = nx + nu;
    const hw = nw + ny;
    const wo = this.wOffset[k]!;
    const qt = this.qStage[k + 1]!;
    const qk = this.qStage[k]!;
    const rho = this.rank[k]!;
    const nb = nu + rho;
    const ko = this.kallOff[k]!;
    const co = this.cplOff[k]!;
    // v = k_all − Xᵀ·[Δx_k; ν]
    for (let t = 0; t < nb; t++) m[t] = kall[ko + t]!;
    for (let a = 0; a < nx; a++) {
      const za = dw[wo + a]!;
      if (za === 0) continue;
      const xa = co + a * nb;
      for (let t = 0; t < nb; t++) m[t] = m[t]! - xT[xa + t]! * za;
    }
    for (let r = 0; r < qk; r++) {
      const zr = nuV[r]!;
      if (zr === 0) continue;
      const xr = co + (nx + r) * nb;
      for (let t = 0; t < nb; t++) m[t] = m[t]! - xT[xr + t]! * zr;
    }
    for (let t = 0; t < nu; t++) dw[wo + nx + t] = m[t]!;
    if (ng > 0) {
      const go = this.gOffset[k]!;
      for (let i = 0; i < rho; i++) dMu[go + i] = m[nu + i]!;
      for (let r = 0; r < ng - rho; r++) dMu[go + rho + r] = nuV[qt + r]!;
      if (rho > 0) {
        // dMu ← Uᵀ·dMu (the reflections of qrColumnPivotInPlace applied in place, as in backwardVector)
        const gOff = this.gJacOffset[k]!;
        const tOff = this.tauOff[k]!;
        for (let step = 0; step < rho; step++) {
          const j = rho - 1 - step;
          const t = tau[tOff + j]!;
          if (t === 0) continue;
          const cj = gOff + nx + j;
          let s = dMu[go + j]!;
          for (let i = j + 1; i < ng; i++) s += gw[cj + i * nw]! * dMu[go + i]!;
          s *= t;
          dMu[go + j] = dMu[go + j]! - s;
          for (let i = j + 1; i < ng; i++) dMu[go + i] = dMu[go + i]! - s * gw[cj + i * nw]!;
        }
      }
    }
    if (ny === 0) return;
    const aOff = this.ahatOff[k]!;
    const eo = this.ePivOff[k]!;
    const wn = this.wOffset[k + 1]!;
    for (let i = 0; i < ny; i++) {
      let s = bhat[eo + i]!;
      for (let b = 0; b < nw; b++) s += ahatT[aOff + b * ny + i]! * dw[wo + b]!;
      dw[wn + i] = s;
    }
    const hOff = this.hessOffset[k]!;
    const pn = this.pOff[k + 1]!;
    const pvn = this.pVecOff[k + 1]!;
    const fn = this.fOff[k + 1]!;
    const lo = this.cOffset[k]!;
    for (let i = 0; i < ny; i++) {
      let s = pv[pvn + i]!;
      const hr = hOff + (nw + i) * hw;
      for (let b = 0; b < nw; b++) s += hess[hr + b]! * dw[wo + b]!;
      const pr = pn + i * ny;
      for (let j = 0; j < ny; j++) s += P[pr + j]! * dw[wn + j]!;
      const fr = fn + i * qCap;
      for (let r = 0; r < qt; r++) s += F[fr + r]! * nuV[r]!;
      dLambda[lo + i] = s;
    }
    luSolveTransposeInPlace(eLu, ny, ePiv, dLambda, this.eLuOff[k]!, lo, eo);
    for (let i = 0; i < ny; i++) dLambda[lo + i] = -dLambda[lo + i]!;
  }
}

function checkDim(what: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min || v > OCP_MAX_STAGE_DIM) {
    throw new DimensionError(what, `an integer in [${min}, ${OCP_MAX_STAGE_DIM}]`, v);
  }
}

// LU with partial pivoting of an n×n block at an offset, pivots at an offset (the kernels of
// linalg/lu.ts index their pivot array from 0, which would need a subarray view per stage).

/** The `count` right-hand sides stored one after another at bOff: each b ← E⁻¹b. */
function luSolveMany(
  lu: Float64Array,
  off: number,
  n: number,
  piv: Int32Array,
  pivOff: number,
  b: Float64Array,
  bOff: number,
  count: number,
): void {
  for (let c = 0; c < count; c++) luSolveInPlace(lu, n, piv, b, off, bOff + c * n, pivOff);
}
