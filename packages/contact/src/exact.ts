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
 * Three constructions, each a {@link DiscreteContactLagrangian} with traits `{ isExact: true }`:
 *
 * - {@link freeParticleExactLd}: the closed form of L = ½|v|² + γz, eq. (78) with its z0-sign
 *   erratum corrected (spec 004 §8.1, §11.1); the printed formula is kept as
 *   {@link freeParticleExactLdPrinted} for the erratum test.
 * - {@link dampedOscillatorExactLd}: the closed form of L = ½|v|² − (k/2)|q|² + γz in all three
 *   damping regimes (spec 004 §8.2 [D]).
 * - {@link numericExactLd}: any regular {@link ContactLagrangian}, by shooting on the Herglotz
 *   equations with adaptive DOPRI5 (spec 004 §6.5 [S]); the lower-level {@link shootExact}, the
 *   exact retractions R_h^{e±} (§6.1) and the contact exponential map (53) come with it.
 *
 * Sign convention (spec 004 §3): the paper's `+γz`, γ < 0 dissipative.
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DenseLU,
  DimensionError,
  DomainError,
  Dopri5Integrator,
  MaxStepsExceededError,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NonFiniteError,
  type OdeRhs,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
  StepSizeUnderflowError,
} from '@geomech/core';
import type {
  ContactLagrangian,
  DiscreteContactLagrangian,
  DiscreteLagrangianTraits,
} from './types.js';

// ---------------------------------------------------------------------------------------------
// Named thresholds (STYLE.md: no bare epsilons)

/**
 * Below this |x|, x = γh, the free-particle coefficient c = γe^{γh}/(e^{γh} − 1) =
 * (1/h)·x/(1 − e^{−x}) is summed from its Bernoulli series 1 + x/2 + x²/12 − x⁴/720 (truncation
 * below x⁶/30240 ≈ 3e-29 relative at the threshold) instead of γ/(−expm1(−x)). The closed form
 * does not cancel (expm1 is accurate to a few ε for every x ≠ 0); the series only removes the
 * 0/0 at γ = 0 and makes the γ → 0 limit |q1 − q0|²/(2h) exact.
 */
export const FREE_PARTICLE_SERIES_THRESHOLD = 1e-4;

/**
 * Below this |s|, s = d·h², d = k − γ²/4, the damped-oscillator coefficients A·h = x/sin x and
 * A·C·h = x·cot x (x² = s; for s < 0 the same power series give x/sinh x and x·coth x) are summed
 * from their series in s to s³ (truncation below 2.1e-4·s⁴ ≈ 2e-20 relative at the threshold),
 * which covers critical damping d = 0 (A = 1/h, C = 1) and is continuous with the under- and
 * overdamped closed forms on either side.
 */
export const OSCILLATOR_CRITICAL_SERIES_THRESHOLD = 1e-4;

/**
 * Underdamped oscillator: the exact discrete Lagrangian does not exist at the conjugate points
 * wh ∈ πℤ (sin wh = 0, spec 004 §11.13). {@link dampedOscillatorExactLd} throws when
 * |sin wh| ≤ OSCILLATOR_RESONANCE_TOL·max(1, wh), which catches every floating-point rendering
 * of mπ (sin of the rounded mπ is ≈ ε·mπ/2); closer to resonance than that A = w/sin wh has no
 * correct digits.
 */
export const OSCILLATOR_RESONANCE_TOL = 16 * Number.EPSILON;

/** Traits of every exact discrete Lagrangian (Thm 4.4: its flow samples the exact solution). */
const EXACT_TRAITS: DiscreteLagrangianTraits = Object.freeze({ isExact: true });

function checkStep(what: string, h: number): void {
  if (!(h > 0) || !Number.isFinite(h))
    throw new DomainError(`${what}: h`, h, 'must be a finite number > 0');
}

function checkFinite(what: string, x: number): void {
  if (!Number.isFinite(x)) throw new DomainError(what, x, 'must be finite');
}

function checkDimension(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new DimensionError(`${what}: n`, '>= 1', n);
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
  checkStep('freeParticleExactLd', h);
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
    D1q1(out: Float64Array): Float64Array {
      out.fill(0, 0, n * n);
      for (let i = 0; i < n; i++) out[i * n + i] = -c;
      return out;
    },
    Dzq1: (out: Float64Array): Float64Array => out.fill(0, 0, n),
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
  checkStep('freeParticleExactLdPrinted', h);
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

/** Damping regime of L = ½|v|² − (k/2)|q|² + γz, by the sign of d = k − γ²/4. */
export type OscillatorRegime = 'underdamped' | 'overdamped' | 'critical';

/** The exact discrete Lagrangian of the damped oscillator, with its regime and coefficients. */
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
 * which do not overflow for large wh.
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
  checkStep('dampedOscillatorExactLd', h);
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
  return Object.freeze({
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
    D1q1(out: Float64Array): Float64Array {
      out.fill(0, 0, n * n);
      for (let i = 0; i < n; i++) out[i * n + i] = -ASqrtE;
      return out;
    },
    Dzq1: (out: Float64Array): Float64Array => out.fill(0, 0, n),
  });
}

