/**
 * The exact discrete contact Lagrangian of any regular contact Lagrangian by shooting (spec 004
 * §6.5 [S], seed 004 Section 4):
 *
 *   L_h^e(q0, q1, z0, t_k) = z(t_k + h) − z0                                           (61) [D]
 *
 * along the Herglotz solution on [t_k, t_k + h] with q(t_k) = q0, q(t_k + h) = q1, z(t_k) = z0,
 * and its derivatives
 *
 *   D1 L_h^e = −∂L/∂v(q0, v0, z0)·e^{b(h)},   D2 L_h^e = ∂L/∂v(q1, v1, z1),
 *   D_z L_h^e = e^{b(h)} − 1,                  b = ∫ ∂L/∂z ds over the step          (64)–(65)
 *
 * ({@link numericExactLd}, {@link shootExact}), with the exact retractions R_h^{e±} (§6.1) and the
 * contact exponential map (53). The shooting Newton iteration is core's `NewtonSolver`; its
 * Jacobian ∂q(h)/∂v0 comes from central differences of stacked DOPRI5 trajectories.
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
  NewtonSolver,
  NonFiniteError,
  type OdeRhs,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
  StepSizeUnderflowError,
} from '@geomech/core';
import { EXACT_TRAITS } from './exact.js';
import { checkDimension, checkStepSize } from './internal.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from './types.js';

function checkFinite(what: string, x: number): void {
  if (!Number.isFinite(x)) throw new DomainError(what, x, 'must be finite');
}

/**
 * Options of the shooting solver ({@link shootExact}, {@link numericExactLd}, retractions).
 *
 * @example
 * ```ts
 * const options: ShootingOptions = { rtol: 1e-10, atol: 1e-12, maxIterations: 10 };
 * ```
 */
export interface ShootingOptions {
  /** DOPRI5 relative tolerance. Default 1e-12. */
  readonly rtol?: number;
  /** DOPRI5 absolute tolerance. Default 1e-14. */
  readonly atol?: number;
  /** DOPRI5 step budget per integration. Default 100000. */
  readonly maxSteps?: number;
  /**
   * Newton tolerance on ‖q(h; v0) − q1‖∞, relative to max(1, ‖q0‖∞, ‖q1‖∞). Default 1e-13. Newton
   * also stops after a correction that no longer changes v0 (‖Δv0‖∞ ≤ 4ε·max(1, ‖v0‖∞), core's
   * `NEWTON_DEFAULT_STEP_TOL`).
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

/**
 * Everything one shooting solve yields (spec 004 §6.5 with (61), (64)–(65)).
 *
 * @example
 * ```ts
 * const r: ExactShootingResult = shootExact(mechanicalContactLagrangian(zeroPotential(1), -0.05), 0.5, [1], [2], 3);
 * r.Dz; // e^{−0.025} − 1
 * ```
 */
export interface ExactShootingResult {
  /** L_h^e(q0, q1, z0, t_k) = z(t_k + h) − z0. */
  readonly value: number;
  /** D1 L_h^e = −∂L/∂v(q0, v0, z0)·e^{b(h)}. */
  readonly D1: Float64Array;
  /** D2 L_h^e = ∂L/∂v(q1, v1, z1). */
  readonly D2: Float64Array;
  /** D_z L_h^e = e^{b(h)} − 1. */
  readonly Dz: number;
  /** ∂(D1 L_h^e)/∂q1, n×n row-major (implicit function theorem on central differences in v0). */
  readonly D2D1: Float64Array;
  /** ∇_{q1}(D_z L_h^e) (same construction). */
  readonly D2Dz: Float64Array;
  /** Initial velocity v0 = q̇(t_k) of the boundary-value solution (R_h^{e−}). */
  readonly v0: Float64Array;
  /** Final velocity v1 = q̇(t_k + h). */
  readonly v1: Float64Array;
  /** Final action z1 = z(t_k + h). */
  readonly z1: number;
  /** b(h) = ∫ ∂L/∂z dt over [t_k, t_k + h], so σ_d = 1 + D_z = e^{b(h)}. */
  readonly bh: number;
  /** Newton iterations (shooting corrections, Jacobian solves) taken. */
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
    this.rhs = (out, t, y) => {
      for (let c = 0; c < copies; c++) this.field(out, t, y, c * this.m);
    };
  }

