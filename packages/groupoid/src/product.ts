/**
 * Product groupoids G1 × G2 ⇒ Q1 × Q2 (spec 003 §3.5(c)) and the two products the paper uses:
 * the time-extended groupoid R×R×G ⇒ R×Q (§3.5(e), §8.3) and the plate-ball groupoid
 * Pair(R²) × SO(3) ⇒ R² (§3.5(d), §8.2).
 *
 * Everything is concatenated `[first, second]`: arrows, base points, algebroid coordinates
 * (A = A1 × A2, basis e¹_1..e¹_{r1}, e²_1..e²_{r2}) and chart coordinates.
 *
 * @module
 */
import { DimensionError, NotComposableError, type Rng, SO3 } from '@geomech/core';
import { LieGroupGroupoid } from './lieGroupGroupoid.js';
import { PairGroupoid } from './pair.js';
import type { LieGroupoid } from './types.js';

/** Scratch of one factor: an arrow-sized, two base-sized and two tangent-sized buffers. */
class FactorScratch {
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly c: Float64Array;
  readonly q: Float64Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  constructor(G: LieGroupoid) {
    this.a = new Float64Array(G.arrowDim);
    this.b = new Float64Array(G.arrowDim);
    this.c = new Float64Array(G.arrowDim);
    this.q = new Float64Array(G.baseDim);
    this.x = new Float64Array(Math.max(G.dim, G.rank, G.baseDim));
    this.y = new Float64Array(Math.max(G.dim, G.rank, G.baseDim));
  }
}

function take(out: Float64Array, src: ArrayLike<number>, off: number, len: number): Float64Array {
  for (let i = 0; i < len; i++) out[i] = src[off + i]!;
  return out;
}

function put(out: Float64Array, off: number, src: ArrayLike<number>, len: number): void {
  for (let i = 0; i < len; i++) out[off + i] = src[i]!;
}

/**
 * The product Lie groupoid G1 × G2 ⇒ Q1 × Q2 (spec 003 §3.5(c)): every structure map acts
 * componentwise, A(G1×G2) = AG1 × AG2, the invariant fields of (X1, X2) are (←X1, ←X2) and
 * (→X1, →X2), ρ = ρ1 × ρ2 and ⟦(x1,x2),(y1,y2)⟧ = (⟦x1,y1⟧, ⟦x2,y2⟧). Arrows, base points,
 * algebroid and chart coordinates are stored `[first, second]`; chart_{(g1,g2)}(x1, x2) =
 * (chart_{g1}(x1), chart_{g2}(x2)).
 *
 * Methods allocate nothing (the instance owns scratch; not re-entrant). `out` may alias the arrow
 * inputs of every method.
 *
 * @example
 * ```ts
 * const G = new ProductGroupoid(new PairGroupoid(1), new LieGroupGroupoid(SO2));
 * G.arrowDim; // 2 + 4; G.baseDim 1; G.rank 2
 * const g = Float64Array.of(0, 1, 1, 0, 0, 1); // t: 0 → 1, R = I
 * G.target(new Float64Array(1), g); // [1]
 * ```
 */
export class ProductGroupoid implements LieGroupoid {
  readonly name: string;
  readonly dim: number;
  readonly arrowDim: number;
  readonly baseDim: number;
  readonly rank: number;
  /** max of the factors' tolerances (each factor checks its own part). */
  readonly composableTol: number;

  private readonly s1: FactorScratch;
  private readonly s2: FactorScratch;

  constructor(
    /** The first factor G1 (stored first). */
    readonly first: LieGroupoid,
    /** The second factor G2. */
    readonly second: LieGroupoid,
  ) {
    this.name = `${first.name} x ${second.name}`;
    this.dim = first.dim + second.dim;
    this.arrowDim = first.arrowDim + second.arrowDim;
    this.baseDim = first.baseDim + second.baseDim;
    this.rank = first.rank + second.rank;
    this.composableTol = Math.max(first.composableTol, second.composableTol);
    this.s1 = new FactorScratch(first);
    this.s2 = new FactorScratch(second);
  }

