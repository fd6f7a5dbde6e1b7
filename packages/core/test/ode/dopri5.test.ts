import { describe, expect, it } from 'vitest';
import { convergenceOrder, refinementLevels } from '../../src/diagnostics/order.js';
import {
  DimensionError,
  DomainError,
  MaxStepsExceededError,
  NonFiniteError,
  StepSizeUnderflowError,
} from '../../src/errors.js';
import {
  Dopri5Integrator,
  type Dopri5Options,
  Dopri5Stepper,
  dopri5DenseEval,
  dopri5Method,
  integrateDopri5,
} from '../../src/ode/dopri5.js';
import type { OdeRhs } from '../../src/ode/rk4.js';

const oscillator: OdeRhs = (out, _t, y) => {
  out[0] = y[1]!;
  out[1] = -y[0]!;
};
/** A scalar right-hand side y' = g(t, y). */
const scalar =
  (g: (t: number, y: number) => number): OdeRhs =>
  (out, t, y) => {
    out[0] = g(t, y[0]!);
  };
const oscErr = (y: ArrayLike<number>, t: number): number =>
  Math.hypot(y[0]! - Math.cos(t), y[1]! + Math.sin(t));

const TIGHT = { rtol: 1e-12, atol: 1e-14 } as const;

describe('Dopri5Stepper (fixed steps)', () => {
  it('traits', () => {
    expect(dopri5Method.order).toBe(5);
    expect(dopri5Method.embeddedOrder).toBe(4);
    expect(Object.isFrozen(dopri5Method)).toBe(true);
  });

  it('propagated solution has measured order 5 ± 0.35, embedded solution order 4 ± 0.35', () => {
    // oscillator to T = 2, h = 2/(8·2^k), k = 0..4; measured p ≈ 5.007 and 4.004
    const T = 2;
    const { h, steps } = refinementLevels(T, 8, 5);
    const e5: number[] = [];
    const e4: number[] = [];
    for (let k = 0; k < steps.length; k++) {
      const n = steps[k]!;
      const hk = h[k]!;
      const s5 = new Dopri5Stepper(2, oscillator);
      const s4 = new Dopri5Stepper(2, oscillator);
      const y5 = Float64Array.of(1, 0);
      const y4 = Float64Array.of(1, 0);
      for (let j = 0; j < n; j++) {
        s5.step(y5, j * hk, hk);
        // embedded 4th-order solution ŷ = y₁ − ĕ
        s4.prime(j * hk, y4);
        s4.attempt(j * hk, y4, hk);
        for (let i = 0; i < 2; i++) y4[i] = s4.yNew[i]! - s4.errEst[i]!;
      }
      e5.push(oscErr(y5, T));
      e4.push(oscErr(y4, T));
    }
    const p5 = convergenceOrder(h, e5);
    const p4 = convergenceOrder(h, e4);
    expect(p5.used.length).toBeGreaterThanOrEqual(3);
    expect(Math.abs(p5.order - 5)).toBeLessThanOrEqual(0.35);
    expect(Math.abs(p4.order - 4)).toBeLessThanOrEqual(0.35);
  });

  it('reuses the last stage (FSAL): 7 evaluations for the first step, 6 after', () => {
    const s = new Dopri5Stepper(2, oscillator);
    const y = Float64Array.of(1, 0);
    s.step(y, 0, 0.1);
    expect(s.fEvals).toBe(7);
    s.step(y, 0.1, 0.1);
    expect(s.fEvals).toBe(13);
    y[0] = 0.5; // state changed outside: k1 must be re-evaluated
    s.step(y, 0.2, 0.1);
    expect(s.fEvals).toBe(20);
  });

  it('continuous extension has local error O(h⁵): measured slope 5 ± 0.35 at θ = 0.3, 0.5, 0.8', () => {
    // one step from exact data, error of u(θ) against the exact solution; measured 5.01, 5.04, 5.13
    for (const theta of [0.3, 0.5, 0.8]) {
      const hs: number[] = [];
      const errs: number[] = [];
      for (let k = 0; k < 5; k++) {
        const h = 0.4 / 2 ** k;
        const s = new Dopri5Stepper(2, oscillator);
        const y = Float64Array.of(1, 0);
        const cont = new Float64Array(10);
        s.prime(0, y);
        s.attempt(0, y, h);
        s.denseCoefficients(cont, y, h);
        const u = dopri5DenseEval(new Float64Array(2), cont, 2, theta);
        hs.push(h);
        errs.push(oscErr(u, theta * h));
      }
      expect(Math.abs(convergenceOrder(hs, errs).order - 5)).toBeLessThanOrEqual(0.35);
    }
  });

  it('continuous extension interpolates the step ends exactly', () => {
    const s = new Dopri5Stepper(2, oscillator);
    const y = Float64Array.of(1, 0);
    const cont = new Float64Array(10);
    s.prime(0, y);
    s.attempt(0, y, 0.3);
    s.denseCoefficients(cont, y, 0.3);
    const u0 = dopri5DenseEval(new Float64Array(2), cont, 2, 0);
    const u1 = dopri5DenseEval(new Float64Array(2), cont, 2, 1);
    expect(Array.from(u0)).toEqual([1, 0]);
    for (let i = 0; i < 2; i++) expect(Math.abs(u1[i]! - s.yNew[i]!)).toBeLessThanOrEqual(1e-16);
  });
});

