/**
 * Expressions of model files (CLI contract, "Model files"): parsing with mathjs (`parse` only, see
 * mathjs.ts), checking against a closed grammar, and translation into a symbolic graph of core's
 * `SymGraph` (hash-consed nodes, so common subexpressions are shared), where the model kinds take
 * their derivatives by automatic differentiation and compile them once into flat functions
 * before any integration loop. The translation is iterative, so nesting depth costs no stack.
 *
 * Grammar: numbers, the constants `pi` and `e`, the model's variables and parameters, `+ - * / ^`
 * (with implicit multiplication), parentheses and the smooth functions of {@link FUNCTION_NAMES}.
 * User names are resolved by a {@link Scope} to the model's symbols, so they can never collide
 * with mathjs's own constants (`phi`, `i`, …).
 *
 * @module
 */
import type { SX, SymGraph } from '@geomech/core';
import type {
  ConstantNode,
  FunctionNode,
  MathNode,
  OperatorNode,
  ParenthesisNode,
  SymbolNode,
} from 'mathjs';
import { ModelError, quote } from './errors.js';
import { parse } from './mathjs.js';

/**
 * Longest expression accepted, in characters: room for a Lagrangian in 256 coordinates (about
 * 25 characters a coordinate); differentiation and compilation are linear in the length.
 */
export const MAX_EXPRESSION_CHARS = 16_000;
/** Deepest bracket nesting accepted in an expression (mathjs parses recursively). */
export const MAX_EXPRESSION_DEPTH = 64;
/** Most nodes accepted in a parsed expression (about one per character at most). */
export const MAX_EXPRESSION_NODES = 16_000;

/** The name of the constant π in expressions. */
const PI = 'pi';
/** The name of Euler's number e in expressions. */
const E = 'e';

/**
 * The functions an expression may call, with their arities and their construction in the graph.
 * All are smooth where defined (`abs`, `sign`, `acoth`, `cbrt`, … are left out of the grammar).
 */
const FUNCTIONS: Readonly<
  Record<
    string,
    { readonly arity: readonly number[]; readonly build: (g: SymGraph, a: readonly SX[]) => SX }
  >
> = {
  sin: { arity: [1], build: (g, a) => g.apply('sin', a[0]!) },
  cos: { arity: [1], build: (g, a) => g.apply('cos', a[0]!) },
  tan: { arity: [1], build: (g, a) => g.apply('tan', a[0]!) },
  sec: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('cos', a[0]!)) },
  csc: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('sin', a[0]!)) },
  cot: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('tan', a[0]!)) },
  asin: { arity: [1], build: (g, a) => g.apply('asin', a[0]!) },
  acos: { arity: [1], build: (g, a) => g.apply('acos', a[0]!) },
  atan: { arity: [1], build: (g, a) => g.apply('atan', a[0]!) },
  sinh: { arity: [1], build: (g, a) => g.apply('sinh', a[0]!) },
  cosh: { arity: [1], build: (g, a) => g.apply('cosh', a[0]!) },
  tanh: { arity: [1], build: (g, a) => g.apply('tanh', a[0]!) },
  sech: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('cosh', a[0]!)) },
  csch: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('sinh', a[0]!)) },
  coth: { arity: [1], build: (g, a) => g.div(g.constant(1), g.apply('tanh', a[0]!)) },
  asinh: { arity: [1], build: (g, a) => g.apply('asinh', a[0]!) },
  acosh: { arity: [1], build: (g, a) => g.apply('acosh', a[0]!) },
  atanh: { arity: [1], build: (g, a) => g.apply('atanh', a[0]!) },
  exp: { arity: [1], build: (g, a) => g.apply('exp', a[0]!) },
  log: {
    arity: [1, 2],
    build: (g, a) =>
      a.length === 1 ? g.apply('log', a[0]!) : g.div(g.apply('log', a[0]!), g.apply('log', a[1]!)),
  },
  log10: { arity: [1], build: (g, a) => g.apply('log10', a[0]!) },
  sqrt: { arity: [1], build: (g, a) => g.apply('sqrt', a[0]!) },
  pow: { arity: [2], build: (g, a) => power(g, a[0]!, a[1]!) },
};

