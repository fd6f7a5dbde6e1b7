/**
 * Nonlinear least squares: minimize φ(x) = ½‖F(x)‖₂² for F: Rⁿ → Rᵐ (any m, n), by Gauss–Newton
 * with a backtracking line search, or by Levenberg–Marquardt with Nielsen's damping update.
 *
 * Both take the solver callbacks `F(out, x)` (m values) and `J(out, x)` (m×n row-major), from a
 * hand-written Jacobian, `jacobianFromDual` or `jacobianFromFiniteDifferences`, and come as a
 * reusable solver object owning its scratch ({@link GaussNewtonSolver},
 * {@link LevenbergMarquardtSolver}: `solve` allocates nothing) and a one-shot function
 * ({@link gaussNewton}, {@link levenbergMarquardt}).
 *
 * Linear algebra goes through the column-pivoted QR {@link DenseQR}: the Gauss–Newton step is the
 * minimum-norm least-squares solution Δx = −J⁺F (rank-deficient and underdetermined J included),
 * and the Levenberg–Marquardt step solves the augmented problem min ‖J h + F‖² + μ‖h‖² without
 * forming JᵀJ.
 *
 * Stopping tests, checked in this order (all on the current iterate):
 * - `residual`: ‖F(x)‖₂ ≤ `tol` (zero-residual problems);
 * - `gradient`: maxⱼ |(JᵀF)ⱼ| / (‖J₍:,ⱼ₎‖₂·‖F‖₂) ≤ `gradientTol` (MINPACK's scale-free cosine test:
 *   F is orthogonal to the range of J, i.e. a stationary point of φ, e.g. a nonzero-residual fit);
 * - `step`: the computed step satisfies ‖Δx‖∞ ≤ `stepTol`·max(1, ‖x‖∞) (x no longer changes).
 *
 * @module
 */
import type { JacobianFunction, ResidualFunction } from '../ad/finiteDifference.js';
import { ARMIJO_CONSTANT, MIN_LINE_SEARCH_STEP } from '../constants.js';
import { DimensionError, DomainError, NewtonDivergedError, NonFiniteError } from '../errors.js';
import { allFinite, norm2, normInf } from '../linalg/matrix.js';
import { DenseQR } from '../linalg/qr.js';

/** Options shared by the Gauss–Newton and Levenberg–Marquardt solvers. */
export interface LeastSquaresOptions {
  /** Converged when ‖F(x)‖₂ ≤ tol (absolute). Default 1e-12. */
  tol?: number;
  /**
   * Converged when the cosine gradient test (see the module doc) is ≤ gradientTol. Default 1e-12.
   * It cannot go below the relative accuracy of the Jacobian: with a finite-difference Jacobian
   * (≈1e-10) use ≳ 1e-9.
   */
  gradientTol?: number;
  /** Converged when a step satisfies ‖Δx‖∞ ≤ stepTol·max(1, ‖x‖∞). Default 1e-14; 0 disables. */
  stepTol?: number;
  /** Maximum number of steps (Jacobian evaluations for Gauss–Newton, trial steps for LM). Default 100. */
  maxIterations?: number;
  /** Throw {@link NewtonDivergedError} instead of returning `converged: false`. Default false. */
  throwOnFailure?: boolean;
}

/** Options of {@link LevenbergMarquardtSolver}. */
export interface LevenbergMarquardtOptions extends LeastSquaresOptions {
  /** Initial damping μ₀ = tau·maxⱼ‖J₍:,ⱼ₎‖₂² (Nielsen's τ). Default 1e-3. */
  tau?: number;
}

/** Why a least-squares solve stopped. */
export type LeastSquaresStopReason =
  | 'residual'
  | 'gradient'
  | 'step'
  | 'maxIterations'
  | 'lineSearch'
  | 'damping';

