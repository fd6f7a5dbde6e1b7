/**
 * The rotation group SO(2) stored as 2×2 rotation matrices (`rowMajor4`), with the exponential,
 * the logarithm on the principal branch (−π, π], and its (trivial) adjoints and Jacobians.
 * Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians, so(2) hat map).
 * Closed forms: manif (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix A.
 *
 * @module
 */
import type { LieGroup, Rng } from './types.js';

/**
 * The principal angle atan2(s, c) of the rotation closest to `[[c, −s], [s, c]]`, in (−π, π]: −π
 * (from s = −0) is returned as π.
 */
function principalAngle(s: number, c: number): number {
  const t = Math.atan2(s, c);
  return t === -Math.PI ? Math.PI : t;
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
 *
 * Every operation allocates nothing (the ⊖ helpers use scratch owned by the instance).
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
  private readonly scratch = new Float64Array(4);

  /** out ← I₂. */
  identity(out: Float64Array): Float64Array {
    out[0] = 1;
    out[1] = 0;
    out[2] = 0;
    out[3] = 1;
    return out;
  }

  /** out ← a·b (2×2 matrix product). `out` may alias `a` or `b`. */
  compose(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
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

  /** out ← a⁻¹ = aᵀ. `out` may alias `a`. */
  inverse(out: Float64Array, a: Float64Array): Float64Array {
    const a1 = a[1]!;
    const a2 = a[2]!;
    out[0] = a[0]!;
    out[1] = a2;
    out[2] = a1;
    out[3] = a[3]!;
    return out;
  }

  /** out ← Exp(θ) = [[cos θ, −sin θ], [sin θ, cos θ]] (manif appendix A). */
  exp(out: Float64Array, tau: Float64Array): Float64Array {
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
   */
  log(out: Float64Array, X: Float64Array): Float64Array {
    out[0] = principalAngle(0.5 * (X[2]! - X[1]!), 0.5 * (X[0]! + X[3]!));
    return out;
  }

  /** out ← τ^ = [[0, −θ], [θ, 0]]. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    const t = tau[0]!;
    out[0] = 0;
    out[1] = -t;
    out[2] = t;
    out[3] = 0;
    return out;
  }

  /** out ← m∨ = [m₂₁] (reads only the entry below the diagonal). */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    out[0] = m[2]!;
    return out;
  }

  /** out ← R·p. `out` may alias `p`. */
  act(out: Float64Array, X: Float64Array, p: Float64Array): Float64Array {
    const p0 = p[0]!;
    const p1 = p[1]!;
    out[0] = X[0]! * p0 + X[1]! * p1;
    out[1] = X[2]! * p0 + X[3]! * p1;
    return out;
  }

  /** out ← Ad_R = [1]. */
  adj(out: Float64Array, _X: Float64Array): Float64Array {
    out[0] = 1;
    return out;
  }

  /** out ← ad_τ = [0] (so(2) is abelian). */
  smallAdj(out: Float64Array, _tau: Float64Array): Float64Array {
    out[0] = 0;
    return out;
  }

  /** out ← X·Exp(τ) (the rotation by θ = τ₀ after X). */
  rplus(out: Float64Array, X: Float64Array, tau: Float64Array): Float64Array {
    return this.compose(out, X, this.exp(this.scratch, tau));
  }

  /** out ← Log(Xᵀ·Y). */
  rminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    return this.log(out, this.between(this.scratch, X, Y));
  }

  /** out ← Exp(τ)·X. */
  lplus(out: Float64Array, tau: Float64Array, X: Float64Array): Float64Array {
    return this.compose(out, this.exp(this.scratch, tau), X);
  }

  /** out ← Log(Y·Xᵀ). */
  lminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    const s = this.scratch;
    const y0 = Y[0]!;
    const y1 = Y[1]!;
    const y2 = Y[2]!;
    const y3 = Y[3]!;
    const x0 = X[0]!;
    const x1 = X[1]!;
    const x2 = X[2]!;
    const x3 = X[3]!;
    s[0] = y0 * x0 + y1 * x1;
    s[1] = y0 * x2 + y1 * x3;
    s[2] = y2 * x0 + y3 * x1;
    s[3] = y2 * x2 + y3 * x3;
    return this.log(out, s);
  }

  /** out ← Xᵀ·Y. `out` may alias `X` or `Y`. */
  between(out: Float64Array, X: Float64Array, Y: Float64Array): Float64Array {
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

  /** out ← J_r(τ) = [1]. */
  rjac(out: Float64Array, _tau: Float64Array): Float64Array {
    out[0] = 1;
    return out;
  }

  /** out ← J_l(τ) = [1]. */
  ljac(out: Float64Array, _tau: Float64Array): Float64Array {
    out[0] = 1;
    return out;
  }

  /** out ← J_r⁻¹(τ) = [1]. */
  rjacInv(out: Float64Array, _tau: Float64Array): Float64Array {
    out[0] = 1;
    return out;
  }

  /** out ← J_l⁻¹(τ) = [1]. */
  ljacInv(out: Float64Array, _tau: Float64Array): Float64Array {
    out[0] = 1;
    return out;
  }

  /** out ← R(θ) with θ = π(2u − 1) uniform in [−π, π) (the Haar measure), u = `rng()`. */
  random(out: Float64Array, rng: Rng): Float64Array {
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
    out[0] = X[0]!;
    out[1] = X[1]!;
    out[2] = X[2]!;
    out[3] = X[3]!;
    return out;
  }

  /** out ← a copy of M (no re-orthonormalization). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    return this.toMatrix(out, M);
  }
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
