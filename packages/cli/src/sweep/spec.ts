/**
 * Sweep specifications (`geomech sweep SPEC.json`, CLI contract "geomech sweep"): reading and
 * checking the JSON document (every error names its field), the point set it describes (a
 * cartesian grid times seeded random samples, enumerated by index without being materialized),
 * the command line of each point, and the spec's hash (shard files and resumable journals carry
 * it). Schema: `packages/cli/schema/sweep.schema.json`.
 *
 * The point set: with grid axes a₁ … a_d of sizes n₁ … n_d (the first listed varies slowest) and
 * S samples (S = 1 without `samples`), point i = g·S + s holds grid point g (mixed radix over
 * n₁ … n_d) and sample s. Sample values are functions of (seed, s, variable) only, so they do not
 * depend on sharding, on the number of workers or on the order in which points run.
 *
 * @module
 */
import { UsageError } from '../errors.js';
import { SWEEP_LIMITS } from '../limits.js';

/** The commands a point may run. */
export const SWEEP_COMMANDS = ['simulate', 'solve', 'order'] as const;
export type SweepCommand = (typeof SWEEP_COMMANDS)[number];

/** A point coordinate: a number, a name (method, a solve choice such as `map`) or a vector. */
export type AxisValue = number | string | readonly number[];

/** Limits checked before any work (in `../limits.ts`, which `--help` reads without this module). */
export { SWEEP_LIMITS } from '../limits.js';

/** Option keys (the command-line flags without `--`) each command accepts, besides param/init. */
const OPTION_KEYS: Record<SweepCommand, readonly string[]> = {
  simulate: ['method', 'h', 'steps', 't-end', 'every', 'tol', 'max-iter'],
  order: ['method', 'h', 't-end', 'levels', 'tol', 'max-iter'],
  solve: ['method', 'n', 'start', 'end', 'tol', 'max-iter', 'continuation', 'guess'],
};
/** Options whose value is a name rather than a number. */
const STRING_OPTIONS = new Set(['method', 'guess']);
/** Options whose value is a vector (comma list on the command line). */
const VECTOR_OPTIONS = new Set(['start', 'end']);

/** Statistics over a series field (`stat:field[j]@tail`). */
export const SERIES_STATS = ['final', 'initial', 'drift', 'max', 'min', 'maxabs', 'mean'] as const;
export type SeriesStat = (typeof SERIES_STATS)[number];

/** Scalar fields of each command's JSON document that an output may name directly. */
export const DOC_FIELDS: Record<SweepCommand, readonly string[]> = {
  simulate: ['newtonIterations', 'maxResidual'],
  solve: [
    'cost',
    'status',
    'secondOrder',
    'converged',
    'iterations',
    'residualNorm',
    'newtonIterations',
    'maxResidual',
  ],
  order: ['order', 'finestError', 'tEnd'],
};

/** One summary output of a point. */
export type OutputSpec =
  | {
      readonly kind: 'series';
      readonly name: string;
      readonly stat: SeriesStat;
      readonly field: string;
      readonly component: number | undefined;
      /** Fraction (0, 1] of the kept states, counted from the end, that the statistic covers. */
      readonly tail: number;
    }
  | { readonly kind: 'doc'; readonly name: string; readonly field: string }
  | { readonly kind: 'wallMs'; readonly name: 'wallMs' };

/** A grid axis: its name and values. */
export interface GridAxis {
  readonly name: string;
  readonly values: readonly AxisValue[];
}

/** A sampled variable and its distribution. */
export type SampleVar =
  | {
      readonly name: string;
      readonly dist: 'uniform' | 'loguniform' | 'normal';
      readonly a: number;
      readonly b: number;
    }
  | { readonly name: string; readonly dist: 'choice'; readonly choices: readonly AxisValue[] };

/** What `plot` in the spec (or the defaults) asks `--plot` to draw. */
export interface PlotSpec {
  readonly x?: string;
  readonly y?: string;
  readonly value?: string;
  readonly panels?: string;
  readonly title?: string;
}

