/**
 * Helpers shared by the integrators of this package; not part of the public API (not exported
 * from the package index).
 *
 * @module
 */
import { DimensionError, DomainError } from '@geomech/core';

/** A finite copy of an initial-data vector of length n (shared by the integrators). */
export function copyVector(what: string, v: ArrayLike<number>, n: number): Float64Array {
  if (v.length !== n) throw new DimensionError(`integrate: ${what}`, n, v.length);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) throw new DomainError(`integrate: ${what}[${i}]`, x, 'must be finite');
    out[i] = x;
  }
  return out;
}
