/**
 * SO(3) stored as unit quaternions, layout `wxyz` (scalar first, Hamilton product q ⊗ p, rotation
 * v ↦ q v q*), with the same tangent conventions as {@link SO3} (rotation vectors, right
 * Jacobians), plus the conversions {@link quatFromRotation} (Shepperd) and
 * {@link rotationFromQuat}. Conventions: `packages/core/CONVENTIONS.md`. Formulas: manif
 * (arXiv:1812.01537), the S³ example of §3 and appendix B.
 *
 * @module
 */
import { GROUP_VALIDITY_TOL, LOG_ELEMENT_TOL, SMALL_ANGLE } from '../constants.js';
import { DomainError } from '../errors.js';
import { identity3, mul3, mulT3, transpose3 } from '../linalg/small.js';
import { check2, checkJac, lengthError, negateInto } from './internal.js';
import { hat3, SO3, vee3 } from './so3.js';
import { copy9, minusRHat } from './so3Kernels.js';
import type { LieGroup, Rng } from './types.js';

/**
 * out ← q/|q| (`wxyz`). `out` may alias `q`.
 *
 * @throws DomainError when |q| is 0 or not finite.
 *
 * @example
 * ```ts
 * const q = Float64Array.of(2, 0, 0, 0); // drifted off the unit sphere (wxyz)
 * normalizeQuat(q, q); // [1, 0, 0, 0]: re-projected onto the unit sphere after many compositions
 * ```
 */
export function normalizeQuat(out: Float64Array, q: ArrayLike<number>): Float64Array {
  check2('normalizeQuat', 'out', out, 4, 'q', q, 4);
  const w = q[0]!;
  const x = q[1]!;
  const y = q[2]!;
  const z = q[3]!;
  const n = Math.sqrt(w * w + x * x + y * y + z * z);
  if (!(n > 0 && n < Number.POSITIVE_INFINITY)) {
    throw new DomainError('normalizeQuat: |q|', n, 'must be positive and finite');
  }
  const k = 1 / n;
  out[0] = w * k;
  out[1] = x * k;
  out[2] = y * k;
  out[3] = z * k;
  return out;
}

/**
 * out ← the rotation matrix (row-major 3×3) of the unit quaternion q = (w, x, y, z), the matrix of
 * v ↦ q v q* (manif, S³ / quaternion example), in the homogeneous form
 *
 *   [[w² + x² − y² − z², 2(xy − wz), 2(xz + wy)],
 *    [2(xy + wz), w² − x² + y² − z², 2(yz − wx)],
 *    [2(xz − wy), 2(yz + wx), w² − x² − y² + z²]]
 *
 * (equal to 1 − 2(y² + z²), … on the diagonal for |q| = 1; with this form the round trip
 * R → {@link quatFromRotation} → R errs by ≤ 8e-16 instead of ≤ 2e-15, measured over 4·10⁵
 * random rotations). q is not re-normalized (a
 * non-unit q gives |q|²·R); q and −q give the same matrix.
 *
 * @example
 * ```ts
 * const c = Math.SQRT1_2;
 * rotationFromQuat(new Float64Array(9), Float64Array.of(c, 0, 0, c)); // 90° about z
 * ```
 */
export function rotationFromQuat(out: Float64Array, q: ArrayLike<number>): Float64Array {
  check2('rotationFromQuat', 'out', out, 9, 'q', q, 4);
  const w = q[0]!;
  const x = q[1]!;
  const y = q[2]!;
  const z = q[3]!;
  const ww = w * w;
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  const xy = 2 * x * y;
  const xz = 2 * x * z;
  const yz = 2 * y * z;
  const wx = 2 * w * x;
  const wy = 2 * w * y;
  const wz = 2 * w * z;
  out[0] = ww + xx - yy - zz;
  out[1] = xy - wz;
  out[2] = xz + wy;
  out[3] = xy + wz;
  out[4] = ww - xx + yy - zz;
  out[5] = yz - wx;
  out[6] = xz - wy;
  out[7] = yz + wx;
  out[8] = ww - xx - yy + zz;
  return out;
}

