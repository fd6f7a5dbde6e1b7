/**
 * Discrete constrained Lagrangian systems (G, N, L) on a Lie groupoid G ⇒ Q (seed 003 §3, spec
 * 003 §5, §6, §7, §11.3), with N = {φ^a = 0, a = 1..m} and an extension L̂ of L to G.
 *
 * Everything is expressed through the trivialized gradients of spec 003 §2 in a fixed basis
 * e_1..e_r of sections of AG (r = rank AG):
 *
 *   leftGrad(f)(g)_i = ←e_i[f](g)  (α-vertical, moves the target end, eq. (1)),
 *   rightGrad(f)(g)_i = →e_i[f](g) (β-vertical, moves the source end, eq. (2) with its minus sign),
 *
 * so that, with F_λ = L̂ + λ_a φ^a (§5.2),
 *
 *   F⁻L(g, λ) = α̃(dF_λ(g)) = (α(g), rightGrad(F_λ)(g)),
 *   F⁺L(g, λ) = β̃(dF_λ(g)) = (β(g), leftGrad(F_λ)(g)),
 *
 * and the constrained discrete Euler–Lagrange equations (5) read, for a composable step
 * β(g_k) = α(g_{k+1}):
 *
 *   leftGrad(F_{λ_k})(g_k) − rightGrad(F_{λ_{k+1}})(g_{k+1}) = 0 ∈ R^r,   φ(g_{k+1}) = 0 ∈ R^m.
 *
 * A forward step solves these r + m equations for g_{k+1} in the α-fibre over β(g_k) (r
 * coordinates through `leftRetract`) and λ_{k+1}; a backward step solves them for g_k in the
 * β-fibre over α(g_{k+1}) (through `rightRetract`) and λ_k. The Jacobians of the two square
 * systems are the *bordered* matrices
 *
 *   forward  [ −←e_j[→e_i F_λ]   −→e_i[φ^a] ]      backward [ →e_j[←e_i F_λ]   ←e_i[φ^a] ]
 *            [  ←e_j[φ^a]           0       ]               [ →e_j[φ^a]          0      ]
 *
 * whose nullities are the dimensions of ker T(F⁻L|Σ_L) and ker T(F⁺L|Σ_L); Theorem 2.16 and
 * Remark 2.17 say these are equal, and the system is *regular* (Def 3.5) where they vanish.
 *
 * Forces and inputs (the discrete Lagrange–d'Alembert principle, Marsden–West 2001 §3.2, on the
 * groupoid): a {@link GroupoidForce} gives covectors f_d⁻(g) ∈ A*_{α(g)} and f_d⁺(g) ∈ A*_{β(g)}
 * (coefficients in the dual basis e^i) for an arrow g held on the time interval [t, t + h] with
 * input u, whose virtual work on the variation (←v(g_k), −→v(g_{k+1})) of a composable pair is
 * f_d⁺(g_k)·v + f_d⁻(g_{k+1})·v. Adding it to the variation of Σ L̂ + λφ gives the forced
 * Legendre transforms and the forced constrained DEL
 *
 *   F⁻L_f(g, λ) = (α(g), rightGrad(F_λ)(g) − f_d⁻(g)),   F⁺L_f(g, λ) = (β(g), leftGrad(F_λ)(g) + f_d⁺(g)),
 *   F⁺L_f(g_k, λ_k) = F⁻L_f(g_{k+1}, λ_{k+1}),   φ(g_{k+1}) = 0,                               (5f)
 *
 * which on the pair groupoid of Rⁿ (←e_i = ∂/∂q1ⁱ, →e_i = −∂/∂q0ⁱ) are Marsden–West's forced
 * discrete Legendre transforms p_k = −D₁L_d − f_d⁻, p_{k+1} = D₂L_d + f_d⁺ (3.2.5) and forced DEL
 * (3.2.4) with multipliers; {@link pairGroupoidForce} builds f_d^± from core's `DiscreteForce`
 * quadratures of a continuous force F(t, q, v, u). The forward Newton system of a forced step is
 * the unforced one with rightGrad(F_λ) replaced by rightGrad(F_λ) − f_d⁻ (its r×r block takes the
 * central differences of that sum, so a velocity-dependent force enters the Jacobian).
 *
 * Hot paths (Legendre transforms, residuals, Jacobians, Newton steps) write into workspaces owned
 * by the {@link DiscreteConstrainedSystem} and allocate nothing per call; diagnostics (SVDs, null
 * spaces, symmetry checks) allocate.
 *
 * @module
 */
import {
  borderedRetraction,
  checkForce,
  checkStepDerivatives,
  DenseLU,
  DimensionError,
  DiscreteForce,
  DomainError,
  extendSolution,
  type Force,
  type ForceQuadrature,
  type InputFunction,
  type IntegrateRecordingOptions,
  integrate,
  type JacobianFunction,
  type MethodTraits,
  methodTraits,
  NewtonSolver,
  NonRegularSystemError,
  NotComposableError,
  nullSpace,
  type ResidualFunction,
  recordingOptions,
  type SeriesSpec,
  type Solution,
  type Stepper,
  type SubspaceBasis,
  singularValues,
} from '@geomech/core';
import type { AStar, LieGroupoid } from './types.js';

/** Default step of the fourth-order finite-difference trivialized gradients (as `gradients.ts`). */
export const CONSTRAINED_GRADIENT_STEP = 1e-3;
/** Default central-difference step of the bordered Jacobian when all four gradient hooks are analytic. */
export const CONSTRAINED_JACOBIAN_STEP_ANALYTIC = Math.cbrt(Number.EPSILON);
/**
 * Default central-difference step of the bordered Jacobian over finite-difference gradients: larger,
 * because the gradients carry round-off noise ≈ ε|L̂|/{@link CONSTRAINED_GRADIENT_STEP}.
 */
export const CONSTRAINED_JACOBIAN_STEP_FD = 1e-4;
/** Default bound on the 1-norm condition estimate of the bordered Jacobian (non-regularity test). */
export const CONSTRAINED_MAX_CONDITION = 1e12;
/** Default relative singular-value threshold σ ≤ tol·σ_max counted as zero by {@link DiscreteConstrainedSystem.isRegularAt}. */
export const CONSTRAINED_REGULARITY_RTOL = 1e-8;

/** Writes a vector-valued function of an arrow into `out`. */
export type ArrowMap = (out: Float64Array, g: Float64Array) => void;
/** A section X = Σ Xⁱ(q) e_i of AG given by its coefficients: writes X¹(q)..X^r(q) into `out`. */
export type SectionCoefficients = (out: Float64Array, q: Float64Array) => void;
/** A function on the base Q. */
export type BaseFunction = (q: Float64Array) => number;

/**
 * Discrete Lagrange–d'Alembert forces on a Lie groupoid (module doc, (5f)): for an arrow g held on
 * the time interval [t, t + h] with input u, the covectors f_d⁻(g) at α(g) and f_d⁺(g) at β(g),
 * as coefficients in the dual basis e^i of the algebroid (length r). f_d⁻ does virtual work on
 * the source end moved by −→v, f_d⁺ on the target end moved by ←v (for the pair groupoid of Rⁿ:
 * Marsden–West's f_d⁻·δq_k + f_d⁺·δq_{k+1}). Implementations own their scratch (allocation-free).
 *
 * @example
 * ```ts
 * // a constant body torque τ on the pair groupoid of SO(3), held over the step: f_d⁻ = f_d⁺ = (h/2)τ
 * const h = 0.01;
 * const torque: GroupoidForce = {
 *   h, inputSize: 3,
 *   minus: (out, _g, _t, u) => { for (let i = 0; i < 3; i++) out[i] = 0.5 * h * u[i]!; return out; },
 *   plus: (out, _g, _t, u) => { for (let i = 0; i < 3; i++) out[i] = 0.5 * h * u[i]!; return out; },
 * };
 * torque.plus(new Float64Array(3), new Float64Array(18), 0, Float64Array.of(2, 0, 0)); // [0.01, 0, 0]
 * ```
 */
export interface GroupoidForce {
  /** Input size (0 for an uncontrolled force). */
  readonly inputSize: number;
  /** Length h of an arrow's time interval: the arrow before one on [t, t + h] is on [t − h, t]. */
  readonly h: number;
  /** out (length r) ← f_d⁻(g; t, u) ∈ A*_{α(g)}. */
  minus(out: Float64Array, g: Float64Array, t: number, u: Float64Array): Float64Array;
  /** out (length r) ← f_d⁺(g; t, u) ∈ A*_{β(g)}. */
  plus(out: Float64Array, g: Float64Array, t: number, u: Float64Array): Float64Array;
}

/**
 * The {@link GroupoidForce} of a continuous force F(t, q, v, u) on the pair groupoid Q × Q of
 * Q = Rⁿ ({@link PairGroupoid}, arrows g = (q0, q1)): core's `DiscreteForce` quadrature
 * (Marsden–West 2001 (3.2.2)) f_d⁻ = h w⁻ F̄, f_d⁺ = h w⁺ F̄ with
 * F̄ = F(t + c h, a q0 + b q1, (q1 − q0)/h, u) (midpoint (a, b, c, w⁻, w⁺) = (½, ½, ½, ½, ½), left
 * and right rectangles). In the basis e_i = ∂/∂qⁱ these are the groupoid's f_d^± directly.
 * Allocation-free.
 *
 * @throws DimensionError for a bad `force.n` or `force.m`; DomainError for a bad h or quadrature.
 * @example
 * ```ts
 * // F = u on R¹: the midpoint rule gives f_d⁻ = f_d⁺ = (h/2)u
 * const f = pairGroupoidForce({ n: 1, m: 1, F: (out, _t, _q, _v, u) => { out[0] = u[0]!; return out; } }, 0.1);
 * f.minus(new Float64Array(1), Float64Array.of(0, 1), 0, Float64Array.of(4)); // [0.2]
 * ```
 */
export function pairGroupoidForce(
  force: Force,
  h: number,
  quadrature: ForceQuadrature = 'midpoint',
): GroupoidForce {
  const fd = new DiscreteForce(force, h, quadrature);
  const n = fd.n;
  const inputSize = checkForce('pairGroupoidForce: force', force, n);
  const q0 = new Float64Array(n);
  const q1 = new Float64Array(n);
  const ends = (g: Float64Array): void => {
    if (g.length !== 2 * n) throw new DimensionError('pairGroupoidForce: arrow', 2 * n, g.length);
    for (let i = 0; i < n; i++) {
      q0[i] = g[i]!;
      q1[i] = g[n + i]!;
    }
  };
  return {
    inputSize,
    h,
    minus: (out, g, t, u) => {
      ends(g);
      return fd.minus(out, t, q0, q1, u);
    },
    plus: (out, g, t, u) => {
      ends(g);
      return fd.plus(out, t, q0, q1, u);
    },
  };
}

