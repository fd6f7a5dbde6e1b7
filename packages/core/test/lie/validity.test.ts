// Validity and projection of group elements (issue 18): isValid, normalize and the cheap
// non-element checks of log, group by group, against independent oracles (an SVD for the nearest
// rotation).
import { describe, expect, it } from 'vitest';
import { LOG_ELEMENT_TOL } from '../../src/constants.js';
import { DomainError } from '../../src/errors.js';
import { SE2 } from '../../src/lie/se2.js';
import { SE3 } from '../../src/lie/se3.js';
import { SEn } from '../../src/lie/sen.js';
import { SO2 } from '../../src/lie/so2.js';
import { SO3 } from '../../src/lie/so3.js';
import { SO3Quat } from '../../src/lie/so3quat.js';
import { svd } from '../../src/linalg/spectral.js';
import { maxAbsDiff, rng } from '../../src/testing/index.js';

const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
const v3 = () => new Float64Array(3);
const m9 = () => new Float64Array(9);

function mul(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[i * n + k]! * b[k * n + j]!;
      out[i * n + j] = s;
    }
  return out;
}

function transpose(a: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[j * n + i] = a[i * n + j]!;
  return out;
}

function det3(a: Float64Array): number {
  return (
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!)
  );
}

/** The nearest rotation U·diag(1, 1, det(UVᵀ))·Vᵀ of M = UΣVᵀ (an SVD oracle, ml-matrix). */
function nearestBySvd(M: Float64Array): Float64Array {
  const { U, V } = svd(M, 3, 3);
  const d = det3(mul(U, transpose(V, 3), 3));
  const Uf = U.slice();
  for (let i = 0; i < 3; i++) Uf[3 * i + 2] = Uf[3 * i + 2]! * Math.sign(d);
  return mul(Uf, transpose(V, 3), 3);
}

const frob = (a: Float64Array, b: Float64Array) =>
  Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0));

describe('SO(3) log rejects non-rotations (issue 18)', () => {
  it('2I and diag(1, 1, −1) throw DomainError instead of returning [0, 0, 0]', () => {
    const twoI = I3.map((x) => 2 * x);
    const flip = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, -1);
    for (const M of [twoI, flip, new Float64Array(9)]) {
      expect(() => SO3.log(v3(), M)).toThrow(DomainError);
      expect(() => SO3.rminus(v3(), M, I3)).toThrow(DomainError);
      expect(() => SO3.lminus(v3(), M, I3)).toThrow(DomainError);
      expect(SO3.isValid(M)).toBe(false);
    }
    const err = (() => {
      try {
        SO3.log(v3(), twoI);
      } catch (e) {
        return e as DomainError;
      }
      return undefined;
    })();
    expect(err?.what).toBe('SO3.log: X');
    expect(err?.value).toBeCloseTo(5.25, 14); // |s|² + c² − 1 = 0 + 2.5² − 1
  });

  it('a rotation scaled by 1 + δ passes for δ ≤ LOG_ELEMENT_TOL/3 and fails beyond 2·LOG_ELEMENT_TOL', () => {
    const r = rng(4);
    for (let k = 0; k < 50; k++) {
      const R = SO3.random(m9(), r);
      const ok = R.map((x) => x * (1 + LOG_ELEMENT_TOL / 3));
      expect(() => SO3.log(v3(), ok)).not.toThrow();
      const bad = R.map((x) => x * (1 + 2 * LOG_ELEMENT_TOL));
      expect(() => SO3.log(v3(), bad)).toThrow(DomainError);
    }
  });

  it('NaN propagates through log (no throw, no finite result)', () => {
    for (let i = 0; i < 9; i++) {
      const R = SO3.random(m9(), rng(i));
      R[i] = Number.NaN;
      const t = SO3.log(v3(), R);
      expect(t.some(Number.isNaN)).toBe(true);
    }
  });
});

describe('SO(3) isValid', () => {
  it('accepts rotations (also drifted by 1e-12) and rejects reflections, scaled matrices, NaN in any entry', () => {
    const r = rng(2);
    for (let k = 0; k < 100; k++) {
      const R = SO3.random(m9(), r);
      expect(SO3.isValid(R)).toBe(true);
      expect(SO3.isValid(R, 1e-15)).toBe(true);
      expect(SO3.isValid(R.map((x) => x * (1 + 1e-12)))).toBe(true);
      expect(SO3.isValid(R.map((x) => x * (1 + 1e-8)))).toBe(false);
      expect(SO3.isValid(R.map((x) => -x))).toBe(false); // det −1
      for (let i = 0; i < 9; i++) {
        const N = R.slice();
        N[i] = Number.NaN;
        expect(SO3.isValid(N)).toBe(false);
        N[i] = Number.POSITIVE_INFINITY;
        expect(SO3.isValid(N)).toBe(false);
      }
    }
  });
});

