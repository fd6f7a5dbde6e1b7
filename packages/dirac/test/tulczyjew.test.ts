import { matMul, transpose } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lcCircuit4 } from '../src/examples.js';
import {
  canonicalFlat,
  canonicalOmega,
  canonicalSharp,
  canonicalSymplecticMatrix,
  chiTTstarQ,
  dChi,
  differential,
  diracDifferential,
  diracDifferentialInto,
  dLambda,
  dThetaTstarTQ,
  dThetaTstarTstarQ,
  gammaQ,
  gammaQInto,
  kappaQ,
  kappaQInto,
  kappaQInv,
  kappaQInvInto,
  lambdaTTstarQ,
  omegaFlat,
  omegaFlatInto,
  omegaFlatInv,
  omegaFlatInvInto,
  omegaTstarTQ,
  omegaTstarTstarQ,
  omegaTTstarQ,
  type PontryaginPt,
  pi1,
  pi2,
  piTQ,
  piTstarQ,
  poissonSharp,
  rhoTstarTQ,
  rhoTstarTstarQ,
  rhoTTstarQ,
  sigmaQ,
  sigmaQInto,
  TpiQ,
  type TQPt,
  type TstarQPt,
  type TstarTQPt,
  type TstarTstarQPt,
  type TTstarQPt,
  tauTstarQ,
  thetaTstarTQ,
  thetaTstarTstarQ,
  tstarTQView,
  tstarTstarQView,
  ttstarQView,
} from '../src/tulczyjew.js';
import type { Lagrangian } from '../src/types.js';
import { diagonalMassLagrangian } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// helpers

const entries = (len: number, bound = 10) =>
  fc.float64Array({
    minLength: len,
    maxLength: len,
    noNaN: true,
    noDefaultInfinity: true,
    min: -bound,
    max: bound,
  });

/** n ∈ [1, 5] with a flat 4n-vector. */
const point4 = fc
  .integer({ min: 1, max: 5 })
  .chain((n) => entries(4 * n).map((buf) => ({ n, buf })));

/** max |a − b| (treats −0 = 0, so "exact" means bitwise-equal up to the sign of zero). */
function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let s = 0;
  for (let i = 0; i < a.length; i++) s = Math.max(s, Math.abs(a[i]! - b[i]!));
  return s;
}

const cat = (...xs: Float64Array[]): Float64Array => {
  const out = new Float64Array(xs.reduce((s, x) => s + x.length, 0));
  let o = 0;
  for (const x of xs) {
    out.set(x, o);
    o += x.length;
  }
  return out;
};
const flatTT = (x: TTstarQPt) => cat(x.q, x.p, x.dq, x.dp);
const flatTsT = (y: TstarTQPt) => cat(y.q, y.v, y.a, y.b);
const flatTsTs = (y: TstarTstarQPt) => cat(y.q, y.p, y.alpha, y.w);
const flatTQ = (x: TQPt) => cat(x.q, x.v);
const flatTsQ = (x: TstarQPt) => cat(x.q, x.p);
const flatP = (x: PontryaginPt) => cat(x.q, x.v, x.p);

/** Jacobian (4n×4n, row-major) of a linear map between 4n-bundles, column k = F(e_k). */
function jacobian<X, Y>(
  n: number,
  viewIn: (b: Float64Array, n: number) => X,
  viewOut: (b: Float64Array, n: number) => Y,
  f: (out: Y, x: X) => Y,
): Float64Array {
  const N = 4 * n;
  const J = new Float64Array(N * N);
  for (let k = 0; k < N; k++) {
    const e = new Float64Array(N);
    e[k] = 1;
    const y = new Float64Array(N);
    f(viewOut(y, n), viewIn(e, n));
    for (let i = 0; i < N; i++) J[i * N + k] = y[i]!;
  }
  return J;
}

/** Jᵀ K J for N×N matrices. */
function pullbackTwoForm(J: Float64Array, K: Float64Array, N: number): Float64Array {
  const Jt = transpose(new Float64Array(N * N), J, N, N);
  const KJ = matMul(new Float64Array(N * N), K, J, N, N, N);
  return matMul(new Float64Array(N * N), Jt, KJ, N, N, N);
}

