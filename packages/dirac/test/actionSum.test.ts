import { DimensionError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  cotangentFiniteDifference,
  discreteCanonicalOneForm,
  discreteCanonicalTwoForm,
} from '../src/discreteDirac.js';
import { verticalRollingDisk } from '../src/examples.js';
import { discreteActionSum, discretize, integrateLagrangeDirac } from '../src/lagrangeDirac.js';

/**
 * Theorem 7.4 of spec 000: a (±) Lagrange–Dirac trajectory is a critical point of 𝔖^±_d over
 * variations δv_k, δp_k (all k) and δq_k ∈ Δ(q_k) (+) / δq_{k+1} ∈ Δ(q_{k+1}) (−) with fixed ends.
 * Checked by central differences (step 1e-6, truncation O(1e-12), round-off ~1e-10 on 𝔖 ≈ 1).
 */
describe('discrete action sums 𝔖^±_d (spec 000 Def 7.3, Theorem 7.4)', () => {
  const disk = verticalRollingDisk({ m: 1.3, R: 0.7, I: 0.4, J: 0.25, a: 0.5, b: 0.3, c: 0.2 });
  const h = 0.05;
  const N = 12;
  const n = 4;
  const eps = 1e-6;

  for (const sign of ['plus', 'minus'] as const) {
    it(`(${sign}) is stationary along admissible variations, not along constrained ones`, () => {
      const sol = integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        `dirac-${sign}` as const,
        { q0: [0.1, -0.2, 0.3, 0.4], v0: [0.35 * Math.cos(0.4), 0.35 * Math.sin(0.4), 0.5, 0.8] },
        h,
        N,
      );
      const Ld = discretize(disk.lagrangian, h, sign === 'plus' ? 'left' : 'right');
      const q = sol.q.slice();
      const p = sol.p.slice();
      const v = new Float64Array(N * n);
      for (let k = 0; k < N; k++)
        for (let i = 0; i < n; i++) v[k * n + i] = (q[(k + 1) * n + i]! - q[k * n + i]!) / h;
      const S = () => discreteActionSum(sign, Ld, q, v, p);
      const dS = (arr: Float64Array, idx: number, dir: ArrayLike<number>) => {
        const save = arr.slice(idx, idx + dir.length);
        for (let i = 0; i < dir.length; i++) arr[idx + i] = save[i]! + eps * dir[i]!;
        const Sp = S();
        for (let i = 0; i < dir.length; i++) arr[idx + i] = save[i]! - eps * dir[i]!;
        const Sm = S();
        arr.set(save, idx);
        return (Sp - Sm) / (2 * eps);
      };
      const e = (i: number) => Float64Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
      let maxFree = 0;
      let maxAdmissible = 0;
      let minConstrained = Infinity;
      const A = new Float64Array(2 * n);
      for (let k = 0; k < N; k++) {
        for (let i = 0; i < n; i++) maxFree = Math.max(maxFree, Math.abs(dS(v, k * n, e(i))));
      }
      // p_0 (−) or p_{N} (+) do not enter 𝔖^±_d; all the others do.
      for (let k = sign === 'plus' ? 1 : 0; k <= (sign === 'plus' ? N : N - 1); k++) {
        for (let i = 0; i < n; i++) maxFree = Math.max(maxFree, Math.abs(dS(p, k * n, e(i))));
      }
      for (let k = 1; k < N; k++) {
        const qk = q.subarray(k * n, (k + 1) * n);
        disk.distribution.A(A, qk.slice());
        // Δ(q) = ker A, the columns of G (∂/∂φ and R cos φ ∂/∂x + R sin φ ∂/∂y + ∂/∂θ)
        const Gm = disk.distribution.G!(new Float64Array(2 * n), qk.slice());
        const basis = [0, 1].map((c) => [0, 1, 2, 3].map((r) => Gm[r * 2 + c]!));
        for (const b of basis) {
          let Ab = 0;
          for (let r = 0; r < 2; r++)
            Ab = Math.max(
              Ab,
              Math.abs(A.subarray(r * n, r * n + n).reduce((s, x, j) => s + x * b[j]!, 0)),
            );
          expect(Ab).toBeLessThanOrEqual(1e-15);
          maxAdmissible = Math.max(maxAdmissible, Math.abs(dS(q, k * n, b)));
        }
        // a variation along a constraint row (δq ∉ Δ) meets the multiplier force: non-zero
        minConstrained = Math.min(
          minConstrained,
          Math.abs(dS(q, k * n, A.subarray(0, n))) + Math.abs(dS(q, k * n, A.subarray(n, 2 * n))),
        );
      }
      expect(maxFree).toBeLessThanOrEqual(1e-8);
      expect(maxAdmissible).toBeLessThanOrEqual(1e-8);
      expect(minConstrained).toBeGreaterThan(1e-4);
    });
  }

  it('rejects inconsistent lengths', () => {
    const Ld = discretize(disk.lagrangian, h, 'left');
    expect(() =>
      discreteActionSum('plus', Ld, new Float64Array(12), new Float64Array(8), new Float64Array(8)),
    ).toThrow(DimensionError);
    expect(() =>
      discreteActionSum(
        'plus',
        Ld,
        new Float64Array(12),
        new Float64Array(7),
        new Float64Array(12),
      ),
    ).toThrow(DimensionError);
  });
});

