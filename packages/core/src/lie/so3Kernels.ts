/**
 * Internal SO(3) kernels shared by the rotation-based groups (SO(3), unit quaternions, SE(3),
 * SE₂(3)): the scalar coefficients of the closed forms with their Taylor branches, the unchecked
 * logarithm and the action Jacobian. Not exported from the package. Formulas: manif
 * (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix B.
 *
 * @module
 */
import { LOG_ELEMENT_TOL, SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../constants.js';
import { DomainError } from '../errors.js';

// ---------------------------------------------------------------------------------------------
// Coefficients of the closed forms, with Taylor branches below SMALL_ANGLE (error O(θ⁶)).

/** sin θ / θ. */
export function sinc(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 6) * (1 - t2 / 20);
  }
  return Math.sin(t) / t;
}

/** (1 − cos θ)/θ², computed as 2 sin²(θ/2)/θ² (no cancellation). */
export function cosc(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 0.5 - (t2 / 24) * (1 - t2 / 30);
  }
  const s = Math.sin(0.5 * t) / t;
  return 2 * s * s;
}

/** (θ − sin θ)/θ³. */
export function sinc3(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 / 6 - (t2 / 120) * (1 - t2 / 42);
  }
  return (t - Math.sin(t)) / (t * t * t);
}

/** (θ/2)·cot(θ/2) = θ(1 + cos θ)/(2 sin θ). */
export function halfCot(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 12) * (1 + t2 / 60);
  }
  const h = 0.5 * t;
  return (h * Math.cos(h)) / Math.sin(h);
}

/** (1 − (θ/2)cot(θ/2))/θ² = 1/θ² − (1 + cos θ)/(2θ sin θ). */
export function invJacCoef(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 / 12 + (t2 / 720) * (1 + t2 / 42);
  }
  return (1 - halfCot(t)) / (t * t);
}

/** θ / sin θ, for the small-angle branch of log. */
export function invSinc(t: number): number {
  const t2 = t * t;
  return 1 + (t2 / 6) * (1 + (7 * t2) / 60);
}

export function copy9(out: Float64Array, a: ArrayLike<number>): Float64Array {
  for (let i = 0; i < 9; i++) out[i] = a[i]!;
  return out;
}

export function norm3v(x: ArrayLike<number>): number {
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  return Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
}

/**
 * out ← Log(R) ∈ R³ without checks (the kernel of {@link SO3Group.log}); see there.
 * @throws DomainError when |vee((R − Rᵀ)/2)|² + ((tr R − 1)/2)² differs from 1 by more than
 *   `LOG_ELEMENT_TOL`.
 */
export function so3LogKernel(out: Float64Array, R: ArrayLike<number>, what: string): Float64Array {
  const r00 = R[0]!;
  const r01 = R[1]!;
  const r02 = R[2]!;
  const r10 = R[3]!;
  const r11 = R[4]!;
  const r12 = R[5]!;
  const r20 = R[6]!;
  const r21 = R[7]!;
  const r22 = R[8]!;
  const sx = 0.5 * (r21 - r12);
  const sy = 0.5 * (r02 - r20);
  const sz = 0.5 * (r10 - r01);
  const s2 = sx * sx + sy * sy + sz * sz;
  const c = 0.5 * (r00 + r11 + r22 - 1);
  const defect = s2 + c * c - 1;
  if (defect > LOG_ELEMENT_TOL || defect < -LOG_ELEMENT_TOL) {
    throw new DomainError(
      what,
      defect,
      `must be a rotation: sin²θ + cos²θ − 1 read from it must be within ${LOG_ELEMENT_TOL} of 0 (use normalize first)`,
    );
  }
  const sn = Math.sqrt(s2);
  const t = Math.atan2(sn, c);
  if (t < SMALL_ANGLE) {
    const k = invSinc(t);
    out[0] = k * sx;
    out[1] = k * sy;
    out[2] = k * sz;
    return out;
  }
  if (Math.PI - t > SO3_LOG_NEAR_PI) {
    const k = t / sn;
    out[0] = k * sx;
    out[1] = k * sy;
    out[2] = k * sz;
    return out;
  }
  // Near π (or NaN): (R + Rᵀ)/2 − c·I = (1 − c)·nnᵀ; take the column with the largest diagonal
  // (≥ (1 − c)/3 ≈ 2/3, so its norm is bounded away from 0).
  const d0 = r00 - c;
  const d1 = r11 - c;
  const d2 = r22 - c;
  let n0: number;
  let n1: number;
  let n2: number;
  if (d0 >= d1 && d0 >= d2) {
    n0 = d0;
    n1 = 0.5 * (r01 + r10);
    n2 = 0.5 * (r02 + r20);
  } else if (d1 >= d2) {
    n0 = 0.5 * (r01 + r10);
    n1 = d1;
    n2 = 0.5 * (r12 + r21);
  } else {
    n0 = 0.5 * (r02 + r20);
    n1 = 0.5 * (r12 + r21);
    n2 = d2;
  }
  // The column is (1 − c)·n_k·n; normalize it and fix the sign with s = sin θ·n.
  const nn = Math.sqrt(n0 * n0 + n1 * n1 + n2 * n2);
  const k = (n0 * sx + n1 * sy + n2 * sz < 0 ? -t : t) / nn;
  out[0] = k * n0;
  out[1] = k * n1;
  out[2] = k * n2;
  return out;
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
