/**
 * Classical comparison methods of spec 001 §6 for a {@link ConstrainedMechanicalSystem}: the
 * index-reduced ODE in z = (q, v), explicit Euler, the implicit trapezium (Newton), Adams–Bashforth
 * 3 (RK4 start-up), classical RK4, and RATTLE (SHAKE/RATTLE, position-exact reference, not in the
 * paper), with one driver {@link integrateConstrained}.
 *
 * Conventions: M q̈ = −∇V(q) + C(q)ᵀ λ (spec §3.6, §6), so with ψ = ½dφ the pendulum has
 * λ = m (g y − |v|²)/(x² + y²) < 0 when the rod pulls (spec §4). The λ denominator is the actual
 * C M⁻¹ Cᵀ (spec §6 variant "actual"; the "nominal" l² variant is not offered).
 *
 * @module
 */
import {
  allFinite,
  DenseLU,
  DimensionError,
  DomainError,
  jacobianFromFiniteDifferences,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  normInf,
  type OdeRhs,
  PROGRESS_INTERVAL_STEPS,
  type ProgressCallback,
  Rk4Stepper,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
} from '@geomech/core';
import type { ConstrainedMechanicalSystem } from './constrained.js';

/** Names of the comparison methods of {@link integrateConstrained}. */
export type ComparatorMethodName = 'euler' | 'trapezium' | 'ab3' | 'rk4' | 'rattle';

/** Traits of a comparison method (STYLE.md "methods"); an unknown trait is `undefined`. */
export interface ComparatorMethod {
  readonly name: ComparatorMethodName;
  /** Global order on smooth problems. */
  readonly order: number;
  readonly isExplicit: boolean;
  readonly isSymplectic: boolean;
  readonly isSymmetric: boolean;
  /** Whether φ(q_k) = 0 and C(q_k) v_k = 0 hold at every step (to the solver tolerance). */
  readonly preservesConstraint: boolean;
}

/**
 * The method table: Euler (order 1), trapezium (2, implicit, symmetric), AB3 (3), RK4 (4) on the
 * index-reduced ODE (spec §6), and RATTLE (2, symplectic, symmetric, constraint-exact).
 */
export const comparatorMethods: Readonly<Record<ComparatorMethodName, ComparatorMethod>> =
  Object.freeze({
    euler: Object.freeze({
      name: 'euler',
      order: 1,
      isExplicit: true,
      isSymplectic: false,
      isSymmetric: false,
      preservesConstraint: false,
    }),
    trapezium: Object.freeze({
      name: 'trapezium',
      order: 2,
      isExplicit: false,
      isSymplectic: false,
      isSymmetric: true,
      preservesConstraint: false,
    }),
    ab3: Object.freeze({
      name: 'ab3',
      order: 3,
      isExplicit: true,
      isSymplectic: false,
      isSymmetric: false,
      preservesConstraint: false,
    }),
    rk4: Object.freeze({
      name: 'rk4',
      order: 4,
      isExplicit: true,
      isSymplectic: false,
      isSymmetric: false,
      preservesConstraint: false,
    }),
    rattle: Object.freeze({
      name: 'rattle',
      order: 2,
      isExplicit: false,
      isSymplectic: true,
      isSymmetric: true,
      preservesConstraint: true,
    }),
  });

/**
 * Allocation-free evaluator of the Lagrange multiplier of the index-reduced ODE (spec §6):
 * λ(q, v) = (C M⁻¹ Cᵀ)⁻¹ (C M⁻¹ ∇V(q) − c(q, v)), from C v̇ + c = 0 with
 * M v̇ = −∇V + Cᵀλ, and of the right-hand side F(z) = (v, M⁻¹(−∇V + Cᵀλ)).
 *
 * @example
 * ```ts
 * const ode = new IndexReducedOde(pendulum({ m: 1, g: 9.81, l: 1 }));
 * const dz = new Float64Array(4);
 * ode.rhs(dz, Float64Array.of(0, -1, 1, 0)); // λ = (g·(−1) − 1)/1 = −10.81
 * ode.lambda[0]; // −10.81
 * ```
 */
