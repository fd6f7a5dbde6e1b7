/**
 * The generalized RATTLE step for a configuration-dependent mass matrix (internal; `RattleStepper`
 * takes it for a system with `massMatrix`): Hairer–Lubich–Wanner, Geometric Numerical Integration
 * (2nd ed.), §VII.1.4, eq. (1.26) (Jay 1996), for H(q, p) = ½ pᵀM(q)⁻¹p + V(q) with the
 * constraints φ(q) = 0, in this package's sign (constraint force +Cᵀλ, rows of C the ψᵃ):
 *
 * ```
 * p_{½}   = p_k − (h/2)(H_q(q_k, p_{½}) − C(q_k)ᵀλ) + f_d⁻(q_k, q_{k+1})
 * q_{k+1} = q_k + (h/2)(M(q_k)⁻¹ + M(q_{k+1})⁻¹) p_{½}
 * 0       = φ(q_{k+1})
 * p_{k+1} = p_{½} − (h/2)(H_q(q_{k+1}, p_{½}) − C(q_{k+1})ᵀμ) + f_d⁺(q_k, q_{k+1})
 * 0       = C(q_{k+1}) M(q_{k+1})⁻¹ p_{k+1}
 * ```
 *
 * with H_q(q, p) = ∇V(q, t) − g(q, M(q)⁻¹p), g(q, v) = ½∇_q(vᵀM(q)v) (massMatrix.ts), ∇V at t_k in
 * the first line and at t_k + h in the fourth, and the forced discrete Legendre transforms of
 * Marsden–West 2001 (3.2.5) exactly as on the constant-mass path (f_d^± of core's
 * `DiscreteForce` at (t_k, u_k)). The first three lines (implicit in p_{½} and q_{k+1}) are one
 * Newton solve in x = (p_{½}, q_{k+1}, λ) (2n + m unknowns, core's {@link NewtonSolver}) with the
 * analytic Jacobian of the constructor's comment: ∂g/∂v from the Christoffel symbols Γ(q_k) (once
 * per step) and Γ(q_{k+1}) (once per Newton matrix), ∂(M(q)⁻¹p)/∂q = −M⁻¹(∂g/∂v)ᵀ (massMatrix.ts),
 * the force's `DiscreteForce.jacobian`, and central differences only for dφ (the system gives C,
 * which may be a multiple of dφ); the last two are linear in μ: (h/2) C₁M₁⁻¹C₁ᵀ μ = −C₁M₁⁻¹ w. The method is
 * symplectic on the constraint manifold, symmetric and of order 2 (HLW Theorem VII.1.5); for a
 * constant M it is the classical RATTLE. The stepper's state stays z = (q, v): p_k = M(q_k)v_k
 * in, v_{k+1} = M(q_{k+1})⁻¹p_{k+1} out.
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DenseLU,
  DiscreteForce,
  DomainError,
  type Force,
  type ForceQuadrature,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  SingularMatrixError,
} from '@geomech/core';
import type { ConstrainedMechanicalSystem } from './constrained.js';
import { MassMatrixKinetics } from './massMatrix.js';

/** Scratch of {@link RattleMassMatrix.derivatives} (allocated on its first call). */
interface RattleMassMatrixDerivativeScratch {
  readonly Jm: Float64Array;
  readonly lu: DenseLU;
  readonly Gp: Float64Array;
  readonly Gm: Float64Array;
  readonly dx: Float64Array;
  readonly xx: Float64Array;
  readonly zz: Float64Array;
  readonly uu: Float64Array;
  readonly vp: Float64Array;
}

