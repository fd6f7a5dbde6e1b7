/**
 * End-to-end runs of the built binary (run `pnpm build` first): every system and problem of the
 * contract with its defaults, help texts, determinism, and the bounded memory of a 10⁷-step run.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { problems, systems } from '../src/registry.js';
import { bin, geomech } from './helpers.js';

describe('every built-in runs with its defaults (built binary)', () => {
  for (const s of systems) {
    it(`simulate ${s.name}`, () => {
      const r = geomech('simulate', s.name);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { ok: boolean; series: Record<string, unknown[]> };
      expect(doc.ok).toBe(true);
      for (const f of s.fields) expect(doc.series[f]).toHaveLength(doc.series.t!.length);
    });
  }
  for (const p of problems) {
    it(`solve ${p.name}`, () => {
      const r = geomech('solve', p.name);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { ok: boolean; converged: boolean; residualNorm: number };
      expect(doc.ok).toBe(true);
      expect(doc.residualNorm).toBeLessThanOrEqual(1e-10);
    });
  }
});

describe('help', () => {
  for (const cmd of [[], ['list'], ['simulate'], ['solve'], ['order']]) {
    it(`geomech ${cmd.join(' ')} --help shows usage and an example`, () => {
      const r = geomech(...cmd, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage: geomech/);
      expect(r.stdout).toMatch(/Examples:\n {2}\$ geomech /);
    });
  }
});

describe('determinism and memory', () => {
  it('solve output is byte-identical across runs apart from stats.wallMs', () => {
    const strip = (t: string) => t.replace(/"wallMs":[0-9.e+-]+/, '"wallMs":0');
    const a = geomech('solve', 'plate-ball', '--param', 'Omega=0.5');
    const b = geomech('solve', 'plate-ball', '--param', 'Omega=0.5');
    expect(a.code).toBe(0);
    expect(strip(a.stdout)).toBe(strip(b.stdout));
  });
  it('a 10⁷-step run with --every stays under 200 MB resident memory', () => {
    const script = `import(${JSON.stringify(bin.replace(/bin[\\/]geomech\.js$/, 'dist/main.js'))}).then(async (m) => {
      let bytes = 0;
      const code = await m.main(['simulate', 'damped-oscillator', '--h', '0.001', '--steps', '10000000', '--every', '100000'], {
        stderrIsTTY: false, stdout: (t) => { bytes += t.length; }, stderr: (t) => process.stderr.write(t), writeFile: () => {},
      });
      process.stdout.write(JSON.stringify({ code, bytes, maxRssKb: process.resourceUsage().maxRSS }));
    });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { code: number; bytes: number; maxRssKb: number };
    expect(out.code).toBe(0);
    expect(out.bytes).toBeGreaterThan(1000);
    // measured ≈ 65 MB (the Node runtime itself is ≈ 45 MB)
    expect(out.maxRssKb).toBeLessThan(200 * 1024);
  }, 60_000);
});

describe('progress on a terminal', () => {
  async function run(tty: boolean, ...args: string[]) {
    const { main } = await import('../src/index.js');
    let stderr = '';
    let stdout = '';
    const code = await main(args, {
      stderrIsTTY: tty,
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      writeFile: () => {},
    });
    return { code, stderr, stdout };
  }
  it('simulate draws a bar on a TTY stderr, clears it, and keeps stdout clean', async () => {
    const r = await run(true, 'simulate', 'pendulum', '--steps', '200000', '--every', '1000');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\r\[#*\.*\] +\d+% step \d+ of 200000/);
    expect(r.stderr.endsWith('\r')).toBe(true);
    expect(JSON.parse(r.stdout).ok).toBe(true);
  });
  it('--quiet and a non-TTY stderr print nothing', async () => {
    const quiet = await run(true, 'simulate', 'pendulum', '--steps', '20000', '--quiet');
    expect(quiet.stderr).toBe('');
    const pipe = await run(false, 'simulate', 'pendulum', '--steps', '20000');
    expect(pipe.stderr).toBe('');
  });
});
