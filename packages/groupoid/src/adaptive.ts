/**
 * Adaptive time steps for Lie-group optimal control (spec 003 §8.3 Example 6.1, scenario S8): the
 * time-extended system on R × R × G ⇒ R × Q with L̂_R = (t_k − t_{k−1})·l(τ⁻¹(g_k)/(t_k − t_{k−1}))
 * and φ_R = (t_k − t_{k−1})·Ψ(τ⁻¹(g_k)/(t_k − t_{k−1})), whose DEL determine the next step size
 * h_{k+1} together with (ξ_{k+1}, λ_{k+1}):
 *
 *   (E6.1-1)  0 = Ψ^a(ξ_{k+1})
 *   (E6.1-2)  0 = (dτ⁻¹_{h_kξ_k})ᵀ(∇l(ξ_k) + λ_k·∇Ψ(ξ_k)) − (dτ⁻¹_{−h_{k+1}ξ_{k+1}})ᵀ(∇l(ξ_{k+1}) + λ_{k+1}·∇Ψ(ξ_{k+1}))
 *   (E6.1-3') 0 = E(ξ_k, λ_k) − E(ξ_{k+1}, λ_{k+1}),
 *             E(ξ, λ) = ⟨∇l(ξ), ξ⟩ − l(ξ) + λ_a(⟨∇Ψ^a(ξ), ξ⟩ − Ψ^a(ξ))
 *
 * The paper prints (E6.1-3) without the multiplier terms; that is right only when ⟨∇Ψ, ξ⟩ = Ψ on
 * C (e.g. linear Ψ) and is kept here as the documented erratum `energyEquation: 'printed'`.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  extendSolution,
  keptCount,
  type MethodTraits,
  methodTraits,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  PROGRESS_INTERVAL_STEPS,
  type ProgressCallback,
  Recorder,
  type SeriesSpec,
  type Solution,
} from '@geomech/core';
import { type LieGroupOCPData, LiePoissonKernel } from './lieGroupMechanics.js';

/** Which energy equation closes the adaptive step. */
export type EnergyEquation = 'corrected' | 'printed';

/** Options of {@link AdaptiveLieGroupIntegrator}. */
export interface AdaptiveLieGroupOptions extends LieGroupOCPData {
  /**
   * `'corrected'` (default): (E6.1-3') with the multiplier terms; `'printed'`: the paper's
   * (E6.1-3), an erratum for affine constraints (spec 003 §8.3 FLAG, §12 item 8).
   */
  readonly energyEquation?: EnergyEquation;
  /** Newton tolerance on the max-norm of the residual. Default 1e-14 (plus core's 4ε step test). */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
}

/** Outcome of one adaptive step (owned by the integrator, overwritten by the next step). */
export interface AdaptiveStepResult {
  readonly xi: Float64Array;
  readonly lambda: Float64Array;
  /** h_{k+1}. */
  readonly h: number;
  readonly iterations: number;
  readonly residualNorm: number;
}

/**
 * The adaptive-step method of spec 003 §8.3 Example 6.1: the DEL of the time-extended system
 * determine the next step size with (ξ, λ); variational, one Newton solve of dim + m + 1 equations
 * per step. Order and symmetry are not claimed.
 *
 * @example
 * ```ts
 * adaptiveLieGroupMethod.name; // 'adaptive-lie-poisson'
 * ```
 */
export const adaptiveLieGroupMethod: MethodTraits = methodTraits({
  name: 'adaptive-lie-poisson',
  description: 'Lie–Poisson integrator with energy-determined time steps (spec 003 §8.3)',
  isExplicit: false,
  isVariational: true,
});

/** The series of an adaptive trajectory. */
export type AdaptiveField = 'xi' | 'lambda' | 'stepSize' | 'energy';

/**
 * A trajectory of the adaptive integrator: sample j is increment k = `k[j]` + 1 (k[0] = 0 is the
 * first increment (ξ_1, λ_1, h_1)), at `t[j]` = t_k = h_1 + … + h_k (the end of the increment):
 * `xi` (count × dim), `lambda` (count × m; empty when m = 0), `stepSize` h_k and `energy`
 * E(ξ_k, λ_k) of the energy equation in use. `h` is NaN (variable steps).
 */
