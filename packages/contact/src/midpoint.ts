/**
 * The paper's contact variational integrator for mechanical Lagrangians (spec 004 §7.2, seed 004
 * Section 5): the discrete Lagrangian
 *
 *   L_d(q0, q1, z0, t_k) = |q1 − q0|²/(2h) − h V((q0 + q1)/2, t_k + h/2) + h γ z0   (79), on Rⁿ
 *
 * (midpoint in q and time, left endpoint in z), stepped in Hamiltonian form (spec 004 §7.1,
 * §7.2 [D]), with q_{k+½} = (q_k + q_{k+1})/2 and V at t_k + h/2:
 *
 *   (1 + hγ) p_k = (q_{k+1} − q_k)/h + (h/2) ∇V(q_{k+½})        solved for q_{k+1} by Newton
 *   p_{k+1}      = (q_{k+1} − q_k)/h − (h/2) ∇V(q_{k+½})
 *   z_{k+1}      = (1 + hγ) z_k + |q_{k+1} − q_k|²/(2h) − h V(q_{k+½})
 *
 * with conformal factor σ_d = 1 + D_z L_d = 1 + hγ (constant). This is the discrete Herglotz
 * system (39) written through the discrete Legendre transforms (40), a core `Stepper` run by
 * core's `integrate`; its Newton iteration is core's `NewtonSolver` (whose n = 1 path is scalar).
 *
 * @module
 */
import {
  checkForce,
  DenseLU,
  DimensionError,
  DiscreteForce,
  type Force,
  type MethodTraits,
  methodTraits,
  NEWTON_DEFAULT_STEP_TOL,
  NEWTON_DEFAULT_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  SingularJacobianError,
  SingularMatrixError,
} from '@geomech/core';
import { mechanicalMidpointLd } from './discrete.js';
import { type PotentialHessian, potentialHessian } from './internal.js';
import {
  contactHamiltonian,
  isAutonomous,
  type MechanicalContactLagrangian,
} from './mechanical.js';
import { checkSigma, SIGMA_REGULARITY_TOL } from './regularity.js';
import { ContactStepper } from './stepper.js';

/**
 * Options of {@link MidpointHerglotz}.
 *
 * @example
 * ```ts
 * const options: MidpointOptions = { tol: 1e-13, maxIterations: 20 };
 * ```
 */
export interface MidpointOptions {
  /** Newton tolerance on the residual's max-norm (absolute; core's default 1e-12). */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
  /**
   * An external (control) force F(t, q, v, u), discretized by the midpoint rule of (79):
   * f_d⁻ = f_d⁺ = (h/2) F(t_k + h/2, q_{k+½}, (q_{k+1} − q_k)/h, u_k) (core's `DiscreteForce`);
   * the integrator's input size is then `force.m`.
   */
  readonly force?: Force;
}

/**
 * The traits of the paper's midpoint integrator (79): first order, implicit, conformally contact
 * and variational (Thm 3.9), not symmetric (z at the left endpoint).
 *
 * @example
 * ```ts
 * midpointHerglotzMethod.name; // 'midpoint' (the CLI's method name)
 * ```
 */
export const midpointHerglotzMethod: MethodTraits = methodTraits({
  name: 'midpoint',
  description: 'the midpoint discrete Herglotz integrator (79) of seed 004',
  order: 1,
  isExplicit: false,
  isSymplectic: true,
  isSymmetric: false,
  isVariational: true,
});

