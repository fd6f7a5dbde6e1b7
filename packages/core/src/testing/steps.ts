/**
 * Central-difference checks of steps and Newton systems, and a nonlinear force, shared by the
 * packages' tests of forced integrators (contact, dirac, groupoid). Package-neutral: they use only
 * core.
 *
 * @module
 */
import { finiteDifferenceJacobian } from '../ad/finiteDifference.js';
import type { Force } from '../mechanics/vocabulary.js';

/**
 * The central-difference Jacobian (`rows` × x.length, row-major) of f at x: core's
 * `finiteDifferenceJacobian`, step ∛ε·max(1, |x_j|), error O(h²) + O(ε/h) ≈ 1e-10 relative for
 * smooth f. `f(out, x)` writes `rows` numbers.
 *
 * @example
 * ```ts
 * centralJacobian((out, x) => { out[0] = x[0]! * x[1]!; }, Float64Array.of(3, 4), 1); // ≈ [4, 3]
 * ```
 */
export function centralJacobian(
  f: (out: Float64Array, x: Float64Array) => void,
  x: ArrayLike<number>,
  rows: number,
): Float64Array {
  return finiteDifferenceJacobian(new Float64Array(rows * x.length), f, x, rows, x.length);
}

/**
 * The derivatives of one step x_{k+1} = Φ(x_k, u_k) of a stepper whose state and inputs are flat
 * coordinates, by central differences ({@link centralJacobian}): A (n × n) ≈ ∂Φ/∂x and
 * B (n × m) ≈ ∂Φ/∂u at (x, u), n = x.length, m = u.length, row-major; the reference of a
 * stepper's analytic `stepDerivatives`. `step(y, u)` advances y in place (e.g.
 * `(y, u) => stepper.step(y, k, t, h, u)`); x and u are not changed.
 *
 * @example
 * ```ts
 * // x_{k+1} = (x₀ + h x₁, x₁ + h u₀), h = 0.1
 * const { A, B } = stepJacobians((y, u) => { y[0] = y[0]! + 0.1 * y[1]!; y[1] = y[1]! + 0.1 * u[0]!; },
 *   Float64Array.of(1, 2), Float64Array.of(3));
 * A; // ≈ [1, 0.1, 0, 1]
 * B; // ≈ [0, 0.1]
 * ```
 */
export function stepJacobians(
  step: (y: Float64Array, u: Float64Array) => void,
  x: ArrayLike<number>,
  u: ArrayLike<number>,
): { A: Float64Array; B: Float64Array } {
  const n = x.length;
  const x0 = Float64Array.from(x);
  const u0 = Float64Array.from(u);
  const A = centralJacobian(
    (out, xx) => {
      out.set(xx);
      step(out, u0);
    },
    x0,
    n,
  );
  const B =
    u0.length === 0
      ? new Float64Array(0)
      : centralJacobian(
          (out, uu) => {
            out.set(x0);
            step(out, uu);
          },
          u0,
          n,
        );
  return { A, B };
}

/**
 * A nonlinear, time-, position- and velocity-dependent force on Rⁿ (n ≥ 1) with two inputs and no
 * analytic Jacobians, for the Jacobian and energy-balance checks of forced integrators:
 *
 *   F_i = −0.1(i + 1)·v_i(1 + 0.2 v_i²),
 *   F_0 += cos(1.3 t)·u_0 + 0.1 sin(q_{n−1}),   F_{n−1} += u_1 q_0 − 0.05 v_0 v_{n−1}.
 *
 * @example
 * ```ts
 * const F = nonlinearForce(2);
 * F.F(new Float64Array(2), 0, Float64Array.of(0, 0), Float64Array.of(1, 0), Float64Array.of(2, 0)); // ≈ [1.88, 0]
 * ```
 */
export function nonlinearForce(n: number): Force {
  return {
    n,
    m: 2,
    F: (out, t, q, v, u) => {
      for (let i = 0; i < n; i++) out[i] = -0.1 * (i + 1) * v[i]! * (1 + 0.2 * v[i]! * v[i]!);
      out[0] = out[0]! + Math.cos(1.3 * t) * u[0]! + 0.1 * Math.sin(q[n - 1]!);
      out[n - 1] = out[n - 1]! + u[1]! * q[0]! - 0.05 * v[0]! * v[n - 1]!;
      return out;
    },
  };
}
