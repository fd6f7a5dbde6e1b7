import { type Force, integrateDopri5 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { indexReducedRhs, integrateConstrained, RattleStepper } from '../src/comparators.js';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import { pendulum } from '../src/holonomicModels.js';
import { MassMatrixKinetics } from '../src/massMatrix.js';

import {
  angles,
  cartesian,
  dampedErrors,
  g,
  l,
  mass,
  ph0,
  phd0,
  q0,
  spherical,
  th0,
  thd0,
  toCartesian,
  v0,
  x0,
  xd0,
} from './massMatrixFixtures.js';
import { symplecticDefect } from './support/symplectic.js';

describe('MassMatrixKinetics: g(q, v) = ½∇_q(vᵀM(q)v) from κ by polarization', () => {
  it('equals the analytic gradient (1e-13) and its ∂g/∂v the central differences (1e-8)', () => {
    const poly = new MassMatrixKinetics(spherical(false), 'test');
    const exact = new MassMatrixKinetics(spherical(true), 'test');
    const a = new Float64Array(3);
    const b = new Float64Array(3);
    const points = [
      [0.7, 0.9, 0.2, 0.1, -0.4, 1.7],
      [1.3, 2.5, -1.0, -2.0, 0.3, 0.05],
    ];
    for (const p of points) {
      const q = Float64Array.from(p.slice(0, 3));
      const v = Float64Array.from(p.slice(3));
      poly.gradient(a, q, v);
      exact.gradient(b, q, v);
      for (let i = 0; i < 3; i++)
        expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-13 * (1 + Math.abs(b[i]!)));
      expect(Math.abs(b[0]!) + Math.abs(b[1]!)).toBeGreaterThan(0.1);
      // ∂g/∂v against central differences of g
      const Jg = new Float64Array(9);
      poly.gradientJacobian(Jg, q, v);
      const e = 1e-6;
      for (let l2 = 0; l2 < 3; l2++) {
        const vp = Float64Array.from(v);
        const vm = Float64Array.from(v);
        vp[l2] = vp[l2]! + e;
        vm[l2] = vm[l2]! - e;
        exact.gradient(a, q, vp);
        exact.gradient(b, q, vm);
        for (let i = 0; i < 3; i++)
          expect(Math.abs(Jg[i * 3 + l2]! - (a[i]! - b[i]!) / (2 * e))).toBeLessThan(1e-8);
      }
    }
  });
});

