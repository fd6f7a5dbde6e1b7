/**
 * Dense matrix functions on flat row-major `Float64Array`s (n×n, entry (i, j) at `i*n + j`):
 *
 * - {@link Expm} / {@link expm}: the matrix exponential by scaling and squaring with Padé
 *   approximants of degree m ∈ {3, 5, 7, 9, 13} (Al-Mohy & Higham 2009, Algorithm 5.1);
 * - {@link Logm} / {@link logm}: the principal logarithm by inverse scaling and squaring with
 *   the scaled product Denman–Beavers square root and partial-fraction Padé approximants of
 *   log(I + X) (Higham, *Functions of Matrices*, 2008, Algorithm 11.10);
 * - {@link Phi1m} / {@link phi1m}: φ₁(A) = Σ_{k≥0} A^k/(k+1)! = A⁻¹(e^A − I), as the top-right
 *   block of exp([[A, I], [0, 0]]) (Van Loan 1978, Theorem 1).
 *
 * The classes own their workspace, so repeated calls allocate nothing; the functions allocate a
 * fresh workspace per call. Thresholds are the `EXPM_*` constants of `constants.ts`.
 *
 * @module
 */
import {
  EXPM_LOGM_MAX_SQUARE_ROOTS,
  EXPM_LOGM_PADE_THETA,
  EXPM_LOGM_SQRT_COST_GUESS,
  EXPM_PADE_THETA,
  EXPM_SQRT_FINAL_STEP,
  EXPM_SQRT_MAX_ITERATIONS,
  EXPM_SQRT_SCALING_OFF,
} from '../constants.js';
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';
import { luFactorInPlace, luSolveInPlace, norm1 } from './lu.js';
import { matMul } from './matrix.js';

/** log₂ of the unit roundoff u = 2⁻⁵³. */
const LOG2_U = -53;

/**
 * Coefficients b₀ … b_m of the numerator p_m(x) = Σ b_j x^j of the [m/m] Padé approximant
 * r_m = p_m(x)/p_m(−x) of eˣ, scaled to integers: b_j ∝ (2m − j)! m! / ((2m)! j! (m − j)!)
 * (Higham 2005, eq. (2.2); all exactly representable).
 */
const PADE3 = [120, 60, 12, 1] as const;
const PADE5 = [30240, 15120, 3360, 420, 30, 1] as const;
const PADE7 = [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1] as const;
const PADE9 = [
  17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1,
] as const;
const PADE13 = [
  64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
  10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1,
] as const;

/**
 * log₂ of 1/|c_{2m+1}| = (2m)!(2m+1)!/(m!)², c_{2m+1} the leading coefficient of
 * eˣ − r_m(x) = c_{2m+1}x^{2m+1} + … (Al-Mohy & Higham 2009, after eq. (5.1)).
 */
function log2InvErrorCoefficient(m: number): number {
  let s = 0;
  for (let k = 2; k <= 2 * m; k++) s += Math.log2(k);
  for (let k = 2; k <= 2 * m + 1; k++) s += Math.log2(k);
  for (let k = 2; k <= m; k++) s -= 2 * Math.log2(k);
  return s;
}

function checkOrder(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new DimensionError(`${what}: order`, '>= 1', n);
}

function checkSizes(what: string, out: ArrayLike<number>, a: ArrayLike<number>, nn: number): void {
  if (a.length < nn) throw new DimensionError(`${what}: matrix entries`, nn, a.length);
  if (out.length < nn) throw new DimensionError(`${what}: out`, nn, out.length);
}

