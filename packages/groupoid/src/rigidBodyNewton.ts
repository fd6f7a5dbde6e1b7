/**
 * The Newton solve of one free-rigid-body Lie–Poisson step (spec 003 §8.1, S3) on flat scratch:
 * the residual, the analytic 3×3 Jacobian, a 3×3 LU and the stopping rule of core's
 * `NewtonSolver` with `lineSearch: true`, written out for 𝕀 = diag(I1, I2, I3) and τ = Cayley or
 * exp so that the step allocates nothing and makes no calls through closures. Internal: used by
 * `RigidBodyStepper`, not re-exported from the package index.
 *
 * Every formula is the one of {@link LiePoissonKernel} with the same operations in the same order,
 * so the iterates are bit-identical to `LieGroupOCP.stepLP` (tested in `rigidBodyNewton.test.ts`):
 *
 *   P_s(ξ) = (dτ⁻¹_{sξ})ᵀ 𝕀ξ,   ∂P_s/∂ξ = (dτ⁻¹_{sξ})ᵀ 𝕀 + s·D(sξ, 𝕀ξ),
 *
 * with dcay⁻¹_x = I + x̂/2 + xxᵀ/4 and dexp⁻¹_x = J_r⁻¹(x) (core's `dcayInv`, `SO3.rjacInv`) and
 * D(x, w) = ∂/∂x[(dτ⁻¹_x)ᵀ w] as in `LiePoissonKernel.dtauInvTransposeDerivative`. The one
 * departure from `NewtonSolver`: the singularity test uses the exact κ₁(J) = ‖J‖₁‖J⁻¹‖₁ of the
 * 3×3 Jacobian (from its cofactors) instead of the LAPACK-style estimate (a lower bound of it), with
 * the same bound 1/ε; it changes no iterate.
 *
 * @module
 */
import {
  ARMIJO_CONSTANT,
  DomainError,
  MIN_LINE_SEARCH_STEP,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NonFiniteError,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
  SMALL_ANGLE,
} from '@geomech/core';
import { DEXP_C_SERIES, DEXP_SERIES_ANGLE } from './so3Dexp.js';

// Layout of the scratch array (offsets).
/** 𝕀 = diag(I1, I2, I3). */
const IN = 0;
/** The signed step s (+h: F⁺, −h: F⁻). */
const S = 3;
/** The Newton target F⁺(ξ_k). */
const TGT = 4;
/** The iterate ξ. */
const X = 7;
/** F(ξ). */
const F = 10;
/** Line-search trial point and its residual. */
const XT = 13;
const FT = 16;
/** The Newton step Δξ. */
const DX = 19;
/** The Jacobian, then its LU factors (3×3 row-major). */
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
/** A copy of J for the condition number. */
const AJ = 64;
/** Scalar hand-offs between the helpers (no boxed double returns). */
const OUT = 73;
const SIZE = 74;

/**
 * The Newton solve of (6.1-e) for the free rigid body with diagonal inertia (spec 003 §8.1): from
 * ξ_k finds ξ_{k+1} with (dτ⁻¹_{−hξ_{k+1}})ᵀ𝕀ξ_{k+1} = (dτ⁻¹_{hξ_k})ᵀ𝕀ξ_k, starting at ξ_k, with
 * the analytic Jacobian and the stopping rule of core's `NewtonSolver` (tol on ‖F‖∞, 4ε step test,
 * backtracking Armijo line search). Allocates nothing per solve. Internal to the package (not
 * exported from its index): users reach it through `RigidBodyStepper` and `simulateRigidBody`,
 * whose examples run it, e.g. `new RigidBodyNewton(Float64Array.of(1, 2, 3), 0.1, 'cayley',
 * 1e-14, 50).solve(xi, next, 1)` takes 3 iterations from ξ = (0.8, −0.5, 0.3).
 */
