// ContactIntegrator's dedicated step kernels (src/kernels.ts: the exact damped-oscillator L_d and
// the implicit-z midpoint of a mechanical L, n = 1) against the generic path on the same discrete
// Lagrangian behind an opaque wrapper (not registered, so it runs the closures and core's
// NewtonSolver): every state, σ, Newton count and residual must agree bit for bit, and every
// failure must throw the same error with the same message, leaving the state untouched.
import {
  type Force,
  GeomechError,
  NewtonDivergedError,
  NonFiniteError,
  type Potential,
} from '@geomech/core';
import { rng } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { implicitZMidpointLd } from '../src/discrete.js';
import { dampedOscillatorExactLd } from '../src/exact.js';
import { ContactIntegrator, type ContactIntegratorOptions } from '../src/integrator.js';
import { SOLVES_BY_SOLVE_SCALAR } from '../src/internal.js';
import {
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
} from '../src/mechanical.js';
import { RegularityError } from '../src/regularity.js';
import type { DiscreteContactLagrangian } from '../src/types.js';

/** The same discrete Lagrangian through closures the integrator does not recognize. */
function opaque(Ld: DiscreteContactLagrangian): DiscreteContactLagrangian {
  const w: DiscreteContactLagrangian = {
    name: Ld.name,
    n: Ld.n,
    h: Ld.h,
    traits: Ld.traits,
    Ld: (q0, q1, z0, t) => Ld.Ld(q0, q1, z0, t),
    D1: (out, q0, q1, z0, t) => Ld.D1(out, q0, q1, z0, t),
    D2: (out, q0, q1, z0, t) => Ld.D2(out, q0, q1, z0, t),
    Dz: (q0, q1, z0, t) => Ld.Dz(q0, q1, z0, t),
    D2D1: (out, q0, q1, z0, t) => Ld.D2D1(out, q0, q1, z0, t),
    D2Dz: (out, q0, q1, z0, t) => Ld.D2Dz(out, q0, q1, z0, t),
  };
  // today's generic path: the implicit-z L_d is stepped by NewtonSolver.solve, not solveScalar
  if (SOLVES_BY_SOLVE_SCALAR.has(Ld)) SOLVES_BY_SOLVE_SCALAR.add(w);
  return w;
}

function usesKernel(it: ContactIntegrator): boolean {
  return (it as unknown as { kernel: unknown }).kernel !== undefined;
}

/** V(q, t) = ½(1 + ½ sin t) q² + q⁴/80, without a Hessian (central differences of ∇V). */
const timeDependent: Potential = {
  dim: 1,
  V: (q, t = 0) => 0.5 * (1 + 0.5 * Math.sin(t)) * q[0]! ** 2 + q[0]! ** 4 / 80,
  gradV(out, q, t = 0) {
    out[0] = (1 + 0.5 * Math.sin(t)) * q[0]! + q[0]! ** 3 / 20;
    return out;
  },
};

const H = 0.05;
const cases: [string, () => DiscreteContactLagrangian][] = [
  ['exact, underdamped k = 2, γ = −0.1', () => dampedOscillatorExactLd(2, -0.1, H)],
  ['exact, overdamped k = 1, γ = −3', () => dampedOscillatorExactLd(1, -3, H)],
  ['exact, critical k = 1, γ = −2', () => dampedOscillatorExactLd(1, -2, H)],
  ['exact, anti-damped k = 4, γ = 0.2', () => dampedOscillatorExactLd(4, 0.2, H)],
  [
    'implicit-z, pendulum γ = −0.3',
    () => implicitZMidpointLd(mechanicalContactLagrangian(pendulumPotential(9.81, 1), -0.3), H),
  ],
  [
    'implicit-z, oscillator γ = −0.1',
    () => implicitZMidpointLd(mechanicalContactLagrangian(quadraticPotential(1), -0.1), H),
  ],
  [
    'implicit-z, time-dependent V without Hessian, γ = −0.2',
    () => implicitZMidpointLd(mechanicalContactLagrangian(timeDependent, -0.2), H),
  ],
  [
    'implicit-z, tol 1e-10 and 3 iterations',
    () =>
      implicitZMidpointLd(mechanicalContactLagrangian(pendulumPotential(1, 1), -0.2), H, {
        tol: 1e-10,
        maxIterations: 3,
      }),
  ],
];

const optionSets: [string, ContactIntegratorOptions][] = [
  ['defaults', {}],
  ['extrapolate, tol 1e-13', { initialGuess: 'extrapolate', tol: 1e-13 }],
  ['tol 1e-8, maxIterations 3', { tol: 1e-8, maxIterations: 3 }],
];

