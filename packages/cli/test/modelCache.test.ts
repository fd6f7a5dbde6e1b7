/**
 * The model-file cache (issue 20; src/model/cache.ts): a hit gives the same output bytes as a
 * first run and never loads mathjs; a corrupt, tampered or foreign entry is ignored and
 * rewritten; a changed file misses; `--no-cache` and `GEOMECH_NO_CACHE` turn it off. The process
 * tests run the built binary (`pnpm build` first); NODE_DEBUG=module makes Node's CommonJS loader
 * log every file it loads, which shows whether mathjs was loaded.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTree, encodeTree, ModelCache } from '../src/model/cache.js';
import { modelCacheDir } from '../src/model/cacheDir.js';
import { parse } from '../src/model/mathjs.js';
import { bin } from './helpers.js';

const examples = join(__dirname, '..', 'examples');
const oscillator = join(examples, 'damped-oscillator.json');
const pendulum = join(examples, 'pendulum.json');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'geomech-cache-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the binary with the model cache in `cache` (or the given environment). */
function run(args: string[], env: Record<string, string> = { GEOMECH_CACHE_DIR: join(dir, 'c') }) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GEOMECH_NO_CACHE: '', NODE_DEBUG: 'module', ...env },
  });
  expect(r.status, r.stderr.slice(-2000)).toBe(0);
  return { stdout: r.stdout, mathjs: /node_modules\/mathjs\//.test(r.stderr) };
}

/** The entries of the cache in `dir/c`. */
const entries = (): string[] => {
  try {
    return readdirSync(join(dir, 'c', 'models')).map((f) => join(dir, 'c', 'models', f));
  } catch {
    return [];
  }
};

const csv = (model: string, ...more: string[]) => [
  'simulate',
  '--model',
  model,
  '--steps',
  '20',
  '--format',
  'csv',
  ...more,
];

describe('model cache: processes', () => {
  it('a first run writes one entry; a second run is a hit with the same bytes and no mathjs', () => {
    for (const model of [oscillator, pendulum]) {
      rmSync(join(dir, 'c'), { recursive: true, force: true });
      const cold = run(csv(model));
      expect(cold.mathjs).toBe(true);
      expect(entries()).toHaveLength(1);
      const warm = run(csv(model));
      expect(warm.mathjs).toBe(false);
      expect(warm.stdout).toBe(cold.stdout);
      const off = run(csv(model, '--no-cache'));
      expect(off.stdout).toBe(cold.stdout);
      expect(off.mathjs).toBe(true);
    }
  });

  it('a corrupt entry is ignored and rewritten', () => {
    const cold = run(csv(oscillator));
    const [file] = entries();
    const good = readFileSync(file!, 'utf8');
    for (const bad of ['', good.slice(0, good.length >> 1), 'null', '{"format":1}', '[1,2]']) {
      writeFileSync(file!, bad);
      const again = run(csv(oscillator));
      expect(again.mathjs).toBe(true);
      expect(again.stdout).toBe(cold.stdout);
      expect(readFileSync(file!, 'utf8')).toBe(good);
      expect(run(csv(oscillator)).mathjs).toBe(false);
    }
  });

  it('an entry whose trees were altered (digest unchanged) is ignored and rewritten', () => {
    const cold = run(csv(oscillator));
    const [file] = entries();
    const good = readFileSync(file!, 'utf8');
    // k x² becomes k x³: a valid tree, but not the one the digest was taken of
    const tampered = good.replace('"x",2,["o","^","pow",2]', '"x",3,["o","^","pow",2]');
    expect(tampered).not.toBe(good);
    writeFileSync(file!, tampered);
    const again = run(csv(oscillator));
    expect(again.mathjs).toBe(true);
    expect(again.stdout).toBe(cold.stdout);
    expect(readFileSync(file!, 'utf8')).toBe(good);
  });

  it('a valid entry is what a hit uses (an entry rewritten with its digest changes the run)', () => {
    const cold = run(csv(oscillator));
    const [file] = entries();
    const entry = JSON.parse(readFileSync(file!, 'utf8')) as {
      digest: string;
      expressions: unknown;
    };
    // k x² becomes k·x·2 (a linear potential)
    const text = JSON.stringify(entry.expressions).replace(
      '"x",2,["o","^","pow",2]',
      '"x",2,["o","*","multiply",2]',
    );
    expect(text).not.toBe(JSON.stringify(entry.expressions));
    entry.expressions = JSON.parse(text);
    entry.digest = createHash('sha256').update(text).digest('hex');
    writeFileSync(file!, JSON.stringify(entry));
    const forged = run(csv(oscillator));
    expect(forged.mathjs).toBe(false);
    expect(forged.stdout).not.toBe(cold.stdout);
  });

  it("another file's entry under this file's name is ignored (the key is checked)", () => {
    run(csv(pendulum));
    const [pendulumEntry] = entries();
    const cold = run(csv(oscillator));
    const oscillatorEntry = entries().find((f) => f !== pendulumEntry)!;
    const good = readFileSync(oscillatorEntry, 'utf8');
    writeFileSync(oscillatorEntry, readFileSync(pendulumEntry!, 'utf8'));
    const again = run(csv(oscillator));
    expect(again.mathjs).toBe(true);
    expect(again.stdout).toBe(cold.stdout);
    expect(readFileSync(oscillatorEntry, 'utf8')).toBe(good);
  });

  it('a changed file misses: a second entry, and the run follows the new text', () => {
    const model = join(dir, 'osc.json');
    const text = readFileSync(oscillator, 'utf8');
    writeFileSync(model, text);
    const first = run(csv(model));
    expect(run(csv(model)).mathjs).toBe(false);
    writeFileSync(model, text.replace('"k": 1', '"k": 2').replace('0.5*k*x^2', '0.5*k*x*x'));
    const changed = run(csv(model));
    expect(changed.mathjs).toBe(true);
    expect(changed.stdout).not.toBe(first.stdout);
    expect(entries()).toHaveLength(2);
    expect(run(csv(model)).mathjs).toBe(false);
  });

  it('--no-cache and GEOMECH_NO_CACHE=1 neither read nor write the cache', () => {
    run(csv(oscillator, '--no-cache'));
    expect(entries()).toEqual([]);
    run(csv(oscillator), { GEOMECH_CACHE_DIR: join(dir, 'c'), GEOMECH_NO_CACHE: '1' });
    expect(entries()).toEqual([]);
    run(csv(oscillator));
    expect(entries()).toHaveLength(1);
    expect(run(csv(oscillator, '--no-cache')).mathjs).toBe(true);
  });

  it('XDG_CACHE_HOME is used when GEOMECH_CACHE_DIR is not set', () => {
    run(csv(oscillator), { GEOMECH_CACHE_DIR: '', XDG_CACHE_HOME: join(dir, 'xdg') });
    expect(readdirSync(join(dir, 'xdg', 'geomech', 'models'))).toHaveLength(1);
  });

  it('an unwritable cache directory only costs the cache (the run succeeds)', () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'not a directory');
    const cold = run(csv(oscillator), { GEOMECH_CACHE_DIR: join(dir, 'c') });
    const blocked = run(csv(oscillator), { GEOMECH_CACHE_DIR: join(blocker, 'c') });
    expect(blocked.stdout).toBe(cold.stdout);
    expect(blocked.mathjs).toBe(true);
  });
});

