/**
 * Fixed-endpoint discrete optimal control on a Lie group (spec 003 §8.1 "Boundary-value problem",
 * §12 items 9 and 12) and its flagship instance, sub-Riemannian steering on SO(3) (scenario S4):
 * l(ξ) = ½|ξ|², Ψ(ξ) = ξ₃, steer G_0 = I to G_n = exp(φE3) in unit time with h = 1/n.
 *
 * Two methods:
 * - `'full'` ({@link LieGroupBVP}): simultaneous Levenberg–Marquardt over the whole trajectory. The
 *   unknowns are the cumulative rotations G_1..G_{n−1} (updated by G ← G·exp(δ)) and λ_1..λ_n, with
 *   g_k = G_{k−1}⁻¹G_k and ξ_k = τ⁻¹(g_k)/h, so equation k only touches nodes k−1, k, k+1 and the
 *   Jacobian is block tridiagonal (blocks of dim + m). The equations are the DEL (6.1-e),
 *   k = 1..n−1, and Ψ(ξ_k) = 0, k = 1..n.
 * - `'shooting'`: unknowns (u1, u2, λ_1) with ξ_1 = (u1, u2, 0), marched by {@link LieGroupOCP.stepLP};
 *   the three equations τ⁻¹(G_targetᵀG_n) = 0 are solved by core's Levenberg–Marquardt.
 *
 * @module
 */
import {
  ARMIJO_CONSTANT,
  allFinite,
  BandLU,
  BlockBandMatrix,
  DimensionError,
  DomainError,
  GeomechError,
  jacobianFromFiniteDifferences,
  LevenbergMarquardtSolver,
  MIN_LINE_SEARCH_STEP,
  NonFiniteError,
  SO3,
} from '@geomech/core';
import {
  type AlgebraFunction,
  LieGroupOCP,
  type LieGroupOCPData,
  LiePoissonKernel,
} from './lieGroupMechanics.js';
import { type So3Map, so3Retraction } from './rigidBody.js';

// ---------------------------------------------------------------------------------------------
// The full-trajectory solver

/** Options of {@link LieGroupBVP}. */
export interface LieGroupBVPOptions extends LieGroupOCPData {
  /** Number of increments n ≥ 2 (h = T/n). */
  readonly n: number;
  /** Horizon T > 0. Default 1. */
  readonly T?: number;
  /** Fixed start G_0 (group storage). */
  readonly G0: ArrayLike<number>;
  /** Fixed end G_n (group storage). */
  readonly Gn: ArrayLike<number>;
}

/** Report of one {@link LieGroupBVP.iterate} call. */
export interface BVPIterationInfo {
  /** ‖F‖∞ after the iteration. */
  readonly residualNorm: number;
  /** Line-search step length t ∈ (0, 1] of the accepted step; 0 when no step was accepted. */
  readonly stepLength: number;
  /** Damping μ used for the step. */
  readonly mu: number;
  /** False when no step was taken (the iterate is unchanged): see {@link failure}. */
  readonly accepted: boolean;
  /**
   * Why no step was taken: `lineSearch` (no Armijo point down to t = 2⁻²⁰) or `nonFinite` (the
   * Jacobian or the normal matrix had a non-finite entry); undefined after an accepted step.
   */
  readonly failure: 'lineSearch' | 'nonFinite' | undefined;
}

/** Outcome of {@link LieGroupBVP.solve}. */
export interface BVPSolveResult {
  readonly converged: boolean;
  readonly iterations: number;
  /** ‖F‖∞ at the returned trajectory. */
  readonly residualNorm: number;
  /** ‖F‖∞ before the first iteration and after each one. */
  readonly history: number[];
  /** `residual` when converged; else `maxIterations`, `lineSearch` or `nonFinite`. */
  readonly reason: 'residual' | 'maxIterations' | 'lineSearch' | 'nonFinite';
}

/** Relative floor θ of the damping, μ ≥ θ·‖F‖₂ (keeps steps along the symmetry orbit O(‖F‖)). */
const BVP_DAMPING_FLOOR = 1e-3;
/** Initial damping μ₀ = BVP_INITIAL_DAMPING·max diag(JᵀJ) (a near-Gauss–Newton first step). */
const BVP_INITIAL_DAMPING = 1e-16;

/**
 * A fixed-endpoint discrete constrained optimal-control problem on a Lie group (spec 003 §8.1 BVP):
 * find G_1..G_{n−1} and λ_1..λ_n with the DEL (6.1-e) at the inner nodes, Ψ(ξ_k) = 0 for every
 * increment, G_0 and G_n fixed. Solved by Levenberg–Marquardt with a backtracking (Armijo) line
 * search on ½‖F‖²:
 *
 *   (JᵀJ + μI)Δ = −JᵀF,  μ = max(μ_Nielsen, θ‖F‖₂),
 *
 * in block-banded form (JᵀJ is block pentadiagonal; core's {@link BlockBandMatrix} and
 * {@link BandLU}), with one step of iterative refinement whose residual is formed with J itself
 * (the corrected semi-normal equations), so the step is as accurate as a QR solve although JᵀJ is
 * formed. Why LM and not a gauge: symmetries of the data (for S4 conjugation by rotations about e3,
 * which fixes both endpoints and Ψ) make J singular at every solution; as μ → 0 the LM step tends
 * to the minimum-norm Gauss–Newton step, which is well defined without knowing the symmetry,
 * keeps the band, and the floor θ‖F‖ (Fan–Yuan) keeps the drift along the solution orbit
 * O(‖F‖) while preserving local quadratic convergence. A gauge condition would have to be
 * tailored to each problem's symmetry group.
 *
 * Unknown order: block k−1 = (λ_k, δ_k) for k = 1..n−1, then λ_n; equation order: block k−1 =
 * (Ψ_k, DEL_k), then Ψ_n. One iteration allocates nothing.
 *
 * @example
 * ```ts
 * const bvp = so3SteeringProblem({ phi: 1, n: 40 });
 * const g = so3GeodesicTrajectory(1, 40);
 * bvp.setTrajectory(g.R, g.lambda);
 * bvp.solve({ tol: 1e-10 }).converged; // true, bvp.cost() ≈ 5.798604
 * ```
 */
