/**
 * Optimal-control model files (`geomech solve --model FILE`, CLI contract "Optimal-control model
 * files"; schema `packages/cli/schema/ocp.schema.json`): a JSON document with `kind:
 * "optimal-control"` whose expressions (mathjs syntax, the grammar of `expressions.ts`) become the
 * generic functions of groupoid's {@link defineOcp}. Each expression is checked once against the
 * grammar and the names in scope (errors name the field and the character position), then
 * turned into a flat tape of operations ({@link ExpressionTape}) that the problem layer evaluates
 * on its own symbolic graph when it traces the stage functions: derivatives come from the
 * problem layer's automatic differentiation and cost work linear in the expressions' size.
 *
 * The discrete problem is that of `defineOcp` with kinematic dynamics: the body velocity ξ_k is
 * the control and g_{k+1} = g_k·τ(h ξ_k), τ = cay or exp; the running cost is Σ_k h·ℓ; path
 * equalities `constraints` (= 0) and inequalities `inequalities` (≤ 0) hold at k < n, bounds on
 * velocity names at k < n and on coordinate names at every stage; `start` and `end` fix every
 * factor they give in full, and the given entries of a partly given factor (a `null` entry is free).
 *
 * **Forced dynamics** (`"dynamics": "lagrangian"`): a mechanical system on the configuration space
 * `"state": "R<n>"` with a Lagrangian L(t, q, q̇) (`"lagrangian"`, in the `coordinates`, the
 * `velocity` names, the params and t) and generalized forces F(t, q, q̇, u) (`"forces"`, one per
 * coordinate, also in the `controls` u), discretized by the forced variational midpoint rule
 * (Marsden–West 2001 §3.2, core's `DiscreteForce` with the midpoint quadrature):
 * L_d(q_k, q_{k+1}) = h·L(t_k + h/2, q̄, q̇_k), q̄ = (q_k + q_{k+1})/2, q̇_k = (q_{k+1} − q_k)/h,
 * f_d^± = (h/2)·F(t_k + h/2, q̄, q̇_k, u_k). The state of the problem is (q_k, p_k) ∈ Rⁿ × Rⁿ, its
 * controls (q̇_k, u_k); the forced discrete Legendre transforms (3.2.5),
 *
 *     p_k     = −D₁L_d − f_d⁻ = L_q̇ − (h/2)(L_q + F̄)        (a path equality, the first n rows)
 *     p_{k+1} =  D₂L_d + f_d⁺ = L_q̇ + (h/2)(L_q + F̄),  q_{k+1} = q_k + h·q̇_k   (the dynamics)
 *
 * (L_q, L_q̇, F̄ at (t_k + h/2, q̄, q̇_k, u_k)), are the discrete Lagrange–d'Alembert equations
 * (3.2.4) once p is eliminated. L_q and L_q̇ come from forward-mode differentiation of the
 * Lagrangian's tape over the problem layer's traced values ({@link tangentOps}), which the layer
 * differentiates twice more. `start` and `end` give (q, q̇), q̇ turned into p = ∂L/∂q̇(t, q, q̇)
 * (t = 0, or T); expressions of costs and constraints see the velocities q̇_k (the step's), the
 * controls, the coordinates, the `momenta` names (optional, p) and the params.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type LieGroup,
  type LieScalarOps,
  NonFiniteError,
  NumberOps,
  Rn,
  SE2,
  SE3,
  SO2,
  SO3,
  type SX,
  SymGraph,
} from '@geomech/core';
import {
  defineOcp,
  type LieOcp,
  type LieOcpSolution,
  OCP_MAX_STAGE_SIZE,
  type OcpSpec,
  type OcpStage,
  ocpFactor,
} from '@geomech/groupoid';
import type {
  ConstantNode,
  FunctionNode,
  MathNode,
  OperatorNode,
  ParenthesisNode,
  SymbolNode,
} from 'mathjs';
import { UsageError } from '../errors.js';
import type { ProblemDescriptor } from '../registry.js';
import type { ProblemRunner, SolveOutput, SolveRequest } from '../runner.js';
import {
  type BuiltinSolve,
  feedbackOf,
  guessField,
  guessSteps,
  lieOcpOutcome,
  multiplierSeries,
  solveBuiltin,
  stepsToStates,
} from '../systems/optimalControl.js';
import { ModelError, quote } from './errors.js';
import { NAME, parseExpression, RESERVED_NAMES, simpleScope } from './expressions.js';
import { isJsonObject, type JsonObject, type JsonValue, parseJson } from './json.js';
import { keyPath, modelName } from './parse.js';

/** Most factors of a model's state space. */
export const OCP_MODEL_MAX_FACTORS = 16;
/** Most path equalities, and most path inequalities, of a model. */
export const OCP_MODEL_MAX_CONSTRAINTS = 64;
/** Most parameters of a model. */
export const OCP_MODEL_MAX_PARAMS = 256;
/** Most steps n of a model (the solver's storage is linear in n). */
export const OCP_MODEL_MAX_STEPS = 100_000;
/** Largest k of an `R<k>` factor. */
export const OCP_MODEL_MAX_RN = 64;

/** The fields of an optimal-control model file (`schema/ocp.schema.json` lists the same). */
export const OCP_MODEL_FIELDS = [
  '$schema',
  'kind',
  'description',
  'state',
  'steps',
  'horizon',
  'dynamics',
  'retraction',
  'velocity',
  'coordinates',
  'lagrangian',
  'forces',
  'controls',
  'momenta',
  'cost',
  'terminalCost',
  'constraints',
  'inequalities',
  'bounds',
  'start',
  'end',
  'params',
] as const;

// ---------------------------------------------------------------------------------------------
// expression tapes

/** One operation of a tape: its result is the tape slot of the same index. */
type Instr =
  | { readonly op: 'const'; readonly v: number }
  | { readonly op: 'var'; readonly i: number }
  | { readonly op: 'add' | 'sub' | 'mul' | 'div'; readonly a: number; readonly b: number }
  | { readonly op: 'neg'; readonly a: number }
  | { readonly op: 'powc'; readonly a: number; readonly p: number }
  | { readonly op: 'powv'; readonly a: number; readonly b: number }
  | { readonly op: 'fn'; readonly name: string; readonly args: readonly number[] };

/**
 * A checked expression as a flat list of operations on the model's variables, evaluated for any
 * scalar type through `LieScalarOps<T>` (numbers, dual numbers, symbolic graphs); linear in the
 * expression's size, iterative (no recursion on its depth). Made by {@link readOcpModel}.
 *
 * @example
 * ```ts
 * // inside a traced stage function: cost.evaluate(o, [vx, vy, omega, x, y, theta, ...params, t, h, T])
 * ```
 */
export class ExpressionTape {
  constructor(
    private readonly code: readonly Instr[],
    /** The variables the expression reads (indices into the model's variable list). */
    readonly uses: ReadonlySet<number>,
  ) {}

  /** The expression's value for the variable values `vars`. */
  evaluate<T>(o: LieScalarOps<T>, vars: readonly T[]): T {
    const slot: T[] = new Array(this.code.length);
    for (let i = 0; i < this.code.length; i++) {
      const c = this.code[i]!;
      switch (c.op) {
        case 'const':
          slot[i] = o.const(c.v);
          break;
        case 'var':
          slot[i] = vars[c.i]!;
          break;
        case 'add':
          slot[i] = o.add(slot[c.a]!, slot[c.b]!);
          break;
        case 'sub':
          slot[i] = o.sub(slot[c.a]!, slot[c.b]!);
          break;
        case 'mul':
          slot[i] = o.mul(slot[c.a]!, slot[c.b]!);
          break;
        case 'div':
          slot[i] = o.div(slot[c.a]!, slot[c.b]!);
          break;
        case 'neg':
          slot[i] = o.neg(slot[c.a]!);
          break;
        case 'powc':
          slot[i] = o.pow(slot[c.a]!, c.p);
          break;
        case 'powv':
          slot[i] = o.exp(o.mul(slot[c.b]!, o.log(slot[c.a]!)));
          break;
        case 'fn':
          slot[i] = applyFunction(
            o,
            c.name,
            c.args.map((j) => slot[j]!),
          );
          break;
      }
    }
    return slot[this.code.length - 1]!;
  }
}

