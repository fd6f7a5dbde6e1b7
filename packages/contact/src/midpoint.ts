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
  type MethodTraits,
  methodTraits,
  NEWTON_DEFAULT_TOL,
  NewtonSolver,
  NonFiniteError,
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

  constructor(
    readonly lagrangian: MechanicalContactLagrangian,
    h: number,
    options: MidpointOptions = {},
  ) {
    super(mechanicalMidpointLd(lagrangian.potential, lagrangian.gamma, h), SIGMA_REGULARITY_TOL);
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
    this.qk = new Float64Array(n);
    this.spk = new Float64Array(n);
    this.guess = new Float64Array(n);
    this.mid = new Float64Array(n);
    this.grad = new Float64Array(n);
    const { qk, spk, mid, grad } = this;
    // An autonomous V is called without t (no double argument to box per call).
    this.autonomous = isAutonomous(V);
    const hessV = this.autonomous ? V.hessV : undefined;
    // G(x) = (x − q_k)/h + (h/2)∇V((q_k + x)/2) − σ p_k; leaves the midpoint and ∇V there
    this.residualFn = this.autonomous
      ? (out, x) => {
          for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
          V.gradV(grad, mid);
          for (let i = 0; i < n; i++) out[i] = (x[i]! - qk[i]!) / h + 0.5 * h * grad[i]! - spk[i]!;
        }
      : (out, x) => {
          for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
          V.gradV(grad, mid, this.tm);
          for (let i = 0; i < n; i++) out[i] = (x[i]! - qk[i]!) / h + 0.5 * h * grad[i]! - spk[i]!;
        };
    // ∂G/∂x = I/h + (h/4)∇²V(q_mid)
    this.jacobianFn = (out, x) => {
      for (let i = 0; i < n; i++) mid[i] = 0.5 * (qk[i]! + x[i]!);
      if (hessV !== undefined) hessV.call(V, out, mid);
      else this.hessian(out, mid, this.tm);
      for (let i = 0; i < n * n; i++) out[i] = 0.25 * h * out[i]!;
      for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! + 1 / h;
    };
  }

  protected get hasEnergy(): boolean {
    return true;
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
  protected advance(state: Float64Array, k: number, t: number): number {
    const { n, h, sigma, qk, spk, guess, grad, mid } = this;
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
    for (let i = 0; i < n; i++) {
      state[n + i] = (x[i]! - qk[i]!) / h - 0.5 * h * grad[i]!;
      state[i] = x[i]!;
    }
    state[2 * n] = z;
    this.lastIterations = result.iterations;
    this.lastResidual = result.residualNorm;
    this.lastSigma = sigma;
    return result.iterations;
  }

  /**
   * The Newton system of the step leaving (q, p) at time t: out ← G(x) = (x − q)/h +
   * (h/2)∇V((q + x)/2, t + h/2) − σp and, when `jacobian` is given, jacobian ← ∂G/∂x =
   * I/h + (h/4)∇²V((q + x)/2, t + h/2). For checks of the Jacobian and diagnostics.
   */
  newtonSystem(
    out: Float64Array,
    x: Float64Array,
    q: Float64Array,
    p: Float64Array,
    t = 0,
    jacobian?: Float64Array,
  ): Float64Array {
    const { n, sigma } = this;
    this.tm = t + 0.5 * this.h;
    for (let i = 0; i < n; i++) {
      this.qk[i] = q[i]!;
      this.spk[i] = sigma * p[i]!;
    }
    this.residualFn(out, x);
    if (jacobian !== undefined) this.jacobianFn(jacobian, x);
    return out;
  }
}
