/**
 * The rigid motions of the plane SE(2) stored as 3×3 homogeneous matrices (`rowMajor9`), with
 * closed-form exponential, logarithm (robust up to θ = ±π), adjoints and right/left Jacobians and
 * their inverses. Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians,
 * se(2) tangent ordering τ = [v, ω] = [ρx, ρy, θ]). Closed forms: manif (Solà, Deray, Atchuthan,
 * arXiv:1812.01537), appendix C.
 *
 * @module
 */
import {
  GROUP_VALIDITY_TOL,
  SE2_SERIES_ANGLE,
  SMALL_ANGLE,
  SO2_LOG_DEGENERATE,
} from '../constants.js';
import { DomainError } from '../errors.js';
import {
  allFinite,
  checkJac,
  copyInto,
  lengthError,
  matMulInto,
  negateInto,
  orthogonalityDefect,
  setIdentity,
} from './internal.js';
import type { LieGroup, Rng } from './types.js';

// ---------------------------------------------------------------------------------------------
// Coefficients of the closed forms. The ones without cancellation switch to their Taylor series
// below SMALL_ANGLE (error O(θ⁶) relative); the two that cancel use longer series below
// SE2_SERIES_ANGLE. All are even or odd in θ, so they take signed angles.

/** sin θ/θ (even). */
function sinc(t: number): number {
  if (Math.abs(t) < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 6) * (1 - t2 / 20);
  }
  return Math.sin(t) / t;
}

/** (1 − cos θ)/θ² = 2 sin²(θ/2)/θ² (even, no cancellation). */
function cosc(t: number): number {
  if (Math.abs(t) < SMALL_ANGLE) {
    const t2 = t * t;
    return 0.5 - (t2 / 24) * (1 - t2 / 30);
  }
  const s = Math.sin(0.5 * t) / t;
  return 2 * s * s;
}

/** (θ/2)·cot(θ/2) = θ sin θ/(2(1 − cos θ)) (even); 0 at θ = ±π, singular at ±2π. */
function halfCot(t: number): number {
  if (Math.abs(t) < SMALL_ANGLE) {
    const t2 = t * t;
    return 1 - (t2 / 12) * (1 + t2 / 60);
  }
  const h = 0.5 * t;
  return (h * Math.cos(h)) / Math.sin(h);
}

/**
 * (θ − sin θ)/θ² (odd) = Σₖ (−1)ᵏ θ^(2k+1)/(2k+3)!; the series to θ⁹ below `SE2_SERIES_ANGLE`
 * (truncation < 2e-21 there), where the closed form loses ≈ ε/θ absolutely.
 */
function sincDefect(t: number): number {
  if (Math.abs(t) < SE2_SERIES_ANGLE) {
    const t2 = t * t;
    return (t / 6) * (1 - (t2 / 20) * (1 - (t2 / 42) * (1 - (t2 / 72) * (1 - t2 / 110))));
  }
  return (t - Math.sin(t)) / (t * t);
}

/**
 * ((θ/2)cot(θ/2) − 1)/θ = cot(θ/2)/2 − 1/θ (odd) = −θ/12 − θ³/720 − θ⁵/30240 − θ⁷/1209600 −
 * θ⁹/47900160 − …; the series below `SE2_SERIES_ANGLE` (truncation < 1e-20 there), where the
 * closed form loses ≈ ε/θ absolutely.
 */
function halfCotDefect(t: number): number {
  if (Math.abs(t) < SE2_SERIES_ANGLE) {
    const t2 = t * t;
    return (-t / 12) * (1 + (t2 / 60) * (1 + (t2 / 42) * (1 + (t2 / 40) * (1 + t2 / 39.6))));
  }
  return (halfCot(t) - 1) / t;
}

/**
 * out ← J_r(s·τ) for s = ±1 (J_l(τ) = J_r(−τ)), manif eq. (163):
 *   J_r = [[a, b, cρ₁ − dρ₂], [−b, a, dρ₁ + cρ₂], [0, 0, 1]]
 * with a = sin θ/θ, b = (1 − cos θ)/θ, c = (θ − sin θ)/θ², d = (1 − cos θ)/θ².
 */