export class LieGroupBVP {
  readonly n: number;
  readonly h: number;
  readonly dim: number;
  readonly m: number;
  /** Block size dim + m. */
  readonly blockSize: number;
  /** Number of unknowns = number of equations, (dim + m)(n − 1) + m. */
  readonly size: number;
  readonly kernel: LiePoissonKernel;
  private readonly data: LieGroupOCPData;
  private readonly S: number;
  /** G_0..G_n, `(n+1) × storageSize`. */
  private G: Float64Array;
  private Gt: Float64Array;
  /** λ_1..λ_n, `n × m`. */
  private lam: Float64Array;
  private lamT: Float64Array;
  /** ξ_1..ξ_n, `n × dim`. */
  private xi: Float64Array;
  private xiT: Float64Array;
  private F: Float64Array;
  private Ft: Float64Array;
  private fNorm2 = Number.NaN;
  private fNormInf = Number.NaN;
  private evalNorm = Number.NaN;
  private mu = -1;
  private nu = 2;
  private readonly J: BlockBandMatrix;
  private readonly A: BlockBandMatrix;
  private readonly lu: BandLU;
  private readonly grad: Float64Array;
  private readonly delta: Float64Array;
  private readonly corr: Float64Array;
  private readonly work: Float64Array;
  private readonly work2: Float64Array;
  // per-node Jacobian pieces (node k at index k−1)
  private readonly Ak: Float64Array;
  private readonly Bk: Float64Array;
  private readonly PpXi: Float64Array;
  private readonly PpLam: Float64Array;
  private readonly PmXi: Float64Array;
  private readonly PmLam: Float64Array;
  private readonly gPsi: Float64Array;
  // scratch
  private readonly gk: Float64Array;
  private readonly Ga: Float64Array;
  private readonly Gb: Float64Array;
  private readonly xa: Float64Array;
  private readonly xb: Float64Array;
  private readonly la: Float64Array;
  private readonly lb: Float64Array;
  private readonly xk: Float64Array;
  private readonly vd: Float64Array;
  private readonly vd2: Float64Array;
  private readonly Md: Float64Array;
  private readonly info: { -readonly [K in keyof BVPIterationInfo]: BVPIterationInfo[K] };

  constructor(options: LieGroupBVPOptions) {
    const { n } = options;
    const T = options.T ?? 1;
    if (!Number.isInteger(n) || n < 2)
      throw new DomainError('LieGroupBVP: n', n, 'must be an integer >= 2');
    if (!(T > 0 && Number.isFinite(T)))
      throw new DomainError('LieGroupBVP: T', T, 'must be positive and finite');
    this.kernel = new LiePoissonKernel(options);
    this.data = options;
    const G = options.group;
    const S = G.storageSize;
    if (options.G0.length !== S) throw new DimensionError('LieGroupBVP: G0', S, options.G0.length);
    if (options.Gn.length !== S) throw new DimensionError('LieGroupBVP: Gn', S, options.Gn.length);
    const d = this.kernel.dim;
    const m = this.kernel.m;
    const b = d + m;
    this.n = n;
    this.h = T / n;
    this.dim = d;
    this.m = m;
    this.S = S;
    this.blockSize = b;
    this.size = b * (n - 1) + m;
    const N = this.size;
    const blockCount = m > 0 ? n : n - 1;
    this.J = new BlockBandMatrix(b, blockCount, 1, 1, N);
    this.A = new BlockBandMatrix(b, blockCount, 2, 2, N);
    this.lu = new BandLU(N, this.A.kl, this.A.ku);
    this.G = new Float64Array((n + 1) * S);
    this.Gt = new Float64Array((n + 1) * S);
    this.G.set(Float64Array.from(options.G0), 0);
    this.G.set(Float64Array.from(options.Gn), n * S);
    for (let k = 1; k < n; k++) this.G.set(Float64Array.from(options.G0), k * S);
    this.Gt.set(this.G);
    this.lam = new Float64Array(n * m);
    this.lamT = new Float64Array(n * m);
    this.xi = new Float64Array(n * d);
    this.xiT = new Float64Array(n * d);
    this.F = new Float64Array(N);
    this.Ft = new Float64Array(N);
    this.grad = new Float64Array(N);
    this.delta = new Float64Array(N);
    this.corr = new Float64Array(N);
    this.work = new Float64Array(N);
    this.work2 = new Float64Array(N);
    this.Ak = new Float64Array(n * d * d);
    this.Bk = new Float64Array(n * d * d);
    this.PpXi = new Float64Array(n * d * d);
    this.PmXi = new Float64Array(n * d * d);
    this.PpLam = new Float64Array(n * d * m);
    this.PmLam = new Float64Array(n * d * m);
    this.gPsi = new Float64Array(n * m * d);
    this.gk = new Float64Array(S);
    this.Ga = new Float64Array(S);
    this.Gb = new Float64Array(S);
    this.xa = new Float64Array(d);
    this.xb = new Float64Array(d);
    this.la = new Float64Array(Math.max(1, m));
    this.lb = new Float64Array(Math.max(1, m));
    this.xk = new Float64Array(d);
    this.vd = new Float64Array(d);
    this.vd2 = new Float64Array(d);
    this.Md = new Float64Array(d * d);
    this.info = {
      residualNorm: Number.NaN,
      stepLength: 0,
      mu: 0,
      accepted: false,
      failure: undefined,
    };
  }

