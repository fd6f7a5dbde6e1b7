// Step derivatives of the Lie-group steppers (issue 17): ∂x_{k+1}/∂x_k and ∂x_{k+1}/∂u_k in the
// trivialized tangent coordinates (right-⊕: R·Exp(δ), X·Exp(δ); the rest additive), against
// central differences of the step through the same retraction, relative error ≤ 1e-7.
import { DimensionError, DomainError, SE2, SO3 } from '@geomech/core';
import { relErr } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import {
  GravityPotential,
  QuadrotorLgviStepper,
  So3LgviStepper,
  type So3Potential,
} from '../src/lgvi.js';
import { UnicycleStepper } from '../src/unicycle.js';
import { chartStepJacobians, layoutChart, type TangentLayout } from './support/tangentJacobian.js';

interface DerivativeStepper {
  readonly inputSize: number;
  step(state: Float64Array, k: number, h: number, u: Float64Array): number;
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void;
}

/**
 * Central differences of the step through the layout's retraction (step ε) and the analytic
 * derivatives at (x, u): returns the largest error relative to max(1, max |entry|) of each.
 */
function compare(
  st: DerivativeStepper,
  L: TangentLayout,
  x: Float64Array,
  u: Float64Array,
  h: number,
  eps = 1e-5,
): { A: number; B: number; Anorm: number; Bnorm: number } {
  const n = L.tangentSize;
  const m = st.inputSize;
  const base = x.slice();
  st.step(base, 0, h, u);
  const A = new Float64Array(n * n);
  const B = new Float64Array(n * m);
  st.stepDerivatives(A, B);
  const fd = chartStepJacobians((y, uu) => st.step(y, 0, h, uu), layoutChart(L), x, u, eps);
  const fdA = fd.A;
  const fdB = fd.B;
  const norm = (a: Float64Array) => a.reduce((s, v) => Math.max(s, Math.abs(v)), 0);
  return { A: relErr(A, fdA), B: relErr(B, fdB), Anorm: norm(A), Bnorm: norm(B) };
}

const so3Layout: TangentLayout = {
  groups: [{ at: 0, tangentAt: 0, G: SO3 }],
  vectors: [{ at: 9, tangentAt: 3, n: 3 }],
  tangentSize: 6,
};

/** GravityPotential without its analytic momentJacobian (central differences in the stepper). */
function withoutJacobian(U: So3Potential): So3Potential {
  return { value: (R) => U.value(R), moment: (out, R) => U.moment(out, R) };
}

describe('So3LgviStepper.stepDerivatives (right-⊕ δR, additive δΠ)', () => {
  const gravity = new GravityPotential(1.2, 9.81, [0.1, -0.05, 0.4]);
  for (const [name, potential, h] of [
    ['heavy top, h = 0.01', gravity, 0.01],
    ['heavy top, h = 0.1 (strongly nonlinear step)', gravity, 0.1],
    ['heavy top, moment Jacobian by central differences', withoutJacobian(gravity), 0.05],
    ['free rigid body', undefined, 0.05],
  ] as const) {
    it(`${name}: matches central differences through R·Exp(δ) to 1e-7`, () => {
      const st = new So3LgviStepper({
        inertia: [1, 1.6, 2.1],
        h,
        ...(potential === undefined ? {} : { potential }),
      });
      const x = st.initialState([0.3, -0.5, 0.8], [1.5, -2, 4]);
      const r = compare(st, so3Layout, x, Float64Array.of(0.7, -0.4, 1.1), h);
      expect(r.A).toBeLessThan(1e-7);
      expect(r.B).toBeLessThan(1e-7);
      expect(r.Bnorm).toBeGreaterThan(h / 4); // ∂Π_{k+1}/∂u ≈ h: not trivially zero
    });
  }

  it("GravityPotential.momentJacobian is M's derivative through R·Exp(δ) (central differences, 1e-8)", () => {
    const R = SO3.exp(new Float64Array(9), Float64Array.of(0.4, 1.1, -0.7));
    const J = gravity.momentJacobian(new Float64Array(9), R);
    const e = 1e-6;
    const Mp = new Float64Array(3);
    const Mm = new Float64Array(3);
    for (let j = 0; j < 3; j++) {
      const d = new Float64Array(3);
      d[j] = e;
      gravity.moment(Mp, SO3.rplus(new Float64Array(9), R, d));
      d[j] = -e;
      gravity.moment(Mm, SO3.rplus(new Float64Array(9), R, d));
      for (let i = 0; i < 3; i++)
        expect(Math.abs(J[3 * i + j]! - (Mp[i]! - Mm[i]!) / (2 * e))).toBeLessThan(1e-8);
    }
  });

  it('throws before a step, and for wrong output sizes', () => {
    const st = new So3LgviStepper({ inertia: [1, 2, 3], h: 0.01 });
    expect(() => st.stepDerivatives(new Float64Array(36), new Float64Array(18))).toThrow(
      DomainError,
    );
    const x = st.initialState([0, 0, 0], [1, 0, 0]);
    st.step(x, 0, 0.01, new Float64Array(3));
    expect(() => st.stepDerivatives(new Float64Array(144), new Float64Array(18))).toThrow(
      DimensionError,
    );
    expect(st.lastArrow().subarray(9, 18)).toEqual(x.subarray(0, 9));
  });
});

describe('QuadrotorLgviStepper.stepDerivatives (δR, δx, δΠ, δv)', () => {
  const layout: TangentLayout = {
    groups: [{ at: 0, tangentAt: 0, G: SO3 }],
    vectors: [
      { at: 9, tangentAt: 3, n: 3 },
      { at: 12, tangentAt: 6, n: 3 },
      { at: 15, tangentAt: 9, n: 3 },
    ],
    tangentSize: 12,
  };
  for (const h of [0.01, 0.05]) {
    it(`h = ${h}: matches central differences to 1e-7`, () => {
      const q = new QuadrotorLgviStepper({
        mass: 1.5,
        inertia: [0.02, 0.025, 0.04],
        gravity: 9.81,
        h,
      });
      const x = q.initialState([0.2, -0.3, 0.5], [1, 2, 3], [0.5, -1, 2], [0.3, 0.1, -0.2]);
      const u = Float64Array.of(1.3 * q.hoverThrust, 0.01, -0.02, 0.005);
      const r = compare(q, layout, x, u, h);
      expect(r.A).toBeLessThan(1e-7);
      expect(r.B).toBeLessThan(1e-7);
    });
  }
});

describe('UnicycleStepper.stepDerivatives (right-⊕ δX ∈ se(2), δv, δω)', () => {
  const layout: TangentLayout = {
    groups: [{ at: 0, tangentAt: 0, G: SE2 }],
    vectors: [{ at: 9, tangentAt: 3, n: 2 }],
    tangentSize: 5,
  };
  for (const h of [0.01, 0.2]) {
    it(`h = ${h}: matches central differences to 1e-7`, () => {
      const s = new UnicycleStepper({ mass: 2, inertia: 0.1, h });
      const x = s.initialState([1, -0.5], 0.7, 1.5, -0.8);
      const r = compare(s, layout, x, Float64Array.of(0.9, -0.3), h);
      expect(r.A).toBeLessThan(1e-7);
      expect(r.B).toBeLessThan(1e-7);
    });
  }
  it('throws before a step', () => {
    const s = new UnicycleStepper({ mass: 2, inertia: 0.1, h: 0.01 });
    expect(() => s.stepDerivatives(new Float64Array(25), new Float64Array(10))).toThrow(
      DomainError,
    );
  });
});
