import { describe, expect, it } from 'vitest';
import { DimensionError, NonFiniteError, SingularJacobianError } from '../src/errors.js';
import {
  BandNewtonLinearSolver,
  DenseNewtonLinearSolver,
  type NewtonLinearSolver,
  NewtonSolver,
} from '../src/solvers/newton.js';

/** A nonlinear chain: F_i = x_i³ + a x_{i−1} + b x_{i+1} + sin(x_i x_{i+1}) − c_i (tridiagonal J). */
function chain(n: number) {
  const c = Float64Array.from({ length: n }, (_, i) => 1 + 0.5 * Math.cos(i));
  const F = (out: Float64Array, x: Float64Array) => {
    for (let i = 0; i < n; i++) {
      const xl = i > 0 ? x[i - 1]! : 0;
      const xr = i < n - 1 ? x[i + 1]! : 0;
      out[i] = x[i]! ** 3 + 0.3 * xl - 0.2 * xr + Math.sin(x[i]! * xr) - c[i]!;
    }
  };
  /** J(i, j) through a setter (dense or band). */
  const fill = (set: (i: number, j: number, v: number) => void, x: Float64Array) => {
    for (let i = 0; i < n; i++) {
      const xr = i < n - 1 ? x[i + 1]! : 0;
      const cs = Math.cos(x[i]! * xr);
      set(i, i, 3 * x[i]! ** 2 + cs * xr);
      if (i > 0) set(i, i - 1, 0.3);
      if (i < n - 1) set(i, i + 1, -0.2 + cs * x[i]!);
    }
  };
  /** The dense row-major J. */
  const Jd = (out: Float64Array, x: Float64Array) => {
    out.fill(0);
    fill((i, j, v) => {
      out[i * n + j] = v;
    }, x);
  };
  return { F, fill, Jd };
}