function jacobian(out: Float64Array, tau: ArrayLike<number>, s: number): Float64Array {
  const r1 = s * tau[0]!;
  const r2 = s * tau[1]!;
  const t = s * tau[2]!;
  const a = sinc(t);
  const d = cosc(t);
  const b = t * d;
  const c = sincDefect(t);
  out[0] = a;
  out[1] = b;
  out[2] = c * r1 - d * r2;
  out[3] = -b;
  out[4] = a;
  out[5] = d * r1 + c * r2;
  out[6] = 0;
  out[7] = 0;
  out[8] = 1;
  return out;
}

/**
 * out ← J_r(s·τ)⁻¹ for s = ±1 in closed form. J_r = [[A, Cρ], [0, 1]] with A = aI − bJ and
 * C = cI + dJ (J = [[0, −1], [1, 0]]), so J_r⁻¹ = [[A⁻¹, −A⁻¹Cρ], [0, 1]] where
 * A⁻¹ = hI + (θ/2)J, h = (θ/2)cot(θ/2), and A⁻¹C = pI + ½J with p = (h − 1)/θ:
 *   J_r⁻¹ = [[h, −θ/2, −pρ₁ + ρ₂/2], [θ/2, h, −ρ₁/2 − pρ₂], [0, 0, 1]].
 */
function jacobianInv(out: Float64Array, tau: ArrayLike<number>, s: number): Float64Array {
  const r1 = s * tau[0]!;
  const r2 = s * tau[1]!;
  const t = s * tau[2]!;
  const h = halfCot(t);
  const p = halfCotDefect(t);
  const ht = 0.5 * t;
  out[0] = h;
  out[1] = -ht;
  out[2] = 0.5 * r2 - p * r1;
  out[3] = ht;
  out[4] = h;
  out[5] = -0.5 * r1 - p * r2;
  out[6] = 0;
  out[7] = 0;
  out[8] = 1;
  return out;
}

/** out ← [[c, −s, x], [s, c, y], [0, 0, 1]]. */
function setPose(
  out: Float64Array,
  c: number,
  s: number,
  x: number,
  y: number,
  r01 = -s,
  r11 = c,
): Float64Array {
  out[0] = c;
  out[1] = r01;
  out[2] = x;
  out[3] = s;
  out[4] = r11;
  out[5] = y;
  out[6] = 0;
  out[7] = 0;
  out[8] = 1;
  return out;
}

/** out ← s·Ad_X = s·[[R, (t_y, −t_x)ᵀ], [0, 1]] (manif eq. 159) of X = [[c, r01, x], [sn, r11, y], ·]. */
function adjoint(out: Float64Array, X: ArrayLike<number>, s: number): Float64Array {
  const x = X[2]!;
  const y = X[5]!;
  out[0] = s * X[0]!;
  out[1] = s * X[1]!;
  out[2] = s * y;
  out[3] = s * X[3]!;
  out[4] = s * X[4]!;
  out[5] = -s * x;
  out[6] = 0;
  out[7] = 0;
  out[8] = s;
  return out;
}

/** out ← s·Ad_{X⁻¹} = s·[[Rᵀ, (u_y, −u_x)ᵀ], [0, 1]] with u = −Rᵀt. */
function adjInverse(out: Float64Array, X: ArrayLike<number>, s: number): Float64Array {
  const r00 = X[0]!;
  const r01 = X[1]!;
  const r10 = X[3]!;
  const r11 = X[4]!;
  const x = X[2]!;
  const y = X[5]!;
  const ux = -(r00 * x + r10 * y);
  const uy = -(r01 * x + r11 * y);
  out[0] = s * r00;
  out[1] = s * r10;
  out[2] = s * uy;
  out[3] = s * r01;
  out[4] = s * r11;
  out[5] = -s * ux;
  out[6] = 0;
  out[7] = 0;
  out[8] = s;
  return out;
}

/** out ← Exp(τ) = [[R(θ), V(θ)ρ], [0, 1]], no checks. */
function expInto(out: Float64Array, tau: ArrayLike<number>): Float64Array {
  const r1 = tau[0]!;
  const r2 = tau[1]!;
  const t = tau[2]!;
  const a = sinc(t);
  const b = t * cosc(t);
  return setPose(out, Math.cos(t), Math.sin(t), a * r1 - b * r2, b * r1 + a * r2);
}

