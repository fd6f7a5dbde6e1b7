/**
 * The additive group Rⁿ as a Lie group (translations of Rⁿ): composition is vector addition, the
 * exponential is the identity, adjoints and Jacobians are identities. Lets vector-valued states
 * use the same ⊕/⊖ code as the rotation groups. Conventions: `packages/core/CONVENTIONS.md`
 * (Rⁿ: the element is the vector itself; τ^ has τ in its last column). Closed forms: manif
 * (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix E.
 *
 * @module
 */
import { DomainError } from '../errors.js';
import type { LieGroup, Rng } from './types.js';

/**
 * Rⁿ under addition, stored as the vector itself (storageSize n; not the matrix), with dim n,
 * actionDim n and the matrix representation of size N = n + 1: the element x is the homogeneous
 * translation [[I, x], [0, 1]] ({@link toMatrix}) and τ^ = [[0, τ], [0, 0]] ({@link hat}).
 * Conventions: `packages/core/CONVENTIONS.md`. Formulas (manif appendix E): X·Y = x + y,
 * X⁻¹ = −x, Exp(τ) = τ, Log(x) = x, X ⊕ τ = x + τ, Y ⊖ X = y − x, Ad_X = I, ad_τ = 0,
 * J_r = J_l = I. All operations allocate nothing.
 *
 * @throws DomainError from the constructor when n is not a positive integer.
 *
 * @example
 * ```ts
 * const R3 = new RnGroup(3);
 * R3.rplus(new Float64Array(3), Float64Array.of(1, 2, 3), Float64Array.of(0.5, 0, -1)); // [1.5, 2, 2]
 * ```
 */
export class RnGroup implements LieGroup {
  readonly name: string;
  readonly dim: number;
  readonly storageSize: number;
  readonly matrixSize: number;
  readonly actionDim: number;
  /** Storage layout of an element: the vector itself. */
  readonly layout = 'vector';

  constructor(readonly n: number) {
    if (!Number.isInteger(n) || n < 1) {
      throw new DomainError('RnGroup: n', n, 'must be a positive integer');
    }
    this.name = `R^${n}`;
    this.dim = n;
    this.storageSize = n;
    this.matrixSize = n + 1;
    this.actionDim = n;
  }

  /** out ← 0. */
  identity(out: Float64Array): Float64Array {
    return out.fill(0, 0, this.n);
  }

  /** out ← a + b. `out` may alias `a` or `b`. */
  compose(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = a[i]! + b[i]!;
    return out;
  }

  /** out ← −a. `out` may alias `a`. */
  inverse(out: Float64Array, a: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = -a[i]!;
    return out;
  }

  /** out ← Exp(τ) = τ (a copy). */
  exp(out: Float64Array, tau: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = tau[i]!;
    return out;
  }

  /** out ← Log(x) = x (a copy). */
  log(out: Float64Array, X: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = X[i]!;
    return out;
  }

  /** out ← τ^, the (n+1)×(n+1) matrix with τ in the first n rows of its last column, 0 elsewhere. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    const N = this.n + 1;
    out.fill(0, 0, N * N);
    for (let i = 0; i < this.n; i++) out[i * N + this.n] = tau[i]!;
    return out;
  }

  /** out ← m∨, the first n entries of the last column of m. */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    const N = this.n + 1;
    for (let i = 0; i < this.n; i++) out[i] = m[i * N + this.n]!;
    return out;
  }

  /** out ← p + x (translation). `out` may alias `p`. */
  act(out: Float64Array, X: Float64Array, p: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = p[i]! + X[i]!;
    return out;
  }

  /** out ← Ad_X = I (n×n). */
  adj(out: Float64Array, _X: Float64Array): Float64Array {
    return this.eye(out);
  }

  /** out ← ad_τ = 0 (n×n): Rⁿ is abelian. */
  smallAdj(out: Float64Array, _tau: Float64Array): Float64Array {
    return out.fill(0, 0, this.n * this.n);
  }

  /** out ← x + τ. */
  rplus(out: Float64Array, X: Float64Array, tau: Float64Array): Float64Array {
    return this.compose(out, X, tau);
  }

  /** out ← y − x. */
  rminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = Y[i]! - X[i]!;
    return out;
  }

  /** out ← τ + x. */
  lplus(out: Float64Array, tau: Float64Array, X: Float64Array): Float64Array {
    return this.compose(out, tau, X);
  }

  /** out ← y − x. */
  lminus(out: Float64Array, Y: Float64Array, X: Float64Array): Float64Array {
    return this.rminus(out, Y, X);
  }

  /** out ← y − x (= X⁻¹·Y). */
  between(out: Float64Array, X: Float64Array, Y: Float64Array): Float64Array {
    return this.rminus(out, Y, X);
  }

  /** out ← J_r = I (n×n). */
  rjac(out: Float64Array, _tau: Float64Array): Float64Array {
    return this.eye(out);
  }

  /** out ← J_l = I (n×n). */
  ljac(out: Float64Array, _tau: Float64Array): Float64Array {
    return this.eye(out);
  }

  /** out ← J_r⁻¹ = I (n×n). */
  rjacInv(out: Float64Array, _tau: Float64Array): Float64Array {
    return this.eye(out);
  }

  /** out ← J_l⁻¹ = I (n×n). */
  ljacInv(out: Float64Array, _tau: Float64Array): Float64Array {
    return this.eye(out);
  }

  /** out ← a vector with entries uniform in [−2, 2) (there is no uniform measure on Rⁿ). */
  random(out: Float64Array, rng: Rng): Float64Array {
    for (let i = 0; i < this.n; i++) out[i] = 4 * rng() - 2;
    return out;
  }

  /** out ← [[I, x], [0, 1]], the (n+1)×(n+1) homogeneous translation matrix. */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    const N = this.n + 1;
    out.fill(0, 0, N * N);
    for (let i = 0; i < N; i++) out[i * N + i] = 1;
    for (let i = 0; i < this.n; i++) out[i * N + this.n] = X[i]!;
    return out;
  }

  /** out ← the first n entries of the last column of M (no check that M is a translation). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    return this.vee(out, M);
  }

  /** out ← I (n×n). */
  private eye(out: Float64Array): Float64Array {
    const n = this.n;
    out.fill(0, 0, n * n);
    for (let i = 0; i < n; i++) out[i * n + i] = 1;
    return out;
  }
}

const cache = new Map<number, RnGroup>();

/**
 * The Rⁿ group for this n ({@link RnGroup}), one cached instance per n.
 *
 * @throws DomainError when n is not a positive integer.
 *
 * @example
 * ```ts
 * const R2 = Rn(2);
 * R2.rminus(new Float64Array(2), Float64Array.of(3, 1), Float64Array.of(1, 1)); // [2, 0]
 * Rn(2) === R2; // true
 * ```
 */
export function Rn(n: number): RnGroup {
  let G = cache.get(n);
  if (G === undefined) {
    G = new RnGroup(n);
    cache.set(n, G);
  }
  return G;
}
