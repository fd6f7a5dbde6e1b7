/**
 * Adaptive Dormand–Prince 5(4) for `y' = f(t, y)`, after Hairer's `DOPRI5` (Hairer, Nørsett and
 * Wanner, *Solving Ordinary Differential Equations I*, 2nd ed., §II.4–II.6):
 *
 * - the 7-stage pair with the FSAL property (the last stage of an accepted step is the first stage
 *   of the next), propagating the 5th-order solution (local extrapolation);
 * - Hairer's error norm `err = √( (1/n) Σᵢ (ĕᵢ / skᵢ)² )`, `skᵢ = atolᵢ + rtolᵢ·max(|y₀ᵢ|, |y₁ᵢ|)`,
 *   with `ĕ = h·Σⱼ eⱼ kⱼ` the difference between the 5th- and 4th-order solutions (II.4.11);
 * - PI step-size control (II.4.13 with Gustafsson's stabilisation, II.4.18 ff.):
 *   `h_new = h · clamp(safety · err^(−α) · errₒₗ𝒹^β, facmin, facmax)`, `α = 1/5 − 0.75β`,
 *   default β = 0.04, safety 0.9, facmin 0.2, facmax 10; after a rejection the step may not grow;
 * - the starting-step heuristic `hinit` (II.4.14);
 * - the 4th-order continuous extension (dense output, II.6.12 ff. with Hairer's d-coefficients),
 *   so the solution can be evaluated at any time of the interval.
 *
 * Layers: {@link Dopri5Stepper} (stages and one step, allocation-free), {@link Dopri5Integrator}
 * (owns a stepper and the control loop) and the entry point {@link integrateDopri5}, returning a
 * {@link Dopri5Solution}.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  MaxStepsExceededError,
  NonFiniteError,
  StepSizeUnderflowError,
} from '../errors.js';
import {
  extendSolution,
  type IntegrationStats,
  Recorder,
  type Solution,
} from '../integrate/solution.js';
import { type MethodTraits, methodTraits } from '../integrate/traits.js';
import type { OdeRhs } from './rk4.js';

// Dormand–Prince 5(4) tableau (Hairer–Nørsett–Wanner, Table II.5.2).
const C2 = 1 / 5;
const C3 = 3 / 10;
const C4 = 4 / 5;
const C5 = 8 / 9;
const A21 = 1 / 5;
const A31 = 3 / 40;
const A32 = 9 / 40;
const A41 = 44 / 45;
const A42 = -56 / 15;
const A43 = 32 / 9;
const A51 = 19372 / 6561;
const A52 = -25360 / 2187;
const A53 = 64448 / 6561;
const A54 = -212 / 729;
const A61 = 9017 / 3168;
const A62 = -355 / 33;
const A63 = 46732 / 5247;
const A64 = 49 / 176;
const A65 = -5103 / 18656;
const A71 = 35 / 384;
const A73 = 500 / 1113;
const A74 = 125 / 192;
const A75 = -2187 / 6784;
const A76 = 11 / 84;
// e = b − b̂ (5th-order weights minus the embedded 4th-order ones)
const E1 = 71 / 57600;
const E3 = -71 / 16695;
const E4 = 71 / 1920;
const E5 = -17253 / 339200;
const E6 = 22 / 525;
const E7 = -1 / 40;
// dense output (Hairer's dopri5.f, Shampine 1986)
const D1 = -12715105075 / 11282082432;
const D3 = 87487479700 / 32700410799;
const D4 = -10690763975 / 1880347072;
const D5 = 701980252875 / 199316789632;
const D6 = -1453857185 / 822651844;
const D7 = 69997945 / 29380423;

/** Unit round-off used in the step-size underflow test `0.1·|h| ≤ |t|·u` (as in DOPRI5). */
const UROUND = Number.EPSILON;
/** Lower bound of the previous error in the PI controller (DOPRI5's `FACOLD` floor). */
const FACOLD_MIN = 1e-4;

/**
 * The Dormand–Prince 5(4) pair: order 5 propagated, embedded order 4, explicit, FSAL, neither
 * symplectic nor symmetric.
 *
 * @example
 * ```ts
 * dopri5Method.embeddedOrder; // 4
 * ```
 */
export const dopri5Method: MethodTraits = methodTraits({
  name: 'dopri5',
  description: 'adaptive Dormand–Prince 5(4) with dense output (Hairer, Nørsett, Wanner)',
  order: 5,
  embeddedOrder: 4,
  isExplicit: true,
  isSymplectic: false,
  isSymmetric: false,
  isVariational: false,
});

