import fc from 'fast-check';
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError, NonFiniteError } from '../../src/errors.js';
import {
  asymmetry,
  fromRows,
  identity,
  matMul,
  norm2,
  transpose,
} from '../../src/linalg/matrix.js';
import {
  columnSpace,
  conditionNumber2,
  eigenvalues,
  nullSpace,
  pseudoInverse,
  rangeSpace,
  rank,
  singularValues,
  svd,
  symmetricEigen,
} from '../../src/linalg/spectral.js';
import { uniformArray } from '../support/random.js';

// ---------------------------------------------------------------------------------------------
// helpers

function mul(a: Float64Array, b: Float64Array, m: number, k: number, n: number): Float64Array {
  return matMul(new Float64Array(m * n), a, b, m, k, n);
}

function tr(a: Float64Array, m: number, n: number): Float64Array {
  return transpose(new Float64Array(m * n), a, m, n);
}

function sub(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((v, i) => v - b[i]!);
}

/** Frobenius norm of a − b. */
function diffNorm(a: Float64Array, b: Float64Array): number {
  return norm2(sub(a, b));
}

/** max |QᵀQ − I| for Q rows×d. */
function orthonormalityError(q: Float64Array, rows: number, d: number): number {
  const g = mul(tr(q, rows, d), q, d, rows, d);
  const id = identity(d);
  let e = 0;
  for (let i = 0; i < d * d; i++) e = Math.max(e, Math.abs(g[i]! - id[i]!));
  return e;
}

/** U·diag(s)·Vᵀ for U m×k, V n×k. */
function reconstruct(
  U: Float64Array,
  s: Float64Array,
  V: Float64Array,
  m: number,
  n: number,
  k: number,
) {
  const us = U.map((v, idx) => v * s[idx % k]!);
  return mul(us, tr(V, n, k), m, k, n);
}

/** The error `f` throws (the test fails if it returns). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

function rotation(theta: number): Float64Array {
  return Float64Array.of(Math.cos(theta), -Math.sin(theta), Math.sin(theta), Math.cos(theta));
}

const sizes = fc.record({
  m: fc.integer({ min: 1, max: 9 }),
  n: fc.integer({ min: 1, max: 9 }),
  seed: fc.integer(),
});

/** A = B·C with B m×r, C r×n random: rank r (generically), r ≤ min(m, n). */
const lowRank = fc
  .record({
    m: fc.integer({ min: 1, max: 9 }),
    n: fc.integer({ min: 1, max: 9 }),
    rFrac: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer(),
  })
  .map(({ m, n, rFrac, seed }) => {
    const r = Math.min(Math.floor(rFrac * (Math.min(m, n) + 1)), Math.min(m, n));
    const B = uniformArray(m * r, seed);
    const C = uniformArray(r * n, seed ^ 0x5bd1e995);
    return { m, n, r, a: mul(B, C, m, r, n) };
  });

const FC = { seed: 20240611, numRuns: 200 } as const;

// ---------------------------------------------------------------------------------------------

