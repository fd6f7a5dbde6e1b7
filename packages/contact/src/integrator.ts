/**
 * The generic contact variational integrator (spec 004 §7.1): a {@link DiscreteContactLagrangian}
 * joined with a core {@link NewtonSolver}. It steps either the discrete Hamiltonian flow
 *
 *   Φ̃_d = F⁺L_d ∘ (F⁻L_d)⁻¹ : (q_k, p_k, z_k) ↦ (q_{k+1}, p_{k+1}, z_{k+1})     (43), seed 004
 *
 * or the discrete Lagrangian flow
 *
 *   Φ_d = (F⁻L_d)⁻¹ ∘ F⁺L_d : (q_{k−1}, q_k, z_{k−1}) ↦ (q_k, q_{k+1}, z_k)      Thm 3.7, seed 004
 *
 * Both solve, for x = q_{k+1}, the n equations of the discrete Herglotz system (39) written
 * through the discrete Legendre transforms (40):
 *
 *   G(x) = (1 + D_z L_d(q_k, x, z_k)) p_k + D1 L_d(q_k, x, z_k) = 0,
 *   ∂G/∂x = ∂(D1 L_d)/∂q1 + p_k ⊗ ∇_{q1}(D_z L_d)                              spec 004 §7.1
 *
 * and then set p_{k+1} = D2 L_d(q_k, x, z_k), z_{k+1} = z_k + L_d(q_k, x, z_k) and the step's
 * conformal factor σ_k = 1 + D_z L_d(q_k, x, z_k) (Thm 3.9: Φ̃_d*η = σ_k η).
 *
 * Regularity (spec 004 §9.12, §11.13): a step whose σ vanishes (|σ| below
 * {@link SIGMA_REGULARITY_TOL} relative to max(1, |D_z L_d|)) throws {@link RegularityError};
 * a negative σ (the step reverses the orientation of the contact form) is legal but is reported
 * once, with its step, in {@link DiscreteContactSolution.warnings}. The library never prints.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  GeomechError,
  NEWTON_DEFAULT_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  PROGRESS_INTERVAL_STEPS,
  type ProgressCallback,
} from '@geomech/core';
import { copyVector } from './internal.js';
import { contactHamiltonian, type MechanicalContactLagrangian } from './mechanical.js';
import type { ContactInitialData, ContactSolution } from './midpoint.js';
import { checkSigma, negativeSigmaWarning, SIGMA_REGULARITY_TOL } from './regularity.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from './types.js';

/**
 * The continuous Lagrangian an integrator may know, for the phase-space start (q0, v0, z0) and
 * for the energy H∘F⁻L_d. A {@link MechanicalContactLagrangian} (detected by its `potential`
 * field) takes the fast path p = v, H = ½|p|² + V(q) − γz.
 */
export type IntegratorLagrangian = ContactLagrangian | MechanicalContactLagrangian;

/** Options of {@link ContactIntegrator}. */
export interface ContactIntegratorOptions {
  /** Newton tolerance on ‖G‖∞ (absolute). Default core's NEWTON_DEFAULT_TOL = 1e-12. */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
  /** Backtracking line search in Newton. Default false. */
  readonly lineSearch?: boolean;
  /** Relative regularity threshold of the guard. Default {@link SIGMA_REGULARITY_TOL}. */
  readonly sigmaTol?: number;
  /**
   * The continuous Lagrangian: gives p0 = FL(q0, v0, z0) = L_v for a (q0, v0, z0) start and the
   * recorded energy H(q, p, z) = p·v − L(q, v, z), v = FL⁻¹(p). Without it a (q0, v0, z0) start
   * uses p0 = v0 (the mechanical Legendre map) and the energy is recorded as NaN.
   */
  readonly lagrangian?: IntegratorLagrangian;
  /**
   * Newton's initial guess for q_{k+1}. `'momentum'` (default): x = q_k + h σ̂ p_k with
   * σ̂ = 1 + D_z L_d(q_k, q_k + h p_k, z_k), exact for the free particle and identical to
   * `MidpointHerglotz`'s guess for mechanical L. `'extrapolate'`: x = q_k + (q_k − q_{k−1})
   * once a previous increment exists (spec 004 §7.1 [S]).
   */
  readonly initialGuess?: 'momentum' | 'extrapolate';
}

