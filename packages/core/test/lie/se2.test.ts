import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SE2_SERIES_ANGLE, SMALL_ANGLE } from '../../src/constants.js';
import { SE2, SE2Group } from '../../src/lie/se2.js';
import { inv3 } from '../../src/linalg/small.js';
import { describeLieGroup } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

describeLieGroup(SE2);
describe('SE(2) with large tangents (θ up to 3.1)', () => {
  describeLieGroup(SE2, { tangentScale: 3.1, numRuns: 60 });
});

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/** Plain n×n product (allocates; test-only). */
function mm(a: ArrayLike<number>, b: ArrayLike<number>, n = 3): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let l = 0; l < n; l++)
      for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + a[i * n + l]! * b[l * n + j]!;
  return out;
}

const matVec3 = (a: ArrayLike<number>, v: ArrayLike<number>) =>
  Float64Array.from(
    { length: 3 },
    (_, i) => a[3 * i]! * v[0]! + a[3 * i + 1]! * v[1]! + a[3 * i + 2]! * v[2]!,
  );

/** Σ_{k≤K} c_k·A^k for a 3×3 A (c_0 multiplies I). */
function matSeries(a: Float64Array, coeff: (k: number) => number, K: number): Float64Array {
  const sum = new Float64Array(9);
  let pow: Float64Array = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
  for (let k = 0; k <= K; k++) {
    const c = coeff(k);
    for (let i = 0; i < 9; i++) sum[i] = sum[i]! + c * pow[i]!;
    pow = mm(pow, a);
  }
  return sum;
}

const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1));

/** exp(A) by its plain truncated power series Σ_{k≤60} A^k/k! (no scaling): an oracle. */
const expmTaylor = (a: Float64Array) => matSeries(a, (k) => 1 / factorial(k), 60);

/** Bernoulli numbers B_0..B_20 (B_1 = −1/2): x/(eˣ − 1) = Σ B_k xᵏ/k!. */
const BERNOULLI = [
  1,
  -1 / 2,
  1 / 6,
  0,
  -1 / 30,
  0,
  1 / 42,
  0,
  -1 / 30,
  0,
  5 / 66,
  0,
  -691 / 2730,
  0,
  7 / 6,
  0,
  -3617 / 510,
  0,
  43867 / 798,
  0,
  -174611 / 330,
];

const el = () => new Float64Array(9);
const tv = () => new Float64Array(3);
const sq = () => new Float64Array(9);
const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
const neg = (t: Float64Array) => t.map((x) => -x);
const hat = (t: Float64Array) => SE2.hat(el(), t);

/** Tangents with θ in (−π, π) and ρ in [−2, 2]², plus tiny and near-π angles. */
const tangent$ = fc
  .tuple(
    fc.double({ min: -2, max: 2, noNaN: true }),
    fc.double({ min: -2, max: 2, noNaN: true }),
    fc.oneof(
      fc.double({ min: -3.14, max: 3.14, noNaN: true }),
      fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
      fc.double({ min: 3.14, max: Math.PI, noNaN: true, maxExcluded: true }).map((t) => -t),
      fc.double({ min: 3.14, max: Math.PI, noNaN: true }),
    ),
  )
  .map(([x, y, t]) => Float64Array.of(x, y, t));

/** Central differences of Exp in the matrix entries (no log involved), step h. */
function dExp(tau: Float64Array, j: number, h = 1e-6): Float64Array {
  const p = tau.slice();
  const m = tau.slice();
  p[j] = p[j]! + h;
  m[j] = m[j]! - h;
  const Ep = SE2.exp(el(), p);
  const Em = SE2.exp(el(), m);
  return Ep.map((v, i) => (v - Em[i]!) / (2 * h));
}

/** J_r by vee(Exp(τ)⁻¹·∂Exp/∂τ_j) and J_l by vee(∂Exp/∂τ_j·Exp(τ)⁻¹), columnwise. */
function fdJacobians(tau: Float64Array): { Jr: Float64Array; Jl: Float64Array } {
  const Einv = SE2.inverse(el(), SE2.exp(el(), tau));
  const Jr = sq();
  const Jl = sq();
  for (let j = 0; j < 3; j++) {
    const d = dExp(tau, j);
    const r = SE2.vee(tv(), mm(Einv, d));
    const l = SE2.vee(tv(), mm(d, Einv));
    for (let i = 0; i < 3; i++) {
      Jr[3 * i + j] = r[i]!;
      Jl[3 * i + j] = l[i]!;
    }
  }
  return { Jr, Jl };
}

