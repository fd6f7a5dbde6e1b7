/**
 * What the contact integrators share as core {@link Stepper}s (spec 004 §7.1): the flat state
 * x = (q, p, z) ∈ R^{2n+1} of the discrete Hamiltonian flow Φ̃_d, the recorded series
 * `q`, `p`, `z`, `energy` (H∘F⁻L_d) and `sigma` (σ_k = 1 + D_z L_d of the step leaving state k, a
 * 'leaving' series), the two starts of the paper (two-point (q0, q1, z0), or (q0, v0, z0)), the
 * regularity warnings, and the one-line `integrate(init, steps, options)` that runs core's
 * {@link integrate} and returns the one {@link Solution}.
 *
 * Time: the state at step k is at t_k = t0 + k·h (core's `integrate`); the step leaving it
 * receives t_k and evaluates a time-dependent Lagrangian at its quadrature times; the energy of
 * state k is H(q_k, p_k, z_k, t_k).
 *
 * @module
 */
import {
  checkStepDerivatives,
  DimensionError,
  DomainError,
  GeomechError,
  type IntegrateOptions,
  type IntegrateRecordingOptions,
  integrate as integrateStepper,
  type MethodTraits,
  recordingOptions,
  type SeriesSpec,
  type Solution,
  type Stepper,
} from '@geomech/core';
import { assertFinite, copyVector } from './internal.js';
import { checkSigma, negativeSigmaWarning } from './regularity.js';
import type { DiscreteContactLagrangian } from './types.js';

/**
 * Initial data: the paper's two-point start (q0, q1, z0) or a phase-space start (q0, v0, z0).
 *
 * @example
 * ```ts
 * const paper: ContactInitialData = { q0: [1], q1: [2], z0: 0 };
 * const phase: ContactInitialData = { q0: [1], v0: [0], z0: 0 };
 * ```
 */
export type ContactInitialData =
  | { readonly q0: ArrayLike<number>; readonly q1: ArrayLike<number>; readonly z0: number }
  | { readonly q0: ArrayLike<number>; readonly v0: ArrayLike<number>; readonly z0: number };

/**
 * The series of a contact trajectory: positions `q` and momenta `p` (n each; p_k is the common
 * value of F⁺L_d and F⁻L_d on the trajectory, (41)), the action `z`, the contact Hamiltonian
 * `energy` = H(q_k, p_k, z_k, t_k) (the paper's H∘F⁻L_d; NaN when the integrator knows no
 * Lagrangian) and the conformal factor `sigma` σ_k = 1 + D_z L_d of the step leaving state k (for
 * the last state, of the step that would follow; NaN when that step fails).
 *
 * @example
 * ```ts
 * const name: ContactSeries = 'sigma';
 * ```
 */
export type ContactSeries = 'q' | 'p' | 'z' | 'energy' | 'sigma';

/**
 * A discrete contact trajectory: core's one {@link Solution} with the {@link ContactSeries}
 * (`sol.q[j*n + i]`, `sol.sample('p', j)`, `sol.sigma[j]`, `sol.stats`, `sol.warnings`).
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const sol: ContactSolution = new MidpointHerglotz(lag, 0.5).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
 * sol.q[2]; // 2.5102941176470589 (spec 004 §8.2)
 * ```
 */
export type ContactSolution = Solution<ContactSeries>;

/**
 * The series specs of a contact trajectory on Rⁿ, in the order the steppers record them.
 *
 * @example
 * ```ts
 * contactSeries(2).map((s) => s.name); // ['q', 'p', 'z', 'energy', 'sigma']
 * ```
 */
export function contactSeries(n: number): readonly SeriesSpec<ContactSeries>[] {
  return Object.freeze([
    { name: 'q', width: n },
    { name: 'p', width: n },
    { name: 'z', width: 1 },
    { name: 'energy', width: 1 },
    { name: 'sigma', width: 1, timing: 'leaving' },
  ]);
}

/**
 * Options of the `integrate(init, steps, options)` of the contact integrators (passed on to
 * core's `integrate`).
 *
 * @example
 * ```ts
 * const options: ContactIntegrateOptions = { every: 10, t0: 0 };
 * ```
 */
export type ContactIntegrateOptions = IntegrateRecordingOptions;

