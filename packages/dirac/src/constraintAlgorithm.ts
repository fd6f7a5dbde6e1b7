/**
 * The constraint algorithm (Gotay–Nester / Dirac–Bergmann, done with linear algebra) for
 * degenerate LINEAR-QUADRATIC implicit Lagrangian systems (spec 002 §5.8(c), not in the paper):
 * reading L = ½vᵀMv + vᵀSq − ½qᵀKq and constant one-forms A off a system, the Wong-sequence
 * iteration that finds the primary and secondary constraints (the 4-port L-C circuit's hidden
 * q_C1/C1 = q_C3/C3, spec 002 §4.2), and the linear flow on the constraint subspace that
 * {@link integrateDegenerate} evolves.
 *
 * @module
 */
import {
  DenseQR,
  DomainError,
  eigenvalues,
  matMul,
  matVec,
  NonRegularSystemError,
  nullSpace,
  transpose,
} from '@geomech/core';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, checkLength, maxAbs, rankAtScale, spectralNorm } from './internal.js';
import { DIRAC_RANK_RTOL, isQuadraticLagrangian } from './lagrangian.js';

/** Rows of an n×d column basis, transposed: the d×n matrix whose rows are the columns. */
function rowsFromColumns(basis: Float64Array, n: number, d: number): Float64Array {
  return transpose(new Float64Array(d * n), basis, n, d);
}

/**
 * The data of a linear-quadratic implicit Lagrangian system: L = ½vᵀMv + vᵀSq − ½qᵀKq (+ const)
 * and constant constraint one-forms A (m×n).
 */
export interface LinearQuadraticData {
  readonly n: number;
  readonly m: number;
  readonly M: Float64Array;
  readonly S: Float64Array;
  readonly K: Float64Array;
  readonly A: Float64Array;
}

/** Deterministic probe point for the linear-quadratic check (no special structure). */
function probe(n: number, a: number, b: number): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = a + b * Math.sin(1.7 * i + 0.3);
  return x;
}

/** Relative agreement test ‖x − y‖∞ ≤ tol·max(1, ‖x‖∞, ‖y‖∞). */
function close(x: ArrayLike<number>, y: ArrayLike<number>, tol: number): boolean {
  let d = 0;
  let s = 1;
  for (let i = 0; i < x.length; i++) {
    d = Math.max(d, Math.abs(x[i]! - y[i]!));
    s = Math.max(s, Math.abs(x[i]!), Math.abs(y[i]!));
  }
  return d <= tol * s;
}

/** Agreement tolerance of the linear-quadratic probe (the probe derivatives are exact or ~1e-10). */
const LINEAR_QUADRATIC_PROBE_RTOL = 1e-8;

/**
 * Reads M, S, K and A off a system if it is linear-quadratic — L = ½vᵀMv + vᵀSq − ½qᵀKq up to a
 * constant, A constant — exactly from a {@link quadraticLagrangian}, otherwise by probing the
 * first derivatives (∂L/∂v(0, eⱼ) = Meⱼ, ∂L/∂v(eⱼ, 0) = Seⱼ, ∂L/∂q(eⱼ, 0) = −Keⱼ) and checking
 * ∂L/∂v, ∂L/∂q, A and Ȧ = 0 at a generic point (relative 1e-8).
 *
 * @throws DomainError when the system is not linear-quadratic with constant A (then the linear
 *   constraint algorithm does not apply).
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc4 = circuit.lagrangian, kcl4 = circuit.distribution;
 * linearQuadraticData(new ImplicitLagrangianSystem(lc4, kcl4)).M; // [0.7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] = diag(L, 0, 0, 0)
 * ```
 */
