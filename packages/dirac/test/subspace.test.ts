import { DimensionError, DomainError } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairing, Subspace } from '../src/subspace.js';
import type { Distribution } from '../src/types.js';
import { constraints, entries, norm, wellConditioned } from './linearArbitraries.js';

/** max |QᵀQ − I| of an n×d basis. */
function orthonormalityDefect(S: Subspace): number {
  let worst = 0;
  for (let a = 0; a < S.dim; a++)
    for (let b = 0; b < S.dim; b++)
      worst = Math.max(worst, Math.abs(pairing(S.column(a), S.column(b)) - (a === b ? 1 : 0)));
  return worst;
}

describe('pairing ⟨α, v⟩ (seed 002 §2)', () => {
  it('is Σ αᵢvⁱ and rejects mismatched lengths', () => {
    expect(pairing([1, -1, 2], [3, 4, 0.5])).toBe(0);
    expect(pairing([2], [3])).toBe(6);
    expect(() => pairing([1, 2], [1, 2, 3])).toThrow(DimensionError);
  });
});

describe('kernel form Δ = ker A and annihilators (Prop 2.1, spec 002 §3.2, §6 item 2)', () => {
  it('dim Δ = n − m, A g = 0 (1e-12·‖A‖_F), orthonormal basis (1e-12)', () => {
    fc.assert(
      fc.property(constraints(), ({ n, m, A }) => {
        fc.pre(wellConditioned(A, m, n));
        const Delta = Subspace.kernel(A, m, n);
        expect(Delta.dim).toBe(n - m);
        expect(Delta.ambientDim).toBe(n);
        expect(orthonormalityDefect(Delta)).toBeLessThan(1e-12);
        const scale = Math.max(1, norm(A));
        for (let j = 0; j < Delta.dim; j++) {
          const g = Delta.column(j);
          for (let a = 0; a < m; a++)
            expect(Math.abs(pairing(A.subarray(a * n, (a + 1) * n), g))).toBeLessThan(
              1e-12 * scale,
            );
        }
      }),
      { numRuns: 200 },
    );
  });

  it('dim Δ + dim Δ° = n, (Δ°)° = Δ, Δ° = rowspace(A), ⟨Δ°, Δ⟩ = 0 (gap 1e-10, pairing 1e-12)', () => {
    fc.assert(
      fc.property(constraints(), ({ n, m, A }) => {
        fc.pre(wellConditioned(A, m, n));
        const Delta = Subspace.kernel(A, m, n);
        const ann = Delta.annihilator();
        expect(Delta.dim + ann.dim).toBe(n);
        expect(ann.dim).toBe(m);
        expect(ann.annihilator().gap(Delta)).toBeLessThan(1e-10);
        expect(ann.annihilator().equals(Delta)).toBe(true);
        const rows = Subspace.rowSpace(A, m, n);
        expect(rows.dim).toBe(m);
        expect(ann.gap(rows)).toBeLessThan(1e-10);
        for (let a = 0; a < ann.dim; a++)
          for (let j = 0; j < Delta.dim; j++)
            expect(Math.abs(pairing(ann.column(a), Delta.column(j)))).toBeLessThan(1e-12);
        // the image form span G of the kernel basis is the same space, and its kernel form too
        expect(Subspace.span(Delta.basis, n, Delta.dim).gap(Delta)).toBeLessThan(1e-10);
        expect(Subspace.kernel(Delta.constraintRows(), m, n).gap(Delta)).toBeLessThan(1e-10);
      }),
      { numRuns: 200 },
    );
  });

  it('contains: Δ ∋ G c (positive) and rejects G c + 1e-6‖x‖·ν, ν ∈ Δ° unit (residual = 1e-6‖x‖ to 1e-12)', () => {
    fc.assert(
      fc.property(constraints(), entries(6), fc.nat(), ({ n, m, A }, c, pick) => {
        fc.pre(m >= 1 && wellConditioned(A, m, n));
        const Delta = Subspace.kernel(A, m, n);
        const x = new Float64Array(n);
        for (let j = 0; j < Delta.dim; j++) {
          const g = Delta.column(j);
          for (let i = 0; i < n; i++) x[i] = x[i]! + c[j]! * g[i]!;
        }
        fc.pre(norm(x) > 1e-3);
        expect(Delta.contains(x)).toBe(true);
        // the multiplier form: A x = 0 holds too
        for (let a = 0; a < m; a++)
          expect(Math.abs(pairing(A.subarray(a * n, (a + 1) * n), x))).toBeLessThan(
            1e-12 * norm(x) * Math.max(1, norm(A)),
          );
        const nu = Delta.annihilator().column(pick % m);
        const delta = 1e-6 * norm(x);
        const y = x.map((xi, i) => xi + delta * nu[i]!);
        expect(Math.abs(Delta.residual(y) - delta)).toBeLessThan(1e-12 * norm(x));
        expect(Delta.contains(y)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('survives subnormal entries next to O(1) ones (JAMA SVD returns non-orthonormal V there)', () => {
    // a fast-check counterexample: before flushing, Δ° came out with norm 1.125 instead of 1
    const A = Float64Array.of(-5e-324, 0.5773502691896256, 0, -0.14907119849998596, 0, 0);
    const Delta = Subspace.kernel(A, 1, 6);
    const ann = Delta.annihilator();
    expect(ann.dim).toBe(1);
    expect(orthonormalityDefect(ann)).toBeLessThan(1e-12);
    expect(ann.gap(Subspace.rowSpace(A, 1, 6))).toBeLessThan(1e-12);
    expect(ann.annihilator().gap(Delta)).toBeLessThan(1e-12);
    // a covector with only a subnormal entry is still a nonzero constraint
    expect(Subspace.kernel(Float64Array.of(0, 0, 5e-324), 1, 3).contains([1, 1, 0])).toBe(true);
    expect(Subspace.kernel(Float64Array.of(0, 0, 5e-324), 1, 3).contains([0, 0, 1])).toBe(false);
  });

  it('the rolling disk Δ (spec 002 §4.1) at φ = 0.3, R = 0.5 has the paper’s basis G', () => {
    const R = 0.5;
    const phi = 0.3;
    const A = Float64Array.of(1, 0, -R * Math.cos(phi), 0, 0, 1, -R * Math.sin(phi), 0);
    const Delta = Subspace.kernel(A, 2, 4);
    expect(Delta.dim).toBe(2);
    const G = Float64Array.of(0, R * Math.cos(phi), 0, R * Math.sin(phi), 0, 1, 1, 0);
    expect(Subspace.span(G, 4, 2).gap(Delta)).toBeLessThan(1e-12);
    expect(Delta.contains([R * Math.cos(phi), R * Math.sin(phi), 1, 0])).toBe(true);
    expect(Delta.contains([1, 0, 0, 0])).toBe(false);
  });

  it('ofDistribution evaluates A(q) of a Distribution', () => {
    const Delta: Distribution = {
      n: 2,
      m: 1,
      A: (out, q) => {
        out[0] = -q[0]!;
        out[1] = 1;
        return out;
      },
      Adot: (out, _q, v) => {
        out[0] = -v[0]!;
        out[1] = 0;
        return out;
      },
    };
    const D = Subspace.ofDistribution(Delta, Float64Array.of(2, 0));
    expect(D.dim).toBe(1);
    expect(D.residual([1, 2])).toBeLessThan(1e-15);
    expect(() => Subspace.ofDistribution(Delta, [1, 2, 3])).toThrow(DimensionError);
  });
});

describe('sum, intersection and annihilators of random subspaces', () => {
  it('S₁ = span[C X₁], S₂ = span[C X₂]: dims c + k₁ + k₂ and c exactly; (S₁+S₂)° = S₁° ∩ S₂°, (S₁∩S₂)° = S₁° + S₂° (gap 1e-10)', () => {
    const arb = fc
      .integer({ min: 2, max: 7 })
      .chain((n) =>
        fc.record({
          n: fc.constant(n),
          c: fc.integer({ min: 0, max: n }),
          k1: fc.integer({ min: 0, max: n }),
          k2: fc.integer({ min: 0, max: n }),
        }),
      )
      .filter(({ n, c, k1, k2 }) => c + k1 + k2 <= n)
      .chain((d) => entries(d.n * (d.c + d.k1 + d.k2)).map((M) => ({ ...d, M })));
    fc.assert(
      fc.property(arb, ({ n, c, k1, k2, M }) => {
        const t = c + k1 + k2;
        fc.pre(wellConditioned(M, n, t));
        const cols = (from: number[]) => {
          const out = new Float64Array(n * from.length);
          for (let i = 0; i < n; i++)
            from.forEach((src, j) => {
              out[i * from.length + j] = M[i * t + src]!;
            });
          return out;
        };
        const idx = (a: number, len: number) => Array.from({ length: len }, (_, i) => a + i);
        const s1 = [...idx(0, c), ...idx(c, k1)];
        const s2 = [...idx(0, c), ...idx(c + k1, k2)];
        const S1 = Subspace.span(cols(s1), n, s1.length);
        const S2 = Subspace.span(cols(s2), n, s2.length);
        const sum = S1.sum(S2);
        const cap = S1.intersect(S2);
        expect(S1.dim).toBe(c + k1);
        expect(sum.dim).toBe(t);
        expect(cap.dim).toBe(c);
        expect(sum.dim + cap.dim).toBe(S1.dim + S2.dim); // Grassmann
        expect(cap.gap(Subspace.span(cols(idx(0, c)), n, c))).toBeLessThan(1e-10);
        for (let j = 0; j < cap.dim; j++) {
          expect(S1.contains(cap.column(j))).toBe(true);
          expect(S2.contains(cap.column(j))).toBe(true);
        }
        expect(sum.annihilator().gap(S1.annihilator().intersect(S2.annihilator()))).toBeLessThan(
          1e-10,
        );
        expect(cap.annihilator().gap(S1.annihilator().sum(S2.annihilator()))).toBeLessThan(1e-10);
      }),
      { numRuns: 200 },
    );
  });

  it('whole, zero, projector P² = P = Pᵀ (1e-14) and the gap of two lines', () => {
    expect(Subspace.whole(3).annihilator().dim).toBe(0);
    expect(Subspace.zero(3).annihilator().dim).toBe(3);
    expect(Subspace.zero(3).contains([0, 0, 0])).toBe(true);
    expect(Subspace.zero(3).contains([0, 1e-300, 0])).toBe(false);
    const line = Subspace.span([1, 0], 2, 1);
    expect(Math.abs(line.gap(Subspace.span([1, 1], 2, 1)) - Math.SQRT1_2)).toBeLessThan(1e-15);
    expect(line.gap(Subspace.whole(2))).toBe(1);
    const S = Subspace.span(Float64Array.of(1, 2, 0, 1, 3, -1), 3, 2);
    const P = S.projector();
    for (let i = 0; i < 3; i++)
      for (let k = 0; k < 3; k++) {
        let pp = 0;
        for (let j = 0; j < 3; j++) pp += P[i * 3 + j]! * P[j * 3 + k]!;
        expect(Math.abs(pp - P[i * 3 + k]!)).toBeLessThan(1e-14);
        expect(Math.abs(P[i * 3 + k]! - P[k * 3 + i]!)).toBeLessThan(1e-14);
      }
    // dependent spanning columns collapse
    expect(Subspace.span(Float64Array.of(1, 2, 2, 4, 3, 6), 3, 2).dim).toBe(1);
  });
});

describe('typed errors', () => {
  it('DimensionError for bad shapes', () => {
    expect(() => Subspace.kernel(Float64Array.of(1, 2, 3), 2, 2)).toThrow(DimensionError);
    expect(() => Subspace.span(Float64Array.of(1, 2, 3), 2, 2)).toThrow(DimensionError);
    expect(() => Subspace.rowSpace(Float64Array.of(1, 2, 3), 2, 2)).toThrow(DimensionError);
    expect(() => Subspace.whole(2).contains([1, 2, 3])).toThrow(DimensionError);
    expect(() => Subspace.whole(2).gap(Subspace.whole(3))).toThrow(DimensionError);
    expect(() => Subspace.whole(2).sum(Subspace.whole(3))).toThrow(DimensionError);
    expect(() => Subspace.whole(2).intersect(Subspace.whole(3))).toThrow(DimensionError);
    expect(() => Subspace.whole(2).column(2)).toThrow(DimensionError);
    expect(() => Subspace.fromOrthonormal([1, 0], 3, 1)).toThrow(DimensionError);
  });

  it('DomainError naming dependent constraint one-forms (rank r < m)', () => {
    const A = Float64Array.of(1, 2, 3, 2, 4, 6);
    expect(() => Subspace.kernel(A, 2, 3)).toThrow(DomainError);
    expect(() => Subspace.kernel(A, 2, 3)).toThrow(
      'constraint one-forms are linearly dependent (rank 1 < 2)',
    );
    // nearly dependent: a row 1e-12 off a multiple of another
    const B = Float64Array.of(1, 0, 0, 1, 1e-12, 0);
    expect(() => Subspace.kernel(B, 2, 3)).toThrow('rank 1 < 2');
    // a zero row
    expect(() => Subspace.kernel(Float64Array.of(0, 0, 0), 1, 3)).toThrow('rank 0 < 1');
    try {
      Subspace.kernel(A, 2, 3);
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).value).toBe(1);
    }
  });

  it('DomainError for bad tolerances and non-orthonormal bases', () => {
    expect(() => Subspace.whole(2).contains([1, 0], -1)).toThrow(DomainError);
    expect(() => Subspace.span([1, 0], 2, 1, Number.NaN)).toThrow(DomainError);
    expect(() => Subspace.fromOrthonormal([1, 1], 2, 1)).toThrow(DomainError);
    expect(Subspace.fromOrthonormal([0, 1], 2, 1).contains([0, 5])).toBe(true);
  });
});
