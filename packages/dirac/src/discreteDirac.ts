/**
 * The (±)-discrete Dirac geometry of spec 000 §5–§7 (seed 000, Peng–Yoshimura): (±)-finite
 * difference maps, discrete canonical one- and two-forms and flat maps on T*Q, discrete constraint
 * spaces, the (±)-discrete induced Dirac structures D^±_{Δ_Q} with membership tests (Prop 5.17),
 * the discrete Tulczyjew map κ_{Q_d}, γ^±_{Q_d} and the discrete Dirac differentials 𝔇^±L_d.
 *
 * All of this is diagnostic (cold path): functions return fresh arrays. Q = Rⁿ in coordinates
 * (spec 000 §2, §12.13): the twisted base points (q_k, p_{k+1}) and (q_{k+1}, p_k) are plain
 * coordinate pairs. An element of T*T*Q at base (q, p) is {q, p, alpha, w}: α the dq- and w the
 * dp-component (spec 000 §5.2).
 *
 * @module
 */
import { DimensionError, DomainError, dot } from '@geomech/core';
import type { DiscreteLagrangian, LagrangeDiracSign } from './lagrangeDirac.js';
import { annihilatorResidual } from './lagrangeDirac.js';
import type { Distribution } from './types.js';

/** A point of TM: base point and velocity. */
export interface TangentPoint {
  readonly base: Float64Array;
  readonly vel: Float64Array;
}

/** A point of T(T*Q): base (q, p) and velocity (q̇, ṗ). */
export interface CotangentTangentPoint {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly qdot: Float64Array;
  readonly pdot: Float64Array;
}

/** A covector of T*T*Q at base (q, p): α (dq-part) and w (dp-part). */
export interface CotangentCovector {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly alpha: Float64Array;
  readonly w: Float64Array;
}

/** A point z = (q, p) of T*Q. */
export interface CotangentPoint {
  readonly q: Float64Array | readonly number[];
  readonly p: Float64Array | readonly number[];
}

function checkH(what: string, h: number): void {
  if (!(Number.isFinite(h) && h !== 0)) throw new DomainError(what, h, 'must be finite and ≠ 0');
}

function diff(x0: ArrayLike<number>, x1: ArrayLike<number>, h: number): Float64Array {
  if (x0.length !== x1.length)
    throw new DimensionError('discreteDirac: pair', x0.length, x1.length);
  const out = new Float64Array(x0.length);
  for (let i = 0; i < x0.length; i++) out[i] = (x1[i]! - x0[i]!) / h;
  return out;
}

/**
 * Def 5.1, the (±)-finite difference maps M×M → TM: Ψ⁺_k(x_k, x_{k+1}) = (x_k, (x_{k+1} − x_k)/h),
 * Ψ⁻_{k+1}(x_k, x_{k+1}) = (x_{k+1}, (x_{k+1} − x_k)/h).
 */
export function finiteDifference(
  sign: LagrangeDiracSign,
  x0: ArrayLike<number>,
  x1: ArrayLike<number>,
  h: number,
): TangentPoint {
  checkH('finiteDifference: h', h);
  return { base: Float64Array.from(sign === 'plus' ? x0 : x1), vel: diff(x0, x1, h) };
}

/**
 * Def 5.8, the twisted (±)-finite difference maps T*Q×T*Q → T(T*Q): base (q_k, p_{k+1}) (+) or
 * (q_{k+1}, p_k) (−), velocity ((q_{k+1} − q_k)/h, (p_{k+1} − p_k)/h).
 */
export function cotangentFiniteDifference(
  sign: LagrangeDiracSign,
  z0: CotangentPoint,
  z1: CotangentPoint,
  h: number,
): CotangentTangentPoint {
  checkH('cotangentFiniteDifference: h', h);
  return {
    q: Float64Array.from(sign === 'plus' ? z0.q : z1.q),
    p: Float64Array.from(sign === 'plus' ? z1.p : z0.p),
    qdot: diff(z0.q, z1.q, h),
    pdot: diff(z0.p, z1.p, h),
  };
}