export class IndexReducedOde {
  readonly sys: ConstrainedMechanicalSystem;
  /** λ of the last {@link rhs} / {@link multiplier} call (length m). */
  readonly lambda: Float64Array;
  /** Right-hand-side evaluations so far. */
  evals = 0;
  private readonly Cq: Float64Array;
  private readonly gV: Float64Array;
  private readonly cc: Float64Array;
  private readonly A: Float64Array;
  private readonly lu: DenseLU;
  private readonly invM: Float64Array;
  /** q and v of {@link rhs}, copied out of z (a subarray view per call would allocate). */
  private readonly qb: Float64Array;
  private readonly vb: Float64Array;

  constructor(sys: ConstrainedMechanicalSystem) {
    const { n, m } = sys;
    if (sys.mass.length !== n)
      throw new DimensionError('IndexReducedOde: mass', n, sys.mass.length);
    if (m < 1) throw new DomainError('IndexReducedOde: m', m, 'needs at least one constraint');
    this.sys = sys;
    this.qb = new Float64Array(n);
    this.vb = new Float64Array(n);
    this.lambda = new Float64Array(m);
    this.Cq = new Float64Array(m * n);
    this.gV = new Float64Array(n);
    this.cc = new Float64Array(m);
    this.A = new Float64Array(m * m);
    this.lu = new DenseLU(m);
    this.invM = new Float64Array(n);
    for (let i = 0; i < n; i++) this.invM[i] = 1 / sys.mass[i]!;
  }

  /** λ(q, v) into {@link lambda} (and returned); also leaves C(q) and ∇V(q) in scratch. */
  multiplier(q: Float64Array, v: Float64Array): Float64Array {
    const { sys, Cq, gV, cc, A, lu, invM, lambda } = this;
    const { n, m } = sys;
    sys.C(Cq, q);
    sys.gradV(gV, q);
    sys.curvature(cc, q, v);
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += Cq[a * n + j]! * invM[j]! * gV[j]!;
      lambda[a] = s - cc[a]!;
      // row a of C M⁻¹ Cᵀ over the nonzeros of C row a (the dense sums, zero terms skipped)
      const row = a * m;
      A.fill(0, row, row + m);
      for (let j = 0; j < n; j++) {
        const ca = Cq[a * n + j]!;
        if (ca === 0) continue;
        const cm = ca * invM[j]!;
        for (let b = 0; b < m; b++) A[row + b] = A[row + b]! + cm * Cq[b * n + j]!;
      }
    }
    lu.factor(A);
    lu.solve(lambda, lambda);
    return lambda;
  }

  /** out ← F(z), z = (q, v) of length 2n: q̇ = v, v̇ = M⁻¹(−∇V(q) + C(q)ᵀ λ(q, v)). */
  rhs(out: Float64Array, z: Float64Array): Float64Array {
    const { n, m } = this.sys;
    const q = this.qb;
    const v = this.vb;
    for (let j = 0; j < n; j++) {
      q[j] = z[j]!;
      v[j] = z[n + j]!;
    }
    const lambda = this.multiplier(q, v);
    const { Cq, gV, invM } = this;
    for (let j = 0; j < n; j++) {
      let f = -gV[j]!;
      for (let a = 0; a < m; a++) f += Cq[a * n + j]! * lambda[a]!;
      out[j] = z[n + j]!;
      out[n + j] = invM[j]! * f;
    }
    this.evals++;
    return out;
  }
}

/**
 * The index-reduced ODE of spec §6 as a core {@link OdeRhs} `(out, t, z)` for z = (q, v)
 * (e.g. for `integrateDopri5` or `Rk4Stepper`).
 *
 * @example
 * ```ts
 * const f = indexReducedRhs(pendulum({ m: 1, g: 9.81, l: 1 }));
 * const sol = integrateDopri5(f, [0.7071, -0.7071, 0, 0], 0, 1, { rtol: 1e-12, atol: 1e-14 });
 * ```
 */
export function indexReducedRhs(sys: ConstrainedMechanicalSystem): OdeRhs {
  const ode = new IndexReducedOde(sys);
  return (out, _t, z) => {
    ode.rhs(out, z);
  };
}