/** Options of {@link ContactIntegrator.integrate}. */
export interface ContactIntegrateOptions {
  /** Keep every `every`-th state (and always the first and the last). Default 1. */
  readonly every?: number;
  /** Called every {@link PROGRESS_INTERVAL_STEPS} steps with (steps done, steps). */
  readonly onProgress?: ProgressCallback;
}

/**
 * A discrete contact trajectory: {@link ContactSolution} (flat storage) plus the regularity
 * warnings of the run. `energy` is H∘F⁻L_d at the kept states (NaN without a Lagrangian).
 */
export interface DiscreteContactSolution extends ContactSolution {
  /**
   * Diagnostics that did not stop the run, e.g. the first step with σ = 1 + D_z L_d < 0 (the step
   * reverses the orientation of η; spec 004 §9.12 [S]). Empty when all is well.
   */
  readonly warnings: readonly string[];
}

/** Default Newton iteration cap of a step. */
const DEFAULT_MAX_ITERATIONS = 50;

/**
 * The generic discrete Herglotz integrator of spec 004 §7.1 for any {@link
 * DiscreteContactLagrangian}: owns its Newton solver and every scratch vector, so
 * {@link stepHamiltonian} and {@link stepLagrangian} allocate nothing.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const sol = new ContactIntegrator(Ld, { lagrangian: lag }).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
 * sol.q[2]; // 2.5102941176470589 (spec 004 §8.2 reference table)
 * ```
 */
export class ContactIntegrator {
  readonly n: number;
  readonly h: number;
  /** σ = 1 + D_z L_d of the last step taken (by either step method). */
  lastSigma = Number.NaN;
  /** Newton iterations of the last step. */
  lastIterations = 0;
  /** ‖G‖∞ at the accepted q_{k+1} of the last step. */
  lastResidual = 0;
  /** First step with σ < 0 since the last {@link resetDiagnostics} (−1: none), and its σ. */
  firstNegativeSigmaStep = -1;
  firstNegativeSigma = Number.NaN;

  private readonly newton: NewtonSolver;
  private readonly sigmaTol: number;
  private readonly guessMode: 'momentum' | 'extrapolate';
  private readonly lagrangian: IntegratorLagrangian | undefined;
  private readonly residualFn: (out: Float64Array, x: Float64Array) => void;
  private readonly jacobianFn: (out: Float64Array, x: Float64Array) => void;
  // state of the equation G being solved
  private readonly qk: Float64Array;
  private readonly pk: Float64Array;
  private zk = 0;
  // scratch
  private readonly guess: Float64Array;
  private readonly dzq1: Float64Array;
  private readonly increment: Float64Array;
  private hasIncrement = false;
  private readonly mapQ: Float64Array;
  private readonly mapP: Float64Array;
  // inverse Legendre map v = FL⁻¹(p) for the energy of a general L
  private readonly legendreNewton: NewtonSolver | undefined;
  private readonly vk: Float64Array;
  private readonly legendreResidual: (out: Float64Array, v: Float64Array) => void;
  private readonly legendreJacobian: (out: Float64Array, v: Float64Array) => void;
  private eq: Float64Array;
  private ep: Float64Array;
  private ez = 0;

