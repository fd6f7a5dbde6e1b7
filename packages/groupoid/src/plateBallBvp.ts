/**
 * The plate-ball boundary-value (steering) problem of spec 003 §8.2 and §5 (Section 5: critical
 * points of the constrained action sum with fixed product): roll the ball from (x, y, R)_start to
 * (x, y, R)_end in n steps of h = 1/n, minimizing Σ L̂(g_k) subject to the constraints (8), with
 * the rotation increments' product g_1⋯g_n = G_start⁻¹G_end (reconstruction G_k = G_{k−1}g_k,
 * spec 003 §12 item 3). The solution is a discrete trajectory with multipliers solving the DEL.
 *
 * Two methods:
 * - `'full'` (default): Newton over the whole trajectory. The global product constraint is made
 *   local by taking the cumulative rotations G_1..G_{n−1} as unknowns (G ← G·exp(δ̂)), with
 *   g_k = G_{k−1}ᵀG_k, G_0 = G_start, G_n = G_end fixed; unknowns per time step
 *   [λ_k (3), x_k, y_k, δ_k (3)] (the last step only λ_n), equations per step
 *   [φ(g_k)/h (3), DEL_k (5)] (the last only φ(g_n)/h): 8n − 5 of each. The Jacobian is banded
 *   (lower and upper bandwidth 12) and is factored by core's {@link BandLU} in O(n).
 * - `'shooting'`: unknowns (x_1, y_1, λ_1), forward steps to g_n, Gauss–Newton (minimum-norm
 *   QR steps, finite-difference Jacobian) on the 5 end conditions; for short horizons.
 *
 * Frame: body only (G_k = G_{k−1}g_k, the ω of (8) is the body angular velocity). The spatial
 * reading (g_k = G_{k−1}G_kᵀ, (8) with r → −r, c → −c) would change the unknown parametrization
 * (Ad_G-transported perturbations) and is not offered here; `simulatePlateBall` has it.
 *
 * @module
 */
import {
  BandLU,
  BandMatrix,
  DenseQR,
  DimensionError,
  DomainError,
  GeomechError,
  mul3,
  SO3,
  tauSkew,
} from '@geomech/core';
import { PLATE_BALL_ELEMENT_SIZE, PlateBall } from './plateBall.js';

/** Lower = upper bandwidth of the trajectory Jacobian in the per-step ordering. */
const BANDWIDTH = 12;

/** Smallest line-search step (halving from 1). */
const MIN_STEP = 2 ** -20;

/** Armijo constant of the backtracking line search on ½‖F‖². */
const ARMIJO = 1e-4;

/**
 * Rank-deficiency threshold, times ‖J‖∞/n²: when the smallest singular value estimate of J is
 * below it, J is treated as numerically rank deficient (a continuous symmetry, or the free
 * abnormal multiplier of a straight roll) and the Newton step is computed with a gauge (see
 * {@link solvePlateBall}). The natural smallest singular value of this second-order problem is
 * ≈ 0.1·‖J‖∞/n² (measured for n = 30…4000), a factor 100 above the threshold.
 */
const DEFLATION_RTOL = 1e-3;

/** Inverse-iteration sweeps (v ← (JᵀJ)⁻¹v) per Newton iteration for the near-null vector. */
const INVERSE_ITERATIONS = 2;

/** Tolerance of intermediate continuation problems (the last one uses `tol`). */
const CONTINUATION_TOL = 1e-8;

/** One end of the steering problem: contact point and orientation (row-major 3×3 rotation). */
export interface PlateBallEndpoint {
  readonly x: number;
  readonly y: number;
  /** Orientation G, row-major 3×3 (see {@link axisAngleToRotation}). */
  readonly R: ArrayLike<number>;
}

/** A trajectory in the result layout, e.g. a previous solution used as a warm start. */
export interface PlateBallTrajectory {
  /** x_0..x_n. */
  readonly x: ArrayLike<number>;
  /** y_0..y_n. */
  readonly y: ArrayLike<number>;
  /** G_0..G_n, (n+1)×9 row-major. */
  readonly R: ArrayLike<number>;
  /** λ_1..λ_n, n×3. */
  readonly lambda: ArrayLike<number>;
}

/** Progress report of {@link solvePlateBall} (one reused object: copy what you keep). */
export interface PlateBallProgress {
  /** Continuation stage (1..K; 1 without continuation). */
  stage: number;
  /** Iteration within the stage. */
  iteration: number;
  /** ‖F‖∞ of the current iterate. */
  residualNorm: number;
  /** Line-search step length of the last iteration (NaN before the first). */
  stepLength: number;
}

/** Options of {@link solvePlateBall}. */
export interface PlateBallBvpOptions {
  /** Ball radius. Default 1. */
  readonly r?: number;
  /** Plate angular velocity. Default 0. */
  readonly Omega?: number;
  /** Spin constant. Default 0. */
  readonly c?: number;
  /** Number of steps n ≥ 2 (h = 1/n). */
  readonly n: number;
  readonly start: PlateBallEndpoint;
  readonly end: PlateBallEndpoint;
  /** Converged when ‖F‖∞ ≤ tol (DEL rows in the compact form, constraint rows φ/h). Default 1e-10. */
  readonly tol?: number;
  /** Iteration cap per continuation stage. Default 100 ('full'), 50 ('shooting'). */
  readonly maxIterations?: number;
  /** Default `'full'`. */
  readonly method?: 'full' | 'shooting';
  /** A previous solution with the same n (warm start). */
  readonly guess?: PlateBallTrajectory;
  /**
   * Solve K problems with targets G_start·exp(s·log(G_start⁻¹G_end)) and end points
   * start + s·(end − start), s = 1/K, …, 1, each from the previous solution. Default 1.
   */
  readonly continuation?: number;
  /**
   * Orientation of the default loop guess: +1 counter-clockwise, −1 clockwise. Default: the sign
   * of ψ = (log(G_start⁻¹G_end))_z (ccw for ψ ≥ 0).
   */
  readonly loop?: 1 | -1;
  /** σ3 = ±1 of {@link PlateBall} (the λ3 sign convention). Default 1. */
  readonly lambda3Sign?: 1 | -1;
  /** Called after every iteration with a reused progress object. */
  readonly onProgress?: (progress: Readonly<PlateBallProgress>) => void;
}