// ---------------------------------------------------------------------------------------------
// Herglotz flow and shooting (spec 004 §4.2 [D], §6.5 [S])

/** Options of the shooting solver ({@link shootExact}, {@link numericExactLd}, retractions). */
export interface ShootingOptions {
  /** DOPRI5 relative tolerance. Default 1e-12. */
  readonly rtol?: number;
  /** DOPRI5 absolute tolerance. Default 1e-14. */
  readonly atol?: number;
  /** DOPRI5 step budget per integration. Default 100000. */
  readonly maxSteps?: number;
  /**
   * Newton tolerance on ‖q(h; v0) − q1‖∞, relative to max(1, ‖q0‖∞, ‖q1‖∞). Default 1e-13. Newton
   * also stops when its correction no longer changes v0 (‖Δv0‖∞ ≤ 4ε·max(1, ‖v0‖∞)).
   */
  readonly tol?: number;
  /** Newton iteration cap. Default 25. */
  readonly maxIterations?: number;
  /**
   * Relative step s of the central differences in v0: δⱼ = s·max(1, |v0ⱼ|). Default
   * `CENTRAL_DIFFERENCE_STEP` = ∛ε.
   */
  readonly fdStep?: number;
}

/** Everything one shooting solve yields (spec 004 §6.5 with (61), (64)–(65)). */
export interface ExactShootingResult {
  /** L_h^e(q0, q1, z0) = z(h) − z0. */
  readonly value: number;
  /** D1 L_h^e = −∂L/∂v(q0, v0, z0)·e^{b(h)}. */
  readonly D1: Float64Array;
  /** D2 L_h^e = ∂L/∂v(q1, v1, z1). */
  readonly D2: Float64Array;
  /** D_z L_h^e = e^{b(h)} − 1. */
  readonly Dz: number;
  /** ∂(D1 L_h^e)/∂q1, n×n row-major (implicit function theorem on central differences in v0). */
  readonly D1q1: Float64Array;
  /** ∇_{q1}(D_z L_h^e) (same construction). */
  readonly Dzq1: Float64Array;
  /** Initial velocity v0 = q̇(0) of the boundary-value solution (R_h^{e−}). */
  readonly v0: Float64Array;
  /** Final velocity v1 = q̇(h). */
  readonly v1: Float64Array;
  /** Final action z1 = z(h). */
  readonly z1: number;
  /** b(h) = ∫₀ʰ ∂L/∂z dt, so σ_d = 1 + D_z = e^{b(h)}. */
  readonly bh: number;
  /** Newton iterations (shooting corrections) taken. */
  readonly iterations: number;
  /** ‖q(h; v0) − q1‖∞ at the returned v0. */
  readonly residualNorm: number;
}

/**
 * Scratch and right-hand side of the Herglotz ODE for `copies` stacked states, each
 * y = [q (n), v (n), z, b]:
 *
 *   q̇ = v,  W v̇ = L_q + L_v L_z − L_vq v − L_vz L  (W = L_vv),  ż = L,  ḃ = L_z
 *
 * (spec 004 §4.2 [D], the explicit form of the Herglotz equations (19), augmented with b of (64)).
 */
class HerglotzSystem {
  readonly n: number;
  /** Size of one stacked state: 2n + 2. */
  readonly m: number;
  readonly rhs: OdeRhs;
  private readonly q: Float64Array;
  private readonly v: Float64Array;
  private readonly lq: Float64Array;
  private readonly lv: Float64Array;
  private readonly lvz: Float64Array;
  private readonly lvq: Float64Array;
  private readonly lvv: Float64Array;
  private readonly r: Float64Array;
  private readonly lu: DenseLU;

  constructor(
    readonly L: ContactLagrangian,
    readonly copies: number,
  ) {
    const n = L.n;
    checkDimension('Herglotz system', n);
    this.n = n;
    this.m = 2 * n + 2;
    this.q = new Float64Array(n);
    this.v = new Float64Array(n);
    this.lq = new Float64Array(n);
    this.lv = new Float64Array(n);
    this.lvz = new Float64Array(n);
    this.lvq = new Float64Array(n * n);
    this.lvv = new Float64Array(n * n);
    this.r = new Float64Array(n);
    this.lu = new DenseLU(n);
    this.rhs = (out, _t, y) => {
      for (let c = 0; c < copies; c++) this.field(out, y, c * this.m);
    };
  }

