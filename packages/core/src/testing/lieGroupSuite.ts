/**
 * The shared property suite of every Lie group and retraction (STYLE.md: `describeLieGroup(G)`),
 * for vitest. Samples come from fast-check seeds at the identity, near it (scale 1e-8) and at
 * random points. The conventions checked are those of `packages/core/CONVENTIONS.md`.
 *
 * @module
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError } from '../errors.js';
import { ProductGroup } from '../lie/product.js';
import { SE23Group } from '../lie/se23.js';
import type { LieGroup, Retraction } from '../lie/types.js';
import { rng } from './random.js';

/** Options of {@link describeLieGroup}. */
export interface LieSuiteOptions {
  /** Largest |τ_i| of random tangents (keep log on its principal branch). Default 0.8. */
  readonly tangentScale?: number;
  /** fast-check runs per property. Default 100 (the Jacobian checks use at most 40). */
  readonly numRuns?: number;
  /** Tolerance of exact identities (scaled by the size of the numbers). Default 1e-11. */
  readonly tol?: number;
  /**
   * Tolerance of the finite-difference Jacobian checks, relative to max(1, max |J_ij|): central
   * differences with step 1e-6 err by ≈ h²·|f‴| + ε|f|/h ≈ 1e-10. Default 1e-7.
   */
  readonly fdTol?: number;
}

/** Step of the central differences of the suites. */
const FD_STEP = 1e-6;

/**
 * max_i |a_i − b_i| (and the two lengths must agree).
 *
 * @example
 * ```ts
 * maxAbsDiff(Float64Array.of(1, 2), Float64Array.of(1, 2.5)); // 0.5
 * ```
 */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/**
 * max |a − b|∞ / max(1, |a|∞, |b|∞): the error relative to the size of the numbers, absolute below
 * 1 (and the two lengths must agree).
 *
 * @example
 * ```ts
 * relErr(Float64Array.of(100), Float64Array.of(101)); // 0.0099
 * ```
 */
export function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  let s = 1;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i]! - b[i]!));
    s = Math.max(s, Math.abs(a[i]!), Math.abs(b[i]!));
  }
  return d / s;
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

/**
 * exp of a square n×n matrix by its power series with scaling and squaring: an oracle
 * independent of the library's Padé `expm`, accurate to ≈ 1e-15 relative for moderate norms.
 *
 * @example
 * ```ts
 * expmSeries(Float64Array.of(0, -1, 1, 0), 2); // the rotation by 1 rad
 * ```
 */
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

/**
 * Central finite-difference Jacobian of a map R^n → R^m (column j = ∂f/∂x_j), step h.
 *
 * @example
 * ```ts
 * fdJacobian((x) => Float64Array.of(x[0]! * x[1]!), Float64Array.of(2, 3), 1); // ≈ [3, 2]
 * ```
 */
export function fdJacobian(
  f: (x: Float64Array) => Float64Array,
  x: Float64Array,
  m: number,
  h = FD_STEP,
): Float64Array {
  const n = x.length;
  const J = new Float64Array(m * n);
  for (let j = 0; j < n; j++) {
    const xp = x.slice();
    const xm = x.slice();
    xp[j] = xp[j]! + h;
    xm[j] = xm[j]! - h;
    const fp = f(xp);
    const fm = f(xm);
    for (let i = 0; i < m; i++) J[i * n + j] = (fp[i]! - fm[i]!) / (2 * h);
  }
  return J;
}

function isIdentityMatrix(a: Float64Array, n: number, tol: number): void {
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      expect(Math.abs(a[i * n + j]! - (i === j ? 1 : 0))).toBeLessThan(tol);
}

/**
 * How a group's `act` sits in its matrix representation: a point p ∈ R^actionDim is embedded as
 * the N-vector `embed(p)`, the N×N matrix of X multiplies it, and `project` reads the moved point
 * back. Linear groups (N = actionDim): p itself; homogeneous groups (N = actionDim + 1): [p, 1];
 * SE₂(3): [p, 1, 0]; products: the concatenation of the factors' embeddings.
 */
export interface ActionEmbedding {
  embed(p: ArrayLike<number>): Float64Array;
  project(v: ArrayLike<number>): Float64Array;
}