/** Exterior derivative of a one-form with linear coefficients c(x) = Cx: (dθ)_ij = C_ji − C_ij. */
function exteriorDerivativeOfLinear(coef: (out: Float64Array, x: Float64Array) => void, N: number) {
  const C = new Float64Array(N * N); // C[j][i] = ∂c_j/∂x^i = c(e_i)_j
  for (let i = 0; i < N; i++) {
    const e = new Float64Array(N);
    e[i] = 1;
    const c = new Float64Array(N);
    coef(c, e);
    for (let j = 0; j < N; j++) C[j * N + i] = c[j]!;
  }
  const K = new Float64Array(N * N);
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) K[i * N + j] = C[j * N + i]! - C[i * N + j]!;
  return K;
}

const negate = (a: Float64Array) => a.map((x) => -x);

// ---------------------------------------------------------------------------------------------

describe('Tulczyjew maps: local forms (spec 002 §3.7, §5.5)', () => {
  const n = 2;
  const x = ttstarQView(Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8), n); // (q, p, δq, δp)

  it('κ_Q(q, p, δq, δp) = (q, δq, δp, p) and κ_Q⁻¹ inverts it', () => {
    expect(Array.from(flatTsT(kappaQ(x)))).toEqual([1, 2, 5, 6, 7, 8, 3, 4]);
    expect(Array.from(flatTT(kappaQInv(kappaQ(x))))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('Ω♭(q, p, δq, δp) = (q, p, −δp, δq), (Ω♭)⁻¹(q, p, α, w) = (q, p, w, −α)', () => {
    expect(Array.from(flatTsTs(omegaFlat(x)))).toEqual([1, 2, 3, 4, -7, -8, 5, 6]);
    const y = tstarTstarQView(Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8), n);
    expect(Array.from(flatTT(omegaFlatInv(y)))).toEqual([1, 2, 3, 4, 7, 8, -5, -6]);
    expect(poissonSharp).toBe(omegaFlatInv);
  });

  it('γ_Q(q, v, a, b) = (q, b, −a, v) and σ_Q(q, p, α, w) = (q, w, −α, p)', () => {
    const y = tstarTQView(Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8), n);
    expect(Array.from(flatTsTs(gammaQ(y)))).toEqual([1, 2, 7, 8, -5, -6, 3, 4]);
    const u = tstarTstarQView(Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8), n);
    expect(Array.from(flatTsT(sigmaQ(u)))).toEqual([1, 2, 7, 8, -5, -6, 3, 4]);
  });

  it('projections and ρ maps drop the right blocks', () => {
    const y = kappaQ(x);
    const a = omegaFlat(x);
    expect(Array.from(flatTQ(TpiQ(x)))).toEqual([1, 2, 5, 6]);
    expect(Array.from(flatTsQ(tauTstarQ(x)))).toEqual([1, 2, 3, 4]);
    expect(Array.from(flatTQ(piTQ(y)))).toEqual([1, 2, 5, 6]);
    expect(Array.from(flatTsQ(pi1(y)))).toEqual([1, 2, 3, 4]);
    expect(Array.from(flatTsQ(piTstarQ(a)))).toEqual([1, 2, 3, 4]);
    expect(Array.from(flatTQ(pi2(a)))).toEqual([1, 2, 5, 6]);
    expect(Array.from(flatP(rhoTTstarQ(x)))).toEqual([1, 2, 5, 6, 3, 4]);
    expect(Array.from(flatP(rhoTstarTQ(y)))).toEqual([1, 2, 5, 6, 3, 4]);
    expect(Array.from(flatP(rhoTstarTstarQ(a)))).toEqual([1, 2, 5, 6, 3, 4]);
  });

  it('allocating maps copy (no aliasing with the input); Into variants write into views', () => {
    const y = kappaQ(x);
    y.b[0] = 99;
    expect(x.p[0]).toBe(3);
    const buf = new Float64Array(8);
    kappaQInto(tstarTQView(buf, n), x);
    expect(Array.from(buf)).toEqual([1, 2, 5, 6, 7, 8, 3, 4]);
  });

  it('rejects mismatched sizes with DimensionError', () => {
    const bad = { q: new Float64Array(2), p: new Float64Array(3), dq: x.dq, dp: x.dp };
    expect(() => kappaQ(bad)).toThrow(/kappaQ/);
    expect(() => ttstarQView(new Float64Array(7), 2)).toThrow(/buffer/);
  });
});

