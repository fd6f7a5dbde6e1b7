/**
 * Allocation-free fixed-size kernels for 3×3 and 4×4 row-major matrices and 3-/4-vectors: the
 * arithmetic of rotations, rigid motions and quaternions in the hot loops.
 *
 * Conventions shared by every function here:
 * - a 3×3 matrix is 9 consecutive numbers, entry (i, j) at `off + 3*i + j`; a 4×4 matrix is 16,
 *   entry (i, j) at `off + 4*i + j`; vectors are 3 or 4 consecutive numbers;
 * - the output comes first (`mul3(out, a, b)`) and is returned; optional trailing offsets locate
 *   each operand inside a larger flat buffer, in argument order (`outOff`, then the inputs');
 * - **aliasing**: `out` may be the very same storage as any input (same array, same offset):
 *   `mul3(a, a, b)`, `mul3(b, a, b)`, `transpose3(a, a)`, `inv3(a, a)`, `solve3(b, a, b)` and
 *   `cross3(v, v, w)` are all fine, because each output entry is written only after every input
 *   entry it depends on has been read. Partially overlapping ranges (same array, different
 *   offsets that overlap) are not supported;
 * - nothing allocates: no arrays, no closures, no exceptions on the success path;
 * - the names say the shapes: `add3`/`sub3`/`scale3` act on 3×3 **matrices** (9 entries),
 *   `addVec3`/`subVec3`/`scaleVec3` on 3-vectors; `mulVec3` is matrix·vector, `mul3T` is A·Bᵀ,
 *   `mulT3` is Aᵀ·B.
 *
 * Inverses use the adjugate (`A⁻¹ = adj(A)/det A`, cofactors via 2×2 minors); linear solves use
 * Gaussian elimination with partial pivoting, which is backward stable, so prefer
 * `solve3(out, a, b)` to `mulVec3(out, inv3(tmp, a), b)`.
 *
 * @module
 */
import { NonFiniteError, SingularMatrixError } from '../errors.js';

/**
 * Scratch for {@link solve3} / {@link solve4} (a 4×4 matrix and a 4-vector) and the rescaled
 * retry of {@link inv3} / {@link inv4}. Safe because JS is single-threaded and nothing here calls
 * back into user code.
 */
const SOLVE_SCRATCH = new Float64Array(20);

/** Index of the first non-finite entry among `count` entries from `off`, or −1. */
function firstNonFinite(a: ArrayLike<number>, off: number, count: number): number {
  for (let i = 0; i < count; i++) if (!Number.isFinite(a[off + i]!)) return i;
  return -1;
}

/**
 * Throws the error that explains a failed solve: {@link NonFiniteError} when an entry of A or b is
 * NaN or infinite, else {@link SingularMatrixError} at `column` (−1 when x overflowed rather than
 * a pivot vanishing).
 */
function failSolve(
  what: string,
  a: ArrayLike<number>,
  aOff: number,
  count: number,
  column: number,
  b: ArrayLike<number>,
  bOff: number,
  bCount: number,
): never {
  const ia = firstNonFinite(a, aOff, count);
  if (ia >= 0) throw new NonFiniteError(`${what}: matrix`, ia);
  const ib = firstNonFinite(b, bOff, bCount);
  if (ib >= 0) throw new NonFiniteError(`${what}: right-hand side`, ib);
  throw new SingularMatrixError(what, column);
}

/**
 * Slow path of {@link inv3} / {@link inv4}, taken only when the direct adjugate failed: rejects
 * non-finite input, then retries on `A/s` with s a power of two near max|aᵢⱼ| (exact scaling),
 * since `det(A/s) = det A/sⁿ` no longer under- or overflows, and returns `(A/s)⁻¹/s`.
 */
function invRescaled(
  n: 3 | 4,
  out: Float64Array,
  a: ArrayLike<number>,
  outOff: number,
  aOff: number,
): Float64Array {
  const what = n === 3 ? 'inv3' : 'inv4';
  const nn = n * n;
  const bad = firstNonFinite(a, aOff, nn);
  if (bad >= 0) throw new NonFiniteError(`${what}: matrix`, bad);
  let big = 0;
  for (let i = 0; i < nn; i++) big = Math.max(big, Math.abs(a[aOff + i]!));
  if (big > 0) {
    const s = 2 ** Math.floor(Math.log2(big));
    const t = SOLVE_SCRATCH;
    for (let i = 0; i < nn; i++) t[i] = a[aOff + i]! / s;
    if (n === 3 ? inv3Core(out, t, outOff, 0) : inv4Core(out, t, outOff, 0)) {
      let finite = true;
      for (let i = 0; i < nn; i++) {
        const v = out[outOff + i]! / s;
        out[outOff + i] = v;
        if (!Number.isFinite(v)) finite = false;
      }
      if (finite) return out;
    }
  }
  throw new SingularMatrixError(what, -1);
}

/**
 * Solves `A·x = b` for n ≤ 4 by Gaussian elimination with partial pivoting in the module scratch.
 * Backward stable: the computed x solves `(A + ΔA)·x = b` with `|ΔA| ≲ 3n·u·|L||U|`.
 */
function solveSmall(
  n: number,
  what: string,
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff: number,
  aOff: number,
  bOff: number,
): Float64Array {
  const s = SOLVE_SCRATCH;
  const nn = n * n;
  for (let i = 0; i < nn; i++) s[i] = a[aOff + i]!;
  for (let i = 0; i < n; i++) s[16 + i] = b[bOff + i]!;
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(s[k * n + k]!);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(s[i * n + k]!);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (!(best > 0) || best === Number.POSITIVE_INFINITY) {
      failSolve(what, a, aOff, nn, k, b, bOff, n);
    }
    if (p !== k) {
      for (let j = k; j < n; j++) {
        const t = s[k * n + j]!;
        s[k * n + j] = s[p * n + j]!;
        s[p * n + j] = t;
      }
      const t = s[16 + k]!;
      s[16 + k] = s[16 + p]!;
      s[16 + p] = t;
    }
    const piv = s[k * n + k]!;
    for (let i = k + 1; i < n; i++) {
      const l = s[i * n + k]! / piv;
      if (l === 0) continue;
      for (let j = k + 1; j < n; j++) s[i * n + j] = s[i * n + j]! - l * s[k * n + j]!;
      s[16 + i] = s[16 + i]! - l * s[16 + k]!;
    }
  }
  let finite = true;
  for (let i = n - 1; i >= 0; i--) {
    let v = s[16 + i]!;
    for (let j = i + 1; j < n; j++) v -= s[i * n + j]! * s[16 + j]!;
    v /= s[i * n + i]!;
    s[16 + i] = v;
    if (!Number.isFinite(v)) finite = false;
  }
  if (!finite) failSolve(what, a, aOff, nn, -1, b, bOff, n);
  for (let i = 0; i < n; i++) out[outOff + i] = s[16 + i]!;
  return out;
}

