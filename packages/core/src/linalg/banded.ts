/**
 * Banded and block-banded linear systems, solved in O(N·kl·(kl+ku)) time by LU with partial
 * pivoting in the style of LAPACK `gbtrf`/`gbtrs`. Made for Newton's method over a whole discrete
 * trajectory, whose Jacobian is block-tridiagonal or block-banded (e.g. 8×8 blocks, thousands of
 * block rows, a last block row of a different size for boundary conditions).
 *
 * Three layers:
 * - allocation-free kernels {@link bandLuFactorInPlace}, {@link bandLuSolveInPlace} and
 *   {@link bandLuSolveTransposeInPlace} on caller-owned band storage;
 * - {@link BandMatrix} (scalar band, lower bandwidth `kl`, upper `ku`) and
 *   {@link BlockBandMatrix} (uniform blocks of size `b` mapped onto the scalar band; the total
 *   size need not be a multiple of `b`, the last block row/column is then smaller);
 * - {@link BandLU}, a reusable factorization that owns its workspace, with `solve`,
 *   `solveTranspose`, determinant (also as sign and log|det|) and a 1-norm condition estimate.
 *
 * Storage layouts (row-major, one row of the band per matrix row):
 * - a {@link BandMatrix} of order N keeps row i in `rowBand[i*(kl+ku+1) + (j - i + kl)]` for
 *   columns `j ∈ [i-kl, i+ku]`;
 * - the factor workspace keeps row i in `ab[i*(2kl+ku+1) + (j - i + kl)]` for columns
 *   `j ∈ [i-kl, i+kl+ku]`: the extra `kl` superdiagonals hold the fill-in that row interchanges
 *   create in U, exactly as in LAPACK's `gbtrf` (there in column-major order).
 *
 * Entries whose column falls outside `[0, N)` are padding and are always zero.
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError, SingularMatrixError } from '../errors.js';

/** Width of one row of the factor workspace: `2·kl + ku + 1`. */
export function bandLuRowWidth(kl: number, ku: number): number {
  return 2 * kl + ku + 1;
}

/**
 * Factors `A = P₀L₀P₁L₁⋯P_{N−2}L_{N−2}U` in place (LAPACK `gbtrf` conventions, partial pivoting
 * by rows), on the row-major band workspace described in the module comment
 * (`ab[i*w + (j - i + kl)]`, `w = 2kl+ku+1`). The caller must store A in columns
 * `[i-kl, i+ku]` of each row and zeros in the `kl` fill-in columns `[i+ku+1, i+kl+ku]`.
 *
 * On return the U entries of row k occupy columns `k..rowEnd[k]`, the multipliers of L_k sit in
 * column k of rows `k+1..k+kl` (`ab[(k+t)*w + kl - t]`), and `piv[k]` is the row swapped with
 * row k at step k. `rowEnd` is a workspace-and-output array tracking the last structurally
 * nonzero column of each row, so block-banded matrices (whose rows end in a staircase, not a
 * diagonal line) cost less than the full band. Allocates nothing.
 *
 * Cost: at most N·kl·(kl+ku) multiply–adds.
 *
 * @returns -1 on success, else the first column k whose pivot is exactly zero (or NaN); the
 *   factorization is then still completed on the remaining columns, as `gbtrf` does.
 *
 * @example
 * ```ts
 * // tridiagonal [[0,1,0],[1,0,1],[0,1,1]]: kl = ku = 1, w = 4
 * const ab = Float64Array.of(0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0);
 * const piv = new Int32Array(3), rowEnd = new Int32Array(3);
 * bandLuFactorInPlace(ab, 3, 1, 1, piv, rowEnd); // -1: nonsingular, piv[0] = 1
 * ```
 */
export function bandLuFactorInPlace(
  ab: Float64Array,
  n: number,
  kl: number,
  ku: number,
  piv: Int32Array,
  rowEnd: Int32Array,
): number {
  const w = 2 * kl + ku + 1;
  const wm1 = w - 1;
  // last structurally nonzero column of each row (anything < i when the row is empty there)
  for (let i = 0; i < n; i++) {
    const r = i * wm1 + kl; // ab[r + j] is entry (i, j)
    let e = Math.min(n - 1, i + ku);
    while (e >= i && ab[r + e] === 0) e--;
    rowEnd[i] = e;
  }
  let singularAt = -1;
  for (let k = 0; k < n; k++) {
    const km = Math.min(kl, n - 1 - k);
    // pivot search down column k: entry (k+t, k) is at ab[(k+t)*w + kl - t]
    const dk = k * w + kl;
    let p = k;
    let maxAbs = Math.abs(ab[dk]!);
    for (let t = 1, o = dk + wm1; t <= km; t++, o += wm1) {
      const v = Math.abs(ab[o]!);
      if (v > maxAbs) {
        maxAbs = v;
        p = k + t;
      }
    }
    piv[k] = p;
    if (!(maxAbs > 0)) {
      // zero (or NaN) column below the diagonal: nothing to eliminate
      if (singularAt < 0) singularAt = k;
      continue;
    }
    const rk = k * wm1 + kl;
    if (p !== k) {
      const rp = p * wm1 + kl;
      const ekOld = rowEnd[k]!;
      const ep = rowEnd[p]!;
      const e = Math.max(ekOld, ep);
      for (let j = k; j <= e; j++) {
        const t = ab[rk + j]!;
        ab[rk + j] = ab[rp + j]!;
        ab[rp + j] = t;
      }
      rowEnd[k] = ep;
      rowEnd[p] = ekOld;
    }
    const ek = rowEnd[k]!;
    const inv = 1 / ab[rk + k]!;
    for (let i = k + 1; i <= k + km; i++) {
      const ri = i * wm1 + kl;
      const aik = ab[ri + k]!;
      if (aik === 0) continue;
      const l = aik * inv;
      ab[ri + k] = l;
      for (let j = k + 1; j <= ek; j++) ab[ri + j] = ab[ri + j]! - l * ab[rk + j]!;
      if (ek > rowEnd[i]!) rowEnd[i] = ek;
    }
  }
  return singularAt;
}

