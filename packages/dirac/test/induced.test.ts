import {
  DimensionError,
  DomainError,
  matMul,
  nullSpace,
  rank,
  singularValues,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lcCircuit4 } from '../src/examples.js';
import {
  INDUCED_MEMBERSHIP_TOL,
  inducedCodistribution,
  inducedDiracStructure,
  liftedDistribution,
  packDiracPair,
} from '../src/induced.js';
import { symmetricPairing } from '../src/linear.js';
import {
  canonicalFlat,
  canonicalOmega,
  diracDifferential,
  type TstarQPt,
  type TstarTstarQPt,
  type TTstarQPt,
} from '../src/tulczyjew.js';
import type { Distribution } from '../src/types.js';
import { diagonalMassLagrangian } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// random regular distributions Δ(q) = ker A(q), A(q) = A0 + C ∘ sin(q_j + φ)

/**
 * Random entries on a grid of 2²¹ + 1 points in [min, max]: fast-check's doubles cluster at tiny
 * and subnormal magnitudes, which made about 84% of the random A(q) fail the conditioning guard;
 * on the grid almost all pass. The integer bias still favours the midpoint and the ends.
 */
const GRID = 2 ** 20;
const entries = (len: number, min: number, max: number) =>
  fc
    .array(fc.integer({ min: -GRID, max: GRID }), { minLength: len, maxLength: len })
    .map((ks) => Float64Array.from(ks, (k) => (min + max) / 2 + ((max - min) / 2) * (k / GRID)));

interface DistributionCase {
  n: number;
  m: number;
  A0: Float64Array;
  C: Float64Array;
  phi: Float64Array;
  qDependent: boolean;
  withG: boolean;
  /** upper-triangular mixing of the null-space basis for a user-supplied, non-orthonormal G */
  R: Float64Array;
  Rdiag: Float64Array;
}

function makeDistribution(c: DistributionCase): Distribution {
  const { n, m, A0, C, phi, qDependent, withG, R, Rdiag } = c;
  const r = n - m;
  const A = (out: Float64Array, q: Float64Array) => {
    for (let a = 0; a < m; a++)
      for (let j = 0; j < n; j++) {
        const k = a * n + j;
        out[k] = A0[k]! + (qDependent ? C[k]! * Math.sin(q[j]! + phi[k]!) : 0);
      }
    return out;
  };
  const Delta: Distribution = {
    n,
    m,
    A,
    Adot(out, q, v) {
      for (let a = 0; a < m; a++)
        for (let j = 0; j < n; j++) {
          const k = a * n + j;
          out[k] = qDependent ? C[k]! * Math.cos(q[j]! + phi[k]!) * v[j]! : 0;
        }
      return out;
    },
  };
  if (withG) {
    Delta.G = (out: Float64Array, q: Float64Array) => {
      const N = nullSpace(A(new Float64Array(m * n), q), m, n).basis;
      const T = new Float64Array(r * r); // upper triangular, diagonal in [0.5, 2]
      for (let i = 0; i < r; i++)
        for (let j = i; j < r; j++) T[i * r + j] = i === j ? Rdiag[i]! : R[i * r + j]!;
      return matMul(out, N, T, n, r, r);
    };
  }
  return Delta;
}

const distributionCase = (mMin = 1, mMaxFromN = (n: number) => n - 1) =>
  fc.integer({ min: 2, max: 5 }).chain((n) =>
    fc.integer({ min: mMin, max: mMaxFromN(n) }).chain((m) =>
      fc.record({
        n: fc.constant(n),
        m: fc.constant(m),
        A0: entries(m * n, -2, 2),
        C: entries(m * n, -1, 1),
        phi: entries(m * n, -3, 3),
        qDependent: fc.boolean(),
        withG: fc.boolean(),
        R: entries((n - m) * (n - m), -1, 1),
        Rdiag: entries(n - m, 0.5, 2),
      }),
    ),
  );

