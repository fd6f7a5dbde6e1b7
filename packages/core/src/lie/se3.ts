/**
 * SE(3), the rigid motions of R³, as 4×4 homogeneous matrices X = [[R, t], [0, 1]] stored flat
 * row-major (16 numbers), with tangent vectors τ = [ρ; θ] = [v, ω] (translation part first).
 * Formulas and equation numbers are those of manif (Solà, Deray, Atchuthan, "A micro Lie theory
 * for state estimation in robotics", arXiv:1812.01537, appendix D); conventions are those of
 * `packages/core/CONVENTIONS.md`.
 *
 * @module
 */
import { SE3_SERIES_ANGLE, SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../constants.js';
import { mul3 } from '../linalg/small.js';
import type { LieGroup, Rng } from './types.js';

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
const C_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => (m % 2 === 0 ? 1 : -1) / factorial(2 * m + 3),
);
/** c₂ = (θ² + 2cos θ − 2)/(2θ⁴) = Σ_m (−1)^m θ^{2m}/(2m+4)!. */
const C2_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => (m % 2 === 0 ? 1 : -1) / factorial(2 * m + 4),
);
/** c₃ = (2θ − 3 sin θ + θ cos θ)/(2θ⁵) = Σ_m (−1)^m (m+1) θ^{2m}/(2m+5)!. */
const C3_SERIES = Float64Array.from(
  { length: SERIES_TERMS },
  (_, m) => ((m % 2 === 0 ? 1 : -1) * (m + 1)) / factorial(2 * m + 5),
);

/** Σ_m coef[m]·x^m by Horner's rule. */
function horner(coef: Float64Array, x: number): number {
  let s = 0;
  for (let m = coef.length - 1; m >= 0; m--) s = s * x + coef[m]!;
  return s;
}

/** A = sin θ/θ (Taylor 1 − θ²/6 + θ⁴/120 below SMALL_ANGLE). */
function coefA(theta: number, theta2: number): number {
  return theta < SMALL_ANGLE ? 1 - (theta2 / 6) * (1 - theta2 / 20) : Math.sin(theta) / theta;
}

/** B = (1 − cos θ)/θ² = 2 sin²(θ/2)/θ² (Taylor 1/2 − θ²/24 + θ⁴/720 below SMALL_ANGLE). */
function coefB(theta: number, theta2: number): number {
  if (theta < SMALL_ANGLE) return 0.5 - (theta2 / 24) * (1 - theta2 / 30);
  const h = Math.sin(0.5 * theta) / theta;
  return 2 * h * h;
}

/** C = (θ − sin θ)/θ³ (Maclaurin series below SE3_SERIES_ANGLE). */
function coefC(theta: number, theta2: number): number {
  return theta < SE3_SERIES_ANGLE
    ? horner(C_SERIES, theta2)
    : (theta - Math.sin(theta)) / (theta2 * theta);
}

/**
 * D = (1 − (θ/2)·cot(θ/2))/θ², the θ̂² coefficient of the SO(3) inverse Jacobians
 * J_l⁻¹ = I − θ̂/2 + D θ̂² (Taylor 1/12 + θ²/720 + θ⁴/30240 below SMALL_ANGLE).
 */
function coefD(theta: number, theta2: number): number {
  if (theta < SMALL_ANGLE) return 1 / 12 + (theta2 / 720) * (1 + theta2 / 42);
  const half = 0.5 * theta;
  return (1 - (half * Math.cos(half)) / Math.sin(half)) / theta2;
}

// ---------------------------------------------------------------------------------------------
// The group
// ---------------------------------------------------------------------------------------------

