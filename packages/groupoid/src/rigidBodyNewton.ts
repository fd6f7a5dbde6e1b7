/**
 * The Newton solve of one free-rigid-body Lie–Poisson step (spec 003 §8.1, S3): the residual and
 * the analytic 3×3 Jacobian written out on flat scratch for 𝕀 = diag(I1, I2, I3) and τ = Cayley
 * or exp, solved by core's `NewtonSolver` (its n = 3 path: an unrolled LU, the exact κ₁ test) with
 * `lineSearch: true`, so that the step allocates nothing. Internal: used by `RigidBodyStepper`, not
 * re-exported from the package index.
 *
 * Every formula is the one of {@link LiePoissonKernel} with the same operations in the same order,
 * so the iterates are bit-identical to `LieGroupOCP.stepLP` (tested in `rigidBodyNewton.test.ts`):
 *
 *   P_s(ξ) = (dτ⁻¹_{sξ})ᵀ 𝕀ξ,   ∂P_s/∂ξ = (dτ⁻¹_{sξ})ᵀ 𝕀 + s·D(sξ, 𝕀ξ),
 *
 * with dcay⁻¹_x = I + x̂/2 + xxᵀ/4 and dexp⁻¹_x = J_r⁻¹(x) (core's `dcayInv`, `SO3.rjacInv`) and
 * D(x, w) = ∂/∂x[(dτ⁻¹_x)ᵀ w] as in `LiePoissonKernel.dtauInvTransposeDerivative`.
 *
 * @module
 */
import {
  axisForm3Coef,
  DomainError,
  type JacobianFunction,
  NewtonSolver,
  NonFiniteError,
  type ResidualFunction,
  rjacInvCoefficientsSO3,
} from '@geomech/core';
import { DEXP_C_SERIES, DEXP_SERIES_ANGLE } from './so3Dexp.js';

// Layout of the scratch array (offsets).
/** 𝕀 = diag(I1, I2, I3). */
const IN = 0;
/** The signed step s (+h: F⁺, −h: F⁻). */
const S = 3;
/** The Newton target F⁺(ξ_k). */
const TGT = 4;
/** The point ξ the residual or Jacobian is evaluated at. */
const X = 7;
/** F(ξ) or P_s(ξ). */
const F = 10;
/** The Jacobian (3×3 row-major). */
const J = 22;
/** dτ⁻¹ at x = sξ (3×3 row-major). */
const M = 31;
/** w = 𝕀ξ. */
const W = 40;
/** D(sξ, w) (3×3 row-major). */
const D = 43;
/** The Hessian ∇²l = 𝕀 as a 3×3 matrix (constant). */
const H = 52;
/** x = sξ. */
const XS = 61;
/**
 * (a, b, c) of dτ⁻¹_x = a·I + b·x̂ + c·xxᵀ (core's axisForm3Coef): (1, ½, ¼) for Cayley (core's
 * dcayInv), written once; core's rjacInvCoefficientsSO3(x) for exp, written per evaluation.
 */
const CO = 64;
const SIZE = 67;

/**
 * The Newton solve of (6.1-e) for the free rigid body with diagonal inertia (spec 003 §8.1): from
 * ξ_k finds ξ_{k+1} with (dτ⁻¹_{−hξ_{k+1}})ᵀ𝕀ξ_{k+1} = (dτ⁻¹_{hξ_k})ᵀ𝕀ξ_k, starting at ξ_k, with
 * the analytic Jacobian, by core's `NewtonSolver` (tol on ‖F‖∞, 4ε step test, backtracking Armijo
 * line search, κ₁ test). Allocates nothing per solve. Internal to the package (not exported from
 * its index): users reach it through `RigidBodyStepper` and `simulateRigidBody`, whose examples
 * run it, e.g. `new RigidBodyNewton(Float64Array.of(1, 2, 3), 0.1, 'cayley', 1e-14, 50).solve(xi,
 * next, 1)` takes 3 iterations from ξ = (0.8, −0.5, 0.3).
 */
