/**
 * Conversions between the SO(3) representations: rotation matrices (`rowMajor9`), unit
 * quaternions in both component orders (`wxyz`, scalar first as {@link SO3Quat}, and `xyzw`,
 * scalar last as ROS, Eigen's `coeffs()` and many file formats), roll-pitch-yaw angles and
 * axis-angle pairs. Conventions: `packages/core/CONVENTIONS.md` (§ Conversions).
 *
 * @module
 */
import { GIMBAL_LOCK_COS_PITCH } from '../constants.js';
import { DomainError } from '../errors.js';
import { lengthError } from './internal.js';
import { SO3 } from './so3.js';
import { quatFromRotation, rotationFromQuat } from './so3quat.js';

const q4 = new Float64Array(4);
const t3 = new Float64Array(3);

/**
 * out ← (x, y, z, w) from q = (w, x, y, z): the same quaternion, scalar last. `out` may alias `q`.
 *
 * @example
 * ```ts
 * quatXyzwFromWxyz(new Float64Array(4), Float64Array.of(1, 0, 0, 0)); // [0, 0, 0, 1]
 * ```
 */
export function quatXyzwFromWxyz(out: Float64Array, q: ArrayLike<number>): Float64Array {
  if (((out.length - 4) | (q.length - 4)) !== 0)
    lengthError('quatXyzwFromWxyz', ['out', 'q'], [4, 4], [out, q]);
  const w = q[0]!;
  const x = q[1]!;
  const y = q[2]!;
  const z = q[3]!;
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = w;
  return out;
}

/**
 * out ← (w, x, y, z) from q = (x, y, z, w): the same quaternion, scalar first. `out` may alias `q`.
 *
 * @example
 * ```ts
 * quatWxyzFromXyzw(new Float64Array(4), Float64Array.of(0, 0, 0, 1)); // [1, 0, 0, 0]
 * ```
 */
export function quatWxyzFromXyzw(out: Float64Array, q: ArrayLike<number>): Float64Array {
  if (((out.length - 4) | (q.length - 4)) !== 0)
    lengthError('quatWxyzFromXyzw', ['out', 'q'], [4, 4], [out, q]);
  const x = q[0]!;
  const y = q[1]!;
  const z = q[2]!;
  const w = q[3]!;
  out[0] = w;
  out[1] = x;
  out[2] = y;
  out[3] = z;
  return out;
}

/**
 * out ← the rotation matrix of the unit quaternion q = (x, y, z, w) (scalar last), the matrix of
 * v ↦ q v q* with the Hamilton product (as {@link rotationFromQuat} for `wxyz`). Not
 * re-normalized: a non-unit q gives ‖q‖²·R.
 *
 * @example
 * ```ts
 * const c = Math.SQRT1_2;
 * rotationFromQuatXyzw(new Float64Array(9), Float64Array.of(0, 0, c, c)); // 90° about z
 * ```
 */
export function rotationFromQuatXyzw(out: Float64Array, q: ArrayLike<number>): Float64Array {
  if (((out.length - 9) | (q.length - 4)) !== 0)
    lengthError('rotationFromQuatXyzw', ['out', 'q'], [9, 4], [out, q]);
  q4[0] = q[3]!;
  q4[1] = q[0]!;
  q4[2] = q[1]!;
  q4[3] = q[2]!;
  return rotationFromQuat(out, q4);
}

/**
 * out ← the unit quaternion (x, y, z, w) of the rotation matrix R with w ≥ 0 (Shepperd's method,
 * as {@link quatFromRotation}, reordered scalar last).
 *
 * @example
 * ```ts
 * const R = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, Math.PI / 2));
 * quatXyzwFromRotation(new Float64Array(4), R); // ≈ [0, 0, 0.7071, 0.7071]
 * ```
 */
