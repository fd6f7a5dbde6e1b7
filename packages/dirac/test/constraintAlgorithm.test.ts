import { DomainError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { constraintAlgorithm } from '../src/constraintAlgorithm.js';
import { ImplicitLagrangianSystem, unconstrainedDistribution } from '../src/implicitSystem.js';
import { quadraticLagrangian } from '../src/lagrangian.js';
import { constantDistribution, diag } from './fixtures.js';
import {
  diskSystem,
  expectDefect,
  kcl,
  lc,
  lc1System,
  lcSystem,
  omegaLC,
  oscSystem,
} from './implicitFixtures.js';

describe('(c) constraint algorithm for degenerate linear-quadratic systems', () => {
  const alg = constraintAlgorithm(lcSystem);

  it('4-port circuit: primary p_C1 = p_C2 = p_C3 = 0', () => {
    const n = 4;
    expect(alg.primaryCount).toBe(3);
    const span = new Float64Array(3 * 3); // components of each row on (p_C1, p_C2, p_C3)
    for (let c = 0; c < 3; c++) {
      const row = alg.primary.subarray(c * 2 * n, (c + 1) * 2 * n);
      for (let j = 0; j < n; j++) expect(Math.abs(row[j]!)).toBeLessThan(1e-14); // no q part (S = 0)
      expect(Math.abs(row[n]!)).toBeLessThan(1e-14); // no p_L part
      for (let j = 0; j < 3; j++) span[c * 3 + j] = row[n + 1 + j]!;
    }
    // the three rows span {p_C}: |det| = 1 for orthonormal rows
    const d =
      span[0]! * (span[4]! * span[8]! - span[5]! * span[7]!) -
      span[1]! * (span[3]! * span[8]! - span[5]! * span[6]!) +
      span[2]! * (span[3]! * span[7]! - span[4]! * span[6]!);
    expect(Math.abs(Math.abs(d) - 1)).toBeLessThan(1e-12);
  });

  it('discovers the secondary constraint q_C1/C1 = q_C3/C3: one row ∝ (0, 1/C1, 0, −1/C3) (1e-12)', () => {
    expect(alg.stageDimensions).toEqual([6, 5, 4]);
    expect(alg.secondaryStages).toBe(2);
    expect(alg.positionConstraintCount).toBe(1);
    const want = [0, 1 / lc.C1, 0, -1 / lc.C3];
    const nw = Math.hypot(...want);
    let dot = 0;
    for (let j = 0; j < 4; j++) dot += (alg.positionConstraints[j]! * want[j]!) / nw;
    expect(Math.abs(Math.abs(dot) - 1)).toBeLessThan(1e-12);
    // velocity level: the two KCL rows and the hidden f_C1/C1 = f_C3/C3
    expect(alg.velocityConstraintCount).toBe(3);
    const V = alg.velocityConstraints;
    for (const w of [...kcl, want]) {
      const wn = Math.hypot(...w);
      let proj = 0;
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let j = 0; j < 4; j++) s += V[c * 4 + j]! * w[j]!;
        proj += (s / wn) ** 2;
      }
      expect(Math.abs(proj - 1)).toBeLessThan(1e-12);
    }
    expect(alg.dimension).toBe(4);
    expect(alg.constraints.length).toBe((8 - 4) * 8);
  });

  it('finds ω_LC = √((1/L)(1/C2 + 1/(C1 + C3))) = 2.0118695404… (1e-10)', () => {
    expect(Math.abs(omegaLC - 2.0118695404)).toBeLessThan(1e-9);
    expect(alg.frequencies.length).toBe(1);
    expect(Math.abs(alg.frequencies[0]! - omegaLC)).toBeLessThan(1e-10 * omegaLC);
  });

  it('is unit-invariant: the same circuit in mH / µF (× 1e-3, 1e-6) gives ω × 1e4/…, same constraints', () => {
    const sL = 1e-3;
    const sC = 1e-6;
    const sys = new ImplicitLagrangianSystem(
      quadraticLagrangian(
        diag([lc.L * sL, 0, 0, 0]),
        diag([0, 1 / (lc.C1 * sC), 1 / (lc.C2 * sC), 1 / (lc.C3 * sC)]),
      ),
      constantDistribution(kcl),
    );
    const a = constraintAlgorithm(sys);
    expect(a.stageDimensions).toEqual([6, 5, 4]);
    expect(Math.abs(a.frequencies[0]! - omegaLC / Math.sqrt(sL * sC))).toBeLessThan(
      1e-10 * (omegaLC / Math.sqrt(sL * sC)),
    );
  });

  it('single LC loop and harmonic oscillator: no secondary constraints, ω = 2 (1e-12)', () => {
    const a1 = constraintAlgorithm(lc1System);
    expect(a1.stageDimensions).toEqual([3]);
    expect(a1.primaryCount).toBe(1); // p_C = 0
    expect(Math.abs(a1.primary[2]!)).toBeLessThan(1e-14);
    expect(Math.abs(Math.abs(a1.primary[3]!) - 1)).toBeLessThan(1e-14);
    expect(a1.positionConstraintCount).toBe(0);
    expect(Math.abs(a1.frequencies[0]! - 2)).toBeLessThan(1e-12);
    const a2 = constraintAlgorithm(oscSystem);
    expect(a2.stageDimensions).toEqual([2]);
    expect(a2.primaryCount).toBe(0);
    expect(Math.abs(a2.frequencies[0]! - 2)).toBeLessThan(1e-12);
  });

  it('rejects gauge freedom (undetermined-dynamics) and non-linear-quadratic systems (DomainError)', () => {
    const gauge = new ImplicitLagrangianSystem(
      quadraticLagrangian(diag([1, 0]), diag([4, 0])),
      unconstrainedDistribution(2),
    );
    expectDefect(() => constraintAlgorithm(gauge), 'undetermined-dynamics');
    expect(() => constraintAlgorithm(diskSystem)).toThrow(DomainError);
  });
});
