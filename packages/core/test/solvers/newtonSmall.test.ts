// The fixed-size paths of NewtonSolver (n = 1 a division, n = 2, 3 an unrolled LU) against the
// general path (DenseLU), which they must reproduce: the n-dimensional system is embedded in an
// (n + 1)-dimensional one with the extra, decoupled equation x_n = 0 (Jacobian row and column
// e_n), which runs the general path on the same numbers (the zero row and column change no pivot
// and add only exact zeros).
import { describe, expect, it } from 'vitest';
import { SingularJacobianError } from '../../src/errors.js';
import { SO3 } from '../../src/lie/so3.js';
import { type NewtonOptions, NewtonSolver } from '../../src/solvers/newton.js';
import { rng } from '../../src/testing/random.js';

type Fn = (out: Float64Array, x: Float64Array) => void;

/** F(x) = A x + c·sin(x) − b with a random, well-conditioned A (diagonally dominant). */
function randomSystem(n: number, seed: number): { F: Fn; J: Fn; x0: number[] } {
  const r = rng(seed);
  const A = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) A[i] = 2 * r() - 1;
  for (let i = 0; i < n; i++) A[i * n + i] = A[i * n + i]! + (r() < 0.5 ? -3 : 3);
  // a permutation of the rows, so that partial pivoting swaps rows
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    for (let c = 0; c < n; c++) {
      const t = A[i * n + c]!;
      A[i * n + c] = A[j * n + c]!;
      A[j * n + c] = t;
    }
  }
  const b = Array.from({ length: n }, () => 4 * r() - 2);
  const c = 0.5 * r();
  const F: Fn = (out, x) => {
    for (let i = 0; i < n; i++) {
      let s = c * Math.sin(x[i]!) - b[i]!;
      for (let j = 0; j < n; j++) s += A[i * n + j]! * x[j]!;
      out[i] = s;
    }
  };
  const J: Fn = (out, x) => {
    for (let i = 0; i < n * n; i++) out[i] = A[i]!;
    for (let i = 0; i < n; i++) out[i * n + i] = out[i * n + i]! + c * Math.cos(x[i]!);
  };
  return { F, J, x0: Array.from({ length: n }, () => 2 * r() - 1) };
}

/** The system (F, J) on Rⁿ with the decoupled equation x_n = 0 appended (n + 1 unknowns). */
function embed(n: number, F: Fn, J: Fn): { F: Fn; J: Fn } {
  const m = n + 1;
  const xs = new Float64Array(n);
  const fs = new Float64Array(n);
  const js = new Float64Array(n * n);
  return {
    F: (out, x) => {
      for (let i = 0; i < n; i++) xs[i] = x[i]!;
      F(fs, xs);
      for (let i = 0; i < n; i++) out[i] = fs[i]!;
      out[n] = x[n]!;
    },
    J: (out, x) => {
      for (let i = 0; i < n; i++) xs[i] = x[i]!;
      J(js, xs);
      out.fill(0);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * m + j] = js[i * n + j]!;
      out[n * m + n] = 1;
    },
  };
}

