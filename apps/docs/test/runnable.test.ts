import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as contact from '@geomech/contact';
import * as core from '@geomech/core';
import * as dirac from '@geomech/dirac';
import * as groupoid from '@geomech/groupoid';
import { afterAll, describe, expect, it } from 'vitest';
import { extractExampleBlocks } from '../src/examples.js';
import { extractRunnableBlocks } from '../src/index.js';
import { preparePlot } from '../src/plot.js';
import {
  type ExamplePackage,
  formatConsoleArgs,
  type PlotSpec,
  runExample,
} from '../src/runner.js';

const pagesDir = join(__dirname, '..', 'pages');
const scratch = join(__dirname, '..', '.runnable');

/** Every Markdown page of the site (relative paths), without VitePress's and TypeDoc's output. */
function markdownPages(dir = pagesDir): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    if (f.startsWith('.') || f === 'api' || f === 'public' || f === 'node_modules') continue;
    const path = join(dir, f);
    if (statSync(path).isDirectory()) out.push(...markdownPages(path));
    else if (f.endsWith('.md')) out.push(relative(pagesDir, path));
  }
  return out.sort();
}

describe('extractRunnableBlocks', () => {
  it('keeps only blocks marked runnable, with their line numbers', () => {
    const md = '# t\n```ts runnable\nconst a = 1;\n```\n\n```sh\nls\n```\n~~~js runnable\nx\n~~~\n';
    expect(extractRunnableBlocks(md)).toEqual([
      { lang: 'ts', code: 'const a = 1;\n', line: 2 },
      { lang: 'js', code: 'x\n', line: 9 },
    ]);
  });

  it('rejects an unclosed fence', () => {
    expect(() => extractRunnableBlocks('```ts runnable\nconst a = 1;\n')).toThrow(/line 1/);
  });
});

describe('every runnable block of every page runs', () => {
  mkdirSync(scratch, { recursive: true });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const pages = markdownPages();
  it('finds runnable examples', () => {
    const total = pages.reduce(
      (s, p) => s + extractRunnableBlocks(readFileSync(join(pagesDir, p), 'utf8')).length,
      0,
    );
    expect(total).toBeGreaterThan(0);
  });
  for (const page of pages) {
    const blocks = extractRunnableBlocks(readFileSync(join(pagesDir, page), 'utf8'));
    for (const block of blocks) {
      it(`${page}:${block.line}`, async () => {
        const file = join(
          scratch,
          `${page.replace(/\W/g, '_')}_${block.line}.${block.lang === 'js' ? 'mjs' : 'ts'}`,
        );
        writeFileSync(file, block.code);
        const mod = (await import(file)) as Record<string, unknown>;
        expect(mod).toBeDefined();
      });
    }
  }
});

/**
 * Runs the `index`-th ` ```ts runnable ` block of `page` with `export const result = <tail>;`
 * appended: the test reads the block's variables by name, so the page shows no test scaffolding
 * and renaming a variable on the page fails the test.
 */
async function runBlock(
  page: string,
  index: number,
  tag: string,
  tail: string,
): Promise<Record<string, unknown>> {
  const block = extractRunnableBlocks(readFileSync(join(pagesDir, page), 'utf8'))[index];
  if (!block) throw new Error(`${page} has no runnable block ${index}`);
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, `${tag}.ts`);
  writeFileSync(file, `${block.code}\nexport const result = ${tail};\n`);
  return ((await import(file)) as { result: Record<string, unknown> }).result;
}

describe('getting-started example', () => {
  it('prints the spec 004 §8.2 reference values (q_50 = −0.3478075467, ln H_50 = −0.02169423)', async () => {
    const result = (await runBlock(
      'getting-started.md',
      0,
      'getting_started_check',
      '{ q50: sol.q[50]!, lnH50: Math.log(sol.energy[50]!) }',
    )) as { q50: number; lnH50: number };
    expect(Math.abs(result.q50 - -0.3478075467)).toBeLessThan(1e-10);
    expect(Math.abs(result.lnH50 - -0.02169423)).toBeLessThan(1e-8);
  });
});

