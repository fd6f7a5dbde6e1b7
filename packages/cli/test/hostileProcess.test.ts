/**
 * The issue 18 cases run as a user runs them: the built binary in a child process, each under a
 * memory limit (`ulimit -v` 4 GB of address space and a 512 MB JS heap) and a wall-clock limit
 * (20 s; the answers come in well under a second of work), so a runaway allocation or loop fails
 * its case instead of the machine. Each case must end with exit 2 and one clean line naming its
 * cause (not "out of memory", which would mean the limit caught what the CLI should have), or with
 * a correct result. Run `pnpm build` first (the suite uses dist).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from './helpers.js';
import { expectOneCleanLine } from './hostileSupport.js';

/** Address space of a case: 4 GB (Node itself reserves about 1 GB of it). */
const ADDRESS_SPACE_KB = 4_000_000;
/** Wall-clock limit of a case. */
const TIMEOUT_MS = 20_000;

const dir = mkdtempSync(join(tmpdir(), 'geomech-hostile-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the binary under the limits; `pipe` is a shell tail such as `| head -c 100`. */
function limited(args: readonly string[], pipe = '') {
  const command = `node --max-old-space-size=512 ${quote(bin)} ${args.map(quote).join(' ')}`;
  const started = performance.now();
  const r = spawnSync(
    'bash',
    [
      '-c',
      `ulimit -v ${ADDRESS_SPACE_KB}; ${command} 2>${quote(join(dir, 'stderr'))} ${pipe}; echo "exit=\${PIPESTATUS[0]}" >&2`,
    ],
    { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 2 ** 28, cwd: dir },
  );
  const seconds = (performance.now() - started) / 1000;
  const code = Number(/exit=(\d+)/.exec(r.stderr)?.[1] ?? Number.NaN);
  return {
    code,
    signal: r.signal,
    seconds,
    stdout: r.stdout,
    stderr: readFileSync(join(dir, 'stderr'), 'utf8'),
  };
}

describe('issue 18 cases under memory and time limits (built binary)', () => {
  const refused: [string, string[], RegExp][] = [
    ['--model /dev/zero', ['simulate', '--model', '/dev/zero'], /not a regular file/],
    [
      'solve so3-steering --guess /dev/zero',
      ['solve', 'so3-steering', '--guess', '/dev/zero'],
      /not a regular file/,
    ],
    [
      'solve so3-steering --n 10000000',
      ['solve', 'so3-steering', '--n', '10000000'],
      /over the limit of 10000/,
    ],
    ['solve plate-ball --n 10000000', ['solve', 'plate-ball', '--n', '10000000'], /over the limit/],
    [
      'solve so3-steering --param n=1e7',
      ['solve', 'so3-steering', '--param', 'n=1e7'],
      /over the limit of 10000 steps/,
    ],
    [
      'simulate ziegler --param n=20000 --steps 1',
      ['simulate', 'ziegler', '--param', 'n=20000', '--steps', '1'],
      /over the limit of 1000 links/,
    ],
    ['--steps 1e12', ['simulate', 'pendulum', '--steps', '1000000000000'], /over the limit of 1e8/],
    ['--t-end 1e20', ['simulate', 'pendulum', '--t-end', '1e20'], /needs 1e22 steps/],
    ['--h 1e-400', ['simulate', 'pendulum', '--h', '1e-400'], /underflows to 0/],
    [
      '--continuation 4294967296',
      ['solve', 'so3-steering', '--continuation', '4294967296'],
      /over the limit of 100/,
    ],
    [
      'a 10⁷-step run with --every 1',
      ['simulate', 'damped-oscillator', '--steps', '10000000', '--every', '1'],
      /output would hold 1e7 states/,
    ],
    ['order --levels 60', ['order', 'pendulum', '--levels', '60'], /over the limit of 20/],
  ];
  for (const [label, args, message] of refused) {
    it(`${label}: exit 2 with one line naming the cause`, () => {
      const r = limited(args);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expectOneCleanLine(r.stderr);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/out of memory/);
      expect(r.stdout).toBe('');
    });
  }

  it('a model file of 3000 unary minus signs and one of 2000 nested brackets: exit 2', () => {
    const minus = join(dir, 'minus.json');
    writeFileSync(
      minus,
      JSON.stringify({
        kind: 'contact',
        coordinates: ['x'],
        lagrangian: `${'-'.repeat(3000)}0.5*xdot^2`,
        init: { q0: [1], v0: [0], z0: 0 },
      }),
    );
    const nested = join(dir, 'nested.json');
    writeFileSync(
      nested,
      JSON.stringify({
        kind: 'contact',
        coordinates: ['x'],
        lagrangian: `${'('.repeat(2000)}xdot${')'.repeat(2000)}`,
        init: { q0: [1], v0: [0], z0: 0 },
      }),
    );
    for (const path of [minus, nested]) {
      const r = limited(['simulate', '--model', path, '--steps', '2']);
      expect(r.signal).toBeNull();
      expect([0, 2]).toContain(r.code);
      if (r.code === 2) expectOneCleanLine(r.stderr);
    }
  });

  it('geomech simulate … | head -c 100: exit 0, no stack trace, the first 100 bytes', () => {
    const r = limited(['simulate', 'pendulum', '--steps', '100000'], '| head -c 100');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toHaveLength(100);
    expect(r.stdout).toMatch(/^\{"ok":true,"system":"pendulum"/);
  });

  it('--out /dev/full: exit 2 with ENOSPC in one line; a new file in a full directory is not left', () => {
    const r = limited(['simulate', 'pendulum', '--out', '/dev/full']);
    expect(r.code).toBe(2);
    expectOneCleanLine(r.stderr);
    expect(r.stderr).toMatch(/no space left on device \(ENOSPC\)/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a long run within the limits gives the correct result in bounded memory', () => {
    // 2·10⁶ steps of the exact discrete Lagrangian of the damped oscillator, 5 states kept
    const r = limited([
      'simulate',
      'damped-oscillator',
      '--h',
      '0.001',
      '--steps',
      '2000000',
      '--every',
      '500000',
      '--method',
      'exact',
    ]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { ok: boolean; series: { t: number[]; q: number[] } };
    expect(doc.ok).toBe(true);
    expect(doc.series.t).toEqual([0, 500, 1000, 1500, 2000]);
    // the exact flow's envelope: |q(t)| ≤ A·e^{γt/2}, A = √(q0² + ((v0 − γq0/2)/ω)²) ≈ 1000
    // (q1 = 2 at h = 0.001 is v0 ≈ 1000; γ = −0.05, ω = √(1 − γ²/4))
    for (const [i, t] of doc.series.t.entries())
      expect(Math.abs(doc.series.q[i]!)).toBeLessThanOrEqual(1001 * Math.exp(-0.025 * t));
  });
});