export class RigidBodyNewton {
  /** Newton iterations (Jacobian solves) of the last {@link solve}. */
  iterations = 0;
  /** ‖F‖∞ at the returned point of the last {@link solve}. */
  residualNorm = Number.NaN;
  private readonly sc = new Float64Array(SIZE);
  private readonly exp: number;
  private readonly h: number;
  private readonly newton: NewtonSolver;
  private readonly xi0 = new Float64Array(3);
  private readonly residualFn: ResidualFunction;
  private readonly jacobianFn: JacobianFunction;

  constructor(
    inertia: Float64Array,
    h: number,
    map: 'cayley' | 'exp',
    tol: number,
    maxIterations: number,
  ) {
    if (!(tol >= 0)) throw new DomainError('RigidBodyNewton: tol', tol, 'must be ≥ 0');
    if (!Number.isInteger(maxIterations) || maxIterations < 0) {
      throw new DomainError(
        'RigidBodyNewton: maxIterations',
        maxIterations,
        'must be an integer ≥ 0',
      );
    }
    const { sc } = this;
    for (let i = 0; i < 3; i++) {
      sc[IN + i] = inertia[i]!;
      sc[H + 4 * i] = inertia[i]!;
    }
    const exp = map === 'exp' ? 1 : 0;
    this.exp = exp;
    // dcay⁻¹_x = I + x̂/2 + xxᵀ/4 (core's dcayInv); exp overwrites these per evaluation
    sc[CO] = 1;
    sc[CO + 1] = 0.5;
    sc[CO + 2] = 0.25;
    this.h = h;
    this.newton = new NewtonSolver(3, {
      tol,
      maxIterations,
      lineSearch: true,
      throwOnFailure: true,
    });
    // F(ξ) = P_{−h}(ξ) − F⁺(ξ_k) and its Jacobian ∂P_{−h}/∂ξ (sc[S] = −h during a solve)
    this.residualFn = (out, x) => {
      sc[X] = x[0]!;
      sc[X + 1] = x[1]!;
      sc[X + 2] = x[2]!;
      pullback(sc, F, X, exp, 1);
      out[0] = sc[F]!;
      out[1] = sc[F + 1]!;
      out[2] = sc[F + 2]!;
    };
    this.jacobianFn = (out, x) => {
      sc[X] = x[0]!;
      sc[X + 1] = x[1]!;
      sc[X + 2] = x[2]!;
      jacobianAt(sc, X, exp);
      for (let i = 0; i < 9; i++) out[i] = sc[J + i]!;
    };
  }

  /** The exact κ₁ of the last Jacobian factorized (core `NewtonSolver.lastCondition`). */
  get lastCondition(): number {
    return this.newton.lastCondition;
  }

  /** out ← P_s(ξ) = (dτ⁻¹_{sξ})ᵀ𝕀ξ (F⁺ for s = h, F⁻ for s = −h). */
  momentum(out: Float64Array, xi: ArrayLike<number>, s: number): Float64Array {
    const { sc } = this;
    sc[S] = s;
    for (let i = 0; i < 3; i++) sc[X + i] = xi[i]!;
    pullback(sc, F, X, this.exp, 0);
    for (let i = 0; i < 3; i++) out[i] = sc[F + i]!;
    return out;
  }

  /** out (3×3 row-major) ← ∂P_s/∂ξ = (dτ⁻¹_{sξ})ᵀ𝕀 + s·D(sξ, 𝕀ξ), the Newton Jacobian (s = −h). */
  jacobian(out: Float64Array, xi: ArrayLike<number>, s: number): Float64Array {
    const { sc } = this;
    sc[S] = s;
    for (let i = 0; i < 3; i++) sc[X + i] = xi[i]!;
    jacobianAt(sc, X, this.exp);
    for (let i = 0; i < 9; i++) out[i] = sc[J + i]!;
    return out;
  }