describe('NewtonSolver linearSolver hook', () => {
  it('DenseNewtonLinearSolver gives the built-in DenseLU path bit for bit (n = 7)', () => {
    const n = 7;
    const { F, Jd } = chain(n);
    const x0 = new Float64Array(n).fill(0.4);
    const a = new NewtonSolver(n, { stallTol: 1e-13 });
    const ra = a.solve(F, Jd, x0);
    const xa = ra.x.slice();
    const b = new NewtonSolver(n, {
      stallTol: 1e-13,
      linearSolver: new DenseNewtonLinearSolver(n),
    });
    const rb = b.solve(F, Jd, x0);
    expect(ra.converged).toBe(true);
    expect(rb.iterations).toBe(ra.iterations);
    expect(Array.from(rb.x)).toEqual(Array.from(xa));
    expect(Array.from(b.history.subarray(0, rb.iterations + 1))).toEqual(
      Array.from(a.history.subarray(0, ra.iterations + 1)),
    );
    expect(b.lastCondition).toBe(a.lastCondition);
  });

  it('BandNewtonLinearSolver agrees with DenseLU on a tridiagonal system (n = 60) to 1e-15 and takes the same iterations', () => {
    const n = 60;
    const { F, fill, Jd } = chain(n);
    const band = new BandNewtonLinearSolver(n, 1, 1);
    const Jb = (_out: Float64Array, x: Float64Array) => {
      band.band.clear();
      fill((i, j, v) => {
        band.band.set(i, j, v);
      }, x);
    };
    const x0 = new Float64Array(n).fill(0.4);
    const dense = new NewtonSolver(n).solve(F, Jd, x0);
    const xd = dense.x.slice();
    const banded = new NewtonSolver(n, { linearSolver: band }).solve(F, Jb, x0);
    expect(dense.converged && banded.converged).toBe(true);
    expect(banded.iterations).toBe(dense.iterations);
    let err = 0;
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(banded.x[i]! - xd[i]!));
    expect(err).toBeLessThanOrEqual(1e-15);
    expect(banded.residualNorm).toBeLessThanOrEqual(1e-12);
  });

  it('a bordered (KKT) linear solver: min ½|x − a|² + ¼Σx⁴ on the sphere |x|² = 1 matches the dense Jacobian', () => {
    // unknowns (x ∈ R⁴, λ): x − a + x³ + 2λx = 0, |x|² − 1 = 0; the Jacobian [[I + 3x² + 2λ, 2x], [2xᵀ, 0]]
    // stored as its own arrow structure: diagonal d, border b, solved by the Schur complement
    const m = 4;
    const n = m + 1;
    const a = Float64Array.of(1, -0.5, 0.25, 2);
    const F = (out: Float64Array, y: Float64Array) => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        out[i] = y[i]! - a[i]! + y[i]! ** 3 + 2 * y[m]! * y[i]!;
        s += y[i]! * y[i]!;
      }
      out[m] = s - 1;
    };
    class Arrow implements NewtonLinearSolver {
      readonly n = n;
      /** [d (m), b (m)] */
      readonly matrix = new Float64Array(2 * m);
      readonly condition = Number.NaN;
      estimateCondition(): boolean {
        return false;
      }
      factor(): boolean {
        for (let i = 0; i < m; i++) if (this.matrix[i] === 0) return false;
        return true;
      }
      solve(x: Float64Array): void {
        const d = this.matrix;
        // [[D, b], [bᵀ, 0]] (u, μ) = (r, ρ): μ = (bᵀD⁻¹r − ρ)/(bᵀD⁻¹b), u = D⁻¹(r − bμ)
        let num = -x[m]!;
        let den = 0;
        for (let i = 0; i < m; i++) {
          num += (d[m + i]! * x[i]!) / d[i]!;
          den += (d[m + i]! * d[m + i]!) / d[i]!;
        }
        const mu = num / den;
        for (let i = 0; i < m; i++) x[i] = (x[i]! - d[m + i]! * mu) / d[i]!;
        x[m] = mu;
      }
    }
    const arrow = new Arrow();
    const Ja = (out: Float64Array, y: Float64Array) => {
      for (let i = 0; i < m; i++) {
        out[i] = 1 + 3 * y[i]! ** 2 + 2 * y[m]!;
        out[m + i] = 2 * y[i]!;
      }
    };
    const Jd = (out: Float64Array, y: Float64Array) => {
      out.fill(0);
      for (let i = 0; i < m; i++) {
        out[i * n + i] = 1 + 3 * y[i]! ** 2 + 2 * y[m]!;
        out[i * n + m] = 2 * y[i]!;
        out[m * n + i] = 2 * y[i]!;
      }
    };
    const y0 = Float64Array.of(0.5, -0.5, 0.5, 0.5, 0);
    const rd = new NewtonSolver(n).solve(F, Jd, y0);
    const yd = rd.x.slice();
    const ra = new NewtonSolver(n, { linearSolver: arrow }).solve(F, Ja, y0);
    expect(rd.converged && ra.converged).toBe(true);
    expect(ra.iterations).toBe(rd.iterations);
    for (let i = 0; i < n; i++) expect(Math.abs(ra.x[i]! - yd[i]!)).toBeLessThanOrEqual(1e-14);
    let s = 0;
    for (let i = 0; i < m; i++) s += ra.x[i]! ** 2;
    expect(Math.abs(s - 1)).toBeLessThanOrEqual(1e-12); // the default tol on ‖F‖∞
    // no κ estimate: lastCondition stays NaN
    expect(Number.isNaN(new NewtonSolver(n, { linearSolver: arrow }).lastCondition)).toBe(true);
  });

  it('throws typed errors: wrong size, singular factorization, non-finite Jacobian, large κ', () => {
    expect(() => new NewtonSolver(3, { linearSolver: new DenseNewtonLinearSolver(2) })).toThrow(
      DimensionError,
    );
    const F = (out: Float64Array, x: Float64Array) => {
      out[0] = x[0]! - 1;
      out[1] = x[1]! - 2;
    };
    const singular = new NewtonSolver(2, { linearSolver: new DenseNewtonLinearSolver(2) });
    expect(() => singular.solve(F, (out) => out.fill(0), [0, 0])).toThrow(SingularJacobianError);
    const nonFinite = new NewtonSolver(2, { linearSolver: new BandNewtonLinearSolver(2, 1, 1) });
    expect(() => nonFinite.solve(F, (out) => out.fill(Number.NaN), [0, 0])).toThrow(NonFiniteError);
    const band = new BandNewtonLinearSolver(2, 1, 1);
    const ill = new NewtonSolver(2, { linearSolver: band, maxCondition: 1e6 });
    expect(() =>
      ill.solve(F, () => {
        band.band
          .clear()
          .set(0, 0, 1)
          .set(0, 1, 1)
          .set(1, 0, 1)
          .set(1, 1, 1 + 1e-9);
      }, [0, 0]),
    ).toThrow(SingularJacobianError);
    // 'pivot' skips the estimate: the same ill-conditioned solve goes through
    const piv = new NewtonSolver(2, { linearSolver: band, conditionCheck: 'pivot' });
    const r = piv.solve(F, () => {
      band.band.clear().set(0, 0, 1).set(1, 1, 1);
    }, [0, 0]);
    expect(Array.from(r.x)).toEqual([1, 2]);
  });
});
