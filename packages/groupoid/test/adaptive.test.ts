import { DomainError, finiteDifferenceJacobian, so3Cayley } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveLieGroupIntegrator,
  type AdaptiveLieGroupOptions,
  adaptiveLieGroupStep,
} from '../src/adaptive.js';
import { type AlgebraFunction, LiePoissonKernel } from '../src/lieGroupMechanics.js';
import { rigidBodyData } from '../src/rigidBody.js';

// Scenario S8 (spec 003 §10): SO(3), Cayley, l = ½ξᵀdiag(1,2,3)ξ, ξ_1 = (0.8, −0.5, c),
// λ_1 = 0.4, h_1 = 0.1, 30 steps, Ψ = ξ₃ − c.
const psi = (c: number): AlgebraFunction => ({
  value: (x) => x[2]! - c,
  grad: (o) => {
    o[0] = 0;
    o[1] = 0;
    o[2] = 1;
    return o;
  },
});
const options = (
  c: number,
  energyEquation: 'corrected' | 'printed' = 'corrected',
): AdaptiveLieGroupOptions => ({
  ...rigidBodyData([1, 2, 3], 'cayley'),
  Psi: [psi(c)],
  energyEquation,
});
const init = (c: number) => ({ xi: [0.8, -0.5, c], lambda: [0.4], h: 0.1 });

const range = (v: ArrayLike<number>, from = 0) => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = from; i < v.length; i++) {
    lo = Math.min(lo, v[i]!);
    hi = Math.max(hi, v[i]!);
  }
  return [lo, hi] as const;
};

