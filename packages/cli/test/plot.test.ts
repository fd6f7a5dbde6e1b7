/**
 * The SVG line plots of `--plot` (src/plot.ts): DOM-free checks on the SVG text.
 */
import { DimensionError, DomainError } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LinePlotSpec, plotFromSeries, renderLinePlot } from '../src/plot.js';
import { findProblem } from '../src/registry.js';

// ---------------------------------------------------------------------------------------------
// Tiny DOM-free helpers.

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const TAG = /^<(\/)?([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*="[^"<]*")*)\s*(\/)?>$/;

/** Throws unless `svg` is one well-formed XML element: balanced tags, quoted attributes, escaped text. */
function checkWellFormed(svg: string): void {
  const stack: string[] = [];
  let roots = 0;
  const checkText = (text: string, where: string) => {
    if (text.replace(ENTITY, '').includes('&')) throw new Error(`raw '&' in ${where}: ${text}`);
    if (text.includes('>') && where === 'attribute') throw new Error(`raw '>' in ${where}`);
  };
  let pos = 0;
  for (const m of svg.matchAll(/<[^>]*>/g)) {
    const text = svg.slice(pos, m.index);
    if (stack.length === 0 && text.trim() !== '') throw new Error(`text outside the root: ${text}`);
    checkText(text, 'text');
    if (text.includes('>')) throw new Error(`raw '>' in text: ${text}`);
    pos = m.index + m[0].length;
    const t = TAG.exec(m[0]);
    if (t === null) throw new Error(`malformed tag ${m[0]}`);
    const [, close, name, attrs, self] = t;
    for (const a of (attrs ?? '').matchAll(/="([^"]*)"/g)) checkText(a[1]!, 'attribute');
    const attrNames = [...(attrs ?? '').matchAll(/([\w:.-]+)="/g)].map((a) => a[1]);
    if (new Set(attrNames).size !== attrNames.length) throw new Error(`repeated attribute ${m[0]}`);
    if (close) {
      if (attrs || self) throw new Error(`closing tag with attributes ${m[0]}`);
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
    } else if (self) {
      if (stack.length === 0) roots++;
    } else {
      if (stack.length === 0) roots++;
      stack.push(name!);
    }
  }
  if (svg.slice(pos).trim() !== '') throw new Error('text after the root');
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

/** Texts of the `<text>` children of the group with this class. */
function groupTexts(svg: string, cls: string): { x: number; y: number; text: string }[] {
  const g = new RegExp(`<g class="${cls}"[^>]*>([\\s\\S]*?)</g>`).exec(svg);
  if (g === null) return [];
  return [...g[1]!.matchAll(/<text x="([^"]+)" y="([^"]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    text: m[3]!,
  }));
}

const xTicks = (svg: string) => groupTexts(svg, 'x-ticks').map((t) => t.text);
const yTicks = (svg: string) => groupTexts(svg, 'y-ticks').map((t) => t.text);

/** Point lists of every polyline. */
function polylines(svg: string): [number, number][][] {
  return [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) =>
    m[1]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]),
  );
}

function frame(svg: string): { x: number; y: number; w: number; h: number } {
  const m = /<rect class="frame" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/.exec(
    svg,
  );
  if (m === null) throw new Error('no frame');
  return { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) };
}

/** Linear map value → pixel from the first and last tick of an axis group. */
function tickMap(svg: string, cls: 'x-ticks' | 'y-ticks'): (v: number) => number {
  const t = groupTexts(svg, cls);
  const a = t[0]!;
  const b = t[t.length - 1]!;
  const [pa, pb] = cls === 'x-ticks' ? [a.x, b.x] : [a.y, b.y];
  const [va, vb] = [Number(a.text), Number(b.text)];
  return (v) => pa + ((v - va) / (vb - va)) * (pb - pa);
}

const line = (name: string, x: ArrayLike<number>, y: ArrayLike<number>) => ({ name, x, y });

