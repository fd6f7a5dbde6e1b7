import { DimensionError, DomainError, pseudoInverse } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearDiracStructure, splitForm, symmetricPairing } from '../src/linear.js';
import { pairing, Subspace } from '../src/subspace.js';
import {
  circuitGraph,
  constraints,
  entries,
  norm,
  skewFrom,
  wellConditioned,
} from './linearArbitraries.js';

const n = 3;
/**
 * Entries in [−10, 10] on a 1e-5 grid. (A plain fc.float64Array yields subnormal entries; a
 * product like 5e-324·1.5e-10 underflows to 0, so the "element" (v, Wᵀv) built from them is not
 * within any relative tolerance of D, and the relative membership test rightly rejects it.)
 */
const wide = (len: number) => entries(len).map((a) => a.map((x) => 10 * x));

/** Number of random coefficients drawn per element (≥ 2·maxN of every generator below). */
const COEFFS = 16;

/** ‖B‖_F² of the spanning matrix. */
function frob2(D: LinearDiracStructure): number {
  let s = 0;
  for (const b of D.basis) s += b * b;
  return s;
}

/** max_j ‖b_j‖₂² over the spanning columns. */
function maxColumnNorm2(D: LinearDiracStructure): number {
  let worst = 0;
  for (let j = 0; j < D.k; j++) {
    let s = 0;
    for (let i = 0; i < 2 * D.n; i++) s += D.basis[i * D.k + j]! ** 2;
    worst = Math.max(worst, s);
  }
  return worst;
}

const vPart = (x: Float64Array, N: number) => x.subarray(0, N);
const aPart = (x: Float64Array, N: number) => x.subarray(N, 2 * N);

/**
 * The Dirac axioms of spec 002 §6 item 1 for a structure with n spanning columns: isotropy
 * BᵀSB = 0 (1e-12 relative to max‖b_j‖²), rank B = dim V, D^⊥ = D (gap 1e-10), and on the random
 * elements x = Bc₁, y = Bc₂: ⟨v₁, α₂⟩ + ⟨v₂, α₁⟩ = 0 and ⟨α, v⟩ = 0 (2.1) to 1e-12·‖B‖_F²‖c₁‖‖c₂‖,
 * x ∈ D, and x + 1e-6‖x‖·ẑ ∉ D for a unit ẑ ⊥ D.
 */
function expectDiracAxioms(
  D: LinearDiracStructure,
  c1: Float64Array,
  c2: Float64Array,
  z: Float64Array,
): void {
  const N = D.n;
  expect(D.k).toBe(N);
  expect(D.isotropyDefect()).toBeLessThanOrEqual(1e-12 * maxColumnNorm2(D));
  expect(D.isIsotropic()).toBe(true);
  expect(D.dimension()).toBe(N);
  expect(D.isMaximal()).toBe(true);
  expect(D.isDirac()).toBe(true);
  const perp = D.orthogonal();
  expect(perp.k).toBe(N);
  expect(perp.subspace().gap(D.subspace())).toBeLessThan(1e-10);
  expect(perp.equals(D)).toBe(true);

  const a = c1.subarray(0, N);
  const b = c2.subarray(0, N);
  const x = D.element(a);
  const y = D.element(b);
  const scale = frob2(D);
  const cross = pairing(vPart(x, N), aPart(y, N)) + pairing(vPart(y, N), aPart(x, N));
  expect(Math.abs(cross)).toBeLessThanOrEqual(1e-12 * scale * norm(a) * norm(b));
  expect(Math.abs(cross - symmetricPairing(x, y))).toBeLessThanOrEqual(
    1e-14 * scale * norm(a) * norm(b),
  );
  expect(Math.abs(LinearDiracStructure.tellegenResidual(x))).toBeLessThanOrEqual(
    1e-12 * scale * norm(a) ** 2,
  );
  expect(
    Math.abs(LinearDiracStructure.tellegenResidual(vPart(x, N), aPart(x, N))),
  ).toBeLessThanOrEqual(1e-12 * scale * norm(a) ** 2);
  if (norm(x) > 1e-8) {
    expect(D.contains(x)).toBe(true);
    expect(D.contains(vPart(x, N), aPart(x, N))).toBe(true);
    // negative sample: push x off D along a unit direction orthogonal to D
    const S = D.subspace();
    const zz = z.subarray(0, 2 * N);
    const p = S.project(zz);
    const off = zz.map((zi, i) => zi - p[i]!);
    const offNorm = norm(off);
    if (offNorm > 1e-3 * norm(zz)) {
      const eps = (1e-6 * norm(x)) / offNorm;
      const bad = x.map((xi, i) => xi + eps * off[i]!);
      expect(D.contains(bad)).toBe(false);
      expect(S.contains(bad)).toBe(false);
    }
  }
}

