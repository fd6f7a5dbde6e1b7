/**
 * `--plot FILE.svg` of a sweep table: a line plot for a sweep over one numeric axis (one line per
 * value of an optional second axis, drawn by the CLI's {@link renderLinePlot}), a heat map for a
 * sweep over two numeric axes (one panel per value of an optional third axis, on one shared colour
 * scale). Points that failed, or have no value, break a line or leave a grey cell. Deterministic,
 * byte for byte, like every CLI output.
 *
 * @module
 */
import { UsageError } from '../errors.js';
import { type LineSeries, renderLinePlot } from '../plot.js';
import type { PlotSpec } from './spec.js';
import type { Cell, Row } from './table.js';

/** Most panels of a heat map, and most lines of a line plot. */
const MAX_PANELS = 6;
const MAX_LINES = 12;
/** Most cells along one heat-map axis (beyond this, use a coarser grid). */
const MAX_CELLS = 400;

const label = (c: Cell): string =>
  c === null
    ? '–'
    : Array.isArray(c)
      ? `(${c.join(', ')})`
      : typeof c === 'number'
        ? short(c)
        : String(c);

/** A number in at most 4 significant digits, without trailing zeros. */
function short(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const s =
    a >= 1e-3 && a < 1e5
      ? String(Number(x.toPrecision(4)))
      : x.toExponential(2).replace(/\.?0+e/, 'e');
  return s;
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

interface Axis {
  readonly name: string;
  readonly column: number;
  readonly values: Cell[];
  readonly numeric: boolean;
}

const key = (c: Cell): string => JSON.stringify(c);

function distinct(rows: readonly Row[], column: number): Cell[] {
  const seen = new Map<string, Cell>();
  for (const r of rows) {
    const c = r[column]!;
    if (!seen.has(key(c))) seen.set(key(c), c);
  }
  const values = [...seen.values()];
  if (values.every((v) => typeof v === 'number')) (values as number[]).sort((a, b) => a - b);
  return values;
}

/**
 * Draws the table. `plot` chooses the axes (`x`, `y`, `panels`) and the output drawn (`value`);
 * by default the varying numeric axes in column order are x then y, a non-numeric varying axis
 * gives the lines or panels, and the value is the first numeric output.
 *
 * @throws {@link UsageError} when the sweep is not a 1-D or 2-D grid (with one extra small axis).
 */
export function renderSweepPlot(
  columns: readonly string[],
  rows: readonly Row[],
  plot: PlotSpec | undefined,
  title: string,
): string {
  const statusAt = columns.indexOf('status');
  const axes: Axis[] = [];
  for (let c = 1; c < statusAt; c++) {
    const values = distinct(rows, c);
    if (values.length > 1 || [plot?.x, plot?.y, plot?.panels].includes(columns[c]))
      axes.push({
        name: columns[c]!,
        column: c,
        values,
        numeric: values.every((v) => typeof v === 'number'),
      });
  }
  const outputs = columns.slice(statusAt + 1, -1);
  const valueName =
    plot?.value ??
    outputs.find(
      (o, k) => rows.some((r) => typeof r[statusAt + 1 + k] === 'number') && o !== 'wallMs',
    ) ??
    outputs[0];
  if (valueName === undefined) throw new UsageError('the table has no output to plot', '--plot');
  const valueAt = columns.indexOf(valueName);
  const byName = (n: string | undefined) =>
    n === undefined ? undefined : axes.find((a) => a.name === n);
  let x = byName(plot?.x);
  let y = byName(plot?.y);
  let panels = byName(plot?.panels);
  const free = axes.filter((a) => a !== x && a !== y && a !== panels);
  const numericFree = free.filter((a) => a.numeric);
  if (x === undefined) x = numericFree.shift();
  if (
    y === undefined &&
    numericFree.length > 0 &&
    (plot?.panels === undefined || numericFree.length > 0)
  )
    y = numericFree.shift();
  const rest = axes.filter((a) => a !== x && a !== y && a !== panels);
  if (panels === undefined && rest.length === 1) panels = rest[0];
  const left = axes.filter((a) => a !== x && a !== y && a !== panels);
  if (x === undefined || !x.numeric)
    throw new UsageError(
      `a plot needs a numeric swept axis for x${x ? ` ('${x.name}' is not numeric)` : ''}`,
      '--plot',
    );
  if (left.length > 0)
    throw new UsageError(
      `a plot draws 1-D and 2-D sweeps with at most one more axis; this sweep also varies ${left.map((a) => a.name).join(', ')}`,
      '--plot',
    );
  if (y !== undefined && !y.numeric)
    throw new UsageError(`the y axis '${y.name}' is not numeric`, '--plot');
  const value = (r: Row): number => {
    const v = r[valueAt];
    return typeof v === 'number' && r[statusAt] === 'ok' ? v : Number.NaN;
  };
  const fullTitle = plot?.title ?? `${title}: ${valueName}`;
  if (y === undefined) {
    const groups = panels?.values ?? [null];
    if (groups.length > MAX_LINES)
      throw new UsageError(
        `${groups.length} lines (at most ${MAX_LINES}); choose plot.panels with fewer values`,
        '--plot',
      );
    const series: LineSeries[] = groups.map((g) => {
      const mine = rows
        .filter((r) => panels === undefined || key(r[panels.column]!) === key(g))
        .slice()
        .sort((a, b) => (a[x.column] as number) - (b[x.column] as number));
      return {
        name: panels === undefined ? valueName : `${panels.name} = ${label(g)}`,
        x: mine.map((r) => r[x.column] as number),
        y: mine.map(value),
      };
    });
    return renderLinePlot({ title: fullTitle, xLabel: x.name, yLabel: valueName, series });
  }
  return heatMap(rows, x, y, panels, value, fullTitle, valueName);
}

// ---------------------------------------------------------------------------------------------
// Heat map.

/** Viridis at 9 stops (matplotlib's colour map, perceptually uniform and colour-blind safe). */
const VIRIDIS = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
] as const;

