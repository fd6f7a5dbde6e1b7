/**
 * Shared internals of the Lie groups (not exported from the package): the dimension checks'
 * cold path, small dense kernels for the Jacobian outputs, and the nearest-rotation projections
 * behind `normalize`. Conventions: `packages/core/CONVENTIONS.md`.
 *
 * @module
 */
import {
  JACOBI_MAX_SWEEPS,
  ROTATION_NEWTON_SCHULZ_FINAL,
  ROTATION_NEWTON_SCHULZ_MAX_STEPS,
  ROTATION_NEWTON_SCHULZ_RADIUS,
} from '../constants.js';
import { DimensionError, DomainError } from '../errors.js';

/**
 * Throws the DimensionError of the first argument whose length is not the expected one. The hot
 * paths test all lengths in one comparison chain and call this only when it fails, so the checks
 * cost a few integer comparisons.
 */
export function lengthError(
  method: string,
  names: readonly string[],
  expected: readonly number[],
  args: readonly ArrayLike<number>[],
): never {
  for (let i = 0; i < args.length; i++) {
    const got = args[i]!.length;
    if (got !== expected[i]) throw new DimensionError(`${method}: ${names[i]}`, expected[i]!, got);
  }
  throw new DimensionError(method, 'consistent argument lengths', 'inconsistent');
}

/** Throws a DimensionError when the Jacobian output `J` does not have `size` entries. */
export function checkJac(method: string, name: string, J: Float64Array, size: number): void {
  if (J.length !== size) throw new DimensionError(`${method}: ${name}`, size, J.length);
}

/** out ← I (n×n). */
export function setIdentity(out: Float64Array, n: number): Float64Array {
  out.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  return out;
}

/** out ← −I (n×n). */
export function setMinusIdentity(out: Float64Array, n: number): Float64Array {
  out.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) out[i * n + i] = -1;
  return out;
}

/** out ← −a (the first `len` entries). `out` may alias `a`. */
export function negateInto(out: Float64Array, a: ArrayLike<number>, len: number): Float64Array {
  for (let i = 0; i < len; i++) out[i] = -a[i]!;
  return out;
}

/** out ← a (the first `len` entries). */
export function copyInto(out: Float64Array, a: ArrayLike<number>, len: number): Float64Array {
  for (let i = 0; i < len; i++) out[i] = a[i]!;
  return out;
}

/** out ← s·A·B with A m×k, B k×n (row-major). `out` must not alias `a` or `b`. */
export function matMulInto(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  m: number,
  k: number,
  n: number,
  s = 1,
): Float64Array {
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let l = 0; l < k; l++) acc += a[i * k + l]! * b[l * n + j]!;
      out[i * n + j] = s * acc;
    }
  }
  return out;
}

/** out ← Aᵀ (n×n). `out` must not alias `a`. */
export function transposeInto(out: Float64Array, a: ArrayLike<number>, n: number): Float64Array {
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[j * n + i] = a[i * n + j]!;
  return out;
}

/** True when every one of the first `len` entries is finite. */
export function allFinite(a: ArrayLike<number>, len: number): boolean {
  for (let i = 0; i < len; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}

/**
 * Largest |(RᵀR − I)_ij| of the n×n block of a row-major matrix with `stride` columns (R at
 * entries r·stride + c, r, c < n). NaN when an entry is NaN.
 */
export function orthogonalityDefect(R: ArrayLike<number>, n: number, stride: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = i === j ? -1 : 0;
      for (let k = 0; k < n; k++) s += R[k * stride + i]! * R[k * stride + j]!;
      const a = Math.abs(s);
      if (Number.isNaN(a)) return Number.NaN;
      if (a > worst) worst = a;
    }
  }
  return worst;
}

