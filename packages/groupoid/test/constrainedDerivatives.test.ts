// Step derivatives of the constrained groupoid step (issue 17): ConstrainedStepper.stepDerivatives
// and DiscreteConstrainedSystem.forwardStepDerivatives (the implicit function theorem on the step's
// equations (5f) completed by composability, in chart coordinates of the arrows), against central
// differences of the step itself through the same charts (step 1e-5 or 1e-4, errors relative to
// max(1, |entry|), each test's bound about 10–100× its measured error), on constrained,
// forced and Lie-group systems, and the typed error at a non-regular point.
import { DimensionError, DomainError, NonRegularSystemError, SO3 } from '@geomech/core';
import { nonlinearForce, relErr } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import {
  ConstrainedStepper,
  DiscreteConstrainedSystem,
  type GroupoidForce,
  pairGroupoidForce,
} from '../src/constrained.js';
import { GravityPotential, So3LgviStepper } from '../src/lgvi.js';
import { PairGroupoid } from '../src/pair.js';
import {
  PLATE_BALL_LAMBDA1,
  plateBallG1,
  plateBallSpec,
  SPEED_G1,
  SPEED_LAMBDA1,
  speedSpec,
} from './support/constrainedCases.js';
import { chartStepJacobians, type TangentChart } from './support/tangentJacobian.js';

/** x ⊕ δ on the stepper's state: chart on the arrow, additive on λ and the stored input. */
function plus(out: Float64Array, s: ConstrainedStepper, x: Float64Array, d: Float64Array): void {
  const G = s.system.groupoid;
  const A = G.arrowDim;
  out.set(x);
  G.chart(out.subarray(0, A), x.subarray(0, A), d.subarray(0, G.dim));
  for (let i = G.dim; i < s.tangentSize; i++) out[A + i - G.dim] = x[A + i - G.dim]! + d[i]!;
}

/** y ⊖ x: chartInverse on the arrow, differences on the rest. */
function minus(out: Float64Array, s: ConstrainedStepper, y: Float64Array, x: Float64Array): void {
  const G = s.system.groupoid;
  const A = G.arrowDim;
  G.chartInverse(out.subarray(0, G.dim), x.subarray(0, A), y.subarray(0, A));
  for (let i = G.dim; i < s.tangentSize; i++) out[i] = y[A + i - G.dim]! - x[A + i - G.dim]!;
}

/**
 * The analytic derivatives of one step from x with input u (time t0 = 0, step k = 0, run step h)
 * and their central differences through the charts: largest error relative to max(1, |entry|).
 */
function compare(s: ConstrainedStepper, x: Float64Array, u: Float64Array, h: number, eps = 1e-5) {
  const n = s.tangentSize;
  const m = s.inputSize;
  s.reset(x, 0, h);
  const base = x.slice();
  s.step(base, 0, h, u);
  const A = new Float64Array(n * n);
  const B = new Float64Array(n * m);
  s.stepDerivatives(A, B);
  const chart: TangentChart = {
    size: n,
    plus: (out, y, d) => plus(out, s, y, d),
    minus: (out, y, y0) => minus(out, s, y, y0),
  };
  const { A: fdA, B: fdB } = chartStepJacobians((y, uu) => s.step(y, 0, h, uu), chart, x, u, eps);
  const norm = (a: Float64Array) => a.reduce((v, w) => Math.max(v, Math.abs(w)), 0);
  return { A: relErr(A, fdA), B: relErr(B, fdB), Anorm: norm(A), Bnorm: norm(B), dA: A, dB: B };
}

/** Advances x by a few steps so that the derivatives are taken away from the initial data. */
function advance(s: ConstrainedStepper, x: Float64Array, h: number, u: Float64Array, steps = 3) {
  s.reset(x, 0, h);
  for (let k = 0; k < steps; k++) s.step(x, k, h, u);
  return x;
}

