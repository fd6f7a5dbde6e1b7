/**
 * The one door to `ml-matrix`: singular value decompositions, ranks, null and column spaces,
 * pseudo-inverses, condition numbers and eigenvalues, for setup and cold paths (constraint
 * bases, diagnostics). Hot loops use the project's own kernels (`DenseLU` and friends).
 *
 * Everything here speaks only our types: flat row-major `Float64Array`s with explicit sizes
 * (an m×n matrix is `m*n` numbers, entry (i, j) at `i*n + j`); no `ml-matrix` type leaks out.
 * Inputs are validated: sizes must be non-negative integers and match the array length
 * ({@link DimensionError}), entries must be finite ({@link NonFiniteError}). Empty matrices
 * (m = 0 or n = 0) are allowed wherever the result is well defined. Every function allocates its
 * results.
 *
 * The decompositions are ml-matrix's ports of the JAMA / EISPACK algorithms: Golub–Kahan–Reinsch
 * SVD, Householder tridiagonalization + implicit QL (`tred2`/`tql2`) for symmetric matrices, and
 * Hessenberg reduction + shifted QR (`orthes`/`hqr2`) for general ones.
 *
 * @module
 */
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import { SVD_FLUSH_RTOL, SYMMETRY_RTOL } from '../constants.js';
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';
import { asymmetry } from './matrix.js';

/** Thin singular value decomposition `A = U · diag(s) · Vᵀ` of an m×n matrix, k = min(m, n). */
export interface SvdResult {
  /** Left singular vectors, m×k row-major; columns orthonormal. */
  readonly U: Float64Array;
  /** Singular values, length k, non-negative and in descending order. */
  readonly s: Float64Array;
  /** Right singular vectors, n×k row-major; columns orthonormal. */
  readonly V: Float64Array;
  /** k = min(m, n). */
  readonly k: number;
}

/** An orthonormal basis of a subspace of ℝʳᵒʷˢ, stored as the columns of a rows×d matrix. */
export interface SubspaceBasis {
  /** rows×d row-major; its columns are orthonormal and span the subspace. */
  readonly basis: Float64Array;
  /** Dimension d of the subspace (number of columns of `basis`). */
  readonly d: number;
}

/** Eigen-decomposition `A = Q · diag(values) · Qᵀ` of a symmetric n×n matrix. */
export interface SymmetricEigenResult {
  /** Eigenvalues, length n, ascending. */
  readonly values: Float64Array;
  /** Orthonormal eigenvectors as the columns of an n×n row-major matrix, in the order of `values`. */
  readonly vectors: Float64Array;
}

/** Eigenvalues `re[i] + i·im[i]` of a real n×n matrix. */
export interface ComplexEigenvalues {
  /** Real parts, length n. */
  readonly re: Float64Array;
  /** Imaginary parts, length n; complex eigenvalues come in adjacent conjugate pairs, `+im` first. */
  readonly im: Float64Array;
}

// ---------------------------------------------------------------------------------------------
// validation and conversion (private)

function checkSize(what: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new DimensionError(what, 'a non-negative integer', v);
}

function checkMatrix(what: string, a: ArrayLike<number>, m: number, n: number): void {
  checkSize(`${what}: rows`, m);
  checkSize(`${what}: columns`, n);
  if (a.length !== m * n)
    throw new DimensionError(`${what}: length of ${m}×${n} matrix`, m * n, a.length);
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) throw new NonFiniteError(what, i);
}

function checkTol(what: string, tol: number | undefined): void {
  if (tol !== undefined && !(tol >= 0 && Number.isFinite(tol))) {
    throw new DomainError(`${what}: tol`, tol, 'a finite non-negative number');
  }
}

function checkFiniteResult(what: string, x: Float64Array): void {
  for (let i = 0; i < x.length; i++)
    if (!Number.isFinite(x[i]!)) throw new NonFiniteError(`${what}: result`, i);
}

/** Copies a flat m×n array into a new ml-matrix `Matrix`. */
function toMl(a: ArrayLike<number>, m: number, n: number): Matrix {
  const M = new Matrix(m, n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) M.set(i, j, a[i * n + j]!);
  return M;
}

