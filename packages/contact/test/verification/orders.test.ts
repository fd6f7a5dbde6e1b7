/**
 * Measured convergence orders of the generic discrete Herglotz integrator (spec 004 §6.4, §9.10).
 * The paper proves no order results (spec 004 §2, §11.10): these are derived/empirical [D]/[S].
 *
 * Setting of spec 004 §6.4: the damped oscillator L = ½v² − ½q² + γz with γ = −0.5 (where the
 * first-order term is visible), (q, p, z)(0) = (1, 1, 0), horizon T = 10, the discrete map started
 * in Hamiltonian form, error = max(|Δq|, |Δp|, |Δz|) at T against the closed-form solution, and
 * h = T/(n0·2^k) with n0 = 100, k = 0 … 5.
 */
import { convergenceOrder, refinementLevels } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  implicitZMidpointLd,
  leftRectangleLd,
  mechanicalMidpointLd,
  midpointLd,
} from '../../src/discrete.js';
import { ContactIntegrator } from '../../src/integrator.js';
import { mechanicalContactLagrangian, quadraticPotential } from '../../src/mechanical.js';
import type { DiscreteContactLagrangian } from '../../src/types.js';
import { dampedOscillatorSolution } from '../integratorFixtures.js';

const gamma = -0.5;
const T = 10;
const lagrangian = mechanicalContactLagrangian(quadraticPotential(1), gamma);
const exact = dampedOscillatorSolution(1, gamma, 1, 1, 0);
const { h: hs, steps } = refinementLevels(T, 100, 6);

function errors(method: (h: number) => DiscreteContactLagrangian): number[] {
  return hs.map((h, level) => {
    const N = steps[level]!;
    const sol = new ContactIntegrator(method(h), { lagrangian }).integrate(
      { q0: [1], v0: [1], z0: 0 },
      N,
      { every: N },
    );
    const last = sol.count - 1;
    expect(sol.k[last]).toBe(N);
    return Math.max(
      Math.abs(sol.q[last]! - exact.q(T)),
      Math.abs(sol.p[last]! - exact.p(T)),
      Math.abs(sol.z[last]! - exact.z(T)),
    );
  });
}

const methods: [string, (h: number) => DiscreteContactLagrangian, number, readonly number[]][] = [
  // [D] spec 004 §6.4 reference errors, h = 0.1 … 0.003125
  [
    "[D] the paper's midpoint L_d = h L(q_m, v, z0) (midpointLd)",
    (h) => midpointLd(lagrangian, h),
    1,
    [8.878e-3, 4.306e-3, 2.118e-3, 1.05e-3, 5.226e-4, 2.607e-4],
  ],
  [
    '[D] (79) in closed form (mechanicalMidpointLd)',
    (h) => mechanicalMidpointLd(quadraticPotential(1), gamma, h),
    1,
    [8.878e-3, 4.306e-3, 2.118e-3, 1.05e-3, 5.226e-4, 2.607e-4],
  ],
  ['[S] left rectangle L_d = h L(q0, v, z0)', (h) => leftRectangleLd(lagrangian, h), 1, []],
  [
    '[S] implicit-z midpoint Λ = h L(q_m, v, z0 + Λ/2)',
    (h) => implicitZMidpointLd(lagrangian, h),
    2,
    [9.237e-4, 2.316e-4, 5.796e-5, 1.449e-5, 3.623e-6, 9.058e-7],
  ],
];

describe('§9.10 measured global orders on the damped oscillator (γ = −0.5, T = 10)', () => {
  for (const [label, method, order, reference] of methods) {
    it(`${label}: order ${order} (|p − ${order}| ≤ 0.35)${reference.length > 0 ? ', errors as in §6.4 (1%)' : ''}`, () => {
      const errs = errors(method);
      const fit = convergenceOrder(hs, errs);
      expect(fit.used.length).toBe(6);
      expect(Math.abs(fit.order - order)).toBeLessThanOrEqual(0.35);
      reference.forEach((e, k) => {
        expect(Math.abs(errs[k]! - e)).toBeLessThan(0.01 * e);
      });
    });
  }
});