/** det of the 3×3 block (row-major, `stride` columns) of R. */
export function det3Strided(R: ArrayLike<number>, stride: number): number {
  const a00 = R[0]!;
  const a01 = R[1]!;
  const a02 = R[2]!;
  const a10 = R[stride]!;
  const a11 = R[stride + 1]!;
  const a12 = R[stride + 2]!;
  const a20 = R[2 * stride]!;
  const a21 = R[2 * stride + 1]!;
  const a22 = R[2 * stride + 2]!;
  return (
    a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20)
  );
}

/** Whether the 3×3 block (row-major, `stride` columns) of R is a rotation to within `tol`. */
export function isRotation3(R: ArrayLike<number>, stride: number, tol: number): boolean {
  return orthogonalityDefect(R, 3, stride) <= tol && det3Strided(R, stride) > 0;
}

/**
 * Scratch and kernel of the SO(3) projection: out ← the rotation nearest to the 3×3 M in the
 * Frobenius norm (argmax tr(RᵀM) over SO(3)).
 *
 * - When det M > 0 and ‖MᵀM − I‖_F < `ROTATION_NEWTON_SCHULZ_RADIUS`, Newton–Schulz
 *   X ← X(3I − XᵀX)/2 converges quadratically to the orthogonal polar factor of M, which is then
 *   the nearest rotation (Higham, *Functions of Matrices*, 2008, §8.3 and eq. (8.20)); it stops one
 *   step after ‖XᵀX − I‖_F ≤ √ε (one step for a drift of 1e-12).
 * - Otherwise (far from SO(3), or det M ≤ 0) the nearest rotation is R(q) for the unit
 *   eigenvector q of the largest eigenvalue of the symmetric 4×4 K with qᵀKq = tr(R(q)ᵀM)
 *   (Bar-Itzhack, J. Guidance Control Dyn. 23(6), 2000; the orthogonal Procrustes problem
 *   restricted to SO(3)), found by cyclic Jacobi. When that eigenvalue is repeated (e.g.
 *   diag(1, 1, −1)), the nearest rotation is not unique and one of them is returned.
 *
 * Accuracy: both paths give a rotation with ‖RᵀR − I‖ of a few ε; the distance to the exact
 * nearest rotation is a few ε times the conditioning 1/(σ₂ + σ₃) of the polar factor (tested
 * against an SVD to 1e-14 on random matrices).
 */
export class NearestRotation3 {
  private readonly x = new Float64Array(9);
  private readonly k = new Float64Array(16);
  private readonly v = new Float64Array(16);

