/**
 * Expressions of model files (CLI contract, "Model files"): parsing with mathjs and checking
 * against a closed grammar, symbolic derivatives (mathjs `derivative` + `simplify`), and
 * compilation of the simplified trees into plain JavaScript functions by generating source and
 * calling `new Function` once, before any integration loop. Hot loops never call mathjs.
 *
 * Grammar: numbers, the constants `pi` and `e`, the model's variables and parameters, `+ - * / ^`
 * (with implicit multiplication), parentheses and the smooth functions of {@link FUNCTION_NAMES}.
 * Every user symbol is renamed to an internal name (`_q0`, `_v0`, `_z`, `_t`, `_p0`, …) before
 * mathjs sees it, so user names can never collide with mathjs's own constants (`phi`, `i`, …).
 *
 * @module
 */
import {
  ConstantNode,
  derivative,
  FunctionNode,
  isConstantNode,
  isFunctionNode,
  isOperatorNode,
  isParenthesisNode,
  isSymbolNode,
  type MathNode,
  OperatorNode,
  parse,
  SymbolNode,
  simplify,
} from 'mathjs';
import { ModelError, quote } from './errors.js';

/** Longest expression accepted, in characters. */
export const MAX_EXPRESSION_CHARS = 4000;
/** Deepest bracket nesting accepted in an expression (mathjs parses recursively). */
export const MAX_EXPRESSION_DEPTH = 64;
/** Most nodes accepted in a parsed expression. */
export const MAX_EXPRESSION_NODES = 2000;
/** Most nodes of a derivative (bounds the work of differentiating it again and compiling it). */
export const MAX_DERIVATIVE_NODES = 20000;
/** Largest tree handed to mathjs `simplify`; larger ones are only {@link prune}d. */
export const MAX_SIMPLIFY_NODES = 48;

/** Internal name of the constant π in the symbolic trees (substituted when code is generated). */
const PI = 'pi';
/** Internal name of Euler's number e. */
const E = 'e';

/**
 * The functions an expression may call, with their arities and JavaScript forms. All are smooth
 * where defined and differentiable by mathjs (`abs`, `sign`, `acoth` (whose mathjs derivative has
 * the wrong sign), `cbrt` (whose derivative is NaN for negative arguments), … are left out).
 */
const FUNCTIONS: Readonly<
  Record<
    string,
    { readonly arity: readonly number[]; readonly js: (a: readonly string[]) => string }
  >
> = {
  sin: { arity: [1], js: (a) => `Math.sin(${a[0]})` },
  cos: { arity: [1], js: (a) => `Math.cos(${a[0]})` },
  tan: { arity: [1], js: (a) => `Math.tan(${a[0]})` },
  sec: { arity: [1], js: (a) => `(1/Math.cos(${a[0]}))` },
  csc: { arity: [1], js: (a) => `(1/Math.sin(${a[0]}))` },
  cot: { arity: [1], js: (a) => `(1/Math.tan(${a[0]}))` },
  asin: { arity: [1], js: (a) => `Math.asin(${a[0]})` },
  acos: { arity: [1], js: (a) => `Math.acos(${a[0]})` },
  atan: { arity: [1], js: (a) => `Math.atan(${a[0]})` },
  sinh: { arity: [1], js: (a) => `Math.sinh(${a[0]})` },
  cosh: { arity: [1], js: (a) => `Math.cosh(${a[0]})` },
  tanh: { arity: [1], js: (a) => `Math.tanh(${a[0]})` },
  sech: { arity: [1], js: (a) => `(1/Math.cosh(${a[0]}))` },
  csch: { arity: [1], js: (a) => `(1/Math.sinh(${a[0]}))` },
  coth: { arity: [1], js: (a) => `(1/Math.tanh(${a[0]}))` },
  asinh: { arity: [1], js: (a) => `Math.asinh(${a[0]})` },
  acosh: { arity: [1], js: (a) => `Math.acosh(${a[0]})` },
  atanh: { arity: [1], js: (a) => `Math.atanh(${a[0]})` },
  exp: { arity: [1], js: (a) => `Math.exp(${a[0]})` },
  log: {
    arity: [1, 2],
    js: (a) => (a.length === 1 ? `Math.log(${a[0]})` : `(Math.log(${a[0]})/Math.log(${a[1]}))`),
  },
  log10: { arity: [1], js: (a) => `Math.log10(${a[0]})` },
  sqrt: { arity: [1], js: (a) => `Math.sqrt(${a[0]})` },
  pow: { arity: [2], js: (a) => `Math.pow(${a[0]}, ${a[1]})` },
};

