/**
 * The induced (almost) Dirac structure D_{Δ_Q} ⊂ TT*Q ⊕ T*T*Q of a regular distribution
 * Δ_Q = ker A(q) ⊂ TQ (seed 002 §5, spec 002 §3.8, §5.6), with the lifted distribution
 * Δ_{T*Q} = (Tπ_Q)⁻¹(Δ_Q) (5.1), the induced codistribution Δ*_{T*Q} = Ω♭(Δ_{T*Q}) (5.6), their
 * annihilators (5.7), and membership in the four equivalent descriptions (5.3), (5.4), (5.5) = (5.9)
 * and (5.8).
 *
 * Points and their flat forms follow `tulczyjew.ts`: v_z = (q, p, q̇, ṗ) ∈ TT*Q is a
 * {@link TTstarQPt} `{ q, p, dq, dp }`, α_z = (q, p, α, w) ∈ T*T*Q a {@link TstarTstarQPt}
 * `{ q, p, alpha, w }`. A fibre element (v_z, α_z) of TT*Q ⊕ T*T*Q over z = (q, p) is the flat
 * vector (q̇, ṗ; α, w) ∈ R⁴ⁿ ({@link packDiracPair}), the ordering (v; α) of
 * {@link LinearDiracStructure} with V = T_zT*Q ≅ R²ⁿ.
 *
 * **Tolerances.** Membership tests are relative: a condition passes when each residual — a
 * coordinate difference, or a pairing with a spanning vector scaled to unit 2-norm — is at most
 * `tol · max(1, s)`, where s is the ∞-norm of the tested element (base points: of the reference
 * base point). The fibres depend on q only, through A(q) and a basis G(q) of Δ(q) (from
 * `Delta.G` when given, otherwise an orthonormal null space of A(q)); each call evaluates them
 * afresh, which costs an SVD when `Delta.G` is absent (a cold-path check, not for inner loops).
 *
 * @module
 */
import { columnSpace, DomainError, NonFiniteError, nullSpace } from '@geomech/core';
import { checkLength, maxAbs } from './internal.js';
import { LinearDiracStructure } from './linear.js';
import {
  kappaQInto,
  omegaFlatInto,
  poissonSharpInto,
  sigmaQInto,
  type TstarQPt,
  type TstarTQPt,
  type TstarTstarQPt,
  type TTstarQPt,
  tstarTQView,
  tstarTstarQView,
  ttstarQView,
} from './tulczyjew.js';
import type { Distribution } from './types.js';

/** Default relative tolerance of the membership tests of this module. */
export const INDUCED_MEMBERSHIP_TOL = 1e-10;

// ---------------------------------------------------------------------------------------------
// frames of Δ(q) (private)

interface Frames {
  /** A(q), m×n row-major; rows are the constraint one-forms ωᵃ. */
  readonly A: Float64Array;
  /** G(q), n×r row-major; columns span Δ(q), r = n − m. */
  readonly G: Float64Array;
  readonly n: number;
  readonly m: number;
  readonly r: number;
}

function checkDistribution(Delta: Distribution): void {
  const { n, m } = Delta;
  if (!Number.isInteger(n) || n < 1) throw new DomainError('distribution: n', n, 'integer >= 1');
  if (!Number.isInteger(m) || m < 0 || m > n) {
    throw new DomainError('distribution: m', m, `integer in [0, n = ${n}]`);
  }
}

/** Length and finiteness of a tested vector: a NaN never turns into a silent "not contained". */
function checkVector(what: string, x: ArrayLike<number>, len: number): void {
  checkLength(what, x, len);
  for (let i = 0; i < len; i++) if (!Number.isFinite(x[i]!)) throw new NonFiniteError(what, i);
}

function frames(Delta: Distribution, q: Float64Array): Frames {
  const { n, m } = Delta;
  checkLength('distribution: q', q, n);
  const r = n - m;
  const A = Delta.A(new Float64Array(m * n), q);
  checkLength('distribution: A(q)', A, m * n);
  let G: Float64Array;
  if (Delta.G) {
    G = Delta.G(new Float64Array(n * r), q);
    checkLength('distribution: G(q)', G, n * r);
  } else {
    const ns = nullSpace(A, m, n);
    if (ns.d !== r) {
      throw new DomainError(
        'distribution: rank of A(q)',
        n - ns.d,
        `must equal m = ${m} (a regular distribution needs independent constraint one-forms)`,
      );
    }
    G = ns.basis;
  }
  return { A, G, n, m, r };
}