/** Outcome of a least-squares solve. */
export interface LeastSquaresResult {
  /** The last iterate (for the solver classes: their own buffer, overwritten by the next solve). */
  readonly x: Float64Array;
  /** True when stopped by the `residual`, `gradient` or `step` test. */
  readonly converged: boolean;
  readonly iterations: number;
  /** ‖F(x)‖₂ at the returned x. */
  readonly residualNorm: number;
  /** The cosine gradient measure at the last Jacobian evaluation (NaN if none). */
  readonly gradientNorm: number;
  /** ‖Δx‖∞ of the last step taken (0 if none). */
  readonly stepNorm: number;
  /**
   * Stop reason; `lineSearch`: no Armijo point down to λ = 2⁻²⁰ (Gauss–Newton); `damping`: μ
   * overflowed after repeated rejections (Levenberg–Marquardt).
   */
  readonly reason: LeastSquaresStopReason;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Settings = Required<LeastSquaresOptions>;

/** μ beyond which Levenberg–Marquardt gives up (the step would underflow anyway). */
const MAX_DAMPING = 1e300;

function validate(what: string, o: LeastSquaresOptions): Settings {
  const s: Settings = {
    tol: o.tol ?? 1e-12,
    gradientTol: o.gradientTol ?? 1e-12,
    stepTol: o.stepTol ?? 1e-14,
    maxIterations: o.maxIterations ?? 100,
    throwOnFailure: o.throwOnFailure ?? false,
  };
  if (!(s.tol >= 0)) throw new DomainError(`${what}: tol`, s.tol, 'must be ≥ 0');
  if (!(s.gradientTol >= 0))
    throw new DomainError(`${what}: gradientTol`, s.gradientTol, 'must be ≥ 0');
  if (!(s.stepTol >= 0)) throw new DomainError(`${what}: stepTol`, s.stepTol, 'must be ≥ 0');
  if (!Number.isInteger(s.maxIterations) || s.maxIterations < 0) {
    throw new DomainError(`${what}: maxIterations`, s.maxIterations, 'must be an integer ≥ 0');
  }
  return s;
}

/**
 * g = JᵀF into `g`, and returns maxⱼ |gⱼ| / (‖J₍:,ⱼ₎‖₂·‖F‖₂) (0 for zero columns or F = 0).
 */
function gradientCosine(
  g: Float64Array,
  jac: Float64Array,
  f: Float64Array,
  m: number,
  n: number,
  fNorm: number,
): number {
  let worst = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    let c2 = 0;
    for (let i = 0; i < m; i++) {
      const a = jac[i * n + j]!;
      s += a * f[i]!;
      c2 += a * a;
    }
    g[j] = s;
    if (c2 > 0 && fNorm > 0) {
      const cos = Math.abs(s) / (Math.sqrt(c2) * fNorm);
      if (cos > worst) worst = cos;
    }
  }
  return worst;
}

/** ‖v‖₂ of the first `len` entries, NaN when any is non-finite (`norm2` maps NaN entries to 0). */
function finiteNorm2(v: Float64Array, len: number): number {
  return allFinite(v, len) ? norm2(v, len) : Number.NaN;
}

function firstNonFinite(v: Float64Array, len: number): number {
  for (let i = 0; i < len; i++) if (!Number.isFinite(v[i]!)) return i;
  return -1;
}

/** Scratch and bookkeeping shared by both solvers. */
abstract class LeastSquaresBase {
  readonly m: number;
  readonly n: number;
  protected readonly x: Float64Array;
  protected readonly f: Float64Array;
  protected readonly jac: Float64Array;
  protected readonly g: Float64Array;
  protected readonly xt: Float64Array;
  protected readonly ft: Float64Array;
  protected readonly result: Mutable<LeastSquaresResult>;

