/**
 * Central finite-difference Jacobians, and a checker comparing an analytic Jacobian against them.
 *
 * Callbacks follow the solver convention: `f(out, x)` writes f(x) ∈ Rᵐ into `out`, and a Jacobian
 * callback `J(out, x)` writes the m×n row-major matrix `out[i*n + j] = ∂fᵢ/∂xⱼ`.
 *
 * @module
 */

import { CENTRAL_DIFFERENCE_STEP } from '../constants.js';
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';

/** `f(out, x)`: writes f(x) ∈ Rᵐ into `out`. Must not keep or modify `x`. */
export type ResidualFunction = (out: Float64Array, x: Float64Array) => void;

/** `J(out, x)`: writes the m×n Jacobian of f at x, row-major (`out[i*n + j] = ∂fᵢ/∂xⱼ`). */
export type JacobianFunction = (out: Float64Array, x: Float64Array) => void;

/** Options of {@link finiteDifferenceJacobian}. */
export interface FiniteDifferenceOptions {
  /** Relative step factor s; coordinate j uses hⱼ = s·max(1, |xⱼ|). Default {@link CENTRAL_DIFFERENCE_STEP}. */
  step?: number;
}

function checkStep(what: string, step: number): number {
  if (!(step > 0) || !Number.isFinite(step))
    throw new DomainError(`${what}: step`, step, 'must be a positive finite number');
  return step;
}

/** The kernel: scratch `xw` (n), `fp`, `fm` (m) supplied by the caller. */
function centralDifferences(
  out: Float64Array,
  f: ResidualFunction,
  x: ArrayLike<number>,
  m: number,
  n: number,
  step: number,
  xw: Float64Array,
  fp: Float64Array,
  fm: Float64Array,
): Float64Array {
  if (x.length < n) throw new DimensionError('finiteDifferenceJacobian: x', n, x.length);
  if (out.length < m * n)
    throw new DimensionError('finiteDifferenceJacobian: out', m * n, out.length);
  for (let j = 0; j < n; j++) xw[j] = x[j]!;
  for (let j = 0; j < n; j++) {
    const xj = xw[j]!;
    const h = step * Math.max(1, Math.abs(xj));
    // Evaluate at representable points and divide by their exact distance.
    const xp = xj + h;
    const xm = xj - h;
    xw[j] = xp;
    f(fp, xw);
    xw[j] = xm;
    f(fm, xw);
    xw[j] = xj;
    const inv = 1 / (xp - xm);
    for (let i = 0; i < m; i++) {
      const d = (fp[i]! - fm[i]!) * inv;
      if (!Number.isFinite(d))
        throw new NonFiniteError(`finiteDifferenceJacobian: column ${j}`, i * n + j);
      out[i * n + j] = d;
    }
  }
  return out;
}

/**
 * Central-difference Jacobian of f: Rⁿ → Rᵐ at x, written into `out` (m×n row-major):
 *
 *   J[i, j] ≈ (fᵢ(x + hⱼeⱼ) − fᵢ(x − hⱼeⱼ)) / (2hⱼ),  hⱼ = s·max(1, |xⱼ|),  s = ∛ε by default,
 *
 * where the divisor is the exact distance between the two floating-point evaluation points.
 * Costs 2n evaluations of f; error O(hⱼ²) + O(ε/hⱼ). Allocates its scratch (n + 2m numbers); for
 * repeated use take {@link jacobianFromFiniteDifferences}, which owns it.
 *
 * @throws NonFiniteError when a difference quotient is not finite (index `i*n + j`).
 * @example
 * ```ts
 * const f = (out: Float64Array, x: Float64Array) => { out[0] = x[0]! * x[1]!; };
 * finiteDifferenceJacobian(new Float64Array(2), f, [3, 4], 1, 2); // ≈ [4, 3]
 * ```
 */
export function finiteDifferenceJacobian(
  out: Float64Array,
  f: ResidualFunction,
  x: ArrayLike<number>,
  m: number,
  n: number,
  options: FiniteDifferenceOptions = {},
): Float64Array {
  const step = checkStep('finiteDifferenceJacobian', options.step ?? CENTRAL_DIFFERENCE_STEP);
  return centralDifferences(
    out,
    f,
    x,
    m,
    n,
    step,
    new Float64Array(n),
    new Float64Array(m),
    new Float64Array(m),
  );
}

