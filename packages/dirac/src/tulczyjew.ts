/**
 * Tulczyjew's triple on Q = Rⁿ (seed 002 §4, spec 002 §2, §3.7, §5.5): the canonical maps
 * κ_Q: TT*Q → T*TQ, Ω♭: TT*Q → T*T*Q, γ_Q = Ω♭∘κ_Q⁻¹: T*TQ → T*T*Q and their inverses, the bundle
 * projections of the commutation laws (4.1), (4.2), the canonical one-forms of Prop 4.2 and their
 * exterior derivatives, and the Dirac differential 𝔇L = γ_Q∘dL (6.1).
 *
 * **Representation.** A point is a small plain object of n-vectors named after the paper's local
 * coordinates (spec 002 §2, §5.5):
 *
 * | bundle | point | meaning |
 * |---|---|---|
 * | TQ | `{ q, v }` | |
 * | T*Q | `{ q, p }` | |
 * | TQ ⊕ T*Q | `{ q, v, p }` | Pontryagin bundle |
 * | TT*Q | `{ q, p, dq, dp }` | base (q, p), tangent (δq, δp) = (q̇, ṗ) |
 * | T*TQ | `{ q, v, a, b }` | base (q, v) ∈ TQ, covector a·dq + b·dv (a = δp, b = p in the paper) |
 * | T*T*Q | `{ q, p, alpha, w }` | base (q, p), covector α·dq + w·dp |
 *
 * The **flat form** of a point (coordinate vectors, one-form coefficient arrays, Jacobians, 2-form
 * matrices) is the concatenation of its fields in the order of the table, e.g. (q, p, δq, δp) ∈
 * R⁴ⁿ for TT*Q. The `…View(buffer, n, offset)` helpers build points whose fields are subarray views
 * of flat storage, so both forms coincide without copying.
 *
 * **Signs** (spec 002 §2, §7.1): Ω = dqⁱ∧dpᵢ = −dΘ, Θ = pᵢdqⁱ, Ω(x, y) = xᵀWy with
 * W = [[0, I], [−I, 0]] and Ω♭(u, α) = Ω((u, α), ·) = (−α, u). The maps are exact coordinate
 * shuffles and sign flips: no arithmetic other than negation, hence no tolerance.
 *
 * **Calling convention.** Every map comes as an allocating `f(x)` and an out-first `fInto(out, x)`
 * that copies into the arrays of an existing point and allocates nothing. `out` may share an array
 * with `x` only where that coordinate is copied onto itself (e.g. `out.q === x.q`).
 *
 * @module
 */
import { DimensionError } from '@geomech/core';
import type { Lagrangian } from './types.js';

// ---------------------------------------------------------------------------------------------
// point types

/** A point (q, v) of TQ. */
export interface TQPt {
  readonly q: Float64Array;
  readonly v: Float64Array;
}

/** A point (q, p) of T*Q. */
export interface TstarQPt {
  readonly q: Float64Array;
  readonly p: Float64Array;
}

/** A point (q, v, p) of the Pontryagin bundle TQ ⊕ T*Q. */
export interface PontryaginPt {
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly p: Float64Array;
}

/** A point (q, p, δq, δp) of TT*Q: the tangent vector (δq, δp) = (q̇, ṗ) at (q, p) ∈ T*Q. */
export interface TTstarQPt {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly dq: Float64Array;
  readonly dp: Float64Array;
}

/**
 * A point (q, v, a, b) of T*TQ: the covector a·dq + b·dv at (q, v) ∈ TQ. In the paper's
 * coordinates (q, δq, δp, p): v = δq, a = δp, b = p.
 */
export interface TstarTQPt {
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly a: Float64Array;
  readonly b: Float64Array;
}

/**
 * A point (q, p, α, w) of T*T*Q: the covector α·dq + w·dp at (q, p) ∈ T*Q; it pairs with
 * (u, β) ∈ T_{(q,p)}T*Q as ⟨α, u⟩ + ⟨β, w⟩.
 */
export interface TstarTstarQPt {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly alpha: Float64Array;
  readonly w: Float64Array;
}

// ---------------------------------------------------------------------------------------------
// views into flat storage

function block(buffer: Float64Array, n: number, offset: number, i: number): Float64Array {
  return buffer.subarray(offset + i * n, offset + (i + 1) * n);
}

function checkBuffer(
  what: string,
  buffer: Float64Array,
  n: number,
  blocks: number,
  offset: number,
) {
  if (!Number.isInteger(n) || n < 0) throw new DimensionError(`${what}: n`, 'integer >= 0', n);
  if (!Number.isInteger(offset) || offset < 0 || buffer.length < offset + blocks * n) {
    throw new DimensionError(
      `${what}: buffer`,
      `length >= offset + ${blocks}n = ${offset + blocks * n}`,
      buffer.length,
    );
  }
}

/**
 * A TQ point whose fields view `buffer[offset, offset + 2n)` in the order (q, v).
 *
 * @example
 * ```ts
 * const x = tqView(Float64Array.of(1, 2, 3, 4), 2); // x.q = [1, 2], x.v = [3, 4] (views)
 * ```
 */
export function tqView(buffer: Float64Array, n: number, offset = 0): TQPt {
  checkBuffer('tqView', buffer, n, 2, offset);
  return { q: block(buffer, n, offset, 0), v: block(buffer, n, offset, 1) };
}

/**
 * A T*Q point whose fields view `buffer[offset, offset + 2n)` in the order (q, p).
 *
 * @example
 * ```ts
 * const n = 1;
 * tstarQView(new Float64Array(2 * n), n); // a fresh point (q, p) = (0, 0)
 * ```
 */