/**
 * One-step (or multistep) integrator of a comparison method on z = (q, v) ∈ R²ⁿ, owning its
 * scratch; {@link step} allocates nothing.
 */
export interface ComparatorStepper {
  readonly method: ComparatorMethod;
  /** Advances z in place by one step of size h; `k` is the step index (for errors). */
  step(z: Float64Array, h: number, k: number): void;
  /** Forgets multistep history (AB3) and warm starts. */
  reset(): void;
  /** Right-hand-side evaluations (index-reduced methods) so far. */
  readonly fEvals: number;
  /** Newton iterations (trapezium, RATTLE) so far. */
  readonly newtonIterations: number;
}

/**
 * Throws {@link NonFiniteError} naming `method` and step `k` when z is not finite. The message
 * is built only on failure: a template string per step would allocate in the hot loop.
 */
function checkFinite(z: Float64Array, method: string, k: number): void {
  for (let i = 0; i < z.length; i++) {
    if (!Number.isFinite(z[i]!)) throw new NonFiniteError(`${method}: state after step ${k}`, i);
  }
}

/** Explicit Euler z_{k+1} = z_k + h F(z_k) (spec §6). */
class EulerStepper implements ComparatorStepper {
  readonly method = comparatorMethods.euler;
  newtonIterations = 0;
  private readonly f: Float64Array;
  constructor(private readonly ode: IndexReducedOde) {
    this.f = new Float64Array(2 * ode.sys.n);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(): void {}
  step(z: Float64Array, h: number, k: number): void {
    this.ode.rhs(this.f, z);
    for (let i = 0; i < z.length; i++) z[i] = z[i]! + h * this.f[i]!;
    checkFinite(z, 'euler', k);
  }
}

/** Classical RK4 on the index-reduced ODE (spec §6), via core {@link Rk4Stepper}. */
class Rk4ComparatorStepper implements ComparatorStepper {
  readonly method = comparatorMethods.rk4;
  newtonIterations = 0;
  private readonly rk: Rk4Stepper;
  constructor(private readonly ode: IndexReducedOde) {
    this.rk = new Rk4Stepper(2 * ode.sys.n, (out, _t, y) => {
      ode.rhs(out, y);
    });
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(): void {}
  step(z: Float64Array, h: number, k: number): void {
    this.rk.step(z, k, k * h, h);
  }
}

/**
 * Adams–Bashforth 3: z_{k+1} = z_k + (h/12)(23 F_k − 16 F_{k−1} + 5 F_{k−2}) (spec §6); the first
 * two steps after {@link reset} are RK4 steps (the spec's reference start-up).
 */
class Ab3Stepper implements ComparatorStepper {
  readonly method = comparatorMethods.ab3;
  newtonIterations = 0;
  private readonly rk: Rk4Stepper;
  private f0: Float64Array;
  private f1: Float64Array;
  private f2: Float64Array;
  private history = 0;
  constructor(private readonly ode: IndexReducedOde) {
    const N = 2 * ode.sys.n;
    this.rk = new Rk4Stepper(N, (out, _t, y) => {
      ode.rhs(out, y);
    });
    this.f0 = new Float64Array(N);
    this.f1 = new Float64Array(N);
    this.f2 = new Float64Array(N);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  reset(): void {
    this.history = 0;
  }
  step(z: Float64Array, h: number, k: number): void {
    // rotate: f2 ← f1 ← f0 ← F(z_k)
    const t = this.f2;
    this.f2 = this.f1;
    this.f1 = this.f0;
    this.f0 = t;
    this.ode.rhs(this.f0, z);
    if (this.history < 2) {
      this.history++;
      this.rk.step(z, k, k * h, h);
      return;
    }
    const c = h / 12;
    const { f0, f1, f2 } = this;
    for (let i = 0; i < z.length; i++) {
      z[i] = z[i]! + c * (23 * f0[i]! - 16 * f1[i]! + 5 * f2[i]!);
    }
    checkFinite(z, 'ab3', k);
  }
}

/** Options of the implicit comparison methods. */
export interface ComparatorOptions {
  /** Newton tolerance on ‖residual‖∞. Default 1e-13 (trapezium) and 1e-15 (RATTLE, on φ). */
  readonly tol?: number;
  /** Maximum Newton iterations per solve. Default 30. */
  readonly maxIterations?: number;
}

/**
 * Implicit trapezium z_{k+1} = z_k + (h/2)(F(z_k) + F(z_{k+1})) (spec §6), solved by Newton with a
 * central-difference Jacobian from the explicit-Euler predictor.
 */
class TrapeziumStepper implements ComparatorStepper {
  readonly method = comparatorMethods.trapezium;
  private readonly solver: NewtonSolver;
  private readonly fk: Float64Array;
  private readonly fw: Float64Array;
  private readonly zk: Float64Array;
  private readonly guess: Float64Array;
  private readonly G: (out: Float64Array, w: Float64Array) => void;
  private readonly J: (out: Float64Array, w: Float64Array) => void;
  private h = 0;
  private iters = 0;
  constructor(
    private readonly ode: IndexReducedOde,
    options: ComparatorOptions,
  ) {
    const N = 2 * ode.sys.n;
    this.solver = new NewtonSolver(N, {
      tol: options.tol ?? 1e-13,
      maxIterations: options.maxIterations ?? 30,
    });
    this.fk = new Float64Array(N);
    this.fw = new Float64Array(N);
    this.zk = new Float64Array(N);
    this.guess = new Float64Array(N);
    this.G = (out, w) => {
      ode.rhs(this.fw, w);
      const c = 0.5 * this.h;
      for (let i = 0; i < N; i++) out[i] = w[i]! - this.zk[i]! - c * (this.fk[i]! + this.fw[i]!);
    };
    this.J = jacobianFromFiniteDifferences(this.G, N, N);
  }
  get fEvals(): number {
    return this.ode.evals;
  }
  get newtonIterations(): number {
    return this.iters;
  }
  reset(): void {}
  step(z: Float64Array, h: number, k: number): void {
    this.h = h;
    this.zk.set(z);
    this.ode.rhs(this.fk, z);
    for (let i = 0; i < z.length; i++) this.guess[i] = z[i]! + h * this.fk[i]!;
    const r = this.solver.solve(this.G, this.J, this.guess, k);
    this.iters += r.iterations;
    if (!r.converged) throw new NewtonDivergedError(r.iterations, r.residualNorm, k);
    z.set(r.x);
  }
}

/**
 * RATTLE (Andersen 1983; Hairer–Lubich–Wanner VII.1.4) for M q̈ = −∇V + Cᵀλ, φ(q) = 0:
 * v_{½} = v_k + (h/2) M⁻¹(−∇V(q_k) + C(q_k)ᵀ λ), q_{k+1} = q_k + h v_{½} with λ solved by
 * Newton (finite-difference Jacobian in λ, so any ψ scaling works) so that φ(q_{k+1}) = 0;
 * v_{k+1} = v_{½} + (h/2) M⁻¹(−∇V(q_{k+1}) + C(q_{k+1})ᵀ μ) with μ from the linear system
 * C(q_{k+1}) v_{k+1} = 0. Symplectic, symmetric, order 2; not in the paper (spec §6 "optional").
 *
 * Cost: C(q) of a chain is sparse (a few nonzeros per row), so the products with C(q_k)ᵀ inside
 * the Newton residual run over a column-compressed copy of C(q_k) built once per step, and the
 * velocity-stage matrix C M⁻¹ Cᵀ skips the zero entries (same sums in the same order as the
 * dense loops, so the results are bit-for-bit those of the dense products). Newton stops at
 * `tol`, or once ‖φ‖∞ ≤ 1e-12 stops halving: below that the residual is the round-off of φ
 * (≈ ε·|q|·|C|, above 1e-15 for long chains), and further iterations only stir that noise.
 */
class RattleStepper implements ComparatorStepper {
  readonly method = comparatorMethods.rattle;
  readonly fEvals = 0;
  /** μ of the last step (velocity-stage multiplier ≈ λ(t_{k+1}), ψ scaling of C). */
  readonly mu: Float64Array;
  private readonly sys: ConstrainedMechanicalSystem;
  private readonly lam: Float64Array;
  private readonly base: Float64Array;
  private readonly q1: Float64Array;
  /** q_k, copied out of z. */
  private readonly qk: Float64Array;
  private readonly Ck: Float64Array;
  private readonly C1: Float64Array;
  private readonly gV: Float64Array;
  private readonly invM: Float64Array;
  private readonly A: Float64Array;
  private readonly rhsM: Float64Array;
  private readonly lu: DenseLU;
  /** C(q_k) column-compressed: column j holds rows cscRow[cscPtr[j]..cscPtr[j+1]). */
  private readonly cscPtr: Int32Array;
  private readonly cscRow: Int32Array;
  private readonly cscVal: Float64Array;
  // Newton scratch
  private readonly nx: Float64Array;
  private readonly nf: Float64Array;
  private readonly njac: Float64Array;
  private readonly ndx: Float64Array;
  private readonly nlu: DenseLU;
  private readonly tol: number;
  private readonly maxIterations: number;
  private readonly G: (out: Float64Array, lam: Float64Array) => void;
  private readonly J: (out: Float64Array, lam: Float64Array) => void;
  private readonly maxResidual: number;
  private h = 0;
  private iters = 0;