/**
 * Matrix exponential workspace for n×n matrices: {@link Expm.compute} evaluates e^A by the
 * scaling and squaring algorithm of Al-Mohy & Higham, "A new scaling and squaring algorithm for
 * the matrix exponential", SIAM J. Matrix Anal. Appl. 31 (2009), Algorithm 5.1 (the revision of
 * Higham 2005, "The scaling and squaring method for the matrix exponential revisited"):
 *
 * 1. with exact 1-norms d_k = ‖A^k‖₁^{1/k} (k = 4, 6, 8, 10), take the smallest degree
 *    m ∈ {3, 5, 7, 9} whose bound η = max(d_p, d_{p+1}) ≤ θ_m (`EXPM_PADE_THETA`) and whose
 *    truncation-error test ℓ(A, m) = max(⌈log₂(α/u)/(2m)⌉, 0) vanishes, where
 *    α = |c_{2m+1}|·‖|A|^{2m+1}‖₁/‖A‖₁ (computed exactly by a row vector times |A|);
 * 2. otherwise m = 13 with s = max(⌈log₂(η/θ₁₃)⌉, 0) + ℓ(2⁻ˢA, 13), A ← 2⁻ˢA;
 * 3. r_m(A) = (V − U)⁻¹(V + U), U the odd and V the even part of p_m(A) (Higham 2005,
 *    eqs. (2.3)–(2.4), the m = 13 case with 6 multiplications), then r_m^{2^s} by squaring.
 *
 * Using ‖A^k‖^{1/k} rather than ‖A‖ avoids the overscaling of the 2005 algorithm on nonnormal
 * matrices (e.g. [[1, b], [0, −1]] with large b). In exact arithmetic the backward error is at most
 * u = 2⁻⁵³; measured errors (test/linalg/expm.test.ts) are ≲ 1e-14 relative for normal matrices
 * and for diagonalizable ones times their eigenvector condition number. Alternatives with more
 * structure (Schur-based, triangular fragments) are not implemented: matrices are dense.
 *
 * `compute` allocates nothing; `out` may alias `a`.
 *
 * @example
 * ```ts
 * const E = new Expm(2);
 * const R = E.compute(new Float64Array(4), Float64Array.of(0, -1, 1, 0)); // [cos 1, −sin 1, sin 1, cos 1]
 * E.degree; // Padé degree used: 9 (‖A^k‖^{1/k} = 1 ≤ θ₉)
 * ```
 */
export class Expm {
  readonly n: number;
  /** Padé degree m ∈ {3, 5, 7, 9, 13} of the last {@link compute}. */
  degree = 0;
  /** Number s of squarings of the last {@link compute}. */
  squarings = 0;
  private readonly a: Float64Array;
  private readonly a2: Float64Array;
  private readonly a4: Float64Array;
  private readonly a6: Float64Array;
  private readonly a8: Float64Array;
  /** [A², A⁴, A⁶, A⁸] (the same arrays), so the Padé loop allocates nothing. */
  private readonly evenPowers: readonly Float64Array[];
  private readonly u: Float64Array;
  private readonly v: Float64Array;
  private readonly t: Float64Array;
  private readonly x: Float64Array;
  private readonly piv: Int32Array;
  private readonly col: Float64Array;
  private readonly row: Float64Array;
  private readonly row2: Float64Array;

  constructor(n: number) {
    checkOrder('Expm', n);
    this.n = n;
    const nn = n * n;
    this.a = new Float64Array(nn);
    this.a2 = new Float64Array(nn);
    this.a4 = new Float64Array(nn);
    this.a6 = new Float64Array(nn);
    this.a8 = new Float64Array(nn);
    this.evenPowers = [this.a2, this.a4, this.a6, this.a8];
    this.u = new Float64Array(nn);
    this.v = new Float64Array(nn);
    this.t = new Float64Array(nn);
    this.x = new Float64Array(nn);
    this.piv = new Int32Array(n);
    this.col = new Float64Array(n);
    this.row = new Float64Array(n);
    this.row2 = new Float64Array(n);
  }

