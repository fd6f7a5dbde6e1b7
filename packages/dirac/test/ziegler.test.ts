import { DomainError, symmetricEigen } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { ZIEGLER_MAX_LINKS, zieglerColumn } from '../src/holonomicModels.js';
import {
  buckledEquilibria,
  criticalDivergenceLoad,
  flutterLoad,
  followerZieglerLinearization,
  geometricDegreeOfNonconservativity,
  hillLoad,
  isKISS,
  isLinearlyStable,
  linearizeZiegler,
  squaredFrequencies,
  zieglerAnalytic,
  zieglerCriticalLoad,
  zieglerCriticalLoad2,
  zieglerGradient,
  zieglerPotential,
} from '../src/ziegler.js';

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

const lambdaMin = (K: ArrayLike<number>, n: number): number => symmetricEigen(K, n).values[0]!;

describe('linearizeZiegler (spec 001 §7.2)', () => {
  it('gives the printed K and M_θ for n = 2, unequal lengths', () => {
    const [k, m, l1, l2, P] = [1.3, 0.7, 0.9, 1.6, 0.21];
    const { K, M } = linearizeZiegler({ k, m, lengths: [l1, l2] });
    expect(maxAbsDiff(K(P), [2 * k - 2 * P * l1, -k, -k, k - P * l2])).toBeLessThan(1e-15);
    expect(maxAbsDiff(M, [2 * m * l1 * l1, m * l1 * l2, m * l1 * l2, m * l2 * l2])).toBeLessThan(
      1e-15,
    );
  });

  it('K(P) equals zieglerColumn.stiffnessMatrix and the Hessian of V(θ) at 0 (n = 1..8)', () => {
    for (let n = 1; n <= 8; n++) {
      const P = 0.05 * n;
      const z = zieglerColumn({ n, P, k: 1.2, l: 0.8 });
      const K = linearizeZiegler({ n, k: 1.2, l: 0.8 }).K(P);
      expect(maxAbsDiff(K, z.stiffnessMatrix(P))).toBeLessThan(1e-15);
      // central second differences of the angle potential; O(ε^{1/2}) ≈ 1e-6 accurate
      const e = 1e-4;
      const H = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const t = (di: number, dj: number): number => {
            const th = new Float64Array(n);
            th[i] = th[i]! + di;
            th[j] = th[j]! + dj;
            return z.potentialFromAngles(th);
          };
          H[i * n + j] = (t(e, e) - t(e, -e) - t(-e, e) + t(-e, -e)) / (4 * e * e);
        }
      }
      expect(maxAbsDiff(K, H)).toBeLessThan(1e-6);
    }
  });

  it('M_θ = Jᵀ diag(m) J with J = ∂q/∂θ at θ = 0 (n = 4, finite differences, 1e-8)', () => {
    const n = 4;
    const m = 1.7;
    const z = zieglerColumn({ n, m, l: 1.1 });
    const { M } = linearizeZiegler({ n, m, l: 1.1 });
    const e = 1e-7;
    const J = new Float64Array(2 * n * n);
    for (let c = 0; c < n; c++) {
      const tp = new Float64Array(n);
      const tm = new Float64Array(n);
      tp[c] = e;
      tm[c] = -e;
      const qp = z.fromAngles(tp);
      const qm = z.fromAngles(tm);
      for (let r = 0; r < 2 * n; r++) J[r * n + c] = (qp[r]! - qm[r]!) / (2 * e);
    }
    const JtMJ = new Float64Array(n * n);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        let s = 0;
        for (let r = 0; r < 2 * n; r++) s += m * J[r * n + a]! * J[r * n + b]!;
        JtMJ[a * n + b] = s;
      }
    }
    expect(maxAbsDiff(M, JtMJ)).toBeLessThan(1e-8);
  });

  it('upright ω² for k = m = l = 1 (spec §7.2): 3 ∓ 2√2 at P = 0, and the P = 0.2, 0.29 values', () => {
    const { K, M } = linearizeZiegler({ n: 2 });
    const w = (P: number): number[] =>
      Array.from(squaredFrequencies(K(P), M, 2).re).sort((a, b) => a - b);
    expect(maxAbsDiff(w(0), [3 - 2 * Math.SQRT2, 3 + 2 * Math.SQRT2])).toBeLessThan(1e-13);
    expect(maxAbsDiff(w(0.2), [0.0544156, 5.1455844])).toBeLessThan(1e-7);
    expect(maxAbsDiff(w(0.29), [0.00169481, 4.83830519])).toBeLessThan(1e-8);
    expect(zieglerAnalytic({ k: 1, l: 1, m: 1 }).omega2AtZeroLoad[0]).toBeCloseTo(w(0)[0]!, 14);
  });
});

