// What a solve reports outside its iterations (issue 16): the inertia that comes with a `minimum`,
// and the guess's normalization onto the groups.
import { SO3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { so3SteeringOcp, solveSo3Steering } from '../../src/ocp/index.js';

describe('the inertia reported with the second-order verdict', () => {
  it('so3-steering n = 20 with the gauge: minimum, inertia (n, m, 0) of the whole KKT matrix', () => {
    // the unshifted matrix has a stage block that the recursion's relative pivot test calls
    // singular (it reported the partial count (59, 40, 1) before); the −ε matrix of the verdict
    // has (n, m, 0), and so has the unshifted one
    const r = solveSo3Steering({ phi: 1, n: 20, gauge: true });
    expect(r.secondOrder).toBe('minimum');
    const n = 3 * 21 + 3 * 20; // δG_0..δG_20, ξ_0..ξ_19
    const m = 3 * 20 + 20 + 3 + 3 + 1; // dynamics, ξ₃ = 0, start, end, gauge
    expect(r.solution.inertia).toEqual({ positive: n, negative: m, zero: 0 });
    expect(r.cost).toBeCloseTo(5.845383, 6); // spec 003 S4
  });
});

describe('the guess of LieOcp.solve', () => {
  it('states off the group are normalized onto it (same answer as from the normalized guess)', () => {
    const target = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 1));
    const ocp = so3SteeringOcp(20, target, 'cayley', true);
    const r = solveSo3Steering({ phi: 1, n: 20, gauge: true });
    const guess = ocp.rollout(Float64Array.from(r.xi, (v, i) => v + 0.01 * Math.sin(i)));
    const drifted = Float64Array.from(guess.x, (v, i) => v * (1 + 1e-7 * Math.cos(i)));
    const a = ocp.solve({ guess });
    const b = ocp.solve({ guess: { x: drifted, u: guess.u } });
    expect(a.status).toBe('converged');
    expect(b.status).toBe('converged');
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-12);
    // every returned state is a rotation to round-off
    for (let k = 0; k <= 20; k++)
      expect(SO3.isValid(b.x.subarray(9 * k, 9 * k + 9), 1e-12)).toBe(true);
  });
});
