/**
 * Direct products of Lie groups, G₁ × G₂ × … × G_k, as one {@link LieGroup}: the configuration
 * spaces of multi-body systems and of optimal-control stages (e.g. the plate-ball's R² × SO(3)).
 * Conventions: `packages/core/CONVENTIONS.md` (§ Product groups).
 *
 * @module
 */
import { GROUP_VALIDITY_TOL } from '../constants.js';
import { DomainError } from '../errors.js';
import { checkJac, lengthError } from './internal.js';
import type { LieGroup, Rng } from './types.js';

/** Per-factor scratch of a {@link ProductGroup}: element, tangent, action and matrix buffers. */
interface FactorScratch {
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly o: Float64Array;
  readonly ta: Float64Array;
  readonly tb: Float64Array;
  readonly pa: Float64Array;
  readonly pb: Float64Array;
  readonly ja: Float64Array;
  readonly jb: Float64Array;
  readonly jx: Float64Array;
  readonly jp: Float64Array;
  readonly m: Float64Array;
}

type TangentMatrixFn = (G: LieGroup, out: Float64Array, tau: Float64Array) => Float64Array;
const SMALL_ADJ: TangentMatrixFn = (G, o, t) => G.smallAdj(o, t);
const RJAC: TangentMatrixFn = (G, o, t) => G.rjac(o, t);
const LJAC: TangentMatrixFn = (G, o, t) => G.ljac(o, t);
const RJAC_INV: TangentMatrixFn = (G, o, t) => G.rjacInv(o, t);
const LJAC_INV: TangentMatrixFn = (G, o, t) => G.ljacInv(o, t);

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
 * The direct product G₁ × … × G_k of Lie groups as a {@link LieGroup} (`new ProductGroup([G₁,
 * G₂, …])`), with every operation applied factor by factor (the composite manifolds of Solà et al.,
 * arXiv:1812.01537; manif's `Bundle`). Conventions: `packages/core/CONVENTIONS.md`.
 *
 * - **Storage**: the concatenation of the factors' storages, in factor order (storageSize
 *   = Σ storageSize_i; factor i at {@link storageOffset}(i)). The factors keep their own layouts
 *   (a quaternion factor stays `wxyz`, Rⁿ the vector).
 * - **Tangent**: the concatenation of the factors' tangents (dim = Σ dim_i; factor i at
 *   {@link tangentOffset}(i)), so X ⊕ τ = (X₁ ⊕ τ₁, …, X_k ⊕ τ_k) and Y ⊖ X likewise.
 * - **Matrix representation**: block-diagonal, N = Σ N_i (factor i's block at
 *   {@link matrixOffset}(i)); `hat`, `vee`, `toMatrix`, `fromMatrix` act block by block, and
 *   `vee` reads only the diagonal blocks.
 * - **Action**: on the concatenation of the factors' action spaces (actionDim = Σ actionDim_i,
 *   factor i at {@link actionOffset}(i)), each factor acting on its own slice: X·p = (X₁·p₁, …).
 *   For SE(3) × R³ a point of R³ × R³ is moved by the rigid motion in its first three entries and
 *   translated in the last three.
 * - **Adjoints and Jacobians** (Ad, ad, J_r, J_l, their inverses and every `J_out_*`) are
 *   block-diagonal with the factors' blocks; act's J_out_X is actionDim × dim with blocks
 *   actionDim_i × dim_i.
 * - **Validity**: `isValid` is the conjunction of the factors' tests (each with `tol`);
 *   `normalize` normalizes each factor.
 *
 * Every operation checks its argument lengths (DimensionError, e.g. `'ProductGroup.exp: tau'`) and
 * allocates nothing: each factor owns scratch buffers the slices are copied through (the copies
 * cost O(storageSize) per call). `out` may alias the inputs where each factor allows it (compose,
 * inverse, act, rplus, lplus, between, normalize). Not re-entrant.
 *
 * @throws DomainError from the constructor when the factor list is empty.
 *
 * @example
 * ```ts
 * const G = new ProductGroup([Rn(2), SO3]); // the plate-ball configuration space R² × SO(3)
 * const X = G.identity(new Float64Array(G.storageSize)); // [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
 * const Y = G.rplus(new Float64Array(11), X, Float64Array.of(1, 2, 0, 0, 0.5));
 * G.rminus(new Float64Array(5), Y, X); // [1, 2, 0, 0, 0.5]
 * ```
 */
