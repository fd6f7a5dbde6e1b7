import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DimensionError,
  DomainError,
  NonFiniteError,
  SingularMatrixError,
} from '../../src/errors.js';
import {
  BandLU,
  BandMatrix,
  BlockBandMatrix,
  bandLuFactorInPlace,
  bandLuRowWidth,
  bandLuSolveInPlace,
  solveBlockTridiagonal,
} from '../../src/linalg/banded.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { matVec, normInf } from '../../src/linalg/matrix.js';
import { normInfMatrix } from '../support/norms.js';
import { rng, uniformArray } from '../support/random.js';

const EPS = 2 ** -52;

type Mode = 'random' | 'dominant' | 'zeroDiagonal';

interface Case {
  b: number;
  count: number;
  bl: number;
  bu: number;
  trunc: number;
  mode: Mode;
  seed: number;
}

/** Random block-banded matrix: entries uniform in [-1, 1] in every block of the block band. */
function makeBlockBand(c: Case): BlockBandMatrix {
  const size = c.count * c.b - (c.count > 1 ? c.trunc : 0);
  const m = new BlockBandMatrix(c.b, c.count, c.bl, c.bu, size);
  const r = rng(c.seed);
  for (let I = 0; I < c.count; I++) {
    for (let J = Math.max(0, I - c.bl); J <= Math.min(c.count - 1, I + c.bu); J++) {
      const bi = m.blockDim(I);
      const bj = m.blockDim(J);
      const blk = new Float64Array(bi * bj);
      if (!(I === J && c.mode === 'zeroDiagonal'))
        for (let t = 0; t < blk.length; t++) blk[t] = 2 * r() - 1;
      if (I === J && c.mode === 'dominant') {
        // strict row diagonal dominance: off-diagonal row sums are < (bl+bu+1)·b
        for (let t = 0; t < bi; t++) blk[t * bj + t]! += (c.bl + c.bu + 1) * c.b;
      }
      m.setBlock(I, J, blk);
    }
  }
  return m;
}

function residualInf(a: Float64Array, n: number, x: Float64Array, b: Float64Array): number {
  const ax = matVec(new Float64Array(n), a, n, n, x);
  let r = 0;
  for (let i = 0; i < n; i++) r = Math.max(r, Math.abs(ax[i]! - b[i]!));
  return r;
}

function relDiff(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let d = 0;
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    d = Math.max(d, Math.abs(x[i]! - y[i]!));
    s = Math.max(s, Math.abs(y[i]!));
  }
  return d / s;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    b: fc.constantFrom(1, 2, 3, 8),
    count: fc.integer({ min: 1, max: 30 }),
    bl: fc.integer({ min: 1, max: 3 }),
    bu: fc.integer({ min: 1, max: 3 }),
    trunc: fc.integer({ min: 0, max: 7 }),
    mode: fc.constantFrom<Mode>('random', 'dominant', 'zeroDiagonal'),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  .map((c) => ({ ...c, trunc: c.trunc % c.b }));