/** The data (G, N = {φ = 0}, L̂) of a discrete constrained Lagrangian system (spec 003 Def 3.2, §5.2, §11.3). */
export interface ConstrainedSystemSpec {
  /** The Lie groupoid G ⇒ Q. */
  readonly groupoid: LieGroupoid;
  /** Number m of constraints φ¹..φ^m (0 for an unconstrained system, N = G). */
  readonly m: number;
  /** The extension L̂: G → R of the discrete Lagrangian L: N → R. */
  readonly Lhat: (g: Float64Array) => number;
  /** out (length m) ← φ(g). Never called when m = 0. */
  readonly phi: ArrowMap;
  /** out (length r) ← leftGrad(L̂)(g) = ←e_i[L̂](g). Default: fourth-order central differences. */
  readonly leftGradL?: ArrowMap;
  /** out (length r) ← rightGrad(L̂)(g) = →e_i[L̂](g). */
  readonly rightGradL?: ArrowMap;
  /** out (m×r row-major) ← ←e_i[φ^a](g) at `out[a*r + i]`. */
  readonly leftGradPhi?: ArrowMap;
  /** out (m×r row-major) ← →e_i[φ^a](g) at `out[a*r + i]`. */
  readonly rightGradPhi?: ArrowMap;
  /**
   * out ← initial guess for g_{k+1}, which must lie in the α-fibre over β(g_k). Default: the
   * increment of g_k transported to β(g_k) (for the pair groupoid (q1, 2q1 − q0); for a Lie group
   * g_k itself); see {@link DiscreteConstrainedSystem}.
   */
  readonly predictor?: (out: Float64Array, gk: Float64Array) => void;
  /** out ← initial guess for g_k in the β-fibre over α(g_{k+1}). Default: the mirror of `predictor`. */
  readonly predictorBackward?: (out: Float64Array, gk1: Float64Array) => void;
  /** Step of the finite-difference gradients. Default {@link CONSTRAINED_GRADIENT_STEP}. */
  readonly gradientStep?: number;
  /** Step of the central-difference bordered Jacobian. Default depends on the hooks (see the constants). */
  readonly jacobianStep?: number;
  /** Newton reports non-regularity above this condition estimate. Default {@link CONSTRAINED_MAX_CONDITION}. */
  readonly maxCondition?: number;
  /** Relative singular-value threshold of the regularity test. Default {@link CONSTRAINED_REGULARITY_RTOL}. */
  readonly regularityTol?: number;
  /**
   * Discrete Lagrange–d'Alembert forces (module doc, (5f)); the system's input size is then
   * `force.inputSize`. Default none (the unforced equations (5)).
   */
  readonly force?: GroupoidForce;
}

/**
 * The times and inputs of the two arrows of a forced step g_k, g_{k+1} (ignored by an unforced
 * system): g_{k+1} is held on [t, t + h] with input `u`, g_k on [t − h, t] with input `uPrev`
 * (h = the force's). The same in both directions: a forward step solves for g_{k+1}, a backward
 * step for g_k.
 */
export interface StepForcing {
  /** Start time t of the interval of g_{k+1}. Default 0. */
  readonly t?: number;
  /** Input held on g_{k+1} (length `inputSize`). Default 0. */
  readonly u?: ArrayLike<number>;
  /** Input held on g_k (length `inputSize`). Default 0. */
  readonly uPrev?: ArrayLike<number>;
}

/** Options of one step / Legendre inversion (and, for a forced system, its times and inputs). */
export interface StepOptions extends StepForcing {
  /**
   * Converged when ‖residual‖∞ ≤ tol. Default 1e-12 when all gradient hooks are analytic, 1e-10
   * otherwise (the round-off floor of the finite-difference gradients is ≈ 1e-13·|L̂|).
   */
  readonly tol?: number;
  /** Maximum number of Newton iterations. Default 20. */
  readonly maxIterations?: number;
  /** Initial guess for the unknown arrow (must lie in the right fibre). Default: the predictor. */
  readonly guess?: Float64Array;
  /** Initial guess for the unknown multipliers. Default: the known multipliers (zeros for the Hamiltonian map). */
  readonly lambdaGuess?: ArrayLike<number>;
  /**
   * Also converged when a Newton update satisfies ‖Δ‖∞ ≤ stepTol·max(1, ‖g‖∞, ‖λ‖∞) (the solution
   * is then fixed to working precision). Default 4ε; 0 disables it.
   */
  readonly stepTol?: number;
  /** Integrator step index copied into thrown errors. */
  readonly step?: number;
}

/** Outcome of a step: the solver's own buffers, overwritten by the next call of the same method. */
export interface StepResult {
  /** The solved arrow (g_{k+1} forward, g_k backward). */
  readonly g: Float64Array;
  /** Its multipliers λ (length m). */
  readonly lambda: Float64Array;
  /** Newton iterations (Jacobian factorizations) used. */
  readonly iterations: number;
  /** ‖residual‖∞ at the returned point. */
  readonly residualNorm: number;
  /** 1-norm condition estimate of the last bordered Jacobian factorized. */
  readonly condition: number;
}

/** Outcome of {@link DiscreteConstrainedSystem.hamiltonianMap}. */
export interface HamiltonianMapResult extends StepResult {
  /** F⁺L(g, λ), written into the caller's `out`. */
  readonly image: AStar;
}

/** Outcome of {@link DiscreteConstrainedSystem.isRegularAt}. */
export interface RegularityReport {
  /** Both bordered Jacobians have full rank (Def 3.5, locally). */
  readonly regular: boolean;
  readonly sigmaMinForward: number;
  readonly sigmaMinBackward: number;
  readonly sigmaMaxForward: number;
  readonly sigmaMaxBackward: number;
  /** dim ker T(F⁻L|Σ_L): singular values ≤ tol·σ_max of the forward bordered Jacobian. */
  readonly nullityForward: number;
  /** dim ker T(F⁺L|Σ_L) (Remark 2.17: equal to `nullityForward`). */
  readonly nullityBackward: number;
}

/** Outcome of {@link DiscreteConstrainedSystem.checkNoetherSymmetry} (conditions (a), (b) of spec 003 §6). */
export interface NoetherSymmetryCheck {
  /** (a): max over samples and a of |(←X − →X)[φ^a]|. */
  readonly tangency: number;
  /** (b): max over samples of |(←X − →X)[L̂] − f(α(g)) + f(β(g))|. */
  readonly lagrangian: number;
  /** max of the two. */
  readonly maxViolation: number;
  /** max |φ(g)| over the samples: the conditions only need hold on N. */
  readonly offConstraint: number;
}

/** Which of the two bordered systems of §5.2. */
export type StepDirection = 'forward' | 'backward';

// NonRegularSystemError and NewtonDivergedError are core's (one error registry); re-exported by
// this package's index for compatibility.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Scratch of {@link DiscreteConstrainedSystem.forwardStepDerivatives}. */
interface ConstrainedDerivativeScratch {
  readonly Jf: Float64Array;
  readonly Jy: Float64Array;
  readonly lu: DenseLU;
  readonly ep: Float64Array;
  readonly em: Float64Array;
  readonly col: Float64Array;
  readonly dv: Float64Array;
  readonly arrow: Float64Array;
  readonly uu: Float64Array;
  readonly lk: Float64Array;
  readonly l1: Float64Array;
  readonly gp: Float64Array;
  readonly rows: Int32Array;
  readonly basis: Float64Array;
  readonly w: Float64Array;
}

/** Shared default of the step options (a fresh `{}` per call would allocate). */
const NO_OPTIONS: StepOptions = Object.freeze({});
type Side = 'left' | 'right';

/**
 * A discrete constrained Lagrangian system (G, N = {φ = 0}, L̂) on a Lie groupoid, with its
 * Legendre transforms, constrained DEL residual, forward/backward steps, regularity test,
 * Hamiltonian map, Noether charges and the objects of the variational principle (spec 003 §5.2,
 * §6, §7, §11.3).
 *
 * Gradients come from the analytic hooks of the spec when given, else from fourth-order central
 * differences along `leftRetract` / `rightRetract`. The bordered Newton Jacobian takes exact
 * multiplier columns and constraint rows (the gradients of φ at the current iterate: Newton is
 * re-centred after every iteration, g ← retract(g, Δv), so the fibre coordinates are always 0 at
 * the Jacobian) and central differences of the gradients for the r×r block.
 *
 * The default predictor transports the increment of g_k: it solves leftField(ε(α(g_k)))·v ≈
 * chartInverse(ε(α(g_k)), g_k) in the least-squares sense and returns leftRetract(ε(β(g_k)), v);
 * for the pair groupoid this is exactly (q1, 2q1 − q0), for a Lie group ≈ g_k.
 *
 * @example
 * ```ts
 * // S1: L = (q1 − q0)²/(2h) − (h/2)(V(q0) + V(q1)), V = q²/2: the DEL are Störmer–Verlet.
 * const h = 0.1;
 * const sys = new DiscreteConstrainedSystem({
 *   groupoid: new PairGroupoid(1),
 *   m: 0,
 *   Lhat: (g) => (g[1]! - g[0]!) ** 2 / (2 * h) - (h / 4) * (g[0]! ** 2 + g[1]! ** 2),
 *   phi: () => {},
 * });
 * const { g } = sys.stepForward(Float64Array.of(1, 0.99), new Float64Array(0));
 * // g = [0.99, q2] with q2 the Störmer–Verlet update
 * ```
 */
export class DiscreteConstrainedSystem {
  readonly groupoid: LieGroupoid;
  /** Number of constraints. */
  readonly m: number;
  /** rank r of AG. */
  readonly r: number;
  /** Size r + m of the bordered systems. */
  readonly size: number;
  /** True when all four gradient hooks are analytic. */
  readonly analyticGradients: boolean;
  readonly gradientStep: number;
  readonly jacobianStep: number;
  readonly maxCondition: number;
  readonly regularityTol: number;
  /** The discrete forces (module doc, (5f)), when forced. */
  readonly force: GroupoidForce | undefined;
  /** Input size of the force (0 when unforced). */
  readonly inputSize: number;

  private readonly spec: ConstrainedSystemSpec;
  // forcing: f_d^± scratch, the inputs of g_{k+1} and g_k, and the time and input of the arrow
  // being solved (read by the residual and the Jacobian); t in a typed slot (no boxed double)
  private readonly fBuf: Float64Array;
  private readonly uNext: Float64Array;
  private readonly uPrev: Float64Array;
  private readonly tSolve: Float64Array;
  private uSolve: Float64Array;
  // gradient scratch
  private readonly fdV: Float64Array;
  private readonly fdK: Float64Array;
  private readonly fdP1: Float64Array;
  private readonly fdM1: Float64Array;
  private readonly fdP2: Float64Array;
  private readonly fdM2: Float64Array;
  private readonly gradPhiBuf: Float64Array;
  private readonly phiBuf: Float64Array;
  // Newton workspace: core's NewtonSolver on (fibre coordinates, multipliers), one per direction
  // (rebuilt when a step asks for another maxIterations or stepTol)
  private forwardSolver: NewtonSolver | undefined;
  private backwardSolver: NewtonSolver | undefined;
  private readonly forwardF: ResidualFunction;
  private readonly forwardJ: JacobianFunction;
  private readonly backwardF: ResidualFunction;
  private readonly backwardJ: JacobianFunction;
  /** Regularity check at a guess that already solves the step (no Newton iteration). */
  private readonly lu: DenseLU;
  private readonly centre: Float64Array;
  private readonly centreTmp: Float64Array;
  private readonly mu: Float64Array;
  private readonly jac: Float64Array;
  private readonly x0: Float64Array;
  private readonly target: Float64Array;
  private readonly jv: Float64Array;
  private readonly jk: Float64Array;
  private readonly jgp: Float64Array;
  private readonly jgm: Float64Array;
  private readonly jphi: Float64Array;
  // Legendre / residual scratch
  private readonly aPlus: Mutable<AStar>;
  private readonly aMinus: Mutable<AStar>;
  // predictor workspace
  private readonly prQ: Float64Array;
  private readonly prE: Float64Array;
  private readonly prX: Float64Array;
  private readonly prM: Float64Array;
  private readonly prField: Float64Array;
  private readonly prNormal: Float64Array;
  private readonly prRhs: Float64Array;
  private readonly prLU: DenseLU;
  // results
  private readonly forwardResult: Mutable<StepResult>;
  private readonly backwardResult: Mutable<StepResult>;
  private readonly hamiltonResult: Mutable<HamiltonianMapResult>;
  /** Scratch of {@link forwardStepDerivatives}, allocated on its first call. */
  private derivScratch: ConstrainedDerivativeScratch | undefined;

