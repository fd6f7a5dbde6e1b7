/**
 * Constrained mechanics and optimal control on Lie groups (spec 003 §8.1): the discrete
 * constrained Lie–Poisson equations of a reduced Lagrangian l: 𝔤 → R and control constraints
 * Ψ^a: 𝔤 → R, discretized by a retraction τ: 𝔤 → G (exp or Cayley) with
 *
 *   L̂(g) = h·l(τ⁻¹(g)/h),   φ^a(g) = h·Ψ^a(τ⁻¹(g)/h),   g_k = τ(hξ_k),   G_k = G_{k−1}g_k   (6.1-c)
 *
 * Conventions (spec 003 §2, §8.1; `packages/core/CONVENTIONS.md`): dτ is the *left*-trivialized
 * tangent (T_xτ·δ = τ(x)(dτ_x δ)^; for SO(3) dcay⁻¹_x = I + x̂/2 + xxᵀ/4), the coadjoint action is
 * Ad*_g = (Ad_g)ᵀ (a right action, gᵀν on SO(3)), and the [VERIFIED] Legendre transforms are
 *
 *   F⁺(g_k, λ_k) = (dτ⁻¹_{hξ_k})ᵀ (∇l(ξ_k) + λ_k·∇Ψ(ξ_k))        (body, at G_k)
 *   F⁻(g_k, λ_k) = (dτ⁻¹_{−hξ_k})ᵀ (∇l(ξ_k) + λ_k·∇Ψ(ξ_k))       (at G_{k−1})
 *
 * so that the constrained DEL (6.1-e) read F⁺(g_k, λ_k) = F⁻(g_{k+1}, λ_{k+1}), Ψ(ξ_{k+1}) = 0.
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  coAdjoint,
  DimensionError,
  DomainError,
  type LieGroup,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  type Retraction,
} from '@geomech/core';
import { dexpCoefficients } from './so3Dexp.js';

/** A scalar function on the Lie algebra 𝔤 ≅ R^dim with its gradient (and optionally Hessian). */
export interface AlgebraFunction {
  /** f(ξ). */
  value(xi: Float64Array): number;
  /** out ← ∇f(ξ) (length dim). */
  grad(out: Float64Array, xi: Float64Array): Float64Array;
  /** out ← ∇²f(ξ), dim×dim row-major. Optional: central differences of {@link grad} otherwise. */
  hess?(out: Float64Array, xi: Float64Array): Float64Array;
}

/**
 * The data of a constrained Lie-group system without a time step (spec 003 §8.1): the group, the
 * retraction τ, the reduced Lagrangian l with derivatives and the constraints Ψ^a (a ∈ A, |A| = m).
 */
export interface LieGroupOCPData {
  readonly group: LieGroup;
  /** τ: 𝔤 → G with τ(x)τ(−x) = e (core's `so3Cayley`, `so3Exp`, `expRetraction(G)`, …). */
  readonly tau: Retraction;
  /** l(ξ). */
  readonly l: (xi: Float64Array) => number;
  /** out ← ∇l(ξ). */
  readonly dl: (out: Float64Array, xi: Float64Array) => Float64Array;
  /** out ← ∇²l(ξ) (dim×dim). Optional: central differences of `dl` otherwise. */
  readonly d2l?: (out: Float64Array, xi: Float64Array) => Float64Array;
  /** Control constraints Ψ^a (C = {Ψ = 0}); empty or omitted for an unconstrained system. */
  readonly Psi?: readonly AlgebraFunction[];
}

/** Options of {@link LieGroupOCP}: the system data, the time step h and the Newton settings. */
export interface LieGroupOCPOptions extends LieGroupOCPData {
  /** Time step h > 0 (h = 1/n for the problem on [0, 1]). */
  readonly h: number;
  /** Newton tolerance on the max-norm of the step residual. Default 1e-14 (plus core's 4ε step test). */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
}

/** Which closed form of D(x, w) = ∂/∂x[(dτ⁻¹_x)ᵀ w] applies. */
type DtauForm = 'so3-cay' | 'so3-exp' | 'fd';

function dtauForm(tau: Retraction): DtauForm {
  const G = tau.group;
  if (G.name === 'SO(3)' && G.dim === 3) {
    if (tau.name === 'cay') return 'so3-cay';
    if (tau.name === 'exp') return 'so3-exp';
  }
  return 'fd';
}