export class ProductGroup implements LieGroup {
  readonly name: string;
  readonly dim: number;
  readonly storageSize: number;
  readonly matrixSize: number;
  readonly actionDim: number;
  /** The factors G₁ … G_k, in storage and tangent order. */
  readonly factors: readonly LieGroup[];
  /** Storage layout: `product(…)` of the factors' layouts. */
  readonly layout: string;
  private readonly so: Int32Array;
  private readonly to: Int32Array;
  private readonly ao: Int32Array;
  private readonly mo: Int32Array;
  private readonly scratch: readonly FactorScratch[];

  constructor(factors: readonly LieGroup[]) {
    if (!Array.isArray(factors) || factors.length === 0)
      throw new DomainError(
        'ProductGroup: factors',
        factors,
        'must be a non-empty array of groups',
      );
    const k = factors.length;
    this.factors = Object.freeze([...factors]);
    this.so = new Int32Array(k + 1);
    this.to = new Int32Array(k + 1);
    this.ao = new Int32Array(k + 1);
    this.mo = new Int32Array(k + 1);
    for (let i = 0; i < k; i++) {
      const G = factors[i]!;
      this.so[i + 1] = this.so[i]! + G.storageSize;
      this.to[i + 1] = this.to[i]! + G.dim;
      this.ao[i + 1] = this.ao[i]! + G.actionDim;
      this.mo[i + 1] = this.mo[i]! + G.matrixSize;
    }
    this.storageSize = this.so[k]!;
    this.dim = this.to[k]!;
    this.actionDim = this.ao[k]!;
    this.matrixSize = this.mo[k]!;
    this.name = factors.map((G) => G.name).join(' × ');
    this.layout = `product(${factors.map((G) => ('layout' in G ? String(G.layout) : G.name)).join(', ')})`;
    this.scratch = factors.map((G) => ({
      a: new Float64Array(G.storageSize),
      b: new Float64Array(G.storageSize),
      o: new Float64Array(G.storageSize),
      ta: new Float64Array(G.dim),
      tb: new Float64Array(G.dim),
      pa: new Float64Array(G.actionDim),
      pb: new Float64Array(G.actionDim),
      ja: new Float64Array(G.dim * G.dim),
      jb: new Float64Array(G.dim * G.dim),
      jx: new Float64Array(G.actionDim * G.dim),
      jp: new Float64Array(G.actionDim * G.actionDim),
      m: new Float64Array(G.matrixSize * G.matrixSize),
    }));
  }

  /**
   * Offset of factor i's storage in an element.
   *
   * @example
   * ```ts
   * new ProductGroup([Rn(2), SO3]).storageOffset(1); // 2: the rotation matrix starts at entry 2
   * ```
   */
  storageOffset(i: number): number {
    return this.so[this.checkFactor('storageOffset', i)]!;
  }

  /**
   * Offset of factor i's coordinates in a tangent vector.
   *
   * @example
   * ```ts
   * new ProductGroup([Rn(2), SO3]).tangentOffset(1); // 2
   * ```
   */
  tangentOffset(i: number): number {
    return this.to[this.checkFactor('tangentOffset', i)]!;
  }

  /**
   * Offset of factor i's slice in a point of the action space.
   *
   * @example
   * ```ts
   * new ProductGroup([SE3, Rn(3)]).actionOffset(1); // 3
   * ```
   */
  actionOffset(i: number): number {
    return this.ao[this.checkFactor('actionOffset', i)]!;
  }

  /**
   * Row (= column) where factor i's block starts in the block-diagonal matrix representation.
   *
   * @example
   * ```ts
   * new ProductGroup([Rn(2), SO3]).matrixOffset(1); // 3: R² is 3×3 homogeneous
   * ```
   */
  matrixOffset(i: number): number {
    return this.mo[this.checkFactor('matrixOffset', i)]!;
  }

