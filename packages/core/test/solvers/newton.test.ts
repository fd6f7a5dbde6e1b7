import { describe, expect, it } from 'vitest';
import {
  type GenericVectorFunction,
  jacobianFromDual,
  residualFromGeneric,
} from '../../src/ad/dual.js';
import { jacobianFromFiniteDifferences } from '../../src/ad/finiteDifference.js';
import { SINGULAR_JACOBIAN_CONDITION } from '../../src/constants.js';
import {
  DomainError,
  NewtonDivergedError,
  NonFiniteError,
  SingularJacobianError,
} from '../../src/errors.js';
import { NewtonSolver, newton } from '../../src/solvers/newton.js';

type Fn = (out: Float64Array, x: Float64Array) => void;

// circle x² + y² = 4 ∩ parabola y = x² − 1: x² = u = (1 + √13)/2, y = u − 1
const circleParabola: Fn = (out, x) => {
  out[0] = x[0]! ** 2 + x[1]! ** 2 - 4;
  out[1] = x[1]! - x[0]! ** 2 + 1;
};
const circleParabolaJ: Fn = (out, x) => {
  out[0] = 2 * x[0]!;
  out[1] = 2 * x[1]!;
  out[2] = -2 * x[0]!;
  out[3] = 1;
};
const U = (1 + Math.sqrt(13)) / 2;
const circleParabolaRoot = [Math.sqrt(U), U - 1];

// ∇ of Rosenbrock f = (1 − x)² + 100(y − x²)², root (1, 1)
const rosenGrad: Fn = (out, p) => {
  const x = p[0]!;
  const y = p[1]!;
  out[0] = -2 * (1 - x) - 400 * x * (y - x * x);
  out[1] = 200 * (y - x * x);
};
const rosenHess: Fn = (out, p) => {
  const x = p[0]!;
  const y = p[1]!;
  out[0] = 2 - 400 * (y - 3 * x * x);
  out[1] = -400 * x;
  out[2] = -400 * x;
  out[3] = 200;
};

/** ‖x_k − x*‖∞ for k = 0, 1, … (each iterate obtained by stopping after k steps). */
function errorSequence(F: Fn, J: Fn, x0: number[], root: number[], kmax: number): number[] {
  const errs: number[] = [];
  for (let k = 0; k <= kmax; k++) {
    const s = new NewtonSolver(x0.length, { maxIterations: k, tol: 0, stepTol: 0 });
    const { x, iterations } = s.solve(F, J, x0);
    errs.push(Math.max(...root.map((r, i) => Math.abs(x[i]! - r))));
    if (iterations < k) break; // F(x) = 0 exactly: nothing left to measure
  }
  return errs;
}

/**
 * Measured orders p_k = log(e_{k+1}/e_k) / log(e_k/e_{k−1}) over the triples whose errors are
 * all in [1e-13, 0.1] (above the roundoff floor, inside the asymptotic regime).
 */
function measuredOrders(errs: number[]): number[] {
  const p: number[] = [];
  for (let k = 1; k + 1 < errs.length; k++) {
    const [a, b, c] = [errs[k - 1]!, errs[k]!, errs[k + 1]!];
    if (c < 1e-13 || a > 0.1) continue;
    p.push(Math.log(c / b) / Math.log(b / a));
  }
  return p;
}

