import { convergenceOrder, DomainError, SO3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  LieGroupBVP,
  type So3SteeringProgress,
  so3GeodesicTrajectory,
  so3SteeringData,
  so3SteeringProblem,
  solveSo3Steering,
} from '../src/so3Steering.js';

// Scenario S4 (spec 003 §10): prototype table of the discrete optimal cost (1/n)Σ ½|ξ_k|².
const TABLE: Record<string, Record<number, number>> = {
  '0.5': { 20: 3.045501, 40: 3.023762, 80: 3.018381 },
  '1': { 20: 5.845383, 40: 5.798604, 80: 5.787032 },
  '2': { 20: 10.701443, 40: 10.599829, 80: 10.574716 },
};
const limit = (phi: number) => (phi * (4 * Math.PI - phi)) / 2;

describe('SO(3) sub-Riemannian steering (spec 003 §8.1, S4)', () => {
  describe("'full' (banded Levenberg–Marquardt) from the propagated guess (1.0, 0.5, 0.3)", () => {
    for (const phi of [0.5, 1, 2]) {
      it(`φ = ${phi}: the S4 costs at n = 20, 40, 80 to 6 decimals (7–11 iterations), λ_k ≡ const`, () => {
        for (const n of [20, 40, 80]) {
          const r = solveSo3Steering({ phi, n });
          expect(r.converged).toBe(true);
          expect(r.hint).toBeUndefined();
          expect(r.residualNorm).toBeLessThanOrEqual(1e-10);
          // the table is rounded to 6 decimals (measured |cost − table| ≤ 4.7e-7)
          expect(r.cost.toFixed(6)).toBe(TABLE[String(phi)]![n]!.toFixed(6));
          // λ_k is constant along the discrete extremal (spread measured ≤ 1.3e-10 at the
          // tolerance 1e-10 of the residual, 9e-16 when Newton lands at round-off)
          const lam = Array.from(r.lambda);
          expect(Math.max(...lam) - Math.min(...lam)).toBeLessThan(1e-9);
          // every ξ_k satisfies Ψ = ξ₃ = 0
          for (let k = 0; k < n; k++) expect(Math.abs(r.xi[3 * k + 2]!)).toBeLessThan(1e-10);
          // the endpoint is the target
          const Gn = r.R.subarray(9 * n);
          const T = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, phi));
          for (let i = 0; i < 9; i++) expect(Math.abs(Gn[i]! - T[i]!)).toBeLessThan(1e-15);
        }
      });
    }
  });

  it('cost → φ(4π − φ)/2 at order 2 ± 0.35 and λ → 2π − φ at order 2, for both maps (measured 2.002–2.006)', () => {
    for (const map of ['cayley', 'exp'] as const) {
      for (const phi of [0.5, 2]) {
        const ns = [20, 40, 80, 160];
        const hs = ns.map((n) => 1 / n);
        const costErr: number[] = [];
        const lamErr: number[] = [];
        for (const n of ns) {
          const r = solveSo3Steering({ phi, n, map, initialGuess: 'geodesic' });
          expect(r.converged).toBe(true);
          costErr.push(Math.abs(r.cost - limit(phi)));
          lamErr.push(Math.abs(r.lambda[0]! - (2 * Math.PI - phi)));
        }
        const pc = convergenceOrder(hs, costErr).order;
        const pl = convergenceOrder(hs, lamErr).order;
        expect(Math.abs(pc - 2)).toBeLessThan(0.35);
        expect(Math.abs(pl - 2)).toBeLessThan(0.35);
      }
    }
  });

  it('Richardson extrapolation of n = 40/80 at φ = 0.5 gives 3.016588 (spec S4; measured 3.01658790, limit 3.016593)', () => {
    const c40 = solveSo3Steering({ phi: 0.5, n: 40 }).cost;
    const c80 = solveSo3Steering({ phi: 0.5, n: 80 }).cost;
    expect((4 * c80 - c40) / 3).toBeCloseTo(3.016588, 6);
  });

  it("'full' and 'shooting' agree (measured: cost 4e-15, λ 1.2e-13, |ξ_k| 1.4e-12)", () => {
    for (const phi of [0.5, 1]) {
      const a = solveSo3Steering({ phi, n: 20, method: 'full' });
      const b = solveSo3Steering({ phi, n: 20, method: 'shooting' });
      expect(a.converged && b.converged).toBe(true);
      expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-12);
      expect(Math.abs(a.lambda[0]! - b.lambda[0]!)).toBeLessThan(1e-10);
      // the shooting solution also solves the full BVP (its certificate, measured 1.5e-12)
      expect(b.bvpResidual).toBeLessThan(1e-10);
      // the trajectories agree up to the e3-rotation symmetry: compare |ξ_k|
      for (let k = 0; k < 20; k++) {
        const na = Math.hypot(a.xi[3 * k]!, a.xi[3 * k + 1]!);
        const nb = Math.hypot(b.xi[3 * k]!, b.xi[3 * k + 1]!);
        expect(Math.abs(na - nb)).toBeLessThan(1e-10);
      }
    }
  });

  it('warm start: re-solving from a solution takes ≤ 2 iterations (measured 0); φ = 1.05 and n = 80 ≤ 4 (measured 4, 3)', () => {
    const r = solveSo3Steering({ phi: 1, n: 40 });
    const same = solveSo3Steering({ phi: 1, n: 40, guess: r });
    expect(same.converged).toBe(true);
    expect(same.iterations).toBeLessThanOrEqual(2);
    const near = solveSo3Steering({ phi: 1.05, n: 40, guess: r });
    expect(near.converged).toBe(true);
    expect(near.iterations).toBeLessThanOrEqual(4);
    const finer = solveSo3Steering({ phi: 1, n: 80, guess: r, method: 'shooting' });
    expect(finer.converged).toBe(true);
    expect(finer.iterations).toBeLessThanOrEqual(4);
    expect(Math.abs(finer.cost - TABLE['1']![80]!)).toBeLessThan(5e-7);
  });

  it('continuation reaches φ = 3 at n = 40 (14.400675), for both methods (measured 33 and 26 iterations)', () => {
    for (const method of ['full', 'shooting'] as const) {
      const stages: string[] = [];
      const r = solveSo3Steering({
        phi: 3,
        n: 40,
        method,
        continuation: 5,
        onProgress: (p: So3SteeringProgress) => {
          if (!stages.includes(p.stage)) stages.push(p.stage);
        },
      });
      expect(r.converged).toBe(true);
      expect(r.stages.map((s) => s.phi)).toEqual([0.5, 1, 1.5, 2, 2.5, 3]);
      expect(r.stages.every((s) => s.converged)).toBe(true);
      expect(stages.length).toBe(6);
      expect(r.cost).toBeCloseTo(14.400675, 6);
    }
  });

  it('shooting without continuation lands on high-cost extremals and says so; continuation repairs it', () => {
    // measured: φ = 2, n = 40 from (1.0, 0.5, 0.3) converges to cost 385.17 (cf. S4: 183.9 at φ = 1)
    const bad = solveSo3Steering({ phi: 2, n: 40, method: 'shooting' });
    expect(bad.converged).toBe(true);
    expect(bad.cost).toBeGreaterThan(100);
    expect(bad.hint).toMatch(/high-cost extremal/);
    const good = solveSo3Steering({ phi: 2, n: 40, method: 'shooting', continuation: 3 });
    expect(good.hint).toBeUndefined();
    expect(Math.abs(good.cost - TABLE['2']![40]!)).toBeLessThan(5e-7);
  });

  it('non-convergence is reported with history and a hint, never as a solution', () => {
    // φ = 6.2 from the propagated guess: the LM iteration runs into a non-finite Jacobian
    const r = solveSo3Steering({ phi: 6.2, n: 20 });
    expect(r.converged).toBe(false);
    expect(r.hint).toMatch(/continuation/);
    expect(r.history.length).toBeGreaterThan(2);
    expect(r.residualNorm).toBeGreaterThan(1e-3);
    // an iteration budget that is too small
    const short = solveSo3Steering({ phi: 1, n: 40, maxIterations: 2 });
    expect(short.converged).toBe(false);
    expect(short.iterations).toBe(2);
    expect(short.history.length).toBe(3);
    expect(short.hint).toMatch(/maxIterations/);
  });

  it('bad options throw typed errors', () => {
    expect(() => solveSo3Steering({ phi: 1, n: 1 })).toThrow(DomainError);
    expect(() => solveSo3Steering({ phi: Number.NaN, n: 20 })).toThrow(DomainError);
    expect(() => solveSo3Steering({ phi: 1, n: 20, method: 'dense' as 'full' })).toThrow(
      DomainError,
    );
    expect(() => solveSo3Steering({ phi: 1, n: 20, continuation: 0 })).toThrow(DomainError);
    expect(() => solveSo3Steering({ phi: 1, n: 20, tol: 0 })).toThrow(DomainError);
  });
});