describe('critical load P_c (spec §7.2)', () => {
  it('closed form = eigenvalue bisection for n = 2 to 1e-12 (equal and unequal lengths)', () => {
    const Pc = zieglerCriticalLoad({ n: 2 });
    expect(Math.abs(Pc - (1 - Math.SQRT1_2))).toBeLessThan(1e-12);
    expect(Math.abs(zieglerCriticalLoad2(1, 1, 1) - (1 - Math.SQRT1_2))).toBeLessThan(1e-15);
    for (const [k, l1, l2] of [
      [1, 1, 1],
      [2.5, 0.7, 1.9],
      [0.3, 2, 0.5],
    ] as const) {
      const closed = zieglerCriticalLoad2(k, l1, l2);
      // the printed form k[(l1 + l2) − √(l1² + l2²)]/(2 l1 l2)
      const printed = (k * (l1 + l2 - Math.hypot(l1, l2))) / (2 * l1 * l2);
      expect(Math.abs(closed - printed) / closed).toBeLessThan(1e-14);
      const eig = zieglerCriticalLoad({ k, lengths: [l1, l2] });
      expect(Math.abs(eig - closed) / closed).toBeLessThan(1e-12);
      // det K = 2P² l1 l2 − 2P k (l1 + l2) + k² vanishes there
      const det = 2 * closed * closed * l1 * l2 - 2 * closed * k * (l1 + l2) + k * k;
      expect(Math.abs(det)).toBeLessThan(1e-14 * k * k);
    }
    // the second root of det K = 0 (spec §7.2) is (1 + 1/√2) k/l
    const { K } = linearizeZiegler({ n: 2 });
    const P2 = zieglerAnalytic({ k: 1, l: 1, m: 1 }).pcDeadEachJointSecond;
    const k2 = K(P2);
    expect(Math.abs(k2[0]! * k2[3]! - k2[1]! * k2[2]!)).toBeLessThan(1e-14);
  });

  it('n = 3..8: P_c is the generalized eigenvalue, decreases with n, and n³P_c increases', () => {
    let prev = zieglerCriticalLoad({ n: 2 });
    let prevScaled = 8 * prev;
    for (let n = 3; n <= 8; n++) {
      const lin = linearizeZiegler({ n });
      const Pc = zieglerCriticalLoad({ n });
      // independent: smallest eigenvalue of D^{-1/2} K0 D^{-1/2}
      const S = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          S[i * n + j] = lin.K0[i * n + j]! / Math.sqrt(lin.D[i]! * lin.D[j]!);
        }
      }
      expect(Math.abs(Pc - lambdaMin(S, n)) / Pc).toBeLessThan(1e-12);
      expect(Math.abs(lambdaMin(lin.K(Pc), n))).toBeLessThan(1e-13);
      expect(lambdaMin(lin.K(0.999 * Pc), n)).toBeGreaterThan(0);
      expect(lambdaMin(lin.K(1.001 * Pc), n)).toBeLessThan(0);
      expect(Pc).toBeLessThan(prev);
      // toward the heavy-column (Greenhill) limit, n³ P_c l/k grows with n
      expect(n ** 3 * Pc).toBeGreaterThan(prevScaled);
      prev = Pc;
      prevScaled = n ** 3 * Pc;
    }
    expect(zieglerCriticalLoad({ n: 3 })).toBeCloseTo(0.12314189233792172, 14);
    expect(zieglerCriticalLoad({ n: 8 })).toBeCloseTo(0.010764078756606121, 14);
  });

  it('P_c ∝ 1/l for equal lengths (δP_c/P_c = −δl/l, spec §7.2)', () => {
    expect(zieglerCriticalLoad({ n: 2, l: 1.1 }) * 1.1).toBeCloseTo(1 - Math.SQRT1_2, 13);
    expect((zieglerCriticalLoad({ n: 5, l: 0.5, k: 2 }) * 0.5) / 2).toBeCloseTo(
      zieglerCriticalLoad({ n: 5 }),
      13,
    );
  });
});

