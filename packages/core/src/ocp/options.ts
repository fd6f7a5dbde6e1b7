/**
 * Options of the interior-point solver ({@link OcpSolver}): IPOPT's options under IPOPT's names in
 * camelCase, with IPOPT's defaults (Wächter & Biegler 2006, "On the implementation of an
 * interior-point filter line-search algorithm for large-scale nonlinear programming", Math. Prog.
 * 106, Table/§ numbers in each comment; IPOPT 3.14's option documentation for the rest).
 *
 * @module
 */
import { DomainError } from '../errors.js';

/** One line of the iteration table, as IPOPT prints it; one object is reused for every call. */
export interface OcpIterationInfo {
  /** Iteration number (0 is the starting point); restoration iterations continue the count. */
  iteration: number;
  /** True while the feasibility restoration phase runs (IPOPT marks these lines with 'r'). */
  restoration: boolean;
  /** Unscaled objective Σ ℓ_k at the iterate. */
  objective: number;
  /** Unscaled primal infeasibility ‖(c, g, h − s)‖∞ (`inf_pr`). */
  infPr: number;
  /** Scaled dual infeasibility ‖∇L‖∞ (`inf_du`). */
  infDu: number;
  /** Barrier parameter μ (log10 in IPOPT's table). */
  mu: number;
  /** ‖d‖∞ of the last primal step (`||d||`). */
  dNorm: number;
  /** Primal regularization δ_w of the last step (`lg(rg)`), 0 when none. */
  deltaW: number;
  /** Step length of the bound multipliers (`alpha_du`). */
  alphaDu: number;
  /** Primal step length (`alpha_pr`). */
  alphaPr: number;
  /** Number of line-search trial points of the last step (`ls`). */
  lsTrials: number;
}

