/**
 * Linear symplectic algebra behind Lemma 2.15 and Theorem 2.16 of seed 003 (spec 003 §4): the
 * canonical form on Z = R^{2d}, symplectic complements, subspace intersections and the
 * symplecticity defect of a linear map. Cold-path utilities (they allocate); subspaces are given by
 * spanning sets stored as the columns of a row-major (2d)×k matrix.
 *
 * Convention: coordinates z = (q, p) ∈ R^d × R^d and ω(u, v) = uᵀ𝕁v = Σ_i (u_{q,i} v_{p,i} −
 * u_{p,i} v_{q,i}) with 𝕁 = [[0, I], [−I, 0]] (so ω = dq ∧ dp, the canonical form of T*R^d).
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  nullSpace,
  type SubspaceBasis,
  singularValues,
} from '@geomech/core';

/** Default relative threshold: singular values ≤ rtol·σ_max count as zero. */
export const SUBSPACE_RANK_RTOL = 1e-10;

function checkD(what: string, d: number): void {
  if (!Number.isInteger(d) || d < 1) throw new DimensionError(`${what}: d`, '>= 1', d);
}

function checkBasis(what: string, basis: ArrayLike<number>, rows: number, k: number): void {
  if (!Number.isInteger(k) || k < 0) throw new DimensionError(`${what}: columns`, '>= 0', k);
  if (basis.length !== rows * k)
    throw new DimensionError(`${what}: length of ${rows}×${k} basis`, rows * k, basis.length);
}

function relRank(a: ArrayLike<number>, m: number, n: number, rtol: number): number {
  if (m === 0 || n === 0) return 0;
  const s = singularValues(a, m, n);
  const thr = rtol * (s[0] ?? 0);
  let r = 0;
  while (r < s.length && s[r]! > thr) r++;
  return r;
}

/**
 * The canonical symplectic matrix 𝕁 = [[0, I_d], [−I_d, 0]] (2d×2d row-major), ω(u, v) = uᵀ𝕁v.
 *
 * @example
 * ```ts
 * canonicalSymplecticMatrix(1); // [0, 1, −1, 0]
 * ```
 */
export function canonicalSymplecticMatrix(d: number): Float64Array {
  checkD('canonicalSymplecticMatrix', d);
  const n = 2 * d;
  const J = new Float64Array(n * n);
  for (let i = 0; i < d; i++) {
    J[i * n + d + i] = 1;
    J[(d + i) * n + i] = -1;
  }
  return J;
}

/**
 * ω(u, v) = Σ_i (u_i v_{d+i} − u_{d+i} v_i) on R^{2d} (spec 003 §4, Lemma 2.15).
 *
 * @example
 * ```ts
 * symplecticForm(Float64Array.of(1, 0), Float64Array.of(0, 1), 1); // 1
 * ```
 */
export function symplecticForm(u: ArrayLike<number>, v: ArrayLike<number>, d: number): number {
  checkD('symplecticForm', d);
  if (u.length !== 2 * d) throw new DimensionError('symplecticForm: u', 2 * d, u.length);
  if (v.length !== 2 * d) throw new DimensionError('symplecticForm: v', 2 * d, v.length);
  let s = 0;
  for (let i = 0; i < d; i++) s += u[i]! * v[d + i]! - u[d + i]! * v[i]!;
  return s;
}

/**
 * An orthonormal basis of the symplectic complement V^ω = { z : ω(v, z) = 0 ∀ v ∈ V } of the span
 * V of the k columns of `basis` ((2d)×k): the null space of the k×2d matrix (Vᵀ𝕁). dim V^ω =
 * 2d − dim V (spec 003 §4, proof of Lemma 2.15).
 *
 * @param rtol - relative rank threshold for dim V (default {@link SUBSPACE_RANK_RTOL}).
 * @example
 * ```ts
 * // the Lagrangian line span{(1, 0)} of R² is its own complement
 * symplecticComplement(Float64Array.of(1, 0), 1, 1).d; // 1
 * ```
 */
export function symplecticComplement(
  basis: ArrayLike<number>,
  k: number,
  d: number,
  rtol: number = SUBSPACE_RANK_RTOL,
): SubspaceBasis {
  checkD('symplecticComplement', d);
  const n = 2 * d;
  checkBasis('symplecticComplement', basis, n, k);
  if (!(rtol > 0)) throw new DomainError('symplecticComplement: rtol', rtol, 'must be > 0');
  // row a of (Vᵀ𝕁): z ↦ ω(v_a, z) = Σ_i v_a,i z_{d+i} − v_a,{d+i} z_i
  const A = new Float64Array(k * n);
  for (let a = 0; a < k; a++)
    for (let i = 0; i < d; i++) {
      A[a * n + d + i] = basis[i * k + a]!;
      A[a * n + i] = -basis[(d + i) * k + a]!;
    }
  if (k === 0) return nullSpace(A, 0, n);
  const s = singularValues(A, k, n);
  return nullSpace(A, k, n, rtol * (s[0] ?? 0));
}