/**
 * The special Euclidean group SE(3) (manif appendix D). Conventions:
 * `packages/core/CONVENTIONS.md`.
 *
 * - Element: X = [[R, t], [0, 1]], 4×4 row-major (`storageSize` 16, `matrixSize` 4); it acts on
 *   points p ∈ R³ by X·p = R p + t (`actionDim` 3).
 * - Tangent: τ = [ρ; θ] (`dim` 6), τ^ = [[θ̂, ρ], [0, 0]] (manif eq. 169).
 * - Exp(τ) = [[Exp(θ), V(θ) ρ], [0, 1]] with V(θ) = J_l(θ) = I + B θ̂ + C θ̂² (eq. 172),
 *   A = sin θ/θ, B = (1 − cos θ)/θ², C = (θ − sin θ)/θ³; Log inverts it (eq. 173).
 * - Ad_X = [[R, t̂R], [0, R]] (eq. 175); ad_τ = [[θ̂, ρ̂], [0, θ̂]].
 * - J_l(τ) = [[J_l(θ), Q(ρ, θ)], [0, J_l(θ)]], J_r(τ) = J_l(−τ) (eqs. 179–180), with
 *   Q(ρ, θ) = ½ρ̂ + C (θ̂ρ̂ + ρ̂θ̂ + θ̂ρ̂θ̂) + c₂ (θ̂²ρ̂ + ρ̂θ̂² − 3θ̂ρ̂θ̂) + c₃ (θ̂ρ̂θ̂² + θ̂²ρ̂θ̂),
 *   c₂ = (θ² + 2cos θ − 2)/(2θ⁴), c₃ = (2θ − 3 sin θ + θ cos θ)/(2θ⁵) (Barfoot's Q), and
 *   J_l(τ)⁻¹ = [[J_l(θ)⁻¹, −J_l(θ)⁻¹ Q J_l(θ)⁻¹], [0, J_l(θ)⁻¹]].
 *
 * Numerics: A, B and D switch to their Taylor series below `SMALL_ANGLE`; C, c₂, c₃ (which cancel
 * to high order) are summed from their Maclaurin series below `SE3_SERIES_ANGLE`; Log takes the
 * rotation angle as θ = atan2(|s|, (tr R − 1)/2), s = vee((R − Rᵀ)/2), and near π
 * (`SO3_LOG_NEAR_PI`) the axis from the symmetric part of R. `compose`, `inverse`, `between` and
 * `act` may alias their output with an input; `exp`, `log`, `compose` and `act` allocate nothing.
 *
 * @example
 * ```ts
 * const X = SE3.exp(new Float64Array(16), Float64Array.of(1, 0, 0, 0, 0, Math.PI / 2));
 * SE3.act(new Float64Array(3), X, Float64Array.of(1, 0, 0)); // ≈ [2/π, 1 + 2/π, 0]
 * SE3.log(new Float64Array(6), X); // ≈ [1, 0, 0, 0, 0, π/2]
 * ```
 */
export class SE3Group implements LieGroup {
  readonly name = 'SE(3)';
  readonly dim = 6;
  readonly storageSize = 16;
  readonly matrixSize = 4;
  readonly actionDim = 3;

  /** Scratch element for ⊕/⊖ and `between`-based operations. */
  private readonly g = new Float64Array(16);
  /** Scratch 3×3 matrices of the Jacobians: θ̂, ρ̂, products, Q, the SO(3) block. */
  private readonly w = new Float64Array(9);
  private readonly v = new Float64Array(9);
  private readonly wv = new Float64Array(9);
  private readonly vw = new Float64Array(9);
  private readonly wvw = new Float64Array(9);
  private readonly wwv = new Float64Array(9);
  private readonly vww = new Float64Array(9);
  private readonly wvww = new Float64Array(9);
  private readonly wwvw = new Float64Array(9);
  private readonly q = new Float64Array(9);
  private readonly j = new Float64Array(9);

  /**
   * out ← I₄.
   *
   * @example
   * ```ts
   * SE3.identity(new Float64Array(16));
   * ```
   */
  identity(out: Float64Array): Float64Array {
    out.fill(0);
    out[0] = 1;
    out[5] = 1;
    out[10] = 1;
    out[15] = 1;
    return out;
  }