describe('contact page examples', () => {
  const run = async (index: number, tag: string, tail: string) =>
    (await runBlock('contact.md', index, `contact_${tag}`, tail)) as Record<string, number>;

  it('the exact flow samples q(25) = 0.3504530104 and ln H falls by γh = −0.025 per step (1e-12)', async () => {
    const r = await run(
      0,
      'exact',
      '{ paperQ50: paper.q[50]!, exactQ50: exact.q[50]!, paperSlope: slope(paper.energy), exactSlope: slope(exact.energy) }',
    );
    expect(Math.abs(r.paperQ50! - -0.3478075467)).toBeLessThan(1e-10);
    expect(Math.abs(r.exactQ50! - 0.3504530104)).toBeLessThan(1e-10);
    expect(Math.abs(r.exactSlope! - -0.025)).toBeLessThan(1e-12);
    expect(Math.abs(r.paperSlope! - -0.025)).toBeGreaterThan(1e-4);
  });

  it('measures orders 1, 1 and 2 (±0.35)', async () => {
    const r = await run(1, 'orders', 'orders');
    expect(Math.abs(r.midpoint! - 1)).toBeLessThan(0.35);
    expect(Math.abs(r['left-rectangle']! - 1)).toBeLessThan(0.35);
    expect(Math.abs(r['implicit-z-midpoint']! - 2)).toBeLessThan(0.35);
  });
});

describe('dirac page examples', () => {
  const run = async (index: number, tag: string, tail: string) =>
    (await runBlock('dirac.md', index, `dirac_${tag}`, tail)) as Record<string, number>;

  it('index reduction follows the rolling disk closed form (1e-8), drift ≤ 1e-9, energy 1e-10', async () => {
    const r = await run(
      0,
      'disk',
      '{ error, drift, energySpread: Math.max(...sol.energy) - Math.min(...sol.energy) }',
    );
    expect(r.error!).toBeLessThan(1e-8);
    expect(r.drift!).toBeLessThan(1e-9);
    expect(r.energySpread!).toBeLessThan(1e-10);
  });

  it('the constraint algorithm finds one position constraint and ω_LC = 2.0118695404 (1e-10)', async () => {
    const r = await run(
      1,
      'lc4',
      '{ positionConstraints: alg.positionConstraintCount, omega: alg.frequencies[0]!, omegaLC: circuit.omegaLC }',
    );
    expect(r.positionConstraints).toBe(1);
    expect(Math.abs(r.omega! - 2.0118695404)).toBeLessThan(1e-10);
    expect(Math.abs(r.omega! - r.omegaLC!)).toBeLessThan(1e-10);
  });
});

// ---------------------------------------------------------------------------------------------
// the editable browser examples (```js example blocks), run in Node with the browser's runner

const modules: Record<ExamplePackage, unknown> = {
  '@geomech/core': core,
  '@geomech/groupoid': groupoid,
  '@geomech/contact': contact,
  '@geomech/dirac': dirac,
};

interface ExampleRun {
  readonly plots: PlotSpec[];
  readonly points: number[];
  readonly lines: string[];
}

/** Runs an example with a plot stub that validates and records each spec. */
async function runInNode(code: string): Promise<ExampleRun> {
  const plots: PlotSpec[] = [];
  const points: number[] = [];
  const lines: string[] = [];
  const say = (...args: unknown[]): void => {
    lines.push(formatConsoleArgs(args));
  };
  await runExample(code, async (pkg) => modules[pkg], {
    plot: (spec) => {
      // what the browser's worker does with a spec (checks, ranges, thinning)
      points.push(preparePlot(spec).count);
      plots.push(spec);
    },
    console: { log: say, info: say, warn: say, error: say },
  });
  return { plots, points, lines };
}

const exampleCache = new Map<string, Promise<ExampleRun>>();
/** The run of the `index`-th example of a page (cached: each example runs once per file). */
function example(page: string, index = 0): Promise<ExampleRun> {
  const key = `${page}#${index}`;
  let run = exampleCache.get(key);
  if (!run) {
    const block = extractExampleBlocks(readFileSync(join(pagesDir, page), 'utf8'))[index];
    if (!block) throw new Error(`${page} has no example ${index}`);
    run = runInNode(block.code);
    exampleCache.set(key, run);
  }
  return run;
}

/** The named series of the plot whose title starts with `title`. */
function series(run: ExampleRun, title: string, label: string): { x: number[]; y: number[] } {
  const spec = run.plots.find((p) => p.title?.startsWith(title));
  const s = spec?.series.find((c) => c.label === label);
  if (!s) throw new Error(`no series '${label}' in a plot '${title}'`);
  return { x: Array.from(s.x), y: Array.from(s.y) };
}