describe('ContactIntegrator step kernels: bit-identical to the generic path', () => {
  for (const [label, make] of cases) {
    for (const [optLabel, options] of optionSets) {
      it(`${label}, ${optLabel}: 20 runs of 150 steps from random states`, () => {
        const Ld = make();
        const fast = new ContactIntegrator(Ld, options);
        const slow = new ContactIntegrator(opaque(Ld), options);
        expect(usesKernel(fast)).toBe(true);
        expect(usesKernel(slow)).toBe(false);
        const r = rng(label.length * 31 + optLabel.length);
        let steps = 0;
        let iterations = 0;
        let mismatches = 0; // counted, not one expect per step (30 000 expects cost seconds)
        for (let run = 0; run < 20; run++) {
          const a = Float64Array.of(4 * r() - 2, 6 * r() - 3, 2 * r() - 1);
          const b = Float64Array.from(a);
          const k0 = Math.floor(100 * r());
          fast.resetDiagnostics();
          slow.resetDiagnostics();
          for (let k = k0; k < k0 + 150; k++) {
            const itsFast = fast.step(a, k, H);
            const itsSlow = slow.step(b, k, H);
            const same =
              itsFast === itsSlow &&
              Object.is(a[0], b[0]) &&
              Object.is(a[1], b[1]) &&
              Object.is(a[2], b[2]) &&
              Object.is(fast.lastSigma, slow.lastSigma) &&
              Object.is(fast.lastResidual, slow.lastResidual) &&
              fast.firstNegativeSigmaStep === slow.firstNegativeSigmaStep;
            if (!same) mismatches++;
            steps++;
            iterations += itsFast;
          }
        }
        expect(mismatches).toBe(0);
        expect(steps).toBe(3000);
        // the Newton iteration really ran (at least one iteration per step on average)
        expect(iterations).toBeGreaterThanOrEqual(steps);
      });
    }
  }

  it('integrate(): the same Solution series, and the same step derivatives after a step', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    for (const Ld of [dampedOscillatorExactLd(1, -0.1, 0.01), implicitZMidpointLd(lag, 0.01)]) {
      const fast = new ContactIntegrator(Ld, { lagrangian: lag });
      const slow = new ContactIntegrator(opaque(Ld), { lagrangian: lag });
      const init = { q0: [1], v0: [0.3], z0: 0.2 };
      const a = fast.integrate(init, 4000, { t0: 1.5 });
      const b = slow.integrate(init, 4000, { t0: 1.5 });
      expect(a.count).toBe(4001);
      for (const name of ['q', 'p', 'z', 'sigma'] as const) {
        const sa = a.series.find((s) => s.name === name)!.data;
        const sb = b.series.find((s) => s.name === name)!.data;
        expect(sa.length).toBe(sb.length);
        let same = 0;
        for (let i = 0; i < sa.length; i++) if (Object.is(sa[i], sb[i])) same++;
        expect(same).toBe(sa.length);
      }
      expect(a.stats.newtonIterations).toBe(b.stats.newtonIterations);
      const Da = new Float64Array(9);
      const Db = new Float64Array(9);
      fast.stepDerivatives(Da, new Float64Array(0));
      slow.stepDerivatives(Db, new Float64Array(0));
      expect(Array.from(Da)).toEqual(Array.from(Db));
    }
  });

  it('a user’s L_d and the cases the kernels do not cover run the generic path', () => {
    const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.1);
    expect(usesKernel(new ContactIntegrator(opaque(dampedOscillatorExactLd(1, -0.1, H))))).toBe(
      false,
    );
    expect(usesKernel(new ContactIntegrator(dampedOscillatorExactLd(1, -0.1, H, 2)))).toBe(false);
    expect(
      usesKernel(new ContactIntegrator(dampedOscillatorExactLd(1, -0.1, H), { lineSearch: true })),
    ).toBe(false);
    const force: Force = {
      n: 1,
      m: 1,
      F: (out, _t, _q, _v, u) => {
        out[0] = u[0]!;
        return out;
      },
    };
    expect(usesKernel(new ContactIntegrator(implicitZMidpointLd(lag, H), { force }))).toBe(false);
    // a Lagrangian with `potential` and `gamma` fields that is not the package's mechanical one
    const lookalike = { ...lag, n: 1, potential: lag.potential, gamma: lag.gamma };
    expect(usesKernel(new ContactIntegrator(implicitZMidpointLd(lookalike, H)))).toBe(false);
  });
});

describe('ContactIntegrator step kernels: failures throw the generic errors', () => {
  function sameFailure(Ld: DiscreteContactLagrangian, state: number[], options = {}) {
    const fast = new ContactIntegrator(Ld, options);
    const slow = new ContactIntegrator(opaque(Ld), options);
    expect(usesKernel(fast)).toBe(true);
    const a = Float64Array.from(state);
    const b = Float64Array.from(state);
    let ea: unknown;
    let eb: unknown;
    try {
      fast.step(a, 7, Ld.h);
    } catch (e) {
      ea = e;
    }
    try {
      slow.step(b, 7, Ld.h);
    } catch (e) {
      eb = e;
    }
    expect(ea).toBeInstanceOf(Error);
    expect((ea as Error).constructor).toBe((eb as Error).constructor);
    expect((ea as Error).message).toBe((eb as Error).message);
    expect(Array.from(a)).toEqual(state);
    return ea as Error;
  }

  it('non-finite state: NonFiniteError', () => {
    const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.1);
    for (const Ld of [dampedOscillatorExactLd(1, -0.1, H), implicitZMidpointLd(lag, H)]) {
      expect(sameFailure(Ld, [Number.NaN, 0, 0])).toBeInstanceOf(GeomechError);
      expect(sameFailure(Ld, [1, Number.POSITIVE_INFINITY, 0])).toBeInstanceOf(GeomechError);
      expect(sameFailure(Ld, [1, 0, Number.NaN])).toBeInstanceOf(NonFiniteError);
    }
  });

  it('Newton out of iterations: NewtonDivergedError', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    // one iteration, a residual tolerance of 0 and no step test from a far guess
    const e = sameFailure(implicitZMidpointLd(lag, H), [2.5, 40, 0], { tol: 0, maxIterations: 1 });
    expect(e).toBeInstanceOf(NewtonDivergedError);
  });

  it('σ = 0 (hγ = −2): RegularityError; c = 0 (hγ = 2): the L_d’s SingularJacobianError', () => {
    const vanishing = mechanicalContactLagrangian(quadraticPotential(1), -2 / H);
    expect(sameFailure(implicitZMidpointLd(vanishing, H), [1, 0, 0])).toBeInstanceOf(
      RegularityError,
    );
    const singular = mechanicalContactLagrangian(quadraticPotential(1), 2 / H);
    expect(sameFailure(implicitZMidpointLd(singular, H), [1, 0, 0]).name).toBe(
      'SingularJacobianError',
    );
  });
});
