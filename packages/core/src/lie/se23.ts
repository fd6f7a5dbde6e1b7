/**
 * SE₂(3), the group of extended poses (R, p, v) of inertial navigation (rotation, position,
 * velocity), as 5×5 matrices, with closed-form exponential, logarithm, adjoints, Jacobians and
 * the Jacobians of every operation. Conventions: `packages/core/CONVENTIONS.md`; formulas and
 * the layout are manif's (`SE_2_3`, after Barrau & Bonnabel, "The Invariant Extended Kalman
 * Filter as a Stable Observer", IEEE TAC 62(4), 2017, appendix), built from the SE(3) closed forms
 * of Solà, Deray, Atchuthan (arXiv:1812.01537), appendix D.
 *
 * @module
 */
import { GROUP_VALIDITY_TOL } from '../constants.js';
import { DomainError } from '../errors.js';
import { mul3 } from '../linalg/small.js';
import {
  allFinite,
  checkJac,
  copyInto,
  isRotation3,
  lengthError,
  matMulInto,
  NearestRotation3,
  negateInto,
  setIdentity,
} from './internal.js';
import {
  applyVInv,
  coefA,
  coefB,
  coefC,
  coefD,
  rotationLog,
  SE3JacobianKernel,
  skewInto,
  writeRotBlock,
  writeSkewRotBlock,
} from './se3Kernels.js';
import { minusRHat } from './so3Kernels.js';
import type { LieGroup, Rng } from './types.js';

const OUT_A_B = ['out', 'a', 'b'];
const OUT_A = ['out', 'a'];
const OUT_TAU = ['out', 'tau'];
const OUT_X = ['out', 'X'];
const OUT_X_P = ['out', 'X', 'p'];
const OUT_X_TAU = ['out', 'X', 'tau'];
const OUT_Y_X = ['out', 'Y', 'X'];
const OUT_TAU_X = ['out', 'tau', 'X'];
const OUT_X_Y = ['out', 'X', 'Y'];
const S3 = [25, 25, 25];
const S2 = [25, 25];
const S_D = [25, 9];
const D_S = [9, 25];
const DD_D = [81, 9];
const DD_S = [81, 25];
const A_S_A = [3, 25, 3];
const S_S_D = [25, 25, 9];
const D_S_S = [9, 25, 25];
const S_D_S = [25, 9, 25];

/** Entry offsets of the columns p (3) and v (4) of the 5×5 row-major storage. */
const P = 3;
const V = 4;