// ---------------------------------------------------------------------------------------------
// 3×3 matrices and 3-vectors
// ---------------------------------------------------------------------------------------------

/**
 * out = I₃.
 *
 * @example
 * ```ts
 * identity3(new Float64Array(9)); // [1,0,0, 0,1,0, 0,0,1]
 * ```
 */
export function identity3(out: Float64Array, outOff = 0): Float64Array {
  out[outOff] = 1;
  out[outOff + 1] = 0;
  out[outOff + 2] = 0;
  out[outOff + 3] = 0;
  out[outOff + 4] = 1;
  out[outOff + 5] = 0;
  out[outOff + 6] = 0;
  out[outOff + 7] = 0;
  out[outOff + 8] = 1;
  return out;
}

/**
 * out = A·B (3×3), `out_ij = Σ_k a_ik·b_kj`. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const r = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const dr = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1);
 * mul3(r, r, dr); // r ← r·dr in place
 * r; // [-1, 0, 0, 0, -1, 0, 0, 0, 1]
 * ```
 */
export function mul3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a11 = a[aOff + 4]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a22 = a[aOff + 8]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b10 = b[bOff + 3]!;
  const b11 = b[bOff + 4]!;
  const b12 = b[bOff + 5]!;
  const b20 = b[bOff + 6]!;
  const b21 = b[bOff + 7]!;
  const b22 = b[bOff + 8]!;
  out[outOff] = a00 * b00 + a01 * b10 + a02 * b20;
  out[outOff + 1] = a00 * b01 + a01 * b11 + a02 * b21;
  out[outOff + 2] = a00 * b02 + a01 * b12 + a02 * b22;
  out[outOff + 3] = a10 * b00 + a11 * b10 + a12 * b20;
  out[outOff + 4] = a10 * b01 + a11 * b11 + a12 * b21;
  out[outOff + 5] = a10 * b02 + a11 * b12 + a12 * b22;
  out[outOff + 6] = a20 * b00 + a21 * b10 + a22 * b20;
  out[outOff + 7] = a20 * b01 + a21 * b11 + a22 * b21;
  out[outOff + 8] = a20 * b02 + a21 * b12 + a22 * b22;
  return out;
}

/**
 * out = A·Bᵀ (3×3), `out_ij = Σ_k a_ik·b_jk`. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const r1 = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const r2 = Float64Array.of(-1, 0, 0, 0, -1, 0, 0, 0, 1); // 180° about z
 * const rel = new Float64Array(9);
 * mul3T(rel, r2, r1); // R₂·R₁ᵀ, the rotation from frame 1 to frame 2
 * rel; // [0, -1, 0, 1, 0, 0, 0, 0, 1]
 * ```
 */
export function mul3T(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a11 = a[aOff + 4]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a22 = a[aOff + 8]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b10 = b[bOff + 3]!;
  const b11 = b[bOff + 4]!;
  const b12 = b[bOff + 5]!;
  const b20 = b[bOff + 6]!;
  const b21 = b[bOff + 7]!;
  const b22 = b[bOff + 8]!;
  out[outOff] = a00 * b00 + a01 * b01 + a02 * b02;
  out[outOff + 1] = a00 * b10 + a01 * b11 + a02 * b12;
  out[outOff + 2] = a00 * b20 + a01 * b21 + a02 * b22;
  out[outOff + 3] = a10 * b00 + a11 * b01 + a12 * b02;
  out[outOff + 4] = a10 * b10 + a11 * b11 + a12 * b12;
  out[outOff + 5] = a10 * b20 + a11 * b21 + a12 * b22;
  out[outOff + 6] = a20 * b00 + a21 * b01 + a22 * b02;
  out[outOff + 7] = a20 * b10 + a21 * b11 + a22 * b12;
  out[outOff + 8] = a20 * b20 + a21 * b21 + a22 * b22;
  return out;
}

/**
 * out = Aᵀ·B (3×3), `out_ij = Σ_k a_ki·b_kj`. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const r1 = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const r2 = Float64Array.of(-1, 0, 0, 0, -1, 0, 0, 0, 1); // 180° about z
 * const between = new Float64Array(9);
 * mulT3(between, r1, r2); // R₁ᵀ·R₂ = R₁⁻¹·R₂ for rotations
 * between; // [0, -1, 0, 1, 0, 0, 0, 0, 1]
 * ```
 */
export function mulT3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a11 = a[aOff + 4]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a22 = a[aOff + 8]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b10 = b[bOff + 3]!;
  const b11 = b[bOff + 4]!;
  const b12 = b[bOff + 5]!;
  const b20 = b[bOff + 6]!;
  const b21 = b[bOff + 7]!;
  const b22 = b[bOff + 8]!;
  out[outOff] = a00 * b00 + a10 * b10 + a20 * b20;
  out[outOff + 1] = a00 * b01 + a10 * b11 + a20 * b21;
  out[outOff + 2] = a00 * b02 + a10 * b12 + a20 * b22;
  out[outOff + 3] = a01 * b00 + a11 * b10 + a21 * b20;
  out[outOff + 4] = a01 * b01 + a11 * b11 + a21 * b21;
  out[outOff + 5] = a01 * b02 + a11 * b12 + a21 * b22;
  out[outOff + 6] = a02 * b00 + a12 * b10 + a22 * b20;
  out[outOff + 7] = a02 * b01 + a12 * b11 + a22 * b21;
  out[outOff + 8] = a02 * b02 + a12 * b12 + a22 * b22;
  return out;
}

/**
 * out = A·v (3×3 times 3-vector), `out_i = Σ_j a_ij·v_j`. `out` may alias `v`.
 *
 * @example
 * ```ts
 * const rot = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const p = Float64Array.of(1, 0, 0);
 * mulVec3(p, rot, p); // rotate p in place
 * p; // [0, 1, 0]
 * ```
 */
export function mulVec3(
  out: Float64Array,
  a: ArrayLike<number>,
  v: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  vOff = 0,
): Float64Array {
  const v0 = v[vOff]!;
  const v1 = v[vOff + 1]!;
  const v2 = v[vOff + 2]!;
  const r0 = a[aOff]! * v0 + a[aOff + 1]! * v1 + a[aOff + 2]! * v2;
  const r1 = a[aOff + 3]! * v0 + a[aOff + 4]! * v1 + a[aOff + 5]! * v2;
  const r2 = a[aOff + 6]! * v0 + a[aOff + 7]! * v1 + a[aOff + 8]! * v2;
  out[outOff] = r0;
  out[outOff + 1] = r1;
  out[outOff + 2] = r2;
  return out;
}

