/**
 * The pair groupoid Q × Q ⇒ Q over Q = Rⁿ (seed 003 §3.5(a)).
 *
 * An arrow g = (q0, q1) goes from its source α(g) = q0 to its target β(g) = q1; the product gh
 * ("first g, then h") is defined iff β(g) = α(h) (spec 003 §2). Arrows are stored flat as a
 * `Float64Array` of length 2n, `[q0, q1]`.
 *
 * @module
 */
import { DimensionError, DomainError, NotComposableError, type Rng } from '@geomech/core';
import type { LieGroupoid } from './types.js';

export { NotComposableError };

/**
 * Pair groupoid structure maps (spec 003 §3.5(a)):
 * α(q0, q1) = q0, β(q0, q1) = q1, m((q0, q1), (q1, q2)) = (q0, q2), ε(q) = (q, q),
 * i(q0, q1) = (q1, q0).
 *
 * @example
 * ```ts
 * const G = new PairGroupoid(2);
 * const g = Float64Array.of(0, 0, 1, 2); // from (0,0) to (1,2)
 * const h = Float64Array.of(1, 2, 3, 3);
 * G.multiply(new Float64Array(4), g, h); // [0, 0, 3, 3]
 * ```
 */
export class PairGroupoid implements LieGroupoid {
  readonly name: string;
  /** dim G = 2n. */
  readonly dim: number;
  /** Dimension of the arrow storage, 2n. */
  readonly arrowDim: number;
  /** Rank of the Lie algebroid A(Q×Q) ≅ TQ: dim G − dim Q = n. */
  readonly rank: number;

  constructor(
    /** Dimension n of the base Q = Rⁿ. */
    readonly baseDim: number,
    /** Tolerance of {@link isComposable} on |β(g) − α(h)|∞ (relative to max(1, |β(g)|∞)). */
    readonly composableTol = 1e-12,
  ) {
    if (!Number.isInteger(baseDim) || baseDim < 1)
      throw new DimensionError('PairGroupoid: base dimension', '>= 1', baseDim);
    if (!(composableTol >= 0))
      throw new DomainError('PairGroupoid: composableTol', composableTol, 'must be >= 0');
    this.name = `Pair(R^${baseDim})`;
    this.dim = 2 * baseDim;
    this.arrowDim = 2 * baseDim;
    this.rank = baseDim;
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
    for (let i = 0; i < this.baseDim; i++) out[i] = g[this.baseDim + i]!;
    return out;
  }

  /** max |β(g) − α(h)|: zero exactly when g and h are composable. */
  gap(g: Float64Array, h: Float64Array): number {
    this.check(g);
    this.check(h);
    let gap = 0;
    for (let i = 0; i < this.baseDim; i++)
      gap = Math.max(gap, Math.abs(g[this.baseDim + i]! - h[i]!));
    return gap;
  }

  /** True when β(g) = α(h) up to {@link composableTol}. */
  isComposable(g: Float64Array, h: Float64Array): boolean {
    let scale = 1;
    for (let i = 0; i < this.baseDim; i++) scale = Math.max(scale, Math.abs(g[this.baseDim + i]!));
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
    if (q.length !== this.baseDim)
      throw new DimensionError('PairGroupoid.identityAt: point', this.baseDim, q.length);
    for (let i = 0; i < this.baseDim; i++) {
      out[i] = q[i]!;
      out[this.baseDim + i] = q[i]!;
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

  /** chart_g(x) = g + x (Q×Q = R²ⁿ is its own chart). `out` may alias g. */
  chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array {
    this.check(g);
    for (let i = 0; i < this.arrowDim; i++) out[i] = g[i]! + x[i]!;
    return out;
  }

  /** chart_g⁻¹(k) = k − g. */
  chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array {
    this.check(g);
    this.check(k);
    for (let i = 0; i < this.arrowDim; i++) out[i] = k[i]! - g[i]!;
    return out;
  }

  /** ←v(q0, q1) = (0, v): moves the target end (spec 003 §3.5(a)). */
  leftField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = 0;
      out[n + i] = v[i]!;
    }
    return out;
  }

  /** →v(q0, q1) = (−v, 0): moves the source end, with the minus sign of (2). */
  rightField(out: Float64Array, _g: Float64Array, v: Float64Array): Float64Array {
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = -v[i]!;
      out[n + i] = 0;
    }
    return out;
  }

  /** (q0, q1 + v), the α-fibre curve with velocity ←v. `out` may alias g. */
  leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = g[i]!;
      out[n + i] = g[n + i]! + v[i]!;
    }
    return out;
  }

  /** (q0 − v, q1), the β-fibre curve with velocity →v. `out` may alias g. */
  rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = g[i]! - v[i]!;
      out[n + i] = g[n + i]!;
    }
    return out;
  }

  /** ρ = id: A(Q×Q) ≅ TQ. */
  anchor(out: Float64Array, _q: Float64Array, v: Float64Array): Float64Array {
    for (let i = 0; i < this.baseDim; i++) out[i] = v[i]!;
    return out;
  }

  /** Constant sections of TQ commute: ⟦X, Y⟧ = 0. */
  bracket(out: Float64Array, _q: Float64Array, _x: Float64Array, _y: Float64Array): Float64Array {
    return out.fill(0, 0, this.rank);
  }

  /** Entries uniform in [−2, 2]. */
  random(out: Float64Array, rng: Rng): Float64Array {
    for (let i = 0; i < this.arrowDim; i++) out[i] = 4 * rng() - 2;
    return out;
  }

  /** (β(g), uniform in [−2, 2]ⁿ). */
  randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array {
    this.check(g);
    const n = this.baseDim;
    for (let i = 0; i < n; i++) {
      out[i] = g[n + i]!;
      out[n + i] = 4 * rng() - 2;
    }
    return out;
  }

  /**
   * Trivialized gradients of f at g (spec 003 §2, §3.5(a)), for analytic partials D1f, D2f:
   * leftGrad(f)(g) = ←e_i[f] = D2 f(q0, q1) and rightGrad(f)(g) = →e_i[f] = −D1 f(q0, q1), in the
   * basis e_i = ∂/∂qⁱ of A ≅ TQ.
   */
  leftGrad(out: Float64Array, D2f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.baseDim; i++) out[i] = D2f[i]!;
    return out;
  }

  /** See {@link leftGrad}: →e_i[f] = −D1 f(q0, q1). */
  rightGrad(out: Float64Array, D1f: ArrayLike<number>): Float64Array {
    for (let i = 0; i < this.baseDim; i++) out[i] = -D1f[i]!;
    return out;
  }

  private check(g: Float64Array): void {
    if (g.length !== this.arrowDim)
      throw new DimensionError('PairGroupoid: arrow', this.arrowDim, g.length);
  }
}
