import { DimensionError, DomainError, mul3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { PlateBall } from '../src/plateBall.js';
import {
  axisAngleToRotation,
  type PlateBallBvpResult,
  type PlateBallProgress,
  solvePlateBall,
} from '../src/plateBallBvp.js';

const I3 = axisAngleToRotation(0, 0, 0);
const origin = { x: 0, y: 0, R: I3 };

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/**
 * Independent check of a returned trajectory: rebuild the elements g_k = (x_{k−1}, y_{k−1}, x_k,
 * y_k, G_{k−1}ᵀG_k) and evaluate PlateBall.residual (DEL + φ/h) for k = 1..n−1 and φ(g_1);
 * returns the worst DEL/φ-row and the worst unscaled |φ|.
 */
function check(
  sol: PlateBallBvpResult,
  n: number,
  params: { r: number; Omega: number; c: number },
): { del: number; phi: number; orth: number } {
  const pb = new PlateBall({ h: 1 / n, ...params });
  const els: Float64Array[] = [];
  let orth = 0;
  for (let k = 1; k <= n; k++) {
    const g = new Float64Array(13);
    g[0] = sol.x[k - 1]!;
    g[1] = sol.y[k - 1]!;
    g[2] = sol.x[k]!;
    g[3] = sol.y[k]!;
    const Gp = sol.R.subarray(9 * (k - 1), 9 * k);
    const G = sol.R.subarray(9 * k, 9 * k + 9);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let m = 0; m < 3; m++) s += Gp[3 * m + i]! * G[3 * m + j]!;
        g[4 + 3 * i + j] = s;
      }
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let m = 0; m < 3; m++) s += G[3 * m + i]! * G[3 * m + j]!;
        orth = Math.max(orth, Math.abs(s - (i === j ? 1 : 0)));
      }
    els.push(g);
  }
  const lam = (k: number) => sol.lambda.subarray(3 * (k - 1), 3 * k);
  let del = 0;
  let phi = 0;
  const res = new Float64Array(8);
  const p3 = new Float64Array(3);
  for (let k = 1; k <= n; k++) {
    pb.phi(p3, els[k - 1]!);
    phi = Math.max(phi, ...Array.from(p3, Math.abs));
    if (k < n) {
      pb.residual(res, els[k - 1]!, lam(k), els[k]!, lam(k + 1));
      del = Math.max(del, ...Array.from(res, Math.abs));
    }
  }
  return { del, phi, orth };
}

describe('axisAngleToRotation', () => {
  it('is exp of the hat of the rotation vector', () => {
    const R = axisAngleToRotation(0, 0, 0.3);
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    // measured 0 (exact for a pure z rotation up to rounding of cos/sin)
    expect(maxAbsDiff(R, [c, -s, 0, s, c, 0, 0, 0, 1])).toBeLessThan(1e-16);
    expect(() => axisAngleToRotation(Number.NaN, 0, 0)).toThrow(DomainError);
  });
});

