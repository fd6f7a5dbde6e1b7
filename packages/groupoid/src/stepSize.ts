/**
 * Internal helper of the trajectory functions (not exported from the package index).
 *
 * @module
 */
import { DomainError } from '@geomech/core';

/**
 * The step size of a run given by `h` or by its final time `tEnd` (h = tEnd/steps, from t0 = 0).
 * @throws DomainError unless exactly one is given and h is positive and finite.
 */
export function stepSize(
  what: string,
  h: number | undefined,
  tEnd: number | undefined,
  steps: number,
): number {
  if ((h === undefined) === (tEnd === undefined))
    throw new DomainError(`${what}: h, tEnd`, `${h}, ${tEnd}`, 'give exactly one');
  const hh = h ?? tEnd! / steps;
  if (!(hh > 0 && Number.isFinite(hh)))
    throw new DomainError(
      `${what}: ${h === undefined ? 'tEnd/steps' : 'h'}`,
      hh,
      'must be positive and finite',
    );
  return hh;
}
