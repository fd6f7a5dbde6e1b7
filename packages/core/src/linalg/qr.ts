/**
 * Householder QR with column pivoting, and the complete orthogonal decomposition built on it, for
 * flat row-major `Float64Array` matrices of any shape (m ≥ n and m < n alike).
 *
 * - {@link DenseQR} factors `A·P = Q·R` (LAPACK xGEQP3 with the norm downdating of xLAQP2), owns
 *   its workspace (factoring again at the same or a smaller size allocates nothing), reports the
 *   numerical rank, and solves least-squares problems with the **minimum-norm** solution: after the
 *   pivoted QR the leading r×n block `[R11 R12]` is reduced by orthogonal transformations from the
 *   right to `[T 0]` (LAPACK xTZRZF), as LAPACK xGELSY does.
 * - {@link leastSquares} and {@link minNormSolve} are one-shot conveniences.
 *
 * An m×n matrix is `m*n` numbers, entry (i, j) at `i*n + j`.
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError, SingularMatrixError } from '../errors.js';

/** Unit roundoff ×2 (machine epsilon, 2⁻⁵²): the default rank tolerance is `max(m,n)·EPS·|R₀₀|`. */
const EPS = Number.EPSILON;

/**
 * Threshold of the column-norm downdating (LAPACK xLAQP2 `tol3z = √eps`): when the downdated norm
 * has lost more than half its digits, it is recomputed from the remaining column.
 */
const NORM_DOWNDATE_RECOMPUTE = Math.sqrt(EPS);

/** Euclidean norm of `count` entries of `a` from `start` with `stride`, scaled against overflow. */
function stridedNorm(a: Float64Array, start: number, count: number, stride: number): number {
  let scale = 0;
  for (let i = 0, p = start; i < count; i++, p += stride) {
    const v = Math.abs(a[p]!);
    if (v > scale) scale = v;
  }
  if (scale === 0) return 0;
  let s = 0;
  for (let i = 0, p = start; i < count; i++, p += stride) {
    const v = a[p]! / scale;
    s += v * v;
  }
  return scale * Math.sqrt(s);
}

/**
 * Generates an elementary reflector `H = I − τ·v·vᵀ`, `v = [1; x/(α − β)]`, with
 * `H·[α; x] = [β; 0]` and `β = −sign(α)·‖[α; x]‖` (LAPACK xLARFG). `α` is `a[alpha]`, `x` the
 * `count` entries from `xStart` with `stride`. Overwrites α by β and x by the tail of v; returns τ
 * (0 when x = 0, i.e. H = I). Allocates nothing.
 */
function makeReflector(
  a: Float64Array,
  alpha: number,
  xStart: number,
  count: number,
  stride: number,
): number {
  const xnorm = stridedNorm(a, xStart, count, stride);
  if (xnorm === 0) return 0;
  const al = a[alpha]!;
  const big = Math.max(Math.abs(al), xnorm);
  const ra = al / big;
  const rx = xnorm / big;
  const norm = big * Math.sqrt(ra * ra + rx * rx);
  const beta = al >= 0 ? -norm : norm;
  const tau = (beta - al) / beta;
  const denom = al - beta; // |α − β| ≥ ‖x‖ > 0, same sign as α
  for (let i = 0, p = xStart; i < count; i++, p += stride) a[p] = a[p]! / denom;
  a[alpha] = beta;
  return tau;
}

/**
 * A reusable column-pivoted Householder QR factorization `A·P = Q·R` of an m×n matrix, with the
 * complete orthogonal decomposition `A·P = Q·[T 0; 0 0]·Zᵀ` used for minimum-norm least squares.
 *
 * - `Q` (m×m) is orthogonal, stored as min(m,n) Householder reflectors `H_k = I − τ_k v_k v_kᵀ`,
 *   `Q = H_0·H_1···H_{k−1}`;
 * - `R` (m×n) is upper trapezoidal with `|R₀₀| ≥ |R₁₁| ≥ …` (column pivoting: at step k the
 *   remaining column of largest norm is moved to position k);
 * - `P` is the permutation with `(A·P)[:, k] = A[:, pivots[k]]`.
 *
 * `solveLeastSquares` returns `x = A⁺b` restricted to the numerical rank r: the vector of least
 * norm among the minimizers of `‖b − A·x‖₂` when A is replaced by its rank-r truncation. With
 * `c = Qᵀb`, `[R11 R12]·Z = [T 0]` (T r×r upper triangular, Z orthogonal n×n):
 * `x = P·Z·[T⁻¹·c[0:r]; 0]` and the residual norm is `‖c[r:m]‖₂`.
 *
 * The instance owns its storage. Factoring a matrix no larger (in m·n, m and n) than the largest
 * seen before allocates nothing; the capacity can be reserved in the constructor.
 *
 * @example
 * ```ts
 * // overdetermined: fit y = c0 + c1·t through (0, 1), (1, 3), (2, 5.5)
 * const qr = new DenseQR(3, 2).factor(Float64Array.of(1, 0, 1, 1, 1, 2), 3, 2);
 * const c = qr.solveLeastSquares(Float64Array.of(1, 3, 5.5)); // [0.9166…, 2.25]
 * qr.rank(); // 2
 * // rank-deficient: two equal columns share the weight equally (minimum norm)
 * const x = leastSquares(Float64Array.of(1, 1, 2, 2), 2, 2, Float64Array.of(2, 4)); // [1, 1]
 * ```
 */
