import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DenseLU } from '../../src/linalg/lu.js';
import { symmetricEigen } from '../../src/linalg/spectral.js';
import {
  bunchKaufmanFactorInPlace,
  bunchKaufmanSolveInPlace,
  bunchKaufmanSolveManyInPlace,
} from '../../src/ocp/ldlt.js';
import { rng } from '../support/random.js';

/** Random symmetric n×n matrix Q·diag(λ)·Qᵀ with prescribed eigenvalues (Q from Householder products). */
function withEigenvalues(lambda: number[], seed: number): Float64Array {
  const n = lambda.length;
  const r = rng(seed);
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) A[i * n + i] = lambda[i]!;
  for (let t = 0; t < 3; t++) {
    const v = Array.from({ length: n }, () => 2 * r() - 1);
    const vv = v.reduce((s, x) => s + x * x, 0);
    if (vv < 1e-3) continue;
    // A ← H A H with H = I − 2vvᵀ/vᵀv
    const Av = Array.from({ length: n }, (_, i) =>
      v.reduce((s, vj, j) => s + A[i * n + j]! * vj, 0),
    );
    const vAv = v.reduce((s, vi, i) => s + vi * Av[i]!, 0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        A[i * n + j] =
          A[i * n + j]! -
          (2 * (v[i]! * Av[j]! + Av[i]! * v[j]!)) / vv +
          (4 * vAv * v[i]! * v[j]!) / (vv * vv);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const s = 0.5 * (A[i * n + j]! + A[j * n + i]!);
      A[i * n + j] = s;
      A[j * n + i] = s;
    }
  }
  return A;
}

function factor(A: Float64Array, n: number, zeroRtol = 1e-12) {
  const a = Float64Array.from(A);
  const perm = new Int32Array(n);
  const blocks = new Int32Array(n);
  const inertia = new Int32Array(3);
  const zeros = bunchKaufmanFactorInPlace(
    a,
    n,
    perm,
    blocks,
    inertia,
    Float64Array.of(zeroRtol, 0),
    new Float64Array(n),
  );
  return { a, perm, blocks, inertia, zeros };
}

describe('Bunch–Kaufman LDLᵀ', () => {
  it('the examples of the solve kernels', () => {
    const a = Float64Array.of(2, 1, 1, -3);
    const perm = new Int32Array(2);
    const blocks = new Int32Array(2);
    const inertia = new Int32Array(3);
    bunchKaufmanFactorInPlace(
      a,
      2,
      perm,
      blocks,
      inertia,
      Float64Array.of(1e-12, 0),
      new Float64Array(2),
    );
    expect(Array.from(inertia)).toEqual([1, 1, 0]);
    const b = Float64Array.of(3, -2);
    bunchKaufmanSolveInPlace(a, 2, perm, blocks, b, new Float64Array(2));
    expect(b[0]).toBeCloseTo(1, 14);
    expect(b[1]).toBeCloseTo(1, 14);
    const B = Float64Array.of(3, -2, 2, 1);
    bunchKaufmanSolveManyInPlace(a, 2, perm, blocks, B, new Float64Array(2), 2);
    for (const [i, v] of [1, 1, 1, 0].entries()) expect(B[i]).toBeCloseTo(v, 14);
  });

  it('inertia equals the signs of prescribed eigenvalues; solves agree with LU (residual ≤ 1e-13‖A‖‖x‖)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        (n, seed) => {
          const r = rng(seed);
          // eigenvalues of both signs, magnitudes 1e-3..1e3
          const lambda = Array.from(
            { length: n },
            () => (r() < 0.5 ? -1 : 1) * 10 ** (6 * r() - 3),
          );
          const A = withEigenvalues(lambda, seed + 1);
          const { a, perm, blocks, inertia, zeros } = factor(A, n);
          expect(zeros).toBe(0);
          const pos = lambda.filter((l) => l > 0).length;
          expect(Array.from(inertia)).toEqual([pos, n - pos, 0]);
          const b = Float64Array.from({ length: n }, () => 2 * r() - 1);
          const x = Float64Array.from(b);
          bunchKaufmanSolveInPlace(a, n, perm, blocks, x, new Float64Array(n));
          const ref = new DenseLU(n).factor(A).solve(b);
          let res = 0;
          let anorm = 0;
          let xn = 0;
          for (let i = 0; i < n; i++) {
            let s = -b[i]!;
            let row = 0;
            for (let j = 0; j < n; j++) {
              s += A[i * n + j]! * x[j]!;
              row += Math.abs(A[i * n + j]!);
            }
            res = Math.max(res, Math.abs(s));
            anorm = Math.max(anorm, row);
            xn = Math.max(xn, Math.abs(x[i]!));
          }
          expect(res / (anorm * xn)).toBeLessThan(1e-13);
          for (let i = 0; i < n; i++) expect(Math.abs(x[i]! - ref[i]!)).toBeLessThan(1e-6 * xn);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts zero eigenvalues of singular matrices (exact rank deficiency up to n)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        (n, seed) => {
          // A = Σ_t s_t v_t v_tᵀ with small integer vectors: exactly representable, rank ≤ r
          const r = rng(seed);
          const rank = Math.floor(r() * n);
          const A = new Float64Array(n * n);
          for (let t = 0; t < rank; t++) {
            const v = Array.from({ length: n }, () => Math.floor(5 * r()) - 2);
            const sg = r() < 0.5 ? -1 : 1;
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++) A[i * n + j]! += sg * v[i]! * v[j]!;
          }
          const { values } = symmetricEigen(A, n);
          let scale = 0;
          for (const v of values) scale = Math.max(scale, Math.abs(v));
          const ref = [0, 0, 0];
          for (const v of values) {
            if (Math.abs(v) <= 1e-9 * Math.max(scale, 1)) ref[2]!++;
            else if (v > 0) ref[0]!++;
            else ref[1]!++;
          }
          const { inertia } = factor(A, n);
          expect(Array.from(inertia)).toEqual(ref);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a 2×2 pivot for [[0, 1], [1, 0]] (the example), and the row-wise zero test with a huge diagonal', () => {
    const { inertia, blocks } = factor(Float64Array.of(0, 1, 1, 0), 2);
    expect(Array.from(inertia)).toEqual([1, 1, 0]);
    expect(blocks[0]).toBe(2);
    // rows of very different scale: curvature 1e-3 next to 1e15 is not a zero pivot
    const A = Float64Array.of(1e15, 1, 1, 1e-3 + 1e-15);
    expect(Array.from(factor(A, 2).inertia)).toEqual([2, 0, 0]);
  });
});
