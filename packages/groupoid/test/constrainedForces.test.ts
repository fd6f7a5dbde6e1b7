// Forces and inputs in DiscreteConstrainedSystem (the forced constrained DEL (5f), issue 17):
// u = 0 bit-identical to the fixtures recorded before forces, the discrete energy balance to
// round-off, and the order of a forced constrained oscillator with a known solution.
import {
  convergenceOrder,
  DimensionError,
  DomainError,
  type Force,
  refinementLevels,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  ConstrainedStepper,
  type ConstrainedSystemSpec,
  DiscreteConstrainedSystem,
  type GroupoidForce,
  pairGroupoidForce,
} from '../src/constrained.js';
import { GravityPotential, So3LgviStepper } from '../src/lgvi.js';
import { PairGroupoid } from '../src/pair.js';
import fixtures from './constrained-fixtures-unforced.json' with { type: 'json' };
import { runUnforced, UNFORCED_CASES, type UnforcedRecord } from './support/constrainedCases.js';

function expectBitIdentical(got: UnforcedRecord, want: Record<string, (number | null)[]>): void {
  for (const key of ['g', 'lambda', 'iterations', 'backward', 'hamilton'] as const) {
    const a = got[key];
    const b = want[key]!;
    expect(a.length, key).toBe(b.length);
    for (let i = 0; i < a.length; i++) {
      const w = b[i] ?? Number.NaN;
      if (!Object.is(a[i], w)) throw new Error(`${key}[${i}]: got ${a[i]}, want ${w}`);
    }
  }
}

/** f_d⁻ = f_d⁺ = (h/2)·B u on every algebroid coordinate (zero at u = 0). */
function linearInputForce(r: number, h: number): GroupoidForce {
  const write = (out: Float64Array, u: Float64Array) => {
    for (let i = 0; i < r; i++) out[i] = 0.5 * h * (i % 2 === 0 ? u[0]! : -0.5 * u[0]!);
    return out;
  };
  return {
    inputSize: 1,
    h,
    minus: (out, _g, _t, u) => write(out, u),
    plus: (out, _g, _t, u) => write(out, u),
  };
}

describe('DiscreteConstrainedSystem without a force, and with a force at u = 0: bit-identical to main', () => {
  for (const [name, make] of Object.entries(UNFORCED_CASES)) {
    it(name, () => {
      const [sys, g1, l1, steps, tol] = make();
      expectBitIdentical(
        runUnforced(sys, g1, l1, steps, tol),
        fixtures[name as keyof typeof fixtures],
      );
      // the same system with a force that vanishes at u = 0 (pair groupoid: core's DiscreteForce)
      const spec = (sys as unknown as { spec: ConstrainedSystemSpec }).spec;
      const force =
        name === 'plateBall'
          ? linearInputForce(sys.r, 0.05)
          : pairGroupoidForce(
              {
                n: 3,
                m: 1,
                F: (out, _t, _q, _v, u) => {
                  out[0] = u[0]!;
                  out[1] = -0.5 * u[0]!;
                  out[2] = 0;
                  return out;
                },
              },
              0.1,
            );
      const forced = new DiscreteConstrainedSystem({ ...spec, force });
      expect(forced.inputSize).toBe(1);
      expectBitIdentical(
        runUnforced(forced, g1, l1, steps, tol),
        fixtures[name as keyof typeof fixtures],
      );
    });
  }
});

// A particle on the line a·q = b in the plane (a = (3, 4)/5, b = 1) in the potential V = ½|q|²,
// with the midpoint discrete Lagrangian and the constraint imposed at the midpoint,
//   L̂(q0, q1) = |q1 − q0|²/(2h) − h V((q0 + q1)/2),   φ(q0, q1) = a·(q0 + q1)/2 − b,
// (regular: ∓→e[φ] = ±a/2 ≠ 0; a·q_k = b propagates exactly from the first arrow), and the force
// F(t, q, v, u) = −c v + A cos(ωt) e₁ + B u (B = (0.3, −0.5)) with the midpoint quadrature.
// Along the line q = b a + s τ (τ = (−4, 3)/5): s'' + c s' + s = A cos(ωt) (τ·e₁) + (τ·B) u.
const a = [0.6, 0.8] as const;
const tau = [-0.8, 0.6] as const;
const bLine = 1;
const cDamp = 0.1;
const A0 = 0.7;
const omega = 1.3;
const Bu = [0.3, -0.5] as const;

const lineForce: Force = {
  n: 2,
  m: 1,
  F: (out, t, _q, v, u) => {
    out[0] = -cDamp * v[0]! + A0 * Math.cos(omega * t) + Bu[0] * u[0]!;
    out[1] = -cDamp * v[1]! + Bu[1] * u[0]!;
    return out;
  },
  dFdq: (out) => out.fill(0),
  dFdv: (out) => {
    out.fill(0);
    out[0] = -cDamp;
    out[3] = -cDamp;
    return out;
  },
  dFdu: (out) => {
    out[0] = Bu[0];
    out[1] = Bu[1];
    return out;
  },
};

