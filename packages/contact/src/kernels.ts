/**
 * Dedicated step kernels of {@link ContactIntegrator} (issue 20): for the discrete Lagrangians
 * whose form the package knows, the whole unforced step for n = 1 — the momentum guess, the
 * Newton iteration on G(x) = (1 + D_z L_d) p_k + D1 L_d and F⁺L_d — in one function on doubles,
 * with the discrete Lagrangian's closures specialized once at construction: no call per
 * derivative through the `DiscreteContactLagrangian` interface, no buffers per evaluation, no
 * double crossing a call that V8 does not inline (a boxed double is a 16-byte allocation).
 *
 * Each kernel performs the operations of the generic path (`ContactIntegrator` with core's
 * `NewtonSolver`, spec 004 §7.1) in the same order, so the iterates are bit-identical to it
 * (tested against the generic path and, in bench/run.mjs section 3, against
 * packages/contact/bench/c/contact_oscillator_step.c). A kernel never throws: on any failure
 * (non-finite value, zero derivative, no convergence) it returns −1 and the integrator reruns the
 * step on the generic path, which throws the error the user would have seen without the kernel.
 *
 * A user's own discrete Lagrangian always runs on the generic path.
 *
 * Not exported from the package index: like `MidpointHerglotz`'s scalar step (its private
 * `advanceScalar`, the same kind of kernel for the one step that class has), these are internals
 * of a stepper, reached and tested through its public `step`. They are a module of their own only
 * because `ContactIntegrator` picks one of several by the form of its discrete Lagrangian.
 *
 * Each kernel writes out core's scalar Newton stopping rule (|G| ≤ tol, or a full step
 * |Δx| ≤ stepTol·max(1, |x|)) instead of calling a core helper for it: such a helper, imported
 * from core, cost 3–4 ns (about 5 %) per exact-L_d step in paired CPU-time rounds (an imported
 * binding is a module-cell load with a hole check at every use), against ≤ 1 % on the other rows.
 *
 * @module
 */
import type { Potential } from '@geomech/core';
import { type PotentialHessian, potentialHessian } from './internal.js';

/**
 * The doubles a kernel exchanges with `ContactIntegrator`: fields of one object, not arguments or
 * returns (a double crossing a call V8 does not inline is boxed) nor slots indexed by imported
 * constants (an imported binding is a module-cell load with a hole check at every use, measured
 * at ~25 ns per exact-L_d step). Initialized to doubles so that V8 keeps every field unboxed.
 */
export class StepExchange {
  /** q_k, p_k, z_k and t_k of the step (in). */
  q = Number.NaN;
  p = Number.NaN;
  z = Number.NaN;
  t = Number.NaN;
  /** The Newton guess when not the momentum guess (in); the root q_{k+1} (out). */
  x = Number.NaN;
  /** p_{k+1} = D2 L_d(q_k, q_{k+1}, z_k, t_k) (out). */
  pNext = Number.NaN;
  /** z_{k+1} = z_k + L_d(q_k, q_{k+1}, z_k, t_k) (out). */
  zNext = Number.NaN;
  /** D_z L_d at the root (out; σ_k = 1 + D_z L_d). */
  dz = Number.NaN;
  /** |G| at the root (out). */
  residual = Number.NaN;
  /** Newton's residual tolerance, step tolerance and iteration cap (set once by the integrator). */
  tol = Number.NaN;
  stepTol = Number.NaN;
  maxIterations = 0;
}

/**
 * One unforced step of `ContactIntegrator` for n = 1 on the exchange object.
 */
export interface ScalarStepKernel {
  /**
   * Reads q_k, p_k, z_k, t_k (and the guess `x` unless `momentum`), runs the step and writes
   * q_{k+1}, p_{k+1}, z_{k+1}, D_z L_d and |G| at the root; returns the Newton iterations, or −1
   * when a check fails (the caller then reruns the generic path, which throws).
   */
  step(s: StepExchange, momentum: boolean): number;
}

/**
 * Kernel factories of the discrete Lagrangians the package builds (registered by their
 * constructors; a WeakMap, so a user's object is never mistaken for one).
 */
export const SCALAR_STEP_KERNELS: WeakMap<object, () => ScalarStepKernel> = new WeakMap();

// ---------------------------------------------------------------------------------------------
// Exact discrete Lagrangian of the damped oscillator (spec 004 §8.2 [D]; exact.ts)