describe('integrateDopri5 against exact solutions (rtol 1e-12, atol 1e-14)', () => {
  it('harmonic oscillator over 5 periods: error ≤ 1e-10 at every accepted step (measured 2.8e-12)', () => {
    const T = 10 * Math.PI;
    const sol = integrateDopri5(oscillator, [1, 0], 0, T, TIGHT);
    expect(sol.t[0]).toBe(0);
    expect(sol.t[sol.count - 1]).toBe(T);
    expect(sol.count).toBe(sol.stats.accepted + 1);
    expect(sol.y).toHaveLength(2 * sol.count);
    let worst = 0;
    for (let k = 0; k < sol.count; k++)
      worst = Math.max(worst, oscErr(sol.sample('y', k), sol.t[k]!));
    expect(worst).toBeLessThanOrEqual(1e-10);
  });

  it("exponential growth y' = y to t = 5: relative error ≤ 1e-10 (measured 7.6e-13)", () => {
    const sol = integrateDopri5(
      scalar((_t, y) => y),
      [1],
      0,
      5,
      TIGHT,
    );
    expect(Math.abs(sol.y[sol.count - 1]! / Math.exp(5) - 1)).toBeLessThanOrEqual(1e-10);
  });

  it("exponential decay y' = −2y to t = 5: relative error ≤ 1e-10 (measured 3.4e-11)", () => {
    const sol = integrateDopri5(
      scalar((_t, y) => -2 * y),
      [1],
      0,
      5,
      TIGHT,
    );
    expect(Math.abs(sol.y[sol.count - 1]! / Math.exp(-10) - 1)).toBeLessThanOrEqual(1e-10);
  });

  it("y' = y², y(0) = 1/2 to t = 1.5 (y = 1/(2 − t) = 2): error ≤ 1e-10 (measured 1.2e-12)", () => {
    const sol = integrateDopri5(
      scalar((_t, y) => y * y),
      [0.5],
      0,
      1.5,
      TIGHT,
    );
    expect(Math.abs(sol.y[sol.count - 1]! - 2)).toBeLessThanOrEqual(1e-10);
  });

  it("logistic y' = y(1 − y), y(0) = 0.1 to t = 10: error ≤ 1e-10 at all steps (measured 1.5e-13 at the end)", () => {
    const exact = (t: number): number => 1 / (1 + 9 * Math.exp(-t));
    const sol = integrateDopri5(
      scalar((_t, y) => y * (1 - y)),
      [0.1],
      0,
      10,
      TIGHT,
    );
    for (let k = 0; k < sol.count; k++) {
      expect(Math.abs(sol.y[k]! - exact(sol.t[k]!))).toBeLessThanOrEqual(1e-10);
    }
  });

  it("non-autonomous y' = −2t·y², y(0) = 1 to t = 4: error ≤ 1e-10 (measured 2e-14)", () => {
    const sol = integrateDopri5(
      scalar((t, y) => -2 * t * y * y),
      [1],
      0,
      4,
      TIGHT,
    );
    expect(Math.abs(sol.y[sol.count - 1]! - 1 / 17)).toBeLessThanOrEqual(1e-10);
  });

  it('integrates backward in time: oscillator from t = 10π to 0, error ≤ 1e-10 at steps and in between', () => {
    const T = 10 * Math.PI;
    const sol = integrateDopri5(oscillator, [Math.cos(T), -Math.sin(T)], T, 0, TIGHT);
    expect(sol.t0).toBe(T);
    expect(sol.tEnd).toBe(0);
    for (let k = 1; k < sol.count; k++) expect(sol.t[k]!).toBeLessThan(sol.t[k - 1]!);
    expect(oscErr(sol.sample('y', sol.count - 1), 0)).toBeLessThanOrEqual(1e-10);
    for (const t of [0, 0.123, 5, 17.3, T]) expect(oscErr(sol.at(t), t)).toBeLessThanOrEqual(1e-10);
  });
});