describe('adaptive time steps, Example 6.1 (spec 003 §8.3, S8)', () => {
  it('homogeneous Ψ = ξ₃: h_k ∈ [0.08933, 0.09912], E conserved (measured 2.2e-16)', () => {
    const s = new AdaptiveLieGroupIntegrator(options(0)).integrate(init(0), 30);
    const [lo, hi] = range(s.stepSize, 1);
    expect(lo).toBeCloseTo(0.08933, 5);
    expect(hi).toBeCloseTo(0.09912, 5);
    const [elo, ehi] = range(s.energy);
    expect(ehi - elo).toBeLessThan(1e-14);
    // ⟨∇Ψ, ξ⟩ = Ψ for linear Ψ, so the printed (E6.1-3) gives the same steps (measured: identical)
    const p = new AdaptiveLieGroupIntegrator(options(0, 'printed')).integrate(init(0), 30);
    let dh = 0;
    for (let k = 0; k <= 30; k++) dh = Math.max(dh, Math.abs(p.stepSize[k]! - s.stepSize[k]!));
    expect(dh).toBeLessThan(1e-15);
    // Newton: about 5 iterations per step (measured 150 in total)
    expect(s.stats.newtonIterations).toBeLessThanOrEqual(6 * 30);
    expect(s.stats.maxIterations).toBeLessThanOrEqual(6);
    expect(s.count).toBe(31);
    expect(s.t[0]).toBe(0.1); // t_1 = h_1
    expect(Number.isNaN(s.h)).toBe(true); // variable steps
  });

  it('the computed steps satisfy (E6.1-1) and (E6.1-2) with the varying h_k (measured 5.8e-15)', () => {
    const s = new AdaptiveLieGroupIntegrator(options(0.7)).integrate(init(0.7), 30);
    const K = new LiePoissonKernel(options(0.7));
    const a = new Float64Array(3);
    const b = new Float64Array(3);
    let worst = 0;
    for (let k = 0; k < 30; k++) {
      const x0 = s.xi.subarray(3 * k, 3 * k + 3);
      const x1 = s.xi.subarray(3 * k + 3, 3 * k + 6);
      K.momentum(a, x0, s.lambda.subarray(k, k + 1), s.stepSize[k]!);
      K.momentum(b, x1, s.lambda.subarray(k + 1, k + 2), -s.stepSize[k + 1]!);
      for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      worst = Math.max(worst, Math.abs(x1[2]! - 0.7));
    }
    expect(worst).toBeLessThan(1e-13);
  });

  it("affine Ψ = ξ₃ − 0.7 with the corrected (E6.1-3'): h_k ∈ [0.0982, 0.1026], E conserved (measured 2e-15)", () => {
    const s = new AdaptiveLieGroupIntegrator(options(0.7)).integrate(init(0.7), 30);
    const [lo, hi] = range(s.stepSize, 1);
    expect(lo).toBeCloseTo(0.0982, 4); // measured 0.098181
    expect(hi).toBeCloseTo(0.1026, 4); // measured 0.102568
    const [elo, ehi] = range(s.energy);
    expect(ehi - elo).toBeLessThan(1e-13);
    expect(s.t[30]).toBeCloseTo(
      s.stepSize.reduce((x, y) => x + y, 0),
      13,
    );
  });

  it('affine Ψ with the printed (E6.1-3) (erratum): the first step converges to h_2 = −0.0761 < 0 and throws', () => {
    const A = new AdaptiveLieGroupIntegrator(options(0.7, 'printed'));
    let caught: unknown;
    try {
      A.integrate(init(0.7), 30);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    const err = caught as DomainError;
    expect(err.what).toContain('adaptive step 1');
    expect(err.value as number).toBeCloseTo(-0.076124, 5); // measured −0.0761238479
  });

  it('adaptiveLieGroupStep (one-shot) equals the first step of integrate', () => {
    const r = adaptiveLieGroupStep(options(0.7), [0.8, -0.5, 0.7], [0.4], 0.1);
    const s = new AdaptiveLieGroupIntegrator(options(0.7)).integrate(init(0.7), 1);
    expect(r.h).toBe(s.stepSize[1]);
    expect(Array.from(r.xi)).toEqual(Array.from(s.xi.subarray(3, 6)));
    expect(r.lambda.length).toBe(1);
    expect(r.lambda[0]).toBe(s.lambda[1]);
  });

  it('every keeps the first, every e-th and the last increment', () => {
    const all = new AdaptiveLieGroupIntegrator(options(0.7)).integrate(init(0.7), 10);
    const some = new AdaptiveLieGroupIntegrator(options(0.7)).integrate(init(0.7), 10, {
      every: 4,
    });
    expect(Array.from(some.k)).toEqual([0, 4, 8, 10]);
    expect(Array.from(some.stepSize)).toEqual([0, 4, 8, 10].map((k) => all.stepSize[k]!));
    expect(some.t[3]).toBe(all.t[10]);
  });

  it('stepJacobian (the Newton Jacobian of a step in (ξ, λ, h)) against central differences (measured ≤ 7e-11 relative)', () => {
    // rows [−P_{−h}(ξ, λ) (E6.1-2, target dropped); Ψ(ξ); −E(ξ, λ)] from the public kernel
    let worst = 0;
    for (const eq of ['corrected', 'printed'] as const) {
      const A = new AdaptiveLieGroupIntegrator(options(0.7, eq));
      const F =
        (z: Float64Array) =>
        (out: Float64Array, u: Float64Array): void => {
          const xi = Float64Array.of(z[0]! + u[0]!, z[1]! + u[1]!, z[2]! + u[2]!);
          const lam = [z[3]! + u[3]!];
          A.kernel.momentum(out, xi, lam, -(z[4]! + u[4]!));
          for (let i = 0; i < 3; i++) out[i] = -out[i]!;
          A.kernel.constraints(out, xi, 3);
          out[4] = -A.energy(xi, lam);
        };
      for (const z of [
        Float64Array.of(0.8, -0.5, 0.7, 0.4, 0.1),
        Float64Array.of(-0.3, 1.2, 0.5, -1.5, 0.07),
      ]) {
        const J = A.stepJacobian(new Float64Array(25), z.subarray(0, 3), z.subarray(3, 4), z[4]!);
        const fd = finiteDifferenceJacobian(new Float64Array(25), F(z), new Float64Array(5), 5, 5);
        for (let i = 0; i < 25; i++)
          worst = Math.max(worst, Math.abs(J[i]! - fd[i]!) / Math.max(1, Math.abs(fd[i]!)));
      }
    }
    expect(worst).toBeLessThan(1e-8);
  });

  it('bad input throws typed errors', () => {
    const A = new AdaptiveLieGroupIntegrator(options(0.7));
    expect(() => A.integrate({ ...init(0.7), xi: [0.8, -0.5, 0] }, 3)).toThrow(DomainError);
    expect(() => A.integrate({ ...init(0.7), h: -0.1 }, 3)).toThrow(DomainError);
    expect(
      () =>
        new AdaptiveLieGroupIntegrator({
          ...options(0),
          energyEquation: 'other' as 'printed',
        }),
    ).toThrow(DomainError);
    expect(() =>
      new AdaptiveLieGroupIntegrator({ ...options(0), tau: so3Cayley }).integrate(init(0), -1),
    ).toThrow(DomainError);
  });
});