  /**
   * Sets the iterate: `G` holds either the n+1 nodes G_0..G_n (the ends are ignored: G_0, G_n stay
   * fixed) or the n−1 inner nodes; `lambda` holds λ_1..λ_n (`n × m`). Resets the damping.
   */
  setTrajectory(G: ArrayLike<number>, lambda: ArrayLike<number>): void {
    const { n, S, m } = this;
    let off: number;
    if (G.length === (n + 1) * S) off = S;
    else if (G.length === (n - 1) * S) off = 0;
    else throw new DimensionError('LieGroupBVP.setTrajectory: G', (n + 1) * S, G.length);
    if (lambda.length !== n * m)
      throw new DimensionError('LieGroupBVP.setTrajectory: lambda', n * m, lambda.length);
    for (let i = 0; i < (n - 1) * S; i++) {
      const v = G[off + i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('LieGroupBVP.setTrajectory: G', off + i);
      this.G[S + i] = v;
    }
    for (let i = 0; i < n * m; i++) {
      const v = lambda[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('LieGroupBVP.setTrajectory: lambda', i);
      this.lam[i] = v;
    }
    this.mu = -1;
    this.nu = 2;
    this.fNorm2 = Number.NaN;
  }

  /** Replaces the fixed ends G_0 and G_n (e.g. for continuation in the target). */
  setEndpoints(G0: ArrayLike<number>, Gn: ArrayLike<number>): void {
    const { n, S } = this;
    if (G0.length !== S) throw new DimensionError('LieGroupBVP.setEndpoints: G0', S, G0.length);
    if (Gn.length !== S) throw new DimensionError('LieGroupBVP.setEndpoints: Gn', S, Gn.length);
    for (let i = 0; i < S; i++) {
      this.G[i] = G0[i]!;
      this.G[n * S + i] = Gn[i]!;
    }
    this.Gt.set(this.G);
    this.fNorm2 = Number.NaN;
  }

  /** Copy of the nodes G_0..G_n (`(n+1) × storageSize`). */
  nodes(): Float64Array {
    return Float64Array.from(this.G);
  }

  /** Copy of λ_1..λ_n. */
  multipliers(): Float64Array {
    return Float64Array.from(this.lam);
  }

  /** Copy of ξ_1..ξ_n (`n × dim`) at the current iterate. */
  velocities(): Float64Array {
    this.ensureEvaluated();
    return Float64Array.from(this.xi);
  }

  /** Copy of the residual vector F (DEL and constraints, ordered as in the class comment). */
  residualVector(): Float64Array {
    this.ensureEvaluated();
    return Float64Array.from(this.F);
  }

  /** ‖F‖∞ at the current iterate. */
  residualNorm(): number {
    this.ensureEvaluated();
    return this.fNormInf;
  }

  /** The discrete action Σ_k L̂(g_k) = h·Σ_k l(ξ_k) (spec 003 (6.1-c)) at the current iterate. */
  cost(): number {
    this.ensureEvaluated();
    const { n, dim: d, xi, vd } = this;
    let c = 0;
    for (let k = 0; k < n; k++) {
      for (let i = 0; i < d; i++) vd[i] = xi[k * d + i]!;
      c += this.data.l(vd);
    }
    return this.h * c;
  }

  /** The current Jacobian J (block tridiagonal) as a dense row-major matrix, for tests. */
  jacobianDense(): Float64Array {
    this.ensureEvaluated();
    this.assembleJacobian();
    return this.J.toDense();
  }

  /**
   * Applies the update (Δλ, δ) to a copy of the current iterate and returns its residual vector
   * (for finite-difference checks of the Jacobian in tests).
   */
  residualAfterUpdate(delta: ArrayLike<number>): Float64Array {
    if (delta.length !== this.size)
      throw new DimensionError('LieGroupBVP.residualAfterUpdate', this.size, delta.length);
    this.ensureEvaluated();
    this.delta.set(Float64Array.from(delta));
    this.trial(1);
    return Float64Array.from(this.Ft);
  }

  /**
   * One Levenberg–Marquardt iteration: assemble J, form JᵀJ + μI and JᵀF in band storage, factor,
   * solve (plus one refinement step), then backtrack t = 1, ½, … until Armijo holds. Allocates
   * nothing. Returns its own info object (overwritten by the next call).
   */
  iterate(): BVPIterationInfo {
    this.ensureEvaluated();
    const { size: N, grad, delta, corr, work, work2, A, J, lu } = this;
    this.assembleJacobian();
    this.formNormalEquations();
    if (this.mu < 0) {
      let maxDiag = 0;
      for (let i = 0; i < N; i++) {
        const v = A.rowBand[i * A.rowWidth + A.kl]!;
        if (v > maxDiag) maxDiag = v;
      }
      this.mu = BVP_INITIAL_DAMPING * maxDiag;
    }
    const mu = Math.max(this.mu, BVP_DAMPING_FLOOR * this.fNorm2);
    const info = this.info;
    info.mu = mu;
    for (let i = 0; i < N; i++) {
      const o = i * A.rowWidth + A.kl;
      A.rowBand[o] = A.rowBand[o]! + mu;
    }
    if (!allFinite(A.rowBand) || !allFinite(grad)) {
      info.accepted = false;
      info.failure = 'nonFinite';
      info.stepLength = 0;
      info.residualNorm = this.fNormInf;
      return info;
    }
    lu.factor(A);
    for (let i = 0; i < N; i++) delta[i] = -grad[i]!;
    lu.solve(delta, delta);
    // refinement: corr = −g − (JᵀJ + μI)Δ with JᵀJΔ = Jᵀ(JΔ)
    J.matVec(work, delta);
    this.transposeMatVec(work2, work);
    for (let i = 0; i < N; i++) corr[i] = -grad[i]! - work2[i]! - mu * delta[i]!;
    lu.solve(corr, corr);
    for (let i = 0; i < N; i++) delta[i] = delta[i]! + corr[i]!;
    // predicted reduction of ‖F‖² for the full step: −gᵀΔ + μ‖Δ‖²; slope gᵀΔ
    let gd = 0;
    let dd = 0;
    for (let i = 0; i < N; i++) {
      gd += grad[i]! * delta[i]!;
      dd += delta[i]! * delta[i]!;
    }
    const pred = -gd + mu * dd;
    const f2 = this.fNorm2 * this.fNorm2;
    let t = 1;
    let accepted = false;
    let rho = Number.NEGATIVE_INFINITY;
    while (t >= MIN_LINE_SEARCH_STEP) {
      this.trial(t);
      const ft = this.evalNorm;
      const ft2 = ft * ft;
      if (t === 1 && Number.isFinite(ft) && pred > 0) rho = (f2 - ft2) / pred;
      if (Number.isFinite(ft) && ft2 <= f2 + 2 * ARMIJO_CONSTANT * t * gd) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    info.accepted = accepted;
    info.failure = accepted ? undefined : 'lineSearch';
    info.stepLength = accepted ? t : 0;
    if (accepted) {
      this.swapTrial();
      if (t === 1 && rho > 0) {
        this.mu *= Math.max(1 / 3, 1 - (2 * rho - 1) ** 3);
        this.nu = 2;
      } else {
        this.mu = Math.max(this.mu, mu) * this.nu;
        this.nu *= 2;
      }
    }
    info.residualNorm = this.fNormInf;
    return info;
  }

  /**
   * Iterates until ‖F‖∞ ≤ tol, `maxIterations` iterations, or a failed line search.
   * `onIteration` is called after every iteration with its number and ‖F‖∞.
   */
  solve(
    options: {
      readonly tol?: number;
      readonly maxIterations?: number;
      readonly onIteration?: (iteration: number, residualNorm: number) => void;
    } = {},
  ): BVPSolveResult {
    const tol = options.tol ?? 1e-10;
    const maxIterations = options.maxIterations ?? 100;
    if (!(tol > 0)) throw new DomainError('LieGroupBVP.solve: tol', tol, 'must be positive');
    if (!Number.isInteger(maxIterations) || maxIterations < 0) {
      throw new DomainError(
        'LieGroupBVP.solve: maxIterations',
        maxIterations,
        'must be an integer >= 0',
      );
    }
    const history = [this.residualNorm()];
    let k = 0;
    let reason: BVPSolveResult['reason'] = 'maxIterations';
    for (;;) {
      if (this.fNormInf <= tol) {
        reason = 'residual';
        break;
      }
      if (k >= maxIterations) break;
      const info = this.iterate();
      k++;
      history.push(info.residualNorm);
      options.onIteration?.(k, info.residualNorm);
      if (!info.accepted) {
        reason = info.failure ?? 'lineSearch';
        break;
      }
    }
    return {
      converged: reason === 'residual',
      iterations: k,
      residualNorm: this.fNormInf,
      history,
      reason,
    };
  }

  // -------------------------------------------------------------------------------------------

  private ensureEvaluated(): void {
    if (Number.isNaN(this.fNorm2)) {
      this.evaluate(this.G, this.lam, this.xi, this.F);
      this.fNorm2 = this.evalNorm;
      this.fNormInf = maxAbs(this.F);
    }
  }

  /**
   * Residual of the trajectory (G, lam) into F, velocities into xi; ‖F‖₂ (NaN if not finite) into
   * {@link evalNorm} (a field, not a return value: returned doubles are boxed).
   */
  private evaluate(G: Float64Array, lam: Float64Array, xi: Float64Array, F: Float64Array): void {
    this.evalNorm = Number.NaN;
    const { n, S, dim: d, m, blockSize: b, h, gk, Ga, Gb, xa, xb, la, lb, xk, vd, vd2 } = this;
    const K = this.kernel;
    const grp = this.data.group;
    const tau = this.data.tau;
    try {
      copy(Ga, G, 0, S);
      for (let k = 1; k <= n; k++) {
        copy(Gb, G, k * S, S);
        grp.between(gk, Ga, Gb);
        tau.tauInv(xk, gk);
        for (let i = 0; i < d; i++) xi[(k - 1) * d + i] = xk[i]! / h;
        Ga.set(Gb);
      }
    } catch (e) {
      if (e instanceof GeomechError) return;
      throw e;
    }
    copy(xa, xi, 0, d);
    copy(la, lam, 0, m);
    const mh = -h;
    for (let k = 1; k <= n; k++) {
      const r0 = (k - 1) * b;
      K.constraints(F, xa, r0);
      if (k < n) {
        copy(xb, xi, k * d, d);
        copy(lb, lam, k * m, m);
        K.step = h;
        K.momentumAtStep(vd, xa, la);
        K.step = mh;
        K.momentumAtStep(vd2, xb, lb);
        for (let i = 0; i < d; i++) F[r0 + m + i] = vd[i]! - vd2[i]!;
        xa.set(xb);
        la.set(lb);
      }
    }
    let s = 0;
    for (let i = 0; i < F.length; i++) s += F[i]! * F[i]!;
    this.evalNorm = Number.isFinite(s) ? Math.sqrt(s) : Number.NaN;
  }

  /** Trial iterate x ⊕ tΔ into the trial buffers; its ‖F‖₂ into {@link evalNorm}. */
  private trial(t: number): void {
    const { n, S, dim: d, m, blockSize: b, delta, vd, Ga, Gb } = this;
    const grp = this.data.group;
    for (let k = 1; k <= n; k++) {
      const o = (k - 1) * b;
      for (let a = 0; a < m; a++)
        this.lamT[(k - 1) * m + a] = this.lam[(k - 1) * m + a]! + t * delta[o + a]!;
      if (k < n) {
        for (let i = 0; i < d; i++) vd[i] = t * delta[o + m + i]!;
        copy(Ga, this.G, k * S, S);
        grp.rplus(Gb, Ga, vd);
        this.Gt.set(Gb, k * S);
      }
    }
    this.evaluate(this.Gt, this.lamT, this.xiT, this.Ft);
  }

  private swapTrial(): void {
    let tmp = this.G;
    this.G = this.Gt;
    this.Gt = tmp;
    tmp = this.lam;
    this.lam = this.lamT;
    this.lamT = tmp;
    tmp = this.xi;
    this.xi = this.xiT;
    this.xiT = tmp;
    tmp = this.F;
    this.F = this.Ft;
    this.Ft = tmp;
    // keep the fixed ends in the (new) trial buffer
    this.Gt.set(this.G);
    this.fNorm2 = Math.sqrt(dot(this.F, this.F));
    this.fNormInf = maxAbs(this.F);
  }

  /** Fills J at the current iterate (see the class comment for the block layout). */
  private assembleJacobian(): void {
    const { n, dim: d, m, blockSize: b, h, xi, lam, xk, kernel: K, Ak, Bk, Md } = this;
    const { PpXi, PpLam, PmXi, PmLam, gPsi } = this;
    const tau = this.data.tau;
    const dd = d * d;
    const { xa: xK, la: lK } = this;
    const mh = -h;
    for (let k = 0; k < n; k++) {
      copy(xK, xi, k * d, d);
      copy(lK, lam, k * m, m);
      for (let i = 0; i < d; i++) xk[i] = h * xK[i]!;
      // ∂ξ_k/∂δ_k = dτ⁻¹_{x_k}/h, ∂ξ_k/∂δ_{k−1} = −dτ⁻¹_{−x_k}/h
      tau.dtauInv(Md, xk);
      for (let i = 0; i < dd; i++) Ak[k * dd + i] = Md[i]! / h;
      tau.dtauRInv(Md, xk);
      for (let i = 0; i < dd; i++) Bk[k * dd + i] = -Md[i]! / h;
      K.step = h;
      K.momentumJacobianAtStep(xK, lK);
      PpXi.set(K.dPdXi, k * dd);
      for (let i = 0; i < d * m; i++) PpLam[k * d * m + i] = K.dPdLambda[i]!;
      K.step = mh;
      K.momentumJacobianAtStep(xK, lK);
      PmXi.set(K.dPdXi, k * dd);
      for (let i = 0; i < d * m; i++) PmLam[k * d * m + i] = K.dPdLambda[i]!;
      for (let i = 0; i < m * d; i++) gPsi[k * m * d + i] = K.gradPsi[i]!;
    }
    const J = this.J;
    J.rowBand.fill(0);
    for (let k = 1; k <= n; k++) {
      const r0 = (k - 1) * b;
      const ki = k - 1;
      // Ψ_k rows
      if (m > 0) {
        if (k <= n - 1)
          this.addProduct(r0, (k - 1) * b + m, m, d, gPsi, ki * m * d, Ak, ki * dd, 1);
        if (k >= 2) this.addProduct(r0, (k - 2) * b + m, m, d, gPsi, ki * m * d, Bk, ki * dd, 1);
      }
      if (k === n) continue;
      const rd = r0 + m;
      // DEL_k = F⁺_k − F⁻_{k+1}
      if (k >= 2) this.addProduct(rd, (k - 2) * b + m, d, d, PpXi, ki * dd, Bk, ki * dd, 1);
      this.addProduct(rd, (k - 1) * b + m, d, d, PpXi, ki * dd, Ak, ki * dd, 1);
      this.addProduct(rd, (k - 1) * b + m, d, d, PmXi, k * dd, Bk, k * dd, -1);
      if (k + 1 <= n - 1) this.addProduct(rd, k * b + m, d, d, PmXi, k * dd, Ak, k * dd, -1);
      for (let i = 0; i < d; i++) {
        for (let a = 0; a < m; a++) {
          this.addEntry(rd + i, (k - 1) * b + a, PpLam[ki * d * m + i * m + a]!);
          this.addEntry(rd + i, k * b + a, -PmLam[k * d * m + i * m + a]!);
        }
      }
    }
  }

  /** J[r0.., c0..] += scale·X·Y with X (rows×d at xOff) and Y (d×cols at yOff). */
  private addProduct(
    r0: number,
    c0: number,
    rows: number,
    cols: number,
    X: Float64Array,
    xOff: number,
    Y: Float64Array,
    yOff: number,
    scale: number,
  ): void {
    const d = this.dim;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        let acc = 0;
        for (let l = 0; l < d; l++) acc += X[xOff + i * d + l]! * Y[yOff + l * cols + j]!;
        this.addEntry(r0 + i, c0 + j, scale * acc);
      }
    }
  }

  private addEntry(r: number, c: number, v: number): void {
    const J = this.J;
    const o = r * J.rowWidth + c - r + J.kl;
    J.rowBand[o] = J.rowBand[o]! + v;
  }

  /** A ← JᵀJ (band), grad ← JᵀF. */
  private formNormalEquations(): void {
    const { J, A, F, grad, size: N, blockSize: b } = this;
    const wJ = J.rowWidth;
    const klJ = J.kl;
    const wA = A.rowWidth;
    const klA = A.kl;
    const bandJ = J.rowBand;
    const bandA = A.rowBand;
    bandA.fill(0);
    grad.fill(0);
    for (let r = 0; r < N; r++) {
      const R = Math.floor(r / b);
      const c0 = Math.max(0, (R - 1) * b);
      const c1 = Math.min(N - 1, (R + 2) * b - 1);
      const base = r * wJ - r + klJ;
      const fr = F[r]!;
      for (let i = c0; i <= c1; i++) {
        const ji = bandJ[base + i]!;
        if (ji === 0) continue;
        grad[i] = grad[i]! + ji * fr;
        const rowA = i * wA - i + klA;
        for (let j = i; j <= c1; j++) {
          const jj = bandJ[base + j]!;
          if (jj !== 0) bandA[rowA + j] = bandA[rowA + j]! + ji * jj;
        }
      }
    }
    // mirror the upper triangle
    for (let i = 0; i < N; i++) {
      const jEnd = Math.min(N - 1, i + A.ku);
      for (let j = i + 1; j <= jEnd; j++)
        bandA[j * wA - j + klA + i] = bandA[i * wA - i + klA + j]!;
    }
  }

  /** out ← Jᵀv. */
  private transposeMatVec(out: Float64Array, v: Float64Array): void {
    const { J, size: N, blockSize: b } = this;
    const w = J.rowWidth;
    const kl = J.kl;
    out.fill(0);
    for (let r = 0; r < N; r++) {
      const R = Math.floor(r / b);
      const c0 = Math.max(0, (R - 1) * b);
      const c1 = Math.min(N - 1, (R + 2) * b - 1);
      const base = r * w - r + kl;
      const vr = v[r]!;
      for (let i = c0; i <= c1; i++) out[i] = out[i]! + J.rowBand[base + i]! * vr;
    }
  }
}

/** dst[0..len) ← src[off..off+len) (no subarray views: they allocate). */
function copy(dst: Float64Array, src: Float64Array, off: number, len: number): void {
  for (let i = 0; i < len; i++) dst[i] = src[off + i]!;
}

function maxAbs(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]!);
    if (!(a <= s)) s = a;
  }
  return s;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