/** Options of {@link OcpSolver} (every field optional; defaults are IPOPT's). */
export interface OcpSolverOptions {
  /** Desired convergence tolerance on the scaled optimality error E₀ (IPOPT `tol`). Default 1e-8. */
  readonly tol?: number;
  /** Maximum number of iterations, restoration included (`max_iter`). Default 3000. */
  readonly maxIterations?: number;
  /** Wall-clock budget of one solve in seconds (`max_wall_time`). Default ∞. */
  readonly maxWallTime?: number;
  /** Unscaled dual infeasibility tolerance (`dual_inf_tol`). Default 1. */
  readonly dualInfTol?: number;
  /** Unscaled constraint violation tolerance (`constr_viol_tol`). Default 1e-4. */
  readonly constrViolTol?: number;
  /** Unscaled complementarity tolerance (`compl_inf_tol`). Default 1e-4. */
  readonly complInfTol?: number;
  /** "Acceptable" tolerance on E₀ (`acceptable_tol`). Default 1e-6. */
  readonly acceptableTol?: number;
  /** Consecutive acceptable iterations before stopping as `acceptable` (`acceptable_iter`). Default 15; 0 disables. */
  readonly acceptableIter?: number;
  /** `acceptable_constr_viol_tol`. Default 1e-2. */
  readonly acceptableConstrViolTol?: number;
  /** `acceptable_dual_inf_tol`. Default 1e10. */
  readonly acceptableDualInfTol?: number;
  /** `acceptable_compl_inf_tol`. Default 1e-2. */
  readonly acceptableComplInfTol?: number;
  /** Relative objective change below which an iterate may be acceptable (`acceptable_obj_change_tol`). Default 1e20. */
  readonly acceptableObjChangeTol?: number;
  /** Initial barrier parameter (`mu_init`). Default 0.1 (1e-4 with `warmStart`). */
  readonly muInit?: number;
  /** Lower bound of μ (`mu_target`). Default 0. */
  readonly muTarget?: number;
  /** κ_ε: the barrier problem is solved to E_μ ≤ κ_ε μ (`barrier_tol_factor`). Default 10. */
  readonly barrierTolFactor?: number;
  /** κ_μ (`mu_linear_decrease_factor`). Default 0.2. */
  readonly muLinearDecreaseFactor?: number;
  /** θ_μ (`mu_superlinear_decrease_power`). Default 1.5. */
  readonly muSuperlinearDecreasePower?: number;
  /** τ_min of the fraction-to-the-boundary rule τ = max(τ_min, 1 − μ) (`tau_min`). Default 0.99. */
  readonly tauMin?: number;
  /** κ₁: slacks start at max(h(x₀), κ₁) (`bound_push`). Default 1e-2. */
  readonly boundPush?: number;
  /** Initial bound multipliers (`bound_mult_init_val`). Default 1. */
  readonly boundMultInitVal?: number;
  /**
   * Least-squares initial equality multipliers are discarded (set to 0) when larger than this
   * (`constr_mult_init_max`); 0 always starts from zero multipliers. Default 1000.
   */
  readonly constrMultInitMax?: number;
  /** κ_Σ of the bound-multiplier safeguard (`kappa_sigma`). Default 1e10. */
  readonly kappaSigma?: number;
  /** κ_d of the linear damping term of one-sided bounds (`kappa_d`). Default 1e-5. */
  readonly kappaD?: number;
  /** Maximum number of second-order corrections per line search (`max_soc`). Default 4. */
  readonly maxSoc?: number;
  /** κ_soc (`kappa_soc`). Default 0.99. */
  readonly kappaSoc?: number;
  /** θ_max = thetaMaxFact·max(1, θ(x₀)) (`theta_max_fact`). Default 1e4. */
  readonly thetaMaxFact?: number;
  /** θ_min = thetaMinFact·max(1, θ(x₀)) (`theta_min_fact`). Default 1e-4. */
  readonly thetaMinFact?: number;
  /** η_φ of the Armijo condition (`eta_phi`). Default 1e-8. */
  readonly etaPhi?: number;
  /** γ_θ (`gamma_theta`). Default 1e-5. */
  readonly gammaTheta?: number;
  /** γ_φ (`gamma_phi`). Default 1e-8. */
  readonly gammaPhi?: number;
  /** δ of the switching condition (`delta`). Default 1. */
  readonly delta?: number;
  /** s_θ (`s_theta`). Default 1.1. */
  readonly sTheta?: number;
  /** s_φ (`s_phi`). Default 2.3. */
  readonly sPhi?: number;
  /** γ_α: safety factor of α_min (`alpha_min_frac`). Default 0.05. */
  readonly alphaMinFrac?: number;
  /** Backtracking factor (`alpha_red_factor`). Default 0.5. */
  readonly alphaRedFactor?: number;
  /** Maximum number of filter resets by the reset heuristic (`max_filter_resets`). Default 5. */
  readonly maxFilterResets?: number;
  /** Successive filter rejections that trigger a reset (`filter_reset_trigger`). Default 5. */
  readonly filterResetTrigger?: number;
  /** Orders of magnitude the barrier objective may grow in one step (`obj_max_inc`). Default 5. */
  readonly objMaxInc?: number;
  /** δ̄_w⁰ (`first_hessian_perturbation`). Default 1e-4. */
  readonly firstHessianPerturbation?: number;
  /** δ̄_w^min (`min_hessian_perturbation`). Default 1e-20. */
  readonly minHessianPerturbation?: number;
  /** δ̄_w^max (`max_hessian_perturbation`). Default 1e20. */
  readonly maxHessianPerturbation?: number;
  /** κ̄_w⁺ (`perturb_inc_fact_first`). Default 100. */
  readonly perturbIncFactFirst?: number;
  /** κ_w⁺ (`perturb_inc_fact`). Default 8. */
  readonly perturbIncFact?: number;
  /** κ_w⁻ (`perturb_dec_fact`). Default 1/3. */
  readonly perturbDecFact?: number;
  /** δ̄_c (`jacobian_regularization_value`). Default 1e-8. */
  readonly jacobianRegularizationValue?: number;
  /** κ_c (`jacobian_regularization_exponent`). Default 0.25. */
  readonly jacobianRegularizationExponent?: number;
  /** `'gradient-based'` (IPOPT's default) or `'none'` (`nlp_scaling_method`). */
  readonly nlpScalingMethod?: 'gradient-based' | 'none';
  /** Gradients are scaled down to at most this ∞-norm (`nlp_scaling_max_gradient`). Default 100. */
  readonly nlpScalingMaxGradient?: number;
  /** Smallest scaling factor (`nlp_scaling_min_value`). Default 1e-8. */
  readonly nlpScalingMinValue?: number;
  /** User objective scaling, applied on top of the gradient-based one (`obj_scaling_factor`). Default 1. */
  readonly objScalingFactor?: number;
  /** κ_resto: restoration returns once the violation dropped to this fraction (`required_infeasibility_reduction`). Default 0.9. */
  readonly requiredInfeasibilityReduction?: number;
  /** ρ of the ℓ₁ restoration objective (`resto_penalty_parameter`). Default 1000. */
  readonly restoPenaltyParameter?: number;
  /** Weight of the proximity term, ζ = weight·√μ (`resto_proximity_weight`). Default 1. */
  readonly restoProximityWeight?: number;
  /** Bound multipliers are reset to 1 after restoration when larger (`bound_mult_reset_threshold`). Default 1000. */
  readonly boundMultResetThreshold?: number;
  /** Iterates with ‖x‖∞ above this are `diverging` (`diverging_iterates_tol`). Default 1e20. */
  readonly divergingIteratesTol?: number;
  /** Relative step size below which a step is "tiny" (`tiny_step_tol`). Default 10ε. */
  readonly tinyStepTol?: number;
  /** Dual step size below which a tiny step may end the solve (`tiny_step_y_tol`). Default 1e-2. */
  readonly tinyStepYTol?: number;
  /**
   * Warm start (`warm_start_init_point`): start from the given multipliers, push slacks and bound
   * multipliers only to `warmStartBoundPush`/`warmStartMultBoundPush`, and default `muInit` to 1e-4.
   */
  readonly warmStart?: boolean;
  /** `warm_start_bound_push`. Default 1e-3. */
  readonly warmStartBoundPush?: number;
  /** `warm_start_mult_bound_push`. Default 1e-3. */
  readonly warmStartMultBoundPush?: number;
  /** Called once per iteration with a reused progress object; return `false` to stop (status `userStop`). */
  readonly onIteration?: (info: Readonly<OcpIterationInfo>) => unknown;
  /** Keep a copy of every iteration's progress object in the result (allocates). Default false. */
  readonly history?: boolean;
  /**
   * Measure the time spent in the problem's evaluations and in the linear algebra (the result's
   * `timings.evaluationMs` and `timings.linearAlgebraMs`). The clock reads allocate a few bytes
   * each, so a profiled solve is not allocation-free. Default false.
   */
  readonly profile?: boolean;
}