describe('dense output and tEval', () => {
  it('between steps (θ = 1/4, 1/2, 3/4 of every step) error ≤ 1e-10 with rtol 1e-12 (measured 2.8e-12, equal to the error at the steps)', () => {
    const T = 10 * Math.PI;
    const sol = integrateDopri5(oscillator, [1, 0], 0, T, TIGHT);
    const out = new Float64Array(2);
    let worstDense = 0;
    let worstStep = 0;
    const ts = sol.stepTimes;
    for (let k = 0; k + 1 < ts.length; k++) {
      for (const th of [0.25, 0.5, 0.75]) {
        const t = ts[k]! + th * (ts[k + 1]! - ts[k]!);
        expect(sol.at(t, out)).toBe(out);
        worstDense = Math.max(worstDense, oscErr(out, t));
      }
      worstStep = Math.max(worstStep, oscErr(sol.sample('y', k + 1), ts[k + 1]!));
    }
    expect(worstDense).toBeLessThanOrEqual(1e-10);
    // the interpolant adds nothing visible to the global error at this tolerance
    expect(worstDense).toBeLessThanOrEqual(2 * worstStep);
  });

  it('at() returns the stored states at the step points', () => {
    const sol = integrateDopri5(oscillator, [1, 0], 0, 3, { rtol: 1e-8, atol: 1e-10 });
    for (let k = 0; k < sol.count; k++) {
      const u = sol.at(sol.t[k]!);
      const y = sol.sample('y', k);
      for (let i = 0; i < 2; i++) expect(Math.abs(u[i]! - y[i]!)).toBeLessThanOrEqual(4e-16);
    }
  });

  it('tEval: outputs exactly at the requested times, to 1e-10; at() still works', () => {
    const tEval = [0, 0.5, 0.5, 1, Math.PI, 7.25, 10];
    const sol = integrateDopri5(oscillator, [1, 0], 0, 10, { ...TIGHT, tEval });
    expect(sol.count).toBe(tEval.length);
    expect(Array.from(sol.t)).toEqual(tEval);
    for (let k = 0; k < sol.count; k++) {
      expect(oscErr(sol.sample('y', k), tEval[k]!)).toBeLessThanOrEqual(1e-10);
    }
    expect(sol.stepTimes.length).toBe(sol.stats.accepted + 1);
    expect(oscErr(sol.at(2.2), 2.2)).toBeLessThanOrEqual(1e-10);
  });

  it('tEval backward and dense: false', () => {
    const tEval = [3, 2, 1, 0];
    const sol = integrateDopri5(oscillator, [Math.cos(3), -Math.sin(3)], 3, 0, {
      ...TIGHT,
      tEval,
      dense: false,
    });
    expect(Array.from(sol.t)).toEqual(tEval);
    for (let k = 0; k < sol.count; k++)
      expect(oscErr(sol.sample('y', k), tEval[k]!)).toBeLessThanOrEqual(1e-10);
    expect(sol.dense).toBeUndefined();
    expect(() => sol.at(1)).toThrow(DomainError);
  });

  it('rejects tEval outside the interval or out of order, and at() outside the interval', () => {
    expect(() => integrateDopri5(oscillator, [1, 0], 0, 1, { tEval: [0.5, 1.5] })).toThrow(
      DomainError,
    );
    expect(() => integrateDopri5(oscillator, [1, 0], 0, 1, { tEval: [0.5, 0.2] })).toThrow(
      DomainError,
    );
    const sol = integrateDopri5(oscillator, [1, 0], 0, 1);
    expect(() => sol.at(1.0000001)).toThrow(DomainError);
    expect(() => sol.at(-1e-9)).toThrow(DomainError);
    expect(() => sol.at(Number.NaN)).toThrow(DomainError);
  });

  it('an empty interval returns the initial state', () => {
    const sol = integrateDopri5(oscillator, [0.3, 0.4], 2, 2);
    expect(sol.count).toBe(1);
    expect(sol.stats.attempts).toBe(0);
    expect(Array.from(sol.at(2))).toEqual([0.3, 0.4]);
  });
});

