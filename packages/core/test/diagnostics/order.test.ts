import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convergenceOrder, refinementLevels } from '../../src/diagnostics/order.js';
import { DimensionError, DomainError } from '../../src/errors.js';

describe('convergenceOrder', () => {
  it('recovers p and C of exact power laws e = C·h^p to 1e-9', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 8, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.integer({ min: 3, max: 8 }),
        (p, log10C, levels) => {
          const C = 10 ** log10C;
          const { h } = refinementLevels(1, 4, levels);
          const errors = h.map((hk) => C * hk ** p);
          // keep every point above the default floor for this property
          fc.pre(errors.every((e) => e >= 1e-13));
          const r = convergenceOrder(h, errors);
          expect(Math.abs(r.order - p)).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(r.intercept - Math.log(C))).toBeLessThanOrEqual(1e-8);
          expect(r.residual).toBeLessThanOrEqual(1e-10);
          expect(r.used).toEqual(h.map((_, k) => k));
        },
      ),
    );
  });

  it('with multiplicative noise |ε| ≤ 5% on 5 halvings, |p̂ − p| ≤ 0.043 (the worst case of the fit)', () => {
    // slope error = Σ dxₖ·δₖ / Σ dxₖ² with dx = ln2·(−2..2), |δ| ≤ ln 1.05:
    // bound = ln(1.05)·6 ln2 / (10 ln²2) = 0.0422
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 6, noNaN: true }),
        fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: 5, maxLength: 5 }),
        (p, noise) => {
          const { h } = refinementLevels(2, 10, 5);
          const errors = h.map((hk, k) => 0.7 * hk ** p * (1 + noise[k]!));
          const r = convergenceOrder(h, errors);
          expect(Math.abs(r.order - p)).toBeLessThanOrEqual(0.043);
        },
      ),
    );
  });

  it('the residual is the RMS log-residual of the fit', () => {
    // ln e = [0, 1, 0] at ln h = [0, 1, 2] → slope 0, intercept 1/3, residuals −1/3, 2/3, −1/3
    const r = convergenceOrder([1, Math.E, Math.E ** 2], [1, Math.E, 1]);
    expect(Math.abs(r.order)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.intercept - 1 / 3)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.residual - Math.sqrt(6 / 27))).toBeLessThanOrEqual(1e-15);
  });

  it('drops errors below the floor (round-off plateau) and reports which points were used', () => {
    const { h } = refinementLevels(1, 8, 6);
    // 50·h⁸ = 3.0e-6, 1.2e-8, 4.5e-11, 1.8e-13, then a round-off plateau at 3e-15
    const errors = h.map((hk) => Math.max(50 * hk ** 8, 3e-15));
    const r = convergenceOrder(h, errors);
    expect(r.used).toEqual([0, 1, 2, 3]);
    expect(Math.abs(r.order - 8)).toBeLessThanOrEqual(1e-9);
    // with the floor disabled the plateau flattens the slope far from 8
    expect(convergenceOrder(h, errors, { floor: 0 }).order).toBeLessThan(7);
    // an exact zero is always dropped
    const z = convergenceOrder([0.4, 0.2, 0.1, 0.05], [1e-3, 1e-4, 1e-5, 0], { floor: 0 });
    expect(z.used).toEqual([0, 1, 2]);
  });

  it('rejects fewer than minPoints usable points', () => {
    expect(() => convergenceOrder([0.1, 0.05], [1e-3, 1e-4])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1e-3, 1e-14, 1e-15])).toThrow(DomainError);
    expect(convergenceOrder([0.1, 0.05], [1e-3, 1e-4], { minPoints: 2 }).order).toBeCloseTo(
      Math.log(10) / Math.log(2),
      12,
    );
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, 2, 3], { minPoints: 4 })).toThrow(
      DomainError,
    );
  });

  it('rejects invalid inputs', () => {
    expect(() => convergenceOrder([0.1, 0, 0.025], [1, 2, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, -0.05, 0.025], [1, 2, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, Number.NaN, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, Number.NaN, 0.025], [1, 2, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, -2, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, Number.POSITIVE_INFINITY, 3])).toThrow(
      DomainError,
    );
    expect(() => convergenceOrder([0.1, 0.1, 0.1], [1, 2, 3])).toThrow(DomainError);
    expect(() => convergenceOrder([0.1, 0.05], [1, 2, 3])).toThrow(DimensionError);
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, 2, 3], { floor: -1 })).toThrow(
      DomainError,
    );
    expect(() => convergenceOrder([0.1, 0.05, 0.025], [1, 2, 3], { minPoints: 1 })).toThrow(
      DomainError,
    );
  });
});

describe('refinementLevels', () => {
  it('gives h_k = T/(n0·2^k) and n0·2^k steps', () => {
    const r = refinementLevels(2 * Math.PI, 16, 4);
    expect(r.steps).toEqual([16, 32, 64, 128]);
    expect(r.h).toEqual([16, 32, 64, 128].map((n) => (2 * Math.PI) / n));
    // step counts reproduce T exactly in exact arithmetic: n·h = T to round-off
    for (let k = 0; k < r.h.length; k++) {
      expect(Math.abs(r.h[k]! * r.steps[k]! - 2 * Math.PI)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('rejects bad arguments', () => {
    expect(() => refinementLevels(0, 10, 3)).toThrow(DomainError);
    expect(() => refinementLevels(Number.POSITIVE_INFINITY, 10, 3)).toThrow(DomainError);
    expect(() => refinementLevels(1, 0, 3)).toThrow(DomainError);
    expect(() => refinementLevels(1, 1.5, 3)).toThrow(DomainError);
    expect(() => refinementLevels(1, 10, 0)).toThrow(DomainError);
    expect(() => refinementLevels(1, 10, 60)).toThrow(DomainError);
  });
});