/**
 * The midpoint discrete Herglotz integrator for `L = ½|v|² − V(q, t) + γz` (seed 004 eq. (79)),
 * a core `Stepper` on the state (q, p, z). Owns a core {@link NewtonSolver} and its scratch: its
 * step allocates nothing. `integrate(init, steps, options)` runs core's `integrate` and returns the
 * one `Solution` (see `ContactStepper`); `Ld` is the equivalent `mechanicalMidpointLd`.
 *
 * Newton solves G(x) = (x − q_k)/h + (h/2)∇V((q_k + x)/2) − σ p_k = 0 with
 * ∂G/∂x = I/h + (h/4)∇²V((q_k + x)/2) (∇²V from `hessV`, else central differences of `gradV`)
 * from the free flight x = q_k + h(σ p_k), exact when ∇V ≡ 0.
 *
 * Forced (option `force`, inputs u_k from core's `integrate`): the discrete Herglotz equations
 * (39) through the forced discrete Legendre transforms (Marsden–West 2001 (3.2.5)),
 * σ p_k = −D1 L_d − f_d⁻, p_{k+1} = D2 L_d + f_d⁺, with the midpoint f_d^± = (h/2) F̄,
 * F̄ = F(t_k + h/2, q_{k+½}, (q_{k+1} − q_k)/h, u_k):
 *
 *   G(x) = (x − q_k)/h + (h/2)∇V(q_{k+½}) − (h/2)F̄ − σ p_k = 0,
 *   ∂G/∂x = I/h + (h/4)∇²V(q_{k+½}) − (h/2) ∂F̄/∂q_{k+1},
 *   p_{k+1} = (x − q_k)/h − (h/2)∇V(q_{k+½}) + (h/2)F̄,   z_{k+1} as unforced.
 *
 * For γ = 0 and a quadratic V this satisfies the discrete energy balance
 * E_{k+1} − E_k = F̄·(q_{k+1} − q_k) exactly (E = ½|p|² + V). {@link stepDerivatives} gives
 * ∂x_{k+1}/∂x_k and ∂x_{k+1}/∂u_k of the last step.
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const sol = new MidpointHerglotz(lag, 0.5).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
 * sol.q[2]; // 2.5102941176470589 (spec 004 §8.2 reference table)
 * ```
 */
export class MidpointHerglotz extends ContactStepper {
  readonly method = midpointHerglotzMethod;
  /** σ_d = 1 + hγ. */
  readonly sigma: number;
  private readonly newton: NewtonSolver;
  private readonly hessian: PotentialHessian;
  /**
   * n = 1, unforced, autonomous V: the step runs a scalar Newton iteration with the stopping rule
   * of core's NewtonSolver (|G| ≤ tol, or a full step |Δx| ≤ NEWTON_DEFAULT_STEP_TOL·max(1, |x|))
   * without its general-n machinery, which costs more than the step itself in one dimension
   * (60 ns against 290 ns per step on the damped pendulum). Kept after core gained
   * `NewtonSolver.solveScalar` (issue 15): the same step through it (a `ScalarNewtonProblem`
   * class whose methods V8 inlines, bit-identical iterates, 0 B/step) took 92 against 74 ns on the
   * damped pendulum and 185 against 149 ns on the undamped one (CPU time per step, both in one
   * process, alternating batches, median of 11; 2026-11-27, load average ≈ 15), beyond the 10 %
   * allowed: the solver's bookkeeping (history, result object, stop reasons, its checks) and the
   * call V8 does not inline (a lean scalar loop behind the same call came within 8–13 %).
   * Before that, the step through `solve`'s n = 1 path took 185 ns against 84 ns.
   */
  private readonly scalarPath: boolean;
  private readonly tolScalar: number;
  private readonly maxIterationsScalar: number;
  private readonly hess1 = new Float64Array(1);
  private readonly residualFn: (out: Float64Array, x: Float64Array) => void;
  private readonly jacobianFn: (out: Float64Array, x: Float64Array) => void;
  // the step being solved: q_k, σ p_k and the quadrature time t_k + h/2
  private readonly qk: Float64Array;
  private readonly spk: Float64Array;
  private tm = 0;
  /** True when the potential declares itself autonomous (it is then called without t). */
  private readonly autonomous: boolean;
  private readonly guess: Float64Array;
  private readonly mid: Float64Array;
  private readonly grad: Float64Array;
  /** The discrete force (midpoint rule), when forced. */
  readonly discreteForce: DiscreteForce | undefined;
  // the forced step: u_k, F̄ and ∂F̄/∂q_{k+1} scratch
  private uk: Float64Array;
  private readonly fbar: Float64Array;
  private readonly fq1: Float64Array;
  // the last step taken (for stepDerivatives): q_k, q_{k+1}, u_k, t_k, valid flag
  private readonly lastQ: Float64Array;
  private readonly lastQ1: Float64Array;
  private readonly lastU: Float64Array;
  private lastT = 0;
  private hasLastStep = false;
  private derivatives: MidpointDerivativeScratch | undefined;