/**
 * The common part of the contact integrators as a core {@link Stepper} on the flat state
 * x = (q, p, z): the starts, the recording, σ and its warnings, and {@link integrate}. A subclass
 * supplies one step of Φ̃_d ({@link advance}), the momentum of a (q0, v0, z0) start and the energy.
 *
 * The two-point start (q0, q1, z0) (spec 004 §7.1, eq. (40)) begins at x0 = (q0, p0, z0) with
 * p0 = −D1 L_d(q0, q1, z0)/σ0, σ0 = 1 + D_z L_d(q0, q1, z0) (F⁻L_d), and its first step is the
 * explicit F⁺L_d: p1 = D2 L_d(q0, q1, z0), z1 = z0 + L_d(q0, q1, z0), q ← q1 (no Newton). The
 * stepper takes that step when a run starts from the x0 that {@link initialState} returned; any
 * other start takes Hamiltonian steps only.
 *
 * @example
 * ```ts
 * const stepper: ContactStepper = new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1), 0.1);
 * stepper.initialState({ q0: [1], v0: [0], z0: 0 }); // Float64Array [1, 0, 0]
 * ```
 */
export abstract class ContactStepper implements Stepper<ContactSeries> {
  abstract readonly method: MethodTraits;
  /** Dimension n of Q. */
  readonly n: number;
  /** Step size of the discrete Lagrangian. */
  readonly h: number;
  /** Length 2n + 1 of the state (q, p, z). */
  readonly stateSize: number;
  /** Input size m of the force (0 when unforced). */
  readonly inputSize: number;
  readonly series: readonly SeriesSpec<ContactSeries>[];
  /** σ = 1 + D_z L_d of the last step taken. */
  lastSigma = Number.NaN;
  /** Newton iterations of the last step. */
  lastIterations = 0;
  /** ‖G‖∞ at the accepted q_{k+1} of the last step (0 for an explicit step). */
  lastResidual = 0;
  /** First step with σ < 0 since the last {@link resetDiagnostics} (−1: none), and its σ. */
  firstNegativeSigmaStep = -1;
  firstNegativeSigma = Number.NaN;

  /** Relative regularity threshold of σ. */
  protected readonly sigmaTol: number;
  // the armed two-point start: its x0, q1, start time and σ0
  private readonly armedX0: Float64Array;
  private readonly armedQ1: Float64Array;
  private armedT0 = 0;
  /** Initial time of the run (the last {@link reset}'s t0): step k leaves t0 + k·h. */
  private t0 = 0;
  /**
   * t_k of the step {@link advance} takes (a field, not an argument: a double passed to a call
   * that is not inlined is boxed, 16 B per step).
   */
  protected tStep = 0;
  private armedSigma = Number.NaN;
  private armed = false;
  private startPending = false;
  private energyWarning: string | undefined = undefined;
  /** True while {@link peekLeaving} runs {@link advance} (a subclass keeps no step data then). */
  protected peeking = false;
  /** True when the last step taken was the explicit two-point start (no step derivatives). */
  protected lastWasStart = false;
  /** Zero input of {@link stepHamiltonian} and of the final look-ahead. */
  protected readonly zeroInput: Float64Array;
  // scratch
  private readonly sq: Float64Array;
  private readonly sp: Float64Array;
  private readonly peekState: Float64Array;
  private readonly hamState: Float64Array;

  constructor(
    /** The discrete Lagrangian whose F^±L_d start a two-point run. */
    readonly Ld: DiscreteContactLagrangian,
    sigmaTol: number,
    inputSize = 0,
  ) {
    const n = Ld.n;
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('contact stepper: n', '>= 1', n);
    if (!(Ld.h > 0) || !Number.isFinite(Ld.h))
      throw new DomainError('contact stepper: h', Ld.h, 'must be a finite number > 0');
    if (!(sigmaTol >= 0))
      throw new DomainError('contact stepper: sigmaTol', sigmaTol, 'must be >= 0');
    this.n = n;
    this.h = Ld.h;
    this.stateSize = 2 * n + 1;
    this.inputSize = inputSize;
    this.zeroInput = new Float64Array(inputSize);
    this.series = contactSeries(n);
    this.sigmaTol = sigmaTol;
    this.armedX0 = new Float64Array(2 * n + 1);
    this.armedQ1 = new Float64Array(n);
    this.sq = new Float64Array(n);
    this.sp = new Float64Array(n);
    this.peekState = new Float64Array(2 * n + 1);
    this.hamState = new Float64Array(2 * n + 1);
  }