/** Every option resolved to a value. */
export type ResolvedOcpOptions = Required<Omit<OcpSolverOptions, 'onIteration'>> & {
  readonly onIteration: OcpSolverOptions['onIteration'];
};

/** Most iterations accepted (the filter's storage grows with the iteration count). */
export const OCP_MAX_ITERATIONS = 1_000_000;

const DEFAULTS: Omit<ResolvedOcpOptions, 'muInit' | 'onIteration'> = {
  tol: 1e-8,
  maxIterations: 3000,
  maxWallTime: Number.POSITIVE_INFINITY,
  dualInfTol: 1,
  constrViolTol: 1e-4,
  complInfTol: 1e-4,
  acceptableTol: 1e-6,
  acceptableIter: 15,
  acceptableConstrViolTol: 1e-2,
  acceptableDualInfTol: 1e10,
  acceptableComplInfTol: 1e-2,
  acceptableObjChangeTol: 1e20,
  muTarget: 0,
  barrierTolFactor: 10,
  muLinearDecreaseFactor: 0.2,
  muSuperlinearDecreasePower: 1.5,
  tauMin: 0.99,
  boundPush: 1e-2,
  boundMultInitVal: 1,
  constrMultInitMax: 1000,
  kappaSigma: 1e10,
  kappaD: 1e-5,
  maxSoc: 4,
  kappaSoc: 0.99,
  thetaMaxFact: 1e4,
  thetaMinFact: 1e-4,
  etaPhi: 1e-8,
  gammaTheta: 1e-5,
  gammaPhi: 1e-8,
  delta: 1,
  sTheta: 1.1,
  sPhi: 2.3,
  alphaMinFrac: 0.05,
  alphaRedFactor: 0.5,
  maxFilterResets: 5,
  filterResetTrigger: 5,
  objMaxInc: 5,
  firstHessianPerturbation: 1e-4,
  minHessianPerturbation: 1e-20,
  maxHessianPerturbation: 1e20,
  perturbIncFactFirst: 100,
  perturbIncFact: 8,
  perturbDecFact: 1 / 3,
  jacobianRegularizationValue: 1e-8,
  jacobianRegularizationExponent: 0.25,
  nlpScalingMethod: 'gradient-based',
  nlpScalingMaxGradient: 100,
  nlpScalingMinValue: 1e-8,
  objScalingFactor: 1,
  requiredInfeasibilityReduction: 0.9,
  restoPenaltyParameter: 1000,
  restoProximityWeight: 1,
  boundMultResetThreshold: 1000,
  divergingIteratesTol: 1e20,
  tinyStepTol: 10 * Number.EPSILON,
  tinyStepYTol: 1e-2,
  warmStart: false,
  warmStartBoundPush: 1e-3,
  warmStartMultBoundPush: 1e-3,
  history: false,
  profile: false,
};

