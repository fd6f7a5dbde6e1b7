import {
  DomainError,
  finiteDifferenceJacobian,
  integrateDopri5,
  normInf,
  rank,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  type ExampleExactPoint,
  type ExampleState,
  type ExampleSystem,
  harmonicOscillator,
  lcCircuit4,
  simpleLC,
  traditor,
  verticalRollingDisk,
} from '../src/examples.js';

// ---------------------------------------------------------------------------------------------
// The implicit Lagrange–d'Alembert equations (6.3)/(6.4), written out here (not taken from the
// library) so that these tests do not depend on ImplicitLagrangianSystem.

interface Residual63 {
  /** max |p − ∂L/∂v| */
  legendre: number;
  /** max |q̇ − v| */
  kinematic: number;
  /** max |A(q) v| */
  constraint: number;
  /** max |ṗ − ∂L/∂q − A(q)ᵀμ| (6.4) */
  multiplierForm: number;
  /** max |G(q)ᵀ(ṗ − ∂L/∂q)| (6.3: ṗ − ∂L/∂q ∈ Δ°) */
  projected: number;
  /** |⟨A(q)ᵀμ, v⟩|, the power of the constraint forces */
  constraintPower: number;
}

function residual63(sys: ExampleSystem<object>, pt: ExampleExactPoint): Residual63 {
  const { lagrangian: lag, distribution: D } = sys;
  const n = lag.n;
  const m = D.m;
  const { q, v, p, mu, qdot, pdot } = pt;
  const Lv = lag.Lv(new Float64Array(n), q, v);
  const Lq = lag.Lq(new Float64Array(n), q, v);
  const A = D.A(new Float64Array(m * n), q);
  const G = D.G!(new Float64Array(n * (n - m)), q);
  const force = new Float64Array(n);
  for (let i = 0; i < n; i++) force[i] = pdot[i]! - Lq[i]!;
  let legendre = 0;
  let kinematic = 0;
  let constraint = 0;
  let multiplierForm = 0;
  let projected = 0;
  let constraintPower = 0;
  for (let i = 0; i < n; i++) {
    legendre = Math.max(legendre, Math.abs(p[i]! - Lv[i]!));
    kinematic = Math.max(kinematic, Math.abs(qdot[i]! - v[i]!));
    let ATmu = 0;
    for (let a = 0; a < m; a++) ATmu += A[a * n + i]! * mu[a]!;
    multiplierForm = Math.max(multiplierForm, Math.abs(force[i]! - ATmu));
    constraintPower += ATmu * v[i]!;
  }
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += A[a * n + i]! * v[i]!;
    constraint = Math.max(constraint, Math.abs(s));
  }
  for (let j = 0; j < n - m; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += G[i * (n - m) + j]! * force[i]!;
    projected = Math.max(projected, Math.abs(s));
  }
  return {
    legendre,
    kinematic,
    constraint,
    multiplierForm,
    projected,
    constraintPower: Math.abs(constraintPower),
  };
}

/** max |·| over the state, for relative tolerances. */
function scaleOf(s: ExampleState): number {
  return Math.max(1, normInf(s.q), normInf(s.v), normInf(s.p), normInf(s.mu));
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

const times = Array.from({ length: 81 }, (_, k) => 0.37 * k - 3); // t ∈ [−3, 26.6]

// ---------------------------------------------------------------------------------------------
// Every example, several initial data

interface Case {
  label: string;
  sys: ExampleSystem<object>;
  init: object;
  /** Expected rank of ∂²L/∂v². */
  hessianRank: number;
  /** Expected rank of Gᵀ M G (the constrained mass matrix). */
  constrainedRank: number;
}

const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 });
const lc = simpleLC();
const lc4 = lcCircuit4();
const ho = harmonicOscillator({ m: 2, k: 8 });
const tr = traditor({ kappa: 0.8 });

