/**
 * The example runner and the chart preparation, in Node: error positions (syntax errors, missing
 * exports, runtime errors), the import rewriting, and the axis ranges, thinning and tick labels
 * the site's charts use (the browser test checks the same on the drawn charts).
 */
import * as contact from '@geomech/contact';
import { describe, expect, it } from 'vitest';
import { linearAxis, logAxis, logTickLabel, preparePlot } from '../src/plot.js';
import {
  ExampleError,
  nearestName,
  type PlotSpec,
  runExample,
  transformExample,
} from '../src/runner.js';

const quiet = { log: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const run = (source: string, plot: (spec: PlotSpec) => void = () => {}) =>
  runExample(source, async () => contact, { plot, console: quiet });

async function failure(source: string): Promise<ExampleError> {
  try {
    await run(source);
  } catch (e) {
    if (e instanceof ExampleError) return e;
    throw new Error(`expected an ExampleError, got ${String(e)}`);
  }
  throw new Error('the example did not fail');
}

describe('transformExample', () => {
  it('rewrites imports line for line and records the imported names', () => {
    const src =
      "import {\n  MidpointHerglotz,\n  midpointLd as mid,\n} from '@geomech/contact';\nimport * as core from '@geomech/core';\nconsole.log(1);\n";
    const t = transformExample(src);
    expect(t.imports).toEqual(['@geomech/contact', '@geomech/core']);
    expect(t.bindings.map((b) => [b.name, b.line])).toEqual([
      ['MidpointHerglotz', 2],
      ['midpointLd', 3],
    ]);
    const lines = t.body.split('\n');
    expect(lines.length).toBe(src.split('\n').length);
    expect(lines[0]).toBe(
      'const { MidpointHerglotz, "midpointLd": mid } = __modules["@geomech/contact"];',
    );
    expect(lines[4]).toBe('const core = __modules["@geomech/core"];');
    expect(lines[5]).toBe('console.log(1);');
  });

  it('reports a syntax error with its line and column', () => {
    expect(() => transformExample('const a = 1;\nconst b = 2;\nconst c = (a + ;\n')).toThrow(
      /^SyntaxError: Unexpected token \(line 3, column 16\)$/,
    );
  });

  it('refuses other packages, default imports and export lists, with their lines', () => {
    expect(() => transformExample("const a = 1;\nimport fs from 'node:fs';\n")).toThrow(
      /cannot import 'node:fs'.*\(line 2\)/,
    );
    expect(() => transformExample("import core from '@geomech/core';\n")).toThrow(
      /no default export.*\(line 1\)/,
    );
    expect(() => transformExample('const a = 1;\nexport { a };\n')).toThrow(
      /do not export.*\(line 2\)/,
    );
  });

  it('drops `export` before a declaration, keeping columns', () => {
    expect(transformExample('export const a = 1;\n').body).toBe('       const a = 1;\n');
  });
});

describe('runExample error positions', () => {
  it('a misspelled import names the export, its line and the nearest name', async () => {
    const e = await failure(
      "import {\n  ContactIntegrator,\n  MidpointHerglotzz,\n} from '@geomech/contact';\n",
    );
    expect(e.message).toBe(
      "'@geomech/contact' has no export 'MidpointHerglotzz'; did you mean 'MidpointHerglotz'? (line 3, column 3)",
    );
  });

  it('a runtime error names the line of the example that threw', async () => {
    const e = await failure('const a = 1;\n\nconst b = a.c.d;\n');
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^TypeError: .* \(line 3, column \d+\)$/);
    expect(e.cause).toBeInstanceOf(TypeError);
  });

  it('an error thrown inside a package names the example line that called it', async () => {
    const e = await failure(
      "import { mechanicalContactLagrangian, quadraticPotential, MidpointHerglotz } from '@geomech/contact';\nconst L = mechanicalContactLagrangian(quadraticPotential(1), -0.05);\nconst m = new MidpointHerglotz(L, 0.5);\nm.integrate({ q0: [1, 2], q1: [2], z0: 0 }, 5);\n",
    );
    expect(e.line).toBe(4);
  });

  it('a bad plot spec names the line of the plot call', async () => {
    const e = await failure("import { checkPlotSpec } from '@geomech/contact';\n").catch(
      () => undefined,
    );
    expect(e?.message).toMatch(/no export 'checkPlotSpec'/);
    const { checkPlotSpec } = await import('../src/plot.js');
    try {
      await run('const x = [1, 2];\nplot({ series: [{ label: "a", x, y: [1] }] });\n', (spec) => {
        checkPlotSpec(spec);
      });
      throw new Error('no failure');
    } catch (err) {
      expect((err as Error).message).toMatch(/1 y values \(line 2\)$/);
    }
  });

  it('nearestName suggests only close names', () => {
    expect(nearestName('so3cayley', ['so3Cayley', 'SO3'])).toBe('so3Cayley');
    expect(nearestName('integrate', ['SO3', 'DenseLU'])).toBeUndefined();
  });
});