describe('svd', () => {
  it('reconstructs A to 1e-12 relative with orthonormal U, V and descending s (random sizes)', () => {
    fc.assert(
      fc.property(sizes, ({ m, n, seed }) => {
        const a = uniformArray(m * n, seed);
        const { U, s, V, k } = svd(a, m, n);
        expect(k).toBe(Math.min(m, n));
        expect(U.length).toBe(m * k);
        expect(V.length).toBe(n * k);
        expect(diffNorm(reconstruct(U, s, V, m, n, k), a)).toBeLessThanOrEqual(1e-12 * norm2(a));
        expect(orthonormalityError(U, m, k)).toBeLessThanOrEqual(1e-13);
        expect(orthonormalityError(V, n, k)).toBeLessThanOrEqual(1e-13);
        for (let i = 0; i < k; i++) {
          expect(s[i]).toBeGreaterThanOrEqual(0);
          if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]!);
        }
      }),
      FC,
    );
  });

  it('singular values of a diagonal matrix are its sorted absolute diagonal', () => {
    const s = singularValues(
      fromRows([
        [3, 0, 0],
        [0, -5, 0],
        [0, 0, 1],
      ]),
      3,
      3,
    );
    expect(Math.abs(s[0]! - 5)).toBeLessThanOrEqual(1e-15 * 5);
    expect(Math.abs(s[1]! - 3)).toBeLessThanOrEqual(1e-15 * 5);
    expect(Math.abs(s[2]! - 1)).toBeLessThanOrEqual(1e-15 * 5);
  });

  it('a rank-1 outer product u·vᵀ has s = (‖u‖‖v‖, 0, ...)', () => {
    // u = (1, 2, 2), ‖u‖ = 3; v = (3, 4), ‖v‖ = 5
    const a = fromRows([
      [3, 4],
      [6, 8],
      [6, 8],
    ]);
    for (const [m, n, x] of [
      [3, 2, a],
      [2, 3, tr(a, 3, 2)],
    ] as const) {
      const { s, U, V } = svd(x, m, n);
      expect(Math.abs(s[0]! - 15)).toBeLessThanOrEqual(1e-14 * 15);
      expect(s[1]!).toBeLessThanOrEqual(1e-14 * 15);
      // leading singular vectors are ±u/3 and ±v/5
      const uu = m === 3 ? [1 / 3, 2 / 3, 2 / 3] : [3 / 5, 4 / 5];
      const vv = m === 3 ? [3 / 5, 4 / 5] : [1 / 3, 2 / 3, 2 / 3];
      const sign = Math.sign(U[0]!);
      for (let i = 0; i < m; i++)
        expect(Math.abs(U[i * 2]! - sign * uu[i]!)).toBeLessThanOrEqual(1e-15);
      for (let i = 0; i < n; i++)
        expect(Math.abs(V[i * 2]! - sign * vv[i]!)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('R(θ)·diag(4, 0.5)·R(φ)ᵀ has singular values 4 and 0.5', () => {
    const d = Float64Array.of(4, 0, 0, 0.5);
    const a = mul(mul(rotation(0.7), d, 2, 2, 2), tr(rotation(-2.1), 2, 2), 2, 2, 2);
    const s = singularValues(a, 2, 2);
    expect(Math.abs(s[0]! - 4)).toBeLessThanOrEqual(1e-15 * 4);
    expect(Math.abs(s[1]! - 0.5)).toBeLessThanOrEqual(1e-14 * 4);
  });

  it('singularValues agrees with svd().s to the last bits', () => {
    fc.assert(
      fc.property(sizes, ({ m, n, seed }) => {
        const a = uniformArray(m * n, seed);
        const s1 = singularValues(a, m, n);
        const { s } = svd(a, m, n);
        expect(diffNorm(s1, s)).toBeLessThanOrEqual(1e-14 * (s[0] ?? 1));
      }),
      { ...FC, numRuns: 50 },
    );
  });

  it('handles empty matrices', () => {
    expect(svd(new Float64Array(0), 0, 3)).toEqual({
      U: new Float64Array(0),
      s: new Float64Array(0),
      V: new Float64Array(0),
      k: 0,
    });
    expect(rank(new Float64Array(0), 4, 0)).toBe(0);
  });
});

describe('rank', () => {
  it('rank(B·C) = r for B m×r, C r×n (random sizes)', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, r, a }) => {
        expect(rank(a, m, n)).toBe(r);
      }),
      FC,
    );
  });

  it('counts singular values above an explicit tol', () => {
    const a = fromRows([
      [1, 0, 0],
      [0, 1e-3, 0],
      [0, 0, 1e-9],
    ]);
    expect(rank(a, 3, 3)).toBe(3);
    expect(rank(a, 3, 3, 1e-6)).toBe(2);
    expect(rank(a, 3, 3, 1e-2)).toBe(1);
    expect(rank(new Float64Array(6), 2, 3)).toBe(0);
    expect(rank(identity(5), 5, 5)).toBe(5);
  });
});