describe('BandMatrix', () => {
  it('stores, reads and adds entries inside the band; reads 0 outside', () => {
    const a = new BandMatrix(5, 1, 2);
    expect(a.rowWidth).toBe(4);
    a.set(2, 1, 3).set(2, 4, -7).add(2, 4, 0.5).add(0, 0, 2);
    expect(a.get(2, 1)).toBe(3);
    expect(a.get(2, 4)).toBe(-6.5);
    expect(a.get(0, 0)).toBe(2);
    expect(a.get(4, 0)).toBe(0);
    expect(a.rowBand[2 * 4 + (4 - 2) + 1]).toBe(-6.5);
    a.set(4, 0, 0); // zero outside the band is a no-op
    expect(() => a.set(4, 0, 1)).toThrow(DomainError);
    expect(() => a.add(0, 3, 1)).toThrow(DomainError);
    expect(() => a.get(5, 0)).toThrow(DimensionError);
    expect(() => a.set(0, -1, 1)).toThrow(DimensionError);
    // The index message names the method and the argument (built only when the check fails).
    expect(() => a.set(0, -1, 1)).toThrow(/BandMatrix\.set: column/);
    expect(() => a.add(7, 0, 1)).toThrow(/BandMatrix\.add: row/);
    a.clear();
    expect(a.get(2, 4)).toBe(0);
  });

  it('round-trips through dense storage exactly and rejects nonzeros outside the band', () => {
    const n = 7;
    const kl = 2;
    const ku = 1;
    const d = new Float64Array(n * n);
    const r = rng(7);
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - kl); j <= Math.min(n - 1, i + ku); j++) d[i * n + j] = r() - 0.5;
    const a = BandMatrix.fromDense(d, n, kl, ku);
    expect(Array.from(a.toDense())).toEqual(Array.from(d));
    d[0 * n + 3] = 1e-300;
    expect(() => BandMatrix.fromDense(d, n, kl, ku)).toThrow(DomainError);
  });

  it('matVec, norm1 and normInf agree with dense (1e-15 relative)', () => {
    const a = makeBlockBand({ b: 3, count: 9, bl: 2, bu: 1, trunc: 1, mode: 'random', seed: 11 });
    const n = a.n;
    const d = a.toDense();
    const x = uniformArray(n, 3);
    const y = a.matVec(new Float64Array(n), x);
    const yd = matVec(new Float64Array(n), d, n, n, x);
    expect(relDiff(y, yd)).toBeLessThanOrEqual(1e-15);
    let n1 = 0;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Math.abs(d[i * n + j]!);
      n1 = Math.max(n1, s);
    }
    expect(Math.abs(a.norm1() - n1)).toBeLessThanOrEqual(1e-15 * n1);
    expect(Math.abs(a.normInf() - normInfMatrix(d, n))).toBeLessThanOrEqual(1e-15 * n1);
  });
});

describe('BlockBandMatrix', () => {
  it('maps block bandwidths onto the scalar band: kl = (bl+1)b − 1, ku = (bu+1)b − 1', () => {
    const t = BlockBandMatrix.blockTridiagonal(8, 10);
    expect([t.n, t.kl, t.ku]).toEqual([80, 15, 15]);
    const g = new BlockBandMatrix(8, 10, 2, 3);
    expect([g.kl, g.ku]).toEqual([23, 31]);
    const small = new BlockBandMatrix(3, 2, 3, 3); // bandwidths capped at n − 1 = 5
    expect([small.kl, small.ku]).toEqual([5, 5]);
  });

  it('supports a total size that is not a multiple of b (8n − 2 unknowns)', () => {
    const m = BlockBandMatrix.blockTridiagonal(8, 5, 38);
    expect(m.n).toBe(38);
    expect(m.blockDim(3)).toBe(8);
    expect(m.blockDim(4)).toBe(6);
    const blk = Float64Array.from({ length: 6 * 8 }, (_, k) => k + 1);
    m.setBlock(4, 3, blk);
    expect(m.get(32, 24)).toBe(1);
    expect(m.get(37, 31)).toBe(48);
    const back = m.getBlock(new Float64Array(48), 4, 3);
    expect(Array.from(back)).toEqual(Array.from(blk));
    m.addBlock(4, 3, blk, 0, -2);
    expect(m.get(37, 31)).toBe(-48);
    expect(() => m.setBlock(4, 4, new Float64Array(35))).toThrow(DimensionError); // needs 36
    expect(() => m.setBlock(0, 2, new Float64Array(64))).toThrow(DimensionError); // outside block band
    expect(() => new BlockBandMatrix(8, 5, 1, 1, 32)).toThrow(DimensionError); // 32 = 4 blocks
    expect(() => new BlockBandMatrix(8, 5, 1, 1, 41)).toThrow(DimensionError);
  });
});

describe('band LU kernels', () => {
  it('factor the documented 3×3 example with one interchange', () => {
    // [[0,1,0],[1,0,1],[0,1,1]], kl = ku = 1, w = 4
    const ab = Float64Array.of(0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0);
    const piv = new Int32Array(3);
    const rowEnd = new Int32Array(3);
    expect(bandLuRowWidth(1, 1)).toBe(4);
    expect(bandLuFactorInPlace(ab, 3, 1, 1, piv, rowEnd)).toBe(-1);
    expect(piv[0]).toBe(1);
    const x = Float64Array.of(1, 2, 2); // A·(1, 1, 1) = (1, 2, 2)
    bandLuSolveInPlace(ab, 3, 1, 1, piv, rowEnd, x);
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - 1)).toBeLessThanOrEqual(4 * EPS);
  });

  it('solves the documented tridiagonal example exactly: tridiag(−1, 2, −1)·1 = (1, 0, 0, 1)', () => {
    const a = new BandMatrix(4, 1, 1);
    for (let i = 0; i < 4; i++) {
      a.set(i, i, 2);
      if (i > 0) a.set(i, i - 1, -1);
      if (i < 3) a.set(i, i + 1, -1);
    }
    const x = new BandLU().factor(a).solve(Float64Array.of(1, 0, 0, 1));
    for (let i = 0; i < 4; i++) expect(Math.abs(x[i]! - 1)).toBeLessThanOrEqual(8 * EPS);
  });
});