describe('SO(3) normalize: the nearest rotation in the Frobenius norm', () => {
  it('near SO(3) (Newton–Schulz path): equals the SVD projection to 1e-14, orthogonal to 1e-15 (measured 7.4e-16)', () => {
    const r = rng(8);
    for (let k = 0; k < 200; k++) {
      const R = SO3.random(m9(), r);
      const eps = 10 ** -(1 + 12 * r());
      const M = R.map((x) => x + eps * (2 * r() - 1));
      const P = SO3.normalize(m9(), M);
      expect(maxAbsDiff(P, nearestBySvd(M))).toBeLessThan(1e-14);
      expect(SO3.isValid(P, 1e-15)).toBe(true);
    }
  });

  it('far from SO(3) (quaternion eigenvector path): equals the SVD projection to 1e-13, orthogonal to 1e-15 (measured 8.9e-16)', () => {
    const r = rng(9);
    for (let k = 0; k < 200; k++) {
      const M = Float64Array.from({ length: 9 }, () => 4 * r() - 2);
      const P = SO3.normalize(m9(), M);
      expect(SO3.isValid(P, 1e-15)).toBe(true);
      const Q = nearestBySvd(M);
      // where the nearest rotation is well defined (σ₂ + σ₃ not tiny) the two agree
      const { s } = svd(M, 3, 3);
      const sign = Math.sign(det3(M));
      const gap = s[1]! + sign * s[2]!;
      if (gap > 1e-3) expect(maxAbsDiff(P, Q)).toBeLessThan(1e-13 / gap);
      // and in any case P is as near as the oracle
      expect(frob(P, M)).toBeLessThanOrEqual(frob(Q, M) + 1e-13);
    }
  });

  it('2I ↦ I; diag(1, 1, −1) ↦ a nearest rotation (distance 2, not unique); 0 and NaN throw', () => {
    // scale invariance from near-subnormal to near-overflow magnitudes (both paths)
    const R = SO3.exp(m9(), Float64Array.of(0.3, -1.2, 2));
    for (const s of [1e-300, 1e-200, 3, 1e200, 1e300])
      expect(
        maxAbsDiff(
          SO3.normalize(
            m9(),
            R.map((x) => s * x),
          ),
          R,
        ),
        String(s),
      ).toBeLessThan(1e-15);
    expect(
      maxAbsDiff(
        SO3.normalize(
          m9(),
          I3.map((x) => 2 * x),
        ),
        I3,
      ),
    ).toBeLessThan(1e-15);
    const flip = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, -1);
    const P = SO3.normalize(m9(), flip);
    expect(SO3.isValid(P, 1e-15)).toBe(true);
    expect(Math.abs(frob(P, flip) - 2)).toBeLessThan(1e-15);
    expect(() => SO3.normalize(m9(), new Float64Array(9))).toThrow(DomainError);
    expect(() =>
      SO3.normalize(
        m9(),
        I3.map((x, i) => (i === 4 ? Number.NaN : x)),
      ),
    ).toThrow(DomainError);
  });

  it('restores a rotation drifted over 10⁵ compositions (in place, orthogonal to 1e-15 after)', () => {
    const r = rng(10);
    const R = SO3.random(m9(), r);
    const D = SO3.exp(m9(), Float64Array.of(0.1, -0.2, 0.3));
    for (let k = 0; k < 100000; k++) {
      SO3.compose(R, R, D);
      R[k % 9] = R[k % 9]! * (1 + 1e-12); // exaggerated drift
    }
    expect(SO3.isValid(R, 1e-9)).toBe(false);
    SO3.normalize(R, R);
    expect(SO3.isValid(R, 1e-15)).toBe(true);
  });
});