  /** out ← (e₁, …, e_k). */
  identity(out: Float64Array): Float64Array {
    if (out.length !== this.storageSize)
      lengthError('ProductGroup.identity', ['out'], [this.storageSize], [out]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.factors[i]!.identity(s.o);
      out.set(s.o, this.so[i]!);
    }
    return out;
  }

  /** out ← (a₁b₁, …). `out` may alias `a` or `b`. J_out_a = diag(Ad_{b_i⁻¹}), J_out_b = I. */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (a.length - S) | (b.length - S)) !== 0)
      lengthError('ProductGroup.compose', OUT_A_B, [S, S, S], [out, a, b]);
    this.prepJ('compose', 'J_out_a', J_out_a);
    this.prepJ('compose', 'J_out_b', J_out_b);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, a, i);
      this.load(s.b, b, i);
      this.factors[i]!.compose(
        s.o,
        s.a,
        s.b,
        J_out_a === undefined ? undefined : s.ja,
        J_out_b === undefined ? undefined : s.jb,
      );
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_a, J_out_b);
    }
    return out;
  }

  /** out ← (a₁⁻¹, …). `out` may alias `a`. J_out_a = diag(−Ad_{a_i}). */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (a.length - S)) !== 0)
      lengthError('ProductGroup.inverse', OUT_A, [S, S], [out, a]);
    this.prepJ('inverse', 'J_out_a', J_out_a);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, a, i);
      this.factors[i]!.inverse(s.o, s.a, J_out_a === undefined ? undefined : s.ja);
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_a, undefined);
    }
    return out;
  }

  /** out ← (Exp(τ₁), …). J_out_tau = diag(J_r(τ_i)). */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (tau.length - this.dim)) !== 0)
      lengthError('ProductGroup.exp', OUT_TAU, [this.storageSize, this.dim], [out, tau]);
    this.prepJ('exp', 'J_out_tau', J_out_tau);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.loadT(s.ta, tau, i);
      this.factors[i]!.exp(s.o, s.ta, J_out_tau === undefined ? undefined : s.ja);
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_tau, undefined);
    }
    return out;
  }

  /** out ← (Log X₁, …). J_out_X = diag(J_r⁻¹). Throws as the factors' `log`. */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - this.dim) | (X.length - this.storageSize)) !== 0)
      lengthError('ProductGroup.log', OUT_X, [this.dim, this.storageSize], [out, X]);
    this.prepJ('log', 'J_out_X', J_out_X);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.factors[i]!.log(s.ta, s.a, J_out_X === undefined ? undefined : s.ja);
      out.set(s.ta, this.to[i]!);
      this.blocks(i, J_out_X, undefined);
    }
    return out;
  }

  /** out ← diag(τ₁^, …, τ_k^), the block-diagonal N×N algebra matrix. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    const N = this.matrixSize;
    if (((out.length - N * N) | (tau.length - this.dim)) !== 0)
      lengthError('ProductGroup.hat', OUT_TAU, [N * N, this.dim], [out, tau]);
    out.fill(0);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.loadT(s.ta, tau, i);
      this.factors[i]!.hat(s.m, s.ta);
      this.putBlock(out, s.m, i);
    }
    return out;
  }

  /** out ← (vee of each diagonal block); the off-diagonal blocks are not read. */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    const N = this.matrixSize;
    if (((out.length - this.dim) | (m.length - N * N)) !== 0)
      lengthError('ProductGroup.vee', ['out', 'm'], [this.dim, N * N], [out, m]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.getBlock(s.m, m, i);
      this.factors[i]!.vee(s.ta, s.m);
      out.set(s.ta, this.to[i]!);
    }
    return out;
  }

  /**
   * out ← (X₁·p₁, …), each factor acting on its slice of the concatenated action space. `out`
   * may alias `p`. J_out_X (actionDim × dim) and J_out_p (actionDim × actionDim) are
   * block-diagonal.
   */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    const n = this.actionDim;
    if (((out.length - n) | (X.length - this.storageSize) | (p.length - n)) !== 0)
      lengthError('ProductGroup.act', OUT_X_P, [n, this.storageSize, n], [out, X, p]);
    if (J_out_X !== undefined) {
      checkJac('ProductGroup.act', 'J_out_X', J_out_X, n * this.dim);
      J_out_X.fill(0);
    }
    if (J_out_p !== undefined) {
      checkJac('ProductGroup.act', 'J_out_p', J_out_p, n * n);
      J_out_p.fill(0);
    }
    for (let i = 0; i < this.factors.length; i++) {
      const G = this.factors[i]!;
      const s = this.scratch[i]!;
      const ao = this.ao[i]!;
      const ai = G.actionDim;
      this.load(s.a, X, i);
      for (let r = 0; r < ai; r++) s.pa[r] = p[ao + r]!;
      G.act(
        s.pb,
        s.a,
        s.pa,
        J_out_X === undefined ? undefined : s.jx,
        J_out_p === undefined ? undefined : s.jp,
      );
      out.set(s.pb, ao);
      if (J_out_X !== undefined) {
        const to = this.to[i]!;
        const d = G.dim;
        for (let r = 0; r < ai; r++)
          for (let c = 0; c < d; c++) J_out_X[(ao + r) * this.dim + to + c] = s.jx[r * d + c]!;
      }
      if (J_out_p !== undefined) {
        for (let r = 0; r < ai; r++)
          for (let c = 0; c < ai; c++) J_out_p[(ao + r) * n + ao + c] = s.jp[r * ai + c]!;
      }
    }
    return out;
  }

  /** out ← diag(Ad_{X₁}, …). */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    const d = this.dim;
    if (((out.length - d * d) | (X.length - this.storageSize)) !== 0)
      lengthError('ProductGroup.adj', OUT_X, [d * d, this.storageSize], [out, X]);
    out.fill(0);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.factors[i]!.adj(s.ja, s.a);
      this.putJ(out, s.ja, i);
    }
    return out;
  }

  /** out ← diag(ad_{τ₁}, …). */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    return this.tangentBlocks('smallAdj', out, tau, SMALL_ADJ);
  }

  /** out ← (X₁ ⊕ τ₁, …). `out` may alias `X`. J_out_X = diag(Ad_{Exp(τ_i)⁻¹}), J_out_tau = diag(J_r). */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (X.length - S) | (tau.length - this.dim)) !== 0)
      lengthError('ProductGroup.rplus', OUT_X_TAU, [S, S, this.dim], [out, X, tau]);
    this.prepJ('rplus', 'J_out_X', J_out_X);
    this.prepJ('rplus', 'J_out_tau', J_out_tau);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.loadT(s.ta, tau, i);
      this.factors[i]!.rplus(
        s.o,
        s.a,
        s.ta,
        J_out_X === undefined ? undefined : s.ja,
        J_out_tau === undefined ? undefined : s.jb,
      );
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_X, J_out_tau);
    }
    return out;
  }

  /** out ← (Y₁ ⊖ X₁, …). J_out_Y = diag(J_r⁻¹), J_out_X = diag(−J_l⁻¹). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - this.dim) | (Y.length - S) | (X.length - S)) !== 0)
      lengthError('ProductGroup.rminus', OUT_Y_X, [this.dim, S, S], [out, Y, X]);
    this.prepJ('rminus', 'J_out_Y', J_out_Y);
    this.prepJ('rminus', 'J_out_X', J_out_X);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, Y, i);
      this.load(s.b, X, i);
      this.factors[i]!.rminus(
        s.ta,
        s.a,
        s.b,
        J_out_Y === undefined ? undefined : s.ja,
        J_out_X === undefined ? undefined : s.jb,
      );
      out.set(s.ta, this.to[i]!);
      this.blocks(i, J_out_Y, J_out_X);
    }
    return out;
  }

  /** out ← (τ₁ ⊕ X₁, …) = (Exp(τ₁)X₁, …). `out` may alias `X`. Jacobians block-diagonal. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (tau.length - this.dim) | (X.length - S)) !== 0)
      lengthError('ProductGroup.lplus', OUT_TAU_X, [S, this.dim, S], [out, tau, X]);
    this.prepJ('lplus', 'J_out_tau', J_out_tau);
    this.prepJ('lplus', 'J_out_X', J_out_X);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.loadT(s.ta, tau, i);
      this.load(s.a, X, i);
      this.factors[i]!.lplus(
        s.o,
        s.ta,
        s.a,
        J_out_tau === undefined ? undefined : s.ja,
        J_out_X === undefined ? undefined : s.jb,
      );
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_tau, J_out_X);
    }
    return out;
  }

  /** out ← (Log(Y₁X₁⁻¹), …). Jacobians block-diagonal. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - this.dim) | (Y.length - S) | (X.length - S)) !== 0)
      lengthError('ProductGroup.lminus', OUT_Y_X, [this.dim, S, S], [out, Y, X]);
    this.prepJ('lminus', 'J_out_Y', J_out_Y);
    this.prepJ('lminus', 'J_out_X', J_out_X);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, Y, i);
      this.load(s.b, X, i);
      this.factors[i]!.lminus(
        s.ta,
        s.a,
        s.b,
        J_out_Y === undefined ? undefined : s.ja,
        J_out_X === undefined ? undefined : s.jb,
      );
      out.set(s.ta, this.to[i]!);
      this.blocks(i, J_out_Y, J_out_X);
    }
    return out;
  }

  /** out ← (X₁⁻¹Y₁, …). `out` may alias `X` or `Y`. Jacobians block-diagonal. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (X.length - S) | (Y.length - S)) !== 0)
      lengthError('ProductGroup.between', OUT_X_Y, [S, S, S], [out, X, Y]);
    this.prepJ('between', 'J_out_X', J_out_X);
    this.prepJ('between', 'J_out_Y', J_out_Y);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.load(s.b, Y, i);
      this.factors[i]!.between(
        s.o,
        s.a,
        s.b,
        J_out_X === undefined ? undefined : s.ja,
        J_out_Y === undefined ? undefined : s.jb,
      );
      out.set(s.o, this.so[i]!);
      this.blocks(i, J_out_X, J_out_Y);
    }
    return out;
  }

  /** out ← diag(J_r(τ₁), …). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.tangentBlocks('rjac', out, tau, RJAC);
  }

  /** out ← diag(J_l(τ₁), …). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    return this.tangentBlocks('ljac', out, tau, LJAC);
  }

  /** out ← diag(J_r(τ₁)⁻¹, …). */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.tangentBlocks('rjacInv', out, tau, RJAC_INV);
  }

  /** out ← diag(J_l(τ₁)⁻¹, …). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    return this.tangentBlocks('ljacInv', out, tau, LJAC_INV);
  }

  /** out ← (random element of each factor, in factor order), drawn with `rng`. */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== this.storageSize)
      lengthError('ProductGroup.random', ['out'], [this.storageSize], [out]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.factors[i]!.random(s.o, rng);
      out.set(s.o, this.so[i]!);
    }
    return out;
  }

  /** out ← diag(M₁, …, M_k), the block-diagonal N×N matrix of X. */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    const N = this.matrixSize;
    if (((out.length - N * N) | (X.length - this.storageSize)) !== 0)
      lengthError('ProductGroup.toMatrix', OUT_X, [N * N, this.storageSize], [out, X]);
    out.fill(0);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.factors[i]!.toMatrix(s.m, s.a);
      this.putBlock(out, s.m, i);
    }
    return out;
  }

  /** out ← the element whose factor i is fromMatrix of M's i-th diagonal block. */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    const N = this.matrixSize;
    if (((out.length - this.storageSize) | (M.length - N * N)) !== 0)
      lengthError('ProductGroup.fromMatrix', ['out', 'M'], [this.storageSize, N * N], [out, M]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.getBlock(s.m, M, i);
      this.factors[i]!.fromMatrix(s.o, s.m);
      out.set(s.o, this.so[i]!);
    }
    return out;
  }

  /**
   * Whether every factor of X is valid ({@link LieGroup.isValid} of each factor with `tol`).
   *
   * @example
   * ```ts
   * const G = new ProductGroup([Rn(2), SO3]);
   * G.isValid(G.identity(new Float64Array(11))); // true
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== this.storageSize)
      lengthError('ProductGroup.isValid', ['X'], [this.storageSize], [X]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      if (!this.factors[i]!.isValid(s.a, tol)) return false;
    }
    return true;
  }

  /**
   * out ← (normalize(X₁), …), each factor projected by its own `normalize`. `out` may alias `X`.
   *
   * @throws DomainError as the factors' `normalize`.
   *
   * @example
   * ```ts
   * const G = new ProductGroup([Rn(2), SO3Quat]);
   * G.normalize(new Float64Array(6), Float64Array.of(1, 2, 2, 0, 0, 0)); // [1, 2, 1, 0, 0, 0]
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (X.length - S)) !== 0)
      lengthError('ProductGroup.normalize', OUT_X, [S, S], [out, X]);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.load(s.a, X, i);
      this.factors[i]!.normalize(s.o, s.a);
      out.set(s.o, this.so[i]!);
    }
    return out;
  }

  private checkFactor(method: string, i: number): number {
    if (!Number.isInteger(i) || i < 0 || i >= this.factors.length)
      throw new DomainError(`ProductGroup.${method}: i`, i, `0 <= i < ${this.factors.length}`);
    return i;
  }

  /** dst ← factor i's slice of the element storage `src`. */
  private load(dst: Float64Array, src: Float64Array, i: number): void {
    const off = this.so[i]!;
    for (let k = 0; k < dst.length; k++) dst[k] = src[off + k]!;
  }

  /** dst ← factor i's slice of the tangent vector `src`. */
  private loadT(dst: Float64Array, src: Float64Array, i: number): void {
    const off = this.to[i]!;
    for (let k = 0; k < dst.length; k++) dst[k] = src[off + k]!;
  }

  /** Checks a dim×dim Jacobian output and zeroes it (its off-diagonal blocks stay 0). */
  private prepJ(method: string, name: string, J: Float64Array | undefined): void {
    if (J === undefined) return;
    checkJac(`ProductGroup.${method}`, name, J, this.dim * this.dim);
    J.fill(0);
  }

  /** Copies factor i's Jacobian scratch ja/jb into the diagonal blocks of the requested outputs. */
  private blocks(i: number, Ja: Float64Array | undefined, Jb: Float64Array | undefined): void {
    const s = this.scratch[i]!;
    if (Ja !== undefined) this.putJ(Ja, s.ja, i);
    if (Jb !== undefined) this.putJ(Jb, s.jb, i);
  }

  /** out's i-th diagonal dim_i × dim_i block ← J. */
  private putJ(out: Float64Array, J: Float64Array, i: number): void {
    const D = this.dim;
    const off = this.to[i]!;
    const d = this.factors[i]!.dim;
    for (let r = 0; r < d; r++)
      for (let c = 0; c < d; c++) out[(off + r) * D + off + c] = J[r * d + c]!;
  }

  /** out's i-th diagonal N_i × N_i block of the matrix representation ← m. */
  private putBlock(out: Float64Array, m: Float64Array, i: number): void {
    const N = this.matrixSize;
    const off = this.mo[i]!;
    const n = this.factors[i]!.matrixSize;
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) out[(off + r) * N + off + c] = m[r * n + c]!;
  }

  /** m ← the i-th diagonal block of the N×N matrix M. */
  private getBlock(m: Float64Array, M: Float64Array, i: number): void {
    const N = this.matrixSize;
    const off = this.mo[i]!;
    const n = this.factors[i]!.matrixSize;
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) m[r * n + c] = M[(off + r) * N + off + c]!;
  }

  /** out ← diag(f(G_i, τ_i)) for a dim_i×dim_i matrix function of the tangent. */
  private tangentBlocks(
    method: string,
    out: Float64Array,
    tau: Float64Array,
    f: TangentMatrixFn,
  ): Float64Array {
    const d = this.dim;
    if (((out.length - d * d) | (tau.length - d)) !== 0)
      lengthError(`ProductGroup.${method}`, OUT_TAU, [d * d, d], [out, tau]);
    out.fill(0);
    for (let i = 0; i < this.factors.length; i++) {
      const s = this.scratch[i]!;
      this.loadT(s.ta, tau, i);
      f(this.factors[i]!, s.ja, s.ta);
      this.putJ(out, s.ja, i);
    }
    return out;
  }
}
