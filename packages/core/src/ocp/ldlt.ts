/**
 * Symmetric indefinite LDLᵀ factorization with Bunch–Kaufman pivoting, and its inertia, for the
 * small dense blocks of the stage-wise KKT factorization ({@link StageKktSystem}).
 *
 * `P A Pᵀ = L D Lᵀ` with L unit lower triangular, D block diagonal with 1×1 and 2×2 blocks and P a
 * permutation (Bunch & Kaufman 1977, "Some stable methods for calculating inertia and solving
 * symmetric linear systems", Math. Comp. 31; the partial-pivoting rule with α = (1 + √17)/8 as in
 * LAPACK `dsytf2`, Golub & Van Loan, Matrix Computations, 4th ed., Algorithm 4.4.4). By Sylvester's
 * law of inertia, `inertia(A) = inertia(D)`: a 1×1 block counts by its sign, a 2×2 block by the
 * signs of its eigenvalues (Bunch–Kaufman only chooses 2×2 blocks with det < 0, one of each sign).
 *
 * Storage: A is n×n row-major at an offset, both triangles filled (symmetric). On return the
 * strict lower triangle holds L except at the positions (k+1, k) of 2×2 blocks, which hold the
 * off-diagonal of D; the diagonal holds D's diagonal. `perm[i]` is the row of A that ended up at
 * position i (`(PA)_i = A_{perm[i]}`), `blocks[k]` is 1 for a 1×1 block, 2 for the first row of a
 * 2×2 block and 0 for its second row. The kernels allocate nothing.
 *
 * @module
 */

/** Bunch–Kaufman's α = (1 + √17)/8 ≈ 0.6404: it bounds the element growth by (1 + 1/α)ⁿ⁻¹. */
const BK_ALPHA = (1 + Math.sqrt(17)) / 8;

/**
 * Factors the symmetric n×n matrix `a` (row-major at `off`, both triangles) in place as described
 * in the module comment, and adds its inertia to `inertia = [positive, negative, zero]`.
 *
 * A pivot counts as zero when its magnitude is at most max(`tol[0]`·r, `tol[1]`), where r is
 * the largest |entry| of the pivot's row in the original matrix (the scale of the rounding errors
 * that row can carry: a row-wise test keeps a badly scaled matrix, e.g. one with some huge diagonal
 * entries, from hiding the small but exact curvature of its other rows): a 1×1 pivot, or a
 * trailing column whose entries are all that small. Such a column is not eliminated (its L column
 * is set to zero), so the factorization still completes. Solving with a factorization that has
 * zero pivots is not allowed ({@link bunchKaufmanSolveInPlace} divides by them). `work` (length
 * ≥ n) is scratch for the row scales. The two tolerances come in an array because a computed
 * double passed as an argument is boxed (allocated) on every call.
 *
 * @returns the number of zero pivots (0 for a nonsingular matrix).
 *
 * @example
 * ```ts
 * const a = Float64Array.of(0, 1, 1, 0); // eigenvalues ±1
 * const perm = new Int32Array(2);
 * const blocks = new Int32Array(2);
 * const inertia = new Int32Array(3);
 * bunchKaufmanFactorInPlace(a, 2, perm, blocks, inertia, Float64Array.of(1e-12, 0), new Float64Array(2));
 * // one 2×2 pivot; inertia = [1, 1, 0]
 * ```
 */
