/**
 * The pair groupoid G × G ⇒ G of a Lie group G (spec 003 §3.5(a), with Q = G a Lie group instead of
 * Rⁿ): the configuration groupoid of a discrete Lagrangian L_d(g₀, g₁) on a Lie group, e.g. the
 * Lie-group variational integrators of Lee, Leok and McClamroch on SO(3) and on SO(3) × R³
 * (`lgvi.ts`). G × Rⁿ is the pair groupoid of core's `ProductGroup([G, Rn(n)])`.
 *
 * Arrows are stored `[g₀, g₁]` (two group storages); α(g₀, g₁) = g₀, β(g₀, g₁) = g₁. Tangent
 * vectors at an arrow are in the coordinates of the right-⊕ chart (x₀, x₁) ↦ (g₀·Exp(x₀),
 * g₁·Exp(x₁)) (core `CONVENTIONS.md`): left-trivialized ("body") coordinates of each end.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type LieGroup,
  NotComposableError,
  type Rng,
} from '@geomech/core';
import type { LieGroupoid } from './types.js';

/**
 * The pair groupoid G × G ⇒ G of a core {@link LieGroup} (spec 003 §3.5(a) with Q = G):
 *
 * - α(g₀, g₁) = g₀, β(g₀, g₁) = g₁, m((g₀, g₁), (g₁, g₂)) = (g₀, g₂), ε(g) = (g, g),
 *   i(g₀, g₁) = (g₁, g₀);
 * - chart_(g₀,g₁)(x₀, x₁) = (g₀·Exp(x₀), g₁·Exp(x₁)); chart⁻¹ by `rminus` at each end;
 * - the algebroid A(G × G) ≅ TG, trivialized on the left: a section coefficient v ∈ 𝔤 at g is the
 *   tangent vector g·v̂; ←v(g₀, g₁) = (0, v) moves the target end, →v(g₀, g₁) = (−v, 0) moves the
 *   source end with the minus sign of spec 003 eq. (2); leftRetract (g₀, g₁·Exp(v)), rightRetract
 *   (g₀·Exp(−v), g₁); anchor ρ(v) = v (in the same left-trivialized coordinates of T_gG);
 * - the bracket of constant-coefficient sections (left-invariant fields) is ad_x y.
 * - Trivialized gradients ({@link leftGrad}, {@link rightGrad}) of a function f(g₀, g₁) with
 *   left-trivialized partials D₁f, D₂f (D_if·δ = d/ds f(…, g_i·Exp(sδ), …) at s = 0):
 *   ←e_i[f] = D₂f, →e_i[f] = −D₁f, as for the pair groupoid of Rⁿ.
 *
 * Deviation from the {@link LieGroupoid} convention "base = R^baseDim": the base is G itself, so a
 * base point is a group element of length `baseDim` = the group's storage size, while its tangent
 * dimension is {@link baseTangentDim} = dim G = `rank` (the identity rank = dim − baseDim holds with
 * `baseTangentDim`, not with the storage length).
 *
 * Methods allocate nothing (not re-entrant: scratch is owned by the instance).
 *
 * @example
 * ```ts
 * import { SO3 } from '@geomech/core';
 * const P = new LieGroupPairGroupoid(SO3); // arrows (R₀, R₁), 18 numbers
 * const g = P.random(new Float64Array(18), Math.random);
 * const h = P.randomAfter(new Float64Array(18), g, Math.random);
 * P.multiply(new Float64Array(18), g, h); // (R₀ of g, R₁ of h)
 * ```
 */
export class LieGroupPairGroupoid implements LieGroupoid {
  readonly name: string;
  /** dim(G × G) = 2·dim G. */
  readonly dim: number;
  /** 2 · storage size of G. */
  readonly arrowDim: number;
  /** Length of a base point: the storage size of G (see the class comment). */
  readonly baseDim: number;
  /** dim G, the tangent dimension of the base. */
  readonly baseTangentDim: number;
  /** rank A = dim G. */
  readonly rank: number;
  /** Relative tolerance of {@link isComposable} on max |β(g) − α(h)| (storage entries). */
  readonly composableTol: number;
  /** Half-width of the random algebra box of {@link random}. */
  readonly randomScale: number;
  private readonly sTan: Float64Array;
  private readonly sTan2: Float64Array;
  // one end of an arrow and a result, copied in and out (group operations check exact lengths,
  // and a subarray view is a fresh object per call)
  private readonly sEl: Float64Array;
  private readonly sEl2: Float64Array;
  private readonly sElOut: Float64Array;

