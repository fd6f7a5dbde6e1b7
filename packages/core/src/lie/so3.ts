/**
 * The rotation group SO(3) stored as 3×3 rotation matrices (`rowMajor9`), with closed-form
 * exponential, logarithm (robust up to and at θ = π), adjoints and right/left Jacobians, and the
 * so(3) helpers {@link hat3}, {@link vee3} and the coadjoint action {@link coAdjointSO3}.
 * Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians, so(3) hat map).
 * Closed forms: manif (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix B.
 *
 * @module
 */
import { SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../constants.js';
import { axisForm3, mul3, mul3T, mulT3, mulTVec3, mulVec3, transpose3 } from '../linalg/small.js';
import type { LieGroup, Rng } from './types.js';

/**
 * out ← x̂ = [[0, −x₃, x₂], [x₃, 0, −x₁], [−x₂, x₁, 0]] (row-major 3×3), so x̂·p = x × p
 * (manif appendix B; spec 003 §8.2: x̂ = x₁E1 + x₂E2 + x₃E3). `out` must not alias `x`.
 *
 * @example
 * ```ts
 * hat3(new Float64Array(9), Float64Array.of(1, 2, 3)); // [0,-3,2, 3,0,-1, -2,1,0]
 * ```
 */
export function hat3(out: Float64Array, x: ArrayLike<number>): Float64Array {
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  out[0] = 0;
  out[1] = -x2;
  out[2] = x1;
  out[3] = x2;
  out[4] = 0;
  out[5] = -x0;
  out[6] = -x1;
  out[7] = x0;
  out[8] = 0;
  return out;
}

/**
 * out ← m∨ = (m₃₂, m₁₃, m₂₁) (1-based entries), the inverse of {@link hat3}; it reads only the
 * three entries below/above the diagonal that hat writes, so vee(hat(x)) = x exactly. For a
 * general matrix use `vee((m − mᵀ)/2)` (that is {@link tauSkewInv} in `so3Retractions`).
 *
 * @example
 * ```ts
 * vee3(new Float64Array(3), hat3(new Float64Array(9), Float64Array.of(1, 2, 3))); // [1, 2, 3]
 * ```
 */
export function vee3(out: Float64Array, m: ArrayLike<number>): Float64Array {
  const a = m[7]!;
  const b = m[2]!;
  const c = m[3]!;
  out[0] = a;
  out[1] = b;
  out[2] = c;
  return out;
}

/**
 * The coadjoint action on so(3)* ≅ R³ in the papers' convention (spec 003 §2): Ad*_g = (Ad_g)ᵀ,
 * so out ← Ad*_g ν = gᵀν. It is a right action (Ad*_{gh} = Ad*_h Ad*_g) and dual to Ad:
 * ⟨Ad*_g ν, ξ⟩ = ⟨ν, g ξ⟩. `out` may alias `nu`.
 *
 * @example
 * ```ts
 * const body = coAdjointSO3(new Float64Array(3), g, spatialMomentum); // gᵀ·π
 * ```
 */
export function coAdjointSO3(
  out: Float64Array,
  g: ArrayLike<number>,
  nu: ArrayLike<number>,
): Float64Array {
  return mulTVec3(out, g, nu);
}

// ---------------------------------------------------------------------------------------------
// Coefficients of the closed forms, with Taylor branches below SMALL_ANGLE (error O(θ⁶)).

/** sin θ / θ. */
function sinc(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 6) * (1 - t2 / 20);
  }
  return Math.sin(t) / t;
}

/** (1 − cos θ)/θ², computed as 2 sin²(θ/2)/θ² (no cancellation). */
function cosc(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 0.5 - (t2 / 24) * (1 - t2 / 30);
  }
  const s = Math.sin(0.5 * t) / t;
  return 2 * s * s;
}

/** (θ − sin θ)/θ³. */
function sinc3(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 / 6 - (t2 / 120) * (1 - t2 / 42);
  }
  return (t - Math.sin(t)) / (t * t * t);
}

/** (θ/2)·cot(θ/2) = θ(1 + cos θ)/(2 sin θ). */
function halfCot(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 12) * (1 + t2 / 60);
  }
  const h = 0.5 * t;
  return (h * Math.cos(h)) / Math.sin(h);
}

/** (1 − (θ/2)cot(θ/2))/θ² = 1/θ² − (1 + cos θ)/(2θ sin θ). */
function invJacCoef(t: number): number {
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 / 12 + (t2 / 720) * (1 + t2 / 42);
  }
  return (1 - halfCot(t)) / (t * t);
}

/** θ / sin θ, for the small-angle branch of log. */
function invSinc(t: number): number {
  const t2 = t * t;
  return 1 + (t2 / 6) * (1 + (7 * t2) / 60);
}

function copy9(out: Float64Array, a: ArrayLike<number>): Float64Array {
  for (let i = 0; i < 9; i++) out[i] = a[i]!;
  return out;
}

function norm3v(x: ArrayLike<number>): number {
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  return Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
}

