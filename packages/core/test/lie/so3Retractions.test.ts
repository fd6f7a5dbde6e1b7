import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError, SingularMatrixError } from '../../src/errors.js';
import { hat3, SO3 } from '../../src/lie/so3.js';
import {
  cay,
  cayInv,
  dcay,
  dcayInv,
  dtauSkew,
  dtauSkewInv,
  so3Cayley,
  so3Exp,
  so3Skew,
  tauSkew,
  tauSkewInv,
} from '../../src/lie/so3Retractions.js';
import type { Retraction } from '../../src/lie/types.js';
import { inv3 } from '../../src/linalg/small.js';
import { describeRetraction } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

for (const R of [so3Exp, so3Cayley, so3Skew]) describeRetraction(R);

// ---------------------------------------------------------------------------------------------
// helpers (independent of the code under test)

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

const mul = (a: ArrayLike<number>, b: ArrayLike<number>): Float64Array => {
  const out = new Float64Array(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += a[i * 3 + k]! * b[k * 3 + j]!;
      out[i * 3 + j] = s;
    }
  return out;
};
const transpose = (a: ArrayLike<number>) =>
  Float64Array.from({ length: 9 }, (_, k) => a[(k % 3) * 3 + Math.floor(k / 3)]!);
const veeSkew = (m: ArrayLike<number>) =>
  Float64Array.of(m[7]! - m[5]!, m[2]! - m[6]!, m[3]! - m[1]!).map((v) => v / 2);

const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
const m9 = () => new Float64Array(9);
const v3 = () => new Float64Array(3);
const neg = (x: Float64Array) => x.map((v) => -v);

/** A vector of R³ with |x| ≤ scale from a seed. */
const point = (seed: number, scale: number): Float64Array => {
  const r = rng(seed);
  for (;;) {
    const v = Float64Array.from({ length: 3 }, () => 2 * r() - 1);
    if (Math.hypot(...v) <= 1) return v.map((x) => x * scale);
  }
};

const FD_STEP = 1e-6;

/**
 * The finite-difference tangent of τ at x in the left trivialization,
 * column j = vee(τ(x)⁻¹·(τ(x + h e_j) − τ(x − h e_j))/(2h)), and in the right one (·τ(x)⁻¹).
 */
const fdTangents = (tau: (out: Float64Array, x: Float64Array) => Float64Array, x: Float64Array) => {
  const Tinv = transpose(tau(m9(), x));
  const left = m9();
  const right = m9();
  for (let j = 0; j < 3; j++) {
    const xp = x.slice();
    const xm = x.slice();
    xp[j] = xp[j]! + FD_STEP;
    xm[j] = xm[j]! - FD_STEP;
    const Tm = tau(m9(), xm);
    const dT = tau(m9(), xp).map((v, i) => (v - Tm[i]!) / (2 * FD_STEP));
    const l = veeSkew(mul(Tinv, dT));
    const r = veeSkew(mul(dT, Tinv));
    for (let i = 0; i < 3; i++) {
      left[i * 3 + j] = l[i]!;
      right[i * 3 + j] = r[i]!;
    }
  }
  return { left, right };
};

/** Domains sampled per retraction: |x| ≤ 2.5 (exp, cay), |s| ≤ 0.95 (skew). */
const cases: [Retraction, number][] = [
  [so3Exp, 2.5],
  [so3Cayley, 2.5],
  [so3Skew, 0.95],
];

// ---------------------------------------------------------------------------------------------

for (const [R, scale] of cases) {
  describe(`SO(3) retraction '${R.name}' (spec 003 §8.1), |x| ≤ ${scale}`, () => {
    it('τ(x)τ(−x) = I (1e-14), τ(x) ∈ SO(3) (1e-14) and τ⁻¹(τ(x)) = x (2e-14 relative)', () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const x = point(seed, scale);
          const g = R.tau(m9(), x);
          expect(maxAbsDiff(mul(g, R.tau(m9(), neg(x))), I3)).toBeLessThan(1e-14);
          expect(maxAbsDiff(mul(transpose(g), g), I3)).toBeLessThan(1e-14);
          expect(maxAbsDiff(R.tauInv(v3(), g), x)).toBeLessThan(2e-14 * (1 + Math.hypot(...x)));
        }),
        { numRuns: 200 },
      );
    });

    it('dτ_x = left FD, dτᴿ_x = right FD (h = 1e-6, 1e-7); dτ·dτ⁻¹ = I (1e-13)', () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const x = point(seed, scale);
          const { left, right } = fdTangents(R.tau, x);
          expect(maxAbsDiff(R.dtau(m9(), x), left)).toBeLessThan(1e-7);
          expect(maxAbsDiff(R.dtauR(m9(), x), right)).toBeLessThan(1e-7);
          expect(maxAbsDiff(mul(R.dtau(m9(), x), R.dtauInv(m9(), x)), I3)).toBeLessThan(1e-13);
          expect(maxAbsDiff(mul(R.dtauR(m9(), x), R.dtauRInv(m9(), x)), I3)).toBeLessThan(1e-13);
        }),
        { numRuns: 100 },
      );
    });

    it('dτᴿ_x = dτ_{−x}, (dτᴿ_x)⁻¹ = dτ⁻¹_{−x}, dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)} (1e-12)', () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const x = point(seed, scale);
          expect(maxAbsDiff(R.dtauR(m9(), x), R.dtau(m9(), neg(x)))).toBeLessThan(1e-12);
          expect(maxAbsDiff(R.dtauRInv(m9(), x), R.dtauInv(m9(), neg(x)))).toBeLessThan(1e-12);
          const Ad = SO3.adj(m9(), R.tau(m9(), x));
          expect(maxAbsDiff(R.dtauInv(m9(), x), mul(R.dtauInv(m9(), neg(x)), Ad))).toBeLessThan(
            1e-12,
          );
        }),
        { numRuns: 200 },
      );
    });
  });
}

