/**
 * Symbolic scalar graphs in the manner of CasADi's SX (Andersson et al., *CasADi: a software
 * framework for nonlinear optimization and optimal control*, Math. Prog. Comp. 11 (2019), §3):
 * an expression is a node of a directed acyclic graph whose nodes are hash-consed — building the
 * same operation on the same operands twice returns the same node — so common subexpressions are
 * shared by construction, and derivative graphs built in the same graph share them too.
 *
 * Nodes are created through {@link Graph.ops}, a {@link LieScalarOps} implementation, so every
 * generic function written for core's `ScalarOps` (dual numbers) also traces:
 *
 * ```ts
 * const cost = <T>(o: ScalarOps<T>, x: T, y: T): T => o.mul(x, o.sin(y)); // generic, written once
 * const g = new SymGraph();
 * const [x, y] = g.symbols(2, 'x');
 * const f = cost(g.ops, x!, y!);             // an SX node
 * const df = g.gradient(f, [x!, y!]);        // SX nodes of ∂f/∂x, ∂f/∂y (reverse mode)
 * const fn = compileSym(g, [[x!, y!]], df); // (out, xy) => void, flat JavaScript
 * ```
 *
 * Construction folds constants and applies only identities that are exact in IEEE arithmetic for
 * finite operands and cost O(1): x + 0, x − 0, 0 − x = −x, x·1, x·(−1), x/1, −(−x), x + (−y) =
 * x − y, x − (−y) = x + y, (−x)·y = −(x·y), −(x − y) = y − x, |−x| = |x|, x⁰ = 1, x¹ = x, and
 * x·0 = 0/x = 0 (as CasADi: a structural zero, although 0·∞ is NaN). Nothing else is rewritten
 * (no x − x = 0, no reassociation), so a traced value is the function the user wrote, evaluated
 * in the same order.
 *
 * Node ids are creation order, hence a topological order: every operand precedes its users. All
 * traversals are iterative, so graphs of any depth are safe.
 *
 * @module
 */
import type { LieScalarOps } from '../ad/dual.js';
import { DomainError } from '../errors.js';
import { dense, gradient, hessian, jacobian, jvp, type SparseSX, vjp } from './derivatives.js';
import { ComputeBudgetError, SymbolicValueError } from './errors.js';
import {
  applyOp,
  isBinary,
  OP_ABS,
  OP_ACOS,
  OP_ACOSH,
  OP_ADD,
  OP_ASIN,
  OP_ASINH,
  OP_ATAN,
  OP_ATAN2,
  OP_ATANH,
  OP_CONST,
  OP_COS,
  OP_COSH,
  OP_DIV,
  OP_DIVZ,
  OP_EXP,
  OP_HYPOT,
  OP_LOG,
  OP_LOG10,
  OP_MUL,
  OP_NAME,
  OP_NEG,
  OP_POW,
  OP_POWC,
  OP_SIGN,
  OP_SIN,
  OP_SINH,
  OP_SQRT,
  OP_STUMPFF,
  OP_SUB,
  OP_SYMBOL,
  OP_TAN,
  OP_TANH,
} from './opcodes.js';
import { STUMPFF_MAX_ORDER, type stumpff } from './stumpff.js';

declare const SX_BRAND: unique symbol;

/**
 * A node of a symbolic {@link SymGraph}: an expression in the graph's symbols. A plain integer (the
 * node id) at run time, branded so that numbers and nodes cannot be mixed up in typed code. Nodes
 * of different graphs must not be mixed.
 */
export type SX = number & { readonly [SX_BRAND]: 'SX' };

/** The {@link LieScalarOps} of a graph: arithmetic on {@link SX} nodes that builds the graph. */
export type SymOps = LieScalarOps<SX>;

/** Default {@link SymGraphOptions.maxNodes}: 2·10⁶ nodes (≈ 60 MB). */
export const SYM_DEFAULT_MAX_NODES = 2_000_000;
/** Default {@link SymGraphOptions.maxWork}: 10⁸ node visits (seconds of work, not minutes). */
export const SYM_DEFAULT_MAX_WORK = 100_000_000;

/** Budgets of a {@link SymGraph}. */
export interface SymGraphOptions {
  /** Most distinct nodes the graph may hold ({@link ComputeBudgetError} `'nodes'` beyond). */
  readonly maxNodes?: number;
  /**
   * Most node visits of differentiation and compilation sweeps over the graph's life
   * ({@link ComputeBudgetError} `'work'` beyond).
   */
  readonly maxWork?: number;
}