/**
 * The {@link ActionEmbedding} of G (see there).
 *
 * @example
 * ```ts
 * actionEmbedding(SE3).embed(Float64Array.of(1, 2, 3)); // [1, 2, 3, 1]
 * ```
 */
export function actionEmbedding(G: LieGroup): ActionEmbedding {
  const n = G.actionDim;
  const N = G.matrixSize;
  if (G instanceof ProductGroup) {
    const parts = G.factors.map((F) => actionEmbedding(F));
    return {
      embed: (p) => {
        const v = new Float64Array(N);
        G.factors.forEach((F, i) => {
          const ao = G.actionOffset(i);
          const slice = Float64Array.from({ length: F.actionDim }, (_, k) => p[ao + k]!);
          v.set(parts[i]!.embed(slice), G.matrixOffset(i));
        });
        return v;
      },
      project: (v) => {
        const p = new Float64Array(n);
        G.factors.forEach((F, i) => {
          const mo = G.matrixOffset(i);
          const slice = Float64Array.from({ length: F.matrixSize }, (_, k) => v[mo + k]!);
          p.set(parts[i]!.project(slice), G.actionOffset(i));
        });
        return p;
      },
    };
  }
  const tail = G instanceof SE23Group ? [1, 0] : N === n + 1 ? [1] : N === n ? [] : undefined;
  if (tail === undefined)
    throw new Error(`actionEmbedding: no default embedding for ${G.name} (N = ${N}, n = ${n})`);
  return {
    embed: (p) => Float64Array.from([...Array.from(p), ...tail]),
    project: (v) => Float64Array.from({ length: n }, (_, i) => v[i]!),
  };
}

/** The kinds of the arguments of the operations with Jacobian outputs. */
type Kind = 'element' | 'tangent' | 'point';

/** An operation with Jacobian outputs, for the generic finite-difference checks. */
interface JacobianOp {
  readonly name: string;
  readonly inputs: readonly Kind[];
  readonly output: Kind;
  /** Runs the operation into a fresh output, passing Jacobian buffers when `J` is given. */
  run(G: LieGroup, args: readonly Float64Array[], J?: readonly Float64Array[]): Float64Array;
}

const JACOBIAN_OPS: readonly JacobianOp[] = [
  {
    name: 'compose',
    inputs: ['element', 'element'],
    output: 'element',
    run: (G, [a, b], J) => G.compose(new Float64Array(G.storageSize), a!, b!, J?.[0], J?.[1]),
  },
  {
    name: 'inverse',
    inputs: ['element'],
    output: 'element',
    run: (G, [a], J) => G.inverse(new Float64Array(G.storageSize), a!, J?.[0]),
  },
  {
    name: 'exp',
    inputs: ['tangent'],
    output: 'element',
    run: (G, [t], J) => G.exp(new Float64Array(G.storageSize), t!, J?.[0]),
  },
  {
    name: 'log',
    inputs: ['element'],
    output: 'tangent',
    run: (G, [X], J) => G.log(new Float64Array(G.dim), X!, J?.[0]),
  },
  {
    name: 'act',
    inputs: ['element', 'point'],
    output: 'point',
    run: (G, [X, p], J) => G.act(new Float64Array(G.actionDim), X!, p!, J?.[0], J?.[1]),
  },
  {
    name: 'rplus',
    inputs: ['element', 'tangent'],
    output: 'element',
    run: (G, [X, t], J) => G.rplus(new Float64Array(G.storageSize), X!, t!, J?.[0], J?.[1]),
  },
  {
    name: 'rminus',
    inputs: ['element', 'element'],
    output: 'tangent',
    run: (G, [Y, X], J) => G.rminus(new Float64Array(G.dim), Y!, X!, J?.[0], J?.[1]),
  },
  {
    name: 'lplus',
    inputs: ['tangent', 'element'],
    output: 'element',
    run: (G, [t, X], J) => G.lplus(new Float64Array(G.storageSize), t!, X!, J?.[0], J?.[1]),
  },
  {
    name: 'lminus',
    inputs: ['element', 'element'],
    output: 'tangent',
    run: (G, [Y, X], J) => G.lminus(new Float64Array(G.dim), Y!, X!, J?.[0], J?.[1]),
  },
  {
    name: 'between',
    inputs: ['element', 'element'],
    output: 'element',
    run: (G, [X, Y], J) => G.between(new Float64Array(G.storageSize), X!, Y!, J?.[0], J?.[1]),
  },
];

