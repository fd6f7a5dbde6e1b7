import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEN_RANDOM_MAX_ANGLE } from '../../src/constants.js';
import { DomainError } from '../../src/errors.js';
import { SEn, SEnGroup } from '../../src/lie/sen.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { describeLieGroup } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

for (const n of [2, 3, 4, 5]) describeLieGroup(SEn(n));

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

function matMul(a: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++)
      for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + a[i * n + k]! * b[k * n + j]!;
  return out;
}

function matVec(a: ArrayLike<number>, x: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i] = out[i]! + a[i * n + j]! * x[j]!;
  return out;
}

const skew3 = (w: ArrayLike<number>) =>
  Float64Array.of(0, -w[2]!, w[1]!, w[2]!, 0, -w[0]!, -w[1]!, w[0]!, 0);

const tangent = (dim: number, seed: number, scale: number) => {
  const r = rng(seed);
  return Float64Array.from({ length: dim }, () => scale * (2 * r() - 1));
};

describe('SE(n): so(n) basis and hat/vee ordering', () => {
  it('n = 2: τ^ = [[0, −ω, v₁], [ω, 0, v₂], [0, 0, 0]]', () => {
    const G = SEn(2);
    expect([G.dim, G.storageSize, G.matrixSize, G.actionDim, G.name]).toEqual([
      3,
      9,
      3,
      2,
      'SE(2)',
    ]);
    const h = G.hat(new Float64Array(9), Float64Array.of(1, 2, 3));
    expect(Array.from(h)).toEqual([0, -3, 1, 3, 0, 2, 0, 0, 0]);
    expect(Array.from(G.vee(new Float64Array(3), h))).toEqual([1, 2, 3]);
  });

  it('n = 3: τ = [v, ω] with ω^ = [[0, −ω₃, ω₂], [ω₃, 0, −ω₁], [−ω₂, ω₁, 0]]', () => {
    const G = SEn(3);
    expect([G.dim, G.storageSize, G.matrixSize, G.actionDim, G.layout]).toEqual([
      6,
      16,
      4,
      3,
      'rowMajor16',
    ]);
    const h = G.hat(new Float64Array(16), Float64Array.of(1, 2, 3, 4, 5, 6));
    expect(Array.from(h)).toEqual([0, -6, 5, 1, 6, 0, -4, 2, -5, 4, 0, 3, 0, 0, 0, 0]);
    expect(Array.from(G.vee(new Float64Array(6), h))).toEqual([1, 2, 3, 4, 5, 6]);
    // ω^ p = ω × p
    const p = Float64Array.of(0.3, -1.1, 2);
    const w = [4, 5, 6];
    const cross = [
      w[1]! * p[2]! - w[2]! * p[1]!,
      w[2]! * p[0]! - w[0]! * p[2]!,
      w[0]! * p[1]! - w[1]! * p[0]!,
    ];
    for (let i = 0; i < 3; i++) {
      let s = 0;
      for (let j = 0; j < 3; j++) s += h[i * 4 + j]! * p[j]!;
      expect(s).toBeCloseTo(cross[i]!, 14);
    }
    expect(G.generator(0)).toEqual({ i: 1, j: 2, sign: -1 });
    expect(G.generator(1)).toEqual({ i: 0, j: 2, sign: 1 });
    expect(G.generator(2)).toEqual({ i: 0, j: 1, sign: -1 });
  });

  it('n = 4: reverse lexicographic pairs with signs (−1)^{i+j}, as documented', () => {
    const G = SEn(4);
    const pairs = Array.from({ length: 6 }, (_, k) => G.generator(k));
    expect(pairs).toEqual([
      { i: 2, j: 3, sign: -1 },
      { i: 1, j: 3, sign: 1 },
      { i: 1, j: 2, sign: -1 },
      { i: 0, j: 3, sign: -1 },
      { i: 0, j: 2, sign: 1 },
      { i: 0, j: 1, sign: -1 },
    ]);
    expect(() => G.generator(6)).toThrow(DomainError);
  });

  it('n = 2 … 6: the generators L_k are orthogonal, tr(L_kᵀ L_l) = 2δ_kl, and vee∘hat = id', () => {
    for (let n = 2; n <= 6; n++) {
      const G = SEn(n);
      const N = n + 1;
      const L = Array.from({ length: G.rotationDim }, (_, k) => {
        const t = new Float64Array(G.dim);
        t[n + k] = 1;
        return G.hat(new Float64Array(N * N), t);
      });
      for (let k = 0; k < L.length; k++)
        for (let l = 0; l < L.length; l++) {
          let s = 0;
          for (let i = 0; i < N * N; i++) s += L[k]![i]! * L[l]![i]!;
          expect(s).toBe(k === l ? 2 : 0);
        }
      const t = tangent(G.dim, n, 1);
      expect(maxAbsDiff(G.vee(new Float64Array(G.dim), G.hat(new Float64Array(N * N), t)), t)).toBe(
        0,
      );
    }
  });

  it('n < 2 or non-integer n is a DomainError', () => {
    expect(() => SEn(1)).toThrow(DomainError);
    expect(() => new SEnGroup(2.5)).toThrow(DomainError);
  });
});