  /** out ← (α1(g1), α2(g2)). */
  source(out: Float64Array, g: Float64Array): Float64Array {
    return this.baseMap(out, g, 'source');
  }

  /** out ← (β1(g1), β2(g2)). */
  target(out: Float64Array, g: Float64Array): Float64Array {
    return this.baseMap(out, g, 'target');
  }

  /** max(gap1, gap2). */
  gap(g: Float64Array, h: Float64Array): number {
    this.split(g, this.s1.a, this.s2.a);
    this.split(h, this.s1.b, this.s2.b);
    return Math.max(this.first.gap(this.s1.a, this.s1.b), this.second.gap(this.s2.a, this.s2.b));
  }

  /** Both factors composable. */
  isComposable(g: Float64Array, h: Float64Array): boolean {
    this.split(g, this.s1.a, this.s2.a);
    this.split(h, this.s1.b, this.s2.b);
    return (
      this.first.isComposable(this.s1.a, this.s1.b) &&
      this.second.isComposable(this.s2.a, this.s2.b)
    );
  }

  /**
   * out ← (g1h1, g2h2). `out` may alias g or h.
   * @throws NotComposableError when a factor is not composable.
   */
  multiply(out: Float64Array, g: Float64Array, h: Float64Array): Float64Array {
    if (!this.isComposable(g, h)) throw new NotComposableError(this.gap(g, h));
    const { s1, s2 } = this;
    this.first.multiply(s1.c, s1.a, s1.b);
    this.second.multiply(s2.c, s2.a, s2.b);
    return this.join(out, s1.c, s2.c);
  }

  /** out ← (ε1(q1), ε2(q2)). */
  identityAt(out: Float64Array, q: ArrayLike<number>): Float64Array {
    if (q.length !== this.baseDim)
      throw new DimensionError(`${this.name}.identityAt: point`, this.baseDim, q.length);
    const { s1, s2 } = this;
    const b1 = this.first.baseDim;
    this.first.identityAt(s1.c, take(s1.q, q, 0, b1));
    this.second.identityAt(s2.c, take(s2.q, q, b1, this.second.baseDim));
    return this.join(out, s1.c, s2.c);
  }

  /** out ← (g1⁻¹, g2⁻¹). `out` may alias g. */
  inverse(out: Float64Array, g: Float64Array): Float64Array {
    const { s1, s2 } = this;
    this.split(g, s1.a, s2.a);
    this.first.inverse(s1.c, s1.a);
    this.second.inverse(s2.c, s2.a);
    return this.join(out, s1.c, s2.c);
  }

  /** out ← (chart_{g1}(x1), chart_{g2}(x2)). `out` may alias g. */
  chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array {
    const { s1, s2 } = this;
    this.split(g, s1.a, s2.a);
    this.first.chart(s1.c, s1.a, take(s1.x, x, 0, this.first.dim));
    this.second.chart(s2.c, s2.a, take(s2.x, x, this.first.dim, this.second.dim));
    return this.join(out, s1.c, s2.c);
  }

  /** out ← (chart_{g1}⁻¹(k1), chart_{g2}⁻¹(k2)). */
  chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array {
    const { s1, s2 } = this;
    this.split(g, s1.a, s2.a);
    this.split(k, s1.b, s2.b);
    this.first.chartInverse(s1.x, s1.a, s1.b);
    this.second.chartInverse(s2.x, s2.a, s2.b);
    put(out, 0, s1.x, this.first.dim);
    put(out, this.first.dim, s2.x, this.second.dim);
    return out;
  }

  /** out ← (←v1(g1), ←v2(g2)) (spec 003 §3.5(c)). */
  leftField(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    return this.fieldMap(out, g, v, 'left');
  }