/**
 * One Dormand–Prince 5(4) step for an n-dimensional system, owning its seven stage vectors.
 * Nothing here allocates after construction.
 *
 * The low-level protocol used by {@link Dopri5Integrator}: {@link Dopri5Stepper.prime} once
 * (evaluates `k1 = f(t0, y0)`), then per attempt {@link Dopri5Stepper.attempt} (six evaluations,
 * fills {@link Dopri5Stepper.yNew} and {@link Dopri5Stepper.errEst}), optionally
 * {@link Dopri5Stepper.denseCoefficients}, and on acceptance {@link Dopri5Stepper.accept}, which
 * copies `yNew` into the state and reuses the last stage as the next `k1` (FSAL).
 * {@link Dopri5Stepper.step} is the fixed-step shortcut.
 *
 * Step: `y₁ = y₀ + h(35/384 k1 + 500/1113 k3 + 125/192 k4 − 2187/6784 k5 + 11/84 k6)`,
 * `k7 = f(t + h, y₁)`, `ĕ = h(71/57600 k1 − 71/16695 k3 + 71/1920 k4 − 17253/339200 k5 +
 * 22/525 k6 − 1/40 k7)`.
 *
 * @example
 * ```ts
 * const s = new Dopri5Stepper(1, (out, _t, y) => { out[0] = -y[0]!; });
 * const y = Float64Array.of(1);
 * for (let k = 0; k < 10; k++) s.step(y, k * 0.1, 0.1); // y[0] ≈ e^{−1} to ~1e-9
 * ```
 */
export class Dopri5Stepper {
  /** Number of right-hand-side evaluations made so far. */
  fEvals = 0;
  /** 5th-order solution of the last {@link Dopri5Stepper.attempt}. */
  readonly yNew: Float64Array;
  /** Local error estimate `h·Σ eⱼkⱼ` of the last attempt (5th minus embedded 4th order). */
  readonly errEst: Float64Array;
  private k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly k5: Float64Array;
  private readonly k6: Float64Array;
  private k7: Float64Array;
  private readonly ytmp: Float64Array;
  /** Copy of the state `k1` was evaluated at, for FSAL reuse in {@link Dopri5Stepper.step}. */
  private readonly yK1: Float64Array;
  private tK1 = Number.NaN;

  constructor(
    /** State dimension. */
    readonly n: number,
    readonly f: OdeRhs,
  ) {
    if (!Number.isInteger(n) || n < 1) {
      throw new DomainError('Dopri5Stepper: dimension n', n, 'must be a positive integer');
    }
    this.yNew = new Float64Array(n);
    this.errEst = new Float64Array(n);
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.k4 = new Float64Array(n);
    this.k5 = new Float64Array(n);
    this.k6 = new Float64Array(n);
    this.k7 = new Float64Array(n);
    this.ytmp = new Float64Array(n);
    this.yK1 = new Float64Array(n);
  }

  /** `f(t, y)` at the current step's start (valid after {@link Dopri5Stepper.prime}). Read-only view. */
  get derivative(): Float64Array {
    return this.k1;
  }

  /**
   * Evaluates `k1 = f(t, y)` for a new starting point. Throws {@link NonFiniteError} if the
   * derivative is not finite.
   */
  prime(t: number, y: Float64Array): void {
    if (y.length !== this.n) throw new DimensionError('Dopri5Stepper: y length', this.n, y.length);
    this.f(this.k1, t, y);
    this.fEvals++;
    const k1 = this.k1;
    for (let i = 0; i < this.n; i++) {
      if (!Number.isFinite(k1[i]!)) throw new NonFiniteError(`Dopri5Stepper: f(t = ${t}, y)`, i);
    }
    this.tK1 = t;
    this.yK1.set(y);
  }