export class DenseQR {
  private mRows = 0;
  private nCols = 0;
  private factored = false;
  /** Packed factors, row-major m×n: R on and above the diagonal, reflector tails below it. */
  private qrData: Float64Array;
  /** τ of the reflectors of Q, length ≥ min(m,n). */
  private tauQ: Float64Array;
  /** Column permutation, length ≥ n. */
  private jpvt: Int32Array;
  /** Column norms and their reference values for downdating (xLAQP2 `vn1`, `vn2`). */
  private vn1: Float64Array;
  private vn2: Float64Array;
  /** Row accumulator for applying reflectors to row-major storage, length ≥ n. */
  private wRow: Float64Array;
  /** Right-hand side / solution scratch, length ≥ max(m,n). */
  private work: Float64Array;
  /** `[T 0]` with the reflector tails of Z in the zeroed part, row-major rank×n (stride n). */
  private codData: Float64Array;
  /** τ of the reflectors of Z, length ≥ min(m,n). */
  private tauZ: Float64Array;
  /** Rank for which `codData` holds the complete orthogonal decomposition, −1 when stale. */
  private codRank = -1;
  private lastRankValue = -1;
  private lastResidual = Number.NaN;

  /**
   * @param m - number of rows to reserve storage for (0: grow on first `factor`).
   * @param n - number of columns to reserve storage for.
   */
  constructor(m = 0, n = 0) {
    if (!Number.isInteger(m) || m < 0) throw new DimensionError('DenseQR: rows', '>= 0', m);
    if (!Number.isInteger(n) || n < 0) throw new DimensionError('DenseQR: columns', '>= 0', n);
    const k = Math.min(m, n);
    this.qrData = new Float64Array(m * n);
    this.tauQ = new Float64Array(k);
    this.jpvt = new Int32Array(n);
    this.vn1 = new Float64Array(n);
    this.vn2 = new Float64Array(n);
    this.wRow = new Float64Array(n);
    this.work = new Float64Array(Math.max(m, n));
    this.codData = new Float64Array(k * n);
    this.tauZ = new Float64Array(k);
  }

  /** Number of rows of the factored matrix. */
  get m(): number {
    return this.mRows;
  }

  /** Number of columns of the factored matrix. */
  get n(): number {
    return this.nCols;
  }

  /**
   * Packed factors (row-major m×n, stride n): R on and above the diagonal, the tails of the
   * Householder vectors below it. A view of internal storage, overwritten by the next `factor`.
   */
  get packed(): Float64Array {
    return this.qrData;
  }

  /** Column permutation: `(A·P)[:, k] = A[:, pivots[k]]` for k < n. Internal storage. */
  get pivots(): Int32Array {
    return this.jpvt;
  }

  /** Rank used by the last `solveLeastSquares` (−1 before any solve). */
  get lastRank(): number {
    return this.lastRankValue;
  }

  /**
   * `‖b − A·x‖₂` of the last `solveLeastSquares`, computed as `‖(Qᵀb)[r:m]‖₂` (exact for the
   * rank-r truncation of A; `NaN` before any solve).
   */
  get lastResidualNorm(): number {
    return this.lastResidual;
  }