// ---------------------------------------------------------------------------------------------
// SO(3) sub-Riemannian steering (S4)

/** l(ξ) = ½|ξ|² and Ψ(ξ) = ξ₃ on so(3) (spec 003 S4), with analytic derivatives. */
export function so3SteeringData(map: So3Map = 'cayley'): LieGroupOCPData {
  const psi: AlgebraFunction = {
    value: (x) => x[2]!,
    grad: (out) => {
      out[0] = 0;
      out[1] = 0;
      out[2] = 1;
      return out;
    },
    hess: (out) => out.fill(0),
  };
  return {
    group: SO3,
    tau: so3Retraction(map),
    l: (x) => 0.5 * (x[0]! * x[0]! + x[1]! * x[1]! + x[2]! * x[2]!),
    dl: (out, x) => {
      out[0] = x[0]!;
      out[1] = x[1]!;
      out[2] = x[2]!;
      return out;
    },
    d2l: (out) => {
      out.fill(0);
      out[0] = 1;
      out[4] = 1;
      out[8] = 1;
      return out;
    },
    Psi: [psi],
  };
}

function targetRotation(phi: number): Float64Array {
  return SO3.exp(new Float64Array(9), Float64Array.of(0, 0, phi));
}

/**
 * The S4 steering problem I → exp(φE3) with n increments as a {@link LieGroupBVP} (all inner nodes
 * at I and λ = 0 until {@link LieGroupBVP.setTrajectory} is called).
 *
 * @example
 * ```ts
 * const bvp = so3SteeringProblem({ phi: 0.5, n: 20 });
 * ```
 */