  /** out ← the nearest rotation to the 3×3 block of M at `off` with `stride` columns. */
  project(
    out: Float64Array,
    M: ArrayLike<number>,
    what: string,
    outOff = 0,
    outStride = 3,
    mOff = 0,
    mStride = 3,
  ): void {
    const x = this.x;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) x[3 * i + j] = M[mOff + i * mStride + j]!;
    if (!allFinite(x, 9)) throw new DomainError(what, 'a non-finite entry', 'must be finite');
    let ok = false;
    if (det3Strided(x, 3) > 0) ok = this.newtonSchulz(x);
    if (!ok) this.quaternionMethod(x, what);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) out[outOff + i * outStride + j] = x[3 * i + j]!;
  }

  /** Newton–Schulz on x in place; false when x is too far from orthogonal to converge. */
  private newtonSchulz(x: Float64Array): boolean {
    for (let step = 0; step <= ROTATION_NEWTON_SCHULZ_MAX_STEPS; step++) {
      // P = XᵀX − I (symmetric)
      const x0 = x[0]!;
      const x1 = x[1]!;
      const x2 = x[2]!;
      const x3 = x[3]!;
      const x4 = x[4]!;
      const x5 = x[5]!;
      const x6 = x[6]!;
      const x7 = x[7]!;
      const x8 = x[8]!;
      const p00 = x0 * x0 + x3 * x3 + x6 * x6 - 1;
      const p11 = x1 * x1 + x4 * x4 + x7 * x7 - 1;
      const p22 = x2 * x2 + x5 * x5 + x8 * x8 - 1;
      const p01 = x0 * x1 + x3 * x4 + x6 * x7;
      const p02 = x0 * x2 + x3 * x5 + x6 * x8;
      const p12 = x1 * x2 + x4 * x5 + x7 * x8;
      const e = Math.sqrt(
        p00 * p00 + p11 * p11 + p22 * p22 + 2 * (p01 * p01 + p02 * p02 + p12 * p12),
      );
      if (step === 0 && !(e < ROTATION_NEWTON_SCHULZ_RADIUS)) return false;
      if (step === ROTATION_NEWTON_SCHULZ_MAX_STEPS) return true;
      const last = e <= ROTATION_NEWTON_SCHULZ_FINAL;
      // X ← X(3I − XᵀX)/2 = X(I − P/2)
      const q00 = 1 - 0.5 * p00;
      const q11 = 1 - 0.5 * p11;
      const q22 = 1 - 0.5 * p22;
      const q01 = -0.5 * p01;
      const q02 = -0.5 * p02;
      const q12 = -0.5 * p12;
      x[0] = x0 * q00 + x1 * q01 + x2 * q02;
      x[1] = x0 * q01 + x1 * q11 + x2 * q12;
      x[2] = x0 * q02 + x1 * q12 + x2 * q22;
      x[3] = x3 * q00 + x4 * q01 + x5 * q02;
      x[4] = x3 * q01 + x4 * q11 + x5 * q12;
      x[5] = x3 * q02 + x4 * q12 + x5 * q22;
      x[6] = x6 * q00 + x7 * q01 + x8 * q02;
      x[7] = x6 * q01 + x7 * q11 + x8 * q12;
      x[8] = x6 * q02 + x7 * q12 + x8 * q22;
      if (last) return true;
    }
    return true;
  }

  /**
   * x ← R(q), q the top eigenvector of Bar-Itzhack's K (`wxyz`): tr(R(q)ᵀM) = qᵀKq for |q| = 1
   * with R(q) the matrix of v ↦ q v q* (so3quat.ts).
   */
  private quaternionMethod(m: Float64Array, what: string): void {
    // The nearest rotation is invariant under M ↦ sM (s > 0): scale to max |m_ij| = 1 so that K's
    // squares neither overflow nor underflow.
    let scale = 0;
    for (let i = 0; i < 9; i++) scale = Math.max(scale, Math.abs(m[i]!));
    if (scale === 0) throw new DomainError(what, 0, 'the zero matrix has no nearest rotation');
    const inv = 1 / scale;
    const m00 = m[0]! * inv;
    const m01 = m[1]! * inv;
    const m02 = m[2]! * inv;
    const m10 = m[3]! * inv;
    const m11 = m[4]! * inv;
    const m12 = m[5]! * inv;
    const m20 = m[6]! * inv;
    const m21 = m[7]! * inv;
    const m22 = m[8]! * inv;
    const K = this.k;
    K[0] = m00 + m11 + m22;
    K[1] = m21 - m12;
    K[2] = m02 - m20;
    K[3] = m10 - m01;
    K[5] = m00 - m11 - m22;
    K[6] = m01 + m10;
    K[7] = m02 + m20;
    K[10] = -m00 + m11 - m22;
    K[11] = m12 + m21;
    K[15] = -m00 - m11 + m22;
    K[4] = K[1]!;
    K[8] = K[2]!;
    K[12] = K[3]!;
    K[9] = K[6]!;
    K[13] = K[7]!;
    K[14] = K[11]!;
    jacobiEigen4(K, this.v);
    let best = 0;
    for (let i = 1; i < 4; i++) if (K[5 * i]! > K[5 * best]!) best = i;
    const V = this.v;
    const w = V[best]!;
    const qx = V[4 + best]!;
    const qy = V[8 + best]!;
    const qz = V[12 + best]!;
    const n2 = w * w + qx * qx + qy * qy + qz * qz;
    const k = 1 / n2;
    m[0] = k * (w * w + qx * qx - qy * qy - qz * qz);
    m[1] = 2 * k * (qx * qy - w * qz);
    m[2] = 2 * k * (qx * qz + w * qy);
    m[3] = 2 * k * (qx * qy + w * qz);
    m[4] = k * (w * w - qx * qx + qy * qy - qz * qz);
    m[5] = 2 * k * (qy * qz - w * qx);
    m[6] = 2 * k * (qx * qz - w * qy);
    m[7] = 2 * k * (qy * qz + w * qx);
    m[8] = k * (w * w - qx * qx - qy * qy + qz * qz);
  }
}