  constructor(sys: ConstrainedMechanicalSystem, options: ComparatorOptions) {
    const { n, m } = sys;
    if (sys.mass.length !== n) throw new DimensionError('rattle: mass', n, sys.mass.length);
    this.sys = sys;
    this.mu = new Float64Array(m);
    this.lam = new Float64Array(m);
    this.base = new Float64Array(n);
    this.q1 = new Float64Array(n);
    this.qk = new Float64Array(n);
    this.Ck = new Float64Array(m * n);
    this.C1 = new Float64Array(m * n);
    this.gV = new Float64Array(n);
    this.invM = new Float64Array(n);
    for (let i = 0; i < n; i++) this.invM[i] = 1 / sys.mass[i]!;
    this.A = new Float64Array(m * m);
    this.rhsM = new Float64Array(m);
    this.lu = new DenseLU(m);
    this.cscPtr = new Int32Array(n + 1);
    this.cscRow = new Int32Array(m * n);
    this.cscVal = new Float64Array(m * n);
    this.nx = new Float64Array(m);
    this.nf = new Float64Array(m);
    this.njac = new Float64Array(m * m);
    this.ndx = new Float64Array(m);
    this.nlu = new DenseLU(m);
    const tol = options.tol ?? 1e-15;
    if (!(tol >= 0)) throw new DomainError('rattle: tol', tol, 'must be ≥ 0');
    const maxIterations = options.maxIterations ?? 30;
    if (!Number.isInteger(maxIterations) || maxIterations < 0) {
      throw new DomainError('rattle: maxIterations', maxIterations, 'must be an integer ≥ 0');
    }
    this.tol = tol;
    this.maxIterations = maxIterations;
    this.maxResidual = Math.max(tol, 1e-12);
    // G(λ) = φ(base + (h²/2) M⁻¹ C(q_k)ᵀ λ), base = q_k + h v_k − (h²/2) M⁻¹ ∇V(q_k)
    const { cscPtr, cscRow, cscVal } = this;
    this.G = (out, lam) => {
      const c = 0.5 * this.h * this.h;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = cscPtr[j]!; p < cscPtr[j + 1]!; p++) s += cscVal[p]! * lam[cscRow[p]!]!;
        this.q1[j] = this.base[j]! + c * this.invM[j]! * s;
      }
      sys.phi(out, this.q1);
    };
    this.J = jacobianFromFiniteDifferences(this.G, m, m);
  }
  get newtonIterations(): number {
    return this.iters;
  }
  reset(): void {
    this.lam.fill(0);
  }

