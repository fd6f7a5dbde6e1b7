import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { ProductGroup } from '../../src/lie/product.js';
import { Rn } from '../../src/lie/rn.js';
import { SE2 } from '../../src/lie/se2.js';
import { SE3 } from '../../src/lie/se3.js';
import { SEn } from '../../src/lie/sen.js';
import { SO3 } from '../../src/lie/so3.js';
import { SO3Quat } from '../../src/lie/so3quat.js';
import { describeLieGroup, maxAbsDiff, rng } from '../../src/testing/index.js';

const plateBall = new ProductGroup([Rn(2), SO3]);
describeLieGroup(plateBall);
describeLieGroup(new ProductGroup([SE3, Rn(3)]));
describeLieGroup(new ProductGroup([SO3, SO3]));
describeLieGroup(new ProductGroup([SO3Quat, SE2, Rn(1)]), { numRuns: 50 });
describeLieGroup(new ProductGroup([new ProductGroup([SE2, Rn(2)]), SEn(3)]), { numRuns: 30 });

describe('ProductGroup layout', () => {
  it('sizes and offsets are the sums of the factors (R² × SO(3))', () => {
    expect(plateBall.name).toBe('R^2 × SO(3)');
    expect([
      plateBall.dim,
      plateBall.storageSize,
      plateBall.matrixSize,
      plateBall.actionDim,
    ]).toEqual([5, 11, 6, 5]);
    expect([0, 1].map((i) => plateBall.storageOffset(i))).toEqual([0, 2]);
    expect([0, 1].map((i) => plateBall.tangentOffset(i))).toEqual([0, 2]);
    expect([0, 1].map((i) => plateBall.matrixOffset(i))).toEqual([0, 3]);
    expect([0, 1].map((i) => plateBall.actionOffset(i))).toEqual([0, 2]);
    expect(() => plateBall.storageOffset(2)).toThrow(DomainError);
    expect(() => new ProductGroup([])).toThrow(DomainError);
  });

  it('every operation is the factors’ operation on the slices, Jacobians block-diagonal', () => {
    const G = new ProductGroup([SE3, Rn(3)]);
    const r = rng(3);
    const X = G.random(new Float64Array(19), r);
    const tau = Float64Array.from({ length: 9 }, () => 2 * r() - 1);
    const J = new Float64Array(81);
    const Y = G.rplus(new Float64Array(19), X, tau, undefined, J);
    const Y1 = SE3.rplus(new Float64Array(16), X.slice(0, 16), tau.slice(0, 6));
    expect(maxAbsDiff(Y.slice(0, 16), Y1)).toBe(0);
    expect(
      maxAbsDiff(
        Y.slice(16),
        X.slice(16).map((v, i) => v + tau[6 + i]!),
      ),
    ).toBe(0);
    const J1 = SE3.rjac(new Float64Array(36), tau.slice(0, 6));
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 9; j++) {
        const expected = i < 6 && j < 6 ? J1[6 * i + j]! : i >= 6 && j >= 6 ? (i === j ? 1 : 0) : 0;
        expect(J[9 * i + j]).toBe(expected);
      }
    // act on R³ × R³: rigid motion of the first point, translation of the second
    const p = Float64Array.of(1, 2, 3, 4, 5, 6);
    const q = G.act(new Float64Array(6), X, p);
    expect(
      maxAbsDiff(q.slice(0, 3), SE3.act(new Float64Array(3), X.slice(0, 16), p.slice(0, 3))),
    ).toBe(0);
    expect(maxAbsDiff(q.slice(3), Float64Array.of(4 + X[16]!, 5 + X[17]!, 6 + X[18]!))).toBe(0);
  });

  it('isValid is the conjunction of the factors; normalize normalizes each', () => {
    const G = new ProductGroup([Rn(2), SO3Quat]);
    expect(G.isValid(Float64Array.of(1, 2, 1, 0, 0, 0))).toBe(true);
    expect(G.isValid(Float64Array.of(1, 2, 2, 0, 0, 0))).toBe(false);
    expect(G.isValid(Float64Array.of(Number.NaN, 2, 1, 0, 0, 0))).toBe(false);
    expect(Array.from(G.normalize(new Float64Array(6), Float64Array.of(1, 2, 2, 0, 0, 0)))).toEqual(
      [1, 2, 1, 0, 0, 0],
    );
  });
});