export function so3SteeringProblem(options: {
  readonly phi: number;
  readonly n: number;
  readonly map?: So3Map;
}): LieGroupBVP {
  checkPhi(options.phi);
  return new LieGroupBVP({
    ...so3SteeringData(options.map ?? 'cayley'),
    n: options.n,
    G0: SO3.identity(new Float64Array(9)),
    Gn: targetRotation(options.phi),
  });
}

function checkPhi(phi: number): void {
  if (!Number.isFinite(phi)) throw new DomainError('so3 steering: phi', phi, 'must be finite');
}

/**
 * The continuous sub-Riemannian extremal from I to exp(φE3) sampled at t_k = k/n (an O(h²)
 * initial guess for the discrete problem): G(t) = exp(t(ξ₀ + λe3)^)·exp(−λtÊ3) with
 * ξ₀ = a(cos α, sin α, 0), a = √(|φ|(4π − |φ|)), λ = sign(φ)(2π − |φ|), so that |ξ₀ + λe3| = 2π,
 * G(1) = exp(φE3), ξ(t) rotates about e3 at rate λ and the cost is ½a² = |φ|(4π − |φ|)/2
 * (spec 003 S4). Valid for 0 < |φ| ≤ 2π.
 *
 * @example
 * ```ts
 * const { R, lambda } = so3GeodesicTrajectory(1, 40); // R: 41 × 9, lambda: 40 values 2π − 1
 * ```
 */
