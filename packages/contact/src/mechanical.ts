/**
 * Mechanical contact Lagrangians `L(q, v, z, t) = ½|v|² − V(q, t) + γ z` on Rⁿ (spec 004 §7.2),
 * the class of the paper's examples, with potentials in core's vocabulary
 * (`Potential { dim, V, gradV, hessV? }`). Damping uses the paper's sign: γ < 0 dissipates
 * (spec 004 §3).
 *
 * A {@link MechanicalContactLagrangian} is a full {@link ContactLagrangian} with analytic
 * derivatives, so every continuous tool (`herglotzVectorField`, `energy`, `legendre`, …) accepts
 * it, and it keeps its `potential` and `gamma` for the specialised integrators (`MidpointHerglotz`).
 *
 * @module
 */
import { DimensionError, DomainError, type Potential } from '@geomech/core';
import { MECHANICAL_LAGRANGIANS, type PotentialHessian, potentialHessian } from './internal.js';
import type { ContactHamiltonian } from './lagrangian.js';
import type { ContactLagrangian } from './types.js';

/**
 * Core's {@link Potential}, optionally declaring that it does not depend on time:
 * `autonomous: true` lets the integrators call V, ∇V and ∇²V without the time argument (a double
 * passed to a call V8 does not inline is boxed, i.e. allocated, on every call). Without the flag
 * the potential receives t. The potentials of this package are autonomous.
 *
 * @example
 * ```ts
 * const V: MechanicalPotential = { ...quadraticPotential(2), autonomous: true };
 * isAutonomous(V); // true
 * ```
 */
export type MechanicalPotential = Potential & { readonly autonomous?: boolean };

/**
 * True when the potential declares `autonomous: true` (see {@link MechanicalPotential}).
 *
 * @example
 * ```ts
 * isAutonomous(pendulumPotential(1, 1)); // true
 * isAutonomous({ dim: 1, V: (q, t = 0) => t * q[0]!, gradV: (out, _q, t = 0) => out.fill(t) }); // false
 * ```
 */
export function isAutonomous(V: Potential): boolean {
  return (V as MechanicalPotential).autonomous === true;
}

/**
 * `L(q, v, z, t) = ½|v|² − V(q, t) + γ z`, with γ < 0 for dissipation (the paper's convention),
 * as a {@link ContactLagrangian} with the analytic derivatives
 *
 *   L_q = −∇V,  L_v = v,  L_z = γ,  L_qq = −∇²V,  L_vq = 0,  L_vv = I,  L_qz = 0,  L_vz = 0,  L_zz = 0.
 *
 * Its Herglotz equations (19) are `q̈ = −∇V(q, t) + γ q̇`, `ż = L` (spec 004 §4.2 [D]).
 *
 * @example
 * ```ts
 * const lag: MechanicalContactLagrangian = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
 * lag.gamma; // −0.1
 * ```
 */
export interface MechanicalContactLagrangian extends ContactLagrangian {
  readonly potential: Potential;
  readonly gamma: number;
}

/**
 * `L = ½|v|² − V(q, t) + γz` with analytic derivatives; `L_qq = −∇²V` differences the gradient
 * (core's central differences) when the potential has no Hessian. Allocation-free.
 */
class MechanicalLagrangian implements MechanicalContactLagrangian {
  readonly n: number;
  private readonly hessian: PotentialHessian;

  constructor(
    readonly potential: Potential,
    readonly gamma: number,
  ) {
    this.n = potential.dim;
    this.hessian = potentialHessian(potential);
    MECHANICAL_LAGRANGIANS.add(this);
  }

  L(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += v[i]! * v[i]!;
    return 0.5 * s - this.potential.V(q, t) + this.gamma * z;
  }

  Lq(out: Float64Array, q: Float64Array, _v: Float64Array, _z: number, t = 0): Float64Array {
    this.potential.gradV(out, q, t);
    for (let i = 0; i < this.n; i++) out[i] = -out[i]!;
    return out;
  }

  Lv(out: Float64Array, _q: Float64Array, v: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = v[i]!;
    return out;
  }

  Lz(): number {
    return this.gamma;
  }

  Lqq(out: Float64Array, q: Float64Array, _v: Float64Array, _z: number, t = 0): Float64Array {
    const n = this.n;
    this.hessian(out, q, t);
    for (let i = 0; i < n * n; i++) out[i] = -out[i]!;
    return out;
  }

  // loops, not TypedArray.fill, here and below: a builtin call per evaluation costs more than
  // these few stores in the implicit-z step
  Lvq(out: Float64Array): Float64Array {
    const nn = this.n * this.n;
    for (let i = 0; i < nn; i++) out[i] = 0;
    return out;
  }

  Lvv(out: Float64Array): Float64Array {
    const n = this.n;
    for (let i = 0; i < n * n; i++) out[i] = 0;
    for (let i = 0; i < n; i++) out[i * n + i] = 1;
    return out;
  }

  Lqz(out: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = 0;
    return out;
  }

  Lvz(out: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = 0;
    return out;
  }

  Lzz(): number {
    return 0;
  }
}