/** out ← Log(X) = [V(θ)⁻¹t, θ], no length checks; throws when the rotation block is degenerate. */
function logInto(out: Float64Array, X: ArrayLike<number>, what: string): Float64Array {
  const m0 = X[0]!;
  const m1 = X[1]!;
  const m3 = X[3]!;
  const m4 = X[4]!;
  const sn = 0.5 * (m3 - m1);
  const cs = 0.5 * (m0 + m4);
  const r2 = sn * sn + cs * cs;
  // r2 = 1 for a rotation: the relative test (four more products) runs only below r2 = 1/4.
  if (r2 < 0.25 && r2 <= SO2_LOG_DEGENERATE * 0.5 * (m0 * m0 + m1 * m1 + m3 * m3 + m4 * m4)) {
    throw new DomainError(
      what,
      r2,
      'has no nearest rotation: (r₁₁ + r₂₂, r₂₁ − r₁₂) = 0 (a reflection or zero block)',
    );
  }
  let t = Math.atan2(sn, cs);
  if (t === -Math.PI) t = Math.PI;
  const h = halfCot(t);
  const ht = 0.5 * t;
  const x = X[2]!;
  const y = X[5]!;
  out[0] = h * x + ht * y;
  out[1] = h * y - ht * x;
  out[2] = t;
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
const S999 = [9, 9, 9];
const S99 = [9, 9];
const S93 = [9, 3];
const S39 = [3, 9];
const S292 = [2, 9, 2];
const S993 = [9, 9, 3];
const S399 = [3, 9, 9];
const S939 = [9, 3, 9];

/**
 * SE(2) as 3×3 homogeneous matrices X = [[R, t], [0, 1]], row-major (`rowMajor9`: storageSize 9,
 * matrixSize 3, dim 3, actionDim 2). Tangent vectors τ = [ρx, ρy, θ] (= [v, ω], translation
 * first); τ^ = [[0, −θ, ρx], [θ, 0, ρy], [0, 0, 0]]. Conventions: `packages/core/CONVENTIONS.md`.
 * Formulas: manif appendix C (Ad eq. 159, Jacobians eqs. 163–164):
 *
 * - Exp(τ) = [[R(θ), V(θ)ρ], [0, 1]], V(θ) = [[sin θ/θ, −(1 − cos θ)/θ], [(1 − cos θ)/θ, sin θ/θ]];
 * - Log(X) = [V(θ)⁻¹t, θ], θ = atan2(r₂₁ − r₁₂, r₁₁ + r₂₂) ∈ (−π, π], with the closed form
 *   V⁻¹ = [[h, θ/2], [−θ/2, h]], h = (θ/2)cot(θ/2) (no singularity up to |θ| = π);
 * - Ad_X = [[R, (t_y, −t_x)ᵀ], [0, 1]] (eq. 159); ad_τ = [[0, −θ, ρy], [θ, 0, −ρx], [0, 0, 0]];
 * - J_r (eq. 163), J_l (eq. 164) = J_r(−τ), and their inverses in closed form
 *   J_r⁻¹ = [[h, −θ/2, −pρx + ρy/2], [θ/2, h, −ρx/2 − pρy], [0, 0, 1]], p = (h − 1)/θ.
 * - Jacobians of the operations (arXiv:1812.01537 §IV, appendix C): compose J_a = Ad_{b⁻¹}, J_b = I; inverse
 *   −Ad_a; act J_X = [R, R·(−p_y, p_x)ᵀ] (2×3), J_p = R; exp J_r(τ); log J_r⁻¹(Log X); rplus
 *   Ad_{Exp(−τ)}, J_r(τ); rminus J_r⁻¹, −J_l⁻¹; lplus Ad_{X⁻¹}J_r(τ), I; lminus ±J_r⁻¹Ad_X;
 *   between −Ad_{out⁻¹}, I.
 *
 * Validity: `isValid` requires a rotation block (‖RᵀR − I‖ ≤ tol, det > 0), a finite
 * translation and the last row [0, 0, 1] to within tol; `normalize` replaces the rotation block
 * by the nearest rotation (as {@link SO2Group.normalize}) and resets the last row. `log` takes the
 * angle of the rotation nearest to the block (as SO(2)) and throws a DomainError only when it
 * does not exist (a reflection block).
 *
 * Below |θ| = `SMALL_ANGLE` the coefficients use Taylor series; (θ − sin θ)/θ² and p use longer
 * series below `SE2_SERIES_ANGLE`. Every operation checks its argument lengths (DimensionError)
 * and allocates nothing (scratch owned by the instance).
 *
 * @example
 * ```ts
 * const X = SE2.exp(new Float64Array(9), Float64Array.of(1, 0, Math.PI / 2)); // quarter arc
 * SE2.act(new Float64Array(2), X, Float64Array.of(1, 0)); // ≈ [2/π, 2/π + 1]
 * SE2.log(new Float64Array(3), X); // ≈ [1, 0, π/2]
 * ```
 */
export class SE2Group implements LieGroup {
  readonly name = 'SE(2)';
  readonly dim = 3;
  readonly storageSize = 9;
  readonly matrixSize = 3;
  readonly actionDim = 2;
  /** Storage layout of an element. */
  readonly layout = 'rowMajor9';
  private readonly scratch = new Float64Array(9);
  private readonly m3 = new Float64Array(9);
  private readonly n3 = new Float64Array(9);

  /** out ← I₃. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== 9) lengthError('SE2.identity', ['out'], [9], [out]);
    return setPose(out, 1, 0, 0, 0);
  }

  /**
   * out ← a·b = [[R_a R_b, R_a t_b + t_a], [0, 1]]. `out` may alias `a` or `b`.
   * J_out_a = Ad_{b⁻¹}, J_out_b = I.
   */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (a.length - 9) | (b.length - 9)) !== 0)
      lengthError('SE2.compose', OUT_A_B, S999, [out, a, b]);
    if (J_out_a !== undefined || J_out_b !== undefined) this.composeJacobians(b, J_out_a, J_out_b);
    return composeInto(out, a, b);
  }

  /** out ← a⁻¹ = [[Rᵀ, −Rᵀt], [0, 1]]. `out` may alias `a`. J_out_a = −Ad_a. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    if (((out.length - 9) | (a.length - 9)) !== 0) lengthError('SE2.inverse', OUT_A, S99, [out, a]);
    if (J_out_a !== undefined) this.inverseJacobians(a, J_out_a);
    const r00 = a[0]!;
    const r01 = a[1]!;
    const r10 = a[3]!;
    const r11 = a[4]!;
    const x = a[2]!;
    const y = a[5]!;
    return setPose(out, r00, r01, -(r00 * x + r10 * y), -(r01 * x + r11 * y), r10, r11);
  }

  /**
   * out ← Exp(τ) = [[R(θ), V(θ)ρ], [0, 1]] (manif appendix C), Taylor below `SMALL_ANGLE`.
   * J_out_tau = J_r(τ).
   */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.exp', OUT_TAU, S93, [out, tau]);
    if (J_out_tau !== undefined) this.expJacobians(tau, J_out_tau);
    return expInto(out, tau);
  }

  /**
   * out ← Log(X) = [V(θ)⁻¹t, θ] with θ = atan2((r₂₁ − r₁₂)/2, (r₁₁ + r₂₂)/2) ∈ (−π, π] (−π is
   * returned as π) and V⁻¹ = [[h, θ/2], [−θ/2, h]], h = (θ/2)cot(θ/2) (manif appendix C).
   * J_out_X = J_r⁻¹(out).
   *
   * @throws DomainError when r₁₁ + r₂₂ and r₂₁ − r₁₂ both vanish (`SO2_LOG_DEGENERATE`).
   */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - 3) | (X.length - 9)) !== 0) lengthError('SE2.log', OUT_X, S39, [out, X]);
    logInto(out, X, 'SE2.log: X');
    if (J_out_X !== undefined) this.logJacobians(out, J_out_X);
    return out;
  }

  /** out ← τ^ = [[0, −θ, ρx], [θ, 0, ρy], [0, 0, 0]]. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.hat', OUT_TAU, S93, [out, tau]);
    const t = tau[2]!;
    out[0] = 0;
    out[1] = -t;
    out[2] = tau[0]!;
    out[3] = t;
    out[4] = 0;
    out[5] = tau[1]!;
    out[6] = 0;
    out[7] = 0;
    out[8] = 0;
    return out;
  }

  /** out ← m∨ = [m₁₃, m₂₃, m₂₁] (1-based; reads only the entries hat writes). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - 3) | (m.length - 9)) !== 0)
      lengthError('SE2.vee', ['out', 'm'], S39, [out, m]);
    const x = m[2]!;
    const y = m[5]!;
    const t = m[3]!;
    out[0] = x;
    out[1] = y;
    out[2] = t;
    return out;
  }

  /** out ← R·p + t. `out` may alias `p`. J_out_X = [R, R·(−p_y, p_x)ᵀ] (2×3), J_out_p = R. */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    if (((out.length - 2) | (X.length - 9) | (p.length - 2)) !== 0)
      lengthError('SE2.act', OUT_X_P, S292, [out, X, p]);
    const p0 = p[0]!;
    const p1 = p[1]!;
    if (J_out_X !== undefined || J_out_p !== undefined)
      this.actJacobians(X, p0, p1, J_out_X, J_out_p);
    out[0] = X[0]! * p0 + X[1]! * p1 + X[2]!;
    out[1] = X[3]! * p0 + X[4]! * p1 + X[5]!;
    return out;
  }

  /** out ← Ad_X = [[R, (t_y, −t_x)ᵀ], [0, 1]] (manif eq. 159), so Ad_X τ = (X τ^ X⁻¹)∨. */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 9)) !== 0) lengthError('SE2.adj', OUT_X, S99, [out, X]);
    return adjoint(out, X, 1);
  }

  /**
   * out ← ad_τ = [[0, −θ, ρy], [θ, 0, −ρx], [0, 0, 0]]: [τ^, σ^] has rotation part 0 and
   * translation θ J ρ_σ − θ_σ J ρ (J = [[0, −1], [1, 0]]).
   */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.smallAdj', OUT_TAU, S93, [out, tau]);
    const x = tau[0]!;
    const y = tau[1]!;
    const t = tau[2]!;
    out[0] = 0;
    out[1] = -t;
    out[2] = y;
    out[3] = t;
    out[4] = 0;
    out[5] = -x;
    out[6] = 0;
    out[7] = 0;
    out[8] = 0;
    return out;
  }

  /** out ← X·Exp(τ). `out` may alias `X`. J_out_X = Ad_{Exp(τ)⁻¹}, J_out_tau = J_r(τ). */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (X.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.rplus', OUT_X_TAU, S993, [out, X, tau]);
    const E = expInto(this.scratch, tau);
    if (J_out_X !== undefined || J_out_tau !== undefined)
      this.rplusJacobians(E, tau, J_out_X, J_out_tau);
    return composeInto(out, X, E);
  }

  /** out ← Log(X⁻¹·Y). J_out_Y = J_r⁻¹(out), J_out_X = −J_l⁻¹(out). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 9) | (X.length - 9)) !== 0)
      lengthError('SE2.rminus', OUT_Y_X, S399, [out, Y, X]);
    logInto(out, betweenInto(this.scratch, X, Y), 'SE2.rminus: X⁻¹Y');
    if (J_out_Y !== undefined || J_out_X !== undefined) this.rminusJacobians(out, J_out_Y, J_out_X);
    return out;
  }

  /** out ← Exp(τ)·X. `out` may alias `X`. J_out_tau = Ad_{X⁻¹}·J_r(τ), J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (tau.length - 3) | (X.length - 9)) !== 0)
      lengthError('SE2.lplus', OUT_TAU_X, S939, [out, tau, X]);
    if (J_out_tau !== undefined || J_out_X !== undefined)
      this.lplusJacobians(X, tau, J_out_tau, J_out_X);
    return composeInto(out, expInto(this.scratch, tau), X);
  }

  /** out ← Log(Y·X⁻¹). J_out_Y = J_r⁻¹(out)·Ad_X, J_out_X = −J_r⁻¹(out)·Ad_X. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (Y.length - 9) | (X.length - 9)) !== 0)
      lengthError('SE2.lminus', OUT_Y_X, S399, [out, Y, X]);
    const s = this.scratch;
    logInto(out, composeInto(s, Y, this.inverse(s, X)), 'SE2.lminus: YX⁻¹');
    if (J_out_Y !== undefined || J_out_X !== undefined)
      this.lminusJacobians(out, X, J_out_Y, J_out_X);
    return out;
  }

  /**
   * out ← X⁻¹·Y = [[R_xᵀR_y, R_xᵀ(t_y − t_x)], [0, 1]]. `out` may alias `X` or `Y`.
   * J_out_X = −Ad_{out⁻¹}, J_out_Y = I.
   */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (X.length - 9) | (Y.length - 9)) !== 0)
      lengthError('SE2.between', OUT_X_Y, S999, [out, X, Y]);
    betweenInto(out, X, Y);
    if (J_out_X !== undefined || J_out_Y !== undefined)
      this.betweenJacobians(out, J_out_X, J_out_Y);
    return out;
  }

  /**
   * out ← J_r(τ) (manif eq. 163) =
   * [[sin θ/θ, (1 − cos θ)/θ, (θρx − ρy + ρy cos θ − ρx sin θ)/θ²],
   *  [(cos θ − 1)/θ, sin θ/θ, (ρx + θρy − ρx cos θ − ρy sin θ)/θ²], [0, 0, 1]].
   */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.rjac', OUT_TAU, S93, [out, tau]);
    return jacobian(out, tau, 1);
  }

  /**
   * out ← J_l(τ) = J_r(−τ) (manif eq. 164) =
   * [[sin θ/θ, (cos θ − 1)/θ, (θρx + ρy − ρy cos θ − ρx sin θ)/θ²],
   *  [(1 − cos θ)/θ, sin θ/θ, (−ρx + θρy + ρx cos θ − ρy sin θ)/θ²], [0, 0, 1]].
   */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.ljac', OUT_TAU, S93, [out, tau]);
    return jacobian(out, tau, -1);
  }

  /**
   * out ← J_r(τ)⁻¹ = [[h, −θ/2, −pρx + ρy/2], [θ/2, h, −ρx/2 − pρy], [0, 0, 1]] with
   * h = (θ/2)cot(θ/2), p = (h − 1)/θ (block inverse of eq. 163). Singular at |θ| = 2π.
   */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.rjacInv', OUT_TAU, S93, [out, tau]);
    return jacobianInv(out, tau, 1);
  }

  /**
   * out ← J_l(τ)⁻¹ = J_r(−τ)⁻¹ = [[h, θ/2, −pρx − ρy/2], [−θ/2, h, ρx/2 − pρy], [0, 0, 1]].
   */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 9) | (tau.length - 3)) !== 0)
      lengthError('SE2.ljacInv', OUT_TAU, S93, [out, tau]);
    return jacobianInv(out, tau, -1);
  }

  /** out ← [[R(θ), t], [0, 1]] with θ = π(2u − 1) uniform in [−π, π) and t uniform in [−2, 2)². */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== 9) lengthError('SE2.random', ['out'], [9], [out]);
    const t = Math.PI * (2 * rng() - 1);
    const x = 4 * rng() - 2;
    const y = 4 * rng() - 2;
    return setPose(out, Math.cos(t), Math.sin(t), x, y);
  }

  /** out ← a copy of X (the storage is the matrix). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 9)) !== 0)
      lengthError('SE2.toMatrix', OUT_X, S99, [out, X]);
    return copyInto(out, X, 9);
  }

  /** out ← a copy of M (no re-orthonormalization; see {@link normalize}). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - 9) | (M.length - 9)) !== 0)
      lengthError('SE2.fromMatrix', ['out', 'M'], S99, [out, M]);
    return copyInto(out, M, 9);
  }

  /**
   * Whether X is a rigid motion of the plane: rotation block with ‖RᵀR − I‖ ≤ tol and det > 0,
   * finite translation, last row [0, 0, 1] to within tol.
   *
   * @example
   * ```ts
   * SE2.isValid(SE2.identity(new Float64Array(9))); // true
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== 9) lengthError('SE2.isValid', ['X'], [9], [X]);
    return (
      orthogonalityDefect(X, 2, 3) <= tol &&
      X[0]! * X[4]! - X[1]! * X[3]! > 0 &&
      Number.isFinite(X[2]! + X[5]!) &&
      Math.abs(X[6]!) <= tol &&
      Math.abs(X[7]!) <= tol &&
      Math.abs(X[8]! - 1) <= tol
    );
  }

  /**
   * out ← X with its rotation block replaced by the nearest rotation R(atan2((r₂₁ − r₁₂)/2,
   * (r₁₁ + r₂₂)/2)) (exact to rounding), the translation kept and the last row reset. `out` may
   * alias `X`.
   *
   * @throws DomainError when an entry is not finite, or the rotation block has no nearest rotation (r₁₁ + r₂₂ = r₂₁ − r₁₂ = 0).
   *
   * @example
   * ```ts
   * SE2.normalize(new Float64Array(9), Float64Array.of(2, 0, 1, 0, 2, 1, 0, 0, 1)); // shift (1, 1)
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 9)) !== 0)
      lengthError('SE2.normalize', OUT_X, S99, [out, X]);
    if (!allFinite(X, 9))
      throw new DomainError('SE2.normalize: X', 'a non-finite entry', 'must be finite');
    const sn = 0.5 * (X[3]! - X[1]!);
    const cs = 0.5 * (X[0]! + X[4]!);
    const r = Math.hypot(sn, cs);
    if (!(r > 0))
      throw new DomainError(
        'SE2.normalize: X',
        0,
        'has no nearest rotation: r₁₁ + r₂₂ = r₂₁ − r₁₂ = 0',
      );
    return setPose(out, cs / r, sn / r, X[2]!, X[5]!);
  }

  /** The Jacobian outputs of `compose`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private composeJacobians(
    b: Float64Array,
    J_out_a: Float64Array | undefined,
    J_out_b: Float64Array | undefined,
  ): void {
    if (J_out_a !== undefined) {
      checkJac('SE2.compose', 'J_out_a', J_out_a, 9);
      adjInverse(J_out_a, b, 1);
    }
    if (J_out_b !== undefined) {
      checkJac('SE2.compose', 'J_out_b', J_out_b, 9);
      setIdentity(J_out_b, 3);
    }
  }

  /** The Jacobian outputs of `inverse`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private inverseJacobians(a: Float64Array, J_out_a: Float64Array | undefined): void {
    if (J_out_a !== undefined) {
      checkJac('SE2.inverse', 'J_out_a', J_out_a, 9);
      adjoint(J_out_a, a, -1);
    }
  }

  /** The Jacobian outputs of `exp`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private expJacobians(tau: Float64Array, J_out_tau: Float64Array | undefined): void {
    if (J_out_tau !== undefined) {
      checkJac('SE2.exp', 'J_out_tau', J_out_tau, 9);
      jacobian(J_out_tau, tau, 1);
    }
  }

  /** The Jacobian outputs of `log`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private logJacobians(out: Float64Array, J_out_X: Float64Array | undefined): void {
    if (J_out_X !== undefined) {
      checkJac('SE2.log', 'J_out_X', J_out_X, 9);
      jacobianInv(J_out_X, out, 1);
    }
  }

  /** The Jacobian outputs of `act`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private actJacobians(
    X: Float64Array,
    p0: number,
    p1: number,
    J_out_X: Float64Array | undefined,
    J_out_p: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) {
      checkJac('SE2.act', 'J_out_X', J_out_X, 6);
      J_out_X[0] = X[0]!;
      J_out_X[1] = X[1]!;
      J_out_X[2] = -X[0]! * p1 + X[1]! * p0;
      J_out_X[3] = X[3]!;
      J_out_X[4] = X[4]!;
      J_out_X[5] = -X[3]! * p1 + X[4]! * p0;
    }
    if (J_out_p !== undefined) {
      checkJac('SE2.act', 'J_out_p', J_out_p, 4);
      J_out_p[0] = X[0]!;
      J_out_p[1] = X[1]!;
      J_out_p[2] = X[3]!;
      J_out_p[3] = X[4]!;
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
      checkJac('SE2.rplus', 'J_out_X', J_out_X, 9);
      adjInverse(J_out_X, E, 1);
    }
    if (J_out_tau !== undefined) {
      checkJac('SE2.rplus', 'J_out_tau', J_out_tau, 9);
      jacobian(J_out_tau, tau, 1);
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
      checkJac('SE2.rminus', 'J_out_Y', J_out_Y, 9);
      jacobianInv(J_out_Y, out, 1);
    }
    if (J_out_X !== undefined) {
      checkJac('SE2.rminus', 'J_out_X', J_out_X, 9);
      negateInto(J_out_X, jacobianInv(J_out_X, out, -1), 9);
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
      checkJac('SE2.lplus', 'J_out_tau', J_out_tau, 9);
      matMulInto(J_out_tau, adjInverse(this.m3, X, 1), jacobian(this.n3, tau, 1), 3, 3, 3);
    }
    if (J_out_X !== undefined) {
      checkJac('SE2.lplus', 'J_out_X', J_out_X, 9);
      setIdentity(J_out_X, 3);
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
    const Ad = adjoint(this.m3, X, 1);
    const Jinv = jacobianInv(this.n3, out, 1);
    if (J_out_Y !== undefined) {
      checkJac('SE2.lminus', 'J_out_Y', J_out_Y, 9);
      matMulInto(J_out_Y, Jinv, Ad, 3, 3, 3);
    }
    if (J_out_X !== undefined) {
      checkJac('SE2.lminus', 'J_out_X', J_out_X, 9);
      matMulInto(J_out_X, Jinv, Ad, 3, 3, 3, -1);
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
      checkJac('SE2.between', 'J_out_X', J_out_X, 9);
      adjInverse(J_out_X, out, -1);
    }
    if (J_out_Y !== undefined) {
      checkJac('SE2.between', 'J_out_Y', J_out_Y, 9);
      setIdentity(J_out_Y, 3);
    }
  }
}

/** out ← a·b (no checks). `out` may alias `a` or `b`. */
function composeInto(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const a0 = a[0]!;
  const a1 = a[1]!;
  const a2 = a[2]!;
  const a3 = a[3]!;
  const a4 = a[4]!;
  const a5 = a[5]!;
  const b0 = b[0]!;
  const b1 = b[1]!;
  const b2 = b[2]!;
  const b3 = b[3]!;
  const b4 = b[4]!;
  const b5 = b[5]!;
  return setPose(
    out,
    a0 * b0 + a1 * b3,
    a3 * b0 + a4 * b3,
    a0 * b2 + a1 * b5 + a2,
    a3 * b2 + a4 * b5 + a5,
    a0 * b1 + a1 * b4,
    a3 * b1 + a4 * b4,
  );
}