  /**
   * Computes the stages k2…k7, the 5th-order solution into {@link Dopri5Stepper.yNew} and the
   * error estimate into {@link Dopri5Stepper.errEst}, for a step of size h from (t, y).
   * Requires `k1 = f(t, y)` (after {@link Dopri5Stepper.prime} or {@link Dopri5Stepper.accept}).
   * `y` is not modified. Non-finite values are not checked here (the caller's error norm sees them).
   */
  attempt(t: number, y: Float64Array, h: number): void {
    const { n, f, k1, k2, k3, k4, k5, k6, k7, ytmp, yNew, errEst } = this;
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h * A21 * k1[i]!;
    f(k2, t + C2 * h, ytmp);
    for (let i = 0; i < n; i++) ytmp[i] = y[i]! + h * (A31 * k1[i]! + A32 * k2[i]!);
    f(k3, t + C3 * h, ytmp);
    for (let i = 0; i < n; i++) {
      ytmp[i] = y[i]! + h * (A41 * k1[i]! + A42 * k2[i]! + A43 * k3[i]!);
    }
    f(k4, t + C4 * h, ytmp);
    for (let i = 0; i < n; i++) {
      ytmp[i] = y[i]! + h * (A51 * k1[i]! + A52 * k2[i]! + A53 * k3[i]! + A54 * k4[i]!);
    }
    f(k5, t + C5 * h, ytmp);
    for (let i = 0; i < n; i++) {
      ytmp[i] =
        y[i]! + h * (A61 * k1[i]! + A62 * k2[i]! + A63 * k3[i]! + A64 * k4[i]! + A65 * k5[i]!);
    }
    // c6 = 1: evaluate at t + h exactly as DOPRI5 does (XPH = X + H)
    const tph = t + h;
    f(k6, tph, ytmp);
    for (let i = 0; i < n; i++) {
      yNew[i] =
        y[i]! + h * (A71 * k1[i]! + A73 * k3[i]! + A74 * k4[i]! + A75 * k5[i]! + A76 * k6[i]!);
    }
    f(k7, tph, yNew);
    this.fEvals += 6;
    for (let i = 0; i < n; i++) {
      errEst[i] =
        h * (E1 * k1[i]! + E3 * k3[i]! + E4 * k4[i]! + E5 * k5[i]! + E6 * k6[i]! + E7 * k7[i]!);
    }
  }

  /**
   * Writes the five coefficient vectors `r1…r5` (5n numbers, `cont[j*n + i]`) of the continuous
   * extension of the last attempted step from (t, y) with size h, so that for θ = (s − t)/h ∈ [0, 1]
   * `u(s) = r1 + θ(r2 + (1−θ)(r3 + θ(r4 + (1−θ) r5)))` with
   * `r1 = y₀`, `r2 = y₁ − y₀`, `r3 = h k1 − r2`, `r4 = r2 − h k7 − r3`,
   * `r5 = h(d1 k1 + d3 k3 + d4 k4 + d5 k5 + d6 k6 + d7 k7)`.
   * Call between {@link Dopri5Stepper.attempt} and {@link Dopri5Stepper.accept}; `off` is the
   * offset into `cont`.
   */
  denseCoefficients(cont: Float64Array, y: Float64Array, h: number, off = 0): void {
    const { n, k1, k3, k4, k5, k6, k7, yNew } = this;
    for (let i = 0; i < n; i++) {
      const y0 = y[i]!;
      const ydiff = yNew[i]! - y0;
      const bspl = h * k1[i]! - ydiff;
      cont[off + i] = y0;
      cont[off + n + i] = ydiff;
      cont[off + 2 * n + i] = bspl;
      cont[off + 3 * n + i] = ydiff - h * k7[i]! - bspl;
      cont[off + 4 * n + i] =
        h * (D1 * k1[i]! + D3 * k3[i]! + D4 * k4[i]! + D5 * k5[i]! + D6 * k6[i]! + D7 * k7[i]!);
    }
  }

  /**
   * Accepts the last attempt: `y ← yNew`, and the last stage becomes the next `k1` (FSAL).
   * `tNew` is the time the new state belongs to.
   */
  accept(y: Float64Array, tNew: number): void {
    y.set(this.yNew);
    const k = this.k1;
    this.k1 = this.k7;
    this.k7 = k;
    this.tK1 = tNew;
    this.yK1.set(y);
  }

  /**
   * One fixed step of size h in place: `y ← y₁`. Reuses the last stage of the previous call when
   * it ended at exactly this (t, y) (FSAL: 6 evaluations instead of 7). Throws
   * {@link NonFiniteError} if the new state or its derivative is not finite (`y` unchanged).
   */
  step(y: Float64Array, t: number, h: number): Float64Array {
    if (y.length !== this.n)
      throw new DimensionError('Dopri5Stepper.step: y length', this.n, y.length);
    if (!this.primedAt(t, y)) this.prime(t, y);
    this.attempt(t, y, h);
    const { yNew, k7 } = this;
    for (let i = 0; i < this.n; i++) {
      if (!Number.isFinite(yNew[i]!) || !Number.isFinite(k7[i]!)) {
        throw new NonFiniteError(`Dopri5Stepper.step: new state at t = ${t}, h = ${h}`, i);
      }
    }
    this.accept(y, t + h);
    return y;
  }

  private primedAt(t: number, y: Float64Array): boolean {
    if (t !== this.tK1) return false;
    const c = this.yK1;
    for (let i = 0; i < this.n; i++) if (c[i] !== y[i]) return false;
    return true;
  }
}

