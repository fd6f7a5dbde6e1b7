/**
 * Newton's method for square nonlinear systems F(x) = 0, F: Rⁿ → Rⁿ, with a user Jacobian and an
 * optional backtracking (Armijo) line search on the merit function φ(x) = ½‖F(x)‖₂².
 *
 * Two forms: {@link NewtonSolver}, a reusable object owning all its scratch (one per integrator;
 * `solve` allocates nothing), and {@link newton}, a one-shot function.
 *
 * Jacobian sources: a hand-written `J(out, x)`, `jacobianFromDual(f)` (forward-mode AD of a
 * generic function, `ad/dual.ts`) or `jacobianFromFiniteDifferences(F, n, n)`
 * (`ad/finiteDifference.ts`).
 *
 * @module
 */
import type { JacobianFunction, ResidualFunction } from '../ad/finiteDifference.js';
import {
  ARMIJO_CONSTANT,
  MIN_LINE_SEARCH_STEP,
  NEWTON_DEFAULT_STEP_TOL,
  NEWTON_DEFAULT_TOL,
  SINGULAR_JACOBIAN_CONDITION,
} from '../constants.js';
import {
  DimensionError,
  DomainError,
  NewtonDivergedError,
  NonFiniteError,
  SingularJacobianError,
} from '../errors.js';
import { BandLU, BandMatrix } from '../linalg/banded.js';
import { DenseLU, luFactorInPlace, luSolveInPlace } from '../linalg/lu.js';
import { allFinite } from '../linalg/matrix.js';

/** Options of {@link NewtonSolver} and {@link newton}. */
export interface NewtonOptions {
  /** Converged when ‖F(x)‖∞ ≤ tol (absolute). Default {@link NEWTON_DEFAULT_TOL} = 1e-12. */
  tol?: number;
  /**
   * Also converged when a full Newton step (λ = 1) satisfies ‖Δx‖∞ ≤ stepTol·max(1, ‖x‖∞): x is then
   * fixed to working precision even if roundoff keeps ‖F‖∞ above `tol`. Default
   * {@link NEWTON_DEFAULT_STEP_TOL} = 4ε; 0 disables it.
   */
  stepTol?: number;
  /** Maximum number of Newton steps (Jacobian solves). Default 50; 0 only evaluates F(x0). */
  maxIterations?: number;
  /**
   * Round-off floor: also converged (reason `'stall'`) when, after a full Newton step (λ = 1),
   * tol < ‖F‖∞ ≤ stallTol and the step reduced ‖F‖∞ by less than half. Quadratic convergence
   * halves any residual above the floor of rounding errors in F, so a residual that no longer
   * halves below `stallTol` is that floor, and further steps only stir the noise (e.g. a
   * constraint φ(q) of a long chain, whose round-off ε·|q|·|∇φ| exceeds a tight `tol`).
   * Default 0 (off).
   */
  stallTol?: number;
  /**
   * Backtracking line search: λ = 1, ½, ¼, … ≥ {@link MIN_LINE_SEARCH_STEP} until the Armijo
   * condition φ(x + λΔx) ≤ (1 − 2cλ)φ(x) holds (∇φ·Δx = −‖F‖₂² = −2φ for the Newton direction;
   * c = {@link ARMIJO_CONSTANT}). Trial points with non-finite F count as failures. Default false.
   */
  lineSearch?: boolean;
  /** Throw {@link NewtonDivergedError} instead of returning `converged: false`. Default false. */
  throwOnFailure?: boolean;
  /**
   * Manifold Newton: the update x ← retract(x, λΔx) instead of x + λΔx, where Δx ∈ Rⁿ are the
   * tangent coordinates of the chart the Jacobian is taken in (e.g. `X·Exp(Δ)` on a Lie group,
   * or a group part and an additive multiplier part, see {@link borderedRetraction}). `out` may
   * alias `x`. Default: the additive update.
   */
  retract?: ((out: Float64Array, x: Float64Array, dx: Float64Array) => void) | undefined;
  /** Length of an iterate's storage (≥ n; a rotation stores 9 numbers for 3 tangent ones). Default n. */
  storageSize?: number;
  /**
   * How a singular Jacobian is detected: `'estimate'` (default) estimates κ₁(J) after each
   * factorization (two extra solves) and stops at κ₁ ≥ `maxCondition` (default
   * {@link SINGULAR_JACOBIAN_CONDITION});
   * `'pivot'` only stops at an exactly zero pivot (for hot loops whose Jacobian is known to be
   * well conditioned; a near-singular J then shows as a large or non-finite step).
   */
  conditionCheck?: 'estimate' | 'pivot';
  /**
   * The bound of `'estimate'`: J counts as singular when κ₁(J) ≥ maxCondition (e.g. 1e12 for a
   * constrained system whose regularity test is stricter than working precision). Default
   * {@link SINGULAR_JACOBIAN_CONDITION} = 1/ε.
   */
  maxCondition?: number;
  /**
   * Builds the error thrown for a singular Jacobian (cold path), e.g. a
   * `NonRegularSystemError` with singular values; receives a copy of J. Default: a
   * {@link SingularJacobianError}.
   */
  onSingular?:
    | ((
        jacobian: Float64Array,
        n: number,
        iteration: number,
        conditionEstimate: number,
        step: number | undefined,
      ) => Error)
    | undefined;
  /** Names the solve in thrown errors, e.g. `'forward step'`. */
  what?: string | undefined;
  /**
   * The linear solver of the Newton steps (see {@link NewtonLinearSolver}): J(out, x) then fills
   * its `matrix` in place (nothing copied), and it factors and solves. For structured Jacobians:
   * {@link BandNewtonLinearSolver} (band LU, O(n k²) per iteration), a bordered (constrained)
   * matrix, or {@link DenseNewtonLinearSolver}. Default: the built-in dense path (an unrolled LU
   * for n ≤ 3, core's {@link DenseLU} above). The stopping rule and the order of operations are
   * the same for every linear solver. With it, `onSingular` receives a copy of its `matrix`;
   * `solveScalar` (which divides by f′) does not use it.
   */
  linearSolver?: NewtonLinearSolver | undefined;
}