describe('nullSpace and columnSpace', () => {
  it('nullSpace: d = n − rank, orthonormal, ‖A·N‖ ≤ 1e-12·‖A‖₂; with the row space it spans ℝⁿ', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, r, a }) => {
        const { basis, d } = nullSpace(a, m, n);
        expect(d).toBe(n - r);
        expect(basis.length).toBe(n * d);
        expect(orthonormalityError(basis, n, d)).toBeLessThanOrEqual(1e-13);
        const normA = singularValues(a, m, n)[0]!;
        const an = mul(a, basis, m, n, d);
        for (let j = 0; j < d; j++) {
          let c = 0;
          for (let i = 0; i < m; i++) c += an[i * d + j]! ** 2;
          expect(Math.sqrt(c)).toBeLessThanOrEqual(1e-12 * normA);
        }
        // [rowSpace(A) | nullSpace(A)] is an orthonormal basis of ℝⁿ
        const row = columnSpace(tr(a, m, n), n, m);
        expect(row.d).toBe(r);
        const full = new Float64Array(n * n);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < r; j++) full[i * n + j] = row.basis[i * r + j]!;
          for (let j = 0; j < d; j++) full[i * n + r + j] = basis[i * d + j]!;
        }
        expect(orthonormalityError(full, n, n)).toBeLessThanOrEqual(1e-13);
      }),
      FC,
    );
  });

  it('nullSpace of (1, 1, 0) is spanned by (1, −1, 0)/√2 and (0, 0, 1)', () => {
    const { basis, d } = nullSpace(Float64Array.of(1, 1, 0), 1, 3);
    expect(d).toBe(2);
    // projector N·Nᵀ = I − x·xᵀ/‖x‖² with x = (1, 1, 0)
    const P = mul(basis, tr(basis, 3, 2), 3, 2, 3);
    const expected = fromRows([
      [0.5, -0.5, 0],
      [-0.5, 0.5, 0],
      [0, 0, 1],
    ]);
    expect(diffNorm(P, expected)).toBeLessThanOrEqual(1e-15);
    expect(nullSpace(new Float64Array(0), 0, 3)).toEqual({ basis: identity(3), d: 3 });
    expect(nullSpace(identity(4), 4, 4).d).toBe(0);
  });

  it('columnSpace: d = rank, orthonormal, Q·Qᵀ·A = A to 1e-12·‖A‖', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, r, a }) => {
        const { basis, d } = columnSpace(a, m, n);
        expect(d).toBe(r);
        expect(orthonormalityError(basis, m, d)).toBeLessThanOrEqual(1e-13);
        const proj = mul(mul(basis, tr(basis, m, d), m, d, m), a, m, m, n);
        expect(diffNorm(proj, a)).toBeLessThanOrEqual(1e-12 * norm2(a) + 1e-300);
      }),
      FC,
    );
  });

  it('columnSpace of [1 2; 2 4] is ±(1, 2)/√5; rangeSpace is the same function', () => {
    const { basis, d } = columnSpace(Float64Array.of(1, 2, 2, 4), 2, 2);
    expect(d).toBe(1);
    const sign = Math.sign(basis[0]!);
    expect(Math.abs(basis[0]! - sign / Math.sqrt(5))).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(basis[1]! - (sign * 2) / Math.sqrt(5))).toBeLessThanOrEqual(1e-15);
    expect(rangeSpace).toBe(columnSpace);
  });
});