/** Options of {@link Dopri5Integrator} and {@link integrateDopri5}. */
export interface Dopri5Options {
  /** Relative tolerance, scalar or per component (≥ 0, < 1). Default 1e-6. */
  readonly rtol?: number | ArrayLike<number>;
  /** Absolute tolerance, scalar or per component (≥ 0). Default 1e-9. Each atolᵢ + rtolᵢ > 0. */
  readonly atol?: number | ArrayLike<number>;
  /** Initial step size magnitude; 0 or absent: chosen by `hinit`. */
  readonly h0?: number;
  /** Maximum step size magnitude. Default: the length of the interval. */
  readonly hmax?: number;
  /** Maximum number of attempted steps (accepted + rejected). Default 100000. */
  readonly maxSteps?: number;
  /** Safety factor of the controller, in (1e-4, 1). Default 0.9. */
  readonly safety?: number;
  /** Smallest step-size ratio h_new/h, in (0, 1]. Default 0.2. */
  readonly facmin?: number;
  /** Largest step-size ratio h_new/h, ≥ 1. Default 10. */
  readonly facmax?: number;
  /** PI stabilisation exponent β ∈ [0, 0.2]; 0 gives the classical I controller. Default 0.04. */
  readonly beta?: number;
  /**
   * Output times, monotone in the direction of integration and inside the interval. When given,
   * the solution's `t`/`y` hold these times (by dense output) instead of the accepted steps.
   */
  readonly tEval?: ArrayLike<number>;
  /** Keep the continuous extension of every step so that `at(t)` works. Default true. */
  readonly dense?: boolean;
}

/**
 * What a DOPRI5 integration adds to the one {@link Solution} (series `y`): the accepted step grid,
 * the continuous extension behind {@link Dopri5Extras.at}, and the interval. Its `stats` carry
 * `attempts`, `accepted`, `rejected` and `fEvals`; `h` is NaN (variable steps) and `steps` counts
 * accepted steps.
 */
export interface Dopri5Extras {
  /** Work counters, all present. */
  readonly stats: Dopri5Stats;
  /** State dimension. */
  readonly n: number;
  /** Accepted step points t0, t1, …, tEnd (length accepted + 1). */
  readonly stepTimes: Float64Array;
  /** Continuous-extension coefficients, 5n per accepted step; undefined when `dense: false`. */
  readonly dense: Float64Array | undefined;
  /** Start of the integration interval. */
  readonly t0: number;
  /** End of the integration interval. */
  readonly tEnd: number;
  /**
   * The solution at any time of the interval by the continuous extension of the step containing
   * `t` (4th order: local interpolation error O(h⁵); at step points it returns the step values).
   * Writes into `out` (length n, allocated if absent) and returns it. Allocation-free with `out`.
   *
   * @throws {@link DomainError} if `t` is outside the interval or dense output was disabled.
   *
   * @example
   * ```ts
   * const sol = integrateDopri5((o, _t, y) => { o[0] = y[1]!; o[1] = -y[0]!; },
   *   [1, 0], 0, 10, { rtol: 1e-10, atol: 1e-12 });
   * sol.at(2.5)[0]; // ≈ cos 2.5
   * ```
   */
  at(t: number, out?: Float64Array): Float64Array;
}

/** Work counters of an adaptive integration (all of {@link IntegrationStats}' optional ones set). */
export type Dopri5Stats = Required<IntegrationStats>;

/** Result of a DOPRI5 integration: the one {@link Solution} with series `y`, plus {@link Dopri5Extras}. */
export type Dopri5Solution = Solution<'y'> & Dopri5Extras;

/** Builds the {@link Dopri5Extras} of a run (cold path, once per integration). */
function dopri5Extras(
  stats: Dopri5Stats,
  n: number,
  stepTimes: Float64Array,
  dense: Float64Array | undefined,
): Dopri5Extras {
  return {
    stats,
    n,
    stepTimes,
    dense,
    t0: stepTimes[0]!,
    tEnd: stepTimes[stepTimes.length - 1]!,
    at(t: number, out: Float64Array = new Float64Array(n)): Float64Array {
      if (out.length < n) throw new DimensionError('Dopri5Solution.at: out length', n, out.length);
      const cont = dense;
      if (cont === undefined) {
        throw new DomainError('Dopri5Solution.at', 'dense: false', 'needs dense output');
      }
      const ts = stepTimes;
      const m = ts.length - 1; // number of steps
      const ta = ts[0]!;
      const tb = ts[m]!;
      const lo = Math.min(ta, tb);
      const hi = Math.max(ta, tb);
      if (!(t >= lo && t <= hi)) {
        throw new DomainError('Dopri5Solution.at: t', t, `must lie in [${lo}, ${hi}]`);
      }
      if (m === 0) {
        // empty interval: r1 holds y0
        for (let i = 0; i < n; i++) out[i] = cont[i]!;
        return out;
      }
      const sgn = tb >= ta ? 1 : -1;
      // largest j in [0, m−1] with sgn·ts[j] ≤ sgn·t
      let a = 0;
      let b = m - 1;
      while (a < b) {
        const mid = (a + b + 1) >> 1;
        if (sgn * ts[mid]! <= sgn * t) a = mid;
        else b = mid - 1;
      }
      const tOld = ts[a]!;
      return dopri5DenseEval(out, cont, n, (t - tOld) / (ts[a + 1]! - tOld), 5 * n * a);
    },
  };
}

