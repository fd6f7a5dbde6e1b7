/**
 * Order studies of the (±)-discrete Lagrange–Dirac integrators (spec 000 §10.8, STYLE.md "Tests"):
 * the forced vertical rolling disk (V = a(1 − cos φ) + ½bθ² + ½c(x² + y²), spec 000 §9.4) against
 * a tight Dormand–Prince reference of the reduced ODE, h = T/(n0·2^k), least-squares slope of
 * log(error) vs log(h), |p − 1| ≤ 0.35 — for both signs and every quadrature rule (the constraint
 * point q_k or q_{k+1} keeps even the midpoint/trapezoid L_d at order 1).
 */
import { convergenceOrder, integrateDopri5 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { verticalRollingDisk } from '../../src/examples.js';
import { integrateLagrangeDirac } from '../../src/lagrangeDirac.js';

const disk = verticalRollingDisk({ a: 0.8, b: 0.3, c: 0.5 });
const T = 2;
const init = { thetaDot: 1, phiDot: 1 };
const y0 = disk.reducedInitialState(init);
const ref = integrateDopri5(disk.reducedRhs, y0, 0, T, { rtol: 1e-13, atol: 1e-13 });
const qT = ref.sample('y', ref.count - 1).slice(0, 4);
const s0 = disk.stateFromReduced(y0);

describe('global order 1 on the forced disk (spec 000 §10.8)', () => {
  for (const sign of ['plus', 'minus'] as const) {
    for (const rule of ['left', 'right', 'midpoint', 'trapezoid'] as const) {
      it(`${sign}/${rule}: |p − 1| ≤ 0.35`, () => {
        const hs: number[] = [];
        const errs: number[] = [];
        for (let k = 0; k < 5; k++) {
          const N = 40 * 2 ** k;
          const h = T / N;
          const sol = integrateLagrangeDirac(
            disk.lagrangian,
            disk.distribution,
            `dirac-${sign}` as const,
            { q0: s0.q, v0: s0.v },
            h,
            N,
            { rule },
          );
          let e = 0;
          for (let i = 0; i < 4; i++) e = Math.max(e, Math.abs(sol.q[4 * N + i]! - qT[i]!));
          hs.push(h);
          errs.push(e);
        }
        const r = convergenceOrder(hs, errs);
        expect(Math.abs(r.order - 1)).toBeLessThanOrEqual(0.35);
      });
    }
  }
});