export function linearQuadraticData(system: ImplicitLagrangianSystem): LinearQuadraticData {
  const what = 'linearQuadraticData';
  const { n, m, L, Delta } = system;
  const z = new Float64Array(n);
  const A = Delta.A(new Float64Array(m * n), z);
  checkFinite(`${what}: A`, A);
  const qs = probe(n, 0.31, 0.9);
  const vs = probe(n, -0.27, 1.1);
  const As = Delta.A(new Float64Array(m * n), qs);
  const Ads = Delta.Adot(new Float64Array(m * n), qs, vs);
  if (
    !close(A, As, LINEAR_QUADRATIC_PROBE_RTOL) ||
    maxAbs(Ads) > LINEAR_QUADRATIC_PROBE_RTOL * Math.max(1, maxAbs(A))
  )
    throw new DomainError(
      `${what}: Delta`,
      'A depends on q',
      'the linear constraint algorithm needs constant one-forms A',
    );
  let M: Float64Array;
  let S: Float64Array;
  let K: Float64Array;
  if (isQuadraticLagrangian(L)) {
    M = Float64Array.from(L.M);
    S = Float64Array.from(L.S);
    K = Float64Array.from(L.K);
  } else {
    M = new Float64Array(n * n);
    S = new Float64Array(n * n);
    K = new Float64Array(n * n);
    const e = new Float64Array(n);
    const out = new Float64Array(n);
    const p0 = L.Lv(new Float64Array(n), z, z);
    const f0 = L.Lq(new Float64Array(n), z, z);
    if (maxAbs(p0) > 0 || maxAbs(f0) > 0)
      throw new DomainError(
        `${what}: L`,
        'has linear terms',
        'must be homogeneous quadratic (no constant forces or momenta)',
      );
    for (let j = 0; j < n; j++) {
      e.fill(0);
      e[j] = 1;
      L.Lv(out, z, e);
      for (let i = 0; i < n; i++) M[i * n + j] = out[i]!;
      L.Lv(out, e, z);
      for (let i = 0; i < n; i++) S[i * n + j] = out[i]!;
      L.Lq(out, e, z);
      for (let i = 0; i < n; i++) K[i * n + j] = -out[i]!;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = 0.5 * (M[i * n + j]! + M[j * n + i]!);
        M[i * n + j] = a;
        M[j * n + i] = a;
        const b = 0.5 * (K[i * n + j]! + K[j * n + i]!);
        K[i * n + j] = b;
        K[j * n + i] = b;
      }
    }
    const pv = L.Lv(new Float64Array(n), qs, vs);
    const fv = L.Lq(new Float64Array(n), qs, vs);
    const pe = new Float64Array(n);
    const fe = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let a = 0;
      let b = 0;
      for (let j = 0; j < n; j++) {
        a += M[i * n + j]! * vs[j]! + S[i * n + j]! * qs[j]!;
        b += S[j * n + i]! * vs[j]! - K[i * n + j]! * qs[j]!;
      }
      pe[i] = a;
      fe[i] = b;
    }
    if (!close(pv, pe, LINEAR_QUADRATIC_PROBE_RTOL) || !close(fv, fe, LINEAR_QUADRATIC_PROBE_RTOL))
      throw new DomainError(
        `${what}: L`,
        'not quadratic',
        'must be ½vᵀMv + vᵀSq − ½qᵀKq with constant M, S, K',
      );
  }
  checkFinite(`${what}: M`, M);
  checkFinite(`${what}: S`, S);
  checkFinite(`${what}: K`, K);
  return { n, m, M, S, K, A };
}

/** Options of {@link constraintAlgorithm}. */
export interface ConstraintAlgorithmOptions {
  /** Relative rank tolerance of the subspace iteration (after balancing). Default {@link DIRAC_RANK_RTOL}. */
  readonly rtol?: number;
}

/**
 * The outcome of the constraint algorithm for a linear-quadratic implicit Lagrangian system: the
 * constraint subspace 𝒞 ⊂ TQ (consistent (q, v)), its constraints, and the linear flow on it.
 */
export class ConstraintAlgorithmResult {
  constructor(
    /** The system's M, S, K, A. */
    readonly data: LinearQuadraticData,
    /** Orthonormal basis of Δ = ker A (n×r). */
    readonly G: Float64Array,
    readonly r: number,
    /**
     * Primary constraints as rows on (q, p) ∈ R²ⁿ (count × 2n): P = 𝔽L(Δ) = {(q, Mv + Sq) : v ∈ Δ}
     * is their common kernel, i.e. b·(p − Sq) = 0 for b ⊥ range(MG). For the 4-port circuit these
     * are p_C1 = p_C2 = p_C3 = 0.
     */
    readonly primary: Float64Array,
    readonly primaryCount: number,
    /**
     * Secondary constraints on positions, orthonormal rows (count × n): Cq = 0 on 𝒞. For the
     * 4-port circuit one row ∝ (0, 1/C1, 0, −1/C3), i.e. q_C1/C1 = q_C3/C3.
     */
    readonly positionConstraints: Float64Array,
    readonly positionConstraintCount: number,
    /**
     * All linear conditions on v alone on 𝒞 (count × n, orthonormal rows): the rows of A and the
     * hidden velocity constraints (for the circuit f_C1/C1 = f_C3/C3).
     */
    readonly velocityConstraints: Float64Array,
    readonly velocityConstraintCount: number,
    /** Every linear constraint of 𝒞 as rows on (q, v) ∈ R²ⁿ ((2n − dimension) × 2n). */
    readonly constraints: Float64Array,
    /** dim V_k of the iteration in (q, u) space, u the coordinates on Δ: [n + r, …, dimension]. */
    readonly stageDimensions: readonly number[],
    /** dim 𝒞. */
    readonly dimension: number,
    /** Basis of 𝒞 in (q, v) coordinates (2n × dimension, columns; not orthonormal). */
    readonly basis: Float64Array,
    /** The flow on 𝒞: ξ̇ = R ξ for (q, v) = basis·ξ (dimension × dimension). */
    readonly flow: Float64Array,
    /** Eigenvalues of `flow`. */
    readonly eigenvalues: { readonly re: Float64Array; readonly im: Float64Array },
    /** The positive imaginary parts of the eigenvalues, ascending: the angular frequencies. */
    readonly frequencies: Float64Array,
  ) {}