/**
 * Evaluates the DOPRI5 continuous extension of one step at θ = (s − t)/h ∈ [0, 1]:
 * `out[outOff + i] = r1 + θ(r2 + (1−θ)(r3 + θ(r4 + (1−θ) r5)))`, with the coefficients
 * `r1…r5` stored as written by {@link Dopri5Stepper.denseCoefficients} at `cont[contOff ..]`.
 * Allocates nothing; returns `out`.
 *
 * @example
 * ```ts
 * const s = new Dopri5Stepper(1, (out, _t, y) => { out[0] = -y[0]!; });
 * const y = Float64Array.of(1), cont = new Float64Array(5);
 * s.prime(0, y); s.attempt(0, y, 0.1); s.denseCoefficients(cont, y, 0.1);
 * dopri5DenseEval(new Float64Array(1), cont, 1, 0.5)[0]; // ≈ e^{−0.05}
 * ```
 */
export function dopri5DenseEval(
  out: Float64Array,
  cont: ArrayLike<number>,
  n: number,
  theta: number,
  contOff = 0,
  outOff = 0,
): Float64Array {
  const theta1 = 1 - theta;
  for (let i = 0; i < n; i++) {
    const o = contOff + i;
    out[outOff + i] =
      cont[o]! +
      theta *
        (cont[o + n]! +
          theta1 * (cont[o + 2 * n]! + theta * (cont[o + 3 * n]! + theta1 * cont[o + 4 * n]!)));
  }
  return out;
}