/**
 * out = Aᵀ·v (3×3 transposed times 3-vector), `out_j = Σ_i a_ij·v_i`. `out` may alias `v`.
 *
 * @example
 * ```ts
 * const rot = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const world = Float64Array.of(0, 1, 0);
 * const body = new Float64Array(3);
 * mulTVec3(body, rot, world); // Rᵀ·w: world → body frame
 * body; // [1, 0, 0]
 * ```
 */
export function mulTVec3(
  out: Float64Array,
  a: ArrayLike<number>,
  v: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  vOff = 0,
): Float64Array {
  const v0 = v[vOff]!;
  const v1 = v[vOff + 1]!;
  const v2 = v[vOff + 2]!;
  const r0 = a[aOff]! * v0 + a[aOff + 3]! * v1 + a[aOff + 6]! * v2;
  const r1 = a[aOff + 1]! * v0 + a[aOff + 4]! * v1 + a[aOff + 7]! * v2;
  const r2 = a[aOff + 2]! * v0 + a[aOff + 5]! * v1 + a[aOff + 8]! * v2;
  out[outOff] = r0;
  out[outOff + 1] = r1;
  out[outOff + 2] = r2;
  return out;
}

/**
 * out = Aᵀ (3×3). In place (`transpose3(a, a)`) is fine.
 *
 * @example
 * ```ts
 * const r = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1); // 90° about z
 * const rInv = new Float64Array(9);
 * transpose3(rInv, r); // the inverse of a rotation
 * rInv; // [0, 1, 0, -1, 0, 0, 0, 0, 1]
 * ```
 */
export function transpose3(
  out: Float64Array,
  a: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
): Float64Array {
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a00 = a[aOff]!;
  const a11 = a[aOff + 4]!;
  const a22 = a[aOff + 8]!;
  out[outOff] = a00;
  out[outOff + 1] = a10;
  out[outOff + 2] = a20;
  out[outOff + 3] = a01;
  out[outOff + 4] = a11;
  out[outOff + 5] = a21;
  out[outOff + 6] = a02;
  out[outOff + 7] = a12;
  out[outOff + 8] = a22;
  return out;
}

/**
 * det A (3×3) by cofactor expansion along the first row:
 * `a00(a11a22 − a12a21) − a01(a10a22 − a12a20) + a02(a10a21 − a11a20)`.
 *
 * @example
 * ```ts
 * det3(Float64Array.of(2, 0, 0, 0, 3, 0, 0, 0, 4)); // 24
 * ```
 */
export function det3(a: ArrayLike<number>, aOff = 0): number {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a11 = a[aOff + 4]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a22 = a[aOff + 8]!;
  return (
    a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20)
  );
}

/**
 * out = A⁻¹ (3×3) = adj(A)/det A. `out` may alias `a`. The error is about κ(A)·u relative; for
 * solving a system prefer {@link solve3}.
 *
 * @throws SingularMatrixError (column −1) when A is singular to working precision: det A is 0 or
 *   not finite, or 1/det A overflows, even after rescaling A by a power of two (so badly scaled
 *   but well-conditioned matrices such as 1e−200·I are inverted), or A⁻¹ overflows. The contents
 *   of `out` are unspecified after a throw.
 * @throws NonFiniteError when an entry of A is NaN or infinite.
 *
 * @example
 * ```ts
 * const out = new Float64Array(9);
 * inv3(out, Float64Array.of(2, 0, 0, 0, 4, 0, 0, 0, 8)); // [0.5, 0, 0, 0, 0.25, 0, 0, 0, 0.125]
 * ```
 */
export function inv3(out: Float64Array, a: ArrayLike<number>, outOff = 0, aOff = 0): Float64Array {
  if (inv3Core(out, a, outOff, aOff)) return out;
  return invRescaled(3, out, a, outOff, aOff);
}

/** adj(A)/det A into `out`; false (and `out` untouched) when det is 0 or 1/det is not finite. */
function inv3Core(out: Float64Array, a: ArrayLike<number>, outOff: number, aOff: number): boolean {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a10 = a[aOff + 3]!;
  const a11 = a[aOff + 4]!;
  const a12 = a[aOff + 5]!;
  const a20 = a[aOff + 6]!;
  const a21 = a[aOff + 7]!;
  const a22 = a[aOff + 8]!;
  const c00 = a11 * a22 - a12 * a21;
  const c01 = a12 * a20 - a10 * a22;
  const c02 = a10 * a21 - a11 * a20;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  const id = 1 / det;
  if (det === 0 || !Number.isFinite(det) || !Number.isFinite(id)) return false;
  out[outOff] = c00 * id;
  out[outOff + 1] = (a02 * a21 - a01 * a22) * id;
  out[outOff + 2] = (a01 * a12 - a02 * a11) * id;
  out[outOff + 3] = c01 * id;
  out[outOff + 4] = (a00 * a22 - a02 * a20) * id;
  out[outOff + 5] = (a02 * a10 - a00 * a12) * id;
  out[outOff + 6] = c02 * id;
  out[outOff + 7] = (a01 * a20 - a00 * a21) * id;
  out[outOff + 8] = (a00 * a11 - a01 * a10) * id;
  return true;
}

/**
 * Solves `A·x = b` (A 3×3, b a 3-vector) by Gaussian elimination with partial pivoting; writes x
 * into `out`, which may alias `b` (or `a`).
 *
 * @throws SingularMatrixError when a pivot is exactly 0 (column = that step) or x overflows
 *   (column −1).
 * @throws NonFiniteError when A or b has a NaN or infinite entry.
 *
 * @example
 * ```ts
 * const x = new Float64Array(3);
 * solve3(x, Float64Array.of(2, 0, 0, 0, 4, 0, 0, 0, 8), Float64Array.of(2, 4, 8)); // [1, 1, 1]
 * ```
 */
export function solve3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return solveSmall(3, 'solve3', out, a, b, outOff, aOff, bOff);
}

/**
 * out = A + B, entrywise on 3×3 **matrices** (9 entries; for 3-vectors use {@link addVec3}).
 * `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const m = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
 * const k = Float64Array.of(0, 2, 0, 0, 0, 0, 0, 0, 0);
 * add3(m, m, k); // M ← M + K
 * m; // [1, 2, 0, 0, 1, 0, 0, 0, 1]
 * ```
 */
export function add3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return addN(9, out, a, b, outOff, aOff, bOff);
}

/** out = A − B, entrywise on 3×3 matrices. `out` may alias `a` and/or `b`. Example: `sub3(d, a, b)`. */
export function sub3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return subN(9, out, a, b, outOff, aOff, bOff);
}

