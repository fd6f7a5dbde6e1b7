import { convergenceOrder, type Force, refinementLevels } from '@geomech/core';
import {
  actuatorForce,
  centralJacobian,
  expectBitIdentical,
  maxAbsDiff,
  nonlinearForce,
  stepJacobians,
} from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { verticalRollingDisk } from '../src/examples.js';
import { unconstrainedDistribution } from '../src/implicitSystem.js';
import {
  discretize,
  heisenbergSystem,
  integrateLagrangeDirac,
  LagrangeDiracStepper,
} from '../src/lagrangeDirac.js';
import { mechanicalLagrangian } from '../src/lagrangian.js';
import type { Distribution } from '../src/types.js';
import fixtures from './fixtures-unforced.json' with { type: 'json' };

/** |got − want| ≤ tol·max(1, |want|) entry by entry (NaN matches NaN). */
function expectClose(got: number[], want: (number | null)[], tol: number): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const w = want[i] ?? Number.NaN;
    if (Object.is(got[i], w)) continue;
    const d = Math.abs(got[i]! - w) / Math.max(1, Math.abs(w));
    if (!(d <= tol)) throw new Error(`entry ${i}: got ${got[i]}, want ${w} (relative ${d})`);
  }
}

describe('Lagrange–Dirac without forces or with u = 0: the fixtures of main', () => {
  const disk = verticalRollingDisk();
  const hs = heisenbergSystem();
  for (const m of ['dirac-plus', 'dirac-minus'] as const) {
    it(`${m}: rolling disk (rectangle L_d) and Heisenberg (midpoint L_d)`, () => {
      for (const force of [undefined, actuatorForce(4)]) {
        const s = integrateLagrangeDirac(
          disk.lagrangian,
          disk.distribution,
          m,
          { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] },
          0.01,
          60,
          force ? { force, inputs: new Float64Array(60) } : {},
        );
        expectBitIdentical(
          [...s.q, ...s.p, ...s.lambda, ...s.energy, ...s.constraint],
          fixtures[`disk_${m}`],
        );
      }
      for (const force of [undefined, actuatorForce(3)]) {
        const t = integrateLagrangeDirac(
          hs.lagrangian,
          hs.distribution,
          m,
          { q0: [0.1, 0.2, 0.3], v0: [1, 0.5, 0] },
          0.05,
          40,
          { rule: 'midpoint', ...(force ? { force } : {}) },
        );
        const got = [...t.q, ...t.p, ...t.lambda, ...t.energy, ...t.constraint];
        // (−): the Jacobian's ∂(W(q)Δq)/∂q is analytic since issue 20 (central differences
        // before), so Newton stops at a slightly different iterate inside its tolerance: the
        // Heisenberg run (2 iterations per step) moved by ≤ 4.1e-14 relative (measured; asserted
        // 1e-13); the disk's (−) run and every (+) run are still bit-identical.
        if (m === 'dirac-minus') expectClose(got, fixtures[`heis_${m}`], 1e-13);
        else expectBitIdentical(got, fixtures[`heis_${m}`]);
      }
    });
  }
});