  /** Number of stages that found new (secondary, tertiary, …) constraints. */
  get secondaryStages(): number {
    return this.stageDimensions.length - 1;
  }

  /**
   * Consistent initialization: the Euclidean least-squares projection of (q, v) onto 𝒞,
   * ξ = argmin ‖basis·ξ − (q, v)‖₂, with the projected (q, v) and the size of the correction.
   * (q and v carry different units; pass consistent data when the metric matters.)
   */
  project(
    q: ArrayLike<number>,
    v: ArrayLike<number>,
  ): {
    readonly xi: Float64Array;
    readonly q: Float64Array;
    readonly v: Float64Array;
    readonly correction: number;
  } {
    const n = this.data.n;
    checkLength('ConstraintAlgorithmResult.project: q', q, n);
    checkLength('ConstraintAlgorithmResult.project: v', v, n);
    const d = this.dimension;
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      x[i] = q[i]!;
      x[n + i] = v[i]!;
    }
    const xi =
      d === 0
        ? new Float64Array(0)
        : new DenseQR(2 * n, d)
            .factor(this.basis, 2 * n, d)
            .solveLeastSquares(x, new Float64Array(d));
    const y = matVec(new Float64Array(2 * n), this.basis, 2 * n, d, xi);
    let c = 0;
    for (let i = 0; i < 2 * n; i++) c += (y[i]! - x[i]!) ** 2;
    return { xi, q: y.slice(0, n), v: y.slice(n), correction: Math.sqrt(c) };
  }
}

/** out ← orthonormal basis (columns) of the kernel of the r×c matrix a, tolerance tol (absolute). */
function kernel(
  a: Float64Array,
  r: number,
  c: number,
  tol: number,
): { basis: Float64Array; d: number } {
  if (c === 0) return { basis: new Float64Array(0), d: 0 };
  if (r === 0) {
    const basis = new Float64Array(c * c);
    for (let i = 0; i < c; i++) basis[i * c + i] = 1;
    return { basis, d: c };
  }
  return nullSpace(a, r, c, tol);
}

/**
 * Orthonormal basis (columns, r×k) of the vectors orthogonal to the columns of the r×c matrix a:
 * the kernel of aᵀ, singular values relative to ‖a‖₂ (all of Rʳ when a = 0 or c = 0).
 */
function cokernel(
  a: Float64Array,
  r: number,
  c: number,
  rtol: number,
): { basis: Float64Array; d: number } {
  if (c === 0) return kernel(a, 0, r, 0);
  return kernel(transpose(new Float64Array(r * c), a, r, c), c, r, rtol * spectralNorm(a, r, c));
}

