import { describe, expect, it } from 'vitest';
import { ImplicitLagrangianSystem } from '../src/implicitSystem.js';
import { integrateIndexReduced } from '../src/indexReduction.js';
import { integrateNullSpace } from '../src/nullSpaceIntegration.js';
import {
  disk,
  diskExact,
  diskInit,
  diskLagrangian,
  diskSystem,
  grid,
  maxDiff,
  rolling,
} from './implicitFixtures.js';

describe('(b) null space / quasi-velocities', () => {
  it('agrees with index reduction on the rolling disk to 1e-8 (q, v, p, μ)', () => {
    const T = 10;
    const tEval = grid(0, T, 40);
    const s0 = diskExact(0);
    const a = integrateIndexReduced(diskSystem, { q0: s0.q, v0: s0.v }, T, { tEval });
    const b = integrateNullSpace(diskSystem, { q0: s0.q, u0: [diskInit.om, diskInit.Om] }, T, {
      tEval,
    });
    expect(b.r).toBe(2);
    expect(maxDiff(a.q, b.q)).toBeLessThan(1e-8);
    expect(maxDiff(a.v, b.v)).toBeLessThan(1e-8);
    expect(maxDiff(a.p, b.p)).toBeLessThan(1e-8);
    expect(maxDiff(a.mu, b.mu)).toBeLessThan(1e-8);
    expect(b.constraintDrift.velocity).toBeLessThan(1e-14); // A G u = 0 exactly
    expect(b.energyDrift / s0.energy).toBeLessThan(1e-10);
    for (let k = 0; k < b.count; k++) {
      expect(Math.abs(b.u[2 * k]! - diskInit.om)).toBeLessThan(1e-9);
      expect(Math.abs(b.u[2 * k + 1]! - diskInit.Om)).toBeLessThan(1e-9);
    }
  });

  it('without Delta.G: the projected basis (I − A⁺A)G₀ and differenced Ġ still match (1e-8)', () => {
    const T = 5;
    const tEval = grid(0, T, 20);
    const s0 = diskExact(0);
    const { G: _drop, ...noBasis } = rolling(disk.R);
    const sys = new ImplicitLagrangianSystem(diskLagrangian, noBasis);
    const { G, r } = sys.basis(s0.q);
    expect(r).toBe(2);
    // coordinates of v0 in the orthonormal G₀
    const u0 = [0, 0];
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < 4; i++) u0[c] = u0[c]! + G[i * 2 + c]! * s0.v[i]!;
    const b = integrateNullSpace(sys, { q0: s0.q, u0 }, T, { tEval });
    let err = 0;
    for (let k = 0; k < b.count; k++) {
      const s = diskExact(b.t[k]!);
      err = Math.max(
        err,
        maxDiff(b.sample('q', k), s.q),
        maxDiff(b.sample('v', k), s.v),
        maxDiff(b.sample('mu', k), s.mu),
      );
    }
    expect(err).toBeLessThan(1e-8);
  });
});
