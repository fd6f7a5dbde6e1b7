// ContactIntegrator.stepDerivatives (issue 17): ∂x_{k+1}/∂x_k and ∂x_{k+1}/∂u_k of the generic
// discrete Herglotz step on x = (q, p, z), against central differences of the step (≤ 1e-7
// relative to max(1, max |entry|)).
import { DimensionError, DomainError, type Potential } from '@geomech/core';
import { nonlinearForce, relErr, stepJacobians } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import {
  ContactIntegrator,
  contactLagrangian,
  implicitZMidpointLd,
  leftRectangleLd,
  mechanicalContactLagrangian,
  midpointLd,
  pendulumPotential,
} from '../src/index.js';
import { zDependentLagrangian } from './integratorFixtures.js';

const coupled: Potential = {
  dim: 2,
  V: (q, t = 0) => 0.5 * q[0]! ** 2 + 0.25 * q[1]! ** 4 + 0.3 * q[0]! * q[1]! * (1 + 0.1 * t),
  gradV: (out, q, t = 0) => {
    const c = 0.3 * (1 + 0.1 * t);
    out[0] = q[0]! + c * q[1]!;
    out[1] = q[1]! ** 3 + c * q[0]!;
    return out;
  },
};

/** A nonlinear, time- and velocity-dependent force with two inputs (no analytic Jacobians). */
const nonlinear = nonlinearForce(2);

/** L = ½|v|² − V(q) + γz + ε z v₁ − ½α z² on R² (z-dependent, so σ, G_z and ∂D2/∂z vary). */
const zCoupled2 = contactLagrangian({
  n: 2,
  L: (o, [q0, q1], [v0, v1], z) =>
    o.add(
      o.sub(
        o.scale(o.add(o.mul(v0!, v0!), o.mul(v1!, v1!)), 0.5),
        o.add(o.scale(o.mul(q0!, q0!), 0.5), o.sub(o.const(1), o.cos(q1!))),
      ),
      o.add(o.scale(z, -0.1), o.add(o.scale(o.mul(z, v0!), 0.15), o.scale(o.mul(z, z), -0.1))),
    ),
});

describe('ContactIntegrator.stepDerivatives against central differences of the step', () => {
  const h = 0.1;
  const t = 0.3;
  const cases = [
    [
      'midpoint L_d, forced (midpoint quadrature), time-dependent V',
      () =>
        new ContactIntegrator(midpointLd(mechanicalContactLagrangian(coupled, -0.2), h), {
          force: nonlinear,
          tol: 1e-14,
        }),
      [0.4, -0.7, 0.9, 0.2, 0.15],
    ],
    [
      'left-rectangle L_d, forced (right quadrature)',
      () =>
        new ContactIntegrator(leftRectangleLd(mechanicalContactLagrangian(coupled, -0.2), h), {
          force: nonlinear,
          forceQuadrature: 'right',
          tol: 1e-14,
        }),
      [0.4, -0.7, 0.9, 0.2, 0.15],
    ],
    [
      'midpoint L_d of a z-dependent L on R², unforced',
      () => new ContactIntegrator(midpointLd(zCoupled2, h), { tol: 1e-14 }),
      [0.4, -0.7, 0.9, 0.2, 0.35],
    ],
    [
      'implicit-z midpoint L_d of the z-dependent L of spec 004 §5.5 (n = 1), unforced',
      () => new ContactIntegrator(implicitZMidpointLd(zDependentLagrangian(), h), { tol: 1e-14 }),
      [0.6, -0.4, 0.3],
    ],
  ] as const;
  for (const [name, make, x0] of cases) {
    it(`${name}: ∂x_{k+1}/∂x_k, ∂x_{k+1}/∂u_k to 1e-7`, () => {
      const st = make();
      const s = st.stateSize;
      const m = st.inputSize;
      const u = m === 0 ? new Float64Array(0) : Float64Array.of(0.6, -1.1);
      const x = Float64Array.from(x0);
      const A = new Float64Array(s * s);
      const B = new Float64Array(s * m);
      const y = x.slice();
      st.reset(y, t, h); // step 0 leaves t
      st.step(y, 0, h, u);
      st.stepDerivatives(A, B);
      const fd = stepJacobians((yy, uu) => st.step(yy, 0, h, uu), x, u);
      expect(relErr(A, fd.A)).toBeLessThan(1e-7);
      // the z column and row are not trivial: σ ≠ 1
      expect(Math.abs(A[s * s - 1]! - 1)).toBeGreaterThan(1e-3);
      if (m > 0) {
        expect(relErr(B, fd.B)).toBeLessThan(1e-7);
        expect(B.reduce((a, v) => Math.max(a, Math.abs(v)), 0)).toBeGreaterThan(1e-3);
      }
    });
  }

  it('throws before any step, after the two-point start, and for wrong sizes', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    const st = new ContactIntegrator(midpointLd(lag, h), { lagrangian: lag });
    expect(() => st.stepDerivatives(new Float64Array(9), new Float64Array(0))).toThrow(
      /no step taken/,
    );
    const x = st.initialState({ q0: [1], q1: [1.05], z0: 0 });
    st.reset(x, 0, h);
    st.step(x, 0, h);
    expect(() => st.stepDerivatives(new Float64Array(9), new Float64Array(0))).toThrow(DomainError);
    st.step(x, 1, h);
    st.stepDerivatives(new Float64Array(9), new Float64Array(0));
    expect(() => st.stepDerivatives(new Float64Array(4), new Float64Array(0))).toThrow(
      DimensionError,
    );
  });
});