function lineSystem(h: number, quadrature: 'midpoint' | 'left' = 'midpoint') {
  const V = (x: number, y: number) => 0.5 * (x * x + y * y);
  const spec: ConstrainedSystemSpec = {
    groupoid: new PairGroupoid(2),
    m: 1,
    Lhat: (g) => {
      const dx = g[2]! - g[0]!;
      const dy = g[3]! - g[1]!;
      return (dx * dx + dy * dy) / (2 * h) - h * V(0.5 * (g[0]! + g[2]!), 0.5 * (g[1]! + g[3]!));
    },
    phi: (out, g) => {
      out[0] = a[0] * 0.5 * (g[0]! + g[2]!) + a[1] * 0.5 * (g[1]! + g[3]!) - bLine;
    },
    // ←e = ∂/∂q1: D₂L̂ = Δq/h − (h/2)∇V(mid); →e = −∂/∂q0: −D₁L̂ = Δq/h + (h/2)∇V(mid)
    leftGradL: (out, g) => {
      for (let i = 0; i < 2; i++) out[i] = (g[2 + i]! - g[i]!) / h - 0.25 * h * (g[i]! + g[2 + i]!);
    },
    rightGradL: (out, g) => {
      for (let i = 0; i < 2; i++) out[i] = (g[2 + i]! - g[i]!) / h + 0.25 * h * (g[i]! + g[2 + i]!);
    },
    leftGradPhi: (out) => {
      out[0] = 0.5 * a[0];
      out[1] = 0.5 * a[1];
    },
    rightGradPhi: (out) => {
      out[0] = -0.5 * a[0];
      out[1] = -0.5 * a[1];
    },
    force: pairGroupoidForce(lineForce, h, quadrature),
  };
  return new DiscreteConstrainedSystem(spec);
}

/** The exact s(t) of s'' + c s' + s = f0 cos(ωt) from s(0) = s0, s'(0) = v0. */
function exactS(s0: number, v0: number) {
  const f0 = A0 * tau[0];
  // particular: Re(Z e^{iωt}), Z = f0/(1 − ω² + i c ω)
  const re = 1 - omega * omega;
  const im = cDamp * omega;
  const den = re * re + im * im;
  const zr = (f0 * re) / den;
  const zi = (-f0 * im) / den;
  const sp = (t: number) => zr * Math.cos(omega * t) - zi * Math.sin(omega * t);
  const dsp = (t: number) => -omega * (zr * Math.sin(omega * t) + zi * Math.cos(omega * t));
  const w = Math.sqrt(1 - (cDamp * cDamp) / 4);
  const C1 = s0 - sp(0);
  const C2 = (v0 - dsp(0) + 0.5 * cDamp * C1) / w;
  return (t: number) =>
    Math.exp(-0.5 * cDamp * t) * (C1 * Math.cos(w * t) + C2 * Math.sin(w * t)) + sp(t);
}

const onLine = (s: number): [number, number] => [
  bLine * a[0] + s * tau[0],
  bLine * a[1] + s * tau[1],
];