export function tstarQView(buffer: Float64Array, n: number, offset = 0): TstarQPt {
  checkBuffer('tstarQView', buffer, n, 2, offset);
  return { q: block(buffer, n, offset, 0), p: block(buffer, n, offset, 1) };
}

/**
 * A TQ ⊕ T*Q point whose fields view `buffer[offset, offset + 3n)` in the order (q, v, p).
 *
 * @example
 * ```ts
 * const n = 1;
 * const z = pontryaginView(new Float64Array(3 * n), n);
 * ```
 */
export function pontryaginView(buffer: Float64Array, n: number, offset = 0): PontryaginPt {
  checkBuffer('pontryaginView', buffer, n, 3, offset);
  return {
    q: block(buffer, n, offset, 0),
    v: block(buffer, n, offset, 1),
    p: block(buffer, n, offset, 2),
  };
}

/**
 * A TT*Q point whose fields view `buffer[offset, offset + 4n)` in the order (q, p, δq, δp).
 *
 * @example
 * ```ts
 * const flat = Float64Array.of(1, 2, 3, 4); // n = 1
 * ttstarQView(flat, 1).dp[0]; // 4
 * ```
 */
export function ttstarQView(buffer: Float64Array, n: number, offset = 0): TTstarQPt {
  checkBuffer('ttstarQView', buffer, n, 4, offset);
  return {
    q: block(buffer, n, offset, 0),
    p: block(buffer, n, offset, 1),
    dq: block(buffer, n, offset, 2),
    dp: block(buffer, n, offset, 3),
  };
}

/**
 * A T*TQ point whose fields view `buffer[offset, offset + 4n)` in the order (q, v, a, b).
 *
 * @example
 * ```ts
 * const n = 1;
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * const y = tstarTQView(new Float64Array(4 * n), n);
 * kappaQInto(y, x); // writes κ_Q(x) into flat storage
 * ```
 */
export function tstarTQView(buffer: Float64Array, n: number, offset = 0): TstarTQPt {
  checkBuffer('tstarTQView', buffer, n, 4, offset);
  return {
    q: block(buffer, n, offset, 0),
    v: block(buffer, n, offset, 1),
    a: block(buffer, n, offset, 2),
    b: block(buffer, n, offset, 3),
  };
}

/**
 * A T*T*Q point whose fields view `buffer[offset, offset + 4n)` in the order (q, p, α, w).
 *
 * @example
 * ```ts
 * const n = 1;
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * const y = tstarTstarQView(new Float64Array(4 * n), n);
 * omegaFlatInto(y, x);
 * ```
 */
export function tstarTstarQView(buffer: Float64Array, n: number, offset = 0): TstarTstarQPt {
  checkBuffer('tstarTstarQView', buffer, n, 4, offset);
  return {
    q: block(buffer, n, offset, 0),
    p: block(buffer, n, offset, 1),
    alpha: block(buffer, n, offset, 2),
    w: block(buffer, n, offset, 3),
  };
}

// ---------------------------------------------------------------------------------------------
// copying kernels (private)

function copy(what: string, out: Float64Array, x: Float64Array, n: number): void {
  if (x.length !== n) throw new DimensionError(`${what}: input`, n, x.length);
  if (out.length !== n) throw new DimensionError(`${what}: out`, n, out.length);
  if (out !== x) out.set(x);
}

function neg(what: string, out: Float64Array, x: Float64Array, n: number): void {
  if (x.length !== n) throw new DimensionError(`${what}: input`, n, x.length);
  if (out.length !== n) throw new DimensionError(`${what}: out`, n, out.length);
  for (let i = 0; i < n; i++) out[i] = -x[i]!;
}

// ---------------------------------------------------------------------------------------------
// κ_Q, Ω♭, γ_Q and inverses

/**
 * κ_Q(q, p, δq, δp) = (q, δq, δp, p): TT*Q → T*TQ (Prop 4.1), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * kappaQInto(tstarTQView(buf, n), x); // out-first, no allocation
 * ```
 */
export function kappaQInto(out: TstarTQPt, x: TTstarQPt): TstarTQPt {
  const n = x.q.length;
  copy('kappaQ: q', out.q, x.q, n);
  copy('kappaQ: v ← δq', out.v, x.dq, n);
  copy('kappaQ: a ← δp', out.a, x.dp, n);
  copy('kappaQ: b ← p', out.b, x.p, n);
  return out;
}

/**
 * κ_Q(q, p, δq, δp) = (q, v = δq, a = δp, b = p) (Prop 4.1): the unique map with
 * π_{TQ}∘κ_Q = Tπ_Q (4.1) and π¹∘κ_Q = τ_{T*Q} (4.2).
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const p = Float64Array.of(2);
 * const dq = Float64Array.of(3);
 * const dp = Float64Array.of(4);
 * const y = kappaQ({ q, p, dq, dp }); // y.v === copy of dq, y.a of dp, y.b of p
 * ```
 */
export function kappaQ(x: TTstarQPt): TstarTQPt {
  return kappaQInto(tstarTQView(new Float64Array(4 * x.q.length), x.q.length), x);
}

/**
 * κ_Q⁻¹(q, v, a, b) = (q, p = b, δq = v, δp = a), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = kappaQ(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, v, a, b) = (1, 3, 4, 2)
 * kappaQInvInto(ttstarQView(buf, n), y);
 * ```
 */