/**
 * The group SE₂(3) of extended poses (`SE23`). Conventions: `packages/core/CONVENTIONS.md`.
 *
 * - **Element** (manif's layout): X = [[R, p, v], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]], 5×5
 *   row-major (`storageSize` 25, `matrixSize` 5): rotation R, position p in column 3, velocity v
 *   in column 4. X·Y = (R_X R_Y, R_X p_Y + p_X, R_X v_Y + v_X), X⁻¹ = (Rᵀ, −Rᵀp, −Rᵀv).
 * - **Tangent** τ = [ρ, θ, ν] (`dim` 9, manif's order): ρ ∈ R³ the position part, θ ∈ R³ the
 *   rotation, ν ∈ R³ the velocity part; τ^ = [[θ̂, ρ, ν], [0, 0, 0]]. With ν = 0 this is SE(3)'s
 *   [v, ω].
 * - **Action** on points x ∈ R³ (`actionDim` 3): X·x = R x + p (the rigid motion; the velocity
 *   does not act), i.e. the 5×5 matrix applied to [x, 1, 0].
 * - Exp(τ) = (Exp θ, V(θ) ρ, V(θ) ν), V = J_l(θ) = I + B θ̂ + C θ̂²; Log inverts it with
 *   V⁻¹ = I − θ̂/2 + D θ̂² (as SE(3), manif eqs. 172–173).
 * - Ad_X = [[R, p̂R, 0], [0, R, 0], [0, v̂R, R]]; ad_τ = [[θ̂, ρ̂, 0], [0, θ̂, 0], [0, ν̂, θ̂]].
 * - J_l(τ) = [[J_l(θ), Q(ρ, θ), 0], [0, J_l(θ), 0], [0, Q(ν, θ), J_l(θ)]] with the SE(3) Q of
 *   manif eq. 180 (both translation-like parts couple to the rotation exactly as SE(3)'s ρ),
 *   J_r(τ) = J_l(−τ), and the block inverses with −J⁻¹QJ⁻¹ off the diagonal.
 * - Jacobians of the operations: as SE(3) with these Ad and J (compose Ad_{b⁻¹}, I; inverse
 *   −Ad_a; act [R, −R x̂, 0], R; exp J_r; log J_r⁻¹; rplus Ad_{Exp(−τ)}, J_r; rminus J_r⁻¹,
 *   −J_l⁻¹; lplus Ad_{X⁻¹}J_r, I; lminus ±J_r⁻¹Ad_X; between −Ad_{out⁻¹}, I).
 *
 * Validity: `isValid` requires a rotation block (‖RᵀR − I‖ ≤ tol, det > 0), finite p and v and
 * the last two rows [0, 0, 0, 1, 0], [0, 0, 0, 0, 1] to within tol; `normalize` projects the
 * rotation block (as {@link SO3Group.normalize}) and resets the last rows; `log` throws a
 * DomainError on a rotation block failing the cheap test of {@link SO3Group.log}. Every operation
 * checks its argument lengths (DimensionError) and allocates nothing.
 *
 * @example
 * ```ts
 * const tau = Float64Array.of(1, 0, 0, 0, 0, Math.PI / 2, 0, 2, 0);
 * const X = SE23.exp(new Float64Array(25), tau);
 * SE23.act(new Float64Array(3), X, Float64Array.of(1, 0, 0)); // ≈ [2/π, 1 + 2/π, 0]
 * SE23.log(new Float64Array(9), X); // ≈ tau
 * ```
 */
export class SE23Group implements LieGroup {
  readonly name = 'SE_2(3)';
  readonly dim = 9;
  readonly storageSize = 25;
  readonly matrixSize = 5;
  readonly actionDim = 3;
  /** Storage layout of an element. */
  readonly layout = 'rowMajor25';
  private readonly g = new Float64Array(25);
  private readonly h = new Float64Array(25);
  private readonly m9 = new Float64Array(81);
  private readonly n9 = new Float64Array(81);
  private readonly qp = new Float64Array(9);
  private readonly qv = new Float64Array(9);
  private readonly j = new Float64Array(9);
  private readonly kernel = new SE3JacobianKernel();
  private readonly projector = new NearestRotation3();