/** Functions that derivatives may introduce although users cannot call them. */
const DERIVED_ONLY: Readonly<Record<string, (a: readonly string[]) => string>> = {
  abs: (a) => `Math.abs(${a[0]})`,
};

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

/** The symbols an expression may use: user name → internal name, and a hint for other names. */
export interface Scope {
  /** Internal name of a user symbol, or undefined when the symbol is not in scope. */
  lookup(name: string): string | undefined;
  /** Why `name` is not in scope (e.g. "velocities are not allowed in constraints"), if known. */
  hint(name: string): string | undefined;
  /** The names in scope, for the error message of an unknown name. */
  readonly names: readonly string[];
}

/** A parsed, checked expression in internal names, with its source for error positions. */
export interface Expression {
  readonly node: MathNode;
  readonly source: string;
  readonly origin: Origin;
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

class Checker {
  private count = 0;
  constructor(
    private readonly source: string,
    private readonly origin: Origin,
    private readonly scope: Scope,
  ) {}

  node(n: MathNode): MathNode {
    if (++this.count > MAX_EXPRESSION_NODES)
      fail(this.origin, `expression too long (more than ${MAX_EXPRESSION_NODES} terms)`);
    const { source, origin } = this;
    if (isConstantNode(n)) {
      const v: unknown = n.value;
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
          (t) => (t.kind === 'number' && !Number.isFinite(Number(t.text))) || t.text === String(v),
        );
        fail(origin, `the number ${String(v)} is not finite`, at);
      }
      return new ConstantNode(v);
    }
    if (isSymbolNode(n)) return this.symbol(n.name);
    if (isParenthesisNode(n)) return this.node(n.content);
    if (isOperatorNode(n)) {
      if (!OPERATORS.has(n.fn)) {
        fail(
          origin,
          `operator ${quote(n.op)} is not allowed (use + - * / ^)`,
          markPosition(source, [n.op]),
        );
      }
      const args = n.args.map((a) => this.node(a));
      if (n.fn === 'unaryPlus') return args[0]!;
      // e^x is exp(x): one function call, and the derivative needs no log(e)
      if (n.fn === 'pow' && isSymbolNode(args[0]!) && args[0].name === E)
        return new FunctionNode(new SymbolNode('exp'), [args[1]!]);
      return new OperatorNode(n.op as '+', n.fn as 'add', args, n.implicit);
    }
    if (isFunctionNode(n)) {
      if (!isSymbolNode(n.fn))
        fail(origin, 'only calls of named functions are allowed', markPosition(source, ['(']));
      const name = n.fn.name;
      const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
      if (spec === undefined) {
        const at = namePosition(source, name, true) ?? namePosition(source, name);
        if (this.scope.lookup(name) !== undefined || name === PI || name === E) {
          fail(origin, `'${name}' is not a function; write ${name}*(...) for a product`, at);
        }
        fail(origin, `unknown function ${quote(name)} (allowed: ${FUNCTION_NAMES.join(', ')})`, at);
      }
      if (!spec.arity.includes(n.args.length)) {
        fail(
          origin,
          `${name} takes ${spec.arity.join(' or ')} argument${spec.arity.length === 1 && spec.arity[0] === 1 ? '' : 's'}, got ${n.args.length}`,
          namePosition(source, name, true),
        );
      }
      return new FunctionNode(
        new SymbolNode(name),
        n.args.map((a) => this.node(a)),
      );
    }
    const forbidden = FORBIDDEN[n.type];
    if (forbidden) fail(origin, forbidden.what, markPosition(source, forbidden.marks));
    return fail(origin, `unsupported expression (${n.type})`);
  }

  private symbol(name: string): MathNode {
    if (name === PI || name === E) return new SymbolNode(name);
    const internal = this.scope.lookup(name);
    const at = namePosition(this.source, name);
    if (internal !== undefined) return new SymbolNode(internal);
    if (Object.hasOwn(FUNCTIONS, name))
      fail(this.origin, `function '${name}' needs an argument: ${name}(...)`, at);
    const hint = this.scope.hint(name);
    const known = this.scope.names.length > 0 ? this.scope.names.join(', ') : 'none';
    fail(this.origin, `unknown variable ${quote(name)} (${hint ?? `known: ${known}, pi, e`})`, at);
  }
}