/** The functions of the grammar (`expressions.ts`) through `LieScalarOps`. */
function applyFunction<T>(o: LieScalarOps<T>, name: string, a: readonly T[]): T {
  const x = a[0]!;
  const one = o.const(1);
  switch (name) {
    case 'sin':
    case 'cos':
    case 'tan':
    case 'asin':
    case 'acos':
    case 'atan':
    case 'sinh':
    case 'cosh':
    case 'tanh':
    case 'exp':
    case 'sqrt':
      return o[name](x);
    case 'sec':
      return o.div(one, o.cos(x));
    case 'csc':
      return o.div(one, o.sin(x));
    case 'cot':
      return o.div(one, o.tan(x));
    case 'sech':
      return o.div(one, o.cosh(x));
    case 'csch':
      return o.div(one, o.sinh(x));
    case 'coth':
      return o.div(one, o.tanh(x));
    // asinh x = log(x + √(x² + 1)), acosh x = log(x + √(x² − 1)), atanh x = ½ log((1 + x)/(1 − x))
    case 'asinh':
      return o.log(o.add(x, o.sqrt(o.add(o.mul(x, x), one))));
    case 'acosh':
      return o.log(o.add(x, o.sqrt(o.sub(o.mul(x, x), one))));
    case 'atanh':
      return o.scale(o.log(o.div(o.add(one, x), o.sub(one, x))), 0.5);
    case 'log':
      return a.length === 1 ? o.log(x) : o.div(o.log(x), o.log(a[1]!));
    case 'log10':
      return o.scale(o.log(x), 1 / Math.LN10);
    case 'pow':
      return powOf(o, x, a[1]!, undefined, undefined);
    default:
      throw new DomainError('model expression: function', name, 'a function of the grammar');
  }
}

function powOf<T>(
  o: LieScalarOps<T>,
  a: T,
  b: T,
  ca: number | undefined,
  cb: number | undefined,
): T {
  if (cb !== undefined) return o.pow(a, cb);
  if (ca === Math.E) return o.exp(b);
  return o.exp(o.mul(b, o.log(a)));
}

/**
 * The tape of a parsed mathjs tree that `parseExpression` accepted (so the grammar holds);
 * constants are folded, x^c with a constant c becomes a power with a number exponent.
 */
function tapeOf(root: MathNode, index: ReadonlyMap<string, number>): ExpressionTape {
  const code: Instr[] = [];
  const constant: (number | undefined)[] = [];
  const uses = new Set<number>();
  const push = (c: Instr, v: number | undefined): number => {
    if (v !== undefined) c = { op: 'const', v };
    code.push(c);
    constant.push(c.op === 'const' ? c.v : undefined);
    return code.length - 1;
  };
  const work: { node: MathNode; build: boolean }[] = [{ node: root, build: false }];
  const values: number[] = [];
  while (work.length > 0) {
    const { node, build } = work.pop()!;
    if (!build) {
      switch (node.type) {
        case 'ConstantNode':
          values.push(push({ op: 'const', v: (node as ConstantNode).value as number }, undefined));
          continue;
        case 'SymbolNode': {
          const name = (node as SymbolNode).name;
          if (name === 'pi') values.push(push({ op: 'const', v: Math.PI }, undefined));
          else if (name === 'e') values.push(push({ op: 'const', v: Math.E }, undefined));
          else {
            const i = index.get(name)!;
            uses.add(i);
            values.push(push({ op: 'var', i }, undefined));
          }
          continue;
        }
        case 'ParenthesisNode':
          work.push({ node: (node as ParenthesisNode).content, build: false });
          continue;
        default: {
          const args = (node as OperatorNode | FunctionNode).args;
          work.push({ node, build: true });
          for (let i = args.length - 1; i >= 0; i--) work.push({ node: args[i]!, build: false });
          continue;
        }
      }
    }
    if (node.type === 'FunctionNode') {
      const fn = node as FunctionNode;
      const args = values.splice(values.length - fn.args.length);
      const name = (fn.fn as SymbolNode).name;
      const cs = args.map((j) => constant[j]);
      if (name === 'pow') {
        values.push(powSlot(push, args[0]!, args[1]!, cs[0], cs[1]));
        continue;
      }
      const folded = cs.every((v) => v !== undefined)
        ? applyFunction(NumberOps, name, cs as number[])
        : undefined;
      values.push(push({ op: 'fn', name, args }, folded));
      continue;
    }
    const op = node as OperatorNode;
    const args = values.splice(values.length - op.args.length);
    if (op.fn === 'unaryPlus') values.push(args[0]!);
    else if (op.fn === 'unaryMinus') {
      const c = constant[args[0]!];
      values.push(push({ op: 'neg', a: args[0]! }, c === undefined ? undefined : -c));
    } else if (op.fn === 'pow')
      values.push(powSlot(push, args[0]!, args[1]!, constant[args[0]!], constant[args[1]!]));
    else {
      const kind =
        op.fn === 'add'
          ? 'add'
          : op.fn === 'subtract'
            ? 'sub'
            : op.fn === 'multiply'
              ? 'mul'
              : 'div';
      // left to right, as mathjs evaluates a op b op c
      let acc = args[0]!;
      for (let j = 1; j < args.length; j++) {
        const ca = constant[acc];
        const cb = constant[args[j]!];
        const folded =
          ca === undefined || cb === undefined
            ? undefined
            : kind === 'add'
              ? ca + cb
              : kind === 'sub'
                ? ca - cb
                : kind === 'mul'
                  ? ca * cb
                  : ca / cb;
        acc = push({ op: kind, a: acc, b: args[j]! }, folded);
      }
      values.push(acc);
    }
  }
  return new ExpressionTape(code, uses);
}

/** A value with its derivatives along k directions (null: zero), over a scalar type T. */
interface Tangent<T> {
  readonly v: T;
  readonly d: readonly (T | null)[];
}

/**
 * Forward-mode differentiation over any scalar type: {@link LieScalarOps} on {@link Tangent}s of
 * `o`'s values (each operation's tangent rule as documented on core's `ScalarOps`), so a tape
 * evaluated on it gives an expression's value and its derivatives along k directions as values of
 * `o` (numbers, or traced values of the problem layer, which then differentiates them again).
 * Cost: k + 1 evaluations' worth of operations, linear in the tape's size.
 */
