/**
 * Linear subspaces of V = Rⁿ and of its dual V* (seed 002 §2, spec 002 §3.2, §5.2): the kernel
 * form Δ = ker A (rows of A = constraint covectors ωᵃ), the image form Δ = span G, annihilators
 * Δ° (Prop 2.1), sums, intersections and membership, all with orthonormal bases.
 *
 * Coordinates: a covector α ∈ V* is stored by its components in the dual basis, so the natural
 * pairing is ⟨α, v⟩ = Σᵢ αᵢvⁱ ({@link pairing}) and the annihilator of Δ = span Q (Q orthonormal)
 * is null(Qᵀ). No inner product on V is implied: the orthonormal bases are a numerical device.
 *
 * Tolerances are relative (spec 002 §5.1): singular values ≤ `rtol`·‖A‖_F count as zero
 * ({@link SUBSPACE_RANK_RTOL}); x ∈ S iff ‖x − P_S x‖₂ ≤ `rtol`·‖x‖₂
 * ({@link SUBSPACE_MEMBERSHIP_RTOL}); S₁ = S₂ iff their gap ‖P₁ − P₂‖₂ is ≤
 * {@link SUBSPACE_EQUALITY_TOL}.
 *
 * @module
 */
import {
  columnSpace,
  DimensionError,
  DomainError,
  norm2,
  normFrobenius,
  normInf,
  nullSpace,
  singularValues,
  transpose,
} from '@geomech/core';
import type { Distribution } from './types.js';

/**
 * Relative rank tolerance: a singular value s of A is treated as zero when s ≤ 1e-10·‖A‖_F
 * (spec 002 §5.1). Well above rounding (≈ 1e-16·‖A‖ per operation), well below any constraint
 * set worth calling independent.
 */
export const SUBSPACE_RANK_RTOL = 1e-10;

/** Relative membership tolerance of {@link Subspace.contains}: ‖x − P_S x‖₂ ≤ 1e-10·‖x‖₂. */
export const SUBSPACE_MEMBERSHIP_RTOL = 1e-10;

/**
 * Equality tolerance of {@link Subspace.equals} on the gap ‖P₁ − P₂‖₂ = sin θ_max (the sine of
 * the largest principal angle), a scale-free number in [0, 1].
 */
export const SUBSPACE_EQUALITY_TOL = 1e-10;

/** Orthonormality tolerance of {@link Subspace.fromOrthonormal}: max |QᵀQ − I| ≤ 1e-10. */
export const SUBSPACE_ORTHONORMALITY_TOL = 1e-10;

/**
 * The natural pairing ⟨α, v⟩ = Σᵢ αᵢvⁱ of a covector α ∈ V* with a vector v ∈ V (seed 002 §2).
 *
 * @throws {@link DimensionError} if the lengths differ.
 *
 * @example
 * ```ts
 * pairing([1, -1, 0], [2, 2, 5]); // 0: (2, 2, 5) ∈ ker(dx − dy)
 * ```
 */
export function pairing(alpha: ArrayLike<number>, v: ArrayLike<number>): number {
  if (alpha.length !== v.length)
    throw new DimensionError('pairing: ⟨α, v⟩', alpha.length, v.length);
  let s = 0;
  for (let i = 0; i < v.length; i++) s += alpha[i]! * v[i]!;
  return s;
}

// ---------------------------------------------------------------------------------------------
// private helpers

function checkSize(what: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new DimensionError(what, 'a non-negative integer', v);
}

function checkRtol(what: string, tol: number): void {
  if (!(tol >= 0 && Number.isFinite(tol)))
    throw new DomainError(`${what}: tol`, tol, 'a finite non-negative number');
}

/** The transpose of an m×n row-major matrix, as a new n×m matrix (core's `transpose`). */
function transposed(a: ArrayLike<number>, m: number, n: number): Float64Array {
  return transpose(new Float64Array(m * n), a, m, n);
}

