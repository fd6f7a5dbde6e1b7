/**
 * Compilation of symbolic expressions into plain functions over flat arrays, once, before any hot
 * loop. The expressions' graph is cut to what the outputs need (dead code elimination), ordered
 * topologically (node ids), and turned into straight-line code, one operation per statement:
 *
 * - `'js'`: JavaScript generated as text and compiled by one `new Function` call. Temporaries are
 *   `const` locals; a graph of more than {@link SYM_JS_CHUNK} operations is split into functions of
 *   that many statements (V8 optimises a function only below a bytecode size), the values that
 *   cross a split passing through a preallocated Float64Array.
 * - `'interpreter'`: the same operations as a tape (opcodes and operand slots in typed arrays)
 *   executed by a loop over a preallocated work vector, for environments that forbid
 *   `new Function` (a Content Security Policy without `unsafe-eval`) and for huge graphs.
 *
 * Both evaluate every operation by the definitions of opcodes.ts, so they give bit-identical
 * results. Outputs are written in place (a constant covering half of many outputs, such as the
 * zeros of a dense matrix, by one `fill`). Neither allocates per call once V8 has optimised it
 * (a scalar function's returned double is boxed, 16 bytes, where V8 does not inline the call; the
 * vector form never allocates); neither is reentrant (the work vectors are shared by the calls of
 * one compiled function).
 *
 * @module
 */