  /**
   * out ← e^A (Al-Mohy & Higham 2009, Algorithm 5.1). `out` may alias `a`.
   * @throws NonFiniteError if A has a non-finite entry or e^A overflows.
   */
  compute(out: Float64Array, a: ArrayLike<number>): Float64Array {
    const n = this.n;
    const nn = n * n;
    checkSizes('expm', out, a, nn);
    const { a: A, a2: A2, a4: A4, a6: A6, a8: A8 } = this;
    for (let i = 0; i < nn; i++) {
      const v = a[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('expm: matrix', i);
      A[i] = v;
    }
    const normA = norm1(A, n);
    matMul(A2, A, A, n, n, n);
    matMul(A4, A2, A2, n, n, n);
    matMul(A6, A2, A4, n, n, n);
    // d_k = ‖A^k‖₁^{1/k} ≤ ‖A‖₁; an overflowed power gives ∞ and simply fails the tests below.
    const d4 = norm1(A4, n) ** 0.25;
    const d6 = norm1(A6, n) ** (1 / 6);
    const eta1 = Math.max(d4, d6);
    this.squarings = 0;
    if (eta1 <= EXPM_PADE_THETA[0]! && this.ell(3, 1, normA) === 0) {
      this.padeLow(PADE3);
      return this.finish(out, 3, 0);
    }
    if (eta1 <= EXPM_PADE_THETA[1]! && this.ell(5, 1, normA) === 0) {
      this.padeLow(PADE5);
      return this.finish(out, 5, 0);
    }
    matMul(A8, A4, A4, n, n, n);
    const d8 = norm1(A8, n) ** 0.125;
    const eta3 = Math.max(d6, d8);
    if (eta3 <= EXPM_PADE_THETA[2]! && this.ell(7, 1, normA) === 0) {
      this.padeLow(PADE7);
      return this.finish(out, 7, 0);
    }
    if (eta3 <= EXPM_PADE_THETA[3]! && this.ell(9, 1, normA) === 0) {
      this.padeLow(PADE9);
      return this.finish(out, 9, 0);
    }
    matMul(this.t, A4, A6, n, n, n);
    const d10 = norm1(this.t, n) ** 0.1;
    const eta4 = Math.max(d8, d10);
    const eta5 = Math.min(eta3, eta4, normA);
    let s = eta5 === 0 ? 0 : Math.max(Math.ceil(Math.log2(eta5 / EXPM_PADE_THETA[4]!)), 0);
    s += this.ell(13, 2 ** -s, normA);
    if (s > 0) this.scale(s);
    this.pade13();
    return this.finish(out, 13, s);
  }

  /** A ← 2⁻ˢA and its powers A², A⁴, A⁶ with it (exactly, by powers of two; recomputed if needed). */
  private scale(s: number): void {
    const n = this.n;
    const nn = n * n;
    const f = 2 ** -s;
    const A = this.a;
    for (let i = 0; i < nn; i++) A[i] = A[i]! * f;
    // Scaling A^k by f^k is exact unless f^k underflows or A^k overflowed: then recompute.
    let exact = 6 * s < 1000;
    for (let i = 0; exact && i < nn; i++)
      if (!Number.isFinite(this.a6[i]!) || !Number.isFinite(this.a4[i]!)) exact = false;
    if (exact) {
      const f2 = f * f;
      const f4 = f2 * f2;
      const f6 = f4 * f2;
      for (let i = 0; i < nn; i++) {
        this.a2[i] = this.a2[i]! * f2;
        this.a4[i] = this.a4[i]! * f4;
        this.a6[i] = this.a6[i]! * f6;
      }
    } else {
      matMul(this.a2, A, A, n, n, n);
      matMul(this.a4, this.a2, this.a2, n, n, n);
      matMul(this.a6, this.a2, this.a4, n, n, n);
    }
  }

  /**
   * ℓ(fA, m) = max(⌈log₂(α/u)/(2m)⌉, 0), α = |c_{2m+1}|·‖|fA|^{2m+1}‖₁/‖fA‖₁ (Al-Mohy & Higham
   * 2009, eq. (5.1)): the number of extra squarings that keep the rounding of the Padé step from
   * dominating. ‖|fA|^p‖₁ = max(1ᵀ|fA|^p) is computed exactly with a row vector, renormalized at
   * each step (so it cannot overflow) and its log₂ accumulated.
   */
  private ell(m: number, f: number, normA: number): number {
    const n = this.n;
    const A = this.a;
    let w = this.row;
    let w2 = this.row2;
    w.fill(1);
    let log2Norm = 0;
    for (let p = 0; p < 2 * m + 1; p++) {
      let mx = 0;
      for (let j = 0; j < n; j++) {
        let acc = 0;
        for (let i = 0; i < n; i++) acc += w[i]! * Math.abs(A[i * n + j]!);
        acc *= f;
        w2[j] = acc;
        if (acc > mx) mx = acc;
      }
      if (mx === 0) return 0; // |A| nilpotent: no truncation error at all
      for (let j = 0; j < n; j++) w2[j] = w2[j]! / mx;
      log2Norm += Math.log2(mx);
      const tmp = w;
      w = w2;
      w2 = tmp;
    }
    const log2Alpha = log2Norm - log2InvErrorCoefficient(m) - Math.log2(f * normA);
    return Math.max(Math.ceil((log2Alpha - LOG2_U) / (2 * m)), 0);
  }

  /** U = A·Σ b_{2k+1}A^{2k}, V = Σ b_{2k}A^{2k} for m ∈ {3, 5, 7, 9} (Higham 2005, eq. (2.3)). */
  private padeLow(b: readonly number[]): void {
    const n = this.n;
    const nn = n * n;
    const m = b.length - 1;
    const pows = this.evenPowers;
    const { t: T, v: V } = this;
    T.fill(0);
    V.fill(0);
    for (let i = 0; i < n; i++) {
      T[i * n + i] = b[1]!;
      V[i * n + i] = b[0]!;
    }
    for (let k = 1; 2 * k <= m; k++) {
      const P = pows[k - 1]!;
      const bo = b[2 * k + 1]!;
      const be = b[2 * k]!;
      for (let i = 0; i < nn; i++) {
        const pi = P[i]!;
        T[i] = T[i]! + bo * pi;
        V[i] = V[i]! + be * pi;
      }
    }
    matMul(this.u, this.a, T, n, n, n);
  }

  /**
   * U = A[A₆(b₁₃A₆ + b₁₁A₄ + b₉A₂) + b₇A₆ + b₅A₄ + b₃A₂ + b₁I],
   * V = A₆(b₁₂A₆ + b₁₀A₄ + b₈A₂) + b₆A₆ + b₄A₄ + b₂A₂ + b₀I (Higham 2005, eq. (2.4)).
   */
  private pade13(): void {
    const n = this.n;
    const nn = n * n;
    const b = PADE13;
    const { a2: A2, a4: A4, a6: A6, t: T, x: W, u: U, v: V } = this;
    for (let i = 0; i < nn; i++) T[i] = b[13] * A6[i]! + b[11] * A4[i]! + b[9] * A2[i]!;
    matMul(W, A6, T, n, n, n);
    for (let i = 0; i < nn; i++) W[i] = W[i]! + b[7] * A6[i]! + b[5] * A4[i]! + b[3] * A2[i]!;
    for (let i = 0; i < n; i++) W[i * n + i] = W[i * n + i]! + b[1];
    matMul(U, this.a, W, n, n, n);
    for (let i = 0; i < nn; i++) T[i] = b[12] * A6[i]! + b[10] * A4[i]! + b[8] * A2[i]!;
    matMul(V, A6, T, n, n, n);
    for (let i = 0; i < nn; i++) V[i] = V[i]! + b[6] * A6[i]! + b[4] * A4[i]! + b[2] * A2[i]!;
    for (let i = 0; i < n; i++) V[i * n + i] = V[i * n + i]! + b[0];
  }

  /** Solves (V − U) X = V + U, squares X s times and writes it to `out`. */
  private finish(out: Float64Array, m: number, s: number): Float64Array {
    const n = this.n;
    const nn = n * n;
    const { u: U, v: V, t: Q, col } = this;
    let X = this.x;
    let T = this.a2; // A² is no longer needed
    for (let i = 0; i < nn; i++) {
      const ui = U[i]!;
      const vi = V[i]!;
      Q[i] = vi - ui;
      X[i] = vi + ui;
    }
    luFactorInPlace(Q, n, this.piv);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) col[i] = X[i * n + j]!;
      luSolveInPlace(Q, n, this.piv, col);
      for (let i = 0; i < n; i++) X[i * n + j] = col[i]!;
    }
    for (let k = 0; k < s; k++) {
      matMul(T, X, X, n, n, n);
      const tmp = X;
      X = T;
      T = tmp;
    }
    for (let i = 0; i < nn; i++) {
      const v = X[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('expm: result (overflow)', i);
      out[i] = v;
    }
    this.degree = m;
    this.squarings = s;
    return out;
  }
}