/**
 * The linear algebra of a Newton step J Δx = −F, pluggable into {@link NewtonSolver} (option
 * `linearSolver`) so that one Newton iteration serves dense, banded and bordered Jacobians.
 * Contract: `matrix` is the storage the Jacobian callback J(out, x) receives as `out` (its layout
 * is the implementation's: dense row-major, band rows, …; a callback may instead fill the
 * implementation through its own methods and ignore `out`); `factor()` factors what J just
 * filled and returns false at an exactly zero pivot (singular); `solve(x)` overwrites x with
 * J⁻¹x; `estimateCondition()` writes κ₁ of the factored matrix into `condition` for the solver's
 * `'estimate'` check and returns true, or returns false when the implementation has no estimate
 * (the check is then the zero pivot alone, as `'pivot'`). A field, not a returned number: a double
 * returned from a call V8 does not inline is boxed. No method may allocate (the solver's promise
 * of an allocation-free `solve`). No inertia is needed.
 *
 * @example
 * ```ts
 * // a tridiagonal system x_i³ + x_{i−1} + x_{i+1} = c through a band LU (k = 1)
 * const n = 6;
 * const linear = new BandNewtonLinearSolver(n, 1, 1);
 * const F = (out: Float64Array, x: Float64Array) => {
 *   for (let i = 0; i < n; i++) out[i] = x[i]! ** 3 + (x[i - 1] ?? 0) + (x[i + 1] ?? 0) - 3;
 * };
 * const J = (_out: Float64Array, x: Float64Array) => {
 *   linear.band.clear();
 *   for (let i = 0; i < n; i++) {
 *     linear.band.set(i, i, 3 * x[i]! ** 2);
 *     if (i > 0) linear.band.set(i, i - 1, 1);
 *     if (i < n - 1) linear.band.set(i, i + 1, 1);
 *   }
 * };
 * const r = new NewtonSolver(n, { linearSolver: linear }).solve(F, J, new Float64Array(n).fill(1));
 * r.converged; // true
 * ```
 */
export interface NewtonLinearSolver {
  /** Number of unknowns (the solver's n). */
  readonly n: number;
  /** The storage J(out, x) fills (passed as `out`), factored in place or copied by `factor`. */
  readonly matrix: Float64Array;
  /** Factors the matrix just filled; false at an exactly zero pivot. */
  factor(): boolean;
  /** x ← J⁻¹x (x of length n). */
  solve(x: Float64Array): void;
  /** {@link condition} ← κ₁ of the factored matrix and true, or false without an estimate. */
  estimateCondition(): boolean;
  /** κ₁ of the last {@link estimateCondition} (NaN before or without one). */
  readonly condition: number;
}

/**
 * {@link NewtonLinearSolver} by core's {@link DenseLU} on a dense row-major n×n `matrix`: the
 * operations of {@link NewtonSolver}'s built-in path for n ≥ 4 (so the iterates are bit-identical
 * to it), usable at every n, with the Hager–Higham κ₁ estimate.
 *
 * @example
 * ```ts
 * const linear = new DenseNewtonLinearSolver(2);
 * linear.matrix.set([2, 1, 1, 3]);
 * linear.factor(); // true
 * const x = Float64Array.of(3, 4);
 * linear.solve(x); // x = [1, 1]
 * ```
 */
export class DenseNewtonLinearSolver implements NewtonLinearSolver {
  readonly n: number;
  readonly matrix: Float64Array;
  condition = Number.NaN;
  private readonly lu: DenseLU;

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1)
      throw new DimensionError('DenseNewtonLinearSolver: n', '>= 1', n);
    this.n = n;
    this.matrix = new Float64Array(n * n);
    this.lu = new DenseLU(n);
  }

  factor(): boolean {
    return !this.lu.factor(this.matrix).isSingular;
  }

  solve(x: Float64Array): void {
    this.lu.solve(x, x);
  }

  estimateCondition(): boolean {
    this.condition = this.lu.conditionEstimate();
    return true;
  }
}

/**
 * {@link NewtonLinearSolver} by core's {@link BandLU} (partial pivoting, O(n·kl·(kl + ku)) per
 * factorization) on a band Jacobian with kl sub- and ku superdiagonals: `matrix` is the row band
 * storage of {@link band} (`rowBand[i·(kl + ku + 1) + j − i + kl]` = J_ij), which the Jacobian
 * callback fills (directly, or through `band.set`), with the κ₁ estimate of BandLU.
 *
 * @example
 * ```ts
 * const linear = new BandNewtonLinearSolver(3, 1, 1);
 * linear.band.set(0, 0, 2).set(1, 1, 2).set(2, 2, 2).set(0, 1, 1).set(1, 0, 1);
 * linear.factor(); // true
 * const x = Float64Array.of(3, 3, 2);
 * linear.solve(x); // x = [1, 1, 1]
 * ```
 */
export class BandNewtonLinearSolver implements NewtonLinearSolver {
  readonly n: number;
  readonly matrix: Float64Array;
  /** The band matrix whose storage is {@link matrix}. */
  readonly band: BandMatrix;
  condition = Number.NaN;
  private readonly lu: BandLU;

  constructor(n: number, kl: number, ku: number) {
    if (!Number.isInteger(n) || n < 1)
      throw new DimensionError('BandNewtonLinearSolver: n', '>= 1', n);
    this.n = n;
    this.band = new BandMatrix(n, kl, ku);
    this.matrix = this.band.rowBand;
    this.lu = new BandLU(n, kl, ku);
  }

  factor(): boolean {
    return !this.lu.factor(this.band).isSingular;
  }

  solve(x: Float64Array): void {
    this.lu.solve(x, x);
  }

  estimateCondition(): boolean {
    this.condition = this.lu.conditionEstimate();
    return true;
  }
}

/** Why a Newton solve stopped. */
export type NewtonStopReason = 'residual' | 'step' | 'stall' | 'maxIterations' | 'lineSearch';

/** Outcome of a Newton solve. */
export interface NewtonResult {
  /** The last iterate (for {@link NewtonSolver}: its own buffer, overwritten by the next solve). */
  readonly x: Float64Array;
  readonly converged: boolean;
  /** Newton steps taken (Jacobian factorizations). */
  readonly iterations: number;
  /** ‖F(x)‖∞ at the returned x. */
  readonly residualNorm: number;
  /** ‖λΔx‖∞ of the last step taken (0 if none). */
  readonly stepNorm: number;
  /** `residual`, `step` or `stall` when converged; `maxIterations` or `lineSearch` when not. */
  readonly reason: NewtonStopReason;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface ResolvedNewtonOptions {
  readonly tol: number;
  readonly stepTol: number;
  readonly maxIterations: number;
  readonly stallTol: number;
  readonly lineSearch: boolean;
  readonly throwOnFailure: boolean;
  readonly retract: ((out: Float64Array, x: Float64Array, dx: Float64Array) => void) | undefined;
  readonly storageSize: number | undefined;
  readonly conditionCheck: 'estimate' | 'pivot';
  readonly maxCondition: number;
  readonly onSingular: NewtonOptions['onSingular'];
  readonly what: string | undefined;
  readonly linearSolver: NewtonLinearSolver | undefined;
}

function validate(options: NewtonOptions): ResolvedNewtonOptions {
  const tol = options.tol ?? NEWTON_DEFAULT_TOL;
  const stepTol = options.stepTol ?? NEWTON_DEFAULT_STEP_TOL;
  const maxIterations = options.maxIterations ?? 50;
  const stallTol = options.stallTol ?? 0;
  if (!(tol >= 0)) throw new DomainError('newton: tol', tol, 'must be ≥ 0');
  if (!(stallTol >= 0 && stallTol < Number.POSITIVE_INFINITY)) {
    throw new DomainError('newton: stallTol', stallTol, 'must be finite and ≥ 0');
  }
  if (!(stepTol >= 0)) throw new DomainError('newton: stepTol', stepTol, 'must be ≥ 0');
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new DomainError('newton: maxIterations', maxIterations, 'must be an integer ≥ 0');
  }
  const conditionCheck = options.conditionCheck ?? 'estimate';
  if (conditionCheck !== 'estimate' && conditionCheck !== 'pivot') {
    throw new DomainError(
      'newton: conditionCheck',
      conditionCheck,
      "must be 'estimate' or 'pivot'",
    );
  }
  const maxCondition = options.maxCondition ?? SINGULAR_JACOBIAN_CONDITION;
  if (!(maxCondition > 1)) {
    throw new DomainError('newton: maxCondition', maxCondition, 'must be > 1');
  }
  return {
    tol,
    stepTol,
    maxIterations,
    stallTol,
    lineSearch: options.lineSearch ?? false,
    throwOnFailure: options.throwOnFailure ?? false,
    retract: options.retract,
    storageSize: options.storageSize,
    conditionCheck,
    maxCondition,
    onSingular: options.onSingular,
    what: options.what,
    linearSolver: options.linearSolver,
  };
}

