import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess, simulate } from './helpers.js';

const orth = (R: number[]): number => {
  let e = 0;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += R[3 * k + i]! * R[3 * k + j]!;
      e = Math.max(e, Math.abs(s - (i === j ? 1 : 0)));
    }
  return e;
};

describe('simulate heavy-top (SO(3) LGVI)', () => {
  it('defaults: 1000 steps, e₃·RΠ and Π₃ conserved, R orthogonal, energy bounded, no warning', async () => {
    const doc = await simulate('heavy-top', '--every', '10');
    const t = doc.series.t as number[];
    expect(t).toHaveLength(101);
    expect(t[100]).toBeCloseTo(10, 12);
    const sp = doc.series.spatialMomentum as number[][];
    const pi = doc.series.pi as number[][];
    const E = doc.series.energy as number[];
    const R = doc.series.R as number[][];
    expect(pi[0]).toEqual([0, 0, 40]);
    for (let j = 0; j < t.length; j++) {
      expect(Math.abs(sp[j]![2]! - sp[0]![2]!) / Math.abs(sp[0]![2]!)).toBeLessThan(1e-12);
      expect(Math.abs(pi[j]![2]! - 40)).toBeLessThan(1e-12);
      expect(Math.abs(E[j]! - E[0]!) / Math.abs(E[0]!)).toBeLessThan(1e-6);
      expect(orth(R[j]!)).toBeLessThan(1e-12);
    }
    expect((doc as { warnings?: string[] }).warnings).toBeUndefined();
    expect(doc.stats.newtonIterations).toBeGreaterThan(0);
  });

  it('params and init change the run; a bad parameter is one clean usage error', async () => {
    const doc = await simulate(
      'heavy-top',
      '--steps',
      '10',
      '--param',
      'l=0',
      '--init',
      'omega=1,2,3',
    );
    const pi = doc.series.pi as number[][];
    // l = 0: the free rigid body, |Π| conserved
    const n0 = Math.hypot(...pi[0]!);
    expect(Math.abs(Math.hypot(...pi[10]!) - n0)).toBeLessThan(1e-13);
    const bad = await inProcess('simulate', 'heavy-top', '--param', 'I1=-1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(ERROR_LINE);
  });
});

describe('simulate quadrotor (LGVI on SO(3) × R³)', () => {
  it('defaults: throttle 1 hovers exactly at the initial position', async () => {
    const doc = await simulate('quadrotor');
    const x = doc.series.x as number[][];
    expect(x).toHaveLength(1001);
    for (const p of x) expect(p).toEqual([0, 0, 1]);
    expect((doc as { warnings?: string[] }).warnings).toBeUndefined();
  });

  it('throttle 0 falls freely; a torque tilts and moves it sideways', async () => {
    const fall = await simulate('quadrotor', '--param', 'throttle=0', '--steps', '100');
    const z = (fall.series.x as number[][])[100]![2]!;
    expect(Math.abs(z - (1 - 0.5 * 9.81))).toBeLessThan(1e-13);
    const tilt = await simulate(
      'quadrotor',
      '--param',
      'torque=0.001,0,0',
      '--param',
      'throttle=1.2',
    );
    const last = (tilt.series.x as number[][])[1000]!;
    expect(last[1]!).toBeLessThan(-0.1);
    expect(orth((tilt.series.R as number[][])[1000]!)).toBeLessThan(1e-13);
  });
});

describe('simulate unicycle (SE(2))', () => {
  it('defaults: a torque-driven turn at constant speed, energy = ½mv² + ½Iω²', async () => {
    const doc = await simulate('unicycle');
    const v = doc.series.v as number[];
    const w = doc.series.omega as number[];
    const E = doc.series.energy as number[];
    expect((doc as { warnings?: string[] }).warnings).toBeUndefined();
    expect(v[1000]).toBe(1);
    // ω = τt/I = 0.02·10/0.1 = 2
    expect(Math.abs(w[1000]! - 2)).toBeLessThan(1e-12);
    expect(Math.abs(E[1000]! - (0.5 + 0.5 * 0.1 * 4))).toBeLessThan(1e-12);
    // heading = ∫ω = τt²/(2I) = 10 (the midpoint twist integrates a linear ω exactly)
    const th = doc.series.heading as number[];
    expect(Math.abs(th[1000]! - (10 - 4 * Math.PI))).toBeLessThan(1e-10);
  });
});
