/**
 * Internal SO(3) helpers shared by the rotation-based groups (SO(3), unit quaternions, SE(3),
 * SE₂(3)) off their hot paths: the action Jacobian −R p̂, a 9-entry copy and the DomainError of a
 * `log` given a non-rotation. Not exported from the package. (The hot kernels, exp/log and their
 * coefficients, stay module-local in each group's file: V8 did not inline functions imported from
 * another module there, measured +5 ns on SE3.exp and +15 ns on SE3.log.)
 *
 * @module
 */
import { LOG_ELEMENT_TOL } from '../constants.js';
import { DomainError } from '../errors.js';

export function copy9(out: Float64Array, a: ArrayLike<number>): Float64Array {
  for (let i = 0; i < 9; i++) out[i] = a[i]!;
  return out;
}

/**
 * Throws the DomainError of a `log` whose argument fails the rotation test (cold path, kept out
 * of the kernels so they stay small enough to inline).
 */
export function notARotation(what: string, defect: number): never {
  throw new DomainError(
    what,
    defect,
    `must be a rotation: sin²θ + cos²θ − 1 read from it must be within ${LOG_ELEMENT_TOL} of 0 (use normalize first)`,
  );
}

/** out ← −R·p̂ (3×3), the Jacobian of R·p with respect to R ⊕ δ; reads R at `off`, `stride`. */
export function minusRHat(
  out: Float64Array,
  R: ArrayLike<number>,
  p0: number,
  p1: number,
  p2: number,
  outOff = 0,
  outStride = 3,
  off = 0,
  stride = 3,
): void {
  for (let i = 0; i < 3; i++) {
    const a = R[off + i * stride]!;
    const b = R[off + i * stride + 1]!;
    const c = R[off + i * stride + 2]!;
    // row i of R·p̂ = (b p₂ − c p₁, c p₀ − a p₂, a p₁ − b p₀)
    const o = outOff + i * outStride;
    out[o] = c * p1 - b * p2;
    out[o + 1] = a * p2 - c * p0;
    out[o + 2] = b * p0 - a * p1;
  }
}
