/**
 * Differentiation on symbolic graphs (src/sym/derivatives.ts): reverse and forward mode against
 * dual numbers on random smooth expression trees, sparse Jacobians in both modes, Hessians
 * (forward-over-reverse, lower triangle) against central differences of the gradient, and the
 * linear growth of the derivative graphs on the explosive models of issue 18.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dual, DualOps, NumberOps } from '../../src/ad/dual.js';
import { ComputeBudgetError, compileSym, type SX, SymGraph } from '../../src/index.js';
import { evaluate, point, type Tree, tree } from './trees.js';

/** A graph with n symbols and the compiled values of `outputs(g, x)`. */
function traced(n: number, outputs: (g: SymGraph, x: SX[]) => SX[]) {
  const g = new SymGraph();
  const x = g.symbols(n, 'x');
  const out = outputs(g, x);
  const f = compileSym(g, [x], out);
  const buffer = new Float64Array(out.length);
  return {
    g,
    x,
    out,
    at: (p: readonly number[]) => {
      f(buffer, Float64Array.from(p));
      return Array.from(buffer);
    },
  };
}

/** |a − b| ≤ tol·max(1, |b|), counting the worst ratio. */
function worstRelative(pairs: [number, number][]): number {
  let worst = 0;
  for (const [a, b] of pairs) {
    const d = Math.abs(a - b) / Math.max(1, Math.abs(b));
    if (!(d <= worst)) worst = Number.isNaN(d) ? Number.POSITIVE_INFINITY : d;
  }
  return worst;
}

const N = 3;

describe('reverse and forward mode against dual numbers (fast-check, random smooth trees)', () => {
  it('gradient (one reverse sweep) = the dual-number gradient', () => {
    let worst = 0;
    fc.assert(
      fc.property(tree(N), point(N), (t, p) => {
        const { at } = traced(N, (g, x) => g.gradient(evaluate(g.ops, t, x), x));
        const dual = evaluate(DualOps, t, Dual.variables(p));
        const pairs = at(p).map((v, j): [number, number] => [v, dual.d(j)]);
        worst = Math.max(worst, worstRelative(pairs));
      }),
      { numRuns: 300 },
    );
    // the same chain rules in another order: rounding only (measured 3.9e-16)
    expect(worst).toBeLessThan(1e-12);
  });

  it('jvp (forward) and vjp (reverse) with numeric seeds = dual-number directional derivatives', () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.array(tree(N), { minLength: 2, maxLength: 3 }),
        point(N),
        point(N),
        (ts, p, d) => {
          const m = ts.length;
          const w = d.slice(0, m);
          const fwd = traced(N, (g, x) =>
            g.jvp(
              ts.map((t) => evaluate(g.ops, t, x)),
              x,
              d.map((v) => g.constant(v)),
            ),
          );
          const rev = traced(N, (g, x) =>
            g.vjp(
              ts.map((t) => evaluate(g.ops, t, x)),
              x,
              w.map((v) => g.constant(v)),
            ),
          );
          const duals = ts.map((t) => evaluate(DualOps, t, Dual.variables(p)));
          const jvpWant = duals.map((y) => d.reduce((s, dj, j) => s + y.d(j) * dj, 0));
          const vjpWant = p.map((_, j) => duals.reduce((s, y, i) => s + w[i]! * y.d(j), 0));
          const pairs: [number, number][] = [
            ...fwd.at(p).map((v, i): [number, number] => [v, jvpWant[i]!]),
            ...rev.at(p).map((v, j): [number, number] => [v, vjpWant[j]!]),
          ];
          worst = Math.max(worst, worstRelative(pairs));
        },
      ),
      { numRuns: 150 },
    );
    // measured 6.2e-16
    expect(worst).toBeLessThan(1e-12);
  });

  it('symbolic seeds: the directional derivative along velocity symbols', () => {
    const g = new SymGraph();
    const q = g.symbols(2, 'q');
    const v = g.symbols(2, 'v');
    const o = g.ops;
    const phi = o.sub(o.add(o.mul(q[0]!, q[0]!), o.mul(q[1]!, q[1]!)), o.const(1));
    const [d1] = g.jvp([phi], q, v);
    const [d2] = g.jvp([d1!], q, v); // vᵀ∇²φ v = 2|v|²
    const f = compileSym(g, [q, v], [d1!, d2!]);
    const out = new Float64Array(2);
    f(out, Float64Array.of(0.6, -0.8), Float64Array.of(0.3, 0.5));
    expect(out[0]).toBeCloseTo(2 * (0.6 * 0.3 - 0.8 * 0.5), 15);
    expect(out[1]).toBeCloseTo(2 * (0.09 + 0.25), 15);
  });

  it('a symbolic exponent aᵇ: ∂/∂a = b·aᵇ⁻¹, ∂/∂b = aᵇ log a', () => {
    const g = new SymGraph();
    const [a, b] = g.symbols(2);
    const grad = compileSym(g, [[a!, b!]], g.gradient(g.pow(a!, b!), [a!, b!]));
    const out = new Float64Array(2);
    grad(out, Float64Array.of(1.7, 2.3));
    expect(out[0]).toBeCloseTo(2.3 * 1.7 ** 1.3, 14);
    expect(out[1]).toBeCloseTo(1.7 ** 2.3 * Math.log(1.7), 14);
  });

  it('atan2 and hypot have a zero derivative at the origin (as DualOps), abs the sign', () => {
    const g = new SymGraph();
    const [y, x] = g.symbols(2);
    const o = g.ops;
    const outs = [
      ...g.gradient(o.atan2(y!, x!), [y!, x!]),
      ...g.gradient(o.hypot(y!, x!), [y!, x!]),
      ...g.gradient(o.abs(y!), [y!]),
    ];
    const f = compileSym(g, [[y!, x!]], outs);
    const out = new Float64Array(5);
    f(out, Float64Array.of(0, 0));
    expect(Array.from(out, (v) => v + 0)).toEqual([0, 0, 0, 0, 0]); // (−0 + 0 = 0)
    f(out, Float64Array.of(-3, 4));
    expect(Array.from(out)).toEqual([4 / 25, 3 / 25, -3 / 5, 4 / 5, -1]);
  });

  it('wrt must be distinct symbols', () => {
    const g = new SymGraph();
    const [x, y] = g.symbols(2);
    const f = g.ops.mul(x!, y!);
    expect(() => g.gradient(f, [x!, x!])).toThrow(/distinct symbols/);
    expect(() => g.gradient(f, [f])).toThrow(/symbols only/);
    expect(() => g.jvp([f], [x!], [])).toThrow(/one per variable/);
  });
});