/** ‖row a of A‖₂ (m×n). */
function rowNorm(A: Float64Array, n: number, a: number): number {
  let s = 0;
  for (let j = 0; j < n; j++) s += A[a * n + j]! ** 2;
  return Math.sqrt(s);
}

/** ‖column j of G‖₂ (n×r). */
function colNorm(G: Float64Array, n: number, r: number, j: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += G[i * r + j]! ** 2;
  return Math.sqrt(s);
}

/** max_a |⟨ωᵃ, x[off..off+n)⟩| / ‖ωᵃ‖: zero iff the block lies in Δ(q) = ker A(q). */
function deltaResidual(F: Frames, x: ArrayLike<number>, off: number): number {
  const { A, n, m } = F;
  let worst = 0;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += A[a * n + j]! * x[off + j]!;
    const nrm = rowNorm(A, n, a);
    worst = Math.max(worst, nrm > 0 ? Math.abs(s) / nrm : Math.abs(s));
  }
  return worst;
}

/** max_j |⟨g_j, x[off..off+n)⟩| / ‖g_j‖: zero iff the block lies in Δ°(q) (spec 002 §3.2). */
function annihilatorResidual(F: Frames, x: ArrayLike<number>, off: number): number {
  const { G, n, r } = F;
  let worst = 0;
  for (let j = 0; j < r; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += G[i * r + j]! * x[off + i]!;
    const nrm = colNorm(G, n, r, j);
    worst = Math.max(worst, nrm > 0 ? Math.abs(s) / nrm : Math.abs(s));
  }
  return worst;
}

function checkTol(what: string, tol: number): void {
  if (!(tol >= 0) || !Number.isFinite(tol))
    throw new DomainError(`${what}: tol`, tol, 'finite, >= 0');
}

// ---------------------------------------------------------------------------------------------
// lifted distributions and the induced codistribution

/**
 * A subbundle of a rank-2n bundle over a manifold above Q whose fibre over any point above q is
 * {(x₀, x₁) ∈ R²ⁿ : x_c ∈ Δ(q)} for one constrained block c and a free other block:
 * - Δ_{T*Q} = (Tπ_Q)⁻¹(Δ_Q) ⊂ TT*Q (5.1): (q̇, ṗ) with q̇ ∈ Δ (c = 0), from {@link liftedDistribution};
 * - Δ_{TQ} = (Tτ_Q)⁻¹(Δ_Q) ⊂ TTQ (§5 Remarks): (δq, δv) with δq ∈ Δ (c = 0), from
 *   {@link tangentLiftedDistribution};
 * - Δ*_{T*Q} ⊂ T*T*Q (5.6): covectors (α, w) with w ∈ Δ (c = 1), from {@link inducedCodistribution}.
 *
 * The annihilator lives in the dual fibre: {(ξ₀, ξ₁) : ξ_c ∈ Δ°(q), the other block 0}, e.g.
 * Δ°_{T*Q} = {(α, 0) : α ∈ Δ°} and (Δ*_{T*Q})° = {(0, β) : β ∈ Δ°} (5.7). Vectors and covectors
 * pair by the plain dot product of their flat forms. Fibres depend on q only.
 */
export interface LiftedDistribution {
  /** Dimension n of Q; fibres live in R²ⁿ. */
  readonly n: number;
  /** Fibre dimension 2n − m. */
  readonly dim: number;
  /** Annihilator dimension m. */
  readonly annihilatorDim: number;
  /** The constrained block (0 or 1). */
  readonly constrainedBlock: 0 | 1;
  /** Spanning columns of the fibre over q: 2n × (2n − m) row-major; {(g_j in block c)} ∪ {(e_i in the free block)}. */
  basis(q: Float64Array): Float64Array;
  /** Spanning columns of the annihilator over q: 2n × m row-major, {(ωᵃ in block c)}. */
  annihilatorBasis(q: Float64Array): Float64Array;
  /** x ∈ fibre over q: ⟨ωᵃ, x_c⟩ = 0 for all a (relative tolerance). */
  contains(q: Float64Array, x: ArrayLike<number>, tol?: number): boolean;
  /** ξ ∈ annihilator over q: ξ_free = 0 and ⟨g_j, ξ_c⟩ = 0 for all j (relative tolerance). */
  annihilatorContains(q: Float64Array, xi: ArrayLike<number>, tol?: number): boolean;
}

