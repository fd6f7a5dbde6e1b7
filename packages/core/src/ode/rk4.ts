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
 * - {@link Rk4Stepper}, a core {@link Stepper} that owns its four stage vectors and advances a
 *   state in place without allocating;
 * - {@link integrateRk4}, the one-line entry point: core's `integrate` over the stepper, returning
 *   the one {@link Solution} with the series `y`.
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';
import { type IntegrateRecordingOptions, integrate, type Stepper } from '../integrate/integrate.js';
import { extendSolution, type SeriesSpec, type Solution } from '../integrate/solution.js';
import { type MethodTraits, methodTraits } from '../integrate/traits.js';

/**
 * Right-hand side of a first-order system `y' = f(t, y, u)`: writes `f(t, y, u)` into `out`
 * (length n) and must not keep references to `out`, `y` or `u`, nor modify `y`. `u` is the input
 * of the current step (held constant over the step; empty for an unforced system).
 *
 * @example
 * ```ts
 * // harmonic oscillator q' = p, p' = −q
 * const f: OdeRhs = (out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; };
 * ```
 */
export type OdeRhs = (out: Float64Array, t: number, y: Float64Array, u?: Float64Array) => void;

/**
 * The classical RK4 method: order 4, explicit, neither symplectic nor symmetric.
 *
 * @example
 * ```ts
 * rk4Method.order; // 4
 * rk4Method.name;  // 'rk4'
 * ```
 */
export const rk4Method: MethodTraits = methodTraits({
  name: 'rk4',
  description: 'classical fourth-order Runge–Kutta (Kutta 1901)',
  order: 4,
  isExplicit: true,
  isSymplectic: false,
  isSymmetric: false,
  isVariational: false,
});

/**
 * Fixed-step classical RK4 stepper for an n-dimensional system (a core {@link Stepper} with the
 * series `y`). Owns its stage vectors and a scratch state; {@link Rk4Stepper.step} allocates
 * nothing.
 *
 * One step of size h from (t, y) with input u held over the step:
 * `k1 = f(t, y)`, `k2 = f(t + h/2, y + h/2·k1)`, `k3 = f(t + h/2, y + h/2·k2)`,
 * `k4 = f(t + h, y + h·k3)`, `y ← y + h/6·(k1 + 2k2 + 2k3 + k4)`.
 * Local error O(h⁵), global error O(h⁴).
 *
 * @example
 * ```ts
 * const s = new Rk4Stepper(2, (out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; });
 * const y = Float64Array.of(1, 0);
 * for (let k = 0; k < 100; k++) s.step(y, k, 0.01); // y ≈ (cos 1, −sin 1)
 * ```
 */
export class Rk4Stepper implements Stepper<'y'> {
  readonly method = rk4Method;
  readonly series: readonly SeriesSpec<'y'>[];
  readonly lastResidual = 0;
  /** Number of right-hand-side evaluations made so far. */
  fEvals = 0;
  /** Initial time of the run (the last {@link reset}'s t0; 0 before any): step k leaves t0 + k·h. */
  private t0 = 0;
  private readonly k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly ytmp: Float64Array;

  constructor(
    /** State dimension. */
    readonly n: number,
    readonly f: OdeRhs,
    /** Length of the input u passed to `f` (0: unforced). */
    readonly inputSize = 0,
  ) {
    if (!Number.isInteger(n) || n < 1) {
      throw new DomainError('Rk4Stepper: dimension n', n, 'must be a positive integer');
    }
    if (!Number.isInteger(inputSize) || inputSize < 0) {
      throw new DomainError('Rk4Stepper: inputSize', inputSize, 'must be an integer >= 0');
    }
    this.series = Object.freeze([{ name: 'y', width: n }]);
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.k4 = new Float64Array(n);
    this.ytmp = new Float64Array(n);
  }

  /** The state size (= n). */
  get stateSize(): number {
    return this.n;
  }

  /** Called by core's `integrate` before the first step: keeps t0 (step k leaves t0 + k·h). */
  reset(_y: Float64Array, t0: number): void {
    this.t0 = t0;
  }