/**
 * Builds the mechanical contact Lagrangian `L(q, v, z, t) = ½|v|² − V(q, t) + γ z` (spec 004 §7.2; the
 * paper's Examples 1 and 2 with V = 0 and V = ½q²), validating γ and the dimension.
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * lag.L(Float64Array.of(1), Float64Array.of(2), 3); // ½·4 − ½·1 − 0.05·3 = 1.35
 * lag.Lz(Float64Array.of(1), Float64Array.of(2), 3); // −0.05
 * ```
 */
export function mechanicalContactLagrangian(
  potential: Potential,
  gamma: number,
): MechanicalContactLagrangian {
  if (!Number.isFinite(gamma))
    throw new DomainError('mechanicalContactLagrangian: gamma', gamma, 'must be finite');
  if (!Number.isInteger(potential.dim) || potential.dim < 1) {
    throw new DimensionError('mechanicalContactLagrangian: potential.dim', '>= 1', potential.dim);
  }
  return new MechanicalLagrangian(potential, gamma);
}

/**
 * V ≡ 0 on Rⁿ (the free particle, spec 004 §8.1).
 *
 * @example
 * ```ts
 * zeroPotential(2).V(Float64Array.of(1, 2)); // 0
 * ```
 */
export function zeroPotential(dim = 1): MechanicalPotential {
  return {
    dim,
    autonomous: true,
    V: () => 0,
    gradV: (out) => out.fill(0, 0, dim),
    hessV: (out) => out.fill(0, 0, dim * dim),
  };
}

/**
 * V(q) = ½ k |q|² on Rⁿ (the harmonic oscillator, spec 004 §8.2 with k = 1).
 *
 * @example
 * ```ts
 * quadraticPotential(2, 1).V(Float64Array.of(3)); // 9
 * ```
 */
export function quadraticPotential(k: number, dim = 1): MechanicalPotential {
  if (!Number.isFinite(k)) throw new DomainError('quadraticPotential: k', k, 'must be finite');
  return {
    dim,
    autonomous: true,
    V(q) {
      let s = 0;
      for (let i = 0; i < dim; i++) s += q[i]! * q[i]!;
      return 0.5 * k * s;
    },
    gradV(out, q) {
      for (let i = 0; i < dim; i++) out[i] = k * q[i]!;
      return out;
    },
    hessV(out) {
      for (let i = 0; i < dim * dim; i++) out[i] = 0;
      for (let i = 0; i < dim; i++) out[i * dim + i] = k;
      return out;
    },
  };
}

/**
 * V(q) = (g/l)(1 − cos q) on R (the pendulum, CLI contract `damped-pendulum`).
 *
 * @example
 * ```ts
 * pendulumPotential(1, 1).V(Float64Array.of(Math.PI)); // 2
 * ```
 */
export function pendulumPotential(g: number, l: number): MechanicalPotential {
  if (!(l > 0)) throw new DomainError('pendulumPotential: l', l, 'must be > 0');
  const w2 = g / l;
  return {
    dim: 1,
    autonomous: true,
    V: (q) => w2 * (1 - Math.cos(q[0]!)),
    gradV(out, q) {
      out[0] = w2 * Math.sin(q[0]!);
      return out;
    },
    hessV(out, q) {
      out[0] = w2 * Math.cos(q[0]!);
      return out;
    },
  };
}

/**
 * The contact Hamiltonian of a mechanical contact Lagrangian, `H(q, p, z, t) = ½|p|² + V(q, t) − γ z`
 * (the Legendre transform `H = p·v − L` with `p = v`; spec 004 §4.2).
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * contactHamiltonian(lag, Float64Array.of(1), Float64Array.of(2), 3); // 2 + 0.5 + 0.15 = 2.65
 * ```
 */
export function contactHamiltonian(
  lagrangian: MechanicalContactLagrangian,
  q: Float64Array,
  p: Float64Array,
  z: number,
  t = 0,
): number {
  const n = lagrangian.potential.dim;
  let kinetic = 0;
  for (let i = 0; i < n; i++) kinetic += p[i]! * p[i]!;
  return 0.5 * kinetic + lagrangian.potential.V(q, t) - lagrangian.gamma * z;
}

/**
 * The mechanical contact Hamiltonian `H(q, p, z, t) = ½|p|² + V(q, t) − γ z` as a
 * {@link ContactHamiltonian} with analytic derivatives `∂H/∂q = ∇V`, `∂H/∂p = p`, `∂H/∂z = −γ`,
 * for `contactHamiltonianVectorField` (spec 004 §4.1 [D]: then `dH/dt = γH` for autonomous V,
 * eq. (11)).
 *
 * @example
 * ```ts
 * const H = mechanicalContactHamiltonian(mechanicalContactLagrangian(quadraticPotential(1), -0.05));
 * H.dHdz(Float64Array.of(1), Float64Array.of(2), 3); // 0.05
 * ```
 */
export function mechanicalContactHamiltonian(
  lagrangian: MechanicalContactLagrangian,
): ContactHamiltonian {
  const n = lagrangian.potential.dim;
  const { potential, gamma } = lagrangian;
  return {
    n,
    H: (q, p, z, t = 0) => contactHamiltonian(lagrangian, q, p, z, t),
    dHdq(out, q, _p, _z, t = 0) {
      return potential.gradV(out, q, t);
    },
    dHdp(out, _q, p) {
      for (let i = 0; i < n; i++) out[i] = p[i]!;
      return out;
    },
    dHdz: () => -gamma,
  };
}