  constructor(
    readonly lagrangian: MechanicalContactLagrangian,
    h: number,
    options: MidpointOptions = {},
  ) {
    const force = options.force;
    const m = force === undefined ? 0 : checkForce('MidpointHerglotz: force', force, lagrangian.n);
    super(mechanicalMidpointLd(lagrangian.potential, lagrangian.gamma, h), SIGMA_REGULARITY_TOL, m);
    // σ_d = 1 + hγ must not vanish (RegularityError); σ_d < 0 is allowed and reported in the
    // solution's warnings (spec 004 §9.12).
    this.sigma = checkSigma(h * lagrangian.gamma, 0);
    const n = this.n;
    const V = lagrangian.potential;
    this.newton = new NewtonSolver(n, {
      tol: options.tol ?? NEWTON_DEFAULT_TOL,
      maxIterations: options.maxIterations ?? 50,
      throwOnFailure: true,
    });
    this.hessian = potentialHessian(V);
    this.tolScalar = options.tol ?? NEWTON_DEFAULT_TOL;
    this.maxIterationsScalar = options.maxIterations ?? 50;
    this.scalarPath = n === 1 && force === undefined && isAutonomous(V);
    this.qk = new Float64Array(n);
    this.spk = new Float64Array(n);
    this.guess = new Float64Array(n);
    this.mid = new Float64Array(n);
    this.grad = new Float64Array(n);
    this.discreteForce = force === undefined ? undefined : new DiscreteForce(force, h, 'midpoint');
    this.uk = this.zeroInput;
    this.fbar = new Float64Array(n);
    this.fq1 = new Float64Array(n * n);
    this.lastQ = new Float64Array(n);
    this.lastQ1 = new Float64Array(n);
    this.lastU = new Float64Array(m);
    const { qk, spk, mid, grad, fbar, fq1 } = this;
    const fd = this.discreteForce;
    // An autonomous V is called without t (no double argument to box per call).
    this.autonomous = isAutonomous(V);
    const hessV = this.autonomous ? V.hessV : undefined;
    // G(x) = (x − q_k)/h + (h/2)∇V((q_k + x)/2) − σ p_k; leaves the midpoint and ∇V there
    // forced: − (h/2)F̄, F̄ = F(t_k + h/2, (q_k + x)/2, (x − q_k)/h, u_k), left in fbar
    this.residualFn =
      fd !== undefined
        ? (out, x) => {
            for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
            if (this.autonomous) V.gradV(grad, mid);
            else V.gradV(grad, mid, this.tm);
            fd.value(fbar, this.tm - 0.5 * h, qk, x, this.uk);
            for (let i = 0; i < n; i++)
              out[i] = (x[i]! - qk[i]!) / h + 0.5 * h * (grad[i]! - fbar[i]!) - spk[i]!;
          }
        : this.autonomous
          ? (out, x) => {
              for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
              V.gradV(grad, mid);
              for (let i = 0; i < n; i++)
                out[i] = (x[i]! - qk[i]!) / h + 0.5 * h * grad[i]! - spk[i]!;
            }
          : (out, x) => {
              for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
              V.gradV(grad, mid, this.tm);
              for (let i = 0; i < n; i++)
                out[i] = (x[i]! - qk[i]!) / h + 0.5 * h * grad[i]! - spk[i]!;
            };
    // ∂G/∂x = I/h + (h/4)∇²V(q_mid)
    this.jacobianFn = (out, x) => {
      for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
      if (hessV !== undefined) hessV.call(V, out, mid);
      else this.hessian(out, mid, this.tm);
      for (let i = 0; i < n * n; i++) out[i] = 0.25 * h * out[i]!;
      for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! + 1 / h;
      if (fd !== undefined) {
        // − (h/2) ∂F̄/∂q_{k+1}
        fd.jacobian(undefined, fq1, undefined, this.tm - 0.5 * h, qk, x, this.uk);
        for (let i = 0; i < n * n; i++) out[i] = out[i]! - 0.5 * h * fq1[i]!;
      }
    };
  }

  protected get hasEnergy(): boolean {
    return true;
  }

  protected get energyIgnoresTime(): boolean {
    return this.autonomous;
  }

  protected momentum(out: Float64Array, _q: Float64Array, v: Float64Array): void {
    out.set(v); // the Legendre map of ½|v|² − V + γz
  }

  /** σ_d = 1 + hγ is constant: a negative one is reported for step 0 of every run. */
  protected override onReset(): void {
    if (this.sigma < 0) {
      this.firstNegativeSigmaStep = 0;
      this.firstNegativeSigma = this.sigma;
    }
  }

  /** H(q, p, z, t) = ½|p|² + V(q, t) − γz. */
  energy(q: Float64Array, p: Float64Array, z: number, t = 0): number {
    return contactHamiltonian(this.lagrangian, q, p, z, t);
  }