  /** out[off…] ← Herglotz field at y[off…]. */
  private field(out: Float64Array, y: Float64Array, off: number): void {
    const { n, L, q, v, lq, lv, lvz, lvq, lvv, r } = this;
    for (let i = 0; i < n; i++) {
      q[i] = y[off + i]!;
      v[i] = y[off + n + i]!;
    }
    const z = y[off + 2 * n]!;
    const l = L.L(q, v, z);
    const lz = L.Lz(q, v, z);
    L.Lq(lq, q, v, z);
    L.Lv(lv, q, v, z);
    L.Lvz(lvz, q, v, z);
    L.Lvq(lvq, q, v, z);
    L.Lvv(lvv, q, v, z);
    for (let i = 0; i < n; i++) {
      let s = lq[i]! + lv[i]! * lz - lvz[i]! * l;
      for (let j = 0; j < n; j++) s -= lvq[i * n + j]! * v[j]!;
      r[i] = s;
    }
    // W a = r (regularity (12): W = L_vv nonsingular)
    if (n === 1) {
      if (lvv[0] === 0) {
        throw new DomainError('Herglotz field: W = L_vv', 0, 'must be regular (12)');
      }
      r[0] = r[0]! / lvv[0]!;
    } else {
      this.lu.factor(lvv);
      if (this.lu.isSingular) {
        throw new DomainError('Herglotz field: W = L_vv', 'singular', 'must be regular (12)');
      }
      this.lu.solve(r, r);
    }
    for (let i = 0; i < n; i++) {
      out[off + i] = v[i]!;
      out[off + n + i] = r[i]!;
    }
    out[off + 2 * n] = l;
    out[off + 2 * n + 1] = lz;
  }
}

interface ResolvedShootingOptions {
  rtol: number;
  atol: number;
  maxSteps: number;
  tol: number;
  maxIterations: number;
  fdStep: number;
}

function resolveOptions(options: ShootingOptions): ResolvedShootingOptions {
  const tol = options.tol ?? 1e-13;
  const maxIterations = options.maxIterations ?? 25;
  const fdStep = options.fdStep ?? CENTRAL_DIFFERENCE_STEP;
  if (!(tol > 0)) throw new DomainError('shooting: tol', tol, 'must be > 0');
  if (!Number.isInteger(maxIterations) || maxIterations < 0)
    throw new DomainError('shooting: maxIterations', maxIterations, 'must be an integer ≥ 0');
  if (!(fdStep > 0) || !Number.isFinite(fdStep))
    throw new DomainError('shooting: fdStep', fdStep, 'must be a finite number > 0');
  return {
    rtol: options.rtol ?? 1e-12,
    atol: options.atol ?? 1e-14,
    maxSteps: options.maxSteps ?? 100_000,
    tol,
    maxIterations,
    fdStep,
  };
}

/** The DOPRI5 errors that mean "this trajectory does not reach t = h" (shooting failure). */
function isIntegrationFailure(
  e: unknown,
): e is NonFiniteError | StepSizeUnderflowError | MaxStepsExceededError {
  return (
    e instanceof NonFiniteError ||
    e instanceof StepSizeUnderflowError ||
    e instanceof MaxStepsExceededError
  );
}

function normInf(v: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s = Math.max(s, Math.abs(v[i]!));
  return s;
}

/**
 * Shooting solver for the exact discrete Lagrangian (spec 004 §6.5 [S]). Owns a DOPRI5 integrator
 * over 1 + 2n stacked copies of the augmented Herglotz state: the nominal trajectory from
 * (q0, v0, z0, b = 0) and the trajectories from v0 ± δⱼeⱼ. Integrating them as one system makes
 * the adaptive controller take the same steps for all, so the central differences
 *
 *   ∂q(h)/∂v0ⱼ ≈ (q(h; v0 + δⱼeⱼ) − q(h; v0 − δⱼeⱼ))/(2δⱼ),   likewise ∂b(h)/∂v0ⱼ,
 *
 * differentiate one smooth discrete map (error O(δ²) + O(ε/δ) ≈ 1e-10 relative, not the
 * integrator's step-selection noise / δ). (The variational equations would need third
 * derivatives of L, which {@link ContactLagrangian} does not provide.) Newton on
 * F(v0) = q(h; v0) − q1 uses this Jacobian; at convergence the same sensitivities give, by the
 * implicit function theorem (∂v0/∂q1 = (∂q(h)/∂v0)⁻¹ =: S),
 *
 *   ∂(D1)/∂q1 = −e^{b(h)} [L_vv(q0, v0, z0) + L_v(q0, v0, z0) ⊗ ∂b(h)/∂v0] S,
 *   ∇_{q1} D_z = e^{b(h)} (∂b(h)/∂v0) S.
 */
