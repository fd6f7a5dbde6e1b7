// Time in the (±) Lagrange–Dirac steppers under core's Stepper contract step(state, k, h, u):
// step k runs from t_k = t0 + k·h (t0 of the last reset), the nodes of L_d at t_k + b_j h, and an
// autonomous L is called without a time argument.
import { describe, expect, it } from 'vitest';
import { verticalRollingDisk } from '../src/examples.js';
import { unconstrainedDistribution } from '../src/implicitSystem.js';
import { discretize, integrateLagrangeDirac, LagrangeDiracStepper } from '../src/lagrangeDirac.js';
import type { Lagrangian } from '../src/types.js';
import { clockedOscillator } from './support/clockedOscillator.js';

describe('Lagrange–Dirac steppers: the time of step k', () => {
  const h = 0.1;
  const t0 = 0.25;
  const steps = 7;

  for (const [method, rule, b] of [
    ['dirac-plus', 'left', 0],
    ['dirac-minus', 'right', 1],
  ] as const) {
    it(`${method}, ${rule} L_d: every L_q call of step k is at t0 + k·h + ${b}·h, whatever every`, () => {
      let reference: Float64Array | undefined;
      for (const every of [1, 3, 10]) {
        const seen: (number | undefined)[] = [];
        const L = clockedOscillator(seen);
        const sol = integrateLagrangeDirac(
          L,
          unconstrainedDistribution(1),
          method,
          { q0: [0.6], v0: [0.2] },
          h,
          steps,
          { rule, t0, every },
        );
        // the nodes each step may evaluate (the last sample's look-ahead step included)
        const nodes = new Set<number | undefined>();
        for (let k = 0; k <= steps; k++) nodes.add(t0 + k * h + b * h);
        nodes.add(t0 + b * h); // the initial momentum's D₁L_d at t0
        expect(seen.length).toBeGreaterThan(steps);
        for (const t of seen) expect(nodes.has(t)).toBe(true);
        // each step's node appears (step k at exactly t0 + k·h + b·h)
        for (let k = 0; k < steps; k++) expect(seen).toContain(t0 + k * h + b * h);
        const last = sol.q.subarray(sol.q.length - 1);
        if (reference === undefined) reference = last.slice();
        else expect(last[0]).toBe(reference[0]); // every does not change the trajectory
      }
    });
  }

  it('a stepper driven by hand: reset(x, t0) sets the clock, a restart restarts it', () => {
    const seen: (number | undefined)[] = [];
    const Ld = discretize(clockedOscillator(seen), h, 'left');
    const st = new LagrangeDiracStepper(Ld, unconstrainedDistribution(1), 'dirac-plus');
    const x = st.initialState([0.6], [0.2], [0.62]);
    st.step(x, 0, h); // before any reset: t0 = 0
    expect(new Set(seen)).toEqual(new Set([0]));
    seen.length = 0;
    st.reset(x, 2);
    st.step(x, 3, h);
    expect(new Set(seen)).toEqual(new Set([2 + 3 * h]));
    seen.length = 0;
    st.reset(x, -1);
    st.step(x, 0, h);
    expect(new Set(seen)).toEqual(new Set([-1]));
  });

  it('an autonomous L (declared) is called without a time argument', () => {
    const seen: (number | undefined)[] = [];
    const L: Lagrangian = { ...clockedOscillator(seen), autonomous: true };
    const timed: (number | undefined)[] = [];
    const sol = integrateLagrangeDirac(
      L,
      unconstrainedDistribution(1),
      'dirac-minus',
      { q0: [0.6], v0: [0.2] },
      h,
      steps,
      { rule: 'right', t0 },
    );
    expect(seen.length).toBeGreaterThan(steps);
    expect(seen.every((t) => t === undefined)).toBe(true);
    // and it is the time-dependent run at t ≡ 0 (L_q reads t ?? 0), bit for bit
    const frozen: Lagrangian = {
      ...clockedOscillator(timed),
      Lq: (out, q) => {
        out[0] = -(1 + 0.4) * q[0]!;
        return out;
      },
    };
    const ref = integrateLagrangeDirac(
      frozen,
      unconstrainedDistribution(1),
      'dirac-minus',
      { q0: [0.6], v0: [0.2] },
      h,
      steps,
      { rule: 'right', t0 },
    );
    expect(Array.from(sol.q)).toEqual(Array.from(ref.q));
    // the built-in examples declare it
    expect(verticalRollingDisk().lagrangian.autonomous).toBe(true);
    expect(discretize(verticalRollingDisk().lagrangian, h, 'left').autonomous).toBe(true);
  });
});