  /**
   * One step of Φ̃_d (43) of (79) on the flat state (q_k, p_k, z_k) at time t_k, in place.
   * Allocates nothing.
   */
  protected advance(state: Float64Array, k: number, u: Float64Array): number {
    const t = this.tStep;
    const { n, h, sigma, qk, spk, guess, grad, mid, fbar } = this;
    const forced = this.discreteForce !== undefined;
    if (u.length !== this.inputSize)
      throw new DimensionError(`${this.method.name}: u`, this.inputSize, u.length);
    if (this.scalarPath) return this.advanceScalar(state, k);
    this.uk = u;
    this.tm = t + 0.5 * h;
    // initial guess: the free flight q + h(σp) (exact when ∇V ≡ 0)
    for (let i = 0; i < n; i++) {
      const q = state[i]!;
      const s = sigma * state[n + i]!;
      qk[i] = q;
      spk[i] = s;
      guess[i] = q + h * s;
    }
    const result = this.newton.solve(this.residualFn, this.jacobianFn, guess, k);
    const x = result.x; // q_{k+1}; the last residual evaluation left mid and ∇V(mid) at it
    let dq2 = 0;
    for (let i = 0; i < n; i++) {
      const d = x[i]! - qk[i]!;
      dq2 += d * d;
    }
    const V = this.lagrangian.potential;
    const z =
      sigma * state[2 * n]! + dq2 / (2 * h) - h * (this.autonomous ? V.V(mid) : V.V(mid, this.tm));
    if (!Number.isFinite(z)) throw new NonFiniteError(`step ${k}: z`);
    // p_{k+1} = D2 L_d + f_d⁺; the last residual evaluation left F̄ at x in fbar
    if (forced) {
      for (let i = 0; i < n; i++) {
        const p1 = (x[i]! - qk[i]!) / h - 0.5 * h * (grad[i]! - fbar[i]!);
        if (!Number.isFinite(p1)) throw new NonFiniteError(`step ${k}: p`, i);
      }
    }
    if (!this.peeking) {
      // loops, not TypedArray.set: n is small and a builtin call per array costs more
      const { lastQ, lastQ1, lastU } = this;
      for (let i = 0; i < n; i++) {
        lastQ[i] = qk[i]!;
        lastQ1[i] = x[i]!;
      }
      for (let i = 0; i < lastU.length; i++) lastU[i] = u[i]!;
      this.lastT = t;
      this.hasLastStep = true;
    }
    for (let i = 0; i < n; i++) {
      state[n + i] = forced
        ? (x[i]! - qk[i]!) / h - 0.5 * h * (grad[i]! - fbar[i]!)
        : (x[i]! - qk[i]!) / h - 0.5 * h * grad[i]!;
      state[i] = x[i]!;
    }
    state[2 * n] = z;
    this.lastIterations = result.iterations;
    this.lastResidual = result.residualNorm;
    this.lastSigma = sigma;
    return result.iterations;
  }