describe('Newton: quadratic convergence, measured', () => {
  it('circle ∩ parabola from (1, 1): order ≥ 1.8, e_{k+1}/e_k² ≤ 1', () => {
    const errs = errorSequence(circleParabola, circleParabolaJ, [1, 1], circleParabolaRoot, 6);
    const orders = measuredOrders(errs);
    expect(orders.length).toBeGreaterThanOrEqual(1);
    for (const p of orders) expect(p).toBeGreaterThanOrEqual(1.8);
    // C = ½‖J⁻¹‖‖F″‖ ≈ 0.4 here; the ratio stays bounded by 1 along the whole sequence
    for (let k = 0; k + 1 < errs.length && errs[k + 1]! > 1e-15; k++) {
      expect(errs[k + 1]! / errs[k]! ** 2).toBeLessThanOrEqual(1);
    }
    expect(errs[6]!).toBeLessThanOrEqual(4e-16 * 2);
  });

  it('Rosenbrock gradient: order ≥ 1.8 from (1.2, 1.2); from (−1.2, 1) e_{k+1} ≤ e_k² once e_k < 0.5', () => {
    const near = errorSequence(rosenGrad, rosenHess, [1.2, 1.2], [1, 1], 8);
    const orders = measuredOrders(near);
    expect(orders.length).toBeGreaterThanOrEqual(1);
    for (const p of orders) expect(p).toBeGreaterThanOrEqual(1.8);
    // the classic start goes through a long global phase (the iterates first slide along the
    // valley y = x², the two coordinates converging at different times), so three-point order
    // estimates are not yet asymptotic there; the quadratic bound holds all the same
    const far = errorSequence(rosenGrad, rosenHess, [-1.2, 1], [1, 1], 8);
    let checked = 0;
    for (let k = 0; k + 1 < far.length; k++) {
      if (far[k]! >= 0.5 || far[k + 1]! === 0) continue;
      expect(far[k + 1]!).toBeLessThanOrEqual(far[k]! ** 2);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    const r = newton(rosenGrad, rosenHess, [-1.2, 1]);
    expect(r.converged).toBe(true);
    expect(r.reason).toBe('residual');
    expect(r.residualNorm).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(r.x[0]! - 1)).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(r.x[1]! - 1)).toBeLessThanOrEqual(1e-14);
  });

  it('default tolerances: circle ∩ parabola converges with ‖F‖∞ ≤ 1e-12 in ≤ 6 iterations', () => {
    const r = newton(circleParabola, circleParabolaJ, [1, 1]);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeLessThanOrEqual(6);
    expect(r.residualNorm).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(r.x[0]! - circleParabolaRoot[0]!)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.x[1]! - circleParabolaRoot[1]!)).toBeLessThanOrEqual(1e-15);
  });

  it('x0 at the root: 0 iterations', () => {
    const r = newton(
      (out, x) => {
        out[0] = x[0]! - 3;
      },
      (out) => {
        out[0] = 1;
      },
      [3],
    );
    expect([r.converged, r.iterations, r.residualNorm, r.reason]).toEqual([true, 0, 0, 'residual']);
  });
});

describe('Newton: line search', () => {
  const atan: Fn = (out, x) => {
    out[0] = Math.atan(x[0]!);
  };
  const datan: Fn = (out, x) => {
    out[0] = 1 / (1 + x[0]! ** 2);
  };

  it('atan(x) = 0 from x0 = 3 diverges without the line search (|x_6| > 1e15)', () => {
    const r = newton(atan, datan, [3], { maxIterations: 6 });
    expect(r.converged).toBe(false);
    expect(r.reason).toBe('maxIterations');
    expect(r.iterations).toBe(6);
    expect(Math.abs(r.x[0]!)).toBeGreaterThan(1e15);
    expect(r.residualNorm).toBeGreaterThan(1.5); // |atan| → π/2
    // left to run, it leaves the floating-point range: a typed error, never a silent NaN
    expect(() => newton(atan, datan, [3])).toThrow(SingularJacobianError);
  });

  it('with the line search it converges to 0 with |x| ≤ 1e-12', () => {
    for (const x0 of [2, 3, -10, 1e3]) {
      const r = newton(atan, datan, [x0], { lineSearch: true });
      expect(r.converged).toBe(true);
      expect(Math.abs(r.x[0]!)).toBeLessThanOrEqual(1e-12);
      expect(r.iterations).toBeLessThanOrEqual(50);
    }
  });

  it('the line search backtracks from non-finite trial points', () => {
    // F(x) = log(x) − 1 from x0 = 10: the full step goes to x < 0 (NaN), halving recovers
    const F: Fn = (out, x) => {
      out[0] = Math.log(x[0]!) - 1;
    };
    const J: Fn = (out, x) => {
      out[0] = 1 / x[0]!;
    };
    const r = newton(F, J, [50], { lineSearch: true });
    expect(r.converged).toBe(true);
    expect(Math.abs(r.x[0]! - Math.E)).toBeLessThanOrEqual(4e-15 * Math.E);
    expect(() => newton(F, J, [50])).toThrow(NewtonDivergedError);
    try {
      newton(F, J, [50]);
    } catch (e) {
      expect(e).toBeInstanceOf(NewtonDivergedError);
      expect((e as NewtonDivergedError).reason).toBe('produced a non-finite residual');
      expect((e as NewtonDivergedError).iterations).toBe(1);
    }
  });
});

