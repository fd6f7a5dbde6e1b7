/**
 * The paper's contact variational integrator for mechanical Lagrangians (spec 004 §7.2, seed 004
 * Section 5): the discrete Lagrangian
 *
 *   L_d(q0, q1, z0) = |q1 − q0|²/(2h) − h V((q0 + q1)/2) + h γ z0          (79), generalized to Rⁿ
 *
 * (midpoint in q, left endpoint in z), stepped in Hamiltonian form (spec 004 §7.1, §7.2 [D]):
 *
 *   (1 + hγ) p_k = (q_{k+1} − q_k)/h + (h/2) ∇V(q_{k+½})        solved for q_{k+1} by Newton
 *   p_{k+1}      = (q_{k+1} − q_k)/h − (h/2) ∇V(q_{k+½})
 *   z_{k+1}      = (1 + hγ) z_k + |q_{k+1} − q_k|²/(2h) − h V(q_{k+½})
 *
 * with conformal factor σ_d = 1 + D_z L_d = 1 + hγ (constant). This is the discrete Herglotz
 * system (39) written through the discrete Legendre transforms (40).
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DomainError,
  NEWTON_DEFAULT_STEP_TOL,
  NEWTON_DEFAULT_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  PROGRESS_INTERVAL_STEPS,
  type ProgressCallback,
  SingularJacobianError,
} from '@geomech/core';
import { copyVector } from './internal.js';
import { contactHamiltonian, type MechanicalContactLagrangian } from './mechanical.js';
import { checkSigma, negativeSigmaWarning } from './regularity.js';

/** Options of {@link MidpointHerglotz}. */
export interface MidpointOptions {
  /** Newton tolerance on the residual's max-norm (absolute; core's default 1e-12). */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
}

/** Initial data: the paper's two-point start (q0, q1, z0) or a phase-space start (q0, v0, z0). */
export type ContactInitialData =
  | { readonly q0: ArrayLike<number>; readonly q1: ArrayLike<number>; readonly z0: number }
  | { readonly q0: ArrayLike<number>; readonly v0: ArrayLike<number>; readonly z0: number };

/** A discrete contact trajectory in flat storage (`count` kept states). */
export interface ContactSolution {
  readonly dim: number;
  readonly count: number;
  /** Step indices k of the kept states. */
  readonly k: Int32Array;
  readonly t: Float64Array;
  /** Positions, `count × dim` row-major. */
  readonly q: Float64Array;
  /** Momenta p_k (the common value of F⁺ and F⁻ on the trajectory), `count × dim`. */
  readonly p: Float64Array;
  readonly z: Float64Array;
  /** Contact Hamiltonian H(q_k, p_k, z_k). */
  readonly energy: Float64Array;
  /** Conformal factor σ_k = 1 + D_z L_d of the step leaving state k. */
  readonly sigma: Float64Array;
  readonly stats: { readonly newtonIterations: number; readonly maxResidual: number };
  /** Diagnostics that did not stop the run (e.g. σ < 0); empty when all is well. */
  readonly warnings: readonly string[];
}

/**
 * The midpoint discrete Herglotz integrator for `L = ½|v|² − V(q) + γz` (seed 004 eq. (79)).
 * Owns a core {@link NewtonSolver} and its scratch: {@link step} allocates nothing.
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const sol = new MidpointHerglotz(lag, 0.5).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
 * sol.q[2]; // 2.5102941176470589 (spec 004 §8.2 reference table)
 * ```
 */
export class MidpointHerglotz {
  readonly n: number;
  /** σ_d = 1 + hγ. */
  readonly sigma: number;
  private readonly newton: NewtonSolver;
  private readonly tol: number;
  private readonly maxIterations: number;
  private readonly zBox = new Float64Array(1);
  private readonly hess: Float64Array;
  private readonly residualFn: (out: Float64Array, x: Float64Array) => void;
  private readonly jacobianFn: (out: Float64Array, x: Float64Array) => void;
  private readonly qk: Float64Array;
  private readonly pk: Float64Array;
  private readonly guess: Float64Array;
  private readonly mid: Float64Array;
  private readonly grad: Float64Array;
  private readonly fdA: Float64Array;
  private readonly fdB: Float64Array;
  /** Newton statistics of the last {@link step}. */
  lastIterations = 0;
  lastResidual = 0;