/**
 * out = s·A on a 3×3 **matrix** (for 3-vectors use {@link scaleVec3}). `out` may alias `a`.
 *
 * @example
 * ```ts
 * const theta = Math.PI / 2;
 * const k = Float64Array.of(0, -theta, 0, theta, 0, 0, 0, 0, 0); // θ·ẑ^
 * scale3(k, k, Math.sin(theta) / theta);
 * k[3]; // 1 = sin θ
 * ```
 */
export function scale3(
  out: Float64Array,
  a: ArrayLike<number>,
  s: number,
  outOff = 0,
  aOff = 0,
): Float64Array {
  return scaleN(9, out, a, s, outOff, aOff);
}

/** out = a + b on 3-vectors. `out` may alias `a` and/or `b`. Example: `addVec3(p, p, dp)`. */
export function addVec3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return addN(3, out, a, b, outOff, aOff, bOff);
}

/** out = a − b on 3-vectors. `out` may alias `a` and/or `b`. Example: `subVec3(d, q2, q1)`. */
export function subVec3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return subN(3, out, a, b, outOff, aOff, bOff);
}

/** out = s·a on 3-vectors. `out` may alias `a`. Example: `scaleVec3(v, v, 0.5 * h)`. */
export function scaleVec3(
  out: Float64Array,
  a: ArrayLike<number>,
  s: number,
  outOff = 0,
  aOff = 0,
): Float64Array {
  return scaleN(3, out, a, s, outOff, aOff);
}

/**
 * a·b = Σ aᵢbᵢ on 3-vectors.
 *
 * @example
 * ```ts
 * dot3(Float64Array.of(1, 2, 3), Float64Array.of(4, 5, 6)); // 32
 * ```
 */
export function dot3(a: ArrayLike<number>, b: ArrayLike<number>, aOff = 0, bOff = 0): number {
  return a[aOff]! * b[bOff]! + a[aOff + 1]! * b[bOff + 1]! + a[aOff + 2]! * b[bOff + 2]!;
}

/**
 * out = a × b = (a₁b₂ − a₂b₁, a₂b₀ − a₀b₂, a₀b₁ − a₁b₀) = â·b. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const out = new Float64Array(3);
 * cross3(out, Float64Array.of(1, 0, 0), Float64Array.of(0, 1, 0)); // [0, 0, 1]
 * ```
 */
export function cross3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a0 = a[aOff]!;
  const a1 = a[aOff + 1]!;
  const a2 = a[aOff + 2]!;
  const b0 = b[bOff]!;
  const b1 = b[bOff + 1]!;
  const b2 = b[bOff + 2]!;
  out[outOff] = a1 * b2 - a2 * b1;
  out[outOff + 1] = a2 * b0 - a0 * b2;
  out[outOff + 2] = a0 * b1 - a1 * b0;
  return out;
}

/**
 * ‖a‖₂ = √(a·a) on a 3-vector, unscaled for speed: accurate to a few u while ‖a‖ lies in about
 * [1e−154, 1e154]; beyond that the squares over- or underflow (use `norm2` from `matrix.ts`).
 *
 * @example
 * ```ts
 * norm3(Float64Array.of(2, 3, 6)); // 7
 * ```
 */
export function norm3(a: ArrayLike<number>, aOff = 0): number {
  const a0 = a[aOff]!;
  const a1 = a[aOff + 1]!;
  const a2 = a[aOff + 2]!;
  return Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2);
}

/**
 * out[outOff] ← ‖(a₀, a₁, a₂)‖₂ (from a[aOff]) with the same bits as `Math.hypot(a₀, a₁, a₂)` in
 * V8 (Node's engine), scaled against over- and underflow like it, without its allocation: V8's
 * builtin copies its arguments into a fresh array on every call (about 100 B). Array in, array
 * out: a double passed to or returned from a call V8 does not inline is boxed (16 B). The
 * algorithm of V8's `MathHypot`: m = max |aᵢ|; ∞ if an entry is ±∞, else NaN if one is NaN, else 0
 * if m = 0; otherwise √(Σ (|aᵢ|/m)²)·m, the sum in Kahan's compensated order. Returns `out`.
 *
 * @example
 * ```ts
 * const out = new Float64Array(1);
 * hypot3(out, 0, Float64Array.of(2, 3, 6)); // [7]
 * hypot3(out, 0, [1e200, 1e200, 0])[0] === Math.hypot(1e200, 1e200, 0); // true (no overflow)
 * ```
 */
export function hypot3(
  out: Float64Array,
  outOff: number,
  a: ArrayLike<number>,
  aOff = 0,
): Float64Array {
  const x = Math.abs(a[aOff]!);
  const y = Math.abs(a[aOff + 1]!);
  const z = Math.abs(a[aOff + 2]!);
  if (
    x === Number.POSITIVE_INFINITY ||
    y === Number.POSITIVE_INFINITY ||
    z === Number.POSITIVE_INFINITY
  ) {
    out[outOff] = Number.POSITIVE_INFINITY;
    return out;
  }
  if (Number.isNaN(x) || Number.isNaN(y) || Number.isNaN(z)) {
    out[outOff] = Number.NaN;
    return out;
  }
  let m = x;
  if (m < y) m = y;
  if (m < z) m = z;
  if (m === 0) {
    out[outOff] = 0;
    return out;
  }
  // Kahan's sum of (x/m)², (y/m)², (z/m)²: the first term is exact (compensation 0)
  const nx = x / m;
  const ny = y / m;
  const nz = z / m;
  const s1 = nx * nx + ny * ny;
  const compensation = s1 - nx * nx - ny * ny;
  const summand = nz * nz - compensation;
  out[outOff] = Math.sqrt(s1 + summand) * m;
  return out;
}

/**
 * out = a·bᵀ (3×3 outer product), `out_ij = aᵢ·bⱼ`. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const n = Float64Array.of(0, 0, 1);
 * const p = new Float64Array(9);
 * outer3(p, n, n); // n·nᵀ, the projector onto a unit normal n
 * p; // [0, 0, 0, 0, 0, 0, 0, 0, 1]
 * ```
 */
export function outer3(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a0 = a[aOff]!;
  const a1 = a[aOff + 1]!;
  const a2 = a[aOff + 2]!;
  const b0 = b[bOff]!;
  const b1 = b[bOff + 1]!;
  const b2 = b[bOff + 2]!;
  out[outOff] = a0 * b0;
  out[outOff + 1] = a0 * b1;
  out[outOff + 2] = a0 * b2;
  out[outOff + 3] = a1 * b0;
  out[outOff + 4] = a1 * b1;
  out[outOff + 5] = a1 * b2;
  out[outOff + 6] = a2 * b0;
  out[outOff + 7] = a2 * b1;
  out[outOff + 8] = a2 * b2;
  return out;
}

