/**
 * The runner of the site's editable examples. The same function runs an example in the browser
 * (in a Web Worker started by the `RunnableExample` Vue component of the theme) and in Node
 * (`test/runnable.test.ts`), so an example that works in one works in the other.
 *
 * An example is plain JavaScript (no type annotations: the browser runs it as written) that may
 * import the geomech packages with ordinary ES `import` declarations and may use top-level
 * `await`. It receives two helpers: `plot(spec)` draws a chart ({@link PlotSpec}) and `console`
 * collects the printed lines. Faults are reported with their line in the example: syntax errors
 * (the example is parsed with acorn), imports of names a package does not export (with the
 * nearest exported name), and errors thrown while it runs (from the stack frame of the example).
 *
 * @module
 */

import { parse } from 'acorn';
import { ExampleError, type PlotSpec } from './plot.js';

export {
  checkPlotSpec,
  ExampleError,
  type PlotSeries,
  type PlotSpec,
  thinIndices,
} from './plot.js';

/** The packages an example may import, in the order the site documents them. */
export const EXAMPLE_PACKAGES = [
  '@geomech/core',
  '@geomech/groupoid',
  '@geomech/contact',
  '@geomech/dirac',
] as const;

/** One of {@link EXAMPLE_PACKAGES}. */
export type ExamplePackage = (typeof EXAMPLE_PACKAGES)[number];

/** The console an example writes to. */
export interface ExampleConsole {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** The most console lines and charts one run of an example shows (the rest is dropped). */
export const OUTPUT_LIMITS = { lines: 2000, plots: 24 } as const;

/** One imported name of an example: `import { name } from pkg` on `line`. */
export interface ExampleBinding {
  readonly pkg: ExamplePackage;
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

/** An example after {@link transformExample}: a function body and the packages it imports. */
export interface TransformedExample {
  /** Body of an async function of (`__modules`, `plot`, `console`), line for line the example. */
  readonly body: string;
  /** The imported packages, in order of first import. */
  readonly imports: readonly ExamplePackage[];
  /** The named imports, to check against the packages' exports before the example runs. */
  readonly bindings: readonly ExampleBinding[];
}

interface Located {
  readonly start: number;
  readonly end: number;
  readonly loc?: { readonly start: { readonly line: number; readonly column: number } } | null;
}
interface AstImport extends Located {
  readonly type: 'ImportDeclaration';
  readonly source: { readonly value: unknown };
  readonly specifiers: readonly (Located & {
    readonly type: 'ImportSpecifier' | 'ImportDefaultSpecifier' | 'ImportNamespaceSpecifier';
    readonly imported?: { readonly type: string; readonly name?: string; readonly value?: unknown };
    readonly local: { readonly name: string };
  })[];
}
interface AstExport extends Located {
  readonly type: 'ExportNamedDeclaration' | 'ExportDefaultDeclaration' | 'ExportAllDeclaration';
  readonly declaration?: Located | null;
}

function checkPackage(name: string, line: number): ExamplePackage {
  if (!(EXAMPLE_PACKAGES as readonly string[]).includes(name))
    throw new ExampleError(
      `cannot import '${name}': examples may import ${EXAMPLE_PACKAGES.join(', ')}`,
      line,
    );
  return name as ExamplePackage;
}

/**
 * Parses an example and rewrites its `import` declarations into reads of the module table,
 * keeping every line where it was: `import { a, b as c } from '@geomech/core';` becomes
 * `const { a, b: c } = __modules["@geomech/core"];`, and `import * as core from '@geomech/core'`
 * becomes `const core = __modules["@geomech/core"];`. An `export` keyword before a declaration
 * is dropped. A syntax error, an import of anything but the geomech packages, a default import or
 * an `export { … }` list is an {@link ExampleError} with its line and column.
 *
 * @example
 * ```ts
 * transformExample("import { SO3 } from '@geomech/core';\nconsole.log(SO3.dim);").imports; // ['@geomech/core']
 * ```
 */
export function transformExample(source: string): TransformedExample {
  let program: { body: readonly (Located & { type: string })[] };
  try {
    program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowAwaitOutsideFunction: true,
      locations: true,
    }) as unknown as typeof program;
  } catch (e) {
    const loc = (e as { loc?: { line: number; column: number } }).loc;
    const message = (e as Error).message.replace(/\s*\(\d+:\d+\)$/, '');
    throw new ExampleError(`SyntaxError: ${message}`, loc?.line, loc ? loc.column + 1 : undefined);
  }
  const imports: ExamplePackage[] = [];
  const bindings: ExampleBinding[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  const lineOf = (n: Located) => n.loc?.start.line ?? 1;
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration') {
      const imp = node as unknown as AstImport;
      const pkg = checkPackage(String(imp.source.value), lineOf(imp));
      if (!imports.includes(pkg)) imports.push(pkg);
      const named: string[] = [];
      const stmts: string[] = [];
      for (const sp of imp.specifiers) {
        if (sp.type === 'ImportDefaultSpecifier')
          throw new ExampleError(
            `'${pkg}' has no default export: write import { … } from '${pkg}' or import * as name from '${pkg}'`,
            lineOf(sp),
          );
        if (sp.type === 'ImportNamespaceSpecifier') {
          stmts.push(`const ${sp.local.name} = __modules[${JSON.stringify(pkg)}];`);
          continue;
        }
        const name = String(sp.imported?.name ?? sp.imported?.value ?? sp.local.name);
        bindings.push({
          pkg,
          name,
          line: lineOf(sp),
          column: (sp.loc?.start.column ?? 0) + 1,
        });
        named.push(name === sp.local.name ? name : `${JSON.stringify(name)}: ${sp.local.name}`);
      }
      if (named.length > 0)
        stmts.unshift(`const { ${named.join(', ')} } = __modules[${JSON.stringify(pkg)}];`);
      const newlines = source.slice(imp.start, imp.end).split('\n').length - 1;
      edits.push({ start: imp.start, end: imp.end, text: stmts.join(' ') + '\n'.repeat(newlines) });
    } else if (node.type === 'ExportNamedDeclaration' && (node as AstExport).declaration) {
      const decl = (node as AstExport).declaration!;
      edits.push({ start: node.start, end: decl.start, text: ' '.repeat(decl.start - node.start) });
    } else if (node.type.startsWith('Export')) {
      throw new ExampleError(
        'examples do not export: print with console.log(…) or draw with plot(…)',
        lineOf(node),
      );
    }
  }
  let body = source;
  for (const e of edits.sort((a, b) => b.start - a.start))
    body = body.slice(0, e.start) + e.text + body.slice(e.end);
  return { body, imports, bindings };
}

