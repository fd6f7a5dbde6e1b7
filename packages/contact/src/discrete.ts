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
 * | {@link discreteLagrangianFromFunction} | any user L_d, derivatives by differences or duals | — |
 *
 * with q_m = (q0 + q1)/2 and v = (q1 − q0)/h. The paper proves no order results (spec 004 §2,
 * §11.10): the orders above are the library's own measurements.
 *
 * Every vector or matrix method writes into the `out` argument given first (n-vectors, n×n
 * row-major matrices) and returns it; the objects own their scratch, so calls allocate nothing
 * (except the dual-number path of {@link discreteLagrangianFromFunction}, see there).
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DimensionError,
  DomainError,
  Dual,
  DualOps,
  NewtonDivergedError,
  NonFiniteError,
  NumberOps,
  type ScalarOps,
  SingularJacobianError,
} from '@geomech/core';
import type { Potential } from './mechanical.js';
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
 */
export const IMPLICIT_Z_NEWTON_TOL = 1e-14;

/** Default iteration cap of the scalar Newton iteration of {@link implicitZMidpointLd}. */
export const IMPLICIT_Z_NEWTON_MAX_ITERATIONS = 50;

/**
 * Relative step of the mixed second differences of {@link discreteLagrangianFromFunction},
 * ε^{1/4} ≈ 1.2e-4: the 4-point formula's truncation O(s²) balances its rounding O(ε/s²), giving
 * about √ε ≈ 1.5e-8 relative accuracy (measured: ≤ 4e-8 of the largest entry on the test suite's
 * Lagrangians).
 */
export const SECOND_DIFFERENCE_STEP = Number.EPSILON ** 0.25;

// ---------------------------------------------------------------------------------------------
// Shared validation.

function checkStepSize(what: string, h: number): void {
  if (!(h > 0) || !Number.isFinite(h))
    throw new DomainError(`${what}: h`, h, 'must be a finite number > 0');
}

function checkDimension(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new DimensionError(`${what}: n`, '>= 1', n);
}

/** Cheap per-call shape checks (two or three comparisons; no allocation). */
function checkPoint(what: string, n: number, q0: Float64Array, q1: Float64Array): void {
  if (q0.length !== n) throw new DimensionError(`${what}: q0`, n, q0.length);
  if (q1.length !== n) throw new DimensionError(`${what}: q1`, n, q1.length);
}

function checkOut(what: string, size: number, out: Float64Array): void {
  if (out.length !== size) throw new DimensionError(`${what}: out`, size, out.length);
}

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
 * (77) and (79) are its mechanical cases): midpoint in q, left endpoint in z,
 *
 *   L_d(q0, q1, z0) = h L(q_m, v, z0),   q_m = (q0 + q1)/2,   v = (q1 − q0)/h,
 *
 * with, all partials of L at (q_m, v, z0),
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
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      checkPoint(what, n, q0, q1);
      midpointAndVelocity(qm, v, q0, q1, h);
      return h * L.L(qm, v, z0);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      L.Lq(a, qm, v, z0);
      L.Lv(b, qm, v, z0);
      for (let i = 0; i < n; i++) out[i] = 0.5 * h * a[i]! - b[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      L.Lq(a, qm, v, z0);
      L.Lv(b, qm, v, z0);
      for (let i = 0; i < n; i++) out[i] = 0.5 * h * a[i]! + b[i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number): number {
      checkPoint(what, n, q0, q1);
      midpointAndVelocity(qm, v, q0, q1, h);
      return h * L.Lz(qm, v, z0);
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      L.Lqq(mqq, qm, v, z0);
      L.Lvq(mvq, qm, v, z0);
      L.Lvv(mvv, qm, v, z0);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const ij = i * n + j;
          out[ij] = 0.25 * h * mqq[ij]! + 0.5 * (mvq[j * n + i]! - mvq[ij]!) - mvv[ij]! / h;
        }
      }
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      midpointAndVelocity(qm, v, q0, q1, h);
      L.Lqz(a, qm, v, z0);
      L.Lvz(b, qm, v, z0);
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
 *   L_d(q0, q1, z0) = h L(q0, v, z0),   v = (q1 − q0)/h,
 *
 * with, all partials of L at (q0, v, z0),
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
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      checkPoint(what, n, q0, q1);
      velocity(v, q0, q1, h);
      return h * L.L(q0, v, z0);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      L.Lq(a, q0, v, z0);
      L.Lv(b, q0, v, z0);
      for (let i = 0; i < n; i++) out[i] = h * a[i]! - b[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      return L.Lv(out, q0, v, z0);
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number): number {
      checkPoint(what, n, q0, q1);
      velocity(v, q0, q1, h);
      return h * L.Lz(q0, v, z0);
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      velocity(v, q0, q1, h);
      L.Lvq(mvq, q0, v, z0);
      L.Lvv(mvv, q0, v, z0);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) out[i * n + j] = mvq[j * n + i]! - mvv[i * n + j]! / h;
      }
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      velocity(v, q0, q1, h);
      return L.Lvz(out, q0, v, z0);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Implicit-z midpoint.

