/**
 * Exact discrete contact Lagrangians (spec 004 §6, §8.1, §8.2). Labels: [P] stated in the paper,
 * [D] derived (spec 004 reference computations), [S] library suggestion.
 */
import {
  DomainError,
  finiteDifferenceJacobian,
  GeomechError,
  NewtonDivergedError,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dampedOscillatorExactLd,
  FREE_PARTICLE_SERIES_THRESHOLD,
  freeParticleExactLd,
  freeParticleExactLdPrinted,
  OSCILLATOR_CRITICAL_SERIES_THRESHOLD,
} from '../src/exact.js';
import { ContactIntegrator } from '../src/integrator.js';
import { mechanicalContactLagrangian, pendulumPotential } from '../src/mechanical.js';
import {
  contactExponentialMap,
  exactRetractionMinus,
  exactRetractionPlus,
  numericExactLd,
  shootExact,
} from '../src/shooting.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from '../src/types.js';
import { zDependentLagrangianAnalytic } from './integratorFixtures.js';

// ---------------------------------------------------------------------------------------------
// Hand-built contact Lagrangians (independent of the package's own builders)

/** L = ½|v|² − ½k|q|² + γz on Rⁿ (k = 0: the free particle of §8.1; k = 1: Example 2). */
function oscillator(k: number, gamma: number, n = 1): ContactLagrangian {
  return {
    n,
    L(q, v, z) {
      let s = 0;
      for (let i = 0; i < n; i++) s += v[i]! * v[i]! - k * q[i]! * q[i]!;
      return 0.5 * s + gamma * z;
    },
    Lq(out, q) {
      for (let i = 0; i < n; i++) out[i] = -k * q[i]!;
      return out;
    },
    Lv(out, _q, v) {
      for (let i = 0; i < n; i++) out[i] = v[i]!;
      return out;
    },
    Lz: () => gamma,
    Lqq(out) {
      out.fill(0);
      for (let i = 0; i < n; i++) out[i * n + i] = -k;
      return out;
    },
    Lvq: (out) => out.fill(0),
    Lvv(out) {
      out.fill(0);
      for (let i = 0; i < n; i++) out[i * n + i] = 1;
      return out;
    },
    Lqz: (out) => out.fill(0),
    Lvz: (out) => out.fill(0),
    Lzz: () => 0,
  };
}

/**
 * A 2-D L = ½vᵀMv − V(q) + γz − αz²/2 + εz(c·v) with a non-identity mass matrix M (so W = L_vv is
 * solved, not inverted by hand), V = ½(q₀² + 2q₁²) + 0.1q₀²q₁, and a z–v coupling that makes
 * ∇_{q1}D_z nonzero.
 */
function coupled2d(gamma = -0.3, alpha = 0.2, eps = 0.1): ContactLagrangian {
  const M = [2, 0.3, 0.3, 1];
  const c = [1, -0.5];
  return {
    n: 2,
    L(q, v, z) {
      const a = q[0]!;
      const b = q[1]!;
      const kin = 0.5 * (M[0]! * v[0]! * v[0]! + 2 * M[1]! * v[0]! * v[1]! + M[3]! * v[1]! * v[1]!);
      const V = 0.5 * (a * a + 2 * b * b) + 0.1 * a * a * b;
      return kin - V + gamma * z - 0.5 * alpha * z * z + eps * z * (c[0]! * v[0]! + c[1]! * v[1]!);
    },
    Lq(out, q) {
      out[0] = -(q[0]! + 0.2 * q[0]! * q[1]!);
      out[1] = -(2 * q[1]! + 0.1 * q[0]! * q[0]!);
      return out;
    },
    Lv(out, _q, v, z) {
      out[0] = M[0]! * v[0]! + M[1]! * v[1]! + eps * z * c[0]!;
      out[1] = M[2]! * v[0]! + M[3]! * v[1]! + eps * z * c[1]!;
      return out;
    },
    Lz: (_q, v, z) => gamma - alpha * z + eps * (c[0]! * v[0]! + c[1]! * v[1]!),
    Lqq(out, q) {
      out[0] = -(1 + 0.2 * q[1]!);
      out[1] = -0.2 * q[0]!;
      out[2] = -0.2 * q[0]!;
      out[3] = -2;
      return out;
    },
    Lvq: (out) => out.fill(0),
    Lvv(out) {
      out.set(M);
      return out;
    },
    Lqz: (out) => out.fill(0),
    Lvz(out) {
      out[0] = eps * c[0]!;
      out[1] = eps * c[1]!;
      return out;
    },
    Lzz: () => -alpha,
  };
}

