/**
 * Compiled NLP functions (src/sym/nlp.ts) and the purpose they serve: exact derivatives of costs
 * written through Lie-group formulas. SO(3)'s Exp(δ) = I + c₁(θ²)δ̂ + c₂(θ²)δ̂² traced with the
 * Stumpff primitives is exact at δ = 0 (no branch, no 0/0), its derivatives match core's SO3 and
 * dual numbers, and the Hessian of the Lagrangian matches central differences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dual, DualOps, type LieScalarOps, NumberOps } from '../../src/ad/dual.js';
import { DomainError } from '../../src/errors.js';
import { compileSymNlp, SymGraph } from '../../src/index.js';
import { SO3 } from '../../src/lie/so3.js';

/** Exp(δ) = I + c₁(θ²)δ̂ + c₂(θ²)δ̂², δ̂² = δδᵀ − θ²I (row-major 3×3), on any arithmetic. */
function exp3<T>(o: LieScalarOps<T>, d: readonly T[]): T[] {
  const [x, y, z] = [d[0]!, d[1]!, d[2]!];
  const t = o.add(o.add(o.mul(x, x), o.mul(y, y)), o.mul(z, z));
  const a = o.stumpff(1, t);
  const b = o.stumpff(2, t);
  const W = [o.const(0), o.neg(z), y, z, o.const(0), o.neg(x), o.neg(y), x, o.const(0)];
  const out: T[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const sq = o.sub(o.mul(d[i]!, d[j]!), i === j ? t : o.const(0));
      const e = o.add(o.mul(a, W[3 * i + j]!), o.mul(b, sq));
      out.push(i === j ? o.add(o.const(1), e) : e);
    }
  }
  return out;
}

/** f(δ) = ‖Exp(δ)·R0 − R1‖²_F with R0, R1 as constants. */
function cost<T>(o: LieScalarOps<T>, d: readonly T[], R0: Float64Array, R1: Float64Array): T {
  const E = exp3(o, d);
  let f = o.const(0);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let v = o.const(-R1[3 * i + j]!);
      for (let k = 0; k < 3; k++) v = o.add(v, o.mul(E[3 * i + k]!, o.const(R0[3 * k + j]!)));
      f = o.add(f, o.mul(v, v));
    }
  }
  return f;
}

const R0 = SO3.exp(new Float64Array(9), Float64Array.of(0.3, -0.2, 0.5));
const R1 = SO3.exp(new Float64Array(9), Float64Array.of(-0.4, 0.1, 0.2));

describe('SO(3) Exp traced with Stumpff functions', () => {
  it('equals core SO3.exp (fast-check, |δ| < 3)', () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1.7, max: 1.7, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (d) => {
          const want = SO3.exp(new Float64Array(9), Float64Array.from(d));
          const got = exp3(NumberOps, d);
          got.forEach((v, k) => {
            worst = Math.max(worst, Math.abs(v - want[k]!));
          });
        },
      ),
    );
    // measured 4.4e-16
    expect(worst).toBeLessThan(2e-15);
  });

  it('at δ = 0 the traced Hessian of f is the exact closed form, and finite', () => {
    // f(δ) = 6 − 2 tr(Exp(δ)ᵀM), M = R1 R0ᵀ; ∂²Exp/∂δᵢ∂δⱼ(0) = (êᵢêⱼ + êⱼêᵢ)/2, so
    // H_ij = −tr((êᵢêⱼ + êⱼêᵢ)ᵀ M) = 2δ_ij tr M − M_ij − M_ji (with êᵢêⱼ = eⱼeᵢᵀ − δ_ij I)
    const M = new Float64Array(9);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        for (let k = 0; k < 3; k++) M[3 * i + j]! += R1[3 * i + k]! * R0[3 * j + k]!;
    const tr = M[0]! + M[4]! + M[8]!;
    const g = new SymGraph();
    const d = g.symbols(3, 'd');
    const f = cost(g.ops, d, R0, R1);
    const nlp = compileSymNlp(g, { variables: d, objective: f });
    const H = new Float64Array(9);
    nlp.hessian(H, new Float64Array(3), new Float64Array(0), 1, new Float64Array(0));
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const want = (i === j ? 2 * tr : 0) - M[3 * i + j]! - M[3 * j + i]!;
        expect(Math.abs(H[3 * i + j]! - want), `H[${i}][${j}]`).toBeLessThan(1e-14);
      }
    }
    // the gradient at 0 against dual numbers (exact chain rules through c₁, c₂ at θ = 0)
    const grad = new Float64Array(3);
    nlp.gradient(grad, new Float64Array(3), new Float64Array(0));
    const dual = cost(DualOps, Dual.variables([0, 0, 0]), R0, R1);
    for (let i = 0; i < 3; i++) expect(Math.abs(grad[i]! - dual.d(i))).toBeLessThan(1e-15);
  });

  it('gradient and Hessian against dual numbers and central differences at random δ', () => {
    const g = new SymGraph();
    const d = g.symbols(3, 'd');
    const nlp = compileSymNlp(g, { variables: d, objective: cost(g.ops, d, R0, R1) });
    const p = new Float64Array(0);
    const none = new Float64Array(0);
    let worstG = 0;
    let worstH = 0;
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (x) => {
          const xs = Float64Array.from(x);
          const grad = new Float64Array(3);
          nlp.gradient(grad, xs, p);
          const dual = cost(DualOps, Dual.variables(x), R0, R1);
          for (let i = 0; i < 3; i++) worstG = Math.max(worstG, Math.abs(grad[i]! - dual.d(i)));
          const H = new Float64Array(9);
          nlp.hessian(H, xs, p, 1, none);
          for (let j = 0; j < 3; j++) {
            const h = 1e-5;
            const plus = x.slice();
            const minus = x.slice();
            plus[j]! += h;
            minus[j]! -= h;
            const gp = cost(DualOps, Dual.variables(plus), R0, R1);
            const gm = cost(DualOps, Dual.variables(minus), R0, R1);
            for (let i = 0; i < 3; i++) {
              const fd = (gp.d(i) - gm.d(i)) / (plus[j]! - minus[j]!);
              worstH = Math.max(worstH, Math.abs(H[3 * i + j]! - fd));
            }
          }
        },
      ),
      { numRuns: 100 },
    );
    // measured 1.8e-15 and 2.7e-10
    expect(worstG).toBeLessThan(1e-13);
    expect(worstH).toBeLessThan(1e-7);
  });
});

