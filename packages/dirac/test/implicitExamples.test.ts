import { integrateDopri5 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { constraintAlgorithm } from '../src/constraintAlgorithm.js';
import { integrateDegenerate } from '../src/degenerate.js';
import {
  harmonicOscillator,
  lcCircuit4,
  simpleLC,
  traditor,
  verticalRollingDisk,
} from '../src/examples.js';
import { ImplicitLagrangianSystem } from '../src/implicitSystem.js';
import { integrateIndexReduced } from '../src/indexReduction.js';
import { integrateNullSpace } from '../src/nullSpaceIntegration.js';
import { grid, maxDiff } from './implicitFixtures.js';

describe('cross-check with the examples module (its own Lagrangian objects)', () => {
  it('rolling disk with a potential: index reduction = null space = the hand-reduced ODE (1e-8)', () => {
    const ex = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15, a: 0.4, b: 0.3, c: 0.2 });
    const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
    const init = { x: 0.1, y: -0.2, theta: 0.3, phi: 0.4, thetaDot: 1.3, phiDot: 0.7 };
    const y0 = ex.reducedInitialState(init);
    const s0 = ex.stateFromReduced(y0);
    const tEval = grid(0, 8, 32);
    const ref = integrateDopri5(ex.reducedRhs, y0, 0, 8, { rtol: 1e-12, atol: 1e-14, tEval });
    const a = integrateIndexReduced(sys, { q0: s0.q, v0: s0.v }, 8, { tEval });
    const b = integrateNullSpace(sys, { q0: s0.q, u0: [s0.v[3]!, s0.v[2]!] }, 8, { tEval });
    let err = 0;
    for (let k = 0; k < a.count; k++) {
      const s = ex.stateFromReduced(ref.sample('y', k));
      for (const sol of [a, b]) {
        err = Math.max(
          err,
          maxDiff(sol.sample('q', k), s.q),
          maxDiff(sol.sample('v', k), s.v),
          maxDiff(sol.sample('mu', k), s.mu),
        );
      }
    }
    expect(err).toBeLessThan(1e-8);
    expect(a.energyDrift).toBeLessThan(1e-10);
    expect(b.energyDrift).toBeLessThan(1e-10);
  });

  it('4-port circuit through the probed (non-quadratic-object) Lagrangian: constraints, ω_LC, closed form (1e-10)', () => {
    const ex = lcCircuit4();
    const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
    const a = constraintAlgorithm(sys);
    expect(a.stageDimensions).toEqual([6, 5, 4]);
    expect(Math.abs(a.frequencies[0]! - ex.omegaLC)).toBeLessThan(1e-10 * ex.omegaLC);
    const s0 = ex.exactSolution(0);
    const sol = integrateDegenerate(sys, { q0: s0.q, v0: s0.v }, 15, { samples: 61, algorithm: a });
    let err = 0;
    for (let k = 0; k < sol.count; k++) {
      const s = ex.exactSolution(sol.t[k]!);
      err = Math.max(
        err,
        maxDiff(sol.sample('q', k), s.q),
        maxDiff(sol.sample('v', k), s.v),
        maxDiff(sol.sample('mu', k), s.mu),
      );
      expect(Math.abs(ex.secondaryConstraint(sol.sample('q', k)))).toBeLessThan(1e-12);
    }
    expect(err).toBeLessThan(1e-10);
  });

  it('single LC loop, harmonic oscillator, traditor: frequencies and trajectories (1e-10)', () => {
    for (const ex of [simpleLC(), harmonicOscillator({ m: 2, k: 8 }), traditor({ kappa: 0.8 })]) {
      const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
      const a = constraintAlgorithm(sys);
      expect(Math.abs(a.frequencies[0]! - ex.omega)).toBeLessThan(1e-10 * ex.omega);
      const s0 = ex.exactSolution(0);
      const sol = integrateDegenerate(sys, { q0: s0.q, v0: s0.v }, 10, {
        samples: 41,
        algorithm: a,
      });
      let err = 0;
      for (let k = 0; k < sol.count; k++) {
        const s = ex.exactSolution(sol.t[k]!);
        err = Math.max(
          err,
          maxDiff(sol.sample('q', k), s.q),
          maxDiff(sol.sample('v', k), s.v),
          maxDiff(sol.sample('p', k), s.p),
        );
        expect(sys.isSolutionPoint(s.q, s.v, s.p, s.qdot, s.pdot)).toBe(true);
      }
      expect(err).toBeLessThan(1e-10);
    }
  });
});
