/**
 * Compilation (src/sym/compile.ts): generated JavaScript and the tape interpreter agree bit for
 * bit on random graphs (values, gradients, Hessians, chunked large graphs); the generated code is
 * flat; compiled functions allocate nothing per call; arguments are checked.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError } from '../../src/errors.js';
import {
  canGenerateCode,
  compileSym,
  compileSymScalar,
  type SX,
  SYM_JS_CHUNK,
  type SymArgument,
  SymGraph,
  type SymInput,
  symSource,
} from '../../src/index.js';
import { evaluate, point, tree } from './trees.js';

const N = 3;

/** Every output of the js and interpreter compilations, compared with Object.is. */
function expectIdentical(g: SymGraph, inputs: SymInput[], outputs: SX[], args: SymArgument[]) {
  const js = compileSym(g, inputs, outputs, { mode: 'js' });
  const tape = compileSym(g, inputs, outputs, { mode: 'interpreter' });
  expect(js.mode).toBe('js');
  expect(tape.mode).toBe('interpreter');
  const a = new Float64Array(outputs.length);
  const b = new Float64Array(outputs.length);
  js(a, ...args);
  tape(b, ...args);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) expect.fail(`output ${i}: js ${a[i]} ≠ interpreter ${b[i]}`);
  }
}