export function kappaQInvInto(out: TTstarQPt, y: TstarTQPt): TTstarQPt {
  const n = y.q.length;
  copy('kappaQInv: q', out.q, y.q, n);
  copy('kappaQInv: p ← b', out.p, y.b, n);
  copy('kappaQInv: δq ← v', out.dq, y.v, n);
  copy('kappaQInv: δp ← a', out.dp, y.a, n);
  return out;
}

/**
 * κ_Q⁻¹(q, v, a, b) = (q, b, v, a): T*TQ → TT*Q (spec 002 §3.7).
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * kappaQInv(kappaQ(x)); // equals x exactly
 * ```
 */
export function kappaQInv(y: TstarTQPt): TTstarQPt {
  return kappaQInvInto(ttstarQView(new Float64Array(4 * y.q.length), y.q.length), y);
}

/**
 * Ω♭(q, p, δq, δp) = (q, p, α = −δp, w = δq), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * omegaFlatInto(tstarTstarQView(buf, n), x);
 * ```
 */
export function omegaFlatInto(out: TstarTstarQPt, x: TTstarQPt): TstarTstarQPt {
  const n = x.q.length;
  copy('omegaFlat: q', out.q, x.q, n);
  copy('omegaFlat: p', out.p, x.p, n);
  neg('omegaFlat: α ← −δp', out.alpha, x.dp, n);
  copy('omegaFlat: w ← δq', out.w, x.dq, n);
  return out;
}

/**
 * Ω♭(q, p, δq, δp) = (q, p, −δp, δq): TT*Q → T*T*Q, the flat map of Ω = dq∧dp (seed 002 §4, §5.3),
 * the unique map with π_{T*Q}∘Ω♭ = τ_{T*Q} and π²∘Ω♭ = Tπ_Q.
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const p = Float64Array.of(2);
 * const y = omegaFlat({ q, p, dq: Float64Array.of(1), dp: Float64Array.of(2) });
 * // y.alpha = [-2], y.w = [1]
 * ```
 */
export function omegaFlat(x: TTstarQPt): TstarTstarQPt {
  return omegaFlatInto(tstarTstarQView(new Float64Array(4 * x.q.length), x.q.length), x);
}

/**
 * (Ω♭)⁻¹(q, p, α, w) = (q, p, δq = w, δp = −α), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * omegaFlatInvInto(ttstarQView(buf, n), y);
 * ```
 */
export function omegaFlatInvInto(out: TTstarQPt, y: TstarTstarQPt): TTstarQPt {
  const n = y.q.length;
  copy('omegaFlatInv: q', out.q, y.q, n);
  copy('omegaFlatInv: p', out.p, y.p, n);
  copy('omegaFlatInv: δq ← w', out.dq, y.w, n);
  neg('omegaFlatInv: δp ← −α', out.dp, y.alpha, n);
  return out;
}

/**
 * (Ω♭)⁻¹(q, p, α, w) = (q, p, w, −α): T*T*Q → TT*Q, the canonical Poisson map B♯ (spec 002 §3.7).
 * For a Hamiltonian, B♯(dH) = (∂H/∂p, −∂H/∂q) is Hamilton's vector field.
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const p = Float64Array.of(2);
 * // H = ½p² + ½q² at (q, p) = (1, 2): dH = (α, w) = (1, 2)
 * omegaFlatInv({ q, p, alpha: Float64Array.of(1), w: Float64Array.of(2) }); // (δq, δp) = (2, -1)
 * ```
 */
export function omegaFlatInv(y: TstarTstarQPt): TTstarQPt {
  return omegaFlatInvInto(ttstarQView(new Float64Array(4 * y.q.length), y.q.length), y);
}

/**
 * The canonical Poisson map B♯ = (Ω♭)⁻¹ (spec 002 §3.5, §3.8); alias of {@link omegaFlatInv}.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * poissonSharp(omegaFlat(x)); // equals x exactly
 * ```
 */
export const poissonSharp: typeof omegaFlatInv = omegaFlatInv;

/**
 * Out-first B♯ = (Ω♭)⁻¹; alias of {@link omegaFlatInvInto}.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * poissonSharpInto(ttstarQView(buf, n), y).dq; // [3]
 * ```
 */
export const poissonSharpInto: typeof omegaFlatInvInto = omegaFlatInvInto;

/**
 * γ_Q(q, v, a, b) = (q, p = b, α = −a, w = v), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const dL = differential(quadraticLagrangian([1], [1]), Float64Array.of(1), Float64Array.of(2));
 * gammaQInto(tstarTstarQView(buf, n), dL);
 * ```
 */
export function gammaQInto(out: TstarTstarQPt, y: TstarTQPt): TstarTstarQPt {
  const n = y.q.length;
  copy('gammaQ: q', out.q, y.q, n);
  copy('gammaQ: p ← b', out.p, y.b, n);
  neg('gammaQ: α ← −a', out.alpha, y.a, n);
  copy('gammaQ: w ← v', out.w, y.v, n);
  return out;
}

/**
 * γ_Q = Ω♭∘κ_Q⁻¹: T*TQ → T*T*Q, locally (q, δq, δp, p) ↦ (q, p, −δp, δq) (seed 002 §6). Under
 * Ω = −dΘ on both cotangent bundles it is **anti**-symplectic: γ_Q*Ω_{T*T*Q} = −Ω_{T*TQ}
 * (spec 002 §3.7; the paper's "symplectomorphism" holds only up to sign).
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const v = Float64Array.of(2);
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * gammaQ(differential(L, q, v)); // = diracDifferential(L, q, v) (6.1)
 * ```
 */
