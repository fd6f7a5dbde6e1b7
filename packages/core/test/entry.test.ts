// The main entry of @geomech/core loads nothing outside core (issue 20: start-up). ml-matrix, which
// core's index once re-exported, cost ~0.1 s of CPU on every start of every program using core;
// it is now a devDependency, used only by the tests that check core's own kernels against it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every module specifier imported (statically or dynamically) by the module graph of `entry`. */
function importGraph(entry: string, ext: '.ts' | '.js'): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const todo = [entry];
  const spec =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    // comments dropped: TSDoc examples import from '@geomech/core'
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(spec)) {
      const s = (m[1] ?? m[2])!;
      if (s.startsWith('.')) todo.push(resolve(dirname(file), s.replace(/\.js$/, ext)));
      else bare.add(s);
    }
  }
  return { files, bare };
}

describe("core's main entry", () => {
  it('imports no package: the module graph of src/index.ts has only relative imports', () => {
    const { files, bare } = importGraph(join(root, 'src', 'index.ts'), '.ts');
    expect(files.size).toBeGreaterThan(50); // the walk followed the re-exports
    expect([...bare]).toEqual([]);
  });

  it('has no runtime dependencies (ml-matrix is a devDependency)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.devDependencies?.['ml-matrix']).toBeDefined();
  });

  it.skipIf(!existsSync(join(root, 'dist', 'index.js')))(
    'the built dist/index.js, imported by Node, resolves no module outside core (loader hook)',
    () => {
      // a resolve hook registered before the import records every specifier Node resolves
      const hook = `data:text/javascript,${encodeURIComponent(
        'export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("@@" + r.url + "\\n"); return r; }',
      )}`;
      const script = [
        "import { register } from 'node:module';",
        `register(${JSON.stringify(hook)});`,
        `await import(${JSON.stringify(new URL(`file://${join(root, 'dist', 'index.js')}`).href)});`,
      ].join('\n');
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      const urls = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('@@'))
        .map((l) => l.slice(2));
      expect(urls.length).toBeGreaterThan(50);
      const distUrl = new URL(`file://${join(root, 'dist')}/`).href;
      expect(urls.filter((u) => !u.startsWith(distUrl))).toEqual([]);
      expect(urls.some((u) => u.includes('ml-matrix'))).toBe(false);
    },
  );
});
