/**
 * The Dirac step (7) for a configuration-dependent mass matrix (internal; `DiracWorkspace` holds
 * one for a system with `massMatrix`). Spec 001 §5.1 defines the discrete Lagrangian as
 * L_d(q_k, q_k⁺) = h L(q_k, q̃_k) (left rectangle, q̃ the velocity reconstruction) and (7) as
 * line 3 `p_k + ∂L_d/∂q_k = Cᵀλ`, line 2 `p_{k+1} = ∂L_d/∂q_k⁺`; §5.5 ("general L with Dirac-1")
 * writes the resulting step as `∂L/∂v(q_k, q̃) − h ∂L/∂q(q_k, q̃) = p_k − C(q_k)ᵀλ`. For
 * L = ½ vᵀM(q)v − V(q, t), with ∂L/∂q = g(q, v) − ∇V and g(q, v) = ½∇_q(vᵀM(q)v) (massMatrix.ts):
 *
 * ```
 * M(q_k) q̃ − h g(q_k, q̃) + C(q_k)ᵀλ = f := p_k − h∇V(q_k, t_k) (+ f_d⁻(q_k, q_{k+1}))   (line 3)
 * C(q_k) q̃ = r                                                                          (line 1)
 * p_{k+1} = M(q_k) q̃ (+ f_d⁺(q_k, q_{k+1}))                                              (line 2)
 * ```
 *
 * with r = 0 (Dirac-1, Dirac-2) or r = −C(q_k)(q_k − q_{k−1})/h (Dirac-2c), q_{k+1} = q_k + h q̃
 * (Dirac-1, -2c) or q_{k−1} + 2h q̃ (Dirac-2), and the forced discrete Legendre transforms of
 * Marsden–West 2001 (3.2.5) as on the constant-mass path. Line 3 is quadratic in q̃ (g is), so the
 * step is one Newton solve in (q̃, λ) (n + m unknowns) with the exact Jacobian
 * `[[M(q_k) − h ∂g/∂v(q_k, q̃) − c h w⁻ ∂F̄/∂q_{k+1}, Cᵀ], [C, 0]]` (∂g/∂v from the Christoffel
 * symbols Γ(q_k), computed once per step from κ — massMatrix.ts —, or by polarization of
 * `kineticGradient` without κ; the force term from core's `DiscreteForce.jacobian`; c = 2 for
 * Dirac-2, else 1), started from the
 * constant-mass solution q̃ = M(q_k)⁻¹ f, λ = 0. For constant M, g = 0 and the step is the linear
 * one of §5.5. Without constraints Dirac-1 is the variational integrator of L_d, hence symplectic
 * (tested); every method stays first order (§5.6).
 *
 * @module
 */
import {
  type DiscreteForce,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
} from '@geomech/core';
import type { ConstrainedMechanicalSystem } from './constrained.js';
import { MassMatrixKinetics } from './massMatrix.js';

/** The forced part of an M(q) Dirac step: q_{k+1} = base + c h q̃ feeds f_d⁻(q_k, q_{k+1}). */
export interface DiracMassMatrixForcing {
  fd: DiscreteForce;
  base: Float64Array;
  c: number;
  t: number;
  u: Float64Array;
}

/** Newton scratch of the M(q) Dirac step (module doc). */
export class DiracMassMatrix {
  readonly n: number;
  readonly m: number;
  readonly kin: MassMatrixKinetics;
  /** C(q_k), row-major m×n. */
  readonly C: Float64Array;
  /** Iterations and residual of the last solve. */
  iterations = 0;
  residual = 0;
  private readonly solver: NewtonSolver;
  private readonly x0: Float64Array;
  private readonly qt: Float64Array;
  private readonly gq: Float64Array;
  private readonly Jg: Float64Array;
  private readonly q1: Float64Array;
  private readonly fm: Float64Array;
  private readonly fq1: Float64Array;
  private readonly G: (out: Float64Array, x: Float64Array) => void;
  private readonly J: (out: Float64Array, x: Float64Array) => void;
  // the step being solved
  private q: Float64Array;
  private f: Float64Array;
  private r: Float64Array | undefined;
  private h = 0;
  private forcing: DiracMassMatrixForcing | undefined;

