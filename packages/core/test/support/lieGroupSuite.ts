/**
 * The shared property suite of every Lie group and retraction (STYLE.md: `describeLieGroup(G)`).
 * Samples come from fast-check seeds at the identity, near it (scale 1e-8) and at random points.
 * Conventions checked are those of `packages/core/CONVENTIONS.md`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LieGroup, Retraction } from '../../src/lie/types.js';
import { rng } from './random.js';

export interface LieSuiteOptions {
  /** Largest |τ_i| of random tangents (keep log on its principal branch). Default 0.8. */
  readonly tangentScale?: number;
  /** fast-check runs per property. Default 100. */
  readonly numRuns?: number;
  /** Tolerance of exact identities (scaled by the size of the numbers). Default 1e-11. */
  readonly tol?: number;
  /** Tolerance of the finite-difference Jacobian checks. Default 1e-7. */
  readonly fdTol?: number;
}

const FD_STEP = 1e-6;

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function matMulSq(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const aik = a[i * n + k]!;
      for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + aik * b[k * n + j]!;
    }
  return out;
}

/** exp of a square matrix by its power series, with scaling and squaring (an independent oracle). */
export function expmSeries(m: Float64Array, n: number): Float64Array {
  let norm = 0;
  for (const x of m) norm = Math.max(norm, Math.abs(x));
  const s = Math.max(0, Math.ceil(Math.log2(norm * n + 1)) + 2);
  const a = m.map((x) => x / 2 ** s);
  let term: Float64Array = new Float64Array(n * n);
  const sum = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    term[i * n + i] = 1;
    sum[i * n + i] = 1;
  }
  for (let k = 1; k < 30; k++) {
    term = matMulSq(term, a, n).map((x) => x / k);
    for (let i = 0; i < n * n; i++) sum[i] = sum[i]! + term[i]!;
  }
  let out: Float64Array = sum;
  for (let i = 0; i < s; i++) out = matMulSq(out, out, n);
  return out;
}

/** Samples of the tangent space: zero, near zero (1e-8) and random of size `scale`. */
function tangentArb(dim: number, scale: number) {
  return fc.oneof(
    fc.constant(new Float64Array(dim)),
    fc.integer().map((seed) => {
      const r = rng(seed);
      return Float64Array.from({ length: dim }, () => 1e-8 * (2 * r() - 1));
    }),
    fc.integer().map((seed) => {
      const r = rng(seed);
      return Float64Array.from({ length: dim }, () => scale * (2 * r() - 1));
    }),
  );
}

/** Group elements: the identity, near it (Exp of a 1e-8 tangent) and random ones. */
function elementArb(G: LieGroup) {
  return fc.oneof(
    fc.constant('identity' as const).map(() => G.identity(new Float64Array(G.storageSize))),
    fc.integer().map((seed) => {
      const r = rng(seed);
      const t = Float64Array.from({ length: G.dim }, () => 1e-8 * (2 * r() - 1));
      return G.exp(new Float64Array(G.storageSize), t);
    }),
    fc.integer().map((seed) => G.random(new Float64Array(G.storageSize), rng(seed))),
  );
}

/** Central finite-difference Jacobian of a map R^dim → R^dim (column j = ∂f/∂x_j). */
function fdJacobian(
  f: (x: Float64Array) => Float64Array,
  x: Float64Array,
  dim: number,
): Float64Array {
  const J = new Float64Array(dim * dim);
  for (let j = 0; j < dim; j++) {
    const xp = x.slice();
    const xm = x.slice();
    xp[j] = xp[j]! + FD_STEP;
    xm[j] = xm[j]! - FD_STEP;
    const fp = f(xp);
    const fm = f(xm);
    for (let i = 0; i < dim; i++) J[i * dim + j] = (fp[i]! - fm[i]!) / (2 * FD_STEP);
  }
  return J;
}

function isIdentityMatrix(a: Float64Array, n: number, tol: number): void {
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      expect(Math.abs(a[i * n + j]! - (i === j ? 1 : 0))).toBeLessThan(tol);
}

/**
 * Runs the shared Lie-group properties on G: axioms, exp∘log and log∘exp, exp against the matrix
 * exponential of hat, hat/vee, the adjoint identity X·Exp(τ) = Exp(Ad_X τ)·X, ad as the commutator,
 * ⊕/⊖ round trips, the action against the matrix, and every Jacobian against finite differences.
 */