// ---------------------------------------------------------------------------------------------
// 4×4 matrices and 4-vectors
// ---------------------------------------------------------------------------------------------

/** out = I₄. Example: `identity4(new Float64Array(16))`. */
export function identity4(out: Float64Array, outOff = 0): Float64Array {
  for (let i = 0; i < 16; i++) out[outOff + i] = i % 5 === 0 ? 1 : 0;
  return out;
}

/**
 * out = A·B (4×4), `out_ij = Σ_k a_ik·b_kj`. `out` may alias `a` and/or `b`.
 *
 * @example
 * ```ts
 * const pose = identity4(new Float64Array(16));
 * const step = Float64Array.of(1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1); // move 0.5 along x
 * mul4(pose, pose, step); // homogeneous transforms: T ← T·ΔT
 * pose[3]; // 0.5
 * ```
 */
export function mul4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a10 = a[aOff + 4]!;
  const a11 = a[aOff + 5]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a20 = a[aOff + 8]!;
  const a21 = a[aOff + 9]!;
  const a22 = a[aOff + 10]!;
  const a23 = a[aOff + 11]!;
  const a30 = a[aOff + 12]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  const a33 = a[aOff + 15]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b03 = b[bOff + 3]!;
  const b10 = b[bOff + 4]!;
  const b11 = b[bOff + 5]!;
  const b12 = b[bOff + 6]!;
  const b13 = b[bOff + 7]!;
  const b20 = b[bOff + 8]!;
  const b21 = b[bOff + 9]!;
  const b22 = b[bOff + 10]!;
  const b23 = b[bOff + 11]!;
  const b30 = b[bOff + 12]!;
  const b31 = b[bOff + 13]!;
  const b32 = b[bOff + 14]!;
  const b33 = b[bOff + 15]!;
  out[outOff] = a00 * b00 + a01 * b10 + a02 * b20 + a03 * b30;
  out[outOff + 1] = a00 * b01 + a01 * b11 + a02 * b21 + a03 * b31;
  out[outOff + 2] = a00 * b02 + a01 * b12 + a02 * b22 + a03 * b32;
  out[outOff + 3] = a00 * b03 + a01 * b13 + a02 * b23 + a03 * b33;
  out[outOff + 4] = a10 * b00 + a11 * b10 + a12 * b20 + a13 * b30;
  out[outOff + 5] = a10 * b01 + a11 * b11 + a12 * b21 + a13 * b31;
  out[outOff + 6] = a10 * b02 + a11 * b12 + a12 * b22 + a13 * b32;
  out[outOff + 7] = a10 * b03 + a11 * b13 + a12 * b23 + a13 * b33;
  out[outOff + 8] = a20 * b00 + a21 * b10 + a22 * b20 + a23 * b30;
  out[outOff + 9] = a20 * b01 + a21 * b11 + a22 * b21 + a23 * b31;
  out[outOff + 10] = a20 * b02 + a21 * b12 + a22 * b22 + a23 * b32;
  out[outOff + 11] = a20 * b03 + a21 * b13 + a22 * b23 + a23 * b33;
  out[outOff + 12] = a30 * b00 + a31 * b10 + a32 * b20 + a33 * b30;
  out[outOff + 13] = a30 * b01 + a31 * b11 + a32 * b21 + a33 * b31;
  out[outOff + 14] = a30 * b02 + a31 * b12 + a32 * b22 + a33 * b32;
  out[outOff + 15] = a30 * b03 + a31 * b13 + a32 * b23 + a33 * b33;
  return out;
}

/** out = A·Bᵀ (4×4), `out_ij = Σ_k a_ik·b_jk`. `out` may alias `a` and/or `b`. Example: `mul4T(g, a, a)`. */
export function mul4T(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a10 = a[aOff + 4]!;
  const a11 = a[aOff + 5]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a20 = a[aOff + 8]!;
  const a21 = a[aOff + 9]!;
  const a22 = a[aOff + 10]!;
  const a23 = a[aOff + 11]!;
  const a30 = a[aOff + 12]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  const a33 = a[aOff + 15]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b03 = b[bOff + 3]!;
  const b10 = b[bOff + 4]!;
  const b11 = b[bOff + 5]!;
  const b12 = b[bOff + 6]!;
  const b13 = b[bOff + 7]!;
  const b20 = b[bOff + 8]!;
  const b21 = b[bOff + 9]!;
  const b22 = b[bOff + 10]!;
  const b23 = b[bOff + 11]!;
  const b30 = b[bOff + 12]!;
  const b31 = b[bOff + 13]!;
  const b32 = b[bOff + 14]!;
  const b33 = b[bOff + 15]!;
  out[outOff] = a00 * b00 + a01 * b01 + a02 * b02 + a03 * b03;
  out[outOff + 1] = a00 * b10 + a01 * b11 + a02 * b12 + a03 * b13;
  out[outOff + 2] = a00 * b20 + a01 * b21 + a02 * b22 + a03 * b23;
  out[outOff + 3] = a00 * b30 + a01 * b31 + a02 * b32 + a03 * b33;
  out[outOff + 4] = a10 * b00 + a11 * b01 + a12 * b02 + a13 * b03;
  out[outOff + 5] = a10 * b10 + a11 * b11 + a12 * b12 + a13 * b13;
  out[outOff + 6] = a10 * b20 + a11 * b21 + a12 * b22 + a13 * b23;
  out[outOff + 7] = a10 * b30 + a11 * b31 + a12 * b32 + a13 * b33;
  out[outOff + 8] = a20 * b00 + a21 * b01 + a22 * b02 + a23 * b03;
  out[outOff + 9] = a20 * b10 + a21 * b11 + a22 * b12 + a23 * b13;
  out[outOff + 10] = a20 * b20 + a21 * b21 + a22 * b22 + a23 * b23;
  out[outOff + 11] = a20 * b30 + a21 * b31 + a22 * b32 + a23 * b33;
  out[outOff + 12] = a30 * b00 + a31 * b01 + a32 * b02 + a33 * b03;
  out[outOff + 13] = a30 * b10 + a31 * b11 + a32 * b12 + a33 * b13;
  out[outOff + 14] = a30 * b20 + a31 * b21 + a32 * b22 + a33 * b23;
  out[outOff + 15] = a30 * b30 + a31 * b31 + a32 * b32 + a33 * b33;
  return out;
}