/**
 * A scalar equation f(x) = 0 for {@link NewtonSolver.solveScalar}: an object whose methods take
 * and return plain numbers. Give it as a class instance (or one object literal shape) so that the
 * solver's call sites stay monomorphic and V8 inlines `residual` and `derivative` into the
 * iteration: a double passed to or returned from a call that is not inlined is boxed (16 B).
 *
 * @example
 * ```ts
 * // x³ = 2: f(x) = x³ − 2, f′(x) = 3x²
 * const cubeRoot: ScalarNewtonProblem = {
 *   residual: (x) => x * x * x - 2,
 *   derivative: (x) => 3 * x * x,
 * };
 * new NewtonSolver(1).solveScalar(cubeRoot, [1]).x[0]; // 1.2599210498948732
 * ```
 */
export interface ScalarNewtonProblem {
  /** f(x). */
  residual(x: number): number;
  /** f′(x), at the x of the last `residual` call (the solver always calls them in that order). */
  derivative(x: number): number;
}

/**
 * A reusable Newton solver for n×n systems. It owns its LU factorization, vectors and result
 * object, so `solve` allocates nothing: an integrator keeps one and calls `solve` every step.
 *
 * Iteration k (from x₀): stop if ‖F(xₖ)‖∞ ≤ tol; else factor J(xₖ), check κ₁(J) < `maxCondition`
 * (default {@link SINGULAR_JACOBIAN_CONDITION}; {@link NewtonSolver.lastCondition} keeps the
 * estimate), solve J Δx = −F(xₖ), and set xₖ₊₁ = xₖ + λΔx (λ = 1, or from the line search). With
 * `stallTol`, a full step that leaves tol < ‖F‖∞ ≤ stallTol without halving ‖F‖∞ also stops,
 * converged (reason `'stall'`: the round-off floor of F).
 *
 * The linear solve is chosen by dimension, with the same stopping rule for all: n = 1 a division;
 * n = 2, 3 an unrolled LU with partial pivoting (the operations of `luFactorInPlace` and
 * `luSolveInPlace` in their order, so the steps are bit-identical to the general path's) and, with
 * `'estimate'`, the exact κ₁(J) = ‖J‖₁‖adj J‖₁/|det J| (≥ the general path's Hager–Higham estimate,
 * a lower bound of κ₁); n ≥ 4 core's {@link DenseLU} and its estimate.
 *
 * Failure modes:
 * - singular Jacobian (zero pivot or κ₁ ≥ `maxCondition`): always throws {@link SingularJacobianError}
 *   `{ iteration, conditionEstimate, step }`;
 * - non-finite F(x₀) or J(x): always throws {@link NonFiniteError} (bad input, not divergence);
 * - a non-finite step, iterate or residual after a step: always throws {@link NewtonDivergedError}
 *   with `reason` saying which (the line search first backtracks from non-finite trial points);
 * - no convergence within `maxIterations`, or a failed line search: returns `converged: false`
 *   (or throws {@link NewtonDivergedError} with `throwOnFailure`).
 *
 * @example
 * ```ts
 * const solver = new NewtonSolver(2, { lineSearch: true });
 * const F = (out: Float64Array, x: Float64Array) => { out[0] = x[0]! ** 2 + x[1]! ** 2 - 4; out[1] = x[1]! - x[0]! ** 2 + 1; };
 * const J = (out: Float64Array, x: Float64Array) => { out.set([2 * x[0]!, 2 * x[1]!, -2 * x[0]!, 1]); };
 * const { x, converged } = solver.solve(F, J, Float64Array.of(1, 1)); // x ≈ [1.5175, 1.3028]
 * ```
 */
export class NewtonSolver {
  /** Number of equations = tangent dimension of the unknowns. */
  readonly n: number;
  /** Length of an iterate's storage (n unless a retraction says otherwise). */
  readonly storageSize: number;
  readonly options: Readonly<ResolvedNewtonOptions>;
  /**
   * ‖F‖∞ at the guess (index 0) and after each iteration of the last solve (entries
   * 0..iterations are valid); preallocated, overwritten by the next solve.
   */
  readonly history: Float64Array;
  /**
   * κ₁ estimate of the last Jacobian factorized (`'estimate'`; NaN with `'pivot'`, ∞ at a zero
   * pivot, NaN before the first factorization of a solve).
   */
  lastCondition = Number.NaN;
  /**
   * Residual tolerance of the following solves (initially `options.tol`; a `tolOverride`
   * argument takes precedence for its solve). Assign it to change the tolerance per solve without
   * passing a double through a call, which V8 boxes (16 B) when the call is not inlined.
   * Initialized to a double (not left `undefined` until the constructor assigns it), so that V8
   * keeps the field unboxed and a per-solve assignment allocates nothing.
   */
  tol = Number.NaN;
  /** n = 1 without a retraction, a line search or a stall test: {@link solveScalar}'s plain path. */
  private readonly scalarPlain: boolean;
  /** Result slot of {@link finiteNorm2} (no boxed double return). */
  private norm2Value = 0;
  /** The factorization of n ≥ 4 under `'estimate'` (n ≤ 3 solve unrolled). */
  private readonly lu: DenseLU | undefined;
  /** The `linearSolver` option (undefined: the built-in dense path). */
  private readonly linear: NewtonLinearSolver | undefined;
  /** n ≥ 4 under `'pivot'`: the LU factors of J (core's kernels on a copy; J itself is kept). */
  private readonly luA: Float64Array | undefined;
  private readonly luPiv: Int32Array | undefined;
  private readonly x: Float64Array;
  private readonly f: Float64Array;
  private readonly jac: Float64Array;
  private readonly dx: Float64Array;
  private readonly dxs: Float64Array;
  private readonly xt: Float64Array;
  private readonly ft: Float64Array;
  private readonly result: Mutable<NewtonResult>;