/** aᵇ, with e^b as exp(b) (one function, and its derivative needs no log e). */
function power(g: SymGraph, a: SX, b: SX): SX {
  return g.constantValue(a) === Math.E ? g.apply('exp', b) : g.pow(a, b);
}

/** The function names an expression may call. */
export const FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS);

/**
 * Names a model may not give to a coordinate or parameter: the callable functions, the constants
 * `pi` and `e`, mathjs's operator keywords and JavaScript's non-finite literals.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  ...FUNCTION_NAMES,
  PI,
  E,
  'mod',
  'to',
  'in',
  'and',
  'or',
  'xor',
  'not',
  'true',
  'false',
  'null',
  'undefined',
  'NaN',
  'Infinity',
]);

/** The identifiers a model may use as names (ASCII letters, digits, `_`; not starting with a digit). */
export const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Where an expression came from: the JSON path of its field and the model file. */
export interface Origin {
  readonly field: string;
  readonly file: string;
}

/** The symbols an expression may use: user name → graph symbol, and a hint for other names. */
export interface Scope {
  /** The symbol of a user name, or undefined when the name is not in scope. */
  lookup(name: string): SX | undefined;
  /** Why `name` is not in scope (e.g. "velocities are not allowed in constraints"), if known. */
  hint(name: string): string | undefined;
  /** The names in scope, for the error message of an unknown name. */
  readonly names: readonly string[];
}

/**
 * A store of parse trees by expression source, consulted before mathjs (the model-file cache,
 * cache.ts): `get` returns a tree of the node types and fields the grammar reads, or undefined;
 * `record` is told the tree of each expression that parsed and passed the grammar.
 */
export interface ParseMemo {
  get(source: string): MathNode | undefined;
  record(source: string, tree: MathNode): void;
}

/** The memo of the analysis running now (set by {@link withParseMemo}), if any. */
let activeMemo: ParseMemo | undefined;

/**
 * Runs `analyze` (synchronous) with `memo` consulted by every {@link parseExpression} it makes.
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const scope = simpleScope(new Map([['x', g.symbol('x')]]));
 * const trees = new Map<string, MathNode>();
 * const memo: ParseMemo = { get: (s) => trees.get(s), record: (s, t) => void trees.set(s, t) };
 * withParseMemo(memo, () => parseExpression('x^2', { field: 'lagrangian', file: 'm.json' }, scope, g));
 * trees.has('x^2'); // true
 * ```
 */
export function withParseMemo<T>(memo: ParseMemo | undefined, analyze: () => T): T {
  const outer = activeMemo;
  activeMemo = memo;
  try {
    return analyze();
  } finally {
    activeMemo = outer;
  }
}

/** A parsed, checked expression as a node of the model's graph, with its source and tree. */
export interface Expression {
  readonly node: SX;
  readonly source: string;
  readonly origin: Origin;
  /**
   * The checked parse tree (mathjs's, or the memo's with the same node types and fields), for
   * readers of the tree other than the graph (optimal-control tapes), so that none parses again.
   */
  readonly tree: MathNode;
}

// ---------------------------------------------------------------------------------------------
// positions

interface Token {
  readonly text: string;
  /** 0-based index in the source. */
  readonly index: number;
  readonly kind: 'name' | 'number' | 'other';
}