/** The coefficients of `dampedOscillatorExactLd` (exact.ts), as computed there. */
export interface OscillatorExactCoefficients {
  readonly h: number;
  readonly gamma: number;
  readonly E: number;
  readonly em1: number;
  readonly AC: number;
  readonly ASqrtE: number;
  readonly halfGammaE: number;
  readonly halfGamma: number;
}

/**
 * The step of the exact damped-oscillator L_d for n = 1: with D1 = (A C E − γE/2) q0 − A√E q1,
 * D2 = (A C + γ/2) q1 − A√E q0, D_z = E − 1, ∂(D1)/∂q1 = −A√E, ∇_{q1} D_z = 0 (spec 004 §8.2),
 * G(x) = D1(q_k, x) + (1 + D_z) p_k and G′ = −A√E + p_k·0, Newton as core's
 * `NewtonSolver.solveScalar` (plain path), then p_{k+1} = D2, z_{k+1} = z_k + L_d.
 */
export class OscillatorExactStep implements ScalarStepKernel {
  private readonly h: number;
  private readonly gamma: number;
  private readonly E: number;
  private readonly em1: number;
  private readonly AC: number;
  private readonly ASqrtE: number;
  /** A C E − γE/2, the q0 coefficient of D1 (evaluated as exact.ts's D1 evaluates it). */
  private readonly d1q0: number;
  /** A C + γ/2, the q1 coefficient of D2. */
  private readonly d2q1: number;

  constructor(c: OscillatorExactCoefficients) {
    this.h = c.h;
    this.gamma = c.gamma;
    this.E = c.E;
    this.em1 = c.em1;
    this.AC = c.AC;
    this.ASqrtE = c.ASqrtE;
    this.d1q0 = c.AC * c.E - c.halfGammaE;
    this.d2q1 = c.AC + c.halfGamma;
  }

  step(s: StepExchange, momentum: boolean): number {
    const { h, em1, ASqrtE, d1q0 } = this;
    const { q, p, z, tol, stepTol, maxIterations } = s;
    let x: number;
    if (momentum) {
      // ContactIntegrator.momentumGuess: σ̂ = 1 + D_z at q_k + h p_k (D_z is constant here)
      const s0 = 1 + em1;
      x = q + h * s0 * p;
    } else x = s.x;
    // NewtonSolver.solveScalar on ContactScalarEquation, operation for operation
    let fx = d1q0 * q - ASqrtE * x + (1 + em1) * p;
    let r = Math.abs(fx);
    if (!Number.isFinite(r)) return -1;
    let xNorm = Math.abs(x);
    let k = 0;
    let smallStep = false;
    while (r > tol && k < maxIterations) {
      const j0 = -ASqrtE + p * 0;
      if (!(j0 - j0 === 0 && j0 !== 0)) return -1;
      const dx = -fx / j0;
      k++;
      const dxNorm = Math.abs(dx);
      if (!Number.isFinite(dxNorm)) return -1;
      smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      x = x + dx;
      xNorm = Math.abs(x);
      if (!Number.isFinite(xNorm)) return -1;
      fx = d1q0 * q - ASqrtE * x + (1 + em1) * p;
      r = Math.abs(fx);
      if (!Number.isFinite(r)) return -1;
      if (smallStep) break;
    }
    if (!(r <= tol) && !smallStep) return -1;
    // F⁺L_d: the closed form of L_d (its sums as exact.ts accumulates them) and D2
    let a0 = 0;
    let a1 = 0;
    let a01 = 0;
    a0 += q * q;
    a1 += x * x;
    a01 += q * x;
    const { AC, E, gamma } = this;
    const ld =
      em1 * z + 0.5 * (AC * (a1 + E * a0) - 2 * ASqrtE * a01) + 0.25 * gamma * (a1 - E * a0);
    const zNext = z + ld;
    const pNext = this.d2q1 * x - ASqrtE * q;
    if (!(Number.isFinite(pNext) && Number.isFinite(zNext))) return -1;
    s.x = x;
    s.pNext = pNext;
    s.zNext = zNext;
    s.dz = em1;
    s.residual = r;
    return k;
  }
}

// ---------------------------------------------------------------------------------------------
// Implicit-z midpoint of a mechanical Lagrangian (spec 004 §7.4; discrete.ts)

/** The data of an `implicitZMidpointLd` of `mechanicalContactLagrangian(potential, gamma)`. */
export interface MechanicalImplicitZData {
  readonly potential: Potential;
  readonly gamma: number;
  readonly h: number;
  /** The relative step tolerance and the iteration cap of the Λ iteration. */
  readonly tol: number;
  readonly maxIterations: number;
}