/** Orthonormal basis of null(A) with singular values ≤ rtol·‖A‖_F treated as zero. */
function kernelBasis(a: ArrayLike<number>, m: number, n: number, rtol: number) {
  if (a.length !== m * n) return nullSpace(a, m, n); // core throws the DimensionError
  return nullSpace(a, m, n, rtol * normFrobenius(a));
}

/** Orthonormal basis of the column space of A with the same relative tolerance. */
function rangeBasis(a: ArrayLike<number>, m: number, n: number, rtol: number) {
  if (a.length !== m * n) return columnSpace(a, m, n); // core throws the DimensionError
  return columnSpace(a, m, n, rtol * normFrobenius(a));
}

/** Largest singular value of an m×n matrix. */
function largestSingularValue(a: ArrayLike<number>, m: number, n: number): number {
  return singularValues(a, m, n)[0] ?? 0;
}

// ---------------------------------------------------------------------------------------------

/**
 * A linear subspace S ⊂ Rⁿ held by an orthonormal basis Q (n × dim, row-major; columns span S).
 * The same class serves distributions Δ ⊂ V and codistributions Δ* ⊂ V* at a point.
 *
 * Built by {@link Subspace.span} (image form), {@link Subspace.kernel} (kernel form, constraint
 * covectors as rows) or {@link Subspace.rowSpace} (Prop 2.1: Δ° = row space of A).
 *
 * @example
 * ```ts
 * // Δ = ker(dx − dy) ⊂ R³ (seed 002 Prop 2.1: Δ° = span{dx − dy})
 * const Delta = Subspace.kernel(Float64Array.of(1, -1, 0), 1, 3);
 * Delta.dim;                                   // 2
 * Delta.contains([1, 1, 7]);                   // true
 * Delta.annihilator().equals(Subspace.rowSpace(Float64Array.of(1, -1, 0), 1, 3)); // true
 * ```
 */
export class Subspace {
  private constructor(
    /** Dimension n of the ambient space Rⁿ. */
    readonly ambientDim: number,
    /** Orthonormal basis, ambientDim × dim row-major; its columns span the subspace. */
    readonly basis: Float64Array,
    /** Dimension of the subspace (number of columns of `basis`). */
    readonly dim: number,
  ) {}

  /**
   * The span of the k columns of a rows × k matrix (image form, spec 002 §3.2: Δ = span G). The
   * columns may be dependent; directions with singular value ≤ `tol`·‖cols‖_F are dropped.
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   * @throws {@link DimensionError} if `cols.length ≠ rows·k`; {@link DomainError} on a bad `tol`.
   *
   * @example
   * ```ts
   * // the LC circuit's KCL space (spec 002 §4.2): g1 = (1,1,1,0), g2 = (1,0,1,1)
   * Subspace.span(Float64Array.of(1, 1, 1, 0, 1, 1, 0, 1), 4, 2).dim; // 2
   * ```
   */
  static span(
    cols: ArrayLike<number>,
    rows: number,
    k: number,
    tol: number = SUBSPACE_RANK_RTOL,
  ): Subspace {
    checkRtol('Subspace.span', tol);
    const { basis, d } = rangeBasis(cols, rows, k, tol);
    return new Subspace(rows, basis, d);
  }

