/**
 * The generic contact variational integrator (spec 004 §7.1): a {@link DiscreteContactLagrangian}
 * joined with a core {@link NewtonSolver}, a core `Stepper` run by core's `integrate`. It steps
 * either the discrete Hamiltonian flow
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
 *   G(x) = (1 + D_z L_d(q_k, x, z_k, t_k)) p_k + D1 L_d(q_k, x, z_k, t_k) = 0,
 *   ∂G/∂x = ∂(D1 L_d)/∂q1 + p_k ⊗ ∇_{q1}(D_z L_d) = D2D1 + p_k ⊗ D2Dz            spec 004 §7.1
 *
 * and then set p_{k+1} = D2 L_d(q_k, x, z_k, t_k), z_{k+1} = z_k + L_d(q_k, x, z_k, t_k) and the
 * step's conformal factor σ_k = 1 + D_z L_d(q_k, x, z_k, t_k) (Thm 3.9: Φ̃_d*η = σ_k η). t_k is
 * the step's start time; the discrete Lagrangian evaluates a time-dependent L at its own
 * quadrature times inside the step.
 *
 * Forces (option `force`, inputs u_k through core's `integrate`): the forced discrete Legendre
 * transforms of Marsden–West 2001 (3.2.5) applied to (40) give the forced Herglotz step
 *
 *   G(x) = (1 + D_z L_d) p_k + D1 L_d(q_k, x, z_k, t_k) + f_d⁻(q_k, x; t_k, u_k) = 0,
 *   ∂G/∂x = D2D1 + p_k ⊗ D2Dz + ∂f_d⁻/∂q1,
 *   p_{k+1} = D2 L_d(q_k, x, z_k, t_k) + f_d⁺(q_k, x; t_k, u_k),   z_{k+1} = z_k + L_d,
 *
 * i.e. D1 L_d(q_k, q_{k+1}) + f_d⁻ + σ_k (D2 L_d(q_{k−1}, q_k) + f_d⁺) = 0 on a trajectory: the
 * discrete Herglotz equations (39) with the forced DEL terms of Marsden–West (3.2.4).
 *
 * Regularity (spec 004 §9.12, §11.13): a step whose σ vanishes (|σ| below
 * {@link SIGMA_REGULARITY_TOL} relative to max(1, |D_z L_d|)) throws {@link RegularityError};
 * a negative σ (the step reverses the orientation of the contact form) is legal but is reported
 * once, with its step, in the solution's `warnings`. The library never prints.
 *
 * @module
 */
import {
  checkForce,
  DenseLU,
  DimensionError,
  DiscreteForce,
  type Force,
  type ForceQuadrature,
  GeomechError,
  type JacobianFunction,
  jacobianFromFiniteDifferences,
  type MethodTraits,
  methodTraits,
  NEWTON_DEFAULT_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  type ScalarNewtonProblem,
  SingularMatrixError,
} from '@geomech/core';
import { assertFinite, assertFiniteQP, SOLVES_BY_SOLVE_SCALAR } from './internal.js';
import { SCALAR_STEP_KERNELS, type ScalarStepKernel, StepExchange } from './kernels.js';
import {
  contactHamiltonian,
  isAutonomous,
  type MechanicalContactLagrangian,
} from './mechanical.js';
import { checkSigma, SIGMA_REGULARITY_TOL } from './regularity.js';
import {
  type ContactInitialData,
  type ContactIntegrateOptions,
  type ContactSolution,
  ContactStepper,
} from './stepper.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from './types.js';

/**
 * The continuous Lagrangian an integrator may know, for the phase-space start (q0, v0, z0) and
 * for the energy H∘F⁻L_d. A {@link MechanicalContactLagrangian} (detected by its `potential`
 * field) takes the fast path p = v, H = ½|p|² + V(q, t) − γz.
 *
 * @example
 * ```ts
 * const L: IntegratorLagrangian = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * ```
 */
export type IntegratorLagrangian = ContactLagrangian | MechanicalContactLagrangian;

/**
 * Options of {@link ContactIntegrator}.
 *
 * @example
 * ```ts
 * const options: ContactIntegratorOptions = { tol: 1e-13, initialGuess: 'extrapolate' };
 * ```
 */
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
   * The continuous Lagrangian: gives p0 = FL(q0, v0, z0, t0) = L_v for a (q0, v0, z0) start and
   * the recorded energy H(q, p, z, t) = p·v − L(q, v, z, t), v = FL⁻¹(p). Without it a (q0, v0, z0)
   * start uses p0 = v0 (the mechanical Legendre map) and the energy is recorded as NaN.
   */
  readonly lagrangian?: IntegratorLagrangian;
  /**
   * Newton's initial guess for q_{k+1}. `'momentum'` (default): x = q_k + h σ̂ p_k with
   * σ̂ = 1 + D_z L_d(q_k, q_k + h p_k, z_k), exact for the free particle. `'extrapolate'`:
   * x = q_k + (q_k − q_{k−1}) once a previous increment exists (spec 004 §7.1 [S]).
   */
  readonly initialGuess?: 'momentum' | 'extrapolate';
  /**
   * An external (control) force F(t, q, v, u): the step solves the forced discrete Herglotz
   * equations (module doc) with core's `DiscreteForce` f_d^± of {@link forceQuadrature}; the
   * integrator's input size is then `force.m`.
   */
  readonly force?: Force;
  /**
   * Quadrature of the discrete force (Marsden–West 2001 §3.2): `'midpoint'` (default,
   * f_d^± = (h/2)F at t_k + h/2, q_{k+½}), `'left'` (f_d⁻ = hF at t_k, q_k; f_d⁺ = 0) or `'right'`.
   */
  readonly forceQuadrature?: ForceQuadrature;
}

