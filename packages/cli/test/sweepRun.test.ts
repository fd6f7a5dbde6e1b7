/**
 * `geomech sweep` and `geomech merge` end to end, on worker threads, through the built binary (run
 * `pnpm build` first): the table does not depend on the number of workers; shards run as separate
 * processes merge into the single run's table byte for byte; a killed sweep resumed equals an
 * uninterrupted one; a failing point is recorded and the others complete. Sweeps are kept small.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJournal, readTable } from '../src/sweep/table.js';
import { bin, ERROR_LINE, geomech } from './helpers.js';

/** Each test spawns several processes: on a loaded 2-core machine, allow them time. */
const SLOW = { timeout: 180_000 };

let dir: string;
const path = (name: string) => join(dir, name);
const write = (name: string, doc: unknown) => {
  writeFileSync(path(name), JSON.stringify(doc));
  return path(name);
};

/** Runs the binary without blocking the test process (shards run side by side). */
function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const pendulum = {
  command: 'simulate',
  system: 'pendulum',
  options: { steps: 40 },
  grid: { method: ['dirac-2c', 'rattle', 'rk4'], h: [0.05, 0.1, 0.2] },
  outputs: ['final:q[0]', 'drift:energy', 'maxabs:constraint@0.5', 'newtonIterations'],
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geomech-sweep-run-'));
});

