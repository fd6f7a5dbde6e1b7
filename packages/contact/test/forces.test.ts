import { convergenceOrder, type Force, type Potential, refinementLevels } from '@geomech/core';
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

// The unforced trajectories recorded from main before forces were added (JSON: NaN → null).
function expectBitIdentical(got: number[], want: (number | null)[]): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const w = want[i] ?? Number.NaN;
    if (!Object.is(got[i], w)) throw new Error(`entry ${i}: got ${got[i]}, want ${w}`);
  }
}

/** F = B u with B = [1, 0, ...]ᵀ (zero when u = 0). */
function actuator(n: number): Force {
  return {
    n,
    m: 1,
    F: (out, _t, _q, _v, u) => {
      out.fill(0);
      out[0] = u[0]!;
      return out;
    },
  };
}

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
    for (const force of [undefined, actuator(1)]) {
      const a = new MidpointHerglotz(lag, 0.1, force ? { force } : {}).integrate(
        { q0: [1], v0: [0.2], z0: 0 },
        40,
        force ? { inputs: new Float64Array(40) } : {},
      );
      expectBitIdentical([...a.q, ...a.p, ...a.z, ...a.energy, ...a.sigma], fixtures.midpointPhase);
    }
    const lag2 = mechanicalContactLagrangian(quadraticPotential(1, 2), -0.05);
    for (const force of [undefined, actuator(2)]) {
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
      for (const force of [undefined, actuator(1)]) {
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