  constructor(
    readonly lagrangian: MechanicalContactLagrangian,
    readonly h: number,
    options: MidpointOptions = {},
  ) {
    if (!(h > 0) || !Number.isFinite(h))
      throw new DomainError('MidpointHerglotz: h', h, 'must be a finite number > 0');
    this.n = lagrangian.potential.dim;
    // σ_d = 1 + hγ must not vanish (RegularityError); σ_d < 0 is allowed and reported in the
    // solution's warnings (spec 004 §9.12).
    this.sigma = checkSigma(h * lagrangian.gamma, 0);
    const n = this.n;
    this.tol = options.tol ?? NEWTON_DEFAULT_TOL;
    this.maxIterations = options.maxIterations ?? 50;
    this.newton = new NewtonSolver(n, { tol: this.tol, maxIterations: this.maxIterations });
    this.hess = new Float64Array(n * n);
    this.qk = new Float64Array(n);
    this.pk = new Float64Array(n);
    this.guess = new Float64Array(n);
    this.mid = new Float64Array(n);
    this.grad = new Float64Array(n);
    this.fdA = new Float64Array(n);
    this.fdB = new Float64Array(n);
    // G(x) = (x − q_k)/h + (h/2)∇V((q_k + x)/2) − σ p_k
    this.residualFn = (out, x) => {
      this.midGradient(this.qk, x);
      for (let i = 0; i < n; i++) {
        out[i] = (x[i]! - this.qk[i]!) / h + 0.5 * h * this.grad[i]! - this.sigma * this.pk[i]!;
      }
    };
    // ∂G/∂x = I/h + (h/4)∇²V(q_mid)
    this.jacobianFn = (out, x) => {
      for (let i = 0; i < n; i++) this.mid[i] = 0.5 * (this.qk[i]! + x[i]!);
      this.hessianAt(out, this.mid);
      for (let i = 0; i < n * n; i++) out[i] = 0.25 * h * out[i]!;
      for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! + 1 / h;
    };
  }

