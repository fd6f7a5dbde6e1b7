/**
 * What the site's charts show, computed without a browser so that Node tests can check it: the
 * plot spec an example hands to `plot(spec)`, its checks, the thinning of long series (which keeps
 * every series' extremes), the data ranges and the axis ranges that contain them, and the tick
 * labels of logarithmic axes. The Vue component only turns a {@link PreparedPlot} into a Chart.js
 * configuration.
 *
 * @module
 */

/** One curve of a {@link PlotSpec}: paired x and y samples (equal lengths). */
export interface PlotSeries {
  readonly label: string;
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
  /** Draw points only (no connecting line). Default false. */
  readonly points?: boolean;
}

/** What an example hands to `plot(spec)`: one chart with one or more curves. */
export interface PlotSpec {
  readonly title?: string;
  readonly xLabel?: string;
  readonly yLabel?: string;
  /** Logarithmic y axis (non-positive values are dropped). Default false. */
  readonly yLog?: boolean;
  /** Logarithmic x axis (non-positive values are dropped). Default false. */
  readonly xLog?: boolean;
  readonly series: readonly PlotSeries[];
}

/** A malformed example (an import the runner cannot serve, a bad plot spec, a syntax error). */
export class ExampleError extends Error {
  override readonly name = 'ExampleError';
  /** 1-based line of the example the fault is on, when known. */
  readonly line: number | undefined;
  /** 1-based column of the fault, when known. */
  readonly column: number | undefined;
  constructor(message: string, line?: number, column?: number, options?: { cause?: unknown }) {
    super(
      line === undefined
        ? message
        : `${message} (line ${line}${column === undefined ? '' : `, column ${column}`})`,
      options,
    );
    this.line = line;
    this.column = column;
  }
}

/** The most series one chart draws, and the most points one series keeps after thinning. */
export const PLOT_LIMITS = { series: 24, points: 1500 } as const;

/**
 * Checks a plot spec and returns the number of finite points it holds (all series together).
 * Throws {@link ExampleError} for a spec without series, with more than
 * {@link PLOT_LIMITS}.series series, or with unequal x/y lengths.
 *
 * @example
 * ```ts
 * checkPlotSpec({ series: [{ label: 'y', x: [0, 1], y: [1, 2] }] }); // 2
 * ```
 */
export function checkPlotSpec(spec: PlotSpec): number {
  if (typeof spec !== 'object' || spec === null || !Array.isArray(spec.series))
    throw new ExampleError('plot(spec): spec.series must be an array of { label, x, y }');
  if (spec.series.length === 0) throw new ExampleError('plot(spec): spec.series is empty');
  if (spec.series.length > PLOT_LIMITS.series)
    throw new ExampleError(
      `plot(spec): ${spec.series.length} series; one chart draws at most ${PLOT_LIMITS.series}`,
    );
  let points = 0;
  for (const s of spec.series) {
    if (s === null || typeof s !== 'object' || s.x == null || s.y == null)
      throw new ExampleError('plot(spec): every series needs { label, x, y }');
    if (s.x.length !== s.y.length)
      throw new ExampleError(
        `plot(spec): series '${s.label}' has ${s.x.length} x values and ${s.y.length} y values`,
      );
    for (let i = 0; i < s.x.length; i++) if (keep(spec, s.x[i]!, s.y[i]!)) points++;
  }
  return points;
}

/** True when the point is drawn: both coordinates finite, and positive on a logarithmic axis. */
function keep(spec: PlotSpec, x: number, y: number): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  if (spec.xLog === true && !(x > 0)) return false;
  if (spec.yLog === true && !(y > 0)) return false;
  return true;
}

/**
 * Picks at most `max` evenly spaced sample indices of a series of length `n` (always the first
 * and the last): the chart draws long trajectories without drawing every step.
 *
 * @example
 * ```ts
 * thinIndices(10, 4); // [0, 3, 6, 9]
 * ```
 */
export function thinIndices(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const stride = (n - 1) / (max - 1);
  for (let j = 0; j < max; j++) out.push(Math.round(j * stride));
  return out;
}

/** A closed interval `[min, max]`. */
export type Range = readonly [number, number];

/** One axis of a prepared chart: the range it shows and whether it is logarithmic. */
export interface AxisRange {
  readonly min: number;
  readonly max: number;
  readonly log: boolean;
}

