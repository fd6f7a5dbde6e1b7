import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkJacobian,
  finiteDifferenceJacobian,
  jacobianFromFiniteDifferences,
} from '../../src/ad/finiteDifference.js';
import { CENTRAL_DIFFERENCE_STEP } from '../../src/constants.js';
import { DomainError, NonFiniteError } from '../../src/errors.js';

// f: R³ → R², f(x) = (x₀x₁ + sin x₂, exp(x₀) − x₁²x₂)
const f = (out: Float64Array, x: Float64Array): void => {
  out[0] = x[0]! * x[1]! + Math.sin(x[2]!);
  out[1] = Math.exp(x[0]!) - x[1]! * x[1]! * x[2]!;
};
const jac = (out: Float64Array, x: Float64Array): void => {
  out[0] = x[1]!;
  out[1] = x[0]!;
  out[2] = Math.cos(x[2]!);
  out[3] = Math.exp(x[0]!);
  out[4] = -2 * x[1]! * x[2]!;
  out[5] = -x[1]! * x[1]!;
};

const real = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

describe('finiteDifferenceJacobian', () => {
  it('matches the analytic Jacobian to 1e-9 (mixed abs/rel) at random points', () => {
    fc.assert(
      fc.property(real(-2, 2), real(-2, 2), real(-2, 2), (a, b, c) => {
        const x = Float64Array.of(a, b, c);
        const fd = finiteDifferenceJacobian(new Float64Array(6), f, x, 2, 3);
        const ex = new Float64Array(6);
        jac(ex, x);
        for (let k = 0; k < 6; k++) {
          expect(Math.abs(fd[k]! - ex[k]!)).toBeLessThanOrEqual(
            1e-9 * Math.max(1, Math.abs(ex[k]!)),
          );
        }
        // x is not modified
        expect(Array.from(x)).toEqual([a, b, c]);
      }),
    );
  });

  it('is second-order: error of d/dx sin at x = 1 falls as h² (measured slope 2 ± 0.1)', () => {
    const g = (out: Float64Array, x: Float64Array): void => {
      out[0] = Math.sin(x[0]!);
    };
    const hs = [1e-1, 5e-2, 2.5e-2, 1.25e-2];
    const errs = hs.map((h) => {
      const d = finiteDifferenceJacobian(new Float64Array(1), g, [1], 1, 1, { step: h });
      return Math.abs(d[0]! - Math.cos(1));
    });
    for (let k = 1; k < hs.length; k++) {
      const p = Math.log(errs[k - 1]! / errs[k]!) / Math.log(2);
      expect(Math.abs(p - 2)).toBeLessThanOrEqual(0.1);
    }
    // leading term h²·|f‴|/6 = h² cos(1)/6
    expect(errs[0]! / (hs[0]! ** 2 * (Math.cos(1) / 6))).toBeCloseTo(1, 2);
  });

  it('default step is ∛ε and scales with |x_j|: accurate to 1e-9 relative at x = 1e6', () => {
    expect(CENTRAL_DIFFERENCE_STEP).toBeCloseTo(6.055454e-6, 11);
    const g = (out: Float64Array, x: Float64Array): void => {
      out[0] = Math.sqrt(x[0]!) ** 3; // x^{3/2}, derivative 1.5√x
    };
    const d = finiteDifferenceJacobian(new Float64Array(1), g, [1e6], 1, 1);
    expect(Math.abs(d[0]! / 1.5e3 - 1)).toBeLessThanOrEqual(1e-9);
  });

  it('the callback form owns its scratch and gives the same numbers', () => {
    const J = jacobianFromFiniteDifferences(f, 2, 3);
    const x = Float64Array.of(0.3, -1.2, 2.1);
    const a = new Float64Array(6);
    J(a, x);
    expect(Array.from(a)).toEqual(
      Array.from(finiteDifferenceJacobian(new Float64Array(6), f, x, 2, 3)),
    );
  });

  it('throws NonFiniteError when f is not finite near x, DomainError on a bad step', () => {
    const g = (out: Float64Array, x: Float64Array): void => {
      out[0] = Math.log(x[0]!);
    };
    expect(() => finiteDifferenceJacobian(new Float64Array(1), g, [0], 1, 1)).toThrow(
      NonFiniteError,
    );
    expect(() => finiteDifferenceJacobian(new Float64Array(1), g, [1], 1, 1, { step: 0 })).toThrow(
      DomainError,
    );
  });
});

describe('checkJacobian', () => {
  it('passes a correct Jacobian with maxRelError below 1e-9', () => {
    const c = checkJacobian(f, jac, [0.7, -0.4, 1.3], 2, 3);
    expect(c.ok).toBe(true);
    expect(c.maxRelError).toBeLessThanOrEqual(1e-9);
    expect(c.maxAbsError).toBeLessThanOrEqual(1e-9 * Math.exp(0.7));
  });

  it('catches a wrong entry (∂f₁/∂x₂ with the wrong sign) and names it', () => {
    const wrong = (out: Float64Array, x: Float64Array): void => {
      jac(out, x);
      out[5] = x[1]! * x[1]!;
    };
    const x = [0.7, -0.4, 1.3];
    const c = checkJacobian(f, wrong, x, 2, 3);
    expect(c.ok).toBe(false);
    expect(c.worst).toEqual({ row: 1, col: 2 });
    // error 2·x₁² = 0.32, relative to max(1, |x₁²|) = 1
    expect(c.maxAbsError).toBeCloseTo(0.32, 9);
    expect(c.maxRelError).toBeCloseTo(0.32, 9);
  });

  it('catches a subtly wrong Jacobian (1e-4 relative) and accepts a given matrix', () => {
    const x = Float64Array.of(0.7, -0.4, 1.3);
    const a = new Float64Array(6);
    jac(a, x);
    expect(checkJacobian(f, a, x, 2, 3).ok).toBe(true);
    a[3] = a[3]! * (1 + 1e-4);
    const c = checkJacobian(f, a, x, 2, 3);
    expect(c.ok).toBe(false);
    expect(c.worst).toEqual({ row: 1, col: 0 });
    // |J₁₀| = e^0.7 > 1, so the measure is relative: 1e-4 up to the difference error
    expect(Math.abs(c.maxRelError / 1e-4 - 1)).toBeLessThanOrEqual(1e-5);
    expect(Math.abs(c.maxAbsError / (1e-4 * Math.exp(0.7)) - 1)).toBeLessThanOrEqual(1e-5);
  });

  it('a NaN in the analytic Jacobian fails the check', () => {
    const nanJac = (out: Float64Array, x: Float64Array): void => {
      jac(out, x);
      out[1] = Number.NaN;
    };
    const c = checkJacobian(f, nanJac, [0.1, 0.2, 0.3], 2, 3);
    expect(c.ok).toBe(false);
    expect(c.worst).toEqual({ row: 0, col: 1 });
    expect(Number.isNaN(c.maxRelError)).toBe(true);
  });
});
