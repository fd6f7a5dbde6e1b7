// The analytic Newton matrices of the M(q) steps (issue 17 follow-up): the Christoffel symbols of
// MassMatrixKinetics against the polarization of κ they replace, and the generalized RATTLE's
// position-stage Jacobian against central differences of its residual (unforced and forced).
import { finiteDifferenceJacobian } from '@geomech/core';
import { nonlinearForce, relErr } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import { MassMatrixKinetics } from '../src/massMatrix.js';
import { RattleMassMatrix } from '../src/rattleMassMatrix.js';
import { angles, spherical, q0 as sq0, v0 as sv0 } from './massMatrixFixtures.js';

describe('MassMatrixKinetics: Christoffel symbols against the polarization of κ', () => {
  for (const [name, sys, q, v] of [
    ['spherical pendulum (n = 3)', spherical(false), sq0, sv0],
    ['angles pendulum (n = 2)', angles, [sq0[1]!, sq0[2]!], [sv0[1]!, sv0[2]!]],
  ] as const) {
    it(`${name}: g and ∂g/∂v agree to 1e-14 relative (measured ≤ 4.3e-16); Γ is dropped by factor`, () => {
      const n = sys.n;
      const kin = new MassMatrixKinetics(sys, 'test');
      const Q = Float64Array.from(q);
      const V = Float64Array.from(v);
      const g0 = kin.gradient(new Float64Array(n), Q, V);
      const J0 = kin.gradientJacobian(new Float64Array(n * n), Q, V);
      kin.factor(Q, 'test');
      kin.christoffel(Q);
      const g1 = kin.gradientAt(new Float64Array(n), Q, V);
      const J1 = kin.gradientJacobianAt(new Float64Array(n * n), Q, V);
      expect(relErr(g1, g0)).toBeLessThan(1e-14);
      expect(relErr(J1, J0)).toBeLessThan(1e-14);
      // the symbols are not the identity map: ∂g/∂v is not zero here
      expect(J0.some((x) => Math.abs(x) > 1e-2)).toBe(true);
      // after a factor at another q the symbols are stale: the polarization is used again
      const Q2 = Q.map((x) => x + 0.3);
      kin.factor(Q2, 'test');
      const J2 = kin.gradientJacobianAt(new Float64Array(n * n), Q2, V);
      expect([...J2]).toEqual([...kin.gradientJacobian(new Float64Array(n * n), Q2, V)]);
    });
  }

  it('a system with kineticGradient and no coriolis keeps its own g and the polarization', () => {
    const s = spherical(true);
    const { coriolis: _drop, ...rest } = s;
    const sys: ConstrainedMechanicalSystem = rest;
    const kin = new MassMatrixKinetics(sys, 'test');
    const Q = Float64Array.from(sq0);
    const V = Float64Array.from(sv0);
    kin.factor(Q, 'test');
    kin.christoffel(Q);
    expect([...kin.gradientAt(new Float64Array(3), Q, V)]).toEqual([
      ...s.kineticGradient!(new Float64Array(3), Q, V),
    ]);
    expect([...kin.gradientJacobianAt(new Float64Array(9), Q, V)]).toEqual([
      ...kin.gradientJacobian(new Float64Array(9), Q, V),
    ]);
  });
});

/** The private Newton system of a RattleMassMatrix (x = (p½, q_{k+1}, λ)). */
interface RattleInternals {
  G(out: Float64Array, x: Float64Array): void;
  J(out: Float64Array, x: Float64Array): void;
  lastX: Float64Array;
  lastZ: Float64Array;
  lastU: Float64Array;
  start(z: Float64Array, h: number, u: Float64Array | undefined): void;
  t: number;
}

describe('RattleMassMatrix: the analytic position-stage Jacobian against central differences', () => {
  const h = 0.05;
  for (const [name, force, u] of [
    ['unforced', undefined, new Float64Array(0)],
    [
      'a nonlinear velocity-dependent force with two inputs',
      nonlinearForce(3),
      Float64Array.of(0.7, -0.9),
    ],
  ] as const) {
    for (const withGradient of [false, true]) {
      it(`spherical pendulum, ${name}, g ${withGradient ? 'analytic' : 'from κ'}: to 1e-8 relative (measured 1.5e-11 unforced, 3.2e-10 forced: the force Jacobian is itself central differences)`, () => {
        const sys = spherical(withGradient);
        const R = new RattleMassMatrix(sys, force, 'midpoint', 1e-14, 50);
        const z = Float64Array.from([...sq0, ...sv0]);
        R.reset(0.2);
        R.step(z, 0, h, u);
        R.step(z, 1, h, u);
        const I = R as unknown as RattleInternals;
        // at the accepted x of the last step, and off it (a Newton iterate is not a solution)
        const x = I.lastX.slice();
        I.t = 0.2 + h;
        I.start(I.lastZ, h, I.lastU);
        const N = x.length;
        for (const shift of [0, 0.02]) {
          const xs = x.map((v, i) => v + shift * Math.sin(1 + i));
          const Ja = new Float64Array(N * N);
          I.J(Ja, xs);
          const Jd = finiteDifferenceJacobian(new Float64Array(N * N), I.G, xs, N, N);
          expect(relErr(Ja, Jd)).toBeLessThan(1e-8);
        }
      });
    }
  }
});