describe('forced discrete energy balance of the (+) scheme (midpoint L_d, midpoint f_d)', () => {
  // L = ½vᵀMv − ½qᵀKq (constant M, quadratic V), constraint W(q) = [−y, x, 1] (Heisenberg).
  // From F1: P_k = Mv + (h/2)∇V(q_{k+½}) − (h/2)F̄ − hWᵀλ and P_{k+1} = Mv − (h/2)∇V + (h/2)F̄,
  // v = Δq/h, W = W(q_k); with E = ½PᵀM⁻¹P + V(q) and V(q_{k+1}) − V(q_k) = ∇V(q_{k+½})·Δq:
  //   E_{k+1} − E_k = F̄·Δq + λ·(WΔq) − (h/2)(P_{k+1} − P_k)ᵀM⁻¹Wᵀλ        (exact)
  // (the last two terms are the constraint forces' share; 0 when unconstrained).
  const M = [1, 0, 0, 0, 2, 0, 0, 0, 0.5];
  const Minv = [1, 0.5, 2];
  const K = [1.5, 0.7, 0.3];
  const L = mechanicalLagrangian({
    n: 3,
    mass: M,
    potential: {
      dim: 3,
      V: (q) => 0.5 * (K[0]! * q[0]! ** 2 + K[1]! * q[1]! ** 2 + K[2]! * q[2]! ** 2),
      gradV: (out, q) => {
        for (let i = 0; i < 3; i++) out[i] = K[i]! * q[i]!;
        return out;
      },
    },
  });
  const force = nonlinearForce(3);
  const h = 0.02;
  const steps = 150;
  const inputs = new Float64Array(2 * steps);
  for (let k = 0; k < steps; k++) {
    inputs[2 * k] = Math.sin(0.05 * k);
    inputs[2 * k + 1] = 0.4;
  }
  for (const [name, Delta] of [
    ['constrained (Heisenberg ω)', heisenbergSystem().distribution],
    ['unconstrained', unconstrainedDistribution(3)],
  ] as const) {
    it(`${name}: the identity holds to the Newton residual (≤ 5e-13) relative to max(1, |E|)`, () => {
      const sol = integrateLagrangeDirac(
        L,
        Delta as Distribution,
        'dirac-plus',
        { q0: [0.3, -0.2, 0.1], v0: [0.5, 0.4, 0.2 - 0.5 * -0.2 + 0.4 * 0.3] },
        h,
        steps,
        { rule: 'midpoint', force, inputs, t0: 0.2, tol: 1e-14 },
      );
      const n = 3;
      const m = Delta.m;
      const W = new Float64Array(Math.max(1, m * n));
      const F = new Float64Array(n);
      const mid = new Float64Array(n);
      const v = new Float64Array(n);
      const energy = (k: number): number => {
        let e = 0;
        for (let i = 0; i < n; i++) {
          const p = sol.p[k * n + i]!;
          const q = sol.q[k * n + i]!;
          e += 0.5 * Minv[i]! * p * p + 0.5 * K[i]! * q * q;
        }
        return e;
      };
      let worst = 0;
      let work = 0;
      for (let k = 0; k < steps; k++) {
        const qk = sol.q.subarray(k * n, k * n + n);
        for (let i = 0; i < n; i++) {
          mid[i] = 0.5 * (qk[i]! + sol.q[(k + 1) * n + i]!);
          v[i] = (sol.q[(k + 1) * n + i]! - qk[i]!) / h;
        }
        force.F(F, 0.2 + k * h + h / 2, mid, v, inputs.subarray(2 * k, 2 * k + 2));
        let rhs = 0;
        for (let i = 0; i < n; i++) rhs += F[i]! * v[i]! * h;
        work += Math.abs(rhs);
        if (m > 0) {
          Delta.A(W, Float64Array.from(qk));
          for (let c = 0; c < m; c++) {
            const lam = sol.lambda[k * m + c]!;
            let wdq = 0;
            let corr = 0;
            for (let i = 0; i < n; i++) {
              wdq += W[c * n + i]! * v[i]! * h;
              const dP = sol.p[(k + 1) * n + i]! - sol.p[k * n + i]!;
              corr += dP * Minv[i]! * W[c * n + i]! * lam;
            }
            rhs += lam * wdq - 0.5 * h * corr;
          }
        }
        const dE = energy(k + 1) - energy(k);
        worst = Math.max(worst, Math.abs(dE - rhs) / Math.max(1, energy(k)));
      }
      expect(work).toBeGreaterThan(0.05);
      // round-off: the identity holds up to the accepted Newton residual, whose floor is the
      // step's round-off level 32ε(‖P‖ + ‖q‖‖W‖/h) ≈ 2.6e-13 here (constrained), 5.6e-15 (free)
      expect(sol.stats.maxResidual).toBeLessThan(5e-13);
      expect(worst).toBeLessThan(2 * sol.stats.maxResidual + 1e-14);
    });
  }
});