export function gammaQ(y: TstarTQPt): TstarTstarQPt {
  return gammaQInto(tstarTstarQView(new Float64Array(4 * y.q.length), y.q.length), y);
}

/**
 * σ_Q(q, p, α, w) = (q, v = w, a = −α, b = p), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * sigmaQInto(tstarTQView(buf, n), y);
 * ```
 */
export function sigmaQInto(out: TstarTQPt, y: TstarTstarQPt): TstarTQPt {
  const n = y.q.length;
  copy('sigmaQ: q', out.q, y.q, n);
  copy('sigmaQ: v ← w', out.v, y.w, n);
  neg('sigmaQ: a ← −α', out.a, y.alpha, n);
  copy('sigmaQ: b ← p', out.b, y.p, n);
  return out;
}

/**
 * σ_Q = κ_Q∘(Ω♭)⁻¹ = γ_Q⁻¹: T*T*Q → T*TQ, (q, p, α, w) ↦ (q, w, −α, p) (seed 002 §5 Remarks).
 *
 * @example
 * ```ts
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * gammaQ(sigmaQ(y)); // equals y exactly
 * ```
 */
export function sigmaQ(y: TstarTstarQPt): TstarTQPt {
  return sigmaQInto(tstarTQView(new Float64Array(4 * y.q.length), y.q.length), y);
}

// ---------------------------------------------------------------------------------------------
// projections

/**
 * Tπ_Q(q, p, δq, δp) = (q, δq): TT*Q → TQ, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * TpiQInto(tqView(buf, n), x);
 * ```
 */
export function TpiQInto(out: TQPt, x: TTstarQPt): TQPt {
  const n = x.q.length;
  copy('TpiQ: q', out.q, x.q, n);
  copy('TpiQ: v ← δq', out.v, x.dq, n);
  return out;
}

/**
 * Tπ_Q: TT*Q → TQ, (q, p, δq, δp) ↦ (q, δq) (spec 002 §3.7).
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * TpiQ(x); // { q: x.q (copy), v: x.dq (copy) }
 * ```
 */
export function TpiQ(x: TTstarQPt): TQPt {
  return TpiQInto(tqView(new Float64Array(2 * x.q.length), x.q.length), x);
}

/**
 * π_{TQ}(q, v, a, b) = (q, v): T*TQ → TQ, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = kappaQ(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, v, a, b) = (1, 3, 4, 2)
 * piTQInto(tqView(buf, n), y);
 * ```
 */
export function piTQInto(out: TQPt, y: TstarTQPt): TQPt {
  const n = y.q.length;
  copy('piTQ: q', out.q, y.q, n);
  copy('piTQ: v', out.v, y.v, n);
  return out;
}

/**
 * π_{TQ}: T*TQ → TQ, (q, v, a, b) ↦ (q, v), the cotangent projection; (4.1) reads
 * π_{TQ}∘κ_Q = Tπ_Q.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * piTQ(kappaQ(x)); // = TpiQ(x)
 * ```
 */
export function piTQ(y: TstarTQPt): TQPt {
  return piTQInto(tqView(new Float64Array(2 * y.q.length), y.q.length), y);
}

/**
 * τ_{T*Q}(q, p, δq, δp) = (q, p): TT*Q → T*Q, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * tauTstarQInto(tstarQView(buf, n), x);
 * ```
 */
export function tauTstarQInto(out: TstarQPt, x: TTstarQPt): TstarQPt {
  const n = x.q.length;
  copy('tauTstarQ: q', out.q, x.q, n);
  copy('tauTstarQ: p', out.p, x.p, n);
  return out;
}

/**
 * τ_{T*Q}: TT*Q → T*Q, (q, p, δq, δp) ↦ (q, p), the tangent projection.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * tauTstarQ(x); // the base point of x
 * ```
 */
export function tauTstarQ(x: TTstarQPt): TstarQPt {
  return tauTstarQInto(tstarQView(new Float64Array(2 * x.q.length), x.q.length), x);
}

/**
 * π¹(q, v, a, b) = (q, b): T*TQ → T*Q, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = kappaQ(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, v, a, b) = (1, 3, 4, 2)
 * pi1Into(tstarQView(buf, n), y);
 * ```
 */
export function pi1Into(out: TstarQPt, y: TstarTQPt): TstarQPt {
  const n = y.q.length;
  copy('pi1: q', out.q, y.q, n);
  copy('pi1: p ← b', out.p, y.b, n);
  return out;
}

/**
 * π¹: T*TQ → T*Q, (q, v, a, b) ↦ (q, b): the covector restricted to vertical vectors,
 * ⟨π¹(α_v), u⟩ = ⟨α_v, ver(u, v)⟩ (seed 002 §4); (4.2) reads π¹∘κ_Q = τ_{T*Q}.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * pi1(kappaQ(x)); // = tauTstarQ(x)
 * ```
 */
export function pi1(y: TstarTQPt): TstarQPt {
  return pi1Into(tstarQView(new Float64Array(2 * y.q.length), y.q.length), y);
}

/**
 * π_{T*Q}(q, p, α, w) = (q, p): T*T*Q → T*Q, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * piTstarQInto(tstarQView(buf, n), y);
 * ```
 */
export function piTstarQInto(out: TstarQPt, y: TstarTstarQPt): TstarQPt {
  const n = y.q.length;
  copy('piTstarQ: q', out.q, y.q, n);
  copy('piTstarQ: p', out.p, y.p, n);
  return out;
}

