import { DimensionError, DomainError, hat3, mul3, Rn, SE2, SE3, SO2, SO3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { rng as mulberry32 } from '../../core/test/support/random.js';
import {
  conjugationMorphism,
  type GroupoidMorphism,
  LieGroupHomomorphism,
  morphismDefect,
  productProjection,
  rotationPartMorphism,
} from '../src/algebroid.js';
import { LieGroupGroupoid } from '../src/lieGroupGroupoid.js';
import { NotComposableError, PairGroupoid } from '../src/pair.js';
import { ProductGroupoid, plateBallGroupoid, timeExtended } from '../src/product.js';
import { describeLieGroupoid, relErr } from './support/describeLieGroupoid.js';

const structure = { parts: ['structure'] } as const;

describeLieGroupoid('Pair(R^3)', new PairGroupoid(3), structure);
describeLieGroupoid('SO3', new LieGroupGroupoid(SO3), structure);
describeLieGroupoid('SE2', new LieGroupGroupoid(SE2), structure);
describeLieGroupoid('SE3', new LieGroupGroupoid(SE3), structure);
describeLieGroupoid('R^2', new LieGroupGroupoid(Rn(2)), structure);
describeLieGroupoid('plate-ball Pair(R^2) x SO3', plateBallGroupoid(), structure);
describeLieGroupoid('timeExtended(SO3)', timeExtended(new LieGroupGroupoid(SO3)), structure);
describeLieGroupoid('timeExtended(Pair(R^2))', timeExtended(new PairGroupoid(2)), structure);

describe('LieGroupGroupoid (spec 003 §3.5(b))', () => {
  const G = new LieGroupGroupoid(SO3);

  it('is a groupoid over a point with AG = so(3), ρ = 0', () => {
    expect(G.name).toBe('SO3');
    expect([G.dim, G.arrowDim, G.baseDim, G.rank]).toEqual([3, 9, 0, 3]);
    expect(new LieGroupGroupoid(Rn(2)).name).toBe('R^2');
    expect(new LieGroupGroupoid(SE3, { name: 'rigid' }).name).toBe('rigid');
    const e = G.identityAt(new Float64Array(9), []);
    expect(Array.from(e)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('→ξ(g) = ξg has body coordinates Ad_{g⁻¹}ξ = gᵀξ on SO(3); ⟦x, y⟧ = x × y', () => {
    const rng = mulberry32(11);
    const g = G.random(new Float64Array(9), rng);
    const xi = Float64Array.of(0.3, -1.2, 0.5);
    const rf = G.rightField(new Float64Array(3), g, xi);
    // g·hat(rf) = hat(ξ)·g as matrices (measured 1.8e-16)
    const lhs = mul3(new Float64Array(9), g, hat3(new Float64Array(9), rf));
    const rhs = mul3(new Float64Array(9), hat3(new Float64Array(9), xi), g);
    expect(relErr(lhs, rhs)).toBeLessThan(1e-14);
    const y = Float64Array.of(-0.4, 0.1, 2);
    const br = G.bracket(new Float64Array(3), new Float64Array(0), xi, y);
    expect(Array.from(br)).toEqual([
      xi[1]! * y[2]! - xi[2]! * y[1]!,
      xi[2]! * y[0]! - xi[0]! * y[2]!,
      xi[0]! * y[1]! - xi[1]! * y[0]!,
    ]);
  });

  it('random arrows have moderate angles (|Log g| ≤ √3·randomScale)', () => {
    const rng = mulberry32(12);
    const H = new LieGroupGroupoid(SO3, { randomScale: 0.5 });
    let big = 0;
    for (let k = 0; k < 200; k++) {
      const t = SO3.log(new Float64Array(3), H.random(new Float64Array(9), rng));
      big = Math.max(big, Math.hypot(t[0]!, t[1]!, t[2]!));
    }
    expect(big).toBeLessThanOrEqual(0.5 * Math.sqrt(3) + 1e-12);
    expect(big).toBeGreaterThan(0.4);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => G.multiply(new Float64Array(9), new Float64Array(4), new Float64Array(9))).toThrow(
      DimensionError,
    );
    expect(() => G.identityAt(new Float64Array(9), [0])).toThrow(DimensionError);
    expect(() => new LieGroupGroupoid(SO3, { randomScale: 0 })).toThrow(DomainError);
  });
});

describe('ProductGroupoid (spec 003 §3.5(c)–(e))', () => {
  it('plate-ball groupoid: element (x0, y0, x1, y1, g1) and the maps of §3.5(d)', () => {
    const P = plateBallGroupoid();
    expect([P.name, P.dim, P.arrowDim, P.baseDim, P.rank]).toEqual([
      'Pair(R^2) x SO3',
      7,
      13,
      2,
      5,
    ]);
    const rng = mulberry32(21);
    const R1 = SO3.random(new Float64Array(9), rng);
    const R2 = SO3.random(new Float64Array(9), rng);
    const g = Float64Array.of(1, 2, 3, 4, ...R1);
    const h = Float64Array.of(3, 4, 5, 6, ...R2);
    const gh = P.multiply(new Float64Array(13), g, h);
    expect(Array.from(gh)).toEqual([1, 2, 5, 6, ...mul3(new Float64Array(9), R1, R2)]);
    expect(Array.from(P.inverse(new Float64Array(13), g))).toEqual([
      3,
      4,
      1,
      2,
      ...SO3.inverse(new Float64Array(9), R1),
    ]);
    expect(Array.from(P.identityAt(new Float64Array(13), [7, 8]))).toEqual([
      7, 8, 7, 8, 1, 0, 0, 0, 1, 0, 0, 0, 1,
    ]);
    expect(Array.from(P.source(new Float64Array(2), g))).toEqual([1, 2]);
    expect(Array.from(P.target(new Float64Array(2), g))).toEqual([3, 4]);
    expect(() => P.multiply(new Float64Array(13), g, g)).toThrow(NotComposableError);
  });

  it('plate-ball invariant fields (§3.5(d)): ← (∂x,0) ↦ ∂/∂x1, (0,E_i) ↦ g1E_i; → (∂x,0) ↦ −∂/∂x0, (0,E_i) ↦ E_ig1', () => {
    const P = plateBallGroupoid();
    const rng = mulberry32(22);
    const g = P.random(new Float64Array(13), rng);
    const g1 = g.subarray(4);
    const h = 1e-3;
    /** d/ds of the stored arrow along chart(g, s w) (fourth-order differences). */
    const storageVelocity = (w: Float64Array) => {
      const at = (s: number) =>
        P.chart(
          new Float64Array(13),
          g,
          w.map((x) => s * x),
        );
      const [p1, m1, p2, m2] = [at(h), at(-h), at(2 * h), at(-2 * h)];
      return p1.map((_, i) => (8 * (p1[i]! - m1[i]!) - (p2[i]! - m2[i]!)) / (12 * h));
    };
    let err = 0;
    for (let i = 0; i < 5; i++) {
      const e = new Float64Array(5);
      e[i] = 1;
      const left = storageVelocity(P.leftField(new Float64Array(7), g, e));
      const right = storageVelocity(P.rightField(new Float64Array(7), g, e));
      const expectL = new Float64Array(13);
      const expectR = new Float64Array(13);
      if (i < 2) {
        expectL[2 + i] = 1; // ∂/∂x1, ∂/∂y1
        expectR[i] = -1; // −∂/∂x0, −∂/∂y0
      } else {
        const E = hat3(
          new Float64Array(9),
          Float64Array.from([0, 0, 0].map((_, k) => +(k === i - 2))),
        );
        expectL.set(mul3(new Float64Array(9), g1, E), 4);
        expectR.set(mul3(new Float64Array(9), E, g1), 4);
      }
      err = Math.max(err, relErr(left, expectL), relErr(right, expectR));
    }
    // measured 1.5e-13 (fourth-order differences of the stored matrix)
    expect(err).toBeLessThan(1e-11);
  });

  it('time-extended groupoid (§3.5(e)): (t0, t1, g), m_R = (t0, t2, g1g2), ε_R(t, q) = (t, t, ε(q))', () => {
    const T = timeExtended(new LieGroupGroupoid(SO2));
    expect([T.name, T.dim, T.arrowDim, T.baseDim, T.rank]).toEqual(['Pair(R^1) x SO2', 3, 6, 1, 2]);
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    const g = Float64Array.of(0, 0.5, c, -s, s, c);
    const h = Float64Array.of(0.5, 1.25, c, -s, s, c);
    const gh = T.multiply(new Float64Array(6), g, h);
    expect(gh[0]).toBe(0);
    expect(gh[1]).toBe(1.25);
    expect(
      relErr(
        gh.subarray(2),
        Float64Array.of(Math.cos(0.6), -Math.sin(0.6), Math.sin(0.6), Math.cos(0.6)),
      ),
    ).toBeLessThan(1e-14); // measured 1.1e-16 (R(0.3)² vs R(0.6))
    expect(Array.from(T.identityAt(new Float64Array(6), [2]))).toEqual([2, 2, 1, 0, 0, 1]);
    // ← moves t1, → moves t0 with a minus sign
    expect(Array.from(T.leftField(new Float64Array(3), g, Float64Array.of(1, 0)))).toEqual([
      0, 1, 0,
    ]);
    expect(Array.from(T.rightField(new Float64Array(3), g, Float64Array.of(1, 0)))).toEqual([
      -1, 0, 0,
    ]);
    expect(
      Array.from(T.anchor(new Float64Array(1), Float64Array.of(0), Float64Array.of(2.5, 7))),
    ).toEqual([2.5]);
  });

  it('products of products are products: (Pair(R^1) x Pair(R^1)) x SE2 matches Pair(R^1) x (Pair(R^1) x SE2)', () => {
    const a = new ProductGroupoid(
      new ProductGroupoid(new PairGroupoid(1), new PairGroupoid(1)),
      new LieGroupGroupoid(SE2),
    );
    const b = new ProductGroupoid(
      new PairGroupoid(1),
      new ProductGroupoid(new PairGroupoid(1), new LieGroupGroupoid(SE2)),
    );
    const rng = mulberry32(23);
    const g = a.random(new Float64Array(a.arrowDim), rng);
    const h = a.randomAfter(new Float64Array(a.arrowDim), g, rng);
    const v = Float64Array.of(0.1, -0.2, 0.3, 0.4, -0.5);
    // both store (t0, t1, s0, s1, X) and order the algebroid as (∂t, ∂s, se(2))
    expect(Array.from(a.multiply(new Float64Array(a.arrowDim), g, h))).toEqual(
      Array.from(b.multiply(new Float64Array(b.arrowDim), g, h)),
    );
    expect(Array.from(a.leftField(new Float64Array(a.dim), g, v))).toEqual(
      Array.from(b.leftField(new Float64Array(b.dim), g, v)),
    );
  });

  it('rejects wrong lengths', () => {
    const P = plateBallGroupoid();
    expect(() => P.source(new Float64Array(2), new Float64Array(12))).toThrow(DimensionError);
    expect(() => P.identityAt(new Float64Array(13), [1])).toThrow(DimensionError);
  });
});

describe('groupoid morphisms and algebroid morphisms (spec 003 Def 4.1)', () => {
  const samples = 12;
  const check = (Phi: GroupoidMorphism, seed: number) =>
    morphismDefect(Phi, mulberry32(seed), samples);
  const exactLaws = (d: ReturnType<typeof morphismDefect>) =>
    Math.max(d.composable, d.multiplicative, d.source, d.target, d.identity, d.inverse);
  const fdLaws = (d: ReturnType<typeof morphismDefect>) =>
    Math.max(d.leftAlgebroid, d.rightAlgebroid, d.anchor);

  it('projections of products onto a factor (plate-ball → Pair(R²), → SO(3); timeExtended → Pair(R¹))', () => {
    const P = plateBallGroupoid();
    const T = timeExtended(new LieGroupGroupoid(SE3));
    for (const [Phi, seed] of [
      [productProjection(P, 'first'), 1],
      [productProjection(P, 'second'), 2],
      [productProjection(T, 'first'), 3],
      [productProjection(T, 'second'), 4],
    ] as const) {
      const d = check(Phi, seed);
      // measured: exact laws 0 (copies), TΦ∘← / TΦ∘→ / anchor ≤ 2.3e-13
      expect(exactLaws(d)).toBe(0);
      expect(fdLaws(d)).toBeLessThan(5e-12);
    }
  });

  it('Lie group homomorphisms: conjugation g ↦ a g a⁻¹ with AΦ = Ad_a, rotation parts SE(n) → SO(n), SO(2) ⊂ SO(3)', () => {
    const so3 = new LieGroupGroupoid(SO3);
    const se3 = new LieGroupGroupoid(SE3);
    const se2 = new LieGroupGroupoid(SE2);
    const rng = mulberry32(5);
    const incl = new LieGroupHomomorphism(
      'SO2 in SO3',
      new LieGroupGroupoid(SO2),
      so3,
      (o, R) => {
        o.set([R[0]!, R[1]!, 0, R[2]!, R[3]!, 0, 0, 0, 1]);
        return o;
      },
      (o, v) => {
        o.set([0, 0, v[0]!]);
        return o;
      },
    );
    for (const [Phi, seed] of [
      [conjugationMorphism(so3, so3.random(new Float64Array(9), rng)), 6],
      [conjugationMorphism(se3, se3.random(new Float64Array(16), rng)), 7],
      [rotationPartMorphism(se2), 8],
      [rotationPartMorphism(se3), 9],
      [incl, 10],
    ] as const) {
      const d = check(Phi, seed);
      // measured: exact laws ≤ 6.3e-16, algebroid laws ≤ 3.3e-13
      expect(exactLaws(d)).toBeLessThan(1e-14);
      expect(fdLaws(d)).toBeLessThan(5e-12);
    }
    expect(rotationPartMorphism(se3).to.name).toBe('SO3');
    expect(() => rotationPartMorphism(so3)).toThrow(DomainError);
  });

  it('the checker detects what is not a morphism: i (anti-homomorphism) and conjugation with AΦ = id', () => {
    const so3 = new LieGroupGroupoid(SO3);
    const rng = mulberry32(13);
    const a = so3.random(new Float64Array(9), rng);
    const inversion = new LieGroupHomomorphism(
      'inverse',
      so3,
      so3,
      (o, g) => SO3.inverse(o, g),
      (o, v) => {
        o.set(v.map((x) => -x));
        return o;
      },
    );
    expect(check(inversion, 14).multiplicative).toBeGreaterThan(1e-2);
    const C = conjugationMorphism(so3, a);
    const wrongA = new LieGroupHomomorphism(
      'conj, AΦ = id',
      so3,
      so3,
      (o, g) => C.map(o, g),
      (o, v) => {
        o.set(v);
        return o;
      },
    );
    const d = check(wrongA, 15);
    // measured 5e-16: Φ is multiplicative, only AΦ is wrong
    expect(d.multiplicative).toBeLessThan(1e-14);
    expect(d.leftAlgebroid).toBeGreaterThan(1e-2);
  });

  it('rejects a non-positive sample count and wrong arrow lengths', () => {
    const P = plateBallGroupoid();
    const pr = productProjection(P, 'first');
    expect(() => morphismDefect(pr, mulberry32(1), 0)).toThrow(DomainError);
    expect(() => pr.map(new Float64Array(4), new Float64Array(4))).toThrow(DimensionError);
  });
});
