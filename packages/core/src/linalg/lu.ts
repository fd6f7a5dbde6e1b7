/**
 * LU factorization with partial pivoting on flat row-major `Float64Array`s.
 *
 * Two layers:
 * - allocation-free kernels (`luFactorInPlace`, `luSolveInPlace`, `luSolveTransposeInPlace`) for
 *   hot loops, working on caller-owned storage with an offset;
 * - {@link DenseLU}, a reusable factorization object that owns its workspace, with `solve`,
 *   `determinant` and a 1-norm condition-number estimate (Hager–Higham).
 *
 * Matrices are `n × n`, row-major: entry (i, j) is `a[off + i*n + j]`.
 *
 * @module
 */
import { DimensionError, NonFiniteError, SingularMatrixError } from '../errors.js';
import {
  LU_UNROLLED_MAX_N,
  luFactorUnrolled,
  luSolveTransposeUnrolled,
  luSolveUnrolled,
} from './luUnrolled.js';

/**
 * Factors `P A = L U` in place (Doolittle, partial pivoting by rows). On return the strict lower
 * triangle of `a` holds L (unit diagonal implied), the upper triangle U, and `piv[k]` is the row
 * swapped with row k at step k. The matrix starts at `a[off]` and the pivots at `piv[pivOff]`, so
 * many small factorizations can share two flat buffers (the OCP's stage blocks). Allocates nothing.
 *
 * @returns -1 on success, else the first column k whose pivot is exactly zero (the factorization
 *   is then still completed on the remaining columns, as LAPACK getrf does).
 */
export function luFactorInPlace(
  a: Float64Array,
  n: number,
  piv: Int32Array,
  off = 0,
  pivOff = 0,
): number {
  let singularAt = -1;
  for (let k = 0; k < n; k++) {
    // pivot search in column k
    let p = k;
    let maxAbs = Math.abs(a[off + k * n + k]!);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[off + i * n + k]!);
      if (v > maxAbs) {
        maxAbs = v;
        p = i;
      }
    }
    piv[pivOff + k] = p;
    if (maxAbs === 0 || Number.isNaN(maxAbs)) {
      if (singularAt < 0) singularAt = k;
      continue;
    }
    if (p !== k) {
      const rk = off + k * n;
      const rp = off + p * n;
      for (let j = 0; j < n; j++) {
        const t = a[rk + j]!;
        a[rk + j] = a[rp + j]!;
        a[rp + j] = t;
      }
    }
    const rk = off + k * n;
    // Divide rather than multiply by 1/pivot: 1/pivot overflows for subnormal pivots (then
    // 0·∞ = NaN poisoned the row), and a/a = 1 exactly keeps exactly dependent rows exactly
    // dependent, so their zero pivot is detected.
    const pivot = a[rk + k]!;
    for (let i = k + 1; i < n; i++) {
      const ri = off + i * n;
      const l = a[ri + k]! / pivot;
      a[ri + k] = l;
      if (l !== 0) {
        for (let j = k + 1; j < n; j++) a[ri + j] = a[ri + j]! - l * a[rk + j]!;
      }
    }
  }
  return singularAt;
}

/** Solves `A x = b` in place (`b` becomes x) from the output of {@link luFactorInPlace}. */
export function luSolveInPlace(
  lu: Float64Array,
  n: number,
  piv: Int32Array,
  b: Float64Array,
  off = 0,
  bOff = 0,
  pivOff = 0,
): void {
  for (let k = 0; k < n; k++) {
    const p = piv[pivOff + k]!;
    if (p !== k) {
      const t = b[bOff + k]!;
      b[bOff + k] = b[bOff + p]!;
      b[bOff + p] = t;
    }
  }
  // forward: L y = P b
  for (let i = 1; i < n; i++) {
    const ri = off + i * n;
    let s = b[bOff + i]!;
    for (let j = 0; j < i; j++) s -= lu[ri + j]! * b[bOff + j]!;
    b[bOff + i] = s;
  }
  // backward: U x = y
  for (let i = n - 1; i >= 0; i--) {
    const ri = off + i * n;
    let s = b[bOff + i]!;
    for (let j = i + 1; j < n; j++) s -= lu[ri + j]! * b[bOff + j]!;
    b[bOff + i] = s / lu[ri + i]!;
  }
}

