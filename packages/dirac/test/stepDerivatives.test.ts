import type { Force } from '@geomech/core';
import { maxAbsDiff, nonlinearForce, stepJacobians } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { RattleStepper } from '../src/comparators.js';
import {
  type ConstrainedMechanicalSystem,
  STEP_DERIVATIVES_MAX_DIMENSION,
} from '../src/constrained.js';
import { type DiracMethodName, DiracStepper } from '../src/diracIntegrators.js';
import { pendulum, pendulumInitial, zieglerColumn } from '../src/holonomicModels.js';
import { angles, spherical, q0 as sq0, v0 as sv0 } from './massMatrixFixtures.js';

/** max |a − b| / max(1, max |b|): the relative distance of an analytic Jacobian from its reference. */
function relativeDiff(a: Float64Array, b: Float64Array): number {
  let s = 1;
  for (const x of b) s = Math.max(s, Math.abs(x));
  return maxAbsDiff(a, b) / s;
}

/**
 * Takes two steps from z0 (so the state carries a warm start and a velocity), then compares the
 * analytic derivatives of step 2 with central differences of that step (core's stepJacobians).
 */
function checkRattle(
  sys: ConstrainedMechanicalSystem,
  z0: Float64Array,
  h: number,
  force: Force | undefined,
  u: Float64Array,
): { A: Float64Array; B: Float64Array; errA: number; errB: number } {
  const st = new RattleStepper(sys, force === undefined ? { tol: 1e-15 } : { tol: 1e-15, force });
  const z = z0.slice();
  st.reset(z, 0.2);
  st.step(z, 0, h, u);
  st.step(z, 1, h, u);
  const S = 2 * sys.n;
  const A = new Float64Array(S * S);
  const B = new Float64Array(S * u.length);
  const z2 = z.slice();
  st.step(z2, 2, h, u);
  st.stepDerivatives(A, B);
  const fd = stepJacobians((y, uu) => st.step(y, 2, h, uu), z, u);
  return { A, B, errA: relativeDiff(A, fd.A), errB: u.length === 0 ? 0 : relativeDiff(B, fd.B) };
}

/** The identity of size S (row-major). */
function identity(S: number): Float64Array {
  const I = new Float64Array(S * S);
  for (let i = 0; i < S; i++) I[i * S + i] = 1;
  return I;
}