/**
 * dim(V ∩ W) = dim V + dim W − dim(V + W) for the spans of the columns of `V` (n×kV) and `W`
 * (n×kW), with ranks by SVD at relative threshold `rtol`.
 *
 * @example
 * ```ts
 * intersectionDimension(Float64Array.of(1, 0, 0), 1, Float64Array.of(1, 0, 0, 1, 0, 0), 2, 3); // 1
 * ```
 */
export function intersectionDimension(
  V: ArrayLike<number>,
  kV: number,
  W: ArrayLike<number>,
  kW: number,
  n: number,
  rtol: number = SUBSPACE_RANK_RTOL,
): number {
  if (!Number.isInteger(n) || n < 1)
    throw new DimensionError('intersectionDimension: n', '>= 1', n);
  checkBasis('intersectionDimension: V', V, n, kV);
  checkBasis('intersectionDimension: W', W, n, kW);
  if (!(rtol > 0)) throw new DomainError('intersectionDimension: rtol', rtol, 'must be > 0');
  const k = kV + kW;
  const VW = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < kV; a++) VW[i * k + a] = V[i * kV + a]!;
    for (let b = 0; b < kW; b++) VW[i * k + kV + b] = W[i * kW + b]!;
  }
  return relRank(V, n, kV, rtol) + relRank(W, n, kW, rtol) - relRank(VW, n, k, rtol);
}

/**
 * Both sides of Lemma 2.15 (spec 003 §4): for V, W ⊂ (R^{2d}, ω), returns dim(V ∩ W) and
 * dim(V^ω ∩ W^ω); they are equal whenever dim V + dim W = 2d.
 *
 * @example
 * ```ts
 * // in (R⁴, ω) with coordinates (q1, q2, p1, p2), bases as columns (4 × 2 row-major)
 * const V = [1, 0, 0, 1, 0, 0, 0, 0]; // span(∂q1, ∂q2), Lagrangian: V^ω = V
 * const W = [1, 0, 0, 0, 0, 1, 0, 0]; // span(∂q1, ∂p1), symplectic: W^ω = span(∂q2, ∂p2)
 * const { intersection, complementIntersection } = lemma215Dimensions(V, 2, W, 2, 2);
 * [intersection, complementIntersection]; // [1, 1]
 * ```
 */
export function lemma215Dimensions(
  V: ArrayLike<number>,
  kV: number,
  W: ArrayLike<number>,
  kW: number,
  d: number,
  rtol: number = SUBSPACE_RANK_RTOL,
): {
  readonly dimV: number;
  readonly dimW: number;
  readonly intersection: number;
  readonly complementIntersection: number;
} {
  checkD('lemma215Dimensions', d);
  const n = 2 * d;
  const Vw = symplecticComplement(V, kV, d, rtol);
  const Ww = symplecticComplement(W, kW, d, rtol);
  return {
    dimV: relRank(V, n, kV, rtol),
    dimW: relRank(W, n, kW, rtol),
    intersection: intersectionDimension(V, kV, W, kW, n, rtol),
    complementIntersection: intersectionDimension(Vw.basis, Vw.d, Ww.basis, Ww.d, n, rtol),
  };
}

/**
 * max_ij |(Mᵀ𝕁M − 𝕁)_ij| for a 2d×2d matrix M: zero iff M is symplectic (the linearization of a
 * symplectic map, e.g. the discrete Hamiltonian map on T*R^d, spec 003 §4 "Poisson property").
 *
 * @example
 * ```ts
 * symplecticityDefect(Float64Array.of(2, 0, 0, 0.5), 1); // 0
 * ```
 */
export function symplecticityDefect(M: ArrayLike<number>, d: number): number {
  checkD('symplecticityDefect', d);
  const n = 2 * d;
  if (M.length !== n * n) throw new DimensionError('symplecticityDefect: M', n * n, M.length);
  let defect = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      // (Mᵀ𝕁M)_ij = Σ_a M_{a,i} M_{d+a,j} − M_{d+a,i} M_{a,j}
      let s = 0;
      for (let a = 0; a < d; a++)
        s += M[a * n + i]! * M[(d + a) * n + j]! - M[(d + a) * n + i]! * M[a * n + j]!;
      const J = j === i + d ? 1 : i === j + d ? -1 : 0;
      defect = Math.max(defect, Math.abs(s - J));
    }
  return defect;
}