export type AdaptiveSolution = Solution<AdaptiveField>;

/** Options of {@link AdaptiveLieGroupIntegrator.integrate}. */
export interface AdaptiveIntegrateOptions {
  /** Keep every `every`-th increment, and always the first and the last. Default 1. */
  readonly every?: number;
  /** Called every 4096 steps with (steps done, steps). */
  readonly onProgress?: ProgressCallback;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The adaptive-step Lie-group integrator of spec 003 §8.3 Example 6.1: each {@link step} solves
 * (E6.1-1), (E6.1-2) and the energy equation for (ξ_{k+1}, λ_{k+1}, h_{k+1}) ∈ R^{dim+m+1} by
 * Newton's method from (ξ_k, λ_k, h_k) with the analytic Jacobian (∂/∂h from
 * {@link LiePoissonKernel.momentumStepDerivative}). Owns all scratch: a step allocates nothing.
 *
 * @example
 * ```ts
 * const A = new AdaptiveLieGroupIntegrator({ ...rigidBodyData([1, 2, 3]), Psi: [{
 *   value: (x) => x[2]!, grad: (o) => { o.fill(0); o[2] = 1; return o; } }] });
 * const s = A.integrate({ xi: [0.8, -0.5, 0], lambda: [0.4], h: 0.1 }, 30);
 * s.h; // h_k ∈ [0.0893, 0.0991] after the first (spec 003 S8)
 * ```
 */
export class AdaptiveLieGroupIntegrator {
  readonly dim: number;
  readonly m: number;
  readonly energyEquation: EnergyEquation;
  readonly kernel: LiePoissonKernel;
  private readonly solver: NewtonSolver;
  private readonly target: Float64Array;
  private targetEnergy = 0;
  private readonly z0: Float64Array;
  private readonly zXi: Float64Array;
  private readonly zLam: Float64Array;
  private readonly tmp: Float64Array;
  private readonly dPds: Float64Array;
  private readonly psi: Float64Array;
  private readonly result: Mutable<AdaptiveStepResult>;
  private readonly F: (out: Float64Array, z: Float64Array) => void;
  private readonly J: (out: Float64Array, z: Float64Array) => void;