// Measured relative distances max|A − A_fd| / max(1, max|A_fd|) from central differences
// (2026-11-27, h = 0.05). RATTLE: pendulum 8.7e-11 (unforced), 1.3e-10 / 1.6e-10 (A / B with
// inputs); Ziegler n = 8: 1.1e-8 (unforced and damped), 2.4e-8 / 1.8e-10 (A / B with inputs).
// Dirac-1 / Dirac-2 / Dirac-2c: pendulum ≤ 5.2e-10 (A and B); Ziegler n = 8 ≤ 1.3e-9 unforced and
// damped, ≤ 7.2e-8 (A, Dirac-2) and ≤ 5.4e-11 (B) with inputs; M(q) spherical pendulum and
// angles pendulum ≤ 4.3e-10 (A and B). RATTLE M(q) (its analytic Newton matrix, central-difference
// partials in z and u): spherical 1.1e-8 / 3.6e-11 (A / B forced), 9.3e-10 unforced; angles
// 8.2e-10 / 7.4e-11 (3.9e-11 with the former central-difference Newton matrix). The bound 1e-6 is the brief's; the
// differences are the reference's O(ε^{2/3}) error plus the Newton tolerance of the perturbed steps.
describe('RattleStepper.stepDerivatives (central differences, 1e-6 relative)', () => {
  const sys = pendulum({ m: 1.3, g: 9.81, l: 0.9 });
  const { q0, v0 } = pendulumInitial(0.8, 0.6, 0.9);
  const z0 = Float64Array.of(q0[0]!, q0[1]!, v0[0]!, v0[1]!);
  const h = 0.05;

  it('pendulum, unforced (dense path)', () => {
    const r = checkRattle(sys, z0, h, undefined, new Float64Array(0));
    expect(r.errA).toBeLessThan(1e-6);
    // not the identity: the step moves the state
    expect(maxAbsDiff(r.A, identity(4))).toBeGreaterThan(1e-2);
  });

  it('pendulum, forced with two inputs (nonlinear force)', () => {
    const u = Float64Array.of(0.7, -0.9);
    const r = checkRattle(sys, z0, h, nonlinearForce(2), u);
    expect(r.errA).toBeLessThan(1e-6);
    expect(r.errB).toBeLessThan(1e-6);
    expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-3);
  });

  const n = 8;
  const zc = zieglerColumn({ n, P: 0.2, k: 1.2, l: 0.8, damping: 0.3 });
  const theta = Float64Array.from({ length: n }, (_, i) => 0.15 * Math.sin(1 + i));
  const q = zc.fromAngles(theta);
  const zz = new Float64Array(2 * zc.n);
  zz.set(q);

  it('Ziegler chain n = 8 (banded path), unforced', () => {
    expect(zc.band).toBeDefined();
    const r = checkRattle(zc, zz, h, undefined, new Float64Array(0));
    expect(r.errA).toBeLessThan(1e-6);
    expect(maxAbsDiff(r.A, identity(2 * zc.n))).toBeGreaterThan(1e-2);
  });

  it('Ziegler chain n = 8, damped (banded forced Newton)', () => {
    const r = checkRattle(zc, zz, h, zc.force, new Float64Array(0));
    expect(r.errA).toBeLessThan(1e-6);
    // the damping enters ∂v_{k+1}/∂v_k: not the unforced step's derivative
    const r0 = checkRattle(zc, zz, h, undefined, new Float64Array(0));
    expect(maxAbsDiff(r.A, r0.A)).toBeGreaterThan(1e-3);
  });

  it('Ziegler chain n = 8 with two inputs (nonlinear force)', () => {
    const u = Float64Array.of(0.4, -0.3);
    const r = checkRattle(zc, zz, h, nonlinearForce(zc.n), u);
    expect(r.errA).toBeLessThan(1e-6);
    expect(r.errB).toBeLessThan(1e-6);
    expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-4);
  });

  it('throws before any step and for wrong lengths', () => {
    const st = new RattleStepper(sys);
    expect(() => st.stepDerivatives(new Float64Array(16), new Float64Array(0))).toThrow(/no step/);
    const z = z0.slice();
    st.step(z, 0, h);
    expect(() => st.stepDerivatives(new Float64Array(15), new Float64Array(0))).toThrow(/dxdx/);
    const g = new RattleStepper(spherical(true));
    expect(() => g.stepDerivatives(new Float64Array(36), new Float64Array(0))).toThrow(/no step/);
  });

  it('M(q): the spherical pendulum (g analytic and by polarization) and the angles pendulum (m = 0)', () => {
    const u = Float64Array.of(0.7, -0.9);
    const zs = Float64Array.from([...sq0, ...sv0]);
    for (const s3 of [spherical(true), spherical(false)]) {
      const r0 = checkRattle(s3, zs, h, undefined, new Float64Array(0));
      expect(r0.errA).toBeLessThan(1e-6);
      expect(maxAbsDiff(r0.A, identity(6))).toBeGreaterThan(1e-2);
      const r = checkRattle(s3, zs, h, nonlinearForce(3), u);
      expect(r.errA).toBeLessThan(1e-6);
      expect(r.errB).toBeLessThan(1e-6);
      expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-3);
    }
    const za = Float64Array.from([sq0[1]!, sq0[2]!, sv0[1]!, sv0[2]!]);
    const ra = checkRattle(angles, za, h, nonlinearForce(2), u);
    expect(ra.errA).toBeLessThan(1e-6);
    expect(ra.errB).toBeLessThan(1e-6);
  });
});

/**
 * As checkRattle for a DiracStepper on x = [q, p, q_{k−1}] (p = M v): two steps first, so a
 * two-step method has left its start-up step behind.
 */
