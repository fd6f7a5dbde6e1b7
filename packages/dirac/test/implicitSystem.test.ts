import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { residualMaxNorm } from '../src/implicitSystem.js';
import {
  diskExact,
  diskSystem,
  grid,
  lc1Exact,
  lc1System,
  lcExact,
  lcSystem,
  maxDiff,
  osc,
  oscSystem,
} from './implicitFixtures.js';

describe('residuals (6.3) and (6.4) vanish on closed-form solutions', () => {
  it('rolling disk (spec 002 §4.1): all parts ≤ 1e-10, μ as printed', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), (t) => {
        const s = diskExact(t);
        expect(residualMaxNorm(diskSystem.residual(s.q, s.v, s.p, s.v, s.pdot))).toBeLessThan(
          1e-10,
        );
        expect(
          residualMaxNorm(diskSystem.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
        ).toBeLessThan(1e-10);
        expect(maxDiff(diskSystem.multipliers(s.q, s.v, s.p, s.pdot), s.mu)).toBeLessThan(1e-10);
        expect(Math.abs(diskSystem.constraintForcePower(s.q, s.v, s.mu))).toBeLessThan(1e-12);
        expect(Math.abs(diskSystem.energy(s.q, s.v, s.p) - s.energy)).toBeLessThan(1e-12);
        // (6.2): (X, 𝔇L) ∈ D_Δ via inducedDiracStructure(Δ).containsLocal, base point p = ∂L/∂v
        expect(diskSystem.isSolutionPoint(s.q, s.v, s.p, s.v, s.pdot)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('a wrong ṗ is detected: the dynamics part is the Δ-component of the error', () => {
    const s = diskExact(1.3);
    const bad = Float64Array.from(s.pdot);
    bad[3] = bad[3]! + 1e-3; // a torque about the vertical axis is not a constraint force
    expect(maxDiff(diskSystem.residual(s.q, s.v, s.p, s.v, bad).dynamics, [1e-3, 0])).toBeLessThan(
      1e-12,
    );
    expect(diskSystem.isSolutionPoint(s.q, s.v, s.p, s.v, bad)).toBe(false);
    const pBad = Float64Array.from(s.p);
    pBad[2] = pBad[2]! + 1e-6; // off the Legendre graph: base points of X and 𝔇L differ
    expect(diskSystem.isSolutionPoint(s.q, s.v, pBad, s.v, s.pdot)).toBe(false);
  });

  it('4-port L-C circuit (spec 002 §4.2 item 4): residuals and μ1 = q_C1/C1 + q_C2/C2, μ2 = −q_C1/C1 to 1e-10', () => {
    for (const t of grid(0, 7, 28)) {
      const s = lcExact(t);
      expect(residualMaxNorm(lcSystem.residual(s.q, s.v, s.p, s.v, s.pdot))).toBeLessThan(1e-10);
      expect(
        residualMaxNorm(lcSystem.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
      ).toBeLessThan(1e-10);
      expect(maxDiff(lcSystem.multipliers(s.q, s.v, s.p, s.pdot), s.mu)).toBeLessThan(1e-10);
      expect(lcSystem.isSolutionPoint(s.q, s.v, s.p, s.v, s.pdot)).toBe(true);
    }
  });

  it('single LC loop (μ = q_C/C) and harmonic oscillator to 1e-10', () => {
    for (const t of grid(0, 5, 20)) {
      const s = lc1Exact(t, 0.3, 0.2, -0.4);
      expect(
        residualMaxNorm(lc1System.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
      ).toBeLessThan(1e-10);
      const w = Math.sqrt(osc.k / osc.m);
      const q = Float64Array.of(0.3 * Math.cos(w * t));
      const v = Float64Array.of(-0.3 * w * Math.sin(w * t));
      const pdot = Float64Array.of(-osc.m * 0.3 * w * w * Math.cos(w * t));
      const r = oscSystem.residual(q, v, Float64Array.of(osc.m * v[0]!), v, pdot);
      expect(r.constraint.length).toBe(0);
      expect(residualMaxNorm(r)).toBeLessThan(1e-10);
    }
  });
});