/**
 * Solves `A x = b` in place (`b[bOff..bOff+n)` becomes x) from the output of
 * {@link bandLuFactorInPlace}: `y = L_{N−2}⁻¹P_{N−2}⋯L₀⁻¹P₀ b`, then `U x = y` (LAPACK `gbtrs`).
 * The factorization must be nonsingular. Allocates nothing.
 *
 * @example
 * ```ts
 * // tridiagonal [[0,1,0],[1,0,1],[0,1,1]] as in bandLuFactorInPlace: n = 3, kl = ku = 1
 * const ab = Float64Array.of(0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0);
 * const piv = new Int32Array(3), rowEnd = new Int32Array(3);
 * const b = Float64Array.of(1, 2, 2);
 * bandLuFactorInPlace(ab, 3, 1, 1, piv, rowEnd);
 * bandLuSolveInPlace(ab, 3, 1, 1, piv, rowEnd, b); // b ← A⁻¹b
 * b; // [1, 1, 1]
 * ```
 */
export function bandLuSolveInPlace(
  ab: Float64Array,
  n: number,
  kl: number,
  ku: number,
  piv: Int32Array,
  rowEnd: Int32Array,
  b: Float64Array,
  bOff = 0,
): void {
  const w = 2 * kl + ku + 1;
  const wm1 = w - 1;
  // forward: interleaved row interchanges and unit-lower eliminations
  for (let k = 0; k < n - 1; k++) {
    const p = piv[k]!;
    if (p !== k) {
      const t = b[bOff + k]!;
      b[bOff + k] = b[bOff + p]!;
      b[bOff + p] = t;
    }
    const bk = b[bOff + k]!;
    if (bk === 0) continue;
    const km = Math.min(kl, n - 1 - k);
    for (let t = 1, o = k * w + kl + wm1; t <= km; t++, o += wm1) {
      b[bOff + k + t] = b[bOff + k + t]! - ab[o]! * bk;
    }
  }
  // backward: U x = y
  for (let i = n - 1; i >= 0; i--) {
    const r = i * wm1 + kl;
    const e = rowEnd[i]!;
    let s = b[bOff + i]!;
    for (let j = i + 1; j <= e; j++) s -= ab[r + j]! * b[bOff + j]!;
    b[bOff + i] = s / ab[r + i]!;
  }
}

/**
 * Solves `Aᵀ x = b` in place from the output of {@link bandLuFactorInPlace}: `Uᵀ z = b`, then
 * `x = P₀ᵀL₀⁻ᵀ⋯P_{N−2}ᵀL_{N−2}⁻ᵀ z` (LAPACK `gbtrs` with `trans = 'T'`). Allocates nothing.
 *
 * @example
 * ```ts
 * // A = [[2,1,0],[0,2,1],[0,0,2]] (kl = 0, ku = 1, w = 2): Aᵀx = b for b = Aᵀ·[1, 1, 1]
 * const ab = Float64Array.of(2, 1, 2, 1, 2, 0);
 * const piv = new Int32Array(3), rowEnd = new Int32Array(3);
 * bandLuFactorInPlace(ab, 3, 0, 1, piv, rowEnd);
 * const b = Float64Array.of(2, 3, 3);
 * bandLuSolveTransposeInPlace(ab, 3, 0, 1, piv, rowEnd, b); // b ← A⁻ᵀb
 * b; // [1, 1, 1]
 * ```
 */
export function bandLuSolveTransposeInPlace(
  ab: Float64Array,
  n: number,
  kl: number,
  ku: number,
  piv: Int32Array,
  rowEnd: Int32Array,
  b: Float64Array,
  bOff = 0,
): void {
  const w = 2 * kl + ku + 1;
  const wm1 = w - 1;
  // Uᵀ z = b, column-oriented so that row i of U is read contiguously
  for (let i = 0; i < n; i++) {
    const r = i * wm1 + kl;
    const zi = b[bOff + i]! / ab[r + i]!;
    b[bOff + i] = zi;
    if (zi === 0) continue;
    const e = rowEnd[i]!;
    for (let j = i + 1; j <= e; j++) b[bOff + j] = b[bOff + j]! - ab[r + j]! * zi;
  }
  // Lᵀ and interchanges in reverse order
  for (let k = n - 2; k >= 0; k--) {
    const km = Math.min(kl, n - 1 - k);
    let s = b[bOff + k]!;
    for (let t = 1, o = k * w + kl + wm1; t <= km; t++, o += wm1) s -= ab[o]! * b[bOff + k + t]!;
    b[bOff + k] = s;
    const p = piv[k]!;
    if (p !== k) {
      b[bOff + k] = b[bOff + p]!;
      b[bOff + p] = s;
    }
  }
}