  /**
   * One step of the discrete Hamiltonian flow Φ̃_d from the state x = (q_k, p_k, z_k) at time
   * t = t_k with input u_k (length {@link inputSize}), in place, leaving σ_k in
   * {@link lastSigma}; returns the Newton iterations. Must leave `state` unchanged when it throws.
   * Allocates nothing.
   */
  protected abstract advance(state: Float64Array, k: number, u: Float64Array): number;

  /** out ← p0 of a (q0, v0, z0) start at time t (the Legendre map (20)). */
  protected abstract momentum(
    out: Float64Array,
    q: Float64Array,
    v: Float64Array,
    z: number,
    t: number,
  ): void;

  /** H(q, p, z, t), NaN when unknown. */
  abstract energy(q: Float64Array, p: Float64Array, z: number, t?: number): number;

  /** True when {@link energy} is defined (a NaN energy is then reported once in the warnings). */
  protected abstract get hasEnergy(): boolean;

  /**
   * True when {@link energy} does not read t (an autonomous potential, or no energy): {@link record}
   * then passes 0 instead of computing t_k, a fresh double that a call V8 does not inline boxes
   * (16 B per kept sample, twice with the potential's own call).
   */
  protected abstract get energyIgnoresTime(): boolean;

  /** Subclass hook of {@link reset} (reset caches and warm starts). */
  protected onReset(): void {}

  /** Forgets the negative-σ record (and subclass start-up state). */
  resetDiagnostics(): void {
    this.firstNegativeSigmaStep = -1;
    this.firstNegativeSigma = Number.NaN;
  }

  /**
   * The initial state x0 = (q0, p0, z0) of a run from `init` starting at time `t0`: for
   * (q0, q1, z0), p0 = −D1 L_d(q0, q1, z0, t0)/σ0 (F⁻L_d (40)) and the start is armed so that the
   * first step of a run from x0 is the explicit F⁺L_d; for (q0, v0, z0), p0 = FL(q0, v0, z0, t0).
   *
   * @throws {@link RegularityError} when σ0 vanishes; {@link DimensionError} /
   *   {@link DomainError} for bad initial data.
   */
  initialState(init: ContactInitialData, t0 = 0): Float64Array {
    const { n, Ld } = this;
    if (!Number.isFinite(init.z0))
      throw new DomainError('integrate: z0', init.z0, 'must be finite');
    if (!Number.isFinite(t0)) throw new DomainError('integrate: t0', t0, 'must be finite');
    const x0 = new Float64Array(2 * n + 1);
    const q = copyVector('q0', init.q0, n);
    const z = init.z0;
    const p = this.sp;
    if ('q1' in init) {
      const q1 = copyVector('q1', init.q1, n);
      // F⁻L_d (40): p0 = −D1 L_d(q0, q1, z0)/(1 + Dz L_d(q0, q1, z0))
      const sigma0 = checkSigma(Ld.Dz(q, q1, z, t0), 0, this.sigmaTol);
      Ld.D1(p, q, q1, z, t0);
      for (let i = 0; i < n; i++) p[i] = -p[i]! / sigma0;
      this.armed = true;
      this.armedT0 = t0;
      this.armedSigma = sigma0;
      this.armedQ1.set(q1);
    } else {
      const v0 = copyVector('v0', init.v0, n);
      this.momentum(p, q, v0, z, t0);
      this.armed = false;
    }
    x0.set(q, 0);
    x0.set(p, n);
    x0[2 * n] = z;
    if (this.armed) this.armedX0.set(x0);
    return x0;
  }

  /**
   * Called by core's `integrate` before the first step: checks h, keeps t0 (step k leaves
   * t0 + k·h), resets the diagnostics.
   */
  reset(state: Float64Array, t0: number, h: number): void {
    if (h !== this.h) {
      throw new DomainError(
        `${this.method.name}: integrate h`,
        h,
        `must equal the discrete Lagrangian's step ${this.h}`,
      );
    }
    this.t0 = t0;
    this.resetDiagnostics();
    this.energyWarning = undefined;
    this.onReset();
    this.startPending = this.armed && t0 === this.armedT0 && equal(state, this.armedX0);
    if (this.startPending && this.armedSigma < 0) {
      this.firstNegativeSigmaStep = 0;
      this.firstNegativeSigma = this.armedSigma;
    }
  }