  constructor(
    readonly Ld: DiscreteContactLagrangian,
    options: ContactIntegratorOptions = {},
  ) {
    const n = Ld.n;
    if (!Number.isInteger(n) || n < 1)
      throw new DimensionError('ContactIntegrator: Ld.n', '>= 1', n);
    if (!(Ld.h > 0) || !Number.isFinite(Ld.h))
      throw new DomainError('ContactIntegrator: Ld.h', Ld.h, 'must be a finite number > 0');
    this.n = n;
    this.h = Ld.h;
    this.sigmaTol = options.sigmaTol ?? SIGMA_REGULARITY_TOL;
    if (!(this.sigmaTol >= 0))
      throw new DomainError('ContactIntegrator: sigmaTol', this.sigmaTol, 'must be >= 0');
    this.guessMode = options.initialGuess ?? 'momentum';
    this.lagrangian = options.lagrangian;
    if (this.lagrangian !== undefined) {
      const ln = 'potential' in this.lagrangian ? this.lagrangian.potential.dim : this.lagrangian.n;
      if (ln !== n) throw new DimensionError('ContactIntegrator: lagrangian dimension', n, ln);
    }
    const newtonOptions = {
      tol: options.tol ?? NEWTON_DEFAULT_TOL,
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      lineSearch: options.lineSearch ?? false,
    };
    this.newton = new NewtonSolver(n, newtonOptions);
    this.qk = new Float64Array(n);
    this.pk = new Float64Array(n);
    this.guess = new Float64Array(n);
    this.dzq1 = new Float64Array(n);
    this.increment = new Float64Array(n);
    this.mapQ = new Float64Array(n);
    this.mapP = new Float64Array(n);
    this.vk = new Float64Array(n);
    this.eq = this.qk;
    this.ep = this.pk;
    const lag = this.lagrangian;
    if (lag !== undefined && !('potential' in lag)) {
      this.legendreNewton = new NewtonSolver(n, newtonOptions);
      // (20) inverted: L_v(q, v, z) − p = 0, Jacobian W = L_vv (12)
      this.legendreResidual = (out, v) => {
        lag.Lv(out, this.eq, v, this.ez);
        for (let i = 0; i < n; i++) out[i] = out[i]! - this.ep[i]!;
      };
      this.legendreJacobian = (out, v) => {
        lag.Lvv(out, this.eq, v, this.ez);
      };
    } else {
      this.legendreNewton = undefined;
      this.legendreResidual = () => {};
      this.legendreJacobian = () => {};
    }
    // (39) through (40): G(x) = (1 + Dz L_d(q_k, x, z_k)) p_k + D1 L_d(q_k, x, z_k)
    this.residualFn = (out, x) => {
      const { qk, pk, zk } = this;
      Ld.D1(out, qk, x, zk);
      const s = 1 + Ld.Dz(qk, x, zk);
      for (let i = 0; i < n; i++) out[i] = out[i]! + s * pk[i]!;
    };
    // spec 004 §7.1: ∂G/∂x = ∂(D1 L_d)/∂q1 + p_k ⊗ ∇_{q1}(Dz L_d)
    this.jacobianFn = (out, x) => {
      const { qk, pk, zk, dzq1 } = this;
      Ld.D1q1(out, qk, x, zk);
      Ld.Dzq1(dzq1, qk, x, zk);
      for (let i = 0; i < n; i++) {
        const pi = pk[i]!;
        for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + pi * dzq1[j]!;
      }
    };
  }

  /** Forgets the previous increment (used by `'extrapolate'`) and the negative-σ record. */
  resetDiagnostics(): void {
    this.hasIncrement = false;
    this.firstNegativeSigmaStep = -1;
    this.firstNegativeSigma = Number.NaN;
  }

  /**
   * One step of the discrete Hamiltonian flow Φ̃_d = F⁺L_d ∘ (F⁻L_d)⁻¹ (43), in place: (q, p) are
   * overwritten with (q_{k+1}, p_{k+1}) and z_{k+1} is returned; σ_k is left in
   * {@link lastSigma}. `k` labels errors and warnings. Allocates nothing.
   *
   * @throws {@link RegularityError} when σ_k vanishes; {@link NewtonDivergedError} when Newton
   *   fails; {@link NonFiniteError} when the new state is not finite.
   */
  stepHamiltonian(q: Float64Array, p: Float64Array, z: number, k = 0): number {
    const { n, guess, qk, Ld } = this;
    this.load(q, p, z);
    if (this.guessMode === 'extrapolate' && this.hasIncrement) {
      for (let i = 0; i < n; i++) guess[i] = qk[i]! + this.increment[i]!;
    } else {
      this.momentumGuess();
    }
    const x = this.solveForward(k);
    // F⁺L_d (40): p_{k+1} = D2 L_d(q_k, x, z_k), z_{k+1} = z_k + L_d(q_k, x, z_k)
    const zNext = z + Ld.Ld(qk, x, z);
    Ld.D2(p, qk, x, z);
    for (let i = 0; i < n; i++) {
      this.increment[i] = x[i]! - qk[i]!;
      q[i] = x[i]!;
    }
    this.hasIncrement = true;
    assertFinite(q, p, zNext, k);
    return zNext;
  }