  constructor(what: string, m: number, n: number) {
    if (!Number.isInteger(m) || m < 1) throw new DimensionError(`${what}: residuals m`, '>= 1', m);
    if (!Number.isInteger(n) || n < 1) throw new DimensionError(`${what}: unknowns n`, '>= 1', n);
    this.m = m;
    this.n = n;
    this.x = new Float64Array(n);
    this.f = new Float64Array(m);
    this.jac = new Float64Array(m * n);
    this.g = new Float64Array(n);
    this.xt = new Float64Array(n);
    this.ft = new Float64Array(m);
    this.result = {
      x: this.x,
      converged: false,
      iterations: 0,
      residualNorm: Number.NaN,
      gradientNorm: Number.NaN,
      stepNorm: 0,
      reason: 'maxIterations',
    };
  }

  /** Copies x0 in, evaluates F(x0) and returns ‖F(x0)‖₂. */
  protected start(what: string, F: ResidualFunction, x0: ArrayLike<number>): number {
    const { n, m, x, f } = this;
    if (x0.length !== n) throw new DimensionError(`${what}: x0`, n, x0.length);
    if (x0 !== x) for (let i = 0; i < n; i++) x[i] = x0[i]!;
    F(f, x);
    const r = finiteNorm2(f, m);
    if (!Number.isFinite(r)) throw new NonFiniteError(`${what}: F(x0)`, firstNonFinite(f, m));
    return r;
  }

  /** Evaluates J(x), checks it, and returns the gradient cosine (g = JᵀF as a side effect). */
  protected jacobianAt(what: string, J: JacobianFunction, r: number): number {
    const { m, n, jac } = this;
    J(jac, this.x);
    if (!allFinite(jac, m * n))
      throw new NonFiniteError(`${what}: J(x)`, firstNonFinite(jac, m * n));
    return gradientCosine(this.g, jac, this.f, m, n, r);
  }

  protected finish(
    s: Settings,
    k: number,
    r: number,
    gcos: number,
    stepNorm: number,
    reason: LeastSquaresStopReason,
    method: string,
  ): LeastSquaresResult {
    const res = this.result;
    res.converged = reason === 'residual' || reason === 'gradient' || reason === 'step';
    res.iterations = k;
    res.residualNorm = r;
    res.gradientNorm = gcos;
    res.stepNorm = stepNorm;
    res.reason = reason;
    if (!res.converged && s.throwOnFailure) {
      const why =
        reason === 'lineSearch'
          ? 'line search failed'
          : reason === 'damping'
            ? 'damping overflowed'
            : 'did not converge';
      throw new NewtonDivergedError(k, r, undefined, `(${method}) ${why}`);
    }
    return res;
  }
}

/**
 * Gauss–Newton with backtracking line search for min ½‖F(x)‖₂², F: Rⁿ → Rᵐ. Each step solves the
 * linearized problem in the minimum-norm least-squares sense with {@link DenseQR},
 *
 *   Δx = −J(x)⁺F(x)   (numerical rank r ≤ min(m, n), rank tolerance max(m,n)·ε·|R₀₀|),
 *
 * then halves λ from 1 until the Armijo condition φ(x + λΔx) ≤ φ(x) + c·λ·(JᵀF)ᵀΔx holds
 * (c = {@link ARMIJO_CONSTANT}, λ ≥ {@link MIN_LINE_SEARCH_STEP}; non-finite trial points count as
 * failures). Quadratic convergence for zero-residual problems with full-rank J; linear otherwise.
 * For m < n from x₀ = 0 on a linear F it returns the minimum-norm solution in one step.
 *
 * Non-finite F(x₀) or J(x) throw {@link NonFiniteError}; non-convergence returns
 * `converged: false` (or throws {@link NewtonDivergedError} with `throwOnFailure`).
 *
 * @example
 * ```ts
 * // fit y = a·exp(b·t) to exact data from a = 2, b = −0.5
 * const t = [0, 1, 2, 3], y = t.map((s) => 2 * Math.exp(-0.5 * s));
 * const F = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { out[i] = p[0]! * Math.exp(p[1]! * s) - y[i]!; });
 * const J = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { const e = Math.exp(p[1]! * s); out[2 * i] = e; out[2 * i + 1] = p[0]! * s * e; });
 * new GaussNewtonSolver(4, 2).solve(F, J, [1, 0]).x; // ≈ [2, −0.5]
 * ```
 */