/** Result of {@link solvePlateBall}. Never a silent wrong answer: check `converged`. */
export interface PlateBallBvpResult {
  readonly converged: boolean;
  readonly method: 'full' | 'shooting';
  /** Newton (or Gauss–Newton) iterations, summed over continuation stages. */
  readonly iterations: number;
  /** ‖F‖∞ of the full-trajectory residual (DEL rows + φ/h rows) at the returned trajectory. */
  readonly residualNorm: number;
  /** max_k ‖φ(g_k)‖∞ (constraints (8), unscaled). */
  readonly constraintNorm: number;
  /** Discrete action Σ_k L̂(g_k). */
  readonly cost: number;
  /** x_0..x_n. */
  readonly x: Float64Array;
  /** y_0..y_n. */
  readonly y: Float64Array;
  /** Reconstructed orientations G_0..G_n, (n+1)×9 row-major. */
  readonly R: Float64Array;
  /** λ_1..λ_n, n×3. */
  readonly lambda: Float64Array;
  /** Per iteration (all stages): residual norm before the step, step length, and σ_min/‖J‖ estimate. */
  readonly history: {
    readonly residualNorm: Float64Array;
    readonly stepLength: Float64Array;
    readonly sigmaMin: Float64Array;
  };
  /** True when a near-null direction of J was projected out in some iteration (non-isolated solution). */
  readonly deflated: boolean;
  /** What to try when not converged. */
  readonly hint?: string;
}

/**
 * The rotation matrix exp(v̂) of the rotation vector v = (ax, ay, az) (axis × angle), row-major;
 * used for the CLI's `--start x,y,ax,ay,az` and `--end`.
 *
 * @example
 * ```ts
 * axisAngleToRotation(0, 0, 0.3); // rotation by 0.3 rad about z: exp(0.3 E3)
 * ```
 */
export function axisAngleToRotation(ax: number, ay: number, az: number): Float64Array {
  for (const [name, v] of [
    ['ax', ax],
    ['ay', ay],
    ['az', az],
  ] as const) {
    if (!Number.isFinite(v))
      throw new DomainError(`axisAngleToRotation: ${name}`, v, 'must be finite');
  }
  return SO3.exp(new Float64Array(9), Float64Array.of(ax, ay, az));
}

function checkRotation(what: string, R: ArrayLike<number>): Float64Array {
  if (R.length !== 9) throw new DimensionError(`${what}: R`, 9, R.length);
  const m = Float64Array.from(R);
  let err = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += m[3 * k + i]! * m[3 * k + j]!;
      err = Math.max(err, Math.abs(s - (i === j ? 1 : 0)));
    }
  }
  if (!(err < 1e-8))
    throw new DomainError(`${what}: ‖RᵀR − I‖`, err, 'must be < 1e-8 (a rotation matrix)');
  const det =
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) -
    m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) +
    m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  if (!(det > 0)) throw new DomainError(`${what}: det R`, det, 'must be +1 (a rotation)');
  return m;
}

/** out ← aᵀ·b for row-major 3×3 blocks at offsets. */
function mulT3At(
  out: Float64Array,
  oOff: number,
  a: ArrayLike<number>,
  aOff: number,
  b: ArrayLike<number>,
  bOff: number,
): void {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[oOff + 3 * i + j] =
        a[aOff + i]! * b[bOff + j]! +
        a[aOff + 3 + i]! * b[bOff + 3 + j]! +
        a[aOff + 6 + i]! * b[bOff + 6 + j]!;
    }
  }
}

/** Boundary data of one (continuation) stage. */
interface Stage {
  readonly x0: number;
  readonly y0: number;
  readonly xn: number;
  readonly yn: number;
  readonly G0: Float64Array;
  readonly Gn: Float64Array;
}

type StopReason = 'converged' | 'maxIterations' | 'lineSearch' | 'singular' | 'branch';

/**
 * The full-trajectory Newton solver: owns the trajectory, its trial copy, the banded Jacobian and
 * its LU factorization; {@link iterate} allocates no O(n) storage.
 */
class TrajectorySolver {
  readonly n: number;
  readonly N: number;
  readonly h: number;
  readonly pb: PlateBall;
  readonly X: Float64Array;
  readonly Y: Float64Array;
  readonly G: Float64Array;
  readonly L: Float64Array;
  private readonly Xt: Float64Array;
  private readonly Yt: Float64Array;
  private readonly Gt: Float64Array;
  private readonly Lt: Float64Array;
  readonly F: Float64Array;
  private readonly Ft: Float64Array;
  private readonly dx: Float64Array;
  private readonly v: Float64Array;
  private readonly u: Float64Array;
  private readonly J: BandMatrix;
  private readonly lu: BandLU;
  private readonly el = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
  private readonly ej = new Float64Array(169);
  private readonly plus = new Float64Array(5);
  private readonly minus = new Float64Array(5);
  private readonly phi3 = new Float64Array(3);
  private readonly m9 = new Float64Array(9);
  private readonly d3 = new Float64Array(3);
  private readonly lam3 = new Float64Array(3);
  private readonly colOf = new Int32Array(13);
  private readonly colSign = new Float64Array(13);
  /** Results of the last {@link evaluate}. */
  cost = 0;
  constraintNorm = 0;
  branchOk = true;
  /** σ_min/‖J‖∞ estimate of the last iteration, and whether it deflated. */
  sigmaMin = Number.NaN;
  deflatedLast = false;
  lastStep = Number.NaN;