  /** out[off…] ← Herglotz field at (t, y[off…]). */
  private field(out: Float64Array, t: number, y: Float64Array, off: number): void {
    const { n, L, q, v, lq, lv, lvz, lvq, lvv, r } = this;
    for (let i = 0; i < n; i++) {
      q[i] = y[off + i]!;
      v[i] = y[off + n + i]!;
    }
    const z = y[off + 2 * n]!;
    const l = L.L(q, v, z, t);
    const lz = L.Lz(q, v, z, t);
    L.Lq(lq, q, v, z, t);
    L.Lv(lv, q, v, z, t);
    L.Lvz(lvz, q, v, z, t);
    L.Lvq(lvq, q, v, z, t);
    L.Lvv(lvv, q, v, z, t);
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
 * derivatives of L, which {@link ContactLagrangian} does not provide.) Core's `NewtonSolver`
 * solves F(v0) = q(h; v0) − q1 = 0 with this Jacobian (one stacked solve gives F and J; the
 * Jacobian callback reuses the evaluation at the same v0); at convergence the same sensitivities
 * give, by the implicit function theorem (∂v0/∂q1 = (∂q(h)/∂v0)⁻¹ =: S),
 *
 *   ∂(D1)/∂q1 = −e^{b(h)} [L_vv(q0, v0, z0) + L_v(q0, v0, z0) ⊗ ∂b(h)/∂v0] S,
 *   ∇_{q1} D_z = e^{b(h)} (∂b(h)/∂v0) S.
 */
class HerglotzShooter {
  readonly n: number;
  readonly options: ResolvedShootingOptions;
  private readonly system: HerglotzSystem;
  private readonly integrator: Dopri5Integrator;
  private readonly newton: NewtonSolver;
  private readonly residualFn: (out: Float64Array, v0: Float64Array) => void;
  private readonly jacobianFn: (out: Float64Array, v0: Float64Array) => void;
  private readonly y0: Float64Array;
  /** v0 of the last evaluation, and its F = q(h) − q1 and J = ∂q(h)/∂v0. */
  private readonly evalV0: Float64Array;
  private evalValid = false;
  private evaluations = 0;
  private readonly F: Float64Array;
  private readonly J: Float64Array;
  private readonly gb: Float64Array;
  private readonly lu: DenseLU;
  private readonly lv: Float64Array;
  private readonly lvv: Float64Array;
  private readonly row: Float64Array;
  private readonly rhsRow: Float64Array;
  // results of the last solve
  readonly q0: Float64Array;
  readonly q1: Float64Array;
  z0 = Number.NaN;
  /** Start time t_k of the last solve. */
  t0 = Number.NaN;
  /** z0 and t_k of the solve in progress. */
  private zSolve = 0;
  private tSolve = 0;
  readonly v0: Float64Array;
  readonly v1: Float64Array;
  readonly D1: Float64Array;
  readonly D2: Float64Array;
  readonly D2D1: Float64Array;
  readonly D2Dz: Float64Array;
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
    checkStepSize('shooting', h);
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
    this.newton = new NewtonSolver(n, {
      stepTol: NEWTON_DEFAULT_STEP_TOL,
      maxIterations: this.options.maxIterations,
      throwOnFailure: true,
      what: 'shooting',
    });
    this.residualFn = (out, v0) => {
      this.evaluate(v0);
      out.set(this.F);
    };
    this.jacobianFn = (out, v0) => {
      if (!this.isEvaluatedAt(v0)) this.evaluate(v0);
      out.set(this.J);
    };
    this.y0 = new Float64Array(N);
    this.evalV0 = new Float64Array(n);
    this.F = new Float64Array(n);
    this.J = new Float64Array(n * n);
    this.gb = new Float64Array(n);
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
    this.D2D1 = new Float64Array(n * n);
    this.D2Dz = new Float64Array(n);
  }

  /** True when the last successful solve started from exactly (q0, z0) at time t. */
  startsAt(q0: ArrayLike<number>, z0: number, t: number): boolean {
    if (z0 !== this.z0 || t !== this.t0) return false;
    for (let i = 0; i < this.n; i++) if (q0[i] !== this.q0[i]) return false;
    return true;
  }

  /** True when the last successful solve was at exactly (q0, q1, z0, t). */
  isAt(q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number, t: number): boolean {
    if (z0 !== this.z0 || t !== this.t0) return false;
    for (let i = 0; i < this.n; i++) {
      if (q0[i] !== this.q0[i] || q1[i] !== this.q1[i]) return false;
    }
    return true;
  }