const cases: Case[] = [
  ...[
    {},
    { x: 0.3, y: -0.2, theta: 0.1, phi: 0.7, thetaDot: 2, phiDot: 0.5 },
    { x: -1, y: 2, theta: -3, phi: 2.5, thetaDot: -1.3, phiDot: 2.2 },
    { x: 0.5, phi: -1.1, thetaDot: 1.5, phiDot: 0 },
    { phi: 0.4, thetaDot: 0.9, phiDot: 1e-9 },
  ].map((init) => ({
    label: `rolling disk ${JSON.stringify(init)}`,
    sys: disk,
    init,
    hessianRank: 4,
    constrainedRank: 2,
  })),
  ...[{}, { qL: 0.4, qC: -0.7, fL: 1.3 }].map((init) => ({
    label: `simple LC ${JSON.stringify(init)}`,
    sys: lc,
    init,
    hessianRank: 1,
    constrainedRank: 1,
  })),
  ...[{}, { qL: -0.2, qC1: 0.15, qC2: 0.4, fL: -0.8 }, { qC1: 0, qC2: 0, fL: 1 }].map((init) => ({
    label: `4-port LC ${JSON.stringify(init)}`,
    sys: lc4,
    init,
    hessianRank: 1,
    constrainedRank: 1,
  })),
  ...[{}, { q: -0.3, v: 1.7 }].map((init) => ({
    label: `harmonic oscillator ${JSON.stringify(init)}`,
    sys: ho,
    init,
    hessianRank: 1,
    constrainedRank: 1,
  })),
  ...[{}, { x: -0.6, y: 1.1 }].map((init) => ({
    label: `traditor ${JSON.stringify(init)}`,
    sys: tr,
    init,
    hessianRank: 0,
    constrainedRank: 0,
  })),
];