/**
 * The trivialized Legendre kernel of a {@link LieGroupOCPData} (spec 003 §8.1): for a signed step s
 * (s = +h gives F⁺, s = −h gives F⁻) it evaluates
 *
 *   P_s(ξ, λ) = (dτ⁻¹_{sξ})ᵀ w(ξ, λ),   w = ∇l(ξ) + Σ_a λ_a ∇Ψ^a(ξ),
 *
 * its Jacobians ∂P/∂ξ = (dτ⁻¹_{sξ})ᵀ(∇²l + λ·∇²Ψ) + s·D(sξ, w), ∂P/∂λ_a = (dτ⁻¹_{sξ})ᵀ∇Ψ^a,
 * ∂P/∂s = D(sξ, w)ξ, where D(x, w)δ = d/dε[(dτ⁻¹_{x+εδ})ᵀ w]. D is in closed form for SO(3) with
 * Cayley (D = ŵ/2 + (x·w)/4·I + xwᵀ/4) and exp; other retractions use central differences.
 * Every method writes into its own scratch or an `out` argument: nothing allocates.
 *
 * @example
 * ```ts
 * const l = (x: ArrayLike<number>) => 0.5 * (x[0]! ** 2 + 2 * x[1]! ** 2 + 3 * x[2]! ** 2); // rigid body, 𝕀 = diag(1, 2, 3)
 * const dl = (o: Float64Array, x: ArrayLike<number>) => { o[0] = x[0]!; o[1] = 2 * x[1]!; o[2] = 3 * x[2]!; return o; };
 * const K = new LiePoissonKernel({ group: SO3, tau: so3Cayley, l, dl });
 * const out = new Float64Array(3), xi = Float64Array.of(0.8, -0.5, 0.3);
 * K.momentum(out, xi, new Float64Array(0), 0.1); // F⁺ = (dcay⁻¹_{0.1ξ})ᵀ∇l(ξ)
 * ```
 */
export class LiePoissonKernel {
  /** dim 𝔤. */
  readonly dim: number;
  /** Number m of constraints. */
  readonly m: number;
  readonly group: LieGroup;
  readonly tau: Retraction;
  /** ∂P/∂ξ (dim×dim) of the last {@link momentumJacobian} call. */
  readonly dPdXi: Float64Array;
  /** ∂P/∂λ (dim×m, column a = (dτ⁻¹)ᵀ∇Ψ^a) of the last {@link momentumJacobian} call. */
  readonly dPdLambda: Float64Array;
  /** ∇Ψ^a(ξ) as rows (m×dim) of the last {@link momentum}, {@link momentumJacobian} or {@link constraintJacobian} call. */
  readonly gradPsi: Float64Array;
  private readonly data: LieGroupOCPData;
  private readonly Psi: readonly AlgebraFunction[];
  private readonly form: DtauForm;
  private readonly x: Float64Array;
  private readonly w: Float64Array;
  private readonly Minv: Float64Array;
  private readonly H: Float64Array;
  private readonly Hs: Float64Array;
  private readonly D: Float64Array;
  private readonly col: Float64Array;
  private readonly xp: Float64Array;
  private readonly gp: Float64Array;
  private readonly gm: Float64Array;
  private readonly coef: Float64Array;

  constructor(data: LieGroupOCPData) {
    const G = data.group;
    if (data.tau.group.dim !== G.dim) {
      throw new DimensionError('LiePoissonKernel: tau.group.dim', G.dim, data.tau.group.dim);
    }
    const d = G.dim;
    const Psi = data.Psi ?? [];
    this.data = data;
    this.Psi = Psi;
    this.dim = d;
    this.m = Psi.length;
    this.group = G;
    this.tau = data.tau;
    this.form = dtauForm(data.tau);
    this.dPdXi = new Float64Array(d * d);
    this.dPdLambda = new Float64Array(d * Math.max(1, this.m));
    this.gradPsi = new Float64Array(Math.max(1, this.m) * d);
    this.x = new Float64Array(d);
    this.w = new Float64Array(d);
    this.Minv = new Float64Array(d * d);
    this.H = new Float64Array(d * d);
    this.Hs = new Float64Array(d * d);
    this.D = new Float64Array(d * d);
    this.col = new Float64Array(d);
    this.xp = new Float64Array(d);
    this.gp = new Float64Array(d);
    this.gm = new Float64Array(d);
    this.coef = new Float64Array(2);
  }

  /** l(ξ). */
  lagrangian(xi: Float64Array): number {
    return this.data.l(xi);
  }

  /** out[offset + a] ← Ψ^a(ξ), a = 0..m−1. */
  constraints(out: Float64Array, xi: Float64Array, offset = 0): Float64Array {
    const { Psi } = this;
    for (let a = 0; a < Psi.length; a++) out[offset + a] = Psi[a]!.value(xi);
    return out;
  }

  /** {@link gradPsi} ← ∇Ψ^a(ξ) as rows; returns it. */
  constraintJacobian(xi: Float64Array): Float64Array {
    const { Psi, dim: d, col, gradPsi } = this;
    for (let a = 0; a < Psi.length; a++) {
      Psi[a]!.grad(col, xi);
      for (let j = 0; j < d; j++) gradPsi[a * d + j] = col[j]!;
    }
    return gradPsi;
  }

  /** out ← w(ξ, λ) = ∇l(ξ) + Σ λ_a∇Ψ^a(ξ) (also refreshes {@link gradPsi}). */
  weightedGradient(out: Float64Array, xi: Float64Array, lambda: ArrayLike<number>): Float64Array {
    const { dim: d, m, gradPsi } = this;
    this.data.dl(out, xi);
    if (m > 0) {
      this.constraintJacobian(xi);
      for (let a = 0; a < m; a++) {
        const la = lambda[a]!;
        for (let j = 0; j < d; j++) out[j] = out[j]! + la * gradPsi[a * d + j]!;
      }
    }
    return out;
  }

