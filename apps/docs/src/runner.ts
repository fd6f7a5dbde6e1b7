/**
 * The runner of the site's editable examples. The same function runs an example in the browser
 * (the `RunnableExample` Vue component of the theme) and in Node (`test/runnable.test.ts`), so an
 * example that works in one works in the other.
 *
 * An example is plain JavaScript (no type annotations: the browser runs it as written) that may
 * import the geomech packages with ordinary ES `import` declarations and may use top-level
 * `await`. It receives two helpers: `plot(spec)` draws a chart ({@link PlotSpec}) and `console`
 * collects the printed lines.
 *
 * @module
 */

/** The packages an example may import, in the order the site documents them. */
export const EXAMPLE_PACKAGES = [
  '@geomech/core',
  '@geomech/groupoid',
  '@geomech/contact',
  '@geomech/dirac',
] as const;

/** One of {@link EXAMPLE_PACKAGES}. */
export type ExamplePackage = (typeof EXAMPLE_PACKAGES)[number];

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

/** The console an example writes to. */
export interface ExampleConsole {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** An example after {@link transformExample}: a function body and the packages it imports. */
export interface TransformedExample {
  /** Body of an async function of (`__modules`, `plot`, `console`). */
  readonly body: string;
  /** The imported packages, in order of first import. */
  readonly imports: readonly ExamplePackage[];
}

/** A malformed example (an import the runner cannot serve, a bad plot spec). */
export class ExampleError extends Error {
  override readonly name = 'ExampleError';
  /** 1-based line of the example the fault is on, when known. */
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(line === undefined ? message : `${message} (line ${line})`);
    this.line = line;
  }
}

const IMPORT_NAMED = /^[ \t]*import[ \t]*\{([^}]*)\}[ \t]*from[ \t]*(['"])([^'"]+)\2[ \t]*;?/gm;
const IMPORT_STAR =
  /^[ \t]*import[ \t]*\*[ \t]*as[ \t]+([A-Za-z_$][\w$]*)[ \t]*from[ \t]*(['"])([^'"]+)\2[ \t]*;?/gm;
const ANY_IMPORT = /^[ \t]*import\b(?!\s*\()/m;
const IDENT = /^[A-Za-z_$][\w$]*$/;

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

function checkPackage(name: string, source: string, index: number): ExamplePackage {
  const known = (EXAMPLE_PACKAGES as readonly string[]).includes(name);
  if (!known)
    throw new ExampleError(
      `cannot import '${name}': examples may import ${EXAMPLE_PACKAGES.join(', ')}`,
      lineOf(source, index),
    );
  return name as ExamplePackage;
}

/**
 * Rewrites the `import` declarations of an example into reads of the module table, keeping the
 * line numbers: `import { a, b as c } from '@geomech/core';` becomes
 * `const { a, b: c } = __modules['@geomech/core'];`, and `import * as core from '@geomech/core'`
 * becomes `const core = __modules['@geomech/core'];`. Any other import is an {@link ExampleError}.
 *
 * @example
 * ```ts
 * transformExample("import { SO3 } from '@geomech/core';\nconsole.log(SO3.dim);").imports; // ['@geomech/core']
 * ```
 */
export function transformExample(source: string): TransformedExample {
  const imports: ExamplePackage[] = [];
  const use = (p: ExamplePackage): void => {
    if (!imports.includes(p)) imports.push(p);
  };
  let body = source.replace(
    IMPORT_NAMED,
    (match: string, names: string, _q: string, from: string, index: number) => {
      const pkg = checkPackage(from, source, index);
      use(pkg);
      const parts = names
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
        .map((s) => {
          const m = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/.exec(s);
          if (!m)
            throw new ExampleError(
              `cannot read the import specifier '${s}'`,
              lineOf(source, index),
            );
          return m[2] === undefined ? m[1]! : `${m[1]!}: ${m[2]}`;
        });
      const newlines = match.split('\n').length - 1;
      return `const { ${parts.join(', ')} } = __modules[${JSON.stringify(pkg)}];${'\n'.repeat(newlines)}`;
    },
  );
  body = body.replace(
    IMPORT_STAR,
    (_m: string, name: string, _q: string, from: string, index: number) => {
      if (!IDENT.test(name)) throw new ExampleError(`bad namespace name '${name}'`);
      const pkg = checkPackage(from, source, index);
      use(pkg);
      return `const ${name} = __modules[${JSON.stringify(pkg)}];`;
    },
  );
  const left = ANY_IMPORT.exec(body);
  if (left)
    throw new ExampleError(
      "only `import { … } from '@geomech/…'` and `import * as name from '@geomech/…'` are supported",
      lineOf(body, left.index),
    );
  return { body, imports };
}

/**
 * Checks a plot spec and returns the number of finite points it holds (all series together).
 * Throws {@link ExampleError} for a spec without series or with unequal x/y lengths.
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
  let points = 0;
  for (const s of spec.series) {
    if (s.x.length !== s.y.length)
      throw new ExampleError(
        `plot(spec): series '${s.label}' has ${s.x.length} x values and ${s.y.length} y values`,
      );
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i]!;
      const y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (spec.xLog === true && !(x > 0)) continue;
      if (spec.yLog === true && !(y > 0)) continue;
      points++;
    }
  }
  return points;
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

/** Formats console arguments as the browser console would print them (numbers in full). */
export function formatConsoleArgs(args: readonly unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (typeof a === 'number' || typeof a === 'boolean' || a === undefined || a === null)
        return String(a);
      if (ArrayBuffer.isView(a) && !(a instanceof DataView))
        return `[${Array.from(a as unknown as ArrayLike<number>).join(', ')}]`;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      try {
        return JSON.stringify(a, (_k, v: unknown) =>
          ArrayBuffer.isView(v) && !(v instanceof DataView)
            ? Array.from(v as unknown as ArrayLike<number>)
            : v,
        );
      } catch {
        return String(a);
      }
    })
    .join(' ');
}

/** The helpers an example runs with. */
export interface ExampleHelpers {
  /** Draws a chart; the Node test passes a stub that only checks the spec. */
  readonly plot: (spec: PlotSpec) => void;
  readonly console: ExampleConsole;
}

type AsyncFn = (
  modules: Readonly<Record<string, unknown>>,
  plot: (spec: PlotSpec) => void,
  console: ExampleConsole,
) => Promise<unknown>;

/**
 * Loads the packages an example imports and runs it as an async function of (`__modules`,
 * `plot`, `console`). `load` maps a package name to its module (a dynamic `import()` in the
 * browser, the statically imported packages in Node).
 *
 * @example
 * ```ts
 * await runExample("import { SO3 } from '@geomech/core';\nconsole.log(SO3.dim);",
 *   async () => ({ SO3: { dim: 3 } }), { plot: () => {}, console });
 * ```
 */
export async function runExample(
  source: string,
  load: (pkg: ExamplePackage) => Promise<unknown>,
  helpers: ExampleHelpers,
): Promise<void> {
  const { body, imports } = transformExample(source);
  const modules: Record<string, unknown> = {};
  for (const pkg of imports) modules[pkg] = await load(pkg);
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => AsyncFn;
  const fn = new AsyncFunction('__modules', 'plot', 'console', `"use strict";\n${body}`);
  await fn(modules, helpers.plot, helpers.console);
}
