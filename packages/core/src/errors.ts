/**
 * The error registry of geomech: every error class of the libraries is defined here, once, and
 * carries the data a caller needs to react (never only a message) plus a stable `_tag` (equal to its
 * `name`) for checks that must work across bundles or realms, where `instanceof` fails:
 * `hasErrorTag(e, 'NewtonDivergedError')`. Packages re-export the classes they throw; none defines
 * its own. {@link GEOMECH_ERROR_TAGS} lists every tag.
 *
 * @module
 */

/** The tag of every error class of geomech (each defined once, in this module). */
export type GeomechErrorTag =
  | 'GeomechError'
  | 'DimensionError'
  | 'DomainError'
  | 'ResourceLimitError'
  | 'SingularMatrixError'
  | 'SingularJacobianError'
  | 'NewtonDivergedError'
  | 'NonFiniteError'
  | 'StepSizeUnderflowError'
  | 'MaxStepsExceededError'
  | 'RegularityError'
  | 'NonRegularSystemError'
  | 'NotComposableError'
  | 'EvaluationDomainError'
  | 'ComputeBudgetError'
  | 'SymbolicValueError';

/**
 * Every {@link GeomechErrorTag}, in declaration order.
 *
 * @example
 * ```ts
 * GEOMECH_ERROR_TAGS.includes('DimensionError'); // true
 * ```
 */
export const GEOMECH_ERROR_TAGS: readonly GeomechErrorTag[] = Object.freeze([
  'GeomechError',
  'DimensionError',
  'DomainError',
  'ResourceLimitError',
  'SingularMatrixError',
  'SingularJacobianError',
  'NewtonDivergedError',
  'NonFiniteError',
  'StepSizeUnderflowError',
  'MaxStepsExceededError',
  'RegularityError',
  'NonRegularSystemError',
  'NotComposableError',
  'EvaluationDomainError',
  'ComputeBudgetError',
  'SymbolicValueError',
]);

/** Base class of every error thrown by the geomech libraries. */
export class GeomechError extends Error {
  override name: GeomechErrorTag = 'GeomechError';
  /** The stable tag of the class (equal to `name`). */
  get _tag(): GeomechErrorTag {
    return this.name;
  }
}

/**
 * True when `e` is a geomech error with the given tag (or any geomech error when `tag` is omitted),
 * also for errors from another copy of the library, where `instanceof` fails.
 *
 * @example
 * ```ts
 * hasErrorTag(new DomainError('h', -1, 'must be > 0'), 'DomainError'); // true
 * hasErrorTag(new Error('x'));                                          // false
 * ```
 */
export function hasErrorTag(e: unknown, tag?: GeomechErrorTag): e is GeomechError {
  if (typeof e !== 'object' || e === null) return false;
  const t = (e as { _tag?: unknown })._tag;
  if (typeof t !== 'string' || !(GEOMECH_ERROR_TAGS as readonly string[]).includes(t)) return false;
  return tag === undefined || t === tag;
}

/** An argument has the wrong size or shape. */
export class DimensionError extends GeomechError {
  override name: GeomechErrorTag = 'DimensionError';
  constructor(
    /** What was being checked, e.g. `"lu: matrix"`. */
    readonly what: string,
    readonly expected: number | string,
    readonly got: number | string,
  ) {
    super(`${what}: expected ${expected}, got ${got}`);
  }
}

/** An argument is outside its domain (negative step, NaN parameter, empty list, ...). */
export class DomainError extends GeomechError {
  override name: GeomechErrorTag = 'DomainError';
  constructor(
    readonly what: string,
    readonly value: unknown,
    readonly requirement: string,
  ) {
    super(`${what}: ${requirement} (got ${String(value)})`);
  }
}

/** A matrix is singular to working precision. */
export class SingularMatrixError extends GeomechError {
  override name: GeomechErrorTag = 'SingularMatrixError';
  constructor(
    readonly what: string,
    /** Column (0-based) where elimination found no usable pivot. */
    readonly column: number,
    /** Estimate of the 1-norm condition number, `Infinity` when exactly singular. */
    readonly conditionEstimate = Number.POSITIVE_INFINITY,
  ) {
    super(`${what}: matrix is singular to working precision (column ${column})`);
  }
}

/** The Jacobian of a Newton iteration is singular; `step` names the integrator step if any. */
export class SingularJacobianError extends GeomechError {
  override name: GeomechErrorTag = 'SingularJacobianError';
  constructor(
    readonly iteration: number,
    readonly conditionEstimate = Number.POSITIVE_INFINITY,
    readonly step?: number,
  ) {
    super(
      `singular Jacobian at Newton iteration ${iteration}${step === undefined ? '' : ` of step ${step}`}` +
        (Number.isFinite(conditionEstimate)
          ? ` (condition estimate ${conditionEstimate.toExponential(2)})`
          : ''),
    );
  }
}