describe.each(cases)('$label', ({ sys, init, hessianRank, constrainedRank }) => {
  const n = sys.lagrangian.n;
  const m = sys.distribution.m;

  it('solves the implicit Lagrangian equations (6.3)/(6.4) at 81 times (1e-10 relative)', () => {
    for (const t of times) {
      const pt = sys.exactSolution(t, init);
      const r = residual63(sys, pt);
      const tol = 1e-10 * scaleOf(pt);
      expect(r.legendre).toBeLessThan(tol);
      expect(r.kinematic).toBeLessThan(tol);
      expect(r.constraint).toBeLessThan(tol);
      expect(r.multiplierForm).toBeLessThan(tol);
      expect(r.projected).toBeLessThan(tol);
      expect(r.constraintPower).toBeLessThan(tol);
    }
  });

  it('satisfies the constraint A(q)v = 0 to 1e-12 and μ = multipliers(q, v) to 1e-12', () => {
    for (const t of times) {
      const pt = sys.exactSolution(t, init);
      expect(residual63(sys, pt).constraint).toBeLessThan(1e-12 * scaleOf(pt));
      const mu = sys.multipliers(new Float64Array(m), pt.q, pt.v);
      expect(maxDiff(mu, pt.mu)).toBeLessThan(1e-12 * scaleOf(pt));
    }
  });

  it('conserves the generalized energy E = ⟨p, v⟩ − L (Prop 6.5) to 1e-12', () => {
    const E0 = sys.exactEnergy(init);
    expect(Number.isFinite(E0)).toBe(true);
    for (const t of times) {
      const pt = sys.exactSolution(t, init);
      const E = sys.energy(pt.q, pt.v, pt.p);
      expect(Math.abs(E - E0)).toBeLessThan(1e-12 * Math.max(1, Math.abs(E0)));
      // with p omitted, E uses p = ∂L/∂v
      expect(Math.abs(sys.energy(pt.q, pt.v) - E)).toBeLessThan(1e-13 * Math.max(1, Math.abs(E)));
    }
  });

  it('has analytic q̇, ṗ equal to central differences of the closed form (1e-7)', () => {
    const h = 1e-5;
    for (const t of times.filter((_, k) => k % 4 === 0)) {
      const pt = sys.exactSolution(t, init);
      const plus = sys.exactSolution(t + h, init);
      const minus = sys.exactSolution(t - h, init);
      const fdq = plus.q.map((x, i) => (x - minus.q[i]!) / (2 * h));
      const fdp = plus.p.map((x, i) => (x - minus.p[i]!) / (2 * h));
      expect(maxDiff(fdq, pt.qdot)).toBeLessThan(1e-7 * scaleOf(pt));
      expect(maxDiff(fdp, pt.pdot)).toBeLessThan(1e-7 * scaleOf(pt));
    }
  });

  it('agrees with a DOPRI5 integration of the reduced ODE (1e-8)', () => {
    const tEval = Array.from({ length: 21 }, (_, k) => 0.5 * k);
    const y0 = sys.reducedInitialState(init);
    expect(y0.length).toBe(sys.reducedDimension);
    const at0 = sys.stateFromReduced(y0);
    const ex0 = sys.exactSolution(0, init);
    for (const key of ['q', 'v', 'p', 'mu'] as const) {
      expect(maxDiff(at0[key], ex0[key])).toBeLessThan(1e-14 * scaleOf(ex0));
    }
    const sol = integrateDopri5(sys.reducedRhs, y0, 0, 10, { rtol: 1e-12, atol: 1e-14, tEval });
    for (let k = 0; k < sol.count; k++) {
      const num = sys.stateFromReduced(sol.sample('y', k));
      const ex = sys.exactSolution(sol.t[k]!, init);
      for (const key of ['q', 'v', 'p', 'mu'] as const) {
        expect(maxDiff(num[key], ex[key])).toBeLessThan(1e-8 * scaleOf(ex));
      }
    }
  });

  it('provides derivatives of L matching central differences (1e-7)', () => {
    const lag = sys.lagrangian;
    const q = sys.exactSolution(1.3, init).q.map((x, i) => x + 0.1 * (i + 1));
    const v = Float64Array.from({ length: n }, (_, i) => 0.7 - 0.4 * i);
    const fdq = finiteDifferenceJacobian(
      new Float64Array(n),
      (out, x) => {
        out[0] = lag.L(x, v);
      },
      q,
      1,
      n,
    );
    const fdv = finiteDifferenceJacobian(
      new Float64Array(n),
      (out, x) => {
        out[0] = lag.L(q, x);
      },
      v,
      1,
      n,
    );
    const fdM = finiteDifferenceJacobian(
      new Float64Array(n * n),
      (out, x) => lag.Lv(out, q, x),
      v,
      n,
      n,
    );
    const fdN = finiteDifferenceJacobian(
      new Float64Array(n * n),
      (out, x) => lag.Lv(out, x, v),
      q,
      n,
      n,
    );
    expect(maxDiff(lag.Lq(new Float64Array(n), q, v), fdq)).toBeLessThan(1e-7);
    expect(maxDiff(lag.Lv(new Float64Array(n), q, v), fdv)).toBeLessThan(1e-7);
    expect(maxDiff(lag.Lvv(new Float64Array(n * n), q, v), fdM)).toBeLessThan(1e-7);
    expect(maxDiff(lag.Lvq(new Float64Array(n * n), q, v), fdN)).toBeLessThan(1e-7);
  });

  it('has Δ = ker A = span G (rank n − m), Adot = d/ds A(q + s v) (1e-8)', () => {
    const D = sys.distribution;
    expect(D.n).toBe(n);
    for (const t of [0, 0.9, 2.3]) {
      const { q } = sys.exactSolution(t, init);
      const A = D.A(new Float64Array(m * n), q);
      const G = D.G!(new Float64Array(n * (n - m)), q);
      let AG = 0;
      for (let a = 0; a < m; a++)
        for (let j = 0; j < n - m; j++) {
          let s = 0;
          for (let i = 0; i < n; i++) s += A[a * n + i]! * G[i * (n - m) + j]!;
          AG = Math.max(AG, Math.abs(s));
        }
      expect(AG).toBeLessThan(1e-14);
      if (m > 0) expect(rank(A, m, n)).toBe(m);
      expect(rank(G, n, n - m)).toBe(n - m);
      const v = Float64Array.from({ length: n }, (_, i) => 0.3 + 0.5 * i);
      const fd = finiteDifferenceJacobian(
        new Float64Array(m * n),
        (out, s) => {
          const qs = q.map((x, i) => x + s[0]! * v[i]!);
          D.A(out, qs);
        },
        [0],
        m * n,
        1,
      );
      expect(maxDiff(D.Adot(new Float64Array(m * n), q, v), fd)).toBeLessThan(1e-8);
    }
  });

  it(`has Hessian ∂²L/∂v² of rank ${hessianRank} and Gᵀ M G of rank ${constrainedRank}`, () => {
    const { q, v } = sys.exactSolution(0.4, init);
    const M = sys.lagrangian.Lvv(new Float64Array(n * n), q, v);
    const k = n - m;
    const G = sys.distribution.G!(new Float64Array(n * k), q);
    const GMG = new Float64Array(k * k);
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++) {
        let s = 0;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) s += G[i * k + a]! * M[i * n + j]! * G[j * k + b]!;
        GMG[a * k + b] = s;
      }
    expect(normInf(M) === 0 ? 0 : rank(M, n, n)).toBe(hessianRank);
    expect(normInf(GMG) === 0 ? 0 : rank(GMG, k, k)).toBe(constrainedRank);
  });
});