  /** out ← (→v1(g1), →v2(g2)) (spec 003 §3.5(c)). */
  rightField(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    return this.fieldMap(out, g, v, 'right');
  }

  /** out ← (leftRetract1(g1, v1), leftRetract2(g2, v2)). `out` may alias g. */
  leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    return this.retract(out, g, v, 'left');
  }

  /** out ← (rightRetract1(g1, v1), rightRetract2(g2, v2)). `out` may alias g. */
  rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array {
    return this.retract(out, g, v, 'right');
  }

  /** out ← (ρ1(v1), ρ2(v2)). */
  anchor(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const { s1, s2, first, second } = this;
    const b1 = first.baseDim;
    const r1 = first.rank;
    take(s1.q, q, 0, b1);
    take(s2.q, q, b1, second.baseDim);
    first.anchor(s1.y, s1.q, take(s1.x, v, 0, r1));
    second.anchor(s2.y, s2.q, take(s2.x, v, r1, second.rank));
    put(out, 0, s1.y, b1);
    put(out, b1, s2.y, second.baseDim);
    return out;
  }

  /** out ← (⟦x1, y1⟧, ⟦x2, y2⟧). */
  bracket(out: Float64Array, q: Float64Array, x: Float64Array, y: Float64Array): Float64Array {
    const { s1, s2, first, second } = this;
    const b1 = first.baseDim;
    const r1 = first.rank;
    const r2 = second.rank;
    take(s1.q, q, 0, b1);
    take(s2.q, q, b1, second.baseDim);
    // the factor's bracket may not allow out to alias its inputs: results go to s*.c (≥ rank)
    first.bracket(s1.c, s1.q, take(s1.x, x, 0, r1), take(s1.y, y, 0, r1));
    second.bracket(s2.c, s2.q, take(s2.x, x, r1, r2), take(s2.y, y, r1, r2));
    put(out, 0, s1.c, r1);
    put(out, r1, s2.c, r2);
    return out;
  }

  /** out ← (random1, random2). */
  random(out: Float64Array, rng: Rng): Float64Array {
    const { s1, s2 } = this;
    this.first.random(s1.c, rng);
    this.second.random(s2.c, rng);
    return this.join(out, s1.c, s2.c);
  }

  /** out ← (randomAfter1(g1), randomAfter2(g2)). */
  randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array {
    const { s1, s2 } = this;
    this.split(g, s1.a, s2.a);
    this.first.randomAfter(s1.c, s1.a, rng);
    this.second.randomAfter(s2.c, s2.a, rng);
    return this.join(out, s1.c, s2.c);
  }

  /** Copies the two factors of the arrow g into g1 and g2. */
  split(g: ArrayLike<number>, g1: Float64Array, g2: Float64Array): void {
    if (g.length !== this.arrowDim)
      throw new DimensionError(`${this.name}: arrow`, this.arrowDim, g.length);
    take(g1, g, 0, this.first.arrowDim);
    take(g2, g, this.first.arrowDim, this.second.arrowDim);
  }

  /** out ← [g1, g2]. */
  join(out: Float64Array, g1: ArrayLike<number>, g2: ArrayLike<number>): Float64Array {
    put(out, 0, g1, this.first.arrowDim);
    put(out, this.first.arrowDim, g2, this.second.arrowDim);
    return out;
  }

  private baseMap(out: Float64Array, g: Float64Array, which: 'source' | 'target'): Float64Array {
    const { s1, s2, first, second } = this;
    this.split(g, s1.a, s2.a);
    if (which === 'source') {
      first.source(s1.q, s1.a);
      put(out, 0, s1.q, first.baseDim);
      second.source(s2.q, s2.a);
    } else {
      first.target(s1.q, s1.a);
      put(out, 0, s1.q, first.baseDim);
      second.target(s2.q, s2.a);
    }
    put(out, first.baseDim, s2.q, second.baseDim);
    return out;
  }

  private fieldMap(
    out: Float64Array,
    g: Float64Array,
    v: Float64Array,
    which: 'left' | 'right',
  ): Float64Array {
    const { s1, s2, first, second } = this;
    this.split(g, s1.a, s2.a);
    take(s1.x, v, 0, first.rank);
    take(s2.x, v, first.rank, second.rank);
    if (which === 'left') {
      first.leftField(s1.y, s1.a, s1.x);
      second.leftField(s2.y, s2.a, s2.x);
    } else {
      first.rightField(s1.y, s1.a, s1.x);
      second.rightField(s2.y, s2.a, s2.x);
    }
    put(out, 0, s1.y, first.dim);
    put(out, first.dim, s2.y, second.dim);
    return out;
  }

  private retract(
    out: Float64Array,
    g: Float64Array,
    v: Float64Array,
    which: 'left' | 'right',
  ): Float64Array {
    const { s1, s2, first, second } = this;
    this.split(g, s1.a, s2.a);
    take(s1.x, v, 0, first.rank);
    take(s2.x, v, first.rank, second.rank);
    if (which === 'left') {
      first.leftRetract(s1.c, s1.a, s1.x);
      second.leftRetract(s2.c, s2.a, s2.x);
    } else {
      first.rightRetract(s1.c, s1.a, s1.x);
      second.rightRetract(s2.c, s2.a, s2.x);
    }
    return this.join(out, s1.c, s2.c);
  }
}