/**
 * Parses and checks one expression of a model file (the grammar of this module), renaming its
 * symbols to the internal names of `scope`.
 *
 * @throws {@link ModelError} naming `origin.field` and the character position of the fault: a
 *   mathjs syntax error (its `char`), an unknown variable or function, a call of a variable, a
 *   wrong number of arguments, a forbidden construct, a non-finite number, an empty or too long
 *   expression.
 * @example
 * ```ts
 * const scope = simpleScope(new Map([['x', '_q0']]));
 * parseExpression('0.5*x^2', { field: 'lagrangian', file: 'm.json' }, scope).node.toString(); // '0.5 * _q0 ^ 2'
 * parseExpression('0.5*w^2', { field: 'lagrangian', file: 'm.json' }, scope); // throws "lagrangian: unknown variable "w" (known: x, pi, e) at char 5"
 * ```
 */
export function parseExpression(source: string, origin: Origin, scope: Scope): Expression {
  if (source.trim() === '') fail(origin, 'empty expression');
  if (source.length > MAX_EXPRESSION_CHARS)
    fail(origin, `expression too long (over ${MAX_EXPRESSION_CHARS} characters)`);
  checkDepth(source, origin);
  let raw: MathNode;
  try {
    raw = parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const char = (error as { char?: unknown }).char;
    const at = typeof char === 'number' && Number.isInteger(char) ? char : undefined;
    fail(origin, `syntax error: ${message.replace(/\s*\(char \d+\)\s*$/, '')}`, at);
  }
  if (isConstantNode(raw) && raw.value === undefined) fail(origin, 'empty expression');
  const node = new Checker(source, origin, scope).node(raw);
  return { node, source, origin };
}

/**
 * A {@link Scope} from a map of user names to internal names, with an optional hint function.
 *
 * @example
 * ```ts
 * const scope = simpleScope(new Map([['x', '_q0'], ['xdot', '_v0']]));
 * scope.lookup('xdot'); // '_v0'
 * ```
 */
export function simpleScope(
  names: ReadonlyMap<string, string>,
  hint: (name: string) => string | undefined = () => undefined,
): Scope {
  return { lookup: (name) => names.get(name), hint, names: [...names.keys()] };
}

// ---------------------------------------------------------------------------------------------
// symbolic operations

function nodeCount(n: MathNode): number {
  let count = 0;
  n.traverse(() => {
    count++;
  });
  return count;
}

/** A number node, or undefined. */
function numberOf(node: MathNode): number | undefined {
  return isConstantNode(node) && typeof node.value === 'number' ? node.value : undefined;
}

/**
 * Cheap algebra before mathjs `simplify` (which costs milliseconds even on a constant): drops
 * parentheses, folds numbers, flattens sums and products (one numeric coefficient, signs pulled
 * out), removes `+ 0`, `* 1`, `/ 1`, `^ 1`, turns `* 0`, `0 / a`, `^ 0` into numbers and `0 − a`
 * into `−a`. Derivatives are full of such terms.
 *
 * @example
 * ```ts
 * prune(parse('0.5 * 2 * _v0 ^ (2 - 1) + 0')).toString(); // '_v0'
 * ```
 */