describe('sparse Jacobians', () => {
  const shapes: [number, number][] = [
    [2, 4],
    [4, 2],
  ];
  it.each(shapes)(
    '%i outputs in %i variables: both modes equal the dual Jacobian; zeros off the pattern',
    (m, n) => {
      let worst = 0;
      fc.assert(
        fc.property(fc.array(tree(n, 4), { minLength: m, maxLength: m }), point(n), (ts, p) => {
          const duals = ts.map((t) => evaluate(DualOps, t, Dual.variables(p)));
          for (const mode of ['forward', 'reverse'] as const) {
            const g = new SymGraph();
            const x = g.symbols(n, 'x');
            const J = g.jacobian(
              ts.map((t) => evaluate(g.ops, t, x)),
              x,
              mode,
            );
            const values = new Float64Array(J.pattern.nnz);
            compileSym(g, [x], J.values)(values, Float64Array.from(p));
            const { rowStart, col } = J.pattern;
            for (let i = 0; i < m; i++) {
              const stored = new Map<number, number>();
              for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
                if (k > rowStart[i]!) expect(col[k]!).toBeGreaterThan(col[k - 1]!);
                stored.set(col[k]!, values[k]!);
              }
              for (let j = 0; j < n; j++) {
                const want = duals[i]!.d(j);
                const got = stored.get(j);
                if (got === undefined) expect(Math.abs(want)).toBe(0);
                else worst = Math.max(worst, worstRelative([[got, want]]));
              }
            }
          }
        }),
        { numRuns: 100 },
      );
      // measured 3.6e-16
      expect(worst).toBeLessThan(1e-12);
    },
  );

  it('a banded Jacobian stores only the band', () => {
    const n = 50;
    const g = new SymGraph();
    const x = g.symbols(n);
    const o = g.ops;
    // cᵢ = sin(xᵢ₋₁) xᵢ + xᵢ₊₁²
    const c = x.map((xi, i) => {
      let e = xi;
      if (i > 0) e = o.mul(o.sin(x[i - 1]!), xi);
      return i < n - 1 ? o.add(e, o.mul(x[i + 1]!, x[i + 1]!)) : e;
    });
    for (const mode of ['forward', 'reverse'] as const) {
      const J = g.jacobian(c, x, mode);
      expect(J.pattern.nnz).toBe(3 * n - 2);
    }
  });
});