// ---------------------------------------------------------------------------------------------
// Rolling disk (spec 002 §4.1)

describe('vertical rolling disk: analytic values (spec 002 §4.1)', () => {
  const { m, R, I, J } = disk.params;
  const init = { x: 0.3, y: -0.2, theta: 0.1, phi: 0.7, thetaDot: 2, phiDot: 0.5 };

  it('uses the CLI defaults m = R = I = J = 1, a = b = c = 0, θ̇ = φ̇ = 1', () => {
    const d = verticalRollingDisk();
    expect(d.params).toEqual({ m: 1, R: 1, I: 1, J: 1, a: 0, b: 0, c: 0 });
    expect(d.isFree).toBe(true);
    expect(d.defaultInit).toEqual({ x: 0, y: 0, theta: 0, phi: 0, thetaDot: 1, phiDot: 1 });
    expect(d.name).toBe('rolling-disk');
  });

  it('keeps v_θ, v_φ, p_θ, p_φ constant (exactly) and E = ½(mR² + I)Ω² + ½Jω²', () => {
    for (const t of times) {
      const s = disk.exactSolution(t, init);
      expect(s.v[2]).toBe(2);
      expect(s.v[3]).toBe(0.5);
      expect(s.p[2]).toBe(I * 2);
      expect(s.p[3]).toBe(J * 0.5);
      expect(s.pdot[2]).toBe(0);
      expect(s.pdot[3]).toBe(0);
    }
    expect(disk.exactEnergy(init)).toBeCloseTo(0.5 * (m * R * R + I) * 4 + 0.5 * J * 0.25, 14);
  });

  it('moves the contact point on the circle of radius R|Ω/ω| about the stated centre (1e-12)', () => {
    const { radius, center } = disk.circle(init);
    expect(radius).toBeCloseTo(R * 4, 14);
    expect(center).not.toBeNull();
    const [cx, cy] = center!;
    expect(cx).toBeCloseTo(0.3 - R * 4 * Math.sin(0.7), 14);
    expect(cy).toBeCloseTo(-0.2 + R * 4 * Math.cos(0.7), 14);
    for (const t of times) {
      const { q } = disk.exactSolution(t, init);
      expect(Math.abs(Math.hypot(q[0]! - cx, q[1]! - cy) - radius)).toBeLessThan(1e-12);
    }
    // the circle closes after one heading period 2π/ω
    const q0 = disk.exactSolution(0, init).q;
    const q1 = disk.exactSolution((2 * Math.PI) / 0.5, init).q;
    expect(Math.abs(q1[0]! - q0[0]!)).toBeLessThan(1e-12);
    expect(Math.abs(q1[1]! - q0[1]!)).toBeLessThan(1e-12);
  });

  it('has μ₁ = −mRΩω sin φ, μ₂ = mRΩω cos φ and ṗ_θ = 0 (1e-14)', () => {
    for (const t of times) {
      const s = disk.exactSolution(t, init);
      const phi = 0.7 + 0.5 * t;
      expect(Math.abs(s.mu[0]! + m * R * 2 * 0.5 * Math.sin(phi))).toBeLessThan(1e-14);
      expect(Math.abs(s.mu[1]! - m * R * 2 * 0.5 * Math.cos(phi))).toBeLessThan(1e-14);
      // ṗ_θ = −R cos φ μ₁ − R sin φ μ₂ = 0 identically
      expect(
        Math.abs(-R * Math.cos(s.q[3]!) * s.mu[0]! - R * Math.sin(s.q[3]!) * s.mu[1]!),
      ).toBeLessThan(1e-14);
    }
  });

  it('rolls on a straight line for ω = 0, continuously as ω → 0 (1e-9 at ω = 1e-9)', () => {
    const straight = { x: 0.5, phi: -1.1, thetaDot: 1.5, phiDot: 0 };
    expect(disk.circle(straight)).toEqual({ radius: Number.POSITIVE_INFINITY, center: null });
    for (const t of times) {
      const s = disk.exactSolution(t, straight);
      expect(Math.abs(s.q[0]! - (0.5 + R * 1.5 * Math.cos(-1.1) * t))).toBeLessThan(1e-14 * 50);
      expect(Math.abs(s.q[1]! - R * 1.5 * Math.sin(-1.1) * t)).toBeLessThan(1e-14 * 50);
      const near = disk.exactSolution(t, { ...straight, phiDot: 1e-9 });
      expect(maxDiff(near.q, s.q)).toBeLessThan(1e-9 * (1 + t * t));
    }
  });

  it('refuses the closed form with a potential; its reduced ODE solves (6.4) (1e-12)', () => {
    const pot = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15, a: 0.4, b: 0.3, c: 0.2 });
    expect(pot.isFree).toBe(false);
    expect(() => pot.exactSolution(1)).toThrow(DomainError);
    const rhs = new Float64Array(6);
    for (const y of [
      [0.3, -0.2, 0.1, 0.7, 2, 0.5],
      [-1, 2, -3, 2.5, -1.3, 2.2],
    ]) {
      const Y = Float64Array.from(y);
      pot.reducedRhs(rhs, 0, Y);
      const { q, v, p, mu } = pot.stateFromReduced(Y);
      // q̇ from the reduced ODE; v̇ by the product rule on v = (R cos φ v_θ, R sin φ v_θ, v_θ, v_φ)
      const phiDot = rhs[3]!;
      const vtDot = rhs[4]!;
      const vt = v[2]!;
      const cp = Math.cos(q[3]!);
      const sp = Math.sin(q[3]!);
      const vdot = [
        R * (-sp * phiDot * vt + cp * vtDot),
        R * (cp * phiDot * vt + sp * vtDot),
        vtDot,
        rhs[5]!,
      ];
      const M = [2, 2, 0.3, 0.15];
      const pt: ExampleExactPoint = {
        t: 0,
        q,
        v,
        p,
        mu,
        qdot: rhs.slice(0, 4),
        pdot: Float64Array.from(vdot, (x, i) => M[i]! * x),
      };
      const r = residual63(pot, pt);
      for (const val of Object.values(r)) expect(val).toBeLessThan(1e-12 * scaleOf(pt));
    }
  });

  it('conserves E = ½(mR² + I)v_θ² + ½Jv_φ² + V along DOPRI5 with a potential (1e-10)', () => {
    const pot = verticalRollingDisk({ a: 0.4, b: 0.3, c: 0.2 });
    const init2 = { x: 0.2, y: 0.1, thetaDot: 1.2, phiDot: -0.4 };
    const E0 = pot.exactEnergy(init2);
    const sol = integrateDopri5(pot.reducedRhs, pot.reducedInitialState(init2), 0, 20, {
      rtol: 1e-12,
      atol: 1e-14,
    });
    for (let k = 0; k < sol.count; k++) {
      const { q, v, p } = pot.stateFromReduced(sol.sample('y', k));
      expect(Math.abs(pot.energy(q, v, p) - E0)).toBeLessThan(1e-10);
      expect(
        Math.abs(
          pot.potential(q) -
            (0.4 * (1 - Math.cos(q[3]!)) + 0.15 * q[2]! ** 2 + 0.1 * (q[0]! ** 2 + q[1]! ** 2)),
        ),
      ).toBeLessThan(1e-15);
    }
  });

  it('rejects non-positive m, R, I, J and non-finite data', () => {
    expect(() => verticalRollingDisk({ m: 0 })).toThrow(DomainError);
    expect(() => verticalRollingDisk({ R: -1 })).toThrow(DomainError);
    expect(() => verticalRollingDisk({ J: Number.NaN })).toThrow(DomainError);
    expect(() => verticalRollingDisk({ a: Number.POSITIVE_INFINITY })).toThrow(DomainError);
    expect(() => disk.exactSolution(1, { phi: Number.NaN })).toThrow(DomainError);
    expect(() => disk.exactSolution(Number.NaN)).toThrow(DomainError);
  });
});