describe('round trips are exact (spec 002 §6 item 3)', () => {
  it('κ∘κ⁻¹ = id, κ⁻¹∘κ = id, Ω♭∘(Ω♭)⁻¹ = id, (Ω♭)⁻¹∘Ω♭ = id, γ∘σ = id, σ∘γ = id (error 0)', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const x = ttstarQView(buf, n);
        const y = tstarTQView(buf, n);
        const u = tstarTstarQView(buf, n);
        expect(maxAbsDiff(flatTsT(kappaQ(kappaQInv(y))), buf)).toBe(0);
        expect(maxAbsDiff(flatTT(kappaQInv(kappaQ(x))), buf)).toBe(0);
        expect(maxAbsDiff(flatTsTs(omegaFlat(omegaFlatInv(u))), buf)).toBe(0);
        expect(maxAbsDiff(flatTT(omegaFlatInv(omegaFlat(x))), buf)).toBe(0);
        expect(maxAbsDiff(flatTsTs(gammaQ(sigmaQ(u))), buf)).toBe(0);
        expect(maxAbsDiff(flatTsT(sigmaQ(gammaQ(y))), buf)).toBe(0);
        // out-first variants agree with the allocating ones
        const o = new Float64Array(4 * n);
        gammaQInto(tstarTstarQView(o, n), y);
        expect(maxAbsDiff(o, flatTsTs(gammaQ(y)))).toBe(0);
        sigmaQInto(tstarTQView(o, n), u);
        expect(maxAbsDiff(o, flatTsT(sigmaQ(u)))).toBe(0);
        omegaFlatInvInto(ttstarQView(o, n), u);
        expect(maxAbsDiff(o, flatTT(omegaFlatInv(u)))).toBe(0);
        kappaQInvInto(ttstarQView(o, n), y);
        expect(maxAbsDiff(o, flatTT(kappaQInv(y)))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('γ_Q = Ω♭∘κ_Q⁻¹ and σ_Q = κ_Q∘(Ω♭)⁻¹ (error 0)', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const y = tstarTQView(buf, n);
        const u = tstarTstarQView(buf, n);
        expect(maxAbsDiff(flatTsTs(gammaQ(y)), flatTsTs(omegaFlat(kappaQInv(y))))).toBe(0);
        expect(maxAbsDiff(flatTsT(sigmaQ(u)), flatTsT(kappaQ(omegaFlatInv(u))))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('commutation laws and ρ identities (seed 002 (4.1), (4.2), §4, §5; exact)', () => {
  it('π_{TQ}∘κ_Q = Tπ_Q (4.1), π¹∘κ_Q = τ_{T*Q} (4.2), π_{T*Q}∘Ω♭ = τ_{T*Q}, π²∘Ω♭ = Tπ_Q', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const x = ttstarQView(buf, n);
        expect(maxAbsDiff(flatTQ(piTQ(kappaQ(x))), flatTQ(TpiQ(x)))).toBe(0);
        expect(maxAbsDiff(flatTsQ(pi1(kappaQ(x))), flatTsQ(tauTstarQ(x)))).toBe(0);
        expect(maxAbsDiff(flatTsQ(piTstarQ(omegaFlat(x))), flatTsQ(tauTstarQ(x)))).toBe(0);
        expect(maxAbsDiff(flatTQ(pi2(omegaFlat(x))), flatTQ(TpiQ(x)))).toBe(0);
        // π² = Tπ_Q∘(Ω♭)⁻¹ on T*T*Q
        const u = tstarTstarQView(buf, n);
        expect(maxAbsDiff(flatTQ(pi2(u)), flatTQ(TpiQ(omegaFlatInv(u))))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('ρ_{TT*Q} = ρ_{T*TQ}∘κ_Q, ρ_{T*T*Q} = ρ_{TT*Q}∘(Ω♭)⁻¹ = ρ_{T*TQ}∘σ_Q, pr_{TQ}∘ρ_{T*TQ} = π_{TQ}', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const x = ttstarQView(buf, n);
        const y = tstarTQView(buf, n);
        const u = tstarTstarQView(buf, n);
        expect(maxAbsDiff(flatP(rhoTTstarQ(x)), flatP(rhoTstarTQ(kappaQ(x))))).toBe(0);
        expect(maxAbsDiff(flatP(rhoTstarTstarQ(u)), flatP(rhoTTstarQ(omegaFlatInv(u))))).toBe(0);
        expect(maxAbsDiff(flatP(rhoTstarTstarQ(u)), flatP(rhoTstarTQ(sigmaQ(u))))).toBe(0);
        const r = rhoTstarTQ(y);
        expect(maxAbsDiff(cat(r.q, r.v), flatTQ(piTQ(y)))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('erratum: the printed ρ_{T*TQ}∘(Ω♭)⁻¹ does not compose; read literally it misses (q, w, p)', () => {
    // (Ω♭)⁻¹(q, p, α, w) = (q, p, w, −α) ∈ TT*Q; fed into ρ_{T*TQ} as if it were (q, v, a, b)
    // it gives (q, p, −α), not the printed local form (q, w, p) that rhoTstarTstarQ implements.
    const u = tstarTstarQView(Float64Array.of(1, 2, 3, 4), 1);
    const x = omegaFlatInv(u);
    const literal = rhoTstarTQ({ q: x.q, v: x.p, a: x.dq, b: x.dp });
    expect(Array.from(flatP(literal))).toEqual([1, 2, -3]);
    expect(Array.from(flatP(rhoTstarTstarQ(u)))).toEqual([1, 4, 2]);
  });
});

describe('canonical one-forms and their derivatives (Prop 4.2; exact)', () => {
  it('κ_Q*Θ_{T*TQ} = λ and (Ω♭)*Θ_{T*T*Q} = χ as coefficient arrays (error 0)', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const N = 4 * n;
        const x = ttstarQView(buf, n);
        const Jk = jacobian(n, ttstarQView, tstarTQView, kappaQInto);
        const Jf = jacobian(n, ttstarQView, tstarTstarQView, omegaFlatInto);
        const theta1 = thetaTstarTQ(new Float64Array(N), kappaQ(x));
        const theta2 = thetaTstarTstarQ(new Float64Array(N), omegaFlat(x));
        const pull1 = matMul(
          new Float64Array(N),
          transpose(new Float64Array(N * N), Jk, N, N),
          theta1,
          N,
          N,
          1,
        );
        const pull2 = matMul(
          new Float64Array(N),
          transpose(new Float64Array(N * N), Jf, N, N),
          theta2,
          N,
          N,
          1,
        );
        expect(maxAbsDiff(pull1, lambdaTTstarQ(new Float64Array(N), x))).toBe(0);
        expect(maxAbsDiff(pull2, chiTTstarQ(new Float64Array(N), x))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('the d-matrices are (dθ)_ij = ∂_iθ_j − ∂_jθ_i of the coefficient arrays; dχ = −dλ = Ω_{TT*Q}', () => {
    for (let n = 1; n <= 5; n++) {
      const N = 4 * n;
      const dl = exteriorDerivativeOfLinear((o, x) => lambdaTTstarQ(o, ttstarQView(x, n)), N);
      const dc = exteriorDerivativeOfLinear((o, x) => chiTTstarQ(o, ttstarQView(x, n)), N);
      const d1 = exteriorDerivativeOfLinear((o, x) => thetaTstarTQ(o, tstarTQView(x, n)), N);
      const d2 = exteriorDerivativeOfLinear(
        (o, x) => thetaTstarTstarQ(o, tstarTstarQView(x, n)),
        N,
      );
      expect(maxAbsDiff(dLambda(n), dl)).toBe(0);
      expect(maxAbsDiff(dChi(n), dc)).toBe(0);
      expect(maxAbsDiff(dThetaTstarTQ(n), d1)).toBe(0);
      expect(maxAbsDiff(dThetaTstarTstarQ(n), d2)).toBe(0);
      expect(maxAbsDiff(dChi(n), negate(dLambda(n)))).toBe(0);
      expect(maxAbsDiff(omegaTTstarQ(n), dChi(n))).toBe(0);
      // Ω_{T*M} = −dΘ_{T*M} is the standard W of the 2n-dimensional base
      expect(maxAbsDiff(omegaTstarTQ(n), negate(dThetaTstarTQ(n)))).toBe(0);
      expect(maxAbsDiff(omegaTstarTstarQ(n), negate(dThetaTstarTstarQ(n)))).toBe(0);
      expect(maxAbsDiff(omegaTstarTQ(n), canonicalSymplecticMatrix(2 * n))).toBe(0);
    }
  });

  it('Ω_{TT*Q}(X, Y) = (dq∧dδp + dδq∧dp)(X, Y) (1e-12 relative)', () => {
    fc.assert(
      fc.property(point4, entries(20), ({ n, buf: X }, Yall) => {
        const N = 4 * n;
        const Y = Yall.subarray(0, N);
        const K = omegaTTstarQ(n);
        let xKy = 0;
        let scale = 1;
        for (let i = 0; i < N; i++)
          for (let j = 0; j < N; j++) xKy += X[i]! * K[i * N + j]! * Y[j]!;
        let expected = 0;
        for (let i = 0; i < n; i++) {
          const [q, p, dq, dp] = [0, 1, 2, 3].map((b) => b * n + i) as [
            number,
            number,
            number,
            number,
          ];
          expected += X[q]! * Y[dp]! - X[dp]! * Y[q]! + X[dq]! * Y[p]! - X[p]! * Y[dq]!;
          scale +=
            Math.abs(X[q]! * Y[dp]!) +
            Math.abs(X[dq]! * Y[p]!) +
            Math.abs(X[dp]! * Y[q]!) +
            Math.abs(X[p]! * Y[dq]!);
        }
        expect(Math.abs(xKy - expected)).toBeLessThanOrEqual(1e-12 * scale);
      }),
      { numRuns: 200 },
    );
  });
});

describe('symplecticity with the Jacobians of the linear maps (spec 002 §3.7 sign subtlety; exact)', () => {
  it('κ_Q symplectic, Ω♭ and γ_Q anti-symplectic: JᵀΩJ = ±Ω with error 0, n = 1..5', () => {
    for (let n = 1; n <= 5; n++) {
      const N = 4 * n;
      const Jk = jacobian(n, ttstarQView, tstarTQView, kappaQInto);
      const Jf = jacobian(n, ttstarQView, tstarTstarQView, omegaFlatInto);
      const Jg = jacobian(n, tstarTQView, tstarTstarQView, gammaQInto);
      const Js = jacobian(n, tstarTstarQView, tstarTQView, sigmaQInto);
      const W = canonicalSymplecticMatrix(2 * n);
      expect(maxAbsDiff(pullbackTwoForm(Jk, omegaTstarTQ(n), N), omegaTTstarQ(n))).toBe(0);
      expect(maxAbsDiff(pullbackTwoForm(Jf, omegaTstarTstarQ(n), N), negate(omegaTTstarQ(n)))).toBe(
        0,
      );
      expect(maxAbsDiff(pullbackTwoForm(Jg, W, N), negate(W))).toBe(0);
      expect(maxAbsDiff(pullbackTwoForm(Js, W, N), negate(W))).toBe(0);
    }
  });

  it('erratum: the paper calls γ_Q a symplectomorphism; JᵀWJ = +W fails by 2 in every nonzero entry', () => {
    const n = 3;
    const Jg = jacobian(n, tstarTQView, tstarTstarQView, gammaQInto);
    const W = canonicalSymplecticMatrix(2 * n);
    expect(maxAbsDiff(pullbackTwoForm(Jg, W, 4 * n), W)).toBe(2);
  });
});

describe('canonical Ω on T_{(q,p)}T*Q (spec 002 §2, §6 item 5)', () => {
  it('Ω♭(u, α) = (−α, u) = Wᵀx exactly; B♯ inverts it; Ω♭ on TT*Q acts fibrewise by it', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const x = buf.subarray(0, 2 * n);
        const W = canonicalSymplecticMatrix(n);
        const Wt = transpose(new Float64Array(4 * n * n), W, 2 * n, 2 * n);
        const f = canonicalFlat(new Float64Array(2 * n), x);
        expect(maxAbsDiff(f, cat(negate(x.subarray(n)), x.subarray(0, n)))).toBe(0);
        expect(maxAbsDiff(f, matMul(new Float64Array(2 * n), Wt, x, 2 * n, 2 * n, 1))).toBe(0);
        expect(maxAbsDiff(canonicalSharp(new Float64Array(2 * n), f), x)).toBe(0);
        const z = ttstarQView(buf, n);
        const y = omegaFlat(z);
        const fibre = canonicalFlat(new Float64Array(2 * n), cat(z.dq, z.dp));
        expect(maxAbsDiff(cat(y.alpha, y.w), fibre)).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('Ω(x, y) = xᵀWy = ⟨α₂, u₁⟩ − ⟨α₁, u₂⟩ = ⟨Ω♭x, y⟩ (1e-12 relative)', () => {
    fc.assert(
      fc.property(point4, ({ n, buf }) => {
        const x = buf.subarray(0, 2 * n);
        const y = buf.subarray(2 * n, 4 * n);
        const W = canonicalSymplecticMatrix(n);
        let xWy = 0;
        let scale = 1;
        for (let i = 0; i < 2 * n; i++)
          for (let j = 0; j < 2 * n; j++) {
            xWy += x[i]! * W[i * 2 * n + j]! * y[j]!;
            scale += Math.abs(x[i]! * y[j]!);
          }
        let paper = 0;
        for (let i = 0; i < n; i++) paper += y[n + i]! * x[i]! - x[n + i]! * y[i]!;
        const f = canonicalFlat(new Float64Array(2 * n), x);
        let fy = 0;
        for (let i = 0; i < 2 * n; i++) fy += f[i]! * y[i]!;
        const omega = canonicalOmega(x, y);
        expect(Math.abs(omega - xWy)).toBeLessThanOrEqual(1e-12 * scale);
        expect(Math.abs(omega - paper)).toBeLessThanOrEqual(1e-12 * scale);
        expect(Math.abs(omega - fy)).toBeLessThanOrEqual(1e-12 * scale);
        expect(Math.abs(omega + canonicalOmega(y, x))).toBeLessThanOrEqual(1e-12 * scale);
      }),
      { numRuns: 200 },
    );
  });

  it('Ω = dq∧dp: Ω(∂_q, ∂_p) = +1; B♯(dH) = (∂H/∂p, −∂H/∂q) for H = ½p² + ½q²', () => {
    expect(canonicalOmega([1, 0], [0, 1])).toBe(1);
    // at (q, p) = (1, 2): dH = (α, w) = (q, p) = (1, 2), X_H = (p, −q) = (2, −1)
    const X = poissonSharp(tstarTstarQView(Float64Array.of(1, 2, 1, 2), 1));
    expect([X.dq[0], X.dp[0]]).toEqual([2, -1]);
  });
});

// ---------------------------------------------------------------------------------------------
// Lagrangians for the Dirac differential

interface TestLagrangianParams {
  n: number;
  M0: Float64Array; // n×n, symmetrized below
  M1: Float64Array;
  w: Float64Array; // n
  beta: Float64Array; // n
  kappa: Float64Array; // n
  eta: number;
}

/**
 * L = ½vᵀM(q)v + Σβᵢcos(qᵢ)vᵢ − V(q), M(q) = M0 + sin(wᵀq)M1 (symmetric),
 * V(q) = Σ(½κᵢqᵢ² − η cos qᵢ); analytic derivatives.
 */
function testLagrangian(P: TestLagrangianParams): Lagrangian {
  const { n, w, beta, kappa, eta } = P;
  const sym = (A: Float64Array) => {
    const S = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) S[i * n + j] = 0.5 * (A[i * n + j]! + A[j * n + i]!);
    return S;
  };
  const M0 = sym(P.M0);
  const M1 = sym(P.M1);
  const wq = (q: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i]! * q[i]!;
    return s;
  };
  const quad = (M: Float64Array, v: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s += v[i]! * M[i * n + j]! * v[j]!;
    return s;
  };
  const Mv = (M: Float64Array, v: Float64Array, i: number) => {
    let s = 0;
    for (let j = 0; j < n; j++) s += M[i * n + j]! * v[j]!;
    return s;
  };
  return {
    n,
    L(q, v) {
      const s = Math.sin(wq(q));
      let L = 0.5 * (quad(M0, v) + s * quad(M1, v));
      for (let i = 0; i < n; i++)
        L +=
          beta[i]! * Math.cos(q[i]!) * v[i]! - 0.5 * kappa[i]! * q[i]! ** 2 + eta * Math.cos(q[i]!);
      return L;
    },
    Lq(out, q, v) {
      const c = Math.cos(wq(q));
      const vM1v = quad(M1, v);
      for (let k = 0; k < n; k++)
        out[k] =
          0.5 * c * w[k]! * vM1v -
          beta[k]! * Math.sin(q[k]!) * v[k]! -
          kappa[k]! * q[k]! -
          eta * Math.sin(q[k]!);
      return out;
    },
    Lv(out, q, v) {
      const s = Math.sin(wq(q));
      for (let i = 0; i < n; i++)
        out[i] = Mv(M0, v, i) + s * Mv(M1, v, i) + beta[i]! * Math.cos(q[i]!);
      return out;
    },
    Lvv(out, q) {
      const s = Math.sin(wq(q));
      for (let i = 0; i < n * n; i++) out[i] = M0[i]! + s * M1[i]!;
      return out;
    },
    Lvq(out, q, v) {
      const c = Math.cos(wq(q));
      for (let i = 0; i < n; i++) {
        const m1v = Mv(M1, v, i);
        for (let j = 0; j < n; j++)
          out[i * n + j] = c * w[j]! * m1v - (i === j ? beta[i]! * Math.sin(q[i]!) : 0);
      }
      return out;
    },
  };
}

const lagrangianCase = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record({
    P: fc.record({
      n: fc.constant(n),
      M0: entries(n * n, 2),
      M1: entries(n * n, 1),
      w: entries(n, 1),
      beta: entries(n, 1),
      kappa: entries(n, 2),
      eta: fc.double({ min: -1, max: 1, noNaN: true }),
    }),
    q: entries(n, 3),
    v: entries(n, 3),
  }),
);

/** Central difference of a scalar function along coordinate k of x. */
function centralPartial(f: (x: Float64Array) => number, x: Float64Array, k: number, h = 1e-6) {
  const xp = Float64Array.from(x);
  const xm = Float64Array.from(x);
  xp[k] = xp[k]! + h;
  xm[k] = xm[k]! - h;
  return (f(xp) - f(xm)) / (2 * h);
}

describe('dL and the Dirac differential 𝔇L = γ_Q∘dL (6.1) (spec 002 §6 item 7)', () => {
  it('the test Lagrangian’s analytic derivatives match central differences (1e-6 relative)', () => {
    fc.assert(
      fc.property(lagrangianCase, ({ P, q, v }) => {
        const L = testLagrangian(P);
        const n = P.n;
        const gq = L.Lq(new Float64Array(n), q, v);
        const gv = L.Lv(new Float64Array(n), q, v);
        const M = L.Lvv(new Float64Array(n * n), q, v);
        const N = L.Lvq(new Float64Array(n * n), q, v);
        for (let k = 0; k < n; k++) {
          const fq = centralPartial((x) => L.L(x, v), q, k);
          const fv = centralPartial((x) => L.L(q, x), v, k);
          expect(Math.abs(gq[k]! - fq)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(fq)));
          expect(Math.abs(gv[k]! - fv)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(fv)));
          for (let i = 0; i < n; i++) {
            const fvv = centralPartial((x) => L.Lv(new Float64Array(n), q, x)[i]!, v, k);
            const fvq = centralPartial((x) => L.Lv(new Float64Array(n), x, v)[i]!, q, k);
            expect(Math.abs(M[i * n + k]! - fvv)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(fvv)));
            expect(Math.abs(N[i * n + k]! - fvq)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(fvq)));
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('𝔇L(q, v) = γ_Q(dL(q, v)) = (q, ∂L/∂v, −∂L/∂q, v) exactly, based at 𝔽L(q, v)', () => {
    fc.assert(
      fc.property(lagrangianCase, ({ P, q, v }) => {
        const L = testLagrangian(P);
        const n = P.n;
        const dL = differential(L, q, v);
        const DL = diracDifferential(L, q, v);
        const Lq = L.Lq(new Float64Array(n), q, v);
        const Lv = L.Lv(new Float64Array(n), q, v);
        expect(maxAbsDiff(flatTsT(dL), cat(q, v, Lq, Lv))).toBe(0);
        expect(maxAbsDiff(flatTsTs(DL), flatTsTs(gammaQ(dL)))).toBe(0);
        expect(maxAbsDiff(flatTsTs(DL), cat(q, Lv, negate(Lq), v))).toBe(0);
        // base point π_{T*Q}(𝔇L) = 𝔽L(q, v) = (q, ∂L/∂v); checked against differences of L itself
        const base = piTstarQ(DL);
        expect(maxAbsDiff(base.q, q)).toBe(0);
        for (let k = 0; k < n; k++) {
          const fv = centralPartial((x) => L.L(q, x), v, k);
          expect(Math.abs(base.p[k]! - fv)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(fv)));
        }
        // ρ_{T*T*Q}(𝔇L) = ρ_{T*TQ}(dL) = (q, v, ∂L/∂v): 𝔇L and dL carry the same Pontryagin point
        expect(maxAbsDiff(flatP(rhoTstarTstarQ(DL)), flatP(rhoTstarTQ(dL)))).toBe(0);
        const o = new Float64Array(4 * n);
        diracDifferentialInto(tstarTstarQView(o, n), L, q, v);
        expect(maxAbsDiff(o, flatTsTs(DL))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('rolling disk (§7): dL and 𝔇L as printed, with −∂L/∂q = 0', () => {
    const [m, I, J] = [2, 0.3, 0.15];
    const disk = diagonalMassLagrangian([m, m, I, J]);
    const q = Float64Array.of(0.1, -0.2, 0.3, 0.4);
    const v = Float64Array.of(1, -2, 3, -4);
    expect(Array.from(flatTsT(differential(disk, q, v)))).toEqual([
      ...q,
      ...v,
      0,
      0,
      0,
      0,
      m * 1,
      m * -2,
      I * 3,
      J * -4,
    ]);
    expect(
      maxAbsDiff(flatTsTs(diracDifferential(disk, q, v)), [
        ...q,
        m * 1,
        m * -2,
        I * 3,
        J * -4,
        0,
        0,
        0,
        0,
        ...v,
      ]),
    ).toBe(0);
  });

  it('L-C circuit (7.1), (7.4): d𝓛 and 𝔇𝓛 as printed', () => {
    const [Lind, C1, C2, C3] = [0.7, 0.3, 0.5, 0.9];
    const lc = lcCircuit4({ L: Lind, C1, C2, C3 }).lagrangian; // 𝓛 (7.1)
    const q = Float64Array.of(0.2, 0.6, -0.4, 1.8);
    const f = Float64Array.of(1.5, 0.5, 1.5, 1);
    const dL = differential(lc, q, f);
    expect(
      maxAbsDiff(flatTsT(dL), [
        ...q,
        ...f,
        0,
        -q[1]! / C1,
        -q[2]! / C2,
        -q[3]! / C3,
        Lind * f[0]!,
        0,
        0,
        0,
      ]),
    ).toBe(0);
    const DL = diracDifferential(lc, q, f);
    expect(
      maxAbsDiff(flatTsTs(DL), [
        ...q,
        Lind * f[0]!,
        0,
        0,
        0,
        0,
        q[1]! / C1,
        q[2]! / C2,
        q[3]! / C3,
        ...f,
      ]),
    ).toBe(0);
  });
});
