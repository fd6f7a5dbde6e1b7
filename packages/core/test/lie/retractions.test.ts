import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cayleyRetraction, coAdjoint, expRetraction } from '../../src/lie/retractions.js';
import { SE2 } from '../../src/lie/se2.js';
import { SE3 } from '../../src/lie/se3.js';
import { SEn } from '../../src/lie/sen.js';
import { SO2 } from '../../src/lie/so2.js';
import { SO3 } from '../../src/lie/so3.js';
import { so3Cayley } from '../../src/lie/so3Retractions.js';
import type { LieGroup } from '../../src/lie/types.js';
import { describeRetraction } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

const groups: LieGroup[] = [SO2, SE2, SO3, SE3, SEn(4)];
for (const G of groups) {
  describeRetraction(expRetraction(G));
  describeRetraction(cayleyRetraction(G));
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

describe('generic Cayley against the SO(3) closed forms (spec 003 §8.1)', () => {
  const generic = cayleyRetraction(SO3);
  it('cay, cay⁻¹, dcay and dcay⁻¹ agree to 1e-14', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const x = Float64Array.from({ length: 3 }, () => 2 * (2 * r() - 1));
        const g = generic.tau(new Float64Array(9), x);
        expect(maxAbsDiff(g, so3Cayley.tau(new Float64Array(9), x))).toBeLessThan(1e-14);
        expect(maxAbsDiff(generic.tauInv(new Float64Array(3), g), x)).toBeLessThan(1e-13);
        expect(
          maxAbsDiff(generic.dtau(new Float64Array(9), x), so3Cayley.dtau(new Float64Array(9), x)),
        ).toBeLessThan(1e-14);
        expect(
          maxAbsDiff(
            generic.dtauInv(new Float64Array(9), x),
            so3Cayley.dtauInv(new Float64Array(9), x),
          ),
        ).toBeLessThan(1e-14);
      }),
      { numRuns: 200 },
    );
  });

  it('left-trivialized dcay⁻¹ has +x̂/2: at x = (0,0,1), entry (1,0) is +1/2', () => {
    const d = generic.dtauInv(new Float64Array(9), Float64Array.of(0, 0, 1));
    // I + x̂/2 + xxᵀ/4 with x̂ = [[0,−1,0],[1,0,0],[0,0,0]]
    expect(Array.from(d)).toEqual([1, -0.5, 0, 0.5, 1, 0, 0, 0, 1.25]);
  });
});

describe('coadjoint action (spec 003 §2)', () => {
  it('on SO(3) it is gᵀν', () => {
    const g = SO3.random(new Float64Array(9), rng(7));
    const nu = Float64Array.of(0.3, -1.2, 2);
    const out = coAdjoint(SO3, new Float64Array(3), g, nu);
    for (let j = 0; j < 3; j++) {
      const gtnu = g[0 * 3 + j]! * nu[0]! + g[1 * 3 + j]! * nu[1]! + g[2 * 3 + j]! * nu[2]!;
      expect(Math.abs(out[j]! - gtnu)).toBeLessThan(1e-15);
    }
  });

  it('is a right action, Ad*_{XY} = Ad*_Y Ad*_X, and dual to Ad (SE(3), 1e-12)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (s1, s2) => {
        const X = SE3.random(new Float64Array(16), rng(s1));
        const Y = SE3.random(new Float64Array(16), rng(s2));
        const r = rng(s1 ^ s2);
        const nu = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
        const xi = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
        const XY = SE3.compose(new Float64Array(16), X, Y);
        const lhs = coAdjoint(SE3, new Float64Array(6), XY, nu);
        const rhs = coAdjoint(
          SE3,
          new Float64Array(6),
          Y,
          coAdjoint(SE3, new Float64Array(6), X, nu),
        );
        expect(maxAbsDiff(lhs, rhs)).toBeLessThan(1e-12);
        // ⟨Ad*_X ν, ξ⟩ = ⟨ν, Ad_X ξ⟩
        const Ad = SE3.adj(new Float64Array(36), X);
        let left = 0;
        let right = 0;
        const star = coAdjoint(SE3, new Float64Array(6), X, nu);
        for (let i = 0; i < 6; i++) {
          left += star[i]! * xi[i]!;
          let adXi = 0;
          for (let j = 0; j < 6; j++) adXi += Ad[i * 6 + j]! * xi[j]!;
          right += nu[i]! * adXi;
        }
        expect(Math.abs(left - right)).toBeLessThan(1e-12 * (1 + Math.abs(left)));
      }),
      { numRuns: 100 },
    );
  });
});
