/**
 * User discrete contact Lagrangians (spec 004 §10: derivatives "built from central finite
 * differences or dual numbers"): {@link discreteLagrangianFromFunction} turns any L_d(q0, q1, z0, t)
 * given as a plain function or as a generic function of core's `ScalarOps` into a
 * {@link DiscreteContactLagrangian} with every derivative the discrete Herglotz step needs.
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DomainError,
  Dual,
  DualOps,
  NonFiniteError,
  NumberOps,
  type ScalarOps,
} from '@geomech/core';
import { checkDimension, checkOut, checkPoint, checkStepSize } from './internal.js';
import type { DiscreteContactLagrangian, DiscreteLagrangianTraits } from './types.js';

/**
 * Relative step of the mixed second differences of {@link discreteLagrangianFromFunction},
 * ε^{1/4} ≈ 1.2e-4: the 4-point formula's truncation O(s²) balances its rounding O(ε/s²), giving
 * about √ε ≈ 1.5e-8 relative accuracy (measured: ≤ 4e-8 of the largest entry on the test suite's
 * Lagrangians).
 *
 * @example
 * ```ts
 * SECOND_DIFFERENCE_STEP; // ε^{1/4} ≈ 1.22e-4
 * ```
 */
export const SECOND_DIFFERENCE_STEP = Number.EPSILON ** 0.25;

/**
 * A discrete Lagrangian on plain numbers, `(q0, q1, z0, t) ↦ L_d` (t the step's start time t_k).
 * Must not keep or modify its arguments.
 *
 * @example
 * ```ts
 * // the free particle (77) with h = 0.5, γ = −0.05
 * const Ld: DiscreteLagrangianFunction = (q0, q1, z0) => (q1[0]! - q0[0]!) ** 2 / (2 * 0.5) + 0.5 * -0.05 * z0;
 * ```
 */
export type DiscreteLagrangianFunction = (
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
  t: number,
) => number;

/**
 * A discrete Lagrangian written once against core's `ScalarOps`, so that it can be evaluated on
 * plain numbers and differentiated exactly with dual numbers in (q0, q1, z0); the step's start
 * time t is a plain number.
 *
 * @example
 * ```ts
 * // the free particle (77): (q1 − q0)²/(2h) + hγ z0 with h = 0.5, γ = −0.05
 * const Ld: GenericDiscreteLagrangianFunction = (o, q0, q1, z0) => {
 *   const d = o.sub(q1[0]!, q0[0]!);
 *   return o.add(o.scale(o.mul(d, d), 1 / (2 * 0.5)), o.scale(z0, 0.5 * -0.05));
 * };
 * ```
 */
export type GenericDiscreteLagrangianFunction = <T>(
  ops: ScalarOps<T>,
  q0: readonly T[],
  q1: readonly T[],
  z0: T,
  t: number,
) => T;

/**
 * Marks a {@link GenericDiscreteLagrangianFunction} for {@link discreteLagrangianFromFunction}.
 *
 * @example
 * ```ts
 * const free: GenericDiscreteLagrangian = { generic: (o, q0, q1) => o.scale(o.mul(o.sub(q1[0]!, q0[0]!), o.sub(q1[0]!, q0[0]!)), 1) };
 * ```
 */
export interface GenericDiscreteLagrangian {
  readonly generic: GenericDiscreteLagrangianFunction;
}

/**
 * Options of {@link discreteLagrangianFromFunction}.
 *
 * @example
 * ```ts
 * const options: DiscreteLagrangianFromFunctionOptions = { name: 'free-particle', traits: { order: 1 } };
 * ```
 */
export interface DiscreteLagrangianFromFunctionOptions {
  /** The `name` of the result. Default `'user'`. */
  readonly name?: string;
  /** The `traits` of the result (STYLE.md: unknown traits stay undefined). Default `{}`. */
  readonly traits?: DiscreteLagrangianTraits;
  /**
   * Relative step s of the first central differences (plain functions) and of the differences
   * of dual gradients (generic functions). Default ∛ε (core's `CENTRAL_DIFFERENCE_STEP`).
   */
  readonly step?: number;
  /** Relative step of the mixed second differences of plain functions. Default {@link SECOND_DIFFERENCE_STEP}. */
  readonly secondStep?: number;
}