/** A Float64Array that grows by doubling; `data.subarray(0, length)` is the content. */
class Growable {
  data: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Float64Array(Math.max(capacity, 16));
  }
  /** Reserves `k` more numbers and returns the offset where they start. */
  reserve(k: number): number {
    const need = this.length + k;
    if (need > this.data.length) {
      let cap = this.data.length * 2;
      while (cap < need) cap *= 2;
      const d = new Float64Array(cap);
      d.set(this.data.subarray(0, this.length));
      this.data = d;
    }
    const off = this.length;
    this.length = need;
    return off;
  }
  push(v: number): void {
    const off = this.reserve(1);
    this.data[off] = v;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

function tolerance(
  what: string,
  v: number | ArrayLike<number>,
  n: number,
  upper: number,
): Float64Array {
  const out = new Float64Array(n);
  if (typeof v === 'number') out.fill(v);
  else {
    if (v.length !== n) throw new DimensionError(`Dopri5Integrator: ${what} length`, n, v.length);
    for (let i = 0; i < n; i++) out[i] = v[i]!;
  }
  for (let i = 0; i < n; i++) {
    const x = out[i]!;
    if (!(x >= 0 && x < upper)) {
      throw new DomainError(`Dopri5Integrator: ${what}[${i}]`, x, `must be in [0, ${upper})`);
    }
  }
  return out;
}

function checkRange(what: string, v: number, lo: number, hi: number, loOpen: boolean): number {
  if (!(loOpen ? v > lo : v >= lo) || !(v <= hi)) {
    throw new DomainError(
      `Dopri5Integrator: ${what}`,
      v,
      `must be in ${loOpen ? '(' : '['}${lo}, ${hi}]`,
    );
  }
  return v;
}

/**
 * Adaptive DOPRI5 integrator for a fixed system: owns a {@link Dopri5Stepper}, the scratch of the
 * starting-step heuristic and the validated options, and can integrate many initial-value
 * problems of the same dimension. See the module comment for the formulas.
 *
 * @example
 * ```ts
 * const integ = new Dopri5Integrator(1, (out, _t, y) => { out[0] = y[0]!; }, { rtol: 1e-10, atol: 1e-12 });
 * const sol = integ.integrate([1], 0, 1);
 * sol.last('y')[0]; // ≈ e
 * integ.integrate([2], 0, 1);  // same scratch, another initial value
 * ```
 */
export class Dopri5Integrator {
  private readonly stepper: Dopri5Stepper;
  private readonly rtol: Float64Array;
  private readonly atol: Float64Array;
  private readonly h0: number;
  private readonly hmax: number | undefined;
  private readonly maxSteps: number;
  private readonly safety: number;
  private readonly facmin: number;
  private readonly facmax: number;
  private readonly beta: number;
  private readonly tEval: Float64Array | undefined;
  private readonly keepDense: boolean;
  private readonly cont: Float64Array;
  private readonly y: Float64Array;

  constructor(
    /** State dimension. */
    readonly n: number,
    readonly f: OdeRhs,
    options: Dopri5Options = {},
  ) {
    this.stepper = new Dopri5Stepper(n, f);
    this.rtol = tolerance('rtol', options.rtol ?? 1e-6, n, 1);
    this.atol = tolerance('atol', options.atol ?? 1e-9, n, Number.POSITIVE_INFINITY);
    for (let i = 0; i < n; i++) {
      if (!(this.rtol[i]! + this.atol[i]! > 0)) {
        throw new DomainError(`Dopri5Integrator: atol[${i}] + rtol[${i}]`, 0, 'must be positive');
      }
    }
    const h0 = options.h0 ?? 0;
    if (!(Number.isFinite(h0) && h0 >= 0)) {
      throw new DomainError('Dopri5Integrator: h0', h0, 'must be finite and ≥ 0 (0: automatic)');
    }
    this.h0 = h0;
    if (options.hmax !== undefined && !(options.hmax > 0)) {
      throw new DomainError('Dopri5Integrator: hmax', options.hmax, 'must be positive');
    }
    this.hmax = options.hmax;
    const maxSteps = options.maxSteps ?? 100_000;
    if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) {
      throw new DomainError('Dopri5Integrator: maxSteps', maxSteps, 'must be a positive integer');
    }
    this.maxSteps = maxSteps;
    this.safety = checkRange('safety', options.safety ?? 0.9, 1e-4, 1, true);
    this.facmin = checkRange('facmin', options.facmin ?? 0.2, 0, 1, true);
    this.facmax = checkRange('facmax', options.facmax ?? 10, 1, Number.POSITIVE_INFINITY, false);
    this.beta = checkRange('beta', options.beta ?? 0.04, 0, 0.2, false);
    if (options.tEval !== undefined) {
      const te = Float64Array.from(options.tEval);
      for (let i = 0; i < te.length; i++) {
        if (!Number.isFinite(te[i]!))
          throw new DomainError(`Dopri5Integrator: tEval[${i}]`, te[i], 'must be finite');
      }
      this.tEval = te;
    } else this.tEval = undefined;
    this.keepDense = options.dense ?? true;
    this.cont = new Float64Array(5 * n);
    this.y = new Float64Array(n);
  }

  /**
   * Integrates from (t0, y0) to tEnd (tEnd < t0 integrates backward).
   *
   * @throws {@link DimensionError} if `y0` has the wrong length; {@link DomainError} for
   *   non-finite times or `tEval` outside the interval / not monotone; {@link NonFiniteError} if
   *   `y0`, `f`, or a trial step is not finite (reported, not retried);
   *   {@link StepSizeUnderflowError} when `0.1·|h| ≤ |t|·ε` (e.g. at a blow-up);
   *   {@link MaxStepsExceededError} when the step budget runs out.
   */
  integrate(y0: ArrayLike<number>, t0: number, tEnd: number): Dopri5Solution {
    const { n, stepper, rtol, atol, safety, beta, cont, y } = this;
    if (y0.length !== n)
      throw new DimensionError('Dopri5Integrator.integrate: y0 length', n, y0.length);
    if (!Number.isFinite(t0))
      throw new DomainError('Dopri5Integrator.integrate: t0', t0, 'must be finite');
    if (!Number.isFinite(tEnd)) {
      throw new DomainError('Dopri5Integrator.integrate: tEnd', tEnd, 'must be finite');
    }
    for (let i = 0; i < n; i++) {
      const v = y0[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('Dopri5Integrator.integrate: y0', i);
      y[i] = v;
    }
    const posneg = tEnd >= t0 ? 1 : -1;
    const tEval = this.tEval;
    if (tEval !== undefined) {
      for (let i = 0; i < tEval.length; i++) {
        const s = tEval[i]!;
        if ((s - t0) * posneg < 0 || (s - tEnd) * posneg > 0) {
          throw new DomainError(
            `Dopri5Integrator.integrate: tEval[${i}]`,
            s,
            `must lie between ${t0} and ${tEnd}`,
          );
        }
        if (i > 0 && (s - tEval[i - 1]!) * posneg < 0) {
          throw new DomainError(
            `Dopri5Integrator.integrate: tEval[${i}]`,
            s,
            'must be monotone in the direction of integration',
          );
        }
      }
    }

    const fEvals0 = stepper.fEvals;
    const stepTimes = new Growable(64);
    const dense = this.keepDense ? new Growable(64 * 5 * n) : undefined;
    const rec = new Recorder<'y'>(
      dopri5Method,
      [{ name: 'y', width: n }],
      tEval === undefined ? 'grow' : Math.max(tEval.length, 1),
    );
    const yEval = new Float64Array(n);
    let evalIdx = 0;
    let accepted = 0;
    const record = (s: number, src: Float64Array): void => {
      rec.keep(accepted, s, src);
    };
    const finish = (attempts: number, rejected: number): Dopri5Solution => {
      const stats: Dopri5Stats = {
        newtonIterations: 0,
        maxIterations: 0,
        maxResidual: 0,
        attempts,
        accepted,
        rejected,
        fEvals: stepper.fEvals - fEvals0,
      };
      return extendSolution(
        rec.finish({ steps: accepted, h: Number.NaN, stats }),
        dopri5Extras(stats, n, stepTimes.toArray(), dense?.toArray()),
      );
    };

    stepTimes.push(t0);
    if (tEval === undefined) record(t0, y);
    else {
      while (evalIdx < tEval.length && tEval[evalIdx] === t0) {
        record(t0, y);
        evalIdx++;
      }
    }

    let rejected = 0;
    if (tEnd === t0) {
      if (dense !== undefined) {
        // a degenerate "step" holding y0 in r1 so that at(t0) works
        const off = dense.reserve(5 * n);
        dense.data.set(y, off);
      }
      return finish(0, 0);
    }

    const hmax = Math.abs(this.hmax ?? tEnd - t0);
    stepper.prime(t0, y);
    let h = this.h0 > 0 ? Math.min(this.h0, hmax) * posneg : this.hinit(t0, y, posneg, hmax);

    const expo1 = 0.2 - beta * 0.75;
    const facc1 = 1 / this.facmin;
    const facc2 = 1 / this.facmax;
    let facold = FACOLD_MIN;
    let reject = false;
    let last = false;
    let x = t0;
    let attempts = 0;
    const yNew = stepper.yNew;
    const errEst = stepper.errEst;

    for (;;) {
      if (attempts >= this.maxSteps) throw new MaxStepsExceededError(x, h, this.maxSteps);
      if (0.1 * Math.abs(h) <= Math.abs(x) * UROUND || h === 0) {
        throw new StepSizeUnderflowError(x, h);
      }
      if ((x + 1.01 * h - tEnd) * posneg > 0) {
        h = tEnd - x;
        last = true;
      }
      attempts++;
      stepper.attempt(x, y, h);

      // Hairer's error norm (II.4.11)
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const sk = atol[i]! + rtol[i]! * Math.max(Math.abs(y[i]!), Math.abs(yNew[i]!));
        const r = errEst[i]! / sk;
        sum += r * r;
      }
      const err = Math.sqrt(sum / n);
      if (!Number.isFinite(err)) {
        // locate the offending component for the report
        let bad = 0;
        for (let i = 0; i < n; i++) {
          if (!Number.isFinite(errEst[i]!) || !Number.isFinite(yNew[i]!)) {
            bad = i;
            break;
          }
        }
        throw new NonFiniteError(`Dopri5Integrator: trial step from t = ${x} with h = ${h}`, bad);
      }

      // PI controller (Gustafsson), as in DOPRI5
      const fac11 = err ** expo1;
      let fac = fac11 / facold ** beta;
      fac = Math.max(facc2, Math.min(facc1, fac / safety));
      let hnew = h / fac;

      if (err <= 1) {
        facold = Math.max(err, FACOLD_MIN);
        accepted++;
        const xNew = last ? tEnd : x + h;
        if (dense !== undefined) {
          const off = dense.reserve(5 * n);
          stepper.denseCoefficients(dense.data, y, h, off);
        }
        if (
          tEval !== undefined &&
          evalIdx < tEval.length &&
          (tEval[evalIdx]! - xNew) * posneg <= 0
        ) {
          stepper.denseCoefficients(cont, y, h);
          while (evalIdx < tEval.length && (tEval[evalIdx]! - xNew) * posneg <= 0) {
            const s = tEval[evalIdx]!;
            dopri5DenseEval(yEval, cont, n, (s - x) / h);
            rec.keep(accepted, s, yEval);
            evalIdx++;
          }
        }
        stepper.accept(y, xNew);
        // the accepted state and its (FSAL) derivative must be finite
        const k1 = stepper.derivative;
        for (let i = 0; i < n; i++) {
          if (!Number.isFinite(y[i]!) || !Number.isFinite(k1[i]!)) {
            throw new NonFiniteError(`Dopri5Integrator: state or f at t = ${xNew}`, i);
          }
        }
        x = xNew;
        stepTimes.push(x);
        if (tEval === undefined) record(x, y);
        if (last) break;
        if (Math.abs(hnew) > hmax) hnew = posneg * hmax;
        if (reject) hnew = posneg * Math.min(Math.abs(hnew), Math.abs(h));
        reject = false;
      } else {
        hnew = h / Math.min(facc1, fac11 / safety);
        reject = true;
        rejected++;
        last = false;
      }
      h = hnew;
    }

    return finish(attempts, rejected);
  }

  /**
   * Starting step (Hairer–Nørsett–Wanner II.4.14, DOPRI5's `HINIT` with order 5):
   * `h₀ = 0.01·‖y₀‖/‖f₀‖` (or 1e-6 when either norm ≤ 1e-5), one explicit Euler step to estimate
   * `‖f'‖ ≈ ‖f(t+h₀, y₀+h₀f₀) − f₀‖/h₀`, then `h₁ = (0.01/max(‖f'‖, ‖f₀‖))^(1/5)` and
   * `h = min(100 h₀, h₁, hmax)`. Uses k1 = f(t0, y0) from `prime`; one further evaluation.
   */
  private hinit(t0: number, y0: Float64Array, posneg: number, hmax: number): number {
    const { n, rtol, atol, stepper } = this;
    const f0 = stepper.derivative;
    let dnf = 0;
    let dny = 0;
    for (let i = 0; i < n; i++) {
      const sk = atol[i]! + rtol[i]! * Math.abs(y0[i]!);
      dnf += (f0[i]! / sk) ** 2;
      dny += (y0[i]! / sk) ** 2;
    }
    let h = dnf <= 1e-10 || dny <= 1e-10 ? 1e-6 : Math.sqrt(dny / dnf) * 0.01;
    h = Math.min(h, hmax) * posneg;
    // explicit Euler step, reusing the stepper's output buffers as scratch
    const y1 = stepper.yNew;
    const f1 = stepper.errEst;
    for (let i = 0; i < n; i++) y1[i] = y0[i]! + h * f0[i]!;
    this.f(f1, t0 + h, y1);
    stepper.fEvals++;
    let der2 = 0;
    for (let i = 0; i < n; i++) {
      const sk = atol[i]! + rtol[i]! * Math.abs(y0[i]!);
      der2 += ((f1[i]! - f0[i]!) / sk) ** 2;
    }
    der2 = Math.sqrt(der2) / Math.abs(h);
    const der12 = Math.max(Math.abs(der2), Math.sqrt(dnf));
    let h1: number;
    if (!Number.isFinite(der12)) h1 = Math.abs(h) * 1e-3;
    else if (der12 <= 1e-15) h1 = Math.max(1e-6, Math.abs(h) * 1e-3);
    else h1 = (0.01 / der12) ** (1 / 5);
    return Math.min(100 * Math.abs(h), h1, hmax) * posneg;
  }
}