/** out = Aᵀ·B (4×4), `out_ij = Σ_k a_ki·b_kj`. `out` may alias `a` and/or `b`. Example: `mulT4(g, a, a)`. */
export function mulT4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a10 = a[aOff + 4]!;
  const a11 = a[aOff + 5]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a20 = a[aOff + 8]!;
  const a21 = a[aOff + 9]!;
  const a22 = a[aOff + 10]!;
  const a23 = a[aOff + 11]!;
  const a30 = a[aOff + 12]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  const a33 = a[aOff + 15]!;
  const b00 = b[bOff]!;
  const b01 = b[bOff + 1]!;
  const b02 = b[bOff + 2]!;
  const b03 = b[bOff + 3]!;
  const b10 = b[bOff + 4]!;
  const b11 = b[bOff + 5]!;
  const b12 = b[bOff + 6]!;
  const b13 = b[bOff + 7]!;
  const b20 = b[bOff + 8]!;
  const b21 = b[bOff + 9]!;
  const b22 = b[bOff + 10]!;
  const b23 = b[bOff + 11]!;
  const b30 = b[bOff + 12]!;
  const b31 = b[bOff + 13]!;
  const b32 = b[bOff + 14]!;
  const b33 = b[bOff + 15]!;
  out[outOff] = a00 * b00 + a10 * b10 + a20 * b20 + a30 * b30;
  out[outOff + 1] = a00 * b01 + a10 * b11 + a20 * b21 + a30 * b31;
  out[outOff + 2] = a00 * b02 + a10 * b12 + a20 * b22 + a30 * b32;
  out[outOff + 3] = a00 * b03 + a10 * b13 + a20 * b23 + a30 * b33;
  out[outOff + 4] = a01 * b00 + a11 * b10 + a21 * b20 + a31 * b30;
  out[outOff + 5] = a01 * b01 + a11 * b11 + a21 * b21 + a31 * b31;
  out[outOff + 6] = a01 * b02 + a11 * b12 + a21 * b22 + a31 * b32;
  out[outOff + 7] = a01 * b03 + a11 * b13 + a21 * b23 + a31 * b33;
  out[outOff + 8] = a02 * b00 + a12 * b10 + a22 * b20 + a32 * b30;
  out[outOff + 9] = a02 * b01 + a12 * b11 + a22 * b21 + a32 * b31;
  out[outOff + 10] = a02 * b02 + a12 * b12 + a22 * b22 + a32 * b32;
  out[outOff + 11] = a02 * b03 + a12 * b13 + a22 * b23 + a32 * b33;
  out[outOff + 12] = a03 * b00 + a13 * b10 + a23 * b20 + a33 * b30;
  out[outOff + 13] = a03 * b01 + a13 * b11 + a23 * b21 + a33 * b31;
  out[outOff + 14] = a03 * b02 + a13 * b12 + a23 * b22 + a33 * b32;
  out[outOff + 15] = a03 * b03 + a13 * b13 + a23 * b23 + a33 * b33;
  return out;
}

/**
 * out = A·v (4×4 times 4-vector). `out` may alias `v`.
 *
 * @example
 * ```ts
 * const pose = Float64Array.of(1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1); // translation (0.5, 0, 0)
 * const [x, y, z] = [1, 2, 3];
 * const ph = new Float64Array(4);
 * mulVec4(ph, pose, Float64Array.of(x, y, z, 1)); // transform a point in homogeneous form
 * ph; // [1.5, 2, 3, 1]
 * ```
 */
export function mulVec4(
  out: Float64Array,
  a: ArrayLike<number>,
  v: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  vOff = 0,
): Float64Array {
  const v0 = v[vOff]!;
  const v1 = v[vOff + 1]!;
  const v2 = v[vOff + 2]!;
  const v3 = v[vOff + 3]!;
  const r0 = a[aOff]! * v0 + a[aOff + 1]! * v1 + a[aOff + 2]! * v2 + a[aOff + 3]! * v3;
  const r1 = a[aOff + 4]! * v0 + a[aOff + 5]! * v1 + a[aOff + 6]! * v2 + a[aOff + 7]! * v3;
  const r2 = a[aOff + 8]! * v0 + a[aOff + 9]! * v1 + a[aOff + 10]! * v2 + a[aOff + 11]! * v3;
  const r3 = a[aOff + 12]! * v0 + a[aOff + 13]! * v1 + a[aOff + 14]! * v2 + a[aOff + 15]! * v3;
  out[outOff] = r0;
  out[outOff + 1] = r1;
  out[outOff + 2] = r2;
  out[outOff + 3] = r3;
  return out;
}

/** out = Aᵀ·v (4×4 transposed times 4-vector). `out` may alias `v`. Example: `mulTVec4(w, a, v)`. */
export function mulTVec4(
  out: Float64Array,
  a: ArrayLike<number>,
  v: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  vOff = 0,
): Float64Array {
  const v0 = v[vOff]!;
  const v1 = v[vOff + 1]!;
  const v2 = v[vOff + 2]!;
  const v3 = v[vOff + 3]!;
  const r0 = a[aOff]! * v0 + a[aOff + 4]! * v1 + a[aOff + 8]! * v2 + a[aOff + 12]! * v3;
  const r1 = a[aOff + 1]! * v0 + a[aOff + 5]! * v1 + a[aOff + 9]! * v2 + a[aOff + 13]! * v3;
  const r2 = a[aOff + 2]! * v0 + a[aOff + 6]! * v1 + a[aOff + 10]! * v2 + a[aOff + 14]! * v3;
  const r3 = a[aOff + 3]! * v0 + a[aOff + 7]! * v1 + a[aOff + 11]! * v2 + a[aOff + 15]! * v3;
  out[outOff] = r0;
  out[outOff + 1] = r1;
  out[outOff + 2] = r2;
  out[outOff + 3] = r3;
  return out;
}

/** out = Aᵀ (4×4). In place (`transpose4(a, a)`) is fine. Example: `transpose4(at, a)`. */
export function transpose4(
  out: Float64Array,
  a: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
): Float64Array {
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a23 = a[aOff + 11]!;
  const a10 = a[aOff + 4]!;
  const a20 = a[aOff + 8]!;
  const a30 = a[aOff + 12]!;
  const a21 = a[aOff + 9]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  out[outOff] = a[aOff]!;
  out[outOff + 5] = a[aOff + 5]!;
  out[outOff + 10] = a[aOff + 10]!;
  out[outOff + 15] = a[aOff + 15]!;
  out[outOff + 1] = a10;
  out[outOff + 2] = a20;
  out[outOff + 3] = a30;
  out[outOff + 4] = a01;
  out[outOff + 6] = a21;
  out[outOff + 7] = a31;
  out[outOff + 8] = a02;
  out[outOff + 9] = a12;
  out[outOff + 11] = a32;
  out[outOff + 12] = a03;
  out[outOff + 13] = a13;
  out[outOff + 14] = a23;
  return out;
}