describe('S6: exact straight roll (spec 003 §10)', () => {
  // Ω = 0, c = 0, r = 1, n = 20, start (0, 0, I), end (1, 0, exp(θ*E2)), θ* = n·asin(X/(n r))
  const n = 20;
  const a = Math.asin(1 / n);
  const thetaStar = n * a;
  const end = { x: 1, y: 0, R: axisAngleToRotation(0, thetaStar, 0) };
  const exact = (l2: number) => ({
    x: Float64Array.from({ length: n + 1 }, (_, k) => k / n),
    y: new Float64Array(n + 1),
    R: (() => {
      const R = new Float64Array(9 * (n + 1));
      for (let k = 0; k <= n; k++) R.set(axisAngleToRotation(0, k * a, 0), 9 * k);
      return R;
    })(),
    lambda: Float64Array.from({ length: 3 * n }, (_, i) => (i % 3 === 1 ? l2 : 0)),
  });

  it('θ* = 1.0004171361154004 and the exact solution has zero residual for any constant λ2', () => {
    expect(thetaStar).toBeCloseTo(1.0004171361154004, 15);
    // measured residual 3.3e-15, |φ| 1.7e-16, cost exactly n·(1/n)²/(2h) = 0.5 for every λ2
    for (const l2 of [-1, 0, 0.7, 3]) {
      const sol = solvePlateBall({ n, start: origin, end, guess: exact(l2), maxIterations: 0 });
      expect(sol.converged).toBe(true);
      expect(sol.residualNorm).toBeLessThan(1e-13);
      expect(sol.constraintNorm).toBeLessThan(1e-14);
      expect(sol.cost).toBeCloseTo(0.5, 14);
    }
  });

  it('recovers the roll from perturbed guesses; λ is the minimum-norm multiplier λ = 0', () => {
    // guesses: exact(λ2 = 0.5) + uniform noise of amplitude amp in x, y, G (right-multiplied
    // rotations) and λ; tol 1e-12. measured: trajectory error ≤ 1.7e-14, |λ| ≤ 4.0e-13, 3–4
    // iterations
    let seed = 3;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const ref = exact(0);
    for (const amp of [1e-3, 1e-2, 5e-2, 0.1]) {
      const g = exact(0.5);
      for (let k = 1; k < n; k++) {
        g.x[k]! += amp * rnd();
        g.y[k]! += amp * rnd();
        const P = axisAngleToRotation(amp * rnd(), amp * rnd(), amp * rnd());
        mul3(g.R, g.R, P, 9 * k, 9 * k, 0);
      }
      for (let i = 0; i < 3 * n; i++) g.lambda[i]! += amp * rnd();
      const sol = solvePlateBall({ n, start: origin, end, guess: g, tol: 1e-12 });
      expect(sol.converged).toBe(true);
      expect(sol.iterations).toBeLessThanOrEqual(5);
      expect(sol.residualNorm).toBeLessThan(1e-12);
      expect(maxAbsDiff(sol.x, ref.x)).toBeLessThan(1e-12);
      expect(maxAbsDiff(sol.y, ref.y)).toBeLessThan(1e-12);
      expect(maxAbsDiff(sol.R, ref.R)).toBeLessThan(1e-12);
      expect(maxAbsDiff(sol.lambda, ref.lambda)).toBeLessThan(2e-11);
      expect(sol.deflated).toBe(true);
    }
  });
});

describe('S7: loops producing a rotation about the vertical (spec 003 §10)', () => {
  // start (0,0,I) → end (0,0,exp(ψE3)), r = 1, c = 0, n = 30, counter-clockwise circle guess
  const n = 30;
  const cases = [
    { Omega: 0, psi: 0.3, cost: 2.885511, iterations: 7 },
    { Omega: 0.5, psi: 0.3, cost: 3.247543, iterations: 7 },
    { Omega: 0.5, psi: -0.3, cost: 1.990647, iterations: 8 },
  ];
  for (const { Omega, psi, cost, iterations } of cases) {
    it(`Ω = ${Omega}, ψ = ${psi}: cost ${cost} (prototype), residual ≤ 1e-10, constraints ≤ 1e-12`, () => {
      // measured costs 2.8855106237537, 3.2475428387392, 1.9906469127629 (the prototype's to 6
      // decimals), in 7, 7, 8 iterations (prototype 7, 7, 9); final ‖F‖∞ 6.3e-13, 8.9e-15,
      // 4.2e-14; max |φ| 1.1e-14, 6.8e-17, 1.4e-15
      const sol = solvePlateBall({
        r: 1,
        Omega,
        c: 0,
        n,
        start: origin,
        end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, psi) },
        loop: 1,
      });
      expect(sol.converged).toBe(true);
      expect(sol.cost).toBeCloseTo(cost, 6);
      expect(sol.iterations).toBe(iterations);
      expect(sol.residualNorm).toBeLessThan(1e-10);
      expect(sol.constraintNorm).toBeLessThan(1e-12);
      // independent re-evaluation of the DEL with PlateBall (measured ≤ 6.3e-13 and ≤ 1.1e-14)
      const c = check(sol, n, { r: 1, Omega, c: 0 });
      expect(c.del).toBeLessThan(1e-10);
      expect(c.phi).toBeLessThan(1e-12);
      expect(c.orth).toBeLessThan(1e-13);
      // the fixed ends
      expect(maxAbsDiff(sol.R.subarray(9 * n), axisAngleToRotation(0, 0, psi))).toBe(0);
      expect([sol.x[0], sol.y[0], sol.x[n], sol.y[n]]).toEqual([0, 0, 0, 0]);
      // Newton converges quadratically at the end: r_{k+1} ≤ 20·r_k² (measured ratios
      // r_{k+1}/r_k² between 0.6 and 2.0)
      const h = sol.history.residualNorm;
      const last = h.length - 1;
      expect(h[last]!).toBeLessThan(20 * h[last - 1]! ** 2);
      expect(sol.residualNorm).toBeLessThan(20 * h[last]! ** 2 + 1e-13); // + rounding floor
    });
  }

  it('the symmetric problem is non-isolated: the solver deflates the SO(2) direction', () => {
    // σ_min/‖J‖∞ falls from 1.1e-4 to 4.5e-13 along the iterations (measured, Ω = 0.5, ψ = 0.3)
    const sol = solvePlateBall({
      r: 1,
      Omega: 0.5,
      n,
      start: origin,
      end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
      loop: 1,
    });
    expect(sol.deflated).toBe(true);
    const s = sol.history.sigmaMin;
    expect(s[s.length - 1]!).toBeLessThan(1e-10);
    expect(s[0]!).toBeGreaterThan(1e-5);
  });

  it('Ω = 0, ψ = −0.3 with the counter-clockwise guess converges here to the mirror loop (cost 2.885511)', () => {
    // the prototype did not converge from this guess; we converge in 10 iterations to the
    // reflection y ↦ −y of the ψ = +0.3 solution, with the same cost (measured 2.8855106237527)
    const sol = solvePlateBall({
      n,
      start: origin,
      end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, -0.3) },
      loop: 1,
    });
    expect(sol.converged).toBe(true);
    expect(sol.cost).toBeCloseTo(2.885511, 6);
    // the default loop orientation (clockwise for ψ < 0) reaches the same cost
    const def = solvePlateBall({
      n,
      start: origin,
      end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, -0.3) },
    });
    expect(def.converged).toBe(true);
    expect(def.cost).toBeCloseTo(2.885511, 6);
  });

  it('the discrete optimal cost converges at O(h²) (Ω = 0.5, ψ = 0.3)', () => {
    // measured: log2 of the ratio of successive cost differences (n = 60, 120, 240) = 1.9996
    const costs = [60, 120, 240].map(
      (m) =>
        solvePlateBall({
          Omega: 0.5,
          n: m,
          start: origin,
          end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
          loop: 1,
        }).cost,
    );
    const order = Math.log2((costs[0]! - costs[1]!) / (costs[1]! - costs[2]!));
    expect(Math.abs(order - 2)).toBeLessThan(0.02);
  });
});