describe('BandLU against the dense oracle (DenseLU on toDense())', () => {
  // Tolerances.
  // Residual: GEPP is backward stable, (A + ΔA) x̂ = b with |ΔA| ≤ γ_{3m}|L||U| (Higham, Thm 9.4),
  // where m ≤ w = 2kl+ku+1 is the longest inner product in the band factors. With a modest
  // growth factor that gives ‖b − A x̂‖∞ ≲ c·w·u·‖A‖∞‖x̂‖∞; we allow c = 4 (observed ≤ 0.22 over
  // 1200 such cases). w ≤ 2·31 + 31 + 1 = 94 here, so the bound is ≤ 8.4e-14·‖A‖‖x‖.
  // Agreement with DenseLU: both are GEPP with the same pivot rule on the same numbers, so the
  // forward errors of both are ≲ κ·c·w·u; for κ₁ ≤ 1e3 that is ≤ 1e3·4·94·2.2e-16 ≈ 8e-11 ≤ 1e-10.
  // (In fact the band code performs the same floating-point operations as DenseLU minus exact
  // ±0 updates, and the two solutions were observed bitwise equal; the bound does not rely on it.)
  // About 4% of the cases are exactly singular (zero diagonal blocks, odd block count, block
  // bandwidths 1): both must say so.
  it('residual ≤ 4·w·u·‖A‖∞‖x‖∞, agreement ≤ 1e-10 when κ₁ ≤ 1e3, same singularity verdict', () => {
    let compared = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const m = makeBlockBand(c);
        const n = m.n;
        const d = m.toDense();
        const rhs = uniformArray(n, c.seed ^ 0x5bd1e995);
        const dense = new DenseLU(n).factor(d);
        const lu = new BandLU().factor(m);
        expect(lu.isSingular).toBe(dense.isSingular);
        if (dense.isSingular) {
          expect(() => lu.solve(rhs)).toThrow(SingularMatrixError);
          return;
        }
        const x = lu.solve(rhs);
        const w = 2 * m.kl + m.ku + 1;
        const res = residualInf(d, n, x, rhs);
        expect(res).toBeLessThanOrEqual(4 * w * EPS * normInfMatrix(d, n) * normInf(x));
        if (dense.conditionEstimate() <= 1e3) {
          compared++;
          expect(relDiff(x, dense.solve(rhs))).toBeLessThanOrEqual(1e-10);
        }
      }),
      { numRuns: 300, seed: 20240611 },
    );
    expect(compared).toBeGreaterThan(100); // the agreement check is not vacuous
  });

  it('pivots across block rows when every diagonal block is zero (b = 8, 12 block rows)', () => {
    const m = makeBlockBand({
      b: 8,
      count: 12,
      bl: 1,
      bu: 1,
      trunc: 0,
      mode: 'zeroDiagonal',
      seed: 5,
    });
    const lu = new BandLU().factor(m);
    expect(lu.isSingular).toBe(false);
    let swaps = 0;
    for (let k = 0; k < m.n; k++) if (lu.piv[k] !== k) swaps++;
    expect(swaps).toBeGreaterThanOrEqual(8); // the first 8 pivots cannot be on the diagonal
    const d = m.toDense();
    const rhs = uniformArray(m.n, 9);
    const x = lu.solve(rhs);
    expect(relDiff(x, new DenseLU(m.n).factor(d).solve(rhs))).toBeLessThanOrEqual(1e-10);
    expect(residualInf(d, m.n, x, rhs)).toBeLessThanOrEqual(
      4 * 64 * EPS * normInfMatrix(d, m.n) * normInf(x),
    );
  });

  it('solveTranspose agrees with DenseLU.solveTranspose (1e-10 relative)', () => {
    const m = makeBlockBand({
      b: 3,
      count: 20,
      bl: 2,
      bu: 1,
      trunc: 2,
      mode: 'dominant',
      seed: 21,
    });
    const rhs = uniformArray(m.n, 4);
    const x = new BandLU().factor(m).solveTranspose(rhs);
    const xd = new DenseLU(m.n).factor(m.toDense()).solveTranspose(rhs);
    expect(relDiff(x, xd)).toBeLessThanOrEqual(1e-10);
  });

  it('solveBlockTridiagonal agrees with the dense oracle (1e-10 relative) and the doc example', () => {
    const b = 8;
    const count = 20;
    const r = rng(31);
    const bb = b * b;
    const diag = Float64Array.from({ length: count * bb }, () => 2 * r() - 1);
    const lower = Float64Array.from({ length: (count - 1) * bb }, () => 2 * r() - 1);
    const upper = Float64Array.from({ length: (count - 1) * bb }, () => 2 * r() - 1);
    const rhs = uniformArray(count * b, 32);
    const x = solveBlockTridiagonal(b, lower, diag, upper, rhs);
    const n = count * b;
    const d = new Float64Array(n * n);
    for (let I = 0; I < count; I++) {
      for (let s = 0; s < b; s++) {
        for (let t = 0; t < b; t++) {
          d[(I * b + s) * n + I * b + t] = diag[I * bb + s * b + t]!;
          if (I > 0) d[(I * b + s) * n + (I - 1) * b + t] = lower[(I - 1) * bb + s * b + t]!;
          if (I < count - 1) d[(I * b + s) * n + (I + 1) * b + t] = upper[I * bb + s * b + t]!;
        }
      }
    }
    const dense = new DenseLU(n).factor(d);
    expect(dense.conditionEstimate()).toBeLessThan(1e6);
    expect(relDiff(x, dense.solve(rhs))).toBeLessThanOrEqual(1e-10);
    const y = solveBlockTridiagonal(
      1,
      Float64Array.of(1),
      Float64Array.of(2, 3),
      Float64Array.of(1),
      Float64Array.of(3, 4),
    );
    expect(Math.abs(y[0]! - 1) + Math.abs(y[1]! - 1)).toBeLessThanOrEqual(4 * EPS);
    expect(() =>
      solveBlockTridiagonal(
        2,
        new Float64Array(3),
        new Float64Array(8),
        new Float64Array(4),
        new Float64Array(4),
      ),
    ).toThrow(DimensionError);
  });

  it('solves a long trajectory system (8×8 blocks, 2000 block rows, N = 8n − 2) to residual 4·w·u·‖A‖‖x‖', () => {
    const count = 2000;
    const m = BlockBandMatrix.blockTridiagonal(8, count, 8 * count - 2);
    const r = rng(77);
    for (let I = 0; I < count; I++) {
      for (let J = Math.max(0, I - 1); J <= Math.min(count - 1, I + 1); J++) {
        const blk = new Float64Array(m.blockDim(I) * m.blockDim(J));
        for (let t = 0; t < blk.length; t++) blk[t] = 2 * r() - 1;
        m.setBlock(I, J, blk);
      }
    }
    const rhs = uniformArray(m.n, 78);
    const lu = new BandLU().factor(m);
    const x = lu.solve(rhs);
    const ax = m.matVec(new Float64Array(m.n), x);
    let res = 0;
    for (let i = 0; i < m.n; i++) res = Math.max(res, Math.abs(ax[i]! - rhs[i]!));
    const w = 2 * m.kl + m.ku + 1;
    expect(res).toBeLessThanOrEqual(4 * w * EPS * m.normInf() * normInf(x));
  });
});