/** The generalized RATTLE of a system with M(q) (module doc); owns its scratch. */
export class RattleMassMatrix {
  readonly n: number;
  readonly m: number;
  /** λ of the last step (position stage), the warm start of the next. */
  readonly lambda: Float64Array;
  /** μ of the last step (velocity stage). */
  readonly mu: Float64Array;
  /** ‖residual‖∞ of the last position-stage solve. */
  lastResidual = 0;
  readonly zeroInput: Float64Array;
  private readonly kinK: MassMatrixKinetics;
  private readonly kin1: MassMatrixKinetics;
  private readonly solver: NewtonSolver;
  private readonly G: (out: Float64Array, x: Float64Array) => void;
  private readonly J: (out: Float64Array, x: Float64Array) => void;
  private readonly x0: Float64Array;
  private readonly qk: Float64Array;
  private readonly pk: Float64Array;
  private readonly Ck: Float64Array;
  private readonly C1: Float64Array;
  private readonly gVk: Float64Array;
  private readonly gV1: Float64Array;
  private readonly w: Float64Array;
  private readonly g: Float64Array;
  private readonly q1: Float64Array;
  private readonly fm: Float64Array;
  private readonly fp: Float64Array;
  private readonly MinvCt: Float64Array;
  private readonly S: Float64Array;
  private readonly Slu: DenseLU;
  private readonly col: Float64Array;
  private readonly phi: Float64Array;
  // Newton-matrix scratch: ∂g/∂v, ∂F̄/∂q1, a row and a column, φ(q1 ± e_j)
  private readonly Jg: Float64Array;
  private readonly Jf: Float64Array;
  private readonly jrow: Float64Array;
  private readonly jcol: Float64Array;
  private readonly phiP: Float64Array;
  private readonly phiM: Float64Array;
  private fd: DiscreteForce | undefined;
  private h = 0;
  private t = 0;
  private u: Float64Array;
  // the last step taken, for derivatives: z_k, x = (p½, q1, λ), u_k, t_k, h
  private readonly lastZ: Float64Array;
  private readonly lastX: Float64Array;
  private readonly lastU: Float64Array;
  private lastT = 0;
  /** t0 of the last {@link reset}: step k runs from t0 + k·h. */
  private readonly tStart = new Float64Array(1);
  private lastH = 0;
  /** Whether a step has been taken since the last {@link reset}. */
  hasLastStep = false;
  private scratch: RattleMassMatrixDerivativeScratch | undefined;

