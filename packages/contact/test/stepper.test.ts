/**
 * The contact integrators as core Steppers (stepper.ts): the run through core's `integrate`, the
 * one `Solution` (series, 'leaving' σ, t0, every, stats, partial runs), the method traits, and
 * time-dependent Lagrangians through the library (quadrature times of each rule, measured orders).
 */
import {
  DomainError,
  integrate,
  integrateDopri5,
  NonFiniteError,
  type Potential,
  PROGRESS_INTERVAL_STEPS,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  implicitZMidpointLd,
  leftRectangleLd,
  mechanicalMidpointLd,
  midpointLd,
} from '../src/discrete.js';
import { ContactIntegrator, contactMethodTraits, integrateContact } from '../src/integrator.js';
import { contactLagrangian, herglotzVectorField } from '../src/lagrangian.js';
import { mechanicalContactLagrangian, pendulumPotential } from '../src/mechanical.js';
import { MidpointHerglotz, midpointHerglotzMethod } from '../src/midpoint.js';
import { numericExactLd } from '../src/shooting.js';
import type { ContactLagrangian } from '../src/types.js';
import { maxAbsDiff, zDependentLagrangian } from './integratorFixtures.js';

const pendulum = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);

describe('a contact integrator is a core Stepper', () => {
  it('[S] core integrate(stepper, initialState(init), { h, steps }) is integrate(init, steps), bit for bit', () => {
    for (const stepper of [
      new MidpointHerglotz(pendulum, 0.1),
      new ContactIntegrator(midpointLd(zDependentLagrangian(), 0.1), {
        lagrangian: zDependentLagrangian(),
      }),
    ]) {
      for (const init of [
        { q0: [0.7], q1: [0.74], z0: 0.2 },
        { q0: [0.7], v0: [0.4], z0: 0.2 },
      ]) {
        const a = stepper.integrate(init, 50, { every: 4 });
        const b = integrate(stepper, stepper.initialState(init), {
          h: stepper.h,
          steps: 50,
          every: 4,
        });
        for (const key of ['t', 'k', 'q', 'p', 'z', 'energy', 'sigma'] as const) {
          expect(Array.from(b[key])).toEqual(Array.from(a[key]));
        }
        expect(b.stats).toEqual(a.stats);
      }
    }
  });

  it('[S] a run with another h than the discrete Lagrangian’s is refused (DomainError)', () => {
    const it = new MidpointHerglotz(pendulum, 0.1);
    expect(() =>
      integrate(it, it.initialState({ q0: [1], v0: [0], z0: 0 }), { h: 0.2, steps: 3 }),
    ).toThrow(DomainError);
  });

  it('[S] series, widths and times: t_k = t0 + k·h, every K-th state and the last', () => {
    const sol = new MidpointHerglotz(pendulum, 0.1).integrate({ q0: [1], v0: [0], z0: 0 }, 23, {
      every: 5,
      t0: 2,
    });
    expect(sol.series.map((s) => [s.name, s.width, s.timing])).toEqual([
      ['q', 1, 'state'],
      ['p', 1, 'state'],
      ['z', 1, 'state'],
      ['energy', 1, 'state'],
      ['sigma', 1, 'leaving'],
    ]);
    expect(Array.from(sol.k)).toEqual([0, 5, 10, 15, 20, 23]);
    expect(Array.from(sol.t)).toEqual([0, 5, 10, 15, 20, 23].map((k) => 2 + k * 0.1));
    expect(sol.steps).toBe(23);
    expect(sol.h).toBe(0.1);
    expect(sol.method.name).toBe('midpoint');
    expect(sol.ok).toBe(true);
  });

  it('[S] σ is the factor of the step leaving each kept state; for the last one the next step is peeked', () => {
    const L = zDependentLagrangian();
    const Ld = midpointLd(L, 0.3);
    const init = { q0: [0.7], v0: [0.4], z0: 0.2 };
    const sol = new ContactIntegrator(Ld).integrate(init, 12, { every: 4 });
    const longer = new ContactIntegrator(Ld).integrate(init, 13);
    for (let j = 0; j < sol.count; j++) {
      const k = sol.k[j]!;
      const sigma =
        1 + Ld.Dz(longer.q.subarray(k, k + 1), longer.q.subarray(k + 1, k + 2), longer.z[k]!);
      expect(Math.abs(sol.sigma[j]! - sigma)).toBeLessThan(1e-14);
    }
    // the peek leaves the diagnostics alone: the Newton statistics are those of 12 steps
    const twelve = new ContactIntegrator(Ld).integrate(init, 12);
    expect(sol.stats).toEqual(twelve.stats);
    // a two-point start with no step: σ0 = 1 + D_z L_d(q0, q1, z0)
    const none = new ContactIntegrator(Ld).integrate({ q0: [0.7], q1: [0.8], z0: 0.2 }, 0);
    expect(none.count).toBe(1);
    expect(none.sigma[0]).toBe(1 + Ld.Dz(Float64Array.of(0.7), Float64Array.of(0.8), 0.2));
  });

  it("[S] onFailure: 'return' keeps the states before a failed step and names it; 'throw' rethrows", () => {
    // V is NaN beyond q = 1.5: the free flight from (0, 1) reaches it after a few steps
    const blowUp: Potential = {
      dim: 1,
      V: (q) => (q[0]! > 1.5 ? Number.NaN : 0),
      gradV: (out) => {
        out[0] = 0;
        return out;
      },
    };
    const integrator = new ContactIntegrator(mechanicalMidpointLd(blowUp, -0.1, 0.5));
    const init = { q0: [0], q1: [0.3], z0: 0 };
    expect(() => integrator.integrate(init, 20)).toThrow(NonFiniteError);
    const sol = integrator.integrate(init, 20, { onFailure: 'return' });
    expect(sol.ok).toBe(false);
    expect(sol.failure?.error).toBeInstanceOf(NonFiniteError);
    const k = sol.failure!.step;
    expect(k).toBeGreaterThan(1);
    expect(sol.steps).toBe(k);
    expect(sol.k[sol.count - 1]).toBe(k); // the last good state
    expect(Number.isFinite(sol.last('z')[0]!)).toBe(true);
    expect(sol.last('q')[0]!).toBeGreaterThan(1); // the free flight moved on until its midpoint passed 1.5
    expect(Number.isNaN(sol.sigma[sol.count - 1]!)).toBe(true); // no step leaves it
  });

  it('[S] progress every 4096 steps; stepHamiltonian equals step on the flat state', () => {
    const calls: number[] = [];
    const it = new MidpointHerglotz(pendulum, 0.01);
    it.integrate({ q0: [1], v0: [0], z0: 0 }, 2 * PROGRESS_INTERVAL_STEPS + 5, {
      every: 1000,
      onProgress: (done) => calls.push(done),
    });
    expect(calls).toEqual([PROGRESS_INTERVAL_STEPS, 2 * PROGRESS_INTERVAL_STEPS]);
    const q = Float64Array.of(1.2);
    const p = Float64Array.of(-0.3);
    const z = it.stepHamiltonian(q, p, 0.4, 0, 0.5);
    const state = Float64Array.of(1.2, -0.3, 0.4);
    it.reset(state, 0.5, 0.01);
    it.step(state, 0);
    expect(Array.from(state)).toEqual([q[0], p[0], z]);
  });

  it('[S] method traits: the CLI names, orders and the structural claims', () => {
    const L = zDependentLagrangian();
    expect(midpointHerglotzMethod).toMatchObject({
      name: 'midpoint',
      order: 1,
      isExplicit: false,
      isSymplectic: true,
      isSymmetric: false,
      isVariational: true,
    });
    expect(contactMethodTraits(midpointLd(L, 0.1))).toMatchObject({ name: 'midpoint', order: 1 });
    expect(contactMethodTraits(leftRectangleLd(L, 0.1)).name).toBe('left-rectangle');
    const iz = contactMethodTraits(implicitZMidpointLd(L, 0.1));
    expect(iz).toMatchObject({ name: 'implicit-z-midpoint', order: 2 });
    expect(iz.isSymmetric).toBeUndefined(); // even order: not claimed either way
    expect(contactMethodTraits(numericExactLd(pendulum, 0.1))).toMatchObject({
      name: 'exact',
      isSymmetric: true,
    });
  });

  it('[S] integrateContact(problem, method) returns the one Solution (its TSDoc example)', () => {
    const L = contactLagrangian({
      n: 1,
      L: (o, [q], [v], z) =>
        o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.scale(o.mul(q!, q!), 0.5)), o.scale(z, -0.05)),
    });
    const sol = integrateContact(
      { lagrangian: L, init: { q0: [1], v0: [0], z0: 0 }, h: 0.1, steps: 100 },
      midpointLd,
    );
    expect(sol.count).toBe(101);
    // H decays like e^{γt} (spec 004 §4.1): 0.5 e^{−0.5} = 0.30327 (measured 0.30330)
    expect(sol.energy[0]).toBe(0.5);
    expect(Math.abs(sol.energy[100]! - 0.5 * Math.exp(-0.5))).toBeLessThan(1e-4);
  });
});