function tangentOps<T>(o: LieScalarOps<T>, k: number): LieScalarOps<Tangent<T>> {
  const zero: null[] = new Array<null>(k).fill(null);
  // factors are values of T or plain numbers, told apart by the caller (traced values of the
  // symbolic graph are numbers too: a typeof test cannot tell them from constants)
  const comb = (a: Tangent<T>, fa: (x: T) => T, b?: Tangent<T>, fb?: (x: T) => T): (T | null)[] => {
    const out: (T | null)[] = new Array(k);
    for (let i = 0; i < k; i++) {
      const x = a.d[i] ?? null;
      const y = b === undefined ? null : (b.d[i] ?? null);
      const tx = x === null ? null : fa(x);
      const ty = y === null ? null : fb!(y);
      out[i] = tx === null ? ty : ty === null ? tx : o.add(tx, ty);
    }
    return out;
  };
  const by = (f: T) => (x: T) => o.mul(x, f);
  const byC = (c: number) => (x: T) => (c === 1 ? x : c === -1 ? o.neg(x) : o.scale(x, c));
  const lin = (a: Tangent<T>, fa: T, b?: Tangent<T>, fb?: T): (T | null)[] =>
    comb(a, by(fa), b, fb === undefined ? undefined : by(fb));
  const unary = (a: Tangent<T>, v: T, df: T): Tangent<T> => ({ v, d: lin(a, df) });
  const one = o.const(1);
  return {
    const: (c) => ({ v: o.const(c), d: zero }),
    value: (a) => o.value(a.v),
    add: (a, b) => ({ v: o.add(a.v, b.v), d: comb(a, byC(1), b, byC(1)) }),
    sub: (a, b) => ({ v: o.sub(a.v, b.v), d: comb(a, byC(1), b, byC(-1)) }),
    mul: (a, b) => ({ v: o.mul(a.v, b.v), d: lin(a, b.v, b, a.v) }),
    div: (a, b) => {
      const q = o.div(a.v, b.v);
      const ib = o.div(one, b.v);
      return { v: q, d: lin(a, ib, b, o.neg(o.mul(q, ib))) };
    },
    neg: (a) => ({ v: o.neg(a.v), d: comb(a, byC(-1)) }),
    scale: (a, c) => ({ v: o.scale(a.v, c), d: comb(a, byC(c)) }),
    pow: (a, p) =>
      p === 0 ? { v: o.const(1), d: zero } : unary(a, o.pow(a.v, p), o.scale(o.pow(a.v, p - 1), p)),
    sqrt: (a) => {
      const r = o.sqrt(a.v);
      return unary(a, r, o.div(o.const(0.5), r));
    },
    exp: (a) => {
      const e = o.exp(a.v);
      return unary(a, e, e);
    },
    log: (a) => unary(a, o.log(a.v), o.div(one, a.v)),
    sin: (a) => unary(a, o.sin(a.v), o.cos(a.v)),
    cos: (a) => unary(a, o.cos(a.v), o.neg(o.sin(a.v))),
    tan: (a) => {
      const t = o.tan(a.v);
      return unary(a, t, o.add(one, o.mul(t, t)));
    },
    asin: (a) => unary(a, o.asin(a.v), o.div(one, o.sqrt(o.mul(o.sub(one, a.v), o.add(one, a.v))))),
    acos: (a) =>
      unary(a, o.acos(a.v), o.neg(o.div(one, o.sqrt(o.mul(o.sub(one, a.v), o.add(one, a.v)))))),
    atan: (a) => unary(a, o.atan(a.v), o.div(one, o.add(one, o.mul(a.v, a.v)))),
    atan2: (y, x) => {
      const r2 = o.add(o.mul(x.v, x.v), o.mul(y.v, y.v));
      return { v: o.atan2(y.v, x.v), d: lin(y, o.div(x.v, r2), x, o.neg(o.div(y.v, r2))) };
    },
    sinh: (a) => unary(a, o.sinh(a.v), o.cosh(a.v)),
    cosh: (a) => unary(a, o.cosh(a.v), o.sinh(a.v)),
    tanh: (a) => {
      const c = o.cosh(a.v);
      return unary(a, o.tanh(a.v), o.div(one, o.mul(c, c)));
    },
    abs: (a) => unary(a, o.abs(a.v), o.div(a.v, o.abs(a.v))),
    hypot: (a, b) => {
      const r = o.hypot(a.v, b.v);
      return { v: r, d: lin(a, o.div(a.v, r), b, o.div(b.v, r)) };
    },
    stumpff: () => {
      throw new DomainError('model expression', 'stumpff', 'not used by expressions');
    },
  };
}

/**
 * The value of a tape and its gradient with respect to the variables `wrt` (indices into
 * `vars`), by {@link tangentOps} over `o`.
 */
function valueAndGradient<T>(
  o: LieScalarOps<T>,
  tape: ExpressionTape,
  vars: readonly T[],
  wrt: readonly number[],
): { value: T; grad: T[] } {
  const k = wrt.length;
  const t = tangentOps(o, k);
  const tv: Tangent<T>[] = vars.map((v) => ({ v, d: new Array<null>(k).fill(null) }));
  wrt.forEach((i, j) => {
    const d: (T | null)[] = new Array<null>(k).fill(null);
    d[j] = o.const(1);
    tv[i] = { v: vars[i]!, d };
  });
  const r = tape.evaluate(t, tv);
  return { value: r.v, grad: r.d.map((e) => e ?? o.const(0)) };
}

function powSlot(
  push: (c: Instr, v: number | undefined) => number,
  a: number,
  b: number,
  ca: number | undefined,
  cb: number | undefined,
): number {
  if (ca !== undefined && cb !== undefined) return push({ op: 'const', v: ca ** cb }, undefined);
  if (cb !== undefined) return push({ op: 'powc', a, p: cb }, undefined);
  return push({ op: 'powv', a, b }, undefined);
}

// ---------------------------------------------------------------------------------------------
// the state space and its vector form

/** One factor of a model's state space by name, with its vector form. */
interface FactorInfo {
  readonly name: string;
  readonly kind: 'Rn' | 'SO2' | 'SO3' | 'SE2' | 'SE3';
  readonly dim: number;
  /** Length of the vector form (SE2 x, y, θ; SO3 axis·angle; SE3 x, y, z, axis·angle; Rⁿ). */
  readonly form: number;
  readonly storage: number;
}

const GROUPS: Readonly<Record<string, Omit<FactorInfo, 'name'>>> = {
  SO2: { kind: 'SO2', dim: 1, form: 1, storage: 4 },
  SO3: { kind: 'SO3', dim: 3, form: 3, storage: 9 },
  SE2: { kind: 'SE2', dim: 3, form: 3, storage: 9 },
  SE3: { kind: 'SE3', dim: 6, form: 6, storage: 16 },
};

/**
 * Whether entry j of a factor's vector form is available in expressions: the rotation vector of
 * SO3 and SE3 is not (the principal log has no smooth branch-free form at the identity).
 */
function usable(f: FactorInfo, j: number): boolean {
  return f.kind === 'SO3' ? false : f.kind === 'SE3' ? j < 3 : true;
}

/** The storage index of entry j of the vector form, when it is a storage entry. */
function storageEntry(f: FactorInfo, j: number): number | undefined {
  if (f.kind === 'Rn') return j;
  if (f.kind === 'SE2') return j === 0 ? 2 : j === 1 ? 5 : undefined;
  if (f.kind === 'SE3') return j < 3 ? 4 * j + 3 : undefined;
  return undefined;
}

/** Entry j of the vector form of a factor's element x (storage, traced values). */
function formEntry<T>(o: LieScalarOps<T>, f: FactorInfo, x: readonly T[], j: number): T {
  switch (f.kind) {
    case 'Rn':
      return x[j]!;
    case 'SO2':
      return o.atan2(x[2]!, x[0]!);
    case 'SE2':
      return j === 0 ? x[2]! : j === 1 ? x[5]! : o.atan2(x[3]!, x[0]!);
    case 'SE3':
      return x[4 * j + 3]!;
    default:
      throw new DomainError('model coordinates', f.kind, 'a usable entry');
  }
}

/** The element (storage) of a factor from its vector form (numbers). */
function elementOf(f: FactorInfo, v: readonly number[]): number[] {
  switch (f.kind) {
    case 'Rn':
      return [...v];
    case 'SO2': {
      const [c, s] = [Math.cos(v[0]!), Math.sin(v[0]!)];
      return [c, -s, s, c];
    }
    case 'SE2': {
      const [c, s] = [Math.cos(v[2]!), Math.sin(v[2]!)];
      return [c, -s, v[0]!, s, c, v[1]!, 0, 0, 1];
    }
    case 'SO3':
      return Array.from(SO3.exp(new Float64Array(9), Float64Array.from(v)));
    case 'SE3': {
      const R = SO3.exp(new Float64Array(9), Float64Array.of(v[3]!, v[4]!, v[5]!));
      return [
        R[0]!,
        R[1]!,
        R[2]!,
        v[0]!,
        R[3]!,
        R[4]!,
        R[5]!,
        v[1]!,
        R[6]!,
        R[7]!,
        R[8]!,
        v[2]!,
        0,
        0,
        0,
        1,
      ];
    }
  }
}

