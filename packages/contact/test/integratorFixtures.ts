/**
 * Shared fixtures of the discrete-mechanics and integrator tests (spec 004): closed-form exact
 * solutions of the paper's two examples, the z-dependent nonlinear Lagrangian of spec 004 §5.5, the
 * 2-D central potential of §5.6 and small custom discrete Lagrangians.
 */

import type { Potential } from '@geomech/core';
import { contactLagrangian } from '../src/lagrangian.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from '../src/types.js';

/** Parameters of the z-dependent Lagrangian of spec 004 §5.5 [D]. */
export const Z_DEPENDENT = { gamma: -0.2, alpha: 0.3, eps: 0.15 } as const;

/**
 * L = v²/2 − (1 − cos q) + γz − αz²/2 + ε z v (spec 004 §5.5, §9.5): nonlinear, z-dependent, with
 * ∂(D_z L_d)/∂q1 ≠ 0 for the midpoint rule, so σ varies from step to step.
 */
export function zDependentLagrangian(
  gamma: number = Z_DEPENDENT.gamma,
  alpha: number = Z_DEPENDENT.alpha,
  eps: number = Z_DEPENDENT.eps,
): ContactLagrangian {
  return contactLagrangian({
    n: 1,
    L: (o, [q], [v], z) =>
      o.add(
        o.sub(o.scale(o.mul(v!, v!), 0.5), o.sub(o.const(1), o.cos(q!))),
        o.add(
          o.scale(z, gamma),
          o.add(o.scale(o.mul(z, z), -alpha / 2), o.scale(o.mul(z, v!), eps)),
        ),
      ),
  });
}

/** Its contact Hamiltonian [D]: p = v + εz, H = p·v − L = ½(p − εz)² + (1 − cos q) − γz + αz²/2. */
export function zDependentHamiltonian(q: number, p: number, z: number): number {
  const { gamma, alpha, eps } = Z_DEPENDENT;
  const v = p - eps * z;
  return 0.5 * v * v + (1 - Math.cos(q)) - gamma * z + 0.5 * alpha * z * z;
}

/** A closed-form solution t ↦ (q, p, z) of a 1-D example. */
export interface ExactSolution {
  q(t: number): number;
  /** p = q̇ (mechanical Legendre map). */
  p(t: number): number;
  z(t: number): number;
  readonly v0: number;
}

/**
 * The underdamped oscillator L = ½v² − (k/2)q² + γz from (q0, v0, z0) (spec 004 §8.2 [D]):
 * q = e^{γt/2}(a cos wt + b sin wt), w = √(k − γ²/4), a = q0, b = (v0 − γq0/2)/w, and, from
 * (e^{−γt} z)′ = e^{−γt}(½q̇² − (k/2)q²) = c1 cos 2wt + c2 sin 2wt (the constant term cancels),
 *
 *   z(t) = e^{γt}( z0 + c1 sin(2wt)/(2w) + c2 (1 − cos 2wt)/(2w) ),
 *   c1 = −w²(a² − b²)/2 + (γw/2) ab,   c2 = −w² ab − (γw/4)(a² − b²).
 *
 * Checked against a 40-digit ODE solve (mpmath) to 1e-40.
 */
export function dampedOscillatorSolution(
  k: number,
  gamma: number,
  q0: number,
  v0: number,
  z0: number,
): ExactSolution {
  const w = Math.sqrt(k - (gamma * gamma) / 4);
  const a = q0;
  const b = (v0 - (gamma * q0) / 2) / w;
  const c1 = (-w * w * (a * a - b * b)) / 2 + ((gamma * w) / 2) * a * b;
  const c2 = -w * w * a * b - ((gamma * w) / 4) * (a * a - b * b);
  return {
    v0,
    q: (t) => Math.exp((gamma * t) / 2) * (a * Math.cos(w * t) + b * Math.sin(w * t)),
    p: (t) => {
      const c = Math.cos(w * t);
      const s = Math.sin(w * t);
      return Math.exp((gamma * t) / 2) * (w * (-a * s + b * c) + (gamma / 2) * (a * c + b * s));
    },
    z: (t) =>
      Math.exp(gamma * t) *
      (z0 + (c1 * Math.sin(2 * w * t)) / (2 * w) + (c2 * (1 - Math.cos(2 * w * t))) / (2 * w)),
  };
}

/** The oscillator solution through q(0) = q0, q(h) = q1, z(0) = z0 (spec 004 §8.2: B, v0 = wB + γq0/2). */
export function dampedOscillatorThrough(
  k: number,
  gamma: number,
  h: number,
  q0: number,
  q1: number,
  z0: number,
): ExactSolution {
  const w = Math.sqrt(k - (gamma * gamma) / 4);
  const B = (q1 * Math.exp((-gamma * h) / 2) - q0 * Math.cos(w * h)) / Math.sin(w * h);
  return dampedOscillatorSolution(k, gamma, q0, w * B + (gamma * q0) / 2, z0);
}

