/**
 * The special Euclidean group SE(n) for any n ≥ 2, stored as (n+1)×(n+1) homogeneous matrices
 * [[R, t], [0, 1]] (row-major), with the exponential and logarithm from the dense matrix
 * functions of `linalg/expm.ts` and Jacobians φ₁(±ad_τ) by Van Loan's block trick.
 * Conventions: `packages/core/CONVENTIONS.md` (right ⊕/⊖, right Jacobians, τ = [v, ω]).
 *
 * @module
 */
import { GROUP_VALIDITY_TOL, LOG_ELEMENT_TOL, SEN_RANDOM_MAX_ANGLE } from '../constants.js';
import { DomainError } from '../errors.js';
import { Expm, Logm, Phi1m } from '../linalg/expm.js';
import { DenseLU } from '../linalg/lu.js';
import { svd } from '../linalg/spectral.js';
import {
  allFinite,
  checkJac,
  lengthError,
  matMulInto,
  newtonSchulz,
  orthogonalityDefect,
  setIdentity,
} from './internal.js';
import type { LieGroup, Rng } from './types.js';

/**
 * SE(n) = SO(n) ⋉ Rⁿ, the rigid motions of Rⁿ, for general n ≥ 2 (`new SEnGroup(n)` or
 * {@link SEn}). Conventions: `packages/core/CONVENTIONS.md`.
 *
 * **Storage** (`layout` = `rowMajor(n+1)²`): the homogeneous matrix X = [[R, t], [0, 1]], N = n+1,
 * flat row-major; storageSize = matrixSize² = (n+1)², actionDim = n, X·p = R p + t.
 *
 * **Tangent** τ = [v, ω] ∈ R^{n + n(n−1)/2} (translation first), τ^ = [[ω^, v], [0, 0]], with the
 * so(n) basis: coordinate ω_k multiplies L_k = (−1)^{i+j}(E_ij − E_ji), where (i, j), i < j (0-based),
 * runs through the index pairs in **reverse lexicographic order** (n−2, n−1), (n−3, n−1),
 * (n−3, n−2), (n−4, n−1), …, (0, 2), (0, 1). So ω^ has (i, j) entry (−1)^{i+j}ω_k and (j, i) entry
 * −(−1)^{i+j}ω_k. This reproduces the standard maps:
 * - n = 2: ω^ = [[0, −ω], [ω, 0]] (the single pair (0, 1));
 * - n = 3: ω^ = [[0, −ω₃, ω₂], [ω₃, 0, −ω₁], [−ω₂, ω₁, 0]] (pairs (1, 2), (0, 2), (0, 1); L_k is the
 *   rotation about axis k, so SEn(3) agrees with SE(3), τ = [v, ω]);
 * - n = 4: pairs (2, 3), (1, 3), (1, 2), (0, 3), (0, 2), (0, 1) with signs −, +, −, −, +, −.
 * The L_k are orthogonal with tr(L_kᵀL_l) = 2δ_kl. vee reads (−1)^{i+j}·m_ij and m_{i,n}.
 *
 * **Operations**:
 * - compose, inverse, act in closed form on the blocks: (R₁, t₁)(R₂, t₂) = (R₁R₂, R₁t₂ + t₁),
 *   (R, t)⁻¹ = (Rᵀ, −Rᵀt);
 * - Exp(τ) = expm(τ^) (scaling and squaring, Al-Mohy & Higham 2009); Log(X) = logm(X)∨ on the
 *   principal branch (rotation angles < π), with the so(n) block skew-symmetrized;
 * - Ad_X = [[R, B], [0, C]] where C is Ω ↦ RΩRᵀ on so(n), C_lk = σ_lσ_k(R_{i_l i_k}R_{j_l j_k} −
 *   R_{i_l j_k}R_{j_l i_k}) (σ_k = (−1)^{i_k+j_k}), and B e_k = −(R L_k Rᵀ)t; for n = 3 this is
 *   manif's [[R, [t]×R], [0, R]];
 * - ad_τ = [[ω^, D], [0, ad_ω]] with D e_k = −L_k v and ad_ω e_k = [ω^, L_k]∨ (commutators of
 *   the basis, so ad_τ σ = [τ^, σ^]∨);
 * - J_l(τ) = Σ_k ad_τ^k/(k+1)! = φ₁(ad_τ), the top-right block of exp([[ad_τ, I], [0, 0]])
 *   (Van Loan 1978); J_r(τ) = J_l(−τ); the inverses by LU ({@link DenseLU}).
 *
 * compose, inverse, act, exp, log, hat, vee, adj and smallAdj allocate nothing (scratch lives in
 * the instance; one instance is not re-entrant). Cost: exp/log are O(n³) dense matrix functions,
 * the Jacobians O(dim³) with dim = n(n+1)/2 — fine for n ≲ 10.
 *
 * @example
 * ```ts
 * const G = SEn(3);
 * const X = G.exp(new Float64Array(16), Float64Array.of(1, 0, 0, 0, 0, Math.PI / 2));
 * G.act(new Float64Array(3), X, Float64Array.of(1, 0, 0)); // ≈ [2/π, 1 + 2/π, 0]
 * G.log(new Float64Array(6), X); // ≈ [1, 0, 0, 0, 0, π/2]
 * ```
 */