describe('ConstrainedStepper.stepDerivatives on Pair(R³) with a constraint (the speed example)', () => {
  it('analytic gradients: matches central differences to 1e-7 (measured 2.5e-9; tangent = storage, 7)', () => {
    const sys = new DiscreteConstrainedSystem(speedSpec(true));
    const s = new ConstrainedStepper(sys, { tol: 1e-14 });
    expect(s.tangentSize).toBe(7);
    const x = advance(s, s.initialState(SPEED_G1, SPEED_LAMBDA1), 1, new Float64Array(0));
    const r = compare(s, x, new Float64Array(0), 1);
    expect(r.A).toBeLessThan(1e-7);
    expect(r.Anorm).toBeGreaterThan(1);
    // the new arrow starts where the old one ended: ∂q_{k+1}(new source)/∂q_{k+1} = I
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 7; j++)
        expect(Math.abs(r.dA[i * 7 + j]! - (j === 3 + i ? 1 : 0))).toBeLessThan(1e-14);
  });

  it('finite-difference gradients (no hooks): matches central differences to 2e-6 (measured 2.5e-7)', () => {
    const sys = new DiscreteConstrainedSystem(speedSpec(false));
    const s = new ConstrainedStepper(sys, { tol: 1e-12 });
    const x = advance(s, s.initialState(SPEED_G1, SPEED_LAMBDA1), 1, new Float64Array(0));
    const r = compare(s, x, new Float64Array(0), 1, 1e-4);
    expect(r.A).toBeLessThan(2e-6);
  });

  it('agrees with the analytic-gradient system to 1e-6', () => {
    const sA = new ConstrainedStepper(new DiscreteConstrainedSystem(speedSpec(true)), {
      tol: 1e-14,
    });
    const sF = new ConstrainedStepper(new DiscreteConstrainedSystem(speedSpec(false)));
    const x = sA.initialState(SPEED_G1, SPEED_LAMBDA1);
    const xa = x.slice();
    const xf = x.slice();
    sA.step(xa, 0, 1, new Float64Array(0));
    sF.step(xf, 0, 1, new Float64Array(0));
    const a = new Float64Array(49);
    const f = new Float64Array(49);
    sA.stepDerivatives(a, new Float64Array(0));
    sF.stepDerivatives(f, new Float64Array(0));
    expect(relErr(f, a)).toBeLessThan(1e-6);
  });
});

describe('ConstrainedStepper.stepDerivatives of a forced constrained system', () => {
  it('speed example with a nonlinear velocity-dependent force and two inputs: A and B to 1e-7 (measured 2.3e-9, 7.7e-12)', () => {
    const h = 0.1;
    const force = pairGroupoidForce(nonlinearForce(3), h);
    const sys = new DiscreteConstrainedSystem({ ...speedSpec(true), force });
    const s = new ConstrainedStepper(sys, { tol: 1e-14 });
    expect(s.tangentSize).toBe(9);
    const u = Float64Array.of(0.7, -1.3);
    const x = advance(s, s.initialState(SPEED_G1, SPEED_LAMBDA1, [0.2, 0.4]), h, u);
    const r = compare(s, x, u, h);
    expect(r.A).toBeLessThan(1e-7);
    expect(r.B).toBeLessThan(1e-7);
    expect(r.Bnorm).toBeGreaterThan(1e-3);
    // the stored input becomes u_k: rows 7, 8 of B are the identity, of A zero
    expect([...r.dB.subarray(14)]).toEqual([1, 0, 0, 1]);
    expect(r.dA.subarray(63).every((v) => v === 0)).toBe(true);
  });
});

