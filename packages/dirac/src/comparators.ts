/**
 * Classical comparison methods of spec 001 §6 for a {@link ConstrainedMechanicalSystem}: the
 * index-reduced ODE in z = (q, v), explicit Euler, the implicit trapezium (Newton), Adams–Bashforth
 * 3 (RK4 start-up), classical RK4, and RATTLE (SHAKE/RATTLE, position-exact reference, not in the
 * paper). Each is a core {@link Stepper} on z = (q, v); {@link integrateConstrained} runs one
 * through core's `integrate`.
 *
 * Conventions: M q̈ = −∇V(q) + C(q)ᵀ λ (spec §3.6, §6), so with ψ = ½dφ the pendulum has
 * λ = m (g y − |v|²)/(x² + y²) < 0 when the rod pulls (spec §4). The λ denominator is the actual
 * C M⁻¹ Cᵀ (spec §6 variant "actual"; the "nominal" l² variant is not offered).
 *
 * @module
 */
import {
  BandLU,
  BandMatrix,
  BandNewtonLinearSolver,
  CENTRAL_DIFFERENCE_STEP,
  checkForce,
  checkStepDerivatives,
  DenseLU,
  DimensionError,
  DiscreteForce,
  DomainError,
  extendSolution,
  type Force,
  type ForceQuadrature,
  type IntegrateRecordingOptions,
  integrate,
  jacobianFromFiniteDifferences,
  type MethodTraits,
  methodTraits,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  type OdeRhs,
  Rk4Stepper,
  recordingOptions,
  rk4Method,
  type SeriesSpec,
  SingularMatrixError,
  type Solution,
  type Stepper,
} from '@geomech/core';
import { BorderedMatrix, bandedForceJacobian, ForceNode, forceBandwidth } from './borderedStep.js';
import { bandGram, bandMul, bandScatterTranspose, checkBand, gramBandwidth } from './chainBand.js';
import type { ConstrainedMechanicalSystem, ConstraintBand } from './constrained.js';
import { forceJacobianWithWeights } from './internal.js';
import { RattleMassMatrix } from './rattleMassMatrix.js';

/** Names of the comparison methods of {@link integrateConstrained} (the CLI's spelling). */
export type ComparatorMethodName = 'euler' | 'trapezium' | 'ab3' | 'rk4' | 'rattle';

/** A comparison method: core's {@link MethodTraits} plus whether it keeps the constraints. */
export interface ComparatorMethod extends MethodTraits {
  readonly name: ComparatorMethodName;
  /** Whether φ(q_k) = 0 and C(q_k) v_k = 0 hold at every step (to the solver tolerance). */
  readonly preservesConstraint: boolean;
}

function comparator(
  traits: MethodTraits & { readonly name: ComparatorMethodName },
  preservesConstraint: boolean,
): ComparatorMethod {
  return Object.freeze({ ...traits, name: traits.name, preservesConstraint });
}

/**
 * The method table: Euler (order 1), trapezium (2, implicit, symmetric), AB3 (3, three-step),
 * RK4 (4; core's {@link rk4Method}) on the index-reduced ODE (spec §6), and RATTLE (2, symplectic,
 * symmetric, constraint-exact; Hairer–Lubich–Wanner VII.1.4).
 *
 * @example
 * ```ts
 * comparatorMethods.rattle.isSymplectic;        // true
 * comparatorMethods.ab3.stepsUsed;              // 3
 * comparatorMethods.rk4.preservesConstraint;    // false
 * ```
 */
export const comparatorMethods: Readonly<Record<ComparatorMethodName, ComparatorMethod>> =
  Object.freeze({
    euler: comparator(
      methodTraits({
        name: 'euler',
        description: 'explicit Euler on the index-reduced ODE (spec 001 §6)',
        order: 1,
        isExplicit: true,
        isSymplectic: false,
        isSymmetric: false,
        isVariational: false,
      }) as MethodTraits & { readonly name: 'euler' },
      false,
    ),
    trapezium: comparator(
      methodTraits({
        name: 'trapezium',
        description: 'implicit trapezium on the index-reduced ODE (spec 001 §6)',
        order: 2,
        isExplicit: false,
        isSymplectic: false,
        isSymmetric: true,
        isVariational: false,
      }) as MethodTraits & { readonly name: 'trapezium' },
      false,
    ),
    ab3: comparator(
      methodTraits({
        name: 'ab3',
        description: 'Adams–Bashforth 3 on the index-reduced ODE, RK4 start-up (spec 001 §6)',
        order: 3,
        isExplicit: true,
        isSymplectic: false,
        isSymmetric: false,
        isVariational: false,
        stepsUsed: 3,
      }) as MethodTraits & { readonly name: 'ab3' },
      false,
    ),
    rk4: comparator(rk4Method as MethodTraits & { readonly name: 'rk4' }, false),
    rattle: comparator(
      methodTraits({
        name: 'rattle',
        description: 'RATTLE (Andersen 1983; Hairer–Lubich–Wanner VII.1.4), not in the paper',
        order: 2,
        isExplicit: false,
        isSymplectic: true,
        isSymmetric: true,
      }) as MethodTraits & { readonly name: 'rattle' },
      true,
    ),
  });

/**
 * Allocation-free evaluator of the Lagrange multiplier of the index-reduced ODE (spec §6):
 * λ(q, v) = (C M⁻¹ Cᵀ)⁻¹ (C M⁻¹ ∇V(q) − c(q, v)), from C v̇ + c = 0 with
 * M v̇ = −∇V + Cᵀλ, and of the right-hand side F(z) = (v, M⁻¹(−∇V + Cᵀλ)).
 *
 * @example
 * ```ts
 * const ode = new IndexReducedOde(pendulum({ m: 1, g: 9.81, l: 1 }));
 * const dz = new Float64Array(4);
 * ode.rhs(dz, Float64Array.of(0, -1, 1, 0)); // λ = (g·(−1) − 1)/1 = −10.81
 * ode.lambda[0]; // −10.81
 * ```
 */
export class IndexReducedOde {
  readonly sys: ConstrainedMechanicalSystem;
  /** The external force of M v̇ = −∇V + F + Cᵀλ, evaluated at u = 0 (none when undefined). */
  readonly force: Force | undefined;
  /** λ of the last {@link rhs} / {@link multiplier} call (length m). */
  readonly lambda: Float64Array;
  /** Right-hand-side evaluations so far. */
  evals = 0;
  private readonly Cq: Float64Array;
  private readonly gV: Float64Array;
  private readonly cc: Float64Array;
  private readonly A: Float64Array;
  private readonly lu: DenseLU;
  private readonly invM: Float64Array;
  /** q and v of {@link rhs}, copied out of z (a subarray view per call would allocate). */
  private readonly qb: Float64Array;
  private readonly vb: Float64Array;

  private readonly fF: Float64Array;
  private readonly u0: Float64Array;
  /** M(q) scratch of a configuration-dependent mass: M, its LU, M⁻¹Cᵀ (n×m), κ. */
  private readonly general: {
    readonly M: Float64Array;
    readonly lu: DenseLU;
    readonly MinvCt: Float64Array;
    readonly col: Float64Array;
    readonly kappa: Float64Array;
  } | null;

  constructor(sys: ConstrainedMechanicalSystem, force?: Force) {
    const { n, m } = sys;
    if (sys.mass.length !== n)
      throw new DimensionError('IndexReducedOde: mass', n, sys.mass.length);
    if (sys.massMatrix !== undefined && sys.coriolis === undefined)
      throw new DomainError('IndexReducedOde: coriolis', 'missing', 'is required with massMatrix');
    this.general =
      sys.massMatrix === undefined
        ? null
        : {
            M: new Float64Array(n * n),
            lu: new DenseLU(n),
            MinvCt: new Float64Array(n * Math.max(m, 1)),
            col: new Float64Array(n),
            kappa: new Float64Array(n),
          };
    if (!Number.isInteger(m) || m < 0)
      throw new DomainError('IndexReducedOde: m', m, 'must be an integer ≥ 0');
    this.sys = sys;
    this.force = force;
    this.u0 = new Float64Array(
      force === undefined ? 0 : checkForce('IndexReducedOde: force', force, n),
    );
    this.fF = new Float64Array(force === undefined ? 0 : n);
    this.qb = new Float64Array(n);
    this.vb = new Float64Array(n);
    this.lambda = new Float64Array(m);
    this.Cq = new Float64Array(m * n);
    this.gV = new Float64Array(n);
    this.cc = new Float64Array(m);
    this.A = new Float64Array(m * m);
    this.lu = new DenseLU(Math.max(m, 1));
    this.invM = new Float64Array(n);
    for (let i = 0; i < n; i++) this.invM[i] = 1 / sys.mass[i]!;
  }

  /**
   * λ(q, v) into {@link lambda} (and returned); also leaves C(q) and ∇V(q) − F in scratch (at
   * time t, for a time-dependent V or force; F at u = 0).
   */
  multiplier(q: Float64Array, v: Float64Array, t?: number): Float64Array {
    const { sys, Cq, gV, cc, A, lu, invM, lambda } = this;
    const { n, m } = sys;
    sys.C(Cq, q);
    if (t === undefined) sys.gradV(gV, q);
    else sys.gradV(gV, q, t);
    const force = this.force;
    if (force !== undefined) {
      // M v̇ = −(∇V − F) + Cᵀλ: the force joins the gradient
      force.F(this.fF, t ?? 0, q, v, this.u0);
      for (let j = 0; j < n; j++) gV[j] = gV[j]! - this.fF[j]!;
    }
    sys.curvature(cc, q, v);
    if (this.general !== null) return this.multiplierGeneral(q, v);
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += Cq[a * n + j]! * invM[j]! * gV[j]!;
      lambda[a] = s - cc[a]!;
      // row a of C M⁻¹ Cᵀ over the nonzeros of C row a (the dense sums, zero terms skipped)
      const row = a * m;
      A.fill(0, row, row + m);
      for (let j = 0; j < n; j++) {
        const ca = Cq[a * n + j]!;
        if (ca === 0) continue;
        const cm = ca * invM[j]!;
        for (let b = 0; b < m; b++) A[row + b] = A[row + b]! + cm * Cq[b * n + j]!;
      }
    }
    if (m > 0) {
      lu.factor(A);
      lu.solve(lambda, lambda);
    }
    return lambda;
  }

  /**
   * λ of M(q)v̇ + κ = −g + Cᵀλ, g = ∇V − F (in `gV`), C v̇ + c = 0:
   * (C M⁻¹Cᵀ)λ = C M⁻¹(g + κ) − c. Leaves g + κ in `gV` and M⁻¹Cᵀ, the LU of M in `general`.
   */
  private multiplierGeneral(q: Float64Array, v: Float64Array): Float64Array {
    const { sys, Cq, gV, cc, A, lu, lambda } = this;
    const { n, m } = sys;
    const { M, lu: luM, MinvCt, col, kappa } = this.general!;
    sys.massMatrix!(M, q);
    sys.coriolis!(kappa, q, v);
    for (let j = 0; j < n; j++) gV[j] = gV[j]! + kappa[j]!;
    luM.factor(M);
    if (luM.isSingular) throw new SingularMatrixError('IndexReducedOde: M(q)', -1);
    for (let a = 0; a < m; a++) {
      for (let j = 0; j < n; j++) col[j] = Cq[a * n + j]!;
      luM.solve(col, col);
      for (let j = 0; j < n; j++) MinvCt[j * m + a] = col[j]!;
    }
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += MinvCt[j * m + a]! * gV[j]!;
      lambda[a] = s - cc[a]!;
      for (let b = 0; b < m; b++) {
        let sab = 0;
        for (let j = 0; j < n; j++) sab += Cq[a * n + j]! * MinvCt[j * m + b]!;
        A[a * m + b] = sab;
      }
    }
    if (m > 0) {
      lu.factor(A);
      lu.solve(lambda, lambda);
    }
    return lambda;
  }

  /** out ← F(z), z = (q, v) of length 2n: q̇ = v, v̇ = M⁻¹(−∇V(q) + F + C(q)ᵀ λ(q, v)), at time t. */
  rhs(out: Float64Array, z: Float64Array, t?: number): Float64Array {
    const { n, m } = this.sys;
    const q = this.qb;
    const v = this.vb;
    for (let j = 0; j < n; j++) {
      q[j] = z[j]!;
      v[j] = z[n + j]!;
    }
    const lambda = this.multiplier(q, v, t);
    const { Cq, gV, invM } = this;
    const general = this.general;
    if (general !== null) {
      // v̇ = M(q)⁻¹(−(∇V − F + κ) + Cᵀλ)
      const { col, lu: luM } = general;
      for (let j = 0; j < n; j++) {
        let f = -gV[j]!;
        for (let a = 0; a < m; a++) f += Cq[a * n + j]! * lambda[a]!;
        col[j] = f;
      }
      luM.solve(col, col);
      for (let j = 0; j < n; j++) {
        out[j] = z[n + j]!;
        out[n + j] = col[j]!;
      }
      this.evals++;
      return out;
    }
    for (let j = 0; j < n; j++) {
      let f = -gV[j]!;
      for (let a = 0; a < m; a++) f += Cq[a * n + j]! * lambda[a]!;
      out[j] = z[n + j]!;
      out[n + j] = invM[j]! * f;
    }
    this.evals++;
    return out;
  }
}