function checkIndex(what: string, i: number, n: number, part = ''): void {
  // `part` is appended to `what` only when the check fails, so a hot caller (BandMatrix.set/add)
  // builds no string per call.
  if (!Number.isInteger(i) || i < 0 || i >= n)
    throw new DimensionError(part === '' ? what : `${what}: ${part}`, `integer in [0, ${n})`, i);
}

/**
 * A square band matrix of order `n` with lower bandwidth `kl` and upper bandwidth `ku`
 * (`a_ij = 0` unless `-kl ≤ j − i ≤ ku`), stored row by row: entry (i, j) at
 * `rowBand[i*(kl+ku+1) + (j − i + kl)]`. Reading outside the band gives 0; writing a nonzero
 * there throws.
 *
 * @example
 * ```ts
 * const a = new BandMatrix(4, 1, 1); // tridiagonal
 * for (let i = 0; i < 4; i++) {
 *   a.set(i, i, 2);
 *   if (i > 0) a.set(i, i - 1, -1);
 *   if (i < 3) a.set(i, i + 1, -1);
 * }
 * const x = new BandLU().factor(a).solve(Float64Array.of(1, 0, 0, 1)); // [1, 1, 1, 1]
 * ```
 */
export class BandMatrix {
  /** Order N. */
  readonly n: number;
  /** Lower bandwidth. */
  readonly kl: number;
  /** Upper bandwidth. */
  readonly ku: number;
  /** Numbers per stored row, `kl + ku + 1`. */
  readonly rowWidth: number;
  /** Row-major band storage, `n * rowWidth` numbers (see the class comment). */
  readonly rowBand: Float64Array;

  constructor(n: number, kl: number, ku: number) {
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('BandMatrix: order', '>= 1', n);
    if (!Number.isInteger(kl) || kl < 0) throw new DimensionError('BandMatrix: kl', '>= 0', kl);
    if (!Number.isInteger(ku) || ku < 0) throw new DimensionError('BandMatrix: ku', '>= 0', ku);
    this.n = n;
    this.kl = kl;
    this.ku = ku;
    this.rowWidth = kl + ku + 1;
    this.rowBand = new Float64Array(n * this.rowWidth);
  }