export class SEnGroup implements LieGroup {
  readonly name: string;
  /** The dimension n of the space the group acts on. */
  readonly n: number;
  readonly dim: number;
  readonly storageSize: number;
  readonly matrixSize: number;
  readonly actionDim: number;
  /** Storage layout of an element, e.g. `'rowMajor16'` for SE(3). */
  readonly layout: string;
  /** Number n(n−1)/2 of rotation coordinates ω. */
  readonly rotationDim: number;
  /** First index i_k of the k-th so(n) basis pair (i_k < j_k). */
  private readonly planeI: Int32Array;
  /** Second index j_k of the k-th so(n) basis pair. */
  private readonly planeJ: Int32Array;
  /** Sign σ_k = (−1)^{i_k + j_k} of the k-th generator L_k = σ_k(E_ij − E_ji). */
  private readonly planeSign: Float64Array;
  private readonly expmN: Expm;
  private readonly logmN: Logm;
  private readonly phiDim: Phi1m;
  private readonly lu: DenseLU;
  private readonly sC: Float64Array;
  private readonly sE: Float64Array;
  private readonly sE2: Float64Array;
  private readonly sH: Float64Array;
  private readonly sP: Float64Array;
  private readonly sT: Float64Array;
  private readonly sJ: Float64Array;
  private readonly sAd: Float64Array;
  private readonly sCol: Float64Array;
  private readonly sJ2: Float64Array;
  private readonly sAd2: Float64Array;
  private readonly sE3: Float64Array;
  private readonly sR: Float64Array;
  private readonly sR2: Float64Array;
  private readonly luN: DenseLU;
  private readonly tag: string;
  private readonly sizes: {
    readonly S: readonly number[];
    readonly SS: readonly number[];
    readonly SSS: readonly number[];
    readonly SD: readonly number[];
    readonly DS: readonly number[];
    readonly DSS: readonly number[];
    readonly SSD: readonly number[];
    readonly SDS: readonly number[];
    readonly D2D: readonly number[];
    readonly D2S: readonly number[];
    readonly ASA: readonly number[];
  };

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 2)
      throw new DomainError('SEn: n', n, 'n must be an integer >= 2');
    const N = n + 1;
    const m = (n * (n - 1)) / 2;
    const dim = n + m;
    this.n = n;
    this.name = `SE(${n})`;
    this.dim = dim;
    this.storageSize = N * N;
    this.matrixSize = N;
    this.actionDim = n;
    this.layout = `rowMajor${N * N}`;
    this.rotationDim = m;
    this.planeI = new Int32Array(m);
    this.planeJ = new Int32Array(m);
    this.planeSign = new Float64Array(m);
    let k = m - 1; // fill the lexicographic order backwards = reverse lexicographic order
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        this.planeI[k] = i;
        this.planeJ[k] = j;
        this.planeSign[k] = (i + j) % 2 === 0 ? 1 : -1;
        k--;
      }
    this.expmN = new Expm(N);
    this.logmN = new Logm(N);
    this.phiDim = new Phi1m(dim);
    this.lu = new DenseLU(dim);
    this.sC = new Float64Array(N * N);
    this.sE = new Float64Array(N * N);
    this.sE2 = new Float64Array(N * N);
    this.sH = new Float64Array(N * N);
    this.sP = new Float64Array(n);
    this.sT = new Float64Array(dim);
    this.sJ = new Float64Array(dim * dim);
    this.sAd = new Float64Array(dim * dim);
    this.sCol = new Float64Array(dim);
    this.sJ2 = new Float64Array(dim * dim);
    this.sAd2 = new Float64Array(dim * dim);
    this.sE3 = new Float64Array(N * N);
    this.sR = new Float64Array(n * n);
    this.sR2 = new Float64Array(n * n);
    this.luN = new DenseLU(n);
    this.tag = `SEn(${n})`;
    const S = N * N;
    this.sizes = {
      S: [S],
      SS: [S, S],
      SSS: [S, S, S],
      SD: [S, dim],
      DS: [dim, S],
      DSS: [dim, S, S],
      SSD: [S, S, dim],
      SDS: [S, dim, S],
      D2D: [dim * dim, dim],
      D2S: [dim * dim, S],
      ASA: [n, S, n],
    };
  }

  /**
   * The k-th so(n) basis pair: ω_k multiplies L_k = sign·(E_ij − E_ji) (0-based, i < j). Allocates
   * a small object; for documentation and tests.
   *
   * @example
   * ```ts
   * SEn(3).generator(0); // { i: 1, j: 2, sign: -1 }: L₀ = E₂₁ − E₁₂, the rotation about x
   * ```
   */
  generator(k: number): { i: number; j: number; sign: number } {
    if (!Number.isInteger(k) || k < 0 || k >= this.rotationDim)
      throw new DomainError('SEn.generator: k', k, `0 <= k < ${this.rotationDim}`);
    return { i: this.planeI[k]!, j: this.planeJ[k]!, sign: this.planeSign[k]! };
  }

  /** out ← I_{n+1}. */
  identity(out: Float64Array): Float64Array {
    if (out.length !== this.storageSize)
      lengthError(`${this.tag}.identity`, ['out'], this.sizes.S, [out]);
    const N = this.matrixSize;
    out.fill(0);
    for (let i = 0; i < N; i++) out[i * N + i] = 1;
    return out;
  }

  /**
   * out ← a·b = (R_aR_b, R_a t_b + t_a). `out` may alias `a` or `b`. J_out_a = Ad_{b⁻¹},
   * J_out_b = I.
   */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (a.length - S) | (b.length - S)) !== 0)
      lengthError(`${this.tag}.compose`, OUT_A_B, this.sizes.SSS, [out, a, b]);
    const dd = this.dim * this.dim;
    if (J_out_a !== undefined) {
      checkJac(`${this.tag}.compose`, 'J_out_a', J_out_a, dd);
      this.adjKernel(J_out_a, this.inverseKernel(this.sE3, b));
    }
    if (J_out_b !== undefined) {
      checkJac(`${this.tag}.compose`, 'J_out_b', J_out_b, dd);
      setIdentity(J_out_b, this.dim);
    }
    return this.composeKernel(out, a, b);
  }

  /** out ← a⁻¹ = (Rᵀ, −Rᵀt). `out` may alias `a`. J_out_a = −Ad_a. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (a.length - S)) !== 0)
      lengthError(`${this.tag}.inverse`, OUT_A, this.sizes.SS, [out, a]);
    if (J_out_a !== undefined) {
      checkJac(`${this.tag}.inverse`, 'J_out_a', J_out_a, this.dim * this.dim);
      this.adjKernel(J_out_a, a, -1);
    }
    return this.inverseKernel(out, a);
  }

  /**
   * out ← Exp(τ) = expm(τ^) (Al-Mohy & Higham 2009); the last row is set to [0, …, 0, 1].
   * J_out_tau = J_r(τ) = φ₁(−ad_τ).
   */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (tau.length - this.dim)) !== 0)
      lengthError(`${this.tag}.exp`, OUT_TAU, this.sizes.SD, [out, tau]);
    if (J_out_tau !== undefined) {
      checkJac(`${this.tag}.exp`, 'J_out_tau', J_out_tau, this.dim * this.dim);
      this.rjacKernel(J_out_tau, tau);
    }
    return this.expKernel(out, tau);
  }

  /**
   * out ← Log(X) = logm(X)∨ (inverse scaling and squaring, Higham 2008, Algorithm 11.10), the
   * principal logarithm: rotation angles in [0, π). The so(n) part is read from the skew part
   * (L − Lᵀ)/2 of the computed logarithm L. J_out_X = J_r⁻¹(out) (by LU).
   * @throws DomainError when the rotation block is not orthogonal to within `LOG_ELEMENT_TOL`
   *   (max |(RᵀR − I)_ij|; cheap next to logm), or R has a rotation angle of π (eigenvalue −1:
   *   Log is not unique there; every det R < 0 has one). NonFiniteError on NaN.
   */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array {
    if (((out.length - this.dim) | (X.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.log`, OUT_X, this.sizes.DS, [out, X]);
    this.logKernel(out, X, `${this.tag}.log: X`);
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.log`, 'J_out_X', J_out_X, this.dim * this.dim);
      this.invertInto(J_out_X, this.rjacKernel(this.sJ, out));
    }
    return out;
  }

  /** out ← τ^ = [[ω^, v], [0, 0]] ((n+1)×(n+1), basis in the class doc). `out` must not alias `tau`. */
  hat(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (tau.length - this.dim)) !== 0)
      lengthError(`${this.tag}.hat`, OUT_TAU, this.sizes.SD, [out, tau]);
    return this.hatKernel(out, tau);
  }

  /** out ← m∨ = [m_{0,n}, …, m_{n−1,n}, σ_k·m_{i_k j_k}], inverse of {@link hat}. */
  vee(out: Float64Array, m: Float64Array): Float64Array {
    if (((out.length - this.dim) | (m.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.vee`, ['out', 'm'], this.sizes.DS, [out, m]);
    const n = this.n;
    const N = n + 1;
    for (let a = 0; a < n; a++) out[a] = m[a * N + n]!;
    for (let k = 0; k < this.rotationDim; k++)
      out[n + k] = this.planeSign[k]! * m[this.planeI[k]! * N + this.planeJ[k]!]!;
    return out;
  }

  /**
   * out ← X·p = R p + t. `out` may alias `p`. J_out_X (n×dim) has columns R e_a for the
   * translation coordinates and R L_k p = σ_k(p_j R e_i − p_i R e_j) for the rotation
   * coordinates; J_out_p = R.
   */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array {
    const n = this.n;
    const N = n + 1;
    if (((out.length - n) | (X.length - this.storageSize) | (p.length - n)) !== 0)
      lengthError(`${this.tag}.act`, OUT_X_P, this.sizes.ASA, [out, X, p]);
    const dim = this.dim;
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.act`, 'J_out_X', J_out_X, n * dim);
      for (let r = 0; r < n; r++) {
        for (let a = 0; a < n; a++) J_out_X[r * dim + a] = X[r * N + a]!;
        for (let k = 0; k < this.rotationDim; k++) {
          const i = this.planeI[k]!;
          const j = this.planeJ[k]!;
          J_out_X[r * dim + n + k] =
            this.planeSign[k]! * (p[j]! * X[r * N + i]! - p[i]! * X[r * N + j]!);
        }
      }
    }
    if (J_out_p !== undefined) {
      checkJac(`${this.tag}.act`, 'J_out_p', J_out_p, n * n);
      for (let r = 0; r < n; r++) for (let a = 0; a < n; a++) J_out_p[r * n + a] = X[r * N + a]!;
    }
    const P = this.sP;
    for (let i = 0; i < n; i++) {
      let s = X[i * N + n]!;
      for (let j = 0; j < n; j++) s += X[i * N + j]! * p[j]!;
      P[i] = s;
    }
    for (let i = 0; i < n; i++) out[i] = P[i]!;
    return out;
  }

  /**
   * out ← Ad_X = [[R, B], [0, C]] (dim×dim): C_lk = σ_lσ_k(R_{i_l i_k}R_{j_l j_k} −
   * R_{i_l j_k}R_{j_l i_k}) is Ω ↦ RΩRᵀ in the so(n) basis (2×2 minors of R), and
   * B_ak = −σ_k(R_{a i_k}s_{j_k} − R_{a j_k}s_{i_k}) with s = Rᵀt, i.e. B e_k = −(R L_k Rᵀ)t.
   */
  adj(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - this.dim * this.dim) | (X.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.adj`, OUT_X, this.sizes.D2S, [out, X]);
    return this.adjKernel(out, X);
  }

  /**
   * out ← ad_τ = [[ω^, D], [0, ad_ω]] (dim×dim) with D e_k = −L_k v and ad_ω e_k = [ω^, L_k]∨,
   * so that ad_τ σ = [τ^, σ^]∨. With L_k = σ_k(E_ij − E_ji), [Ω, L_k]_ab =
   * σ_k(Ω_ai δ_bj − Ω_aj δ_bi − δ_ai Ω_jb + δ_aj Ω_ib).
   */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array {
    if (((out.length - this.dim * this.dim) | (tau.length - this.dim)) !== 0)
      lengthError(`${this.tag}.smallAdj`, OUT_TAU, this.sizes.D2D, [out, tau]);
    return this.smallAdjKernel(out, tau);
  }

  /** out ← X·Exp(τ). `out` may alias `X`. J_out_X = Ad_{Exp(τ)⁻¹}, J_out_tau = J_r(τ). */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (X.length - S) | (tau.length - this.dim)) !== 0)
      lengthError(`${this.tag}.rplus`, OUT_X_TAU, this.sizes.SSD, [out, X, tau]);
    const E = this.expKernel(this.sE, tau);
    const dd = this.dim * this.dim;
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.rplus`, 'J_out_X', J_out_X, dd);
      this.adjKernel(J_out_X, this.inverseKernel(this.sE3, E));
    }
    if (J_out_tau !== undefined) {
      checkJac(`${this.tag}.rplus`, 'J_out_tau', J_out_tau, dd);
      this.rjacKernel(J_out_tau, tau);
    }
    return this.composeKernel(out, X, E);
  }

  /** out ← Log(X⁻¹·Y). J_out_Y = J_r⁻¹(out), J_out_X = −J_l⁻¹(out) (by LU). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - this.dim) | (Y.length - S) | (X.length - S)) !== 0)
      lengthError(`${this.tag}.rminus`, OUT_Y_X, this.sizes.DSS, [out, Y, X]);
    const Z = this.composeKernel(this.sE, this.inverseKernel(this.sE2, X), Y);
    this.logKernel(out, Z, `${this.tag}.rminus: X⁻¹Y`);
    const dd = this.dim * this.dim;
    if (J_out_Y !== undefined) {
      checkJac(`${this.tag}.rminus`, 'J_out_Y', J_out_Y, dd);
      this.invertInto(J_out_Y, this.rjacKernel(this.sJ, out));
    }
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.rminus`, 'J_out_X', J_out_X, dd);
      this.invertInto(J_out_X, this.phiDim.compute(this.sJ, this.smallAdjKernel(this.sAd, out)));
      for (let i = 0; i < dd; i++) J_out_X[i] = -J_out_X[i]!;
    }
    return out;
  }

  /** out ← Exp(τ)·X. `out` may alias `X`. J_out_tau = Ad_{X⁻¹}·J_r(τ), J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (tau.length - this.dim) | (X.length - S)) !== 0)
      lengthError(`${this.tag}.lplus`, OUT_TAU_X, this.sizes.SDS, [out, tau, X]);
    const dim = this.dim;
    if (J_out_tau !== undefined) {
      checkJac(`${this.tag}.lplus`, 'J_out_tau', J_out_tau, dim * dim);
      const Ai = this.adjKernel(this.sAd2, this.inverseKernel(this.sE3, X));
      matMulInto(J_out_tau, Ai, this.rjacKernel(this.sJ2, tau), dim, dim, dim);
    }
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.lplus`, 'J_out_X', J_out_X, dim * dim);
      setIdentity(J_out_X, dim);
    }
    return this.composeKernel(out, this.expKernel(this.sE, tau), X);
  }

  /** out ← Log(Y·X⁻¹). J_out_Y = J_r⁻¹(out)·Ad_X, J_out_X = −J_r⁻¹(out)·Ad_X. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - this.dim) | (Y.length - S) | (X.length - S)) !== 0)
      lengthError(`${this.tag}.lminus`, OUT_Y_X, this.sizes.DSS, [out, Y, X]);
    const Z = this.composeKernel(this.sE, Y, this.inverseKernel(this.sE2, X));
    this.logKernel(out, Z, `${this.tag}.lminus: YX⁻¹`);
    if (J_out_Y !== undefined || J_out_X !== undefined) {
      const dim = this.dim;
      const Jinv = this.invertInto(this.sJ2, this.rjacKernel(this.sJ, out));
      const Ad = this.adjKernel(this.sAd2, X);
      if (J_out_Y !== undefined) {
        checkJac(`${this.tag}.lminus`, 'J_out_Y', J_out_Y, dim * dim);
        matMulInto(J_out_Y, Jinv, Ad, dim, dim, dim);
      }
      if (J_out_X !== undefined) {
        checkJac(`${this.tag}.lminus`, 'J_out_X', J_out_X, dim * dim);
        matMulInto(J_out_X, Jinv, Ad, dim, dim, dim, -1);
      }
    }
    return out;
  }

  /** out ← X⁻¹·Y. `out` may alias `X` or `Y`. J_out_X = −Ad_{out⁻¹}, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array {
    const S = this.storageSize;
    if (((out.length - S) | (X.length - S) | (Y.length - S)) !== 0)
      lengthError(`${this.tag}.between`, OUT_X_Y, this.sizes.SSS, [out, X, Y]);
    this.composeKernel(out, this.inverseKernel(this.sE2, X), Y);
    const dd = this.dim * this.dim;
    if (J_out_X !== undefined) {
      checkJac(`${this.tag}.between`, 'J_out_X', J_out_X, dd);
      this.adjKernel(J_out_X, this.inverseKernel(this.sE3, out), -1);
    }
    if (J_out_Y !== undefined) {
      checkJac(`${this.tag}.between`, 'J_out_Y', J_out_Y, dd);
      setIdentity(J_out_Y, this.dim);
    }
    return out;
  }

  /** out ← J_r(τ) = J_l(−τ) = φ₁(−ad_τ). */
  rjac(out: Float64Array, tau: Float64Array): Float64Array {
    this.checkJacArgs('rjac', out, tau);
    return this.rjacKernel(out, tau);
  }

  /**
   * out ← J_l(τ) = Σ_k ad_τ^k/(k+1)! = φ₁(ad_τ), the top-right block of
   * exp([[ad_τ, I], [0, 0]]) (Van Loan 1978; {@link Phi1m}).
   */
  ljac(out: Float64Array, tau: Float64Array): Float64Array {
    this.checkJacArgs('ljac', out, tau);
    return this.phiDim.compute(out, this.smallAdjKernel(this.sAd, tau));
  }

  /** out ← J_r(τ)⁻¹ (LU with partial pivoting of J_r). */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array {
    this.checkJacArgs('rjacInv', out, tau);
    return this.invertInto(out, this.rjacKernel(this.sJ, tau));
  }

  /** out ← J_l(τ)⁻¹ (LU with partial pivoting of J_l). */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array {
    this.checkJacArgs('ljacInv', out, tau);
    return this.invertInto(out, this.phiDim.compute(this.sJ, this.smallAdjKernel(this.sAd, tau)));
  }

  /**
   * out ← a random element: R = expm(ω^) with ω_k uniform in [−1, 1], scaled down to
   * |ω| ≤ `SEN_RANDOM_MAX_ANGLE` (every rotation angle of R is ≤ ‖ω^‖₂ ≤ ‖ω^‖_F/√2 = |ω| < π, so
   * R is on Log's principal branch), and t uniform in [−2, 2]ⁿ.
   */
  random(out: Float64Array, rng: Rng): Float64Array {
    if (out.length !== this.storageSize)
      lengthError(`${this.tag}.random`, ['out'], this.sizes.S, [out]);
    const n = this.n;
    const N = n + 1;
    const t = this.sT;
    let norm2 = 0;
    for (let a = 0; a < n; a++) t[a] = 0;
    for (let k = 0; k < this.rotationDim; k++) {
      const w = 2 * rng() - 1;
      t[n + k] = w;
      norm2 += w * w;
    }
    const norm = Math.sqrt(norm2);
    if (norm > SEN_RANDOM_MAX_ANGLE) {
      const f = SEN_RANDOM_MAX_ANGLE / norm;
      for (let k = 0; k < this.rotationDim; k++) t[n + k] = t[n + k]! * f;
    }
    this.expKernel(out, t);
    for (let a = 0; a < n; a++) out[a * N + n] = 4 * rng() - 2;
    return out;
  }

  /** out ← X (copy of the homogeneous matrix). */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (X.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.toMatrix`, OUT_X, this.sizes.SS, [out, X]);
    for (let i = 0; i < this.storageSize; i++) out[i] = X[i]!;
    return out;
  }

  /** out ← M (copy; no re-orthonormalization, see {@link normalize}). */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (M.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.fromMatrix`, ['out', 'M'], this.sizes.SS, [out, M]);
    for (let i = 0; i < this.storageSize; i++) out[i] = M[i]!;
    return out;
  }

  /**
   * Whether X is a rigid motion: max |(RᵀR − I)_ij| ≤ tol, det R > 0 (by LU), finite
   * translation, last row [0, …, 0, 1] to within tol.
   *
   * @example
   * ```ts
   * const G = SEn(4);
   * G.isValid(G.identity(new Float64Array(25))); // true
   * ```
   */
  isValid(X: Float64Array, tol = GROUP_VALIDITY_TOL): boolean {
    if (X.length !== this.storageSize) lengthError(`${this.tag}.isValid`, ['X'], this.sizes.S, [X]);
    const n = this.n;
    const N = n + 1;
    if (!(orthogonalityDefect(X, n, N) <= tol)) return false;
    for (let a = 0; a < n; a++) {
      if (!Number.isFinite(X[a * N + n]!)) return false;
      if (!(Math.abs(X[n * N + a]!) <= tol)) return false;
    }
    if (!(Math.abs(X[n * N + n]! - 1) <= tol)) return false;
    if (!allFinite(X, N * N)) return false;
    return this.rotationDet(X) > 0;
  }

  /**
   * out ← X with its rotation block replaced by the nearest rotation in the Frobenius norm, the
   * translation kept and the last row reset. Newton–Schulz to the polar factor when
   * ‖RᵀR − I‖_F < `ROTATION_NEWTON_SCHULZ_RADIUS` and det R > 0 (allocation-free), otherwise the
   * SVD R = UΣVᵀ ↦ U·diag(1, …, 1, det(UVᵀ))·Vᵀ (core's Jacobi SVD, allocates: a cold path). `out` may
   * alias `X`.
   *
   * @throws DomainError when an entry is not finite.
   *
   * @example
   * ```ts
   * const G = SEn(4);
   * const X = G.random(new Float64Array(25), Math.random);
   * X[0] = X[0]! + 1e-8;
   * G.normalize(X, X);
   * ```
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array {
    if (((out.length - this.storageSize) | (X.length - this.storageSize)) !== 0)
      lengthError(`${this.tag}.normalize`, OUT_X, this.sizes.SS, [out, X]);
    const n = this.n;
    const N = n + 1;
    if (!allFinite(X, N * N))
      throw new DomainError(`${this.tag}.normalize: X`, 'a non-finite entry', 'must be finite');
    const R = this.sR;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) R[i * n + j] = X[i * N + j]!;
    const ok = this.rotationDet(X) > 0 && newtonSchulz(R, n, n, this.sR2, this.sC);
    if (!ok) {
      const { U, s, V } = svd(R, n, n);
      if (!(s[0]! > 0))
        throw new DomainError(
          `${this.tag}.normalize: X`,
          0,
          'a zero rotation block has no nearest rotation',
        );
      matMulInto(R, U, transposed(V, n), n, n, n);
      const d = this.luN.factor(R).determinant();
      if (d < 0) for (let i = 0; i < n; i++) U[i * n + n - 1] = -U[i * n + n - 1]!;
      matMulInto(R, U, transposed(V, n), n, n, n);
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) out[i * N + j] = R[i * n + j]!;
      out[i * N + n] = X[i * N + n]!;
    }
    this.lastRow(out);
    return out;
  }

  /** det of the rotation block of X, by LU. */
  private rotationDet(X: Float64Array): number {
    const n = this.n;
    const N = n + 1;
    const R = this.sR2;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) R[i * n + j] = X[i * N + j]!;
    return this.luN.factor(R).determinant();
  }

  private checkJacArgs(method: string, out: Float64Array, tau: Float64Array): void {
    if (((out.length - this.dim * this.dim) | (tau.length - this.dim)) !== 0)
      lengthError(`${this.tag}.${method}`, OUT_TAU, this.sizes.D2D, [out, tau]);
  }

  /** out ← a·b (no checks). `out` may alias `a` or `b`. */
  private composeKernel(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
    const n = this.n;
    const N = n + 1;
    const C = this.sC;
    for (let i = 0; i < n; i++) {
      const ri = i * N;
      for (let j = 0; j < N; j++) {
        let s = j === n ? a[ri + n]! : 0;
        for (let k = 0; k < n; k++) s += a[ri + k]! * b[k * N + j]!;
        C[ri + j] = s;
      }
    }
    for (let i = 0; i < n * N; i++) out[i] = C[i]!;
    this.lastRow(out);
    return out;
  }

  /** out ← a⁻¹ (no checks). `out` may alias `a`. */
  private inverseKernel(out: Float64Array, a: Float64Array): Float64Array {
    const n = this.n;
    const N = n + 1;
    const C = this.sC;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < n; k++) {
        const rki = a[k * N + i]!;
        C[i * N + k] = rki;
        s += rki * a[k * N + n]!;
      }
      C[i * N + n] = -s;
    }
    for (let i = 0; i < n * N; i++) out[i] = C[i]!;
    this.lastRow(out);
    return out;
  }

  /** out ← Exp(τ) (no checks). */
  private expKernel(out: Float64Array, tau: Float64Array): Float64Array {
    this.hatKernel(this.sH, tau);
    this.expmN.compute(out, this.sH);
    this.lastRow(out);
    return out;
  }

  /** out ← Log(X) (no length checks). */
  private logKernel(out: Float64Array, X: Float64Array, what: string): Float64Array {
    const n = this.n;
    const N = n + 1;
    const defect = orthogonalityDefect(X, n, N);
    if (defect > LOG_ELEMENT_TOL)
      throw new DomainError(
        what,
        defect,
        `must have an orthogonal rotation block: max |(RᵀR − I)_ij| ≤ ${LOG_ELEMENT_TOL} (use normalize first)`,
      );
    const L = this.logmN.compute(this.sH, X);
    for (let a = 0; a < n; a++) out[a] = L[a * N + n]!;
    for (let k = 0; k < this.rotationDim; k++) {
      const i = this.planeI[k]!;
      const j = this.planeJ[k]!;
      out[n + k] = 0.5 * this.planeSign[k]! * (L[i * N + j]! - L[j * N + i]!);
    }
    return out;
  }

  private hatKernel(out: Float64Array, tau: Float64Array): Float64Array {
    const n = this.n;
    const N = n + 1;
    out.fill(0, 0, N * N);
    for (let a = 0; a < n; a++) out[a * N + n] = tau[a]!;
    for (let k = 0; k < this.rotationDim; k++) {
      const i = this.planeI[k]!;
      const j = this.planeJ[k]!;
      const w = this.planeSign[k]! * tau[n + k]!;
      out[i * N + j] = w;
      out[j * N + i] = -w;
    }
    return out;
  }

  /** out ← s·Ad_X (see {@link adj}). */
  private adjKernel(out: Float64Array, X: Float64Array, scale = 1): Float64Array {
    const n = this.n;
    const N = n + 1;
    const m = this.rotationDim;
    const dim = this.dim;
    const s = this.sP;
    out.fill(0, 0, dim * dim);
    for (let a = 0; a < n; a++) {
      let acc = 0;
      for (let b = 0; b < n; b++) {
        out[a * dim + b] = scale * X[a * N + b]!;
        acc += X[b * N + a]! * X[b * N + n]!;
      }
      s[a] = acc;
    }
    for (let k = 0; k < m; k++) {
      const ik = this.planeI[k]!;
      const jk = this.planeJ[k]!;
      const sk = this.planeSign[k]!;
      const col = n + k;
      for (let a = 0; a < n; a++)
        out[a * dim + col] = -scale * sk * (X[a * N + ik]! * s[jk]! - X[a * N + jk]! * s[ik]!);
      for (let l = 0; l < m; l++) {
        const il = this.planeI[l]!;
        const jl = this.planeJ[l]!;
        out[(n + l) * dim + col] =
          scale *
          this.planeSign[l]! *
          sk *
          (X[il * N + ik]! * X[jl * N + jk]! - X[il * N + jk]! * X[jl * N + ik]!);
      }
    }
    return out;
  }

  private smallAdjKernel(out: Float64Array, tau: Float64Array): Float64Array {
    const n = this.n;
    const N = n + 1;
    const m = this.rotationDim;
    const dim = this.dim;
    const W = this.hatKernel(this.sH, tau); // ω^ in the top-left block, v in the last column
    out.fill(0, 0, dim * dim);
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) out[a * dim + b] = W[a * N + b]!;
    for (let k = 0; k < m; k++) {
      const i = this.planeI[k]!;
      const j = this.planeJ[k]!;
      const sk = this.planeSign[k]!;
      const col = n + k;
      // D e_k = −L_k v = −σ_k(v_j e_i − v_i e_j)
      out[i * dim + col] = -sk * tau[j]!;
      out[j * dim + col] = sk * tau[i]!;
      for (let l = 0; l < m; l++) {
        const a = this.planeI[l]!;
        const b = this.planeJ[l]!;
        let c = 0;
        if (b === j) c += W[a * N + i]!;
        if (b === i) c -= W[a * N + j]!;
        if (a === i) c -= W[j * N + b]!;
        if (a === j) c += W[i * N + b]!;
        out[(n + l) * dim + col] = this.planeSign[l]! * sk * c;
      }
    }
    return out;
  }

  /** out ← J_r(τ) = φ₁(−ad_τ) (no checks). */
  private rjacKernel(out: Float64Array, tau: ArrayLike<number>): Float64Array {
    const t = this.sT;
    for (let i = 0; i < this.dim; i++) t[i] = -tau[i]!;
    return this.phiDim.compute(out, this.smallAdjKernel(this.sAd, t));
  }

  /** Sets the last row of a homogeneous matrix to [0, …, 0, 1]. */
  private lastRow(out: Float64Array): void {
    const n = this.n;
    const N = n + 1;
    for (let j = 0; j < n; j++) out[n * N + j] = 0;
    out[n * N + n] = 1;
  }

  /** out ← J⁻¹ column by column from one LU factorization. */
  private invertInto(out: Float64Array, J: Float64Array): Float64Array {
    const dim = this.dim;
    const lu = this.lu.factor(J);
    const col = this.sCol;
    for (let c = 0; c < dim; c++) {
      col.fill(0);
      col[c] = 1;
      lu.solve(col, col);
      for (let r = 0; r < dim; r++) out[r * dim + c] = col[r]!;
    }
    return out;
  }
}

/**
 * SE(n) for n ≥ 2 as a {@link SEnGroup} (homogeneous (n+1)×(n+1) matrices, τ = [v, ω]; see the
 * class for the so(n) basis). Each call builds a new instance with its own scratch.
 *
 * @example
 * ```ts
 * const G = SEn(4); // dim 10, storageSize 25
 * const X = G.random(new Float64Array(25), Math.random);
 * G.log(new Float64Array(10), X);
 * ```
 */
export function SEn(n: number): SEnGroup {
  return new SEnGroup(n);
}

const OUT_A_B = ['out', 'a', 'b'];
const OUT_A = ['out', 'a'];
const OUT_TAU = ['out', 'tau'];
const OUT_X = ['out', 'X'];
const OUT_X_P = ['out', 'X', 'p'];
const OUT_X_TAU = ['out', 'X', 'tau'];
const OUT_Y_X = ['out', 'Y', 'X'];
const OUT_TAU_X = ['out', 'tau', 'X'];
const OUT_X_Y = ['out', 'X', 'Y'];

/** A new n×n array holding Vᵀ (cold path of `normalize`). */
function transposed(V: Float64Array, n: number): Float64Array {
  const T = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) T[j * n + i] = V[i * n + j]!;
  return T;
}
