/**
 * Internal kernels of SE(3) and SE₂(3) (not exported from the package): the scalar coefficients of
 * the closed forms with their series branches, the SO(3) left Jacobian block and Barfoot's Q
 * matrix of the SE(3) Jacobians, the adjoint and its inverse, and the rotation logarithm of a
 * homogeneous block. Formulas: manif (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix D.
 *
 * @module
 */
import { LOG_ELEMENT_TOL, SE3_SERIES_ANGLE, SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../constants.js';
import { DomainError } from '../errors.js';
import { mul3 } from '../linalg/small.js';

// ---------------------------------------------------------------------------------------------
// Scalar coefficients of the closed forms, θ = |ω|
// ---------------------------------------------------------------------------------------------

function factorial(n: number): number {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return f;
}

/** Number of Maclaurin terms kept below SE3_SERIES_ANGLE (truncation < 1e-19 relative). */
const SERIES_TERMS = 9;
/** C = (θ − sin θ)/θ³ = Σ_m (−1)^m θ^{2m}/(2m+3)!. */
export const C_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => (m % 2 === 0 ? 1 : -1) / factorial(2 * m + 3),
);
/** c₂ = (θ² + 2cos θ − 2)/(2θ⁴) = Σ_m (−1)^m θ^{2m}/(2m+4)!. */
export const C2_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => (m % 2 === 0 ? 1 : -1) / factorial(2 * m + 4),
);
/** c₃ = (2θ − 3 sin θ + θ cos θ)/(2θ⁵) = Σ_m (−1)^m (m+1) θ^{2m}/(2m+5)!. */
export const C3_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => ((m % 2 === 0 ? 1 : -1) * (m + 1)) / factorial(2 * m + 5),
);

/** Σ_m coef[m]·x^m by Horner's rule. */
export function horner(coef: Float64Array, x: number): number {
  let s = 0;
  for (let m = coef.length - 1; m >= 0; m--) s = s * x + coef[m]!;
  return s;
}

/** A = sin θ/θ (Taylor 1 − θ²/6 + θ⁴/120 below SMALL_ANGLE). */
export function coefA(theta: number, theta2: number): number {
  return theta < SMALL_ANGLE ? 1 - (theta2 / 6) * (1 - theta2 / 20) : Math.sin(theta) / theta;
}

/** B = (1 − cos θ)/θ² = 2 sin²(θ/2)/θ² (Taylor 1/2 − θ²/24 + θ⁴/720 below SMALL_ANGLE). */
export function coefB(theta: number, theta2: number): number {
  if (theta < SMALL_ANGLE) return 0.5 - (theta2 / 24) * (1 - theta2 / 30);
  const h = Math.sin(0.5 * theta) / theta;
  return 2 * h * h;
}

/** C = (θ − sin θ)/θ³ (Maclaurin series below SE3_SERIES_ANGLE). */
export function coefC(theta: number, theta2: number): number {
  return theta < SE3_SERIES_ANGLE
    ? horner(C_SERIES, theta2)
    : (theta - Math.sin(theta)) / (theta2 * theta);
}

/**
 * D = (1 − (θ/2)·cot(θ/2))/θ², the θ̂² coefficient of the SO(3) inverse Jacobians
 * J_l⁻¹ = I − θ̂/2 + D θ̂² (Taylor 1/12 + θ²/720 + θ⁴/30240 below SMALL_ANGLE).
 */
export function coefD(theta: number, theta2: number): number {
  if (theta < SMALL_ANGLE) return 1 / 12 + (theta2 / 720) * (1 + theta2 / 42);
  const half = 0.5 * theta;
  return (1 - (half * Math.cos(half)) / Math.sin(half)) / theta2;
}

/**
 * The rotation vector ω = Log(R) of the 3×3 block of a homogeneous matrix X (row-major, `stride`
 * columns) into out[off..off+2], and returns θ = |ω| (manif eq. 173's rotation part): θ =
 * atan2(|s|, c), s = vee((R − Rᵀ)/2), c = (tr R − 1)/2, the axis from the symmetric part near π.
 * @throws DomainError when |s|² + c² − 1 exceeds `LOG_ELEMENT_TOL` (not a rotation block).
 */