  constructor(n: number, options: NewtonOptions = {}) {
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('NewtonSolver: size', '>= 1', n);
    const resolved = validate(options);
    const ns = resolved.storageSize ?? n;
    if (!Number.isInteger(ns) || ns < n) {
      throw new DimensionError('NewtonSolver: storageSize', `an integer >= ${n}`, ns);
    }
    if (ns !== n && resolved.retract === undefined) {
      throw new DomainError(
        'NewtonSolver: storageSize',
        ns,
        'needs a retract option when it differs from n',
      );
    }
    this.n = n;
    this.storageSize = ns;
    this.options = Object.freeze(resolved);
    this.history = new Float64Array(resolved.maxIterations + 1);
    this.tol = resolved.tol;
    const linear = resolved.linearSolver;
    if (linear !== undefined && linear.n !== n)
      throw new DimensionError('NewtonSolver: linearSolver.n', n, linear.n);
    this.linear = linear;
    this.scalarPlain =
      n === 1 && resolved.retract === undefined && !resolved.lineSearch && resolved.stallTol === 0;
    // the built-in dense path only without a linear solver
    const builtIn = linear === undefined && n > 3;
    const dense = builtIn && resolved.conditionCheck === 'estimate';
    this.lu = dense ? new DenseLU(n) : undefined;
    this.luA = builtIn && !dense ? new Float64Array(n * n) : undefined;
    this.luPiv = builtIn && !dense ? new Int32Array(n) : undefined;
    this.x = new Float64Array(ns);
    this.f = new Float64Array(n);
    this.jac = linear === undefined ? new Float64Array(n * n) : linear.matrix;
    this.dx = new Float64Array(n);
    this.dxs = new Float64Array(n);
    this.xt = new Float64Array(ns);
    this.ft = new Float64Array(n);
    this.result = {
      x: this.x,
      converged: false,
      iterations: 0,
      residualNorm: Number.NaN,
      stepNorm: 0,
      reason: 'maxIterations',
    };
  }

  /**
   * Solves F(x) = 0 from `x0` (not modified; may be the previous result's `x`). `F` and `J` receive
   * the solver's iterate buffer and must not modify or keep it. With a retraction, `x0` has
   * `storageSize` entries and `J` is taken in the chart Δ ↦ retract(x, Δ) at Δ = 0.
   *
   * @param step - integrator step index, copied into thrown errors.
   * @param tolOverride - residual tolerance of this solve only (e.g. raised to the round-off floor
   *   of the residual's terms by an integrator whose state has grown); default `options.tol`.
   * @returns the solver's own result object (same object and `x` buffer on every call).
   */
  solve(
    F: ResidualFunction,
    J: JacobianFunction,
    x0: ArrayLike<number>,
    step?: number,
    tolOverride?: number,
  ): NewtonResult {
    const { n, storageSize: ns, x, f, dx, dxs, xt, ft, result, history } = this;
    const { stepTol, maxIterations, stallTol, lineSearch, throwOnFailure, retract, what } =
      this.options;
    // not `tolOverride ?? this.tol`: that tagged phi boxes a fresh HeapNumber on every solve
    let tol = this.tol;
    if (tolOverride !== undefined) tol = +tolOverride;
    if (!(tol >= 0))
      throw new DomainError(
        'NewtonSolver.solve: tol (the tol field or tolOverride)',
        tol,
        'must be ≥ 0',
      );
    if (x0.length !== ns) throw new DimensionError('NewtonSolver.solve: x0', ns, x0.length);
    if (x0 !== x) for (let i = 0; i < ns; i++) x[i] = x0[i]!;
    this.lastCondition = Number.NaN;
    // The norms below are written out, not calls of core's normInf/norm2: a double returned from
    // a call that V8 does not inline is boxed (16 B per call), and this body is too large for
    // every such call to be inlined (≈ 14 B per iteration before). `!(v <= m)` propagates NaN.
    F(f, x);
    let r = 0;
    for (let i = 0; i < n; i++) {
      const v = Math.abs(f[i]!);
      if (!(v <= r)) r = v;
    }
    if (!Number.isFinite(r)) throw new NonFiniteError(label(what, 'F(x0)'), firstNonFinite(f, n));
    history[0] = r;
    // ‖x‖∞ of the current iterate: the scale of the step test, and (after each update) the
    // iterate's finiteness check in the same pass
    let xNorm = 0;
    for (let i = 0; i < ns; i++) {
      const v = Math.abs(x[i]!);
      if (!(v <= xNorm)) xNorm = v;
    }
    let stepNorm = 0;
    let k = 0;
    let reason: NewtonStopReason = 'maxIterations';
    for (;;) {
      if (r <= tol) {
        reason = 'residual';
        break;
      }
      if (k >= maxIterations) {
        reason = 'maxIterations';
        break;
      }
      J(this.jac, x);
      this.newtonStep(k, step); // dx ← −J⁻¹F, or throws (singular, non-finite J)
      k++;
      let dxNorm = 0;
      for (let i = 0; i < n; i++) {
        const v = Math.abs(dx[i]!);
        if (!(v <= dxNorm)) dxNorm = v;
      }
      if (!Number.isFinite(dxNorm)) {
        throw this.diverged(k, r, step, 'produced a non-finite step');
      }
      const smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      if (!lineSearch || smallStep) {
        if (retract === undefined) for (let i = 0; i < n; i++) x[i] = x[i]! + dx[i]!;
        else retract(x, x, dx);
        stepNorm = dxNorm;
        xNorm = 0; // NaN or ∞ when an entry is not finite
        for (let i = 0; i < ns; i++) {
          const v = Math.abs(x[i]!);
          if (!(v <= xNorm)) xNorm = v;
        }
        if (!Number.isFinite(xNorm)) {
          throw this.diverged(k, r, step, 'produced a non-finite iterate');
        }
        F(f, x);
        r = 0;
        for (let i = 0; i < n; i++) {
          const v = Math.abs(f[i]!);
          if (!(v <= r)) r = v;
        }
        history[k] = r;
        if (!Number.isFinite(r)) throw this.diverged(k, r, step, 'produced a non-finite residual');
        if (smallStep && r > tol) {
          reason = 'step';
          break;
        }
        if (r > tol && r <= stallTol && r > 0.5 * history[k - 1]!) {
          reason = 'stall';
          break;
        }
        continue;
      }
      // Backtracking on φ = ½‖F‖₂², compared as norms to avoid overflow.
      this.finiteNorm2(f);
      const phiNorm = this.norm2Value;
      let lambda = 1;
      let accepted = false;
      while (lambda >= MIN_LINE_SEARCH_STEP) {
        if (retract === undefined) for (let i = 0; i < n; i++) xt[i] = x[i]! + lambda * dx[i]!;
        else {
          for (let i = 0; i < n; i++) dxs[i] = lambda * dx[i]!;
          retract(xt, x, dxs);
        }
        if (allFinite(xt, ns)) {
          F(ft, xt);
          this.finiteNorm2(ft);
          if (this.norm2Value <= Math.sqrt(1 - 2 * ARMIJO_CONSTANT * lambda) * phiNorm) {
            accepted = true;
            break;
          }
        }
        lambda *= 0.5;
      }
      if (!accepted) {
        reason = 'lineSearch';
        break;
      }
      for (let i = 0; i < ns; i++) x[i] = xt[i]!;
      xNorm = 0;
      for (let i = 0; i < ns; i++) {
        const v = Math.abs(x[i]!);
        if (!(v <= xNorm)) xNorm = v;
      }
      r = 0;
      for (let i = 0; i < n; i++) {
        const v = ft[i]!;
        f[i] = v;
        const a = Math.abs(v);
        if (!(a <= r)) r = a;
      }
      stepNorm = lambda * dxNorm;
      history[k] = r;
    }
    result.converged = reason === 'residual' || reason === 'step' || reason === 'stall';
    result.iterations = k;
    result.residualNorm = r;
    result.stepNorm = stepNorm;
    result.reason = reason;
    if (!result.converged && throwOnFailure) {
      throw this.diverged(
        k,
        r,
        step,
        reason === 'lineSearch' ? 'line search failed' : 'did not converge',
      );
    }
    return result;
  }

