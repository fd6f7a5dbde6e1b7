/**
 * A Lie group as a Lie groupoid G ⇒ {e} over a one-point base (spec 003 §3.5(b), §8.1).
 *
 * The base is R⁰: α and β are constant (empty arrays), every pair of arrows is composable,
 * m is the group product, ε = e and i is the group inverse. Tangent vectors at g are in the
 * coordinates of the right-⊕ chart x ↦ g·Exp(x) (core `CONVENTIONS.md`), i.e. left-trivialized
 * ("body") coordinates, so ←ξ(g) = gξ has coordinates ξ and →ξ(g) = ξg = g·(Ad_{g⁻¹}ξ) has
 * coordinates Ad_{g⁻¹}ξ.
 *
 * @module
 */
import { DimensionError, DomainError, type LieGroup, type Rng } from '@geomech/core';
import type { LieGroupoid } from './types.js';

/**
 * Options of {@link LieGroupGroupoid}.
 */
export interface LieGroupGroupoidOptions {
  /** Name of the groupoid. Default: the group's name without parentheses (`SO(3)` → `SO3`). */
  readonly name?: string;
  /**
   * Half-width of the box of random algebra coordinates: {@link LieGroupGroupoid.random} returns
   * Exp(τ) with τ uniform in [−s, s]^dim. Default 1 (rotation angles ≤ √3 < π for SO(3)).
   */
  readonly randomScale?: number;
}

/**
 * A core {@link LieGroup} as a Lie groupoid over a point (spec 003 §3.5(b)):
 *
 * - α(g) = β(g) = the point (length-0 arrays); every pair is composable; m(g, h) = gh; ε = e;
 *   i(g) = g⁻¹;
 * - chart_g(x) = g·Exp(x) (`G.rplus`), chart_g⁻¹(k) = Log(g⁻¹k) (`G.rminus`);
 * - AG = 𝔤 with basis the coordinate basis of R^dim, anchor ρ = 0 and the left-invariant bracket
 *   ⟦x, y⟧ = [x, y] = ad_x y (`G.smallAdj`), so that ←⟦X,Y⟧ = [←X, ←Y] (eq. (1));
 * - ←ξ(g) = T_eℓ_g ξ = gξ (eq. (1)) — coordinates ξ; →ξ(g) = T_e r_g ξ = ξg (eq. (2) with
 *   T_e i(ξ) = −ξ) — coordinates Ad_{g⁻¹}ξ;
 * - leftRetract(g, v) = g·Exp(v) and rightRetract(g, v) = Exp(v)·g, the flows of ←v and →v.
 *
 * Methods allocate nothing (scratch is owned by the instance; not re-entrant).
 *
 * @example
 * ```ts
 * import { SO3 as SO3Group } from '@geomech/core';
 * const G = new LieGroupGroupoid(SO3Group); // name 'SO3', dim 3, arrowDim 9, baseDim 0, rank 3
 * const g = G.random(new Float64Array(9), Math.random);
 * const gi = G.inverse(new Float64Array(9), g);
 * G.multiply(new Float64Array(9), g, gi); // ≈ I
 * G.rightField(new Float64Array(3), g, Float64Array.of(0, 0, 1)); // gᵀe₃ = Ad_{g⁻¹}e₃
 * ```
 */
export class LieGroupGroupoid implements LieGroupoid {
  readonly name: string;
  /** dim G = dim 𝔤. */
  readonly dim: number;
  /** Storage length of an element (9 for SO(3) matrices, n for Rⁿ). */
  readonly arrowDim: number;
  /** The base is a point: 0. */
  readonly baseDim = 0;
  /** rank AG = dim 𝔤. */
  readonly rank: number;
  /** Every pair of arrows is composable; the tolerance is never used (0). */
  readonly composableTol = 0;
  /** Half-width of the random algebra box (see {@link LieGroupGroupoidOptions.randomScale}). */
  readonly randomScale: number;

  private readonly sEl: Float64Array;
  private readonly sAdj: Float64Array;
  private readonly sVec: Float64Array;

