/**
 * Linear Dirac structures on a vector space V = Rⁿ (seed 002 §2, spec 002 §3.1, §5.3).
 *
 * Elements of V ⊕ V* are stored as `[v; α]` ∈ R²ⁿ. The symmetric pairing has no factor ½:
 *   ⟨⟨(v, α), (v̄, ᾱ)⟩⟩ = ⟨α, v̄⟩ + ⟨ᾱ, v⟩ = xᵀ S y,  S = [[0, I], [I, 0]].
 * A subspace D spanned by the columns of B (2n × k) is Dirac iff BᵀSB = 0 and rank B = n.
 *
 * @module
 */
import { DimensionError, DomainError, rank } from '@geomech/core';

/** ⟨⟨x, y⟩⟩ = ⟨α, v̄⟩ + ⟨ᾱ, v⟩ for x = [v; α], y = [v̄; ᾱ] ∈ R²ⁿ (spec 002 §3.1, no ½). */
export function symmetricPairing(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length || x.length % 2 !== 0) {
    throw new DimensionError(
      'symmetricPairing: vectors',
      `equal even lengths`,
      `${x.length} and ${y.length}`,
    );
  }
  const n = x.length / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += x[n + i]! * y[i]! + y[n + i]! * x[i]!;
  return s;
}

/** The split-signature form S(n) = [[0, I], [I, 0]], row-major 2n × 2n. */
export function splitForm(n: number): Float64Array {
  const s = new Float64Array(4 * n * n);
  for (let i = 0; i < n; i++) {
    s[i * 2 * n + n + i] = 1;
    s[(n + i) * 2 * n + i] = 1;
  }
  return s;
}

/**
 * A subspace D ⊂ V ⊕ V* given by spanning columns B (2n × k, row-major), with the Dirac tests of
 * spec 002 §3.1.
 *
 * @example
 * ```ts
 * const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
 * D.isDirac(); // true: the graph of a skew form is Lagrangian for S
 * ```
 */
export class LinearDiracStructure {
  constructor(
    /** Dimension n of V. */
    readonly n: number,
    /** Spanning columns, 2n × k row-major. */
    readonly basis: Float64Array,
    /** Number of spanning columns k. */
    readonly k: number,
  ) {
    if (basis.length !== 2 * n * k)
      throw new DimensionError('LinearDiracStructure: basis', 2 * n * k, basis.length);
  }

  /**
   * The graph of a two-form W (n × n, row-major): D = {(v, W♭v)} with the convention
   * Ω♭v = Wᵀv (spec 002 §5.3). D is Dirac iff W is skew.
   */
  static graphTwoForm(W: ArrayLike<number>, n: number): LinearDiracStructure {
    if (W.length !== n * n) throw new DimensionError('graphTwoForm: W', n * n, W.length);
    const B = new Float64Array(2 * n * n);
    for (let j = 0; j < n; j++) {
      B[j * n + j] = 1; // v = e_j
      for (let i = 0; i < n; i++) B[(n + i) * n + j] = W[j * n + i]!; // α = Wᵀ e_j
    }
    return new LinearDiracStructure(n, B, n);
  }

  /** max |BᵀSB| entry: zero (to `tol`) iff D is isotropic. */
  isotropyDefect(): number {
    const { n, k, basis } = this;
    const col = (j: number) => {
      const c = new Float64Array(2 * n);
      for (let i = 0; i < 2 * n; i++) c[i] = basis[i * k + j]!;
      return c;
    };
    let worst = 0;
    for (let a = 0; a < k; a++)
      for (let b = a; b < k; b++)
        worst = Math.max(worst, Math.abs(symmetricPairing(col(a), col(b))));
    return worst;
  }

  /** BᵀSB = 0 up to `tol`·max(1, ‖B‖²_max). */
  isIsotropic(tol = 1e-12): boolean {
    let scale = 1;
    for (const x of this.basis) scale = Math.max(scale, x * x);
    return this.isotropyDefect() <= tol * scale;
  }

  /** rank B = n. */
  isMaximal(tol?: number): boolean {
    return rank(this.basis, 2 * this.n, this.k, tol) === this.n;
  }

  /** Isotropic and maximal: D = D^⊥. */
  isDirac(tol = 1e-12): boolean {
    return this.isIsotropic(tol) && this.isMaximal();
  }

  /** x = [v; α] ∈ D ⇔ BᵀSx = 0, valid when D is Dirac (D = D^⊥); relative tolerance `tol`. */
  contains(x: ArrayLike<number>, tol = 1e-12): boolean {
    const { n, k, basis } = this;
    if (x.length !== 2 * n)
      throw new DimensionError('LinearDiracStructure.contains: x', 2 * n, x.length);
    if (!(tol >= 0)) throw new DomainError('contains: tol', tol, 'must be >= 0');
    let xScale = 0;
    for (let i = 0; i < 2 * n; i++) xScale = Math.max(xScale, Math.abs(x[i]!));
    const col = new Float64Array(2 * n);
    for (let j = 0; j < k; j++) {
      let colScale = 0;
      for (let i = 0; i < 2 * n; i++) {
        col[i] = basis[i * k + j]!;
        colScale = Math.max(colScale, Math.abs(col[i]!));
      }
      if (Math.abs(symmetricPairing(col, x)) > tol * Math.max(1, colScale * xScale)) return false;
    }
    return true;
  }

  /** Tellegen's residual ⟨α, v⟩ of x = [v; α], zero for every element of a Dirac structure (2.1). */
  static tellegenResidual(x: ArrayLike<number>): number {
    return 0.5 * symmetricPairing(x, x);
  }
}