export function prune(node: MathNode): MathNode {
  if (isParenthesisNode(node)) return prune(node.content);
  if (isFunctionNode(node)) {
    return new FunctionNode(node.fn, node.args.map(prune));
  }
  if (!isOperatorNode(node)) return node;
  const args = node.args.map(prune);
  const nums = args.map(numberOf);
  const fold = FOLD[node.fn];
  if (nums.every((x) => x !== undefined) && nums.length > 0) {
    if (node.fn === 'unaryMinus') return new ConstantNode(-nums[0]!);
    if (node.fn === 'unaryPlus') return new ConstantNode(nums[0]!);
    if (fold !== undefined)
      return new ConstantNode((nums as number[]).reduce((a, b) => fold(a, b)));
  }
  switch (node.fn) {
    case 'unaryPlus':
      return args[0]!;
    case 'unaryMinus': {
      const a = args[0]!;
      if (isOperatorNode(a) && a.fn === 'unaryMinus') return a.args[0]!;
      return new OperatorNode('-', 'unaryMinus', [a]);
    }
    case 'add': {
      // flatten nested sums, add up the numbers (kept last, as simplify does)
      const terms: MathNode[] = [];
      let c = 0;
      const collect = (a: MathNode): void => {
        const x = numberOf(a);
        if (x !== undefined) c += x;
        else if (isOperatorNode(a) && a.fn === 'add') a.args.forEach(collect);
        else terms.push(a);
      };
      args.forEach(collect);
      if (c !== 0 || terms.length === 0) terms.push(new ConstantNode(c));
      return terms.length === 1 ? terms[0]! : new OperatorNode('+', 'add', terms);
    }
    case 'subtract':
      if (nums[1] === 0) return args[0]!;
      if (nums[0] === 0) return prune(new OperatorNode('-', 'unaryMinus', [args[1]!]));
      return new OperatorNode('-', 'subtract', args);
    case 'multiply': {
      // flatten nested products and signs, multiply the numbers into one leading coefficient
      const factors: MathNode[] = [];
      let c = 1;
      const collect = (a: MathNode): void => {
        const x = numberOf(a);
        if (x !== undefined) c *= x;
        else if (isOperatorNode(a) && a.fn === 'multiply') a.args.forEach(collect);
        else if (isOperatorNode(a) && a.fn === 'unaryMinus') {
          c = -c;
          collect(a.args[0]!);
        } else factors.push(a);
      };
      args.forEach(collect);
      if (c === 0 || factors.length === 0) return new ConstantNode(c);
      const product =
        factors.length === 1 ? factors[0]! : new OperatorNode('*', 'multiply', factors);
      if (c === 1) return product;
      if (c === -1) return new OperatorNode('-', 'unaryMinus', [product]);
      return new OperatorNode('*', 'multiply', [new ConstantNode(c), ...factors]);
    }
    case 'divide':
      if (nums[0] === 0) return new ConstantNode(0);
      if (nums[1] === 1) return args[0]!;
      return new OperatorNode('/', 'divide', args);
    case 'pow':
      if (nums[1] === 1) return args[0]!;
      if (nums[1] === 0) return new ConstantNode(1);
      return new OperatorNode('^', 'pow', args);
    default:
      return new OperatorNode(node.op as '+', node.fn as 'add', args, node.implicit);
  }
}

const isLeaf = (n: MathNode): boolean => isConstantNode(n) || isSymbolNode(n);

/** A leaf, a function of leaves, or a leaf to a numeric power. */
function isFactor(n: MathNode): boolean {
  if (isLeaf(n)) return true;
  if (isFunctionNode(n)) return n.args.every(isLeaf);
  return isOperatorNode(n) && n.fn === 'pow' && isLeaf(n.args[0]!) && isConstantNode(n.args[1]!);
}

/**
 * True for a monomial (± a product of factors, see {@link isFactor}): it is zero only when its
 * coefficient is, so `simplify` would only rearrange it.
 */
function isTrivial(node: MathNode): boolean {
  if (isOperatorNode(node) && node.fn === 'unaryMinus') return isTrivial(node.args[0]!);
  if (isOperatorNode(node) && node.fn === 'multiply') return node.args.every(isFactor);
  return isFactor(node);
}