/**
 * The time-extended groupoid G_R = R×R×G ⇒ R×Q of spec 003 §3.5(e) (§8.3), i.e.
 * Pair(R¹) × G: an arrow is stored `(t0, t1, g)`, α_R = (t0, α(g)), β_R = (t1, β(g)),
 * m_R((t0,t1,g1),(t1,t2,g2)) = (t0, t2, g1g2), ε_R(t, q) = (t, t, ε(q)), i_R = (t1, t0, g⁻¹); the
 * algebroid is TR × AG with basis (∂/∂t, 0), (0, e_i): ← moves t1, → moves t0 with a minus sign.
 *
 * @example
 * ```ts
 * const G = timeExtended(new LieGroupGroupoid(SO3)); // arrows (t0, t1, R row-major 9)
 * const g = Float64Array.of(0.5, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1); // (t0, t1, R = I)
 * G.source(new Float64Array(1), g); // [0.5]
 * ```
 */
export function timeExtended(G: LieGroupoid): ProductGroupoid {
  return new ProductGroupoid(new PairGroupoid(1), G);
}

/**
 * The plate-ball groupoid Pair(R²) × SO(3) ⇒ R² of spec 003 §3.5(d) (§8.2): an arrow is stored
 * `(x0, y0, x1, y1, g1)` with g1 row-major 3×3; α = (x0, y0), β = (x1, y1),
 * m = (x0, y0, x2, y2, g1g2), ε(x, y) = (x, y, x, y, I), i = (x1, y1, x0, y0, g1ᵀ). The algebroid
 * TR² × so(3) has the basis (∂x, 0), (∂y, 0), (0, E1), (0, E2), (0, E3); left-invariant fields
 * (∂x, 0) ↦ ∂/∂x1, (0, E_i) ↦ g1E_i; right-invariant fields (∂x, 0) ↦ −∂/∂x0, (0, E_i) ↦ E_ig1.
 *
 * @example
 * ```ts
 * const G = plateBallGroupoid(); // dim 7, arrowDim 13, baseDim 2, rank 5
 * G.identityAt(new Float64Array(13), [1, 2]); // [1, 2, 1, 2, 1,0,0, 0,1,0, 0,0,1]
 * ```
 */
export function plateBallGroupoid(): ProductGroupoid {
  return new ProductGroupoid(new PairGroupoid(2), new LieGroupGroupoid(SO3));
}
