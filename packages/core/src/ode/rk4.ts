/**
 * The classical fourth-order Runge–Kutta method for first-order systems `y' = f(t, y)`, used as a
 * fixed-step comparator and reference stepper.
 *
 * Butcher tableau (Kutta 1901):
 * ```
 *   0  |
 *  1/2 | 1/2
 *  1/2 |  0   1/2
 *   1  |  0    0    1
 * -----+--------------------
 *      | 1/6  1/3  1/3  1/6
 * ```
 *
 * Two layers, as everywhere in core:
 * - {@link Rk4Stepper}, which owns its four stage vectors and advances a state in place without
 *   allocating;
 * - {@link integrateRk4}, the one-line entry point returning an {@link Rk4Solution} with flat
 *   `Float64Array` storage.
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';

/**
 * Right-hand side of a first-order system `y' = f(t, y)`: writes `f(t, y)` into `out`
 * (length n) and must not keep references to `out` or `y`, nor modify `y`.
 *
 * @example
 * ```ts
 * // harmonic oscillator q' = p, p' = −q
 * const f: OdeRhs = (out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; };
 * ```
 */
export type OdeRhs = (out: Float64Array, t: number, y: Float64Array) => void;

/**
 * Traits of a one-step method (a *method* in the house vocabulary): a small frozen value.
 * An unknown trait is `undefined`, never a guess.
 */
export interface OdeMethodTraits {
  readonly name: string;
  /** Classical order of the propagated solution. */
  readonly order: number;
  /** Order of the embedded error estimator, for embedded pairs. */
  readonly embeddedOrder?: number;
  readonly isExplicit: boolean;
  readonly isSymplectic: boolean | undefined;
  readonly isSymmetric: boolean | undefined;
}

/**
 * The classical RK4 method: order 4, explicit, neither symplectic nor symmetric.
 *
 * @example
 * ```ts
 * rk4Method.order; // 4
 * ```
 */
export const rk4Method: OdeMethodTraits = Object.freeze({
  name: 'RK4',
  order: 4,
  isExplicit: true,
  isSymplectic: false,
  isSymmetric: false,
});

/**
 * A sampled trajectory with flat storage: `count` samples of an n-dimensional state,
 * times in `t` (length `count`) and states row by row in `y` (`count × n`, sample k at
 * `y[k*n .. k*n + n)`).
 */
export interface OdeSolution {
  /** State dimension. */
  readonly n: number;
  /** Number of stored samples. */
  readonly count: number;
  /** Sample times, length `count`. */
  readonly t: Float64Array;
  /** Sample states, row-major `count × n`. */
  readonly y: Float64Array;
  /** View (no copy) of sample k's state, `y.subarray(k*n, k*n + n)`. */
  state(k: number): Float64Array;
}

/**
 * Fixed-step classical RK4 stepper for an n-dimensional system. Owns its stage vectors and a
 * scratch state; {@link Rk4Stepper.step} allocates nothing.
 *
 * One step of size h from (t, y):
 * `k1 = f(t, y)`, `k2 = f(t + h/2, y + h/2·k1)`, `k3 = f(t + h/2, y + h/2·k2)`,
 * `k4 = f(t + h, y + h·k3)`, `y ← y + h/6·(k1 + 2k2 + 2k3 + k4)`.
 * Local error O(h⁵), global error O(h⁴).
 *
 * @example
 * ```ts
 * const s = new Rk4Stepper(2, (out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; });
 * const y = Float64Array.of(1, 0);
 * for (let k = 0; k < 100; k++) s.step(y, k * 0.01, 0.01); // y ≈ (cos 1, −sin 1)
 * ```
 */
export class Rk4Stepper {
  /** Number of right-hand-side evaluations made so far. */
  fEvals = 0;
  private readonly k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly ytmp: Float64Array;

  constructor(
    /** State dimension. */
    readonly n: number,
    readonly f: OdeRhs,
  ) {
    if (!Number.isInteger(n) || n < 1) {
      throw new DomainError('Rk4Stepper: dimension n', n, 'must be a positive integer');
    }
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.k4 = new Float64Array(n);
    this.ytmp = new Float64Array(n);
  }