describe('warm start and continuation', () => {
  const n = 30;
  const end = { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) };

  it('a previous solution is a warm start: 0 iterations for the same problem, fewer for a nearby one', () => {
    // measured: cold 7 iterations; warm same problem 0; Ω 0.5 → 0.55 from the Ω = 0.5 solution 3
    const cold = solvePlateBall({ Omega: 0.5, n, start: origin, end, loop: 1 });
    const same = solvePlateBall({ Omega: 0.5, n, start: origin, end, guess: cold });
    expect(same.converged).toBe(true);
    expect(same.iterations).toBe(0);
    const near = solvePlateBall({ Omega: 0.55, n, start: origin, end, guess: cold });
    const nearCold = solvePlateBall({ Omega: 0.55, n, start: origin, end, loop: 1 });
    expect(near.converged).toBe(true);
    expect(nearCold.converged).toBe(true);
    expect(near.iterations).toBeLessThan(nearCold.iterations);
    expect(near.cost).toBeCloseTo(nearCold.cost, 9);
  });

  it('continuation reaches a solution that the direct solve misses', () => {
    // c = 0.1, Ω = 0.5, n = 20, end (0.5, 0.2, Exp(−0.5, 0.6, 0.6)): K = 1 stalls (line search,
    // 23 iterations, measured); K = 4 converges in 21 iterations to cost 5.41460
    const opts = {
      r: 1,
      Omega: 0.5,
      c: 0.1,
      n: 20,
      start: origin,
      end: { x: 0.5, y: 0.2, R: axisAngleToRotation(-0.5, 0.6, 0.6) },
    };
    const direct = solvePlateBall(opts);
    expect(direct.converged).toBe(false);
    expect(direct.hint).toBeDefined();
    const stages: number[] = [];
    const cont = solvePlateBall({
      ...opts,
      continuation: 4,
      onProgress: (p: Readonly<PlateBallProgress>) => {
        if (stages[stages.length - 1] !== p.stage) stages.push(p.stage);
      },
    });
    expect(cont.converged).toBe(true);
    expect(stages).toEqual([1, 2, 3, 4]);
    expect(cont.cost).toBeCloseTo(5.4146, 4);
    const c = check(cont, 20, { r: 1, Omega: 0.5, c: 0.1 });
    expect(c.del).toBeLessThan(1e-10);
    expect(c.phi).toBeLessThan(1e-12);
  });
});