  /** Column-compressed copy of C(q_k) (zero entries dropped) for {@link G}. */
  private compressCk(): void {
    const { Ck, cscPtr, cscRow, cscVal } = this;
    const { n, m } = this.sys;
    let p = 0;
    for (let j = 0; j < n; j++) {
      cscPtr[j] = p;
      for (let a = 0; a < m; a++) {
        const v = Ck[a * n + j]!;
        if (v !== 0) {
          cscRow[p] = a;
          cscVal[p] = v;
          p++;
        }
      }
    }
    cscPtr[n] = p;
  }

  /**
   * Newton on G(λ) = 0 from `lam` (the rules of core's NewtonSolver: absolute `tol` on ‖G‖∞,
   * the step criterion |Δλ|∞ ≤ 4ε·max(1, |λ|∞), a scalar path for m = 1, a condition check on
   * the Jacobian) plus the round-off stop described on the class. Leaves λ in `lam`; returns the
   * iterations.
   */
  private solveMultiplier(k: number): number {
    const { G, J, nx: x, nf: f, njac: jac, ndx: dx, nlu: lu, tol } = this;
    const m = this.sys.m;
    x.set(this.lam);
    G(f, x);
    let r = normInf(f, m);
    if (!Number.isFinite(r)) throw new NonFiniteError('rattle: φ at the start of Newton', k);
    let it = 0;
    for (;;) {
      if (r <= tol || it >= this.maxIterations) break;
      J(jac, x);
      if (m === 1) {
        const j0 = jac[0]!;
        if (!Number.isFinite(j0)) throw new NonFiniteError('rattle: Newton Jacobian', 0);
        if (j0 === 0) throw new SingularJacobianError(it, Number.POSITIVE_INFINITY, k);
        dx[0] = -f[0]! / j0;
      } else {
        if (!allFinite(jac, m * m)) throw new NonFiniteError('rattle: Newton Jacobian', k);
        lu.factor(jac);
        const cond = lu.conditionEstimate();
        if (!(cond < SINGULAR_JACOBIAN_CONDITION)) throw new SingularJacobianError(it, cond, k);
        for (let a = 0; a < m; a++) dx[a] = -f[a]!;
        lu.solve(dx, dx);
      }
      it++;
      const dxNorm = normInf(dx, m);
      if (!Number.isFinite(dxNorm))
        throw new NewtonDivergedError(it, r, k, 'produced a non-finite step');
      const smallStep = dxNorm <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, normInf(x, m));
      for (let a = 0; a < m; a++) x[a] = x[a]! + dx[a]!;
      if (!allFinite(x, m))
        throw new NewtonDivergedError(it, r, k, 'produced a non-finite iterate');
      const before = r;
      G(f, x);
      r = normInf(f, m);
      if (!Number.isFinite(r))
        throw new NewtonDivergedError(it, r, k, 'produced a non-finite residual');
      if (smallStep && r > tol) break;
      // round-off floor of φ reached: the step no longer halves a residual below maxResidual
      if (r <= this.maxResidual && r > 0.5 * before) break;
    }
    this.lam.set(x);
    return it;
  }