/**
 * The step of `implicitZMidpointLd(mechanicalContactLagrangian(V, γ), h)` for n = 1. For
 * L = ½v² − V(q, t) + γz (L_z = γ, L_q = −V′, L_v = v, L_qq = −V″, L_vv = 1, the other second
 * partials 0), at a point (q0, q1, z0, t_k) with q_m = (q0 + q1)/2, v = (q1 − q0)/h,
 * t_m = t_k + h/2: Λ solves Λ = h L(q_m, v, z0 + Λ/2, t_m) by the scalar Newton of the L_d (from
 * Λ = 0, F′ = 1 − (h/2)γ, tol 0, relative step tolerance); c = 1 − ½(hγ), D_z = hγ/c, D1 = ((h/2)L_q − L_v)/c, D2 = ((h/2)L_q + L_v)/c and
 * ∂(D1)/∂q1, ∇_{q1}D_z as the module formulas of discrete.ts (spec 004 §7.4) with the zero
 * partials kept in the expressions (so that every rounding and signed zero is the generic one).
 * The step: the momentum guess (evaluating the L_d at q_k + h p_k as the generic path does),
 * the outer Newton of core's `NewtonSolver.solve` for n = 1 (bit-identical to `solveScalar`),
 * F⁺L_d. V, ∇V and ∇²V are evaluated once per point (the generic path re-evaluates V in each Λ
 * iteration; the values are the same).
 */
export class MechanicalImplicitZStep implements ScalarStepKernel {
  private readonly potential: Potential;
  private readonly hessian: PotentialHessian;
  private readonly gamma: number;
  private readonly h: number;
  private readonly tolZ: number;
  private readonly maxIterationsZ: number;
  /** c = 1 − ½(hγ) and D_z L_d = hγ/c (constant: L_z = γ). */
  private readonly c: number;
  private readonly dz: number;
  private readonly qm = new Float64Array(1);
  private readonly buf = new Float64Array(1);
  // the point being evaluated (doubles in fields, not arguments: see StepExchange)
  /** q1 of the point (in; q0, z0, t are the step's). */
  private q1 = Number.NaN;
  /** Λ = L_d, D1 L_d and D2 L_d at the point (out of `point`). */
  private lambda = Number.NaN;
  private d1 = Number.NaN;
  private d2 = Number.NaN;
  /** G′ = ∂(D1 L_d)/∂q1 + p ∇_{q1}(D_z L_d) at the point (out of `jacobian`). */
  private jac = Number.NaN;

  constructor(d: MechanicalImplicitZData) {
    this.potential = d.potential;
    this.hessian = potentialHessian(d.potential);
    this.gamma = d.gamma;
    this.h = d.h;
    this.tolZ = d.tol;
    this.maxIterationsZ = d.maxIterations;
    // ImplicitZMidpointLd.denominator: hlz = h L_z, c = 1 − 0.5 hlz, D_z = hlz/c
    const hlz = d.h * d.gamma;
    this.c = 1 - 0.5 * hlz;
    this.dz = hlz / this.c;
  }

  /**
   * At (q0, q1, z0, t) = (s.q, this.q1, s.z, s.t) (doubles in fields, not arguments: a double
   * argument of a call V8 does not inline is boxed): Λ (the Λ iteration of
   * ImplicitZMidpointLd.prepare on core's solveScalar plain path), D1 L_d and D2 L_d into the
   * fields, q_m left in `qm` for {@link jacobian}; false when the Λ iteration fails.
   */
  private point(s: StepExchange): boolean {
    const { h, gamma, qm, buf, c, q1 } = this;
    const q0 = s.q;
    const z0 = s.z;
    const t = s.t;
    const qmid = 0.5 * (q0 + q1);
    const v = (q1 - q0) / h;
    const tm = t + 0.5 * h;
    qm[0] = qmid;
    // L(q_m, v, z) = 0.5 Σv² − V(q_m, t_m) + γ z (MechanicalLagrangian.L)
    let vv = 0;
    vv += v * v;
    const V = this.potential.V(qm, tm);
    const half = 0.5 * vv;
    // F(Λ) = Λ − h L(q_m, v, z0 + Λ/2, t_m), F′ = 1 − (h/2)γ; tol 0, step tolerance tolZ
    const tolZ = this.tolZ;
    const maxIterations = this.maxIterationsZ;
    let x = 0;
    let fx = x - h * (half - V + gamma * (z0 + 0.5 * x));
    let r = Math.abs(fx);
    if (!Number.isFinite(r)) return false;
    let xNorm = Math.abs(x);
    let k = 0;
    let smallStep = false;
    while (r > 0 && k < maxIterations) {
      const j0 = 1 - 0.5 * h * gamma;
      if (!(j0 - j0 === 0 && j0 !== 0)) return false;
      const dx = -fx / j0;
      k++;
      const dxNorm = Math.abs(dx);
      if (!Number.isFinite(dxNorm)) return false;
      smallStep = tolZ > 0 && dxNorm <= tolZ * Math.max(1, xNorm);
      x = x + dx;
      xNorm = Math.abs(x);
      if (!Number.isFinite(xNorm)) return false;
      fx = x - h * (half - V + gamma * (z0 + 0.5 * x));
      r = Math.abs(fx);
      if (!Number.isFinite(r)) return false;
      if (smallStep) break;
    }
    if (!(r <= 0) && !smallStep) return false;
    this.lambda = x;
    // firstTerms: L_q = −∇V(q_m, t_m), L_v = v; ((h/2) L_q ± L_v)/c
    this.potential.gradV(buf, qm, tm);
    const gq = -buf[0]!;
    this.d1 = (0.5 * h * gq + -1 * v) / c;
    this.d2 = (0.5 * h * gq + 1 * v) / c;
    return true;
  }