const vec = (...x: number[]): Float64Array => Float64Array.from(x);
const real = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Central-difference gradients of L_d in q0, q1 (n each) and z0, by core's FD kernel. */
function fdGradients(
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
) {
  const n = Ld.n;
  const x = new Float64Array(2 * n + 1);
  x.set(q0, 0);
  x.set(q1, n);
  x[2 * n] = z0;
  const f = (out: Float64Array, y: Float64Array): void => {
    out[0] = Ld.Ld(y.subarray(0, n), y.subarray(n, 2 * n), y[2 * n]!);
  };
  const g = finiteDifferenceJacobian(new Float64Array(2 * n + 1), f, x, 1, 2 * n + 1);
  return { D1: g.subarray(0, n), D2: g.subarray(n, 2 * n), Dz: g[2 * n]! };
}

/** Central differences in q1 of D1 (n×n) and D_z (n). */
function fdQ1(Ld: DiscreteContactLagrangian, q0: Float64Array, q1: Float64Array, z0: number) {
  const n = Ld.n;
  const fD1 = (out: Float64Array, y: Float64Array): void => {
    Ld.D1(out, q0, y, z0);
  };
  const fDz = (out: Float64Array, y: Float64Array): void => {
    out[0] = Ld.Dz(q0, y, z0);
  };
  return {
    D2D1: finiteDifferenceJacobian(new Float64Array(n * n), fD1, Float64Array.from(q1), n, n),
    D2Dz: finiteDifferenceJacobian(new Float64Array(n), fDz, Float64Array.from(q1), 1, n),
  };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThanOrEqual(tol);
  }
}

// ---------------------------------------------------------------------------------------------