  constructor(
    readonly sys: ConstrainedMechanicalSystem,
    tol: number,
    maxIterations: number,
  ) {
    const { n, m } = sys;
    this.n = n;
    this.m = m;
    this.kin = new MassMatrixKinetics(sys, 'DiracWorkspace');
    this.C = new Float64Array(m * n);
    this.solver = new NewtonSolver(n + m, {
      tol,
      maxIterations,
      stallTol: Math.max(tol, 1e-11),
      what: 'Dirac step (M(q))',
    });
    this.x0 = new Float64Array(n + m);
    this.qt = new Float64Array(n);
    this.gq = new Float64Array(n);
    this.Jg = new Float64Array(n * n);
    this.q1 = new Float64Array(n);
    this.fm = new Float64Array(n);
    this.fq1 = new Float64Array(n * n);
    this.q = this.qt;
    this.f = this.qt;
    this.r = undefined;
    // x = (q̃, λ): lines 3 and 1
    this.G = (out, x) => {
      const { kin, C, qt, gq, f, r, q, fm } = this;
      const h = this.h;
      for (let i = 0; i < n; i++) qt[i] = x[i]!;
      kin.mul(out, qt);
      kin.gradientAt(gq, q, qt);
      const fo = this.forcing;
      if (fo !== undefined) fo.fd.minus(fm, fo.t, q, this.nextQ(fo, h), fo.u);
      for (let i = 0; i < n; i++) {
        let s = out[i]! - h * gq[i]! - f[i]!;
        for (let a = 0; a < m; a++) s += C[a * n + i]! * x[n + a]!;
        if (fo !== undefined) s -= fm[i]!;
        out[i] = s;
      }
      for (let a = 0; a < m; a++) {
        let s = r === undefined ? 0 : -r[a]!;
        for (let j = 0; j < n; j++) s += C[a * n + j]! * qt[j]!;
        out[n + a] = s;
      }
    };
    this.J = (out, x) => {
      const { kin, C, qt, Jg, q, fq1 } = this;
      const h = this.h;
      const N = n + m;
      for (let i = 0; i < n; i++) qt[i] = x[i]!;
      kin.gradientJacobianAt(Jg, q, qt);
      const fo = this.forcing;
      let w = 0;
      if (fo !== undefined) {
        fo.fd.jacobian(undefined, fq1, undefined, fo.t, q, this.nextQ(fo, h), fo.u);
        w = fo.fd.weightMinus * fo.c * h;
      }
      const M = kin.M;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let v = M[i * n + j]! - h * Jg[i * n + j]!;
          if (fo !== undefined) v -= w * fq1[i * n + j]!;
          out[i * N + j] = v;
        }
        for (let a = 0; a < m; a++) out[i * N + n + a] = C[a * n + i]!;
      }
      for (let a = 0; a < m; a++) {
        for (let j = 0; j < n; j++) out[(n + a) * N + j] = C[a * n + j]!;
        for (let b = 0; b < m; b++) out[(n + a) * N + n + b] = 0;
      }
    };
  }

  /** q_{k+1} = base + c h q̃ at the q̃ in {@link qt}. */
  private nextQ(fo: DiracMassMatrixForcing, h: number): Float64Array {
    const { q1, qt, n } = this;
    const ch = fo.c * h;
    for (let i = 0; i < n; i++) q1[i] = fo.base[i]! + ch * qt[i]!;
    return q1;
  }

  /**
   * Solves lines 3 and 1 at q_k with f = p_k − h∇V(q_k) (and C(q_k) already in {@link C}, M(q_k)
   * factored by {@link prepare}); q̃ → `qt`, λ → `lambda`, M(q_k)q̃ → `pNext`. Returns the Newton
   * iterations. @throws {@link NewtonDivergedError} naming step k when it does not converge.
   */
  solve(
    qt: Float64Array,
    lambda: Float64Array,
    pNext: Float64Array,
    q: Float64Array,
    f: Float64Array,
    h: number,
    r: Float64Array | undefined,
    forcing: DiracMassMatrixForcing | undefined,
    k: number,
  ): number {
    const { n, m, x0, kin } = this;
    this.q = q;
    this.f = f;
    this.r = r;
    this.h = h;
    this.forcing = forcing;
    // start: the constant-mass solution without the constraint impulse, q̃ = M(q_k)⁻¹ f, λ = 0
    for (let i = 0; i < n; i++) x0[i] = f[i]!;
    kin.lu.solve(x0, x0);
    x0.fill(0, n, n + m);
    const res = this.solver.solve(this.G, this.J, x0, k);
    this.forcing = undefined;
    if (!res.converged)
      throw new NewtonDivergedError(res.iterations, res.residualNorm, k, 'Dirac step (M(q))');
    this.iterations = res.iterations;
    this.residual = res.residualNorm;
    const x = res.x;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('diracSolve: q̃', i);
      qt[i] = v;
    }
    for (let a = 0; a < m; a++) lambda[a] = x[n + a]!;
    kin.mul(pNext, qt);
    return res.iterations;
  }

  /** M(q_k) and its LU, the Christoffel symbols Γ(q_k) of the Newton matrix, C(q_k) into {@link C}. */
  prepare(q: Float64Array): void {
    this.kin.factor(q, 'diracSolve');
    this.kin.christoffel(q);
    const { C, m, n } = this;
    if (m > 0) {
      this.sys.C(C, q);
      for (let i = 0; i < m * n; i++)
        if (!Number.isFinite(C[i]!)) throw new NonFiniteError('diracSolve: C', i);
    }
  }
}
