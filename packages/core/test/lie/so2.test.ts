import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SO2, SO2Group } from '../../src/lie/so2.js';
import { describeLieGroup } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

describeLieGroup(SO2);
describe('SO(2) near the branch cut', () => {
  describeLieGroup(SO2, { tangentScale: 3.14 });
});

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/** exp(A) by its plain truncated power series Σ_{k≤60} A^k/k! (no scaling): an oracle. */
function expmTaylor(a: Float64Array, n: number): Float64Array {
  const sum = new Float64Array(n * n);
  let term = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    sum[i * n + i] = 1;
    term[i * n + i] = 1;
  }
  for (let k = 1; k <= 60; k++) {
    const next = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let l = 0; l < n; l++)
        for (let j = 0; j < n; j++)
          next[i * n + j] = next[i * n + j]! + term[i * n + l]! * a[l * n + j]!;
    for (let i = 0; i < n * n; i++) next[i] = next[i]! / k;
    term = next;
    for (let i = 0; i < n * n; i++) sum[i] = sum[i]! + term[i]!;
  }
  return sum;
}

/** θ wrapped to (−π, π]. */
const wrap = (t: number): number => {
  const w = t - 2 * Math.PI * Math.round(t / (2 * Math.PI));
  return w <= -Math.PI ? w + 2 * Math.PI : w;
};

const el = () => new Float64Array(4);
const one = () => new Float64Array(1);
const rot = (t: number) => SO2.exp(el(), Float64Array.of(t));
const angle$ = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true, minExcluded: true });

