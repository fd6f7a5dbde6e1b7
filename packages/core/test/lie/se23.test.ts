import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { SE3 } from '../../src/lie/se3.js';
import { SE23 } from '../../src/lie/se23.js';
import { describeLieGroup, maxAbsDiff, rng } from '../../src/testing/index.js';

describeLieGroup(SE23);

describe('SE_2(3) against SE(3)', () => {
  /** The SE(3) element (R, p) of an SE₂(3) element, and (R, v). */
  const pose = (X: Float64Array, col: 3 | 4) =>
    Float64Array.of(
      X[0]!,
      X[1]!,
      X[2]!,
      X[col]!,
      X[5]!,
      X[6]!,
      X[7]!,
      X[5 + col]!,
      X[10]!,
      X[11]!,
      X[12]!,
      X[10 + col]!,
      0,
      0,
      0,
      1,
    );

  it('(R, p) and (R, v) multiply, invert, exp and log as SE(3) with [ρ, θ] and [ν, θ] (1e-15)', () => {
    const r = rng(5);
    for (let k = 0; k < 50; k++) {
      const A = SE23.random(new Float64Array(25), r);
      const B = SE23.random(new Float64Array(25), r);
      const AB = SE23.compose(new Float64Array(25), A, B);
      const Ai = SE23.inverse(new Float64Array(25), A);
      for (const col of [3, 4] as const) {
        const viaSE3 = SE3.compose(new Float64Array(16), pose(A, col), pose(B, col));
        expect(maxAbsDiff(pose(AB, col), viaSE3)).toBeLessThan(1e-15 * 8);
        expect(maxAbsDiff(pose(Ai, col), SE3.inverse(new Float64Array(16), pose(A, col)))).toBe(0);
      }
      const tau = Float64Array.from({ length: 9 }, () => 2 * r() - 1);
      const E = SE23.exp(new Float64Array(25), tau);
      const e1 = SE3.exp(new Float64Array(16), tau.subarray(0, 6).slice());
      const e2 = SE3.exp(
        new Float64Array(16),
        Float64Array.of(tau[6]!, tau[7]!, tau[8]!, tau[3]!, tau[4]!, tau[5]!),
      );
      expect(maxAbsDiff(pose(E, 3), e1)).toBeLessThan(1e-15);
      expect(maxAbsDiff(pose(E, 4), e2)).toBeLessThan(1e-15);
      // Ad restricted to [ρ, θ] is SE(3)'s Ad
      const Ad = SE23.adj(new Float64Array(81), A);
      const Ad3 = SE3.adj(new Float64Array(36), pose(A, 3));
      for (let i = 0; i < 6; i++)
        for (let j = 0; j < 6; j++) expect(Ad[9 * i + j]).toBeCloseTo(Ad3[6 * i + j]!, 15);
    }
  });

  it('log rejects a non-rotation block with a DomainError', () => {
    const X = SE23.identity(new Float64Array(25));
    X[0] = 2;
    X[6] = 2;
    X[12] = 2;
    expect(() => SE23.log(new Float64Array(9), X)).toThrow(DomainError);
    expect(SE23.isValid(X)).toBe(false);
    expect(SE23.isValid(SE23.normalize(new Float64Array(25), X), 1e-15)).toBe(true);
  });
});
