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
import { DimensionError, DomainError, type LieGroup, type Rng } from '@geomech/core';
import { PairStructure } from './pairStructure.js';

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
 * The structure maps, fields, anchor and gradients are the pair groupoid's own (shared with
 * {@link PairGroupoid}; for G = Rⁿ this groupoid is `PairGroupoid(n)`, with the same arrows, maps
 * and retractions); the chart and the retractions go through the group's ⊕.
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
export class LieGroupPairGroupoid extends PairStructure {
  readonly name: string;
  /** dim(G × G) = 2·dim G. */
  readonly dim: number;
  /** dim G, the tangent dimension of the base. */
  readonly baseTangentDim: number;
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
    super(group.storageSize, group.dim, tol, 'LieGroupPairGroupoid');
    this.name = `Pair(${group.name.replace(/[()]/g, '')})`;
    this.dim = 2 * group.dim;
    this.baseTangentDim = group.dim;
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

  private adBuf: Float64Array | undefined;
  private adScratch(): Float64Array {
    if (this.adBuf === undefined) this.adBuf = new Float64Array(this.rank * this.rank);
    return this.adBuf;
  }
}