  /** out ← I₅. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== 25) lengthError('SE23.identity', ['out'], [25], [out]);
    out.fill(0);
    for (let i = 0; i < 5; i++) out[6 * i] = 1;
    return out;
  }

  /** out ← a·b. `out` may alias `a` or `b`. J_out_a = Ad_{b⁻¹}, J_out_b = I. */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    if (((out.length - 25) | (a.length - 25) | (b.length - 25)) !== 0)
      lengthError('SE23.compose', OUT_A_B, S3, [out, a, b]);
    if (J_out_a !== undefined || J_out_b !== undefined) this.composeJacobians(b, J_out_a, J_out_b);
    return composeInto(out, a, b);
  }

  /** out ← a⁻¹ = (Rᵀ, −Rᵀp, −Rᵀv). `out` may alias `a`. J_out_a = −Ad_a. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    if (((out.length - 25) | (a.length - 25)) !== 0)
      lengthError('SE23.inverse', OUT_A, S2, [out, a]);
    if (J_out_a !== undefined) this.inverseJacobians(a, J_out_a);
    return inverseInto(out, a);
  }

  /** out ← Exp(τ) = (Exp θ, V ρ, V ν). J_out_tau = J_r(τ). */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - 25) | (tau.length - 9)) !== 0)
      lengthError('SE23.exp', OUT_TAU, S_D, [out, tau]);
    if (J_out_tau !== undefined) this.expJacobians(tau, J_out_tau);
    return expInto(out, tau);
  }

  /**
   * out ← Log(X) = [V⁻¹p, θ, V⁻¹v], θ = Log R on the principal branch (as {@link SE3Group.log}).
   * J_out_X = J_r⁻¹(out).
   *
   * @throws DomainError when the rotation block fails the cheap rotation test (see the class).
   */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - 9) | (X.length - 25)) !== 0) lengthError('SE23.log', OUT_X, D_S, [out, X]);
    logInto(out, X, 'SE23.log: X');
    if (J_out_X !== undefined) this.logJacobians(out, J_out_X);
    return out;
  }

  /** out ← τ^ = [[θ̂, ρ, ν], [0, 0, 0]] (5×5). */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 25) | (tau.length - 9)) !== 0)
      lengthError('SE23.hat', OUT_TAU, S_D, [out, tau]);
    out.fill(0);
    skewInto(out, 0, 5, tau[3]!, tau[4]!, tau[5]!);
    for (let i = 0; i < 3; i++) {
      out[5 * i + P] = tau[i]!;
      out[5 * i + V] = tau[6 + i]!;
    }
    return out;
  }

  /** out ← m∨ = [m_{i3}, (m₂₁ − m₁₂)/2, (m₀₂ − m₂₀)/2, (m₁₀ − m₀₁)/2, m_{i4}] (exact on a hat). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - 9) | (m.length - 25)) !== 0)
      lengthError('SE23.vee', ['out', 'm'], D_S, [out, m]);
    const wx = 0.5 * (m[11]! - m[7]!);
    const wy = 0.5 * (m[2]! - m[10]!);
    const wz = 0.5 * (m[5]! - m[1]!);
    for (let i = 0; i < 3; i++) {
      out[i] = m[5 * i + P]!;
      out[6 + i] = m[5 * i + V]!;
    }
    out[3] = wx;
    out[4] = wy;
    out[5] = wz;
    return out;
  }

  /** out ← R x + p. `out` may alias `x`. J_out_X = [R, −R x̂, 0] (3×9), J_out_p = R. */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    if (((out.length - 3) | (X.length - 25) | (p.length - 3)) !== 0)
      lengthError('SE23.act', OUT_X_P, A_S_A, [out, X, p]);
    const px = p[0]!;
    const py = p[1]!;
    const pz = p[2]!;
    if (J_out_X !== undefined || J_out_p !== undefined)
      this.actJacobians(X, px, py, pz, J_out_X, J_out_p);
    out[0] = X[0]! * px + X[1]! * py + X[2]! * pz + X[3]!;
    out[1] = X[5]! * px + X[6]! * py + X[7]! * pz + X[8]!;
    out[2] = X[10]! * px + X[11]! * py + X[12]! * pz + X[13]!;
    return out;
  }

  /** out ← Ad_X = [[R, p̂R, 0], [0, R, 0], [0, v̂R, R]] (9×9). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 81) | (X.length - 25)) !== 0) lengthError('SE23.adj', OUT_X, DD_S, [out, X]);
    return adjoint(out, X, 1);
  }

  /** out ← ad_τ = [[θ̂, ρ̂, 0], [0, θ̂, 0], [0, ν̂, θ̂]] (9×9). */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 81) | (tau.length - 9)) !== 0)
      lengthError('SE23.smallAdj', OUT_TAU, DD_D, [out, tau]);
    out.fill(0);
    const wx = tau[3]!;
    const wy = tau[4]!;
    const wz = tau[5]!;
    skewInto(out, 0, 9, wx, wy, wz);
    skewInto(out, 30, 9, wx, wy, wz);
    skewInto(out, 60, 9, wx, wy, wz);
    skewInto(out, 3, 9, tau[0]!, tau[1]!, tau[2]!);
    skewInto(out, 57, 9, tau[6]!, tau[7]!, tau[8]!);
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
    if (((out.length - 25) | (X.length - 25) | (tau.length - 9)) !== 0)
      lengthError('SE23.rplus', OUT_X_TAU, S_S_D, [out, X, tau]);
    const E = expInto(this.g, tau);
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
    if (((out.length - 9) | (Y.length - 25) | (X.length - 25)) !== 0)
      lengthError('SE23.rminus', OUT_Y_X, D_S_S, [out, Y, X]);
    logInto(out, composeInto(this.g, inverseInto(this.h, X), Y), 'SE23.rminus: X⁻¹Y');
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
    if (((out.length - 25) | (tau.length - 9) | (X.length - 25)) !== 0)
      lengthError('SE23.lplus', OUT_TAU_X, S_D_S, [out, tau, X]);
    if (J_out_tau !== undefined || J_out_X !== undefined)
      this.lplusJacobians(X, tau, J_out_tau, J_out_X);
    return composeInto(out, expInto(this.g, tau), X);
  }

  /** out ← Log(Y·X⁻¹). J_out_Y = J_r⁻¹(out)·Ad_X, J_out_X = −J_r⁻¹(out)·Ad_X. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 9) | (Y.length - 25) | (X.length - 25)) !== 0)
      lengthError('SE23.lminus', OUT_Y_X, D_S_S, [out, Y, X]);
    logInto(out, composeInto(this.g, Y, inverseInto(this.h, X)), 'SE23.lminus: YX⁻¹');
    if (J_out_Y !== undefined || J_out_X !== undefined)
      this.lminusJacobians(out, X, J_out_Y, J_out_X);
    return out;
  }

  /** out ← X⁻¹·Y. `out` may alias `X` or `Y`. J_out_X = −Ad_{out⁻¹}, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    if (((out.length - 25) | (X.length - 25) | (Y.length - 25)) !== 0)
      lengthError('SE23.between', OUT_X_Y, S3, [out, X, Y]);
    composeInto(out, inverseInto(this.h, X), Y);
    if (J_out_X !== undefined || J_out_Y !== undefined)
      this.betweenJacobians(out, J_out_X, J_out_Y);
    return out;
  }

  /** out ← J_r(τ) = J_l(−τ). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 81) | (tau.length - 9)) !== 0)
      lengthError('SE23.rjac', OUT_TAU, DD_D, [out, tau]);
    return this.jacobian(out, tau, -1, false);
  }

  /** out ← J_l(τ) = [[J_l(θ), Q(ρ, θ), 0], [0, J_l(θ), 0], [0, Q(ν, θ), J_l(θ)]]. */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 81) | (tau.length - 9)) !== 0)
      lengthError('SE23.ljac', OUT_TAU, DD_D, [out, tau]);
    return this.jacobian(out, tau, 1, false);
  }

  /** out ← J_r(τ)⁻¹ (closed form, no solve). */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 81) | (tau.length - 9)) !== 0)
      lengthError('SE23.rjacInv', OUT_TAU, DD_D, [out, tau]);
    return this.jacobian(out, tau, -1, true);
  }

  /** out ← J_l(τ)⁻¹ (closed form, no solve). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 81) | (tau.length - 9)) !== 0)
      lengthError('SE23.ljacInv', OUT_TAU, DD_D, [out, tau]);
    return this.jacobian(out, tau, 1, true);
  }

  /** out ← R uniform (Haar, Shoemake's quaternion), p and v uniform in [−2, 2]³. */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== 25) lengthError('SE23.random', ['out'], [25], [out]);
    const u1 = rng();
    const u2 = 2 * Math.PI * rng();
    const u3 = 2 * Math.PI * rng();
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    const x = a * Math.sin(u2);
    const y = a * Math.cos(u2);
    const z = b * Math.sin(u3);
    const w = b * Math.cos(u3);
    this.identity(out);
    out[0] = 1 - 2 * (y * y + z * z);
    out[1] = 2 * (x * y - w * z);
    out[2] = 2 * (x * z + w * y);
    out[5] = 2 * (x * y + w * z);
    out[6] = 1 - 2 * (x * x + z * z);
    out[7] = 2 * (y * z - w * x);
    out[10] = 2 * (x * z - w * y);
    out[11] = 2 * (y * z + w * x);
    out[12] = 1 - 2 * (x * x + y * y);
    for (let i = 0; i < 3; i++) out[5 * i + P] = 4 * rng() - 2;
    for (let i = 0; i < 3; i++) out[5 * i + V] = 4 * rng() - 2;
    return out;
  }

  /** out ← a copy of X (the storage is the matrix). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 25) | (X.length - 25)) !== 0)
      lengthError('SE23.toMatrix', OUT_X, S2, [out, X]);
    return copyInto(out, X, 25);
  }

  /** out ← a copy of M (no re-orthonormalization; see {@link normalize}). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - 25) | (M.length - 25)) !== 0)
      lengthError('SE23.fromMatrix', ['out', 'M'], S2, [out, M]);
    return copyInto(out, M, 25);
  }

  /**
   * Whether X is an extended pose: rotation block valid (‖RᵀR − I‖ ≤ tol, det > 0), p and v
   * finite, rows 3 and 4 equal to [0, 0, 0, 1, 0] and [0, 0, 0, 0, 1] to within tol.
   *
   * @example
   * ```ts
   * SE23.isValid(SE23.identity(new Float64Array(25))); // true
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== 25) lengthError('SE23.isValid', ['X'], [25], [X]);
    if (!isRotation3(X, 5, tol)) return false;
    for (let i = 0; i < 3; i++) if (!Number.isFinite(X[5 * i + P]! + X[5 * i + V]!)) return false;
    for (let k = 15; k < 25; k++) {
      const target = k === 18 || k === 24 ? 1 : 0;
      if (!(Math.abs(X[k]! - target) <= tol)) return false;
    }
    return true;
  }

  /**
   * out ← X with the nearest rotation in its rotation block (as {@link SO3Group.normalize}), p and
   * v kept, rows 3 and 4 reset. `out` may alias `X`.
   *
   * @throws DomainError when an entry is not finite or the rotation block is zero.
   *
   * @example
   * ```ts
   * const X = SE23.identity(new Float64Array(25));
   * X[0] = 1 + 1e-8;
   * SE23.normalize(X, X); // X[0] = 1 again
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 25) | (X.length - 25)) !== 0)
      lengthError('SE23.normalize', OUT_X, S2, [out, X]);
    if (!allFinite(X, 25))
      throw new DomainError('SE23.normalize: X', 'a non-finite entry', 'must be finite');
    const t = this.qp;
    for (let i = 0; i < 3; i++) {
      t[i] = X[5 * i + P]!;
      t[3 + i] = X[5 * i + V]!;
    }
    this.projector.project(out, X, 'SE23.normalize: X', 0, 5, 0, 5);
    for (let i = 0; i < 3; i++) {
      out[5 * i + P] = t[i]!;
      out[5 * i + V] = t[3 + i]!;
    }
    for (let k = 15; k < 25; k++) out[k] = k === 18 || k === 24 ? 1 : 0;
    return out;
  }

  /**
   * J_l(sτ) (s = +1) or J_r(τ) = J_l(−τ) (s = −1), or their inverses, into the 9×9 `out`.
   */
  private jacobian(
    out: Float64Array,
    tau: ArrayLike<number>,
    s: 1 | -1,
    inverse: boolean,
  ): Float64Array {
    const wx = s * tau[3]!;
    const wy = s * tau[4]!;
    const wz = s * tau[5]!;
    const { qp, qv, j, kernel } = this;
    kernel.q(qp, s * tau[0]!, s * tau[1]!, s * tau[2]!, wx, wy, wz);
    kernel.q(qv, s * tau[6]!, s * tau[7]!, s * tau[8]!, wx, wy, wz);
    kernel.so3Block(j, wx, wy, wz, inverse);
    if (inverse) {
      // off-diagonal blocks −J⁻¹ Q J⁻¹
      sandwich(qp, j);
      sandwich(qv, j);
    }
    out.fill(0);
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const jrc = j[3 * r + c]!;
        out[9 * r + c] = jrc;
        out[9 * (r + 3) + 3 + c] = jrc;
        out[9 * (r + 6) + 6 + c] = jrc;
        out[9 * r + 3 + c] = qp[3 * r + c]!;
        out[9 * (r + 6) + 3 + c] = qv[3 * r + c]!;
      }
    }
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
      checkJac('SE23.compose', 'J_out_a', J_out_a, 81);
      adjInverse(J_out_a, b);
    }
    if (J_out_b !== undefined) {
      checkJac('SE23.compose', 'J_out_b', J_out_b, 81);
      setIdentity(J_out_b, 9);
    }
  }

  /** The Jacobian outputs of `inverse`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private inverseJacobians(a: Float64Array, J_out_a: Float64Array | undefined): void {
    if (J_out_a !== undefined) {
      checkJac('SE23.inverse', 'J_out_a', J_out_a, 81);
      adjoint(J_out_a, a, -1);
    }
  }

  /** The Jacobian outputs of `exp`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private expJacobians(tau: Float64Array, J_out_tau: Float64Array | undefined): void {
    if (J_out_tau !== undefined) {
      checkJac('SE23.exp', 'J_out_tau', J_out_tau, 81);
      this.jacobian(J_out_tau, tau, -1, false);
    }
  }

  /** The Jacobian outputs of `log`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private logJacobians(out: Float64Array, J_out_X: Float64Array | undefined): void {
    if (J_out_X !== undefined) {
      checkJac('SE23.log', 'J_out_X', J_out_X, 81);
      this.jacobian(J_out_X, out, -1, true);
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
    if (J_out_X !== undefined) {
      checkJac('SE23.act', 'J_out_X', J_out_X, 27);
      J_out_X.fill(0);
      writeRotBlock(J_out_X, 9, 0, 0, X, 0, 5, false, 1);
      minusRHat(J_out_X, X, px, py, pz, 3, 9, 0, 5);
    }
    if (J_out_p !== undefined) {
      checkJac('SE23.act', 'J_out_p', J_out_p, 9);
      writeRotBlock(J_out_p, 3, 0, 0, X, 0, 5, false, 1);
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
      checkJac('SE23.rplus', 'J_out_X', J_out_X, 81);
      adjInverse(J_out_X, E);
    }
    if (J_out_tau !== undefined) {
      checkJac('SE23.rplus', 'J_out_tau', J_out_tau, 81);
      this.jacobian(J_out_tau, tau, -1, false);
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
      checkJac('SE23.rminus', 'J_out_Y', J_out_Y, 81);
      this.jacobian(J_out_Y, out, -1, true);
    }
    if (J_out_X !== undefined) {
      checkJac('SE23.rminus', 'J_out_X', J_out_X, 81);
      negateInto(J_out_X, this.jacobian(J_out_X, out, 1, true), 81);
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
      checkJac('SE23.lplus', 'J_out_tau', J_out_tau, 81);
      const Ai = adjInverse(this.m9, X);
      matMulInto(J_out_tau, Ai, this.jacobian(this.n9, tau, -1, false), 9, 9, 9);
    }
    if (J_out_X !== undefined) {
      checkJac('SE23.lplus', 'J_out_X', J_out_X, 81);
      setIdentity(J_out_X, 9);
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
    const Ad = adjoint(this.m9, X, 1);
    const Jinv = this.jacobian(this.n9, out, -1, true);
    if (J_out_Y !== undefined) {
      checkJac('SE23.lminus', 'J_out_Y', J_out_Y, 81);
      matMulInto(J_out_Y, Jinv, Ad, 9, 9, 9);
    }
    if (J_out_X !== undefined) {
      checkJac('SE23.lminus', 'J_out_X', J_out_X, 81);
      matMulInto(J_out_X, Jinv, Ad, 9, 9, 9, -1);
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
      checkJac('SE23.between', 'J_out_X', J_out_X, 81);
      negateInto(J_out_X, adjInverse(J_out_X, out), 81);
    }
    if (J_out_Y !== undefined) {
      checkJac('SE23.between', 'J_out_Y', J_out_Y, 81);
      setIdentity(J_out_Y, 9);
    }
  }
}

/** q ← −J q J (3×3, in place). */
function sandwich(q: Float64Array, j: Float64Array): void {
  mul3(q, j, q);
  mul3(q, q, j);
  for (let i = 0; i < 9; i++) q[i] = -q[i]!;
}