// ---------------------------------------------------------------------------------------------

describe('renderLinePlot: structure and text', () => {
  const t = Array.from({ length: 101 }, (_, i) => i / 10);
  const spec: LinePlotSpec = {
    title: 'Damped oscillator',
    xLabel: 'time t',
    yLabel: 'q and p',
    series: [
      line(
        'q',
        t,
        t.map((s) => Math.exp(-0.1 * s) * Math.cos(s)),
      ),
      line(
        'p',
        t,
        t.map((s) => -Math.exp(-0.1 * s) * Math.sin(s)),
      ),
    ],
  };
  const svg = renderLinePlot(spec);

  it('is one well-formed <svg> element with the default 720×450 size and a white background', () => {
    checkWellFormed(svg);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="720" height="450"')).toBe(
      true,
    );
    expect(svg).toMatch(/<rect class="background" width="720" height="450" fill="#ffffff"\/>/);
    expect(svg).toMatch(/<rect class="frame" [^>]*fill="none"/);
  });

  it('has the title, the axis labels and a legend entry per series', () => {
    expect(svg).toContain('<title>Damped oscillator</title>');
    expect(svg).toMatch(/<text class="title"[^>]*>Damped oscillator<\/text>/);
    expect(svg).toMatch(/<text class="x-label"[^>]*>time t<\/text>/);
    expect(svg).toMatch(/<text class="y-label"[^>]*rotate\(-90[^>]*>q and p<\/text>/);
    const legend = [...svg.matchAll(/<g class="legend-entry">.*?<text[^>]*>([^<]*)<\/text>/g)];
    expect(legend.map((m) => m[1])).toEqual(['q', 'p']);
  });

  it('draws Okabe–Ito coloured, non-scaling-stroke polylines', () => {
    expect(svg).toMatch(/<g class="series" data-name="q" stroke="#0072B2"/);
    expect(svg).toMatch(/<g class="series" data-name="p" stroke="#D55E00"/);
    const lines = [...svg.matchAll(/<polyline [^>]*>/g)];
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l[0]).toContain('vector-effect="non-scaling-stroke"');
  });

  it('has no legend for a single series', () => {
    const one = renderLinePlot({ ...spec, series: [spec.series[0]!] });
    checkWellFormed(one);
    expect(one).not.toContain('class="legend"');
  });

  it('ticks of t ∈ [0, 10] and y ∈ [-0.74, 1]', () => {
    expect(xTicks(svg)).toEqual(['0', '2', '4', '6', '8', '10']);
    expect(yTicks(svg)).toEqual(['-1', '-0.5', '0', '0.5', '1']);
  });

  it('is deterministic: same input (arrays or typed arrays), same bytes', () => {
    expect(renderLinePlot(spec)).toBe(svg);
    const typed = {
      ...spec,
      series: spec.series.map((s) => line(s.name, Float64Array.from(s.x), Float64Array.from(s.y))),
    };
    expect(renderLinePlot(typed)).toBe(svg);
  });
});

