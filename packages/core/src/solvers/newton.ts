/**
 * Newton's method for square nonlinear systems F(x) = 0, F: Rⁿ → Rⁿ, with a user Jacobian and an
 * optional backtracking (Armijo) line search on the merit function φ(x) = ½‖F(x)‖₂².
 *
 * Two forms: {@link NewtonSolver}, a reusable object owning all its scratch (one per integrator;
 * `solve` allocates nothing), and {@link newton}, a one-shot function.
 *
 * Jacobian sources: a hand-written `J(out, x)`, `jacobianFromDual(f)` (forward-mode AD of a
 * generic function, `ad/dual.ts`) or `jacobianFromFiniteDifferences(F, n, n)`
 * (`ad/finiteDifference.ts`).
 *
 * @module
 */
import type { JacobianFunction, ResidualFunction } from '../ad/finiteDifference.js';
import {
  ARMIJO_CONSTANT,
  MIN_LINE_SEARCH_STEP,
  NEWTON_DEFAULT_STEP_TOL,
  NEWTON_DEFAULT_TOL,
  SINGULAR_JACOBIAN_CONDITION,
} from '../constants.js';
import {
  DimensionError,
  DomainError,
  NewtonDivergedError,
  NonFiniteError,
  SingularJacobianError,
} from '../errors.js';
import { DenseLU } from '../linalg/lu.js';
import { allFinite, norm2, normInf } from '../linalg/matrix.js';

/** Options of {@link NewtonSolver} and {@link newton}. */
export interface NewtonOptions {
  /** Converged when ‖F(x)‖∞ ≤ tol (absolute). Default {@link NEWTON_DEFAULT_TOL} = 1e-12. */
  tol?: number;
  /**
   * Also converged when a full Newton step (λ = 1) satisfies ‖Δx‖∞ ≤ stepTol·max(1, ‖x‖∞): x is then
   * fixed to working precision even if roundoff keeps ‖F‖∞ above `tol`. Default
   * {@link NEWTON_DEFAULT_STEP_TOL} = 4ε; 0 disables it.
   */
  stepTol?: number;
  /** Maximum number of Newton steps (Jacobian solves). Default 50; 0 only evaluates F(x0). */
  maxIterations?: number;
  /**
   * Backtracking line search: λ = 1, ½, ¼, … ≥ {@link MIN_LINE_SEARCH_STEP} until the Armijo
   * condition φ(x + λΔx) ≤ (1 − 2cλ)φ(x) holds (∇φ·Δx = −‖F‖₂² = −2φ for the Newton direction;
   * c = {@link ARMIJO_CONSTANT}). Trial points with non-finite F count as failures. Default false.
   */
  lineSearch?: boolean;
  /** Throw {@link NewtonDivergedError} instead of returning `converged: false`. Default false. */
  throwOnFailure?: boolean;
}

/** Why a Newton solve stopped. */
export type NewtonStopReason = 'residual' | 'step' | 'maxIterations' | 'lineSearch';

/** Outcome of a Newton solve. */
export interface NewtonResult {
  /** The last iterate (for {@link NewtonSolver}: its own buffer, overwritten by the next solve). */
  readonly x: Float64Array;
  readonly converged: boolean;
  /** Newton steps taken (Jacobian factorizations). */
  readonly iterations: number;
  /** ‖F(x)‖∞ at the returned x. */
  readonly residualNorm: number;
  /** ‖λΔx‖∞ of the last step taken (0 if none). */
  readonly stepNorm: number;
  /** `residual` or `step` when converged; `maxIterations` or `lineSearch` when not. */
  readonly reason: NewtonStopReason;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function validate(options: NewtonOptions): Required<NewtonOptions> {
  const tol = options.tol ?? NEWTON_DEFAULT_TOL;
  const stepTol = options.stepTol ?? NEWTON_DEFAULT_STEP_TOL;
  const maxIterations = options.maxIterations ?? 50;
  if (!(tol >= 0)) throw new DomainError('newton: tol', tol, 'must be ≥ 0');
  if (!(stepTol >= 0)) throw new DomainError('newton: stepTol', stepTol, 'must be ≥ 0');
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new DomainError('newton: maxIterations', maxIterations, 'must be an integer ≥ 0');
  }
  return {
    tol,
    stepTol,
    maxIterations,
    lineSearch: options.lineSearch ?? false,
    throwOnFailure: options.throwOnFailure ?? false,
  };
}

