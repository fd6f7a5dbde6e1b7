/**
 * The rotation group SO(2) stored as 2×2 rotation matrices (`rowMajor4`), with the exponential,
 * the logarithm on the principal branch (−π, π], and its (trivial) adjoints and Jacobians.
 * Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians, so(2) hat map).
 * Closed forms: manif (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix A.
 *
 * @module
 */
import { GROUP_VALIDITY_TOL, SO2_LOG_DEGENERATE } from '../constants.js';
import { DomainError } from '../errors.js';
import { allFinite, checkJac, copyInto, lengthError, orthogonalityDefect } from './internal.js';
import type { LieGroup, Rng } from './types.js';

/**
 * The principal angle atan2(s, c) of the rotation closest to `[[c, −s], [s, c]]`, in (−π, π]: −π
 * (from s = −0) is returned as π.
 */
function principalAngle(s: number, c: number): number {
  const t = Math.atan2(s, c);
  return t === -Math.PI ? Math.PI : t;
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
const S41 = [4, 1];
const S14 = [1, 4];
const S11 = [1, 1];
const S242 = [2, 4, 2];
const S441 = [4, 4, 1];
const S144 = [1, 4, 4];
const S414 = [4, 1, 4];

/** Writes v into a 1×1 Jacobian after checking its length. */
function scalarJac(method: string, name: string, J: Float64Array, v: number): void {
  checkJac(method, name, J, 1);
  J[0] = v;
}

/**
 * out ← [atan2(s, c)], s = (m₂₁ − m₁₂)/2, c = (m₁₁ + m₂₂)/2: the angle of the rotation nearest to
 * M (SO(2) `log`); throws when c² + s² is below `SO2_LOG_DEGENERATE`·‖M‖²_F/2.
 */
function so2Log(X: ArrayLike<number>, what: string): number {
  return so2LogOf(X[0]!, X[1]!, X[2]!, X[3]!, what);
}

/**
 * SO(2) as 2×2 rotation matrices R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]], row-major
 * (`rowMajor4`: storageSize 4, matrixSize 2, dim 1, actionDim 2). Tangent vectors τ = [θ];
 * τ^ = [[0, −θ], [θ, 0]]. Conventions: `packages/core/CONVENTIONS.md`. Formulas: manif
 * appendix A (SO(2)):
 *
 * - Exp(θ) = R(θ); Log(R) = atan2(r₂₁, r₁₁) ∈ (−π, π], here evaluated as
 *   atan2((r₂₁ − r₁₂)/2, (r₁₁ + r₂₂)/2), the angle of the rotation nearest to R;
 * - Ad_R = 1; ad_τ = 0 (SO(2) is commutative);
 * - J_r = J_l = J_r⁻¹ = J_l⁻¹ = 1.
 * - Jacobians of the operations (manif appendix A): compose 1, 1; inverse −1; act
 *   J_R = R·[−p₂, p₁]ᵀ (2×1), J_p = R; exp, log 1; rplus 1, 1; rminus 1, −1; lplus 1, 1;
 *   lminus 1, −1; between −1, 1.
 *
 * Validity: `isValid` tests ‖RᵀR − I‖ (largest entry) ≤ tol and det R > 0; `normalize` returns
 * R(atan2((r₂₁ − r₁₂)/2, (r₁₁ + r₂₂)/2)), the nearest rotation in the Frobenius norm (exact to
 * rounding). `log` returns the angle of that nearest rotation, so it is defined on every matrix
 * except those with r₁₁ + r₂₂ = r₂₁ − r₁₂ = 0 (every reflection, 0), where it throws a DomainError.
 *
 * Every operation checks its argument lengths (DimensionError) and allocates nothing.
 *
 * @example
 * ```ts
 * const R = SO2.exp(new Float64Array(4), Float64Array.of(Math.PI / 2)); // [0, -1, 1, 0]
 * SO2.act(new Float64Array(2), R, Float64Array.of(1, 0)); // ≈ [0, 1]
 * SO2.log(new Float64Array(1), R); // [π/2]
 * ```
 */
export class SO2Group implements LieGroup {
  readonly name = 'SO(2)';
  readonly dim = 1;
  readonly storageSize = 4;
  readonly matrixSize = 2;
  readonly actionDim = 2;
  /** Storage layout of an element. */
  readonly layout = 'rowMajor4';

  /** out ← I₂. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== 4) lengthError('SO2.identity', ['out'], [4], [out]);
    out[0] = 1;
    out[1] = 0;
    out[2] = 0;
    out[3] = 1;
    return out;
  }

  /** out ← a·b (2×2 matrix product). `out` may alias `a` or `b`. J_out_a = J_out_b = [1]. */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (a.length - 4) | (b.length - 4)) !== 0)
      lengthError('SO2.compose', OUT_A_B, S444, [out, a, b]);
    if (J_out_a !== undefined || J_out_b !== undefined) this.composeJacobians(J_out_a, J_out_b);
    const a0 = a[0]!;
    const a1 = a[1]!;
    const a2 = a[2]!;
    const a3 = a[3]!;
    const b0 = b[0]!;
    const b1 = b[1]!;
    const b2 = b[2]!;
    const b3 = b[3]!;
    out[0] = a0 * b0 + a1 * b2;
    out[1] = a0 * b1 + a1 * b3;
    out[2] = a2 * b0 + a3 * b2;
    out[3] = a2 * b1 + a3 * b3;
    return out;
  }

  /** out ← a⁻¹ = aᵀ. `out` may alias `a`. J_out_a = [−1]. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    if (((out.length - 4) | (a.length - 4)) !== 0) lengthError('SO2.inverse', OUT_A, S44, [out, a]);
    if (J_out_a !== undefined) this.inverseJacobians(J_out_a);
    const a1 = a[1]!;
    const a2 = a[2]!;
    out[0] = a[0]!;
    out[1] = a2;
    out[2] = a1;
    out[3] = a[3]!;
    return out;
  }

  /** out ← Exp(θ) = [[cos θ, −sin θ], [sin θ, cos θ]] (manif appendix A). J_out_tau = [1]. */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - 4) | (tau.length - 1)) !== 0)
      lengthError('SO2.exp', OUT_TAU, S41, [out, tau]);
    if (J_out_tau !== undefined) this.expJacobians(J_out_tau);
    const t = tau[0]!;
    const c = Math.cos(t);
    const s = Math.sin(t);
    out[0] = c;
    out[1] = -s;
    out[2] = s;
    out[3] = c;
    return out;
  }

  /**
   * out ← [θ] with θ = atan2((r₂₁ − r₁₂)/2, (r₁₁ + r₂₂)/2) ∈ (−π, π] (manif appendix A): exact on
   * rotations, and the angle of the nearest rotation for a perturbed or scaled matrix.
   * J_out_X = [1].
   *
   * @throws DomainError when r₁₁ + r₂₂ and r₂₁ − r₁₂ both vanish (relative to ‖X‖_F, see
   *   `SO2_LOG_DEGENERATE`): a reflection or zero, with no nearest rotation.
   */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - 1) | (X.length - 4)) !== 0) lengthError('SO2.log', OUT_X, S14, [out, X]);
    if (J_out_X !== undefined) this.logJacobians(J_out_X);
    out[0] = so2Log(X, 'SO2.log: X');
    return out;
  }

  /** out ← τ^ = [[0, −θ], [θ, 0]]. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 4) | (tau.length - 1)) !== 0)
      lengthError('SO2.hat', OUT_TAU, S41, [out, tau]);
    const t = tau[0]!;
    out[0] = 0;
    out[1] = -t;
    out[2] = t;
    out[3] = 0;
    return out;
  }

  /** out ← m∨ = [m₂₁] (reads only the entry below the diagonal). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - 1) | (m.length - 4)) !== 0)
      lengthError('SO2.vee', ['out', 'm'], S14, [out, m]);
    out[0] = m[2]!;
    return out;
  }

  /**
   * out ← R·p. `out` may alias `p`. J_out_X = R·[−p₂, p₁]ᵀ (2×1: d/dθ of R(θ)p), J_out_p = R.
   */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    if (((out.length - 2) | (X.length - 4) | (p.length - 2)) !== 0)
      lengthError('SO2.act', OUT_X_P, S242, [out, X, p]);
    const p0 = p[0]!;
    const p1 = p[1]!;
    if (J_out_X !== undefined || J_out_p !== undefined)
      this.actJacobians(X, p0, p1, J_out_X, J_out_p);
    out[0] = X[0]! * p0 + X[1]! * p1;
    out[1] = X[2]! * p0 + X[3]! * p1;
    return out;
  }

  /** out ← Ad_R = [1] (NaN when R has a NaN entry). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 1) | (X.length - 4)) !== 0) lengthError('SO2.adj', OUT_X, S14, [out, X]);
    out[0] = 1 + 0 * (X[0]! + X[1]! + X[2]! + X[3]!);
    return out;
  }

  /** out ← ad_τ = [0] (so(2) is abelian; NaN when τ is NaN). */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 1) | (tau.length - 1)) !== 0)
      lengthError('SO2.smallAdj', OUT_TAU, S11, [out, tau]);
    out[0] = 0 * tau[0]! + 0; // 0, or NaN (never −0)
    return out;
  }

  /** out ← X·Exp(τ) (the rotation by θ = τ₀ after X). `out` may alias `X`. J = [1], [1]. */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (X.length - 4) | (tau.length - 1)) !== 0)
      lengthError('SO2.rplus', OUT_X_TAU, S441, [out, X, tau]);
    if (J_out_X !== undefined || J_out_tau !== undefined) this.rplusJacobians(J_out_X, J_out_tau);
    const t = tau[0]!;
    const c = Math.cos(t);
    const s = Math.sin(t);
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    out[0] = x0 * c + x1 * s;
    out[1] = x1 * c - x0 * s;
    out[2] = x2 * c + x3 * s;
    out[3] = x3 * c - x2 * s;
    return out;
  }

  /** out ← Log(Xᵀ·Y). J_out_Y = [1], J_out_X = [−1]. */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 1) | (Y.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO2.rminus', OUT_Y_X, S144, [out, Y, X]);
    if (J_out_Y !== undefined || J_out_X !== undefined) this.rminusJacobians(J_out_Y, J_out_X);
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    const y0 = Y[0]!;
    const y1 = Y[1]!;
    const y2 = Y[2]!;
    const y3 = Y[3]!;
    // XᵀY: s = ((XᵀY)₂₁ − (XᵀY)₁₂)/2, c = ((XᵀY)₁₁ + (XᵀY)₂₂)/2
    const m0 = x0 * y0 + x2 * y2;
    const m1 = x0 * y1 + x2 * y3;
    const m2 = x1 * y0 + x3 * y2;
    const m3 = x1 * y1 + x3 * y3;
    out[0] = so2LogOf(m0, m1, m2, m3, 'SO2.rminus: X⁻¹Y');
    return out;
  }

  /** out ← Exp(τ)·X. `out` may alias `X`. J_out_tau = J_out_X = [1]. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (tau.length - 1) | (X.length - 4)) !== 0)
      lengthError('SO2.lplus', OUT_TAU_X, S414, [out, tau, X]);
    if (J_out_tau !== undefined || J_out_X !== undefined) this.lplusJacobians(J_out_tau, J_out_X);
    const t = tau[0]!;
    const c = Math.cos(t);
    const s = Math.sin(t);
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    out[0] = c * x0 - s * x2;
    out[1] = c * x1 - s * x3;
    out[2] = s * x0 + c * x2;
    out[3] = s * x1 + c * x3;
    return out;
  }

  /** out ← Log(Y·Xᵀ). J_out_Y = [1], J_out_X = [−1]. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    if (((out.length - 1) | (Y.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO2.lminus', OUT_Y_X, S144, [out, Y, X]);
    if (J_out_Y !== undefined || J_out_X !== undefined) this.lminusJacobians(J_out_Y, J_out_X);
    const y0 = Y[0]!;
    const y1 = Y[1]!;
    const y2 = Y[2]!;
    const y3 = Y[3]!;
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    out[0] = so2LogOf(
      y0 * x0 + y1 * x1,
      y0 * x2 + y1 * x3,
      y2 * x0 + y3 * x1,
      y2 * x2 + y3 * x3,
      'SO2.lminus: YX⁻¹',
    );
    return out;
  }

  /** out ← Xᵀ·Y. `out` may alias `X` or `Y`. J_out_X = [−1], J_out_Y = [1]. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    if (((out.length - 4) | (X.length - 4) | (Y.length - 4)) !== 0)
      lengthError('SO2.between', OUT_X_Y, S444, [out, X, Y]);
    if (J_out_X !== undefined || J_out_Y !== undefined) this.betweenJacobians(J_out_X, J_out_Y);
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    const y0 = Y[0]!;
    const y1 = Y[1]!;
    const y2 = Y[2]!;
    const y3 = Y[3]!;
    out[0] = x0 * y0 + x2 * y2;
    out[1] = x0 * y1 + x2 * y3;
    out[2] = x1 * y0 + x3 * y2;
    out[3] = x1 * y1 + x3 * y3;
    return out;
  }

  /** out ← J_r(τ) = [1] (NaN when τ is NaN). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.one('SO2.rjac', out, tau);
  }

  /** out ← J_l(τ) = [1] (NaN when τ is NaN). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.one('SO2.ljac', out, tau);
  }

  /** out ← J_r⁻¹(τ) = [1] (NaN when τ is NaN). */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.one('SO2.rjacInv', out, tau);
  }

  /** out ← J_l⁻¹(τ) = [1] (NaN when τ is NaN). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.one('SO2.ljacInv', out, tau);
  }

  /** out ← R(θ) with θ = π(2u − 1) uniform in [−π, π) (the Haar measure), u = `rng()`. */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== 4) lengthError('SO2.random', ['out'], [4], [out]);
    const t = Math.PI * (2 * rng() - 1);
    const c = Math.cos(t);
    const s = Math.sin(t);
    out[0] = c;
    out[1] = -s;
    out[2] = s;
    out[3] = c;
    return out;
  }

  /** out ← a copy of X (the storage is the matrix). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO2.toMatrix', OUT_X, S44, [out, X]);
    return copyInto(out, X, 4);
  }

  /** out ← a copy of M (no re-orthonormalization; see {@link normalize}). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - 4) | (M.length - 4)) !== 0)
      lengthError('SO2.fromMatrix', ['out', 'M'], S44, [out, M]);
    return copyInto(out, M, 4);
  }

  /**
   * Whether R is a rotation: max |(RᵀR − I)_ij| ≤ tol and det R > 0. False for NaN or ∞.
   *
   * @example
   * ```ts
   * SO2.isValid(Float64Array.of(1, 0, 0, -1)); // false: a reflection
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== 4) lengthError('SO2.isValid', ['X'], [4], [X]);
    return orthogonalityDefect(X, 2, 2) <= tol && X[0]! * X[3]! - X[1]! * X[2]! > 0;
  }

  /**
   * out ← R(θ), θ = atan2((x₂₁ − x₁₂)/2, (x₁₁ + x₂₂)/2): the rotation nearest to X in the Frobenius
   * norm (it maximizes tr(RᵀX) = c·cos θ + s·sin θ), exact to rounding. `out` may alias `X`.
   *
   * @throws DomainError when X has a non-finite entry or x₁₁ + x₂₂ = x₂₁ − x₁₂ = 0 (no nearest
   *   rotation).
   *
   * @example
   * ```ts
   * SO2.normalize(new Float64Array(4), Float64Array.of(2, 0, 0, 2)); // [1, 0, 0, 1]
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - 4) | (X.length - 4)) !== 0)
      lengthError('SO2.normalize', OUT_X, S44, [out, X]);
    if (!allFinite(X, 4))
      throw new DomainError('SO2.normalize: X', 'a non-finite entry', 'must be finite');
    const s = 0.5 * (X[2]! - X[1]!);
    const c = 0.5 * (X[0]! + X[3]!);
    const r = Math.hypot(s, c);
    if (!(r > 0))
      throw new DomainError(
        'SO2.normalize: X',
        0,
        'has no nearest rotation: x₁₁ + x₂₂ = x₂₁ − x₁₂ = 0',
      );
    const cn = c / r;
    const sn = s / r;
    out[0] = cn;
    out[1] = -sn;
    out[2] = sn;
    out[3] = cn;
    return out;
  }

  private one(method: string, out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - 1) | (tau.length - 1)) !== 0) lengthError(method, OUT_TAU, S11, [out, tau]);
    out[0] = 1 + 0 * tau[0]!;
    return out;
  }

  /** The Jacobian outputs of `compose`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private composeJacobians(
    J_out_a: Float64Array | undefined,
    J_out_b: Float64Array | undefined,
  ): void {
    if (J_out_a !== undefined) scalarJac('SO2.compose', 'J_out_a', J_out_a, 1);
    if (J_out_b !== undefined) scalarJac('SO2.compose', 'J_out_b', J_out_b, 1);
  }

  /** The Jacobian outputs of `inverse`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private inverseJacobians(J_out_a: Float64Array | undefined): void {
    if (J_out_a !== undefined) scalarJac('SO2.inverse', 'J_out_a', J_out_a, -1);
  }

  /** The Jacobian outputs of `exp`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private expJacobians(J_out_tau: Float64Array | undefined): void {
    if (J_out_tau !== undefined) scalarJac('SO2.exp', 'J_out_tau', J_out_tau, 1);
  }

  /** The Jacobian outputs of `log`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private logJacobians(J_out_X: Float64Array | undefined): void {
    if (J_out_X !== undefined) scalarJac('SO2.log', 'J_out_X', J_out_X, 1);
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
      checkJac('SO2.act', 'J_out_X', J_out_X, 2);
      J_out_X[0] = -X[0]! * p1 + X[1]! * p0;
      J_out_X[1] = -X[2]! * p1 + X[3]! * p0;
    }
    if (J_out_p !== undefined) {
      checkJac('SO2.act', 'J_out_p', J_out_p, 4);
      copyInto(J_out_p, X, 4);
    }
  }

  /** The Jacobian outputs of `rplus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rplusJacobians(
    J_out_X: Float64Array | undefined,
    J_out_tau: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) scalarJac('SO2.rplus', 'J_out_X', J_out_X, 1);
    if (J_out_tau !== undefined) scalarJac('SO2.rplus', 'J_out_tau', J_out_tau, 1);
  }

  /** The Jacobian outputs of `rminus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private rminusJacobians(
    J_out_Y: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    if (J_out_Y !== undefined) scalarJac('SO2.rminus', 'J_out_Y', J_out_Y, 1);
    if (J_out_X !== undefined) scalarJac('SO2.rminus', 'J_out_X', J_out_X, -1);
  }

  /** The Jacobian outputs of `lplus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private lplusJacobians(
    J_out_tau: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    if (J_out_tau !== undefined) scalarJac('SO2.lplus', 'J_out_tau', J_out_tau, 1);
    if (J_out_X !== undefined) scalarJac('SO2.lplus', 'J_out_X', J_out_X, 1);
  }

  /** The Jacobian outputs of `lminus`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private lminusJacobians(
    J_out_Y: Float64Array | undefined,
    J_out_X: Float64Array | undefined,
  ): void {
    if (J_out_Y !== undefined) scalarJac('SO2.lminus', 'J_out_Y', J_out_Y, 1);
    if (J_out_X !== undefined) scalarJac('SO2.lminus', 'J_out_X', J_out_X, -1);
  }

  /** The Jacobian outputs of `between`, out of line: unexecuted Jacobian code inside the hot method
   * slowed it down up to 2× in V8 (SE2.rplus 45 → 82 ns). */
  private betweenJacobians(
    J_out_X: Float64Array | undefined,
    J_out_Y: Float64Array | undefined,
  ): void {
    if (J_out_X !== undefined) scalarJac('SO2.between', 'J_out_X', J_out_X, -1);
    if (J_out_Y !== undefined) scalarJac('SO2.between', 'J_out_Y', J_out_Y, 1);
  }
}

/** so2Log of the 2×2 matrix [[m0, m1], [m2, m3]] given entrywise. */
function so2LogOf(m0: number, m1: number, m2: number, m3: number, what: string): number {
  const s = 0.5 * (m2 - m1);
  const c = 0.5 * (m0 + m3);
  const r2 = s * s + c * c;
  // r2 = 1 for a rotation: the relative test (four more products) runs only below r2 = 1/4.
  if (r2 < 0.25 && r2 <= SO2_LOG_DEGENERATE * 0.5 * (m0 * m0 + m1 * m1 + m2 * m2 + m3 * m3)) {
    throw new DomainError(what, r2, 'has no nearest rotation (a reflection or the zero matrix)');
  }
  return principalAngle(s, c);
}

/**
 * The SO(2) instance ({@link SO2Group}: 2×2 rotation matrices, row-major).
 *
 * @example
 * ```ts
 * const R = SO2.exp(new Float64Array(4), Float64Array.of(0.3));
 * SO2.log(new Float64Array(1), R); // [0.3]
 * ```
 */
export const SO2: SO2Group = new SO2Group();