/**
 * det A (4×4) by the Laplace expansion in complementary 2×2 minors of the top and bottom row
 * pairs: `det = Σ ± det(A[01, jk])·det(A[23, complement of jk])` (six terms).
 *
 * @example
 * ```ts
 * det4(identity4(new Float64Array(16))); // 1
 * ```
 */
export function det4(a: ArrayLike<number>, aOff = 0): number {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a10 = a[aOff + 4]!;
  const a11 = a[aOff + 5]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a20 = a[aOff + 8]!;
  const a21 = a[aOff + 9]!;
  const a22 = a[aOff + 10]!;
  const a23 = a[aOff + 11]!;
  const a30 = a[aOff + 12]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  const a33 = a[aOff + 15]!;
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  return b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
}

/**
 * out = A⁻¹ (4×4) = adj(A)/det A, with the cofactors assembled from the twelve 2×2 minors of
 * {@link det4}. `out` may alias `a`. Error about κ(A)·u relative; to solve a system prefer
 * {@link solve4}.
 *
 * @throws SingularMatrixError (column −1) when A is singular to working precision: det A is 0 or
 *   not finite, or 1/det A overflows, even after rescaling A by a power of two (so badly scaled
 *   but well-conditioned matrices such as 1e−200·I are inverted), or A⁻¹ overflows. The contents
 *   of `out` are unspecified after a throw.
 * @throws NonFiniteError when an entry of A is NaN or infinite.
 *
 * @example
 * ```ts
 * const pose = Float64Array.of(1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1); // translation (0.5, 0, 0)
 * const tInv = new Float64Array(16);
 * inv4(tInv, pose); // inverse of a homogeneous transform
 * tInv[3]; // -0.5
 * ```
 */
export function inv4(out: Float64Array, a: ArrayLike<number>, outOff = 0, aOff = 0): Float64Array {
  if (inv4Core(out, a, outOff, aOff)) return out;
  return invRescaled(4, out, a, outOff, aOff);
}

/** adj(A)/det A into `out`; false (and `out` untouched) when det is 0 or 1/det is not finite. */
function inv4Core(out: Float64Array, a: ArrayLike<number>, outOff: number, aOff: number): boolean {
  const a00 = a[aOff]!;
  const a01 = a[aOff + 1]!;
  const a02 = a[aOff + 2]!;
  const a03 = a[aOff + 3]!;
  const a10 = a[aOff + 4]!;
  const a11 = a[aOff + 5]!;
  const a12 = a[aOff + 6]!;
  const a13 = a[aOff + 7]!;
  const a20 = a[aOff + 8]!;
  const a21 = a[aOff + 9]!;
  const a22 = a[aOff + 10]!;
  const a23 = a[aOff + 11]!;
  const a30 = a[aOff + 12]!;
  const a31 = a[aOff + 13]!;
  const a32 = a[aOff + 14]!;
  const a33 = a[aOff + 15]!;
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  const id = 1 / det;
  if (det === 0 || !Number.isFinite(det) || !Number.isFinite(id)) return false;
  out[outOff] = (a11 * b11 - a12 * b10 + a13 * b09) * id;
  out[outOff + 1] = (a02 * b10 - a01 * b11 - a03 * b09) * id;
  out[outOff + 2] = (a31 * b05 - a32 * b04 + a33 * b03) * id;
  out[outOff + 3] = (a22 * b04 - a21 * b05 - a23 * b03) * id;
  out[outOff + 4] = (a12 * b08 - a10 * b11 - a13 * b07) * id;
  out[outOff + 5] = (a00 * b11 - a02 * b08 + a03 * b07) * id;
  out[outOff + 6] = (a32 * b02 - a30 * b05 - a33 * b01) * id;
  out[outOff + 7] = (a20 * b05 - a22 * b02 + a23 * b01) * id;
  out[outOff + 8] = (a10 * b10 - a11 * b08 + a13 * b06) * id;
  out[outOff + 9] = (a01 * b08 - a00 * b10 - a03 * b06) * id;
  out[outOff + 10] = (a30 * b04 - a31 * b02 + a33 * b00) * id;
  out[outOff + 11] = (a21 * b02 - a20 * b04 - a23 * b00) * id;
  out[outOff + 12] = (a11 * b07 - a10 * b09 - a12 * b06) * id;
  out[outOff + 13] = (a00 * b09 - a01 * b07 + a02 * b06) * id;
  out[outOff + 14] = (a31 * b01 - a30 * b03 - a32 * b00) * id;
  out[outOff + 15] = (a20 * b03 - a21 * b01 + a22 * b00) * id;
  return true;
}

/**
 * Solves `A·x = b` (A 4×4, b a 4-vector) by Gaussian elimination with partial pivoting; writes x
 * into `out`, which may alias `b` (or `a`).
 *
 * @throws SingularMatrixError when a pivot is exactly 0 (column = that step) or x overflows
 *   (column −1).
 * @throws NonFiniteError when A or b has a NaN or infinite entry.
 *
 * @example
 * ```ts
 * const x = new Float64Array(4);
 * solve4(x, identity4(new Float64Array(16)), Float64Array.of(1, 2, 3, 4)); // [1, 2, 3, 4]
 * ```
 */
export function solve4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return solveSmall(4, 'solve4', out, a, b, outOff, aOff, bOff);
}

/** out = A + B entrywise on 4×4 **matrices** (16 entries). `out` may alias `a`/`b`. Example: `add4(m, m, k)`. */
export function add4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return addN(16, out, a, b, outOff, aOff, bOff);
}

/** out = A − B entrywise on 4×4 matrices. `out` may alias `a`/`b`. Example: `sub4(d, a, b)`. */
export function sub4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return subN(16, out, a, b, outOff, aOff, bOff);
}

/** out = s·A on a 4×4 **matrix**. `out` may alias `a`. Example: `scale4(m, m, 2)`. */
export function scale4(
  out: Float64Array,
  a: ArrayLike<number>,
  s: number,
  outOff = 0,
  aOff = 0,
): Float64Array {
  return scaleN(16, out, a, s, outOff, aOff);
}

/** out = a + b on 4-vectors. `out` may alias `a`/`b`. Example: `addVec4(q, q, dq)`. */
export function addVec4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return addN(4, out, a, b, outOff, aOff, bOff);
}

/** out = a − b on 4-vectors. `out` may alias `a`/`b`. Example: `subVec4(d, q2, q1)`. */
export function subVec4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  return subN(4, out, a, b, outOff, aOff, bOff);
}

/** out = s·a on 4-vectors. `out` may alias `a`. Example: `scaleVec4(q, q, 1 / norm4(q))`. */
export function scaleVec4(
  out: Float64Array,
  a: ArrayLike<number>,
  s: number,
  outOff = 0,
  aOff = 0,
): Float64Array {
  return scaleN(4, out, a, s, outOff, aOff);
}