  constructor(
    /** The group G. */
    readonly group: LieGroup,
    options: { readonly composableTol?: number; readonly randomScale?: number } = {},
  ) {
    const tol = options.composableTol ?? 1e-12;
    if (!(tol >= 0))
      throw new DomainError('LieGroupPairGroupoid: composableTol', tol, 'must be >= 0');
    const s = options.randomScale ?? 1;
    if (!(s > 0 && Number.isFinite(s)))
      throw new DomainError('LieGroupPairGroupoid: randomScale', s, 'must be positive and finite');
    this.name = `Pair(${group.name.replace(/[()]/g, '')})`;
    this.dim = 2 * group.dim;
    this.arrowDim = 2 * group.storageSize;
    this.baseDim = group.storageSize;
    this.baseTangentDim = group.dim;
    this.rank = group.dim;
    this.composableTol = tol;
    this.randomScale = s;
    this.sTan = new Float64Array(group.dim);
    this.sTan2 = new Float64Array(group.dim);
    this.sEl = new Float64Array(group.storageSize);
    this.sEl2 = new Float64Array(group.storageSize);
    this.sElOut = new Float64Array(group.storageSize);
  }

  /** dst ← the end of `g` at `off` (baseDim numbers). */
  private loadEnd(dst: Float64Array, g: Float64Array, off: number): Float64Array {
    const n = this.baseDim;
    for (let i = 0; i < n; i++) dst[i] = g[off + i]!;
    return dst;
  }

  /** out[off..off+baseDim) ← g·Exp(x[xOff..xOff+rank)) (out may alias g). */
  private rplusEnd(
    out: Float64Array,
    off: number,
    g: Float64Array,
    x: ArrayLike<number>,
    xOff: number,
  ): void {
    const { group: G, baseDim: n, rank: r, sTan, sElOut } = this;
    for (let i = 0; i < r; i++) sTan[i] = x[xOff + i]!;
    G.rplus(sElOut, this.loadEnd(this.sEl, g, off), sTan);
    for (let i = 0; i < n; i++) out[off + i] = sElOut[i]!;
  }

  /** out ← α(g) = g₀. */
  source(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    for (let i = 0; i < this.baseDim; i++) out[i] = g[i]!;
    return out;
  }

