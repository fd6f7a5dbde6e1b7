// NewtonSolver.solveScalar (f and f′ as number methods) against NewtonSolver.solve of size 1 on
// the same function through residual/Jacobian buffers: the same operations in the same order, so
// every outcome must agree bit for bit — iterates, iteration counts, norms, stop reasons, the
// residual history, and the errors thrown (class, message and fields).
import { describe, expect, it } from 'vitest';
import {
  DimensionError,
  DomainError,
  NewtonDivergedError,
  NonFiniteError,
  SingularJacobianError,
} from '../../src/errors.js';
import {
  type NewtonOptions,
  type NewtonResult,
  NewtonSolver,
  type ScalarNewtonProblem,
} from '../../src/solvers/newton.js';
import { rng } from '../../src/testing/random.js';

/** A random scalar problem: one of six families, with random coefficients and start. */
function randomProblem(seed: number): { p: ScalarNewtonProblem; x0: number; kind: string } {
  const r = rng(seed);
  const a = 0.5 + 3 * r();
  const b = 4 * r() - 2;
  const c = r();
  const kind = ['affine+sin', 'cubic', 'atan', 'exp', 'flat-root', 'no-root'][seed % 6]!;
  let p: ScalarNewtonProblem;
  switch (kind) {
    case 'affine+sin':
      p = { residual: (x) => a * x + c * Math.sin(x) - b, derivative: (x) => a + c * Math.cos(x) };
      break;
    case 'cubic':
      // x³ + c x − b: converges from most starts, sometimes after overshooting
      p = { residual: (x) => x * x * x + c * x - b, derivative: (x) => 3 * x * x + c };
      break;
    case 'atan':
      // a·atan(x − b): plain Newton diverges from |x − b| ≳ 1.39, the line search rescues it
      p = { residual: (x) => a * Math.atan(x - b), derivative: (x) => a / (1 + (x - b) * (x - b)) };
      break;
    case 'exp':
      // eˣ − a: overflows far to the right (non-finite residuals, line-search rejections)
      p = { residual: (x) => Math.exp(x) - a, derivative: (x) => Math.exp(x) };
      break;
    case 'no-root':
      // x² + a·(1 + sin 7x): no root; the line search stalls at a local minimum of |f|
      p = {
        residual: (x) => x * x + a * (1.1 + Math.sin(7 * x)),
        derivative: (x) => 2 * x + 7 * a * Math.cos(7 * x),
      };
      break;
    default:
      // (x − b)³: a triple root, linear convergence, stalls and the step test
      p = {
        residual: (x) => (x - b) * (x - b) * (x - b),
        derivative: (x) => 3 * (x - b) * (x - b),
      };
  }
  return { p, x0: 10 * r() - 5, kind };
}

/** The same problem as the (F, J) pair of NewtonSolver.solve. */
function asVector(p: ScalarNewtonProblem) {
  return {
    F: (out: Float64Array, x: Float64Array) => {
      out[0] = p.residual(x[0]!);
    },
    J: (out: Float64Array, x: Float64Array) => {
      out[0] = p.derivative(x[0]!);
    },
  };
}

type Outcome =
  | { ok: true; r: Omit<NewtonResult, 'x'> & { x: number }; history: number[] }
  | { ok: false; error: unknown };

function run(solver: NewtonSolver, f: () => NewtonResult): Outcome {
  try {
    const r = f();
    return {
      ok: true,
      r: {
        x: r.x[0]!,
        converged: r.converged,
        iterations: r.iterations,
        residualNorm: r.residualNorm,
        stepNorm: r.stepNorm,
        reason: r.reason,
      },
      history: Array.from(solver.history.subarray(0, r.iterations + 1)),
    };
  } catch (error) {
    return { ok: false, error };
  }
}

function expectSame(scalar: Outcome, general: Outcome): void {
  expect(scalar.ok).toBe(general.ok);
  if (scalar.ok && general.ok) {
    // toEqual compares numbers with Object.is: bit for bit, NaN and −0 included
    expect(scalar.r).toEqual(general.r);
    expect(scalar.history).toEqual(general.history);
  } else if (!scalar.ok && !general.ok) {
    const e = scalar.error as Error;
    const g = general.error as Error;
    expect(e.constructor).toBe(g.constructor);
    expect(e.message).toBe(g.message);
    expect({ ...e }).toEqual({ ...g });
  }
}

const OPTION_SETS: readonly NewtonOptions[] = [
  {},
  { lineSearch: true },
  { tol: 0, stepTol: 1e-14, conditionCheck: 'pivot' },
  { tol: 1e-300, stepTol: 0, stallTol: 1e-9, maxIterations: 40 },
  { maxIterations: 3, lineSearch: true },
  { maxIterations: 4, throwOnFailure: true },
];

