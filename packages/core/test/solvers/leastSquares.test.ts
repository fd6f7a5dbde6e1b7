import { describe, expect, it } from 'vitest';
import {
  type GenericVectorFunction,
  jacobianFromDual,
  residualFromGeneric,
  type ScalarOps,
} from '../../src/ad/dual.js';
import { jacobianFromFiniteDifferences } from '../../src/ad/finiteDifference.js';
import { DimensionError, NewtonDivergedError } from '../../src/errors.js';
import {
  GaussNewtonSolver,
  gaussNewton,
  LevenbergMarquardtSolver,
  levenbergMarquardt,
} from '../../src/solvers/leastSquares.js';
import { newton } from '../../src/solvers/newton.js';

type Fn = (out: Float64Array, x: Float64Array) => void;
const solvers = [
  ['Gauss–Newton', gaussNewton],
  ['Levenberg–Marquardt', levenbergMarquardt],
] as const;

// y(t) = a·exp(b·t) + c, sampled at t = 0, 0.5, …, 4.5
const T = Array.from({ length: 10 }, (_, i) => 0.5 * i);
const P_TRUE = [2, -0.7, 0.3];
const model = <S>(o: ScalarOps<S>, p: readonly S[], t: number): S =>
  o.add(o.mul(p[0]!, o.exp(o.scale(p[1]!, t))), p[2]!);

/** Residual rᵢ = model(tᵢ) − yᵢ as a generic function of the parameters. */
function residuals(y: readonly number[]): GenericVectorFunction {
  return (o, p) => T.map((t, i) => o.sub(model(o, p, t), o.const(y[i]!)));
}
const exactY = T.map((t) => P_TRUE[0]! * Math.exp(P_TRUE[1]! * t) + P_TRUE[2]!);
// deterministic "noise", not in the range of the model: the optimum has a nonzero residual
const noisyY = exactY.map((y, i) => y + 0.05 * Math.sin(7.3 * i + 1));

const expJ: Fn = (out, p) => {
  T.forEach((t, i) => {
    const e = Math.exp(p[1]! * t);
    out[3 * i] = e;
    out[3 * i + 1] = p[0]! * t * e;
    out[3 * i + 2] = 1;
  });
};