/** A checked sweep specification. */
export interface SweepSpec {
  readonly command: SweepCommand;
  /** Built-in system or problem name; undefined with `model`. */
  readonly target: string | undefined;
  /** Model file path as written in the spec (resolved against the spec's folder by the caller). */
  readonly model: string | undefined;
  /** Fixed options (flag name → value), params and init. */
  readonly options: ReadonlyMap<string, AxisValue>;
  readonly params: ReadonlyMap<string, AxisValue>;
  readonly init: ReadonlyMap<string, AxisValue>;
  readonly grid: readonly GridAxis[];
  readonly samples:
    | { readonly count: number; readonly seed: number; readonly vars: readonly SampleVar[] }
    | undefined;
  readonly outputs: readonly OutputSpec[];
  readonly plot: PlotSpec | undefined;
  /**
   * A point's time budget in ms (`timeoutMs`): a point still running after it is recorded with
   * status `timeout` and its worker replaced. Undefined: no budget.
   */
  readonly timeoutMs: number | undefined;
  /** Number of points: grid size × sample count. */
  readonly points: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Axis names: an option key, `param.NAME`, `init.NAME` or `init.NAME[j]`. */
const AXIS = /^(?:(param|init)\.([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?|([a-z][a-z-]*))$/;

class Checker {
  constructor(private readonly file: string) {}
  fail(what: string, field: string): never {
    throw new UsageError(what, `${this.file}: ${field}`);
  }
  number(v: unknown, field: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v))
      this.fail(`expected a finite number, got ${describe(v)}`, field);
    return v;
  }
  integer(v: unknown, field: string, min: number, max: number): number {
    const x = this.number(v, field);
    if (!Number.isInteger(x) || x < min || x > max)
      this.fail(`expected an integer in [${min}, ${max}], got ${x}`, field);
    return x;
  }
  string(v: unknown, field: string): string {
    if (typeof v !== 'string' || v.length === 0 || v.length > 4096)
      this.fail(`expected a non-empty string (at most 4096 characters), got ${describe(v)}`, field);
    return v;
  }
  /** A coordinate value: number, name or vector of numbers. */
  value(v: unknown, field: string): AxisValue {
    if (typeof v === 'number') return this.number(v, field);
    if (typeof v === 'string') return this.string(v, field);
    if (Array.isArray(v)) {
      if (v.length === 0 || v.length > SWEEP_LIMITS.vector)
        this.fail(`a vector needs 1 to ${SWEEP_LIMITS.vector} numbers, got ${v.length}`, field);
      return v.map((x, j) => this.number(x, `${field}[${j}]`));
    }
    this.fail(`expected a number, a string or a list of numbers, got ${describe(v)}`, field);
  }
  keys(o: Record<string, Json>, allowed: readonly string[], field: string): void {
    for (const k of Object.keys(o))
      if (!allowed.includes(k))
        this.fail(
          `unknown field '${k}' (allowed: ${allowed.join(', ')})`,
          field === '' ? k : `${field}.${k}`,
        );
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  return String(v);
}

/** Checks that a value fits the axis (or option) it is given for. */
function checkAxisValue(
  c: Checker,
  axis: string,
  v: AxisValue,
  field: string,
  command: SweepCommand,
): void {
  const m = AXIS.exec(axis);
  if (!m) return;
  const [, group, , component, option] = m;
  if (option !== undefined) {
    if (STRING_OPTIONS.has(option)) {
      if (typeof v !== 'string') c.fail(`${option} takes a name, got ${describe(v)}`, field);
    } else if (VECTOR_OPTIONS.has(option)) {
      if (typeof v === 'string') c.fail(`${option} takes numbers, got ${describe(v)}`, field);
    } else if (typeof v !== 'number')
      c.fail(`${option} takes one number, got ${describe(v)}`, field);
    return;
  }
  if (group === 'init' || component !== undefined) {
    if (typeof v === 'string') c.fail(`initial data take numbers, got ${describe(v)}`, field);
    if (component !== undefined && typeof v !== 'number')
      c.fail(`a component takes one number, got ${describe(v)}`, field);
  }
  if (group === 'param' && typeof v === 'string' && command !== 'solve')
    c.fail(`parameters of ${command} take numbers, got ${describe(v)}`, field);
}

function checkAxisName(c: Checker, name: string, command: SweepCommand, field: string): void {
  const m = AXIS.exec(name);
  if (!m)
    c.fail(
      `bad axis name '${name}' (an option such as h or method, param.NAME, init.NAME or init.NAME[j])`,
      field,
    );
  const [, group, , component, option] = m;
  if (option !== undefined && !OPTION_KEYS[command].includes(option))
    c.fail(
      `'${option}' is not an option of ${command} (allowed: ${OPTION_KEYS[command].join(', ')}, param.NAME${command === 'solve' ? '' : ', init.NAME'})`,
      field,
    );
  if (option === 'guess') c.fail('guess is a file and cannot vary; give it in options', field);
  if (group === 'init' && command === 'solve')
    c.fail('solve takes no initial data (use start/end)', field);
  if (group === 'param' && component !== undefined) c.fail('parameters have no components', field);
}

function range(c: Checker, o: Record<string, Json>, field: string): number[] {
  c.keys(o, ['from', 'to', 'count', 'scale'], field);
  const from = c.number(o.from, `${field}.from`);
  const to = c.number(o.to, `${field}.to`);
  const count = c.integer(o.count, `${field}.count`, 1, SWEEP_LIMITS.axisValues);
  const scale = o.scale === undefined ? 'linear' : o.scale;
  if (scale !== 'linear' && scale !== 'log')
    c.fail(`expected 'linear' or 'log', got ${describe(scale)}`, `${field}.scale`);
  if (count === 1) return [from];
  const out = new Array<number>(count);
  if (scale === 'log') {
    if (!(from > 0 && to > 0))
      c.fail(`a log range needs from > 0 and to > 0, got ${from}, ${to}`, field);
    const a = Math.log(from);
    const b = Math.log(to);
    for (let k = 0; k < count; k++) out[k] = Math.exp(a + ((b - a) * k) / (count - 1));
  } else {
    for (let k = 0; k < count; k++) out[k] = from + ((to - from) * k) / (count - 1);
  }
  // the ends are exactly the given numbers, not the rounding of the formula
  out[0] = from;
  out[count - 1] = to;
  return out;
}

function parseOutput(c: Checker, v: unknown, field: string, command: SweepCommand): OutputSpec {
  if (isObject(v)) {
    c.keys(v, ['stat', 'field', 'component', 'tail', 'name'], field);
    const stat = c.string(v.stat, `${field}.stat`);
    if (!(SERIES_STATS as readonly string[]).includes(stat))
      c.fail(`unknown statistic '${stat}' (choose ${SERIES_STATS.join(', ')})`, `${field}.stat`);
    const f = c.string(v.field, `${field}.field`);
    if (!NAME.test(f)) c.fail(`bad field name '${f}'`, `${field}.field`);
    const component =
      v.component === undefined ? undefined : c.integer(v.component, `${field}.component`, 0, 1e6);
    const tail = v.tail === undefined ? 1 : c.number(v.tail, `${field}.tail`);
    if (!(tail > 0 && tail <= 1)) c.fail(`tail must be in (0, 1], got ${tail}`, `${field}.tail`);
    const name =
      v.name === undefined
        ? `${stat}:${f}${component === undefined ? '' : `[${component}]`}${tail === 1 ? '' : `@${tail}`}`
        : c.string(v.name, `${field}.name`);
    if (command === 'order')
      c.fail('order has no series; choose order, finestError or tEnd', field);
    return { kind: 'series', name, stat: stat as SeriesStat, field: f, component, tail };
  }
  const s = c.string(v, field);
  if (s === 'wallMs') return { kind: 'wallMs', name: 'wallMs' };
  const series = /^([a-z]+):([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?(?:@([0-9.eE+-]+))?$/.exec(s);
  if (series) {
    const [, stat, f, comp, tailText] = series;
    return parseOutput(
      c,
      {
        stat: stat!,
        field: f!,
        ...(comp === undefined ? {} : { component: Number(comp) }),
        ...(tailText === undefined ? {} : { tail: Number(tailText) }),
        name: s,
      },
      field,
      command,
    );
  }
  const doc = s.startsWith('stats.') ? s.slice(6) : s;
  if (!DOC_FIELDS[command].includes(doc))
    c.fail(
      `unknown output '${s}' for ${command} (choose ${[...DOC_FIELDS[command], 'wallMs'].join(', ')}${command === 'order' ? '' : `, or STAT:FIELD[j]@TAIL with STAT one of ${SERIES_STATS.join(', ')}`})`,
      field,
    );
  return { kind: 'doc', name: s, field: doc };
}

/**
 * Reads and checks a sweep specification. `file` names the spec in error messages.
 *
 * @throws {@link UsageError} (exit code 2) naming the field, e.g. `(ziegler.sweep.json: grid.h.count)`.
 * @example
 * ```ts
 * const spec = parseSweepSpec(
 *   '{"command":"simulate","system":"pendulum","grid":{"h":[0.1,0.05]},"outputs":["drift:energy"]}',
 *   'spec.json',
 * );
 * spec.points; // 2
 * ```
 */
export function parseSweepSpec(text: string, file: string): SweepSpec {
  const c: Checker = new Checker(file);
  if (text.length > SWEEP_LIMITS.specChars)
    c.fail(`the spec has ${text.length} characters (limit ${SWEEP_LIMITS.specChars})`, '(file)');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    c.fail(`not JSON: ${err instanceof Error ? err.message : String(err)}`, '(file)');
  }
  if (!isObject(doc)) c.fail('expected a JSON object', '(file)');
  c.keys(
    doc,
    [
      '$schema',
      'description',
      'command',
      'system',
      'problem',
      'model',
      'options',
      'grid',
      'samples',
      'outputs',
      'plot',
      'timeoutMs',
    ],
    '',
  );
  const command = doc.command;
  if (typeof command !== 'string' || !(SWEEP_COMMANDS as readonly string[]).includes(command))
    c.fail(`expected one of ${SWEEP_COMMANDS.join(', ')}, got ${describe(command)}`, 'command');
  const cmd = command as SweepCommand;
  const named = (['system', 'problem', 'model'] as const).filter((k) => doc[k] !== undefined);
  if (named.length !== 1)
    c.fail(
      `give exactly one of system, problem or model, got ${named.length === 0 ? 'none' : named.join(' and ')}`,
      named[1] ?? 'system',
    );
  const which = named[0]!;
  if (cmd === 'solve' && which === 'system')
    c.fail('solve runs a problem: use "problem"', 'system');
  if (cmd !== 'solve' && which === 'problem')
    c.fail(`${cmd} runs a system: use "system"`, 'problem');
  if (cmd === 'order' && which === 'model') c.fail('order runs built-in systems only', 'model');
  const name = c.string(doc[which], which);
  if (which !== 'model' && !/^[a-z0-9][a-z0-9-]*$/.test(name)) c.fail(`bad name '${name}'`, which);

  // fixed options
  const options = new Map<string, AxisValue>();
  const params = new Map<string, AxisValue>();
  const init = new Map<string, AxisValue>();
  if (doc.options !== undefined) {
    if (!isObject(doc.options)) c.fail('expected an object', 'options');
    const allowed = [...OPTION_KEYS[cmd], 'param', ...(cmd === 'solve' ? [] : ['init'])];
    c.keys(doc.options, allowed, 'options');
    for (const [k, v] of Object.entries(doc.options)) {
      if (k === 'param' || k === 'init') {
        if (!isObject(v)) c.fail('expected an object of name: value', `options.${k}`);
        for (const [n, x] of Object.entries(v)) {
          if (!NAME.test(n)) c.fail(`bad name '${n}'`, `options.${k}.${n}`);
          const value = c.value(x, `options.${k}.${n}`);
          checkAxisValue(c, `${k}.${n}`, value, `options.${k}.${n}`, cmd);
          (k === 'param' ? params : init).set(n, value);
        }
      } else {
        const value = c.value(v, `options.${k}`);
        checkAxisValue(c, k, value, `options.${k}`, cmd);
        options.set(k, value);
      }
    }
  }
  if (options.has('steps') && options.has('t-end'))
    c.fail('give steps or t-end, not both', 'options.t-end');

  // grid
  const grid: GridAxis[] = [];
  let gridSize = 1;
  const axisNames = new Set<string>();
  if (doc.grid !== undefined) {
    if (!isObject(doc.grid)) c.fail('expected an object of axis: values', 'grid');
    for (const [axis, v] of Object.entries(doc.grid)) {
      const field = `grid.${axis}`;
      checkAxisName(c, axis, cmd, field);
      let values: AxisValue[];
      if (Array.isArray(v)) {
        if (v.length === 0 || v.length > SWEEP_LIMITS.axisValues)
          c.fail(`an axis needs 1 to ${SWEEP_LIMITS.axisValues} values, got ${v.length}`, field);
        values = v.map((x, k) => c.value(x, `${field}[${k}]`));
      } else if (isObject(v)) values = range(c, v, field);
      else c.fail('expected a list of values or a range {from, to, count, scale}', field);
      for (const [k, x] of values.entries()) checkAxisValue(c, axis, x, `${field}[${k}]`, cmd);
      grid.push({ name: axis, values });
      axisNames.add(axis);
      gridSize *= values.length;
      if (gridSize > SWEEP_LIMITS.points)
        c.fail(`the grid has more than ${SWEEP_LIMITS.points} points`, field);
    }
  }

  // samples
  let samples: SweepSpec['samples'];
  if (doc.samples !== undefined) {
    const s = doc.samples;
    if (!isObject(s)) c.fail('expected an object {count, seed, vars}', 'samples');
    c.keys(s, ['count', 'seed', 'vars'], 'samples');
    const count = c.integer(s.count, 'samples.count', 1, SWEEP_LIMITS.points);
    const seed = c.integer(s.seed, 'samples.seed', 0, 2 ** 32 - 1);
    if (!isObject(s.vars)) c.fail('expected an object of axis: distribution', 'samples.vars');
    const vars: SampleVar[] = [];
    for (const [axis, d] of Object.entries(s.vars)) {
      const field = `samples.vars.${axis}`;
      checkAxisName(c, axis, cmd, field);
      if (axisNames.has(axis)) c.fail(`'${axis}' is already a grid axis`, field);
      axisNames.add(axis);
      if (!isObject(d))
        c.fail(
          'expected {uniform: [a, b]}, {loguniform: [a, b]}, {normal: [mean, sd]} or {choice: [...]}',
          field,
        );
      const kinds = Object.keys(d);
      if (kinds.length !== 1) c.fail('give exactly one distribution', field);
      const dist = kinds[0]!;
      const args = d[dist];
      if (dist === 'choice') {
        if (!Array.isArray(args) || args.length === 0 || args.length > SWEEP_LIMITS.axisValues)
          c.fail(`expected a list of 1 to ${SWEEP_LIMITS.axisValues} values`, `${field}.choice`);
        const choices = args.map((x, k) => c.value(x, `${field}.choice[${k}]`));
        for (const [k, x] of choices.entries())
          checkAxisValue(c, axis, x, `${field}.choice[${k}]`, cmd);
        vars.push({ name: axis, dist: 'choice', choices });
      } else if (dist === 'uniform' || dist === 'loguniform' || dist === 'normal') {
        if (!Array.isArray(args) || args.length !== 2)
          c.fail('expected two numbers', `${field}.${dist}`);
        const a = c.number(args[0], `${field}.${dist}[0]`);
        const b = c.number(args[1], `${field}.${dist}[1]`);
        if (dist === 'normal' ? !(b >= 0) : !(a <= b))
          c.fail(
            dist === 'normal'
              ? `the standard deviation must be ≥ 0, got ${b}`
              : `expected a ≤ b, got ${a}, ${b}`,
            `${field}.${dist}`,
          );
        if (dist === 'loguniform' && !(a > 0))
          c.fail(`loguniform needs a > 0, got ${a}`, `${field}.${dist}`);
        checkAxisValue(c, axis, a, field, cmd);
        vars.push({ name: axis, dist, a, b });
      } else
        c.fail(
          `unknown distribution '${dist}' (choose uniform, loguniform, normal, choice)`,
          field,
        );
    }
    if (vars.length === 0) c.fail('give at least one variable', 'samples.vars');
    samples = { count, seed, vars };
  }
  if (axisNames.size > SWEEP_LIMITS.axes)
    c.fail(
      `${axisNames.size} axes (limit ${SWEEP_LIMITS.axes})`,
      samples ? 'samples.vars' : 'grid',
    );
  const points = gridSize * (samples?.count ?? 1);
  if (points > SWEEP_LIMITS.points)
    c.fail(`${points} points (limit ${SWEEP_LIMITS.points})`, samples ? 'samples.count' : 'grid');
  if (grid.length === 0 && samples === undefined)
    c.fail('nothing to sweep: give a grid and/or samples', 'grid');
  for (const axis of axisNames) {
    const m = AXIS.exec(axis)!;
    const [, group, n, component, option] = m;
    if (option !== undefined && options.has(option))
      c.fail(`'${option}' is both fixed in options and swept`, `options.${option}`);
    if (group === 'param' && params.has(n!))
      c.fail(`'${n}' is both fixed in options and swept`, `options.param.${n}`);
    if (group === 'init' && component === undefined && init.has(n!))
      c.fail(`'${n}' is both fixed in options and swept`, `options.init.${n}`);
    if (group === 'init' && component !== undefined) {
      const base = init.get(n!);
      if (!Array.isArray(base) || Number(component) >= base.length)
        c.fail(
          `sweeping ${axis} needs options.init.${n} as a vector with at least ${Number(component) + 1} entries (the other components)`,
          axis,
        );
      if (axisNames.has(`init.${n}`)) c.fail(`init.${n} is swept whole and by component`, axis);
    }
    if (
      (option === 'steps' && (options.has('t-end') || axisNames.has('t-end'))) ||
      (option === 't-end' && options.has('steps'))
    )
      c.fail('give steps or t-end, not both', axis);
  }

  // outputs
  if (
    !Array.isArray(doc.outputs) ||
    doc.outputs.length === 0 ||
    doc.outputs.length > SWEEP_LIMITS.outputs
  )
    c.fail(`expected a list of 1 to ${SWEEP_LIMITS.outputs} outputs`, 'outputs');
  const outputs = doc.outputs.map((o, k) => parseOutput(c, o, `outputs[${k}]`, cmd));
  const seen = new Set<string>(['index', 'status', 'error']);
  outputs.forEach((o, k) => {
    if (seen.has(o.name))
      c.fail(
        `output '${o.name}' is listed twice or names a fixed column (index, status, error)`,
        `outputs[${k}]`,
      );
    seen.add(o.name);
  });

  // plot
  let plot: PlotSpec | undefined;
  if (doc.plot !== undefined) {
    if (!isObject(doc.plot)) c.fail('expected an object {x, y, value, panels, title}', 'plot');
    c.keys(doc.plot, ['x', 'y', 'value', 'panels', 'title'], 'plot');
    const p: { -readonly [K in keyof PlotSpec]: string } = {};
    for (const k of ['x', 'y', 'panels'] as const) {
      if (doc.plot[k] === undefined) continue;
      const a = c.string(doc.plot[k], `plot.${k}`);
      if (!axisNames.has(a)) c.fail(`'${a}' is not a swept axis`, `plot.${k}`);
      p[k] = a;
    }
    if (doc.plot.value !== undefined) {
      const v = c.string(doc.plot.value, 'plot.value');
      if (!outputs.some((o) => o.name === v))
        c.fail(`'${v}' is not one of the outputs`, 'plot.value');
      p.value = v;
    }
    if (doc.plot.title !== undefined) p.title = c.string(doc.plot.title, 'plot.title');
    plot = p;
  }

  const timeoutMs =
    doc.timeoutMs === undefined
      ? undefined
      : c.integer(doc.timeoutMs, 'timeoutMs', 1, SWEEP_LIMITS.timeoutMs);

  return {
    command: cmd,
    target: which === 'model' ? undefined : name,
    model: which === 'model' ? name : undefined,
    options,
    params,
    init,
    grid,
    samples,
    outputs,
    plot,
    timeoutMs,
    points,
  };
}

/** The names of the swept coordinates, in column order: grid axes, then sampled variables. */
export function axisNames(spec: SweepSpec): string[] {
  return [...spec.grid.map((a) => a.name), ...(spec.samples?.vars.map((v) => v.name) ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Deterministic sampling: a counter-based generator (no state), so sample s of variable v is the
// same whichever worker or shard draws it.

/** A 32-bit avalanche of the (murmur3 fmix32) kind. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A uniform number in [0, 1) with 53 random bits, a pure function of (seed, sample, variable,
 * draw): a counter-based generator, so no state is shared between workers or shards.
 *
 * @example
 * ```ts
 * const u = counterUniform(42, 7, 0, 0); // the same number on every run and in every worker
 * u >= 0 && u < 1; // true
 * ```
 */
export function counterUniform(
  seed: number,
  sample: number,
  variable: number,
  draw: number,
): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ (sample >>> 0));
  h = mix32(h ^ Math.floor(sample / 2 ** 32));
  h = mix32(h ^ Math.imul(variable + 1, 0x27d4eb2d));
  const hi = mix32(h ^ Math.imul(2 * draw + 1, 0x165667b1)) >>> 5; // 27 bits
  const lo = mix32(h ^ Math.imul(2 * draw + 2, 0x165667b1)) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

function sampleValue(v: SampleVar, seed: number, s: number, k: number): AxisValue {
  const u = counterUniform(seed, s, k, 0);
  switch (v.dist) {
    case 'uniform':
      return v.a + (v.b - v.a) * u;
    case 'loguniform':
      return Math.exp(Math.log(v.a) + (Math.log(v.b) - Math.log(v.a)) * u);
    case 'normal': {
      // Box–Muller with 1 − u ∈ (0, 1]
      const u2 = counterUniform(seed, s, k, 1);
      return v.a + v.b * Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * u2);
    }
    case 'choice':
      return v.choices[Math.min(v.choices.length - 1, Math.floor(u * v.choices.length))]!;
  }
}

/**
 * The coordinates of point `index` (0 ≤ index < points), in {@link axisNames} order.
 *
 * @example
 * ```ts
 * const spec = parseSweepSpec(
 *   '{"command":"simulate","system":"pendulum","grid":{"method":["rattle","rk4"],"h":[0.1,0.05]},"outputs":["final:q[0]"]}',
 *   'spec.json',
 * );
 * pointCoordinates(spec, 1); // ['rattle', 0.05]
 * pointCoordinates(spec, 2); // ['rk4', 0.1]
 * ```
 */
export function pointCoordinates(spec: SweepSpec, index: number): AxisValue[] {
  const S = spec.samples?.count ?? 1;
  let g = Math.floor(index / S);
  const s = index - g * S;
  const out = new Array<AxisValue>(spec.grid.length);
  for (let a = spec.grid.length - 1; a >= 0; a--) {
    const axis = spec.grid[a]!;
    const n = axis.values.length;
    out[a] = axis.values[g % n]!;
    g = Math.floor(g / n);
  }
  if (spec.samples) {
    const { seed, vars } = spec.samples;
    vars.forEach((v, k) => {
      out.push(sampleValue(v, seed, s, k));
    });
  }
  return out;
}

/** Whether every series output reads only the first or the last state. */
const onlyEnds = (spec: SweepSpec): boolean =>
  spec.outputs.every((o) => o.kind !== 'series' || o.stat === 'final' || o.stat === 'initial');

const text = (v: AxisValue): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? v : v.join(',');

/**
 * The command line (without `geomech`) that runs point `index`: the command, the target, the fixed
 * options and the point's coordinates as `--flag=value` (so negative numbers are never read as
 * flags). `modelPath` is the model file as the point's reader knows it.
 */
export function pointArgv(
  spec: SweepSpec,
  index: number,
  modelPath: string | undefined,
  guessPath: string | undefined,
): string[] {
  const coords = pointCoordinates(spec, index);
  const names = axisNames(spec);
  const options = new Map(spec.options);
  const params = new Map(spec.params);
  const init = new Map<string, AxisValue>(spec.init);
  names.forEach((axis, k) => {
    const m = AXIS.exec(axis)!;
    const [, group, n, component, option] = m;
    const v = coords[k]!;
    if (option !== undefined) options.set(option, v);
    else if (group === 'param') params.set(n!, v);
    else if (component === undefined) init.set(n!, v);
    else {
      const base = [...(init.get(n!) as readonly number[])];
      base[Number(component)] = v as number;
      init.set(n!, base);
    }
  });
  const argv: string[] = [spec.command];
  if (spec.model !== undefined) argv.push(`--model=${modelPath ?? spec.model}`);
  else argv.push(spec.target!);
  for (const [k, v] of options)
    argv.push(k === 'guess' ? `--guess=${guessPath ?? String(v)}` : `--${k}=${text(v)}`);
  for (const [k, v] of params) argv.push(`--param=${k}=${text(v)}`);
  for (const [k, v] of init) argv.push(`--init=${k}=${text(v)}`);
  // Only the first and last states are read: keep only those (`--every` ≥ steps keeps both).
  if (spec.command === 'simulate' && !options.has('every') && onlyEnds(spec)) {
    const steps = options.get('steps');
    const tEnd = options.get('t-end');
    const h = options.get('h');
    const n =
      typeof steps === 'number'
        ? steps
        : typeof tEnd === 'number' && typeof h === 'number'
          ? Math.round(tEnd / h)
          : undefined;
    if (n !== undefined && Number.isSafeInteger(n) && n >= 1) argv.push(`--every=${n}`);
  }
  return argv;
}

/** Key-sorted JSON, so equal specs hash equally whatever the key order of nested objects. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * The spec's identity: SHA-256 of its canonical JSON (without `$schema`, `description` and `plot`,
 * which do not change the table; grid key order kept, since it orders the points) and of the
 * model and guess files' contents. Shard files and journals carry it, and `merge` and `--resume`
 * refuse to join tables of different specs.
 */
export function specHash(text: string, files: readonly string[]): string {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const { $schema: _s, description: _d, plot: _p, grid, ...rest } = doc;
  // node:crypto loaded here, on first use, not when this module loads: the sweep's worker threads
  // load this module and never hash (3–17 ms of each worker's start-up, issue 22)
  const h = process.getBuiltinModule('node:crypto').createHash('sha256');
  h.update(canonical(rest));
  // the grid's key order is the nesting order of the points: keep it
  h.update(
    isObject(grid)
      ? JSON.stringify(Object.entries(grid).map(([k, v]) => [k, canonical(v)]))
      : 'null',
  );
  for (const f of files) h.update(`\0${f}`);
  return h.digest('hex');
}
