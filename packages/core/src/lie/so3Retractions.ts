/**
 * Closed-form retractions τ: so(3) → SO(3) (spec 003 §8.1–8.2) on {@link SO3}: the exponential
 * ({@link so3Exp}), the Cayley map ({@link so3Cayley}) and the plate-ball "sine" map
 * ({@link so3Skew}), each with its left- and right-trivialized tangents and their inverses, and
 * the Cayley and sine maps also as plain out-first functions. Nothing here allocates.
 *
 * Conventions: `packages/core/CONVENTIONS.md`. The papers' *left*-trivialized tangent is
 * T_xτ·δ = τ(x)·(dτ_x δ)^; the right-trivialized one T_xτ·δ = (dτᴿ_x δ)^·τ(x) satisfies
 * dτᴿ_x = dτ_{−x}, and dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}.
 *
 * @module
 */
import { DomainError, SingularMatrixError } from '../errors.js';
import { axisForm3, axisForm3Coef } from '../linalg/small.js';
import { check2, lengthError } from './internal.js';
import { SO3 } from './so3.js';
import type { Retraction } from './types.js';

function sq3(x: ArrayLike<number>): number {
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  return x0 * x0 + x1 * x1 + x2 * x2;
}

/**
 * Coefficients (a, b, c) of the axis forms of the hot maps (cay, τ_skew, dτ_skew, dτ⁻¹_skew), passed
 * to `axisForm3Coef` in an array: a double argument (or return value) of a call V8 does not inline
 * is boxed, 16 B per call in a stepping loop. For the same reason these maps compute |x|² inline
 * rather than through {@link sq3}.
 */
const COEF = new Float64Array(3);

// ---------------------------------------------------------------------------------------------
// exp

/**
 * τ = Exp on SO(3) (spec 003 §8.1): dτ = J_r (the papers' left-trivialized dexp), dτ⁻¹ = J_r⁻¹ =
 * I + x̂/2 + (1 − (θ/2)cot(θ/2))/θ²·x̂², dτᴿ = J_l, (dτᴿ)⁻¹ = J_l⁻¹ (manif eqs. 143–146).
 *
 * @example
 * ```ts
 * const g = so3Exp.tau(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
 * const dexpInv = so3Exp.dtauInv(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
 * ```
 */
export const so3Exp: Retraction = {
  name: 'exp',
  group: SO3,
  tau: (out, x) => SO3.exp(out, x),
  tauInv: (out, g) => SO3.log(out, g),
  dtau: (out, x) => SO3.rjac(out, x),
  dtauInv: (out, x) => SO3.rjacInv(out, x),
  dtauR: (out, x) => SO3.ljac(out, x),
  dtauRInv: (out, x) => SO3.ljacInv(out, x),
};

// ---------------------------------------------------------------------------------------------
// Cayley

/**
 * out ← cay(x) = (I − x̂/2)⁻¹(I + x̂/2) = I + 4/(4 + |x|²)·(x̂ + x̂²/2) (spec 003 §8.1), evaluated as
 * ((4 − |x|²)/(4 + |x|²))·I + (4/(4 + |x|²))·x̂ + (2/(4 + |x|²))·xxᵀ. Defined for every x; it is
 * the rotation by θ = 2·atan(|x|/2) about x/|x|.
 *
 * @example
 * ```ts
 * cay(new Float64Array(9), Float64Array.of(0, 0, 2)); // 90° about z
 * ```
 */
export function cay(out: Float64Array, x: ArrayLike<number>): Float64Array {
  check2('cay', 'out', out, 9, 'x', x, 3);
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  const n2 = x0 * x0 + x1 * x1 + x2 * x2;
  const k = 1 / (4 + n2);
  COEF[0] = (4 - n2) * k;
  COEF[1] = 4 * k;
  COEF[2] = 2 * k;
  return axisForm3Coef(out, x, COEF);
}

/**
 * out ← cay⁻¹(g) = 2(g − I)(g + I)⁻¹ = 2·vee(g − gᵀ)/(1 + tr g) (spec 003 §8.1).
 *
 * @throws DomainError when 1 + tr g ≤ 0, i.e. g is a rotation by π (outside cay's image).
 *
 * @example
 * ```ts
 * const x = Float64Array.of(0.1, -0.2, 0.3);
 * cayInv(new Float64Array(3), cay(new Float64Array(9), x)); // [0.1, -0.2, 0.3]
 * ```
 */
export function cayInv(out: Float64Array, g: ArrayLike<number>): Float64Array {
  check2('cayInv', 'out', out, 3, 'g', g, 9);
  const den = 1 + g[0]! + g[4]! + g[8]!;
  if (!(den > 0)) {
    throw new DomainError('cayInv: 1 + tr g', den, 'must be positive (g not a rotation by π)');
  }
  const k = 2 / den;
  const a = k * (g[7]! - g[5]!);
  const b = k * (g[2]! - g[6]!);
  const c = k * (g[3]! - g[1]!);
  out[0] = a;
  out[1] = b;
  out[2] = c;
  return out;
}