class HerglotzShooter {
  readonly n: number;
  readonly options: ResolvedShootingOptions;
  private readonly system: HerglotzSystem;
  private readonly integrator: Dopri5Integrator;
  private readonly y0: Float64Array;
  private readonly F: Float64Array;
  private readonly J: Float64Array;
  private readonly gb: Float64Array;
  private readonly dx: Float64Array;
  private readonly lu: DenseLU;
  private readonly lv: Float64Array;
  private readonly lvv: Float64Array;
  private readonly row: Float64Array;
  private readonly rhsRow: Float64Array;
  // results of the last solve
  readonly q0: Float64Array;
  readonly q1: Float64Array;
  z0 = Number.NaN;
  /** z0 of the solve in progress. */
  private zSolve = 0;
  readonly v0: Float64Array;
  readonly v1: Float64Array;
  readonly D1: Float64Array;
  readonly D2: Float64Array;
  readonly D1q1: Float64Array;
  readonly Dzq1: Float64Array;
  value = Number.NaN;
  Dz = Number.NaN;
  z1 = Number.NaN;
  bh = Number.NaN;
  iterations = 0;
  residualNorm = Number.NaN;

  constructor(
    readonly L: ContactLagrangian,
    readonly h: number,
    options: ShootingOptions,
  ) {
    checkStep('shooting', h);
    const n = L.n;
    this.n = n;
    this.options = resolveOptions(options);
    this.system = new HerglotzSystem(L, 1 + 2 * n);
    const N = this.system.m * (1 + 2 * n);
    this.integrator = new Dopri5Integrator(N, this.system.rhs, {
      rtol: this.options.rtol,
      atol: this.options.atol,
      maxSteps: this.options.maxSteps,
      dense: false,
    });
    this.y0 = new Float64Array(N);
    this.F = new Float64Array(n);
    this.J = new Float64Array(n * n);
    this.gb = new Float64Array(n);
    this.dx = new Float64Array(n);
    this.lu = new DenseLU(n);
    this.lv = new Float64Array(n);
    this.lvv = new Float64Array(n * n);
    this.row = new Float64Array(n);
    this.rhsRow = new Float64Array(n);
    this.q0 = new Float64Array(n);
    this.q1 = new Float64Array(n);
    this.v0 = new Float64Array(n);
    this.v1 = new Float64Array(n);
    this.D1 = new Float64Array(n);
    this.D2 = new Float64Array(n);
    this.D1q1 = new Float64Array(n * n);
    this.Dzq1 = new Float64Array(n);
  }

  /** True when the last successful solve started from exactly (q0, z0). */
  startsAt(q0: ArrayLike<number>, z0: number): boolean {
    if (z0 !== this.z0) return false;
    for (let i = 0; i < this.n; i++) if (q0[i] !== this.q0[i]) return false;
    return true;
  }

  /** True when the last successful solve was at exactly (q0, q1, z0). */
  isAt(q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number): boolean {
    if (z0 !== this.z0) return false;
    for (let i = 0; i < this.n; i++) {
      if (q0[i] !== this.q0[i] || q1[i] !== this.q1[i]) return false;
    }
    return true;
  }

