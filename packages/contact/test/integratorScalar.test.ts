// ContactIntegrator's n = 1 path (core's NewtonSolver.solveScalar on ContactScalarEquation)
// against core's general NewtonSolver.solve on the integrator's own Newton system
// (`newtonSystem`, the residual and Jacobian closures of the n-dimensional path), from the same
// momentum guess: the root, the iteration count and the residual must agree bit for bit.
import { NewtonSolver } from '@geomech/core';
import { rng } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { implicitZMidpointLd, leftRectangleLd, midpointLd } from '../src/discrete.js';
import { dampedOscillatorExactLd } from '../src/exact.js';
import { ContactIntegrator } from '../src/integrator.js';
import { contactLagrangian } from '../src/lagrangian.js';
import { mechanicalContactLagrangian, pendulumPotential } from '../src/mechanical.js';
import type { DiscreteContactLagrangian } from '../src/types.js';

const H = 0.05;

describe('ContactIntegrator, n = 1: the scalar Newton path equals the general one', () => {
  const pendulum = mechanicalContactLagrangian(pendulumPotential(9.81, 1), -0.3);
  // L = ½v² − ½q² − z(0.05 + 0.1q²): ∇_{q1}(D_z L_d) ≠ 0, so G′ has its p ⊗ D2Dz term
  const coupled = contactLagrangian({
    n: 1,
    L: (o, [q], [v], z) =>
      o.sub(
        o.sub(o.scale(o.mul(v!, v!), 0.5), o.scale(o.mul(q!, q!), 0.5)),
        o.mul(z, o.add(o.scale(o.mul(q!, q!), 0.1), o.const(0.05))),
      ),
  });
  const cases: [string, DiscreteContactLagrangian][] = [
    ['midpoint, z-coupled Lagrangian', midpointLd(coupled, H)],
    ['midpoint, pendulum', midpointLd(pendulum, H)],
    ['left rectangle, pendulum', leftRectangleLd(pendulum, H)],
    ['implicit-z midpoint, pendulum', implicitZMidpointLd(pendulum, H)],
    ['exact, oscillator', dampedOscillatorExactLd(2, -0.1, H)],
  ];
  for (const [label, Ld] of cases) {
    it(`${label}: 200 random states, same root, iterations and residual`, () => {
      const integrator = new ContactIntegrator(Ld);
      const general = new NewtonSolver(1, { tol: 1e-12, maxIterations: 50 });
      const scratch = new Float64Array(1);
      const r = rng(label.length * 7919);
      let iterations = 0;
      for (let trial = 0; trial < 200; trial++) {
        const q = 4 * r() - 2;
        const p = 6 * r() - 3;
        const z = 2 * r() - 1;
        const t = 10 * r();
        const qa = Float64Array.of(q);
        const pa = Float64Array.of(p);
        // the momentum guess of the integrator: q + h σ̂ p, σ̂ = 1 + D_z L_d(q, q + h p, z, t)
        const free = Float64Array.of(q + H * p);
        const s0 = 1 + Ld.Dz(qa, free, z, t);
        const guess = [q + H * s0 * p];
        const F = (out: Float64Array, x: Float64Array) => {
          integrator.newtonSystem(out, x, qa, pa, z, t);
        };
        const J = (out: Float64Array, x: Float64Array) => {
          integrator.newtonSystem(scratch, x, qa, pa, z, t, out);
        };
        const ref = general.solve(F, J, guess);
        const state = Float64Array.of(q, p, z);
        const its = integrator.step(state, trial, t);
        expect(ref.converged).toBe(true);
        expect(state[0]).toBe(ref.x[0]);
        expect(its).toBe(ref.iterations);
        expect(integrator.lastResidual).toBe(ref.residualNorm);
        iterations += its;
      }
      // not vacuous: Newton iterates (the exact L_d's equation is linear: one step each)
      expect(iterations).toBeGreaterThanOrEqual(200);
    });
  }
});