/**
 * out ← e^A for a row-major n×n matrix A, by {@link Expm} (scaling and squaring with Padé
 * approximants, Al-Mohy & Higham 2009). Allocates a workspace: keep an {@link Expm} for repeated
 * use. `out` may alias `a`.
 *
 * @example
 * ```ts
 * expm(new Float64Array(4), Float64Array.of(0, 1, 0, 0), 2); // [1, 1, 0, 1]
 * ```
 */
export function expm(out: Float64Array, a: ArrayLike<number>, n: number): Float64Array {
  return new Expm(n).compute(out, a);
}

// ---------------------------------------------------------------------------------------------
// Logarithm

/**
 * Nodes x_j ∈ (0, 1) and weights w_j of the m-point Gauss–Legendre rule on [0, 1], m = 1 … 16,
 * by Newton's method on the Legendre polynomial P_m (accurate to a few ulps). They give the
 * [m/m] Padé approximant of log(1 + x) in partial fractions, r_m(x) = Σ_j w_j x/(1 + x_j x)
 * (Higham 2001, "Evaluating Padé approximants of the matrix logarithm", Theorem 4.3).
 */
const GAUSS_LEGENDRE: ReadonlyArray<{ readonly x: Float64Array; readonly w: Float64Array }> =
  (() => {
    const rules: { x: Float64Array; w: Float64Array }[] = [];
    for (let m = 1; m <= EXPM_LOGM_PADE_THETA.length; m++) {
      const x = new Float64Array(m);
      const w = new Float64Array(m);
      for (let i = 0; i < m; i++) {
        let z = Math.cos((Math.PI * (i + 0.75)) / (m + 0.5));
        let dp = 1;
        for (let it = 0; it < 100; it++) {
          let p0 = 1;
          let p1 = z;
          for (let k = 2; k <= m; k++) {
            const p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
            p0 = p1;
            p1 = p2;
          }
          dp = (m * (z * p1 - p0)) / (z * z - 1);
          const dz = p1 / dp;
          z -= dz;
          if (Math.abs(dz) <= 1e-16) break;
        }
        // recompute P′ at the converged node for the weight
        let p0 = 1;
        let p1 = z;
        for (let k = 2; k <= m; k++) {
          const p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = m === 1 ? 1 : (m * (z * p1 - p0)) / (z * z - 1);
        x[i] = (z + 1) / 2;
        w[i] = 1 / ((1 - z * z) * dp * dp);
      }
      rules.push({ x, w });
    }
    return rules;
  })();

/** Smallest Padé degree m with τ ≤ θ_m (`EXPM_LOGM_PADE_THETA`), or 0 when τ > θ₁₆. */
function logPadeDegree(tau: number): number {
  for (let m = 1; m <= EXPM_LOGM_PADE_THETA.length; m++)
    if (tau <= EXPM_LOGM_PADE_THETA[m - 1]!) return m;
  return 0;
}

/**
 * Principal matrix logarithm workspace for n×n matrices with no eigenvalues on the closed
 * negative real axis (−∞, 0]: {@link Logm.compute} evaluates the unique log with eigenvalues in
 * the strip |Im z| < π by inverse scaling and squaring (Higham, *Functions of Matrices*, SIAM
 * 2008, Algorithm 11.10; Cheng, Higham, Kenney & Laub 2001):
 *
 * 1. take square roots A ← A^{1/2} by the scaled product Denman–Beavers iteration (Higham 2008,
 *    eq. (6.29)) M ← ½(I + (μ²M + μ⁻²M⁻¹)/2), Y ← ½μY(I + μ⁻²M⁻¹), M₀ = Y₀ = A,
 *    μ = |det M|^{−1/(2n)} while ‖M − I‖₁ ≥ `EXPM_SQRT_SCALING_OFF`, until M = I to working
 *    precision; stop taking roots once τ = ‖A − I‖₁ ≤ θ₁₆ and one more root would save fewer
 *    Padé degrees than it costs (the 2(j₁ − j₂)/3 < it test), or after the second root below θ₁₆;
 * 2. log(A) ≈ 2^k·r_m(A^{1/2^k} − I) with the smallest m whose θ_m ≥ τ, evaluated in partial
 *    fractions r_m(X) = Σ_j w_j (I + x_j X)⁻¹X (Gauss–Legendre nodes on [0, 1]).
 *
 * Accuracy: θ_m (`EXPM_LOGM_PADE_THETA`) bounds the Padé truncation error by u relative
 * (Kenney–Laub bound ‖r_m(X) − log(I + X)‖ ≤ |r_m(−‖X‖) − log(1 − ‖X‖)|). Rounding errors of the
 * square roots are amplified by about 2^k and by the conditioning of log at A; measured
 * (test/linalg/expm.test.ts): logm(expm(B)) = B to ≲ 1e-14 relative for ‖B‖ ≤ 1, and
 * expm(logm(R)) = R to ≲ 1e-14 for rotations up to angle 3.
 *
 * `compute` allocates nothing; `out` may alias `a`.
 *
 * @example
 * ```ts
 * const L = new Logm(2);
 * L.compute(new Float64Array(4), Float64Array.of(Math.cos(1), -Math.sin(1), Math.sin(1), Math.cos(1)));
 * // ≈ [0, −1, 1, 0]
 * ```
 */
export class Logm {
  readonly n: number;
  /** Number k of square roots taken by the last {@link compute}. */
  squareRoots = 0;
  /** Padé degree m of the last {@link compute}. */
  degree = 0;
  /** Total Denman–Beavers iterations of the last {@link compute}. */
  sqrtIterations = 0;
  private readonly a: Float64Array;
  private readonly m: Float64Array;
  private readonly minv: Float64Array;
  private readonly y: Float64Array;
  private readonly t: Float64Array;
  private readonly lu: Float64Array;
  private readonly piv: Int32Array;
  private readonly col: Float64Array;

  constructor(n: number) {
    checkOrder('Logm', n);
    this.n = n;
    const nn = n * n;
    this.a = new Float64Array(nn);
    this.m = new Float64Array(nn);
    this.minv = new Float64Array(nn);
    this.y = new Float64Array(nn);
    this.t = new Float64Array(nn);
    this.lu = new Float64Array(nn);
    this.piv = new Int32Array(n);
    this.col = new Float64Array(n);
  }

  /**
   * out ← log(A), the principal logarithm. `out` may alias `a`.
   * @throws NonFiniteError if A has a non-finite entry.
   * @throws DomainError if A is singular or a square root does not converge (an eigenvalue on or
   *   numerically at the negative real axis), or more than `EXPM_LOGM_MAX_SQUARE_ROOTS` roots
   *   would be needed.
   */
  compute(out: Float64Array, a: ArrayLike<number>): Float64Array {
    const n = this.n;
    const nn = n * n;
    checkSizes('logm', out, a, nn);
    const A = this.a;
    for (let i = 0; i < nn; i++) {
      const v = a[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('logm: matrix', i);
      A[i] = v;
    }
    let k = 0;
    let p = 0;
    let itk = EXPM_LOGM_SQRT_COST_GUESS;
    let m = 0;
    this.sqrtIterations = 0;
    for (;;) {
      const tau = this.distanceToIdentity(A);
      if (tau <= EXPM_LOGM_PADE_THETA[EXPM_LOGM_PADE_THETA.length - 1]!) {
        p++;
        const j1 = logPadeDegree(tau);
        const j2 = logPadeDegree(tau / 2);
        if ((2 * (j1 - j2)) / 3 < itk || p === 2) {
          m = j1;
          break;
        }
      }
      if (k >= EXPM_LOGM_MAX_SQUARE_ROOTS)
        throw new DomainError(
          'logm: square roots',
          k,
          `||A^(1/2^k) - I|| must fall below ${EXPM_LOGM_PADE_THETA[15]} within ${EXPM_LOGM_MAX_SQUARE_ROOTS} roots`,
        );
      itk = this.sqrtInPlace();
      this.sqrtIterations += itk;
      k++;
    }
    // X = A^{1/2^k} − I (in A), then out = 2^k Σ_j w_j (I + x_j X)⁻¹ X, accumulated in T.
    for (let i = 0; i < n; i++) A[i * n + i] = A[i * n + i]! - 1;
    const rule = GAUSS_LEGENDRE[m - 1]!;
    const { t: T, lu: Q, col, piv } = this;
    T.fill(0);
    for (let q = 0; q < m; q++) {
      const xq = rule.x[q]!;
      const wq = rule.w[q]!;
      for (let i = 0; i < nn; i++) Q[i] = xq * A[i]!;
      for (let i = 0; i < n; i++) Q[i * n + i] = Q[i * n + i]! + 1;
      if (luFactorInPlace(Q, n, piv) >= 0)
        throw new DomainError('logm: I + x X', 'singular', 'no eigenvalues on (−∞, 0]');
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) col[i] = A[i * n + j]!;
        luSolveInPlace(Q, n, piv, col);
        for (let i = 0; i < n; i++) T[i * n + j] = T[i * n + j]! + wq * col[i]!;
      }
    }
    const f = 2 ** k;
    for (let i = 0; i < nn; i++) {
      const v = f * T[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('logm: result', i);
      out[i] = v;
    }
    this.squareRoots = k;
    this.degree = m;
    return out;
  }

  /** ‖A − I‖₁. */
  private distanceToIdentity(A: Float64Array): number {
    const n = this.n;
    let best = 0;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Math.abs(A[i * n + j]! - (i === j ? 1 : 0));
      if (!(s <= best)) best = s;
    }
    return best;
  }

  /**
   * A ← A^{1/2} (principal square root) by the scaled product Denman–Beavers iteration
   * (Higham 2008, eq. (6.29)). Once ‖M_k − I‖₁ ≤ `EXPM_SQRT_FINAL_STEP`, one more step gives
   * ‖M_{k+1} − I‖₁ ≤ ‖M_k − I‖₁²/(4(1 − ‖M_k − I‖₁)) < u, and Y_{k+1} = A^{1/2}M_{k+1}^{1/2}
   * is converged. Returns the number of iterations.
   */
  private sqrtInPlace(): number {
    const n = this.n;
    const nn = n * n;
    const { a: A, m: M, minv: Minv, y: Y, t: T, lu, piv, col } = this;
    for (let i = 0; i < nn; i++) {
      M[i] = A[i]!;
      Y[i] = A[i]!;
    }
    let delta = this.distanceToIdentity(M);
    for (let it = 1; it <= EXPM_SQRT_MAX_ITERATIONS; it++) {
      for (let i = 0; i < nn; i++) lu[i] = M[i]!;
      if (luFactorInPlace(lu, n, piv) >= 0)
        throw new DomainError('logm: square root', 'singular iterate', 'no eigenvalues on (−∞, 0]');
      for (let j = 0; j < n; j++) {
        col.fill(0);
        col[j] = 1;
        luSolveInPlace(lu, n, piv, col);
        for (let i = 0; i < n; i++) Minv[i * n + j] = col[i]!;
      }
      let mu = 1;
      if (delta >= EXPM_SQRT_SCALING_OFF) {
        let logDet = 0;
        for (let i = 0; i < n; i++) logDet += Math.log(Math.abs(lu[i * n + i]!));
        mu = Math.exp(-logDet / (2 * n));
      }
      const mu2 = mu * mu;
      const imu2 = 1 / mu2;
      // Y ← ½μ Y (I + μ⁻²M⁻¹)
      for (let i = 0; i < nn; i++) T[i] = imu2 * Minv[i]!;
      for (let i = 0; i < n; i++) T[i * n + i] = T[i * n + i]! + 1;
      matMul(lu, Y, T, n, n, n);
      const half = 0.5 * mu;
      for (let i = 0; i < nn; i++) Y[i] = half * lu[i]!;
      // M ← ½I + ¼(μ²M + μ⁻²M⁻¹)
      for (let i = 0; i < nn; i++) M[i] = 0.25 * (mu2 * M[i]! + imu2 * Minv[i]!);
      for (let i = 0; i < n; i++) M[i * n + i] = M[i * n + i]! + 0.5;
      const deltaNew = this.distanceToIdentity(M);
      if (!Number.isFinite(deltaNew))
        throw new DomainError(
          'logm: square root',
          'non-finite iterate',
          'no eigenvalues on (−∞, 0]',
        );
      if (delta <= EXPM_SQRT_FINAL_STEP || deltaNew <= n * Number.EPSILON) {
        for (let i = 0; i < nn; i++) A[i] = Y[i]!;
        return it;
      }
      delta = deltaNew;
    }
    throw new DomainError(
      'logm: square root',
      `no convergence in ${EXPM_SQRT_MAX_ITERATIONS} iterations`,
      'no eigenvalues on (−∞, 0]',
    );
  }
}

