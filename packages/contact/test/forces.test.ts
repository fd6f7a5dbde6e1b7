import { convergenceOrder, type Force, type Potential, refinementLevels } from '@geomech/core';
import {
  actuatorForce,
  centralJacobian,
  expectBitIdentical,
  maxAbsDiff,
  nonlinearForce,
  stepJacobians,
} from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import {
  ContactIntegrator,
  contactLagrangian,
  leftRectangleLd,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  midpointLd,
  pendulumPotential,
  quadraticPotential,
} from '../src/index.js';
import fixtures from './fixtures-unforced.json' with { type: 'json' };

const quartic = contactLagrangian({
  n: 1,
  L: (o, [q], [v], z) =>
    o.add(
      o.sub(o.scale(o.mul(v!, v!), 0.5), o.scale(o.mul(o.mul(q!, q!), o.mul(q!, q!)), 0.25)),
      o.scale(o.mul(z, q!), -0.05),
    ),
});

describe('contact integrators without forces or with u = 0: bit-identical to main', () => {
  it('MidpointHerglotz (phase and two-point starts)', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    for (const force of [undefined, actuatorForce(1)]) {
      const a = new MidpointHerglotz(lag, 0.1, force ? { force } : {}).integrate(
        { q0: [1], v0: [0.2], z0: 0 },
        40,
        force ? { inputs: new Float64Array(40) } : {},
      );
      expectBitIdentical([...a.q, ...a.p, ...a.z, ...a.energy, ...a.sigma], fixtures.midpointPhase);
    }
    const lag2 = mechanicalContactLagrangian(quadraticPotential(1, 2), -0.05);
    for (const force of [undefined, actuatorForce(2)]) {
      const b = new MidpointHerglotz(lag2, 0.2, force ? { force } : {}).integrate(
        { q0: [1, 0.5], q1: [1.1, 0.4], z0: 0.3 },
        30,
      );
      expectBitIdentical(
        [...b.q, ...b.p, ...b.z, ...b.energy, ...b.sigma],
        fixtures.midpointTwoPoint,
      );
    }
  });

  it('ContactIntegrator (midpoint and left-rectangle L_d)', () => {
    for (const [name, method] of [
      ['mid', midpointLd],
      ['left', leftRectangleLd],
    ] as const) {
      for (const force of [undefined, actuatorForce(1)]) {
        const c = new ContactIntegrator(method(quartic, 0.1), {
          lagrangian: quartic,
          ...(force ? { force } : {}),
        }).integrate({ q0: [1], v0: [0.3], z0: 0.1 }, 40, force ? { inputs: () => {} } : {});
        expectBitIdentical(
          [...c.q, ...c.p, ...c.z, ...c.energy, ...c.sigma],
          name === 'mid' ? fixtures.generic_mid : fixtures.generic_left,
        );
      }
    }
  });
});

// q'' + q = cos(ω t) + u (u constant): q = u + (q0 − u − A) cos t + v0 sin t + A cos ωt,
// A = 1/(1 − ω²)
const OMEGA = 2;
const A_F = 1 / (1 - OMEGA * OMEGA);
function exactForced(t: number, q0: number, v0: number, u: number): number {
  return u + (q0 - u - A_F) * Math.cos(t) + v0 * Math.sin(t) + A_F * Math.cos(OMEGA * t);
}
const drive: Force = {
  n: 1,
  m: 1,
  F: (out, t, _q, _v, u) => {
    out[0] = Math.cos(OMEGA * t) + u[0]!;
    return out;
  },
  dFdq: (out) => out.fill(0),
  dFdv: (out) => out.fill(0),
  dFdu: (out) => out.fill(1),
};

/** A nonlinear time-dependent force for the energy and Jacobian checks (n = 2, m = 2). */
const nonlinear = nonlinearForce(2);