export function quatXyzwFromRotation(out: Float64Array, R: ArrayLike<number>): Float64Array {
  if (((out.length - 4) | (R.length - 9)) !== 0)
    lengthError('quatXyzwFromRotation', ['out', 'R'], [4, 9], [out, R]);
  quatFromRotation(q4, R);
  out[0] = q4[1]!;
  out[1] = q4[2]!;
  out[2] = q4[3]!;
  out[3] = q4[0]!;
  return out;
}

/**
 * out ← R = Rz(yaw)·Ry(pitch)·Rx(roll) from rpy = [roll, pitch, yaw] (radians): the z-y′-x″
 * intrinsic (Tait–Bryan, "aerospace") sequence, equivalently x-y-z extrinsic: first roll about the
 * fixed x axis, then pitch about the fixed y axis, then yaw about the fixed z axis. Written out,
 *
 *   R = [[cy cp, cy sp sr − sy cr, cy sp cr + sy sr],
 *        [sy cp, sy sp sr + cy cr, sy sp cr − cy sr],
 *        [−sp,   cp sr,            cp cr]]
 *
 * with c·/s· the cosines and sines of roll (r), pitch (p), yaw (y).
 *
 * @example
 * ```ts
 * rotationFromRpy(new Float64Array(9), Float64Array.of(0, 0, Math.PI / 2)); // 90° about z
 * ```
 */
export function rotationFromRpy(out: Float64Array, rpy: ArrayLike<number>): Float64Array {
  if (((out.length - 9) | (rpy.length - 3)) !== 0)
    lengthError('rotationFromRpy', ['out', 'rpy'], [9, 3], [out, rpy]);
  const r = rpy[0]!;
  const p = rpy[1]!;
  const y = rpy[2]!;
  const sr = Math.sin(r);
  const cr = Math.cos(r);
  const sp = Math.sin(p);
  const cp = Math.cos(p);
  const sy = Math.sin(y);
  const cy = Math.cos(y);
  out[0] = cy * cp;
  out[1] = cy * sp * sr - sy * cr;
  out[2] = cy * sp * cr + sy * sr;
  out[3] = sy * cp;
  out[4] = sy * sp * sr + cy * cr;
  out[5] = sy * sp * cr - cy * sr;
  out[6] = -sp;
  out[7] = cp * sr;
  out[8] = cp * cr;
  return out;
}

/**
 * out ← [roll, pitch, yaw] with R = Rz(yaw)·Ry(pitch)·Rx(roll) ({@link rotationFromRpy}),
 * roll, yaw ∈ (−π, π], pitch ∈ [−π/2, π/2]:
 *
 * - roll = atan2(r₂₁, r₂₂) (r₂₁ = cos p sin r, r₂₂ = cos p cos r);
 * - pitch = atan2(−r₂₀, r₂₁ sin r + r₂₂ cos r) (the second argument is cos p ≥ 0);
 * - yaw from M = R·Rx(roll)ᵀ = Rz(yaw)Ry(pitch): yaw = atan2(−m₀₁, m₁₁) =
 *   atan2(r₀₂ sin r − r₀₁ cos r, r₁₁ cos r − r₁₂ sin r), entries of size 1 at every pitch.
 *
 * Solving yaw from R·Rx(roll)ᵀ (as Eigen's `eulerAngles`) keeps R = Rz Ry Rx of the result
 * accurate to a few ε even where roll itself is ill-conditioned (error ≈ ε/|cos p|).
 * **Gimbal lock** (pitch = ±π/2): only yaw ∓ roll is determined. When |cos p| = ‖(r₂₁, r₂₂)‖ ≤
 * `GIMBAL_LOCK_COS_PITCH` (8ε, zero to rounding) roll is set to 0 and yaw carries the whole
 * rotation about the vertical: yaw = atan2(−r₀₁, r₁₁) (= y − r at p = π/2, y + r at p = −π/2).
 *
 * @example
 * ```ts
 * const R = rotationFromRpy(new Float64Array(9), Float64Array.of(0.1, -0.2, 0.3));
 * rpyFromRotation(new Float64Array(3), R); // [0.1, -0.2, 0.3]
 * ```
 */