describe('LieGroupBVP (the full method)', () => {
  it('the banded Jacobian matches central differences of the residual (measured 1.5e-9 relative)', () => {
    for (const map of ['cayley', 'exp'] as const) {
      const bvp = so3SteeringProblem({ phi: 1, n: 6, map });
      const g = so3GeodesicTrajectory(1, 6, 0.4);
      // perturb the multipliers so that every block is generic
      bvp.setTrajectory(
        g.R,
        g.lambda.map((v, i) => v + 0.1 * i),
      );
      const J = bvp.jacobianDense();
      const N = bvp.size;
      expect(N).toBe(4 * 6 - 3);
      const eps = 1e-6;
      let worst = 0;
      for (let j = 0; j < N; j++) {
        const d = new Float64Array(N);
        d[j] = eps;
        const fp = bvp.residualAfterUpdate(d);
        d[j] = -eps;
        const fm = bvp.residualAfterUpdate(d);
        for (let i = 0; i < N; i++) {
          const fd = (fp[i]! - fm[i]!) / (2 * eps);
          worst = Math.max(worst, Math.abs(fd - J[i * N + j]!) / Math.max(1, Math.abs(fd)));
        }
      }
      expect(worst).toBeLessThan(1e-7);
    }
  });

  it('is singular along the e3-conjugation orbit at a solution (‖Jv‖/‖v‖ measured 4e-14), yet converges quadratically', () => {
    const n = 40;
    const bvp = so3SteeringProblem({ phi: 1, n });
    const g = so3GeodesicTrajectory(1, n);
    bvp.setTrajectory(g.R, g.lambda);
    const res = bvp.solve({ tol: 1e-12 });
    expect(res.converged).toBe(true);
    // quadratic from the O(h²) geodesic guess: ‖F‖∞ measured 3.2e-3, 6.1e-6, 2.1e-10, 7e-15
    expect(res.iterations).toBeLessThanOrEqual(3);
    const J = bvp.jacobianDense();
    const N = bvp.size;
    const G = bvp.nodes();
    // v: δ_k = G_kᵀe3 − e3 (d/dθ of G_k ↦ R_θG_kR_θᵀ, right-trivialized), λ unchanged
    const v = new Float64Array(N);
    for (let k = 1; k < n; k++) {
      const o = (k - 1) * 4 + 1;
      v[o] = G[9 * k + 6]!;
      v[o + 1] = G[9 * k + 7]!;
      v[o + 2] = G[9 * k + 8]! - 1;
    }
    let jv = 0;
    let vv = 0;
    for (let i = 0; i < N; i++) {
      let s = 0;
      for (let j = 0; j < N; j++) s += J[i * N + j]! * v[j]!;
      jv += s * s;
      vv += v[i]! * v[i]!;
    }
    expect(Math.sqrt(jv / vv)).toBeLessThan(1e-10);
  });

  it('a generic unconstrained BVP (free rigid body on SO(3), m = 0) solves as well (measured 5 iterations from G_k = I)', () => {
    const data = so3SteeringData('cayley');
    const bvp = new LieGroupBVP({
      group: data.group,
      tau: data.tau,
      l: (x) => 0.5 * (x[0]! ** 2 + 2 * x[1]! ** 2 + 3 * x[2]! ** 2),
      dl: (o, x) => {
        o[0] = x[0]!;
        o[1] = 2 * x[1]!;
        o[2] = 3 * x[2]!;
        return o;
      },
      n: 10,
      G0: SO3.identity(new Float64Array(9)),
      Gn: SO3.exp(new Float64Array(9), Float64Array.of(0.3, -0.2, 0.5)),
    });
    expect(bvp.size).toBe(27);
    const r = bvp.solve({ tol: 1e-12 });
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeLessThanOrEqual(6);
  });
});