describe('freeParticleExactLd: corrected (78) (spec 004 §8.1, §11.1)', () => {
  const gamma = -0.05;
  const h = 0.5;
  const free = oscillator(0, gamma);
  const Ld = freeParticleExactLd(gamma, h);

  it('[D] corrected (78) equals numerical shooting at (1, 2, 3, 0.5): 0.9134818188758024, to 1e-12', () => {
    const closed = Ld.Ld(vec(1), vec(2), 3);
    const shot = shootExact(free, h, [1], [2], 3);
    // spec reference (computed with e^{γh} − 1 in double; exact value 0.91348181887580469…)
    expect(Math.abs(closed - 0.9134818188758024)).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(shot.value - closed)).toBeLessThanOrEqual(1e-12);
  });

  it('[P] erratum: the printed (78) gives 1.0616223467058066 and misses shooting by > 0.1', () => {
    const printed = freeParticleExactLdPrinted(gamma, h)([1], [2], 3);
    const shot = shootExact(free, h, [1], [2], 3).value;
    expect(Math.abs(printed - 1.0616223467058066)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(printed - shot)).toBeGreaterThan(0.1);
    // the error is exactly the flipped z0 term: printed − exact = −2 z0 (e^{γh} − 1)
    expect(Math.abs(printed - shot + 2 * 3 * Math.expm1(gamma * h))).toBeLessThanOrEqual(1e-12);
  });

  it('[D] with z0 = 0 printed, corrected and shooting all give 0.9875520827908045 (1e-12)', () => {
    const closed = Ld.Ld(vec(1), vec(2), 0);
    const printed = freeParticleExactLdPrinted(gamma, h)([1], [2], 0);
    const shot = shootExact(free, h, [1], [2], 0);
    expect(Math.abs(closed - 0.9875520827908045)).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(printed - 0.9875520827908045)).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(shot.value - closed)).toBeLessThanOrEqual(1e-12);
    // exact v0 of spec 004 §8.1
    expect(Math.abs(shot.v0[0]! - 2.025104165581609)).toBeLessThanOrEqual(1e-12);
  });

  it('[D] (64): derivatives match finite differences (1e-7); D_z = e^{γh} − 1; −D1/(1 + D_z) = q̇(0)', () => {
    fc.assert(
      fc.property(real(-3, 3), real(-3, 3), real(-5, 5), real(-3, 3), (a, b, z0, c) => {
        const L3 = freeParticleExactLd(gamma, h, 2);
        const q0 = vec(a, c);
        const q1 = vec(b, a - c);
        const fd = fdGradients(L3, q0, q1, z0);
        expectClose(L3.D1(new Float64Array(2), q0, q1, z0), fd.D1, 1e-7);
        expectClose(L3.D2(new Float64Array(2), q0, q1, z0), fd.D2, 1e-7);
        expect(Math.abs(L3.Dz(q0, q1, z0) - fd.Dz)).toBeLessThanOrEqual(1e-7);
        expect(L3.Dz(q0, q1, z0)).toBe(Math.expm1(gamma * h));
        const fq = fdQ1(L3, q0, q1, z0);
        expectClose(L3.D2D1(new Float64Array(4), q0, q1, z0), fq.D2D1, 1e-7);
        expectClose(L3.D2Dz(new Float64Array(2), q0, q1, z0), fq.D2Dz, 0);
        // −D1/(1 + D_z) = v0 = γ(q1 − q0)/(e^{γh} − 1), the exact q̇(0)
        const D1 = L3.D1(new Float64Array(2), q0, q1, z0);
        for (let i = 0; i < 2; i++) {
          const v0 = (gamma * (q1[i]! - q0[i]!)) / Math.expm1(gamma * h);
          expect(Math.abs(-D1[i]! / (1 + L3.Dz(q0, q1, z0)) - v0)).toBeLessThanOrEqual(
            1e-14 * Math.max(1, Math.abs(v0)),
          );
        }
      }),
      { numRuns: 50 },
    );
  });

  it('[D] γ → 0: reduces to |q1 − q0|²/(2h), continuous across FREE_PARTICLE_SERIES_THRESHOLD', () => {
    const q0 = vec(0.3);
    const q1 = vec(1.7);
    expect(freeParticleExactLd(0, h).Ld(q0, q1, 5)).toBe((1.4 * 1.4) / (2 * h));
    expect(freeParticleExactLd(0, h).Dz(q0, q1, 5)).toBe(0);
    for (const sign of [-1, 1]) {
      const gIn = (sign * FREE_PARTICLE_SERIES_THRESHOLD * (1 - 1e-12)) / h;
      const gOut = (sign * FREE_PARTICLE_SERIES_THRESHOLD * (1 + 1e-12)) / h;
      const a = freeParticleExactLd(gIn, h);
      const b = freeParticleExactLd(gOut, h);
      const va = a.Ld(q0, q1, 2);
      const vb = b.Ld(q0, q1, 2);
      expect(Math.abs(va - vb)).toBeLessThanOrEqual(1e-15 * Math.abs(va));
      const da = a.D2(new Float64Array(1), q0, q1, 2)[0]!;
      const db = b.D2(new Float64Array(1), q0, q1, 2)[0]!;
      expect(Math.abs(da - db)).toBeLessThanOrEqual(1e-15 * Math.abs(da));
    }
  });

  it('[D] rejects h ≤ 0, non-finite γ and n < 1', () => {
    expect(() => freeParticleExactLd(-0.05, 0)).toThrow(DomainError);
    expect(() => freeParticleExactLd(Number.NaN, 0.5)).toThrow(DomainError);
    expect(() => freeParticleExactLd(-0.05, 0.5, 0)).toThrow(GeomechError);
  });
});