describe("exp retraction: the papers' dexp⁻¹ (spec 003 §8.1)", () => {
  it('so3Exp.dtauInv = I + x̂/2 + (1 − (θ/2)cot(θ/2))/θ²·x̂² (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const x = point(seed, 3);
        const th = Math.hypot(...x);
        if (th < 1e-3) return;
        const xh = hat3(m9(), x);
        const xh2 = mul(xh, xh);
        const c = (1 - th / 2 / Math.tan(th / 2)) / (th * th);
        const expected = I3.map((v, i) => v + 0.5 * xh[i]! + c * xh2[i]!);
        expect(maxAbsDiff(so3Exp.dtauInv(m9(), x), expected)).toBeLessThan(1e-14);
      }),
    );
  });
});

describe('Cayley closed forms (spec 003 §8.1)', () => {
  it('cay(x) = (I − x̂/2)⁻¹(I + x̂/2), the rotation by 2·atan(|x|/2) about x (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const x = point(seed, 5);
        const xh = hat3(m9(), x);
        const A = I3.map((v, i) => v - 0.5 * xh[i]!);
        const B = I3.map((v, i) => v + 0.5 * xh[i]!);
        const g = cay(m9(), x);
        expect(maxAbsDiff(g, mul(inv3(m9(), A), B))).toBeLessThan(1e-14);
        const n = Math.hypot(...x);
        const axisAngle = x.map((v) => (n > 0 ? (2 * Math.atan(n / 2) * v) / n : 0));
        expect(maxAbsDiff(g, SO3.exp(m9(), axisAngle))).toBeLessThan(1e-14);
        // cay⁻¹(g) = 2 (g − I)(g + I)⁻¹ as a matrix is x̂
        const gm = g.map((v, i) => 2 * (v - I3[i]!));
        const gp = g.map((v, i) => v + I3[i]!);
        expect(maxAbsDiff(mul(gm, inv3(m9(), gp)), xh)).toBeLessThan(1e-13 * (1 + n * n));
        expect(maxAbsDiff(cayInv(v3(), g), x)).toBeLessThan(1e-14 * (1 + n * n));
      }),
    );
  });

  it('dcay_x = 2/(4 + |x|²)(2I − x̂) and dcay⁻¹_x = I + x̂/2 + xxᵀ/4 entry by entry', () => {
    const x = Float64Array.of(0, 0, 1);
    expect(Array.from(dcayInv(m9(), x))).toEqual([1, -0.5, 0, 0.5, 1, 0, 0, 0, 1.25]);
    expect(Array.from(dcay(m9(), x))).toEqual([0.8, 0.4, 0, -0.4, 0.8, 0, 0, 0, 0.8]);
  });

  it('cayInv throws DomainError at θ = π (1 + tr g = 0)', () => {
    expect(() => cayInv(v3(), Float64Array.of(1, 0, 0, 0, -1, 0, 0, 0, -1))).toThrow(DomainError);
  });

  it('ERRATUM: the literature dcay⁻¹ = I − x̂/2 + xxᵀ/4 fails the left-trivialized FD check (mismatch 4|x|∞/(4 + |x|²) = 0.444 at x = (0.3, −0.4, 0.5)) and passes the right one (1e-7)', () => {
    const x = Float64Array.of(0.3, -0.4, 0.5);
    const xh = hat3(m9(), x);
    const lit = I3.map((v, i) => v - 0.5 * xh[i]! + 0.25 * x[Math.floor(i / 3)]! * x[i % 3]!);
    const litTangent = inv3(m9(), lit);
    const { left, right } = fdTangents(cay, x);
    const mismatchLeft = maxAbsDiff(litTangent, left);
    const mismatchRight = maxAbsDiff(litTangent, right);
    // dcay_{−x} − dcay_x = 4/(4 + |x|²)·x̂: measured 0.4444 = 4·0.5/4.5
    expect(Math.abs(mismatchLeft - (4 * 0.5) / 4.5)).toBeLessThan(1e-7);
    expect(mismatchLeft).toBeGreaterThan(0.44);
    expect(mismatchRight).toBeLessThan(1e-7);
    // ours passes the left one
    expect(maxAbsDiff(dcay(m9(), x), left)).toBeLessThan(1e-7);
    expect(maxAbsDiff(inv3(m9(), dcayInv(m9(), x)), left)).toBeLessThan(1e-7);
  });
});