/** Def 5.10, Θ^±_d(z_k, z_{k+1}) = ⟨p_{k+1} (+) or p_k (−), (q_{k+1} − q_k)/h⟩. */
export function discreteCanonicalOneForm(
  sign: LagrangeDiracSign,
  z0: CotangentPoint,
  z1: CotangentPoint,
  h: number,
): number {
  checkH('discreteCanonicalOneForm: h', h);
  return dot(sign === 'plus' ? z1.p : z0.p, diff(z0.q, z1.q, h));
}

/**
 * Def 5.11, Ω^±_d of two pairs with the same twisted base (checked to `tol`):
 * ⟨Δq, Δp'⟩ − ⟨Δp, Δq'⟩ (Ω = dq ∧ dp in the difference variables).
 */
export function discreteCanonicalTwoForm(
  sign: LagrangeDiracSign,
  a: readonly [CotangentPoint, CotangentPoint],
  b: readonly [CotangentPoint, CotangentPoint],
  h: number,
  tol = 0,
): number {
  const A = cotangentFiniteDifference(sign, a[0], a[1], h);
  const B = cotangentFiniteDifference(sign, b[0], b[1], h);
  const mismatch = Math.max(maxAbsDiff(A.q, B.q), maxAbsDiff(A.p, B.p));
  if (mismatch > tol)
    throw new DomainError(
      'discreteCanonicalTwoForm: base points',
      mismatch,
      'the two pairs must share the base',
    );
  return dot(A.qdot, B.pdot) - dot(A.pdot, B.qdot);
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let e = 0;
  for (let i = 0; i < a.length; i++) e = Math.max(e, Math.abs(a[i]! - b[i]!));
  return e;
}

/**
 * (32)/(33), the discrete flat maps Ω^{±♭}_d(z_k, z_{k+1}) = (base; −(p_{k+1} − p_k)/h,
 * (q_{k+1} − q_k)/h) at the twisted base.
 */
export function discreteCanonicalFlat(
  sign: LagrangeDiracSign,
  z0: CotangentPoint,
  z1: CotangentPoint,
  h: number,
): CotangentCovector {
  const X = cotangentFiniteDifference(sign, z0, z1, h);
  return { q: X.q, p: X.p, alpha: X.pdot.map((x) => -x), w: X.qdot };
}

/**
 * Def 5.13, the discrete constraint residual ‖W(c)(q_{k+1} − q_k)/h‖∞, c = q_k (+) or q_{k+1} (−);
 * zero iff (q_k, q_{k+1}) ∈ Δ^±_Q.
 */
export function discreteConstraintResidual(
  sign: LagrangeDiracSign,
  Delta: Distribution,
  q0: Float64Array,
  q1: Float64Array,
  h: number,
): number {
  checkH('discreteConstraintResidual: h', h);
  const n = Delta.n;
  const m = Delta.m;
  const W = Delta.A(new Float64Array(Math.max(1, m * n)), sign === 'plus' ? q0 : q1);
  let r = 0;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += W[a * n + i]! * (q1[i]! - q0[i]!);
    r = Math.max(r, Math.abs(s / h));
  }
  return r;
}

/** (14), the discrete Legendre transforms: F⁺L_d = (q_{k+1}, D₂L_d), F⁻L_d = (q_k, −D₁L_d). */
export function discreteLegendre(
  sign: LagrangeDiracSign,
  Ld: DiscreteLagrangian,
  q0: Float64Array,
  q1: Float64Array,
): { q: Float64Array; p: Float64Array } {
  if (sign === 'plus')
    return { q: Float64Array.from(q1), p: Ld.D2(new Float64Array(Ld.n), q0, q1) };
  return { q: Float64Array.from(q0), p: Ld.D1(new Float64Array(Ld.n), q0, q1).map((x) => -x) };
}

/** (44), κ_{Q_d}(q_k, p_k, q_{k+1}, p_{k+1}) = (q_k, q_{k+1}, −p_k, p_{k+1}) ∈ T*(Q×Q). */
export function kappaD(
  z0: CotangentPoint,
  z1: CotangentPoint,
): { q0: Float64Array; q1: Float64Array; P0: Float64Array; P1: Float64Array } {
  return {
    q0: Float64Array.from(z0.q),
    q1: Float64Array.from(z1.q),
    P0: Float64Array.from(z0.p, (x) => -x),
    P1: Float64Array.from(z1.p),
  };
}