describe('Newton: failures are typed', () => {
  it('an exactly singular Jacobian throws SingularJacobianError at iteration 0, κ = ∞', () => {
    const F: Fn = (out, x) => {
      out[0] = x[0]! + x[1]! - 2;
      out[1] = 2 * x[0]! + 2 * x[1]! - 3;
    };
    const J: Fn = (out) => out.set([1, 1, 2, 2]);
    const solver = new NewtonSolver(2);
    try {
      solver.solve(F, J, [0, 0], 17);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SingularJacobianError);
      const s = e as SingularJacobianError;
      expect([s.iteration, s.conditionEstimate, s.step]).toEqual([0, Number.POSITIVE_INFINITY, 17]);
    }
  });

  it('κ₁ ≥ 1/ε is singular: J = [[1, 1], [1, 1 + 2⁻⁵²]] has a finite estimate ≈ 4/ε', () => {
    const d = 2 ** -52;
    const F: Fn = (out, x) => {
      out[0] = x[0]! + x[1]! - 1;
      out[1] = x[0]! + (1 + d) * x[1]! - 2;
    };
    const J: Fn = (out) => out.set([1, 1, 1, 1 + d]);
    try {
      newton(F, J, [0, 0]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SingularJacobianError);
      const c = (e as SingularJacobianError).conditionEstimate;
      expect(Number.isFinite(c)).toBe(true);
      expect(c).toBeGreaterThanOrEqual(SINGULAR_JACOBIAN_CONDITION);
      // exact κ₁ = ‖A‖₁‖A⁻¹‖₁ = (2 + d)(2 + d)/d ≈ 4/ε; Hager's estimate is a lower bound within 3×
      expect(c).toBeLessThanOrEqual((2 + d) ** 2 / d);
      expect(c).toBeGreaterThanOrEqual((2 + d) ** 2 / d / 3);
    }
  });

  it('the Jacobian singular at a later iterate names that iteration', () => {
    const G: Fn = (out, x) => {
      out[0] = x[0]! ** 3 - 3 * x[0]! + 3; // G′ = 3x² − 3 vanishes at ±1
    };
    const dG: Fn = (out, x) => {
      out[0] = 3 * x[0]! ** 2 - 3;
    };
    // x0 = 0: G = 3, G′ = −3 → x1 = 1, where G′ = 0
    try {
      newton(G, dG, [0]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SingularJacobianError);
      expect((e as SingularJacobianError).iteration).toBe(1);
    }
  });

  it('no root: converged false with the iteration count, or NewtonDivergedError when asked', () => {
    const F: Fn = (out, x) => {
      out[0] = x[0]! ** 2 + 1;
    };
    const J: Fn = (out, x) => {
      out[0] = 2 * x[0]!;
    };
    const r = newton(F, J, [0.3], { maxIterations: 20 });
    expect(r.converged).toBe(false);
    expect(r.iterations).toBe(20);
    expect(r.reason).toBe('maxIterations');
    expect(r.residualNorm).toBeGreaterThanOrEqual(1);
    try {
      newton(F, J, [0.3], { maxIterations: 20, throwOnFailure: true });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(NewtonDivergedError);
      const d = e as NewtonDivergedError;
      expect(d.iterations).toBe(20);
      expect(d.residualNorm).toBe(r.residualNorm);
      expect(d.reason).toBe('did not converge');
    }
  });

  it('a failed line search reports reason lineSearch', () => {
    // F = x² + 1 with a line search: φ has its minimum at x = 0 with F ≠ 0; the Newton direction
    // at x ≠ 0 is a descent direction until x is tiny, after which no λ ≥ 2⁻²⁰ decreases φ enough.
    const F: Fn = (out, x) => {
      out[0] = x[0]! ** 2 + 1;
    };
    const J: Fn = (out, x) => {
      out[0] = 2 * x[0]!;
    };
    const r = newton(F, J, [0.3], { lineSearch: true, maxIterations: 200 });
    expect(r.converged).toBe(false);
    expect(r.reason).toBe('lineSearch');
    expect(r.residualNorm).toBeGreaterThanOrEqual(1);
  });

  it('non-finite F(x0) or J(x) throw NonFiniteError; bad options throw DomainError', () => {
    const F: Fn = (out, x) => {
      out[0] = Math.sqrt(x[0]!) - 1;
    };
    const J: Fn = (out, x) => {
      out[0] = 0.5 / Math.sqrt(x[0]!);
    };
    expect(() => newton(F, J, [-1])).toThrow(NonFiniteError);
    expect(() =>
      newton(
        (out) => {
          out[0] = 1;
        },
        (out) => {
          out[0] = Number.NaN;
        },
        [1],
      ),
    ).toThrow(NonFiniteError);
    expect(() => new NewtonSolver(1, { tol: -1 })).toThrow(DomainError);
    expect(() => new NewtonSolver(1, { maxIterations: 1.5 })).toThrow(DomainError);
  });
});