/**
 * {@link prune}, then mathjs `simplify` with exact fractions off (numbers stay IEEE doubles, so no
 * decimal constant is turned into a fraction), unless the pruned tree is already trivial or larger
 * than {@link MAX_SIMPLIFY_NODES} (simplify's cost grows steeply with the size). When mathjs
 * cannot simplify a tree (it folds some constants into complex numbers, e.g. for `(-x)^x`), the
 * pruned tree is kept: it is the same function.
 *
 * @example
 * ```ts
 * simplifyNode(parse('_q0 * 2 + _q0')).toString(); // '3 * _q0'
 * ```
 */
export function simplifyNode(node: MathNode): MathNode {
  const pruned = prune(node);
  if (isTrivial(pruned) || nodeCount(pruned) > MAX_SIMPLIFY_NODES) return pruned;
  try {
    return simplify(pruned, {}, { exactFractions: false });
  } catch {
    return pruned;
  }
}

/**
 * The simplified partial derivative ∂node/∂`variable` (internal name) by mathjs `derivative`.
 * `label` names the variable in messages.
 *
 * @throws {@link ModelError} naming the field when mathjs cannot differentiate or the derivative
 *   is too large.
 * @example
 * ```ts
 * differentiate(parse('_q0^2*_p0'), '_q0', 'x', origin).toString(); // '2 * _p0 * _q0'
 * ```
 */
export function differentiate(
  node: MathNode,
  variable: string,
  label: string,
  origin: Origin,
): MathNode {
  let d: MathNode;
  try {
    d = derivative(node, new SymbolNode(variable), { simplify: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(origin, `cannot differentiate with respect to ${label}: ${message}`);
  }
  if (nodeCount(d) > MAX_DERIVATIVE_NODES)
    fail(origin, `the derivative with respect to ${label} is too large`);
  return simplifyNode(d);
}

/**
 * The internal symbol names a tree uses.
 *
 * @example
 * ```ts
 * symbolsOf(parse('_p0 * sin(_q0)')); // Set {'_p0', '_q0'}
 * ```
 */
export function symbolsOf(node: MathNode): Set<string> {
  const out = new Set<string>();
  node.traverse((n) => {
    if (isSymbolNode(n)) out.add(n.name);
  });
  return out;
}

/**
 * True when the tree uses one of `names`.
 *
 * @example
 * ```ts
 * dependsOn(parse('_p0 * _q0'), ['_v0', '_q0']); // true
 * ```
 */
export function dependsOn(node: MathNode, names: Iterable<string>): boolean {
  const used = symbolsOf(node);
  for (const name of names) if (used.has(name)) return true;
  return false;
}

/**
 * True when the tree is the number `value` (as simplification leaves it).
 *
 * @example
 * ```ts
 * isNumber(simplifyNode(parse('_q0 - _q0')), 0); // true
 * ```
 */
export function isNumber(node: MathNode, value: number): boolean {
  return isConstantNode(node) && node.value === value;
}

/**
 * Replaces every symbol named in `values` by the given tree (or number).
 *
 * @example
 * ```ts
 * substitute(parse('_v0 * _q0'), new Map([['_v0', 0]])).toString(); // '0 * _q0'
 * ```
 */
export function substitute(
  node: MathNode,
  values: ReadonlyMap<string, MathNode | number>,
): MathNode {
  return node.transform((n) => {
    if (!isSymbolNode(n)) return n;
    const v = values.get(n.name);
    if (v === undefined) return n;
    return typeof v === 'number' ? new ConstantNode(v) : v.cloneDeep();
  });
}

// ---------------------------------------------------------------------------------------------
// code generation

/** How an internal symbol reaches generated code: loaded from an argument, or a constant. */
export type Binding =
  | { readonly kind: 'input'; readonly local: string; readonly load: string }
  | { readonly kind: 'value'; readonly value: number };

type Emitted = { readonly num: number } | { readonly code: string };

/** A JavaScript literal of a double that parses back to the same double. */
function literal(x: number): string {
  if (Number.isNaN(x)) return '(0/0)';
  if (x === Number.POSITIVE_INFINITY) return '(1/0)';
  if (x === Number.NEGATIVE_INFINITY) return '(-1/0)';
  if (Object.is(x, -0)) return '(-0)';
  return x < 0 ? `(${String(x)})` : String(x);
}

function codeOf(e: Emitted): string {
  return 'num' in e ? literal(e.num) : e.code;
}

const FOLD: Readonly<Record<string, (a: number, b: number) => number>> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => a / b,
  pow: (a, b) => a ** b,
};

const JS_OP: Readonly<Record<string, string>> = {
  add: '+',
  subtract: '-',
  multiply: '*',
  divide: '/',
};

/** Math functions for folding calls whose arguments are all numbers (same results as at run time). */
const MATH: Readonly<Record<string, (...a: number[]) => number>> = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  sec: (x) => 1 / Math.cos(x),
  csc: (x) => 1 / Math.sin(x),
  cot: (x) => 1 / Math.tan(x),
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  sech: (x) => 1 / Math.cosh(x),
  csch: (x) => 1 / Math.sinh(x),
  coth: (x) => 1 / Math.tanh(x),
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  exp: Math.exp,
  log: (x, b) => (b === undefined ? Math.log(x) : Math.log(x) / Math.log(b)),
  log10: Math.log10,
  sqrt: Math.sqrt,
  pow: Math.pow,
  abs: Math.abs,
};