  /**
   * Advances `y` (length n) in place by one RK4 step of size `h` (negative h steps backward) and
   * returns it. Throws {@link NonFiniteError} if the new state is not finite (then `y` is left
   * unchanged).
   */
  step(y: Float64Array, t: number, h: number): Float64Array {
    const { n, f, k1, k2, k3, k4, ytmp } = this;
    if (y.length !== n) throw new DimensionError('Rk4Stepper.step: y length', n, y.length);
    const h2 = 0.5 * h;
    f(k1, t, y);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h2 * k1[i]!;
    f(k2, t + h2, ytmp);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h2 * k2[i]!;
    f(k3, t + h2, ytmp);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h * k3[i]!;
    f(k4, t + h, ytmp);
    this.fEvals += 4;
    const h6 = h / 6;
    for (let i = 0; i < n; i++) {
      const v = y[i]! + h6 * (k1[i]! + 2 * (k2[i]! + k3[i]!) + k4[i]!);
      if (!Number.isFinite(v)) {
        throw new NonFiniteError(`Rk4Stepper.step: new state at t = ${t}, h = ${h}`, i);
      }
      ytmp[i] = v;
    }
    y.set(ytmp);
    return y;
  }
}

/** Options of {@link integrateRk4}. */
export interface Rk4Options {
  /** Store every `every`-th step (the initial and the final state are always stored). Default 1. */
  readonly every?: number;
}

/**
 * Result of {@link integrateRk4}: flat samples plus the step data.
 */
export class Rk4Solution implements OdeSolution {
  constructor(
    readonly n: number,
    readonly count: number,
    readonly t: Float64Array,
    readonly y: Float64Array,
    /** Number of RK4 steps taken. */
    readonly steps: number,
    /** Step size `(tEnd − t0)/steps`. */
    readonly h: number,
    /** Right-hand-side evaluations (4 per step). */
    readonly fEvals: number,
  ) {}

  /** View (no copy) of sample k's state. Throws {@link DomainError} for k outside [0, count). */
  state(k: number): Float64Array {
    if (!Number.isInteger(k) || k < 0 || k >= this.count) {
      throw new DomainError(
        'Rk4Solution.state: index',
        k,
        `must be an integer in [0, ${this.count})`,
      );
    }
    return this.y.subarray(k * this.n, (k + 1) * this.n);
  }
}

/**
 * Integrates `y' = f(t, y)`, `y(t0) = y0` from t0 to tEnd with `steps` equal RK4 steps of size
 * `h = (tEnd − t0)/steps` (tEnd < t0 integrates backward). Step k ends at `t0 + (k+1)·h`
 * computed directly (no accumulated round-off in t); the last sample is at exactly `tEnd`.
 *
 * @throws {@link DomainError} for non-finite times, a non-integer or non-positive `steps` or
 *   `every`, or an empty `y0`; {@link NonFiniteError} for a non-finite `y0` or state.
 *
 * @example
 * ```ts
 * const sol = integrateRk4((out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; },
 *   Float64Array.of(1, 0), 0, Math.PI, 200, { every: 10 });
 * sol.count;     // 21
 * sol.state(20); // ≈ (−1, 0)
 * ```
 */
export function integrateRk4(
  f: OdeRhs,
  y0: ArrayLike<number>,
  t0: number,
  tEnd: number,
  steps: number,
  options: Rk4Options = {},
): Rk4Solution {
  const every = options.every ?? 1;
  if (!Number.isFinite(t0)) throw new DomainError('integrateRk4: t0', t0, 'must be finite');
  if (!Number.isFinite(tEnd)) throw new DomainError('integrateRk4: tEnd', tEnd, 'must be finite');
  if (!Number.isSafeInteger(steps) || steps < 1) {
    throw new DomainError('integrateRk4: steps', steps, 'must be a positive integer');
  }
  if (!Number.isSafeInteger(every) || every < 1) {
    throw new DomainError('integrateRk4: every', every, 'must be a positive integer');
  }
  const n = y0.length;
  if (n < 1) throw new DomainError('integrateRk4: y0 length', n, 'must be at least 1');
  const y = Float64Array.from(y0);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(y[i]!)) throw new NonFiniteError('integrateRk4: y0', i);
  }
  const h = (tEnd - t0) / steps;
  const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
  const ts = new Float64Array(count);
  const ys = new Float64Array(count * n);
  ts[0] = t0;
  ys.set(y, 0);
  let stored = 1;
  const stepper = new Rk4Stepper(n, f);
  for (let k = 0; k < steps; k++) {
    stepper.step(y, t0 + k * h, h);
    const done = k + 1;
    if (done % every === 0 || done === steps) {
      ts[stored] = done === steps ? tEnd : t0 + done * h;
      ys.set(y, stored * n);
      stored++;
    }
  }
  return new Rk4Solution(n, count, ts, ys, steps, h, stepper.fEvals);
}