  constructor(n: number, r: number, Omega: number, c: number, lambda3Sign: 1 | -1) {
    this.n = n;
    this.h = 1 / n;
    this.N = 8 * n - 5;
    this.pb = new PlateBall({ h: this.h, r, Omega, c, lambda3Sign });
    this.X = new Float64Array(n + 1);
    this.Y = new Float64Array(n + 1);
    this.G = new Float64Array(9 * (n + 1));
    this.L = new Float64Array(3 * n);
    this.Xt = new Float64Array(n + 1);
    this.Yt = new Float64Array(n + 1);
    this.Gt = new Float64Array(9 * (n + 1));
    this.Lt = new Float64Array(3 * n);
    this.F = new Float64Array(this.N);
    this.Ft = new Float64Array(this.N);
    this.dx = new Float64Array(this.N);
    this.v = new Float64Array(this.N);
    this.u = new Float64Array(this.N);
    resetVector(this.v);
    const bw = Math.min(BANDWIDTH, this.N - 1);
    this.J = new BandMatrix(this.N, bw, bw);
    this.lu = new BandLU(this.N, bw, bw);
  }

  /** el ← element k (1..n) of the trajectory (X, Y, G), g_k = G_{k−1}ᵀG_k. */
  private element(k: number, X: Float64Array, Y: Float64Array, G: Float64Array): Float64Array {
    const el = this.el;
    el[0] = X[k - 1]!;
    el[1] = Y[k - 1]!;
    el[2] = X[k]!;
    el[3] = Y[k]!;
    mulT3At(el, 4, G, 9 * (k - 1), G, 9 * k);
    return el;
  }

  /**
   * out ← F(X, Y, G, L), the 8n − 5 residuals; sets cost, constraintNorm and branchOk, and returns
   * ‖F‖∞ (NaN when not finite).
   */
  evaluate(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    G: Float64Array,
    L: Float64Array,
  ): number {
    const { n, pb, plus, minus, phi3 } = this;
    const ih = 1 / this.h;
    const ihalf = 0.5 * ih;
    let cost = 0;
    let cnorm = 0;
    let branch = true;
    let norm = 0;
    for (let k = 1; k <= n; k++) {
      const el = this.element(k, X, Y, G);
      if (!(el[4]! + el[8]! + el[12]! > 1)) branch = false;
      const lam = this.lam3;
      lam[0] = L[3 * k - 3]!;
      lam[1] = L[3 * k - 2]!;
      lam[2] = L[3 * k - 1]!;
      pb.phi(phi3, el);
      const row = 8 * (k - 1);
      for (let i = 0; i < 3; i++) {
        const p = phi3[i]!;
        out[row + i] = p * ih;
        const a = Math.abs(p);
        if (!(a <= cnorm)) cnorm = a;
      }
      const dx = el[2]! - el[0]!;
      const dy = el[3]! - el[1]!;
      cost += (dx * dx + dy * dy) * ihalf; // L̂(g_k)
      if (k >= 2) {
        pb.legendreMinus(minus, el, lam);
        const rowE = 8 * (k - 2) + 3;
        for (let i = 0; i < 5; i++) out[rowE + i] = minus[i]! - plus[i]!;
      }
      if (k < n) pb.legendrePlus(plus, el, lam);
    }
    for (let i = 0; i < this.N; i++) {
      const a = Math.abs(out[i]!);
      if (!(a <= norm)) norm = a;
    }
    this.cost = cost;
    this.constraintNorm = cnorm;
    this.branchOk = branch;
    return norm;
  }

  /** Assembles the banded Jacobian of F at the current iterate. */
  private assemble(): void {
    const { n, J, ej, N, colOf, colSign } = this;
    const band = J.rowBand;
    const kl = J.kl;
    const w = J.rowWidth;
    band.fill(0);
    // element variables: x0 y0 x1 y1 ρ(3) ℓ(3) λ(3); element rows: P⁺ Π⁺ P⁻ Π⁻ φ/h
    for (let k = 1; k <= n; k++) {
      const el = this.element(k, this.X, this.Y, this.G);
      const lam = this.lam3;
      lam[0] = this.L[3 * k - 3]!;
      lam[1] = this.L[3 * k - 2]!;
      lam[2] = this.L[3 * k - 1]!;
      this.pb.elementJacobian(ej, el, lam);
      const prev = k >= 2 ? 8 * (k - 2) : -1; // block of x_{k−1}, y_{k−1}, δ_{k−1}
      const cur = 8 * (k - 1); // block of λ_k, x_k, y_k, δ_k
      const hasCur = k <= n - 1;
      // global column (−1: fixed boundary data) and chain-rule sign of each element variable
      for (let ev = 0; ev < 13; ev++) colSign[ev] = 1;
      colOf[0] = prev >= 0 ? prev + 3 : -1; // x_{k−1}
      colOf[1] = prev >= 0 ? prev + 4 : -1; // y_{k−1}
      colOf[2] = hasCur ? cur + 3 : -1; // x_k
      colOf[3] = hasCur ? cur + 4 : -1; // y_k
      for (let a = 0; a < 3; a++) {
        colOf[4 + a] = hasCur ? cur + 5 + a : -1; // ρ = δ_k
        colOf[7 + a] = prev >= 0 ? prev + 5 + a : -1; // ℓ = −δ_{k−1}
        colSign[7 + a] = -1;
        colOf[10 + a] = cur + a; // λ_k
      }
      // element rows → global rows (and sign)
      for (let er = 0; er < 13; er++) {
        let row: number;
        let sign: number;
        if (er >= 10) {
          row = cur + (er - 10);
          sign = 1;
        } else if (er < 5) {
          if (!hasCur) continue;
          row = cur + 3 + er;
          sign = -1;
        } else {
          if (prev < 0) continue;
          row = prev + 3 + (er - 5);
          sign = 1;
        }
        if (row >= N) continue;
        const o = er * 13;
        const base = row * w - row + kl;
        for (let ev = 0; ev < 13; ev++) {
          const col = colOf[ev]!;
          if (col < 0) continue;
          const v = ej[o + ev]!;
          if (v !== 0) band[base + col] = band[base + col]! + sign * colSign[ev]! * v;
        }
      }
    }
  }

