/**
 * Linear Dirac structures on a vector space V = Rⁿ (seed 002 §2–§3, spec 002 §3.1–§3.6, §5.3).
 *
 * Elements of V ⊕ V* are stored as `[v; α]` ∈ R²ⁿ. The symmetric pairing has no factor ½:
 *   ⟨⟨(v, α), (v̄, ᾱ)⟩⟩ = ⟨α, v̄⟩ + ⟨ᾱ, v⟩ = xᵀ S y,  S = [[0, I], [I, 0]].
 * A subspace D spanned by the columns of B (2n × k) is Dirac iff BᵀSB = 0 and rank B = n; then
 * D^⊥ = null(BᵀS) = D and x ∈ D ⇔ BᵀSx = 0 (spec 002 §3.1).
 *
 * Conventions (spec 002 §7.1, fixed here):
 * - a two-form is a matrix W with Ω(u, w) = uᵀWw, and Ω♭v = Ω(v, ·) = Wᵀv;
 * - a bivector is its Poisson matrix Π, Πⁱʲ = {xⁱ, xʲ}, and B♯α = Πα, so X_H = B♯dH; the
 *   paper's B(α, β) of Thm 2.4 is B(α, β) = ⟨β, B♯α⟩ = βᵀΠα. With these, graph Ω♭ = graph B♯
 *   exactly when Π = (Wᵀ)⁻¹ = (Ω♭)⁻¹, and the canonical Π = W = [[0, I], [−I, 0]] on T*Rⁿ gives
 *   X_H = (∂H/∂p, −∂H/∂q).
 *
 * Tolerances are relative (spec 002 §5.1): isotropy |bₐᵀSb_b| ≤ {@link DIRAC_ISOTROPY_RTOL}·
 * max‖b_j‖², ranks with singular values ≤ {@link SUBSPACE_RANK_RTOL}·‖B‖_F dropped, membership
 * |b_jᵀSx| ≤ {@link DIRAC_MEMBERSHIP_RTOL}·‖b_j‖‖x‖, skewness ‖W + Wᵀ‖_max ≤
 * {@link DIRAC_SKEW_RTOL}·‖W‖_max.
 *
 * @module
 */
import { DimensionError, DomainError, norm2, normInf } from '@geomech/core';
import { pairing, SUBSPACE_RANK_RTOL, Subspace } from './subspace.js';

/** Relative isotropy tolerance: |⟨⟨bₐ, b_b⟩⟩| ≤ 1e-12·max_j ‖b_j‖₂² for all spanning columns. */
export const DIRAC_ISOTROPY_RTOL = 1e-12;

/** Relative membership tolerance of {@link LinearDiracStructure.contains}: |b_jᵀSx| ≤ 1e-10·‖b_j‖‖x‖. */
export const DIRAC_MEMBERSHIP_RTOL = 1e-10;

/**
 * Relative skewness tolerance for two-forms and bivectors: max |W_ij + W_ji| ≤ 1e-12·max |W_ij|
 * (the same threshold as core's `SYMMETRY_RTOL`).
 */
export const DIRAC_SKEW_RTOL = 1e-12;

/**
 * ⟨⟨x, y⟩⟩ = ⟨α, v̄⟩ + ⟨ᾱ, v⟩ for x = [v; α], y = [v̄; ᾱ] ∈ R²ⁿ (seed 002 §2, spec 002 §3.1, no ½).
 *
 * @throws {@link DimensionError} unless both lengths are equal and even.
 *
 * @example
 * ```ts
 * symmetricPairing([1, 2, 3, 4], [1, 2, 3, 4]); // 22 = 2⟨α, v⟩
 * ```
 */
export function symmetricPairing(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length || x.length % 2 !== 0) {
    throw new DimensionError(
      'symmetricPairing: vectors',
      `equal even lengths`,
      `${x.length} and ${y.length}`,
    );
  }
  const n = x.length / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += x[n + i]! * y[i]! + y[n + i]! * x[i]!;
  return s;
}

/**
 * The split-signature form S(n) = [[0, I], [I, 0]], row-major 2n × 2n: ⟨⟨x, y⟩⟩ = xᵀSy
 * (spec 002 §3.1).
 *
 * @example
 * ```ts
 * splitForm(1); // [0, 1, 1, 0]
 * ```
 */
