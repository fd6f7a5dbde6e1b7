/**
 * Small private helpers shared by the modules of this package: argument checks, the scale-aware
 * numerical rank, and the output times and DOPRI5 options of the implicit-system solvers. Not
 * re-exported from `index.ts`.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type Dopri5Options,
  NonFiniteError,
  rank,
  singularValues,
} from '@geomech/core';
import type { ImplicitIntegrationOptions } from './implicitSolution.js';

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

/** The output times of an implicit-system solver: `tEval`, or `samples` equidistant times. */
export function sampleTimes(
  what: string,
  t0: number,
  tEnd: number,
  o: ImplicitIntegrationOptions,
): Float64Array {
  if (!Number.isFinite(t0)) throw new DomainError(`${what}: t0`, t0, 'must be finite');
  if (!(Number.isFinite(tEnd) && tEnd > t0))
    throw new DomainError(`${what}: tEnd`, tEnd, `must be finite and > t0 = ${t0}`);
  if (o.tEval !== undefined) {
    const t = Float64Array.from(o.tEval);
    if (t.length < 1) throw new DomainError(`${what}: tEval`, t.length, 'must not be empty');
    for (let k = 0; k < t.length; k++) {
      const tk = t[k]!;
      if (!(tk >= t0 && tk <= tEnd) || (k > 0 && !(tk > t[k - 1]!)))
        throw new DomainError(`${what}: tEval[${k}]`, tk, `must increase inside [${t0}, ${tEnd}]`);
    }
    return t;
  }
  const s = o.samples ?? 101;
  if (!Number.isInteger(s) || s < 2)
    throw new DomainError(`${what}: samples`, s, 'must be an integer ≥ 2');
  const t = new Float64Array(s);
  for (let k = 0; k < s; k++) t[k] = t0 + ((tEnd - t0) * k) / (s - 1);
  t[s - 1] = tEnd;
  return t;
}

/** The DOPRI5 options of an implicit-system solver (rtol 1e-10, atol 1e-12 by default). */
export function dopriOptions(
  o: ImplicitIntegrationOptions,
  tEval: Float64Array | undefined,
): Dopri5Options {
  const out: { -readonly [K in keyof Dopri5Options]: Dopri5Options[K] } = {
    rtol: o.rtol ?? 1e-10,
    atol: o.atol ?? 1e-12,
    dense: false,
  };
  if (o.hmax !== undefined) out.hmax = o.hmax;
  if (o.maxSteps !== undefined) out.maxSteps = o.maxSteps;
  if (tEval !== undefined) out.tEval = tEval;
  return out;
}