  /**
   * (F⁻L_d)⁻¹ (40): out ← the q1 with F⁻L_d(q0, q1, z0) = (q0, p0, z0), i.e. the root of
   * (1 + D_z L_d(q0, q1, z0)) p0 + D1 L_d(q0, q1, z0) = 0, by Newton from `guess` (default the
   * momentum guess q0 + hσ̂p0). The conformal factor σ at the root is left in {@link lastSigma}.
   * Allocates nothing.
   */
  inverseLegendreMinus(
    out: Float64Array,
    q0: Float64Array,
    p0: Float64Array,
    z0: number,
    guess?: ArrayLike<number>,
    k = 0,
  ): Float64Array {
    const { n } = this;
    if (q0.length !== n) throw new DimensionError('inverseLegendreMinus: q0', n, q0.length);
    if (p0.length !== n) throw new DimensionError('inverseLegendreMinus: p0', n, p0.length);
    this.load(q0, p0, z0);
    if (guess === undefined) this.momentumGuess();
    else {
      if (guess.length !== n)
        throw new DimensionError('inverseLegendreMinus: guess', n, guess.length);
      for (let i = 0; i < n; i++) this.guess[i] = guess[i]!;
    }
    const x = this.solveForward(k);
    for (let i = 0; i < n; i++) out[i] = x[i]!;
    return out;
  }

  private load(q: Float64Array, p: Float64Array, z: number): void {
    const { n, qk, pk } = this;
    for (let i = 0; i < n; i++) {
      qk[i] = q[i]!;
      pk[i] = p[i]!;
    }
    this.zk = z;
  }

  /** guess ← q_k + h σ̂ p_k, σ̂ = 1 + D_z L_d at the free-flight point q_k + h p_k. */
  private momentumGuess(): void {
    const { n, h, guess, qk, pk, zk, Ld } = this;
    for (let i = 0; i < n; i++) guess[i] = qk[i]! + h * pk[i]!;
    const s0 = 1 + Ld.Dz(qk, guess, zk);
    for (let i = 0; i < n; i++) guess[i] = qk[i]! + h * s0 * pk[i]!;
  }

  /**
   * One step of the discrete Lagrangian flow Φ_d (Thm 3.7, spec 004 §7.1), in place: from
   * (q_{k−1}, q_k, z_{k−1}) = (qPrev, q, zPrev) computes z_k = z_{k−1} + L_d, p_k = D2 L_d (F⁺) and
   * solves (39) for q_{k+1}; then qPrev ← q_k, q ← q_{k+1}, and z_k is returned. σ of the forward
   * interval (q_k, q_{k+1}, z_k) is left in {@link lastSigma}. `k` is the index of q (the state
   * the step leaves). Newton starts from 2q_k − q_{k−1} (spec 004 §7.1 [S]). Allocates nothing.
   */
  stepLagrangian(qPrev: Float64Array, q: Float64Array, zPrev: number, k = 1): number {
    const { n, guess, qk, pk, Ld } = this;
    // (35) and F⁺L_d (40)
    const z = zPrev + Ld.Ld(qPrev, q, zPrev);
    Ld.D2(pk, qPrev, q, zPrev);
    for (let i = 0; i < n; i++) {
      qk[i] = q[i]!;
      guess[i] = 2 * q[i]! - qPrev[i]!;
    }
    this.zk = z;
    const x = this.solveForward(k);
    for (let i = 0; i < n; i++) {
      qPrev[i] = qk[i]!;
      q[i] = x[i]!;
    }
    assertFinite(q, pk, z, k);
    return z;
  }

  /**
   * Solves G(x) = 0 from `this.guess` for the state (qk, pk, zk), checks σ; returns Newton's buffer.
   */
  private solveForward(k: number): Float64Array {
    const { Ld, qk, zk } = this;
    let result: ReturnType<NewtonSolver['solve']>;
    try {
      result = this.newton.solve(this.residualFn, this.jacobianFn, this.guess, k);
    } catch (error) {
      // A vanishing σ often shows up first as a singular or diverging Newton iteration.
      checkSigma(Ld.Dz(qk, this.guess, zk), k, this.sigmaTol);
      throw error;
    }
    const x = result.x;
    const sigma = checkSigma(Ld.Dz(qk, x, zk), k, this.sigmaTol);
    if (!result.converged) throw new NewtonDivergedError(result.iterations, result.residualNorm, k);
    this.lastIterations = result.iterations;
    this.lastResidual = result.residualNorm;
    this.lastSigma = sigma;
    if (sigma < 0 && this.firstNegativeSigmaStep < 0) {
      this.firstNegativeSigmaStep = k;
      this.firstNegativeSigma = sigma;
    }
    return x;
  }