/** Copies the leading rows×cols block of an ml-matrix `Matrix` into a new flat array. */
function fromMl(M: Matrix, rows: number, cols: number): Float64Array {
  if (M.rows < rows || M.columns < cols) {
    throw new DimensionError(
      'mlmatrix: decomposition output',
      `${rows}×${cols}`,
      `${M.rows}×${M.columns}`,
    );
  }
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[i * cols + j] = M.get(i, j);
  return out;
}

/** Columns [from, to) of a flat rows×cols matrix, as a new rows×(to−from) matrix. */
function columns(
  x: Float64Array,
  rows: number,
  cols: number,
  from: number,
  to: number,
): Float64Array {
  const d = to - from;
  const out = new Float64Array(rows * d);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < d; j++) out[i * d + j] = x[i * cols + from + j]!;
  return out;
}

/** Default rank tolerance max(m, n)·ε·s₀ (ε = 2⁻⁵², s₀ the largest singular value). */
function defaultTol(s: Float64Array, m: number, n: number): number {
  return Math.max(m, n) * Number.EPSILON * (s[0] ?? 0);
}

/** Number of singular values strictly above `tol`. */
function countAbove(s: Float64Array, tol: number): number {
  let r = 0;
  while (r < s.length && s[r]! > tol) r++;
  return r;
}

/**
 * A copy of A scaled by a power of two to max |a_ij| ≈ 1 (exact: singular vectors unchanged,
 * singular values scaled back by `scale`), with entries below SVD_FLUSH_RTOL·max|a_ij| set to
 * zero. The JAMA SVD inside ml-matrix returns non-orthonormal singular vectors when subnormal
 * entries (≈ 1e-323) meet O(1) ones; entries that small are far below rounding (ε² relative).
 */
function sanitizeForSvd(a: ArrayLike<number>): {
  readonly a: Float64Array;
  readonly scale: number;
} {
  const out = Float64Array.from(a);
  let maxAbs = 0;
  for (let i = 0; i < out.length; i++) maxAbs = Math.max(maxAbs, Math.abs(out[i]!));
  if (maxAbs === 0 || !Number.isFinite(maxAbs)) return { a: out, scale: 1 };
  const e = Math.round(Math.log2(maxAbs));
  const e1 = Math.trunc(e / 2);
  const f1 = 2 ** -e1;
  const f2 = 2 ** -(e - e1); // two factors: 2^±1074 alone would overflow
  for (let i = 0; i < out.length; i++) {
    const x = out[i]! * f1 * f2;
    out[i] = Math.abs(x) < SVD_FLUSH_RTOL ? 0 : x;
  }
  return { a: out, scale: 2 ** e1 * 2 ** (e - e1) };
}

/** Thin SVD of an already validated, non-empty matrix. */
function svdUnchecked(what: string, a: ArrayLike<number>, m: number, n: number): SvdResult {
  const k = Math.min(m, n);
  const { a: scaled, scale } = sanitizeForSvd(a);
  const dec = new SingularValueDecomposition(toMl(scaled, m, n), { autoTranspose: true });
  const s = Float64Array.from(dec.diagonal.slice(0, k), (x) => x * scale);
  const U = fromMl(dec.leftSingularVectors, m, k);
  const V = fromMl(dec.rightSingularVectors, n, k);
  checkFiniteResult(what, s);
  checkFiniteResult(what, U);
  checkFiniteResult(what, V);
  return { U, s, V, k };
}

// ---------------------------------------------------------------------------------------------
// singular values and subspaces

/**
 * Thin singular value decomposition `A = U · diag(s) · Vᵀ` of an m×n matrix (k = min(m, n)),
 * singular values in descending order. For m < n the decomposition of Aᵀ is computed and
 * transposed back.
 *
 * @throws {@link DimensionError} if the sizes are not non-negative integers or `a.length ≠ m·n`.
 * @throws {@link NonFiniteError} if an entry is NaN or infinite (or the result overflows).
 *
 * @example
 * ```ts
 * const { U, s, V, k } = svd(Float64Array.of(3, 0, 0, -2), 2, 2);
 * // k = 2, s = [3, 2], U·diag(s)·Vᵀ = A
 * ```
 */