/** out ← X⁻¹·Y (no checks). `out` may alias `X` or `Y`. */
function betweenInto(out: Float64Array, X: ArrayLike<number>, Y: ArrayLike<number>): Float64Array {
  const x0 = X[0]!;
  const x1 = X[1]!;
  const x3 = X[3]!;
  const x4 = X[4]!;
  const y0 = Y[0]!;
  const y1 = Y[1]!;
  const y3 = Y[3]!;
  const y4 = Y[4]!;
  const dx = Y[2]! - X[2]!;
  const dy = Y[5]! - X[5]!;
  return setPose(
    out,
    x0 * y0 + x3 * y3,
    x1 * y0 + x4 * y3,
    x0 * dx + x3 * dy,
    x1 * dx + x4 * dy,
    x0 * y1 + x3 * y4,
    x1 * y1 + x4 * y4,
  );
}

/**
 * The SE(2) instance ({@link SE2Group}: 3×3 homogeneous matrices, row-major, τ = [ρx, ρy, θ]).
 *
 * @example
 * ```ts
 * const X = SE2.exp(new Float64Array(9), Float64Array.of(0.5, -0.2, 0.3));
 * SE2.log(new Float64Array(3), X); // [0.5, -0.2, 0.3]
 * ```
 */
export const SE2: SE2Group = new SE2Group();