export class RigidBodyNewton {
  /** Newton iterations (Jacobian solves) of the last {@link solve}. */
  iterations = 0;
  /** ‖F‖∞ at the returned point of the last {@link solve}. */
  residualNorm = Number.NaN;
  /** The exact κ₁ of the last Jacobian factorized. */
  lastCondition = Number.NaN;
  private readonly sc = new Float64Array(SIZE);
  private readonly piv = new Int32Array(3);
  private readonly exp: number;
  private readonly h: number;
  private readonly tol: number;
  private readonly maxIterations: number;

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
    this.exp = map === 'exp' ? 1 : 0;
    this.h = h;
    this.tol = tol;
    this.maxIterations = maxIterations;
  }

  /** out ← P_s(ξ) = (dτ⁻¹_{sξ})ᵀ𝕀ξ (F⁺ for s = h, F⁻ for s = −h). */
  momentum(out: Float64Array, xi: ArrayLike<number>, s: number): Float64Array {
    const { sc } = this;
    sc[S] = s;
    for (let i = 0; i < 3; i++) sc[XT + i] = xi[i]!;
    momentumAt(sc, FT, XT, this.exp);
    for (let i = 0; i < 3; i++) out[i] = sc[FT + i]!;
    return out;
  }

  /** out (3×3 row-major) ← ∂P_s/∂ξ = (dτ⁻¹_{sξ})ᵀ𝕀 + s·D(sξ, 𝕀ξ), the Newton Jacobian (s = −h). */
  jacobian(out: Float64Array, xi: ArrayLike<number>, s: number): Float64Array {
    const { sc } = this;
    sc[S] = s;
    for (let i = 0; i < 3; i++) sc[XT + i] = xi[i]!;
    jacobianAt(sc, XT, this.exp);
    for (let i = 0; i < 9; i++) out[i] = sc[J + i]!;
    return out;
  }

  /**
   * outXi ← ξ_{k+1} from xiK = ξ_k (may alias). Sets {@link iterations} and {@link residualNorm}.
   * @throws NonFiniteError for a non-finite ξ_k or residual at it; SingularJacobianError;
   *   NewtonDivergedError (naming `step`) when Newton does not converge.
   */
  solve(xiK: ArrayLike<number>, outXi: Float64Array, step: number): void {
    const { sc, exp, maxIterations } = this;
    const tol = this.tol;
    for (let i = 0; i < 3; i++) {
      const v = xiK[i]!;
      if (!Number.isFinite(v)) throw new NonFiniteError('stepLP: xi', i);
      sc[X + i] = v;
    }
    // target F⁺(ξ_k), then F(ξ) = F⁻(ξ) − target from ξ = ξ_k
    sc[S] = this.h;
    momentumAt(sc, TGT, X, exp);
    sc[S] = -this.h;
    residualAt(sc, F, X, exp);
    normInf3(sc, F);
    let r = sc[OUT]!;
    if (!Number.isFinite(r)) throw new NonFiniteError('newton: F(x0)', firstNonFinite(sc, F));
    normInf3(sc, X);
    let xNorm = sc[OUT]!;
    let k = 0;
    let reason = 0; // 0 residual, 1 step, 2 maxIterations, 3 lineSearch
    for (;;) {
      if (r <= tol) break;
      if (k >= maxIterations) {
        reason = 2;
        break;
      }
      jacobianAt(sc, X, exp);
      this.factorJacobian(k, step);
      for (let i = 0; i < 3; i++) sc[DX + i] = -sc[F + i]!;
      solveLU(sc, this.piv);
      k++;
      normInf3(sc, DX);
      const dxNorm = sc[OUT]!;
      if (!Number.isFinite(dxNorm)) throw diverged(k, r, step, 'produced a non-finite step');
      const smallStep = NEWTON_DEFAULT_STEP_TOL * Math.max(1, xNorm) >= dxNorm;
      if (smallStep) {
        for (let i = 0; i < 3; i++) sc[X + i] = sc[X + i]! + sc[DX + i]!;
        normInf3(sc, X);
        xNorm = sc[OUT]!;
        if (!Number.isFinite(xNorm)) throw diverged(k, r, step, 'produced a non-finite iterate');
        residualAt(sc, F, X, exp);
        normInf3(sc, F);
        r = sc[OUT]!;
        if (!Number.isFinite(r)) throw diverged(k, r, step, 'produced a non-finite residual');
        if (r > tol) {
          reason = 1;
          break;
        }
        continue;
      }
      // backtracking on φ = ½‖F‖₂² compared as norms (NewtonSolver.solve)
      norm2Finite(sc, F);
      const phiNorm = sc[OUT]!;
      let lambda = 1;
      let accepted = false;
      while (lambda >= MIN_LINE_SEARCH_STEP) {
        for (let i = 0; i < 3; i++) sc[XT + i] = sc[X + i]! + lambda * sc[DX + i]!;
        if (allFinite3(sc, XT)) {
          residualAt(sc, FT, XT, exp);
          norm2Finite(sc, FT);
          if (sc[OUT]! <= Math.sqrt(1 - 2 * ARMIJO_CONSTANT * lambda) * phiNorm) {
            accepted = true;
            break;
          }
        }
        lambda *= 0.5;
      }
      if (!accepted) {
        reason = 3;
        break;
      }
      for (let i = 0; i < 3; i++) {
        sc[X + i] = sc[XT + i]!;
        sc[F + i] = sc[FT + i]!;
      }
      normInf3(sc, X);
      xNorm = sc[OUT]!;
      normInf3(sc, F);
      r = sc[OUT]!;
    }
    this.iterations = k;
    this.residualNorm = r;
    if (reason >= 2) {
      throw new NewtonDivergedError(k, r, step, reason === 2 ? '(maxIterations)' : '(lineSearch)');
    }
    for (let i = 0; i < 3; i++) outXi[i] = sc[X + i]!;
  }

  /** LU of sc[J] in place (partial pivoting, core's `luFactorInPlace` order) and the κ₁ test. */
  private factorJacobian(k: number, step: number): void {
    const { sc, piv } = this;
    let z = 0;
    for (let i = 0; i < 9; i++) {
      const v = sc[J + i]!;
      sc[AJ + i] = v;
      z += v - v;
    }
    if (z !== 0) throw new NonFiniteError('newton: J(x)', firstNonFinite(sc, J));
    let singular = false;
    for (let c = 0; c < 3; c++) {
      let p = c;
      let maxAbs = Math.abs(sc[J + c * 3 + c]!);
      for (let i = c + 1; i < 3; i++) {
        const v = Math.abs(sc[J + i * 3 + c]!);
        if (v > maxAbs) {
          maxAbs = v;
          p = i;
        }
      }
      piv[c] = p;
      if (maxAbs === 0 || Number.isNaN(maxAbs)) {
        singular = true;
        continue;
      }
      const rk = J + c * 3;
      if (p !== c) {
        const rp = J + p * 3;
        for (let j = 0; j < 3; j++) {
          const t = sc[rk + j]!;
          sc[rk + j] = sc[rp + j]!;
          sc[rp + j] = t;
        }
      }
      const pivot = sc[rk + c]!;
      for (let i = c + 1; i < 3; i++) {
        const ri = J + i * 3;
        const l = sc[ri + c]! / pivot;
        sc[ri + c] = l;
        if (l !== 0) for (let j = c + 1; j < 3; j++) sc[ri + j] = sc[ri + j]! - l * sc[rk + j]!;
      }
    }
    if (singular) {
      this.lastCondition = Number.POSITIVE_INFINITY;
      throw new SingularJacobianError(k, Number.POSITIVE_INFINITY, step);
    }
    condition1(sc);
    const cond = sc[OUT]!;
    this.lastCondition = cond;
    if (!(cond < SINGULAR_JACOBIAN_CONDITION)) throw new SingularJacobianError(k, cond, step);
  }
}