  /**
   * Advances `y` (length n) in place by RK4 step k of size `h` (negative h steps backward) with
   * input `u`, from t = t0 + k·h (t0 of the last {@link reset}, 0 before any). Returns 0 (no Newton
   * iterations). Throws {@link NonFiniteError} if the new state is not finite (then `y` is left
   * unchanged).
   */
  step(y: Float64Array, k: number, h: number, u: Float64Array = EMPTY): number {
    const { n, f, k1, k2, k3, k4, ytmp } = this;
    const t = this.t0 + k * h;
    if (y.length !== n) throw new DimensionError('Rk4Stepper.step: y length', n, y.length);
    const h2 = 0.5 * h;
    f(k1, t, y, u);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h2 * k1[i]!;
    f(k2, t + h2, ytmp, u);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h2 * k2[i]!;
    f(k3, t + h2, ytmp, u);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h * k3[i]!;
    f(k4, t + h, ytmp, u);
    this.fEvals += 4;
    const h6 = h / 6;
    for (let i = 0; i < n; i++) {
      const v = y[i]! + h6 * (k1[i]! + 2 * (k2[i]! + k3[i]!) + k4[i]!);
      if (!Number.isFinite(v)) {
        throw new NonFiniteError(`Rk4Stepper.step: new state at step ${k}, t = ${t}, h = ${h}`, i);
      }
      ytmp[i] = v;
    }
    y.set(ytmp);
    return 0;
  }

  /** Records the state itself as the series `y`. */
  record(out: Float64Array, y: Float64Array): void {
    out.set(y);
  }
}

const EMPTY = new Float64Array(0);

/** Options of {@link integrateRk4}: `inputSize` and {@link integrate}'s `every`, `inputs`, `onProgress`. */
export interface Rk4Options
  extends Pick<IntegrateRecordingOptions, 'every' | 'inputs' | 'onProgress'> {
  /** Length of an input (required with `inputs`). Default 0. */
  readonly inputSize?: number;
}

/**
 * Integrates `y' = f(t, y)`, `y(t0) = y0` from t0 to tEnd with `steps` equal RK4 steps of size
 * `h = (tEnd − t0)/steps` (tEnd < t0 integrates backward). Step k leaves `t0 + k·h` computed
 * directly (no accumulated round-off in t); the last sample is at exactly `tEnd`. The solution's
 * `stats.fEvals` counts the right-hand-side evaluations (4 per step).
 *
 * @throws {@link DomainError} for non-finite times, a non-integer or non-positive `steps` or
 *   `every`, or an empty `y0`; {@link NonFiniteError} for a non-finite `y0` or state.
 *
 * @example
 * ```ts
 * const sol = integrateRk4((out, _t, y) => { out[0] = y[1]!; out[1] = -y[0]!; },
 *   Float64Array.of(1, 0), 0, Math.PI, 200, { every: 10 });
 * sol.count;            // 21
 * sol.sample('y', 20);  // ≈ (−1, 0)
 * ```
 */
export function integrateRk4(
  f: OdeRhs,
  y0: ArrayLike<number>,
  t0: number,
  tEnd: number,
  steps: number,
  options: Rk4Options = {},
): Solution<'y'> {
  if (!Number.isFinite(t0)) throw new DomainError('integrateRk4: t0', t0, 'must be finite');
  if (!Number.isFinite(tEnd)) throw new DomainError('integrateRk4: tEnd', tEnd, 'must be finite');
  if (!Number.isSafeInteger(steps) || steps < 1) {
    throw new DomainError('integrateRk4: steps', steps, 'must be a positive integer');
  }
  const n = y0.length;
  if (n < 1) throw new DomainError('integrateRk4: y0 length', n, 'must be at least 1');
  const stepper = new Rk4Stepper(n, f, options.inputSize ?? 0);
  const sol = integrate(stepper, y0, {
    t0,
    tEnd,
    steps,
    ...(options.every === undefined ? {} : { every: options.every }),
    ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return extendSolution(sol, { stats: { ...sol.stats, fEvals: stepper.fEvals } });
}