  /**
   * One step (the Stepper contract): step k leaves t_k = t0 + k·h (t0 of the last {@link reset},
   * 0 before any); the armed two-point start, else {@link advance} with the input u_k (`h` and `u`
   * may be omitted: the discrete Lagrangian's h, and u = 0 for an unforced integrator).
   */
  step(state: Float64Array, k: number, h?: number, u?: Float64Array): number {
    const t = this.t0 + k * (h ?? this.h);
    if (this.startPending) {
      this.startPending = false;
      this.lastWasStart = true;
      return this.startStep(state, k, t);
    }
    this.lastWasStart = false;
    this.tStep = t;
    return this.advance(state, k, u ?? this.zeroInput);
  }

  /** F⁺L_d (40) of the two-point start: p1 = D2 L_d(q0, q1, z0), z1 = z0 + L_d, q ← q1. */
  private startStep(state: Float64Array, k: number, t: number): number {
    const { n, Ld, sq, sp, armedQ1 } = this;
    for (let i = 0; i < n; i++) sq[i] = state[i]!;
    const z0 = state[2 * n]!;
    const ld = Ld.Ld(sq, armedQ1, z0, t);
    Ld.D2(sp, sq, armedQ1, z0, t);
    const z1 = z0 + ld;
    assertFinite(armedQ1, sp, z1, k);
    this.onStart(sq, armedQ1);
    for (let i = 0; i < n; i++) {
      state[i] = armedQ1[i]!;
      state[n + i] = sp[i]!;
    }
    state[2 * n] = z1;
    this.lastSigma = this.armedSigma;
    this.lastIterations = 0;
    this.lastResidual = 0;
    return 0;
  }

  /** Subclass hook after the explicit start step from q0 to q1. */
  protected onStart(_q0: Float64Array, _q1: Float64Array): void {}

  /**
   * Writes q, p, z and the energy H(q, p, z, t) of `state` (the Stepper contract): t is the given
   * time, else t_k = t0 + k·h of the last {@link reset} (core's `integrate` passes t only for the
   * first sample and a `tEnd` last one; computing it here boxes no double per kept sample), or
   * none when the energy ignores t (an autonomous potential: 0 B per kept sample).
   */
  record(out: Float64Array, state: Float64Array, k: number, tGiven?: number): void {
    const t = this.energyIgnoresTime ? 0 : (tGiven ?? this.t0 + k * this.h);
    const { n, sq, sp } = this;
    for (let i = 0; i < n; i++) {
      sq[i] = state[i]!;
      sp[i] = state[n + i]!;
    }
    const z = state[2 * n]!;
    out.set(sq, 0);
    out.set(sp, n);
    out[2 * n] = z;
    const e = this.energy(sq, sp, z, t);
    out[2 * n + 1] = e;
    if (Number.isNaN(e) && this.hasEnergy && this.energyWarning === undefined) {
      this.energyWarning = `step ${k}: energy is NaN (the inverse Legendre map FL⁻¹(p) failed)`;
    }
  }

  /** σ of the step just taken. */
  recordLeaving(out: Float64Array): void {
    out[0] = this.lastSigma;
  }

  /** σ of the step that would leave `state`, without taking it; NaN if that step fails. */
  peekLeaving(
    out: Float64Array,
    state: Float64Array,
    k: number,
    t: number,
    _h?: number,
    u?: Float64Array,
  ): void {
    if (this.startPending) {
      out[0] = this.armedSigma;
      return;
    }
    const { lastIterations, lastResidual, lastSigma, firstNegativeSigmaStep, firstNegativeSigma } =
      this;
    this.saveStepState();
    this.peekState.set(state);
    out[0] = Number.NaN;
    this.peeking = true;
    try {
      this.tStep = t;
      this.advance(this.peekState, k, u ?? this.zeroInput);
      out[0] = this.lastSigma;
    } catch (error) {
      if (!(error instanceof GeomechError)) throw error;
    } finally {
      this.peeking = false;
    }
    this.restoreStepState();
    this.lastIterations = lastIterations;
    this.lastResidual = lastResidual;
    this.lastSigma = lastSigma;
    this.firstNegativeSigmaStep = firstNegativeSigmaStep;
    this.firstNegativeSigma = firstNegativeSigma;
  }