/**
 * π_{T*Q}: T*T*Q → T*Q, (q, p, α, w) ↦ (q, p), the cotangent projection; π_{T*Q}∘Ω♭ = τ_{T*Q}.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * piTstarQ(omegaFlat(x)); // = tauTstarQ(x)
 * ```
 */
export function piTstarQ(y: TstarTstarQPt): TstarQPt {
  return piTstarQInto(tstarQView(new Float64Array(2 * y.q.length), y.q.length), y);
}

/**
 * π²(q, p, α, w) = (q, w): T*T*Q → TQ, written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * pi2Into(tqView(buf, n), y);
 * ```
 */
export function pi2Into(out: TQPt, y: TstarTstarQPt): TQPt {
  const n = y.q.length;
  copy('pi2: q', out.q, y.q, n);
  copy('pi2: v ← w', out.v, y.w, n);
  return out;
}

/**
 * π² = Tπ_Q∘(Ω♭)⁻¹: T*T*Q → TQ, (q, p, α, w) ↦ (q, w) (spec 002 §3.7); π²∘Ω♭ = Tπ_Q.
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * pi2(omegaFlat(x)); // = TpiQ(x)
 * ```
 */
export function pi2(y: TstarTstarQPt): TQPt {
  return pi2Into(tqView(new Float64Array(2 * y.q.length), y.q.length), y);
}

/**
 * ρ_{T*TQ}(q, v, a, b) = (q, v, b), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = kappaQ(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, v, a, b) = (1, 3, 4, 2)
 * rhoTstarTQInto(pontryaginView(buf, n), y);
 * ```
 */
export function rhoTstarTQInto(out: PontryaginPt, y: TstarTQPt): PontryaginPt {
  const n = y.q.length;
  copy('rhoTstarTQ: q', out.q, y.q, n);
  copy('rhoTstarTQ: v', out.v, y.v, n);
  copy('rhoTstarTQ: p ← b', out.p, y.b, n);
  return out;
}

/**
 * ρ_{T*TQ} = π_{TQ} ⊕ (τ_{T*Q}∘κ_Q⁻¹): T*TQ → TQ ⊕ T*Q, (q, δq, δp, p) ↦ (q, δq, p); it drops
 * δp (the paper calls it an "embedding", but it is a projection; spec 002 §3.7, §7.13).
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const v = Float64Array.of(2);
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * rhoTstarTQ(differential(L, q, v)); // (q, v, ∂L/∂v)
 * ```
 */
export function rhoTstarTQ(y: TstarTQPt): PontryaginPt {
  return rhoTstarTQInto(pontryaginView(new Float64Array(3 * y.q.length), y.q.length), y);
}

/**
 * ρ_{TT*Q}(q, p, δq, δp) = (q, δq, p), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * rhoTTstarQInto(pontryaginView(buf, n), x);
 * ```
 */
export function rhoTTstarQInto(out: PontryaginPt, x: TTstarQPt): PontryaginPt {
  const n = x.q.length;
  copy('rhoTTstarQ: q', out.q, x.q, n);
  copy('rhoTTstarQ: v ← δq', out.v, x.dq, n);
  copy('rhoTTstarQ: p', out.p, x.p, n);
  return out;
}

/**
 * ρ_{TT*Q} = ρ_{T*TQ}∘κ_Q: TT*Q → TQ ⊕ T*Q, (q, p, δq, δp) ↦ (q, δq, p) (spec 002 §3.7).
 *
 * @example
 * ```ts
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * rhoTTstarQ(x); // = rhoTstarTQ(kappaQ(x))
 * ```
 */
export function rhoTTstarQ(x: TTstarQPt): PontryaginPt {
  return rhoTTstarQInto(pontryaginView(new Float64Array(3 * x.q.length), x.q.length), x);
}

/**
 * ρ_{T*T*Q}(q, p, α, w) = (q, w, p), written into `out`.
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * rhoTstarTstarQInto(pontryaginView(buf, n), y);
 * ```
 */
export function rhoTstarTstarQInto(out: PontryaginPt, y: TstarTstarQPt): PontryaginPt {
  const n = y.q.length;
  copy('rhoTstarTstarQ: q', out.q, y.q, n);
  copy('rhoTstarTstarQ: v ← w', out.v, y.w, n);
  copy('rhoTstarTstarQ: p', out.p, y.p, n);
  return out;
}

/**
 * ρ_{T*T*Q} = ρ_{TT*Q}∘(Ω♭)⁻¹ = ρ_{T*TQ}∘σ_Q: T*T*Q → TQ ⊕ T*Q, (q, p, α, w) ↦ (q, w, p)
 * (seed 002 §5; spec 002 §3.7). The paper prints ρ_{T*TQ}∘(Ω♭)⁻¹, which does not compose:
 * (Ω♭)⁻¹ lands in TT*Q, not T*TQ. Its printed local form (q, p, −δp, δq) ↦ (q, δq, p) is the one
 * implemented here.
 *
 * @example
 * ```ts
 * const q = Float64Array.of(1);
 * const v = Float64Array.of(2);
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * rhoTstarTstarQ(diracDifferential(L, q, v)); // (q, v, ∂L/∂v)
 * ```
 */
export function rhoTstarTstarQ(y: TstarTstarQPt): PontryaginPt {
  return rhoTstarTstarQInto(pontryaginView(new Float64Array(3 * y.q.length), y.q.length), y);
}

// ---------------------------------------------------------------------------------------------
// canonical one-forms (Prop 4.2) as coefficient arrays, and their exterior derivatives