/** The unary functions of {@link Graph.apply} (all of `Math`'s smooth ones, plus abs and sign). */
export type SymUnaryName =
  | 'sqrt'
  | 'exp'
  | 'log'
  | 'log10'
  | 'sin'
  | 'cos'
  | 'tan'
  | 'asin'
  | 'acos'
  | 'atan'
  | 'sinh'
  | 'cosh'
  | 'tanh'
  | 'asinh'
  | 'acosh'
  | 'atanh'
  | 'abs'
  | 'sign';

const UNARY: Readonly<Record<SymUnaryName, number>> = {
  sqrt: OP_SQRT,
  exp: OP_EXP,
  log: OP_LOG,
  log10: OP_LOG10,
  sin: OP_SIN,
  cos: OP_COS,
  tan: OP_TAN,
  asin: OP_ASIN,
  acos: OP_ACOS,
  atan: OP_ATAN,
  sinh: OP_SINH,
  cosh: OP_COSH,
  tanh: OP_TANH,
  asinh: OP_ASINH,
  acosh: OP_ACOSH,
  atanh: OP_ATANH,
  abs: OP_ABS,
  sign: OP_SIGN,
};

const EMPTY = -1;
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Operator precedence in printed expressions. */
function precedence(op: number): number {
  switch (op) {
    case OP_ADD:
    case OP_SUB:
      return 1;
    case OP_MUL:
    case OP_DIV:
      return 2;
    case OP_NEG:
      return 3;
    case OP_POWC:
      return 4;
    default:
      return 5;
  }
}

/**
 * A symbolic scalar graph: hash-consed nodes in flat typed arrays, a {@link SymOps} that builds
 * them, symbols (the inputs), queries (constants, dependence, substitution, printing) and the
 * differentiation of `derivatives.ts` as methods. See the module comment for the rewriting rules.
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const [x] = g.symbols(1, 'x');
 * const o = g.ops;
 * const f = o.mul(x!, o.sin(x!));
 * o.mul(x!, o.sin(x!)) === f;   // true: hash-consed
 * g.format(f);                  // 'x0 * sin(x0)'
 * ```
 */
export class SymGraph {
  /** Most distinct nodes (see {@link SymGraphOptions}). */
  readonly maxNodes: number;
  /** Most node visits of sweeps over the graph's life (see {@link SymGraphOptions}). */
  readonly maxWork: number;
  /** Node visits so far (differentiation and compilation sweeps). */
  work = 0;
  /** The {@link SymOps} of this graph: `ScalarOps` arithmetic that builds nodes. */
  readonly ops: SymOps;

  private n = 0;
  private capacity = 0;
  private opArr = new Uint8Array(0);
  private aArr = new Int32Array(0);
  private bArr = new Int32Array(0);
  private valArr = new Float64Array(0);
  private table = new Int32Array(0);
  private names = new Map<number, string>();
  private symbolCount = 0;
  /** Visit stamps of traversals (indexed by node id). */
  private stampArr = new Int32Array(0);
  private stamp = 0;

  constructor(options: SymGraphOptions = {}) {
    this.maxNodes = options.maxNodes ?? SYM_DEFAULT_MAX_NODES;
    this.maxWork = options.maxWork ?? SYM_DEFAULT_MAX_WORK;
    for (const [key, v] of [
      ['maxNodes', this.maxNodes],
      ['maxWork', this.maxWork],
    ] as const) {
      if (!(Number.isSafeInteger(v) && v >= 1)) {
        throw new DomainError(`SymGraph: ${key}`, v, 'a positive integer');
      }
    }
    this.grow(64);
    this.ops = this.makeOps();
  }

  /** Number of nodes in the graph. */
  get size(): number {
    return this.n;
  }

  // -------------------------------------------------------------------------------------------
  // storage

  private grow(capacity: number): void {
    const op = new Uint8Array(capacity);
    const a = new Int32Array(capacity);
    const b = new Int32Array(capacity);
    const val = new Float64Array(capacity);
    const stamps = new Int32Array(capacity);
    op.set(this.opArr);
    a.set(this.aArr);
    b.set(this.bArr);
    val.set(this.valArr);
    stamps.set(this.stampArr);
    this.opArr = op;
    this.aArr = a;
    this.bArr = b;
    this.valArr = val;
    this.stampArr = stamps;
    this.capacity = capacity;
    // the hash table keeps a load factor ≤ 1/2
    const table = new Int32Array(2 * capacity).fill(EMPTY);
    const mask = table.length - 1;
    for (let id = 0; id < this.n; id++) {
      if (this.opArr[id] === OP_SYMBOL) continue;
      let h = this.hash(this.opArr[id]!, this.aArr[id]!, this.bArr[id]!, this.valArr[id]!) & mask;
      while (table[h] !== EMPTY) h = (h + 1) & mask;
      table[h] = id;
    }
    this.table = table;
  }