/**
 * A {@link DiscreteContactLagrangian} from any user discrete Lagrangian L_d(q0, q1, z0, t) (spec 004
 * §10: derivatives "built from central finite differences or dual numbers"):
 *
 * - **a generic function** `{ generic: (ops, q0, q1, z0) => … }` (preferred): D1, D2 and D_z come
 *   exact from one forward-mode dual pass with 2n + 1 directions (cached for the last point, so
 *   D1, D2, D_z at one point cost one pass); ∂(D1 L_d)/∂q1 and ∇_{q1}(D_z L_d) are central
 *   differences of those dual gradients in q1 (2n passes), ≈ 1e-10 relative to the largest entry. The dual pass
 *   allocates its dual intermediates (core's duals are a cold-path tool); everything else is
 *   preallocated.
 * - **a plain function** `(q0, q1, z0) => number`: every derivative by central differences,
 *   first derivatives (2 evaluations each) ≈ 1e-10 relative, the mixed second derivatives
 *   ∂²L_d/∂q0ᵢ∂q1ⱼ and ∂²L_d/∂z0∂q1ⱼ by the 4-point formula
 *   (f(+,+) − f(+,−) − f(−,+) + f(−,−))/(4 sᵢ tⱼ), a few 1e-8 relative to the largest entry
 *   (D2D1 is O(1/h), so its small entries carry that absolute error). Allocation-free.
 *
 * Steps: coordinate x of q0 or q1 moves by s·min(1, h)·max(1, |x|) (L_d varies on the scale h in
 * q, through v = (q1 − q0)/h), z0 by s·max(1, |z0|); the divisor is the exact distance of the two
 * evaluation points. The accuracies above hold for L_d of the quadrature type h·L(·, (q1 − q0)/h, ·)
 * with smooth L; they degrade for badly scaled L_d (then give a generic function).
 *
 * @param n - dimension of Q = Rⁿ.
 * @param h - the time step L_d was built for (stored; it also scales the difference steps).
 * @throws DomainError on a bad h or step; DimensionError on a bad n. The derivative methods throw
 *   NonFiniteError when a difference quotient is not finite.
 * @example
 * ```ts
 * const h = 0.5, g = -0.05;
 * const Ld = discreteLagrangianFromFunction(1, h, {
 *   generic: (o, q0, q1, z0) => {
 *     const d = o.sub(q1[0]!, q0[0]!);
 *     const s = o.add(q1[0]!, q0[0]!);
 *     return o.add(o.sub(o.scale(o.mul(d, d), 1 / (2 * h)), o.scale(o.mul(s, s), h / 8)), o.scale(z0, h * g));
 *   },
 * });
 * Ld.D2(new Float64Array(1), Float64Array.of(1), Float64Array.of(2), 0); // [1.625], eq. (79)
 * ```
 */
export function discreteLagrangianFromFunction(
  n: number,
  h: number,
  Ld: DiscreteLagrangianFunction | GenericDiscreteLagrangian,
  options: DiscreteLagrangianFromFunctionOptions = {},
): DiscreteContactLagrangian {
  checkStepSize('discreteLagrangianFromFunction', h);
  checkDimension('discreteLagrangianFromFunction', n);
  const step = options.step ?? CENTRAL_DIFFERENCE_STEP;
  if (!(step > 0) || !Number.isFinite(step))
    throw new DomainError('discreteLagrangianFromFunction: step', step, 'must be finite and > 0');
  const secondStep = options.secondStep ?? SECOND_DIFFERENCE_STEP;
  if (!(secondStep > 0) || !Number.isFinite(secondStep)) {
    throw new DomainError(
      'discreteLagrangianFromFunction: secondStep',
      secondStep,
      'must be finite and > 0',
    );
  }
  const name = options.name ?? 'user';
  const traits = Object.freeze({ ...(options.traits ?? {}) });
  return typeof Ld === 'function'
    ? fromPlainFunction(n, h, Ld, name, traits, step, secondStep)
    : fromGenericFunction(n, h, Ld.generic, name, traits, step);
}

/** The q-coordinate step s·min(1, h)·max(1, |x|) (see {@link discreteLagrangianFromFunction}). */
function qStep(s: number, h: number, x: number): number {
  return s * Math.min(1, h) * Math.max(1, Math.abs(x));
}