  constructor(
    /** The wrapped Lie group. */
    readonly group: LieGroup,
    options: LieGroupGroupoidOptions = {},
  ) {
    this.name = options.name ?? group.name.replace(/[()]/g, '');
    this.dim = group.dim;
    this.arrowDim = group.storageSize;
    this.rank = group.dim;
    const s = options.randomScale ?? 1;
    if (!(s > 0 && Number.isFinite(s)))
      throw new DomainError('LieGroupGroupoid: randomScale', s, 'must be positive and finite');
    this.randomScale = s;
    this.sEl = new Float64Array(group.storageSize);
    this.sAdj = new Float64Array(group.dim * group.dim);
    this.sVec = new Float64Array(group.dim);
  }

  /** α(g) = the point: writes nothing. */
  source(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    return out;
  }

  /** β(g) = the point: writes nothing. */
  target(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    return out;
  }

  /** Always 0: the base is a point. */
  gap(g: Float64Array, h: Float64Array): number {
    this.check(g);
    this.check(h);
    return 0;
  }

  /** Always true: every pair of group elements is composable. */
  isComposable(g: Float64Array, h: Float64Array): boolean {
    this.check(g);
    this.check(h);
    return true;
  }

  /** out ← gh, the group product. `out` may alias g or h. */
  multiply(out: Float64Array, g: Float64Array, h: Float64Array): Float64Array {
    this.check(g);
    this.check(h);
    return this.group.compose(out, g, h);
  }

  /** out ← ε(point) = e; q must be empty. */
  identityAt(out: Float64Array, q: ArrayLike<number>): Float64Array {
    if (q.length !== 0) throw new DimensionError('LieGroupGroupoid.identityAt: point', 0, q.length);
    return this.group.identity(out);
  }

  /** out ← g⁻¹. `out` may alias g. */
  inverse(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    return this.group.inverse(out, g);
  }

  /** chart_g(x) = g·Exp(x). `out` may alias g. */
  chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array {
    this.check(g);
    return this.group.compose(out, g, this.group.exp(this.sEl, x));
  }

  /** chart_g⁻¹(k) = Log(g⁻¹k). */
  chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array {
    this.check(g);
    this.check(k);
    return this.group.rminus(out, k, g);
  }

  /** ←v(g) = gv: coordinates v in the chart g·Exp(x). `out` may alias v. */
  leftField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    for (let i = 0; i < this.dim; i++) out[i] = v[i]!;
    return out;
  }

  /** →v(g) = vg = g·(Ad_{g⁻¹}v)^: coordinates Ad_{g⁻¹}v. `out` may alias v. */
  rightField(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    const d = this.dim;
    const A = this.group.adj(this.sAdj, this.group.inverse(this.sEl, g));
    const w = this.sVec;
    for (let i = 0; i < d; i++) w[i] = v[i]!;
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += A[i * d + j]! * w[j]!;
      out[i] = s;
    }
    return out;
  }

  /** g·Exp(v), the flow of ←v. `out` may alias g. */
  leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    return this.group.compose(out, g, this.group.exp(this.sEl, v));
  }

  /** Exp(v)·g, the flow of →v. `out` may alias g. */
  rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    return this.group.compose(out, this.group.exp(this.sEl, v), g);
  }

  /** ρ = 0 into the zero-dimensional T(point): writes nothing. */
  anchor(out: Float64Array, _q: Float64Array, _v: Float64Array): Float64Array {
    return out;
  }

  /** out ← [x, y] = ad_x y (left-invariant convention, spec 003 §2). `out` may alias x or y. */
  bracket(out: Float64Array, _q: Float64Array, x: Float64Array, y: Float64Array): Float64Array {
    const d = this.dim;
    const A = this.group.smallAdj(this.sAdj, x);
    const w = this.sVec;
    for (let i = 0; i < d; i++) w[i] = y[i]!;
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += A[i * d + j]! * w[j]!;
      out[i] = s;
    }
    return out;
  }

  /** Exp(τ) with τ uniform in [−randomScale, randomScale]^dim. */
  random(out: Float64Array, rng: Rng): Float64Array {
    const t = this.sVec;
    for (let i = 0; i < this.dim; i++) t[i] = this.randomScale * (2 * rng() - 1);
    return this.group.exp(out, t);
  }

  /** Same as {@link random}: every arrow is composable after g. */
  randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array {
    this.check(g);
    return this.random(out, rng);
  }

  private check(g: Float64Array): void {
    if (g.length !== this.arrowDim)
      throw new DimensionError(`${this.name}: arrow`, this.arrowDim, g.length);
  }
}