/** out ← a·b (no checks). `out` may alias `a` or `b`. */
function composeInto(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const a00 = a[0]!;
  const a01 = a[1]!;
  const a02 = a[2]!;
  const a10 = a[5]!;
  const a11 = a[6]!;
  const a12 = a[7]!;
  const a20 = a[10]!;
  const a21 = a[11]!;
  const a22 = a[12]!;
  const ap0 = a[3]!;
  const ap1 = a[8]!;
  const ap2 = a[13]!;
  const av0 = a[4]!;
  const av1 = a[9]!;
  const av2 = a[14]!;
  const b00 = b[0]!;
  const b01 = b[1]!;
  const b02 = b[2]!;
  const b10 = b[5]!;
  const b11 = b[6]!;
  const b12 = b[7]!;
  const b20 = b[10]!;
  const b21 = b[11]!;
  const b22 = b[12]!;
  const bp0 = b[3]!;
  const bp1 = b[8]!;
  const bp2 = b[13]!;
  const bv0 = b[4]!;
  const bv1 = b[9]!;
  const bv2 = b[14]!;
  out[0] = a00 * b00 + a01 * b10 + a02 * b20;
  out[1] = a00 * b01 + a01 * b11 + a02 * b21;
  out[2] = a00 * b02 + a01 * b12 + a02 * b22;
  out[3] = a00 * bp0 + a01 * bp1 + a02 * bp2 + ap0;
  out[4] = a00 * bv0 + a01 * bv1 + a02 * bv2 + av0;
  out[5] = a10 * b00 + a11 * b10 + a12 * b20;
  out[6] = a10 * b01 + a11 * b11 + a12 * b21;
  out[7] = a10 * b02 + a11 * b12 + a12 * b22;
  out[8] = a10 * bp0 + a11 * bp1 + a12 * bp2 + ap1;
  out[9] = a10 * bv0 + a11 * bv1 + a12 * bv2 + av1;
  out[10] = a20 * b00 + a21 * b10 + a22 * b20;
  out[11] = a20 * b01 + a21 * b11 + a22 * b21;
  out[12] = a20 * b02 + a21 * b12 + a22 * b22;
  out[13] = a20 * bp0 + a21 * bp1 + a22 * bp2 + ap2;
  out[14] = a20 * bv0 + a21 * bv1 + a22 * bv2 + av2;
  lastRows(out);
  return out;
}

