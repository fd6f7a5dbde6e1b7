/**
 * Singular value decompositions, ranks, null and column spaces, pseudo-inverses, condition numbers
 * and eigenvalues of small dense matrices, for setup and cold paths (constraint bases,
 * diagnostics). Hot loops use the project's own factorizations (`DenseLU` and friends).
 *
 * Everything here takes flat row-major `Float64Array`s with explicit sizes (an m×n matrix is
 * `m*n` numbers, entry (i, j) at `i*n + j`). Inputs are validated: sizes must be non-negative
 * integers and match the array length ({@link DimensionError}), entries must be finite
 * ({@link NonFiniteError}). Empty matrices (m = 0 or n = 0) are allowed wherever the result is
 * well defined. Every function allocates its results.
 *
 * The kernels are core's own (no dependency, so that importing `@geomech/core` stays cheap):
 * - SVD: one-sided Jacobi (Hestenes 1958; Golub & Van Loan, *Matrix Computations*, 4th ed.,
 *   §8.6.3; Demmel & Veselić 1992 for its relative accuracy), columns orthogonalized pairwise by
 *   plane rotations until |a_pᵀa_q| ≤ m·ε‖a_p‖‖a_q‖ for every pair.
 * - Symmetric eigenproblem: cyclic Jacobi (Golub & Van Loan §8.5.3, Algorithm 8.5.3 with the stable
 *   rotation of Algorithm 8.5.1).
 * - General eigenvalues: balancing, Hessenberg reduction by stabilized elimination and the Francis
 *   double-shift QR iteration (Numerical Recipes, 2nd ed., §11.5–11.6: `balanc`, `elmhes`, `hqr`;
 *   Golub & Van Loan Algorithm 7.5.2).
 * They replaced ml-matrix's ports of JAMA (Golub–Kahan–Reinsch SVD, tred2/tql2, orthes/hqr2),
 * against which the tests check them on random matrices.
 *
 * @module
 */
import {
  HQR_MAX_ITERATIONS,
  SPECTRAL_MAX_SWEEPS,
  SVD_FLUSH_RTOL,
  SYMMETRY_RTOL,
} from '../constants.js';
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
 * zero (ε² relative: far below rounding), so that no column norm's square underflows.
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
  const { U, s, V } = jacobiSvd(what, scaled, m, n, true);
  for (let i = 0; i < k; i++) s[i] = s[i]! * scale;
  checkFiniteResult(what, s);
  checkFiniteResult(what, U);
  checkFiniteResult(what, V);
  return { U, s, V, k };
}

// ---------------------------------------------------------------------------------------------
// kernels (private)

/**
 * One-sided Jacobi SVD of the m×n matrix held column-major in `w` (column j at `w[j*m ..]`),
 * m ≥ n ≥ 1, in place: on return the columns of w are mutually orthogonal, w = A·V, and `v`
 * (n×n, column-major) holds the accumulated rotations V (or is null when not wanted). A pair
 * (p, q) is rotated while |a_pᵀa_q| > m·ε·‖a_p‖·‖a_q‖; the rotation zeroes a_pᵀa_q exactly as the
 * symmetric 2×2 Jacobi rotation of [[α, γ], [γ, β]] (α = ‖a_p‖², β = ‖a_q‖², γ = a_pᵀa_q):
 * ζ = (β − α)/(2γ), t = sign(ζ)/(|ζ| + √(1 + ζ²)), c = 1/√(1 + t²), s = c·t
 * (Golub & Van Loan §8.6.3, Algorithm 8.5.1).
 */