export function rotationLog(
  out: Float64Array,
  off: number,
  X: ArrayLike<number>,
  stride: number,
  what: string,
): number {
  const r00 = X[0]!;
  const r01 = X[1]!;
  const r02 = X[2]!;
  const r10 = X[stride]!;
  const r11 = X[stride + 1]!;
  const r12 = X[stride + 2]!;
  const r20 = X[2 * stride]!;
  const r21 = X[2 * stride + 1]!;
  const r22 = X[2 * stride + 2]!;
  const sx = 0.5 * (r21 - r12);
  const sy = 0.5 * (r02 - r20);
  const sz = 0.5 * (r10 - r01);
  const c = 0.5 * (r00 + r11 + r22 - 1);
  const s2 = sx * sx + sy * sy + sz * sz;
  const defect = s2 + c * c - 1;
  if (defect > LOG_ELEMENT_TOL || defect < -LOG_ELEMENT_TOL) {
    throw new DomainError(
      what,
      defect,
      `must have a rotation block: sin²θ + cos²θ − 1 read from it must be within ${LOG_ELEMENT_TOL} of 0 (use normalize first)`,
    );
  }
  const s = Math.sqrt(s2);
  const theta = Math.atan2(s, c);
  if (Math.PI - theta < SO3_LOG_NEAR_PI) {
    // (R + Rᵀ)/2 − cI = (1 − c) nnᵀ: its column with the largest diagonal entry is ∥ n.
    const d0 = r00 - c;
    const d1 = r11 - c;
    const d2 = r22 - c;
    let nx: number;
    let ny: number;
    let nz: number;
    if (d0 >= d1 && d0 >= d2) {
      nx = d0;
      ny = 0.5 * (r10 + r01);
      nz = 0.5 * (r20 + r02);
    } else if (d1 >= d2) {
      nx = 0.5 * (r01 + r10);
      ny = d1;
      nz = 0.5 * (r21 + r12);
    } else {
      nx = 0.5 * (r02 + r20);
      ny = 0.5 * (r12 + r21);
      nz = d2;
    }
    let k = theta / Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (nx * sx + ny * sy + nz * sz < 0) k = -k;
    out[off] = k * nx;
    out[off + 1] = k * ny;
    out[off + 2] = k * nz;
  } else {
    // θ/sin θ, Taylor 1 + θ²/6 + 7θ⁴/360 below SMALL_ANGLE
    const theta2 = theta * theta;
    const k = theta < SMALL_ANGLE ? 1 + (theta2 / 6) * (1 + (7 * theta2) / 60) : theta / s;
    out[off] = k * sx;
    out[off + 1] = k * sy;
    out[off + 2] = k * sz;
  }
  return theta;
}

/**
 * out[off..off+2] ← V(θ)⁻¹ t = t − ½ θ×t + D θ×(θ×t), V⁻¹ = J_l(θ)⁻¹ = I − θ̂/2 + D θ̂²
 * (manif eq. 173), D = (1 − (θ/2)cot(θ/2))/θ².
 */
export function applyVInv(
  out: Float64Array,
  off: number,
  wx: number,
  wy: number,
  wz: number,
  D: number,
  tx: number,
  ty: number,
  tz: number,
): void {
  const cx = wy * tz - wz * ty;
  const cy = wz * tx - wx * tz;
  const cz = wx * ty - wy * tx;
  out[off] = tx - 0.5 * cx + D * (wy * cz - wz * cy);
  out[off + 1] = ty - 0.5 * cy + D * (wz * cx - wx * cz);
  out[off + 2] = tz - 0.5 * cz + D * (wx * cy - wy * cx);
}

/** Writes the 3×3 skew matrix of (x, y, z) at `off` of a row-major matrix with `stride` columns. */
export function skewInto(
  out: Float64Array,
  off: number,
  stride: number,
  x: number,
  y: number,
  z: number,
): void {
  out[off] = 0;
  out[off + 1] = -z;
  out[off + 2] = y;
  out[off + stride] = z;
  out[off + stride + 1] = 0;
  out[off + stride + 2] = -x;
  out[off + 2 * stride] = -y;
  out[off + 2 * stride + 1] = x;
  out[off + 2 * stride + 2] = 0;
}

/**
 * Scratch and kernels of the SE(3)-type Jacobians (manif eqs. 179–180): the SO(3) left Jacobian
 * J_l(θ) = I + B θ̂ + C θ̂² or its inverse I − ½θ̂ + D θ̂², and Barfoot's
 * Q(ρ, θ) = ½ρ̂ + C (θ̂ρ̂ + ρ̂θ̂ + θ̂ρ̂θ̂) + c₂ (θ̂²ρ̂ + ρ̂θ̂² − 3θ̂ρ̂θ̂) + c₃ (θ̂ρ̂θ̂² + θ̂²ρ̂θ̂).
 */
export class SE3JacobianKernel {
  private readonly w = new Float64Array(9);
  private readonly v = new Float64Array(9);
  private readonly wv = new Float64Array(9);
  private readonly vw = new Float64Array(9);
  private readonly wvw = new Float64Array(9);
  private readonly wwv = new Float64Array(9);
  private readonly vww = new Float64Array(9);
  private readonly wvww = new Float64Array(9);
  private readonly wwvw = new Float64Array(9);

  /** j ← J_l(θ) (inverse = false) or J_l(θ)⁻¹ (inverse = true), θ = (wx, wy, wz). */
  so3Block(j: Float64Array, wx: number, wy: number, wz: number, inverse: boolean): Float64Array {
    const theta2 = wx * wx + wy * wy + wz * wz;
    const theta = Math.sqrt(theta2);
    // θ̂² = θθᵀ − θ²I
    const k1 = inverse ? -0.5 : coefB(theta, theta2);
    const k2 = inverse ? coefD(theta, theta2) : coefC(theta, theta2);
    j[0] = 1 + k2 * (wx * wx - theta2);
    j[1] = k2 * wx * wy - k1 * wz;
    j[2] = k2 * wx * wz + k1 * wy;
    j[3] = k2 * wx * wy + k1 * wz;
    j[4] = 1 + k2 * (wy * wy - theta2);
    j[5] = k2 * wy * wz - k1 * wx;
    j[6] = k2 * wx * wz - k1 * wy;
    j[7] = k2 * wy * wz + k1 * wx;
    j[8] = 1 + k2 * (wz * wz - theta2);
    return j;
  }