describe('renderLinePlot: nice ticks', () => {
  const ticksFor = (lo: number, hi: number, n = 3) => {
    const x = Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
    const svg = renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [line('s', x, x)] });
    return { x: xTicks(svg), y: yTicks(svg) };
  };

  it('[0, 1] → 0, 0.2, …, 1 on both axes', () => {
    const t = ticksFor(0, 1);
    expect(t.x).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1']);
    expect(t.y).toEqual(t.x);
  });

  it('exact decimal labels: [0, 0.3] → 0, 0.05, …, 0.3 (no 0.30000000000000004)', () => {
    expect(ticksFor(0, 0.3).y).toEqual(['0', '0.05', '0.1', '0.15', '0.2', '0.25', '0.3']);
  });

  it('compact exponents for small and large ranges, positional when shorter', () => {
    expect(ticksFor(0, 1e-6).y).toEqual(['0', '2e-7', '4e-7', '6e-7', '8e-7', '1e-6']);
    expect(ticksFor(0, 2.5e5).y).toEqual(['0', '5e+4', '1e+5', '1.5e+5', '2e+5', '2.5e+5']);
    expect(ticksFor(1000, 3500).y).toEqual(['1000', '1500', '2000', '2500', '3000', '3500']);
    expect(ticksFor(-3, 17).y).toEqual(['-5', '0', '5', '10', '15', '20']);
  });

  it('extreme magnitudes (±1.7e308, subnormals) give finite, labelled axes', () => {
    const svg = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      series: [line('s', [-1.7e308, 0, 1.7e308], [5e-324, 1e-323, 0])],
    });
    checkWellFormed(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(xTicks(svg)).toEqual(['-2e+308', '-1e+308', '0', '1e+308', '2e+308']);
    expect(yTicks(svg)).toEqual(['0', '2e-324', '4e-324', '6e-324', '8e-324', '1e-323']);
  });

  it('property: 4-8 y ticks, evenly spaced 1-2-5 steps enclosing the data; x labels never overlap', () => {
    // labels below 1e-290 are exact decimals but parse to inexact (subnormal) doubles: excluded
    const finite = fc
      .double({ min: -1e12, max: 1e12, noNaN: true })
      .filter((v) => v === 0 || Math.abs(v) > 1e-290);
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        const svg = renderLinePlot({
          xLabel: 'x',
          yLabel: 'y',
          series: [line('s', [lo, hi], [lo, hi])],
        });
        const ys = yTicks(svg).map(Number);
        expect(ys.length).toBeGreaterThanOrEqual(4);
        expect(ys.length).toBeLessThanOrEqual(8);
        const step = ys[1]! - ys[0]!;
        // the range encloses the data up to the snapping slack of 1e-9 step (rounding of v / step)
        expect(ys[0]!).toBeLessThanOrEqual(lo + 1e-9 * step);
        expect(ys[ys.length - 1]!).toBeGreaterThanOrEqual(hi - 1e-9 * step);
        const mantissa = step / 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
        for (let i = 1; i < ys.length; i++)
          expect(Math.abs(ys[i]! - ys[i - 1]! - step)).toBeLessThanOrEqual(
            1e-9 * Math.abs(step) + 1e-12 * Math.abs(ys[i]!),
          );
        // x labels: estimated width 0.6 em × 12 px per character, centred on the tick.
        const xs = groupTexts(svg, 'x-ticks');
        expect(xs.length).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < xs.length; i++) {
          const gap = xs[i]!.x - xs[i - 1]!.x;
          expect(gap).toBeGreaterThanOrEqual(
            ((xs[i]!.text.length + xs[i - 1]!.text.length) / 2) * 7.2,
          );
        }
      }),
      { numRuns: 150, seed: 9 },
    );
  });
});