describe('every browser example runs in Node and plots data', () => {
  const pages = markdownPages();
  it('finds the example pages', () => {
    const total = pages.reduce(
      (s, p) => s + extractExampleBlocks(readFileSync(join(pagesDir, p), 'utf8')).length,
      0,
    );
    expect(total).toBeGreaterThanOrEqual(4);
  });
  for (const page of pages) {
    const blocks = extractExampleBlocks(readFileSync(join(pagesDir, page), 'utf8'));
    blocks.forEach((block, index) => {
      it(`${page}:${block.line}`, async () => {
        const run = await example(page, index);
        expect(run.plots.length).toBeGreaterThan(0);
        for (const n of run.points) expect(n).toBeGreaterThan(1);
      });
    });
  }
});

describe('the browser examples reproduce the numbers their pages state', () => {
  it('damped oscillator: exact ln H falls by γh = −0.025 per step (1e-12); midpoint ≈ ln(1 + hγ)', async () => {
    const run = await example('examples/damped-oscillator.md');
    const slope = (label: string) => {
      const { y } = series(run, 'ln H(t)', label);
      return (y[50]! - y[0]!) / 50;
    };
    // measured: exact −0.025000000000000064, midpoint −0.025298513627832683
    expect(Math.abs(slope('exact discrete Lagrangian') - -0.025)).toBeLessThan(1e-12);
    const mid = slope('midpoint (79)');
    const lnSigma = Math.log(1 - 0.025);
    // measured: |mid − ln(1 + hγ)| = 1.9e-5, |mid − γh| = 3.0e-4
    expect(Math.abs(mid - lnSigma)).toBeLessThan(Math.abs(mid - -0.025) / 10);
    const q = series(run, 'position q(t)', 'exact discrete Lagrangian').y;
    expect(Math.abs(q[50]! - 0.3504530104)).toBeLessThan(1e-10); // spec 004 §8.2: exact q(25)
  });

  it('rolling disk: E±_d follow the closed forms of spec 000 §9.1 (measured 2.3e-13, 3.3e-13)', async () => {
    const run = await example('examples/rolling-disk.md');
    const h = 0.1;
    const r = (1 + Math.cos(h * 0.5)) / 2; // (I + mR² cos hω)/(I + mR²), I = m = R = 1, ω = 0.5
    const E0 = 1.125; // ½(I + mR²)Ω² + ½Jω²
    for (const [label, E] of [
      ['(+) scheme', (k: number) => r ** (2 * k) + 0.125],
      ['(−) scheme', (k: number) => r ** (-2 * (k + 1)) + 0.125],
    ] as const) {
      const { x, y } = series(run, 'discrete energy', label);
      expect(x.length).toBe(401);
      for (let j = 0; j < x.length; j++) {
        const k = Math.round(x[j]! / h);
        expect(Math.abs((y[j]! + 1) * E0 - E(k))).toBeLessThan(1e-11);
      }
    }
    // the (+) energy falls and the (−) energy rises (measured −0.350 and +0.579 at t = 40)
    expect(series(run, 'discrete energy', '(+) scheme').y[400]!).toBeLessThan(-0.3);
    expect(series(run, 'discrete energy', '(−) scheme').y[400]!).toBeGreaterThan(0.5);
  });

  it('pendulum, h = 0.005, 100 periods: the constraint errors of the spec 001 §7.3 table (3 digits)', async () => {
    const run = await example('examples/pendulum.md');
    const last = (label: string) => {
      const { y } = series(run, 'relative constraint error', label);
      return y[y.length - 1]!;
    };
    // spec 001 §7.3, θ0 = π/4, h = 0.005; measured 1.904, 4.767e-4, 4.839e-5, 1.677e9, 4.751e-5,
    // 4.131e-3, 1.964e-4
    const table: [string, number][] = [
      ['Dirac-1', 1.9],
      ['Dirac-2', 4.77e-4],
      ['Dirac-2c', 4.84e-5],
      ['explicit Euler', 1.68e9],
      ['trapezium', 4.75e-5],
      ['Adams–Bashforth 3', 4.13e-3],
      ['Runge–Kutta 4', 1.96e-4],
    ];
    for (const [label, value] of table)
      expect(Math.abs(last(label) / value - 1), label).toBeLessThan(5e-3);
    expect(last('RATTLE')).toBeLessThan(1e-13); // measured 0
  });

  it('Ziegler column: Dirac-1 drifts to the buckled equilibrium, Dirac-2c stays upright (spec 001 §7.3)', async () => {
    const run = await example('examples/ziegler.md');
    const lengths = (method: string) => {
      const line = run.lines.find((l) => l.startsWith(`${method}: final lengths`));
      const m = /final lengths \(([-\d.]+), ([-\d.]+)\)/.exec(line ?? '');
      return [Number(m?.[1]), Number(m?.[2])];
    };
    // measured 1.1027678882899283, 1.1981275636710984 (printed to 4 digits); spec (1.1027, 1.1981)
    const [l1, l2] = lengths('dirac-1');
    expect(Math.abs(l1! - 1.1027)).toBeLessThan(2e-4);
    expect(Math.abs(l2! - 1.1981)).toBeLessThan(2e-4);
    const [m1, m2] = lengths('dirac-2c');
    expect(Math.abs(m1! - 1)).toBeLessThan(1e-4); // measured 1.4e-6
    expect(Math.abs(m2! - 1)).toBeLessThan(1e-4); // measured 6.1e-8
    const tailMean = (label: string) => {
      const { x, y } = series(run, 'phase portrait', label);
      return [x.reduce((s, v) => s + v, 0) / x.length, y.reduce((s, v) => s + v, 0) / y.length];
    };
    // spec 001 §7.3 table: Dirac-1 (−0.592, −0.839) buckled, Dirac-2c (−0.006, −0.008) upright
    const d1 = tailMean('Dirac-1');
    const d2 = tailMean('Dirac-2c');
    expect(Math.abs(d1[0]! - -0.592)).toBeLessThan(5e-3);
    expect(Math.abs(d1[1]! - -0.839)).toBeLessThan(5e-3);
    expect(Math.abs(d2[0]! - -0.006)).toBeLessThan(5e-3);
    expect(Math.abs(d2[1]! - -0.008)).toBeLessThan(5e-3);
    // the buckled equilibrium at the drifted lengths: spec (−0.650887, −0.922141) at (1.1027, 1.1981)
    // (measured (−0.651016, −0.922311) at the unrounded lengths 1.10277, 1.19813)
    const eqs = run.lines
      .map((l) => /buckled equilibrium .*θ = \(([-\d.]+), ([-\d.]+)\)/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [Number(m[1]), Number(m[2])]);
    const bent = eqs.find((e) => e[0]! < 0);
    expect(Math.abs(bent![0]! - -0.650887)).toBeLessThan(1e-3);
    expect(Math.abs(bent![1]! - -0.922141)).toBeLessThan(1e-3);
    // Dirac-1 oscillates about it: the tail mean is within 0.1 rad of it (measured 0.059, 0.083)
    expect(Math.abs(d1[0]! - bent![0]!)).toBeLessThan(0.1);
    expect(Math.abs(d1[1]! - bent![1]!)).toBeLessThan(0.1);
  });
});