export class GaussNewtonSolver extends LeastSquaresBase {
  readonly options: Readonly<Settings>;
  private readonly qr: DenseQR;
  private readonly dx: Float64Array;
  private readonly rhs: Float64Array;

  constructor(m: number, n: number, options: LeastSquaresOptions = {}) {
    super('GaussNewtonSolver', m, n);
    this.options = Object.freeze(validate('gaussNewton', options));
    this.qr = new DenseQR(m, n);
    this.dx = new Float64Array(n);
    this.rhs = new Float64Array(m);
  }

  /**
   * Minimizes ½‖F(x)‖₂² from x0 (not modified). `F` and `J` receive the solver's own buffers and
   * must not modify or keep them.
   *
   * @returns the solver's own result object (same object and `x` buffer on every call).
   */
  solve(F: ResidualFunction, J: JacobianFunction, x0: ArrayLike<number>): LeastSquaresResult {
    const what = 'gaussNewton';
    const s = this.options;
    const { m, n, x, f, g, dx, xt, ft, rhs, qr, jac } = this;
    let r = this.start(what, F, x0);
    let k = 0;
    let gcos = Number.NaN;
    let stepNorm = 0;
    let reason: LeastSquaresStopReason;
    for (;;) {
      if (r <= s.tol) {
        reason = 'residual';
        break;
      }
      if (k >= s.maxIterations) {
        reason = 'maxIterations';
        break;
      }
      gcos = this.jacobianAt(what, J, r);
      if (gcos <= s.gradientTol) {
        reason = 'gradient';
        break;
      }
      qr.factor(jac, m, n);
      for (let i = 0; i < m; i++) rhs[i] = -f[i]!;
      qr.solveLeastSquares(rhs, dx);
      k++;
      const dxNorm = normInf(dx, n);
      if (dxNorm <= s.stepTol * Math.max(1, normInf(x, n))) {
        for (let i = 0; i < n; i++) xt[i] = x[i]! + dx[i]!;
        F(ft, xt);
        const rt = finiteNorm2(ft, m);
        if (rt <= r) {
          x.set(xt);
          f.set(ft);
          r = rt;
          stepNorm = dxNorm;
        }
        reason = 'step';
        break;
      }
      // Armijo on φ = ½‖F‖², compared in squared norms: ‖F(x+λΔx)‖² ≤ ‖F‖² + 2cλ gᵀΔx.
      let slope = 0;
      for (let j = 0; j < n; j++) slope += g[j]! * dx[j]!;
      const r2 = r * r;
      let lambda = 1;
      let accepted = false;
      if (slope < 0) {
        while (lambda >= MIN_LINE_SEARCH_STEP) {
          for (let i = 0; i < n; i++) xt[i] = x[i]! + lambda * dx[i]!;
          if (allFinite(xt, n)) {
            F(ft, xt);
            const rt = finiteNorm2(ft, m);
            if (rt * rt <= r2 + 2 * ARMIJO_CONSTANT * lambda * slope) {
              r = rt;
              accepted = true;
              break;
            }
          }
          lambda *= 0.5;
        }
      }
      if (!accepted) {
        reason = 'lineSearch';
        break;
      }
      x.set(xt);
      f.set(ft);
      stepNorm = lambda * dxNorm;
    }
    return this.finish(s, k, r, gcos, stepNorm, reason, 'Gauss–Newton');
  }
}