/**
 * The constraint algorithm (Gotay–Nester / Dirac–Bergmann, done with linear algebra) for
 * LINEAR-QUADRATIC implicit Lagrangian systems, L = ½vᵀMv + vᵀSq − ½qᵀKq with constant M, S, K
 * (M possibly singular) and constant one-forms A of full row rank. Scope: exactly this class
 * (L-C circuits, spec 002 §4.2; linear traditors, §4.3; linearized mechanics); anything else
 * throws a DomainError.
 *
 * With v = Gu (G an orthonormal basis of Δ = ker A) the equations (6.4) are the linear DAE
 *
 *   E ẋ = F x,   x = (q, u),   E = [I 0; 0 GᵀMG],   F = [0 G; −GᵀK −Gᵀ(S − Sᵀ)G],
 *
 * whose u-rows are Gᵀ(ṗ − ∂L/∂q) = 0 (the multipliers drop out). Where GᵀMG is singular, some
 * combinations of these rows contain no derivative: they are constraints. The algorithm is the
 * Wong sequence V₀ = R^{n+r}, V_{k+1} = {x ∈ V_k : F x ∈ E V_k} — "the state must stay where the
 * equations can be solved with a velocity tangent to the current constraint set" — which stops
 * at the consistent subspace V* (the final constraint manifold). Primary constraints are those of
 * P = 𝔽L(Δ); the secondary ones are read off V*: on positions (Cq = 0) and on velocities. For
 * the 4-port circuit: V₀ = R⁶ → V₁ (q_C1/C1 = q_C3/C3) → V₂ (f_C1/C1 = f_C3/C3) = V*.
 *
 * On V* the flow is unique iff E restricted to V* is injective (else `undetermined-dynamics`);
 * then ξ̇ = Rξ with R = (E B)⁺ F B. Rank decisions are made after balancing (M/‖M‖, K/‖K‖ with
 * time scaled by ω₀ = √(‖K‖/‖M‖)), so physical units (nH, pF) do not fool the tolerances.
 *
 * @throws DomainError when the system is not linear-quadratic with constant A.
 * @throws NonRegularSystemError `rank-deficient-constraints` (dependent rows of A) or
 *   `undetermined-dynamics` (gauge freedom left on V*).
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc4 = circuit.lagrangian, kcl4 = circuit.distribution;
 * const alg = constraintAlgorithm(new ImplicitLagrangianSystem(lc4, kcl4));
 * alg.positionConstraints; // one row ∝ (0, 1/C1, 0, −1/C3)
 * alg.frequencies;         // [ω_LC] = [√((1/L)(1/C2 + 1/(C1 + C3)))]
 * ```
 */