  step(z: Float64Array, h: number, k: number): void {
    const { sys, base, q1, qk, Ck, C1, gV, invM, A, rhsM, lu, mu } = this;
    const { n, m } = sys;
    // z = (q, v) is read and written with offsets (subarray views would allocate every step)
    this.h = h;
    for (let j = 0; j < n; j++) qk[j] = z[j]!;
    sys.C(Ck, qk);
    this.compressCk();
    sys.gradV(gV, qk);
    const c = 0.5 * h * h;
    for (let j = 0; j < n; j++) base[j] = z[j]! + h * z[n + j]! - c * invM[j]! * gV[j]!;
    // warm start: λ of the previous step (λ is a force, nearly constant between steps)
    const iterations = this.solveMultiplier(k);
    this.iters += iterations;
    this.G(rhsM, this.lam); // sets q1 for the converged λ
    let res = 0;
    for (let a = 0; a < m; a++) res = Math.max(res, Math.abs(rhsM[a]!));
    if (!(res <= this.maxResidual)) throw new NewtonDivergedError(iterations, res, k);
    // v_{½} = (q_{k+1} − q_k)/h
    for (let j = 0; j < n; j++) {
      z[n + j] = (q1[j]! - z[j]!) / h;
      z[j] = q1[j]!;
    }
    sys.C(C1, q1);
    sys.gradV(gV, q1);
    // w = v_{½} − (h/2) M⁻¹∇V(q_{k+1}); (h/2) C M⁻¹ Cᵀ μ = −C w
    const hh = 0.5 * h;
    for (let j = 0; j < n; j++) z[n + j] = z[n + j]! - hh * invM[j]! * gV[j]!;
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += C1[a * n + j]! * z[n + j]!;
      mu[a] = -s;
      // row a of C M⁻¹ Cᵀ over the nonzeros of C row a (the dense sums, zero terms skipped)
      const row = a * m;
      A.fill(0, row, row + m);
      for (let j = 0; j < n; j++) {
        const ca = C1[a * n + j]!;
        if (ca === 0) continue;
        const cm = ca * invM[j]!;
        for (let b = 0; b < m; b++) A[row + b] = A[row + b]! + cm * C1[b * n + j]!;
      }
      for (let b = 0; b < m; b++) A[row + b] = hh * A[row + b]!;
    }
    lu.factor(A);
    lu.solve(mu, mu);
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let a = 0; a < m; a++) s += C1[a * n + j]! * mu[a]!;
      z[n + j] = z[n + j]! + hh * invM[j]! * s;
    }
    checkFinite(z, 'rattle', k);
  }
}