/** out ← a⁻¹ = (Rᵀ, −Rᵀp, −Rᵀv) (no checks). `out` may alias `a`. */
function inverseInto(out: Float64Array, a: ArrayLike<number>): Float64Array {
  const r00 = a[0]!;
  const r01 = a[1]!;
  const r02 = a[2]!;
  const r10 = a[5]!;
  const r11 = a[6]!;
  const r12 = a[7]!;
  const r20 = a[10]!;
  const r21 = a[11]!;
  const r22 = a[12]!;
  const p0 = a[3]!;
  const p1 = a[8]!;
  const p2 = a[13]!;
  const v0 = a[4]!;
  const v1 = a[9]!;
  const v2 = a[14]!;
  out[0] = r00;
  out[1] = r10;
  out[2] = r20;
  out[3] = -(r00 * p0 + r10 * p1 + r20 * p2);
  out[4] = -(r00 * v0 + r10 * v1 + r20 * v2);
  out[5] = r01;
  out[6] = r11;
  out[7] = r21;
  out[8] = -(r01 * p0 + r11 * p1 + r21 * p2);
  out[9] = -(r01 * v0 + r11 * v1 + r21 * v2);
  out[10] = r02;
  out[11] = r12;
  out[12] = r22;
  out[13] = -(r02 * p0 + r12 * p1 + r22 * p2);
  out[14] = -(r02 * v0 + r12 * v1 + r22 * v2);
  lastRows(out);
  return out;
}