  /**
   * Band matrix from a dense row-major n×n array. Entries outside the band must be zero.
   * @throws DomainError naming the first nonzero entry outside the band.
   */
  static fromDense(a: ArrayLike<number>, n: number, kl: number, ku: number): BandMatrix {
    if (a.length < n * n)
      throw new DimensionError('BandMatrix.fromDense: entries', n * n, a.length);
    const m = new BandMatrix(n, kl, ku);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const v = a[i * n + j]!;
        if (j - i >= -kl && j - i <= ku) m.rowBand[i * m.rowWidth + j - i + kl] = v;
        else if (v !== 0) {
          throw new DomainError(
            `BandMatrix.fromDense: entry (${i}, ${j})`,
            v,
            `zero outside the band kl=${kl}, ku=${ku}`,
          );
        }
      }
    }
    return m;
  }

  /** True when (i, j) lies inside the band and the matrix. */
  inBand(i: number, j: number): boolean {
    const d = j - i;
    return i >= 0 && i < this.n && j >= 0 && j < this.n && d >= -this.kl && d <= this.ku;
  }

  /** Entry (i, j); 0 outside the band. */
  get(i: number, j: number): number {
    checkIndex('BandMatrix.get: row', i, this.n);
    checkIndex('BandMatrix.get: column', j, this.n);
    const d = j - i;
    if (d < -this.kl || d > this.ku) return 0;
    return this.rowBand[i * this.rowWidth + d + this.kl]!;
  }

  /**
   * Sets entry (i, j) to v.
   * @throws DomainError when v ≠ 0 and (i, j) is outside the band.
   */
  set(i: number, j: number, v: number): this {
    const o = this.offset('BandMatrix.set', i, j, v);
    if (o >= 0) this.rowBand[o] = v;
    return this;
  }

  /** Adds v to entry (i, j). Throws like {@link set}. */
  add(i: number, j: number, v: number): this {
    const o = this.offset('BandMatrix.add', i, j, v);
    if (o >= 0) this.rowBand[o] = this.rowBand[o]! + v;
    return this;
  }

  /**
   * Writes the m×c row-major array `a` (read from `off`) into rows `i0..i0+m`, columns
   * `j0..j0+c`. Zeros outside the band are skipped, nonzeros there throw a DomainError.
   */
  setSubmatrix(i0: number, j0: number, m: number, c: number, a: ArrayLike<number>, off = 0): this {
    this.checkSubmatrix('BandMatrix.setSubmatrix', i0, j0, m, c, a, off);
    for (let r = 0; r < m; r++) {
      const i = i0 + r;
      for (let s = 0; s < c; s++) {
        const j = j0 + s;
        const v = a[off + r * c + s]!;
        const d = j - i;
        if (d >= -this.kl && d <= this.ku) this.rowBand[i * this.rowWidth + d + this.kl] = v;
        else if (v !== 0) this.outOfBand('BandMatrix.setSubmatrix', i, j, v);
      }
    }
    return this;
  }

  /** Adds `scale·a` (m×c row-major, from `off`) into rows `i0..i0+m`, columns `j0..j0+c`. */
  addSubmatrix(
    i0: number,
    j0: number,
    m: number,
    c: number,
    a: ArrayLike<number>,
    off = 0,
    scale = 1,
  ): this {
    this.checkSubmatrix('BandMatrix.addSubmatrix', i0, j0, m, c, a, off);
    for (let r = 0; r < m; r++) {
      const i = i0 + r;
      for (let s = 0; s < c; s++) {
        const j = j0 + s;
        const v = scale * a[off + r * c + s]!;
        const d = j - i;
        if (d >= -this.kl && d <= this.ku) {
          const o = i * this.rowWidth + d + this.kl;
          this.rowBand[o] = this.rowBand[o]! + v;
        } else if (v !== 0) this.outOfBand('BandMatrix.addSubmatrix', i, j, v);
      }
    }
    return this;
  }

  /** Copies rows `i0..i0+m`, columns `j0..j0+c` into `out` (m×c row-major) and returns it. */
  getSubmatrix(out: Float64Array, i0: number, j0: number, m: number, c: number): Float64Array {
    this.checkSubmatrix('BandMatrix.getSubmatrix', i0, j0, m, c, out, 0);
    for (let r = 0; r < m; r++) {
      const i = i0 + r;
      for (let s = 0; s < c; s++) {
        const d = j0 + s - i;
        out[r * c + s] =
          d >= -this.kl && d <= this.ku ? this.rowBand[i * this.rowWidth + d + this.kl]! : 0;
      }
    }
    return out;
  }

  /** Sets every entry to zero (keeps the shape and storage). */
  clear(): this {
    this.rowBand.fill(0);
    return this;
  }

  /** Copies the entries of `other`, which must have the same n, kl and ku. */
  copyFrom(other: BandMatrix): this {
    if (other.n !== this.n || other.kl !== this.kl || other.ku !== this.ku) {
      throw new DimensionError(
        'BandMatrix.copyFrom: shape',
        `${this.n}/${this.kl}/${this.ku}`,
        `${other.n}/${other.kl}/${other.ku}`,
      );
    }
    this.rowBand.set(other.rowBand);
    return this;
  }

  /** Dense row-major n×n copy (into `out` when given). For tests and small problems. */
  toDense(out: Float64Array = new Float64Array(this.n * this.n)): Float64Array {
    const n = this.n;
    if (out.length < n * n) throw new DimensionError('BandMatrix.toDense: out', n * n, out.length);
    out.fill(0, 0, n * n);
    for (let i = 0; i < n; i++) {
      const j0 = Math.max(0, i - this.kl);
      const j1 = Math.min(n - 1, i + this.ku);
      const r = i * this.rowWidth - i + this.kl;
      for (let j = j0; j <= j1; j++) out[i * n + j] = this.rowBand[r + j]!;
    }
    return out;
  }

  /**
   * `out = A·x` in O(N·(kl+ku+1)). `out` must not alias `x`. Allocates nothing.
   * @example
   * ```ts
   * const a = BandMatrix.fromDense([2, 1, 0, 1, 2, 1, 0, 1, 2], 3, 1, 1);
   * const r = new Float64Array(3);
   * a.matVec(r, Float64Array.of(1, 1, 1)); // [3, 4, 3]: r = A x, e.g. for a Newton residual check
   * ```
   */
  matVec(out: Float64Array, x: ArrayLike<number>): Float64Array {
    const n = this.n;
    if (x.length < n) throw new DimensionError('BandMatrix.matVec: x', n, x.length);
    if (out.length < n) throw new DimensionError('BandMatrix.matVec: out', n, out.length);
    for (let i = 0; i < n; i++) {
      const j0 = Math.max(0, i - this.kl);
      const j1 = Math.min(n - 1, i + this.ku);
      const r = i * this.rowWidth - i + this.kl;
      let s = 0;
      for (let j = j0; j <= j1; j++) s += this.rowBand[r + j]! * x[j]!;
      out[i] = s;
    }
    return out;
  }

  /** ‖A‖∞ = maxᵢ Σⱼ |a_ij|. */
  normInf(): number {
    let best = 0;
    for (let i = 0; i < this.n; i++) {
      const j0 = Math.max(0, i - this.kl);
      const j1 = Math.min(this.n - 1, i + this.ku);
      const r = i * this.rowWidth - i + this.kl;
      let s = 0;
      for (let j = j0; j <= j1; j++) s += Math.abs(this.rowBand[r + j]!);
      if (s > best) best = s;
    }
    return best;
  }

  /** ‖A‖₁ = maxⱼ Σᵢ |a_ij|. `work` (length ≥ n) avoids the one allocation. */
  norm1(work: Float64Array = new Float64Array(this.n)): number {
    if (work.length < this.n)
      throw new DimensionError('BandMatrix.norm1: work', this.n, work.length);
    work.fill(0, 0, this.n);
    for (let i = 0; i < this.n; i++) {
      const j0 = Math.max(0, i - this.kl);
      const j1 = Math.min(this.n - 1, i + this.ku);
      const r = i * this.rowWidth - i + this.kl;
      for (let j = j0; j <= j1; j++) work[j] = work[j]! + Math.abs(this.rowBand[r + j]!);
    }
    let best = 0;
    for (let j = 0; j < this.n; j++) if (work[j]! > best) best = work[j]!;
    return best;
  }

  private offset(what: string, i: number, j: number, v: number): number {
    checkIndex(what, i, this.n, 'row');
    checkIndex(what, j, this.n, 'column');
    const d = j - i;
    if (d >= -this.kl && d <= this.ku) return i * this.rowWidth + d + this.kl;
    if (v !== 0) this.outOfBand(what, i, j, v);
    return -1;
  }

  private outOfBand(what: string, i: number, j: number, v: number): never {
    throw new DomainError(
      `${what}: entry (${i}, ${j})`,
      v,
      `zero outside the band kl=${this.kl}, ku=${this.ku}`,
    );
  }

  private checkSubmatrix(
    what: string,
    i0: number,
    j0: number,
    m: number,
    c: number,
    a: ArrayLike<number>,
    off: number,
  ): void {
    checkIndex(what, i0, this.n, 'first row');
    checkIndex(what, j0, this.n, 'first column');
    if (!Number.isInteger(m) || m < 0 || i0 + m > this.n)
      throw new DimensionError(`${what}: rows`, `<= ${this.n - i0}`, m);
    if (!Number.isInteger(c) || c < 0 || j0 + c > this.n) {
      throw new DimensionError(`${what}: columns`, `<= ${this.n - j0}`, c);
    }
    if (a.length - off < m * c) throw new DimensionError(`${what}: entries`, m * c, a.length - off);
  }
}