  /**
   * The discrete Hamiltonian map as a function of x = (q, p, z) ∈ R^{2n+1}: writes Φ̃_d(x) into
   * `out` and returns σ_k. For diagnostics such as `contactFormDefect` (49); allocates nothing.
   */
  hamiltonianMap(): (out: Float64Array, x: Float64Array) => number {
    const { n, mapQ, mapP } = this;
    return (out, x) => {
      for (let i = 0; i < n; i++) {
        mapQ[i] = x[i]!;
        mapP[i] = x[n + i]!;
      }
      // a map of x alone: no extrapolation from (and, after it, none to) the integrator's run
      this.hasIncrement = false;
      const zNext = this.stepHamiltonian(mapQ, mapP, x[2 * n]!, 0);
      this.hasIncrement = false;
      for (let i = 0; i < n; i++) {
        out[i] = mapQ[i]!;
        out[n + i] = mapP[i]!;
      }
      out[2 * n] = zNext;
      return this.lastSigma;
    };
  }

  /**
   * The discrete Lagrangian map Φ_d as a function of x = (q0, q1, z0) ∈ R^{2n+1}: writes
   * (q1, q2, z1) into `out` and returns σ_d(x) = 1 + D_z L_d(q0, q1, z0) (the factor of (48)).
   */
  lagrangianMap(): (out: Float64Array, x: Float64Array) => number {
    const { n, mapQ, mapP, Ld } = this;
    return (out, x) => {
      for (let i = 0; i < n; i++) {
        mapQ[i] = x[i]!;
        mapP[i] = x[n + i]!;
      }
      const z0 = x[2 * n]!;
      const sigma0 = 1 + Ld.Dz(mapQ, mapP, z0);
      const z1 = this.stepLagrangian(mapQ, mapP, z0, 1);
      for (let i = 0; i < n; i++) {
        out[i] = mapQ[i]!;
        out[n + i] = mapP[i]!;
      }
      out[2 * n] = z1;
      return sigma0;
    };
  }

  /**
   * Contact Hamiltonian H(q, p, z) = p·v − L(q, v, z), v = FL⁻¹(p) (spec 004 §4.2), of the
   * integrator's Lagrangian: ½|p|² + V(q) − γz for mechanical L, Newton on L_v(q, v, z) = p
   * (warm-started at the previous v) otherwise, NaN without a Lagrangian or when Newton fails.
   */
  energy(q: Float64Array, p: Float64Array, z: number): number {
    const lag = this.lagrangian;
    if (lag === undefined) return Number.NaN;
    if ('potential' in lag) return contactHamiltonian(lag, q, p, z);
    const solver = this.legendreNewton!;
    const { n, vk } = this;
    if (!allFinite(vk)) vk.set(p);
    this.eq = q;
    this.ep = p;
    this.ez = z;
    let ok = false;
    try {
      const r = solver.solve(this.legendreResidual, this.legendreJacobian, vk);
      ok = r.converged;
      if (ok) vk.set(r.x);
    } catch (error) {
      if (!(error instanceof GeomechError)) throw error;
    }
    if (!ok) {
      vk.fill(Number.NaN);
      return Number.NaN;
    }
    let pv = 0;
    for (let i = 0; i < n; i++) pv += p[i]! * vk[i]!;
    return pv - lag.L(q, vk, z);
  }