/**
 * Ω^±_d = −dΘ^±_d (spec 000 §10 item 6): Θ^±_d is the canonical one-form θ = p dq at the twisted
 * base b (= (q_k, p_{k+1}) for (+), (q_{k+1}, p_k) for (−)) applied to the difference vector
 * (Δq, Δp). For constant vector fields X, Y, −dθ(X, Y) = −X[θ(Y)] + Y[θ(X)]; X[θ(Y)] is a central
 * difference of θ at the base moved along X.
 */
describe('Ω^±_d = −dΘ^±_d by finite differences (spec 000 §10 item 6)', () => {
  const h = 0.25;
  for (const sign of ['plus', 'minus'] as const) {
    it(`(${sign})`, () => {
      const z0 = { q: [0.3, -1.1, 0.7], p: [1.2, 0.4, -0.9] };
      const z1 = { q: [0.8, -0.6, 0.2], p: [0.5, 1.3, -0.1] };
      const X = cotangentFiniteDifference(sign, z0, z1, h);
      // Θ^±_d(z0, z1) = θ_b(Δq, Δp)
      const theta = (bp: ArrayLike<number>, vq: ArrayLike<number>) =>
        Array.from(vq).reduce((s, x, i) => s + bp[i]! * x, 0);
      expect(discreteCanonicalOneForm(sign, z0, z1, h)).toBeCloseTo(theta(X.p, X.qdot), 14);
      // a second pair sharing the base
      const a0 =
        sign === 'plus' ? { q: z0.q, p: [-0.3, 0.2, 1.7] } : { q: [0.1, 0.9, -0.4], p: z0.p };
      const a1 =
        sign === 'plus' ? { q: [1.4, 0.3, -0.2], p: z1.p } : { q: z1.q, p: [0.6, -0.8, 0.9] };
      const Y = cotangentFiniteDifference(sign, a0, a1, h);
      const eps = 1e-6;
      // X[θ(Y)]: move the base momentum along X.pdot (θ depends on the base through p only)
      const dirDeriv = (U: typeof X, W: typeof X) => {
        const plus = U.p.map((x, i) => x + eps * W.pdot[i]!);
        const minus = U.p.map((x, i) => x - eps * W.pdot[i]!);
        return (theta(plus, U.qdot) - theta(minus, U.qdot)) / (2 * eps);
      };
      const minusDTheta = -dirDeriv(Y, X) + dirDeriv(X, Y);
      const Omega = discreteCanonicalTwoForm(sign, [z0, z1], [a0, a1], h);
      expect(Math.abs(minusDTheta - Omega)).toBeLessThanOrEqual(1e-9 * Math.abs(Omega));
      expect(Math.abs(Omega)).toBeGreaterThan(0.1);
    });
  }
});
