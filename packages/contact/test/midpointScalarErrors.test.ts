// MidpointHerglotz's n = 1 step (its private scalar Newton loop, written out for speed: see
// kernels.ts): each failure of the loop throws the error of the generic path's kind and message
import { NewtonDivergedError, NonFiniteError, SingularJacobianError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
} from '../src/index.js';
import { MidpointHerglotz } from '../src/midpoint.js';

describe('MidpointHerglotz n = 1: failures of the scalar Newton loop', () => {
  it('G′ = 1/h + (h/4)V″ = 0 (V″ = −16, h = 0.5): SingularJacobianError at iteration 0 of step 0', () => {
    const st = new MidpointHerglotz(mechanicalContactLagrangian(quadraticPotential(-16), 0), 0.5);
    expect(() => st.integrate({ q0: [1], v0: [0.3], z0: 0 }, 3)).toThrow(
      new SingularJacobianError(0, Number.POSITIVE_INFINITY, 0),
    );
  });

  it('no convergence within maxIterations: NewtonDivergedError with the residual', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    const st = new MidpointHerglotz(lag, 1.5, { maxIterations: 1 });
    let error: unknown;
    try {
      st.integrate({ q0: [2], v0: [1], z0: 0 }, 3);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NewtonDivergedError);
    expect((error as Error).message).toBe(
      'Newton did not converge after 1 iterations (residual 6.725e-2) at step 0',
    );
  });

  it('a non-finite G at the free-flight guess: NonFiniteError', () => {
    const lag = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1);
    const st = new MidpointHerglotz(lag, 0.1);
    expect(() => st.integrate({ q0: [1e308], v0: [1e308], z0: 0 }, 3)).toThrow(NonFiniteError);
    expect(() => st.integrate({ q0: [1e308], v0: [1e308], z0: 0 }, 3)).toThrow(
      'newton: F(x0): non-finite value at index 0',
    );
  });
});