export function svd(a: ArrayLike<number>, m: number, n: number): SvdResult {
  checkMatrix('svd', a, m, n);
  if (m === 0 || n === 0) {
    return { U: new Float64Array(0), s: new Float64Array(0), V: new Float64Array(0), k: 0 };
  }
  return svdUnchecked('svd', a, m, n);
}

/**
 * Singular values of an m×n matrix, min(m, n) of them, descending. Skips the singular vectors.
 *
 * @throws {@link DimensionError}, {@link NonFiniteError} as {@link svd}.
 *
 * @example
 * ```ts
 * singularValues(Float64Array.of(1, 2, 2, 4), 2, 2); // [5, 0]: the rank-1 matrix [1 2]ᵀ[1 2]
 * ```
 */
export function singularValues(a: ArrayLike<number>, m: number, n: number): Float64Array {
  checkMatrix('singularValues', a, m, n);
  const k = Math.min(m, n);
  if (k === 0) return new Float64Array(0);
  const { a: scaled, scale } = sanitizeForSvd(a);
  const dec = new SingularValueDecomposition(toMl(scaled, m, n), {
    autoTranspose: true,
    computeLeftSingularVectors: false,
    computeRightSingularVectors: false,
  });
  const s = Float64Array.from(dec.diagonal.slice(0, k), (x) => x * scale);
  checkFiniteResult('singularValues', s);
  return s;
}

/**
 * Numerical rank: the number of singular values strictly greater than `tol`, by default
 * `max(m, n) · ε · s₀` (ε = `Number.EPSILON`, s₀ the largest singular value), as in LAPACK-based
 * `matrix_rank` of NumPy and `rank` of MATLAB. The zero matrix and empty matrices have rank 0.
 *
 * @param tol - absolute threshold on singular values; finite and ≥ 0.
 * @throws {@link DimensionError}, {@link NonFiniteError} as {@link svd};
 *   {@link DomainError} if `tol` is negative or not finite.
 *
 * @example
 * ```ts
 * rank(Float64Array.of(1, 2, 3, 2, 4, 6), 2, 3); // 1
 * ```
 */
export function rank(a: ArrayLike<number>, m: number, n: number, tol?: number): number {
  checkTol('rank', tol);
  const s = singularValues(a, m, n);
  return countAbove(s, tol ?? defaultTol(s, m, n));
}

/**
 * Orthonormal basis of the null space `{ x ∈ ℝⁿ : A x = 0 }` of an m×n matrix: the right singular
 * vectors whose singular values are ≤ `tol` (default as in {@link rank}), together with the n − m
 * extra ones when m < n. Returned as the columns of an n×d matrix, d = n − rank.
 *
 * @param tol - absolute threshold on singular values; finite and ≥ 0.
 * @throws {@link DimensionError}, {@link NonFiniteError} as {@link svd};
 *   {@link DomainError} if `tol` is negative or not finite.
 *
 * @example
 * ```ts
 * const { basis, d } = nullSpace(Float64Array.of(1, 1, 0), 1, 3);
 * // d = 2; the columns of the 3×2 `basis` are orthonormal and orthogonal to (1, 1, 0)
 * ```
 */
export function nullSpace(a: ArrayLike<number>, m: number, n: number, tol?: number): SubspaceBasis {
  checkMatrix('nullSpace', a, m, n);
  checkTol('nullSpace', tol);
  if (n === 0) return { basis: new Float64Array(0), d: 0 };
  if (m === 0) {
    const basis = new Float64Array(n * n);
    for (let i = 0; i < n; i++) basis[i * n + i] = 1;
    return { basis, d: n };
  }
  // For m < n pad A with zero rows to n×n, so the SVD yields a full n×n V (same singular values
  // plus zeros, same null space).
  const rows = Math.max(m, n);
  let work: ArrayLike<number> = a;
  if (m < n) {
    const padded = new Float64Array(rows * n);
    for (let i = 0; i < m * n; i++) padded[i] = a[i]!;
    work = padded;
  }
  const { s, V } = svdUnchecked('nullSpace', work, rows, n);
  const r = countAbove(s, tol ?? defaultTol(s, m, n));
  return { basis: columns(V, n, n, r, n), d: n - r };
}

