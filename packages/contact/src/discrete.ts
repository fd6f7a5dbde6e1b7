/**
 * Discrete contact Lagrangians L_d(q0, q1, z0) on Rⁿ (spec 004 §5.1, §7.2, §7.4, §10 "Discrete
 * Lagrangians"): the quadrature rules that turn a continuous contact Lagrangian L(q, v, z) into a
 * {@link DiscreteContactLagrangian} for a fixed step h, with every derivative the discrete
 * Herglotz step (39) and its Newton Jacobian (spec 004 §7.1) need:
 *
 * | rule                          | L_d                                   | order (measured, §6.4) |
 * |-------------------------------|---------------------------------------|------------------------|
 * | {@link midpointLd}            | h L(q_m, v, z0)  (the paper's rule)    | 1                      |
 * | {@link leftRectangleLd}       | h L(q0, v, z0)                        | 1                      |
 * | {@link implicitZMidpointLd}   | Λ = h L(q_m, v, z0 + Λ/2)  [extension] | 2                      |
 * | {@link mechanicalMidpointLd}  | (79) on Rⁿ, closed forms              | 1                      |
 * | `discreteLagrangianFromFunction` (module discreteFromFunction) | any user L_d, derivatives by differences or duals | — |
 *
 * with q_m = (q0 + q1)/2 and v = (q1 − q0)/h. The paper proves no order results (spec 004 §2,
 * §11.10): the orders above are the library's own measurements.
 *
 * Time: every method takes the step's start time t = t_k last (default 0); a time-dependent L is
 * evaluated at the rule's quadrature time, t_k + h/2 for the midpoint rules and t_k for the left
 * rectangle.
 *
 * Every vector or matrix method writes into the `out` argument given first (n-vectors, n×n
 * row-major matrices) and returns it; the objects own their scratch, so calls allocate nothing
 * (user discrete Lagrangians with derivatives by differences or dual numbers are in the module
`discreteFromFunction`).
 *
 * @module
 */
import {
  DomainError,
  NewtonSolver,
  type Potential,
  type ScalarNewtonProblem,
  SingularJacobianError,
} from '@geomech/core';
import {
  checkDimension,
  checkOut,
  checkPoint,
  checkStepSize,
  MECHANICAL_LAGRANGIANS,
  potentialHessian,
  SOLVES_BY_SOLVE_SCALAR,
} from './internal.js';
import { MechanicalImplicitZStep, SCALAR_STEP_KERNELS } from './kernels.js';
import type {
  ContactLagrangian,
  DiscreteContactLagrangian,
  DiscreteLagrangianTraits,
} from './types.js';

/**
 * Default relative tolerance of the scalar Newton iteration of {@link implicitZMidpointLd}: it
 * stops once the Newton correction satisfies |δΛ| ≤ tol·max(1, |Λ|). The iteration converges
 * quadratically, so the last (accepted) correction is far below this; 1e-14 stays above the
 * rounding floor ≈ ε·|Λ|/|1 − (h/2)L_z| of the residual, so it cannot stall on rounding noise.
 *
 * @example
 * ```ts
 * const L = mechanicalContactLagrangian(quadraticPotential(1), -0.5);
 * implicitZMidpointLd(L, 0.1, { tol: IMPLICIT_Z_NEWTON_TOL }).Ld(Float64Array.of(1), Float64Array.of(1.1), 0);
 * ```
 */
export const IMPLICIT_Z_NEWTON_TOL = 1e-14;

/**
 * Default iteration cap of the scalar Newton iteration of {@link implicitZMidpointLd}.
 *
 * @example
 * ```ts
 * IMPLICIT_Z_NEWTON_MAX_ITERATIONS; // 50
 * ```
 */
export const IMPLICIT_Z_NEWTON_MAX_ITERATIONS = 50;

/** q_m ← (q0 + q1)/2 and v ← (q1 − q0)/h. */
function midpointAndVelocity(
  qm: Float64Array,
  v: Float64Array,
  q0: Float64Array,
  q1: Float64Array,
  h: number,
): void {
  for (let i = 0; i < qm.length; i++) {
    qm[i] = 0.5 * (q0[i]! + q1[i]!);
    v[i] = (q1[i]! - q0[i]!) / h;
  }
}