describe('pseudoInverse', () => {
  it('satisfies the four Moore–Penrose conditions to 1e-10 (random, rank-deficient included)', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, a }) => {
        const x = pseudoInverse(a, m, n);
        expect(x.length).toBe(n * m);
        const nA = norm2(a);
        const nX = norm2(x);
        const ax = mul(a, x, m, n, m);
        const xa = mul(x, a, n, m, n);
        // (1) A X A = A, (2) X A X = X, (3) (A X)ᵀ = A X, (4) (X A)ᵀ = X A
        expect(diffNorm(mul(ax, a, m, m, n), a)).toBeLessThanOrEqual(1e-10 * nA);
        expect(diffNorm(mul(xa, x, n, n, m), x)).toBeLessThanOrEqual(1e-10 * nX);
        expect(diffNorm(tr(ax, m, m), ax)).toBeLessThanOrEqual(1e-10);
        expect(diffNorm(tr(xa, n, n), xa)).toBeLessThanOrEqual(1e-10);
      }),
      FC,
    );
  });

  it('known values: pinv([1 2]) = [0.2; 0.4], pinv of an invertible matrix is its inverse', () => {
    const x = pseudoInverse(Float64Array.of(1, 2), 1, 2);
    expect(Math.abs(x[0]! - 0.2)).toBeLessThanOrEqual(1e-16);
    expect(Math.abs(x[1]! - 0.4)).toBeLessThanOrEqual(1e-16);
    const a = fromRows([
      [4, 7],
      [2, 6],
    ]);
    const inv = fromRows([
      [0.6, -0.7],
      [-0.2, 0.4],
    ]);
    expect(diffNorm(pseudoInverse(a, 2, 2), inv)).toBeLessThanOrEqual(1e-15);
    expect(pseudoInverse(new Float64Array(4), 2, 2)).toEqual(new Float64Array(4));
  });
});

describe('conditionNumber2', () => {
  it('known values', () => {
    expect(conditionNumber2(Float64Array.of(2, 0, 0, 0.5), 2, 2)).toBeCloseTo(4, 14);
    expect(Math.abs(conditionNumber2(rotation(0.3), 2, 2) - 1)).toBeLessThanOrEqual(1e-15);
    expect(conditionNumber2(Float64Array.of(1, 0, 0, 0), 2, 2)).toBe(Number.POSITIVE_INFINITY);
    expect(conditionNumber2(new Float64Array(6), 2, 3)).toBe(Number.POSITIVE_INFINITY);
    // rectangular: singular values of [[3, 0, 0], [0, 1, 0]] are 3 and 1
    expect(conditionNumber2(Float64Array.of(3, 0, 0, 0, 1, 0), 2, 3)).toBeCloseTo(3, 14);
    // numerically singular: rank-1 [[1, 2], [2, 4]] has κ₂ ≥ 1/ε or ∞
    expect(conditionNumber2(Float64Array.of(1, 2, 2, 4), 2, 2)).toBeGreaterThan(1e15);
    expect(() => conditionNumber2(new Float64Array(0), 0, 2)).toThrow(DimensionError);
  });
});