function blockBandShape(
  b: number,
  count: number,
  bl: number,
  bu: number,
  size: number,
): [number, number, number] {
  if (!Number.isInteger(b) || b < 1)
    throw new DimensionError('BlockBandMatrix: block size', '>= 1', b);
  if (!Number.isInteger(count) || count < 1)
    throw new DimensionError('BlockBandMatrix: block count', '>= 1', count);
  if (!Number.isInteger(bl) || bl < 0)
    throw new DimensionError('BlockBandMatrix: block lower bandwidth', '>= 0', bl);
  if (!Number.isInteger(bu) || bu < 0)
    throw new DimensionError('BlockBandMatrix: block upper bandwidth', '>= 0', bu);
  if (!Number.isInteger(size) || size <= (count - 1) * b || size > count * b) {
    throw new DimensionError(
      'BlockBandMatrix: size',
      `integer in (${(count - 1) * b}, ${count * b}]`,
      size,
    );
  }
  return [size, Math.min(size - 1, (bl + 1) * b - 1), Math.min(size - 1, (bu + 1) * b - 1)];
}

/**
 * A block-banded matrix with square blocks of size `b`: block (I, J) occupies rows
 * `I·b .. min(N, (I+1)·b)` and the same range of columns, and is nonzero only for
 * `−blockLower ≤ J − I ≤ blockUpper` (block-tridiagonal: 1, 1). The total size N may be smaller
 * than `blockCount·b` (down to `(blockCount−1)·b + 1`); the last block row and column are then
 * `N − (blockCount−1)·b` wide, e.g. 8n−2 unknowns with 8×8 blocks.
 *
 * It is a {@link BandMatrix} with `kl = (blockLower+1)·b − 1` and `ku = (blockUpper+1)·b − 1`
 * (capped at N−1), so {@link BandLU} factors it directly; row interchanges never leave the band.
 *
 * @example
 * ```ts
 * // block tridiagonal tridiag(−I, 4I, −I) with 8×8 blocks, 1000 block rows: 8000 × 8000
 * const I8 = (s: number) => Array.from({ length: 64 }, (_, i) => (i % 9 === 0 ? s : 0));
 * const D = Array.from({ length: 1000 }, () => I8(4));
 * const L = Array.from({ length: 1000 }, () => I8(-1));
 * const U = L;
 * const J = BlockBandMatrix.blockTridiagonal(8, 1000);
 * for (let k = 0; k < 1000; k++) {
 *   J.setBlock(k, k, D[k]!);
 *   if (k > 0) J.setBlock(k, k - 1, L[k]!);
 *   if (k < 999) J.setBlock(k, k + 1, U[k]!);
 * }
 * const lu = new BandLU(); // reused each Newton step
 * const residual = new Float64Array(8000).fill(2); // J·1: row sums 2, and 3 in the first and last block rows
 * residual.fill(3, 0, 8).fill(3, 7992);
 * const dx = lu.factor(J).solve(residual, new Float64Array(8000));
 * [dx[0], dx[4000], dx[7999]]; // [1, 1, 1]
 * ```
 */
export class BlockBandMatrix extends BandMatrix {
  /** Block size b. */
  readonly blockSize: number;
  /** Number of block rows (= block columns). */
  readonly blockCount: number;
  /** Block lower bandwidth. */
  readonly blockLower: number;
  /** Block upper bandwidth. */
  readonly blockUpper: number;

  constructor(
    blockSize: number,
    blockCount: number,
    blockLower: number,
    blockUpper: number,
    size = blockSize * blockCount,
  ) {
    const [n, kl, ku] = blockBandShape(blockSize, blockCount, blockLower, blockUpper, size);
    super(n, kl, ku);
    this.blockSize = blockSize;
    this.blockCount = blockCount;
    this.blockLower = blockLower;
    this.blockUpper = blockUpper;
  }

  /** A block-tridiagonal matrix (block bandwidths 1, 1) of `blockCount` blocks of size `b`. */
  static blockTridiagonal(
    blockSize: number,
    blockCount: number,
    size = blockSize * blockCount,
  ): BlockBandMatrix {
    return new BlockBandMatrix(blockSize, blockCount, 1, 1, size);
  }