/** Size of the tangent space of an argument kind (the rows/columns of a Jacobian). */
function tangentSize(G: LieGroup, k: Kind): number {
  return k === 'point' ? G.actionDim : G.dim;
}

/**
 * Runs the shared Lie-group properties on G: axioms, exp∘log and log∘exp, exp against the matrix
 * exponential of hat, hat/vee, the adjoint identity X·Exp(τ) = Exp(Ad_X τ)·X, ad as the commutator,
 * ⊕/⊖ round trips, the action against the matrix, the Jacobians J_r, J_l and their inverses, and
 * every `J_out_*` output of compose, inverse, exp, log, act, rplus, rminus, lplus, lminus, between
 * against central differences through G's own ⊕/⊖; that asking for Jacobians changes no result
 * and aliasing `out` with an input gives the same results; isValid/normalize; that every method
 * checks its argument lengths with a DimensionError naming the method and argument; and that a NaN
 * in any entry an operation reads never yields a finite result.
 *
 * @example
 * ```ts
 * describeLieGroup(SE3); // registers the vitest tests
 * describeLieGroup(new ProductGroup([Rn(2), SO3]), { numRuns: 50 });
 * ```
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
  const action = actionEmbedding(G);

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

    it('act(X, p) equals the matrix of X applied to the embedded point', () => {
      fc.assert(
        fc.property(X$, fc.integer(), (X, seed) => {
          const r = rng(seed);
          const n = G.actionDim;
          const p = Float64Array.from({ length: n }, () => 2 * r() - 1);
          const M = mat(X);
          const v = action.embed(p);
          const Mv = new Float64Array(N);
          for (let i = 0; i < N; i++) {
            let s = 0;
            for (let j = 0; j < N; j++) s += M[i * N + j]! * v[j]!;
            Mv[i] = s;
          }
          expect(maxAbsDiff(G.act(new Float64Array(n), X, p), action.project(Mv))).toBeLessThan(
            tol,
          );
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

    /** Perturbs an argument of kind k along δ: X ⊕ δ for elements, v + δ for vectors. */
    const perturb = (k: Kind, x: Float64Array, d: Float64Array): Float64Array =>
      k === 'element' ? G.rplus(el(), x, d) : x.map((v, i) => v + d[i]!);
    /** f(x + δ) ⊖ f(x): ⊖ for elements, subtraction for vectors. */
    const difference = (k: Kind, y: Float64Array, y0: Float64Array): Float64Array =>
      k === 'element' ? G.rminus(tv(), y, y0) : y.map((v, i) => v - y0[i]!);

    for (const op of JACOBIAN_OPS) {
      it(`${op.name}: every J_out_* matches central differences through ⊕/⊖; results unchanged by Jacobian outputs`, () => {
        fc.assert(
          fc.property(X$, X$, t$, fc.integer(), (A, B, t, seed) => {
            const r = rng(seed);
            const p = Float64Array.from({ length: G.actionDim }, () => 2 * r() - 1);
            let elements = 0;
            const args = op.inputs.map((k) =>
              k === 'element' ? (elements++ === 0 ? A : B) : k === 'tangent' ? t : p,
            );
            const m = tangentSize(G, op.output);
            const Js = op.inputs.map((k) => new Float64Array(m * tangentSize(G, k)));
            const plain = op.run(G, args);
            const withJ = op.run(G, args, Js);
            expect(Array.from(withJ)).toEqual(Array.from(plain));
            op.inputs.forEach((k, a) => {
              const n = tangentSize(G, k);
              const fd = fdJacobian(
                (d) => {
                  const moved = args.slice();
                  moved[a] = perturb(k, args[a]!, d);
                  return difference(op.output, op.run(G, moved), plain);
                },
                new Float64Array(n),
                m,
              );
              let size = 1;
              for (const v of Js[a]!) size = Math.max(size, Math.abs(v));
              expect(maxAbsDiff(Js[a]!, fd)).toBeLessThan(fdTol * size);
            });
          }),
          { numRuns: Math.min(numRuns, 40) },
        );
      });
    }

    it('out may alias the inputs where documented, with and without Jacobian outputs', () => {
      const r = rng(7);
      const A = G.random(el(), r);
      const B = G.random(el(), r);
      const t = Float64Array.from({ length: dim }, () => scale * (2 * r() - 1));
      const p = Float64Array.from({ length: G.actionDim }, () => 2 * r() - 1);
      const sq = () => new Float64Array(dim * dim);
      const cases: [string, (out: Float64Array | null, J: boolean) => Float64Array][] = [
        ['compose(out = a)', (o, J) => G.compose(o ?? el(), o ?? A, B, J ? sq() : undefined)],
        ['compose(out = b)', (o, J) => G.compose(o ?? el(), A, o ?? B, J ? sq() : undefined)],
        ['inverse(out = a)', (o, J) => G.inverse(o ?? el(), o ?? A, J ? sq() : undefined)],
        [
          'rplus(out = X)',
          (o, J) => G.rplus(o ?? el(), o ?? A, t, J ? sq() : undefined, J ? sq() : undefined),
        ],
        [
          'lplus(out = X)',
          (o, J) => G.lplus(o ?? el(), t, o ?? A, J ? sq() : undefined, J ? sq() : undefined),
        ],
        ['between(out = X)', (o, J) => G.between(o ?? el(), o ?? A, B, J ? sq() : undefined)],
        ['between(out = Y)', (o, J) => G.between(o ?? el(), A, o ?? B, J ? sq() : undefined)],
        ['normalize(out = X)', (o) => G.normalize(o ?? el(), o ?? A)],
      ];
      for (const [label, f] of cases) {
        for (const J of [false, true]) {
          const expected = f(null, J);
          const aliased = (label.includes('= b') || label.includes('= Y') ? B : A).slice();
          const got = f(aliased, J);
          expect(got, label).toBe(aliased);
          expect(maxAbsDiff(got, expected), label).toBe(0);
        }
      }
      // act(out = p), with both Jacobians
      const n = G.actionDim;
      const jx = new Float64Array(n * dim);
      const jp = new Float64Array(n * n);
      const expected = G.act(new Float64Array(n), A, p, jx.slice(), jp.slice());
      const q = p.slice();
      expect(G.act(q, A, q, jx, jp)).toBe(q);
      expect(maxAbsDiff(q, expected)).toBe(0);
    });

    it('isValid accepts elements; normalize fixes elements, projects perturbed ones back, and throws on NaN', () => {
      fc.assert(
        fc.property(X$, fc.integer(), (X, seed) => {
          expect(G.isValid(X)).toBe(true);
          expect(maxAbsDiff(mat(G.normalize(el(), X)), mat(X))).toBeLessThan(1e-14);
          const r = rng(seed);
          const Y = X.map((v) => v + 1e-6 * (2 * r() - 1));
          const Z = G.normalize(el(), Y);
          expect(G.isValid(Z, 1e-13)).toBe(true);
          expect(maxAbsDiff(mat(Z), mat(X))).toBeLessThan(1e-5);
          expect(maxAbsDiff(G.normalize(el(), Z), Z)).toBeLessThan(1e-15);
          const bad = X.slice();
          bad[Math.floor(r() * S)] = Number.NaN;
          expect(G.isValid(bad)).toBe(false);
          expect(() => G.normalize(el(), bad)).toThrow(DomainError);
        }),
        { numRuns: Math.min(numRuns, 50) },
      );
    });

    it('every method checks its argument lengths: DimensionError naming method and argument', () => {
      const DD = dim * dim;
      const A = G.actionDim;
      const NN = N * N;
      const e = () => G.identity(el());
      const z = (n: number) => () => new Float64Array(n);
      const m0 = () => G.hat(new Float64Array(NN), tv());
      type Spec = [string, [string, number, () => Float64Array][]];
      const specs: Spec[] = [
        ['identity', [['out', S, z(S)]]],
        [
          'compose',
          [
            ['out', S, z(S)],
            ['a', S, e],
            ['b', S, e],
            ['J_out_a', DD, z(DD)],
            ['J_out_b', DD, z(DD)],
          ],
        ],
        [
          'inverse',
          [
            ['out', S, z(S)],
            ['a', S, e],
            ['J_out_a', DD, z(DD)],
          ],
        ],
        [
          'exp',
          [
            ['out', S, z(S)],
            ['tau', dim, tv],
            ['J_out_tau', DD, z(DD)],
          ],
        ],
        [
          'log',
          [
            ['out', dim, tv],
            ['X', S, e],
            ['J_out_X', DD, z(DD)],
          ],
        ],
        [
          'hat',
          [
            ['out', NN, z(NN)],
            ['tau', dim, tv],
          ],
        ],
        [
          'vee',
          [
            ['out', dim, tv],
            ['m', NN, m0],
          ],
        ],
        [
          'act',
          [
            ['out', A, z(A)],
            ['X', S, e],
            ['p', A, z(A)],
            ['J_out_X', A * dim, z(A * dim)],
            ['J_out_p', A * A, z(A * A)],
          ],
        ],
        [
          'adj',
          [
            ['out', DD, z(DD)],
            ['X', S, e],
          ],
        ],
        [
          'smallAdj',
          [
            ['out', DD, z(DD)],
            ['tau', dim, tv],
          ],
        ],
        [
          'rplus',
          [
            ['out', S, z(S)],
            ['X', S, e],
            ['tau', dim, tv],
            ['J_out_X', DD, z(DD)],
            ['J_out_tau', DD, z(DD)],
          ],
        ],
        [
          'rminus',
          [
            ['out', dim, tv],
            ['Y', S, e],
            ['X', S, e],
            ['J_out_Y', DD, z(DD)],
            ['J_out_X', DD, z(DD)],
          ],
        ],
        [
          'lplus',
          [
            ['out', S, z(S)],
            ['tau', dim, tv],
            ['X', S, e],
            ['J_out_tau', DD, z(DD)],
            ['J_out_X', DD, z(DD)],
          ],
        ],
        [
          'lminus',
          [
            ['out', dim, tv],
            ['Y', S, e],
            ['X', S, e],
            ['J_out_Y', DD, z(DD)],
            ['J_out_X', DD, z(DD)],
          ],
        ],
        [
          'between',
          [
            ['out', S, z(S)],
            ['X', S, e],
            ['Y', S, e],
            ['J_out_X', DD, z(DD)],
            ['J_out_Y', DD, z(DD)],
          ],
        ],
        [
          'rjac',
          [
            ['out', DD, z(DD)],
            ['tau', dim, tv],
          ],
        ],
        [
          'ljac',
          [
            ['out', DD, z(DD)],
            ['tau', dim, tv],
          ],
        ],
        [
          'rjacInv',
          [
            ['out', DD, z(DD)],
            ['tau', dim, tv],
          ],
        ],
        [
          'ljacInv',
          [
            ['out', DD, z(DD)],
            ['tau', dim, tv],
          ],
        ],
        [
          'toMatrix',
          [
            ['out', NN, z(NN)],
            ['X', S, e],
          ],
        ],
        [
          'fromMatrix',
          [
            ['out', S, z(S)],
            ['M', NN, () => mat(e())],
          ],
        ],
        ['isValid', [['X', S, e]]],
        [
          'normalize',
          [
            ['out', S, z(S)],
            ['X', S, e],
          ],
        ],
      ];
      const call = (name: string, args: Float64Array[]) =>
        (G as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!.apply(G, args);
      for (const [name, params] of specs) {
        // the right lengths pass
        expect(() =>
          call(
            name,
            params.map(([, , make]) => make()),
          ),
        ).not.toThrow();
        params.forEach(([argName, size], k) => {
          for (const wrong of [size + 1, size - 1]) {
            if (wrong < 0) continue;
            const args = params.map(([, , make]) => make());
            args[k] = new Float64Array(wrong);
            let err: unknown;
            try {
              call(name, args);
            } catch (caught) {
              err = caught;
            }
            expect(err, `${name}: ${argName} of length ${wrong}`).toBeInstanceOf(DimensionError);
            const de = err as DimensionError;
            expect(de.what.endsWith(`.${name}: ${argName}`), de.what).toBe(true);
            expect(de.expected).toBe(size);
            expect(de.got).toBe(wrong);
          }
        });
      }
      expect(() => G.random(new Float64Array(S + 1), rng(1))).toThrow(DimensionError);
    });

    it('a NaN in any entry an operation reads never gives a finite result', () => {
      const r = rng(11);
      const X = G.random(el(), r);
      const Y = G.random(el(), r);
      const t = Float64Array.from({ length: dim }, () => scale * (2 * r() - 1));
      const p = Float64Array.from({ length: G.actionDim }, () => 2 * r() - 1);
      const sq = () => new Float64Array(dim * dim);
      type Probe = [string, Float64Array, (x: Float64Array) => Float64Array];
      const probes: Probe[] = [
        ['compose(a)', X, (x) => G.compose(el(), x, Y)],
        ['compose(b)', Y, (x) => G.compose(el(), X, x)],
        ['inverse', X, (x) => G.inverse(el(), x)],
        ['exp', t, (x) => G.exp(el(), x)],
        ['log', X, (x) => G.log(tv(), x)],
        ['act(X)', X, (x) => G.act(new Float64Array(G.actionDim), x, p)],
        ['act(p)', p, (x) => G.act(new Float64Array(G.actionDim), X, x)],
        ['adj', X, (x) => G.adj(sq(), x)],
        ['smallAdj', t, (x) => G.smallAdj(sq(), x)],
        ['hat', t, (x) => G.hat(new Float64Array(N * N), x)],
        ['rplus(X)', X, (x) => G.rplus(el(), x, t)],
        ['rplus(tau)', t, (x) => G.rplus(el(), X, x)],
        ['rminus(Y)', Y, (x) => G.rminus(tv(), x, X)],
        ['rminus(X)', X, (x) => G.rminus(tv(), Y, x)],
        ['lplus(tau)', t, (x) => G.lplus(el(), x, X)],
        ['lplus(X)', X, (x) => G.lplus(el(), t, x)],
        ['lminus(Y)', Y, (x) => G.lminus(tv(), x, X)],
        ['lminus(X)', X, (x) => G.lminus(tv(), Y, x)],
        ['between(X)', X, (x) => G.between(el(), x, Y)],
        ['between(Y)', Y, (x) => G.between(el(), X, x)],
        ['rjac', t, (x) => G.rjac(sq(), x)],
        ['ljac', t, (x) => G.ljac(sq(), x)],
        ['rjacInv', t, (x) => G.rjacInv(sq(), x)],
        ['ljacInv', t, (x) => G.ljacInv(sq(), x)],
        ['toMatrix', X, (x) => G.toMatrix(new Float64Array(N * N), x)],
      ];
      const attempt = (f: (x: Float64Array) => Float64Array, x: Float64Array) => {
        try {
          return f(x);
        } catch {
          return null;
        }
      };
      for (const [label, base, f] of probes) {
        const ref = f(base);
        for (let i = 0; i < base.length; i++) {
          // does the operation read entry i? (a perturbation changes the result or throws)
          const moved = base.slice();
          moved[i] = moved[i]! + 1e-3 * (1 + Math.abs(moved[i]!));
          const m = attempt(f, moved);
          if (m !== null && maxAbsDiff(m, ref) === 0) continue;
          const x = base.slice();
          x[i] = Number.NaN;
          const out = attempt(f, x);
          if (out === null) continue; // threw: fine
          expect(
            out.some((v) => Number.isNaN(v)),
            `${G.name} ${label}: NaN at entry ${i} gave a finite result`,
          ).toBe(true);
        }
      }
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

/** Options of {@link describeRetraction}. */
export interface RetractionSuiteOptions {
  /** Largest |x_i| of sampled algebra elements (inside τ's domain). Default 0.5. */
  readonly scale?: number;
  /** fast-check runs per property. Default 100. */
  readonly numRuns?: number;
  /** Tolerance of exact identities. Default 1e-11. */
  readonly tol?: number;
  /** Tolerance of the finite-difference checks. Default 1e-7. */
  readonly fdTol?: number;
}

/**
 * Runs the retraction properties of spec 003 §8.1: τ(x)τ(−x) = e, τ⁻¹∘τ = id, dτ and dτᴿ against
 * finite differences in the left and right trivializations, dτ·dτ⁻¹ = I, dτᴿ_x = dτ_{−x} and
 * dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}.
 *
 * @example
 * ```ts
 * describeRetraction(cayleyRetraction(SE3)); // registers the vitest tests
 * ```
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