  /**
   * Solves the scalar equation f(x) = 0 (a solver of size n = 1) from `x0` (one entry; not
   * modified): the iteration, stopping rule, line search, errors and result of {@link solve} in
   * the same operations and order, so the iterates, `history` and result are bit-identical to
   * `solve` with F(out, x) = [f(x₀)], J(out, x) = [f′(x₀)] (tested on random problems), but f and
   * f′ are methods of `problem` taking and returning numbers, with no residual or Jacobian
   * buffers: x_{k+1} = x_k − λ f(x_k)/f′(x_k) (λ = 1, or from the line search on φ = ½f²).
   *
   * The residual tolerance is the `tol` field (no per-call override: a double argument of a call
   * V8 does not inline is boxed). The singularity test is f′(x) = 0 (κ = 1 otherwise, under both
   * `conditionCheck` settings, as `solve` has it for n = 1).
   *
   * @param problem - f and f′ (see {@link ScalarNewtonProblem}).
   * @param x0 - the initial guess, one entry (may be the previous result's `x`).
   * @param step - integrator step index, copied into thrown errors.
   * @returns the solver's own result object, as {@link solve}; the root is `x[0]`.
   * @throws {@link DimensionError} unless the solver has n = 1 and `x0` one entry;
   *   {@link DomainError} for a solver with a retraction (the update is additive) or a negative
   *   `tol`; otherwise as {@link solve}.
   * @example
   * ```ts
   * const solver = new NewtonSolver(1, { lineSearch: true });
   * const r = solver.solveScalar({ residual: Math.atan, derivative: (x) => 1 / (1 + x * x) }, [3]);
   * r.x[0]; // 0 (without the line search Newton diverges from 3)
   * ```
   */
  solveScalar(problem: ScalarNewtonProblem, x0: ArrayLike<number>, step?: number): NewtonResult {
    // The common case (no line search, no stall test) in a body small enough for V8 to inline
    // into the caller, with every rare outcome in cold methods: the private scalar loops this
    // replaced were ~20 % faster than the full iteration below behind a call (issue 20).
    if (!this.scalarPlain) return this.solveScalarGeneral(problem, x0, step);
    const tol = this.tol;
    if (!(tol >= 0) || x0.length !== 1) this.scalarBadCall(x0);
    const { history, result } = this;
    const { stepTol, maxIterations } = this.options;
    let x = +x0[0]!;
    let fx = problem.residual(x);
    let r = Math.abs(fx);
    if (!Number.isFinite(r)) this.scalarFailure(0, fx, 0, r, step);
    history[0] = r;
    let xNorm = Math.abs(x);
    let stepNorm = 0;
    let k = 0;
    let smallStep = false;
    while (r > tol && k < maxIterations) {
      const j0 = problem.derivative(x);
      if (!(j0 - j0 === 0 && j0 !== 0)) this.scalarFailure(1, j0, k, r, step);
      const dx = -fx / j0;
      k++;
      const dxNorm = Math.abs(dx);
      if (!Number.isFinite(dxNorm)) this.scalarFailure(2, dx, k, r, step);
      smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      x = x + dx;
      stepNorm = dxNorm;
      xNorm = Math.abs(x);
      if (!Number.isFinite(xNorm)) this.scalarFailure(3, x, k, r, step);
      fx = problem.residual(x);
      r = Math.abs(fx);
      history[k] = r;
      if (!Number.isFinite(r)) this.scalarFailure(4, fx, k, r, step);
      if (smallStep) break;
    }
    this.lastCondition = k > 0 ? 1 : Number.NaN;
    this.x[0] = x;
    result.iterations = k;
    result.residualNorm = r;
    result.stepNorm = stepNorm;
    if (r <= tol) {
      result.converged = true;
      result.reason = 'residual';
    } else if (smallStep) {
      result.converged = true;
      result.reason = 'step';
    } else {
      result.converged = false;
      result.reason = 'maxIterations';
      if (this.options.throwOnFailure) throw this.diverged(k, r, step, 'did not converge');
    }
    return result;
  }

  /**
   * The throws of {@link solveScalar}'s plain path (cold): `kind` 0 a non-finite f(x₀), 1 a
   * non-finite or zero f′ (`value`) at iteration `k`, 2–4 a non-finite step, iterate or residual
   * after step `k`, with the errors, messages and `lastCondition` of {@link solve}.
   */
  private scalarFailure(
    kind: number,
    value: number,
    k: number,
    r: number,
    step: number | undefined,
  ): never {
    const what = this.options.what;
    if (kind === 0) {
      this.lastCondition = Number.NaN;
      throw new NonFiniteError(label(what, 'F(x0)'), 0);
    }
    if (kind === 1) {
      this.jac[0] = value;
      this.lastCondition = k > 0 ? 1 : Number.NaN;
      if (value - value !== 0) throw new NonFiniteError(label(what, 'J(x)'), 0);
      this.lastCondition = Number.POSITIVE_INFINITY;
      throw this.singular(k, Number.POSITIVE_INFINITY, step);
    }
    this.lastCondition = 1;
    throw this.diverged(
      k,
      r,
      step,
      kind === 2
        ? 'produced a non-finite step'
        : kind === 3
          ? 'produced a non-finite iterate'
          : 'produced a non-finite residual',
    );
  }

  /** The argument errors of {@link solveScalar} (cold). */
  private scalarBadCall(x0: ArrayLike<number>): never {
    const tol = this.tol;
    if (!(tol >= 0))
      throw new DomainError('NewtonSolver.solveScalar: tol (the tol field)', tol, 'must be ≥ 0');
    throw new DimensionError('NewtonSolver.solveScalar: x0', 1, x0.length);
  }