function oneSidedJacobi(
  what: string,
  w: Float64Array,
  m: number,
  n: number,
  v: Float64Array | null,
): void {
  if (v !== null) {
    v.fill(0);
    for (let j = 0; j < n; j++) v[j * n + j] = 1;
  }
  // the rounding error of a computed dot product of m terms is up to m·ε·‖a_p‖‖a_q‖: a smaller
  // threshold could rotate forever on rounding noise (LAPACK's dgesvj uses √m·ε)
  const tol = m * Number.EPSILON;
  // a column of norm ≤ ε²·‖A‖_F (SVD_FLUSH_RTOL, far below rounding) is set to zero: such a column
  // can shrink further into the subnormals, where a rotation no longer changes it and the sweep
  // would repeat forever; its singular value is then 0 and its left vector is completed
  let frob2 = 0;
  for (let i = 0; i < m * n; i++) frob2 += w[i]! * w[i]!;
  const tiny2 = frob2 * SVD_FLUSH_RTOL * SVD_FLUSH_RTOL;
  for (let sweep = 0; sweep < SPECTRAL_MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      const op = p * m;
      for (let q = p + 1; q < n; q++) {
        const oq = q * m;
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < m; i++) {
          const x = w[op + i]!;
          const y = w[oq + i]!;
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (alpha <= tiny2 || beta <= tiny2) {
          if (alpha <= tiny2) w.fill(0, op, op + m);
          if (beta <= tiny2) w.fill(0, oq, oq + m);
          continue;
        }
        if (Math.abs(gamma) <= tol * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < m; i++) {
          const x = w[op + i]!;
          const y = w[oq + i]!;
          w[op + i] = c * x - s * y;
          w[oq + i] = s * x + c * y;
        }
        if (v !== null) {
          const vp = p * n;
          const vq = q * n;
          for (let i = 0; i < n; i++) {
            const x = v[vp + i]!;
            const y = v[vq + i]!;
            v[vp + i] = c * x - s * y;
            v[vq + i] = s * x + c * y;
          }
        }
      }
    }
    if (!rotated) return;
  }
  throw new DomainError(
    what,
    `no convergence in ${SPECTRAL_MAX_SWEEPS} Jacobi sweeps`,
    'a finite matrix',
  );
}

/**
 * Completes the columns of the m×k column-major `u` whose `filled[j]` is false to an orthonormal
 * set with the others (modified Gram–Schmidt, twice, on the unit vectors e_0, e_1, …, keeping
 * the first whose remainder has norm > 1/2): the left singular vectors of zero singular values.
 */
function completeOrthonormal(u: Float64Array, m: number, k: number, filled: boolean[]): void {
  const x = new Float64Array(m);
  let e = 0;
  for (let j = 0; j < k; j++) {
    if (filled[j]) continue;
    for (; e < m; e++) {
      x.fill(0);
      x[e] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (let l = 0; l < k; l++) {
          if (!filled[l]) continue;
          let d = 0;
          for (let i = 0; i < m; i++) d += u[l * m + i]! * x[i]!;
          for (let i = 0; i < m; i++) x[i] = x[i]! - d * u[l * m + i]!;
        }
      }
      let nrm = 0;
      for (let i = 0; i < m; i++) nrm += x[i]! * x[i]!;
      nrm = Math.sqrt(nrm);
      if (nrm > 0.5) {
        for (let i = 0; i < m; i++) u[j * m + i] = x[i]! / nrm;
        filled[j] = true;
        e++;
        break;
      }
    }
  }
}

/**
 * Thin SVD of the m×n row-major `a` (m, n ≥ 1, entries finite and sanitized): U (m×k), s, V (n×k)
 * row-major, s descending, k = min(m, n). For m < n the SVD of Aᵀ = V·diag(s)·Uᵀ is computed.
 * With `vectors` false only s is computed (U and V empty).
 */
function jacobiSvd(
  what: string,
  a: ArrayLike<number>,
  m: number,
  n: number,
  vectors: boolean,
): { U: Float64Array; s: Float64Array; V: Float64Array } {
  const tall = m >= n;
  const r = tall ? m : n; // rows of the matrix decomposed (A or Aᵀ)
  const c = tall ? n : m; // its columns, k
  // column-major copy of A (tall) or Aᵀ (wide): column j of Aᵀ is row j of A
  const w = new Float64Array(r * c);
  if (tall) for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) w[j * m + i] = a[i * n + j]!;
  else w.set(Array.prototype.slice.call(a, 0, m * n) as number[]);
  const v = vectors ? new Float64Array(c * c) : null;
  oneSidedJacobi(what, w, r, c, v);
  const norms = new Float64Array(c);
  for (let j = 0; j < c; j++) {
    let t = 0;
    for (let i = 0; i < r; i++) t += w[j * r + i]! * w[j * r + i]!;
    norms[j] = Math.sqrt(t);
  }
  const order = Array.from({ length: c }, (_, j) => j).sort((p, q) => norms[q]! - norms[p]!);
  const s = Float64Array.from(order, (j) => norms[j]!);
  if (v === null) return { U: new Float64Array(0), s, V: new Float64Array(0) };
  // left vectors of the decomposed matrix (r×c, column-major, in descending order) and right ones
  const left = new Float64Array(r * c);
  const filled: boolean[] = [];
  for (let l = 0; l < c; l++) {
    const j = order[l]!;
    const nrm = norms[j]!;
    filled.push(nrm > 0);
    if (nrm > 0) for (let i = 0; i < r; i++) left[l * r + i] = w[j * r + i]! / nrm;
  }
  completeOrthonormal(left, r, c, filled);
  // row-major outputs: the left vectors of A (tall) are `left`, of Aᵀ (wide) they are A's right
  const L = new Float64Array(r * c);
  const R = new Float64Array(c * c);
  for (let l = 0; l < c; l++) {
    for (let i = 0; i < r; i++) L[i * c + l] = left[l * r + i]!;
    const j = order[l]!;
    for (let i = 0; i < c; i++) R[i * c + l] = v[j * c + i]!;
  }
  return tall ? { U: L, s, V: R } : { U: R, s, V: L };
}