/** Default Newton iteration cap of a step. */
const DEFAULT_MAX_ITERATIONS = 50;

/**
 * The method traits of the integrator of a discrete Lagrangian: its name (the CLI's method name),
 * its measured order, implicit (a Newton solve per step), conformally contact and variational
 * (Thm 3.9), symmetric when exact, not symmetric when of odd order (a symmetric method has even
 * order), otherwise unknown.
 *
 * @throws {@link DomainError} when `Ld.name` is not lower-case words joined by `-`.
 * @example
 * ```ts
 * contactMethodTraits(midpointLd(mechanicalContactLagrangian(zeroPotential(), -0.05), 0.1)).order; // 1
 * ```
 */
export function contactMethodTraits(Ld: DiscreteContactLagrangian): MethodTraits {
  const { order, isExact } = Ld.traits;
  return methodTraits({
    name: Ld.name,
    description: `discrete Herglotz integrator of the ${Ld.name} discrete Lagrangian (seed 004)`,
    ...(order === undefined ? {} : { order }),
    isExplicit: false,
    isSymplectic: true,
    isVariational: true,
    ...(isExact === true
      ? { isSymmetric: true }
      : order !== undefined && order % 2 === 1
        ? { isSymmetric: false }
        : {}),
  });
}

/**
 * The generic discrete Herglotz integrator of spec 004 §7.1 for any {@link
 * DiscreteContactLagrangian}, a core `Stepper` on the state (q, p, z): owns its Newton solver and
 * every scratch vector, so its steps ({@link ContactIntegrator.step}, `stepHamiltonian`,
 * {@link ContactIntegrator.stepLagrangian}) allocate nothing. `integrate(init, steps, options)`
 * runs core's `integrate` and returns the one `Solution` (see `ContactStepper`).
 *
 * Two paths. The generic one serves every discrete Lagrangian, a user's own included: each step
 * calls the L_d's methods (D1, D_z, D2D1, D2Dz, L_d, D2) through the interface and solves with core's
 * `NewtonSolver`. For n = 1, unforced and without line search, the discrete Lagrangians this
 * package builds in known closed form — `dampedOscillatorExactLd` and `implicitZMidpointLd` of a
 * `mechanicalContactLagrangian` — have a dedicated step (module `kernels`, issue 20): the same
 * operations in the same order on doubles, without a call per derivative (iterates, σ, Newton
 * counts and residuals bit-identical to the generic path, tested; 2–4× faster). A failing check in
 * the dedicated step reruns the step on the generic path, so errors are the generic ones.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const sol = new ContactIntegrator(Ld, { lagrangian: lag }).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
 * sol.q[2]; // 2.5102941176470589 (spec 004 §8.2 reference table)
 * ```
 */
export class ContactIntegrator extends ContactStepper {
  readonly method: MethodTraits;

  private readonly newton: NewtonSolver;
  /**
   * n = 1, unforced: the step's equation for core's `NewtonSolver.solveScalar` (number methods
   * that V8 inlines; bit-identical to `solve` on `residualFn`/`jacobianFn`), else undefined.
   */
  private readonly scalarEquation: ContactScalarEquation | undefined;
  /**
   * n = 1, unforced, no line search, a discrete Lagrangian of this package with a dedicated step
   * (kernels.ts: the exact damped-oscillator L_d, the implicit-z midpoint of a mechanical L): the
   * whole step on doubles, bit-identical to the generic path; else undefined.
   */
  private readonly kernel: ScalarStepKernel | undefined;
  /** The kernel's exchange object. */
  private readonly ks = new StepExchange();
  private readonly guessMode: 'momentum' | 'extrapolate';
  private readonly lagrangian: IntegratorLagrangian | undefined;
  private readonly residualFn: (out: Float64Array, x: Float64Array) => void;
  private readonly jacobianFn: (out: Float64Array, x: Float64Array) => void;
  // the step whose equation G is being solved: (q_k, p_k, z_k) at time t_k
  private readonly qk: Float64Array;
  private readonly pk: Float64Array;
  private zk = 0;
  private tk = 0;
  // scratch
  private readonly guess: Float64Array;
  private readonly pNext: Float64Array;
  private readonly dzq1: Float64Array;
  private readonly increment: Float64Array;
  private readonly savedIncrement: Float64Array;
  private hasIncrement = false;
  private savedHasIncrement = false;
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
  private et = 0;
  /** The discrete force, when forced. */
  readonly discreteForce: DiscreteForce | undefined;
  private uk: Float64Array;
  private readonly fq1: Float64Array;
  // the last Hamiltonian step taken (for stepDerivatives): q_k, p_k, q_{k+1}, u_k, z_k, t_k
  private readonly lastQ: Float64Array;
  private readonly lastP: Float64Array;
  private readonly lastY: Float64Array;
  private readonly lastU: Float64Array;
  private readonly lastZT = new Float64Array(2);
  private hasLastStep = false;
  private derivatives: ContactDerivativeScratch | undefined;