describe('forced energy balance (variational midpoint, γ = 0, quadratic V)', () => {
  // Identity: with σ = 1, σp_k = Δq/h + (h/2)∇V(q_{k+½}) − (h/2)F̄ and
  // p_{k+1} = Δq/h − (h/2)∇V(q_{k+½}) + (h/2)F̄, so ½|p_{k+1}|² − ½|p_k|² =
  // ½(p_{k+1} − p_k)·(p_{k+1} + p_k) = (F̄ − ∇V(q_{k+½}))·Δq, and for quadratic V,
  // V(q_{k+1}) − V(q_k) = ∇V(q_{k+½})·Δq exactly:  E_{k+1} − E_k = F̄_k·(q_{k+1} − q_k).
  const n = 2;
  const lag = mechanicalContactLagrangian(quadraticPotential(1.7, n), 0);
  const h = 0.05;
  const steps = 200;
  const inputs = new Float64Array(steps * 2);
  for (let k = 0; k < steps; k++) {
    inputs[2 * k] = Math.sin(0.1 * k);
    inputs[2 * k + 1] = 0.5 * Math.cos(0.07 * k);
  }
  const runs = {
    MidpointHerglotz: () =>
      new MidpointHerglotz(lag, h, { force: nonlinear, tol: 1e-14 }).integrate(
        { q0: [1, -0.5], v0: [0.3, 0.8], z0: 0 },
        steps,
        { inputs, t0: 0.4 },
      ),
    'ContactIntegrator (midpoint L_d)': () =>
      new ContactIntegrator(midpointLd(lag, h), {
        lagrangian: lag,
        force: nonlinear,
        tol: 1e-14,
      }).integrate({ q0: [1, -0.5], v0: [0.3, 0.8], z0: 0 }, steps, { inputs, t0: 0.4 }),
  };
  for (const [name, run] of Object.entries(runs)) {
    it(`${name}: E_{k+1} − E_k = F̄_k·Δq_k to 1e-13 (relative to max(1, |E|))`, () => {
      const sol = run();
      const F = new Float64Array(n);
      const mid = new Float64Array(n);
      const v = new Float64Array(n);
      let worst = 0;
      let work = 0;
      for (let k = 0; k < steps; k++) {
        for (let i = 0; i < n; i++) {
          const a = sol.q[k * n + i]!;
          const b = sol.q[(k + 1) * n + i]!;
          mid[i] = 0.5 * (a + b);
          v[i] = (b - a) / h;
        }
        nonlinear.F(F, 0.4 + k * h + h / 2, mid, v, inputs.subarray(2 * k, 2 * k + 2));
        let W = 0;
        for (let i = 0; i < n; i++) W += F[i]! * v[i]! * h;
        work += Math.abs(W);
        const dE = sol.energy[k + 1]! - sol.energy[k]!;
        worst = Math.max(worst, Math.abs(dE - W) / Math.max(1, Math.abs(sol.energy[k]!)));
      }
      expect(work).toBeGreaterThan(0.5); // the forces do real work
      expect(worst).toBeLessThan(1e-13);
    });
  }
});

describe('order unchanged on the forced oscillator q″ + q = cos 2t + u', () => {
  const T = 2;
  const q0 = 0.7;
  const v0 = -0.4;
  const u = 0.3;
  const { h: hs, steps } = refinementLevels(T, 20, 5);
  function order(
    make: (h: number, forced: boolean) => { integrate: MidpointHerglotz['integrate'] },
  ): { forced: number; unforced: number } {
    const result = { forced: 0, unforced: 0 };
    for (const forced of [false, true]) {
      const errors = hs.map((h, j) => {
        const sol = make(h, forced).integrate(
          { q0: [q0], v0: [v0], z0: 0 },
          steps[j]!,
          forced ? { inputs: (out) => out.fill(u) } : {},
        );
        const exact = forced ? exactForced(T, q0, v0, u) : q0 * Math.cos(T) + v0 * Math.sin(T);
        return Math.abs(sol.q[steps[j]!]! - exact);
      });
      result[forced ? 'forced' : 'unforced'] = convergenceOrder(hs, errors).order;
    }
    return result;
  }
  const lag = mechanicalContactLagrangian(quadraticPotential(1), 0);
  it('MidpointHerglotz with the midpoint force: order 2 (γ = 0) forced and unforced', () => {
    const p = order((h, forced) => new MidpointHerglotz(lag, h, forced ? { force: drive } : {}));
    expect(Math.abs(p.unforced - 2)).toBeLessThanOrEqual(0.35);
    expect(Math.abs(p.forced - 2)).toBeLessThanOrEqual(0.35);
  });
  it('ContactIntegrator, left-rectangle L_d with the left force: order 1 forced and unforced', () => {
    const p = order(
      (h, forced) =>
        new ContactIntegrator(leftRectangleLd(lag, h), {
          lagrangian: lag,
          ...(forced ? { force: drive, forceQuadrature: 'left' as const } : {}),
        }),
    );
    expect(Math.abs(p.unforced - 1)).toBeLessThanOrEqual(0.35);
    expect(Math.abs(p.forced - 1)).toBeLessThanOrEqual(0.35);
  });
});