describe('SE(2) and SE(3) against the closed forms (manif, Solà et al. 2018, appendices C, D)', () => {
  it('SEn(2): Exp(v, θ) = [[R(θ), V(θ)v], [0, 1]], V = [[sin θ, −(1 − cos θ)], [1 − cos θ, sin θ]]/θ', () => {
    const G = SEn(2);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const t = tangent(3, seed, 3);
        const v1 = t[0]!;
        const v2 = t[1]!;
        const th = t[2]!;
        const c = Math.cos(th);
        const s = Math.sin(th);
        const a = s / th;
        const b = (2 * Math.sin(th / 2) ** 2) / th; // (1 − cos θ)/θ without cancellation
        const ref = [c, -s, a * v1 - b * v2, s, c, b * v1 + a * v2, 0, 0, 1];
        const X = G.exp(new Float64Array(9), t);
        const scale = 1 + Math.hypot(v1, v2);
        // measured ≤ 4e-16·(1 + |v|) (exp) and 3e-15·(1 + |v|) (log) over 20000 samples
        expect(maxAbsDiff(X, ref)).toBeLessThan(4e-15 * scale);
        expect(maxAbsDiff(G.log(new Float64Array(3), X), t)).toBeLessThan(3e-14 * scale);
      }),
      { numRuns: 200 },
    );
  });

  it('SEn(3): Exp(v, ω) = [[Rodrigues(ω), V(ω)v], [0, 1]], V = I + (1−cos θ)/θ²ω^ + (θ−sin θ)/θ³ω^²', () => {
    const G = SEn(3);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const t = tangent(6, seed, 1.2);
        const w = t.subarray(3);
        const th = Math.hypot(w[0]!, w[1]!, w[2]!);
        const W = skew3(w);
        const W2 = matMul(W, W, 3);
        const a = Math.sin(th) / th;
        const b = (2 * Math.sin(th / 2) ** 2) / (th * th); // (1 − cos θ)/θ², no cancellation
        const c = (th - Math.sin(th)) / (th * th * th);
        const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
        const R = I.map((x, i) => x + a * W[i]! + b * W2[i]!);
        const V = I.map((x, i) => x + b * W[i]! + c * W2[i]!);
        const Vv = matVec(V, t, 3);
        const X = G.exp(new Float64Array(16), t);
        for (let i = 0; i < 3; i++) {
          for (let j = 0; j < 3; j++)
            expect(Math.abs(X[i * 4 + j]! - R[i * 3 + j]!)).toBeLessThan(1e-14);
          expect(Math.abs(X[i * 4 + 3]! - Vv[i]!)).toBeLessThan(1e-14);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('SEn(3): Ad_X = [[R, [t]×R], [0, R]] and ad_τ = [[ω^, v^], [0, ω^]] (manif eqs. 170, 176)', () => {
    const G = SEn(3);
    for (let seed = 1; seed <= 50; seed++) {
      const X = G.random(new Float64Array(16), rng(seed));
      const R = Float64Array.from({ length: 9 }, (_, k) => X[Math.floor(k / 3) * 4 + (k % 3)]!);
      const tR = matMul(skew3([X[3]!, X[7]!, X[11]!]), R, 3);
      const Ad = G.adj(new Float64Array(36), X);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          expect(Math.abs(Ad[i * 6 + j]! - R[i * 3 + j]!)).toBe(0);
          expect(Math.abs(Ad[(i + 3) * 6 + j + 3]! - R[i * 3 + j]!)).toBeLessThan(1e-15);
          expect(Math.abs(Ad[i * 6 + j + 3]! - tR[i * 3 + j]!)).toBeLessThan(1e-14);
          expect(Ad[(i + 3) * 6 + j]).toBe(0);
        }
      const t = tangent(6, seed, 1);
      const ad = G.smallAdj(new Float64Array(36), t);
      const W = skew3(t.subarray(3));
      const Vh = skew3(t);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          expect(ad[i * 6 + j]).toBe(W[i * 3 + j]);
          expect(ad[(i + 3) * 6 + j + 3]).toBe(W[i * 3 + j]);
          expect(ad[i * 6 + j + 3]).toBe(Vh[i * 3 + j]);
          expect(ad[(i + 3) * 6 + j]).toBe(0);
        }
    }
  });
});