  constructor(Ld: DiscreteContactLagrangian, options: ContactIntegratorOptions = {}) {
    const force = options.force;
    super(
      Ld,
      options.sigmaTol ?? SIGMA_REGULARITY_TOL,
      force === undefined ? 0 : checkForce('ContactIntegrator: force', force, Ld.n),
    );
    const n = this.n;
    this.discreteForce =
      force === undefined
        ? undefined
        : new DiscreteForce(force, Ld.h, options.forceQuadrature ?? 'midpoint');
    this.uk = this.zeroInput;
    this.fq1 = new Float64Array(force === undefined ? 0 : n * n);
    this.lastQ = new Float64Array(n);
    this.lastP = new Float64Array(n);
    this.lastY = new Float64Array(n);
    this.lastU = new Float64Array(this.inputSize);
    const fd = this.discreteForce;
    this.method = contactMethodTraits(Ld);
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
    // not for the implicit-z L_d, whose own Λ solve runs on solveScalar: two problem classes make
    // the solver's calls polymorphic, V8 then inlines neither fully, and the step is 9 % slower
    // and allocates (exact L_d on the damped oscillator: 273 → 221 ns CPU with this path;
    // implicit-z: 1452 → 1580 ns, 1–111 → 40–279 B/step)
    this.scalarEquation =
      n === 1 && force === undefined && !SOLVES_BY_SOLVE_SCALAR.has(Ld)
        ? new ContactScalarEquation(Ld, this.qk, this.pk)
        : undefined;
    const kernelFactory =
      n === 1 && force === undefined && !newtonOptions.lineSearch
        ? SCALAR_STEP_KERNELS.get(Ld)
        : undefined;
    this.kernel = kernelFactory?.();
    const { ks } = this;
    ks.tol = this.newton.options.tol;
    ks.stepTol = this.newton.options.stepTol;
    ks.maxIterations = this.newton.options.maxIterations;
    this.guess = new Float64Array(n);
    this.pNext = new Float64Array(n);
    this.dzq1 = new Float64Array(n);
    this.increment = new Float64Array(n);
    this.savedIncrement = new Float64Array(n);
    this.mapQ = new Float64Array(n);
    this.mapP = new Float64Array(n);
    this.vk = new Float64Array(n);
    this.eq = this.qk;
    this.ep = this.pk;
    const lag = this.lagrangian;
    if (lag !== undefined && !('potential' in lag)) {
      this.legendreNewton = new NewtonSolver(n, {
        ...newtonOptions,
        what: 'inverse Legendre map',
      });
      // (20) inverted: L_v(q, v, z, t) − p = 0, Jacobian W = L_vv (12)
      this.legendreResidual = (out, v) => {
        lag.Lv(out, this.eq, v, this.ez, this.et);
        for (let i = 0; i < n; i++) out[i] = out[i]! - this.ep[i]!;
      };
      this.legendreJacobian = (out, v) => {
        lag.Lvv(out, this.eq, v, this.ez, this.et);
      };
    } else {
      this.legendreNewton = undefined;
      this.legendreResidual = () => {};
      this.legendreJacobian = () => {};
    }
    // (39) through (40): G(x) = (1 + Dz L_d(q_k, x, z_k, t_k)) p_k + D1 L_d(q_k, x, z_k, t_k)
    const fm = new Float64Array(n);
    this.residualFn =
      fd === undefined
        ? (out, x) => {
            const { qk, pk, zk, tk } = this;
            Ld.D1(out, qk, x, zk, tk);
            const s = 1 + Ld.Dz(qk, x, zk, tk);
            for (let i = 0; i < n; i++) out[i] = out[i]! + s * pk[i]!;
          }
        : (out, x) => {
            const { qk, pk, zk, tk } = this;
            Ld.D1(out, qk, x, zk, tk);
            const s = 1 + Ld.Dz(qk, x, zk, tk);
            fd.minus(fm, tk, qk, x, this.uk);
            for (let i = 0; i < n; i++) out[i] = out[i]! + s * pk[i]! + fm[i]!;
          };
    // spec 004 §7.1: ∂G/∂x = ∂(D1 L_d)/∂q1 + p_k ⊗ ∇_{q1}(Dz L_d)
    this.jacobianFn = (out, x) => {
      const { qk, pk, zk, tk, dzq1 } = this;
      Ld.D2D1(out, qk, x, zk, tk);
      Ld.D2Dz(dzq1, qk, x, zk, tk);
      for (let i = 0; i < n; i++) {
        const pi = pk[i]!;
        for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + pi * dzq1[j]!;
      }
      if (fd !== undefined && fd.weightMinus !== 0) {
        // + ∂f_d⁻/∂q1 = h w⁻ ∂F̄/∂q1
        const { fq1 } = this;
        fd.jacobian(undefined, fq1, undefined, tk, qk, x, this.uk);
        for (let i = 0; i < n * n; i++) out[i] = out[i]! + fd.weightMinus * fq1[i]!;
      }
    };
  }

  /** Forgets the previous increment (used by `'extrapolate'`) and the negative-σ record. */
  override resetDiagnostics(): void {
    super.resetDiagnostics();
    this.hasIncrement = false;
  }

  protected override onReset(): void {
    this.vk.fill(Number.NaN);
  }

  protected override onStart(q0: Float64Array, q1: Float64Array): void {
    for (let i = 0; i < this.n; i++) this.increment[i] = q1[i]! - q0[i]!;
    this.hasIncrement = true;
  }

  protected override saveStepState(): void {
    this.savedIncrement.set(this.increment);
    this.savedHasIncrement = this.hasIncrement;
  }

  protected override restoreStepState(): void {
    this.increment.set(this.savedIncrement);
    this.hasIncrement = this.savedHasIncrement;
  }