/** Central difference of the compiled gradient along xⱼ (step 1e-5·max(1, |xⱼ|)). */
function centralHessian(grad: (p: number[]) => number[], p: number[]): number[][] {
  return p.map((pj, j) => {
    const h = 1e-5 * Math.max(1, Math.abs(pj));
    const plus = p.slice();
    const minus = p.slice();
    plus[j] = pj + h;
    minus[j] = pj - h;
    const gp = grad(plus);
    const gm = grad(minus);
    return gp.map((v, i) => (v - gm[i]!) / (plus[j]! - minus[j]!));
  });
}

describe('Hessians (forward-over-reverse, lower triangle)', () => {
  it('equal central differences of the gradient; the dense form is symmetric', () => {
    let worst = 0;
    fc.assert(
      fc.property(tree(N, 4), point(N), (t: Tree, p) => {
        const gr = traced(N, (g, x) => g.gradient(evaluate(g.ops, t, x), x));
        const hs = traced(N, (g, x) => {
          const H = g.hessian(evaluate(g.ops, t, x), x);
          for (let i = 0; i < N; i++) {
            for (let k = H.pattern.rowStart[i]!; k < H.pattern.rowStart[i + 1]!; k++) {
              expect(H.pattern.col[k]!).toBeLessThanOrEqual(i);
            }
          }
          return g.dense(H);
        });
        const H = hs.at(p);
        const fd = centralHessian(gr.at, p);
        for (let i = 0; i < N; i++) {
          for (let j = 0; j < N; j++) {
            expect(H[i * N + j]).toBe(H[j * N + i]);
            // scale by the gradient's size: the difference quotient's rounding is ε|∇f|/h
            const scale = Math.max(1, ...gr.at(p).map(Math.abs), Math.abs(fd[j]![i]!));
            worst = Math.max(worst, Math.abs(H[i * N + j]! - fd[j]![i]!) / scale);
          }
        }
      }),
      { numRuns: 200 },
    );
    // truncation h² and rounding ε/h of the differences: measured 1.4e-8
    expect(worst).toBeLessThan(1e-6);
  });

  it('Hessian of σ·f + yᵀc with σ and y as runtime symbols', () => {
    const g = new SymGraph();
    const x = g.symbols(2, 'x');
    const sigma = g.symbol('sigma');
    const y = g.symbols(1, 'y');
    const o = g.ops;
    const f = o.mul(o.exp(x[0]!), x[1]!);
    const c = o.sin(o.mul(x[0]!, x[1]!));
    const L = o.add(o.mul(sigma, f), o.mul(y[0]!, c));
    const H = compileSym(g, [x, sigma, y], g.dense(g.hessian(L, x)));
    const out = new Float64Array(4);
    const [a, b, s, w] = [0.3, -0.7, 2, 0.5];
    H(out, Float64Array.of(a, b), s, Float64Array.of(w));
    const ab = a * b;
    const want = [
      s * Math.exp(a) * b - w * b * b * Math.sin(ab),
      s * Math.exp(a) + w * (Math.cos(ab) - ab * Math.sin(ab)),
      s * Math.exp(a) + w * (Math.cos(ab) - ab * Math.sin(ab)),
      -w * a * a * Math.sin(ab),
    ];
    for (let k = 0; k < 4; k++) expect(out[k]).toBeCloseTo(want[k]!, 14);
  });
});