/**
 * The free particle L = ½v² + γz through q(0) = q0, q(h) = q1, z(0) = z0 (spec 004 §8.1 [D]):
 * v0 = γ(q1 − q0)/(e^{γh} − 1), q = q0 + v0(e^{γt} − 1)/γ, p = v0 e^{γt},
 * z = e^{γt}(z0 + v0²(e^{γt} − 1)/(2γ)).
 */
export function freeParticleThrough(
  gamma: number,
  h: number,
  q0: number,
  q1: number,
  z0: number,
): ExactSolution {
  const v0 = (gamma * (q1 - q0)) / Math.expm1(gamma * h);
  return {
    v0,
    q: (t) => q0 + (v0 * Math.expm1(gamma * t)) / gamma,
    p: (t) => v0 * Math.exp(gamma * t),
    z: (t) => Math.exp(gamma * t) * (z0 + (v0 * v0 * Math.expm1(gamma * t)) / (2 * gamma)),
  };
}

/**
 * The rotationally invariant 2-D potential of spec 004 §5.6 [D]: V(q) = |q|⁴/8 − 1/√(1 + |q|²),
 * ∇V = (|q|²/2 + (1 + |q|²)^{−3/2}) q.
 */
export const centralPotential: Potential = {
  dim: 2,
  V(q) {
    const r2 = q[0]! * q[0]! + q[1]! * q[1]!;
    return (r2 * r2) / 8 - 1 / Math.sqrt(1 + r2);
  },
  gradV(out, q) {
    const r2 = q[0]! * q[0]! + q[1]! * q[1]!;
    const c = r2 / 2 + (1 + r2) ** -1.5;
    out[0] = c * q[0]!;
    out[1] = c * q[1]!;
    return out;
  },
  hessV(out, q) {
    // ∇²V = c I + c′(r²)·2 q qᵀ, c(r²) = r²/2 + (1 + r²)^{−3/2}, c′ = 1/2 − (3/2)(1 + r²)^{−5/2}
    const r2 = q[0]! * q[0]! + q[1]! * q[1]!;
    const c = r2 / 2 + (1 + r2) ** -1.5;
    const dc = 0.5 - 1.5 * (1 + r2) ** -2.5;
    out[0] = c + 2 * dc * q[0]! * q[0]!;
    out[1] = 2 * dc * q[0]! * q[1]!;
    out[2] = out[1]!;
    out[3] = c + 2 * dc * q[1]! * q[1]!;
    return out;
  },
};

/** ξ_Q(q) = [[0, −1], [1, 0]] q, the generator of rotations of R². */
export function rotationGenerator(out: Float64Array, q: Float64Array): void {
  const x = q[0]!;
  out[0] = -q[1]!;
  out[1] = x;
}

/**
 * A free particle with a constant z-coefficient, L_d = |q1 − q0|²/(2h) + c z0 on R¹: σ = 1 + c,
 * for the regularity guard and the σ < 0 warning (c < −1 gives σ < 0).
 */
export function constantSigmaLd(c: number, h: number): DiscreteContactLagrangian {
  return {
    name: 'constant-sigma',
    n: 1,
    h,
    traits: {},
    Ld: (q0, q1, z0) => (q1[0]! - q0[0]!) ** 2 / (2 * h) + c * z0,
    D1: (out, q0, q1) => {
      out[0] = -(q1[0]! - q0[0]!) / h;
      return out;
    },
    D2: (out, q0, q1) => {
      out[0] = (q1[0]! - q0[0]!) / h;
      return out;
    },
    Dz: () => c,
    D2D1: (out) => {
      out[0] = -1 / h;
      return out;
    },
    D2Dz: (out) => {
      out[0] = 0;
      return out;
    },
  };
}

/** Max |a_i − b_i|. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

/**
 * The nonlinear, z-dependent L = v²/2 − (1 − cos q) + γz − αz²/2 + εzv of spec 004 §5.5
 * with analytic derivatives (the fixture above takes them from dual numbers): L_z and L_v depend on the
 * state, so σ_d is not constant.
 */
export function zDependentLagrangianAnalytic(
  gamma: number = Z_DEPENDENT.gamma,
  alpha: number = Z_DEPENDENT.alpha,
  eps: number = Z_DEPENDENT.eps,
): ContactLagrangian {
  return {
    n: 1,
    L: (q, v, z) =>
      0.5 * v[0]! ** 2 - (1 - Math.cos(q[0]!)) + gamma * z - 0.5 * alpha * z * z + eps * z * v[0]!,
    Lq(out, q) {
      out[0] = -Math.sin(q[0]!);
      return out;
    },
    Lv(out, _q, v, z) {
      out[0] = v[0]! + eps * z;
      return out;
    },
    Lz: (_q, v, z) => gamma - alpha * z + eps * v[0]!,
    Lqq(out, q) {
      out[0] = -Math.cos(q[0]!);
      return out;
    },
    Lvq: (out) => out.fill(0),
    Lvv: (out) => out.fill(1),
    Lqz: (out) => out.fill(0),
    Lvz: (out) => out.fill(eps),
    Lzz: () => -alpha,
  };
}