export function describeLieGroup(G: LieGroup, options: LieSuiteOptions = {}): void {
  const scale = options.tangentScale ?? 0.8;
  const numRuns = options.numRuns ?? 100;
  const tol = options.tol ?? 1e-11;
  const fdTol = options.fdTol ?? 1e-7;
  const { dim, storageSize: S, matrixSize: N } = G;
  const el = () => new Float64Array(S);
  const tv = () => new Float64Array(dim);
  const X$ = elementArb(G);
  const t$ = tangentArb(dim, scale);
  const mat = (X: Float64Array) => G.toMatrix(new Float64Array(N * N), X);

  describe(`${G.name}: shared Lie-group properties`, () => {
    it('group axioms: associativity, identity, inverse', () => {
      fc.assert(
        fc.property(X$, X$, X$, (A, B, C) => {
          const ab = G.compose(el(), A, B);
          const left = G.compose(el(), ab, C);
          const right = G.compose(el(), A, G.compose(el(), B, C));
          expect(maxAbsDiff(mat(left), mat(right))).toBeLessThan(tol * 10);
          const e = G.identity(el());
          expect(maxAbsDiff(mat(G.compose(el(), A, e)), mat(A))).toBeLessThan(tol);
          expect(maxAbsDiff(mat(G.compose(el(), e, A)), mat(A))).toBeLessThan(tol);
          const ainv = G.inverse(el(), A);
          expect(maxAbsDiff(mat(G.compose(el(), A, ainv)), mat(e))).toBeLessThan(tol);
          expect(maxAbsDiff(mat(G.compose(el(), ainv, A)), mat(e))).toBeLessThan(tol);
        }),
        { numRuns },
      );
    });

    it('compose and inverse agree with the matrices; fromMatrix inverts toMatrix', () => {
      fc.assert(
        fc.property(X$, X$, (A, B) => {
          expect(maxAbsDiff(mat(G.compose(el(), A, B)), matMulSq(mat(A), mat(B), N))).toBeLessThan(
            tol,
          );
          expect(maxAbsDiff(mat(G.fromMatrix(el(), mat(A))), mat(A))).toBeLessThan(1e-15);
        }),
        { numRuns },
      );
    });

    it('exp(τ) equals the matrix exponential of hat(τ)', () => {
      fc.assert(
        fc.property(t$, (t) => {
          const viaSeries = expmSeries(G.hat(new Float64Array(N * N), t), N);
          expect(maxAbsDiff(mat(G.exp(el(), t)), viaSeries)).toBeLessThan(1e-12);
        }),
        { numRuns },
      );
    });

    it('log∘exp = id on the principal branch and exp∘log = id', () => {
      fc.assert(
        fc.property(t$, X$, (t, X) => {
          expect(maxAbsDiff(G.log(tv(), G.exp(el(), t)), t)).toBeLessThan(tol);
          expect(maxAbsDiff(mat(G.exp(el(), G.log(tv(), X))), mat(X))).toBeLessThan(tol * 10);
        }),
        { numRuns },
      );
    });

    it('vee∘hat = id', () => {
      fc.assert(
        fc.property(t$, (t) => {
          expect(maxAbsDiff(G.vee(tv(), G.hat(new Float64Array(N * N), t)), t)).toBe(0);
        }),
        { numRuns },
      );
    });

    it('adjoint: X·Exp(τ) = Exp(Ad_X τ)·X and Ad_{XY} = Ad_X Ad_Y', () => {
      fc.assert(
        fc.property(X$, X$, t$, (X, Y, t) => {
          const Ad = G.adj(new Float64Array(dim * dim), X);
          const adT = tv();
          for (let i = 0; i < dim; i++) {
            let s = 0;
            for (let j = 0; j < dim; j++) s += Ad[i * dim + j]! * t[j]!;
            adT[i] = s;
          }
          const left = G.compose(el(), X, G.exp(el(), t));
          const right = G.compose(el(), G.exp(el(), adT), X);
          expect(maxAbsDiff(mat(left), mat(right))).toBeLessThan(tol * 10);
          const AdXY = G.adj(new Float64Array(dim * dim), G.compose(el(), X, Y));
          const AdY = G.adj(new Float64Array(dim * dim), Y);
          expect(maxAbsDiff(AdXY, matMulSq(Ad, AdY, dim))).toBeLessThan(tol * 10);
        }),
        { numRuns },
      );
    });

    it('ad_τ σ = [τ^, σ^]∨', () => {
      fc.assert(
        fc.property(t$, t$, (t, s) => {
          const ad = G.smallAdj(new Float64Array(dim * dim), t);
          const th = G.hat(new Float64Array(N * N), t);
          const sh = G.hat(new Float64Array(N * N), s);
          const ts = matMulSq(th, sh, N);
          const st = matMulSq(sh, th, N);
          const bracket = G.vee(
            tv(),
            ts.map((x, i) => x - st[i]!),
          );
          const adS = tv();
          for (let i = 0; i < dim; i++) {
            let v = 0;
            for (let j = 0; j < dim; j++) v += ad[i * dim + j]! * s[j]!;
            adS[i] = v;
          }
          expect(maxAbsDiff(adS, bracket)).toBeLessThan(1e-14);
        }),
        { numRuns },
      );
    });

    it('⊕/⊖ round trips: (X⊕τ)⊖X = τ, X⊕(Y⊖X) = Y, left versions, between = X⁻¹Y', () => {
      fc.assert(
        fc.property(X$, X$, t$, (X, Y, t) => {
          expect(maxAbsDiff(G.rminus(tv(), G.rplus(el(), X, t), X), t)).toBeLessThan(tol * 10);
          expect(maxAbsDiff(G.lminus(tv(), G.lplus(el(), t, X), X), t)).toBeLessThan(tol * 10);
          const d = G.rminus(tv(), Y, X);
          expect(maxAbsDiff(mat(G.rplus(el(), X, d)), mat(Y))).toBeLessThan(tol * 10);
          const dl = G.lminus(tv(), Y, X);
          expect(maxAbsDiff(mat(G.lplus(el(), dl, X)), mat(Y))).toBeLessThan(tol * 10);
          const b = G.between(el(), X, Y);
          expect(maxAbsDiff(mat(b), mat(G.compose(el(), G.inverse(el(), X), Y)))).toBeLessThan(tol);
        }),
        { numRuns },
      );
    });

    it('act(X, p) equals the matrix action (linear or homogeneous)', () => {
      fc.assert(
        fc.property(X$, fc.integer(), (X, seed) => {
          const r = rng(seed);
          const n = G.actionDim;
          const p = Float64Array.from({ length: n }, () => 2 * r() - 1);
          const M = mat(X);
          const expected = new Float64Array(n);
          for (let i = 0; i < n; i++) {
            let s = N === n + 1 ? M[i * N + n]! : 0;
            for (let j = 0; j < n; j++) s += M[i * N + j]! * p[j]!;
            expected[i] = s;
          }
          expect(maxAbsDiff(G.act(new Float64Array(n), X, p), expected)).toBeLessThan(tol);
        }),
        { numRuns },
      );
    });

    it('J_r, J_l and their inverses match finite differences of Exp (right and left)', () => {
      fc.assert(
        fc.property(t$, (t) => {
          const E = G.exp(el(), t);
          const Einv = G.inverse(el(), E);
          const fdR = fdJacobian((x) => G.log(tv(), G.compose(el(), Einv, G.exp(el(), x))), t, dim);
          const fdL = fdJacobian((x) => G.log(tv(), G.compose(el(), G.exp(el(), x), Einv)), t, dim);
          const Jr = G.rjac(new Float64Array(dim * dim), t);
          const Jl = G.ljac(new Float64Array(dim * dim), t);
          expect(maxAbsDiff(Jr, fdR)).toBeLessThan(fdTol);
          expect(maxAbsDiff(Jl, fdL)).toBeLessThan(fdTol);
          isIdentityMatrix(matMulSq(Jr, G.rjacInv(new Float64Array(dim * dim), t), dim), dim, tol);
          isIdentityMatrix(matMulSq(Jl, G.ljacInv(new Float64Array(dim * dim), t), dim), dim, tol);
          const minus = t.map((x) => -x);
          expect(maxAbsDiff(Jl, G.rjac(new Float64Array(dim * dim), minus))).toBeLessThan(tol);
        }),
        { numRuns: Math.min(numRuns, 60) },
      );
    });

    it('hot operations write into and return their out argument', () => {
      const A = G.random(el(), rng(1));
      const B = G.random(el(), rng(2));
      const out = el();
      expect(G.compose(out, A, B)).toBe(out);
      expect(G.exp(out, tv())).toBe(out);
      const t = tv();
      expect(G.log(t, A)).toBe(t);
      const p = new Float64Array(G.actionDim);
      expect(G.act(p, A, p)).toBe(p);
    });
  });
}