/** v ← (q1 − q0)/h. */
function velocity(v: Float64Array, q0: Float64Array, q1: Float64Array, h: number): void {
  for (let i = 0; i < v.length; i++) v[i] = (q1[i]! - q0[i]!) / h;
}

// ---------------------------------------------------------------------------------------------
// The paper's midpoint rule.

/**
 * The paper's discrete Lagrangian for a general contact Lagrangian (spec 004 §7.2 [D], §7.4 row 1;
 * (77) and (79) are its mechanical cases): midpoint in q (and in time), left endpoint in z,
 *
 *   L_d(q0, q1, z0, t_k) = h L(q_m, v, z0, t_k + h/2),   q_m = (q0 + q1)/2,   v = (q1 − q0)/h,
 *
 * with, all partials of L at (q_m, v, z0, t_k + h/2),
 *
 *   D1 L_d = (h/2) L_q − L_v,   D2 L_d = (h/2) L_q + L_v,   D_z L_d = h L_z,
 *   ∂(D1 L_d)ᵢ/∂q1ⱼ = (h/4) L_qq[i,j] + ½ (L_vq[j,i] − L_vq[i,j]) − L_vv[i,j]/h,
 *   ∇_{q1}(D_z L_d) = (h/2) L_qz + L_vz      (chain rule with ∂q_m/∂q1 = I/2, ∂v/∂q1 = I/h),
 *
 * where L_vq[i,j] = ∂²L/∂vᵢ∂qⱼ (the {@link ContactLagrangian} convention). The conformal factor
 * σ_d = 1 + h L_z equals 1 + hγ for L = ½|v|² − V + γz (spec 004 §6.3). Globally first order
 * (measured, spec 004 §6.4); the local error |L_d − L_h^e| is O(h²).
 *
 * @param L - the continuous contact Lagrangian with its first and second partials.
 * @param h - the time step, finite and > 0.
 * @throws DomainError when h is not a finite positive number; DimensionError on a bad L.n.
 * @example
 * ```ts
 * // the damped oscillator L = ½v² − ½q² − 0.05 z, whose midpoint rule is (79)
 * const Ld = midpointLd(mechanicalContactLagrangian(quadraticPotential(1), -0.05), 0.5);
 * const q0 = Float64Array.of(1), q1 = Float64Array.of(2);
 * Ld.Ld(q0, q1, 0);                       // 0.4375 = z1 (spec 004 §8.2)
 * Ld.D2(new Float64Array(1), q0, q1, 0);  // [1.625] = p1
 * ```
 */