import { DimensionError, DomainError } from '../errors.js';
import type { SX, SymGraph } from './graph.js';
import {
  applyOp,
  isBinary,
  jsOf,
  literal,
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
import { stumpffTo } from './stumpff.js';

/** An argument of a compiled function: one symbol (a number argument) or a vector of symbols. */
export type SymInput = SX | readonly SX[];

/** Most arguments of a compiled function besides `out`. */
export const SYM_MAX_INPUTS = 8;
/** Statements per generated function in `'js'` mode (see the module comment; measured in bench/sym.mjs). */
export const SYM_JS_CHUNK = 1000;
/** Output runs of one value at least this long are written by a loop. */
const FILL_RUN = 4;
/** Functions of at least this many outputs fill a constant covering half of them at once. */
const BACKGROUND_MIN = 16;
/** `'auto'` mode generates JavaScript up to this many operations and interprets larger graphs. */
export const SYM_JS_MAX_OPERATIONS = 200_000;

/** How to compile (see the module comment). */
export interface SymCompileOptions {
  /** `'auto'` (default): `'js'` when `new Function` is allowed and the graph is not huge. */
  readonly mode?: 'auto' | 'js' | 'interpreter';
  /** Name used in the messages of dimension errors. */
  readonly name?: string;
}

/** An argument value: a Float64Array for a vector input, a number for a scalar input. */
export type SymArgument = Float64Array | number;

/**
 * A compiled vector function `f(out, ...inputs)`: writes the outputs into `out[0 … outputs − 1]`.
 * Throws a DimensionError when `out` or a vector argument is shorter than declared, or a scalar
 * argument is not a number.
 */
export interface SymFunction {
  (out: Float64Array, ...inputs: SymArgument[]): void;
  /** How it runs. */
  readonly mode: 'js' | 'interpreter';
  /** Number of operations evaluated per call. */
  readonly operations: number;
  /** Number of outputs written. */
  readonly outputs: number;
}

/** A compiled scalar function `f(...inputs)` returning its one output. */
export interface SymScalarFunction {
  (...inputs: SymArgument[]): number;
  readonly mode: 'js' | 'interpreter';
  readonly operations: number;
}

/**
 * The straight-line program of some outputs: value slots are the symbol loads, then the
 * constants, then the operations' results.
 */
interface Plan {
  readonly name: string;
  /** Length of each vector input, −1 for a scalar input. */
  readonly inputs: readonly number[];
  /** Loads: input index and element (−1 for a scalar input). */
  readonly loadArg: Int32Array;
  readonly loadElement: Int32Array;
  readonly constants: Float64Array;
  readonly op: Uint8Array;
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly k: Int32Array;
  readonly p: Float64Array;
  /** Slot of each output. */
  readonly out: Int32Array;
}

function plan(
  g: SymGraph,
  inputs: readonly SymInput[],
  outputs: readonly SX[],
  name: string,
): Plan {
  if (inputs.length > SYM_MAX_INPUTS) {
    throw new DomainError(`${name}: inputs`, inputs.length, `at most ${SYM_MAX_INPUTS} arguments`);
  }
  const where = new Map<number, { arg: number; element: number }>();
  const shapes = inputs.map((input, arg) => {
    const list = typeof input === 'number' ? [input] : input;
    list.forEach((s, element) => {
      g.check(s, `${name}: input`);
      if (!g.isSymbol(s)) {
        throw new DomainError(`${name}: input ${arg}`, g.format(s, 40), 'symbols only');
      }
      if (where.has(s)) {
        throw new DomainError(`${name}: input ${arg}`, g.symbolName(s), 'each symbol in one input');
      }
      where.set(s, { arg, element: typeof input === 'number' ? -1 : element });
    });
    return typeof input === 'number' ? -1 : list.length;
  });
  const cone = g.cone(outputs);
  const slot = new Map<number, number>();
  const loads: number[] = [];
  const constants: number[] = [];
  const ops: number[] = [];
  for (let i = 0; i < cone.length; i++) {
    const u = cone[i]!;
    const op = g.opOf(u);
    if (op === OP_SYMBOL) {
      if (!where.has(u)) {
        throw new DomainError(
          `${name}: outputs`,
          g.symbolName(u as SX),
          'expressions in the input symbols only (this symbol is not an input)',
        );
      }
      loads.push(u);
    } else if (op === OP_CONST) constants.push(u);
    else ops.push(u);
  }
  loads.forEach((u, i) => {
    slot.set(u, i);
  });
  constants.forEach((u, i) => {
    slot.set(u, loads.length + i);
  });
  const base = loads.length + constants.length;
  ops.forEach((u, i) => {
    slot.set(u, base + i);
  });
  const n = ops.length;
  const result: Plan = {
    name,
    inputs: shapes,
    loadArg: Int32Array.from(loads, (u) => where.get(u)!.arg),
    loadElement: Int32Array.from(loads, (u) => where.get(u)!.element),
    constants: Float64Array.from(constants, (u) => g.valueOf(u)),
    op: new Uint8Array(n),
    x: new Int32Array(n),
    y: new Int32Array(n),
    k: new Int32Array(n),
    p: new Float64Array(n),
    out: Int32Array.from(outputs, (f) => slot.get(f)!),
  };
  ops.forEach((u, i) => {
    const op = g.opOf(u);
    result.op[i] = op;
    result.x[i] = slot.get(g.argA(u))!;
    if (isBinary(op)) result.y[i] = slot.get(g.argB(u))!;
    else result.k[i] = g.argB(u);
    result.p[i] = g.valueOf(u);
  });
  g.charge(n);
  return result;
}

// ---------------------------------------------------------------------------------------------
// JavaScript

let generationAllowed: boolean | undefined;

/**
 * Whether `new Function` works here (false under a Content Security Policy without
 * `unsafe-eval`, where `'auto'` compilation falls back to the interpreter).
 *
 * @example
 * ```ts
 * canGenerateCode(); // true in Node
 * ```
 */
export function canGenerateCode(): boolean {
  if (generationAllowed === undefined) {
    try {
      generationAllowed = new Function('return 1')() === 1;
    } catch {
      generationAllowed = false;
    }
  }
  return generationAllowed;
}

/** The argument checks at the top of a generated function. */
function checks(pl: Plan, withOut: boolean): string {
  const lines: string[] = [];
  if (withOut)
    lines.push(`if (!(out.length >= ${pl.out.length})) fail('out', ${pl.out.length}, out);`);
  pl.inputs.forEach((len, k) => {
    lines.push(
      len < 0
        ? `if (typeof i${k} !== 'number') fail('input ${k}', 'a number', i${k});`
        : `if (!(i${k}.length >= ${len})) fail('input ${k}', ${len}, i${k});`,
    );
  });
  return lines.join('\n');
}

/**
 * The JavaScript source of the factory that returns the compiled function (see
 * {@link compiledSource}). The factory takes `stumpffTo` and `fail`.
 */
function generateSource(pl: Plan, scalar: boolean): string {
  const nLoads = pl.loadArg.length;
  const nConst = pl.constants.length;
  const base = nLoads + nConst;
  const n = pl.op.length;
  const args = pl.inputs.map((_, k) => `i${k}`);
  const params = (scalar ? args : ['out', ...args]).join(', ');
  const ref = (s: number): string =>
    s < nLoads ? `a${s}` : s < base ? literal(pl.constants[s - nLoads]!) : `t${s - base}`;
  const load = (s: number): string => {
    const arg = pl.loadArg[s]!;
    const el = pl.loadElement[s]!;
    return `const a${s} = ${el < 0 ? `i${arg}` : `i${arg}[${el}]`};`;
  };
  const operation = (i: number): string =>
    pl.op[i] === OP_STUMPFF
      ? // through the scratch S: no double crosses the call (see stumpffTo)
        `S[0] = ${ref(pl.x[i]!)};\nstumpffTo(${pl.k[i]!}, S, 0, S, 0);\nconst t${i} = S[0];`
      : `const t${i} = ${jsOf(pl.op[i]!, ref(pl.x[i]!), ref(pl.y[i]!), pl.k[i]!, pl.p[i]!)};`;

  // the outputs as runs of one value: a loop for a run of FILL_RUN or more (not out.fill, whose
  // argument a builtin call would box when it is a computed double), single stores otherwise
  const runs: { slot: number; start: number; end: number }[] = [];
  const m = pl.out.length;
  // a constant filling at least half of many outputs (the zeros of a dense matrix) is written
  // first by one out.fill (a constant argument is no allocation), and skipped below
  let background = -1;
  if (!scalar && m >= BACKGROUND_MIN) {
    const counts = new Map<number, number>();
    for (const slot of pl.out) {
      if (slot >= nLoads && slot < base) counts.set(slot, (counts.get(slot) ?? 0) + 1);
    }
    for (const [slot, count] of counts) {
      if (2 * count >= m && (background < 0 || count > counts.get(background)!)) background = slot;
    }
    if (background >= 0) runs.push({ slot: background, start: 0, end: m });
  }
  if (!scalar) {
    for (let j = 0; j < m; ) {
      if (pl.out[j] === background) {
        j++;
        continue;
      }
      let e = j + 1;
      while (e < m && pl.out[e] === pl.out[j]) e++;
      runs.push({ slot: pl.out[j]!, start: j, end: e });
      j = e;
    }
  }
  const write = ({ slot, start, end }: { slot: number; start: number; end: number }) =>
    slot === background && start === 0 && end === m
      ? `out.fill(${ref(slot)}, 0, ${m});`
      : end - start >= FILL_RUN
        ? `for (let k = ${start}; k < ${end}; k++) out[k] = ${ref(slot)};`
        : Array.from({ length: end - start }, (_, k) => `out[${start + k}] = ${ref(slot)};`).join(
            '\n',
          );
  // statements: the operations, then the output runs (a scalar function returns its value)
  const total = n + runs.length;
  const operands = (i: number): number[] =>
    i < n
      ? isBinary(pl.op[i]!)
        ? [pl.x[i]!, pl.y[i]!]
        : [pl.x[i]!]
      : scalar
        ? []
        : [runs[i - n]!.slot];
  const statement = (i: number): string => (i < n ? operation(i) : write(runs[i - n]!));
  const finish = scalar ? `return ${ref(pl.out[0]!)};` : '';

  if (total <= SYM_JS_CHUNK) {
    const body = [
      checks(pl, !scalar),
      ...Array.from({ length: nLoads }, (_, s) => load(s)),
      ...Array.from({ length: total }, (_, i) => statement(i)),
      finish,
    ];
    return `"use strict";\nconst S = new Float64Array(1);\nreturn function (${params}) {\n${body.join('\n')}\n};`;
  }

  // chunks of SYM_JS_CHUNK statements: values used after their chunk pass through w
  const chunks = Math.ceil(total / SYM_JS_CHUNK);
  const lastUse = new Int32Array(n).fill(-1);
  for (let i = 0; i < total; i++) {
    const c = Math.floor(i / SYM_JS_CHUNK);
    for (const s of operands(i)) if (s >= base && c > lastUse[s - base]!) lastUse[s - base] = c;
  }
  if (scalar && pl.out[0]! >= base) lastUse[pl.out[0]! - base] = chunks;
  const parts: string[] = [
    '"use strict";',
    'const S = new Float64Array(1);',
    `const w = new Float64Array(${n});`,
  ];
  const chunkParams = (scalar ? args : ['out', ...args]).join(', ');
  for (let c = 0; c < chunks; c++) {
    const first = c * SYM_JS_CHUNK;
    const last = Math.min(total, first + SYM_JS_CHUNK);
    const lines: string[] = [];
    const loaded = new Set<number>();
    for (let i = first; i < last; i++) {
      for (const s of operands(i)) {
        if (loaded.has(s)) continue;
        if (s < nLoads) {
          loaded.add(s);
          lines.push(load(s));
        } else if (s >= base && s - base < Math.min(first, n)) {
          loaded.add(s);
          lines.push(`const t${s - base} = w[${s - base}];`);
        }
      }
    }
    for (let i = first; i < last; i++) {
      lines.push(statement(i));
      if (i < n && lastUse[i]! > c) lines.push(`w[${i}] = t${i};`);
    }
    parts.push(`function chunk${c}(${chunkParams}) {\n${lines.join('\n')}\n}`);
  }
  const calls = Array.from({ length: chunks }, (_, c) => `chunk${c}(${chunkParams});`);
  const out0 = pl.out[0];
  const tail = !scalar
    ? ''
    : out0! >= base
      ? `return w[${out0! - base}];`
      : out0! < nLoads
        ? `${load(out0!)}\nreturn a${out0};`
        : `return ${ref(out0!)};`;
  parts.push(
    `return function (${params}) {\n${[checks(pl, !scalar), ...calls, tail].join('\n')}\n};`,
  );
  return parts.join('\n');
}

function failure(name: string) {
  return (what: string, expected: number | string, got: unknown): never => {
    const shown =
      typeof got === 'number'
        ? `the number ${got}`
        : got !== null && typeof got === 'object' && 'length' in got
          ? `length ${String((got as { length: unknown }).length)}`
          : typeof got;
    throw new DimensionError(`${name}: ${what}`, expected, shown);
  };
}

function generated(pl: Plan, scalar: boolean): (...a: unknown[]) => unknown {
  const source = generateSource(pl, scalar);
  // the source holds only generated identifiers and numeric literals, never user text
  const factory = new Function('stumpffTo', 'fail', source) as (
    s: typeof stumpffTo,
    f: ReturnType<typeof failure>,
  ) => (...a: unknown[]) => unknown;
  return factory(stumpffTo, failure(pl.name));
}

// ---------------------------------------------------------------------------------------------
// interpreter

/**
 * Runs the tape: {@link applyOp} written out inline on the work vector, so that no double crosses
 * a call boundary (which would allocate a heap number in optimised code). The compile tests check
 * that it agrees with the generated code bit for bit.
 */
function execute(
  w: Float64Array,
  op: Uint8Array,
  xs: Int32Array,
  ys: Int32Array,
  ks: Int32Array,
  ps: Float64Array,
  base: number,
): void {
  const n = op.length;
  for (let i = 0; i < n; i++) {
    const a = w[xs[i]!]!;
    let r: number;
    switch (op[i]!) {
      case OP_ADD:
        r = a + w[ys[i]!]!;
        break;
      case OP_SUB:
        r = a - w[ys[i]!]!;
        break;
      case OP_MUL:
        r = a * w[ys[i]!]!;
        break;
      case OP_DIV:
        r = a / w[ys[i]!]!;
        break;
      case OP_POW:
        r = a ** w[ys[i]!]!;
        break;
      case OP_ATAN2:
        r = Math.atan2(a, w[ys[i]!]!);
        break;
      case OP_HYPOT:
        r = Math.hypot(a, w[ys[i]!]!);
        break;
      case OP_DIVZ: {
        const b = w[ys[i]!]!;
        r = b === 0 ? 0 : a / b;
        break;
      }
      case OP_NEG:
        r = -a;
        break;
      case OP_POWC: {
        const p = ps[i]!;
        r = p === 2 ? a * a : p === 3 ? a * a * a : p === -1 ? 1 / a : a ** p;
        break;
      }
      case OP_SQRT:
        r = Math.sqrt(a);
        break;
      case OP_EXP:
        r = Math.exp(a);
        break;
      case OP_LOG:
        r = Math.log(a);
        break;
      case OP_SIN:
        r = Math.sin(a);
        break;
      case OP_COS:
        r = Math.cos(a);
        break;
      case OP_TAN:
        r = Math.tan(a);
        break;
      case OP_ASIN:
        r = Math.asin(a);
        break;
      case OP_ACOS:
        r = Math.acos(a);
        break;
      case OP_ATAN:
        r = Math.atan(a);
        break;
      case OP_SINH:
        r = Math.sinh(a);
        break;
      case OP_COSH:
        r = Math.cosh(a);
        break;
      case OP_TANH:
        r = Math.tanh(a);
        break;
      case OP_ASINH:
        r = Math.asinh(a);
        break;
      case OP_ACOSH:
        r = Math.acosh(a);
        break;
      case OP_ATANH:
        r = Math.atanh(a);
        break;
      case OP_ABS:
        r = Math.abs(a);
        break;
      case OP_SIGN:
        r = a > 0 ? 1 : a < 0 ? -1 : 0;
        break;
      case OP_LOG10:
        r = Math.log10(a);
        break;
      case OP_STUMPFF:
        // in place: no double crosses the call (see stumpffTo)
        stumpffTo(ks[i]!, w, xs[i]!, w, base + i);
        continue;
      default:
        r = applyOp(op[i]!, a, w[ys[i]!]!, ks[i]!, ps[i]!);
    }
    w[base + i] = r;
  }
}

function interpreted(pl: Plan, scalar: boolean): (...a: unknown[]) => unknown {
  const nLoads = pl.loadArg.length;
  const base = nLoads + pl.constants.length;
  const n = pl.op.length;
  const w = new Float64Array(base + n);
  w.set(pl.constants, nLoads);
  const { op, x, y, k, p, loadArg, loadElement, out: outSlots, inputs } = pl;
  const fail = failure(pl.name);
  const nOut = outSlots.length;
  // the loads of each input, as index ranges into the (input-sorted) load tables
  const order = Array.from({ length: nLoads }, (_, s) => s).sort(
    (s1, s2) => loadArg[s1]! - loadArg[s2]!,
  );
  const loadSlot = Int32Array.from(order);
  const loadFrom = Int32Array.from(order, (s) => loadElement[s]!);
  const start = new Int32Array(inputs.length + 1);
  for (const s of order) start[loadArg[s]! + 1]!++;
  for (let a = 0; a < inputs.length; a++) start[a + 1]! += start[a]!;
  const take = (arg: unknown, a: number): void => {
    const len = inputs[a]!;
    if (len < 0) {
      if (typeof arg !== 'number') fail(`input ${a}`, 'a number', arg);
      for (let j = start[a]!; j < start[a + 1]!; j++) w[loadSlot[j]!] = arg as number;
      return;
    }
    const v = arg as ArrayLike<number>;
    if (!(v !== null && typeof v === 'object' && v.length >= len)) fail(`input ${a}`, len, arg);
    for (let j = start[a]!; j < start[a + 1]!; j++) w[loadSlot[j]!] = v[loadFrom[j]!]!;
  };
  const run = (
    i0: unknown,
    i1: unknown,
    i2: unknown,
    i3: unknown,
    i4: unknown,
    i5: unknown,
    i6: unknown,
    i7: unknown,
  ): void => {
    const m = inputs.length;
    if (m > 0) take(i0, 0);
    if (m > 1) take(i1, 1);
    if (m > 2) take(i2, 2);
    if (m > 3) take(i3, 3);
    if (m > 4) take(i4, 4);
    if (m > 5) take(i5, 5);
    if (m > 6) take(i6, 6);
    if (m > 7) take(i7, 7);
    execute(w, op, x, y, k, p, base);
  };
  if (scalar) {
    const s = outSlots[0]!;
    return (i0, i1, i2, i3, i4, i5, i6, i7) => {
      run(i0, i1, i2, i3, i4, i5, i6, i7);
      return w[s];
    };
  }
  return (out, i0, i1, i2, i3, i4, i5, i6, i7) => {
    const o = out as Float64Array;
    if (!(o !== null && typeof o === 'object' && o.length >= nOut)) fail('out', nOut, out);
    run(i0, i1, i2, i3, i4, i5, i6, i7);
    for (let j = 0; j < nOut; j++) o[j] = w[outSlots[j]!]!;
  };
}

function chooseMode(pl: Plan, options: SymCompileOptions): 'js' | 'interpreter' {
  const mode = options.mode ?? 'auto';
  if (mode === 'js') {
    if (!canGenerateCode()) {
      throw new DomainError(
        'compile: mode',
        'js',
        "code generation (new Function) is not allowed here; use 'interpreter'",
      );
    }
    return 'js';
  }
  if (mode === 'interpreter') return 'interpreter';
  return canGenerateCode() && pl.op.length <= SYM_JS_MAX_OPERATIONS ? 'js' : 'interpreter';
}

/**
 * Compiles `outputs` (expressions of `g` in the symbols of `inputs`) into `f(out, ...args)`, where
 * argument k is a Float64Array holding the values of the symbols `inputs[k]` in order (or a number
 * when `inputs[k]` is one symbol), and `out[j]` receives output j.
 *
 * @throws DomainError when an input is not a symbol, a symbol appears in two inputs, an output
 *   depends on a symbol that is no input, or there are more than {@link SYM_MAX_INPUTS} inputs.
 * @throws ComputeBudgetError when the graph's work budget runs out.
 * @example
 * ```ts
 * const g = new SymGraph();
 * const x = g.symbols(2, 'x');
 * const k = g.symbol('k');
 * const o = g.ops;
 * const f = compileSym(g, [x, k], [o.mul(k, o.sin(x[0]!)), o.add(x[0]!, x[1]!)]);
 * const out = new Float64Array(2);
 * f(out, Float64Array.of(0.5, 2), 3); // out = [3 sin 0.5, 2.5]
 * ```
 */
export function compileSym(
  g: SymGraph,
  inputs: readonly SymInput[],
  outputs: readonly SX[],
  options: SymCompileOptions = {},
): SymFunction {
  const pl = plan(g, inputs, outputs, options.name ?? 'compiled function');
  const mode = chooseMode(pl, options);
  const f = mode === 'js' ? generated(pl, false) : interpreted(pl, false);
  return Object.defineProperties(f, {
    mode: { value: mode },
    operations: { value: pl.op.length },
    outputs: { value: outputs.length },
  }) as unknown as SymFunction;
}

/**
 * Compiles one expression into `f(...args)` returning its value (arguments as for
 * {@link compile}).
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const [q, p] = g.symbols(2);
 * const V = compileSymScalar(g, [[q!], p!], g.ops.mul(p!, g.ops.cos(q!)));
 * V(Float64Array.of(0), 9.81); // 9.81
 * ```
 */
export function compileSymScalar(
  g: SymGraph,
  inputs: readonly SymInput[],
  output: SX,
  options: SymCompileOptions = {},
): SymScalarFunction {
  const pl = plan(g, inputs, [output], options.name ?? 'compiled function');
  const mode = chooseMode(pl, options);
  const f = mode === 'js' ? generated(pl, true) : interpreted(pl, true);
  return Object.defineProperties(f, {
    mode: { value: mode },
    operations: { value: pl.op.length },
  }) as unknown as SymScalarFunction;
}

/**
 * The JavaScript source that {@link compile} generates for these outputs (for inspection: one
 * operation per statement, temporaries in locals).
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const [x] = g.symbols(1);
 * symSource(g, [[x!]], [g.ops.sin(g.ops.mul(x!, x!))]);
 * // '… const a0 = i0[0];\nconst t0 = a0 * a0;\nconst t1 = Math.sin(t0);\nout[0] = t1; …'
 * ```
 */
export function symSource(
  g: SymGraph,
  inputs: readonly SymInput[],
  outputs: readonly SX[],
): string {
  return generateSource(plan(g, inputs, outputs, 'source'), false);
}