  /** trial ← current ⊕ α·dx (x, y additive, G_k ← G_k·exp(αδ_k̂), λ additive). */
  private trial(alpha: number): void {
    const { n, X, Y, G, L, Xt, Yt, Gt, Lt, dx, d3, m9 } = this;
    Xt.set(X);
    Yt.set(Y);
    Gt.set(G);
    for (let k = 1; k <= n; k++) {
      const o = 8 * (k - 1);
      for (let i = 0; i < 3; i++) Lt[3 * (k - 1) + i] = L[3 * (k - 1) + i]! + alpha * dx[o + i]!;
      if (k < n) {
        Xt[k] = X[k]! + alpha * dx[o + 3]!;
        Yt[k] = Y[k]! + alpha * dx[o + 4]!;
        d3[0] = alpha * dx[o + 5]!;
        d3[1] = alpha * dx[o + 6]!;
        d3[2] = alpha * dx[o + 7]!;
        SO3.exp(m9, d3);
        mul3(Gt, G, m9, 9 * k, 9 * k, 0);
      }
    }
  }

  /** Accepts the trial iterate. */
  private accept(): void {
    this.X.set(this.Xt);
    this.Y.set(this.Yt);
    this.G.set(this.Gt);
    this.L.set(this.Lt);
    this.F.set(this.Ft);
  }

  /**
   * One Newton iteration from the current iterate (F up to date): assemble, factor, solve,
   * deflate a near-null direction, backtrack. Returns the new ‖F‖∞ or a stop reason.
   */
  iterate(): number | StopReason {
    const { N, F, dx, lu, v, u } = this;
    this.assemble();
    lu.factor(this.J);
    this.deflatedLast = false;
    if (lu.isSingular) return 'singular';
    for (let i = 0; i < N; i++) dx[i] = -F[i]!;
    // smallest singular pair of J by inverse iteration (warm-started from the previous v):
    // u ← J⁻ᵀv/‖·‖ (left), v ← J⁻¹u/‖·‖ (right), σ ≈ 1/√(‖J⁻ᵀv‖‖J⁻¹u‖)
    let nu = 1;
    let nv = 1;
    try {
      for (let t = 0; t < INVERSE_ITERATIONS; t++) {
        lu.solveTranspose(v, u);
        nu = normalize(u);
        lu.solve(u, v);
        nv = normalize(v);
      }
    } catch (e) {
      // an overflowing solve: J is singular to working precision
      if (!(e instanceof GeomechError)) throw e;
      nu = Number.POSITIVE_INFINITY;
      nv = Number.POSITIVE_INFINITY;
    }
    if (!(Number.isFinite(nu) && Number.isFinite(nv))) {
      resetVector(v);
      return 'singular';
    }
    this.sigmaMin = 1 / Math.sqrt(nu * nv) / this.J.normInf();
    if (this.sigmaMin * this.n * this.n < DEFLATION_RTOL) {
      if (!this.gaugeStep()) return 'singular';
      this.deflatedLast = true;
    } else {
      try {
        lu.solve(dx, dx);
      } catch (e) {
        if (e instanceof GeomechError) return 'singular';
        throw e;
      }
    }
    return this.lineSearch();
  }

  /**
   * The Newton step of a numerically rank-deficient J (near-null pair u, v): pin the unknown j
   * with the largest |v_j| (gauge Δ_j = 0) in place of the equation i (within the band) with the
   * largest |u_i|, the one implied by the others up to F's component along the cokernel, solve
   * the modified banded system, and remove the v-component: Δ ← Δ − (vᵀΔ)v, the minimum-norm
   * solution of the consistent part (the truncated-SVD step J⁺F, i.e. the μ → 0 limit of
   * Levenberg–Marquardt), without forming JᵀJ.
   */
  private gaugeStep(): boolean {
    const { N, F, dx, lu, v, u, J } = this;
    let j = 0;
    for (let k = 1; k < N; k++) if (Math.abs(v[k]!) > Math.abs(v[j]!)) j = k;
    const kl = J.kl;
    const w = J.rowWidth;
    let i = Math.max(0, j - kl);
    for (let k = i + 1; k <= Math.min(N - 1, j + J.ku); k++)
      if (Math.abs(u[k]!) > Math.abs(u[i]!)) i = k;
    if (!(Math.abs(u[i]!) > 0 && Math.abs(v[j]!) > 0)) return false;
    const band = J.rowBand;
    let scale = 0;
    for (let t = 0; t < w; t++) scale = Math.max(scale, Math.abs(band[i * w + t]!));
    band.fill(0, i * w, (i + 1) * w);
    band[i * w + j - i + kl] = scale > 0 ? scale : 1;
    lu.factor(J);
    if (lu.isSingular) return false;
    for (let k = 0; k < N; k++) dx[k] = -F[k]!;
    dx[i] = 0;
    try {
      lu.solve(dx, dx);
    } catch (e) {
      if (e instanceof GeomechError) return false;
      throw e;
    }
    let s = 0;
    for (let k = 0; k < N; k++) s += v[k]! * dx[k]!;
    for (let k = 0; k < N; k++) dx[k] = dx[k]! - s * v[k]!;
    return true;
  }

  /**
   * At a converged iterate: when J has a near-null right singular vector supported on the
   * multipliers only (the free λ2 of a straight roll, S6), F is affine along it, and the
   * multipliers are replaced by the minimum-norm ones, λ ← λ − (vᵀλ)v (kept only if ‖F‖∞ stays
   * ≤ tol). Returns true when it changed λ.
   */
  minimumNormMultipliers(tol: number): boolean {
    const { lu, v, u, n } = this;
    this.assemble();
    lu.factor(this.J);
    if (lu.isSingular) return false;
    let nu = 1;
    let nv = 1;
    try {
      for (let t = 0; t < 2 * INVERSE_ITERATIONS; t++) {
        lu.solveTranspose(v, u);
        nu = normalize(u);
        lu.solve(u, v);
        nv = normalize(v);
      }
    } catch (e) {
      if (e instanceof GeomechError) return false;
      throw e;
    }
    const sigma = 1 / Math.sqrt(nu * nv) / this.J.normInf();
    if (!(sigma * n * n < DEFLATION_RTOL)) return false;
    // λ entries: 8(k−1) + 0..2
    let onLambda = 0;
    let dot = 0;
    for (let k = 1; k <= n; k++) {
      for (let a = 0; a < 3; a++) {
        const vi = v[8 * (k - 1) + a]!;
        onLambda += vi * vi;
        dot += vi * this.L[3 * (k - 1) + a]!;
      }
    }
    if (!(onLambda > 1 - 1e-8)) return false;
    this.Lt.set(this.L);
    for (let k = 1; k <= n; k++) {
      for (let a = 0; a < 3; a++)
        this.L[3 * (k - 1) + a] = this.L[3 * (k - 1) + a]! - dot * v[8 * (k - 1) + a]!;
    }
    const fn = this.evaluate(this.Ft, this.X, this.Y, this.G, this.L);
    if (fn <= tol) {
      this.F.set(this.Ft);
      return true;
    }
    this.L.set(this.Lt);
    this.evaluate(this.F, this.X, this.Y, this.G, this.L);
    return false;
  }