  /** out ← β(g) = g₁. */
  target(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) out[i] = g[n + i]!;
    return out;
  }

  /** max |β(g) − α(h)| over the storage entries. */
  gap(g: Float64Array, h: Float64Array): number {
    this.check(g);
    this.check(h);
    const n = this.baseDim;
    let gap = 0;
    for (let i = 0; i < n; i++) gap = Math.max(gap, Math.abs(g[n + i]! - h[i]!));
    return gap;
  }

  /** β(g) = α(h) within {@link composableTol}·max(1, |β(g)|∞). */
  isComposable(g: Float64Array, h: Float64Array): boolean {
    const n = this.baseDim;
    let scale = 1;
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(g[n + i]!));
    return this.gap(g, h) <= this.composableTol * scale;
  }

  /** out ← gh = (g₀, h₁). `out` may alias g or h. @throws NotComposableError when β(g) ≠ α(h). */
  multiply(out: Float64Array, g: Float64Array, h: Float64Array): Float64Array {
    if (!this.isComposable(g, h)) throw new NotComposableError(this.gap(g, h));
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = g[i]!;
      out[n + i] = h[n + i]!;
    }
    return out;
  }

  /** out ← ε(q) = (q, q). */
  identityAt(out: Float64Array, q: ArrayLike<number>): Float64Array {
    const n = this.baseDim;
    if (q.length !== n)
      throw new DimensionError('LieGroupPairGroupoid.identityAt: point', n, q.length);
    for (let i = 0; i < n; i++) {
      out[i] = q[i]!;
      out[n + i] = q[i]!;
    }
    return out;
  }

  /** out ← g⁻¹ = (g₁, g₀). `out` may alias g. */
  inverse(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      const a = g[i]!;
      out[i] = g[n + i]!;
      out[n + i] = a;
    }
    return out;
  }

  /** chart_g(x₀, x₁) = (g₀·Exp(x₀), g₁·Exp(x₁)). `out` may alias g. */
  chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array {
    this.check(g);
    const { baseDim: n, rank: r } = this;
    if (x.length !== 2 * r)
      throw new DimensionError('LieGroupPairGroupoid.chart: x', 2 * r, x.length);
    this.rplusEnd(out, 0, g, x, 0);
    this.rplusEnd(out, n, g, x, r);
    return out;
  }

  /** chart_g⁻¹(k) = (k₀ ⊖ g₀, k₁ ⊖ g₁). */
  chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array {
    this.check(g);
    this.check(k);
    const { group: G, baseDim: n, rank: r, sEl, sEl2, sTan } = this;
    for (let e = 0; e < 2; e++) {
      G.rminus(sTan, this.loadEnd(sEl, k, e * n), this.loadEnd(sEl2, g, e * n));
      for (let i = 0; i < r; i++) out[e * r + i] = sTan[i]!;
    }
    return out;
  }

  /** ←v(g₀, g₁) = (0, v): moves the target end (spec 003 eq. (1)). */
  leftField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const r = this.rank;
    for (let i = 0; i < r; i++) {
      out[i] = 0;
      out[r + i] = v[i]!;
    }
    return out;
  }

  /** →v(g₀, g₁) = (−v, 0): moves the source end, with the minus sign of spec 003 eq. (2). */
  rightField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const r = this.rank;
    for (let i = 0; i < r; i++) {
      out[i] = -v[i]!;
      out[r + i] = 0;
    }
    return out;
  }

  /** (g₀, g₁·Exp(v)), the α-fibre curve with velocity ←v. `out` may alias g. */
  leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    if (v.length !== this.rank)
      throw new DimensionError('LieGroupPairGroupoid.leftRetract: v', this.rank, v.length);
    for (let i = 0; i < n; i++) out[i] = g[i]!;
    this.rplusEnd(out, n, g, v, 0);
    return out;
  }

  /** (g₀·Exp(−v), g₁), the β-fibre curve with velocity →v. `out` may alias g. */
  rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    const { baseDim: n, rank: r, sTan2 } = this;
    if (v.length !== r)
      throw new DimensionError('LieGroupPairGroupoid.rightRetract: v', r, v.length);
    for (let i = 0; i < r; i++) sTan2[i] = -v[i]!;
    for (let i = 0; i < n; i++) out[n + i] = g[n + i]!;
    this.rplusEnd(out, 0, g, sTan2, 0);
    return out;
  }

  /** ρ = id on left-trivialized coordinates: A(G × G) ≅ TG. */
  anchor(out: Float64Array, _q: Float64Array, v: Float64Array): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = v[i]!;
    return out;
  }

  /** Left-invariant fields: ⟦x, y⟧ = ad_x y (core `smallAdj`). */
  bracket(out: Float64Array, _q: Float64Array, x: Float64Array, y: Float64Array): Float64Array {
    const r = this.rank;
    const ad = this.adScratch();
    this.group.smallAdj(ad, x);
    for (let i = 0; i < r; i++) {
      let s = 0;
      for (let j = 0; j < r; j++) s += ad[i * r + j]! * y[j]!;
      this.sTan2[i] = s;
    }
    for (let i = 0; i < r; i++) out[i] = this.sTan2[i]!;
    return out;
  }

  /** Each end Exp(τ), τ uniform in [−s, s]^dim. */
  random(out: Float64Array, rng: Rng): Float64Array {
    const { group: G, baseDim: n, sTan, sElOut } = this;
    for (let e = 0; e < 2; e++) {
      for (let i = 0; i < this.rank; i++) sTan[i] = this.randomScale * (2 * rng() - 1);
      G.exp(sElOut, sTan);
      for (let i = 0; i < n; i++) out[e * n + i] = sElOut[i]!;
    }
    return out;
  }

  /** (β(g), Exp(τ)) with τ uniform in [−s, s]^dim. */
  randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array {
    this.check(g);
    const { group: G, baseDim: n, sTan, sElOut } = this;
    for (let i = 0; i < n; i++) out[i] = g[n + i]!;
    for (let i = 0; i < this.rank; i++) sTan[i] = this.randomScale * (2 * rng() - 1);
    G.exp(sElOut, sTan);
    for (let i = 0; i < n; i++) out[n + i] = sElOut[i]!;
    return out;
  }

  /**
   * ←e_i[f](g₀, g₁) = D₂f(g₀, g₁), the left-trivialized partial in the target end (spec 003 §2,
   * §3.5(a)); in the discrete Euler–Lagrange equations of a pair groupoid it is the momentum at the
   * target, p₁ = D₂L_d.
   */
  leftGrad(out: Float64Array, D2f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = D2f[i]!;
    return out;
  }

  /** →e_i[f](g₀, g₁) = −D₁f(g₀, g₁) (the momentum at the source, p₀ = −D₁L_d). */
  rightGrad(out: Float64Array, D1f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = -D1f[i]!;
    return out;
  }

  private adBuf: Float64Array | undefined;
  private adScratch(): Float64Array {
    if (this.adBuf === undefined) this.adBuf = new Float64Array(this.rank * this.rank);
    return this.adBuf;
  }

  private check(g: Float64Array): void {
    if (g.length !== this.arrowDim)
      throw new DimensionError('LieGroupPairGroupoid: arrow', this.arrowDim, g.length);
  }
}