  /**
   * {@link solveScalar} with every option (line search, stall test), and its unsupported
   * configurations (n ≠ 1, a retraction): the iteration of {@link solve} for n = 1, term by term.
   */
  private solveScalarGeneral(
    problem: ScalarNewtonProblem,
    x0: ArrayLike<number>,
    step: number | undefined,
  ): NewtonResult {
    const { result, history, f, jac } = this;
    if (this.n !== 1) throw new DimensionError('NewtonSolver.solveScalar: size n', 1, this.n);
    const { stepTol, maxIterations, stallTol, lineSearch, throwOnFailure, retract, what } =
      this.options;
    if (retract !== undefined) {
      throw new DomainError(
        'NewtonSolver.solveScalar: retract',
        'a retraction',
        'is not supported (the scalar update is additive); use solve',
      );
    }
    const tol = this.tol;
    if (!(tol >= 0))
      throw new DomainError('NewtonSolver.solveScalar: tol (the tol field)', tol, 'must be ≥ 0');
    if (x0.length !== 1) throw new DimensionError('NewtonSolver.solveScalar: x0', 1, x0.length);
    let x = +x0[0]!;
    this.lastCondition = Number.NaN;
    // the operations of solve for n = 1, in its order (see there); x and F(x) live in locals and
    // are written to the solver's buffers where solve's errors and hooks read them
    let fx = problem.residual(x);
    let r = Math.abs(fx);
    if (!Number.isFinite(r)) {
      f[0] = fx;
      throw new NonFiniteError(label(what, 'F(x0)'), 0);
    }
    history[0] = r;
    let xNorm = Math.abs(x);
    let stepNorm = 0;
    let k = 0;
    let reason: NewtonStopReason = 'maxIterations';
    for (;;) {
      if (r <= tol) {
        reason = 'residual';
        break;
      }
      if (k >= maxIterations) {
        reason = 'maxIterations';
        break;
      }
      const j0 = problem.derivative(x);
      if (j0 - j0 !== 0) {
        jac[0] = j0;
        throw new NonFiniteError(label(what, 'J(x)'), 0);
      }
      if (j0 === 0) {
        jac[0] = j0;
        this.lastCondition = Number.POSITIVE_INFINITY;
        throw this.singular(k, Number.POSITIVE_INFINITY, step);
      }
      const dx = -fx / j0;
      this.lastCondition = 1;
      k++;
      const dxNorm = Math.abs(dx);
      if (!Number.isFinite(dxNorm)) {
        throw this.diverged(k, r, step, 'produced a non-finite step');
      }
      const smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      if (!lineSearch || smallStep) {
        x = x + dx;
        stepNorm = dxNorm;
        xNorm = Math.abs(x);
        if (!Number.isFinite(xNorm)) {
          throw this.diverged(k, r, step, 'produced a non-finite iterate');
        }
        fx = problem.residual(x);
        r = Math.abs(fx);
        history[k] = r;
        if (!Number.isFinite(r)) throw this.diverged(k, r, step, 'produced a non-finite residual');
        if (smallStep && r > tol) {
          reason = 'step';
          break;
        }
        if (r > tol && r <= stallTol && r > 0.5 * history[k - 1]!) {
          reason = 'stall';
          break;
        }
        continue;
      }
      // backtracking on φ = ½f², as solve (its ‖F‖₂ of one finite entry is |F|)
      const phiNorm = r;
      let lambda = 1;
      let accepted = false;
      let xt = x;
      let ft = fx;
      while (lambda >= MIN_LINE_SEARCH_STEP) {
        xt = x + lambda * dx;
        if (Number.isFinite(xt)) {
          ft = problem.residual(xt);
          // a non-finite |ft| fails the test, as solve's NaN norm does
          if (Math.abs(ft) <= Math.sqrt(1 - 2 * ARMIJO_CONSTANT * lambda) * phiNorm) {
            accepted = true;
            break;
          }
        }
        lambda *= 0.5;
      }
      if (!accepted) {
        reason = 'lineSearch';
        break;
      }
      x = xt;
      xNorm = Math.abs(x);
      fx = ft;
      r = Math.abs(ft);
      stepNorm = lambda * dxNorm;
      history[k] = r;
    }
    this.x[0] = x;
    f[0] = fx;
    result.converged = reason === 'residual' || reason === 'step' || reason === 'stall';
    result.iterations = k;
    result.residualNorm = r;
    result.stepNorm = stepNorm;
    result.reason = reason;
    if (!result.converged && throwOnFailure) {
      throw this.diverged(
        k,
        r,
        step,
        reason === 'lineSearch' ? 'line search failed' : 'did not converge',
      );
    }
    return result;
  }

  /**
   * dx ← −J⁻¹F from the Jacobian in `jac` and F in `f`, with the singularity test of the options,
   * at iteration `k`. Chosen by dimension: n = 1 a division; n = 2, 3 an unrolled LU with partial
   * pivoting (the operations of core's `luFactorInPlace` / `luSolveInPlace` in their order, so the
   * step is bit-identical to the general path's) and, under `'estimate'`, the exact
   * κ₁(J) = ‖J‖₁‖adj J‖₁/|det J| from the cofactors (≥ the Hager–Higham estimate, which is a lower
   * bound of it); n ≥ 4 core's {@link DenseLU} and its κ₁ estimate under `'estimate'`, core's
   * `luFactorInPlace` / `luSolveInPlace` on a copy of J under `'pivot'`. Allocates nothing.
   */
  private newtonStep(k: number, step: number | undefined): void {
    const { n, jac, f, dx } = this;
    const linear = this.linear;
    if (linear !== undefined) {
      // the linearSolver option: finiteness of its storage (branch-free, as DenseLU.factor),
      // its factorization, the κ₁ check when it estimates one, and its solve
      let z = 0;
      const len = jac.length;
      for (let i = 0; i < len; i++) {
        const v = jac[i]!;
        z += v - v;
      }
      if (z !== 0)
        throw new NonFiniteError(label(this.options.what, 'J(x)'), firstNonFinite(jac, len));
      if (!linear.factor()) {
        this.lastCondition = Number.POSITIVE_INFINITY;
        throw this.singular(k, Number.POSITIVE_INFINITY, step);
      }
      if (this.options.conditionCheck === 'estimate' && linear.estimateCondition()) {
        this.lastCondition = linear.condition;
        if (!(this.lastCondition < this.options.maxCondition))
          throw this.singular(k, this.lastCondition, step);
      }
      for (let i = 0; i < n; i++) dx[i] = -f[i]!;
      try {
        linear.solve(dx);
      } catch (error) {
        // an overflowing solve (BandLU and DenseLU check their solution): a non-finite step
        if (!(error instanceof NonFiniteError)) throw error;
        dx[0] = Number.NaN;
      }
      return;
    }
    if (n <= 3) {
      // finiteness without a branch per entry (DenseLU.factor's test)
      let z = 0;
      for (let i = 0; i < n * n; i++) {
        const v = jac[i]!;
        z += v - v;
      }
      if (z !== 0)
        throw new NonFiniteError(label(this.options.what, 'J(x)'), firstNonFinite(jac, n * n));
      const estimate = this.options.conditionCheck === 'estimate';
      let ok: boolean;
      if (n === 1) {
        const j0 = jac[0]!;
        ok = j0 !== 0;
        if (ok) {
          dx[0] = -f[0]! / j0;
          this.lastCondition = 1;
        }
      } else if (n === 2) {
        ok = solve2(jac, f, dx);
        if (ok && estimate) condition2(this, jac);
      } else {
        ok = solve3(jac, f, dx);
        if (ok && estimate) condition3(this, jac);
      }
      if (!ok) {
        this.lastCondition = Number.POSITIVE_INFINITY;
        throw this.singular(k, Number.POSITIVE_INFINITY, step);
      }
      if (estimate && n > 1 && !(this.lastCondition < this.options.maxCondition)) {
        throw this.singular(k, this.lastCondition, step);
      }
      return;
    }
    const luA = this.luA;
    if (luA !== undefined) {
      // 'pivot': core's LU kernels on a copy of J, the operations of DenseLU.factor and solve
      // without the copy DenseLU keeps for its condition estimate and its bookkeeping (≈ 6 % of a
      // plate-ball step); the finiteness test is DenseLU.factor's branch-free sum
      const piv = this.luPiv!;
      luA.set(jac);
      let z = 0;
      for (let i = 0; i < n * n; i++) {
        const v = luA[i]!;
        z += v - v;
      }
      if (z !== 0)
        throw new NonFiniteError(label(this.options.what, 'J(x)'), firstNonFinite(jac, n * n));
      if (luFactorInPlace(luA, n, piv) >= 0) {
        this.lastCondition = Number.POSITIVE_INFINITY;
        throw this.singular(k, Number.POSITIVE_INFINITY, step);
      }
      for (let i = 0; i < n; i++) dx[i] = -f[i]!;
      luSolveInPlace(luA, n, piv, dx);
      return;
    }
    const lu = this.lu!;
    // DenseLU.factor checks the entries' finiteness (branch-free) before factoring; a second scan
    // here cost ≈ 5 % of a plate-ball step
    try {
      lu.factor(jac);
    } catch (error) {
      if (!(error instanceof NonFiniteError)) throw error;
      throw new NonFiniteError(label(this.options.what, 'J(x)'), firstNonFinite(jac, n * n));
    }
    if (lu.isSingular) {
      this.lastCondition = Number.POSITIVE_INFINITY;
      throw this.singular(k, Number.POSITIVE_INFINITY, step);
    }
    const cond = lu.conditionEstimate();
    this.lastCondition = cond;
    if (!(cond < this.options.maxCondition)) throw this.singular(k, cond, step);
    for (let i = 0; i < n; i++) dx[i] = -f[i]!;
    lu.solve(dx, dx);
  }