class BlockLifted implements LiftedDistribution {
  readonly n: number;
  readonly dim: number;
  readonly annihilatorDim: number;

  constructor(
    readonly Delta: Distribution,
    readonly constrainedBlock: 0 | 1,
  ) {
    checkDistribution(Delta);
    this.n = Delta.n;
    this.dim = 2 * Delta.n - Delta.m;
    this.annihilatorDim = Delta.m;
  }

  basis(q: Float64Array): Float64Array {
    const F = frames(this.Delta, q);
    const { n, r, G } = F;
    const k = this.dim;
    const c = this.constrainedBlock;
    const f = 1 - c;
    const B = new Float64Array(2 * n * k);
    for (let j = 0; j < r; j++) for (let i = 0; i < n; i++) B[(c * n + i) * k + j] = G[i * r + j]!;
    for (let i = 0; i < n; i++) B[(f * n + i) * k + r + i] = 1;
    return B;
  }

  annihilatorBasis(q: Float64Array): Float64Array {
    const F = frames(this.Delta, q);
    const { n, m, A } = F;
    const c = this.constrainedBlock;
    const B = new Float64Array(2 * n * m);
    for (let a = 0; a < m; a++) for (let i = 0; i < n; i++) B[(c * n + i) * m + a] = A[a * n + i]!;
    return B;
  }

  contains(q: Float64Array, x: ArrayLike<number>, tol = INDUCED_MEMBERSHIP_TOL): boolean {
    checkTol('LiftedDistribution.contains', tol);
    checkVector('LiftedDistribution.contains: x', x, 2 * this.n);
    const F = frames(this.Delta, q);
    return deltaResidual(F, x, this.constrainedBlock * this.n) <= tol * Math.max(1, maxAbs(x));
  }

  annihilatorContains(
    q: Float64Array,
    xi: ArrayLike<number>,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    checkTol('LiftedDistribution.annihilatorContains', tol);
    checkVector('LiftedDistribution.annihilatorContains: xi', xi, 2 * this.n);
    const F = frames(this.Delta, q);
    const bound = tol * Math.max(1, maxAbs(xi));
    const freeOff = (1 - this.constrainedBlock) * this.n;
    return (
      maxAbs(xi, this.n, freeOff) <= bound &&
      annihilatorResidual(F, xi, this.constrainedBlock * this.n) <= bound
    );
  }
}

/**
 * The lifted distribution Δ_{T*Q}(q, p) = {(q̇, ṗ) : q̇ ∈ Δ(q)} ⊂ T_{(q,p)}T*Q (5.1), of dimension
 * 2n − m, with annihilator Δ°_{T*Q} = {(α, w) : α ∈ Δ°(q), w = 0} of dimension m.
 *
 * @example
 * ```ts
 * const Delta: Distribution = { n: 2, m: 1, A: (out) => { out[0] = -0.5; out[1] = 1; return out; },
 *   Adot: (out) => out.fill(0) }; // ω = dy − 0.5 dx on R²
 * const q = new Float64Array(2), qdot = [2, 1], pdot = [3, 4];
 * const lifted = liftedDistribution(Delta);
 * lifted.contains(q, Float64Array.of(...qdot, ...pdot)); // true: A(q) q̇ = 0
 * ```
 */
export function liftedDistribution(Delta: Distribution): LiftedDistribution {
  return new BlockLifted(Delta, 0);
}

/**
 * Δ_{TQ}(q, v) = (Tτ_Q)⁻¹(Δ_Q) = {(δq, δv) : δq ∈ Δ(q)} ⊂ T_{(q,v)}TQ (seed 002 §5 Remarks), with
 * annihilator Δ°_{TQ} = {(a, b) : a ∈ Δ°(q), b = 0} ⊂ T*_{(q,v)}TQ; used by the Tulczyjew form
 * (5.4).
 *
 * @example
 * ```ts
 * const Delta: Distribution = { n: 2, m: 1, A: (out) => { out[0] = -0.5; out[1] = 1; return out; },
 *   Adot: (out) => out.fill(0) }; // ω = dy − 0.5 dx on R²
 * const q = new Float64Array(2), omega1 = [-0.5, 1];
 * tangentLiftedDistribution(Delta).annihilatorContains(q, Float64Array.of(...omega1, 0, 0)); // true
 * ```
 */