describe('worker threads', SLOW, () => {
  it('the table is the same for 1 and 4 workers, byte for byte (JSON and CSV)', async () => {
    const spec = write('pendulum.sweep.json', pendulum);
    const [one, four, csv1, csv4] = await Promise.all([
      run('sweep', spec, '--workers', '1'),
      run('sweep', spec, '--workers', '4'),
      run('sweep', spec, '--workers', '1', '--format', 'csv'),
      run('sweep', spec, '--workers', '4', '--format', 'csv'),
    ]);
    for (const r of [one, four, csv1, csv4]) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(four.stdout).toBe(one.stdout);
    expect(csv4.stdout).toBe(csv1.stdout);
    const table = readTable(one.stdout, 'stdout');
    expect(table.columns).toEqual([
      'index',
      'method',
      'h',
      'status',
      'final:q[0]',
      'drift:energy',
      'maxabs:constraint@0.5',
      'newtonIterations',
      'error',
    ]);
    expect(table.rows.map((r) => r[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(table.rows.every((r) => r[3] === 'ok')).toBe(true);
    // each row is the point's own `geomech simulate` run
    const single = geomech(
      'simulate',
      'pendulum',
      '--method',
      'rattle',
      '--h',
      '0.1',
      '--steps',
      '40',
    );
    const doc = JSON.parse(single.stdout) as { series: { q: number[][]; energy: number[] } };
    const row = table.rows[4]!;
    expect(row.slice(1, 3)).toEqual(['rattle', 0.1]);
    expect(row[4]).toBe(doc.series.q.at(-1)![0]);
    const e0 = doc.series.energy[0]!;
    expect(row[5]).toBe(Math.max(...doc.series.energy.map((e) => Math.abs(e - e0))));
    // RATTLE holds the constraint to round-off; Dirac-2c does not exactly
    expect(row[6] as number).toBeLessThan(1e-12);
    expect(table.rows[1]![6] as number).toBeGreaterThan(1e-8);
  });

  it('a failing point is recorded with its status and reason, and the others complete', async () => {
    const spec = write('failing.sweep.json', {
      command: 'simulate',
      system: 'pendulum',
      options: { method: 'rattle', steps: 20, 'max-iter': 3 },
      grid: { h: [0.05, 2, -0.1, 0.1] },
      outputs: ['final:q[0]', 'newtonIterations'],
    });
    const r = await run('sweep', spec, '--workers', '2', '--format', 'csv');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('index,h,status,final:q[0],newtonIterations,error');
    expect(lines[1]).toMatch(/^0,0\.05,ok,-?\d\.\d+,\d+,$/);
    // a failed run's values are empty, or those of the states before the failure when the
    // simulate command writes partial results
    expect(lines[2]).toMatch(
      /^1,2,failed,[^,]*,[^,]*,"?Newton did not converge after 3 iterations \(residual [^)]*\) at step 0.*\)"?$/,
    );
    expect(lines[3]).toBe('2,-0.1,invalid,,,"h must be > 0, got -0.1 (--h)"');
    expect(lines[4]).toMatch(/^3,0\.1,ok,/);
  });

  it('a point over its time budget is recorded as timeout, its worker replaced, the sweep goes on', async () => {
    // point 1 runs 5·10⁷ RATTLE steps (tens of seconds): it cannot finish within 1.5 s; the
    // others take milliseconds
    const doc = {
      command: 'simulate',
      system: 'pendulum',
      options: { method: 'rattle', h: 0.01 },
      grid: { steps: [20, 50_000_000, 30, 40] },
      outputs: ['final:q[0]', 'newtonIterations'],
      timeoutMs: 1500,
    };
    const spec = write('timeout.sweep.json', doc);
    const started = performance.now();
    const [one, two] = await Promise.all([
      run('sweep', spec, '--workers', '1'),
      run('sweep', spec, '--workers', '2'),
    ]);
    // far below the long point's own run time: it was stopped, not waited for
    expect(performance.now() - started).toBeLessThan(30_000);
    for (const r of [one, two]) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    // deterministic: the same bytes whichever worker ran (and lost) the long point
    expect(two.stdout).toBe(one.stdout);
    const table = readTable(one.stdout, 'stdout');
    expect(table.rows.map((r) => r[2])).toEqual(['ok', 'timeout', 'ok', 'ok']);
    expect(table.rows[1]).toEqual([
      1,
      50_000_000,
      'timeout',
      null,
      null,
      'no result within the point time budget of 1500 ms',
    ]);
    expect(one.stdout).toContain('"failed":0,"invalid":0,"timeout":1,');
    // the points after the replaced worker ran as in a sweep without the long point
    const short = write('short.sweep.json', { ...doc, grid: { steps: [20, 30, 40] } });
    const reference = readTable((await run('sweep', short, '--workers', '1')).stdout, 'stdout');
    expect(table.rows.filter((r) => r[0] !== 1).map((r) => r.slice(1))).toEqual(
      reference.rows.map((r) => r.slice(1)),
    );
    // the flag overrides the spec's budget: 1 ms times every point out
    const flagged = readTable(
      (await run('sweep', short, '--workers', '1', '--point-timeout', '1')).stdout,
      'stdout',
    );
    expect(flagged.rows.map((r) => r[2])).toEqual(['timeout', 'timeout', 'timeout']);
    expect(flagged.rows[0]![5]).toBe('no result within the point time budget of 1 ms');
    // … and a budget of 0 ms or over one day is refused before any work
    const zero = await run('sweep', short, '--point-timeout', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(ERROR_LINE);
    expect(zero.stderr).toContain('--point-timeout');
    const bad = write('bad-timeout.sweep.json', { ...doc, timeoutMs: 86_400_001 });
    const over = await run('sweep', bad);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('timeoutMs');
  });

  it('every point invalid is a bad spec: exit 2 and one line, the table still written', async () => {
    const spec = write('invalid.sweep.json', {
      command: 'simulate',
      system: 'pendulum',
      grid: { 'param.mass': [1, 2] },
      outputs: ['final:q[0]'],
    });
    const out = path('invalid.json');
    const r = await run('sweep', spec, '--workers', '1', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toContain("unknown parameter 'mass' for pendulum");
    expect(readTable(readFileSync(out, 'utf8'), out).rows).toHaveLength(2);
  });
});

describe('shards and merge', SLOW, () => {
  it('N shards run as separate processes merge into the single run, byte for byte', async () => {
    const spec = write('shards.sweep.json', pendulum);
    const single = await run('sweep', spec, '--workers', '1');
    const singleCsv = await run('sweep', spec, '--workers', '1', '--format', 'csv');
    // as a job array would: each task its own process and shard index
    const shards = [0, 1, 2, 3].map((k) => path(`shard-${k}.json`));
    const runs = await Promise.all(
      shards.map((file, k) =>
        run('sweep', spec, '--shard', `${k}/4`, '--workers', '1', '--out', file),
      ),
    );
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    const shard2 = readTable(readFileSync(shards[2]!, 'utf8'), 'shard-2');
    expect(shard2.shard).toEqual({ k: 2, n: 4 });
    expect(shard2.rows.map((r) => r[0])).toEqual([2, 6]);
    const merged = await run('merge', shards[3]!, shards[1]!, shards[0]!, shards[2]!);
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(merged.stdout).toBe(single.stdout);
    const mergedCsv = await run('merge', ...shards, '--format', 'csv');
    expect(mergedCsv.stdout).toBe(singleCsv.stdout);

    const missing = await run('merge', shards[0]!, shards[1]!, shards[3]!);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('geomech: error: missing shard 2/4 (geomech merge)\n');
    const duplicate = await run('merge', ...shards, shards[1]!);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toBe(
      `geomech: error: duplicate shard 1/4 (also ${shards[1]}) (${shards[1]})\n`,
    );
    const other = write('other.sweep.json', { ...pendulum, options: { steps: 41 } });
    const foreign = path('foreign-2.json');
    expect(
      (await run('sweep', other, '--shard', '2/4', '--workers', '1', '--out', foreign)).code,
    ).toBe(0);
    const mismatched = await run('merge', shards[0]!, shards[1]!, foreign, shards[3]!);
    expect(mismatched.code).toBe(2);
    expect(mismatched.stderr).toMatch(ERROR_LINE);
    expect(mismatched.stderr).toContain('shard of another spec');
  });
});

describe('the local recipe of the docs', SLOW, () => {
  it('seq | xargs -P runs the shards as separate processes; merge gives the single table', async () => {
    const spec = write('xargs.sweep.json', {
      ...pendulum,
      grid: { h: [0.05, 0.1, 0.2, 0.4, 0.5] },
    });
    const single = await run('sweep', spec, '--workers', '1', '--format', 'csv');
    const cmd = `seq 0 2 | xargs -P 3 -I{} "${process.execPath}" "${bin}" sweep "${spec}" --shard {}/3 --workers 1 --out "${dir}/x-{}.json"`;
    const r = await new Promise<number | null>((resolve) =>
      spawn('sh', ['-c', cmd]).on('close', resolve),
    );
    expect(r).toBe(0);
    const merged = await run(
      'merge',
      path('x-0.json'),
      path('x-1.json'),
      path('x-2.json'),
      '--out',
      path('x.csv'),
    );
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(readFileSync(path('x.csv'), 'utf8')).toBe(single.stdout);
  });
});

describe('--resume', SLOW, () => {
  const slow = {
    command: 'simulate',
    system: 'pendulum',
    options: { method: 'rattle', steps: 3000, h: 0.01 },
    grid: { 'init.theta0': { from: 0.1, to: 1.5, count: 14 } },
    outputs: ['final:q[0]', 'drift:energy'],
  };

  it('a sweep killed after some points, then resumed, equals an uninterrupted one', async () => {
    const spec = write('slow.sweep.json', slow);
    const reference = await run('sweep', spec, '--workers', '1');
    expect(reference.code).toBe(0);
    const out = path('killed.json');
    const journal = `${out}.partial`;
    const child: ChildProcess = spawn(process.execPath, [
      bin,
      'sweep',
      spec,
      '--workers',
      '1',
      '--out',
      out,
    ]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // wait for a few finished points, then kill without warning
    const deadline = Date.now() + 30_000;
    let finished = 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      if (!existsSync(journal)) continue;
      finished = readJournal(readFileSync(journal, 'utf8')).rows.length;
      if (finished >= 3) break;
    }
    child.kill('SIGKILL');
    await exited;
    expect(finished).toBeGreaterThanOrEqual(3);
    // the kill leaves a readable journal and no torn table
    const left = readJournal(readFileSync(journal, 'utf8'));
    expect(left.rows.length).toBeGreaterThanOrEqual(3);
    expect(left.rows.length).toBeLessThan(14);
    expect(existsSync(out)).toBe(false);

    const resumed = await run('sweep', spec, '--workers', '2', '--out', out, '--resume');
    expect([resumed.code, resumed.stderr]).toEqual([0, '']);
    expect(readFileSync(out, 'utf8')).toBe(reference.stdout);
    expect(existsSync(journal)).toBe(false);
    // resuming a finished table changes nothing
    const again = await run('sweep', spec, '--out', out, '--resume');
    expect(again.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference.stdout);
  });

  it('points in the journal are not run again; a journal of another spec is refused', async () => {
    const spec = write('journal.sweep.json', { ...slow, options: { ...slow.options, steps: 10 } });
    const reference = readTable((await run('sweep', spec, '--workers', '1')).stdout, 'ref');
    const out = path('journal.json');
    const marked = [...reference.rows[5]!];
    marked[2] = 'ok';
    marked[3] = 12345; // a value no run gives: it must survive the resume
    const head = { geomechSweepJournal: 1, specHash: reference.header.specHash, shard: null };
    writeFileSync(`${out}.partial`, `${JSON.stringify(head)}\n${JSON.stringify(marked)}\n[7,0.8`);
    const r = await run('sweep', spec, '--workers', '1', '--out', out, '--resume');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const table = readTable(readFileSync(out, 'utf8'), out);
    expect(table.rows[5]![3]).toBe(12345);
    expect(table.rows.filter((_, i) => i !== 5)).toEqual(reference.rows.filter((_, i) => i !== 5));

    writeFileSync(`${out}.partial`, `${JSON.stringify({ ...head, specHash: 'x' })}\n`);
    const refused = await run('sweep', spec, '--out', out, '--resume');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^geomech: error: the journal .* belongs to another spec or shard; remove it or drop --resume \(--resume\)\n$/,
    );
  });
});

describe('other commands and model files', SLOW, () => {
  it('solve, order and a model file sweep', async () => {
    const solve = write('solve.sweep.json', {
      command: 'solve',
      problem: 'so3-steering',
      options: { n: 10 },
      grid: { 'param.phi': [0.5, 1] },
      outputs: ['cost', 'converged', 'iterations', 'final:xi[0]'],
    });
    const order = write('order.sweep.json', {
      command: 'order',
      system: 'damped-oscillator',
      options: { levels: 3, 't-end': 2 },
      grid: { method: ['implicit-z-midpoint', 'left-rectangle'] },
      outputs: ['order', 'finestError'],
    });
    const model = write('model.sweep.json', {
      command: 'simulate',
      model: join(__dirname, '..', 'examples', 'pendulum.json'),
      options: { steps: 20 },
      grid: { h: [0.01, 0.02] },
      outputs: ['final:q[0]', 'drift:energy', 'wallMs'],
    });
    const [s, o, m] = await Promise.all([
      run('sweep', solve, '--workers', '1'),
      run('sweep', order, '--workers', '1'),
      run('sweep', model, '--workers', '1'),
    ]);
    for (const r of [s, o, m]) expect([r.code, r.stderr]).toEqual([0, '']);
    const st = readTable(s.stdout, 'solve');
    expect(st.header.target).toEqual(['problem', 'so3-steering']);
    for (const r of st.rows) {
      expect(r[2]).toBe('ok');
      expect(r[4]).toBe(true);
      expect(r[3] as number).toBeGreaterThan(0);
    }
    // controls in span{E1, E2} reach exp(φE3) through their bracket: a sub-Riemannian distance
    // ~ √φ, so the cost (½ the squared length) grows like φ for small φ (measured ratio 1.93)
    const ratio = (st.rows[1]![3] as number) / (st.rows[0]![3] as number);
    expect(ratio).toBeGreaterThan(1.8);
    expect(ratio).toBeLessThan(2.05);
    const ot = readTable(o.stdout, 'order');
    // implicit-z-midpoint is second order, left-rectangle first (seed 004)
    expect(ot.columns).toEqual(['index', 'method', 'status', 'order', 'finestError', 'error']);
    expect(Math.abs((ot.rows[0]![3] as number) - 2)).toBeLessThan(0.35);
    expect(Math.abs((ot.rows[1]![3] as number) - 1)).toBeLessThan(0.35);
    expect(ot.rows[1]![4] as number).toBeGreaterThan(ot.rows[0]![4] as number);
    const mt = readTable(m.stdout, 'model');
    expect(mt.header.target[0]).toBe('model');
    expect(mt.columns.at(-2)).toBe('wallMs');
    for (const r of mt.rows) expect(r[5] as number).toBeGreaterThan(0);
  });

  it('--plot draws the heat map of a 2-D sweep', async () => {
    const spec = write('map.sweep.json', {
      command: 'simulate',
      system: 'pendulum',
      options: { steps: 10 },
      grid: { h: [0.01, 0.02], 'init.theta0': [0.1, 0.2, 0.3] },
      outputs: ['maxabs:q[0]'],
    });
    const svg = path('map.svg');
    const r = await run('sweep', spec, '--workers', '1', '--plot', svg, '--out', path('map.csv'));
    expect([r.code, r.stderr]).toEqual([0, '']);
    const text = readFileSync(svg, 'utf8');
    expect(text.match(/<rect [^>]*><title>/g)).toHaveLength(6);
    expect(text).toContain('>init.theta0</text>');
  });
});