describe('dampedOscillatorExactLd: closed form of spec 004 §8.2 [D]', () => {
  const cases = [
    { k: 1, gamma: -0.05, regime: 'underdamped' },
    { k: 2, gamma: -0.3, regime: 'underdamped' },
    { k: 1, gamma: -3, regime: 'overdamped' },
    { k: 1, gamma: -2, regime: 'critical' },
    { k: 4, gamma: 0.7, regime: 'underdamped' },
  ] as const;
  const points = [
    [1, 2, 0],
    [1, 2, 3],
    [0, 1, 0],
    [-0.7, 0.4, -1.3],
  ] as const;

  for (const { k, gamma, regime } of cases) {
    it(`[D] (k, γ) = (${k}, ${gamma}), ${regime}: value, D1, D2, D_z match shooting to 1e-10`, () => {
      const h = 0.5;
      const Ld = dampedOscillatorExactLd(k, gamma, h);
      expect(Ld.regime).toBe(regime);
      expect(Ld.name).toBe('exact');
      expect(Ld.traits.isExact).toBe(true);
      const L = oscillator(k, gamma);
      for (const [a, b, z0] of points) {
        const q0 = vec(a);
        const q1 = vec(b);
        const shot = shootExact(L, h, q0, q1, z0);
        expect(Math.abs(Ld.Ld(q0, q1, z0) - shot.value)).toBeLessThanOrEqual(1e-10);
        expectClose(Ld.D1(new Float64Array(1), q0, q1, z0), shot.D1, 1e-10);
        expectClose(Ld.D2(new Float64Array(1), q0, q1, z0), shot.D2, 1e-10);
        expect(Math.abs(Ld.Dz(q0, q1, z0) - shot.Dz)).toBeLessThanOrEqual(1e-10);
        expect(Math.abs(Ld.Dz(q0, q1, z0) - Math.expm1(gamma * h))).toBeLessThanOrEqual(1e-16);
        expectClose(Ld.D2D1(new Float64Array(1), q0, q1, z0), shot.D2D1, 1e-8);
      }
    });
  }

  it('[D] (64): derivatives match finite differences of the value (1e-7), all regimes, n = 2', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        real(-2, 2),
        real(-2, 2),
        real(-2, 2),
        real(-2, 2),
        real(-3, 3),
        (cs, a, b, c, d, z0) => {
          const Ld = dampedOscillatorExactLd(cs.k, cs.gamma, 0.5, 2);
          const q0 = vec(a, b);
          const q1 = vec(c, d);
          const fd = fdGradients(Ld, q0, q1, z0);
          expectClose(Ld.D1(new Float64Array(2), q0, q1, z0), fd.D1, 1e-7);
          expectClose(Ld.D2(new Float64Array(2), q0, q1, z0), fd.D2, 1e-7);
          expect(Math.abs(Ld.Dz(q0, q1, z0) - fd.Dz)).toBeLessThanOrEqual(1e-7);
          const fq = fdQ1(Ld, q0, q1, z0);
          expectClose(Ld.D2D1(new Float64Array(4), q0, q1, z0), fq.D2D1, 1e-7);
          expectClose(Ld.D2Dz(new Float64Array(2), q0, q1, z0), fq.D2Dz, 0);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('[D] −D1/(1 + D_z) = q̇(0) = 2.3684249328025526 (caption IC, γ = −0.05) to 1e-14', () => {
    const Ld = dampedOscillatorExactLd(1, -0.05, 0.5);
    const q0 = vec(1);
    const q1 = vec(2);
    const p0 = -Ld.D1(new Float64Array(1), q0, q1, 0)[0]! / (1 + Ld.Dz(q0, q1, 0));
    expect(Math.abs(p0 - 2.3684249328025526)).toBeLessThanOrEqual(1e-14);
    // and q̇(h) of q(t) = e^{γt/2}(q0 cos wt + B sin wt) equals D2
    const g = -0.05;
    const h = 0.5;
    const w = Math.sqrt(1 - (g * g) / 4);
    expect(Math.abs(Ld.w - 0.9996874511566103)).toBeLessThanOrEqual(1e-16);
    const B = (2 * Math.exp((-g * h) / 2) - Math.cos(w * h)) / Math.sin(w * h);
    const qdot = (t: number) =>
      Math.exp((g * t) / 2) *
      ((g / 2) * (Math.cos(w * t) + B * Math.sin(w * t)) +
        w * (B * Math.cos(w * t) - Math.sin(w * t)));
    expect(Math.abs(qdot(0) - p0)).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(qdot(h) - Ld.D2(new Float64Array(1), q0, q1, 0)[0]!)).toBeLessThanOrEqual(
      1e-14,
    );
  });

  it('[D] exact flow coefficients for γ = −0.05, h = 0.5: 2e^{γh/2}cos wh and e^{γh} from D1/D2 (1e-15)', () => {
    const Ld = dampedOscillatorExactLd(1, -0.05, 0.5);
    // (39) with L_d quadratic: D1(q_k, x) + σ D2(q_{k−1}, q_k) = 0 is linear in x
    const next = (qPrev: number, q: number): number => {
      const sigma = 1 + Ld.Dz(vec(qPrev), vec(q), 0);
      const d1at0 = Ld.D1(new Float64Array(1), vec(q), vec(0), 0)[0]!;
      const d2 = Ld.D2(new Float64Array(1), vec(qPrev), vec(q), 0)[0]!;
      const slope = Ld.D2D1(new Float64Array(1), vec(q), vec(0), 0)[0]!;
      return -(d1at0 + sigma * d2) / slope;
    };
    expect(Math.abs(next(0, 1) - 1.7335100737873288)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(-next(1, 0) - 0.9753099120283326)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(1 + Ld.Dz(vec(0), vec(0), 0) - 0.9753099120283326)).toBeLessThanOrEqual(1e-16);
  });

  it('[D] Thm 4.4 (76) check: D1, D2 give q_{k+1} = 2e^{γh/2}C q_k − e^{γh}q_{k−1} (1e-14), all regimes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        real(-2, 2),
        real(-2, 2),
        real(-2, 2),
        (cs, a, b, z) => {
          const h = 0.5;
          const Ld = dampedOscillatorExactLd(cs.k, cs.gamma, h);
          const d = cs.k - (cs.gamma * cs.gamma) / 4;
          const w = Math.sqrt(Math.abs(d));
          const C = cs.regime === 'critical' ? 1 : d > 0 ? Math.cos(w * h) : Math.cosh(w * h);
          const expected = 2 * Math.exp((cs.gamma * h) / 2) * C * b - Math.exp(cs.gamma * h) * a;
          const qPrev = vec(a);
          const q = vec(b);
          const sigma = 1 + Ld.Dz(q, q, z);
          const rhs =
            Ld.D1(new Float64Array(1), q, vec(0), z)[0]! +
            sigma * Ld.D2(new Float64Array(1), qPrev, q, z)[0]!;
          const x = -rhs / Ld.D2D1(new Float64Array(1), q, vec(0), z)[0]!;
          expect(Math.abs(x - expected)).toBeLessThanOrEqual(
            1e-14 * Math.max(1, Math.abs(expected)),
          );
          // and the residual of (39) at x vanishes
          const res =
            Ld.D1(new Float64Array(1), q, vec(x), z)[0]! +
            sigma * Ld.D2(new Float64Array(1), qPrev, q, z)[0]!;
          expect(Math.abs(res)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(rhs)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('[D] γ = 0 reduces to the classical w/(2 sin wh)((q0² + q1²)cos wh − 2q0q1) (1e-14)', () => {
    fc.assert(
      fc.property(
        real(0.1, 4),
        real(0.05, 1),
        real(-2, 2),
        real(-2, 2),
        real(-3, 3),
        (k, h, a, b, z0) => {
          const Ld = dampedOscillatorExactLd(k, 0, h);
          const w = Math.sqrt(k);
          const classical =
            (w / (2 * Math.sin(w * h))) * ((a * a + b * b) * Math.cos(w * h) - 2 * a * b);
          const scale = Math.max(1, (w / Math.abs(Math.sin(w * h))) * (a * a + b * b));
          expect(Math.abs(Ld.Ld(vec(a), vec(b), z0) - classical)).toBeLessThanOrEqual(
            1e-14 * scale,
          );
          expect(Ld.Dz(vec(a), vec(b), z0)).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('[D] continuous across the near-critical series threshold |d|h² = OSCILLATOR_CRITICAL_SERIES_THRESHOLD (1e-14)', () => {
    const h = 0.8;
    const T = OSCILLATOR_CRITICAL_SERIES_THRESHOLD / (h * h);
    const q0 = vec(0.9);
    const q1 = vec(-0.4);
    for (const gamma of [0, -0.6, 0.9]) {
      for (const sign of [1, -1]) {
        const kIn = (gamma * gamma) / 4 + sign * T * (1 - 1e-10);
        const kOut = (gamma * gamma) / 4 + sign * T * (1 + 1e-10);
        const a = dampedOscillatorExactLd(kIn, gamma, h);
        const b = dampedOscillatorExactLd(kOut, gamma, h);
        expect(a.regime).toBe('critical');
        expect(b.regime).toBe(sign > 0 ? 'underdamped' : 'overdamped');
        const va = a.Ld(q0, q1, 1.5);
        const vb = b.Ld(q0, q1, 1.5);
        expect(Math.abs(va - vb)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(va)));
        expect(Math.abs(a.AC - b.AC)).toBeLessThanOrEqual(1e-14 * Math.abs(a.AC));
        expect(Math.abs(a.ASqrtE - b.ASqrtE)).toBeLessThanOrEqual(1e-14 * Math.abs(a.ASqrtE));
      }
      // exactly critical: A = 1/h, C = 1
      const c = dampedOscillatorExactLd((gamma * gamma) / 4, gamma, h);
      expect(Math.abs(c.AC - 1 / h)).toBeLessThanOrEqual(1e-16 / h);
      expect(Math.abs(c.ASqrtE - Math.exp((gamma * h) / 2) / h)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('[D] no exact L_d at a conjugate point: DomainError when sin(wh) = 0', () => {
    expect(() => dampedOscillatorExactLd(1, 0, Math.PI)).toThrow(DomainError);
    expect(() => dampedOscillatorExactLd(1, 0, 2 * Math.PI)).toThrow(DomainError);
    // k − γ²/4 = 1 with γ = −0.5 : w = 1
    expect(() => dampedOscillatorExactLd(1.0625, -0.5, Math.PI)).toThrow(DomainError);
    expect(() => dampedOscillatorExactLd(1, 0, Math.PI * 0.999)).not.toThrow();
    expect(() => dampedOscillatorExactLd(1, -0.05, -0.5)).toThrow(DomainError);
  });

  it('[D] overdamped coefficients stay finite for large wh (no sinh/cosh overflow)', () => {
    const Ld = dampedOscillatorExactLd(1, -3000, 0.5); // wh ≈ 750
    expect(Ld.regime).toBe('overdamped');
    expect(Number.isFinite(Ld.AC)).toBe(true);
    expect(Ld.ASqrtE).toBe(0); // 2w e^{γh/2 − wh} underflows
    expect(Number.isFinite(Ld.Ld(vec(1), vec(2), 0))).toBe(true);
  });
});

describe('numericExactLd / shootExact: shooting (spec 004 §6.5 [S], (61), (64)–(65))', () => {
  it('[D] (64) on the nonlinear z-dependent L of §5.5: D1, D2, D_z vs finite differences (1e-7)', () => {
    const Ld = numericExactLd(zDependentLagrangianAnalytic(), 0.3);
    for (const [a, b, z0] of [
      [0.7, 0.4, 0.2],
      [-0.5, 0.1, 1.1],
      [1.2, 1.6, -0.8],
    ] as const) {
      const q0 = vec(a);
      const q1 = vec(b);
      const fd = fdGradients(Ld, q0, q1, z0);
      expectClose(Ld.D1(new Float64Array(1), q0, q1, z0), fd.D1, 1e-7);
      expectClose(Ld.D2(new Float64Array(1), q0, q1, z0), fd.D2, 1e-7);
      expect(Math.abs(Ld.Dz(q0, q1, z0) - fd.Dz)).toBeLessThanOrEqual(1e-7);
      // σ_d = e^{b(h)} is not constant here
      const r = Ld.solve(q0, q1, z0);
      expect(Math.abs(1 + r.Dz - Math.exp(r.bh))).toBeLessThanOrEqual(1e-15);
      // −D1/(1 + D_z) = L_v(q0, v0, z0) = v0 + εz0, the momentum at t = 0 (F⁻ = FL ∘ R^{e−})
      expect(Math.abs(-r.D1[0]! / (1 + r.Dz) - (r.v0[0]! + 0.15 * z0))).toBeLessThanOrEqual(1e-14);
    }
  });

  it('[D] D2D1 and D2Dz (implicit-function sensitivities) match finite differences of D1, D_z in q1', () => {
    for (const [L, q0, q1, z0] of [
      [zDependentLagrangianAnalytic(), vec(0.7), vec(0.4), 0.2],
      [coupled2d(), vec(0.3, -0.2), vec(0.5, 0.1), 0.4],
    ] as const) {
      const Ld = numericExactLd(L, 0.3);
      const n = L.n;
      const fq = fdQ1(Ld, q0, q1, z0);
      const D2D1 = Ld.D2D1(new Float64Array(n * n), q0, q1, z0);
      const D2Dz = Ld.D2Dz(new Float64Array(n), q0, q1, z0);
      expectClose(D2D1, fq.D2D1, 1e-6);
      expectClose(D2Dz, fq.D2Dz, 1e-6);
      if (n === 2) expect(Math.abs(D2Dz[0]!)).toBeGreaterThan(1e-3); // nonzero, really tested
    }
  });

  it('[D] 2-D with mass matrix: D1, D2, D_z vs finite differences (1e-7)', () => {
    const Ld = numericExactLd(coupled2d(), 0.3);
    const q0 = vec(0.3, -0.2);
    const q1 = vec(0.5, 0.1);
    const fd = fdGradients(Ld, q0, q1, 0.4);
    expectClose(Ld.D1(new Float64Array(2), q0, q1, 0.4), fd.D1, 1e-7);
    expectClose(Ld.D2(new Float64Array(2), q0, q1, 0.4), fd.D2, 1e-7);
    expect(Math.abs(Ld.Dz(q0, q1, 0.4) - fd.Dz)).toBeLessThanOrEqual(1e-7);
  });

  it('[D] mechanical case: D_z = e^{γh} − 1 and −D1/(1 + D_z) = q̇(0) (1e-10)', () => {
    const Ld = numericExactLd(oscillator(1, -0.05), 0.5);
    const q0 = vec(1);
    const q1 = vec(2);
    expect(Math.abs(Ld.Dz(q0, q1, 0) - Math.expm1(-0.025))).toBeLessThanOrEqual(1e-12);
    const p0 = -Ld.D1(new Float64Array(1), q0, q1, 0)[0]! / (1 + Ld.Dz(q0, q1, 0));
    expect(Math.abs(p0 - 2.3684249328025526)).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(Ld.solve(q0, q1, 0).v0[0]! - 2.3684249328025526)).toBeLessThanOrEqual(1e-10);
  });

  it('[S] caches the last solve: Ld, D1, D2, Dz, D2D1, D2Dz at one point cost one shooting solve', () => {
    const Ld = numericExactLd(oscillator(1, -0.05), 0.5);
    const q0 = vec(1);
    const q1 = vec(2);
    const out = new Float64Array(1);
    Ld.Ld(q0, q1, 0.5);
    Ld.D1(out, q0, q1, 0.5);
    Ld.D2(out, q0, q1, 0.5);
    Ld.Dz(q0, q1, 0.5);
    Ld.D2D1(out, q0, q1, 0.5);
    Ld.D2Dz(out, q0, q1, 0.5);
    expect(Ld.stats.solves).toBe(1);
    expect(Ld.stats.cacheHits).toBe(5);
    // mutating the caller's array is a new point, not a stale hit
    q1[0] = 2.1;
    const v = Ld.Ld(q0, q1, 0.5);
    expect(Ld.stats.solves).toBe(2);
    const exact = dampedOscillatorExactLd(1, -0.05, 0.5).Ld(vec(1), vec(2.1), 0.5);
    expect(Math.abs(v - exact)).toBeLessThanOrEqual(1e-12);
    Ld.D1(out, vec(1), vec(2.1), 0.5);
    expect(Ld.stats.solves).toBe(2);
  });

  it('[D] exact retractions and the contact exponential map (53) invert each other; R^{e+} = φ_h ∘ R^{e−}', () => {
    const gamma = -0.05;
    const h = 0.5;
    const L = oscillator(1, gamma);
    const Rm = exactRetractionMinus(L, h);
    const Rp = exactRetractionPlus(L, h);
    const exp = contactExponentialMap(L, h);
    const minus = Rm([1], [2], 0);
    expect(Math.abs(minus.v[0]! - 2.3684249328025526)).toBeLessThanOrEqual(1e-10);
    expect(minus.z).toBe(0);
    const back = exp(minus.q, minus.v, minus.z);
    expect(Math.abs(back.q1[0]! - 2)).toBeLessThanOrEqual(1e-12);
    expect(back.q0[0]).toBe(1);
    // R^{e+}: (q1, q̇(h), z(h)) with z(h) − z0 = L_h^e and q̇(h) = D2 (Theorem 4.3)
    const plus = Rp([1], [2], 0);
    const Ld = dampedOscillatorExactLd(1, gamma, h);
    expect(plus.q[0]).toBe(2);
    expect(Math.abs(plus.z - Ld.Ld(vec(1), vec(2), 0))).toBeLessThanOrEqual(1e-12);
    expect(
      Math.abs(plus.v[0]! - Ld.D2(new Float64Array(1), vec(1), vec(2), 0)[0]!),
    ).toBeLessThanOrEqual(1e-10);
    // spec 004 §8.2 inferred IC: v0 = 2.112010210256695, z(h) = 0.9027977439
    const inferred = Rp([0], [1], 0);
    expect(Math.abs(inferred.z - 0.9027977439)).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(Rm([0], [1], 0).v[0]! - 2.112010210256695)).toBeLessThanOrEqual(1e-10);
  });

  it('[S] the shooting Newton (Jacobian ∂q(h)/∂v0 by stacked central differences) converges in ≤ 4 iterations', () => {
    const pendulum = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    for (const L of [zDependentLagrangianAnalytic(), pendulum]) {
      for (const [q0, q1, z0] of [
        [0.3, 0.5, 0.2],
        [1, 2, 0],
        [-0.5, -0.2, 1],
        [0.1, 0.9, -0.5],
      ] as const) {
        const r = shootExact(L, 0.5, [q0], [q1], z0);
        expect(r.iterations).toBeLessThanOrEqual(4); // measured 2 or 3
        expect(r.residualNorm).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(q0), Math.abs(q1)));
      }
    }
    // along a run, each solve after a cache miss takes one correction from the predicted v0
    const Ld = numericExactLd(pendulum, 0.1);
    new ContactIntegrator(Ld).integrate({ q0: [1], v0: [0.3], z0: 0 }, 20);
    expect(Ld.stats.iterations).toBeLessThanOrEqual(Ld.stats.solves); // measured 84 / 84
  });

  it('[S] shooting failure: NewtonDivergedError (iteration cap; trajectory blowing up before h)', () => {
    const L = oscillator(1, -0.05);
    expect(() => shootExact(L, 0.5, [1], [2], 0, { maxIterations: 0 })).toThrow(
      NewtonDivergedError,
    );
    // L = ½v² + q⁴ − 0.1 z: q̈ = 4q³ blows up in finite time for the guessed v0 = 200
    const blowUp: ContactLagrangian = {
      ...oscillator(0, -0.1),
      L: (q, v, z) => 0.5 * v[0]! ** 2 + q[0]! ** 4 - 0.1 * z,
      Lq(out, q) {
        out[0] = 4 * q[0]! ** 3;
        return out;
      },
    };
    expect(() => shootExact(blowUp, 1, [0], [200], 0, { maxSteps: 2000 })).toThrow(
      NewtonDivergedError,
    );
    const Ld = numericExactLd(blowUp, 1, { maxSteps: 2000 });
    expect(() => Ld.D1(new Float64Array(1), vec(0), vec(200), 0)).toThrow(NewtonDivergedError);
  });

  it('[S] argument checks', () => {
    const L = oscillator(1, -0.05);
    expect(() => numericExactLd(L, 0)).toThrow(DomainError);
    expect(() => shootExact(L, 0.5, [1, 2], [2], 0)).toThrow(GeomechError);
    expect(() => shootExact(L, 0.5, [1], [2], Number.NaN)).toThrow(DomainError);
    expect(() => shootExact(L, 0.5, [1], [2], 0, { tol: 0 })).toThrow(DomainError);
  });
});