describe('the derivative graphs grow linearly (issue 18: the explosive models)', () => {
  /** Nodes of the gradient and of the Hessian's stored values, and the Hessian's nonzeros. */
  function sizes(n: number, f: (g: SymGraph, x: SX[]) => SX) {
    const g = new SymGraph();
    const x = g.symbols(n);
    const fx = f(g, x);
    const grad = g.gradient(fx, x);
    const H = g.hessian(fx, x);
    return {
      f: g.countNodes([fx]),
      gradient: g.countNodes(grad),
      hessian: g.countNodes([...H.values]),
      nnz: H.pattern.nnz,
      total: g.size,
    };
  }
  const sum = (g: SymGraph, x: SX[]) => x.reduce((s, xi) => g.add(s, xi));

  it('(x₁ + … + xₙ)²: gradient and Hessian graphs O(n), n(n+1)/2 stored entries', () => {
    const a = sizes(32, (g, x) => g.ops.pow(sum(g, x), 2));
    const b = sizes(128, (g, x) => g.ops.pow(sum(g, x), 2));
    expect(b.nnz).toBe((128 * 129) / 2);
    // all Hessian entries are the one constant 2
    expect(b.hessian).toBe(1);
    // measured 3.9 for the whole graph (67 → 259 nodes): linear, not quadratic (16)
    expect(b.total / a.total).toBeLessThan(4.5);
    expect(b.gradient / a.gradient).toBeLessThan(4.5);
  });

  it('sin nested 9 deep of a sum, and a coupled-oscillator potential: graphs O(n)', () => {
    const nested = (g: SymGraph, x: SX[]) => {
      let s = sum(g, x);
      for (let k = 0; k < 9; k++) s = g.ops.sin(s);
      return s;
    };
    const chain = (g: SymGraph, x: SX[]) => {
      const o = g.ops;
      let V = o.const(0);
      for (let i = 0; i + 1 < x.length; i++) {
        const d = o.sub(x[i]!, x[i + 1]!);
        V = o.add(V, o.mul(o.const(0.5), o.mul(d, d)));
      }
      return V;
    };
    for (const f of [nested, chain]) {
      const a = sizes(64, f);
      const b = sizes(256, f);
      // measured 2.8 (nested: 211 → 595 nodes) and 4.0 (chain: 572 → 2300) for n × 4
      expect(b.total / a.total).toBeLessThan(4.5);
    }
    // the chain's Hessian is tridiagonal: 2n − 1 stored entries of the lower triangle
    expect(sizes(256, chain).nnz).toBe(2 * 256 - 1);
  });

  it('a derivative beyond the node budget throws ComputeBudgetError, fast', () => {
    const g = new SymGraph({ maxNodes: 5_000 });
    const x = g.symbols(200);
    const o = g.ops;
    // f = Π sin(xᵢ): a dense Hessian of 20 000 distinct entries
    const f = x.reduce((p, xi) => o.mul(p, o.sin(xi)), o.const(1));
    const t0 = performance.now();
    let error: unknown;
    try {
      g.hessian(f, x);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ComputeBudgetError);
    expect(error).toMatchObject({ resource: 'nodes', budget: 5_000, count: 5_001 });
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('the work budget bounds the sweeps', () => {
    const g = new SymGraph({ maxWork: 10_000 });
    const x = g.symbols(100);
    const o = g.ops;
    let s = x.reduce((a, b) => o.add(a, b));
    for (let k = 0; k < 50; k++) s = o.sin(s);
    expect(() => g.hessian(s, x)).toThrow(ComputeBudgetError);
    expect(g.work).toBeGreaterThan(10_000);
  });
});

describe('NumberOps and SymOps agree on the value', () => {
  it('compiled trees evaluate to the NumberOps value, bit for bit where no power is involved', () => {
    let worst = 0;
    fc.assert(
      fc.property(tree(N), point(N), (t, p) => {
        const { at } = traced(N, (g, x) => [evaluate(g.ops, t, x)]);
        const want = evaluate(NumberOps, t, p);
        worst = Math.max(worst, worstRelative([[at(p)[0]!, want]]));
      }),
      { numRuns: 300 },
    );
    // the only differences: x³ as x·x·x against x ** 3 (one rounding); measured 1.1e-16
    expect(worst).toBeLessThan(1e-14);
  });
});