/** A 2-D potential with coupling, analytic Hessian, time-dependent (not autonomous). */
const coupled: Potential = {
  dim: 2,
  V: (q, t = 0) => 0.5 * q[0]! ** 2 + 0.25 * q[1]! ** 4 + 0.3 * q[0]! * q[1]! * (1 + 0.1 * t),
  gradV: (out, q, t = 0) => {
    const c = 0.3 * (1 + 0.1 * t);
    out[0] = q[0]! + c * q[1]!;
    out[1] = q[1]! ** 3 + c * q[0]!;
    return out;
  },
  hessV: (out, q, t = 0) => {
    const c = 0.3 * (1 + 0.1 * t);
    out[0] = 1;
    out[1] = c;
    out[2] = c;
    out[3] = 3 * q[1]! ** 2;
    return out;
  },
};

describe('forced Newton Jacobians against central differences (tol 1e-7)', () => {
  const lag = mechanicalContactLagrangian(coupled, -0.2);
  const q = Float64Array.of(0.4, -0.7);
  const p = Float64Array.of(0.9, 0.2);
  const u = Float64Array.of(0.6, -1.1);
  const x = Float64Array.of(0.45, -0.66);
  it('MidpointHerglotz (force Jacobian by DiscreteForce central differences)', () => {
    const st = new MidpointHerglotz(lag, 0.1, { force: nonlinear });
    const J = new Float64Array(4);
    st.newtonSystem(new Float64Array(2), x, q, p, 0.3, J, u);
    const fd = centralJacobian((out, y) => st.newtonSystem(out, y, q, p, 0.3, undefined, u), x, 2);
    expect(maxAbsDiff(J, fd)).toBeLessThan(1e-7);
  });
  it('ContactIntegrator (midpoint L_d, midpoint and left force)', () => {
    for (const forceQuadrature of ['midpoint', 'left', 'right'] as const) {
      const st = new ContactIntegrator(midpointLd(lag, 0.1), {
        lagrangian: lag,
        force: nonlinear,
        forceQuadrature,
      });
      const J = new Float64Array(4);
      st.newtonSystem(new Float64Array(2), x, q, p, 0.2, 0.3, J, u);
      const fd = centralJacobian(
        (out, y) => st.newtonSystem(out, y, q, p, 0.2, 0.3, undefined, u),
        x,
        2,
      );
      expect(maxAbsDiff(J, fd)).toBeLessThan(1e-7);
    }
  });
});

describe('MidpointHerglotz.stepDerivatives against central differences of the step', () => {
  const h = 0.1;
  const t = 0.3;
  const x0 = Float64Array.of(0.4, -0.7, 0.9, 0.2, 0.15);
  const u0 = Float64Array.of(0.6, -1.1);
  for (const [name, st] of [
    [
      'forced, time-dependent V',
      new MidpointHerglotz(mechanicalContactLagrangian(coupled, -0.2), h, {
        force: nonlinear,
        tol: 1e-14,
      }),
    ],
    [
      'unforced pendulum',
      new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1), h, {
        tol: 1e-14,
      }),
    ],
  ] as const) {
    it(`${name}: ∂x_{k+1}/∂x_k, ∂x_{k+1}/∂u_k to 1e-7`, () => {
      const s = st.stateSize;
      const m = st.inputSize;
      const u = m === 0 ? new Float64Array(0) : u0;
      const x = x0.subarray(0, s).slice();
      if (s === 3) x.set([0.4, 0.9, 0.15]);
      const A = new Float64Array(s * s);
      const B = new Float64Array(s * m);
      const y = x.slice();
      st.reset(y, t, h); // step 0 leaves t
      st.step(y, 0, h, u);
      st.stepDerivatives(A, B);
      const fd = stepJacobians((yy, uu) => st.step(yy, 0, h, uu), x, u);
      expect(maxAbsDiff(A, fd.A)).toBeLessThan(1e-7);
      expect(Math.abs(A[0]!)).toBeGreaterThan(0.5); // not trivially zero
      if (m > 0) {
        expect(maxAbsDiff(B, fd.B)).toBeLessThan(1e-7);
        expect(maxAbsDiff(B, new Float64Array(s * m))).toBeGreaterThan(1e-3);
      }
    });
  }
  it('throws before any step', () => {
    const st = new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1), h);
    expect(() => st.stepDerivatives(new Float64Array(9), new Float64Array(0))).toThrow(
      /no step taken/,
    );
  });
});
