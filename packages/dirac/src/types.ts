/**
 * The interfaces of the continuous Dirac layer (spec 002 §2, §5): Lagrangians L(q, v) on TQ,
 * Q = Rⁿ (core's `Lagrangian`, re-exported), and distributions Δ_Q ⊂ TQ given by constraint
 * one-forms. Vector- and matrix-valued methods write into an output argument given first
 * (n-vectors; matrices row-major) and return it.
 *
 * Coordinates (spec 002 §2): TQ ∋ (q, v), T*Q ∋ (q, p), the Pontryagin bundle TQ ⊕ T*Q ∋ (q, v, p).
 *
 * @module
 */

// A Lagrangian L: TQ → R is core's one vocabulary: `Lq`, `Lv`, `Lvv` = M = ∂²L/∂v∂v (L is
// degenerate where M is singular) and `Lvq` = N, N_ij = ∂²L/∂vⁱ∂qʲ.
export type { Lagrangian } from '@geomech/core';

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
  /**
   * out ← ∂(A(q) w)/∂q at fixed w (m×n): entry (a, k) = Σ_i (∂A_ai/∂qᵏ) wⁱ. The (−) Lagrange–Dirac
   * step differentiates its constraint line W(q_{k+1})(q_{k+1} − q_k)/h with it (spec 000 §8.2).
   * Optional: without it the step assembles the same matrix from n calls of {@link Adot} with
   * v = e_k (column k of the result is (∂A/∂qᵏ) w).
   */
  dAw?(out: Float64Array, q: Float64Array, w: Float64Array): Float64Array;
  /** out ← G(q), a basis of Δ(q) as columns (n×(n−m)); when absent it is a null space of A(q). */
  G?(out: Float64Array, q: Float64Array): Float64Array;
}
