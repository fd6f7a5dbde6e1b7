import { Rn } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LieGroupPairGroupoid, NotComposableError, PairGroupoid } from '../src/index.js';

const n = 3;
const G = new PairGroupoid(n);
const point = fc.float64Array({
  minLength: n,
  maxLength: n,
  noNaN: true,
  noDefaultInfinity: true,
  min: -1e3,
  max: 1e3,
});
const arrow = (a: Float64Array, b: Float64Array) => Float64Array.from([...a, ...b]);

describe('PairGroupoid axioms (spec 003 §3.1, §3.5(a))', () => {
  it('α(gh) = α(g), β(gh) = β(h) and associativity, exactly', () => {
    fc.assert(
      fc.property(point, point, point, point, (a, b, c, d) => {
        const g = arrow(a, b);
        const h = arrow(b, c);
        const k = arrow(c, d);
        const gh = G.multiply(new Float64Array(2 * n), g, h);
        expect(Array.from(G.source(new Float64Array(n), gh))).toEqual(Array.from(a));
        expect(Array.from(G.target(new Float64Array(n), gh))).toEqual(Array.from(c));
        const left = G.multiply(new Float64Array(2 * n), gh, k);
        const right = G.multiply(
          new Float64Array(2 * n),
          g,
          G.multiply(new Float64Array(2 * n), h, k),
        );
        expect(Array.from(left)).toEqual(Array.from(right));
      }),
      { numRuns: 200 },
    );
  });

  it('identities and inverses: ε(α(g))g = g = gε(β(g)), g g⁻¹ = ε(α(g)), g⁻¹g = ε(β(g))', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const g = arrow(a, b);
        const eA = G.identityAt(new Float64Array(2 * n), a);
        const eB = G.identityAt(new Float64Array(2 * n), b);
        expect(Array.from(G.multiply(new Float64Array(2 * n), eA, g))).toEqual(Array.from(g));
        expect(Array.from(G.multiply(new Float64Array(2 * n), g, eB))).toEqual(Array.from(g));
        const gi = G.inverse(new Float64Array(2 * n), g);
        expect(Array.from(G.multiply(new Float64Array(2 * n), g, gi))).toEqual(Array.from(eA));
        expect(Array.from(G.multiply(new Float64Array(2 * n), gi, g))).toEqual(Array.from(eB));
      }),
      { numRuns: 200 },
    );
  });

  it('rejects non-composable products with the gap', () => {
    const g = Float64Array.of(0, 0, 0, 1, 1, 1);
    const h = Float64Array.of(1, 1, 1.5, 2, 2, 2);
    expect(G.isComposable(g, h)).toBe(false);
    expect(() => G.multiply(new Float64Array(6), g, h)).toThrow(NotComposableError);
    try {
      G.multiply(new Float64Array(6), g, h);
    } catch (e) {
      expect((e as NotComposableError).gap).toBe(0.5);
    }
  });

  it('rank of the algebroid is dim G − dim Q = n', () => {
    expect(G.rank).toBe(3);
    expect(G.arrowDim - G.baseDim).toBe(G.rank);
  });

  it('trivialized gradients of L(q0,q1) = |q1 − q0|²/2 match ←e[L] = D2L, →e[L] = −D1L by differences (1e-9)', () => {
    const q0 = Float64Array.of(0.3, -1, 2);
    const q1 = Float64Array.of(1, 0.5, -0.25);
    const L = (a: Float64Array, b: Float64Array) =>
      0.5 * a.reduce((s, x, i) => s + (b[i]! - x) ** 2, 0);
    const D1 = q0.map((x, i) => x - q1[i]!);
    const D2 = q1.map((x, i) => x - q0[i]!);
    const left = G.leftGrad(new Float64Array(n), D2);
    const right = G.rightGrad(new Float64Array(n), D1);
    const eps = 1e-6;
    for (let i = 0; i < n; i++) {
      // ←e_i moves the target end along +e_i; →e_i moves the source end along −e_i (spec 003 §3.5(a))
      const q1p = q1.slice();
      q1p[i]! += eps;
      const q1m = q1.slice();
      q1m[i]! -= eps;
      expect(Math.abs((L(q0, q1p) - L(q0, q1m)) / (2 * eps) - left[i]!)).toBeLessThan(1e-9);
      const q0p = q0.slice();
      q0p[i]! -= eps;
      const q0m = q0.slice();
      q0m[i]! += eps;
      expect(Math.abs((L(q0p, q1) - L(q0m, q1)) / (2 * eps) - right[i]!)).toBeLessThan(1e-9);
    }
  });
});

describe('LieGroupPairGroupoid(Rn(n)) is PairGroupoid(n) (one pair structure, issue 15 D3)', () => {
  const L = new LieGroupPairGroupoid(Rn(n), { randomScale: 2 });
  it('same dimensions, and the same value of every map on random arrows (bit for bit)', () => {
    expect([L.dim, L.arrowDim, L.baseDim, L.rank, L.composableTol]).toEqual([
      G.dim,
      G.arrowDim,
      G.baseDim,
      G.rank,
      G.composableTol,
    ]);
    let a = 0.3;
    const rng = () => {
      a = (a * 9301 + 49297) % 233280;
      return a / 233280;
    };
    let b = 0.3;
    const rng2 = () => {
      b = (b * 9301 + 49297) % 233280;
      return b / 233280;
    };
    for (let s = 0; s < 20; s++) {
      const g = G.random(new Float64Array(2 * n), rng);
      expect(L.random(new Float64Array(2 * n), rng2)).toEqual(g);
      const h = G.randomAfter(new Float64Array(2 * n), g, rng);
      expect(L.randomAfter(new Float64Array(2 * n), g, rng2)).toEqual(h);
      const x = Float64Array.from({ length: 2 * n }, (_, i) => Math.sin(s + i));
      const v = x.subarray(0, n).slice();
      const same = (
        f: (P: PairGroupoid | LieGroupPairGroupoid, out: Float64Array) => unknown,
        len: number,
      ) => {
        const p = new Float64Array(len);
        const q = new Float64Array(len);
        f(G, p);
        f(L, q);
        expect(q).toEqual(p);
      };
      same((P, o) => P.multiply(o, g, h), 2 * n);
      same((P, o) => P.inverse(o, g), 2 * n);
      same((P, o) => P.identityAt(o, v), 2 * n);
      same((P, o) => P.source(o, h), n);
      same((P, o) => P.target(o, h), n);
      same((P, o) => P.chart(o, g, x), 2 * n);
      same((P, o) => P.chartInverse(o, g, h), 2 * n);
      same((P, o) => P.leftField(o, g, v), 2 * n);
      same((P, o) => P.rightField(o, g, v), 2 * n);
      same((P, o) => P.leftRetract(o, g, v), 2 * n);
      same((P, o) => P.rightRetract(o, g, v), 2 * n);
      same((P, o) => P.anchor(o, v, v), n);
      same((P, o) => P.bracket(o, v, v, x.subarray(n)), n);
      same((P, o) => P.leftGrad(o, v), n);
      same((P, o) => P.rightGrad(o, v), n);
      expect(L.gap(g, h)).toBe(G.gap(g, h));
      expect(L.isComposable(g, h)).toBe(true);
    }
  });
});