/**
 * The index-reduced ODE of spec §6 as a core {@link OdeRhs} `(out, t, z)` for z = (q, v)
 * (e.g. for `integrateDopri5` or `Rk4Stepper`), with an optional external force F(t, q, v) (at
 * u = 0) and the time passed to a time-dependent V.
 *
 * @example
 * ```ts
 * const f = indexReducedRhs(pendulum({ m: 1, g: 9.81, l: 1 }));
 * const sol = integrateDopri5(f, [0.7071, -0.7071, 0, 0], 0, 1, { rtol: 1e-12, atol: 1e-14 });
 * ```
 */
export function indexReducedRhs(sys: ConstrainedMechanicalSystem, force?: Force): OdeRhs {
  const ode = new IndexReducedOde(sys, force);
  return (out, t, z) => {
    ode.rhs(out, z, t);
  };
}

/** The series of {@link integrateConstrained}. */
export type ConstrainedSeries = 'q' | 'v' | 'p' | 'lambda' | 'energy' | 'constraint';

/**
 * A comparison method joined with a system: a core {@link Stepper} on z = (q, v) ∈ R²ⁿ, owning
 * its scratch; `step` allocates nothing and leaves z unchanged when it fails. Series of a state:
 * `q`, `v`, `p` = M v, `lambda` = the index-reduced multiplier λ(q, v) of spec §6 (a diagnostic,
 * in the ψ scaling of C, for every method), `energy` E = ½ vᵀMv + V(q) and `constraint` φ(q).
 */
export interface ComparatorStepper extends Stepper<ConstrainedSeries> {
  readonly method: ComparatorMethod;
  /**
   * Advances z = (q_k, v_k) in place by step k of size h, from t_k = t0 + k·h (t0 of the last
   * {@link reset}, 0 before any; k also names the step in errors); returns the Newton iterations
   * (0 for explicit methods).
   */
  step(z: Float64Array, k: number, h: number, u?: Float64Array): number;
  /**
   * Forgets multistep history (AB3) and warm starts (RATTLE), and keeps the initial time t0
   * (default 0) of the steps that follow (core's `integrate` calls it before the first step).
   */
  reset(state?: Float64Array, t0?: number, h?: number): void;
  /** Right-hand-side evaluations (index-reduced methods) so far. */
  readonly fEvals: number;
}

/**
 * Throws {@link NonFiniteError} naming `method` and step `k` when one of the first `len` entries
 * of z is not finite. The message is built only on failure: a template string per step would
 * allocate in the hot loop.
 */
function checkFinite(z: Float64Array, len: number, method: string, k: number): void {
  for (let i = 0; i < len; i++) {
    if (!Number.isFinite(z[i]!)) throw new NonFiniteError(`${method}: state after step ${k}`, i);
  }
}

/** The state argument of a reset that names none (Rk4Stepper.reset reads only t0). */
const NO_STATE = new Float64Array(0);

/** The recording shared by every comparison stepper (see {@link ComparatorStepper}). */
abstract class ConstrainedStepperBase {
  abstract readonly method: ComparatorMethod;
  readonly stateSize: number;
  /** Input size of the force (0 unforced; only RATTLE takes a force). */
  inputSize = 0;
  /** Initial time of the run (the last reset's t0): step k leaves t0 + k·h. */
  protected t0 = 0;
  /** Step size of the run (the last reset's h), for the time of a recorded sample. */
  protected hRun = Number.NaN;
  readonly series: readonly SeriesSpec<ConstrainedSeries>[];
  /** The multiplier formula of the recorded `lambda`, apart from the method's own evaluations. */
  private readonly diag: IndexReducedOde;
  private readonly qr: Float64Array;
  private readonly vr: Float64Array;
  private readonly phi: Float64Array;

  constructor(
    readonly sys: ConstrainedMechanicalSystem,
    force?: Force,
  ) {
    const { n, m } = sys;
    this.diag = new IndexReducedOde(sys, force);
    this.stateSize = 2 * n;
    this.series = Object.freeze([
      { name: 'q', width: n },
      { name: 'v', width: n },
      { name: 'p', width: n },
      { name: 'lambda', width: m },
      { name: 'energy', width: 1 },
      { name: 'constraint', width: m },
    ] as const);
    this.qr = new Float64Array(n);
    this.vr = new Float64Array(n);
    this.phi = new Float64Array(m);
    this.Mq = sys.massMatrix === undefined ? null : new Float64Array(n * n);
  }

  /** M(q) scratch of a configuration-dependent mass (null for the constant diagonal one). */
  private readonly Mq: Float64Array | null;

  /**
   * Writes q, v, p = M v, λ(q, v), E = ½ vᵀMv + V(q) and φ(q) of z = (q, v) (V and the force of
   * λ at time t).
   */
  record(out: Float64Array, z: Float64Array, k?: number, tGiven?: number): void {
    const { sys, qr: q, vr: v } = this;
    // the given time, else t_k = t0 + k·h for a time-dependent system (core's integrate passes t
    // only for the first sample and a tEnd last one: no double boxed per kept sample)
    const t =
      tGiven ?? (k === undefined || sys.autonomous === true ? undefined : this.t0 + k * this.hRun);
    const { n, m } = sys;
    let kin = 0;
    for (let i = 0; i < n; i++) {
      const qi = z[i]!;
      const vi = z[n + i]!;
      q[i] = qi;
      v[i] = vi;
      out[i] = qi;
      out[n + i] = vi;
      out[2 * n + i] = sys.mass[i]! * vi;
      kin += sys.mass[i]! * vi * vi;
    }
    const Mq = this.Mq;
    if (Mq !== null) {
      // p = M(q)v, 2T = vᵀM(q)v
      sys.massMatrix!(Mq, q);
      kin = 0;
      for (let i = 0; i < n; i++) {
        let p = 0;
        for (let j = 0; j < n; j++) p += Mq[i * n + j]! * v[j]!;
        out[2 * n + i] = p;
        kin += p * v[i]!;
      }
    }
    const lambda = this.diag.multiplier(q, v, t);
    for (let a = 0; a < m; a++) out[3 * n + a] = lambda[a]!;
    out[3 * n + m] = 0.5 * kin + (t === undefined ? sys.V(q) : sys.V(q, t));
    const phi = sys.phi(this.phi, q);
    for (let a = 0; a < m; a++) out[3 * n + m + 1 + a] = phi[a]!;
  }
}

