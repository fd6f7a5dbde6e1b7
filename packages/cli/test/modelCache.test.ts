/**
 * The model-file cache (issue 20; src/model/cache.ts): a hit gives the same output bytes as a
 * first run and never loads mathjs; a corrupt, tampered or foreign entry is ignored and
 * rewritten; a changed file misses; `--no-cache` and `GEOMECH_NO_CACHE` turn it off; the same for
 * `solve --model`, `simulate --feedback --model` and sweeps over a model file (a simulate sweep's
 * main thread writes the entry before its workers start; a second sweep parses in no thread). The process tests run the built binary (`pnpm build`
 * first); NODE_DEBUG=module makes Node's CommonJS loader log every file it loads, in every thread,
 * which shows whether (and in how many threads) mathjs was loaded.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CACHE_FORMAT,
  decodeTree,
  encodeTree,
  MAX_CACHE_BYTES,
  MAX_CACHE_ENTRIES,
  ModelCache,
} from '../src/model/cache.js';
import { modelCacheDir } from '../src/model/cacheDir.js';
import { parse } from '../src/model/mathjs.js';
import { bin, inProcess } from './helpers.js';

const examples = join(__dirname, '..', 'examples');
const oscillator = join(examples, 'damped-oscillator.json');
const pendulum = join(examples, 'pendulum.json');
const unicycle = join(examples, 'unicycle-parking.json');

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
  return {
    stdout: r.stdout,
    mathjs: /node_modules\/mathjs\//.test(r.stderr),
    // one load of mathjs's parser per thread that parsed (the main thread, sweep workers)
    parsers: r.stderr.match(/load "[^"]*mathjs\/lib\/cjs\/expression\/parse\.js" for module/g)
      ?.length,
  };
}

/** A solve's output without its wall-clock time (the one field that differs between runs). */
const untimed = (text: string) => text.replace(/"wallMs":[0-9.e+-]+/g, '"wallMs":0');

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