describe('NewtonSolver reuse and Jacobian sources', () => {
  it('returns the same result object and x buffer on every call; x0 is not modified', () => {
    const solver = new NewtonSolver(2);
    const x0 = Float64Array.of(1, 1);
    const r1 = solver.solve(circleParabola, circleParabolaJ, x0);
    const x1 = r1.x;
    const first = Array.from(r1.x);
    const r2 = solver.solve(circleParabola, circleParabolaJ, Float64Array.of(-1, 1));
    expect(r2).toBe(r1);
    expect(r2.x).toBe(x1);
    expect(Array.from(x0)).toEqual([1, 1]);
    expect(r2.converged).toBe(true);
    expect(Math.abs(r2.x[0]! + circleParabolaRoot[0]!)).toBeLessThanOrEqual(1e-15);
    expect(first[0]).toBeCloseTo(circleParabolaRoot[0]!, 15);
    // warm start from the previous solution (x0 aliases the solver's own buffer)
    const r3 = solver.solve(circleParabola, circleParabolaJ, r2.x);
    expect(r3.iterations).toBe(0);
  });

  it('the function form returns an independent result', () => {
    const a = newton(circleParabola, circleParabolaJ, [1, 1]);
    const b = newton(circleParabola, circleParabolaJ, [1, 1]);
    expect(a).not.toBe(b);
    expect(a.x).not.toBe(b.x);
    expect(Array.from(a.x)).toEqual(Array.from(b.x));
  });

  it('dual-number and finite-difference Jacobians reach the same root', () => {
    const G: GenericVectorFunction = (o, [x, y]) => [
      o.sub(o.add(o.mul(x!, x!), o.mul(y!, y!)), o.const(4)),
      o.add(o.sub(y!, o.mul(x!, x!)), o.const(1)),
    ];
    const F = residualFromGeneric(G);
    const viaDual = newton(F, jacobianFromDual(G), [1, 1]);
    const viaFd = newton(F, jacobianFromFiniteDifferences(circleParabola, 2, 2), [1, 1]);
    for (const r of [viaDual, viaFd]) {
      expect(r.converged).toBe(true);
      expect(Math.abs(r.x[0]! - circleParabolaRoot[0]!)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(r.x[1]! - circleParabolaRoot[1]!)).toBeLessThanOrEqual(1e-15);
    }
    // the dual Jacobian is exact: the same iterates as the hand-written one
    const hand = newton(circleParabola, circleParabolaJ, [1, 1]);
    expect(viaDual.iterations).toBe(hand.iterations);
  });
});