/** Random Δ = ker A (A well conditioned) with random coefficients for the axioms. */
const distributionCase = fc.record({
  C: constraints(),
  W: entries(36),
  c1: entries(COEFFS),
  c2: entries(COEFFS),
  z: entries(2 * COEFFS),
});

// -----------------------------------------------------------------------------------------------

describe('symmetric pairing (spec 002 §3.1, no factor ½)', () => {
  it('equals xᵀ S y with S = [[0, I], [I, 0]] and is symmetric (1e-12)', () => {
    const S = splitForm(n);
    fc.assert(
      fc.property(wide(2 * n), wide(2 * n), (x, y) => {
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
    expect(LinearDiracStructure.tellegenResidual([1, 2, 3, 4])).toBe(11);
    expect(LinearDiracStructure.tellegenResidual([1, 2], [3, 4])).toBe(11);
  });
});

describe('graph of a two-form (spec 002 §5.3)', () => {
  it('is a Dirac structure iff W is skew; its elements satisfy Tellegen (2.1) to 1e-12', () => {
    fc.assert(
      fc.property(wide(n * n), wide(n), (A, v) => {
        const W = skewFrom(A, n);
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
    expect(D.orthogonal().equals(D)).toBe(false);
  });

  it('for a random W its isotropy defect is max |W_ab + W_ba| (1e-15 relative)', () => {
    fc.assert(
      fc.property(entries(16), (M) => {
        const N = 4;
        let expected = 0;
        for (let a = 0; a < N; a++)
          for (let b = 0; b < N; b++)
            expected = Math.max(expected, Math.abs(M[a * N + b]! + M[b * N + a]!));
        const D = LinearDiracStructure.graphTwoForm(M, N);
        expect(Math.abs(D.isotropyDefect() - expected)).toBeLessThanOrEqual(1e-15 * (1 + expected));
        if (expected > 1e-6) expect(D.isDirac()).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects a vector off the graph', () => {
    const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 1, -1, 0), 2);
    expect(D.contains([1, 0, 0, 1])).toBe(true); // α = Wᵀe1 = (0, 1)
    expect(D.contains([1, 0, 0, 1.001])).toBe(false);
    expect(D.contains([1, 0], [0, 1.001])).toBe(false);
    expect(D.contains([0, 0, 0, 0])).toBe(true);
  });
});

describe('Prop 2.2 / Thm 3.1: Δ × Δ°', () => {
  it('is Dirac for random Δ = ker A; elements have v ∈ Δ, α ∈ Δ° (1e-10)', () => {
    fc.assert(
      fc.property(distributionCase, ({ C: { n: N, m, A }, c1, c2, z }) => {
        fc.pre(wellConditioned(A, m, N));
        const Delta = Subspace.kernel(A, m, N);
        const D = LinearDiracStructure.fromDistribution(Delta);
        expectDiracAxioms(D, c1, c2, z);
        const x = D.element(c1.subarray(0, N));
        expect(Delta.contains(vPart(x, N))).toBe(true);
        expect(Delta.annihilator().contains(aPart(x, N))).toBe(true);
        // the multiplier form: A v = 0 and α = Aᵀμ
        expect(Subspace.rowSpace(A, m, N).contains(aPart(x, N))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('the extreme cases V × {0} and {0} × V*', () => {
    const D1 = LinearDiracStructure.fromDistribution(Subspace.whole(3));
    expect(D1.isDirac()).toBe(true);
    expect(D1.contains([1, 2, 3], [0, 0, 0])).toBe(true);
    expect(D1.contains([1, 2, 3], [0, 1e-3, 0])).toBe(false);
    const D2 = LinearDiracStructure.fromDistribution(Subspace.zero(3));
    expect(D2.isDirac()).toBe(true);
    expect(D2.contains([0, 0, 0], [4, 5, 6])).toBe(true);
  });
});

describe('Thm 2.3: Dirac structure from a two-form and a distribution', () => {
  it('is Dirac for random skew W and Δ; v ∈ Δ, α − Wᵀv ∈ Δ°, α(w) = Ω(v, w) ∀ w ∈ Δ (1e-12)', () => {
    fc.assert(
      fc.property(distributionCase, ({ C: { n: N, m, A }, W: M, c1, c2, z }) => {
        fc.pre(wellConditioned(A, m, N));
        const Delta = Subspace.kernel(A, m, N);
        const W = skewFrom(M, N);
        const D = LinearDiracStructure.fromTwoForm(W, Delta);
        expectDiracAxioms(D, c1, c2, z);
        const c = c1.subarray(0, N);
        const x = D.element(c);
        const v = vPart(x, N);
        const alpha = aPart(x, N);
        const Wtv = new Float64Array(N);
        for (let i = 0; i < N; i++)
          for (let l = 0; l < N; l++) Wtv[i] = Wtv[i]! + W[l * N + i]! * v[l]!;
        const scale = (1 + norm(W)) * norm(c);
        expect(Delta.residual(v)).toBeLessThanOrEqual(1e-12 * scale);
        expect(
          Delta.annihilator().residual(alpha.map((ai, i) => ai - Wtv[i]!)),
        ).toBeLessThanOrEqual(1e-12 * scale);
        for (let j = 0; j < Delta.dim; j++) {
          const w = Delta.column(j);
          let omega = 0; // Ω(v, w) = vᵀWw
          for (let i = 0; i < N; i++)
            for (let l = 0; l < N; l++) omega += v[i]! * W[i * N + l]! * w[l]!;
          expect(Math.abs(pairing(alpha, w) - omega)).toBeLessThanOrEqual(1e-12 * scale);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('W = 0 gives Δ × Δ°; Δ = V gives graph Ω♭ (gap 1e-10)', () => {
    fc.assert(
      fc.property(constraints(), entries(36), ({ n: N, m, A }, M) => {
        fc.pre(wellConditioned(A, m, N));
        const Delta = Subspace.kernel(A, m, N);
        const W = skewFrom(M, N);
        expect(
          LinearDiracStructure.fromTwoForm(new Float64Array(N * N), Delta).equals(
            LinearDiracStructure.fromDistribution(Delta),
          ),
        ).toBe(true);
        expect(
          LinearDiracStructure.fromTwoForm(W, Subspace.whole(N)).equals(
            LinearDiracStructure.graphTwoForm(W, N),
          ),
        ).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects a non-skew W with a DomainError', () => {
    expect(() =>
      LinearDiracStructure.fromTwoForm(Float64Array.of(0, 1, 1, 0), Subspace.whole(2)),
    ).toThrow(DomainError);
    expect(() =>
      LinearDiracStructure.fromTwoForm(Float64Array.of(0, 1, -1 + 1e-9, 0), Subspace.whole(2)),
    ).toThrow('skew-symmetric');
  });
});

describe('Thm 2.4: Dirac structure from a bivector and a codistribution (B♯α = Πα)', () => {
  it('is Dirac for random skew Π and Δ*; α ∈ Δ*, v − Πα ∈ (Δ*)°, β(v) = ⟨β, Πα⟩ ∀ β ∈ Δ* (1e-12)', () => {
    fc.assert(
      fc.property(distributionCase, ({ C: { n: N, m, A }, W: M, c1, c2, z }) => {
        fc.pre(wellConditioned(A, m, N));
        const DeltaStar = Subspace.kernel(A, m, N); // any subspace of V*
        const Pi = skewFrom(M, N);
        const D = LinearDiracStructure.fromBivector(Pi, DeltaStar);
        expectDiracAxioms(D, c1, c2, z);
        const c = c1.subarray(0, N);
        const x = D.element(c);
        const v = vPart(x, N);
        const alpha = aPart(x, N);
        const PiAlpha = new Float64Array(N);
        for (let i = 0; i < N; i++)
          for (let l = 0; l < N; l++) PiAlpha[i] = PiAlpha[i]! + Pi[i * N + l]! * alpha[l]!;
        const scale = (1 + norm(Pi)) * norm(c);
        expect(DeltaStar.residual(alpha)).toBeLessThanOrEqual(1e-12 * scale);
        expect(
          DeltaStar.annihilator().residual(v.map((vi, i) => vi - PiAlpha[i]!)),
        ).toBeLessThanOrEqual(1e-12 * scale);
        for (let j = 0; j < DeltaStar.dim; j++) {
          const beta = DeltaStar.column(j);
          expect(Math.abs(pairing(beta, v) - pairing(beta, PiAlpha))).toBeLessThanOrEqual(
            1e-12 * scale,
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('Π = 0 gives (Δ*)° × Δ*; Δ* = V* gives graph B♯ (gap 1e-10)', () => {
    fc.assert(
      fc.property(constraints(), entries(36), ({ n: N, m, A }, M) => {
        fc.pre(wellConditioned(A, m, N));
        const DeltaStar = Subspace.kernel(A, m, N);
        const Pi = skewFrom(M, N);
        expect(
          LinearDiracStructure.fromBivector(new Float64Array(N * N), DeltaStar).equals(
            LinearDiracStructure.fromDistribution(DeltaStar.annihilator()),
          ),
        ).toBe(true);
        expect(
          LinearDiracStructure.fromBivector(Pi, Subspace.whole(N)).equals(
            LinearDiracStructure.graphPoisson(Pi, N),
          ),
        ).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('graph B♯ = graph Ω♭ for Π = (Wᵀ)⁻¹ = −W⁻¹ (random invertible skew W, gap 1e-10)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), entries(36), (h, M) => {
        const N = 2 * h;
        const W = skewFrom(M, N);
        fc.pre(wellConditioned(W, N, N));
        const Winv = pseudoInverse(W, N, N);
        const Pi = Winv.map((x) => -x);
        expect(
          LinearDiracStructure.graphPoisson(Pi, N).equals(LinearDiracStructure.graphTwoForm(W, N)),
        ).toBe(true);
        // and the opposite sign convention B♯α = Πᵀα would give a different structure
        expect(
          LinearDiracStructure.graphPoisson(Winv, N).equals(
            LinearDiracStructure.graphTwoForm(W, N),
          ),
        ).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('canonical T*Rᵐ: graph B♯ = graph Ω♭ for J = [[0, I], [−I, 0]], and X_H = B♯dH = (H_p, −H_q)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), entries(6), (h, dH) => {
        const N = 2 * h;
        const J = new Float64Array(N * N);
        for (let i = 0; i < h; i++) {
          J[i * N + h + i] = 1;
          J[(h + i) * N + i] = -1;
        }
        const Dp = LinearDiracStructure.graphPoisson(J, N);
        expect(Dp.equals(LinearDiracStructure.graphTwoForm(J, N))).toBe(true);
        const alpha = dH.subarray(0, N); // (H_q, H_p)
        const XH = new Float64Array(N);
        for (let i = 0; i < h; i++) {
          XH[i] = alpha[h + i]!; // q̇ = ∂H/∂p
          XH[h + i] = -alpha[i]!; // ṗ = −∂H/∂q
        }
        expect(Dp.contains(XH, alpha)).toBe(true);
        if (norm(alpha) > 1e-6)
          expect(
            Dp.contains(
              XH.map((x) => -x),
              alpha,
            ),
          ).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects a non-skew Π: fromBivector throws, graphPoisson is not isotropic', () => {
    const Pi = Float64Array.of(0, 1, 0.5, 0);
    expect(() => LinearDiracStructure.fromBivector(Pi, Subspace.whole(2))).toThrow(DomainError);
    const D = LinearDiracStructure.graphPoisson(Pi, 2);
    expect(D.isMaximal()).toBe(true);
    expect(D.isotropyDefect()).toBe(1.5); // |Π₁₂ + Π₂₁|
    expect(D.isDirac()).toBe(false);
  });
});

describe('Thm 3.1 / Cor 3.2: Kirchhoff Dirac structure and Tellegen’s theorem', () => {
  const omega = Float64Array.of(-1, 0, 1, 0, 0, -1, 1, -1); // seed 002 (7.2), branches L, C1, C2, C3

  it('the L-C circuit of §7: dims 2 + 2, loops g1, g2 ∈ Δ, KVL e_L + e_C1 + e_C2 = 0 and e_C1 = e_C3 (1e-12)', () => {
    const D = LinearDiracStructure.kirchhoff(omega, 2, 4);
    expect(D.isDirac()).toBe(true);
    expect(D.contains([1, 1, 1, 0], [0, 0, 0, 0])).toBe(true);
    expect(D.contains([1, 0, 1, 1], [0, 0, 0, 0])).toBe(true);
    expect(D.contains([1, 0, 0, 0], [0, 0, 0, 0])).toBe(false);
    const kvl = Subspace.kernel(omega, 2, 4).annihilator();
    expect(kvl.dim).toBe(2);
    for (let j = 0; j < 2; j++) {
      const e = kvl.column(j);
      expect(Math.abs(e[0]! + e[1]! + e[2]!)).toBeLessThan(1e-12);
      expect(Math.abs(e[1]! - e[3]!)).toBeLessThan(1e-12);
      expect(D.contains([0, 0, 0, 0], e)).toBe(true);
    }
    // e = μ₁ω¹ + μ₂ω² with μ = (1, 2) and f = g1: Σ e_k f_k = 0 exactly
    expect(LinearDiracStructure.tellegenResidual([1, 1, 1, 0], [-1, -2, 3, -2])).toBe(0);
  });

  it('random connected graphs: dim Δ = b − N + 1, KCL Af = 0, KVL e = Aᵀμ, Σ eₖfₖ = 0 for independent f ∈ Δ, e ∈ Δ° (1e-12)', () => {
    fc.assert(
      fc.property(
        circuitGraph(),
        entries(COEFFS),
        entries(COEFFS),
        entries(2 * COEFFS),
        ({ nodes, branches, incidence }, c1, c2, z) => {
          const D = LinearDiracStructure.kirchhoff(incidence, nodes, branches);
          expectDiracAxioms(D, c1, c2, z);
          const kcl = Subspace.rowSpace(incidence, nodes, branches).annihilator();
          expect(kcl.dim).toBe(branches - nodes + 1); // independent loops of a connected graph
          // independent samples: f = G c₁ ∈ Δ and node potentials μ, e = Aᵀμ ∈ Δ°
          const f = new Float64Array(branches);
          for (let j = 0; j < kcl.dim; j++) {
            const g = kcl.column(j);
            for (let i = 0; i < branches; i++) f[i] = f[i]! + c1[j]! * g[i]!;
          }
          const mu = c2.subarray(0, nodes);
          const e = new Float64Array(branches);
          for (let a = 0; a < nodes; a++)
            for (let k = 0; k < branches; k++) e[k] = e[k]! + mu[a]! * incidence[a * branches + k]!;
          const Af = new Float64Array(nodes);
          for (let a = 0; a < nodes; a++)
            for (let k = 0; k < branches; k++)
              Af[a] = Af[a]! + incidence[a * branches + k]! * f[k]!;
          expect(norm(Af)).toBeLessThanOrEqual(1e-12 * (1 + norm(f)) * norm(incidence));
          expect(Math.abs(LinearDiracStructure.tellegenResidual(f, e))).toBeLessThanOrEqual(
            1e-12 * (1 + norm(f)) * (1 + norm(e)),
          );
          expect(D.contains(f, e)).toBe(true);
          // the reduced incidence (reference node 0 dropped) gives the same D_E
          const reduced = incidence.subarray(branches);
          expect(LinearDiracStructure.kirchhoff(reduced, nodes - 1, branches).equals(D)).toBe(true);
          // the full incidence matrix has a redundant row: strict kernel form rejects it
          expect(() => Subspace.kernel(incidence, nodes, branches)).toThrow(
            `constraint one-forms are linearly dependent (rank ${nodes - 1} < ${nodes})`,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('rejects coefficients outside {−1, 0, +1} and bad shapes', () => {
    expect(() => LinearDiracStructure.kirchhoff(Float64Array.of(1, 2, -1), 1, 3)).toThrow(
      DomainError,
    );
    expect(() => LinearDiracStructure.kirchhoff(Float64Array.of(1, 0, -1), 1, 4)).toThrow(
      DimensionError,
    );
  });
});

describe('Thm 3.4: interconnection Dirac structure on T*E', () => {
  it('is Dirac of dimension 2n in R⁴ⁿ, = Thm 2.4 with the canonical Π; elements ((v̂, F), (F̂, v)) have F̂ = −F ∈ Δ*, v̂ − v ∈ (Δ*)°, ⟨F, v⟩ + ⟨F̂, v̂⟩ = 0 (1e-12)', () => {
    fc.assert(
      fc.property(distributionCase, ({ C: { n: N, m, A }, c1, c2, z }) => {
        fc.pre(wellConditioned(A, m, N));
        const DeltaStar = Subspace.kernel(A, m, N);
        const D = LinearDiracStructure.interconnection(DeltaStar);
        expect(D.n).toBe(2 * N);
        expectDiracAxioms(D, c1, c2, z);

        // Thm 2.4 on M = T*E: Π = [[0, I], [−I, 0]], codistribution {(a, w) | a ∈ Δ*}
        const N2 = 2 * N;
        const J = new Float64Array(N2 * N2);
        for (let i = 0; i < N; i++) {
          J[i * N2 + N + i] = 1;
          J[(N + i) * N2 + i] = -1;
        }
        const cols = new Float64Array(N2 * (DeltaStar.dim + N));
        const kc = DeltaStar.dim + N;
        for (let j = 0; j < DeltaStar.dim; j++) {
          const kappa = DeltaStar.column(j);
          for (let i = 0; i < N; i++) cols[i * kc + j] = kappa[i]!;
        }
        for (let i = 0; i < N; i++) cols[(N + i) * kc + DeltaStar.dim + i] = 1;
        const lifted = Subspace.span(cols, N2, kc);
        expect(lifted.dim).toBe(DeltaStar.dim + N);
        expect(LinearDiracStructure.fromBivector(J, lifted).equals(D)).toBe(true);

        const c = c1.subarray(0, N2);
        const x = D.element(c);
        const vHat = x.subarray(0, N);
        const F = x.subarray(N, 2 * N);
        const FHat = x.subarray(2 * N, 3 * N);
        const v = x.subarray(3 * N, 4 * N);
        const scale = frob2(D) * norm(c) ** 2;
        expect(norm(F.map((Fi, i) => Fi + FHat[i]!))).toBeLessThanOrEqual(1e-12 * norm(c));
        expect(DeltaStar.residual(F)).toBeLessThanOrEqual(1e-12 * norm(c));
        expect(
          DeltaStar.annihilator().residual(vHat.map((vi, i) => vi - v[i]!)),
        ).toBeLessThanOrEqual(1e-12 * norm(c));
        expect(Math.abs(pairing(F, v) + pairing(FHat, vHat))).toBeLessThanOrEqual(1e-12 * scale);
      }),
      { numRuns: 150 },
    );
  });

  it('T*R³ with contact forces along e₁ (Newton’s third law): a sample and a violation', () => {
    const D = LinearDiracStructure.interconnection(Subspace.span([1, 0, 0], 3, 1));
    // v̂ = (1, 2, 3), F = (4, 0, 0), F̂ = −F, v = (1, 7, −1): v̂ − v = (0, −5, 4) ∈ (Δ*)°
    expect(D.contains([1, 2, 3, 4, 0, 0], [-4, 0, 0, 1, 7, -1])).toBe(true);
    expect(4 * 1 + -4 * 1).toBe(0); // ⟨F, v⟩ + ⟨F̂, v̂⟩
    expect(D.contains([1, 2, 3, 4, 0, 0], [-4, 0, 0, 1.5, 7, -1])).toBe(false); // v̂₁ ≠ v₁
    expect(D.contains([1, 2, 3, 4, 1, 0], [-4, -1, 0, 1, 7, -1])).toBe(false); // F ∉ Δ*
  });
});

describe('kernel–image representation {(f, e) | Ff + Ee = 0}', () => {
  it('F = [A; 0], E = [0; Gᵀ] gives Δ × Δ°; F = I, E = W skew gives graph B♯ with Π = −W (gap 1e-10)', () => {
    fc.assert(
      fc.property(constraints(), entries(36), ({ n: N, m, A }, M) => {
        fc.pre(wellConditioned(A, m, N));
        const Delta = Subspace.kernel(A, m, N);
        const F = new Float64Array(N * N);
        F.set(A);
        const E = new Float64Array(N * N);
        for (let j = 0; j < Delta.dim; j++) {
          const g = Delta.column(j);
          for (let i = 0; i < N; i++) E[(m + j) * N + i] = g[i]!;
        }
        expect(
          LinearDiracStructure.fromKernelImage(F, E, N, N).equals(
            LinearDiracStructure.fromDistribution(Delta),
          ),
        ).toBe(true);
        const W = skewFrom(M, N);
        const I = new Float64Array(N * N);
        for (let i = 0; i < N; i++) I[i * N + i] = 1;
        const D = LinearDiracStructure.fromKernelImage(I, W, N, N);
        expect(D.isDirac()).toBe(true);
        expect(
          D.equals(
            LinearDiracStructure.graphPoisson(
              W.map((x) => -x),
              N,
            ),
          ),
        ).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects rank [F E] < n and F Eᵀ + E Fᵀ ≠ 0 with DomainErrors', () => {
    expect(() =>
      LinearDiracStructure.fromKernelImage(
        Float64Array.of(1, 0, 0, 0),
        Float64Array.of(0, 0, 0, 0),
        2,
        2,
      ),
    ).toThrow('must have rank n = 2');
    expect(() =>
      LinearDiracStructure.fromKernelImage(
        Float64Array.of(1, 0, 0, 1),
        Float64Array.of(1, 0, 0, 1),
        2,
        2,
      ),
    ).toThrow(DomainError);
  });
});

describe('non-examples and typed errors', () => {
  it('a too-small isotropic subspace is not maximal; its orthogonal is strictly larger', () => {
    fc.assert(
      fc.property(constraints(), entries(36), ({ n: N, m, A }, M) => {
        fc.pre(wellConditioned(A, m, N));
        const D = LinearDiracStructure.fromTwoForm(skewFrom(M, N), Subspace.kernel(A, m, N));
        const k = N - 1;
        const B = new Float64Array(2 * N * k);
        for (let i = 0; i < 2 * N; i++)
          for (let j = 0; j < k; j++) B[i * k + j] = D.basis[i * N + j]!;
        const small = new LinearDiracStructure(N, B, k);
        expect(small.isIsotropic()).toBe(true);
        expect(small.dimension()).toBe(N - 1);
        expect(small.isMaximal()).toBe(false);
        expect(small.isDirac()).toBe(false);
        expect(small.orthogonal().dimension()).toBe(N + 1);
        expect(small.orthogonal().equals(small)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('redundant spanning columns are fine: a Dirac D spanned by 2n columns still tests Dirac', () => {
    const D = LinearDiracStructure.graphTwoForm(Float64Array.of(0, 2, -2, 0), 2);
    const B = new Float64Array(4 * 4);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 2; j++) {
        B[i * 4 + j] = D.basis[i * 2 + j]!;
        B[i * 4 + 2 + j] = 3 * D.basis[i * 2 + j]! - D.basis[i * 2 + (1 - j)]!;
      }
    const R = new LinearDiracStructure(2, B, 4);
    expect(R.isDirac()).toBe(true);
    expect(R.equals(D)).toBe(true);
  });

  it('DimensionError for bad shapes', () => {
    expect(() => new LinearDiracStructure(2, new Float64Array(7), 2)).toThrow(DimensionError);
    expect(() => LinearDiracStructure.graphTwoForm(new Float64Array(3), 2)).toThrow(DimensionError);
    expect(() => LinearDiracStructure.graphPoisson(new Float64Array(3), 2)).toThrow(DimensionError);
    expect(() => LinearDiracStructure.fromTwoForm(new Float64Array(4), Subspace.whole(3))).toThrow(
      DimensionError,
    );
    expect(() => LinearDiracStructure.fromBivector(new Float64Array(9), Subspace.whole(2))).toThrow(
      DimensionError,
    );
    expect(() =>
      LinearDiracStructure.fromKernelImage(new Float64Array(4), new Float64Array(3), 2, 2),
    ).toThrow(DimensionError);
    const D = LinearDiracStructure.fromDistribution(Subspace.whole(2));
    expect(() => D.contains([1, 2, 3])).toThrow(DimensionError);
    expect(() => D.contains([1, 2], [3])).toThrow(DimensionError);
    expect(() => D.element([1])).toThrow(DimensionError);
    expect(() => symmetricPairing([1, 2, 3], [1, 2, 3])).toThrow(DimensionError);
  });

  it('DomainError for dependent constraint one-forms and bad tolerances', () => {
    const A = Float64Array.of(1, 1, 0, 2, 2, 0);
    expect(() => LinearDiracStructure.fromDistribution(Subspace.kernel(A, 2, 3))).toThrow(
      'constraint one-forms are linearly dependent (rank 1 < 2)',
    );
    const D = LinearDiracStructure.fromDistribution(Subspace.whole(2));
    expect(() => D.contains([1, 0, 0, 0], -1)).toThrow(DomainError);
    expect(() => D.isIsotropic(Number.NaN)).toThrow(DomainError);
  });
});