describe('model cache: solve --model, simulate --feedback --model, sweeps', () => {
  const solve = (...more: string[]) => ['solve', '--model', unicycle, '--n', '20', ...more];

  it('solve --model: a first run writes the entry, a second is a hit with the same bytes and no mathjs', () => {
    const cold = run(solve());
    expect(cold.mathjs).toBe(true);
    expect(entries()).toHaveLength(1);
    const warm = run(solve());
    expect(warm.mathjs).toBe(false);
    expect(untimed(warm.stdout)).toBe(untimed(cold.stdout));
    expect(untimed(warm.stdout)).not.toBe(warm.stdout); // the normalization touched the time only
    const off = run(solve('--no-cache'));
    expect(off.mathjs).toBe(true);
    expect(untimed(off.stdout)).toBe(untimed(cold.stdout));
  });

  it('solve --model: --no-cache and GEOMECH_NO_CACHE=1 write no entry', () => {
    run(solve('--no-cache'));
    expect(entries()).toEqual([]);
    run(solve(), { GEOMECH_CACHE_DIR: join(dir, 'c'), GEOMECH_NO_CACHE: '1' });
    expect(entries()).toEqual([]);
  });

  it('simulate --feedback --model reads the entry its solve wrote', () => {
    const gains = join(dir, 'gains.json');
    run(solve('--feedback', gains));
    expect(entries()).toHaveLength(1);
    const warm = run(['simulate', '--feedback', gains, '--model', unicycle]);
    expect(warm.mathjs).toBe(false);
    const off = run(['simulate', '--feedback', gains, '--model', unicycle, '--no-cache']);
    expect(off.mathjs).toBe(true);
    expect(untimed(warm.stdout)).toBe(untimed(off.stdout));
  });

  it('an in-process run without a cache directory in its Io caches nothing', async () => {
    const before = process.env.GEOMECH_CACHE_DIR;
    process.env.GEOMECH_CACHE_DIR = join(dir, 'c');
    try {
      const r = await inProcess(...solve());
      expect(r.code).toBe(0);
    } finally {
      process.env.GEOMECH_CACHE_DIR = before;
    }
    expect(entries()).toEqual([]);
  });

  it('a sweep over a model file: the entry written by a first run, no thread parses on the next; --no-cache reaches the workers', () => {
    const solveSpec = join(dir, 'solve.sweep.json');
    writeFileSync(
      solveSpec,
      JSON.stringify({
        command: 'solve',
        model: unicycle,
        options: { n: 20 },
        grid: { 'param.w': [1, 2, 3, 4] },
        outputs: ['cost', 'converged', 'iterations'],
      }),
    );
    const simulateSpec = join(dir, 'simulate.sweep.json');
    writeFileSync(
      simulateSpec,
      JSON.stringify({
        command: 'simulate',
        model: pendulum,
        options: { steps: 20 },
        grid: { h: [0.01, 0.02, 0.03, 0.04] },
        outputs: ['final:q[0]', 'drift:energy'],
      }),
    );
    for (const spec of [solveSpec, simulateSpec]) {
      rmSync(join(dir, 'c'), { recursive: true, force: true });
      const sweep = (...more: string[]) => run(['sweep', spec, '--workers', '2', ...more]);
      // A worker's stderr reaches the main thread in acknowledged chunks, and the pool terminates
      // its workers once the last row is in: on a loaded machine a worker's last log lines can be
      // cut off. So the module logs prove loads in the main thread only; what the workers did is
      // read from the cache directory, which every thread that parses with the cache on writes.
      const off = sweep('--no-cache');
      // the main thread of a simulate sweep checks the model first (one parse); a solve sweep's
      // main thread parses nothing
      if (spec === simulateSpec) expect(off.parsers, spec).toBeGreaterThanOrEqual(1);
      // --no-cache reached the workers: a worker with the cache on would have written the entry
      expect(entries()).toEqual([]);
      const cold = sweep();
      // simulate: the main thread's check, before the workers start, writes the entry they read
      // (so exactly one parse); solve: the workers that ran a point parsed and wrote the entry
      if (spec === simulateSpec) expect(cold.parsers, spec).toBe(1);
      expect(entries()).toHaveLength(1);
      const [entry] = entries();
      const written = statSync(entry!);
      const warm = sweep();
      // no thread parsed: none missed, so none rewrote the entry (a rename gives a new inode)
      expect(warm.parsers, spec).toBeUndefined();
      const kept = statSync(entry!);
      expect([kept.ino, kept.mtimeMs], spec).toEqual([written.ino, written.mtimeMs]);
      expect(cold.stdout).toBe(off.stdout);
      expect(warm.stdout).toBe(off.stdout);
    }
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

describe('model cache: pruning', () => {
  const models = () => join(dir, 'c', 'models');
  const name = (i: number) => `${i.toString(16).padStart(64, '0')}.json`;
  /** Writes an entry file `i` (its content is not read by pruning) with mtime `ageMs` ago. */
  const fake = (i: number, ageMs: number, bytes = 10) => {
    const file = join(models(), name(i));
    writeFileSync(file, 'x'.repeat(bytes));
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(file, t, t);
    return file;
  };
  const save = (text: string) => {
    const cache = ModelCache.open(join(dir, 'c'), text, '1.0.0');
    cache.record('x^2', parse('x^2'));
    cache.save();
    return join(
      models(),
      `${createHash('sha256').update(`geomech 1.0.0\0format ${CACHE_FORMAT}\0${text}`).digest('hex')}.json`,
    );
  };

  it('a write over MAX_CACHE_ENTRIES removes the least recently used entries, never its own', () => {
    mkdirSync(models(), { recursive: true });
    // entry i is i minutes old: the highest i are the oldest
    for (let i = 1; i <= MAX_CACHE_ENTRIES + 3; i++) fake(i, i * 60_000);
    const own = save('text');
    const left = readdirSync(models());
    expect(left).toHaveLength(MAX_CACHE_ENTRIES);
    expect(left).toContain(basename(own));
    // the four oldest went (MAX + 3 fakes + the new entry, MAX kept)
    for (let i = MAX_CACHE_ENTRIES; i <= MAX_CACHE_ENTRIES + 3; i++)
      expect(left).not.toContain(name(i));
    expect(left).toContain(name(MAX_CACHE_ENTRIES - 1));
    expect(ModelCache.open(join(dir, 'c'), 'text', '1.0.0').hit).toBe(true);
  });

  it('a write over MAX_CACHE_BYTES removes the oldest until the total fits; other files stay', () => {
    mkdirSync(models(), { recursive: true });
    const third = Math.floor(MAX_CACHE_BYTES / 3) + 1;
    fake(1, 30_000, 1);
    // sparse files: their size counts, nothing is written
    for (const [i, age] of [
      [2, 60_000],
      [3, 120_000],
      [4, 180_000],
    ] as const) {
      const file = fake(i, age);
      truncateSync(file, third);
      utimesSync(file, (Date.now() - age) / 1000, (Date.now() - age) / 1000);
    }
    writeFileSync(join(models(), 'notes.txt'), 'not an entry');
    const own = save('text');
    const left = readdirSync(models()).sort();
    // 3 × (MAX/3 + 1) > MAX: the oldest large one (4) goes, then the total fits
    expect(left).toEqual([name(1), name(2), name(3), basename(own), 'notes.txt'].sort());
  });

  it('a temporary file older than an hour is removed, a recent one kept', () => {
    mkdirSync(models(), { recursive: true });
    const stale = join(models(), `${name(1)}.123.abc.tmp`);
    const fresh = join(models(), `${name(2)}.456.def.tmp`);
    writeFileSync(stale, '{');
    writeFileSync(fresh, '{');
    const t = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(stale, t, t);
    save('text');
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('a hit on an entry older than an hour refreshes its modification time (the LRU order)', () => {
    const own = save('text');
    const old = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(own, old, old);
    expect(ModelCache.open(join(dir, 'c'), 'text', '1.0.0').hit).toBe(true);
    expect(Date.now() - statSync(own).mtimeMs).toBeLessThan(600_000);
    // a recent entry is not touched by a hit (no write per run)
    const recent = (Date.now() - 60_000) / 1000;
    utimesSync(own, recent, recent);
    const before = statSync(own).mtimeMs;
    expect(ModelCache.open(join(dir, 'c'), 'text', '1.0.0').hit).toBe(true);
    expect(statSync(own).mtimeMs).toBe(before);
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