export function midpointLd(L: ContactLagrangian, h: number): DiscreteContactLagrangian {
  checkStepSize('midpointLd', h);
  const n = L.n;
  checkDimension('midpointLd', n);
  const qm = new Float64Array(n);
  const v = new Float64Array(n);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  const mqq = new Float64Array(n * n);
  const mvq = new Float64Array(n * n);
  const mvv = new Float64Array(n * n);
  const what = 'midpointLd';
  return Object.freeze({
    name: 'midpoint',
    n,
    h,
    traits: Object.freeze({ order: 1, isExact: false }),
    Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      checkPoint(what, n, q0, q1);
      midpointAndVelocity(qm, v, q0, q1, h);
      return h * L.L(qm, v, z0, t + 0.5 * h);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      const tm = t + 0.5 * h;
      L.Lq(a, qm, v, z0, tm);
      L.Lv(b, qm, v, z0, tm);
      for (let i = 0; i < n; i++) out[i] = 0.5 * h * a[i]! - b[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      const tm = t + 0.5 * h;
      L.Lq(a, qm, v, z0, tm);
      L.Lv(b, qm, v, z0, tm);
      for (let i = 0; i < n; i++) out[i] = 0.5 * h * a[i]! + b[i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      checkPoint(what, n, q0, q1);
      midpointAndVelocity(qm, v, q0, q1, h);
      return h * L.Lz(qm, v, z0, t + 0.5 * h);
    },
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      const tm = t + 0.5 * h;
      L.Lqq(mqq, qm, v, z0, tm);
      L.Lvq(mvq, qm, v, z0, tm);
      L.Lvv(mvv, qm, v, z0, tm);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const ij = i * n + j;
          out[ij] = 0.25 * h * mqq[ij]! + 0.5 * (mvq[j * n + i]! - mvq[ij]!) - mvv[ij]! / h;
        }
      }
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      const tm = t + 0.5 * h;
      L.Lqz(a, qm, v, z0, tm);
      L.Lvz(b, qm, v, z0, tm);
      for (let j = 0; j < n; j++) out[j] = 0.5 * h * a[j]! + b[j]!;
      return out;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Left rectangle.

/**
 * The left-rectangle discrete Lagrangian (spec 004 §7.4 row 2, an extension [S]):
 *
 *   L_d(q0, q1, z0, t_k) = h L(q0, v, z0, t_k),   v = (q1 − q0)/h,
 *
 * with, all partials of L at (q0, v, z0, t_k),
 *
 *   D1 L_d = h L_q − L_v,   D2 L_d = L_v,   D_z L_d = h L_z,
 *   ∂(D1 L_d)ᵢ/∂q1ⱼ = L_vq[j,i] − L_vv[i,j]/h,   ∇_{q1}(D_z L_d) = L_vz.
 *
 * Globally first order (measured, spec 004 §6.4); local error O(h²).
 *
 * @throws DomainError when h is not a finite positive number; DimensionError on a bad L.n.
 * @example
 * ```ts
 * const Ld = leftRectangleLd(mechanicalContactLagrangian(quadraticPotential(1), -0.5), 0.1);
 * const q0 = Float64Array.of(1), q1 = Float64Array.of(1.1);
 * Ld.Ld(q0, q1, 0);      // 0.1·(½·1² − ½·1²) = 0
 * 1 + Ld.Dz(q0, q1, 0);  // σ_d = 1 + hγ = 0.95
 * ```
 */
export function leftRectangleLd(L: ContactLagrangian, h: number): DiscreteContactLagrangian {
  checkStepSize('leftRectangleLd', h);
  const n = L.n;
  checkDimension('leftRectangleLd', n);
  const v = new Float64Array(n);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  const mvq = new Float64Array(n * n);
  const mvv = new Float64Array(n * n);
  const what = 'leftRectangleLd';
  return Object.freeze({
    name: 'left-rectangle',
    n,
    h,
    traits: Object.freeze({ order: 1, isExact: false }),
    Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      checkPoint(what, n, q0, q1);
      velocity(v, q0, q1, h);
      return h * L.L(q0, v, z0, t);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      L.Lq(a, q0, v, z0, t);
      L.Lv(b, q0, v, z0, t);
      for (let i = 0; i < n; i++) out[i] = h * a[i]! - b[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      return L.Lv(out, q0, v, z0, t);
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      checkPoint(what, n, q0, q1);
      velocity(v, q0, q1, h);
      return h * L.Lz(q0, v, z0, t);
    },
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      velocity(v, q0, q1, h);
      L.Lvq(mvq, q0, v, z0, t);
      L.Lvv(mvv, q0, v, z0, t);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) out[i * n + j] = mvq[j * n + i]! - mvv[i * n + j]! / h;
      }
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      return L.Lvz(out, q0, v, z0, t);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Implicit-z midpoint.

/**
 * Options of {@link implicitZMidpointLd}.
 *
 * @example
 * ```ts
 * const options: ImplicitZMidpointOptions = { tol: 1e-13, maxIterations: 20 };
 * ```
 */
export interface ImplicitZMidpointOptions {
  /** Relative tolerance on the Newton correction, |δΛ| ≤ tol·max(1, |Λ|). Default {@link IMPLICIT_Z_NEWTON_TOL}. */
  readonly tol?: number;
  /** Iteration cap of the scalar Newton iteration. Default {@link IMPLICIT_Z_NEWTON_MAX_ITERATIONS}. */
  readonly maxIterations?: number;
}

/**
 * The implicit-z midpoint discrete Lagrangian, **an extension [S] that is not in the paper**
 * (spec 004 §7.4 row 3, §11.11): midpoint in q, in z and in time,
 *
 *   L_d(q0, q1, z0, t_k) = Λ,   Λ = h L(q_m, v, z0 + Λ/2, t_k + h/2),
 *   q_m = (q0 + q1)/2,  v = (q1 − q0)/h.
 *
 * Λ is found by core's scalar Newton (`NewtonSolver.solveScalar`) on
 * F(Λ) = Λ − h L(q_m, v, z0 + Λ/2, t_k + h/2), F′ = c = 1 − (h/2)L_z, from Λ = 0, stopping when a
 * correction satisfies |δΛ| ≤ tol·max(1, |Λ|) (or F(Λ) = 0 exactly); its first iterate
 * h L(q_m, v, z0)/(1 − (h/2)L_z) is already the root when L is affine in z, L = L0(q, v) + γz,
 * where L_d = h(L0(q_m, v) + γz0)/(1 − hγ/2) (the second iteration only confirms it). The last
 * root is cached, so the derivatives at the same point reuse it.
 * With all partials of L at (q_m, v, z⋆ = z0 + Λ/2, t_k + h/2) (implicit function theorem, spec
 * 004 §7.4):
 *
 *   D1 L_d = ((h/2)L_q − L_v)/c,   D2 L_d = ((h/2)L_q + L_v)/c,   D_z L_d = h L_z/c,
 *
 * so σ_d = 1 + D_z L_d = (1 + (h/2)L_z)/(1 − (h/2)L_z) ((1 + hγ/2)/(1 − hγ/2), the Padé
 * approximant of e^{hγ}, for affine L; spec 004 §6.3). Differentiating once more, with
 * ∂z⋆/∂q1ⱼ = (D2 L_d)ⱼ/2 and the total derivative of L_z along q1ⱼ,
 *
 *   ℓⱼ = ½ L_qz[j] + L_vz[j]/h + ½ L_zz (D2 L_d)ⱼ,
 *   ∂(D1 L_d)ᵢ/∂q1ⱼ = ( (h/2)(½ L_qq[i,j] + L_vq[j,i]/h + ½ L_qz[i] (D2 L_d)ⱼ)
 *                      − (½ L_vq[i,j] + L_vv[i,j]/h + ½ L_vz[i] (D2 L_d)ⱼ)
 *                      + (h/2) (D1 L_d)ᵢ ℓⱼ ) / c,
 *   ∇_{q1}(D_z L_d)ⱼ = h ℓⱼ / c².
 *
 * Measured global order 2, local error O(h³) (spec 004 §6.4). It is still a function of
 * (q0, q1, z0) only, so the paper's theorems (conformality (48)–(49), Noether 3.11) apply.
 * For n = 1 and L from `mechanicalContactLagrangian`, `ContactIntegrator` steps it through a
 * dedicated step with these formulas specialized to L = ½v² − V + γz (bit-identical to the
 * generic path, ~4× faster, allocation-free).
 *
 * @throws DomainError on a bad h or options; SingularJacobianError when c = 1 − (h/2)L_z = 0;
 *   NewtonDivergedError when Λ does not converge or becomes non-finite; NonFiniteError when
 *   L is not finite at Λ = 0.
 * @example
 * ```ts
 * const Ld = implicitZMidpointLd(mechanicalContactLagrangian(quadraticPotential(1), -0.5), 0.1);
 * const q0 = Float64Array.of(1), q1 = Float64Array.of(1.1);
 * Ld.Ld(q0, q1, 2);      // 0.1·(½·1² − ½·1.05² − 0.5·2)/(1 + 0.025)
 * 1 + Ld.Dz(q0, q1, 2);  // σ_d = (1 − 0.025)/(1 + 0.025), the Padé approximant of e^{−0.05}
 * ```
 */
export function implicitZMidpointLd(
  L: ContactLagrangian,
  h: number,
  options: ImplicitZMidpointOptions = {},
): DiscreteContactLagrangian {
  return new ImplicitZMidpointLd(L, h, options);
}

// Slots of ImplicitZMidpointLd's scratch: the doubles of the point being evaluated and of the
// cached root live in a Float64Array, not in fields of closures (a double written to a closure
// variable is a fresh heap number) nor in arguments of calls V8 does not inline (boxed).
/** z0 of the point being evaluated. */
const Z0 = 0;
/** Its start time t_k. */
const T = 1;
/** Its quadrature time t_m = t_k + h/2 (set by `prepare`). */
const TM = 2;
/** Λ = L_d at the prepared point. */
const LAMBDA = 3;
/** z⋆ = z0 + Λ/2 at the prepared point. */
const ZSTAR = 4;
/** z0, t_m of the cached root, and 1 when the cache holds one. */
const CZ0 = 5;
const CTM = 6;
const CACHED = 7;
/** c = 1 − (h/2)L_z and D_z L_d, left by `denominator`. */
const C = 8;
const DZ = 9;
// what ImplicitZMidpointLd.evaluate computes
const LD = 0;
const D1 = 1;
const D2 = 2;
const DZ_KIND = 3;
const D2D1 = 4;
const D2DZ = 5;

/**
 * The scalar equation F(Λ) = Λ − h L(q_m, v, z0 + Λ/2, t_m) = 0 of {@link implicitZMidpointLd}, with
 * F′(Λ) = 1 − (h/2)L_z, for core's `NewtonSolver.solveScalar`; q_m, v and (z0, t_m) are read from
 * the discrete Lagrangian's scratch.
 */
class ImplicitZEquation implements ScalarNewtonProblem {
  constructor(
    private readonly L: ContactLagrangian,
    private readonly h: number,
    private readonly qm: Float64Array,
    private readonly v: Float64Array,
    private readonly s: Float64Array,
  ) {}

  residual(x: number): number {
    const s = this.s;
    return x - this.h * this.L.L(this.qm, this.v, s[Z0]! + 0.5 * x, s[TM]!);
  }

  derivative(x: number): number {
    const s = this.s;
    return 1 - 0.5 * this.h * this.L.Lz(this.qm, this.v, s[Z0]! + 0.5 * x, s[TM]!);
  }
}

/**
 * {@link implicitZMidpointLd}'s object. Each method of the interface only stores its doubles
 * (z0, t) into the scratch and calls one worker, `evaluate`, that takes arrays and a small integer:
 * the methods are small enough for V8 to inline at every call site, so no double crosses a call
 * boundary, and the worker is too large to be inlined into them (which would make them too large
 * to inline in turn): the step of a `ContactIntegrator` on a mechanical L allocates nothing
 * (issue 20; a double passed to or returned from a call V8 does not inline is a 16-byte box).
 */
class ImplicitZMidpointLd implements DiscreteContactLagrangian {
  readonly name = 'implicit-z-midpoint';
  readonly n: number;
  readonly traits: DiscreteLagrangianTraits = Object.freeze({ order: 2, isExact: false });
  private readonly s = new Float64Array(10);
  private readonly qm: Float64Array;
  private readonly v: Float64Array;
  private readonly gq: Float64Array; // L_q
  private readonly gv: Float64Array; // L_v
  private readonly gqz: Float64Array; // L_qz
  private readonly gvz: Float64Array; // L_vz
  private readonly d2: Float64Array; // D2 L_d
  private readonly ell: Float64Array; // ℓ, the total q1-derivative of L_z
  private readonly mqq: Float64Array;
  private readonly mvq: Float64Array;
  private readonly mvv: Float64Array;
  private readonly cq0: Float64Array;
  private readonly cq1: Float64Array;
  private readonly lambda0 = new Float64Array(1);
  private readonly newton: NewtonSolver;
  private readonly equation: ImplicitZEquation;

  constructor(
    private readonly L: ContactLagrangian,
    readonly h: number,
    options: ImplicitZMidpointOptions,
  ) {
    checkStepSize('implicitZMidpointLd', h);
    const n = L.n;
    checkDimension('implicitZMidpointLd', n);
    const tol = options.tol ?? IMPLICIT_Z_NEWTON_TOL;
    if (!(tol > 0) || !Number.isFinite(tol))
      throw new DomainError('implicitZMidpointLd: tol', tol, 'must be a finite number > 0');
    const maxIterations = options.maxIterations ?? IMPLICIT_Z_NEWTON_MAX_ITERATIONS;
    if (!Number.isInteger(maxIterations) || maxIterations < 1)
      throw new DomainError('implicitZMidpointLd: maxIterations', maxIterations, 'must be >= 1');
    this.n = n;
    const vec = () => new Float64Array(n);
    this.qm = vec();
    this.v = vec();
    this.gq = vec();
    this.gv = vec();
    this.gqz = vec();
    this.gvz = vec();
    this.d2 = vec();
    this.ell = vec();
    this.cq0 = vec();
    this.cq1 = vec();
    this.mqq = new Float64Array(n * n);
    this.mvq = new Float64Array(n * n);
    this.mvv = new Float64Array(n * n);
    this.s[CZ0] = Number.NaN;
    this.s[CTM] = Number.NaN;
    this.newton = new NewtonSolver(1, {
      tol: 0,
      stepTol: tol,
      maxIterations,
      throwOnFailure: true,
      conditionCheck: 'pivot',
      what: 'implicitZMidpointLd: Λ',
    });
    this.equation = new ImplicitZEquation(L, h, this.qm, this.v, this.s);
    SOLVES_BY_SOLVE_SCALAR.add(this);
    if (n === 1 && MECHANICAL_LAGRANGIANS.has(L)) {
      // ContactIntegrator's dedicated step (kernels.ts): L = ½v² − V + γz, bit-identical
      const { potential, gamma } = L as unknown as { potential: Potential; gamma: number };
      const data = { potential, gamma, h, tol, maxIterations };
      SCALAR_STEP_KERNELS.set(this, () => new MechanicalImplicitZStep(data));
    }
    Object.freeze(this);
  }

  Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(LD, s, q0, q1);
    return s[LAMBDA]!;
  }

  D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(D1, out, q0, q1);
    return out;
  }

  D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(D2, out, q0, q1);
    return out;
  }

  Dz(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(DZ_KIND, s, q0, q1);
    return s[DZ]!;
  }

  D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(D2D1, out, q0, q1);
    return out;
  }

  D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
    const s = this.s;
    s[Z0] = z0;
    s[T] = t;
    this.evaluate(D2DZ, out, q0, q1);
    return out;
  }

  /**
   * The one worker of the methods above, at (q0, q1, z0 = s[Z0], t = s[T]): `kind` says which
   * quantity goes to `out` (LD and DZ_KIND leave theirs in the scratch). One function, so that
   * V8 does not inline the work into the methods (whose own optimized code then stays small
   * enough to be inlined wherever they are called; see the class doc).
   */
  private evaluate(kind: number, out: Float64Array, q0: Float64Array, q1: Float64Array): void {
    const { n } = this;
    if (kind === D1 || kind === D2 || kind === D2DZ) checkOut('implicitZMidpointLd', n, out);
    else if (kind === D2D1) checkOut('implicitZMidpointLd', n * n, out);
    this.prepare(q0, q1);
    if (kind === LD) return;
    this.denominator();
    if (kind === D1 || kind === D2) this.firstTerms(out, kind === D1 ? -1 : 1);
    else if (kind === D2D1) this.mixed(out);
    else if (kind === D2DZ) this.mixedZ(out);
  }

  /**
   * At the point (q0, q1, z0 = s[Z0], t = s[T]): q_m, v and t_m into the scratch, and Λ solved
   * (or the cached root of the same point reused), with z⋆ = z0 + Λ/2.
   */
  private prepare(q0: Float64Array, q1: Float64Array): void {
    const { n, h, s, qm, v, cq0, cq1 } = this;
    checkPoint('implicitZMidpointLd', n, q0, q1);
    midpointAndVelocity(qm, v, q0, q1, h);
    const z0 = s[Z0]!;
    const tm = s[T]! + 0.5 * h;
    s[TM] = tm;
    if (s[CACHED] === 1 && z0 === s[CZ0] && tm === s[CTM]) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = q0[i] === cq0[i] && q1[i] === cq1[i];
      if (same) {
        s[ZSTAR] = z0 + 0.5 * s[LAMBDA]!;
        return;
      }
    }
    s[CACHED] = 0;
    this.lambda0[0] = 0;
    const lambda = this.newton.solveScalar(this.equation, this.lambda0).x[0]!;
    for (let i = 0; i < n; i++) {
      cq0[i] = q0[i]!;
      cq1[i] = q1[i]!;
    }
    s[CZ0] = z0;
    s[CTM] = tm;
    s[LAMBDA] = lambda;
    s[CACHED] = 1;
    s[ZSTAR] = z0 + 0.5 * lambda;
  }

  /** s[C] ← c = 1 − (h/2)L_z at (q_m, v, z⋆, t_m) of the prepared point; throws when c = 0. */
  private denominator(): void {
    const s = this.s;
    const hlz = this.h * this.L.Lz(this.qm, this.v, s[ZSTAR]!, s[TM]!);
    const c = 1 - 0.5 * hlz;
    if (c === 0) throw new SingularJacobianError(0);
    s[C] = c;
    s[DZ] = hlz / c;
  }

  /** gq ← L_q, gv ← L_v at (q_m, v, z⋆, t_m); out ← ((h/2)L_q + sign·L_v)/c, c = s[C]. */
  private firstTerms(out: Float64Array, sign: number): void {
    const { n, h, s, L, qm, v, gq, gv } = this;
    const zs = s[ZSTAR]!;
    const tm = s[TM]!;
    const c = s[C]!;
    L.Lq(gq, qm, v, zs, tm);
    L.Lv(gv, qm, v, zs, tm);
    for (let i = 0; i < n; i++) out[i] = (0.5 * h * gq[i]! + sign * gv[i]!) / c;
  }

  /** d2 ← D2 L_d, gq, gv, gqz ← L_qz, gvz ← L_vz, ell ← ℓ at the prepared point (after c). */
  private secondOrderData(): void {
    const { n, h, s, L, qm, v, gqz, gvz, d2, ell } = this;
    this.firstTerms(d2, 1);
    const zs = s[ZSTAR]!;
    const tm = s[TM]!;
    const lzz = L.Lzz(qm, v, zs, tm);
    L.Lqz(gqz, qm, v, zs, tm);
    L.Lvz(gvz, qm, v, zs, tm);
    for (let j = 0; j < n; j++) ell[j] = 0.5 * gqz[j]! + gvz[j]! / h + 0.5 * lzz * d2[j]!;
  }

  /** out ← ∂(D1 L_d)/∂q1 (module formula) at the prepared point, after `denominator`. */
  private mixed(out: Float64Array): void {
    const { n, h, s, L, qm, v, gq, gv, gqz, gvz, d2, ell, mqq, mvq, mvv } = this;
    this.secondOrderData();
    const zs = s[ZSTAR]!;
    const tm = s[TM]!;
    const c = s[C]!;
    L.Lqq(mqq, qm, v, zs, tm);
    L.Lvq(mvq, qm, v, zs, tm);
    L.Lvv(mvv, qm, v, zs, tm);
    for (let i = 0; i < n; i++) {
      const d1i = (0.5 * h * gq[i]! - gv[i]!) / c;
      const qzi = gqz[i]!;
      const vzi = gvz[i]!;
      for (let j = 0; j < n; j++) {
        const ij = i * n + j;
        const dN1 =
          0.5 * h * (0.5 * mqq[ij]! + mvq[j * n + i]! / h + 0.5 * qzi * d2[j]!) -
          (0.5 * mvq[ij]! + mvv[ij]! / h + 0.5 * vzi * d2[j]!);
        out[ij] = (dN1 + 0.5 * h * d1i * ell[j]!) / c;
      }
    }
  }

  /** out ← ∇_{q1}(D_z L_d) = hℓ/c² at the prepared point, after `denominator`. */
  private mixedZ(out: Float64Array): void {
    const { n, h, s, ell } = this;
    this.secondOrderData();
    const c = s[C]!;
    for (let j = 0; j < n; j++) out[j] = (h * ell[j]!) / (c * c);
  }
}