  constructor(options: AdaptiveLieGroupOptions) {
    const eq = options.energyEquation ?? 'corrected';
    if (eq !== 'corrected' && eq !== 'printed') {
      throw new DomainError(
        'AdaptiveLieGroupIntegrator: energyEquation',
        eq,
        "must be 'corrected' or 'printed'",
      );
    }
    this.energyEquation = eq;
    const printed = eq === 'printed';
    const K = new LiePoissonKernel(options);
    this.kernel = K;
    const d = K.dim;
    const m = K.m;
    this.dim = d;
    this.m = m;
    const n = d + m + 1;
    this.solver = new NewtonSolver(n, {
      tol: options.tol ?? 1e-14,
      maxIterations: options.maxIterations ?? 50,
      lineSearch: true,
    });
    this.target = new Float64Array(d);
    this.z0 = new Float64Array(n);
    this.zXi = new Float64Array(d);
    this.zLam = new Float64Array(Math.max(1, m));
    this.tmp = new Float64Array(d);
    this.dPds = new Float64Array(d);
    this.psi = new Float64Array(Math.max(1, m));
    this.result = {
      xi: this.zXi,
      lambda: this.zLam,
      h: Number.NaN,
      iterations: 0,
      residualNorm: Number.NaN,
    };
    // rows: (E6.1-2) [d], (E6.1-1) [m], energy [1]; unknowns: ξ [d], λ [m], h [1]
    this.F = (out, z) => {
      this.unpack(z);
      K.step = -z[d + m]!;
      K.momentumAtStep(this.tmp, this.zXi, this.zLam);
      for (let i = 0; i < d; i++) out[i] = this.target[i]! - this.tmp[i]!;
      K.constraints(out, this.zXi, d);
      out[d + m] = this.targetEnergy - K.energy(this.zXi, this.zLam, printed);
    };
    this.J = (out, z) => {
      this.unpack(z);
      const { zXi, zLam, tmp, dPds } = this;
      K.step = -z[d + m]!;
      K.momentumJacobianAtStep(zXi, zLam);
      K.momentumStepDerivativeAtStep(dPds, zXi, zLam);
      const { dPdXi, dPdLambda } = K;
      for (let i = 0; i < d; i++) {
        for (let j = 0; j < d; j++) out[i * n + j] = -dPdXi[i * d + j]!;
        for (let a = 0; a < m; a++) out[i * n + d + a] = -dPdLambda[i * m + a]!;
        // ∂/∂h of −P_{−h} = +∂P/∂s
        out[i * n + d + m] = dPds[i]!;
      }
      K.constraintJacobian(zXi);
      for (let a = 0; a < m; a++) {
        const r = (d + a) * n;
        for (let j = 0; j < d; j++) out[r + j] = K.gradPsi[a * d + j]!;
        for (let b = 0; b <= m; b++) out[r + d + b] = 0;
      }
      K.energyGradient(tmp, zXi, zLam, printed);
      K.constraints(this.psi, zXi);
      const r = (d + m) * n;
      for (let j = 0; j < d; j++) out[r + j] = -tmp[j]!;
      for (let a = 0; a < m; a++) {
        if (printed) {
          out[r + d + a] = 0;
          continue;
        }
        let s = -this.psi[a]!;
        for (let j = 0; j < d; j++) s += K.gradPsi[a * d + j]! * zXi[j]!;
        out[r + d + a] = -s;
      }
      out[r + d + m] = 0;
    };
  }

  /**
   * out ((dim + m + 1)² row-major) ← the Newton Jacobian of {@link step} at the unknowns
   * (ξ_{k+1}, λ_{k+1}, h_{k+1}) = (xi, lambda, h): the derivative of the rows
   * [P⁺_k − P_{−h}(ξ, λ) (E6.1-2); Ψ(ξ) (E6.1-1); E_k − E(ξ, λ) (energy)] (the step's targets
   * P⁺_k, E_k do not enter). Allocation-free.
   *
   * @example
   * ```ts
   * const A = new AdaptiveLieGroupIntegrator({ ...rigidBodyData([1, 2, 3]), Psi: [{
   *   value: (x) => x[2]!, grad: (o) => { o.fill(0); o[2] = 1; return o; } }] });
   * A.stepJacobian(new Float64Array(25), Float64Array.of(0.8, -0.5, 0), [0.4], 0.1);
   * ```
   */
  stepJacobian(
    out: Float64Array,
    xi: ArrayLike<number>,
    lambda: ArrayLike<number>,
    h: number,
  ): Float64Array {
    const { dim: d, m, z0 } = this;
    const n = d + m + 1;
    if (out.length < n * n)
      throw new DimensionError('adaptive stepJacobian: out', n * n, out.length);
    if (xi.length !== d) throw new DimensionError('adaptive stepJacobian: xi', d, xi.length);
    if (lambda.length < m)
      throw new DimensionError('adaptive stepJacobian: lambda', m, lambda.length);
    for (let i = 0; i < d; i++) z0[i] = xi[i]!;
    for (let a = 0; a < m; a++) z0[d + a] = lambda[a]!;
    z0[d + m] = h;
    this.J(out, z0);
    return out;
  }

  /** E(ξ, λ) of the energy equation in use ((E6.1-3') or, for `printed`, (E6.1-3)). */
  energy(xi: Float64Array, lambda: ArrayLike<number>): number {
    return this.kernel.energy(xi, lambda, this.energyEquation === 'printed');
  }