describe("method 'shooting'", () => {
  // a short, non-symmetric horizon: r = 1, Ω = 0.5, c = 0.1, end (0.5, 0.2, Exp(−0.15, 0.55, 0.1))
  const params = { r: 1, Omega: 0.5, c: 0.1 };
  const end = { x: 0.5, y: 0.2, R: axisAngleToRotation(-0.15, 0.55, 0.1) };

  it("agrees with 'full' (cold start, n = 12)", () => {
    // measured: full 7 iterations, shooting 13; trajectories agree to 2.4e-15, λ to 6.6e-14,
    // cost 0.34447158789407, shooting's full-trajectory residual 1.3e-14
    const full = solvePlateBall({ ...params, n: 12, start: origin, end });
    const shot = solvePlateBall({ ...params, n: 12, start: origin, end, method: 'shooting' });
    expect(full.converged).toBe(true);
    expect(shot.converged).toBe(true);
    expect(shot.method).toBe('shooting');
    expect(maxAbsDiff(full.x, shot.x)).toBeLessThan(1e-13);
    expect(maxAbsDiff(full.y, shot.y)).toBeLessThan(1e-13);
    expect(maxAbsDiff(full.R, shot.R)).toBeLessThan(1e-13);
    expect(maxAbsDiff(full.lambda, shot.lambda)).toBeLessThan(5e-12);
    expect(shot.cost).toBeCloseTo(full.cost, 12);
    expect(shot.residualNorm).toBeLessThan(1e-12);
  });

  it('agrees with the full solution from a perturbed warm start (n = 8) and reports failure cold', () => {
    // cold shooting stalls for n = 8 (line search, residual 8.7e-2: the end map is very sensitive);
    // from the full solution + 1e-2 noise it converges in 4 iterations, agreeing to 1.2e-14 (x)
    // and 5.9e-13 (λ)
    const full = solvePlateBall({ ...params, n: 8, start: origin, end });
    const cold = solvePlateBall({ ...params, n: 8, start: origin, end, method: 'shooting' });
    expect(cold.converged).toBe(false);
    expect(cold.hint).toMatch(/full/);
    const guess = {
      x: full.x.map((v, i) => v + 0.01 * Math.sin(i)),
      y: full.y,
      R: full.R,
      lambda: full.lambda.map((v, i) => v + 0.05 * Math.cos(i)),
    };
    const warm = solvePlateBall({ ...params, n: 8, start: origin, end, method: 'shooting', guess });
    expect(warm.converged).toBe(true);
    expect(maxAbsDiff(full.x, warm.x)).toBeLessThan(1e-12);
    expect(maxAbsDiff(full.lambda, warm.lambda)).toBeLessThan(5e-11);
  });
});

describe('non-convergence is reported, never silent', () => {
  it('an unreachable target (increments would need |hω| > 1) returns converged: false with a hint', () => {
    // x_end = 10 in n = 5 steps with r = 1 needs |s| ≈ 2 per step
    const sol = solvePlateBall({ n: 5, start: origin, end: { x: 10, y: 0, R: I3 } });
    expect(sol.converged).toBe(false);
    expect(sol.hint).toMatch(/branch/);
    expect(sol.residualNorm).toBeGreaterThan(1);
    expect(sol.history.residualNorm.length).toBeGreaterThanOrEqual(1);
  });

  it('the iteration limit returns converged: false with the history', () => {
    const progress: number[] = [];
    const sol = solvePlateBall({
      Omega: 0.5,
      n: 30,
      start: origin,
      end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
      maxIterations: 2,
      onProgress: (p) => progress.push(p.iteration),
    });
    expect(sol.converged).toBe(false);
    expect(sol.iterations).toBe(2);
    expect(sol.hint).toMatch(/iteration limit/);
    expect(sol.history.residualNorm.length).toBe(2);
    expect(progress).toEqual([1, 2]);
    expect(sol.residualNorm).toBeGreaterThan(1e-3);
  });

  it('rejects bad input with typed errors', () => {
    const end = { x: 0, y: 0, R: I3 };
    expect(() => solvePlateBall({ n: 1, start: origin, end })).toThrow(DomainError);
    expect(() =>
      solvePlateBall({ n: 4, start: origin, end: { x: 0, y: 0, R: [1, 0, 0, 0, 1, 0, 0, 0, 2] } }),
    ).toThrow(DomainError);
    expect(() =>
      solvePlateBall({ n: 4, start: origin, end: { x: 0, y: 0, R: [1, 0, 0, 0, 1, 0, 0, 0, -1] } }),
    ).toThrow(DomainError);
    expect(() =>
      solvePlateBall({
        n: 4,
        start: origin,
        end,
        guess: { x: [0, 0], y: [0, 0], R: new Float64Array(18), lambda: [0, 0, 0] },
      }),
    ).toThrow(DimensionError);
    expect(() => solvePlateBall({ n: 4, start: origin, end, continuation: 0 })).toThrow(
      DomainError,
    );
  });
});