// ---------------------------------------------------------------------------------------------
// Mechanical fast path.

/**
 * The paper's discrete Lagrangian (79) on Rⁿ for the mechanical contact Lagrangian
 * L = ½|v|² − V(q, t) + γz, in closed form (spec 004 §7.2, seed 004 Section 5), with
 * q_m = (q0 + q1)/2 and V, ∇V, ∇²V at (q_m, t_k + h/2):
 *
 *   L_d(q0, q1, z0, t_k) = |q1 − q0|²/(2h) − h V(q_m) + hγ z0,
 *   D1 L_d = −(q1 − q0)/h − (h/2)∇V(q_m),   D2 L_d = (q1 − q0)/h − (h/2)∇V(q_m),   D_z L_d = hγ,
 *   ∂(D1 L_d)/∂q1 = −I/h − (h/4)∇²V(q_m),   ∇_{q1}(D_z L_d) = 0.
 *
 * It is {@link midpointLd} of that L without the generic second-derivative bookkeeping; σ_d = 1 + hγ
 * is constant. ∇²V comes from `potential.hessV` when given, otherwise from core's central
 * differences of `potential.gradV` (step ∛ε·max(1, |q_m,j|), accuracy ≈ 1e-10 relative).
 * F⁻-regularity needs I/h + (h/4)∇²V(q_m) invertible (spec 004 §11.13).
 *
 * @param potential - V with its gradient (and optionally its Hessian), core's `Potential`.
 * @param gamma - the damping coefficient of +γz (γ < 0 dissipates; spec 004 §3).
 * @param h - the time step, finite and > 0.
 * @throws DomainError on a non-finite γ or a bad h; DimensionError on a bad potential.dim.
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // the oscillator (79)
 * Ld.Ld(Float64Array.of(1), Float64Array.of(2), 0);                   // 0.4375 (spec 004 §8.2)
 * Ld.D2(new Float64Array(1), Float64Array.of(1), Float64Array.of(2), 0); // [1.625]
 * ```
 */