  /** L_d(q0, q1, z0), eq. (79). */
  discreteLagrangian(q0: Float64Array, q1: Float64Array, z0: number): number {
    const { n, h, mid } = this;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const d = q1[i]! - q0[i]!;
      s += d * d;
      mid[i] = 0.5 * (q0[i]! + q1[i]!);
    }
    return s / (2 * h) - h * this.lagrangian.potential.value(mid) + h * this.lagrangian.gamma * z0;
  }

  /** out ← D1 L_d(q0, q1) = −(q1 − q0)/h − (h/2)∇V(q_mid) (spec 004 §7.2). */
  D1Ld(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
    this.midGradient(q0, q1);
    for (let i = 0; i < this.n; i++)
      out[i] = -(q1[i]! - q0[i]!) / this.h - 0.5 * this.h * this.grad[i]!;
    return out;
  }

  /** out ← D2 L_d(q0, q1) = (q1 − q0)/h − (h/2)∇V(q_mid) (spec 004 §7.2). */
  D2Ld(out: Float64Array, q0: Float64Array, q1: Float64Array): Float64Array {
    this.midGradient(q0, q1);
    for (let i = 0; i < this.n; i++)
      out[i] = (q1[i]! - q0[i]!) / this.h - 0.5 * this.h * this.grad[i]!;
    return out;
  }

  /**
   * One step of the discrete Hamiltonian flow Φ̃_d = F⁺L_d ∘ (F⁻L_d)⁻¹ (eq. (43)), in place:
   * (q, p) are overwritten with (q_{k+1}, p_{k+1}); returns z_{k+1}. `stepIndex` only labels errors.
   */
  step(q: Float64Array, p: Float64Array, z: number, stepIndex = 0): number {
    const box = this.zBox;
    box[0] = z;
    this.advance(q, p, box, stepIndex);
    return box[0]!;
  }

  /**
   * {@link step} with z kept in `zBox[0]` (in place): the per-step hot path of {@link integrate}.
   * Passing z in a typed array instead of returning a number keeps the loop free of allocation
   * (a double returned from a non-inlined call is boxed).
   */
  advance(q: Float64Array, p: Float64Array, zBox: Float64Array, stepIndex = 0): void {
    if (this.n === 1) {
      this.advanceScalar(q, p, zBox, stepIndex);
      return;
    }
    const { n, h, sigma, qk, pk, guess, grad, mid } = this;
    // initial guess: the free flight q + hσp (exact when ∇V ≡ 0)
    for (let i = 0; i < n; i++) {
      qk[i] = q[i]!;
      pk[i] = p[i]!;
      guess[i] = q[i]! + h * sigma * p[i]!;
    }
    const result = this.newton.solve(this.residualFn, this.jacobianFn, guess, stepIndex);
    if (!result.converged)
      throw new NewtonDivergedError(result.iterations, result.residualNorm, stepIndex);
    this.lastIterations = result.iterations;
    this.lastResidual = result.residualNorm;
    const x = result.x; // q_{k+1}
    this.midGradient(qk, x);
    let dq2 = 0;
    for (let i = 0; i < n; i++) {
      const d = x[i]! - qk[i]!;
      dq2 += d * d;
      p[i] = d / h - 0.5 * h * grad[i]!;
    }
    zBox[0] = sigma * zBox[0]! + dq2 / (2 * h) - h * this.lagrangian.potential.value(mid);
    for (let i = 0; i < n; i++) q[i] = x[i]!;
  }

  /**
   * The same step for n = 1 with a scalar Newton iteration: the stopping rule of core's
   * NewtonSolver (|G| ≤ tol, or a full step |Δx| ≤ NEWTON_DEFAULT_STEP_TOL·max(1, |x|)) without its
   * general-n machinery, which costs more than the step itself in one dimension.
   */
  private advanceScalar(
    q: Float64Array,
    p: Float64Array,
    zBox: Float64Array,
    stepIndex: number,
  ): void {
    const { h, sigma, grad, mid, hess } = this;
    const V = this.lagrangian.potential;
    const q0 = q[0]!;
    const sp = sigma * p[0]!;
    let x = q0 + h * sp;
    mid[0] = 0.5 * (q0 + x);
    V.gradient(grad, mid);
    let g = (x - q0) / h + 0.5 * h * grad[0]! - sp;
    let r = Math.abs(g);
    if (!Number.isFinite(r)) throw new NonFiniteError('MidpointHerglotz: residual', stepIndex);
    let k = 0;
    for (;;) {
      if (r <= this.tol) break;
      if (k >= this.maxIterations) throw new NewtonDivergedError(k, r, stepIndex);
      this.hessianAt(hess, mid);
      const dg = 1 / h + 0.25 * h * hess[0]!;
      if (!(dg !== 0) || !Number.isFinite(dg)) {
        throw new SingularJacobianError(k, Number.POSITIVE_INFINITY, stepIndex);
      }
      const dx = -g / dg;
      k++;
      const small = Math.abs(dx) <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, Math.abs(x));
      x += dx;
      mid[0] = 0.5 * (q0 + x);
      V.gradient(grad, mid);
      g = (x - q0) / h + 0.5 * h * grad[0]! - sp;
      r = Math.abs(g);
      if (!Number.isFinite(r))
        throw new NewtonDivergedError(k, r, stepIndex, 'produced a non-finite residual');
      if (small) break;
    }
    this.lastIterations = k;
    this.lastResidual = r;
    const d = x - q0;
    p[0] = d / h - 0.5 * h * grad[0]!;
    zBox[0] = sigma * zBox[0]! + (d * d) / (2 * h) - h * V.value(mid);
    q[0] = x;
  }

  /**
   * Integrates `steps` steps from the given initial data. With (q0, q1, z0) the first step is the
   * paper's: p_0 = F⁻ (eq. (40)), p_1 = D2 L_d(q0, q1, z0), z_1 = z0 + L_d(q0, q1, z0). With
   * (q0, v0, z0), p_0 = v0 (the Legendre transform of L) and every step is Hamiltonian.
   * Keeps every `every`-th state, and always the first and the last.
   */
  integrate(
    init: ContactInitialData,
    steps: number,
    every = 1,
    onProgress?: ProgressCallback,
  ): ContactSolution {
    const { n, h } = this;
    if (!Number.isInteger(steps) || steps < 0)
      throw new DomainError('integrate: steps', steps, 'must be an integer >= 0');
    if (!Number.isInteger(every) || every < 1)
      throw new DomainError('integrate: every', every, 'must be an integer >= 1');
    if (!Number.isFinite(init.z0))
      throw new DomainError('integrate: z0', init.z0, 'must be finite');
    const q = copyVector('q0', init.q0, n);
    const p = new Float64Array(n);
    let z = init.z0;
    const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
    const sol = allocate(n, count);
    let kept = 0;
    let newtonIterations = 0;
    let maxResidual = 0;
    // `keep` receives z as an argument (a closure capturing a reassigned z would box it per step).
    const keep = (k: number, zk: number): void => {
      sol.k[kept] = k;
      sol.t[kept] = k * h;
      sol.q.set(q, kept * n);
      sol.p.set(p, kept * n);
      sol.z[kept] = zk;
      sol.energy[kept] = contactHamiltonian(this.lagrangian, q, p, zk);
      sol.sigma[kept] = this.sigma;
      kept++;
    };
    let k = 0;
    if ('q1' in init) {
      const q1 = copyVector('q1', init.q1, n);
      // p_0 = −D1 L_d(q0, q1, z0)/(1 + D_z L_d), eq. (40)
      this.D1Ld(p, q, q1);
      for (let i = 0; i < n; i++) p[i] = -p[i]! / this.sigma;
      keep(0, z);
      if (steps >= 1) {
        const ld = this.discreteLagrangian(q, q1, z);
        this.D2Ld(p, q, q1);
        q.set(q1);
        z += ld;
        k = 1;
        if (k % every === 0 || k === steps) keep(k, z);
      }
    } else {
      const v0 = copyVector('v0', init.v0, n);
      p.set(v0);
      keep(0, z);
    }
    const zBox = Float64Array.of(z);
    for (; k < steps; ) {
      this.advance(q, p, zBox, k);
      z = zBox[0]!;
      k++;
      newtonIterations += this.lastIterations;
      if (this.lastResidual > maxResidual) maxResidual = this.lastResidual;
      if (k % every === 0 || k === steps) keep(k, z);
      if (onProgress !== undefined && k % PROGRESS_INTERVAL_STEPS === 0) onProgress(k, steps);
    }
    const warnings = this.sigma < 0 ? [negativeSigmaWarning(0, this.sigma)] : [];
    return { ...sol, dim: n, count: kept, stats: { newtonIterations, maxResidual }, warnings };
  }

  private midGradient(q0: Float64Array, q1: Float64Array): void {
    for (let i = 0; i < this.n; i++) this.mid[i] = 0.5 * (q0[i]! + q1[i]!);
    this.lagrangian.potential.gradient(this.grad, this.mid);
  }

  /** out ← ∇²V(at), analytic when given, else central differences of ∇V. */
  private hessianAt(out: Float64Array, at: Float64Array): void {
    const V = this.lagrangian.potential;
    if (V.hessian) {
      V.hessian(out, at);
      return;
    }
    const n = this.n;
    for (let j = 0; j < n; j++) {
      const xj = at[j]!;
      const dj = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(xj));
      at[j] = xj + dj;
      V.gradient(this.fdA, at);
      at[j] = xj - dj;
      V.gradient(this.fdB, at);
      at[j] = xj;
      for (let i = 0; i < n; i++) out[i * n + j] = (this.fdA[i]! - this.fdB[i]!) / (2 * dj);
    }
  }
}

function allocate(n: number, count: number) {
  return {
    k: new Int32Array(count),
    t: new Float64Array(count),
    q: new Float64Array(count * n),
    p: new Float64Array(count * n),
    z: new Float64Array(count),
    energy: new Float64Array(count),
    sigma: new Float64Array(count),
  };
}