  /**
   * out ← a·b = [[R_a R_b, R_a t_b + t_a], [0, 1]] (manif eq. 171). `out` may alias `a` or `b`.
   *
   * @example
   * ```ts
   * SE3.compose(X, X, dX); // X ← X·dX in place
   * ```
   */
  compose(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
    const a00 = a[0]!;
    const a01 = a[1]!;
    const a02 = a[2]!;
    const a03 = a[3]!;
    const a10 = a[4]!;
    const a11 = a[5]!;
    const a12 = a[6]!;
    const a13 = a[7]!;
    const a20 = a[8]!;
    const a21 = a[9]!;
    const a22 = a[10]!;
    const a23 = a[11]!;
    const b00 = b[0]!;
    const b01 = b[1]!;
    const b02 = b[2]!;
    const b03 = b[3]!;
    const b10 = b[4]!;
    const b11 = b[5]!;
    const b12 = b[6]!;
    const b13 = b[7]!;
    const b20 = b[8]!;
    const b21 = b[9]!;
    const b22 = b[10]!;
    const b23 = b[11]!;
    out[0] = a00 * b00 + a01 * b10 + a02 * b20;
    out[1] = a00 * b01 + a01 * b11 + a02 * b21;
    out[2] = a00 * b02 + a01 * b12 + a02 * b22;
    out[3] = a00 * b03 + a01 * b13 + a02 * b23 + a03;
    out[4] = a10 * b00 + a11 * b10 + a12 * b20;
    out[5] = a10 * b01 + a11 * b11 + a12 * b21;
    out[6] = a10 * b02 + a11 * b12 + a12 * b22;
    out[7] = a10 * b03 + a11 * b13 + a12 * b23 + a13;
    out[8] = a20 * b00 + a21 * b10 + a22 * b20;
    out[9] = a20 * b01 + a21 * b11 + a22 * b21;
    out[10] = a20 * b02 + a21 * b12 + a22 * b22;
    out[11] = a20 * b03 + a21 * b13 + a22 * b23 + a23;
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← a⁻¹ = [[Rᵀ, −Rᵀt], [0, 1]] (manif eq. 170). `out` may alias `a`.
   *
   * @example
   * ```ts
   * SE3.inverse(Xinv, X);
   * ```
   */
  inverse(out: Float64Array, a: Float64Array): Float64Array {
    const r00 = a[0]!;
    const r01 = a[1]!;
    const r02 = a[2]!;
    const tx = a[3]!;
    const r10 = a[4]!;
    const r11 = a[5]!;
    const r12 = a[6]!;
    const ty = a[7]!;
    const r20 = a[8]!;
    const r21 = a[9]!;
    const r22 = a[10]!;
    const tz = a[11]!;
    out[0] = r00;
    out[1] = r10;
    out[2] = r20;
    out[3] = -(r00 * tx + r10 * ty + r20 * tz);
    out[4] = r01;
    out[5] = r11;
    out[6] = r21;
    out[7] = -(r01 * tx + r11 * ty + r21 * tz);
    out[8] = r02;
    out[9] = r12;
    out[10] = r22;
    out[11] = -(r02 * tx + r12 * ty + r22 * tz);
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← Exp(τ) = [[R, V ρ], [0, 1]] (manif eq. 172) with R = I + A θ̂ + B θ̂² (Rodrigues) and
   * V = I + B θ̂ + C θ̂², A = sin θ/θ, B = (1 − cos θ)/θ², C = (θ − sin θ)/θ³. Allocation-free.
   *
   * @example
   * ```ts
   * SE3.exp(X, Float64Array.of(0, 0, 1, 0, 0, 0.3)); // rotate 0.3 about z, translate 1 along z
   * ```
   */
  exp(out: Float64Array, tau: Float64Array): Float64Array {
    const vx = tau[0]!;
    const vy = tau[1]!;
    const vz = tau[2]!;
    const wx = tau[3]!;
    const wy = tau[4]!;
    const wz = tau[5]!;
    const theta2 = wx * wx + wy * wy + wz * wz;
    const theta = Math.sqrt(theta2);
    const A = coefA(theta, theta2);
    const B = coefB(theta, theta2);
    const C = coefC(theta, theta2);
    // θ̂² = θθᵀ − θ²I, so R = (1 − Bθ²) I + B θθᵀ + A θ̂, with 1 − Bθ² = cos θ.
    const c = 1 - B * theta2;
    out[0] = c + B * wx * wx;
    out[1] = B * wx * wy - A * wz;
    out[2] = B * wx * wz + A * wy;
    out[4] = B * wx * wy + A * wz;
    out[5] = c + B * wy * wy;
    out[6] = B * wy * wz - A * wx;
    out[8] = B * wx * wz - A * wy;
    out[9] = B * wy * wz + A * wx;
    out[10] = c + B * wz * wz;
    // t = ρ + B θ×ρ + C θ×(θ×ρ)
    const cx = wy * vz - wz * vy;
    const cy = wz * vx - wx * vz;
    const cz = wx * vy - wy * vx;
    out[3] = vx + B * cx + C * (wy * cz - wz * cy);
    out[7] = vy + B * cy + C * (wz * cx - wx * cz);
    out[11] = vz + B * cz + C * (wx * cy - wy * cx);
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← Log(X) = [V⁻¹(θ) t; θ] (manif eq. 173) on the principal branch |θ| ≤ π, with
   * θ = atan2(|s|, (tr R − 1)/2)·s/|s|, s = vee((R − Rᵀ)/2), and V⁻¹ = I − θ̂/2 + D θ̂²,
   * D = (1 − (θ/2)cot(θ/2))/θ². When π − θ < `SO3_LOG_NEAR_PI` the axis n is the largest column of
   * (R + Rᵀ)/2 − cos θ·I = (1 − cos θ) nnᵀ, signed by s. Allocation-free.
   *
   * @example
   * ```ts
   * SE3.log(new Float64Array(6), SE3.exp(new Float64Array(16), tau)); // ≈ tau for |θ| < π
   * ```
   */
  log(out: Float64Array, X: Float64Array): Float64Array {
    const r00 = X[0]!;
    const r01 = X[1]!;
    const r02 = X[2]!;
    const tx = X[3]!;
    const r10 = X[4]!;
    const r11 = X[5]!;
    const r12 = X[6]!;
    const ty = X[7]!;
    const r20 = X[8]!;
    const r21 = X[9]!;
    const r22 = X[10]!;
    const tz = X[11]!;
    const sx = 0.5 * (r21 - r12);
    const sy = 0.5 * (r02 - r20);
    const sz = 0.5 * (r10 - r01);
    const c = 0.5 * (r00 + r11 + r22 - 1);
    const s = Math.sqrt(sx * sx + sy * sy + sz * sz);
    const theta = Math.atan2(s, c);
    let wx: number;
    let wy: number;
    let wz: number;
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
      wx = k * nx;
      wy = k * ny;
      wz = k * nz;
    } else {
      // θ/sin θ, Taylor 1 + θ²/6 + 7θ⁴/360 below SMALL_ANGLE
      const theta2 = theta * theta;
      const k = theta < SMALL_ANGLE ? 1 + (theta2 / 6) * (1 + (7 * theta2) / 60) : theta / s;
      wx = k * sx;
      wy = k * sy;
      wz = k * sz;
    }
    const D = coefD(theta, theta * theta);
    // ρ = t − ½ θ×t + D θ×(θ×t)
    const cx = wy * tz - wz * ty;
    const cy = wz * tx - wx * tz;
    const cz = wx * ty - wy * tx;
    out[0] = tx - 0.5 * cx + D * (wy * cz - wz * cy);
    out[1] = ty - 0.5 * cy + D * (wz * cx - wx * cz);
    out[2] = tz - 0.5 * cz + D * (wx * cy - wy * cx);
    out[3] = wx;
    out[4] = wy;
    out[5] = wz;
    return out;
  }

  /**
   * out ← τ^ = [[θ̂, ρ], [0, 0]] (4×4, manif eq. 169), with
   * θ̂ = [[0, −θz, θy], [θz, 0, −θx], [−θy, θx, 0]].
   *
   * @example
   * ```ts
   * SE3.hat(new Float64Array(16), Float64Array.of(1, 2, 3, 0, 0, 1));
   * // [0, −1, 0, 1,  1, 0, 0, 2,  0, 0, 0, 3,  0, 0, 0, 0]
   * ```
   */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    const wx = tau[3]!;
    const wy = tau[4]!;
    const wz = tau[5]!;
    out[0] = 0;
    out[1] = -wz;
    out[2] = wy;
    out[3] = tau[0]!;
    out[4] = wz;
    out[5] = 0;
    out[6] = -wx;
    out[7] = tau[1]!;
    out[8] = -wy;
    out[9] = wx;
    out[10] = 0;
    out[11] = tau[2]!;
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 0;
    return out;
  }

  /**
   * out ← m∨ = [m₀₃, m₁₃, m₂₃, (m₂₁ − m₁₂)/2, (m₀₂ − m₂₀)/2, (m₁₀ − m₀₁)/2]: inverse of
   * {@link SE3Group.hat}, taking the skew part of the rotation block (exact on a hat).
   *
   * @example
   * ```ts
   * SE3.vee(new Float64Array(6), SE3.hat(new Float64Array(16), tau)); // tau
   * ```
   */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    const rho0 = m[3]!;
    const rho1 = m[7]!;
    const rho2 = m[11]!;
    const wx = 0.5 * (m[9]! - m[6]!);
    const wy = 0.5 * (m[2]! - m[8]!);
    const wz = 0.5 * (m[4]! - m[1]!);
    out[0] = rho0;
    out[1] = rho1;
    out[2] = rho2;
    out[3] = wx;
    out[4] = wy;
    out[5] = wz;
    return out;
  }