/** The inverse of {@link kappaD}: (q₀, q₁, P₀, P₁) ↦ ((q₀, −P₀), (q₁, P₁)). */
export function kappaDInverse(
  q0: ArrayLike<number>,
  q1: ArrayLike<number>,
  P0: ArrayLike<number>,
  P1: ArrayLike<number>,
): [{ q: Float64Array; p: Float64Array }, { q: Float64Array; p: Float64Array }] {
  return [
    { q: Float64Array.from(q0), p: Float64Array.from(P0, (x) => -x) },
    { q: Float64Array.from(q1), p: Float64Array.from(P1) },
  ];
}

/**
 * (45) [R-H, Def 6.3 lost], γ^±_{Q_d} = Ω^{±♭}_d ∘ κ_{Q_d}⁻¹: T*(Q×Q) → T*T*Q,
 * γ⁺(q₀, q₁, P₀, P₁) = ((q₀, P₁); −(P₁ + P₀)/h, (q₁ − q₀)/h),
 * γ⁻(q₀, q₁, P₀, P₁) = ((q₁, −P₀); −(P₁ + P₀)/h, (q₁ − q₀)/h).
 */
export function gammaD(
  sign: LagrangeDiracSign,
  q0: ArrayLike<number>,
  q1: ArrayLike<number>,
  P0: ArrayLike<number>,
  P1: ArrayLike<number>,
  h: number,
): CotangentCovector {
  const [z0, z1] = kappaDInverse(q0, q1, P0, P1);
  return discreteCanonicalFlat(sign, z0, z1, h);
}

/**
 * (46)/(47), the (±)-discrete Dirac differentials 𝔇^±L_d = γ^±_{Q_d} ∘ dL_d:
 * 𝔇⁺L_d = ((q_k, D₂L_d); −(D₁L_d + D₂L_d)/h, (q_{k+1} − q_k)/h),
 * 𝔇⁻L_d = ((q_{k+1}, −D₁L_d); −(D₁L_d + D₂L_d)/h, (q_{k+1} − q_k)/h).
 */
export function discreteDiracDifferential(
  sign: LagrangeDiracSign,
  Ld: DiscreteLagrangian,
  q0: Float64Array,
  q1: Float64Array,
): CotangentCovector {
  const n = Ld.n;
  return gammaD(
    sign,
    q0,
    q1,
    Ld.D1(new Float64Array(n), q0, q1),
    Ld.D2(new Float64Array(n), q0, q1),
    Ld.h,
  );
}

/** Residuals of the membership test (37)/(39) of {@link discreteInducedDiracResidual}. */
export interface DiracMembershipResidual {
  /** Distance of the covector's base from the twisted base of (z_k, z_{k+1}). */
  readonly base: number;
  /** ‖W(c)Δq‖∞, c = q_k (+) or q_{k+1} (−). */
  readonly constraint: number;
  /** ‖w − Δq‖∞. */
  readonly w: number;
  /** Least-squares distance of α + Δp from Δ°(c). */
  readonly annihilator: number;
  /** The maximum of the four. */
  readonly max: number;
}

/**
 * Prop 5.17 (37)/(39): the residuals of ((z_k, z_{k+1}), covector) ∈ D^±_{Δ_Q}: matching base
 * point, Δq ∈ Δ_Q(c), w = Δq, α + Δp ∈ Δ°_Q(c), with c = q_k (+) or q_{k+1} (−).
 */
export function discreteInducedDiracResidual(
  sign: LagrangeDiracSign,
  Delta: Distribution,
  z0: CotangentPoint,
  z1: CotangentPoint,
  covector: CotangentCovector,
  h: number,
): DiracMembershipResidual {
  const X = cotangentFiniteDifference(sign, z0, z1, h);
  const base = Math.max(maxAbsDiff(X.q, covector.q), maxAbsDiff(X.p, covector.p));
  const q0 = Float64Array.from(z0.q);
  const q1 = Float64Array.from(z1.q);
  const constraint = discreteConstraintResidual(sign, Delta, q0, q1, h);
  const w = maxAbsDiff(covector.w, X.qdot);
  const s = covector.alpha.map((a, i) => a + X.pdot[i]!);
  const annihilator = annihilatorResidual(Delta, sign === 'plus' ? q0 : q1, s);
  return { base, constraint, w, annihilator, max: Math.max(base, constraint, w, annihilator) };
}

