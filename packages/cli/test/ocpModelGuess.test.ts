// --guess and --continuation for optimal-control model files (`geomech solve --model FILE`), with
// the built-ins' semantics: a solution fed back converges in ≤ 2 iterations to the same cost;
// --continuation K reaches the same minimum; the errors name the field (exit 2, one line).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess } from './helpers.js';
import { minTimeModel } from './ocpFixtures.js';

const examples = join(__dirname, '..', 'examples');
const unicycle = join(examples, 'unicycle-parking.json');
const pendulum = join(examples, 'pendulum-swing-up.json');
const dir = mkdtempSync(join(tmpdir(), 'geomech-model-guess-'));

interface Doc {
  ok: boolean;
  iterations: number;
  cost: number;
  status: string;
  secondOrder: string;
  series: Record<string, (number | number[])[]>;
}

function file(name: string, doc: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return p;
}

async function solve(...args: string[]): Promise<{ doc: Doc; text: string }> {
  const r = await inProcess('solve', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { doc: JSON.parse(r.stdout) as Doc, text: r.stdout };
}

/** A minimum-time double integrator on R2 (free horizon in [0.5, 5]; T* = 2). */
const minTime = minTimeModel;

/** Attitude steering on SO(3) × R1 (a rotation vector in the output and the guess). */
const steering = {
  kind: 'optimal-control',
  state: ['SO3', 'R1'],
  steps: 30,
  horizon: 1,
  velocity: ['w1', 'w2', 'w3', 'sdot'],
  coordinates: ['r1', 'r2', 'r3', 's'],
  cost: '0.5*(w1^2 + 2*w2^2 + w3^2 + sdot^2)',
  start: [0, 0, 0, 0],
  end: [0.4, -0.8, 1.1, 1],
};

const cases: [string, () => string, string[]][] = [
  ['unicycle-parking.json (SE2, kinematic)', () => unicycle, ['--n', '30']],
  ['pendulum-swing-up.json (lagrangian, torque bound active)', () => pendulum, []],
  ['minimum time (free horizon)', () => file('mintime.json', minTime), []],
  ['SO(3) × R1 steering', () => file('steering.json', steering), []],
];

describe('--guess and --continuation for optimal-control model files', () => {
  it.each(cases)(
    '%s: a solution fed back as --guess converges in ≤ 2 iterations to the same cost',
    async (_name, model, args) => {
      const { doc: a, text } = await solve('--model', model(), ...args);
      expect(a.ok).toBe(true);
      expect(a.series.multipliers).toHaveLength(a.series.g!.length);
      const guess = file(`${_name.split(' ')[0]}-solution.json`, text);
      const { doc: b } = await solve('--model', model(), ...args, '--guess', guess);
      expect(b.ok).toBe(true);
      expect(b.iterations).toBeLessThanOrEqual(2);
      expect(Math.abs(b.cost - a.cost)).toBeLessThan(1e-9 * Math.max(1, Math.abs(a.cost)));
    },
  );
  it('without multipliers the guess is a cold start from the solution, still converging to the same cost', async () => {
    const { doc: a } = await solve('--model', unicycle, '--n', '30');
    const { multipliers: _, ...series } = a.series;
    const guess = file('unicycle-primal.json', { series });
    const { doc: b } = await solve('--model', unicycle, '--n', '30', '--guess', guess);
    expect(b.ok).toBe(true);
    expect(b.iterations).toBeLessThan(a.iterations);
    expect(Math.abs(b.cost - a.cost)).toBeLessThan(1e-9 * Math.abs(a.cost));
  });
  it.each(cases.filter(([name]) => !name.startsWith('minimum')))(
    '%s: --continuation 2 reaches the same minimum',
    async (_name, model, args) => {
      const { doc: a } = await solve('--model', model(), ...args);
      const { doc: b } = await solve('--model', model(), ...args, '--continuation', '2');
      expect(b.ok).toBe(true);
      expect(b.secondOrder).toBe('minimum');
      expect(b.iterations).toBeGreaterThan(a.iterations); // three solves, not one
      expect(Math.abs(b.cost - a.cost)).toBeLessThan(1e-8 * Math.max(1, Math.abs(a.cost)));
    },
  );
  it('a free end cannot be continued: exit 2 naming --continuation', async () => {
    const free = file('free-end.json', { ...steering, end: undefined });
    const r = await inProcess('solve', '--model', free, '--continuation', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/--continuation/);
  });
  it('a guess of another n, a missing field, or a horizon outside the interval: exit 2 naming the series', async () => {
    const { text } = await solve('--model', unicycle, '--n', '20');
    const g20 = file('unicycle-20.json', text);
    const other = await inProcess('solve', '--model', unicycle, '--n', '30', '--guess', g20);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(ERROR_LINE);
    expect(other.stderr).toMatch(/--guess series\.g/);

    const doc = JSON.parse(text) as Doc;
    const noXi = file('no-xi.json', { series: { ...doc.series, xi: undefined } });
    const missing = await inProcess('solve', '--model', unicycle, '--n', '20', '--guess', noXi);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--guess series\.xi/);

    const mt = file('mintime-model.json', minTime);
    const { doc: m } = await solve('--model', mt);
    const t = (m.series.t as number[]).map((v) => 3 * v); // T = 6, outside [0.5, 5]
    const late = file('mintime-late.json', { series: { ...m.series, t } });
    const r = await inProcess('solve', '--model', mt, '--guess', late);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/--guess series\.t/);
  });
});