  /** Size of block row (or column) I: b, except possibly for the last. */
  blockDim(I: number): number {
    checkIndex('BlockBandMatrix.blockDim', I, this.blockCount);
    return Math.min(this.blockSize, this.n - I * this.blockSize);
  }

  /** True when block (I, J) lies inside the block band. */
  inBlockBand(I: number, J: number): boolean {
    const d = J - I;
    return (
      I >= 0 &&
      I < this.blockCount &&
      J >= 0 &&
      J < this.blockCount &&
      d >= -this.blockLower &&
      d <= this.blockUpper
    );
  }

  /**
   * Writes block (I, J) from `block`, row-major `blockDim(I) × blockDim(J)`, read from `off`.
   * @throws DimensionError when (I, J) is outside the block band or `block` is too short.
   */
  setBlock(I: number, J: number, block: ArrayLike<number>, off = 0): this {
    this.checkBlock('BlockBandMatrix.setBlock', I, J);
    const b = this.blockSize;
    return this.setSubmatrix(I * b, J * b, this.blockDim(I), this.blockDim(J), block, off);
  }

  /** Adds `scale·block` into block (I, J); shapes as in {@link setBlock}. */
  addBlock(I: number, J: number, block: ArrayLike<number>, off = 0, scale = 1): this {
    this.checkBlock('BlockBandMatrix.addBlock', I, J);
    const b = this.blockSize;
    return this.addSubmatrix(I * b, J * b, this.blockDim(I), this.blockDim(J), block, off, scale);
  }

  /** Copies block (I, J) into `out` (row-major `blockDim(I) × blockDim(J)`) and returns it. */
  getBlock(out: Float64Array, I: number, J: number): Float64Array {
    checkIndex('BlockBandMatrix.getBlock: block row', I, this.blockCount);
    checkIndex('BlockBandMatrix.getBlock: block column', J, this.blockCount);
    const b = this.blockSize;
    return this.getSubmatrix(out, I * b, J * b, this.blockDim(I), this.blockDim(J));
  }

  private checkBlock(what: string, I: number, J: number): void {
    checkIndex(what, I, this.blockCount, 'block row');
    checkIndex(what, J, this.blockCount, 'block column');
    const d = J - I;
    if (d < -this.blockLower || d > this.blockUpper) {
      throw new DimensionError(
        `${what}: block (${I}, ${J}) offset J−I`,
        `in [${-this.blockLower}, ${this.blockUpper}]`,
        d,
      );
    }
  }
}

/** Sign and natural logarithm of |det A|; `sign` is 0 (and `logAbs` −∞) for a singular matrix. */
export interface LogDeterminant {
  readonly sign: -1 | 0 | 1;
  readonly logAbs: number;
}

/**
 * A reusable LU factorization with partial pivoting of a {@link BandMatrix} (or
 * {@link BlockBandMatrix}), `A = P₀L₀⋯P_{N−2}L_{N−2}U` as in LAPACK `gbtrf`. It owns its
 * workspace (`N·(2kl+ku+1)` numbers): refactoring a matrix of the same or a smaller shape
 * allocates nothing, so one instance serves every iteration of a trajectory Newton solver.
 *
 * Cost: factor ≤ N·kl·(kl+ku) multiply–adds, solve ≤ N·(3kl+ku); for block-tridiagonal 8×8
 * blocks that is linear in the number of block rows.
 *
 * @example
 * ```ts
 * const J = BandMatrix.fromDense([2, 1, 0, 1, 2, 1, 0, 1, 2], 3, 1, 1);
 * const residual = Float64Array.of(3, 4, 3);
 * const lu = new BandLU();
 * const x = new Float64Array(J.n);
 * lu.factor(J);              // does not throw on singular input: see isSingular
 * lu.solve(residual, x);     // throws SingularMatrixError if singular
 * x; // [1, 1, 1]
 * const { sign, logAbs } = lu.logDeterminant(); // det = 4: sign 1, logAbs = ln 4
 * ```
 */
export class BandLU {
  private nn = 0;
  private kl_ = 0;
  private ku_ = 0;
  private w = 1;
  private ab: Float64Array;
  private piv_: Int32Array;
  private rowEnd: Int32Array;
  private work: Float64Array;
  private work2: Float64Array;
  private anorm1 = 0;
  private singularColumn_ = -1;
  private factored = false;
  /** Result of the last {@link estimateCondition}. */
  private kappa = Number.NaN;

  /** Optionally preallocates for order n and bandwidths kl, ku. */
  constructor(n = 0, kl = 0, ku = 0) {
    this.ab = new Float64Array(n * bandLuRowWidth(kl, ku));
    this.piv_ = new Int32Array(n);
    this.rowEnd = new Int32Array(n);
    this.work = new Float64Array(n);
    this.work2 = new Float64Array(n);
  }

  /** Order N of the last factored matrix. */
  get n(): number {
    return this.nn;
  }

  /** Lower bandwidth of the last factored matrix. */
  get kl(): number {
    return this.kl_;
  }

  /** Upper bandwidth of the last factored matrix. */
  get ku(): number {
    return this.ku_;
  }

  /** The packed factors (`ab[i*(2kl+ku+1) + (j−i+kl)]`, see {@link bandLuFactorInPlace}); the buffer may be longer. */
  get factors(): Float64Array {
    return this.ab;
  }

  /** Pivot rows: `piv[k]` was swapped with row k at step k. */
  get piv(): Int32Array {
    return this.piv_;
  }

  /** First column with an exactly zero pivot, or −1. */
  get singularColumn(): number {
    return this.singularColumn_;
  }

