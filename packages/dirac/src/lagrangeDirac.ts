/**
 * The (±)-discrete Lagrange–Dirac integrators of spec 000 (seed 000, Peng–Yoshimura,
 * arXiv:2411.09530): discrete Lagrangians L_d (spec 000 §4 (10), §8.4, §11), the bordered
 * (n+m)×(n+m) Newton step of spec 000 §8.1/§8.2, and the trajectory driver
 * {@link integrateLagrangeDirac}.
 *
 * Conventions (spec 000 §2, §12.2): constraint forces enter as
 * (p_{k+1} − p_k)/h − (D₁L_d + D₂L_d)/h = Wᵀλ (force-per-time λ, the recommended [R-M] scaling,
 * −1/h times the paper's (20) multiplier); the discrete constraint residual is
 * W(base)(q_{k+1} − q_k)/h (spec 000 §12.3, with the 1/h).
 *
 * One step, both signs (spec 000 §8.1, §8.2 position form written with P_k := D₂L_d(q_{k−1}, q_k),
 * the incoming momentum p⁺_k): unknowns (q_{k+1}, λ_k),
 * ```
 * F1 = P_k + D₁L_d(q_k, q_{k+1}) + h W(q_k)ᵀ λ_k = 0
 * F2 = W(c)(q_{k+1} − q_k)/h = 0,     c = q_k (+),  c = q_{k+1} (−)
 * ```
 * then P_{k+1} = D₂L_d(q_k, q_{k+1}). For (+) the LdAP momentum (53) is p_k = P_k; for (−) it is
 * (54) p_k = −D₁L_d(q_k, q_{k+1}) = P_k + h W(q_k)ᵀλ_k, and λ_k is the (−) multiplier λ^k of (54)
 * acting at q_k. At k = 0 the user's p₀ plays P₀: the (+) step accepts any p₀, the (−) step
 * projects p₀ onto the admissible set M⁻ (λ₀ = 0 iff p₀ is admissible).
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  checkForce,
  checkStepDerivatives,
  DenseLU,
  DimensionError,
  DiscreteForce,
  type DiscreteLagrangian,
  DomainError,
  extendSolution,
  type Force,
  type ForceQuadrature,
  type IntegrateRecordingOptions,
  integrate,
  type MethodTraits,
  methodTraits,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NonFiniteError,
  normInf,
  recordingOptions,
  type SeriesSpec,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
  SingularMatrixError,
  type Solution,
  type Stepper,
} from '@geomech/core';
import { forceJacobianWithWeights } from './internal.js';
import type { Distribution, Lagrangian } from './types.js';

/**
 * out ← ∂(A(q) w)/∂q (m×n) of a distribution: its own {@link Distribution.dAw} when it has one,
 * else column k = (∂A/∂qᵏ) w from `Adot(·, q, e_k)` (Adot(q, v) = Σ_k (∂A/∂qᵏ) vᵏ, so v = e_k
 * picks ∂A/∂qᵏ). Both are exact; the returned function allocates nothing.
 */
function constraintDerivative(
  Delta: Distribution,
): (out: Float64Array, q: Float64Array, w: Float64Array) => void {
  const own = Delta.dAw;
  if (own !== undefined) {
    return (out, q, w) => {
      own.call(Delta, out, q, w);
    };
  }
  const { n, m } = Delta;
  const e = new Float64Array(n);
  const dA = new Float64Array(Math.max(1, m * n));
  return (out, q, w) => {
    for (let k = 0; k < n; k++) {
      e.fill(0);
      e[k] = 1;
      dA.fill(0);
      Delta.Adot(dA, q, e);
      for (let a = 0; a < m; a++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += dA[a * n + i]! * w[i]!;
        out[a * n + k] = s;
      }
    }
  };
}

// A discrete Lagrangian L_d(q₀, q₁) ≈ ∫ L dt over one step h (spec 000 §4 (10)) with D1, D2 and
// D2D1 = ∂(D₁L_d)/∂q₁ (block A of spec 000 §8) is core's one vocabulary, re-exported here; its h
// may be negative (the scheme run backwards, spec 000 §10.7).
export type { DiscreteLagrangian } from '@geomech/core';

// ---------------------------------------------------------------------------------------------
// discrete Lagrangians

/**
 * A discrete Lagrangian of a time-dependent L(q, v, t): the slot derivatives take the time t_k of
 * the step's left end as an optional last argument (core's vocabulary: time is the last argument;
 * omitted means an autonomous L). {@link discretize} returns one; the (±) steppers pass t_k.
 *
 * @example
 * ```ts
 * // L = ½v² − ½(1 + cos t)q², left rectangle: D₁L_d = h L_q(q₀, v, t_k) − L_v
 * const L: Lagrangian = {
 *   n: 1,
 *   L: (q, v, t = 0) => 0.5 * v[0]! ** 2 - 0.5 * (1 + Math.cos(t)) * q[0]! ** 2,
 *   Lq: (out, q, _v, t = 0) => { out[0] = -(1 + Math.cos(t)) * q[0]!; return out; },
 *   Lv: (out, _q, v) => { out[0] = v[0]!; return out; },
 *   Lvv: (out) => { out[0] = 1; return out; },
 *   Lvq: (out) => { out[0] = 0; return out; },
 * };
 * const Ld = discretize(L, 0.1, 'left');
 * Ld.D1(new Float64Array(1), Float64Array.of(1), Float64Array.of(1), Math.PI); // [−0] (1 + cos π = 0)
 * ```
 */
export interface TimeDependentDiscreteLagrangian extends DiscreteLagrangian {
  /**
   * True when L_d does not depend on t (it ignores the time argument): the steppers then call it
   * without one, so that no double is boxed per call. {@link discretize} sets it from the
   * Lagrangian's `autonomous` flag. Default false.
   */
  readonly autonomous?: boolean;
  Ld(q0: Float64Array, q1: Float64Array, t?: number): number;
  D1(out: Float64Array, q0: Float64Array, q1: Float64Array, t?: number): Float64Array;
  D2(out: Float64Array, q0: Float64Array, q1: Float64Array, t?: number): Float64Array;
  D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, t?: number): Float64Array;
}

/** Quadrature rule of {@link discretize}: left = L_d⁺, right = L_d⁻ (spec 000 §8.4). */
export type DiscreteRule = 'left' | 'right' | 'midpoint' | 'trapezoid';

/** Sign of a (±)-discrete Lagrange–Dirac scheme (spec 000 §2, §8). */
export type LagrangeDiracSign = 'plus' | 'minus';

/** The (±)-discrete Lagrange–Dirac methods, by their CLI names. */
export type LagrangeDiracMethodName = 'dirac-plus' | 'dirac-minus';

/** A (±) Lagrange–Dirac method: core's {@link MethodTraits} and the sign of the scheme. */
export interface LagrangeDiracMethod extends MethodTraits {
  readonly name: LagrangeDiracMethodName;
  readonly sign: LagrangeDiracSign;
}

function lagrangeDiracMethod(
  name: LagrangeDiracMethodName,
  sign: LagrangeDiracSign,
  description: string,
): LagrangeDiracMethod {
  // order 1 (spec 000 §10.8, measured); implicit (a bordered Newton solve per step); from the
  // discrete Lagrange–d'Alembert–Pontryagin principle (Thm 7.4); (+) and (−) are each other's
  // adjoint, not self-adjoint (spec 000 §10.7)
  const traits = methodTraits({
    name,
    description,
    order: 1,
    isExplicit: false,
    isSymmetric: false,
    isVariational: true,
  });
  return Object.freeze({ ...traits, name, sign });
}

/**
 * The method table, keyed by the CLI names: `'dirac-plus'` (the (+) scheme, left-rectangle L_d by
 * default) and `'dirac-minus'` (the (−) scheme, right-rectangle L_d).
 *
 * @example
 * ```ts
 * lagrangeDiracMethods['dirac-minus'].sign; // 'minus'
 * lagrangeDiracMethods['dirac-plus'].order; // 1
 * ```
 */
export const lagrangeDiracMethods: Readonly<Record<LagrangeDiracMethodName, LagrangeDiracMethod>> =
  Object.freeze({
    'dirac-plus': lagrangeDiracMethod(
      'dirac-plus',
      'plus',
      '(+)-discrete Lagrange–Dirac (spec 000 §8.1, (53))',
    ),
    'dirac-minus': lagrangeDiracMethod(
      'dirac-minus',
      'minus',
      '(−)-discrete Lagrange–Dirac (spec 000 §8.2, (54))',
    ),
  });

/** The method of a CLI name; throws a {@link DomainError} naming `what` for another string. */
function methodOf(what: string, name: string): LagrangeDiracMethod {
  const m = Object.hasOwn(lagrangeDiracMethods, name)
    ? lagrangeDiracMethods[name as LagrangeDiracMethodName]
    : undefined;
  if (m === undefined)
    throw new DomainError(what, String(name), "must be 'dirac-plus' or 'dirac-minus'");
  return m;
}

/** Nodes (a_j, b_j) and weights w_j of ξ_j = a_j q₀ + b_j q₁ in L_d = h Σ w_j L(ξ_j, Δq). */
function ruleNodes(rule: DiscreteRule): { a: number[]; b: number[]; w: number[] } {
  switch (rule) {
    case 'left':
      return { a: [1], b: [0], w: [1] };
    case 'right':
      return { a: [0], b: [1], w: [1] };
    case 'midpoint':
      return { a: [0.5], b: [0.5], w: [1] };
    case 'trapezoid':
      return { a: [1, 0], b: [0, 1], w: [0.5, 0.5] };
    default:
      throw new DomainError(
        'discretize: rule',
        String(rule),
        "must be 'left'|'right'|'midpoint'|'trapezoid'",
      );
  }
}

