import {
  cayleyRetraction,
  DomainError,
  Dual,
  DualOps,
  expRetraction,
  NumberOps,
  ProductGroup,
  Rn,
  SE2,
  SE3,
  SE23,
  SO2,
  SO3,
} from '@geomech/core';
import { randomElement, rng } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { cayleyCoordinates, ocpFactor, ocpFactors } from '../../src/ocp/factors.js';

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

describe('OcpFactor: generic group operations agree with core (numbers)', () => {
  for (const G of [SO2, SO3, SE2, SE3, Rn(3)]) {
    const f = ocpFactor(G);
    it(`${G.name}: compose, inverse, identity, cay, exp, cay⁻¹ (≤ 1e-14)`, () => {
      const r = rng(7);
      const cay = cayleyRetraction(G);
      const ex = expRetraction(G);
      for (let trial = 0; trial < 20; trial++) {
        const a = randomElement(G, r);
        const b = randomElement(G, r);
        const ab = G.compose(new Float64Array(G.storageSize), a, b);
        expect(maxDiff(f.compose(NumberOps, Array.from(a), Array.from(b)), ab)).toBeLessThan(1e-14);
        const ai = G.inverse(new Float64Array(G.storageSize), a);
        expect(maxDiff(f.inverse(NumberOps, Array.from(a)), ai)).toBeLessThan(1e-14);
        const v = Float64Array.from({ length: G.dim }, () => 2 * r() - 1);
        const c = cay.tau(new Float64Array(G.storageSize), v);
        expect(maxDiff(f.tau(NumberOps, Array.from(v), 'cayley'), c)).toBeLessThan(1e-14);
        const e = ex.tau(new Float64Array(G.storageSize), v);
        expect(maxDiff(f.tau(NumberOps, Array.from(v), 'exp'), e)).toBeLessThan(1e-14);
        // cay⁻¹ inverts cay, and its margin is positive there
        expect(maxDiff(f.cayInv(NumberOps, Array.from(c)), v)).toBeLessThan(1e-13);
        const m = f.cayInvMargin(NumberOps, Array.from(c));
        if (G !== Rn(3)) expect(m).toBeGreaterThan(0);
      }
      expect(maxDiff(f.identity(NumberOps), G.identity(new Float64Array(G.storageSize)))).toBe(0);
    });
    it(`${G.name}: taylor(v) = I + v̂ + v̂²/2 matches cay and exp to second order at 0`, () => {
      // first and second derivatives at v = 0 along a random direction w, by dual numbers of
      // dual numbers is overkill: compare the Taylor polynomial against cay(tw) for small t:
      // the difference is O(t³) (slope 3 in log-log)
      const r = rng(11);
      const w = Float64Array.from({ length: G.dim }, () => 2 * r() - 1);
      const errs: number[] = [];
      for (const t of [1e-2, 5e-3]) {
        const v = Array.from(w, (x) => t * x);
        const T = f.taylor(NumberOps, v);
        errs.push(
          Math.max(
            maxDiff(T, f.tau(NumberOps, v, 'cayley')),
            maxDiff(T, f.tau(NumberOps, v, 'exp')),
          ),
        );
      }
      if (G.dim === G.storageSize) {
        // Rⁿ: exact
        expect(errs).toEqual([0, 0]);
        return;
      }
      // halving t divides an O(t³) error by 8 (measured 7.9–8.1)
      expect(errs[0]! / errs[1]!).toBeGreaterThan(7);
      expect(errs[0]!).toBeLessThan(1e-5);
    });
  }
  it('exp has no branch at 0: dual derivatives of Exp at v = 0 are the hat matrices', () => {
    const f = ocpFactor(SO3);
    for (let j = 0; j < 3; j++) {
      const v = [0, 1, 2].map((i) => (i === j ? Dual.variable(0, 0, 1) : Dual.constant(0)));
      const E = f.tau(DualOps, v, 'exp');
      const hat = SO3.hat(
        new Float64Array(9),
        Float64Array.from([0, 1, 2], (i) => (i === j ? 1 : 0)),
      );
      expect(
        maxDiff(
          E.map((e) => e.d(0)),
          hat,
        ),
      ).toBe(0);
    }
  });
  it('ocpFactors flattens products; unsupported groups throw DomainError', () => {
    expect(ocpFactors([Rn(2), SO3]).map((f) => f.kind)).toEqual(['Rn', 'SO3']);
    expect(ocpFactors(new ProductGroup([SE2, Rn(1)])).map((f) => f.kind)).toEqual(['SE2', 'Rn']);
    expect(() => ocpFactor(SE23)).toThrow(DomainError);
    expect(() => ocpFactors([])).toThrow(DomainError);
  });
  it('cayleyCoordinates(ref, x) = cay⁻¹(ref⁻¹x): 0 at x = ref, 2 tan(θ/2) about an axis', () => {
    const ref = Array.from(SO3.exp(new Float64Array(9), Float64Array.of(0.3, -0.2, 0.1)));
    expect(maxDiff(cayleyCoordinates(NumberOps, SO3, ref, ref), [0, 0, 0])).toBeLessThan(1e-15);
    const R = Array.from(SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 0.2)));
    const I = Array.from(SO3.identity(new Float64Array(9)));
    expect(
      maxDiff(cayleyCoordinates(NumberOps, SO3, R, I), [0, 0, 2 * Math.tan(0.1)]),
    ).toBeLessThan(1e-15);
  });
});
