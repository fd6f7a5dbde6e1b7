import { DomainError, integrate, SE2 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { UnicycleStepper } from '../src/unicycle.js';

describe('UnicycleStepper (U1)–(U2) on SE(2)', () => {
  const s = new UnicycleStepper({ mass: 2, inertia: 0.1, h: 0.01 });

  it('without input follows the exact circle X_0·Exp(k h [v, 0, ω])', () => {
    const x0 = s.initialState([1, -1], 0.3, 1.5, 0.7);
    const sol = integrate(s, x0, { h: 0.01, steps: 1000 });
    const exact = SE2.compose(
      new Float64Array(9),
      x0.subarray(0, 9),
      SE2.exp(new Float64Array(9), Float64Array.of(1000 * 0.01 * 1.5, 0, 1000 * 0.01 * 0.7)),
    );
    const X = sol.sample('X', 1000);
    let err = 0;
    for (let i = 0; i < 9; i++) err = Math.max(err, Math.abs(X[i]! - exact[i]!));
    expect(err).toBeLessThan(1e-12);
    expect(sol.energy[1000]).toBe(sol.energy[0]);
  });

  it('balances the energy with the discrete work F·h v̄ + τ·h ω̄ to round-off, and never slips sideways', () => {
    const x0 = s.initialState([0, 0], 0, 0.5, 0);
    const n = 500;
    const inputs = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      inputs[2 * k] = Math.sin(0.01 * k);
      inputs[2 * k + 1] = 0.05 * Math.cos(0.03 * k);
    }
    const sol = integrate(s, x0, { h: 0.01, steps: n, inputs });
    for (let k = 0; k < n; k++) {
      const vbar = 0.5 * (sol.v[k]! + sol.v[k + 1]!);
      const wbar = 0.5 * (sol.omega[k]! + sol.omega[k + 1]!);
      const work = inputs[2 * k]! * 0.01 * vbar + inputs[2 * k + 1]! * 0.01 * wbar;
      expect(Math.abs(sol.energy[k + 1]! - sol.energy[k]! - work)).toBeLessThan(1e-15);
      // the increment X_k⁻¹X_{k+1} has no sideways (body y) translation beyond the arc's chord:
      // its log is [h v̄, 0, h ω̄]
      const D = SE2.between(
        new Float64Array(9),
        sol.sample('X', k).slice(),
        sol.sample('X', k + 1).slice(),
      );
      const tau = SE2.log(new Float64Array(3), D);
      expect(Math.abs(tau[1]!)).toBeLessThan(1e-15);
    }
  });

  it('rejects a bad step size and bad parameters', () => {
    expect(() => new UnicycleStepper({ mass: 0, inertia: 1, h: 0.1 })).toThrow(DomainError);
    expect(() => s.step(s.initialState([0, 0], 0, 1, 0), 0, 0.02, new Float64Array(2))).toThrow(
      DomainError,
    );
  });
});