function diverged(k: number, r: number, step: number, reason: string): NewtonDivergedError {
  return new NewtonDivergedError(k, r, step, reason);
}

/** sc[XS..] ← s·ξ, sc[W..] ← 𝕀ξ for ξ = sc[v..v+3), and sc[M..] ← dτ⁻¹_{sξ} (core's axisForm3). */
function prepare(sc: Float64Array, v: number, exp: number): void {
  const s = sc[S]!;
  const v0 = sc[v]!;
  const v1 = sc[v + 1]!;
  const v2 = sc[v + 2]!;
  // ∇l(ξ) = 𝕀ξ (rigidBodyData's dl)
  sc[W] = sc[IN]! * v0;
  sc[W + 1] = sc[IN + 1]! * v1;
  sc[W + 2] = sc[IN + 2]! * v2;
  const x0 = s * v0;
  const x1 = s * v1;
  const x2 = s * v2;
  sc[XS] = x0;
  sc[XS + 1] = x1;
  sc[XS + 2] = x2;
  // dcay⁻¹_x = axisForm3(x, 1, ½, ¼); dexp⁻¹_x = SO3.rjacInv(x) = axisForm3(x, halfCot θ, ½, c(θ))
  let a = 1;
  let c = 0.25;
  if (exp !== 0) {
    const t = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    if (t < SMALL_ANGLE) {
      const t2 = t * t;
      a = 1 - (t2 / 12) * (1 + t2 / 60);
      c = 1 / 12 + (t2 / 720) * (1 + t2 / 42);
    } else {
      const hh = 0.5 * t;
      a = (hh * Math.cos(hh)) / Math.sin(hh);
      c = (1 - a) / (t * t);
    }
  }
  const b = 0.5;
  const cx0 = c * x0;
  const cx1 = c * x1;
  const cx2 = c * x2;
  sc[M] = a + cx0 * x0;
  sc[M + 1] = cx0 * x1 - b * x2;
  sc[M + 2] = cx0 * x2 + b * x1;
  sc[M + 3] = cx1 * x0 + b * x2;
  sc[M + 4] = a + cx1 * x1;
  sc[M + 5] = cx1 * x2 - b * x0;
  sc[M + 6] = cx2 * x0 - b * x1;
  sc[M + 7] = cx2 * x1 + b * x0;
  sc[M + 8] = a + cx2 * x2;
}

