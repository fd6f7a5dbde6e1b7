import { DomainError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  MidpointHerglotz,
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
  zeroPotential,
} from '../src/index.js';
import { RegularityError } from '../src/regularity.js';

const oscillator = (gamma: number) => mechanicalContactLagrangian(quadraticPotential(1), gamma);

describe('MidpointHerglotz on the damped oscillator (spec 004 §8.2, Fig. 2)', () => {
  // Reference values [D] of spec 004 §8.2: gamma = -0.05, h = 0.5, 50 steps.
  const caption = [
    // k, q_d, z_d, lnH_d
    [2, 2.5102941176, -0.5844594777, 1.1712117],
    [10, -1.9413140853, -2.2302390658, 0.97407856],
    [20, -1.4078968575, 0.2940531453, 0.72864767],
    [30, 1.0490688874, -1.3580468606, 0.47706474],
    [40, 1.4342853582, 0.0201241806, 0.21315386],
    [50, -0.3478075467, -0.5828026421, -0.02169423],
  ] as const;
  const inferred = [
    [2, 1.7426470588, 0.9954550984, 0.79786446],
    [10, -1.8641116545, -0.3722038111, 0.58699786],
    [30, 1.2498685421, -0.5113269826, 0.08640932],
    [50, -0.6848574153, -0.3229534756, -0.41081341],
  ] as const;

  for (const [label, q1, table] of [
    ['caption IC (q0=1, q1=2)', 2, caption],
    ['inferred IC (q0=0, q1=1)', 1, inferred],
  ] as const) {
    it(`reproduces the reference table, ${label}, to 1e-10 in q, z and 1e-8 in ln H`, () => {
      const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
        { q0: [q1 - 1], q1: [q1], z0: 0 },
        50,
      );
      expect(sol.count).toBe(51);
      for (const [k, q, z, lnH] of table) {
        expect(Math.abs(sol.q[k]! - q)).toBeLessThan(1e-10);
        expect(Math.abs(sol.z[k]! - z)).toBeLessThan(1e-10);
        expect(Math.abs(Math.log(sol.energy[k]!) - lnH)).toBeLessThan(1e-8);
      }
    });
  }

  it('starts with p0 = 2.375/0.975 and p1 = D2 L_d = 1.625 (caption IC)', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], q1: [2], z0: 0 },
      1,
    );
    expect(sol.p[0]).toBeCloseTo(2.375 / 0.975, 14);
    expect(sol.p[1]).toBeCloseTo(1.625, 14);
    expect(sol.z[1]).toBeCloseTo(0.4375, 14);
  });

  it('matches the closed-form recurrence of spec 004 §7.3 at every step (1e-12)', () => {
    const h = 0.5;
    const g = -0.05;
    const sol = new MidpointHerglotz(oscillator(g), h).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
    let qm = 1;
    let q = 2;
    for (let k = 2; k <= 50; k++) {
      const qn = ((2 + h * g) * (4 - h * h) * q - (1 + h * g) * (4 + h * h) * qm) / (4 + h * h);
      expect(Math.abs(sol.q[k]! - qn)).toBeLessThan(1e-12);
      qm = q;
      q = qn;
    }
  });
});

describe('MidpointHerglotz on the free particle (spec 004 §7.3)', () => {
  it('follows q_{k+1} = (hγ+2)q_k − (hγ+1)q_{k−1} and p_{k+1} = (1+hγ)p_k', () => {
    const h = 0.5;
    const g = -0.05;
    const sol = new MidpointHerglotz(mechanicalContactLagrangian(zeroPotential(), g), h).integrate(
      { q0: [1], q1: [2], z0: 0 },
      40,
    );
    for (let k = 2; k <= 40; k++) {
      const expected = (h * g + 2) * sol.q[k - 1]! - (h * g + 1) * sol.q[k - 2]!;
      expect(Math.abs(sol.q[k]! - expected)).toBeLessThan(1e-12);
      expect(Math.abs(sol.p[k]! - (1 + h * g) * sol.p[k - 1]!)).toBeLessThan(1e-14);
    }
    expect(sol.stats.newtonIterations).toBe(0); // the free-flight guess is exact
  });
});

describe('MidpointHerglotz on the nonlinear damped pendulum', () => {
  it('satisfies the discrete Herglotz equations (39) along the trajectory to 1e-12', () => {
    const h = 0.1;
    const gamma = -0.1;
    const integrator = new MidpointHerglotz(
      mechanicalContactLagrangian(pendulumPotential(1, 1), gamma),
      h,
    );
    const sol = integrator.integrate({ q0: [1], v0: [0], z0: 0 }, 200);
    const d1 = new Float64Array(1);
    const d2 = new Float64Array(1);
    let maxResidual = 0;
    for (let k = 1; k < 200; k++) {
      integrator.Ld.D1(d1, sol.q.subarray(k, k + 1), sol.q.subarray(k + 1, k + 2), 0);
      integrator.Ld.D2(d2, sol.q.subarray(k - 1, k), sol.q.subarray(k, k + 1), 0);
      // (39): D1 L_d(q_k, q_{k+1}) + (1 + hγ) D2 L_d(q_{k−1}, q_k) = 0
      maxResidual = Math.max(maxResidual, Math.abs(d1[0]! + (1 + h * gamma) * d2[0]!));
    }
    expect(maxResidual).toBeLessThan(1e-12);
    expect(sol.stats.newtonIterations).toBeGreaterThan(199); // nonlinear: Newton really iterates
  });

  it('gives the same trajectory with an analytic Hessian and with differenced gradients (1e-12)', () => {
    const V = pendulumPotential(1, 1);
    const { hessV: _unused, ...withoutHessian } = V;
    const a = new MidpointHerglotz(mechanicalContactLagrangian(V, -0.1), 0.1).integrate(
      { q0: [1], v0: [0], z0: 0 },
      100,
    );
    const b = new MidpointHerglotz(
      mechanicalContactLagrangian(withoutHessian, -0.1),
      0.1,
    ).integrate({ q0: [1], v0: [0], z0: 0 }, 100);
    expect(Math.abs(a.q[100]! - b.q[100]!)).toBeLessThan(1e-12);
  });
});

describe('MidpointHerglotz input checks', () => {
  it('rejects h <= 0 (DomainError) and 1 + hγ = 0 (RegularityError, spec 004 §9.12)', () => {
    expect(() => new MidpointHerglotz(oscillator(-0.05), 0)).toThrow(DomainError);
    expect(() => new MidpointHerglotz(oscillator(-0.05), 20)).toThrow(RegularityError);
  });

  it('runs with 1 + hγ < 0 and reports it in the warnings', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 30).integrate(
      { q0: [1], v0: [0], z0: 0 },
      3,
    );
    expect(sol.sigma[0]).toBe(-0.5);
    expect(sol.warnings).toHaveLength(1);
    expect(sol.warnings[0]).toMatch(/^step 0: .*= -0\.5 < 0/);
    const fine = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], v0: [0], z0: 0 },
      3,
    );
    expect(fine.warnings).toEqual([]);
  });

  it('keeps every K-th state plus the last', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], q1: [2], z0: 0 },
      50,
      { every: 7 },
    );
    expect(Array.from(sol.k)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 50]);
  });
});
