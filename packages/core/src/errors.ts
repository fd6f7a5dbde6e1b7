/**
 * Typed errors of geomech. Every library error extends {@link GeomechError}, carries the data
 * a caller needs to react (never only a message), and has a stable `name` for `instanceof`-free
 * checks across bundles.
 *
 * @module
 */

/** Base class of every error thrown by the geomech libraries. */
export class GeomechError extends Error {
  override name = 'GeomechError';
}

/** An argument has the wrong size or shape. */
export class DimensionError extends GeomechError {
  override name = 'DimensionError';
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
  override name = 'DomainError';
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
  override name = 'SingularMatrixError';
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
  override name = 'SingularJacobianError';
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

/** Newton's method failed to converge, or produced a non-finite iterate. */
export class NewtonDivergedError extends GeomechError {
  override name = 'NewtonDivergedError';
  constructor(
    readonly iterations: number,
    readonly residualNorm: number,
    readonly step?: number,
    readonly reason = 'did not converge',
  ) {
    super(
      `Newton ${reason} after ${iterations} iterations (residual ${residualNorm.toExponential(3)})` +
        (step === undefined ? '' : ` at step ${step}`),
    );
  }
}

/** A function returned NaN or an infinity where a finite number is required. */
export class NonFiniteError extends GeomechError {
  override name = 'NonFiniteError';
  constructor(
    readonly what: string,
    readonly index?: number,
  ) {
    super(`${what}: non-finite value${index === undefined ? '' : ` at index ${index}`}`);
  }
}

/** An adaptive ODE integration could not meet its tolerance with a representable step. */
export class StepSizeUnderflowError extends GeomechError {
  override name = 'StepSizeUnderflowError';
  constructor(
    readonly t: number,
    readonly h: number,
  ) {
    super(`step size underflow at t = ${t} (h = ${h})`);
  }
}

/** An adaptive integration used up its step budget before reaching the end of the interval. */
export class MaxStepsExceededError extends GeomechError {
  override name = 'MaxStepsExceededError';
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
 * A problem's function was evaluated outside its domain (a trial point beyond the branch of a
 * logarithm or the chart of a retraction). Optimal-control problems throw it from `evaluate`; the
 * interior-point solver then treats the point like one with NaN values and shortens the step.
 */
export class EvaluationDomainError extends GeomechError {
  override name = 'EvaluationDomainError';
  constructor(
    /** Stage whose evaluation failed. */
    readonly stage: number,
    /** Why the point is outside the domain. */
    readonly reason: string,
  ) {
    super(`evaluation outside the domain at stage ${stage}: ${reason}`);
  }
}