  /** Backtracking (Armijo) line search on ½‖F‖², branch guard on every trial increment. */
  private lineSearch(): number | StopReason {
    const { N, F, Ft } = this;
    let f2 = 0;
    for (let i = 0; i < N; i++) f2 += F[i]! * F[i]!;
    let alpha = 1;
    let sawBranch = false;
    while (alpha >= MIN_STEP) {
      this.trial(alpha);
      const tn = this.evaluate(Ft, this.Xt, this.Yt, this.Gt, this.Lt);
      if (Number.isFinite(tn) && this.branchOk) {
        let t2 = 0;
        for (let i = 0; i < N; i++) t2 += Ft[i]! * Ft[i]!;
        if (t2 <= (1 - 2 * ARMIJO * alpha) * f2) {
          this.accept();
          this.lastStep = alpha;
          return tn;
        }
      } else if (!this.branchOk) sawBranch = true;
      alpha *= 0.5;
    }
    // restore the diagnostics of the current iterate
    this.evaluate(Ft, this.X, this.Y, this.G, this.L);
    this.lastStep = 0;
    return sawBranch ? 'branch' : 'lineSearch';
  }
}

/** A deterministic, non-degenerate unit start vector for the inverse iteration. */
function resetVector(v: Float64Array): void {
  for (let i = 0; i < v.length; i++) v[i] = Math.cos(1 + 2.399963229728653 * i);
  normalize(v);
}

function normalize(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const nrm = Math.sqrt(s);
  const inv = 1 / nrm;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return nrm;
}

/** ψ = z-component of log(G0ᵀ Gn). */
function verticalAngle(G0: Float64Array, Gn: Float64Array): number {
  const rel = new Float64Array(9);
  mulT3At(rel, 0, G0, 0, Gn, 0);
  return SO3.log(new Float64Array(3), rel)[2]!;
}

/**
 * The default initial guess (spec 003 §10 S7): contact points on the straight segment from start
 * to end plus a circle loop x = ρ sin 2πt, y = ρ(1 − cos 2πt) (times `loop` for the y part when
 * clockwise), ρ = r·sqrt(|ψ|/π) (the loop area that produces the holonomy ψ about the vertical);
 * λ = 0; increments g_k = τ_skew(s_k) from (8), G_k = G_0·g_1⋯g_k·exp((k/n)·C) with the
 * correction C = log((g_1⋯g_n)⁻¹G_0⁻¹G_n) spread evenly so that G_n is exact.
 */
function defaultGuess(
  solver: TrajectorySolver,
  stage: Stage,
  r: number,
  loop: 1 | -1 | undefined,
): void {
  const { n, X, Y, G, L, pb } = solver;
  const psi = verticalAngle(stage.G0, stage.Gn);
  const orient = loop ?? (psi >= 0 ? 1 : -1);
  const rho = Math.abs(r) * Math.sqrt(Math.abs(psi) / Math.PI);
  for (let k = 0; k <= n; k++) {
    const t = k / n;
    X[k] = stage.x0 + t * (stage.xn - stage.x0) + rho * Math.sin(2 * Math.PI * t);
    Y[k] = stage.y0 + t * (stage.yn - stage.y0) + orient * rho * (1 - Math.cos(2 * Math.PI * t));
  }
  X[n] = stage.xn;
  Y[n] = stage.yn;
  L.fill(0);
  // increments from the constraints
  const P = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
  const el = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
  const inc = new Float64Array(9 * (n + 1));
  for (let k = 1; k <= n; k++) {
    el[0] = X[k - 1]!;
    el[1] = Y[k - 1]!;
    el[2] = X[k]!;
    el[3] = Y[k]!;
    const s = Float64Array.of(
      -(el[3]! - el[1]! - 0.5 * pb.h * pb.Omega * (el[0]! + el[2]!)) / pb.r,
      (el[2]! - el[0]! + 0.5 * pb.h * pb.Omega * (el[1]! + el[3]!)) / pb.r,
      pb.h * pb.c,
    );
    const n2 = s[0]! * s[0]! + s[1]! * s[1]! + s[2]! * s[2]!;
    if (n2 >= 1) {
      const f = 0.999 / Math.sqrt(n2); // keep the guess on the branch; Newton fixes (8)
      for (let i = 0; i < 3; i++) s[i] = s[i]! * f;
    }
    tauSkew(inc.subarray(9 * k, 9 * k + 9), s);
    mul3(P, P, inc, 0, 0, 9 * k);
  }
  const target = new Float64Array(9);
  mulT3At(target, 0, stage.G0, 0, stage.Gn, 0); // G0ᵀGn
  const corr = new Float64Array(9);
  mulT3At(corr, 0, P, 0, target, 0); // Pᵀ G0ᵀ Gn
  const C = SO3.log(new Float64Array(3), corr);
  G.set(stage.G0, 0);
  const Pk = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
  const tmp = new Float64Array(9);
  for (let k = 1; k < n; k++) {
    mul3(Pk, Pk, inc, 0, 0, 9 * k);
    const ck = Float64Array.of((C[0]! * k) / n, (C[1]! * k) / n, (C[2]! * k) / n);
    SO3.exp(tmp, ck);
    mul3(tmp, Pk, tmp);
    mul3(G, stage.G0, tmp, 9 * k, 0, 0);
  }
  G.set(stage.Gn, 9 * n);
}

