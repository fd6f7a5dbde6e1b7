import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DimensionError,
  DomainError,
  NonFiniteError,
  SingularMatrixError,
} from '../../src/errors.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { matMul, matTVec, matVec, norm2, transpose } from '../../src/linalg/matrix.js';
import { DenseQR, leastSquares, minNormSolve } from '../../src/linalg/qr.js';
import { fromSvd, orthogonal, vec, vecs } from '../support/random.js';

/** Unit roundoff u = 2⁻⁵³. Tolerances below are written as (constant)·u with the constant justified. */
const U = Number.EPSILON / 2;

// ---------------------------------------------------------------------------------------------
// helpers. Test matrices have a prescribed singular value decomposition A = Σ sᵢ uᵢ vᵢᵀ, with
// random orthogonal factors from Householder reflections (`orthogonal`, `fromSvd` in
// ../support/random.ts), so A⁺, null spaces and conditioning are known exactly, independently of
// the code under test.
// ---------------------------------------------------------------------------------------------

/** Column j of a row-major rows×cols matrix. */
function column(a: Float64Array, rows: number, cols: number, j: number): Float64Array {
  const c = new Float64Array(rows);
  for (let i = 0; i < rows; i++) c[i] = a[i * cols + j]!;
  return c;
}

function frobenius(a: ArrayLike<number>): number {
  return norm2(a);
}

function sub(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return d;
}

/** (A·P) for the permutation reported by the factorization. */
function permuteColumns(a: Float64Array, m: number, n: number, p: Int32Array): Float64Array {
  const ap = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let k = 0; k < n; k++) ap[i * n + k] = a[i * n + p[k]!]!;
  return ap;
}

/** Solves the symmetric positive definite system with DenseLU (reference computations only). */
function solveRef(a: Float64Array, n: number, b: Float64Array): Float64Array {
  return new DenseLU(n).factor(a).solve(b);
}

/** AᵀA (n×n). */
function gram(a: Float64Array, m: number, n: number): Float64Array {
  const at = transpose(new Float64Array(m * n), a, m, n);
  return matMul(new Float64Array(n * n), at, a, n, m, n);
}

/** Random m×n with entries in [−1, 1]·10^e (any shape, m < n included). */
const generalCase = fc
  .record({ m: fc.integer({ min: 1, max: 8 }), n: fc.integer({ min: 1, max: 8 }) })
  .chain(({ m, n }) =>
    fc.record({
      m: fc.constant(m),
      n: fc.constant(n),
      a: vec(m * n),
      e: fc.integer({ min: -3, max: 3 }),
    }),
  );

/** Orthogonal factors for an m×n matrix with prescribed singular values. */
const svdCase = (mMin: number, mMax: number, nMin: number, nMax: number, mGeN: boolean) =>
  fc
    .record({
      m: fc.integer({ min: mMin, max: mMax }),
      n: fc.integer({ min: nMin, max: nMax }),
    })
    .filter(({ m, n }) => (mGeN ? m >= n : true))
    .chain(({ m, n }) =>
      fc.record({
        m: fc.constant(m),
        n: fc.constant(n),
        uw: vecs(m, m),
        vw: vecs(n, n),
        s: fc.array(fc.double({ min: 1, max: 10, noNaN: true }), {
          minLength: Math.min(m, n),
          maxLength: Math.min(m, n),
        }),
        x: vec(n),
        z: vec(m),
        rankDrop: fc.integer({ min: 1, max: 4 }),
      }),
    );