// ---------------------------------------------------------------------------------------------
// L-C circuits (spec 002 §4.2)

describe('single-loop L-C circuit (spec 002 §4.2, simplest case)', () => {
  it('has the CLI defaults L = 2, C = 0.125, qC = 1, fL = 0 and ω = 1/√(LC) = 2', () => {
    expect(lc.params).toEqual({ L: 2, C: 0.125 });
    expect(lc.defaultInit).toEqual({ qL: 0, qC: 1, fL: 0 });
    expect(lc.omega).toBe(2);
    expect(simpleLC({ L: 0.5, C: 0.02 }).omega).toBeCloseTo(10, 13);
  });

  it('is periodic with period 2π/ω and has q_C = cos 2t from the defaults (1e-14)', () => {
    const T = (2 * Math.PI) / lc.omega;
    const a = lc.exactSolution(0.3);
    const b = lc.exactSolution(0.3 + T);
    expect(maxDiff(a.q, b.q)).toBeLessThan(1e-14);
    expect(maxDiff(a.v, b.v)).toBeLessThan(1e-14);
    for (const t of times)
      expect(Math.abs(lc.exactSolution(t).q[1]! - Math.cos(2 * t))).toBeLessThan(1e-15);
  });

  it('satisfies Tellegen Σ e_k f_k = 0 with e = ṗ − ∂L/∂q = Aᵀμ (1e-12)', () => {
    const init = { qL: 0.4, qC: -0.7, fL: 1.3 };
    const e = new Float64Array(2);
    for (const t of times) {
      const s = lc.exactSolution(t, init);
      lc.branchVoltages(e, s.q);
      const Lq = lc.lagrangian.Lq(new Float64Array(2), s.q, s.v);
      expect(maxDiff(e, [s.pdot[0]! - Lq[0]!, s.pdot[1]! - Lq[1]!])).toBeLessThan(1e-12);
      expect(Math.abs(e[0]! * s.v[0]! + e[1]! * s.v[1]!)).toBeLessThan(1e-12);
      // inductor law e_L = L ḟ_L, capacitor law e_C = q_C/C
      expect(Math.abs(e[1]! - s.q[1]! / 0.125)).toBeLessThan(1e-12);
    }
  });

  it('stays on the primary constraint p_C = 0 (exactly)', () => {
    const out = new Float64Array(1);
    for (const t of times) {
      const s = lc.exactSolution(t, { qC: 0.3, fL: -2 });
      expect(lc.primaryConstraints(out, s.q, s.p)[0]).toBe(0);
      expect(s.pdot[1]).toBe(0);
    }
  });
});