  /**
   * Solves the boundary-value problem q(t) = q0, q(t + h) = q1, z(t) = z0 and fills every result
   * field. `guess` is the Newton start for v0 (default (q1 − q0)/h).
   */
  solve(
    q0: ArrayLike<number>,
    q1: ArrayLike<number>,
    z0: number,
    guess?: ArrayLike<number>,
    t = 0,
  ): void {
    const { n, h, v0 } = this;
    if (q0.length !== n) throw new DimensionError('shooting: q0', n, q0.length);
    if (q1.length !== n) throw new DimensionError('shooting: q1', n, q1.length);
    if (guess !== undefined && guess.length !== n)
      throw new DimensionError('shooting: guess', n, guess.length);
    checkFinite('shooting: z0', z0);
    checkFinite('shooting: t', t);
    this.z0 = Number.NaN; // the cache key is invalid until this solve converges
    this.zSolve = z0;
    this.tSolve = t;
    this.evalValid = false;
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
    this.evaluations = 0;
    const result = this.newton.solve(
      this.residualFn,
      this.jacobianFn,
      v0,
      undefined,
      this.options.tol * scale,
    );
    v0.set(result.x);
    // the outputs belong to the last evaluation, which core's Newton makes at its returned x
    if (!this.isEvaluatedAt(v0)) this.evaluate(v0);
    this.iterations = result.iterations;
    this.residualNorm = result.residualNorm;
    this.derivatives();
    this.z0 = z0;
    this.t0 = t;
  }

  private isEvaluatedAt(v0: Float64Array): boolean {
    if (!this.evalValid) return false;
    for (let i = 0; i < this.n; i++) if (v0[i] !== this.evalV0[i]) return false;
    return true;
  }

  /**
   * Integrates the stacked system from (q0, v0, z0) on [t, t + h]; fills F = q(h) − q1, J, ∂b/∂v0
   * and the nominal v1, z1, b(h).
   */
  private evaluate(v0: Float64Array): void {
    const { n, y0, q0, q1, F, J, gb, evalV0 } = this;
    const m = this.system.m;
    const z0 = this.zSolve;
    const t = this.tSolve;
    const fdStep = this.options.fdStep;
    this.evalValid = false;
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
      const sol = this.integrator.integrate(y0, t, t + this.h);
      yEnd = sol.sample('y', sol.count - 1);
    } catch (e) {
      if (isIntegrationFailure(e)) {
        throw new NewtonDivergedError(
          this.evaluations,
          Number.POSITIVE_INFINITY,
          undefined,
          `shooting: the Herglotz trajectory does not reach t = h (${e.message})`,
        );
      }
      throw e;
    }
    this.evaluations++;
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
    evalV0.set(v0);
    this.evalValid = true;
  }

  /** (61), (64)–(65) and the q1-derivatives by the implicit function theorem. */
  private derivatives(): void {
    const { n, L, q0, q1, v0, v1, lv, lvv, gb, lu, J, row, rhsRow, D1, D2, D2D1, D2Dz } = this;
    const z0 = this.zSolve;
    const t = this.tSolve;
    const eb = Math.exp(this.bh);
    this.value = this.z1 - z0;
    this.Dz = Math.expm1(this.bh);
    L.Lv(lv, q0, v0, z0, t);
    for (let i = 0; i < n; i++) D1[i] = -lv[i]! * eb;
    L.Lv(D2, q1, v1, this.z1, t + this.h);
    L.Lvv(lvv, q0, v0, z0, t);
    lu.factor(J);
    const cond = lu.conditionEstimate();
    if (lu.isSingular || !(cond < SINGULAR_JACOBIAN_CONDITION)) {
      throw new SingularJacobianError(this.iterations, cond);
    }
    // rows of M S with M = L_vv + L_v ⊗ ∂b/∂v0: solve Sᵀ-systems Jᵀ x = mᵢ
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) rhsRow[k] = lvv[i * n + k]! + lv[i]! * gb[k]!;
      lu.solveTranspose(rhsRow, row);
      for (let j = 0; j < n; j++) D2D1[i * n + j] = -eb * row[j]!;
    }
    lu.solveTranspose(gb, row);
    for (let j = 0; j < n; j++) D2Dz[j] = eb * row[j]!;
  }

  /** v0 + S(q1 − q1ₚᵣₑᵥ): the first-order prediction of v0 at a new q1 (same q0, z0, t). */
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
      D2D1: this.D2D1.slice(),
      D2Dz: this.D2Dz.slice(),
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
 * Solves the exact-discrete-Lagrangian boundary-value problem q(t0) = q0, q(t0 + h) = q1,
 * z(t0) = z0 of the Herglotz equations (t0 = `options.t0`, default 0) by shooting (spec 004 §6.5
 * [S]) and returns L_h^e with its derivatives:
 *
 *   value = z(t0 + h) − z0 (61),  D1 = −L_v(q0, v0, z0)e^{b(h)},  D2 = L_v(q1, v1, z1),
 *   D_z = e^{b(h)} − 1 (64)–(65),
 *
 * plus ∂(D1)/∂q1 and ∇_{q1}D_z. Core's Newton on F(v0) = q(t0 + h; q0, v0, z0) − q1 from
 * v0 = (q1 − q0)/h (or `guess`), each evaluation an adaptive DOPRI5 solve (rtol 1e-12, atol 1e-14 by default) of
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
  options: ShootingOptions & {
    readonly guess?: ArrayLike<number>;
    /** Start time of the step (for a time-dependent L). Default 0. */
    readonly t0?: number;
  } = {},
): ExactShootingResult {
  const shooter = new HerglotzShooter(L, h, options);
  shooter.solve(q0, q1, z0, options.guess, options.t0 ?? 0);
  return shooter.snapshot();
}

