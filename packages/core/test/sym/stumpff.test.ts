/**
 * Stumpff functions c_k(t) = Σ (−t)^m/(2m + k)! (src/sym/stumpff.ts): accuracy in ulps against a
 * 300-bit reference on both sides of every branch threshold, the closed forms in θ = √t, the
 * recurrence and derivative identities, and the dual-number and NumberOps implementations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dual, DualOps, NumberOps } from '../../src/ad/dual.js';
import { STUMPFF_SERIES_MIN, STUMPFF_SERIES_NEGATIVE } from '../../src/constants.js';
import { DomainError } from '../../src/errors.js';
import {
  stumpff,
  stumpffDerivative,
  stumpffSeriesRadius,
  stumpffTo,
} from '../../src/sym/stumpff.js';
import { stumpffReference, stumpffUlpError } from './reference.js';

/** Sample points: around the thresholds ±radius (1e-3 relative steps), a grid, and tiny |t|. */
function samples(k: number, high: number): number[] {
  const out: number[] = [];
  const radius = stumpffSeriesRadius(k);
  for (let i = -100; i <= 100; i++) {
    out.push(radius * (1 + i * 1e-3), -STUMPFF_SERIES_NEGATIVE * (1 + i * 1e-4));
  }
  for (let i = 0; i <= 400; i++) {
    out.push((i / 400) * high, -(i / 400) * STUMPFF_SERIES_NEGATIVE, 10 ** (-12 + (12 * i) / 400));
  }
  return out.filter((t) => t <= high && t >= -STUMPFF_SERIES_NEGATIVE);
}

function worstUlps(k: number, ts: number[]): number {
  return Math.max(...ts.map((t) => stumpffUlpError(k, t, stumpff(k, t))));
}

describe('accuracy against a 300-bit reference', () => {
  it('c₃ … c₁₂: ≤ 3 ulp on [−400, 100] across both branch thresholds', () => {
    for (let k = 3; k <= 12; k++) {
      // measured ≤ 2.7 ulp for t ≥ 0 and ≤ 4.2 ulp for t < 0 (Horner with growing terms)
      const ts = samples(k, 100);
      const positive = worstUlps(
        k,
        ts.filter((t) => t >= 0),
      );
      const negative = worstUlps(
        k,
        ts.filter((t) => t < 0),
      );
      expect(positive, `k = ${k}`).toBeLessThanOrEqual(3);
      expect(negative, `k = ${k}`).toBeLessThanOrEqual(4.5);
    }
  });

  it('c₁ and c₂ relative to their value away from their zeros (θ < 2 for c₁, θ < 4.4 for c₂)', () => {
    // measured 1.4 and 2.4 ulp for t ≥ 0, 3.8 and 3.5 for t ∈ [−400, 0)
    const positive = (k: number, high: number) => samples(k, high).filter((t) => t >= 0);
    const negative = (k: number) => samples(k, 0).filter((t) => t < 0);
    expect(worstUlps(1, positive(1, 4))).toBeLessThanOrEqual(2);
    expect(worstUlps(2, positive(2, 20))).toBeLessThanOrEqual(3);
    expect(worstUlps(1, negative(1))).toBeLessThanOrEqual(4.5);
    expect(worstUlps(2, negative(2))).toBeLessThanOrEqual(4.5);
  });

  it('t < −400 (closed forms): the error is bounded by the rounding of θ = √t, θ ulp', () => {
    for (const k of [0, 1, 2, 3, 5]) {
      for (let i = 1; i <= 200; i++) {
        const t = -STUMPFF_SERIES_NEGATIVE * (1 + i * 0.05);
        const theta = Math.sqrt(-t);
        // |dc/dθ·θ/c| → θ and the rounding of √t is ½ ulp: ≤ θ/2 relative, up to θ ulp of the
        // result (measured ≤ 0.85 θ + 1)
        expect(stumpffUlpError(k, t, stumpff(k, t)), `k = ${k}, t = ${t}`).toBeLessThanOrEqual(
          theta + 4,
        );
      }
    }
  });

  it('c₀ = cos θ, and c₁, c₂ near their zeros: absolute error ≈ ε', () => {
    for (const k of [0, 1, 2]) {
      let worst = 0;
      for (let i = 0; i <= 2000; i++) {
        const t = (i / 2000) * 60; // θ up to 7.7, past the zeros π/2, π, 2π
        worst = Math.max(worst, Math.abs(stumpff(k, t) - stumpffReference(k, t)));
      }
      // the rounding of θ = √t times |dc/dθ| ≤ 1: measured 2.2e-16
      expect(worst, `k = ${k}`).toBeLessThan(4 * Number.EPSILON);
    }
  });

  it('the series radius is continuous: both sides of each threshold agree to 3 ulp', () => {
    for (let k = 0; k <= 12; k++) {
      const r = stumpffSeriesRadius(k);
      const inside = stumpff(k, r);
      const outside = stumpff(k, r * (1 + Number.EPSILON * 2));
      expect(Math.abs(inside - outside) / Math.abs(inside), `k = ${k}`).toBeLessThan(
        4 * Number.EPSILON,
      );
    }
    expect(stumpffSeriesRadius(0)).toBe(STUMPFF_SERIES_MIN);
    expect(stumpffSeriesRadius(5)).toBe(20);
    expect(stumpffSeriesRadius(5, -1)).toBe(STUMPFF_SERIES_NEGATIVE);
  });
});

