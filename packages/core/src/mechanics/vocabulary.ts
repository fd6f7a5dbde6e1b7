/**
 * The one vocabulary of Lagrangians, discrete Lagrangians and potentials across the packages
 * (contact, dirac, groupoid and the CLI use these interfaces or extend them; none invents its own
 * names). Every vector- or matrix-valued member writes into an output argument given first (n-vectors,
 * n×n row-major matrices) and returns it; none allocates.
 *
 * Names (paper symbols, STYLE.md): partial derivatives of a Lagrangian L(q, v, t) are `Lq`, `Lv`,
 * second ones `Lqq`, `Lvq` (entry (i, j) = ∂²L/∂vᵢ∂qⱼ), `Lvv`; a contact Lagrangian adds the
 * action variable z (`Lz`, `Lqz`, `Lvz`, `Lzz`). Slot derivatives of a discrete Lagrangian
 * L_d(q0, q1) are `D1`, `D2` (D₁L_d, D₂L_d) and `D2D1` = ∂(D₁L_d)/∂q1 (entry (i, j) = ∂(D₁L_d)ᵢ/∂q1ⱼ),
 * `D1D1`, `D2D2`; a contact one adds `Dz` and `D2Dz` = ∇_{q1}(D_z L_d). Time, when a Lagrangian
 * depends on it, is the last argument.
 *
 * @module
 */

/**
 * A potential V: Rⁿ → R with its gradient and (optionally) Hessian.
 *
 * @example
 * ```ts
 * const spring: Potential = {
 *   dim: 1,
 *   V: (q) => 0.5 * q[0]! ** 2,
 *   gradV: (out, q) => { out[0] = q[0]!; return out; },
 *   hessV: (out) => { out[0] = 1; return out; },
 * };
 * spring.V(Float64Array.of(2)); // 2
 * ```
 */
export interface Potential {
  /** Dimension n of the configuration space. */
  readonly dim: number;
  /** V(q). */
  V(q: Float64Array, t?: number): number;
  /** out ← ∇V(q). */
  gradV(out: Float64Array, q: Float64Array, t?: number): Float64Array;
  /** out ← ∇²V(q) (n×n row-major). When absent, integrators difference the gradient. */
  hessV?(out: Float64Array, q: Float64Array, t?: number): Float64Array;
}

/**
 * A Lagrangian L(q, v) on TQ, Q = Rⁿ (time-dependent when the system says so), with the derivatives
 * the integrators need.
 */
export interface Lagrangian {
  /** Dimension n of Q. */
  readonly n: number;
  /**
   * True when L does not depend on t (its methods ignore the time argument): an integrator may
   * then call them without it, so that no double is boxed per call (a double passed to a call V8
   * does not inline is heap-allocated). Default false: time-dependent, or not declared.
   */
  readonly autonomous?: boolean;
  L(q: Float64Array, v: Float64Array, t?: number): number;
  /** out ← ∂L/∂q. */
  Lq(out: Float64Array, q: Float64Array, v: Float64Array, t?: number): Float64Array;
  /** out ← ∂L/∂v (the momentum p = FL(q, v)). */
  Lv(out: Float64Array, q: Float64Array, v: Float64Array, t?: number): Float64Array;
  /** out ← ∂²L/∂v∂v (n×n), the Hessian whose invertibility is regularity. */
  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, t?: number): Float64Array;
  /** out ← ∂²L/∂v∂q: entry (i, j) = ∂²L/∂vᵢ∂qⱼ (n×n). */
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, t?: number): Float64Array;
  /** out ← ∂²L/∂q∂q (n×n), when a method needs it. */
  Lqq?(out: Float64Array, q: Float64Array, v: Float64Array, t?: number): Float64Array;
}

/**
 * A discrete Lagrangian L_d(q0, q1) ≈ ∫ L dt over one step h, with its slot derivatives.
 */
export interface DiscreteLagrangian {
  readonly n: number;
  readonly h: number;
  Ld(q0: Float64Array, q1: Float64Array): number;
  /** out ← D₁L_d(q0, q1). */
  D1(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array;
  /** out ← D₂L_d(q0, q1). */
  D2(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array;
  /** out ← ∂(D₁L_d)/∂q1 (n×n, entry (i, j) = ∂(D₁L_d)ᵢ/∂q1ⱼ). */
  D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array;
}

/**
 * A continuous external force (or control force) F(t, q, v, u) ∈ Rⁿ on Q = Rⁿ with input u ∈ Rᵐ,
 * entering the Lagrange–d'Alembert principle δ∫L dt + ∫F·δq dt = 0 (Marsden–West 2001 §3.2,
 * eq. (3.2.1)): the forced Euler–Lagrange equations d/dt ∂L/∂v − ∂L/∂q = F. Optional Jacobians
 * `dFdq`, `dFdv` (n×n row-major, entry (i, j) = ∂Fᵢ/∂qⱼ, ∂Fᵢ/∂vⱼ) and `dFdu` (n×m, ∂Fᵢ/∂uⱼ); an
 * integrator differences `F` centrally where one is missing. Inputs u_k reach the force through
 * core's `integrate` (`inputs` option) as the stepper's input (`inputSize = m`).
 *
 * @example
 * ```ts
 * // linear damping plus an actuator on the first coordinate: F = −c v + (u₀, 0)
 * const c = 0.1;
 * const damper: Force = {
 *   n: 2, m: 1,
 *   F: (out, _t, _q, v, u) => { out[0] = -c * v[0]! + u[0]!; out[1] = -c * v[1]!; return out; },
 *   dFdq: (out) => out.fill(0),
 *   dFdv: (out) => { out.fill(0); out[0] = -c; out[3] = -c; return out; },
 *   dFdu: (out) => { out[0] = 1; out[1] = 0; return out; },
 * };
 * damper.F(new Float64Array(2), 0, Float64Array.of(0, 0), Float64Array.of(1, 2), Float64Array.of(3)); // [2.9, −0.2]
 * ```
 */
export interface Force {
  /** Dimension n of Q. */
  readonly n: number;
  /** Input size m (0 for an uncontrolled force). */
  readonly m: number;
  /**
   * True when F and its Jacobians do not depend on t (they ignore the time argument): an
   * integrator may then pass them a constant time, so that no double is boxed per step (a double
   * passed to a call V8 does not inline is heap-allocated), as {@link Lagrangian.autonomous}.
   * Default false: time-dependent, or not declared.
   */
  readonly autonomous?: boolean;
  /** out ← F(t, q, v, u) (n). */
  F(out: Float64Array, t: number, q: Float64Array, v: Float64Array, u: Float64Array): Float64Array;
  /** out ← ∂F/∂q (n×n). */
  dFdq?(
    out: Float64Array,
    t: number,
    q: Float64Array,
    v: Float64Array,
    u: Float64Array,
  ): Float64Array;
  /** out ← ∂F/∂v (n×n). */
  dFdv?(
    out: Float64Array,
    t: number,
    q: Float64Array,
    v: Float64Array,
    u: Float64Array,
  ): Float64Array;
  /** out ← ∂F/∂u (n×m). */
  dFdu?(
    out: Float64Array,
    t: number,
    q: Float64Array,
    v: Float64Array,
    u: Float64Array,
  ): Float64Array;
}
