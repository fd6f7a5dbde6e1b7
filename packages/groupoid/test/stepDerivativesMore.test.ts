// Step derivatives of the remaining implicit groupoid steppers (issue 17): ∂x_{k+1}/∂x_k (and
// ∂x_{k+1}/∂u_k) in the stepper's tangent coordinates (right-⊕ G·Exp(δ) on group blocks, additive
// elsewhere), against central differences of the step through the same retraction (ε = 1e-5 for
// the rigid body, 1e-6 otherwise), relative error (to max(1, max |entry|)) ≤ 1e-9 (measured
// ≤ 7e-11), well below the 1e-6 of the issue.
import { DimensionError, DomainError, SO3 } from '@geomech/core';
import { relErr } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { PlateBall, PlateBallStepper } from '../src/plateBall.js';
import { RigidBodyStepper } from '../src/rigidBody.js';
import { type TangentLayout, tangentStepJacobian } from './support/tangentJacobian.js';

/** A tangent layout: SO(3) blocks (storage offset → tangent offset) and additive runs. */
interface Layout {
  readonly so3: readonly { readonly at: number; readonly t: number }[];
  readonly vec: readonly { readonly at: number; readonly t: number; readonly n: number }[];
  readonly n: number;
}

/** The shared layout of test/support of an SO(3)-and-vectors layout. */
const asTangentLayout = (L: Layout): TangentLayout => ({
  groups: L.so3.map(({ at, t }) => ({ at, tangentAt: t, G: SO3 })),
  vectors: L.vec.map(({ at, t, n }) => ({ at, tangentAt: t, n })),
  tangentSize: L.n,
});

interface Unforced {
  step(state: Float64Array, k: number, h: number, u: Float64Array): number;
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void;
}

/** The analytic ∂x_{k+1}/∂x_k at x and its central differences through the layout (step eps). */
function derivatives(
  st: Unforced,
  L: Layout,
  x: Float64Array,
  h: number,
  eps = 1e-6,
): { A: Float64Array; fd: Float64Array } {
  const n = L.n;
  const none = new Float64Array(0);
  const base = x.slice();
  st.step(base, 0, h, none);
  const A = new Float64Array(n * n);
  st.stepDerivatives(A, none);
  const fd = tangentStepJacobian((y) => st.step(y, 0, h, none), asTangentLayout(L), x, eps);
  return { A, fd };
}

/** x ⊕ δ for a state [G (9, SO(3) row-major), v (n)] with tangent [δG (3), δv (n)]. */
function plusSo3(out: Float64Array, x: Float64Array, d: Float64Array): void {
  out.set(x);
  const Y = new Float64Array(9);
  SO3.rplus(Y, x.slice(0, 9), d.slice(0, 3));
  out.set(Y, 0);
  for (let i = 9; i < x.length; i++) out[i] = x[i]! + d[i - 6]!;
}

/** y ⊖ x for the same layout. */
function minusSo3(out: Float64Array, y: Float64Array, x: Float64Array): void {
  const t = new Float64Array(3);
  SO3.rminus(t, y.slice(0, 9), x.slice(0, 9));
  out.set(t, 0);
  for (let i = 9; i < x.length; i++) out[i - 6] = y[i]! - x[i]!;
}

describe('RigidBodyStepper.stepDerivatives (right-⊕ δG, additive δξ)', () => {
  for (const map of ['cayley', 'exp'] as const) {
    for (const h of [0.01, 0.1, 0.4]) {
      it(`${map}, h = ${h}: matches central differences through G·Exp(δ) to 1e-9 (measured ≤ 3e-11)`, () => {
        const st = new RigidBodyStepper([1, 1.6, 2.1], h, map);
        // a non-identity node: two steps from the identity
        const x = st.initialState([0.8, -0.5, 1.3]);
        st.step(x, 0, h);
        st.step(x, 1, h);
        const base = x.slice();
        st.step(base, 2, h);
        const A = new Float64Array(36);
        st.stepDerivatives(A, new Float64Array(0));
        const fd = new Float64Array(36);
        const eps = 1e-5;
        const d = new Float64Array(6);
        const xp = new Float64Array(12);
        const xm = new Float64Array(12);
        const tp = new Float64Array(6);
        const tm = new Float64Array(6);
        for (let j = 0; j < 6; j++) {
          d.fill(0);
          d[j] = eps;
          plusSo3(xp, x, d);
          d[j] = -eps;
          plusSo3(xm, x, d);
          st.step(xp, 2, h);
          st.step(xm, 2, h);
          minusSo3(tp, xp, base);
          minusSo3(tm, xm, base);
          for (let i = 0; i < 6; i++) fd[6 * i + j] = (tp[i]! - tm[i]!) / (2 * eps);
        }
        const err = relErr(A, fd);
        expect(err).toBeLessThan(1e-9);
        // not trivially I/0: the ∂δG/∂ξ block is ≈ h·I and ∂ξ'/∂ξ differs from I by O(h)
        expect(Math.abs(A[3]!)).toBeGreaterThan(h / 2);
        expect(A[1]).not.toBe(0);
        let off = 0;
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++)
            off = Math.max(off, Math.abs(A[6 * (3 + i) + 3 + j]! - (i === j ? 1 : 0)));
        expect(off).toBeGreaterThan(h / 100);
        for (let i = 3; i < 6; i++) for (let j = 0; j < 3; j++) expect(A[6 * i + j]).toBe(0);
      });
    }
  }

  it('step stays bit-identical with derivatives taken between steps', () => {
    const a = new RigidBodyStepper([1, 2, 3], 0.1, 'exp');
    const b = new RigidBodyStepper([1, 2, 3], 0.1, 'exp');
    const xa = a.initialState([0.8, -0.5, 0.3]);
    const xb = b.initialState([0.8, -0.5, 0.3]);
    const A = new Float64Array(36);
    for (let k = 0; k < 20; k++) {
      a.step(xa, k, 0.1);
      b.step(xb, k, 0.1);
      b.stepDerivatives(A, new Float64Array(0));
    }
    expect(xb).toEqual(xa);
  });

  it('throws before a step, and for wrong output sizes', () => {
    const st = new RigidBodyStepper([1, 2, 3], 0.1);
    expect(() => st.stepDerivatives(new Float64Array(36), new Float64Array(0))).toThrow(
      DomainError,
    );
    const x = st.initialState([0.8, -0.5, 0.3]);
    st.step(x, 0, 0.1);
    expect(() => st.stepDerivatives(new Float64Array(144), new Float64Array(0))).toThrow(
      DimensionError,
    );
    expect(() => st.stepDerivatives(new Float64Array(36), new Float64Array(1))).toThrow(
      DimensionError,
    );
  });
});