/**
 * a·b = Σ aᵢbᵢ on 4-vectors.
 *
 * @example
 * ```ts
 * const q = Float64Array.of(0.5, 0.5, 0.5, 0.5);
 * dot4(q, q); // 1, the squared norm of a unit quaternion
 * ```
 */
export function dot4(a: ArrayLike<number>, b: ArrayLike<number>, aOff = 0, bOff = 0): number {
  return (
    a[aOff]! * b[bOff]! +
    a[aOff + 1]! * b[bOff + 1]! +
    a[aOff + 2]! * b[bOff + 2]! +
    a[aOff + 3]! * b[bOff + 3]!
  );
}

/**
 * ‖a‖₂ = √(a·a) on a 4-vector, unscaled like {@link norm3}.
 *
 * @example
 * ```ts
 * norm4(Float64Array.of(1, 1, 1, 1)); // 2
 * ```
 */
export function norm4(a: ArrayLike<number>, aOff = 0): number {
  const a0 = a[aOff]!;
  const a1 = a[aOff + 1]!;
  const a2 = a[aOff + 2]!;
  const a3 = a[aOff + 3]!;
  return Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3);
}

/** out = a·bᵀ (4×4 outer product), `out_ij = aᵢ·bⱼ`. `out` may alias `a`/`b`. Example: `outer4(p, q, q)`. */
export function outer4(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff = 0,
  aOff = 0,
  bOff = 0,
): Float64Array {
  const a0 = a[aOff]!;
  const a1 = a[aOff + 1]!;
  const a2 = a[aOff + 2]!;
  const a3 = a[aOff + 3]!;
  const b0 = b[bOff]!;
  const b1 = b[bOff + 1]!;
  const b2 = b[bOff + 2]!;
  const b3 = b[bOff + 3]!;
  out[outOff] = a0 * b0;
  out[outOff + 1] = a0 * b1;
  out[outOff + 2] = a0 * b2;
  out[outOff + 3] = a0 * b3;
  out[outOff + 4] = a1 * b0;
  out[outOff + 5] = a1 * b1;
  out[outOff + 6] = a1 * b2;
  out[outOff + 7] = a1 * b3;
  out[outOff + 8] = a2 * b0;
  out[outOff + 9] = a2 * b1;
  out[outOff + 10] = a2 * b2;
  out[outOff + 11] = a2 * b3;
  out[outOff + 12] = a3 * b0;
  out[outOff + 13] = a3 * b1;
  out[outOff + 14] = a3 * b2;
  out[outOff + 15] = a3 * b3;
  return out;
}

// ---------------------------------------------------------------------------------------------
// entrywise helpers (exact aliasing is safe: entry i is read right before it is written)
// ---------------------------------------------------------------------------------------------

function addN(
  count: number,
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff: number,
  aOff: number,
  bOff: number,
): Float64Array {
  for (let i = 0; i < count; i++) out[outOff + i] = a[aOff + i]! + b[bOff + i]!;
  return out;
}

function subN(
  count: number,
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOff: number,
  aOff: number,
  bOff: number,
): Float64Array {
  for (let i = 0; i < count; i++) out[outOff + i] = a[aOff + i]! - b[bOff + i]!;
  return out;
}

function scaleN(
  count: number,
  out: Float64Array,
  a: ArrayLike<number>,
  s: number,
  outOff: number,
  aOff: number,
): Float64Array {
  for (let i = 0; i < count; i++) out[outOff + i] = s * a[aOff + i]!;
  return out;
}

/**
 * out ← a·I + b·x̂ + c·xxᵀ (3×3 row-major), the form of every closed-form matrix of SO(3): Rodrigues'
 * rotation, the Jacobians, the Cayley map and their inverses. `x̂` is the so(3) hat of x
 * (`CONVENTIONS.md`). Hot loops use {@link axisForm3Coef}, which reads (a, b, c) from an array:
 * doubles passed to a call V8 does not inline are boxed (16 B each).
 *
 * @example
 * ```ts
 * axisForm3(new Float64Array(9), Float64Array.of(0, 0, 1), 1, 0.5, 0.25); // I + x̂/2 + xxᵀ/4
 * ```
 */
export function axisForm3(
  out: Float64Array,
  x: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
): Float64Array {
  const k = AXIS_COEF;
  k[0] = a;
  k[1] = b;
  k[2] = c;
  return axisForm3Coef(out, x, k, 0, 0, 0);
}

/** Coefficient slot of {@link axisForm3}. */
const AXIS_COEF = new Float64Array(3);

/**
 * out[outOff..outOff+9) ← a·I + b·x̂ + c·xxᵀ (3×3 row-major) with x = x[xOff..xOff+3) and
 * (a, b, c) = coef[coefOff..coefOff+3): {@link axisForm3} with its coefficients read from an
 * array, so that a hot loop passes no double through the call (a double argument of a call V8
 * does not inline is boxed, 16 B). Unchecked kernel (the offsets are the caller's); `out` may
 * alias `x` or `coef` (both are read first). Evaluated as a + (c·x_i)·x_i on the diagonal, (c·x_i)·x_j ∓ b·x_k off it.
 *
 * @example
 * ```ts
 * const k = Float64Array.of(1, 0.5, 0.25); // I + x̂/2 + xxᵀ/4
 * axisForm3Coef(new Float64Array(9), Float64Array.of(0, 0, 1), k); // [1,-0.5,0, 0.5,1,0, 0,0,1.25]
 * ```
 */
export function axisForm3Coef(
  out: Float64Array,
  x: ArrayLike<number>,
  coef: ArrayLike<number>,
  outOff = 0,
  xOff = 0,
  coefOff = 0,
): Float64Array {
  const a = coef[coefOff]!;
  const b = coef[coefOff + 1]!;
  const c = coef[coefOff + 2]!;
  const x0 = x[xOff]!;
  const x1 = x[xOff + 1]!;
  const x2 = x[xOff + 2]!;
  const cx0 = c * x0;
  const cx1 = c * x1;
  const cx2 = c * x2;
  out[outOff] = a + cx0 * x0;
  out[outOff + 1] = cx0 * x1 - b * x2;
  out[outOff + 2] = cx0 * x2 + b * x1;
  out[outOff + 3] = cx1 * x0 + b * x2;
  out[outOff + 4] = a + cx1 * x1;
  out[outOff + 5] = cx1 * x2 - b * x0;
  out[outOff + 6] = cx2 * x0 - b * x1;
  out[outOff + 7] = cx2 * x1 + b * x0;
  out[outOff + 8] = a + cx2 * x2;
  return out;
}
