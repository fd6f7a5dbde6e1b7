/**
 * Measured convergence orders, the house way: step sizes `h_k = T/(n0·2^k)`, errors e_k, and the
 * least-squares slope of `log e` against `log h`, with errors at round-off level dropped.
 *
 * @module
 */
import { DimensionError, DomainError } from '../errors.js';

/** Options of {@link convergenceOrder}. */
export interface ConvergenceOrderOptions {
  /** Errors strictly below this are at round-off level and dropped. Default 1e-13. */
  readonly floor?: number;
  /** Fewest points that must remain after dropping. Default 3 (at least 2). */
  readonly minPoints?: number;
}

/** Result of {@link convergenceOrder}. */
export interface ConvergenceOrderResult {
  /** Least-squares slope p of `ln e = ln C + p·ln h`. */
  readonly order: number;
  /** Fitted `ln C` (natural logarithm), so `e ≈ exp(intercept)·h^order`. */
  readonly intercept: number;
  /** Indices (into the inputs) of the points used in the fit, ascending. */
  readonly used: number[];
  /** Root-mean-square residual of the fit in natural-log units (0 for an exact power law). */
  readonly residual: number;
}

/**
 * Least-squares fit of `ln eₖ = ln C + p·ln hₖ` over the points with `eₖ ≥ floor`:
 * `p = Σ (xₖ − x̄)(yₖ − ȳ) / Σ (xₖ − x̄)²`, `xₖ = ln hₖ`, `yₖ = ln eₖ`,
 * `ln C = ȳ − p·x̄`, `residual = √( (1/m) Σ (yₖ − ln C − p·xₖ)² )`.
 *
 * @throws {@link DimensionError} if `hs` and `errors` differ in length;
 *   {@link DomainError} for a non-positive or non-finite h, a negative or non-finite error
 *   (NaN included), a bad option, fewer than `minPoints` points above the floor, or all
 *   remaining h equal.
 *
 * @example
 * ```ts
 * const hs = [0.1, 0.05, 0.025, 0.0125];
 * const r = convergenceOrder(hs, hs.map((h) => 3 * h ** 4));
 * r.order; // 4 (to round-off)
 * Math.exp(r.intercept); // 3
 * ```
 */
export function convergenceOrder(
  hs: ArrayLike<number>,
  errors: ArrayLike<number>,
  options: ConvergenceOrderOptions = {},
): ConvergenceOrderResult {
  const floor = options.floor ?? 1e-13;
  const minPoints = options.minPoints ?? 3;
  if (!(floor >= 0 && Number.isFinite(floor))) {
    throw new DomainError('convergenceOrder: floor', floor, 'must be finite and ≥ 0');
  }
  if (!Number.isInteger(minPoints) || minPoints < 2) {
    throw new DomainError('convergenceOrder: minPoints', minPoints, 'must be an integer ≥ 2');
  }
  if (hs.length !== errors.length) {
    throw new DimensionError('convergenceOrder: errors length', hs.length, errors.length);
  }
  const used: number[] = [];
  for (let k = 0; k < hs.length; k++) {
    const h = hs[k]!;
    const e = errors[k]!;
    if (!(h > 0 && Number.isFinite(h))) {
      throw new DomainError(`convergenceOrder: hs[${k}]`, h, 'must be positive and finite');
    }
    if (!(e >= 0 && Number.isFinite(e))) {
      throw new DomainError(`convergenceOrder: errors[${k}]`, e, 'must be finite and ≥ 0');
    }
    if (e >= floor && e > 0) used.push(k);
  }
  const m = used.length;
  if (m < minPoints) {
    throw new DomainError(
      'convergenceOrder: points above the floor',
      m,
      `need at least ${minPoints} errors ≥ ${floor}`,
    );
  }
  let xbar = 0;
  let ybar = 0;
  for (const k of used) {
    xbar += Math.log(hs[k]!);
    ybar += Math.log(errors[k]!);
  }
  xbar /= m;
  ybar /= m;
  let sxx = 0;
  let sxy = 0;
  for (const k of used) {
    const dx = Math.log(hs[k]!) - xbar;
    sxx += dx * dx;
    sxy += dx * (Math.log(errors[k]!) - ybar);
  }
  if (!(sxx > 0)) {
    throw new DomainError(
      'convergenceOrder: hs',
      'all equal',
      'need at least two distinct step sizes',
    );
  }
  const order = sxy / sxx;
  const intercept = ybar - order * xbar;
  let ss = 0;
  for (const k of used) {
    const r = Math.log(errors[k]!) - intercept - order * Math.log(hs[k]!);
    ss += r * r;
  }
  return { order, intercept, used, residual: Math.sqrt(ss / m) };
}

/** Result of {@link refinementLevels}: level k has `steps[k] = n0·2^k` steps of size `h[k]`. */
export interface RefinementLevels {
  /** Step sizes `h_k = T/(n0·2^k)`. */
  readonly h: number[];
  /** Step counts `n0·2^k`. */
  readonly steps: number[];
}

/**
 * The refinement ladder of a convergence study: `h_k = T/(n0·2^k)` and `steps_k = n0·2^k` for
 * k = 0 … levels − 1.
 *
 * @throws {@link DomainError} for a non-positive or non-finite T, a non-integer or non-positive
 *   n0 or levels, or step counts beyond 2^53.
 *
 * @example
 * ```ts
 * refinementLevels(1, 10, 3); // { h: [0.1, 0.05, 0.025], steps: [10, 20, 40] }
 * ```
 */
export function refinementLevels(T: number, n0: number, levels: number): RefinementLevels {
  if (!(T > 0 && Number.isFinite(T))) {
    throw new DomainError('refinementLevels: T', T, 'must be positive and finite');
  }
  if (!Number.isSafeInteger(n0) || n0 < 1) {
    throw new DomainError('refinementLevels: n0', n0, 'must be a positive integer');
  }
  if (!Number.isSafeInteger(levels) || levels < 1) {
    throw new DomainError('refinementLevels: levels', levels, 'must be a positive integer');
  }
  const h: number[] = [];
  const steps: number[] = [];
  for (let k = 0; k < levels; k++) {
    const s = n0 * 2 ** k;
    if (!Number.isSafeInteger(s)) {
      throw new DomainError('refinementLevels: steps', s, 'must stay below 2^53');
    }
    steps.push(s);
    h.push(T / s);
  }
  return { h, steps };
}