  constructor(
    readonly sys: ConstrainedMechanicalSystem,
    readonly force: Force | undefined,
    readonly quadrature: ForceQuadrature,
    tol: number,
    maxIterations: number,
  ) {
    const { n, m } = sys;
    this.n = n;
    this.m = m;
    this.kinK = new MassMatrixKinetics(sys, 'rattle');
    this.kin1 = new MassMatrixKinetics(sys, 'rattle');
    this.fd = force === undefined ? undefined : new DiscreteForce(force, 1, quadrature);
    this.zeroInput = new Float64Array(force === undefined ? 0 : force.m);
    this.u = this.zeroInput;
    this.lambda = new Float64Array(m);
    this.mu = new Float64Array(m);
    const N = 2 * n + m;
    this.lastZ = new Float64Array(2 * n);
    this.lastX = new Float64Array(N);
    this.lastU = new Float64Array(this.zeroInput.length);
    this.x0 = new Float64Array(N);
    this.qk = new Float64Array(n);
    this.pk = new Float64Array(n);
    this.Ck = new Float64Array(m * n);
    this.C1 = new Float64Array(m * n);
    this.gVk = new Float64Array(n);
    this.gV1 = new Float64Array(n);
    this.w = new Float64Array(n);
    this.g = new Float64Array(n);
    this.q1 = new Float64Array(n);
    this.fm = new Float64Array(n);
    this.fp = new Float64Array(n);
    this.MinvCt = new Float64Array(n * Math.max(m, 1));
    this.S = new Float64Array(m * m);
    this.Slu = new DenseLU(Math.max(m, 1));
    this.col = new Float64Array(n);
    this.phi = new Float64Array(m);
    // stall floor: the residual's round-off (ε·|p|, ε·|q|, ε·|q|·|C|) stops halving below it
    this.solver = new NewtonSolver(N, {
      tol,
      maxIterations,
      stallTol: Math.max(tol, 1e-11),
      what: 'rattle (M(q)): position stage',
    });
    // x = (p½, q1, λ): the first three lines of the module doc
    this.G = (out, x) => {
      const { kinK, kin1, qk, pk, Ck, gVk, w, g, q1, fm } = this;
      const hh = 0.5 * this.h;
      for (let i = 0; i < n; i++) q1[i] = x[n + i]!;
      // w = M(q_k)⁻¹p½, g = g(q_k, w)
      for (let i = 0; i < n; i++) w[i] = x[i]!;
      kinK.lu.solve(w, w);
      kinK.gradientAt(g, qk, w);
      const fd = this.fd;
      if (fd !== undefined && fd.weightMinus !== 0) fd.minus(fm, this.t, qk, q1, this.u);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let a = 0; a < m; a++) s += Ck[a * n + i]! * x[2 * n + a]!;
        let r = x[i]! - pk[i]! + hh * (gVk[i]! - g[i]!) - hh * s;
        if (fd !== undefined && fd.weightMinus !== 0) r -= fm[i]!;
        out[i] = r;
      }
      // q1 − q_k − (h/2)(w + M(q1)⁻¹p½)
      kin1.factor(q1, 'rattle (M(q))');
      for (let i = 0; i < n; i++) g[i] = x[i]!;
      kin1.lu.solve(g, g);
      for (let i = 0; i < n; i++) out[n + i] = q1[i]! - qk[i]! - hh * (w[i]! + g[i]!);
      sys.phi(this.phi, q1);
      for (let a = 0; a < m; a++) out[2 * n + a] = this.phi[a]!;
    };
    this.Jg = new Float64Array(n * n);
    this.Jf = new Float64Array(n * n);
    this.jrow = new Float64Array(n);
    this.jcol = new Float64Array(n);
    this.phiP = new Float64Array(m);
    this.phiM = new Float64Array(m);
    // the analytic Newton matrix of G (module doc): with w = M(q_k)⁻¹p½, w1 = M(q1)⁻¹p½,
    //   ∂r1/∂p½ = I − (h/2) ∂g/∂v(q_k, w) M(q_k)⁻¹,  ∂r1/∂q1 = −∂f_d⁻/∂q1,  ∂r1/∂λ = −(h/2) C(q_k)ᵀ,
    //   ∂r2/∂p½ = −(h/2)(M(q_k)⁻¹ + M(q1)⁻¹),     ∂r2/∂q1 = I + (h/2) M(q1)⁻¹ (∂g/∂v(q1, w1))ᵀ,
    //   ∂r3/∂q1 = dφ(q1) (central differences: C may be a multiple of dφ),
    // ∂g/∂v from the Christoffel symbols (massMatrix.ts), Γ(q_k) once per step, Γ(q1) per matrix
    this.J = (out, x) => {
      const { kinK, kin1, qk, Ck, w, q1, Jg, Jf, jrow, jcol, phiP, phiM } = this;
      const hh = 0.5 * this.h;
      out.fill(0);
      for (let i = 0; i < n; i++) {
        q1[i] = x[n + i]!;
        w[i] = x[i]!;
      }
      kinK.lu.solve(w, w);
      kinK.gradientJacobianAt(Jg, qk, w);
      for (let i = 0; i < n; i++) {
        // row i of ∂g/∂v · M(q_k)⁻¹ = (M(q_k)⁻ᵀ (row i))ᵀ
        for (let j = 0; j < n; j++) jrow[j] = Jg[i * n + j]!;
        kinK.lu.solveTranspose(jrow, jrow);
        const row = i * N;
        for (let j = 0; j < n; j++) out[row + j] = (i === j ? 1 : 0) - hh * jrow[j]!;
        for (let a = 0; a < m; a++) out[row + 2 * n + a] = -hh * Ck[a * n + i]!;
      }
      const fd = this.fd;
      if (fd !== undefined && fd.weightMinus !== 0) {
        fd.jacobian(undefined, Jf, undefined, this.t, qk, q1, this.u);
        const c = fd.weightMinus; // f_d⁻ = weightMinus·F̄ (weightMinus = h w⁻)
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) out[i * N + n + j] = -c * Jf[i * n + j]!;
      }
      // r2: M(q1) and Γ(q1) at this iterate
      kin1.factor(q1, 'rattle (M(q))');
      kin1.christoffel(q1);
      for (let i = 0; i < n; i++) jcol[i] = x[i]!;
      kin1.lu.solve(jcol, jcol);
      kin1.gradientJacobianAt(Jg, q1, jcol);
      for (let j = 0; j < n; j++) {
        // column j of ∂r2/∂p½: −(h/2)(M(q_k)⁻¹ + M(q1)⁻¹) e_j
        jrow.fill(0);
        jrow[j] = 1;
        kinK.lu.solve(jrow, jcol);
        kin1.lu.solve(jrow, jrow);
        for (let i = 0; i < n; i++) out[(n + i) * N + j] = -hh * (jcol[i]! + jrow[i]!);
        // column j of ∂r2/∂q1: e_j + (h/2) M(q1)⁻¹ (row j of ∂g/∂v(q1, w1))
        for (let i = 0; i < n; i++) jrow[i] = Jg[j * n + i]!;
        kin1.lu.solve(jrow, jrow);
        for (let i = 0; i < n; i++) out[(n + i) * N + n + j] = (i === j ? 1 : 0) + hh * jrow[i]!;
      }
      // r3 = φ(q1): dφ(q1) by central differences (relative step, as core's finite differences).
      // Not analytic, because the system does not give dφ: its C(q) holds the one-forms ψᵃ, which
      // may be a multiple of dφᵃ (ψᵃ = ½dφᵃ in the papers' examples). Only a chain's `band`
      // declares that factor (`phiScale`), and a system with M(q) never takes the band path. The
      // differences cost 2n evaluations of φ per Newton matrix, next to the O(n³) of Γ(q1) and the
      // solves above. Switching to s·C would change the Newton matrix, and so the iterates; they
      // stay bit-identical. Written out in place (core's finiteDifferenceJacobian would need a
      // closure over q1 per matrix).
      for (let j = 0; m > 0 && j < n; j++) {
        const qj = q1[j]!;
        const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(qj));
        q1[j] = qj + e;
        sys.phi(phiP, q1);
        q1[j] = qj - e;
        sys.phi(phiM, q1);
        q1[j] = qj;
        for (let a = 0; a < m; a++) out[(2 * n + a) * N + n + j] = (phiP[a]! - phiM[a]!) / (2 * e);
      }
    };
  }

  /** Forgets the warm start. */
  reset(t0 = 0): void {
    this.tStart[0] = t0;
    this.lambda.fill(0);
    this.mu.fill(0);
    this.lastResidual = 0;
    this.hasLastStep = false;
  }

  /**
   * One step of z = (q_k, v_k) in place (module doc); returns the Newton iterations. On failure
   * (typed errors naming step k) z is unchanged.
   */
  step(z: Float64Array, k: number, h: number, u: Float64Array | undefined): number {
    // t_k = t0 + k·h (the caller's double, operation for operation), kept in a field: a double
    // argument of a call that is not inlined is boxed (16 B per step)
    const t = this.tStart[0]! + k * h;
    this.t = t;
    const { n, m, kinK, qk, pk, gVk, x0, w, g } = this;
    this.hasLastStep = false;
    this.start(z, h, u);
    // predictor: p½ = p_k − (h/2)(∇V − g(q_k, v_k)), q1 = q_k + h v_k, λ warm
    kinK.gradientAt(g, qk, w);
    const hh = 0.5 * h;
    for (let i = 0; i < n; i++) {
      x0[i] = pk[i]! - hh * (gVk[i]! - g[i]!);
      x0[n + i] = qk[i]! + h * w[i]!;
    }
    for (let a = 0; a < m; a++) x0[2 * n + a] = this.lambda[a]!;
    const r = this.solver.solve(this.G, this.J, x0, k);
    if (!r.converged)
      throw new NewtonDivergedError(r.iterations, r.residualNorm, k, 'rattle (M(q))');
    const x = r.x;
    this.velocity(x, k);
    const q1 = this.q1;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(q1[i]!)) throw new NonFiniteError(`rattle: state after step ${k}`, i);
      if (!Number.isFinite(w[i]!)) throw new NonFiniteError(`rattle: state after step ${k}`, n + i);
    }
    // the step's data, for derivatives
    this.lastZ.set(z);
    this.lastX.set(x);
    this.lastU.set(this.u);
    this.lastT = t;
    this.lastH = h;
    this.hasLastStep = true;
    for (let i = 0; i < n; i++) {
      z[i] = q1[i]!;
      z[n + i] = w[i]!;
    }
    for (let a = 0; a < m; a++) this.lambda[a] = x[2 * n + a]!;
    this.lastResidual = r.residualNorm;
    return r.iterations;
  }

  /**
   * The step derivatives of the last {@link step} on z = (q, v): `dxdx` ← ∂z_{k+1}/∂z_k (2n × 2n),
   * `dxdu` ← ∂z_{k+1}/∂u_k (2n × inputs), row-major. The position stage's x = (p½, q_{k+1}, λ) is
   * the root of G(x; z_k, u_k) (module doc), so δx = −G_x⁻¹ ∂G/∂(z, u) (the implicit function
   * theorem) with G_x the step's own (analytic) Newton matrix at the accepted x and ∂G/∂(z, u) central differences of G in z_k and u_k at fixed x; then
   * q_{k+1} = x's middle block and δv_{k+1} is a directional central difference of the (explicit,
   * μ linear) velocity stage along (δx, δz, δu). Leaves the step's warm start alone. Cold path:
   * O(n) factorizations of M(q), its scratch allocated on the first call.
   */
  derivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { n, m } = this;
    const N = 2 * n + m;
    const mu = this.lastU.length;
    const S = 2 * n;
    this.scratch ??= {
      Jm: new Float64Array(N * N),
      lu: new DenseLU(N),
      Gp: new Float64Array(N),
      Gm: new Float64Array(N),
      dx: new Float64Array(N),
      xx: new Float64Array(N),
      zz: new Float64Array(S),
      uu: new Float64Array(mu),
      vp: new Float64Array(n),
    };
    const { Jm, lu, Gp, Gm, dx, xx, zz, uu, vp } = this.scratch;
    const { lastZ, lastX, lastU, w } = this;
    const t = this.lastT;
    const h = this.lastH;
    // the Newton matrix at the accepted x
    this.t = t;
    this.start(lastZ, h, lastU);
    this.J(Jm, lastX);
    lu.factor(Jm);
    if (lu.isSingular)
      throw new SingularMatrixError('RattleStepper.stepDerivatives: G_x (M(q))', -1);
    dxdx.fill(0);
    dxdu.fill(0);
    for (let j = 0; j < S + mu; j++) {
      const ju = j - S;
      const x0 = j < S ? lastZ[j]! : lastU[ju]!;
      const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x0));
      // ∂G/∂(z, u)_j at the accepted x
      for (let sgn = 1; sgn >= -1; sgn -= 2) {
        zz.set(lastZ);
        uu.set(lastU);
        if (j < S) zz[j] = x0 + sgn * e;
        else uu[ju] = x0 + sgn * e;
        this.t = t;
        this.start(zz, h, uu);
        this.G(sgn > 0 ? Gp : Gm, lastX);
      }
      for (let i = 0; i < N; i++) dx[i] = -(Gp[i]! - Gm[i]!) / (2 * e);
      lu.solve(dx, dx);
      // δv_{k+1}: the velocity stage along (δx, e_j)
      let norm = 1;
      for (let i = 0; i < N; i++) norm = Math.max(norm, Math.abs(dx[i]!));
      const eps = e / norm;
      for (let sgn = 1; sgn >= -1; sgn -= 2) {
        zz.set(lastZ);
        uu.set(lastU);
        if (j < S) zz[j] = x0 + sgn * eps;
        else uu[ju] = x0 + sgn * eps;
        for (let i = 0; i < N; i++) xx[i] = lastX[i]! + sgn * eps * dx[i]!;
        this.t = t;
        this.start(zz, h, uu);
        this.velocity(xx, -1);
        if (sgn > 0) vp.set(w);
      }
      const out = j < S ? dxdx : dxdu;
      const wd = j < S ? S : mu;
      const c = j < S ? j : ju;
      for (let i = 0; i < n; i++) {
        out[i * wd + c] = dx[n + i]!;
        out[(n + i) * wd + c] = (vp[i]! - w[i]!) / (2 * eps);
      }
    }
    // velocity() overwrote mu: restore the step's (the recorded series read it)
    this.t = t;
    this.start(lastZ, h, lastU);
    this.velocity(lastX, -1);
  }

  /**
   * Sets up the step from z = (q_k, v_k) at (t, h, u): q_k, M(q_k) factored, p_k = M(q_k)v_k,
   * C(q_k), ∇V(q_k, t), v_k in `w`, the discrete force of step h.
   */
  private start(z: Float64Array, h: number, u: Float64Array | undefined): void {
    const t = this.t;
    const { n, sys, kinK, qk, pk, Ck, gVk, w } = this;
    if (this.force !== undefined) {
      const uu = u ?? this.zeroInput;
      if (uu.length !== this.zeroInput.length)
        throw new DomainError('rattle: u', uu.length, `must have length ${this.zeroInput.length}`);
      this.u = uu;
      if (this.fd!.h !== h) this.fd = new DiscreteForce(this.force, h, this.quadrature);
    }
    this.h = h;
    for (let i = 0; i < n; i++) qk[i] = z[i]!;
    // p_k = M(q_k) v_k
    kinK.factor(qk, 'rattle (M(q))');
    kinK.christoffel(qk);
    for (let i = 0; i < n; i++) w[i] = z[n + i]!;
    kinK.mul(pk, w);
    sys.C(Ck, qk);
    // an autonomous V is called without t: a double argument of a call that is not inlined is
    // boxed (16 B per step)
    if (sys.autonomous === true) sys.gradV(gVk, qk);
    else sys.gradV(gVk, qk, t);
    for (let i = 0; i < n; i++)
      if (!Number.isFinite(gVk[i]!)) throw new NonFiniteError('rattle (M(q)): gradV', i);
  }

  /**
   * The velocity stage (last two lines of the module doc) from the position stage's x = (p½, q1,
   * λ) and the step set up by {@link start}: q_{k+1} in `q1`, v_{k+1} in `w`, μ in `mu`.
   */
  private velocity(x: Float64Array, k: number): void {
    const { n, m, sys, kin1, qk, C1, gV1, w, g, q1, fp } = this;
    const h = this.h;
    const t = this.t;
    const hh = 0.5 * h;
    // velocity stage at q1 (M(q1) factored afresh: the last G may have been a Jacobian probe)
    for (let i = 0; i < n; i++) q1[i] = x[n + i]!;
    kin1.factor(q1, 'rattle (M(q))');
    for (let i = 0; i < n; i++) w[i] = x[i]!;
    kin1.lu.solve(w, w);
    kin1.gradient(g, q1, w);
    if (sys.autonomous === true) sys.gradV(gV1, q1);
    else sys.gradV(gV1, q1, t + h);
    const fd = this.fd;
    const plus = fd !== undefined && fd.weightPlus !== 0;
    if (plus) fd.plus(fp, t, qk, q1, this.u);
    // w ← p½ − (h/2)(∇V(q1) − g(q1, M1⁻¹p½)) + f_d⁺
    for (let i = 0; i < n; i++) {
      let v = x[i]! - hh * (gV1[i]! - g[i]!);
      if (plus) v += fp[i]!;
      w[i] = v;
    }
    const mu = this.mu;
    if (m > 0) {
      // (h/2) C1 M1⁻¹ C1ᵀ μ = −C1 M1⁻¹ w
      const { MinvCt, S, col } = this;
      sys.C(C1, q1);
      for (let a = 0; a < m; a++) {
        for (let j = 0; j < n; j++) col[j] = C1[a * n + j]!;
        kin1.lu.solve(col, col);
        for (let j = 0; j < n; j++) MinvCt[j * m + a] = col[j]!;
      }
      for (let a = 0; a < m; a++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += MinvCt[j * m + a]! * w[j]!;
        mu[a] = -s;
        for (let b = 0; b < m; b++) {
          let sab = 0;
          for (let j = 0; j < n; j++) sab += C1[a * n + j]! * MinvCt[j * m + b]!;
          S[a * m + b] = hh * sab;
        }
      }
      const lu = this.Slu.factor(S);
      if (lu.isSingular) throw new SingularMatrixError(`rattle (M(q)): C M⁻¹ Cᵀ at step ${k}`, -1);
      lu.solve(mu, mu);
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let a = 0; a < m; a++) s += C1[a * n + j]! * mu[a]!;
        w[j] = w[j]! + hh * s;
      }
    }
    // v_{k+1} = M(q1)⁻¹ p_{k+1}
    kin1.lu.solve(w, w);
  }
}