export function mechanicalMidpointLd(
  potential: Potential,
  gamma: number,
  h: number,
): DiscreteContactLagrangian {
  checkStepSize('mechanicalMidpointLd', h);
  if (!Number.isFinite(gamma))
    throw new DomainError('mechanicalMidpointLd: gamma', gamma, 'must be finite');
  const n = potential.dim;
  checkDimension('mechanicalMidpointLd', n);
  const what = 'mechanicalMidpointLd';
  const qm = new Float64Array(n);
  const grad = new Float64Array(n);
  const hessian = potentialHessian(potential);
  const midpoint = (q0: Float64Array, q1: Float64Array): void => {
    checkPoint(what, n, q0, q1);
    for (let i = 0; i < n; i++) qm[i] = 0.5 * (q0[i]! + q1[i]!);
  };
  const hgamma = h * gamma;
  return Object.freeze({
    name: 'midpoint',
    n,
    h,
    traits: Object.freeze({ order: 1, isExact: false }),
    Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      midpoint(q0, q1);
      let s = 0;
      for (let i = 0; i < n; i++) {
        const d = q1[i]! - q0[i]!;
        s += d * d;
      }
      return s / (2 * h) - h * potential.V(qm, t + 0.5 * h) + hgamma * z0;
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      midpoint(q0, q1);
      potential.gradV(grad, qm, t + 0.5 * h);
      for (let i = 0; i < n; i++) out[i] = -(q1[i]! - q0[i]!) / h - 0.5 * h * grad[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      midpoint(q0, q1);
      potential.gradV(grad, qm, t + 0.5 * h);
      for (let i = 0; i < n; i++) out[i] = (q1[i]! - q0[i]!) / h - 0.5 * h * grad[i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, _z0: number): number {
      checkPoint(what, n, q0, q1);
      return hgamma;
    },
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number, t = 0): Float64Array {
      checkOut(what, n * n, out);
      midpoint(q0, q1);
      hessian(out, qm, t + 0.5 * h);
      for (let k = 0; k < n * n; k++) out[k] = -0.25 * h * out[k]!;
      for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! - 1 / h;
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      return out.fill(0);
    },
  });
}