/** Explicit Euler z_{k+1} = z_k + h F(z_k) (spec §6). */
class EulerStepper extends ConstrainedStepperBase implements ComparatorStepper {
  readonly method = comparatorMethods.euler;
  readonly lastResidual = 0;
  private readonly f: Float64Array;
  private readonly zNew: Float64Array;
  constructor(private readonly ode: IndexReducedOde) {
    super(ode.sys, ode.force);
    this.f = new Float64Array(2 * ode.sys.n);
    this.zNew = new Float64Array(2 * ode.sys.n);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(_state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.t0 = t0;
    this.hRun = h;
  }
  step(z: Float64Array, k: number, h: number): number {
    const { f, zNew } = this;
    this.ode.rhs(f, z, this.t0 + k * h);
    for (let i = 0; i < zNew.length; i++) zNew[i] = z[i]! + h * f[i]!;
    checkFinite(zNew, zNew.length, 'euler', k);
    z.set(zNew);
    return 0;
  }
}

/** Classical RK4 on the index-reduced ODE (spec §6), via core {@link Rk4Stepper}. */
class Rk4ComparatorStepper extends ConstrainedStepperBase implements ComparatorStepper {
  readonly method = comparatorMethods.rk4;
  readonly lastResidual = 0;
  private readonly rk: Rk4Stepper;
  constructor(private readonly ode: IndexReducedOde) {
    super(ode.sys, ode.force);
    this.rk = new Rk4Stepper(2 * ode.sys.n, (out, t, y) => {
      ode.rhs(out, y, t);
    });
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.t0 = t0;
    this.hRun = h;
    this.rk.reset(state ?? NO_STATE, t0);
  }
  step(z: Float64Array, k: number, h: number): number {
    return this.rk.step(z, k, h);
  }
}

/**
 * Adams–Bashforth 3: z_{k+1} = z_k + (h/12)(23 F_k − 16 F_{k−1} + 5 F_{k−2}) (spec §6); the first
 * two steps after {@link reset} are RK4 steps (the spec's reference start-up). The history
 * F_{k−1}, F_{k−2} lives in the stepper (a failed step ends the run, so it never goes stale).
 */
class Ab3Stepper extends ConstrainedStepperBase implements ComparatorStepper {
  readonly method = comparatorMethods.ab3;
  readonly lastResidual = 0;
  private readonly rk: Rk4Stepper;
  private f0: Float64Array;
  private f1: Float64Array;
  private f2: Float64Array;
  private readonly zNew: Float64Array;
  private history = 0;
  constructor(private readonly ode: IndexReducedOde) {
    super(ode.sys, ode.force);
    const N = 2 * ode.sys.n;
    this.rk = new Rk4Stepper(N, (out, t, y) => {
      ode.rhs(out, y, t);
    });
    this.f0 = new Float64Array(N);
    this.f1 = new Float64Array(N);
    this.f2 = new Float64Array(N);
    this.zNew = new Float64Array(N);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.history = 0;
    this.t0 = t0;
    this.hRun = h;
    this.rk.reset(state ?? NO_STATE, t0);
  }
  step(z: Float64Array, k: number, h: number): number {
    const t = this.t0 + k * h;
    // rotate: f2 ← f1 ← f0 ← F(z_k)
    const tmp = this.f2;
    this.f2 = this.f1;
    this.f1 = this.f0;
    this.f0 = tmp;
    this.ode.rhs(this.f0, z, t);
    if (this.history < 2) {
      this.history++;
      return this.rk.step(z, k, h);
    }
    const c = h / 12;
    const { f0, f1, f2, zNew } = this;
    for (let i = 0; i < zNew.length; i++) {
      zNew[i] = z[i]! + c * (23 * f0[i]! - 16 * f1[i]! + 5 * f2[i]!);
    }
    checkFinite(zNew, zNew.length, 'ab3', k);
    z.set(zNew);
    return 0;
  }
}

/** Options of the implicit comparison methods. */
export interface ComparatorOptions {
  /** Newton tolerance on ‖residual‖∞. Default 1e-13 (trapezium) and 1e-15 (RATTLE, on φ). */
  readonly tol?: number;
  /** Maximum Newton iterations per solve. Default 30. */
  readonly maxIterations?: number;
  /**
   * An external (control) force F(t, q, v, u) (core's `Force`). RATTLE adds the discrete
   * Lagrange–d'Alembert forces f_d^± of core's `DiscreteForce` (see {@link RattleStepper}) and
   * takes inputs (input size `force.m`); the index-reduced comparators add F(t, q, v) to the ODE
   * (M v̇ = −∇V + F + Cᵀλ) and take no inputs (force.m must be 0).
   */
  readonly force?: Force;
  /** Quadrature of the discrete force: `'midpoint'` (default; keeps order 2), `'left'`, `'right'`. */
  readonly forceQuadrature?: ForceQuadrature;
}

/**
 * Implicit trapezium z_{k+1} = z_k + (h/2)(F(z_k) + F(z_{k+1})) (spec §6), solved by core's
 * {@link NewtonSolver} with a central-difference Jacobian from the explicit-Euler predictor.
 */
class TrapeziumStepper extends ConstrainedStepperBase implements ComparatorStepper {
  readonly method = comparatorMethods.trapezium;
  lastResidual = 0;
  private readonly solver: NewtonSolver;
  private readonly fk: Float64Array;
  private readonly fw: Float64Array;
  private readonly zk: Float64Array;
  private readonly guess: Float64Array;
  private readonly G: (out: Float64Array, w: Float64Array) => void;
  private readonly J: (out: Float64Array, w: Float64Array) => void;
  private h = 0;
  private t = 0;
  constructor(
    private readonly ode: IndexReducedOde,
    options: ComparatorOptions,
  ) {
    super(ode.sys, ode.force);
    const N = 2 * ode.sys.n;
    this.solver = new NewtonSolver(N, {
      tol: options.tol ?? 1e-13,
      maxIterations: options.maxIterations ?? 30,
    });
    this.fk = new Float64Array(N);
    this.fw = new Float64Array(N);
    this.zk = new Float64Array(N);
    this.guess = new Float64Array(N);
    this.G = (out, w) => {
      ode.rhs(this.fw, w, this.t + this.h);
      const c = 0.5 * this.h;
      for (let i = 0; i < N; i++) out[i] = w[i]! - this.zk[i]! - c * (this.fk[i]! + this.fw[i]!);
    };
    this.J = jacobianFromFiniteDifferences(this.G, N, N);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(_state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.t0 = t0;
    this.hRun = h;
  }
  step(z: Float64Array, k: number, h: number): number {
    const t = this.t0 + k * h;
    this.h = h;
    this.t = t;
    this.zk.set(z);
    this.ode.rhs(this.fk, z, t);
    for (let i = 0; i < z.length; i++) this.guess[i] = z[i]! + h * this.fk[i]!;
    const r = this.solver.solve(this.G, this.J, this.guess, k);
    if (!r.converged) throw new NewtonDivergedError(r.iterations, r.residualNorm, k);
    this.lastResidual = r.residualNorm;
    z.set(r.x);
    return r.iterations;
  }
}

/**
 * RATTLE (Andersen 1983; Hairer–Lubich–Wanner VII.1.4) for M q̈ = −∇V + Cᵀλ, φ(q) = 0:
 * v_{½} = v_k + (h/2) M⁻¹(−∇V(q_k) + C(q_k)ᵀ λ), q_{k+1} = q_k + h v_{½} with λ solved by
 * core's {@link NewtonSolver} (central-difference Jacobian in λ, so any ψ scaling works) so that
 * φ(q_{k+1}) = 0; v_{k+1} = v_{½} + (h/2) M⁻¹(−∇V(q_{k+1}) + C(q_{k+1})ᵀ μ) with μ from the
 * linear system C(q_{k+1}) v_{k+1} = 0. Symplectic, symmetric, order 2; not in the paper (spec §6
 * "optional").
 *
 * Cost: C(q) of a chain is sparse (a few nonzeros per row), so the products with C(q_k)ᵀ inside
 * the Newton residual run over a column-compressed copy of C(q_k) built once per step, and the
 * velocity-stage matrix C M⁻¹ Cᵀ skips the zero entries (same sums in the same order as the
 * dense loops, so the results are bit-for-bit those of the dense products). Newton stops at
 * `tol`, or once ‖φ‖∞ ≤ 1e-12 stops halving (the solver's `stallTol`): below that the residual
 * is the round-off of φ (≈ ε·|q|·|C|, above 1e-15 for long chains), and further iterations only
 * stir that noise.
 *
 * A system with a constraint `band` (a chain, e.g. `zieglerColumn`) takes the banded path, O(n)
 * per step: C in band storage, the analytic Newton Jacobian ∂G/∂λ = s·C(q_{k+1}) (h²/2) M⁻¹
 * C(q_k)ᵀ (dφ = s·C, the band's `phiScale`) and the velocity-stage matrix as band matrices,
 * factored by core's {@link BandLU}, with the same Newton stopping rule. Its residual G and
 * products are the dense path's sums term for term; the Jacobian (analytic instead of central
 * differences) and the LU round differently, so the two paths agree to round-off (≤ 1e-12 on the
 * Ziegler column, tested).
 *
 * Time-dependent potentials: ∇V(q_k, t_k) in the first half kick, ∇V(q_{k+1}, t_k + h) in the
 * second (the trapezoidal L_d of V(q, t)). Forced (option `force`): RATTLE is the variational
 * integrator of the trapezoidal L_d with the holonomic constraints, so the forced discrete
 * Legendre transforms (Marsden–West 2001 (3.2.5)) add f_d⁻ to the first half kick and f_d⁺ to the
 * second:
 * ```
 * M v_{½} = M v_k − (h/2)∇V(q_k) + f_d⁻(q_k, q_{k+1}) + (h/2)C(q_k)ᵀλ,   q_{k+1} = q_k + h v_{½},
 * M v_{k+1} = M v_{½} − (h/2)∇V(q_{k+1}) + f_d⁺(q_k, q_{k+1}) + (h/2)C(q_{k+1})ᵀμ,
 * ```
 * with f_d^± at (t_k, u_k). When f_d⁻ depends on q_{k+1}, core's Newton solves the n equations
 * f̄ = f_d⁻(q_k, q_{k+1}(f̄)) around the multiplier solve above (q_{k+1}(f̄): that solve with
 * v_k + M⁻¹f̄/… shifted by f̄), with the Jacobian I − ∂f_d⁻/∂q_{k+1}·h Π, Π = M⁻¹ −
 * M⁻¹C(q_k)ᵀ(C(q_{k+1})M⁻¹C(q_k)ᵀ)⁻¹C(q_{k+1})M⁻¹ (the derivative of the constrained position
 * stage; the rows of C span those of dφ). On a chain (`band`) with a force that declares
 * `jacobianBandwidth` (`BandedForce`, e.g. the damped `zieglerColumn`) the forced position stage
 * is instead one Newton solve in (q_{k+1}, λ), `M(q_{k+1} − base)/h − (h/2)C(q_k)ᵀλ − f_d⁻ = 0`,
 * `φ(q_{k+1}) = 0`, with a banded bordered Jacobian (borderedStep.ts): O(n) per iteration. A
 * force that vanishes at the unforced q_{k+1} (u = 0 for a pure actuator) leaves the step
 * bit-identical to the unforced one.
 *
 * Configuration-dependent mass (a system with `massMatrix`): the generalized RATTLE of
 * Hairer–Lubich–Wanner VII.1.4 (1.26) for H = ½pᵀM(q)⁻¹p + V, one Newton solve in (p_{½},
 * q_{k+1}, λ) (2n + m unknowns, central-difference Jacobian) and the velocity stage linear in μ,
 * with f_d⁻ inside the first kick and f_d⁺ in the second when forced (dense, n ≤ 200; the chain
 * band is not used; default Newton tolerance 1e-14 on the stage residual). Symplectic on the
 * constraint manifold and of order 2 (tested on the spherical pendulum in spherical coordinates
 * against DOPRI5 of the Cartesian system). A system without `massMatrix` takes the constant-mass
 * path above unchanged.
 *
 * @example
 * ```ts
 * const st = new RattleStepper(pendulum({ m: 1, g: 9.81, l: 1 }));
 * const z = Float64Array.of(0.6, -0.8, 0, 0);
 * st.reset();
 * for (let k = 0; k < 100; k++) st.step(z, k, 0.01); // |q| = 1 to 1e-15
 * st.mu; // μ of the last step (≈ λ(t_100) in the ψ scaling of C)
 * ```
 */
export class RattleStepper extends ConstrainedStepperBase implements ComparatorStepper {
  readonly method = comparatorMethods.rattle;
  readonly fEvals = 0;
  /** ‖φ(q_{k+1})‖∞ at the accepted λ of the last step. */
  lastResidual = 0;
  /** μ of the last step (velocity-stage multiplier ≈ λ(t_{k+1}), ψ scaling of C). */
  readonly mu: Float64Array;
  /** λ of the last step (the position-stage multiplier; the warm start of the next solve). */
  readonly lambda: Float64Array;
  private readonly base: Float64Array;
  private readonly q1: Float64Array;
  /** q_k, copied out of z. */
  private readonly qk: Float64Array;
  private readonly Ck: Float64Array;
  private readonly C1: Float64Array;
  private readonly gV: Float64Array;
  private readonly invM: Float64Array;
  private readonly A: Float64Array;
  private readonly rhsM: Float64Array;
  private readonly lu: DenseLU;
  private readonly zNew: Float64Array;
  /** C(q_k) column-compressed: column j holds rows cscRow[cscPtr[j]..cscPtr[j+1]). */
  private readonly cscPtr: Int32Array;
  private readonly cscRow: Int32Array;
  private readonly cscVal: Float64Array;
  private readonly solver: NewtonSolver;
  private readonly G: (out: Float64Array, lam: Float64Array) => void;
  private readonly J: (out: Float64Array, lam: Float64Array) => void;
  /** Largest accepted ‖φ(q_{k+1})‖∞: max(tol, 1e-12). */
  private readonly maxResidual: number;
  private h = 0;
  /**
   * The time arguments of ∇V at t_k and t_{k+1}: undefined for an autonomous system (no double
   * boxed per call), else the step's times (tagged fields: one box each per step).
   */
  private tArg: number | undefined = undefined;
  private tArgNext: number | undefined = undefined;
  // the banded path (a system with a constraint band): C(q_k), C(q_{k+1}) in band storage,
  // (h²/2) M⁻¹, a column scratch, the Newton solver and the velocity-stage matrix and LU
  private readonly band: ConstraintBand | null;
  private readonly Cbk: Float64Array;
  private readonly Cb1: Float64Array;
  private readonly wgt: Float64Array;
  private readonly tmpN: Float64Array;
  /** The banded position stage: core's Newton on a band LU (null on the dense path). */
  private readonly bandSolver: NewtonSolver | null;
  private readonly bandLinear: BandNewtonLinearSolver | null;
  private readonly Ab: BandMatrix | null;
  private readonly bandLu: BandLU | null;
  private readonly Gb: (out: Float64Array, lam: Float64Array) => void;
  private readonly Jb: (out: Float64Array, lam: Float64Array) => void;
  /** λ of the position stage just solved (copied into {@link lambda} once the step is accepted). */
  private readonly lambdaNew: Float64Array;
  /** ‖φ(q_{k+1})‖∞ of the position stage just solved. */
  private positionResidualNorm = Number.NaN;
  /** The forced part, when forced. */
  private readonly forcing: RattleForcing | undefined;
  /** What {@link RattleForcing} reads and writes of this stepper. */
  private readonly internals: RattleInternals;
  /** The generalized RATTLE of a system with M(q) (null for the constant diagonal mass). */
  private readonly general: RattleMassMatrix | null;
  // the last step taken, for stepDerivatives: z_k, λ, u_k, t_k, h (z_{k+1} and μ are in z, mu)
  private readonly lastZ: Float64Array;
  private readonly lastZ1: Float64Array;
  private readonly lastLambda: Float64Array;
  private readonly lastU: Float64Array;
  private lastT = 0;
  private lastH = 0;
  private hasLastStep = false;
  private derivatives: RattleDerivativeScratch | undefined;