/**
 * The discrete Lagrangian L_d(q₀, q₁) = h Σ_j w_j L(a_j q₀ + b_j q₁, (q₁ − q₀)/h) of a quadrature
 * rule (spec 000 §11 `discretize`): left L_d⁺ = hL(q₀, Δq), right L_d⁻ = hL(q₁, Δq), midpoint
 * hL((q₀+q₁)/2, Δq), trapezoid (h/2)[L(q₀, Δq) + L(q₁, Δq)]. For a time-dependent L(q, v, t) the
 * node j sits at the time t_k + b_j h, t_k the optional last argument of every method (the step's
 * left end; see {@link TimeDependentDiscreteLagrangian}).
 *
 * D₁L_d = Σ w_j [h a_j L_q − L_v], D₂L_d = Σ w_j [h b_j L_q + L_v] (at (ξ_j, Δq)), and
 * D₂D₁L_d = Σ w_j [h a_j b_j L_qq + a_j Nᵀ − b_j N − M/h] with M = L_vv, N = L_vq; L_qq (needed only
 * by the midpoint rule, a_j b_j ≠ 0) is a central finite difference of L_q. Allocation-free per call.
 *
 * Time-dependent L: the node times t + b_j h are computed (and boxed, 16 B each) once per new t,
 * i.e. once per step of a stepper, and the same numbers are passed to every later evaluation of
 * the step, so that a (±) step allocates only those boxes and the stepper's own t_k (≈ 32 B per
 * step with the left or right rule; `node bench/js/integrate.mjs --only=ld-minus-t`). What is
 * left is in the user's closures: they receive t as a number and allocate only what they
 * allocate themselves (e.g. a double they pass to, or return from, a call V8 does not inline).
 * An L that does not depend on t should say `autonomous: true`, and then receives no t at all.
 *
 * @example
 * ```ts
 * const Ld = discretize(verticalRollingDisk().lagrangian, 0.01, 'left');
 * const out = new Float64Array(4), q0 = new Float64Array(4), q1 = Float64Array.of(0.01, 0, 0, 0);
 * Ld.D2(out, q0, q1); // p₁ = M (q₁ − q₀)/h
 * ```
 */