function checkOut(what: string, out: Float64Array, len: number): void {
  if (out.length !== len) throw new DimensionError(`${what}: out`, len, out.length);
}

function checkPointLengths(what: string, n: number, ...fields: Float64Array[]): void {
  for (const f of fields) if (f.length !== n) throw new DimensionError(what, n, f.length);
}

/**
 * Θ_{T*TQ} = a·dq + b·dv at (q, v, a, b): out ← its coefficients (a, b, 0, 0) ∈ R⁴ⁿ in the flat
 * coordinate order (q, v, a, b) (seed 002 §4).
 *
 * @example
 * ```ts
 * const n = 1;
 * const y = kappaQ(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, v, a, b) = (1, 3, 4, 2)
 * thetaTstarTQ(new Float64Array(4 * n), y); // [y.a, y.b, 0, 0]
 * ```
 */
export function thetaTstarTQ(out: Float64Array, y: TstarTQPt): Float64Array {
  const n = y.q.length;
  checkPointLengths('thetaTstarTQ: point', n, y.v, y.a, y.b);
  checkOut('thetaTstarTQ', out, 4 * n);
  out.fill(0);
  out.set(y.a, 0);
  out.set(y.b, n);
  return out;
}

/**
 * Θ_{T*T*Q} = α·dq + w·dp at (q, p, α, w): out ← (α, w, 0, 0) ∈ R⁴ⁿ in the order (q, p, α, w).
 *
 * @example
 * ```ts
 * const n = 1;
 * const y = omegaFlat(ttstarQView(Float64Array.of(1, 2, 3, 4), 1)); // (q, p, α, w) = (1, 2, −4, 3)
 * thetaTstarTstarQ(new Float64Array(4 * n), y); // [y.alpha, y.w, 0, 0]
 * ```
 */
export function thetaTstarTstarQ(out: Float64Array, y: TstarTstarQPt): Float64Array {
  const n = y.q.length;
  checkPointLengths('thetaTstarTstarQ: point', n, y.p, y.alpha, y.w);
  checkOut('thetaTstarTstarQ', out, 4 * n);
  out.fill(0);
  out.set(y.alpha, 0);
  out.set(y.w, n);
  return out;
}

/**
 * λ = δp·dq + p·dδq = κ_Q*Θ_{T*TQ} at (q, p, δq, δp) (Prop 4.2): out ← (δp, 0, p, 0) ∈ R⁴ⁿ in the
 * order (q, p, δq, δp).
 *
 * @example
 * ```ts
 * const n = 1;
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * lambdaTTstarQ(new Float64Array(4 * n), x); // [x.dp, 0, x.p, 0]
 * ```
 */
export function lambdaTTstarQ(out: Float64Array, x: TTstarQPt): Float64Array {
  const n = x.q.length;
  checkPointLengths('lambdaTTstarQ: point', n, x.p, x.dq, x.dp);
  checkOut('lambdaTTstarQ', out, 4 * n);
  out.fill(0);
  out.set(x.dp, 0);
  out.set(x.p, 2 * n);
  return out;
}

/**
 * χ = −δp·dq + δq·dp = (Ω♭)*Θ_{T*T*Q} at (q, p, δq, δp) (Prop 4.2; the paper prints "(Ω^p)*"):
 * out ← (−δp, δq, 0, 0) ∈ R⁴ⁿ in the order (q, p, δq, δp).
 *
 * @example
 * ```ts
 * const n = 1;
 * const x = ttstarQView(Float64Array.of(1, 2, 3, 4), 1); // (q, p, δq, δp)
 * chiTTstarQ(new Float64Array(4 * n), x); // [-x.dp, x.dq, 0, 0]
 * ```
 */
export function chiTTstarQ(out: Float64Array, x: TTstarQPt): Float64Array {
  const n = x.q.length;
  checkPointLengths('chiTTstarQ: point', n, x.p, x.dq, x.dp);
  checkOut('chiTTstarQ', out, 4 * n);
  out.fill(0);
  for (let i = 0; i < n; i++) out[i] = -x.dp[i]!;
  out.set(x.dq, n);
  return out;
}

function checkN(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new DimensionError(`${what}: n`, 'integer >= 0', n);
}

/** 4n×4n matrix with +I in block (r, c) and −I in block (c, r): the 2-form dx_r∧dx_c. */
function addWedge(K: Float64Array, n: number, r: number, c: number, sign: number): void {
  const N = 4 * n;
  for (let i = 0; i < n; i++) {
    K[(r * n + i) * N + c * n + i] = K[(r * n + i) * N + c * n + i]! + sign;
    K[(c * n + i) * N + r * n + i] = K[(c * n + i) * N + r * n + i]! - sign;
  }
}

/*
 * Matrix convention for 2-forms on the 4n-dimensional bundles: ω(X, Y) = Xᵀ K Y with
 * (dxⁱ∧dxʲ)(X, Y) = XⁱYʲ − XʲYⁱ; for θ = c_j dxʲ, (dθ)_ij = ∂_i c_j − ∂_j c_i.
 */

/**
 * dΘ_{T*TQ} = da∧dq + db∧dv as a 4n×4n skew matrix in the order (q, v, a, b), with the convention
 * ω(X, Y) = XᵀKY, (dxⁱ∧dxʲ)(X, Y) = XⁱYʲ − XʲYⁱ, (dθ)_ij = ∂_i θ_j − ∂_j θ_i. The canonical
 * symplectic form is Ω_{T*TQ} = −dΘ_{T*TQ} = [[0, I], [−I, 0]] (blocks of 2n).
 *
 * @example
 * ```ts
 * dThetaTstarTQ(1); // 4×4: entry (a, q) = +1, (q, a) = −1, (b, v) = +1, (v, b) = −1
 * ```
 */