describe('BandLU singularity', () => {
  it('detects an exactly zero column at its index; solve throws SingularMatrixError', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), (c, jSeed) => {
        const m = makeBlockBand({ ...c, mode: 'dominant' });
        const j = jSeed % m.n;
        for (let i = Math.max(0, j - m.ku); i <= Math.min(m.n - 1, j + m.kl); i++) m.set(i, j, 0);
        const lu = new BandLU().factor(m);
        expect(lu.isSingular).toBe(true);
        expect(lu.singularColumn).toBe(j);
        expect(lu.determinant()).toBe(0);
        expect(lu.logDeterminant()).toEqual({ sign: 0, logAbs: Number.NEGATIVE_INFINITY });
        expect(lu.conditionEstimate()).toBe(Number.POSITIVE_INFINITY);
        try {
          lu.solve(new Float64Array(m.n));
          expect.unreachable();
        } catch (e) {
          expect(e).toBeInstanceOf(SingularMatrixError);
          expect((e as SingularMatrixError).column).toBe(j);
        }
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  it('detects two equal rows and a rank-deficient diagonal block', () => {
    // tridiagonal with rows 3 and 4 equal on columns 3..4 and zero elsewhere
    const a = new BandMatrix(6, 1, 1);
    for (let i = 0; i < 6; i++) {
      a.set(i, i, 3);
      if (i > 0) a.set(i, i - 1, 1);
      if (i < 5) a.set(i, i + 1, 1);
    }
    a.set(3, 2, 0).set(3, 3, 2).set(3, 4, 5).set(4, 3, 2).set(4, 4, 5).set(4, 5, 0);
    expect(new DenseLU(6).factor(a.toDense()).isSingular).toBe(true);
    expect(new BandLU().factor(a).isSingular).toBe(true);
    // block-diagonal (block bandwidths 0): block 2 has rank 1
    const m = new BlockBandMatrix(2, 4, 0, 0);
    for (let I = 0; I < 4; I++)
      m.setBlock(I, I, I === 2 ? Float64Array.of(2, 1, 4, 2) : Float64Array.of(2, 1, 1, 2));
    const lu = new BandLU().factor(m);
    expect(lu.isSingular).toBe(true);
    expect(lu.singularColumn).toBe(5);
  });
});

describe('BandLU determinant and condition estimate', () => {
  it('determinant matches DenseLU (1e-12 relative) and logDeterminant matches log|det| (1e-12 absolute)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const m = makeBlockBand({ ...c, count: Math.min(c.count, 8) }); // N ≤ 64: no overflow
        const dense = new DenseLU(m.n).factor(m.toDense());
        const lu = new BandLU().factor(m);
        if (dense.isSingular) return;
        const dd = dense.determinant();
        expect(Math.abs(lu.determinant() - dd)).toBeLessThanOrEqual(1e-12 * Math.abs(dd));
        const { sign, logAbs } = lu.logDeterminant();
        expect(sign).toBe(Math.sign(dd));
        expect(Math.abs(logAbs - Math.log(Math.abs(dd)))).toBeLessThanOrEqual(1e-12);
      }),
      { numRuns: 200, seed: 99 },
    );
  });

  it('log|det| of tridiag(−1, 4, −1) of order 5000 without overflow (1e-13 relative)', () => {
    const n = 5000;
    const a = new BandMatrix(n, 1, 1);
    for (let i = 0; i < n; i++) {
      a.set(i, i, 4);
      if (i > 0) a.set(i, i - 1, -1);
      if (i < n - 1) a.set(i, i + 1, -1);
    }
    const lu = new BandLU().factor(a);
    expect(lu.determinant()).toBe(Number.POSITIVE_INFINITY);
    // D_n = (r₁^{n+1} − r₂^{n+1}) / (r₁ − r₂), r = 2 ± √3; r₂^{n+1} underflows to 0
    const r1 = 2 + Math.sqrt(3);
    const exact = (n + 1) * Math.log(r1) - Math.log(2 * Math.sqrt(3));
    const { sign, logAbs } = lu.logDeterminant();
    expect(sign).toBe(1);
    expect(Math.abs(logAbs - exact)).toBeLessThanOrEqual(1e-13 * exact);
  });

  it('sign of the determinant counts interchanges: block anti-identity of order 2b has det (−1)^b', () => {
    for (const b of [1, 2, 3]) {
      const m = new BlockBandMatrix(b, 2, 1, 1);
      const id = new Float64Array(b * b);
      for (let t = 0; t < b; t++) id[t * b + t] = 1;
      m.setBlock(0, 1, id).setBlock(1, 0, id);
      const lu = new BandLU().factor(m);
      expect(lu.determinant()).toBe((-1) ** b);
      expect(lu.logDeterminant()).toEqual({ sign: (-1) ** b, logAbs: 0 });
    }
  });

  it('condition estimate is exact for tridiag(−1, 2, −1), κ₁ = (n+1)²/2 for odd n (1e-10 relative)', () => {
    const n = 999;
    const a = new BandMatrix(n, 1, 1);
    for (let i = 0; i < n; i++) {
      a.set(i, i, 2);
      if (i > 0) a.set(i, i - 1, -1);
      if (i < n - 1) a.set(i, i + 1, -1);
    }
    const est = new BandLU().factor(a).conditionEstimate();
    expect(Math.abs(est - (n + 1) ** 2 / 2)).toBeLessThanOrEqual(1e-10 * (n + 1) ** 2);
  });

  it('condition estimate equals DenseLU’s (1e-12 relative) and never exceeds the exact κ₁ (1e-10)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const m = makeBlockBand({ b: 3, count: 12, bl: 1, bu: 2, trunc: 1, mode: 'random', seed });
      const n = m.n;
      const d = m.toDense();
      const dense = new DenseLU(n).factor(d);
      const est = new BandLU().factor(m).conditionEstimate();
      expect(Math.abs(est - dense.conditionEstimate())).toBeLessThanOrEqual(1e-12 * est);
      // exact κ₁ from the explicit inverse, column by column
      let invNorm1 = 0;
      const e = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        e.fill(0);
        e[j] = 1;
        const col = dense.solve(e);
        let s = 0;
        for (let i = 0; i < n; i++) s += Math.abs(col[i]!);
        invNorm1 = Math.max(invNorm1, s);
      }
      const kappa = invNorm1 * m.norm1();
      expect(est).toBeLessThanOrEqual(kappa * (1 + 1e-10));
      expect(est).toBeGreaterThanOrEqual(kappa / 10);
    }
  });
});