  /**
   * The signed step s read by {@link momentumAtStep}, {@link momentumJacobianAtStep} and
   * {@link momentumStepDerivativeAtStep}. Hot loops set this field once and call those methods
   * instead of passing s: a double argument to a call V8 does not inline is boxed (allocated).
   */
  step = 0;

  /**
   * out ← P_s(ξ, λ) = (dτ⁻¹_{sξ})ᵀ w(ξ, λ): F⁺ for s = h, F⁻ for s = −h (spec 003 §8.1).
   * Sets {@link step} to s.
   */
  momentum(
    out: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
    s: number,
  ): Float64Array {
    this.step = s;
    return this.momentumAtStep(out, xi, lambda);
  }

  /** {@link momentum} at s = {@link step}. */
  momentumAtStep(out: Float64Array, xi: Float64Array, lambda: ArrayLike<number>): Float64Array {
    const { dim: d, x, w, Minv } = this;
    const s = this.step;
    this.weightedGradient(w, xi, lambda);
    for (let i = 0; i < d; i++) x[i] = s * xi[i]!;
    this.tau.dtauInv(Minv, x);
    mulTransposeVec(out, Minv, w, d);
    return out;
  }

  /**
   * out ← (dτ⁻¹_{sξ})ᵀ v for a given covector v (e.g. µ = (dτ⁻¹_{−hξ})ᵀ∇l, Φ^a = (dτ⁻¹_{−hξ})ᵀ∇Ψ^a).
   */
  pullback(out: Float64Array, xi: Float64Array, v: Float64Array, s: number): Float64Array {
    const { dim: d, x, Minv } = this;
    for (let i = 0; i < d; i++) x[i] = s * xi[i]!;
    this.tau.dtauInv(Minv, x);
    return mulTransposeVec(out, Minv, v, d);
  }

  /**
   * Fills {@link dPdXi} and {@link dPdLambda} with the Jacobians of P_s at (ξ, λ) (see the class
   * comment), using the analytic Hessians when given and central differences of the gradients
   * otherwise.
   */
  momentumJacobian(xi: Float64Array, lambda: ArrayLike<number>, s: number): void {
    this.step = s;
    this.momentumJacobianAtStep(xi, lambda);
  }