/**
 * Newton's method failed to converge, or produced a non-finite iterate. `what` names the solve
 * when it is not the plain one (e.g. `'forward step'` of a constrained system), `history` holds
 * ‖F‖∞ at the guess and after each iteration when the solver recorded it.
 */
export class NewtonDivergedError extends GeomechError {
  override name: GeomechErrorTag = 'NewtonDivergedError';
  constructor(
    readonly iterations: number,
    readonly residualNorm: number,
    readonly step?: number,
    readonly reason = 'did not converge',
    readonly what?: string,
    readonly history?: readonly number[],
  ) {
    super(
      `${what === undefined ? 'Newton' : `${what}: Newton`} ${reason} after ${iterations} iterations ` +
        `(residual ${residualNorm.toExponential(3)})` +
        (step === undefined ? '' : ` at step ${step}`),
    );
  }
}

/** A function returned NaN or an infinity where a finite number is required. */
export class NonFiniteError extends GeomechError {
  override name: GeomechErrorTag = 'NonFiniteError';
  constructor(
    readonly what: string,
    readonly index?: number,
  ) {
    super(`${what}: non-finite value${index === undefined ? '' : ` at index ${index}`}`);
  }
}

/** An adaptive ODE integration could not meet its tolerance with a representable step. */
export class StepSizeUnderflowError extends GeomechError {
  override name: GeomechErrorTag = 'StepSizeUnderflowError';
  constructor(
    readonly t: number,
    readonly h: number,
  ) {
    super(`step size underflow at t = ${t} (h = ${h})`);
  }
}

/** An adaptive integration used up its step budget before reaching the end of the interval. */
export class MaxStepsExceededError extends GeomechError {
  override name: GeomechErrorTag = 'MaxStepsExceededError';
  constructor(
    /** Time reached when the budget ran out. */
    readonly t: number,
    /** Step size about to be tried. */
    readonly h: number,
    /** The budget: maximum number of attempted steps. */
    readonly maxSteps: number,
  ) {
    super(`step budget of ${maxSteps} attempted steps exhausted at t = ${t} (h = ${h})`);
  }
}

/**
 * A size a caller controls (steps, samples, stages, links, nodes of an expression graph, bytes of
 * output) exceeds a stated limit; raised before any work is done.
 *
 * @example
 * ```ts
 * new ResourceLimitError('integrate: recorded samples', 1e8, 5e9).message;
 * // 'integrate: recorded samples: 5000000000 exceeds the limit 100000000'
 * ```
 */
export class ResourceLimitError extends GeomechError {
  override name: GeomechErrorTag = 'ResourceLimitError';
  constructor(
    readonly what: string,
    readonly limit: number,
    readonly requested: number,
    /** Unit of `limit` and `requested` for the message, e.g. `'bytes'`. */
    readonly unit = '',
  ) {
    const u = unit === '' ? '' : ` ${unit}`;
    super(`${what}: ${requested}${u} exceeds the limit ${limit}${u}`);
  }
}

/**
 * A step's regularity factor vanished, so the step is not defined (e.g. the conformal factor
 * σ = 1 + D_z L_d of a discrete contact Lagrangian, spec 004 §5.4: F⁻L_d = −D1 L_d/σ (40)).
 */
export class RegularityError extends GeomechError {
  override name: GeomechErrorTag = 'RegularityError';
  constructor(
    /** The step (index k of the state it leaves) where the factor vanished. */
    readonly step: number,
    /** The offending factor, e.g. σ = 1 + Dz Ld. */
    readonly sigma: number,
    /** The relative threshold it fell below. */
    readonly threshold: number,
    message?: string,
  ) {
    super(
      message ??
        `singular discrete Lagrangian at step ${step}: 1 + Dz Ld = ${sigma} (|σ| < ${threshold}·max(1, |Dz Ld|)); reduce h`,
    );
  }
}

/**
 * Why a system is not regular:
 * - `singular-bordered-jacobian`: the bordered Jacobian of a constrained step is singular (spec 003
 *   Def 3.5, §12 item 6); `direction`, `sigmaMin`, `sigmaMax`, `conditionEstimate` and `iteration`
 *   are set;
 * - `rank-deficient-constraints`: rank A(q) < m, the constraint one-forms are dependent (spec 002
 *   §3.6, §7 item 5); `rank` and `expected` are set;
 * - `singular-constrained-mass`: GᵀMG is singular, L is degenerate on Δ and the DAE has hidden
 *   (secondary) constraints;
 * - `undetermined-dynamics`: after the constraint algorithm some velocity directions are still
 *   free on the constraint subspace (a gauge freedom).
 */