function checkDirac(
  sys: ConstrainedMechanicalSystem,
  method: DiracMethodName,
  q0: Float64Array,
  v0: Float64Array,
  h: number,
  force: Force | undefined,
  u: Float64Array,
): { A: Float64Array; B: Float64Array; errA: number; errB: number } {
  const st = new DiracStepper(sys, method, force === undefined ? {} : { force, tol: 1e-15 });
  const p0 = v0.map((v, i) => sys.mass[i]! * v);
  const x = st.initialState(q0, p0);
  st.reset(x, 0.2);
  st.step(x, 0, h, u);
  st.step(x, 1, h, u);
  const S = 3 * sys.n;
  const A = new Float64Array(S * S);
  const B = new Float64Array(S * u.length);
  const x2 = x.slice();
  st.step(x2, 2, h, u);
  st.stepDerivatives(A, B);
  const fd = stepJacobians((y, uu) => st.step(y, 2, h, uu), x, u);
  return { A, B, errA: relativeDiff(A, fd.A), errB: u.length === 0 ? 0 : relativeDiff(B, fd.B) };
}

describe('DiracStepper.stepDerivatives (central differences, 1e-6 relative)', () => {
  const sys = pendulum({ m: 1.3, g: 9.81, l: 0.9 });
  const { q0, v0 } = pendulumInitial(0.8, 0.6, 0.9);
  const h = 0.05;
  const n = 8;
  const zc = zieglerColumn({ n, P: 0.2, k: 1.2, l: 0.8, damping: 0.3 });
  const theta = Float64Array.from({ length: n }, (_, i) => 0.15 * Math.sin(1 + i));
  const qc = zc.fromAngles(theta);
  const vc = new Float64Array(zc.n);
  for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
    it(`${method}: pendulum, unforced and with two inputs`, () => {
      const r0 = checkDirac(sys, method, q0, v0, h, undefined, new Float64Array(0));
      expect(r0.errA).toBeLessThan(1e-6);
      expect(maxAbsDiff(r0.A, identity(6))).toBeGreaterThan(1e-2);
      const u = Float64Array.of(0.7, -0.9);
      const r = checkDirac(sys, method, q0, v0, h, nonlinearForce(2), u);
      expect(r.errA).toBeLessThan(1e-6);
      expect(r.errB).toBeLessThan(1e-6);
      expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-3);
    });
    it(`${method}: Ziegler chain n = 8 (banded), unforced, damped and with two inputs`, () => {
      expect(zc.band).toBeDefined();
      const r0 = checkDirac(zc, method, qc, vc, h, undefined, new Float64Array(0));
      expect(r0.errA).toBeLessThan(1e-6);
      const rd = checkDirac(zc, method, qc, vc, h, zc.force, new Float64Array(0));
      expect(rd.errA).toBeLessThan(1e-6);
      expect(maxAbsDiff(rd.A, r0.A)).toBeGreaterThan(1e-3);
      const u = Float64Array.of(0.4, -0.3);
      const r = checkDirac(zc, method, qc, vc, h, nonlinearForce(zc.n), u);
      expect(r.errA).toBeLessThan(1e-6);
      expect(r.errB).toBeLessThan(1e-6);
      expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-4);
    });
  }

  it('throws before any step and for wrong lengths', () => {
    const st = new DiracStepper(sys, 'dirac-1');
    expect(() => st.stepDerivatives(new Float64Array(36), new Float64Array(0))).toThrow(/no step/);
    const x = st.initialState(q0, v0);
    st.step(x, 0, h);
    expect(() => st.stepDerivatives(new Float64Array(35), new Float64Array(0))).toThrow(/dxdx/);
  });

  // M(q): the spherical pendulum (n = 3, m = 1; g analytic or by polarization of κ) and the
  // unconstrained pendulum in angles (m = 0)
  for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
    it(`${method}: M(q) systems, unforced and with two inputs`, () => {
      const qs = Float64Array.from(sq0);
      const vs = Float64Array.from(sv0);
      for (const s3 of [spherical(true), spherical(false)]) {
        const r0 = checkDirac(s3, method, qs, vs, h, undefined, new Float64Array(0));
        expect(r0.errA).toBeLessThan(1e-6);
        expect(maxAbsDiff(r0.A, identity(9))).toBeGreaterThan(1e-2);
        const u = Float64Array.of(0.7, -0.9);
        const r = checkDirac(s3, method, qs, vs, h, nonlinearForce(3), u);
        expect(r.errA).toBeLessThan(1e-6);
        expect(r.errB).toBeLessThan(1e-6);
        expect(maxAbsDiff(r.B, new Float64Array(r.B.length))).toBeGreaterThan(1e-3);
      }
      const ra = checkDirac(
        angles,
        method,
        qs.subarray(1),
        vs.subarray(1),
        h,
        nonlinearForce(2),
        Float64Array.of(0.7, -0.9),
      );
      expect(ra.errA).toBeLessThan(1e-6);
      expect(ra.errB).toBeLessThan(1e-6);
    });
  }
});