describe('the plate-ball sine map τ_skew (spec 003 §8.2)', () => {
  it('τ_skew(sin θ·n) = Exp(θn) for θ < π/2 and −½tr(gE_i) = τ_skew⁻¹(g)_i = sin θ n_i (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0, max: 1.5, noNaN: true }), (seed, th) => {
        const n = point(seed, 1);
        const nn = Math.hypot(...n);
        if (nn < 0.1) return;
        const u = n.map((v) => v / nn);
        const g = SO3.exp(
          m9(),
          u.map((v) => v * th),
        );
        expect(
          maxAbsDiff(
            tauSkew(
              m9(),
              u.map((v) => v * Math.sin(th)),
            ),
            g,
          ),
        ).toBeLessThan(1e-14);
        expect(
          maxAbsDiff(
            tauSkewInv(v3(), g),
            u.map((v) => v * Math.sin(th)),
          ),
        ).toBeLessThan(1e-15);
      }),
    );
  });

  it('far branch: the rotation by π − θ about n has the same τ_skew⁻¹ (so τ_skew⁻¹ inverts only θ < π/2)', () => {
    const n = Float64Array.of(0.48, -0.6, 0.64);
    const near = SO3.exp(
      m9(),
      n.map((v) => 0.4 * v),
    );
    const far = SO3.exp(
      m9(),
      n.map((v) => (Math.PI - 0.4) * v),
    );
    expect(maxAbsDiff(tauSkewInv(v3(), near), tauSkewInv(v3(), far))).toBeLessThan(1e-15);
    expect(maxAbsDiff(tauSkew(m9(), tauSkewInv(v3(), far)), far)).toBeGreaterThan(0.5);
  });

  it('dτ⁻¹_s = (tr g·I − gᵀ)/2 with g = τ_skew(s) (1e-15), and dτ_s = inv3 of it (1e-13·cond)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const s = point(seed, 0.99);
        const g = tauSkew(m9(), s);
        const tr = g[0]! + g[4]! + g[8]!;
        const gt = transpose(g);
        const M = I3.map((v, i) => (tr * v - gt[i]!) / 2);
        expect(maxAbsDiff(dtauSkewInv(m9(), s), M)).toBeLessThan(1e-15);
        const c = Math.sqrt(1 - Math.min(1, s[0]! ** 2 + s[1]! ** 2 + s[2]! ** 2));
        expect(maxAbsDiff(dtauSkew(m9(), s), inv3(m9(), M))).toBeLessThan(1e-13 / (c * c));
      }),
    );
  });

  it('domain: tauSkew throws DomainError for |s| ≥ 1; dτ_s throws SingularMatrixError at |s| = 1 (θ = π/2), where dτ⁻¹ is singular', () => {
    expect(() => tauSkew(m9(), Float64Array.of(1, 0, 0))).toThrow(DomainError);
    expect(() => tauSkew(m9(), Float64Array.of(0.7, 0.8, 0))).toThrow(DomainError);
    expect(() => tauSkew(m9(), Float64Array.of(Number.NaN, 0, 0))).toThrow(DomainError);
    expect(() => so3Skew.tau(m9(), Float64Array.of(0, -1, 0))).toThrow(DomainError);
    expect(() => dtauSkew(m9(), Float64Array.of(0, 0, 1))).toThrow(SingularMatrixError);
    expect(() => so3Skew.dtauR(m9(), Float64Array.of(0, 0, 1))).toThrow(SingularMatrixError);
    expect(() => dtauSkew(m9(), Float64Array.of(0.7, 0.8, 0))).toThrow(DomainError);
    const M = dtauSkewInv(m9(), Float64Array.of(0, 0, 1));
    expect(() => inv3(m9(), M)).toThrow(SingularMatrixError);
    // just inside, dτ_s is finite and grows like 1/cos θ
    const s = Float64Array.of(0, 0, Math.sin(Math.PI / 2 - 1e-6));
    const d = dtauSkew(m9(), s);
    expect(d[8]!).toBeGreaterThan(1e5);
    expect(Number.isFinite(d[8]!)).toBe(true);
  });
});

describe('allocation-free, out-first API', () => {
  it('every function returns its out argument', () => {
    const x = Float64Array.of(0.1, -0.2, 0.3);
    const g = m9();
    const t = v3();
    for (const R of [so3Exp, so3Cayley, so3Skew]) {
      expect(R.tau(g, x)).toBe(g);
      expect(R.tauInv(t, g)).toBe(t);
      for (const f of [R.dtau, R.dtauInv, R.dtauR, R.dtauRInv]) {
        const out = m9();
        expect(f(out, x)).toBe(out);
      }
    }
  });
});