type Check = 'positive' | 'nonNegative' | 'unit' | 'unitOpen' | 'atLeastOne' | 'above1';

const NUMERIC: Record<string, Check> = {
  tol: 'positive',
  maxWallTime: 'positive',
  dualInfTol: 'positive',
  constrViolTol: 'positive',
  complInfTol: 'positive',
  acceptableTol: 'positive',
  acceptableConstrViolTol: 'positive',
  acceptableDualInfTol: 'positive',
  acceptableComplInfTol: 'positive',
  acceptableObjChangeTol: 'nonNegative',
  muInit: 'positive',
  muTarget: 'nonNegative',
  barrierTolFactor: 'positive',
  muLinearDecreaseFactor: 'unitOpen',
  muSuperlinearDecreasePower: 'above1',
  tauMin: 'unitOpen',
  boundPush: 'positive',
  boundMultInitVal: 'positive',
  constrMultInitMax: 'nonNegative',
  kappaSigma: 'atLeastOne',
  kappaD: 'nonNegative',
  kappaSoc: 'positive',
  thetaMaxFact: 'positive',
  thetaMinFact: 'positive',
  etaPhi: 'unitOpen',
  gammaTheta: 'unitOpen',
  gammaPhi: 'unitOpen',
  delta: 'positive',
  sTheta: 'above1',
  sPhi: 'above1',
  alphaMinFrac: 'unitOpen',
  alphaRedFactor: 'unitOpen',
  objMaxInc: 'above1',
  firstHessianPerturbation: 'positive',
  minHessianPerturbation: 'nonNegative',
  maxHessianPerturbation: 'positive',
  perturbIncFactFirst: 'above1',
  perturbIncFact: 'above1',
  perturbDecFact: 'unitOpen',
  jacobianRegularizationValue: 'nonNegative',
  jacobianRegularizationExponent: 'nonNegative',
  nlpScalingMaxGradient: 'positive',
  nlpScalingMinValue: 'positive',
  objScalingFactor: 'positive',
  requiredInfeasibilityReduction: 'unit',
  restoPenaltyParameter: 'positive',
  restoProximityWeight: 'positive',
  boundMultResetThreshold: 'positive',
  divergingIteratesTol: 'positive',
  tinyStepTol: 'nonNegative',
  tinyStepYTol: 'nonNegative',
  warmStartBoundPush: 'positive',
  warmStartMultBoundPush: 'positive',
};