export function discretize(
  L: Lagrangian,
  h: number,
  rule: DiscreteRule,
): TimeDependentDiscreteLagrangian {
  if (!(Number.isFinite(h) && h !== 0))
    throw new DomainError('discretize: h', h, 'must be finite and ≠ 0');
  const n = L.n;
  const { a, b, w } = ruleNodes(rule);
  const xi = new Float64Array(n);
  const v = new Float64Array(n);
  const lq = new Float64Array(n);
  const lv = new Float64Array(n);
  const M = new Float64Array(n * n);
  const N = new Float64Array(n * n);
  const gp = new Float64Array(n);
  const gm = new Float64Array(n);
  const setPoint = (j: number, q0: Float64Array, q1: Float64Array): void => {
    for (let i = 0; i < n; i++) {
      xi[i] = a[j]! * q0[i]! + b[j]! * q1[i]!;
      v[i] = (q1[i]! - q0[i]!) / h;
    }
  };
  // The node times t + b_j h of the last time t seen, kept as numbers in a tagged array (the
  // `undefined` start makes its elements tagged, not unboxed doubles): a node time is boxed once
  // per new t (once per step of a stepper), and passing it on to the user's closures at every
  // evaluation of the step's Newton solve allocates nothing more.
  const nodeT: (number | undefined)[] = a.map(() => undefined);
  let lastT: number | undefined;
  /** The time of node j of the step leaving t (undefined for an autonomous call). */
  const at = (t: number | undefined, j: number): number | undefined => {
    if (t === undefined) return undefined;
    if (!Object.is(t, lastT)) {
      for (let i = 0; i < nodeT.length; i++) nodeT[i] = t + b[i]! * h;
      lastT = t;
    }
    return nodeT[j];
  };
  const Dk = (
    out: Float64Array,
    q0: Float64Array,
    q1: Float64Array,
    first: boolean,
    t: number | undefined,
  ): Float64Array => {
    // loops, not fill: a builtin call per evaluation costs more than n stores
    for (let i = 0; i < n; i++) out[i] = 0;
    for (let j = 0; j < w.length; j++) {
      setPoint(j, q0, q1);
      const tj = at(t, j);
      L.Lq(lq, xi, v, tj);
      L.Lv(lv, xi, v, tj);
      const c = first ? a[j]! : b[j]!;
      const s = first ? -1 : 1;
      for (let i = 0; i < n; i++) out[i] = out[i]! + w[j]! * (h * c * lq[i]! + s * lv[i]!);
    }
    return out;
  };
  return {
    n,
    h,
    autonomous: L.autonomous === true,
    Ld: (q0, q1, t) => {
      let s = 0;
      for (let j = 0; j < w.length; j++) {
        setPoint(j, q0, q1);
        s += w[j]! * L.L(xi, v, at(t, j));
      }
      return h * s;
    },
    D1: (out, q0, q1, t) => Dk(out, q0, q1, true, t),
    D2: (out, q0, q1, t) => Dk(out, q0, q1, false, t),
    D2D1: (out, q0, q1, t) => {
      for (let i = 0; i < n * n; i++) out[i] = 0;
      for (let j = 0; j < w.length; j++) {
        setPoint(j, q0, q1);
        const tj = at(t, j);
        L.Lvv(M, xi, v, tj);
        L.Lvq(N, xi, v, tj);
        const aj = a[j]!;
        const bj = b[j]!;
        const wj = w[j]!;
        for (let i = 0; i < n; i++) {
          for (let k = 0; k < n; k++) {
            const t = aj * N[k * n + i]! - bj * N[i * n + k]! - M[i * n + k]! / h;
            out[i * n + k] = out[i * n + k]! + wj * t;
          }
        }
        if (aj * bj !== 0) {
          // L_qq column k by central differences of L_q at (ξ, v).
          for (let k = 0; k < n; k++) {
            const x0 = xi[k]!;
            const e = 1e-5 * Math.max(1, Math.abs(x0));
            xi[k] = x0 + e;
            L.Lq(gp, xi, v, tj);
            xi[k] = x0 - e;
            L.Lq(gm, xi, v, tj);
            xi[k] = x0;
            const f = (wj * h * aj * bj) / (2 * e);
            for (let i = 0; i < n; i++) out[i * n + k] = out[i * n + k]! + f * (gp[i]! - gm[i]!);
          }
        }
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the bordered Newton step

/** Options of {@link LagrangeDiracStepper}. */
export interface LagrangeDiracStepOptions {
  /** Newton tolerance on ‖F‖∞ (momentum units). Default 1e-12. */
  readonly tol?: number;
  /** Newton iteration cap. Default 50. */
  readonly maxIterations?: number;
  /**
   * An external (control) force F(t, q, v, u): the step adds the discrete Lagrange–d'Alembert
   * forces f_d^± of core's `DiscreteForce` (Marsden–West 2001 §3.2; see
   * {@link LagrangeDiracStepper}); the stepper's input size is then `force.m`.
   */
  readonly force?: Force;
  /** Quadrature of the discrete force: `'midpoint'` (default), `'left'` or `'right'`. */
  readonly forceQuadrature?: ForceQuadrature;
}

/** Result of one {@link LagrangeDiracStepper.solve} (buffers owned and reused by the stepper). */
export interface LagrangeDiracStepResult {
  /** q_{k+1}. */
  readonly q1: Float64Array;
  /** λ_k (m), the multiplier of ω(q_k) (see module doc). */
  readonly lambda: Float64Array;
  /** LdAP momentum at k: P_k (+) or −D₁L_d(q_k, q_{k+1}) (−), spec 000 (53)/(54). */
  readonly p: Float64Array;
  /** P_{k+1} = D₂L_d(q_k, q_{k+1}), the incoming momentum of the next step. */
  readonly P1: Float64Array;
  /** v_k = (q_{k+1} − q_k)/h. */
  readonly v: Float64Array;
  /** Newton iterations of this step. */
  iterations: number;
  /** Final ‖F‖∞. */
  residualNorm: number;
}

/** The series of a (±) Lagrange–Dirac trajectory. */
export type LagrangeDiracSeries = 'q' | 'p' | 'lambda' | 'energy' | 'constraint';

/**
 * One step of the (±)-discrete Lagrange–Dirac scheme (spec 000 §8.1, §8.2): a single Newton solve
 * (core's `NewtonSolver` iteration and stopping rule, run in place on the stepper's buffers) of
 * the bordered system F(q_{k+1}, λ_k) = 0 with the Jacobian
 * ```
 * [ D₂D₁L_d(q_k, q_{k+1})   h W(q_k)ᵀ ] [δq_{k+1}]
 * [ ∂F2/∂q_{k+1}             0        ] [δλ      ]
 * ```
 * with ∂F2/∂q_{k+1} = W(q_k)/h (+) or (W(q_{k+1}) + ∂(W(q)Δq)/∂q|_{q_{k+1}})/h, Δq = q_{k+1} − q_k
 * (−; analytic: the distribution's `dAw`, else its `Adot` along unit vectors). Owns all scratch;
 * `solve` and `step` allocate nothing.
 *
 * Forced (option `force`, inputs u_k from core's `integrate`): the discrete Lagrange–d'Alembert
 * forces of Marsden–West 2001 §3.2 enter the forced discrete Legendre transforms (3.2.5),
 * ```
 * F1 = P_k + D₁L_d(q_k, q_{k+1}) + f_d⁻(q_k, q_{k+1}) + h W(q_k)ᵀ λ_k = 0,
 * P_{k+1} = D₂L_d(q_k, q_{k+1}) + f_d⁺(q_k, q_{k+1}),   (−): p_k = −D₁L_d − f_d⁻,
 * ```
 * with f_d^± evaluated at t_k and u_k; the Newton Jacobian gains ∂f_d⁻/∂q_{k+1} in its upper-left
 * block. On a trajectory this is D₂L_d(q_{k−1}, q_k) + D₁L_d(q_k, q_{k+1}) + f_d⁺(q_{k−1}, q_k) +
 * f_d⁻(q_k, q_{k+1}) + hWᵀλ_k = 0, the forced DEL equation (3.2.4) with the constraint forces.
 * {@link stepDerivatives} gives ∂x_{k+1}/∂x_k and ∂x_{k+1}/∂u_k of the last step.
 *
 * As a core {@link Stepper} (run by {@link integrateLagrangeDirac}) its state is
 * `[q_k, P_k, guess of q_{k+1}, λ warm start]` (3n + m) with P_k = D₂L_d(q_{k−1}, q_k) (p₀ at
 * k = 0); the series are `q` = q_k of the state and, from the step leaving it, the LdAP momentum
 * `p` (53)/(54), `lambda` = λ_k, `energy` = E^±_d (spec 000 Def 7.1) and `constraint` =
 * ‖W(c)(q_{k+1} − q_k)/h‖∞ (c = q_k (+), q_{k+1} (−)).
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk();
 * const st = new LagrangeDiracStepper(discretize(disk.lagrangian, 0.01, 'left'), disk.distribution, 'dirac-plus');
 * const r = st.solve(Float64Array.of(0, 0, 0, 0), Float64Array.of(1, 0, 1, 1));
 * r.q1; // q_1; r.P1 is the incoming momentum of the next step
 * ```
 */
export class LagrangeDiracStepper implements Stepper<LagrangeDiracSeries> {
  readonly n: number;
  readonly m: number;
  readonly method: LagrangeDiracMethod;
  readonly sign: LagrangeDiracSign;
  readonly Ld: DiscreteLagrangian;
  readonly Delta: Distribution;
  readonly stateSize: number;
  /** Input size of the force (0 unforced). */
  readonly inputSize: number;
  /** The discrete force, when forced. */
  readonly discreteForce: DiscreteForce | undefined;
  readonly series: readonly SeriesSpec<LagrangeDiracSeries>[];
  /** ‖F‖∞ at the accepted solution of the last {@link step}. */
  lastResidual = 0;
  /** Newton iterations and final ‖F‖∞ of the last {@link peekLeaving} solve (NaN if it failed). */
  readonly peek = { iterations: 0, residualNorm: Number.NaN };
  /** Newton tolerance on ‖F‖∞ and iteration cap (core's NewtonSolver options). */
  private readonly tol: number;
  private readonly maxIterations: number;
  // Newton scratch: iterate, residual, Jacobian, step, factorization, ‖F‖∞ history
  private readonly xN: Float64Array;
  private readonly fN: Float64Array;
  private readonly jac: Float64Array;
  private readonly dxN: Float64Array;
  private readonly lu: DenseLU;
  private readonly history: Float64Array;
  private newtonIterations = 0;
  private newtonResidual = 0;
  /** The tolerance of the current solve ({@link residualFloor}); a field, not an argument: a
   * double passed to a call that is not inlined is boxed (heap-allocated) on every call. */
  private solveTol = 0;
  /** A holds D₂D₁L_d(q_k, x0) from {@link residualFloor}: the first J of the solve reuses it. */
  private aAtGuess = false;
  private readonly qk: Float64Array;
  private readonly Pk: Float64Array;
  private readonly q1t: Float64Array;
  private readonly d1: Float64Array;
  private readonly Wk: Float64Array;
  private readonly W1: Float64Array;
  private readonly Wp: Float64Array;
  private readonly dq: Float64Array;
  private readonly A: Float64Array;
  private readonly x0: Float64Array;
  private readonly posP: Float64Array;
  private readonly posGuess: Float64Array;
  private readonly res: LagrangeDiracStepResult;
  private readonly F: (out: Float64Array, x: Float64Array) => void;
  private readonly J: (out: Float64Array, x: Float64Array) => void;
  private peekFailure: string | undefined;
  // the forced step: t_k, u_k and force scratch
  private tk = 0;
  /**
   * The time argument of the L_d calls: t_k, or undefined for an autonomous L_d (no argument, so
   * no double boxed per call; one box per step in this tagged field otherwise).
   */
  private tArg: number | undefined = undefined;
  /** L_d declares itself autonomous ({@link TimeDependentDiscreteLagrangian.autonomous}). */
  private readonly autonomous: boolean;
  /** Initial time of the run (the last {@link reset}'s t0): step k leaves t0 + k·h. */
  private t0 = 0;
  private uk: Float64Array;
  private readonly zeroInput: Float64Array;
  private readonly fvec: Float64Array;
  private readonly fq1: Float64Array;
  // the last step taken, for stepDerivatives: [q_k, P_k], (q_{k+1}, λ_k), u_k, t_k
  private readonly lastQP: Float64Array;
  private readonly lastY: Float64Array;
  private readonly lastU: Float64Array;
  private lastT = 0;
  private hasLastStep = false;
  private derivatives: LagrangeDiracDerivativeScratch | undefined;

  constructor(
    Ld: DiscreteLagrangian,
    Delta: Distribution,
    method: LagrangeDiracMethodName,
    options: LagrangeDiracStepOptions = {},
  ) {
    if (Delta.n !== Ld.n) throw new DimensionError('LagrangeDiracStepper: Delta.n', Ld.n, Delta.n);
    const traits = methodOf('LagrangeDiracStepper: method', method);
    const n = Ld.n;
    const m = Delta.m;
    const h = Ld.h;
    this.n = n;
    this.m = m;
    this.method = traits;
    this.sign = traits.sign;
    this.Ld = Ld;
    this.Delta = Delta;
    this.autonomous = (Ld as TimeDependentDiscreteLagrangian).autonomous === true;
    this.tArg = this.autonomous ? undefined : 0;
    this.stateSize = 3 * n + m;
    const force = options.force;
    this.inputSize = force === undefined ? 0 : checkForce('LagrangeDiracStepper: force', force, n);
    this.discreteForce =
      force === undefined
        ? undefined
        : new DiscreteForce(force, h, options.forceQuadrature ?? 'midpoint');
    this.zeroInput = new Float64Array(this.inputSize);
    this.uk = this.zeroInput;
    this.fvec = new Float64Array(n);
    this.fq1 = new Float64Array(force === undefined ? 0 : n * n);
    this.lastQP = new Float64Array(2 * n);
    this.lastY = new Float64Array(n + m);
    this.lastU = new Float64Array(this.inputSize);
    const fd = this.discreteForce;
    const { fvec, fq1 } = this;
    this.series = Object.freeze([
      { name: 'q', width: n },
      { name: 'p', width: n, timing: 'leaving' },
      { name: 'lambda', width: m, timing: 'leaving' },
      { name: 'energy', width: 1, timing: 'leaving' },
      { name: 'constraint', width: 1, timing: 'leaving' },
    ] as const);
    const tol = options.tol ?? 1e-12;
    const maxIterations = options.maxIterations ?? 50;
    if (!(tol >= 0)) throw new DomainError('newton: tol', tol, 'must be ≥ 0');
    if (!Number.isInteger(maxIterations) || maxIterations < 0)
      throw new DomainError('newton: maxIterations', maxIterations, 'must be an integer ≥ 0');
    this.tol = tol;
    this.maxIterations = maxIterations;
    this.xN = new Float64Array(n + m);
    this.fN = new Float64Array(n + m);
    this.jac = new Float64Array((n + m) * (n + m));
    this.dxN = new Float64Array(n + m);
    this.lu = new DenseLU(n + m);
    this.history = new Float64Array(maxIterations + 1);
    this.qk = new Float64Array(n);
    this.Pk = new Float64Array(n);
    this.q1t = new Float64Array(n);
    this.d1 = new Float64Array(n);
    this.Wk = new Float64Array(Math.max(1, m * n));
    this.W1 = new Float64Array(Math.max(1, m * n));
    this.Wp = new Float64Array(Math.max(1, m * n));
    this.dq = new Float64Array(n);
    this.A = new Float64Array(n * n);
    this.x0 = new Float64Array(n + m);
    this.posP = new Float64Array(n);
    this.posGuess = new Float64Array(n);
    this.res = {
      q1: new Float64Array(n),
      lambda: new Float64Array(m),
      p: new Float64Array(n),
      P1: new Float64Array(n),
      v: new Float64Array(n),
      iterations: 0,
      residualNorm: 0,
    };
    const { qk, Pk, q1t, d1, Wk, W1, Wp, dq, A } = this;
    const minus = traits.sign === 'minus';
    const dAw = constraintDerivative(Delta);
    // a user L_d without time ignores the extra argument
    const Lt = Ld as TimeDependentDiscreteLagrangian;
    this.F = (out, x) => {
      for (let i = 0; i < n; i++) q1t[i] = x[i]!;
      Lt.D1(d1, qk, q1t, this.tArg);
      if (fd !== undefined) {
        // forced: D₁L_d + f_d⁻ (Marsden–West (3.2.5))
        fd.minus(fvec, this.tk, qk, q1t, this.uk);
        for (let i = 0; i < n; i++) d1[i] = d1[i]! + fvec[i]!;
      }
      // F1 = P_k + D₁L_d(q_k, q_{k+1}) + h W(q_k)ᵀλ
      for (let i = 0; i < n; i++) {
        let s = Pk[i]! + d1[i]!;
        for (let a = 0; a < m; a++) s += h * Wk[a * n + i]! * x[n + a]!;
        out[i] = s;
      }
      // F2 = W(c)(q_{k+1} − q_k)/h
      const Wc = minus ? Delta.A(W1, q1t) : Wk;
      for (let a = 0; a < m; a++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += Wc[a * n + i]! * (q1t[i]! - qk[i]!);
        out[n + a] = s / h;
      }
    };
    this.J = (out, x) => {
      const s = n + m;
      for (let i = 0; i < n; i++) q1t[i] = x[i]!;
      // the first Jacobian of a solve is taken at the guess, where residualFloor evaluated A at t_k
      if (this.aAtGuess) this.aAtGuess = false;
      else Lt.D2D1(A, qk, q1t, this.tArg);
      if (fd !== undefined && fd.weightMinus !== 0) {
        // + ∂f_d⁻/∂q_{k+1}
        fd.jacobian(undefined, fq1, undefined, this.tk, qk, q1t, this.uk);
        for (let i = 0; i < n * n; i++) A[i] = A[i]! + fd.weightMinus * fq1[i]!;
      }
      for (let i = 0; i < s * s; i++) out[i] = 0;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < n; k++) out[i * s + k] = A[i * n + k]!;
        for (let a = 0; a < m; a++) out[i * s + n + a] = h * Wk[a * n + i]!;
      }
      if (!minus) {
        for (let a = 0; a < m; a++)
          for (let k = 0; k < n; k++) out[(n + a) * s + k] = Wk[a * n + k]! / h;
        return;
      }
      Delta.A(W1, q1t);
      for (let i = 0; i < n; i++) dq[i] = q1t[i]! - qk[i]!;
      // ∂(W(q)Δq)/∂q at q_{k+1}, analytic
      dAw(Wp, q1t, dq);
      for (let a = 0; a < m; a++)
        for (let k = 0; k < n; k++) out[(n + a) * s + k] = (W1[a * n + k]! + Wp[a * n + k]!) / h;
    };
  }

  /**
   * The tolerance of this step's solve, into {@link solveTol}: the user's `tol`, raised to the
   * round-off floor of the residual when the state is large. F₁ = P_k + D₁L_d(q_k, q_{k+1}) + hWᵀλ evaluates difference
   * quotients (q_{k+1} − q_k)/h whose rounding error is ≈ ε‖q‖·‖D₂D₁L_d‖, and F₂ = W Δq/h likewise
   * ≈ ε‖q‖‖W‖/h; below 32× that no Newton step can reduce ‖F‖ (e.g. the rolling disk at h = 1e-3
   * once θ ≈ 47 has a floor ≈ 3e-12 > the default 1e-12).
   */
  private residualFloor(guess: Float64Array): void {
    const { n, m, A, qk, Pk, Wk, q1t } = this;
    for (let i = 0; i < n; i++) q1t[i] = guess[i]!;
    (this.Ld as TimeDependentDiscreteLagrangian).D2D1(A, qk, q1t, this.tArg);
    let qMax = 1;
    let pMax = 0;
    let aMax = 0;
    for (let i = 0; i < n; i++) {
      qMax = Math.max(qMax, Math.abs(qk[i]!), Math.abs(q1t[i]!));
      pMax = Math.max(pMax, Math.abs(Pk[i]!));
      let row = 0;
      for (let k = 0; k < n; k++) row += Math.abs(A[i * n + k]!);
      aMax = Math.max(aMax, row);
    }
    let wMax = 0;
    for (let a = 0; a < m; a++) {
      let row = 0;
      for (let i = 0; i < n; i++) row += Math.abs(Wk[a * n + i]!);
      wMax = Math.max(wMax, row);
    }
    const floor = 32 * Number.EPSILON * (pMax + qMax * Math.max(aMax, wMax / Math.abs(this.Ld.h)));
    this.aAtGuess = true;
    this.solveTol = Math.max(this.tol, floor);
  }

  /**
   * Newton's method on F(x) = 0 from x0 into {@link xN} to the tolerance {@link solveTol}, with
   * core's `NewtonSolver` iteration and stopping rule (no line search), written out on the stepper's buffers so that no closure,
   * result object or boxed tolerance crosses a call per step: stop when ‖F‖∞ ≤ tol, or after a
   * step with ‖Δx‖∞ ≤ 4ε·max(1, ‖x‖∞) (x fixed to working precision), or after `maxIterations`
   * Jacobian solves (not converged). A Jacobian with a zero pivot or a κ₁ estimate ≥ 1/ε throws
   * {@link SingularJacobianError}; non-finite F(x0) or J throws {@link NonFiniteError}; a
   * non-finite step, iterate or residual throws {@link NewtonDivergedError} (the solver's errors
   * and messages). Iterations and the final ‖F‖∞ land in {@link newtonIterations} and
   * {@link newtonResidual}; returns whether it converged.
   */
  private newton(x0: Float64Array, stepIndex: number): boolean {
    const { xN: x, fN: f, jac, dxN: dx, lu, history } = this;
    const tol = this.solveTol;
    const N = this.n + this.m;
    for (let i = 0; i < N; i++) x[i] = x0[i]!;
    this.F(f, x);
    let r = normInf(f, N);
    if (!Number.isFinite(r)) throw new NonFiniteError('newton: F(x0)', firstNonFinite(f, N));
    history[0] = r;
    let xNorm = normInf(x, N);
    let k = 0;
    let converged = false;
    for (;;) {
      if (r <= tol) {
        converged = true;
        break;
      }
      if (k >= this.maxIterations) break;
      this.J(jac, x);
      try {
        lu.factor(jac);
      } catch (error) {
        if (!(error instanceof NonFiniteError)) throw error;
        throw new NonFiniteError('newton: J(x)', firstNonFinite(jac, N * N));
      }
      if (lu.isSingular) throw new SingularJacobianError(k, Number.POSITIVE_INFINITY, stepIndex);
      const cond = lu.conditionEstimate();
      if (!(cond < SINGULAR_JACOBIAN_CONDITION))
        throw new SingularJacobianError(k, cond, stepIndex);
      for (let i = 0; i < N; i++) dx[i] = -f[i]!;
      lu.solve(dx, dx);
      k++;
      const dxNorm = normInf(dx, N);
      if (!Number.isFinite(dxNorm))
        throw this.diverged(k, r, stepIndex, 'produced a non-finite step');
      const smallStep = dxNorm <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, xNorm);
      for (let i = 0; i < N; i++) x[i] = x[i]! + dx[i]!;
      xNorm = normInf(x, N);
      if (!Number.isFinite(xNorm))
        throw this.diverged(k, r, stepIndex, 'produced a non-finite iterate');
      this.F(f, x);
      r = normInf(f, N);
      history[k] = r;
      if (!Number.isFinite(r))
        throw this.diverged(k, r, stepIndex, 'produced a non-finite residual');
      if (smallStep && r > tol) {
        converged = true;
        break;
      }
    }
    this.newtonIterations = k;
    this.newtonResidual = r;
    return converged;
  }

  /** The solver's {@link NewtonDivergedError} with the ‖F‖∞ history (cold path). */
  private diverged(k: number, r: number, stepIndex: number, reason: string): NewtonDivergedError {
    const h = Array.from(this.history.subarray(0, Math.min(k, this.history.length - 1) + 1));
    return new NewtonDivergedError(k, r, stepIndex, reason, undefined, h);
  }

  /**
   * Position form (spec 000 §8.2, (20)): one step from (q_{k−1}, q_k), i.e. {@link solve} with
   * P_k = D₂L_d(q_{k−1}, q_k) and the extrapolated guess 2q_k − q_{k−1}.
   */
  stepPosition(qPrev: Float64Array, qk: Float64Array, stepIndex = 0): LagrangeDiracStepResult {
    const { n, posP, posGuess } = this;
    this.tk = 0;
    this.tArg = this.autonomous ? undefined : 0;
    this.uk = this.zeroInput;
    this.Ld.D2(posP, qPrev, qk);
    for (let i = 0; i < n; i++) posGuess[i] = 2 * qk[i]! - qPrev[i]!;
    return this.solve(qk, posP, posGuess, stepIndex);
  }

  /**
   * Solves one step from (q_k, P_k) (P_k = D₂L_d(q_{k−1}, q_k), or p₀ at k = 0) with initial guess
   * `guess` for q_{k+1} (default q_k) and the previous solve's λ as the guess of λ_k, at time `t`
   * with input `u` (default 0; a forced stepper's force is evaluated there). Throws
   * {@link NewtonDivergedError} naming `stepIndex` if Newton fails. Returns the stepper's own
   * result object.
   */
  solve(
    qk: Float64Array,
    Pk: Float64Array,
    guess?: Float64Array,
    stepIndex = 0,
    t = 0,
    u: Float64Array = this.zeroInput,
  ): LagrangeDiracStepResult {
    const { n, m, res, x0 } = this;
    this.setInput(t, u);
    this.qk.set(qk);
    this.Pk.set(Pk);
    for (let i = 0; i < n; i++) x0[i] = guess ? guess[i]! : qk[i]!;
    for (let a = 0; a < m; a++) x0[n + a] = res.lambda[a]!;
    return this.run(stepIndex);
  }

  /** The solve from qk, Pk and x0 as set by the caller. */
  private run(stepIndex: number): LagrangeDiracStepResult {
    const { n, m, res, x0 } = this;
    const Ld = this.Ld as TimeDependentDiscreteLagrangian;
    const h = Ld.h;
    const t = this.tArg;
    this.Delta.A(this.Wk, this.qk);
    this.residualFloor(x0);
    if (!this.newton(x0, stepIndex)) {
      throw new NewtonDivergedError(
        this.newtonIterations,
        this.newtonResidual,
        stepIndex,
        'Lagrange–Dirac step',
      );
    }
    const x = this.xN;
    for (let i = 0; i < n; i++) res.q1[i] = x[i]!;
    for (let a = 0; a < m; a++) res.lambda[a] = x[n + a]!;
    for (let i = 0; i < n; i++) res.v[i] = (res.q1[i]! - this.qk[i]!) / h;
    Ld.D2(res.P1, this.qk, res.q1, t);
    const fd = this.discreteForce;
    if (fd !== undefined && fd.weightPlus !== 0) {
      // forced F⁺: P_{k+1} = D₂L_d + f_d⁺
      fd.plus(this.fvec, this.tk, this.qk, res.q1, this.uk);
      for (let i = 0; i < n; i++) res.P1[i] = res.P1[i]! + this.fvec[i]!;
    }
    if (this.sign === 'plus') res.p.set(this.Pk);
    else {
      Ld.D1(res.p, this.qk, res.q1, t);
      if (fd !== undefined && fd.weightMinus !== 0) {
        // forced F⁻: p_k = −D₁L_d − f_d⁻
        fd.minus(this.fvec, this.tk, this.qk, res.q1, this.uk);
        for (let i = 0; i < n; i++) res.p[i] = res.p[i]! + this.fvec[i]!;
      }
      for (let i = 0; i < n; i++) res.p[i] = -res.p[i]!;
    }
    res.iterations = this.newtonIterations;
    res.residualNorm = this.newtonResidual;
    return res;
  }

  /**
   * The step system at x = (q_{k+1}, λ_k) from (q_k, P_k), into `out` (n + m): F1 = P_k +
   * D₁L_d(q_k, q_{k+1}) + hW(q_k)ᵀλ, F2 = W(c)(q_{k+1} − q_k)/h (c = q_k (+), q_{k+1} (−)). Cold
   * path, for diagnostics and tests (it overwrites the solve's scratch).
   */
  residual(
    out: Float64Array,
    qk: ArrayLike<number>,
    Pk: ArrayLike<number>,
    x: Float64Array,
    t = 0,
    u: Float64Array = this.zeroInput,
  ): void {
    this.setInput(t, u);
    this.setStart(qk, Pk);
    this.F(out, x);
  }

  /**
   * The Newton Jacobian ∂F/∂(q_{k+1}, λ) of {@link residual} at x ((n + m)², row-major), at time
   * t with input u (default 0).
   */
  jacobian(
    out: Float64Array,
    qk: ArrayLike<number>,
    Pk: ArrayLike<number>,
    x: Float64Array,
    t = 0,
    u: Float64Array = this.zeroInput,
  ): void {
    this.setInput(t, u);
    this.setStart(qk, Pk);
    this.J(out, x);
  }

  private setInput(t: number, u: Float64Array): void {
    if (u.length !== this.inputSize)
      throw new DimensionError('LagrangeDiracStepper: u', this.inputSize, u.length);
    this.tk = t;
    // one boxed time per step for a time-dependent L_d (a tagged field), none for an autonomous one
    this.tArg = this.autonomous ? undefined : t;
    this.uk = u;
  }

  private setStart(qk: ArrayLike<number>, Pk: ArrayLike<number>): void {
    const n = this.n;
    if (qk.length !== n) throw new DimensionError('LagrangeDiracStepper: qk', n, qk.length);
    if (Pk.length !== n) throw new DimensionError('LagrangeDiracStepper: Pk', n, Pk.length);
    for (let i = 0; i < n; i++) {
      this.qk[i] = qk[i]!;
      this.Pk[i] = Pk[i]!;
    }
    this.Delta.A(this.Wk, this.qk);
    this.aAtGuess = false;
  }

  /**
   * The flat state `[q_0, P_0, guess of q_1, 0]` of a run (a new array); see
   * {@link integrateLagrangeDirac} for the guesses it uses.
   */
  initialState(
    q0: ArrayLike<number>,
    P0: ArrayLike<number>,
    guess: ArrayLike<number>,
  ): Float64Array {
    const n = this.n;
    if (q0.length !== n) throw new DimensionError('LagrangeDiracStepper: q0', n, q0.length);
    if (P0.length !== n) throw new DimensionError('LagrangeDiracStepper: P0', n, P0.length);
    if (guess.length !== n)
      throw new DimensionError('LagrangeDiracStepper: guess', n, guess.length);
    const s = new Float64Array(this.stateSize);
    for (let i = 0; i < n; i++) {
      s[i] = q0[i]!;
      s[n + i] = P0[i]!;
      s[2 * n + i] = guess[i]!;
    }
    return s;
  }

  /** Loads (q_k, P_k, guess, λ) from a state into the solve's inputs. */
  private load(state: Float64Array): void {
    const { n, m, x0 } = this;
    for (let i = 0; i < n; i++) {
      this.qk[i] = state[i]!;
      this.Pk[i] = state[n + i]!;
      x0[i] = state[2 * n + i]!;
    }
    for (let a = 0; a < m; a++) x0[n + a] = state[3 * n + a]!;
  }

  /**
   * Forgets the diagnostics of a previous run and keeps its initial time t0 (default 0; step k
   * then leaves t0 + k·h). Core's `integrate` calls it before the first step.
   */
  reset(_state?: Float64Array, t0 = 0): void {
    this.t0 = t0;
    this.lastResidual = 0;
    this.peek.iterations = 0;
    this.peek.residualNorm = Number.NaN;
    this.peekFailure = undefined;
  }

  /**
   * Advances the state [q_k, P_k, guess, λ] by step k (h must be the discrete Lagrangian's), from
   * t_k = t0 + k·h (t0 of the last {@link reset}, 0 before any): solves for (q_{k+1}, λ_k) and
   * moves to [q_{k+1}, P_{k+1}, 2q_{k+1} − q_k, λ_k]. Returns the Newton iterations; on failure
   * ({@link NewtonDivergedError} naming step k) the state is unchanged.
   */
  step(state: Float64Array, k: number, h: number, u?: Float64Array): number {
    if (h !== this.Ld.h)
      throw new DomainError('LagrangeDiracStepper.step: h', h, `must be L_d's h = ${this.Ld.h}`);
    const { n, m } = this;
    const t = this.t0 + k * h;
    this.setInput(t, u ?? this.zeroInput);
    this.load(state);
    const r = this.run(k);
    // the step's data, for stepDerivatives
    for (let i = 0; i < n; i++) {
      this.lastQP[i] = this.qk[i]!;
      this.lastQP[n + i] = this.Pk[i]!;
      this.lastY[i] = r.q1[i]!;
    }
    for (let a = 0; a < m; a++) this.lastY[n + a] = r.lambda[a]!;
    for (let i = 0; i < this.inputSize; i++) this.lastU[i] = this.uk[i]!;
    this.lastT = t;
    this.hasLastStep = true;
    for (let i = 0; i < n; i++) {
      const q1 = r.q1[i]!;
      state[2 * n + i] = 2 * q1 - state[i]!;
      state[i] = q1;
      state[n + i] = r.P1[i]!;
    }
    for (let a = 0; a < m; a++) state[3 * n + a] = r.lambda[a]!;
    this.lastResidual = r.residualNorm;
    return r.iterations;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) on the state
   * x = [q, P, guess, λ] (size 3n + m) and the input u (size `inputSize`): `dxdx` ← ∂x_{k+1}/∂x_k
   * and `dxdu` ← ∂x_{k+1}/∂u_k (row-major). With y = (q_{k+1}, λ_k) the root of F(y; q_k, P_k, u_k)
   * (class doc), the implicit function theorem gives ∂y/∂(q, P, u) = −J⁻¹ ∂F/∂(q, P, u), J the
   * Newton Jacobian ∂F/∂y evaluated and factored at the accepted y, with
   * ```
   * ∂F1/∂q = ∂(D₁L_d)/∂q_k + ∂f_d⁻/∂q_k + h ∂(W(q)ᵀλ)/∂q,   ∂F1/∂P = I,   ∂F1/∂u = ∂f_d⁻/∂u,
   * ∂F2/∂q = (∂W/∂q(q_k)[q_{k+1} − q_k] − W(q_k))/h (+),   −W(q_{k+1})/h (−),
   * ```
   * then the chain rule through P_{k+1} = D₂L_d + f_d⁺ (∂/∂q_k = (D₂D₁L_d)ᵀ, the mixed partial)
   * and the new guess 2q_{k+1} − q_k. The guess and λ entries of x_k do not change x_{k+1} (their
   * columns are 0). ∂(D₁L_d)/∂q_k, ∂(D₂L_d)/∂q_{k+1} and ∂W/∂q are central differences
   * (relative step `CENTRAL_DIFFERENCE_STEP`; the vocabulary's L_d has only D2D1). Cold path:
   * allocates its scratch on the first call.
   *
   * @throws {@link DomainError} before any step; {@link DimensionError} for wrong output lengths;
   *   {@link SingularMatrixError} for a singular J.
   * @example
   * ```ts
   * const disk = verticalRollingDisk();
   * const st = new LagrangeDiracStepper(discretize(disk.lagrangian, 0.01, 'left'), disk.distribution, 'dirac-plus');
   * const x = st.initialState([0, 0, 0, 0], [1, 0, 1, 1], [0.01, 0, 0.01, 0.01]);
   * st.step(x, 0, 0.01);
   * const A = new Float64Array(st.stateSize ** 2);
   * st.stepDerivatives(A, new Float64Array(0)); // A[0] = ∂q₁[0]/∂q₀[0]
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { n, m, Delta } = this;
    const Ld = this.Ld as TimeDependentDiscreteLagrangian;
    const mu = this.inputSize;
    const S = this.stateSize;
    const h = Ld.h;
    checkStepDerivatives(
      'LagrangeDiracStepper.stepDerivatives',
      this.hasLastStep ? undefined : 'no step taken',
      dxdx,
      dxdu,
      S,
      mu,
      n + m,
    );
    this.derivatives ??= lagrangeDiracDerivativeScratch(n, m, mu);
    const d = this.derivatives;
    const { J, Fx, D11, D22, Fq0, Fq1, Fu, Wq, Wp, Wm, dW, rhs, col, a, b, lu } = d;
    const q = d.q;
    const q1 = d.q1;
    for (let i = 0; i < n; i++) {
      q[i] = this.lastQP[i]!;
      q1[i] = this.lastY[i]!;
    }
    const lambda = this.lastY.subarray(n);
    const u = this.lastU;
    const t = this.lastT;
    // the Newton Jacobian at the accepted (q_{k+1}, λ_k)
    this.setInput(t, u);
    this.setStart(q, this.lastQP.subarray(n));
    this.J(J, this.lastY);
    const s = n + m;
    lu.factor(J);
    if (lu.isSingular) throw new SingularMatrixError('LagrangeDiracStepper.stepDerivatives: J', -1);
    // central differences: D11 = ∂(D₁L_d)/∂q_k, D22 = ∂(D₂L_d)/∂q_{k+1}
    for (let j = 0; j < n; j++) {
      const e0 = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(q[j]!));
      const x0 = q[j]!;
      q[j] = x0 + e0;
      Ld.D1(a, q, q1, t);
      q[j] = x0 - e0;
      Ld.D1(b, q, q1, t);
      q[j] = x0;
      for (let i = 0; i < n; i++) D11[i * n + j] = (a[i]! - b[i]!) / (2 * e0);
      const e1 = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(q1[j]!));
      const y0 = q1[j]!;
      q1[j] = y0 + e1;
      Ld.D2(a, q, q1, t);
      q1[j] = y0 - e1;
      Ld.D2(b, q, q1, t);
      q1[j] = y0;
      for (let i = 0; i < n; i++) D22[i * n + j] = (a[i]! - b[i]!) / (2 * e1);
    }
    Ld.D2D1(d.D21, q, q1, t);
    const { fw } = d;
    forceJacobianWithWeights(fw, Fq0, Fq1, Fu, this.discreteForce, t, q, q1, u);
    const wm = fw[0]!;
    const wp = fw[1]!;
    // ∂F/∂q_k (s×n) into Fx: F1 rows and F2 rows
    Delta.A(Wq, q);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) Fx[i * n + j] = D11[i * n + j]! + wm * Fq0[i * n + j]!;
    for (let j = 0; j < n; j++) {
      // dW = ∂W/∂q_j at q_k (m×n)
      const x0 = q[j]!;
      const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x0));
      q[j] = x0 + e;
      Delta.A(Wp, q);
      q[j] = x0 - e;
      Delta.A(Wm, q);
      q[j] = x0;
      for (let r = 0; r < m * n; r++) dW[r] = (Wp[r]! - Wm[r]!) / (2 * e);
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (let c = 0; c < m; c++) v += dW[c * n + i]! * lambda[c]!;
        Fx[i * n + j] = Fx[i * n + j]! + h * v;
      }
      for (let c = 0; c < m; c++) {
        let v = 0;
        if (this.sign === 'plus') {
          for (let i = 0; i < n; i++) v += dW[c * n + i]! * (q1[i]! - q[i]!);
          v -= Wq[c * n + j]!;
        }
        Fx[(n + c) * n + j] = v / h;
      }
    }
    if (this.sign === 'minus') {
      Delta.A(Wp, q1);
      for (let c = 0; c < m; c++)
        for (let j = 0; j < n; j++) Fx[(n + c) * n + j] = -Wp[c * n + j]! / h;
    }
    dxdx.fill(0);
    dxdu.fill(0);
    // columns: j < n: q_j; n ≤ j < 2n: P_{j−n}; then the inputs (guess and λ columns stay 0)
    for (let j = 0; j < 2 * n + mu; j++) {
      for (let i = 0; i < s; i++) {
        let r = 0;
        if (j < n) r = Fx[i * n + j]!;
        else if (j < 2 * n) r = i === j - n ? 1 : 0;
        else if (i < n) r = wm * Fu[i * mu + (j - 2 * n)]!;
        rhs[i] = -r;
      }
      lu.solve(rhs, col); // (δq_{k+1}, δλ_k)
      const out = j < 2 * n ? dxdx : dxdu;
      const w = j < 2 * n ? S : mu;
      const c = j < 2 * n ? j : j - 2 * n;
      for (let i = 0; i < n; i++) {
        out[i * w + c] = col[i]!;
        out[(2 * n + i) * w + c] = 2 * col[i]! - (j === i ? 1 : 0);
        // δP_{k+1} = (D₂D₁)ᵀδq + D₂₂δq_{k+1} + w⁺(F̄_{q0}δq + F̄_{q1}δq_{k+1} + F̄_u δu)
        let v = j < n ? d.D21[j * n + i]! : 0;
        let f = j < n ? Fq0[i * n + j]! : j >= 2 * n ? Fu[i * mu + (j - 2 * n)]! : 0;
        for (let l = 0; l < n; l++) {
          v += D22[i * n + l]! * col[l]!;
          f += Fq1[i * n + l]! * col[l]!;
        }
        out[(n + i) * w + c] = v + wp * f;
      }
      for (let a2 = 0; a2 < m; a2++) out[(3 * n + a2) * w + c] = col[n + a2]!;
    }
  }

  /** Writes q_k of the state. */
  record(out: Float64Array, state: Float64Array): void {
    for (let i = 0; i < this.n; i++) out[i] = state[i]!;
  }

  /** Writes p_k, λ_k, E^±_d and the constraint residual of the step just taken. */
  recordLeaving(out: Float64Array): void {
    this.leaving(out);
  }

  /**
   * The leaving series of the step from `state` (a look-ahead solve that leaves the state and
   * {@link lastResidual} alone; its Newton work lands in {@link peek}). NaN when it fails.
   */
  peekLeaving(
    out: Float64Array,
    state: Float64Array,
    k: number,
    t = 0,
    _h?: number,
    u?: Float64Array,
  ): void {
    this.setInput(t, u ?? this.zeroInput);
    this.load(state);
    let r: LagrangeDiracStepResult;
    try {
      r = this.run(k);
    } catch (e) {
      this.peek.iterations = 0;
      this.peek.residualNorm = Number.NaN;
      this.peekFailure = `the look-ahead step from the last state failed (${(e as Error).message}): its p, lambda, energy and constraint are NaN`;
      return;
    }
    this.peek.iterations = r.iterations;
    this.peek.residualNorm = r.residualNorm;
    this.leaving(out);
  }

  /** The diagnostics of a run: a failed look-ahead solve. */
  warnings(): readonly string[] {
    return this.peekFailure === undefined ? [] : [this.peekFailure];
  }

  /** out ← [p_k, λ_k, E^±_d, ‖W(c) v_k‖∞] of the last solve (from q_k = this.qk). */
  private leaving(out: Float64Array): void {
    const { n, m, res, Ld, W1 } = this;
    const plus = this.sign === 'plus';
    for (let i = 0; i < n; i++) out[i] = res.p[i]!;
    for (let a = 0; a < m; a++) out[n + a] = res.lambda[a]!;
    // E⁺_d(q_k, v_k, p_{k+1}) or E⁻_d(q_{k+1}, v_k, p_k)
    out[n + m] = discreteEnergy(Ld, this.qk, res.q1, plus ? res.P1 : res.p, this.tk);
    this.Delta.A(W1, plus ? this.qk : res.q1);
    let c = 0;
    for (let a = 0; a < m; a++) {
      let d = 0;
      for (let i = 0; i < n; i++) d += W1[a * n + i]! * res.v[i]!;
      c = Math.max(c, Math.abs(d));
    }
    out[n + m + 1] = c;
  }
}

/** Scratch of {@link LagrangeDiracStepper.stepDerivatives} (allocated on its first call). */
interface LagrangeDiracDerivativeScratch {
  readonly J: Float64Array;
  readonly Fx: Float64Array;
  readonly D11: Float64Array;
  readonly D21: Float64Array;
  readonly D22: Float64Array;
  readonly Fq0: Float64Array;
  readonly Fq1: Float64Array;
  readonly Fu: Float64Array;
  /** [h w⁻, h w⁺] of the force (0, 0 without one). */
  readonly fw: Float64Array;
  readonly Wq: Float64Array;
  readonly Wp: Float64Array;
  readonly Wm: Float64Array;
  readonly dW: Float64Array;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly q: Float64Array;
  readonly q1: Float64Array;
  readonly lu: DenseLU;
}

function lagrangeDiracDerivativeScratch(
  n: number,
  m: number,
  mu: number,
): LagrangeDiracDerivativeScratch {
  const s = n + m;
  const w = Math.max(1, m * n);
  return {
    J: new Float64Array(s * s),
    Fx: new Float64Array(s * n),
    D11: new Float64Array(n * n),
    D21: new Float64Array(n * n),
    D22: new Float64Array(n * n),
    Fq0: new Float64Array(n * n),
    Fq1: new Float64Array(n * n),
    Fu: new Float64Array(Math.max(1, n * mu)),
    fw: new Float64Array(2),
    Wq: new Float64Array(w),
    Wp: new Float64Array(w),
    Wm: new Float64Array(w),
    dW: new Float64Array(w),
    rhs: new Float64Array(s),
    col: new Float64Array(s),
    a: new Float64Array(n),
    b: new Float64Array(n),
    q: new Float64Array(n),
    q1: new Float64Array(n),
    lu: new DenseLU(s),
  };
}

// ---------------------------------------------------------------------------------------------
// energies, residuals, initialization

/**
 * The discrete generalized energy E^±_d (spec 000 Def 7.1, Remark 7.2):
 * E = ⟨p, (q₁ − q₀)/h⟩ − L_d(q₀, q₁)/h, with p = p_{k+1} (+, base (q_k, p_{k+1})) or p = p_k (−,
 * base (q_{k+1}, p_k)). For L = ½vᵀMv − V and the left/right rules this is the Legendre image
 * ½pᵀM⁻¹p + V(q_k) (+) or + V(q_{k+1}) (−) of spec 000 §8.5. `t` is the step's t_k for a
 * time-dependent L_d (see {@link TimeDependentDiscreteLagrangian}).
 */
export function discreteEnergy(
  Ld: DiscreteLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  p: Float64Array,
  t?: number,
): number {
  const h = Ld.h;
  let s = 0;
  for (let i = 0; i < Ld.n; i++) s += p[i]! * (q1[i]! - q0[i]!);
  return (s - (Ld as TimeDependentDiscreteLagrangian).Ld(q0, q1, t)) / h;
}

/**
 * The discrete action sums of spec 000 Def 7.3 (Theorem 7.4):
 *   𝔖⁺_d = Σ_{k<N} [L_d(q_k, q_k + h v_k) + ⟨p_{k+1}, q_{k+1} − q_k − h v_k⟩],
 *   𝔖⁻_d = Σ_{k<N} [L_d(q_{k+1} − h v_k, q_{k+1}) + ⟨p_k, q_{k+1} − q_k − h v_k⟩],
 * i.e. Σ h[Θ^±_d − E^±_d] with v_k free. Stationarity in v_k and p (with δq_k ∈ Δ(q_k) for (+),
 * δq_{k+1} ∈ Δ(q_{k+1}) for (−), fixed end points) is the (±) Lagrange–d'Alembert–Pontryagin
 * system (58)/(59). Flat row-major arguments: `qs` and `ps` hold N + 1 rows, `vs` holds N rows.
 *
 * @throws {@link DimensionError} when the lengths do not fit N + 1, N, N + 1 rows of n.
 * @example
 * ```ts
 * const Ld = discretize(quadraticLagrangian([1]), 0.1, 'left'); // L = ½v², h = 0.1
 * const qs = [0, 0.1, 0.2], vs = [1, 1], ps = [1, 1, 1]; // uniform motion, v = p = 1
 * discreteActionSum('plus', Ld, qs, vs, ps); // 0.1 = Σ h·½v²
 * ```
 */
export function discreteActionSum(
  sign: LagrangeDiracSign,
  Ld: DiscreteLagrangian,
  qs: ArrayLike<number>,
  vs: ArrayLike<number>,
  ps: ArrayLike<number>,
): number {
  const n = Ld.n;
  const N = vs.length / n;
  if (!Number.isInteger(N)) throw new DimensionError('discreteActionSum: vs', n, vs.length);
  if (qs.length !== (N + 1) * n)
    throw new DimensionError('discreteActionSum: qs', (N + 1) * n, qs.length);
  if (ps.length !== (N + 1) * n)
    throw new DimensionError('discreteActionSum: ps', (N + 1) * n, ps.length);
  const h = Ld.h;
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  let S = 0;
  for (let k = 0; k < N; k++) {
    let pair = 0;
    const pOff = (sign === 'plus' ? k + 1 : k) * n;
    for (let i = 0; i < n; i++) {
      const q0 = qs[k * n + i]!;
      const q1 = qs[(k + 1) * n + i]!;
      const hv = h * vs[k * n + i]!;
      if (sign === 'plus') {
        a[i] = q0;
        b[i] = q0 + hv;
      } else {
        a[i] = q1 - hv;
        b[i] = q1;
      }
      pair += ps[pOff + i]! * (q1 - q0 - hv);
    }
    S += Ld.Ld(a, b) + pair;
  }
  return S;
}

/**
 * Consistent initial data of the (±) scheme from (q₀, p₀) (spec 000 §8.2 "Initialization",
 * §12.11): solves the first step and returns q₁, the LdAP momentum p₀ (for (−) the projection
 * −D₁L_d(q₀, q₁) of p₀ onto the admissible set M⁻, for (+) p₀ itself) and the multiplier λ₀ of the
 * projection (0 iff p₀ was already consistent). Cold path (allocates).
 */
export function consistentInitialData(
  Ld: DiscreteLagrangian,
  Delta: Distribution,
  method: LagrangeDiracMethodName,
  q0: ArrayLike<number>,
  p0: ArrayLike<number>,
  options: LagrangeDiracStepOptions = {},
): { q1: Float64Array; p0: Float64Array; lambda: Float64Array } {
  const st = new LagrangeDiracStepper(Ld, Delta, method, options);
  const r = st.solve(Float64Array.from(q0), Float64Array.from(p0));
  return {
    q1: Float64Array.from(r.q1),
    p0: Float64Array.from(r.p),
    lambda: Float64Array.from(r.lambda),
  };
}

/**
 * The M-orthogonal projection v − M⁻¹Wᵀ(WM⁻¹Wᵀ)⁻¹Wv of v onto Δ(q) (M = ∂²L/∂v², W = A(q)),
 * the consistent initial velocity of spec 000 §8.2 "Initialization". Cold path (allocates).
 */
export function projectVelocityToDistribution(
  L: Lagrangian,
  Delta: Distribution,
  q: Float64Array,
  v: Float64Array,
): Float64Array {
  const n = L.n;
  const m = Delta.m;
  const out = Float64Array.from(v);
  if (m === 0) return out;
  const M = L.Lvv(new Float64Array(n * n), q, v);
  const W = Delta.A(new Float64Array(m * n), q);
  // Solve the KKT system [[M, Wᵀ],[W, 0]] [u; μ] = [M v; 0]: u is the projection.
  const s = n + m;
  const K = new Float64Array(s * s);
  const rhs = new Float64Array(s);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      K[i * s + k] = M[i * n + k]!;
      rhs[i] = rhs[i]! + M[i * n + k]! * v[k]!;
    }
    for (let a = 0; a < m; a++) {
      K[i * s + n + a] = W[a * n + i]!;
      K[(n + a) * s + i] = W[a * n + i]!;
    }
  }
  const x = solveDense('projectVelocityToDistribution: [M Wᵀ; W 0]', K, rhs, s);
  for (let i = 0; i < n; i++) out[i] = x[i]!;
  return out;
}

/**
 * x ← K⁻¹b by core's {@link DenseLU} (partial pivoting; cold path, allocates).
 * @throws {@link SingularMatrixError} naming `what` for an exactly singular K.
 */
function solveDense(what: string, K: Float64Array, b: Float64Array, s: number): Float64Array {
  const lu = new DenseLU(s).factor(K);
  if (lu.isSingular) throw new SingularMatrixError(what, -1);
  return lu.solve(b, new Float64Array(s));
}

/**
 * Distance of α from the row space Δ°(q) = rowspace W(q) (least squares, cold path): the
 * annihilator residual of spec 000 §11 `annihilatorResidual`, ‖α − Wᵀμ*‖∞.
 */
export function annihilatorResidual(
  Delta: Distribution,
  q: Float64Array,
  alpha: Float64Array,
): number {
  const n = Delta.n;
  const m = Delta.m;
  if (m === 0) return alpha.reduce((s, x) => Math.max(s, Math.abs(x)), 0);
  const W = Delta.A(new Float64Array(m * n), q);
  const G = new Float64Array(m * m);
  const r = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    for (let c = 0; c < m; c++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += W[a * n + i]! * W[c * n + i]!;
      G[a * m + c] = s;
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += W[a * n + i]! * alpha[i]!;
    r[a] = s;
  }
  const mu = solveDense('annihilatorResidual: W Wᵀ', G, r, m);
  let e = 0;
  for (let i = 0; i < n; i++) {
    let s = alpha[i]!;
    for (let a = 0; a < m; a++) s -= W[a * n + i]! * mu[a]!;
    e = Math.max(e, Math.abs(s));
  }
  return e;
}

/**
 * Residual of the (+)-discrete Lagrange–d'Alembert equations (20)/(19) at (q_{k−1}, q_k, q_{k+1}):
 * max of the annihilator residual of D₁L_d(q_k, q_{k+1}) + D₂L_d(q_{k−1}, q_k) in Δ°(q_k) and of
 * ‖W(c)(q_{k+1} − q_k)‖∞/|h| with c = q_k (+) or q_{k+1} (−) (spec 000 Thm 6.8). Cold path.
 */
export function discreteLagrangeDAlembertResidual(
  Ld: DiscreteLagrangian,
  Delta: Distribution,
  sign: LagrangeDiracSign,
  qm: Float64Array,
  q: Float64Array,
  qp: Float64Array,
): number {
  const n = Ld.n;
  const a = Ld.D1(new Float64Array(n), q, qp);
  const b = Ld.D2(new Float64Array(n), qm, q);
  for (let i = 0; i < n; i++) a[i] = a[i]! + b[i]!;
  const r1 = annihilatorResidual(Delta, q, a);
  const W = Delta.A(new Float64Array(Math.max(1, Delta.m * n)), sign === 'plus' ? q : qp);
  let r2 = 0;
  for (let c = 0; c < Delta.m; c++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += W[c * n + i]! * (qp[i]! - q[i]!);
    r2 = Math.max(r2, Math.abs(s / Ld.h));
  }
  return Math.max(r1, r2);
}

// ---------------------------------------------------------------------------------------------
// trajectories

/** Initial data of {@link integrateLagrangeDirac}: exactly one of v0, p0, q1 (with q0). */
export interface LagrangeDiracInit {
  readonly q0: ArrayLike<number>;
  /** Initial velocity; p₀ = ∂L/∂v(q₀, v₀). */
  readonly v0?: ArrayLike<number>;
  /** Initial momentum (for (−) it is projected onto the admissible set by the first step). */
  readonly p0?: ArrayLike<number>;
  /** Second position (position form): p₀ = −D₁L_d(q₀, q₁), spec 000 §8.2 "Initialization". */
  readonly q1?: ArrayLike<number>;
}

/**
 * Options of {@link integrateLagrangeDirac}: the step's options, the quadrature, and core's
 * recording options (`every`: store k = 0, every, 2·every, … and always k = steps; `onProgress`,
 * `onFailure`, `maxRecordBytes`, `t0` (the force is evaluated at t0 + k·h), and `inputs`, the
 * control sequence u_0 … u_{steps−1} of a forced system, a flat `steps × force.m` array or a
 * function of (k, t)).
 */
export interface LagrangeDiracOptions extends LagrangeDiracStepOptions, IntegrateRecordingOptions {
  /** Quadrature of L_d (default left for 'dirac-plus', right for 'dirac-minus', spec 000 §8.4). */
  readonly rule?: DiscreteRule;
  /** A user discrete Lagrangian (overrides `rule`; its h must equal the step h). */
  readonly Ld?: DiscreteLagrangian;
}

/** A (±) Lagrange–Dirac trajectory: core's {@link Solution} of the {@link LagrangeDiracSeries}. */
export type LagrangeDiracSolution = Solution<LagrangeDiracSeries>;

/**
 * Integrates the (±)-discrete Lagrange–Dirac system (spec 000 Def 6.7, Thm 6.8 (53)/(54)) for
 * `steps` steps of size h (h < 0 runs the scheme backwards) through core's `integrate` over a
 * {@link LagrangeDiracStepper}: one bordered Newton solve per step. Sample k holds q_k, the LdAP
 * momentum p_k, the multiplier λ_k at q_k, E^±_d and the discrete constraint residual of step
 * k → k+1; a final look-ahead solve supplies them at k = steps (NaN and a warning if it fails).
 * The Newton statistics count the look-ahead solve too (steps + 1 solves).
 *
 * The first guess of q_1 is q_0 + h v_0 (from v0), q_0 (from p0) or q1 itself; later ones
 * extrapolate 2q_k − q_{k−1}.
 *
 * @throws {@link DimensionError} / {@link DomainError} for bad input; the step's error (naming it)
 *   when a solve fails.
 * @example
 * ```ts
 * const disk = verticalRollingDisk();
 * const sol = integrateLagrangeDirac(disk.lagrangian, disk.distribution, 'dirac-plus',
 *   { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] }, 0.01, 100);
 * sol.energy; // monotone decreasing (spec 000 §9.1)
 * ```
 */
export function integrateLagrangeDirac(
  L: Lagrangian,
  Delta: Distribution,
  method: LagrangeDiracMethodName,
  init: LagrangeDiracInit,
  h: number,
  steps: number,
  options: LagrangeDiracOptions = {},
): LagrangeDiracSolution {
  const n = L.n;
  if (Delta.n !== n) throw new DimensionError('integrateLagrangeDirac: Delta.n', n, Delta.n);
  const traits = methodOf('integrateLagrangeDirac: method', method);
  const Ld =
    options.Ld ?? discretize(L, h, options.rule ?? (traits.sign === 'plus' ? 'left' : 'right'));
  if (Ld.h !== h)
    throw new DomainError('integrateLagrangeDirac: Ld.h', Ld.h, `must equal h = ${h}`);
  if (init.q0.length !== n)
    throw new DimensionError('integrateLagrangeDirac: q0', n, init.q0.length);
  const given = [init.v0, init.p0, init.q1].filter((x) => x !== undefined).length;
  if (given !== 1)
    throw new DomainError('integrateLagrangeDirac: init', given, 'needs exactly one of v0, p0, q1');
  const q = Float64Array.from(init.q0);
  const P = new Float64Array(n);
  const guess = new Float64Array(n);
  if (init.p0) {
    if (init.p0.length !== n)
      throw new DimensionError('integrateLagrangeDirac: p0', n, init.p0.length);
    P.set(init.p0);
    guess.set(q);
  } else if (init.v0) {
    if (init.v0.length !== n)
      throw new DimensionError('integrateLagrangeDirac: v0', n, init.v0.length);
    const v0 = Float64Array.from(init.v0);
    L.Lv(P, q, v0);
    for (let i = 0; i < n; i++) guess[i] = q[i]! + h * v0[i]!;
  } else if (init.q1) {
    if (init.q1.length !== n)
      throw new DimensionError('integrateLagrangeDirac: q1', n, init.q1.length);
    guess.set(init.q1);
    (Ld as TimeDependentDiscreteLagrangian).D1(P, q, guess, options.t0 ?? 0);
    for (let i = 0; i < n; i++) P[i] = -P[i]!;
  }
  const stepper = new LagrangeDiracStepper(Ld, Delta, method, options);
  const sol = integrate(stepper, stepper.initialState(q, P, guess), {
    h,
    steps,
    ...recordingOptions(options),
  });
  if (!sol.ok) return sol;
  // the look-ahead solve of the last sample is Newton work of this run too
  const { peek } = stepper;
  const r = Number.isNaN(peek.residualNorm) ? 0 : peek.residualNorm;
  return extendSolution(sol, {
    stats: {
      ...sol.stats,
      newtonIterations: sol.stats.newtonIterations + peek.iterations,
      maxIterations: Math.max(sol.stats.maxIterations, peek.iterations),
      maxResidual: Math.max(sol.stats.maxResidual, r),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// the classical Heisenberg system (spec 000 §9.2)

/**
 * The classical Heisenberg system of spec 000 §9.2 / CLI.md `heisenberg`: Q = R³, L = ½|v|², the
 * one-form ω = dz − y dx + x dy (constraint ż = yẋ − xẏ, W(q) = [−y, x, 1]); `variant: 'x dy - y dx'`
 * flips the x, y entries (Bloch's convention).
 */
export function heisenbergSystem(variant: 'y dx - x dy' | 'x dy - y dx' = 'y dx - x dy'): {
  lagrangian: Lagrangian;
  distribution: Distribution;
} {
  const sgn = variant === 'y dx - x dy' ? 1 : -1;
  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 3,
    L: (_q, v) => 0.5 * (v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!),
    Lq: (out) => out.fill(0, 0, 3),
    Lv: (out, _q, v) => {
      out[0] = v[0]!;
      out[1] = v[1]!;
      out[2] = v[2]!;
      return out;
    },
    Lvv: (out) => {
      out.fill(0, 0, 9);
      out[0] = 1;
      out[4] = 1;
      out[8] = 1;
      return out;
    },
    Lvq: (out) => out.fill(0, 0, 9),
  };
  const distribution: Distribution = {
    n: 3,
    m: 1,
    A: (out, q) => {
      out[0] = -sgn * q[1]!;
      out[1] = sgn * q[0]!;
      out[2] = 1;
      return out;
    },
    Adot: (out, _q, v) => {
      out[0] = -sgn * v[1]!;
      out[1] = sgn * v[0]!;
      out[2] = 0;
      return out;
    },
    // ∂(A(q)w)/∂q = [∂/∂x, ∂/∂y, ∂/∂z] of −sgn·y·w_x + sgn·x·w_y + w_z
    dAw: (out, _q, w) => {
      out[0] = sgn * w[1]!;
      out[1] = -sgn * w[0]!;
      out[2] = 0;
      return out;
    },
  };
  return { lagrangian, distribution };
}

/** Index of the first non-finite of the first `len` entries of v, or −1 (cold path). */
function firstNonFinite(v: Float64Array, len: number): number {
  for (let i = 0; i < len; i++) if (!Number.isFinite(v[i]!)) return i;
  return -1;
}
