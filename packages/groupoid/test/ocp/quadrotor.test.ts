// Issue 19's quadrotor flight (`quadrotorOcp`) against independent checks: the optimal inputs
// re-simulated by the LGVI stepper (QuadrotorLgviStepper, which solves (L4) by its own Newton
// iteration) reproduce the trajectory and reach the target; the hover problem is solved by the
// hover input exactly; an aggressive target saturates the thrust.
import { describe, expect, it } from 'vitest';
import { QuadrotorLgviStepper } from '../../src/lgvi.js';
import {
  axisAngleToRotation,
  type LieOcpSolution,
  quadrotorGuess,
  quadrotorHoverState,
  quadrotorOcp,
  solvePlateBall,
} from '../../src/ocp/index.js';

const tight = { tol: 1e-10 };

/** max |re-simulated − solved| over the states, and the end error against `end`. */
function resimulate(sol: LieOcpSolution, h: number, end: ArrayLike<number>) {
  const q = new QuadrotorLgviStepper({ mass: 1.5, inertia: [0.02, 0.02, 0.04], gravity: 9.81, h });
  const x = Float64Array.from(sol.x.subarray(0, 18));
  let path = 0;
  for (let k = 0; k < sol.N; k++) {
    q.step(x, k, h, sol.u.slice(4 * k, 4 * k + 4));
    for (let i = 0; i < 18; i++) path = Math.max(path, Math.abs(x[i]! - sol.x[18 * (k + 1) + i]!));
  }
  let endError = 0;
  for (let i = 0; i < 18; i++) endError = Math.max(endError, Math.abs(x[i]! - end[i]!));
  return { path, endError };
}

describe('quadrotor flight on SO(3) × R³ (forced LGVI step as constraints)', () => {
  it('default flight (2, 0, 2, π/2) in T = 2: a minimum; the LGVI stepper with the optimal inputs reaches the target to 1e-8', () => {
    const ocp = quadrotorOcp({ n: 40 });
    const sol = ocp.solve({ guess: quadrotorGuess(ocp), solver: tight });
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    const r = resimulate(sol, ocp.h, ocp.end);
    expect(r.path).toBeLessThan(1e-8);
    expect(r.endError).toBeLessThan(1e-8);
  });
  it('an aggressive flight for the thrust (T = 1.5, fmax = 17 N ≈ 1.16 m g; unbounded the thrust peaks at 18.26 N): the bound is active, the target still reached', () => {
    const ocp = quadrotorOcp({ n: 40, T: 1.5, fmax: 17 });
    const sol = ocp.solve({ guess: quadrotorGuess(ocp), solver: tight });
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    const fmax = 17;
    let top = 0;
    let atBound = 0;
    for (let k = 0; k < 40; k++) {
      const f = sol.u[4 * k]!;
      expect(f).toBeGreaterThanOrEqual(-1e-9);
      expect(f).toBeLessThanOrEqual(fmax + 1e-9);
      top = Math.max(top, f);
      if (f > fmax - 1e-6) atBound++;
    }
    expect(top).toBeGreaterThan(fmax - 1e-6);
    expect(atBound).toBeGreaterThanOrEqual(2);
    expect(resimulate(sol, ocp.h, ocp.end).endError).toBeLessThan(1e-8);
  });
  it('a narrow torque bound τmax = 0.2 (both sides kept at the centred start, more rows than the factorization carries): the minimum IPOPT finds', () => {
    // used to stop at iteration 0 with stepComputationFailed (OCP_MAX_CARRIED_CONSTRAINTS); the
    // reference is IPOPT 3.11.9 on the same transcription (bench/ipopt/quadrotor.cpp, tol 1e-10,
    // bound_relax_factor 0): 2.5418308116403647
    const ocp = quadrotorOcp({ n: 40, taumax: 0.2 });
    const sol = ocp.solve({ guess: quadrotorGuess(ocp), solver: tight });
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    let top = 0;
    for (let k = 0; k < 40; k++) {
      for (let i = 1; i < 4; i++) {
        expect(Math.abs(sol.u[4 * k + i]!)).toBeLessThanOrEqual(0.2 + 1e-9);
        top = Math.max(top, Math.abs(sol.u[4 * k + i]!));
      }
    }
    expect(top).toBeGreaterThan(0.2 - 1e-6);
    expect(Math.abs(sol.cost - 2.5418308116403647) / 2.5418308116403647).toBeLessThan(1e-8);
    expect(resimulate(sol, ocp.h, ocp.end).endError).toBeLessThan(1e-8);
  });
  it('hover (start = end, yawed): u = u_hover = (m g, 0, 0, 0) to 1e-10 and cost 0', () => {
    const pose = [1, -2, 3, 0.7] as const;
    const ocp = quadrotorOcp({ n: 20, start: pose, end: pose });
    const sol = ocp.solve({ guess: quadrotorGuess(ocp), solver: tight });
    expect(sol.status).toBe('converged');
    let du = 0;
    for (let k = 0; k < 20; k++) {
      du = Math.max(du, Math.abs(sol.u[4 * k]! - 1.5 * 9.81));
      for (let i = 1; i < 4; i++) du = Math.max(du, Math.abs(sol.u[4 * k + i]!));
    }
    expect(du).toBeLessThan(1e-10);
    expect(sol.cost).toBeLessThan(1e-18);
    const hover = quadrotorHoverState(pose);
    for (let k = 0; k <= 20; k++)
      for (let i = 0; i < 18; i++)
        expect(Math.abs(sol.x[18 * k + i]! - hover[i]!)).toBeLessThan(1e-10);
  });
  it('refuses fmax ≤ m g (hover not admissible) and bad poses', () => {
    expect(() => quadrotorOcp({ fmax: 10 })).toThrow(/fmax/);
    expect(() => quadrotorOcp({ end: [0, 0, Number.NaN, 0] })).toThrow(/end/);
  });
});

describe('plate-ball with a speed bound', () => {
  it('S7-like data whose unbounded optimum exceeds vmax: the bound is active, the cost ≥ the unbounded one', () => {
    const data = {
      r: 1,
      Omega: 0.5,
      c: 0,
      n: 30,
      start: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0) },
      end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
    };
    const free = solvePlateBall(data);
    expect(free.success).toBe(true);
    let top = 0;
    for (let k = 0; k < 30; k++)
      top = Math.max(top, Math.hypot(free.solution.u[2 * k]!, free.solution.u[2 * k + 1]!));
    const vmax = 0.9 * top;
    const bounded = solvePlateBall({ ...data, vmax });
    expect(bounded.success).toBe(true);
    let topB = 0;
    let active = 0;
    for (let k = 0; k < 30; k++) {
      const v = Math.hypot(bounded.solution.u[2 * k]!, bounded.solution.u[2 * k + 1]!);
      topB = Math.max(topB, v);
      if (v > vmax - 1e-6) active++;
    }
    expect(topB).toBeLessThanOrEqual(vmax + 1e-9);
    expect(active).toBeGreaterThan(0);
    expect(bounded.cost).toBeGreaterThan(free.cost);
    // a bound above the unbounded optimum's speed changes nothing
    const loose = solvePlateBall({ ...data, vmax: 1.1 * top });
    expect(Math.abs(loose.cost - free.cost)).toBeLessThan(1e-9 * free.cost);
  });
});