  /** norm2Value ← ‖v‖₂ of the first n entries, NaN when any is not finite (core's norm2). */
  private finiteNorm2(v: Float64Array): void {
    const n = this.n;
    let scale = 0;
    let z = 0;
    for (let i = 0; i < n; i++) {
      const e = v[i]!;
      z += e - e;
      const a = Math.abs(e);
      if (!(a <= scale)) scale = a;
    }
    if (z !== 0) {
      this.norm2Value = Number.NaN;
      return;
    }
    if (scale === 0) {
      this.norm2Value = 0;
      return;
    }
    let s = 0;
    for (let i = 0; i < n; i++) {
      const e = v[i]! / scale;
      s += e * e;
    }
    this.norm2Value = scale * Math.sqrt(s);
  }

  /** The error for a singular Jacobian at iteration `k` (cold path). */
  private singular(k: number, cond: number, step: number | undefined): Error {
    const make = this.options.onSingular;
    if (make !== undefined) return make(this.jac.slice(), this.n, k, cond, step);
    return new SingularJacobianError(k, cond, step);
  }

  /** A {@link NewtonDivergedError} carrying the residual history (cold path). */
  private diverged(
    k: number,
    r: number,
    step: number | undefined,
    reason: string,
  ): NewtonDivergedError {
    const history = Array.from(this.history.subarray(0, Math.min(k, this.history.length - 1) + 1));
    return new NewtonDivergedError(k, r, step, reason, this.options.what, history);
  }
}

/**
 * dx ← −A⁻¹f for the 2×2 row-major A: LU with partial pivoting in the operations and order of
 * `luFactorInPlace` and `luSolveInPlace` (bit-identical to them). A is not modified. Returns false
 * at an exactly zero pivot.
 */
function solve2(a: Float64Array, f: Float64Array, dx: Float64Array): boolean {
  let a00 = a[0]!;
  let a01 = a[1]!;
  let a10 = a[2]!;
  let a11 = a[3]!;
  let b0 = -f[0]!;
  let b1 = -f[1]!;
  // column 0: pivot row p ∈ {0, 1} (strict >, the first maximum)
  if (Math.abs(a10) > Math.abs(a00)) {
    let t = a00;
    a00 = a10;
    a10 = t;
    t = a01;
    a01 = a11;
    a11 = t;
    t = b0;
    b0 = b1;
    b1 = t;
  }
  if (a00 === 0) return false;
  const l10 = a10 / a00;
  if (l10 !== 0) a11 = a11 - l10 * a01;
  if (a11 === 0) return false;
  // forward L y = P b, backward U x = y
  b1 = b1 - l10 * b0;
  const x1 = b1 / a11;
  dx[1] = x1;
  dx[0] = (b0 - a01 * x1) / a00;
  return true;
}

/**
 * dx ← −A⁻¹f for the 3×3 row-major A, as {@link solve2} (bit-identical to `luFactorInPlace` +
 * `luSolveInPlace`, which swap whole rows, the multipliers included). A is not modified.
 */
function solve3(a: Float64Array, f: Float64Array, dx: Float64Array): boolean {
  let a00 = a[0]!;
  let a01 = a[1]!;
  let a02 = a[2]!;
  let a10 = a[3]!;
  let a11 = a[4]!;
  let a12 = a[5]!;
  let a20 = a[6]!;
  let a21 = a[7]!;
  let a22 = a[8]!;
  let b0 = -f[0]!;
  let b1 = -f[1]!;
  let b2 = -f[2]!;
  let t: number;
  // column 0
  let m = Math.abs(a00);
  let p = 0;
  let v = Math.abs(a10);
  if (v > m) {
    m = v;
    p = 1;
  }
  v = Math.abs(a20);
  if (v > m) {
    m = v;
    p = 2;
  }
  if (m === 0) return false;
  if (p === 1) {
    t = a00;
    a00 = a10;
    a10 = t;
    t = a01;
    a01 = a11;
    a11 = t;
    t = a02;
    a02 = a12;
    a12 = t;
    t = b0;
    b0 = b1;
    b1 = t;
  } else if (p === 2) {
    t = a00;
    a00 = a20;
    a20 = t;
    t = a01;
    a01 = a21;
    a21 = t;
    t = a02;
    a02 = a22;
    a22 = t;
    t = b0;
    b0 = b2;
    b2 = t;
  }
  const l10 = a10 / a00;
  a10 = l10;
  if (l10 !== 0) {
    a11 = a11 - l10 * a01;
    a12 = a12 - l10 * a02;
  }
  const l20 = a20 / a00;
  a20 = l20;
  if (l20 !== 0) {
    a21 = a21 - l20 * a01;
    a22 = a22 - l20 * a02;
  }
  // column 1 (rows 1, 2; the swap moves the multipliers of column 0 too)
  if (Math.abs(a21) > Math.abs(a11)) {
    t = a10;
    a10 = a20;
    a20 = t;
    t = a11;
    a11 = a21;
    a21 = t;
    t = a12;
    a12 = a22;
    a22 = t;
    t = b1;
    b1 = b2;
    b2 = t;
  }
  if (a11 === 0) return false;
  const l21 = a21 / a11;
  if (l21 !== 0) a22 = a22 - l21 * a12;
  if (a22 === 0) return false;
  // forward L y = P b (b is permuted above as the pivots were taken, as luSolveInPlace does
  // before its sweeps)
  b1 = b1 - a10 * b0;
  b2 = b2 - a20 * b0;
  b2 = b2 - l21 * b1;
  // backward U x = y
  const x2 = b2 / a22;
  let s = b1;
  s -= a12 * x2;
  const x1 = s / a11;
  s = b0;
  s -= a01 * x1;
  s -= a02 * x2;
  dx[0] = s / a00;
  dx[1] = x1;
  dx[2] = x2;
  return true;
}

