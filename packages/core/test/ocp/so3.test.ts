import { describe, expect, it } from 'vitest';
import { SO3 } from '../../src/lie/so3.js';
import { mulT3 } from '../../src/linalg/small.js';
import { OcpSolver } from '../../src/ocp/solver.js';
import { stageDerivativeError } from '../../src/testing/ocpDerivativeCheck.js';
import { rng } from '../support/random.js';
import { restGuess, so3Steering } from './so3Steering.js';

const exp = (v: number[]) => SO3.exp(new Float64Array(9), Float64Array.from(v));

/** |Log(G0ᵀGN)|²/2: the cost of the constant-velocity geodesic, the exact discrete optimum. */
function geodesicCost(G0: Float64Array, GN: Float64Array): number {
  const rel = SO3.log(new Float64Array(3), mulT3(new Float64Array(9), G0, GN));
  return 0.5 * (rel[0]! ** 2 + rel[1]! ** 2 + rel[2]! ** 2);
}

describe('attitude steering on SO(3) (exp retraction, exact first derivatives)', () => {
  it('the chart derivatives of the defect and boundary rows match central differences (≤ 1e-6)', () => {
    const r = rng(3);
    const N = 7;
    const p = so3Steering(N, exp([0.3, -0.2, 0.1]), exp([1, 0.5, -0.7]));
    for (let k = 0; k <= N; k++) {
      const x = exp([r() - 0.5, r() - 0.5, r() - 0.5]);
      const xn = k < N ? exp([r(), r() - 0.5, 2 * r() - 1]) : undefined;
      const u = Float64Array.from({ length: k < N ? 3 : 0 }, () => 4 * r() - 2);
      // the Hessian of this test problem is itself a finite difference: check the Jacobians only
      const e = stageDerivativeError(p, k, x, u, xn, k, { step: 1e-6, hessian: false });
      expect(e.jacobian).toBeLessThan(1e-6);
    }
  });

  it('rotation about a fixed axis from rest: the geodesic, cost θ²/2 to 1e-10, in one Newton step', () => {
    const n = [1, 2, 3].map((v) => v / Math.sqrt(14));
    for (const theta of [0.5, 2.0, 3.0]) {
      const N = 50;
      const I = SO3.identity(new Float64Array(9));
      const res = new OcpSolver(so3Steering(N, I, exp(n.map((v) => v * theta)))).solve(
        restGuess(N, I),
      );
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe('minimum');
      expect(Math.abs(res.cost - (theta * theta) / 2)).toBeLessThan(1e-10);
      expect(res.iterations).toBe(1);
      // constant angular velocity θn
      for (let k = 0; k < N; k++) {
        for (let i = 0; i < 3; i++) expect(res.u[3 * k + i]).toBeCloseTo(theta * n[i]!, 8);
      }
    }
  });

  const G0 = exp([0.3, -0.2, 0.5]);
  const GN = exp([1.0, 1.2, -0.4]);
  const counts: number[] = [];
  for (const N of [50, 200, 1000]) {
    it(`from rest at the identity to a general target, N = ${N}: cost |Log(G₀ᵀG_N)|²/2 to 1e-10`, () => {
      const I = SO3.identity(new Float64Array(9));
      const res = new OcpSolver(so3Steering(N, G0, GN), { tol: 1e-12 }).solve(restGuess(N, I));
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe('minimum');
      expect(res.success).toBe(true);
      expect(Math.abs(res.cost - geodesicCost(G0, GN))).toBeLessThan(1e-10);
      counts.push(res.iterations);
    });
  }
  it('the iteration count does not grow with N (50, 200, 1000)', () => {
    expect(counts).toHaveLength(3);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(6);
  });
});