/**
 * Solves `y' = f(t, y)`, `y(t0) = y0` on [t0, tEnd] (or backward when tEnd < t0) with adaptive
 * DOPRI5; see {@link Dopri5Integrator} for the algorithm and {@link Dopri5Options} for defaults
 * (rtol 1e-6, atol 1e-9). Tolerances down to rtol 1e-12 / atol 1e-14 are supported; below about
 * 1e-13 round-off dominates the error estimate.
 *
 * @example
 * ```ts
 * // logistic y' = y(1 − y), y(0) = 0.1, exact y = 1/(1 + 9e^{−t})
 * const sol = integrateDopri5((out, _t, y) => { out[0] = y[0]! * (1 - y[0]!); },
 *   [0.1], 0, 10, { rtol: 1e-12, atol: 1e-14, tEval: [5, 10] });
 * sol.sample('y', 1)[0];   // 0.9995915675172 = 1/(1 + 9e^{−10}), error ~1e-13
 * sol.at(2.5)[0];    // dense output anywhere in [0, 10]
 * sol.stats.rejected; // rejected steps
 * ```
 */
export function integrateDopri5(
  f: OdeRhs,
  y0: ArrayLike<number>,
  t0: number,
  tEnd: number,
  options: Dopri5Options = {},
): Dopri5Solution {
  if (y0.length < 1)
    throw new DomainError('integrateDopri5: y0 length', y0.length, 'must be at least 1');
  return new Dopri5Integrator(y0.length, f, options).integrate(y0, t0, tEnd);
}