describe('the forced constrained DEL (5f) on a particle on a line', () => {
  it('keeps the discrete energy balance E_{k+1} − E_k = F̄·(q_{k+1} − q_k) to round-off', () => {
    // E = ½|Πp|² + V(q) with p = F⁺L_f(g_k, λ_k) and Π the projection on the line: the identity
    // ½(|Πp_{k+1}|² − |Πp_k|²) = (F̄ − ∇V(q_{k+½}))·Δq holds for the midpoint rules (f_d⁻ = f_d⁺,
    // the multiplier terms ±λa/2 are normal), and ∇V(q_{k+½})·Δq = V(q_{k+1}) − V(q_k) for
    // quadratic V.
    const h = 0.05;
    const steps = 400;
    const sys = lineSystem(h);
    const inputs = (out: Float64Array, k: number, t: number) => {
      out[0] = Math.sin(2 * t) + 0.3 * Math.cos(0.1 * k);
    };
    const s = exactS(0.5, 0.2);
    const g1 = Float64Array.of(...onLine(s(-h)), ...onLine(s(0)));
    const uPrev = Float64Array.of(0.4);
    const sol = sys.integrate(g1, [0], { steps, tol: 1e-14, inputs, uPrev });
    const p = { base: new Float64Array(2), p: new Float64Array(2) };
    const u = new Float64Array(1);
    const energy = (k: number): number => {
      const g = sol.sample('g', k);
      if (k === 0) u.set(uPrev);
      else inputs(u, k - 1, (k - 1) * h);
      sys.legendrePlus(p, g, sol.sample('lambda', k), { t: (k - 1) * h, u });
      const pt = p.p[0]! * tau[0] + p.p[1]! * tau[1];
      return 0.5 * pt * pt + 0.5 * (g[2]! ** 2 + g[3]! ** 2);
    };
    const fm = new Float64Array(2);
    const fp = new Float64Array(2);
    let worst = 0;
    let total = 0;
    let work = 0;
    let balance = 0;
    let E0 = energy(0);
    const Estart = E0;
    for (let k = 0; k < steps; k++) {
      const g = sol.sample('g', k + 1);
      inputs(u, k, k * h);
      sys.force!.minus(fm, g, k * h, u);
      sys.force!.plus(fp, g, k * h, u);
      // F̄·Δq = (f_d⁻ + f_d⁺)·Δq / h
      let W = 0;
      for (let i = 0; i < 2; i++) W += ((fm[i]! + fp[i]!) * (g[2 + i]! - g[i]!)) / h;
      const E1 = energy(k + 1);
      worst = Math.max(worst, Math.abs(E1 - E0 - W));
      total += E1 - E0;
      balance += W;
      work += Math.abs(W);
      E0 = E1;
      // and the trajectory stays on the line
      expect(Math.abs(a[0] * g[2]! + a[1] * g[3]! - bLine)).toBeLessThan(1e-14);
    }
    expect(work).toBeGreaterThan(1); // the forces do work: Σ|W| measured 6.1
    expect(Math.abs(total)).toBeGreaterThan(0.1); // E changes (measured 0.56)
    // per step, measured 2.3e-14: round-off, of the Newton residual (max 7.3e-15 in p) and of
    // p = Δq/h (ε|q|/h ≈ 4e-15), times |p| ≲ 1
    expect(worst).toBeLessThan(5e-14);
    // E_400 − E_0 − ΣW, measured 5.6e-16: the per-step noise is in evaluating E_k and telescopes
    expect(Math.abs(E0 - Estart - balance)).toBeLessThan(1e-13);
  });

  it('is of order 2 on the damped, driven oscillator along the line (known solution)', () => {
    const T = 2;
    const { h: hs, steps } = refinementLevels(T, 20, 4);
    const s = exactS(0.5, -0.3);
    const errors = hs.map((h, k) => {
      const sys = lineSystem(h);
      const g1 = Float64Array.of(...onLine(s(-h)), ...onLine(s(0)));
      const sol = sys.integrate(g1, [0], { steps: steps[k]!, tol: 1e-14 });
      const g = sol.sample('g', steps[k]!);
      const [x, y] = onLine(s(T));
      return Math.hypot(g[2]! - x, g[3]! - y);
    });
    const r = convergenceOrder(hs, errors);
    expect(Math.abs(r.order - 2)).toBeLessThan(0.35); // measured 2.07 (errors 5.7e-4 … 7.7e-6)
    expect(errors[0]!).toBeLessThan(1e-2);
    // the left rectangle quadrature of the same force is first order
    const left = hs.map((h, k) => {
      const sys = lineSystem(h, 'left');
      const g1 = Float64Array.of(...onLine(s(-h)), ...onLine(s(0)));
      const g = sys.integrate(g1, [0], { steps: steps[k]!, tol: 1e-14 }).sample('g', steps[k]!);
      const [x, y] = onLine(s(T));
      return Math.hypot(g[2]! - x, g[3]! - y);
    });
    expect(Math.abs(convergenceOrder(hs, left).order - 1)).toBeLessThan(0.35); // measured 1.02
  });

  it('a forward step and a backward step invert each other with forces and inputs', () => {
    const h = 0.1;
    const sys = lineSystem(h);
    const s = exactS(0.5, 0.2);
    const gk = Float64Array.of(...onLine(s(-h)), ...onLine(s(0)));
    const forcing = { t: 0, u: [0.8], uPrev: [-0.3] };
    const fwd = sys.stepForward(gk, [0.1], { ...forcing, tol: 1e-14 });
    const gk1 = fwd.g.slice();
    const lk1 = fwd.lambda.slice();
    const res = sys.delResidual(new Float64Array(3), gk, [0.1], gk1, lk1, forcing);
    expect(Math.max(...res.map(Math.abs))).toBeLessThan(1e-13);
    // the unforced residual of the same pair is not zero: the forces are in the step
    const r0 = sys.delResidual(new Float64Array(3), gk, [0.1], gk1, lk1);
    expect(Math.max(...r0.map(Math.abs))).toBeGreaterThan(1e-3);
    const back = sys.stepBackward(gk1, lk1, { ...forcing, tol: 1e-14 });
    for (let i = 0; i < 4; i++) expect(back.g[i]!).toBeCloseTo(gk[i]!, 13);
    expect(back.lambda[0]!).toBeCloseTo(0.1, 12);
    // the Hamiltonian map from F⁻L_f(g_{k+1}) gives F⁺L_f(g_{k+1}) (same t, u)
    const nu = sys.legendreMinus(
      { base: new Float64Array(2), p: new Float64Array(2) },
      gk1,
      lk1,
      forcing,
    );
    const out = { base: new Float64Array(2), p: new Float64Array(2) };
    sys.hamiltonianMap(out, nu, gk1, { t: 0, u: [0.8], tol: 1e-14, lambdaGuess: lk1 });
    const plus = sys.legendrePlus(
      { base: new Float64Array(2), p: new Float64Array(2) },
      gk1,
      lk1,
      forcing,
    );
    for (let i = 0; i < 2; i++) expect(out.p[i]!).toBeCloseTo(plus.p[i]!, 12);
  });

  it('checks the inputs, the force and the run h', () => {
    const sys = lineSystem(0.1);
    const gk = Float64Array.of(...onLine(0), ...onLine(0.01));
    expect(() => sys.stepForward(gk, [0], { u: [1, 2] })).toThrow(DimensionError);
    expect(() => sys.stepForward(gk, [0], { uPrev: [Number.NaN] })).toThrow(DomainError);
    expect(() => sys.stepForward(gk, [0], { t: Number.POSITIVE_INFINITY })).toThrow(DomainError);
    const st = new ConstrainedStepper(sys);
    expect(st.stateSize).toBe(4 + 1 + 1);
    expect(st.inputSize).toBe(1);
    expect(() => sys.integrate(gk, [0], { steps: 2, h: 0.2 })).toThrow(/force's h/);
    expect(
      () =>
        new DiscreteConstrainedSystem({
          groupoid: new PairGroupoid(1),
          m: 0,
          Lhat: () => 0,
          phi: () => {},
          force: { inputSize: 0, h: -1, minus: (o) => o, plus: (o) => o },
        }),
    ).toThrow(DomainError);
    expect(() => pairGroupoidForce(lineForce, 0)).toThrow(DomainError);
  });
});

describe('the forced DEL (5f) on the pair groupoid of SO(3) is the forced LGVI (L4)–(L6)', () => {
  it('a body torque f_d⁻ = f_d⁺ = (h/2)u reproduces So3LgviStepper to 1e-11 (measured 9.3e-13 over 60 steps)', () => {
    const h = 0.01;
    const U = new GravityPotential(1.2, 9.81, [0.1, -0.05, 0.4]);
    const lgvi = new So3LgviStepper({ inertia: [1, 1.6, 2.1], h, potential: U });
    const Ld = lgvi.lagrangian;
    const P = Ld.pair;
    const input = (out: Float64Array, k: number) => {
      out[0] = Math.sin(k * h);
      out[1] = Math.cos(2 * k * h);
      out[2] = 0.3;
    };
    const N = 60;
    const Rs: Float64Array[] = [];
    const x = lgvi.initialState([0.3, -0.5, 0.8], [1.5, -2, 4]);
    const u = new Float64Array(3);
    Rs.push(x.slice(0, 9));
    for (let k = 0; k < N; k++) {
      input(u, k);
      lgvi.step(x, k, h, u);
      Rs.push(x.slice(0, 9));
    }
    // ←e[L_d] = D₂L_d, →e[L_d] = −D₁L_d (left-trivialized partials (L2), (L3))
    const torque = (out: Float64Array, _g: Float64Array, _t: number, v: Float64Array) => {
      for (let i = 0; i < 3; i++) out[i] = 0.5 * h * v[i]!;
      return out;
    };
    const sys = new DiscreteConstrainedSystem({
      groupoid: P,
      m: 0,
      Lhat: (g) => Ld.value(g),
      phi: () => {},
      leftGradL: (out, g) => Ld.d2(out, g),
      rightGradL: (out, g) => P.rightGrad(out, Ld.d1(out, g)),
      force: { inputSize: 3, h, minus: torque, plus: torque },
    });
    const g1 = new Float64Array(18);
    g1.set(Rs[0]!, 0);
    g1.set(Rs[1]!, 9);
    input(u, 0);
    const sol = sys.integrate(g1, [], {
      steps: N - 1,
      uPrev: u.slice(),
      inputs: (out, k) => input(out, k + 1),
    });
    let worst = 0;
    for (let k = 0; k < N; k++) {
      const g = sol.sample('g', k);
      for (let i = 0; i < 9; i++) worst = Math.max(worst, Math.abs(g[9 + i]! - Rs[k + 1]![i]!));
    }
    expect(worst).toBeLessThan(1e-11);
  });
});