/**
 * Appends the vector form of a factor's element to `out` (numbers; angles in (−π, π], rotation
 * vectors by SO3.log): SO2 θ; SE2 x, y, θ; SO3 the rotation vector; SE3 x, y, z and the rotation
 * vector; Rⁿ the entries.
 *
 * @example
 * ```ts
 * const out: number[] = [];
 * formOf('SE2', [0, -1, 2, 1, 0, 3, 0, 0, 1], out); // out = [2, 3, π/2]
 * ```
 */
export function formOf(kind: FactorInfo['kind'], x: ArrayLike<number>, out: number[]): void {
  switch (kind) {
    case 'Rn':
      for (let i = 0; i < x.length; i++) out.push(x[i]!);
      return;
    case 'SO2':
      out.push(Math.atan2(x[2]!, x[0]!));
      return;
    case 'SE2':
      out.push(x[2]!, x[5]!, Math.atan2(x[3]!, x[0]!));
      return;
    case 'SO3':
      out.push(...SO3.log(new Float64Array(3), Float64Array.from(x)));
      return;
    case 'SE3': {
      const R = Float64Array.of(x[0]!, x[1]!, x[2]!, x[4]!, x[5]!, x[6]!, x[8]!, x[9]!, x[10]!);
      out.push(x[3]!, x[7]!, x[11]!, ...SO3.log(new Float64Array(3), R));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// reading

/** An optimal-control model, read and compiled. */
export interface OcpModel {
  readonly file: string;
  readonly name: string;
  readonly description: string;
  /** The compiled problem (file data; `with` changes steps and parameters per run). */
  readonly ocp: LieOcp;
  readonly factors: readonly FactorInfo[];
  readonly velocity: readonly string[];
  readonly coordinates: readonly string[];
  /** `"dynamics": "lagrangian"`: the state is (q, p), the controls of the layer (q̇, u). */
  readonly lagrangian: boolean;
  /** The control names u of a Lagrangian model (none for kinematic models). */
  readonly controls: readonly string[];
  readonly params: ReadonlyMap<string, number>;
  readonly steps: number;
}

function typeName(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Reads, checks and compiles an optimal-control model file (module comment; CLI contract).
 *
 * @throws {@link ModelError} (exit code 2) naming the field's JSON path and, for an expression,
 *   the character position of the fault.
 * @example
 * ```ts
 * const model = readOcpModel(readFileSync('examples/unicycle-parking.json', 'utf8'),
 *   'examples/unicycle-parking.json');
 * model.ocp.solve().success; // true
 * ```
 */
export function readOcpModel(text: string, file: string): OcpModel {
  const fail = (field: string, what: string, at?: number): never => {
    throw new ModelError(field, what, file, at);
  };
  const doc = parseJson(text, file);
  if (!isJsonObject(doc)) fail('(file)', `a model file is a JSON object, got ${typeName(doc)}`);
  const d = doc as JsonObject;
  for (const key of Object.keys(d)) {
    if (!(OCP_MODEL_FIELDS as readonly string[]).includes(key))
      fail(
        /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key),
        `unknown field (known: ${OCP_MODEL_FIELDS.slice(1).join(', ')})`,
      );
  }
  if (d.kind !== 'optimal-control')
    fail(
      'kind',
      typeof d.kind === 'string'
        ? `expected "optimal-control", got ${quote(d.kind)} (simulate other kinds with geomech simulate --model FILE)`
        : `expected "optimal-control", got ${typeName(d.kind)}`,
    );
  const str = (v: JsonValue | undefined, field: string): string => {
    if (typeof v !== 'string') fail(field, `expected a string, got ${typeName(v)}`);
    return v as string;
  };
  const num = (v: JsonValue | undefined, field: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v))
      fail(field, `expected a finite number, got ${typeName(v)}`);
    return v as number;
  };
  const list = (v: JsonValue | undefined, field: string): JsonValue[] => {
    if (!Array.isArray(v)) fail(field, `expected a list, got ${typeName(v)}`);
    return v as JsonValue[];
  };

  // state space
  if (d.state === undefined) fail('state', 'missing field');
  const stateNames: { name: string; field: string }[] = Array.isArray(d.state)
    ? d.state.map((s, i) => ({ name: str(s, `state[${i}]`), field: `state[${i}]` }))
    : [{ name: str(d.state, 'state'), field: 'state' }];
  if (stateNames.length === 0) fail('state', 'needs at least one group');
  if (stateNames.length > OCP_MODEL_MAX_FACTORS)
    fail('state', `at most ${OCP_MODEL_MAX_FACTORS} factors, got ${stateNames.length}`);
  const factors: FactorInfo[] = stateNames.map(({ name, field }) => {
    const g = GROUPS[name];
    if (g !== undefined) return { name, ...g };
    const m = /^R([1-9]\d*)$/.exec(name);
    if (m !== null) {
      const k = Number(m[1]);
      if (k > OCP_MODEL_MAX_RN) fail(field, `R<k> with k ≤ ${OCP_MODEL_MAX_RN}, got ${name}`);
      return { name, kind: 'Rn', dim: k, form: k, storage: k };
    }
    return fail(
      field,
      `unknown group ${quote(name)} (choose SO2, SO3, SE2, SE3 or R<k> such as R2)`,
    );
  });
  const dynamics = d.dynamics === undefined ? 'kinematic' : str(d.dynamics, 'dynamics');
  if (dynamics !== 'kinematic' && dynamics !== 'lagrangian')
    fail('dynamics', `expected "kinematic" or "lagrangian", got ${quote(dynamics)}`);
  const lagrangian = dynamics === 'lagrangian';
  for (const key of ['lagrangian', 'forces', 'controls', 'momenta'] as const) {
    if (!lagrangian && d[key] !== undefined) fail(key, 'only with "dynamics": "lagrangian"');
  }
  /** Configuration dimension of a Lagrangian model (its state is (q, p) ∈ Rⁿ × Rⁿ). */
  let nq = 0;
  if (lagrangian) {
    if (factors.length !== 1 || factors[0]!.kind !== 'Rn')
      fail(
        'state',
        `"dynamics": "lagrangian" takes a configuration space R<n> (a mechanical system on Rⁿ), got ${stateNames.map((x) => x.name).join(' × ')}`,
      );
    nq = factors[0]!.dim;
    if (d.retraction !== undefined) fail('retraction', 'only with "dynamics": "kinematic"');
    factors.push({ name: 'momenta', kind: 'Rn', dim: nq, form: nq, storage: nq });
  }
  /** Number of velocity names: ξ's coordinates (kinematic), q̇ (Lagrangian). */
  const dim = lagrangian ? nq : factors.reduce((a, f) => a + f.dim, 0);
  const form = factors.reduce((a, f) => a + f.form, 0);

  // steps, horizon, dynamics, retraction
  const steps = num(d.steps ?? 40, 'steps');
  if (!(Number.isInteger(steps) && steps >= 2 && steps <= OCP_MODEL_MAX_STEPS))
    fail('steps', `an integer in [2, ${OCP_MODEL_MAX_STEPS}], got ${steps}`);
  let horizon: OcpSpec['horizon'] = 1;
  if (d.horizon !== undefined) {
    if (isJsonObject(d.horizon)) {
      const keys = Object.keys(d.horizon);
      if (keys.length !== 1 || keys[0] !== 'free')
        fail('horizon', 'a number or { "free": [Tmin, Tmax] }');
      const iv = list(d.horizon.free, 'horizon.free');
      if (iv.length !== 2) fail('horizon.free', `expected [Tmin, Tmax], got ${iv.length} entries`);
      const lo = num(iv[0], 'horizon.free[0]');
      const hi = num(iv[1], 'horizon.free[1]');
      if (!(lo > 0 && lo < hi)) fail('horizon.free', `needs 0 < Tmin < Tmax, got [${lo}, ${hi}]`);
      horizon = { free: [lo, hi] };
    } else {
      const T = num(d.horizon, 'horizon');
      if (!(T > 0)) fail('horizon', `must be > 0, got ${T}`);
      horizon = T;
    }
  }
  const map = d.retraction === undefined ? 'cayley' : str(d.retraction, 'retraction');
  if (map !== 'cayley' && map !== 'exp')
    fail('retraction', `expected "cayley" or "exp", got ${quote(map)}`);

  // names
  const taken = new Map<string, string>();
  const claim = (name: string, field: string, what: string) => {
    if (!NAME.test(name))
      fail(field, `bad name ${quote(name)} (letters, digits and _, not starting with a digit)`);
    if (RESERVED_NAMES.has(name))
      fail(field, `name '${name}' clashes with a built-in function, constant or keyword`);
    if (name === 't' || name === 'h' || name === 'T')
      fail(field, `name '${name}' is reserved (time t, step h, horizon T)`);
    const before = taken.get(name);
    if (before !== undefined) fail(field, `duplicate name '${name}' (already ${before})`);
    taken.set(name, what);
  };
  if (d.velocity === undefined)
    fail('velocity', `missing field (${dim} names, one per algebra coordinate)`);
  const velocity = list(d.velocity, 'velocity').map((v, i) => str(v, `velocity[${i}]`));
  if (velocity.length !== dim)
    fail(
      'velocity',
      lagrangian
        ? `expected ${dim} names (one velocity q̇ per coordinate), got ${velocity.length}`
        : `expected ${dim} names (one per algebra coordinate of ${stateNames.map((s) => s.name).join(' × ')}), got ${velocity.length}`,
    );
  velocity.forEach((v, i) => {
    claim(v, `velocity[${i}]`, `velocity ${v}`);
  });
  const controls: string[] = [];
  if (lagrangian) {
    if (d.controls !== undefined) {
      const l = list(d.controls, 'controls');
      if (l.length > OCP_MAX_STAGE_SIZE - nq)
        fail('controls', `at most ${OCP_MAX_STAGE_SIZE - nq} names, got ${l.length}`);
      l.forEach((v, i) => {
        controls.push(str(v, `controls[${i}]`));
      });
    }
    controls.forEach((v, i) => {
      claim(v, `controls[${i}]`, `control ${v}`);
    });
  }
  if (lagrangian && d.coordinates === undefined)
    fail('coordinates', `missing field (${nq} names, the coordinates q of the lagrangian)`);
  const coordinates =
    d.coordinates === undefined
      ? []
      : list(d.coordinates, 'coordinates').map((v, i) => str(v, `coordinates[${i}]`));
  const namedForm = lagrangian ? nq : form;
  if (d.coordinates !== undefined && coordinates.length !== namedForm)
    fail(
      'coordinates',
      lagrangian
        ? `expected ${nq} names (one per coordinate of ${factors[0]!.name}), got ${coordinates.length}`
        : `expected ${form} names (one per entry of the state's vector form), got ${coordinates.length}`,
    );
  coordinates.forEach((v, i) => {
    claim(v, `coordinates[${i}]`, `coordinate ${v}`);
  });
  const momenta =
    d.momenta === undefined
      ? []
      : list(d.momenta, 'momenta').map((v, i) => str(v, `momenta[${i}]`));
  if (d.momenta !== undefined && momenta.length !== nq)
    fail('momenta', `expected ${nq} names (one per coordinate), got ${momenta.length}`);
  momenta.forEach((v, i) => {
    claim(v, `momenta[${i}]`, `momentum ${v}`);
  });
  const params = new Map<string, number>();
  if (d.params !== undefined) {
    if (!isJsonObject(d.params)) fail('params', `expected an object, got ${typeName(d.params)}`);
    const obj = d.params as JsonObject;
    const keys = Object.keys(obj);
    if (keys.length > OCP_MODEL_MAX_PARAMS)
      fail('params', `at most ${OCP_MODEL_MAX_PARAMS} parameters, got ${keys.length}`);
    for (const key of keys) {
      const field = keyPath('params', key);
      if (key === 'n') fail(field, '\'n\' is reserved (the number of steps: --n or "steps")');
      claim(key, field, `parameter ${key}`);
      params.set(key, num(obj[key], field));
    }
  }

  // variables: velocity, coordinates, params, t, h, T
  const coordinateOwner: { f: number; j: number }[] = [];
  factors.forEach((f, fi) => {
    for (let j = 0; j < f.form; j++) coordinateOwner.push({ f: fi, j });
  });
  /** The state entry of each coordinate-region name (coordinates, then momenta). */
  const named: { f: number; j: number }[] = [
    ...coordinates.map((_, i) => coordinateOwner[i]!),
    ...momenta.map((_, j) => ({ f: 1, j })),
  ];
  const paramNames = [...params.keys()];
  const coordinateNames = [...coordinates, ...momenta];
  const varNames = [...velocity, ...controls, ...coordinateNames, ...paramNames, 't', 'h', 'T'];
  const index = new Map(varNames.map((n, i) => [n, i] as const));
  const V0 = 0;
  const C0 = velocity.length + controls.length;
  const P0 = C0 + coordinateNames.length;
  /** Number of controls of the problem layer: ξ (kinematic), (q̇, u) (Lagrangian). */
  const nControls = C0;
  const g = new SymGraph({ maxNodes: 1_000_000, maxWork: 30_000_000 });
  const symbols = new Map(varNames.map((n) => [n, g.symbol(n)] as const));
  const scopeOf = (withVelocity: boolean) => {
    const names = new Map<string, SX>();
    for (const [n, s] of symbols) {
      const i = index.get(n)!;
      if (i >= V0 && i < C0 && !withVelocity) continue;
      if (i >= C0 && i < P0) {
        const { f, j } = named[i - C0]!;
        if (!usable(factors[f]!, j)) continue;
      }
      names.set(n, s);
    }
    return simpleScope(names, (name) => {
      const i = index.get(name);
      if (i === undefined) return undefined;
      if (i < C0)
        return `${lagrangian ? 'velocities and controls' : 'velocities'} are not defined at the last state (terminal cost)`;
      const { f } = named[i - C0]!;
      return `rotation-vector coordinates of ${factors[f]!.name} are not available in expressions (the log has no smooth form at the identity); use velocities or translation coordinates`;
    });
  };
  const expression = (v: JsonValue | undefined, field: string, withVelocity: boolean) => {
    const source = str(v, field);
    const { tree } = parseExpression(source, { field, file }, scopeOf(withVelocity), g);
    return tapeOf(tree, index);
  };
  const exprList = (key: 'constraints' | 'inequalities') => {
    if (d[key] === undefined) return [];
    const l = list(d[key], key);
    if (l.length > OCP_MODEL_MAX_CONSTRAINTS)
      fail(key, `at most ${OCP_MODEL_MAX_CONSTRAINTS} expressions, got ${l.length}`);
    return l.map((e, i) => expression(e, `${key}[${i}]`, true));
  };
  const cost = d.cost === undefined ? undefined : expression(d.cost, 'cost', true);
  const terminalCost =
    d.terminalCost === undefined ? undefined : expression(d.terminalCost, 'terminalCost', false);
  const constraints = exprList('constraints');
  const inequalities = exprList('inequalities');

  // bounds
  const controlLower = new Array<number>(nControls).fill(-Infinity);
  const controlUpper = new Array<number>(nControls).fill(Infinity);
  const stateLower: [number, number][] = [];
  const stateUpper: [number, number][] = [];
  /** Bounds on coordinates that are no storage entry: (coordinate index, lo, hi). */
  const coordinateBounds: [number, number, number][] = [];
  const storageOffset: number[] = [];
  factors.reduce((a, f) => {
    storageOffset.push(a);
    return a + f.storage;
  }, 0);
  if (d.bounds !== undefined) {
    if (!isJsonObject(d.bounds)) fail('bounds', `expected an object, got ${typeName(d.bounds)}`);
    const obj = d.bounds as JsonObject;
    for (const key of Object.keys(obj)) {
      const field = keyPath('bounds', key);
      const pair = list(obj[key], field);
      if (pair.length !== 2) fail(field, `expected [lower, upper], got ${pair.length} entries`);
      const side = (v: JsonValue | undefined, s: number): number =>
        v === null ? (s === 0 ? -Infinity : Infinity) : num(v, `${field}[${s}]`);
      const lo = side(pair[0], 0);
      const hi = side(pair[1], 1);
      if (!(lo <= hi)) fail(field, `needs lower ≤ upper, got [${lo}, ${hi}]`);
      const i = index.get(key);
      if (i === undefined || i >= P0)
        fail(
          field,
          `unknown name ${quote(key)} (bounds take ${lagrangian ? 'velocity, control, coordinate or momentum' : 'velocity or coordinate'} names)`,
        );
      if (i! < C0) {
        controlLower[i!] = lo;
        controlUpper[i!] = hi;
        continue;
      }
      const { f, j } = named[i! - C0]!;
      const fac = factors[f]!;
      if (!usable(fac, j))
        fail(field, `rotation-vector coordinates of ${fac.name} cannot be bounded`);
      const e = storageEntry(fac, j);
      if (e !== undefined) {
        if (lo > -Infinity) stateLower.push([storageOffset[f]! + e, lo]);
        if (hi < Infinity) stateUpper.push([storageOffset[f]! + e, hi]);
      } else coordinateBounds.push([i! - C0, lo, hi]);
    }
  }

  // the Lagrangian and its forces: tapes in (q, q̇, u, params, t)
  const mechNames = [...coordinates, ...velocity, ...controls, ...paramNames, 't'];
  const mechIndex = new Map(mechNames.map((n, i) => [n, i] as const));
  const mechScope = (withControls: boolean) => {
    const names = new Map<string, SX>();
    for (const n of mechNames) {
      if (!withControls && controls.includes(n)) continue;
      names.set(n, symbols.get(n)!);
    }
    return simpleScope(names, (name) =>
      controls.includes(name)
        ? 'the lagrangian cannot use controls (put them in "forces")'
        : index.has(name)
          ? `${quote(name)} is not available here (the lagrangian and forces see coordinates, velocities, controls, params and t)`
          : undefined,
    );
  };
  const mechExpression = (v: JsonValue | undefined, field: string, withControls: boolean) => {
    const source = str(v, field);
    const { tree } = parseExpression(source, { field, file }, mechScope(withControls), g);
    return tapeOf(tree, mechIndex);
  };
  let lagrangianTape: ExpressionTape | undefined;
  let forceTapes: ExpressionTape[] = [];
  if (lagrangian) {
    if (d.lagrangian === undefined) fail('lagrangian', 'missing field (L(q, q̇, t): an expression)');
    lagrangianTape = mechExpression(d.lagrangian, 'lagrangian', false);
    if (d.forces !== undefined) {
      const l = list(d.forces, 'forces');
      if (l.length !== nq)
        fail('forces', `expected ${nq} expressions (one per coordinate), got ${l.length}`);
      forceTapes = l.map((e, i) => mechExpression(e, `forces[${i}]`, true));
    }
  }
  const qIdx = coordinates.map((_, i) => i);
  const vIdx = velocity.map((_, i) => nq + i);
  /**
   * The variables of the Lagrangian's tapes at the midpoint of step k: q̄ = q_k + (h/2)q̇_k,
   * the step velocity q̇_k = (q_{k+1} − q_k)/h, u_k, the parameters and t_k + h/2.
   */
  const mechVars = <T>(o: LieScalarOps<T>, s: OcpStage<T>): T[] => {
    const hh = o.scale(s.h, 0.5);
    const q = s.x.slice(0, nq).map((qi, i) => o.add(qi, o.mul(hh, s.u[i]!)));
    return [
      ...q,
      ...s.u.slice(0, nq),
      ...s.u.slice(nq, nq + controls.length),
      ...paramNames.map((n) => s.p[n]!),
      o.add(s.t, hh),
    ];
  };
  /**
   * The forced discrete Legendre transforms of the variational midpoint rule
   * (module comment): p_k = L_q̇ − (h/2)(L_q + F̄) (`minus`) and p_{k+1} = L_q̇ + (h/2)(L_q + F̄)
   * (`plus`), all at the step's midpoint.
   */
  const legendre = <T>(o: LieScalarOps<T>, s: OcpStage<T>): { minus: T[]; plus: T[] } => {
    const vars = mechVars(o, s);
    const { grad } = valueAndGradient(o, lagrangianTape!, vars, [...qIdx, ...vIdx]);
    const hh = o.scale(s.h, 0.5);
    const minus: T[] = [];
    const plus: T[] = [];
    for (let i = 0; i < nq; i++) {
      const F = forceTapes.length === 0 ? undefined : forceTapes[i]!.evaluate(o, vars);
      const w = o.mul(hh, F === undefined ? grad[i]! : o.add(grad[i]!, F));
      minus.push(o.sub(grad[nq + i]!, w));
      plus.push(o.add(grad[nq + i]!, w));
    }
    return { minus, plus };
  };

  // start and end
  const boundary = (key: 'start' | 'end') => {
    const v = d[key];
    if (v === undefined) {
      if (key === 'start') fail('start', 'missing field (the start state in its vector form)');
      return undefined;
    }
    const l = list(v, key);
    if (l.length !== form)
      fail(
        key,
        lagrangian
          ? `expected ${form} entries (the coordinates q, then the velocities q̇), got ${l.length}`
          : `expected ${form} entries (the state's vector form), got ${l.length}`,
      );
    const values = l.map((e, i) => (e === null ? null : num(e, `${key}[${i}]`)));
    if (lagrangian) {
      // q̇ → p = ∂L/∂q̇(t, q, q̇), the continuous Legendre transform at the boundary
      const qd = values.slice(nq);
      const given = qd.filter((e) => e !== null).length;
      if (given > 0) {
        if (given < nq || values.slice(0, nq).some((e) => e === null))
          fail(
            key,
            'give every coordinate and every velocity, or leave all the velocities null (p = ∂L/∂q̇ needs q and q̇)',
          );
        // t = 0 or T (a free horizon: its initial guess, the midpoint of the interval)
        const tb =
          key === 'start'
            ? 0
            : typeof horizon === 'number'
              ? horizon
              : 0.5 * (horizon!.free[0] + horizon!.free[1]);
        const vars = [
          ...(values as number[]),
          ...controls.map(() => 0),
          ...paramNames.map((n) => params.get(n)!),
          tb,
        ];
        const { grad } = valueAndGradient(NumberOps, lagrangianTape!, vars, vIdx);
        grad.forEach((pi, i) => {
          if (!Number.isFinite(pi))
            fail(key, `the momentum ∂L/∂q̇[${i}] at this state is not finite (${pi})`);
          values[nq + i] = pi;
        });
      }
    }
    const element: number[] = [];
    const fixed: number[] = [];
    /** Partly given entries: (coordinate index, value), and rotation blocks given alone. */
    const entries: [number, number][] = [];
    const rotations: { f: number; R: number[] }[] = [];
    let off = 0;
    factors.forEach((fac, fi) => {
      const part = values.slice(off, off + fac.form);
      const given = part.filter((e) => e !== null).length;
      element.push(
        ...elementOf(
          fac,
          part.map((e) => e ?? 0),
        ),
      );
      if (given === fac.form) fixed.push(fi);
      else if (given > 0) {
        const rotationGiven =
          fac.kind === 'SE3' ? part.slice(3).filter((e) => e !== null).length : 0;
        if (
          fac.kind === 'SO3' ||
          (fac.kind === 'SE3' && rotationGiven !== 0 && rotationGiven !== 3)
        )
          fail(key, `give all three rotation entries of ${fac.name} (factor ${fi}) or none`);
        part.forEach((e, j) => {
          if (e !== null && usable(fac, j)) entries.push([off + j, e]);
        });
        if (fac.kind === 'SE3' && rotationGiven === 3)
          rotations.push({
            f: fi,
            R: Array.from(
              SO3.exp(new Float64Array(9), Float64Array.from(part.slice(3) as number[])),
            ),
          });
      }
      off += fac.form;
    });
    return { element, fixed, entries, rotations };
  };
  const start = boundary('start')!;
  const end = boundary('end');

  // the generic stage functions
  const varsOf = <T>(o: LieScalarOps<T>, s: OcpStage<T>, withVelocity: boolean): T[] => {
    const out: T[] = [];
    for (let i = 0; i < nControls; i++) out.push(withVelocity ? s.u[i]! : o.const(0));
    named.forEach(({ f, j }) => {
      const fac = factors[f]!;
      if (!usable(fac, j)) out.push(o.const(0));
      else {
        const x = s.x.slice(storageOffset[f]!, storageOffset[f]! + fac.storage);
        out.push(formEntry(o, fac, x, j));
      }
    });
    for (const name of paramNames) out.push(s.p[name]!);
    out.push(s.t, s.h, s.T);
    return out;
  };
  const coordinateRows = <T>(
    o: LieScalarOps<T>,
    s: OcpStage<T>,
    b: NonNullable<ReturnType<typeof boundary>>,
  ): T[] => {
    const rows: T[] = [];
    for (const [c, value] of b.entries) {
      const { f, j } = coordinateOwner[c]!;
      const fac = factors[f]!;
      const x = s.x.slice(storageOffset[f]!, storageOffset[f]! + fac.storage);
      rows.push(o.sub(formEntry(o, fac, x, j), o.const(value)));
    }
    const so3 = ocpFactor(SO3);
    for (const { f, R } of b.rotations) {
      const x = s.x.slice(storageOffset[f]!, storageOffset[f]! + 16);
      const Rx = [x[0]!, x[1]!, x[2]!, x[4]!, x[5]!, x[6]!, x[8]!, x[9]!, x[10]!];
      const Rt = so3.inverse(
        o,
        R.map((v) => o.const(v)),
      );
      rows.push(...so3.cayInv(o, so3.compose(o, Rt, Rx)));
    }
    return rows;
  };
  const boundsRows = <T>(o: LieScalarOps<T>, s: OcpStage<T>): T[] => {
    const rows: T[] = [];
    for (const [c, lo, hi] of coordinateBounds) {
      const { f, j } = named[c]!;
      const fac = factors[f]!;
      const x = s.x.slice(storageOffset[f]!, storageOffset[f]! + fac.storage);
      const v = formEntry(o, fac, x, j);
      if (lo > -Infinity) rows.push(o.sub(v, o.const(lo)));
      if (hi < Infinity) rows.push(o.sub(o.const(hi), v));
    }
    return rows;
  };
  const pathInequalities = <T>(o: LieScalarOps<T>, s: OcpStage<T>): T[] => {
    const vars = varsOf(o, s, true);
    return [...inequalities.map((e) => o.neg(e.evaluate(o, vars))), ...boundsRows(o, s)];
  };
  const hasEndRows = end !== undefined && (end.entries.length > 0 || end.rotations.length > 0);
  const hasStartRows = start.entries.length > 0 || start.rotations.length > 0;
  const groupList = factors.map((f) => groupOf(f));
  const spec: OcpSpec = {
    state: groupList,
    controls: nControls,
    steps,
    horizon,
    dynamics: lagrangian
      ? {
          // q_{k+1} = q_k + h q̇_k, p_{k+1} = L_q̇ + (h/2)(L_q + F̄)
          next: (o, s) => [
            ...s.x.slice(0, nq).map((q, i) => o.add(q, o.mul(s.h, s.u[i]!))),
            ...legendre(o, s).plus,
          ],
        }
      : { kinematic: (_o, s) => s.u, map: map as 'cayley' | 'exp' },
    ...(cost === undefined ? {} : { cost: (o, s) => cost.evaluate(o, varsOf(o, s, true)) }),
    ...(terminalCost === undefined
      ? {}
      : { terminalCost: (o, s) => terminalCost.evaluate(o, varsOf(o, s, false)) }),
    ...(constraints.length === 0 && !lagrangian
      ? {}
      : {
          equalities: (o, s) => {
            const vars = varsOf(o, s, true);
            // Lagrangian: first the forced discrete Legendre transform p_k − (L_q̇ − (h/2)(L_q + F̄))
            const del = lagrangian
              ? legendre(o, s).minus.map((m, i) => o.sub(s.x[nq + i]!, m))
              : [];
            return [...del, ...constraints.map((e) => e.evaluate(o, vars))];
          },
        }),
    ...(inequalities.length + coordinateBounds.length === 0
      ? {}
      : { inequalities: pathInequalities }),
    ...(coordinateBounds.length === 0 && !hasEndRows
      ? {}
      : hasEndRows
        ? {
            terminalEqualities: (o, s) => coordinateRows(o, s, end!),
            ...(coordinateBounds.length === 0 ? {} : { terminalInequalities: boundsRows }),
          }
        : { terminalInequalities: boundsRows }),
    controlBounds: { lower: controlLower, upper: controlUpper },
    ...(stateLower.length + stateUpper.length === 0
      ? {}
      : {
          stateBounds: {
            lower: boundsArray(stateLower, storageOffset, factors, -Infinity),
            upper: boundsArray(stateUpper, storageOffset, factors, Infinity),
          },
        }),
    start: { element: start.element, factors: start.fixed },
    ...(end === undefined ? {} : { end: { element: end.element, factors: end.fixed } }),
    ...(hasStartRows
      ? { at: [{ stage: 0, equalities: (o, s) => coordinateRows(o, s, start) }] }
      : {}),
    params: Object.fromEntries(params),
  };
  let ocp: LieOcp;
  try {
    ocp = defineOcp(spec);
  } catch (error) {
    if (
      error instanceof DomainError ||
      error instanceof DimensionError ||
      error instanceof NonFiniteError
    ) {
      const m = /defineOcp: (\w+)/.exec(error.message);
      throw new ModelError(m?.[1] ?? '(file)', error.message, file);
    }
    throw error;
  }
  const description =
    d.description === undefined
      ? `optimal-control model from ${modelName(file)}`
      : str(d.description, 'description').replace(/\s+/g, ' ').trim();
  return {
    file,
    name: modelName(file),
    description,
    ocp,
    factors,
    velocity,
    coordinates,
    lagrangian,
    controls,
    params,
    steps,
  };
}

const GROUP_OF: Readonly<Record<'SO2' | 'SO3' | 'SE2' | 'SE3', LieGroup>> = { SO2, SO3, SE2, SE3 };

function groupOf(f: FactorInfo): LieGroup {
  return f.kind === 'Rn' ? Rn(f.dim) : GROUP_OF[f.kind];
}

function boundsArray(
  list: readonly [number, number][],
  storageOffset: readonly number[],
  factors: readonly FactorInfo[],
  fill: number,
): number[] {
  const S = storageOffset[factors.length - 1]! + factors[factors.length - 1]!.storage;
  const out = new Array<number>(S).fill(fill);
  for (const [i, v] of list) out[i] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------
// the CLI problem

/**
 * The {@link ProblemDescriptor} of an optimal-control model for `geomech solve --model`: params
 * `n` (default: the file's steps) and the file's parameters (overridden by `--param`); the runner
 * solves from the default guess (at rest), or from `--guess` (a previous solution of the model:
 * its `g`, `xi`, `u`, `t` for a free horizon, and `multipliers` for a warm start), after
 * `--continuation K` easier problems (the factors the end gives in full moved from the start,
 * {@link modelSolve}), as the built-ins do, and returns `g` (states in their vector form), `xi`
 * (velocities, per step; state k carries step k's value, state 0 repeats step 1's), `u`,
 * `lambda` (multipliers of the dynamics rows, likewise), `mu` (multipliers of the path
 * equalities) and `multipliers` (every multiplier, per stage, for `--guess`).
 *
 * @throws {@link ModelError} for a malformed file (see {@link readOcpModel}).
 * @example
 * ```ts
 * const problem = loadOcpModel(readFileSync('examples/unicycle-parking.json', 'utf8'),
 *   'examples/unicycle-parking.json');
 * problem.name; // 'unicycle-parking'
 * ```
 */
export function loadOcpModel(text: string, file: string): ProblemDescriptor {
  const model = readOcpModel(text, file);
  const modelOcp = (request: SolveRequest): LieOcp => {
    const n = request.params.get('n')![0]!;
    if (n > OCP_MODEL_MAX_STEPS)
      throw new UsageError(`n must be at most ${OCP_MODEL_MAX_STEPS}, got ${n}`, '--n');
    const params: Record<string, number> = {};
    for (const name of model.params.keys()) params[name] = request.params.get(name)![0]!;
    return model.ocp.with({ steps: n, params });
  };
  const runner: ProblemRunner = {
    solve(request, progress) {
      const ocp = modelOcp(request);
      const how = modelSolve(model, ocp);
      if (request.continuation > 0 && how.continued.length === 0)
        throw new UsageError(
          'needs an end that gives at least one factor in full (continuation moves those factors from the start)',
          '--continuation',
        );
      const { sol, history, iterations } = solveBuiltin(ocp, request, progress, how);
      const out = ocpOutput(model, ocp, sol, history, iterations);
      return {
        ...out,
        series: [...out.series, multiplierSeries(ocp, sol)],
        ...feedbackOf(request, ocp, sol),
      };
    },
    ocp: (request) => modelOcp(request),
  };
  return {
    name: model.name,
    kind: 'problem',
    package: '@geomech/groupoid',
    description: model.description,
    methods: ['interior-point'],
    params: [
      { name: 'n', default: model.steps, description: 'number of steps (h = T/n)' },
      ...[...model.params].map(([name, value]) => ({
        name,
        default: value,
        description: 'model parameter',
      })),
    ],
    choices: [],
    boundary: [],
    fields:
      model.controls.length > 0
        ? ['g', 'xi', 'u', 'lambda', 'mu', 'multipliers']
        : ['g', 'xi', 'lambda', 'mu', 'multipliers'],
    plot: { y: ['xi'] },
    load: async () => runner,
  };
}

/**
 * How a model starts and continues (the built-ins' {@link BuiltinSolve}): no default guess (the
 * solve starts at rest); a `--guess` file's `g` rows (vector forms, turned into elements as
 * `start` and `end` are), `xi` and `u` (per state, state 0 repeating step 1), and for a free
 * horizon T = the last entry of `t`; continuation stage s moves each factor the end gives in full
 * along start·exp(s·log(start⁻¹·end)) (a straight line on Rⁿ); partly given end entries are
 * compiled constants and stay where the file puts them, free factors are not constrained.
 */
export function modelSolve(
  model: OcpModel,
  ocp: LieOcp,
): BuiltinSolve & { readonly continued: readonly number[] } {
  const N = ocp.N;
  const offsets: number[] = [];
  let S = 0;
  let form = 0;
  for (const f of model.factors) {
    offsets.push(S);
    S += f.storage;
    form += f.form;
  }
  const nv = model.velocity.length;
  const nu = ocp.controls - nv;
  const horizon = ocp.spec.horizon;
  const end = ocp.spec.end;
  const continued =
    end === undefined ? [] : 'element' in end ? [...(end.factors ?? model.factors.keys())] : [];
  // per continued factor: its group, the start part and log(start⁻¹·end)
  const paths = continued.map((fi) => {
    const f = model.factors[fi]!;
    const G = groupOf(f);
    const a = ocp.start.slice(offsets[fi]!, offsets[fi]! + f.storage);
    const b = ocp.end.slice(offsets[fi]!, offsets[fi]! + f.storage);
    const rel = G.log(
      new Float64Array(G.dim),
      G.compose(new Float64Array(f.storage), G.inverse(new Float64Array(f.storage), a), b),
    );
    return { fi, G, a, rel };
  });
  return {
    continued,
    defaultGuess: () => undefined,
    fromFile: (g) => {
      const rows = guessField(g, 'g', N + 1, form);
      const x = new Float64Array((N + 1) * S);
      for (let k = 0; k <= N; k++) {
        let off = k * form;
        model.factors.forEach((f, fi) => {
          const part = Array.from(rows.subarray(off, off + f.form));
          x.set(elementOf(f, part), k * S + offsets[fi]!);
          off += f.form;
        });
      }
      const xi = guessSteps(g, 'xi', N, nv);
      const uu = nu > 0 ? guessSteps(g, 'u', N, nu) : undefined;
      const u = new Float64Array(N * ocp.controls);
      for (let k = 0; k < N; k++) {
        for (let i = 0; i < nv; i++) u[k * ocp.controls + i] = xi[k * nv + i]!;
        for (let i = 0; i < nu; i++) u[k * ocp.controls + nv + i] = uu![k * nu + i]!;
      }
      if (horizon === undefined || typeof horizon === 'number') return { x, u };
      const T = guessField(g, 't', N + 1, 1)[N]!;
      const [lo, hi] = horizon.free;
      if (!(T >= lo && T <= hi))
        throw new UsageError(
          `the horizon t[${N}] = ${T} is outside the model's interval [${lo}, ${hi}]`,
          '--guess series.t',
        );
      return { x, u, T };
    },
    endAt: (s) => {
      const e = Float64Array.from(ocp.end);
      for (const { fi, G, a, rel } of paths) {
        const step = G.exp(
          new Float64Array(model.factors[fi]!.storage),
          rel.map((v) => s * v),
        );
        e.set(G.compose(new Float64Array(step.length), a, step), offsets[fi]!);
      }
      return e;
    },
  };
}

/** `xi` (the velocities: ξ, or q̇ of a Lagrangian model) and `u` (its controls), per state. */
function controlSeries(model: OcpModel, u: Float64Array, N: number, width: number) {
  const nv = model.velocity.length;
  const nu = width - nv;
  const xi = new Float64Array(N * nv);
  const uu = new Float64Array(N * nu);
  for (let k = 0; k < N; k++) {
    for (let i = 0; i < nv; i++) xi[k * nv + i] = u[k * width + i]!;
    for (let i = 0; i < nu; i++) uu[k * nu + i] = u[k * width + nv + i]!;
  }
  return [
    { name: 'xi', width: nv, data: stepsToStates(xi, N, nv) },
    ...(nu > 0 ? [{ name: 'u', width: nu, data: stepsToStates(uu, N, nu) }] : []),
  ];
}

/**
 * The CLI output of a model's solution: `g` (states in their vector form), `xi`, `lambda`, `mu`
 * (per-step rows at state k for step k, state 0 repeating step 1) and the solver's outcome.
 *
 * @example
 * ```ts
 * const out = ocpOutput(model, model.ocp, model.ocp.solve(), []);
 * out.series.map((s) => s.name); // ['g', 'xi', 'lambda', 'mu']
 * ```
 */
export function ocpOutput(
  model: OcpModel,
  ocp: LieOcp,
  sol: LieOcpSolution,
  history: readonly number[],
  iterations: number = sol.iterations,
): SolveOutput {
  const N = sol.N;
  const S = ocp.storage;
  const form: number[] = [];
  for (let k = 0; k <= N; k++) {
    let off = k * S;
    for (const f of model.factors) {
      formOf(f.kind, sol.x.subarray(off, off + f.storage), form);
      off += f.storage;
    }
  }
  const width = form.length / (N + 1);
  const nx = sol.lambda.length / N;
  const ng = ocp.rows(0).equalities.count;
  const mu = new Float64Array(N * ng);
  for (let k = 0; k < N; k++) {
    const r = ocp.rows(k).equalities;
    for (let i = 0; i < ng; i++) mu[k * ng + i] = sol.mu[ocp.gOffset[k]! + r.offset + i]!;
  }
  return {
    count: N + 1,
    t: Float64Array.from({ length: N + 1 }, (_, k) => (k * sol.T) / N),
    series: [
      { name: 'g', width, data: Float64Array.from(form) },
      ...controlSeries(model, sol.u, N, ocp.controls),
      { name: 'lambda', width: nx, data: stepsToStates(sol.lambda, N, nx) },
      ...(ng > 0 ? [{ name: 'mu', width: ng, data: stepsToStates(mu, N, ng) }] : []),
    ],
    ...lieOcpOutcome(sol, history, iterations),
    extra: { T: sol.T },
  };
}
