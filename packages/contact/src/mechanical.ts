/**
 * Mechanical contact Lagrangians `L(q, v, z) = ½|v|² − V(q) + γ z` on Rⁿ (spec 004 §7.2), the
 * class of the paper's examples. Damping uses the paper's sign: γ < 0 dissipates (spec 004 §3).
 *
 * @module
 */
import { DimensionError, DomainError } from '@geomech/core';

/** A potential V: Rⁿ → R with its gradient and (optionally) its Hessian, all writing into `out`. */
export interface Potential {
  /** Dimension n of the configuration space. */
  readonly dim: number;
  value(q: Float64Array): number;
  /** out ← ∇V(q). */
  gradient(out: Float64Array, q: Float64Array): void;
  /** out ← ∇²V(q), row-major n×n. When absent, integrators difference the gradient. */
  hessian?(out: Float64Array, q: Float64Array): void;
}

/** `L(q, v, z) = ½|v|² − V(q) + γ z`, with γ < 0 for dissipation (the paper's convention). */
export interface MechanicalContactLagrangian {
  readonly potential: Potential;
  readonly gamma: number;
}

/** Builds a {@link MechanicalContactLagrangian}, validating γ. */
export function mechanicalContactLagrangian(
  potential: Potential,
  gamma: number,
): MechanicalContactLagrangian {
  if (!Number.isFinite(gamma))
    throw new DomainError('mechanicalContactLagrangian: gamma', gamma, 'must be finite');
  if (!Number.isInteger(potential.dim) || potential.dim < 1) {
    throw new DimensionError('mechanicalContactLagrangian: potential.dim', '>= 1', potential.dim);
  }
  return { potential, gamma };
}

/** V ≡ 0 on Rⁿ (the free particle, spec 004 §8.1). */
export function zeroPotential(dim = 1): Potential {
  return {
    dim,
    value: () => 0,
    gradient: (out) => out.fill(0),
    hessian: (out) => out.fill(0),
  };
}

/** V(q) = ½ k |q|² on Rⁿ (the harmonic oscillator, spec 004 §8.2 with k = 1). */
export function quadraticPotential(k: number, dim = 1): Potential {
  if (!Number.isFinite(k)) throw new DomainError('quadraticPotential: k', k, 'must be finite');
  return {
    dim,
    value(q) {
      let s = 0;
      for (let i = 0; i < dim; i++) s += q[i]! * q[i]!;
      return 0.5 * k * s;
    },
    gradient(out, q) {
      for (let i = 0; i < dim; i++) out[i] = k * q[i]!;
    },
    hessian(out) {
      out.fill(0);
      for (let i = 0; i < dim; i++) out[i * dim + i] = k;
    },
  };
}

/** V(q) = (g/l)(1 − cos q) on R (the pendulum, CLI contract `damped-pendulum`). */
export function pendulumPotential(g: number, l: number): Potential {
  if (!(l > 0)) throw new DomainError('pendulumPotential: l', l, 'must be > 0');
  const w2 = g / l;
  return {
    dim: 1,
    value: (q) => w2 * (1 - Math.cos(q[0]!)),
    gradient(out, q) {
      out[0] = w2 * Math.sin(q[0]!);
    },
    hessian(out, q) {
      out[0] = w2 * Math.cos(q[0]!);
    },
  };
}

/**
 * The contact Hamiltonian of a mechanical contact Lagrangian, `H(q, p, z) = ½|p|² + V(q) − γ z`
 * (the Legendre transform `H = p·v − L` with `p = v`; spec 004 §4.2).
 */
export function contactHamiltonian(
  lagrangian: MechanicalContactLagrangian,
  q: Float64Array,
  p: Float64Array,
  z: number,
): number {
  const n = lagrangian.potential.dim;
  let kinetic = 0;
  for (let i = 0; i < n; i++) kinetic += p[i]! * p[i]!;
  return 0.5 * kinetic + lagrangian.potential.value(q) - lagrangian.gamma * z;
}
