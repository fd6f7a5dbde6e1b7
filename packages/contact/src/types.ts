/**
 * The interfaces of contact mechanics in geomech (spec 004 §10): continuous contact Lagrangians
 * L(q, v, z, t) on Rⁿ and discrete contact Lagrangians L_d(q0, q1, z0, t), each with the
 * derivatives the integrators need. The names are core's one Lagrangian vocabulary
 * (`@geomech/core` `mechanics/vocabulary.ts`: `Lq`, `Lv`, `Lvv`, `Lvq`, `Lqq`, `D1`, `D2`,
 * `D2D1`) extended by the action variable z (`Lz`, `Lqz`, `Lvz`, `Lzz`, `Dz`, `D2Dz`); time,
 * when a Lagrangian depends on it, is the last argument (default 0). Every vector- or
 * matrix-valued method writes into an output argument given first (n-vectors, n×n row-major
 * matrices) and returns it; none allocates.
 *
 * Sign convention (spec 004 §3, §11.6): the paper's `+γz` with γ < 0 dissipative.
 *
 * @module
 */

/**
 * A contact Lagrangian L: TQ × R × R → R, (q, v, z, t) ↦ L, on Q = Rⁿ with its first and second
 * partial derivatives in (q, v, z). `t` is the time (omitted: 0); an autonomous L ignores it.
 * Build one with `contactLagrangian` (derivatives by dual numbers unless given) or
 * `mechanicalContactLagrangian`.
 *
 * @example
 * ```ts
 * // L = ½v² − ½q² + γz with γ = −0.05, all partials analytic
 * const L: ContactLagrangian = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * L.Lz(Float64Array.of(1), Float64Array.of(2), 3); // −0.05
 * ```
 */
export interface ContactLagrangian {
  /** Dimension n of Q. */
  readonly n: number;
  L(q: Float64Array, v: Float64Array, z: number, t?: number): number;
  /** out ← ∂L/∂q. */
  Lq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂L/∂v (the momentum p of the Legendre map (20)). */
  Lv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** ∂L/∂z. */
  Lz(q: Float64Array, v: Float64Array, z: number, t?: number): number;
  /** out ← ∂²L/∂q∂q (n×n). */
  Lqq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂²L/∂v∂q: entry (i, j) = ∂²L/∂vᵢ∂qⱼ (n×n). */
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂²L/∂v∂v, the Hessian W of the regularity condition (12) (n×n). */
  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂²L/∂q∂z (n). */
  Lqz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂²L/∂v∂z (n). */
  Lvz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t?: number): Float64Array;
  /** ∂²L/∂z². */
  Lzz(q: Float64Array, v: Float64Array, z: number, t?: number): number;
}

/**
 * Static traits of a discrete Lagrangian (STYLE.md: an unknown trait is `undefined`).
 *
 * @example
 * ```ts
 * const traits: DiscreteLagrangianTraits = midpointLd(mechanicalContactLagrangian(zeroPotential(), -0.05), 0.1).traits;
 * traits.order; // 1
 * ```
 */
export interface DiscreteLagrangianTraits {
  /** Measured global order of the induced integrator, when known (spec 004 §6.4). */
  readonly order?: number;
  /** True when the step is explicit (no Newton iteration needed). */
  readonly isExplicit?: boolean;
  /** True for an exact discrete Lagrangian (Thm 4.4: the flow samples the exact solution). */
  readonly isExact?: boolean;
}

/**
 * A discrete contact Lagrangian L_d(q0, q1, z0, t) ≈ z(t + h) − z0 for a fixed step h (spec 004
 * §5.1), with the partial derivatives D1, D2, Dz and the two derivatives with respect to q1 that
 * the Newton Jacobian of the step needs (spec 004 §7.1):
 *   ∂G/∂q1 = ∂(D1 L_d)/∂q1 + p ⊗ ∇_{q1}(D_z L_d) = `D2D1` + p ⊗ `D2Dz`.
 *
 * `t` is the start time t_k of the step [t_k, t_k + h] (omitted: 0). A quadrature rule evaluates a
 * time-dependent L at its own time points inside the step (each rule's documentation says which:
 * t_k + h/2 for the midpoint rules, t_k for the left rectangle); an autonomous L_d ignores t.
 *
 * @example
 * ```ts
 * const Ld: DiscreteContactLagrangian = midpointLd(mechanicalContactLagrangian(quadraticPotential(1), -0.05), 0.5);
 * 1 + Ld.Dz(Float64Array.of(1), Float64Array.of(2), 0); // σ = 1 + hγ = 0.975
 * ```
 */
export interface DiscreteContactLagrangian {
  /** Short name, the CLI's method name: `'midpoint'`, `'left-rectangle'`, `'implicit-z-midpoint'`, `'exact'`. */
  readonly name: string;
  readonly n: number;
  readonly h: number;
  readonly traits: DiscreteLagrangianTraits;
  Ld(q0: Float64Array, q1: Float64Array, z0: number, t?: number): number;
  /** out ← D1 L_d(q0, q1, z0, t). */
  D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t?: number): Float64Array;
  /** out ← D2 L_d(q0, q1, z0, t). */
  D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t?: number): Float64Array;
  /** D_z L_d(q0, q1, z0, t); the step's conformal factor is σ = 1 + D_z L_d. */
  Dz(q0: Float64Array, q1: Float64Array, z0: number, t?: number): number;
  /** out ← ∂(D1 L_d)/∂q1 (n×n, entry (i, j) = ∂(D1 L_d)ᵢ/∂q1ⱼ). */
  D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t?: number): Float64Array;
  /** out ← ∇_{q1}(D_z L_d) (n). */
  D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t?: number): Float64Array;
}
