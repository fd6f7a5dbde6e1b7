// `geomech solve unicycle-parking` and `geomech solve satellite` (issue 19's built-ins; the
// library's tests in packages/groupoid/test/ocp/builtins.test.ts check them against closed forms).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    ['missing --guess file', ['unicycle-parking', '--guess', 'nothing.json']],
    ['fmax below hover', ['quadrotor-flight', '--param', 'fmax=10']],
    ['short quadrotor --end', ['quadrotor-flight', '--end', '1,2,3']],
    ['negative plate-ball vmax', ['plate-ball', '--param', 'vmax=-1']],
  ])('%s: exit 2 with one line', async (_name, args) => {
    const r = await inProcess('solve', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});

describe('solve quadrotor-flight', () => {
  it('defaults: a converged minimum from its default guess, thrust and torques within bounds, hover at the target', async () => {
    const doc = await solve('quadrotor-flight', '--n', '30');
    expect(doc.ok).toBe(true);
    expect(doc.secondOrder).toBe('minimum');
    const u = doc.series.u as number[][];
    for (const r of u) {
      expect(r[0]!).toBeGreaterThanOrEqual(-1e-9);
      expect(r[0]!).toBeLessThanOrEqual(29.43 + 1e-9);
      for (const t of r.slice(1)) expect(Math.abs(t)).toBeLessThanOrEqual(1.5 + 1e-9);
    }
    const x = doc.series.x as number[][];
    expect(Math.abs(x[30]![0]! - 2)).toBeLessThan(1e-10);
    expect(Math.abs(x[30]![2]! - 2)).toBeLessThan(1e-10);
    for (const v of (doc.series.v as number[][])[30]!) expect(Math.abs(v)).toBeLessThan(1e-10);
  });
  it('an aggressive flight for the thrust (--param T=1.5 --param fmax=17): the thrust bound is active', async () => {
    const doc = await solve(
      'quadrotor-flight',
      '--n',
      '30',
      '--param',
      'T=1.5',
      '--param',
      'fmax=17',
    );
    expect(doc.ok).toBe(true);
    const f = (doc.series.u as number[][]).map((r) => r[0]!);
    expect(Math.max(...f)).toBeGreaterThan(17 - 1e-6);
    expect(Math.max(...f)).toBeLessThanOrEqual(17 + 1e-9);
  });
});

describe('solve plate-ball --param vmax', () => {
  it('a speed bound below the unbounded optimum: active, cost above the unbounded one', async () => {
    const free = await solve('plate-ball', '--param', 'Omega=0.5', '--end', '1,0,0,0,0.3');
    const speed = (d: Doc) => {
      const x = d.series.x as number[];
      const y = d.series.y as number[];
      const n = x.length - 1;
      let top = 0;
      for (let k = 0; k < n; k++)
        top = Math.max(top, Math.hypot(x[k + 1]! - x[k]!, y[k + 1]! - y[k]!) * n);
      return top;
    };
    const vmax = 0.95 * speed(free);
    const bounded = await solve(
      'plate-ball',
      '--param',
      'Omega=0.5',
      '--end',
      '1,0,0,0,0.3',
      '--param',
      `vmax=${vmax}`,
    );
    expect(bounded.ok).toBe(true);
    expect(speed(bounded)).toBeLessThanOrEqual(vmax + 1e-8);
    expect(speed(bounded)).toBeGreaterThan(vmax - 1e-6);
    expect(bounded.cost).toBeGreaterThan(free.cost);
  });
});

describe('--guess and --continuation for every built-in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geomech-guess-'));
  const cases: [string, string[]][] = [
    ['unicycle-parking', ['--n', '30']],
    ['satellite', ['--n', '30']],
    ['quadrotor-flight', ['--n', '30']],
    ['so3-steering', ['--n', '30']],
  ];
  it.each(cases)(
    '%s: a solution fed back as --guess converges in ≤ 2 iterations to the same cost',
    async (name, args) => {
      const first = await inProcess('solve', name, ...args);
      expect(first.code).toBe(0);
      const file = join(dir, `${name}.json`);
      writeFileSync(file, first.stdout);
      const a = JSON.parse(first.stdout) as Doc;
      const b = await solve(name, ...args, '--guess', file);
      expect(b.ok).toBe(true);
      expect(b.iterations).toBeLessThanOrEqual(2);
      expect(Math.abs(b.cost - a.cost)).toBeLessThan(1e-9 * Math.max(1, Math.abs(a.cost)));
    },
  );
  it.each(cases.slice(0, 3))(
    '%s: --continuation 2 reaches the same minimum',
    async (name, args) => {
      const a = await solve(name, ...args);
      const b = await solve(name, ...args, '--continuation', '2');
      expect(b.ok).toBe(true);
      expect(Math.abs(b.cost - a.cost)).toBeLessThan(1e-8 * Math.max(1, Math.abs(a.cost)));
    },
  );
  it('a guess file of another n is refused with exit 2 and one line', async () => {
    const first = await inProcess('solve', 'satellite', '--n', '20');
    const file = join(dir, 'sat20.json');
    writeFileSync(file, first.stdout);
    const r = await inProcess('solve', 'satellite', '--n', '30', '--guess', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/--guess series\.R/);
  });
});