  /** True when a zero pivot was met (exact singularity in floating point). */
  get isSingular(): boolean {
    return this.singularColumn_ >= 0;
  }

  /**
   * Factors `m`. Does not throw on singular input: see {@link isSingular}.
   * @throws NonFiniteError when an entry of `m` is NaN or infinite.
   */
  factor(m: BandMatrix): this {
    const { n, kl, ku } = m;
    const w = bandLuRowWidth(kl, ku);
    if (this.ab.length < n * w) this.ab = new Float64Array(n * w);
    if (this.piv_.length < n) {
      this.piv_ = new Int32Array(n);
      this.rowEnd = new Int32Array(n);
      this.work = new Float64Array(n);
      this.work2 = new Float64Array(n);
    }
    this.nn = n;
    this.kl_ = kl;
    this.ku_ = ku;
    this.w = w;
    this.factored = false;
    const src = m.rowBand;
    const sw = m.rowWidth;
    const ab = this.ab;
    const colSum = this.work;
    colSum.fill(0, 0, n);
    for (let i = 0; i < n; i++) {
      const s0 = i * sw;
      const d0 = i * w;
      for (let t = 0; t < sw; t++) {
        const v = src[s0 + t]!;
        if (!Number.isFinite(v))
          throw new NonFiniteError(`BandLU.factor: entry (${i}, ${i + t - kl})`, s0 + t);
        ab[d0 + t] = v;
        if (v !== 0) {
          const j = i + t - kl;
          colSum[j] = colSum[j]! + Math.abs(v);
        }
      }
      for (let t = sw; t < w; t++) ab[d0 + t] = 0;
    }
    let a1 = 0;
    for (let j = 0; j < n; j++) if (colSum[j]! > a1) a1 = colSum[j]!;
    this.anorm1 = a1;
    this.singularColumn_ = bandLuFactorInPlace(ab, n, kl, ku, this.piv_, this.rowEnd);
    this.factored = true;
    return this;
  }

  /**
   * Solves `A x = b`. Writes into `out` (allocated when omitted; may alias `b`) and returns it.
   * @throws SingularMatrixError when the factorization met a zero pivot.
   * @throws NonFiniteError when `b` or the solution is not finite (overflow).
   */
  solve(b: ArrayLike<number>, out: Float64Array = new Float64Array(this.nn)): Float64Array {
    this.prepare('BandLU.solve', b, out);
    bandLuSolveInPlace(this.ab, this.nn, this.kl_, this.ku_, this.piv_, this.rowEnd, out);
    return this.checkSolution('BandLU.solve', out);
  }

  /** Solves `Aᵀ x = b`, like {@link solve}. */
  solveTranspose(
    b: ArrayLike<number>,
    out: Float64Array = new Float64Array(this.nn),
  ): Float64Array {
    this.prepare('BandLU.solveTranspose', b, out);
    bandLuSolveTransposeInPlace(this.ab, this.nn, this.kl_, this.ku_, this.piv_, this.rowEnd, out);
    return this.checkSolution('BandLU.solveTranspose', out);
  }

  /** det A = sign(P)·Π U_kk. Over- or underflows for large N: prefer {@link logDeterminant}. */
  determinant(): number {
    this.checkFactored();
    if (this.isSingular) return 0; // and not ∞·0 = NaN when other pivots overflow the product
    let det = 1;
    const r = this.kl_;
    for (let k = 0; k < this.nn; k++) {
      det *= this.ab[k * this.w + r]!;
      if (this.piv_[k] !== k) det = -det;
    }
    return det;
  }

  /**
   * `det A = sign · exp(logAbs)` with `logAbs = Σ log|U_kk|` and `sign = sign(P)·Π sign(U_kk)`,
   * which does not overflow. `{ sign: 0, logAbs: −∞ }` when singular.
   */
  logDeterminant(): LogDeterminant {
    this.checkFactored();
    if (this.isSingular) return { sign: 0, logAbs: Number.NEGATIVE_INFINITY };
    let negative = false;
    let logAbs = 0;
    const r = this.kl_;
    for (let k = 0; k < this.nn; k++) {
      const u = this.ab[k * this.w + r]!;
      if (u < 0) negative = !negative;
      if (this.piv_[k] !== k) negative = !negative;
      logAbs += Math.log(Math.abs(u));
    }
    return { sign: negative ? -1 : 1, logAbs };
  }

  /**
   * Estimate of κ₁(A) = ‖A‖₁‖A⁻¹‖₁ by Hager's method as refined by Higham (LAPACK `xLACON`,
   * as in `gbcon`): a lower bound almost always within a factor 3 of the truth, costing a few
   * band solves (O(N)). `Infinity` for a singular matrix. Allocates nothing: the estimate is
   * computed into a field by a void method and this small wrapper, which the optimizing compiler
   * inlines into its callers, reads it (a double returned from a call that is not inlined is
   * boxed on every call), as in core's `DenseLU`.
   */
  conditionEstimate(): number {
    this.estimateCondition();
    return this.kappa;
  }