/** Require A(q) well conditioned (σ_min ≥ 1e-2 σ_max) so "full row rank" is unambiguous. */
function wellConditioned(Delta: Distribution, q: Float64Array): boolean {
  const { n, m } = Delta;
  if (m === 0) return true;
  const s = singularValues(Delta.A(new Float64Array(m * n), q), m, n);
  return s[m - 1]! >= 0.05 && s[m - 1]! >= 1e-2 * s[0]!;
}

/** Independent frames for the oracle: A(q) and an orthonormal null-space basis N (n×r). */
function oracleFrames(Delta: Distribution, q: Float64Array) {
  const { n, m } = Delta;
  const A = Delta.A(new Float64Array(m * n), q);
  const { basis: N, d: r } = nullSpace(A, m, n);
  return { A, N, r };
}

interface Element {
  z: TstarQPt;
  vz: TTstarQPt;
  az: TstarTstarQPt;
}

/** (q̇, ṗ, α, w) = (N c, ṗ, −ṗ + Aᵀμ, N c): an element of D_{Δ_Q}(q, p) by (5.5). */
function constructElement(
  Delta: Distribution,
  q: Float64Array,
  p: Float64Array,
  c: Float64Array,
  pdot: Float64Array,
  mu: Float64Array,
): Element {
  const { n, m } = Delta;
  const { A, N, r } = oracleFrames(Delta, q);
  const qdot = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < r; j++) qdot[i] = qdot[i]! + N[i * r + j]! * c[j]!;
  const alpha = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    alpha[i] = -pdot[i]!;
    for (let a = 0; a < m; a++) alpha[i] = alpha[i]! + A[a * n + i]! * mu[a]!;
  }
  return {
    z: { q: Float64Array.from(q), p: Float64Array.from(p) },
    vz: { q: Float64Array.from(q), p: Float64Array.from(p), dq: qdot, dp: Float64Array.from(pdot) },
    az: { q: Float64Array.from(q), p: Float64Array.from(p), alpha, w: Float64Array.from(qdot) },
  };
}

function maxAbs(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s = Math.max(s, Math.abs(x[i]!));
  return s;
}

function allFour(D: ReturnType<typeof inducedDiracStructure>, e: Element, tol = 1e-10) {
  return [
    D.containsLocal(e.z, e.vz, e.az, tol),
    D.containsSymplecticForm(e.z, e.vz, e.az, tol),
    D.containsTulczyjewForm(e.z, e.vz, e.az, tol),
    D.containsPoissonForm(e.z, e.vz, e.az, tol),
  ];
}

const pointCase = distributionCase().chain((dc) => {
  const { n, m } = dc;
  return fc.record({
    dc: fc.constant(dc),
    q: entries(n, -3, 3),
    p: entries(n, -3, 3),
    p2: entries(n, -3, 3),
    c: entries(n - m, -2, 2),
    pdot: entries(n, -3, 3),
    mu: entries(m, -2, 2),
    c2: entries(n - m, -2, 2),
    pdot2: entries(n, -3, 3),
    mu2: entries(m, -2, 2),
  });
});

// ---------------------------------------------------------------------------------------------