describe('the groupoid examples reproduce the numbers their pages state', () => {
  it('rigid body: Casimir and spatial momentum to round-off, bounded energy error without drift', async () => {
    const run = await example('examples/rigid-body.md');
    for (const map of ['cayley', 'exp']) {
      const cas = series(run, 'conserved to round-off', `|π|/|π₀| − 1 (${map})`).y;
      const spatial = series(run, 'conserved to round-off', `|R_kπ_k − R_0π_0| (${map})`).y;
      // measured over 2000 steps: Casimir 8.3e-14 (cayley), 3.8e-15 (exp); spatial 1.3e-13, 4.1e-14
      expect(Math.max(...cas)).toBeLessThan(1e-12);
      expect(Math.max(...spatial)).toBeLessThan(1e-12);
      const energy = series(run, 'relative energy error', map).y;
      const half = energy.length >> 1;
      const first = Math.max(...energy.slice(0, half).map(Math.abs));
      const second = Math.max(...energy.slice(half).map(Math.abs));
      // measured max |E/E₀ − 1| = 4.5e-4 (cayley), 1.5e-4 (exp); the second half is no worse
      // than the first (no drift)
      expect(Math.max(first, second)).toBeLessThan(1e-3);
      expect(second).toBeLessThan(1.5 * first);
    }
  });

  it('SO(3) steering: a minimum of S4 cost 5.798604 at φ = 1, n = 40; λ_k constant; cost error of order 2', async () => {
    const run = await example('examples/so3-steering.md');
    // the interior-point solver's verdict, and the paper's DEL (6.1-e) at its answer
    const head =
      /^converged, a minimum in \d+ iterations; DEL \(6\.1-e\) residual ([-\d.e+]+)$/.exec(
        run.lines[0] ?? '',
      );
    expect(head).not.toBeNull();
    expect(Number(head![1])).toBeLessThan(1e-9); // measured 5e-11
    // spec 003 S4 table: 5.798604 (printed to 6 decimals)
    expect(run.lines[1]).toContain('discrete cost 5.798604');
    const lam = /λ_k ∈ \[([\d.]+), ([\d.]+)\]/.exec(run.lines[2] ?? '');
    expect(lam?.[1]).toBe(lam?.[2]); // constant to the 6 printed decimals (measured 5.300467)
    for (const map of ['cayley', 'exp']) {
      const { x, y } = series(run, 'cost error', map);
      const p = Math.log(y[2]! / y[3]!) / Math.log(x[2]! / x[3]!);
      expect(Math.abs(p - 2)).toBeLessThan(0.35); // measured 2.003 (cayley), 2.002 (exp)
    }
  });

  it('plate-ball: the steering problem ends at a minimum with KKT error ≤ 1e-10 and returns to the origin', async () => {
    const run = await example('examples/plate-ball.md');
    const line = run.lines.find((l) => l.startsWith('converged,'));
    expect(line).toMatch(/^converged, a minimum in \d+ iterations,/);
    const residual = Number(/KKT error ([-\d.e+]+)/.exec(line ?? '')?.[1]);
    expect(residual).toBeLessThan(1e-10);
    const del = /DEL residual ([-\d.e+]+)/.exec(run.lines.join('\n'));
    expect(Number(del?.[1])).toBeLessThan(1e-9);
    const { x, y } = series(run, 'contact point path', 'optimal path');
    expect(x.length).toBe(41);
    // the ends are boundary rows of the interior-point solve: at the origin to round-off
    // (measured 1e-23; the old Newton solver fixed them exactly)
    expect(Math.abs(x[0]!) + Math.abs(y[0]!) + Math.abs(x[40]!) + Math.abs(y[40]!)).toBeLessThan(
      1e-15,
    );
    // the loop leaves the origin (a straight roll cannot turn the ball about the vertical)
    expect(Math.max(...x.map(Math.abs))).toBeGreaterThan(0.1);
  });
});

