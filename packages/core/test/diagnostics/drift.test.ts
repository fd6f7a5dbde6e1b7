import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { driftStats } from '../../src/diagnostics/drift.js';
import { DimensionError, DomainError, NonFiniteError } from '../../src/errors.js';

describe('driftStats', () => {
  it('a constant sequence has no drift', () => {
    const s = driftStats([2.5, 2.5, 2.5, 2.5]);
    expect(s).toEqual({
      reference: 2.5,
      maxAbsDeviation: 0,
      maxRelDeviation: 0,
      rmsDeviation: 0,
      final: 0,
      linearTrend: 0,
    });
  });

  it('a linear drift v_k = a + b·k: trend b, final b(N−1), rms |b|·√((N−1)(2N−1)/6)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 10, noNaN: true }),
        fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
        fc.integer({ min: 2, max: 200 }),
        (a, b, N) => {
          const v = Array.from({ length: N }, (_, k) => a + b * k);
          const s = driftStats(v);
          const tol = 1e-12;
          expect(s.reference).toBe(a);
          expect(Math.abs(s.linearTrend - b)).toBeLessThanOrEqual(tol);
          expect(Math.abs(s.final - b * (N - 1))).toBeLessThanOrEqual(tol * N);
          expect(Math.abs(s.maxAbsDeviation - Math.abs(b) * (N - 1))).toBeLessThanOrEqual(tol * N);
          expect(Math.abs(s.maxRelDeviation - (Math.abs(b) * (N - 1)) / a)).toBeLessThanOrEqual(
            tol * N,
          );
          const rms = Math.abs(b) * Math.sqrt(((N - 1) * (2 * N - 1)) / 6);
          expect(Math.abs(s.rmsDeviation - rms)).toBeLessThanOrEqual(tol * N);
        },
      ),
    );
  });

  it('the trend uses the given times: slope per unit time', () => {
    const times = [0, 0.1, 0.3, 0.35, 1.2, 2];
    const v = times.map((t) => 1 - 0.004 * t);
    const s = driftStats(v, { times });
    expect(Math.abs(s.linearTrend + 0.004)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(s.final + 0.008)).toBeLessThanOrEqual(1e-15);
  });

  it('an oscillation about the reference over whole periods: known rms, max, final and trend', () => {
    // E_k = E0 + A·sin(2πk/M), k = 0..4M (four whole periods plus the endpoint, where sin = 0)
    const E0 = -0.5;
    const A = 1e-6;
    const M = 25;
    const N = 4 * M + 1;
    const v = Array.from({ length: N }, (_, k) => E0 + A * Math.sin((2 * Math.PI * k) / M));
    const s = driftStats(v, { reference: E0 });
    // storing E0 + A·sin rounds each deviation by up to ulp(0.5)/2 ≈ 5.6e-17
    const ulp = 2e-16;
    // Σ sin² over whole periods = 4M/2
    expect(Math.abs(s.rmsDeviation - A * Math.sqrt((4 * M) / 2 / N))).toBeLessThanOrEqual(ulp);
    // the sample nearest a crest is k = 6 (2π·6/25 ≈ 0.96·π/2)
    expect(Math.abs(s.maxAbsDeviation - A * Math.sin((2 * Math.PI * 6) / M))).toBeLessThanOrEqual(
      ulp,
    );
    expect(Math.abs(s.maxRelDeviation - s.maxAbsDeviation / 0.5)).toBeLessThanOrEqual(1e-20);
    expect(Math.abs(s.final)).toBeLessThanOrEqual(ulp);
    // Σ (k − k̄)·A sin(2πk/M) = −A·(4M/2)·cot(π/M) and Σ (k − k̄)² = N(N² − 1)/12
    const trend = (-A * ((4 * M) / 2) * (1 / Math.tan(Math.PI / M))) / ((N * (N * N - 1)) / 12);
    expect(trend).toBeCloseTo(-4.6e-9, 10); // small next to the amplitude: bounded, no secular drift
    expect(Math.abs(s.linearTrend - trend)).toBeLessThanOrEqual(1e-3 * Math.abs(trend));
  });

  it('an explicit reference shifts the deviations but not the trend', () => {
    const v = [1, 1.5, 0.5, 2];
    const a = driftStats(v);
    const b = driftStats(v, { reference: 0.9 });
    expect(b.reference).toBe(0.9);
    expect(b.final).toBeCloseTo(1.1, 15);
    expect(b.maxAbsDeviation).toBeCloseTo(1.1, 15);
    expect(b.linearTrend).toBe(a.linearTrend);
    expect(a.maxAbsDeviation).toBe(1);
  });

  it('a zero reference gives maxRelDeviation = Infinity (or 0 when nothing moves)', () => {
    expect(driftStats([0, 1e-9]).maxRelDeviation).toBe(Number.POSITIVE_INFINITY);
    expect(driftStats([0, 0]).maxRelDeviation).toBe(0);
  });

  it('rejects bad inputs', () => {
    expect(() => driftStats([1])).toThrow(DomainError);
    expect(() => driftStats([1, Number.NaN])).toThrow(NonFiniteError);
    expect(() => driftStats([1, 2], { times: [0] })).toThrow(DimensionError);
    expect(() => driftStats([1, 2], { times: [0, Number.POSITIVE_INFINITY] })).toThrow(
      NonFiniteError,
    );
    expect(() => driftStats([1, 2], { times: [3, 3] })).toThrow(DomainError);
    expect(() => driftStats([1, 2], { reference: Number.NaN })).toThrow(DomainError);
  });
});