describe('4-port L-C circuit (seed 002 §7, spec 002 §4.2)', () => {
  const { L, C1, C2, C3 } = lc4.params;

  it('has the CLI defaults and ω_LC = √((1/L)(1/C2 + 1/(C1+C3))) = 2.0118695404 (1e-10)', () => {
    expect(lc4.params).toEqual({ L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 });
    expect(lc4.defaultInit).toEqual({ qL: 0, qC1: 0.3, qC2: 0, fL: 0 });
    expect(Math.abs(lc4.omegaLC - 2.0118695404)).toBeLessThan(1e-10);
    expect(lc4.Ceq).toBeCloseTo((C2 * (C1 + C3)) / (C1 + C2 + C3), 15);
    expect(1 / lc4.Ceq).toBeCloseTo(1 / C2 + 1 / (C1 + C3), 14);
    expect(lc4.omegaLC).toBeCloseTo(1 / Math.sqrt(L * lc4.Ceq), 14);
  });

  it('has the KCL matrix (7.2) as its constraint one-forms and loops g₁, g₂ as G', () => {
    expect(Array.from(lc4.kcl)).toEqual([-1, 0, 1, 0, 0, -1, 1, -1]);
    const q = new Float64Array(4);
    expect(Array.from(lc4.distribution.A(new Float64Array(8), q))).toEqual(Array.from(lc4.kcl));
    const G = lc4.distribution.G!(new Float64Array(8), q);
    expect([G[0], G[2], G[4], G[6]]).toEqual([1, 1, 1, 0]);
    expect([G[1], G[3], G[5], G[7]]).toEqual([1, 0, 1, 1]);
  });

  it('preserves the secondary constraint q_C1/C1 = q_C3/C3 (1e-14; DOPRI5 1e-11)', () => {
    const init = { qL: -0.2, qC1: 0.15, qC2: 0.4, fL: -0.8 };
    for (const t of times) {
      const s = lc4.exactSolution(t, init);
      expect(Math.abs(lc4.secondaryConstraint(s.q))).toBeLessThan(1e-14);
      // its derivative f_C1/C1 = f_C3/C3
      expect(Math.abs(s.v[1]! / C1 - s.v[3]! / C3)).toBeLessThan(1e-14);
      // both expressions of μ₂ agree: −q_C1/C1 = −q_C3/C3
      expect(Math.abs(s.mu[1]! + s.q[3]! / C3)).toBeLessThan(1e-14);
    }
    const sol = integrateDopri5(lc4.reducedRhs, lc4.reducedInitialState(init), 0, 30, {
      rtol: 1e-12,
      atol: 1e-14,
    });
    for (let k = 0; k < sol.count; k++) {
      const q = sol.sample('y', k).subarray(0, 4);
      expect(Math.abs(lc4.secondaryConstraint(q))).toBeLessThan(1e-11);
    }
  });

  it('builds consistent initial data from (qC1, qC2, fL) with qC3 = C3 qC1/C1', () => {
    const s = lc4.consistentInitialData(0.3, 0.1, 0.5);
    expect(s.q[0]).toBe(0);
    expect(s.q[3]).toBeCloseTo((C3 * 0.3) / C1, 15);
    expect(Math.abs(lc4.secondaryConstraint(s.q))).toBeLessThan(1e-15);
    const Av = [-s.v[0]! + s.v[2]!, -s.v[1]! + s.v[2]! - s.v[3]!];
    expect(normInf(Av)).toBeLessThan(1e-15);
    expect(Array.from(s.p)).toEqual([L * 0.5, 0, 0, 0]);
    const ex = lc4.exactSolution(0, { qC1: 0.3, qC2: 0.1, fL: 0.5 });
    for (const key of ['q', 'v', 'p', 'mu'] as const) expect(maxDiff(s[key], ex[key])).toBe(0);
    expect(() => lc4.consistentInitialData(Number.NaN, 0, 0)).toThrow(DomainError);
  });

  it('satisfies Tellegen Σ e_k f_k = 0 and KVL e_L + e_C1 + e_C2 = 0, e_C1 = e_C3 (1e-12)', () => {
    const init = { qL: -0.2, qC1: 0.15, qC2: 0.4, fL: -0.8 };
    const e = new Float64Array(4);
    for (const t of times) {
      const s = lc4.exactSolution(t, init);
      lc4.branchVoltages(e, s.q);
      const Lq = lc4.lagrangian.Lq(new Float64Array(4), s.q, s.v);
      expect(
        maxDiff(
          e,
          s.pdot.map((x, i) => x - Lq[i]!),
        ),
      ).toBeLessThan(1e-12);
      let ef = 0;
      for (let k = 0; k < 4; k++) ef += e[k]! * s.v[k]!;
      expect(Math.abs(ef)).toBeLessThan(1e-12);
      expect(Math.abs(e[0]! + e[1]! + e[2]!)).toBeLessThan(1e-12);
      expect(Math.abs(e[1]! - e[3]!)).toBeLessThan(1e-12);
      // capacitor laws e_Ck = q_Ck/Ck
      expect(Math.abs(e[1]! - s.q[1]! / C1)).toBeLessThan(1e-12);
      expect(Math.abs(e[2]! - s.q[2]! / C2)).toBeLessThan(1e-12);
    }
  });

  it('stays on the primary constraints p_C1 = p_C2 = p_C3 = 0 with ṗ_C = 0 (7.3)', () => {
    const out = new Float64Array(3);
    for (const t of times) {
      const s = lc4.exactSolution(t);
      expect(Array.from(lc4.primaryConstraints(out, s.q, s.p))).toEqual([0, 0, 0]);
      expect([s.pdot[1], s.pdot[2], s.pdot[3]]).toEqual([0, 0, 0]);
    }
  });

  it('is periodic with period 2π/ω_LC in (q_C, f) (1e-13)', () => {
    const T = (2 * Math.PI) / lc4.omegaLC;
    const init = { qC1: 0.15, qC2: 0.4, fL: -0.8 };
    const a = lc4.exactSolution(0.7, init);
    const b = lc4.exactSolution(0.7 + T, init);
    expect(maxDiff(a.v, b.v)).toBeLessThan(1e-13);
    expect(maxDiff(a.q.subarray(1), b.q.subarray(1))).toBeLessThan(1e-13);
  });

  it('rejects non-positive circuit parameters', () => {
    expect(() => lcCircuit4({ C2: 0 })).toThrow(DomainError);
    expect(() => simpleLC({ L: -2 })).toThrow(DomainError);
  });
});