/** Solves `Aᵀ x = b` in place from the output of {@link luFactorInPlace}. */
export function luSolveTransposeInPlace(
  lu: Float64Array,
  n: number,
  piv: Int32Array,
  b: Float64Array,
  off = 0,
  bOff = 0,
  pivOff = 0,
): void {
  // Aᵀ = Uᵀ Lᵀ P, so solve Uᵀ y = b, Lᵀ z = y, x = Pᵀ z
  for (let i = 0; i < n; i++) {
    let s = b[bOff + i]!;
    for (let j = 0; j < i; j++) s -= lu[off + j * n + i]! * b[bOff + j]!;
    b[bOff + i] = s / lu[off + i * n + i]!;
  }
  for (let i = n - 2; i >= 0; i--) {
    let s = b[bOff + i]!;
    for (let j = i + 1; j < n; j++) s -= lu[off + j * n + i]! * b[bOff + j]!;
    b[bOff + i] = s;
  }
  for (let k = n - 1; k >= 0; k--) {
    const p = piv[pivOff + k]!;
    if (p !== k) {
      const t = b[bOff + k]!;
      b[bOff + k] = b[bOff + p]!;
      b[bOff + p] = t;
    }
  }
}

/** 1-norm (maximum absolute column sum) of a row-major n×n matrix. */
export function norm1(a: Float64Array, n: number, off = 0): number {
  let best = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.abs(a[off + i * n + j]!);
    if (s > best) best = s;
  }
  return best;
}

// The kernels of DenseLU: the written-out code of luUnrolled.ts for n ≤ 8 (the integrators' Newton
// steps, where index arithmetic and loop bookkeeping are a large part of each loop), else the
// exported kernels at offset 0. Both do the same operations in the same order (bit-identical).

/** {@link luFactorInPlace} with off = pivOff = 0. */
function factorAt0(a: Float64Array, n: number, piv: Int32Array): number {
  return n <= LU_UNROLLED_MAX_N ? luFactorUnrolled(a, n, piv) : luFactorInPlace(a, n, piv);
}

/** {@link luSolveInPlace} with off = bOff = pivOff = 0. */
function solveAt0(lu: Float64Array, n: number, piv: Int32Array, b: Float64Array): void {
  if (n <= LU_UNROLLED_MAX_N) luSolveUnrolled(lu, n, piv, b);
  else luSolveInPlace(lu, n, piv, b);
}

/** {@link luSolveTransposeInPlace} with off = bOff = pivOff = 0. */
function solveTransposeAt0(lu: Float64Array, n: number, piv: Int32Array, b: Float64Array): void {
  if (n <= LU_UNROLLED_MAX_N) luSolveTransposeUnrolled(lu, n, piv, b);
  else luSolveTransposeInPlace(lu, n, piv, b);
}

/**
 * A reusable LU factorization of an n×n matrix. It owns its storage: `factor` copies the matrix
 * in, so one instance serves every step of an integrator without allocating.
 *
 * @example
 * ```ts
 * const lu = new DenseLU(2).factor(Float64Array.of(4, 3, 6, 3));
 * const x = lu.solve(Float64Array.of(10, 12)); // [1, 2]
 * ```
 */