  /**
   * The checks that open a `stepDerivatives(dxdx, dxdu)` of the state (q, p, z): a Hamiltonian
   * step must have been taken (`taken`; not the explicit two-point start, whose map does not
   * depend on p_0) and the outputs must be (2n+1)² and (2n+1)×m.
   *
   * Core's `checkStepDerivatives` with the state size 2n + 1.
   *
   * @throws {@link DomainError} without such a step; {@link DimensionError} for wrong lengths.
   */
  protected checkDerivativeCall(
    what: string,
    taken: boolean,
    dxdx: Float64Array,
    dxdu: Float64Array,
  ): void {
    checkStepDerivatives(
      what,
      !taken
        ? 'no step taken'
        : this.lastWasStart
          ? 'the two-point start step (a Hamiltonian step x_{k+1} = Φ̃_d(x_k, u_k) is needed)'
          : undefined,
      dxdx,
      dxdu,
      2 * this.n + 1,
      this.inputSize,
    );
  }

  /** Subclass hooks around a peek (save and restore warm-start state). */
  protected saveStepState(): void {}
  protected restoreStepState(): void {}

  /** The diagnostics of the run: a NaN energy, then the first step with σ < 0. */
  warnings(): readonly string[] {
    const out: string[] = [];
    if (this.energyWarning !== undefined) out.push(this.energyWarning);
    if (this.firstNegativeSigmaStep >= 0) {
      out.push(negativeSigmaWarning(this.firstNegativeSigmaStep, this.firstNegativeSigma));
    }
    return out;
  }

  /**
   * One step of Φ̃_d (43) on separate arrays, in place: (q, p) are overwritten with
   * (q_{k+1}, p_{k+1}) and z_{k+1} is returned; σ_k is left in {@link lastSigma}. `k` labels
   * errors, `t` is the step's start time t_k, `u` the input u_k of a forced integrator (default
   * 0). Allocates nothing.
   *
   * @throws {@link RegularityError} when σ_k vanishes; `NewtonDivergedError` when Newton fails;
   *   {@link NonFiniteError} when the new state is not finite.
   */
  stepHamiltonian(
    q: Float64Array,
    p: Float64Array,
    z: number,
    k = 0,
    t = 0,
    u: Float64Array = this.zeroInput,
  ): number {
    const { n, hamState } = this;
    if (u.length !== this.inputSize)
      throw new DimensionError('stepHamiltonian: u', this.inputSize, u.length);
    if (q.length !== n) throw new DimensionError('stepHamiltonian: q', n, q.length);
    if (p.length !== n) throw new DimensionError('stepHamiltonian: p', n, p.length);
    hamState.set(q, 0);
    hamState.set(p, n);
    hamState[2 * n] = z;
    this.lastWasStart = false;
    this.tStep = t;
    this.advance(hamState, k, u);
    for (let i = 0; i < n; i++) {
      q[i] = hamState[i]!;
      p[i] = hamState[n + i]!;
    }
    return hamState[2 * n]!;
  }

  /**
   * Integrates `steps` steps of size h from `init` with core's `integrate`, keeping every
   * `every`-th state (and the first and the last): the series q, p, z, energy = H(q_k, p_k, z_k,
   * t_k) and σ (see {@link ContactSeries}), t_k = t0 + k·h, Newton statistics and warnings.
   *
   * - (q0, q1, z0), the paper's start: p0 = −D1 L_d/σ0 (F⁻L_d, (40)), then p1 = D2 L_d(q0, q1, z0)
   *   and z1 = z0 + L_d(q0, q1, z0) (F⁺L_d); later steps are Φ̃_d.
   * - (q0, v0, z0): p0 = FL(q0, v0, z0) (p0 = v0 for mechanical L), then every step is Φ̃_d
   *   (spec 004 §7.1 [S], §11.16).
   *
   * @throws {@link RegularityError} (σ vanishes), `NewtonDivergedError`, {@link NonFiniteError},
   *   {@link DimensionError} and {@link DomainError} for bad input (unless `onFailure: 'return'`
   *   for the step errors).
   */
  integrate(
    init: ContactInitialData,
    steps: number,
    options: ContactIntegrateOptions = {},
  ): ContactSolution {
    const t0 = options.t0 ?? 0;
    const x0 = this.initialState(init, t0);
    const run: IntegrateOptions = {
      h: this.h,
      steps,
      ...recordingOptions(options),
      t0,
    };
    return integrateStepper(this, x0, run);
  }
}

function equal(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
