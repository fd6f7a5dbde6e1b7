// Start-up of the `geomech` process (issue 20): bin/geomech.js runs the bundle that `pnpm build`
// writes (scripts/bundle.mjs), so a run loads a dozen files, not the ~190 ES modules of the CLI
// and the four libraries (Node 20 spends ~1.5 ms of CPU on each), and no CommonJS package
// (ml-matrix is gone from core; commander is inside the bundle; mathjs loads only for model files).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bin } from './helpers.js';

const cliUrl = pathToFileURL(join(dirname(bin), '..')).href;

/** Every module URL Node resolves while running `geomech ARGS` (a resolve hook logs them). */
function resolvedModules(...args: string[]): { code: number | null; urls: string[] } {
  const hook = `data:text/javascript,${encodeURIComponent(
    'export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("@@" + r.url + "\\n"); return r; }',
  )}`;
  const register = `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module'; register(${JSON.stringify(hook)});`,
  )}`;
  const r = spawnSync(process.execPath, ['--import', register, bin, ...args], {
    encoding: 'utf8',
  });
  const urls = [
    ...new Set(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('@@'))
        .map((l) => l.slice(2)),
    ),
  ];
  return { code: r.status, urls };
}

describe('start-up: the files a run loads', () => {
  for (const system of ['rigid-body', 'pendulum', 'damped-oscillator']) {
    it(`simulate ${system} --steps 10 loads at most 20 files, all of the CLI's bundle`, () => {
      const { code, urls } = resolvedModules('simulate', system, '--steps', '10', '--quiet');
      expect(code).toBe(0);
      const files = urls.filter((u) => u.startsWith('file:'));
      expect(files).toContain(`${cliUrl}/dist/geomech.js`);
      expect(files.length).toBeLessThanOrEqual(20);
      const outside = files.filter(
        (u) =>
          u !== `${cliUrl}/bin/geomech.js` &&
          u !== `${cliUrl}/dist/geomech.js` &&
          !/\/dist\/bundle-[A-Z0-9]+\.js$/.test(u),
      );
      expect(outside).toEqual([]);
    });
  }

  it('--version loads only the launcher, the bundle entry and its version chunk', () => {
    const { code, urls } = resolvedModules('--version');
    expect(code).toBe(0);
    expect(urls.filter((u) => u.startsWith('file:')).length).toBeLessThanOrEqual(4);
  });
});
