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
import { DenseLU } from '../linalg/lu.js';
import { allFinite, norm2, normInf } from '../linalg/matrix.js';

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
  };
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
  private readonly lu: DenseLU;
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
    this.lu = new DenseLU(n);
    this.x = new Float64Array(ns);
    this.f = new Float64Array(n);
    this.jac = new Float64Array(n * n);
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
    const { n, storageSize: ns, x, f, jac, dx, dxs, xt, ft, lu, result, history } = this;
    const {
      stepTol,
      maxIterations,
      stallTol,
      lineSearch,
      throwOnFailure,
      retract,
      conditionCheck,
      maxCondition,
      what,
    } = this.options;
    // not `tolOverride ?? options.tol`: that tagged phi boxes a fresh HeapNumber on every solve
    let tol = this.options.tol;
    if (tolOverride !== undefined) tol = +tolOverride;
    if (!(tol >= 0)) throw new DomainError('NewtonSolver.solve: tolOverride', tol, 'must be ≥ 0');
    if (x0.length !== ns) throw new DimensionError('NewtonSolver.solve: x0', ns, x0.length);
    if (x0 !== x) for (let i = 0; i < ns; i++) x[i] = x0[i]!;
    this.lastCondition = Number.NaN;
    F(f, x);
    let r = normInf(f, n);
    if (!Number.isFinite(r)) throw new NonFiniteError(label(what, 'F(x0)'), firstNonFinite(f, n));
    history[0] = r;
    // ‖x‖∞ of the current iterate: the scale of the step test, and (after each update) the
    // iterate's finiteness check in the same pass
    let xNorm = normInf(x, ns);
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
      J(jac, x);
      if (n === 1) {
        // Scalar fast path: no LU for a 1×1 system (κ = 1 unless J = 0).
        const j0 = jac[0]!;
        if (!Number.isFinite(j0)) throw new NonFiniteError(label(what, 'J(x)'), 0);
        if (j0 === 0) throw this.singular(k, Number.POSITIVE_INFINITY, step);
        this.lastCondition = 1;
        dx[0] = -f[0]! / j0;
      } else {
        // DenseLU.factor checks the entries' finiteness (branch-free) before factoring; a
        // second scan here cost ≈ 5 % of a plate-ball step
        try {
          lu.factor(jac);
        } catch (error) {
          if (!(error instanceof NonFiniteError)) throw error;
          throw new NonFiniteError(label(what, 'J(x)'), firstNonFinite(jac, n * n));
        }
        if (lu.isSingular) {
          this.lastCondition = Number.POSITIVE_INFINITY;
          throw this.singular(k, Number.POSITIVE_INFINITY, step);
        }
        if (conditionCheck === 'estimate') {
          const cond = lu.conditionEstimate();
          this.lastCondition = cond;
          if (!(cond < maxCondition)) throw this.singular(k, cond, step);
        }
        for (let i = 0; i < n; i++) dx[i] = -f[i]!;
        lu.solve(dx, dx);
      }
      k++;
      const dxNorm = normInf(dx, n);
      if (!Number.isFinite(dxNorm)) {
        throw this.diverged(k, r, step, 'produced a non-finite step');
      }
      const smallStep = stepTol > 0 && dxNorm <= stepTol * Math.max(1, xNorm);
      if (!lineSearch || smallStep) {
        if (retract === undefined) for (let i = 0; i < n; i++) x[i] = x[i]! + dx[i]!;
        else retract(x, x, dx);
        stepNorm = dxNorm;
        xNorm = normInf(x, ns); // NaN or ∞ when an entry is not finite
        if (!Number.isFinite(xNorm)) {
          throw this.diverged(k, r, step, 'produced a non-finite iterate');
        }
        F(f, x);
        r = normInf(f, n);
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
      const phiNorm = finiteNorm2(f, n);
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
          const trial = finiteNorm2(ft, n);
          if (trial <= Math.sqrt(1 - 2 * ARMIJO_CONSTANT * lambda) * phiNorm) {
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
      x.set(xt);
      xNorm = normInf(x, ns);
      f.set(ft);
      stepNorm = lambda * dxNorm;
      r = normInf(f, n);
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

/** ‖v‖₂ of the first `len` entries, NaN when any is non-finite (`norm2` maps NaN entries to 0). */
function finiteNorm2(v: Float64Array, len: number): number {
  return allFinite(v, len) ? norm2(v, len) : Number.NaN;
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
