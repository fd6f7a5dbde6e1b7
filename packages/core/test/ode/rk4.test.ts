import { describe, expect, it } from 'vitest';
import { convergenceOrder, refinementLevels } from '../../src/diagnostics/order.js';
import { DimensionError, DomainError, NonFiniteError } from '../../src/errors.js';
import { integrateRk4, type OdeRhs, Rk4Stepper, rk4Method } from '../../src/ode/rk4.js';

/** q' = p, p' = −q; exact (cos t, −sin t) from (1, 0). */
const oscillator: OdeRhs = (out, _t, y) => {
  out[0] = y[1]!;
  out[1] = -y[0]!;
};

/** Non-autonomous y' = −2t·y², y(0) = 1; exact y = 1/(1 + t²). */
const rational: OdeRhs = (out, t, y) => {
  out[0] = -2 * t * y[0]! * y[0]!;
};

describe('Rk4Stepper', () => {
  it("one step of y' = y matches the degree-4 Taylor polynomial of e^h exactly", () => {
    const s = new Rk4Stepper(1, (out, _t, y) => {
      out[0] = y[0]!;
    });
    const h = 0.1;
    const y = Float64Array.of(1);
    expect(s.step(y, 0, h)).toBe(0); // in place, no Newton iterations
    expect(Math.abs(y[0]! - (1 + h + h ** 2 / 2 + h ** 3 / 6 + h ** 4 / 24))).toBeLessThanOrEqual(
      1e-16,
    );
    expect(s.fEvals).toBe(4);
  });

  it('evaluates stages at t, t + h/2, t + h/2, t + h with t = t0 + k·h (t0 from reset)', () => {
    const seen: number[] = [];
    const s = new Rk4Stepper(1, (out, t) => {
      seen.push(t);
      out[0] = 0;
    });
    const y = Float64Array.of(0);
    s.step(y, 0, 0.5); // before any reset: t0 = 0
    expect(seen).toEqual([0, 0.25, 0.25, 0.5]);
    seen.length = 0;
    s.reset(y, 2);
    s.step(y, 0, 0.5);
    s.step(y, 3, 0.5); // t = 2 + 3·0.5
    expect(seen).toEqual([2, 2.25, 2.25, 2.5, 3.5, 3.75, 3.75, 4]);
  });

  it('rejects a wrong state length, a bad dimension, and a non-finite result (state unchanged)', () => {
    const s = new Rk4Stepper(2, oscillator);
    expect(() => s.step(new Float64Array(3), 0, 0.1)).toThrow(DimensionError);
    expect(() => new Rk4Stepper(0, oscillator)).toThrow(DomainError);
    const bad = new Rk4Stepper(1, (out, t) => {
      out[0] = t > 0.3 ? Number.NaN : 1;
    });
    const y = Float64Array.of(5);
    expect(() => bad.step(y, 1, 0.2)).toThrow(NonFiniteError); // from t = 0.2
    expect(y[0]).toBe(5);
  });
});

describe('integrateRk4', () => {
  it('traits: order 4, explicit, not symplectic', () => {
    expect(rk4Method.order).toBe(4);
    expect(rk4Method.isExplicit).toBe(true);
    expect(rk4Method.isSymplectic).toBe(false);
    expect(Object.isFrozen(rk4Method)).toBe(true);
  });

  it('measured order on the harmonic oscillator over one period is 4 ± 0.35', () => {
    // h = 2π/(16·2^k), k = 0..4; measured p ≈ 3.9995, errors 1.2e-3 … 1.9e-8
    const T = 2 * Math.PI;
    const { h, steps } = refinementLevels(T, 16, 5);
    const errors = steps.map((n) => {
      const sol = integrateRk4(oscillator, [1, 0], 0, T, n);
      const y = sol.sample('y', sol.count - 1);
      return Math.hypot(y[0]! - 1, y[1]!);
    });
    const fit = convergenceOrder(h, errors);
    expect(fit.used).toHaveLength(5);
    expect(Math.abs(fit.order - 4)).toBeLessThanOrEqual(0.35);
  });

  it("measured order on the non-autonomous y' = −2t·y² is 4 ± 0.35", () => {
    const T = 3;
    const { h, steps } = refinementLevels(T, 8, 5);
    const errors = steps.map((n) => {
      const sol = integrateRk4(rational, [1], 0, T, n);
      return Math.abs(sol.y[sol.count - 1]! - 1 / (1 + T * T));
    });
    const fit = convergenceOrder(h, errors);
    expect(fit.used.length).toBeGreaterThanOrEqual(3);
    expect(Math.abs(fit.order - 4)).toBeLessThanOrEqual(0.35);
  });

  it('stores every k-th step plus the final state, with exact sample times', () => {
    const sol = integrateRk4(oscillator, [1, 0], 0, 1, 10, { every: 3 });
    // samples after steps 0, 3, 6, 9, 10
    expect(sol.count).toBe(5);
    expect(sol.t).toHaveLength(5);
    expect(sol.y).toHaveLength(10);
    expect(Array.from(sol.t)).toEqual([0, 3 * 0.1, 6 * 0.1, 9 * 0.1, 1]); // t0 + k·h, last exactly tEnd
    expect(sol.steps).toBe(10);
    expect(sol.stats.fEvals).toBe(40);
    const full = integrateRk4(oscillator, [1, 0], 0, 1, 10);
    expect(full.count).toBe(11);
    expect(Array.from(sol.sample('y', 2))).toEqual(Array.from(full.sample('y', 6)));
    expect(Array.from(sol.sample('y', 4))).toEqual(Array.from(full.sample('y', 10)));
    expect(sol.sample('y', 1).buffer).toBe(sol.y.buffer); // a view, not a copy
    expect(() => sol.sample('y', 5)).toThrow(DomainError);
  });

  it('integrates backward in time (tEnd < t0) to 1e-9 with 1000 steps', () => {
    const T = 2;
    const sol = integrateRk4(oscillator, [Math.cos(T), -Math.sin(T)], T, 0, 1000);
    expect(sol.h).toBeCloseTo(-0.002, 15);
    expect(sol.t[sol.count - 1]).toBe(0);
    const y = sol.sample('y', sol.count - 1);
    expect(Math.abs(y[0]! - 1)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(y[1]!)).toBeLessThanOrEqual(1e-9);
  });

  it('validates its arguments', () => {
    expect(() => integrateRk4(oscillator, [1, 0], 0, 1, 0)).toThrow(DomainError);
    expect(() => integrateRk4(oscillator, [1, 0], 0, 1, 2.5)).toThrow(DomainError);
    expect(() => integrateRk4(oscillator, [1, 0], 0, 1, 10, { every: 0 })).toThrow(DomainError);
    expect(() => integrateRk4(oscillator, [1, 0], 0, Number.NaN, 10)).toThrow(DomainError);
    expect(() => integrateRk4(oscillator, [], 0, 1, 10)).toThrow(DomainError);
    expect(() => integrateRk4(oscillator, [1, Number.NaN], 0, 1, 10)).toThrow(NonFiniteError);
  });
});