// ---------------------------------------------------------------------------------------------
// Harmonic oscillator (spec 002 §4.4) and traditor (spec 002 §4.3)

describe('harmonic oscillator (spec 002 §4.4)', () => {
  it('has ω = √(k/m) and the period 2π/ω (1e-14)', () => {
    expect(ho.omega).toBe(2);
    expect(harmonicOscillator().omega).toBe(1);
    const T = (2 * Math.PI) / ho.omega;
    const a = ho.exactSolution(0.2, { q: -0.3, v: 1.7 });
    const b = ho.exactSolution(0.2 + T, { q: -0.3, v: 1.7 });
    expect(maxDiff(a.q, b.q)).toBeLessThan(1e-14);
    expect(Math.abs(ho.exactSolution(Math.PI / 2).q[0]! + 1)).toBeLessThan(1e-15);
    expect(() => harmonicOscillator({ k: 0 })).toThrow(DomainError);
  });
});

describe('traditor L = ⟨α(q), v⟩ − V (spec 002 §4.3)', () => {
  it('stays on the primary constraint p = α(q) and has E = V(q) (1e-15)', () => {
    const out = new Float64Array(2);
    for (const t of times) {
      const s = tr.exactSolution(t, { x: -0.6, y: 1.1 });
      expect(normInf(tr.primaryConstraints(out, s.q, s.p))).toBeLessThan(1e-15);
      const V = 0.5 * (s.q[0]! ** 2 + s.q[1]! ** 2);
      expect(Math.abs(tr.energy(s.q, s.v, s.p) - V)).toBeLessThan(1e-15);
    }
  });

  it('rotates at the rate 1/κ: ẋ = −y/κ, ẏ = x/κ (1e-14)', () => {
    expect(tr.omega).toBe(1 / 0.8);
    for (const t of times) {
      const s = tr.exactSolution(t);
      expect(Math.abs(s.q[0]! - Math.cos(t / 0.8))).toBeLessThan(1e-14);
      expect(Math.abs(s.q[1]! - Math.sin(t / 0.8))).toBeLessThan(1e-14);
      expect(Math.abs(s.v[0]! + s.q[1]! / 0.8)).toBeLessThan(1e-15);
      expect(Math.abs(s.v[1]! - s.q[0]! / 0.8)).toBeLessThan(1e-15);
    }
    expect(() => traditor({ kappa: 0 })).toThrow(DomainError);
  });

  it('solves (6.3) only with the rotation: the velocity is not free (first-order system)', () => {
    // A wrong velocity at the same (q, p) breaks ṗ − ∂L/∂q = 0, whatever ṗ = (d/dt)α(q) is.
    const s = tr.exactSolution(0.5);
    const v = Float64Array.of(s.v[0]! + 0.1, s.v[1]!);
    const pdot = Float64Array.of(-0.4 * v[1]!, 0.4 * v[0]!); // (κ/2)(−ẏ, ẋ) with q̇ = v
    const r = residual63(tr, { ...s, v, qdot: v, pdot });
    expect(r.legendre).toBe(0);
    expect(r.multiplierForm).toBeGreaterThan(0.05);
  });
});