/**
 * Cyclic Jacobi on the symmetric n×n row-major `A` (overwritten; its diagonal becomes the
 * eigenvalues), `Q` ← the eigenvectors as columns (Golub & Van Loan Algorithm 8.5.3 with the
 * rotation of Algorithm 8.5.1). Stops when the off-diagonal Frobenius norm is ≤ ε·‖A‖_F/2 or a
 * sweep rotates nothing.
 */
function jacobiSymmetric(A: Float64Array, Q: Float64Array, n: number): void {
  Q.fill(0);
  for (let i = 0; i < n; i++) Q[i * n + i] = 1;
  let total = 0;
  for (let i = 0; i < n * n; i++) total += A[i]! * A[i]!;
  const tol2 = 0.25 * Number.EPSILON * Number.EPSILON * total;
  for (let sweep = 0; sweep < SPECTRAL_MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += 2 * A[p * n + q]! ** 2;
    if (off <= tol2) return;
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q]!;
        if (apq === 0) continue;
        const app = A[p * n + p]!;
        const aqq = A[q * n + q]!;
        // a rotation that would not change the diagonal in floating point is skipped (the entry
        // is below rounding of both diagonal entries), and the entry is dropped
        if (
          Math.abs(app) + 100 * Math.abs(apq) === Math.abs(app) &&
          Math.abs(aqq) + 100 * Math.abs(apq) === Math.abs(aqq)
        ) {
          A[p * n + q] = 0;
          A[q * n + p] = 0;
          continue;
        }
        rotated = true;
        const tau = (aqq - app) / (2 * apq);
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        // A ← Jᵀ A J with J the rotation in the (p, q) plane
        for (let k = 0; k < n; k++) {
          if (k === p || k === q) continue;
          const akp = A[k * n + p]!;
          const akq = A[k * n + q]!;
          const x = c * akp - s * akq;
          const y = s * akp + c * akq;
          A[k * n + p] = x;
          A[p * n + k] = x;
          A[k * n + q] = y;
          A[q * n + k] = y;
        }
        A[p * n + p] = app - t * apq;
        A[q * n + q] = aqq + t * apq;
        A[p * n + q] = 0;
        A[q * n + p] = 0;
        for (let k = 0; k < n; k++) {
          const vkp = Q[k * n + p]!;
          const vkq = Q[k * n + q]!;
          Q[k * n + p] = c * vkp - s * vkq;
          Q[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
    if (!rotated) return;
  }
  throw new DomainError(
    'symmetricEigen',
    `no convergence in ${SPECTRAL_MAX_SWEEPS} Jacobi sweeps`,
    'a finite matrix',
  );
}

/**
 * Eigenvalues of the general n×n row-major `a` (a copy is worked on): balancing by powers of two
 * (NR `balanc`: similarity with a diagonal matrix, eigenvalues exact), reduction to upper
 * Hessenberg form by Gaussian elimination with partial pivoting (NR `elmhes`, a similarity), then
 * the Francis double-shift QR iteration with deflation (NR `hqr`). 1-based indices below, as in
 * the source, through `at(i, j)`.
 */
function hqrEigenvalues(a: ArrayLike<number>, n: number): { re: Float64Array; im: Float64Array } {
  const h = Float64Array.from(a as ArrayLike<number>);
  const at = (i: number, j: number) => (i - 1) * n + (j - 1);
  const get = (i: number, j: number) => h[at(i, j)]!;
  const set = (i: number, j: number, x: number) => {
    h[at(i, j)] = x;
  };
  // balanc
  for (let last = false; !last; ) {
    last = true;
    for (let i = 1; i <= n; i++) {
      let r = 0;
      let c = 0;
      for (let j = 1; j <= n; j++) {
        if (j === i) continue;
        c += Math.abs(get(j, i));
        r += Math.abs(get(i, j));
      }
      if (c === 0 || r === 0) continue;
      let g = r / 2;
      let f = 1;
      const s = c + r;
      while (c < g) {
        f *= 2;
        c *= 4;
      }
      g = r * 2;
      while (c > g) {
        f /= 2;
        c /= 4;
      }
      if ((c + r) / f < 0.95 * s) {
        last = false;
        g = 1 / f;
        for (let j = 1; j <= n; j++) set(i, j, get(i, j) * g);
        for (let j = 1; j <= n; j++) set(j, i, get(j, i) * f);
      }
    }
  }
  // elmhes
  for (let m = 2; m < n; m++) {
    let x = 0;
    let i = m;
    for (let j = m; j <= n; j++) {
      if (Math.abs(get(j, m - 1)) > Math.abs(x)) {
        x = get(j, m - 1);
        i = j;
      }
    }
    if (i !== m) {
      for (let j = m - 1; j <= n; j++) {
        const t = get(i, j);
        set(i, j, get(m, j));
        set(m, j, t);
      }
      for (let j = 1; j <= n; j++) {
        const t = get(j, i);
        set(j, i, get(j, m));
        set(j, m, t);
      }
    }
    if (x !== 0) {
      for (i = m + 1; i <= n; i++) {
        let y = get(i, m - 1);
        if (y !== 0) {
          y /= x;
          set(i, m - 1, y);
          for (let j = m; j <= n; j++) set(i, j, get(i, j) - y * get(m, j));
          for (let j = 1; j <= n; j++) set(j, m, get(j, m) + y * get(j, i));
        }
      }
    }
  }
  for (let i = 3; i <= n; i++) for (let j = 1; j < i - 1; j++) set(i, j, 0); // the multipliers
  // hqr
  const wr = new Float64Array(n + 1);
  const wi = new Float64Array(n + 1);
  let anorm = 0;
  for (let i = 1; i <= n; i++)
    for (let j = Math.max(i - 1, 1); j <= n; j++) anorm += Math.abs(get(i, j));
  let nn = n;
  let t = 0;
  let p = 0;
  let q = 0;
  let r = 0;
  let x = 0;
  let y = 0;
  let z = 0;
  let w = 0;
  let s = 0;
  while (nn >= 1) {
    let its = 0;
    let l: number;
    do {
      for (l = nn; l >= 2; l--) {
        s = Math.abs(get(l - 1, l - 1)) + Math.abs(get(l, l));
        if (s === 0) s = anorm;
        if (Math.abs(get(l, l - 1)) + s === s) {
          set(l, l - 1, 0);
          break;
        }
      }
      x = get(nn, nn);
      if (l === nn) {
        wr[nn] = x + t;
        wi[nn--] = 0;
      } else {
        y = get(nn - 1, nn - 1);
        w = get(nn, nn - 1) * get(nn - 1, nn);
        if (l === nn - 1) {
          p = 0.5 * (y - x);
          q = p * p + w;
          z = Math.sqrt(Math.abs(q));
          x += t;
          if (q >= 0) {
            z = p + (p >= 0 ? Math.abs(z) : -Math.abs(z));
            wr[nn - 1] = wr[nn] = x + z;
            if (z !== 0) wr[nn] = x - w / z;
            wi[nn - 1] = wi[nn] = 0;
          } else {
            wr[nn - 1] = wr[nn] = x + p;
            wi[nn] = z;
            wi[nn - 1] = -z;
          }
          nn -= 2;
        } else {
          if (its === HQR_MAX_ITERATIONS)
            throw new DomainError(
              'eigenvalues',
              `no convergence in ${HQR_MAX_ITERATIONS} QR iterations`,
              'a finite matrix',
            );
          if (its === 10 || its === 20) {
            // exceptional shift
            t += x;
            for (let i = 1; i <= nn; i++) set(i, i, get(i, i) - x);
            s = Math.abs(get(nn, nn - 1)) + Math.abs(get(nn - 1, nn - 2));
            y = x = 0.75 * s;
            w = -0.4375 * s * s;
          }
          ++its;
          let m: number;
          for (m = nn - 2; m >= l; m--) {
            z = get(m, m);
            r = x - z;
            s = y - z;
            p = (r * s - w) / get(m + 1, m) + get(m, m + 1);
            q = get(m + 1, m + 1) - z - r - s;
            r = get(m + 2, m + 1);
            s = Math.abs(p) + Math.abs(q) + Math.abs(r);
            p /= s;
            q /= s;
            r /= s;
            if (m === l) break;
            const u = Math.abs(get(m, m - 1)) * (Math.abs(q) + Math.abs(r));
            const v =
              Math.abs(p) *
              (Math.abs(get(m - 1, m - 1)) + Math.abs(z) + Math.abs(get(m + 1, m + 1)));
            if (u + v === v) break;
          }
          for (let i = m + 2; i <= nn; i++) {
            set(i, i - 2, 0);
            if (i !== m + 2) set(i, i - 3, 0);
          }
          for (let k = m; k <= nn - 1; k++) {
            if (k !== m) {
              p = get(k, k - 1);
              q = get(k + 1, k - 1);
              r = 0;
              if (k !== nn - 1) r = get(k + 2, k - 1);
              x = Math.abs(p) + Math.abs(q) + Math.abs(r);
              if (x !== 0) {
                p /= x;
                q /= x;
                r /= x;
              }
            }
            const root = Math.sqrt(p * p + q * q + r * r);
            s = p >= 0 ? root : -root;
            if (s !== 0) {
              if (k === m) {
                if (l !== m) set(k, k - 1, -get(k, k - 1));
              } else set(k, k - 1, -s * x);
              p += s;
              x = p / s;
              y = q / s;
              z = r / s;
              q /= p;
              r /= p;
              for (let j = k; j <= nn; j++) {
                p = get(k, j) + q * get(k + 1, j);
                if (k !== nn - 1) {
                  p += r * get(k + 2, j);
                  set(k + 2, j, get(k + 2, j) - p * z);
                }
                set(k + 1, j, get(k + 1, j) - p * y);
                set(k, j, get(k, j) - p * x);
              }
              const mmin = Math.min(nn, k + 3);
              for (let i = l; i <= mmin; i++) {
                p = x * get(i, k) + y * get(i, k + 1);
                if (k !== nn - 1) {
                  p += z * get(i, k + 2);
                  set(i, k + 2, get(i, k + 2) - p * r);
                }
                set(i, k + 1, get(i, k + 1) - p * q);
                set(i, k, get(i, k) - p);
              }
            }
          }
        }
      }
    } while (l < nn - 1);
  }
  return { re: wr.subarray(1), im: wi.subarray(1) };
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
  const { s } = jacobiSvd('singularValues', scaled, m, n, false);
  for (let i = 0; i < k; i++) s[i] = s[i]! * scale;
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
 * `A = Q · diag(values) · Qᵀ`, by cyclic Jacobi rotations.
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
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) A[i * n + j] = 0.5 * (a[i * n + j]! + a[j * n + i]!);
  }
  const Q = new Float64Array(n * n);
  jacobiSymmetric(A, Q, n);
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (p, q) => A[p * n + p]! - A[q * n + q]!,
  );
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    const src = order[c]!;
    values[c] = A[src * n + src]!;
    for (let i = 0; i < n; i++) vectors[i * n + c] = Q[i * n + src]!;
  }
  checkFiniteResult('symmetricEigen', values);
  checkFiniteResult('symmetricEigen', vectors);
  return { values, vectors };
}

/**
 * Eigenvalues of a general real n×n matrix, by balancing, Hessenberg reduction and the Francis
 * double-shift QR iteration (`hqr`).
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
  const { re: rawRe, im: rawIm } = hqrEigenvalues(a, n);
  const order = Array.from({ length: n }, (_, i) => i).sort(
    // real part ascending; then |im| descending keeps a conjugate pair (whose real parts hqr
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