  /**
   * One adaptive step: (ξ_k, λ_k, h_k) ↦ (ξ_{k+1}, λ_{k+1}, h_{k+1}) solving (E6.1-1), (E6.1-2) and
   * the energy equation. Writes into `outXi`, `outLambda` (may alias the inputs).
   *
   * @throws NewtonDivergedError when Newton fails; DomainError when it converges to h_{k+1} ≤ 0
   *   (what the printed (E6.1-3) does for affine constraints); SingularJacobianError at
   *   non-regular points.
   */
  step(
    xiK: Float64Array,
    lambdaK: ArrayLike<number>,
    hK: number,
    outXi: Float64Array,
    outLambda: Float64Array,
    step?: number,
  ): AdaptiveStepResult {
    const { dim: d, m, z0, kernel: K } = this;
    if (xiK.length !== d) throw new DimensionError('adaptive step: xi', d, xiK.length);
    if (lambdaK.length < m) throw new DimensionError('adaptive step: lambda', m, lambdaK.length);
    if (outXi.length < d) throw new DimensionError('adaptive step: outXi', d, outXi.length);
    if (outLambda.length < m)
      throw new DimensionError('adaptive step: outLambda', m, outLambda.length);
    if (!(hK > 0 && Number.isFinite(hK)))
      throw new DomainError('adaptive step: h_k', hK, 'must be positive and finite');
    for (let i = 0; i < d; i++)
      if (!Number.isFinite(xiK[i]!)) throw new NonFiniteError('adaptive step: xi', i);
    K.momentum(this.target, xiK, lambdaK, hK);
    this.targetEnergy = this.energy(xiK, lambdaK);
    for (let i = 0; i < d; i++) z0[i] = xiK[i]!;
    for (let a = 0; a < m; a++) z0[d + a] = lambdaK[a]!;
    z0[d + m] = hK;
    const r = this.solver.solve(this.F, this.J, z0, step);
    if (!r.converged) {
      throw new NewtonDivergedError(r.iterations, r.residualNorm, step, `(${r.reason})`);
    }
    const h = r.x[d + m]!;
    if (!(h > 0)) {
      throw new DomainError(
        `adaptive step${step === undefined ? '' : ` ${step}`}: h_{k+1}`,
        h,
        'must be positive (the step equations have no admissible solution here)',
      );
    }
    for (let i = 0; i < d; i++) outXi[i] = r.x[i]!;
    for (let a = 0; a < m; a++) outLambda[a] = r.x[d + a]!;
    const res = this.result;
    res.xi = outXi;
    res.lambda = outLambda;
    res.h = h;
    res.iterations = r.iterations;
    res.residualNorm = r.residualNorm;
    return res;
  }