  /**
   * Solves the boundary-value problem q(0) = q0, q(h) = q1, z(0) = z0 and fills every result
   * field. `guess` is the Newton start for v0 (default (q1 − q0)/h).
   */
  solve(q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number, guess?: ArrayLike<number>): void {
    const { n, h, F, J, dx, lu, v0 } = this;
    const { tol, maxIterations } = this.options;
    if (q0.length !== n) throw new DimensionError('shooting: q0', n, q0.length);
    if (q1.length !== n) throw new DimensionError('shooting: q1', n, q1.length);
    if (guess !== undefined && guess.length !== n)
      throw new DimensionError('shooting: guess', n, guess.length);
    checkFinite('shooting: z0', z0);
    this.z0 = Number.NaN; // the cache key is invalid until this solve converges
    this.zSolve = z0;
    let scale = 1;
    for (let i = 0; i < n; i++) {
      const a = q0[i]!;
      const b = q1[i]!;
      checkFinite(`shooting: q0[${i}]`, a);
      checkFinite(`shooting: q1[${i}]`, b);
      this.q0[i] = a;
      this.q1[i] = b;
      v0[i] = guess === undefined ? (b - a) / h : guess[i]!;
      scale = Math.max(scale, Math.abs(a), Math.abs(b));
    }
    const tolAbs = tol * scale;
    let iterations = 0;
    let r: number;
    for (;;) {
      this.evaluate(iterations);
      r = normInf(F, n);
      if (r <= tolAbs) break;
      if (iterations >= maxIterations) {
        throw new NewtonDivergedError(iterations, r, undefined, 'shooting did not converge');
      }
      lu.factor(J);
      const cond = lu.conditionEstimate();
      if (lu.isSingular || !(cond < SINGULAR_JACOBIAN_CONDITION)) {
        throw new SingularJacobianError(iterations, cond);
      }
      for (let i = 0; i < n; i++) dx[i] = -F[i]!;
      lu.solve(dx, dx);
      const dxNorm = normInf(dx, n);
      if (!Number.isFinite(dxNorm)) {
        throw new NewtonDivergedError(iterations, r, undefined, 'shooting: non-finite correction');
      }
      // correction below the resolution of v0: F is at its noise floor, keep this evaluation
      if (dxNorm <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, normInf(v0, n))) break;
      for (let i = 0; i < n; i++) v0[i] = v0[i]! + dx[i]!;
      iterations++;
    }
    this.iterations = iterations;
    this.residualNorm = r;
    this.derivatives();
    this.z0 = z0;
  }

  /**
   * Integrates the stacked system from (q0, v0, z0) on [0, h]; fills F = q(h) − q1, J, ∂b/∂v0 and
   * the nominal v1, z1, b(h).
   */
  private evaluate(iteration: number): void {
    const { n, y0, q0, q1, v0, F, J, gb } = this;
    const m = this.system.m;
    const z0 = this.zSolve;
    const fdStep = this.options.fdStep;
    for (let c = 0; c < 1 + 2 * n; c++) {
      const off = c * m;
      for (let i = 0; i < n; i++) {
        y0[off + i] = q0[i]!;
        y0[off + n + i] = v0[i]!;
      }
      y0[off + 2 * n] = z0;
      y0[off + 2 * n + 1] = 0;
    }
    for (let j = 0; j < n; j++) {
      const vj = v0[j]!;
      const delta = fdStep * Math.max(1, Math.abs(vj));
      y0[(1 + 2 * j) * m + n + j] = vj + delta;
      y0[(2 + 2 * j) * m + n + j] = vj - delta;
    }
    let yEnd: Float64Array;
    try {
      const sol = this.integrator.integrate(y0, 0, this.h);
      yEnd = sol.sample('y', sol.count - 1);
    } catch (e) {
      if (isIntegrationFailure(e)) {
        throw new NewtonDivergedError(
          iteration,
          Number.POSITIVE_INFINITY,
          undefined,
          `shooting: the Herglotz trajectory does not reach t = h (${e.message})`,
        );
      }
      throw e;
    }
    for (let i = 0; i < n; i++) {
      F[i] = yEnd[i]! - q1[i]!;
      this.v1[i] = yEnd[n + i]!;
    }
    this.z1 = yEnd[2 * n]!;
    this.bh = yEnd[2 * n + 1]!;
    for (let j = 0; j < n; j++) {
      const p = (1 + 2 * j) * m;
      const q = (2 + 2 * j) * m;
      // divide by the exact distance of the two representable starting points
      const inv = 1 / (y0[p + n + j]! - y0[q + n + j]!);
      for (let i = 0; i < n; i++) J[i * n + j] = (yEnd[p + i]! - yEnd[q + i]!) * inv;
      gb[j] = (yEnd[p + 2 * n + 1]! - yEnd[q + 2 * n + 1]!) * inv;
    }
  }

  /** (61), (64)–(65) and the q1-derivatives by the implicit function theorem. */
  private derivatives(): void {
    const { n, L, q0, q1, v0, v1, lv, lvv, gb, lu, J, row, rhsRow, D1, D2, D1q1, Dzq1 } = this;
    const z0 = this.zSolve;
    const eb = Math.exp(this.bh);
    this.value = this.z1 - z0;
    this.Dz = Math.expm1(this.bh);
    L.Lv(lv, q0, v0, z0);
    for (let i = 0; i < n; i++) D1[i] = -lv[i]! * eb;
    L.Lv(D2, q1, v1, this.z1);
    L.Lvv(lvv, q0, v0, z0);
    lu.factor(J);
    const cond = lu.conditionEstimate();
    if (lu.isSingular || !(cond < SINGULAR_JACOBIAN_CONDITION)) {
      throw new SingularJacobianError(this.iterations, cond);
    }
    // rows of M S with M = L_vv + L_v ⊗ ∂b/∂v0: solve Sᵀ-systems Jᵀ x = mᵢ
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) rhsRow[k] = lvv[i * n + k]! + lv[i]! * gb[k]!;
      lu.solveTranspose(rhsRow, row);
      for (let j = 0; j < n; j++) D1q1[i * n + j] = -eb * row[j]!;
    }
    lu.solveTranspose(gb, row);
    for (let j = 0; j < n; j++) Dzq1[j] = eb * row[j]!;
  }

  /** v0 + S(q1 − q1ₚᵣₑᵥ): the first-order prediction of v0 at a new q1 (same q0, z0). */
  predict(out: Float64Array, q1: ArrayLike<number>): Float64Array {
    const n = this.n;
    for (let i = 0; i < n; i++) this.rhsRow[i] = q1[i]! - this.q1[i]!;
    this.lu.solve(this.rhsRow, out); // lu holds ∂q(h)/∂v0 at the last solution
    for (let i = 0; i < n; i++) out[i] = out[i]! + this.v0[i]!;
    return out;
  }

  /** A copy of the last solve's results. */
  snapshot(): ExactShootingResult {
    return {
      value: this.value,
      D1: this.D1.slice(),
      D2: this.D2.slice(),
      Dz: this.Dz,
      D1q1: this.D1q1.slice(),
      Dzq1: this.Dzq1.slice(),
      v0: this.v0.slice(),
      v1: this.v1.slice(),
      z1: this.z1,
      bh: this.bh,
      iterations: this.iterations,
      residualNorm: this.residualNorm,
    };
  }
}

