/**
 * Errata of the papers that no package test covers, shown with the libraries themselves: each test
 * computes what the printed formula says and what the toolkit implements, and asserts that they
 * differ (pages/errata.md lists every erratum and the test that shows it).
 */
import {
  ContactIntegrator,
  dampedOscillatorExactLd,
  mechanicalContactLagrangian,
  quadraticPotential,
} from '@geomech/contact';
import { symmetricEigen } from '@geomech/core';
import {
  integrateConstrained,
  linearizeZiegler,
  pendulum,
  pendulumInitial,
  pendulumPeriod,
} from '@geomech/dirac';
import { describe, expect, it } from 'vitest';

describe('spec 004 §11.7: the conformal factor and dissipated quantities', () => {
  const gamma = -0.05;
  const h = 0.5;
  const L = mechanicalContactLagrangian(quadraticPotential(1), gamma);
  const sol = new ContactIntegrator(dampedOscillatorExactLd(1, gamma, h), {
    lagrangian: L,
  }).integrate({ q0: [1], q1: [2], z0: 0 }, 40);

  it('(9): σ_h = exp(∫₀ʰ a) = e^{γh}, not the printed ∫₀ʰ exp(a) = h e^{γ}', () => {
    // measured: max_k |σ_k − e^{γh}| = 0 (the exact L_d has D_z L_d = e^{γh} − 1 in closed form)
    for (let k = 0; k < sol.count - 1; k++) {
      expect(Math.abs(sol.sigma[k]! - Math.exp(gamma * h))).toBeLessThan(1e-14);
      expect(Math.abs(sol.sigma[k]! - h * Math.exp(gamma))).toBeGreaterThan(0.4);
    }
  });

  it('(31): a dissipated f obeys φ_t*f = σ_t·f (H_k = H₀e^{γt_k}), not the printed φ_t*f = σ_t', () => {
    const H0 = sol.energy[0]!;
    let worst = 0;
    for (let k = 0; k < sol.count; k++) {
      const sigmaT = Math.exp(gamma * sol.t[k]!);
      worst = Math.max(worst, Math.abs(sol.energy[k]! / (H0 * sigmaT) - 1));
      // the printed law would make H_k = σ_t whatever H₀; H₀ = 3.3047 here, so it misses H_k/σ_t
      // by H₀ − 1 = 2.30 at every step
      expect(Math.abs(sol.energy[k]! / sigmaT - 1)).toBeGreaterThan(2);
    }
    // measured: 2.6e-15 relative over 40 steps
    expect(worst).toBeLessThan(1e-13);
  });
});

describe('spec 001 §11.12: the Ziegler column spring sign', () => {
  it('springs entering L with "+" make the unloaded upright column unstable (K = −K₀ < 0)', () => {
    const { K0, n } = linearizeZiegler({ n: 2, k: 1, l: 1, m: 1 });
    const corrected = symmetricEigen(K0, n).values;
    const printed = symmetricEigen(
      K0.map((v) => -v),
      n,
    ).values;
    // corrected: K₀ = k[[2, −1], [−1, 1]] has eigenvalues (3 ∓ √5)/2 > 0 (measured: error 0)
    expect(Math.abs(Math.min(...corrected) - (3 - Math.sqrt(5)) / 2)).toBeLessThan(1e-14);
    expect(Math.min(...corrected)).toBeGreaterThan(0);
    // printed: eigenvalues −(3 ± √5)/2 (measured −2.618, −0.382), the springs would push the column over at P = 0,
    // against the paper's "harmonic force tending to align the segments"
    expect(Math.max(...printed)).toBeLessThan(0);
  });
});

describe('spec 001 §11.9: the pendulum equations as printed lack m', () => {
  it('ẍ = λx, ÿ = −mg + λy (m = 2) is a pendulum with gravity mg: its period is off by √m', () => {
    const m = 2;
    const g = 9.81;
    const l = 1;
    const theta0 = 0.3;
    const T = pendulumPeriod(theta0, g, l, 'exact');
    const h = 1e-3;
    const steps = Math.round(T / h);
    const init = pendulumInitial(theta0, 0, l);
    // corrected m ẍ = λx, m ÿ = −mg + λy: the motion does not depend on m
    const corrected = integrateConstrained(pendulum({ m, g, l }), 'rk4', init, h, steps);
    // printed: unit mass under the acceleration −mg
    const printed = integrateConstrained(pendulum({ m: 1, g: m * g, l }), 'rk4', init, h, steps);
    const xEnd = (tr: typeof corrected) => tr.q[2 * (tr.count - 1)]!;
    const x0 = init.q0[0]!;
    // measured: the corrected pendulum is back at x₀ after one period to 2.2e-7 (step rounding)
    expect(Math.abs(xEnd(corrected) - x0)).toBeLessThan(1e-5);
    // the printed one has period T/√2 and is far from x₀ after T (measured |Δx| = 0.55)
    expect(Math.abs(xEnd(printed) - x0)).toBeGreaterThan(0.3);
    expect(pendulumPeriod(theta0, m * g, l, 'exact') / T).toBeCloseTo(1 / Math.sqrt(m), 12);
  });
});
