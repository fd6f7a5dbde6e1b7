import { type Force, integrateDopri5 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { indexReducedRhs } from '../src/comparators.js';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import {
  type DiracMethodName,
  DiracStepper,
  diracMethods,
  integrateDirac,
} from '../src/diracIntegrators.js';
import { pendulum } from '../src/holonomicModels.js';
import {
  angles,
  cartesian,
  dampedErrors,
  g,
  l,
  mass,
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

describe('Dirac methods with M(q) (Newton on (7) with L_d = h L(q_k, q̃)): spherical pendulum in (r, θ, φ)', () => {
  const T = 1;
  const ref = integrateDopri5(indexReducedRhs(cartesian), [...x0, ...xd0], 0, T, {
    rtol: 1e-12,
    atol: 1e-14,
  });
  const xRef = ref.sample('y', ref.count - 1);
  const err = (method: DiracMethodName, h: number): number => {
    const steps = Math.round(T / h);
    const sol = integrateDirac(spherical(false), method, { q0, v0 }, h, steps, { every: steps });
    const x = toCartesian(sol.last('q'));
    return Math.max(...x.map((xi, i) => Math.abs(xi - xRef[i]!)));
  };
  for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
    it(`${method} converges with order 1 (spec §5.6) to the DOPRI5 reference of the Cartesian system`, () => {
      const e = [0.004, 0.002, 0.001].map((h) => err(method, h));
      for (let i = 0; i + 1 < e.length; i++) {
        const p = Math.log2(e[i]! / e[i + 1]!);
        expect(p).toBeGreaterThan(0.9);
        expect(p).toBeLessThan(1.15);
      }
      expect(e[2]!).toBeLessThan(0.02);
    });
  }
  it('keeps r = l to round-off (C = [r, 0, 0]: line 1 forces r̃ = 0) over 5000 steps', () => {
    for (const method of ['dirac-1', 'dirac-2c'] as const) {
      const sol = integrateDirac(spherical(false), method, { q0, v0 }, 0.01, 5000, { every: 50 });
      let drift = 0;
      for (let j = 0; j < sol.count; j++)
        drift = Math.max(drift, Math.abs(sol.sample('constraint', j)[0]!));
      expect(drift).toBeLessThan(1e-12);
    }
  });
  it('a constant M given as massMatrix matches the diagonal-mass step to 1e-12', () => {
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
    for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
      const a = integrateDirac(base, method, init, 0.01, 500, { every: 500 });
      const b = integrateDirac(asMatrix, method, init, 0.01, 500, { every: 500 });
      for (const series of ['q', 'p', 'lambda', 'energy'] as const) {
        const sa = a.last(series);
        const sb = b.last(series);
        for (let i = 0; i < sa.length; i++) expect(Math.abs(sa[i]! - sb[i]!)).toBeLessThan(1e-12);
      }
    }
  });
});

describe('method traits of a Dirac stepper follow the step it runs', () => {
  it('M(q) makes the step implicit (Newton); the table keeps the constant-M traits', () => {
    expect(new DiracStepper(angles, 'dirac-1').method.isExplicit).toBe(false);
    expect(new DiracStepper(angles, 'dirac-1').method.order).toBe(1);
    expect(diracMethods['dirac-1'].isExplicit).toBe(true);
  });
});

describe('Dirac-1 with M(q) and no constraints is symplectic (the variational integrator of L_d)', () => {
  it('JᵀΩJ = Ω for the map (θ, φ, p_θ, p_φ) ↦ next, to the central-difference error', () => {
    const h = 0.1;
    const st = new DiracStepper(angles, 'dirac-1');
    const step = (y: number[]): number[] => {
      const s = st.initialState(y.slice(0, 2), y.slice(2));
      st.reset(s);
      st.step(s, 0, h);
      return Array.from(s.subarray(0, 4));
    };
    const y0 = [th0, 0.2, mass * l * l * thd0, mass * l * l * Math.sin(th0) ** 2 * phd0];
    const { defect, J } = symplecticDefect(step, y0);
    expect(defect).toBeLessThan(1e-7);
    // the map is not the identity (a test that cannot fail otherwise)
    expect(Math.abs(J[0 * 4 + 2]!)).toBeGreaterThan(0.01);
  });
});

describe('forced Dirac steps with M(q): f_d⁻ inside the Newton solve', () => {
  const init = { q0: [th0, 0.2], v0: [thd0, phd0] };
  it('converges with order 1 to the damped DOPRI5 reference (midpoint f_d^±)', () => {
    const { errors: e, free } = dampedErrors(
      (h, steps, force) =>
        integrateDirac(angles, 'dirac-1', init, h, steps, {
          every: steps,
          ...(force === undefined ? {} : { force }),
        }).last('q'),
      [0.004, 0.002, 0.001],
    );
    for (let i = 0; i + 1 < e.length; i++) {
      const p = Math.log2(e[i]! / e[i + 1]!);
      expect(p).toBeGreaterThan(0.9);
      expect(p).toBeLessThan(1.15);
    }
    // the damping matters: the undamped run is farther from the reference than the error
    expect(free).toBeGreaterThan(20 * e[2]!);
  });
  it('an actuator with u = 0 leaves every method bit-identical to the unforced run', () => {
    const actuator: Force = {
      n: 2,
      m: 1,
      F: (out, _t, _q, _v, u) => {
        out[0] = u[0]!;
        out[1] = 0;
        return out;
      },
    };
    for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
      const a = integrateDirac(angles, method, init, 0.01, 200, { every: 200 });
      const b = integrateDirac(angles, method, init, 0.01, 200, { every: 200, force: actuator });
      expect(Array.from(b.last('q'))).toEqual(Array.from(a.last('q')));
      expect(Array.from(b.last('p'))).toEqual(Array.from(a.last('p')));
    }
  });
});
