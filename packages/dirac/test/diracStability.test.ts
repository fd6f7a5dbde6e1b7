import { describe, expect, it } from 'vitest';
import { integrateConstrained } from '../src/comparators.js';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import { integrateDirac } from '../src/diracIntegrators.js';
import { pendulum, pendulumInitial } from '../src/holonomicModels.js';

/** Unconstrained harmonic oscillator q̈ = −q (ω = 1, so z = hω = h). */
const oscillator: ConstrainedMechanicalSystem = {
  n: 1,
  m: 0,
  mass: Float64Array.of(1),
  V: (q) => 0.5 * q[0]! ** 2,
  gradV: (out, q) => {
    out[0] = q[0]!;
    return out;
  },
  phi: (out) => out,
  C: (out) => out,
  curvature: (out) => out,
};

/**
 * Roots of the Dirac-2 characteristic polynomial (spec 001 §5.6)
 * (ζ − 1)²(ζ + 1) + 2z²ζ² = ζ³ + (2z² − 1)ζ² − ζ + 1: the real (parasitic) root by Newton from
 * −(1 + z²/2), then the principal pair from the deflated quadratic ζ² + bζ + c.
 */
function dirac2Roots(z: number): { parasitic: number; re: number; modulus: number } {
  const a2 = 2 * z * z - 1;
  let r = -(1 + (z * z) / 2);
  for (let i = 0; i < 50; i++) {
    const f = ((r + a2) * r - 1) * r + 1;
    const df = (3 * r + 2 * a2) * r - 1;
    const dr = f / df;
    r -= dr;
    if (Math.abs(dr) <= 1e-17 * Math.abs(r)) break;
  }
  // ζ³ + a2 ζ² − ζ + 1 = (ζ − r)(ζ² + bζ + c): b = a2 + r, c = −1/r.
  const b = a2 + r;
  const c = -1 / r;
  return { parasitic: r, re: -b / 2, modulus: Math.sqrt(c) };
}

describe('Dirac-2 linear stability on the harmonic oscillator (spec 001 §5.6, §9 item 11)', () => {
  it('the computed roots match the spec values for z = 0.01 and z = 0.1', () => {
    const r1 = dirac2Roots(0.01);
    expect(r1.parasitic).toBeCloseTo(-1.00005, 8);
    expect(r1.re).toBeCloseTo(0.999925, 6);
    expect(r1.modulus).toBeCloseTo(0.999975, 6);
    const r2 = dirac2Roots(0.1);
    expect(r2.parasitic).toBeCloseTo(-1.005025, 6);
    expect(r2.modulus).toBeCloseTo(0.997497, 6);
    for (const z of [0.01, 0.05, 0.1]) {
      const { parasitic, modulus } = dirac2Roots(z);
      // leading-order forms −(1 + z²/2) and 1 − z²/4, with O(z⁴) remainders
      expect(Math.abs(-parasitic - (1 + (z * z) / 2))).toBeLessThanOrEqual(z ** 4);
      expect(Math.abs(modulus - (1 - (z * z) / 4))).toBeLessThanOrEqual(z ** 4);
    }
  });

  it('the simulated sequence satisfies q_{k+3} + (2z² − 1)q_{k+2} − q_{k+1} + q_k = 0', () => {
    const z = 0.1;
    const tr = integrateDirac(oscillator, 'dirac-2', { q0: [1], p0: [0] }, z, 400);
    let maxRes = 0;
    for (let k = 0; k + 3 < tr.count; k++) {
      const [a, b, c, d] = [tr.q[k]!, tr.q[k + 1]!, tr.q[k + 2]!, tr.q[k + 3]!];
      const scale = Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d);
      maxRes = Math.max(maxRes, Math.abs(d + (2 * z * z - 1) * c - b + a) / scale);
    }
    expect(maxRes).toBeLessThanOrEqual(1e-15);
  });

  it('the even/odd mode grows by the parasitic root, the principal amplitude decays by |ζ|', () => {
    for (const z of [0.05, 0.1]) {
      const N = Math.round(20 / z);
      const tr = integrateDirac(oscillator, 'dirac-2', { q0: [1], p0: [0] }, z, N + 3);
      const { parasitic, re, modulus } = dirac2Roots(z);
      const q = tr.q;
      // r_k = q_{k+2} − 2Re ζ q_{k+1} + |ζ|² q_k annihilates the principal pair: r_{k+1} = ζ_p r_k.
      const r = (k: number) => q[k + 2]! - 2 * re * q[k + 1]! + modulus * modulus * q[k]!;
      const growth = Math.abs(r(N) / r(0)) ** (1 / N);
      expect(Math.abs(growth + parasitic) / -parasitic).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(growth - (1 + (z * z) / 2))).toBeLessThanOrEqual(z ** 4);
      expect(Math.sign(r(N - 1) * r(N))).toBe(-1); // alternating: the even/odd wiggle
      // s_k = q_{k+1} − ζ_p q_k annihilates the parasitic mode; its Casoratian
      // s_{k+1}² − s_k s_{k+2} = A² ρ^{2k+2} sin²θ gives the principal modulus ρ.
      const s = (k: number) => q[k + 1]! - parasitic * q[k]!;
      const cas = (k: number) => s(k + 1) ** 2 - s(k) * s(k + 2);
      const decay = (cas(N - 2) / cas(0)) ** (1 / (2 * (N - 2)));
      expect(Math.abs(decay - modulus)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(decay - (1 - (z * z) / 4))).toBeLessThanOrEqual(z ** 4);
    }
  });

  it('Dirac-1 (symplectic Euler) has no amplitude error: its Casoratian is constant', () => {
    const z = 0.1;
    const tr = integrateDirac(oscillator, 'dirac-1', { q0: [1], p0: [0] }, z, 2000);
    const q = tr.q;
    const cas = (k: number) => q[k + 1]! ** 2 - q[k]! * q[k + 2]!;
    const c0 = cas(0);
    let maxDev = 0;
    for (let k = 1; k + 2 < tr.count; k++) maxDev = Math.max(maxDev, Math.abs(cas(k) - c0) / c0);
    expect(maxDev).toBeLessThanOrEqual(1e-12);
  });
});

