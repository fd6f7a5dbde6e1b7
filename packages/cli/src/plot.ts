/**
 * Dependency-free SVG line plots for `--plot FILE.svg` (CLI contract `../shared/spec/CLI.md`,
 * `simulate` and `solve`; issue 9). {@link renderLinePlot} draws named `(x, y)` series as
 * polylines on a framed axis pair with "nice" 1-2-5 ticks (or decades on a log axis), axis labels,
 * a title and a legend; {@link plotFromSeries} turns the `series` object of a CLI result into such
 * a plot description. No DOM, no Node API: the module runs unchanged in a browser.
 *
 * Guarantees: the output is well-formed XML with every text escaped; it never contains `NaN` or
 * `Infinity` (non-finite points break the line, and non-positive values are dropped from a log
 * axis, both counted in the `<desc>`); it is deterministic, byte for byte; and long series are
 * decimated per pixel column (the first minimum and maximum of each run of points in one column
 * are kept, in their original order), so a polyline with monotone x has at most two points per
 * pixel column and the extremes of the data are still drawn where they are.
 *
 * @module
 */
import { DimensionError, DomainError } from '@geomech/core';

/** One named line: `y[i]` against `x[i]`; `x` and `y` have the same length. */
export interface LineSeries {
  readonly name: string;
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
}

/** What {@link renderLinePlot} draws. */
export interface LinePlotSpec {
  readonly title?: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
  /** `log`: decades as ticks; non-positive values are dropped (and counted). Default `linear`. */
  readonly yScale?: 'linear' | 'log';
  /** Pixel width of the SVG, default 720. */
  readonly width?: number;
  /** Pixel height of the SVG, default 450. */
  readonly height?: number;
  /** `equal`: one unit is the same length on both axes (trajectories in the plane). */
  readonly aspect?: 'auto' | 'equal';
}

/** Which fields of a result's `series` object to draw (structurally a registry `PlotChoice`). */
export interface PlotFieldChoice {
  /** Field on the x axis, default `t`; `name[j]` picks component j of a vector field. */
  readonly x?: string;
  /** Fields drawn against x; a vector field gives one line per component (`q[0]`, `q[1]`, ...). */
  readonly y: readonly string[];
  /** Components of the vector y fields to draw (default: all). */
  readonly components?: readonly number[];
  readonly yScale?: 'linear' | 'log';
  readonly aspect?: 'auto' | 'equal';
}

/** Texts and size of a plot made by {@link plotFromSeries}. */
export interface PlotLabels {
  readonly title?: string;
  /** Default: the x field name. */
  readonly xLabel?: string;
  /** Default: the y field names, comma separated. */
  readonly yLabel?: string;
  readonly width?: number;
  readonly height?: number;
}

// ---------------------------------------------------------------------------------------------
// Look and layout.

/** Okabe–Ito colour-blind-safe palette, yellow last (weak on white); cycles with dash patterns. */
const PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#F0E442',
] as const;
const DASHES = ['', '6 3', '2 3', '8 3 2 3'] as const;
const FONT = 'Helvetica, Arial, sans-serif';
const TICK_FONT = 12;
const LABEL_FONT = 13;
const TITLE_FONT = 15;
/** Rough average advance of a character, in ems, for layout (digits and Latin text). */
const CHAR_EM = 0.6;
const TICK_LEN = 5;
const MINOR_TICK_LEN = 3;
const LEGEND_ROW = 18;
const LEGEND_SAMPLE = 24;
/** Largest share of the width the legend may take (names are truncated, entries summarized). */
const LEGEND_MAX_FRACTION = 0.3;
const MIN_WIDTH = 200;
const MIN_HEIGHT = 150;
const MAX_SIZE = 20000;
/** Most ticks per axis (1-2-5 steps are chosen to give 4-8 on a linear axis). */
const MAX_TICKS = 8;
/** Caps of the left and right margins, and the least plot width kept when a legend is drawn. */
const MAX_LEFT_SHARE = 0.4;
const MAX_RIGHT_SHARE = 0.2;
const MIN_PLOT_SHARE = 0.35;
/** Least gap between neighbouring x tick labels, and least spacing of y ticks, in px. */
const X_LABEL_GAP = 10;
const Y_TICK_SPACING = TICK_FONT + 6;
/** A range narrower than this, relative to its magnitude, is treated as a single value. */
const DEGENERATE_REL = 1e-13;
/** Magnitudes outside [1e-200, 1e200] are rescaled by a power of ten before any arithmetic. */
const RESCALE_ABOVE = 1e200;
const RESCALE_BELOW = 1e-200;
/** Relative margin added around the data of an equal-aspect plot. */
const EQUAL_MARGIN = 0.04;

// ---------------------------------------------------------------------------------------------
// Text.

/**
 * Escapes text for XML content and attribute values, and replaces characters XML 1.0 forbids
 * (control characters, lone surrogates, U+FFFE/U+FFFF) by U+FFFD.
 */
function xml(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (
      (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) ||
      (c >= 0xd800 && c <= 0xdfff) ||
      c === 0xfffe ||
      c === 0xffff
    )
      out += '\uFFFD';
    else out += ch;
  }
  return out;
}

/** A pixel coordinate, rounded to 0.1 px, never `-0`. Callers pass finite numbers only. */
function px(v: number): string {
  const r = Math.round(v * 10) / 10;
  return r === 0 ? '0' : String(r);
}