describe('guide pages', () => {
  const run = (page: string, tag: string, tail: string) => runBlock(page, 0, tag, tail);

  it('core: LU solves to [1, 2], Newton converges, exp/log and Cayley identities (1e-14), order 2', async () => {
    const r = await run(
      'core.md',
      'core_tour',
      '{ x0: x[0]!, x1: x[1]!, converged: newton.converged, residual, logError: Math.max(...logR.map((c, i) => Math.abs(c - v[i]!))), cayleyDefect, order }',
    );
    expect(Math.abs((r.x0 as number) - 1)).toBeLessThan(1e-14);
    expect(Math.abs((r.x1 as number) - 2)).toBeLessThan(1e-14);
    expect(r.converged).toBe(true);
    expect(r.residual as number).toBeLessThan(1e-10);
    expect(r.logError as number).toBeLessThan(1e-14);
    expect(r.cayleyDefect as number).toBeLessThan(1e-14);
    expect(Math.abs((r.order as number) - 2)).toBeLessThan(1e-12);
  });

  it('groupoid: composition in the paper order, refused when not composable, R R⁻¹ = I', async () => {
    const r = await run(
      'groupoid.md',
      'groupoid_arrows',
      '{ gh: Array.from(gh), refused, identityError, rank: G.rank }',
    );
    expect(r.gh).toEqual([0, 0, 3, 3]);
    expect(r.refused).toBe(true);
    expect(r.identityError as number).toBeLessThan(1e-15);
    expect(r.rank).toBe(3);
  });
});