describe('time-dependent contact Lagrangians through the library', () => {
  // the forced damped oscillator L = ½v² − ½q² + F q cos(ωt) + γz: q̈ = −q + F cos(ωt) + γq̇, ż = L
  const [F, w, gamma] = [0.8, 2.3, -0.5];
  const forced: ContactLagrangian = {
    n: 1,
    L: (q, v, z, t = 0) =>
      0.5 * v[0]! ** 2 - 0.5 * q[0]! ** 2 + F * q[0]! * Math.cos(w * t) + gamma * z,
    Lq(out, q, _v, _z, t = 0) {
      out[0] = -q[0]! + F * Math.cos(w * t);
      return out;
    },
    Lv(out, _q, v) {
      out[0] = v[0]!;
      return out;
    },
    Lz: () => gamma,
    Lqq: (out) => out.fill(-1),
    Lvq: (out) => out.fill(0),
    Lvv: (out) => out.fill(1),
    Lqz: (out) => out.fill(0),
    Lvz: (out) => out.fill(0),
    Lzz: () => 0,
  };
  const forcedPotential: Potential = {
    dim: 1,
    V: (q, t = 0) => 0.5 * q[0]! ** 2 - F * q[0]! * Math.cos(w * t),
    gradV(out, q, t = 0) {
      out[0] = q[0]! - F * Math.cos(w * t);
      return out;
    },
    hessV: (out) => out.fill(1),
  };
  const T = 2;
  const init = { q0: [1], v0: [0.2], z0: 0 };
  const reference = (() => {
    const sol = integrateDopri5(herglotzVectorField(forced), [1, 0.2, 0], 0, T, {
      rtol: 1e-13,
      atol: 1e-15,
    });
    return sol.sample('y', sol.count - 1); // (q, v = p, z) at T
  })();
  const error = (sol: { last(name: 'q' | 'p' | 'z'): Float64Array }) =>
    Math.max(
      Math.abs(sol.last('q')[0]! - reference[0]!),
      Math.abs(sol.last('p')[0]! - reference[1]!),
      Math.abs(sol.last('z')[0]! - reference[2]!),
    );
  const hs = [0.1, 0.05, 0.025, 0.0125];
  const slope = (errors: number[]) => {
    const x = hs.map(Math.log);
    const y = errors.map(Math.log);
    const mx = x.reduce((a, b) => a + b) / x.length;
    const my = y.reduce((a, b) => a + b) / y.length;
    let sxy = 0;
    let sxx = 0;
    x.forEach((xi, i) => {
      sxy += (xi - mx) * (y[i]! - my);
      sxx += (xi - mx) ** 2;
    });
    return sxy / sxx;
  };

  it('[S] orders against DOPRI5 on (19): midpoint 1, left rectangle 1, implicit-z midpoint 2', () => {
    const order = (make: (L: ContactLagrangian, h: number) => ReturnType<typeof midpointLd>) =>
      slope(
        hs.map((h) =>
          error(new ContactIntegrator(make(forced, h)).integrate(init, Math.round(T / h))),
        ),
      );
    // measured 1.01, 1.02 and 2.00
    expect(Math.abs(order(midpointLd) - 1)).toBeLessThan(0.15);
    expect(Math.abs(order(leftRectangleLd) - 1)).toBeLessThan(0.15);
    expect(Math.abs(order(implicitZMidpointLd) - 2)).toBeLessThan(0.15);
  });

  it('[S] MidpointHerglotz with V(q, t) equals ContactIntegrator with midpointLd (1e-13), and has order 1', () => {
    const lag = mechanicalContactLagrangian(forcedPotential, gamma);
    for (const start of [init, { q0: [1], q1: [1.02], z0: 0 }]) {
      const a = new MidpointHerglotz(lag, 0.05).integrate(start, 40, { t0: 0.3 });
      const b = new ContactIntegrator(midpointLd(lag, 0.05), { lagrangian: lag }).integrate(
        start,
        40,
        {
          t0: 0.3,
        },
      );
      const c = new ContactIntegrator(midpointLd(forced, 0.05), { lagrangian: forced }).integrate(
        start,
        40,
        { t0: 0.3 },
      );
      for (const key of ['q', 'p', 'z', 'energy', 'sigma'] as const) {
        expect(maxAbsDiff(a[key], b[key]), key).toBeLessThan(1e-13); // measured ≤ 1e-15
        expect(maxAbsDiff(a[key], c[key]), key).toBeLessThan(1e-13);
      }
    }
    const errors = hs.map((h) =>
      error(new MidpointHerglotz(lag, h).integrate(init, Math.round(T / h))),
    );
    expect(Math.abs(slope(errors) - 1)).toBeLessThan(0.15); // measured 1.01
  });

  it('[S] numericExactLd integrates L along each step [t_k, t_k + h]: its flow samples (19) (1e-9)', () => {
    const sol = new ContactIntegrator(numericExactLd(forced, 0.25), {
      lagrangian: forced,
    }).integrate(init, 8);
    // measured 1e-12; the midpoint rule is off by 5e-2 here
    expect(error(sol)).toBeLessThan(1e-9);
    expect(
      error(new ContactIntegrator(midpointLd(forced, 0.25)).integrate(init, 8)),
    ).toBeGreaterThan(1e-3);
  });
});