/**
 * out ← the unit quaternion (`wxyz`, w ≥ 0) of the rotation matrix R, by Shepperd's method
 * (J. Guidance Control 1, 1978): of 4w², 4x², 4y², 4z² (= 1 + tr R, 1 + 2R₀₀ − tr R, …) take
 * the largest, so the one square root and the division are always well conditioned (≥ 1/4), then
 * read the other three components off R ∓ Rᵀ; the sign is chosen so that w ≥ 0. No
 * normalization (as {@link LieGroup.fromMatrix} asks): for a rotation |q| = 1 to rounding; for a
 * drifted matrix follow with {@link normalizeQuat}.
 *
 * @example
 * ```ts
 * const R = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, Math.PI)); // diag(−1, −1, 1)
 * quatFromRotation(new Float64Array(4), R); // ≈ [0, 0, 0, 1]
 * ```
 */
export function quatFromRotation(out: Float64Array, R: ArrayLike<number>): Float64Array {
  check2('quatFromRotation', 'out', out, 4, 'R', R, 9);
  const r00 = R[0]!;
  const r01 = R[1]!;
  const r02 = R[2]!;
  const r10 = R[3]!;
  const r11 = R[4]!;
  const r12 = R[5]!;
  const r20 = R[6]!;
  const r21 = R[7]!;
  const r22 = R[8]!;
  const tr = r00 + r11 + r22;
  let w: number;
  let x: number;
  let y: number;
  let z: number;
  if (tr >= r00 && tr >= r11 && tr >= r22) {
    const s = 2 * Math.sqrt(1 + tr); // 4w
    w = 0.25 * s;
    x = (r21 - r12) / s;
    y = (r02 - r20) / s;
    z = (r10 - r01) / s;
  } else if (r00 >= r11 && r00 >= r22) {
    const s = 2 * Math.sqrt(1 + r00 - r11 - r22); // 4x
    w = (r21 - r12) / s;
    x = 0.25 * s;
    y = (r01 + r10) / s;
    z = (r02 + r20) / s;
  } else if (r11 >= r22) {
    const s = 2 * Math.sqrt(1 + r11 - r00 - r22); // 4y
    w = (r02 - r20) / s;
    x = (r01 + r10) / s;
    y = 0.25 * s;
    z = (r12 + r21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + r22 - r00 - r11); // 4z
    w = (r10 - r01) / s;
    x = (r02 + r20) / s;
    y = (r12 + r21) / s;
    z = 0.25 * s;
  }
  const k = w < 0 ? -1 : 1;
  out[0] = k * w;
  out[1] = k * x;
  out[2] = k * y;
  out[3] = k * z;
  return out;
}

const OUT_A_B = ['out', 'a', 'b'];
const OUT_A = ['out', 'a'];
const OUT_TAU = ['out', 'tau'];
const OUT_X = ['out', 'X'];
const OUT_X_P = ['out', 'X', 'p'];
const OUT_X_TAU = ['out', 'X', 'tau'];
const OUT_Y_X = ['out', 'Y', 'X'];
const OUT_TAU_X = ['out', 'tau', 'X'];
const OUT_X_Y = ['out', 'X', 'Y'];
const S444 = [4, 4, 4];
const S44 = [4, 4];
const S43 = [4, 3];
const S34 = [3, 4];
const S93 = [9, 3];
const S39 = [3, 9];
const S343 = [3, 4, 3];
const S443 = [4, 4, 3];
const S344 = [3, 4, 4];
const S434 = [4, 3, 4];

/**
 * out ← Log(q) for q = (w, x, y, z) (the kernel of {@link SO3QuatGroup.log}).
 * @throws DomainError when |‖q‖² − 1| > `LOG_ELEMENT_TOL`.
 */