  private hash(op: number, a: number, b: number, v: number): number {
    f64[0] = v;
    let h = Math.imul(op + 1, 0x9e3779b1);
    h = Math.imul(h ^ a, 0x85ebca6b) + 0x165667b1;
    h = Math.imul(h ^ b, 0xc2b2ae35);
    h = Math.imul(h ^ u32[0]!, 0x27d4eb2f);
    h = Math.imul(h ^ u32[1]!, 0x165667b1);
    return (h ^ (h >>> 15)) >>> 0;
  }

  /** Appends a node (the table slot is the caller's business); capacity must be available. */
  private append(op: number, a: number, b: number, v: number): number {
    if (this.n >= this.maxNodes) throw new ComputeBudgetError('nodes', this.maxNodes, this.n + 1);
    const id = this.n++;
    this.opArr[id] = op;
    this.aArr[id] = a;
    this.bArr[id] = b;
    this.valArr[id] = v;
    return id;
  }

  /** The hash-consed node (op, a, b, v): the existing one or a new one. */
  private node(op: number, a: number, b: number, v: number): SX {
    if (this.n === this.capacity) this.grow(2 * this.capacity);
    const mask = this.table.length - 1;
    let h = this.hash(op, a, b, v) & mask;
    f64[0] = v;
    const lo = u32[0]!;
    const hi = u32[1]!;
    for (;;) {
      const id = this.table[h]!;
      if (id === EMPTY) break;
      if (this.opArr[id] === op && this.aArr[id] === a && this.bArr[id] === b) {
        f64[0] = this.valArr[id]!;
        if (u32[0] === lo && u32[1] === hi) return id as SX;
      }
      h = (h + 1) & mask;
    }
    const id = this.append(op, a, b, v);
    this.table[h] = id;
    return id as SX;
  }

  // -------------------------------------------------------------------------------------------
  // inspection (used by derivatives.ts and compile.ts)

  /** @internal The operation of node `x`. */
  opOf(x: SX | number): number {
    return this.opArr[x]!;
  }
  /** @internal First operand (or the symbol's ordinal). */
  argA(x: SX | number): SX {
    return this.aArr[x]! as SX;
  }
  /** @internal Second operand (or the Stumpff order). */
  argB(x: SX | number): SX {
    return this.bArr[x]! as SX;
  }
  /** @internal The constant's value, or the exponent of a POWC node. */
  valueOf(x: SX | number): number {
    return this.valArr[x]!;
  }

  /** @internal Throws unless `x` is a node of this graph. */
  check(x: SX | number, what: string): void {
    if (!(Number.isInteger(x) && x >= 0 && x < this.n)) {
      throw new DomainError(what, x, `a node of this graph (0 ≤ id < ${this.n})`);
    }
  }

  /** @internal Charges `count` node visits to the work budget. */
  charge(count: number): void {
    this.work += count;
    if (this.work > this.maxWork) throw new ComputeBudgetError('work', this.maxWork, this.work);
  }

  /**
   * @internal The nodes reachable from `roots` (operands included), in increasing id, i.e.
   * topological, order. Iterative; charges the visits to the work budget.
   */
  cone(roots: readonly (SX | number)[]): Int32Array {
    const stamp = this.nextStamp();
    const marks = this.stampArr;
    const out: number[] = [];
    const stack: number[] = [];
    for (const r of roots) {
      this.check(r, 'sym: expression');
      if (marks[r] === stamp) continue;
      marks[r] = stamp;
      stack.push(r);
      while (stack.length > 0) {
        const u = stack.pop()!;
        out.push(u);
        const op = this.opArr[u]!;
        if (op === OP_CONST || op === OP_SYMBOL) continue;
        const a = this.aArr[u]!;
        if (marks[a] !== stamp) {
          marks[a] = stamp;
          stack.push(a);
        }
        if (isBinary(op)) {
          const b = this.bArr[u]!;
          if (marks[b] !== stamp) {
            marks[b] = stamp;
            stack.push(b);
          }
        }
      }
    }
    this.charge(out.length);
    return Int32Array.from(out).sort();
  }