export function tangentLiftedDistribution(Delta: Distribution): LiftedDistribution {
  return new BlockLifted(Delta, 0);
}

/**
 * The induced codistribution Δ*_{T*Q}(q, p) = Ω♭(Δ_{T*Q}) = (π²)⁻¹(Δ_Q) = {(α, w) : w ∈ Δ(q)} ⊂
 * T*_{(q,p)}T*Q (5.6), of dimension 2n − m, with annihilator (Δ*_{T*Q})° = {(u, β) : u = 0,
 * β ∈ Δ°(q)} ⊂ T_{(q,p)}T*Q (5.7).
 *
 * @example
 * ```ts
 * const Delta: Distribution = { n: 2, m: 1, A: (out) => { out[0] = -0.5; out[1] = 1; return out; },
 *   Adot: (out) => out.fill(0) }; // ω = dy − 0.5 dx on R²
 * const q = new Float64Array(2), out = new Float64Array(4), x = Float64Array.of(2, 1, 3, 4); // (δq, δp), δq ∈ Δ
 * inducedCodistribution(Delta).contains(q, canonicalFlat(out, x)); // true for x ∈ Δ_{T*Q}
 * ```
 */
export function inducedCodistribution(Delta: Distribution): LiftedDistribution {
  return new BlockLifted(Delta, 1);
}

// ---------------------------------------------------------------------------------------------
// the induced Dirac structure

/**
 * out ← (q̇, ṗ; α, w) ∈ R⁴ⁿ for v_z = (q, p, q̇, ṗ) and α_z = (q, p, α, w): the flat element of
 * T_zT*Q ⊕ T*_zT*Q tested by {@link LinearDiracStructure.contains} (base points are dropped).
 *
 * @example
 * ```ts
 * const Delta: Distribution = { n: 2, m: 1, A: (out) => { out[0] = -0.5; out[1] = 1; return out; },
 *   Adot: (out) => out.fill(0) }; // ω = dy − 0.5 dx on R²
 * const D = inducedDiracStructure(Delta), n = 2;
 * const q = Float64Array.of(0, 0), p = Float64Array.of(1, 0);
 * const vz = { q, p, dq: Float64Array.of(2, 1), dp: Float64Array.of(3, 4) };
 * const alphaz = { q, p, alpha: Float64Array.of(-3 - 0.5, -4 + 1), w: Float64Array.of(2, 1) };
 * D.at(q, p).contains(packDiracPair(new Float64Array(4 * n), vz, alphaz)); // true
 * ```
 */
export function packDiracPair(
  out: Float64Array,
  vz: TTstarQPt,
  alphaz: TstarTstarQPt,
): Float64Array {
  const n = vz.q.length;
  checkLength('packDiracPair: out', out, 4 * n);
  for (const [what, f] of [
    ['vz.dq', vz.dq],
    ['vz.dp', vz.dp],
    ['alphaz.alpha', alphaz.alpha],
    ['alphaz.w', alphaz.w],
  ] as const) {
    checkLength(`packDiracPair: ${what}`, f, n);
  }
  out.set(vz.dq, 0);
  out.set(vz.dp, n);
  out.set(alphaz.alpha, 2 * n);
  out.set(alphaz.w, 3 * n);
  return out;
}

/**
 * The induced almost Dirac structure D_{Δ_Q} on M = T*Q (Prop 5.1–5.3), pointwise a
 * {@link LinearDiracStructure} on T_zT*Q ≅ R²ⁿ, with membership in each of its descriptions.
 * Every `contains…(z, v_z, α_z, tol)` also checks that v_z and α_z sit over z = (q, p).
 */