  /**
   * The kernel Δ = ker A = {v | ⟨ωᵃ, v⟩ = 0, a = 1..m} of m constraint covectors ωᵃ, the rows of
   * an m × n matrix A (kernel form, spec 002 §3.2). The ωᵃ must be linearly independent (A of full
   * row rank, as Prop 2.1 requires of φ = A), so that dim Δ = n − m.
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   * @throws {@link DimensionError} if `A.length ≠ m·n`.
   * @throws {@link DomainError} if the rows are dependent: `value` is the rank r < m and the
   *   message reads "constraint one-forms are linearly dependent (rank r < m)" (spec 002 §7.5; a
   *   full node-incidence matrix has one redundant row: drop the reference node).
   *
   * @example
   * ```ts
   * // rolling disk at φ = 0, R = 1 (spec 002 §4.1): ω¹ = dx − dθ, ω² = dy
   * const Delta = Subspace.kernel(Float64Array.of(1, 0, -1, 0, 0, 1, 0, 0), 2, 4);
   * Delta.contains([1, 0, 1, 0]); // true: ẋ = R cos φ θ̇
   * ```
   */
  static kernel(
    A: ArrayLike<number>,
    m: number,
    n: number,
    tol: number = SUBSPACE_RANK_RTOL,
  ): Subspace {
    checkSize('Subspace.kernel: rows m', m);
    checkSize('Subspace.kernel: columns n', n);
    if (A.length !== m * n)
      throw new DimensionError(`Subspace.kernel: length of ${m}×${n} matrix A`, m * n, A.length);
    checkRtol('Subspace.kernel', tol);
    const { basis, d } = kernelBasis(A, m, n, tol);
    const r = n - d;
    if (r < m) {
      throw new DomainError(
        'Subspace.kernel: A',
        r,
        `constraint one-forms are linearly dependent (rank ${r} < ${m})`,
      );
    }
    return new Subspace(n, basis, d);
  }

  /**
   * The row space {Aᵀμ | μ ∈ Rᵐ} ⊂ V* of an m × n matrix A: by Prop 2.1 the annihilator Δ° of
   * Δ = ker A, i.e. the Lagrange-multiplier representation e = μₐωᵃ (spec 002 §3.2). Dependent rows
   * are allowed (the span is taken).
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   * @throws {@link DimensionError} if `A.length ≠ m·n`.
   *
   * @example
   * ```ts
   * // KVL space of the LC circuit (spec 002 §4.2): e = μ₁ω¹ + μ₂ω²
   * const kvl = Subspace.rowSpace(Float64Array.of(-1, 0, 1, 0, 0, -1, 1, -1), 2, 4);
   * kvl.contains([-1, -2, 3, -2]); // true: μ = (1, 2)
   * ```
   */
  static rowSpace(
    A: ArrayLike<number>,
    m: number,
    n: number,
    tol: number = SUBSPACE_RANK_RTOL,
  ): Subspace {
    checkSize('Subspace.rowSpace: rows m', m);
    checkSize('Subspace.rowSpace: columns n', n);
    if (A.length !== m * n)
      throw new DimensionError(`Subspace.rowSpace: length of ${m}×${n} matrix A`, m * n, A.length);
    return Subspace.span(transposed(A, m, n), n, m, tol);
  }

  /**
   * Wraps an orthonormal basis Q (n × d row-major) without recomputing it.
   *
   * @throws {@link DimensionError} if `Q.length ≠ n·d` or d > n;
   *   {@link DomainError} if max |QᵀQ − I| > {@link SUBSPACE_ORTHONORMALITY_TOL}.
   *
   * @example
   * ```ts
   * Subspace.fromOrthonormal(Float64Array.of(1, 0, 0), 3, 1).dim; // 1: the x-axis of R³
   * ```
   */
  static fromOrthonormal(Q: ArrayLike<number>, n: number, d: number): Subspace {
    checkSize('Subspace.fromOrthonormal: n', n);
    checkSize('Subspace.fromOrthonormal: d', d);
    if (d > n) throw new DimensionError('Subspace.fromOrthonormal: dimension d', `≤ ${n}`, d);
    if (Q.length !== n * d)
      throw new DimensionError(
        `Subspace.fromOrthonormal: length of ${n}×${d} basis`,
        n * d,
        Q.length,
      );
    let defect = 0;
    for (let a = 0; a < d; a++) {
      for (let b = a; b < d; b++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += Q[i * d + a]! * Q[i * d + b]!;
        defect = Math.max(defect, Math.abs(s - (a === b ? 1 : 0)));
      }
    }
    if (!(defect <= SUBSPACE_ORTHONORMALITY_TOL)) {
      throw new DomainError(
        'Subspace.fromOrthonormal: Q',
        defect,
        `columns must be orthonormal (max |QᵀQ − I| ≤ ${SUBSPACE_ORTHONORMALITY_TOL})`,
      );
    }
    return new Subspace(n, Float64Array.from(Q), d);
  }