  /** {@link momentumJacobian} at s = {@link step}. */
  momentumJacobianAtStep(xi: Float64Array, lambda: ArrayLike<number>): void {
    const { dim: d, m, x, w, Minv, H, D, dPdXi, dPdLambda, gradPsi } = this;
    const s = this.step;
    this.weightedGradient(w, xi, lambda);
    for (let i = 0; i < d; i++) x[i] = s * xi[i]!;
    this.tau.dtauInv(Minv, x);
    // H = ∇²l + Σ λ_a ∇²Ψ^a
    this.lagrangianHessian(H, xi, lambda);
    this.dtauInvTransposeDerivative(D, x, w);
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) {
        let acc = 0;
        for (let k = 0; k < d; k++) acc += Minv[k * d + i]! * H[k * d + j]!;
        dPdXi[i * d + j] = acc + s * D[i * d + j]!;
      }
    }
    for (let a = 0; a < m; a++) {
      for (let i = 0; i < d; i++) {
        let acc = 0;
        for (let k = 0; k < d; k++) acc += Minv[k * d + i]! * gradPsi[a * d + k]!;
        dPdLambda[i * m + a] = acc;
      }
    }
  }

  /** out ← ∂P_s/∂s = D(sξ, w)·ξ (used by the adaptive step, spec 003 §8.3 Example 6.1). */
  momentumStepDerivative(
    out: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
    s: number,
  ): Float64Array {
    this.step = s;
    return this.momentumStepDerivativeAtStep(out, xi, lambda);
  }

  /** {@link momentumStepDerivative} at s = {@link step}. */
  momentumStepDerivativeAtStep(
    out: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
  ): Float64Array {
    const { dim: d, x, w, D } = this;
    const s = this.step;
    this.weightedGradient(w, xi, lambda);
    for (let i = 0; i < d; i++) x[i] = s * xi[i]!;
    this.dtauInvTransposeDerivative(D, x, w);
    for (let i = 0; i < d; i++) {
      let acc = 0;
      for (let j = 0; j < d; j++) acc += D[i * d + j]! * xi[j]!;
      out[i] = acc;
    }
    return out;
  }

  /**
   * out ← ∇²l(ξ) + Σλ_a∇²Ψ^a(ξ) (dim×dim): analytic where given, central differences otherwise.
   */
  lagrangianHessian(out: Float64Array, xi: Float64Array, lambda: ArrayLike<number>): Float64Array {
    const { dim: d, m, Hs } = this;
    this.hessian(out, xi, null);
    for (let a = 0; a < m; a++) {
      const la = lambda[a]!;
      if (la === 0) continue;
      this.hessian(Hs, xi, this.Psi[a]!);
      for (let i = 0; i < d * d; i++) out[i] = out[i]! + la * Hs[i]!;
    }
    return out;
  }

  /**
   * E(ξ, λ) = ⟨∇l(ξ), ξ⟩ − l(ξ) + Σ_a λ_a(⟨∇Ψ^a(ξ), ξ⟩ − Ψ^a(ξ)), the discrete energy of (E6.1-3')
   * (spec 003 §8.3); with `printed` only ⟨∇l(ξ), ξ⟩ − l(ξ), the paper's (E6.1-3). Allocates nothing.
   */
  energy(xi: Float64Array, lambda: ArrayLike<number>, printed = false): number {
    const { dim: d, m, gp } = this;
    this.data.dl(gp, xi);
    let e = -this.data.l(xi);
    for (let i = 0; i < d; i++) e += gp[i]! * xi[i]!;
    if (printed) return e;
    for (let a = 0; a < m; a++) {
      const f = this.Psi[a]!;
      f.grad(gp, xi);
      let s = -f.value(xi);
      for (let i = 0; i < d; i++) s += gp[i]! * xi[i]!;
      e += lambda[a]! * s;
    }
    return e;
  }

  /**
   * out ← ∂E/∂ξ = (∇²l + Σλ_a∇²Ψ^a)ξ (or ∇²l·ξ with `printed`), and {@link gradPsi} refreshed so
   * that ∂E/∂λ_a = ⟨∇Ψ^a, ξ⟩ − Ψ^a can be formed by the caller.
   */
  energyGradient(
    out: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
    printed = false,
  ): Float64Array {
    const { dim: d, H } = this;
    if (printed) this.hessian(H, xi, null);
    else this.lagrangianHessian(H, xi, lambda);
    for (let i = 0; i < d; i++) {
      let acc = 0;
      for (let j = 0; j < d; j++) acc += H[i * d + j]! * xi[j]!;
      out[i] = acc;
    }
    this.constraintJacobian(xi);
    return out;
  }

  /**
   * out (dim×dim) ← D(x, w) = ∂/∂x[(dτ⁻¹_x)ᵀ w]. SO(3) Cayley: (dcay⁻¹_x)ᵀw = w − x×w/2 + x(x·w)/4,
   * so D = ŵ/2 + (x·w)/4·I + xwᵀ/4. SO(3) exp: (dexp⁻¹_x)ᵀw = w − x×w/2 + c(s)(x(x·w) − s w),
   * s = |x|², so D = ŵ/2 + 2c'(s)(x(x·w) − s w)xᵀ + c(s)((x·w)I + xwᵀ − 2wxᵀ). Otherwise central
   * differences of `tau.dtauInv`.
   */
  dtauInvTransposeDerivative(out: Float64Array, x: Float64Array, w: Float64Array): Float64Array {
    const d = this.dim;
    if (this.form === 'so3-cay' || this.form === 'so3-exp') {
      const x0 = x[0]!;
      const x1 = x[1]!;
      const x2 = x[2]!;
      const w0 = w[0]!;
      const w1 = w[1]!;
      const w2 = w[2]!;
      const xw = x0 * w0 + x1 * w1 + x2 * w2;
      // ŵ/2
      out[0] = 0;
      out[1] = -0.5 * w2;
      out[2] = 0.5 * w1;
      out[3] = 0.5 * w2;
      out[4] = 0;
      out[5] = -0.5 * w0;
      out[6] = -0.5 * w1;
      out[7] = 0.5 * w0;
      out[8] = 0;
      if (this.form === 'so3-cay') {
        for (let i = 0; i < 3; i++) {
          const xi = x[i]!;
          for (let j = 0; j < 3; j++) out[i * 3 + j] = out[i * 3 + j]! + 0.25 * xi * w[j]!;
          out[i * 4] = out[i * 4]! + 0.25 * xw;
        }
        return out;
      }
      const s = x0 * x0 + x1 * x1 + x2 * x2;
      dexpCoefficients(s, this.coef);
      const c = this.coef[0]!;
      const dc2 = 2 * this.coef[1]!;
      for (let i = 0; i < 3; i++) {
        const xi = x[i]!;
        const wi = w[i]!;
        const vi = xi * xw - s * wi; // (x(x·w) − s w)_i
        for (let j = 0; j < 3; j++) {
          out[i * 3 + j] = out[i * 3 + j]! + dc2 * vi * x[j]! + c * (xi * w[j]! - 2 * wi * x[j]!);
        }
        out[i * 4] = out[i * 4]! + c * xw;
      }
      return out;
    }
    const { xp, gp, gm, Minv } = this;
    for (let j = 0; j < d; j++) {
      const eps = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x[j]!));
      xp.set(x);
      xp[j] = x[j]! + eps;
      this.tau.dtauInv(Minv, xp);
      mulTransposeVec(gp, Minv, w, d);
      xp[j] = x[j]! - eps;
      this.tau.dtauInv(Minv, xp);
      mulTransposeVec(gm, Minv, w, d);
      for (let i = 0; i < d; i++) out[i * d + j] = (gp[i]! - gm[i]!) / (2 * eps);
    }
    // restore Minv for the caller's x
    this.tau.dtauInv(Minv, x);
    return out;
  }

  /** out ← ∇²f(ξ) of l (f = null) or of a constraint: analytic if given, else central differences. */
  private hessian(out: Float64Array, xi: Float64Array, f: AlgebraFunction | null): void {
    if (f === null) {
      if (this.data.d2l) {
        this.data.d2l(out, xi);
        return;
      }
    } else if (f.hess) {
      f.hess(out, xi);
      return;
    }
    const { dim: d, xp, gp, gm } = this;
    for (let j = 0; j < d; j++) {
      const eps = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(xi[j]!));
      xp.set(xi);
      xp[j] = xi[j]! + eps;
      if (f === null) this.data.dl(gp, xp);
      else f.grad(gp, xp);
      xp[j] = xi[j]! - eps;
      if (f === null) this.data.dl(gm, xp);
      else f.grad(gm, xp);
      for (let i = 0; i < d; i++) out[i * d + j] = (gp[i]! - gm[i]!) / (2 * eps);
    }
  }
}