describe('SO(2) closed forms', () => {
  it('has the documented sizes', () => {
    expect(SO2).toBeInstanceOf(SO2Group);
    expect([SO2.name, SO2.dim, SO2.storageSize, SO2.matrixSize, SO2.actionDim]).toEqual([
      'SO(2)',
      1,
      4,
      2,
      2,
    ]);
  });

  it('exp(θ) equals the truncated power series of exp(θ^) to 1e-13 (|θ| ≤ 2π)', () => {
    fc.assert(
      fc.property(fc.double({ min: -2 * Math.PI, max: 2 * Math.PI, noNaN: true }), (t) => {
        const tau = Float64Array.of(t);
        const series = expmTaylor(SO2.hat(el(), tau), 2);
        expect(maxAbsDiff(SO2.exp(el(), tau), series)).toBeLessThan(1e-13);
      }),
      { numRuns: 200 },
    );
  });

  it('known values: Exp(π/2) = [[0, −1], [1, 0]], Exp(π/6) rotates (1, 0) to (√3/2, 1/2)', () => {
    expect(maxAbsDiff(rot(Math.PI / 2), [0, -1, 1, 0])).toBeLessThanOrEqual(Number.EPSILON);
    const p = SO2.act(new Float64Array(2), rot(Math.PI / 6), Float64Array.of(1, 0));
    expect(maxAbsDiff(p, [Math.sqrt(3) / 2, 0.5])).toBeLessThanOrEqual(Number.EPSILON);
    expect(Array.from(SO2.identity(el()))).toEqual([1, 0, 0, 1]);
  });

  it('log∘exp = id on (−π, π] to 1e-15, and Log(Exp(θ)) = θ wrapped for any θ', () => {
    fc.assert(
      fc.property(angle$, fc.integer({ min: -3, max: 3 }), (t, k) => {
        expect(Math.abs(SO2.log(one(), rot(t))[0]! - t)).toBeLessThan(1e-15);
        const far = SO2.log(one(), rot(t + 2 * Math.PI * k))[0]!;
        // Either representative of the same angle when t + 2πk lands on the cut.
        expect(Math.abs(wrap(far - t))).toBeLessThan(1e-13);
        expect(far).toBeGreaterThan(-Math.PI);
        expect(far).toBeLessThanOrEqual(Math.PI);
      }),
      { numRuns: 300 },
    );
  });

  it('log near and on the branch cut: values in (−π, π], −π mapped to π, exp∘log = id', () => {
    for (const d of [1e-3, 1e-9, 1e-12, 1e-15]) {
      expect(Math.abs(SO2.log(one(), rot(Math.PI - d))[0]! - (Math.PI - d))).toBeLessThan(1e-15);
      expect(Math.abs(SO2.log(one(), rot(-Math.PI + d))[0]! - (-Math.PI + d))).toBeLessThan(1e-15);
    }
    expect(SO2.log(one(), rot(Math.PI))[0]).toBe(Math.PI);
    // sin(−π) rounds to −1.2e-16: atan2 gives −π (−π + 1.2e-16 is not representable), mapped to π.
    expect(SO2.log(one(), rot(-Math.PI))[0]).toBe(Math.PI);
    // The exact half turn with a signed zero that makes atan2 return −π.
    expect(SO2.log(one(), Float64Array.of(-1, 0, -0, -1))[0]).toBe(Math.PI);
    expect(SO2.log(one(), Float64Array.of(-1, -0, 0, -1))[0]).toBe(Math.PI);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e-6, noNaN: true }), fc.boolean(), (d, neg) => {
        const X = rot(neg ? -Math.PI + d : Math.PI - d);
        expect(maxAbsDiff(SO2.exp(el(), SO2.log(one(), X)), X)).toBeLessThan(1e-15);
      }),
    );
  });

  it('log returns the angle of the nearest rotation for scaled or perturbed matrices', () => {
    fc.assert(
      fc.property(angle$, fc.double({ min: 0.1, max: 10, noNaN: true }), (t, s) => {
        const X = rot(t).map((v) => s * v);
        expect(Math.abs(SO2.log(one(), X)[0]! - t)).toBeLessThan(1e-14);
        // A symmetric perturbation does not change the polar factor R(t).
        const Y = rot(t);
        Y[1] = Y[1]! + 1e-3;
        Y[2] = Y[2]! + 1e-3;
        if (Math.abs(t) < 3) expect(Math.abs(SO2.log(one(), Y)[0]! - t)).toBeLessThan(1e-14);
      }),
    );
  });

  it('compose adds angles, inverse negates them, between subtracts them (1e-14)', () => {
    fc.assert(
      fc.property(angle$, angle$, (a, b) => {
        const ab = SO2.compose(el(), rot(a), rot(b));
        expect(Math.abs(wrap(SO2.log(one(), ab)[0]! - (a + b)))).toBeLessThan(1e-14);
        expect(Math.abs(wrap(SO2.log(one(), SO2.inverse(el(), rot(a)))[0]! + a))).toBeLessThan(
          1e-15,
        );
        const d = SO2.log(one(), SO2.between(el(), rot(a), rot(b)))[0]!;
        expect(Math.abs(wrap(d - (b - a)))).toBeLessThan(1e-14);
        expect(Math.abs(wrap(SO2.rminus(one(), rot(b), rot(a))[0]! - (b - a)))).toBeLessThan(1e-14);
        expect(Math.abs(wrap(SO2.lminus(one(), rot(b), rot(a))[0]! - (b - a)))).toBeLessThan(1e-14);
      }),
      { numRuns: 200 },
    );
  });

  it('Ad = 1, ad = 0, and J_r = J_l = J_r⁻¹ = J_l⁻¹ = 1, matching central differences of Exp', () => {
    const h = 1e-6;
    fc.assert(
      fc.property(angle$, (t) => {
        const tau = Float64Array.of(t);
        expect(SO2.adj(one(), rot(t))[0]).toBe(1);
        expect(SO2.smallAdj(Float64Array.of(7), tau)[0]).toBe(0);
        for (const J of [SO2.rjac, SO2.ljac, SO2.rjacInv, SO2.ljacInv]) {
          expect(J.call(SO2, Float64Array.of(9), tau)[0]).toBe(1);
        }
        // J_r = vee(Exp(τ)⁻¹ · dExp/dτ), by central differences of the matrix (no log).
        const Ep = rot(t + h);
        const Em = rot(t - h);
        const dE = Ep.map((v, i) => (v - Em[i]!) / (2 * h));
        const fd = SO2.vee(one(), SO2.compose(el(), SO2.inverse(el(), rot(t)), dE));
        expect(Math.abs(fd[0]! - 1)).toBeLessThan(1e-9);
      }),
    );
  });

  it('adjoint identity X·Exp(τ) = Exp(Ad_X τ)·X (1e-15)', () => {
    fc.assert(
      fc.property(angle$, angle$, (x, t) => {
        const X = rot(x);
        const tau = Float64Array.of(t);
        const AdT = Float64Array.of(SO2.adj(one(), X)[0]! * t);
        const left = SO2.compose(el(), X, SO2.exp(el(), tau));
        const right = SO2.compose(el(), SO2.exp(el(), AdT), X);
        expect(maxAbsDiff(left, right)).toBeLessThan(1e-15);
      }),
    );
  });

  it('random elements are rotations with θ spread over (−π, π)', () => {
    const r = rng(11);
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 2000; i++) {
      const X = SO2.random(el(), r);
      expect(Math.abs(X[0]! * X[3]! - X[1]! * X[2]! - 1)).toBeLessThan(1e-15);
      expect(X[0]).toBe(X[3]);
      expect(X[1]).toBe(-X[2]!);
      const t = SO2.log(one(), X)[0]!;
      lo = Math.min(lo, t);
      hi = Math.max(hi, t);
    }
    expect(lo).toBeLessThan(-3.1);
    expect(hi).toBeGreaterThan(3.1);
  });

  it('operations write into and return out, and allow the documented aliasing', () => {
    const A = rot(0.7);
    const B = rot(-1.9);
    const AB = SO2.compose(el(), A, B);
    const out = el();
    const tv = one();
    expect(SO2.compose(out, A, B)).toBe(out);
    expect(SO2.exp(out, Float64Array.of(0.3))).toBe(out);
    expect(SO2.log(tv, A)).toBe(tv);
    expect(SO2.rplus(out, A, tv)).toBe(out);
    expect(SO2.rminus(tv, A, B)).toBe(tv);
    const p = Float64Array.of(1, 2);
    const q = SO2.act(new Float64Array(2), A, p);
    expect(SO2.act(p, A, p)).toBe(p);
    expect(Array.from(p)).toEqual(Array.from(q));
    const a = A.slice();
    expect(SO2.compose(a, a, B)).toBe(a);
    expect(Array.from(a)).toEqual(Array.from(AB));
    const b = B.slice();
    expect(SO2.compose(b, A, b)).toBe(b);
    expect(Array.from(b)).toEqual(Array.from(AB));
    const c = A.slice();
    expect(Array.from(SO2.inverse(c, c))).toEqual(Array.from(SO2.inverse(el(), A)));
    const d = A.slice();
    expect(Array.from(SO2.between(d, d, B))).toEqual(Array.from(SO2.between(el(), A, B)));
  });
});