function colour(t: number): string {
  const s = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const k = Math.min(VIRIDIS.length - 2, Math.floor(s));
  const f = s - k;
  const a = VIRIDIS[k]!;
  const b = VIRIDIS[k + 1]!;
  const hex = (i: number) =>
    Math.round(a[i]! + (b[i]! - a[i]!) * f)
      .toString(16)
      .padStart(2, '0');
  return `#${hex(0)}${hex(1)}${hex(2)}`;
}

const px = (v: number): string => String(Math.round(v * 100) / 100);

function heatMap(
  rows: readonly Row[],
  x: Axis,
  y: Axis,
  panels: Axis | undefined,
  value: (r: Row) => number,
  title: string,
  valueName: string,
): string {
  const nx = x.values.length;
  const ny = y.values.length;
  const groups = panels?.values ?? [null];
  if (nx > MAX_CELLS || ny > MAX_CELLS)
    throw new UsageError(
      `a heat map draws at most ${MAX_CELLS} cells per axis, got ${nx} × ${ny}`,
      '--plot',
    );
  if (groups.length > MAX_PANELS)
    throw new UsageError(`${groups.length} panels (at most ${MAX_PANELS})`, '--plot');
  const xi = new Map(x.values.map((v, k) => [key(v), k]));
  const yi = new Map(y.values.map((v, k) => [key(v), k]));
  const grids = groups.map(() => new Float64Array(nx * ny).fill(Number.NaN));
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    const g = panels === undefined ? 0 : groups.findIndex((v) => key(v) === key(r[panels.column]!));
    const v = value(r);
    grids[g]![yi.get(key(r[y.column]!))! * nx + xi.get(key(r[x.column]!))!] = v;
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (!(lo <= hi)) {
    lo = 0;
    hi = 1;
  }
  const span = hi > lo ? hi - lo : 1;
  // layout: panels side by side, a colour bar on the right
  const cell = Math.max(4, Math.min(40, Math.floor(480 / Math.max(nx, ny))));
  const pw = cell * nx;
  const ph = cell * ny;
  const left = 70;
  const top = 50;
  const gap = 40;
  const bar = 16;
  const width = left + groups.length * pw + (groups.length - 1) * gap + 30 + bar + 70;
  const height = top + ph + 60;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<title>${xml(title)}</title>`,
    `<desc>${xml(`${title}; x: ${x.name}, y: ${y.name}${panels ? `, panels: ${panels.name}` : ''}; colour range [${lo}, ${hi}]`)}</desc>`,
    '<rect width="100%" height="100%" fill="#ffffff"/>',
    `<text x="${px(width / 2)}" y="20" text-anchor="middle" font-size="15">${xml(title)}</text>`,
  ];
  // a tick label every xStep columns (about 44 px apart) and every yStep rows (16 px)
  const xStep = Math.max(1, Math.ceil(44 / cell));
  const yStep = Math.max(1, Math.ceil(16 / cell));
  groups.forEach((g, p) => {
    const ox = left + p * (pw + gap);
    const oy = top;
    if (panels !== undefined)
      out.push(
        `<text x="${px(ox + pw / 2)}" y="${top - 8}" text-anchor="middle" font-size="13">${xml(`${panels.name} = ${label(g)}`)}</text>`,
      );
    const grid = grids[p]!;
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const v = grid[j * nx + i]!;
        // y grows upwards: row 0 at the bottom
        const cx = ox + i * cell;
        const cy = oy + (ny - 1 - j) * cell;
        const fill = Number.isFinite(v) ? colour((v - lo) / span) : '#bbbbbb';
        out.push(
          `<rect x="${px(cx)}" y="${px(cy)}" width="${cell}" height="${cell}" fill="${fill}"><title>${xml(`${x.name} = ${label(x.values[i]!)}, ${y.name} = ${label(y.values[j]!)}: ${Number.isFinite(v) ? String(v) : 'no value'}`)}</title></rect>`,
        );
      }
    }
    out.push(
      `<rect x="${ox}" y="${oy}" width="${pw}" height="${ph}" fill="none" stroke="#000000"/>`,
    );
    for (let i = 0; i < nx; i += xStep)
      out.push(
        `<text x="${px(ox + (i + 0.5) * cell)}" y="${oy + ph + 16}" text-anchor="middle" font-size="11">${xml(label(x.values[i]!))}</text>`,
      );
    out.push(
      `<text x="${px(ox + pw / 2)}" y="${oy + ph + 40}" text-anchor="middle" font-size="13">${xml(x.name)}</text>`,
    );
    if (p === 0) {
      for (let j = 0; j < ny; j += yStep)
        out.push(
          `<text x="${ox - 6}" y="${px(oy + (ny - 1 - j + 0.5) * cell + 4)}" text-anchor="end" font-size="11">${xml(label(y.values[j]!))}</text>`,
        );
      out.push(
        `<text x="16" y="${px(oy + ph / 2)}" text-anchor="middle" font-size="13" transform="rotate(-90 16 ${px(oy + ph / 2)})">${xml(y.name)}</text>`,
      );
    }
  });
  // colour bar
  const bx = left + groups.length * pw + (groups.length - 1) * gap + 30;
  const steps = 32;
  for (let k = 0; k < steps; k++)
    out.push(
      `<rect x="${bx}" y="${px(top + ((steps - 1 - k) * ph) / steps)}" width="${bar}" height="${px(ph / steps + 0.5)}" fill="${colour((k + 0.5) / steps)}"/>`,
    );
  out.push(
    `<rect x="${bx}" y="${top}" width="${bar}" height="${ph}" fill="none" stroke="#000000"/>`,
  );
  for (let k = 0; k <= 4; k++) {
    const v = lo + (span * k) / 4;
    out.push(
      `<text x="${bx + bar + 4}" y="${px(top + ph - (ph * k) / 4 + 4)}" font-size="11">${xml(short(v))}</text>`,
    );
  }
  out.push(
    `<text x="${bx + bar + 40}" y="${top - 8}" text-anchor="end" font-size="11">${xml(valueName)}</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
