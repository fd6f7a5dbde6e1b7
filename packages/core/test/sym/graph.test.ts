/**
 * Symbolic graphs (src/sym/graph.ts): hash-consing, constant folding and the exact identities,
 * symbols, value() while tracing, the node budget, substitution, dependence and printing.
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import {
  ComputeBudgetError,
  type SX,
  SymbolicValueError,
  SymGraph,
  type SymOps,
} from '../../src/index.js';

describe('hash-consing and construction', () => {
  it('the same operation on the same operands is the same node', () => {
    const g = new SymGraph();
    const [x, y] = g.symbols(2);
    const o = g.ops;
    const a = o.mul(o.sin(x!), o.add(x!, y!));
    const size = g.size;
    expect(o.mul(o.sin(x!), o.add(x!, y!))).toBe(a);
    expect(g.size).toBe(size);
    // operands are not reordered: y + x is another node (nothing is rewritten)
    expect(o.add(y!, x!)).not.toBe(o.add(x!, y!));
    // constants by bit pattern
    expect(g.constant(0.1 + 0.2)).not.toBe(g.constant(0.3));
    expect(g.constant(-0)).not.toBe(g.constant(0));
    expect(g.constant(Number.NaN)).toBe(g.constant(Number.NaN));
  });

  it('symbols are never shared, even with one name', () => {
    const g = new SymGraph();
    expect(g.symbol('t')).not.toBe(g.symbol('t'));
    expect(g.symbols(3, 'q').map((q) => g.symbolName(q))).toEqual(['q0', 'q1', 'q2']);
  });

  it('folds constants with the arithmetic of the compiled code', () => {
    const g = new SymGraph();
    const o = g.ops;
    expect(g.constantValue(o.add(o.const(0.1), o.const(0.2)))).toBe(0.1 + 0.2);
    expect(g.constantValue(o.sin(o.const(1)))).toBe(Math.sin(1));
    expect(g.constantValue(o.pow(o.const(1.1), 3))).toBe(1.1 * 1.1 * 1.1);
    expect(g.constantValue(o.stumpff(2, o.const(0)))).toBe(0.5);
    expect(g.constantValue(g.apply('log10', g.constant(1000)))).toBe(3);
    expect(g.constantValue(o.atan2(o.const(1), o.const(1)))).toBe(Math.PI / 4);
  });

  it('applies only the exact identities', () => {
    const g = new SymGraph();
    const [x, y] = g.symbols(2);
    const o = g.ops;
    const zero = o.const(0);
    const one = o.const(1);
    expect(o.add(x!, zero)).toBe(x);
    expect(o.add(zero, x!)).toBe(x);
    expect(o.sub(x!, zero)).toBe(x);
    expect(o.sub(zero, x!)).toBe(o.neg(x!));
    expect(o.mul(x!, one)).toBe(x);
    expect(o.mul(o.const(-1), x!)).toBe(o.neg(x!));
    expect(g.constantValue(o.mul(x!, zero))).toBe(0);
    expect(g.constantValue(o.div(zero, x!))).toBe(0);
    expect(o.div(x!, one)).toBe(x);
    expect(o.neg(o.neg(x!))).toBe(x);
    expect(o.add(x!, o.neg(y!))).toBe(o.sub(x!, y!));
    expect(o.sub(x!, o.neg(y!))).toBe(o.add(x!, y!));
    expect(o.mul(o.neg(x!), o.neg(y!))).toBe(o.mul(x!, y!));
    expect(o.mul(o.neg(x!), y!)).toBe(o.neg(o.mul(x!, y!)));
    expect(o.neg(o.sub(x!, y!))).toBe(o.sub(y!, x!));
    expect(g.constantValue(o.pow(x!, 0))).toBe(1);
    expect(o.pow(x!, 1)).toBe(x);
    expect(o.abs(o.neg(x!))).toBe(o.abs(x!));
    // not: x − x, x/x, reassociation
    expect(g.isConstant(o.sub(x!, x!))).toBe(false);
    expect(g.isConstant(o.div(x!, x!))).toBe(false);
    expect(o.mul(o.const(2), o.mul(o.const(3), x!))).not.toBe(o.mul(o.const(6), x!));
  });

  it('3000 nested minus signs collapse without recursion', () => {
    const g = new SymGraph();
    const [x] = g.symbols(1);
    let e = x!;
    for (let i = 0; i < 3001; i++) e = g.ops.neg(e);
    expect(e).toBe(g.ops.neg(x!));
    // a deep chain of 30 000 distinct nodes: every traversal is iterative
    let d = x!;
    for (let i = 0; i < 30_000; i++) d = g.ops.add(g.ops.sin(d), x!);
    expect(g.countNodes([d])).toBe(60_001);
    expect(g.dependsOn([d], [x!])).toBe(true);
    expect(g.gradient(d, [x!])).toHaveLength(1);
    expect(g.format(d, 30)).toBe('sin(sin(sin(sin(sin(sin(sin(si…');
  });
});

describe('tracing', () => {
  it('value() of a constant is its number; of anything else a SymbolicValueError', () => {
    const g = new SymGraph();
    const [x] = g.symbols(1, 'x');
    expect(g.ops.value(g.ops.const(2.5))).toBe(2.5);
    expect(() => g.ops.value(g.ops.sin(x!))).toThrow(SymbolicValueError);
    expect(() => g.ops.value(g.ops.sin(x!))).toThrow(
      /value\(\) of the symbolic expression sin\(x0\)/,
    );
  });

  it('a generic ScalarOps function traces', () => {
    const f = <T>(o: SymOps | import('../../src/ad/dual.js').ScalarOps<T>, a: T, b: T) =>
      (o as import('../../src/ad/dual.js').ScalarOps<T>).hypot(a, b);
    const g = new SymGraph();
    const [a, b] = g.symbols(2);
    expect(g.format(f(g.ops, a!, b!))).toBe('hypot(x0, x1)');
  });
});

describe('budgets', () => {
  it('the node budget is checked whenever a node is created', () => {
    const g = new SymGraph({ maxNodes: 10 });
    const [x] = g.symbols(1);
    let y = x!;
    let error: unknown;
    try {
      for (let i = 0; i < 20; i++) y = g.ops.sin(y);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ComputeBudgetError);
    expect(error).toMatchObject({ resource: 'nodes', budget: 10, count: 11 });
    expect(g.size).toBe(10);
    // existing nodes are still found
    expect(g.ops.sin(x!)).toBe(g.ops.sin(x!));
  });

  it('budgets must be positive integers', () => {
    expect(() => new SymGraph({ maxNodes: 0 })).toThrow(DomainError);
    expect(() => new SymGraph({ maxWork: 1.5 })).toThrow(DomainError);
  });
});

describe('queries', () => {
  it('substitute rebuilds through the identities (v = 0 kills v·a(q))', () => {
    const g = new SymGraph();
    const q = g.symbol('q');
    const v = g.symbol('v');
    const o = g.ops;
    const L = o.sub(
      o.mul(o.const(0.5), o.mul(o.add(o.const(1), o.mul(q, q)), o.mul(v, v))),
      o.cos(q),
    );
    const [V] = g.substitute([L], [v], [g.constant(0)]);
    expect(g.format(V!)).toBe('-cos(q)');
    const [s] = g.substitute([L], [q], [g.constant(0)]);
    expect(g.format(s!)).toBe('0.5 * (v * v) - 1');
    expect(() => g.substitute([L], [o.sin(q)], [v])).toThrow(/symbols only/);
    expect(() => g.substitute([L], [q], [])).toThrow(DomainError);
  });

  it('dependsOn is structural', () => {
    const g = new SymGraph();
    const [x, y] = g.symbols(2);
    const o = g.ops;
    expect(g.dependsOn([o.mul(o.sin(y!), o.const(0))], [y!])).toBe(false);
    expect(g.dependsOn([o.sub(x!, x!)], [x!])).toBe(true);
    expect(g.dependsOn([o.const(1), y!], [x!, y!])).toBe(true);
  });

  it('format prints with the precedence of mathjs', () => {
    const g = new SymGraph();
    const x = g.symbol('x');
    const y = g.symbol('y');
    const o = g.ops;
    const c = (v: number) => o.const(v);
    expect(g.format(o.add(o.pow(x, 2), c(1)))).toBe('x ^ 2 + 1');
    expect(g.format(o.mul(o.add(x, y), o.sub(x, y)))).toBe('(x + y) * (x - y)');
    expect(g.format(o.add(x, o.add(y, c(1))))).toBe('x + (y + 1)');
    expect(g.format(o.add(o.add(x, y), c(1)))).toBe('x + y + 1');
    expect(g.format(o.sub(x, o.sub(y, c(1))))).toBe('x - (y - 1)');
    expect(g.format(o.div(x, o.mul(y, c(2))))).toBe('x / (y * 2)');
    expect(g.format(o.neg(o.add(x, y)))).toBe('-(x + y)');
    expect(g.format(o.pow(o.pow(x, 2), 3))).toBe('(x ^ 2) ^ 3');
    expect(g.format(o.pow(x, -1))).toBe('x ^ (-1)');
    expect(g.format(o.mul(c(-0.5), x))).toBe('-0.5 * x');
    expect(g.format(o.stumpff(2, o.mul(x, x)))).toBe('stumpff(2, x * x)');
    expect(g.format(o.atan2(y, x))).toBe('atan2(y, x)');
    expect(g.format(g.pow(x, y))).toBe('pow(x, y)');
  });

  it('rejects nodes of no graph and unknown functions', () => {
    const g = new SymGraph();
    expect(() => g.format(99 as SX)).toThrow(DomainError);
    expect(() => g.apply('gamma' as 'sin', g.constant(1))).toThrow(/asinh/);
    expect(() => g.ops.stumpff(1.5, g.constant(1))).toThrow(DomainError);
  });
});
