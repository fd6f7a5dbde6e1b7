/**
 * Plain dense matrix and vector helpers on flat row-major `Float64Array`s (any size).
 * Every function writes into an output argument given first and returns it; none allocates
 * unless it says so. Sizes are passed explicitly: an m×n matrix is `m*n` numbers, entry (i, j)
 * at `i*n + j`.
 *
 * @module
 */
import { DimensionError } from '../errors.js';

/** A new n×n identity matrix. Allocates. */
export function identity(n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  return out;
}

/** Packs nested rows into a new row-major array; checks that rows have equal length. Allocates. */
export function fromRows(rows: ReadonlyArray<ArrayLike<number>>): Float64Array {
  const m = rows.length;
  const n = m === 0 ? 0 : rows[0]!.length;
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    const r = rows[i]!;
    if (r.length !== n) throw new DimensionError(`fromRows: row ${i} length`, n, r.length);
    for (let j = 0; j < n; j++) out[i * n + j] = r[j]!;
  }
  return out;
}

/** Unpacks an m×n row-major array into nested rows (plain arrays). Allocates. */
export function toRows(a: ArrayLike<number>, m: number, n: number): number[][] {
  const rows: number[][] = [];
  for (let i = 0; i < m; i++) {
    const r: number[] = new Array<number>(n);
    for (let j = 0; j < n; j++) r[j] = a[i * n + j]!;
    rows.push(r);
  }
  return rows;
}

/** out = A·x for A m×n. `out` must not alias `x`. */
export function matVec(
  out: Float64Array,
  a: ArrayLike<number>,
  m: number,
  n: number,
  x: ArrayLike<number>,
): Float64Array {
  for (let i = 0; i < m; i++) {
    let s = 0;
    const r = i * n;
    for (let j = 0; j < n; j++) s += a[r + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}

/** out = Aᵀ·x for A m×n. `out` must not alias `x`. */
export function matTVec(
  out: Float64Array,
  a: ArrayLike<number>,
  m: number,
  n: number,
  x: ArrayLike<number>,
): Float64Array {
  out.fill(0, 0, n);
  for (let i = 0; i < m; i++) {
    const xi = x[i]!;
    const r = i * n;
    for (let j = 0; j < n; j++) out[j] = out[j]! + a[r + j]! * xi;
  }
  return out;
}

/** out = A·B for A m×k, B k×n. `out` (m×n) must not alias A or B. */
export function matMul(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  m: number,
  k: number,
  n: number,
): Float64Array {
  out.fill(0, 0, m * n);
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p]!;
      if (aip === 0) continue;
      const rb = p * n;
      const ro = i * n;
      for (let j = 0; j < n; j++) out[ro + j] = out[ro + j]! + aip * b[rb + j]!;
    }
  }
  return out;
}

/** out = Aᵀ for A m×n (out is n×m, must not alias A). */
export function transpose(
  out: Float64Array,
  a: ArrayLike<number>,
  m: number,
  n: number,
): Float64Array {
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) out[j * m + i] = a[i * n + j]!;
  return out;
}

/** Σ xᵢyᵢ over the first `n` entries (default: all of x). */
export function dot(x: ArrayLike<number>, y: ArrayLike<number>, n = x.length): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i]! * y[i]!;
  return s;
}

/** y ← y + alpha·x over the first `n` entries. */
export function axpy(
  y: Float64Array,
  alpha: number,
  x: ArrayLike<number>,
  n = y.length,
): Float64Array {
  for (let i = 0; i < n; i++) y[i] = y[i]! + alpha * x[i]!;
  return y;
}

/** Euclidean norm, scaled to avoid overflow and underflow; NaN if any entry is NaN. */
export function norm2(x: ArrayLike<number>, n = x.length): number {
  let scale = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.abs(x[i]!);
    if (!(v <= scale)) scale = v; // propagates NaN
  }
  if (scale === 0 || !Number.isFinite(scale)) return scale;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]! / scale;
    s += v * v;
  }
  return scale * Math.sqrt(s);
}

/** Maximum absolute entry (NaN if any entry is NaN). */
export function normInf(x: ArrayLike<number>, n = x.length): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.abs(x[i]!);
    if (!(v <= m)) m = v; // propagates NaN
  }
  return m;
}

/** Frobenius norm of any flat matrix. */
export function normFrobenius(a: ArrayLike<number>): number {
  return norm2(a);
}

/**
 * Relative asymmetry of the n×n row-major matrix `a`: max_{i<j} |a_ij − a_ji| / max_{i,j} |a_ij|,
 * 0 for the zero matrix. `a` counts as symmetric to relative tolerance r when the result is ≤ r
 * (the library's bound is {@link SYMMETRY_RTOL}). Reads only the first n² entries.
 *
 * @example
 * ```ts
 * asymmetry(Float64Array.of(1, 2, 2.5, 1), 2); // 0.2 = |2 − 2.5|/2.5
 * ```
 */
export function asymmetry(a: ArrayLike<number>, n: number): number {
  let maxAbs = 0;
  let asym = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      maxAbs = Math.max(maxAbs, Math.abs(a[i * n + j]!));
      if (j > i) asym = Math.max(asym, Math.abs(a[i * n + j]! - a[j * n + i]!));
    }
  }
  return maxAbs === 0 ? asym : asym / maxAbs;
}

/** True when every entry is finite. */
export function allFinite(x: ArrayLike<number>, n = x.length): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(x[i]!)) return false;
  return true;
}