const TOKEN =
  /([A-Za-z_$\u00c0-\u02af\u0370-\u03ff\u2100-\u214f][\w$\u00c0-\u02af\u0370-\u03ff\u2100-\u214f]*)|(0[xXbBoO][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|(\S)/g;

/** The tokens of an expression source, as far as error positions need them. */
function tokens(source: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(source); m !== null; m = TOKEN.exec(source)) {
    if (m[0] === '#') break; // a comment runs to the end of the line; positions after it are rare
    const kind = m[1] !== undefined ? 'name' : m[2] !== undefined ? 'number' : 'other';
    out.push({ text: m[0], index: m.index, kind });
  }
  return out;
}

/** 1-based position of the first token satisfying `test`, if any. */
function position(source: string, test: (t: Token, next: Token | undefined) => boolean) {
  const list = tokens(source);
  for (let i = 0; i < list.length; i++) {
    if (test(list[i]!, list[i + 1])) return list[i]!.index + 1;
  }
  return undefined;
}

/** 1-based position of the identifier `name` in `source` (as a call when `call` is set). */
function namePosition(source: string, name: string, call = false): number | undefined {
  return position(
    source,
    (t, next) => t.kind === 'name' && t.text === name && (!call || next?.text === '('),
  );
}

/** 1-based position of the first occurrence of one of the characters or words in `marks`. */
function markPosition(source: string, marks: readonly string[]): number | undefined {
  for (const mark of marks) {
    const p = /^\w+$/.test(mark)
      ? namePosition(source, mark)
      : source.indexOf(mark) + 1 || undefined;
    if (p !== undefined) return p;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// parsing

function fail(origin: Origin, what: string, at?: number): never {
  throw new ModelError(origin.field, what, origin.file, at);
}

/** Checks the bracket depth before mathjs's recursive parser sees the text. */
function checkDepth(source: string, origin: Origin): void {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '(' || c === '[' || c === '{') {
      depth++;
      if (depth > MAX_EXPRESSION_DEPTH)
        fail(origin, `brackets nested deeper than ${MAX_EXPRESSION_DEPTH} levels`, i + 1);
    } else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
}

/** Describes a node type the grammar does not allow, with the marks to look for in the source. */
const FORBIDDEN: Readonly<Record<string, { what: string; marks: readonly string[] }>> = {
  AssignmentNode: { what: 'assignments are not allowed', marks: ['='] },
  FunctionAssignmentNode: { what: 'function definitions are not allowed', marks: ['='] },
  ArrayNode: { what: 'matrices and vectors are not allowed', marks: ['['] },
  MatrixNode: { what: 'matrices and vectors are not allowed', marks: ['['] },
  AccessorNode: { what: 'indexing and property access are not allowed', marks: ['[', '.'] },
  IndexNode: { what: 'indexing is not allowed', marks: ['['] },
  ObjectNode: { what: 'objects are not allowed', marks: ['{'] },
  ConditionalNode: { what: 'conditionals (a ? b : c) are not allowed', marks: ['?'] },
  RangeNode: { what: 'ranges (a:b) are not allowed', marks: [':'] },
  BlockNode: { what: 'one expression only (no ; or line breaks)', marks: [';', '\n', '\r'] },
  RelationalNode: { what: 'comparisons are not allowed', marks: ['<', '>', '=', '!'] },
};

/** The operators of the grammar (mathjs `fn` names). */
const OPERATORS = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'unaryMinus',
  'unaryPlus',
  'pow',
]);

/** A node still to check (stage 0) or to build from its operands' values (stage 1). */
interface Frame {
  readonly node: MathNode;
  readonly build: boolean;
}

/**
 * Checks a parsed tree against the grammar and builds its graph node, iteratively: nodes are
 * checked in the order of a recursive pre-order walk (so the first fault reported is the
 * leftmost outermost one, as before), and built in post-order on a value stack.
 */
class Translator {
  private count = 0;
  constructor(
    private readonly g: SymGraph,
    private readonly source: string,
    private readonly origin: Origin,
    private readonly scope: Scope,
  ) {}

