/**
 * The structure of a pair groupoid Q × Q ⇒ Q that does not depend on what Q is (spec 003
 * §3.5(a)), shared by the pair groupoid of Rⁿ ({@link PairGroupoid}) and of a Lie group
 * ({@link LieGroupPairGroupoid}): arrows stored `[q0, q1]` (two base storages of length n), the
 * structure maps α, β, m, ε, i on the storage, and, in a basis of the algebroid A(Q × Q) ≅ TQ
 * whose coefficients v ∈ R^r are the chart coordinates of one end, the invariant fields
 * ←v = (0, v), →v = (−v, 0) (spec 003 eqs. (1), (2)), the anchor ρ = id and the trivialized
 * gradients ←e_i[f] = D₂f, →e_i[f] = −D₁f. A subclass supplies the chart, the retractions along
 * the fibres, the bracket and the random arrows. Internal to the package (not exported).
 *
 * @module
 */
import { DimensionError, NotComposableError, type Rng } from '@geomech/core';
import type { LieGroupoid } from './types.js';

/**
 * The Q-independent part of a pair groupoid (module doc): n = `baseDim` storage entries per end,
 * r = `rank` tangent coordinates per end. Errors name `label` (the subclass).
 */
export abstract class PairStructure implements LieGroupoid {
  abstract readonly name: string;
  abstract readonly dim: number;
  /** 2n. */
  readonly arrowDim: number;

  constructor(
    /** Length n of a base point's storage. */
    readonly baseDim: number,
    /** rank r of the algebroid = tangent dimension of Q. */
    readonly rank: number,
    /** Tolerance of {@link isComposable} on |β(g) − α(h)|∞ (relative to max(1, |β(g)|∞)). */
    readonly composableTol: number,
    private readonly label: string,
  ) {
    this.arrowDim = 2 * baseDim;
  }

  /** out ← α(g) = q0. */
  source(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    for (let i = 0; i < this.baseDim; i++) out[i] = g[i]!;
    return out;
  }

  /** out ← β(g) = q1. */
  target(out: Float64Array, g: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) out[i] = g[n + i]!;
    return out;
  }

  /** max |β(g) − α(h)| over the storage entries: zero exactly when g and h are composable. */
  gap(g: Float64Array, h: Float64Array): number {
    this.check(g);
    this.check(h);
    const n = this.baseDim;
    let gap = 0;
    for (let i = 0; i < n; i++) gap = Math.max(gap, Math.abs(g[n + i]! - h[i]!));
    return gap;
  }

  /** True when β(g) = α(h) up to {@link composableTol}·max(1, |β(g)|∞). */
  isComposable(g: Float64Array, h: Float64Array): boolean {
    const n = this.baseDim;
    let scale = 1;
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(g[n + i]!));
    return this.gap(g, h) <= this.composableTol * scale;
  }

  /**
   * out ← gh = (α(g), β(h)). `out` may alias g or h.
   * @throws NotComposableError when β(g) ≠ α(h).
   */
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
    if (q.length !== n) throw new DimensionError(`${this.label}.identityAt: point`, n, q.length);
    for (let i = 0; i < n; i++) {
      out[i] = q[i]!;
      out[n + i] = q[i]!;
    }
    return out;
  }

  /** out ← g⁻¹ = (q1, q0). `out` may alias g. */
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

  abstract chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array;
  abstract chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array;

  /** ←v(q0, q1) = (0, v): moves the target end (spec 003 eq. (1)). */
  leftField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const r = this.rank;
    for (let i = 0; i < r; i++) {
      out[i] = 0;
      out[r + i] = v[i]!;
    }
    return out;
  }

  /** →v(q0, q1) = (−v, 0): moves the source end, with the minus sign of spec 003 eq. (2). */
  rightField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const r = this.rank;
    for (let i = 0; i < r; i++) {
      out[i] = -v[i]!;
      out[r + i] = 0;
    }
    return out;
  }

  abstract leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;
  abstract rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;

  /** ρ = id: A(Q × Q) ≅ TQ, in the chart coordinates of an end. */
  anchor(out: Float64Array, _q: Float64Array, v: Float64Array): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = v[i]!;
    return out;
  }

  abstract bracket(
    out: Float64Array,
    q: Float64Array,
    x: Float64Array,
    y: Float64Array,
  ): Float64Array;
  abstract random(out: Float64Array, rng: Rng): Float64Array;
  abstract randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array;

  /**
   * ←e_i[f](q0, q1) = D₂f(q0, q1), the partial in the target end (spec 003 §2, §3.5(a)): in the
   * discrete Euler–Lagrange equations of a pair groupoid, the momentum at the target p₁ = D₂L_d.
   */
  leftGrad(out: Float64Array, D2f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = D2f[i]!;
    return out;
  }

  /** →e_i[f](q0, q1) = −D₁f(q0, q1) (the momentum at the source, p₀ = −D₁L_d). */
  rightGrad(out: Float64Array, D1f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.rank; i++) out[i] = -D1f[i]!;
    return out;
  }

  /** @throws DimensionError when g is not an arrow of this groupoid. */
  protected check(g: Float64Array): void {
    if (g.length !== this.arrowDim)
      throw new DimensionError(`${this.label}: arrow`, this.arrowDim, g.length);
  }
}
