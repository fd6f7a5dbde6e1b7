/**
 * The rotation group SO(3) stored as 3×3 rotation matrices (`rowMajor9`), with closed-form
 * exponential, logarithm (robust up to and at θ = π), adjoints and right/left Jacobians, and the
 * so(3) helpers {@link hat3}, {@link vee3} and the coadjoint action {@link coAdjointSO3}.
 * Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians, so(3) hat map).
 * Closed forms: manif (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix B.
 *
 * @module
 */
import { GROUP_VALIDITY_TOL, LOG_ELEMENT_TOL, SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../constants.js';
import { DimensionError } from '../errors.js';
import {
  axisForm3Coef,
  identity3,
  mul3,
  mul3T,
  mulT3,
  mulTVec3,
  mulVec3,
  transpose3,
} from '../linalg/small.js';
import {
  check2,
  checkJac,
  isRotation3,
  lengthError,
  NearestRotation3,
  negateInto,
} from './internal.js';
import { copy9, minusRHat, notARotation } from './so3Kernels.js';
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
  check2('hat3', 'out', out, 9, 'x', x, 3);
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
  check2('vee3', 'out', out, 3, 'm', m, 9);
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
 * const g = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const spatialMomentum = Float64Array.of(0, 1, 0);
 * const body = coAdjointSO3(new Float64Array(3), g, spatialMomentum); // gᵀ·π = [1, 0, 0]
 * ```
 */
export function coAdjointSO3(
  out: Float64Array,
  g: ArrayLike<number>,
  nu: ArrayLike<number>,
): Float64Array {
  if (((out.length - 3) | (g.length - 9) | (nu.length - 3)) !== 0)
    lengthError('coAdjointSO3', ['out', 'g', 'nu'], [3, 9, 3], [out, g, nu]);
  return mulTVec3(out, g, nu);
}

// ---------------------------------------------------------------------------------------------
// Coefficients of the closed forms, with Taylor branches below SMALL_ANGLE (error O(θ⁶)). Each
// helper writes the coefficients (a, b, c) of an axis form a·I + b·x̂ + c·xxᵀ (`axisForm3`) into
// out[outOff..outOff+3), computing θ = |x| itself, and calls nothing but Math: no double crosses a
// function boundary, because a double passed to or returned from a call V8 does not inline is
// boxed on the heap (16 B per call; the rigid-body and plate-ball steps allocated 48–112 B per
// step through the former `sinc(t)`, `cosc(t)`, `norm3v(x)` returning doubles).

/**
 * out[o..o+3) ← (cos θ, sin θ/θ, (1 − cos θ)/θ²), θ = |x|, the last as 2 sin²(θ/2)/θ² (no
 * cancellation): Exp(x) = axisForm3(x, a, b, c) (Rodrigues, manif appendix B).
 */
function expCoefficients(
  out: Float64Array,
  x: ArrayLike<number>,
  outOff: number,
  xOff: number,
): void {
  const x0 = x[xOff]!;
  const x1 = x[xOff + 1]!;
  const x2 = x[xOff + 2]!;
  const t = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
  out[outOff] = Math.cos(t);
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    out[outOff + 1] = 1 - (t2 / 6) * (1 - t2 / 20);
    out[outOff + 2] = 0.5 - (t2 / 24) * (1 - t2 / 30);
  } else {
    out[outOff + 1] = Math.sin(t) / t;
    const s = Math.sin(0.5 * t) / t;
    out[outOff + 2] = 2 * s * s;
  }
}

/**
 * out[o..o+3) ← (sin θ/θ, (1 − cos θ)/θ², (θ − sin θ)/θ³), θ = |x|: J_r(x) = axisForm3(x, a, −b,
 * c) and J_l(x) = axisForm3(x, a, b, c) (manif eqs. 143, 145).
 */
function jacCoefficients(
  out: Float64Array,
  x: ArrayLike<number>,
  outOff: number,
  xOff: number,
): void {
  const x0 = x[xOff]!;
  const x1 = x[xOff + 1]!;
  const x2 = x[xOff + 2]!;
  const t = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    out[outOff] = 1 - (t2 / 6) * (1 - t2 / 20);
    out[outOff + 1] = 0.5 - (t2 / 24) * (1 - t2 / 30);
    out[outOff + 2] = 1 / 6 - (t2 / 120) * (1 - t2 / 42);
  } else {
    out[outOff] = Math.sin(t) / t;
    const s = Math.sin(0.5 * t) / t;
    out[outOff + 1] = 2 * s * s;
    out[outOff + 2] = (t - Math.sin(t)) / (t * t * t);
  }
}

/**
 * out[outOff..outOff+3) ← (a, b, c) = ((θ/2)cot(θ/2), ½, (1 − (θ/2)cot(θ/2))/θ²) with θ = |x|,
 * x = x[xOff..xOff+3): the coefficients of the inverse right Jacobian of SO(3) in axis form,
 *
 *   J_r⁻¹(x) = I + ½x̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) x̂² = a·I + b·x̂ + c·xxᵀ
 *
 * (manif eq. 144; `axisForm3(out9, x, a, b, c)` is {@link SO3Group.rjacInv} and
 * `axisForm3(out9, x, a, −b, c)` is {@link SO3Group.ljacInv}, eq. 146). Below θ = `SMALL_ANGLE`
 * a = 1 − θ²/12 − θ⁴/720 and c = 1/12 + θ²/720 + θ⁴/30240 (truncation O(θ⁶)). The scalar-out
 * form lets a hot loop read a and c as unboxed locals (e.g. dexp⁻¹ of the exp-map Lie–Poisson
 * step, spec 003 §8.1) without forming the matrix; `out` may alias `x` (x is read first).
 * Computes the same operations as `SO3.rjacInv`, so the results are bit-identical.
 *
 * @throws DimensionError when `out` has fewer than outOff + 3 entries or `x` fewer than xOff + 3.
 *
 * @example
 * ```ts
 * // θ = π/2: a = π/4, b = ½, c = (1 − π/4)/(π/2)²
 * rjacInvCoefficientsSO3(new Float64Array(3), Float64Array.of(0, 0, Math.PI / 2)); // [0.785398163, 0.5, 0.0869748484]
 * ```
 */
export function rjacInvCoefficientsSO3(
  out: Float64Array,
  x: ArrayLike<number>,
  outOff = 0,
  xOff = 0,
): Float64Array {
  if (!(outOff >= 0 && out.length >= outOff + 3))
    throw new DimensionError('rjacInvCoefficientsSO3: out', outOff + 3, out.length);
  if (!(xOff >= 0 && x.length >= xOff + 3))
    throw new DimensionError('rjacInvCoefficientsSO3: x', xOff + 3, x.length);
  const x0 = x[xOff]!;
  const x1 = x[xOff + 1]!;
  const x2 = x[xOff + 2]!;
  const t = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    out[outOff] = 1 - (t2 / 12) * (1 + t2 / 60);
    out[outOff + 2] = 1 / 12 + (t2 / 720) * (1 + t2 / 42);
  } else {
    const h = 0.5 * t;
    const a = (h * Math.cos(h)) / Math.sin(h);
    out[outOff] = a;
    out[outOff + 2] = (1 - a) / (t * t);
  }
  out[outOff + 1] = 0.5;
  return out;
}

/** θ / sin θ, for the small-angle branch of log. */
function invSinc(t: number): number {
  const t2 = t * t;
  return 1 + (t2 / 6) * (1 + (7 * t2) / 60);
}

/**
 * out ← Log(R) ∈ R³ without checks (the kernel of {@link SO3Group.log}); see there.
 * @throws DomainError when |vee((R − Rᵀ)/2)|² + ((tr R − 1)/2)² differs from 1 by more than
 *   `LOG_ELEMENT_TOL`.
 */
function so3LogKernel(out: Float64Array, R: ArrayLike<number>, what: string): Float64Array {
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
  if (Math.abs(defect) > LOG_ELEMENT_TOL) notARotation(what, defect);
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

/** Argument names and lengths of the dimension checks. */
const OUT_A_B = ['out', 'a', 'b'];
const OUT_A = ['out', 'a'];
const OUT_TAU = ['out', 'tau'];
const OUT_X = ['out', 'X'];
const OUT_X_P = ['out', 'X', 'p'];
const OUT_X_TAU = ['out', 'X', 'tau'];
const OUT_Y_X = ['out', 'Y', 'X'];
const OUT_TAU_X = ['out', 'tau', 'X'];
const OUT_X_Y = ['out', 'X', 'Y'];
const S999 = [9, 9, 9];
const S99 = [9, 9];
const S93 = [9, 3];
const S39 = [3, 9];
const S393 = [3, 9, 3];
const S993 = [9, 9, 3];
const S399 = [3, 9, 9];
const S939 = [9, 3, 9];

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
 * - Jacobians of the operations (arXiv:1812.01537 §IV with the closed forms above): compose
 *   J_a = R_bᵀ, J_b = I; inverse −R; act J_R = −R p̂, J_p = R; rplus J_X = Exp(τ)ᵀ, J_τ = J_r(τ);
 *   rminus J_Y = J_r⁻¹(τ), J_X = −J_l⁻¹(τ); lplus J_τ = Xᵀ J_r(τ), J_X = I; lminus
 *   J_Y = J_r⁻¹(τ) X = −J_X; between J_X = −YᵀX, J_Y = I.
 *
 * Validity: `isValid` tests ‖RᵀR − I‖ (largest entry) ≤ tol and det R > 0; `normalize` projects
 * onto the nearest rotation in the Frobenius norm (Newton–Schulz near SO(3), Bar-Itzhack's
 * quaternion eigenvector otherwise; accurate to a few ε). `log` assumes a rotation and throws a
 * DomainError when sin²θ + cos²θ, read from R, is off by more than `LOG_ELEMENT_TOL` (2I,
 * diag(1, 1, −1), scaled matrices). That test reuses the numbers `log` computes anyway (one
 * multiply-add and a comparison; removing it changed `log`'s time by less than the ±3 ns
 * run-to-run noise), whereas the full test max |(RᵀR − I)_ij| plus det R > 0 (≈ 30 flops)
 * measured 38 → 56 ns (+45%) per `log`, so `log` keeps the cheap one. It is necessary, not
 * sufficient (a symmetric traceless perturbation of R passes it): check untrusted input with
 * `isValid`, e.g. at the boundary of an integrator or solver.
 *
 * Below θ = `SMALL_ANGLE` every coefficient uses its Taylor series to O(θ⁶). Every operation
 * checks its argument lengths (DimensionError) and allocates nothing (scratch owned by the
 * instance).
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
  private readonly scratch2 = new Float64Array(9);
  /** Axis-form coefficients (a, b, c) of the method at hand (the scalar-out helpers above). */
  private readonly coef = new Float64Array(3);
  private readonly projector = new NearestRotation3();

  /** out ← I₃. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== 9) lengthError('SO3.identity', OUT_A, S99, [out]);
    return identity3(out);
  }

  /**
   * out ← a·b (matrix product). `out` may alias `a` or `b`. J_out_a = Ad_{b⁻¹} = bᵀ,
   * J_out_b = I.
   *
   * @example
   * ```ts
   * const a = SO3.exp(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
   * const b = SO3.exp(new Float64Array(9), Float64Array.of(-0.3, 0, 0.5));
   * const Ja = new Float64Array(9);
   * SO3.compose(new Float64Array(9), a, b, Ja); // Ja = bᵀ
   * ```
   */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (a.length - 9) | (b.length - 9)) !== 0)
      lengthError('SO3.compose', OUT_A_B, S999, [out, a, b]);
    if (J_out_a !== undefined || J_out_b !== undefined) this.composeJacobians(b, J_out_a, J_out_b);
    return mul3(out, a, b);
  }

  /** out ← a⁻¹ = aᵀ. `out` may alias `a`. J_out_a = −Ad_a = −a. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    if (((out.length - 9) | (a.length - 9)) !== 0) lengthError('SO3.inverse', OUT_A, S99, [out, a]);
    if (J_out_a !== undefined) this.inverseJacobians(a, J_out_a);
    return transpose3(out, a);
  }

  /**
   * out ← Exp(τ) by Rodrigues' formula (manif appendix B), Taylor below `SMALL_ANGLE`.
   * J_out_tau = J_r(τ) (manif eq. 143).
   */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.exp', OUT_TAU, S93, [out, tau]);
    if (J_out_tau !== undefined) this.expJacobians(tau, J_out_tau);
    const k = this.coef;
    expCoefficients(k, tau, 0, 0);
    return axisForm3Coef(out, tau, k);
  }

  /**
   * out ← Log(R) ∈ R³, |out| = θ ∈ [0, π] (manif appendix B). θ = atan2(|s|, c) with
   * s = vee(R − Rᵀ)/2 = sin θ·n and c = (tr R − 1)/2; for θ < `SMALL_ANGLE` out = (1 + θ²/6 +
   * 7θ⁴/360)·s; for π − θ < `SO3_LOG_NEAR_PI` the axis is the largest-diagonal column of
   * nnᵀ = ((R + Rᵀ)/2 − c I)/(1 − c), normalized, with the sign making n·s ≥ 0. At θ = π exactly
   * either of the two antipodal vectors ±πn is returned. J_out_X = J_r⁻¹(out) (manif eq. 144).
   *
   * @throws DomainError when |s|² + c² − 1 (which is 0 for a rotation) exceeds
   *   `LOG_ELEMENT_TOL` in size: R is not a rotation (see the class doc). NaN propagates.
   *
   * @example
   * ```ts
   * SO3.log(new Float64Array(3), Float64Array.of(2, 0, 0, 0, 2, 0, 0, 0, 2)); // throws DomainError
   * ```
   */
  log(out: Float64Array, R: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - 3) | (R.length - 9)) !== 0) lengthError('SO3.log', OUT_X, S39, [out, R]);
    so3LogKernel(out, R, 'SO3.log: X');
    if (J_out_X !== undefined) this.logJacobians(out, J_out_X);
    return out;
  }

  /** out ← τ̂ ({@link hat3}). */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.hat', OUT_TAU, S93, [out, tau]);
    return hat3(out, tau);
  }

  /** out ← m∨ ({@link vee3}). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - 3) | (m.length - 9)) !== 0)
      lengthError('SO3.vee', ['out', 'm'], S39, [out, m]);
    return vee3(out, m);
  }

  /** out ← R·p. `out` may alias `p`. J_out_X = −R p̂ (3×3), J_out_p = R. */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (X.length - 9) | (p.length - 3)) !== 0)
      lengthError('SO3.act', OUT_X_P, S393, [out, X, p]);
    if (J_out_X !== undefined || J_out_p !== undefined) this.actJacobians(X, p, J_out_X, J_out_p);
    return mulVec3(out, X, p);
  }

  /** out ← Ad_R = R (manif appendix B). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 9)) !== 0) lengthError('SO3.adj', OUT_X, S99, [out, X]);
    return copy9(out, X);
  }

  /** out ← ad_τ = τ̂ (ad_τ σ = τ × σ). */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.smallAdj', OUT_TAU, S93, [out, tau]);
    return hat3(out, tau);
  }

  /**
   * out ← X·Exp(τ). `out` may alias `X`. J_out_X = Exp(τ)ᵀ, J_out_tau = J_r(τ).
   *
   * @example
   * ```ts
   * const X = SO3.exp(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
   * const Jx = new Float64Array(9);
   * const Jt = new Float64Array(9);
   * SO3.rplus(X, X, Float64Array.of(0, 0, 1e-3), Jx, Jt); // in place, with both Jacobians
   * ```
   */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (X.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.rplus', OUT_X_TAU, S993, [out, X, tau]);
    const k = this.coef;
    expCoefficients(k, tau, 0, 0);
    const E = axisForm3Coef(this.scratch, tau, k);
    if (J_out_X !== undefined || J_out_tau !== undefined)
      this.rplusJacobians(E, tau, J_out_X, J_out_tau);
    return mul3(out, X, E);
  }

  /** out ← Log(Xᵀ·Y). J_out_Y = J_r⁻¹(out), J_out_X = −J_l⁻¹(out). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 9) | (X.length - 9)) !== 0)
      lengthError('SO3.rminus', OUT_Y_X, S399, [out, Y, X]);
    so3LogKernel(out, mulT3(this.scratch, X, Y), 'SO3.rminus: X⁻¹Y');
    if (J_out_Y !== undefined || J_out_X !== undefined) this.rminusJacobians(out, J_out_Y, J_out_X);
    return out;
  }

  /** out ← Exp(τ)·X. `out` may alias `X`. J_out_tau = Xᵀ·J_r(τ), J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (tau.length - 3) | (X.length - 9)) !== 0)
      lengthError('SO3.lplus', OUT_TAU_X, S939, [out, tau, X]);
    if (J_out_tau !== undefined || J_out_X !== undefined)
      this.lplusJacobians(X, tau, J_out_tau, J_out_X);
    const k = this.coef;
    expCoefficients(k, tau, 0, 0);
    return mul3(out, axisForm3Coef(this.scratch, tau, k), X);
  }

  /** out ← Log(Y·Xᵀ). J_out_Y = J_r⁻¹(out)·X, J_out_X = −J_r⁻¹(out)·X. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 9) | (X.length - 9)) !== 0)
      lengthError('SO3.lminus', OUT_Y_X, S399, [out, Y, X]);
    so3LogKernel(out, mul3T(this.scratch, Y, X), 'SO3.lminus: YX⁻¹');
    if (J_out_Y !== undefined || J_out_X !== undefined)
      this.lminusJacobians(out, X, J_out_Y, J_out_X);
    return out;
  }

  /** out ← Xᵀ·Y. `out` may alias `X` or `Y`. J_out_X = −Ad_{out⁻¹} = −YᵀX, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (X.length - 9) | (Y.length - 9)) !== 0)
      lengthError('SO3.between', OUT_X_Y, S999, [out, X, Y]);
    if (J_out_X !== undefined || J_out_Y !== undefined)
      this.betweenJacobians(X, Y, J_out_X, J_out_Y);
    return mulT3(out, X, Y);
  }

  /**
   * out ← J_r(τ) = I − ((1 − cos θ)/θ²) τ̂ + ((θ − sin θ)/θ³) τ̂² (manif eq. 143), evaluated as
   * (sin θ/θ)·I − ((1 − cos θ)/θ²)·τ̂ + ((θ − sin θ)/θ³)·ττᵀ.
   */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.rjac', OUT_TAU, S93, [out, tau]);
    const k = this.coef;
    jacCoefficients(k, tau, 0, 0);
    k[1] = -k[1]!;
    return axisForm3Coef(out, tau, k);
  }

  /** out ← J_l(τ) = J_r(−τ) = I + ((1 − cos θ)/θ²) τ̂ + ((θ − sin θ)/θ³) τ̂² (manif eq. 145). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.ljac', OUT_TAU, S93, [out, tau]);
    const k = this.coef;
    jacCoefficients(k, tau, 0, 0);
    return axisForm3Coef(out, tau, k);
  }

  /**
   * out ← J_r⁻¹(τ) = I + ½τ̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) τ̂² (manif eq. 144), evaluated as
   * (θ/2)cot(θ/2)·I + ½τ̂ + ((1 − (θ/2)cot(θ/2))/θ²)·ττᵀ. Singular at θ = 2π (off the
   * principal branch).
   */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.rjacInv', OUT_TAU, S93, [out, tau]);
    const k = rjacInvCoefficientsSO3(this.coef, tau);
    return axisForm3Coef(out, tau, k);
  }

  /** out ← J_l⁻¹(τ) = J_r⁻¹(−τ) = I − ½τ̂ + (1/θ² − (1 + cos θ)/(2θ sin θ)) τ̂² (manif eq. 146). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3.ljacInv', OUT_TAU, S93, [out, tau]);
    const k = rjacInvCoefficientsSO3(this.coef, tau);
    k[1] = -k[1]!;
    return axisForm3Coef(out, tau, k);
  }

  /**
   * out ← a rotation uniform on SO(3) (Haar measure): the matrix of the unit quaternion of
   * Shoemake's method, q = (√u₁ cos 2πu₃, √(1−u₁) sin 2πu₂, √(1−u₁) cos 2πu₂, √u₁ sin 2πu₃),
   * which is uniform on S³.
   */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== 9) lengthError('SO3.random', ['out'], [9], [out]);
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
    if (((out.length - 9) | (X.length - 9)) !== 0)
      lengthError('SO3.toMatrix', OUT_X, S99, [out, X]);
    return copy9(out, X);
  }

  /** out ← a copy of M (no re-orthonormalization; see {@link normalize}). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - 9) | (M.length - 9)) !== 0)
      lengthError('SO3.fromMatrix', ['out', 'M'], S99, [out, M]);
    return copy9(out, M);
  }

  /**
   * Whether R is a rotation: max |(RᵀR − I)_ij| ≤ tol and det R > 0. False for NaN or ∞.
   *
   * @example
   * ```ts
   * SO3.isValid(Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, -1)); // false: det = −1
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== 9) lengthError('SO3.isValid', ['X'], [9], [X]);
    return isRotation3(X, 3, tol);
  }

  /**
   * out ← the rotation nearest to X in the Frobenius norm (the special orthogonal Procrustes
   * solution): Newton–Schulz iteration to the polar factor when ‖XᵀX − I‖_F < 0.5 and det X > 0
   * (one step for a drift of 1e-12), otherwise the top eigenvector of Bar-Itzhack's 4×4 matrix.
   * The result is orthogonal to a few ε and within a few ε·κ of the exact nearest rotation.
   * When the nearest rotation is not unique (e.g. diag(1, 1, −1)) one of them is returned.
   * `out` may alias `X`.
   *
   * @throws DomainError when X has a non-finite entry or is the zero matrix.
   *
   * @example
   * ```ts
   * const R = SO3.exp(new Float64Array(9), Float64Array.of(0.3, -0.2, 0.1));
   * R[0] = R[0]! + 1e-6; // drift
   * SO3.normalize(R, R);
   * SO3.isValid(R, 1e-15); // true
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 9)) !== 0)
      lengthError('SO3.normalize', OUT_X, S99, [out, X]);
    this.projector.project(out, X, 'SO3.normalize: X');
    return out;
  }

  /** The Jacobian outputs of `compose`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private composeJacobians(
    b: Float64Array,
    J_out_a: Float64Array | undefined,
    J_out_b: Float64Array | undefined,
  ): void {
    if (J_out_a !== undefined) {
      checkJac('SO3.compose', 'J_out_a', J_out_a, 9);
      transpose3(J_out_a, b);
    }
    if (J_out_b !== undefined) {
      checkJac('SO3.compose', 'J_out_b', J_out_b, 9);
      identity3(J_out_b);
    }
  }

  /** The Jacobian outputs of `inverse`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private inverseJacobians(a: Float64Array, J_out_a: Float64Array | undefined): void {
    if (J_out_a !== undefined) {
      checkJac('SO3.inverse', 'J_out_a', J_out_a, 9);
      negateInto(J_out_a, a, 9);
    }
  }

  /** The Jacobian outputs of `exp`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private expJacobians(tau: Float64Array, J_out_tau: Float64Array | undefined): void {
    if (J_out_tau !== undefined) {
      checkJac('SO3.exp', 'J_out_tau', J_out_tau, 9);
      const k = this.coef;
      jacCoefficients(k, tau, 0, 0);
      k[1] = -k[1]!;
      axisForm3Coef(J_out_tau, tau, k);
    }
  }

  /** The Jacobian outputs of `log`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private logJacobians(out: Float64Array, J_out_X: Float64Array | undefined): void {
    if (J_out_X !== undefined) {
      checkJac('SO3.log', 'J_out_X', J_out_X, 9);
      const k = rjacInvCoefficientsSO3(this.coef, out);
      axisForm3Coef(J_out_X, out, k);
    }
  }

  /** The Jacobian outputs of `act`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private actJacobians(
    X: Float64Array,
    p: Float64Array,
    J_out_X: Float64Array | undefined,
    J_out_p: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SO3.act', 'J_out_X', J_out_X, 9);
      minusRHat(J_out_X, X, p[0]!, p[1]!, p[2]!);
    }
    if (J_out_p !== undefined) {
      checkJac('SO3.act', 'J_out_p', J_out_p, 9);
      copy9(J_out_p, X);
    }
  }

  /** The Jacobian outputs of `rplus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rplusJacobians(
    E: Float64Array,
    tau: Float64Array,
    J_out_X: Float64Array | undefined,
    J_out_tau: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SO3.rplus', 'J_out_X', J_out_X, 9);
      transpose3(J_out_X, E);
    }
    if (J_out_tau !== undefined) {
      checkJac('SO3.rplus', 'J_out_tau', J_out_tau, 9);
      const k = this.coef;
      jacCoefficients(k, tau, 0, 0);
      k[1] = -k[1]!;
      axisForm3Coef(J_out_tau, tau, k);
    }
  }

  /** The Jacobian outputs of `rminus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rminusJacobians(
    out: Float64Array,
    J_out_Y: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    const k = rjacInvCoefficientsSO3(this.coef, out);
    if (J_out_Y !== undefined) {
      checkJac('SO3.rminus', 'J_out_Y', J_out_Y, 9);
      axisForm3Coef(J_out_Y, out, k);
    }
    if (J_out_X !== undefined) {
      checkJac('SO3.rminus', 'J_out_X', J_out_X, 9);
      k[0] = -k[0]!;
      k[2] = -k[2]!;
      axisForm3Coef(J_out_X, out, k);
    }
  }

  /** The Jacobian outputs of `lplus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private lplusJacobians(
    X: Float64Array,
    tau: Float64Array,
    J_out_tau: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    if (J_out_tau !== undefined) {
      checkJac('SO3.lplus', 'J_out_tau', J_out_tau, 9);
      const k = this.coef;
      jacCoefficients(k, tau, 0, 0);
      k[1] = -k[1]!;
      mulT3(J_out_tau, X, axisForm3Coef(this.scratch2, tau, k));
    }
    if (J_out_X !== undefined) {
      checkJac('SO3.lplus', 'J_out_X', J_out_X, 9);
      identity3(J_out_X);
    }
  }

  /** The Jacobian outputs of `lminus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private lminusJacobians(
    out: Float64Array,
    X: Float64Array,
    J_out_Y: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    const k = rjacInvCoefficientsSO3(this.coef, out);
    const J = mul3(this.scratch, axisForm3Coef(this.scratch2, out, k), X);
    if (J_out_Y !== undefined) {
      checkJac('SO3.lminus', 'J_out_Y', J_out_Y, 9);
      copy9(J_out_Y, J);
    }
    if (J_out_X !== undefined) {
      checkJac('SO3.lminus', 'J_out_X', J_out_X, 9);
      negateInto(J_out_X, J, 9);
    }
  }

  /** The Jacobian outputs of `between`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private betweenJacobians(
    X: Float64Array,
    Y: Float64Array,
    J_out_X: Float64Array | undefined,
    J_out_Y: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SO3.between', 'J_out_X', J_out_X, 9);
      negateInto(J_out_X, mulT3(J_out_X, Y, X), 9);
    }
    if (J_out_Y !== undefined) {
      checkJac('SO3.between', 'J_out_Y', J_out_Y, 9);
      identity3(J_out_Y);
    }
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
