/**
 * The stage-structured optimal-control problem that {@link OcpSolver} solves (the contract between
 * the solver and a problem layer).
 *
 * Stages k = 0..N. Stage k has a state x_k on a manifold, stored in `stateStorage(k)` doubles, with
 * tangent dimension n_x,k and a retraction x ← retract(x, δ) (for Rⁿ states: x + δ), and controls
 * u_k ∈ R^{n_u,k} (n_u,N is usually 0; a positive n_u,N is allowed, e.g. a free final time as a
 * parameter of the last stage):
 *
 *     minimize   Σ_{k<N} ℓ_k(x_k, u_k) + ℓ_N(x_N, u_N)
 *     subject to c_k(x_k, u_k, x_{k+1}) = 0   k < N,  n_x,k+1 rows  (dynamics; ∂c_k/∂x_{k+1} invertible)
 *                g_k(x_k, u_k) = 0            n_g,k rows (path equalities, boundary conditions)
 *                h_k(x_k, u_k) ≥ 0            n_h,k rows (path inequalities, bounds)
 *
 * Derivatives are taken in the chart δ ↦ retract(x_k, δ) at δ = 0 (ordinary derivatives for Rⁿ),
 * in the order (δx_k, u_k) and, for c_k, (δx_k, u_k, δx_{k+1}). Multipliers belong to constraint
 * values, which do not depend on the chart, so they need no transport when the iterate moves.
 *
 * ## Sign conventions
 *
 * The solver's Lagrangian is L = Σ ℓ_k + λᵀc + μᵀg − zᵀh with inequality multipliers z ≥ 0, so its
 * first-order conditions read ∇ℓ + J_cᵀλ + J_gᵀμ − J_hᵀz = 0, z ≥ 0, h ≥ 0, zᵢhᵢ = 0. The
 * Hessian that `evaluate` returns at level 2 is the plain weighted sum
 *
 *     hess = ∇²( σ·ℓ_k + Σᵢ λᵢ c_k,i + Σᵢ μᵢ g_k,i + Σᵢ ηᵢ h_k,i )
 *
 * with whatever weights the solver passes (IPOPT's `eval_h` convention: no signs to remember);
 * the solver passes η = −z for the inequalities and σ = its objective scaling factor (0 in the
 * restoration phase, which minimizes the constraint violation only).
 *
 * @module
 */

/** Dimensions of one stage of a {@link StageOcp}. */
export interface OcpStageDims {
  /** Tangent dimension n_x of the state (≥ 1). */
  readonly nx: number;
  /** Number of controls n_u (≥ 0). */
  readonly nu: number;
  /** Number of equality rows g_k (≥ 0). */
  readonly ng: number;
  /** Number of inequality rows h_k ≥ 0 (≥ 0). */
  readonly nh: number;
}

/**
 * What {@link StageOcp.evaluate} fills, in buffers the solver owns (row-major; n_w = n_x + n_u,
 * n_y = n_x,k+1 for k < N and 0 for k = N). Level 0 fills `cost`, `c`, `g`, `h`; level 1 also the
 * gradient and the Jacobians; level 2 also `hess`. Entries a level does not ask for must be left
 * alone (at level 0 they may point to scratch). Every entry of a requested output must be written
 * (the buffers are not cleared between calls).
 */
export interface OcpStageEval {
  /** ℓ_k. */
  cost: number;
  /** ∇ℓ_k over (δx_k, u_k): n_w. */
  readonly costGrad: Float64Array;
  /** c_k: n_y (empty at k = N). */
  readonly c: Float64Array;
  /** n_y × (n_w + n_y): [∂c/∂δx_k, ∂c/∂u_k, ∂c/∂δx_{k+1}]. */
  readonly cJac: Float64Array;
  /** g_k: n_g. */
  readonly g: Float64Array;
  /** n_g × n_w. */
  readonly gJac: Float64Array;
  /** h_k: n_h. */
  readonly h: Float64Array;
  /** n_h × n_w. */
  readonly hJac: Float64Array;
  /**
   * (n_w + n_y)² symmetric: ∇² over (δx_k, u_k, δx_{k+1}) of σℓ_k + λᵀc_k + μᵀg_k + ηᵀh_k (the
   * δx_{k+1} rows and columns only receive λᵀc_k's terms).
   */
  readonly hess: Float64Array;
}

/**
 * A fresh {@link OcpStageEval} for a stage with dimensions `d` and n_y dynamics rows (0 at the
 * last stage): the output record of one `StageOcp.evaluate` call outside the solver (checks,
 * linearizations, reports), whose buffers the solver otherwise owns.
 *
 * @example
 * ```ts
 * const out = newStageEval({ nx: 3, nu: 2, ng: 1, nh: 0 }, 3);
 * out.cJac.length; // 24
 * out.hess.length; // 64
 * ```
 */
export function newStageEval(d: OcpStageDims, ny: number): OcpStageEval {
  const nw = d.nx + d.nu;
  return {
    cost: 0,
    costGrad: new Float64Array(nw),
    c: new Float64Array(ny),
    cJac: new Float64Array(ny * (nw + ny)),
    g: new Float64Array(d.ng),
    gJac: new Float64Array(d.ng * nw),
    h: new Float64Array(d.nh),
    hJac: new Float64Array(d.nh * nw),
    hess: new Float64Array((nw + ny) ** 2),
  };
}

/**
 * A stage-structured optimal-control problem (module comment: formulation and sign conventions).
 * The solver calls `evaluate` with views into its own buffers; an implementation must not keep
 * them and must not allocate per call if the solve is to be allocation-free.
 *
 * To report a point outside the problem's domain (a trial step that leaves the branch of a
 * logarithm, a retraction's chart, ...), `evaluate` may throw {@link EvaluationDomainError} or return
 * NaN: the line search then shortens the step, as IPOPT does for evaluation errors.
 */
export interface StageOcp {
  /** Index of the last stage. */
  readonly N: number;
  /** Dimensions of stage k (called once per stage when a solver is built). */
  dims(k: number): OcpStageDims;
  /** Number of doubles that store the state of stage k (called once per stage). */
  stateStorage(k: number): number;
  /**
   * out ← retract(x, dx) for stage k's state (`out` does not alias `x`); `dx` has n_x entries.
   * Must be smooth with retract(x, 0) = x and D retract(x, 0) = identity in the problem's chart.
   */
  retract(k: number, out: Float64Array, x: Float64Array, dx: Float64Array): void;
  /**
   * Evaluates stage k at (x_k, u_k, x_{k+1}) (`xNext` undefined for k = N) to the given `level`,
   * into `out`; `sigma`, `lambda` (n_y), `mu` (n_g), `eta` (n_h) are the weights of the Hessian.
   */
  evaluate(
    k: number,
    x: Float64Array,
    u: Float64Array,
    xNext: Float64Array | undefined,
    level: 0 | 1 | 2,
    sigma: number,
    lambda: Float64Array,
    mu: Float64Array,
    eta: Float64Array,
    out: OcpStageEval,
  ): void;
}