/**
 * A reusable Newton solver for n×n systems. It owns its LU factorization, vectors and result
 * object, so `solve` allocates nothing: an integrator keeps one and calls `solve` every step.
 *
 * Iteration k (from x₀): stop if ‖F(xₖ)‖∞ ≤ tol; else factor J(xₖ), check κ₁(J) <
 * {@link SINGULAR_JACOBIAN_CONDITION}, solve J Δx = −F(xₖ), and set xₖ₊₁ = xₖ + λΔx (λ = 1, or
 * from the line search).
 *
 * Failure modes:
 * - singular Jacobian (zero pivot or κ₁ ≥ 1/ε): always throws {@link SingularJacobianError}
 *   `{ iteration, conditionEstimate, step }`;
 * - non-finite F(x₀) or J(x): always throws {@link NonFiniteError} (bad input, not divergence);
 * - a non-finite step, iterate or residual after a step: always throws {@link NewtonDivergedError}
 *   with `reason` saying which (the line search first backtracks from non-finite trial points);
 * - no convergence within `maxIterations`, or a failed line search: returns `converged: false`
 *   (or throws {@link NewtonDivergedError} with `throwOnFailure`).
 *
 * @example
 * ```ts
 * const solver = new NewtonSolver(2, { lineSearch: true });
 * const F = (out: Float64Array, x: Float64Array) => { out[0] = x[0]! ** 2 + x[1]! ** 2 - 4; out[1] = x[1]! - x[0]! ** 2 + 1; };
 * const J = (out: Float64Array, x: Float64Array) => { out.set([2 * x[0]!, 2 * x[1]!, -2 * x[0]!, 1]); };
 * const { x, converged } = solver.solve(F, J, Float64Array.of(1, 1)); // x ≈ [1.5175, 1.3028]
 * ```
 */
export class NewtonSolver {
  readonly n: number;
  readonly options: Readonly<Required<NewtonOptions>>;
  private readonly lu: DenseLU;
  private readonly x: Float64Array;
  private readonly f: Float64Array;
  private readonly jac: Float64Array;
  private readonly dx: Float64Array;
  private readonly xt: Float64Array;
  private readonly ft: Float64Array;
  private readonly result: Mutable<NewtonResult>;

  constructor(n: number, options: NewtonOptions = {}) {
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('NewtonSolver: size', '>= 1', n);
    this.n = n;
    this.options = Object.freeze(validate(options));
    this.lu = new DenseLU(n);
    this.x = new Float64Array(n);
    this.f = new Float64Array(n);
    this.jac = new Float64Array(n * n);
    this.dx = new Float64Array(n);
    this.xt = new Float64Array(n);
    this.ft = new Float64Array(n);
    this.result = {
      x: this.x,
      converged: false,
      iterations: 0,
      residualNorm: Number.NaN,
      stepNorm: 0,
      reason: 'maxIterations',
    };
  }