/**
 * Levenberg–Marquardt for min ½‖F(x)‖₂², F: Rⁿ → Rᵐ, with Nielsen's damping update
 * (H. B. Nielsen, "Damping parameter in Marquardt's method", IMM-REP-1999-05; Madsen, Nielsen,
 * Tingleff, "Methods for non-linear least squares problems", 2004, Alg. 3.16). Each trial step
 *
 *   h = argmin ‖J h + F‖₂² + μ‖h‖₂²   (i.e. (JᵀJ + μI) h = −JᵀF, solved by QR of [J; √μ I]),
 *
 * is judged by the gain ratio ρ = (φ(x) − φ(x + h)) / (½hᵀ(μh − JᵀF)). If ρ > 0 the step is
 * taken and μ ← μ·max(1/3, 1 − (2ρ − 1)³), ν ← 2; otherwise μ ← μ·ν, ν ← 2ν (non-finite trial
 * points are rejections). μ₀ = τ·maxⱼ‖J₍:,ⱼ₎‖₂². The `step` test is applied to every trial step,
 * as in Nielsen's algorithm. Works for any m, n and any rank (the augmented matrix has full
 * column rank for μ > 0).
 *
 * @example
 * ```ts
 * // the exponential fit of GaussNewtonSolver: y = a·exp(b·t), data from a = 2, b = −0.5
 * const t = [0, 1, 2, 3], y = t.map((s) => 2 * Math.exp(-0.5 * s));
 * const F = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { out[i] = p[0]! * Math.exp(p[1]! * s) - y[i]!; });
 * const J = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { const e = Math.exp(p[1]! * s); out[2 * i] = e; out[2 * i + 1] = p[0]! * s * e; });
 * const lm = new LevenbergMarquardtSolver(4, 2);
 * lm.solve(F, J, [1, 0]).x; // ≈ [2, −0.5]
 * ```
 */
export class LevenbergMarquardtSolver extends LeastSquaresBase {
  readonly options: Readonly<Settings & { tau: number }>;
  private readonly qr: DenseQR;
  private readonly h: Float64Array;
  private readonly aug: Float64Array;
  private readonly rhs: Float64Array;

  constructor(m: number, n: number, options: LevenbergMarquardtOptions = {}) {
    super('LevenbergMarquardtSolver', m, n);
    const tau = options.tau ?? 1e-3;
    if (!(tau > 0) || !Number.isFinite(tau)) {
      throw new DomainError('levenbergMarquardt: tau', tau, 'must be a positive finite number');
    }
    this.options = Object.freeze({ ...validate('levenbergMarquardt', options), tau });
    this.qr = new DenseQR(m + n, n);
    this.h = new Float64Array(n);
    this.aug = new Float64Array((m + n) * n);
    this.rhs = new Float64Array(m + n);
  }