  /**
   * Factors `A·P = Q·R` for A row-major m×n read from `a[off …]`. Copies A in; does not throw on
   * rank-deficient input (see {@link rank}).
   *
   * @throws DimensionError when `a` is too short or m, n are not positive integers.
   * @throws NonFiniteError when A has a NaN or infinite entry.
   */
  factor(a: ArrayLike<number>, m: number, n: number, off = 0): this {
    if (!Number.isInteger(m) || m < 1) throw new DimensionError('DenseQR.factor: rows', '>= 1', m);
    if (!Number.isInteger(n) || n < 1)
      throw new DimensionError('DenseQR.factor: columns', '>= 1', n);
    const mn = m * n;
    if (a.length - off < mn)
      throw new DimensionError('DenseQR.factor: matrix entries', mn, a.length - off);
    this.reserve(m, n);
    this.mRows = m;
    this.nCols = n;
    this.factored = false;
    this.codRank = -1;
    this.lastRankValue = -1;
    this.lastResidual = Number.NaN;
    const qr = this.qrData;
    for (let i = 0; i < mn; i++) {
      const v = a[off + i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('DenseQR.factor: matrix', i);
      qr[i] = v;
    }
    this.factorInPlace(m, n);
    this.factored = true;
    return this;
  }

  /**
   * Numerical rank: the number of leading diagonal entries of R with `|R_kk| > tol`, counted up to
   * the first that fails. Default `tol = max(m,n)·eps·|R₀₀|` (absolute, in the units of A).
   *
   * @throws DomainError when `tol` is negative or NaN.
   */
  rank(tol?: number): number {
    this.checkFactored();
    const m = this.mRows;
    const n = this.nCols;
    const qr = this.qrData;
    const t = tol ?? Math.max(m, n) * EPS * Math.abs(qr[0]!);
    if (!(t >= 0)) throw new DomainError('DenseQR.rank: tolerance', tol, 'must be >= 0');
    const kmax = Math.min(m, n);
    let r = 0;
    while (r < kmax && Math.abs(qr[r * n + r]!) > t) r++;
    return r;
  }

  /**
   * Minimum-norm least-squares solution `x = A_r⁺·b` (A_r: A truncated to numerical rank r =
   * `rank(tol)`), written into `out` (length n, allocated when omitted). `out` may alias `b`
   * (b is copied first). Afterwards {@link lastRank} and {@link lastResidualNorm} describe the
   * solve. Allocates nothing when `out` is given and the decomposition for this rank is cached or
   * fits the reserved storage (always, after `factor`).
   *
   * @throws DimensionError when `b` has fewer than m entries.
   * @throws NonFiniteError when `b` has a NaN or infinite entry.
   */
  solveLeastSquares(
    b: ArrayLike<number>,
    out: Float64Array = new Float64Array(this.nCols),
    tol?: number,
  ): Float64Array {
    this.checkFactored();
    const m = this.mRows;
    const n = this.nCols;
    if (b.length < m)
      throw new DimensionError('DenseQR.solveLeastSquares: right-hand side', m, b.length);
    if (out.length < n) throw new DimensionError('DenseQR.solveLeastSquares: out', n, out.length);
    const c = this.work;
    for (let i = 0; i < m; i++) {
      const v = b[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('DenseQR.solveLeastSquares: b', i);
      c[i] = v;
    }
    const r = this.rank(tol);
    this.applyQTInPlace(c);
    // residual of the truncated problem: the part of Qᵀb that R_r cannot reach
    let scale = 0;
    for (let i = r; i < m; i++) scale = Math.max(scale, Math.abs(c[i]!));
    let ss = 0;
    if (scale > 0) {
      for (let i = r; i < m; i++) {
        const v = c[i]! / scale;
        ss += v * v;
      }
    }
    this.lastResidual = scale * Math.sqrt(ss);
    this.lastRankValue = r;
    for (let i = r; i < n; i++) c[i] = 0;
    if (r > 0) {
      this.completeOrthogonal(r);
      const t = this.codData;
      // T·w₁ = c[0:r]
      for (let i = r - 1; i >= 0; i--) {
        const ri = i * n;
        let s = c[i]!;
        for (let j = i + 1; j < r; j++) s -= t[ri + j]! * c[j]!;
        c[i] = s / t[ri + i]!;
      }
      // w ← Z·w = H_{r−1}···H_0·w, each H_i = I − τ v vᵀ with v = e_i + Σ_{j≥r} t[i, j] e_j
      const tauZ = this.tauZ;
      for (let i = 0; i < r; i++) {
        const tz = tauZ[i]!;
        if (tz === 0) continue;
        const ri = i * n;
        let s = c[i]!;
        for (let j = r; j < n; j++) s += t[ri + j]! * c[j]!;
        s *= tz;
        c[i] = c[i]! - s;
        for (let j = r; j < n; j++) c[j] = c[j]! - s * t[ri + j]!;
      }
    }
    // x = P·w
    const jpvt = this.jpvt;
    for (let k = 0; k < n; k++) out[jpvt[k]!] = c[k]!;
    return out;
  }

  /**
   * Residual `out = b − A·x` (length m, allocated when omitted), with `A·x` evaluated through the
   * factors as `Q·R·Pᵀ·x` (so A need not be kept). `out` may alias `b` but not `x`.
   */
  residual(
    b: ArrayLike<number>,
    x: ArrayLike<number>,
    out: Float64Array = new Float64Array(this.mRows),
  ): Float64Array {
    this.checkFactored();
    const m = this.mRows;
    const n = this.nCols;
    if (b.length < m) throw new DimensionError('DenseQR.residual: b', m, b.length);
    if (x.length < n) throw new DimensionError('DenseQR.residual: x', n, x.length);
    if (out.length < m) throw new DimensionError('DenseQR.residual: out', m, out.length);
    const y = this.work;
    const qr = this.qrData;
    const jpvt = this.jpvt;
    const kmax = Math.min(m, n);
    // y = R·Pᵀ·x (R upper trapezoidal: rows ≥ kmax are zero)
    for (let i = 0; i < kmax; i++) {
      const ri = i * n;
      let s = 0;
      for (let j = i; j < n; j++) s += qr[ri + j]! * x[jpvt[j]!]!;
      y[i] = s;
    }
    for (let i = kmax; i < m; i++) y[i] = 0;
    this.applyQInPlace(y);
    for (let i = 0; i < m; i++) out[i] = b[i]! - y[i]!;
    return out;
  }

  /** `out = Qᵀ·b` (length m, allocated when omitted; may alias `b`). */
  applyQT(b: ArrayLike<number>, out: Float64Array = new Float64Array(this.mRows)): Float64Array {
    this.checkFactored();
    this.copyIn('DenseQR.applyQT', b, out);
    this.applyQTInPlace(out);
    return out;
  }

  /** `out = Q·y` (length m, allocated when omitted; may alias `y`). */
  applyQ(y: ArrayLike<number>, out: Float64Array = new Float64Array(this.mRows)): Float64Array {
    this.checkFactored();
    this.copyIn('DenseQR.applyQ', y, out);
    this.applyQInPlace(out);
    return out;
  }

  /**
   * The orthogonal factor as a new row-major array: m×m, or m×min(m,n) when `thin`. Allocates
   * (tests and cold paths).
   */
  q(thin = false): Float64Array {
    this.checkFactored();
    const m = this.mRows;
    const cols = thin ? Math.min(m, this.nCols) : m;
    const out = new Float64Array(m * cols);
    const col = new Float64Array(m);
    for (let j = 0; j < cols; j++) {
      col.fill(0);
      col[j] = 1;
      this.applyQInPlace(col);
      for (let i = 0; i < m; i++) out[i * cols + j] = col[i]!;
    }
    return out;
  }

  /**
   * The upper-trapezoidal factor as a new row-major array: m×n, or min(m,n)×n when `thin`.
   * Allocates.
   */
  r(thin = false): Float64Array {
    this.checkFactored();
    const m = this.mRows;
    const n = this.nCols;
    const rows = thin ? Math.min(m, n) : m;
    const out = new Float64Array(rows * n);
    for (let i = 0; i < Math.min(rows, n); i++) {
      for (let j = i; j < n; j++) out[i * n + j] = this.qrData[i * n + j]!;
    }
    return out;
  }

  /** A copy of the column permutation: `(A·P)[:, k] = A[:, result[k]]`. Allocates. */
  permutation(): Int32Array {
    this.checkFactored();
    return this.jpvt.slice(0, this.nCols);
  }

  /** Grows the workspace to hold an m×n factorization; allocates only when it must. */
  private reserve(m: number, n: number): void {
    const k = Math.min(m, n);
    if (this.qrData.length < m * n) this.qrData = new Float64Array(m * n);
    if (this.tauQ.length < k) this.tauQ = new Float64Array(k);
    if (this.jpvt.length < n) {
      this.jpvt = new Int32Array(n);
      this.vn1 = new Float64Array(n);
      this.vn2 = new Float64Array(n);
      this.wRow = new Float64Array(n);
    }
    if (this.work.length < Math.max(m, n)) this.work = new Float64Array(Math.max(m, n));
    if (this.codData.length < k * n) this.codData = new Float64Array(k * n);
    if (this.tauZ.length < k) this.tauZ = new Float64Array(k);
  }

  /** Pivoted Householder QR of `qrData` (xGEQP3 / xLAQP2, unblocked). */
  private factorInPlace(m: number, n: number): void {
    const a = this.qrData;
    const tau = this.tauQ;
    const jpvt = this.jpvt;
    const vn1 = this.vn1;
    const vn2 = this.vn2;
    const w = this.wRow;
    const kmax = Math.min(m, n);
    for (let j = 0; j < n; j++) {
      jpvt[j] = j;
      const v = stridedNorm(a, j, m, n);
      vn1[j] = v;
      vn2[j] = v;
    }
    for (let k = 0; k < kmax; k++) {
      // pivot: the remaining column of largest (downdated) norm
      let p = k;
      let best = vn1[k]!;
      for (let j = k + 1; j < n; j++) {
        if (vn1[j]! > best) {
          best = vn1[j]!;
          p = j;
        }
      }
      if (p !== k) {
        for (let i = 0, ri = 0; i < m; i++, ri += n) {
          const t = a[ri + k]!;
          a[ri + k] = a[ri + p]!;
          a[ri + p] = t;
        }
        const tj = jpvt[k]!;
        jpvt[k] = jpvt[p]!;
        jpvt[p] = tj;
        vn1[p] = vn1[k]!;
        vn2[p] = vn2[k]!;
      }
      // reflector H_k annihilating A[k+1:m, k]
      const kk = k * n + k;
      const tk = k < m - 1 ? makeReflector(a, kk, kk + n, m - k - 1, n) : 0;
      tau[k] = tk;
      // A[k:m, k+1:n] ← H_k·A[k:m, k+1:n], row by row: w = vᵀA, A −= τ v wᵀ
      if (tk !== 0 && k + 1 < n) {
        const rk = k * n;
        for (let j = k + 1; j < n; j++) w[j] = a[rk + j]!;
        for (let i = k + 1, ri = (k + 1) * n; i < m; i++, ri += n) {
          const vi = a[ri + k]!;
          if (vi === 0) continue;
          for (let j = k + 1; j < n; j++) w[j] = w[j]! + vi * a[ri + j]!;
        }
        for (let j = k + 1; j < n; j++) {
          const s = tk * w[j]!;
          w[j] = s;
          a[rk + j] = a[rk + j]! - s;
        }
        for (let i = k + 1, ri = (k + 1) * n; i < m; i++, ri += n) {
          const vi = a[ri + k]!;
          if (vi === 0) continue;
          for (let j = k + 1; j < n; j++) a[ri + j] = a[ri + j]! - vi * w[j]!;
        }
      }
      // downdate the norms of the remaining columns (xLAQP2)
      for (let j = k + 1; j < n; j++) {
        const v1 = vn1[j]!;
        if (v1 === 0) continue;
        const ratio = Math.abs(a[k * n + j]!) / v1;
        const temp = Math.max(0, 1 - ratio * ratio);
        const rel = v1 / vn2[j]!;
        if (temp * rel * rel <= NORM_DOWNDATE_RECOMPUTE) {
          const v = k < m - 1 ? stridedNorm(a, (k + 1) * n + j, m - k - 1, n) : 0;
          vn1[j] = v;
          vn2[j] = v;
        } else {
          vn1[j] = v1 * Math.sqrt(temp);
        }
      }
    }
  }

  /**
   * Complete orthogonal decomposition for rank r (xTZRZF on a copy of the leading r rows of R):
   * `[R11 R12]·H_{r−1}···H_0 = [T 0]`. Cached until the next `factor`.
   */
  private completeOrthogonal(r: number): void {
    if (this.codRank === r) return;
    const n = this.nCols;
    const t = this.codData;
    const qr = this.qrData;
    const tauZ = this.tauZ;
    for (let i = 0; i < r; i++) {
      const ri = i * n;
      for (let j = i; j < n; j++) t[ri + j] = qr[ri + j]!;
    }
    const tail = n - r;
    for (let i = r - 1; i >= 0; i--) {
      const ri = i * n;
      const tz = tail > 0 ? makeReflector(t, ri + i, ri + r, tail, 1) : 0;
      tauZ[i] = tz;
      if (tz === 0) continue;
      // rows above: row_k ← row_k·H_i (touches column i and columns r..n−1)
      for (let k = 0; k < i; k++) {
        const rk = k * n;
        let s = t[rk + i]!;
        for (let j = r; j < n; j++) s += t[rk + j]! * t[ri + j]!;
        s *= tz;
        t[rk + i] = t[rk + i]! - s;
        for (let j = r; j < n; j++) t[rk + j] = t[rk + j]! - s * t[ri + j]!;
      }
    }
    this.codRank = r;
  }

  /** c ← Qᵀ·c = H_{k−1}···H_0·c (c of length m). */
  private applyQTInPlace(c: Float64Array): void {
    const m = this.mRows;
    const n = this.nCols;
    const a = this.qrData;
    const tau = this.tauQ;
    const kmax = Math.min(m, n);
    for (let k = 0; k < kmax; k++) this.applyReflector(a, n, m, k, tau[k]!, c);
  }

  /** y ← Q·y = H_0···H_{k−1}·y (y of length m). */
  private applyQInPlace(y: Float64Array): void {
    const m = this.mRows;
    const n = this.nCols;
    const a = this.qrData;
    const tau = this.tauQ;
    for (let k = Math.min(m, n) - 1; k >= 0; k--) this.applyReflector(a, n, m, k, tau[k]!, y);
  }

  /** c ← H_k·c with v = e_k + Σ_{i>k} a[i, k]·e_i. */
  private applyReflector(
    a: Float64Array,
    n: number,
    m: number,
    k: number,
    tk: number,
    c: Float64Array,
  ): void {
    if (tk === 0) return;
    let s = c[k]!;
    for (let i = k + 1, p = (k + 1) * n + k; i < m; i++, p += n) s += a[p]! * c[i]!;
    s *= tk;
    c[k] = c[k]! - s;
    for (let i = k + 1, p = (k + 1) * n + k; i < m; i++, p += n) c[i] = c[i]! - s * a[p]!;
  }

  private copyIn(what: string, v: ArrayLike<number>, out: Float64Array): void {
    const m = this.mRows;
    if (v.length < m) throw new DimensionError(`${what}: vector`, m, v.length);
    if (out.length < m) throw new DimensionError(`${what}: out`, m, out.length);
    if (out !== v) for (let i = 0; i < m; i++) out[i] = v[i]!;
  }

  private checkFactored(): void {
    if (!this.factored)
      throw new DimensionError('DenseQR: factor() before use', 'factored', 'empty');
  }
}

/**
 * Minimum-norm least-squares solution `x = A⁺·b` of `min ‖b − A·x‖₂` for A row-major m×n (any
 * shape, any rank; numerical rank with tolerance `tol`, see {@link DenseQR.rank}). Allocates; for
 * repeated solves keep a {@link DenseQR}.
 *
 * @example
 * ```ts
 * // y = c0 + c1·t through (0, 1), (1, 3), (2, 5.5)
 * leastSquares(Float64Array.of(1, 0, 1, 1, 1, 2), 3, 2, Float64Array.of(1, 3, 5.5));
 * // → [0.91666…, 2.25]
 * ```
 */
export function leastSquares(
  a: ArrayLike<number>,
  m: number,
  n: number,
  b: ArrayLike<number>,
  tol?: number,
): Float64Array {
  return new DenseQR(m, n).factor(a, m, n).solveLeastSquares(b, new Float64Array(n), tol);
}

/**
 * Minimum-norm solution `x = Aᵀ(AAᵀ)⁻¹b` of an underdetermined system `A·x = b` with full row
 * rank (A row-major m×n, m ≤ n): the smallest correction satisfying m independent linear
 * constraints, e.g. a projection step `δq = −G⁺·g(q)` onto a constraint manifold. Allocates.
 *
 * @throws DimensionError when m > n.
 * @throws SingularMatrixError when the numerical rank (tolerance `tol`) is below m: then
 *   `A·x = b` is not solvable for every b; use {@link leastSquares} for the least-squares answer.
 *
 * @example
 * ```ts
 * minNormSolve(Float64Array.of(1, 1), 1, 2, Float64Array.of(2)); // [1, 1]
 * ```
 */
export function minNormSolve(
  a: ArrayLike<number>,
  m: number,
  n: number,
  b: ArrayLike<number>,
  tol?: number,
): Float64Array {
  if (m > n) throw new DimensionError('minNormSolve: rows (m <= n)', `<= ${n}`, m);
  const qr = new DenseQR(m, n).factor(a, m, n);
  const r = qr.rank(tol);
  if (r < m) throw new SingularMatrixError('minNormSolve: rank-deficient rows', r);
  return qr.solveLeastSquares(b, new Float64Array(n), tol);
}