/**
 * Solves the exact-discrete-Lagrangian boundary-value problem q(0) = q0, q(h) = q1, z(0) = z0 of
 * the Herglotz equations by shooting (spec 004 §6.5 [S]) and returns L_h^e with its derivatives:
 *
 *   value = z(h) − z0 (61),  D1 = −L_v(q0, v0, z0)e^{b(h)},  D2 = L_v(q1, v1, z1),
 *   D_z = e^{b(h)} − 1 (64)–(65),
 *
 * plus ∂(D1)/∂q1 and ∇_{q1}D_z. Newton on F(v0) = q(h; q0, v0, z0) − q1 from v0 = (q1 − q0)/h
 * (or `guess`), each evaluation an adaptive DOPRI5 solve (rtol 1e-12, atol 1e-14 by default) of
 * the Herglotz ODE augmented with ḃ = ∂L/∂z, together with 2n perturbed copies whose central
 * differences give ∂q(h)/∂v0 and ∂b(h)/∂v0 (see {@link ShootingOptions}). The q1-derivatives
 * follow by the implicit function theorem: with S = (∂q(h)/∂v0)⁻¹ = ∂v0/∂q1,
 * ∂(D1)/∂q1 = −e^{b(h)}(L_vv + L_v ⊗ ∂b/∂v0)S and ∇_{q1}D_z = e^{b(h)}(∂b/∂v0)S; their accuracy
 * is that of the central differences (≈ 1e-10 relative), the other outputs carry the integrator
 * and Newton tolerances. The solution exists only locally (Thm 4.1: h small, q1 near q0).
 *
 * @throws {@link NewtonDivergedError} when shooting fails (no convergence within
 *   `maxIterations`, or a trial trajectory that blows up before t = h);
 *   {@link SingularJacobianError} at a conjugate point (∂q(h)/∂v0 singular);
 *   {@link DimensionError} / {@link DomainError} for bad arguments.
 * @example
 * ```ts
 * // L = ½v² + γz (γ = −0.05), the free particle of spec 004 §8.1
 * const free = mechanicalContactLagrangian(zeroPotential(1), -0.05);
 * const r = shootExact(free, 0.5, [1], [2], 3);
 * r.value;  // 0.9134818188758024 (the corrected (78))
 * r.v0[0];  // 2.025104165581609 = γ(q1 − q0)/(e^{γh} − 1)
 * ```
 */
export function shootExact(
  L: ContactLagrangian,
  h: number,
  q0: ArrayLike<number>,
  q1: ArrayLike<number>,
  z0: number,
  options: ShootingOptions & { readonly guess?: ArrayLike<number> } = {},
): ExactShootingResult {
  const shooter = new HerglotzShooter(L, h, options);
  shooter.solve(q0, q1, z0, options.guess);
  return shooter.snapshot();
}