/**
 * A stepper for `method` on `sys` (z = (q, v), length 2n).
 *
 * @example
 * ```ts
 * const s = createComparatorStepper(pendulum({ m: 1, g: 9.81, l: 1 }), 'rattle');
 * const z = Float64Array.of(0.6, -0.8, 0, 0);
 * for (let k = 0; k < 100; k++) s.step(z, 0.01, k); // |q| = 1 to 1e-15
 * ```
 */
export function createComparatorStepper(
  sys: ConstrainedMechanicalSystem,
  method: ComparatorMethodName,
  options: ComparatorOptions = {},
): ComparatorStepper {
  switch (method) {
    case 'euler':
      return new EulerStepper(new IndexReducedOde(sys));
    case 'rk4':
      return new Rk4ComparatorStepper(new IndexReducedOde(sys));
    case 'ab3':
      return new Ab3Stepper(new IndexReducedOde(sys));
    case 'trapezium':
      return new TrapeziumStepper(new IndexReducedOde(sys), options);
    case 'rattle':
      return new RattleStepper(sys, options);
    default:
      throw new DomainError('createComparatorStepper: method', method, 'unknown method');
  }
}

/** Options of {@link integrateConstrained}. */
export interface IntegrateConstrainedOptions extends ComparatorOptions {
  /** Record every `every`-th step (the initial and final states always). Default 1. */
  readonly every?: number;
  /** Called every {@link PROGRESS_INTERVAL_STEPS} steps with (steps done, steps). */
  readonly onProgress?: ProgressCallback;
}

/** Work counters of {@link integrateConstrained}. */
export interface ConstrainedStats {
  readonly steps: number;
  readonly fEvals: number;
  readonly newtonIterations: number;
  /** max over recorded samples of max_a |φᵃ(q)|. */
  readonly maxConstraint: number;
  /** max over recorded samples of |E − E₀|. */
  readonly maxEnergyError: number;
}

/** Sampled trajectory of {@link integrateConstrained}: flat row-major series. */
export interface ConstrainedTrajectory {
  readonly method: ComparatorMethod;
  readonly h: number;
  readonly n: number;
  readonly m: number;
  /** Number of samples. */
  readonly count: number;
  /** Step index of each sample (length count). */
  readonly step: Int32Array;
  readonly t: Float64Array;
  /** count × n. */
  readonly q: Float64Array;
  /** count × n. */
  readonly v: Float64Array;
  /** p = M v, count × n. */
  readonly p: Float64Array;
  /** λ(q, v) of the index-reduced ODE at each sample (spec §6 formula; ψ scaling of C), count × m. */
  readonly lambda: Float64Array;
  /** E = ½ vᵀ M v + V(q) (length count). */
  readonly energy: Float64Array;
  /** φᵃ(q) per constraint, count × m. */
  readonly constraint: Float64Array;
  readonly stats: ConstrainedStats;
}