export function so3GeodesicTrajectory(
  phi: number,
  n: number,
  alpha = 0,
): { R: Float64Array; lambda: Float64Array } {
  checkPhi(phi);
  if (!Number.isInteger(n) || n < 1)
    throw new DomainError('so3GeodesicTrajectory: n', n, 'must be an integer >= 1');
  const p = Math.abs(phi);
  if (!(p <= 2 * Math.PI)) throw new DomainError('so3GeodesicTrajectory: |phi|', p, 'must be ≤ 2π');
  const a = Math.sqrt(p * (4 * Math.PI - p));
  const lam = Math.sign(phi) * (2 * Math.PI - p);
  const R = new Float64Array((n + 1) * 9);
  const A = new Float64Array(9);
  const B = new Float64Array(9);
  const v = new Float64Array(3);
  for (let k = 0; k <= n; k++) {
    const t = k / n;
    v[0] = t * a * Math.cos(alpha);
    v[1] = t * a * Math.sin(alpha);
    v[2] = t * lam;
    SO3.exp(A, v);
    v[0] = 0;
    v[1] = 0;
    v[2] = -lam * t;
    SO3.exp(B, v);
    SO3.compose(R.subarray(k * 9, (k + 1) * 9), A, B);
  }
  R.set(targetRotation(phi), n * 9);
  return { R, lambda: new Float64Array(n).fill(lam) };
}

/** Progress report of {@link solveSo3Steering}. */
export interface So3SteeringProgress {
  /** Iteration number within the current stage (1-based). */
  readonly iteration: number;
  /** The method's residual norm after the iteration (see {@link So3SteeringResult.residualNorm}). */
  readonly residualNorm: number;
  /** E.g. `'full'`, `'shooting'`, `'continuation 2/5 (phi = 1.25), full'`. */
  readonly stage: string;
}

/** A starting point: the propagated shooting data, the continuous extremal, or explicit data. */
export type So3SteeringInitialGuess =
  | 'propagated'
  | 'geodesic'
  | { readonly u1: number; readonly u2: number; readonly lambda: number };

/** Options of {@link solveSo3Steering}. */
export interface So3SteeringOptions {
  /** Target angle φ: steer I to exp(φE3). */
  readonly phi: number;
  /** Number of increments n ≥ 2 (h = 1/n). */
  readonly n: number;
  /** Retraction. Default `'cayley'`. */
  readonly map?: So3Map;
  /** Tolerance on the method's residual (max-norm). Default 1e-10. */
  readonly tol?: number;
  /** Iteration cap per stage. Default 100. */
  readonly maxIterations?: number;
  /** `'full'` (default): banded LM over the trajectory; `'shooting'`: LM on (u1, u2, λ_1). */
  readonly method?: 'full' | 'shooting';
  /** A previous solution to warm-start from (its n may differ: it is then re-propagated). */
  readonly guess?: Pick<So3SteeringResult, 'n' | 'R' | 'lambda' | 'xi'>;
  /**
   * Starting point when there is no `guess`: `'propagated'` (default) marches the DEL from
   * (u1, u2, λ) = (1.0, 0.5, 0.3); `'geodesic'` samples the continuous extremal
   * ({@link so3GeodesicTrajectory}); or explicit (u1, u2, λ).
   */
  readonly initialGuess?: So3SteeringInitialGuess;
  /**
   * Continuation in φ: a number K solves at φ_j = 0.5 + j(φ − 0.5)/K, j = 0..K, each stage
   * warm-started from the previous one; a list gives the stages explicitly (φ is appended when
   * the list does not end with it).
   */
  readonly continuation?: number | readonly number[];
  /** Called after every iteration. */
  readonly onProgress?: (info: So3SteeringProgress) => void;
}

/** Result of {@link solveSo3Steering}. */
export interface So3SteeringResult {
  readonly phi: number;
  readonly n: number;
  readonly map: So3Map;
  readonly method: 'full' | 'shooting';
  readonly converged: boolean;
  /** Iterations over all stages. */
  readonly iterations: number;
  /**
   * The method's final residual: `'full'`: ‖F‖∞ of the DEL/constraint vector; `'shooting'`:
   * ‖τ⁻¹(G_targetᵀG_n)‖∞.
   */
  readonly residualNorm: number;
  /** ‖F‖∞ of the full BVP residual (DEL (6.1-e), Ψ = 0, G_n = target) at the returned trajectory. */
  readonly bvpResidual: number;
  /**
   * The discrete action Σ_k L̂(g_k) = h·Σ_k l(ξ_k) with h = 1/n, i.e. (1/n)Σ_k ½|ξ_k|² (spec 003
   * (6.1-c), S4); it converges at O(h²) to φ(4π − φ)/2 on the minimizing branch.
   */
  readonly cost: number;
  /** ξ_1..ξ_n, `n × 3`. */
  readonly xi: Float64Array;
  /** λ_1..λ_n. */
  readonly lambda: Float64Array;
  /** G_0..G_n, `(n+1) × 9` row-major. */
  readonly R: Float64Array;
  /** Residual norm before the first and after every iteration, over all stages. */
  readonly history: number[];
  /** The stages solved (one unless continuation was asked for). */
  readonly stages: readonly {
    readonly phi: number;
    readonly converged: boolean;
    readonly iterations: number;
    readonly cost: number;
  }[];
  /** Advice when not converged, or converged to a high-cost extremal. */
  readonly hint?: string;
}

const DEFAULT_SHOOTING_GUESS = { u1: 1.0, u2: 0.5, lambda: 0.3 } as const;

/** The minimal continuous sub-Riemannian cost d²/2 to exp(φE3) over the representatives φ + 2πj. */
function continuousMinimum(phi: number): number {
  let p = phi % (2 * Math.PI);
  if (p > Math.PI) p -= 2 * Math.PI;
  if (p < -Math.PI) p += 2 * Math.PI;
  const a = Math.abs(p);
  return (a * (4 * Math.PI - a)) / 2;
}

/** A trajectory state shared by the stages. */
interface TrajectoryState {
  R: Float64Array;
  lambda: Float64Array;
  xi1: Float64Array;
}