  /**
   * outXi ← ξ_{k+1} from xiK = ξ_k (may alias). Sets {@link iterations} and {@link residualNorm}.
   * @throws NonFiniteError for a non-finite ξ_k or residual at it; SingularJacobianError;
   *   NewtonDivergedError (naming `step`) when Newton does not converge.
   */
  solve(xiK: ArrayLike<number>, outXi: Float64Array, step: number): void {
    const { sc, exp, xi0 } = this;
    for (let i = 0; i < 3; i++) {
      const v = xiK[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('stepLP: xi', i);
      xi0[i] = v;
      sc[X + i] = v;
    }
    // target F⁺(ξ_k), then F(ξ) = F⁻(ξ) − target from ξ = ξ_k
    sc[S] = this.h;
    pullback(sc, TGT, X, exp, 0);
    sc[S] = -this.h;
    const r = this.newton.solve(this.residualFn, this.jacobianFn, xi0, step);
    this.iterations = r.iterations;
    this.residualNorm = r.residualNorm;
    const x = r.x;
    outXi[0] = x[0]!;
    outXi[1] = x[1]!;
    outXi[2] = x[2]!;
  }
}

/**
 * sc[XS..] ← s·ξ, sc[W..] ← 𝕀ξ for ξ = sc[v..v+3), and sc[M..] ← dτ⁻¹_{sξ} = core's
 * axisForm3Coef(sξ, sc[CO..]), the coefficients of dcay⁻¹ or of SO3.rjacInv
 * (rjacInvCoefficientsSO3): the operations of core's dcayInv / SO3.rjacInv, bit for bit.
 */
function prepare(sc: Float64Array, v: number, exp: number): void {
  const s = sc[S]!;
  const v0 = sc[v]!;
  const v1 = sc[v + 1]!;
  const v2 = sc[v + 2]!;
  // ∇l(ξ) = 𝕀ξ (rigidBodyData's dl)
  sc[W] = sc[IN]! * v0;
  sc[W + 1] = sc[IN + 1]! * v1;
  sc[W + 2] = sc[IN + 2]! * v2;
  sc[XS] = s * v0;
  sc[XS + 1] = s * v1;
  sc[XS + 2] = s * v2;
  if (exp !== 0) rjacInvCoefficientsSO3(sc, sc, CO, XS);
  axisForm3Coef(sc, sc, sc, M, XS, CO);
}

/**
 * sc[o..o+3) ← Mᵀw − sub·target with w = 𝕀ξ, M = dτ⁻¹_{sξ} = axisForm3(sξ, a, b, c) on locals
 * (the operations of {@link prepare} and mulTransposeVec, Σ_k M_ki w_k from 0 in k order), with
 * (a, b, c) from sc[CO..] as in {@link prepare}.
 */
function pullback(sc: Float64Array, o: number, v: number, exp: number, sub: number): void {
  const s = sc[S]!;
  const v0 = sc[v]!;
  const v1 = sc[v + 1]!;
  const v2 = sc[v + 2]!;
  const w0 = sc[IN]! * v0;
  const w1 = sc[IN + 1]! * v1;
  const w2 = sc[IN + 2]! * v2;
  const x0 = s * v0;
  const x1 = s * v1;
  const x2 = s * v2;
  if (exp !== 0) {
    sc[XS] = x0;
    sc[XS + 1] = x1;
    sc[XS + 2] = x2;
    rjacInvCoefficientsSO3(sc, sc, CO, XS);
  }
  const a = sc[CO]!;
  const b = sc[CO + 1]!;
  const c = sc[CO + 2]!;
  const cx0 = c * x0;
  const cx1 = c * x1;
  const cx2 = c * x2;
  const m0 = a + cx0 * x0;
  const m1 = cx0 * x1 - b * x2;
  const m2 = cx0 * x2 + b * x1;
  const m3 = cx1 * x0 + b * x2;
  const m4 = a + cx1 * x1;
  const m5 = cx1 * x2 - b * x0;
  const m6 = cx2 * x0 - b * x1;
  const m7 = cx2 * x1 + b * x0;
  const m8 = a + cx2 * x2;
  const p0 = 0 + m0 * w0 + m3 * w1 + m6 * w2;
  const p1 = 0 + m1 * w0 + m4 * w1 + m7 * w2;
  const p2 = 0 + m2 * w0 + m5 * w1 + m8 * w2;
  if (sub === 0) {
    sc[o] = p0;
    sc[o + 1] = p1;
    sc[o + 2] = p2;
  } else {
    sc[o] = p0 - sc[TGT]!;
    sc[o + 1] = p1 - sc[TGT + 1]!;
    sc[o + 2] = p2 - sc[TGT + 2]!;
  }
}

/**
 * sc[J..] ← (dτ⁻¹_{sξ})ᵀ∇²l + s·D(sξ, 𝕀ξ) (LiePoissonKernel.momentumJacobianAtStep), with D in
 * closed form (LiePoissonKernel.dtauInvTransposeDerivative): Cayley D = ŵ/2 + (x·w)/4·I + xwᵀ/4;
 * exp D = ŵ/2 + 2c'(|x|²)(x(x·w) − |x|²w)xᵀ + c(|x|²)((x·w)I + xwᵀ − 2wxᵀ).
 */
function jacobianAt(sc: Float64Array, v: number, exp: number): void {
  prepare(sc, v, exp);
  const s = sc[S]!;
  const x0 = sc[XS]!;
  const x1 = sc[XS + 1]!;
  const x2 = sc[XS + 2]!;
  const w0 = sc[W]!;
  const w1 = sc[W + 1]!;
  const w2 = sc[W + 2]!;
  const xw = x0 * w0 + x1 * w1 + x2 * w2;
  sc[D] = 0;
  sc[D + 1] = -0.5 * w2;
  sc[D + 2] = 0.5 * w1;
  sc[D + 3] = 0.5 * w2;
  sc[D + 4] = 0;
  sc[D + 5] = -0.5 * w0;
  sc[D + 6] = -0.5 * w1;
  sc[D + 7] = 0.5 * w0;
  sc[D + 8] = 0;
  if (exp === 0) {
    for (let i = 0; i < 3; i++) {
      const xi = sc[XS + i]!;
      for (let j = 0; j < 3; j++) sc[D + i * 3 + j] = sc[D + i * 3 + j]! + 0.25 * xi * sc[W + j]!;
      sc[D + i * 4] = sc[D + i * 4]! + 0.25 * xw;
    }
  } else {
    const s2 = x0 * x0 + x1 * x1 + x2 * x2;
    // c(s2), c'(s2) as so3Dexp's dexpCoefficients
    let c = 0;
    let dc = 0;
    const theta = Math.sqrt(s2);
    if (theta < DEXP_SERIES_ANGLE) {
      for (let j = DEXP_C_SERIES.length - 1; j >= 0; j--) {
        c = c * s2 + DEXP_C_SERIES[j]!;
        if (j > 0) dc = dc * s2 + j * DEXP_C_SERIES[j]!;
      }
    } else {
      const u = theta / 2;
      const ucot = u / Math.tan(u);
      const sn = Math.sin(u);
      c = (1 - ucot) / s2;
      dc = (ucot + (u * u) / (sn * sn) - 2) / (32 * u * u * u * u);
    }
    const dc2 = 2 * dc;
    for (let i = 0; i < 3; i++) {
      const xi = sc[XS + i]!;
      const wi = sc[W + i]!;
      const vi = xi * xw - s2 * wi;
      for (let j = 0; j < 3; j++) {
        const xj = sc[XS + j]!;
        sc[D + i * 3 + j] =
          sc[D + i * 3 + j]! + dc2 * vi * xj + c * (xi * sc[W + j]! - 2 * wi * xj);
      }
      sc[D + i * 4] = sc[D + i * 4]! + c * xw;
    }
  }
  // (dτ⁻¹)ᵀ∇²l with ∇²l = 𝕀 diagonal: Σ_k M_ki H_kj = 0 + M_ji·I_j exactly (the other two terms
  // are ±0 products, which change neither a nonzero sum nor the +0 of a zero one)
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const acc = 0 + sc[M + j * 3 + i]! * sc[H + j * 4]!;
      sc[J + i * 3 + j] = acc + s * sc[D + i * 3 + j]!;
    }
  }
}