/**
 * Integrates `sys` with a comparison method for `steps` steps of size h from (q0, v0)
 * (spec §10 "Driver"). The recorded λ is the index-reduced formula λ(q_k, v_k) for every method
 * (a diagnostic; RATTLE's own multipliers are on its stepper).
 *
 * @throws {@link DimensionError} for wrong q0/v0 lengths; {@link DomainError} for h ≤ 0, a
 *   non-integer steps or every; {@link NewtonDivergedError} / {@link NonFiniteError} naming the step.
 *
 * @example
 * ```ts
 * const sys = pendulum({ m: 1, g: 9.81, l: 1 });
 * const tr = integrateConstrained(sys, 'rattle', pendulumInitial(Math.PI / 4, 0, 1), 0.01, 1000, { every: 10 });
 * tr.stats.maxConstraint; // ~1e-16
 * ```
 */
export function integrateConstrained(
  sys: ConstrainedMechanicalSystem,
  method: ComparatorMethodName,
  init: { readonly q0: ArrayLike<number>; readonly v0: ArrayLike<number> },
  h: number,
  steps: number,
  options: IntegrateConstrainedOptions = {},
): ConstrainedTrajectory {
  const { n, m } = sys;
  if (init.q0.length !== n) throw new DimensionError('integrateConstrained: q0', n, init.q0.length);
  if (init.v0.length !== n) throw new DimensionError('integrateConstrained: v0', n, init.v0.length);
  if (!(h > 0 && Number.isFinite(h))) {
    throw new DomainError('integrateConstrained: h', h, 'must be positive and finite');
  }
  if (!Number.isSafeInteger(steps) || steps < 0) {
    throw new DomainError('integrateConstrained: steps', steps, 'must be an integer ≥ 0');
  }
  const every = options.every ?? 1;
  if (!Number.isSafeInteger(every) || every < 1) {
    throw new DomainError('integrateConstrained: every', every, 'must be a positive integer');
  }
  const stepper = createComparatorStepper(sys, method, options);
  const diag = new IndexReducedOde(sys);
  const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
  const out = {
    step: new Int32Array(count),
    t: new Float64Array(count),
    q: new Float64Array(count * n),
    v: new Float64Array(count * n),
    p: new Float64Array(count * n),
    lambda: new Float64Array(count * m),
    energy: new Float64Array(count),
    constraint: new Float64Array(count * m),
  };
  const z = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    z[i] = init.q0[i]!;
    z[n + i] = init.v0[i]!;
  }
  const q = z.subarray(0, n);
  const v = z.subarray(n, 2 * n);
  let maxConstraint = 0;
  let maxEnergyError = 0;
  let E0 = 0;
  let s = 0;
  const record = (k: number): void => {
    out.step[s] = k;
    out.t[s] = k * h;
    let kin = 0;
    for (let i = 0; i < n; i++) {
      out.q[s * n + i] = q[i]!;
      out.v[s * n + i] = v[i]!;
      out.p[s * n + i] = sys.mass[i]! * v[i]!;
      kin += sys.mass[i]! * v[i]! * v[i]!;
    }
    const E = 0.5 * kin + sys.V(q);
    out.energy[s] = E;
    if (s === 0) E0 = E;
    maxEnergyError = Math.max(maxEnergyError, Math.abs(E - E0));
    const con = out.constraint.subarray(s * m, s * m + m);
    sys.phi(con, q);
    for (let a = 0; a < m; a++) maxConstraint = Math.max(maxConstraint, Math.abs(con[a]!));
    out.lambda.set(diag.multiplier(q, v), s * m);
    s++;
  };
  record(0);
  const onProgress = options.onProgress;
  for (let k = 0; k < steps; k++) {
    if (onProgress !== undefined && k % PROGRESS_INTERVAL_STEPS === 0) onProgress(k, steps);
    stepper.step(z, h, k);
    if ((k + 1) % every === 0 || k + 1 === steps) record(k + 1);
  }
  return {
    method: stepper.method,
    h,
    n,
    m,
    count,
    ...out,
    stats: {
      steps,
      fEvals: stepper.fEvals,
      newtonIterations: stepper.newtonIterations,
      maxConstraint,
      maxEnergyError,
    },
  };
}