/**
 * A Jacobian callback `J(out, x)` for the solvers, by central differences of `f`
 * (see {@link finiteDifferenceJacobian}). The callback owns its scratch: calls allocate nothing.
 *
 * @example
 * ```ts
 * // F(x) = (x₀² − 2, x₁ − x₀): root (√2, √2)
 * const F = (out: Float64Array, x: Float64Array) => { out[0] = x[0]! ** 2 - 2; out[1] = x[1]! - x[0]!; };
 * const J = jacobianFromFiniteDifferences(F, 2, 2);
 * newton(F, J, Float64Array.of(1, 1)).x; // [1.41421356, 1.41421356]
 * ```
 */
export function jacobianFromFiniteDifferences(
  f: ResidualFunction,
  m: number,
  n: number,
  options: FiniteDifferenceOptions = {},
): JacobianFunction {
  const step = checkStep('jacobianFromFiniteDifferences', options.step ?? CENTRAL_DIFFERENCE_STEP);
  const xw = new Float64Array(n);
  const fp = new Float64Array(m);
  const fm = new Float64Array(m);
  return (out, x) => {
    centralDifferences(out, f, x, m, n, step, xw, fp, fm);
  };
}

/** Options of {@link checkJacobian}. */
export interface CheckJacobianOptions extends FiniteDifferenceOptions {
  /** Pass threshold on {@link JacobianCheck.maxRelError}. Default 1e-6. */
  tol?: number;
}

/** Result of {@link checkJacobian}. */
export interface JacobianCheck {
  /** max over (i, j) of |Jᵢⱼ − Dᵢⱼ| (D the central-difference Jacobian). */
  readonly maxAbsError: number;
  /** max over (i, j) of |Jᵢⱼ − Dᵢⱼ| / max(1, |Dᵢⱼ|): relative for large entries, absolute below 1. */
  readonly maxRelError: number;
  /** The entry attaining `maxRelError`. */
  readonly worst: { readonly row: number; readonly col: number };
  /** `maxRelError ≤ tol` (false for any non-finite analytic entry). */
  readonly ok: boolean;
}

/**
 * Compares an analytic Jacobian with central differences of f at x. With the default step the
 * difference error is ~1e-10 relative for smooth, well-scaled f, so the default tolerance 1e-6
 * separates a correct Jacobian from a wrong one by orders of magnitude.
 *
 * @param jac - a Jacobian callback, or the m×n row-major matrix itself.
 * @example
 * ```ts
 * const f = (out: Float64Array, x: Float64Array) => { out[0] = Math.sin(x[0]!); };
 * checkJacobian(f, (out, x) => { out[0] = Math.cos(x[0]!); }, [0.3], 1, 1).ok; // true
 * ```
 */
export function checkJacobian(
  f: ResidualFunction,
  jac: JacobianFunction | ArrayLike<number>,
  x: ArrayLike<number>,
  m: number,
  n: number,
  options: CheckJacobianOptions = {},
): JacobianCheck {
  const tol = options.tol ?? 1e-6;
  if (!(tol >= 0)) throw new DomainError('checkJacobian: tol', tol, 'must be ≥ 0');
  let analytic: ArrayLike<number>;
  if (typeof jac === 'function') {
    const a = new Float64Array(m * n);
    jac(
      a,
      Float64Array.from({ length: n }, (_, j) => x[j]!),
    );
    analytic = a;
  } else {
    if (jac.length < m * n) throw new DimensionError('checkJacobian: jacobian', m * n, jac.length);
    analytic = jac;
  }
  const fd = finiteDifferenceJacobian(new Float64Array(m * n), f, x, m, n, options);
  let maxAbs = 0;
  let maxRel = 0;
  let row = 0;
  let col = 0;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const d = fd[i * n + j]!;
      const e = Math.abs(analytic[i * n + j]! - d);
      const rel = e / Math.max(1, Math.abs(d));
      if (Number.isNaN(maxRel)) continue; // the first NaN entry stays the worst
      if (!(e <= maxAbs)) maxAbs = e;
      if (!(rel <= maxRel)) {
        row = i;
        col = j;
        maxRel = rel;
      }
    }
  }
  return { maxAbsError: maxAbs, maxRelError: maxRel, worst: { row, col }, ok: maxRel <= tol };
}
