// State bounds active at many stages (issue 19): the stage-wise factorization carries a kept
// state-only row to the initial stage, and more than OCP_MAX_CARRIED_CONSTRAINTS of them used to
// stop the solve at iteration 0 (`stepComputationFailed`). The interior-point method now condenses
// the state-only rows when they would overflow. The answers are certified independently: a
// rest-to-rest double integrator is a convex QP, so the interior-point solution is the global
// minimum when the equality-constrained QP on its active set (solved densely here) reproduces it
// with multipliers of the right sign.
import { DenseLU, OCP_MAX_CARRIED_CONSTRAINTS, Rn, SE2 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { defineOcp } from '../../src/ocp/index.js';

const N = 200;
const VMAX = 1.2;

/** min Σ h ½u² s.t. p' = v, v' = u (explicit Euler), (p, v): (0, 0) → (1, 0) in T = 1, v ≤ VMAX. */
function doubleIntegrator() {
  return defineOcp({
    state: Rn(2),
    controls: 1,
    steps: N,
    horizon: 1,
    dynamics: {
      next: (o, s) => [o.add(s.x[0]!, o.mul(s.h, s.x[1]!)), o.add(s.x[1]!, o.mul(s.h, s.u[0]!))],
    },
    cost: (o, s) => o.scale(o.mul(s.u[0]!, s.u[0]!), 0.5),
    stateBounds: { upper: [Infinity, VMAX] },
    start: Float64Array.of(0, 0),
    end: Float64Array.of(1, 0),
  });
}

/**
 * The equality-constrained QP with the bound rows of `active` as equalities, densely: with
 * v_k = h Σ_{j<k} u_j and p_N = h² Σ_j (N − 1 − j) u_j, the rows G u = b are p_N = 1, v_N = 0 and
 * v_k = VMAX (k ∈ active); u = −Gᵀλ/h with (G Gᵀ) λ = −h b. Returns u and the bound multipliers.
 */
function activeSetQp(active: number[]): { u: Float64Array; lambda: Float64Array } {
  const h = 1 / N;
  const m = 2 + active.length;
  const G = new Float64Array(m * N);
  const b = new Float64Array(m);
  for (let j = 0; j < N; j++) {
    G[j] = h * h * (N - 1 - j);
    G[N + j] = h;
  }
  b[0] = 1;
  active.forEach((k, r) => {
    for (let j = 0; j < k; j++) G[(2 + r) * N + j] = h;
    b[2 + r] = VMAX;
  });
  const GGt = new Float64Array(m * m);
  for (let a = 0; a < m; a++) {
    for (let c = 0; c < m; c++) {
      let s = 0;
      for (let j = 0; j < N; j++) s += G[a * N + j]! * G[c * N + j]!;
      GGt[a * m + c] = s;
    }
  }
  const rhs = b.map((v) => -h * v);
  const lambda = new Float64Array(m);
  new DenseLU(m).factor(GGt).solve(rhs, lambda);
  const u = new Float64Array(N);
  for (let j = 0; j < N; j++) {
    let s = 0;
    for (let a = 0; a < m; a++) s += G[a * N + j]! * lambda[a]!;
    u[j] = -s / h;
  }
  return { u, lambda: lambda.subarray(2) };
}

describe('state bounds active at many stages', () => {
  it('a velocity bound active on > OCP_MAX_CARRIED_CONSTRAINTS stages: the global minimum (QP certificate)', () => {
    const sol = doubleIntegrator().solve({ solver: { tol: 1e-10 } });
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    const active: number[] = [];
    for (let k = 1; k < N; k++) {
      const v = sol.x[2 * k + 1]!;
      expect(v).toBeLessThanOrEqual(VMAX + 1e-9);
      if (v > VMAX - 1e-6) active.push(k);
    }
    // the case the old limit refused: more active state-only rows than can be carried
    expect(active.length).toBeGreaterThan(OCP_MAX_CARRIED_CONSTRAINTS);
    const qp = activeSetQp(active);
    let du = 0;
    for (let j = 0; j < N; j++) du = Math.max(du, Math.abs(qp.u[j]! - sol.u[j]!));
    expect(du).toBeLessThan(1e-5);
    // v ≤ VMAX as Gu − b ≤ 0: the multipliers of a minimum are ≥ 0 (to the solver's tolerance)
    for (const l of qp.lambda) expect(l).toBeGreaterThan(-1e-8);
    // the QP's own trajectory respects the bound at every stage, so it is the global minimum
    let v = 0;
    let cost = 0;
    for (let j = 0; j < N; j++) {
      v += qp.u[j]! / N;
      expect(v).toBeLessThanOrEqual(VMAX + 1e-9);
      cost += (0.5 * qp.u[j]! * qp.u[j]!) / N;
    }
    expect(Math.abs(sol.cost - cost) / cost).toBeLessThan(1e-8);
  });

  it('the optimal-control guide example with y ≥ −0.05 near the start converges (was stepComputationFailed)', () => {
    const spec = (ylo: number) =>
      defineOcp({
        state: SE2,
        controls: 3,
        steps: 60,
        horizon: 1,
        dynamics: { kinematic: (_o, s) => s.u, map: 'cayley' },
        cost: (o, s) => o.scale(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[2]!, s.u[2]!)), 0.5),
        equalities: (_o, s) => [s.u[1]!],
        controlBounds: { lower: [-1.6, -Infinity, -Infinity], upper: [1.6, Infinity, Infinity] },
        stateBounds: {
          lower: [
            -Infinity,
            -Infinity,
            -Infinity,
            -Infinity,
            -Infinity,
            ylo,
            -Infinity,
            -Infinity,
            -Infinity,
          ],
          upper: [
            Infinity,
            Infinity,
            1.2,
            Infinity,
            Infinity,
            Infinity,
            Infinity,
            Infinity,
            Infinity,
          ],
        },
        start: SE2.identity(new Float64Array(9)),
        terminalEqualities: (o, s) => [o.sub(s.x[2]!, o.const(1)), o.sub(s.x[5]!, o.const(1))],
      });
    const guessControls = Array.from({ length: 180 }, (_, i) => (i % 3 === 1 ? 0 : 1.2));
    const near = spec(-0.05);
    const sol = near.solve({ guess: near.rollout(guessControls) });
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    // the bound is inactive at the optimum: the guide's cost without it, 1.925652 (printed digits)
    const far = spec(-10);
    const ref = far.solve({ guess: far.rollout(guessControls) });
    expect(ref.status).toBe('converged');
    expect(Math.abs(sol.cost - ref.cost)).toBeLessThan(1e-7);
    expect(sol.cost.toFixed(6)).toBe('1.925652');
  });
});