export function rpyFromRotation(out: Float64Array, R: ArrayLike<number>): Float64Array {
  if (((out.length - 3) | (R.length - 9)) !== 0)
    lengthError('rpyFromRotation', ['out', 'R'], [3, 9], [out, R]);
  const r01 = R[1]!;
  const r02 = R[2]!;
  const r11 = R[4]!;
  const r12 = R[5]!;
  const r20 = R[6]!;
  const r21 = R[7]!;
  const r22 = R[8]!;
  const roll = Math.hypot(r21, r22) <= GIMBAL_LOCK_COS_PITCH ? 0 : Math.atan2(r21, r22);
  const sr = Math.sin(roll);
  const cr = Math.cos(roll);
  out[0] = principal(roll);
  out[1] = Math.atan2(-r20, r21 * sr + r22 * cr);
  out[2] = principal(Math.atan2(r02 * sr - r01 * cr, r11 * cr - r12 * sr));
  return out;
}

/** −π ↦ π, so angles lie in (−π, π]. */
function principal(a: number): number {
  return a === -Math.PI ? Math.PI : a;
}

/**
 * out ← the rotation by `angle` (radians, right-handed) about the unit vector along `axis`
 * (normalized here): Rodrigues' formula, as `SO3.exp(angle·axis/‖axis‖)`.
 *
 * @throws DomainError when `axis` is zero or has a non-finite entry, or `angle` is not finite.
 *
 * @example
 * ```ts
 * rotationFromAxisAngle(new Float64Array(9), Float64Array.of(0, 0, 2), Math.PI / 2); // 90° about z
 * ```
 */
export function rotationFromAxisAngle(
  out: Float64Array,
  axis: ArrayLike<number>,
  angle: number,
): Float64Array {
  if (((out.length - 9) | (axis.length - 3)) !== 0)
    lengthError('rotationFromAxisAngle', ['out', 'axis'], [9, 3], [out, axis]);
  const n = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
  if (!(n > 0 && n < Number.POSITIVE_INFINITY))
    throw new DomainError('rotationFromAxisAngle: axis', n, '‖axis‖ must be positive and finite');
  if (!Number.isFinite(angle))
    throw new DomainError('rotationFromAxisAngle: angle', angle, 'must be finite');
  const k = angle / n;
  t3[0] = k * axis[0]!;
  t3[1] = k * axis[1]!;
  t3[2] = k * axis[2]!;
  return SO3.exp(out, t3);
}

/**
 * out ← [n_x, n_y, n_z, θ]: the unit axis n and angle θ ∈ [0, π] of the rotation R, from
 * θn = Log R ({@link SO3Group.log}, robust at θ = π where either of ±n is returned). For the
 * identity (θ = 0) the axis is undetermined and (1, 0, 0) is returned.
 *
 * @throws DomainError when R fails the rotation test of `SO3.log`.
 *
 * @example
 * ```ts
 * const R = rotationFromAxisAngle(new Float64Array(9), Float64Array.of(1, 1, 0), 0.5);
 * axisAngleFromRotation(new Float64Array(4), R); // [0.7071, 0.7071, 0, 0.5]
 * ```
 */
export function axisAngleFromRotation(out: Float64Array, R: Float64Array): Float64Array {
  if (((out.length - 4) | (R.length - 9)) !== 0)
    lengthError('axisAngleFromRotation', ['out', 'R'], [4, 9], [out, R]);
  SO3.log(t3, R);
  const theta = Math.hypot(t3[0]!, t3[1]!, t3[2]!);
  if (theta === 0) {
    out[0] = 1;
    out[1] = 0;
    out[2] = 0;
    out[3] = 0;
    return out;
  }
  out[0] = t3[0]! / theta;
  out[1] = t3[1]! / theta;
  out[2] = t3[2]! / theta;
  out[3] = theta;
  return out;
}