/**
 * out ← log(A), the principal logarithm of a row-major n×n matrix with no eigenvalues on
 * (−∞, 0], by {@link Logm} (inverse scaling and squaring, Higham 2008, Algorithm 11.10).
 * Allocates a workspace: keep a {@link Logm} for repeated use. `out` may alias `a`.
 *
 * @example
 * ```ts
 * logm(new Float64Array(4), Float64Array.of(Math.E, 0, 0, 1), 2); // [1, 0, 0, 0]
 * ```
 */
export function logm(out: Float64Array, a: ArrayLike<number>, n: number): Float64Array {
  return new Logm(n).compute(out, a);
}

// ---------------------------------------------------------------------------------------------
// φ₁

/**
 * Workspace for φ₁(A) = Σ_{k≥0} A^k/(k+1)! (= A⁻¹(e^A − I) when A is invertible) of n×n
 * matrices, by Van Loan's block trick ("Computing integrals involving the matrix exponential",
 * IEEE TAC 23, 1978): exp([[A, I], [0, 0]]) = [[e^A, φ₁(A)], [0, I]], evaluated with an
 * {@link Expm} of order 2n. On a Lie algebra, φ₁(ad_τ) is the left Jacobian J_l(τ) of Exp.
 * Accuracy is that of `expm` on the 2n×2n block (measured ≲ 1e-14 relative in the tests).
 * Allocates nothing per call; `out` may alias `a`.
 *
 * @example
 * ```ts
 * new Phi1m(1).compute(new Float64Array(1), Float64Array.of(1)); // [e − 1]
 * ```
 */