describe('stepDerivatives size limit', () => {
  it(`refuses n + m > STEP_DERIVATIVES_MAX_DIMENSION = ${STEP_DERIVATIVES_MAX_DIMENSION} (both steppers)`, () => {
    // 667 links: n = 1334, m = 667, n + m = 2001; 666 links (n + m = 1998) pass the check
    for (const links of [666, 667]) {
      const zc = zieglerColumn({ n: links });
      expect(zc.n + zc.m).toBe(3 * links);
      const q = zc.fromAngles(new Float64Array(links).fill(0.01));
      const rattle = new RattleStepper(zc);
      const z = new Float64Array(2 * zc.n);
      z.set(q);
      rattle.step(z, 0, 0.01);
      const dirac = new DiracStepper(zc, 'dirac-1');
      const x = dirac.initialState(q, new Float64Array(zc.n));
      dirac.step(x, 0, 0.01);
      const empty = new Float64Array(0);
      // below the limit the next check is the output length (a DimensionError)
      const want = links === 667 ? /n \+ m/ : /dxdx/;
      expect(() => rattle.stepDerivatives(empty, empty)).toThrow(want);
      expect(() => dirac.stepDerivatives(empty, empty)).toThrow(want);
    }
  });
});

describe('stepDerivatives: time-dependent potential and the Dirac-2 start-up step', () => {
  const base = pendulum({ m: 1.3, g: 9.81, l: 0.9 });
  // V(q, t) = V(q) + 0.5 sin(2t) x y: ∇V at t_k (position stage) and t_{k+1} (velocity stage)
  const sys: ConstrainedMechanicalSystem = {
    ...base,
    autonomous: false,
    V: (q, t = 0) => base.V(q) + 0.5 * Math.sin(2 * t) * q[0]! * q[1]!,
    gradV: (out, q, t = 0) => {
      base.gradV(out, q);
      const s = 0.5 * Math.sin(2 * t);
      out[0] = out[0]! + s * q[1]!;
      out[1] = out[1]! + s * q[0]!;
      return out;
    },
  };
  const { q0, v0 } = pendulumInitial(0.8, 0.6, 0.9);
  const h = 0.05;

  it('RATTLE and Dirac-1/2/2c with V(q, t), forced', () => {
    const u = Float64Array.of(0.7, -0.9);
    const z0 = Float64Array.of(q0[0]!, q0[1]!, v0[0]!, v0[1]!);
    const r = checkRattle(sys, z0, h, nonlinearForce(2), u);
    expect(r.errA).toBeLessThan(1e-6);
    expect(r.errB).toBeLessThan(1e-6);
    // the time dependence matters: the autonomous pendulum's derivative differs
    const r0 = checkRattle(base, z0, h, nonlinearForce(2), u);
    expect(maxAbsDiff(r.A, r0.A)).toBeGreaterThan(1e-4);
    for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
      const d = checkDirac(sys, method, q0, v0, h, nonlinearForce(2), u);
      expect(d.errA).toBeLessThan(1e-6);
      expect(d.errB).toBeLessThan(1e-6);
    }
  });

  it('the start-up step of Dirac-2 has the Dirac-1 derivatives (no q_{k−1} column)', () => {
    const st = new DiracStepper(base, 'dirac-2');
    const x = st.initialState(
      q0,
      v0.map((v) => 1.3 * v),
    );
    const u = new Float64Array(0);
    const startStep = (y: Float64Array): void => {
      st.reset(y, 0);
      st.step(y, 0, h);
    };
    const A = new Float64Array(36);
    startStep(x.slice());
    expect(st.startupSteps).toBe(1);
    st.stepDerivatives(A, u);
    const fd = stepJacobians((y) => startStep(y), x, u);
    expect(relativeDiff(A, fd.A)).toBeLessThan(1e-6);
    for (let i = 0; i < 6; i++) for (let j = 4; j < 6; j++) expect(A[i * 6 + j]).toBe(0);
  });
});
