import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearDiracStructure, splitForm, symmetricPairing } from '../src/index.js';

const n = 3;
const entries = (len: number) =>
  fc.float64Array({
    minLength: len,
    maxLength: len,
    noNaN: true,
    noDefaultInfinity: true,
    min: -10,
    max: 10,
  });

describe('symmetric pairing (spec 002 §3.1, no factor ½)', () => {
  it('equals xᵀ S y with S = [[0, I], [I, 0]] and is symmetric (1e-12)', () => {
    const S = splitForm(n);
    fc.assert(
      fc.property(entries(2 * n), entries(2 * n), (x, y) => {
        let xSy = 0;
        for (let i = 0; i < 2 * n; i++)
          for (let j = 0; j < 2 * n; j++) xSy += x[i]! * S[i * 2 * n + j]! * y[j]!;
        expect(Math.abs(symmetricPairing(x, y) - xSy)).toBeLessThan(1e-12 * (1 + Math.abs(xSy)));
        expect(symmetricPairing(x, y)).toBe(symmetricPairing(y, x));
      }),
      { numRuns: 200 },
    );
  });

  it('pairs (v, α) with itself to 2⟨α, v⟩', () => {
    expect(symmetricPairing([1, 2, 3, 4], [1, 2, 3, 4])).toBe(2 * (3 * 1 + 4 * 2));
  });
});

describe('graph of a two-form (spec 002 §5.3)', () => {
  it('is a Dirac structure iff W is skew; its elements satisfy Tellegen (2.1) to 1e-12', () => {
    fc.assert(
      fc.property(entries(n * n), entries(n), (A, v) => {
        const W = new Float64Array(n * n);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) W[i * n + j] = A[i * n + j]! - A[j * n + i]!;
        const D = LinearDiracStructure.graphTwoForm(W, n);
        expect(D.isDirac()).toBe(true);
        // x = (v, Wᵀv) lies in D and has ⟨α, v⟩ = vᵀWv = 0
        const x = new Float64Array(2 * n);
        for (let i = 0; i < n; i++) {
          x[i] = v[i]!;
          for (let j = 0; j < n; j++) x[n + i] = x[n + i]! + W[j * n + i]! * v[j]!;
        }
        expect(D.contains(x)).toBe(true);
        expect(Math.abs(LinearDiracStructure.tellegenResidual(x))).toBeLessThan(1e-10);
      }),
      { numRuns: 100 },
    );
  });

  it('is maximal but not isotropic for a symmetric W (isotropy defect = 2|W_ij|)', () => {
    const D = LinearDiracStructure.graphTwoForm(Float64Array.of(1, 0.5, 0.5, 2), 2);
    expect(D.isMaximal()).toBe(true);
    expect(D.isIsotropic()).toBe(false);
    expect(D.isotropyDefect()).toBe(4); // ⟨⟨(e2, We2), (e2, We2)⟩⟩ = 2·W22
    expect(D.isDirac()).toBe(false);
  });

  it('rejects a vector off the graph', () => {
    const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
    expect(D.contains([1, 0, 0, 1])).toBe(true); // α = Wᵀe1 = (0, 1)
    expect(D.contains([1, 0, 0, 1.001])).toBe(false);
  });
});