  constructor(spec: ConstrainedSystemSpec) {
    const G = spec.groupoid;
    if (!Number.isInteger(spec.m) || spec.m < 0)
      throw new DimensionError(
        'DiscreteConstrainedSystem: number of constraints m',
        '>= 0',
        spec.m,
      );
    if (!Number.isInteger(G.rank) || G.rank < 1)
      throw new DimensionError('DiscreteConstrainedSystem: algebroid rank', '>= 1', G.rank);
    if (typeof spec.Lhat !== 'function' || typeof spec.phi !== 'function')
      throw new DomainError('DiscreteConstrainedSystem: Lhat, phi', 'missing', 'must be functions');
    this.spec = spec;
    this.groupoid = G;
    this.m = spec.m;
    this.r = G.rank;
    this.size = this.r + this.m;
    this.analyticGradients =
      spec.leftGradL !== undefined &&
      spec.rightGradL !== undefined &&
      (this.m === 0 || (spec.leftGradPhi !== undefined && spec.rightGradPhi !== undefined));
    this.gradientStep = positive('gradientStep', spec.gradientStep ?? CONSTRAINED_GRADIENT_STEP);
    this.jacobianStep = positive(
      'jacobianStep',
      spec.jacobianStep ??
        (this.analyticGradients
          ? CONSTRAINED_JACOBIAN_STEP_ANALYTIC
          : CONSTRAINED_JACOBIAN_STEP_FD),
    );
    this.maxCondition = positive('maxCondition', spec.maxCondition ?? CONSTRAINED_MAX_CONDITION);
    this.regularityTol = positive(
      'regularityTol',
      spec.regularityTol ?? CONSTRAINED_REGULARITY_RTOL,
    );

    const { r, m, size } = this;
    const A = G.arrowDim;
    this.fdV = new Float64Array(r);
    this.fdK = new Float64Array(A);
    const w = Math.max(1, m);
    this.fdP1 = new Float64Array(w);
    this.fdM1 = new Float64Array(w);
    this.fdP2 = new Float64Array(w);
    this.fdM2 = new Float64Array(w);
    this.gradPhiBuf = new Float64Array(m * r);
    this.phiBuf = new Float64Array(m);
    const force = spec.force;
    if (force !== undefined) {
      if (!Number.isInteger(force.inputSize) || force.inputSize < 0)
        throw new DimensionError(
          'DiscreteConstrainedSystem: force.inputSize',
          '>= 0',
          force.inputSize,
        );
      if (!(Number.isFinite(force.h) && force.h > 0))
        throw new DomainError(
          'DiscreteConstrainedSystem: force.h',
          force.h,
          'must be positive and finite',
        );
      if (typeof force.minus !== 'function' || typeof force.plus !== 'function')
        throw new DomainError(
          'DiscreteConstrainedSystem: force.minus, force.plus',
          'missing',
          'must be functions',
        );
    }
    this.force = force;
    this.inputSize = force?.inputSize ?? 0;
    this.fBuf = new Float64Array(r);
    this.uNext = new Float64Array(this.inputSize);
    this.uPrev = new Float64Array(this.inputSize);
    this.tSolve = new Float64Array(1);
    this.uSolve = this.uNext;

    this.lu = new DenseLU(size);
    this.centre = new Float64Array(A);
    this.centreTmp = new Float64Array(A);
    this.mu = new Float64Array(m);
    this.jac = new Float64Array(size * size);
    this.x0 = new Float64Array(A + m);
    this.target = new Float64Array(r);
    this.jv = new Float64Array(r);
    this.jk = new Float64Array(A);
    this.jgp = new Float64Array(r);
    this.jgm = new Float64Array(r);
    this.jphi = new Float64Array(m * r);
    this.forwardF = (out, x) => this.residual('forward', out, this.unpack(x), this.mu);
    this.backwardF = (out, x) => this.residual('backward', out, this.unpack(x), this.mu);
    this.forwardJ = (out, x) => this.jacobian('forward', out, this.unpack(x), this.mu);
    this.backwardJ = (out, x) => this.jacobian('backward', out, this.unpack(x), this.mu);

    this.aPlus = { base: new Float64Array(G.baseDim), p: new Float64Array(r) };
    this.aMinus = { base: new Float64Array(G.baseDim), p: new Float64Array(r) };

    this.prQ = new Float64Array(G.baseDim);
    this.prE = new Float64Array(A);
    this.prX = new Float64Array(G.dim);
    this.prM = new Float64Array(G.dim * r);
    this.prField = new Float64Array(G.dim);
    this.prNormal = new Float64Array(r * r);
    this.prRhs = new Float64Array(r);
    this.prLU = new DenseLU(r);

    const result = (): Mutable<StepResult> => ({
      g: new Float64Array(A),
      lambda: new Float64Array(m),
      iterations: 0,
      residualNorm: Number.NaN,
      condition: Number.NaN,
    });
    this.forwardResult = result();
    this.backwardResult = result();
    this.hamiltonResult = {
      ...result(),
      image: { base: new Float64Array(G.baseDim), p: new Float64Array(r) },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // trivialized gradients (spec 003 §2)

  /**
   * out (length r) ← leftGrad(L̂)(g) = ←e_i[L̂](g) (spec 003 §2; hook or fourth-order differences).
   * Allocation-free.
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * sys.leftGradL(new Float64Array(sys.r), g); // pair groupoid: ∂L̂/∂q1
   * ```
   */
  leftGradL(out: Float64Array, g: Float64Array): Float64Array {
    this.checkArrow('leftGradL', g);
    this.gradL('left', out, g);
    return out;
  }

  /**
   * out (length r) ← rightGrad(L̂)(g) = →e_i[L̂](g) (spec 003 §2, eq. (2)). Allocation-free.
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * sys.rightGradL(new Float64Array(sys.r), g); // pair groupoid: −∂L̂/∂q0
   * ```
   */
  rightGradL(out: Float64Array, g: Float64Array): Float64Array {
    this.checkArrow('rightGradL', g);
    this.gradL('right', out, g);
    return out;
  }

  /**
   * out (m×r row-major) ← ←e_i[φ^a](g) (spec 003 §2, §5.2). Allocation-free.
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * sys.leftGradPhi(new Float64Array(sys.m * sys.r), g);
   * ```
   */
  leftGradPhi(out: Float64Array, g: Float64Array): Float64Array {
    this.checkArrow('leftGradPhi', g);
    this.gradPhi('left', out, g);
    return out;
  }

  /**
   * out (m×r row-major) ← →e_i[φ^a](g) (spec 003 §2, §5.2). Allocation-free.
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * sys.rightGradPhi(new Float64Array(sys.m * sys.r), g);
   * ```
   */
  rightGradPhi(out: Float64Array, g: Float64Array): Float64Array {
    this.checkArrow('rightGradPhi', g);
    this.gradPhi('right', out, g);
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Legendre transforms and the DEL residual (spec 003 §5.2)

  /**
   * F⁻L(g, λ) = α̃(d(L̂ + λ_aφ^a)(g)) = (α(g), rightGrad(L̂)(g) + Σ_a λ_a rightGrad(φ^a)(g))
   * (spec 003 §5.2, eq. (4)). Writes `out.base` (length baseDim) and `out.p` (length r). A forced
   * system subtracts f_d⁻(g; t, u) of the arrow g held on [t, t + h] with input u (`forcing.t`,
   * `forcing.u`; module doc (5f)).
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const lambda = new Float64Array(0); // m = 0
   * // pair groupoid: F⁻L(q0, q1) = (q0, −∂0 L(q0, q1))
   * sys.legendreMinus({ base: new Float64Array(1), p: new Float64Array(1) }, g, lambda);
   * ```
   */
  legendreMinus(
    out: AStar,
    g: Float64Array,
    lambda: ArrayLike<number>,
    forcing: StepForcing = NO_OPTIONS,
  ): AStar {
    this.checkArrow('legendreMinus', g);
    this.checkLambda('legendreMinus', lambda);
    this.checkAStar('legendreMinus', out);
    this.groupoid.source(out.base, g);
    this.gradF('right', out.p, g, lambda);
    if (this.force !== undefined) {
      const t = this.setForcing('legendreMinus', forcing);
      this.addForce('right', out.p, g, t, this.uNext);
    }
    return out;
  }

  /**
   * F⁺L(g, λ) = β̃(d(L̂ + λ_aφ^a)(g)) = (β(g), leftGrad(L̂)(g) + Σ_a λ_a leftGrad(φ^a)(g))
   * (spec 003 §5.2, eq. (4)); a forced system adds f_d⁺(g; t, u) (`forcing.t`, `forcing.u`, (5f)).
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const lambda = new Float64Array(0); // m = 0
   * // pair groupoid: F⁺L(q0, q1) = (q1, ∂1 L(q0, q1))
   * sys.legendrePlus({ base: new Float64Array(1), p: new Float64Array(1) }, g, lambda);
   * ```
   */
  legendrePlus(
    out: AStar,
    g: Float64Array,
    lambda: ArrayLike<number>,
    forcing: StepForcing = NO_OPTIONS,
  ): AStar {
    this.checkArrow('legendrePlus', g);
    this.checkLambda('legendrePlus', lambda);
    this.checkAStar('legendrePlus', out);
    this.groupoid.target(out.base, g);
    this.gradF('left', out.p, g, lambda);
    if (this.force !== undefined) {
      const t = this.setForcing('legendrePlus', forcing);
      this.addForce('left', out.p, g, t, this.uNext);
    }
    return out;
  }

  /**
   * out (length r + m) ← [F⁺L(g_k, λ_k).p − F⁻L(g_{k+1}, λ_{k+1}).p ; φ(g_{k+1})], the residual of
   * the constrained DEL (5) in the multiplier form of spec 003 §5.2 (forced: of (5f), with the
   * times and inputs of `forcing`). Allocation-free.
   *
   * @throws NotComposableError when β(g_k) ≠ α(g_{k+1}).
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const gk = Float64Array.of(1, 0.99);
   * const lk = new Float64Array(0);
   * const { g: gk1, lambda: lk1 } = sys.stepForward(gk, lk);
   * const res = sys.delResidual(new Float64Array(sys.size), gk, lk, gk1, lk1); // ≈ 0 on a solution
   * ```
   */
  delResidual(
    out: Float64Array,
    gk: Float64Array,
    lambdaK: ArrayLike<number>,
    gk1: Float64Array,
    lambdaK1: ArrayLike<number>,
    forcing: StepForcing = NO_OPTIONS,
  ): Float64Array {
    if (out.length < this.size) throw new DimensionError('delResidual: out', this.size, out.length);
    this.checkArrow('delResidual: g_k', gk);
    this.checkArrow('delResidual: g_{k+1}', gk1);
    this.checkLambda('delResidual: lambda_k', lambdaK);
    this.checkLambda('delResidual: lambda_{k+1}', lambdaK1);
    this.checkComposable(gk, gk1);
    const { r, m, aPlus, aMinus } = this;
    this.gradF('left', aPlus.p, gk, lambdaK);
    this.gradF('right', aMinus.p, gk1, lambdaK1);
    const force = this.force;
    if (force !== undefined) {
      const t = this.setForcing('delResidual', forcing);
      this.addForce('left', aPlus.p, gk, t - force.h, this.uPrev);
      this.addForce('right', aMinus.p, gk1, t, this.uNext);
    }
    for (let i = 0; i < r; i++) out[i] = aPlus.p[i]! - aMinus.p[i]!;
    if (m > 0) {
      this.spec.phi(this.phiBuf, gk1);
      for (let a = 0; a < m; a++) out[r + a] = this.phiBuf[a]!;
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // steps

  /**
   * One forward step of the constrained DEL (spec 003 §5.2): given (g_k, λ_k), solves
   * rightGrad(L̂ + λ_{k+1}φ)(g_{k+1}) = leftGrad(L̂ + λ_kφ)(g_k), φ(g_{k+1}) = 0 for g_{k+1} in the
   * α-fibre over β(g_k) and λ_{k+1}, by Newton's method in (v, λ_{k+1}) with
   * g_{k+1} = leftRetract(centre, v), re-centred after every iteration. Allocation-free.
   *
   * @returns the system's forward result object (overwritten by the next forward step).
   * @throws NonRegularSystemError when the bordered Jacobian is singular (condition estimate ≥
   *   `maxCondition`), with its smallest singular value.
   * @throws NewtonDivergedError (`what`: `'forward step'`/`'backward step'`) with the residual history when
   *   Newton does not converge in `maxIterations` or produces non-finite values.
   * @throws NotComposableError when the guess is not in the α-fibre over β(g_k).
   * @example
   * ```ts
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const gk = Float64Array.of(1, 0.99);
   * const lambdaK = new Float64Array(0);
   * const { g, lambda, iterations } = sys.stepForward(gk, lambdaK, { tol: 1e-12 });
   * ```
   */
  stepForward(
    gk: Float64Array,
    lambdaK: ArrayLike<number>,
    options: StepOptions = NO_OPTIONS,
  ): StepResult {
    this.checkArrow('stepForward: g_k', gk);
    this.checkLambda('stepForward: lambda_k', lambdaK);
    this.gradF('left', this.target, gk, lambdaK);
    const force = this.force;
    if (force !== undefined) {
      // (5f): the target F⁺L_f(g_k, λ_k) and the solve of g_{k+1} on [t, t + h] with u
      const t = this.setForcing('stepForward', options);
      this.addForce('left', this.target, gk, t - force.h, this.uPrev);
      this.tSolve[0] = t;
      this.uSolve = this.uNext;
    }
    const c0 = this.centreTmp;
    if (options.guess !== undefined) {
      this.checkArrow('stepForward: guess', options.guess);
      c0.set(options.guess);
    } else if (this.spec.predictor !== undefined) this.spec.predictor(c0, gk);
    else this.defaultPredictor('forward', c0, gk);
    this.checkComposable(gk, c0);
    return this.solve('forward', c0, options.lambdaGuess ?? lambdaK, options, this.forwardResult);
  }

  /**
   * One backward step (spec 003 §5.2, Theorem 2.16): given (g_{k+1}, λ_{k+1}), solves
   * leftGrad(L̂ + λ_kφ)(g_k) = rightGrad(L̂ + λ_{k+1}φ)(g_{k+1}), φ(g_k) = 0 for g_k in the β-fibre
   * over α(g_{k+1}) (through `rightRetract`) and λ_k. Same solver and errors as
   * {@link stepForward}. Allocation-free.
   *
   * @example
   * ```ts
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const { g: gk1, lambda: lambdaK1 } = sys.stepForward(Float64Array.of(1, 0.99), new Float64Array(0));
   * const back = sys.stepBackward(gk1, lambdaK1); // recovers (g_k, λ_k)
   * ```
   */
  stepBackward(
    gk1: Float64Array,
    lambdaK1: ArrayLike<number>,
    options: StepOptions = NO_OPTIONS,
  ): StepResult {
    this.checkArrow('stepBackward: g_{k+1}', gk1);
    this.checkLambda('stepBackward: lambda_{k+1}', lambdaK1);
    this.gradF('right', this.target, gk1, lambdaK1);
    const force = this.force;
    if (force !== undefined) {
      // (5f): the target F⁻L_f(g_{k+1}, λ_{k+1}) and the solve of g_k on [t − h, t] with uPrev
      const t = this.setForcing('stepBackward', options);
      this.addForce('right', this.target, gk1, t, this.uNext);
      this.tSolve[0] = t - force.h;
      this.uSolve = this.uPrev;
    }
    const c0 = this.centreTmp;
    if (options.guess !== undefined) {
      this.checkArrow('stepBackward: guess', options.guess);
      c0.set(options.guess);
    } else if (this.spec.predictorBackward !== undefined) this.spec.predictorBackward(c0, gk1);
    else this.defaultPredictor('backward', c0, gk1);
    this.checkComposable(c0, gk1);
    return this.solve(
      'backward',
      c0,
      options.lambdaGuess ?? lambdaK1,
      options,
      this.backwardResult,
    );
  }

  /**
   * The discrete Hamiltonian map F⁺L ∘ (F⁻L)⁻¹ on A*G (spec 003 §4, §5, Def 3.5): solves
   * F⁻L(g, λ) = ν with φ(g) = 0 for g in the α-fibre over ν.base (from `guess`) and λ, then
   * writes F⁺L(g, λ) into `out`. A local Poisson automorphism where the system is regular. A
   * forced system uses the forced transforms (5f) of the arrow g held on [t, t + h] with input u
   * (`options.t`, `options.u`).
   *
   * @param guess - an arrow with α(guess) = ν.base.
   * @returns the system's Hamiltonian-map result object (`image` is `out`).
   * @example
   * ```ts
   * const h = 0.1;
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const q = 1;
   * const p = -0.1;
   * // pair groupoid on R: (q, p) ↦ (q', p')
   * const out = { base: new Float64Array(1), p: new Float64Array(1) };
   * sys.hamiltonianMap(out, { base: Float64Array.of(q), p: Float64Array.of(p) }, Float64Array.of(q, q + h * p));
   * ```
   */
  hamiltonianMap(
    out: AStar,
    nu: AStar,
    guess: Float64Array,
    options: StepOptions = NO_OPTIONS,
  ): HamiltonianMapResult {
    this.checkAStar('hamiltonianMap: out', out);
    this.checkAStar('hamiltonianMap: nu', nu);
    this.checkArrow('hamiltonianMap: guess', guess);
    const G = this.groupoid;
    G.source(this.prQ, guess);
    let gap = 0;
    let scale = 1;
    for (let i = 0; i < G.baseDim; i++) {
      gap = Math.max(gap, Math.abs(this.prQ[i]! - nu.base[i]!));
      scale = Math.max(scale, Math.abs(nu.base[i]!));
    }
    if (gap > G.composableTol * scale) throw new NotComposableError(gap);
    for (let i = 0; i < this.r; i++) this.target[i] = nu.p[i]!;
    const force = this.force;
    let t = 0;
    if (force !== undefined) {
      t = this.setForcing('hamiltonianMap', options);
      this.tSolve[0] = t;
      this.uSolve = this.uNext;
    }
    const c0 = this.centreTmp;
    c0.set(guess);
    this.mu.fill(0);
    const res = this.hamiltonResult;
    this.solve('forward', c0, options.lambdaGuess ?? this.mu, options, res);
    res.image = out;
    this.groupoid.target(out.base, res.g);
    this.gradF('left', out.p, res.g, res.lambda);
    if (force !== undefined) this.addForce('left', out.p, res.g, t, this.uNext);
    return res;
  }

  /**
   * The derivatives of the forward step (g_k, λ_k) ↦ (g_{k+1}, λ_{k+1}) at a solved pair, by the
   * implicit function theorem (issue 17), in chart coordinates: δg ∈ R^dim of chart(g, δg) for
   * the arrows (for a Lie group the right-⊕ coordinates g·Exp(δg)), λ additive. A step's
   * g_{k+1} lies in the α-fibre over β(g_k), which moves with g_k, so the step's r + m equations
   * (5f) are completed by the dim Q = dim − r composability equations into the square system
   *
   *   E(y; x) = [ leftGrad(F_{λ_k})(g_k) + f_d⁺(g_k) − rightGrad(F_{λ_{k+1}})(g_{k+1}) + f_d⁻(g_{k+1}) ;
   *               φ(g_{k+1}) ;  α(g_{k+1}) − β(g_k) in a chart of Q ] = 0
   *
   * (the chart: all baseDim coordinates for a Euclidean base; for a base stored redundantly, such
   * as a rotation matrix, the dim Q coordinates with independent differentials at α(g_{k+1}))
   * in y = (δg_{k+1}, λ_{k+1}) (dim + m unknowns) with x = (δg_k, λ_k, u_{k−1}) and u_k, f_d⁺ of
   * g_k at (t − h, uPrev), f_d⁻ of g_{k+1} at (t, u) (`forcing`, as {@link stepForward}). Then
   * ∂y/∂(x, u) = −E_y⁻¹ ∂E/∂(x, u). E_y is non-singular exactly when the forward bordered
   * Jacobian is (α is a submersion, constant on α-fibres: in a basis of fibre and transverse
   * directions E_y is block triangular with the bordered matrix as its fibre block). The λ
   * columns are exact (±grad φ); the others are central differences of step `jacobianStep`
   * (the step's own Jacobian step) along the charts and the inputs (step jacobianStep·max(1, |u_j|)).
   *
   * Writes `dy` ((dim + m) × (dim + m + p) row-major, p = `inputSize`, columns (δg_k, λ_k,
   * u_{k−1})) and `du` ((dim + m) × p, columns u_k). Cold path: allocates its scratch on the first
   * call, nothing afterwards.
   *
   * @throws DimensionError for wrong lengths; NotComposableError when β(g_k) ≠ α(g_{k+1});
   *   NonRegularSystemError when E_y is singular (condition estimate ≥ `maxCondition`), with its
   *   singular values.
   * @example
   * ```ts
   * // S1 (Störmer–Verlet for V = q²/2, h = 0.1): q_2 = (2 − h²)q_1 − q_0, rows (q_1, q_2)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} });
   * const gk = Float64Array.of(1, 0.99);
   * const gk1 = sys.stepForward(gk, [], { tol: 1e-14 }).g.slice();
   * const dy = new Float64Array(4);
   * sys.forwardStepDerivatives(dy, new Float64Array(0), gk, [], gk1, []);
   * dy[2]; // ≈ -1
   * dy[3]; // ≈ 1.99
   * ```
   */
  forwardStepDerivatives(
    dy: Float64Array,
    du: Float64Array,
    gk: Float64Array,
    lambdaK: ArrayLike<number>,
    gk1: Float64Array,
    lambdaK1: ArrayLike<number>,
    forcing: StepForcing = NO_OPTIONS,
  ): void {
    const what = 'forwardStepDerivatives';
    this.checkArrow(`${what}: g_k`, gk);
    this.checkArrow(`${what}: g_{k+1}`, gk1);
    this.checkLambda(`${what}: lambda_k`, lambdaK);
    this.checkLambda(`${what}: lambda_{k+1}`, lambdaK1);
    this.checkComposable(gk, gk1);
    const G = this.groupoid;
    const { r, m } = this;
    const D = G.dim;
    const N = D + m;
    const p = this.force === undefined ? 0 : this.inputSize;
    const X = D + m + p;
    if (dy.length !== N * X) throw new DimensionError(`${what}: dy`, N * X, dy.length);
    if (du.length !== N * p) throw new DimensionError(`${what}: du`, N * p, du.length);
    const force = this.force;
    const t = force === undefined ? 0 : this.setForcing(what, forcing);
    const tPrev = force === undefined ? 0 : t - force.h;
    const b = G.baseDim;
    const K = D - r; // dim Q: the composability equations, in a chart of Q (below)
    const M = r + m + b;
    this.derivScratch ??= {
      Jf: new Float64Array(M * N),
      Jy: new Float64Array(N * N),
      lu: new DenseLU(N),
      ep: new Float64Array(M),
      em: new Float64Array(M),
      col: new Float64Array(N),
      dv: new Float64Array(D),
      arrow: new Float64Array(G.arrowDim),
      uu: new Float64Array(p),
      lk: new Float64Array(m),
      l1: new Float64Array(m),
      gp: new Float64Array(m * r),
      rows: new Int32Array(N),
      basis: new Float64Array(K * D),
      w: new Float64Array(D),
    };
    const s = this.derivScratch;
    const { Jf, Jy, lu, ep, em, col, dv, arrow, uu, lk, l1, gp, rows } = s;
    for (let a = 0; a < m; a++) {
      lk[a] = lambdaK[a]!;
      l1[a] = lambdaK1[a]!;
    }
    const uPrev = this.uPrev;
    const uNext = this.uNext;
    const d = this.jacobianStep;
    const inv2d = 1 / (2 * d);
    // ∂E/∂y with all b rows of α(g_{k+1}) − β(g_k): chart columns by central differences, λ_{k+1}
    // columns −rightGrad(φ^a)(g_{k+1})
    dv.fill(0);
    for (let j = 0; j < D; j++) {
      dv[j] = d;
      G.chart(arrow, gk1, dv);
      this.stepEquations(ep, gk, lk, tPrev, uPrev, arrow, l1, t, uNext);
      dv[j] = -d;
      G.chart(arrow, gk1, dv);
      this.stepEquations(em, gk, lk, tPrev, uPrev, arrow, l1, t, uNext);
      dv[j] = 0;
      for (let i = 0; i < M; i++) Jf[i * N + j] = (ep[i]! - em[i]!) * inv2d;
    }
    if (m > 0) this.gradPhi('right', gp, gk1);
    for (let a = 0; a < m; a++)
      for (let i = 0; i < M; i++) Jf[i * N + D + a] = i < r ? -gp[a * r + i]! : 0;
    // the rows of E: all r + m DEL and constraint rows, and K of the b coordinates of α whose
    // differentials along the chart are independent (a chart of Q at α(g_{k+1}) when Q sits in
    // R^b with b > dim Q, e.g. a rotation matrix; all of them for a Euclidean base)
    for (let i = 0; i < r + m; i++) rows[i] = i;
    this.selectBaseRows(rows, Jf, r + m, b, K, N, D);
    for (let i = 0; i < N; i++) {
      const src = rows[i]! * N;
      for (let j = 0; j < N; j++) Jy[i * N + j] = Jf[src + j]!;
    }
    lu.factor(Jy);
    const cond = lu.isSingular ? Number.POSITIVE_INFINITY : lu.conditionEstimate();
    if (!(cond < this.maxCondition)) throw nonRegular('forward', Jy, N, 0, cond, undefined);
    // columns of ∂E/∂(x, u), each solved at once into dy / du
    if (m > 0) this.gradPhi('left', gp, gk);
    for (let c = 0; c < X + p; c++) {
      if (c < D) {
        dv[c] = d;
        G.chart(arrow, gk, dv);
        this.stepEquations(ep, arrow, lk, tPrev, uPrev, gk1, l1, t, uNext);
        dv[c] = -d;
        G.chart(arrow, gk, dv);
        this.stepEquations(em, arrow, lk, tPrev, uPrev, gk1, l1, t, uNext);
        dv[c] = 0;
        for (let i = 0; i < N; i++) col[i] = (ep[rows[i]!]! - em[rows[i]!]!) * inv2d;
      } else if (c < D + m) {
        const a = c - D;
        for (let i = 0; i < N; i++) col[i] = i < r ? gp[a * r + i]! : 0;
      } else {
        // an input: u_{k−1} (columns D + m .. X) or u_k (X .. X + p)
        const prev = c < X;
        const j = prev ? c - D - m : c - X;
        const src = prev ? uPrev : uNext;
        const e = d * Math.max(1, Math.abs(src[j]!));
        uu.set(src);
        uu[j] = src[j]! + e;
        if (prev) this.stepEquations(ep, gk, lk, tPrev, uu, gk1, l1, t, uNext);
        else this.stepEquations(ep, gk, lk, tPrev, uPrev, gk1, l1, t, uu);
        uu[j] = src[j]! - e;
        if (prev) this.stepEquations(em, gk, lk, tPrev, uu, gk1, l1, t, uNext);
        else this.stepEquations(em, gk, lk, tPrev, uPrev, gk1, l1, t, uu);
        const inv = 1 / (2 * e);
        for (let i = 0; i < N; i++) col[i] = (ep[rows[i]!]! - em[rows[i]!]!) * inv;
      }
      lu.solve(col, col);
      if (c < X) for (let i = 0; i < N; i++) dy[i * X + c] = -col[i]!;
      else for (let i = 0; i < N; i++) du[i * p + c - X] = -col[i]!;
    }
  }

  /**
   * rows[at..at + K) ← K of the b rows [first, first + b) of J (stride N, first D columns) with
   * independent chart differentials: greedy modified Gram–Schmidt, each time the row with the
   * largest component orthogonal to those chosen (all b rows, in order, when b = K).
   */
  private selectBaseRows(
    rows: Int32Array,
    J: Float64Array,
    first: number,
    b: number,
    K: number,
    N: number,
    D: number,
  ): void {
    if (b === K) {
      for (let i = 0; i < K; i++) rows[first + i] = first + i;
      return;
    }
    const { basis, w } = this.derivScratch!;
    for (let k = 0; k < K; k++) {
      let best = -1;
      let bestNorm = -1;
      for (let i = 0; i < b; i++) {
        const row = first + i;
        let taken = false;
        for (let l = 0; l < k; l++) if (rows[first + l] === row) taken = true;
        if (taken) continue;
        for (let j = 0; j < D; j++) w[j] = J[row * N + j]!;
        for (let l = 0; l < k; l++) {
          let dot = 0;
          for (let j = 0; j < D; j++) dot += basis[l * D + j]! * w[j]!;
          for (let j = 0; j < D; j++) w[j] = w[j]! - dot * basis[l * D + j]!;
        }
        let nrm = 0;
        for (let j = 0; j < D; j++) nrm += w[j]! * w[j]!;
        if (nrm > bestNorm) {
          bestNorm = nrm;
          best = row;
        }
      }
      rows[first + k] = best;
      for (let j = 0; j < D; j++) w[j] = J[best * N + j]!;
      for (let l = 0; l < k; l++) {
        let dot = 0;
        for (let j = 0; j < D; j++) dot += basis[l * D + j]! * w[j]!;
        for (let j = 0; j < D; j++) w[j] = w[j]! - dot * basis[l * D + j]!;
      }
      const nrm = Math.sqrt(bestNorm) || 1;
      for (let j = 0; j < D; j++) basis[k * D + j] = w[j]! / nrm;
    }
  }

  /**
   * Integrates forward steps from (g_1, λ_1) (spec 003 §12 item 10): core's `integrate` over a
   * {@link ConstrainedStepper}; sample j holds (g_{k+1}, λ_{k+1}) for k = `k[j]`, the first
   * (g_1, λ_1), the last after `steps` steps. Time is a label, t = t0 + k·h (default h = 1: t
   * counts steps; L̂ carries the physical step). Each step is allocation-free.
   *
   * @returns a {@link ConstrainedSolution}: series `g` (count × arrowDim) and `lambda`
   *   (count × m; an empty array when m = 0), Newton statistics in `stats`.
   * @throws NonRegularSystemError, NewtonDivergedError naming the step (unless
   *   `onFailure: 'return'`); DimensionError / DomainError for bad data.
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const g1 = Float64Array.of(1, 0.99);
   * const lambda1 = new Float64Array(0);
   * const sol = sys.integrate(g1, lambda1, { steps: 100 });
   * sol.sample('g', 100); // g_101
   * ```
   */
  integrate(
    g1: Float64Array,
    lambda1: ArrayLike<number>,
    options: ConstrainedIntegrateOptions,
  ): ConstrainedSolution {
    this.checkArrow('integrate: g_1', g1);
    this.checkLambda('integrate: lambda_1', lambda1);
    const stepper = new ConstrainedStepper(this, options);
    const x0 = stepper.initialState(g1, lambda1, options.uPrev);
    const sol = integrate(stepper, x0, {
      steps: options.steps,
      h: options.h ?? this.force?.h ?? 1,
      ...recordingOptions(options),
    });
    return this.m > 0
      ? (sol as ConstrainedSolution)
      : extendSolution(sol, { lambda: new Float64Array(0) });
  }

  // ---------------------------------------------------------------------------------------------
  // regularity (Def 3.5, Theorem 2.16, Remark 2.17)

  /**
   * out ((r+m)×(r+m) row-major) ← the bordered Jacobian of the forward or backward step system at
   * (g, λ) (see the module comment), with respect to (fibre coordinates, multipliers).
   * Allocation-free.
   *
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const lambda = new Float64Array(0); // m = 0
   * const J = sys.borderedJacobian(new Float64Array(sys.size ** 2), 'forward', g, lambda);
   * ```
   */
  borderedJacobian(
    out: Float64Array,
    direction: StepDirection,
    g: Float64Array,
    lambda: ArrayLike<number>,
  ): Float64Array {
    if (out.length < this.size * this.size)
      throw new DimensionError('borderedJacobian: out', this.size * this.size, out.length);
    this.checkArrow('borderedJacobian', g);
    this.checkLambda('borderedJacobian', lambda);
    this.jacobian(direction, out, g, lambda);
    return out;
  }

  /**
   * Regularity of the system at (g, λ) ∈ Σ_L (spec 003 Def 3.5, §5.2 "regularity test"): singular
   * value decompositions of both bordered Jacobians. Their nullities are dim ker T(F∓L|Σ_L), equal
   * by Remark 2.17. Cold path (allocates).
   *
   * @param rtol - singular values ≤ rtol·σ_max count as zero. Default `regularityTol`.
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const lambda = new Float64Array(0); // m = 0
   * const { regular, nullityForward, nullityBackward } = sys.isRegularAt(g, lambda);
   * ```
   */
  isRegularAt(
    g: Float64Array,
    lambda: ArrayLike<number>,
    rtol: number = this.regularityTol,
  ): RegularityReport {
    positive('isRegularAt: rtol', rtol);
    const n = this.size;
    const Jf = this.borderedJacobian(new Float64Array(n * n), 'forward', g, lambda);
    const Jb = this.borderedJacobian(new Float64Array(n * n), 'backward', g, lambda);
    const sf = singularValues(Jf, n, n);
    const sb = singularValues(Jb, n, n);
    const nullity = (s: Float64Array): number => {
      const thr = rtol * (s[0] ?? 0);
      let z = 0;
      for (let i = 0; i < s.length; i++) if (s[i]! <= thr) z++;
      return z;
    };
    const nullityForward = nullity(sf);
    const nullityBackward = nullity(sb);
    return {
      regular: nullityForward === 0 && nullityBackward === 0,
      sigmaMinForward: sf[n - 1]!,
      sigmaMinBackward: sb[n - 1]!,
      sigmaMaxForward: sf[0]!,
      sigmaMaxBackward: sb[0]!,
      nullityForward,
      nullityBackward,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Noether (Def 4.8, Theorem 4.9)

  /**
   * The Noether charge of a section X = Σ Xⁱ e_i of AG with boundary term f (spec 003 Thm 4.9,
   * §6 coordinate form): F_X(g, λ) = Σ_i Xⁱ(β(g)) leftGrad(L̂ + λφ)(g)_i + f(β(g)). Conserved,
   * F_X(g_k, λ_k) = F_X(g_{k+1}, λ_{k+1}), when X is a Noether symmetry (see
   * {@link checkNoetherSymmetry}). The returned function owns its scratch (allocation-free).
   *
   * @param f - boundary term on Q; omit for an invariant Lagrangian (f = 0).
   * @example
   * ```ts
   * // angular momentum about e3 on Pair(R^3): X(q) = e3 × q
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(3), m: 0, Lhat: (g) => ((g[3]! - g[0]!) ** 2 + (g[4]! - g[1]!) ** 2 + (g[5]! - g[2]!) ** 2) / 0.2, phi: () => {} }); // free particle, h = 0.1
   * const Lz = sys.noetherCharge((out, q) => out.set([-q[1]!, q[0]!, 0]));
   * Lz(Float64Array.of(1, 0, 0, 1, 0.1, 0), new Float64Array(0)); // 1: q₁ × p₁ with p₁ = (q₁ − q₀)/h
   * ```
   */
  noetherCharge(
    X: SectionCoefficients,
    f?: BaseFunction,
  ): (g: Float64Array, lambda: ArrayLike<number>) => number {
    const G = this.groupoid;
    const q = new Float64Array(G.baseDim);
    const x = new Float64Array(this.r);
    const p = new Float64Array(this.r);
    return (g, lambda) => {
      this.checkArrow('noetherCharge', g);
      this.checkLambda('noetherCharge', lambda);
      G.target(q, g);
      X(x, q);
      this.gradF('left', p, g, lambda);
      let s = f === undefined ? 0 : f(q);
      for (let i = 0; i < this.r; i++) s += x[i]! * p[i]!;
      return s;
    };
  }

  /**
   * Maximum violation over `samples` (arrows on N) of the Noether-symmetry conditions of spec 003
   * §6 (Def 4.8 required for every λ):
   * (a) (←X − →X)[φ^a] = Σ Xⁱ(β) ←e_i[φ^a] − Σ Xⁱ(α) →e_i[φ^a] = 0,
   * (b) (←X − →X)[L̂] = f(α(g)) − f(β(g)). Cold path.
   *
   * @example
   * ```ts
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(3), m: 0, Lhat: (g) => ((g[3]! - g[0]!) ** 2 + (g[4]! - g[1]!) ** 2 + (g[5]! - g[2]!) ** 2) / 0.2, phi: () => {} }); // free particle, h = 0.1
   * const samples = [Float64Array.of(1, 0, 0, 0.9, 0.1, 0), Float64Array.of(0, 2, 1, 0.1, 1.9, 1)];
   * sys.checkNoetherSymmetry((out, q) => out.set([-q[1]!, q[0]!, 0]), undefined, samples).maxViolation; // ≈ 0
   * ```
   */
  checkNoetherSymmetry(
    X: SectionCoefficients,
    f: BaseFunction | undefined,
    samples: readonly Float64Array[],
  ): NoetherSymmetryCheck {
    const G = this.groupoid;
    const { r, m } = this;
    const qa = new Float64Array(G.baseDim);
    const qb = new Float64Array(G.baseDim);
    const xa = new Float64Array(r);
    const xb = new Float64Array(r);
    const lL = new Float64Array(r);
    const rL = new Float64Array(r);
    const lP = new Float64Array(m * r);
    const rP = new Float64Array(m * r);
    const ph = new Float64Array(m);
    let tangency = 0;
    let lagrangian = 0;
    let offConstraint = 0;
    for (const g of samples) {
      this.checkArrow('checkNoetherSymmetry: sample', g);
      G.source(qa, g);
      G.target(qb, g);
      X(xa, qa);
      X(xb, qb);
      this.gradL('left', lL, g);
      this.gradL('right', rL, g);
      let b = f === undefined ? 0 : f(qb) - f(qa);
      for (let i = 0; i < r; i++) b += xb[i]! * lL[i]! - xa[i]! * rL[i]!;
      lagrangian = Math.max(lagrangian, Math.abs(b));
      if (m > 0) {
        this.gradPhi('left', lP, g);
        this.gradPhi('right', rP, g);
        this.spec.phi(ph, g);
        for (let a = 0; a < m; a++) {
          let t = 0;
          for (let i = 0; i < r; i++) t += xb[i]! * lP[a * r + i]! - xa[i]! * rP[a * r + i]!;
          tangency = Math.max(tangency, Math.abs(t));
          offConstraint = Math.max(offConstraint, Math.abs(ph[a]!));
        }
      }
    }
    return {
      tangency,
      lagrangian,
      maxViolation: Math.max(tangency, lagrangian),
      offConstraint,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // variational principle (Section 5)

  /**
   * The discrete action Σ_k L̂(g_k) of a composable sequence (spec 003 §7, Remark 2.14).
   *
   * @throws NotComposableError when consecutive arrows are not composable.
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const g1 = Float64Array.of(1, 0.99);
   * const g2 = sys.stepForward(g1, new Float64Array(0)).g.slice(); // a copy: the result is overwritten by the next step
   * const g3 = sys.stepForward(g2, new Float64Array(0)).g.slice();
   * sys.actionSum([g1, g2, g3]);
   * ```
   */
  actionSum(trajectory: readonly Float64Array[]): number {
    let s = 0;
    for (let k = 0; k < trajectory.length; k++) {
      const g = trajectory[k]!;
      this.checkArrow('actionSum', g);
      if (k > 0) this.checkComposable(trajectory[k - 1]!, g);
      s += this.spec.Lhat(g);
    }
    return s;
  }

  /**
   * A basis of the admissible variations (A_qG)_{(N,g1,g2)} = { v ∈ A_qG : ←v(g1) ∈ T_{g1}N,
   * →v(g2) ∈ T_{g2}N } (spec 003 §7, Theorem 5.1), q = β(g1) = α(g2): the null space of the
   * 2m×r matrix [←e_j[φ^a](g1) ; →e_j[φ^a](g2)]. The variation of (g1, g2) is (←v(g1), −→v(g2)),
   * e.g. (leftRetract(g1, sv), rightRetract(g2, −sv)). Cold path.
   *
   * @returns an orthonormal basis as the columns of an r×d row-major matrix.
   * @example
   * ```ts
   * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
   * const g1 = Float64Array.of(1, 0.99);
   * const g2 = sys.stepForward(g1, new Float64Array(0)).g.slice(); // a copy: the result is overwritten by the next step
   * const { basis, d } = sys.admissibleVariations(g1, g2);
   * ```
   */
  admissibleVariations(g1: Float64Array, g2: Float64Array, tol?: number): SubspaceBasis {
    this.checkArrow('admissibleVariations: g1', g1);
    this.checkArrow('admissibleVariations: g2', g2);
    this.checkComposable(g1, g2);
    const { r, m } = this;
    const A = new Float64Array(2 * m * r);
    const lP = new Float64Array(m * r);
    const rP = new Float64Array(m * r);
    this.gradPhi('left', lP, g1);
    this.gradPhi('right', rP, g2);
    A.set(lP, 0);
    A.set(rP, m * r);
    return nullSpace(A, 2 * m, r, tol);
  }

  // ---------------------------------------------------------------------------------------------
  // internals

  /** out (r) ← grad(L̂) on one side; hook or fourth-order differences. */
  private gradL(side: Side, out: Float64Array, g: Float64Array): void {
    const hook = side === 'left' ? this.spec.leftGradL : this.spec.rightGradL;
    if (hook !== undefined) hook(out, g);
    else this.fdGradient(side, out, g, 1, true);
  }

  /** out (m×r) ← grad(φ) on one side. */
  private gradPhi(side: Side, out: Float64Array, g: Float64Array): void {
    if (this.m === 0) return;
    const hook = side === 'left' ? this.spec.leftGradPhi : this.spec.rightGradPhi;
    if (hook !== undefined) hook(out, g);
    else this.fdGradient(side, out, g, this.m, false);
  }

  /** out (r) ← grad(L̂ + λ_aφ^a) on one side. */
  private gradF(side: Side, out: Float64Array, g: Float64Array, lambda: ArrayLike<number>): void {
    const { r, m } = this;
    this.gradL(side, out, g);
    if (m === 0) return;
    const gp = this.gradPhiBuf;
    this.gradPhi(side, gp, g);
    for (let a = 0; a < m; a++) {
      const la = lambda[a]!;
      if (la === 0) continue;
      for (let i = 0; i < r; i++) out[i] = out[i]! + la * gp[a * r + i]!;
    }
  }

  /**
   * out (r) ← the forced momentum of the arrow being solved (time `tSolve`, input `uSolve`):
   * 'right' rightGrad(F_λ)(g) − f_d⁻(g), 'left' leftGrad(F_λ)(g) + f_d⁺(g) ((5f); unforced: grad(F_λ)).
   */
  private momentumSolved(
    side: Side,
    out: Float64Array,
    g: Float64Array,
    lambda: ArrayLike<number>,
  ): void {
    this.gradF(side, out, g, lambda);
    if (this.force !== undefined) this.addForce(side, out, g, this.tSolve[0]!, this.uSolve);
  }

  /** out (r) −= f_d⁻(g; t, u) ('right', at α(g)) or += f_d⁺(g; t, u) ('left', at β(g)). */
  private addForce(side: Side, out: Float64Array, g: Float64Array, t: number, u: Float64Array) {
    const force = this.force!;
    const f = this.fBuf;
    const r = this.r;
    if (side === 'right') {
      force.minus(f, g, t, u);
      for (let i = 0; i < r; i++) out[i] = out[i]! - f[i]!;
    } else {
      force.plus(f, g, t, u);
      for (let i = 0; i < r; i++) out[i] = out[i]! + f[i]!;
    }
  }

  /**
   * Reads the times and inputs of a forced step (StepForcing) into `uNext`, `uPrev`; returns t.
   * @throws DomainError for a non-finite t, DimensionError / DomainError for a bad input.
   */
  private setForcing(what: string, forcing: StepForcing): number {
    const t = forcing.t ?? 0;
    if (!Number.isFinite(t)) throw new DomainError(`${what}: t`, t, 'must be finite');
    readInput(`${what}: u`, this.uNext, forcing.u);
    readInput(`${what}: uPrev`, this.uPrev, forcing.uPrev);
    return t;
  }

  /**
   * Fourth-order central differences along the retraction of `side`:
   * f'(0) ≈ [8(f(ε) − f(−ε)) − (f(2ε) − f(−2ε))]/(12ε), for k = 1 (L̂) or k = m (φ) outputs.
   */
  private fdGradient(side: Side, out: Float64Array, g: Float64Array, k: number, isL: boolean) {
    const { r, fdV: v, fdP1, fdM1, fdP2, fdM2 } = this;
    const eps = this.gradientStep;
    v.fill(0);
    for (let i = 0; i < r; i++) {
      this.fdEval(side, fdP1, g, i, eps, isL);
      this.fdEval(side, fdM1, g, i, -eps, isL);
      this.fdEval(side, fdP2, g, i, 2 * eps, isL);
      this.fdEval(side, fdM2, g, i, -2 * eps, isL);
      v[i] = 0;
      for (let a = 0; a < k; a++)
        out[a * r + i] = (8 * (fdP1[a]! - fdM1[a]!) - (fdP2[a]! - fdM2[a]!)) / (12 * eps);
    }
  }

  /** buf ← L̂ or φ at retract(g, s·e_i). */
  private fdEval(
    side: Side,
    buf: Float64Array,
    g: Float64Array,
    i: number,
    s: number,
    isL: boolean,
  ): void {
    const { fdV: v, fdK: arrow } = this;
    v[i] = s;
    if (side === 'left') this.groupoid.leftRetract(arrow, g, v);
    else this.groupoid.rightRetract(arrow, g, v);
    if (isL) buf[0] = this.spec.Lhat(arrow);
    else this.spec.phi(buf, arrow);
  }

  /**
   * Residual of the step system at the centre c: forward [P − rightGrad(F_μ)(c); φ(c)], backward
   * [leftGrad(F_μ)(c) − P; φ(c)], with P = `this.target`.
   */
  private residual(dir: StepDirection, out: Float64Array, c: Float64Array, mu: Float64Array) {
    const { r, m, target, jgp } = this;
    if (dir === 'forward') {
      this.momentumSolved('right', jgp, c, mu);
      for (let i = 0; i < r; i++) out[i] = target[i]! - jgp[i]!;
    } else {
      this.momentumSolved('left', jgp, c, mu);
      for (let i = 0; i < r; i++) out[i] = jgp[i]! - target[i]!;
    }
    if (m > 0) {
      this.spec.phi(this.phiBuf, c);
      for (let a = 0; a < m; a++) out[r + a] = this.phiBuf[a]!;
    }
  }

  /** The bordered Jacobian (module comment) at the centre c, multipliers μ. */
  private jacobian(dir: StepDirection, J: Float64Array, c: Float64Array, mu: ArrayLike<number>) {
    const G = this.groupoid;
    const { r, m, size: n, jv: v, jk: k, jgp: gp, jgm: gm, jphi } = this;
    const d = this.jacobianStep;
    const gradSide: Side = dir === 'forward' ? 'right' : 'left';
    const moveSide: Side = dir === 'forward' ? 'left' : 'right';
    const sign = dir === 'forward' ? -1 : 1;
    v.fill(0);
    for (let j = 0; j < r; j++) {
      v[j] = d;
      if (moveSide === 'left') G.leftRetract(k, c, v);
      else G.rightRetract(k, c, v);
      this.momentumSolved(gradSide, gp, k, mu);
      v[j] = -d;
      if (moveSide === 'left') G.leftRetract(k, c, v);
      else G.rightRetract(k, c, v);
      this.momentumSolved(gradSide, gm, k, mu);
      v[j] = 0;
      const s = sign / (2 * d);
      for (let i = 0; i < r; i++) J[i * n + j] = s * (gp[i]! - gm[i]!);
    }
    if (m === 0) return;
    // multiplier columns: ∂/∂μ_a of ∓grad(F_μ) = ∓grad(φ^a) on the gradient side
    this.gradPhi(gradSide, jphi, c);
    for (let a = 0; a < m; a++)
      for (let i = 0; i < r; i++) J[i * n + r + a] = sign * jphi[a * r + i]!;
    // constraint rows: derivative of φ along the moving fibre = grad(φ) on the moving side
    this.gradPhi(moveSide, jphi, c);
    for (let a = 0; a < m; a++) {
      const row = (r + a) * n;
      for (let j = 0; j < r; j++) J[row + j] = jphi[a * r + j]!;
      for (let b = 0; b < m; b++) J[row + r + b] = 0;
    }
  }

  /**
   * out (r + m + baseDim) ← E(y; x) of {@link forwardStepDerivatives} before the choice of the
   * base chart: the forced DEL (5f) of the pair (g_k, λ_k) on [t − h, t] with uPrev,
   * (g_{k+1}, λ_{k+1}) on [t, t + h] with u, its constraint φ(g_{k+1}) and all baseDim
   * coordinates of α(g_{k+1}) − β(g_k).
   */
  private stepEquations(
    out: Float64Array,
    gk: Float64Array,
    lambdaK: Float64Array,
    tPrev: number,
    uPrev: Float64Array,
    gk1: Float64Array,
    lambdaK1: Float64Array,
    t: number,
    u: Float64Array,
  ): void {
    const G = this.groupoid;
    const { r, m, aPlus, aMinus } = this;
    this.gradF('left', aPlus.p, gk, lambdaK);
    this.gradF('right', aMinus.p, gk1, lambdaK1);
    if (this.force !== undefined) {
      this.addForce('left', aPlus.p, gk, tPrev, uPrev);
      this.addForce('right', aMinus.p, gk1, t, u);
    }
    for (let i = 0; i < r; i++) out[i] = aPlus.p[i]! - aMinus.p[i]!;
    if (m > 0) {
      this.spec.phi(this.phiBuf, gk1);
      for (let a = 0; a < m; a++) out[r + a] = this.phiBuf[a]!;
    }
    G.target(aPlus.base, gk);
    G.source(aMinus.base, gk1);
    for (let i = 0; i < G.baseDim; i++) out[r + m + i] = aMinus.base[i]! - aPlus.base[i]!;
  }

  /** this.centre, this.mu ← the arrow and the multipliers of a Newton iterate [g, λ]. */
  private unpack(x: Float64Array): Float64Array {
    const { centre: c, mu, m } = this;
    const A = c.length;
    for (let i = 0; i < A; i++) c[i] = x[i]!;
    for (let a = 0; a < m; a++) mu[a] = x[A + a]!;
    return c;
  }

  /**
   * The Newton solver of a direction for these settings: core's {@link NewtonSolver} on the
   * r + m unknowns (fibre coordinates, multipliers), updated by {@link borderedRetraction} (the
   * arrow re-centred by `leftRetract` forward, `rightRetract` backward; the multipliers
   * additively), with the κ₁ bound `maxCondition` and the non-regularity error of
   * {@link nonRegular}. Built once per direction and settings (cold).
   */
  private solver(dir: StepDirection, maxIterations: number, stepTol: number): NewtonSolver {
    const cached = dir === 'forward' ? this.forwardSolver : this.backwardSolver;
    if (
      cached !== undefined &&
      cached.options.maxIterations === maxIterations &&
      cached.options.stepTol === stepTol
    ) {
      return cached;
    }
    const G = this.groupoid;
    const { r, m, size: n } = this;
    const solver = new NewtonSolver(n, {
      storageSize: G.arrowDim + m,
      retract: borderedRetraction(r, G.arrowDim, m, (out, g, v) =>
        dir === 'forward' ? G.leftRetract(out, g, v) : G.rightRetract(out, g, v),
      ),
      maxIterations,
      stepTol,
      throwOnFailure: true,
      conditionCheck: 'estimate',
      maxCondition: this.maxCondition,
      onSingular: (J, size, iteration, cond, step) =>
        nonRegular(dir, J, size, iteration, cond, step),
      what: `${dir} step`,
    });
    if (dir === 'forward') this.forwardSolver = solver;
    else this.backwardSolver = solver;
    return solver;
  }

  /**
   * Newton (core's {@link NewtonSolver}) in (fibre coordinates, multipliers) with re-centring, from
   * the guess (c0, mu0); `this.target` holds P. Converged when ‖residual‖∞ ≤ tol, or when an update
   * satisfies ‖Δ‖∞ ≤ stepTol·max(1, ‖(g, λ)‖∞). A guess that already solves the step is checked
   * for regularity (one factorization), as every Newton iteration is.
   */
  private solve(
    dir: StepDirection,
    c0: Float64Array,
    mu0: ArrayLike<number>,
    options: StepOptions,
    result: Mutable<StepResult>,
  ): StepResult {
    const { m } = this;
    const A = this.groupoid.arrowDim;
    const tol = options.tol ?? (this.analyticGradients ? 1e-12 : 1e-10);
    const maxIterations = options.maxIterations ?? 20;
    const stepTol = options.stepTol ?? 4 * Number.EPSILON;
    const step = options.step;
    if (!(tol >= 0)) throw new DomainError(`${dir} step: tol`, tol, 'must be >= 0');
    if (!Number.isInteger(maxIterations) || maxIterations < 0)
      throw new DomainError(`${dir} step: maxIterations`, maxIterations, 'must be an integer >= 0');
    if (!(stepTol >= 0)) throw new DomainError(`${dir} step: stepTol`, stepTol, 'must be >= 0');
    this.checkLambda(
      dir === 'forward' ? 'forward step: lambda guess' : 'backward step: lambda guess',
      mu0,
    );
    const x0 = this.x0;
    x0.set(c0);
    for (let a = 0; a < m; a++) x0[A + a] = mu0[a]!;
    const solver = this.solver(dir, maxIterations, stepTol);
    // the tolerance through the solver's field, not solve's tolOverride argument: a computed
    // double passed to a call that is not inlined is boxed (16 B per step); same value, same test
    solver.tol = tol;
    const res =
      dir === 'forward'
        ? solver.solve(this.forwardF, this.forwardJ, x0, step)
        : solver.solve(this.backwardF, this.backwardJ, x0, step);
    const x = res.x;
    const g = result.g;
    for (let i = 0; i < A; i++) g[i] = x[i]!;
    for (let a = 0; a < m; a++) result.lambda[a] = x[A + a]!;
    result.iterations = res.iterations;
    result.residualNorm = res.residualNorm;
    result.condition =
      res.iterations === 0
        ? this.regularityAtSolution(dir, g, result.lambda, step)
        : solver.lastCondition;
    return result;
  }

  /**
   * κ₁ of the bordered Jacobian at (g, λ), for a guess that solved the step without an iteration;
   * throws NonRegularSystemError at or above `maxCondition`, like a Newton iteration.
   */
  private regularityAtSolution(
    dir: StepDirection,
    g: Float64Array,
    lambda: Float64Array,
    step: number | undefined,
  ): number {
    const { jac: J, lu, size: n } = this;
    this.jacobian(dir, J, g, lambda);
    lu.factor(J);
    const cond = lu.isSingular ? Number.POSITIVE_INFINITY : lu.conditionEstimate();
    if (!(cond < this.maxCondition)) throw nonRegular(dir, J, n, 0, cond, step);
    return cond;
  }

  /**
   * Transports the increment of g: forward, v ≈ leftRetract⁻¹_{ε(α(g))}(g) by least squares on the
   * chart (exact for chart-linear retractions), out = leftRetract(ε(β(g)), v); backward, the mirror
   * with right fields: w from ε(β(g)), out = rightRetract(ε(α(g)), w).
   */
  private defaultPredictor(dir: StepDirection, out: Float64Array, g: Float64Array): void {
    const G = this.groupoid;
    const { r, prQ: q, prE: e, prX: x, prM: M, prField: fld, prNormal: N, prRhs: b, fdV: v } = this;
    const dim = G.dim;
    if (dir === 'forward') G.source(q, g);
    else G.target(q, g);
    G.identityAt(e, q);
    G.chartInverse(x, e, g);
    v.fill(0);
    for (let j = 0; j < r; j++) {
      v[j] = 1;
      if (dir === 'forward') G.leftField(fld, e, v);
      else G.rightField(fld, e, v);
      v[j] = 0;
      for (let i = 0; i < dim; i++) M[i * r + j] = fld[i]!;
    }
    for (let i = 0; i < r; i++) {
      let s = 0;
      for (let l = 0; l < dim; l++) s += M[l * r + i]! * x[l]!;
      b[i] = s;
      for (let j = 0; j < r; j++) {
        let t = 0;
        for (let l = 0; l < dim; l++) t += M[l * r + i]! * M[l * r + j]!;
        N[i * r + j] = t;
      }
    }
    this.prLU.factor(N);
    this.prLU.solve(b, v);
    if (dir === 'forward') G.target(q, g);
    else G.source(q, g);
    G.identityAt(e, q);
    if (dir === 'forward') G.leftRetract(out, e, v);
    else G.rightRetract(out, e, v);
    v.fill(0);
  }

  private checkComposable(g: Float64Array, h: Float64Array): void {
    if (!this.groupoid.isComposable(g, h)) throw new NotComposableError(this.groupoid.gap(g, h));
  }

  private checkArrow(what: string, g: Float64Array): void {
    if (g.length !== this.groupoid.arrowDim)
      throw new DimensionError(`${what}: arrow`, this.groupoid.arrowDim, g.length);
  }

  private checkLambda(what: string, lambda: ArrayLike<number>): void {
    if (lambda.length !== this.m)
      throw new DimensionError(`${what}: multipliers`, this.m, lambda.length);
  }

  private checkAStar(what: string, a: AStar): void {
    if (a.base.length !== this.groupoid.baseDim)
      throw new DimensionError(`${what}: base point`, this.groupoid.baseDim, a.base.length);
    if (a.p.length !== this.r) throw new DimensionError(`${what}: momentum`, this.r, a.p.length);
  }
}

/**
 * The method of {@link DiscreteConstrainedSystem}: the constrained discrete Euler–Lagrange
 * equations (5) with multipliers (spec 003 §5.2), one bordered Newton solve per step. Variational;
 * its Hamiltonian map is a (local) Poisson automorphism where the system is regular (Def 3.5);
 * order and symmetry depend on L̂ and are not claimed.
 *
 * @example
 * ```ts
 * constrainedDelMethod.isVariational; // true
 * ```
 */
export const constrainedDelMethod: MethodTraits = methodTraits({
  name: 'constrained-del',
  description: 'constrained discrete Euler–Lagrange equations on a Lie groupoid (spec 003 §5.2)',
  isExplicit: false,
  isSymplectic: true,
  isVariational: true,
});

/** The series of a constrained-system trajectory. */
export type ConstrainedField = 'g' | 'lambda';

/**
 * A constrained-system trajectory: sample j holds the arrow g_{k+1} (`g`, count × arrowDim) and its
 * multipliers λ_{k+1} (`lambda`, count × m) after k = `k[j]` steps from (g_1, λ_1). For m = 0
 * `lambda` is an empty array and not a recorded series.
 */
export type ConstrainedSolution = Solution<ConstrainedField>;

/** Options of {@link DiscreteConstrainedSystem.integrate} and {@link ConstrainedStepper}. */
export interface ConstrainedIntegrateOptions
  extends Omit<StepOptions, 'guess' | 'lambdaGuess' | 'step' | 't' | 'u'>,
    IntegrateRecordingOptions {
  /** Number of forward steps (a safe integer ≥ 0). */
  readonly steps: number;
  /**
   * Time label per step (t = t0 + k·h). Default 1, or the force's h for a forced system (which
   * must integrate with its force's h).
   */
  readonly h?: number;
  /** Time label of (g_1, λ_1): the end of g_1's interval. Default 0. */
  readonly t0?: number;
  /**
   * A forced system's inputs u_k, held on the arrow that step k solves for (g_{k+2} from
   * (g_{k+1}, λ_{k+1}), on [t_k, t_k + h]): a flat `steps × inputSize` array or a function of
   * (k, t) (core's `integrate`). Missing: u = 0. `uPrev` is the input held on g_1.
   */
  readonly inputs?: ArrayLike<number> | InputFunction;
}

/**
 * The forward steps of a {@link DiscreteConstrainedSystem} as a core {@link Stepper}: the state is
 * `[g_k (arrowDim), λ_k (m)]`, a step is {@link DiscreteConstrainedSystem.stepForward} (bordered
 * Newton, allocation-free). Records the state as the series `g` and (m > 0) `lambda`.
 *
 * Forced system ((5f)): the state is `[g_k, λ_k, u_{k−1}]`, the last part the input held on g_k
 * (its f_d⁺ enters the step's target), so that a step is a function of the state and its input
 * u_k, held on the arrow it solves for; build the initial state with {@link initialState}. The
 * time passed by core's `integrate` is the start of the solved arrow's interval (the end of g_k's),
 * so the run's h must be the force's h (checked in `reset`).
 *
 * @example
 * ```ts
 * const g = Float64Array.of(1, 0.99); // the arrow (q0, q1)
 * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} }); // S1, h = 0.1
 * const g1 = Float64Array.of(1, 0.99);
 * const lambda1 = new Float64Array(0);
 * const s = new ConstrainedStepper(sys);
 * const sol = integrate(s, Float64Array.of(...g1, ...lambda1), { h: 1, steps: 10 });
 * ```
 */
export class ConstrainedStepper implements Stepper<ConstrainedField> {
  readonly method = constrainedDelMethod;
  readonly stateSize: number;
  /** The force's input size (0 when unforced). */
  readonly inputSize: number;
  readonly series: readonly SeriesSpec<ConstrainedField>[];
  lastResidual = 0;
  private readonly g: Float64Array;
  private readonly lambda: Float64Array;
  private readonly uPrev: Float64Array;
  private readonly options: Mutable<StepOptions>;
  /** Initial time of the run (the last {@link reset}'s t0): step k leaves t0 + k·h. */
  private t0 = 0;
  /**
   * Size of the tangent state (δg, λ, u_{k−1}) of {@link stepDerivatives}: dim + m (+ inputSize
   * when forced), against the storage's arrowDim + m (+ inputSize).
   */
  readonly tangentSize: number;
  /** The last step taken, for {@link stepDerivatives}: the state before and after, its u and t. */
  private readonly lastBefore: Float64Array;
  private readonly lastAfter: Float64Array;
  private readonly lastU: Float64Array;
  /** Views of lastBefore / lastAfter: g_k, λ_k, g_{k+1}, λ_{k+1}. */
  private readonly lastViews: readonly [Float64Array, Float64Array, Float64Array, Float64Array];
  private lastT = 0;
  private stepTaken = false;
  /** Scratch of {@link stepDerivatives}, allocated on its first call. */
  private derivScratch: { dy: Float64Array; du: Float64Array } | undefined;

  constructor(
    readonly system: DiscreteConstrainedSystem,
    options: Omit<StepOptions, 'guess' | 'lambdaGuess' | 'step' | keyof StepForcing> = {},
  ) {
    const A = system.groupoid.arrowDim;
    const m = system.m;
    this.inputSize = system.inputSize;
    this.stateSize = A + m + (system.force === undefined ? 0 : this.inputSize);
    this.series = Object.freeze(
      m > 0
        ? [
            { name: 'g', width: A },
            { name: 'lambda', width: m },
          ]
        : [{ name: 'g', width: A }],
    );
    this.g = new Float64Array(A);
    this.lambda = new Float64Array(m);
    this.uPrev = new Float64Array(this.inputSize);
    this.tangentSize = system.groupoid.dim + m + (system.force === undefined ? 0 : this.inputSize);
    this.lastBefore = new Float64Array(this.stateSize);
    this.lastAfter = new Float64Array(A + m);
    this.lastU = new Float64Array(this.inputSize);
    this.lastViews = [
      this.lastBefore.subarray(0, A),
      this.lastBefore.subarray(A, A + m),
      this.lastAfter.subarray(0, A),
      this.lastAfter.subarray(A, A + m),
    ];
    this.options = {
      ...(options.tol === undefined ? {} : { tol: options.tol }),
      ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
      ...(options.stepTol === undefined ? {} : { stepTol: options.stepTol }),
    };
  }

  /**
   * The state `[g_1, λ_1]`, forced `[g_1, λ_1, u_0]` with u_0 = `uPrev` the input held on g_1
   * (default 0).
   * @throws DimensionError for a wrong-length arrow, multipliers or input; DomainError for a
   *   non-finite input.
   *
   * @example
   * ```ts
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2, phi: () => {} });
   * new ConstrainedStepper(sys).initialState(Float64Array.of(1, 0.99), []); // [1, 0.99]
   * ```
   */
  initialState(
    g1: ArrayLike<number>,
    lambda1: ArrayLike<number>,
    uPrev?: ArrayLike<number>,
  ): Float64Array {
    const A = this.g.length;
    const m = this.lambda.length;
    if (g1.length !== A) throw new DimensionError('ConstrainedStepper: g_1', A, g1.length);
    if (lambda1.length !== m)
      throw new DimensionError('ConstrainedStepper: lambda_1', m, lambda1.length);
    const x0 = new Float64Array(this.stateSize);
    for (let i = 0; i < A; i++) x0[i] = g1[i]!;
    for (let a = 0; a < m; a++) x0[A + a] = lambda1[a]!;
    if (this.system.force !== undefined) {
      readInput('ConstrainedStepper: uPrev', this.uPrev, uPrev);
      x0.set(this.uPrev, A + m);
    }
    return x0;
  }

  /**
   * Keeps the run's initial time t0 (step k leaves t0 + k·h) and checks that a forced run's h is
   * the force's (its times label the arrows' intervals).
   */
  reset(_state: Float64Array, t0: number, h: number): void {
    this.t0 = t0;
    const force = this.system.force;
    if (force !== undefined && h !== force.h)
      throw new DomainError(
        'ConstrainedStepper: integrate h',
        h,
        `must equal the force's h = ${force.h}`,
      );
  }

  /**
   * One forward step: (g_k, λ_k) ← the solution (g_{k+1}, λ_{k+1}) of (5); forced, of (5f) with
   * g_{k+1} held on [t, t + h] (t = t0 + k·h, t0 of the last {@link reset}) with input u, and u
   * stored as the input of the new g_k.
   * @throws NonRegularSystemError, NewtonDivergedError naming step `k` (state unchanged).
   */
  step(state: Float64Array, k: number, h: number, u: Float64Array): number {
    const { g, lambda, uPrev } = this;
    const A = g.length;
    const m = lambda.length;
    this.stepTaken = false;
    for (let i = 0; i < A; i++) g[i] = state[i]!;
    for (let a = 0; a < m; a++) lambda[a] = state[A + a]!;
    const options = this.options;
    options.step = k;
    const forced = this.system.force !== undefined;
    if (forced) {
      for (let i = 0; i < uPrev.length; i++) uPrev[i] = state[A + m + i]!;
      options.t = this.t0 + k * h;
      options.u = u;
      options.uPrev = uPrev;
    }
    const r = this.system.stepForward(g, lambda, options);
    this.lastResidual = r.residualNorm;
    // the step's data, for stepDerivatives (loops: sizes are small)
    const { lastBefore, lastAfter, lastU } = this;
    for (let i = 0; i < lastBefore.length; i++) lastBefore[i] = state[i]!;
    if (forced) {
      for (let i = 0; i < lastU.length; i++) lastU[i] = u[i]!;
      this.lastT = this.t0 + k * h;
    }
    state.set(r.g, 0);
    state.set(r.lambda, A);
    for (let i = 0; i < A + m; i++) lastAfter[i] = state[i]!;
    if (forced) for (let i = 0; i < uPrev.length; i++) state[A + m + i] = u[i]!;
    this.stepTaken = true;
    return r.iterations;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) in tangent
   * coordinates ({@link tangentSize}, not the storage's {@link stateSize}): x = (δg, λ, u_{k−1}),
   * δg the chart coordinates of the arrow, chart(g, δg) (additive on a pair groupoid of Rⁿ, the
   * right-⊕ g·Exp(δg) on a Lie group factor), λ additive, and for a forced system the stored input
   * u_{k−1} of g_k. The (δg, λ) rows are {@link DiscreteConstrainedSystem.forwardStepDerivatives}
   * at the accepted (g_{k+1}, λ_{k+1}) (the implicit function theorem on the step's equations
   * completed by composability, E_y non-singular exactly when the bordered Jacobian is); the new
   * stored input is u_k, so its rows are 0 in `dxdx` and the identity in `dxdu`. Cold path:
   * allocates its scratch on the first call.
   * @throws DomainError before any step (or after a failed one); DimensionError unless
   *   `dxdx.length` = tangentSize² and `dxdu.length` = tangentSize·inputSize;
   *   NonRegularSystemError when the step's Jacobian is singular at the accepted solution.
   *
   * @example
   * ```ts
   * // S1 (Störmer–Verlet for V = q²/2 with h = 0.1), state (q_k, q_{k+1}): A = [[0, 1], [−1, 2 − h²]]
   * const sys = new DiscreteConstrainedSystem({ groupoid: new PairGroupoid(1), m: 0, Lhat: (g) => (g[1]! - g[0]!) ** 2 / 0.2 - 0.025 * (g[0]! ** 2 + g[1]! ** 2), phi: () => {} });
   * const s = new ConstrainedStepper(sys, { tol: 1e-14 });
   * const x = s.initialState([1, 0.99], []);
   * s.step(x, 0, 1, new Float64Array(0));
   * const A = new Float64Array(4);
   * s.stepDerivatives(A, new Float64Array(0));
   * A[1]; // ≈ 1
   * A[3]; // ≈ 1.99
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const T = this.tangentSize;
    const p = this.inputSize;
    checkStepDerivatives(
      'ConstrainedStepper.stepDerivatives',
      this.stepTaken ? undefined : 'no step taken',
      dxdx,
      dxdu,
      T,
      p,
      T,
    );
    const sys = this.system;
    const A = this.g.length;
    const m = this.lambda.length;
    const N = sys.groupoid.dim + m;
    const forced = sys.force !== undefined;
    this.derivScratch ??= {
      dy: new Float64Array(N * T),
      du: new Float64Array(N * (forced ? p : 0)),
    };
    const s = this.derivScratch;
    const lastBefore = this.lastBefore;
    const options = this.options;
    if (forced) {
      for (let i = 0; i < p; i++) this.uPrev[i] = lastBefore[A + m + i]!;
      options.t = this.lastT;
      options.u = this.lastU;
      options.uPrev = this.uPrev;
    }
    const [gk, lk, gk1, lk1] = this.lastViews;
    sys.forwardStepDerivatives(s.dy, s.du, gk, lk, gk1, lk1, options);
    dxdx.set(s.dy, 0);
    dxdx.fill(0, N * T);
    if (p > 0) {
      dxdu.set(s.du, 0);
      dxdu.fill(0, N * p);
      for (let i = 0; i < p; i++) dxdu[(N + i) * p + i] = 1;
    }
  }

  /** Writes g then λ. */
  record(out: Float64Array, state: Float64Array): void {
    const n = this.g.length + this.lambda.length;
    for (let i = 0; i < n; i++) out[i] = state[i]!;
  }
}

/** out ← u (zeros when undefined), checking its length and finiteness. */
function readInput(what: string, out: Float64Array, u: ArrayLike<number> | undefined): void {
  if (u === undefined) {
    out.fill(0);
    return;
  }
  if (u.length !== out.length) throw new DimensionError(what, out.length, u.length);
  for (let i = 0; i < out.length; i++) {
    const x = u[i]!;
    if (!Number.isFinite(x)) throw new DomainError(`${what}[${i}]`, x, 'must be finite');
    out[i] = x;
  }
}

function positive(what: string, v: number): number {
  if (!(v > 0 && Number.isFinite(v)))
    throw new DomainError(`DiscreteConstrainedSystem: ${what}`, v, 'must be positive and finite');
  return v;
}

/**
 * The NonRegularSystemError of a singular bordered Jacobian J (n×n, κ₁ estimate `cond`), with
 * the singular values that show the non-regularity (cold path).
 */
function nonRegular(
  dir: StepDirection,
  J: Float64Array,
  n: number,
  iteration: number,
  cond: number,
  step: number | undefined,
): NonRegularSystemError {
  const s = singularValues(J.slice(0, n * n), n, n);
  return new NonRegularSystemError('singular-bordered-jacobian', {
    direction: dir,
    sigmaMin: s[n - 1]!,
    sigmaMax: s[0]!,
    conditionEstimate: cond,
    iteration,
    ...(step === undefined ? {} : { step }),
  });
}