/**
 * Turns simplified expression trees into JavaScript source: constants (parameters, π, e) are
 * substituted and folded with the arithmetic JavaScript itself would do, small integer powers
 * become products, every function call and every repeated power base is computed once into a
 * local (common subexpressions by identical source), and each input is loaded once.
 *
 * @example
 * ```ts
 * const e = new Emitter(new Map([['_q0', { kind: 'input', local: 'q0', load: 'q[0]' }],
 *   ['_p0', { kind: 'value', value: 2 }]]), origin);
 * e.expression(parse('_p0 * sin(_q0)^2')); // '(2*(t0*t0))'
 * e.prologue(); // 'const q0 = q[0];\nconst t0 = Math.sin(q0);\n'
 * ```
 */
export class Emitter {
  private readonly used = new Set<string>();
  private readonly temps = new Map<string, string>();
  private readonly lines: string[] = [];

  constructor(
    private readonly bindings: ReadonlyMap<string, Binding>,
    private readonly origin: Origin,
  ) {}

  /** JavaScript source of `node` (uses the locals declared by {@link prologue}). */
  expression(node: MathNode): string {
    return codeOf(this.emit(node));
  }

  /** The declarations the expressions emitted so far need: input loads, then temporaries. */
  prologue(): string {
    const loads: string[] = [];
    for (const [, b] of this.bindings) {
      if (b.kind === 'input' && this.used.has(b.local)) loads.push(`const ${b.local} = ${b.load};`);
    }
    return [...loads, ...this.lines].map((l) => `${l}\n`).join('');
  }

  private temp(code: string): string {
    if (/^[A-Za-z_$][\w$]*$/.test(code)) return code;
    let name = this.temps.get(code);
    if (name === undefined) {
      name = `t${this.temps.size}`;
      this.temps.set(code, name);
      this.lines.push(`const ${name} = ${code};`);
    }
    return name;
  }