describe('compileNlp', () => {
  const g = new SymGraph();
  const x = g.symbols(3, 'x');
  const a = g.symbol('a');
  const o = g.ops;
  // f = x₀² + a·x₁x₂ + sin x₂;  c = [x₀ + x₁ + x₂ − 1, x₀·x₁, exp(x₂)]
  const f = o.add(o.add(o.mul(x[0]!, x[0]!), o.mul(a, o.mul(x[1]!, x[2]!))), o.sin(x[2]!));
  const c = [
    o.sub(o.add(o.add(x[0]!, x[1]!), x[2]!), o.const(1)),
    o.mul(x[0]!, x[1]!),
    o.exp(x[2]!),
  ];
  const nlp = compileSymNlp(g, { variables: x, parameters: [a], objective: f, constraints: c });
  const X = Float64Array.of(0.2, -0.5, 0.9);
  const P = Float64Array.of(1.5);

  it('objective, gradient, constraints and the Jacobian (dense and sparse)', () => {
    expect(nlp.n).toBe(3);
    expect(nlp.m).toBe(3);
    expect(nlp.objective(X, P)).toBe(0.2 * 0.2 + 1.5 * (-0.5 * 0.9) + Math.sin(0.9));
    const grad = new Float64Array(3);
    nlp.gradient(grad, X, P);
    expect(Array.from(grad)).toEqual([0.4, 1.5 * 0.9, 1.5 * -0.5 + Math.cos(0.9)]);
    const cv = new Float64Array(3);
    nlp.constraints(cv, X, P);
    expect(cv[1]).toBe(-0.1);
    const J = new Float64Array(9);
    nlp.jacobian(J, X, P);
    expect(Array.from(J)).toEqual([1, 1, 1, -0.5, 0.2, 0, 0, 0, Math.exp(0.9)]);
    const { rowStart, col, nnz } = nlp.jacobianPattern;
    expect(nnz).toBe(6);
    expect(Array.from(rowStart)).toEqual([0, 3, 5, 6]);
    expect(Array.from(col)).toEqual([0, 1, 2, 0, 1, 2]);
    const values = new Float64Array(nnz);
    nlp.jacobianValues(values, X, P);
    expect(Array.from(values)).toEqual([1, 1, 1, -0.5, 0.2, Math.exp(0.9)]);
  });

  it('the Hessian of σf + yᵀc: dense symmetric and the lower-triangle pattern', () => {
    const [sigma, y] = [0.5, Float64Array.of(2, -3, 0.25)];
    const H = new Float64Array(9);
    nlp.hessian(H, X, P, sigma, y);
    const h22 = sigma * -Math.sin(0.9) + 0.25 * Math.exp(0.9);
    const want = [sigma * 2, -3, 0, -3, 0, sigma * 1.5, 0, sigma * 1.5, h22];
    want.forEach((v, k) => {
      expect(H[k]).toBeCloseTo(v, 15);
    });
    const { rowStart, col, nnz } = nlp.hessianPattern;
    expect(nnz).toBe(4); // (0,0), (1,0), (2,1), (2,2)
    expect(Array.from(rowStart)).toEqual([0, 1, 2, 4]);
    expect(Array.from(col)).toEqual([0, 0, 1, 2]);
    const values = new Float64Array(nnz);
    nlp.hessianValues(values, X, P, sigma, y);
    expect(Array.from(values)).toEqual([H[0], H[3], H[7], H[8]]);
  });

  it('without a Hessian, hessian() throws; without constraints m = 0', () => {
    const h = new SymGraph();
    const z = h.symbols(2);
    const only = compileSymNlp(
      h,
      { variables: z, objective: h.ops.mul(z[0]!, z[1]!) },
      { hessian: false },
    );
    expect(only.m).toBe(0);
    expect(() =>
      only.hessian(
        new Float64Array(4),
        new Float64Array(2),
        new Float64Array(0),
        1,
        new Float64Array(0),
      ),
    ).toThrow(DomainError);
    const J = new Float64Array(0);
    only.jacobian(J, Float64Array.of(1, 2), new Float64Array(0));
  });
});