describe('symmetricEigen', () => {
  it('A·v = λ·v to 1e-12·‖A‖, Q orthonormal, λ ascending (random symmetric)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer(), (n, seed) => {
        const b = uniformArray(n * n, seed);
        const a = b.map((v, idx) => v + b[(idx % n) * n + Math.floor(idx / n)]!);
        const { values, vectors } = symmetricEigen(a, n);
        expect(orthonormalityError(vectors, n, n)).toBeLessThanOrEqual(1e-13);
        const normA = Math.max(Math.abs(values[0]!), Math.abs(values[n - 1]!));
        const av = mul(a, vectors, n, n, n);
        for (let j = 0; j < n; j++) {
          let r = 0;
          for (let i = 0; i < n; i++) r += (av[i * n + j]! - values[j]! * vectors[i * n + j]!) ** 2;
          expect(Math.sqrt(r)).toBeLessThanOrEqual(1e-12 * normA);
          if (j > 0) expect(values[j]).toBeGreaterThanOrEqual(values[j - 1]!);
        }
      }),
      FC,
    );
  });

  it('eigenvalues of known matrices', () => {
    const two = symmetricEigen(Float64Array.of(2, 1, 1, 2), 2);
    expect(Math.abs(two.values[0]! - 1)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(two.values[1]! - 3)).toBeLessThanOrEqual(4e-15);
    // eigenvector of 1 is ±(1, −1)/√2
    expect(Math.abs(Math.abs(two.vectors[0]!) - Math.SQRT1_2)).toBeLessThanOrEqual(1e-15);
    expect(two.vectors[0]! * two.vectors[2]!).toBeLessThan(0);

    // 1D Laplacian: eigenvalues 2 − 2cos(kπ/4) = 2 − √2, 2, 2 + √2
    const lap = fromRows([
      [2, -1, 0],
      [-1, 2, -1],
      [0, -1, 2],
    ]);
    const { values } = symmetricEigen(lap, 3);
    const expected = [2 - Math.SQRT2, 2, 2 + Math.SQRT2];
    for (let i = 0; i < 3; i++)
      expect(Math.abs(values[i]! - expected[i]!)).toBeLessThanOrEqual(1e-14);

    // an unsorted diagonal is sorted, vectors permuted accordingly
    const d = symmetricEigen(
      fromRows([
        [3, 0, 0],
        [0, -1, 0],
        [0, 0, 2],
      ]),
      3,
    );
    expect(Array.from(d.values)).toEqual([-1, 2, 3]);
    expect(Array.from(d.vectors).map(Math.abs)).toEqual([0, 0, 1, 1, 0, 0, 0, 1, 0]);
  });

  it('rejects asymmetry above relative 1e-12, accepts and symmetrizes below', () => {
    const bad = Float64Array.of(1, 2, 2 + 1e-9, 1);
    const e = thrown(() => symmetricEigen(bad, 2));
    expect(e).toBeInstanceOf(DomainError);
    // the reported value is the relative asymmetry |a_01 − a_10| / max |a_ij| = 1e-9 / (2 + 1e-9)
    const rel = 1e-9 / (2 + 1e-9);
    expect(Math.abs(((e as DomainError).value as number) - rel)).toBeLessThanOrEqual(1e-15);
    // asymmetry 1e-14 relative to max |a| = 2: accepted; eigenvalues of the symmetric part 3, −1
    const ok = symmetricEigen(Float64Array.of(1, 2, 2 + 2e-14, 1), 2);
    expect(Math.abs(ok.values[0]! + 1)).toBeLessThanOrEqual(1e-13);
    expect(Math.abs(ok.values[1]! - 3)).toBeLessThanOrEqual(1e-13);
  });
});

