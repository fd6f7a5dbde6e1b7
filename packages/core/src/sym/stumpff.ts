/**
 * Stumpff functions c_k(t) = Σ_{m≥0} (−t)^m/(2m + k)!: the smooth functions of t = θ² that
 * rotation and rigid-motion formulas are made of (K. Stumpff, *Himmelsmechanik* I (1959), §41;
 * J. M. A. Danby, *Fundamentals of Celestial Mechanics* (1988), §6.9). For t = θ² > 0
 *
 * - c₀(θ²) = cos θ, c₁(θ²) = sin θ/θ ("sinc2"), c₂(θ²) = (1 − cos θ)/θ² ("cosc2"),
 * - c₃(θ²) = (θ − sin θ)/θ³ ("sincc2"), c₄(θ²) = (cos θ − 1 + θ²/2)/θ⁴, …
 *
 * so SO(3)'s Exp(ω) = I + c₁(θ²)ω̂ + c₂(θ²)ω̂² and its right Jacobian I − c₂ω̂ + c₃ω̂² are entire
 * functions of ω: no branch on θ, and derivatives of every order exist at ω = 0. For t < 0 the
 * same series gives the hyperbolic forms (c₀ = cosh √−t, c₁ = sinh √−t/√−t, …).
 *
 * The family is closed under differentiation (termwise from the series):
 *
 *     d c_k/dt = (k·c_{k+2}(t) − c_{k+1}(t))/2,
 *
 * and satisfies c_k(t) = 1/k! − t·c_{k+2}(t), which gives the closed forms of c_k from c_{k−2}.
 *
 * @module
 */
import { STUMPFF_SERIES_MIN, STUMPFF_SERIES_NEGATIVE } from '../constants.js';
import { DomainError } from '../errors.js';

/** Largest order k accepted by {@link stumpff} (each derivative raises the order by at most 2). */
export const STUMPFF_MAX_ORDER = 40;

/** Factorials are needed up to (2m + k)! for the series terms; 2·60 + 40 covers every case. */
const MAX_FACTORIAL = 160;

/**
 * 1/n! for n = 0 … MAX_FACTORIAL, each correctly rounded to double: the integer quotient
 * ⌊2^s/n!⌋ with a sticky bit for a nonzero remainder is converted to Number (round to nearest
 * even), then scaled by 2^−s exactly.
 */
const INVERSE_FACTORIAL: Float64Array = (() => {
  const out = new Float64Array(MAX_FACTORIAL + 1);
  let f = 1n;
  for (let n = 0; n <= MAX_FACTORIAL; n++) {
    if (n > 0) f *= BigInt(n);
    const bits = f.toString(2).length;
    const s = bits + 64; // the quotient has 64 or 65 significant bits
    const num = 1n << BigInt(s);
    let q = num / f;
    if (q * f !== num) q |= 1n;
    out[n] = Number(q) * 2 ** -s;
  }
  return out;
})();

/**
 * The series radius of order k on the side of t: |t| ≤ max(STUMPFF_SERIES_MIN, k(k − 1)) for
 * t ≥ 0, |t| ≤ STUMPFF_SERIES_NEGATIVE for t < 0.
 *
 * @example
 * ```ts
 * stumpffSeriesRadius(3);     // 6: c₃(t) from its series for 0 ≤ t ≤ 6
 * stumpffSeriesRadius(3, -1); // 400
 * ```
 */
export function stumpffSeriesRadius(k: number, t = 1): number {
  return t < 0 ? STUMPFF_SERIES_NEGATIVE : Math.max(STUMPFF_SERIES_MIN, k * (k - 1));
}

/** Scratch of {@link stumpff}: the value passes through it to {@link stumpffTo}. */
const SCRATCH = new Float64Array(1);