/**
 * Work counters of a {@link NumericExactLd}.
 *
 * @example
 * ```ts
 * const stats: ShootingStats = numericExactLd(mechanicalContactLagrangian(zeroPotential(1), -0.05), 0.5).stats;
 * stats.solves; // 0 before the first call
 * ```
 */
export interface ShootingStats {
  /** Shooting solves performed. */
  readonly solves: number;
  /** Calls answered from the cached last solve. */
  readonly cacheHits: number;
  /** Newton iterations summed over all solves. */
  readonly iterations: number;
}

/**
 * The shooting exact discrete Lagrangian, with access to its cached solve.
 *
 * @example
 * ```ts
 * const Ld: NumericExactLd = numericExactLd(mechanicalContactLagrangian(zeroPotential(1), -0.05), 0.5);
 * Ld.solve(Float64Array.of(1), Float64Array.of(2), 3).value; // 0.91348181887580…
 * ```
 */
export interface NumericExactLd extends DiscreteContactLagrangian {
  /** The full result at (q0, q1, z0, t): solved, or reused when the point is the last one. */
  solve(q0: Float64Array, q1: Float64Array, z0: number, t?: number): ExactShootingResult;
  readonly stats: ShootingStats;
}

/**
 * The exact discrete Lagrangian L_h^e of any regular {@link ContactLagrangian}, computed by
 * shooting ({@link shootExact}; spec 004 §6.5 [S], (61), (64)–(65)) on the step [t_k, t_k + h]
 * (t_k the methods' last argument, default 0; a time-dependent L is integrated along the step):
 * L_d = z(t_k + h) − z0, D1 = −L_v(q0, v0, z0)e^{b(h)}, D2 = L_v(q1, v1, z1), D_z = e^{b(h)} − 1,
 * and D2D1, D2Dz from the shooting sensitivities by the implicit function theorem (central
 * differences in v0, ≈ 1e-10 relative; see {@link shootExact}).
 *
 * One solve yields all six outputs, and the last one is cached: the calls an integrator makes in
 * sequence at the same (q0, q1, z0, t_k) (Ld, D1, D2, Dz, D2D1, D2Dz) cost one shooting solve. A
 * new q1 with the same (q0, z0, t_k) — a Newton iteration on q1 — starts from the first-order prediction
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
  const ensure = (q0: Float64Array, q1: Float64Array, z0: number, t: number): HerglotzShooter => {
    if (shooter.isAt(q0, q1, z0, t)) {
      stats.cacheHits++;
      return shooter;
    }
    stats.solves++;
    if (shooter.startsAt(q0, z0, t)) {
      shooter.predict(guess, q1);
      try {
        shooter.solve(q0, q1, z0, guess, t);
        stats.iterations += shooter.iterations;
        return shooter;
      } catch (e) {
        if (!(e instanceof NewtonDivergedError || e instanceof SingularJacobianError)) throw e;
      }
    }
    shooter.solve(q0, q1, z0, undefined, t);
    stats.iterations += shooter.iterations;
    return shooter;
  };
  return Object.freeze({
    name: 'exact',
    n,
    h,
    traits: EXACT_TRAITS,
    stats,
    solve: (q0: Float64Array, q1: Float64Array, z0: number, t = 0): ExactShootingResult =>
      ensure(q0, q1, z0, t).snapshot(),
    Ld: (q0: Float64Array, q1: Float64Array, z0: number, t = 0): number =>
      ensure(q0, q1, z0, t).value,
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      out.set(ensure(q0, q1, z0, t).D1);
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      out.set(ensure(q0, q1, z0, t).D2);
      return out;
    },
    Dz: (q0: Float64Array, q1: Float64Array, z0: number, t = 0): number => ensure(q0, q1, z0, t).Dz,
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      out.set(ensure(q0, q1, z0, t).D2D1);
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      out.set(ensure(q0, q1, z0, t).D2Dz);
      return out;
    },
  });
}

/**
 * A point (q, v, z) of TQ × R.
 *
 * @example
 * ```ts
 * const x: TangentContactPoint = { q: Float64Array.of(1), v: Float64Array.of(0), z: 0 };
 * ```
 */