export class Phi1m {
  readonly n: number;
  private readonly expm: Expm;
  private readonly block: Float64Array;

  constructor(n: number) {
    checkOrder('Phi1m', n);
    this.n = n;
    this.expm = new Expm(2 * n);
    this.block = new Float64Array(4 * n * n);
  }

  /** out ← φ₁(A). `out` may alias `a`. */
  compute(out: Float64Array, a: ArrayLike<number>): Float64Array {
    this.run(a, 'phi1m', out);
    const n = this.n;
    const n2 = 2 * n;
    const B = this.block;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = B[i * n2 + n + j]!;
    return out;
  }

  /** outExp ← e^A and outPhi ← φ₁(A) from one block exponential. Returns `outPhi`. */
  computeWithExp(outExp: Float64Array, outPhi: Float64Array, a: ArrayLike<number>): Float64Array {
    this.run(a, 'phi1m', outPhi);
    const nn = this.n * this.n;
    if (outExp.length < nn) throw new DimensionError('phi1m: outExp', nn, outExp.length);
    const n = this.n;
    const n2 = 2 * n;
    const B = this.block;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        outExp[i * n + j] = B[i * n2 + j]!;
        outPhi[i * n + j] = B[i * n2 + n + j]!;
      }
    return outPhi;
  }

  /** The Expm workspace of the 2n×2n block (its `degree`/`squarings` describe the last call). */
  get blockExpm(): Expm {
    return this.expm;
  }

  private run(a: ArrayLike<number>, what: string, out: Float64Array): void {
    const n = this.n;
    checkSizes(what, out, a, n * n);
    const n2 = 2 * n;
    const B = this.block;
    B.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) B[i * n2 + j] = a[i * n + j]!;
      B[i * n2 + n + i] = 1;
    }
    this.expm.compute(B, B);
  }
}

/**
 * out ← φ₁(A) = Σ_{k≥0} A^k/(k+1)! for a row-major n×n matrix, the top-right block of
 * exp([[A, I], [0, 0]]) (Van Loan 1978). Allocates a workspace: keep a {@link Phi1m} for repeated
 * use. `out` may alias `a`.
 *
 * @example
 * ```ts
 * phi1m(new Float64Array(4), Float64Array.of(0, 1, 0, 0), 2); // I + A/2 = [1, 0.5, 0, 1]
 * ```
 */
export function phi1m(out: Float64Array, a: ArrayLike<number>, n: number): Float64Array {
  return new Phi1m(n).compute(out, a);
}