/** out ← Mᵀv for a d×d row-major M. */
function mulTransposeVec(out: Float64Array, M: Float64Array, v: ArrayLike<number>, d: number) {
  for (let i = 0; i < d; i++) {
    let acc = 0;
    for (let k = 0; k < d; k++) acc += M[k * d + i]! * v[k]!;
    out[i] = acc;
  }
  return out;
}

/** Outcome of one Lie–Poisson step (owned by the {@link LieGroupOCP}, overwritten by the next step). */
export interface LPStepResult {
  /** ξ of the new increment (the caller's `outXi`). */
  readonly xi: Float64Array;
  /** λ of the new increment (the caller's `outLambda`). */
  readonly lambda: Float64Array;
  /** Newton iterations of this step. */
  readonly iterations: number;
  /** Max-norm of the step residual at the returned point. */
  readonly residualNorm: number;
}

/** The Legendre transforms F^± at one increment (spec 003 §8.1). */
export interface LPMomenta {
  /** F⁺ = (dτ⁻¹_{hξ})ᵀ(∇l + λ·∇Ψ), the body momentum at G_k. */
  readonly plus: Float64Array;
  /** F⁻ = (dτ⁻¹_{−hξ})ᵀ(∇l + λ·∇Ψ) = µ + λ·Φ, the momentum at G_{k−1}. */
  readonly minus: Float64Array;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A discrete constrained Lie–Poisson system (spec 003 §8.1, eqs. (6.1-b)–(6.1-e)) with time step h.
 * {@link stepLP} maps (ξ_k, λ_k) to (ξ_{k+1}, λ_{k+1}) by solving, with Newton's method on
 * R^{dim+m} (analytic Jacobian, FD Hessians where none are given),
 *
 *   (dτ⁻¹_{−hξ_{k+1}})ᵀ(∇l(ξ_{k+1}) + λ_{k+1}·∇Ψ(ξ_{k+1})) = F⁺(ξ_k, λ_k),   Ψ(ξ_{k+1}) = 0   (6.1-e)
 *
 * and {@link stepBackward} inverts it. Both allocate nothing: the Newton solver and every scratch
 * vector live in the object. Configurations reconstruct as G_k = G_{k−1}τ(hξ_k).
 *
 * @example
 * ```ts
 * const ocp = new LieGroupOCP({
 *   group: SO3, tau: so3Cayley, h: 0.1,
 *   l: (x) => 0.5 * (x[0]! ** 2 + 2 * x[1]! ** 2 + 3 * x[2]! ** 2),
 *   dl: (o, x) => { o[0] = x[0]!; o[1] = 2 * x[1]!; o[2] = 3 * x[2]!; return o; },
 * });
 * const xi1 = new Float64Array(3), lam1 = new Float64Array(0);
 * ocp.stepLP(Float64Array.of(0.8, -0.5, 0.3), lam1, xi1, lam1); // free rigid body step
 * ```
 */
export class LieGroupOCP {
  readonly group: LieGroup;
  readonly tau: Retraction;
  readonly h: number;
  /** dim 𝔤. */
  readonly dim: number;
  /** Number of constraints m. */
  readonly m: number;
  readonly kernel: LiePoissonKernel;
  private readonly solver: NewtonSolver;
  private readonly target: Float64Array;
  private readonly z0: Float64Array;
  private readonly zXi: Float64Array;
  private readonly zLam: Float64Array;
  private readonly tmp: Float64Array;
  private readonly tmp2: Float64Array;
  private readonly g: Float64Array;
  private readonly adjScratch: Float64Array;
  private readonly gInv: Float64Array;
  private readonly result: Mutable<LPStepResult>;
  private sign = -1;
  private readonly F: (out: Float64Array, z: Float64Array) => void;
  private readonly J: (out: Float64Array, z: Float64Array) => void;