  translate(root: MathNode): SX {
    const work: Frame[] = [{ node: root, build: false }];
    const values: SX[] = [];
    while (work.length > 0) {
      const { node, build } = work.pop()!;
      if (build) {
        this.build(node, values);
        continue;
      }
      if (++this.count > MAX_EXPRESSION_NODES)
        fail(this.origin, `expression too long (more than ${MAX_EXPRESSION_NODES} terms)`);
      const children = this.check(node, values);
      if (children === undefined) continue;
      if (node.type !== 'ParenthesisNode') work.push({ node, build: true });
      for (let i = children.length - 1; i >= 0; i--)
        work.push({ node: children[i]!, build: false });
    }
    return values.pop()!;
  }

  /** Checks `n`; pushes the value of a leaf, or returns the operands to visit. */
  private check(n: MathNode, values: SX[]): readonly MathNode[] | undefined {
    const { source, origin } = this;
    switch (n.type) {
      case 'ConstantNode': {
        const v: unknown = (n as ConstantNode).value;
        if (typeof v !== 'number') {
          const marks = typeof v === 'string' ? ['"', "'"] : [String(v)];
          fail(
            origin,
            `only numbers are allowed as constants, got ${v === null ? 'null' : typeof v}`,
            markPosition(source, marks),
          );
        }
        if (!Number.isFinite(v)) {
          const at = position(
            source,
            (t) =>
              (t.kind === 'number' && !Number.isFinite(Number(t.text))) || t.text === String(v),
          );
          fail(origin, `the number ${String(v)} is not finite`, at);
        }
        values.push(this.g.constant(v));
        return undefined;
      }
      case 'SymbolNode':
        values.push(this.symbol((n as SymbolNode).name));
        return undefined;
      case 'ParenthesisNode':
        return [(n as ParenthesisNode).content];
      case 'OperatorNode': {
        const op = n as OperatorNode;
        if (!OPERATORS.has(op.fn)) {
          fail(
            origin,
            `operator ${quote(op.op)} is not allowed (use + - * / ^)`,
            markPosition(source, [op.op]),
          );
        }
        return op.args;
      }
      case 'FunctionNode': {
        const fn = n as FunctionNode;
        if (fn.fn.type !== 'SymbolNode')
          fail(origin, 'only calls of named functions are allowed', markPosition(source, ['(']));
        const name = (fn.fn as SymbolNode).name;
        const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
        if (spec === undefined) {
          const at = namePosition(source, name, true) ?? namePosition(source, name);
          if (this.scope.lookup(name) !== undefined || name === PI || name === E) {
            fail(origin, `'${name}' is not a function; write ${name}*(...) for a product`, at);
          }
          fail(
            origin,
            `unknown function ${quote(name)} (allowed: ${FUNCTION_NAMES.join(', ')})`,
            at,
          );
        }
        if (!spec.arity.includes(fn.args.length)) {
          fail(
            origin,
            `${name} takes ${spec.arity.join(' or ')} argument${spec.arity.length === 1 && spec.arity[0] === 1 ? '' : 's'}, got ${fn.args.length}`,
            namePosition(source, name, true),
          );
        }
        return fn.args;
      }
      default: {
        const forbidden = FORBIDDEN[n.type];
        if (forbidden) fail(origin, forbidden.what, markPosition(source, forbidden.marks));
        return fail(origin, `unsupported expression (${n.type})`);
      }
    }
  }

  /** Builds an operator or call from the values of its operands (on top of `values`). */
  private build(n: MathNode, values: SX[]): void {
    const g = this.g;
    if (n.type === 'FunctionNode') {
      const fn = n as FunctionNode;
      const args = values.splice(values.length - fn.args.length);
      values.push(FUNCTIONS[(fn.fn as SymbolNode).name]!.build(g, args));
      return;
    }
    const op = n as OperatorNode;
    const args = values.splice(values.length - op.args.length);
    switch (op.fn) {
      case 'unaryPlus':
        values.push(args[0]!);
        return;
      case 'unaryMinus':
        values.push(g.neg(args[0]!));
        return;
      case 'pow':
        values.push(power(g, args[0]!, args[1]!));
        return;
      default: {
        // left to right, as mathjs and JavaScript evaluate a op b op c
        const f =
          op.fn === 'add'
            ? (a: SX, b: SX) => g.add(a, b)
            : op.fn === 'subtract'
              ? (a: SX, b: SX) => g.sub(a, b)
              : op.fn === 'multiply'
                ? (a: SX, b: SX) => g.mul(a, b)
                : (a: SX, b: SX) => g.div(a, b);
        values.push(args.reduce(f));
      }
    }
  }