/** Work counters of a {@link NumericExactLd}. */
export interface ShootingStats {
  /** Shooting solves performed. */
  readonly solves: number;
  /** Calls answered from the cached last solve. */
  readonly cacheHits: number;
  /** Newton iterations summed over all solves. */
  readonly iterations: number;
}

/** The shooting exact discrete Lagrangian, with access to its cached solve. */
export interface NumericExactLd extends DiscreteContactLagrangian {
  /** The full result at (q0, q1, z0): solved, or reused when the point is the last one. */
  solve(q0: Float64Array, q1: Float64Array, z0: number): ExactShootingResult;
  readonly stats: ShootingStats;
}

/**
 * The exact discrete Lagrangian L_h^e of any regular {@link ContactLagrangian}, computed by
 * shooting ({@link shootExact}; spec 004 §6.5 [S], (61), (64)–(65)):
 * L_d = z(h) − z0, D1 = −L_v(q0, v0, z0)e^{b(h)}, D2 = L_v(q1, v(h), z(h)), D_z = e^{b(h)} − 1,
 * and D1q1, Dzq1 from the shooting sensitivities by the implicit function theorem (central
 * differences in v0, ≈ 1e-10 relative; see {@link shootExact}).
 *
 * One solve yields all six outputs, and the last one is cached: the calls an integrator makes in
 * sequence at the same (q0, q1, z0) (Ld, D1, D2, Dz, D1q1, Dzq1) cost one shooting solve. A new
 * q1 with the same (q0, z0) — a Newton iteration on q1 — starts from the first-order prediction
 * v0 + (∂q(h)/∂v0)⁻¹(q1 − q1ₚᵣₑᵥ), falling back to (q1 − q0)/h if that start fails. The vector
 * outputs are copied into `out`; the shooting itself allocates DOPRI5's per-solve output
 * (this is a verification-grade method, not a hot-loop one).
 *
 * @throws {@link NewtonDivergedError} (from any method) when shooting fails.
 * @example
 * ```ts
 * const oscillator = mechanicalContactLagrangian(quadraticPotential(1), -0.05); // ½v² − ½q² − 0.05z
 * const Ld = numericExactLd(oscillator, 0.5);
 * const q0 = Float64Array.of(1), q1 = Float64Array.of(2);
 * Ld.Ld(q0, q1, 0);        // = dampedOscillatorExactLd(1, −0.05, 0.5).Ld(q0, q1, 0) to ~1e-13
 * Ld.Dz(q0, q1, 0);        // e^{−0.025} − 1 (cached: no second solve)
 * Ld.stats.solves;         // 1
 * ```
 */
export function numericExactLd(
  L: ContactLagrangian,
  h: number,
  options: ShootingOptions = {},
): NumericExactLd {
  const shooter = new HerglotzShooter(L, h, options);
  const n = L.n;
  const guess = new Float64Array(n);
  const stats = { solves: 0, cacheHits: 0, iterations: 0 };
  const ensure = (q0: Float64Array, q1: Float64Array, z0: number): HerglotzShooter => {
    if (shooter.isAt(q0, q1, z0)) {
      stats.cacheHits++;
      return shooter;
    }
    stats.solves++;
    if (shooter.startsAt(q0, z0)) {
      shooter.predict(guess, q1);
      try {
        shooter.solve(q0, q1, z0, guess);
        stats.iterations += shooter.iterations;
        return shooter;
      } catch (e) {
        if (!(e instanceof NewtonDivergedError || e instanceof SingularJacobianError)) throw e;
      }
    }
    shooter.solve(q0, q1, z0);
    stats.iterations += shooter.iterations;
    return shooter;
  };
  return Object.freeze({
    name: 'exact',
    n,
    h,
    traits: EXACT_TRAITS,
    stats,
    solve: (q0: Float64Array, q1: Float64Array, z0: number): ExactShootingResult =>
      ensure(q0, q1, z0).snapshot(),
    Ld: (q0: Float64Array, q1: Float64Array, z0: number): number => ensure(q0, q1, z0).value,
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      out.set(ensure(q0, q1, z0).D1);
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      out.set(ensure(q0, q1, z0).D2);
      return out;
    },
    Dz: (q0: Float64Array, q1: Float64Array, z0: number): number => ensure(q0, q1, z0).Dz,
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      out.set(ensure(q0, q1, z0).D1q1);
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      out.set(ensure(q0, q1, z0).Dzq1);
      return out;
    },
  });
}