/**
 * SO(3) as 3×3 rotation matrices, row-major (`rowMajor9`: storageSize 9, matrixSize 3, dim 3,
 * actionDim 3). Tangent vectors τ = θn ∈ R³ (rotation vector); τ^ = {@link hat3}(τ).
 * Conventions: `packages/core/CONVENTIONS.md`. Formulas: manif appendix B (SO(3)):
 *
 * - Exp(τ) = I + (sin θ/θ) τ̂ + ((1 − cos θ)/θ²) τ̂² (Rodrigues), written as
 *   cos θ·I + (sin θ/θ)·τ̂ + ((1 − cos θ)/θ²)·ττᵀ;
 * - Log(R) = θ n with θ = atan2(|vee(R − Rᵀ)|/2, (tr R − 1)/2) ∈ [0, π]; near π
 *   (π − θ < `SO3_LOG_NEAR_PI`) the axis comes from (R + Rᵀ)/2 = cos θ·I + (1 − cos θ)nnᵀ;
 * - Ad_R = R; ad_τ = τ̂;
 * - J_r(τ) = I − ((1 − cos θ)/θ²) τ̂ + ((θ − sin θ)/θ³) τ̂² (eq. 143), J_l(τ) = J_r(−τ) (eq. 145),
 *   J_r⁻¹(τ) = I + ½τ̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) τ̂² (eq. 144), J_l⁻¹(τ) = J_r⁻¹(−τ);
 *   J_r⁻¹ is the papers' left-trivialized dexp⁻¹ (spec 003 §8.1).
 *
 * Below θ = `SMALL_ANGLE` every coefficient uses its Taylor series to O(θ⁶). All operations
 * allocate nothing (the ⊕/⊖ helpers use scratch owned by the instance).
 *
 * @example
 * ```ts
 * const R = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, Math.PI / 2)); // 90° about z
 * SO3.act(new Float64Array(3), R, Float64Array.of(1, 0, 0)); // ≈ [0, 1, 0]
 * SO3.log(new Float64Array(3), R); // ≈ [0, 0, π/2]
 * ```
 */
export class SO3Group implements LieGroup {
  readonly name = 'SO(3)';
  readonly dim = 3;
  readonly storageSize = 9;
  readonly matrixSize = 3;
  readonly actionDim = 3;
  /** Storage layout of an element. */
  readonly layout = 'rowMajor9';
  private readonly scratch = new Float64Array(9);

  /** out ← I₃. */
  identity(out: Float64Array): Float64Array {
    out.fill(0);
    out[0] = 1;
    out[4] = 1;
    out[8] = 1;
    return out;
  }

  /** out ← a·b (matrix product). `out` may alias `a` or `b`. */
  compose(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
    return mul3(out, a, b);
  }

  /** out ← a⁻¹ = aᵀ. `out` may alias `a`. */
  inverse(out: Float64Array, a: Float64Array): Float64Array {
    return transpose3(out, a);
  }

  /** out ← Exp(τ) by Rodrigues' formula (manif appendix B), Taylor below `SMALL_ANGLE`. */
  exp(out: Float64Array, tau: Float64Array): Float64Array {
    const t = norm3v(tau);
    return axisForm3(out, tau, Math.cos(t), sinc(t), cosc(t));
  }

  /**
   * out ← Log(R) ∈ R³, |out| = θ ∈ [0, π] (manif appendix B). θ = atan2(|s|, c) with
   * s = vee(R − Rᵀ)/2 = sin θ·n and c = (tr R − 1)/2; for θ < `SMALL_ANGLE` out = (1 + θ²/6 +
   * 7θ⁴/360)·s; for π − θ < `SO3_LOG_NEAR_PI` the axis is the largest-diagonal column of
   * nnᵀ = ((R + Rᵀ)/2 − c I)/(1 − c), normalized, with the sign making n·s ≥ 0. At θ = π exactly
   * either of the two antipodal vectors ±πn is returned.
   */
  log(out: Float64Array, R: Float64Array): Float64Array {
    const sx = 0.5 * (R[7]! - R[5]!);
    const sy = 0.5 * (R[2]! - R[6]!);
    const sz = 0.5 * (R[3]! - R[1]!);
    const sn = Math.sqrt(sx * sx + sy * sy + sz * sz);
    const c = 0.5 * (R[0]! + R[4]! + R[8]! - 1);
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
    // Near π: (R + Rᵀ)/2 − c·I = (1 − c)·nnᵀ; take the column with the largest diagonal
    // (≥ (1 − c)/3 ≈ 2/3, so its norm is bounded away from 0).
    const d0 = R[0]! - c;
    const d1 = R[4]! - c;
    const d2 = R[8]! - c;
    let n0: number;
    let n1: number;
    let n2: number;
    if (d0 >= d1 && d0 >= d2) {
      n0 = d0;
      n1 = 0.5 * (R[1]! + R[3]!);
      n2 = 0.5 * (R[2]! + R[6]!);
    } else if (d1 >= d2) {
      n0 = 0.5 * (R[1]! + R[3]!);
      n1 = d1;
      n2 = 0.5 * (R[5]! + R[7]!);
    } else {
      n0 = 0.5 * (R[2]! + R[6]!);
      n1 = 0.5 * (R[5]! + R[7]!);
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

  /** out ← τ̂ ({@link hat3}). */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    return hat3(out, tau);
  }

  /** out ← m∨ ({@link vee3}). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    return vee3(out, m);
  }

  /** out ← R·p. `out` may alias `p`. */
  act(out: Float64Array, X: Float64Array, p: Float64Array): Float64Array {
    return mulVec3(out, X, p);
  }

  /** out ← Ad_R = R (manif appendix B). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    return copy9(out, X);
  }

  /** out ← ad_τ = τ̂ (ad_τ σ = τ × σ). */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    return hat3(out, tau);
  }