/** A series after thinning: the drawn points only (finite, positive on log axes). */
export interface PreparedSeries {
  readonly label: string;
  readonly x: number[];
  readonly y: number[];
  readonly points: boolean;
}

/** A plot spec made ready to draw: thinned series, the data's ranges and the axes' ranges. */
export interface PreparedPlot {
  readonly title: string | undefined;
  readonly xLabel: string | undefined;
  readonly yLabel: string | undefined;
  readonly series: readonly PreparedSeries[];
  /** Ranges of all drawable points of the spec (before thinning). */
  readonly ranges: { readonly x: Range; readonly y: Range };
  /** Axis ranges: they contain `ranges`. */
  readonly axes: { readonly x: AxisRange; readonly y: AxisRange };
  /** Drawable points of the spec (before thinning). */
  readonly count: number;
}

/** 1, 2, 2.5 or 5 times a power of ten, the smallest at least `raw`. */
function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/**
 * The range of a linear axis for data in `[lo, hi]`: bounds on multiples of a 1-2-2.5-5 step
 * with about `ticks` intervals, so the data fill at least 3/5 of the axis. A single value gets a
 * symmetric margin.
 *
 * @example
 * ```ts
 * linearAxis(-0.711, 0.711); // { min: -0.75, max: 0.75, log: false }
 * ```
 */
export function linearAxis(lo: number, hi: number, ticks = 6): AxisRange {
  if (!(hi > lo)) {
    const d = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    return linearAxis(lo - d, lo + d, ticks);
  }
  const step = niceStep((hi - lo) / ticks);
  let min = Math.floor(lo / step) * step;
  let max = Math.ceil(hi / step) * step;
  if (min > lo) min -= step;
  if (max < hi) max += step;
  // drop the rounding noise of the products (0.30000000000000004 → 0.3) without leaving the data
  const clean = (v: number) => Number.parseFloat(v.toPrecision(12));
  const cmin = clean(min);
  const cmax = clean(max);
  return { min: cmin <= lo ? cmin : min, max: cmax >= hi ? cmax : max, log: false };
}

const MANTISSAS = [1, 2, 5] as const;

/**
 * The range of a logarithmic axis for positive data in `[lo, hi]`: the nearest values 1, 2 or 5
 * times a power of ten outside the data, or, for data spanning less than half a decade, the data
 * widened by a tenth of their span on either side (in log scale).
 *
 * @example
 * ```ts
 * logAxis(0.0125, 0.1); // { min: 0.01, max: 0.1, log: true }
 * ```
 */
export function logAxis(lo: number, hi: number): AxisRange {
  if (!(lo > 0) || !(hi > 0)) throw new RangeError('logAxis needs positive bounds');
  const span = Math.log10(hi) - Math.log10(lo);
  if (span < 0.5) {
    const pad = span > 0 ? span * 0.1 : 0.1;
    return { min: lo / 10 ** pad, max: hi * 10 ** pad, log: true };
  }
  const below = (v: number) => {
    const e = Math.floor(Math.log10(v));
    let best = 10 ** (e - 1) * 5;
    for (const m of MANTISSAS) {
      const c = Number.parseFloat((m * 10 ** e).toPrecision(12));
      if (c <= v) best = c;
    }
    return best;
  };
  const above = (v: number) => {
    const e = Math.floor(Math.log10(v));
    for (const m of MANTISSAS) {
      const c = Number.parseFloat((m * 10 ** e).toPrecision(12));
      if (c >= v) return c;
    }
    return Number.parseFloat((10 ** (e + 1)).toPrecision(12));
  };
  return { min: below(lo), max: above(hi), log: true };
}

/** The most labelled powers of ten on a logarithmic axis (every k-th power beyond it). */
export const MAX_LOG_LABELS = 8;

/**
 * The label of a tick on a logarithmic axis from `min` to `max`: over two decades or more only
 * the powers of ten are labelled (every k-th one, so at most {@link MAX_LOG_LABELS} of them),
 * over less the values 1, 2 and 5 times a power of ten, and over less than half a decade every
 * tick. Labels read `1e-6`, `0.01`, `2`, `500`, `1e6`.
 *
 * @example
 * ```ts
 * logTickLabel(0.02, 0.01, 0.1); // '0.02'
 * logTickLabel(0.03, 0.01, 0.1); // ''
 * logTickLabel(1e-15, 1e-16, 1e10); // '' (every 4th power over 26 decades: 1e-16, 1e-12, …)
 * ```
 */