/** Formats console arguments as the browser console would print them (numbers in full). */
export function formatConsoleArgs(args: readonly unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (typeof a === 'number' || typeof a === 'boolean' || a === undefined || a === null)
        return String(a);
      if (typeof a === 'bigint') return `${a}n`;
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

/** Levenshtein distance of two short strings (for "did you mean"). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

/**
 * The export of `names` nearest to `name` (case-insensitive edit distance at most a third of the
 * name's length, at least 2), or undefined.
 *
 * @example
 * ```ts
 * nearestName('MidpointHerglotzz', ['MidpointHerglotz', 'midpointLd']); // 'MidpointHerglotz'
 * ```
 */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const n of names) {
    const d = editDistance(name.toLowerCase(), n.toLowerCase());
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

type AsyncFn = (
  modules: Readonly<Record<string, unknown>>,
  plot: (spec: PlotSpec) => void,
  console: ExampleConsole,
) => Promise<unknown>;

/** The file name stack frames of an example carry (`//# sourceURL`). */
const SOURCE_URL = 'geomech-example.js';
const FRAME = new RegExp(`${SOURCE_URL.replace('.', '\\.')}:(\\d+):(\\d+)`);

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => AsyncFn;

function compile(body: string): AsyncFn {
  return new AsyncFunction(
    '__modules',
    'plot',
    'console',
    `"use strict";\n${body}\n//# sourceURL=${SOURCE_URL}`,
  );
}

let headerLines: number | undefined;
/**
 * How many lines the engine puts before the body of a compiled function, measured once by
 * compiling a probe that throws on body line 2 (V8 adds two, other engines may differ).
 */
async function header(): Promise<number> {
  if (headerLines !== undefined) return headerLines;
  try {
    await compile('throw new Error("probe");')({}, () => {}, console);
  } catch (e) {
    const m = FRAME.exec(String((e as Error).stack ?? ''));
    headerLines = m ? Number(m[1]) - 2 : 0;
  }
  return headerLines ?? 0;
}

/** The example line and column of an error thrown while the example ran, from its stack. */
async function locate(e: unknown): Promise<{ line: number; column: number } | undefined> {
  const m = FRAME.exec(String((e as { stack?: unknown } | null)?.stack ?? ''));
  if (!m) return undefined;
  // the example's line 1 is the body's line 2 (after "use strict")
  const line = Number(m[1]) - (await header()) - 1;
  return line >= 1 ? { line, column: Number(m[2]) } : undefined;
}

/**
 * Loads the packages an example imports, checks that every imported name exists, and runs it as
 * an async function of (`__modules`, `plot`, `console`). `load` maps a package name to its
 * module (a dynamic `import()` in the browser, the statically imported packages in Node). Any
 * fault is rethrown as an {@link ExampleError} that names its line in the example, when the
 * stack shows it (the original error is its `cause`).
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
  const { body, imports, bindings } = transformExample(source);
  const modules: Record<string, unknown> = {};
  for (const pkg of imports) modules[pkg] = await load(pkg);
  for (const b of bindings) {
    const mod = modules[b.pkg] as Record<string, unknown>;
    if (!(b.name in mod)) {
      const near = nearestName(b.name, Object.keys(mod));
      throw new ExampleError(
        `'${b.pkg}' has no export '${b.name}'${near ? `; did you mean '${near}'?` : ''}`,
        b.line,
        b.column,
      );
    }
  }
  const fn = compile(body);
  try {
    await fn(modules, helpers.plot, helpers.console);
  } catch (e) {
    const at = await locate(e);
    if (e instanceof ExampleError) {
      if (e.line !== undefined || at === undefined) throw e;
      throw new ExampleError(e.message, at.line, undefined, { cause: e });
    }
    if (at === undefined) throw e;
    const what = e instanceof Error ? `${e.name}: ${e.message}` : `uncaught ${String(e)}`;
    throw new ExampleError(what, at.line, at.column, { cause: e });
  }
}