describe('RATTLE with M(q) (generalized RATTLE, HLW VII.1.4): spherical pendulum in (r, θ, φ)', () => {
  const T = 1;
  const opts = { rtol: 1e-12, atol: 1e-14 };
  const ref = integrateDopri5(indexReducedRhs(cartesian), [...x0, ...xd0], 0, T, opts);
  const xRef = ref.sample('y', ref.count - 1);
  const err = (h: number, sys: ConstrainedMechanicalSystem): number => {
    const sol = integrateConstrained(sys, 'rattle', { q0, v0 }, h, Math.round(T / h), {
      every: Math.round(T / h),
    });
    const x = toCartesian(sol.last('q'));
    return Math.max(...x.map((xi, i) => Math.abs(xi - xRef[i]!)));
  };
  it('converges with order 2 to the DOPRI5 reference of the Cartesian system', () => {
    const hs = [0.02, 0.01, 0.005];
    const e = hs.map((h) => err(h, spherical(false)));
    const orders = [Math.log2(e[0]! / e[1]!), Math.log2(e[1]! / e[2]!)];
    for (const p of orders) {
      expect(p).toBeGreaterThan(1.9);
      expect(p).toBeLessThan(2.1);
    }
    expect(e[2]!).toBeLessThan(1e-4);
    // the analytic kinetic gradient gives the same steps (to the Newton tolerance)
    expect(Math.abs(err(0.01, spherical(true)) - e[1]!)).toBeLessThan(1e-10);
  });
  it('keeps φ(q) = r² − l² and the hidden constraint ṙ = 0 to round-off, p_φ exactly, energy bounded', () => {
    const h = 0.01;
    const sol = integrateConstrained(spherical(false), 'rattle', { q0, v0 }, h, 5000, {
      every: 50,
    });
    let drift = 0;
    let hidden = 0;
    const dE = [0, 0];
    let dPphi = 0;
    for (let j = 0; j < sol.count; j++) {
      drift = Math.max(drift, Math.abs(sol.sample('constraint', j)[0]!));
      hidden = Math.max(hidden, Math.abs(sol.sample('v', j)[0]!));
      const half = 2 * j < sol.count ? 0 : 1;
      dE[half] = Math.max(dE[half]!, Math.abs(sol.energy[j]! - sol.energy[0]!));
      dPphi = Math.max(dPphi, Math.abs(sol.sample('p', j)[2]! - sol.sample('p', 0)[2]!));
    }
    expect(drift).toBeLessThan(1e-14);
    expect(hidden).toBeLessThan(1e-13);
    // p_φ = ∂L/∂φ̇: H does not depend on φ, and g_φ = ∂V/∂φ = 0 in every stage
    expect(dPphi).toBeLessThan(1e-13);
    // O(h²) energy error (relative 2.5e-4 of |E| ≈ 8.6), no drift: the second 25 s stay within
    // the first 25 s' band
    expect(dE[0]!).toBeLessThan(3e-3);
    expect(dE[0]!).toBeGreaterThan(1e-5);
    expect(dE[1]!).toBeLessThan(1.1 * dE[0]!);
  });
  it('is symplectic on the constraint manifold: JᵀΩJ = Ω for the map (θ, φ, p_θ, p_φ) ↦ next', () => {
    const sys = spherical(false);
    const h = 0.1;
    const st = new RattleStepper(sys, { tol: 1e-15 });
    // y = (θ, φ, p_θ, p_φ) on r = l, p_r = 0
    const step = (y: number[]): number[] => {
      const s = Math.sin(y[0]!);
      const z = Float64Array.of(
        l,
        y[0]!,
        y[1]!,
        0,
        y[2]! / (mass * l * l),
        y[3]! / (mass * l * l * s * s),
      );
      st.reset();
      st.step(z, 0, h);
      const s1 = Math.sin(z[1]!);
      return [z[1]!, z[2]!, mass * z[0]! * z[0]! * z[4]!, mass * z[0]! * z[0]! * s1 * s1 * z[5]!];
    };
    const y0 = [th0, ph0, mass * l * l * thd0, mass * l * l * Math.sin(th0) ** 2 * phd0];
    const { defect, J } = symplecticDefect(step, y0);
    expect(defect).toBeLessThan(1e-7);
    // the map is not the identity (a test that cannot fail otherwise)
    expect(Math.abs(J[0 * 4 + 2]!)).toBeGreaterThan(0.01);
  });
  it('a constant M given as massMatrix matches the diagonal-mass RATTLE to 1e-12', () => {
    const base = pendulum({ m: 1.7, g, l: 1 });
    const asMatrix: ConstrainedMechanicalSystem = {
      ...base,
      massMatrix: (out) => {
        out.fill(0);
        out[0] = 1.7;
        out[3] = 1.7;
        return out;
      },
      coriolis: (out) => out.fill(0),
    };
    const init = { q0: [Math.SQRT1_2, -Math.SQRT1_2], v0: [0.3, 0.3] };
    const a = integrateConstrained(base, 'rattle', init, 0.01, 500, { every: 500 });
    const b = integrateConstrained(asMatrix, 'rattle', init, 0.01, 500, { every: 500 });
    const qa = a.last('q');
    const qb = b.last('q');
    const va = a.last('v');
    const vb = b.last('v');
    for (let i = 0; i < 2; i++) {
      expect(Math.abs(qa[i]! - qb[i]!)).toBeLessThan(1e-12);
      expect(Math.abs(va[i]! - vb[i]!)).toBeLessThan(1e-12);
    }
  });
});

describe('forced RATTLE with M(q): f_d⁻ in the first kick (inside the Newton solve), f_d⁺ in the second', () => {
  const init = { q0: [th0, 0.2], v0: [thd0, phd0] };
  it('converges with order 2 to the damped DOPRI5 reference (midpoint f_d^±), angles without constraints', () => {
    const { errors: e, free } = dampedErrors(
      (h, steps, force) =>
        integrateConstrained(angles, 'rattle', init, h, steps, {
          every: steps,
          ...(force === undefined ? {} : { force }),
        }).last('q'),
      [0.02, 0.01, 0.005],
    );
    for (let i = 0; i + 1 < e.length; i++) {
      const p = Math.log2(e[i]! / e[i + 1]!);
      expect(p).toBeGreaterThan(1.9);
      expect(p).toBeLessThan(2.1);
    }
    expect(free).toBeGreaterThan(100 * e[2]!);
  });
  it('an actuator with u = 0 leaves the step bit-identical to the unforced one', () => {
    const actuator: Force = {
      n: 3,
      m: 1,
      F: (out, _t, _q, _v, u) => {
        out[0] = 0;
        out[1] = u[0]!;
        out[2] = 0;
        return out;
      },
    };
    const a = integrateConstrained(spherical(false), 'rattle', { q0, v0 }, 0.01, 200, {
      every: 200,
    });
    const b = integrateConstrained(spherical(false), 'rattle', { q0, v0 }, 0.01, 200, {
      every: 200,
      force: actuator,
    });
    expect(Array.from(b.last('q'))).toEqual(Array.from(a.last('q')));
    expect(Array.from(b.last('v'))).toEqual(Array.from(a.last('v')));
  });
});