  private nextStamp(): number {
    if (this.stamp === 0x7fffffff) {
      this.stampArr.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  // -------------------------------------------------------------------------------------------
  // leaves

  /**
   * A new symbol (an input): never shared with another symbol, even of the same name.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const t = g.symbol('t');
   * g.format(g.ops.mul(t, t)); // 't * t' (nothing is rewritten into powers)
   * ```
   */
  symbol(name?: string): SX {
    if (this.n === this.capacity) this.grow(2 * this.capacity);
    const ordinal = this.symbolCount++;
    const id = this.append(OP_SYMBOL, ordinal, 0, 0);
    this.names.set(id, name ?? `s${ordinal}`);
    return id as SX;
  }

  /**
   * `count` new symbols named `prefix0`, `prefix1`, … (the variables or parameters of a function).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const q = g.symbols(3, 'q'); // [q0, q1, q2]
   * ```
   */
  symbols(count: number, prefix = 'x'): SX[] {
    if (!(Number.isSafeInteger(count) && count >= 0)) {
      throw new DomainError('Graph.symbols: count', count, 'a non-negative integer');
    }
    const out: SX[] = [];
    for (let i = 0; i < count; i++) out.push(this.symbol(`${prefix}${i}`));
    return out;
  }

  /**
   * The constant node of value `c` (hash-consed by bit pattern, so −0 and 0 differ).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * g.constant(2) === g.ops.const(2); // true
   * ```
   */
  constant(c: number): SX {
    return this.node(OP_CONST, 0, 0, c);
  }

  /**
   * True when `x` is a constant node.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * g.isConstant(g.ops.sin(g.constant(0))); // true (folded to 0)
   * ```
   */
  isConstant(x: SX): boolean {
    this.check(x, 'Graph.isConstant');
    return this.opArr[x] === OP_CONST;
  }

  /**
   * The value of a constant node, undefined for any other node.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x] = g.symbols(1);
   * g.constantValue(g.ops.mul(x!, g.constant(0))); // 0 (x·0 is a structural zero)
   * ```
   */
  constantValue(x: SX): number | undefined {
    this.check(x, 'Graph.constantValue');
    return this.opArr[x] === OP_CONST ? this.valArr[x]! : undefined;
  }

  /**
   * True when `x` is a symbol (an input).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const q = g.symbol('q');
   * g.isSymbol(q);              // true
   * g.isSymbol(g.ops.neg(q));   // false
   * ```
   */
  isSymbol(x: SX): boolean {
    this.check(x, 'Graph.isSymbol');
    return this.opArr[x] === OP_SYMBOL;
  }

  /**
   * The name of a symbol (undefined for other nodes).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * g.symbolName(g.symbols(2, 'v')[1]!); // 'v1'
   * ```
   */
  symbolName(x: SX): string | undefined {
    this.check(x, 'Graph.symbolName');
    return this.opArr[x] === OP_SYMBOL ? this.names.get(x) : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // construction with the exact identities of the module comment

  private isConst(x: number, c?: number): boolean {
    return this.opArr[x] === OP_CONST && (c === undefined || this.valArr[x] === c);
  }

  /**
   * a + b (folded when both are constants; x + 0 = x; x + (−y) = x − y).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const x = g.symbol('x');
   * g.add(x, g.constant(0)) === x; // true
   * ```
   */
  add(a: SX, b: SX): SX {
    if (this.isConst(a) && this.isConst(b)) return this.constant(this.valArr[a]! + this.valArr[b]!);
    if (this.isConst(a, 0)) return b;
    if (this.isConst(b, 0)) return a;
    if (this.opArr[b] === OP_NEG) return this.sub(a, this.aArr[b]! as SX);
    if (this.opArr[a] === OP_NEG) return this.sub(b, this.aArr[a]! as SX);
    return this.node(OP_ADD, a, b, 0);
  }

  /** a − b (folded; x − 0 = x, 0 − x = −x, x − (−y) = x + y). Same rules as {@link add}. */
  sub(a: SX, b: SX): SX {
    if (this.isConst(a) && this.isConst(b)) return this.constant(this.valArr[a]! - this.valArr[b]!);
    if (this.isConst(b, 0)) return a;
    if (this.isConst(a, 0)) return this.neg(b);
    if (this.opArr[b] === OP_NEG) return this.add(a, this.aArr[b]! as SX);
    return this.node(OP_SUB, a, b, 0);
  }

  /**
   * a·b (folded; x·1 = x, x·(−1) = −x, x·0 = 0, (−x)·y = −(x·y)).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const x = g.symbol('x');
   * g.constantValue(g.mul(g.ops.sin(x), g.constant(0))); // 0: a structural zero
   * ```
   */
  mul(a: SX, b: SX): SX {
    if (this.isConst(a) && this.isConst(b)) return this.constant(this.valArr[a]! * this.valArr[b]!);
    if (this.isConst(a, 0) || this.isConst(b, 0)) return this.constant(0);
    if (this.isConst(a, 1)) return b;
    if (this.isConst(b, 1)) return a;
    if (this.isConst(a, -1)) return this.neg(b);
    if (this.isConst(b, -1)) return this.neg(a);
    const na = this.opArr[a] === OP_NEG;
    const nb = this.opArr[b] === OP_NEG;
    if (na && nb) return this.mul(this.aArr[a]! as SX, this.aArr[b]! as SX);
    if (na) return this.neg(this.mul(this.aArr[a]! as SX, b));
    if (nb) return this.neg(this.mul(a, this.aArr[b]! as SX));
    return this.node(OP_MUL, a, b, 0);
  }

  /** a/b (folded; 0/x = 0, x/1 = x, x/(−1) = −x). Same rules as {@link mul}. */
  div(a: SX, b: SX): SX {
    if (this.isConst(a) && this.isConst(b)) return this.constant(this.valArr[a]! / this.valArr[b]!);
    if (this.isConst(a, 0)) return this.constant(0);
    if (this.isConst(b, 1)) return a;
    if (this.isConst(b, -1)) return this.neg(a);
    return this.node(OP_DIV, a, b, 0);
  }

  /** −a (folded; −(−x) = x, −(x − y) = y − x). Same rules as {@link add}. */
  neg(a: SX): SX {
    const op = this.opArr[a]!;
    if (op === OP_CONST) return this.constant(-this.valArr[a]!);
    if (op === OP_NEG) return this.aArr[a]! as SX;
    if (op === OP_SUB) return this.node(OP_SUB, this.bArr[a]!, this.aArr[a]!, 0);
    return this.node(OP_NEG, a, 0, 0);
  }

  /**
   * aᵖ for a number p (p = 0 gives 1, p = 1 gives a); evaluated as a·a for p = 2, a·a·a for 3,
   * 1/a for −1, `Math.pow` otherwise; derivative p·aᵖ⁻¹.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * g.format(g.powc(g.symbol('x'), 3)); // 'x ^ 3'
   * ```
   */
  powc(a: SX, p: number): SX {
    if (p === 0) return this.constant(1);
    if (p === 1) return a;
    if (this.isConst(a)) return this.constant(applyOp(OP_POWC, this.valArr[a]!, 0, 0, p));
    return this.node(OP_POWC, a, 0, p);
  }

  /**
   * aᵇ with a symbolic exponent (a constant exponent gives {@link powc}); ∂/∂b = aᵇ·log a.
   */
  pow(a: SX, b: SX): SX {
    if (this.isConst(b)) return this.powc(a, this.valArr[b]!);
    return this.node(OP_POW, a, b, 0);
  }

  /**
   * The unary function `name` of a (folded when a is constant). The derivative of `sign` is 0;
   * that of `abs` is sign(a) (the zero subgradient at 0, as DualOps).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const x = g.symbol('x');
   * g.format(g.apply('asinh', x)); // 'asinh(x)'
   * g.constantValue(g.apply('log10', g.constant(100))); // 2
   * ```
   */
  apply(name: SymUnaryName, a: SX): SX {
    const op = Object.hasOwn(UNARY, name) ? UNARY[name] : undefined;
    if (op === undefined)
      throw new DomainError('Graph.apply: function', name, Object.keys(UNARY).join(', '));
    this.check(a, `Graph.apply: ${name}`);
    return this.unary(op, a);
  }

  /** @internal A unary operation of opcodes.ts on a (folded when a is constant). */
  unary(op: number, a: SX): SX {
    if (this.isConst(a)) return this.constant(applyOp(op, this.valArr[a]!, 0, 0, 0));
    if (op === OP_ABS && this.opArr[a] === OP_NEG) return this.unary(OP_ABS, this.aArr[a]! as SX);
    return this.node(op, a, 0, 0);
  }

  /** @internal A binary operation of opcodes.ts without special identities (atan2, hypot, divz). */
  binary(op: number, a: SX, b: SX): SX {
    if (this.isConst(a) && this.isConst(b)) {
      return this.constant(applyOp(op, this.valArr[a]!, this.valArr[b]!, 0, 0));
    }
    if (op === OP_DIVZ) {
      if (this.isConst(a, 0)) return this.constant(0);
      if (this.isConst(b) && this.valArr[b] !== 0) return this.div(a, b);
    }
    return this.node(op, a, b, 0);
  }

  /**
   * The Stumpff function c_k(a) (see {@link stumpff}); derivative (k·c_{k+2} − c_{k+1})/2.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * g.constantValue(g.stumpff(2, g.constant(0))); // 0.5
   * ```
   */
  stumpff(k: number, a: SX): SX {
    if (!(Number.isInteger(k) && k >= 0 && k <= STUMPFF_MAX_ORDER)) {
      throw new DomainError('stumpff: order k', k, `an integer in [0, ${STUMPFF_MAX_ORDER}]`);
    }
    if (this.isConst(a)) return this.constant(applyOp(OP_STUMPFF, this.valArr[a]!, 0, k, 0));
    return this.node(OP_STUMPFF, a, k, 0);
  }

  /**
   * @internal Rebuilds operation `op` of node `u` on new operands through the simplifying
   * constructors (used by substitution).
   */
  rebuild(u: number, a: SX, b: SX): SX {
    const op = this.opArr[u]!;
    switch (op) {
      case OP_ADD:
        return this.add(a, b);
      case OP_SUB:
        return this.sub(a, b);
      case OP_MUL:
        return this.mul(a, b);
      case OP_DIV:
        return this.div(a, b);
      case OP_POW:
        return this.pow(a, b);
      case OP_ATAN2:
      case OP_HYPOT:
      case OP_DIVZ:
        return this.binary(op, a, b);
      case OP_NEG:
        return this.neg(a);
      case OP_POWC:
        return this.powc(a, this.valArr[u]!);
      case OP_STUMPFF:
        return this.stumpff(this.bArr[u]!, a);
      default:
        return this.unary(op, a);
    }
  }

  private makeOps(): SymOps {
    const U =
      (op: number) =>
      (a: SX): SX =>
        this.unary(op, a);
    return Object.freeze({
      const: (c: number) => this.constant(c),
      value: (a: SX) => {
        this.check(a, 'SymOps.value');
        if (this.opArr[a] === OP_CONST) return this.valArr[a]!;
        throw new SymbolicValueError(this.format(a, 60));
      },
      add: (a: SX, b: SX) => this.add(a, b),
      sub: (a: SX, b: SX) => this.sub(a, b),
      mul: (a: SX, b: SX) => this.mul(a, b),
      div: (a: SX, b: SX) => this.div(a, b),
      neg: (a: SX) => this.neg(a),
      scale: (a: SX, c: number) => this.mul(this.constant(c), a),
      pow: (a: SX, p: number) => this.powc(a, p),
      sqrt: U(OP_SQRT),
      exp: U(OP_EXP),
      log: U(OP_LOG),
      sin: U(OP_SIN),
      cos: U(OP_COS),
      tan: U(OP_TAN),
      asin: U(OP_ASIN),
      acos: U(OP_ACOS),
      atan: U(OP_ATAN),
      atan2: (y: SX, x: SX) => this.binary(OP_ATAN2, y, x),
      sinh: U(OP_SINH),
      cosh: U(OP_COSH),
      tanh: U(OP_TANH),
      abs: U(OP_ABS),
      hypot: (a: SX, b: SX) => this.binary(OP_HYPOT, a, b),
      stumpff: (k: number, t: SX) => this.stumpff(k, t),
    });
  }

  // -------------------------------------------------------------------------------------------
  // differentiation (derivatives.ts)

  /**
   * The gradient ∇f with respect to the symbols `wrt`, by one reverse sweep (its cost is a small
   * multiple of f's graph, whatever the number of variables).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x, y] = g.symbols(2);
   * const o = g.ops;
   * const [fx, fy] = g.gradient(o.mul(x!, o.sin(y!)), [x!, y!]);
   * g.format(fx!); // 'sin(x1)'
   * g.format(fy!); // 'x0 * cos(x1)'
   * ```
   */
  gradient(f: SX, wrt: readonly SX[]): SX[] {
    return gradient(this, f, wrt);
  }

  /**
   * Forward mode: Σⱼ ∂fᵢ/∂xⱼ·seedⱼ for each output fᵢ (a directional derivative along the seeds,
   * which may be symbols), by one forward sweep.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [q, v] = g.symbols(2);
   * const o = g.ops;
   * const [d] = g.jvp([o.mul(q!, q!)], [q!], [v!]); // d/ds (q + s v)² at s = 0
   * g.format(d!); // 'x1 * x0 + x1 * x0' (v·q + v·q)
   * ```
   */
  jvp(outputs: readonly SX[], wrt: readonly SX[], seeds: readonly SX[]): SX[] {
    return jvp(this, outputs, wrt, seeds);
  }

  /**
   * Reverse mode: Σᵢ weightᵢ·∂fᵢ/∂xⱼ for each variable xⱼ, by one reverse sweep.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x, y, w0, w1] = g.symbols(4);
   * const o = g.ops;
   * g.vjp([o.mul(x!, y!), o.add(x!, y!)], [x!, y!], [w0!, w1!]); // [w0·y + w1, w0·x + w1]
   * ```
   */
  vjp(outputs: readonly SX[], wrt: readonly SX[], weights: readonly SX[]): SX[] {
    return vjp(this, outputs, wrt, weights);
  }

  /**
   * The sparse Jacobian ∂fᵢ/∂xⱼ (structural zeros not stored), by reverse sweeps over the rows or
   * forward sweeps over the columns, whichever are fewer (or as `mode` says).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x, y] = g.symbols(2);
   * const J = g.jacobian([g.ops.sin(x!), g.ops.mul(x!, y!)], [x!, y!]);
   * J.pattern.nnz;             // 3: ∂f₀/∂y is a structural zero
   * Array.from(J.pattern.col); // [0, 0, 1]
   * ```
   */
  jacobian(
    outputs: readonly SX[],
    wrt: readonly SX[],
    mode: 'auto' | 'forward' | 'reverse' = 'auto',
  ): SparseSX {
    return jacobian(this, outputs, wrt, mode);
  }

  /**
   * The Hessian of f, forward-over-reverse, as the sparse lower triangle (j ≤ i) of a symmetric
   * matrix. For σ·f + Σ yᵢcᵢ with runtime multipliers, make σ and y symbols and pass the sum.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const x = g.symbols(3);
   * const o = g.ops;
   * const s = o.add(o.add(x[0]!, x[1]!), x[2]!);
   * const H = g.hessian(o.mul(s, s), x); // all entries 2, one shared constant node
   * H.pattern.nnz;                       // 6 (lower triangle of 3×3)
   * ```
   */
  hessian(f: SX, wrt: readonly SX[]): SparseSX {
    return hessian(this, f, wrt);
  }

  /**
   * The dense row-major matrix of a sparse one (zeros as the constant 0; symmetric ones mirrored).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x, y] = g.symbols(2);
   * g.dense(g.jacobian([g.ops.mul(x!, y!)], [x!, y!])).map((e) => g.format(e)); // ['x1', 'x0']
   * ```
   */
  dense(s: SparseSX): SX[] {
    return dense(this, s);
  }

  // -------------------------------------------------------------------------------------------
  // queries

  /**
   * Number of nodes of the expressions `roots` (their shared cone: operations, symbols and
   * constants): the size that evaluation and compilation work on.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x] = g.symbols(1);
   * const s = g.ops.sin(x!);
   * g.countNodes([g.ops.mul(s, s)]); // 3: x, sin x, sin x · sin x
   * ```
   */
  countNodes(roots: readonly SX[]): number {
    return this.cone(roots).length;
  }

  /**
   * True when some expression of `roots` depends on one of `symbols` (structurally: it is in the
   * expression's graph).
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [x, y] = g.symbols(2);
   * g.dependsOn([g.ops.mul(x!, g.constant(0))], [x!]); // false: x·0 is the constant 0
   * g.dependsOn([g.ops.sin(y!)], [x!, y!]);            // true
   * ```
   */
  dependsOn(roots: readonly SX[], symbols: readonly SX[]): boolean {
    const cone = this.cone(roots);
    const stamp = this.nextStamp();
    for (const s of symbols) {
      this.check(s, 'Graph.dependsOn: symbol');
      this.stampArr[s] = stamp;
    }
    for (let i = 0; i < cone.length; i++) if (this.stampArr[cone[i]!] === stamp) return true;
    return false;
  }

  /**
   * The expressions `roots` with the symbols `from[i]` replaced by the expressions `to[i]`,
   * rebuilt through the simplifying constructors (so replacing v by 0 in v·a(q) gives 0).
   * Linear in the size of the roots' graph.
   *
   * @throws DomainError when `from` contains a node that is not a symbol, or the lengths differ.
   * @example
   * ```ts
   * const g = new SymGraph();
   * const [q, v] = g.symbols(2);
   * const o = g.ops;
   * const [r] = g.substitute([o.add(o.mul(v!, q!), o.cos(q!))], [v!], [g.constant(0)]);
   * g.format(r!); // 'cos(x0)'
   * ```
   */
  substitute(roots: readonly SX[], from: readonly SX[], to: readonly SX[]): SX[] {
    if (from.length !== to.length) {
      throw new DomainError(
        'Graph.substitute: replacements',
        to.length,
        `${from.length} (one per symbol)`,
      );
    }
    const replace = new Map<number, SX>();
    from.forEach((s, i) => {
      this.check(s, 'Graph.substitute: symbol');
      if (this.opArr[s] !== OP_SYMBOL) {
        throw new DomainError('Graph.substitute: from', this.format(s, 40), 'symbols only');
      }
      this.check(to[i]!, 'Graph.substitute: replacement');
      replace.set(s, to[i]!);
    });
    const cone = this.cone(roots);
    const image = new Map<number, SX>();
    for (let i = 0; i < cone.length; i++) {
      const u = cone[i]!;
      const op = this.opArr[u]!;
      if (op === OP_SYMBOL) {
        const r = replace.get(u);
        if (r !== undefined) image.set(u, r);
        continue;
      }
      if (op === OP_CONST) continue;
      const a = this.aArr[u]!;
      const ia = image.get(a);
      const b = isBinary(op) ? this.bArr[u]! : -1;
      const ib = b >= 0 ? image.get(b) : undefined;
      if (ia === undefined && ib === undefined) continue;
      image.set(u, this.rebuild(u, ia ?? (a as SX), ib ?? (b as SX)));
    }
    return roots.map((r) => image.get(r) ?? r);
  }

  /**
   * A mathjs-like rendering of `x` (symbols by name), cut after `maxChars` characters with `…`:
   * shared subexpressions are printed in full at each use, so the text of a large graph is long.
   *
   * @example
   * ```ts
   * const g = new SymGraph();
   * const x = g.symbol('x');
   * const o = g.ops;
   * g.format(o.add(o.pow(x, 2), o.const(1))); // 'x ^ 2 + 1'
   * ```
   */
  format(x: SX, maxChars = 200): string {
    this.check(x, 'Graph.format');
    let out = '';
    // a stack of pending items: strings to print, or nodes with their parenthesisation
    const stack: (string | number)[] = [x];
    while (stack.length > 0) {
      if (out.length > maxChars) return `${out.slice(0, maxChars)}…`;
      const item = stack.pop()!;
      if (typeof item === 'string') {
        out += item;
        continue;
      }
      const u = item;
      const op = this.opArr[u]!;
      if (op === OP_CONST) {
        out += String(this.valArr[u]!);
        continue;
      }
      if (op === OP_SYMBOL) {
        out += this.names.get(u) ?? `s${this.aArr[u]}`;
        continue;
      }
      const a = this.aArr[u]!;
      const b = this.bArr[u]!;
      const p = precedence(op);
      const wrap = (child: number, right: boolean): void => {
        const cop = this.opArr[child]!;
        const cp =
          cop === OP_CONST && this.valArr[child]! < 0 ? 3 : cop === OP_CONST ? 5 : precedence(cop);
        // a right operand of equal precedence keeps its brackets (the tree's grouping is shown)
        const paren = cp < p || (right && cp === p) || (op === OP_POWC && cp === p);
        if (paren) stack.push(')', child, '(');
        else stack.push(child);
      };
      switch (op) {
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV: {
          const sym = op === OP_ADD ? ' + ' : op === OP_SUB ? ' - ' : op === OP_MUL ? ' * ' : ' / ';
          wrap(b, true);
          stack.push(sym);
          wrap(a, false);
          break;
        }
        case OP_NEG:
          wrap(a, false);
          stack.push('-');
          break;
        case OP_POWC: {
          const e = this.valArr[u]!;
          stack.push(e < 0 ? ` ^ (${e})` : ` ^ ${e}`);
          wrap(a, false);
          break;
        }
        case OP_STUMPFF:
          stack.push(')', a, `stumpff(${b}, `);
          break;
        default:
          if (isBinary(op)) stack.push(')', b, ', ', a, `${OP_NAME[op]}(`);
          else stack.push(')', a, `${OP_NAME[op]}(`);
      }
    }
    return out;
  }

  /**
   * @internal Whether node `u` is the constant zero (a structural zero of a derivative).
   */
  isZero(u: number): boolean {
    return this.opArr[u] === OP_CONST && this.valArr[u] === 0;
  }
}