describe('renderLinePlot: log axis', () => {
  it('decades as ticks; non-positive values dropped and counted in <desc>', () => {
    const y = [1, 0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 0, -1];
    const x = y.map((_, i) => i);
    const svg = renderLinePlot({
      xLabel: 'k',
      yLabel: 'error',
      yScale: 'log',
      series: [line('e', x, y)],
    });
    checkWellFormed(svg);
    // nine decades do not fit in 8 ticks: every second decade
    expect(yTicks(svg)).toEqual(['1e-8', '1e-6', '1e-4', '1e-2', '1']);
    expect(svg).toMatch(/<desc>[^<]*2 non-positive values dropped from the log axis/);
    expect(svg).toMatch(/<desc>[^<]*e \(11 points, 9 drawn, 2 non-positive dropped\)/);
    expect(svg).not.toMatch(/NaN|Infinity/);
    // the decade 1e-4 sits halfway between 1e-8 and 1 (positions rounded to 0.1 px)
    const t = groupTexts(svg, 'y-ticks');
    expect(Math.abs(t[2]!.y - (t[0]!.y + t[4]!.y) / 2)).toBeLessThanOrEqual(0.1);
  });

  it('few decades: every decade labelled, unlabelled minor ticks at 2..9', () => {
    const svg = renderLinePlot({
      xLabel: 'h',
      yLabel: 'error',
      yScale: 'log',
      series: [line('e', [1, 2, 3], [2, 40, 5e3])],
    });
    expect(yTicks(svg)).toEqual(['1', '10', '100', '1000', '10000']);
    const ticks = /<path class="ticks" d="([^"]*)"/.exec(svg)![1]!;
    expect(xTicks(svg)).toEqual(['1', '1.5', '2', '2.5', '3']);
    // 5 x ticks, 5 decades, 4 × 8 minor ticks
    expect(ticks.match(/M/g)).toHaveLength(5 + 5 + 32);
  });

  it('a constant positive series gets a padded decade range', () => {
    const svg = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      yScale: 'log',
      series: [line('c', [0, 1], [100, 100])],
    });
    expect(yTicks(svg)).toEqual(['10', '100', '1000']);
  });
});

describe('renderLinePlot: gaps, degenerate data, escaping', () => {
  it('non-finite points break the polyline and never reach the SVG; isolated points are dots', () => {
    const x = Array.from({ length: 12 }, (_, i) => i);
    const y = [0, 1, 2, 3, Number.NaN, 5, 6, 7, 8, 9, Number.POSITIVE_INFINITY, 11];
    const svg = renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [line('s', x, y)] });
    checkWellFormed(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(polylines(svg).map((p) => p.length)).toEqual([4, 5]);
    expect(svg.match(/<circle /g)).toHaveLength(1);
    expect(svg).toMatch(/<desc>[^<]*2 non-finite points skipped/);
  });

  it('a constant series and a single point get padded ranges', () => {
    const c = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      series: [line('c', [0, 1, 2], [2, 2, 2])],
    });
    expect(yTicks(c)).toEqual(['1.8', '1.9', '2', '2.1', '2.2']);
    const p = renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [line('p', [3], [0])] });
    checkWellFormed(p);
    expect(xTicks(p)).toEqual(['2.7', '2.8', '2.9', '3', '3.1', '3.2', '3.3']);
    expect(yTicks(p)).toEqual(['-1', '-0.5', '0', '0.5', '1']);
    expect(p.match(/<circle /g)).toHaveLength(1);
    const e = renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [line('e', [], [])] });
    checkWellFormed(e);
    expect(e).toContain('No drawable points.');
  });

  it("escapes '<', '&', '>' and quotes in title, labels and names; replaces control characters", () => {
    const svg = renderLinePlot({
      title: 'a < b & c > "d"',
      xLabel: "x<'1'>",
      yLabel: 'y & z\u0001',
      series: [line('<q>', [0, 1], [0, 1]), line('p&"', [0, 1], [1, 0])],
    });
    checkWellFormed(svg);
    expect(svg).toContain('<title>a &lt; b &amp; c &gt; &quot;d&quot;</title>');
    expect(svg).toContain('>x&lt;&apos;1&apos;&gt;</text>');
    expect(svg).toContain('>y &amp; z\uFFFD</text>');
    expect(svg).toContain('data-name="&lt;q&gt;"');
    expect(svg).toContain('>p&amp;&quot;</text>');
    expect([...svg].some((c) => c.charCodeAt(0) < 0x09)).toBe(false);
  });

  it('long legend names are truncated with the full name as a tooltip', () => {
    const long = 'a-very-long-series-name-that-does-not-fit-into-the-legend';
    const svg = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      series: [line(long, [0, 1], [0, 1]), line('b', [0, 1], [1, 0])],
    });
    checkWellFormed(svg);
    expect(svg).toContain(`<title>${long}</title>`);
    expect(svg).toMatch(/>a-very-long-series-[a-z-]*…<\/text>/);
  });

  it('equal aspect: one unit has the same pixel length on both axes', () => {
    const th = Array.from({ length: 400 }, (_, i) => (i / 399) * 2 * Math.PI);
    const svg = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      aspect: 'equal',
      series: [
        line(
          'ellipse',
          th.map((s) => 3 * Math.cos(s)),
          th.map((s) => Math.sin(s)),
        ),
      ],
    });
    checkWellFormed(svg);
    const X = tickMap(svg, 'x-ticks');
    const Y = tickMap(svg, 'y-ticks');
    const sx = X(1) - X(0);
    const sy = Y(0) - Y(1);
    // measured relative difference 3.4e-4 (tick positions are rounded to 0.1 px)
    expect(Math.abs(sx / sy - 1)).toBeLessThan(5e-3);
  });

  it('bad input throws typed errors', () => {
    const s = line('s', [0, 1], [0, 1]);
    expect(() => renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [] })).toThrow(DomainError);
    expect(() =>
      renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [line('s', [0, 1], [0])] }),
    ).toThrow(DimensionError);
    expect(() => renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [s], width: 10 })).toThrow(
      DomainError,
    );
    expect(() =>
      renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [s], width: Number.NaN }),
    ).toThrow(DomainError);
    expect(() =>
      renderLinePlot({ xLabel: 'x', yLabel: 'y', series: [s], yScale: 'log', aspect: 'equal' }),
    ).toThrow(DomainError);
  });
});