describe('js and interpreter give bit-identical results', () => {
  it('values, gradients and Hessians of random trees', () => {
    fc.assert(
      fc.property(tree(N), point(N), (t, p) => {
        const g = new SymGraph();
        const x = g.symbols(N);
        const f = evaluate(g.ops, t, x);
        const outputs = [f, ...g.gradient(f, x), ...g.dense(g.hessian(f, x))];
        expectIdentical(g, [x], outputs, [Float64Array.from(p)]);
      }),
      { numRuns: 200 },
    );
  });

  it('every operation, including non-finite results and the zero-guarded divisions', () => {
    const g = new SymGraph();
    const [x, y] = g.symbols(2);
    const o = g.ops;
    const all = [
      o.add(x!, y!),
      o.sub(x!, y!),
      o.mul(x!, y!),
      o.div(x!, y!),
      g.pow(x!, y!),
      o.atan2(x!, y!),
      o.hypot(x!, y!),
      o.neg(x!),
      o.pow(x!, 2),
      o.pow(x!, 3),
      o.pow(x!, -1),
      o.pow(x!, 0.5),
      o.pow(x!, -2.5),
      ...(
        [
          'sqrt',
          'exp',
          'log',
          'log10',
          'sin',
          'cos',
          'tan',
          'asin',
          'acos',
          'atan',
          'sinh',
          'cosh',
          'tanh',
          'asinh',
          'acosh',
          'atanh',
          'abs',
          'sign',
        ] as const
      ).map((name) => g.apply(name, x!)),
      ...[0, 1, 2, 3, 7].map((k) => o.stumpff(k, x!)),
      // divz through the derivatives of atan2 and hypot
      ...g.gradient(o.atan2(x!, y!), [x!, y!]),
      ...g.gradient(o.hypot(x!, y!), [x!, y!]),
    ];
    for (const [a, b] of [
      [0.3, -1.7],
      [-2, 0],
      [0, 0],
      [-0, 3],
      [1e300, 1e-300],
      [Number.NaN, 1],
      [Number.POSITIVE_INFINITY, -2],
    ]) {
      expectIdentical(g, [[x!, y!]], all, [Float64Array.of(a!, b!)]);
    }
  });

  it('a graph of several chunks (5000 operations), scalar and vector inputs mixed', () => {
    const g = new SymGraph();
    const x = g.symbols(20, 'x');
    const s = g.symbol('s');
    const o = g.ops;
    // a long recurrence with far-reaching operands
    const nodes: SX[] = [...x];
    for (let i = 0; i < 5000; i++) {
      const a = nodes[nodes.length - 1]!;
      const b = nodes[(i * 7919) % nodes.length]!;
      nodes.push(
        i % 3 === 0
          ? o.sin(o.add(a, s))
          : i % 3 === 1
            ? o.mul(a, b)
            : o.sub(a, o.mul(o.const(0.5), b)),
      );
    }
    const outputs = [nodes[nodes.length - 1]!, nodes[2500]!, x[3]!, s, o.const(2)];
    const f = compileSym(g, [x, s], outputs, { mode: 'js' });
    expect(f.operations).toBeGreaterThan(2 * SYM_JS_CHUNK);
    expect(symSource(g, [x, s], outputs)).toContain('function chunk2(');
    const args = [Float64Array.from({ length: 20 }, (_, i) => Math.sin(i + 1)), 0.3];
    expectIdentical(g, [x, s], outputs, args);
    const out = new Float64Array(5);
    f(out, ...args);
    expect(out[2]).toBe(Math.sin(4));
    expect(out[3]).toBe(0.3);
    expect(out[4]).toBe(2);
  });

  it('many outputs: runs of one value become loops, and the outputs are chunked too', () => {
    // the dense Hessian of a chain potential: 150² = 22 500 outputs, mostly runs of zeros
    const g = new SymGraph();
    const n = 150;
    const x = g.symbols(n);
    const o = g.ops;
    let V = o.const(0);
    for (let i = 0; i + 1 < n; i++) V = o.add(V, o.cos(o.sub(x[i]!, x[i + 1]!)));
    const outputs = g.dense(g.hessian(V, x));
    const source = symSource(g, [x], outputs);
    // the zeros by one fill, the rest by single stores (chunked: 22 500 outputs)
    expect(source).toContain(`out.fill(0, 0, ${n * n});`);
    expect(source).toContain('function chunk1(');
    const args = [Float64Array.from({ length: n }, (_, i) => Math.sin(3 * i))];
    expectIdentical(g, [x], outputs, args);
    const out = new Float64Array(n * n);
    compileSym(g, [x], outputs)(out, ...args);
    // symmetric, tridiagonal: H[i][i+1] = cos(xᵢ − xᵢ₊₁)
    expect(out[0 * n + 1]).toBe(Math.cos(args[0]![0]! - args[0]![1]!));
    expect(out[1 * n + 0]).toBe(out[0 * n + 1]);
    expect(out[5 * n + 9]).toBe(0);
    // a run of one computed value is a loop (out.fill would box the double)
    const [y] = g.symbols(1);
    const s = g.ops.sin(y!);
    expect(symSource(g, [[y!]], [s, s, s, s, s, y!])).toContain(
      'for (let k = 0; k < 5; k++) out[k] = t0;',
    );
  });

  it('compileScalar returns the value', () => {
    const g = new SymGraph();
    const [q, p] = g.symbols(2);
    const e = g.ops.mul(p!, g.ops.cos(q!));
    for (const mode of ['js', 'interpreter'] as const) {
      const V = compileSymScalar(g, [[q!], p!], e, { mode });
      expect(V(Float64Array.of(0.4), 9.81)).toBe(9.81 * Math.cos(0.4));
    }
  });
});