/** sc[o..o+3) ← (dτ⁻¹_{sξ})ᵀ𝕀ξ, ξ = sc[v..v+3) (LiePoissonKernel.momentumAtStep). */
function momentumAt(sc: Float64Array, o: number, v: number, exp: number): void {
  pullback(sc, o, v, exp, 0);
}

/** sc[o..o+3) ← P_s(ξ) − target (LieGroupOCP's residual). */
function residualAt(sc: Float64Array, o: number, v: number, exp: number): void {
  pullback(sc, o, v, exp, 1);
}

/**
 * sc[o..o+3) ← Mᵀw − sub·target with w = 𝕀ξ, M = dτ⁻¹_{sξ} = axisForm3(sξ, a, ½, c), on locals
 * (the operations of {@link prepare} and mulTransposeVec, Σ_k M_ki w_k from 0 in k order).
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
  let a = 1;
  let c = 0.25;
  if (exp !== 0) {
    const t = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    if (t < SMALL_ANGLE) {
      const t2 = t * t;
      a = 1 - (t2 / 12) * (1 + t2 / 60);
      c = 1 / 12 + (t2 / 720) * (1 + t2 / 42);
    } else {
      const hh = 0.5 * t;
      a = (hh * Math.cos(hh)) / Math.sin(hh);
      c = (1 - a) / (t * t);
    }
  }
  const b = 0.5;
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

/** sc[DX..] ← the solution of LU·x = sc[DX..] (core's `luSolveInPlace` order). */
function solveLU(sc: Float64Array, piv: Int32Array): void {
  for (let k = 0; k < 3; k++) {
    const p = piv[k]!;
    if (p !== k) {
      const t = sc[DX + k]!;
      sc[DX + k] = sc[DX + p]!;
      sc[DX + p] = t;
    }
  }
  for (let i = 1; i < 3; i++) {
    let s = sc[DX + i]!;
    for (let j = 0; j < i; j++) s -= sc[J + i * 3 + j]! * sc[DX + j]!;
    sc[DX + i] = s;
  }
  for (let i = 2; i >= 0; i--) {
    let s = sc[DX + i]!;
    for (let j = i + 1; j < 3; j++) s -= sc[J + i * 3 + j]! * sc[DX + j]!;
    sc[DX + i] = s / sc[J + i * 4]!;
  }
}