  private emit(node: MathNode): Emitted {
    if (isConstantNode(node)) {
      const v: unknown = node.value;
      if (typeof v !== 'number')
        return fail(this.origin, `internal: non-numeric constant ${String(v)}`);
      return { num: v };
    }
    if (isParenthesisNode(node)) return this.emit(node.content);
    if (isSymbolNode(node)) {
      if (node.name === PI) return { num: Math.PI };
      if (node.name === E) return { num: Math.E };
      const b = this.bindings.get(node.name);
      if (b === undefined) return fail(this.origin, `internal: unbound symbol ${node.name}`);
      if (b.kind === 'value') return { num: b.value };
      this.used.add(b.local);
      return { code: b.local };
    }
    if (isOperatorNode(node)) return this.operator(node.fn, node.args);
    if (isFunctionNode(node)) {
      const name = isSymbolNode(node.fn) ? node.fn.name : '';
      if (name === 'pow' && node.args.length === 2) return this.operator('pow', node.args);
      const js = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name]!.js : DERIVED_ONLY[name];
      const math = MATH[name];
      if (js === undefined || math === undefined)
        return fail(this.origin, `internal: no code for function ${name}`);
      const args = node.args.map((a) => this.emit(a));
      if (args.every((a) => 'num' in a))
        return { num: math(...args.map((a) => (a as { num: number }).num)) };
      return { code: this.temp(js(args.map(codeOf))) };
    }
    return fail(this.origin, `internal: no code for ${node.type}`);
  }

  private operator(fn: string, argNodes: readonly MathNode[]): Emitted {
    const args = argNodes.map((a) => this.emit(a));
    if (fn === 'unaryMinus') {
      const a = args[0]!;
      return 'num' in a ? { num: -a.num } : { code: `(-${a.code})` };
    }
    if (fn === 'unaryPlus') return args[0]!;
    if (fn === 'pow') return this.power(args[0]!, args[1]!);
    const op = JS_OP[fn];
    const fold = FOLD[fn];
    if (op === undefined || fold === undefined || args.length === 0)
      return fail(this.origin, `internal: no code for operator ${fn}`);
    // left to right, as JavaScript evaluates a op b op c: fold the leading constants only
    let acc = args[0]!;
    for (let i = 1; i < args.length; i++) {
      const b = args[i]!;
      acc =
        'num' in acc && 'num' in b
          ? { num: fold(acc.num, b.num) }
          : { code: `(${codeOf(acc)}${op}${codeOf(b)})` };
    }
    return acc;
  }

  private power(base: Emitted, exponent: Emitted): Emitted {
    if ('num' in base && 'num' in exponent) return { num: base.num ** exponent.num };
    if ('num' in exponent) {
      const k = exponent.num;
      if (k === 1) return base;
      if (k === 0.5) return { code: this.temp(`Math.sqrt(${codeOf(base)})`) };
      if (Number.isInteger(k) && k !== 0 && Math.abs(k) <= 4) {
        const b = this.temp(codeOf(base));
        const product = `(${new Array<string>(Math.abs(k)).fill(b).join('*')})`;
        return { code: k > 0 ? product : `(1/${product})` };
      }
    }
    return { code: this.temp(`Math.pow(${codeOf(base)}, ${codeOf(exponent)})`) };
  }
}

/**
 * Compiles generated statements into a function: `build` emits the statements (through the
 * {@link Emitter}) and the function body is the emitter's prologue followed by them. Called once
 * per run, before the loop; the result is plain JavaScript.
 *
 * @example
 * ```ts
 * const bindings = new Map([['_q0', { kind: 'input', local: 'q0', load: 'q[0]' }]]);
 * const f = compile<(out: Float64Array, q: Float64Array) => Float64Array>(['out', 'q'], bindings,
 *   origin, (e) => `out[0] = ${e.expression(parse('2*_q0'))};\nreturn out;`);
 * f(new Float64Array(1), Float64Array.of(3)); // [6]
 * ```
 */
export function compile<F>(
  args: readonly string[],
  bindings: ReadonlyMap<string, Binding>,
  origin: Origin,
  build: (e: Emitter) => string,
): F {
  const emitter = new Emitter(bindings, origin);
  const statements = build(emitter);
  const source = `"use strict";\n${emitter.prologue()}${statements}`;
  // the source holds only generated identifiers and numeric literals, never user text
  return new Function(...args, source) as F;
}

/**
 * `target[i] = expr_i;` lines for a list of trees (a vector or a row-major matrix).
 *
 * @example
 * ```ts
 * assignments(emitter, 'out', [parse('1'), parse('_q0')]); // 'out[0] = 1;\nout[1] = q0;\n'
 * ```
 */
export function assignments(e: Emitter, target: string, nodes: readonly MathNode[]): string {
  return nodes.map((node, i) => `${target}[${i}] = ${e.expression(node)};\n`).join('');
}