describe('closed forms and identities', () => {
  it('c₀ … c₃ in θ: cos θ, sin θ/θ, (1 − cos θ)/θ², (θ − sin θ)/θ³', () => {
    for (const th of [0.5, 1.3, 2.9, 7]) {
      const t = th * th;
      expect(stumpff(0, t)).toBeCloseTo(Math.cos(th), 15);
      expect(stumpff(1, t)).toBeCloseTo(Math.sin(th) / th, 15);
      expect(stumpff(2, t)).toBeCloseTo((1 - Math.cos(th)) / t, 15);
      expect(stumpff(3, t)).toBeCloseTo((th - Math.sin(th)) / (t * th), 14);
      // hyperbolic for t < 0
      expect(stumpff(1, -t) / (Math.sinh(th) / th)).toBeCloseTo(1, 14);
    }
    expect([0, 1, 2, 3, 4].map((k) => stumpff(k, 0))).toEqual([1, 1, 0.5, 1 / 6, 1 / 24]);
    expect(stumpff(3, 1e-300)).toBe(1 / 6);
  });

  it('c_k(t) = 1/k! − t·c_{k+2}(t) and d c_k/dt = (k c_{k+2} − c_{k+1})/2 (fast-check)', () => {
    let worstRecurrence = 0;
    let worstDerivative = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        (k, t) => {
          let f = 1;
          for (let i = 2; i <= k; i++) f *= i;
          const lhs = stumpff(k, t);
          const rhs = 1 / f - t * stumpff(k + 2, t);
          const scale = Math.max(Math.abs(lhs), 1 / f, Math.abs(t * stumpff(k + 2, t)));
          worstRecurrence = Math.max(worstRecurrence, Math.abs(lhs - rhs) / scale);
          // central difference, h = 1e-5·max(1, |t|)
          const h = 1e-5 * Math.max(1, Math.abs(t));
          const fd = (stumpff(k, t + h) - stumpff(k, t - h)) / (2 * h);
          const d = stumpffDerivative(k, t);
          worstDerivative = Math.max(
            worstDerivative,
            Math.abs(d - fd) / Math.max(Math.abs(d), 1e-3 * Math.abs(lhs)),
          );
        },
      ),
      { numRuns: 500 },
    );
    // measured 3.3e-16 (rounding) and 6.5e-10 (difference truncation and rounding)
    expect(worstRecurrence).toBeLessThan(4 * Number.EPSILON);
    expect(worstDerivative).toBeLessThan(1e-7);
  });

  it('NumberOps and DualOps implement stumpff with the derivative rule', () => {
    expect(NumberOps.stumpff(1, 0.25)).toBe(stumpff(1, 0.25));
    const y = DualOps.stumpff(3, Dual.variable(0.7, 0, 1));
    expect(y.value).toBe(stumpff(3, 0.7));
    expect(y.d(0)).toBe(stumpffDerivative(3, 0.7));
    // at θ = 0 the derivatives are finite: d c₁/dt(0) = −1/6, d c₂/dt(0) = −1/24
    expect(DualOps.stumpff(1, Dual.variable(0, 0, 1)).d(0)).toBeCloseTo(-1 / 6, 16);
    expect(DualOps.stumpff(2, Dual.variable(0, 0, 1)).d(0)).toBeCloseTo(-1 / 24, 16);
  });

  it('stumpffTo writes in place; orders are checked; NaN propagates', () => {
    const w = Float64Array.of(0.25, 0);
    stumpffTo(1, w, 0, w, 1);
    expect(w[1]).toBe(stumpff(1, 0.25));
    expect(Number.isNaN(stumpff(2, Number.NaN))).toBe(true);
    expect(() => stumpff(-1, 0)).toThrow(DomainError);
    expect(() => stumpff(41, 0)).toThrow(DomainError);
    expect(() => stumpff(0.5, 0)).toThrow(DomainError);
  });
});