  constructor(sys: ConstrainedMechanicalSystem, options: ComparatorOptions = {}) {
    super(sys, options.force);
    const { n, m } = sys;
    if (sys.mass.length !== n) throw new DimensionError('rattle: mass', n, sys.mass.length);
    if (!Number.isInteger(m) || m < 0)
      throw new DomainError('rattle: m', m, 'must be an integer ≥ 0');
    const general = sys.massMatrix !== undefined;
    // M(q): the generalized RATTLE (dense; the chain band is not used)
    const band = general ? null : (sys.band ?? null);
    if (band !== null) checkBand('rattle', band, n, m);
    this.band = band;
    // the dense path's m×n and m×m buffers only without a band (64 MB each at 2000 links)
    const dense = band === null ? 1 : 0;
    const force = options.force;
    this.inputSize = force === undefined ? 0 : checkForce('rattle: force', force, n);
    this.forcing =
      force === undefined || general
        ? undefined
        : new RattleForcing(force, options.forceQuadrature ?? 'midpoint', n, m, band);
    this.mu = new Float64Array(m);
    this.lambda = new Float64Array(m);
    this.lambdaNew = new Float64Array(m);
    this.base = new Float64Array(n);
    this.q1 = new Float64Array(n);
    this.qk = new Float64Array(n);
    this.Ck = new Float64Array(dense * m * n);
    this.C1 = new Float64Array(dense * m * n);
    this.gV = new Float64Array(n);
    this.invM = new Float64Array(n);
    for (let i = 0; i < n; i++) this.invM[i] = 1 / sys.mass[i]!;
    this.A = new Float64Array(dense * m * m);
    this.rhsM = new Float64Array(m);
    this.lu = new DenseLU(band === null ? Math.max(m, 1) : 1);
    this.zNew = new Float64Array(2 * n);
    this.cscPtr = new Int32Array(n + 1);
    this.cscRow = new Int32Array(dense * m * n);
    this.cscVal = new Float64Array(dense * m * n);
    const bw = band === null ? 0 : band.width;
    this.Cbk = new Float64Array(m * bw);
    this.Cb1 = new Float64Array(m * bw);
    this.wgt = new Float64Array(band === null ? 0 : n);
    this.tmpN = new Float64Array(band === null ? 0 : n);
    const kb = band === null ? 0 : gramBandwidth(band, m);
    this.Ab = band === null ? null : new BandMatrix(m, kb, kb);
    this.bandLu = band === null ? null : new BandLU(m, kb, kb);
    const tol = options.tol ?? 1e-15;
    if (!(tol >= 0)) throw new DomainError('rattle: tol', tol, 'must be ≥ 0');
    const maxIterations = options.maxIterations ?? 30;
    if (!Number.isInteger(maxIterations) || maxIterations < 0) {
      throw new DomainError('rattle: maxIterations', maxIterations, 'must be an integer ≥ 0');
    }
    this.maxResidual = Math.max(tol, 1e-12);
    this.general = general
      ? new RattleMassMatrix(
          sys,
          force,
          options.forceQuadrature ?? 'midpoint',
          options.tol ?? 1e-14,
          maxIterations,
        )
      : null;
    // the dense path's solver (size 1, unused, on the banded path)
    this.solver = new NewtonSolver(band === null ? Math.max(m, 1) : 1, {
      tol,
      maxIterations,
      stallTol: this.maxResidual,
      what: 'rattle: multiplier',
    });
    // G(λ) = φ(base + (h²/2) M⁻¹ C(q_k)ᵀ λ), base = q_k + h v_k − (h²/2) M⁻¹ ∇V(q_k)
    const { cscPtr, cscRow, cscVal } = this;
    this.G = (out, lam) => {
      const c = 0.5 * this.h * this.h;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = cscPtr[j]!; p < cscPtr[j + 1]!; p++) s += cscVal[p]! * lam[cscRow[p]!]!;
        this.q1[j] = this.base[j]! + c * this.invM[j]! * s;
      }
      sys.phi(out, this.q1);
    };
    this.J = jacobianFromFiniteDifferences(this.G, m, m);
    this.bandLinear = band === null ? null : new BandNewtonLinearSolver(m, kb, kb);
    this.bandSolver =
      band === null
        ? null
        : new NewtonSolver(m, {
            tol,
            maxIterations,
            stallTol: this.maxResidual,
            what: 'rattle: multiplier',
            linearSolver: this.bandLinear!,
          });
    // banded G: the same sums as G (C(q_k)ᵀλ column by column, rows ascending)
    const { Cbk, Cb1, wgt, tmpN } = this;
    this.Gb = (out, lam) => {
      const b = band!;
      const c = 0.5 * this.h * this.h;
      tmpN.fill(0);
      bandScatterTranspose(tmpN, Cbk, lam, b, m, n, 1);
      for (let j = 0; j < n; j++) this.q1[j] = this.base[j]! + c * this.invM[j]! * tmpN[j]!;
      sys.phi(out, this.q1);
    };
    // ∂G/∂λ = s·C(q_{k+1}) (h²/2) M⁻¹ C(q_k)ᵀ at the q_{k+1} of the last Gb (same λ), into the
    // band LU's own matrix (the `out` the solver passes is its storage)
    this.Jb = () => {
      const b = band!;
      const out = this.bandLinear!.band;
      b.C(Cb1, this.q1);
      bandGram(out, Cb1, Cbk, wgt, b, n, false);
      const s = out.rowBand;
      const phiScale = b.phiScale;
      for (let i = 0; i < s.length; i++) s[i] = phiScale * s[i]!;
    };
    this.lastZ = new Float64Array(general ? 0 : 2 * n);
    this.lastZ1 = new Float64Array(general ? 0 : 2 * n);
    this.lastLambda = new Float64Array(general ? 0 : m);
    this.lastU = new Float64Array(general ? 0 : this.inputSize);
    this.internals = {
      sys,
      base: this.base,
      q1: this.q1,
      qk: this.qk,
      invM: this.invM,
      lambdaNew: this.lambdaNew,
      positionStage: (k, guess) => this.positionStage(k, guess),
      Cbk: this.Cbk,
    };
  }

  reset(_state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.lambda.fill(0);
    this.general?.reset(t0);
    this.t0 = t0;
    this.hRun = h;
    this.hasLastStep = false;
  }

  /** The constant-mass diagnostics have no meaning for the M(q) step. */
  private constantMassOnly(what: string): void {
    if (this.general !== null)
      throw new DomainError(
        `rattle: ${what}`,
        'massMatrix',
        'is the constant-mass position stage (the M(q) step solves (p½, q_{k+1}, λ) together)',
      );
  }