/**
 * The Stumpff function c_k(t) = Σ_{m≥0} (−t)^m/(2m + k)! for an integer order 0 ≤ k ≤
 * {@link STUMPFF_MAX_ORDER} and any t (see the module comment for c₀ … c₄ in θ = √t).
 *
 * Evaluation (in {@link stumpffTo}): the Maclaurin series by Horner's rule for
 * |t| ≤ max(STUMPFF_SERIES_MIN, k(k − 1)) when t ≥ 0 (there its terms decrease from the first, so
 * no digits cancel) and for |t| ≤ STUMPFF_SERIES_NEGATIVE when t < 0 (all terms positive); beyond,
 * the closed forms c₀ = cos θ, c₁ = sin θ/θ, c₂ = (1 − cos θ)/θ² (or cosh, sinh) and the upward
 * recurrence c_k = (1/(k − 2)! − c_{k−2})/t, whose error grows by about k(k − 1)/|t| ≤ 1 a step
 * there. Measured against a 300-bit reference (test/sym/stumpff.test.ts), relative to c_k:
 * ≤ 3 ulp for t ≥ 0 and ≤ 4.5 ulp for −400 ≤ t < 0 (k ≤ 12), except near the zeros of c₀, c₁,
 * c₂ (θ = π/2, π, 2π), where the error is ≈ ε absolute (the rounding of θ = √t), and below
 * t = −400, where the rounding of θ costs up to θ ulp (the function's own sensitivity).
 *
 * @throws DomainError for an order that is not an integer in [0, STUMPFF_MAX_ORDER].
 * @example
 * ```ts
 * stumpff(1, 0.25);   // sin(0.5)/0.5 = 0.958851077208406
 * stumpff(2, 0);      // 1/2
 * stumpff(3, 1e-300); // 1/6
 * ```
 */
export function stumpff(k: number, t: number): number {
  if (!(Number.isInteger(k) && k >= 0 && k <= STUMPFF_MAX_ORDER)) {
    throw new DomainError('stumpff: order k', k, `an integer in [0, ${STUMPFF_MAX_ORDER}]`);
  }
  SCRATCH[0] = t;
  stumpffTo(k, SCRATCH, 0, SCRATCH, 0);
  return SCRATCH[0]!;
}

/**
 * dst[di] = c_k(src[si]) for a valid order k (unchecked): the allocation-free kernel of
 * {@link stumpff} that compiled symbolic functions call (no double crosses its call boundary, so
 * optimised callers allocate no heap numbers). One function without calls to other JavaScript
 * functions, so that the same operations run wherever it is called.
 *
 * @example
 * ```ts
 * const w = Float64Array.of(0.25, 0);
 * stumpffTo(1, w, 0, w, 1); // w[1] = sin(0.5)/0.5
 * ```
 */
export function stumpffTo(
  k: number,
  src: Float64Array,
  si: number,
  dst: Float64Array,
  di: number,
): void {
  const t = src[si]!;
  let c: number;
  if (Number.isNaN(t)) {
    c = Number.NaN;
  } else if (
    t < 0 ? -t <= STUMPFF_SERIES_NEGATIVE : t <= Math.max(STUMPFF_SERIES_MIN, k * (k - 1))
  ) {
    // Σ (−t)^m/(2m + k)! by Horner's rule, M the first index whose term is below 2⁻⁶⁰ of the
    // scale (the first term for t ≥ 0, where the terms decrease; the running sum for t < 0)
    const a = Math.abs(t);
    let term = INVERSE_FACTORIAL[k]!;
    let scale = term;
    let m = 0;
    while (term > scale * 2 ** -60 && 2 * m + k + 2 <= MAX_FACTORIAL) {
      m++;
      term = (term * a) / ((2 * m + k - 1) * (2 * m + k));
      if (t < 0) scale += term;
    }
    const x = -t;
    c = INVERSE_FACTORIAL[2 * m + k]!;
    for (let j = m - 1; j >= 0; j--) c = INVERSE_FACTORIAL[2 * j + k]! + x * c;
  } else {
    const s = Math.sqrt(Math.abs(t));
    let j: number;
    if (k === 0) {
      c = t > 0 ? Math.cos(s) : Math.cosh(s);
      j = k;
    } else if ((k & 1) === 1) {
      c = t > 0 ? Math.sin(s) / s : Math.sinh(s) / s;
      j = 1;
    } else {
      // c₂ = (1 − cos θ)/θ² outside the radius 2, where cos θ < 0.16: no cancellation
      c = t > 0 ? (1 - Math.cos(s)) / t : (Math.cosh(s) - 1) / -t;
      j = 2;
    }
    // upward: every order stays outside its series radius because the radius grows with k
    for (j += 2; j <= k; j += 2) c = (INVERSE_FACTORIAL[j - 2]! - c) / t;
  }
  dst[di] = c;
}

/**
 * d c_k/dt = (k·c_{k+2}(t) − c_{k+1}(t))/2 (termwise derivative of the series).
 *
 * @example
 * ```ts
 * stumpffDerivative(1, 0); // (c₃(0) − c₂(0))/2 = (1/6 − 1/2)/2 = −1/6
 * ```
 */
export function stumpffDerivative(k: number, t: number): number {
  return 0.5 * (k * stumpff(k + 2, t) - stumpff(k + 1, t));
}
