/**
 * The interfaces of the continuous Dirac layer (spec 002 §2, §5): Lagrangians L(q, v) on TQ,
 * Q = Rⁿ, and distributions Δ_Q ⊂ TQ given by constraint one-forms. Vector- and matrix-valued
 * methods write into an output argument given first (n-vectors; matrices row-major) and return it.
 *
 * Coordinates (spec 002 §2): TQ ∋ (q, v), T*Q ∋ (q, p), the Pontryagin bundle TQ ⊕ T*Q ∋ (q, v, p).
 *
 * @module
 */

/** A Lagrangian L: TQ → R with the derivatives the residuals and solvers need. */
export interface Lagrangian {
  /** Dimension n of Q. */
  readonly n: number;
  L(q: Float64Array, v: Float64Array): number;
  /** out ← ∂L/∂q. */
  dLdq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** out ← ∂L/∂v (the momentum of the Legendre map 𝔽L). */
  dLdv(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** out ← M = ∂²L/∂v∂v (n×n); L is degenerate where M is singular. */
  d2Ldv2(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** out ← N, N_ij = ∂²L/∂vⁱ∂qʲ (n×n). */
  d2Ldvdq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
}

/**
 * A constant-rank distribution Δ_Q(q) = ker A(q) ⊂ T_qQ given by m constraint one-forms ωᵃ (the
 * rows of A), optionally with a basis G(q) of Δ (the image form, n×(n−m)); spec 002 §3.2, §5.4.
 */
export interface Distribution {
  /** Dimension n of Q. */
  readonly n: number;
  /** Number m of constraint one-forms (rows of A). */
  readonly m: number;
  /** out ← A(q) (m×n row-major); Δ(q) = ker A(q), Δ°(q) = row space of A(q). */
  A(out: Float64Array, q: Float64Array): Float64Array;
  /**
   * out ← Σ_k (∂A/∂qᵏ) vᵏ (m×n): the time derivative of A(q(t)) along q̇ = v, for the index
   * reduction of the constraint A(q)v = 0. Zero for constant one-forms.
   */
  Adot(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** out ← G(q), a basis of Δ(q) as columns (n×(n−m)); when absent it is a null space of A(q). */
  G?(out: Float64Array, q: Float64Array): Float64Array;
}