  /**
   * Keeps the data of the step just accepted for {@link stepDerivatives} (z_k, z_{k+1} = zNew, λ,
   * u_k, h; t_k is set by the caller): copies, nothing allocated.
   */
  private remember(z: Float64Array, u: Float64Array | undefined): void {
    this.lastZ.set(z);
    this.lastZ1.set(this.zNew);
    this.lastLambda.set(this.lambdaNew);
    if (u === undefined) this.lastU.fill(0);
    else this.lastU.set(u);
    this.lastH = this.h;
    this.hasLastStep = true;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) on the state
   * z = (q, v) (size 2n) and the input u (size `inputSize`): `dxdx` ← ∂z_{k+1}/∂z_k (2n × 2n) and
   * `dxdu` ← ∂z_{k+1}/∂u_k (2n × inputSize), row-major: constant diagonal mass (dense and banded
   * paths) and M(q), forced or not.
   *
   * Position stage (class doc, c = h²/2): y = (q_{k+1}, λ) is the root of
   * ```
   * R1 = q_{k+1} − q_k − h v_k + c M⁻¹∇V(q_k, t_k) − h M⁻¹ f_d⁻(q_k, q_{k+1}, u_k) − c M⁻¹C(q_k)ᵀλ = 0,
   * R2 = φ(q_{k+1}) = 0,
   * ```
   * so by the implicit function theorem ∂y/∂(q, v, u) = −K⁻¹ ∂R/∂(q, v, u) with the KKT matrix
   * K = [[I − h w⁻ M⁻¹ ∂F̄/∂q_{k+1}, −c M⁻¹C(q_k)ᵀ], [dφ(q_{k+1}), 0]] and
   * ∂R1/∂q_k = −I + c M⁻¹∇²V(q_k) − h w⁻ M⁻¹ ∂F̄/∂q_k − c M⁻¹ ∂(C(q)ᵀλ)/∂q, ∂R1/∂v_k = −h I,
   * ∂R1/∂u_k = −h w⁻ M⁻¹ ∂F̄/∂u (f_d^± = w^± F̄, core's `DiscreteForce`). Velocity stage: with
   * w = (q_{k+1} − q_k)/h − (h/2) M⁻¹∇V(q_{k+1}, t_{k+1}) + M⁻¹ f_d⁺ and
   * v_{k+1} = w + (h/2) M⁻¹C₁ᵀμ, C₁ = C(q_{k+1}), C₁v_{k+1} = 0 (μ linear), differentiating
   * C₁v_{k+1} = 0 gives
   * ```
   * (h/2) C₁M⁻¹C₁ᵀ δμ = −δC₁ v_{k+1} − C₁(δw + (h/2) M⁻¹ δC₁ᵀ μ),
   * δv_{k+1} = δw + (h/2) M⁻¹(δC₁ᵀμ + C₁ᵀδμ),   δC₁ = ∂C/∂q(q_{k+1})[δq_{k+1}].
   * ```
   * The second derivatives ∇²V, ∂(C(q)ᵀλ)/∂q, δC₁ (directional) and dφ are central differences
   * (relative step `CENTRAL_DIFFERENCE_STEP`; the system gives only ∇V, φ and C); K and the
   * velocity-stage matrix are factored densely (O((n + m)³): a cold path, for linearizations, that
   * allocates its scratch on the first call).
   *
   * M(q) (the generalized RATTLE, rattleMassMatrix.ts): x = (p½, q_{k+1}, λ) is the root of the
   * position-stage residual G(x; z_k, u_k), so δx = −G_x⁻¹ ∂G/∂(z, u) with G_x the step's own
   * (analytic) Newton matrix and ∂G/∂(z, u) central differences
   * at the accepted x; δv_{k+1} is a directional central difference of the explicit velocity
   * stage along (δx, δz, δu). Less accurate than the constant-mass formulas (≈ 1e-8 relative).
   *
   * @throws {@link DomainError} for n + m > {@link STEP_DERIVATIVES_MAX_DIMENSION} and before any
   *   step;
   *   {@link DimensionError} for wrong output lengths;
   *   {@link SingularMatrixError} for a singular K or C₁M⁻¹C₁ᵀ.
   * @example
   * ```ts
   * const st = new RattleStepper(pendulum({ m: 1, l: 1, g: 9.81 }));
   * const z = Float64Array.of(1, 0, 0, 1); // q = (1, 0), v = (0, 1)
   * st.reset(z);
   * st.step(z, 0, 0.01);
   * const A = new Float64Array(16);
   * st.stepDerivatives(A, new Float64Array(0)); // A[i·4 + j] = ∂z₁[i]/∂z₀[j]
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { sys, invM } = this;
    const { n, m } = sys;
    const mu = this.inputSize;
    const S = 2 * n;
    const general = this.general;
    const taken = general !== null ? general.hasLastStep : this.hasLastStep;
    checkStepDerivatives(
      'RattleStepper.stepDerivatives',
      taken ? undefined : 'no step taken',
      dxdx,
      dxdu,
      S,
      mu,
      n + m,
    );
    if (general !== null) {
      general.derivatives(dxdx, dxdu);
      return;
    }
    this.derivatives ??= rattleDerivativeScratch(n, m, mu);
    const d = this.derivatives;
    const {
      K,
      lu,
      Kv,
      luV,
      HV0,
      HV1,
      DCl,
      dphi,
      C0,
      C1,
      Fq0,
      Fq1,
      Fu,
      a,
      b,
      am,
      bm,
      qq,
      rhs,
      col,
    } = d;
    const { dq1, dw, dC, dmu, v1 } = d;
    const h = this.lastH;
    const t = this.lastT;
    const autonomous = sys.autonomous === true;
    const c = 0.5 * h * h;
    const hh = 0.5 * h;
    const z = this.lastZ;
    const lambda = this.lastLambda;
    const q = d.q;
    const q1 = d.q1;
    for (let i = 0; i < n; i++) {
      q[i] = z[i]!;
      q1[i] = this.lastZ1[i]!;
      v1[i] = this.lastZ1[n + i]!;
    }
    // the force's F̄ partials (f_d^± = w^± F̄) at (t_k, q_k, q_{k+1}, u_k)
    const { fw } = d;
    forceJacobianWithWeights(fw, Fq0, Fq1, Fu, this.forcing?.discrete(h), t, q, q1, this.lastU);
    const wm = fw[0]!;
    const wp = fw[1]!;
    // central differences: ∇²V at q_k (t_k) and q_{k+1} (t_{k+1}), ∂(C(q)ᵀλ)/∂q at q_k, dφ(q_{k+1})
    const grad = (out: Float64Array, x: Float64Array, tt: number): void => {
      if (autonomous) sys.gradV(out, x);
      else sys.gradV(out, x, tt);
    };
    for (let j = 0; j < n; j++) {
      const x0 = q[j]!;
      const e0 = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x0));
      q[j] = x0 + e0;
      grad(a, q, t);
      sys.C(C0, q);
      ctMul(qq, C0, lambda, n, m);
      q[j] = x0 - e0;
      grad(b, q, t);
      sys.C(C0, q);
      q[j] = x0;
      for (let i = 0; i < n; i++) HV0[i * n + j] = (a[i]! - b[i]!) / (2 * e0);
      ctMul(a, C0, lambda, n, m);
      for (let i = 0; i < n; i++) DCl[i * n + j] = (qq[i]! - a[i]!) / (2 * e0);
      const y0 = q1[j]!;
      const e1 = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(y0));
      q1[j] = y0 + e1;
      grad(a, q1, t + h);
      sys.phi(am, q1);
      q1[j] = y0 - e1;
      grad(b, q1, t + h);
      sys.phi(bm, q1);
      q1[j] = y0;
      for (let i = 0; i < n; i++) HV1[i * n + j] = (a[i]! - b[i]!) / (2 * e1);
      for (let r = 0; r < m; r++) dphi[r * n + j] = (am[r]! - bm[r]!) / (2 * e1);
    }
    sys.C(C0, q);
    sys.C(C1, q1);
    // K = [[I − h w⁻ M⁻¹ ∂F̄/∂q_{k+1}, −c M⁻¹C(q_k)ᵀ], [dφ(q_{k+1}), 0]]
    const s = n + m;
    K.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++)
        K[i * s + j] = (i === j ? 1 : 0) - h * wm * invM[i]! * Fq1[i * n + j]!;
      for (let r = 0; r < m; r++) K[i * s + n + r] = -c * invM[i]! * C0[r * n + i]!;
    }
    for (let r = 0; r < m; r++) for (let j = 0; j < n; j++) K[(n + r) * s + j] = dphi[r * n + j]!;
    lu.factor(K);
    if (lu.isSingular) throw new SingularMatrixError('RattleStepper.stepDerivatives: K', -1);
    // the velocity stage's (h/2) C₁M⁻¹C₁ᵀ
    for (let r = 0; r < m; r++) {
      for (let p = 0; p < m; p++) {
        let v = 0;
        for (let i = 0; i < n; i++) v += C1[r * n + i]! * invM[i]! * C1[p * n + i]!;
        Kv[r * m + p] = hh * v;
      }
    }
    if (m > 0) {
      luV.factor(Kv);
      if (luV.isSingular)
        throw new SingularMatrixError(
          'RattleStepper.stepDerivatives: C(q_{k+1}) M⁻¹ C(q_{k+1})ᵀ',
          -1,
        );
    }
    const muK = this.mu;
    dxdx.fill(0);
    dxdu.fill(0);
    // columns: j < n: δq_k = e_j; n ≤ j < 2n: δv_k = e_{j−n}; then δu_k = e_{j−2n}
    for (let j = 0; j < S + mu; j++) {
      const ju = j - S;
      for (let i = 0; i < n; i++) {
        let r: number; // ∂R1_i/∂x_j
        if (j < n) {
          r =
            (i === j ? -1 : 0) +
            invM[i]! * (c * HV0[i * n + j]! - h * wm * Fq0[i * n + j]! - c * DCl[i * n + j]!);
        } else if (j < S) r = i === j - n ? -h : 0;
        else r = -h * wm * invM[i]! * Fu[i * mu + ju]!;
        rhs[i] = -r;
      }
      for (let r = 0; r < m; r++) rhs[n + r] = 0;
      lu.solve(rhs, col);
      for (let i = 0; i < n; i++) dq1[i] = col[i]!;
      // δw = (δq_{k+1} − δq_k)/h − (h/2) M⁻¹∇²V(q_{k+1})δq_{k+1} + w⁺M⁻¹(F̄_{q0}δq_k + F̄_{q1}δq_{k+1} + F̄_uδu)
      for (let i = 0; i < n; i++) {
        let hv = 0;
        let f = j < n ? Fq0[i * n + j]! : ju >= 0 ? Fu[i * mu + ju]! : 0;
        for (let l = 0; l < n; l++) {
          hv += HV1[i * n + l]! * dq1[l]!;
          f += Fq1[i * n + l]! * dq1[l]!;
        }
        dw[i] = (dq1[i]! - (j === i ? 1 : 0)) / h - hh * invM[i]! * hv + wp * invM[i]! * f;
      }
      // δC₁ = ∂C/∂q(q_{k+1})[δq_{k+1}], a directional central difference
      let norm = 0;
      for (let i = 0; i < n; i++) norm = Math.max(norm, Math.abs(dq1[i]!));
      if (norm > 0 && m > 0) {
        let qn = 0;
        for (let i = 0; i < n; i++) qn = Math.max(qn, Math.abs(q1[i]!));
        const e = (CENTRAL_DIFFERENCE_STEP * Math.max(1, qn)) / norm;
        for (let i = 0; i < n; i++) qq[i] = q1[i]! + e * dq1[i]!;
        sys.C(dC, qq);
        for (let i = 0; i < n; i++) qq[i] = q1[i]! - e * dq1[i]!;
        sys.C(C0, qq);
        for (let r = 0; r < m * n; r++) dC[r] = (dC[r]! - C0[r]!) / (2 * e);
      } else dC.fill(0);
      // δμ from (h/2) C₁M⁻¹C₁ᵀ δμ = −δC₁ v_{k+1} − C₁(δw + (h/2) M⁻¹ δC₁ᵀ μ)
      ctMul(a, dC, muK, n, m);
      for (let i = 0; i < n; i++) a[i] = hh * invM[i]! * a[i]!; // (h/2) M⁻¹ δC₁ᵀ μ
      for (let r = 0; r < m; r++) {
        let v = 0;
        for (let i = 0; i < n; i++)
          v += dC[r * n + i]! * v1[i]! + C1[r * n + i]! * (dw[i]! + a[i]!);
        dmu[r] = -v;
      }
      if (m > 0) luV.solve(dmu, dmu);
      ctMul(b, C1, dmu, n, m);
      const out = j < S ? dxdx : dxdu;
      const w = j < S ? S : mu;
      const cc = j < S ? j : ju;
      for (let i = 0; i < n; i++) {
        out[i * w + cc] = dq1[i]!;
        out[(n + i) * w + cc] = dw[i]! + a[i]! + hh * invM[i]! * b[i]!;
      }
    }
  }

  /** Column-compressed copy of C(q_k) (zero entries dropped) for {@link G}. */
  private compressCk(): void {
    const { Ck, cscPtr, cscRow, cscVal } = this;
    const { n, m } = this.sys;
    let p = 0;
    for (let j = 0; j < n; j++) {
      cscPtr[j] = p;
      for (let a = 0; a < m; a++) {
        const v = Ck[a * n + j]!;
        if (v !== 0) {
          cscRow[p] = a;
          cscVal[p] = v;
          p++;
        }
      }
    }
    cscPtr[n] = p;
  }

  /** Sets up the multiplier equation G(λ) = 0 of the step from z = (q_k, v_k) with step h. */
  private prepare(z: Float64Array, h: number, t?: number): void {
    const { sys, base, qk, Ck, gV, invM } = this;
    const n = sys.n;
    this.h = h;
    for (let j = 0; j < n; j++) qk[j] = z[j]!;
    const c = 0.5 * h * h;
    if (this.band !== null) {
      this.band.C(this.Cbk, qk);
      for (let j = 0; j < n; j++) this.wgt[j] = c * invM[j]!;
    } else {
      sys.C(Ck, qk);
      this.compressCk();
    }
    if (t === undefined) sys.gradV(gV, qk);
    else sys.gradV(gV, qk, t);
    for (let j = 0; j < n; j++) base[j] = z[j]! + h * z[n + j]! - c * invM[j]! * gV[j]!;
  }

  /**
   * The position-stage residual G(λ) = φ(q_k + h v_k − (h²/2) M⁻¹(∇V(q_k) − C(q_k)ᵀλ)) of the
   * step from z with step h (m entries, into `out`): the equation RATTLE's Newton solves. Cold
   * path (for diagnostics and tests); does not change the stepper's warm start.
   */
  positionResidual(out: Float64Array, z: Float64Array, h: number, lambda: Float64Array): void {
    this.constantMassOnly('positionResidual');
    this.prepare(z, h);
    if (this.band !== null) this.Gb(out, lambda);
    else this.G(out, lambda);
  }

  /**
   * The Newton Jacobian ∂G/∂λ (m×m, row-major, into `out`) that RATTLE's solve uses at λ: central
   * differences of {@link positionResidual} (any ψ scaling of C). For ψ = ½dφ it approximates
   * 2 C(q_{k+1}) (h²/2) M⁻¹ C(q_k)ᵀ. On the banded path it is that product itself, s·C(q_{k+1})
   * (h²/2) M⁻¹ C(q_k)ᵀ with the band's s (written out densely here).
   */
  positionJacobian(out: Float64Array, z: Float64Array, h: number, lambda: Float64Array): void {
    this.constantMassOnly('positionJacobian');
    this.prepare(z, h);
    const bl = this.bandLinear;
    if (bl === null) {
      this.J(out, lambda);
      return;
    }
    const m = this.sys.m;
    this.Gb(this.rhsM, lambda);
    this.Jb(bl.matrix, lambda);
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) out[a * m + b] = bl.band.get(a, b);
  }

  /**
   * One RATTLE step of z = (q_k, v_k) in place; returns the Newton iterations. Throws
   * {@link NewtonDivergedError} (naming step k) when ‖φ(q_{k+1})‖∞ stays above max(tol, 1e-12),
   * or the solver's typed error; z is then unchanged.
   */
  step(z: Float64Array, k: number, h: number, u?: Float64Array): number {
    const general = this.general;
    if (general !== null) {
      const iterations = general.step(z, k, h, u);
      this.lambda.set(general.lambda);
      this.mu.set(general.mu);
      this.lastResidual = general.lastResidual;
      return iterations;
    }
    const { sys, q1, C1, gV, invM, A, lu, mu, zNew } = this;
    const t = this.t0 + k * h;
    const { n, m } = sys;
    if (sys.autonomous === true) {
      this.tArg = undefined;
      this.tArgNext = undefined;
    } else {
      this.tArg = t;
      this.tArgNext = t + h;
    }
    // z = (q, v) is read and written with offsets (subarray views would allocate every step)
    this.prepare(z, h, this.tArg);
    let iterations = this.positionStage(k, this.lambda);
    const forcing = this.forcing;
    let fPlus: Float64Array | undefined;
    if (forcing !== undefined) {
      const uu = u ?? forcing.zeroInput;
      if (uu.length !== this.inputSize)
        throw new DimensionError('rattle: u', this.inputSize, uu.length);
      forcing.t = t;
      forcing.h = h;
      iterations += forcing.solve(this.internals, uu, k);
      if (forcing.chainSolved) this.positionResidualNorm = forcing.chainPhiNorm;
      fPlus = forcing.plus(this.qk, q1, uu);
    }
    if (this.band !== null) return this.stepBanded(z, k, iterations, fPlus, u);
    const res = this.positionResidualNorm;
    // v_{½} = (q_{k+1} − q_k)/h
    for (let j = 0; j < n; j++) {
      zNew[n + j] = (q1[j]! - z[j]!) / h;
      zNew[j] = q1[j]!;
    }
    sys.C(C1, q1);
    const tNext = this.tArgNext;
    if (tNext === undefined) sys.gradV(gV, q1);
    else sys.gradV(gV, q1, tNext);
    // w = v_{½} − (h/2) M⁻¹∇V(q_{k+1}) (+ M⁻¹f_d⁺); (h/2) C M⁻¹ Cᵀ μ = −C w
    const hh = 0.5 * h;
    for (let j = 0; j < n; j++) zNew[n + j] = zNew[n + j]! - hh * invM[j]! * gV[j]!;
    if (fPlus !== undefined) {
      // exact zeros skipped: u = 0 stays bit-identical
      for (let j = 0; j < n; j++) {
        const f = fPlus[j]!;
        if (f !== 0) zNew[n + j] = zNew[n + j]! + invM[j]! * f;
      }
    }
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += C1[a * n + j]! * zNew[n + j]!;
      mu[a] = -s;
      // row a of C M⁻¹ Cᵀ over the nonzeros of C row a (the dense sums, zero terms skipped)
      const row = a * m;
      A.fill(0, row, row + m);
      for (let j = 0; j < n; j++) {
        const ca = C1[a * n + j]!;
        if (ca === 0) continue;
        const cm = ca * invM[j]!;
        for (let b = 0; b < m; b++) A[row + b] = A[row + b]! + cm * C1[b * n + j]!;
      }
      for (let b = 0; b < m; b++) A[row + b] = hh * A[row + b]!;
    }
    if (m > 0) {
      lu.factor(A);
      lu.solve(mu, mu);
    }
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let a = 0; a < m; a++) s += C1[a * n + j]! * mu[a]!;
      zNew[n + j] = zNew[n + j]! + hh * invM[j]! * s;
    }
    checkFinite(zNew, 2 * n, 'rattle', k);
    this.lambda.set(this.lambdaNew);
    this.lastResidual = res;
    this.lastT = t;
    this.remember(z, u);
    z.set(zNew);
    return iterations;
  }

  /**
   * The velocity stage of {@link step} on the banded path, after {@link positionStage} (and the
   * forced solve) left q_{k+1} in `q1` and λ in `lambdaNew`: the same sums as the dense stage in
   * band storage, O(n); `fPlus` is f_d⁺(q_k, q_{k+1}) of a forced step.
   */
  private stepBanded(
    z: Float64Array,
    k: number,
    iterations: number,
    fPlus: Float64Array | undefined,
    u: Float64Array | undefined,
  ): number {
    const { sys, q1, gV, invM, mu, zNew, Cb1, tmpN } = this;
    const h = this.h; // set by prepare (a field: a double argument would be boxed)
    const band = this.band!;
    const { n, m } = sys;
    for (let j = 0; j < n; j++) {
      zNew[n + j] = (q1[j]! - z[j]!) / h;
      zNew[j] = q1[j]!;
    }
    band.C(Cb1, q1);
    const tNext = this.tArgNext;
    if (tNext === undefined) sys.gradV(gV, q1);
    else sys.gradV(gV, q1, tNext);
    // w = v_{½} − (h/2) M⁻¹∇V(q_{k+1}) (+ M⁻¹f_d⁺); (h/2) C M⁻¹ Cᵀ μ = −C w
    const hh = 0.5 * h;
    for (let j = 0; j < n; j++) {
      let v = zNew[n + j]! - hh * invM[j]! * gV[j]!;
      if (fPlus !== undefined) {
        // exact zeros skipped, as on the dense path
        const f = fPlus[j]!;
        if (f !== 0) v = v + invM[j]! * f;
      }
      zNew[n + j] = v;
      tmpN[j] = v;
    }
    bandMul(mu, Cb1, tmpN, band, m, n);
    for (let a = 0; a < m; a++) mu[a] = -mu[a]!;
    const A = this.Ab!;
    bandGram(A, Cb1, Cb1, invM, band, n, false);
    const Ar = A.rowBand;
    for (let i = 0; i < Ar.length; i++) Ar[i] = hh * Ar[i]!;
    const lu = this.bandLu!.factor(A);
    lu.solve(mu, mu);
    tmpN.fill(0);
    bandScatterTranspose(tmpN, Cb1, mu, band, m, n, 1);
    for (let j = 0; j < n; j++) zNew[n + j] = zNew[n + j]! + hh * invM[j]! * tmpN[j]!;
    checkFinite(zNew, 2 * n, 'rattle', k);
    this.lambda.set(this.lambdaNew);
    this.lastResidual = this.positionResidualNorm;
    this.lastT = this.t0 + k * h;
    this.remember(z, u);
    z.set(zNew);
    return iterations;
  }

  /**
   * The position stage from the prepared `base`: solves G(λ) = 0 from the warm start `guess`,
   * leaves q_{k+1} in `q1` and λ in `lambdaNew`; returns the Newton iterations.
   */
  private positionStage(k: number, guess: Float64Array): number {
    const { rhsM } = this;
    const m = this.sys.m;
    // warm start: λ of the previous step (λ is a force, nearly constant between steps)
    if (m === 0) {
      // no constraint: the position stage is the drift q_{k+1} = base (velocity Verlet)
      this.G(rhsM, guess);
      this.positionResidualNorm = 0;
      return 0;
    }
    const bs = this.bandSolver;
    if (bs !== null) {
      // banded: the same equation G(λ) = 0 in band storage (Gb, Jb), core's Newton on a band
      // LU (BandNewtonLinearSolver), O(n)
      const r = bs.solve(this.Gb, this.Jb, guess, k);
      const iterations = r.iterations;
      if (!r.converged) throw new NewtonDivergedError(iterations, r.residualNorm, k);
      this.Gb(rhsM, r.x); // sets q1 for the converged λ
      let res = 0;
      for (let a = 0; a < m; a++) res = Math.max(res, Math.abs(rhsM[a]!));
      if (!(res <= this.maxResidual)) throw new NewtonDivergedError(iterations, res, k);
      this.lambdaNew.set(r.x);
      this.positionResidualNorm = res;
      return iterations;
    }
    const r = this.solver.solve(this.G, this.J, guess, k);
    const iterations = r.iterations;
    this.G(rhsM, r.x); // sets q1 for the converged λ
    let res = 0;
    for (let a = 0; a < m; a++) res = Math.max(res, Math.abs(rhsM[a]!));
    if (!(res <= this.maxResidual)) throw new NewtonDivergedError(iterations, res, k);
    this.lambdaNew.set(r.x);
    this.positionResidualNorm = res;
    return iterations;
  }
}

/** out ← C ᵀ x (C m×n row-major, x length m, out length n). */
function ctMul(out: Float64Array, C: Float64Array, x: Float64Array, n: number, m: number): void {
  out.fill(0, 0, n);
  for (let r = 0; r < m; r++) {
    const xr = x[r]!;
    if (xr === 0) continue;
    for (let i = 0; i < n; i++) out[i] = out[i]! + C[r * n + i]! * xr;
  }
}

/** Scratch of {@link RattleStepper.stepDerivatives} (allocated on its first call). */
interface RattleDerivativeScratch {
  readonly K: Float64Array;
  readonly lu: DenseLU;
  readonly Kv: Float64Array;
  readonly luV: DenseLU;
  readonly HV0: Float64Array;
  readonly HV1: Float64Array;
  readonly DCl: Float64Array;
  readonly dphi: Float64Array;
  readonly C0: Float64Array;
  readonly C1: Float64Array;
  readonly dC: Float64Array;
  readonly Fq0: Float64Array;
  readonly Fq1: Float64Array;
  readonly Fu: Float64Array;
  /** [h w⁻, h w⁺] of the force (0, 0 without one). */
  readonly fw: Float64Array;
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly am: Float64Array;
  readonly bm: Float64Array;
  readonly q: Float64Array;
  readonly q1: Float64Array;
  readonly qq: Float64Array;
  readonly v1: Float64Array;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
  readonly dq1: Float64Array;
  readonly dw: Float64Array;
  readonly dmu: Float64Array;
}

function rattleDerivativeScratch(n: number, m: number, mu: number): RattleDerivativeScratch {
  const s = n + m;
  return {
    K: new Float64Array(s * s),
    lu: new DenseLU(s),
    Kv: new Float64Array(Math.max(1, m * m)),
    luV: new DenseLU(Math.max(1, m)),
    HV0: new Float64Array(n * n),
    HV1: new Float64Array(n * n),
    DCl: new Float64Array(n * n),
    dphi: new Float64Array(m * n),
    C0: new Float64Array(m * n),
    C1: new Float64Array(m * n),
    dC: new Float64Array(m * n),
    Fq0: new Float64Array(n * n),
    Fq1: new Float64Array(n * n),
    Fu: new Float64Array(Math.max(1, n * mu)),
    fw: new Float64Array(2),
    a: new Float64Array(n),
    b: new Float64Array(n),
    am: new Float64Array(m),
    bm: new Float64Array(m),
    q: new Float64Array(n),
    q1: new Float64Array(n),
    qq: new Float64Array(n),
    v1: new Float64Array(n),
    rhs: new Float64Array(s),
    col: new Float64Array(s),
    dq1: new Float64Array(n),
    dw: new Float64Array(n),
    dmu: new Float64Array(Math.max(1, m)),
  };
}

/** What {@link RattleForcing} reads and writes of a {@link RattleStepper}. */
interface RattleInternals {
  readonly sys: ConstrainedMechanicalSystem;
  readonly base: Float64Array;
  readonly q1: Float64Array;
  readonly qk: Float64Array;
  readonly invM: Float64Array;
  readonly lambdaNew: Float64Array;
  positionStage(k: number, guess: Float64Array): number;
  /** C(q_k) in band storage (banded path). */
  readonly Cbk: Float64Array;
}

/**
 * The forced part of a RATTLE step (see {@link RattleStepper}): the discrete force of the step
 * size in use and core's Newton on f̄ = f_d⁻(q_k, q_{k+1}(f̄)) around the position stage, with
 * its scratch (allocated once; a new step size rebuilds the discrete force, cold).
 */
class RattleForcing {
  readonly zeroInput: Float64Array;
  private fd: DiscreteForce;
  private readonly solver: NewtonSolver;
  private readonly x0: Float64Array;
  private readonly base0: Float64Array;
  private readonly fvec: Float64Array;
  private readonly fq1: Float64Array;
  private readonly Pi: Float64Array;
  /** C(q_k) dense, from `sys.C` (the banded stepper keeps only its band storage). */
  private readonly Ck: Float64Array;
  private readonly C1: Float64Array;
  private readonly S: Float64Array;
  private readonly B: Float64Array;
  private readonly col: Float64Array;
  private readonly lu: DenseLU;
  private readonly lambdaWarm: Float64Array;
  /** f̄ of the last position stage (J reuses the stage G has just solved). */
  private readonly lastX: Float64Array;
  private hasLastX = false;
  private readonly G: (out: Float64Array, x: Float64Array) => void;
  private readonly J: (out: Float64Array, x: Float64Array) => void;
  private st: RattleInternals | undefined;
  /**
   * t_k and h of the step being taken, set by the stepper before {@link solve}: fields, not
   * arguments, since a double passed to a call V8 does not inline is boxed (16 B).
   */
  t = Number.NaN;
  h = Number.NaN;
  /** Whether the last {@link solve} ran the banded forced stage, and its ‖φ(q_{k+1})‖∞. */
  chainSolved = false;
  chainPhiNorm = Number.NaN;
  private k = 0;
  private u: Float64Array;
  /** Position-stage Newton iterations inside the last forced solve. */
  private inner = 0;

  /** F̄ with the node time boxed once per step (banded path). */
  private node: ForceNode;
  /** The banded path (a chain with a {@link BandedForce}): bordered Newton in (q_{k+1}, λ). */
  private readonly chain: {
    readonly band: ConstraintBand;
    readonly kF: number;
    readonly bordered: BorderedMatrix;
    /** Core's Newton in (q_{k+1}, λ) with {@link bordered} as its linear solver. */
    readonly solver: NewtonSolver;
    readonly F: (out: Float64Array, x: Float64Array) => void;
    readonly J: (out: Float64Array, x: Float64Array) => void;
    readonly x: Float64Array;
    readonly ct: Float64Array;
    readonly phi: Float64Array;
    readonly Cb1: Float64Array;
    readonly F1: Float64Array;
    readonly fp: Float64Array;
    readonly fm: Float64Array;
    readonly e: Float64Array;
    readonly save: Float64Array;
  } | null;

  constructor(
    readonly force: Force,
    readonly quadrature: ForceQuadrature,
    readonly n: number,
    readonly m: number,
    band: ConstraintBand | null,
  ) {
    this.fd = new DiscreteForce(force, 1, quadrature);
    this.node = new ForceNode(this.fd);
    const kF = band === null ? -1 : forceBandwidth(force, n);
    const bordered = band === null || kF < 0 ? null : new BorderedMatrix(n, m, band, kF);
    this.chain =
      band === null || bordered === null
        ? null
        : {
            band,
            kF,
            bordered,
            // the stopping rule of the loop it replaced: tol 1e-14, the round-off floor 1e-11,
            // 50 iterations, a zero pivot (no κ estimate)
            solver: new NewtonSolver(n + m, {
              tol: 1e-14,
              stallTol: 1e-11,
              maxIterations: 50,
              conditionCheck: 'pivot',
              linearSolver: bordered,
              onSingular: () => new SingularMatrixError('forced RATTLE step: Newton matrix', -1),
              what: 'forced RATTLE step',
            }),
            F: (out, x) => this.chainResidual(out, x),
            J: () => this.chainJacobian(),
            x: new Float64Array(n + m),
            ct: new Float64Array(n),
            phi: new Float64Array(m),
            Cb1: new Float64Array(m * band.width),
            F1: new Float64Array(n * (2 * kF + 1)),
            fp: new Float64Array(n),
            fm: new Float64Array(n),
            e: new Float64Array(n),
            save: new Float64Array(n),
          };
    // the dense Newton's matrices only without the banded path
    const dn = this.chain === null ? 1 : 0;
    this.zeroInput = new Float64Array(force.m);
    this.u = this.zeroInput;
    this.solver = new NewtonSolver(n, {
      tol: 1e-14,
      maxIterations: 50,
      what: 'forced RATTLE step',
    });
    this.x0 = new Float64Array(n);
    this.base0 = new Float64Array(n);
    this.fvec = new Float64Array(n);
    this.fq1 = new Float64Array(dn * n * n);
    this.Pi = new Float64Array(dn * n * n);
    this.Ck = new Float64Array(dn * m * n);
    this.C1 = new Float64Array(dn * m * n);
    this.S = new Float64Array(dn * m * m);
    this.B = new Float64Array(dn * m * n);
    this.col = new Float64Array(m);
    this.lu = new DenseLU(Math.max(m, 1));
    this.lambdaWarm = new Float64Array(m);
    this.lastX = new Float64Array(n);
    // q_{k+1}(f̄): the position stage with base = base₀ + h M⁻¹ f̄
    const stage = (x: Float64Array): Float64Array => {
      const st = this.st!;
      const { base, invM } = st;
      const { base0, h, lastX } = this;
      let same = this.hasLastX;
      for (let j = 0; j < n && same; j++) same = lastX[j] === x[j];
      if (same) return st.q1; // J at the point G just evaluated
      for (let j = 0; j < n; j++) {
        base[j] = base0[j]! + h * invM[j]! * x[j]!;
        lastX[j] = x[j]!;
      }
      this.hasLastX = true;
      this.inner += st.positionStage(this.k, this.lambdaWarm);
      this.lambdaWarm.set(st.lambdaNew);
      return st.q1;
    };
    this.G = (out, x) => {
      const q1 = stage(x);
      this.fd.minus(out, this.t, this.st!.qk, q1, this.u);
      for (let i = 0; i < n; i++) out[i] = x[i]! - out[i]!;
    };
    // ∂G/∂f̄ = I − w⁻ ∂F̄/∂q_{k+1} · h Π at q_{k+1}(f̄)
    this.J = (out, x) => {
      const st = this.st!;
      const q1 = stage(x);
      const { qk, invM, sys } = st;
      const { Ck, C1, S, B, col, lu, Pi, fq1 } = this;
      sys.C(C1, q1);
      // S = C(q_{k+1}) M⁻¹ C(q_k)ᵀ, B = S⁻¹ C(q_{k+1}) M⁻¹
      for (let a = 0; a < m; a++) {
        for (let b = 0; b < m; b++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += C1[a * n + j]! * invM[j]! * Ck[b * n + j]!;
          S[a * m + b] = s;
        }
      }
      if (m > 0) lu.factor(S);
      if (m > 0 && lu.isSingular)
        throw new SingularMatrixError('rattle: C(q_{k+1}) M⁻¹ C(q_k)ᵀ', -1);
      for (let j = 0; j < n && m > 0; j++) {
        for (let a = 0; a < m; a++) col[a] = C1[a * n + j]! * invM[j]!;
        lu.solve(col, col);
        for (let a = 0; a < m; a++) B[a * n + j] = col[a]!;
      }
      // Π = M⁻¹ − M⁻¹ C(q_k)ᵀ B
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let a = 0; a < m; a++) s += Ck[a * n + i]! * B[a * n + j]!;
          Pi[i * n + j] = (i === j ? invM[i]! : 0) - invM[i]! * s;
        }
      }
      const fd = this.fd;
      fd.jacobian(undefined, fq1, undefined, this.t, qk, q1, this.u);
      const w = fd.weightMinus * this.h;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let l = 0; l < n; l++) s += fq1[i * n + l]! * Pi[l * n + j]!;
          out[i * n + j] = (i === j ? 1 : 0) - w * s;
        }
      }
    };
  }

  /**
   * Turns the unforced position stage just solved into the forced one (q_{k+1} in the stepper's
   * `q1`, λ in its `lambdaNew`) of the step leaving {@link t} with step {@link h}. Returns the
   * extra position-stage Newton iterations (0 when f_d⁻ vanishes at the unforced q_{k+1}).
   */
  solve(st: RattleInternals, u: Float64Array, k: number): number {
    const n = this.n;
    const fd = this.discrete(this.h);
    // the node time boxed once for the step (not at all for an autonomous force; ForceNode)
    if (this.node.fd !== fd) this.node = new ForceNode(fd);
    this.node.setTime(this.t);
    this.st = st;
    this.k = k;
    this.u = u;
    this.inner = 0;
    this.chainSolved = false;
    const { x0 } = this;
    this.node.minus(x0, st.qk, st.q1, u);
    let moved = false;
    for (let i = 0; i < n; i++) if (x0[i] !== 0) moved = true;
    if (!moved) return 0;
    if (this.chain !== null) return this.solveChain(st, u, k);
    this.base0.set(st.base);
    // the Jacobian's C(q_k), dense on both paths (it only steers Newton: ≤ tol either way)
    st.sys.C(this.Ck, st.qk);
    this.lambdaWarm.set(st.lambdaNew);
    this.hasLastX = false;
    const r = this.solver.solve(this.G, this.J, x0, k);
    if (!r.converged) {
      throw new NewtonDivergedError(r.iterations, r.residualNorm, k, 'forced RATTLE step');
    }
    // the solver's last evaluation of G was at the accepted f̄ (no line search): q1 and λ are its
    return this.inner;
  }

  /**
   * The banded forced position stage: Newton in x = (q_{k+1}, λ) on
   * ```
   * M(q_{k+1} − base)/h − (h/2)C(q_k)ᵀλ − f_d⁻(q_k, q_{k+1}) = 0,   φ(q_{k+1}) = 0
   * ```
   * (the position stage times M/h, base = q_k + h v_k − (h²/2)M⁻¹∇V) from the unforced stage, with
   * the bordered Jacobian [[M/h − w⁻∂F̄/∂q_{k+1}, −(h/2)C(q_k)ᵀ], [s·C(q_{k+1}), 0]] in band
   * storage (borderedStep.ts): O(n) per iteration. Leaves q_{k+1} in `q1`, λ in `lambdaNew`.
   */
  private solveChain(st: RattleInternals, u: Float64Array, k: number): number {
    const chain = this.chain!;
    const { n, m } = this;
    const { x, phi } = chain;
    const { q1 } = st;
    this.st = st;
    this.u = u;
    for (let i = 0; i < n; i++) x[i] = q1[i]!;
    for (let a = 0; a < m; a++) x[n + a] = st.lambdaNew[a]!;
    const r = chain.solver.solve(chain.F, chain.J, x, k);
    const iterations = r.iterations;
    if (!r.converged)
      throw new NewtonDivergedError(iterations, r.residualNorm, k, 'forced RATTLE step');
    // the solver's last F was at the accepted x (no line search): q1 and φ(q1) are its
    let phiNorm = 0;
    for (let a = 0; a < m; a++) phiNorm = Math.max(phiNorm, Math.abs(phi[a]!));
    if (!(phiNorm <= 1e-12))
      throw new NewtonDivergedError(iterations, phiNorm, k, 'forced RATTLE step');
    const y = r.x;
    for (let a = 0; a < m; a++) st.lambdaNew[a] = y[n + a]!;
    // read by the stepper from the field (a double passed to a closure is boxed per call)
    this.chainPhiNorm = phiNorm;
    this.chainSolved = true;
    return iterations;
  }

  /**
   * R ← the residual of {@link solveChain} at x = (q_{k+1}, λ), q1 ← x's q_{k+1}, the chain's
   * `phi` ← φ(q_{k+1}).
   */
  private chainResidual(R: Float64Array, x: Float64Array): void {
    const chain = this.chain!;
    const { n, m } = this;
    const { band, ct, phi } = chain;
    const { width: w, first } = band;
    const st = this.st!;
    const { base, q1, qk, invM, Cbk, sys } = st;
    const fvec = this.fvec;
    const h = this.h;
    const hh = 0.5 * h;
    for (let i = 0; i < n; i++) q1[i] = x[i]!;
    this.node.minus(fvec, qk, q1, this.u);
    ct.fill(0);
    for (let a = 0; a < m; a++) {
      const fa = first[a]!;
      const j1 = Math.min(n, fa + w);
      const la = x[n + a]!;
      for (let j = Math.max(0, fa); j < j1; j++) ct[j] = ct[j]! + Cbk[a * w + j - fa]! * la;
    }
    for (let i = 0; i < n; i++)
      R[i] = (q1[i]! - base[i]!) / (invM[i]! * h) - hh * ct[i]! - fvec[i]!;
    sys.phi(phi, q1);
    for (let a = 0; a < m; a++) R[n + a] = phi[a]!;
  }

  /**
   * The bordered Jacobian of {@link solveChain} at the q_{k+1} of the last {@link chainResidual}
   * (the solver calls J right after F at the same x), into the chain's bordered matrix; the solver
   * factors it.
   */
  private chainJacobian(): void {
    const chain = this.chain!;
    const { n, m } = this;
    const { band, kF, bordered, Cb1, F1 } = chain;
    const { width: w, first, phiScale } = band;
    const st = this.st!;
    const { q1, qk, invM, Cbk } = st;
    const h = this.h;
    const hh = 0.5 * h;
    const wm = this.fd.weightMinus;
    const kw = 2 * kF + 1;
    bandedForceJacobian(F1, this.node, kF, qk, q1, this.u, chain.fp, chain.fm, chain.e, chain.save);
    band.C(Cb1, q1);
    bordered.clear();
    for (let i = 0; i < n; i++) {
      const j0 = Math.max(0, i - kF);
      const j1 = Math.min(n - 1, i + kF);
      for (let j = j0; j <= j1; j++)
        bordered.set(i, j, (i === j ? 1 / (invM[i]! * h) : 0) - wm * F1[i * kw + j - i + kF]!);
    }
    for (let a = 0; a < m; a++) {
      const fa = first[a]!;
      const j1 = Math.min(n, fa + w);
      for (let j = Math.max(0, fa); j < j1; j++) {
        bordered.set(j, n + a, -hh * Cbk[a * w + j - fa]!);
        bordered.set(n + a, j, phiScale * Cb1[a * w + j - fa]!);
      }
    }
  }

  /** The discrete force of step size h (rebuilt, cold, for a new h). */
  discrete(h: number): DiscreteForce {
    if (this.fd.h !== h) this.fd = new DiscreteForce(this.force, h, this.quadrature);
    return this.fd;
  }

  /**
   * f_d⁺(q_k, q_{k+1}) of the step solved last, at its node time (the solver's own buffer; core's
   * `DiscreteForce.plus`, bit for bit).
   */
  plus(qk: Float64Array, q1: Float64Array, u: Float64Array): Float64Array | undefined {
    if (this.fd.weightPlus === 0) return undefined;
    return this.node.plus(this.fvec, qk, q1, u);
  }
}

/**
 * A stepper for `method` on `sys` (z = (q, v), length 2n). Call `reset()` before the first
 * step of a run (core's `integrate` does).
 *
 * @example
 * ```ts
 * const s = createComparatorStepper(pendulum({ m: 1, g: 9.81, l: 1 }), 'rattle');
 * const z = Float64Array.of(0.6, -0.8, 0, 0);
 * s.reset();
 * for (let k = 0; k < 100; k++) s.step(z, k, 0.01); // |q| = 1 to 1e-15
 * ```
 */
export function createComparatorStepper(
  sys: ConstrainedMechanicalSystem,
  method: ComparatorMethodName,
  options: ComparatorOptions = {},
): ComparatorStepper {
  const force = options.force;
  if (force !== undefined && method !== 'rattle' && force.m !== 0) {
    throw new DomainError(
      'createComparatorStepper: force.m',
      force.m,
      "must be 0: only 'rattle' takes inputs (the index-reduced comparators take F(t, q, v))",
    );
  }
  switch (method) {
    case 'euler':
      return new EulerStepper(new IndexReducedOde(sys, force));
    case 'rk4':
      return new Rk4ComparatorStepper(new IndexReducedOde(sys, force));
    case 'ab3':
      return new Ab3Stepper(new IndexReducedOde(sys, force));
    case 'trapezium':
      return new TrapeziumStepper(new IndexReducedOde(sys, force), options);
    case 'rattle':
      return new RattleStepper(sys, options);
    default:
      throw new DomainError('createComparatorStepper: method', method, 'unknown method');
  }
}

/**
 * Options of {@link integrateConstrained}: the method's options and core's recording options
 * (`every`, `onProgress`, `onFailure`, `maxRecordBytes`, `t0`, and `inputs`, the control sequence
 * u_0 … u_{steps−1} of a forced RATTLE run, a flat `steps × force.m` array or a function of (k, t);
 * a time-dependent V and the force see t).
 */
export interface IntegrateConstrainedOptions extends ComparatorOptions, IntegrateRecordingOptions {}

/**
 * Integrates `sys` with a comparison method for `steps` steps of size h > 0 from (q0, v0)
 * (spec §10 "Driver") through core's `integrate`: the series of {@link ComparatorStepper} (the
 * recorded λ is the index-reduced formula λ(q_k, v_k) for every method, a diagnostic; RATTLE's own
 * multipliers are on its stepper); `stats.newtonIterations` counts the trapezium's and RATTLE's
 * Newton iterations, `stats.fEvals` the right-hand-side evaluations of the index-reduced methods.
 *
 * @throws {@link DimensionError} for wrong q0/v0 lengths or inputs; {@link DomainError} for h ≤ 0,
 *   a non-integer steps or every, or a force with inputs for an index-reduced method;
 *   {@link NewtonDivergedError} / {@link NonFiniteError} naming the step.
 *
 * @example
 * ```ts
 * const sys = pendulum({ m: 1, g: 9.81, l: 1 });
 * const tr = integrateConstrained(sys, 'rattle', pendulumInitial(Math.PI / 4, 0, 1), 0.01, 1000, { every: 10 });
 * Math.max(...tr.constraint.map(Math.abs)); // ~1e-16
 * ```
 */
export function integrateConstrained(
  sys: ConstrainedMechanicalSystem,
  method: ComparatorMethodName,
  init: { readonly q0: ArrayLike<number>; readonly v0: ArrayLike<number> },
  h: number,
  steps: number,
  options: IntegrateConstrainedOptions = {},
): Solution<ConstrainedSeries> {
  const { n } = sys;
  if (init.q0.length !== n) throw new DimensionError('integrateConstrained: q0', n, init.q0.length);
  if (init.v0.length !== n) throw new DimensionError('integrateConstrained: v0', n, init.v0.length);
  if (!(h > 0 && Number.isFinite(h))) {
    throw new DomainError('integrateConstrained: h', h, 'must be positive and finite');
  }
  const stepper = createComparatorStepper(sys, method, options);
  const z0 = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    z0[i] = init.q0[i]!;
    z0[n + i] = init.v0[i]!;
  }
  const sol = integrate(stepper, z0, {
    h,
    steps,
    ...recordingOptions(options),
  });
  return extendSolution(sol, { stats: { ...sol.stats, fEvals: stepper.fEvals } });
}