/** Options of {@link implicitZMidpointLd}. */
export interface ImplicitZMidpointOptions {
  /** Relative tolerance on the Newton correction, |δΛ| ≤ tol·max(1, |Λ|). Default {@link IMPLICIT_Z_NEWTON_TOL}. */
  readonly tol?: number;
  /** Iteration cap of the scalar Newton iteration. Default {@link IMPLICIT_Z_NEWTON_MAX_ITERATIONS}. */
  readonly maxIterations?: number;
}

/**
 * The implicit-z midpoint discrete Lagrangian, **an extension [S] that is not in the paper**
 * (spec 004 §7.4 row 3, §11.11): midpoint in q and in z,
 *
 *   L_d(q0, q1, z0) = Λ,   Λ = h L(q_m, v, z0 + Λ/2),   q_m = (q0 + q1)/2,  v = (q1 − q0)/h.
 *
 * Λ is found by scalar Newton on F(Λ) = Λ − h L(q_m, v, z0 + Λ/2), F′ = c = 1 − (h/2)L_z, from
 * Λ = 0; its first iterate h L(q_m, v, z0)/(1 − (h/2)L_z) is already the root when L is affine in
 * z, L = L0(q, v) + γz, where L_d = h(L0(q_m, v) + γz0)/(1 − hγ/2) (the second iteration only
 * confirms it). The last root is cached, so the derivatives at the same point reuse it.
 * With all partials of L at (q_m, v, z⋆ = z0 + Λ/2) (implicit function theorem, spec 004 §7.4):
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
 *
 * @throws DomainError on a bad h or options; SingularJacobianError when c = 1 − (h/2)L_z = 0;
 *   NewtonDivergedError when Λ does not converge; NonFiniteError on a non-finite Λ.
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
  checkStepSize('implicitZMidpointLd', h);
  const n = L.n;
  checkDimension('implicitZMidpointLd', n);
  const tol = options.tol ?? IMPLICIT_Z_NEWTON_TOL;
  if (!(tol > 0) || !Number.isFinite(tol))
    throw new DomainError('implicitZMidpointLd: tol', tol, 'must be a finite number > 0');
  const maxIterations = options.maxIterations ?? IMPLICIT_Z_NEWTON_MAX_ITERATIONS;
  if (!Number.isInteger(maxIterations) || maxIterations < 1)
    throw new DomainError('implicitZMidpointLd: maxIterations', maxIterations, 'must be >= 1');
  const what = 'implicitZMidpointLd';
  const qm = new Float64Array(n);
  const v = new Float64Array(n);
  const gq = new Float64Array(n); // L_q
  const gv = new Float64Array(n); // L_v
  const gqz = new Float64Array(n); // L_qz
  const gvz = new Float64Array(n); // L_vz
  const d2 = new Float64Array(n); // D2 L_d
  const ell = new Float64Array(n); // ℓ, the total q1-derivative of L_z
  const mqq = new Float64Array(n * n);
  const mvq = new Float64Array(n * n);
  const mvv = new Float64Array(n * n);
  const cq0 = new Float64Array(n);
  const cq1 = new Float64Array(n);
  let cz0 = Number.NaN;
  let cLambda = Number.NaN;
  let cached = false;

  /**
   * Solves Λ = h L(q_m, v, z0 + Λ/2) (or reuses the cached root of the same point), leaves q_m
   * and v in the scratch, and returns z⋆ = z0 + Λ/2.
   */
  const solve = (q0: Float64Array, q1: Float64Array, z0: number): number => {
    checkPoint(what, n, q0, q1);
    midpointAndVelocity(qm, v, q0, q1, h);
    if (cached && z0 === cz0) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = q0[i] === cq0[i] && q1[i] === cq1[i];
      if (same) return z0 + 0.5 * cLambda;
    }
    let lambda = 0;
    let residual = Number.POSITIVE_INFINITY;
    let converged = false;
    let it = 0;
    while (it < maxIterations) {
      it++;
      const zs = z0 + 0.5 * lambda;
      residual = lambda - h * L.L(qm, v, zs);
      const c = 1 - 0.5 * h * L.Lz(qm, v, zs);
      if (c === 0 || !Number.isFinite(c)) throw new SingularJacobianError(it);
      const delta = -residual / c;
      lambda += delta;
      if (!Number.isFinite(lambda)) throw new NonFiniteError('implicitZMidpointLd: Λ');
      if (Math.abs(delta) <= tol * Math.max(1, Math.abs(lambda))) {
        converged = true;
        break;
      }
    }
    if (!converged) throw new NewtonDivergedError(it, Math.abs(residual));
    cq0.set(q0);
    cq1.set(q1);
    cz0 = z0;
    cLambda = lambda;
    cached = true;
    return z0 + 0.5 * lambda;
  };

  /** c = 1 − (h/2)L_z at (q_m, v, z⋆), with q_m and v already in the scratch. */
  const denominator = (zs: number): number => {
    const c = 1 - 0.5 * h * L.Lz(qm, v, zs);
    if (c === 0) throw new SingularJacobianError(0);
    return c;
  };

  /** gq ← L_q, gv ← L_v at (q_m, v, z⋆); out ← ((h/2)L_q + s·L_v)/c. */
  const firstDerivative = (out: Float64Array, s: number, zs: number, c: number): Float64Array => {
    L.Lq(gq, qm, v, zs);
    L.Lv(gv, qm, v, zs);
    for (let i = 0; i < n; i++) out[i] = (0.5 * h * gq[i]! + s * gv[i]!) / c;
    return out;
  };

  /** d2 ← D2 L_d, gq ← L_q, gv ← L_v, gqz ← L_qz, gvz ← L_vz, ell ← ℓ, all at (q_m, v, z⋆). */
  const secondOrderData = (zs: number, c: number): void => {
    firstDerivative(d2, 1, zs, c);
    const lzz = L.Lzz(qm, v, zs);
    L.Lqz(gqz, qm, v, zs);
    L.Lvz(gvz, qm, v, zs);
    for (let j = 0; j < n; j++) ell[j] = 0.5 * gqz[j]! + gvz[j]! / h + 0.5 * lzz * d2[j]!;
  };

  return Object.freeze({
    name: 'implicit-z-midpoint',
    n,
    h,
    traits: Object.freeze({ order: 2, isExact: false }),
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      solve(q0, q1, z0);
      return cLambda;
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      const zs = solve(q0, q1, z0);
      return firstDerivative(out, -1, zs, denominator(zs));
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      const zs = solve(q0, q1, z0);
      return firstDerivative(out, 1, zs, denominator(zs));
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number): number {
      const zs = solve(q0, q1, z0);
      const hlz = h * L.Lz(qm, v, zs);
      const c = 1 - 0.5 * hlz;
      if (c === 0) throw new SingularJacobianError(0);
      return hlz / c;
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n * n, out);
      const zs = solve(q0, q1, z0);
      const c = denominator(zs);
      secondOrderData(zs, c);
      L.Lqq(mqq, qm, v, zs);
      L.Lvq(mvq, qm, v, zs);
      L.Lvv(mvv, qm, v, zs);
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
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      const zs = solve(q0, q1, z0);
      const c = denominator(zs);
      secondOrderData(zs, c);
      for (let j = 0; j < n; j++) out[j] = (h * ell[j]!) / (c * c);
      return out;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Mechanical fast path.

/**
 * The paper's discrete Lagrangian (79) on Rⁿ for the mechanical contact Lagrangian
 * L = ½|v|² − V(q) + γz, in closed form (spec 004 §7.2, seed 004 Section 5):
 *
 *   L_d(q0, q1, z0) = |q1 − q0|²/(2h) − h V(q_m) + hγ z0,           q_m = (q0 + q1)/2,
 *   D1 L_d = −(q1 − q0)/h − (h/2)∇V(q_m),   D2 L_d = (q1 − q0)/h − (h/2)∇V(q_m),   D_z L_d = hγ,
 *   ∂(D1 L_d)/∂q1 = −I/h − (h/4)∇²V(q_m),   ∇_{q1}(D_z L_d) = 0.
 *
 * It is {@link midpointLd} of that L without the generic second-derivative bookkeeping; σ_d = 1 + hγ
 * is constant. ∇²V comes from `potential.hessian` when given, otherwise from central differences
 * of `potential.gradient` (relative step ∛ε·max(1, |q_m,j|), accuracy ≈ 1e-10 relative).
 * F⁻-regularity needs I/h + (h/4)∇²V(q_m) invertible (spec 004 §11.13).
 *
 * @param potential - V with its gradient (and optionally its Hessian), see {@link Potential}.
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
  const fdA = new Float64Array(n);
  const fdB = new Float64Array(n);
  const midpoint = (q0: Float64Array, q1: Float64Array): void => {
    checkPoint(what, n, q0, q1);
    for (let i = 0; i < n; i++) qm[i] = 0.5 * (q0[i]! + q1[i]!);
  };
  /** out ← ∇²V(q_m): analytic when given, else central differences of ∇V. */
  const hessian = (out: Float64Array): void => {
    if (potential.hessian) {
      potential.hessian(out, qm);
      return;
    }
    for (let j = 0; j < n; j++) {
      const x = qm[j]!;
      const s = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x));
      const xp = x + s;
      const xm = x - s;
      qm[j] = xp;
      potential.gradient(fdA, qm);
      qm[j] = xm;
      potential.gradient(fdB, qm);
      qm[j] = x;
      const inv = 1 / (xp - xm);
      for (let i = 0; i < n; i++) out[i * n + j] = (fdA[i]! - fdB[i]!) * inv;
    }
  };
  const hgamma = h * gamma;
  return Object.freeze({
    name: 'midpoint',
    n,
    h,
    traits: Object.freeze({ order: 1, isExact: false }),
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      midpoint(q0, q1);
      let s = 0;
      for (let i = 0; i < n; i++) {
        const d = q1[i]! - q0[i]!;
        s += d * d;
      }
      return s / (2 * h) - h * potential.value(qm) + hgamma * z0;
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number): Float64Array {
      checkOut(what, n, out);
      midpoint(q0, q1);
      potential.gradient(grad, qm);
      for (let i = 0; i < n; i++) out[i] = -(q1[i]! - q0[i]!) / h - 0.5 * h * grad[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number): Float64Array {
      checkOut(what, n, out);
      midpoint(q0, q1);
      potential.gradient(grad, qm);
      for (let i = 0; i < n; i++) out[i] = (q1[i]! - q0[i]!) / h - 0.5 * h * grad[i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, _z0: number): number {
      checkPoint(what, n, q0, q1);
      return hgamma;
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number): Float64Array {
      checkOut(what, n * n, out);
      midpoint(q0, q1);
      hessian(out);
      for (let k = 0; k < n * n; k++) out[k] = -0.25 * h * out[k]!;
      for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! - 1 / h;
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, _z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      return out.fill(0);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// User discrete Lagrangians.

/** A discrete Lagrangian on plain numbers, `(q0, q1, z0) ↦ L_d`. Must not keep or modify its arguments. */
export type DiscreteLagrangianFunction = (q0: Float64Array, q1: Float64Array, z0: number) => number;

/**
 * A discrete Lagrangian written once against core's `ScalarOps`, so that it can be evaluated on
 * plain numbers and differentiated exactly with dual numbers.
 *
 * @example
 * ```ts
 * // the free particle (77): (q1 − q0)²/(2h) + hγ z0 with h = 0.5, γ = −0.05
 * const Ld: GenericDiscreteLagrangianFunction = (o, q0, q1, z0) => {
 *   const d = o.sub(q1[0]!, q0[0]!);
 *   return o.add(o.scale(o.mul(d, d), 1 / (2 * 0.5)), o.scale(z0, 0.5 * -0.05));
 * };
 * ```
 */
export type GenericDiscreteLagrangianFunction = <T>(
  ops: ScalarOps<T>,
  q0: readonly T[],
  q1: readonly T[],
  z0: T,
) => T;

/** Marks a {@link GenericDiscreteLagrangianFunction} for {@link discreteLagrangianFromFunction}. */
export interface GenericDiscreteLagrangian {
  readonly generic: GenericDiscreteLagrangianFunction;
}

/** Options of {@link discreteLagrangianFromFunction}. */
export interface DiscreteLagrangianFromFunctionOptions {
  /** The `name` of the result. Default `'user'`. */
  readonly name?: string;
  /** The `traits` of the result (STYLE.md: unknown traits stay undefined). Default `{}`. */
  readonly traits?: DiscreteLagrangianTraits;
  /**
   * Relative step s of the first central differences (plain functions) and of the differences
   * of dual gradients (generic functions). Default ∛ε (core's `CENTRAL_DIFFERENCE_STEP`).
   */
  readonly step?: number;
  /** Relative step of the mixed second differences of plain functions. Default {@link SECOND_DIFFERENCE_STEP}. */
  readonly secondStep?: number;
}

/**
 * A {@link DiscreteContactLagrangian} from any user discrete Lagrangian L_d(q0, q1, z0) (spec 004
 * §10: derivatives "built from central finite differences or dual numbers"):
 *
 * - **a generic function** `{ generic: (ops, q0, q1, z0) => … }` (preferred): D1, D2 and D_z come
 *   exact from one forward-mode dual pass with 2n + 1 directions (cached for the last point, so
 *   D1, D2, D_z at one point cost one pass); ∂(D1 L_d)/∂q1 and ∇_{q1}(D_z L_d) are central
 *   differences of those dual gradients in q1 (2n passes), ≈ 1e-10 relative to the largest entry. The dual pass
 *   allocates its dual intermediates (core's duals are a cold-path tool); everything else is
 *   preallocated.
 * - **a plain function** `(q0, q1, z0) => number`: every derivative by central differences,
 *   first derivatives (2 evaluations each) ≈ 1e-10 relative, the mixed second derivatives
 *   ∂²L_d/∂q0ᵢ∂q1ⱼ and ∂²L_d/∂z0∂q1ⱼ by the 4-point formula
 *   (f(+,+) − f(+,−) − f(−,+) + f(−,−))/(4 sᵢ tⱼ), a few 1e-8 relative to the largest entry
 *   (D1q1 is O(1/h), so its small entries carry that absolute error). Allocation-free.
 *
 * Steps: coordinate x of q0 or q1 moves by s·min(1, h)·max(1, |x|) (L_d varies on the scale h in
 * q, through v = (q1 − q0)/h), z0 by s·max(1, |z0|); the divisor is the exact distance of the two
 * evaluation points. The accuracies above hold for L_d of the quadrature type h·L(·, (q1 − q0)/h, ·)
 * with smooth L; they degrade for badly scaled L_d (then give a generic function).
 *
 * @param n - dimension of Q = Rⁿ.
 * @param h - the time step L_d was built for (stored; it also scales the difference steps).
 * @throws DomainError on a bad h or step; DimensionError on a bad n. The derivative methods throw
 *   NonFiniteError when a difference quotient is not finite.
 * @example
 * ```ts
 * const h = 0.5, g = -0.05;
 * const Ld = discreteLagrangianFromFunction(1, h, {
 *   generic: (o, q0, q1, z0) => {
 *     const d = o.sub(q1[0]!, q0[0]!);
 *     const s = o.add(q1[0]!, q0[0]!);
 *     return o.add(o.sub(o.scale(o.mul(d, d), 1 / (2 * h)), o.scale(o.mul(s, s), h / 8)), o.scale(z0, h * g));
 *   },
 * });
 * Ld.D2(new Float64Array(1), Float64Array.of(1), Float64Array.of(2), 0); // [1.625], eq. (79)
 * ```
 */
export function discreteLagrangianFromFunction(
  n: number,
  h: number,
  Ld: DiscreteLagrangianFunction | GenericDiscreteLagrangian,
  options: DiscreteLagrangianFromFunctionOptions = {},
): DiscreteContactLagrangian {
  checkStepSize('discreteLagrangianFromFunction', h);
  checkDimension('discreteLagrangianFromFunction', n);
  const step = options.step ?? CENTRAL_DIFFERENCE_STEP;
  if (!(step > 0) || !Number.isFinite(step))
    throw new DomainError('discreteLagrangianFromFunction: step', step, 'must be finite and > 0');
  const secondStep = options.secondStep ?? SECOND_DIFFERENCE_STEP;
  if (!(secondStep > 0) || !Number.isFinite(secondStep)) {
    throw new DomainError(
      'discreteLagrangianFromFunction: secondStep',
      secondStep,
      'must be finite and > 0',
    );
  }
  const name = options.name ?? 'user';
  const traits = Object.freeze({ ...(options.traits ?? {}) });
  return typeof Ld === 'function'
    ? fromPlainFunction(n, h, Ld, name, traits, step, secondStep)
    : fromGenericFunction(n, h, Ld.generic, name, traits, step);
}

/** The q-coordinate step s·min(1, h)·max(1, |x|) (see {@link discreteLagrangianFromFunction}). */
function qStep(s: number, h: number, x: number): number {
  return s * Math.min(1, h) * Math.max(1, Math.abs(x));
}

function finiteQuotient(what: string, d: number, index: number): number {
  if (!Number.isFinite(d))
    throw new NonFiniteError(`discreteLagrangianFromFunction: ${what}`, index);
  return d;
}

function fromPlainFunction(
  n: number,
  h: number,
  f: DiscreteLagrangianFunction,
  name: string,
  traits: DiscreteLagrangianTraits,
  step: number,
  secondStep: number,
): DiscreteContactLagrangian {
  const what = 'discreteLagrangianFromFunction';
  const w0 = new Float64Array(n);
  const w1 = new Float64Array(n);
  const load = (q0: Float64Array, q1: Float64Array): void => {
    checkPoint(what, n, q0, q1);
    w0.set(q0);
    w1.set(q1);
  };
  /** out ← central differences of L_d in the coordinates of w (w0 or w1). */
  const gradientIn = (out: Float64Array, w: Float64Array, z0: number, label: string) => {
    for (let i = 0; i < n; i++) {
      const x = w[i]!;
      const s = qStep(step, h, x);
      const xp = x + s;
      const xm = x - s;
      w[i] = xp;
      const fp = f(w0, w1, z0);
      w[i] = xm;
      const fm = f(w0, w1, z0);
      w[i] = x;
      out[i] = finiteQuotient(label, (fp - fm) / (xp - xm), i);
    }
    return out;
  };
  return Object.freeze({
    name,
    n,
    h,
    traits,
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      load(q0, q1);
      return f(w0, w1, z0);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      return gradientIn(out, w0, z0, 'D1');
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      return gradientIn(out, w1, z0, 'D2');
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number): number {
      load(q0, q1);
      const s = step * Math.max(1, Math.abs(z0));
      const zp = z0 + s;
      const zm = z0 - s;
      return finiteQuotient('Dz', (f(w0, w1, zp) - f(w0, w1, zm)) / (zp - zm), 0);
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n * n, out);
      load(q0, q1);
      for (let i = 0; i < n; i++) {
        const x = w0[i]!;
        const s = qStep(secondStep, h, x);
        const xp = x + s;
        const xm = x - s;
        for (let j = 0; j < n; j++) {
          const y = w1[j]!;
          const t = qStep(secondStep, h, y);
          const yp = y + t;
          const ym = y - t;
          w0[i] = xp;
          w1[j] = yp;
          const fpp = f(w0, w1, z0);
          w1[j] = ym;
          const fpm = f(w0, w1, z0);
          w0[i] = xm;
          const fmm = f(w0, w1, z0);
          w1[j] = yp;
          const fmp = f(w0, w1, z0);
          w0[i] = x;
          w1[j] = y;
          const d = (fpp - fpm - fmp + fmm) / ((xp - xm) * (yp - ym));
          out[i * n + j] = finiteQuotient('D1q1', d, i * n + j);
        }
      }
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      const s = secondStep * Math.max(1, Math.abs(z0));
      const zp = z0 + s;
      const zm = z0 - s;
      for (let j = 0; j < n; j++) {
        const y = w1[j]!;
        const t = qStep(secondStep, h, y);
        const yp = y + t;
        const ym = y - t;
        w1[j] = yp;
        const fpp = f(w0, w1, zp);
        const fmp = f(w0, w1, zm);
        w1[j] = ym;
        const fpm = f(w0, w1, zp);
        const fmm = f(w0, w1, zm);
        w1[j] = y;
        const d = (fpp - fpm - fmp + fmm) / ((zp - zm) * (yp - ym));
        out[j] = finiteQuotient('Dzq1', d, j);
      }
      return out;
    },
  });
}

function fromGenericFunction(
  n: number,
  h: number,
  g: GenericDiscreteLagrangianFunction,
  name: string,
  traits: DiscreteLagrangianTraits,
  step: number,
): DiscreteContactLagrangian {
  const what = 'discreteLagrangianFromFunction';
  const k = 2 * n + 1;
  // Unit tangents e_0 … e_{2n}, shared by the seeded duals (dual operations never mutate inputs).
  const units: Float64Array[] = [];
  for (let d = 0; d < k; d++) {
    const e = new Float64Array(k);
    e[d] = 1;
    units.push(e);
  }
  const a0: number[] = new Array<number>(n).fill(0);
  const a1: number[] = new Array<number>(n).fill(0);
  const d0: Dual[] = new Array<Dual>(n).fill(Dual.constant(0));
  const d1: Dual[] = new Array<Dual>(n).fill(Dual.constant(0));
  const w1 = new Float64Array(n);
  const grad = new Float64Array(k); // cached gradient
  const gp = new Float64Array(k);
  const gm = new Float64Array(k);
  const cq0 = new Float64Array(n);
  const cq1 = new Float64Array(n);
  let cz0 = Number.NaN;
  let cached = false;

  /** out ← (∂L_d/∂q0, ∂L_d/∂q1, ∂L_d/∂z0) at (q0, q1, z0) by one dual pass. */
  const dualGradient = (
    out: Float64Array,
    q0: Float64Array,
    q1: Float64Array,
    z0: number,
  ): Float64Array => {
    for (let i = 0; i < n; i++) {
      d0[i] = new Dual(q0[i]!, units[i]!);
      d1[i] = new Dual(q1[i]!, units[n + i]!);
    }
    const y = g(DualOps, d0, d1, new Dual(z0, units[2 * n]!));
    for (let d = 0; d < k; d++) out[d] = finiteQuotient('dual gradient', y.d(d), d);
    return out;
  };
  /** The cached gradient at (q0, q1, z0). */
  const gradientAt = (q0: Float64Array, q1: Float64Array, z0: number): Float64Array => {
    checkPoint(what, n, q0, q1);
    if (cached && z0 === cz0) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = q0[i] === cq0[i] && q1[i] === cq1[i];
      if (same) return grad;
    }
    cached = false;
    dualGradient(grad, q0, q1, z0);
    cq0.set(q0);
    cq1.set(q1);
    cz0 = z0;
    cached = true;
    return grad;
  };
  /** Column j of the q1-derivative of the gradient: gp − gm over the exact distance; returns it. */
  const differenceColumn = (q0: Float64Array, q1: Float64Array, z0: number, j: number): number => {
    w1.set(q1);
    const y = w1[j]!;
    const t = qStep(step, h, y);
    const yp = y + t;
    const ym = y - t;
    w1[j] = yp;
    dualGradient(gp, q0, w1, z0);
    w1[j] = ym;
    dualGradient(gm, q0, w1, z0);
    return 1 / (yp - ym);
  };

  return Object.freeze({
    name,
    n,
    h,
    traits,
    Ld(q0: Float64Array, q1: Float64Array, z0: number): number {
      checkPoint(what, n, q0, q1);
      for (let i = 0; i < n; i++) {
        a0[i] = q0[i]!;
        a1[i] = q1[i]!;
      }
      return g(NumberOps, a0, a1, z0);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      const gr = gradientAt(q0, q1, z0);
      for (let i = 0; i < n; i++) out[i] = gr[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkOut(what, n, out);
      const gr = gradientAt(q0, q1, z0);
      for (let i = 0; i < n; i++) out[i] = gr[n + i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number): number {
      return gradientAt(q0, q1, z0)[2 * n]!;
    },
    D1q1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      for (let j = 0; j < n; j++) {
        const inv = differenceColumn(q0, q1, z0, j);
        for (let i = 0; i < n; i++) out[i * n + j] = (gp[i]! - gm[i]!) * inv;
      }
      return out;
    },
    Dzq1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      for (let j = 0; j < n; j++) {
        const inv = differenceColumn(q0, q1, z0, j);
        out[j] = (gp[2 * n]! - gm[2 * n]!) * inv;
      }
      return out;
    },
  });
}