/**
 * Orthonormal basis of the column space (range) `{ A x : x ∈ ℝⁿ }` of an m×n matrix: the left
 * singular vectors whose singular values exceed `tol` (default as in {@link rank}). Returned as
 * the columns of an m×d matrix, d = rank.
 *
 * @param tol - absolute threshold on singular values; finite and ≥ 0.
 * @throws {@link DimensionError}, {@link NonFiniteError} as {@link svd};
 *   {@link DomainError} if `tol` is negative or not finite.
 *
 * @example
 * ```ts
 * const { basis, d } = columnSpace(Float64Array.of(1, 2, 2, 4), 2, 2);
 * // d = 1; basis = ±(1, 2)/√5
 * ```
 */
export function columnSpace(
  a: ArrayLike<number>,
  m: number,
  n: number,
  tol?: number,
): SubspaceBasis {
  checkMatrix('columnSpace', a, m, n);
  checkTol('columnSpace', tol);
  if (m === 0 || n === 0) return { basis: new Float64Array(0), d: 0 };
  const { U, s, k } = svdUnchecked('columnSpace', a, m, n);
  const r = countAbove(s, tol ?? defaultTol(s, m, n));
  return { basis: columns(U, m, k, 0, r), d: r };
}

/**
 * Alias of {@link columnSpace}: orthonormal basis of the range of A.
 *
 * @example
 * ```ts
 * rangeSpace(Float64Array.of(1, 0, 0, 0), 2, 2).d; // 1
 * ```
 */
export const rangeSpace: typeof columnSpace = columnSpace;

/**
 * Moore–Penrose pseudo-inverse `A⁺ = V · diag(1/sᵢ) · Uᵀ` (n×m) of an m×n matrix, where singular
 * values ≤ `tol` (default as in {@link rank}) are treated as zero. Satisfies A A⁺ A = A,
 * A⁺ A A⁺ = A⁺, and A A⁺, A⁺ A symmetric.
 *
 * @param tol - absolute threshold on singular values; finite and ≥ 0.
 * @throws {@link DimensionError}, {@link NonFiniteError} as {@link svd};
 *   {@link DomainError} if `tol` is negative or not finite.
 *
 * @example
 * ```ts
 * pseudoInverse(Float64Array.of(1, 2), 1, 2); // [0.2, 0.4], 2×1
 * ```
 */
export function pseudoInverse(
  a: ArrayLike<number>,
  m: number,
  n: number,
  tol?: number,
): Float64Array {
  checkMatrix('pseudoInverse', a, m, n);
  checkTol('pseudoInverse', tol);
  const out = new Float64Array(n * m);
  if (m === 0 || n === 0) return out;
  const { U, s, V, k } = svdUnchecked('pseudoInverse', a, m, n);
  const r = countAbove(s, tol ?? defaultTol(s, m, n));
  for (let l = 0; l < r; l++) {
    const inv = 1 / s[l]!;
    for (let i = 0; i < n; i++) {
      const vil = V[i * k + l]! * inv;
      if (vil === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] = out[i * m + j]! + vil * U[j * k + l]!;
    }
  }
  checkFiniteResult('pseudoInverse', out);
  return out;
}

/**
 * 2-norm condition number `κ₂(A) = s_max / s_min` of an m×n matrix over its min(m, n) singular
 * values; `Infinity` when the smallest singular value is exactly zero. Values near or above 1/ε
 * (≈ 4.5e15) mean singular to working precision.
 *
 * @throws {@link DimensionError} as {@link svd}, and if the matrix is empty;
 *   {@link NonFiniteError} as {@link svd}.
 *
 * @example
 * ```ts
 * conditionNumber2(Float64Array.of(2, 0, 0, 0.5), 2, 2); // 4
 * ```
 */
export function conditionNumber2(a: ArrayLike<number>, m: number, n: number): number {
  const s = singularValues(a, m, n);
  if (s.length === 0)
    throw new DimensionError('conditionNumber2: matrix size', 'non-empty', `${m}×${n}`);
  const sMin = s[s.length - 1]!;
  return sMin === 0 ? Number.POSITIVE_INFINITY : s[0]! / sMin;
}

// ---------------------------------------------------------------------------------------------
// eigenvalues