/** sc[OUT] ← κ₁(A) = ‖A‖₁‖A⁻¹‖₁ of A = sc[AJ..] from its cofactors (A⁻¹ = adj A / det A). */
function condition1(sc: Float64Array): void {
  const a = sc[AJ]!;
  const b = sc[AJ + 1]!;
  const c = sc[AJ + 2]!;
  const d = sc[AJ + 3]!;
  const e = sc[AJ + 4]!;
  const f = sc[AJ + 5]!;
  const g = sc[AJ + 6]!;
  const h = sc[AJ + 7]!;
  const i = sc[AJ + 8]!;
  // cofactors C_rc; column j of A⁻¹ is row j of the cofactor matrix over det
  const c00 = e * i - f * h;
  const c01 = f * g - d * i;
  const c02 = d * h - e * g;
  const c10 = c * h - b * i;
  const c11 = a * i - c * g;
  const c12 = b * g - a * h;
  const c20 = b * f - c * e;
  const c21 = c * d - a * f;
  const c22 = a * e - b * d;
  const det = a * c00 + b * c01 + c * c02;
  const n1 = Math.max(
    Math.abs(a) + Math.abs(d) + Math.abs(g),
    Math.abs(b) + Math.abs(e) + Math.abs(h),
    Math.abs(c) + Math.abs(f) + Math.abs(i),
  );
  const inv1 = Math.max(
    Math.abs(c00) + Math.abs(c01) + Math.abs(c02),
    Math.abs(c10) + Math.abs(c11) + Math.abs(c12),
    Math.abs(c20) + Math.abs(c21) + Math.abs(c22),
  );
  sc[OUT] = det === 0 ? Number.POSITIVE_INFINITY : (n1 * inv1) / Math.abs(det);
}

/** sc[OUT] ← max |sc[o + i]|, i < 3, NaN when one is NaN (core's normInf). */
function normInf3(sc: Float64Array, o: number): void {
  let m = 0;
  for (let i = 0; i < 3; i++) {
    const v = Math.abs(sc[o + i]!);
    if (!(v <= m)) m = v;
  }
  sc[OUT] = m;
}

/** sc[OUT] ← ‖sc[o..o+3)‖₂ (core's scaled norm2), NaN when an entry is not finite. */
function norm2Finite(sc: Float64Array, o: number): void {
  const v0 = sc[o]!;
  const v1 = sc[o + 1]!;
  const v2 = sc[o + 2]!;
  // v − v is 0 for finite v and NaN otherwise
  if (v0 - v0 + (v1 - v1) + (v2 - v2) !== 0) {
    sc[OUT] = Number.NaN;
    return;
  }
  let scale = 0;
  for (let i = 0; i < 3; i++) {
    const v = Math.abs(sc[o + i]!);
    if (!(v <= scale)) scale = v;
  }
  if (scale === 0) {
    sc[OUT] = 0;
    return;
  }
  let s = 0;
  for (let i = 0; i < 3; i++) {
    const v = sc[o + i]! / scale;
    s += v * v;
  }
  sc[OUT] = scale * Math.sqrt(s);
}

/** True when sc[o..o+3) are all finite (core's allFinite). */
function allFinite3(sc: Float64Array, o: number): boolean {
  const v0 = sc[o]!;
  const v1 = sc[o + 1]!;
  const v2 = sc[o + 2]!;
  return v0 - v0 + (v1 - v1) + (v2 - v2) === 0;
}

function firstNonFinite(sc: Float64Array, o: number): number {
  for (let i = 0; i < 3; i++) if (!Number.isFinite(sc[o + i]!)) return i;
  return -1;
}