export interface TangentContactPoint {
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly z: number;
}

/**
 * A point (q0, q1, z0) of Q × Q × R.
 *
 * @example
 * ```ts
 * const x: DiscreteContactPoint = { q0: Float64Array.of(1), q1: Float64Array.of(2), z0: 0 };
 * ```
 */
export interface DiscreteContactPoint {
  readonly q0: Float64Array;
  readonly q1: Float64Array;
  readonly z0: number;
}

/**
 * The exact retraction R_h^{e−}: Q × Q × R → TQ × R (spec 004 §6.1), the local inverse of the
 * contact exponential map (53): (q0, q1, z0) ↦ (q0, v0, z0) with v0 the initial velocity of the
 * Herglotz solution from q0 to q1 in time h (by {@link shootExact}; on [t, t + h] for the optional
 * start time t, default 0).
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
): (q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number, t?: number) => TangentContactPoint {
  const shooter = new HerglotzShooter(L, h, options);
  return (q0, q1, z0, t = 0) => {
    shooter.solve(q0, q1, z0, undefined, t);
    return { q: shooter.q0.slice(), v: shooter.v0.slice(), z: z0 };
  };
}

/**
 * The exact retraction R_h^{e+} = φ_h^{ξ_L} ∘ R_h^{e−} (spec 004 §6.1): (q0, q1, z0) ↦
 * (q1, v1, z1), the end state of the Herglotz solution from q0 to q1 in time h (on [t, t + h] for
 * the optional start time t, default 0). By Theorem 4.3, F⁺L_h^e = FL ∘ R_h^{e+}.
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
): (q0: ArrayLike<number>, q1: ArrayLike<number>, z0: number, t?: number) => TangentContactPoint {
  const shooter = new HerglotzShooter(L, h, options);
  return (q0, q1, z0, t = 0) => {
    shooter.solve(q0, q1, z0, undefined, t);
    return { q: shooter.q1.slice(), v: shooter.v1.slice(), z: shooter.z1 };
  };
}

/**
 * The contact exponential map (53), exp_h^{ξ_L}: (q0, v0, z0) ↦ (q0, q1, z0) with q1 the
 * position at time t + h of the Herglotz flow (spec 004 §4.2 [D] explicit form) from (q0, v0, z0)
 * at time t (optional, default 0),
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
): (q0: ArrayLike<number>, v0: ArrayLike<number>, z0: number, t?: number) => DiscreteContactPoint {
  checkStepSize('contactExponentialMap', h);
  const system = new HerglotzSystem(L, 1);
  const n = L.n;
  const integrator = new Dopri5Integrator(system.m, system.rhs, {
    rtol: options.rtol ?? 1e-12,
    atol: options.atol ?? 1e-14,
    maxSteps: options.maxSteps ?? 100_000,
    dense: false,
  });
  const y0 = new Float64Array(system.m);
  return (q0, v0, z0, t = 0) => {
    if (q0.length !== n) throw new DimensionError('contactExponentialMap: q0', n, q0.length);
    if (v0.length !== n) throw new DimensionError('contactExponentialMap: v0', n, v0.length);
    for (let i = 0; i < n; i++) {
      y0[i] = q0[i]!;
      y0[n + i] = v0[i]!;
    }
    y0[2 * n] = z0;
    y0[2 * n + 1] = 0;
    const sol = integrator.integrate(y0, t, t + h);
    const yEnd = sol.sample('y', sol.count - 1);
    return { q0: Float64Array.from(q0), q1: yEnd.slice(0, n), z0 };
  };
}