/**
 * Eigenvalues (ascending) and orthonormal eigenvectors of a symmetric n×n matrix,
 * `A = Q · diag(values) · Qᵀ`, by Householder tridiagonalization and implicit QL.
 *
 * The matrix must be symmetric to a relative 1e-12: `max |a_ij − a_ji| ≤ 1e-12 · max |a_ij|`;
 * it is then symmetrized, `(A + Aᵀ)/2`, before decomposing.
 *
 * @throws {@link DimensionError} if `a.length ≠ n²`; {@link NonFiniteError} on NaN/∞;
 *   {@link DomainError} if A is not symmetric to that tolerance (`value` = the largest
 *   |a_ij − a_ji|).
 *
 * @example
 * ```ts
 * const { values, vectors } = symmetricEigen(Float64Array.of(2, 1, 1, 2), 2);
 * // values = [1, 3]; columns of vectors = ±(1, −1)/√2, ±(1, 1)/√2
 * ```
 */
export function symmetricEigen(a: ArrayLike<number>, n: number): SymmetricEigenResult {
  checkMatrix('symmetricEigen', a, n, n);
  if (n === 0) return { values: new Float64Array(0), vectors: new Float64Array(0) };
  const asym = asymmetry(a, n);
  if (asym > SYMMETRY_RTOL) {
    throw new DomainError(
      'symmetricEigen: matrix (relative asymmetry)',
      asym,
      `must be symmetric to relative ${SYMMETRY_RTOL} (max |a_ij − a_ji| ≤ ${SYMMETRY_RTOL}·max |a_ij|)`,
    );
  }
  const M = new Matrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) M.set(i, j, 0.5 * (a[i * n + j]! + a[j * n + i]!));
  }
  const dec = new EigenvalueDecomposition(M, { assumeSymmetric: true });
  const raw = dec.realEigenvalues;
  const Q = fromMl(dec.eigenvectorMatrix, n, n);
  const order = Array.from({ length: n }, (_, i) => i).sort((p, q) => raw[p]! - raw[q]!);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    const src = order[c]!;
    values[c] = raw[src]!;
    for (let i = 0; i < n; i++) vectors[i * n + c] = Q[i * n + src]!;
  }
  checkFiniteResult('symmetricEigen', values);
  checkFiniteResult('symmetricEigen', vectors);
  return { values, vectors };
}

/**
 * Eigenvalues of a general real n×n matrix, by Hessenberg reduction and shifted QR (`hqr2`).
 * Sorted by real part ascending; a complex-conjugate pair is adjacent, positive imaginary part
 * first. Eigenvalues of a defective or non-normal matrix are only as accurate as their condition
 * allows (an eigenvalue of multiplicity p is typically perturbed by ~ε^(1/p)·‖A‖).
 *
 * @throws {@link DimensionError} if `a.length ≠ n²`; {@link NonFiniteError} on NaN/∞.
 *
 * @example
 * ```ts
 * const { re, im } = eigenvalues(Float64Array.of(0, -1, 1, 0), 2);
 * // re = [0, 0], im = [1, −1]: the rotation by π/2 has eigenvalues ±i
 * ```
 */
export function eigenvalues(a: ArrayLike<number>, n: number): ComplexEigenvalues {
  checkMatrix('eigenvalues', a, n, n);
  if (n === 0) return { re: new Float64Array(0), im: new Float64Array(0) };
  const dec = new EigenvalueDecomposition(toMl(a, n, n));
  const rawRe = dec.realEigenvalues;
  const rawIm = dec.imaginaryEigenvalues;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    // real part ascending; then |im| descending keeps a conjugate pair (whose real parts hqr2
    // makes bitwise equal) together even beside a real eigenvalue of the same real part
    (p, q) =>
      rawRe[p]! - rawRe[q]! || Math.abs(rawIm[q]!) - Math.abs(rawIm[p]!) || rawIm[q]! - rawIm[p]!,
  );
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    re[c] = rawRe[order[c]!]!;
    im[c] = rawIm[order[c]!]!;
  }
  checkFiniteResult('eigenvalues', re);
  checkFiniteResult('eigenvalues', im);
  return { re, im };
}