describe('lifted distribution Δ_{T*Q} (5.1) and induced codistribution Δ*_{T*Q} (5.6), (5.7)', () => {
  it('dimensions 2n − m and m, annihilators pair to zero (1e-12), Ω♭(Δ_{T*Q}) = Δ*_{T*Q}', () => {
    fc.assert(
      fc.property(pointCase, ({ dc, q }) => {
        const Delta = makeDistribution(dc);
        fc.pre(wellConditioned(Delta, q));
        const { n, m } = dc;
        const k = 2 * n - m;
        for (const S of [liftedDistribution(Delta), inducedCodistribution(Delta)]) {
          expect(S.dim).toBe(k);
          expect(S.annihilatorDim).toBe(m);
          const B = S.basis(q);
          const Z = S.annihilatorBasis(q);
          expect(rank(B, 2 * n, k)).toBe(k);
          expect(rank(Z, 2 * n, m)).toBe(m);
          let scale = 1;
          for (const x of B) scale = Math.max(scale, Math.abs(x));
          for (const x of Z) scale = Math.max(scale, Math.abs(x));
          for (let i = 0; i < k; i++)
            for (let a = 0; a < m; a++) {
              let s = 0;
              for (let r = 0; r < 2 * n; r++) s += B[r * k + i]! * Z[r * m + a]!;
              expect(Math.abs(s)).toBeLessThanOrEqual(1e-12 * scale * scale * n);
            }
          for (let i = 0; i < k; i++) {
            const col = new Float64Array(2 * n);
            for (let r = 0; r < 2 * n; r++) col[r] = B[r * k + i]!;
            expect(S.contains(q, col, 1e-12)).toBe(true);
          }
          for (let a = 0; a < m; a++) {
            const col = new Float64Array(2 * n);
            for (let r = 0; r < 2 * n; r++) col[r] = Z[r * m + a]!;
            expect(S.annihilatorContains(q, col, 1e-12)).toBe(true);
          }
        }
        // Ω♭ maps the basis of Δ_{T*Q} into Δ*_{T*Q}, onto since both have dimension 2n − m (5.6)
        const lifted = liftedDistribution(Delta);
        const co = inducedCodistribution(Delta);
        const B = lifted.basis(q);
        const flats = new Float64Array(2 * n * k);
        for (let i = 0; i < k; i++) {
          const col = new Float64Array(2 * n);
          for (let r = 0; r < 2 * n; r++) col[r] = B[r * k + i]!;
          const f = canonicalFlat(new Float64Array(2 * n), col);
          expect(co.contains(q, f, 1e-12)).toBe(true);
          for (let r = 0; r < 2 * n; r++) flats[r * k + i] = f[r]!;
        }
        expect(rank(flats, 2 * n, k)).toBe(k);
        // (5.7): (Δ*)° = {(0, β) : β ∈ Δ°}; the lifted annihilator is {(α, 0) : α ∈ Δ°}
        const Z1 = lifted.annihilatorBasis(q);
        const Z2 = co.annihilatorBasis(q);
        const A = Delta.A(new Float64Array(m * n), q);
        for (let a = 0; a < m; a++)
          for (let i = 0; i < n; i++) {
            expect(Z1[i * m + a]).toBe(A[a * n + i]);
            expect(Z1[(n + i) * m + a]).toBe(0);
            expect(Z2[i * m + a]).toBe(0);
            expect(Z2[(n + i) * m + a]).toBe(A[a * n + i]);
          }
      }),
      { numRuns: 200 },
    );
  });

  it('rejects q̇ ∉ Δ and non-annihilating covectors (perturbation 1e-3, tol 1e-10)', () => {
    fc.assert(
      fc.property(pointCase, ({ dc, q, pdot }) => {
        const Delta = makeDistribution(dc);
        fc.pre(wellConditioned(Delta, q));
        const { n } = dc;
        const { A, N, r } = oracleFrames(Delta, q);
        const lifted = liftedDistribution(Delta);
        const co = inducedCodistribution(Delta);
        // q̇ = unit normal row ω¹/‖ω¹‖ is orthogonal to Δ
        const x = new Float64Array(2 * n);
        let nrm = 0;
        for (let i = 0; i < n; i++) nrm += A[i]! ** 2;
        for (let i = 0; i < n; i++) x[i] = (1e-3 * A[i]!) / Math.sqrt(nrm);
        x.set(pdot, n);
        expect(lifted.contains(q, x)).toBe(false);
        // (α, 0) with α = g₁ ∈ Δ does not annihilate Δ_{T*Q}; (α, w) with w ≠ 0 neither
        if (r > 0) {
          const xi = new Float64Array(2 * n);
          for (let i = 0; i < n; i++) xi[i] = 1e-3 * N[i * r]!;
          expect(lifted.annihilatorContains(q, xi)).toBe(false);
        }
        const xi2 = new Float64Array(2 * n);
        for (let i = 0; i < n; i++) xi2[i] = A[i]!;
        xi2[n] = 1e-3;
        expect(lifted.annihilatorContains(q, xi2)).toBe(false);
        // the codistribution constrains the second block: (α, w) with w = x's q̇ ∉ Δ is outside
        // Δ*_{T*Q}, and (u, β) with u ≠ 0 is outside (Δ*_{T*Q})° (5.7)
        const y = new Float64Array(2 * n);
        y.set(pdot, 0);
        y.set(x.subarray(0, n), n);
        expect(co.contains(q, y)).toBe(false);
        const u = new Float64Array(2 * n);
        u.set(A.subarray(0, n), n);
        expect(co.annihilatorContains(q, u)).toBe(true);
        u[0] = 1e-3;
        expect(co.annihilatorContains(q, u)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('D_{Δ_Q}(z) is a Dirac structure (Prop 5.1; spec 002 §3.8, §6 item 1)', () => {
  it('explicit basis: isotropic (1e-12), rank 2n in R⁴ⁿ, independent of p', () => {
    fc.assert(
      fc.property(pointCase, ({ dc, q, p, p2 }) => {
        const Delta = makeDistribution(dc);
        fc.pre(wellConditioned(Delta, q));
        const { n } = dc;
        const D = inducedDiracStructure(Delta);
        expect(D.dimM).toBe(2 * n);
        const L = D.at(q, p);
        expect(L.n).toBe(2 * n);
        expect(L.k).toBe(2 * n);
        let scale = 1;
        for (const x of L.basis) scale = Math.max(scale, x * x);
        expect(L.isotropyDefect()).toBeLessThanOrEqual(1e-12 * scale);
        expect(rank(L.basis, 4 * n, 2 * n)).toBe(2 * n);
        expect(L.isDirac(1e-12)).toBe(true);
        expect(Array.from(D.at(q, p2).basis)).toEqual(Array.from(L.basis));
      }),
      { numRuns: 200 },
    );
  });

  it('elements: ⟨⟨x, y⟩⟩ = 0, Tellegen ⟨α_z, v_z⟩ = 0 (2.1), and α_z(u) = Ω(v_z, u) ∀u ∈ Δ_{T*Q} (5.2) (1e-12)', () => {
    fc.assert(
      fc.property(pointCase, ({ dc, q, p, c, pdot, mu, c2, pdot2, mu2 }) => {
        const Delta = makeDistribution(dc);
        fc.pre(wellConditioned(Delta, q));
        const { n, m } = dc;
        const e1 = constructElement(Delta, q, p, c, pdot, mu);
        const e2 = constructElement(Delta, q, p, c2, pdot2, mu2);
        const x = packDiracPair(new Float64Array(4 * n), e1.vz, e1.az);
        const y = packDiracPair(new Float64Array(4 * n), e2.vz, e2.az);
        const scale = Math.max(1, maxAbs(x) * maxAbs(y)) * 4 * n;
        expect(Math.abs(symmetricPairing(x, y))).toBeLessThanOrEqual(1e-12 * scale);
        const sx = Math.max(1, maxAbs(x) ** 2) * 4 * n;
        expect(Math.abs(0.5 * symmetricPairing(x, x))).toBeLessThanOrEqual(1e-12 * sx);
        // (5.2): α_z(u) = Ω_{Δ_Q}(v_z, u) on a basis u of Δ_{T*Q}
        const B = liftedDistribution(Delta).basis(q);
        const k = 2 * n - m;
        const v = x.subarray(0, 2 * n);
        const a = x.subarray(2 * n);
        for (let j = 0; j < k; j++) {
          const u = new Float64Array(2 * n);
          for (let r = 0; r < 2 * n; r++) u[r] = B[r * k + j]!;
          let au = 0;
          for (let r = 0; r < 2 * n; r++) au += a[r]! * u[r]!;
          const s = Math.max(1, maxAbs(x) * maxAbs(u)) * 2 * n;
          expect(Math.abs(au - canonicalOmega(v, u))).toBeLessThanOrEqual(1e-12 * s);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the four descriptions (5.3), (5.4), (5.5), (5.8) agree (spec 002 §6 item 6)', () => {
  it('accept constructed elements (tol 1e-10), as does the explicit basis', () => {
    fc.assert(
      fc.property(pointCase, ({ dc, q, p, c, pdot, mu }) => {
        const Delta = makeDistribution(dc);
        fc.pre(wellConditioned(Delta, q));
        const D = inducedDiracStructure(Delta);
        const e = constructElement(Delta, q, p, c, pdot, mu);
        expect(allFour(D, e)).toEqual([true, true, true, true]);
        const x = packDiracPair(new Float64Array(4 * dc.n), e.vz, e.az);
        expect(D.at(q, p).contains(x, 1e-10)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  const kinds = [
    'qdot off Δ (w follows)',
    'w ≠ q̇',
    'α + ṗ ∉ Δ° via α',
    'α + ṗ ∉ Δ° via ṗ',
    'random fibre direction',
    'base p of α_z',
    'base q of v_z',
  ] as const;

  it('reject perturbed elements (size 1e-3·max(1, ‖x‖∞), tol 1e-10): all four and the basis', () => {
    fc.assert(
      fc.property(
        pointCase,
        fc.constantFrom(...kinds),
        fc.nat(),
        entries(20, -1, 1),
        ({ dc, q, p, c, pdot, mu }, kind, pick, rnd) => {
          const Delta = makeDistribution(dc);
          fc.pre(wellConditioned(Delta, q));
          const { n, m } = dc;
          const { A, N, r } = oracleFrames(Delta, q);
          if (kind.includes('Δ°')) fc.pre(r > 0);
          const D = inducedDiracStructure(Delta);
          const e = constructElement(Delta, q, p, c, pdot, mu);
          const x0 = packDiracPair(new Float64Array(4 * n), e.vz, e.az);
          const eps = 1e-3 * Math.max(1, maxAbs(x0), maxAbs(q), maxAbs(p));
          const i = pick % n;
          switch (kind) {
            case 'qdot off Δ (w follows)': {
              const a = pick % m;
              let nrm = 0;
              for (let j = 0; j < n; j++) nrm += A[a * n + j]! ** 2;
              for (let j = 0; j < n; j++) {
                const d = (eps * A[a * n + j]!) / Math.sqrt(nrm);
                e.vz.dq[j] = e.vz.dq[j]! + d;
                e.az.w[j] = e.az.w[j]! + d;
              }
              break;
            }
            case 'w ≠ q̇':
              e.az.w[i] = e.az.w[i]! + eps;
              break;
            case 'α + ṗ ∉ Δ° via α':
            case 'α + ṗ ∉ Δ° via ṗ': {
              const j = pick % r;
              const target = kind.endsWith('α') ? e.az.alpha : e.vz.dp;
              for (let l = 0; l < n; l++) target[l] = target[l]! + eps * N[l * r + j]!;
              break;
            }
            case 'random fibre direction': {
              const d = rnd.subarray(0, 4 * n);
              // oracle: d must leave D by a clear margin (defects of (5.5) on d)
              let defect = 0;
              for (let a = 0; a < m; a++) {
                let s = 0;
                for (let l = 0; l < n; l++) s += A[a * n + l]! * d[l]!;
                defect = Math.max(defect, Math.abs(s));
              }
              for (let l = 0; l < n; l++)
                defect = Math.max(defect, Math.abs(d[3 * n + l]! - d[l]!));
              for (let j = 0; j < r; j++) {
                let s = 0;
                for (let l = 0; l < n; l++) s += N[l * r + j]! * (d[2 * n + l]! + d[n + l]!);
                defect = Math.max(defect, Math.abs(s));
              }
              fc.pre(defect >= 1e-2);
              for (let l = 0; l < n; l++) {
                e.vz.dq[l] = e.vz.dq[l]! + eps * d[l]!;
                e.vz.dp[l] = e.vz.dp[l]! + eps * d[n + l]!;
                e.az.alpha[l] = e.az.alpha[l]! + eps * d[2 * n + l]!;
                e.az.w[l] = e.az.w[l]! + eps * d[3 * n + l]!;
              }
              break;
            }
            case 'base p of α_z':
              e.az.p[i] = e.az.p[i]! + eps;
              break;
            case 'base q of v_z':
              e.vz.q[i] = e.vz.q[i]! + eps;
              break;
          }
          expect(allFour(D, e)).toEqual([false, false, false, false]);
          if (!kind.startsWith('base')) {
            const x = packDiracPair(new Float64Array(4 * n), e.vz, e.az);
            expect(D.at(q, p).contains(x, 1e-10)).toBe(false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('Δ_Q = TQ (m = 0): D is the graph of Ω♭ on T_zT*Q (seed 002 §6)', () => {
    fc.assert(
      fc.property(entries(8, -5, 5), entries(4, -5, 5), (x, z) => {
        const n = 4;
        const Delta: Distribution = {
          n,
          m: 0,
          A: (out) => out,
          Adot: (out) => out,
        };
        const D = inducedDiracStructure(Delta);
        const q = z.subarray(0, n);
        const p = Float64Array.from(z).reverse();
        const f = canonicalFlat(new Float64Array(2 * n), x);
        const e: Element = {
          z: { q, p },
          vz: { q, p, dq: x.subarray(0, n), dp: x.subarray(n) },
          az: { q, p, alpha: f.subarray(0, n), w: f.subarray(n) },
        };
        expect(allFour(D, e, 1e-12)).toEqual([true, true, true, true]);
        expect(D.at(q, p).contains(packDiracPair(new Float64Array(4 * n), e.vz, e.az), 1e-12)).toBe(
          true,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('Δ_Q = 0 (m = n): q̇ = w = 0 and α + ṗ free', () => {
    const Delta: Distribution = {
      n: 2,
      m: 2,
      A: (out) => {
        out.set([1, 2, -1, 1]);
        return out;
      },
      Adot: (out) => out.fill(0),
    };
    const D = inducedDiracStructure(Delta);
    const q = Float64Array.of(0.3, -0.1);
    const p = Float64Array.of(1, 2);
    const e: Element = {
      z: { q, p },
      vz: { q, p, dq: Float64Array.of(0, 0), dp: Float64Array.of(5, -7) },
      az: { q, p, alpha: Float64Array.of(1, 1), w: Float64Array.of(0, 0) },
    };
    expect(allFour(D, e)).toEqual([true, true, true, true]);
    e.vz.dq[0] = 1e-3;
    e.az.w[0] = 1e-3;
    expect(allFour(D, e)).toEqual([false, false, false, false]);
  });

  it('default tolerance is INDUCED_MEMBERSHIP_TOL = 1e-10; errors are typed', () => {
    expect(INDUCED_MEMBERSHIP_TOL).toBe(1e-10);
    const rankDeficient: Distribution = {
      n: 3,
      m: 2,
      A: (out) => {
        out.set([1, 2, 3, 2, 4, 6]);
        return out;
      },
      Adot: (out) => out.fill(0),
    };
    const D = inducedDiracStructure(rankDeficient);
    const q = new Float64Array(3);
    expect(() => D.at(q, q)).toThrow(DomainError);
    const z = { q, p: q };
    const vz = { q, p: q, dq: q, dp: q };
    const az = { q, p: q, alpha: q, w: q };
    expect(() => D.containsLocal(z, vz, az)).toThrow(DomainError);
    const ok = inducedDiracStructure({ n: 3, m: 1, A: (o) => o.fill(1), Adot: (o) => o.fill(0) });
    expect(() => ok.containsPoissonForm(z, { ...vz, dp: new Float64Array(2) }, az)).toThrow(
      DimensionError,
    );
    expect(() => ok.containsLocal(z, vz, az, -1)).toThrow(DomainError);
    expect(() => inducedDiracStructure({ n: 2, m: 3, A: (o) => o, Adot: (o) => o })).toThrow(
      DomainError,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// the paper's examples: (X, 𝔇L) ∈ D_{Δ_Q} (6.2)

describe('implicit Lagrangian systems of §7: (X, 𝔇L) ∈ D_{Δ_Q}(q, p) (6.2)', () => {
  it('vertical rolling disk: accepted at p = 𝔽L(q, v), rejected when p ≠ 𝔽L (tol 1e-10)', () => {
    const [m, I, J, R] = [2, 0.3, 0.15, 0.5];
    const disk = diagonalMassLagrangian([m, m, I, J]);
    const Delta: Distribution = {
      n: 4,
      m: 2,
      A(out, q) {
        const phi = q[3]!;
        out.set([1, 0, -R * Math.cos(phi), 0, 0, 1, -R * Math.sin(phi), 0]);
        return out;
      },
      Adot(out, q, v) {
        const phi = q[3]!;
        out.fill(0);
        out[2] = R * Math.sin(phi) * v[3]!;
        out[6] = -R * Math.cos(phi) * v[3]!;
        return out;
      },
      G(out, q) {
        const phi = q[3]!;
        out.set([0, R * Math.cos(phi), 0, R * Math.sin(phi), 0, 1, 1, 0]);
        return out;
      },
    };
    const D = inducedDiracStructure(Delta);
    fc.assert(
      fc.property(entries(4, -3, 3), entries(2, -2, 2), entries(2, -2, 2), (q, u, mu) => {
        const phi = q[3]!;
        const v = Float64Array.of(
          R * Math.cos(phi) * u[1]!,
          R * Math.sin(phi) * u[1]!,
          u[1]!,
          u[0]!,
        );
        const DL = diracDifferential(disk, q, v);
        const p = DL.p; // the Legendre relation p = ∂L/∂v is the base-point equality of (6.2)
        // X = (q̇, ṗ) = (v, ∂L/∂q + Aᵀμ) (6.4), ∂L/∂q = 0
        const pdot = Float64Array.of(
          mu[0]!,
          mu[1]!,
          -R * Math.cos(phi) * mu[0]! - R * Math.sin(phi) * mu[1]!,
          0,
        );
        const e: Element = { z: { q, p }, vz: { q, p, dq: v, dp: pdot }, az: DL };
        expect(allFour(D, e)).toEqual([true, true, true, true]);
        const pOff = Float64Array.from(p);
        pOff[0] = pOff[0]! + 1e-3;
        const bad: Element = { z: { q, p: pOff }, vz: { q, p: pOff, dq: v, dp: pdot }, az: DL };
        expect(allFour(D, bad)).toEqual([false, false, false, false]);
      }),
      { numRuns: 200 },
    );
  });

  it('L-C circuit (7.3), (7.4): accepted iff the secondary constraint q_C1/C1 = q_C3/C3 holds', () => {
    const [Lind, C1, C2, C3] = [0.7, 0.3, 0.5, 0.9];
    const lc = lcCircuit4({ L: Lind, C1, C2, C3 }).lagrangian; // 𝓛 (7.1)
    const kcl: Distribution = {
      n: 4,
      m: 2,
      A: (out) => {
        out.set([-1, 0, 1, 0, 0, -1, 1, -1]);
        return out;
      },
      Adot: (out) => out.fill(0),
    };
    const D = inducedDiracStructure(kcl);
    const check = (qC1: number, qC3: number) => {
      const q = Float64Array.of(0.2, qC1, -0.4, qC3);
      const f = Float64Array.of(1.5, 0.5, 1.5, 1); // g1 + 0.5 g2 ... in Δ: −f_L + f_C2 = 0, −f_C1 + f_C2 − f_C3 = 0
      const DL = diracDifferential(lc, q, f);
      const mu2 = -qC1 / C1;
      const mu1 = -mu2 + q[2]! / C2;
      const X = { q, p: DL.p, dq: f, dp: Float64Array.of(-mu1, 0, 0, 0) }; // (7.3): ṗ_C = 0
      return allFour(D, { z: { q, p: DL.p }, vz: X, az: DL });
    };
    expect(check(0.6, 1.8)).toEqual([true, true, true, true]); // 0.6/0.3 = 1.8/0.9
    expect(check(0.6, 1.5)).toEqual([false, false, false, false]);
  });
});