export function dThetaTstarTQ(n: number): Float64Array {
  checkN('dThetaTstarTQ', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 2, 0, 1); // da∧dq
  addWedge(K, n, 3, 1, 1); // db∧dv
  return K;
}

/**
 * dΘ_{T*T*Q} = dα∧dq + dw∧dp (4n×4n, order (q, p, α, w), convention of {@link dThetaTstarTQ});
 * Ω_{T*T*Q} = −dΘ_{T*T*Q}.
 *
 * @example
 * ```ts
 * const n = 1;
 * dThetaTstarTstarQ(n); // = dThetaTstarTQ(n) entrywise (same block pattern)
 * ```
 */
export function dThetaTstarTstarQ(n: number): Float64Array {
  checkN('dThetaTstarTstarQ', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 2, 0, 1); // dα∧dq
  addWedge(K, n, 3, 1, 1); // dw∧dp
  return K;
}

/**
 * dλ = dδp∧dq + dp∧dδq (4n×4n, order (q, p, δq, δp), convention of {@link dThetaTstarTQ});
 * −dλ = Ω_{TT*Q} (Prop 4.2).
 *
 * @example
 * ```ts
 * const n = 1;
 * dLambda(n); // = −omegaTTstarQ(n)
 * ```
 */
export function dLambda(n: number): Float64Array {
  checkN('dLambda', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 3, 0, 1); // dδp∧dq
  addWedge(K, n, 1, 2, 1); // dp∧dδq
  return K;
}

/**
 * dχ = −dδp∧dq + dδq∧dp = dq∧dδp + dδq∧dp (4n×4n, order (q, p, δq, δp), convention of
 * {@link dThetaTstarTQ}); dχ = Ω_{TT*Q} (Prop 4.2).
 *
 * @example
 * ```ts
 * const n = 1;
 * dChi(n); // = omegaTTstarQ(n) = −dLambda(n)
 * ```
 */
export function dChi(n: number): Float64Array {
  checkN('dChi', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 0, 3, 1); // dq∧dδp
  addWedge(K, n, 2, 1, 1); // dδq∧dp
  return K;
}

/**
 * Ω_{T*TQ} = −dΘ_{T*TQ} = dq∧da + dv∧db (4n×4n, order (q, v, a, b)).
 *
 * @example
 * ```ts
 * const n = 1;
 * omegaTstarTQ(n); // = canonicalSymplecticMatrix(2n): [[0, I₂ₙ], [−I₂ₙ, 0]]
 * ```
 */
export function omegaTstarTQ(n: number): Float64Array {
  checkN('omegaTstarTQ', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 0, 2, 1);
  addWedge(K, n, 1, 3, 1);
  return K;
}

/**
 * Ω_{T*T*Q} = −dΘ_{T*T*Q} = dq∧dα + dp∧dw (4n×4n, order (q, p, α, w)).
 *
 * @example
 * ```ts
 * const n = 1;
 * omegaTstarTstarQ(n); // = canonicalSymplecticMatrix(2n)
 * ```
 */
export function omegaTstarTstarQ(n: number): Float64Array {
  checkN('omegaTstarTstarQ', n);
  const K = new Float64Array(16 * n * n);
  addWedge(K, n, 0, 2, 1);
  addWedge(K, n, 1, 3, 1);
  return K;
}

/**
 * Ω_{TT*Q} = dχ = −dλ = dq∧dδp + dδq∧dp (Prop 4.2; 4n×4n, order (q, p, δq, δp)). κ_Q pulls
 * Ω_{T*TQ} back to it; Ω♭ pulls Ω_{T*T*Q} back to its negative (spec 002 §3.7).
 *
 * @example
 * ```ts
 * const n = 1;
 * omegaTTstarQ(n); // = dChi(n)
 * ```
 */
export function omegaTTstarQ(n: number): Float64Array {
  return dChi(n);
}

// ---------------------------------------------------------------------------------------------
// the canonical form on a fibre T_{(q,p)}T*Q

/**
 * W = [[0, I], [−I, 0]] (2n×2n row-major): Ω(x, y) = xᵀWy on T_{(q,p)}T*Q ≅ R²ⁿ in the ordering
 * (u; α) = (q̇; ṗ) (spec 002 §2).
 *
 * @example
 * ```ts
 * canonicalSymplecticMatrix(1); // [0, 1, -1, 0]
 * ```
 */
export function canonicalSymplecticMatrix(n: number): Float64Array {
  checkN('canonicalSymplecticMatrix', n);
  const W = new Float64Array(4 * n * n);
  for (let i = 0; i < n; i++) {
    W[i * 2 * n + n + i] = 1;
    W[(n + i) * 2 * n + i] = -1;
  }
  return W;
}

/**
 * Ω(x, y) = xᵀWy = ⟨α₂, u₁⟩ − ⟨α₁, u₂⟩ for x = (u₁; α₁), y = (u₂; α₂) ∈ T_{(q,p)}T*Q
 * (seed 002 §6, case Δ_Q = TQ).
 *
 * @example
 * ```ts
 * canonicalOmega([1, 0], [0, 1]); // 1: Ω(∂_q, ∂_p) = 1 for Ω = dq∧dp
 * ```
 */
