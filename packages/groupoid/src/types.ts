/**
 * The Lie groupoid abstraction of `@geomech/groupoid` (spec 003 §2, §3, §11.1).
 *
 * Conventions (spec 003 §2): an arrow g goes from its source α(g) to its target β(g); the product
 * gh ("first g, then h") is defined iff β(g) = α(h). The Lie algebroid A_qG = ker T_{ε(q)}α has
 * rank r = dim G − dim Q and a fixed basis of sections e_1..e_r. The left-invariant field ←v
 * (eq. (1)) is α-vertical and moves the target end; the right-invariant field →v (eq. (2)) is
 * β-vertical, moves the source end and carries the minus sign of (2).
 *
 * Storage: arrows are flat `Float64Array`s of length `arrowDim` (for SO(3) factors a row-major
 * 3×3 matrix, so `arrowDim` can exceed `dim`); base points are `Float64Array`s of length
 * `baseDim` (the base is Euclidean, R^baseDim, for every groupoid we ship; a Lie group has
 * `baseDim = 0`). Tangent vectors and covectors at g are expressed in the coordinates of the
 * local chart x ↦ `chart(g, x)`, x ∈ R^dim, chart(g, 0) = g; covectors pair with them by the dot
 * product. Methods write into `out` (first argument) and return it.
 *
 * @module
 */
import type { Rng } from '@geomech/core';

/** A Lie groupoid G ⇒ Q with a basis of sections of its algebroid (spec 003 §11.1). */
export interface LieGroupoid {
  /** Human-readable name, e.g. `Pair(R^2)`, `SO3`, `Pair(R^2) x SO3`. */
  readonly name: string;
  /** dim G. */
  readonly dim: number;
  /** Length of the arrow storage (≥ dim). */
  readonly arrowDim: number;
  /** dim Q = length of a base point. */
  readonly baseDim: number;
  /** rank r = dim G − dim Q of the Lie algebroid AG. */
  readonly rank: number;
  /** Tolerance of {@link isComposable} on |β(g) − α(h)|∞ relative to max(1, |β(g)|∞). */
  readonly composableTol: number;

  /** out ← α(g) (length baseDim). */
  source(out: Float64Array, g: Float64Array): Float64Array;
  /** out ← β(g). */
  target(out: Float64Array, g: Float64Array): Float64Array;
  /** max |β(g) − α(h)|. */
  gap(g: Float64Array, h: Float64Array): number;
  /** β(g) = α(h) within {@link composableTol}. */
  isComposable(g: Float64Array, h: Float64Array): boolean;
  /** out ← gh; throws `NotComposableError` when β(g) ≠ α(h). `out` may alias g or h. */
  multiply(out: Float64Array, g: Float64Array, h: Float64Array): Float64Array;
  /** out ← ε(q). */
  identityAt(out: Float64Array, q: ArrayLike<number>): Float64Array;
  /** out ← g⁻¹. `out` may alias g. */
  inverse(out: Float64Array, g: Float64Array): Float64Array;

  /** out ← chart_g(x), a local diffeomorphism R^dim → G with chart_g(0) = g. */
  chart(out: Float64Array, g: Float64Array, x: Float64Array): Float64Array;
  /** out ← chart_g⁻¹(k) ∈ R^dim for k near g (the local inverse of {@link chart}). */
  chartInverse(out: Float64Array, g: Float64Array, k: Float64Array): Float64Array;

  /** out (length dim) ← ←v(g) in chart coordinates at g, v ∈ R^r (eq. (1)). */
  leftField(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;
  /** out (length dim) ← →v(g) in chart coordinates at g (eq. (2), with its minus sign). */
  rightField(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;
  /**
   * out ← a curve in the α-fibre of g at parameter 1 with velocity ←v(g) at 0: the exact
   * "move the target end" map used by Newton solvers (e.g. g·exp(v) for a Lie group).
   */
  leftRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;
  /** out ← a curve in the β-fibre of g with velocity →v(g) at 0 (e.g. exp(v)·g). */
  rightRetract(out: Float64Array, g: Float64Array, v: Float64Array): Float64Array;
  /** out (length baseDim) ← ρ(v) ∈ T_qQ, the anchor of v ∈ A_qG (spec 003 Def 2.9). */
  anchor(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /**
   * out (length r) ← ⟦e_i, e_j⟧ expanded in the basis at q, contracted with the coefficients:
   * ⟦X, Y⟧(q) for the *constant-coefficient* sections X = Σ xⁱe_i, Y = Σ yʲe_j.
   */
  bracket(out: Float64Array, q: Float64Array, x: Float64Array, y: Float64Array): Float64Array;

  /** out ← a random arrow (for property tests; moderate size, inside every chart's domain). */
  random(out: Float64Array, rng: Rng): Float64Array;
  /** out ← a random arrow h composable after g: α(h) = β(g). */
  randomAfter(out: Float64Array, g: Float64Array, rng: Rng): Float64Array;
}

/** A point of A*G: a base point q and coefficients p in the dual basis e^i (spec 003 §11). */
export interface AStar {
  readonly base: Float64Array;
  readonly p: Float64Array;
}