export function constraintAlgorithm(
  system: ImplicitLagrangianSystem,
  options: ConstraintAlgorithmOptions = {},
): ConstraintAlgorithmResult {
  const rtol = options.rtol ?? DIRAC_RANK_RTOL;
  const data = linearQuadraticData(system);
  const { n, m, M, S, K, A } = data;
  if (m > 0) {
    const rankA = rankAtScale(A, m, n, spectralNorm(A, m, n), rtol);
    if (rankA < m)
      throw new NonRegularSystemError('rank-deficient-constraints', {
        detail: `rank A = ${rankA} < m = ${m}: the constraint one-forms are dependent; drop redundant rows`,
        rank: rankA,
        expected: m,
      });
  }
  const ker = kernel(A, m, n, m > 0 ? rtol * spectralNorm(A, m, n) : 0);
  const G = ker.basis;
  const r = ker.d;
  const Gt = transpose(new Float64Array(r * n), G, n, r);
  const Mr = matMul(
    new Float64Array(r * r),
    Gt,
    matMul(new Float64Array(n * r), M, G, n, n, r),
    r,
    n,
    r,
  );
  const GK = matMul(new Float64Array(r * n), Gt, K, r, n, n);
  const Sg = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) Sg[i * n + j] = S[i * n + j]! - S[j * n + i]!;
  const GSG = matMul(
    new Float64Array(r * r),
    Gt,
    matMul(new Float64Array(n * r), Sg, G, n, n, r),
    r,
    n,
    r,
  );

  // balancing: u = ω₀ w, t = s/ω₀, u-rows divided by ρ (see the doc comment)
  const sM = spectralNorm(M, n, n);
  const sK = spectralNorm(K, n, n);
  const sS = spectralNorm(GSG, r, r);
  let omega0 = 1;
  let rho = 1;
  if (sM > 0 && sK > 0) {
    omega0 = Math.sqrt(sK / sM);
    rho = sK;
  } else if (sK > 0) {
    omega0 = sS > 0 ? sK / sS : 1;
    rho = sK;
  } else if (sM > 0) {
    omega0 = sS > 0 ? sS / sM : 1;
    rho = sM * omega0 * omega0;
  } else if (sS > 0) {
    rho = sS;
  }
  const N = n + r;
  const E = new Float64Array(N * N);
  const F = new Float64Array(N * N);
  for (let i = 0; i < n; i++) {
    E[i * N + i] = 1;
    for (let c = 0; c < r; c++) F[i * N + n + c] = G[i * r + c]!;
  }
  for (let a = 0; a < r; a++) {
    for (let c = 0; c < r; c++) {
      E[(n + a) * N + n + c] = (Mr[a * r + c]! * omega0 * omega0) / rho;
      F[(n + a) * N + n + c] = (-GSG[a * r + c]! * omega0) / rho;
    }
    for (let j = 0; j < n; j++) F[(n + a) * N + j] = -GK[a * n + j]! / rho;
  }

  // Wong sequence V_{k+1} = {x ∈ V_k : F x ∈ E V_k}
  let B: Float64Array = new Float64Array(N * N);
  for (let i = 0; i < N; i++) B[i * N + i] = 1;
  let d = N;
  const stageDimensions = [N];
  const tolF = rtol * Math.max(1, spectralNorm(F, N, N));
  for (let iter = 0; iter <= N && d > 0; iter++) {
    const EB = matMul(new Float64Array(N * d), E, B, N, N, d);
    const P = kernel(
      transpose(new Float64Array(d * N), EB, N, d),
      d,
      N,
      rtol * Math.max(1, spectralNorm(EB, N, d)),
    );
    if (P.d === 0) break;
    const FB = matMul(new Float64Array(N * d), F, B, N, N, d);
    const Pt = transpose(new Float64Array(P.d * N), P.basis, N, P.d);
    const C = matMul(new Float64Array(P.d * d), Pt, FB, P.d, N, d);
    const Z = kernel(C, P.d, d, tolF);
    if (Z.d === d) break;
    B = matMul(new Float64Array(N * Z.d), B, Z.basis, N, d, Z.d);
    d = Z.d;
    stageDimensions.push(d);
  }

  // the flow on V*: (E B) ξ' = (F B) ξ in scaled time, unique iff E B has full column rank
  const EB = matMul(new Float64Array(N * d), E, B, N, N, d);
  const FB = matMul(new Float64Array(N * d), F, B, N, N, d);
  const Rhat = new Float64Array(d * d);
  if (d > 0) {
    const rankEB = rankAtScale(EB, N, d, Math.max(1, spectralNorm(EB, N, d)), rtol);
    if (rankEB < d)
      throw new NonRegularSystemError('undetermined-dynamics', {
        detail: `E is not injective on the ${d}-dimensional constraint subspace: ${d - rankEB} velocity direction(s) stay free (gauge freedom)`,
        rank: rankEB,
        expected: d,
      });
    const qr = new DenseQR(N, d).factor(EB, N, d);
    const col = new Float64Array(N);
    const sol = new Float64Array(d);
    for (let c = 0; c < d; c++) {
      for (let i = 0; i < N; i++) col[i] = FB[i * d + c]!;
      qr.solveLeastSquares(col, sol);
      for (let i = 0; i < d; i++) Rhat[i * d + c] = sol[i]!;
    }
  }
  const flow = new Float64Array(d * d);
  for (let i = 0; i < d * d; i++) flow[i] = omega0 * Rhat[i]!;

  // basis of 𝒞 in (q, v): q = B_q ξ, v = G u = ω₀ G B_w ξ
  const basis = new Float64Array(2 * n * d);
  for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) basis[i * d + c] = B[i * d + c]!;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let s = 0;
      for (let a = 0; a < r; a++) s += G[i * r + a]! * B[(n + a) * d + c]!;
      basis[(n + i) * d + c] = omega0 * s;
    }
  }

  // constraints read off V*
  const posKer = cokernel(B.subarray(0, n * d), n, d, rtol);
  const velKer = cokernel(basis.subarray(n * d), n, d, rtol);
  const allKer = cokernel(basis, 2 * n, d, rtol);

  // primary constraints: b ⊥ range(MG), rows (−bᵀS, bᵀ) on (q, p)
  const MG = matMul(new Float64Array(n * r), M, G, n, n, r);
  const prim = kernel(transpose(new Float64Array(r * n), MG, n, r), r, n, rtol * sM);
  const kP = prim.d;
  const primary = new Float64Array(kP * 2 * n);
  for (let c = 0; c < kP; c++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += prim.basis[i * kP + c]! * S[i * n + j]!;
      primary[c * 2 * n + j] = -s;
      primary[c * 2 * n + n + j] = prim.basis[j * kP + c]!;
    }
  }

  const eig = eigenvalues(flow, d);
  const freqTol = rtol * Math.max(1, maxAbs(eig.re), maxAbs(eig.im));
  const freqs: number[] = [];
  for (let i = 0; i < d; i++) if (eig.im[i]! > freqTol) freqs.push(eig.im[i]!);
  freqs.sort((a, b) => a - b);

  return new ConstraintAlgorithmResult(
    data,
    Float64Array.from(G),
    r,
    primary,
    kP,
    rowsFromColumns(posKer.basis, n, posKer.d),
    posKer.d,
    rowsFromColumns(velKer.basis, n, velKer.d),
    velKer.d,
    rowsFromColumns(allKer.basis, 2 * n, allKer.d),
    stageDimensions,
    d,
    basis,
    flow,
    eig,
    Float64Array.from(freqs),
  );
}
