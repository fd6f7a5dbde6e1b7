import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumber } from '../src/values.js';
import { bin, ERROR_LINE, geomech, inProcess } from './helpers.js';

describe('geomech binary (built output)', () => {
  it('--version prints the package version and exits 0', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const r = geomech('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists the commands', () => {
    const r = geomech('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/list/);
    expect(r.stdout).toMatch(/simulate/);
  });

  it('simulate damped-oscillator reproduces the seed 004 Fig. 2 run (q_50 to 1e-10)', () => {
    const r = geomech('simulate', 'damped-oscillator');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      ok: boolean;
      steps: number;
      series: { t: number[]; q: number[] };
    };
    expect(doc.ok).toBe(true);
    expect(doc.steps).toBe(50);
    expect(doc.series.t).toHaveLength(51);
    expect(Math.abs(doc.series.q[50]! - -0.3478075467)).toBeLessThan(1e-10);
  });

  it('unknown flags exit 2 with one error line and no stack trace', () => {
    const r = geomech('simulate', 'free-particle', '--nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stdout).toBe('');
  });
});

describe('list', () => {
  it('--json gives every system with methods (default first), params and init defaults', async () => {
    const r = await inProcess('list', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      systems: {
        name: string;
        methods: string[];
        params: Record<string, number>;
        init: Record<string, number>;
      }[];
    };
    const osc = doc.systems.find((s) => s.name === 'damped-oscillator')!;
    expect(osc.methods).toEqual(['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact']);
    expect(osc.params).toEqual({ k: 1, gamma: -0.05 });
    expect(osc.init).toEqual({ q0: 1, q1: 2, z0: 0 });
  });

  it('text output names each system and its package', async () => {
    const r = await inProcess('list');
    expect(r.stdout).toMatch(/free-particle[\s\S]*@geomech\/contact/);
  });
});

describe('simulate', () => {
  it('CSV and JSON agree number for number', async () => {
    const json = JSON.parse(
      (await inProcess('simulate', 'damped-pendulum', '--steps', '20')).stdout,
    ) as {
      series: Record<string, number[]>;
    };
    const csv = (await inProcess('simulate', 'damped-pendulum', '--steps', '20', '--format', 'csv'))
      .stdout;
    const [header, ...rows] = csv.trim().split('\n');
    expect(header).toBe('t,q,p,z,energy,sigma');
    expect(rows).toHaveLength(21);
    for (const [i, row] of rows.entries()) {
      const cells = row.split(',').map(Number);
      for (const [j, f] of ['t', 'q', 'p', 'z', 'energy', 'sigma'].entries()) {
        expect(cells[j]).toBe(json.series[f]![i]);
      }
    }
  });

  it('is deterministic apart from stats.wallMs', async () => {
    const strip = (s: string) => s.replace(/"wallMs":[0-9.e+-]+/, '');
    const a = await inProcess('simulate', 'damped-pendulum');
    const b = await inProcess('simulate', 'damped-pendulum');
    expect(strip(a.stdout)).toBe(strip(b.stdout));
  });

  it('--t-end sets steps = round(T/h) and --every keeps the first and last states', async () => {
    const r = await inProcess(
      'simulate',
      'free-particle',
      '--h',
      '0.25',
      '--t-end',
      '10',
      '--every',
      '7',
    );
    const doc = JSON.parse(r.stdout) as { steps: number; series: { t: number[] } };
    expect(doc.steps).toBe(40);
    expect(doc.series.t).toEqual([0, 1.75, 3.5, 5.25, 7, 8.75, 10]);
  });

  it('(q0, v0, z0) starts map through the Legendre transform: p0 = v0', async () => {
    const r = await inProcess('simulate', 'free-particle', '--init', 'v0=0.7', '--steps', '3');
    const doc = JSON.parse(r.stdout) as { init: Record<string, number>; series: { p: number[] } };
    expect(doc.init).toEqual({ q0: 1, v0: 0.7, z0: 0 });
    expect(doc.series.p[0]).toBe(0.7);
    expect(doc.series.p[3]).toBeCloseTo(0.7 * 0.975 ** 3, 15);
  });

  it('--out writes the file (format from the extension) and nothing to stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geomech-'));
    const out = join(dir, 'run.csv');
    const r = spawnSync(
      process.execPath,
      [bin, 'simulate', 'free-particle', '--steps', '2', '--out', out],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('t,q,p,z,energy,sigma');
  });

  const usageErrors: [string, string[], RegExp][] = [
    ['unknown system', ['simulate', 'nope'], /unknown system 'nope'.*\(geomech simulate\)/],
    [
      'unknown method',
      ['simulate', 'free-particle', '--method', 'rk9'],
      /unknown method 'rk9'.*\(--method\)/,
    ],
    ['h <= 0', ['simulate', 'free-particle', '--h', '0'], /h must be > 0.*\(--h\)/],
    [
      'malformed number',
      ['simulate', 'free-particle', '--h', '0.1x'],
      /malformed number '0.1x' \(--h\)/,
    ],
    [
      'unknown parameter',
      ['simulate', 'free-particle', '--param', 'k=1'],
      /unknown parameter 'k'.*\(--param\)/,
    ],
    [
      'bad assignment',
      ['simulate', 'free-particle', '--init', 'q0'],
      /expected name=value.*\(--init\)/,
    ],
    [
      'vector for a scalar',
      ['simulate', 'damped-oscillator', '--param', 'k=1,2'],
      /k takes one number.*\(--param k\)/,
    ],
    ['steps and t-end', ['simulate', 'free-particle', '--steps', '3', '--t-end', '2'], /not both/],
    ['bad format', ['simulate', 'free-particle', '--format', 'xml'], /xml/],
    [
      'conflicting init',
      ['simulate', 'free-particle', '--init', 'v0=1', '--init', 'q1=2'],
      /conflicting initial data/,
    ],
  ];
  for (const [label, args, message] of usageErrors) {
    it(`${label}: exit 2, one error line`, async () => {
      const r = await inProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(ERROR_LINE);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    });
  }

  it('1 + hγ = 0 is a numerical failure: exit 1 with the regularity error (spec 004 §9.12)', async () => {
    const r = await inProcess('simulate', 'free-particle', '--h', '20');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/1 \+ Dz Ld = 0/);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('1 + hγ < 0 runs, records the warning in the output, and prints nothing on a non-TTY stderr', async () => {
    const r = await inProcess('simulate', 'free-particle', '--h', '30', '--steps', '2');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { warnings: string[] };
    expect(doc.warnings[0]).toMatch(/< 0/);
  });

  it('Newton failure exits 1 and still writes {ok:false} to --out', async () => {
    const r = await inProcess(
      'simulate',
      'damped-pendulum',
      '--max-iter',
      '1',
      '--tol',
      '1e-300',
      '--out',
      'x.json',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^geomech: error: Newton did not converge/);
    expect(JSON.parse(r.files.get('x.json')!)).toMatchObject({
      ok: false,
      system: 'damped-pendulum',
    });
  });
});

describe('contact methods (seed 004)', () => {
  for (const system of ['free-particle', 'damped-oscillator', 'damped-pendulum']) {
    for (const method of ['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact']) {
      it(`${system} --method ${method} runs with defaults and records σ`, async () => {
        const r = await inProcess('simulate', system, '--method', method, '--steps', '10');
        expect(r.code).toBe(0);
        const doc = JSON.parse(r.stdout) as {
          method: string;
          series: { sigma: number[]; energy: number[] };
        };
        expect(doc.method).toBe(method);
        expect(doc.series.sigma).toHaveLength(11);
        for (const e of doc.series.energy) expect(Number.isFinite(e)).toBe(true);
      });
    }
  }

  it('exact on the damped oscillator samples the exact solution (spec 004 §8.2 table, 1e-9)', async () => {
    const r = await inProcess('simulate', 'damped-oscillator', '--method', 'exact');
    const doc = JSON.parse(r.stdout) as { series: { q: number[]; z: number[]; sigma: number[] } };
    expect(Math.abs(doc.series.q[2]! - 2.4917102355)).toBeLessThan(1e-9);
    expect(Math.abs(doc.series.q[50]! - 0.3504530104)).toBeLessThan(1e-9);
    expect(Math.abs(doc.series.z[50]! - -0.1054119955)).toBeLessThan(1e-9);
    expect(doc.series.sigma[0]).toBeCloseTo(0.9753099120283326, 15);
  });
});

describe('order', () => {
  it('midpoint on the damped oscillator: the spec 004 §6.4 errors and order 1', async () => {
    const r = await inProcess(
      'order',
      'damped-oscillator',
      '--param',
      'gamma=-0.5',
      '--init',
      'v0=1',
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { h: number[]; error: number[]; order: number };
    expect(doc.h).toEqual([0.1, 0.05, 0.025, 0.0125, 0.00625]);
    // spec 004 §6.4: 8.878e-3, 4.306e-3, 2.118e-3, 1.050e-3, 5.226e-4
    const expected = [8.878e-3, 4.306e-3, 2.118e-3, 1.05e-3, 5.226e-4];
    for (const [i, e] of doc.error.entries()) {
      expect(Math.abs(e - expected[i]!) / expected[i]!).toBeLessThan(1e-3);
    }
    expect(Math.abs(doc.order - 1)).toBeLessThan(0.35);
  });

  it('implicit-z midpoint is second order and left rectangle first order', async () => {
    for (const [method, p] of [
      ['implicit-z-midpoint', 2],
      ['left-rectangle', 1],
    ] as const) {
      const r = await inProcess(
        'order',
        'damped-pendulum',
        '--method',
        method,
        '--param',
        'gamma=-0.5',
      );
      const doc = JSON.parse(r.stdout) as { order: number };
      expect(Math.abs(doc.order - p)).toBeLessThan(0.35);
    }
  });

  it('the exact method reports round-off errors and no order', async () => {
    const r = await inProcess('order', 'damped-oscillator', '--method', 'exact', '--levels', '3');
    const doc = JSON.parse(r.stdout) as { order: number | null; error: number[]; note: string };
    expect(doc.order).toBeNull();
    for (const e of doc.error) expect(e).toBeLessThan(1e-11);
    expect(doc.note).toMatch(/exact/);
  });

  const orderErrors: [string, string[], RegExp][] = [
    ['--steps', ['order', 'free-particle', '--steps', '10'], /unknown option '--steps'/],
    ['too few levels', ['order', 'free-particle', '--levels', '2'], /at least 3 levels/],
    ['a two-point start', ['order', 'free-particle', '--init', 'q1=2'], /h-independent start/],
  ];
  for (const [label, args, message] of orderErrors) {
    it(`rejects ${label} with exit 2`, async () => {
      const r = await inProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(ERROR_LINE);
      expect(r.stderr).toMatch(message);
    });
  }
});

describe('argument parsing never throws (fast-check)', () => {
  it('random argument vectors give exit 0 or 2 with one error line, never an exception', async () => {
    const token = fc.oneof(
      fc.constantFrom(
        'simulate',
        'list',
        'free-particle',
        '--h',
        '--steps',
        '--param',
        '--init',
        '--every',
        '--format',
        'csv',
        'gamma=-0.1',
        'q0=1',
      ),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(token, { maxLength: 6 }), async (args) => {
        if (args.includes('--out')) return;
        const r = await inProcess(...args);
        expect([0, 1, 2]).toContain(r.code);
        if (r.code !== 0) expect(r.stderr).toMatch(ERROR_LINE);
      }),
      { numRuns: 300 },
    );
  });

  it('parseNumber accepts pi expressions and rejects junk', () => {
    expect(parseNumber('pi/4', 'x')).toBe(Math.PI / 4);
    expect(parseNumber('-pi', 'x')).toBe(-Math.PI);
    expect(parseNumber('3*pi/2', 'x')).toBe((3 * Math.PI) / 2);
    expect(parseNumber('1e-3', 'x')).toBe(0.001);
    for (const bad of ['', 'abc', '1..2', 'NaN', 'Infinity', '1/0', '0x10'])
      expect(() => parseNumber(bad, 'x')).toThrow();
  });
});
