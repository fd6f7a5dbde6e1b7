/**
 * The additive group Rⁿ as a Lie group (translations of Rⁿ): composition is vector addition, the
 * exponential is the identity, adjoints and Jacobians are identities. Lets vector-valued states
 * use the same ⊕/⊖ code as the rotation groups. Conventions: `packages/core/CONVENTIONS.md`
 * (Rⁿ: the element is the vector itself; τ^ has τ in its last column). Closed forms: manif
 * (Solà, Deray, Atchuthan, arXiv:1812.01537), appendix E.
 *
 * @module
 */
import { GROUP_VALIDITY_TOL } from '../constants.js';
import { DomainError } from '../errors.js';
import { allFinite, checkJac, lengthError } from './internal.js';
import type { LieGroup, Rng } from './types.js';

/**
 * Rⁿ under addition, stored as the vector itself (storageSize n; not the matrix), with dim n,
 * actionDim n and the matrix representation of size N = n + 1: the element x is the homogeneous
 * translation [[I, x], [0, 1]] ({@link toMatrix}) and τ^ = [[0, τ], [0, 0]] ({@link hat}).
 * Conventions: `packages/core/CONVENTIONS.md`. Formulas (manif appendix E): X·Y = x + y,
 * X⁻¹ = −x, Exp(τ) = τ, Log(x) = x, X ⊕ τ = x + τ, Y ⊖ X = y − x, Ad_X = I, ad_τ = 0,
 * J_r = J_l = I. Jacobians of the operations: compose I, I; inverse −I; act I, I; exp, log I;
 * rplus I, I; rminus I, −I; lplus I, I; lminus I, −I; between −I, I. The constant outputs (Ad,
 * ad, the J's) are NaN when an input entry is NaN, like every other output.
 *
 * Validity: every finite vector is an element (`isValid` tests finiteness; `normalize` copies and
 * throws a DomainError on a non-finite entry). Every operation checks its argument lengths
 * (DimensionError) and allocates nothing.
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
  private readonly tag: string;
  private readonly nn: readonly number[];
  private readonly nnn: readonly number[];

  constructor(readonly n: number) {
    if (!Number.isInteger(n) || n < 1) {
      throw new DomainError('RnGroup: n', n, 'must be a positive integer');
    }
    this.name = `R^${n}`;
    this.tag = `Rn(${n})`;
    this.dim = n;
    this.storageSize = n;
    this.matrixSize = n + 1;
    this.actionDim = n;
    this.nn = [n, n];
    this.nnn = [n, n, n];
  }

  /** out ← 0. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== this.n) lengthError(`${this.tag}.identity`, ['out'], [this.n], [out]);
    return out.fill(0);
  }

  /** out ← a + b. `out` may alias `a` or `b`. J_out_a = J_out_b = I. */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (a.length - n) | (b.length - n)) !== 0)
      lengthError(`${this.tag}.compose`, OUT_A_B, this.nnn, [out, a, b]);
    if (J_out_a !== undefined) this.eyeJac('compose', 'J_out_a', J_out_a, 1, a, b);
    if (J_out_b !== undefined) this.eyeJac('compose', 'J_out_b', J_out_b, 1, a, b);
    for (let i = 0; i < n; i++) out[i] = a[i]! + b[i]!;
    return out;
  }

  /** out ← −a. `out` may alias `a`. J_out_a = −I. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n) | (a.length - n)) !== 0)
      lengthError(`${this.tag}.inverse`, OUT_A, this.nn, [out, a]);
    if (J_out_a !== undefined) this.eyeJac('inverse', 'J_out_a', J_out_a, -1, a, a);
    for (let i = 0; i < n; i++) out[i] = -a[i]!;
    return out;
  }

  /** out ← Exp(τ) = τ (a copy). J_out_tau = I. */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n) | (tau.length - n)) !== 0)
      lengthError(`${this.tag}.exp`, OUT_TAU, this.nn, [out, tau]);
    if (J_out_tau !== undefined) this.eyeJac('exp', 'J_out_tau', J_out_tau, 1, tau, tau);
    for (let i = 0; i < n; i++) out[i] = tau[i]!;
    return out;
  }

  /** out ← Log(x) = x (a copy). J_out_X = I. */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.log`, OUT_X, this.nn, [out, X]);
    if (J_out_X !== undefined) this.eyeJac('log', 'J_out_X', J_out_X, 1, X, X);
    for (let i = 0; i < n; i++) out[i] = X[i]!;
    return out;
  }

  /** out ← τ^, the (n+1)×(n+1) matrix with τ in the first n rows of its last column, 0 elsewhere. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    const N = this.n + 1;
    if (((out.length - N * N) | (tau.length - this.n)) !== 0)
      lengthError(`${this.tag}.hat`, OUT_TAU, [N * N, this.n], [out, tau]);
    out.fill(0);
    for (let i = 0; i < this.n; i++) out[i * N + this.n] = tau[i]!;
    return out;
  }

  /** out ← m∨, the first n entries of the last column of m. */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    const N = this.n + 1;
    if (((out.length - this.n) | (m.length - N * N)) !== 0)
      lengthError(`${this.tag}.vee`, ['out', 'm'], [this.n, N * N], [out, m]);
    for (let i = 0; i < this.n; i++) out[i] = m[i * N + this.n]!;
    return out;
  }

  /** out ← p + x (translation). `out` may alias `p`. J_out_X = J_out_p = I. */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (X.length - n) | (p.length - n)) !== 0)
      lengthError(`${this.tag}.act`, OUT_X_P, this.nnn, [out, X, p]);
    if (J_out_X !== undefined) this.eyeJac('act', 'J_out_X', J_out_X, 1, X, p);
    if (J_out_p !== undefined) this.eyeJac('act', 'J_out_p', J_out_p, 1, X, p);
    for (let i = 0; i < n; i++) out[i] = p[i]! + X[i]!;
    return out;
  }

  /** out ← Ad_X = I (n×n; NaN when X has a NaN entry). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n * n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.adj`, OUT_X, [n * n, n], [out, X]);
    return eye(out, n, 1, X, X);
  }

  /** out ← ad_τ = 0 (n×n; NaN when τ has a NaN entry): Rⁿ is abelian. */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n * n) | (tau.length - n)) !== 0)
      lengthError(`${this.tag}.smallAdj`, OUT_TAU, [n * n, n], [out, tau]);
    return eye(out, n, 0, tau, tau);
  }

  /** out ← x + τ. `out` may alias `X`. J_out_X = J_out_tau = I. */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (X.length - n) | (tau.length - n)) !== 0)
      lengthError(`${this.tag}.rplus`, OUT_X_TAU, this.nnn, [out, X, tau]);
    if (J_out_X !== undefined) this.eyeJac('rplus', 'J_out_X', J_out_X, 1, X, tau);
    if (J_out_tau !== undefined) this.eyeJac('rplus', 'J_out_tau', J_out_tau, 1, X, tau);
    for (let i = 0; i < n; i++) out[i] = X[i]! + tau[i]!;
    return out;
  }

  /** out ← y − x. J_out_Y = I, J_out_X = −I. */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (Y.length - n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.rminus`, OUT_Y_X, this.nnn, [out, Y, X]);
    if (J_out_Y !== undefined) this.eyeJac('rminus', 'J_out_Y', J_out_Y, 1, Y, X);
    if (J_out_X !== undefined) this.eyeJac('rminus', 'J_out_X', J_out_X, -1, Y, X);
    for (let i = 0; i < n; i++) out[i] = Y[i]! - X[i]!;
    return out;
  }

  /** out ← τ + x. `out` may alias `X`. J_out_tau = J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (tau.length - n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.lplus`, OUT_TAU_X, this.nnn, [out, tau, X]);
    if (J_out_tau !== undefined) this.eyeJac('lplus', 'J_out_tau', J_out_tau, 1, tau, X);
    if (J_out_X !== undefined) this.eyeJac('lplus', 'J_out_X', J_out_X, 1, tau, X);
    for (let i = 0; i < n; i++) out[i] = tau[i]! + X[i]!;
    return out;
  }

  /** out ← y − x. J_out_Y = I, J_out_X = −I. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (Y.length - n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.lminus`, OUT_Y_X, this.nnn, [out, Y, X]);
    if (J_out_Y !== undefined) this.eyeJac('lminus', 'J_out_Y', J_out_Y, 1, Y, X);
    if (J_out_X !== undefined) this.eyeJac('lminus', 'J_out_X', J_out_X, -1, Y, X);
    for (let i = 0; i < n; i++) out[i] = Y[i]! - X[i]!;
    return out;
  }

  /** out ← y − x (= X⁻¹·Y). `out` may alias `X` or `Y`. J_out_X = −I, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    const n = this.n;
    if (((out.length - n) | (X.length - n) | (Y.length - n)) !== 0)
      lengthError(`${this.tag}.between`, OUT_X_Y, this.nnn, [out, X, Y]);
    if (J_out_X !== undefined) this.eyeJac('between', 'J_out_X', J_out_X, -1, X, Y);
    if (J_out_Y !== undefined) this.eyeJac('between', 'J_out_Y', J_out_Y, 1, X, Y);
    for (let i = 0; i < n; i++) out[i] = Y[i]! - X[i]!;
    return out;
  }

  /** out ← J_r = I (n×n; NaN when τ has a NaN entry). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jac('rjac', out, tau);
  }

  /** out ← J_l = I (n×n; NaN when τ has a NaN entry). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jac('ljac', out, tau);
  }

  /** out ← J_r⁻¹ = I (n×n; NaN when τ has a NaN entry). */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jac('rjacInv', out, tau);
  }

  /** out ← J_l⁻¹ = I (n×n; NaN when τ has a NaN entry). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.jac('ljacInv', out, tau);
  }

  /** out ← a vector with entries uniform in [−2, 2) (there is no uniform measure on Rⁿ). */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== this.n) lengthError(`${this.tag}.random`, ['out'], [this.n], [out]);
    for (let i = 0; i < this.n; i++) out[i] = 4 * rng() - 2;
    return out;
  }

  /** out ← [[I, x], [0, 1]], the (n+1)×(n+1) homogeneous translation matrix. */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    const N = this.n + 1;
    if (((out.length - N * N) | (X.length - this.n)) !== 0)
      lengthError(`${this.tag}.toMatrix`, OUT_X, [N * N, this.n], [out, X]);
    out.fill(0);
    for (let i = 0; i < N; i++) out[i * N + i] = 1;
    for (let i = 0; i < this.n; i++) out[i * N + this.n] = X[i]!;
    return out;
  }

  /** out ← the first n entries of the last column of M (no check that M is a translation). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    const N = this.n + 1;
    if (((out.length - this.n) | (M.length - N * N)) !== 0)
      lengthError(`${this.tag}.fromMatrix`, ['out', 'M'], [this.n, N * N], [out, M]);
    for (let i = 0; i < this.n; i++) out[i] = M[i * N + this.n]!;
    return out;
  }

  /**
   * Whether every entry of x is finite (every finite vector is an element of Rⁿ; `tol` unused).
   *
   * @example
   * ```ts
   * Rn(2).isValid(Float64Array.of(1, Number.NaN)); // false
   * ```
   */
  isValid(X: Float64Array, _tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== this.n) lengthError(`${this.tag}.isValid`, ['X'], [this.n], [X]);
    return allFinite(X, this.n);
  }

  /**
   * out ← x (a copy: every finite vector is an element). `out` may alias `X`.
   *
   * @throws DomainError when an entry is not finite.
   *
   * @example
   * ```ts
   * Rn(2).normalize(new Float64Array(2), Float64Array.of(1, 2)); // [1, 2]
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n) | (X.length - n)) !== 0)
      lengthError(`${this.tag}.normalize`, OUT_X, this.nn, [out, X]);
    if (!allFinite(X, n))
      throw new DomainError(`${this.tag}.normalize: X`, 'a non-finite entry', 'must be finite');
    for (let i = 0; i < n; i++) out[i] = X[i]!;
    return out;
  }

  /** Checks and writes ±I into a Jacobian output (NaN when u or v has a NaN entry). */
  private eyeJac(
    method: string,
    name: string,
    J: Float64Array,
    s: number,
    u: Float64Array,
    v: Float64Array,
  ): void {
    checkJac(`${this.tag}.${method}`, name, J, this.n * this.n);
    eye(J, this.n, s, u, v);
  }

  private jac(method: string, out: Float64Array, tau: Float64Array): Float64Array {
    const n = this.n;
    if (((out.length - n * n) | (tau.length - n)) !== 0)
      lengthError(`${this.tag}.${method}`, OUT_TAU, [n * n, n], [out, tau]);
    return eye(out, n, 1, tau, tau);
  }
}

const OUT_A_B = ['out', 'a', 'b'];
const OUT_A = ['out', 'a'];
const OUT_TAU = ['out', 'tau'];
const OUT_X = ['out', 'X'];
const OUT_X_P = ['out', 'X', 'p'];
const OUT_X_TAU = ['out', 'X', 'tau'];
const OUT_Y_X = ['out', 'Y', 'X'];
const OUT_TAU_X = ['out', 'tau', 'X'];
const OUT_X_Y = ['out', 'X', 'Y'];

/**
 * out ← s·I (n×n), plus 0·(Σu + Σv) on the diagonal so that a NaN in u or v shows (Rⁿ's
 * Jacobians do not depend on their inputs, but a NaN input must not give a finite result).
 */
function eye(
  out: Float64Array,
  n: number,
  s: number,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
): Float64Array {
  let z = 0;
  for (let i = 0; i < n; i++) z += u[i]! + v[i]!;
  z = 0 * z + 0; // 0, or NaN (−0 avoided)
  out.fill(z);
  for (let i = 0; i < n; i++) out[i * n + i] = s + z;
  return out;
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