describe('step-size control', () => {
  const T = 10 * Math.PI;
  const tols = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12];
  const runs = tols.map((tol) =>
    integrateDopri5(oscillator, [1, 0], 0, T, { rtol: tol, atol: tol * 1e-2 }),
  );

  it('global error decreases with the tolerance and stays within [0.1, 10]·tol (measured 2.8–4.5·tol)', () => {
    const errs = runs.map((s) => oscErr(s.sample('y', s.count - 1), T));
    for (let k = 0; k < tols.length; k++) {
      if (k > 0) expect(errs[k]!).toBeLessThan(errs[k - 1]! / 3); // tol steps of 10
      expect(errs[k]! / tols[k]!).toBeGreaterThanOrEqual(0.1);
      expect(errs[k]! / tols[k]!).toBeLessThanOrEqual(10);
    }
  });

  it('accepted steps scale like tol^(−1/5): slope of log(steps) vs log(tol) = −0.2 ± 0.03 (measured −0.2035)', () => {
    const counts = runs.map((s) => s.stats.accepted);
    const fit = convergenceOrder(tols, counts, { floor: 0 });
    expect(Math.abs(fit.order + 0.2)).toBeLessThanOrEqual(0.03);
  });

  it('stats add up: attempts = accepted + rejected, fEvals = 6·attempts + 2 (FSAL + hinit)', () => {
    for (const s of runs) {
      const { attempts, accepted, rejected, fEvals } = s.stats;
      expect(attempts).toBe(accepted + rejected);
      expect(fEvals).toBe(6 * attempts + 2);
    }
    // a given h0 skips hinit: 6·steps + 1
    const s = integrateDopri5(oscillator, [1, 0], 0, 1, { h0: 0.01 });
    expect(s.stats.fEvals).toBe(6 * s.stats.attempts + 1);
  });

  it('hmax caps every accepted step', () => {
    const s = integrateDopri5(oscillator, [1, 0], 0, 10, { rtol: 1e-3, atol: 1e-6, hmax: 0.05 });
    const ts = s.stepTimes;
    for (let k = 1; k < ts.length; k++)
      expect(ts[k]! - ts[k - 1]!).toBeLessThanOrEqual(0.05 + 4 * Number.EPSILON * 10); // t-rounding near 10
    expect(s.stats.accepted).toBeGreaterThanOrEqual(200);
  });

  it("stiff y' = −1000(y − cos t) on [0, 2]: stability-limited steps; I control rejects many, PI few", () => {
    // explicit stability boundary of DOPRI5 on the negative axis ≈ −3.3, so ≥ λT/3.3 ≈ 606 steps
    // whatever the tolerance. Measured at rtol = atol = 1e-3: β = 0: 609 accepted / 104 rejected;
    // β = 0.04 (PI): 611 accepted / 1 rejected.
    const lam = 1000;
    const f: OdeRhs = (out, t, y) => {
      out[0] = -lam * (y[0]! - Math.cos(t));
    };
    const exact = (t: number): number => {
      const c = (lam * lam) / (1 + lam * lam);
      return c * (Math.cos(t) + Math.sin(t) / lam) - c * Math.exp(-lam * t);
    };
    const iCtl = integrateDopri5(f, [0], 0, 2, { rtol: 1e-3, atol: 1e-3, beta: 0 });
    const piCtl = integrateDopri5(f, [0], 0, 2, { rtol: 1e-3, atol: 1e-3 });
    const bound = (lam * 2) / 3.31;
    for (const s of [iCtl, piCtl]) {
      expect(s.stats.accepted).toBeGreaterThanOrEqual(0.95 * bound);
      expect(s.stats.accepted).toBeLessThanOrEqual(1.1 * bound);
      expect(Math.abs(s.y[s.count - 1]! - exact(2))).toBeLessThanOrEqual(1e-2);
    }
    expect(iCtl.stats.rejected).toBeGreaterThanOrEqual(50);
    expect(piCtl.stats.rejected).toBeLessThanOrEqual(10);
  });
});