/** Copies a user trajectory (same n) into the solver; the end data come from `stage`. */
function loadGuess(solver: TrajectorySolver, guess: PlateBallTrajectory, stage: Stage): void {
  const { n } = solver;
  if (guess.x.length !== n + 1)
    throw new DimensionError('solvePlateBall: guess.x', n + 1, guess.x.length);
  if (guess.y.length !== n + 1)
    throw new DimensionError('solvePlateBall: guess.y', n + 1, guess.y.length);
  if (guess.R.length !== 9 * (n + 1))
    throw new DimensionError('solvePlateBall: guess.R', 9 * (n + 1), guess.R.length);
  if (guess.lambda.length !== 3 * n)
    throw new DimensionError('solvePlateBall: guess.lambda', 3 * n, guess.lambda.length);
  for (let i = 0; i <= n; i++) {
    solver.X[i] = guess.x[i]!;
    solver.Y[i] = guess.y[i]!;
  }
  for (let i = 0; i < 9 * (n + 1); i++) solver.G[i] = guess.R[i]!;
  for (let i = 0; i < 3 * n; i++) solver.L[i] = guess.lambda[i]!;
  applyEnds(solver, stage);
}

function applyEnds(solver: TrajectorySolver, stage: Stage): void {
  const { n } = solver;
  solver.X[0] = stage.x0;
  solver.Y[0] = stage.y0;
  solver.X[n] = stage.xn;
  solver.Y[n] = stage.yn;
  solver.G.set(stage.G0, 0);
  solver.G.set(stage.Gn, 9 * n);
}

/** The boundary data of stage j of K (s = j/K). */
function stageData(
  j: number,
  K: number,
  x0: number,
  y0: number,
  xn: number,
  yn: number,
  G0: Float64Array,
  Gn: Float64Array,
): Stage {
  if (j === K) return { x0, y0, xn, yn, G0, Gn };
  const s = j / K;
  const rel = new Float64Array(9);
  mulT3At(rel, 0, G0, 0, Gn, 0);
  const v = SO3.log(new Float64Array(3), rel);
  for (let i = 0; i < 3; i++) v[i] = v[i]! * s;
  const Gs = mul3(new Float64Array(9), G0, SO3.exp(new Float64Array(9), v));
  return { x0, y0, xn: x0 + s * (xn - x0), yn: y0 + s * (yn - y0), G0, Gn: Gs };
}

const HINTS: Record<Exclude<StopReason, 'converged'>, string> = {
  maxIterations:
    'iteration limit reached; raise maxIterations, use continuation (K intermediate problems) or a warm start',
  lineSearch:
    'the line search found no decrease of ‖F‖ (a local minimum of the residual or a poor guess): try continuation, the opposite loop orientation (loop: −1/+1) or a warm start',
  singular:
    'the trajectory Jacobian is exactly singular (regularity lost); perturb the guess or change n',
  branch:
    'every step would push an increment off the branch |hω| < 1 (rotation angle ≥ π/2): increase n or reduce the displacement',
};

/**
 * Solves the plate-ball steering problem (spec 003 §8.2 "Boundary-value problem", §5; backs
 * `geomech solve plate-ball`): find contact points x_1..x_{n−1}, y_1..y_{n−1}, orientations
 * G_1..G_{n−1} and multipliers λ_1..λ_n such that every g_k = G_{k−1}ᵀG_k satisfies (8) and the
 * DEL hold for k = 1..n−1, with (x_0, y_0, G_0) = start and (x_n, y_n, G_n) = end, h = 1/n.
 *
 * **'full'** (default): Newton on the 8n − 5 residuals `[φ(g_k)/h; P⁻(g_{k+1}) − P⁺(g_k);
 * Π⁻(g_{k+1}) − Π⁺(g_k)]` over the whole trajectory. Unknowns ordered per time step so that the
 * Jacobian is banded (bandwidths 12/12); core's {@link BandLU} factors it in O(n). The band
 * matrix, its LU workspace, the trajectory, its trial copy and every vector are preallocated: an
 * iteration allocates no O(n) storage (measured ≈ 2 KB of V8 number boxing per iteration,
 * independent of n). Backtracking (Armijo) line search on ½‖F‖²,
 * which also rejects any trial with an increment off the branch tr g_k > 1 (|hω| < 1).
 *
 * *Minimum-norm steps for non-isolated solutions.* With symmetric boundary data (start and end
 * at the origin, G_start⁻¹G_end about the vertical) the SO(2) Noether symmetry (spec 003 §6)
 * makes the solutions a curve, and a straight roll (Ω = c = 0) leaves λ2 free (S6): J is
 * singular at the solution. We do not use Levenberg–Marquardt on JᵀJ + μI: the normal equations
 * square κ(J), which grows like n² for this second-order problem (σ_min/‖J‖∞ ≈ 0.1/n² measured,
 * κ ≈ 1e7 at n = 1000), and would lose all digits at large n. Instead every iteration estimates
 * the smallest singular pair (u, v) of J by two sweeps of inverse iteration with the LU factors
 * (solveTranspose + solve, warm-started from the previous v; four band solves). When
 * σ_min < 1e-3·‖J‖∞/n² (a hundred times below the natural value) J is treated as rank deficient:
 * the equation i with the largest |u_i| (implied by the others up to F's cokernel component) is
 * replaced by the gauge Δ_j = 0 for the unknown j with the largest |v_j| within the band, the
 * modified banded system is factored and solved, and the v-component is removed,
 * Δ ← Δ − (vᵀΔ)v. That is the truncated-SVD step −J⁺F (the μ → 0 limit of LM) computed stably
 * even when J is singular to working precision. After convergence, when the null vector lives on
 * the multipliers alone (S6), F is affine along it and λ is replaced by the minimum-norm
 * multipliers: the straight roll returns λ = 0. Along the SO(2) orbit the returned point is the
 * one the iteration reached (the orbit is curved; no projection).
 *
 * **'shooting'**: unknowns (x_1, y_1, λ_1), n − 1 forward steps of {@link PlateBall.stepForward},
 * Gauss–Newton with minimum-norm QR steps (finite-difference Jacobian) and a line search on the
 * 5 end conditions (x_n, y_n, log(G_endᵀG_n)), to 0.1·tol·h. Only for short horizons: the map from
 * the initial data to the end is exponentially sensitive, and increments leave |s| < 1.
 *
 * Non-convergence returns `converged: false` with the iteration history, the residual norm and a
 * `hint`: never a silent wrong answer.
 *
 * @throws DomainError / DimensionError for bad input (n < 2, non-rotation R, wrong guess shape).
 *
 * @example
 * ```ts
 * const sol = solvePlateBall({
 *   r: 1, Omega: 0.5, c: 0, n: 30,
 *   start: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0) },
 *   end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
 *   loop: 1,
 * });
 * sol.converged; // true
 * sol.cost;      // 3.2475… (S7)
 * ```
 */