  /**
   * Minimizes ½‖F(x)‖₂² from x0 (not modified). `F` and `J` receive the solver's own buffers and
   * must not modify or keep them.
   *
   * @returns the solver's own result object (same object and `x` buffer on every call).
   */
  solve(F: ResidualFunction, J: JacobianFunction, x0: ArrayLike<number>): LeastSquaresResult {
    const what = 'levenbergMarquardt';
    const s = this.options;
    const { m, n, x, f, g, h, xt, ft, aug, rhs, qr, jac } = this;
    let r = this.start(what, F, x0);
    let k = 0;
    let stepNorm = 0;
    let reason: LeastSquaresStopReason = 'maxIterations';
    let gcos = Number.NaN;
    let mu = 0;
    let nu = 2;
    let needJacobian = true;
    for (;;) {
      if (r <= s.tol) {
        reason = 'residual';
        break;
      }
      if (needJacobian) {
        gcos = this.jacobianAt(what, J, r);
        if (gcos <= s.gradientTol) {
          reason = 'gradient';
          break;
        }
        if (k === 0) {
          let maxCol = 0;
          for (let j = 0; j < n; j++) {
            let c2 = 0;
            for (let i = 0; i < m; i++) c2 += jac[i * n + j]! ** 2;
            if (c2 > maxCol) maxCol = c2;
          }
          mu = s.tau * maxCol;
        }
        needJacobian = false;
      }
      if (k >= s.maxIterations) {
        reason = 'maxIterations';
        break;
      }
      if (!(mu <= MAX_DAMPING)) {
        reason = 'damping';
        break;
      }
      // [J; √μ I] h ≈ [−F; 0]
      aug.set(jac);
      aug.fill(0, m * n);
      const sq = Math.sqrt(mu);
      for (let j = 0; j < n; j++) aug[(m + j) * n + j] = sq;
      for (let i = 0; i < m; i++) rhs[i] = -f[i]!;
      rhs.fill(0, m);
      qr.factor(aug, m + n, n);
      qr.solveLeastSquares(rhs, h);
      k++;
      const hNorm = normInf(h, n);
      if (hNorm <= s.stepTol * Math.max(1, normInf(x, n))) {
        reason = 'step';
        break;
      }
      // predicted decrease L(0) − L(h) = ½hᵀ(μh − g) ≥ 0
      let pred = 0;
      for (let j = 0; j < n; j++) pred += h[j]! * (mu * h[j]! - g[j]!);
      pred *= 0.5;
      for (let j = 0; j < n; j++) xt[j] = x[j]! + h[j]!;
      let rho = Number.NEGATIVE_INFINITY;
      let rt = Number.POSITIVE_INFINITY;
      if (allFinite(xt, n)) {
        F(ft, xt);
        rt = finiteNorm2(ft, m);
        if (Number.isFinite(rt) && pred > 0) rho = (0.5 * (r - rt) * (r + rt)) / pred;
      }
      if (rho > 0) {
        x.set(xt);
        f.set(ft);
        r = rt;
        stepNorm = hNorm;
        mu *= Math.max(1 / 3, 1 - (2 * rho - 1) ** 3);
        nu = 2;
        needJacobian = true;
      } else {
        mu *= nu;
        nu *= 2;
      }
    }
    return this.finish(s, k, r, gcos, stepNorm, reason, 'Levenberg–Marquardt');
  }
}

/**
 * One-shot Gauss–Newton (see {@link GaussNewtonSolver}); `m` is the number of residuals.
 *
 * @example
 * ```ts
 * const t = [0, 1, 2, 3], y = t.map((s) => 2 * Math.exp(-0.5 * s)); // y = 2·exp(−t/2)
 * const F = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { out[i] = p[0]! * Math.exp(p[1]! * s) - y[i]!; });
 * const J = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { const e = Math.exp(p[1]! * s); out[2 * i] = e; out[2 * i + 1] = p[0]! * s * e; });
 * gaussNewton(F, J, [1, 0], 4).x; // ≈ [2, −0.5]
 * ```
 */
export function gaussNewton(
  F: ResidualFunction,
  J: JacobianFunction,
  x0: ArrayLike<number>,
  m: number,
  options: LeastSquaresOptions = {},
): LeastSquaresResult {
  return { ...new GaussNewtonSolver(m, x0.length, options).solve(F, J, x0) };
}

/**
 * One-shot Levenberg–Marquardt (see {@link LevenbergMarquardtSolver}); `m` is the number of
 * residuals.
 *
 * @example
 * ```ts
 * const t = [0, 1, 2, 3], y = t.map((s) => 2 * Math.exp(-0.5 * s)); // y = 2·exp(−t/2)
 * const F = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { out[i] = p[0]! * Math.exp(p[1]! * s) - y[i]!; });
 * const J = (out: Float64Array, p: Float64Array) => t.forEach((s, i) => { const e = Math.exp(p[1]! * s); out[2 * i] = e; out[2 * i + 1] = p[0]! * s * e; });
 * levenbergMarquardt(F, J, [1, 0], 4).x; // ≈ [2, −0.5]
 * ```
 */
export function levenbergMarquardt(
  F: ResidualFunction,
  J: JacobianFunction,
  x0: ArrayLike<number>,
  m: number,
  options: LevenbergMarquardtOptions = {},
): LeastSquaresResult {
  return { ...new LevenbergMarquardtSolver(m, x0.length, options).solve(F, J, x0) };
}