/** Membership ((z_k, z_{k+1}), covector) ∈ D^±_{Δ_Q} up to `tol` (Thm 5.16, Prop 5.17). */
export function inDiscreteInducedDirac(
  sign: LagrangeDiracSign,
  Delta: Distribution,
  z0: CotangentPoint,
  z1: CotangentPoint,
  covector: CotangentCovector,
  h: number,
  tol = 1e-10,
): boolean {
  return discreteInducedDiracResidual(sign, Delta, z0, z1, covector, h).max <= tol;
}

/**
 * An element of D^± at a fixed twisted base in the difference variables (spec 000 §5.2 [DERIVED]):
 * (δq, δp, α, w) with δq = Δq, δp = Δp.
 */
export interface DiracElement {
  readonly dq: Float64Array;
  readonly dp: Float64Array;
  readonly alpha: Float64Array;
  readonly w: Float64Array;
}

/**
 * Thm 5.7 (30), the symmetric pairing of two elements at the same base:
 * ⟪e₁, e₂⟫ = ⟨α₁, δq₂⟩ + ⟨δp₂, w₁⟩ + ⟨α₂, δq₁⟩ + ⟨δp₁, w₂⟩.
 */
export function discreteSymmetricPairing(e1: DiracElement, e2: DiracElement): number {
  return dot(e1.alpha, e2.dq) + dot(e2.dp, e1.w) + dot(e2.alpha, e1.dq) + dot(e1.dp, e2.w);
}

/**
 * A basis (2n elements) of D^± at a base whose constraint point is c (c = q_k (+), q_{k+1} (−)):
 * { (δq, δp, −δp + Wᵀμ, δq) : δq ∈ ker W(c) }, spanned by (g_i, 0, 0, g_i) for a basis g of Δ(c)
 * (from `Delta.G` or a Gram–Schmidt null space of W), (0, e_j, −e_j, 0) and (0, 0, ωᵃ, 0).
 */
export function discreteDiracBasis(Delta: Distribution, c: Float64Array): DiracElement[] {
  const n = Delta.n;
  const m = Delta.m;
  const W = Delta.A(new Float64Array(Math.max(1, m * n)), c);
  const out: DiracElement[] = [];
  const zero = new Float64Array(n);
  for (const g of kernelBasis(W, m, n)) out.push({ dq: g, dp: zero, alpha: zero, w: g });
  for (let j = 0; j < n; j++) {
    const e = new Float64Array(n);
    e[j] = 1;
    out.push({ dq: zero, dp: e, alpha: e.map((x) => -x), w: zero });
  }
  for (let a = 0; a < m; a++)
    out.push({ dq: zero, dp: zero, alpha: W.slice(a * n, (a + 1) * n), w: zero });
  return out;
}

/** Orthonormal basis of ker W (W m×n of full row rank): Gram–Schmidt of the rows, then of e_j. */
function kernelBasis(W: Float64Array, m: number, n: number): Float64Array[] {
  const rows: Float64Array[] = [];
  const add = (v: Float64Array): boolean => {
    for (const r of rows) {
      const d = dot(v, r);
      for (let i = 0; i < n; i++) v[i] = v[i]! - d * r[i]!;
    }
    const nv = Math.sqrt(dot(v, v));
    if (nv < 1e-10) return false;
    for (let i = 0; i < n; i++) v[i] = v[i]! / nv;
    rows.push(v);
    return true;
  };
  for (let a = 0; a < m; a++) add(W.slice(a * n, (a + 1) * n));
  const k = rows.length;
  for (let j = 0; j < n && rows.length < n; j++) {
    const e = new Float64Array(n);
    e[j] = 1;
    add(e);
  }
  return rows.slice(k);
}
