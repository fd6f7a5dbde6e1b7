/**
 * Exact discrete contact Lagrangians (spec 004 §6, seed 004 Section 4):
 *
 *   L_h^e(q0, q1, z0) = z(h) − z0                                                   (61) [D]
 *
 * along the Herglotz solution with q(0) = q0, q(h) = q1, z(0) = z0, and its derivatives
 *
 *   D1 L_h^e = −∂L/∂v(q0, v0, z0)·e^{b(h)},   D2 L_h^e = ∂L/∂v(q1, v1, z1),
 *   D_z L_h^e = e^{b(h)} − 1,                  b(t) = ∫₀ᵗ ∂L/∂z ds                 (64)–(65)
 *
 * Three constructions, each a {@link DiscreteContactLagrangian} with traits `{ isExact: true }`
 * (the closed forms here, the shooting one in the module `shooting`):
 *
 * - {@link freeParticleExactLd}: the closed form of L = ½|v|² + γz, eq. (78) with its z0-sign
 *   erratum corrected (spec 004 §8.1, §11.1); the printed formula is kept as
 *   {@link freeParticleExactLdPrinted} for the erratum test.
 * - {@link dampedOscillatorExactLd}: the closed form of L = ½|v|² − (k/2)|q|² + γz in all three
 *   damping regimes (spec 004 §8.2 [D]).
 * - `numericExactLd` (module `shooting`): any regular `ContactLagrangian`, by shooting on the
 *   Herglotz equations with adaptive DOPRI5 (spec 004 §6.5 [S]).
 *
 * The closed forms are autonomous: they accept the step's start time t and ignore it.
 *
 * Sign convention (spec 004 §3): the paper's `+γz`, γ < 0 dissipative.
 *
 * @module
 */
import { DomainError } from '@geomech/core';
import { checkDimension, checkStepSize } from './internal.js';
import { OscillatorExactStep, SCALAR_STEP_KERNELS } from './kernels.js';
import type { DiscreteContactLagrangian, DiscreteLagrangianTraits } from './types.js';

// ---------------------------------------------------------------------------------------------
// Named thresholds (STYLE.md: no bare epsilons)

/**
 * Below this |x|, x = γh, the free-particle coefficient c = γe^{γh}/(e^{γh} − 1) =
 * (1/h)·x/(1 − e^{−x}) is summed from its Bernoulli series 1 + x/2 + x²/12 − x⁴/720 (truncation
 * below x⁶/30240 ≈ 3e-29 relative at the threshold) instead of γ/(−expm1(−x)). The closed form
 * does not cancel (expm1 is accurate to a few ε for every x ≠ 0); the series only removes the
 * 0/0 at γ = 0 and makes the γ → 0 limit |q1 − q0|²/(2h) exact.
 *
 * @example
 * ```ts
 * // |γh| = 5e-7 < FREE_PARTICLE_SERIES_THRESHOLD: the series branch, continuous with the closed form
 * freeParticleExactLd(-1e-6, 0.5).Ld(Float64Array.of(1), Float64Array.of(2), 0); // ≈ |q1 − q0|²/(2h) = 1
 * ```
 */
export const FREE_PARTICLE_SERIES_THRESHOLD = 1e-4;

/**
 * Below this |s|, s = d·h², d = k − γ²/4, the damped-oscillator coefficients A·h = x/sin x and
 * A·C·h = x·cot x (x² = s; for s < 0 the same power series give x/sinh x and x·coth x) are summed
 * from their series in s to s³ (truncation below 2.1e-4·s⁴ ≈ 2e-20 relative at the threshold),
 * which covers critical damping d = 0 (A = 1/h, C = 1) and is continuous with the under- and
 * overdamped closed forms on either side.
 *
 * @example
 * ```ts
 * dampedOscillatorExactLd(1, -2, 0.5).regime; // 'critical' (d = k − γ²/4 = 0)
 * ```
 */
export const OSCILLATOR_CRITICAL_SERIES_THRESHOLD = 1e-4;

/**
 * Underdamped oscillator: the exact discrete Lagrangian does not exist at the conjugate points
 * wh ∈ πℤ (sin wh = 0, spec 004 §11.13). {@link dampedOscillatorExactLd} throws when
 * |sin wh| ≤ OSCILLATOR_RESONANCE_TOL·max(1, wh), which catches every floating-point rendering
 * of mπ (sin of the rounded mπ is ≈ ε·mπ/2); closer to resonance than that A = w/sin wh has no
 * correct digits.
 *
 * @example
 * ```ts
 * try {
 *   dampedOscillatorExactLd(1, 0, Math.PI); // wh = π: a conjugate point
 * } catch (e) {
 *   e instanceof DomainError; // true
 * }
 * ```
 */