  /**
   * Integrates `steps` adaptive steps from the first increment (ξ_1, λ_1, h_1), which must satisfy
   * Ψ(ξ_1) = 0 (checked to 1e-12). The steps vary, so the loop is not core's `integrate`: it
   * records into core's {@link Recorder} and returns the one {@link Solution}.
   *
   * @throws DomainError when Ψ(ξ_1) ≠ 0 or a step produces h ≤ 0; NewtonDivergedError naming the step.
   * @example
   * ```ts
   * const A = new AdaptiveLieGroupIntegrator({ ...rigidBodyData([1, 2, 3]), Psi: [{
   *   value: (x) => x[2]!, grad: (o) => { o.fill(0); o[2] = 1; return o; } }] });
   * const s = A.integrate({ xi: [0.8, -0.5, 0], lambda: [0.4], h: 0.1 }, 30);
   * s.stepSize[30]; // h_31
   * ```
   */
  integrate(
    init: {
      readonly xi: ArrayLike<number>;
      readonly lambda: ArrayLike<number>;
      readonly h: number;
    },
    steps: number,
    options: AdaptiveIntegrateOptions = {},
  ): AdaptiveSolution {
    const { dim: d, m } = this;
    if (!Number.isSafeInteger(steps) || steps < 0)
      throw new DomainError('adaptive integrate: steps', steps, 'must be an integer >= 0');
    const every = options.every ?? 1;
    if (!Number.isSafeInteger(every) || every < 1)
      throw new DomainError('adaptive integrate: every', every, 'must be an integer >= 1');
    if (init.xi.length !== d) throw new DimensionError('adaptive integrate: xi', d, init.xi.length);
    if (init.lambda.length !== m)
      throw new DimensionError('adaptive integrate: lambda', m, init.lambda.length);
    const xi = Float64Array.from(init.xi);
    const lambda = new Float64Array(Math.max(1, m));
    for (let a = 0; a < m; a++) lambda[a] = init.lambda[a]!;
    const psi = this.kernel.constraints(new Float64Array(Math.max(1, m)), xi);
    for (let a = 0; a < m; a++) {
      if (!(Math.abs(psi[a]!) <= 1e-12)) {
        throw new DomainError(
          `adaptive integrate: Psi[${a}](xi_1)`,
          psi[a],
          'must vanish (ξ_1 ∈ C)',
        );
      }
    }
    const specs: SeriesSpec<AdaptiveField>[] = [{ name: 'xi', width: d }];
    if (m > 0) specs.push({ name: 'lambda', width: m });
    specs.push({ name: 'stepSize', width: 1 }, { name: 'energy', width: 1 });
    const rec = new Recorder<AdaptiveField>(adaptiveLieGroupMethod, specs, keptCount(steps, every));
    const row = new Float64Array(d + m + 2);
    let h = init.h;
    let t = h;
    const keep = (k: number): void => {
      for (let i = 0; i < d; i++) row[i] = xi[i]!;
      for (let a = 0; a < m; a++) row[d + a] = lambda[a]!;
      row[d + m] = h;
      row[d + m + 1] = this.energy(xi, lambda);
      rec.keep(k, t, row);
    };
    keep(0);
    let newtonIterations = 0;
    let maxIterations = 0;
    let maxResidual = 0;
    const onProgress = options.onProgress;
    for (let k = 1; k <= steps; k++) {
      const r = this.step(xi, lambda, h, xi, lambda, k);
      h = r.h;
      t += h;
      newtonIterations += r.iterations;
      if (r.iterations > maxIterations) maxIterations = r.iterations;
      if (r.residualNorm > maxResidual) maxResidual = r.residualNorm;
      if (k % every === 0 || k === steps) keep(k);
      if (onProgress !== undefined && k % PROGRESS_INTERVAL_STEPS === 0) onProgress(k, steps);
    }
    const sol = rec.finish({
      steps,
      h: Number.NaN,
      stats: { newtonIterations, maxIterations, maxResidual },
    });
    return m > 0 ? sol : extendSolution(sol, { lambda: new Float64Array(0) });
  }

  private unpack(z: Float64Array): void {
    const { dim: d, m, zXi, zLam } = this;
    for (let i = 0; i < d; i++) zXi[i] = z[i]!;
    for (let a = 0; a < m; a++) zLam[a] = z[d + a]!;
  }
}

/**
 * One adaptive step (spec 003 §11.6 `adaptiveLieGroupStep`): a one-shot {@link AdaptiveLieGroupIntegrator}
 * (cold path: allocates the integrator; keep one for loops).
 *
 * @example
 * ```ts
 * const options = { ...rigidBodyData([1, 2, 3]), Psi: [{
 *   value: (x: ArrayLike<number>) => x[2]!, grad: (o: Float64Array) => { o.fill(0); o[2] = 1; return o; } }] };
 * const r = adaptiveLieGroupStep(options, Float64Array.of(0.8, -0.5, 0), [0.4], 0.1);
 * r.h; // h_2
 * ```
 */
export function adaptiveLieGroupStep(
  options: AdaptiveLieGroupOptions,
  xiK: ArrayLike<number>,
  lambdaK: ArrayLike<number>,
  hK: number,
): AdaptiveStepResult {
  const A = new AdaptiveLieGroupIntegrator(options);
  const r = A.step(
    Float64Array.from(xiK),
    Float64Array.from(lambdaK),
    hK,
    new Float64Array(A.dim),
    new Float64Array(Math.max(1, A.m)),
  );
  return {
    ...r,
    xi: Float64Array.from(r.xi),
    lambda: Float64Array.from(r.lambda).subarray(0, A.m),
  };
}