function quatLog(
  out: Float64Array,
  w: number,
  x: number,
  y: number,
  z: number,
  what: string,
): Float64Array {
  const v2 = x * x + y * y + z * z;
  const defect = w * w + v2 - 1;
  if (defect > LOG_ELEMENT_TOL || defect < -LOG_ELEMENT_TOL) {
    throw new DomainError(
      what,
      defect,
      `must be a unit quaternion: ‖q‖² − 1 must be within ${LOG_ELEMENT_TOL} of 0 (use normalize first)`,
    );
  }
  if (w < 0) {
    w = -w;
    x = -x;
    y = -y;
    z = -z;
  }
  const vn = Math.sqrt(v2);
  const t = 2 * Math.atan2(vn, w);
  let k: number;
  if (t < SMALL_ANGLE) {
    // atan(r)/r = 1 − r²/3 + r⁴/5 − …, r = |v|/w (w ≈ 1 here).
    const r2 = v2 / (w * w);
    k = (2 / w) * (1 - (r2 / 3) * (1 - (3 * r2) / 5));
  } else {
    k = t / vn;
  }
  out[0] = k * x;
  out[1] = k * y;
  out[2] = k * z;
  return out;
}

/**
 * SO(3) as unit quaternions, `wxyz` (storageSize 4; matrixSize 3 for hat/vee/toMatrix; dim 3;
 * actionDim 3), Hamilton product, v ↦ q v q*. Same tangent conventions as {@link SO3}, so
 * `rotationFromQuat(SO3Quat.exp(τ)) = SO3.exp(τ)` and the Jacobians are SO3's.
 * Conventions: `packages/core/CONVENTIONS.md`. Formulas (manif):
 *
 * - Exp(τ) = (cos(θ/2), sin(θ/2)·τ/θ), Taylor of sin(θ/2)/θ below `SMALL_ANGLE`;
 * - Log(q) = 2·atan2(|v|, w)·v/|v| after choosing w ≥ 0 (the shortest of ±q, so
 *   |Log q| ≤ π), Taylor (2/w)(1 − r²/3 + r⁴/5), r = |v|/w, below `SMALL_ANGLE`;
 * - q⁻¹ = q* (unit q); Ad_q = R(q); ad_τ = τ̂.
 * - Jacobians of the operations: those of {@link SO3Group} with R = R(q) (the tangent spaces are
 *   the same): compose J_a = R(b)ᵀ, J_b = I; inverse −R(a); act −R p̂, R; exp J_r; log J_r⁻¹;
 *   rplus R(Exp τ)ᵀ, J_r(τ); rminus J_r⁻¹, −J_l⁻¹; lplus R(X)ᵀJ_r(τ), I; lminus ±J_r⁻¹R(X);
 *   between −R(out)ᵀ, I.
 *
 * Validity: `isValid` tests |‖q‖ − 1| ≤ tol; `normalize` divides by ‖q‖ (the nearest unit
 * quaternion, exact to rounding); `log` throws a DomainError when |‖q‖² − 1| > `LOG_ELEMENT_TOL`.
 * Both q and −q are the same rotation: compare elements through {@link toMatrix}. Every operation
 * checks its argument lengths (DimensionError) and allocates nothing.
 *
 * @example
 * ```ts
 * const q = SO3Quat.exp(new Float64Array(4), Float64Array.of(0, 0, Math.PI / 2));
 * SO3Quat.act(new Float64Array(3), q, Float64Array.of(1, 0, 0)); // ≈ [0, 1, 0]
 * ```
 */
export class SO3QuatGroup implements LieGroup {
  readonly name = 'SO(3) (unit quaternions)';
  readonly dim = 3;
  readonly storageSize = 4;
  readonly matrixSize = 3;
  readonly actionDim = 3;
  /** Storage layout of an element. */
  readonly layout = 'wxyz';
  private readonly scratch = new Float64Array(4);
  private readonly m9 = new Float64Array(9);
  private readonly n9 = new Float64Array(9);

  /** out ← (1, 0, 0, 0). */
  identity(out: Float64Array): Float64Array {
    if (out.length !== 4) lengthError('SO3Quat.identity', ['out'], [4], [out]);
    out[0] = 1;
    out[1] = 0;
    out[2] = 0;
    out[3] = 0;
    return out;
  }