export const OSCILLATOR_RESONANCE_TOL = 16 * Number.EPSILON;

/**
 * Traits of every exact discrete Lagrangian (Thm 4.4: its flow samples the exact solution).
 *
 * @example
 * ```ts
 * EXACT_TRAITS.isExact; // true
 * ```
 */
export const EXACT_TRAITS: DiscreteLagrangianTraits = Object.freeze({ isExact: true });

function checkFinite(what: string, x: number): void {
  if (!Number.isFinite(x)) throw new DomainError(what, x, 'must be finite');
}

// ---------------------------------------------------------------------------------------------
// Free particle (spec 004 §8.1)

/**
 * c(γ, h) = γe^{γh}/(e^{γh} − 1) = γ/(1 − e^{−γh}), the velocity-to-momentum factor of the exact
 * free-particle flow (v(h) = c·(q1 − q0)); c → 1/h as γ → 0 (series below
 * {@link FREE_PARTICLE_SERIES_THRESHOLD}).
 */
function freeParticleCoefficient(gamma: number, h: number): number {
  const x = gamma * h;
  if (Math.abs(x) < FREE_PARTICLE_SERIES_THRESHOLD) {
    const x2 = x * x;
    return (1 + x / 2 + x2 / 12 - (x2 * x2) / 720) / h;
  }
  return gamma / -Math.expm1(-x);
}

/**
 * The exact discrete Lagrangian of the damped free particle L = ½|v|² + γz on Rⁿ (spec 004 §8.1),
 * eq. (78) **corrected** (spec 004 §11.1: the paper prints −z0(e^{γh} − 1)):
 *
 *   L_h^e(q0, q1, z0) = γ|q1 − q0|² e^{γh} / (2(e^{γh} − 1)) + z0 (e^{γh} − 1)
 *
 * With c = γe^{γh}/(e^{γh} − 1) (→ 1/h as γ → 0, by series below
 * {@link FREE_PARTICLE_SERIES_THRESHOLD}):
 * D1 = −c(q1 − q0), D2 = c(q1 − q0), D_z = e^{γh} − 1 (= e^{b(h)} − 1, eq. (64)),
 * ∂(D1)/∂q1 = −c·I, ∇_{q1} D_z = 0. The momentum −D1/(1 + D_z) = v0 = γ(q1 − q0)/(e^{γh} − 1) is
 * the exact initial velocity, and D2 = v0 e^{γh} the final one.
 *
 * @param n - dimension of Q = Rⁿ (default 1).
 * @throws {@link DomainError} for non-finite γ or h ≤ 0.
 * @example
 * ```ts
 * const Ld = freeParticleExactLd(-0.05, 0.5);
 * Ld.Ld(Float64Array.of(1), Float64Array.of(2), 3); // 0.9134818188758024
 * Ld.Dz(Float64Array.of(1), Float64Array.of(2), 3); // e^{−0.025} − 1
 * ```
 */
export function freeParticleExactLd(gamma: number, h: number, n = 1): DiscreteContactLagrangian {
  checkFinite('freeParticleExactLd: gamma', gamma);
  checkStepSize('freeParticleExactLd', h);
  checkDimension('freeParticleExactLd', n);
  const c = freeParticleCoefficient(gamma, h);
  const em1 = Math.expm1(gamma * h);
  return Object.freeze({
    name: 'exact',
    n,
    h,
    traits: EXACT_TRAITS,
    // (78) corrected
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      let s = 0;
      for (let i = 0; i < n; i++) {
        const d = q1[i]! - q0[i]!;
        s += d * d;
      }
      return 0.5 * c * s + z0 * em1;
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = -c * (q1[i]! - q0[i]!);
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = c * (q1[i]! - q0[i]!);
      return out;
    },
    Dz: (): number => em1,
    // loops, not TypedArray.fill: a builtin call costs more than these few stores
    D2D1(out: Float64Array): Float64Array {
      for (let i = 0; i < n * n; i++) out[i] = 0;
      for (let i = 0; i < n; i++) out[i * n + i] = -c;
      return out;
    },
    D2Dz(out: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = 0;
      return out;
    },
  });
}