  /**
   * {@link advance} for n = 1, unforced, autonomous V (see {@link scalarPath}): a step kernel on
   * doubles, private like `ContactIntegrator`'s kernels (kernels.ts, not in the package index), and
   * reached through {@link step}.
   */
  private advanceScalar(state: Float64Array, k: number): number {
    const t = this.tStep;
    const { h, sigma, grad, mid, hess1 } = this;
    const V = this.lagrangian.potential;
    const q0 = state[0]!;
    const sp = sigma * state[1]!;
    let x = q0 + h * sp;
    mid[0] = 0.5 * (q0 + x);
    V.gradV(grad, mid);
    let g = (x - q0) / h + 0.5 * h * grad[0]! - sp;
    let r = Math.abs(g);
    if (!Number.isFinite(r)) throw new NonFiniteError('newton: F(x0)', 0);
    let it = 0;
    for (;;) {
      if (r <= this.tolScalar) break;
      if (it >= this.maxIterationsScalar) throw new NewtonDivergedError(it, r, k);
      if (V.hessV !== undefined) V.hessV(hess1, mid);
      else this.hessian(hess1, mid, t + 0.5 * h);
      const dg = 1 / h + 0.25 * h * hess1[0]!;
      if (!(dg !== 0) || !Number.isFinite(dg)) {
        throw new SingularJacobianError(it, Number.POSITIVE_INFINITY, k);
      }
      const dx = -g / dg;
      it++;
      const small = Math.abs(dx) <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, Math.abs(x));
      x += dx;
      mid[0] = 0.5 * (q0 + x);
      V.gradV(grad, mid);
      g = (x - q0) / h + 0.5 * h * grad[0]! - sp;
      r = Math.abs(g);
      if (!Number.isFinite(r))
        throw new NewtonDivergedError(it, r, k, 'produced a non-finite residual');
      if (small) break;
    }
    const d = x - q0;
    const z = sigma * state[2]! + (d * d) / (2 * h) - h * V.V(mid);
    if (!Number.isFinite(z)) throw new NonFiniteError(`step ${k}: z`);
    if (!this.peeking) {
      this.lastQ[0] = q0;
      this.lastQ1[0] = x;
      this.lastT = t;
      this.hasLastStep = true;
    }
    state[1] = d / h - 0.5 * h * grad[0]!;
    state[0] = x;
    state[2] = z;
    this.lastIterations = it;
    this.lastResidual = r;
    this.lastSigma = sigma;
    return it;
  }

  /**
   * The Newton system of the step leaving (q, p) at time t with input u (default 0): out ← G(x) =
   * (x − q)/h + (h/2)∇V((q + x)/2, t + h/2) − (h/2)F̄ − σp and, when `jacobian` is given,
   * jacobian ← ∂G/∂x = I/h + (h/4)∇²V((q + x)/2, t + h/2) − (h/2)∂F̄/∂x (F̄ = 0 unforced). For
   * checks of the Jacobian and diagnostics.
   */
  newtonSystem(
    out: Float64Array,
    x: Float64Array,
    q: Float64Array,
    p: Float64Array,
    t = 0,
    jacobian?: Float64Array,
    u: Float64Array = this.zeroInput,
  ): Float64Array {
    const { n, sigma } = this;
    if (u.length !== this.inputSize)
      throw new DimensionError('newtonSystem: u', this.inputSize, u.length);
    this.uk = u;
    this.tm = t + 0.5 * this.h;
    for (let i = 0; i < n; i++) {
      this.qk[i] = q[i]!;
      this.spk[i] = sigma * p[i]!;
    }
    this.residualFn(out, x);
    if (jacobian !== undefined) this.jacobianFn(jacobian, x);
    return out;
  }

  /**
   * The step derivatives of the last step taken (core's `Stepper.stepDerivatives`), on the state
   * x = (q, p, z) (size 2n + 1) and the input u (size m): `dxdx` ← ∂x_{k+1}/∂x_k ((2n+1)², row-major)
   * and `dxdu` ← ∂x_{k+1}/∂u_k ((2n+1) × m). By the implicit function theorem on G(y; q, p, u) = 0
   * (y = q_{k+1}), with the Newton Jacobian G_y = I/h + (h/4)∇²V − (h/2)∂F̄/∂q_{k+1} evaluated and
   * factored at the accepted y:
   *
   *   ∂y/∂q = −G_y⁻¹(−I/h + (h/4)∇²V − (h/2)∂F̄/∂q_k),  ∂y/∂p = σ G_y⁻¹,  ∂y/∂u = (h/2) G_y⁻¹ ∂F̄/∂u,
   *
   * then the chain rule through p_{k+1} = (y − q)/h − (h/2)∇V(q_{k+½}) + (h/2)F̄ and
   * z_{k+1} = σz + |y − q|²/(2h) − hV(q_{k+½}). Cold path: allocates its scratch on the first call.
   *
   * @throws {@link DomainError} before any step, or after the explicit two-point start step (its
   *   map does not depend on p_0); {@link DimensionError} for wrong output lengths;
   *   {@link SingularMatrixError} for a singular G_y.
   * @example
   * ```ts
   * const st = new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1), 0.1);
   * const x = Float64Array.of(1, 0, 0);
   * st.step(x, 0);
   * const A = new Float64Array(9);
   * st.stepDerivatives(A, new Float64Array(0)); // A[0] = ∂q₁/∂q₀ ≈ 0.995
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { n, h, sigma } = this;
    const m = this.inputSize;
    const s = 2 * n + 1;
    this.checkDerivativeCall('MidpointHerglotz.stepDerivatives', this.hasLastStep, dxdx, dxdu);
    this.derivatives ??= midpointDerivativeScratch(n, m);
    const d = this.derivatives;
    const { lastQ: q, lastQ1: y, lastU: u } = this;
    const V = this.lagrangian.potential;
    const tm = this.lastT + 0.5 * h;
    const { mid, grad, H, Gy, Gq, Fq0, Fq1, Fu, rhs, col, lu } = d;
    for (let i = 0; i < n; i++) mid[i] = 0.5 * (q[i]! + y[i]!);
    if (this.autonomous) V.gradV(grad, mid);
    else V.gradV(grad, mid, tm);
    if (this.autonomous && V.hessV !== undefined) V.hessV(H, mid);
    else this.hessian(H, mid, tm);
    const fd = this.discreteForce;
    if (fd !== undefined) fd.jacobian(Fq0, Fq1, m > 0 ? Fu : undefined, this.lastT, q, y, u);
    else {
      Fq0.fill(0);
      Fq1.fill(0);
    }
    for (let i = 0; i < n * n; i++) {
      Gy[i] = 0.25 * h * H[i]! - 0.5 * h * Fq1[i]!;
      Gq[i] = 0.25 * h * H[i]! - 0.5 * h * Fq0[i]!;
    }
    for (let i = 0; i < n; i++) {
      Gy[i * n + i] = Gy[i * n + i]! + 1 / h;
      Gq[i * n + i] = Gq[i * n + i]! - 1 / h;
    }
    lu.factor(Gy);
    if (lu.isSingular) throw new SingularMatrixError('MidpointHerglotz.stepDerivatives: G_y', -1);
    // column j of (x, u): j < n: q_j; j < 2n: p_{j−n}; j = 2n: z; j > 2n: u_{j−2n−1}
    for (let j = 0; j < s + m; j++) {
      // rhs = −(G_q δq + G_p δp + G_u δu), G_p = −σI, G_u = −(h/2)∂F̄/∂u
      for (let i = 0; i < n; i++) {
        let r = 0;
        if (j < n) r = -Gq[i * n + j]!;
        else if (j < 2 * n) r = i === j - n ? sigma : 0;
        else if (j > 2 * n) r = 0.5 * h * Fu[i * m + (j - s)]!;
        rhs[i] = r;
      }
      lu.solve(rhs, col); // col = δy
      const out = j < s ? dxdx : dxdu;
      const w = j < s ? s : m;
      const c = j < s ? j : j - s;
      let dz = j === 2 * n ? sigma : 0;
      for (let i = 0; i < n; i++) {
        const dqi = j === i ? 1 : 0;
        const dyi = col[i]!;
        out[i * w + c] = dyi;
        // δp_{k+1} = (δy − δq)/h − (h/4)∇²V(δq + δy) + (h/2)(F̄_{q0}δq + F̄_{q1}δy + F̄_u δu)
        let hv = 0;
        let fv = 0;
        for (let l = 0; l < n; l++) {
          const dql = j === l ? 1 : 0;
          hv += H[i * n + l]! * (dql + col[l]!);
          fv += Fq0[i * n + l]! * dql + Fq1[i * n + l]! * col[l]!;
        }
        if (j > 2 * n) fv += Fu[i * m + (j - s)]!;
        out[(n + i) * w + c] = (dyi - dqi) / h - 0.25 * h * hv + 0.5 * h * fv;
        // δz_{k+1} = σδz + (y − q)·(δy − δq)/h − (h/2)∇V·(δq + δy)
        dz += ((y[i]! - q[i]!) * (dyi - dqi)) / h - 0.5 * h * grad[i]! * (dqi + dyi);
      }
      out[2 * n * w + c] = dz;
    }
  }
}

/** Scratch of {@link MidpointHerglotz.stepDerivatives} (allocated on its first call). */
interface MidpointDerivativeScratch {
  readonly mid: Float64Array;
  readonly grad: Float64Array;
  readonly H: Float64Array;
  readonly Gy: Float64Array;
  readonly Gq: Float64Array;
  readonly Fq0: Float64Array;
  readonly Fq1: Float64Array;
  readonly Fu: Float64Array;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
  readonly lu: DenseLU;
}

function midpointDerivativeScratch(n: number, m: number): MidpointDerivativeScratch {
  return {
    mid: new Float64Array(n),
    grad: new Float64Array(n),
    H: new Float64Array(n * n),
    Gy: new Float64Array(n * n),
    Gq: new Float64Array(n * n),
    Fq0: new Float64Array(n * n),
    Fq1: new Float64Array(n * n),
    Fu: new Float64Array(Math.max(1, n * m)),
    rhs: new Float64Array(n),
    col: new Float64Array(n),
    lu: new DenseLU(n),
  };
}