  constructor(options: LieGroupOCPOptions) {
    const { h } = options;
    if (!(h > 0 && Number.isFinite(h)))
      throw new DomainError('LieGroupOCP: h', h, 'must be positive and finite');
    this.kernel = new LiePoissonKernel(options);
    this.group = options.group;
    this.tau = options.tau;
    this.h = h;
    const d = this.kernel.dim;
    const m = this.kernel.m;
    this.dim = d;
    this.m = m;
    const tol = options.tol ?? 1e-14;
    this.solver = new NewtonSolver(d + m, {
      tol,
      maxIterations: options.maxIterations ?? 50,
      lineSearch: true,
    });
    this.target = new Float64Array(d);
    this.z0 = new Float64Array(d + m);
    this.zXi = new Float64Array(d);
    this.zLam = new Float64Array(Math.max(1, m));
    this.tmp = new Float64Array(d);
    this.tmp2 = new Float64Array(d);
    this.g = new Float64Array(this.group.storageSize);
    this.gInv = new Float64Array(this.group.storageSize);
    this.adjScratch = new Float64Array(d * d);
    this.result = {
      xi: this.zXi,
      lambda: this.zLam,
      iterations: 0,
      residualNorm: Number.NaN,
    };
    const K = this.kernel;
    const n = d + m;
    this.F = (out, z) => {
      this.unpack(z);
      K.step = this.sign * this.h;
      K.momentumAtStep(this.tmp, this.zXi, this.zLam);
      for (let i = 0; i < d; i++) out[i] = this.tmp[i]! - this.target[i]!;
      K.constraints(out, this.zXi, d);
    };
    this.J = (out, z) => {
      this.unpack(z);
      K.step = this.sign * this.h;
      K.momentumJacobianAtStep(this.zXi, this.zLam);
      const { dPdXi, dPdLambda, gradPsi } = K;
      for (let i = 0; i < d; i++) {
        for (let j = 0; j < d; j++) out[i * n + j] = dPdXi[i * d + j]!;
        for (let a = 0; a < m; a++) out[i * n + d + a] = dPdLambda[i * m + a]!;
      }
      for (let a = 0; a < m; a++) {
        for (let j = 0; j < d; j++) out[(d + a) * n + j] = gradPsi[a * d + j]!;
        for (let b = 0; b < m; b++) out[(d + a) * n + d + b] = 0;
      }
    };
  }

  /**
   * The Legendre transforms F^± at the increment g = τ(hξ) with multipliers λ (spec 003 §8.1,
   * [VERIFIED]). Writes into `out` when given (nothing allocated), else allocates.
   */
  momenta(
    xi: Float64Array,
    lambda: ArrayLike<number>,
    out: LPMomenta = { plus: new Float64Array(this.dim), minus: new Float64Array(this.dim) },
  ): LPMomenta {
    this.checkState('momenta', xi, lambda);
    this.kernel.momentum(out.plus, xi, lambda, this.h);
    this.kernel.momentum(out.minus, xi, lambda, -this.h);
    return out;
  }

  /**
   * µ = r*_g dL̂(e) = (dτ⁻¹_{−hξ})ᵀ∇l(ξ) and Φ^a = (dτ⁻¹_{−hξ})ᵀ∇Ψ^a(ξ) (rows of `outPhi`, m×dim),
   * the pieces of the discrete constrained Lie–Poisson equations (6.1-b).
   */
  liePoissonParts(xi: Float64Array, outMu: Float64Array, outPhi: Float64Array): void {
    const { dim: d, m, kernel: K, tmp, tmp2 } = this;
    this.checkState('liePoissonParts', xi, new Float64Array(m));
    this.kernelGradL(tmp, xi);
    K.pullback(outMu, xi, tmp, -this.h);
    K.constraintJacobian(xi);
    for (let a = 0; a < m; a++) {
      for (let j = 0; j < d; j++) tmp[j] = K.gradPsi[a * d + j]!;
      K.pullback(tmp2, xi, tmp, -this.h);
      for (let j = 0; j < d; j++) outPhi[a * d + j] = tmp2[j]!;
    }
  }

  /**
   * out (dim) ← µ_{k+1} + λ_{k+1}·Φ_{k+1} − Ad*_{g_k}(µ_k + λ_k·Φ_k), the residual of the
   * discrete constrained Lie–Poisson equations (6.1-b), with Ad*_g = (Ad_g)ᵀ and g_k = τ(hξ_k).
   */
  liePoissonResidual(
    out: Float64Array,
    xiK: Float64Array,
    lambdaK: ArrayLike<number>,
    xiK1: Float64Array,
    lambdaK1: ArrayLike<number>,
  ): Float64Array {
    const { dim: d, m, g } = this;
    const mu = new Float64Array(d);
    const Phi = new Float64Array(m * d);
    const before = new Float64Array(d);
    const moved = new Float64Array(d);
    this.liePoissonParts(xiK, mu, Phi);
    for (let j = 0; j < d; j++) {
      let s = mu[j]!;
      for (let a = 0; a < m; a++) s += lambdaK[a]! * Phi[a * d + j]!;
      before[j] = s;
    }
    this.increment(g, xiK);
    coAdjoint(this.group, moved, g, before, this.adjScratch);
    this.liePoissonParts(xiK1, mu, Phi);
    for (let j = 0; j < d; j++) {
      let s = mu[j]!;
      for (let a = 0; a < m; a++) s += lambdaK1[a]! * Phi[a * d + j]!;
      out[j] = s - moved[j]!;
    }
    return out;
  }