/**
 * Eq. (78) **as printed** in seed 004 — an erratum kept only to be tested against:
 *
 *   γ|q1 − q0|² e^{γh} / (2e^{γh} − 2) − z0 (e^{γh} − 1)        (WRONG sign of the z0 term)
 *
 * It contradicts Theorem 4.3 (D_z L_h^e = e^{b(h)} − 1 = e^{γh} − 1) and numerical shooting
 * whenever z0 ≠ 0 (spec 004 §8.1, §11.1); use {@link freeParticleExactLd}. Evaluated literally
 * (no γ → 0 limit).
 *
 * @example
 * ```ts
 * freeParticleExactLdPrinted(-0.05, 0.5)([1], [2], 3); // 1.0616223467058066 (shooting: 0.91348…)
 * ```
 */
export function freeParticleExactLdPrinted(
  gamma: number,
  h: number,
): (q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number) => number {
  checkFinite('freeParticleExactLdPrinted: gamma', gamma);
  checkStepSize('freeParticleExactLdPrinted', h);
  const E = Math.exp(gamma * h);
  return (q0, q1, z0) => {
    let s = 0;
    for (let i = 0; i < q0.length; i++) {
      const d = q1[i]! - q0[i]!;
      s += d * d;
    }
    return (gamma * s * E) / (2 * E - 2) - z0 * (E - 1);
  };
}

// ---------------------------------------------------------------------------------------------
// Damped harmonic oscillator (spec 004 §8.2 [D])

/**
 * Damping regime of L = ½|v|² − (k/2)|q|² + γz, by the sign of d = k − γ²/4.
 *
 * @example
 * ```ts
 * const regime: OscillatorRegime = dampedOscillatorExactLd(1, -3, 0.5).regime; // 'overdamped'
 * ```
 */
export type OscillatorRegime = 'underdamped' | 'overdamped' | 'critical';

/**
 * The exact discrete Lagrangian of the damped oscillator, with its regime and coefficients.
 *
 * @example
 * ```ts
 * const Ld: DampedOscillatorExactLd = dampedOscillatorExactLd(1, -0.05, 0.5);
 * Ld.w; // √(1 − 0.05²/4) = 0.99968745…
 * ```
 */
export interface DampedOscillatorExactLd extends DiscreteContactLagrangian {
  /**
   * `critical` when |d|h² < {@link OSCILLATOR_CRITICAL_SERIES_THRESHOLD} (series branch), else by
   * the sign of d = k − γ²/4.
   */
  readonly regime: OscillatorRegime;
  /** w = √|k − γ²/4|. */
  readonly w: number;
  /** A·C: w·cot(wh), w·coth(wh), or its series (→ 1/h at d = 0). */
  readonly AC: number;
  /** A·e^{γh/2}: w e^{γh/2}/sin(wh), w e^{γh/2}/sinh(wh), or its series. */
  readonly ASqrtE: number;
}

/**
 * The exact discrete Lagrangian of the damped harmonic oscillator L = ½|v|² − (k/2)|q|² + γz on
 * Rⁿ (spec 004 §8.2 [D], derived, not printed in the paper; the paper's Example 2 is k = 1):
 *
 *   L_h^e = (E − 1) z0 + (A/2)[(|q1|² + E|q0|²) C − 2√E q0·q1] + (γ/4)(|q1|² − E|q0|²)
 *
 * with E = e^{γh}, d = k − γ²/4 and
 * - d > 0 (underdamped): w = √d, A = w/sin(wh), C = cos(wh) — needs sin(wh) ≠ 0;
 * - d < 0 (overdamped): w = √(−d), A = w/sinh(wh), C = cosh(wh);
 * - d = 0 (critical): A = 1/h, C = 1; for |d|h² < {@link OSCILLATOR_CRITICAL_SERIES_THRESHOLD}
 *   the series of A·h = x/sin x and A·C·h = x cot x in s = d h² are used (continuous across).
 *
 * Derivatives: D1 = A(E C q0 − √E q1) − γE q0/2, D2 = A(C q1 − √E q0) + γ q1/2, D_z = E − 1,
 * ∂(D1)/∂q1 = −A√E·I, ∇_{q1} D_z = 0. Its discrete Herglotz flow is
 * q_{k+1} = 2e^{γh/2} C q_k − e^{γh} q_{k−1}, the exact solution sampled at kh (Thm 4.4 (76)).
 * The overdamped coefficients are evaluated as w/tanh(wh) and 2w e^{γh/2 − wh}/(1 − e^{−2wh}),
 * which do not overflow for large wh. For n = 1, `ContactIntegrator` steps it through a dedicated
 * step on these coefficients (bit-identical to the generic path, ~3× faster).
 *
 * @param n - dimension of Q = Rⁿ (isotropic stiffness k; default 1).
 * @throws {@link DomainError} for non-finite k or γ, h ≤ 0, or an underdamped step at a conjugate
 *   point (|sin wh| ≤ {@link OSCILLATOR_RESONANCE_TOL}·max(1, wh)): no exact L_d exists there.
 * @example
 * ```ts
 * const Ld = dampedOscillatorExactLd(1, -0.05, 0.5);
 * Ld.regime; // 'underdamped'
 * const p0 = -Ld.D1(new Float64Array(1), Float64Array.of(1), Float64Array.of(2), 0)[0]! / Math.exp(-0.025);
 * p0; // 2.3684249328025526 = q̇(0) of the exact solution
 * ```
 */
