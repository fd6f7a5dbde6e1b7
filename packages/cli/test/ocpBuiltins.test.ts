// `geomech solve unicycle-parking` and `geomech solve satellite` (issue 19's built-ins; the
// library's tests in packages/groupoid/test/ocp/builtins.test.ts check them against closed forms).
import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess } from './helpers.js';

interface Doc {
  ok: boolean;
  problem: string;
  status: string;
  secondOrder: string;
  cost: number;
  iterations: number;
  history: number[];
  slipNorm?: number;
  series: Record<string, (number | number[])[]>;
}

async function solve(...args: string[]): Promise<Doc> {
  const r = await inProcess('solve', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Doc;
}

describe('solve unicycle-parking', () => {
  it('defaults: a converged minimum, no slip, |v| ≤ 1.6 with the bound active, the end pose reached', async () => {
    const doc = await solve('unicycle-parking', '--n', '40');
    expect(doc.ok).toBe(true);
    expect(doc.secondOrder).toBe('minimum');
    expect(doc.slipNorm!).toBeLessThan(1e-10);
    const xi = doc.series.xi as number[][];
    const vmax = Math.max(...xi.map((r) => r[0]!));
    expect(vmax).toBeLessThanOrEqual(1.6 + 1e-9);
    expect(vmax).toBeGreaterThan(1.6 - 1e-5);
    expect(Math.abs((doc.series.x![40] as number) - 1)).toBeLessThan(1e-10);
    expect(Math.abs((doc.series.theta![40] as number) - Math.PI / 2)).toBeLessThan(1e-10);
    expect(doc.history.length).toBe(doc.iterations + 1);
  });
  it('--param heading=free: the end heading is left free and the cost drops', async () => {
    const fixed = await solve('unicycle-parking', '--n', '30', '--end', '1,1,1.5707963267948966');
    const free = await solve('unicycle-parking', '--n', '30', '--param', 'heading=free');
    expect(free.ok).toBe(true);
    expect(free.cost).toBeLessThan(fixed.cost);
  });
});

describe('solve satellite', () => {
  it('defaults (T = 4.4 > T* = 4.243): a converged minimum with the torque saturated at both ends', async () => {
    const doc = await solve('satellite', '--n', '40');
    expect(doc.ok).toBe(true);
    const u = doc.series.u as number[][];
    expect(Math.abs(u[1]![2]! - 1)).toBeLessThan(1e-5);
    expect(Math.abs(u[40]![2]! + 1)).toBeLessThan(1e-5);
    for (const r of u) for (const v of r) expect(Math.abs(v)).toBeLessThanOrEqual(1 + 1e-9);
    const Pi = doc.series.Pi as number[][];
    for (const v of Pi[40]!) expect(Math.abs(v)).toBeLessThan(1e-10); // at rest at the end
  });
  it('T below T*: no admissible torque reaches the target, exit 1 with a hint', async () => {
    const r = await inProcess('solve', 'satellite', '--n', '20', '--param', 'T=3');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(JSON.parse(r.stdout).ok).toBe(false);
  });
  it.each([
    ['--start on satellite', ['satellite', '--start', '0,0,0']],
    ['negative umax', ['satellite', '--param', 'umax=-1']],
    ['short --end', ['unicycle-parking', '--end', '1,1']],
    ['unknown heading', ['unicycle-parking', '--param', 'heading=left']],
    ['--guess', ['unicycle-parking', '--guess', 'nothing.json']],
  ])('%s: exit 2 with one line', async (_name, args) => {
    const r = await inProcess('solve', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});