describe('SO(2), SE(2), SE(3), SEn and quaternions', () => {
  it('SO(2)/SE(2) log: a reflection (no nearest rotation) throws; scaled rotations keep their angle', () => {
    const refl = Float64Array.of(Math.cos(0.3), Math.sin(0.3), Math.sin(0.3), -Math.cos(0.3));
    expect(() => SO2.log(new Float64Array(1), refl)).toThrow(DomainError);
    expect(() => SO2.normalize(new Float64Array(4), refl)).toThrow(DomainError);
    expect(SO2.isValid(refl)).toBe(false);
    const X = Float64Array.of(refl[0]!, refl[1]!, 1, refl[2]!, refl[3]!, 2, 0, 0, 1);
    expect(() => SE2.log(v3(), X)).toThrow(DomainError);
    const R = SO2.exp(new Float64Array(4), Float64Array.of(2.5));
    expect(
      SO2.log(
        new Float64Array(1),
        R.map((x) => 3 * x),
      )[0],
    ).toBeCloseTo(2.5, 15);
    expect(
      maxAbsDiff(
        SO2.normalize(
          new Float64Array(4),
          R.map((x) => 3 * x),
        ),
        R,
      ),
    ).toBeLessThan(1e-16);
  });

  it('SE(3): log rejects a 2I rotation block; isValid checks the last row; normalize resets it', () => {
    const X = SE3.random(new Float64Array(16), rng(3));
    const Y = X.slice();
    for (const i of [0, 5, 10]) Y[i] = 2;
    expect(() => SE3.log(new Float64Array(6), Y)).toThrow(DomainError);
    const Z = X.slice();
    Z[13] = 1e-6;
    expect(SE3.isValid(Z)).toBe(false);
    const P = SE3.normalize(new Float64Array(16), Z);
    expect(maxAbsDiff(P, X)).toBeLessThan(1e-15);
    expect([P[12], P[13], P[14], P[15]]).toEqual([0, 0, 0, 1]);
  });

  it('SE(n): log rejects non-orthogonal blocks and reflections; normalize far and near agree with the SVD oracle', () => {
    const G = SEn(3);
    const twoI = G.identity(new Float64Array(16));
    for (const i of [0, 5, 10]) twoI[i] = 2;
    expect(() => G.log(new Float64Array(6), twoI)).toThrow(DomainError);
    const flip = G.identity(new Float64Array(16));
    flip[10] = -1;
    expect(() => G.log(new Float64Array(6), flip)).toThrow(DomainError);
    expect(G.isValid(flip)).toBe(false);
    const r = rng(12);
    for (let k = 0; k < 50; k++) {
      const M = G.random(new Float64Array(16), r);
      const far = k % 2 === 0;
      for (const i of [0, 1, 2, 4, 5, 6, 8, 9, 10]) M[i] = far ? 4 * r() - 2 : M[i]! + 1e-4 * r();
      const P = G.normalize(new Float64Array(16), M);
      expect(G.isValid(P, 1e-14)).toBe(true);
      const block = Float64Array.of(M[0]!, M[1]!, M[2]!, M[4]!, M[5]!, M[6]!, M[8]!, M[9]!, M[10]!);
      const Q = nearestBySvd(block);
      const Pb = Float64Array.of(P[0]!, P[1]!, P[2]!, P[4]!, P[5]!, P[6]!, P[8]!, P[9]!, P[10]!);
      expect(frob(Pb, block)).toBeLessThanOrEqual(frob(Q, block) + 1e-12);
      expect(maxAbsDiff(Pb, SO3.normalize(m9(), block))).toBeLessThan(far ? 1e-9 : 1e-14);
      expect([P[3], P[7], P[11]]).toEqual([M[3], M[7], M[11]]);
    }
  });

  it('quaternions: log rejects |q| ≠ 1 beyond LOG_ELEMENT_TOL; isValid; normalize divides by |q|', () => {
    const q = SO3Quat.exp(new Float64Array(4), Float64Array.of(0.3, 0.2, 0.1));
    expect(() =>
      SO3Quat.log(
        v3(),
        q.map((x) => 2 * x),
      ),
    ).toThrow(DomainError);
    expect(() =>
      SO3Quat.log(
        v3(),
        q.map((x) => x * (1 + LOG_ELEMENT_TOL / 3)),
      ),
    ).not.toThrow();
    expect(SO3Quat.isValid(q.map((x) => x * (1 + 1e-8)))).toBe(false);
    expect(
      maxAbsDiff(
        SO3Quat.normalize(
          new Float64Array(4),
          q.map((x) => 5 * x),
        ),
        q,
      ),
    ).toBeLessThan(2e-16);
    expect(() => SO3Quat.normalize(new Float64Array(4), new Float64Array(4))).toThrow(DomainError);
  });
});