  /**
   * The whole space Rⁿ (Δ = TQ, no constraints).
   *
   * @example
   * ```ts
   * Subspace.whole(3).annihilator().dim; // 0
   * ```
   */
  static whole(n: number): Subspace {
    checkSize('Subspace.whole: n', n);
    const basis = new Float64Array(n * n);
    for (let i = 0; i < n; i++) basis[i * n + i] = 1;
    return new Subspace(n, basis, n);
  }

  /**
   * The zero subspace {0} ⊂ Rⁿ.
   *
   * @example
   * ```ts
   * Subspace.zero(3).annihilator().dim; // 3
   * ```
   */
  static zero(n: number): Subspace {
    checkSize('Subspace.zero: n', n);
    return new Subspace(n, new Float64Array(0), 0);
  }

  /**
   * The fibre Δ(q) = ker A(q) of a constraint distribution at q (spec 002 §3.2, §5.4), via
   * {@link Subspace.kernel}; a rank drop of A(q) (a singular point of Δ) throws.
   *
   * @throws {@link DimensionError} if `q.length ≠ Delta.n`; {@link DomainError} as
   *   {@link Subspace.kernel}.
   *
   * @example
   * ```ts
   * // ω = dy − q₀ dx on R² (Δ(q) = span{(1, q₀)})
   * const Delta: Distribution = {
   *   n: 2,
   *   m: 1,
   *   A: (out, q) => { out[0] = -q[0]!; out[1] = 1; return out; },
   *   Adot: (out, _q, v) => { out[0] = -v[0]!; out[1] = 0; return out; },
   * };
   * Subspace.ofDistribution(Delta, Float64Array.of(2, 0)).contains([1, 2]); // true
   * ```
   */
  static ofDistribution(
    Delta: Distribution,
    q: ArrayLike<number>,
    tol: number = SUBSPACE_RANK_RTOL,
  ): Subspace {
    if (q.length !== Delta.n)
      throw new DimensionError('Subspace.ofDistribution: q', Delta.n, q.length);
    const A = Delta.A(new Float64Array(Delta.m * Delta.n), Float64Array.from(q));
    return Subspace.kernel(A, Delta.m, Delta.n, tol);
  }

  /**
   * Column j of the orthonormal basis, as a new vector.
   *
   * @example
   * ```ts
   * Subspace.whole(2).column(1); // [0, 1]
   * ```
   */
  column(j: number): Float64Array {
    if (!Number.isInteger(j) || j < 0 || j >= this.dim)
      throw new DimensionError('Subspace.column: index', `0..${this.dim - 1}`, j);
    const { ambientDim: n, dim: d, basis } = this;
    const c = new Float64Array(n);
    for (let i = 0; i < n; i++) c[i] = basis[i * d + j]!;
    return c;
  }

