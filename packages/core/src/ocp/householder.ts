/**
 * Householder QR with column pivoting of a small block of columns of a row-major matrix, used by
 * the stage-wise KKT factorization to split a stage's equality constraints into rows that the
 * stage's controls can eliminate and rows that must be carried to earlier stages. Internal module:
 * allocation-free kernels on caller-owned storage.
 *
 * For the `rows × cols` block starting at column `c0` of a row-major matrix with `width` columns,
 * `qrColumnPivotInPlace` computes an orthogonal U = H_{ρ−1}⋯H₁H₀ (Householder reflections
 * Hⱼ = I − τⱼvⱼvⱼᵀ, LAPACK `dgeqpf`/`dlarfg` conventions, Golub & Van Loan §5.4.1) and a column
 * permutation Π with U·A_block·Π = [R₁₁ R₁₂; 0 R₂₂], |R₂₂| below the tolerance, and applies U to
 * every column of the matrix (the other columns too). The vectors vⱼ (vⱼ[j] = 1 implied) are kept
 * below the diagonal of the block, τⱼ in `tau`.
 *
 * @module
 */

/**
 * QR with column pivoting of columns `[c0, c0 + cols)` of the `rows × width` row-major matrix `a`
 * (at `off`), applying the reflections to all `width` columns. Columns of the block are swapped
 * physically and `colPerm` records the original block column now at each position. Stops when the
 * largest remaining column norm is ≤ `rtol`·max|a_ij| (over all `width` columns; the tolerance is
 * computed here rather than passed in: a computed double argument would be boxed on every call).
 *
 * @returns the numerical rank ρ (number of reflections applied).
 */
export function qrColumnPivotInPlace(
  a: Float64Array,
  off: number,
  rows: number,
  width: number,
  c0: number,
  cols: number,
  tau: Float64Array,
  tauOff: number,
  colPerm: Int32Array,
  permOff: number,
  rtol: number,
): number {
  for (let c = 0; c < cols; c++) colPerm[permOff + c] = c;
  let amax = 0;
  for (let t = 0; t < rows * width; t++) {
    const v = Math.abs(a[off + t]!);
    if (v > amax) amax = v;
  }
  const tol = rtol * amax;
  const steps = Math.min(rows, cols);
  let rank = 0;
  for (let j = 0; j < steps; j++) {
    // pivot: the remaining column of largest norm over rows j..rows−1
    let best = -1;
    let bestNorm2 = -1;
    for (let c = j; c < cols; c++) {
      let s = 0;
      for (let i = j; i < rows; i++) {
        const v = a[off + i * width + c0 + c]!;
        s += v * v;
      }
      if (s > bestNorm2) {
        bestNorm2 = s;
        best = c;
      }
    }
    const norm = Math.sqrt(bestNorm2);
    if (!(norm > tol)) break;
    if (best !== j) {
      for (let i = 0; i < rows; i++) {
        const r = off + i * width + c0;
        const t = a[r + j]!;
        a[r + j] = a[r + best]!;
        a[r + best] = t;
      }
      const t = colPerm[permOff + j]!;
      colPerm[permOff + j] = colPerm[permOff + best]!;
      colPerm[permOff + best] = t;
    }
    // reflection H = I − τvvᵀ with H·x = β·e₁ (dlarfg)
    const cj = c0 + j;
    const x0 = a[off + j * width + cj]!;
    let below = 0;
    for (let i = j + 1; i < rows; i++) {
      const v = a[off + i * width + cj]!;
      below += v * v;
    }
    if (below === 0) {
      tau[tauOff + j] = 0;
    } else {
      const beta = x0 >= 0 ? -norm : norm;
      const t = (beta - x0) / beta;
      const scale = 1 / (x0 - beta);
      for (let i = j + 1; i < rows; i++) a[off + i * width + cj] = a[off + i * width + cj]! * scale;
      a[off + j * width + cj] = beta;
      tau[tauOff + j] = t;
      // apply H to every other column of the matrix
      for (let c = 0; c < width; c++) {
        if (c === cj || (c >= c0 && c < cj)) continue;
        let s = a[off + j * width + c]!;
        for (let i = j + 1; i < rows; i++) s += a[off + i * width + cj]! * a[off + i * width + c]!;
        if (s === 0) continue;
        s *= t;
        a[off + j * width + c] = a[off + j * width + c]! - s;
        for (let i = j + 1; i < rows; i++)
          a[off + i * width + c] = a[off + i * width + c]! - s * a[off + i * width + cj]!;
      }
    }
    rank = j + 1;
  }
  return rank;
}