/**
 * March the DEL (6.1-e) from ξ_1 = (u1, u2, 0), λ_1 for n increments from G_0 = I; returns the
 * nodes, the multipliers and the ξ's, or null when a step fails.
 */
function propagate(
  ocp: LieGroupOCP,
  n: number,
  u1: number,
  u2: number,
  lambda1: number,
): { R: Float64Array; lambda: Float64Array; xi: Float64Array } | null {
  const R = new Float64Array((n + 1) * 9);
  const lambda = new Float64Array(n);
  const xiAll = new Float64Array(n * 3);
  const xi = Float64Array.of(u1, u2, 0);
  const lam = Float64Array.of(lambda1);
  const G = SO3.identity(new Float64Array(9));
  R.set(G, 0);
  try {
    for (let k = 1; k <= n; k++) {
      if (k > 1) ocp.stepLP(xi, lam, xi, lam, k - 1);
      xiAll.set(xi, (k - 1) * 3);
      lambda[k - 1] = lam[0]!;
      ocp.reconstruct(G, G, xi);
      R.set(G, k * 9);
    }
  } catch (e) {
    if (e instanceof GeomechError) return null;
    throw e;
  }
  return { R, lambda, xi: xiAll };
}

/**
 * Sub-Riemannian steering on SO(3) (spec 003 §8.1, S4; the CLI's `geomech solve so3-steering`):
 * minimize the discrete action h·Σ_k ½|ξ_k|² subject to ξ_k₃ = 0 (Ψ = ξ₃), g_k = τ(hξ_k),
 * G_0 = I, G_n = exp(φE3), h = 1/n, by the full banded Levenberg–Marquardt ({@link LieGroupBVP})
 * or by shooting on (u1, u2, λ_1), optionally with continuation in φ from 0.5 and warm starts.
 *
 * Never a silent wrong answer: a failed solve returns `converged: false` with its history and a
 * `hint`; a converged solve whose cost is far above the continuous minimum φ(4π − φ)/2 (a
 * high-cost extremal, cf. S4's 183.9 at φ = 1) also carries a hint.
 *
 * @example
 * ```ts
 * const r = solveSo3Steering({ phi: 1, n: 40 });
 * r.cost; // 5.798604 (spec 003 S4 table)
 * const warm = solveSo3Steering({ phi: 1, n: 40, guess: r }); // ≤ 2 iterations
 * ```
 */
export function solveSo3Steering(options: So3SteeringOptions): So3SteeringResult {
  const { phi, n } = options;
  checkPhi(phi);
  if (!Number.isInteger(n) || n < 2)
    throw new DomainError('solveSo3Steering: n', n, 'must be an integer >= 2');
  const map = options.map ?? 'cayley';
  const method = options.method ?? 'full';
  if (method !== 'full' && method !== 'shooting') {
    throw new DomainError('solveSo3Steering: method', method, "must be 'full' or 'shooting'");
  }
  const tol = options.tol ?? 1e-10;
  if (!(tol > 0)) throw new DomainError('solveSo3Steering: tol', tol, 'must be positive');
  const maxIterations = options.maxIterations ?? 100;
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new DomainError(
      'solveSo3Steering: maxIterations',
      maxIterations,
      'must be an integer >= 0',
    );
  }
  // stages of the continuation
  let phis: number[];
  const cont = options.continuation;
  if (cont === undefined) phis = [phi];
  else if (typeof cont === 'number') {
    if (!Number.isInteger(cont) || cont < 1)
      throw new DomainError('solveSo3Steering: continuation', cont, 'must be an integer >= 1');
    phis = Array.from({ length: cont + 1 }, (_, j) => 0.5 + ((phi - 0.5) * j) / cont);
    phis[cont] = phi;
  } else {
    phis = [...cont];
    for (const p of phis) checkPhi(p);
    if (phis.length === 0 || phis[phis.length - 1] !== phi) phis.push(phi);
  }
  const data = so3SteeringData(map);
  const h = 1 / n;
  const ocp = new LieGroupOCP({ ...data, h });
  const I3 = SO3.identity(new Float64Array(9));
  const bvp = new LieGroupBVP({ ...data, n, G0: I3, Gn: targetRotation(phis[0]!) });
  const history: number[] = [];
  const stages: { phi: number; converged: boolean; iterations: number; cost: number }[] = [];
  let iterations = 0;
  let state: TrajectoryState | null = null;
  let lastResidual = Number.NaN;
  let hint: string | undefined;

  // initial state
  const init = options.initialGuess ?? 'propagated';
  const guess = options.guess;
  const fromTriple = (u1: number, u2: number, l1: number): TrajectoryState | null => {
    const p = propagate(ocp, n, u1, u2, l1);
    return p ? { R: p.R, lambda: p.lambda, xi1: p.xi.slice(0, 3) } : null;
  };
  if (guess) {
    if (guess.n === n) {
      state = {
        R: Float64Array.from(guess.R),
        lambda: Float64Array.from(guess.lambda),
        xi1: guess.xi.slice(0, 3),
      };
    } else {
      state = fromTriple(guess.xi[0]!, guess.xi[1]!, guess.lambda[0]!);
    }
  } else if (init === 'geodesic') {
    const g = so3GeodesicTrajectory(phis[0]!, n);
    const x1 = new Float64Array(3);
    so3Retraction(map).tauInv(x1, g.R.subarray(9, 18));
    for (let i = 0; i < 3; i++) x1[i] = x1[i]! / h;
    state = { R: g.R, lambda: g.lambda, xi1: x1 };
  } else {
    const t = init === 'propagated' ? DEFAULT_SHOOTING_GUESS : init;
    if (!Number.isFinite(t.u1) || !Number.isFinite(t.u2) || !Number.isFinite(t.lambda)) {
      throw new DomainError('solveSo3Steering: initialGuess', JSON.stringify(t), 'must be finite');
    }
    state = fromTriple(t.u1, t.u2, t.lambda);
  }
  if (state === null) {
    return failure('the initial guess could not be propagated (a DEL step failed)');
  }

  for (let s = 0; s < phis.length; s++) {
    const ph = phis[s]!;
    const stage =
      phis.length > 1 ? `continuation ${s + 1}/${phis.length} (phi = ${ph}), ${method}` : method;
    const report = (iteration: number, residualNorm: number) => {
      options.onProgress?.({ iteration, residualNorm, stage });
    };
    const record = (iteration: number, residualNorm: number) => {
      history.push(residualNorm);
      report(iteration, residualNorm);
    };
    if (method === 'full') {
      const stageBvp = bvp;
      stageBvp.setEndpoints(I3, targetRotation(ph));
      stageBvp.setTrajectory(state.R.subarray(9, n * 9), state.lambda);
      history.push(stageBvp.residualNorm());
      const r = stageBvp.solve({ tol, maxIterations, onIteration: record });
      iterations += r.iterations;
      lastResidual = r.residualNorm;
      const nodes = stageBvp.nodes();
      const xi = stageBvp.velocities();
      state = { R: nodes, lambda: stageBvp.multipliers(), xi1: xi.slice(0, 3) };
      stages.push({
        phi: ph,
        converged: r.converged,
        iterations: r.iterations,
        cost: stageBvp.cost(),
      });
      if (!r.converged) {
        hint = `stage ${stage} stopped (${r.reason}) at residual ${r.residualNorm.toExponential(2)}`;
        break;
      }
    } else {
      const r = shoot(ocp, n, ph, state, tol, maxIterations, report, map);
      history.push(...r.history);
      iterations += r.iterations;
      lastResidual = r.residualNorm;
      if (r.state) state = r.state;
      stages.push({
        phi: ph,
        converged: r.converged,
        iterations: r.iterations,
        cost: r.state ? costOf(r.state.xiAll, h) : Number.NaN,
      });
      if (!r.converged || !r.state) {
        hint = `stage ${stage} stopped at residual ${r.residualNorm.toExponential(2)}`;
        break;
      }
    }
  }
  const converged = stages.length === phis.length && stages.every((st) => st.converged);
  // final trajectory data and certificate
  const check = bvp;
  check.setEndpoints(I3, targetRotation(phi));
  check.setTrajectory(state.R.subarray(9, n * 9), state.lambda);
  const xi = check.velocities();
  const cost = check.cost();
  const R = Float64Array.from(state.R);
  if (!converged) {
    hint =
      `${hint ?? 'did not converge'}; try continuation in phi from 0.5 (e.g. continuation: 8), ` +
      "initialGuess: 'geodesic', a warm start (guess: a nearby solution) or more iterations";
  } else {
    const best = continuousMinimum(phi);
    if (cost > 1.5 * best + 0.5) {
      hint =
        `converged to a high-cost extremal (cost ${cost.toPrecision(7)}, while the sub-Riemannian ` +
        `minimum is about ${best.toPrecision(7)}): it solves the discrete necessary conditions but ` +
        "is not the minimizer; use continuation from phi = 0.5 or initialGuess: 'geodesic'";
    }
  }
  const result: So3SteeringResult = {
    phi,
    n,
    map,
    method,
    converged,
    iterations,
    residualNorm: lastResidual,
    bvpResidual: check.residualNorm(),
    cost,
    xi,
    lambda: Float64Array.from(state.lambda),
    R,
    history,
    stages,
    ...(hint === undefined ? {} : { hint }),
  };
  return result;

  function failure(why: string): So3SteeringResult {
    return {
      phi,
      n,
      map,
      method,
      converged: false,
      iterations: 0,
      residualNorm: Number.NaN,
      bvpResidual: Number.NaN,
      cost: Number.NaN,
      xi: new Float64Array(n * 3),
      lambda: new Float64Array(n),
      R: new Float64Array((n + 1) * 9),
      history: [],
      stages: [],
      hint: `${why}; try initialGuess: 'geodesic' or continuation`,
    };
  }
}

