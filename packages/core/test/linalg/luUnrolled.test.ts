import { describe, expect, it } from 'vitest';
import {
  DenseLU,
  luFactorInPlace,
  luSolveInPlace,
  luSolveTransposeInPlace,
} from '../../src/linalg/lu.js';
import {
  LU_UNROLLED_MAX_N,
  luFactorUnrolled,
  luSolveTransposeUnrolled,
  luSolveUnrolled,
} from '../../src/linalg/luUnrolled.js';
import { uniformArray as vec } from '../support/random.js';

// The written-out solves of luUnrolled.ts (and DenseLU's offset-free kernels) promise the loop
// kernels' results bit for bit: every entry is compared with Object.is (which also tells +0
// from −0), on random matrices whose factorizations pivot, at every order with a written-out
// solve and two beyond it (the loop path).

/** A random n×n matrix and its factorization by the exported loop kernel. */
function factored(n: number, seed: number): { a: Float64Array; lu: Float64Array; piv: Int32Array } {
  const a = vec(n * n, seed);
  const lu = a.slice();
  const piv = new Int32Array(n);
  expect(luFactorInPlace(lu, n, piv)).toBe(-1);
  return { a, lu, piv };
}

function expectIdentical(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i]))
      expect.fail(`entry ${i}: ${actual[i]} !== ${expected[i]}`);
  }
}

describe('luSolveUnrolled / luSolveTransposeUnrolled', () => {
  it(`equal luSolveInPlace / luSolveTransposeInPlace bit for bit for n = 1..${LU_UNROLLED_MAX_N}`, () => {
    let pivoted = 0;
    for (let n = 1; n <= LU_UNROLLED_MAX_N; n++) {
      for (let seed = 1; seed <= 40; seed++) {
        const { lu, piv } = factored(n, 1000 * n + seed);
        for (let k = 0; k < n; k++) if (piv[k] !== k) pivoted++;
        const b = vec(n, 7 + seed);
        // a zero and a negative zero in the right-hand side: the sign of zero must survive too
        if (n > 2) {
          b[0] = 0;
          b[n - 1] = -0;
        }
        const x = b.slice();
        const y = b.slice();
        luSolveInPlace(lu, n, piv, x);
        luSolveUnrolled(lu, n, piv, y);
        expectIdentical(y, x);
        const xt = b.slice();
        const yt = b.slice();
        luSolveTransposeInPlace(lu, n, piv, xt);
        luSolveTransposeUnrolled(lu, n, piv, yt);
        expectIdentical(yt, xt);
      }
    }
    // the cases exercise the row interchanges
    expect(pivoted).toBeGreaterThan(100);
  });
});

describe('luFactorUnrolled', () => {
  it(`equals luFactorInPlace bit for bit for n = 1..${LU_UNROLLED_MAX_N}, singular and NaN input included`, () => {
    let singular = 0;
    for (let n = 1; n <= LU_UNROLLED_MAX_N; n++) {
      for (let seed = 1; seed <= 40; seed++) {
        const a = vec(n * n, 3000 * n + seed);
        const kind = seed % 5;
        // 1: a zero column; 2: row n−1 a copy of row 0 (exactly dependent); 3: a NaN entry;
        // 4: integer entries (exact cancellations, zero multipliers)
        if (kind === 1) for (let i = 0; i < n; i++) a[i * n + (seed % n)] = 0;
        if (kind === 2 && n > 1) for (let j = 0; j < n; j++) a[(n - 1) * n + j] = a[j]!;
        if (kind === 3) a[(seed * 7) % (n * n)] = Number.NaN;
        if (kind === 4) for (let i = 0; i < n * n; i++) a[i] = Math.round(3 * a[i]!);
        const x = a.slice();
        const y = a.slice();
        const px = new Int32Array(n);
        const py = new Int32Array(n);
        const rx = luFactorInPlace(x, n, px);
        const ry = luFactorUnrolled(y, n, py);
        expect(ry).toBe(rx);
        if (rx >= 0) singular++;
        expectIdentical(y, x);
        expectIdentical(py, px);
      }
    }
    // the zero-pivot branch is exercised
    expect(singular).toBeGreaterThan(20);
  });
});

describe('DenseLU (offset-free kernels, written-out solves for small n)', () => {
  it('factors, solves and solves transposed exactly as the exported loop kernels, n = 1..10', () => {
    for (let n = 1; n <= LU_UNROLLED_MAX_N + 2; n++) {
      const dense = new DenseLU(n);
      for (let seed = 1; seed <= 10; seed++) {
        const { a, lu, piv } = factored(n, 5000 * n + seed);
        dense.factor(a);
        expectIdentical(dense.lu, lu);
        expectIdentical(dense.piv, piv);
        const b = vec(n, 99 + seed);
        const x = b.slice();
        luSolveInPlace(lu, n, piv, x);
        expectIdentical(dense.solve(b), x);
        const xt = b.slice();
        luSolveTransposeInPlace(lu, n, piv, xt);
        expectIdentical(dense.solveTranspose(b), xt);
      }
    }
  });

  it('copies from an offset and from a plain array like from a Float64Array', () => {
    const n = 5;
    const { a } = factored(n, 77);
    const padded = new Float64Array(3 + n * n);
    padded.set(a, 3);
    const fromTyped = new DenseLU(n).factor(a);
    const fromOffset = new DenseLU(n).factor(padded, 3);
    const fromArray = new DenseLU(n).factor(Array.from(a));
    expectIdentical(fromOffset.lu, fromTyped.lu);
    expectIdentical(fromArray.lu, fromTyped.lu);
    expect(fromOffset.conditionEstimate()).toBe(fromTyped.conditionEstimate());
    expect(fromArray.conditionEstimate()).toBe(fromTyped.conditionEstimate());
  });
});
