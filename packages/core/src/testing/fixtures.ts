/**
 * Fixture helpers shared by the packages' tests of forced integrators (contact, dirac, groupoid):
 * the bitwise comparison with recorded trajectories and the simplest actuated force. Package-
 * neutral: they use only core's {@link Force} and vitest.
 *
 * @module
 */
import { expect } from 'vitest';
import type { Force } from '../mechanics/vocabulary.js';

/**
 * Asserts that `got` equals the recorded `want` bit for bit (`Object.is` per entry, so −0 ≠ +0
 * and NaN = NaN); `null` in `want` stands for NaN (JSON has no NaN). Throws naming the first
 * differing entry.
 *
 * @example
 * ```ts
 * // passes: null stands for NaN
 * expectBitIdentical([1, Number.NaN], [1, null]);
 * ```
 */
export function expectBitIdentical(got: ArrayLike<number>, want: readonly (number | null)[]): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const w = want[i] ?? Number.NaN;
    if (!Object.is(got[i], w)) throw new Error(`entry ${i}: got ${got[i]}, want ${w}`);
  }
}

/**
 * The force F(t, q, v, u) = B u with B = e₁ = (1, 0, …, 0)ᵀ on Rⁿ, one input: zero when u = 0, so
 * a forced integrator run with zero inputs must reproduce the unforced trajectory.
 *
 * @example
 * ```ts
 * const F = actuatorForce(2);
 * F.F(new Float64Array(2), 0, Float64Array.of(1, 2), Float64Array.of(0, 0), Float64Array.of(3)); // [3, 0]
 * ```
 */
export function actuatorForce(n: number): Force {
  return {
    n,
    m: 1,
    F: (out, _t, _q, _v, u) => {
      out.fill(0);
      out[0] = u[0]!;
      return out;
    },
  };
}
