/**
 * The argument checks that open every `Stepper.stepDerivatives(dxdx, dxdu)`: the size of the dense
 * factorization it would do, a step just taken, and the lengths of the two output matrices.
 *
 * @module
 */
import { DimensionError, DomainError } from '../errors.js';

/**
 * Largest dimension of the dense matrix a step-derivatives computation factors (n + m of a
 * constrained step: the KKT or bordered Newton matrix of the step, O(dim³) work and 8·dim² bytes
 * of scratch; about 3·10⁹ flops and 32 MB at the limit). A larger one gets a `DomainError` from
 * {@link checkStepDerivatives}.
 *
 * @example
 * ```ts
 * STEP_DERIVATIVES_MAX_DIMENSION; // 2000: a Ziegler chain of up to 666 links (n = 2·links, m = links)
 * ```
 */
export const STEP_DERIVATIVES_MAX_DIMENSION = 2000;

/**
 * Checks the arguments of a `stepDerivatives(dxdx, dxdu)` call (core's `Stepper` contract), in
 * this order: `dimension` (the size of the dense matrix the derivatives factor, e.g. n + m; 0 when
 * it is small and fixed) ≤ {@link STEP_DERIVATIVES_MAX_DIMENSION}; a step just taken (`missing`
 * is `undefined`, otherwise it says why there are no derivatives, e.g. `'no step taken'`);
 * `dxdx.length` = S² and `dxdu.length` = S·m for the state size S and input size m. Allocates
 * nothing when the arguments are good (a cold path that must stay allocation-free after its
 * first call).
 *
 * @param what - names the method in errors, e.g. `'DiracStepper.stepDerivatives'`.
 * @throws {@link DomainError} for a too large `dimension` or a `missing` step;
 *   {@link DimensionError} naming `dxdx` or `dxdu` for a wrong length.
 * @example
 * ```ts
 * const A = new Float64Array(9), B = new Float64Array(3);
 * checkStepDerivatives('demo.stepDerivatives', undefined, A, B, 3, 1); // S = 3, m = 1: passes
 * checkStepDerivatives('demo.stepDerivatives', undefined, A, new Float64Array(2), 3, 1); // throws DimensionError
 * ```
 */
export function checkStepDerivatives(
  what: string,
  missing: string | undefined,
  dxdx: Float64Array,
  dxdu: Float64Array,
  stateSize: number,
  inputSize: number,
  dimension = 0,
): void {
  if (dimension > STEP_DERIVATIVES_MAX_DIMENSION) {
    throw new DomainError(
      `${what}: n + m`,
      dimension,
      `must be ≤ STEP_DERIVATIVES_MAX_DIMENSION = ${STEP_DERIVATIVES_MAX_DIMENSION} (a dense factorization)`,
    );
  }
  if (missing !== undefined) throw new DomainError(what, missing, 'needs a step just taken');
  const S = stateSize;
  if (dxdx.length !== S * S) throw new DimensionError(`${what}: dxdx`, S * S, dxdx.length);
  if (dxdu.length !== S * inputSize)
    throw new DimensionError(`${what}: dxdu`, S * inputSize, dxdu.length);
}