  /**
   * Solves F(x) = 0 from `x0` (not modified; may be the previous result's `x`). `F` and `J` receive
   * the solver's iterate buffer and must not modify or keep it.
   *
   * @param step - integrator step index, copied into thrown errors.
   * @param tolOverride - residual tolerance of this solve only (e.g. raised to the round-off floor
   *   of the residual's terms by an integrator whose state has grown); default `options.tol`.
   * @returns the solver's own result object (same object and `x` buffer on every call).
   */
  solve(
    F: ResidualFunction,
    J: JacobianFunction,
    x0: ArrayLike<number>,
    step?: number,
    tolOverride?: number,
  ): NewtonResult {
    const { n, x, f, jac, dx, xt, ft, lu, result } = this;
    const { stepTol, maxIterations, lineSearch, throwOnFailure } = this.options;
    const tol = tolOverride ?? this.options.tol;
    if (!(tol >= 0)) throw new DomainError('NewtonSolver.solve: tolOverride', tol, 'must be ≥ 0');
    if (x0.length !== n) throw new DimensionError('NewtonSolver.solve: x0', n, x0.length);
    if (x0 !== x) for (let i = 0; i < n; i++) x[i] = x0[i]!;
    F(f, x);
    let r = normInf(f, n);
    if (!Number.isFinite(r)) throw new NonFiniteError('newton: F(x0)', firstNonFinite(f, n));
    let stepNorm = 0;
    let k = 0;
    let reason: NewtonStopReason = 'maxIterations';
    for (;;) {
      if (r <= tol) {
        reason = 'residual';
        break;
      }
      if (k >= maxIterations) {
        reason = 'maxIterations';
        break;
      }
      J(jac, x);
      if (n === 1) {
        // Scalar fast path: no LU for a 1×1 system (κ = 1 unless J = 0).
        const j0 = jac[0]!;
        if (!Number.isFinite(j0)) throw new NonFiniteError('newton: J(x)', 0);
        if (j0 === 0) throw new SingularJacobianError(k, Number.POSITIVE_INFINITY, step);
        dx[0] = -f[0]! / j0;
      } else {
        if (!allFinite(jac, n * n))
          throw new NonFiniteError('newton: J(x)', firstNonFinite(jac, n * n));
        lu.factor(jac);
        const cond = lu.conditionEstimate();
        if (!(cond < SINGULAR_JACOBIAN_CONDITION)) throw new SingularJacobianError(k, cond, step);
        for (let i = 0; i < n; i++) dx[i] = -f[i]!;
        lu.solve(dx, dx);
      }
      k++;
      const dxNorm = normInf(dx, n);
      if (!Number.isFinite(dxNorm)) {
        throw new NewtonDivergedError(k, r, step, 'produced a non-finite step');
      }
      const smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, normInf(x, n));
      if (!lineSearch || smallStep) {
        for (let i = 0; i < n; i++) x[i] = x[i]! + dx[i]!;
        stepNorm = dxNorm;
        if (!allFinite(x, n))
          throw new NewtonDivergedError(k, r, step, 'produced a non-finite iterate');
        F(f, x);
        r = normInf(f, n);
        if (!Number.isFinite(r))
          throw new NewtonDivergedError(k, r, step, 'produced a non-finite residual');
        if (smallStep && r > tol) {
          reason = 'step';
          break;
        }
        continue;
      }
      // Backtracking on φ = ½‖F‖₂², compared as norms to avoid overflow.
      const phiNorm = finiteNorm2(f, n);
      let lambda = 1;
      let accepted = false;
      while (lambda >= MIN_LINE_SEARCH_STEP) {
        for (let i = 0; i < n; i++) xt[i] = x[i]! + lambda * dx[i]!;
        if (allFinite(xt, n)) {
          F(ft, xt);
          const trial = finiteNorm2(ft, n);
          if (trial <= Math.sqrt(1 - 2 * ARMIJO_CONSTANT * lambda) * phiNorm) {
            accepted = true;
            break;
          }
        }
        lambda *= 0.5;
      }
      if (!accepted) {
        reason = 'lineSearch';
        break;
      }
      x.set(xt);
      f.set(ft);
      stepNorm = lambda * dxNorm;
      r = normInf(f, n);
    }
    result.converged = reason === 'residual' || reason === 'step';
    result.iterations = k;
    result.residualNorm = r;
    result.stepNorm = stepNorm;
    result.reason = reason;
    if (!result.converged && throwOnFailure) {
      throw new NewtonDivergedError(
        k,
        r,
        step,
        reason === 'lineSearch' ? 'line search failed' : 'did not converge',
      );
    }
    return result;
  }
}

/** ‖v‖₂ of the first `len` entries, NaN when any is non-finite (`norm2` maps NaN entries to 0). */
function finiteNorm2(v: Float64Array, len: number): number {
  return allFinite(v, len) ? norm2(v, len) : Number.NaN;
}

function firstNonFinite(v: Float64Array, len: number): number {
  for (let i = 0; i < len; i++) if (!Number.isFinite(v[i]!)) return i;
  return -1;
}

/**
 * Solves the square system F(x) = 0 by Newton's method from x0 (one-shot form of
 * {@link NewtonSolver}; see there for the iteration and failure modes). Quadratically convergent
 * near a root with nonsingular Jacobian: ‖xₖ₊₁ − x*‖ ≤ C‖xₖ − x*‖².
 *
 * @param F - writes F(x) ∈ Rⁿ into `out`.
 * @param J - writes the n×n Jacobian (row-major, `out[i*n + j] = ∂Fᵢ/∂xⱼ`) into `out`.
 * @example
 * ```ts
 * const F = (out: Float64Array, x: Float64Array) => { out[0] = Math.atan(x[0]!); };
 * const J = (out: Float64Array, x: Float64Array) => { out[0] = 1 / (1 + x[0]! ** 2); };
 * newton(F, J, [3], { lineSearch: true }).x[0]; // 0 (without the line search it diverges)
 * ```
 */
export function newton(
  F: ResidualFunction,
  J: JacobianFunction,
  x0: ArrayLike<number>,
  options: NewtonOptions = {},
): NewtonResult {
  const r = new NewtonSolver(x0.length, options).solve(F, J, x0);
  return { ...r };
}
