/**
 * Mechanical systems with holonomic constraints on Q = Rⁿ (spec 001 §2, §10 "Models"):
 * L(q, v) = ½ vᵀ M v − V(q) with a constant diagonal mass matrix, constraints φᵃ(q) = 0 with the
 * constraint one-forms ψᵃ stacked as the rows of C(q) (in the papers' examples ψᵃ = ½ dφᵃ; the
 * scaling is absorbed into the multipliers λ). Out-first, row-major, allocation-free methods.
 *
 * @module
 */

/** A holonomically constrained mechanical system for the Dirac integrators and comparators. */
export interface ConstrainedMechanicalSystem {
  /** Dimension n of Q. */
  readonly n: number;
  /** Number m of constraints. */
  readonly m: number;
  /** The diagonal of the constant mass matrix M (length n). */
  readonly mass: Float64Array;
  /** Potential energy V(q). */
  V(q: Float64Array): number;
  /** out ← ∇V(q). */
  gradV(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← φ(q) (length m); the position-level constraint residual. */
  phi(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← C(q), the constraint one-forms ψᵃ as rows (m×n). */
  C(out: Float64Array, q: Float64Array): Float64Array;
  /**
   * out ← c(q, v) with cₐ = vᵀ ∇²(ψ-potential)ₐ v, the velocity-quadratic term of the
   * acceleration-level constraint d/dt (C(q) v) = C(q) v̇ + c(q, v) (length m).
   */
  curvature(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
}