  protected get hasEnergy(): boolean {
    return this.lagrangian !== undefined;
  }

  protected get energyIgnoresTime(): boolean {
    const lag = this.lagrangian;
    return lag === undefined || ('potential' in lag && isAutonomous(lag.potential));
  }

  protected momentum(
    out: Float64Array,
    q: Float64Array,
    v: Float64Array,
    z: number,
    t: number,
  ): void {
    const lag = this.lagrangian;
    if (lag !== undefined && !('potential' in lag)) lag.Lv(out, q, v, z, t);
    else out.set(v);
  }

  /**
   * One step of Φ̃_d (43) on the flat state (q_k, p_k, z_k) at time t_k, in place; σ_k is left
   * in {@link lastSigma}. Newton starts from the momentum guess or the extrapolation.
   */
  protected advance(state: Float64Array, k: number, u: Float64Array): number {
    if (u.length !== this.inputSize)
      throw new DimensionError(`${this.method.name}: u`, this.inputSize, u.length);
    const kernel = this.kernel;
    if (kernel !== undefined) {
      const its = this.advanceKernel(kernel, state, k);
      if (its >= 0) return its;
    }
    return this.advanceGeneric(state, k, u);
  }

  /**
   * {@link advance} through the dedicated kernel (n = 1, unforced): the step's bookkeeping of
   * {@link advanceGeneric} and {@link solveForward} around `kernel.step`; −1 (state untouched)
   * when the kernel reports a failure, so that the generic path reruns the step and throws.
   */
  private advanceKernel(kernel: ScalarStepKernel, state: Float64Array, k: number): number {
    const { ks, increment } = this;
    const q = state[0]!;
    const p = state[1]!;
    const z = state[2]!;
    const t = this.tStep;
    ks.q = q;
    ks.p = p;
    ks.z = z;
    ks.t = t;
    const extrapolate = this.guessMode === 'extrapolate' && this.hasIncrement;
    if (extrapolate) ks.x = q + increment[0]!;
    const its = kernel.step(ks, !extrapolate);
    if (its < 0) return -1;
    // σ = 1 + D_z L_d, checked as solveForward does
    const dz = ks.dz;
    const sigma = 1 + dz;
    const tol = this.sigmaTol;
    if (!Number.isFinite(sigma) || Math.abs(sigma) < tol * Math.max(1, Math.abs(dz)))
      checkSigma(dz, k, tol);
    this.lastIterations = its;
    this.lastResidual = ks.residual;
    this.lastSigma = sigma;
    if (sigma < 0 && this.firstNegativeSigmaStep < 0) {
      this.firstNegativeSigmaStep = k;
      this.firstNegativeSigma = sigma;
    }
    const x = ks.x;
    if (!this.peeking) {
      this.lastQ[0] = q;
      this.lastP[0] = p;
      this.lastY[0] = x;
      this.lastZT[0] = z;
      this.lastZT[1] = t;
      this.hasLastStep = true;
    }
    increment[0] = x - q;
    state[0] = x;
    state[1] = ks.pNext;
    state[2] = ks.zNext;
    this.hasIncrement = true;
    return its;
  }

  /** {@link advance} through the discrete Lagrangian's interface and core's `NewtonSolver`. */
  private advanceGeneric(state: Float64Array, k: number, u: Float64Array): number {
    const t = this.tStep;
    const { n, guess, qk, pk, pNext, Ld } = this;
    this.uk = u;
    for (let i = 0; i < n; i++) {
      qk[i] = state[i]!;
      pk[i] = state[n + i]!;
    }
    const z = state[2 * n]!;
    this.zk = z;
    this.tk = t;
    if (this.guessMode === 'extrapolate' && this.hasIncrement) {
      for (let i = 0; i < n; i++) guess[i] = qk[i]! + this.increment[i]!;
    } else {
      this.momentumGuess();
    }
    const x = this.solveForward(k);
    // F⁺L_d (40): p_{k+1} = D2 L_d(q_k, x, z_k), z_{k+1} = z_k + L_d(q_k, x, z_k)
    const zNext = z + Ld.Ld(qk, x, z, t);
    Ld.D2(pNext, qk, x, z, t);
    const fd = this.discreteForce;
    if (fd !== undefined && fd.weightPlus !== 0) {
      // forced F⁺L_d (Marsden–West (3.2.5)): + f_d⁺(q_k, q_{k+1})
      fd.plus(this.fq1, t, qk, x, u);
      for (let i = 0; i < n; i++) pNext[i] = pNext[i]! + this.fq1[i]!;
    }
    // q and p, then z, as assertFinite, without passing the double zNext through a call
    assertFiniteQP(x, pNext, k);
    if (!Number.isFinite(zNext)) throw new NonFiniteError(`step ${k}: z`);
    if (!this.peeking) {
      // the step's data, for stepDerivatives (loops, not TypedArray.set: n is small and a builtin
      // call per array cost more than the rest of an exact-L_d step)
      const { lastQ, lastP, lastY, lastU, pk } = this;
      for (let i = 0; i < n; i++) {
        lastQ[i] = qk[i]!;
        lastP[i] = pk[i]!;
        lastY[i] = x[i]!;
      }
      for (let i = 0; i < lastU.length; i++) lastU[i] = u[i]!;
      this.lastZT[0] = z;
      this.lastZT[1] = t;
      this.hasLastStep = true;
    }
    for (let i = 0; i < n; i++) {
      this.increment[i] = x[i]! - qk[i]!;
      state[i] = x[i]!;
      state[n + i] = pNext[i]!;
    }
    state[2 * n] = zNext;
    this.hasIncrement = true;
    return this.lastIterations;
  }