describe('buckledEquilibria (spec §7.2 table, k = m = l = 1)', () => {
  const table: readonly (readonly [number, number, number])[] = [
    [0.3, 0.30981636990293915, 0.4367024872887203],
    [0.35, 0.846083121638156, 1.168083540771847],
    [0.5, 1.4621563892060563, 1.9302082944556338],
    [1.0, 2.153472598860924, 2.636959207800629],
  ];

  it('none besides upright below P_c (P = 0.25)', () => {
    expect(buckledEquilibria({ n: 2 }, 0.25)).toHaveLength(0);
  });

  it.each(table)(
    'P = %f: the table pair and its mirror, residual ≤ 1e-10, below upright',
    (P, t1, t2) => {
      const eqs = buckledEquilibria({ n: 2 }, P);
      expect(eqs).toHaveLength(2);
      const [a, b] = eqs as [(typeof eqs)[0], (typeof eqs)[0]];
      expect(maxAbsDiff(a.theta, [t1, t2])).toBeLessThan(1e-10);
      expect(maxAbsDiff(b.theta, [-t1, -t2])).toBeLessThan(1e-10);
      const upright = zieglerPotential({ n: 2 }, P, [0, 0]);
      expect(upright).toBeCloseTo(3 * P, 15);
      for (const e of eqs) {
        expect(e.residual).toBeLessThanOrEqual(1e-10);
        const g = zieglerGradient({ n: 2 }, P, e.theta);
        expect(Math.max(Math.abs(g[0]!), Math.abs(g[1]!))).toBeLessThanOrEqual(1e-10);
        expect(e.energy).toBeLessThan(upright);
        expect(e.stable).toBe(true);
        // the same energy from the Cartesian model's angle potential
        expect(zieglerColumn({ n: 2, P }).potentialFromAngles(e.theta)).toBeCloseTo(e.energy, 14);
      }
    },
  );

  it('with the Dirac-1-drifted lengths (1.1027, 1.1981) at P = 0.97 P_c(1): ±(0.650887, 0.922141) (§7.3)', () => {
    const P = 0.97 * zieglerCriticalLoad2(1, 1, 1);
    expect(zieglerCriticalLoad2(1, 1.1027, 1.1981)).toBeCloseTo(0.254511, 6);
    const eqs = buckledEquilibria({ lengths: [1.1027, 1.1981] }, P);
    expect(eqs).toHaveLength(2);
    expect(maxAbsDiff(eqs[1]!.theta, [-0.650887, -0.922141])).toBeLessThan(1e-6);
    // and with the original lengths this load is sub-critical: no buckled state
    expect(buckledEquilibria({ n: 2 }, P)).toHaveLength(0);
  });

  it('n = 3 and n = 5 slightly above P_c: small buckled states, residual ≤ 1e-10, below upright', () => {
    for (const n of [3, 5]) {
      const P = 1.05 * zieglerCriticalLoad({ n });
      const eqs = buckledEquilibria({ n }, P);
      expect(eqs.length).toBeGreaterThanOrEqual(2);
      const upright = zieglerPotential({ n }, P, new Float64Array(n));
      for (const e of eqs) {
        expect(e.residual).toBeLessThanOrEqual(1e-10);
        expect(e.energy).toBeLessThan(upright);
      }
      // the smallest buckled amplitude is O(√(P/P_c − 1)) ≈ 0.2–0.6 rad, not a large rotation
      const amp = Math.min(...eqs.map((e) => Math.max(...Array.from(e.theta, Math.abs))));
      expect(amp).toBeGreaterThan(0.05);
      expect(amp).toBeLessThan(1);
    }
  });
});