/**
 * out ← dcay_x = 2/(4 + |x|²)·(2I − x̂), the left-trivialized tangent of cay (spec 003 §8.1):
 * d/dε cay(x + εδ) = cay(x)·(dcay_x δ)^. The right-trivialized one is dcay_{−x}.
 *
 * @example
 * ```ts
 * dcay(new Float64Array(9), new Float64Array(3)); // I
 * ```
 */
export function dcay(out: Float64Array, x: ArrayLike<number>): Float64Array {
  check2('dcay', 'out', out, 9, 'x', x, 3);
  const k = 2 / (4 + sq3(x));
  return axisForm3(out, x, 2 * k, -k, 0);
}

/**
 * out ← dcay⁻¹_x = I + x̂/2 + xxᵀ/4, the inverse of {@link dcay} (left-trivialized, spec 003
 * §8.1). NOT the literature's I − x̂/2 + xxᵀ/4 (Kobilarov–Marsden, Bou-Rabee–Marsden), which is
 * the right-trivialized (dcayᴿ_x)⁻¹ = dcay⁻¹_{−x}.
 *
 * @example
 * ```ts
 * dcayInv(new Float64Array(9), Float64Array.of(0, 0, 1)); // [1,-0.5,0, 0.5,1,0, 0,0,1.25]
 * ```
 */
export function dcayInv(out: Float64Array, x: ArrayLike<number>): Float64Array {
  check2('dcayInv', 'out', out, 9, 'x', x, 3);
  return axisForm3(out, x, 1, 0.5, 0.25);
}

/**
 * The Cayley retraction on SO(3) in closed form (spec 003 §8.1): τ = {@link cay},
 * τ⁻¹ = {@link cayInv}, dτ = {@link dcay}, dτ⁻¹ = {@link dcayInv}, dτᴿ_x = dcay_{−x} =
 * 2/(4 + |x|²)(2I + x̂), (dτᴿ_x)⁻¹ = dcay⁻¹_{−x} = I − x̂/2 + xxᵀ/4.
 *
 * @example
 * ```ts
 * const g = so3Cayley.tau(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
 * ```
 */
export const so3Cayley: Retraction = {
  name: 'cay',
  group: SO3,
  tau: cay,
  tauInv: cayInv,
  dtau: dcay,
  dtauInv: dcayInv,
  dtauR(out, x) {
    check2('so3Cayley.dtauR', 'out', out, 9, 'x', x, 3);
    const k = 2 / (4 + sq3(x));
    return axisForm3(out, x, 2 * k, k, 0);
  },
  dtauRInv(out, x) {
    check2('so3Cayley.dtauRInv', 'out', out, 9, 'x', x, 3);
    return axisForm3(out, x, 1, -0.5, 0.25);
  },
};

// ---------------------------------------------------------------------------------------------
// The plate-ball "sine" map

/** Result slot of {@link skewCos} (a double returned from a call V8 does not inline is boxed). */
const SKEW_COS = new Float64Array(1);

/**
 * SKEW_COS[0] ← c = cos θ = √(1 − |s|²) of the near-identity branch, s checked to lie in the
 * closed unit ball; `open` also rejects |s| = 1.
 */
function skewCos(what: string, s: ArrayLike<number>, open: boolean): void {
  const s0 = s[0]!;
  const s1 = s[1]!;
  const s2 = s[2]!;
  const n2 = s0 * s0 + s1 * s1 + s2 * s2;
  if (!(n2 < 1 || (!open && n2 === 1))) {
    throw new DomainError(`${what}: |s|`, Math.sqrt(n2), open ? 'must be < 1' : 'must be ≤ 1');
  }
  SKEW_COS[0] = Math.sqrt(1 - n2);
}

/**
 * out ← τ_skew(s) = I + ŝ + ŝ²/(1 + √(1 − |s|²)) for |s| < 1 (spec 003 §8.2), the rotation on the
 * near-identity branch (θ < π/2) whose sine vector vee((g − gᵀ)/2) is s: with c = √(1 − |s|²) =
 * cos θ it is evaluated as c·I + ŝ + ssᵀ/(1 + c). τ_skew(−s) = τ_skew(s)ᵀ.
 *
 * @throws DomainError when |s| ≥ 1 (or s is not finite).
 *
 * @example
 * ```ts
 * tauSkew(new Float64Array(9), Float64Array.of(0, 0, Math.sin(0.3))); // rotation by 0.3 about z
 * ```
 */
export function tauSkew(out: Float64Array, s: ArrayLike<number>): Float64Array {
  check2('tauSkew', 'out', out, 9, 's', s, 3);
  skewCos('tauSkew', s, true);
  const c = SKEW_COS[0]!;
  COEF[0] = c;
  COEF[1] = 1;
  COEF[2] = 1 / (1 + c);
  return axisForm3Coef(out, s, COEF);
}

/**
 * out ← τ_skew⁻¹(g) = vee((g − gᵀ)/2) = sin θ·n for g = Exp(θn) (spec 003 §8.2; the i-th entry is
 * −½tr(g E_i)). Defined on all of SO(3), but it inverts {@link tauSkew} only on the near-identity
 * branch tr g > 1 (θ < π/2): the rotation by π − θ about n has the same image.
 *
 * @example
 * ```ts
 * const s = Float64Array.of(0.1, -0.2, 0.3);
 * tauSkewInv(new Float64Array(3), tauSkew(new Float64Array(9), s)); // [0.1, -0.2, 0.3]
 * ```
 */