/** Estimated rendered width of `text` at `fontSize`. */
function textWidth(text: string, fontSize: number): number {
  return Array.from(text).length * CHAR_EM * fontSize;
}

/** `text` cut to at most `chars` characters, with an ellipsis when cut. */
function truncate(text: string, chars: number): string {
  const cps = Array.from(text);
  return cps.length <= chars ? text : `${cps.slice(0, Math.max(1, chars - 1)).join('')}…`;
}

/**
 * The decimal `n × 10^e` (n a safe integer) in positional notation, exactly: no binary noise
 * such as `0.30000000000000004`.
 */
function fixedDecimal(n: number, e: number): string {
  if (n === 0) return '0';
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.abs(n));
  if (e >= 0) return sign + digits + '0'.repeat(e);
  const d = -e;
  let s =
    digits.length > d
      ? `${digits.slice(0, digits.length - d)}.${digits.slice(digits.length - d)}`
      : `0.${'0'.repeat(d - digits.length)}${digits}`;
  s = s.replace(/0+$/, '').replace(/\.$/, '');
  return sign + s;
}

/** The decimal `n × 10^e` in compact exponent notation: `1e-6`, `2.5e+3`, and `2.5` for e = 0. */
function expDecimal(n: number, e: number): string {
  if (n === 0) return '0';
  const sign = n < 0 ? '-' : '';
  let digits = String(Math.abs(n));
  const stripped = digits.replace(/0+$/, '');
  e += digits.length - stripped.length;
  digits = stripped;
  const exponent = e + digits.length - 1;
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  if (exponent === 0) return sign + mantissa;
  return `${sign}${mantissa}e${exponent > 0 ? '+' : '-'}${Math.abs(exponent)}`;
}

/**
 * Labels for the ticks `n_i × 10^e_i` of one axis: all positional or all in exponent notation,
 * whichever is shorter in total (ties go to positional), so one axis never mixes styles.
 */
function tickLabels(decimals: readonly (readonly [number, number])[]): string[] {
  const fixed = decimals.map(([n, e]) => fixedDecimal(n, e));
  const exp = decimals.map(([n, e]) => expDecimal(n, e));
  const len = (a: readonly string[]) => a.reduce((s, t) => s + t.length, 0);
  return len(exp) < len(fixed) ? exp : fixed;
}

// ---------------------------------------------------------------------------------------------
// Axes.

interface Tick {
  /** Position in axis units. */
  readonly at: number;
  readonly label: string;
}

/** An axis: data value `v` sits at `toUnits(v)` in axis units, drawn over [lo, hi]. */
interface Axis {
  readonly log: boolean;
  /** Power-of-ten rescaling of a linear axis, split in two factors that cannot overflow. */
  readonly f1: number;
  readonly f2: number;
  readonly lo: number;
  readonly hi: number;
  readonly ticks: readonly Tick[];
  readonly minor: readonly number[];
}

function toUnits(axis: Pick<Axis, 'log' | 'f1' | 'f2'>, v: number): number {
  return axis.log ? Math.log10(v) : v * axis.f1 * axis.f2;
}

/** Decimal exponent p by which values of magnitude `m` are divided (0 for ordinary magnitudes). */
function rescaleExponent(m: number): number {
  if (m > RESCALE_ABOVE || (m > 0 && m < RESCALE_BELOW)) return Math.floor(Math.log10(m));
  return 0;
}

function rescaleFactors(p: number): [number, number] {
  const half = Math.trunc(p / 2);
  return [10 ** -half, 10 ** -(p - half)];
}

/** `[min, max]` widened to a usable range when empty, constant or narrower than rounding. */
function padRange(min: number, max: number): [number, number] {
  if (!(min <= max)) return [0, 1];
  const mag = Math.max(Math.abs(min), Math.abs(max));
  if (max - min > DEGENERATE_REL * mag) return [min, max];
  const c = min / 2 + max / 2;
  const half = c === 0 ? 1 : Math.abs(c) * 0.1;
  return [c - half, c + half];
}

/** Rounding slack for `q = v / step` when snapping to an integer multiple. */
function slack(q: number): number {
  return 1e-9 + 1e-15 * Math.abs(q);
}

/**
 * Linear ticks at `k × m × 10^e` (m ∈ {1, 2, 5}) over [min, max], at most `maxTicks` with the
 * smallest such step. `extend`: the range grows to the enclosing tick multiples;
 * otherwise ticks lie inside the given range. `p` is the axis rescaling exponent (labels show
 * the unscaled values).
 */
function linearTicks(
  min: number,
  max: number,
  extend: boolean,
  p: number,
  maxTicks: number,
): { lo: number; hi: number; ticks: Tick[] } {
  const span = max - min;
  const e0 = Math.floor(Math.log10(span / maxTicks)) - 1;
  let best: { lo: number; hi: number; k0: number; k1: number; m: number; e: number } | undefined;
  for (let i = 0; i < 60 && best === undefined; i++) {
    const e = e0 + Math.floor(i / 3);
    const m = [1, 2, 5][i % 3]!;
    const step = e >= 0 ? m * 10 ** e : m / 10 ** -e;
    const qlo = min / step;
    const qhi = max / step;
    const k0 = extend ? Math.floor(qlo + slack(qlo)) : Math.ceil(qlo - slack(qlo));
    const k1 = extend ? Math.ceil(qhi - slack(qhi)) : Math.floor(qhi + slack(qhi));
    if (
      k1 > k0 &&
      k1 - k0 + 1 <= maxTicks &&
      Number.isSafeInteger(k0 * m) &&
      Number.isSafeInteger(k1 * m)
    )
      best = { lo: extend ? k0 * step : min, hi: extend ? k1 * step : max, k0, k1, m, e };
  }
  if (best === undefined) return { lo: min, hi: max, ticks: [] };
  const { k0, k1, m, e } = best;
  const step = e >= 0 ? m * 10 ** e : m / 10 ** -e;
  const decimals: (readonly [number, number])[] = [];
  for (let k = k0; k <= k1; k++) decimals.push([k * m, e + p]);
  const labels = tickLabels(decimals);
  const ticks = labels.map((label, i) => ({ at: (k0 + i) * step, label }));
  return { lo: best.lo, hi: best.hi, ticks };
}