describe('the generated code', () => {
  it('is flat: one operation per statement on identifiers and literals', () => {
    const g = new SymGraph();
    const x = g.symbols(3);
    const o = g.ops;
    let f = o.const(0);
    for (let i = 0; i < 3; i++)
      f = o.add(f, o.mul(o.exp(o.sin(x[i]!)), o.stumpff(2, x[(i + 1) % 3]!)));
    const source = symSource(g, [x], [f, ...g.gradient(f, x)]);
    const statements = source.split('\n').filter((l) => l.startsWith('const t'));
    expect(statements.length).toBeGreaterThan(10);
    const operand = String.raw`(?:[at]\d+|\(?-?[\d.e+-]+\)?)`;
    const flat = new RegExp(
      String.raw`^const t\d+ = (?:-?${operand}|${operand} [-+*/] ${operand}|Math\.\w+\(${operand}(?:, ${operand})?\)|S\[0\]);$`,
    );
    for (const s of statements) expect(s).toMatch(flat);
    // a Stumpff function passes through the scratch array S (no double crosses the call)
    expect(source).toMatch(/S\[0\] = [at]\d+;\nstumpffTo\(2, S, 0, S, 0\);\nconst t\d+ = S\[0\];/);
    // no allocation in the body: no new, no literals of arrays, objects or functions
    const body = source.slice(source.indexOf('return function'));
    expect(body).not.toMatch(/\bnew\b|\[\]|\{\}|=>/);
  });

  /**
   * Bytes allocated per call: median heap growth between forced collections over batches of
   * calls, minus that of an empty function measured the same way (the measurement's own
   * allocation, a few hundred bytes a batch).
   */
  function bytesPerCall(fn: () => void, perBatch = 10_000): number {
    v8.setFlagsFromString('--expose-gc');
    const gc = (globalThis as { gc?: () => void }).gc ?? (vm.runInNewContext('gc') as () => void);
    const growth = (f: () => void): number => {
      // warm up until V8 has optimised the code (50 000 calls, or 1 s on a slow machine)
      const t0 = performance.now();
      for (let k = 0; k < 50_000 && performance.now() - t0 < 1000; k++) f();
      const grown: number[] = [];
      for (let b = 0; b < 9; b++) {
        gc();
        const h0 = process.memoryUsage().heapUsed;
        for (let k = 0; k < perBatch; k++) f();
        grown.push(process.memoryUsage().heapUsed - h0);
      }
      grown.sort((a, c) => a - c);
      return grown[4]!;
    };
    const empty = growth(() => undefined);
    return (growth(fn) - empty) / perBatch;
  }

  it('compiled functions allocate nothing per call (js and interpreter)', () => {
    const g = new SymGraph();
    const x = g.symbols(4);
    const o = g.ops;
    const f = o.mul(
      o.sin(o.mul(x[0]!, x[1]!)),
      o.add(o.exp(x[2]!), o.stumpff(1, o.mul(x[3]!, x[3]!))),
    );
    const outputs = g.dense(g.hessian(f, x));
    const args = Float64Array.of(0.1, 0.2, 0.3, 0.4);
    const out = new Float64Array(outputs.length);
    for (const mode of ['js', 'interpreter'] as const) {
      const h = compileSym(g, [x], outputs, { mode });
      // measured 0.0 (the measurement's own noise is a few bytes per batch)
      expect(bytesPerCall(() => h(out, args))).toBeLessThan(0.5);
    }
  }, 60_000);
});

describe('arguments', () => {
  const g = new SymGraph();
  const x = g.symbols(2, 'x');
  const k = g.symbol('k');
  const free = g.symbol('free');
  const o = g.ops;
  const outputs = [o.mul(k, x[0]!), x[1]!];

  it.each(['js', 'interpreter'] as const)(
    '%s: short arrays and wrong types are DimensionErrors',
    (mode) => {
      const f = compileSym(g, [x, k], outputs, { mode, name: 'f' });
      expect(() => f(new Float64Array(1), Float64Array.of(1, 2), 3)).toThrow(DimensionError);
      expect(() => f(new Float64Array(2), Float64Array.of(1), 3)).toThrow(
        /f: input 0: expected 2, got length 1/,
      );
      expect(() =>
        f(new Float64Array(2), Float64Array.of(1, 2), Float64Array.of(3) as never),
      ).toThrow(/f: input 1: expected a number/);
    },
  );

  it('inputs must be distinct symbols covering the outputs', () => {
    expect(() => compileSym(g, [x], outputs)).toThrow(/not an input/);
    expect(() => compileSym(g, [[x[0]!, x[0]!]], [x[0]!])).toThrow(/each symbol in one input/);
    expect(() => compileSym(g, [[o.sin(x[0]!)]], [x[0]!])).toThrow(/symbols only/);
    expect(() =>
      compileSym(
        g,
        Array.from({ length: 9 }, () => free),
        [free],
      ),
    ).toThrow(DomainError);
    // auto mode: small graphs are generated code when new Function works
    expect(compileSym(g, [x, k], outputs).mode).toBe(canGenerateCode() ? 'js' : 'interpreter');
  });
});