  /** out ← X·Exp(τ). */
  rplus(out: Float64Array, X: Float64Array, tau: Float64Array): Float64Array {
    return mul3(out, X, this.exp(this.scratch, tau));
  }

  /** out ← Log(Xᵀ·Y). */
  rminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    return this.log(out, mulT3(this.scratch, X, Y));
  }

  /** out ← Exp(τ)·X. */
  lplus(out: Float64Array, tau: Float64Array, X: Float64Array): Float64Array {
    return mul3(out, this.exp(this.scratch, tau), X);
  }

  /** out ← Log(Y·Xᵀ). */
  lminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    return this.log(out, mul3T(this.scratch, Y, X));
  }

  /** out ← Xᵀ·Y. */
  between(out: Float64Array, X: Float64Array, Y: Float64Array): Float64Array {
    return mulT3(out, X, Y);
  }

  /**
   * out ← J_r(τ) = I − ((1 − cos θ)/θ²) τ̂ + ((θ − sin θ)/θ³) τ̂² (manif eq. 143), evaluated as
   * (sin θ/θ)·I − ((1 − cos θ)/θ²)·τ̂ + ((θ − sin θ)/θ³)·ττᵀ.
   */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    const t = norm3v(tau);
    return axisForm3(out, tau, sinc(t), -cosc(t), sinc3(t));
  }

  /** out ← J_l(τ) = J_r(−τ) = I + ((1 − cos θ)/θ²) τ̂ + ((θ − sin θ)/θ³) τ̂² (manif eq. 145). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    const t = norm3v(tau);
    return axisForm3(out, tau, sinc(t), cosc(t), sinc3(t));
  }

  /**
   * out ← J_r⁻¹(τ) = I + ½τ̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) τ̂² (manif eq. 144), evaluated as
   * (θ/2)cot(θ/2)·I + ½τ̂ + ((1 − (θ/2)cot(θ/2))/θ²)·ττᵀ. Singular at θ = 2π (off the
   * principal branch).
   */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    const t = norm3v(tau);
    return axisForm3(out, tau, halfCot(t), 0.5, invJacCoef(t));
  }

  /** out ← J_l⁻¹(τ) = J_r⁻¹(−τ) = I − ½τ̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) τ̂² (manif eq. 146). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    const t = norm3v(tau);
    return axisForm3(out, tau, halfCot(t), -0.5, invJacCoef(t));
  }

  /**
   * out ← a rotation uniform on SO(3) (Haar measure): the matrix of the unit quaternion of
   * Shoemake's method, q = (√u₁ cos 2πu₃, √(1−u₁) sin 2πu₂, √(1−u₁) cos 2πu₂, √u₁ sin 2πu₃),
   * which is uniform on S³.
   */
  random(out: Float64Array, rng: Rng): Float64Array {
    const u1 = rng();
    const u2 = 2 * Math.PI * rng();
    const u3 = 2 * Math.PI * rng();
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    const w = b * Math.cos(u3);
    const x = a * Math.sin(u2);
    const y = a * Math.cos(u2);
    const z = b * Math.sin(u3);
    // v ↦ q v q* as a matrix (see rotationFromQuat in so3quat.ts).
    const ww = w * w;
    const xx = x * x;
    const yy = y * y;
    const zz = z * z;
    out[0] = ww + xx - yy - zz;
    out[1] = 2 * x * y - 2 * w * z;
    out[2] = 2 * x * z + 2 * w * y;
    out[3] = 2 * x * y + 2 * w * z;
    out[4] = ww - xx + yy - zz;
    out[5] = 2 * y * z - 2 * w * x;
    out[6] = 2 * x * z - 2 * w * y;
    out[7] = 2 * y * z + 2 * w * x;
    out[8] = ww - xx - yy + zz;
    return out;
  }

  /** out ← a copy of X (the storage is the matrix). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    return copy9(out, X);
  }

  /** out ← a copy of M (no re-orthonormalization). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    return copy9(out, M);
  }
}

/**
 * The SO(3) instance ({@link SO3Group}: rotation matrices, row-major).
 *
 * @example
 * ```ts
 * const R = SO3.exp(new Float64Array(9), Float64Array.of(0.1, -0.2, 0.3));
 * const tau = SO3.log(new Float64Array(3), R); // [0.1, -0.2, 0.3]
 * ```
 */
export const SO3: SO3Group = new SO3Group();