/** Decade ticks over [min, max] (log10 units): every d-th decade, d ∈ {1, 2, 5, 10, ...}. */
function logAxis(min: number, max: number, maxTicks: number): Axis {
  let j0 = Math.floor(min);
  let j1 = Math.ceil(max);
  if (!(j0 < j1)) {
    j0 = Number.isFinite(j0) ? j0 - 1 : 0;
    j1 = j0 + 2;
  }
  let d = 1;
  for (let i = 0; Math.ceil(j1 / d) - Math.floor(j0 / d) + 1 > maxTicks; i++) {
    d = [1, 2, 5][(i + 1) % 3]! * 10 ** Math.floor((i + 1) / 3);
  }
  const k0 = Math.floor(j0 / d);
  const k1 = Math.ceil(j1 / d);
  const decimals: (readonly [number, number])[] = [];
  for (let k = k0; k <= k1; k++) decimals.push([1, k * d]);
  const labels = tickLabels(decimals);
  const minor: number[] = [];
  if (d === 1 && k1 - k0 <= 6) {
    for (let j = k0; j < k1; j++) for (let m = 2; m <= 9; m++) minor.push(j + Math.log10(m));
  }
  return {
    log: true,
    f1: 1,
    f2: 1,
    lo: k0 * d,
    hi: k1 * d,
    ticks: labels.map((label, i) => ({ at: (k0 + i) * d, label })),
    minor,
  };
}

function linearAxis(min: number, max: number, extend: boolean, p: number, maxTicks: number): Axis {
  const [f1, f2] = rescaleFactors(p);
  const t = linearTicks(min, max, extend, p, maxTicks);
  return { log: false, f1, f2, lo: t.lo, hi: t.hi, ticks: t.ticks, minor: [] };
}

/**
 * The axis `make(maxTicks)` with the most ticks (at most {@link MAX_TICKS}) whose spacing on
 * `lengthPx` pixels is at least `room(axis)`: tick labels never overlap.
 */
function fitted(
  make: (maxTicks: number) => Axis,
  lengthPx: number,
  room: (axis: Axis) => number,
): Axis {
  let axis = make(MAX_TICKS);
  for (let m = MAX_TICKS - 1; m >= 2; m--) {
    const a = axis.ticks[0];
    const b = axis.ticks[1];
    if (a === undefined || b === undefined) break;
    if ((Math.abs(b.at - a.at) / (axis.hi - axis.lo)) * lengthPx >= room(axis)) break;
    const fewer = make(m);
    if (fewer.ticks.length < 2) break; // keep the last axis with ticks
    axis = fewer;
  }
  return axis;
}

function maxLabelWidth(axis: Axis): number {
  return axis.ticks.reduce((w, t) => Math.max(w, textWidth(t.label, TICK_FONT)), 0);
}

const xRoom = (axis: Axis): number => maxLabelWidth(axis) + X_LABEL_GAP;
const yRoom = (): number => Y_TICK_SPACING;

// ---------------------------------------------------------------------------------------------
// Data extents.

interface Extents {
  /** Raw x range and raw (linear) or log10 (log) y range of the drawable points. */
  xmin: number;
  xmax: number;
  ymin: number;
  ymax: number;
  drawable: number;
  nonFinite: number[];
  nonPositive: number[];
}

function extents(series: readonly LineSeries[], log: boolean): Extents {
  const ex: Extents = {
    xmin: Number.POSITIVE_INFINITY,
    xmax: Number.NEGATIVE_INFINITY,
    ymin: Number.POSITIVE_INFINITY,
    ymax: Number.NEGATIVE_INFINITY,
    drawable: 0,
    nonFinite: [],
    nonPositive: [],
  };
  for (const s of series) {
    let nonFinite = 0;
    let nonPositive = 0;
    const n = s.x.length;
    for (let i = 0; i < n; i++) {
      const x = s.x[i]!;
      const y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        nonFinite++;
        continue;
      }
      if (log && !(y > 0)) {
        nonPositive++;
        continue;
      }
      const yu = log ? Math.log10(y) : y;
      if (x < ex.xmin) ex.xmin = x;
      if (x > ex.xmax) ex.xmax = x;
      if (yu < ex.ymin) ex.ymin = yu;
      if (yu > ex.ymax) ex.ymax = yu;
      ex.drawable++;
    }
    ex.nonFinite.push(nonFinite);
    ex.nonPositive.push(nonPositive);
  }
  return ex;
}

// ---------------------------------------------------------------------------------------------
// Decimated paths.