describe('model cache: trees', () => {
  it('encodeTree then decodeTree gives the tree the grammar reads', () => {
    const source = '-(2*sin(x) + y^3)/log(z, 10) - +w';
    const items = encodeTree(parse(source))!;
    expect(items).toEqual([
      2,
      'x',
      ['f', 'sin', 1],
      ['o', '*', 'multiply', 2],
      'y',
      3,
      ['o', '^', 'pow', 2],
      ['o', '+', 'add', 2],
      ['p'],
      ['o', '-', 'unaryMinus', 1],
      'z',
      10,
      ['f', 'log', 2],
      ['o', '/', 'divide', 2],
      'w',
      ['o', '+', 'unaryPlus', 1],
      ['o', '-', 'subtract', 2],
    ]);
    expect(encodeTree(decodeTree(items)!)).toEqual(items);
  });

  it('trees outside the grammar are not stored', () => {
    for (const source of ['[1, 2]', 'a = 1', 'x > 1 ? 1 : 2', '"s"', 'f(x) = x', 'x[1]', '1:3'])
      expect(encodeTree(parse(source)), source).toBeUndefined();
  });

  it('decodeTree refuses everything but one well-formed tree', () => {
    const bad: unknown[] = [
      [],
      [1, 2],
      [['o', '+', 'add', 2]],
      [1, ['o', '+', 'add', 2]],
      [1, ['o', '+', 'add', 0]],
      [1, ['o', '+', 'add', 1.5]],
      [1, ['o', '+', 'add', -1]],
      [Number.NaN],
      [null],
      [true],
      [{}],
      [['p']],
      [1, ['p', 1]],
      [1, ['x']],
      [1, ['f', 3, 1]],
      'x',
      { 0: 1 },
      Array.from({ length: 16_001 }, () => 1),
    ];
    for (const items of bad) expect(decodeTree(items), JSON.stringify(items)).toBeUndefined();
    expect(decodeTree([1, ['f', 'sin', 1]])).toEqual({
      type: 'FunctionNode',
      fn: { type: 'SymbolNode', name: 'sin' },
      args: [{ type: 'ConstantNode', value: 1 }],
    });
  });

  it('a deeply nested tree is encoded and decoded without recursion', () => {
    const deep = `${'-'.repeat(5000)}x`;
    const items = encodeTree(parse(deep))!;
    expect(items).toHaveLength(5001);
    expect(encodeTree(decodeTree(items)!)).toEqual(items);
  });

  it('ModelCache: a saved entry is a hit for the same text and version only', () => {
    const cacheDir = join(dir, 'c');
    const first = ModelCache.open(cacheDir, 'text', '1.0.0');
    expect(first.hit).toBe(false);
    first.record('x^2', parse('x^2'));
    first.save();
    const second = ModelCache.open(cacheDir, 'text', '1.0.0');
    expect(second.hit).toBe(true);
    expect(encodeTree(second.get('x^2')!)).toEqual(encodeTree(parse('x^2')));
    expect(second.get('y')).toBeUndefined();
    expect(ModelCache.open(cacheDir, 'text', '1.0.1').hit).toBe(false);
    expect(ModelCache.open(cacheDir, 'text2', '1.0.0').hit).toBe(false);
  });
});

describe('model cache: directory', () => {
  it('GEOMECH_NO_CACHE, GEOMECH_CACHE_DIR, XDG_CACHE_HOME, HOME in that order', () => {
    expect(modelCacheDir({ GEOMECH_NO_CACHE: '1', GEOMECH_CACHE_DIR: '/g' })).toBeUndefined();
    expect(modelCacheDir({ GEOMECH_NO_CACHE: '0', GEOMECH_CACHE_DIR: '/g' })).toBe('/g');
    expect(modelCacheDir({ GEOMECH_CACHE_DIR: '/g', XDG_CACHE_HOME: '/x' })).toBe('/g');
    expect(modelCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'geomech'));
    expect(modelCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toBe(
      join('/h', '.cache', 'geomech'),
    );
    expect(modelCacheDir({ HOME: '/h' })).toBe(join('/h', '.cache', 'geomech'));
  });
});