export function bunchKaufmanFactorInPlace(
  a: Float64Array,
  n: number,
  perm: Int32Array,
  blocks: Int32Array,
  inertia: Int32Array,
  tol: Float64Array,
  work: Float64Array,
  off = 0,
  permOff = 0,
): number {
  const zeroRtol = tol[0]!;
  const zeroAbs = tol[1]!;
  for (let i = 0; i < n; i++) {
    perm[permOff + i] = i;
    let r = 0;
    for (let j = 0; j < n; j++) {
      const v = Math.abs(a[off + i * n + j]!);
      if (v > r) r = v;
    }
    work[i] = r;
  }
  let zeros = 0;
  let k = 0;
  while (k < n) {
    const rk = off + k * n;
    const akk = Math.abs(a[rk + k]!);
    const zeroTol = Math.max(zeroRtol * work[perm[permOff + k]!]!, zeroAbs);
    // largest off-diagonal entry of column k in the trailing matrix
    let imax = k;
    let colmax = 0;
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[off + i * n + k]!);
      if (v > colmax) {
        colmax = v;
        imax = i;
      }
    }
    if (akk <= zeroTol && colmax <= zeroTol) {
      // the whole trailing column is zero: a zero eigenvalue, nothing to eliminate
      for (let i = k + 1; i < n; i++) {
        a[off + i * n + k] = 0;
        a[rk + i] = 0;
      }
      blocks[permOff + k] = 1;
      zeros++;
      inertia[2]!++;
      k++;
      continue;
    }
    let size = 1;
    let kp = k;
    if (akk < BK_ALPHA * colmax) {
      // largest off-diagonal entry of row/column imax in the trailing matrix
      let rowmax = 0;
      const ri = off + imax * n;
      for (let j = k; j < n; j++) {
        if (j === imax) continue;
        const v = Math.abs(a[ri + j]!);
        if (v > rowmax) rowmax = v;
      }
      if (akk * rowmax >= BK_ALPHA * colmax * colmax) {
        kp = k;
      } else if (Math.abs(a[ri + imax]!) >= BK_ALPHA * rowmax) {
        kp = imax;
      } else {
        kp = imax;
        size = 2;
      }
    }
    const kk = k + size - 1;
    if (kp !== kk) {
      // symmetric swap of positions kk and kp (both ≥ k): rows kk, kp in full (their columns below
      // k are the L entries computed so far, which move with the rows), then columns kk, kp of the
      // rows ≥ k (the trailing matrix; rows above k keep only L and D below their diagonal).
      // Written out here rather than as a function: pivoting is rare, so a separate function
      // would stay unoptimized (allocating a number per element moved) long after this one is not
      const rp = off + kk * n;
      const rq = off + kp * n;
      for (let j = 0; j < n; j++) {
        const t = a[rp + j]!;
        a[rp + j] = a[rq + j]!;
        a[rq + j] = t;
      }
      for (let i = k; i < n; i++) {
        const ri = off + i * n;
        const t = a[ri + kk]!;
        a[ri + kk] = a[ri + kp]!;
        a[ri + kp] = t;
      }
      const t = perm[permOff + kk]!;
      perm[permOff + kk] = perm[permOff + kp]!;
      perm[permOff + kp] = t;
    }
    if (size === 1) {
      const d = a[rk + k]!;
      blocks[permOff + k] = 1;
      if (Math.abs(d) <= Math.max(zeroRtol * work[perm[permOff + k]!]!, zeroAbs)) {
        // a zero pivot whose column is not zero cannot occur with the rule above (|d| ≥ α·colmax
        // or the pivot is the larger diagonal): treat it like a zero column
        for (let i = k + 1; i < n; i++) {
          a[off + i * n + k] = 0;
          a[rk + i] = 0;
        }
        zeros++;
        inertia[2]!++;
        k++;
        continue;
      }
      if (d > 0) inertia[0]!++;
      else inertia[1]!++;
      // rank-1 update of the trailing matrix: A(i, j) −= A(i, k)·A(j, k)/d, both triangles
      for (let i = k + 1; i < n; i++) {
        const ri = off + i * n;
        const aik = a[ri + k]!;
        if (aik === 0) continue;
        const li = aik / d;
        for (let j = k + 1; j <= i; j++) {
          const v = a[ri + j]! - li * a[off + j * n + k]!;
          a[ri + j] = v;
          a[off + j * n + i] = v;
        }
      }
      for (let i = k + 1; i < n; i++) {
        const l = a[off + i * n + k]! / d;
        a[off + i * n + k] = l;
        a[rk + i] = l;
      }
      k++;
    } else {
      const rk1 = rk + n;
      const d11 = a[rk + k]!;
      const d21 = a[rk1 + k]!;
      const d22 = a[rk1 + k + 1]!;
      const det = d11 * d22 - d21 * d21;
      blocks[permOff + k] = 2;
      blocks[permOff + k + 1] = 0;
      // inertia of the 2×2 block from its determinant and trace
      if (det < 0) {
        inertia[0]!++;
        inertia[1]!++;
      } else if (det > 0) {
        if (d11 + d22 > 0) inertia[0]! += 2;
        else inertia[1]! += 2;
      } else {
        inertia[2]!++;
        if (d11 + d22 > 0) inertia[0]!++;
        else inertia[1]!++;
        zeros++;
      }
      // rank-2 update: A(i, j) −= [A(i,k) A(i,k+1)]·D⁻¹·[A(j,k) A(j,k+1)]ᵀ
      for (let i = k + 2; i < n; i++) {
        const ri = off + i * n;
        const w1 = a[ri + k]!;
        const w2 = a[ri + k + 1]!;
        const l1 = (w1 * d22 - w2 * d21) / det;
        const l2 = (w2 * d11 - w1 * d21) / det;
        for (let j = k + 2; j <= i; j++) {
          const rj = off + j * n;
          const v = a[ri + j]! - l1 * a[rj + k]! - l2 * a[rj + k + 1]!;
          a[ri + j] = v;
          a[rj + i] = v;
        }
      }
      for (let i = k + 2; i < n; i++) {
        const ri = off + i * n;
        const w1 = a[ri + k]!;
        const w2 = a[ri + k + 1]!;
        const l1 = (w1 * d22 - w2 * d21) / det;
        const l2 = (w2 * d11 - w1 * d21) / det;
        a[ri + k] = l1;
        a[ri + k + 1] = l2;
        a[rk + i] = l1;
        a[rk1 + i] = l2;
      }
      a[rk + k + 1] = d21;
      k += 2;
    }
  }
  return zeros;
}