  /**
   * Integrates `steps` steps from the given initial data and keeps every `every`-th state (and
   * the first and the last), recording q, p, z, σ, the energy H∘F⁻L_d, k, t = kh and the Newton
   * statistics in flat storage.
   *
   * - (q0, q1, z0), the paper's start: p0 = −D1 L_d/σ0 (F⁻L_d, (40)), then p1 = D2 L_d(q0, q1, z0)
   *   and z1 = z0 + L_d(q0, q1, z0) (F⁺L_d); later steps are {@link stepHamiltonian}.
   * - (q0, v0, z0): p0 = FL(q0, v0, z0) = L_v (p0 = v0 for mechanical L or without a Lagrangian),
   *   then every step is Hamiltonian (spec 004 §7.1 [S], §11.16).
   *
   * `sigma[j]` is σ of the step leaving the kept state j; for the last state it is the σ of the
   * next (untaken) step, NaN if that step is singular or fails. `p` is the F⁺ momentum, equal
   * to the F⁻ one on the trajectory by (41) (§11.5), so `energy = H(q_k, p_k, z_k)` is the
   * paper's plotted H∘F⁻L_d at every k, including k = N.
   *
   * @throws {@link RegularityError} (σ vanishes), {@link NewtonDivergedError},
   *   {@link NonFiniteError}, {@link DimensionError} and {@link DomainError} for bad input.
   */
  integrate(
    init: ContactInitialData,
    steps: number,
    options: ContactIntegrateOptions = {},
  ): DiscreteContactSolution {
    const { n, h, Ld } = this;
    const every = options.every ?? 1;
    if (!Number.isInteger(steps) || steps < 0)
      throw new DomainError('integrate: steps', steps, 'must be an integer >= 0');
    if (!Number.isInteger(every) || every < 1)
      throw new DomainError('integrate: every', every, 'must be an integer >= 1');
    if (!Number.isFinite(init.z0))
      throw new DomainError('integrate: z0', init.z0, 'must be finite');
    this.resetDiagnostics();
    this.vk.fill(Number.NaN);
    const warnings: string[] = [];
    const q = copyVector('q0', init.q0, n);
    const p = new Float64Array(n);
    let z = init.z0;
    const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
    const k32 = new Int32Array(count);
    const tArr = new Float64Array(count);
    const qArr = new Float64Array(count * n);
    const pArr = new Float64Array(count * n);
    const zArr = new Float64Array(count);
    const energy = new Float64Array(count);
    const sigmaArr = new Float64Array(count).fill(Number.NaN);
    let kept = 0;
    let pending = -1; // slot whose σ is the next step's
    let energyFailed = false;
    let newtonIterations = 0;
    let maxResidual = 0;
    const keep = (k: number): void => {
      k32[kept] = k;
      tArr[kept] = k * h;
      qArr.set(q, kept * n);
      pArr.set(p, kept * n);
      zArr[kept] = z;
      const e = this.energy(q, p, z);
      energy[kept] = e;
      if (Number.isNaN(e) && this.lagrangian !== undefined && !energyFailed) {
        energyFailed = true;
        warnings.push(`step ${k}: energy is NaN (the inverse Legendre map FL⁻¹(p) failed)`);
      }
      pending = kept;
      kept++;
    };
    let k = 0;
    if ('q1' in init) {
      const q1 = copyVector('q1', init.q1, n);
      // F⁻L_d (40): p0 = −D1 L_d(q0, q1, z0)/(1 + Dz L_d(q0, q1, z0))
      const sigma0 = checkSigma(Ld.Dz(q, q1, z), 0, this.sigmaTol);
      if (sigma0 < 0) {
        this.firstNegativeSigmaStep = 0;
        this.firstNegativeSigma = sigma0;
      }
      Ld.D1(p, q, q1, z);
      for (let i = 0; i < n; i++) p[i] = -p[i]! / sigma0;
      keep(0);
      sigmaArr[pending] = sigma0;
      pending = -1;
      if (steps >= 1) {
        // F⁺L_d (40): p1 = D2 L_d(q0, q1, z0), z1 = z0 + L_d(q0, q1, z0)
        const ld = Ld.Ld(q, q1, z);
        Ld.D2(p, q, q1, z);
        for (let i = 0; i < n; i++) this.increment[i] = q1[i]! - q[i]!;
        this.hasIncrement = true;
        q.set(q1);
        z += ld;
        assertFinite(q, p, z, 0);
        k = 1;
        if (k % every === 0 || k === steps) keep(k);
      }
    } else {
      const v0 = copyVector('v0', init.v0, n);
      const lag = this.lagrangian;
      if (lag !== undefined && !('potential' in lag)) lag.Lv(p, q, v0, z);
      else p.set(v0);
      keep(0);
    }
    for (; k < steps; ) {
      z = this.stepHamiltonian(q, p, z, k);
      if (pending >= 0) {
        sigmaArr[pending] = this.lastSigma;
        pending = -1;
      }
      k++;
      newtonIterations += this.lastIterations;
      if (this.lastResidual > maxResidual) maxResidual = this.lastResidual;
      if (k % every === 0 || k === steps) keep(k);
      if (options.onProgress !== undefined && k % PROGRESS_INTERVAL_STEPS === 0)
        options.onProgress(k, steps);
    }
    if (this.firstNegativeSigmaStep >= 0) {
      warnings.push(negativeSigmaWarning(this.firstNegativeSigmaStep, this.firstNegativeSigma));
    }
    if (pending >= 0) sigmaArr[pending] = this.peekSigma(q, p, z, k);
    return {
      dim: n,
      count: kept,
      k: k32,
      t: tArr,
      q: qArr,
      p: pArr,
      z: zArr,
      energy,
      sigma: sigmaArr,
      stats: { newtonIterations, maxResidual },
      warnings,
    };
  }

