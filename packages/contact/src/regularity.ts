/**
 * The regularity guard of discrete contact Lagrangians (spec 004 §5.4, §9.12, §11.13): a step is
 * singular when its conformal factor σ = 1 + D_z L_d vanishes; σ < 0 is allowed but reported,
 * since such a step reverses the orientation of the contact form.
 *
 * @module
 */
import { NonFiniteError, RegularityError } from '@geomech/core';

/**
 * Relative threshold of the regularity guard: a step is singular when
 * |1 + D_z L_d| < SIGMA_REGULARITY_TOL · max(1, |D_z L_d|). The sum 1 + D_z L_d carries a rounding
 * error of about ε·max(1, |D_z L_d|), so below 1e-12 (≈ 4500ε) relative the conformal factor has
 * at most a few correct digits, and F⁻L_d = −D1 L_d/σ (40) loses all of them.
 *
 * @example
 * ```ts
 * checkSigma(-1 + 1e-11, 3, SIGMA_REGULARITY_TOL); // ≈ 1e-11: small, but above the threshold
 * ```
 */
export const SIGMA_REGULARITY_TOL = 1e-12;

/**
 * The conformal factor σ = 1 + D_z L_d of a step vanished (spec 004 §5.4: F⁻L_d (40) and the
 * discrete Herglotz equations (39) need σ ≠ 0; e.g. the paper's midpoint with h = −1/γ).
 * Defined once in core's error registry; re-exported here.
 */
export { RegularityError };

/**
 * Throws {@link RegularityError} when σ = 1 + dz vanishes relative to max(1, |dz|), and
 * {@link NonFiniteError} when it is not finite. Returns σ.
 *
 * @example
 * ```ts
 * try {
 *   checkSigma(-1, 0);
 * } catch (e) {
 *   e instanceof RegularityError; // true: { step: 0, sigma: 0 }
 * }
 * checkSigma(-0.025, 3); // 0.975
 * ```
 */
export function checkSigma(dz: number, step: number, tol: number = SIGMA_REGULARITY_TOL): number {
  const sigma = 1 + dz;
  if (!Number.isFinite(sigma)) throw new NonFiniteError(`step ${step}: 1 + Dz Ld`);
  if (Math.abs(sigma) < tol * Math.max(1, Math.abs(dz)))
    throw new RegularityError(step, sigma, tol);
  return sigma;
}

/**
 * The warning recorded (never printed: libraries do not print) for the first step with σ < 0.
 *
 * @example
 * ```ts
 * negativeSigmaWarning(4, -0.5); // 'step 4: conformal factor σ = 1 + Dz Ld = -0.5 < 0 (…)'
 * ```
 */
export function negativeSigmaWarning(step: number, sigma: number): string {
  return `step ${step}: conformal factor σ = 1 + Dz Ld = ${sigma} < 0 (the step reverses the orientation of the contact form; reduce h)`;
}