export function dampedOscillatorExactLd(
  k: number,
  gamma: number,
  h: number,
  n = 1,
): DampedOscillatorExactLd {
  checkFinite('dampedOscillatorExactLd: k', k);
  checkFinite('dampedOscillatorExactLd: gamma', gamma);
  checkStepSize('dampedOscillatorExactLd', h);
  checkDimension('dampedOscillatorExactLd', n);
  const E = Math.exp(gamma * h);
  const em1 = Math.expm1(gamma * h);
  const sqrtE = Math.exp(0.5 * gamma * h);
  const d = k - 0.25 * gamma * gamma;
  const s = d * h * h;
  const w = Math.sqrt(Math.abs(d));
  let regime: OscillatorRegime;
  let AC: number;
  let ASqrtE: number;
  if (Math.abs(s) < OSCILLATOR_CRITICAL_SERIES_THRESHOLD) {
    // x/sin x = 1 + s/6 + 7s²/360 + 31s³/15120 + …, x cot x = 1 − s/3 − s²/45 − 2s³/945 − …
    regime = 'critical';
    const fA = 1 + s * (1 / 6 + s * (7 / 360 + (s * 31) / 15120));
    const fAC = 1 - s * (1 / 3 + s * (1 / 45 + (s * 2) / 945));
    AC = fAC / h;
    ASqrtE = (fA * sqrtE) / h;
  } else if (d > 0) {
    regime = 'underdamped';
    const wh = w * h;
    const sn = Math.sin(wh);
    if (Math.abs(sn) <= OSCILLATOR_RESONANCE_TOL * Math.max(1, wh)) {
      throw new DomainError(
        'dampedOscillatorExactLd: sin(wh)',
        sn,
        'must not vanish (wh ∈ πℤ is a conjugate point: no exact discrete Lagrangian)',
      );
    }
    AC = (w * Math.cos(wh)) / sn;
    ASqrtE = (w * sqrtE) / sn;
  } else {
    regime = 'overdamped';
    const wh = w * h;
    AC = w / Math.tanh(wh);
    ASqrtE = (2 * w * Math.exp(0.5 * gamma * h - wh)) / -Math.expm1(-2 * wh);
  }
  const halfGammaE = 0.5 * gamma * E;
  const halfGamma = 0.5 * gamma;
  const Ld: DampedOscillatorExactLd = Object.freeze({
    name: 'exact',
    n,
    h,
    traits: EXACT_TRAITS,
    regime,
    w,
    AC,
    ASqrtE,
    // spec 004 §8.2 [D] closed form
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      let a0 = 0;
      let a1 = 0;
      let a01 = 0;
      for (let i = 0; i < n; i++) {
        const x0 = q0[i]!;
        const x1 = q1[i]!;
        a0 += x0 * x0;
        a1 += x1 * x1;
        a01 += x0 * x1;
      }
      return (
        em1 * z0 + 0.5 * (AC * (a1 + E * a0) - 2 * ASqrtE * a01) + 0.25 * gamma * (a1 - E * a0)
      );
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = (AC * E - halfGammaE) * q0[i]! - ASqrtE * q1[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = (AC + halfGamma) * q1[i]! - ASqrtE * q0[i]!;
      return out;
    },
    Dz: (): number => em1,
    // loops, not TypedArray.fill: a builtin call costs more than these few stores
    D2D1(out: Float64Array): Float64Array {
      for (let i = 0; i < n * n; i++) out[i] = 0;
      for (let i = 0; i < n; i++) out[i * n + i] = -ASqrtE;
      return out;
    },
    D2Dz(out: Float64Array): Float64Array {
      for (let i = 0; i < n; i++) out[i] = 0;
      return out;
    },
  });
  // ContactIntegrator's dedicated step for n = 1 (kernels.ts; the same coefficients, bit-identical)
  if (n === 1) {
    const c = { h, gamma, E, em1, AC, ASqrtE, halfGammaE, halfGamma };
    SCALAR_STEP_KERNELS.set(Ld, () => new OscillatorExactStep(c));
  }
  return Ld;
}