  /** q ← Q(ρ, θ) with ρ = (vx, vy, vz), θ = (wx, wy, wz). */
  q(
    q: Float64Array,
    vx: number,
    vy: number,
    vz: number,
    wx: number,
    wy: number,
    wz: number,
  ): Float64Array {
    const theta2 = wx * wx + wy * wy + wz * wz;
    const theta = Math.sqrt(theta2);
    const { w, v, wv, vw, wvw, wwv, vww, wvww, wwvw } = this;
    skewInto(w, 0, 3, wx, wy, wz);
    skewInto(v, 0, 3, vx, vy, vz);
    mul3(wv, w, v);
    mul3(vw, v, w);
    mul3(wvw, wv, w);
    mul3(wwv, w, wv);
    mul3(vww, vw, w);
    mul3(wvww, wvw, w);
    mul3(wwvw, w, wvw);
    let C: number;
    let c2: number;
    let c3: number;
    if (theta < SE3_SERIES_ANGLE) {
      C = horner(C_SERIES, theta2);
      c2 = horner(C2_SERIES, theta2);
      c3 = horner(C3_SERIES, theta2);
    } else {
      const B = coefB(theta, theta2);
      C = coefC(theta, theta2);
      c2 = (1 - 2 * B) / (2 * theta2);
      c3 = (3 * C - B) / (2 * theta2);
    }
    for (let i = 0; i < 9; i++) {
      q[i] =
        0.5 * v[i]! +
        C * (wv[i]! + vw[i]! + wvw[i]!) +
        c2 * (wwv[i]! + vww[i]! - 3 * wvw[i]!) +
        c3 * (wvww[i]! + wwvw[i]!);
    }
    return q;
  }
}

/**
 * Writes Ad of a rotation R and translation-like vectors into a square matrix with `n` columns:
 * R on the diagonal blocks `diag` (block indices), t̂R at block (row `tBlockRow`, column
 * `rotBlock`) for each t. Used by SE(3) (Ad = [[R, t̂R], [0, R]]) and SE₂(3).
 */
export function writeRotBlock(
  out: Float64Array,
  n: number,
  rowBlock: number,
  colBlock: number,
  R: ArrayLike<number>,
  rOff: number,
  rStride: number,
  transpose: boolean,
  scale: number,
): void {
  const r0 = 3 * rowBlock;
  const c0 = 3 * colBlock;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      out[(r0 + i) * n + c0 + j] =
        scale * (transpose ? R[rOff + j * rStride + i]! : R[rOff + i * rStride + j]!);
}

/**
 * out block (rowBlock, colBlock) ← s·t̂·R (or s·Rᵀ·t̂ when `transpose`), R the 3×3 block of a
 * row-major matrix at rOff with rStride columns.
 */
export function writeSkewRotBlock(
  out: Float64Array,
  n: number,
  rowBlock: number,
  colBlock: number,
  tx: number,
  ty: number,
  tz: number,
  R: ArrayLike<number>,
  rOff: number,
  rStride: number,
  transpose: boolean,
  scale: number,
): void {
  const r0 = 3 * rowBlock;
  const c0 = 3 * colBlock;
  for (let j = 0; j < 3; j++) {
    if (!transpose) {
      // column j of t̂R = t × (column j of R)
      const c0j = R[rOff + j]!;
      const c1j = R[rOff + rStride + j]!;
      const c2j = R[rOff + 2 * rStride + j]!;
      out[r0 * n + c0 + j] = scale * (ty * c2j - tz * c1j);
      out[(r0 + 1) * n + c0 + j] = scale * (tz * c0j - tx * c2j);
      out[(r0 + 2) * n + c0 + j] = scale * (tx * c1j - ty * c0j);
    } else {
      // row j of Rᵀt̂ = (column j of R)ᵀ t̂ = −(t × column j of R)ᵀ ... written entrywise:
      // (Rᵀ t̂)_{jk} = Σ_m R_mj t̂_mk
      const a = R[rOff + j]!;
      const b = R[rOff + rStride + j]!;
      const c = R[rOff + 2 * rStride + j]!;
      // t̂ = [[0, −tz, ty], [tz, 0, −tx], [−ty, tx, 0]]
      out[(r0 + j) * n + c0] = scale * (b * tz - c * ty);
      out[(r0 + j) * n + c0 + 1] = scale * (-a * tz + c * tx);
      out[(r0 + j) * n + c0 + 2] = scale * (a * ty - b * tx);
    }
  }
}
