/**
 * Small private helpers shared by the modules of this package: argument checks and the
 * scale-aware numerical rank. Not re-exported from `index.ts`.
 *
 * @module
 */
import {
  DimensionError,
  type DiscreteForce,
  NonFiniteError,
  rank,
  singularValues,
} from '@geomech/core';

/** Throws a {@link DimensionError} unless `a` has length `len`. */
export function checkLength(what: string, a: ArrayLike<number>, len: number): void {
  if (a.length !== len) throw new DimensionError(what, len, a.length);
}

/** Throws a {@link NonFiniteError} naming the first non-finite entry among the first `len`. */
export function checkFinite(what: string, a: ArrayLike<number>, len = a.length): void {
  for (let i = 0; i < len; i++) if (!Number.isFinite(a[i]!)) throw new NonFiniteError(what, i);
}

/** max |aᵢ| over the `len` entries from `off` (0 when there are none). */
export function maxAbs(a: ArrayLike<number>, len = a.length, off = 0): number {
  let s = 0;
  for (let i = 0; i < len; i++) s = Math.max(s, Math.abs(a[off + i]!));
  return s;
}

/**
 * Numerical rank of an r×c matrix with the absolute tolerance `rtol·scale` (rank 0 when the
 * scale is 0: a zero matrix has no rank at any scale). Callers pass `DIRAC_RANK_RTOL` or the
 * user's tolerance.
 */
export function rankAtScale(
  a: ArrayLike<number>,
  r: number,
  c: number,
  scale: number,
  rtol: number,
): number {
  if (r === 0 || c === 0 || !(scale > 0)) return 0;
  return rank(a, r, c, rtol * scale);
}

/** Largest singular value ‖a‖₂ of an r×c matrix (0 for an empty one). */
export function spectralNorm(a: ArrayLike<number>, r: number, c: number): number {
  if (r === 0 || c === 0) return 0;
  return singularValues(a, r, c)[0] ?? 0;
}

/**
 * The discrete force's data for a step-derivatives pass (the Dirac-2c, RATTLE and LD steps):
 * fq0 ← ∂F̄/∂q_k, fq1 ← ∂F̄/∂q_{k+1}, fu ← ∂F̄/∂u_k (n×m; untouched when m = 0) at (t, q0, q1, u)
 * by core's `DiscreteForce.jacobian`, and weights ← [h w⁻, h w⁺] (f_d^± = h w^± F̄, Marsden–West
 * 2001 (3.2.2)). Without a force (`fd` undefined): zero partials and zero weights.
 */
export function forceJacobianWithWeights(
  weights: Float64Array,
  fq0: Float64Array,
  fq1: Float64Array,
  fu: Float64Array,
  fd: DiscreteForce | undefined,
  t: number,
  q0: Float64Array,
  q1: Float64Array,
  u: Float64Array,
): void {
  if (fd === undefined) {
    fq0.fill(0);
    fq1.fill(0);
    weights[0] = 0;
    weights[1] = 0;
    return;
  }
  fd.jacobian(fq0, fq1, fd.m > 0 ? fu : undefined, t, q0, q1, u);
  weights[0] = fd.weightMinus;
  weights[1] = fd.weightPlus;
}
