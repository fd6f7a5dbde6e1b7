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
import { PairStructure } from './pairStructure.js';

export { NotComposableError };

/**
 * Pair groupoid structure maps (spec 003 §3.5(a)):
 * α(q0, q1) = q0, β(q0, q1) = q1, m((q0, q1), (q1, q2)) = (q0, q2), ε(q) = (q, q),
 * i(q0, q1) = (q1, q0); the fields ←v = (0, v), →v = (−v, 0), the anchor ρ = id and the
 * trivialized gradients ←e_i[f] = D₂f, →e_i[f] = −D₁f in the basis e_i = ∂/∂qⁱ of A ≅ TQ. These
 * are shared with {@link LieGroupPairGroupoid} (which is this groupoid for G = Rⁿ); the chart and
 * the retractions along the fibres are Euclidean: (q0, q1 + v), (q0 − v, q1).
 *
 * @example
 * ```ts
 * const G = new PairGroupoid(2);
 * const g = Float64Array.of(0, 0, 1, 2); // from (0,0) to (1,2)
 * const h = Float64Array.of(1, 2, 3, 3);
 * G.multiply(new Float64Array(4), g, h); // [0, 0, 3, 3]
 * ```
 */
export class PairGroupoid extends PairStructure {
  readonly name: string;
  /** dim G = 2n. */
  readonly dim: number;

  constructor(
    /** Dimension n of the base Q = Rⁿ (= rank of A(Q×Q) ≅ TQ). */
    baseDim: number,
    /** Tolerance of {@link isComposable} on |β(g) − α(h)|∞ (relative to max(1, |β(g)|∞)). */
    composableTol = 1e-12,
  ) {
    if (!Number.isInteger(baseDim) || baseDim < 1)
      throw new DimensionError('PairGroupoid: base dimension', '>= 1', baseDim);
    if (!(composableTol >= 0))
      throw new DomainError('PairGroupoid: composableTol', composableTol, 'must be >= 0');
    super(baseDim, baseDim, composableTol, 'PairGroupoid');
    this.name = `Pair(R^${baseDim})`;
    this.dim = 2 * baseDim;
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
}