describe('eigenvalues (general real matrices)', () => {
  it('rotation by θ has eigenvalues cos θ ± i sin θ', () => {
    for (const theta of [0.3, 0.9, 2.5, -1.2]) {
      const { re, im } = eigenvalues(rotation(theta), 2);
      for (let i = 0; i < 2; i++)
        expect(Math.abs(re[i]! - Math.cos(theta))).toBeLessThanOrEqual(1e-15);
      const s = Math.abs(Math.sin(theta));
      expect(Math.abs(im[0]! - s)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(im[1]! + s)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('companion matrix of (x−1)(x−2)(x−3)(x²+1) has eigenvalues ±i, 1, 2, 3', () => {
    // x⁵ − 6x⁴ + 12x³ − 12x² + 11x − 6
    const c = fromRows([
      [6, -12, 12, -11, 6],
      [1, 0, 0, 0, 0],
      [0, 1, 0, 0, 0],
      [0, 0, 1, 0, 0],
      [0, 0, 0, 1, 0],
    ]);
    const { re, im } = eigenvalues(c, 5);
    const expRe = [0, 0, 1, 2, 3];
    const expIm = [1, -1, 0, 0, 0];
    for (let i = 0; i < 5; i++) {
      expect(Math.abs(re[i]! - expRe[i]!)).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(im[i]! - expIm[i]!)).toBeLessThanOrEqual(1e-10);
    }
  });

  it('keeps a conjugate pair adjacent, +im first, and agrees with symmetricEigen on symmetric input', () => {
    // block diag(2·R(π/3), 1): pair 1 ± i√3 and the real eigenvalue 1 with equal real part
    const h = Math.sqrt(3);
    const a = fromRows([
      [1, -h, 0],
      [h, 1, 0],
      [0, 0, 1],
    ]);
    const { re, im } = eigenvalues(a, 3);
    expect(Array.from(re).map((v) => Math.abs(v - 1) <= 1e-15)).toEqual([true, true, true]);
    expect(Math.abs(im[0]! - h)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(im[1]! + h)).toBeLessThanOrEqual(1e-15);
    expect(im[2]).toBe(0);

    const lap = fromRows([
      [2, -1, 0],
      [-1, 2, -1],
      [0, -1, 2],
    ]);
    const g = eigenvalues(lap, 3);
    const s = symmetricEigen(lap, 3);
    expect(diffNorm(g.re, s.values)).toBeLessThanOrEqual(1e-14);
    expect(Array.from(g.im)).toEqual([0, 0, 0]);
  });
});

describe('validation', () => {
  it('rejects bad sizes, lengths and non-finite entries with typed errors', () => {
    expect(() => svd(new Float64Array(5), 2, 3)).toThrow(DimensionError);
    expect(() => svd(new Float64Array(6), -2, -3)).toThrow(DimensionError);
    expect(() => rank(new Float64Array(6), 1.5, 4)).toThrow(DimensionError);
    expect(() => symmetricEigen(new Float64Array(6), 2)).toThrow(DimensionError);
    expect(() => eigenvalues(new Float64Array(3), 2)).toThrow(DimensionError);
    const nan = Float64Array.of(1, 2, Number.NaN, 4);
    for (const f of [
      () => svd(nan, 2, 2),
      () => singularValues(nan, 2, 2),
      () => nullSpace(nan, 2, 2),
      () => pseudoInverse(nan, 2, 2),
      () => symmetricEigen(nan, 2),
      () => eigenvalues(Float64Array.of(1, Number.POSITIVE_INFINITY, 0, 1), 2),
    ]) {
      expect(f).toThrow(NonFiniteError);
    }
    const e = thrown(() => svd(nan, 2, 2));
    expect(e).toBeInstanceOf(NonFiniteError);
    expect((e as NonFiniteError).index).toBe(2);
    expect(() => rank(identity(2), 2, 2, -1)).toThrow(DomainError);
    expect(() => nullSpace(identity(2), 2, 2, Number.NaN)).toThrow(DomainError);
  });
});

describe('subnormal entries next to O(1) ones (SVD_FLUSH_RTOL)', () => {
  it('nullSpace stays orthonormal (1e-13) and exact (‖A v‖ ≤ 1e-15)', () => {
    // a counterexample found by fast-check in the dirac subspace tests: before the flush the
    // JAMA SVD returned a null-space basis with ‖VᵀV − I‖ ≈ 0.27
    const A = Float64Array.of(-5e-324, 0.5773502691896256, 0, -0.14907119849998596, 0, 0);
    const { basis, d } = nullSpace(A, 1, 6);
    expect(d).toBe(5);
    for (let a = 0; a < d; a++) {
      let av = 0;
      for (let j = 0; j < 6; j++) av += A[j]! * basis[j * d + a]!;
      expect(Math.abs(av)).toBeLessThan(1e-15);
      for (let b = 0; b < d; b++) {
        let dotAB = 0;
        for (let j = 0; j < 6; j++) dotAB += basis[j * d + a]! * basis[j * d + b]!;
        expect(Math.abs(dotAB - (a === b ? 1 : 0))).toBeLessThan(1e-13);
      }
    }
  });

  it('a matrix of subnormals keeps its rank and its singular values', () => {
    const s = singularValues(Float64Array.of(5e-324, 0, 0, 1e-323), 2, 2);
    expect(Array.from(s)).toEqual([1e-323, 5e-324]);
    expect(rank(Float64Array.of(0, 0, 5e-324), 1, 3)).toBe(1);
  });
});

describe('asymmetry', () => {
  it('is max |a_ij − a_ji| / max |a_ij|, 0 for symmetric and zero matrices', () => {
    expect(asymmetry(Float64Array.of(1, 2, 2.5, 1), 2)).toBeCloseTo(0.2, 15);
    expect(asymmetry(Float64Array.of(1, 2, 3, 2, 5, 6, 3, 6, 9), 3)).toBe(0);
    expect(asymmetry(new Float64Array(4), 2)).toBe(0);
    // the largest defect wins, over the largest entry
    expect(asymmetry(Float64Array.of(4, 1, 0, 1.5, 1, 0, 0.25, 0, 1), 3)).toBeCloseTo(0.5 / 4, 15);
  });
});

// ---------------------------------------------------------------------------------------------
// core's own kernels against ml-matrix (the JAMA ports core used before them)

/** An m×n ml-matrix `Matrix` of the row-major `a`. */
function ml(a: ArrayLike<number>, m: number, n: number): Matrix {
  const M = new Matrix(m, n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) M.set(i, j, a[i * n + j]!);
  return M;
}

/** The orthogonal projector B·Bᵀ (rows×rows) onto the span of the columns of B (rows×d). */
function projector(b: Float64Array, rows: number, d: number): Float64Array {
  return mul(b, tr(b, rows, d), rows, d, rows);
}

describe('against ml-matrix (random matrices up to 12×12)', () => {
  const bigger = fc.record({
    m: fc.integer({ min: 1, max: 12 }),
    n: fc.integer({ min: 1, max: 12 }),
    seed: fc.integer(),
  });

  it('singular values agree to 1e-13·s₀', () => {
    fc.assert(
      fc.property(bigger, ({ m, n, seed }) => {
        const a = uniformArray(m * n, seed);
        const ours = singularValues(a, m, n);
        const ref = new SingularValueDecomposition(ml(a, m, n), { autoTranspose: true }).diagonal;
        const s0 = Math.max(ours[0]!, 1e-300);
        for (let i = 0; i < ours.length; i++)
          expect(Math.abs(ours[i]! - ref[i]!)).toBeLessThanOrEqual(1e-13 * s0);
      }),
      FC,
    );
  });

  it('null and column spaces (as projectors) and ranks agree to 1e-12 on rank-deficient matrices', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, r, a }) => {
        const dec = new SingularValueDecomposition(ml(a, m, n), { autoTranspose: true });
        const refS = dec.diagonal;
        const tol = Math.max(m, n) * Number.EPSILON * (refS[0] ?? 0);
        const refRank = refS.filter((x) => x > tol).length;
        expect(rank(a, m, n)).toBe(refRank);
        expect(refRank).toBe(r);
        // column space: the first r left singular vectors of ml-matrix's SVD
        const col = columnSpace(a, m, n);
        const U = dec.leftSingularVectors;
        const refCol = new Float64Array(m * r);
        for (let i = 0; i < m; i++) for (let j = 0; j < r; j++) refCol[i * r + j] = U.get(i, j);
        expect(
          diffNorm(projector(col.basis, m, col.d), projector(refCol, m, r)),
        ).toBeLessThanOrEqual(1e-12);
        // null space: I − (projector onto the row space)
        const ns = nullSpace(a, m, n);
        const V = dec.rightSingularVectors;
        const refRow = new Float64Array(n * r);
        for (let i = 0; i < n; i++) for (let j = 0; j < r; j++) refRow[i * r + j] = V.get(i, j);
        const refNull = sub(identity(n), projector(refRow, n, r));
        expect(diffNorm(projector(ns.basis, n, ns.d), refNull)).toBeLessThanOrEqual(1e-12);
      }),
      FC,
    );
  });

  it('pseudo-inverses agree to 1e-11·‖A⁺‖ on rank-deficient matrices', () => {
    fc.assert(
      fc.property(lowRank, ({ m, n, a }) => {
        const ours = pseudoInverse(a, m, n);
        const dec = new SingularValueDecomposition(ml(a, m, n), { autoTranspose: true });
        const s = dec.diagonal;
        const U = dec.leftSingularVectors;
        const V = dec.rightSingularVectors;
        const tol = Math.max(m, n) * Number.EPSILON * (s[0] ?? 0);
        const ref = new Float64Array(n * m);
        for (let l = 0; l < s.length; l++) {
          if (!(s[l]! > tol)) continue;
          for (let i = 0; i < n; i++)
            for (let j = 0; j < m; j++)
              ref[i * m + j] = ref[i * m + j]! + (V.get(i, l) * U.get(j, l)) / s[l]!;
        }
        expect(diffNorm(ours, ref)).toBeLessThanOrEqual(1e-11 * Math.max(1, norm2(ref)));
      }),
      FC,
    );
  });

  it('symmetric eigenvalues agree to 1e-13·‖A‖_F; eigenvectors span the same eigenspaces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer(), (n, seed) => {
        const b = uniformArray(n * n, seed);
        const a = new Float64Array(n * n);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) a[i * n + j] = b[i * n + j]! + b[j * n + i]!;
        const { values, vectors } = symmetricEigen(a, n);
        const dec = new EigenvalueDecomposition(ml(a, n, n), { assumeSymmetric: true });
        const ref = [...dec.realEigenvalues].sort((x, y) => x - y);
        const scale = norm2(a);
        for (let i = 0; i < n; i++)
          expect(Math.abs(values[i]! - ref[i]!)).toBeLessThanOrEqual(1e-13 * scale);
        // Q·diag(λ)·Qᵀ = A (basis-independent check against the same matrix ml-matrix decomposed)
        const ql = vectors.map((v, idx) => v * values[idx % n]!);
        expect(diffNorm(mul(ql, tr(vectors, n, n), n, n, n), a)).toBeLessThanOrEqual(1e-13 * scale);
      }),
      FC,
    );
  });

  it('general eigenvalues agree to 1e-10·‖A‖_F (random non-symmetric, complex pairs included)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer(), (n, seed) => {
        const a = uniformArray(n * n, seed);
        const { re, im } = eigenvalues(a, n);
        const dec = new EigenvalueDecomposition(ml(a, n, n));
        const scale = Math.max(norm2(a), 1e-300);
        // match each reference eigenvalue to the nearest unused one of ours
        const used = new Array<boolean>(n).fill(false);
        for (let i = 0; i < n; i++) {
          const x = dec.realEigenvalues[i]!;
          const y = dec.imaginaryEigenvalues[i]!;
          let best = -1;
          let bestD = Number.POSITIVE_INFINITY;
          for (let j = 0; j < n; j++) {
            if (used[j]) continue;
            const d = Math.hypot(re[j]! - x, im[j]! - y);
            if (d < bestD) {
              bestD = d;
              best = j;
            }
          }
          used[best] = true;
          expect(bestD).toBeLessThanOrEqual(1e-10 * scale);
        }
      }),
      FC,
    );
  });

  it('larger sizes: 40×30 SVD and 40×40 eigenproblems agree to the same tolerances', () => {
    const m = 40;
    const n = 30;
    const a = uniformArray(m * n, 7);
    const s = singularValues(a, m, n);
    const ref = new SingularValueDecomposition(ml(a, m, n)).diagonal;
    for (let i = 0; i < n; i++)
      expect(Math.abs(s[i]! - ref[i]!)).toBeLessThanOrEqual(1e-13 * s[0]!);
    const b = uniformArray(m * m, 8);
    const sym = new Float64Array(m * m);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) sym[i * m + j] = b[i * m + j]! + b[j * m + i]!;
    const ev = symmetricEigen(sym, m).values;
    const refEv = [
      ...new EigenvalueDecomposition(ml(sym, m, m), { assumeSymmetric: true }).realEigenvalues,
    ].sort((x, y) => x - y);
    for (let i = 0; i < m; i++)
      expect(Math.abs(ev[i]! - refEv[i]!)).toBeLessThanOrEqual(1e-13 * norm2(sym));
    const general = eigenvalues(b, m);
    const refRe = [...new EigenvalueDecomposition(ml(b, m, m)).realEigenvalues].sort(
      (x, y) => x - y,
    );
    const oursRe = [...general.re].sort((x, y) => x - y);
    for (let i = 0; i < m; i++)
      expect(Math.abs(oursRe[i]! - refRe[i]!)).toBeLessThanOrEqual(1e-10 * norm2(b));
  });
});