  /**
   * out ← a ⊗ b (Hamilton product): w = aw·bw − a·b, v = aw·bv + bw·av + av × bv.
   * `out` may alias `a` or `b`. J_out_a = R(b)ᵀ, J_out_b = I.
   */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (a.length - 4) | (b.length - 4)) !== 0)
      lengthError('SO3Quat.compose', OUT_A_B, S444, [out, a, b]);
    if (J_out_a !== undefined || J_out_b !== undefined) this.composeJacobians(b, J_out_a, J_out_b);
    return hamilton(out, a[0]!, a[1]!, a[2]!, a[3]!, b[0]!, b[1]!, b[2]!, b[3]!);
  }

  /** out ← q* = (w, −x, −y, −z), the inverse of a unit quaternion. `out` may alias `a`. J = −R(a). */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    if (((out.length - 4) | (a.length - 4)) !== 0)
      lengthError('SO3Quat.inverse', OUT_A, S44, [out, a]);
    if (J_out_a !== undefined) this.inverseJacobians(a, J_out_a);
    out[0] = a[0]!;
    out[1] = -a[1]!;
    out[2] = -a[2]!;
    out[3] = -a[3]!;
    return out;
  }

  /** out ← Exp(τ) = (cos(θ/2), (sin(θ/2)/θ)·τ) (manif, S³ exponential). J_out_tau = J_r(τ). */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - 4) | (tau.length - 3)) !== 0)
      lengthError('SO3Quat.exp', OUT_TAU, S43, [out, tau]);
    if (J_out_tau !== undefined) this.expJacobians(tau, J_out_tau);
    return quatExp(out, tau);
  }

  /**
   * out ← Log(q) = 2·atan2(|v|, w)·v/|v| with the sign of q chosen so that w ≥ 0 (manif, S³
   * logarithm), so |out| = θ ∈ [0, π]; at w = 0 (θ = π) either antipodal vector is returned.
   * J_out_X = J_r⁻¹(out).
   *
   * @throws DomainError when |‖q‖² − 1| > `LOG_ELEMENT_TOL` (not a unit quaternion; NaN
   *   propagates).
   */
  log(out: Float64Array, q: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - 3) | (q.length - 4)) !== 0) lengthError('SO3Quat.log', OUT_X, S34, [out, q]);
    quatLog(out, q[0]!, q[1]!, q[2]!, q[3]!, 'SO3Quat.log: X');
    if (J_out_X !== undefined) this.logJacobians(out, J_out_X);
    return out;
  }

  /** out ← τ̂ (3×3, {@link hat3}). */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3Quat.hat', OUT_TAU, S93, [out, tau]);
    return hat3(out, tau);
  }

  /** out ← m∨ ({@link vee3}). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - 3) | (m.length - 9)) !== 0)
      lengthError('SO3Quat.vee', ['out', 'm'], S39, [out, m]);
    return vee3(out, m);
  }

  /**
   * out ← q p q* = p + w·t + u × t with u = (x, y, z), t = 2·u × p (q p q* expanded).
   * `out` may alias `p`. J_out_X = −R(q) p̂, J_out_p = R(q).
   */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (X.length - 4) | (p.length - 3)) !== 0)
      lengthError('SO3Quat.act', OUT_X_P, S343, [out, X, p]);
    const px = p[0]!;
    const py = p[1]!;
    const pz = p[2]!;
    if (J_out_X !== undefined || J_out_p !== undefined)
      this.actJacobians(X, px, py, pz, J_out_X, J_out_p);
    const w = X[0]!;
    const ux = X[1]!;
    const uy = X[2]!;
    const uz = X[3]!;
    const tx = 2 * (uy * pz - uz * py);
    const ty = 2 * (uz * px - ux * pz);
    const tz = 2 * (ux * py - uy * px);
    out[0] = px + w * tx + (uy * tz - uz * ty);
    out[1] = py + w * ty + (uz * tx - ux * tz);
    out[2] = pz + w * tz + (ux * ty - uy * tx);
    return out;
  }

  /** out ← Ad_q = R(q), the rotation matrix ({@link rotationFromQuat}). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.adj', OUT_X, [9, 4], [out, X]);
    return rotationFromQuat(out, X);
  }

  /** out ← ad_τ = τ̂. */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SO3Quat.smallAdj', OUT_TAU, S93, [out, tau]);
    return hat3(out, tau);
  }

  /** out ← X ⊗ Exp(τ). `out` may alias `X`. J_out_X = R(Exp τ)ᵀ, J_out_tau = J_r(τ). */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (X.length - 4) | (tau.length - 3)) !== 0)
      lengthError('SO3Quat.rplus', OUT_X_TAU, S443, [out, X, tau]);
    const e = quatExp(this.scratch, tau);
    if (J_out_X !== undefined || J_out_tau !== undefined)
      this.rplusJacobians(e, tau, J_out_X, J_out_tau);
    return hamilton(out, X[0]!, X[1]!, X[2]!, X[3]!, e[0]!, e[1]!, e[2]!, e[3]!);
  }

  /** out ← Log(X* ⊗ Y). J_out_Y = J_r⁻¹(out), J_out_X = −J_l⁻¹(out). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.rminus', OUT_Y_X, S344, [out, Y, X]);
    const d = hamilton(this.scratch, X[0]!, -X[1]!, -X[2]!, -X[3]!, Y[0]!, Y[1]!, Y[2]!, Y[3]!);
    quatLog(out, d[0]!, d[1]!, d[2]!, d[3]!, 'SO3Quat.rminus: X⁻¹Y');
    if (J_out_Y !== undefined || J_out_X !== undefined) this.rminusJacobians(out, J_out_Y, J_out_X);
    return out;
  }

  /** out ← Exp(τ) ⊗ X. `out` may alias `X`. J_out_tau = R(X)ᵀ·J_r(τ), J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (tau.length - 3) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.lplus', OUT_TAU_X, S434, [out, tau, X]);
    if (J_out_tau !== undefined || J_out_X !== undefined)
      this.lplusJacobians(X, tau, J_out_tau, J_out_X);
    const e = quatExp(this.scratch, tau);
    return hamilton(out, e[0]!, e[1]!, e[2]!, e[3]!, X[0]!, X[1]!, X[2]!, X[3]!);
  }

  /** out ← Log(Y ⊗ X*). J_out_Y = J_r⁻¹(out)·R(X), J_out_X = −J_r⁻¹(out)·R(X). */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.lminus', OUT_Y_X, S344, [out, Y, X]);
    const d = hamilton(this.scratch, Y[0]!, Y[1]!, Y[2]!, Y[3]!, X[0]!, -X[1]!, -X[2]!, -X[3]!);
    quatLog(out, d[0]!, d[1]!, d[2]!, d[3]!, 'SO3Quat.lminus: YX⁻¹');
    if (J_out_Y !== undefined || J_out_X !== undefined)
      this.lminusJacobians(out, X, J_out_Y, J_out_X);
    return out;
  }

  /** out ← X* ⊗ Y. `out` may alias `X` or `Y`. J_out_X = −R(out)ᵀ, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (X.length - 4) | (Y.length - 4)) !== 0)
      lengthError('SO3Quat.between', OUT_X_Y, S444, [out, X, Y]);
    hamilton(out, X[0]!, -X[1]!, -X[2]!, -X[3]!, Y[0]!, Y[1]!, Y[2]!, Y[3]!);
    if (J_out_X !== undefined || J_out_Y !== undefined)
      this.betweenJacobians(out, J_out_X, J_out_Y);
    return out;
  }

  /** out ← J_r(τ), as {@link SO3Group.rjac} (same tangent space). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    return SO3.rjac(out, tau);
  }

  /** out ← J_l(τ) = J_r(−τ), as {@link SO3Group.ljac}. */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    return SO3.ljac(out, tau);
  }

  /** out ← J_r⁻¹(τ), as {@link SO3Group.rjacInv}. */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return SO3.rjacInv(out, tau);
  }

  /** out ← J_l⁻¹(τ), as {@link SO3Group.ljacInv}. */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return SO3.ljacInv(out, tau);
  }

  /**
   * out ← a unit quaternion uniform on S³, hence a rotation uniform on SO(3) (Shoemake):
   * (√u₁ cos 2πu₃, √(1−u₁) sin 2πu₂, √(1−u₁) cos 2πu₂, √u₁ sin 2πu₃). With the same `rng` state
   * it is the rotation {@link SO3Group.random} draws.
   */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== 4) lengthError('SO3Quat.random', ['out'], [4], [out]);
    const u1 = rng();
    const u2 = 2 * Math.PI * rng();
    const u3 = 2 * Math.PI * rng();
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    out[0] = b * Math.cos(u3);
    out[1] = a * Math.sin(u2);
    out[2] = a * Math.cos(u2);
    out[3] = b * Math.sin(u3);
    return out;
  }

  /** out ← R(q), the 3×3 rotation matrix ({@link rotationFromQuat}). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.toMatrix', OUT_X, [9, 4], [out, X]);
    return rotationFromQuat(out, X);
  }

  /** out ← the quaternion (w ≥ 0) of the rotation matrix M ({@link quatFromRotation}, Shepperd). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - 4) | (M.length - 9)) !== 0)
      lengthError('SO3Quat.fromMatrix', ['out', 'M'], [4, 9], [out, M]);
    return quatFromRotation(out, M);
  }

  /**
   * Whether q is a unit quaternion: |‖q‖ − 1| ≤ tol. False for NaN or ∞.
   *
   * @example
   * ```ts
   * SO3Quat.isValid(Float64Array.of(2, 0, 0, 0)); // false
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== 4) lengthError('SO3Quat.isValid', ['X'], [4], [X]);
    const n = Math.sqrt(X[0]! ** 2 + X[1]! ** 2 + X[2]! ** 2 + X[3]! ** 2);
    return Math.abs(n - 1) <= tol;
  }

  /**
   * out ← q/‖q‖, the nearest unit quaternion ({@link normalizeQuat}). `out` may alias `X`.
   *
   * @throws DomainError when ‖q‖ is 0 or not finite.
   *
   * @example
   * ```ts
   * SO3Quat.normalize(new Float64Array(4), Float64Array.of(2, 0, 0, 0)); // [1, 0, 0, 0]
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO3Quat.normalize', OUT_X, S44, [out, X]);
    return normalizeQuat(out, X);
  }

  /** The Jacobian outputs of `compose`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private composeJacobians(
    b: Float64Array,
    J_out_a: Float64Array | undefined,
    J_out_b: Float64Array | undefined,
  ): void {
    if (J_out_a !== undefined) {
      checkJac('SO3Quat.compose', 'J_out_a', J_out_a, 9);
      transpose3(J_out_a, rotationFromQuat(J_out_a, b));
    }
    if (J_out_b !== undefined) {
      checkJac('SO3Quat.compose', 'J_out_b', J_out_b, 9);
      identity3(J_out_b);
    }
  }

  /** The Jacobian outputs of `inverse`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private inverseJacobians(a: Float64Array, J_out_a: Float64Array | undefined): void {
    if (J_out_a !== undefined) {
      checkJac('SO3Quat.inverse', 'J_out_a', J_out_a, 9);
      negateInto(J_out_a, rotationFromQuat(J_out_a, a), 9);
    }
  }

  /** The Jacobian outputs of `exp`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private expJacobians(tau: Float64Array, J_out_tau: Float64Array | undefined): void {
    if (J_out_tau !== undefined) {
      checkJac('SO3Quat.exp', 'J_out_tau', J_out_tau, 9);
      SO3.rjac(J_out_tau, tau);
    }
  }

  /** The Jacobian outputs of `log`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private logJacobians(out: Float64Array, J_out_X: Float64Array | undefined): void {
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.log', 'J_out_X', J_out_X, 9);
      SO3.rjacInv(J_out_X, out);
    }
  }

  /** The Jacobian outputs of `act`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private actJacobians(
    X: Float64Array,
    px: number,
    py: number,
    pz: number,
    J_out_X: Float64Array | undefined,
    J_out_p: Float64Array | undefined,
  ): void {
    const R = rotationFromQuat(this.m9, X);
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.act', 'J_out_X', J_out_X, 9);
      minusRHat(J_out_X, R, px, py, pz);
    }
    if (J_out_p !== undefined) {
      checkJac('SO3Quat.act', 'J_out_p', J_out_p, 9);
      copy9(J_out_p, R);
    }
  }

  /** The Jacobian outputs of `rplus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rplusJacobians(
    e: Float64Array,
    tau: Float64Array,
    J_out_X: Float64Array | undefined,
    J_out_tau: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.rplus', 'J_out_X', J_out_X, 9);
      transpose3(J_out_X, rotationFromQuat(J_out_X, e));
    }
    if (J_out_tau !== undefined) {
      checkJac('SO3Quat.rplus', 'J_out_tau', J_out_tau, 9);
      SO3.rjac(J_out_tau, tau);
    }
  }

  /** The Jacobian outputs of `rminus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rminusJacobians(
    out: Float64Array,
    J_out_Y: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    if (J_out_Y !== undefined) {
      checkJac('SO3Quat.rminus', 'J_out_Y', J_out_Y, 9);
      SO3.rjacInv(J_out_Y, out);
    }
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.rminus', 'J_out_X', J_out_X, 9);
      negateInto(J_out_X, SO3.ljacInv(J_out_X, out), 9);
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
      checkJac('SO3Quat.lplus', 'J_out_tau', J_out_tau, 9);
      mulT3(J_out_tau, rotationFromQuat(this.m9, X), SO3.rjac(this.n9, tau));
    }
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.lplus', 'J_out_X', J_out_X, 9);
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
    const J = mul3(this.m9, SO3.rjacInv(this.n9, out), rotationFromQuat(this.m9, X));
    if (J_out_Y !== undefined) {
      checkJac('SO3Quat.lminus', 'J_out_Y', J_out_Y, 9);
      copy9(J_out_Y, J);
    }
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.lminus', 'J_out_X', J_out_X, 9);
      negateInto(J_out_X, J, 9);
    }
  }

  /** The Jacobian outputs of `between`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private betweenJacobians(
    out: Float64Array,
    J_out_X: Float64Array | undefined,
    J_out_Y: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SO3Quat.between', 'J_out_X', J_out_X, 9);
      const R = rotationFromQuat(this.m9, out);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) J_out_X[3 * i + j] = -R[3 * j + i]!;
    }
    if (J_out_Y !== undefined) {
      checkJac('SO3Quat.between', 'J_out_Y', J_out_Y, 9);
      identity3(J_out_Y);
    }
  }
}

/** out ← a ⊗ b (Hamilton product) from the components; `out` may be anything. */
function hamilton(
  out: Float64Array,
  aw: number,
  ax: number,
  ay: number,
  az: number,
  bw: number,
  bx: number,
  by: number,
  bz: number,
): Float64Array {
  out[0] = aw * bw - ax * bx - ay * by - az * bz;
  out[1] = aw * bx + ax * bw + ay * bz - az * by;
  out[2] = aw * by - ax * bz + ay * bw + az * bx;
  out[3] = aw * bz + ax * by - ay * bx + az * bw;
  return out;
}

/** out ← Exp(τ) = (cos(θ/2), (sin(θ/2)/θ)·τ). */
function quatExp(out: Float64Array, tau: ArrayLike<number>): Float64Array {
  const x = tau[0]!;
  const y = tau[1]!;
  const z = tau[2]!;
  const t = Math.sqrt(x * x + y * y + z * z);
  let k: number;
  if (t < SMALL_ANGLE) {
    const t2 = t * t;
    k = 0.5 * (1 - (t2 / 24) * (1 - t2 / 80));
  } else {
    k = Math.sin(0.5 * t) / t;
  }
  out[0] = Math.cos(0.5 * t);
  out[1] = k * x;
  out[2] = k * y;
  out[3] = k * z;
  return out;
}

/**
 * The unit-quaternion SO(3) instance ({@link SO3QuatGroup}, `wxyz`).
 *
 * @example
 * ```ts
 * const q = SO3Quat.exp(new Float64Array(4), Float64Array.of(0.1, -0.2, 0.3));
 * SO3Quat.log(new Float64Array(3), q); // [0.1, -0.2, 0.3]
 * ```
 */
export const SO3Quat: SO3QuatGroup = new SO3QuatGroup();