  /** σ of the step leaving (q, p, z), without taking it; NaN if that step fails. */
  private peekSigma(q: Float64Array, p: Float64Array, z: number, k: number): number {
    const { mapQ, mapP } = this;
    mapQ.set(q);
    mapP.set(p);
    const { lastIterations, lastResidual, firstNegativeSigmaStep, firstNegativeSigma } = this;
    let sigma = Number.NaN;
    try {
      this.stepHamiltonian(mapQ, mapP, z, k);
      sigma = this.lastSigma;
    } catch (error) {
      if (!(error instanceof GeomechError)) throw error;
    }
    this.lastIterations = lastIterations;
    this.lastResidual = lastResidual;
    this.firstNegativeSigmaStep = firstNegativeSigmaStep;
    this.firstNegativeSigma = firstNegativeSigma;
    return sigma;
  }
}

/** A contact problem: plain data (STYLE.md): Lagrangian, initial data, step and step count. */
export interface ContactProblem<Lag extends IntegratorLagrangian = IntegratorLagrangian> {
  readonly lagrangian: Lag;
  readonly init: ContactInitialData;
  readonly h: number;
  readonly steps: number;
}

/** A method: builds the discrete Lagrangian of a continuous one, e.g. `midpointLd`. */
export type ContactMethod<Lag extends IntegratorLagrangian = IntegratorLagrangian> = (
  lagrangian: Lag,
  h: number,
) => DiscreteContactLagrangian;

/**
 * One-line entry point: `new ContactIntegrator(method(L, h), { lagrangian: L, ...options })
 * .integrate(init, steps, options)`.
 *
 * @example
 * ```ts
 * const L = contactLagrangian({ n: 1, L: (q, v, z) => 0.5 * v[0] ** 2 - 0.5 * q[0] ** 2 - 0.05 * z });
 * const sol = integrateContact({ lagrangian: L, init: { q0: [1], v0: [0], z0: 0 }, h: 0.1, steps: 100 }, midpointLd);
 * sol.energy[100]; // ≈ 0.5 e^{−0.5} (H decays like e^{γt}, spec 004 §4.1)
 * ```
 */
export function integrateContact<Lag extends IntegratorLagrangian>(
  problem: ContactProblem<Lag>,
  method: ContactMethod<Lag>,
  options: ContactIntegratorOptions & ContactIntegrateOptions = {},
): DiscreteContactSolution {
  const Ld = method(problem.lagrangian, problem.h);
  const integrator = new ContactIntegrator(Ld, { ...options, lagrangian: problem.lagrangian });
  return integrator.integrate(problem.init, problem.steps, options);
}

function allFinite(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) return false;
  return true;
}

function assertFinite(q: Float64Array, p: Float64Array, z: number, k: number): void {
  for (let i = 0; i < q.length; i++)
    if (!Number.isFinite(q[i]!)) throw new NonFiniteError(`step ${k}: q`, i);
  for (let i = 0; i < p.length; i++)
    if (!Number.isFinite(p[i]!)) throw new NonFiniteError(`step ${k}: p`, i);
  if (!Number.isFinite(z)) throw new NonFiniteError(`step ${k}: z`);
}