  /**
   * The orthogonal projection P x = Q Qᵀ x onto the subspace (a new vector).
   *
   * @throws {@link DimensionError} if `x.length ≠ ambientDim`.
   *
   * @example
   * ```ts
   * Subspace.span([1, 0], 2, 1).project([3, 4]); // [3, 0]
   * ```
   */
  project(x: ArrayLike<number>): Float64Array {
    const { ambientDim: n, dim: d, basis } = this;
    if (x.length !== n) throw new DimensionError('Subspace.project: x', n, x.length);
    const c = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      for (let j = 0; j < d; j++) c[j] = c[j]! + basis[i * d + j]! * xi;
    }
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += basis[i * d + j]! * c[j]!;
      out[i] = s;
    }
    return out;
  }

  /**
   * The orthogonal projector P = Q Qᵀ (ambientDim × ambientDim, row-major).
   *
   * @example
   * ```ts
   * Subspace.span([1, 1], 2, 1).projector(); // [0.5, 0.5, 0.5, 0.5]
   * ```
   */
  projector(): Float64Array {
    const { ambientDim: n, dim: d, basis } = this;
    const P = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < n; k++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += basis[i * d + j]! * basis[k * d + j]!;
        P[i * n + k] = s;
      }
    return P;
  }

  /**
   * The distance ‖x − P x‖₂ of x from the subspace.
   *
   * @example
   * ```ts
   * Subspace.span([1, 0], 2, 1).residual([3, 4]); // 4
   * ```
   */
  residual(x: ArrayLike<number>): number {
    const p = this.project(x);
    for (let i = 0; i < p.length; i++) p[i] = x[i]! - p[i]!;
    return norm2(p);
  }

  /**
   * x ∈ S ⇔ ‖x − P x‖₂ ≤ `tol`·‖x‖₂ (relative; the zero vector is in every subspace).
   *
   * @param tol - relative tolerance, default {@link SUBSPACE_MEMBERSHIP_RTOL}.
   * @throws {@link DimensionError} if `x.length ≠ ambientDim`; {@link DomainError} on a bad `tol`.
   *
   * @example
   * ```ts
   * const Delta = Subspace.kernel(Float64Array.of(1, -1), 1, 2);
   * Delta.contains([2, 2]);        // true
   * Delta.contains([2, 2.001]);    // false
   * ```
   */
  contains(x: ArrayLike<number>, tol: number = SUBSPACE_MEMBERSHIP_RTOL): boolean {
    checkRtol('Subspace.contains', tol);
    if (x.length !== this.ambientDim)
      throw new DimensionError('Subspace.contains: x', this.ambientDim, x.length);
    const s = normInf(x);
    if (s === 0) return true;
    const y = Float64Array.from(x, (xi) => xi / s); // scale-free, no underflow in the projection
    return this.residual(y) <= tol * norm2(y);
  }

  /**
   * The gap ‖P − P_S‖₂ between this subspace and S: 0 for equal subspaces, sin θ_max (largest
   * principal angle) for equal dimensions, 1 when the dimensions differ.
   *
   * @throws {@link DimensionError} if the ambient dimensions differ.
   *
   * @example
   * ```ts
   * Subspace.span([1, 0], 2, 1).gap(Subspace.span([1, 1], 2, 1)); // sin(π/4) ≈ 0.7071
   * ```
   */
  gap(S: Subspace): number {
    const n = this.ambientDim;
    if (S.ambientDim !== n)
      throw new DimensionError('Subspace.gap: ambient dimension', n, S.ambientDim);
    if (S.dim !== this.dim) return 1;
    const d = S.dim;
    if (d === 0 || d === n) return 0;
    // ‖P − P_S‖₂ = ‖(I − P) Q_S‖₂ for subspaces of equal dimension
    const R = new Float64Array(n * d);
    for (let j = 0; j < d; j++) {
      const q = S.column(j);
      const p = this.project(q);
      for (let i = 0; i < n; i++) R[i * d + j] = q[i]! - p[i]!;
    }
    return largestSingularValue(R, n, d);
  }

  /**
   * Subspace equality: same dimension and gap ≤ `tol`.
   *
   * @param tol - default {@link SUBSPACE_EQUALITY_TOL}.
   * @throws {@link DimensionError} if the ambient dimensions differ.
   *
   * @example
   * ```ts
   * const A = Float64Array.of(1, 2, 3);
   * Subspace.kernel(A, 1, 3).annihilator().annihilator().equals(Subspace.kernel(A, 1, 3)); // true
   * ```
   */
  equals(S: Subspace, tol: number = SUBSPACE_EQUALITY_TOL): boolean {
    checkRtol('Subspace.equals', tol);
    return S.dim === this.dim && this.gap(S) <= tol;
  }

  /**
   * The sum S₁ + S₂ = span(Q₁ ∪ Q₂).
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   * @throws {@link DimensionError} if the ambient dimensions differ.
   *
   * @example
   * ```ts
   * Subspace.span([1, 0, 0], 3, 1).sum(Subspace.span([0, 1, 0], 3, 1)).dim; // 2
   * ```
   */
  sum(S: Subspace, tol: number = SUBSPACE_RANK_RTOL): Subspace {
    const n = this.ambientDim;
    if (S.ambientDim !== n)
      throw new DimensionError('Subspace.sum: ambient dimension', n, S.ambientDim);
    const d1 = this.dim;
    const d = d1 + S.dim;
    const M = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d1; j++) M[i * d + j] = this.basis[i * d1 + j]!;
      for (let j = 0; j < S.dim; j++) M[i * d + d1 + j] = S.basis[i * S.dim + j]!;
    }
    return Subspace.span(M, n, d, tol);
  }

  /**
   * The intersection S₁ ∩ S₂ = (S₁° + S₂°)°: the common kernel of the stacked annihilator bases.
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   * @throws {@link DimensionError} if the ambient dimensions differ.
   *
   * @example
   * ```ts
   * const xy = Subspace.kernel(Float64Array.of(0, 0, 1), 1, 3);
   * const yz = Subspace.kernel(Float64Array.of(1, 0, 0), 1, 3);
   * xy.intersect(yz).contains([0, 1, 0]); // true, dimension 1
   * ```
   */
  intersect(S: Subspace, tol: number = SUBSPACE_RANK_RTOL): Subspace {
    const n = this.ambientDim;
    if (S.ambientDim !== n)
      throw new DimensionError('Subspace.intersect: ambient dimension', n, S.ambientDim);
    checkRtol('Subspace.intersect', tol);
    const N1 = this.annihilator();
    const N2 = S.annihilator();
    const m = N1.dim + N2.dim;
    // rows: the annihilator basis covectors of both subspaces
    const M = new Float64Array(m * n);
    for (let a = 0; a < N1.dim; a++)
      for (let i = 0; i < n; i++) M[a * n + i] = N1.basis[i * N1.dim + a]!;
    for (let b = 0; b < N2.dim; b++)
      for (let i = 0; i < n; i++) M[(N1.dim + b) * n + i] = N2.basis[i * N2.dim + b]!;
    const { basis, d } = kernelBasis(M, m, n, tol);
    return new Subspace(n, basis, d);
  }

  /**
   * The annihilator S° = {α ∈ V* | ⟨α, v⟩ = 0 ∀ v ∈ S} (seed 002 §2), of dimension n − dim S. For
   * S = ker A it equals the row space of A (Prop 2.1), and (S°)° = S.
   *
   * @example
   * ```ts
   * // KCL space of the LC circuit → its KVL space (spec 002 §4.2)
   * const kcl = Subspace.kernel(Float64Array.of(-1, 0, 1, 0, 0, -1, 1, -1), 2, 4);
   * kcl.annihilator().contains([-1, -2, 3, -2]); // true
   * ```
   */
  annihilator(): Subspace {
    const { ambientDim: n, dim: d, basis } = this;
    if (d === 0) return Subspace.whole(n);
    if (d === n) return Subspace.zero(n);
    // Qᵀ has orthonormal rows: its singular values are all 1 and ‖Qᵀ‖_F = √d, so the threshold
    // ½ (any value in (ε, 1) would do) is exact
    const { basis: N, d: dn } = kernelBasis(transposed(basis, n, d), d, n, 0.5 / Math.sqrt(d));
    return new Subspace(n, N, dn);
  }

  /**
   * Rows of an orthonormal constraint matrix A ((n − dim) × n) with ker A = S: the kernel form of
   * this subspace (the transposed annihilator basis).
   *
   * @example
   * ```ts
   * Subspace.span([1, 1], 2, 1).constraintRows(); // ±[1, −1]/√2
   * ```
   */
  constraintRows(): Float64Array {
    const N = this.annihilator();
    return transposed(N.basis, this.ambientDim, N.dim);
  }
}