const INTEGER: Record<string, [number, number]> = {
  maxIterations: [0, OCP_MAX_ITERATIONS],
  acceptableIter: [0, OCP_MAX_ITERATIONS],
  maxSoc: [0, 100],
  maxFilterResets: [0, OCP_MAX_ITERATIONS],
  filterResetTrigger: [1, OCP_MAX_ITERATIONS],
};

const REQUIREMENT: Record<Check, string> = {
  positive: 'must be > 0',
  nonNegative: 'must be ≥ 0',
  unit: 'must be in [0, 1)',
  unitOpen: 'must be in (0, 1)',
  atLeastOne: 'must be ≥ 1',
  above1: 'must be > 1',
};

function ok(check: Check, v: number): boolean {
  if (Number.isNaN(v)) return false;
  switch (check) {
    case 'positive':
      return v > 0;
    case 'nonNegative':
      return v >= 0;
    case 'unit':
      return v >= 0 && v < 1;
    case 'unitOpen':
      return v > 0 && v < 1;
    case 'atLeastOne':
      return v >= 1;
    case 'above1':
      return v > 1;
  }
}

/**
 * Fills in IPOPT's defaults and validates every option.
 * @throws DomainError naming the first invalid option.
 *
 * @example
 * ```ts
 * const o = resolveOcpOptions({ tol: 1e-10 });
 * // o.tol = 1e-10, o.muInit = 0.1, o.maxIterations = 3000, o.acceptableIter = 15, ...
 * ```
 */
export function resolveOcpOptions(options: OcpSolverOptions = {}): ResolvedOcpOptions {
  const known = new Set([...Object.keys(DEFAULTS), 'muInit', 'onIteration']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new DomainError(`OcpSolver option ${key}`, key, 'is not an option');
  }
  const warm = options.warmStart ?? false;
  const merged: Record<string, unknown> = { ...DEFAULTS, muInit: warm ? 1e-4 : 0.1 };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  for (const [key, check] of Object.entries(NUMERIC)) {
    const v = merged[key];
    if (typeof v !== 'number' || !ok(check, v)) {
      throw new DomainError(`OcpSolver option ${key}`, v, REQUIREMENT[check]);
    }
  }
  for (const [key, [lo, hi]] of Object.entries(INTEGER)) {
    const v = merged[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
      throw new DomainError(`OcpSolver option ${key}`, v, `must be an integer in [${lo}, ${hi}]`);
    }
  }
  const r = merged as ResolvedOcpOptions;
  if (r.nlpScalingMethod !== 'gradient-based' && r.nlpScalingMethod !== 'none') {
    throw new DomainError(
      'OcpSolver option nlpScalingMethod',
      r.nlpScalingMethod,
      "must be 'gradient-based' or 'none'",
    );
  }
  if (typeof r.warmStart !== 'boolean')
    throw new DomainError('OcpSolver option warmStart', r.warmStart, 'must be a boolean');
  if (typeof r.history !== 'boolean')
    throw new DomainError('OcpSolver option history', r.history, 'must be a boolean');
  if (typeof r.profile !== 'boolean')
    throw new DomainError('OcpSolver option profile', r.profile, 'must be a boolean');
  if (r.onIteration !== undefined && typeof r.onIteration !== 'function') {
    throw new DomainError('OcpSolver option onIteration', r.onIteration, 'must be a function');
  }
  if (!(r.thetaMinFact < r.thetaMaxFact)) {
    throw new DomainError(
      'OcpSolver option thetaMinFact',
      r.thetaMinFact,
      'must be < thetaMaxFact',
    );
  }
  if (!(r.minHessianPerturbation <= r.firstHessianPerturbation)) {
    throw new DomainError(
      'OcpSolver option minHessianPerturbation',
      r.minHessianPerturbation,
      'must be ≤ firstHessianPerturbation',
    );
  }
  if (!(r.acceptableTol >= r.tol)) {
    throw new DomainError('OcpSolver option acceptableTol', r.acceptableTol, 'must be ≥ tol');
  }
  return withFixedShape(r);
}