describe('renderLinePlot: decimation of 10⁶ points', () => {
  const n = 1_000_000;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = i;
    y[i] = Math.sin(i * 1e-4) + 0.3 * Math.sin(i * 0.37);
  }
  y[123_457] = 5;
  y[800_000] = -4;
  const svg = renderLinePlot({ xLabel: 'i', yLabel: 'y', series: [line('big', x, y)] });

  it('gives a small file with at most 2 points per pixel column', () => {
    // measured 14 419 bytes and 1276 points for a 640 px wide plot area
    expect(svg.length).toBeLessThan(200_000);
    checkWellFormed(svg);
    const f = frame(svg);
    const lines = polylines(svg);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThanOrEqual(2 * f.w);
    expect(svg).toMatch(/big \(1000000 points, \d+ drawn\)/);
  });

  it('still draws the maximum and the minimum at their pixel positions', () => {
    expect(xTicks(svg)).toEqual(['0', '2e+5', '4e+5', '6e+5', '8e+5', '1e+6']);
    expect(yTicks(svg)).toEqual(['-4', '-2', '0', '2', '4', '6']);
    const X = tickMap(svg, 'x-ticks');
    const Y = tickMap(svg, 'y-ticks');
    const pts = lines(svg);
    const top = pts.reduce((a, p) => (p[1] < a[1] ? p : a));
    const bottom = pts.reduce((a, p) => (p[1] > a[1] ? p : a));
    // measured 0.012 px at most; coordinates are rounded to 0.1 px, so up to 0.05 px each is exact
    expect(Math.abs(top[0] - X(123_457))).toBeLessThanOrEqual(0.1);
    expect(Math.abs(top[1] - Y(5))).toBeLessThanOrEqual(0.1);
    expect(Math.abs(bottom[0] - X(800_000))).toBeLessThanOrEqual(0.1);
    expect(Math.abs(bottom[1] - Y(-4))).toBeLessThanOrEqual(0.1);
  });

  function lines(s: string): [number, number][] {
    return polylines(s).flat();
  }
});