  /**
   * out (dim + m) ← [F⁺(ξ_k, λ_k) − F⁻(ξ_{k+1}, λ_{k+1}); Ψ(ξ_{k+1})], the residual of the
   * constrained DEL (6.1-e) with the constraint on the new increment.
   */
  delResidual(
    out: Float64Array,
    xiK: Float64Array,
    lambdaK: ArrayLike<number>,
    xiK1: Float64Array,
    lambdaK1: ArrayLike<number>,
  ): Float64Array {
    const { dim: d, kernel: K, tmp, tmp2 } = this;
    this.checkState('delResidual', xiK, lambdaK);
    this.checkState('delResidual', xiK1, lambdaK1);
    K.momentum(tmp, xiK, lambdaK, this.h);
    K.momentum(tmp2, xiK1, lambdaK1, -this.h);
    for (let i = 0; i < d; i++) out[i] = tmp[i]! - tmp2[i]!;
    K.constraints(out, xiK1, d);
    return out;
  }

  /** out ← g = τ(hξ), the increment of a step (6.1-c). */
  increment(out: Float64Array, xi: Float64Array): Float64Array {
    const { dim: d, tmp } = this;
    for (let i = 0; i < d; i++) tmp[i] = this.h * xi[i]!;
    return this.tau.tau(out, tmp);
  }

  /** out ← G_k = G_{k−1}·τ(hξ_k) (left-trivialized reconstruction, spec 003 §8.1). `out` may alias `Gprev`. */
  reconstruct(out: Float64Array, Gprev: Float64Array, xi: Float64Array): Float64Array {
    this.increment(this.g, xi);
    return this.group.compose(out, Gprev, this.g);
  }

  /**
   * out ← Ad*_{G_{k−1}⁻¹} F⁻(ξ_k, λ_k), the conserved spatial momentum of §8.1 (G_{k−1}π⁻_k on SO(3)).
   */
  spatialMomentum(
    out: Float64Array,
    Gprev: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
  ): Float64Array {
    this.kernel.momentum(this.tmp2, xi, lambda, -this.h);
    this.group.inverse(this.gInv, Gprev);
    return coAdjoint(this.group, out, this.gInv, this.tmp2, this.adjScratch);
  }

  /**
   * One step of the discrete constrained Lie–Poisson equations (6.1-e): from (ξ_k, λ_k) solves for
   * (ξ_{k+1}, λ_{k+1}) with F⁻(ξ_{k+1}, λ_{k+1}) = F⁺(ξ_k, λ_k) and Ψ(ξ_{k+1}) = 0, by Newton's
   * method from (ξ_k, λ_k). Writes into `outXi`, `outLambda` (which may alias the inputs).
   *
   * @param step - step index, copied into thrown errors.
   * @throws NewtonDivergedError when Newton does not converge; SingularJacobianError when the
   *   bordered Jacobian is singular (a non-regular point, spec 003 §12 item 6).
   */
  stepLP(
    xiK: Float64Array,
    lambdaK: ArrayLike<number>,
    outXi: Float64Array,
    outLambda: Float64Array,
    step?: number,
  ): LPStepResult {
    this.checkState('stepLP', xiK, lambdaK);
    this.kernel.momentum(this.target, xiK, lambdaK, this.h);
    return this.solveStep(-1, xiK, lambdaK, outXi, outLambda, step);
  }

  /**
   * The inverse of {@link stepLP}: from (ξ_{k+1}, λ_{k+1}) solves F⁺(ξ_k, λ_k) = F⁻(ξ_{k+1}, λ_{k+1})
   * and Ψ(ξ_k) = 0 for (ξ_k, λ_k). Same failure modes as {@link stepLP}.
   */
  stepBackward(
    xiK1: Float64Array,
    lambdaK1: ArrayLike<number>,
    outXi: Float64Array,
    outLambda: Float64Array,
    step?: number,
  ): LPStepResult {
    this.checkState('stepBackward', xiK1, lambdaK1);
    this.kernel.momentum(this.target, xiK1, lambdaK1, -this.h);
    return this.solveStep(1, xiK1, lambdaK1, outXi, outLambda, step);
  }

  /**
   * out ((dim + m)² row-major) ← the Newton Jacobian of {@link stepLP} (`'forward'`) or
   * {@link stepBackward} (`'backward'`) at the unknowns (ξ, λ): the derivative of
   * [P_s(ξ, λ) − target; Ψ(ξ)] with s = −h (forward) or +h (backward), i.e.
   * [[∂P/∂ξ, ∂P/∂λ], [∇Ψᵀ, 0]] of {@link LiePoissonKernel.momentumJacobian} (the target does not
   * enter). Allocation-free.
   *
   * @example
   * ```ts
   * const ocp = new LieGroupOCP({ ...rigidBodyData([1, 2, 3]), h: 0.1 });
   * ocp.stepJacobian(new Float64Array(9), Float64Array.of(0.8, -0.5, 0.3), new Float64Array(0));
   * ```
   */
  stepJacobian(
    out: Float64Array,
    xi: Float64Array,
    lambda: ArrayLike<number>,
    direction: 'forward' | 'backward' = 'forward',
  ): Float64Array {
    const { dim: d, m, z0 } = this;
    this.checkState('stepJacobian', xi, lambda);
    if (out.length < (d + m) * (d + m))
      throw new DimensionError('stepJacobian: out', (d + m) * (d + m), out.length);
    this.sign = direction === 'forward' ? -1 : 1;
    for (let i = 0; i < d; i++) z0[i] = xi[i]!;
    for (let a = 0; a < m; a++) z0[d + a] = lambda[a]!;
    this.J(out, z0);
    return out;
  }