export function tauSkewInv(out: Float64Array, g: ArrayLike<number>): Float64Array {
  check2('tauSkewInv', 'out', out, 3, 'g', g, 9);
  const a = 0.5 * (g[7]! - g[5]!);
  const b = 0.5 * (g[2]! - g[6]!);
  const c = 0.5 * (g[3]! - g[1]!);
  out[0] = a;
  out[1] = b;
  out[2] = c;
  return out;
}

/**
 * out ← dτ⁻¹_s = (tr(g)·I − gᵀ)/2 with g = τ_skew(s), the left-trivialized tangent of τ_skew⁻¹
 * (spec 003 §8.2); with c = √(1 − |s|²) it is ((1 + c)·I + ŝ − ssᵀ/(1 + c))/2. Accepts the closed
 * ball |s| ≤ 1: at |s| = 1 (θ = π/2) the matrix is finite but singular (det = c(1 + c)/2).
 *
 * @throws DomainError when |s| > 1.
 *
 * @example
 * ```ts
 * dtauSkewInv(new Float64Array(9), new Float64Array(3)); // I
 * ```
 */
export function dtauSkewInv(out: Float64Array, s: ArrayLike<number>): Float64Array {
  check2('dtauSkewInv', 'out', out, 9, 's', s, 3);
  skewCos('dtauSkewInv', s, false);
  const c = SKEW_COS[0]!;
  COEF[0] = 0.5 * (1 + c);
  COEF[1] = 0.5;
  COEF[2] = -0.5 / (1 + c);
  return axisForm3Coef(out, s, COEF);
}

/**
 * out ← dτ_s, the left-trivialized tangent of τ_skew (d/dε τ_skew(s + εδ) = g·(dτ_s δ)^), the
 * inverse of {@link dtauSkewInv}, in closed form: with c = √(1 − |s|²) = cos θ,
 *
 *   dτ_s = ((tr g·I − gᵀ)/2)⁻¹ = I − ŝ/(1 + c) + ssᵀ/(c(1 + c))
 *
 * (solve (pI + ŝ + q ssᵀ)(αI + βŝ + γssᵀ) = I with p = 1 + c, q = −1/(1 + c), using ŝ² = ssᵀ −
 * |s|²I and ŝs = 0; this equals `inv3` of {@link dtauSkewInv} to rounding, without its O(1/det)
 * cancellation).
 *
 * @throws SingularMatrixError at |s| = 1 (θ = π/2), where dτ⁻¹ is singular.
 * @throws DomainError when |s| > 1.
 *
 * @example
 * ```ts
 * dtauSkew(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
 * ```
 */
export function dtauSkew(out: Float64Array, s: ArrayLike<number>): Float64Array {
  check2('dtauSkew', 'out', out, 9, 's', s, 3);
  skewCos('dtauSkew', s, false);
  const c = SKEW_COS[0]!;
  if (c === 0) throw new SingularMatrixError('dtauSkew: (tr g I − gᵀ)/2 at θ = π/2', -1);
  const k = 1 / (1 + c);
  COEF[0] = 1;
  COEF[1] = -k;
  COEF[2] = k / c;
  return axisForm3Coef(out, s, COEF);
}

/** Scratch for the right-trivialized sine-map tangents (−s). */
const NEG = new Float64Array(3);

function negate3(x: ArrayLike<number>, what: string): Float64Array {
  if (x.length !== 3) lengthError(what, ['x'], [3], [x]);
  NEG[0] = -x[0]!;
  NEG[1] = -x[1]!;
  NEG[2] = -x[2]!;
  return NEG;
}

/**
 * The plate-ball "sine" retraction on SO(3) (spec 003 §8.2): τ = {@link tauSkew} (|s| < 1),
 * τ⁻¹ = {@link tauSkewInv}, dτ = {@link dtauSkew}, dτ⁻¹ = {@link dtauSkewInv} = (tr g I − gᵀ)/2,
 * dτᴿ_s = dτ_{−s}, (dτᴿ_s)⁻¹ = dτ⁻¹_{−s} = (tr g I − g)/2.
 *
 * @example
 * ```ts
 * const g = so3Skew.tau(new Float64Array(9), Float64Array.of(0.1, 0.2, 0.3));
 * so3Skew.tauInv(new Float64Array(3), g); // [0.1, 0.2, 0.3]
 * ```
 */
export const so3Skew: Retraction = {
  name: 'skew',
  group: SO3,
  tau: tauSkew,
  tauInv: tauSkewInv,
  dtau: dtauSkew,
  dtauInv: dtauSkewInv,
  dtauR: (out, x) => dtauSkew(out, negate3(x, 'so3Skew.dtauR')),
  dtauRInv: (out, x) => dtauSkewInv(out, negate3(x, 'so3Skew.dtauRInv')),
};
