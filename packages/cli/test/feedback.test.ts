// `geomech solve … --feedback FILE` and `geomech simulate --feedback FILE` (issue 19): the gains
// of the unicycle parking and of the satellite, and a closed-loop run from a perturbed start whose
// tracking error shrinks tenfold while the open loop's does not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'geomech-feedback-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FeedbackFile {
  kind: string;
  problem: string;
  N: number;
  dim: number;
  controls: number;
  storage: number;
  x: number[][];
  u: number[][];
  K: number[][];
}

interface Run {
  ok: boolean;
  problem: string;
  initialError: number;
  finalError: number;
  openLoopFinalError: number;
  series: { t: number[]; error: number[]; openLoopError: number[]; delta: number[][] };
}

/** Solves with --feedback, stores the gains in the temp directory and returns their path. */
async function gains(...args: string[]): Promise<{ path: string; doc: FeedbackFile }> {
  const r = await inProcess('solve', ...args, '--feedback', 'gains.json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const text = r.files.get('gains.json')!;
  const path = join(dir, `${args[0]}-gains.json`);
  writeFileSync(path, text);
  return { path, doc: JSON.parse(text) as FeedbackFile };
}

async function run(...args: string[]): Promise<Run> {
  const r = await inProcess('simulate', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Run;
}

describe('feedback of unicycle-parking', () => {
  it('writes the gains and the closed loop shrinks the tracking error tenfold, the open loop not', async () => {
    const { path, doc } = await gains('unicycle-parking', '--n', '40');
    expect(doc.kind).toBe('feedback');
    expect([doc.N, doc.dim, doc.controls, doc.storage]).toEqual([40, 3, 3, 9]);
    expect(doc.K.length).toBe(40);
    expect(doc.K[0]!.length).toBe(9);
    const out = await run('--feedback', path, '--perturb', '0.05,-0.05,0.1');
    expect(out.ok).toBe(true);
    expect(out.problem).toBe('unicycle-parking');
    expect(Math.abs(out.initialError - Math.hypot(0.05, 0.05, 0.1))).toBeLessThan(1e-15);
    expect(out.finalError).toBeLessThan(0.1 * out.initialError);
    expect(out.openLoopFinalError).toBeGreaterThan(0.5 * out.initialError);
    expect(out.series.error.length).toBe(41);
    expect(out.series.error[40]).toBe(out.finalError);
  });
});

describe('feedback of satellite', () => {
  it('T = 5 (torque saturated at both ends): the closed loop shrinks the error tenfold, the open loop not', async () => {
    const { path, doc } = await gains('satellite', '--n', '40', '--param', 'T=5');
    expect([doc.N, doc.dim, doc.controls, doc.storage]).toEqual([40, 6, 3, 12]);
    const out = await run('--feedback', path, '--perturb', '0.03,-0.02,0.04,0.01,0,-0.01');
    expect(out.finalError).toBeLessThan(0.1 * out.initialError);
    expect(out.openLoopFinalError).toBeGreaterThan(0.5 * out.initialError);
  });
  it('default T = 4.4 with --feedback-weights unit: the closed loop shrinks the error tenfold', async () => {
    const { path } = await gains('satellite', '--n', '40', '--feedback-weights', 'unit');
    const out = await run('--feedback', path, '--perturb', '0.03,-0.02,0.04,0.01,0,-0.01');
    expect(out.finalError).toBeLessThan(0.1 * out.initialError);
    expect(out.openLoopFinalError).toBeGreaterThan(0.5 * out.initialError);
  });
});

describe('feedback of a --model problem', () => {
  it('solve --model … --feedback, then simulate --model … --feedback: the closed loop converges', async () => {
    const model = join(__dirname, '..', 'examples', 'unicycle-parking.json');
    const r = await inProcess('solve', '--model', model, '--n', '40', '--feedback', 'gains.json');
    expect(r.code).toBe(0);
    const path = join(dir, 'model-gains.json');
    writeFileSync(path, r.files.get('gains.json')!);
    expect(JSON.parse(r.files.get('gains.json')!).model).toBe(true);
    const out = await run('--model', model, '--feedback', path, '--perturb', '0.05,-0.05,0.1');
    expect(out.finalError).toBeLessThan(0.1 * out.initialError);
    // without the model file the gains cannot be run
    const missing = await inProcess('simulate', '--feedback', path);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--model');
  });
});

describe('feedback: bad usage (exit 2, one line)', () => {
  it('a problem without feedback, a wrong perturbation, a system name, a file that is not feedback', async () => {
    const w = await inProcess(
      'solve',
      'unicycle-parking',
      '--n',
      '10',
      '--feedback-weights',
      'unit',
    );
    expect(w.code).toBe(2);
    expect(w.stderr).toContain('--feedback-weights');
    const pb = await inProcess('solve', 'so3-steering', '--n', '10', '--feedback', 'g.json');
    expect(pb.code).toBe(2);
    expect(pb.stderr).toMatch(ERROR_LINE);
    expect(pb.stderr).toContain('--feedback');
    const { path } = await gains('unicycle-parking', '--n', '20');
    const short = await inProcess('simulate', '--feedback', path, '--perturb', '0.1,0');
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(ERROR_LINE);
    const named = await inProcess('simulate', 'pendulum', '--feedback', path);
    expect(named.code).toBe(2);
    const withH = await inProcess('simulate', '--feedback', path, '--h', '0.1');
    expect(withH.code).toBe(2);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ kind: 'something' }));
    const bad = await inProcess('simulate', '--feedback', other);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(ERROR_LINE);
    const perturbOnly = await inProcess('simulate', 'pendulum', '--perturb', '0.1');
    expect(perturbOnly.code).toBe(2);
    // the file round-trips the reference exactly
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text).x.length).toBe(21);
  });
});