/** Rows 3 and 4 ← [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]. */
function lastRows(out: Float64Array): void {
  for (let k = 15; k < 25; k++) out[k] = 0;
  out[18] = 1;
  out[24] = 1;
}

/** out ← Exp(τ) (no checks). */
function expInto(out: Float64Array, tau: ArrayLike<number>): Float64Array {
  const wx = tau[3]!;
  const wy = tau[4]!;
  const wz = tau[5]!;
  const theta2 = wx * wx + wy * wy + wz * wz;
  const theta = Math.sqrt(theta2);
  const A = coefA(theta, theta2);
  const B = coefB(theta, theta2);
  const C = coefC(theta, theta2);
  const c = 1 - B * theta2;
  out[0] = c + B * wx * wx;
  out[1] = B * wx * wy - A * wz;
  out[2] = B * wx * wz + A * wy;
  out[5] = B * wx * wy + A * wz;
  out[6] = c + B * wy * wy;
  out[7] = B * wy * wz - A * wx;
  out[10] = B * wx * wz - A * wy;
  out[11] = B * wy * wz + A * wx;
  out[12] = c + B * wz * wz;
  // V u = u + B θ×u + C θ×(θ×u), for u = ρ (column 3) and u = ν (column 4)
  for (let k = 0; k < 2; k++) {
    const o = k === 0 ? 0 : 6;
    const col = k === 0 ? P : V;
    const ux = tau[o]!;
    const uy = tau[o + 1]!;
    const uz = tau[o + 2]!;
    const cx = wy * uz - wz * uy;
    const cy = wz * ux - wx * uz;
    const cz = wx * uy - wy * ux;
    out[col] = ux + B * cx + C * (wy * cz - wz * cy);
    out[5 + col] = uy + B * cy + C * (wz * cx - wx * cz);
    out[10 + col] = uz + B * cz + C * (wx * cy - wy * cx);
  }
  lastRows(out);
  return out;
}