export interface InducedDiracStructure {
  /** The distribution Δ_Q. */
  readonly Delta: Distribution;
  /** Dimension of M = T*Q: 2n. */
  readonly dimM: number;
  /** Δ_{T*Q} (5.1). */
  readonly lifted: LiftedDistribution;
  /** Δ*_{T*Q} (5.6). */
  readonly codistribution: LiftedDistribution;
  /** Δ_{TQ} = (Tτ_Q)⁻¹(Δ_Q), used by (5.4). */
  readonly tangentLifted: LiftedDistribution;
  /**
   * D_{Δ_Q}(q, p) as a subspace of R⁴ⁿ in the ordering (q̇, ṗ; α, w), spanned by the 2n columns
   * (spec 002 §3.8) (0, eᵢ; −eᵢ, 0), (g_j, 0; 0, g_j), (0, 0; ωᵃ, 0). Independent of p.
   */
  at(q: Float64Array, p: Float64Array): LinearDiracStructure;
  /** (5.5) = (5.9): q̇ ∈ Δ(q), w = q̇, α + ṗ ∈ Δ°(q) = row space of A(q), in kernel form. */
  containsLocal(z: TstarQPt, vz: TTstarQPt, alphaz: TstarTstarQPt, tol?: number): boolean;
  /** (5.3): v_z ∈ Δ_{T*Q}(z) and α_z − Ω♭(z)·v_z ∈ Δ°_{T*Q}(z). */
  containsSymplecticForm(z: TstarQPt, vz: TTstarQPt, alphaz: TstarTstarQPt, tol?: number): boolean;
  /** (5.4): Tπ_Q(v_z) = π²(α_z) =: w_q ∈ Δ_Q and κ_Q(v_z) − σ_Q(α_z) ∈ Δ°_{TQ}(w_q). */
  containsTulczyjewForm(z: TstarQPt, vz: TTstarQPt, alphaz: TstarTstarQPt, tol?: number): boolean;
  /** (5.8): α_z ∈ Δ*_{T*Q}(z) and v_z − B♯(z)·α_z ∈ (Δ*_{T*Q})°(z). */
  containsPoissonForm(z: TstarQPt, vz: TTstarQPt, alphaz: TstarTstarQPt, tol?: number): boolean;
}

function close(x: Float64Array, y: Float64Array, bound: number): boolean {
  for (let i = 0; i < x.length; i++) if (!(Math.abs(x[i]! - y[i]!) <= bound)) return false;
  return true;
}

class Induced implements InducedDiracStructure {
  readonly dimM: number;
  readonly lifted: LiftedDistribution;
  readonly codistribution: LiftedDistribution;
  readonly tangentLifted: LiftedDistribution;

  constructor(readonly Delta: Distribution) {
    checkDistribution(Delta);
    this.dimM = 2 * Delta.n;
    this.lifted = liftedDistribution(Delta);
    this.codistribution = inducedCodistribution(Delta);
    this.tangentLifted = tangentLiftedDistribution(Delta);
  }

  at(q: Float64Array, p: Float64Array): LinearDiracStructure {
    const n = this.Delta.n;
    checkLength('InducedDiracStructure.at: p', p, n);
    const { A, G, m, r } = frames(this.Delta, q);
    const N = 4 * n;
    const k = 2 * n;
    const B = new Float64Array(N * k);
    for (let i = 0; i < n; i++) {
      B[(n + i) * k + i] = 1; // ṗ = eᵢ
      B[(2 * n + i) * k + i] = -1; // α = −eᵢ
    }
    for (let j = 0; j < r; j++) {
      for (let i = 0; i < n; i++) {
        B[i * k + n + j] = G[i * r + j]!; // q̇ = g_j
        B[(3 * n + i) * k + n + j] = G[i * r + j]!; // w = g_j
      }
    }
    for (let a = 0; a < m; a++) {
      for (let i = 0; i < n; i++) B[(2 * n + i) * k + n + r + a] = A[a * n + i]!; // α = ωᵃ
    }
    return new LinearDiracStructure(k, B, k);
  }

  /** Shape checks, and base points of v_z and α_z equal to z (relative to ‖z‖∞). */
  private basePointsAgree(
    what: string,
    z: TstarQPt,
    vz: TTstarQPt,
    alphaz: TstarTstarQPt,
    tol: number,
  ): boolean {
    checkTol(what, tol);
    const n = this.Delta.n;
    const fields: ReadonlyArray<readonly [string, Float64Array]> = [
      ['z.q', z.q],
      ['z.p', z.p],
      ['vz.q', vz.q],
      ['vz.p', vz.p],
      ['vz.dq', vz.dq],
      ['vz.dp', vz.dp],
      ['alphaz.q', alphaz.q],
      ['alphaz.p', alphaz.p],
      ['alphaz.alpha', alphaz.alpha],
      ['alphaz.w', alphaz.w],
    ];
    for (const [name, f] of fields) checkVector(`${what}: ${name}`, f, n);
    const bound = tol * Math.max(1, maxAbs(z.q), maxAbs(z.p));
    return (
      close(vz.q, z.q, bound) &&
      close(vz.p, z.p, bound) &&
      close(alphaz.q, z.q, bound) &&
      close(alphaz.p, z.p, bound)
    );
  }