  private symbol(name: string): SX {
    if (name === PI) return this.g.constant(Math.PI);
    if (name === E) return this.g.constant(Math.E);
    const found = this.scope.lookup(name);
    if (found !== undefined) return found;
    const at = namePosition(this.source, name);
    if (Object.hasOwn(FUNCTIONS, name))
      fail(this.origin, `function '${name}' needs an argument: ${name}(...)`, at);
    const hint = this.scope.hint(name);
    const known = this.scope.names.length > 0 ? this.scope.names.join(', ') : 'none';
    fail(this.origin, `unknown variable ${quote(name)} (${hint ?? `known: ${known}, pi, e`})`, at);
  }
}

/**
 * Parses and checks one expression of a model file (the grammar of this module) and builds it in
 * the graph `g`, resolving names through `scope`.
 *
 * @throws {@link ModelError} naming `origin.field` and the character position of the fault: a
 *   mathjs syntax error (its `char`), an unknown variable or function, a call of a variable, a
 *   wrong number of arguments, a forbidden construct, a non-finite number, an empty, too long or
 *   too deeply nested expression.
 * @example
 * ```ts
 * const g = new SymGraph();
 * const scope = simpleScope(new Map([['x', g.symbol('x')]]));
 * g.format(parseExpression('0.5*x^2', { field: 'lagrangian', file: 'm.json' }, scope, g).node); // '0.5 * x ^ 2'
 * parseExpression('0.5*w^2', { field: 'lagrangian', file: 'm.json' }, scope, g); // throws "lagrangian: unknown variable "w" (known: x, pi, e) at char 5"
 * ```
 */
export function parseExpression(
  source: string,
  origin: Origin,
  scope: Scope,
  g: SymGraph,
): Expression {
  if (source.trim() === '') fail(origin, 'empty expression');
  if (source.length > MAX_EXPRESSION_CHARS)
    fail(origin, `expression too long (over ${MAX_EXPRESSION_CHARS} characters)`);
  checkDepth(source, origin);
  const memo = activeMemo;
  const known = memo?.get(source);
  let raw: MathNode;
  try {
    raw = known ?? parse(source);
  } catch (error) {
    if (error instanceof RangeError) {
      // mathjs parses recursively; thousands of prefix operators can exhaust the stack
      fail(origin, 'expression nested too deeply (too many operators in a row)');
    }
    const message = error instanceof Error ? error.message : String(error);
    const char = (error as { char?: unknown }).char;
    const at = typeof char === 'number' && Number.isInteger(char) ? char : undefined;
    fail(origin, `syntax error: ${message.replace(/\s*\(char \d+\)\s*$/, '')}`, at);
  }
  if (raw.type === 'ConstantNode' && (raw as ConstantNode).value === undefined)
    fail(origin, 'empty expression');
  const node = new Translator(g, source, origin, scope).translate(raw);
  if (memo !== undefined && known === undefined) memo.record(source, raw);
  return { node, source, origin, tree: raw };
}

/**
 * A {@link Scope} from a map of user names to symbols, with an optional hint function.
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const xdot = g.symbol('xdot');
 * const scope = simpleScope(new Map([['x', g.symbol('x')], ['xdot', xdot]]));
 * scope.lookup('xdot') === xdot; // true
 * ```
 */
export function simpleScope(
  names: ReadonlyMap<string, SX>,
  hint: (name: string) => string | undefined = () => undefined,
): Scope {
  return { lookup: (name) => names.get(name), hint, names: [...names.keys()] };
}
