/**
 * The operations of a symbolic graph node and their numeric meaning. One function,
 * {@link applyOp}, defines every operation on doubles; constant folding and the tape interpreter
 * call it, and the code generator emits the same JavaScript expressions ({@link jsOf}), so folded,
 * interpreted and generated results agree bit for bit.
 *
 * @module
 */
import { stumpff } from './stumpff.js';

// leaves
export const OP_CONST = 0;
export const OP_SYMBOL = 1;
// binary
export const OP_ADD = 2;
export const OP_SUB = 3;
export const OP_MUL = 4;
export const OP_DIV = 5;
/** aᵇ, both symbolic. */
export const OP_POW = 6;
/** atan2(a, b) (a = y, b = x). */
export const OP_ATAN2 = 7;
export const OP_HYPOT = 8;
/** a/b, or 0 where b = 0 (the derivatives of atan2 and hypot at the origin, as DualOps). */
export const OP_DIVZ = 9;
// unary
export const OP_NEG = 10;
/** aᵖ for a constant exponent p (the node's value). */
export const OP_POWC = 11;
export const OP_SQRT = 12;
export const OP_EXP = 13;
export const OP_LOG = 14;
export const OP_SIN = 15;
export const OP_COS = 16;
export const OP_TAN = 17;
export const OP_ASIN = 18;
export const OP_ACOS = 19;
export const OP_ATAN = 20;
export const OP_SINH = 21;
export const OP_COSH = 22;
export const OP_TANH = 23;
export const OP_ASINH = 24;
export const OP_ACOSH = 25;
export const OP_ATANH = 26;
export const OP_ABS = 27;
/** sign(a) ∈ {−1, 0, 1} (0 for NaN). */
export const OP_SIGN = 28;
export const OP_LOG10 = 29;
/** Stumpff c_k(a), the order k in the node's second slot. */
export const OP_STUMPFF = 30;

export const OP_COUNT = 31;

/** True for the operations with two operands. */
export function isBinary(op: number): boolean {
  return op >= OP_ADD && op <= OP_DIVZ;
}

/** The JavaScript (`Math`) function of each unary operation that is a plain call. */
const MATH_NAME: Readonly<Record<number, string>> = {
  [OP_SQRT]: 'sqrt',
  [OP_EXP]: 'exp',
  [OP_LOG]: 'log',
  [OP_SIN]: 'sin',
  [OP_COS]: 'cos',
  [OP_TAN]: 'tan',
  [OP_ASIN]: 'asin',
  [OP_ACOS]: 'acos',
  [OP_ATAN]: 'atan',
  [OP_SINH]: 'sinh',
  [OP_COSH]: 'cosh',
  [OP_TANH]: 'tanh',
  [OP_ASINH]: 'asinh',
  [OP_ACOSH]: 'acosh',
  [OP_ATANH]: 'atanh',
  [OP_ABS]: 'abs',
  [OP_LOG10]: 'log10',
};

/** Names of the operations in printed expressions (mathjs-like). */
export const OP_NAME: Readonly<Record<number, string>> = {
  ...MATH_NAME,
  [OP_POW]: 'pow',
  [OP_ATAN2]: 'atan2',
  [OP_HYPOT]: 'hypot',
  [OP_DIVZ]: 'divz',
  [OP_SIGN]: 'sign',
  [OP_STUMPFF]: 'stumpff',
};

/**
 * The value of operation `op` on operands x (and y), with `k` the Stumpff order and `p` the
 * constant exponent of {@link OP_POWC}. The definition of every operation on doubles.
 */
export function applyOp(op: number, x: number, y: number, k: number, p: number): number {
  switch (op) {
    case OP_ADD:
      return x + y;
    case OP_SUB:
      return x - y;
    case OP_MUL:
      return x * y;
    case OP_DIV:
      return x / y;
    case OP_POW:
      return x ** y;
    case OP_ATAN2:
      return Math.atan2(x, y);
    case OP_HYPOT:
      return Math.hypot(x, y);
    case OP_DIVZ:
      return y === 0 ? 0 : x / y;
    case OP_NEG:
      return -x;
    case OP_POWC:
      return p === 2 ? x * x : p === 3 ? x * x * x : p === -1 ? 1 / x : x ** p;
    case OP_SQRT:
      return Math.sqrt(x);
    case OP_EXP:
      return Math.exp(x);
    case OP_LOG:
      return Math.log(x);
    case OP_SIN:
      return Math.sin(x);
    case OP_COS:
      return Math.cos(x);
    case OP_TAN:
      return Math.tan(x);
    case OP_ASIN:
      return Math.asin(x);
    case OP_ACOS:
      return Math.acos(x);
    case OP_ATAN:
      return Math.atan(x);
    case OP_SINH:
      return Math.sinh(x);
    case OP_COSH:
      return Math.cosh(x);
    case OP_TANH:
      return Math.tanh(x);
    case OP_ASINH:
      return Math.asinh(x);
    case OP_ACOSH:
      return Math.acosh(x);
    case OP_ATANH:
      return Math.atanh(x);
    case OP_ABS:
      return Math.abs(x);
    case OP_SIGN:
      return x > 0 ? 1 : x < 0 ? -1 : 0;
    case OP_LOG10:
      return Math.log10(x);
    case OP_STUMPFF:
      return stumpff(k, x);
    default:
      throw new Error(`sym: no operation ${op}`);
  }
}

/**
 * The JavaScript expression of operation `op` on operand expressions `x` and `y` (identifiers or
 * literals), with the same meaning as {@link applyOp}; `stumpff` is a closure variable of the
 * generated code. One operation per expression: generated code never nests. (Stumpff
 * functions are not expressions: compile.ts calls `stumpffTo` through a scratch array.)
 */
export function jsOf(op: number, x: string, y: string, _k: number, p: number): string {
  switch (op) {
    case OP_ADD:
      return `${x} + ${y}`;
    case OP_SUB:
      return `${x} - ${y}`;
    case OP_MUL:
      return `${x} * ${y}`;
    case OP_DIV:
      return `${x} / ${y}`;
    case OP_POW:
      return `Math.pow(${x}, ${y})`;
    case OP_ATAN2:
      return `Math.atan2(${x}, ${y})`;
    case OP_HYPOT:
      return `Math.hypot(${x}, ${y})`;
    case OP_DIVZ:
      return `${y} === 0 ? 0 : ${x} / ${y}`;
    case OP_NEG:
      return `-${x}`;
    case OP_POWC:
      return p === 2
        ? `${x} * ${x}`
        : p === 3
          ? `${x} * ${x} * ${x}`
          : p === -1
            ? `1 / ${x}`
            : `Math.pow(${x}, ${literal(p)})`;
    case OP_SIGN:
      return `${x} > 0 ? 1 : ${x} < 0 ? -1 : 0`;
    default: {
      const name = MATH_NAME[op];
      if (name === undefined) throw new Error(`sym: no operation ${op}`);
      return `Math.${name}(${x})`;
    }
  }
}

/** A JavaScript literal that evaluates to exactly `x` (parenthesised when negative). */
export function literal(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '(-Infinity)';
  if (Object.is(x, -0)) return '(-0)';
  return x < 0 ? `(${String(x)})` : String(x);
}