  /** tol · max(1, ‖(q̇, ṗ, α, w)‖∞). */
  private fibreBound(vz: TTstarQPt, alphaz: TstarTstarQPt, tol: number): number {
    return tol * Math.max(1, maxAbs(vz.dq), maxAbs(vz.dp), maxAbs(alphaz.alpha), maxAbs(alphaz.w));
  }

  // (5.5) = (5.9), kernel form: A q̇ = 0, w = q̇, α + ṗ ∈ row space of A (Prop 2.1)
  containsLocal(
    z: TstarQPt,
    vz: TTstarQPt,
    alphaz: TstarTstarQPt,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    if (!this.basePointsAgree('containsLocal', z, vz, alphaz, tol)) return false;
    const { n, m } = this.Delta;
    const bound = this.fibreBound(vz, alphaz, tol);
    const A = this.Delta.A(new Float64Array(m * n), z.q);
    checkLength('distribution: A(q)', A, m * n);
    // q̇ ∈ Δ(q) = ker A(q)
    const F: Frames = { A, G: new Float64Array(0), n, m, r: 0 };
    if (deltaResidual(F, vz.dq, 0) > bound) return false;
    // w = q̇
    if (!close(alphaz.w, vz.dq, bound)) return false;
    // α + ṗ ∈ Δ°(q) = row space of A(q): residual of the orthogonal projection onto range(Aᵀ)
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) y[i] = alphaz.alpha[i]! + vz.dp[i]!;
    const At = new Float64Array(n * m);
    for (let a = 0; a < m; a++) for (let i = 0; i < n; i++) At[i * m + a] = A[a * n + i]!;
    const { basis: U, d } = columnSpace(At, n, m);
    if (d !== m) {
      throw new DomainError(
        'distribution: rank of A(q)',
        d,
        `must equal m = ${m} (a regular distribution needs independent constraint one-forms)`,
      );
    }
    const c = new Float64Array(d);
    for (let j = 0; j < d; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += U[i * d + j]! * y[i]!;
      c[j] = s;
    }
    for (let i = 0; i < n; i++) {
      let proj = 0;
      for (let j = 0; j < d; j++) proj += U[i * d + j]! * c[j]!;
      if (!(Math.abs(y[i]! - proj) <= bound)) return false;
    }
    return true;
  }

  // (5.3): v_z ∈ Δ_{T*Q}, α_z − Ω♭(v_z) ∈ Δ°_{T*Q}
  containsSymplecticForm(
    z: TstarQPt,
    vz: TTstarQPt,
    alphaz: TstarTstarQPt,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    if (!this.basePointsAgree('containsSymplecticForm', z, vz, alphaz, tol)) return false;
    const n = this.Delta.n;
    const bound = this.fibreBound(vz, alphaz, tol);
    const v = new Float64Array(2 * n);
    v.set(vz.dq, 0);
    v.set(vz.dp, n);
    if (!this.lifted.contains(z.q, v, tolFor(tol, bound, v))) return false;
    const flat = omegaFlatInto(tstarTstarQView(new Float64Array(4 * n), n), vz);
    const xi = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      xi[i] = alphaz.alpha[i]! - flat.alpha[i]!;
      xi[n + i] = alphaz.w[i]! - flat.w[i]!;
    }
    return this.lifted.annihilatorContains(z.q, xi, tolFor(tol, bound, xi));
  }

  // (5.4): Tπ_Q(v_z) = π²(α_z) ∈ Δ_Q, κ_Q(v_z) − σ_Q(α_z) ∈ Δ°_{TQ}
  containsTulczyjewForm(
    z: TstarQPt,
    vz: TTstarQPt,
    alphaz: TstarTstarQPt,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    if (!this.basePointsAgree('containsTulczyjewForm', z, vz, alphaz, tol)) return false;
    const n = this.Delta.n;
    const bound = this.fibreBound(vz, alphaz, tol);
    const kv: TstarTQPt = kappaQInto(tstarTQView(new Float64Array(4 * n), n), vz);
    const sa: TstarTQPt = sigmaQInto(tstarTQView(new Float64Array(4 * n), n), alphaz);
    // base points in TQ: π_{TQ}(κ_Q v_z) = Tπ_Q(v_z) and π_{TQ}(σ_Q α_z) = π²(α_z) must agree
    if (!close(kv.q, sa.q, bound) || !close(kv.v, sa.v, bound)) return false;
    // w_q ∈ Δ_Q: the base vector lies in Δ(q)
    const wq = new Float64Array(2 * n);
    wq.set(kv.v, 0);
    if (!this.tangentLifted.contains(z.q, wq, tolFor(tol, bound, wq))) return false;
    // fibre difference (a, b) of κ_Q(v_z) − σ_Q(α_z) ∈ Δ°_{TQ}(w_q)
    const xi = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      xi[i] = kv.a[i]! - sa.a[i]!;
      xi[n + i] = kv.b[i]! - sa.b[i]!;
    }
    return this.tangentLifted.annihilatorContains(z.q, xi, tolFor(tol, bound, xi));
  }

  // (5.8): α_z ∈ Δ*_{T*Q}, v_z − B♯(α_z) ∈ (Δ*_{T*Q})°
  containsPoissonForm(
    z: TstarQPt,
    vz: TTstarQPt,
    alphaz: TstarTstarQPt,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    if (!this.basePointsAgree('containsPoissonForm', z, vz, alphaz, tol)) return false;
    const n = this.Delta.n;
    const bound = this.fibreBound(vz, alphaz, tol);
    const cov = new Float64Array(2 * n);
    cov.set(alphaz.alpha, 0);
    cov.set(alphaz.w, n);
    if (!this.codistribution.contains(z.q, cov, tolFor(tol, bound, cov))) return false;
    const sharp = poissonSharpInto(ttstarQView(new Float64Array(4 * n), n), alphaz);
    const u = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      u[i] = vz.dq[i]! - sharp.dq[i]!;
      u[n + i] = vz.dp[i]! - sharp.dp[i]!;
    }
    return this.codistribution.annihilatorContains(z.q, u, tolFor(tol, bound, u));
  }
}