describe('SE(2) closed forms', () => {
  it('has the documented sizes', () => {
    expect(SE2).toBeInstanceOf(SE2Group);
    expect([SE2.name, SE2.dim, SE2.storageSize, SE2.matrixSize, SE2.actionDim]).toEqual([
      'SE(2)',
      3,
      9,
      3,
      2,
    ]);
  });

  it('exp(τ) equals the truncated power series of exp(τ^) to 1e-13', () => {
    fc.assert(
      fc.property(tangent$, (t) => {
        expect(maxAbsDiff(SE2.exp(el(), t), expmTaylor(hat(t)))).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
    for (const t of [0, 1e-9, SMALL_ANGLE, -SMALL_ANGLE * 1.5, SE2_SERIES_ANGLE, 3, -Math.PI]) {
      const tau = Float64Array.of(1.3, -0.7, t);
      expect(maxAbsDiff(SE2.exp(el(), tau), expmTaylor(hat(tau)))).toBeLessThan(1e-13);
    }
  });

  it('known values: a quarter arc, pure translation, pure rotation', () => {
    const q = SE2.exp(el(), Float64Array.of(1, 0, Math.PI / 2));
    const k = 2 / Math.PI;
    expect(maxAbsDiff(q, [0, -1, k, 1, 0, k, 0, 0, 1])).toBeLessThan(1e-15);
    expect(Array.from(SE2.exp(el(), Float64Array.of(0.5, -3, 0)))).toEqual([
      1, -0, 0.5, 0, 1, -3, 0, 0, 1,
    ]);
    const r = SE2.exp(el(), Float64Array.of(0, 0, 0.4));
    expect(
      maxAbsDiff(r, [Math.cos(0.4), -Math.sin(0.4), 0, Math.sin(0.4), Math.cos(0.4), 0, 0, 0, 1]),
    ).toBe(0);
    expect(Array.from(SE2.log(tv(), q))).toEqual([
      expect.closeTo(1, 15),
      expect.closeTo(0, 15),
      Math.PI / 2,
    ]);
  });

  it('log∘exp = id for θ ∈ (−π, π) (1e-12), exp∘log = id (1e-14) incl. θ near ±π', () => {
    fc.assert(
      fc.property(tangent$, (t) => {
        const X = SE2.exp(el(), t);
        const back = SE2.log(tv(), X);
        expect(maxAbsDiff(back, t)).toBeLessThan(1e-12);
        expect(maxAbsDiff(SE2.exp(el(), back), X)).toBeLessThan(1e-14);
      }),
      { numRuns: 300 },
    );
  });

  it('log on the branch cut: θ ∈ (−π, π], −π returned as π, exp∘log = id', () => {
    for (const d of [1e-6, 1e-9, 1e-12, 1e-15, 0]) {
      for (const s of [1, -1]) {
        const tau = Float64Array.of(0.8, -1.7, s * (Math.PI - d));
        const X = SE2.exp(el(), tau);
        const l = SE2.log(tv(), X);
        expect(l[2]).toBeGreaterThan(-Math.PI);
        expect(l[2]).toBeLessThanOrEqual(Math.PI);
        expect(maxAbsDiff(SE2.exp(el(), l), X)).toBeLessThan(1e-14);
        if (d >= 1e-12) expect(maxAbsDiff(l, tau)).toBeLessThan(1e-13);
      }
    }
    // An exact half turn whose signed zero makes atan2 return −π: θ = π, ρ = V(π)⁻¹t = (π/2)·Jᵀt.
    const X = Float64Array.of(-1, 0, 2, -0, -1, 1, 0, 0, 1);
    const l = SE2.log(tv(), X);
    expect(l[2]).toBe(Math.PI);
    expect(maxAbsDiff(l, [(Math.PI / 2) * 1, (-Math.PI / 2) * 2, Math.PI])).toBeLessThan(1e-15);
    expect(maxAbsDiff(SE2.exp(el(), l), X)).toBeLessThan(1e-15);
  });

  it('compose, inverse, between and act agree with the homogeneous matrices (1e-15)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (s1, s2) => {
        const A = SE2.random(el(), rng(s1));
        const B = SE2.random(el(), rng(s2));
        expect(maxAbsDiff(SE2.compose(el(), A, B), mm(A, B))).toBeLessThan(1e-15);
        expect(maxAbsDiff(mm(SE2.inverse(el(), A), A), I3)).toBeLessThan(1e-15);
        expect(maxAbsDiff(SE2.between(el(), A, B), mm(SE2.inverse(el(), A), B))).toBeLessThan(
          1e-15,
        );
        const p = Float64Array.of(0.3, -1.1);
        const h = matVec3(A, [p[0]!, p[1]!, 1]);
        expect(maxAbsDiff(SE2.act(new Float64Array(2), A, p), [h[0]!, h[1]!])).toBeLessThan(1e-15);
      }),
    );
  });

  it('Ad_X = [[R, (t_y, −t_x)], [0, 1]] equals (X τ^ X⁻¹)∨ and Ad_{Exp τ} = J_l J_r⁻¹', () => {
    fc.assert(
      fc.property(fc.integer(), tangent$, (seed, t) => {
        const X = SE2.random(el(), rng(seed));
        const Ad = SE2.adj(sq(), X);
        const conj = SE2.vee(tv(), mm(mm(X, hat(t)), SE2.inverse(el(), X)));
        expect(maxAbsDiff(matVec3(Ad, t), conj)).toBeLessThan(1e-14);
        const left = SE2.compose(el(), X, SE2.exp(el(), t));
        const right = SE2.compose(el(), SE2.exp(el(), matVec3(Ad, t)), X);
        expect(maxAbsDiff(left, right)).toBeLessThan(1e-14);
        const AdE = SE2.adj(sq(), SE2.exp(el(), t));
        const JlJrInv = mm(SE2.ljac(sq(), t), SE2.rjacInv(sq(), t));
        expect(maxAbsDiff(AdE, JlJrInv)).toBeLessThan(1e-13);
      }),
      { numRuns: 200 },
    );
  });

  it('ad_τ σ = [τ^, σ^]∨ exactly', () => {
    fc.assert(
      fc.property(tangent$, tangent$, (t, s) => {
        const th = hat(t);
        const sh = hat(s);
        const ts = mm(th, sh);
        const st = mm(sh, th);
        const br = SE2.vee(
          tv(),
          ts.map((v, i) => v - st[i]!),
        );
        expect(maxAbsDiff(matVec3(SE2.smallAdj(sq(), t), s), br)).toBeLessThan(1e-15);
      }),
    );
  });

  it('J_r and J_l match central differences of Exp (no log; 1e-8)', () => {
    fc.assert(
      fc.property(tangent$, (t) => {
        const { Jr, Jl } = fdJacobians(t);
        expect(maxAbsDiff(SE2.rjac(sq(), t), Jr)).toBeLessThan(1e-8);
        expect(maxAbsDiff(SE2.ljac(sq(), t), Jl)).toBeLessThan(1e-8);
      }),
      { numRuns: 200 },
    );
  });

  it('J_r = Σ(−ad)ᵏ/(k+1)!, J_l = Σ adᵏ/(k+1)! (series oracle, 1e-14)', () => {
    fc.assert(
      fc.property(tangent$, (t) => {
        const ad = SE2.smallAdj(sq(), t);
        const mad = ad.map((v) => -v);
        const Jr = matSeries(mad, (k) => 1 / factorial(k + 1), 60);
        const Jl = matSeries(ad, (k) => 1 / factorial(k + 1), 60);
        expect(maxAbsDiff(SE2.rjac(sq(), t), Jr)).toBeLessThan(1e-14);
        expect(maxAbsDiff(SE2.ljac(sq(), t), Jl)).toBeLessThan(1e-14);
      }),
      { numRuns: 200 },
    );
  });

  it('J_r⁻¹ = Σ B_k (−ad)ᵏ/k! for |θ| ≤ 1 (Bernoulli series oracle, 1e-14)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (x, y, th) => {
          const t = Float64Array.of(x, y, th);
          const ad = SE2.smallAdj(sq(), t);
          const coeff = (k: number) => BERNOULLI[k]! / factorial(k);
          const JrInv = matSeries(
            ad.map((v) => -v),
            coeff,
            20,
          );
          const JlInv = matSeries(ad, coeff, 20);
          expect(maxAbsDiff(SE2.rjacInv(sq(), t), JrInv)).toBeLessThan(1e-14);
          expect(maxAbsDiff(SE2.ljacInv(sq(), t), JlInv)).toBeLessThan(1e-14);
        },
      ),
      { numRuns: 200 },
    );
  });

  // The printed forms cancel in (−ρy + ρy cos θ)/θ² & co. (error ≈ 4ε|ρ|/θ² ≤ 9e-14 at θ = 0.1).
  it('J_r eq. (163) and J_l eq. (164) as printed in manif agree (θ ≥ 0.1: 1e-13)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: 0.1, max: 3.14, noNaN: true }),
        fc.boolean(),
        (p1, p2, th, flip) => {
          const t = flip ? -th : th;
          const s = Math.sin(t);
          const c = Math.cos(t);
          const t2 = t * t;
          const Jr = [
            s / t,
            (1 - c) / t,
            (t * p1 - p2 + p2 * c - p1 * s) / t2,
            (c - 1) / t,
            s / t,
            (p1 + t * p2 - p1 * c - p2 * s) / t2,
            0,
            0,
            1,
          ];
          const Jl = [
            s / t,
            (c - 1) / t,
            (t * p1 + p2 - p2 * c - p1 * s) / t2,
            (1 - c) / t,
            s / t,
            (-p1 + t * p2 + p1 * c - p2 * s) / t2,
            0,
            0,
            1,
          ];
          const tau = Float64Array.of(p1, p2, t);
          expect(maxAbsDiff(SE2.rjac(sq(), tau), Jr)).toBeLessThan(1e-13);
          expect(maxAbsDiff(SE2.ljac(sq(), tau), Jl)).toBeLessThan(1e-13);
        },
      ),
    );
  });

  it('Jacobians stay accurate where the closed forms cancel (SMALL_ANGLE ≤ θ < SE2_SERIES_ANGLE: 1e-15)', () => {
    // Plain closed forms would be off by ≈ ε|ρ|/θ here (≈ 1e-12 at θ = 1e-4, |ρ| = 2).
    const coeffInv = (k: number) => BERNOULLI[k]! / factorial(k);
    let worst = 0;
    for (const th of [1.0001e-4, 2e-4, 1e-3, 1e-2, 0.05, 0.0999]) {
      for (const sgn of [1, -1]) {
        const t = Float64Array.of(2, -2, sgn * th);
        const mad = SE2.smallAdj(sq(), t).map((v) => -v);
        const Jr = matSeries(mad, (k) => 1 / factorial(k + 1), 30);
        const JrInv = matSeries(mad, coeffInv, 20);
        worst = Math.max(
          worst,
          maxAbsDiff(SE2.rjac(sq(), t), Jr),
          maxAbsDiff(SE2.rjacInv(sq(), t), JrInv),
        );
      }
    }
    expect(worst).toBeLessThan(1e-15);
  });

  it('closed-form inverses: J·J⁻¹ = I (1e-14) and J⁻¹ = inv3(J) (1e-13), up to |θ| → π', () => {
    fc.assert(
      fc.property(tangent$, (t) => {
        const Jr = SE2.rjac(sq(), t);
        const Jl = SE2.ljac(sq(), t);
        const JrInv = SE2.rjacInv(sq(), t);
        const JlInv = SE2.ljacInv(sq(), t);
        expect(maxAbsDiff(mm(Jr, JrInv), I3)).toBeLessThan(1e-14);
        expect(maxAbsDiff(mm(Jl, JlInv), I3)).toBeLessThan(1e-14);
        expect(maxAbsDiff(JrInv, inv3(sq(), Jr))).toBeLessThan(1e-13);
        expect(maxAbsDiff(JlInv, inv3(sq(), Jl))).toBeLessThan(1e-13);
        expect(maxAbsDiff(JlInv, SE2.rjacInv(sq(), neg(t)))).toBe(0);
        expect(maxAbsDiff(Jl, SE2.rjac(sq(), neg(t)))).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('Taylor and series branches are continuous at SMALL_ANGLE and SE2_SERIES_ANGLE (1e-14)', () => {
    const ops = [
      (t: Float64Array) => SE2.exp(el(), t),
      (t: Float64Array) => SE2.log(tv(), SE2.exp(el(), t)),
      (t: Float64Array) => SE2.rjac(sq(), t),
      (t: Float64Array) => SE2.ljac(sq(), t),
      (t: Float64Array) => SE2.rjacInv(sq(), t),
      (t: Float64Array) => SE2.ljacInv(sq(), t),
    ];
    let worst = 0;
    for (const edge of [SMALL_ANGLE, SE2_SERIES_ANGLE]) {
      for (const sign of [1, -1]) {
        for (const [x, y] of [
          [1, 0],
          [0, 1],
          [2, -2],
          [-1.5, 0.7],
        ]) {
          // A few ulps either side: the functions themselves move by ≈ 1e-16 there.
          const below = Float64Array.of(x!, y!, sign * edge * (1 - 1e-15));
          const above = Float64Array.of(x!, y!, sign * edge * (1 + 1e-15));
          expect(Math.abs(below[2]!)).toBeLessThan(edge);
          expect(Math.abs(above[2]!)).toBeGreaterThan(edge);
          for (const f of ops) worst = Math.max(worst, maxAbsDiff(f(below), f(above)));
        }
      }
    }
    expect(worst).toBeLessThan(1e-14);
  });

  it('random elements: θ spread over (−π, π), t in [−2, 2]², rotation block orthonormal', () => {
    const r = rng(5);
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 2000; i++) {
      const X = SE2.random(el(), r);
      expect(Math.abs(X[0]! * X[4]! - X[1]! * X[3]! - 1)).toBeLessThan(1e-15);
      expect([X[0], X[1], X[6], X[7], X[8]]).toEqual([X[4], -X[3]!, 0, 0, 1]);
      expect(Math.max(Math.abs(X[2]!), Math.abs(X[5]!))).toBeLessThanOrEqual(2);
      const t = SE2.log(tv(), X)[2]!;
      lo = Math.min(lo, t);
      hi = Math.max(hi, t);
    }
    expect(lo).toBeLessThan(-3.1);
    expect(hi).toBeGreaterThan(3.1);
  });

  it('operations write into and return out, and allow the documented aliasing', () => {
    const A = SE2.random(el(), rng(1));
    const B = SE2.random(el(), rng(2));
    const t = Float64Array.of(0.3, -0.2, 0.9);
    const out = el();
    const v = tv();
    expect(SE2.compose(out, A, B)).toBe(out);
    expect(SE2.exp(out, t)).toBe(out);
    expect(SE2.log(v, A)).toBe(v);
    expect(SE2.rplus(out, A, t)).toBe(out);
    expect(SE2.lplus(out, t, A)).toBe(out);
    expect(SE2.rminus(v, A, B)).toBe(v);
    expect(SE2.lminus(v, A, B)).toBe(v);
    const AB = SE2.compose(el(), A, B);
    const a = A.slice();
    expect(Array.from(SE2.compose(a, a, B))).toEqual(Array.from(AB));
    const b = B.slice();
    expect(Array.from(SE2.compose(b, A, b))).toEqual(Array.from(AB));
    const c = A.slice();
    expect(Array.from(SE2.inverse(c, c))).toEqual(Array.from(SE2.inverse(el(), A)));
    const d = B.slice();
    expect(Array.from(SE2.between(d, A, d))).toEqual(Array.from(SE2.between(el(), A, B)));
    const p = Float64Array.of(1, 2);
    const q = SE2.act(new Float64Array(2), A, p);
    expect(SE2.act(p, A, p)).toBe(p);
    expect(Array.from(p)).toEqual(Array.from(q));
    // lminus/rminus leave their inputs untouched (they use the instance scratch).
    const A0 = A.slice();
    const B0 = B.slice();
    SE2.lminus(v, A, B);
    SE2.rminus(v, A, B);
    expect(Array.from(A)).toEqual(Array.from(A0));
    expect(Array.from(B)).toEqual(Array.from(B0));
  });
});