  /**
   * The Newton system of the step leaving (q, p, z) at time t: out ← G(x) =
   * (1 + D_z L_d(q, x, z, t)) p + D1 L_d(q, x, z, t) + f_d⁻(q, x; t, u), and, when `jacobian` is
   * given, jacobian ← ∂G/∂x = D2D1 + p ⊗ D2Dz + ∂f_d⁻/∂x (n×n row-major; no force terms when
   * unforced; u defaults to 0). For checks of the Jacobian and diagnostics.
   */
  newtonSystem(
    out: Float64Array,
    x: Float64Array,
    q: Float64Array,
    p: Float64Array,
    z: number,
    t = 0,
    jacobian?: Float64Array,
    u: Float64Array = this.zeroInput,
  ): Float64Array {
    const { n } = this;
    if (x.length !== n) throw new DimensionError('newtonSystem: x', n, x.length);
    if (u.length !== this.inputSize)
      throw new DimensionError('newtonSystem: u', this.inputSize, u.length);
    this.uk = u;
    if (out.length !== n) throw new DimensionError('newtonSystem: out', n, out.length);
    this.qk.set(q);
    this.pk.set(p);
    this.zk = z;
    this.tk = t;
    this.residualFn(out, x);
    if (jacobian !== undefined) {
      if (jacobian.length !== n * n)
        throw new DimensionError('newtonSystem: jacobian', n * n, jacobian.length);
      this.jacobianFn(jacobian, x);
    }
    return out;
  }