export function canonicalOmega(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length || x.length % 2 !== 0) {
    throw new DimensionError(
      'canonicalOmega: vectors',
      'equal even lengths',
      `${x.length}, ${y.length}`,
    );
  }
  const n = x.length / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += y[n + i]! * x[i]! - x[n + i]! * y[i]!;
  return s;
}

/**
 * Ω♭(u; α) = Ω((u; α), ·) = Wᵀ(u; α) = (−α; u): a tangent vector (q̇; ṗ) ∈ R²ⁿ to the covector
 * (α; w) ∈ R²ⁿ (spec 002 §2). `out` must not alias `x`.
 *
 * @example
 * ```ts
 * canonicalFlat(new Float64Array(2), [1, 2]); // [-2, 1]
 * ```
 */
export function canonicalFlat(out: Float64Array, x: ArrayLike<number>): Float64Array {
  if (x.length % 2 !== 0) throw new DimensionError('canonicalFlat: x', 'even length', x.length);
  checkOut('canonicalFlat', out, x.length);
  const n = x.length / 2;
  for (let i = 0; i < n; i++) {
    out[i] = -x[n + i]!;
    out[n + i] = x[i]!;
  }
  return out;
}

/**
 * (Ω♭)⁻¹ = B♯ on a fibre: the covector (α; w) ↦ (w; −α). `out` must not alias `y`.
 *
 * @example
 * ```ts
 * canonicalSharp(new Float64Array(2), [-2, 1]); // [1, 2]
 * ```
 */
export function canonicalSharp(out: Float64Array, y: ArrayLike<number>): Float64Array {
  if (y.length % 2 !== 0) throw new DimensionError('canonicalSharp: y', 'even length', y.length);
  checkOut('canonicalSharp', out, y.length);
  const n = y.length / 2;
  for (let i = 0; i < n; i++) {
    out[i] = y[n + i]!;
    out[n + i] = -y[i]!;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// dL and the Dirac differential (6.1)

function checkLagrangianArgs(what: string, L: Lagrangian, q: Float64Array, v: Float64Array) {
  if (q.length !== L.n) throw new DimensionError(`${what}: q`, L.n, q.length);
  if (v.length !== L.n) throw new DimensionError(`${what}: v`, L.n, v.length);
}

/**
 * dL(q, v) = (q, v, a = ∂L/∂q, b = ∂L/∂v) ∈ T*TQ, written into `out` (seed 002 §6).
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const q = Float64Array.of(1);
 * const v = Float64Array.of(2);
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * differentialInto(tstarTQView(buf, L.n), L, q, v);
 * ```
 */
export function differentialInto(
  out: TstarTQPt,
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
): TstarTQPt {
  const n = L.n;
  checkLagrangianArgs('differential', L, q, v);
  checkPointLengths('differential: out', n, out.q, out.v, out.a, out.b);
  copy('differential: q', out.q, q, n);
  copy('differential: v', out.v, v, n);
  L.Lq(out.a, q, v);
  L.Lv(out.b, q, v);
  return out;
}

/**
 * dL(q, v) = (q, v, ∂L/∂q, ∂L/∂v) ∈ T*_{(q,v)}TQ: in the paper's coordinates (q, δq, δp, p),
 * δq = v, δp = ∂L/∂q, p = ∂L/∂v (seed 002 §6).
 *
 * @example
 * ```ts
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * // L = ½v² − ½q² at (q, v) = (1, 2): dL = (1, 2, −1, 2)
 * differential(L, Float64Array.of(1), Float64Array.of(2));
 * ```
 */
export function differential(L: Lagrangian, q: Float64Array, v: Float64Array): TstarTQPt {
  return differentialInto(tstarTQView(new Float64Array(4 * L.n), L.n), L, q, v);
}

/**
 * 𝔇L(q, v) = (q, p = ∂L/∂v, α = −∂L/∂q, w = v), written into `out` (6.1).
 *
 * @example
 * ```ts
 * const n = 1;
 * const buf = new Float64Array(4 * n);
 * const q = Float64Array.of(1);
 * const v = Float64Array.of(2);
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * diracDifferentialInto(tstarTstarQView(buf, L.n), L, q, v);
 * ```
 */
export function diracDifferentialInto(
  out: TstarTstarQPt,
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
): TstarTstarQPt {
  const n = L.n;
  checkLagrangianArgs('diracDifferential', L, q, v);
  checkPointLengths('diracDifferential: out', n, out.q, out.p, out.alpha, out.w);
  copy('diracDifferential: q', out.q, q, n);
  L.Lv(out.p, q, v);
  L.Lq(out.alpha, q, v);
  for (let i = 0; i < n; i++) out.alpha[i] = -out.alpha[i]!;
  copy('diracDifferential: w', out.w, v, n);
  return out;
}

/**
 * The Dirac differential 𝔇L = γ_Q∘dL: TQ → T*T*Q, 𝔇L(q, v) = (q, ∂L/∂v, −∂L/∂q, v) (6.1). Its
 * base point (q, ∂L/∂v) ∈ T*Q is the Legendre transform 𝔽L(q, v).
 *
 * @example
 * ```ts
 * const L = quadraticLagrangian([1], [1]); // L = ½v² − ½q²
 * // L = ½v² − ½q² at (q, v) = (1, 2): 𝔇L = (q, p, α, w) = (1, 2, 1, 2)
 * diracDifferential(L, Float64Array.of(1), Float64Array.of(2));
 * ```
 */
export function diracDifferential(L: Lagrangian, q: Float64Array, v: Float64Array): TstarTstarQPt {
  return diracDifferentialInto(tstarTstarQView(new Float64Array(4 * L.n), L.n), L, q, v);
}