export class DenseLU {
  readonly n: number;
  /** Packed L\U factors, row-major. */
  readonly lu: Float64Array;
  readonly piv: Int32Array;
  /** ‖A‖₁ of the factored matrix, computed on demand from {@link acopy} (NaN: not yet). */
  private anorm1 = Number.NaN;
  private singularColumn = -1;
  private factored = false;
  private readonly work: Float64Array;
  private readonly work2: Float64Array;
  /** Copy of the factored matrix, for the lazily computed ‖A‖₁ of {@link conditionEstimate}. */
  private readonly acopy: Float64Array;
  /** Result of the last {@link estimateCondition}. */
  private kappa = Number.NaN;

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('DenseLU: order', '>= 1', n);
    this.n = n;
    this.lu = new Float64Array(n * n);
    this.piv = new Int32Array(n);
    this.work = new Float64Array(n);
    this.work2 = new Float64Array(n);
    this.acopy = new Float64Array(n * n);
  }

  /** Factors `a` (row-major n×n, read from `off`). Does not throw on singular input: see {@link isSingular}. */
  factor(a: ArrayLike<number>, off = 0): this {
    const nn = this.n * this.n;
    if (a.length - off < nn)
      throw new DimensionError('DenseLU.factor: matrix entries', nn, a.length - off);
    const lu = this.lu;
    const acopy = this.acopy;
    // One loop copies A into the factor storage and into the copy kept for ‖A‖₁, and checks
    // finiteness without a branch per entry: v − v is 0 for finite v and NaN for ±∞ and NaN, so
    // the sum is 0 exactly when every entry is finite (per-entry checks cost a third of a small
    // factorization in the integrators' per-step solves; two TypedArray.set calls cost about as
    // much as the loop at n ≤ 8). A Float64Array gets its own loop, so that its element loads stay
    // monomorphic.
    let z = 0;
    if (a instanceof Float64Array) {
      for (let i = 0; i < nn; i++) {
        const v = a[off + i]!;
        lu[i] = v;
        acopy[i] = v;
        z += v - v;
      }
    } else {
      for (let i = 0; i < nn; i++) {
        const v = a[off + i]!;
        lu[i] = v;
        acopy[i] = v;
        z += v - v;
      }
    }
    if (z !== 0) {
      for (let i = 0; i < nn; i++)
        if (!Number.isFinite(lu[i]!)) throw new NonFiniteError('DenseLU.factor: matrix', i);
    }
    // ‖A‖₁ is needed only by conditionEstimate: computed there, on demand
    this.anorm1 = Number.NaN;
    this.singularColumn = factorAt0(lu, this.n, this.piv);
    this.factored = true;
    return this;
  }

  /** True when a zero pivot was met (exact singularity in floating point). */
  get isSingular(): boolean {
    return this.singularColumn >= 0;
  }

  /**
   * Solves `A x = b`. Writes into `out` (allocated when omitted; may alias `b`).
   * @throws SingularMatrixError when the factorization met a zero pivot.
   */
  solve(b: ArrayLike<number>, out: Float64Array = new Float64Array(this.n)): Float64Array {
    this.checkSolvable('DenseLU.solve', b, out);
    if (out !== b) for (let i = 0; i < this.n; i++) out[i] = b[i]!;
    solveAt0(this.lu, this.n, this.piv, out);
    return out;
  }

  /** Solves `Aᵀ x = b`, like {@link solve}. */
  solveTranspose(b: ArrayLike<number>, out: Float64Array = new Float64Array(this.n)): Float64Array {
    this.checkSolvable('DenseLU.solveTranspose', b, out);
    if (out !== b) for (let i = 0; i < this.n; i++) out[i] = b[i]!;
    solveTransposeAt0(this.lu, this.n, this.piv, out);
    return out;
  }

  /** det A = sign(P) · Π U_kk. */
  determinant(): number {
    this.checkFactored();
    if (this.isSingular) return 0;
    let det = 1;
    for (let k = 0; k < this.n; k++) {
      det *= this.lu[k * this.n + k]!;
      if (this.piv[k] !== k) det = -det;
    }
    return det;
  }

  /**
   * Estimate of the 1-norm condition number κ₁(A) = ‖A‖₁‖A⁻¹‖₁ by Hager's method as refined by
   * Higham (LAPACK xLACON): a lower bound that is almost always within a factor 3 of the truth.
   * `Infinity` for a singular matrix, and when a solve with A overflows (A⁻¹ is then not
   * representable, so A is singular to working precision). Allocates nothing: the estimate is
   * computed into a field by a void method and this small wrapper, which the optimizing compiler
   * inlines into its callers, reads it (a double returned from a call that is not inlined is
   * boxed, i.e. heap-allocated, on every call).
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
    const n = this.n;
    const x = this.work;
    const xi = this.work2;
    if (n === 1) {
      this.kappa = 1; // |a|·|1/a|
      return;
    }
    // a loop, not x.fill(1 / n): a double passed to a builtin is boxed (heap-allocated)
    const inv = 1 / n;
    for (let i = 0; i < n; i++) x[i] = inv;
    solveAt0(this.lu, n, this.piv, x);
    let est = 0;
    for (let i = 0; i < n; i++) est += Math.abs(x[i]!);
    // Each estimate is ‖A⁻¹y‖₁ with ‖y‖₁ ≤ 1 (or ‖A⁻ᵀξ‖∞ with ‖ξ‖∞ = 1): a lower bound of ‖A⁻¹‖₁.
    // If a solve overflows (∞, or NaN from ∞ − ∞), ‖A⁻¹‖₁ itself exceeds the floating-point range:
    // report ∞ rather than continuing with poisoned comparisons (which returned small finite
    // values for matrices whose inverse overflows).
    if (!Number.isFinite(est)) {
      this.kappa = Number.POSITIVE_INFINITY;
      return;
    }
    for (let iter = 0; iter < 5; iter++) {
      for (let i = 0; i < n; i++) xi[i] = x[i]! >= 0 ? 1 : -1;
      solveTransposeAt0(this.lu, n, this.piv, xi);
      let jmax = 0;
      let zmax = Math.abs(xi[0]!);
      let finite = Number.isFinite(zmax);
      for (let i = 1; i < n; i++) {
        const v = Math.abs(xi[i]!);
        if (!Number.isFinite(v)) finite = false;
        if (v > zmax) {
          zmax = v;
          jmax = i;
        }
      }
      if (!finite) {
        this.kappa = Number.POSITIVE_INFINITY;
        return;
      }
      for (let i = 0; i < n; i++) x[i] = 0; // a loop: a builtin call costs more at small n
      x[jmax] = 1;
      solveAt0(this.lu, n, this.piv, x);
      let newEst = 0;
      for (let i = 0; i < n; i++) newEst += Math.abs(x[i]!);
      if (!Number.isFinite(newEst)) {
        this.kappa = Number.POSITIVE_INFINITY;
        return;
      }
      if (newEst <= est) break;
      est = newEst;
    }
    // Higham's alternative vector guards against the rare underestimates of Hager's iteration.
    for (let i = 0; i < n; i++) x[i] = (i % 2 === 0 ? 1 : -1) * (1 + i / (n - 1));
    solveAt0(this.lu, n, this.piv, x);
    let alt = 0;
    for (let i = 0; i < n; i++) alt += Math.abs(x[i]!);
    if (!Number.isFinite(alt)) {
      this.kappa = Number.POSITIVE_INFINITY;
      return;
    }
    alt = (2 * alt) / (3 * n);
    if (alt > est) est = alt;
    if (Number.isNaN(this.anorm1)) {
      // ‖A‖₁, the largest absolute column sum of the factored matrix (norm1 inline)
      const a = this.acopy;
      let best = 0;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += Math.abs(a[i * n + j]!);
        if (s > best) best = s;
      }
      this.anorm1 = best;
    }
    const kappa = est * this.anorm1;
    this.kappa = Number.isFinite(kappa) ? kappa : Number.POSITIVE_INFINITY;
  }

  private checkFactored(): void {
    if (!this.factored)
      throw new DimensionError('DenseLU: factor() before use', 'factored', 'empty');
  }

  private checkSolvable(what: string, b: ArrayLike<number>, out: Float64Array): void {
    this.checkFactored();
    if (b.length < this.n) throw new DimensionError(`${what}: right-hand side`, this.n, b.length);
    // a short `out` would silently drop writes and return garbage
    if (out.length < this.n) throw new DimensionError(`${what}: out`, this.n, out.length);
    if (this.isSingular) throw new SingularMatrixError(what, this.singularColumn);
  }
}

/**
 * Solves the square system `A x = b` once (A row-major n×n). For repeated solves keep a
 * {@link DenseLU}.
 * @throws SingularMatrixError when A is singular to working precision.
 */
export function solveDense(a: ArrayLike<number>, n: number, b: ArrayLike<number>): Float64Array {
  return new DenseLU(n).factor(a).solve(b);
}