describe('BandLU workspace reuse and errors', () => {
  it('refactors the same shape in the same buffers and writes into the given out', () => {
    const c: Case = { b: 8, count: 10, bl: 1, bu: 1, trunc: 0, mode: 'random', seed: 1 };
    const m1 = makeBlockBand(c);
    const m2 = makeBlockBand({ ...c, mode: 'zeroDiagonal', seed: 2 });
    const lu = new BandLU(m1.n, m1.kl, m1.ku);
    const ab = lu.factors;
    const piv = lu.piv;
    const out = new Float64Array(m1.n);
    const rhs = uniformArray(m1.n, 3);
    for (const m of [m1, m2, m1]) {
      lu.factor(m);
      expect(lu.factors).toBe(ab);
      expect(lu.piv).toBe(piv);
      expect(lu.solve(rhs, out)).toBe(out);
      const xd = new DenseLU(m.n).factor(m.toDense()).solve(rhs);
      expect(relDiff(out, xd)).toBeLessThanOrEqual(1e-10);
    }
    // a smaller shape reuses the buffers too; solving in place (out = rhs) works
    const small = makeBlockBand({ ...c, b: 3, count: 5 });
    lu.factor(small);
    expect(lu.factors).toBe(ab);
    const r2 = uniformArray(small.n, 4);
    const expected = new DenseLU(small.n).factor(small.toDense()).solve(r2);
    expect(lu.solve(r2, r2)).toBe(r2);
    expect(relDiff(r2, expected)).toBeLessThanOrEqual(1e-10);
  });

  it('throws typed errors: NonFinite input, right-hand side and overflow; Dimension misuse', () => {
    const a = new BandMatrix(3, 1, 1).set(0, 0, 1).set(1, 1, 1).set(2, 2, 1e-300);
    const lu = new BandLU();
    expect(() => lu.solve(new Float64Array(3))).toThrow(DimensionError); // not factored
    lu.factor(a);
    expect(() => lu.solve(new Float64Array(2))).toThrow(DimensionError);
    expect(() => lu.solve(new Float64Array(3), new Float64Array(2))).toThrow(DimensionError);
    expect(() => lu.solve(Float64Array.of(0, Number.NaN, 0))).toThrow(NonFiniteError);
    expect(() => lu.solve(Float64Array.of(0, 0, 1e300))).toThrow(NonFiniteError); // x₂ = 1e600
    a.set(1, 2, Number.POSITIVE_INFINITY);
    expect(() => lu.factor(a)).toThrow(NonFiniteError);
    expect(() => new BandMatrix(0, 1, 1)).toThrow(DimensionError);
    expect(() => new BandMatrix(3, -1, 1)).toThrow(DimensionError);
  });
});
