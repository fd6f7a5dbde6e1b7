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
import { SO3 } from '../../src/lie/so3.js';
import { borderedRetraction, NewtonSolver, newton } from '../../src/solvers/newton.js';

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
    expect(r.iterations).toBeGreaterThanOrEqual(3);
    expect(r.iterations).toBeLessThanOrEqual(7);
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

describe('Newton: the round-off floor (stallTol)', () => {
  // F(x) = x − 1 + 1e-13·sin(1e15·x): a root to 1e-13, then a deterministic noise floor of
  // amplitude 1e-13 that no Newton step (J = 1) can reduce; steps ≈ 1e-13 ≫ 4ε, so the step
  // criterion does not stop it either.
  const noisy: Fn = (out, x) => {
    out[0] = x[0]! - 1 + 1e-13 * Math.sin(1e15 * x[0]!);
  };
  const one: Fn = (out) => {
    out[0] = 1;
  };

  it('without it the noise runs Newton to maxIterations; with it Newton stops at the floor', () => {
    const off = newton(noisy, one, [3], { tol: 1e-16, maxIterations: 30 });
    expect([off.converged, off.reason, off.iterations]).toEqual([false, 'maxIterations', 30]);
    const on = newton(noisy, one, [3], { tol: 1e-16, maxIterations: 30, stallTol: 1e-12 });
    expect([on.converged, on.reason]).toEqual([true, 'stall']);
    expect(on.iterations).toBeLessThanOrEqual(6);
    expect(on.residualNorm).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(on.x[0]! - 1)).toBeLessThanOrEqual(2e-13);
  });

  it('changes nothing on a clean quadratic solve (same x, iterations and reason)', () => {
    const a = newton(circleParabola, circleParabolaJ, [1, 1], { tol: 1e-15 });
    const b = newton(circleParabola, circleParabolaJ, [1, 1], { tol: 1e-15, stallTol: 1e-10 });
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect([b.iterations, b.reason]).toEqual([a.iterations, a.reason]);
    expect(() => newton(noisy, one, [3], { stallTol: -1 })).toThrow(DomainError);
    expect(() => newton(noisy, one, [3], { stallTol: Number.NaN })).toThrow(DomainError);
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

describe('manifold Newton (retraction hook) and bordered unknowns', () => {
  // F(R) = Log(Rtᵀ R) + c·(R − Rt)e1 on SO(3), root R = Rt; in the chart R·Exp(δ) its Jacobian is
  // J_r⁻¹(Log(Rtᵀ R)) − c·R·ê1 (R·Exp(δ)e1 ≈ R(e1 + δ × e1)). The coupling term makes Newton
  // converge quadratically instead of in one step (J_r(τ)τ = τ makes the pure Log exact).
  const c = 0.3;
  const Rt = SO3.exp(new Float64Array(9), Float64Array.of(0.3, -1.1, 0.7));
  const tau = new Float64Array(3);
  const jr = new Float64Array(9);
  const F: Fn = (out, R) => {
    SO3.rminus(out, R, Rt);
    for (let i = 0; i < 3; i++) out[i] = out[i]! + c * (R[i * 3]! - Rt[i * 3]!);
  };
  const J: Fn = (out, R) => {
    SO3.rminus(tau, R, Rt);
    SO3.rjacInv(out, tau);
    // −c·R·ê1, ê1 = [[0,0,0],[0,0,−1],[0,1,0]]: columns (0, R[:,2], −R[:,1])
    for (let i = 0; i < 3; i++) {
      out[i * 3 + 1] = out[i * 3 + 1]! - c * R[i * 3 + 2]!;
      out[i * 3 + 2] = out[i * 3 + 2]! + c * R[i * 3 + 1]!;
    }
  };
  const retract = (out: Float64Array, R: Float64Array, d: Float64Array): void => {
    SO3.rplus(out, R, d);
  };

  it('converges quadratically on SO(3) and keeps the iterate a rotation', () => {
    const solver = new NewtonSolver(3, { retract, storageSize: 9 });
    const R0 = SO3.exp(new Float64Array(9), Float64Array.of(-0.5, 0.4, 2.0));
    const r = solver.solve(F, J, R0);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeGreaterThanOrEqual(3);
    expect(r.iterations).toBeLessThanOrEqual(7);
    for (let i = 0; i < 9; i++) expect(Math.abs(r.x[i]! - Rt[i]!)).toBeLessThan(1e-14);
    // quadratic: each residual at most C·(previous)² once in the basin
    const h = solver.history;
    for (let k = 2; k <= r.iterations; k++) expect(h[k]!).toBeLessThan(2 * h[k - 1]! ** 2 + 1e-15);
  });

  it('refuses a storage size without a retraction and checks x0 against it', () => {
    expect(() => new NewtonSolver(3, { storageSize: 9 })).toThrow(DomainError);
    expect(() => new NewtonSolver(3, { storageSize: 2, retract })).toThrow();
    const solver = new NewtonSolver(3, { retract, storageSize: 9 });
    expect(() => solver.solve(F, J, [0, 0, 0])).toThrow(/x0: expected 9, got 3/);
  });

  it('bordered unknowns: a rotation moved by retraction and a multiplier moved additively', () => {
    // Log(Rtᵀ R) − λ e3 = 0, λ − 0.5 = 0  ⇒  R = Rt·Exp(0.5 e3), λ = 0.5
    const Fb: Fn = (out, x) => {
      SO3.rminus(tau, x.subarray(0, 9), Rt);
      out[0] = tau[0]!;
      out[1] = tau[1]!;
      out[2] = tau[2]! - x[9]!;
      out[3] = x[9]! - 0.5;
    };
    const Jb: Fn = (out, x) => {
      SO3.rminus(tau, x.subarray(0, 9), Rt);
      SO3.rjacInv(jr, tau);
      out.fill(0);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[i * 4 + j] = jr[i * 3 + j]!;
      out[2 * 4 + 3] = -1;
      out[3 * 4 + 3] = 1;
    };
    const solver = new NewtonSolver(4, {
      retract: borderedRetraction(3, 9, 1, (o, R, d) => SO3.rplus(o, R, d)),
      storageSize: 10,
    });
    const x0 = new Float64Array(10);
    SO3.identity(x0.subarray(0, 9));
    const r = solver.solve(Fb, Jb, x0);
    expect(r.converged).toBe(true);
    const expected = SO3.rplus(new Float64Array(9), Rt, Float64Array.of(0, 0, 0.5));
    for (let i = 0; i < 9; i++) expect(Math.abs(r.x[i]! - expected[i]!)).toBeLessThan(1e-14);
    expect(r.x[9]).toBeCloseTo(0.5, 15);
  });

  it('names the solve and carries the residual history in NewtonDivergedError', () => {
    const solver = new NewtonSolver(3, {
      retract,
      storageSize: 9,
      maxIterations: 1,
      throwOnFailure: true,
      what: 'forward step',
    });
    const R0 = SO3.exp(new Float64Array(9), Float64Array.of(-0.5, 0.4, 2.0));
    try {
      solver.solve(F, J, R0, 12);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(NewtonDivergedError);
      const d = e as NewtonDivergedError;
      expect(d.what).toBe('forward step');
      expect(d.step).toBe(12);
      expect(d.history?.length).toBe(2);
      expect(d.message).toMatch(/^forward step: Newton did not converge after 1 iterations/);
    }
  });

  it("onSingular builds the caller's error; conditionCheck 'pivot' skips the estimate", () => {
    const Fs: Fn = (out, x) => {
      out[0] = x[0]! + x[1]! - 1;
      out[1] = 2 * x[0]! + 2 * x[1]! - 3;
    };
    const Js: Fn = (out) => out.set([1, 1, 2, 2]);
    const custom = new NewtonSolver(2, {
      onSingular: (jac, n, it) => new DomainError('custom', `${jac.length}/${n}/${it}`, 'singular'),
    });
    expect(() => custom.solve(Fs, Js, [0, 0])).toThrow(/custom: singular \(got 4\/2\/0\)/);
    // nearly singular (κ ≈ 4e16): 'estimate' stops, 'pivot' takes the (huge) step
    const Jn: Fn = (out) => out.set([1, 1, 1, 1 + 1e-16 * 4]);
    const Fn2: Fn = (out, x) => {
      out[0] = x[0]! + x[1]! - 1;
      out[1] = x[0]! + (1 + 4e-16) * x[1]! - 1;
    };
    expect(() => new NewtonSolver(2).solve(Fn2, Jn, [0.5, 0.6])).toThrow(SingularJacobianError);
    expect(() =>
      new NewtonSolver(2, { conditionCheck: 'pivot' }).solve(Fn2, Jn, [0.5, 0.6]),
    ).not.toThrow(SingularJacobianError);
  });

  it('maxCondition bounds the estimate (κ₁ = 1e6 stops at 1e5, not at the default); lastCondition keeps it', () => {
    // J = diag(1, 1e-6): κ₁ = 1e6 exactly (Hager–Higham is exact for diagonal matrices)
    const F: Fn = (out, x) => {
      out[0] = x[0]! - 1;
      out[1] = 1e-6 * (x[1]! - 2);
    };
    const J: Fn = (out) => out.set([1, 0, 0, 1e-6]);
    const plain = new NewtonSolver(2);
    expect(plain.lastCondition).toBeNaN();
    expect(plain.solve(F, J, [0, 0]).converged).toBe(true);
    expect(plain.lastCondition).toBeCloseTo(1e6, 3);
    const strict = new NewtonSolver(2, { maxCondition: 1e5 });
    try {
      strict.solve(F, J, [0, 0]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SingularJacobianError);
      expect((e as SingularJacobianError).conditionEstimate).toBeCloseTo(1e6, 3);
    }
    expect(strict.lastCondition).toBeCloseTo(1e6, 3);
    // at the root no Jacobian is factored: NaN; 'pivot' never estimates: NaN
    plain.solve(F, J, [1, 2]);
    expect(plain.lastCondition).toBeNaN();
    const pivot = new NewtonSolver(2, { conditionCheck: 'pivot' });
    pivot.solve(F, J, [0, 0]);
    expect(pivot.lastCondition).toBeNaN();
    expect(() => new NewtonSolver(2, { maxCondition: 1 })).toThrow(DomainError);
  });

  it('a non-finite Jacobian entry is reported by the solve that met it (index of the entry)', () => {
    const F: Fn = (out, x) => {
      out[0] = x[0]! - 1;
      out[1] = x[1]! - 1;
    };
    const J: Fn = (out) => out.set([1, 0, Number.NaN, 1]);
    try {
      new NewtonSolver(2, { what: 'test step' }).solve(F, J, [0, 0]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(NonFiniteError);
      expect((e as NonFiniteError).what).toBe('test step: J(x)');
      expect((e as NonFiniteError).index).toBe(2);
    }
  });
});

describe("NewtonSolver n ≥ 4 under conditionCheck 'pivot' (core's LU kernels, no DenseLU)", () => {
  // F_i(x) = x_i³/3 + x_i + Σ_j A_ij x_j − b_i with a fixed well-conditioned A (n = 6)
  const n = 6;
  const A = Float64Array.from({ length: n * n }, (_, k) =>
    Math.floor(k / n) === k % n ? 4 : 0.3 * Math.sin(1 + k),
  );
  const b = Float64Array.from({ length: n }, (_, i) => 1 + 0.5 * i);
  const F: Fn = (out, x) => {
    for (let i = 0; i < n; i++) {
      let s = x[i]! ** 3 / 3 + x[i]! - b[i]!;
      for (let j = 0; j < n; j++) s += A[i * n + j]! * x[j]!;
      out[i] = s;
    }
  };
  const J: Fn = (out, x) => {
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) out[i * n + j] = A[i * n + j]! + (i === j ? x[i]! ** 2 + 1 : 0);
  };

  it("takes the same steps as 'estimate' (DenseLU), bit for bit, with the same history", () => {
    const x0 = new Array(n).fill(0);
    const est = new NewtonSolver(n, { tol: 1e-14 });
    const piv = new NewtonSolver(n, { tol: 1e-14, conditionCheck: 'pivot' });
    const re = est.solve(F, J, x0);
    const xe = Array.from(re.x);
    const rp = piv.solve(F, J, x0);
    expect(rp.converged).toBe(true);
    expect(rp.iterations).toBe(re.iterations);
    expect(rp.iterations).toBeGreaterThanOrEqual(3);
    expect(Array.from(rp.x)).toEqual(xe);
    expect(Array.from(piv.history.subarray(0, rp.iterations + 1))).toEqual(
      Array.from(est.history.subarray(0, re.iterations + 1)),
    );
    expect(piv.lastCondition).toBeNaN();
  });

  it('reports a non-finite Jacobian entry as NonFiniteError (its index) and a zero pivot as singular, with J intact for onSingular', () => {
    const Jnan: Fn = (out, x) => {
      J(out, x);
      out[2 * n + 3] = Number.POSITIVE_INFINITY;
    };
    try {
      new NewtonSolver(n, { conditionCheck: 'pivot', what: 'test step' }).solve(
        F,
        Jnan,
        [0, 0, 0, 0, 0, 0],
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(NonFiniteError);
      expect((e as NonFiniteError).message).toMatch(/test step.*J\(x\)/);
      expect((e as NonFiniteError).index).toBe(2 * n + 3);
    }
    // rows 0 and 1 equal: exactly singular; onSingular receives the Jacobian, not its LU factors
    const Jsing: Fn = (out, x) => {
      J(out, x);
      for (let j = 0; j < n; j++) out[n + j] = out[j]!;
    };
    let seen: Float64Array | undefined;
    const solver = new NewtonSolver(n, {
      conditionCheck: 'pivot',
      onSingular: (jac, _n, it) => {
        seen = jac;
        return new DomainError('custom', it, 'singular');
      },
    });
    expect(() => solver.solve(F, Jsing, new Array(n).fill(0))).toThrow(/custom: singular/);
    const expected = new Float64Array(n * n);
    Jsing(expected, new Float64Array(n));
    expect(Array.from(seen!)).toEqual(Array.from(expected));
    expect(solver.lastCondition).toBe(Number.POSITIVE_INFINITY);
  });
});
