/**
 * The coefficient c(s) of the SO(3) dexp⁻¹ transpose derivative (spec 003 §8.1) and its series,
 * shared by {@link LiePoissonKernel} and the rigid-body Newton kernel. Internal: not re-exported
 * from the package index.
 *
 * @module
 */

/** Below this rotation angle θ = |x| the exp-map coefficient c(θ²) and c'(θ²) use their series. */
export const DEXP_SERIES_ANGLE = 0.5;

/**
 * Coefficients of c(s) = (1 − (θ/2)cot(θ/2))/θ², s = θ², as a power series in s:
 * (−1)^{n+1}B_{2n+2}/(2n+2)! (Bernoulli numbers), 1/12, 1/720, 1/30240, 1/1209600, 1/47900160, …
 */
export const DEXP_C_SERIES = [
  1 / 12,
  1 / 720,
  1 / 30240,
  1 / 1209600,
  1 / 47900160,
  691 / 1307674368000,
  7 / 523069747200,
];

/** c(s) and dc/ds of the SO(3) dexp⁻¹ coefficient (spec 003 §8.1), s = θ². */
export function dexpCoefficients(s: number, out: Float64Array): void {
  const theta = Math.sqrt(s);
  if (theta < DEXP_SERIES_ANGLE) {
    let c = 0;
    let dc = 0;
    for (let j = DEXP_C_SERIES.length - 1; j >= 0; j--) {
      c = c * s + DEXP_C_SERIES[j]!;
      if (j > 0) dc = dc * s + j * DEXP_C_SERIES[j]!;
    }
    out[0] = c;
    out[1] = dc;
    return;
  }
  const u = theta / 2;
  const ucot = u / Math.tan(u);
  const sn = Math.sin(u);
  out[0] = (1 - ucot) / s;
  // dc/ds = (u cot u + u²/sin²u − 2)/(32 u⁴)
  out[1] = (ucot + (u * u) / (sn * sn) - 2) / (32 * u * u * u * u);
}