  /**
   * The step derivatives of the last Hamiltonian step Φ̃_d taken (core's `Stepper.stepDerivatives`),
   * on the state x = (q, p, z) (size 2n + 1) and the input u (size m): `dxdx` ← ∂x_{k+1}/∂x_k
   * ((2n+1)², row-major) and `dxdu` ← ∂x_{k+1}/∂u_k ((2n+1) × m). By the implicit function theorem
   * on the step's equation G(y; q, p, z, u) = σp + D1 L_d(q, y, z, t) + f_d⁻(q, y; t, u) = 0 for
   * y = q_{k+1} (module doc), σ = 1 + D_z L_d(q, y, z, t), with the Newton Jacobian
   * G_y = D2D1 + p ⊗ D2Dz + ∂f_d⁻/∂q1 evaluated and factored at the accepted y:
   *
   *   δy = −G_y⁻¹(G_q δq + σ δp + G_z δz + G_u δu),
   *   δp_{k+1} = ((D2D1)ᵀ + ∂f_d⁺/∂q0)δq + (∂(D2 L_d)/∂q1 + ∂f_d⁺/∂q1)δy + ∂(D2 L_d)/∂z δz + ∂f_d⁺/∂u δu,
   *   δz_{k+1} = D1 L_d·δq + D2 L_d·δy + σ δz,
   *
   * the last from z_{k+1} = z_k + L_d and the mixed partial ∂(D2 L_d)/∂q0 = (D2D1)ᵀ. G_q, G_z,
   * ∂(D2 L_d)/∂q1 and ∂(D2 L_d)/∂z are core's central differences
   * (`jacobianFromFiniteDifferences`: the discrete Lagrangian gives only D2D1 and D2Dz); the force's
   * Jacobians are `DiscreteForce.jacobian`. Cold path: allocates its scratch on the first call.
   *
   * @throws {@link DomainError} before any step, or after the explicit two-point start step (its
   *   map does not depend on p_0); {@link DimensionError} for wrong output lengths;
   *   {@link SingularMatrixError} for a singular G_y.
   * @example
   * ```ts
   * const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
   * const c = new ContactIntegrator(midpointLd(lag, 0.1), { lagrangian: lag });
   * const x = c.initialState({ q0: [1], v0: [0], z0: 0 });
   * c.step(x, 0);
   * const A = new Float64Array(9);
   * c.stepDerivatives(A, new Float64Array(0)); // A[0] = ∂q₁/∂q₀ ≈ 1 − (h²/2)cos q₀ = 0.9973
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { n, Ld } = this;
    const m = this.inputSize;
    const s = 2 * n + 1;
    this.checkDerivativeCall('ContactIntegrator.stepDerivatives', this.hasLastStep, dxdx, dxdu);
    this.derivatives ??= this.derivativeScratch();
    const d = this.derivatives;
    const { Gy, Gw, Pw, Pq, Fq0, Fq1, Fu, D1, D2, w, rhs, col, lu } = d;
    const y = this.lastY;
    const z = this.lastZT[0]!;
    const t = this.lastZT[1]!;
    // the step (q_k, p_k, z_k, t_k, u_k) as the Newton system reads it
    const { qk } = this;
    qk.set(this.lastQ);
    this.pk.set(this.lastP);
    this.zk = z;
    this.tk = t;
    this.uk = this.lastU;
    this.jacobianFn(Gy, y);
    lu.factor(Gy);
    if (lu.isSingular) throw new SingularMatrixError('ContactIntegrator.stepDerivatives: G_y', -1);
    const sigma = 1 + Ld.Dz(qk, y, z, t);
    // G_w = ∂G/∂(q_k, z_k) and P_w = ∂(D2 L_d)/∂(q_{k+1}, z_k) (n × (n+1)), central differences
    for (let i = 0; i < n; i++) w[i] = qk[i]!;
    w[n] = z;
    d.dG(Gw, w);
    qk.set(this.lastQ);
    this.zk = z;
    for (let i = 0; i < n; i++) w[i] = y[i]!;
    d.dP(Pw, w);
    // ∂(D2 L_d)/∂q0 = (D2D1)ᵀ (the mixed partial)
    Ld.D2D1(d.D21, qk, y, z, t);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Pq[i * n + j] = d.D21[j * n + i]!;
    const fd = this.discreteForce;
    if (fd !== undefined) {
      fd.jacobian(Fq0, Fq1, m > 0 ? Fu : undefined, t, qk, y, this.lastU);
      const wp = fd.weightPlus;
      for (let i = 0; i < n * n; i++) Pq[i] = Pq[i]! + wp * Fq0[i]!;
    } else Fq1.fill(0);
    Ld.D1(D1, qk, y, z, t);
    Ld.D2(D2, qk, y, z, t);
    const wm = fd?.weightMinus ?? 0;
    const wp = fd?.weightPlus ?? 0;
    // column j of (x, u): j < n: q_j; j < 2n: p_{j−n}; j = 2n: z; j > 2n: u_{j−2n−1}
    for (let j = 0; j < s + m; j++) {
      for (let i = 0; i < n; i++) {
        let r = 0;
        if (j < n) r = -Gw[i * (n + 1) + j]!;
        else if (j < 2 * n) r = i === j - n ? -sigma : 0;
        else if (j === 2 * n) r = -Gw[i * (n + 1) + n]!;
        else r = -wm * Fu[i * m + (j - s)]!;
        rhs[i] = r;
      }
      lu.solve(rhs, col); // col = δy
      const out = j < s ? dxdx : dxdu;
      const w = j < s ? s : m;
      const c = j < s ? j : j - s;
      let dz = j === 2 * n ? sigma : 0;
      for (let i = 0; i < n; i++) {
        out[i * w + c] = col[i]!;
        let dp = 0;
        for (let l = 0; l < n; l++) {
          if (j === l) dp += Pq[i * n + l]!;
          dp += (Pw[i * (n + 1) + l]! + wp * Fq1[i * n + l]!) * col[l]!;
        }
        if (j === 2 * n) dp += Pw[i * (n + 1) + n]!;
        if (j > 2 * n) dp += wp * Fu[i * m + (j - s)]!;
        out[(n + i) * w + c] = dp;
        dz += (j === i ? D1[i]! : 0) + D2[i]! * col[i]!;
      }
      out[2 * n * w + c] = dz;
    }
  }

  /** The scratch of {@link stepDerivatives}, with its two central-difference Jacobians (cold). */
  private derivativeScratch(): ContactDerivativeScratch {
    const { n, Ld } = this;
    const m = this.inputSize;
    const v = (k: number) => new Float64Array(k);
    const qz = v(n);
    // w = (q_k, z_k) ↦ G at the accepted q_{k+1} (the residual reads qk, zk)
    const G = (out: Float64Array, w: Float64Array) => {
      for (let i = 0; i < n; i++) this.qk[i] = w[i]!;
      this.zk = w[n]!;
      this.residualFn(out, this.lastY);
    };
    // w = (q_{k+1}, z_k) ↦ D2 L_d(q_k, q_{k+1}, z_k, t_k)
    const P = (out: Float64Array, w: Float64Array) => {
      for (let i = 0; i < n; i++) qz[i] = w[i]!;
      Ld.D2(out, this.lastQ, qz, w[n]!, this.lastZT[1]!);
    };
    return {
      Gy: v(n * n),
      Gw: v(n * (n + 1)),
      Pw: v(n * (n + 1)),
      Pq: v(n * n),
      D21: v(n * n),
      Fq0: v(n * n),
      Fq1: v(n * n),
      Fu: v(Math.max(1, n * m)),
      D1: v(n),
      D2: v(n),
      w: v(n + 1),
      rhs: v(n),
      col: v(n),
      lu: new DenseLU(n),
      dG: jacobianFromFiniteDifferences(G, n, n + 1),
      dP: jacobianFromFiniteDifferences(P, n, n + 1),
    };
  }