/** out ← Log(X) (no length checks); throws on a non-rotation block. */
function logInto(out: Float64Array, X: ArrayLike<number>, what: string): Float64Array {
  const theta = rotationLog(out, 3, X, 5, what);
  const D = coefD(theta, theta * theta);
  const wx = out[3]!;
  const wy = out[4]!;
  const wz = out[5]!;
  applyVInv(out, 0, wx, wy, wz, D, X[P]!, X[5 + P]!, X[10 + P]!);
  applyVInv(out, 6, wx, wy, wz, D, X[V]!, X[5 + V]!, X[10 + V]!);
  return out;
}

/** out ← s·Ad_X = s·[[R, p̂R, 0], [0, R, 0], [0, v̂R, R]] (9×9). */
function adjoint(out: Float64Array, X: ArrayLike<number>, s: number): Float64Array {
  out.fill(0);
  writeRotBlock(out, 9, 0, 0, X, 0, 5, false, s);
  writeRotBlock(out, 9, 1, 1, X, 0, 5, false, s);
  writeRotBlock(out, 9, 2, 2, X, 0, 5, false, s);
  writeSkewRotBlock(out, 9, 0, 1, X[P]!, X[5 + P]!, X[10 + P]!, X, 0, 5, false, s);
  writeSkewRotBlock(out, 9, 2, 1, X[V]!, X[5 + V]!, X[10 + V]!, X, 0, 5, false, s);
  return out;
}