describe('§8 non-conservativity: GDNC, KISS, classical follower-force column', () => {
  const A = zieglerAnalytic({ k: 1, l: 1, m: 1 });

  it('closed-form values of spec §8 (k = l = m = 1)', () => {
    expect(A.pcDeadEachJoint).toBeCloseTo(0.292893, 6);
    expect(A.pcDeadEachJointSecond).toBeCloseTo(1.707107, 6);
    expect(A.pfFollower).toBeCloseTo(2.085786, 6);
    expect(A.pfFollowerSecond).toBeCloseTo(4.914214, 6);
    expect(A.pkFollower).toBe(2);
    expect(A.pParadox).toBeCloseTo(1.464286, 6);
    expect(A.pParadoxIdentityDamping).toBeCloseTo(5 / 3, 15);
    expect(A.pDivDeadTip).toBeCloseTo(0.381966, 6);
    // scaling k/l
    expect(zieglerAnalytic({ k: 3, l: 2, m: 5 }).pfFollower).toBeCloseTo(1.5 * A.pfFollower, 14);
  });

  it('follower column: flutter at P_f = (7/2 − √2)k/l, Hill/KISS load 2k/l, no divergence', () => {
    const { K, M, n } = followerZieglerLinearization({});
    expect(Math.abs(flutterLoad(K, M, n, { Pmax: 3 })! - A.pfFollower)).toBeLessThan(1e-9);
    expect(Math.abs(hillLoad(K, n, { Pmax: 5 })! - A.pkFollower)).toBeLessThan(1e-12);
    expect(criticalDivergenceLoad(K, n, { Pmax: 10 })).toBeUndefined();
    for (const P of [0, 1, 2, 5]) {
      const k = K(P);
      expect(k[0]! * k[3]! - k[1]! * k[2]!).toBeCloseTo(1, 14); // det K = k²
    }
    // the characteristic polynomial 2ω⁴ + (2P − 7)ω² + 1 (m = k = l = 1) at P = 1
    const w = squaredFrequencies(K(1), M, 2);
    for (const z of w.re) expect(2 * z * z + (2 - 7) * z + 1).toBeCloseTo(0, 13);
  });

  it('dead tip load only: divergence at (3 − √5)/2 · k/l', () => {
    const K = (P: number): Float64Array => Float64Array.of(2 - P, -1, -1, 1 - P);
    expect(Math.abs(criticalDivergenceLoad(K, 2, { Pmax: 1 })! - A.pDivDeadTip)).toBeLessThan(
      1e-12,
    );
  });

  it('GDNC: 0 for the paper model, 1 for the follower column, and W makes K symmetric', () => {
    expect(geometricDegreeOfNonconservativity(linearizeZiegler({ n: 4 }).K(0.05), 4).degree).toBe(
      0,
    );
    const K = followerZieglerLinearization({}).K(1.3);
    const g = geometricDegreeOfNonconservativity(K, 2);
    expect(g.degree).toBe(1);
    expect(g.rankKa).toBe(2);
    expect(
      geometricDegreeOfNonconservativity(followerZieglerLinearization({}).K(0), 2).degree,
    ).toBe(0);
    // a non-symmetric 5×5 with K_a of rank 4: GDNC 2; restricted stiffness symmetric
    const n = 5;
    const B = Float64Array.from({ length: n * n }, (_, i) => Math.sin(1.7 * i + 0.3));
    const r = geometricDegreeOfNonconservativity(B, n);
    expect(r.degree).toBe(2);
    const d = n - r.degree;
    const W = r.conservativeSubspace;
    const R = new Float64Array(d * d);
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        let s = 0;
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) s += W[i * d + a]! * B[i * n + j]! * W[j * d + b]!;
        }
        R[a * d + b] = s;
      }
    }
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++)
        expect(Math.abs(R[a * d + b]! - R[b * d + a]!)).toBeLessThan(1e-13);
    }
    // the constraint normals annihilate W
    for (let c = 0; c < r.degree; c++) {
      for (let a = 0; a < d; a++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += r.constraints[c * n + i]! * W[i * d + a]!;
        expect(Math.abs(s)).toBeLessThan(1e-13);
      }
    }
  });

  it('KISS: follower column loses KISS at 2k/l while still stable up to P_f; paper model at P_c', () => {
    const { K, M } = followerZieglerLinearization({});
    expect(isKISS(K(1.9), M, 2)).toBe(true);
    expect(isLinearlyStable(K(2.05), M, 2)).toBe(true);
    expect(isKISS(K(2.05), M, 2)).toBe(false);
    expect(isLinearlyStable(K(2.2), M, 2)).toBe(false); // flutter
    const lin = linearizeZiegler({ n: 2 });
    expect(isKISS(lin.K(0.29), lin.M, 2)).toBe(true);
    expect(isKISS(lin.K(0.3), lin.M, 2)).toBe(false);
    // n = 3, symmetric: KISS ⇔ P < P_c (sampled subspaces agree)
    const l3 = linearizeZiegler({ n: 3 });
    const Pc3 = zieglerCriticalLoad({ n: 3 });
    expect(isKISS(l3.K(0.99 * Pc3), l3.M, 3, { samples: 50 })).toBe(true);
    expect(isKISS(l3.K(1.01 * Pc3), l3.M, 3, { samples: 50 })).toBe(false);
  });
});