function finiteQuotient(what: string, d: number, index: number): number {
  if (!Number.isFinite(d))
    throw new NonFiniteError(`discreteLagrangianFromFunction: ${what}`, index);
  return d;
}

function fromPlainFunction(
  n: number,
  h: number,
  f: DiscreteLagrangianFunction,
  name: string,
  traits: DiscreteLagrangianTraits,
  step: number,
  secondStep: number,
): DiscreteContactLagrangian {
  const what = 'discreteLagrangianFromFunction';
  const w0 = new Float64Array(n);
  const w1 = new Float64Array(n);
  const load = (q0: Float64Array, q1: Float64Array): void => {
    checkPoint(what, n, q0, q1);
    w0.set(q0);
    w1.set(q1);
  };
  /** out ← central differences of L_d in the coordinates of w (w0 or w1). */
  const gradientIn = (out: Float64Array, w: Float64Array, z0: number, t: number, label: string) => {
    for (let i = 0; i < n; i++) {
      const x = w[i]!;
      const s = qStep(step, h, x);
      const xp = x + s;
      const xm = x - s;
      w[i] = xp;
      const fp = f(w0, w1, z0, t);
      w[i] = xm;
      const fm = f(w0, w1, z0, t);
      w[i] = x;
      out[i] = finiteQuotient(label, (fp - fm) / (xp - xm), i);
    }
    return out;
  };
  return Object.freeze({
    name,
    n,
    h,
    traits,
    Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      load(q0, q1);
      return f(w0, w1, z0, t);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      return gradientIn(out, w0, z0, t, 'D1');
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      return gradientIn(out, w1, z0, t, 'D2');
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      load(q0, q1);
      const s = step * Math.max(1, Math.abs(z0));
      const zp = z0 + s;
      const zm = z0 - s;
      return finiteQuotient('Dz', (f(w0, w1, zp, t) - f(w0, w1, zm, t)) / (zp - zm), 0);
    },
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n * n, out);
      load(q0, q1);
      for (let i = 0; i < n; i++) {
        const x = w0[i]!;
        const s = qStep(secondStep, h, x);
        const xp = x + s;
        const xm = x - s;
        for (let j = 0; j < n; j++) {
          const y = w1[j]!;
          const dy = qStep(secondStep, h, y);
          const yp = y + dy;
          const ym = y - dy;
          w0[i] = xp;
          w1[j] = yp;
          const fpp = f(w0, w1, z0, t);
          w1[j] = ym;
          const fpm = f(w0, w1, z0, t);
          w0[i] = xm;
          const fmm = f(w0, w1, z0, t);
          w1[j] = yp;
          const fmp = f(w0, w1, z0, t);
          w0[i] = x;
          w1[j] = y;
          const d = (fpp - fpm - fmp + fmm) / ((xp - xm) * (yp - ym));
          out[i * n + j] = finiteQuotient('D2D1', d, i * n + j);
        }
      }
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      load(q0, q1);
      const s = secondStep * Math.max(1, Math.abs(z0));
      const zp = z0 + s;
      const zm = z0 - s;
      for (let j = 0; j < n; j++) {
        const y = w1[j]!;
        const dy = qStep(secondStep, h, y);
        const yp = y + dy;
        const ym = y - dy;
        w1[j] = yp;
        const fpp = f(w0, w1, zp, t);
        const fmp = f(w0, w1, zm, t);
        w1[j] = ym;
        const fpm = f(w0, w1, zp, t);
        const fmm = f(w0, w1, zm, t);
        w1[j] = y;
        const d = (fpp - fpm - fmp + fmm) / ((zp - zm) * (yp - ym));
        out[j] = finiteQuotient('D2Dz', d, j);
      }
      return out;
    },
  });
}