describe('tolerances and options', () => {
  it('a scalar tolerance and the same value as a vector give identical results', () => {
    const a = integrateDopri5(oscillator, [1, 0], 0, 5, { rtol: 1e-7, atol: 1e-9 });
    const b = integrateDopri5(oscillator, [1, 0], 0, 5, { rtol: [1e-7, 1e-7], atol: [1e-9, 1e-9] });
    expect(Array.from(b.y)).toEqual(Array.from(a.y));
  });

  it('per-component tolerances: loosening the fast component of a decoupled system saves steps', () => {
    const f: OdeRhs = (out, t, y) => {
      out[0] = -0.1 * y[0]!; // slow, kept tight
      // fast, loosened below
      out[1] = 3 * Math.cos(3 * t);
    };
    const tight = integrateDopri5(f, [1, 0], 0, 5, { rtol: 1e-10, atol: 1e-12 });
    const loose = integrateDopri5(f, [1, 0], 0, 5, { rtol: [1e-10, 1e-4], atol: [1e-12, 1e-6] });
    expect(loose.stats.accepted).toBeLessThan(tight.stats.accepted / 2);
  });

  it('validates options', () => {
    const bad: Dopri5Options[] = [
      { rtol: -1 },
      { rtol: 1 },
      { rtol: 0, atol: 0 },
      { atol: Number.NaN },
      { h0: -0.1 },
      { hmax: 0 },
      { maxSteps: 0 },
      { safety: 1.5 },
      { facmin: 0 },
      { facmax: 0.5 },
      { beta: 0.3 },
    ];
    for (const o of bad) expect(() => new Dopri5Integrator(2, oscillator, o)).toThrow(DomainError);
    expect(() => new Dopri5Integrator(2, oscillator, { rtol: [1e-6] })).toThrow(DimensionError);
    const integ = new Dopri5Integrator(2, oscillator);
    expect(() => integ.integrate([1], 0, 1)).toThrow(DimensionError);
    expect(() => integ.integrate([1, 0], 0, Number.POSITIVE_INFINITY)).toThrow(DomainError);
  });

  it('an integrator can be reused for several initial values', () => {
    const integ = new Dopri5Integrator(2, oscillator, TIGHT);
    const a = integ.integrate([1, 0], 0, 2);
    const b = integ.integrate([1, 0], 0, 2);
    expect(Array.from(b.y)).toEqual(Array.from(a.y));
    expect(b.stats).toEqual(a.stats);
  });
});

describe('failures are typed', () => {
  it("y' = y², y(0) = 1 to t = 2 blows up at t = 1: StepSizeUnderflowError near t = 1", () => {
    // measured: t = 1 + 5.2e-10 (rtol 1e-8; the numerical blow-up time is shifted by the global
    // error), h ≈ 2.2e-15
    const run = (): unknown =>
      integrateDopri5(
        scalar((_t, y) => y * y),
        [1],
        0,
        2,
        {
          rtol: 1e-8,
          atol: 1e-10,
        },
      );
    expect(run).toThrow(StepSizeUnderflowError);
    try {
      run();
    } catch (e) {
      const err = e as StepSizeUnderflowError;
      expect(Math.abs(err.t - 1)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(err.h)).toBeLessThanOrEqual(10 * Number.EPSILON * Math.abs(err.t));
    }
  });

  it('NaN from f is a NonFiniteError: at the start, and mid-run', () => {
    expect(() =>
      integrateDopri5(
        scalar(() => Number.NaN),
        [1],
        0,
        1,
      ),
    ).toThrow(NonFiniteError);
    expect(() =>
      integrateDopri5(
        scalar((t, y) => (t > 0.5 ? Number.NaN : -y)),
        [1],
        0,
        1,
      ),
    ).toThrow(NonFiniteError);
    expect(() => integrateDopri5(oscillator, [Number.NaN, 0], 0, 1)).toThrow(NonFiniteError);
  });

  it('the step budget is enforced with MaxStepsExceededError', () => {
    try {
      integrateDopri5(oscillator, [1, 0], 0, 100, { ...TIGHT, maxSteps: 50 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(MaxStepsExceededError);
      const err = e as MaxStepsExceededError;
      expect(err.maxSteps).toBe(50);
      expect(err.t).toBeGreaterThan(0);
      expect(err.t).toBeLessThan(100);
    }
  });
});
