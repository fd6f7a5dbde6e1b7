import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError } from '../../src/errors.js';
import { Rn, RnGroup } from '../../src/lie/rn.js';
import { describeLieGroup, expmSeries } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

for (const n of [1, 2, 3, 6]) describeLieGroup(Rn(n));

const vec$ = (n: number) =>
  fc
    .array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: n, maxLength: n })
    .map((a) => Float64Array.from(a));

const eye = (n: number) => {
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  return m;
};

describe('R^n as a Lie group', () => {
  it('Rn(n) caches one instance per n; sizes and name follow n', () => {
    expect(Rn(3)).toBe(Rn(3));
    expect(Rn(3)).not.toBe(Rn(4));
    const G = Rn(4);
    expect(G).toBeInstanceOf(RnGroup);
    expect([G.name, G.dim, G.storageSize, G.matrixSize, G.actionDim]).toEqual(['R^4', 4, 4, 5, 4]);
  });

  it('rejects n that is not a positive integer with a DomainError', () => {
    for (const n of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RnGroup(n)).toThrow(DomainError);
      expect(() => Rn(n)).toThrow(DomainError);
    }
  });

  it('hat puts τ in the last column; toMatrix is the homogeneous translation; vee/fromMatrix invert', () => {
    const G = Rn(2);
    const tau = Float64Array.of(3, -4);
    expect(Array.from(G.hat(new Float64Array(9).fill(7), tau))).toEqual([
      0, 0, 3, 0, 0, -4, 0, 0, 0,
    ]);
    expect(Array.from(G.toMatrix(new Float64Array(9).fill(7), tau))).toEqual([
      1, 0, 3, 0, 1, -4, 0, 0, 1,
    ]);
    expect(Array.from(G.vee(new Float64Array(2), G.hat(new Float64Array(9), tau)))).toEqual([
      3, -4,
    ]);
    expect(
      Array.from(G.fromMatrix(new Float64Array(2), G.toMatrix(new Float64Array(9), tau))),
    ).toEqual([3, -4]);
  });

  it('exp is the copy and equals the matrix exponential of hat (exactly: hat² = 0)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer(), (n, seed) => {
        const G = Rn(n);
        const r = rng(seed);
        const tau = Float64Array.from({ length: n }, () => 10 * (2 * r() - 1));
        const X = G.exp(new Float64Array(n), tau);
        expect(Array.from(X)).toEqual(Array.from(tau));
        const M = expmSeries(G.hat(new Float64Array((n + 1) ** 2), tau), n + 1);
        const T = G.toMatrix(new Float64Array((n + 1) ** 2), X);
        for (let i = 0; i < M.length; i++) expect(Math.abs(M[i]! - T[i]!)).toBeLessThan(1e-13);
        expect(Array.from(G.log(new Float64Array(n), X))).toEqual(Array.from(tau));
      }),
    );
  });

  it('compose = +, inverse = −, ⊕/⊖/between are sums and differences, act translates', () => {
    const G = Rn(3);
    fc.assert(
      fc.property(vec$(3), vec$(3), (x, y) => {
        const o = () => new Float64Array(3);
        const sum = Array.from(x, (v, i) => v + y[i]!);
        const diff = Array.from(y, (v, i) => v - x[i]!);
        expect(Array.from(G.compose(o(), x, y))).toEqual(sum);
        expect(Array.from(G.inverse(o(), x))).toEqual(Array.from(x, (v) => -v));
        expect(Array.from(G.rplus(o(), x, y))).toEqual(sum);
        expect(Array.from(G.lplus(o(), y, x))).toEqual(Array.from(y, (v, i) => v + x[i]!));
        expect(Array.from(G.rminus(o(), y, x))).toEqual(diff);
        expect(Array.from(G.lminus(o(), y, x))).toEqual(diff);
        expect(Array.from(G.between(o(), x, y))).toEqual(diff);
        expect(Array.from(G.act(o(), x, y))).toEqual(Array.from(y, (v, i) => v + x[i]!));
        expect(Array.from(G.identity(Float64Array.of(1, 2, 3)))).toEqual([0, 0, 0]);
      }),
    );
  });

  it('Ad = I, ad = 0, J_r = J_l = J_r⁻¹ = J_l⁻¹ = I, matching central differences of Exp', () => {
    const n = 4;
    const G = Rn(n);
    const h = 1e-6;
    fc.assert(
      fc.property(vec$(n), (tau) => {
        const I = Array.from(eye(n));
        const m = () => new Float64Array(n * n).fill(9);
        expect(Array.from(G.adj(m(), tau))).toEqual(I);
        expect(Array.from(G.smallAdj(m(), tau))).toEqual(new Array(n * n).fill(0));
        for (const J of [G.rjac, G.ljac, G.rjacInv, G.ljacInv]) {
          expect(Array.from(J.call(G, m(), tau))).toEqual(I);
        }
        // Column j of J_r: Log(Exp(τ)⁻¹ Exp(τ ± h e_j)) by central differences.
        const Einv = G.inverse(new Float64Array(n), G.exp(new Float64Array(n), tau));
        for (let j = 0; j < n; j++) {
          const p = tau.slice();
          const q = tau.slice();
          p[j] = p[j]! + h;
          q[j] = q[j]! - h;
          const lp = G.log(
            new Float64Array(n),
            G.compose(new Float64Array(n), Einv, G.exp(new Float64Array(n), p)),
          );
          const lq = G.log(
            new Float64Array(n),
            G.compose(new Float64Array(n), Einv, G.exp(new Float64Array(n), q)),
          );
          for (let i = 0; i < n; i++) {
            expect(Math.abs((lp[i]! - lq[i]!) / (2 * h) - (i === j ? 1 : 0))).toBeLessThan(1e-7);
          }
        }
      }),
    );
  });

  it('random draws entries uniform in [−2, 2)', () => {
    const G = Rn(5);
    const r = rng(3);
    let lo = 0;
    let hi = 0;
    for (let k = 0; k < 400; k++) {
      for (const v of G.random(new Float64Array(5), r)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    expect(lo).toBeGreaterThanOrEqual(-2);
    expect(hi).toBeLessThan(2);
    expect(lo).toBeLessThan(-1.95);
    expect(hi).toBeGreaterThan(1.95);
  });

  it('operations write into and return out, allow aliasing, and reject arrays of another length', () => {
    const G = Rn(3);
    const x = Float64Array.of(1, 2, 3);
    const y = Float64Array.of(-1, 0.5, 4);
    const a = x.slice();
    expect(G.compose(a, a, y)).toBe(a);
    expect(Array.from(a)).toEqual([0, 2.5, 7]);
    const b = y.slice();
    expect(G.compose(b, x, b)).toBe(b);
    expect(Array.from(b)).toEqual([0, 2.5, 7]);
    const c = x.slice();
    expect(G.inverse(c, c)).toBe(c);
    expect(Array.from(c)).toEqual([-1, -2, -3]);
    const p = y.slice();
    expect(G.act(p, x, p)).toBe(p);
    expect(Array.from(p)).toEqual([0, 2.5, 7]);
    const out = Float64Array.of(9, 9, 9);
    expect(G.exp(out, x)).toBe(out);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    expect(G.log(out, y)).toBe(out);
    expect(Array.from(out)).toEqual([-1, 0.5, 4]);
    expect(G.identity(out)).toBe(out);
    expect(Array.from(out)).toEqual([0, 0, 0]);
    // exact lengths: a longer `out` is a DimensionError naming the method and argument
    const long = Float64Array.of(9, 9, 9, 9);
    expect(() => G.exp(long, x)).toThrow(DimensionError);
    expect(() => G.exp(long, x)).toThrow('Rn(3).exp: out: expected 3, got 4');
    expect(Array.from(long)).toEqual([9, 9, 9, 9]);
  });
});
