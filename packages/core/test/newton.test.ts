import { describe, expect, it } from 'vitest';
import { NewtonSolver } from '../src/solvers/newton.js';

describe('NewtonSolver.solve tolerance override', () => {
  it('stops at the given residual tolerance for this solve only, and rejects a negative one', () => {
    const solver = new NewtonSolver(1, { tol: 1e-300, stepTol: 0, maxIterations: 3 });
    const F = (out: Float64Array, x: Float64Array) => {
      out[0] = x[0]! ** 3 - 2;
    };
    const J = (out: Float64Array, x: Float64Array) => {
      out[0] = 3 * x[0]! ** 2;
    };
    const loose = solver.solve(F, J, [1], 0, 0.5);
    expect(loose.converged).toBe(true);
    expect(loose.iterations).toBe(1); // |F(4/3)| = 0.370 ≤ 0.5
    const strict = solver.solve(F, J, [1]);
    expect(strict.converged).toBe(false);
    expect(() => solver.solve(F, J, [1], 0, -1)).toThrow(/tolOverride/);
  });
});
