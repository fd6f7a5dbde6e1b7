/**
 * mathjs's expression parser, and nothing else of mathjs: the model files need `parse` only
 * (derivatives and code come from core's `SymGraph`). Importing the package entry builds every mathjs
 * function (≈ 1.5 s of CPU on a loaded machine, 0.5 s idle); here the factories of `parse` and its
 * dependencies are loaded from mathjs's number-only CommonJS build and wired by hand, as mathjs's
 * own `create({ parseDependencies })` would (evaluation-only dependencies are mathjs's `noMatrix`
 * and `noSubset`, as in its number build; evaluating a parsed node is not supported).
 *
 * mathjs's package `exports` map only exposes its whole entry points, so the files are required
 * by absolute path from the installed package directory (mathjs is pinned to 15.2.0, whose layout
 * the model tests exercise). Loaded on the first call.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { MathNode } from 'mathjs';

/** A mathjs factory: a function of its dependencies, with its name and dependency names. */
interface Factory {
  (dependencies: Record<string, unknown>): unknown;
  readonly fn: string;
  readonly dependencies: readonly string[];
}

/** The files (under `lib/cjs`) and exports of the factories `parse` needs, transitively. */
const FACTORIES: readonly (readonly [string, string])[] = [
  ['core/function/typed.js', 'createTyped'],
  ['type/number.js', 'createNumber'],
  ['function/utils/numeric.js', 'createNumeric'],
  ['function/utils/isBounded.js', 'createIsBounded'],
  ['function/matrix/size.js', 'createSize'],
  ['type/resultset/ResultSet.js', 'createResultSet'],
  ['expression/node/Node.js', 'createNode'],
  ...[
    'Accessor',
    'Array',
    'Assignment',
    'Block',
    'Conditional',
    'Constant',
    'FunctionAssignment',
    'Index',
    'Object',
    'Operator',
    'Parenthesis',
    'Range',
    'Relational',
    'Symbol',
    'Function',
  ].map((n) => [`expression/node/${n}Node.js`, `create${n}Node`] as const),
  ['expression/parse.js', 'createParse'],
];

/** `(text) => MathNode`, throwing mathjs's SyntaxError (with `char`) on malformed text. */
export type Parse = (text: string) => MathNode;

let cached: Parse | undefined;

function load(): Parse {
  const require = createRequire(import.meta.url);
  const root = join(dirname(require.resolve('mathjs/package.json')), 'lib', 'cjs');
  const file = (path: string) => require(join(root, path)) as Record<string, unknown>;
  const factories = new Map<string, Factory>();
  for (const [path, name] of FACTORIES) {
    const factory = file(path)[name] as Factory;
    factories.set(factory.fn, factory);
  }
  const noop = file('utils/noop.js') as { noMatrix: unknown; noSubset: unknown };
  const { DEFAULT_CONFIG } = file('core/config.js') as { DEFAULT_CONFIG: object };
  const instances = new Map<string, unknown>([
    ['config', Object.freeze({ ...DEFAULT_CONFIG, number: 'number' })],
    ['math', Object.freeze({})],
    ['mathWithTransform', Object.freeze({})],
    ['matrix', noop.noMatrix],
    ['subset', noop.noSubset],
  ]);
  const resolve = (name: string): unknown => {
    if (instances.has(name)) return instances.get(name);
    const factory = factories.get(name);
    if (factory === undefined) throw new Error(`mathjs parse: no factory for '${name}'`);
    const deps: Record<string, unknown> = {};
    for (const dep of factory.dependencies) {
      const optional = dep.startsWith('?');
      const key = optional ? dep.slice(1) : dep;
      if (optional && !factories.has(key) && !instances.has(key)) continue;
      deps[key] = resolve(key);
    }
    const value = factory(deps);
    instances.set(name, value);
    return value;
  };
  return resolve('parse') as Parse;
}

/**
 * mathjs `parse` (number configuration), loaded on the first call.
 *
 * @example
 * ```ts
 * parse('0.5*xdot^2 - sin(x)').toString(); // '0.5 * xdot ^ 2 - sin(x)'
 * parse('1 +* x');                          // throws SyntaxError: Value expected (char 4)
 * ```
 */
export function parse(text: string): MathNode {
  cached ??= load();
  return cached(text);
}
