import { coAdjoint, DimensionError, DomainError, Rn, SE2, SE3, SO3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { rng as mulberry32 } from '../../core/test/support/random.js';
import { CotangentGroupoid } from '../src/cotangent.js';
import { LieGroupGroupoid } from '../src/lieGroupGroupoid.js';
import { NotComposableError, PairGroupoid } from '../src/pair.js';
import { plateBallGroupoid, timeExtended } from '../src/product.js';
import type { LieGroupoid } from '../src/types.js';
import { covectorWithSource, describeLieGroupoid, relErr } from './support/describeLieGroupoid.js';

const cotangent = { parts: ['cotangent'] } as const;

describeLieGroupoid('Pair(R^3)', new PairGroupoid(3), cotangent);
describeLieGroupoid('SO3', new LieGroupGroupoid(SO3), cotangent);
describeLieGroupoid('SE2', new LieGroupGroupoid(SE2), cotangent);
describeLieGroupoid('SE3', new LieGroupGroupoid(SE3), cotangent);
describeLieGroupoid('R^2', new LieGroupGroupoid(Rn(2)), cotangent);
describeLieGroupoid('plate-ball Pair(R^2) x SO3', plateBallGroupoid(), cotangent);
describeLieGroupoid('timeExtended(SO3)', timeExtended(new LieGroupGroupoid(SO3)), cotangent);
describeLieGroupoid('timeExtended(Pair(R^2))', timeExtended(new PairGroupoid(2)), cotangent);

const f64 = (...x: number[]) => Float64Array.from(x);

describe('pair groupoid T*(Q×Q) ⇒ T*Q closed forms (spec 003 §3.5(a))', () => {
  const T = new CotangentGroupoid(new PairGroupoid(2));
  // µ = (q0, q1; p0, p1) with q0 = (0, 1), q1 = (2, 3), p0 = (4, 5), p1 = (6, 7)
  const g = f64(0, 1, 2, 3);
  const mu = f64(4, 5, 6, 7);

  it('α̃(µ) = (q0, −p0), β̃(µ) = (q1, p1)', () => {
    const a = T.cotSource(g, mu);
    const b = T.cotTarget(g, mu);
    expect([Array.from(a.base), Array.from(a.p)]).toEqual([
      [0, 1],
      [-4, -5],
    ]);
    expect([Array.from(b.base), Array.from(b.p)]).toEqual([
      [2, 3],
      [6, 7],
    ]);
  });

  it('m̃((q0,q1;a,b),(q1,q2;−b,c)) = (q0,q2;a,c)', () => {
    const g2 = f64(2, 3, 8, 9);
    const mu2 = f64(-6, -7, 10, 11);
    const m = T.cotMultiply(g, mu, g2, mu2);
    expect(Array.from(m.g)).toEqual([0, 1, 8, 9]);
    expect(Array.from(m.mu)).toEqual([4, 5, 10, 11]);
  });

  it('ε̃(q, p) = (q, q; −p, p) and ĩ(q0, q1; a, b) = (q1, q0; −b, −a)', () => {
    const e = T.cotIdentity({ base: f64(1, 2), p: f64(3, 4) });
    expect(Array.from(e.g)).toEqual([1, 2, 1, 2]);
    expect(Array.from(e.mu)).toEqual([-3, -4, 3, 4]);
    const i = T.cotInverse(g, mu);
    expect(Array.from(i.g)).toEqual([2, 3, 0, 1]);
    expect(Array.from(i.mu)).toEqual([-6, -7, -4, -5]);
  });

  it('the generic fallback reproduces them (measured ≤ 8.5e-13)', () => {
    const Tg = new CotangentGroupoid(new PairGroupoid(2), { method: 'generic' });
    const m = Tg.cotMultiply(g, mu, f64(2, 3, 8, 9), f64(-6, -7, 10, 11));
    expect(relErr(m.mu, f64(4, 5, 10, 11))).toBeLessThan(2e-11);
    expect(
      relErr(Tg.cotIdentity({ base: f64(1, 2), p: f64(3, 4) }).mu, f64(-3, -4, 3, 4)),
    ).toBeLessThan(2e-11);
    expect(relErr(Tg.cotInverse(g, mu).mu, f64(-6, -7, -4, -5))).toBeLessThan(2e-11);
  });
});

describe('Lie group T*G ≅ G ⋉ 𝔤* (spec 003 §3.5(b))', () => {
  it('β̃(µ) = Ad*_g α̃(µ) with Ad*_g = Ad_gᵀ; on SO(3) α̃(µ) = g·β̃(µ) (spatial = g·body)', () => {
    const rng = mulberry32(31);
    let err = 0;
    for (const L of [SO3, SE2, SE3]) {
      const G = new LieGroupGroupoid(L);
      const T = new CotangentGroupoid(G);
      for (let k = 0; k < 10; k++) {
        const g = G.random(new Float64Array(G.arrowDim), rng);
        const mu = Float64Array.from({ length: G.dim }, () => 2 * rng() - 1);
        const a = T.cotSource(g, mu).p;
        const b = T.cotTarget(g, mu).p;
        err = Math.max(err, relErr(b, coAdjoint(L, new Float64Array(G.dim), g, a)));
        if (L === SO3) {
          const spatial = new Float64Array(3);
          for (let i = 0; i < 3; i++)
            spatial[i] = g[3 * i]! * b[0]! + g[3 * i + 1]! * b[1]! + g[3 * i + 2]! * b[2]!;
          err = Math.max(err, relErr(a, spatial));
        }
      }
    }
    // measured 3.3e-16
    expect(err).toBeLessThan(1e-14);
  });

  it('m̃ keeps the body momentum of µ2, which is the spatial momentum of µ1 carried to g1g2', () => {
    const G = new LieGroupGroupoid(SO3);
    const T = new CotangentGroupoid(G);
    const rng = mulberry32(32);
    const g1 = G.random(new Float64Array(9), rng);
    const g2 = G.random(new Float64Array(9), rng);
    const mu1 = f64(0.3, -0.1, 0.8);
    const mu2 = covectorWithSource(G, g2, T.cotTarget(g1, mu1).p, f64(9, 9, 9));
    const m = T.cotMultiply(g1, mu1, g2, mu2);
    expect(Array.from(m.mu)).toEqual(Array.from(mu2));
    // α̃(m̃) = α̃(µ1): the spatial momentum is preserved (measured 3e-15)
    expect(relErr(T.cotSource(m.g, m.mu).p, T.cotSource(g1, mu1).p)).toBeLessThan(1e-13);
  });
});

describe('CotangentGroupoid API', () => {
  it('products work componentwise: plate-ball α̃ = (x0, y0; −p0, Ad_{g⁻¹}ᵀπ)', () => {
    const P = plateBallGroupoid();
    const T = new CotangentGroupoid(P);
    const rng = mulberry32(41);
    const g = P.random(new Float64Array(13), rng);
    const mu = f64(1, 2, 3, 4, 0.5, -0.5, 0.25);
    const a = T.cotSource(g, mu);
    const R = g.subarray(4);
    // Ad_{R⁻¹}ᵀ = R: p = R·π
    const Rpi = [0, 1, 2].map((i) => R[3 * i]! * 0.5 - R[3 * i + 1]! * 0.5 + R[3 * i + 2]! * 0.25);
    expect(Array.from(a.base)).toEqual([g[0], g[1]]);
    // measured 0 (the same products)
    expect(relErr(a.p, f64(-1, -2, ...Rpi))).toBeLessThan(1e-15);
    const b = T.cotTarget(g, mu);
    expect(Array.from(b.p)).toEqual([3, 4, 0.5, -0.5, 0.25]);
  });

  it('writes into out (no allocation) and allows out to alias the inputs', () => {
    const G = new LieGroupGroupoid(SE3);
    const T = new CotangentGroupoid(G);
    const rng = mulberry32(42);
    const g1 = G.random(new Float64Array(16), rng);
    const g2 = G.random(new Float64Array(16), rng);
    const mu1 = Float64Array.from({ length: 6 }, () => rng() - 0.5);
    const mu2 = covectorWithSource(G, g2, T.cotTarget(g1, mu1).p, new Float64Array(6));
    const expected = T.cotMultiply(g1, mu1, g2, mu2);
    const out = { g: g2, mu: mu2 };
    expect(T.cotMultiply(g1, mu1, g2, mu2, out)).toBe(out);
    expect(Array.from(out.g)).toEqual(Array.from(expected.g));
    expect(Array.from(out.mu)).toEqual(Array.from(expected.mu));
    const a = T.newAStar();
    expect(T.cotSource(g1, mu1, a)).toBe(a);
  });

  it('groupoids without a closed form use the generic fallback (a wrapped pair groupoid)', () => {
    const inner = new PairGroupoid(2);
    // the same groupoid behind an object that is not a PairGroupoid instance
    const wrapped: LieGroupoid = {
      name: 'wrapped',
      dim: 4,
      arrowDim: 4,
      baseDim: 2,
      rank: 2,
      composableTol: 1e-12,
      source: (o, g) => inner.source(o, g),
      target: (o, g) => inner.target(o, g),
      gap: (g, h) => inner.gap(g, h),
      isComposable: (g, h) => inner.isComposable(g, h),
      multiply: (o, g, h) => inner.multiply(o, g, h),
      identityAt: (o, q) => inner.identityAt(o, q),
      inverse: (o, g) => inner.inverse(o, g),
      chart: (o, g, x) => inner.chart(o, g, x),
      chartInverse: (o, g, k) => inner.chartInverse(o, g, k),
      leftField: (o, g, v) => inner.leftField(o, g, v),
      rightField: (o, g, v) => inner.rightField(o, g, v),
      leftRetract: (o, g, v) => inner.leftRetract(o, g, v),
      rightRetract: (o, g, v) => inner.rightRetract(o, g, v),
      anchor: (o, q, v) => inner.anchor(o, q, v),
      bracket: (o, q, x, y) => inner.bracket(o, q, x, y),
      random: (o, rng) => inner.random(o, rng),
      randomAfter: (o, g, rng) => inner.randomAfter(o, g, rng),
    };
    const T = new CotangentGroupoid(wrapped);
    const m = T.cotMultiply(f64(0, 1, 2, 3), f64(4, 5, 6, 7), f64(2, 3, 8, 9), f64(-6, -7, 10, 11));
    // measured 8.5e-13
    expect(relErr(m.mu, f64(4, 5, 10, 11))).toBeLessThan(2e-11);
  });

  it('throws typed errors', () => {
    const G = new PairGroupoid(1);
    const T = new CotangentGroupoid(G);
    expect(() => T.cotSource(f64(0, 1), f64(1))).toThrow(DimensionError);
    expect(() => T.cotIdentity({ base: f64(0, 1), p: f64(1) })).toThrow(DimensionError);
    expect(() => T.cotMultiply(f64(0, 1), f64(2, 5), f64(1, 3), f64(-4, 7))).toThrow(
      NotComposableError,
    );
    expect(T.cotGap(f64(0, 1), f64(2, 5), f64(1, 3), f64(-4, 7))).toBe(1);
    expect(() => new CotangentGroupoid(G, { momentumTol: -1 })).toThrow(DomainError);
    expect(() => new CotangentGroupoid(G, { step: 0 })).toThrow(DomainError);
  });
});