  /**
   * out ← X·p = R p + t (manif eq. 181). `out` may alias `p`. Allocation-free.
   *
   * @example
   * ```ts
   * SE3.act(p, X, p); // transform p in place
   * ```
   */
  act(out: Float64Array, X: Float64Array, p: Float64Array): Float64Array {
    const px = p[0]!;
    const py = p[1]!;
    const pz = p[2]!;
    out[0] = X[0]! * px + X[1]! * py + X[2]! * pz + X[3]!;
    out[1] = X[4]! * px + X[5]! * py + X[6]! * pz + X[7]!;
    out[2] = X[8]! * px + X[9]! * py + X[10]! * pz + X[11]!;
    return out;
  }

  /**
   * out ← Ad_X = [[R, t̂R], [0, R]] (6×6 row-major, manif eq. 175), so X·Exp(τ) = Exp(Ad_X τ)·X.
   *
   * @example
   * ```ts
   * SE3.adj(new Float64Array(36), X);
   * ```
   */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    const tx = X[3]!;
    const ty = X[7]!;
    const tz = X[11]!;
    for (let j = 0; j < 3; j++) {
      const c0 = X[j]!;
      const c1 = X[4 + j]!;
      const c2 = X[8 + j]!;
      // column j of R in both diagonal blocks, t × (column j of R) in the top-right block
      out[j] = c0;
      out[6 + j] = c1;
      out[12 + j] = c2;
      out[21 + j] = c0;
      out[27 + j] = c1;
      out[33 + j] = c2;
      out[3 + j] = ty * c2 - tz * c1;
      out[9 + j] = tz * c0 - tx * c2;
      out[15 + j] = tx * c1 - ty * c0;
      out[18 + j] = 0;
      out[24 + j] = 0;
      out[30 + j] = 0;
    }
    return out;
  }

  /**
   * out ← ad_τ = [[θ̂, ρ̂], [0, θ̂]] (6×6), so ad_τ σ = [τ^, σ^]∨ = [θ×σ_ρ + ρ×σ_θ; θ×σ_θ].
   *
   * @example
   * ```ts
   * SE3.smallAdj(new Float64Array(36), tau);
   * ```
   */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    out.fill(0);
    skewInto(out, 0, 6, tau[3]!, tau[4]!, tau[5]!);
    skewInto(out, 21, 6, tau[3]!, tau[4]!, tau[5]!);
    skewInto(out, 3, 6, tau[0]!, tau[1]!, tau[2]!);
    return out;
  }

  /**
   * out ← X ⊕ τ = X·Exp(τ). `out` may alias `X`.
   *
   * @example
   * ```ts
   * SE3.rplus(X, X, dtau); // body-frame update
   * ```
   */
  rplus(out: Float64Array, X: Float64Array, tau: Float64Array): Float64Array {
    return this.compose(out, X, this.exp(this.g, tau));
  }

  /**
   * out ← Y ⊖ X = Log(X⁻¹·Y).
   *
   * @example
   * ```ts
   * SE3.rminus(new Float64Array(6), Y, X);
   * ```
   */
  rminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    return this.log(out, this.between(this.g, X, Y));
  }

  /**
   * out ← τ ⊕ X = Exp(τ)·X. `out` may alias `X`.
   *
   * @example
   * ```ts
   * SE3.lplus(X, dtau, X); // world-frame update
   * ```
   */
  lplus(out: Float64Array, tau: Float64Array, X: Float64Array): Float64Array {
    return this.compose(out, this.exp(this.g, tau), X);
  }

  /**
   * out ← Y ⊖ˡ X = Log(Y·X⁻¹).
   *
   * @example
   * ```ts
   * SE3.lminus(new Float64Array(6), Y, X);
   * ```
   */
  lminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    const g = this.g;
    return this.log(out, this.compose(g, Y, this.inverse(g, X)));
  }

  /**
   * out ← X⁻¹·Y = [[R_Xᵀ R_Y, R_Xᵀ (t_Y − t_X)], [0, 1]]. `out` may alias `X` or `Y`.
   *
   * @example
   * ```ts
   * SE3.between(new Float64Array(16), X, Y);
   * ```
   */
  between(out: Float64Array, X: Float64Array, Y: Float64Array): Float64Array {
    const a00 = X[0]!;
    const a01 = X[1]!;
    const a02 = X[2]!;
    const a10 = X[4]!;
    const a11 = X[5]!;
    const a12 = X[6]!;
    const a20 = X[8]!;
    const a21 = X[9]!;
    const a22 = X[10]!;
    const dx = Y[3]! - X[3]!;
    const dy = Y[7]! - X[7]!;
    const dz = Y[11]! - X[11]!;
    const b00 = Y[0]!;
    const b01 = Y[1]!;
    const b02 = Y[2]!;
    const b10 = Y[4]!;
    const b11 = Y[5]!;
    const b12 = Y[6]!;
    const b20 = Y[8]!;
    const b21 = Y[9]!;
    const b22 = Y[10]!;
    out[0] = a00 * b00 + a10 * b10 + a20 * b20;
    out[1] = a00 * b01 + a10 * b11 + a20 * b21;
    out[2] = a00 * b02 + a10 * b12 + a20 * b22;
    out[3] = a00 * dx + a10 * dy + a20 * dz;
    out[4] = a01 * b00 + a11 * b10 + a21 * b20;
    out[5] = a01 * b01 + a11 * b11 + a21 * b21;
    out[6] = a01 * b02 + a11 * b12 + a21 * b22;
    out[7] = a01 * dx + a11 * dy + a21 * dz;
    out[8] = a02 * b00 + a12 * b10 + a22 * b20;
    out[9] = a02 * b01 + a12 * b11 + a22 * b21;
    out[10] = a02 * b02 + a12 * b12 + a22 * b22;
    out[11] = a02 * dx + a12 * dy + a22 * dz;
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← J_r(τ) = J_l(−τ) = [[J_r(θ), Q(−ρ, −θ)], [0, J_r(θ)]] (manif eqs. 179–180), with the
   * SO(3) block J_r(θ) = I − B θ̂ + C θ̂². Exp(τ + δ) ≈ Exp(τ)·Exp(J_r δ).
   *
   * @example
   * ```ts
   * SE3.rjac(new Float64Array(36), tau);
   * ```
   */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jacobian(out, tau, -1, false);
  }

  /**
   * out ← J_l(τ) = [[J_l(θ), Q(ρ, θ)], [0, J_l(θ)]] (manif eqs. 179–180), J_l(θ) = V(θ) =
   * I + B θ̂ + C θ̂², Q as in {@link SE3Group}. Exp(τ + δ) ≈ Exp(J_l δ)·Exp(τ).
   *
   * @example
   * ```ts
   * SE3.ljac(new Float64Array(36), tau);
   * ```
   */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jacobian(out, tau, 1, false);
  }

  /**
   * out ← J_r(τ)⁻¹ = [[J_r(θ)⁻¹, −J_r(θ)⁻¹ Q(−ρ, −θ) J_r(θ)⁻¹], [0, J_r(θ)⁻¹]], with the SO(3)
   * inverse J_r(θ)⁻¹ = I + θ̂/2 + D θ̂², D = (1 − (θ/2)cot(θ/2))/θ² (closed form, no solve).
   *
   * @example
   * ```ts
   * SE3.rjacInv(new Float64Array(36), tau);
   * ```
   */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jacobian(out, tau, -1, true);
  }

  /**
   * out ← J_l(τ)⁻¹ = [[J_l(θ)⁻¹, −J_l(θ)⁻¹ Q(ρ, θ) J_l(θ)⁻¹], [0, J_l(θ)⁻¹]], with
   * J_l(θ)⁻¹ = I − θ̂/2 + D θ̂² (closed form, no solve).
   *
   * @example
   * ```ts
   * SE3.ljacInv(new Float64Array(36), tau);
   * ```
   */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jacobian(out, tau, 1, true);
  }

  /**
   * out ← a random element: R uniform (Haar) on SO(3) from a uniform unit quaternion (Shoemake's
   * method, three draws), then t uniform in [−2, 2]³ (three draws).
   *
   * @example
   * ```ts
   * SE3.random(new Float64Array(16), Math.random);
   * ```
   */
  random(out: Float64Array, rng: Rng): Float64Array {
    const u1 = rng();
    const u2 = 2 * Math.PI * rng();
    const u3 = 2 * Math.PI * rng();
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    const x = a * Math.sin(u2);
    const y = a * Math.cos(u2);
    const z = b * Math.sin(u3);
    const w = b * Math.cos(u3);
    out[0] = 1 - 2 * (y * y + z * z);
    out[1] = 2 * (x * y - w * z);
    out[2] = 2 * (x * z + w * y);
    out[4] = 2 * (x * y + w * z);
    out[5] = 1 - 2 * (x * x + z * z);
    out[6] = 2 * (y * z - w * x);
    out[8] = 2 * (x * z - w * y);
    out[9] = 2 * (y * z + w * x);
    out[10] = 1 - 2 * (x * x + y * y);
    out[3] = 4 * rng() - 2;
    out[7] = 4 * rng() - 2;
    out[11] = 4 * rng() - 2;
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← the 4×4 matrix of X (a copy: elements are stored as their matrix).
   *
   * @example
   * ```ts
   * SE3.toMatrix(new Float64Array(16), X);
   * ```
   */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    for (let i = 0; i < 16; i++) out[i] = X[i]!;
    return out;
  }

  /**
   * out ← the element with 4×4 matrix M (a copy; no re-orthonormalization).
   *
   * @example
   * ```ts
   * SE3.fromMatrix(new Float64Array(16), M);
   * ```
   */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    for (let i = 0; i < 16; i++) out[i] = M[i]!;
    return out;
  }

  /**
   * out ← [[R, t], [0, 1]] from a 3×3 row-major rotation R and a translation t (no
   * re-orthonormalization).
   *
   * @example
   * ```ts
   * const R = identity3(new Float64Array(9));
   * SE3.fromRotationTranslation(new Float64Array(16), R, Float64Array.of(1, 2, 3)); // pure shift
   * ```
   */
  fromRotationTranslation(
    out: Float64Array,
    R: ArrayLike<number>,
    t: ArrayLike<number>,
  ): Float64Array {
    out[0] = R[0]!;
    out[1] = R[1]!;
    out[2] = R[2]!;
    out[3] = t[0]!;
    out[4] = R[3]!;
    out[5] = R[4]!;
    out[6] = R[5]!;
    out[7] = t[1]!;
    out[8] = R[6]!;
    out[9] = R[7]!;
    out[10] = R[8]!;
    out[11] = t[2]!;
    out[12] = 0;
    out[13] = 0;
    out[14] = 0;
    out[15] = 1;
    return out;
  }

  /**
   * out ← R, the 3×3 row-major rotation block of X.
   *
   * @example
   * ```ts
   * SE3.rotation(new Float64Array(9), X);
   * ```
   */
  rotation(out: Float64Array, X: Float64Array): Float64Array {
    for (let i = 0; i < 3; i++) {
      out[3 * i] = X[4 * i]!;
      out[3 * i + 1] = X[4 * i + 1]!;
      out[3 * i + 2] = X[4 * i + 2]!;
    }
    return out;
  }

  /**
   * out ← t, the translation of X.
   *
   * @example
   * ```ts
   * SE3.translation(new Float64Array(3), X);
   * ```
   */
  translation(out: Float64Array, X: Float64Array): Float64Array {
    out[0] = X[3]!;
    out[1] = X[7]!;
    out[2] = X[11]!;
    return out;
  }

  /**
   * J_l(sτ) (s = +1) or J_r(τ) = J_l(−τ) (s = −1), or their inverses, into the 6×6 `out`:
   * [[J, Q], [0, J]] or [[J⁻¹, −J⁻¹QJ⁻¹], [0, J⁻¹]] with J the SO(3) left Jacobian at sθ and
   * Q = Q(sρ, sθ).
   */
  private jacobian(
    out: Float64Array,
    tau: Float64Array,
    s: 1 | -1,
    inverse: boolean,
  ): Float64Array {
    const wx = s * tau[3]!;
    const wy = s * tau[4]!;
    const wz = s * tau[5]!;
    const theta2 = wx * wx + wy * wy + wz * wz;
    const theta = Math.sqrt(theta2);
    const { w, v, wv, vw, wvw, wwv, vww, wvww, wwvw, q, j } = this;
    skewInto(w, 0, 3, wx, wy, wz);
    skewInto(v, 0, 3, s * tau[0]!, s * tau[1]!, s * tau[2]!);
    // Q(ρ, θ) = ½ρ̂ + C (θ̂ρ̂ + ρ̂θ̂ + θ̂ρ̂θ̂) + c₂ (θ̂²ρ̂ + ρ̂θ̂² − 3θ̂ρ̂θ̂) + c₃ (θ̂ρ̂θ̂² + θ̂²ρ̂θ̂)
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
    // SO(3) block: J_l = I + B θ̂ + C θ̂², or J_l⁻¹ = I − ½θ̂ + D θ̂²; θ̂² = θθᵀ − θ²I.
    const k1 = inverse ? -0.5 : coefB(theta, theta2);
    const k2 = inverse ? coefD(theta, theta2) : C;
    j[0] = 1 + k2 * (wx * wx - theta2);
    j[1] = k2 * wx * wy - k1 * wz;
    j[2] = k2 * wx * wz + k1 * wy;
    j[3] = k2 * wx * wy + k1 * wz;
    j[4] = 1 + k2 * (wy * wy - theta2);
    j[5] = k2 * wy * wz - k1 * wx;
    j[6] = k2 * wx * wz - k1 * wy;
    j[7] = k2 * wy * wz + k1 * wx;
    j[8] = 1 + k2 * (wz * wz - theta2);
    if (inverse) {
      // top-right block −J⁻¹ Q J⁻¹
      mul3(q, j, q);
      mul3(q, q, j);
      for (let i = 0; i < 9; i++) q[i] = -q[i]!;
    }
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const jrc = j[3 * r + c]!;
        out[6 * r + c] = jrc;
        out[6 * r + 3 + c] = q[3 * r + c]!;
        out[6 * (r + 3) + c] = 0;
        out[6 * (r + 3) + 3 + c] = jrc;
      }
    }
    return out;
  }
}

/** Writes the 3×3 skew matrix of (x, y, z) at `off` of a row-major matrix with `stride` columns. */
function skewInto(
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
 * The group SE(3) (see {@link SE3Group}): 4×4 homogeneous matrices, tangent [v, ω].
 *
 * @example
 * ```ts
 * const X = SE3.random(new Float64Array(16), Math.random);
 * const tau = SE3.log(new Float64Array(6), X);
 * SE3.exp(new Float64Array(16), tau); // ≈ X
 * ```
 */
export const SE3 = new SE3Group();