describe('energy behaviour on the pendulum, θ0 = π/4, h = 0.002, 100 periods (spec 001 §9 item 15)', () => {
  const sys = pendulum({ m: 1, g: 9.81, l: 1 });
  const init = pendulumInitial(Math.PI / 4, 0, 1);
  const h = 0.002;
  const T0 = 2 * Math.PI * Math.sqrt(1 / 9.81);
  const perPeriod = Math.round(T0 / h);
  const steps = 100 * perPeriod;
  const relative = (e: Float64Array) => {
    const out = new Float64Array(e.length);
    for (let j = 0; j < e.length; j++) out[j] = (e[j]! - e[0]!) / Math.abs(e[0]!);
    return out;
  };

  it('Dirac-2c: relative energy error bounded by 5e-3 and not growing', () => {
    const tr = integrateDirac(sys, 'dirac-2c', init, h, steps, { every: 10 });
    const rel = relative(tr.energy);
    let max = 0;
    let firstTenth = 0;
    let lastTenth = 0;
    const tenth = Math.floor(rel.length / 10);
    for (let j = 0; j < rel.length; j++) {
      max = Math.max(max, Math.abs(rel[j]!));
      if (j < tenth) firstTenth = Math.max(firstTenth, Math.abs(rel[j]!));
      if (j >= rel.length - tenth) lastTenth = Math.max(lastTenth, Math.abs(rel[j]!));
    }
    expect(max).toBeLessThanOrEqual(5e-3);
    expect(lastTenth).toBeLessThanOrEqual(1.1 * firstTenth);
  });

  it('literal Dirac-2: monotone energy loss, −37 % after 100 periods (E_k = |p_{k+1}|²/2m + m g y_k)', () => {
    const tr = integrateDirac(sys, 'dirac-2', init, h, steps, { every: perPeriod });
    expect(tr.energyPairing).toBe('shifted');
    const rel = relative(tr.energy);
    for (let j = 1; j < rel.length; j++) expect(rel[j]!).toBeLessThan(rel[j - 1]!);
    expect(rel[rel.length - 1]!).toBeCloseTo(-0.37, 2);
  });

  it('RK4 drifts little (4.0e-6 relative, O(h⁴)), explicit Euler gains energy every period', () => {
    // Measured final relative drift: 6.48e-5 at h = 0.004, 4.04e-6 at h = 0.002 (ratio 16.0).
    const drift = (hh: number) => {
      const per = Math.round(T0 / hh);
      const tr = integrateConstrained(sys, 'rk4', init, hh, 100 * per, { every: per });
      return Math.max(...relative(tr.energy).map(Math.abs));
    };
    const d2 = drift(h);
    const d4 = drift(2 * h);
    expect(d2).toBeLessThanOrEqual(5e-6);
    expect(d4 / d2).toBeGreaterThan(14);
    expect(d4 / d2).toBeLessThan(18);
    // Explicit Euler: E oscillates within a period but its envelope grows; the maximum over
    // each block of 10 periods increases block by block, and E ends 11.7× above E_0 (measured).
    const euler = integrateConstrained(sys, 'euler', init, h, steps, { every: 5 });
    const relEuler = relative(euler.energy);
    const block = Math.floor(relEuler.length / 10);
    let prev = -Infinity;
    for (let b = 0; b < 10; b++) {
      let mx = -Infinity;
      for (let j = b * block; j < (b + 1) * block; j++) mx = Math.max(mx, relEuler[j]!);
      expect(mx).toBeGreaterThan(prev);
      prev = mx;
    }
    expect(relEuler[relEuler.length - 1]!).toBeGreaterThan(5);
  });
});