describe('renderLinePlot: properties (fast-check)', () => {
  const value = fc.oneof(
    fc.double(),
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      0,
      -0,
      1.7976931348623157e308,
      -1.7976931348623157e308,
      5e-324,
      1,
    ),
  );
  const seriesArb = fc
    .integer({ min: 0, max: 40 })
    .chain((n) =>
      fc.tuple(
        fc.array(value, { minLength: n, maxLength: n }),
        fc.array(value, { minLength: n, maxLength: n }),
      ),
    );

  it('random finite/non-finite arrays never throw, never write NaN or Infinity, stay well-formed', () => {
    fc.assert(
      fc.property(
        fc.array(seriesArb, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('linear-auto', 'linear-equal', 'log-auto'),
        fc.integer({ min: 200, max: 1200 }),
        fc.integer({ min: 150, max: 800 }),
        (arrays, mode, width, height) => {
          const [scale, aspect] = mode.split('-') as ['linear' | 'log', 'auto' | 'equal'];
          const spec: LinePlotSpec = {
            xLabel: 'x',
            yLabel: 'y',
            yScale: scale,
            aspect,
            width,
            height,
            series: arrays.map(([xs, ys], k) => line(`s${k}`, xs, ys)),
          };
          const svg = renderLinePlot(spec);
          expect(svg).not.toMatch(/NaN|Infinity|undefined/);
          checkWellFormed(svg);
          expect(renderLinePlot(spec)).toBe(svg);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});

describe('plotFromSeries', () => {
  const result = {
    t: [0, 0.5, 1],
    q: [
      [1, 0, 5],
      [0.5, 0.5, 6],
      [0, 1, 7],
    ],
    energy: [0.5, 0.5, null],
    x: [0, 1, 2],
    y: [0, 1, 4],
  };

  it('t against a scalar field', () => {
    const spec = plotFromSeries(result, { y: ['energy'] }, { title: 'energy' });
    expect(spec.xLabel).toBe('t');
    expect(spec.yLabel).toBe('energy');
    expect(spec.title).toBe('energy');
    expect(spec.series.map((s) => s.name)).toEqual(['energy']);
    expect(Array.from(spec.series[0]!.x)).toEqual([0, 0.5, 1]);
    // null (JSON's non-finite number) becomes a gap
    expect(Number.isNaN(spec.series[0]!.y[2]!)).toBe(true);
    const svg = renderLinePlot(spec);
    checkWellFormed(svg);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('a vector field gives one line per (chosen) component', () => {
    expect(plotFromSeries(result, { y: ['q'] }).series.map((s) => s.name)).toEqual([
      'q[0]',
      'q[1]',
      'q[2]',
    ]);
    const two = plotFromSeries(result, { y: ['q'], components: [2, 0] });
    expect(two.series.map((s) => s.name)).toEqual(['q[2]', 'q[0]']);
    expect(Array.from(two.series[0]!.y)).toEqual([5, 6, 7]);
  });

  it('x against y with equal aspect, and components as references', () => {
    const xy = plotFromSeries(result, { x: 'x', y: ['y'], aspect: 'equal' }, { width: 400 });
    expect(xy).toMatchObject({ xLabel: 'x', yLabel: 'y', aspect: 'equal', width: 400 });
    expect(Array.from(xy.series[0]!.x)).toEqual([0, 1, 2]);
    const qq = plotFromSeries(result, { x: 'q[0]', y: ['q[1]'] }, { xLabel: 'q₀', yLabel: 'q₁' });
    expect(qq.series.map((s) => s.name)).toEqual(['q[1]']);
    expect(Array.from(qq.series[0]!.x)).toEqual([1, 0.5, 0]);
    expect(qq).toMatchObject({ xLabel: 'q₀', yLabel: 'q₁' });
    expect('title' in qq).toBe(false);
  });

  it("accepts the runner's flat { width, data } layout and typed arrays", () => {
    const spec = plotFromSeries(
      { t: Float64Array.of(0, 1), R: { width: 2, data: Float64Array.of(1, 2, 3, 4) } },
      { y: ['R'] },
    );
    expect(spec.series.map((s) => [s.name, Array.from(s.y)])).toEqual([
      ['R[0]', [1, 3]],
      ['R[1]', [2, 4]],
    ]);
  });

  it("takes the registry's plot choices as they are (plate-ball x–y, so3-steering ξ₁, ξ₂)", () => {
    const plate = plotFromSeries(
      { t: [0, 1, 2], x: [0, 0.1, 0.3], y: [0, 0.05, 0.1] },
      findProblem('plate-ball')!.plot,
      { title: 'plate-ball' },
    );
    expect(plate).toMatchObject({ xLabel: 'x', yLabel: 'y', aspect: 'equal' });
    const steer = plotFromSeries(
      {
        t: [0, 1],
        xi: [
          [0.1, 0.2, 0],
          [0.3, 0.4, 0],
        ],
      },
      findProblem('so3-steering')!.plot,
    );
    expect(steer.series.map((s) => s.name)).toEqual(['xi[0]', 'xi[1]']);
    for (const spec of [plate, steer]) checkWellFormed(renderLinePlot(spec));
  });

  it('bad choices throw typed errors naming the field', () => {
    expect(() => plotFromSeries(result, { y: ['nope'] })).toThrow(
      /plot: series field: one of t, q, energy, x, y \(got nope\)/,
    );
    expect(() => plotFromSeries(result, { y: ['constructor'] })).toThrow(DomainError);
    expect(() => plotFromSeries(result, { y: [] })).toThrow(DomainError);
    expect(() => plotFromSeries(result, { x: 'q', y: ['energy'] })).toThrow(DomainError);
    expect(() => plotFromSeries(result, { y: ['q'], components: [3] })).toThrow(DomainError);
    expect(() => plotFromSeries(result, { y: ['energy[0]'] })).toThrow(DomainError);
    expect(() => plotFromSeries({ q: [1, 2] }, { y: ['q'] })).toThrow(/t/);
    expect(() => plotFromSeries({ t: [0, 1], q: [1] }, { y: ['q'] })).toThrow(DimensionError);
    expect(() => plotFromSeries({ t: [0, 1], q: [[1, 2], [1]] }, { y: ['q'] })).toThrow(
      DimensionError,
    );
    expect(() => plotFromSeries({ t: [0, 1], q: ['a', 'b'] }, { y: ['q'] })).toThrow(DomainError);
    expect(() => plotFromSeries({ t: [0, 1], q: 3 }, { y: ['q'] })).toThrow(DomainError);
  });
});

describe('renderLinePlot: crowded legends', () => {
  it('many series in a small plot: the legend keeps to its share and counts the rest', () => {
    const series = Array.from({ length: 40 }, (_, k) => line(`series${k}`, [0, 1], [k, k + 1]));
    const svg = renderLinePlot({ xLabel: 'x', yLabel: 'y', width: 320, height: 160, series });
    checkWellFormed(svg);
    // 160 px high: 4 rows; 0.3 × 320 px wide: 1 column; 3 entries and "+37 more"
    expect(svg.match(/<g class="legend-entry">/g)).toHaveLength(3);
    expect(svg).toMatch(/<text class="legend-more"[^>]*>\+37 more<\/text>/);
    expect(svg.match(/<g class="series"/g)).toHaveLength(40);
    // a legend that would leave the plot area < 35% of the width is left out (and said so)
    const narrow = renderLinePlot({
      xLabel: 'x',
      yLabel: 'y',
      width: 200,
      height: 150,
      series: [line('a', [0, 1], [-1.7e308, 1.2e307]), line('b', [0, 1], [1, 2])],
    });
    checkWellFormed(narrow);
    expect(narrow).not.toContain('class="legend"');
    expect(narrow).toContain('Legend omitted: the plot is too narrow for it.');
    expect(frame(narrow).w).toBeGreaterThanOrEqual(80);
    // dash patterns distinguish series beyond the 8 palette colours
    expect(svg).toMatch(/data-name="series8" stroke="#0072B2"[^>]*stroke-dasharray="6 3"/);
  });
});