/** Builds the polylines (and isolated dots) of one series, decimated per pixel column. */
class PathBuilder {
  readonly polylines: string[] = [];
  readonly dots: string[] = [];
  private readonly dotKeys = new Set<string>();
  private cur: string[] = [];
  private last = '';
  private runOpen = false;
  private runCol = 0;
  private minX = 0;
  private minY = 0;
  private minI = 0;
  private maxX = 0;
  private maxY = 0;
  private maxI = 0;
  drawn = 0;

  constructor(
    private readonly left: number,
    private readonly columns: number,
  ) {}

  /** Adds the point with pixel coordinates (x, y), index i. */
  add(x: number, y: number, i: number): void {
    const col = Math.min(this.columns - 1, Math.max(0, Math.floor(x - this.left)));
    if (this.runOpen && col !== this.runCol) this.flushRun();
    if (!this.runOpen) {
      this.runOpen = true;
      this.runCol = col;
      this.minX = this.maxX = x;
      this.minY = this.maxY = y;
      this.minI = this.maxI = i;
      return;
    }
    if (y < this.minY) {
      this.minX = x;
      this.minY = y;
      this.minI = i;
    }
    if (y > this.maxY) {
      this.maxX = x;
      this.maxY = y;
      this.maxI = i;
    }
  }

  /** Ends the current line (a non-drawable point or the end of the series). */
  breakLine(): void {
    this.flushRun();
    if (this.cur.length >= 2) {
      this.polylines.push(this.cur.join(' '));
      this.drawn += this.cur.length;
    } else if (this.cur.length === 1) {
      const key = this.cur[0]!;
      if (!this.dotKeys.has(key)) {
        this.dotKeys.add(key);
        this.dots.push(key);
        this.drawn++;
      }
    }
    this.cur = [];
    this.last = '';
  }

  private flushRun(): void {
    if (!this.runOpen) return;
    this.runOpen = false;
    if (this.minI === this.maxI) this.emit(this.minX, this.minY);
    else if (this.minI < this.maxI) {
      this.emit(this.minX, this.minY);
      this.emit(this.maxX, this.maxY);
    } else {
      this.emit(this.maxX, this.maxY);
      this.emit(this.minX, this.minY);
    }
  }