/**
 * The resolved options as one object literal with every key in a fixed order: every solver's
 * options object then has the same hidden class. A spread (`{ ...DEFAULTS }`) does not: V8 clones
 * it through the runtime at first (properties out of object) and through a warmed-up inline cache
 * later (properties in object), two maps, and the optimized code of every method reading the
 * options deoptimized ("wrong map") when a solver of the other kind appeared, e.g. the first solve
 * at a new n after a few at another.
 */
function withFixedShape(m: ResolvedOcpOptions): ResolvedOcpOptions {
  return {
    tol: m.tol,
    maxIterations: m.maxIterations,
    maxWallTime: m.maxWallTime,
    dualInfTol: m.dualInfTol,
    constrViolTol: m.constrViolTol,
    complInfTol: m.complInfTol,
    acceptableTol: m.acceptableTol,
    acceptableIter: m.acceptableIter,
    acceptableConstrViolTol: m.acceptableConstrViolTol,
    acceptableDualInfTol: m.acceptableDualInfTol,
    acceptableComplInfTol: m.acceptableComplInfTol,
    acceptableObjChangeTol: m.acceptableObjChangeTol,
    muTarget: m.muTarget,
    barrierTolFactor: m.barrierTolFactor,
    muLinearDecreaseFactor: m.muLinearDecreaseFactor,
    muSuperlinearDecreasePower: m.muSuperlinearDecreasePower,
    tauMin: m.tauMin,
    boundPush: m.boundPush,
    boundMultInitVal: m.boundMultInitVal,
    constrMultInitMax: m.constrMultInitMax,
    kappaSigma: m.kappaSigma,
    kappaD: m.kappaD,
    maxSoc: m.maxSoc,
    kappaSoc: m.kappaSoc,
    thetaMaxFact: m.thetaMaxFact,
    thetaMinFact: m.thetaMinFact,
    etaPhi: m.etaPhi,
    gammaTheta: m.gammaTheta,
    gammaPhi: m.gammaPhi,
    delta: m.delta,
    sTheta: m.sTheta,
    sPhi: m.sPhi,
    alphaMinFrac: m.alphaMinFrac,
    alphaRedFactor: m.alphaRedFactor,
    maxFilterResets: m.maxFilterResets,
    filterResetTrigger: m.filterResetTrigger,
    objMaxInc: m.objMaxInc,
    firstHessianPerturbation: m.firstHessianPerturbation,
    minHessianPerturbation: m.minHessianPerturbation,
    maxHessianPerturbation: m.maxHessianPerturbation,
    perturbIncFactFirst: m.perturbIncFactFirst,
    perturbIncFact: m.perturbIncFact,
    perturbDecFact: m.perturbDecFact,
    jacobianRegularizationValue: m.jacobianRegularizationValue,
    jacobianRegularizationExponent: m.jacobianRegularizationExponent,
    nlpScalingMethod: m.nlpScalingMethod,
    nlpScalingMaxGradient: m.nlpScalingMaxGradient,
    nlpScalingMinValue: m.nlpScalingMinValue,
    objScalingFactor: m.objScalingFactor,
    requiredInfeasibilityReduction: m.requiredInfeasibilityReduction,
    restoPenaltyParameter: m.restoPenaltyParameter,
    restoProximityWeight: m.restoProximityWeight,
    boundMultResetThreshold: m.boundMultResetThreshold,
    divergingIteratesTol: m.divergingIteratesTol,
    tinyStepTol: m.tinyStepTol,
    tinyStepYTol: m.tinyStepYTol,
    warmStart: m.warmStart,
    warmStartBoundPush: m.warmStartBoundPush,
    warmStartMultBoundPush: m.warmStartMultBoundPush,
    history: m.history,
    profile: m.profile,
    muInit: m.muInit,
    onIteration: m.onIteration,
  };
}