/**
 * solver.lastCondition ← κ₁(A) = ‖A‖₁‖adj A‖₁/|det A| of the 2×2 row-major A (∞ when det A = 0 or
 * it overflows). Into the field, not returned: a double returned from a call V8 does not inline is
 * boxed.
 */
function condition2(solver: { lastCondition: number }, a: Float64Array): void {
  const a00 = a[0]!;
  const a01 = a[1]!;
  const a10 = a[2]!;
  const a11 = a[3]!;
  const det = a00 * a11 - a01 * a10;
  const n1 = Math.max(Math.abs(a00) + Math.abs(a10), Math.abs(a01) + Math.abs(a11));
  // adj A = [[a11, −a01], [−a10, a00]]: its column sums are the row sums of A swapped
  const m1 = Math.max(Math.abs(a11) + Math.abs(a10), Math.abs(a01) + Math.abs(a00));
  const c = (n1 * m1) / Math.abs(det);
  solver.lastCondition = Number.isFinite(c) ? c : Number.POSITIVE_INFINITY;
}

/** solver.lastCondition ← κ₁ of the 3×3 row-major A from its cofactors, as {@link condition2}. */
function condition3(solver: { lastCondition: number }, m: Float64Array): void {
  const a = m[0]!;
  const b = m[1]!;
  const c = m[2]!;
  const d = m[3]!;
  const e = m[4]!;
  const f = m[5]!;
  const g = m[6]!;
  const h = m[7]!;
  const i = m[8]!;
  // cofactors C_rc; column j of adj A = Cᵀ is row j of C
  const c00 = e * i - f * h;
  const c01 = f * g - d * i;
  const c02 = d * h - e * g;
  const c10 = c * h - b * i;
  const c11 = a * i - c * g;
  const c12 = b * g - a * h;
  const c20 = b * f - c * e;
  const c21 = c * d - a * f;
  const c22 = a * e - b * d;
  const det = a * c00 + b * c01 + c * c02;
  const n1 = Math.max(
    Math.abs(a) + Math.abs(d) + Math.abs(g),
    Math.abs(b) + Math.abs(e) + Math.abs(h),
    Math.abs(c) + Math.abs(f) + Math.abs(i),
  );
  const m1 = Math.max(
    Math.abs(c00) + Math.abs(c01) + Math.abs(c02),
    Math.abs(c10) + Math.abs(c11) + Math.abs(c12),
    Math.abs(c20) + Math.abs(c21) + Math.abs(c22),
  );
  const k = (n1 * m1) / Math.abs(det);
  solver.lastCondition = Number.isFinite(k) ? k : Number.POSITIVE_INFINITY;
}

function label(what: string | undefined, thing: string): string {
  return `${what ?? 'newton'}: ${thing}`;
}

/**
 * The retraction of bordered (constrained) unknowns (x, λ): x on a manifold with tangent dimension
 * `r` and storage `storage`, moved by `retractX`, followed by m multipliers updated additively.
 * Tangent layout [Δx (r), Δλ (m)], storage layout [x (storage), λ (m)]. Use it with
 * `new NewtonSolver(r + m, { retract: borderedRetraction(r, storage, m, retractX), storageSize: storage + m })`.
 *
 * @example
 * ```ts
 * // unknowns: a rotation R (9 numbers, 3 tangent) and one multiplier
 * const retract = borderedRetraction(3, 9, 1, (out, R, d) => SO3.rplus(out, R, d));
 * const x = new Float64Array(10); SO3.identity(x.subarray(0, 9));
 * retract(x, x, Float64Array.of(0, 0, 0, 2)); // R unchanged, λ = 2
 * ```
 */
export function borderedRetraction(
  r: number,
  storage: number,
  m: number,
  retractX: (out: Float64Array, x: Float64Array, dx: Float64Array) => unknown,
): (out: Float64Array, x: Float64Array, dx: Float64Array) => void {
  if (!Number.isInteger(r) || r < 0) throw new DimensionError('borderedRetraction: r', '>= 0', r);
  if (!Number.isInteger(storage) || storage < r) {
    throw new DimensionError('borderedRetraction: storage', `>= ${r}`, storage);
  }
  if (!Number.isInteger(m) || m < 0) throw new DimensionError('borderedRetraction: m', '>= 0', m);
  const xs = new Float64Array(storage);
  const ds = new Float64Array(r);
  const tmp = new Float64Array(storage);
  return (out, x, dx) => {
    if (dx.length < r + m) throw new DimensionError('borderedRetraction: dx', r + m, dx.length);
    for (let i = 0; i < storage; i++) xs[i] = x[i]!;
    for (let i = 0; i < r; i++) ds[i] = dx[i]!;
    retractX(tmp, xs, ds);
    out.set(tmp, 0);
    for (let a = 0; a < m; a++) out[storage + a] = x[storage + a]! + dx[r + a]!;
  };
}

function firstNonFinite(v: Float64Array, len: number): number {
  for (let i = 0; i < len; i++) if (!Number.isFinite(v[i]!)) return i;
  return -1;
}

/**
 * Solves the square system F(x) = 0 by Newton's method from x0 (one-shot form of
 * {@link NewtonSolver}; see there for the iteration and failure modes). Quadratically convergent
 * near a root with nonsingular Jacobian: ‖xₖ₊₁ − x*‖ ≤ C‖xₖ − x*‖².
 *
 * @param F - writes F(x) ∈ Rⁿ into `out`.
 * @param J - writes the n×n Jacobian (row-major, `out[i*n + j] = ∂Fᵢ/∂xⱼ`) into `out`.
 * @example
 * ```ts
 * const F = (out: Float64Array, x: Float64Array) => { out[0] = Math.atan(x[0]!); };
 * const J = (out: Float64Array, x: Float64Array) => { out[0] = 1 / (1 + x[0]! ** 2); };
 * newton(F, J, [3], { lineSearch: true }).x[0]; // 0 (without the line search it diverges)
 * ```
 */
export function newton(
  F: ResidualFunction,
  J: JacobianFunction,
  x0: ArrayLike<number>,
  options: NewtonOptions = {},
): NewtonResult {
  const r = new NewtonSolver(x0.length, options).solve(F, J, x0);
  return { ...r };
}