describe('NewtonSolver.solveScalar against solve (n = 1)', () => {
  it('200 random problems × 6 option sets: identical results, histories and errors', () => {
    const reasons = new Map<string, number>();
    let failures = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { p, x0 } = randomProblem(seed);
      const { F, J } = asVector(p);
      for (const opts of OPTION_SETS) {
        const a = new NewtonSolver(1, opts);
        const b = new NewtonSolver(1, opts);
        const scalar = run(a, () => a.solveScalar(p, [x0], seed));
        const general = run(b, () => b.solve(F, J, [x0], seed));
        expectSame(scalar, general);
        expect(Object.is(a.lastCondition, b.lastCondition)).toBe(true);
        if (scalar.ok) reasons.set(scalar.r.reason, (reasons.get(scalar.r.reason) ?? 0) + 1);
        else failures++;
      }
    }
    // the sample reaches every stop reason and the error paths
    for (const reason of ['residual', 'step', 'stall', 'maxIterations', 'lineSearch'])
      expect(reasons.get(reason) ?? 0, reason).toBeGreaterThan(0);
    expect(failures).toBeGreaterThan(0);
  });

  it('throws as solve does: non-finite f(x0), non-finite and zero f′, diverging iterates', () => {
    const cases: [ScalarNewtonProblem, number, NewtonOptions, new (...a: never[]) => Error][] = [
      [{ residual: () => Number.NaN, derivative: () => 1 }, 0, {}, NonFiniteError],
      [
        { residual: (x) => x - 1, derivative: () => Number.POSITIVE_INFINITY },
        0,
        {},
        NonFiniteError,
      ],
      [{ residual: (x) => x - 1, derivative: () => 0 }, 0, {}, SingularJacobianError],
      [{ residual: (x) => x - 1, derivative: () => 1e-320 }, 0, {}, NewtonDivergedError],
      [
        { residual: (x) => (x === 0 ? 1 : Number.NaN), derivative: () => 1 },
        0,
        {},
        NewtonDivergedError,
      ],
    ];
    for (const [p, x0, opts, type] of cases) {
      const { F, J } = asVector(p);
      const a = new NewtonSolver(1, { ...opts, what: 'test' });
      const b = new NewtonSolver(1, { ...opts, what: 'test' });
      const scalar = run(a, () => a.solveScalar(p, [x0], 3));
      const general = run(b, () => b.solve(F, J, [x0], 3));
      expect(scalar.ok).toBe(false);
      if (!scalar.ok) expect(scalar.error).toBeInstanceOf(type);
      expectSame(scalar, general);
    }
  });

  it('passes the zero derivative to onSingular, as solve does', () => {
    const seen: number[] = [];
    const solver = new NewtonSolver(1, {
      onSingular: (jac, n, iteration) => {
        seen.push(jac[0]!, n, iteration);
        return new Error('singular');
      },
    });
    expect(() =>
      solver.solveScalar({ residual: (x) => x * x + 1, derivative: (x) => 2 * x }, [0]),
    ).toThrow('singular');
    expect(seen).toEqual([0, 1, 0]);
  });

  it('reads the tol field; rejects n ≠ 1, a retraction, a bad x0 or a negative tol', () => {
    const p: ScalarNewtonProblem = { residual: (x) => x * x * x - 2, derivative: (x) => 3 * x * x };
    const solver = new NewtonSolver(1, { tol: 1e-300, stepTol: 0, maxIterations: 3 });
    solver.tol = 0.5;
    const loose = solver.solveScalar(p, [1]);
    expect(loose.converged).toBe(true);
    expect(loose.iterations).toBe(1); // |f(4/3)| = 0.370 ≤ 0.5
    solver.tol = -1;
    expect(() => solver.solveScalar(p, [1])).toThrow(DomainError);
    expect(() => new NewtonSolver(2).solveScalar(p, [1])).toThrow(DimensionError);
    expect(() => new NewtonSolver(1).solveScalar(p, [1, 2])).toThrow(DimensionError);
    const retract = (out: Float64Array, x: Float64Array, dx: Float64Array) => {
      out[0] = x[0]! + dx[0]!;
    };
    expect(() => new NewtonSolver(1, { retract }).solveScalar(p, [1])).toThrow(DomainError);
  });

  it('converges quadratically: |e_{k+1}| ≤ C|e_k|² on x³ = 2 from 1.5', () => {
    const root = Math.cbrt(2);
    const xs: number[] = [];
    const p: ScalarNewtonProblem = {
      residual: (x) => {
        xs.push(x);
        return x * x * x - 2;
      },
      derivative: (x) => 3 * x * x,
    };
    const r = new NewtonSolver(1, { tol: 0, stepTol: 1e-15 }).solveScalar(p, [1.5]);
    expect(r.converged).toBe(true);
    expect(Math.abs(r.x[0]! - root)).toBeLessThanOrEqual(4.5e-16);
    // e_{k+1}/e_k² → f″/(2f′) = 1/root ≈ 0.79 at the root
    for (let k = 0; k + 1 < xs.length; k++) {
      const e0 = Math.abs(xs[k]! - root);
      const e1 = Math.abs(xs[k + 1]! - root);
      if (e0 > 1e-7) expect(e1 / (e0 * e0)).toBeLessThanOrEqual(1.2);
    }
  });
});