describe('order unchanged on the forced oscillator q″ + q = cos 2t + u (unconstrained)', () => {
  const OMEGA = 2;
  const A = 1 / (1 - OMEGA * OMEGA);
  const exact = (t: number, q0: number, v0: number, u: number): number =>
    u + (q0 - u - A) * Math.cos(t) + v0 * Math.sin(t) + A * Math.cos(OMEGA * t);
  const drive: Force = {
    n: 1,
    m: 1,
    F: (out, t, _q, _v, u) => {
      out[0] = Math.cos(OMEGA * t) + u[0]!;
      return out;
    },
  };
  const L = mechanicalLagrangian({
    n: 1,
    mass: [1],
    potential: { dim: 1, V: (q) => 0.5 * q[0]! ** 2, gradV: (out, q) => out.fill(q[0]!) },
  });
  const T = 2;
  const { h: hs, steps } = refinementLevels(T, 20, 5);
  for (const [method, rule, quadrature, order] of [
    ['dirac-plus', 'left', 'left', 1],
    ['dirac-minus', 'right', 'right', 1],
    ['dirac-plus', 'midpoint', 'midpoint', 2],
  ] as const) {
    it(`${method}, ${rule} L_d, ${quadrature} f_d: order ${order} forced and unforced`, () => {
      for (const forced of [false, true]) {
        const errors = hs.map((h, j) => {
          const sol = integrateLagrangeDirac(
            L,
            unconstrainedDistribution(1),
            method,
            { q0: [0.7], v0: [-0.4] },
            h,
            steps[j]!,
            {
              rule,
              ...(forced
                ? { force: drive, forceQuadrature: quadrature, inputs: (out) => out.fill(0.3) }
                : {}),
            },
          );
          const want = forced ? exact(T, 0.7, -0.4, 0.3) : 0.7 * Math.cos(T) - 0.4 * Math.sin(T);
          return Math.abs(sol.q[steps[j]!]! - want);
        });
        const p = convergenceOrder(hs, errors).order;
        expect(Math.abs(p - order)).toBeLessThanOrEqual(0.35);
      }
    });
  }
});

describe('forced Lagrange–Dirac Newton Jacobian and step derivatives against central differences', () => {
  const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15, a: 0.4, b: 0.2, c: 0.1 });
  const h = 0.05;
  const u = Float64Array.of(0.7, -0.9);
  const t = 0.35;
  for (const method of ['dirac-plus', 'dirac-minus'] as const) {
    for (const rule of ['left', 'midpoint'] as const) {
      it(`${method}, ${rule} L_d: Jacobian to 1e-7, ∂x_{k+1}/∂x_k and ∂x_{k+1}/∂u_k to 1e-6`, () => {
        const st = new LagrangeDiracStepper(
          discretize(disk.lagrangian, h, rule),
          disk.distribution,
          method,
          { force: nonlinearForce(4), tol: 1e-14 },
        );
        const qk = Float64Array.of(0.1, -0.2, 0.3, 0.4);
        const Pk = Float64Array.of(0.5, 0.2, 0.4, 0.1);
        const y = Float64Array.of(0.12, -0.19, 0.33, 0.41, 0.05, -0.02);
        const J = new Float64Array(36);
        st.jacobian(J, qk, Pk, y, t, u);
        const fd = centralJacobian((out, x) => st.residual(out, qk, Pk, x, t, u), y, 6);
        expect(maxAbsDiff(J, fd)).toBeLessThan(1e-7);

        // a consistent state from one step, then the derivatives of the next
        const x0 = st.initialState(qk, Pk, qk);
        st.reset(x0, t - h); // step k leaves t − h + k·h: step 1 leaves t
        st.step(x0, 0, h, u);
        const S = st.stateSize;
        const A = new Float64Array(S * S);
        const B = new Float64Array(S * 2);
        const x1 = x0.slice();
        st.step(x1, 1, h, u);
        st.stepDerivatives(A, B);
        const fd2 = stepJacobians((y, uu) => st.step(y, 1, h, uu), x0, u);
        expect(maxAbsDiff(A, fd2.A)).toBeLessThan(1e-6);
        expect(maxAbsDiff(B, fd2.B)).toBeLessThan(1e-6);
        expect(maxAbsDiff(B, new Float64Array(B.length))).toBeGreaterThan(1e-3);
      });
    }
  }
  it('throws before any step', () => {
    const st = new LagrangeDiracStepper(
      discretize(disk.lagrangian, h, 'left'),
      disk.distribution,
      'dirac-plus',
    );
    expect(() => st.stepDerivatives(new Float64Array(256), new Float64Array(0))).toThrow(/no step/);
  });
});