describe('ConstrainedStepper.stepDerivatives on Lie-group arrows (right-⊕ chart coordinates)', () => {
  it('heavy top on Pair(SO(3)) with a body torque input: A and B to 1e-9 (measured 8.3e-12, 4.6e-12; tangent 6 + 3, storage 18 + 3)', () => {
    const h = 0.02;
    const U = new GravityPotential(1.2, 9.81, [0.1, -0.05, 0.4]);
    const lgvi = new So3LgviStepper({ inertia: [1, 1.6, 2.1], h, potential: U });
    const Ld = lgvi.lagrangian;
    const P = Ld.pair;
    const torque = (out: Float64Array, _g: Float64Array, _t: number, v: Float64Array) => {
      for (let i = 0; i < 3; i++) out[i] = 0.5 * h * v[i]!;
      return out;
    };
    const force: GroupoidForce = { inputSize: 3, h, minus: torque, plus: torque };
    const sys = new DiscreteConstrainedSystem({
      groupoid: P,
      m: 0,
      Lhat: (g) => Ld.value(g),
      phi: () => {},
      leftGradL: (out, g) => Ld.d2(out, g),
      rightGradL: (out, g) => P.rightGrad(out, Ld.d1(out, g)),
      force,
    });
    const s = new ConstrainedStepper(sys, { tol: 1e-14 });
    expect(s.tangentSize).toBe(9);
    expect(s.stateSize).toBe(21);
    const g1 = new Float64Array(18);
    SO3.exp(g1.subarray(0, 9), Float64Array.of(0.3, -0.5, 0.8));
    SO3.exp(g1.subarray(9, 18), Float64Array.of(0.33, -0.46, 0.83));
    const u = Float64Array.of(0.4, -0.2, 0.9);
    const x = advance(s, s.initialState(g1, [], [0.1, 0, -0.3]), h, u);
    const r = compare(s, x, u, h);
    expect(r.A).toBeLessThan(1e-9);
    expect(r.B).toBeLessThan(1e-9);
  });

  it('the plate-ball on Pair(R²) × SO(3) with three constraints (finite-difference gradients): to 1e-8 (measured 7.9e-10)', () => {
    const sys = new DiscreteConstrainedSystem(plateBallSpec());
    const s = new ConstrainedStepper(sys, { tol: 1e-12 });
    expect(s.tangentSize).toBe(sys.groupoid.dim + 3);
    const x = advance(s, s.initialState(plateBallG1(), PLATE_BALL_LAMBDA1), 1, new Float64Array(0));
    const r = compare(s, x, new Float64Array(0), 1, 1e-4);
    expect(r.A).toBeLessThan(1e-8);
  });
});

describe('ConstrainedStepper.stepDerivatives errors', () => {
  const sys = new DiscreteConstrainedSystem(speedSpec(true));

  it('before any step: DomainError; wrong lengths: DimensionError', () => {
    const s = new ConstrainedStepper(sys);
    expect(() => s.stepDerivatives(new Float64Array(49), new Float64Array(0))).toThrow(DomainError);
    const x = s.initialState(SPEED_G1, SPEED_LAMBDA1);
    s.step(x, 0, 1, new Float64Array(0));
    expect(() => s.stepDerivatives(new Float64Array(48), new Float64Array(0))).toThrow(
      DimensionError,
    );
    expect(() => s.stepDerivatives(new Float64Array(49), new Float64Array(1))).toThrow(
      DimensionError,
    );
    expect(() =>
      sys.forwardStepDerivatives(
        new Float64Array(49),
        new Float64Array(0),
        SPEED_G1,
        SPEED_LAMBDA1,
        SPEED_G1,
        SPEED_LAMBDA1,
      ),
    ).toThrow(/not composable|composable/i);
  });

  it('a non-regular point (∂²L̂ vanishing at rest) gives NonRegularSystemError', () => {
    // L̂ = (q1 − q0)⁶/6 on Pair(R): at rest the predictor solves the step exactly (0 iterations;
    // the 1×1 bordered Jacobian is scale-free, κ = 1) but ∂²L̂ = 5(q1 − q0)⁴ vanishes, so the
    // step's completed system E_y has κ ≈ 1/d⁴ ≈ 1e21 (d the central-difference step): the
    // implicit function theorem does not apply there (Def 3.5).
    const flat = new DiscreteConstrainedSystem({
      groupoid: new PairGroupoid(1),
      m: 0,
      Lhat: (g) => (g[1]! - g[0]!) ** 6 / 6,
      phi: () => {},
      leftGradL: (out, g) => {
        out[0] = (g[1]! - g[0]!) ** 5;
      },
      rightGradL: (out, g) => {
        out[0] = (g[1]! - g[0]!) ** 5;
      },
    });
    const s = new ConstrainedStepper(flat);
    const x = s.initialState([0.5, 0.5], []);
    expect(s.step(x, 0, 1, new Float64Array(0))).toBe(0);
    expect([...x]).toEqual([0.5, 0.5]);
    expect(() => s.stepDerivatives(new Float64Array(4), new Float64Array(0))).toThrow(
      NonRegularSystemError,
    );
  });
});