  /** jac ← ∂(D1 L_d)/∂q1 + p_k ∇_{q1}(D_z L_d) at the last {@link point} (ImplicitZMidpointLd.mixed). */
  private jacobian(s: StepExchange): void {
    const { h, c, buf, qm } = this;
    const p = s.p;
    const tm = s.t + 0.5 * h;
    this.hessian(buf, qm, tm);
    const mqq = -buf[0]!;
    const d2 = this.d2;
    const d1i = this.d1;
    // secondOrderData: ℓ = ½L_qz + L_vz/h + ½L_zz D2 with L_qz = L_vz = L_zz = 0
    const ell = 0.5 * 0 + 0 / h + 0.5 * 0 * d2;
    // mixed: L_vq = 0, L_vv = 1, L_qz = L_vz = 0
    const dN1 = 0.5 * h * (0.5 * mqq + 0 / h + 0.5 * 0 * d2) - (0.5 * 0 + 1 / h + 0.5 * 0 * d2);
    const d2d1 = (dN1 + 0.5 * h * d1i * ell) / c;
    const d2dz = (h * ell) / (c * c);
    this.jac = d2d1 + p * d2dz;
  }

  step(s: StepExchange, momentum: boolean): number {
    const { h, dz } = this;
    if (this.c === 0) return -1;
    const { q, p, z, tol, stepTol, maxIterations } = s;
    let x: number;
    if (momentum) {
      // momentumGuess: σ̂ = 1 + D_z L_d(q_k, q_k + h p_k, z_k), the L_d evaluated there
      x = q + h * p;
      this.q1 = x;
      if (!this.point(s)) return -1;
      const s0 = 1 + dz;
      x = q + h * s0 * p;
    } else x = s.x;
    // NewtonSolver.solve, n = 1: G = D1 + (1 + D_z) p, G′ = D2D1 + p D2Dz
    this.q1 = x;
    if (!this.point(s)) return -1;
    let fx = this.d1 + (1 + dz) * p;
    let r = Math.abs(fx);
    if (!Number.isFinite(r)) return -1;
    let xNorm = Math.abs(x);
    let k = 0;
    let smallStep = false;
    while (r > tol && k < maxIterations) {
      this.jacobian(s);
      const j0 = this.jac;
      if (!(j0 - j0 === 0 && j0 !== 0)) return -1;
      const dx = -fx / j0;
      k++;
      const dxNorm = Math.abs(dx);
      if (!Number.isFinite(dxNorm)) return -1;
      smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      x = x + dx;
      xNorm = Math.abs(x);
      if (!Number.isFinite(xNorm)) return -1;
      this.q1 = x;
      if (!this.point(s)) return -1;
      fx = this.d1 + (1 + dz) * p;
      r = Math.abs(fx);
      if (!Number.isFinite(r)) return -1;
      if (smallStep) break;
    }
    if (!(r <= tol) && !smallStep) return -1;
    // F⁺L_d at the root (the last point evaluated): z_{k+1} = z_k + Λ, p_{k+1} = D2 L_d
    const zNext = z + this.lambda;
    const pNext = this.d2;
    if (!(Number.isFinite(pNext) && Number.isFinite(zNext))) return -1;
    s.x = x;
    s.pNext = pNext;
    s.zNext = zNext;
    s.dz = dz;
    s.residual = r;
    return k;
  }
}