export type NonRegularDefect =
  | 'singular-bordered-jacobian'
  | 'rank-deficient-constraints'
  | 'singular-constrained-mass'
  | 'undetermined-dynamics';

/** The numbers behind a {@link NonRegularSystemError}; which are set depends on the defect. */
export interface NonRegularDetails {
  /** A sentence saying what was found. */
  readonly detail?: string;
  /** `'forward'` or `'backward'` for the steps of a constrained groupoid system. */
  readonly direction?: 'forward' | 'backward';
  /** Smallest and largest singular values of the singular matrix. */
  readonly sigmaMin?: number;
  readonly sigmaMax?: number;
  /** 1-norm condition estimate from the LU factorization (∞ at an exact zero pivot). */
  readonly conditionEstimate?: number;
  /** Newton iteration at which it was met. */
  readonly iteration?: number;
  /** Integrator step at which it was met. */
  readonly step?: number;
  /** The numerical rank found, and the rank regularity requires. */
  readonly rank?: number;
  readonly expected?: number;
}

/**
 * The system is not regular where a solver needs it to be; `defect` names why, the other fields
 * carry the numbers (see {@link NonRegularDefect}).
 *
 * @example
 * ```ts
 * const e = new NonRegularSystemError('rank-deficient-constraints', { rank: 1, expected: 2, detail: 'A has rank 1' });
 * e.defect; // 'rank-deficient-constraints'
 * ```
 */
export class NonRegularSystemError extends GeomechError {
  override name: GeomechErrorTag = 'NonRegularSystemError';
  readonly detail: string | undefined;
  readonly direction: 'forward' | 'backward' | undefined;
  readonly sigmaMin: number;
  readonly sigmaMax: number;
  readonly conditionEstimate: number;
  readonly iteration: number | undefined;
  readonly step: number | undefined;
  readonly rank: number | undefined;
  readonly expected: number | undefined;
  constructor(
    readonly defect: NonRegularDefect,
    details: NonRegularDetails = {},
  ) {
    super(nonRegularMessage(defect, details));
    this.detail = details.detail;
    this.direction = details.direction;
    this.sigmaMin = details.sigmaMin ?? Number.NaN;
    this.sigmaMax = details.sigmaMax ?? Number.NaN;
    this.conditionEstimate = details.conditionEstimate ?? Number.NaN;
    this.iteration = details.iteration;
    this.step = details.step;
    this.rank = details.rank;
    this.expected = details.expected;
  }
}

function nonRegularMessage(defect: NonRegularDefect, d: NonRegularDetails): string {
  if (defect === 'singular-bordered-jacobian') {
    const at =
      (d.iteration === undefined ? '' : ` at Newton iteration ${d.iteration}`) +
      (d.step === undefined ? '' : ` of step ${d.step}`);
    const nums =
      d.sigmaMin === undefined
        ? ''
        : ` (sigma_min = ${d.sigmaMin.toExponential(3)}, sigma_max = ${(d.sigmaMax ?? Number.NaN).toExponential(3)}` +
          `, condition estimate ${(d.conditionEstimate ?? Number.NaN).toExponential(2)})`;
    return `non-regular constrained system: ${d.direction ?? ''}${d.direction === undefined ? '' : ' '}bordered Jacobian is singular${at}${nums}`;
  }
  return `non-regular implicit Lagrangian system (${defect}): ${d.detail ?? ''}`.trimEnd();
}

/** Two groupoid arrows whose product was asked for are not composable: β(g) ≠ α(h). */
export class NotComposableError extends GeomechError {
  override name: GeomechErrorTag = 'NotComposableError';
  constructor(
    /** max |β(g) − α(h)| */
    readonly gap: number,
  ) {
    super(`arrows are not composable: |target(g) - source(h)| = ${gap}`);
  }
}

/**
 * A problem's function was evaluated outside its domain (a trial point beyond the branch of a
 * logarithm or the chart of a retraction). Optimal-control problems throw it from `evaluate`; the
 * interior-point solver then treats the point like one with NaN values and shortens the step.
 */
export class EvaluationDomainError extends GeomechError {
  override name: GeomechErrorTag = 'EvaluationDomainError';
  constructor(
    /** Stage whose evaluation failed. */
    readonly stage: number,
    /** Why the point is outside the domain. */
    readonly reason: string,
  ) {
    super(`evaluation outside the domain at stage ${stage}: ${reason}`);
  }
}