describe('curve fitting y = a·exp(b t) + c', () => {
  for (const [name, solve] of solvers) {
    it(`${name}: zero residual: parameters to 1e-12, ‖F‖₂ ≤ 1e-12`, () => {
      const F = residualFromGeneric(residuals(exactY));
      const r = solve(F, expJ, [1, 0, 0], 10);
      expect(r.converged).toBe(true);
      expect(r.reason).toBe('residual');
      expect(r.residualNorm).toBeLessThanOrEqual(1e-12);
      for (let j = 0; j < 3; j++) expect(Math.abs(r.x[j]! - P_TRUE[j]!)).toBeLessThanOrEqual(1e-12);
    });

    it(`${name}: nonzero residual: matches the optimum of the normal equations Jᵀ F = 0 to 1e-12`, () => {
      const Fg = residuals(noisyY);
      const r = solve(residualFromGeneric(Fg), expJ, [1, 0, 0], 10);
      expect(r.converged).toBe(true);
      expect(['gradient', 'step']).toContain(r.reason);
      // Reference: Newton on ∇φ(p) = J(p)ᵀF(p) = 0, with the exact Hessian from dual numbers.
      const gradPhi: GenericVectorFunction = (o, p) => {
        // ∂φ/∂pⱼ = Σᵢ Fᵢ ∂Fᵢ/∂pⱼ, written out for this model
        const f = Fg(o, p);
        const g = [o.const(0), o.const(0), o.const(0)];
        T.forEach((t, i) => {
          const e = o.exp(o.scale(p[1]!, t));
          g[0] = o.add(g[0]!, o.mul(f[i]!, e));
          g[1] = o.add(g[1]!, o.mul(f[i]!, o.scale(o.mul(p[0]!, e), t)));
          g[2] = o.add(g[2]!, f[i]!);
        });
        return g;
      };
      const ref = newton(residualFromGeneric(gradPhi), jacobianFromDual(gradPhi), [2, -0.7, 0.3], {
        tol: 1e-14,
      });
      expect(ref.converged).toBe(true);
      for (let j = 0; j < 3; j++) {
        expect(Math.abs(r.x[j]! - ref.x[j]!)).toBeLessThanOrEqual(
          1e-12 * Math.max(1, Math.abs(ref.x[j]!)),
        );
      }
      // the optimum's residual is the noise left after the fit: strictly positive
      expect(r.residualNorm).toBeGreaterThan(0.05);
      expect(r.residualNorm).toBeLessThan(0.15);
    });
  }

  it('Gauss–Newton converges quadratically on the zero-residual fit: measured order ≥ 1.8', () => {
    const F = residualFromGeneric(residuals(exactY));
    const errs: number[] = [];
    for (let k = 0; k <= 10; k++) {
      const r = gaussNewton(F, expJ, [1, 0, 0], 10, {
        maxIterations: k,
        tol: 0,
        stepTol: 0,
        gradientTol: 0,
      });
      errs.push(Math.max(...P_TRUE.map((p, j) => Math.abs(r.x[j]! - p))));
      if (r.iterations < k) break;
    }
    // three-point order estimates over errors in [1e-13, 0.1], and e_{k+1} ≤ 2e_k² there
    let checked = 0;
    for (let k = 1; k + 1 < errs.length; k++) {
      const [a, b, c] = [errs[k - 1]!, errs[k]!, errs[k + 1]!];
      if (c < 1e-13 || a > 0.1) continue;
      expect(Math.log(c / b) / Math.log(b / a)).toBeGreaterThanOrEqual(1.8);
      expect(c).toBeLessThanOrEqual(2 * b * b);
      expect(b).toBeLessThanOrEqual(2 * a * a);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(errs[errs.length - 1]!).toBeLessThanOrEqual(1e-15);
  });
});

describe('Rosenbrock as least squares: F = (10(y − x²), 1 − x)', () => {
  const F: Fn = (out, p) => {
    out[0] = 10 * (p[1]! - p[0]! ** 2);
    out[1] = 1 - p[0]!;
  };
  const J: Fn = (out, p) => out.set([-20 * p[0]!, 10, -1, 0]);
  for (const [name, solve] of solvers) {
    it(`${name} from (−1.2, 1) reaches (1, 1) to 1e-12`, () => {
      const r = solve(F, J, [-1.2, 1], 2);
      expect(r.converged).toBe(true);
      expect(Math.abs(r.x[0]! - 1)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(r.x[1]! - 1)).toBeLessThanOrEqual(1e-12);
    });
  }
});

describe('rank-deficient and underdetermined problems: minimum-norm solutions', () => {
  // A = u vᵀ, u = (1, 2), v = (1, 2, 3): rank 1, 2×3; A⁺ = v uᵀ / (‖u‖²‖v‖²)
  const v = [1, 2, 3];
  const linear =
    (b: number[]): Fn =>
    (out, x) => {
      const s = x[0]! + 2 * x[1]! + 3 * x[2]!;
      out[0] = s - b[0]!;
      out[1] = 2 * s - b[1]!;
    };
  const linearJ: Fn = (out) => out.set([1, 2, 3, 2, 4, 6]);

  it('Gauss–Newton, consistent A x = b: one step to the minimum-norm solution x = v/14', () => {
    const r = gaussNewton(linear([1, 2]), linearJ, [0, 0, 0], 2);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBe(1);
    // within 4ε relative (a couple of ulps)
    for (let j = 0; j < 3; j++) {
      expect(Math.abs(r.x[j]! - v[j]! / 14)).toBeLessThanOrEqual((4 * Number.EPSILON * v[j]!) / 14);
    }
    expect(r.residualNorm).toBeLessThanOrEqual(1e-15);
  });

  it('Gauss–Newton, inconsistent: the minimum-norm least-squares solution x = A⁺b = v/10, ‖F‖ = √0.2', () => {
    const r = gaussNewton(linear([1, 3]), linearJ, [0, 0, 0], 2);
    expect(r.converged).toBe(true);
    expect(r.reason).toBe('gradient');
    expect(r.iterations).toBe(1);
    for (let j = 0; j < 3; j++) {
      expect(Math.abs(r.x[j]! - v[j]! / 10)).toBeLessThanOrEqual((4 * Number.EPSILON * v[j]!) / 10);
    }
    expect(Math.abs(r.residualNorm - Math.sqrt(0.2))).toBeLessThanOrEqual(1e-15);
  });

  // nonlinear and rank 1: F(x) = (e^s − e, 2(e^s − e)), s = v·x; solution set s = 1 (a plane)
  const G: GenericVectorFunction = (o, x) => {
    const s = o.add(o.add(x[0]!, o.scale(x[1]!, 2)), o.scale(x[2]!, 3));
    const d = o.sub(o.exp(s), o.const(Math.E));
    return [d, o.scale(d, 2)];
  };
  for (const [name, solve] of solvers) {
    it(`${name}, nonlinear rank-1 from 0: steps stay in the row space, limit v/14 (minimum norm)`, () => {
      const r = solve(residualFromGeneric(G), jacobianFromDual(G, 2), [0, 0, 0], 2);
      expect(r.converged).toBe(true);
      for (let j = 0; j < 3; j++) expect(Math.abs(r.x[j]! - v[j]! / 14)).toBeLessThanOrEqual(1e-13);
    });
  }
});

describe('failures, options and reuse', () => {
  const F = residualFromGeneric(residuals(noisyY));

  it('maxIterations reached: converged false with the count, or NewtonDivergedError when asked', () => {
    for (const [, solve] of solvers) {
      const r = solve(F, expJ, [1, 0, 0], 10, { maxIterations: 2 });
      expect(r.converged).toBe(false);
      expect(r.reason).toBe('maxIterations');
      expect(r.iterations).toBe(2);
      expect(() =>
        solve(F, expJ, [1, 0, 0], 10, { maxIterations: 2, throwOnFailure: true }),
      ).toThrow(NewtonDivergedError);
    }
  });

  it('dimension checks', () => {
    expect(() => new GaussNewtonSolver(10, 3).solve(F, expJ, [1, 0])).toThrow(DimensionError);
    expect(() => new LevenbergMarquardtSolver(0, 2)).toThrow(DimensionError);
  });

  it('solver objects return the same result and x buffer on every call', () => {
    for (const solver of [new GaussNewtonSolver(10, 3), new LevenbergMarquardtSolver(10, 3)]) {
      const r1 = solver.solve(F, expJ, [1, 0, 0]);
      const x1 = r1.x;
      const first = Array.from(x1);
      const r2 = solver.solve(F, expJ, [1.5, -0.5, 0.1]);
      expect(r2).toBe(r1);
      expect(r2.x).toBe(x1);
      expect(r2.converged).toBe(true);
      for (let j = 0; j < 3; j++) expect(Math.abs(r2.x[j]! - first[j]!)).toBeLessThanOrEqual(1e-12);
    }
  });

  it('dual Jacobians give the analytic fit to 1e-13; finite differences to 1e-10', () => {
    const exact = levenbergMarquardt(F, expJ, [1, 0, 0], 10);
    const viaDual = levenbergMarquardt(F, jacobianFromDual(residuals(noisyY), 10), [1, 0, 0], 10);
    expect(viaDual.converged).toBe(true);
    for (let j = 0; j < 3; j++)
      expect(Math.abs(viaDual.x[j]! - exact.x[j]!)).toBeLessThanOrEqual(1e-13);
    // A difference Jacobian is accurate to ~1e-10, so JᵀF cannot be driven below that: the
    // gradient tolerance must match the Jacobian's accuracy.
    const Jfd = jacobianFromFiniteDifferences(F, 10, 3);
    for (const [, solve] of solvers) {
      const viaFd = solve(F, Jfd, [1, 0, 0], 10, { gradientTol: 1e-9 });
      expect(viaFd.converged).toBe(true);
      for (let j = 0; j < 3; j++)
        expect(Math.abs(viaFd.x[j]! - exact.x[j]!)).toBeLessThanOrEqual(1e-10);
    }
  });
});