function costOf(xiAll: Float64Array, h: number): number {
  let c = 0;
  for (let i = 0; i < xiAll.length; i++) c += 0.5 * xiAll[i]! * xiAll[i]!;
  return h * c;
}

/**
 * Shooting on (u1, u2, λ_1) with core's Levenberg–Marquardt (central-difference Jacobian) for the
 * three equations τ⁻¹(G_targetᵀG_n) = 0.
 */
function shoot(
  ocp: LieGroupOCP,
  n: number,
  phi: number,
  start: TrajectoryState,
  tol: number,
  maxIterations: number,
  report: (iteration: number, residualNorm: number) => void,
  map: So3Map,
): {
  converged: boolean;
  iterations: number;
  residualNorm: number;
  history: number[];
  state: (TrajectoryState & { xiAll: Float64Array }) | null;
} {
  const target = targetRotation(phi);
  const tau = so3Retraction(map);
  const M = new Float64Array(9);
  const F = (out: Float64Array, p: Float64Array): void => {
    const pr = propagate(ocp, n, p[0]!, p[1]!, p[2]!);
    if (!pr) {
      out.fill(Number.NaN);
      return;
    }
    SO3.between(M, target, pr.R.subarray(n * 9, (n + 1) * 9));
    try {
      tau.tauInv(out, M);
    } catch (e) {
      if (e instanceof GeomechError) out.fill(Number.NaN);
      else throw e;
    }
  };
  const Jfd = jacobianFromFiniteDifferences(F, 3, 3);
  let lastNorm = Number.NaN;
  let it = 0;
  const Fr = (out: Float64Array, p: Float64Array): void => {
    F(out, p);
    lastNorm = Math.max(Math.abs(out[0]!), Math.abs(out[1]!), Math.abs(out[2]!));
  };
  const history: number[] = [];
  const J = (out: Float64Array, p: Float64Array): void => {
    if (it > 0) {
      history.push(lastNorm);
      report(it, lastNorm);
    }
    it++;
    Jfd(out, p);
  };
  const p0 = Float64Array.of(start.xi1[0]!, start.xi1[1]!, start.lambda[0]!);
  const f0 = new Float64Array(3);
  Fr(f0, p0);
  history.push(lastNorm);
  if (!Number.isFinite(lastNorm)) {
    return { converged: false, iterations: 0, residualNorm: Number.NaN, history, state: null };
  }
  const lm = new LevenbergMarquardtSolver(3, 3, {
    tol,
    gradientTol: 0,
    stepTol: 1e-15,
    maxIterations,
    tau: 1e-6,
  });
  let r: { x: Float64Array; iterations: number };
  try {
    r = lm.solve(Fr, J, p0);
  } catch (e) {
    if (!(e instanceof GeomechError)) throw e;
    return { converged: false, iterations: it, residualNorm: lastNorm, history, state: null };
  }
  const p = r.x;
  const fin = new Float64Array(3);
  Fr(fin, p);
  if (lastNorm !== history[history.length - 1]) {
    history.push(lastNorm);
    report(Math.max(1, it), lastNorm);
  }
  const pr = propagate(ocp, n, p[0]!, p[1]!, p[2]!);
  const converged = lastNorm <= tol && pr !== null;
  return {
    converged,
    iterations: r.iterations,
    residualNorm: lastNorm,
    history,
    state: pr ? { R: pr.R, lambda: pr.lambda, xi1: pr.xi.slice(0, 3), xiAll: pr.xi } : null,
  };
}