  private solveStep(
    sign: number,
    xi0: Float64Array,
    lambda0: ArrayLike<number>,
    outXi: Float64Array,
    outLambda: Float64Array,
    step: number | undefined,
  ): LPStepResult {
    const { dim: d, m, z0 } = this;
    if (outXi.length < d) throw new DimensionError('LieGroupOCP: outXi', d, outXi.length);
    if (outLambda.length < m)
      throw new DimensionError('LieGroupOCP: outLambda', m, outLambda.length);
    this.sign = sign;
    for (let i = 0; i < d; i++) z0[i] = xi0[i]!;
    for (let a = 0; a < m; a++) z0[d + a] = lambda0[a]!;
    const r = this.solver.solve(this.F, this.J, z0, step);
    if (!r.converged) {
      throw new NewtonDivergedError(r.iterations, r.residualNorm, step, `(${r.reason})`);
    }
    for (let i = 0; i < d; i++) outXi[i] = r.x[i]!;
    for (let a = 0; a < m; a++) outLambda[a] = r.x[d + a]!;
    const res = this.result;
    res.xi = outXi;
    res.lambda = outLambda;
    res.iterations = r.iterations;
    res.residualNorm = r.residualNorm;
    return res;
  }

  private kernelGradL(out: Float64Array, xi: Float64Array): void {
    const lam = this.zLam;
    lam.fill(0);
    // w(ξ, 0) = ∇l(ξ)
    this.kernel.weightedGradient(out, xi, lam);
  }

  private unpack(z: Float64Array): void {
    const { dim: d, m, zXi, zLam } = this;
    for (let i = 0; i < d; i++) zXi[i] = z[i]!;
    for (let a = 0; a < m; a++) zLam[a] = z[d + a]!;
  }

  private checkState(what: string, xi: Float64Array, lambda: ArrayLike<number>): void {
    if (xi.length !== this.dim) throw new DimensionError(`${what}: xi`, this.dim, xi.length);
    if (lambda.length < this.m) throw new DimensionError(`${what}: lambda`, this.m, lambda.length);
    for (let i = 0; i < this.dim; i++) {
      if (!Number.isFinite(xi[i]!)) throw new NonFiniteError(`${what}: xi`, i);
    }
    for (let a = 0; a < this.m; a++) {
      if (!Number.isFinite(lambda[a]!)) throw new NonFiniteError(`${what}: lambda`, a);
    }
  }
}

/**
 * The discrete energy of the time-extended system (spec 003 §8.3, (E6.1-3')):
 * E(ξ, λ) = ⟨∇l(ξ), ξ⟩ − l(ξ) + Σ_a λ_a(⟨∇Ψ^a(ξ), ξ⟩ − Ψ^a(ξ)). With `printed`, the paper's
 * (E6.1-3) form without the multiplier terms, ⟨∇l(ξ), ξ⟩ − l(ξ) (an erratum: correct only for
 * constraints with ⟨∇Ψ, ξ⟩ = Ψ on C, e.g. linear ones).
 *
 * @example
 * ```ts
 * const data = { ...rigidBodyData([1, 2, 3]), h: 0.1, Psi: [{
 *   value: (x: ArrayLike<number>) => x[2]! - 0.7, grad: (o: Float64Array) => { o.fill(0); o[2] = 1; return o; } }] };
 * discreteEnergy(data, Float64Array.of(0.8, -0.5, 0.7), [0.4]); // ½ξᵀ𝕀ξ + λ(ξ₃ − (ξ₃ − 0.7))
 * ```
 */
export function discreteEnergy(
  data: LieGroupOCPData,
  xi: Float64Array,
  lambda: ArrayLike<number>,
  printed = false,
): number {
  const d = data.group.dim;
  if (xi.length !== d) throw new DimensionError('discreteEnergy: xi', d, xi.length);
  const Psi = data.Psi ?? [];
  if (lambda.length < Psi.length)
    throw new DimensionError('discreteEnergy: lambda', Psi.length, lambda.length);
  const g = new Float64Array(d);
  data.dl(g, xi);
  let e = -data.l(xi);
  for (let i = 0; i < d; i++) e += g[i]! * xi[i]!;
  if (printed) return e;
  for (let a = 0; a < Psi.length; a++) {
    const f = Psi[a]!;
    f.grad(g, xi);
    let s = -f.value(xi);
    for (let i = 0; i < d; i++) s += g[i]! * xi[i]!;
    e += lambda[a]! * s;
  }
  return e;
}
