import { describe, expect, it } from 'vitest';
import { DimensionError, DiscreteForce, DomainError, type Force } from '../../src/index.js';

// F = (sin q₀ · v₁ + t u₀, q₀q₁ − v₀² + u₁ u₀)
const F = (out: Float64Array, t: number, q: Float64Array, v: Float64Array, u: Float64Array) => {
  out[0] = Math.sin(q[0]!) * v[1]! + t * u[0]!;
  out[1] = q[0]! * q[1]! - v[0]! ** 2 + u[1]! * u[0]!;
  return out;
};
const analytic: Force = {
  n: 2,
  m: 2,
  F,
  dFdq: (out, _t, q, v) => {
    out.set([Math.cos(q[0]!) * v[1]!, 0, q[1]!, q[0]!]);
    return out;
  },
  dFdv: (out, _t, q, v) => {
    out.set([0, Math.sin(q[0]!), -2 * v[0]!, 0]);
    return out;
  },
  dFdu: (out, t, _q, _v, u) => {
    out.set([t, 0, u[1]!, u[0]!]);
    return out;
  },
};
const differenced: Force = { n: 2, m: 2, F };

const q0 = Float64Array.of(0.3, -0.4);
const q1 = Float64Array.of(0.35, -0.1);
const u = Float64Array.of(0.7, 1.2);

describe('DiscreteForce (Marsden–West §3.2)', () => {
  it('midpoint: f_d^± = (h/2) F(t + h/2, q_{½}, Δq/h, u); left: f_d⁻ = hF(t, q0), f_d⁺ = 0', () => {
    const h = 0.2;
    const out = new Float64Array(2);
    const want = F(
      new Float64Array(2),
      1.1,
      Float64Array.of(0.325, -0.25),
      Float64Array.of(0.25, 1.5),
      u,
    );
    new DiscreteForce(analytic, h, 'midpoint').minus(out, 1, q0, q1, u);
    expect(out[0]).toBeCloseTo(0.1 * want[0]!, 15);
    expect(out[1]).toBeCloseTo(0.1 * want[1]!, 15);
    const left = new DiscreteForce(analytic, h, 'left');
    const wl = F(new Float64Array(2), 1, q0, Float64Array.of(0.25, 1.5), u);
    left.minus(out, 1, q0, q1, u);
    expect(out[1]).toBeCloseTo(0.2 * wl[1]!, 15);
    left.plus(out, 1, q0, q1, u);
    expect([...out]).toEqual([0, 0]);
    const right = new DiscreteForce(analytic, h, 'right');
    expect([right.weightMinus, right.weightPlus]).toEqual([0, 0.2]);
  });

  for (const quadrature of ['midpoint', 'left', 'right'] as const) {
    it(`${quadrature}: analytic Jacobians = central differences of F̄ to 1e-8`, () => {
      const h = 0.1;
      const a = new DiscreteForce(analytic, h, quadrature);
      const d = new DiscreteForce(differenced, h, quadrature);
      const A = [new Float64Array(4), new Float64Array(4), new Float64Array(4)] as const;
      const D = [new Float64Array(4), new Float64Array(4), new Float64Array(4)] as const;
      a.jacobian(A[0], A[1], A[2], 0.5, q0, q1, u);
      d.jacobian(D[0], D[1], D[2], 0.5, q0, q1, u);
      for (let j = 0; j < 3; j++)
        for (let i = 0; i < 4; i++) expect(Math.abs(A[j]![i]! - D[j]![i]!)).toBeLessThan(1e-8);
      // and the chain rule: ∂F̄/∂q1 by differencing value() itself
      const fp = new Float64Array(2);
      const fm = new Float64Array(2);
      for (let k = 0; k < 2; k++) {
        const x = q1.slice();
        x[k] = x[k]! + 1e-6;
        a.value(fp, 0.5, q0, x, u);
        x[k] = x[k]! - 2e-6;
        a.value(fm, 0.5, q0, x, u);
        for (let i = 0; i < 2; i++)
          expect(Math.abs((fp[i]! - fm[i]!) / 2e-6 - A[1][i * 2 + k]!)).toBeLessThan(1e-7);
      }
    });
  }

  it('rejects bad input with typed errors', () => {
    expect(() => new DiscreteForce(analytic, 0)).toThrow(DomainError);
    expect(() => new DiscreteForce(analytic, 0.1, 'trapezoid' as 'left')).toThrow(DomainError);
    expect(() => new DiscreteForce({ ...analytic, n: 0 }, 0.1)).toThrow(DimensionError);
  });
});