export function solvePlateBall(options: PlateBallBvpOptions): PlateBallBvpResult {
  const r = options.r ?? 1;
  const Omega = options.Omega ?? 0;
  const c = options.c ?? 0;
  const { n } = options;
  if (!Number.isInteger(n) || n < 2)
    throw new DomainError('solvePlateBall: n', n, 'must be an integer >= 2');
  const tol = options.tol ?? 1e-10;
  if (!(tol >= 0)) throw new DomainError('solvePlateBall: tol', tol, 'must be >= 0');
  const method = options.method ?? 'full';
  if (method !== 'full' && method !== 'shooting')
    throw new DomainError('solvePlateBall: method', method, "must be 'full' or 'shooting'");
  const maxIterations = options.maxIterations ?? (method === 'full' ? 100 : 50);
  if (!Number.isInteger(maxIterations) || maxIterations < 0)
    throw new DomainError(
      'solvePlateBall: maxIterations',
      maxIterations,
      'must be an integer >= 0',
    );
  const K = options.continuation ?? 1;
  if (!Number.isInteger(K) || K < 1)
    throw new DomainError('solvePlateBall: continuation', K, 'must be an integer >= 1');
  const loop = options.loop;
  if (loop !== undefined && loop !== 1 && loop !== -1)
    throw new DomainError('solvePlateBall: loop', loop, 'must be 1 or -1');
  for (const [what, v] of [
    ['start.x', options.start.x],
    ['start.y', options.start.y],
    ['end.x', options.end.x],
    ['end.y', options.end.y],
  ] as const) {
    if (!Number.isFinite(v)) throw new DomainError(`solvePlateBall: ${what}`, v, 'must be finite');
  }
  const G0 = checkRotation('solvePlateBall: start', options.start.R);
  const Gn = checkRotation('solvePlateBall: end', options.end.R);
  const solver = new TrajectorySolver(n, r, Omega, c, options.lambda3Sign ?? 1);
  const cap = K * (maxIterations + 1);
  const histR = new Float64Array(cap);
  const histA = new Float64Array(cap);
  const histS = new Float64Array(cap);
  let hcount = 0;
  const progress: PlateBallProgress = {
    stage: 1,
    iteration: 0,
    residualNorm: Number.NaN,
    stepLength: Number.NaN,
  };
  let total = 0;
  let deflated = false;
  let reason: StopReason = 'converged';
  let fNorm = Number.NaN;
  for (let j = 1; j <= K; j++) {
    const stage = stageData(
      j,
      K,
      options.start.x,
      options.start.y,
      options.end.x,
      options.end.y,
      G0,
      Gn,
    );
    const stageTol = j === K ? tol : Math.max(tol, CONTINUATION_TOL);
    if (j === 1) {
      if (options.guess) loadGuess(solver, options.guess, stage);
      else defaultGuess(solver, stage, r, loop);
    } else applyEnds(solver, stage);
    progress.stage = j;
    if (method === 'shooting') {
      const out = shoot(solver, stage, stageTol, maxIterations, progress, options.onProgress);
      for (let i = 0; i < out.history.length && hcount < cap; i++) {
        histR[hcount] = out.history[i]!;
        histA[hcount] = out.steps[i] ?? Number.NaN;
        histS[hcount] = Number.NaN;
        hcount++;
      }
      total += out.iterations;
      reason = out.reason;
      fNorm = solver.evaluate(solver.F, solver.X, solver.Y, solver.G, solver.L);
      if (reason !== 'converged') break;
      continue;
    }
    fNorm = solver.evaluate(solver.F, solver.X, solver.Y, solver.G, solver.L);
    if (!solver.branchOk || !Number.isFinite(fNorm)) {
      reason = 'branch';
      break;
    }
    reason = 'maxIterations';
    for (let it = 0; ; it++) {
      if (fNorm <= stageTol) {
        reason = 'converged';
        break;
      }
      if (it >= maxIterations) break;
      const before = fNorm;
      const out = solver.iterate();
      total++;
      if (hcount < cap) {
        histR[hcount] = before;
        histA[hcount] = solver.lastStep;
        histS[hcount] = solver.sigmaMin;
        hcount++;
      }
      if (solver.deflatedLast) deflated = true;
      if (typeof out !== 'number') {
        reason = out;
        break;
      }
      fNorm = out;
      if (options.onProgress) {
        progress.iteration = it + 1;
        progress.residualNorm = fNorm;
        progress.stepLength = solver.lastStep;
        options.onProgress(progress);
      }
    }
    if (reason !== 'converged') break;
  }
  // final diagnostics on the returned trajectory
  fNorm = solver.evaluate(solver.F, solver.X, solver.Y, solver.G, solver.L);
  if (reason === 'converged' && fNorm <= tol && solver.minimumNormMultipliers(tol)) {
    deflated = true;
    fNorm = solver.evaluate(solver.F, solver.X, solver.Y, solver.G, solver.L);
  }
  const converged = reason === 'converged' && fNorm <= tol;
  const result: PlateBallBvpResult = {
    converged,
    method,
    iterations: total,
    residualNorm: fNorm,
    constraintNorm: solver.constraintNorm,
    cost: solver.cost,
    x: solver.X.slice(),
    y: solver.Y.slice(),
    R: solver.G.slice(),
    lambda: solver.L.slice(),
    history: {
      residualNorm: histR.slice(0, hcount),
      stepLength: histA.slice(0, hcount),
      sigmaMin: histS.slice(0, hcount),
    },
    deflated,
    ...(converged
      ? {}
      : {
          hint:
            reason === 'converged'
              ? 'the continuation stages converged but the final residual exceeds tol'
              : method === 'shooting' && reason !== 'maxIterations'
                ? `shooting failed (${reason}): the end map is too sensitive or leaves |hω| < 1; use method 'full'`
                : HINTS[reason],
        }),
  };
  return result;
}