/** A point (q, v, z) of TQ × R. */
export interface TangentContactPoint {
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly z: number;
}

/** A point (q0, q1, z0) of Q × Q × R. */
export interface DiscreteContactPoint {
  readonly q0: Float64Array;
  readonly q1: Float64Array;
  readonly z0: number;
}

/**
 * The exact retraction R_h^{e−}: Q × Q × R → TQ × R (spec 004 §6.1), the local inverse of the
 * contact exponential map (53): (q0, q1, z0) ↦ (q0, v0, z0) with v0 the initial velocity of the
 * Herglotz solution from q0 to q1 in time h (by {@link shootExact}).
 *
 * @example
 * ```ts
 * const oscillator = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const Rm = exactRetractionMinus(oscillator, 0.5);
 * Rm([1], [2], 0).v[0]; // 2.3684249328025526 (spec 004 §8.2, γ = −0.05)
 * ```
 */
export function exactRetractionMinus(
  L: ContactLagrangian,
  h: number,
  options: ShootingOptions = {},
): (q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number) => TangentContactPoint {
  const shooter = new HerglotzShooter(L, h, options);
  return (q0, q1, z0) => {
    shooter.solve(q0, q1, z0);
    return { q: shooter.q0.slice(), v: shooter.v0.slice(), z: z0 };
  };
}

/**
 * The exact retraction R_h^{e+} = φ_h^{ξ_L} ∘ R_h^{e−} (spec 004 §6.1): (q0, q1, z0) ↦
 * (q1, v1, z1), the end state of the Herglotz solution from q0 to q1 in time h. By Theorem 4.3,
 * F⁺L_h^e = FL ∘ R_h^{e+}.
 *
 * @example
 * ```ts
 * const Rp = exactRetractionPlus(mechanicalContactLagrangian(zeroPotential(1), -0.05), 0.5);
 * Rp([1], [2], 0).z; // 0.9875520827908045
 * ```
 */
export function exactRetractionPlus(
  L: ContactLagrangian,
  h: number,
  options: ShootingOptions = {},
): (q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number) => TangentContactPoint {
  const shooter = new HerglotzShooter(L, h, options);
  return (q0, q1, z0) => {
    shooter.solve(q0, q1, z0);
    return { q: shooter.q1.slice(), v: shooter.v1.slice(), z: shooter.z1 };
  };
}

/**
 * The contact exponential map (53), exp_h^{ξ_L}: (q0, v0, z0) ↦ (q0, q1, z0) with q1 the
 * position at time h of the Herglotz flow (spec 004 §4.2 [D] explicit form) from (q0, v0, z0),
 * integrated by adaptive DOPRI5 (rtol/atol of {@link ShootingOptions}). A local diffeomorphism
 * (Thm 4.1) whose local inverse is {@link exactRetractionMinus}.
 *
 * @throws the DOPRI5 errors (NonFiniteError, StepSizeUnderflowError, MaxStepsExceededError) when
 *   the flow does not exist up to t = h.
 * @example
 * ```ts
 * const exp = contactExponentialMap(mechanicalContactLagrangian(quadraticPotential(1), -0.05), 0.5);
 * exp([1], [2.3684249328025526], 0).q1[0]; // 2 (to ~1e-13)
 * ```
 */
export function contactExponentialMap(
  L: ContactLagrangian,
  h: number,
  options: Pick<ShootingOptions, 'rtol' | 'atol' | 'maxSteps'> = {},
): (q0: ArrayLike<number>, v0: ArrayLike<number>, z0: number) => DiscreteContactPoint {
  checkStep('contactExponentialMap', h);
  const system = new HerglotzSystem(L, 1);
  const n = L.n;
  const integrator = new Dopri5Integrator(system.m, system.rhs, {
    rtol: options.rtol ?? 1e-12,
    atol: options.atol ?? 1e-14,
    maxSteps: options.maxSteps ?? 100_000,
    dense: false,
  });
  const y0 = new Float64Array(system.m);
  return (q0, v0, z0) => {
    if (q0.length !== n) throw new DimensionError('contactExponentialMap: q0', n, q0.length);
    if (v0.length !== n) throw new DimensionError('contactExponentialMap: v0', n, v0.length);
    for (let i = 0; i < n; i++) {
      y0[i] = q0[i]!;
      y0[n + i] = v0[i]!;
    }
    y0[2 * n] = z0;
    y0[2 * n + 1] = 0;
    const sol = integrator.integrate(y0, 0, h);
    const yEnd = sol.sample('y', sol.count - 1);
    return { q0: Float64Array.from(q0), q1: yEnd.slice(0, n), z0 };
  };
}
