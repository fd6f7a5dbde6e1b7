/**
 * Mechanical systems with holonomic constraints on Q = Rⁿ (spec 001 §2, §10 "Models"):
 * L(q, v) = ½ vᵀ M v − V(q) with a constant diagonal mass matrix (or a configuration-dependent
 * M(q) through `massMatrix`), constraints φᵃ(q) = 0 with the
 * constraint one-forms ψᵃ stacked as the rows of C(q) (in the papers' examples ψᵃ = ½ dφᵃ; the
 * scaling is absorbed into the multipliers λ). Out-first, row-major, allocation-free methods.
 *
 * Time-dependent potentials V(q, t) (e.g. a moving support or a parametric excitation): `V` and
 * `gradV` receive the time as an optional last argument (core's Lagrangian vocabulary: "time,
 * when a Lagrangian depends on it, is the last argument"); the steppers pass the time of each
 * evaluation (t_k for the Dirac methods, t_k and t_{k+1} for RATTLE), and an autonomous system
 * simply ignores it. External and control forces F(t, q, v, u) enter through the steppers'
 * `force` option (core's `Force`).
 *
 * @module
 */

/**
 * The band structure of a chain's constraints (optional on a {@link ConstrainedMechanicalSystem}):
 * row a of C(q) has its nonzeros only in the columns first[a] … first[a] + width − 1, with `first`
 * non-decreasing (columns outside [0, n) are padding, always 0). Then C M⁻¹ Cᵀ and the RATTLE
 * Jacobian are band matrices (rows a and b couple only when their column ranges overlap), and the
 * Dirac and RATTLE steps solve them by banded LU in O(n) per step instead of dense O(m³).
 *
 * @example
 * ```ts
 * const band = zieglerColumn({ n: 3 }).band!; // link i couples joints i − 1 and i
 * band.width;          // 4: (x, y) of two joints
 * Array.from(band.first); // [-2, 0, 2]: row 0 starts in the padding before column 0
 * ```
 */
export interface ConstraintBand {
  /** Columns per row of the band storage. */
  readonly width: number;
  /** First column of each row's band (length m, non-decreasing, in (−width, n)). */
  readonly first: Int32Array;
  /** s with dφ(q) = s·C(q): 2 when the rows of C are ψᵃ = ½dφᵃ (the papers' examples). */
  readonly phiScale: number;
  /** out ← C(q) in band storage (m × width): out[a·width + t] = C(q)_{a, first[a] + t}. */
  C(out: Float64Array, q: Float64Array): Float64Array;
}

/** A holonomically constrained mechanical system for the Dirac integrators and comparators. */
export interface ConstrainedMechanicalSystem {
  /** Dimension n of Q. */
  readonly n: number;
  /** Number m of constraints. */
  readonly m: number;
  /**
   * The diagonal of the constant mass matrix M (length n). Ignored by the methods that support
   * {@link massMatrix} when that is given (then the entries only need to be positive).
   */
  readonly mass: Float64Array;
  /**
   * out ← M(q) (n×n row-major, symmetric positive definite): a configuration-dependent mass
   * matrix, L = ½ vᵀM(q)v − V(q) (with {@link coriolis}). Supported by the index-reduced
   * comparators (euler, trapezium, ab3, rk4, `indexReducedRhs`), by RATTLE (the generalized RATTLE
   * of Hairer–Lubich–Wanner VII.1.4, see `RattleStepper`) and by the Dirac methods (Newton on the
   * step (7) with L_d = h L(q_k, q̃), see `diracSolve`). Those M(q) paths are dense (n ≤ 200); a
   * system with `massMatrix` never takes the chain `band` path.
   */
  massMatrix?(out: Float64Array, q: Float64Array): Float64Array;
  /**
   * out ← κ(q, v) = Ṁ(q)v − ½∇_q(vᵀM(q)v), κ_i = Σ_jk (∂M_ij/∂q_k − ½ ∂M_jk/∂q_i) v_j v_k: the
   * velocity-quadratic terms of the Euler–Lagrange equations M(q)v̇ + κ(q, v) = −∇V + Cᵀλ. Required
   * with {@link massMatrix}.
   */
  coriolis?(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /**
   * out ← g(q, v) = ½∇_q(vᵀM(q)v), g_i = ½ Σ_jk ∂M_jk/∂q_i v_j v_k (optional, with
   * {@link massMatrix}): the kinetic part of ∂L/∂q that RATTLE and the Dirac methods need for M(q).
   * Without it they recover g from {@link coriolis} by polarization (the Christoffel identity
   * ∂_i M_jk = Γ_{j,ik} + Γ_{k,ij}; 2n + 1 evaluations of κ per g).
   */
  kineticGradient?(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /**
   * True when V (and ∇V) does not depend on t: the steppers then call `V(q)` and `gradV(out, q)`
   * without a time. A time computed inside a step (RATTLE's t_k + h) is a fresh double, boxed (16
   * bytes) when passed to a function the engine does not inline; an autonomous system skips that.
   * Default false (the time is passed). A system made by spreading an autonomous one
   * (`{ ...pendulum(p), V, gradV }`) with a time-dependent V must set it back to false.
   */
  readonly autonomous?: boolean;
  /** Potential energy V(q) (V(q, t) for a time-dependent system; t is omitted by callers that have none). */
  V(q: Float64Array, t?: number): number;
  /** out ← ∇V(q) (∇_q V(q, t) for a time-dependent system). */
  gradV(out: Float64Array, q: Float64Array, t?: number): Float64Array;
  /** out ← φ(q) (length m); the position-level constraint residual. */
  phi(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← C(q), the constraint one-forms ψᵃ as rows (m×n). */
  C(out: Float64Array, q: Float64Array): Float64Array;
  /**
   * out ← c(q, v) with cₐ = vᵀ ∇²(ψ-potential)ₐ v, the velocity-quadratic term of the
   * acceleration-level constraint d/dt (C(q) v) = C(q) v̇ + c(q, v) (length m).
   */
  curvature(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** The band structure of C(q), when the system is a chain (see {@link ConstraintBand}). */
  readonly band?: ConstraintBand;
}

// Largest n + m of a system whose RATTLE, Dirac or Lagrange–Dirac step derivatives are computed
// (they factor the (n + m)-square KKT matrix densely): core's constant, checked by core's
// checkStepDerivatives; re-exported here, where it was first defined.
export { STEP_DERIVATIVES_MAX_DIMENSION } from '@geomech/core';