export interface RetractionSuiteOptions {
  /** Largest |x_i| of sampled algebra elements (inside τ's domain). Default 0.5. */
  readonly scale?: number;
  readonly numRuns?: number;
  readonly tol?: number;
  readonly fdTol?: number;
}

/**
 * Runs the retraction properties of spec 003 §8.1: τ(x)τ(−x) = e, τ⁻¹∘τ = id, dτ and dτᴿ against
 * finite differences in the left and right trivializations, dτ·dτ⁻¹ = I, dτᴿ_x = dτ_{−x} and
 * dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}.
 */
export function describeRetraction(R: Retraction, options: RetractionSuiteOptions = {}): void {
  const G = R.group;
  const { dim, storageSize: S, matrixSize: N } = G;
  const numRuns = options.numRuns ?? 100;
  const tol = options.tol ?? 1e-11;
  const fdTol = options.fdTol ?? 1e-7;
  const x$ = tangentArb(dim, options.scale ?? 0.5);
  const el = () => new Float64Array(S);
  const tv = () => new Float64Array(dim);
  const sq = () => new Float64Array(dim * dim);
  const mat = (X: Float64Array) => G.toMatrix(new Float64Array(N * N), X);

  describe(`${G.name} retraction '${R.name}' (spec 003 §8.1)`, () => {
    it('τ(x)τ(−x) = e and τ⁻¹(τ(x)) = x', () => {
      fc.assert(
        fc.property(x$, (x) => {
          const prod = G.compose(
            el(),
            R.tau(el(), x),
            R.tau(
              el(),
              x.map((v) => -v),
            ),
          );
          expect(maxAbsDiff(mat(prod), mat(G.identity(el())))).toBeLessThan(1e-13);
          expect(maxAbsDiff(R.tauInv(tv(), R.tau(el(), x)), x)).toBeLessThan(tol);
        }),
        { numRuns },
      );
    });

    it('dτ (left) and dτᴿ (right) match finite differences; dτ·dτ⁻¹ = I', () => {
      fc.assert(
        fc.property(x$, (x) => {
          const Tinv = mat(G.inverse(el(), R.tau(el(), x)));
          const fdLeft = sq();
          const fdRight = sq();
          for (let j = 0; j < dim; j++) {
            const xp = x.slice();
            const xm = x.slice();
            xp[j] = xp[j]! + FD_STEP;
            xm[j] = xm[j]! - FD_STEP;
            const Tm = mat(R.tau(el(), xm));
            const dT = mat(R.tau(el(), xp)).map((v, i) => (v - Tm[i]!) / (2 * FD_STEP));
            const left = G.vee(tv(), matMulSq(Tinv, dT, N));
            const right = G.vee(tv(), matMulSq(dT, Tinv, N));
            for (let i = 0; i < dim; i++) {
              fdLeft[i * dim + j] = left[i]!;
              fdRight[i * dim + j] = right[i]!;
            }
          }
          const d = R.dtau(sq(), x);
          const dR = R.dtauR(sq(), x);
          expect(maxAbsDiff(d, fdLeft)).toBeLessThan(fdTol);
          expect(maxAbsDiff(dR, fdRight)).toBeLessThan(fdTol);
          isIdentityMatrix(matMulSq(d, R.dtauInv(sq(), x), dim), dim, tol);
          isIdentityMatrix(matMulSq(dR, R.dtauRInv(sq(), x), dim), dim, tol);
        }),
        { numRuns: Math.min(numRuns, 60) },
      );
    });

    it('dτᴿ_x = dτ_{−x} and dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}', () => {
      fc.assert(
        fc.property(x$, (x) => {
          const minus = x.map((v) => -v);
          expect(maxAbsDiff(R.dtauR(sq(), x), R.dtau(sq(), minus))).toBeLessThan(tol);
          const lhs = R.dtauInv(sq(), x);
          const rhs = matMulSq(R.dtauInv(sq(), minus), G.adj(sq(), R.tau(el(), x)), dim);
          expect(maxAbsDiff(lhs, rhs)).toBeLessThan(tol);
        }),
        { numRuns },
      );
    });
  });
}