describe('PlateBallStepper.stepDerivatives (x_k, y_k, x_{k+1}, y_{k+1}, ρ, λ, δG)', () => {
  const layout: Layout = {
    so3: [
      { at: 4, t: 4 },
      { at: 16, t: 10 },
    ],
    vec: [
      { at: 0, t: 0, n: 4 },
      { at: 13, t: 7, n: 3 },
    ],
    n: 13,
  };
  for (const frame of ['body', 'spatial'] as const) {
    for (const variant of ['full', 'reduced'] as const) {
      it(`${frame}, ${variant}: matches central differences to 1e-9 (measured ≤ 7e-11)`, () => {
        const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
        const st = new PlateBallStepper(pb, frame, variant);
        const x = st.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]);
        for (let k = 0; k < 5; k++) st.step(x, k, 0.05);
        const { A, fd } = derivatives(st, layout, x, 0.05);
        const err = relErr(A, fd);
        expect(err).toBeLessThan(1e-9);
        // not trivially I/0: ∂x_{k+2}/∂x_{k+1} ≈ 2 (the DEL's second difference)
        expect(Math.abs(A[13 * 2 + 2]! - 2)).toBeLessThan(0.2);
        expect(Math.abs(A[13 * 5 + 4]!)).toBeGreaterThan(1e-3);
      });
    }
  }

  it('step stays bit-identical with derivatives taken between steps', () => {
    const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
    const a = new PlateBallStepper(pb);
    const b = new PlateBallStepper(new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 }));
    const xa = a.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]);
    const xb = xa.slice();
    const A = new Float64Array(169);
    for (let k = 0; k < 20; k++) {
      a.step(xa, k, 0.05);
      b.step(xb, k, 0.05);
      b.stepDerivatives(A, new Float64Array(0));
    }
    expect(xb).toEqual(xa);
  });

  it('throws before a step, and for wrong output sizes', () => {
    const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
    const st = new PlateBallStepper(pb);
    expect(() => st.stepDerivatives(new Float64Array(169), new Float64Array(0))).toThrow(
      DomainError,
    );
    const x = st.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]);
    st.step(x, 0, 0.05);
    expect(() => st.stepDerivatives(new Float64Array(625), new Float64Array(0))).toThrow(
      DimensionError,
    );
    expect(() => st.stepDerivatives(new Float64Array(169), new Float64Array(1))).toThrow(
      DimensionError,
    );
  });
});

describe('the TSDoc examples of the step derivatives', () => {
  it('RigidBodyStepper: ∂ξ_2/∂ξ_1 ≈ I at h = 0.1; PlateBallStepper: ∂x_{k+1}/∂x_{k+1} = 1', () => {
    const s = new RigidBodyStepper([1, 2, 3], 0.1, 'cayley');
    const x = s.initialState([0.8, -0.5, 0.3]);
    s.step(x, 0, 0.1);
    const A = new Float64Array(36);
    s.stepDerivatives(A, new Float64Array(0));
    expect(Math.abs(A[3 * 6 + 3]! - 1)).toBeLessThan(0.1);
    const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
    const p = new PlateBallStepper(pb);
    const y = p.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]);
    p.step(y, 0, 0.05);
    const B = new Float64Array(169);
    p.stepDerivatives(B, new Float64Array(0));
    expect(B[2]).toBe(1);
  });
});