/**
 * Shooting on (x_1, y_1, λ_1) from the solver's current trajectory (its x_1, y_1, λ_1 are the
 * guess); on success the solver holds the stepped trajectory with the prescribed ends.
 */
function shoot(
  solver: TrajectorySolver,
  stage: Stage,
  tol: number,
  maxIterations: number,
  progress: PlateBallProgress,
  onProgress?: (p: Readonly<PlateBallProgress>) => void,
): { reason: StopReason; iterations: number; history: number[]; steps: number[] } {
  const { n, pb } = solver;
  const endTol = 0.1 * tol * solver.h;
  const u = Float64Array.of(solver.X[1]!, solver.Y[1]!, solver.L[0]!, solver.L[1]!, solver.L[2]!);
  const res = new Float64Array(5);
  const g = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
  const lam = new Float64Array(3);
  const Gk = new Float64Array(9);
  const rel = new Float64Array(9);
  const logv = new Float64Array(3);
  /** Shoots from u; fills res; when `store`, writes the trajectory into the solver. NaN on failure. */
  const run = (uu: Float64Array, store: boolean): number => {
    try {
      const g1 = pb.initialElement(stage.x0, stage.y0, uu[0]!, uu[1]!);
      g.set(g1);
      lam[0] = uu[2]!;
      lam[1] = uu[3]!;
      lam[2] = uu[4]!;
      mul3(Gk, stage.G0, g, 0, 0, 4);
      if (store) {
        solver.X[0] = stage.x0;
        solver.Y[0] = stage.y0;
        solver.G.set(stage.G0, 0);
      }
      for (let k = 1; k <= n; k++) {
        if (k >= 2) {
          pb.stepForward(g, lam, g, lam, k);
          mul3(Gk, Gk, g, 0, 0, 4);
        }
        if (store) {
          solver.X[k] = g[2]!;
          solver.Y[k] = g[3]!;
          solver.G.set(Gk, 9 * k);
          solver.L.set(lam, 3 * (k - 1));
        }
      }
    } catch (e) {
      if (e instanceof GeomechError) return Number.NaN;
      throw e;
    }
    res[0] = g[2]! - stage.xn;
    res[1] = g[3]! - stage.yn;
    mulT3At(rel, 0, stage.Gn, 0, Gk, 0);
    SO3.log(logv, rel);
    res[2] = logv[0]!;
    res[3] = logv[1]!;
    res[4] = logv[2]!;
    let m = 0;
    for (let i = 0; i < 5; i++) m = Math.max(m, Math.abs(res[i]!));
    return m;
  };
  const history: number[] = [];
  const steps: number[] = [];
  const J = new Float64Array(25);
  const rp = new Float64Array(5);
  const ut = new Float64Array(5);
  const du = new Float64Array(5);
  const qr = new DenseQR(5, 5);
  let rn = run(u, false);
  if (!Number.isFinite(rn)) return { reason: 'branch', iterations: 0, history, steps };
  let it = 0;
  let reason: StopReason = 'maxIterations';
  for (;;) {
    if (rn <= endTol) {
      reason = 'converged';
      break;
    }
    if (it >= maxIterations) break;
    history.push(rn);
    // central-difference Jacobian of the end map
    const r0 = res.slice();
    let ok = true;
    for (let j = 0; j < 5 && ok; j++) {
      const e = 1e-7 * Math.max(1, Math.abs(u[j]!));
      ut.set(u);
      ut[j] = u[j]! + e;
      if (!Number.isFinite(run(ut, false))) ok = false;
      rp.set(res);
      ut[j] = u[j]! - e;
      if (!Number.isFinite(run(ut, false))) ok = false;
      for (let i = 0; i < 5; i++) J[5 * i + j] = (rp[i]! - res[i]!) / (2 * e);
    }
    res.set(r0);
    it++;
    if (!ok) {
      reason = 'branch';
      steps.push(0);
      break;
    }
    qr.factor(J, 5, 5);
    for (let i = 0; i < 5; i++) rp[i] = -r0[i]!;
    qr.solveLeastSquares(rp, du);
    let f2 = 0;
    for (let i = 0; i < 5; i++) f2 += r0[i]! * r0[i]!;
    let alpha = 1;
    let accepted = false;
    while (alpha >= MIN_STEP) {
      for (let i = 0; i < 5; i++) ut[i] = u[i]! + alpha * du[i]!;
      const tn = run(ut, false);
      if (Number.isFinite(tn)) {
        let t2 = 0;
        for (let i = 0; i < 5; i++) t2 += res[i]! * res[i]!;
        if (t2 <= (1 - 2 * ARMIJO * alpha) * f2) {
          u.set(ut);
          rn = tn;
          accepted = true;
          break;
        }
      }
      alpha *= 0.5;
    }
    steps.push(accepted ? alpha : 0);
    if (!accepted) {
      reason = 'lineSearch';
      run(u, false);
      break;
    }
    if (onProgress) {
      progress.iteration = it;
      progress.residualNorm = rn;
      progress.stepLength = alpha;
      onProgress(progress);
    }
  }
  run(u, true);
  // the returned trajectory carries the prescribed end (the stepped one differs by ≤ the mismatch)
  applyEnds(solver, stage);
  return { reason, iterations: it, history, steps };
}