/** out ← Ad_{X⁻¹} = [[Rᵀ, −Rᵀp̂, 0], [0, Rᵀ, 0], [0, −Rᵀv̂, Rᵀ]] (9×9). */
function adjInverse(out: Float64Array, X: ArrayLike<number>): Float64Array {
  out.fill(0);
  writeRotBlock(out, 9, 0, 0, X, 0, 5, true, 1);
  writeRotBlock(out, 9, 1, 1, X, 0, 5, true, 1);
  writeRotBlock(out, 9, 2, 2, X, 0, 5, true, 1);
  writeSkewRotBlock(out, 9, 0, 1, X[P]!, X[5 + P]!, X[10 + P]!, X, 0, 5, true, -1);
  writeSkewRotBlock(out, 9, 2, 1, X[V]!, X[5 + V]!, X[10 + V]!, X, 0, 5, true, -1);
  return out;
}

/**
 * The group SE₂(3) of extended poses ({@link SE23Group}: 5×5 matrices [[R, p, v], [0, I₂]],
 * tangent [ρ, θ, ν]).
 *
 * @example
 * ```ts
 * const X = SE23.random(new Float64Array(25), Math.random);
 * SE23.exp(new Float64Array(25), SE23.log(new Float64Array(9), X)); // ≈ X
 * ```
 */
export const SE23: SE23Group = new SE23Group();