  /** {@link conditionEstimate} into {@link kappa}. */
  private estimateCondition(): void {
    this.checkFactored();
    if (this.isSingular) {
      this.kappa = Number.POSITIVE_INFINITY;
      return;
    }
    const n = this.nn;
    if (n === 1) {
      this.kappa = 1;
      return;
    }
    const x = this.work;
    const xi = this.work2;
    const { ab, kl_: kl, ku_: ku, piv_: piv, rowEnd } = this;
    // a loop, not x.fill(1 / n, 0, n): a double passed to a builtin is boxed (heap-allocated)
    const inv = 1 / n;
    for (let i = 0; i < n; i++) x[i] = inv;
    bandLuSolveInPlace(ab, n, kl, ku, piv, rowEnd, x);
    let est = 0;
    for (let i = 0; i < n; i++) est += Math.abs(x[i]!);
    for (let iter = 0; iter < 5; iter++) {
      for (let i = 0; i < n; i++) xi[i] = x[i]! >= 0 ? 1 : -1;
      bandLuSolveTransposeInPlace(ab, n, kl, ku, piv, rowEnd, xi);
      let jmax = 0;
      let zmax = Math.abs(xi[0]!);
      for (let i = 1; i < n; i++) {
        const v = Math.abs(xi[i]!);
        if (v > zmax) {
          zmax = v;
          jmax = i;
        }
      }
      x.fill(0, 0, n);
      x[jmax] = 1;
      bandLuSolveInPlace(ab, n, kl, ku, piv, rowEnd, x);
      let newEst = 0;
      for (let i = 0; i < n; i++) newEst += Math.abs(x[i]!);
      if (newEst <= est) break;
      est = newEst;
    }
    // Higham's alternative vector guards against the rare underestimates of Hager's iteration.
    for (let i = 0; i < n; i++) x[i] = (i % 2 === 0 ? 1 : -1) * (1 + i / (n - 1));
    bandLuSolveInPlace(ab, n, kl, ku, piv, rowEnd, x);
    let alt = 0;
    for (let i = 0; i < n; i++) alt += Math.abs(x[i]!);
    alt = (2 * alt) / (3 * n);
    if (alt > est) est = alt;
    const kappa = est * this.anorm1;
    this.kappa = Number.isFinite(kappa) ? kappa : Number.POSITIVE_INFINITY;
  }

  private checkFactored(): void {
    if (!this.factored)
      throw new DimensionError('BandLU: factor() before use', 'factored', 'empty');
  }

  private prepare(what: string, b: ArrayLike<number>, out: Float64Array): void {
    this.checkFactored();
    const n = this.nn;
    if (b.length < n) throw new DimensionError(`${what}: right-hand side`, n, b.length);
    if (out.length < n) throw new DimensionError(`${what}: out`, n, out.length);
    if (this.isSingular) {
      throw new SingularMatrixError(what, this.singularColumn_);
    }
    for (let i = 0; i < n; i++) {
      const v = b[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError(`${what}: right-hand side`, i);
      out[i] = v;
    }
  }

  private checkSolution(what: string, out: Float64Array): Float64Array {
    for (let i = 0; i < this.nn; i++) {
      if (!Number.isFinite(out[i]!)) throw new NonFiniteError(`${what}: solution`, i);
    }
    return out;
  }
}

/**
 * Solves the block-tridiagonal system
 * `L_{I−1} x_{I−1} + D_I x_I + U_I x_{I+1} = r_I`, I = 0..n−1, with b×b blocks packed
 * row-major and back to back: `diag` holds n blocks (D_I at `I·b²`), `lower` n−1 blocks
 * (L_I = A(I+1, I) at `I·b²`), `upper` n−1 blocks (U_I = A(I, I+1) at `I·b²`). One-shot
 * convenience (allocates a {@link BlockBandMatrix} and a {@link BandLU}); for repeated solves
 * keep those two objects.
 *
 * @throws SingularMatrixError when the matrix is singular to working precision.
 *
 * @example
 * ```ts
 * // two 1×1 blocks: [[2, 1], [1, 3]] x = [3, 4]  →  x = [1, 1]
 * solveBlockTridiagonal(1, Float64Array.of(1), Float64Array.of(2, 3), Float64Array.of(1), Float64Array.of(3, 4));
 * ```
 */
export function solveBlockTridiagonal(
  blockSize: number,
  lower: ArrayLike<number>,
  diag: ArrayLike<number>,
  upper: ArrayLike<number>,
  rhs: ArrayLike<number>,
  out?: Float64Array,
): Float64Array {
  const b = blockSize;
  const bb = b * b;
  if (!Number.isInteger(b) || b < 1)
    throw new DimensionError('solveBlockTridiagonal: block size', '>= 1', b);
  if (diag.length === 0 || diag.length % bb !== 0) {
    throw new DimensionError(
      'solveBlockTridiagonal: diag length',
      `positive multiple of ${bb}`,
      diag.length,
    );
  }
  const count = diag.length / bb;
  if (lower.length !== (count - 1) * bb)
    throw new DimensionError('solveBlockTridiagonal: lower length', (count - 1) * bb, lower.length);
  if (upper.length !== (count - 1) * bb)
    throw new DimensionError('solveBlockTridiagonal: upper length', (count - 1) * bb, upper.length);
  const m = BlockBandMatrix.blockTridiagonal(b, count);
  for (let I = 0; I < count; I++) {
    m.setBlock(I, I, diag, I * bb);
    if (I > 0) m.setBlock(I, I - 1, lower, (I - 1) * bb);
    if (I < count - 1) m.setBlock(I, I + 1, upper, I * bb);
  }
  return new BandLU(m.n, m.kl, m.ku).factor(m).solve(rhs, out ?? new Float64Array(m.n));
}