/**
 * The tolerance to hand a {@link LiftedDistribution} test of the sub-vector x so that its bound
 * tol'·max(1, ‖x‖∞) equals the element-level bound (never below it; sub-vectors are no larger
 * than the element).
 */
function tolFor(tol: number, bound: number, x: ArrayLike<number>): number {
  return Math.max(tol, bound / Math.max(1, maxAbs(x)));
}

/**
 * The induced Dirac structure D_{Δ_Q} on T*Q of a regular distribution Δ_Q = ker A(q)
 * (Prop 5.1–5.3, (5.5)): D_{Δ_Q}(q, p) = {((q̇, ṗ), (α, w)) : q̇ ∈ Δ(q), w = q̇, α + ṗ ∈ Δ°(q)}.
 *
 * @throws {@link DomainError} if n, m are invalid, or (when checked) A(q) has rank below m.
 * @example
 * ```ts
 * // rolling-without-slipping style constraint on R²: ω = dy − c·dx
 * const Delta: Distribution = {
 *   n: 2, m: 1,
 *   A: (out, _q) => { out[0] = -0.5; out[1] = 1; return out; },
 *   Adot: (out) => out.fill(0),
 * };
 * const D = inducedDiracStructure(Delta);
 * D.at(Float64Array.of(0, 0), Float64Array.of(0, 0)).isDirac(); // true
 * const z = { q: Float64Array.of(0, 0), p: Float64Array.of(1, 0) };
 * const vz = { ...z, dq: Float64Array.of(2, 1), dp: Float64Array.of(3, 4) };
 * const az = { ...z, alpha: Float64Array.of(-3 - 0.5, -4 + 1), w: Float64Array.of(2, 1) };
 * D.containsLocal(z, vz, az); // true: α + ṗ = ω ∈ Δ°, w = q̇ ∈ Δ
 * ```
 */
export function inducedDiracStructure(Delta: Distribution): InducedDiracStructure {
  return new Induced(Delta);
}