export function logTickLabel(value: number, min: number, max: number): string {
  if (!(value > 0)) return '';
  const decades = Math.log10(max / min);
  const e = Math.floor(Math.log10(value) + 1e-9);
  const m = value / 10 ** e;
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-6 * b;
  const every = Math.max(1, Math.ceil((decades + 1) / MAX_LOG_LABELS));
  const first = Math.ceil(Math.log10(min) - 1e-9);
  const shown =
    decades >= 2
      ? near(m, 1) && (e - first) % every === 0
      : decades >= 0.5
        ? MANTISSAS.some((k) => near(m, k))
        : true;
  if (!shown) return '';
  const mant = Number.parseFloat(m.toPrecision(3));
  if (Math.abs(e) <= 3) return String(Number.parseFloat((mant * 10 ** e).toPrecision(3)));
  return mant === 1 ? `1e${e}` : `${mant}e${e}`;
}

/**
 * Indices of a series to draw: evenly spaced ones, at most `max` of them, plus the indices where
 * x and y reach their minimum and maximum, so thinning never hides the extent of the data.
 */
function thinKeepingExtremes(spec: PlotSpec, s: PlotSeries, max: number): number[] {
  const n = s.x.length;
  const base = thinIndices(n, Math.max(2, max - 4));
  if (n <= max) return base;
  const ix = [-1, -1, -1, -1];
  const ex = [
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (let i = 0; i < n; i++) {
    const x = s.x[i]!;
    const y = s.y[i]!;
    if (!keep(spec, x, y)) continue;
    const v = [x, x, y, y];
    for (let k = 0; k < 4; k++) {
      if (k % 2 === 0 ? v[k]! < ex[k]! : v[k]! > ex[k]!) {
        ex[k] = v[k]!;
        ix[k] = i;
      }
    }
  }
  return Array.from(new Set([...base, ...ix.filter((i) => i >= 0)])).sort((a, b) => a - b);
}

/**
 * Checks a plot spec and makes it ready to draw: drops the points that cannot be drawn, thins
 * long series to at most `maxPoints` points (keeping each series' extremes), and computes the
 * data ranges and axis ranges that contain them ({@link linearAxis}, {@link logAxis}).
 *
 * @example
 * ```ts
 * preparePlot({ series: [{ label: "arc", x: [0.7, -0.7, 0], y: [-0.7, -0.7, -1] }] }).axes.x; // { min: -0.75, max: 0.75, log: false }
 * ```
 */
export function preparePlot(spec: PlotSpec, maxPoints: number = PLOT_LIMITS.points): PreparedPlot {
  const count = checkPlotSpec(spec);
  if (count === 0)
    throw new ExampleError(
      `plot(spec)${spec.title ? ` '${spec.title}'` : ''}: no finite point to draw${spec.xLog || spec.yLog ? ' (log axes drop values ≤ 0)' : ''}`,
    );
  let xlo = Number.POSITIVE_INFINITY;
  let xhi = Number.NEGATIVE_INFINITY;
  let ylo = Number.POSITIVE_INFINITY;
  let yhi = Number.NEGATIVE_INFINITY;
  const series: PreparedSeries[] = spec.series.map((s) => {
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i]!;
      const y = s.y[i]!;
      if (!keep(spec, x, y)) continue;
      if (x < xlo) xlo = x;
      if (x > xhi) xhi = x;
      if (y < ylo) ylo = y;
      if (y > yhi) yhi = y;
    }
    const x: number[] = [];
    const y: number[] = [];
    for (const k of thinKeepingExtremes(spec, s, maxPoints)) {
      if (!keep(spec, s.x[k]!, s.y[k]!)) continue;
      x.push(s.x[k]!);
      y.push(s.y[k]!);
    }
    return { label: String(s.label ?? ''), x, y, points: s.points === true };
  });
  const ax = spec.xLog === true ? logAxis(xlo, xhi) : linearAxis(xlo, xhi);
  const ay = spec.yLog === true ? logAxis(ylo, yhi) : linearAxis(ylo, yhi);
  return {
    title: spec.title,
    xLabel: spec.xLabel,
    yLabel: spec.yLabel,
    series,
    ranges: { x: [xlo, xhi], y: [ylo, yhi] },
    axes: { x: ax, y: ay },
    count,
  };
}