/**
 * Cyclic Jacobi eigenvalue algorithm on the symmetric 4×4 A (row-major, overwritten: its diagonal
 * becomes the eigenvalues), V ← the eigenvectors as columns (Golub & Van Loan, *Matrix
 * Computations*, 4th ed., Algorithm 8.5.3, with the stable rotation of Algorithm 8.5.1). Stops
 * when the off-diagonal Frobenius norm is ≤ ε·‖A‖_F, or after `JACOBI_MAX_SWEEPS` sweeps.
 */
export function jacobiEigen4(A: Float64Array, V: Float64Array): void {
  const n = 4;
  setIdentity(V, n);
  let total = 0;
  for (let i = 0; i < 16; i++) total += A[i]! * A[i]!;
  const tol2 = Number.EPSILON * Number.EPSILON * total;
  for (let sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += 2 * A[p * n + q]! ** 2;
    if (off <= tol2) return;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q]!;
        if (apq === 0) continue;
        const tau = (A[q * n + q]! - A[p * n + p]!) / (2 * apq);
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        // A ← Jᵀ A J with J the rotation in the (p, q) plane: columns, then rows.
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p]!;
          const akq = A[k * n + q]!;
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k]!;
          const aqk = A[q * n + k]!;
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!;
          const vkq = V[k * n + q]!;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
}

/**
 * Newton–Schulz X ← X(3I − XᵀX)/2 on the n×n block of `x` (row-major, stride `stride`, in place),
 * with scratch p, q of n² entries: true when it converged to the orthogonal polar factor (started
 * within ‖XᵀX − I‖_F < `ROTATION_NEWTON_SCHULZ_RADIUS`), false when x was too far to try.
 * The caller checks det > 0 (the polar factor of a matrix with det > 0 is its nearest rotation).
 */
export function newtonSchulz(
  x: Float64Array,
  n: number,
  stride: number,
  p: Float64Array,
  q: Float64Array,
): boolean {
  for (let step = 0; step <= ROTATION_NEWTON_SCHULZ_MAX_STEPS; step++) {
    let e2 = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        let s = i === j ? -1 : 0;
        for (let k = 0; k < n; k++) s += x[k * stride + i]! * x[k * stride + j]!;
        p[i * n + j] = s;
        p[j * n + i] = s;
        e2 += i === j ? s * s : 2 * s * s;
      }
    }
    const e = Math.sqrt(e2);
    if (step === 0 && !(e < ROTATION_NEWTON_SCHULZ_RADIUS)) return false;
    if (step === ROTATION_NEWTON_SCHULZ_MAX_STEPS) return true;
    const last = e <= ROTATION_NEWTON_SCHULZ_FINAL;
    // X ← X(I − P/2)
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = x[i * stride + j]!;
        for (let k = 0; k < n; k++) s -= 0.5 * x[i * stride + k]! * p[k * n + j]!;
        q[i * n + j] = s;
      }
    }
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) x[i * stride + j] = q[i * n + j]!;
    if (last) return true;
  }
  return true;
}

/** Checks `out.length === nOut` and `x.length === nX` (the two-argument kernels' hot-path check). */
export function check2(
  method: string,
  outName: string,
  out: ArrayLike<number>,
  nOut: number,
  xName: string,
  x: ArrayLike<number>,
  nX: number,
): void {
  if (((out.length - nOut) | (x.length - nX)) !== 0)
    lengthError(method, [outName, xName], [nOut, nX], [out, x]);
}