export function splitForm(n: number): Float64Array {
  const s = new Float64Array(4 * n * n);
  for (let i = 0; i < n; i++) {
    s[i * 2 * n + n + i] = 1;
    s[(n + i) * 2 * n + i] = 1;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// private helpers

function checkSize(what: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new DimensionError(what, 'a non-negative integer', v);
}

function checkTol(what: string, tol: number): void {
  if (!(tol >= 0 && Number.isFinite(tol)))
    throw new DomainError(`${what}: tol`, tol, 'a finite non-negative number');
}

function checkSquare(what: string, W: ArrayLike<number>, n: number): void {
  if (W.length !== n * n)
    throw new DimensionError(`${what}: length of ${n}×${n} matrix`, n * n, W.length);
  for (let i = 0; i < W.length; i++)
    if (!Number.isFinite(W[i]!)) throw new DomainError(`${what}: entry ${i}`, W[i], 'finite');
}

/** Throws unless max |W_ij + W_ji| ≤ DIRAC_SKEW_RTOL·max |W_ij|. */
function requireSkew(what: string, W: ArrayLike<number>, n: number): void {
  let scale = 0;
  let asym = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      scale = Math.max(scale, Math.abs(W[i * n + j]!));
      if (j >= i) asym = Math.max(asym, Math.abs(W[i * n + j]! + W[j * n + i]!));
    }
  if (asym > DIRAC_SKEW_RTOL * scale) {
    throw new DomainError(
      what,
      asym,
      `must be skew-symmetric (max |W_ij + W_ji| ≤ ${DIRAC_SKEW_RTOL}·max |W_ij| = ${DIRAC_SKEW_RTOL * scale})`,
    );
  }
}

/** Column j of a rows × k row-major matrix. */
function columnOf(B: ArrayLike<number>, rows: number, k: number, j: number): Float64Array {
  const c = new Float64Array(rows);
  for (let i = 0; i < rows; i++) c[i] = B[i * k + j]!;
  return c;
}

/** Assembles a rows × k spanning matrix column by column from blocks placed at row offsets. */
class BasisBuilder {
  readonly B: Float64Array;
  private col = 0;
  constructor(
    readonly rows: number,
    readonly k: number,
  ) {
    this.B = new Float64Array(rows * k);
  }
  /** Appends a column whose entries `entries[r]` are placed at rows offset + r. */
  push(parts: ReadonlyArray<readonly [offset: number, entries: ArrayLike<number>]>): void {
    const j = this.col++;
    for (const [offset, entries] of parts)
      for (let r = 0; r < entries.length; r++) this.B[(offset + r) * this.k + j] = entries[r]!;
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * A subspace D ⊂ V ⊕ V* (V = Rⁿ) given by spanning columns B (2n × k, row-major, columns
 * `[v; α]`), with the Dirac tests of spec 002 §3.1 and the constructions of seed 002 §2–§3:
 * {@link LinearDiracStructure.fromDistribution} (Prop 2.2), {@link LinearDiracStructure.fromTwoForm}
 * (Thm 2.3), {@link LinearDiracStructure.fromBivector} (Thm 2.4), the graphs of a two-form and of a
 * bivector, {@link LinearDiracStructure.kirchhoff} (Thm 3.1) and
 * {@link LinearDiracStructure.interconnection} (Thm 3.4).
 *
 * The paper-named constructors return exactly n spanning columns (a basis).
 *
 * @example
 * ```ts
 * const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
 * D.isDirac(); // true: the graph of a skew form is Lagrangian for S
 * ```
 */
export class LinearDiracStructure {
  constructor(
    /** Dimension n of V. */
    readonly n: number,
    /** Spanning columns, 2n × k row-major. */
    readonly basis: Float64Array,
    /** Number of spanning columns k. */
    readonly k: number,
  ) {
    checkSize('LinearDiracStructure: n', n);
    checkSize('LinearDiracStructure: k', k);
    if (basis.length !== 2 * n * k)
      throw new DimensionError('LinearDiracStructure: basis', 2 * n * k, basis.length);
  }

  // -------------------------------------------------------------------------------------------
  // constructors of the paper

  /**
   * The graph of a two-form W (n × n, row-major): D = {(v, Ω♭v)} with Ω♭v = Wᵀv (spec 002 §3.4,
   * §5.3; seed 002 example after Thm 2.3). D is Dirac iff W is skew; W is not checked, so that a
   * non-skew W yields a non-isotropic D.
   *
   * @throws {@link DimensionError} if `W.length ≠ n²`.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2).contains([1, 0, 0, 1]); // true
   * ```
   */
  static graphTwoForm(W: ArrayLike<number>, n: number): LinearDiracStructure {
    if (W.length !== n * n) throw new DimensionError('graphTwoForm: W', n * n, W.length);
    const B = new Float64Array(2 * n * n);
    for (let j = 0; j < n; j++) {
      B[j * n + j] = 1; // v = e_j
      for (let i = 0; i < n; i++) B[(n + i) * n + j] = W[j * n + i]!; // α = Wᵀ e_j
    }
    return new LinearDiracStructure(n, B, n);
  }

  /**
   * The graph of a bivector Π (n × n Poisson matrix, Πⁱʲ = {xⁱ, xʲ}): D = {(B♯α, α)} with
   * B♯α = Πα (spec 002 §3.5, §7.1; seed 002 example after Thm 2.4). D is Dirac iff Π is skew; Π is
   * not checked. For the canonical Π = [[0, I], [−I, 0]] on T*R^m, B♯dH = (∂H/∂p, −∂H/∂q) and D
   * equals {@link LinearDiracStructure.graphTwoForm} of the same matrix (canonical Dirac structure).
   *
   * @throws {@link DimensionError} if `Pi.length ≠ n²`.
   *
   * @example
   * ```ts
   * // canonical Poisson structure on T*R: X_H = (H_p, −H_q) pairs with dH = (H_q, H_p)
   * const D = LinearDiracStructure.graphPoisson(Float64Array.of(0, 1, -1, 0), 2);
   * D.contains([3, -2, 2, 3]); // true: H_q = 2, H_p = 3
   * ```
   */
  static graphPoisson(Pi: ArrayLike<number>, n: number): LinearDiracStructure {
    if (Pi.length !== n * n) throw new DimensionError('graphPoisson: Pi', n * n, Pi.length);
    const B = new Float64Array(2 * n * n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) B[i * n + j] = Pi[i * n + j]!; // v = Π e_j
      B[(n + j) * n + j] = 1; // α = e_j
    }
    return new LinearDiracStructure(n, B, n);
  }

  /**
   * D = Δ × Δ° (seed 002 Prop 2.2; Thm 3.1 for Kirchhoff's laws), with basis {(g_j, 0)} ∪
   * {(0, ω_a)} for orthonormal bases g of Δ and ω of Δ° (spec 002 §3.2): dimension (n − m) + m = n.
   *
   * @example
   * ```ts
   * const Delta = Subspace.kernel(Float64Array.of(1, -1, 0), 1, 3);
   * const D = LinearDiracStructure.fromDistribution(Delta);
   * D.contains([1, 1, 5], [2, -2, 0]); // true: v ∈ Δ, α ∈ Δ°
   * ```
   */
  static fromDistribution(Delta: Subspace): LinearDiracStructure {
    return LinearDiracStructure.fromTwoFormUnchecked(undefined, Delta);
  }

  /**
   * Thm 2.3 (seed 002): for a two-form Ω (Ω(u, w) = uᵀWw, W skew) and a subspace Δ,
   *   D = {(v, α) | v ∈ Δ, α(w) = Ω(v, w) ∀ w ∈ Δ} = {(v, α) | v ∈ Δ, α − Wᵀv ∈ Δ°}
   * (spec 002 §3.4), with basis {(g_j, Wᵀg_j)} ∪ {(0, ω_a)}. W = 0 gives Δ × Δ°
   * ({@link LinearDiracStructure.fromDistribution}); Δ = V gives the graph of Ω♭.
   *
   * @throws {@link DimensionError} if `W.length ≠ n²` (n = Δ.ambientDim);
   *   {@link DomainError} if W is not skew (to {@link DIRAC_SKEW_RTOL}) or has non-finite entries.
   *
   * @example
   * ```ts
   * const W = Float64Array.of(0, 1, 0, -1, 0, 0, 0, 0, 0); // Ω = dx ∧ dy on R³
   * const Delta = Subspace.kernel(Float64Array.of(0, 0, 1), 1, 3); // the xy-plane
   * const D = LinearDiracStructure.fromTwoForm(W, Delta);
   * D.contains([1, 0, 0], [0, 1, 7]); // true: α − Wᵀv = (0, 0, 7) ∈ Δ°
   * ```
   */
  static fromTwoForm(W: ArrayLike<number>, Delta: Subspace): LinearDiracStructure {
    const n = Delta.ambientDim;
    checkSquare('fromTwoForm: W', W, n);
    requireSkew('fromTwoForm: W', W, n);
    return LinearDiracStructure.fromTwoFormUnchecked(W, Delta);
  }

  private static fromTwoFormUnchecked(
    W: ArrayLike<number> | undefined,
    Delta: Subspace,
  ): LinearDiracStructure {
    const n = Delta.ambientDim;
    const ann = Delta.annihilator();
    const b = new BasisBuilder(2 * n, n);
    for (let j = 0; j < Delta.dim; j++) {
      const g = Delta.column(j);
      const alpha = new Float64Array(n); // Ω♭g = Wᵀg
      if (W !== undefined)
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let l = 0; l < n; l++) s += W[l * n + i]! * g[l]!;
          alpha[i] = s;
        }
      b.push([
        [0, g],
        [n, alpha],
      ]);
    }
    for (let a = 0; a < ann.dim; a++) b.push([[n, ann.column(a)]]);
    return new LinearDiracStructure(n, b.B, n);
  }

  /**
   * Thm 2.4 (seed 002): for a bivector with Poisson matrix Π (skew) and a codistribution Δ* ⊂ V*,
   *   D = {(v, α) | α ∈ Δ*, β(v) = B(α, β) ∀ β ∈ Δ*} = {(v, α) | α ∈ Δ*, v − Πα ∈ (Δ*)°},
   * with the convention B♯α = Πα, B(α, β) = ⟨β, B♯α⟩ (module docs; spec 002 §3.5, §7.1). Basis
   * {(Πβ_j, β_j)} ∪ {(u_k, 0)}, β a basis of Δ*, u of (Δ*)°. Π = 0 gives (Δ*)° × Δ* (Prop 2.2);
   * Δ* = V* gives the graph of B♯.
   *
   * @throws {@link DimensionError} if `Pi.length ≠ n²` (n = Δ*.ambientDim);
   *   {@link DomainError} if Π is not skew (to {@link DIRAC_SKEW_RTOL}) or has non-finite entries.
   *
   * @example
   * ```ts
   * const Pi = Float64Array.of(0, 1, -1, 0); // canonical Poisson matrix on T*R
   * const DeltaStar = Subspace.span([1, 0], 2, 1); // only dq-covectors
   * const D = LinearDiracStructure.fromBivector(Pi, DeltaStar);
   * D.contains([0, 5], [1, 0]); // true: v − Πα = (0, 5) − (0, −1) ∈ (Δ*)° = span{(0, 1)}
   * ```
   */
  static fromBivector(Pi: ArrayLike<number>, DeltaStar: Subspace): LinearDiracStructure {
    const n = DeltaStar.ambientDim;
    checkSquare('fromBivector: Pi', Pi, n);
    requireSkew('fromBivector: Pi', Pi, n);
    const ann = DeltaStar.annihilator();
    const b = new BasisBuilder(2 * n, n);
    for (let j = 0; j < DeltaStar.dim; j++) {
      const beta = DeltaStar.column(j);
      const v = new Float64Array(n); // B♯β = Πβ
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let l = 0; l < n; l++) s += Pi[i * n + l]! * beta[l]!;
        v[i] = s;
      }
      b.push([
        [0, v],
        [n, beta],
      ]);
    }
    for (let k = 0; k < ann.dim; k++) b.push([[0, ann.column(k)]]);
    return new LinearDiracStructure(n, b.B, n);
  }

  /**
   * The Kirchhoff Dirac structure D_E = Δ × Δ° of a circuit graph (seed 002 Thm 3.1, spec 002
   * §3.6): rows of `incidence` (rows × n) are the KCL one-forms ωᵃ with coefficients in
   * {−1, 0, +1}, columns the n branches; Δ = {f | ⟨ωᵃ, f⟩ = 0} are the branch currents allowed by
   * KCL and Δ° = {e = μₐωᵃ} the branch voltages allowed by KVL. Dependent rows (e.g. a full
   * node-branch incidence matrix, whose rows sum to zero) are rank-reduced: only their span
   * matters (spec 002 §3.6 implementation note). Every (f, e) ∈ D_E satisfies Tellegen's theorem
   * Σₖ eₖfₖ = 0 (Cor 3.2).
   *
   * @throws {@link DimensionError} if `incidence.length ≠ rows·n`;
   *   {@link DomainError} if an entry is not −1, 0 or +1.
   *
   * @example
   * ```ts
   * // the L-C circuit of seed 002 §7: −f_L + f_C2 = 0, −f_C1 + f_C2 − f_C3 = 0
   * const D = LinearDiracStructure.kirchhoff(Float64Array.of(-1, 0, 1, 0, 0, -1, 1, -1), 2, 4);
   * D.contains([1, 1, 1, 0], [-1, -2, 3, -2]); // true, and Σ e_k f_k = 0
   * ```
   */
  static kirchhoff(incidence: ArrayLike<number>, rows: number, n: number): LinearDiracStructure {
    checkSize('kirchhoff: rows', rows);
    checkSize('kirchhoff: n', n);
    if (incidence.length !== rows * n)
      throw new DimensionError(
        `kirchhoff: length of ${rows}×${n} incidence`,
        rows * n,
        incidence.length,
      );
    for (let i = 0; i < incidence.length; i++) {
      const c = incidence[i]!;
      if (c !== 0 && c !== 1 && c !== -1)
        throw new DomainError(`kirchhoff: incidence entry ${i}`, c, 'must be −1, 0 or +1');
    }
    const kvl = Subspace.rowSpace(incidence, rows, n);
    return LinearDiracStructure.fromDistribution(kvl.annihilator());
  }

  /**
   * The interconnection Dirac structure of seed 002 Thm 3.4 on V = T_{(q,p)}T*E = E × E*
   * (dim V = 2n, elements of V ⊕ V* ordered `[v; α; a; w]` ∈ R⁴ⁿ: tangent (v, α), covector
   * (a, w)):
   *   D = {((v, α), (−α, w)) | α ∈ Δ*, v − w ∈ (Δ*)°}.
   * It is Thm 2.4 with the canonical Poisson matrix and the codistribution {(a, w) | a ∈ Δ*}.
   * Basis (spec 002 §3.6): ((eᵢ, 0), (0, eᵢ)), ((0, κ_j), (−κ_j, 0)) for κ a basis of Δ*, and
   * ((0, 0), (0, u_k)) for u a basis of (Δ*)°: dimension 2n. Every element ((v̂, F), (F̂, v))
   * satisfies power invariance ⟨F, v⟩ + ⟨F̂, v̂⟩ = 0 with F̂ = −F (Newton's action–reaction).
   *
   * @returns a structure with `n` = 2·Δ*.ambientDim.
   *
   * @example
   * ```ts
   * // contact forces along the first axis of R² only
   * const D = LinearDiracStructure.interconnection(Subspace.span([1, 0], 2, 1));
   * D.n;                                         // 4
   * D.contains([1, 2, 3, 0], [-3, 0, 1, 5]);     // true: F = (3, 0), v̂ − v = (0, −3) ∈ (Δ*)°
   * ```
   */
  static interconnection(DeltaStar: Subspace): LinearDiracStructure {
    const n = DeltaStar.ambientDim;
    const ann = DeltaStar.annihilator();
    const b = new BasisBuilder(4 * n, 2 * n);
    for (let i = 0; i < n; i++) {
      const e = new Float64Array(n);
      e[i] = 1;
      b.push([
        [0, e], // v = eᵢ
        [3 * n, e], // w = eᵢ
      ]);
    }
    for (let j = 0; j < DeltaStar.dim; j++) {
      const kappa = DeltaStar.column(j);
      const minus = kappa.map((x) => -x);
      b.push([
        [n, kappa], // α = κ
        [2 * n, minus], // a = −κ
      ]);
    }
    for (let k = 0; k < ann.dim; k++) b.push([[3 * n, ann.column(k)]]); // w = u
    return new LinearDiracStructure(2 * n, b.B, 2 * n);
  }

  /**
   * The kernel–image representation D = {(f, e) | F f + E e = 0} of port-Hamiltonian systems
   * (spec 002 §5.3, [external]: van der Schaft–Maschke), for F, E of size rows × n. It is Dirac iff
   * rank [F E] = n and F Eᵀ + E Fᵀ = 0; both are required.
   *
   * @throws {@link DimensionError} on sizes; {@link DomainError} if rank [F E] ≠ n (`value` = the
   *   rank) or F Eᵀ + E Fᵀ ≠ 0 to {@link DIRAC_SKEW_RTOL}·‖F‖_max‖E‖_max·n (`value` = its largest
   *   entry).
   *
   * @example
   * ```ts
   * // f + W e = 0 with W skew: the graph {(−We, e)} of the bivector −W
   * const D = LinearDiracStructure.fromKernelImage(Float64Array.of(1, 0, 0, 1), Float64Array.of(0, 2, -2, 0), 2, 2);
   * D.contains([-2, 0], [0, 1]); // true
   * ```
   */
  static fromKernelImage(
    F: ArrayLike<number>,
    E: ArrayLike<number>,
    rows: number,
    n: number,
  ): LinearDiracStructure {
    checkSize('fromKernelImage: rows', rows);
    checkSize('fromKernelImage: n', n);
    if (F.length !== rows * n)
      throw new DimensionError(`fromKernelImage: length of ${rows}×${n} F`, rows * n, F.length);
    if (E.length !== rows * n)
      throw new DimensionError(`fromKernelImage: length of ${rows}×${n} E`, rows * n, E.length);
    let fMax = 0;
    let eMax = 0;
    for (let i = 0; i < rows * n; i++) {
      fMax = Math.max(fMax, Math.abs(F[i]!));
      eMax = Math.max(eMax, Math.abs(E[i]!));
    }
    let defect = 0;
    for (let i = 0; i < rows; i++)
      for (let j = i; j < rows; j++) {
        let s = 0;
        for (let l = 0; l < n; l++)
          s += F[i * n + l]! * E[j * n + l]! + E[i * n + l]! * F[j * n + l]!;
        defect = Math.max(defect, Math.abs(s));
      }
    if (defect > DIRAC_SKEW_RTOL * fMax * eMax * Math.max(1, n)) {
      throw new DomainError('fromKernelImage: F Eᵀ + E Fᵀ', defect, 'must vanish');
    }
    const FE = new Float64Array(rows * 2 * n);
    for (let i = 0; i < rows; i++)
      for (let l = 0; l < n; l++) {
        FE[i * 2 * n + l] = F[i * n + l]!;
        FE[i * 2 * n + n + l] = E[i * n + l]!;
      }
    const rowSpace = Subspace.rowSpace(FE, rows, 2 * n);
    if (rowSpace.dim !== n) {
      throw new DomainError('fromKernelImage: [F E]', rowSpace.dim, `must have rank n = ${n}`);
    }
    const D = rowSpace.annihilator(); // ker [F E]
    return new LinearDiracStructure(n, D.basis, D.dim);
  }

  // -------------------------------------------------------------------------------------------
  // tests and derived spaces

  /**
   * max |BᵀSB| entry (absolute): zero iff D is isotropic.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(1, 0, 0, 0), 2).isotropyDefect(); // 2
   * ```
   */
  isotropyDefect(): number {
    const { n, k, basis } = this;
    let worst = 0;
    const cols = Array.from({ length: k }, (_, j) => columnOf(basis, 2 * n, k, j));
    for (let a = 0; a < k; a++)
      for (let b = a; b < k; b++)
        worst = Math.max(worst, Math.abs(symmetricPairing(cols[a]!, cols[b]!)));
    return worst;
  }

  /**
   * BᵀSB = 0 up to `tol`·max_j ‖b_j‖₂² (spec 002 §3.1; relative, scale-free).
   *
   * @param tol - default {@link DIRAC_ISOTROPY_RTOL}.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2).isIsotropic(); // true
   * ```
   */
  isIsotropic(tol: number = DIRAC_ISOTROPY_RTOL): boolean {
    checkTol('isIsotropic', tol);
    const { n, k, basis } = this;
    let scale = 0;
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let i = 0; i < 2 * n; i++) s += basis[i * k + j]! ** 2;
      scale = Math.max(scale, s);
    }
    return this.isotropyDefect() <= tol * scale;
  }

  /**
   * dim D = rank B, singular values ≤ `tol`·‖B‖_F dropped.
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2).dimension(); // 2
   * ```
   */
  dimension(tol: number = SUBSPACE_RANK_RTOL): number {
    checkTol('dimension', tol);
    return Subspace.span(this.basis, 2 * this.n, this.k, tol).dim;
  }

  /**
   * rank B = n = dim V (spec 002 §3.1).
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   *
   * @example
   * ```ts
   * new LinearDiracStructure(2, Float64Array.of(1, 0, 0, 0), 1).isMaximal(); // false: dim 1 < 2
   * ```
   */
  isMaximal(tol: number = SUBSPACE_RANK_RTOL): boolean {
    return this.dimension(tol) === this.n;
  }

  /**
   * Isotropic and maximal, i.e. D = D^⊥ (seed 002 §2 criterion).
   *
   * @param tol - isotropy tolerance, default {@link DIRAC_ISOTROPY_RTOL}.
   *
   * @example
   * ```ts
   * LinearDiracStructure.fromDistribution(Subspace.whole(3)).isDirac(); // true: V × {0}
   * ```
   */
  isDirac(tol: number = DIRAC_ISOTROPY_RTOL): boolean {
    return this.isIsotropic(tol) && this.isMaximal();
  }

  /**
   * The orthogonal D^⊥ = {x | ⟨⟨x, y⟩⟩ = 0 ∀ y ∈ D} = null(BᵀS) (spec 002 §3.1), with an
   * orthonormal basis; D is Dirac iff D^⊥ = D.
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   *
   * @example
   * ```ts
   * const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
   * D.orthogonal().equals(D); // true
   * ```
   */
  orthogonal(tol: number = SUBSPACE_RANK_RTOL): LinearDiracStructure {
    checkTol('orthogonal', tol);
    const { n, k, basis } = this;
    // row j of BᵀS is (S b_j)ᵀ = [α_j; v_j]ᵀ
    const BtS = new Float64Array(k * 2 * n);
    for (let j = 0; j < k; j++)
      for (let i = 0; i < n; i++) {
        BtS[j * 2 * n + i] = basis[(n + i) * k + j]!;
        BtS[j * 2 * n + n + i] = basis[i * k + j]!;
      }
    const perp = Subspace.rowSpace(BtS, k, 2 * n, tol).annihilator(); // null(BᵀS) = (rowspace BᵀS)°
    return new LinearDiracStructure(n, perp.basis, perp.dim);
  }

  /**
   * D as a {@link Subspace} of R²ⁿ (orthonormal basis).
   *
   * @param tol - relative rank tolerance, default {@link SUBSPACE_RANK_RTOL}.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2).subspace().dim; // 2
   * ```
   */
  subspace(tol: number = SUBSPACE_RANK_RTOL): Subspace {
    return Subspace.span(this.basis, 2 * this.n, this.k, tol);
  }

  /**
   * Equality as subspaces of V ⊕ V* (same n, same dimension, gap ≤ `tol`; see
   * {@link Subspace.equals}).
   *
   * @example
   * ```ts
   * const J = Float64Array.of(0, 1, -1, 0);
   * LinearDiracStructure.graphPoisson(J, 2).equals(LinearDiracStructure.graphTwoForm(J, 2)); // true
   * ```
   */
  equals(other: LinearDiracStructure, tol?: number): boolean {
    if (other.n !== this.n) return false;
    return this.subspace().equals(other.subspace(), tol);
  }

  /**
   * The element B c = Σ_j c_j b_j of D (a new vector of R²ⁿ).
   *
   * @throws {@link DimensionError} if `c.length ≠ k`.
   *
   * @example
   * ```ts
   * LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2).element([1, 0]); // [1, 0, 0, 1]
   * ```
   */
  element(c: ArrayLike<number>): Float64Array {
    const { n, k, basis } = this;
    if (c.length !== k) throw new DimensionError('LinearDiracStructure.element: c', k, c.length);
    const x = new Float64Array(2 * n);
    for (let i = 0; i < 2 * n; i++) {
      let s = 0;
      for (let j = 0; j < k; j++) s += basis[i * k + j]! * c[j]!;
      x[i] = s;
    }
    return x;
  }

  /**
   * x = [v; α] ∈ D ⇔ BᵀSx = 0 (spec 002 §3.1), tested as |⟨⟨b_j, x⟩⟩| ≤ `tol`·‖b_j‖₂‖x‖₂ for every
   * spanning column. This is membership in D^⊥, which equals D when D is Dirac (the case of every
   * paper constructor); for other subspaces use `subspace().contains(x)`.
   *
   * @param tol - relative tolerance, default {@link DIRAC_MEMBERSHIP_RTOL}.
   * @throws {@link DimensionError} if `x.length ≠ 2n` (or `v`, `α` ≠ n); {@link DomainError} on a
   *   bad `tol`.
   *
   * @example
   * ```ts
   * const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
   * D.contains([1, 0, 0, 1]);      // true
   * D.contains([1, 0], [0, 1.001]); // false
   * ```
   */
  contains(x: ArrayLike<number>, tol?: number): boolean;
  contains(v: ArrayLike<number>, alpha: ArrayLike<number>, tol?: number): boolean;
  contains(first: ArrayLike<number>, second?: number | ArrayLike<number>, third?: number): boolean {
    const { n, k, basis } = this;
    let x: ArrayLike<number>;
    let tol: number;
    if (second === undefined || typeof second === 'number') {
      x = first;
      tol = second ?? DIRAC_MEMBERSHIP_RTOL;
      if (x.length !== 2 * n)
        throw new DimensionError('LinearDiracStructure.contains: x', 2 * n, x.length);
    } else {
      if (first.length !== n)
        throw new DimensionError('LinearDiracStructure.contains: v', n, first.length);
      if (second.length !== n)
        throw new DimensionError('LinearDiracStructure.contains: alpha', n, second.length);
      const xy = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        xy[i] = first[i]!;
        xy[n + i] = second[i]!;
      }
      x = xy;
      tol = third ?? DIRAC_MEMBERSHIP_RTOL;
    }
    checkTol('contains', tol);
    const xMax = normInf(x);
    if (xMax === 0) return true;
    const y = Float64Array.from(x, (xi) => xi / xMax); // scale-free, no underflow
    const yNorm = norm2(y);
    for (let j = 0; j < k; j++) {
      const col = columnOf(basis, 2 * n, k, j);
      if (Math.abs(symmetricPairing(col, y)) > tol * norm2(col) * yNorm) return false;
    }
    return true;
  }

  /**
   * Tellegen's residual ⟨α, v⟩ of x = [v; α] (or of v and α), zero for every element of a Dirac
   * structure (seed 002 (2.1); Cor 3.2 for circuits: Σₖ eₖfₖ = 0).
   *
   * @example
   * ```ts
   * LinearDiracStructure.tellegenResidual([1, 2, 3, 4]);   // 11 = ⟨(3, 4), (1, 2)⟩
   * LinearDiracStructure.tellegenResidual([1, 2], [3, 4]); // 11
   * ```
   */
  static tellegenResidual(x: ArrayLike<number>): number;
  static tellegenResidual(v: ArrayLike<number>, alpha: ArrayLike<number>): number;
  static tellegenResidual(first: ArrayLike<number>, alpha?: ArrayLike<number>): number {
    if (alpha !== undefined) return pairing(alpha, first);
    return 0.5 * symmetricPairing(first, first);
  }
}
