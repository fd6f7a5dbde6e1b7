// Random expression trees for the sym tests: data that any LieScalarOps evaluates (plain numbers,
// dual numbers, symbolic graphs), so one tree gives a value, a dual-number gradient and a graph.
// The operations are composed so that every tree is smooth and finite on all of Rⁿ (denominators
// 1 + b², logarithms of 1 + a², exponentials of bounded arguments, Stumpff orders 0–5), so
// derivatives can be compared at any sampled point.
import fc from 'fast-check';
import type { LieScalarOps } from '../../src/ad/dual.js';

export type Tree =
  | { readonly kind: 'x'; readonly i: number }
  | { readonly kind: 'c'; readonly value: number }
  | { readonly kind: 'u'; readonly op: Unary; readonly a: Tree }
  | { readonly kind: 'b'; readonly op: Binary; readonly a: Tree; readonly b: Tree };

export const UNARY = [
  'neg',
  'sin',
  'cos',
  'tanh',
  'atan',
  'expSin',
  'log1p2',
  'sqrt1p2',
  'square',
  'cube',
  'scale',
  'asinTanh',
  'sinhTanh',
  'coshTanh',
  'stumpff0',
  'stumpff1',
  'stumpff2',
  'stumpff3',
  'stumpff4',
  'stumpff5',
  'abs1p',
] as const;
export type Unary = (typeof UNARY)[number];
export const BINARY = ['add', 'sub', 'mul', 'divSafe', 'hypot1', 'atan2', 'powSafe'] as const;
export type Binary = (typeof BINARY)[number];

/** The value of a tree at x, on any scalar arithmetic. */
export function evaluate<T>(o: LieScalarOps<T>, tree: Tree, x: readonly T[]): T {
  switch (tree.kind) {
    case 'x':
      return x[tree.i]!;
    case 'c':
      return o.const(tree.value);
    case 'u': {
      const a = evaluate(o, tree.a, x);
      switch (tree.op) {
        case 'neg':
          return o.neg(a);
        case 'sin':
          return o.sin(a);
        case 'cos':
          return o.cos(a);
        case 'tanh':
          return o.tanh(a);
        case 'atan':
          return o.atan(a);
        case 'expSin':
          return o.exp(o.sin(a));
        case 'log1p2':
          return o.log(o.add(o.const(1), o.mul(a, a)));
        case 'sqrt1p2':
          return o.sqrt(o.add(o.const(1), o.mul(a, a)));
        case 'square':
          return o.pow(a, 2);
        case 'cube':
          return o.pow(o.tanh(a), 3);
        case 'scale':
          return o.scale(a, 0.75);
        case 'asinTanh':
          return o.asin(o.scale(o.tanh(a), 0.9));
        case 'sinhTanh':
          return o.sinh(o.tanh(a));
        case 'coshTanh':
          return o.cosh(o.tanh(a));
        case 'abs1p':
          return o.abs(o.add(o.const(2), o.tanh(a)));
        default: {
          const k = Number(tree.op.slice('stumpff'.length));
          return o.stumpff(k, o.scale(o.tanh(a), 30));
        }
      }
    }
    case 'b': {
      const a = evaluate(o, tree.a, x);
      const b = evaluate(o, tree.b, x);
      switch (tree.op) {
        case 'add':
          return o.add(a, b);
        case 'sub':
          return o.sub(a, b);
        case 'mul':
          return o.mul(a, b);
        case 'divSafe':
          return o.div(a, o.add(o.const(1), o.mul(b, b)));
        case 'hypot1':
          return o.hypot(o.add(o.const(1), o.mul(a, a)), b);
        case 'atan2':
          return o.atan2(o.add(o.const(1.5), o.tanh(a)), b);
        case 'powSafe':
          return o.pow(o.add(o.const(1.2), o.tanh(a)), 1.5);
      }
    }
  }
}

/** Trees over n variables with at most `depth` levels. */
export function tree(n: number, depth = 5): fc.Arbitrary<Tree> {
  const { t } = fc.letrec<{ t: Tree }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'large', withCrossShrink: true, maxDepth: depth },
      {
        weight: 2,
        arbitrary: fc.integer({ min: 0, max: n - 1 }).map((i): Tree => ({ kind: 'x', i })),
      },
      {
        weight: 1,
        arbitrary: fc
          .double({ min: -2, max: 2, noNaN: true })
          .map((value): Tree => ({ kind: 'c', value })),
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom(...UNARY), tie('t'))
          .map(([op, a]): Tree => ({ kind: 'u', op, a })),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(...BINARY), tie('t'), tie('t'))
          .map(([op, a, b]): Tree => ({ kind: 'b', op, a, b })),
      },
    ),
  }));
  // the root is an operation, so no sample is a bare leaf
  return fc.oneof(
    fc.tuple(fc.constantFrom(...UNARY), t).map(([op, a]): Tree => ({ kind: 'u', op, a })),
    fc.tuple(fc.constantFrom(...BINARY), t, t).map(([op, a, b]): Tree => ({ kind: 'b', op, a, b })),
  );
}

/** Points of Rⁿ with coordinates in [−2, 2]. */
export const point = (n: number) =>
  fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n });