function relativeGap(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  let g = 0;
  for (let i = 0; i < n; i++)
    g = Math.max(g, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
  return g;
}

describe('NewtonSolver small paths (n = 1, 2, 3) against the general path', () => {
  for (const n of [1, 2, 3]) {
    it(`n = ${n}: 200 random well-conditioned systems, iterates within 1e-14 of DenseLU's`, () => {
      let worst = 0;
      let identical = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const { F, J, x0 } = randomSystem(n, 1000 * n + seed);
        const e = embed(n, F, J);
        const opts: NewtonOptions = { tol: 1e-13, stepTol: 0, maxIterations: 30 };
        const small = new NewtonSolver(n, opts).solve(F, J, x0);
        const general = new NewtonSolver(n + 1, opts).solve(e.F, e.J, [...x0, 0]);
        expect(small.converged).toBe(true);
        expect(general.converged).toBe(true);
        expect(small.iterations).toBe(general.iterations);
        worst = Math.max(worst, relativeGap(small.x, general.x, n));
        if (small.x.every((v, i) => v === general.x[i])) identical++;
      }
      expect(worst).toBeLessThanOrEqual(1e-14);
      // the unrolled LU repeats the general kernels' operations: in practice bit for bit
      expect(identical).toBe(200);
    });
  }

  it('with a line search and a retraction (n = 3 on SO(3)), as the general path', () => {
    // F(R) = vee(R − Rᵀ)/2 − s for a target sine vector s, in the chart R·Exp(δ)
    const s = Float64Array.of(0.3, -0.2, 0.4);
    const F: Fn = (out, R) => {
      out[0] = 0.5 * (R[7]! - R[5]!) - s[0]!;
      out[1] = 0.5 * (R[2]! - R[6]!) - s[1]!;
      out[2] = 0.5 * (R[3]! - R[1]!) - s[2]!;
    };
    const h = 1e-7;
    const Rp = new Float64Array(9);
    const fp = new Float64Array(3);
    const fm = new Float64Array(3);
    const d = new Float64Array(3);
    const J: Fn = (out, R) => {
      // central differences of F(R·Exp(δ)) (deterministic, the same numbers for both paths)
      for (let j = 0; j < 3; j++) {
        d.fill(0);
        d[j] = h;
        SO3.rplus(Rp, R, d);
        F(fp, Rp);
        d[j] = -h;
        SO3.rplus(Rp, R, d);
        F(fm, Rp);
        for (let i = 0; i < 3; i++) out[i * 3 + j] = (fp[i]! - fm[i]!) / (2 * h);
      }
    };
    const retract = (out: Float64Array, R: Float64Array, dx: Float64Array) => {
      SO3.rplus(Rp, R, dx);
      out.set(Rp);
    };
    const R0 = new Float64Array(9);
    SO3.exp(R0, Float64Array.of(1.2, 0.4, -0.9));
    const small = new NewtonSolver(3, { retract, storageSize: 9, lineSearch: true }).solve(
      F,
      J,
      R0,
    );
    // general: the unknown x_9 = 0 appended to the storage and the tangent
    const R = new Float64Array(9);
    const j3 = new Float64Array(9);
    const general = new NewtonSolver(4, {
      retract: (out, x, dx) => {
        for (let i = 0; i < 9; i++) R[i] = x[i]!;
        for (let i = 0; i < 3; i++) d[i] = dx[i]!;
        SO3.rplus(Rp, R, d);
        const last = x[9]! + dx[3]!;
        out.set(Rp);
        out[9] = last;
      },
      storageSize: 10,
      lineSearch: true,
    }).solve(
      (out, x) => {
        for (let i = 0; i < 9; i++) R[i] = x[i]!;
        F(fp, R);
        out[0] = fp[0]!;
        out[1] = fp[1]!;
        out[2] = fp[2]!;
        out[3] = x[9]!;
      },
      (out, x) => {
        for (let i = 0; i < 9; i++) R[i] = x[i]!;
        J(j3, R);
        out.fill(0);
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[i * 4 + j] = j3[i * 3 + j]!;
        out[15] = 1;
      },
      [...R0, 0],
    );
    expect(small.converged).toBe(true);
    expect(general.converged).toBe(true);
    expect(small.iterations).toBe(general.iterations);
    expect(relativeGap(small.x, general.x, 9)).toBeLessThanOrEqual(1e-14);
  });

  for (const n of [1, 2, 3]) {
    it(`n = ${n}: a singular Jacobian throws SingularJacobianError, as the general path`, () => {
      // rank-deficient J: the last row repeats the first (n ≥ 2), or J = 0 (n = 1)
      const F: Fn = (out, x) => {
        for (let i = 0; i < n; i++) out[i] = x[i]! - 1;
      };
      const J: Fn = (out) => {
        out.fill(0);
        if (n === 1) return;
        for (let i = 0; i < n - 1; i++) for (let j = 0; j < n; j++) out[i * n + j] = 1 + i + j * j;
        for (let j = 0; j < n; j++) out[(n - 1) * n + j] = 2 * out[j]!;
      };
      const e = embed(n, F, J);
      const x0 = new Array(n).fill(0);
      for (const check of ['estimate', 'pivot'] as const) {
        const small = new NewtonSolver(n, { conditionCheck: check });
        expect(() => small.solve(F, J, x0, 7)).toThrow(SingularJacobianError);
        expect(small.lastCondition).toBe(Number.POSITIVE_INFINITY);
        const general = new NewtonSolver(n + 1, { conditionCheck: check });
        expect(() => general.solve(e.F, e.J, [...x0, 0], 7)).toThrow(SingularJacobianError);
        try {
          small.solve(F, J, x0, 7);
        } catch (error) {
          expect(error).toBeInstanceOf(SingularJacobianError);
          expect((error as SingularJacobianError).step).toBe(7);
        }
      }
    });
  }

  it('n = 2, 3: κ₁ ≥ 1/ε (not exactly singular) throws under "estimate", not under "pivot"', () => {
    for (const n of [2, 3]) {
      // F = D(x − 1), J = D = diag(1, …, 1e-17): κ₁ = 1e17 > 1/ε ≈ 4.5e15
      const F: Fn = (out, x) => {
        for (let i = 0; i < n; i++) out[i] = (i === n - 1 ? 1e-17 : 1) * (x[i]! - 1);
      };
      const J: Fn = (out) => {
        out.fill(0);
        for (let i = 0; i < n; i++) out[i * n + i] = i === n - 1 ? 1e-17 : 1;
      };
      const x0 = new Array(n).fill(0);
      const est = new NewtonSolver(n);
      expect(() => est.solve(F, J, x0)).toThrow(SingularJacobianError);
      expect(est.lastCondition).toBeCloseTo(1e17, -2);
      const e = embed(n, F, J);
      expect(() => new NewtonSolver(n + 1).solve(e.F, e.J, [...x0, 0])).toThrow(
        SingularJacobianError,
      );
      const piv = new NewtonSolver(n, { conditionCheck: 'pivot', tol: 0 }).solve(F, J, x0);
      expect(piv.converged).toBe(true);
      expect(Array.from(piv.x)).toEqual(new Array(n).fill(1));
    }
  });

  it('n = 2, 3 under "estimate": lastCondition is the exact κ₁ = ‖J‖₁‖J⁻¹‖₁', () => {
    // J = [[2, 1], [1, 3]]: ‖J‖₁ = 4, J⁻¹ = [[3, −1], [−1, 2]]/5, ‖J⁻¹‖₁ = 4/5 → κ₁ = 3.2
    const s2 = new NewtonSolver(2);
    s2.solve(
      (out, x) => {
        out[0] = 2 * x[0]! + x[1]! - 1;
        out[1] = x[0]! + 3 * x[1]! - 1;
      },
      (out) => out.set([2, 1, 1, 3]),
      [0, 0],
    );
    expect(s2.lastCondition).toBeCloseTo(3.2, 14);
    // J = diag(1, 2, 4): κ₁ = 4
    const s3 = new NewtonSolver(3);
    s3.solve(
      (out, x) => {
        out[0] = x[0]! - 1;
        out[1] = 2 * x[1]! - 1;
        out[2] = 4 * x[2]! - 1;
      },
      (out) => out.set([1, 0, 0, 0, 2, 0, 0, 0, 4]),
      [0, 0, 0],
    );
    expect(s3.lastCondition).toBe(4);
  });

  it('the tol field sets the residual tolerance of the following solves', () => {
    const solver = new NewtonSolver(1, { tol: 1e-300, stepTol: 0, maxIterations: 3 });
    const F: Fn = (out, x) => {
      out[0] = x[0]! ** 3 - 2;
    };
    const J: Fn = (out, x) => {
      out[0] = 3 * x[0]! ** 2;
    };
    expect(solver.tol).toBe(1e-300);
    solver.tol = 0.5;
    const loose = solver.solve(F, J, [1]);
    expect(loose.iterations).toBe(1); // |F(4/3)| = 0.370 ≤ 0.5
    expect(solver.solve(F, J, [1], 0, 1e-300).converged).toBe(false); // the argument wins
    expect(solver.solve(F, J, [1]).iterations).toBe(1);
    solver.tol = -1;
    expect(() => solver.solve(F, J, [1])).toThrow(/tolOverride/);
  });
});