  private emit(x: number, y: number): void {
    const p = `${px(x)},${px(y)}`;
    if (p === this.last) return;
    this.last = p;
    this.cur.push(p);
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering.

function checkSize(what: string, v: number | undefined, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v < min || v > MAX_SIZE)
    throw new DomainError(`plot: ${what}`, v, `a number of pixels in [${min}, ${MAX_SIZE}]`);
  return v;
}

function validate(spec: LinePlotSpec): void {
  if (spec.series.length === 0)
    throw new DomainError('plot: series', '[]', 'at least one series to draw');
  for (const s of spec.series) {
    if (s.x.length !== s.y.length)
      throw new DimensionError(`plot: series '${s.name}' y length`, s.x.length, s.y.length);
  }
  const yScale = spec.yScale ?? 'linear';
  if (yScale !== 'linear' && yScale !== 'log')
    throw new DomainError('plot: yScale', yScale, "'linear' or 'log'");
  const aspect = spec.aspect ?? 'auto';
  if (aspect !== 'auto' && aspect !== 'equal')
    throw new DomainError('plot: aspect', aspect, "'auto' or 'equal'");
  if (aspect === 'equal' && yScale === 'log')
    throw new DomainError('plot: aspect', aspect, "'equal' needs a linear y axis");
}

/** Both axes for a plot area of pw × ph pixels. */
function makeAxes(
  ex: Extents,
  log: boolean,
  equal: boolean,
  pw: number,
  ph: number,
): { x: Axis; y: Axis } {
  const any = ex.drawable > 0;
  const mx = any ? Math.max(Math.abs(ex.xmin), Math.abs(ex.xmax)) : 0;
  const my = any && !log ? Math.max(Math.abs(ex.ymin), Math.abs(ex.ymax)) : 0;
  if (equal) {
    const p = rescaleExponent(Math.max(mx, my));
    const [f1, f2] = rescaleFactors(p);
    let [x0, x1] = any ? padRange(ex.xmin * f1 * f2, ex.xmax * f1 * f2) : [0, 1];
    let [y0, y1] = any ? padRange(ex.ymin * f1 * f2, ex.ymax * f1 * f2) : [0, 1];
    const grow = (a: number, b: number): [number, number] => {
      const m = (b - a) * EQUAL_MARGIN;
      return [a - m, b + m];
    };
    [x0, x1] = grow(x0, x1);
    [y0, y1] = grow(y0, y1);
    const unit = Math.max((x1 - x0) / pw, (y1 - y0) / ph);
    const cx = x0 / 2 + x1 / 2;
    const cy = y0 / 2 + y1 / 2;
    return {
      x: fitted(
        (m) => linearAxis(cx - (unit * pw) / 2, cx + (unit * pw) / 2, false, p, m),
        pw,
        xRoom,
      ),
      y: fitted(
        (m) => linearAxis(cy - (unit * ph) / 2, cy + (unit * ph) / 2, false, p, m),
        ph,
        yRoom,
      ),
    };
  }
  const pX = rescaleExponent(mx);
  const [fx1, fx2] = rescaleFactors(pX);
  const [x0, x1] = any ? padRange(ex.xmin * fx1 * fx2, ex.xmax * fx1 * fx2) : [0, 1];
  const x = fitted((m) => linearAxis(x0, x1, true, pX, m), pw, xRoom);
  if (log)
    return { x, y: fitted((m) => logAxis(any ? ex.ymin : 0, any ? ex.ymax : 1, m), ph, yRoom) };
  const py = rescaleExponent(my);
  const [fy1, fy2] = rescaleFactors(py);
  const [y0, y1] = any ? padRange(ex.ymin * fy1 * fy2, ex.ymax * fy1 * fy2) : [0, 1];
  return { x, y: fitted((m) => linearAxis(y0, y1, true, py, m), ph, yRoom) };
}

/**
 * Renders named `(x, y)` series as an SVG line plot (the `--plot` output of `geomech simulate`
 * and `geomech solve`, CLI contract `../shared/spec/CLI.md`, issue 9).
 *
 * White background, framed plot area with light grid, 1-2-5 ticks (4-8 per linear axis, fewer
 * only where wide labels would overlap; the range is extended to the enclosing ticks, except
 * with `aspect: 'equal'`), decade ticks on a log y axis (non-positive values dropped), tick
 * labels as exact decimals (`0.05`, `1e-6`, `2.5e+5`: positional or exponent notation per axis,
 * whichever is shorter), axis labels, optional title, a legend when there are two or more series
 * (left out, and said so in the `<desc>`, when the plot is too narrow), Okabe–Ito colours (then
 * dashes), `vector-effect="non-scaling-stroke"` polylines. Constant data and single points get a
 * padded range; magnitudes up to ±1.8e308 and subnormals are handled without overflow. Non-finite points break a line;
 * isolated points are drawn as dots. Series are decimated per pixel column (first minimum and
 * maximum of each run of points in one column), so a series with monotone x gives at most
 * 2 × (plot width) points while its extremes are drawn at their exact positions. The `<desc>`
 * lists points, drawn points and dropped values per series. Same input, same bytes.
 *
 * @throws DomainError for no series, a size outside [200, 20000] × [150, 20000], or an unknown
 *   `yScale`/`aspect` (and `aspect: 'equal'` with a log axis).
 * @throws DimensionError when a series' `x` and `y` lengths differ.
 * @example
 * ```ts
 * const t = [0, 0.5, 1];
 * const svg = renderLinePlot({
 *   title: 'Damped oscillator',
 *   xLabel: 't',
 *   yLabel: 'q',
 *   series: [{ name: 'q', x: t, y: [1, 0.6, 0.2] }],
 * });
 * svg.startsWith('<svg'); // true
 * ```
 */
export function renderLinePlot(spec: LinePlotSpec): string {
  validate(spec);
  const W = checkSize('width', spec.width, 720, MIN_WIDTH);
  const H = checkSize('height', spec.height, 450, MIN_HEIGHT);
  const log = (spec.yScale ?? 'linear') === 'log';
  const equal = (spec.aspect ?? 'auto') === 'equal';
  const series = spec.series;
  const ex = extents(series, log);

  // Vertical layout is fixed; the left margin follows the y tick labels, the right one the
  // legend (or the half-width of the last x tick label).
  const hasTitle = spec.title !== undefined && spec.title !== '';
  const top = hasTitle ? 40 : 16;
  const bottom = TICK_LEN + 4 + TICK_FONT + 12 + LABEL_FONT + 8;
  const ph = H - top - bottom;

  let legend = series.length >= 2;
  let legendW = 0;
  let legendCols = 1;
  let legendRows = series.length;
  let nameChars = 0;
  /** Legend entries shown; when they do not all fit, the last slot says "+N more". */
  let legendShown = series.length;
  if (legend) {
    const fixedPart = 10 + LEGEND_SAMPLE + 6 + 10;
    legendRows = Math.max(1, Math.min(series.length, Math.floor((ph - 12) / LEGEND_ROW)));
    legendCols = Math.ceil(series.length / legendRows);
    const maxCols = Math.max(
      1,
      Math.floor((LEGEND_MAX_FRACTION * W - 4) / (fixedPart + 3 * CHAR_EM * TICK_FONT)),
    );
    if (legendCols > maxCols) {
      legendCols = maxCols;
      legendShown = legendRows * legendCols - 1;
    }
    const longest = series.reduce((m, s) => Math.max(m, Array.from(s.name).length), 1);
    const maxColW = (LEGEND_MAX_FRACTION * W - 12) / legendCols;
    nameChars = Math.max(
      3,
      Math.min(longest, Math.floor((maxColW - fixedPart) / (CHAR_EM * TICK_FONT))),
    );
    legendW = legendCols * (fixedPart + nameChars * CHAR_EM * TICK_FONT) + 4;
  }

  // Margins for tick labels are capped (pathological labels overflow rather than squeeze the
  // plot), and the legend is left out, with a note in the <desc>, when it would leave the plot
  // area less than MIN_PLOT_SHARE of the width.
  const leftFor = (y: Axis, x: Axis): number => {
    const firstX = x.ticks[0];
    const half = firstX === undefined ? 0 : textWidth(firstX.label, TICK_FONT) / 2 + 4;
    const want = Math.max(12 + LABEL_FONT + 10 + maxLabelWidth(y) + TICK_LEN + 4, half);
    return Math.ceil(Math.min(want, MAX_LEFT_SHARE * W));
  };
  const rightFor = (x: Axis, withLegend: boolean): number => {
    if (withLegend) return Math.ceil(legendW + 24);
    const lastX = x.ticks[x.ticks.length - 1];
    const half = lastX === undefined ? 0 : textWidth(lastX.label, TICK_FONT) / 2 + 6;
    return Math.ceil(Math.min(Math.max(20, half), MAX_RIGHT_SHARE * W));
  };
  const layout = (withLegend: boolean) => {
    let left = 60;
    let right = rightFor(
      { log: false, f1: 1, f2: 1, lo: 0, hi: 1, ticks: [], minor: [] },
      withLegend,
    );
    let axes = makeAxes(ex, log, equal, Math.max(1, W - left - right), ph);
    for (let iter = 0; iter < 4; iter++) {
      const l = leftFor(axes.y, axes.x);
      const r = rightFor(axes.x, withLegend);
      if (l === left && r === right) break;
      left = l;
      right = r;
      axes = makeAxes(ex, log, equal, Math.max(1, W - left - right), ph);
    }
    return { left, right, axes };
  };
  let lay = layout(legend);
  let legendOmitted = false;
  if (legend && W - lay.left - lay.right < MIN_PLOT_SHARE * W) {
    legend = false;
    legendOmitted = true;
    lay = layout(false);
  }
  const { left, axes } = lay;
  const pw = W - lay.left - lay.right;
  const { x: xa, y: ya } = axes;
  const X = (u: number): number => left + ((u - xa.lo) / (xa.hi - xa.lo)) * pw;
  const Y = (u: number): number => top + ph - ((u - ya.lo) / (ya.hi - ya.lo)) * ph;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(W)}" height="${px(H)}" viewBox="0 0 ${px(W)} ${px(H)}" font-family="${FONT}">`,
  );
  if (hasTitle) out.push(`<title>${xml(spec.title!)}</title>`);

  // Series paths first (the <desc> reports how many points were drawn).
  const columns = Math.max(1, Math.floor(pw));
  const bodies: string[] = [];
  const descSeries: string[] = [];
  for (let k = 0; k < series.length; k++) {
    const s = series[k]!;
    const b = new PathBuilder(left, columns);
    const n = s.x.length;
    for (let i = 0; i < n; i++) {
      const x = s.x[i]!;
      const y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y) || (log && !(y > 0))) {
        b.breakLine();
        continue;
      }
      const sx = X(toUnits(xa, x));
      const sy = Y(toUnits(ya, y));
      if (!Number.isFinite(sx) || !Number.isFinite(sy)) {
        b.breakLine();
        continue;
      }
      b.add(sx, sy, i);
    }
    b.breakLine();
    const colour = PALETTE[k % PALETTE.length]!;
    const dash = DASHES[Math.floor(k / PALETTE.length) % DASHES.length]!;
    const dashAttr = dash === '' ? '' : ` stroke-dasharray="${dash}"`;
    const parts = [
      `<g class="series" data-name="${xml(s.name)}" stroke="${colour}" fill="none" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"${dashAttr}>`,
    ];
    for (const pts of b.polylines)
      parts.push(`<polyline vector-effect="non-scaling-stroke" points="${pts}"/>`);
    for (const d of b.dots) {
      const [cx, cy] = d.split(',');
      parts.push(`<circle cx="${cx}" cy="${cy}" r="1.75" fill="${colour}" stroke="none"/>`);
    }
    parts.push('</g>');
    bodies.push(parts.join('\n'));
    const notes = [`${n} points`, `${b.drawn} drawn`];
    if (ex.nonFinite[k]! > 0) notes.push(`${ex.nonFinite[k]} non-finite skipped`);
    if (ex.nonPositive[k]! > 0) notes.push(`${ex.nonPositive[k]} non-positive dropped`);
    descSeries.push(`${s.name} (${notes.join(', ')})`);
  }
  const totalNonFinite = ex.nonFinite.reduce((a, b) => a + b, 0);
  const totalNonPositive = ex.nonPositive.reduce((a, b) => a + b, 0);
  const desc = [
    `Line plot of ${series.length} series: ${descSeries.join('; ')}.`,
    `y axis: ${log ? 'log' : 'linear'}${equal ? ', equal aspect' : ''}.`,
  ];
  if (totalNonFinite > 0) desc.push(`${totalNonFinite} non-finite points skipped.`);
  if (totalNonPositive > 0)
    desc.push(`${totalNonPositive} non-positive values dropped from the log axis.`);
  if (ex.drawable === 0) desc.push('No drawable points.');
  if (legendOmitted) desc.push('Legend omitted: the plot is too narrow for it.');
  out.push(`<desc>${xml(desc.join(' '))}</desc>`);
  out.push(`<rect class="background" width="${px(W)}" height="${px(H)}" fill="#ffffff"/>`);

  // Grid.
  const grid: string[] = [];
  for (const t of xa.ticks) grid.push(`M${px(X(t.at))} ${px(top)}v${px(ph)}`);
  for (const t of ya.ticks) grid.push(`M${px(left)} ${px(Y(t.at))}h${px(pw)}`);
  if (grid.length > 0)
    out.push(
      `<path class="grid" d="${grid.join('')}" stroke="#e5e5e5" stroke-width="1" fill="none" vector-effect="non-scaling-stroke"/>`,
    );

  out.push(...bodies);

  // Frame and ticks.
  out.push(
    `<rect class="frame" x="${px(left)}" y="${px(top)}" width="${px(pw)}" height="${px(ph)}" fill="none" stroke="#000000" stroke-width="1" vector-effect="non-scaling-stroke"/>`,
  );
  const marks: string[] = [];
  for (const t of xa.ticks) marks.push(`M${px(X(t.at))} ${px(top + ph)}v${TICK_LEN}`);
  for (const t of ya.ticks) marks.push(`M${px(left)} ${px(Y(t.at))}h-${TICK_LEN}`);
  for (const u of ya.minor) marks.push(`M${px(left)} ${px(Y(u))}h-${MINOR_TICK_LEN}`);
  if (marks.length > 0)
    out.push(
      `<path class="ticks" d="${marks.join('')}" stroke="#000000" stroke-width="1" fill="none" vector-effect="non-scaling-stroke"/>`,
    );
  const xLabelY = top + ph + TICK_LEN + 4 + TICK_FONT;
  out.push(`<g class="x-ticks" font-size="${TICK_FONT}" text-anchor="middle" fill="#000000">`);
  for (const t of xa.ticks)
    out.push(`<text x="${px(X(t.at))}" y="${px(xLabelY)}">${xml(t.label)}</text>`);
  out.push('</g>');
  out.push(`<g class="y-ticks" font-size="${TICK_FONT}" text-anchor="end" fill="#000000">`);
  for (const t of ya.ticks)
    out.push(
      `<text x="${px(left - TICK_LEN - 4)}" y="${px(Y(t.at))}" dy="0.32em">${xml(t.label)}</text>`,
    );
  out.push('</g>');

  // Axis labels and title.
  out.push(
    `<text class="x-label" x="${px(left + pw / 2)}" y="${px(H - 10)}" font-size="${LABEL_FONT}" text-anchor="middle">${xml(spec.xLabel)}</text>`,
  );
  const yl = 12 + LABEL_FONT * 0.8;
  const ym = top + ph / 2;
  out.push(
    `<text class="y-label" x="${px(yl)}" y="${px(ym)}" transform="rotate(-90 ${px(yl)} ${px(ym)})" font-size="${LABEL_FONT}" text-anchor="middle">${xml(spec.yLabel)}</text>`,
  );
  if (hasTitle)
    out.push(
      `<text class="title" x="${px(left + pw / 2)}" y="24" font-size="${TITLE_FONT}" font-weight="bold" text-anchor="middle">${xml(spec.title!)}</text>`,
    );

  // Legend.
  if (legend) {
    const lx = left + pw + 16;
    const colW = (legendW - 4) / legendCols;
    const slots = Math.min(series.length, legendRows * legendCols);
    const rows = Math.min(legendRows, slots);
    out.push('<g class="legend">');
    out.push(
      `<rect x="${px(lx)}" y="${px(top)}" width="${px(legendW)}" height="${px(rows * LEGEND_ROW + 8)}" fill="#ffffff" stroke="#999999" stroke-width="1"/>`,
    );
    for (let k = 0; k < slots; k++) {
      const s = series[k]!;
      const ex0 = lx + 2 + Math.floor(k / legendRows) * colW;
      const ey = top + 4 + (k % legendRows) * LEGEND_ROW + LEGEND_ROW / 2;
      if (k >= legendShown) {
        out.push(
          `<text class="legend-more" x="${px(ex0 + 8)}" y="${px(ey)}" dy="0.32em" font-size="${TICK_FONT}">+${series.length - legendShown} more</text>`,
        );
        break;
      }
      const colour = PALETTE[k % PALETTE.length]!;
      const dash = DASHES[Math.floor(k / PALETTE.length) % DASHES.length]!;
      const shown = truncate(s.name, nameChars);
      const tip = shown === s.name ? '' : `<title>${xml(s.name)}</title>`;
      out.push(
        `<g class="legend-entry">${tip}<line x1="${px(ex0 + 8)}" y1="${px(ey)}" x2="${px(ex0 + 8 + LEGEND_SAMPLE)}" y2="${px(ey)}" stroke="${colour}" stroke-width="2"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/><text x="${px(ex0 + 14 + LEGEND_SAMPLE)}" y="${px(ey)}" dy="0.32em" font-size="${TICK_FONT}">${xml(shown)}</text></g>`,
      );
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// From a CLI result's `series` object.

interface Column {
  readonly name: string;
  readonly data: Float64Array;
}

type Entries = ArrayLike<unknown>;

function isArrayLikeOfValues(v: unknown): v is Entries {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function entryNumber(v: unknown, where: string): number {
  if (typeof v === 'number') return v;
  if (v === null) return Number.NaN; // JSON writes non-finite numbers as null
  throw new DomainError(where, typeof v, 'a number (or null for a gap)');
}

/** The columns of a series field: one for scalars, one per component for vectors. */
function fieldColumns(name: string, value: unknown): Column[] {
  const where = `plot: series field '${name}'`;
  // The runner's flat layout: { width, data } with `width` numbers per state.
  if (
    typeof value === 'object' &&
    value !== null &&
    !isArrayLikeOfValues(value) &&
    'width' in value &&
    'data' in value
  ) {
    const { width, data } = value as { width: unknown; data: unknown };
    if (typeof width !== 'number' || !Number.isSafeInteger(width) || width < 1)
      throw new DomainError(`${where} width`, width, 'a positive integer');
    if (!isArrayLikeOfValues(data)) throw new DomainError(`${where} data`, data, 'a number array');
    const count = Math.floor(data.length / width);
    const cols = Array.from({ length: width }, () => new Float64Array(count));
    for (let i = 0; i < count; i++)
      for (let j = 0; j < width; j++)
        cols[j]![i] = entryNumber(data[i * width + j], `${where} data[${i * width + j}]`);
    return cols.map((data, j) => ({ name: width === 1 ? name : `${name}[${j}]`, data }));
  }
  if (!isArrayLikeOfValues(value))
    throw new DomainError(where, typeof value, 'an array with one entry per state');
  const n = value.length;
  let width = 0; // 0: scalar field
  for (let i = 0; i < n; i++) {
    const e = value[i];
    if (isArrayLikeOfValues(e)) {
      width = e.length;
      break;
    }
  }
  if (width === 0) {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = entryNumber(value[i], `${where}[${i}]`);
    return [{ name, data }];
  }
  const cols = Array.from({ length: width }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const e = value[i];
    if (e === null) {
      for (let j = 0; j < width; j++) cols[j]![i] = Number.NaN;
      continue;
    }
    if (!isArrayLikeOfValues(e))
      throw new DomainError(`${where}[${i}]`, typeof e, `an array of ${width} numbers`);
    if (e.length !== width) throw new DimensionError(`${where}[${i}]`, width, e.length);
    for (let j = 0; j < width; j++) cols[j]![i] = entryNumber(e[j], `${where}[${i}][${j}]`);
  }
  return cols.map((data, j) => ({ name: `${name}[${j}]`, data }));
}

/** Resolves a field reference `name` or `name[j]`; `components` filters vector fields. */
function resolve(
  series: Record<string, unknown>,
  ref: string,
  components: readonly number[] | undefined,
): Column[] {
  const has = (k: string) => Object.hasOwn(series, k);
  const known = () => Object.keys(series).join(', ') || '(none)';
  if (has(ref)) {
    const cols = fieldColumns(ref, series[ref]);
    if (cols.length === 1 || components === undefined) return cols;
    return components.map((j) => {
      if (!Number.isSafeInteger(j) || j < 0 || j >= cols.length)
        throw new DomainError(
          `plot: component of '${ref}'`,
          j,
          `an integer in [0, ${cols.length - 1}]`,
        );
      return cols[j]!;
    });
  }
  const m = /^(.*)\[(\d+)\]$/.exec(ref);
  if (m !== null && has(m[1]!)) {
    const cols = fieldColumns(m[1]!, series[m[1]!]);
    const j = Number(m[2]);
    const col = cols.length > 1 ? cols[j] : undefined;
    if (col === undefined)
      throw new DomainError(
        `plot: component of '${m[1]}'`,
        j,
        cols.length > 1 ? `an integer in [0, ${cols.length - 1}]` : 'none: it is a scalar field',
      );
    return [col];
  }
  throw new DomainError('plot: series field', ref, `one of ${known()}`);
}

/**
 * Builds a {@link LinePlotSpec} from the `series` object of a CLI result (contract
 * `../shared/spec/CLI.md`: `"series": { "t": [...], "<field>": [...] }`, one entry per kept
 * state, a number or an array for vector fields), e.g. "t against energy" or "x against y".
 *
 * Each y field gives one line when scalar and one line per component when a vector (named
 * `q[0]`, `q[1]`, ...; `choice.components` picks some). A reference `q[1]` names one component
 * of a vector field, for x or y. `null` entries (JSON's non-finite numbers) become gaps. A field
 * may also be given in the runner's flat layout `{ width, data }` (row-major, `width` numbers
 * per state).
 *
 * @throws DomainError for an unknown field or component, no y field, a non-scalar x, or
 *   non-numeric entries; DimensionError for fields of different lengths or ragged vectors.
 * @example
 * ```ts
 * const spec = plotFromSeries(
 *   { t: [0, 0.1, 0.2], q: [[1, 0], [0.9, 0.1], [0.8, 0.2]] },
 *   { y: ['q'] },
 *   { title: 'pendulum' },
 * );
 * spec.series.map((s) => s.name); // ['q[0]', 'q[1]']
 * const svg = renderLinePlot(spec);
 * ```
 */
export function plotFromSeries(
  series: Record<string, unknown>,
  choice: PlotFieldChoice,
  labels: PlotLabels = {},
): LinePlotSpec {
  if (choice.y.length === 0) throw new DomainError('plot: y', '[]', 'at least one field to draw');
  const xRef = choice.x ?? 't';
  const xCols = resolve(series, xRef, undefined);
  if (xCols.length !== 1)
    throw new DomainError(
      'plot: x',
      xRef,
      `a scalar field or one component such as '${xRef}[0]' (it has ${xCols.length})`,
    );
  const x = xCols[0]!.data;
  const lines: LineSeries[] = [];
  for (const ref of choice.y) {
    for (const col of resolve(series, ref, choice.components)) {
      if (col.data.length !== x.length)
        throw new DimensionError(
          `plot: length of '${col.name}' (against '${xRef}')`,
          x.length,
          col.data.length,
        );
      lines.push({ name: col.name, x, y: col.data });
    }
  }
  const spec: {
    title?: string;
    xLabel: string;
    yLabel: string;
    series: LineSeries[];
    yScale?: 'linear' | 'log';
    aspect?: 'auto' | 'equal';
    width?: number;
    height?: number;
  } = {
    xLabel: labels.xLabel ?? xRef,
    yLabel: labels.yLabel ?? choice.y.join(', '),
    series: lines,
  };
  if (labels.title !== undefined) spec.title = labels.title;
  if (choice.yScale !== undefined) spec.yScale = choice.yScale;
  if (choice.aspect !== undefined) spec.aspect = choice.aspect;
  if (labels.width !== undefined) spec.width = labels.width;
  if (labels.height !== undefined) spec.height = labels.height;
  return spec;
}