  /**
   * (F⁻L_d)⁻¹ (40): out ← the q1 with F⁻L_d(q0, q1, z0, t) = (q0, p0, z0), i.e. the root of
   * (1 + D_z L_d(q0, q1, z0, t)) p0 + D1 L_d(q0, q1, z0, t) = 0, by Newton from `guess` (default
   * the momentum guess q0 + hσ̂p0). The conformal factor σ at the root is left in
   * {@link lastSigma}. Allocates nothing.
   */
  inverseLegendreMinus(
    out: Float64Array,
    q0: Float64Array,
    p0: Float64Array,
    z0: number,
    guess?: ArrayLike<number>,
    k = 0,
    t = 0,
  ): Float64Array {
    const { n } = this;
    if (q0.length !== n) throw new DimensionError('inverseLegendreMinus: q0', n, q0.length);
    if (p0.length !== n) throw new DimensionError('inverseLegendreMinus: p0', n, p0.length);
    this.qk.set(q0);
    this.pk.set(p0);
    this.zk = z0;
    this.tk = t;
    this.uk = this.zeroInput;
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

  /** guess ← q_k + h σ̂ p_k, σ̂ = 1 + D_z L_d at the free-flight point q_k + h p_k. */
  private momentumGuess(): void {
    const { n, h, guess, qk, pk, zk, tk, Ld } = this;
    for (let i = 0; i < n; i++) guess[i] = qk[i]! + h * pk[i]!;
    const s0 = 1 + Ld.Dz(qk, guess, zk, tk);
    for (let i = 0; i < n; i++) guess[i] = qk[i]! + h * s0 * pk[i]!;
  }

  /**
   * One step of the discrete Lagrangian flow Φ_d (Thm 3.7, spec 004 §7.1), in place: from
   * (q_{k−1}, q_k, z_{k−1}) = (qPrev, q, zPrev) computes z_k = z_{k−1} + L_d, p_k = D2 L_d (F⁺) and
   * solves (39) for q_{k+1}; then qPrev ← q_k, q ← q_{k+1}, and z_k is returned. σ of the forward
   * interval (q_k, q_{k+1}, z_k) is left in {@link lastSigma}. `k` is the index of q (the state
   * the step leaves), `t` the time t_k of q (the previous interval starts at t − h). Newton starts
   * from 2q_k − q_{k−1} (spec 004 §7.1 [S]). Unforced (u = 0 for a forced integrator).
   * Allocates nothing.
   */
  stepLagrangian(qPrev: Float64Array, q: Float64Array, zPrev: number, k = 1, t = 0): number {
    const { n, h, guess, qk, pk, Ld } = this;
    // (35) and F⁺L_d (40) on the previous interval [t − h, t]
    const z = zPrev + Ld.Ld(qPrev, q, zPrev, t - h);
    Ld.D2(pk, qPrev, q, zPrev, t - h);
    for (let i = 0; i < n; i++) {
      qk[i] = q[i]!;
      guess[i] = 2 * q[i]! - qPrev[i]!;
    }
    this.zk = z;
    this.tk = t;
    this.uk = this.zeroInput;
    const x = this.solveForward(k);
    for (let i = 0; i < n; i++) {
      qPrev[i] = qk[i]!;
      q[i] = x[i]!;
    }
    assertFinite(q, pk, z, k);
    return z;
  }

  /**
   * Solves G(x) = 0 from `this.guess` for the step (qk, pk, zk, tk), checks σ; returns Newton's
   * buffer.
   */
  private solveForward(k: number): Float64Array {
    const { Ld, qk, zk, tk } = this;
    let result: ReturnType<NewtonSolver['solve']>;
    try {
      const eq = this.scalarEquation;
      if (eq !== undefined) {
        eq.z = zk;
        eq.t = tk;
        result = this.newton.solveScalar(eq, this.guess, k);
      } else result = this.newton.solve(this.residualFn, this.jacobianFn, this.guess, k);
    } catch (error) {
      // A vanishing σ often shows up first as a singular or diverging Newton iteration.
      checkSigma(Ld.Dz(qk, this.guess, zk, tk), k, this.sigmaTol);
      throw error;
    }
    const x = result.x;
    // σ = 1 + D_z L_d, checked as checkSigma does; checkSigma itself (which throws) only on the
    // cold path: a double returned by a call V8 does not inline is boxed, 16 B per step
    const dz = Ld.Dz(qk, x, zk, tk);
    const sigma = 1 + dz;
    const tol = this.sigmaTol;
    if (!Number.isFinite(sigma) || Math.abs(sigma) < tol * Math.max(1, Math.abs(dz)))
      checkSigma(dz, k, tol);
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
   * `out` and returns σ_k (time t = 0). For diagnostics such as `contactFormDefect` (49);
   * allocates nothing.
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
   * (q1, q2, z1) into `out` and returns σ_d(x) = 1 + D_z L_d(q0, q1, z0) (the factor of (48));
   * the interval (q0, q1) starts at t = 0.
   */
  lagrangianMap(): (out: Float64Array, x: Float64Array) => number {
    const { n, h, mapQ, mapP, Ld } = this;
    return (out, x) => {
      for (let i = 0; i < n; i++) {
        mapQ[i] = x[i]!;
        mapP[i] = x[n + i]!;
      }
      const z0 = x[2 * n]!;
      const sigma0 = 1 + Ld.Dz(mapQ, mapP, z0, 0);
      const z1 = this.stepLagrangian(mapQ, mapP, z0, 1, h);
      for (let i = 0; i < n; i++) {
        out[i] = mapQ[i]!;
        out[n + i] = mapP[i]!;
      }
      out[2 * n] = z1;
      return sigma0;
    };
  }

  /**
   * Contact Hamiltonian H(q, p, z, t) = p·v − L(q, v, z, t), v = FL⁻¹(p) (spec 004 §4.2), of the
   * integrator's Lagrangian: ½|p|² + V(q, t) − γz for mechanical L, Newton on
   * L_v(q, v, z, t) = p (warm-started at the previous v) otherwise, NaN without a Lagrangian or
   * when Newton fails.
   */
  energy(q: Float64Array, p: Float64Array, z: number, t = 0): number {
    const lag = this.lagrangian;
    if (lag === undefined) return Number.NaN;
    if ('potential' in lag) return contactHamiltonian(lag, q, p, z, t);
    const solver = this.legendreNewton!;
    const { n, vk } = this;
    if (!allFinite(vk)) vk.set(p);
    this.eq = q;
    this.ep = p;
    this.ez = z;
    this.et = t;
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
    return pv - lag.L(q, vk, z, t);
  }
}

/**
 * A contact problem: plain data (STYLE.md): Lagrangian, initial data, step, step count and
 * (optionally) the initial time.
 *
 * @example
 * ```ts
 * const problem: ContactProblem = {
 *   lagrangian: mechanicalContactLagrangian(quadraticPotential(1), -0.05),
 *   init: { q0: [1], v0: [0], z0: 0 }, h: 0.1, steps: 100,
 * };
 * ```
 */
export interface ContactProblem<Lag extends IntegratorLagrangian = IntegratorLagrangian> {
  readonly lagrangian: Lag;
  readonly init: ContactInitialData;
  readonly h: number;
  readonly steps: number;
  /** Initial time (for a time-dependent Lagrangian). Default 0. */
  readonly t0?: number;
}

/**
 * A method: builds the discrete Lagrangian of a continuous one, e.g. `midpointLd`.
 *
 * @example
 * ```ts
 * const method: ContactMethod = implicitZMidpointLd;
 * ```
 */
export type ContactMethod<Lag extends IntegratorLagrangian = IntegratorLagrangian> = (
  lagrangian: Lag,
  h: number,
) => DiscreteContactLagrangian;

/**
 * One-line entry point: `new ContactIntegrator(method(L, h), { lagrangian: L, ...options })
 * .integrate(init, steps, { t0, ...options })`, returning the one `Solution` with the series
 * q, p, z, energy and σ.
 *
 * @example
 * ```ts
 * const L = contactLagrangian({
 *   n: 1,
 *   L: (o, [q], [v], z) => o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.scale(o.mul(q!, q!), 0.5)), o.scale(z, -0.05)),
 * });
 * const sol = integrateContact({ lagrangian: L, init: { q0: [1], v0: [0], z0: 0 }, h: 0.1, steps: 100 }, midpointLd);
 * sol.energy[100]; // 0.30330 ≈ 0.5 e^{−0.5} = 0.30327 (H decays like e^{γt}, spec 004 §4.1)
 * ```
 */
export function integrateContact<Lag extends IntegratorLagrangian>(
  problem: ContactProblem<Lag>,
  method: ContactMethod<Lag>,
  options: ContactIntegratorOptions & ContactIntegrateOptions = {},
): ContactSolution {
  const Ld = method(problem.lagrangian, problem.h);
  const integrator = new ContactIntegrator(Ld, { ...options, lagrangian: problem.lagrangian });
  const t0 = problem.t0 ?? options.t0;
  return integrator.integrate(problem.init, problem.steps, {
    ...options,
    ...(t0 === undefined ? {} : { t0 }),
  });
}

/** Scratch of {@link ContactIntegrator.stepDerivatives} (allocated on its first call). */
interface ContactDerivativeScratch {
  readonly Gy: Float64Array;
  /** ∂G/∂(q_k, z_k), n × (n+1). */
  readonly Gw: Float64Array;
  /** ∂(D2 L_d)/∂(q_{k+1}, z_k), n × (n+1). */
  readonly Pw: Float64Array;
  readonly Pq: Float64Array;
  readonly D21: Float64Array;
  readonly Fq0: Float64Array;
  readonly Fq1: Float64Array;
  readonly Fu: Float64Array;
  readonly D1: Float64Array;
  readonly D2: Float64Array;
  /** (q, z) or (q_{k+1}, z) of the differenced maps. */
  readonly w: Float64Array;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
  readonly lu: DenseLU;
  /** Central differences of w = (q_k, z_k) ↦ G(q_{k+1}; q_k, p_k, z_k, u_k). */
  readonly dG: JacobianFunction;
  /** Central differences of w = (q_{k+1}, z_k) ↦ D2 L_d(q_k, q_{k+1}, z_k, t_k). */
  readonly dP: JacobianFunction;
}

/**
 * The step's equation of {@link ContactIntegrator} for n = 1 and no force, for core's
 * `NewtonSolver.solveScalar`: with (q_k, p_k, z_k, t_k) = (`qk[0]`, `pk[0]`, `z`, `t`),
 *
 *   G(x) = D1 L_d(q_k, x, z_k, t_k) + (1 + D_z L_d(q_k, x, z_k, t_k)) p_k,
 *   G′(x) = ∂(D1 L_d)/∂q1 + p_k ∂(D_z L_d)/∂q1                                   spec 004 §7.1
 *
 * in the operations of the integrator's `residualFn` and `jacobianFn` for n = 1 (same iterates
 * bit for bit), without their buffers and closures behind the solver's calls (issue 20).
 */
class ContactScalarEquation implements ScalarNewtonProblem {
  /** z_k of the step being solved. */
  z = 0;
  /** t_k of the step being solved. */
  t = 0;
  private readonly x = new Float64Array(1);
  private readonly out = new Float64Array(1);
  private readonly dzq1 = new Float64Array(1);

  constructor(
    private readonly Ld: DiscreteContactLagrangian,
    private readonly qk: Float64Array,
    private readonly pk: Float64Array,
  ) {}

  residual(x: number): number {
    const { out, qk } = this;
    const xs = this.x;
    xs[0] = x;
    this.Ld.D1(out, qk, xs, this.z, this.t);
    const s = 1 + this.Ld.Dz(qk, xs, this.z, this.t);
    return out[0]! + s * this.pk[0]!;
  }

  derivative(x: number): number {
    const { out, dzq1, qk } = this;
    const xs = this.x;
    xs[0] = x;
    this.Ld.D2D1(out, qk, xs, this.z, this.t);
    this.Ld.D2Dz(dzq1, qk, xs, this.z, this.t);
    return out[0]! + this.pk[0]! * dzq1[0]!;
  }
}

function allFinite(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) return false;
  return true;
}