function fromGenericFunction(
  n: number,
  h: number,
  g: GenericDiscreteLagrangianFunction,
  name: string,
  traits: DiscreteLagrangianTraits,
  step: number,
): DiscreteContactLagrangian {
  const what = 'discreteLagrangianFromFunction';
  const k = 2 * n + 1;
  // Unit tangents e_0 … e_{2n}, shared by the seeded duals (dual operations never mutate inputs).
  const units: Float64Array[] = [];
  for (let d = 0; d < k; d++) {
    const e = new Float64Array(k);
    e[d] = 1;
    units.push(e);
  }
  const a0: number[] = new Array<number>(n).fill(0);
  const a1: number[] = new Array<number>(n).fill(0);
  const d0: Dual[] = new Array<Dual>(n).fill(Dual.constant(0));
  const d1: Dual[] = new Array<Dual>(n).fill(Dual.constant(0));
  const w1 = new Float64Array(n);
  const grad = new Float64Array(k); // cached gradient
  const gp = new Float64Array(k);
  const gm = new Float64Array(k);
  const cq0 = new Float64Array(n);
  const cq1 = new Float64Array(n);
  let cz0 = Number.NaN;
  let ct = Number.NaN;
  let cached = false;

  /** out ← (∂L_d/∂q0, ∂L_d/∂q1, ∂L_d/∂z0) at (q0, q1, z0) by one dual pass. */
  const dualGradient = (
    out: Float64Array,
    q0: Float64Array,
    q1: Float64Array,
    z0: number,
    t: number,
  ): Float64Array => {
    for (let i = 0; i < n; i++) {
      d0[i] = new Dual(q0[i]!, units[i]!);
      d1[i] = new Dual(q1[i]!, units[n + i]!);
    }
    const y = g(DualOps, d0, d1, new Dual(z0, units[2 * n]!), t);
    for (let d = 0; d < k; d++) out[d] = finiteQuotient('dual gradient', y.d(d), d);
    return out;
  };
  /** The cached gradient at (q0, q1, z0, t). */
  const gradientAt = (q0: Float64Array, q1: Float64Array, z0: number, t: number): Float64Array => {
    checkPoint(what, n, q0, q1);
    if (cached && z0 === cz0 && t === ct) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = q0[i] === cq0[i] && q1[i] === cq1[i];
      if (same) return grad;
    }
    cached = false;
    dualGradient(grad, q0, q1, z0, t);
    cq0.set(q0);
    cq1.set(q1);
    cz0 = z0;
    ct = t;
    cached = true;
    return grad;
  };
  /** Column j of the q1-derivative of the gradient: gp − gm over the exact distance; returns it. */
  const differenceColumn = (
    q0: Float64Array,
    q1: Float64Array,
    z0: number,
    t: number,
    j: number,
  ): number => {
    w1.set(q1);
    const y = w1[j]!;
    const dy = qStep(step, h, y);
    const yp = y + dy;
    const ym = y - dy;
    w1[j] = yp;
    dualGradient(gp, q0, w1, z0, t);
    w1[j] = ym;
    dualGradient(gm, q0, w1, z0, t);
    return 1 / (yp - ym);
  };

  return Object.freeze({
    name,
    n,
    h,
    traits,
    Ld(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      checkPoint(what, n, q0, q1);
      for (let i = 0; i < n; i++) {
        a0[i] = q0[i]!;
        a1[i] = q1[i]!;
      }
      return g(NumberOps, a0, a1, z0, t);
    },
    D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      const gr = gradientAt(q0, q1, z0, t);
      for (let i = 0; i < n; i++) out[i] = gr[i]!;
      return out;
    },
    D2(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkOut(what, n, out);
      const gr = gradientAt(q0, q1, z0, t);
      for (let i = 0; i < n; i++) out[i] = gr[n + i]!;
      return out;
    },
    Dz(q0: Float64Array, q1: Float64Array, z0: number, t = 0): number {
      return gradientAt(q0, q1, z0, t)[2 * n]!;
    },
    D2D1(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n * n, out);
      for (let j = 0; j < n; j++) {
        const inv = differenceColumn(q0, q1, z0, t, j);
        for (let i = 0; i < n; i++) out[i * n + j] = (gp[i]! - gm[i]!) * inv;
      }
      return out;
    },
    D2Dz(out: Float64Array, q0: Float64Array, q1: Float64Array, z0: number, t = 0): Float64Array {
      checkPoint(what, n, q0, q1);
      checkOut(what, n, out);
      for (let j = 0; j < n; j++) {
        const inv = differenceColumn(q0, q1, z0, t, j);
        out[j] = (gp[2 * n]! - gm[2 * n]!) * inv;
      }
      return out;
    },
  });
}