describe.each([2, 3, 4, 5])('SE(%i): identities at the stated tolerances', (n) => {
  const G = SEn(n);
  const { dim, storageSize: S } = G;
  const N = n + 1;
  const el = () => new Float64Array(S);
  const sq = () => new Float64Array(dim * dim);

  it('X·Exp(τ) = Exp(Ad_X τ)·X to 1e-11 and Ad_{Exp(τ)} = J_l(τ)·J_r(τ)⁻¹ to 1e-12', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const X = G.random(el(), rng(seed));
      const t = tangent(dim, seed + 100, 0.8);
      const Ad = G.adj(sq(), X);
      const left = G.compose(el(), X, G.exp(el(), t));
      const right = G.compose(el(), G.exp(el(), matVec(Ad, t, dim)), X);
      expect(maxAbsDiff(left, right)).toBeLessThan(1e-11);
      const AdE = G.adj(sq(), G.exp(el(), t));
      const JlJrInv = matMul(G.ljac(sq(), t), G.rjacInv(sq(), t), dim);
      expect(maxAbsDiff(AdE, JlJrInv)).toBeLessThan(1e-12);
    }
  });

  it('J_r·J_r⁻¹ = J_l·J_l⁻¹ = I to 1e-12; J_r(0) = I exactly', () => {
    const I = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++) I[i * dim + i] = 1;
    for (let seed = 1; seed <= 20; seed++) {
      const t = tangent(dim, seed, 0.8);
      expect(maxAbsDiff(matMul(G.rjac(sq(), t), G.rjacInv(sq(), t), dim), I)).toBeLessThan(1e-12);
      expect(maxAbsDiff(matMul(G.ljac(sq(), t), G.ljacInv(sq(), t), dim), I)).toBeLessThan(1e-12);
    }
    expect(maxAbsDiff(G.rjac(sq(), new Float64Array(dim)), I)).toBe(0);
  });

  it('random: R ∈ SO(n) (RᵀR = I to 1e-14, det R = 1), t ∈ [−2, 2]ⁿ, |Log ω| ≤ SEN_RANDOM_MAX_ANGLE', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const X = G.random(el(), rng(seed));
      const R = Float64Array.from({ length: n * n }, (_, k) => X[Math.floor(k / n) * N + (k % n)]!);
      const Rt = Float64Array.from(
        { length: n * n },
        (_, k) => R[(k % n) * n + Math.floor(k / n)]!,
      );
      const RtR = matMul(Rt, R, n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          expect(Math.abs(RtR[i * n + j]! - (i === j ? 1 : 0))).toBeLessThan(1e-14);
      expect(Math.abs(new DenseLU(n).factor(R).determinant() - 1)).toBeLessThan(1e-14);
      for (let a = 0; a < n; a++) expect(Math.abs(X[a * N + n]!)).toBeLessThanOrEqual(2);
      for (let j = 0; j < n; j++) expect(X[n * N + j]).toBe(0);
      expect(X[n * N + n]).toBe(1);
      const tau = G.log(new Float64Array(dim), X);
      let w2 = 0;
      for (let k = n; k < dim; k++) w2 += tau[k]! * tau[k]!;
      expect(Math.sqrt(w2)).toBeLessThan(SEN_RANDOM_MAX_ANGLE + 1e-12);
    }
  });

  it('compose, inverse, between and act allow out to alias their inputs', () => {
    const A = G.random(el(), rng(11));
    const B = G.random(el(), rng(12));
    const AB = G.compose(el(), A, B);
    const a = A.slice();
    expect(maxAbsDiff(G.compose(a, a, B), AB)).toBe(0);
    const b = B.slice();
    expect(maxAbsDiff(G.compose(b, A, b), AB)).toBe(0);
    const inv = G.inverse(el(), A);
    const c = A.slice();
    expect(maxAbsDiff(G.inverse(c, c), inv)).toBe(0);
    const d = B.slice();
    expect(maxAbsDiff(G.between(d, A, d), G.compose(el(), inv, B))).toBe(0);
    const p = tangent(n, 5, 1);
    const q = G.act(new Float64Array(n), A, p);
    expect(maxAbsDiff(G.act(p, A, p), q)).toBe(0);
  });
});