/**
 * Solves `A x = b` in place (`b` becomes x, read and written at `bOff`) from the output of
 * {@link bunchKaufmanFactorInPlace}: `x = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b`. `work` (length ≥ n) is scratch.
 * Requires a factorization without zero pivots.
 *
 * @example
 * ```ts
 * const a = Float64Array.of(2, 1, 1, -3); // indefinite
 * const perm = new Int32Array(2);
 * const blocks = new Int32Array(2);
 * bunchKaufmanFactorInPlace(a, 2, perm, blocks, new Int32Array(3), Float64Array.of(1e-12, 0), new Float64Array(2));
 * const b = Float64Array.of(3, -2);
 * bunchKaufmanSolveInPlace(a, 2, perm, blocks, b, new Float64Array(2)); // b = [1, 1]
 * ```
 */
export function bunchKaufmanSolveInPlace(
  a: Float64Array,
  n: number,
  perm: Int32Array,
  blocks: Int32Array,
  b: Float64Array,
  work: Float64Array,
  off = 0,
  permOff = 0,
  bOff = 0,
): void {
  for (let i = 0; i < n; i++) work[i] = b[bOff + perm[permOff + i]!]!;
  // forward: L y = P b (skipping the D off-diagonals of 2×2 blocks)
  for (let j = 0; j < n; j++) {
    const yj = work[j]!;
    if (yj === 0) continue;
    const start = blocks[permOff + j] === 2 ? j + 2 : j + 1;
    for (let i = start; i < n; i++) work[i] = work[i]! - a[off + i * n + j]! * yj;
  }
  // D z = y
  for (let k = 0; k < n; ) {
    const rk = off + k * n;
    if (blocks[permOff + k] === 2) {
      const d11 = a[rk + k]!;
      const d21 = a[rk + n + k]!;
      const d22 = a[rk + n + k + 1]!;
      const det = d11 * d22 - d21 * d21;
      const y1 = work[k]!;
      const y2 = work[k + 1]!;
      work[k] = (d22 * y1 - d21 * y2) / det;
      work[k + 1] = (d11 * y2 - d21 * y1) / det;
      k += 2;
    } else {
      work[k] = work[k]! / a[rk + k]!;
      k++;
    }
  }
  // backward: Lᵀ w = z
  for (let j = n - 1; j >= 0; j--) {
    let s = work[j]!;
    const start = blocks[permOff + j] === 2 ? j + 2 : j + 1;
    for (let i = start; i < n; i++) s -= a[off + i * n + j]! * work[i]!;
    work[j] = s;
  }
  for (let i = 0; i < n; i++) b[bOff + perm[permOff + i]!] = work[i]!;
}

/**
 * Solves `A X = B` in place for `count` right-hand sides stored one after another (column j at
 * `bOff + j·n`), from the output of {@link bunchKaufmanFactorInPlace}; `work` (length ≥ n) is
 * scratch. The same as `count` calls of {@link bunchKaufmanSolveInPlace}, without the calls.
 *
 * @example
 * ```ts
 * const a = Float64Array.of(2, 1, 1, -3);
 * const perm = new Int32Array(2);
 * const blocks = new Int32Array(2);
 * bunchKaufmanFactorInPlace(a, 2, perm, blocks, new Int32Array(3), Float64Array.of(1e-12, 0), new Float64Array(2));
 * const B = Float64Array.of(3, -2, 2, 1); // two right-hand sides
 * bunchKaufmanSolveManyInPlace(a, 2, perm, blocks, B, new Float64Array(2), 2); // B = [1, 1, 1, 0]
 * ```
 */
export function bunchKaufmanSolveManyInPlace(
  a: Float64Array,
  n: number,
  perm: Int32Array,
  blocks: Int32Array,
  b: Float64Array,
  work: Float64Array,
  count: number,
  off = 0,
  permOff = 0,
  bOff = 0,
): void {
  for (let c = 0; c < count; c++) {
    const bo = bOff + c * n;
    for (let i = 0; i < n; i++) work[i] = b[bo + perm[permOff + i]!]!;
    for (let j = 0; j < n; j++) {
      const yj = work[j]!;
      if (yj === 0) continue;
      const start = blocks[permOff + j] === 2 ? j + 2 : j + 1;
      for (let i = start; i < n; i++) work[i] = work[i]! - a[off + i * n + j]! * yj;
    }
    for (let k = 0; k < n; ) {
      const rk = off + k * n;
      if (blocks[permOff + k] === 2) {
        const d11 = a[rk + k]!;
        const d21 = a[rk + n + k]!;
        const d22 = a[rk + n + k + 1]!;
        const det = d11 * d22 - d21 * d21;
        const y1 = work[k]!;
        const y2 = work[k + 1]!;
        work[k] = (d22 * y1 - d21 * y2) / det;
        work[k + 1] = (d11 * y2 - d21 * y1) / det;
        k += 2;
      } else {
        work[k] = work[k]! / a[rk + k]!;
        k++;
      }
    }
    for (let j = n - 1; j >= 0; j--) {
      let s = work[j]!;
      const start = blocks[permOff + j] === 2 ? j + 2 : j + 1;
      for (let i = start; i < n; i++) s -= a[off + i * n + j]! * work[i]!;
      work[j] = s;
    }
    for (let i = 0; i < n; i++) b[bo + perm[permOff + i]!] = work[i]!;
  }
}