describe('chart axes', () => {
  it('linear axes contain the data on 1-2-2.5-5 steps and keep ≥ 3/5 of the axis for data', () => {
    expect(linearAxis(-0.711454168128125, 0.711443220606505)).toEqual({
      min: -0.75,
      max: 0.75,
      log: false,
    });
    expect(linearAxis(-2.5570791816156304, 2.311319929367974)).toEqual({
      min: -3,
      max: 3,
      log: false,
    });
    expect(linearAxis(0, 0)).toEqual({ min: -1, max: 1, log: false });
    // random ranges: the axis holds the data and the data fill at least 60% of it
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 2000; i++) {
      const scale = 10 ** Math.floor(rand() * 20 - 10);
      const lo = (rand() - 0.5) * scale * 10;
      const hi = lo + rand() * scale;
      if (!(hi > lo)) continue;
      const a = linearAxis(lo, hi);
      expect(a.min).toBeLessThanOrEqual(lo);
      expect(a.max).toBeGreaterThanOrEqual(hi);
      expect((hi - lo) / (a.max - a.min)).toBeGreaterThanOrEqual(0.6 - 1e-9);
    }
  });

  it('log axes snap to 1, 2, 5 × 10^k outside the data and keep ≥ 40% of the axis (log scale)', () => {
    expect(logAxis(0.0125, 0.1)).toEqual({ min: 0.01, max: 0.1, log: true });
    expect(logAxis(3e-15, 1.7e9)).toEqual({ min: 2e-15, max: 2e9, log: true });
    let seed = 777;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 2000; i++) {
      const lo = 10 ** (rand() * 40 - 20);
      const hi = lo * 10 ** (rand() * 6);
      const a = logAxis(lo, hi);
      expect(a.min).toBeLessThanOrEqual(lo);
      expect(a.max).toBeGreaterThanOrEqual(hi);
      const cover = Math.log10(hi / lo) / Math.log10(a.max / a.min);
      if (hi > lo) expect(cover).toBeGreaterThanOrEqual(0.4);
    }
  });

  it('log tick labels: at least two on any axis, powers of ten only over two decades', () => {
    const ticks = (min: number, max: number) => {
      // Chart.js's logarithmic ticks: min, then 1..9 × 10^k inside, then max
      const out = [min];
      for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++)
        for (let m = 1; m < 10; m++) {
          const v = m * 10 ** e;
          if (v > min * (1 + 1e-12) && v < max * (1 - 1e-12)) out.push(v);
        }
      out.push(max);
      return out.map((v) => logTickLabel(v, min, max)).filter((s) => s !== '');
    };
    expect(ticks(0.01, 0.1)).toEqual(['0.01', '0.02', '0.05', '0.1']);
    expect(ticks(1e-16, 1e-12)).toEqual(['1e-16', '1e-15', '1e-14', '1e-13', '1e-12']);
    // 26 decades: every 4th power, at most MAX_LOG_LABELS labels
    expect(ticks(1e-16, 1e10)).toEqual(['1e-16', '1e-12', '1e-8', '1e-4', '1', '1e4', '1e8']);
    for (const [lo, hi] of [
      [0.0125, 0.1],
      [3e-15, 1.7e9],
      [0.9e-3, 1.1e-3],
      [1, 1],
      [2.2e-7, 4.1e-3],
    ] as const) {
      const a = logAxis(lo, hi);
      expect(ticks(a.min, a.max).length, `${lo}..${hi}`).toBeGreaterThanOrEqual(2);
    }
  });

  it('preparePlot keeps the extremes of every series when it thins, and ranges hold all points', () => {
    const n = 100_000;
    const x = Array.from({ length: n }, (_, k) => Math.cos(k * 0.001));
    const y = Array.from({ length: n }, (_, k) => Math.sin(k * 0.001) + (k === 777 ? 5 : 0));
    const p = preparePlot({ series: [{ label: 's', x, y }] });
    expect(p.series[0]!.x.length).toBeLessThanOrEqual(1500);
    expect(Math.max(...p.series[0]!.y)).toBe(Math.max(...y));
    expect(Math.min(...p.series[0]!.x)).toBe(Math.min(...x));
    expect(p.ranges.y[1]).toBe(Math.max(...y));
    expect(p.axes.y.max).toBeGreaterThanOrEqual(p.ranges.y[1]);
    expect(p.count).toBe(n);
  });

  it('preparePlot drops non-finite points and non-positive ones on log axes, and refuses an empty plot', () => {
    const p = preparePlot({
      yLog: true,
      series: [{ label: 'e', x: [0, 1, 2, 3], y: [0, 1e-3, Number.NaN, 1e-1] }],
    });
    expect(p.series[0]!.y).toEqual([1e-3, 1e-1]);
    expect(p.axes.y).toEqual({ min: 1e-3, max: 0.1, log: true });
    expect(() => preparePlot({ yLog: true, series: [{ label: 'z', x: [1], y: [0] }] })).toThrow(
      /no finite point/,
    );
  });
});