describe('DenseQR factorization A·P = Q·R', () => {
  it('reconstructs A·P = Q·R to 1e-13 relative, Q orthonormal, R trapezoidal and pivoted', () => {
    // Householder QR is backward stable: Q·R = A·P + E with ‖E‖_F ≤ c·m·n·u·‖A‖_F (Higham, Thm
    // 19.4), and Q computed from the reflectors is orthogonal to c·m·u. For m, n ≤ 8 this is far
    // below the 1e-13 required.
    fc.assert(
      fc.property(generalCase, ({ m, n, a: raw, e }) => {
        const a = Float64Array.from(raw, (v) => v * 10 ** e);
        const qr = new DenseQR().factor(a, m, n);
        const q = qr.q();
        const r = qr.r();
        const p = qr.permutation();
        expect([...p].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
        const ap = permuteColumns(a, m, n, p);
        const qrProd = matMul(new Float64Array(m * n), q, r, m, m, n);
        const scale = frobenius(a);
        expect(frobenius(sub(qrProd, ap))).toBeLessThanOrEqual(1e-13 * scale);
        // QᵀQ = I
        const qtq = matMul(
          new Float64Array(m * m),
          transpose(new Float64Array(m * m), q, m, m),
          q,
          m,
          m,
          m,
        );
        for (let i = 0; i < m; i++) qtq[i * m + i] = qtq[i * m + i]! - 1;
        expect(frobenius(qtq)).toBeLessThanOrEqual(1e-14);
        // R upper trapezoidal (exact zeros) with non-increasing |R_kk| (column pivoting)
        for (let i = 0; i < m; i++)
          for (let j = 0; j < Math.min(i, n); j++) expect(r[i * n + j]).toBe(0);
        const k = Math.min(m, n);
        for (let i = 1; i < k; i++) {
          expect(Math.abs(r[i * n + i]!)).toBeLessThanOrEqual(
            Math.abs(r[(i - 1) * n + i - 1]!) * (1 + 1e-12) + 1e-14 * scale,
          );
        }
        // thin factors reproduce the same product
        const qt = qr.q(true);
        const rt = qr.r(true);
        const thin = matMul(new Float64Array(m * n), qt, rt, m, k, n);
        expect(frobenius(sub(thin, ap))).toBeLessThanOrEqual(1e-13 * scale);
      }),
      { numRuns: 200 },
    );
  });

  it('applyQ and applyQT are inverse isometries, and residual() equals b − A·x', () => {
    fc.assert(
      fc.property(
        generalCase.chain((c) => fc.record({ c: fc.constant(c), b: vec(c.m), x: vec(c.n) })),
        ({ c: { m, n, a }, b, x }) => {
          const A = Float64Array.from(a);
          const qr = new DenseQR().factor(A, m, n);
          const qtb = qr.applyQT(b);
          expect(norm2(qtb)).toBeCloseTo(norm2(b), 13);
          const back = qr.applyQ(qtb);
          expect(frobenius(sub(back, b))).toBeLessThanOrEqual(8 * m * U * (norm2(b) + 1e-300));
          // residual through the factors vs b − A·x with the original matrix:
          // both are b − A·x up to the backward error of Q·R (≤ 1e-13·‖A‖_F, see above)
          const res = qr.residual(b, x);
          const direct = sub(b, matVec(new Float64Array(m), A, m, n, x));
          expect(norm2(sub(res, direct))).toBeLessThanOrEqual(1e-13 * frobenius(A) * norm2(x));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('factoring again with the same instance reuses its storage and gives identical results', () => {
    const qr = new DenseQR(6, 5);
    const packed = qr.packed;
    const pivots = qr.pivots;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        vec(30),
        vec(6),
        (m, n, raw, b) => {
          const a = Float64Array.from(raw.slice(0, m * n));
          qr.factor(a, m, n);
          expect(qr.packed).toBe(packed);
          expect(qr.pivots).toBe(pivots);
          const out = new Float64Array(n);
          expect(qr.solveLeastSquares(b, out)).toBe(out);
          const fresh = leastSquares(a, m, n, b);
          expect(Array.from(out)).toEqual(Array.from(fresh)); // bitwise: same arithmetic
        },
      ),
      { numRuns: 200 },
    );
    // growing beyond the reserved size reallocates once, then is stable again
    const big = Float64Array.from({ length: 9 * 7 }, (_, i) => Math.sin(i + 1));
    qr.factor(big, 9, 7);
    const grown = qr.packed;
    expect(grown.length).toBeGreaterThanOrEqual(63);
    qr.factor(big, 9, 7);
    expect(qr.packed).toBe(grown);
  });
});

describe('DenseQR least squares, full rank', () => {
  it('overdetermined: agrees with the normal equations and with the known solution', () => {
    // A = U·diag(s)·Vᵀ with s ∈ [1, 10], b = A·x* + r₀ with r₀ ⟂ range(A), so x* is the exact
    // least-squares solution and r₀ the exact residual. Householder LS is backward stable, so by LS
    // perturbation theory (Higham §20.1) ‖x − x*‖ ≲ c·u·(κ‖x*‖ + κ²‖r₀‖/‖A‖); the normal equations
    // have the larger forward error c·u·κ²(‖x*‖ + ‖r₀‖/‖A‖). c = 16 (observed ≤ 4 over 2·10⁴ cases).
    fc.assert(
      fc.property(svdCase(1, 8, 1, 8, true), ({ m, n, uw, vw, s, x, z }) => {
        const um = orthogonal(m, uw).q;
        const vn = orthogonal(n, vw).q;
        const a = fromSvd(m, n, s, um, vn);
        const xs = Float64Array.from(x);
        // r₀ = Σ_{i ≥ n} zᵢ·uᵢ, orthogonal to range(A)
        const r0 = new Float64Array(m);
        for (let l = n; l < m; l++)
          for (let i = 0; i < m; i++) r0[i] = r0[i]! + z[l]! * um[i * m + l]!;
        const b = matVec(new Float64Array(m), a, m, n, xs);
        for (let i = 0; i < m; i++) b[i] = b[i]! + r0[i]!;
        const qr = new DenseQR(m, n).factor(a, m, n);
        expect(qr.rank()).toBe(n);
        const xq = qr.solveLeastSquares(b);
        const xn = norm2(xs);
        const rn = norm2(r0);
        const smax = Math.max(...s);
        const kappa = smax / Math.min(...s);
        expect(norm2(sub(xq, xs))).toBeLessThanOrEqual(
          16 * U * (kappa * xn + (kappa * kappa * rn) / smax),
        );
        // normal equations AᵀA·x = Aᵀb solved by LU
        const xne = solveRef(gram(a, m, n), n, matTVec(new Float64Array(n), a, m, n, b));
        expect(norm2(sub(xq, xne))).toBeLessThanOrEqual(
          16 * U * kappa * kappa * (xn + rn / smax) + 16 * U * (kappa * xn + kappa * kappa * rn),
        );
        // residual: reported norm, and the vector itself, match r₀ up to u·(‖A‖‖x‖ + ‖b‖)
        const resTol = 32 * U * (smax * xn + rn);
        expect(Math.abs(qr.lastResidualNorm - rn)).toBeLessThanOrEqual(resTol);
        expect(norm2(sub(qr.residual(b, xq), r0))).toBeLessThanOrEqual(resTol);
        expect(qr.lastRank).toBe(n);
      }),
      { numRuns: 200 },
    );
  });

  it('ill-conditioned (κ₂ = 1e8): backward-stable residuals and forward error ≤ c·u·κ', () => {
    // s log-spaced from 1 to 1e−8. Householder LS is backward stable (Higham Thm 20.3): x solves a
    // problem with ‖ΔA‖ ≤ c·m·n·u·‖A‖. Hence, independently of κ,
    //  - consistent b = A·x*: ‖A·x − b‖ ≤ ‖ΔA‖‖x‖ ≤ 100·u·‖A‖‖x‖ (mn ≤ 64, c ≈ 1);
    //  - any b: ‖Aᵀ(b − A·x)‖ ≤ ‖ΔA‖(‖r‖ + ‖A‖‖x‖)·2;
    // and the forward error of the consistent case is ≤ κ·100·u (1.1e-6 at κ = 1e8), far tighter
    // than the 1e−12·κ·scale = 1e−4 that would suffice to call it "solved".
    const kappa = 1e8;
    fc.assert(
      fc.property(svdCase(2, 8, 2, 8, true), ({ m, n, uw, vw, x, z }) => {
        const um = orthogonal(m, uw).q;
        const vn = orthogonal(n, vw).q;
        const s = Float64Array.from({ length: n }, (_, i) => kappa ** (-i / (n - 1)));
        const a = fromSvd(m, n, s, um, vn);
        const xs = Float64Array.from(x);
        fc.pre(norm2(xs) > 0.1);
        const b = matVec(new Float64Array(m), a, m, n, xs);
        const qr = new DenseQR(m, n).factor(a, m, n);
        expect(qr.rank()).toBe(n); // default tol max(m,n)·eps·|R₀₀| ≤ 1.8e−15·‖A‖ ≪ 1e−8
        const xq = qr.solveLeastSquares(b);
        const anorm = 1; // ‖A‖₂ = s₀ = 1
        const r = sub(b, matVec(new Float64Array(m), a, m, n, xq));
        expect(norm2(r)).toBeLessThanOrEqual(100 * U * anorm * norm2(xq));
        expect(norm2(sub(xq, xs))).toBeLessThanOrEqual(100 * U * kappa * norm2(xs));
        // inconsistent right-hand side: add a unit-size component orthogonal to range(A)
        if (m > n) {
          const b2 = Float64Array.from(b);
          for (let l = n; l < m; l++)
            for (let i = 0; i < m; i++) b2[i] = b2[i]! + z[l]! * um[i * m + l]!;
          const x2 = qr.solveLeastSquares(b2);
          const r2 = sub(b2, matVec(new Float64Array(m), a, m, n, x2));
          const atr = matTVec(new Float64Array(n), a, m, n, r2);
          expect(norm2(atr)).toBeLessThanOrEqual(200 * U * anorm * (norm2(r2) + anorm * norm2(x2)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('fits a line exactly as the textbook example says', () => {
    // t = 0, 1, 2; y = 1, 3, 5.5: normal equations [3 3; 3 5]·c = [9.5; 14] → c = [11/12, 9/4]
    const c = leastSquares(Float64Array.of(1, 0, 1, 1, 1, 2), 3, 2, Float64Array.of(1, 3, 5.5));
    expect(c[0]).toBeCloseTo(11 / 12, 14);
    expect(c[1]).toBeCloseTo(9 / 4, 14);
    const qr = new DenseQR().factor(Float64Array.of(1, 0, 1, 1, 1, 2), 3, 2);
    qr.solveLeastSquares(Float64Array.of(1, 3, 5.5));
    // residual [1 − 11/12, 3 − 11/12 − 9/4, 5.5 − 11/12 − 9/2] = [1/12, −1/6, 1/12]
    expect(qr.lastResidualNorm).toBeCloseTo(Math.sqrt(1 / 144 + 1 / 36 + 1 / 144), 14);
  });
});

describe('DenseQR minimum-norm solutions', () => {
  it('rank-deficient A with known SVD: x = A⁺b, x ⟂ null(A), minimal residual', () => {
    // s = [s₀ … s_{r−1}, 0 …] with sᵢ ∈ [1, 10]; A⁺b = Σ_{i<r} vᵢ(uᵢᵀb)/sᵢ exactly. A is formed in
    // floating point, so it is A_exact + E with ‖E‖ ≈ k·u·‖A‖; the gap σ_{r−1}/‖A‖ ≥ 0.1 keeps the
    // default rank tolerance far from both. Perturbation of the pseudo-inverse solution at fixed
    // rank (Wedin): ‖δx‖ ≲ κ_r·‖E‖/‖A‖·(‖x‖ + κ_r‖r‖/‖A‖) with κ_r ≤ 10: ~ 100·u·(‖x‖+‖b‖),
    // so 1e−14 scaled (observed ≤ 7e−16). Observed noise |R_rr| ≤ 0.4·default tolerance.
    fc.assert(
      fc.property(svdCase(1, 8, 1, 8, false), ({ m, n, uw, vw, s, z, rankDrop }) => {
        const k = Math.min(m, n);
        const r = Math.max(0, k - rankDrop);
        const sv = Float64Array.from(s, (v, i) => (i < r ? v : 0));
        const um = orthogonal(m, uw).q;
        const vn = orthogonal(n, vw).q;
        const a = fromSvd(m, n, sv, um, vn);
        const b = Float64Array.from(z);
        const xRef = new Float64Array(n);
        for (let l = 0; l < r; l++) {
          const ul = column(um, m, m, l);
          let c = 0;
          for (let i = 0; i < m; i++) c += ul[i]! * b[i]!;
          c /= sv[l]!;
          for (let j = 0; j < n; j++) xRef[j] = xRef[j]! + c * vn[j * n + l]!;
        }
        const qr = new DenseQR().factor(a, m, n);
        expect(qr.rank()).toBe(r);
        const x = qr.solveLeastSquares(b);
        expect(qr.lastRank).toBe(r);
        const scale = norm2(xRef) + norm2(b);
        expect(norm2(sub(x, xRef))).toBeLessThanOrEqual(1e-14 * scale);
        // orthogonal to the null space span{vᵢ : i ≥ r}
        for (let l = r; l < n; l++) {
          const vl = column(vn, n, n, l);
          let d = 0;
          for (let j = 0; j < n; j++) d += vl[j]! * x[j]!;
          expect(Math.abs(d)).toBeLessThanOrEqual(1e-14 * scale);
        }
        // residual minimal: equals the part of b outside span{uᵢ : i < r}
        const coef = new Float64Array(m - r);
        for (let l = r; l < m; l++) {
          const ul = column(um, m, m, l);
          let c = 0;
          for (let i = 0; i < m; i++) c += ul[i]! * b[i]!;
          coef[l - r] = c;
        }
        const rmin = norm2(coef); // scaled: ‖b‖ may be as small as 1e−300
        const rx = norm2(sub(b, matVec(new Float64Array(m), a, m, n, x)));
        // ‖A‖ ≤ 10: residual error ≲ u·(‖A‖‖x‖ + ‖b‖)·c
        expect(Math.abs(rx - rmin)).toBeLessThanOrEqual(1e-14 * 10 * scale);
        expect(Math.abs(qr.lastResidualNorm - rmin)).toBeLessThanOrEqual(1e-14 * 10 * scale);
      }),
      { numRuns: 200 },
    );
  });

  it('rank-deficient A = B·C: x equals C⁺B⁺b = Cᵀ(CCᵀ)⁻¹(BᵀB)⁻¹Bᵀb and lies in the row space', () => {
    // B (m×r) and C (r×n) of full rank r < min(m, n), entries in [−1, 1] plus a diagonal shift that
    // makes them well conditioned (κ₁(BᵀB), κ₁(CCᵀ) ≤ 1e3 is required). A⁺ = C⁺B⁺ holds because B
    // has full column rank and C full row rank. The reference formula solves two SPD systems by LU,
    // so its own relative error is ≲ c·u·(κ(BᵀB) + κ(CCᵀ)); we allow 4·u·(κ₁ + κ₁′ + 4), which
    // also covers the QR side (backward stable, κ(A) ≤ √(κ(BᵀB)κ(CCᵀ))). The normal-equation
    // residual is a pure backward error: ≤ 32·u·‖A‖(‖r‖ + ‖A‖‖x‖).
    const caseArb = fc
      .record({
        m: fc.integer({ min: 2, max: 8 }),
        n: fc.integer({ min: 2, max: 8 }),
        rr: fc.integer({ min: 1, max: 6 }),
      })
      .filter(({ m, n, rr }) => rr < Math.min(m, n))
      .chain(({ m, n, rr }) =>
        fc.record({
          m: fc.constant(m),
          n: fc.constant(n),
          r: fc.constant(rr),
          b: vec(m * rr),
          c: vec(rr * n),
          rhs: vec(m),
        }),
      );
    fc.assert(
      fc.property(caseArb, ({ m, n, r, b: braw, c: craw, rhs }) => {
        const B = Float64Array.from(braw);
        const C = Float64Array.from(craw);
        for (let i = 0; i < r; i++) {
          B[i * r + i] = B[i * r + i]! + 2;
          C[i * n + i] = C[i * n + i]! + 2;
        }
        const btb = gram(B, m, r);
        const cct = matMul(
          new Float64Array(r * r),
          C,
          transpose(new Float64Array(n * r), C, r, n),
          r,
          n,
          r,
        );
        const k1 = new DenseLU(r).factor(btb).conditionEstimate();
        const k2 = new DenseLU(r).factor(cct).conditionEstimate();
        fc.pre(k1 < 1e3 && k2 < 1e3);
        const a = matMul(new Float64Array(m * n), B, C, m, r, n);
        const bvec = Float64Array.from(rhs);
        // reference: x⁺ = Cᵀ·(CCᵀ)⁻¹·(BᵀB)⁻¹·Bᵀ·b
        const y = solveRef(btb, r, matTVec(new Float64Array(r), B, m, r, bvec));
        const w = solveRef(cct, r, y);
        const xRef = matTVec(new Float64Array(n), C, r, n, w);
        const qr = new DenseQR().factor(a, m, n);
        expect(qr.rank()).toBe(r);
        const x = qr.solveLeastSquares(bvec);
        const scale = norm2(xRef) + norm2(bvec);
        const tol = 4 * U * (k1 + k2 + 4) * scale;
        expect(norm2(sub(x, xRef))).toBeLessThanOrEqual(tol);
        // x ∈ row space of A = range(Cᵀ): x − Cᵀ(CCᵀ)⁻¹C·x = 0, i.e. x ⟂ null(A)
        const cx = matVec(new Float64Array(r), C, r, n, x);
        const px = matTVec(new Float64Array(n), C, r, n, solveRef(cct, r, cx));
        expect(norm2(sub(x, px))).toBeLessThanOrEqual(tol);
        // minimal residual: normal equations Aᵀ(b − A·x) = 0 up to backward error
        const res = sub(bvec, matVec(new Float64Array(m), a, m, n, x));
        const atr = matTVec(new Float64Array(n), a, m, n, res);
        const anorm = frobenius(a);
        expect(norm2(atr)).toBeLessThanOrEqual(32 * U * anorm * (norm2(res) + anorm * norm2(x)));
      }),
      { numRuns: 200 },
    );
  });

  it('underdetermined m < n, full row rank: A·x = b exactly and x = Aᵀ(AAᵀ)⁻¹b', () => {
    // s ∈ [1, 10] so κ(AAᵀ) ≤ 100 and the reference is accurate to ~100·u ≈ 1e−14 (observed
    // differences ≤ 9e−16 relative); the residual is a backward error, ≲ c·u·‖A‖‖x‖ with ‖A‖ ≤ 10.
    fc.assert(
      fc.property(svdCase(1, 7, 2, 8, false), ({ m, n, uw, vw, s, z }) => {
        fc.pre(m < n);
        const um = orthogonal(m, uw).q;
        const vn = orthogonal(n, vw).q;
        const a = fromSvd(m, n, s, um, vn);
        const b = Float64Array.from(z);
        const aat = matMul(
          new Float64Array(m * m),
          a,
          transpose(new Float64Array(n * m), a, m, n),
          m,
          n,
          m,
        );
        const xRef = matTVec(new Float64Array(n), a, m, n, solveRef(aat, m, b));
        const scale = norm2(b) + norm2(xRef);
        for (const x of [leastSquares(a, m, n, b), minNormSolve(a, m, n, b)]) {
          expect(norm2(sub(x, xRef))).toBeLessThanOrEqual(1e-14 * scale);
          const r = sub(b, matVec(new Float64Array(m), a, m, n, x));
          expect(norm2(r)).toBeLessThanOrEqual(1e-14 * 10 * scale);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('worked examples: equal columns share the weight, a single equation, the zero matrix', () => {
    const x = leastSquares(Float64Array.of(1, 1, 2, 2), 2, 2, Float64Array.of(2, 4));
    expect(x[0]).toBeCloseTo(1, 14);
    expect(x[1]).toBeCloseTo(1, 14);
    // x + 2y + 2z = 9 → x = (1, 2, 2)·9/9
    const y = minNormSolve(Float64Array.of(1, 2, 2), 1, 3, Float64Array.of(9));
    expect(Array.from(y).map((v) => Math.round(v * 1e12) / 1e12)).toEqual([1, 2, 2]);
    const qr = new DenseQR().factor(new Float64Array(6), 3, 2);
    expect(qr.rank()).toBe(0);
    const z = qr.solveLeastSquares(Float64Array.of(3, 0, 4));
    expect(Array.from(z)).toEqual([0, 0]);
    expect(qr.lastResidualNorm).toBe(5);
    expect(qr.lastRank).toBe(0);
  });

  it('an explicit tolerance truncates the rank, and the cached decomposition follows it', () => {
    // diag(3, 2, 1e−9): with tol 1e−6 the last direction is dropped, the solution has no e₂ part
    const a = Float64Array.of(3, 0, 0, 0, 2, 0, 0, 0, 1e-9);
    const qr = new DenseQR(3, 3).factor(a, 3, 3);
    expect(qr.rank()).toBe(3);
    expect(qr.rank(1e-6)).toBe(2);
    const b = Float64Array.of(3, 2, 1e-9);
    const t = qr.solveLeastSquares(b, new Float64Array(3), 1e-6);
    expect(Array.from(t)).toEqual([1, 1, 0]);
    expect(qr.lastResidualNorm).toBe(1e-9);
    const f = qr.solveLeastSquares(b);
    expect(f[0]).toBeCloseTo(1, 15);
    expect(f[1]).toBeCloseTo(1, 15);
    expect(f[2]).toBeCloseTo(1, 12);
    expect(qr.lastResidualNorm).toBe(0);
  });
});

describe('DenseQR errors', () => {
  it('rejects bad sizes, non-finite data, bad tolerances and use before factor', () => {
    const qr = new DenseQR();
    expect(() => qr.rank()).toThrow(DimensionError);
    expect(() => qr.solveLeastSquares(Float64Array.of(1))).toThrow(DimensionError);
    expect(() => qr.factor(Float64Array.of(1, 2, 3), 2, 2)).toThrow(DimensionError);
    expect(() => qr.factor(Float64Array.of(1, 2), 0, 2)).toThrow(DimensionError);
    expect(() => qr.factor(Float64Array.of(1, 2), 1.5, 2)).toThrow(DimensionError);
    expect(() => new DenseQR(-1, 2)).toThrow(DimensionError);
    const err = (() => {
      try {
        qr.factor(Float64Array.of(1, Number.NaN, 3, 4), 2, 2);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(NonFiniteError);
    expect((err as NonFiniteError).index).toBe(1);
    qr.factor(Float64Array.of(1, 2, 3, 4), 2, 2);
    expect(() => qr.solveLeastSquares(Float64Array.of(1, Number.POSITIVE_INFINITY))).toThrow(
      NonFiniteError,
    );
    expect(() => qr.solveLeastSquares(Float64Array.of(1))).toThrow(DimensionError);
    expect(() => qr.solveLeastSquares(Float64Array.of(1, 2), new Float64Array(1))).toThrow(
      DimensionError,
    );
    expect(() => qr.rank(-1)).toThrow(DomainError);
    expect(() => qr.rank(Number.NaN)).toThrow(DomainError);
    expect(() => minNormSolve(Float64Array.of(1, 2), 2, 1, Float64Array.of(1, 2))).toThrow(
      DimensionError,
    );
    expect(() => minNormSolve(Float64Array.of(1, 2, 2, 4), 2, 2, Float64Array.of(1, 2))).toThrow(
      SingularMatrixError,
    );
  });
});