describe('spring angles between links (holonomicModels relativeAngle)', () => {
  it('V and ∇V are continuous when two neighbouring links cross the downward vertical together', () => {
    // links 1 and 2 pointing down, on either side of −y: absolute atan2 angles π − ε and −π + ε,
    // the spring between them is bent by 2ε, not by 2π − 2ε (the energy jumped by ≈ 14 before)
    const z = zieglerColumn({ n: 2, P: 0, k: 1 });
    const eps = 1e-3;
    const left = z.fromAngles([Math.PI - eps, Math.PI - 3 * eps]);
    const right = z.fromAngles([Math.PI - eps, -Math.PI + eps]);
    const vl = z.V(left);
    const vr = z.V(right);
    // ½k((π − ε)² + (2ε)²) vs ½k((π − ε)² + (−2ε)²) up to the sign of the bend: equal
    expect(vr).toBeCloseTo(0.5 * ((Math.PI - eps) ** 2 + (2 * eps) ** 2), 12);
    expect(Math.abs(vl - vr)).toBeLessThan(1e-12);
    const gl = z.gradV(new Float64Array(4), left);
    const gr = z.gradV(new Float64Array(4), right);
    // the bend torque ±2kε on link 2: small, bounded by 10ε in every entry on both sides
    for (let i = 2; i < 4; i++) {
      expect(Math.abs(gl[i]!)).toBeLessThan(10 * eps);
      expect(Math.abs(gr[i]!)).toBeLessThan(10 * eps);
    }
  });

  it('the ordinary regime is unchanged: V at small angles equals ½kΣ(θᵢ − θᵢ₋₁)² + P Σ yᵢ', () => {
    const z = zieglerColumn({ n: 3, P: 0.2, k: 1.3 });
    const th = [0.3, -0.2, 0.5];
    const q = z.fromAngles(th);
    const springs = 0.5 * 1.3 * (0.3 ** 2 + 0.5 ** 2 + 0.7 ** 2);
    const heights =
      Math.cos(0.3) +
      (Math.cos(0.3) + Math.cos(-0.2)) +
      (Math.cos(0.3) + Math.cos(-0.2) + Math.cos(0.5));
    expect(z.V(q)).toBeCloseTo(springs + 0.2 * heights, 13);
  });
});

describe('zieglerColumn size limit', () => {
  it('refuses more than ZIEGLER_MAX_LINKS links before any work (a DomainError naming n)', () => {
    expect(ZIEGLER_MAX_LINKS).toBe(2000);
    expect(zieglerColumn({ n: ZIEGLER_MAX_LINKS }).links).toBe(2000);
    expect(() => zieglerColumn({ n: ZIEGLER_MAX_LINKS + 1 })).toThrow(DomainError);
    expect(() => zieglerColumn({ n: 1e6 })).toThrow(/zieglerColumn: n/);
  });
});
