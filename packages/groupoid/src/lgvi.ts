/**
 * Lie-group variational integrators (LGVI) of Lee, Leok and McClamroch for a rigid body in a
 * configuration-dependent potential with control inputs, written on the pair groupoid SO(3) × SO(3)
 * ⇒ SO(3) ({@link LieGroupPairGroupoid}) and, for a rigid body that also translates (a quadrotor),
 * on the pair groupoid of SO(3) × R³.
 *
 * References: T. Lee, M. Leok, N. H. McClamroch, "Lie group variational integrators for the full
 * body problem", Comput. Methods Appl. Mech. Engrg. 196 (2007) 2907–2924, and "A Lie group
 * variational integrator for the attitude dynamics of a rigid body with applications to the 3D
 * pendulum", Proc. IEEE CCA 2005 (the trapezoidal-potential form used here). Equation labels (L1)–(L6)
 * below are ours; each is derived in its doc comment from the discrete Lagrangian, so it can be
 * checked without the paper.
 *
 * The discrete Lagrangian on the pair groupoid (F = R₀ᵀR₁, J_d = ½tr(J)I − J the nonstandard
 * inertia, J = diag(I₁, I₂, I₃)):
 *
 *   (L1)  L_d(R₀, R₁) = (1/h)·tr((I − F)J_d) − (h/2)·(U(R₀) + U(R₁)).
 *
 * Its left-trivialized partials (D_iL_d·δ = d/ds L_d(…, R_i·Exp(sδ), …), tr(x̂B) = −x·vee(B − Bᵀ)),
 * with the moment M(R) = −(left-trivialized gradient of U):
 *
 *   (L2)  D₁L_d = −(1/h)·vee(FJ_d − J_dFᵀ) + (h/2)·M(R₀),
 *   (L3)  D₂L_d = (1/h)·vee(J_dF − FᵀJ_d) + (h/2)·M(R₁).
 *
 * The discrete Lagrange–d'Alembert principle with the control torque u_k held constant on
 * [t_k, t_{k+1}] (f_d⁻ = f_d⁺ = (h/2)·u_k) and the momenta of the pair groupoid
 * (Π_k = →e[L_d] − f_d⁻ = −D₁L_d − f_d⁻, Π_{k+1} = ←e[L_d] + f_d⁺ = D₂L_d + f_d⁺) give LLM's
 * equations with the trapezoidal potential:
 *
 *   (L4)  h·(Π_k + (h/2)(M_k + u_k))^ = F_kJ_d − J_dF_kᵀ,
 *   (L5)  R_{k+1} = R_kF_k,
 *   (L6)  Π_{k+1} = F_kᵀ·(Π_k + (h/2)(M_k + u_k)) + (h/2)(M_{k+1} + u_k),
 *
 * (L6) being (L3) + f_d⁺ rewritten with vee(Fᵀ·x̂·F) = Fᵀx. (L4) is solved for F_k ∈ SO(3) by
 * Newton's method on the group (core `NewtonSolver` with the update F ← F·cay(Δ)), with the
 * analytic right-trivialized Jacobian of r(F) = vee(FJ_d − J_dFᵀ) − h·g:
 *
 *   ∂r/∂δ (F ↦ F·Exp(δ)) = tr(FJ_d)·F − FJ_dF,
 *
 * from Fδ̂J_d + J_dδ̂Fᵀ = ŷA + Aᵀŷ (y = Fδ, A = FJ_d) and x̂A + Aᵀx̂ = ((tr(A)I − A)x)^.
 *
 * @module
 */
import {
  CENTRAL_DIFFERENCE_STEP,
  DenseLU,
  DimensionError,
  DomainError,
  type InputFunction,
  type IntegrateRecordingOptions,
  integrate,
  type MethodTraits,
  methodTraits,
  NewtonSolver,
  type SeriesSpec,
  SingularMatrixError,
  SO3,
  type Solution,
  type Stepper,
} from '@geomech/core';
import { LieGroupPairGroupoid } from './lieGroupPair.js';

/** A potential U(R) on SO(3) with its moment M(R) = −(left-trivialized gradient of U). */
export interface So3Potential {
  /** U(R). */
  value(R: Float64Array): number;
  /**
   * out ← M(R), defined by U(R·Exp(δ)) = U(R) − M(R)·δ + O(δ²) (the body-frame torque of the
   * potential; LLM's M with M^ = ∂U/∂Rᵀ·R − Rᵀ·∂U/∂R). Allocation-free.
   */
  moment(out: Float64Array, R: Float64Array): Float64Array;
  /**
   * out (3×3 row-major) ← ∂M(R·Exp(δ))/∂δ at δ = 0, the moment's derivative in the right-⊕ (body)
   * coordinates of core CONVENTIONS.md; used by the step derivatives (cold path). Optional:
   * central differences of {@link moment} through R·Exp(δ) otherwise.
   */
  momentJacobian?(out: Float64Array, R: Float64Array): Float64Array;
}

function checkVec3(what: string, v: ArrayLike<number>): Float64Array {
  if (v.length !== 3) throw new DimensionError(what, 3, v.length);
  const out = Float64Array.from(v);
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(out[i]!)) throw new DomainError(`${what}[${i}]`, out[i], 'must be finite');
  }
  return out;
}

function checkPositive(what: string, x: number): number {
  if (!(x > 0 && Number.isFinite(x))) throw new DomainError(what, x, 'must be positive and finite');
  return x;
}

/**
 * Uniform gravity on a rigid body pivoted at the origin, z up: U(R) = m·g·e₃·(Rρ), with ρ the
 * centre of mass in the body frame (the heavy top, the 3-D pendulum; LLM write U = −m g ρᵀRᵀe₃ with
 * e₃ pointing down). Moment: U(R·Exp(δ)) = U + m g e₃·R(δ × ρ) = U + m g δ·(ρ × Rᵀe₃), so
 * M(R) = m g·(Rᵀe₃) × ρ (the torque of the weight −m g e₃ applied at ρ).
 *
 * @example
 * ```ts
 * const U = new GravityPotential(1, 9.81, [0, 0, 0.5]);
 * const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
 * U.value(I3); // 4.905 (the centre of mass 0.5 above the pivot)
 * U.moment(new Float64Array(3), I3); // [0, 0, 0]: upright equilibrium
 * ```
 */
export class GravityPotential implements So3Potential {
  /** m·g. */
  readonly weight: number;
  /** ρ, the centre of mass in the body frame. */
  readonly rho: Float64Array;

  constructor(mass: number, gravity: number, rho: ArrayLike<number>) {
    checkPositive('GravityPotential: mass', mass);
    if (!(gravity >= 0 && Number.isFinite(gravity)))
      throw new DomainError('GravityPotential: gravity', gravity, 'must be finite and >= 0');
    this.weight = mass * gravity;
    this.rho = checkVec3('GravityPotential: rho', rho);
  }

  value(R: Float64Array): number {
    const r = this.rho;
    return this.weight * (R[6]! * r[0]! + R[7]! * r[1]! + R[8]! * r[2]!);
  }

  moment(out: Float64Array, R: Float64Array): Float64Array {
    // Rᵀe₃ = third row of R
    const a0 = R[6]!;
    const a1 = R[7]!;
    const a2 = R[8]!;
    const r = this.rho;
    const w = this.weight;
    out[0] = w * (a1 * r[2]! - a2 * r[1]!);
    out[1] = w * (a2 * r[0]! - a0 * r[2]!);
    out[2] = w * (a0 * r[1]! - a1 * r[0]!);
    return out;
  }

  /**
   * out ← ∂M(R·Exp(δ))/∂δ = m g·((ρ·y)I − yρᵀ), y = Rᵀe₃: from (R·Exp(δ))ᵀe₃ = y + y × δ + O(δ²),
   * M = −m g ρ̂y, so δM = −m g ρ̂ŷδ, and ρ̂ŷ = yρᵀ − (ρ·y)I.
   */
  momentJacobian(out: Float64Array, R: Float64Array): Float64Array {
    const y0 = R[6]!;
    const y1 = R[7]!;
    const y2 = R[8]!;
    const r = this.rho;
    const w = this.weight;
    const dot = r[0]! * y0 + r[1]! * y1 + r[2]! * y2;
    for (let i = 0; i < 3; i++) {
      const yi = i === 0 ? y0 : i === 1 ? y1 : y2;
      for (let j = 0; j < 3; j++) out[3 * i + j] = w * ((i === j ? dot : 0) - yi * r[j]!);
    }
    return out;
  }
}

/**
 * The zero potential (free rigid body, or the rotational part of a quadrotor).
 *
 * @example
 * ```ts
 * ZERO_POTENTIAL.moment(new Float64Array(3), Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1)); // [0, 0, 0]
 * ```
 */
export const ZERO_POTENTIAL: So3Potential = Object.freeze({
  value: () => 0,
  moment: (out: Float64Array) => out.fill(0, 0, 3),
  momentJacobian: (out: Float64Array) => out.fill(0, 0, 9),
});

function checkInertia(what: string, inertia: ArrayLike<number>): Float64Array {
  if (inertia.length !== 3) throw new DimensionError(what, 3, inertia.length);
  const I = Float64Array.from(inertia);
  for (let i = 0; i < 3; i++) checkPositive(`${what}[${i}]`, I[i]!);
  return I;
}

/**
 * The LGVI's discrete Lagrangian (L1) on the pair groupoid SO(3) × SO(3) with its analytic
 * left-trivialized partials (L2), (L3). Arrows are 18 numbers `[R₀, R₁]` (row-major).
 *
 * @example
 * ```ts
 * const Ld = new So3DiscreteLagrangian([1, 1, 2], new GravityPotential(1, 9.81, [0, 0, 0.5]), 0.01);
 * const g = Ld.pair.random(new Float64Array(18), Math.random);
 * const p0 = Ld.pair.rightGrad(new Float64Array(3), Ld.d1(new Float64Array(3), g)); // Π at R₀
 * ```
 */
export class So3DiscreteLagrangian {
  /** The pair groupoid SO(3) × SO(3) ⇒ SO(3). */
  readonly pair = new LieGroupPairGroupoid(SO3);
  /** Principal moments J = diag(I₁, I₂, I₃). */
  readonly inertia: Float64Array;
  /** Diagonal of J_d = ½tr(J)I − J. */
  readonly Jd: Float64Array;
  private readonly F = new Float64Array(9);
  private readonly m = new Float64Array(3);
  private readonly R = new Float64Array(9);

  constructor(
    inertia: ArrayLike<number>,
    /** The potential U. */
    readonly potential: So3Potential,
    /** Time step h > 0. */
    readonly h: number,
  ) {
    this.inertia = checkInertia('So3DiscreteLagrangian: inertia', inertia);
    checkPositive('So3DiscreteLagrangian: h', h);
    const I = this.inertia;
    const half = 0.5 * (I[0]! + I[1]! + I[2]!);
    this.Jd = Float64Array.of(half - I[0]!, half - I[1]!, half - I[2]!);
  }

  private between(g: Float64Array): Float64Array {
    if (g.length !== 18) throw new DimensionError('So3DiscreteLagrangian: arrow', 18, g.length);
    const F = this.F;
    // F = R₀ᵀR₁
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        F[3 * i + j] = g[i]! * g[9 + j]! + g[3 + i]! * g[12 + j]! + g[6 + i]! * g[15 + j]!;
      }
    }
    return F;
  }

  /** One end of the arrow, copied into scratch (no subarray views in the hot path). */
  private end(g: Float64Array, off: number): Float64Array {
    const R = this.R;
    for (let i = 0; i < 9; i++) R[i] = g[off + i]!;
    return R;
  }

  /** (L1) L_d(R₀, R₁). */
  value(g: Float64Array): number {
    const F = this.between(g);
    const d = this.Jd;
    const tr = (1 - F[0]!) * d[0]! + (1 - F[4]!) * d[1]! + (1 - F[8]!) * d[2]!;
    const U0 = this.potential.value(this.end(g, 0));
    const U1 = this.potential.value(this.end(g, 9));
    return tr / this.h - 0.5 * this.h * (U0 + U1);
  }

  /** (L2) out ← D₁L_d(R₀, R₁) = −(1/h)vee(FJ_d − J_dFᵀ) + (h/2)M(R₀). */
  d1(out: Float64Array, g: Float64Array): Float64Array {
    const F = this.between(g);
    const d = this.Jd;
    const h = this.h;
    // vee(A − Aᵀ) with A = FJ_d (A_ij = F_ij d_j): (A21 − A12, A02 − A20, A10 − A01)
    const v0 = F[7]! * d[1]! - F[5]! * d[2]!;
    const v1 = F[2]! * d[2]! - F[6]! * d[0]!;
    const v2 = F[3]! * d[0]! - F[1]! * d[1]!;
    const M = this.potential.moment(this.m, this.end(g, 0));
    out[0] = -v0 / h + 0.5 * h * M[0]!;
    out[1] = -v1 / h + 0.5 * h * M[1]!;
    out[2] = -v2 / h + 0.5 * h * M[2]!;
    return out;
  }

  /** (L3) out ← D₂L_d(R₀, R₁) = (1/h)vee(J_dF − FᵀJ_d) + (h/2)M(R₁). */
  d2(out: Float64Array, g: Float64Array): Float64Array {
    const F = this.between(g);
    const d = this.Jd;
    const h = this.h;
    // B = J_dF (B_ij = d_i F_ij): vee(B − Bᵀ) = (B21 − B12, B02 − B20, B10 − B01)
    const v0 = d[2]! * F[7]! - d[1]! * F[5]!;
    const v1 = d[0]! * F[2]! - d[2]! * F[6]!;
    const v2 = d[1]! * F[3]! - d[0]! * F[1]!;
    const M = this.potential.moment(this.m, this.end(g, 9));
    out[0] = v0 / h + 0.5 * h * M[0]!;
    out[1] = v1 / h + 0.5 * h * M[1]!;
    out[2] = v2 / h + 0.5 * h * M[2]!;
    return out;
  }
}

/** Newton options of the LGVI's F-solve. */
export interface LgviNewtonOptions {
  /**
   * Converged when ‖vee(FJ_d − J_dFᵀ) − h·g‖∞ ≤ tol·tr(J) (a relative residual; F is O(1)), or
   * when a full Newton step is below 4ε (core's step test), or when the residual stalls below
   * 1e-14 (core's `stallTol`). Default 2⁻⁵² = ε: the momentum error of a step is
   * tol·tr(J)/h, so the Noether charges are conserved to round-off only with a tolerance at
   * round-off (1e-14 let the symmetric top's Π₃ drift 3e-9 in 1000 steps of h = 0.01).
   */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 20. */
  readonly maxIterations?: number;
}

/**
 * Default relative residual tolerance of the F-solve (see {@link LgviNewtonOptions.tol}): ε = 2⁻⁵².
 *
 * @example
 * ```ts
 * LGVI_NEWTON_TOL === Number.EPSILON; // true
 * ```
 */
export const LGVI_NEWTON_TOL = 2 ** -52;
/** Round-off floor of the F-solve's relative residual (core `NewtonSolver` `stallTol`). */
const LGVI_NEWTON_STALL = 1e-14;

/**
 * The implicit part of the LGVI: solves (L4), vee(FJ_d − J_dFᵀ) = h·g, for F ∈ SO(3) by Newton's
 * method on the group (core {@link NewtonSolver}, update F ← F·cay(Δ), Jacobian tr(FJ_d)F − FJ_dF,
 * `'pivot'` singularity test). Guess: F₀ = cay(hJ⁻¹g), exact to first order
 * (F = I + x̂ gives x̂J_d + J_dx̂ = (Jx)^). Allocation-free.
 *
 * @example
 * ```ts
 * const solver = new So3FSolver([1, 2, 3]);
 * const F = new Float64Array(9);
 * solver.solve(F, Float64Array.of(0.03, -0.02, 0.01)); // F with vee(FJ_d − J_dFᵀ) = (0.03, −0.02, 0.01)
 * ```
 */
export class So3FSolver {
  /** Diagonal of J_d. */
  readonly Jd: Float64Array;
  readonly inertia: Float64Array;
  /** Newton iterations of the last solve. */
  lastIterations = 0;
  /** Scaled residual of the last solve. */
  lastResidual = 0;
  private readonly newton: NewtonSolver;
  private readonly target = new Float64Array(3);
  private readonly guess = new Float64Array(9);
  private readonly x = new Float64Array(3);
  private readonly tol: number;
  private readonly scale: number;
  private readonly F: (out: Float64Array, F: Float64Array) => void;
  private readonly J: (out: Float64Array, F: Float64Array) => void;

  constructor(inertia: ArrayLike<number>, options: LgviNewtonOptions = {}) {
    this.inertia = checkInertia('So3FSolver: inertia', inertia);
    const I = this.inertia;
    const half = 0.5 * (I[0]! + I[1]! + I[2]!);
    const d = Float64Array.of(half - I[0]!, half - I[1]!, half - I[2]!);
    this.Jd = d;
    this.scale = I[0]! + I[1]! + I[2]!;
    const tol = options.tol ?? LGVI_NEWTON_TOL;
    if (!(tol > 0)) throw new DomainError('So3FSolver: tol', tol, 'must be > 0');
    this.tol = tol;
    const inv = 1 / this.scale;
    const target = this.target;
    this.F = (out, F) => {
      out[0] = (F[7]! * d[1]! - F[5]! * d[2]! - target[0]!) * inv;
      out[1] = (F[2]! * d[2]! - F[6]! * d[0]! - target[1]!) * inv;
      out[2] = (F[3]! * d[0]! - F[1]! * d[1]! - target[2]!) * inv;
    };
    this.J = (out, F) => {
      // tr(FJ_d)·F − FJ_dF
      const t = F[0]! * d[0]! + F[4]! * d[1]! + F[8]! * d[2]!;
      for (let i = 0; i < 3; i++) {
        const a = F[3 * i]! * d[0]!;
        const b = F[3 * i + 1]! * d[1]!;
        const c = F[3 * i + 2]! * d[2]!;
        for (let j = 0; j < 3; j++) {
          out[3 * i + j] = (t * F[3 * i + j]! - (a * F[j]! + b * F[3 + j]! + c * F[6 + j]!)) * inv;
        }
      }
    };
    this.newton = new NewtonSolver(3, {
      tol,
      maxIterations: options.maxIterations ?? 20,
      stallTol: LGVI_NEWTON_STALL,
      storageSize: 9,
      retract: cayleyUpdate(),
      conditionCheck: 'pivot',
      throwOnFailure: true,
      what: 'LGVI (L4) F-solve',
    });
  }

  /** The scaled residual (vee(FJ_d − J_dFᵀ) − h·g)/tr(J) of (L4) for the last `solve`'s target. */
  residual(out: Float64Array, F: Float64Array): Float64Array {
    this.F(out, F);
    return out;
  }

  /** The Jacobian of {@link residual} in the chart F·Exp(δ), row-major 3×3. */
  jacobian(out: Float64Array, F: Float64Array): Float64Array {
    this.J(out, F);
    return out;
  }

  /** Sets the right-hand side h·g of (L4) without solving (for checks of residual/jacobian). */
  setTarget(g: ArrayLike<number>, h: number): void {
    for (let i = 0; i < 3; i++) this.target[i] = h * g[i]!;
  }

  /**
   * out ← F solving (L4), vee(FJ_d − J_dFᵀ) = hg, for the right-hand side `hg` = h·g with
   * g = Π_k + (h/2)(M_k + u_k) (the caller multiplies by h: no double crosses a call boundary, so
   * nothing is boxed).
   * @throws NewtonDivergedError (naming step `k`) when Newton fails, e.g. h|Ω| too large.
   * @returns the Newton iterations.
   */
  solve(out: Float64Array, hg: ArrayLike<number>, k?: number): number {
    const { target, guess, inertia: I } = this;
    for (let i = 0; i < 3; i++) {
      target[i] = hg[i]!;
      this.x[i] = hg[i]! / I[i]!;
    }
    cayley(guess, this.x);
    const r = this.newton.solve(this.F, this.J, guess, k);
    out.set(r.x);
    this.lastIterations = r.iterations;
    this.lastResidual = r.residualNorm;
    return r.iterations;
  }

  /** The relative residual tolerance. */
  get tolerance(): number {
    return this.tol;
  }
}

/** out ← cay(x) = (I − x̂/2)⁻¹(I + x̂/2) = I + (4/(4 + |x|²))(x̂ + x̂²/2) (core CONVENTIONS.md). */
function cayley(out: Float64Array, x: Float64Array): void {
  const x0 = x[0]!;
  const x1 = x[1]!;
  const x2 = x[2]!;
  const c = 4 / (4 + x0 * x0 + x1 * x1 + x2 * x2);
  const h = 0.5 * c;
  out[0] = 1 - h * (x1 * x1 + x2 * x2);
  out[1] = c * -x2 + h * x0 * x1;
  out[2] = c * x1 + h * x0 * x2;
  out[3] = c * x2 + h * x0 * x1;
  out[4] = 1 - h * (x0 * x0 + x2 * x2);
  out[5] = c * -x0 + h * x1 * x2;
  out[6] = c * -x1 + h * x0 * x2;
  out[7] = c * x0 + h * x1 * x2;
  out[8] = 1 - h * (x0 * x0 + x1 * x1);
}

/** The Newton update on SO(3), out ← F·cay(Δ) (out may alias F), with its own scratch. */
function cayleyUpdate(): (out: Float64Array, F: Float64Array, dx: Float64Array) => void {
  const C = new Float64Array(9);
  const P = new Float64Array(9);
  return (out, F, dx) => {
    cayley(C, dx);
    for (let i = 0; i < 3; i++) {
      const a = F[3 * i]!;
      const b = F[3 * i + 1]!;
      const c = F[3 * i + 2]!;
      P[3 * i] = a * C[0]! + b * C[3]! + c * C[6]!;
      P[3 * i + 1] = a * C[1]! + b * C[4]! + c * C[7]!;
      P[3 * i + 2] = a * C[2]! + b * C[5]! + c * C[8]!;
    }
    for (let i = 0; i < 9; i++) out[i] = P[i]!;
  };
}

const LGVI_METHOD = methodTraits({
  name: 'lgvi',
  description: 'Lie-group variational integrator (Lee–Leok–McClamroch), trapezoidal potential',
  order: 2,
  isExplicit: false,
  isSymplectic: true,
  isSymmetric: true,
  isVariational: true,
});

/**
 * The LGVI's method traits: name `'lgvi'`, order 2 (measured against DOPRI5 in `lgvi.test.ts`),
 * symplectic, symmetric (L_d(R₀, R₁) = L_d(R₁, R₀)-adjoint: tr((I − F)J_d) = tr((I − Fᵀ)J_d)),
 * variational, implicit.
 *
 * @example
 * ```ts
 * lgviMethod().order; // 2
 * ```
 */
export function lgviMethod(): MethodTraits {
  return LGVI_METHOD;
}

/** The series of an SO(3) LGVI {@link Solution}. */
export type So3LgviField = 'R' | 'pi' | 'omega' | 'energy' | 'spatialMomentum' | 'orthogonality';

const SO3_LGVI_SERIES: readonly SeriesSpec<So3LgviField>[] = Object.freeze([
  { name: 'R', width: 9 },
  { name: 'pi', width: 3 },
  { name: 'omega', width: 3 },
  { name: 'energy', width: 1 },
  { name: 'spatialMomentum', width: 3 },
  { name: 'orthogonality', width: 1 },
]);

/**
 * max |(RᵀR − I)_ij| of the 3×3 matrix stored row-major at `R[off..off+9]`: the distance from
 * orthogonality the LGVI keeps at round-off without re-projection.
 *
 * @example
 * ```ts
 * orthogonalityError([1, 0, 0, 0, 1, 0, 0, 0, 1]); // 0
 * orthogonalityError([2, 0, 0, 0, 1, 0, 0, 0, 1]); // 3
 * ```
 */
export function orthogonalityError(R: ArrayLike<number>, off = 0): number {
  let e = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const s =
        R[off + i]! * R[off + j]! +
        R[off + 3 + i]! * R[off + 3 + j]! +
        R[off + 6 + i]! * R[off + 6 + j]!;
      e = Math.max(e, Math.abs(s - (i === j ? 1 : 0)));
    }
  }
  return e;
}

/** Options of {@link So3LgviStepper}. */
/** Zero inputs for a step called with an input array of the wrong length (no input). */
const NO_INPUT = new Float64Array(4);

/**
 * The SO(3) part of an LGVI step, shared by {@link So3LgviStepper} and {@link QuadrotorLgviStepper}
 * (and usable by any stepper that carries a rigid body's attitude and body momentum inside a larger
 * state): (L4)–(L6) on R_k at `state[0..9]` (row-major) and Π_k at `state[pi..pi+3]`, with the body
 * torque u_k at `u[uOff..uOff+3]`, in place; and the step derivatives of the last step written into
 * the rotational rows and columns of a larger tangent layout. A step: g = Π_k + (h/2)(M_k + u_k);
 * F_k from (L4) ({@link So3FSolver}); R_{k+1} = R_kF_k (L5); Π_{k+1} = F_kᵀg + (h/2)(M_{k+1} + u_k)
 * (L6). Allocation-free (the derivatives allocate their scratch on the first call).
 *
 * @example
 * ```ts
 * // R at 0..8, Π at 12..14 of a 15-number state, the torque at u[1..3]
 * const core = new So3LgviCore([1, 2, 3], ZERO_POTENTIAL, 0.01);
 * const state = new Float64Array(15);
 * state.set([1, 0, 0, 0, 1, 0, 0, 0, 1], 0);
 * state.set([1, 0, 0], 12);
 * core.advance(state, 12, Float64Array.of(9, 0, 0, 0.5), 1, 0);
 * state.subarray(12, 15); // ≈ [1, 0, 0.005] (1e-4): Π₁ ≈ Π₀ + h·u about the principal axis
 * ```
 */
export class So3LgviCore {
  /** Time step h > 0. */
  readonly h: number;
  readonly inertia: Float64Array;
  readonly potential: So3Potential;
  /** The F-solve of (L4). */
  readonly solver: So3FSolver;
  /** Newton residual of the last step. */
  lastResidual = 0;
  /** The arrow (R_k, R_{k+1}) of the last step, 18 numbers (see {@link So3LgviStepper.lastArrow}). */
  readonly arrow = new Float64Array(18);
  /** True when `arrow`, `F`, `g` hold the last step taken (for {@link derivatives}). */
  private stepTaken = false;
  private readonly F = new Float64Array(9);
  private readonly g = new Float64Array(3);
  private readonly hg = new Float64Array(3);
  private readonly M = new Float64Array(3);
  private readonly Rs = new Float64Array(9);
  private scratch: LgviDerivativeScratch | undefined;

  constructor(
    inertia: ArrayLike<number>,
    potential: So3Potential,
    h: number,
    options: LgviNewtonOptions = {},
  ) {
    this.h = checkPositive('So3LgviCore: h', h);
    this.inertia = checkInertia('So3LgviCore: inertia', inertia);
    this.potential = potential;
    this.solver = new So3FSolver(this.inertia, options);
  }

  /**
   * One step (L4)–(L6) of the attitude R (state 0..8) and body momentum Π (state `pi`..`pi`+2) in
   * place, with the torque `u[uOff..uOff+3]`; the caller checks h and the input's length.
   * @throws NewtonDivergedError naming step k (the state is then unchanged).
   * @returns the Newton iterations.
   */
  advance(state: Float64Array, pi: number, u: Float64Array, uOff: number, k: number): number {
    const { arrow, F, g, M, solver } = this;
    const h = this.h;
    this.stepTaken = false;
    const hh = 0.5 * h;
    const u0 = u[uOff]!;
    const u1 = u[uOff + 1]!;
    const u2 = u[uOff + 2]!;
    for (let i = 0; i < 9; i++) arrow[i] = state[i]!;
    this.potential.moment(M, arrow);
    g[0] = state[pi]! + hh * (M[0]! + u0);
    g[1] = state[pi + 1]! + hh * (M[1]! + u1);
    g[2] = state[pi + 2]! + hh * (M[2]! + u2);
    const hg = this.hg;
    hg[0] = h * g[0]!;
    hg[1] = h * g[1]!;
    hg[2] = h * g[2]!;
    const its = solver.solve(F, hg, k); // (L4)
    // (L5) R_{k+1} = R_k F_k
    for (let i = 0; i < 3; i++) {
      const a = arrow[3 * i]!;
      const b = arrow[3 * i + 1]!;
      const c = arrow[3 * i + 2]!;
      for (let j = 0; j < 3; j++) arrow[9 + 3 * i + j] = a * F[j]! + b * F[3 + j]! + c * F[6 + j]!;
    }
    // (L6) Π_{k+1} = F_kᵀg + (h/2)(M_{k+1} + u_k): equal to ←e[L_d](R_k, R_{k+1}) + f_d⁺ (L3) when
    // (L4) holds, but its error is ε|g| instead of ε·tr(J)/h (the Newton residual over h)
    const Rs = this.Rs;
    for (let i = 0; i < 9; i++) Rs[i] = arrow[9 + i]!;
    this.potential.moment(M, Rs);
    for (let i = 0; i < 9; i++) state[i] = arrow[9 + i]!;
    state[pi] = F[0]! * g[0]! + F[3]! * g[1]! + F[6]! * g[2]! + hh * (M[0]! + u0);
    state[pi + 1] = F[1]! * g[0]! + F[4]! * g[1]! + F[7]! * g[2]! + hh * (M[1]! + u1);
    state[pi + 2] = F[2]! * g[0]! + F[5]! * g[1]! + F[8]! * g[2]! + hh * (M[2]! + u2);
    this.lastResidual = solver.lastResidual;
    this.stepTaken = true;
    return its;
  }

  /**
   * The step derivatives of the last {@link advance} (the formulas of
   * {@link So3LgviStepper.stepDerivatives}) written into a larger layout: `dxdx` row-major with
   * `n` columns, δR at rows/columns 0..2 and δΠ at `pi`..`pi`+2; `dxdu` row-major with `m` columns,
   * the torque at columns `uc`..`uc`+2. Only these entries are written. `what` names the stepper in
   * the errors. Cold path: allocates its scratch on the first call.
   * @throws DomainError before any step (or after a failed one); SingularMatrixError for a singular
   *   ∂r/∂δ.
   */
  derivatives(
    dxdx: Float64Array,
    n: number,
    pi: number,
    dxdu: Float64Array,
    m: number,
    uc: number,
    what: string,
  ): void {
    if (!this.stepTaken)
      throw new DomainError(`${what}.stepDerivatives`, 'no step taken', 'needs a step just taken');
    this.scratch ??= lgviDerivativeScratch();
    const d = this.scratch;
    const { arrow, F, g, h, solver } = this;
    const { J, lu, DM0, DM1, R, Ftg, dg, rhs, f } = d;
    // the Newton Jacobian of (L4) at the accepted F (scaled by 1/tr(J), as the residual)
    solver.jacobian(J, F);
    lu.factor(J);
    if (lu.isSingular) throw new SingularMatrixError(`${what}.stepDerivatives: ∂r/∂δ`, -1);
    const I = this.inertia;
    const scale = h / (I[0]! + I[1]! + I[2]!);
    for (let i = 0; i < 9; i++) R[i] = arrow[i]!;
    potentialJacobian(DM0, this.potential, R, d);
    for (let i = 0; i < 9; i++) R[i] = arrow[9 + i]!;
    potentialJacobian(DM1, this.potential, R, d);
    for (let i = 0; i < 3; i++) Ftg[i] = F[i]! * g[0]! + F[3 + i]! * g[1]! + F[6 + i]! * g[2]!;
    const hh = 0.5 * h;
    // columns: j < 3 δR_k = e_j, j < 6 δΠ_k = e_{j−3}, j < 9 δu_k = e_{j−6}
    for (let j = 0; j < 9; j++) {
      const a = j < 3 ? j : -1;
      const b = j >= 3 && j < 6 ? j - 3 : -1;
      const c = j >= 6 ? j - 6 : -1;
      for (let i = 0; i < 3; i++) {
        dg[i] = (i === b ? 1 : 0) + hh * ((a >= 0 ? DM0[3 * i + a]! : 0) + (i === c ? 1 : 0));
        rhs[i] = scale * dg[i]!;
      }
      lu.solve(rhs, f);
      const out = j < 6 ? dxdx : dxdu;
      const w = j < 6 ? n : m;
      const col = j < 3 ? j : j < 6 ? pi + j - 3 : uc + j - 6;
      // δR_{k+1} = F_kᵀa + f (kept in rhs)
      for (let i = 0; i < 3; i++) rhs[i] = (a >= 0 ? F[3 * a + i]! : 0) + f[i]!;
      for (let i = 0; i < 3; i++) out[i * w + col] = rhs[i]!;
      // δΠ_{k+1} = (F_kᵀg) × f + F_kᵀδg + (h/2)(DM(R_{k+1})δR_{k+1} + c)
      const cross0 = Ftg[1]! * f[2]! - Ftg[2]! * f[1]!;
      const cross1 = Ftg[2]! * f[0]! - Ftg[0]! * f[2]!;
      const cross2 = Ftg[0]! * f[1]! - Ftg[1]! * f[0]!;
      for (let i = 0; i < 3; i++) {
        const cross = i === 0 ? cross0 : i === 1 ? cross1 : cross2;
        const ftdg = F[i]! * dg[0]! + F[3 + i]! * dg[1]! + F[6 + i]! * dg[2]!;
        const dm = DM1[3 * i]! * rhs[0]! + DM1[3 * i + 1]! * rhs[1]! + DM1[3 * i + 2]! * rhs[2]!;
        out[(pi + i) * w + col] = cross + ftdg + hh * (dm + (i === c ? 1 : 0));
      }
    }
  }
}

/**
 * Writes the rotational series of a state whose R is at 0..8 and Π at `pi`..`pi`+2: Ω = J⁻¹Π at
 * `out[omega..omega+3]` and the spatial momentum RΠ at `out[spatial..spatial+3]`; returns the
 * kinetic energy ½Π·Ω (cold: once per recorded sample).
 */
function recordAttitude(
  out: Float64Array,
  omega: number,
  spatial: number,
  state: Float64Array,
  pi: number,
  I: Float64Array,
): number {
  const p0 = state[pi]!;
  const p1 = state[pi + 1]!;
  const p2 = state[pi + 2]!;
  out[omega] = p0 / I[0]!;
  out[omega + 1] = p1 / I[1]!;
  out[omega + 2] = p2 / I[2]!;
  for (let i = 0; i < 3; i++) {
    out[spatial + i] = state[3 * i]! * p0 + state[3 * i + 1]! * p1 + state[3 * i + 2]! * p2;
  }
  return 0.5 * (p0 * out[omega]! + p1 * out[omega + 1]! + p2 * out[omega + 2]!);
}

export interface So3LgviOptions extends LgviNewtonOptions {
  /** Principal moments [I₁, I₂, I₃] > 0. */
  readonly inertia: ArrayLike<number>;
  /** The potential; default none. */
  readonly potential?: So3Potential;
  /** Time step h > 0. */
  readonly h: number;
}

/**
 * The SO(3) LGVI (L4)–(L6) with a potential and a body-frame control torque u_k (inputSize 3,
 * held constant over the step) as a core {@link Stepper}. State `[R_k (9, row-major), Π_k (3)]`,
 * Π the body angular momentum JΩ (the momentum of the pair groupoid, Π_k = −D₁L_d − f_d⁻).
 * A step ({@link So3LgviCore}): g = Π_k + (h/2)(M_k + u_k); F_k from (L4) ({@link So3FSolver});
 * R_{k+1} = R_kF_k (L5); Π_{k+1} = F_kᵀg + (h/2)(M_{k+1} + u_k) (L6), which is the pair groupoid's
 * momentum ←e[L_d](R_k, R_{k+1}) + f_d⁺ = D₂L_d + (h/2)u_k (L3) at the solution of (L4) (a test
 * checks it); the (L6) form is used because its round-off is ε|g|, while D₂L_d divides the Newton
 * residual by h (with D₂L_d the symmetric top's Π₃ drifted 2e-4 in 10⁶ steps of h = 0.01). No
 * re-projection: R stays orthogonal because F_k is a product of Cayley factors (round-off only).
 * Allocation-free.
 *
 * Series: `R`, `pi` (Π_k), `omega` (J⁻¹Π_k), `energy` (½Π·J⁻¹Π + U(R)), `spatialMomentum` (RΠ; its
 * components about axes of symmetry of U are the Noether charges, e.g. e₃·RΠ for gravity),
 * `orthogonality` (max |RᵀR − I|).
 *
 * @example
 * ```ts
 * const s = new So3LgviStepper({ inertia: [1, 1, 2], h: 0.01,
 *   potential: new GravityPotential(1, 9.81, [0, 0, 0.5]) });
 * const sol = integrate(s, s.initialState([0.1, 0, 0], [0, 0, 20]), { h: 0.01, steps: 100 });
 * Math.abs(sol.spatialMomentum[3 * 100 + 2]! - sol.spatialMomentum[2]!) < 1e-12; // true: e₃·RΠ is conserved
 * ```
 */
export class So3LgviStepper implements Stepper<So3LgviField> {
  readonly method = LGVI_METHOD;
  /** The step does not read t (core `integrate` then passes 0: no boxed time per step). */
  readonly stateSize = 12;
  readonly inputSize = 3;
  readonly series = SO3_LGVI_SERIES;
  readonly h: number;
  readonly potential: So3Potential;
  readonly inertia: Float64Array;
  /** The discrete Lagrangian (L1) on the pair groupoid, with its partials (L2), (L3). */
  readonly lagrangian: So3DiscreteLagrangian;
  /** The step (L4)–(L6) and its derivatives, on this stepper's layout (Π at 9). */
  readonly core: So3LgviCore;
  /** The F-solve of (L4). */
  readonly solver: So3FSolver;
  lastResidual = 0;
  /** Size of the tangent state (δR, δΠ) of {@link stepDerivatives}. */
  readonly tangentSize = 6;
  private readonly Rs = new Float64Array(9);

  constructor(options: So3LgviOptions) {
    this.h = checkPositive('So3LgviStepper: h', options.h);
    this.inertia = checkInertia('So3LgviStepper: inertia', options.inertia);
    this.potential = options.potential ?? ZERO_POTENTIAL;
    this.lagrangian = new So3DiscreteLagrangian(this.inertia, this.potential, this.h);
    this.core = new So3LgviCore(this.inertia, this.potential, this.h, options);
    this.solver = this.core.solver;
  }

  /**
   * The state `[R₀, Π₀]` for the initial attitude R₀ = Exp(`rotation`) (a rotation vector) and body
   * angular velocity Ω₀ = `omega` (Π₀ = JΩ₀).
   * @throws DimensionError / DomainError for wrong-length or non-finite vectors.
   */
  initialState(rotation: ArrayLike<number>, omega: ArrayLike<number>): Float64Array {
    const r = checkVec3('So3LgviStepper: rotation', rotation);
    const w = checkVec3('So3LgviStepper: omega', omega);
    const s = new Float64Array(12);
    SO3.exp(s.subarray(0, 9), r);
    for (let i = 0; i < 3; i++) s[9 + i] = this.inertia[i]! * w[i]!;
    return s;
  }

  /**
   * One LGVI step (L4)–(L6) with torque u (u of another length than 3: no torque). `h` must be the
   * stepper's.
   * @throws NewtonDivergedError naming step k (the state is then unchanged).
   */
  step(state: Float64Array, k: number, h: number, u: Float64Array): number {
    if (h !== this.h)
      throw new DomainError('So3LgviStepper.step: h', h, `must be the stepper's h = ${this.h}`);
    const its = this.core.advance(state, 9, u.length === 3 ? u : NO_INPUT, 0, k);
    this.lastResidual = this.core.lastResidual;
    return its;
  }

  /**
   * The arrow (R_k, R_{k+1}) of the last step on the pair groupoid SO(3) × SO(3) (18 numbers,
   * row-major): the stepper's own buffer, valid until the next step.
   *
   * @example
   * ```ts
   * const s = new So3LgviStepper({ inertia: [1, 2, 3], h: 0.01 });
   * const x = s.initialState([0, 0, 0], [1, 0, 0]);
   * s.step(x, 0, 0.01, new Float64Array(3));
   * s.lastArrow().subarray(9, 18); // R_1, equal to x.subarray(0, 9)
   * ```
   */
  lastArrow(): Float64Array {
    return this.core.arrow;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) in tangent
   * coordinates: the rotation in the right-⊕ (body, left-trivialized) coordinates of core
   * CONVENTIONS.md, R ⊕ δ = R·Exp(δ), the momentum additively, so x = (δR, δΠ) has
   * {@link tangentSize} 6 (not the storage's 12): `dxdx` (6×6) ← ∂(δR_{k+1}, δΠ_{k+1})/∂(δR_k, δΠ_k),
   * `dxdu` (6×3) ← ∂(δR_{k+1}, δΠ_{k+1})/∂u_k, row-major. With a = δR_k, b = δΠ_k, c = δu_k and
   * DM the {@link So3Potential.momentJacobian}, differentiating g = Π_k + (h/2)(M(R_k) + u_k),
   * (L4) by the implicit function theorem with the Newton Jacobian ∂r/∂δ = tr(FJ_d)F − FJ_dF
   * (F ↦ F·Exp(f)) evaluated and factored at the accepted F_k, (L5) with R_kExp(a)F = R_kF·Exp(Fᵀa)
   * and (L6) with (F·Exp(f))ᵀg = Fᵀg + (Fᵀg) × f:
   *
   *   δg = b + (h/2)(DM(R_k)a + c),   f = h(∂r/∂δ)⁻¹δg,   δR_{k+1} = F_kᵀa + f,
   *   δΠ_{k+1} = (F_kᵀg)^f + F_kᵀδg + (h/2)(DM(R_{k+1})δR_{k+1} + c).
   *
   * Cold path: allocates its scratch on the first call ({@link So3LgviCore.derivatives}).
   *
   * @throws DomainError before any step (or after a failed one); DimensionError for wrong output
   *   lengths; SingularMatrixError for a singular ∂r/∂δ.
   * @example
   * ```ts
   * const s = new So3LgviStepper({ inertia: [1, 1, 2], h: 0.01, potential: new GravityPotential(1, 9.81, [0, 0, 0.5]) });
   * const x = s.initialState([0.1, 0, 0], [0, 0, 20]);
   * s.step(x, 0, 0.01, new Float64Array(3));
   * const A = new Float64Array(36);
   * const B = new Float64Array(18);
   * s.stepDerivatives(A, B); // A[0] ≈ 1: ∂δR_1/∂δR_0 is close to the identity for small h
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    if (dxdx.length !== 36) throw new DimensionError('stepDerivatives: dxdx', 36, dxdx.length);
    if (dxdu.length !== 18) throw new DimensionError('stepDerivatives: dxdu', 18, dxdu.length);
    this.core.derivatives(dxdx, 6, 3, dxdu, 3, 0, 'So3LgviStepper');
  }

  /** Writes R, pi, omega, energy, spatialMomentum, orthogonality of `state`. */
  record(out: Float64Array, state: Float64Array): void {
    for (let i = 0; i < 12; i++) out[i] = state[i]!;
    const kinetic = recordAttitude(out, 12, 16, state, 9, this.inertia);
    const Rs = this.Rs;
    for (let i = 0; i < 9; i++) Rs[i] = state[i]!;
    out[15] = kinetic + this.potential.value(Rs);
    out[19] = orthogonalityError(state, 0);
  }
}

/** Entry (i, j) of R ê₃ = [R e₁, −R e₀, 0] (by columns), R row-major at `R[off..off+9]`. */
function re3hat(R: Float64Array, off: number, i: number, j: number): number {
  return j === 0 ? R[off + 3 * i + 1]! : j === 1 ? -R[off + 3 * i]! : 0;
}

/** Scratch of the LGVI step derivatives (allocated on the first call). */
interface LgviDerivativeScratch {
  readonly J: Float64Array;
  readonly lu: DenseLU;
  readonly DM0: Float64Array;
  readonly DM1: Float64Array;
  readonly R: Float64Array;
  readonly Ftg: Float64Array;
  readonly dg: Float64Array;
  readonly rhs: Float64Array;
  readonly f: Float64Array;
  readonly Rp: Float64Array;
  readonly Rm: Float64Array;
  readonly Mp: Float64Array;
  readonly Mm: Float64Array;
  readonly delta: Float64Array;
}

function lgviDerivativeScratch(): LgviDerivativeScratch {
  const v = (n: number) => new Float64Array(n);
  return {
    J: v(9),
    lu: new DenseLU(3),
    DM0: v(9),
    DM1: v(9),
    R: v(9),
    Ftg: v(3),
    dg: v(3),
    rhs: v(3),
    f: v(3),
    Rp: v(9),
    Rm: v(9),
    Mp: v(3),
    Mm: v(3),
    delta: v(3),
  };
}

/**
 * out (3×3) ← ∂M(R·Exp(δ))/∂δ: the potential's `momentJacobian`, else central differences of its
 * moment through R·Exp(±εe_j), ε = `CENTRAL_DIFFERENCE_STEP` (error ≈ ε²).
 */
function potentialJacobian(
  out: Float64Array,
  U: So3Potential,
  R: Float64Array,
  s: LgviDerivativeScratch,
): void {
  if (U.momentJacobian !== undefined) {
    U.momentJacobian(out, R);
    return;
  }
  const { Rp, Rm, Mp, Mm, delta } = s;
  const e = CENTRAL_DIFFERENCE_STEP;
  for (let j = 0; j < 3; j++) {
    delta.fill(0);
    delta[j] = e;
    SO3.rplus(Rp, R, delta);
    delta[j] = -e;
    SO3.rplus(Rm, R, delta);
    U.moment(Mp, Rp);
    U.moment(Mm, Rm);
    for (let i = 0; i < 3; i++) out[3 * i + j] = (Mp[i]! - Mm[i]!) / (2 * e);
  }
}

/** Options of {@link simulateHeavyTop}. */
export interface HeavyTopOptions
  extends LgviNewtonOptions,
    Pick<IntegrateRecordingOptions, 'every' | 'onProgress'> {
  /** Principal moments about the pivot [I₁, I₂, I₃] > 0. */
  readonly inertia: ArrayLike<number>;
  /** Mass m > 0. */
  readonly mass: number;
  /** Gravity g ≥ 0 (z up). */
  readonly gravity: number;
  /** Centre of mass in the body frame (from the pivot). */
  readonly rho: ArrayLike<number>;
  /** Initial attitude R₀ = Exp(rotation). */
  readonly rotation: ArrayLike<number>;
  /** Initial body angular velocity Ω₀. */
  readonly omega: ArrayLike<number>;
  /** Time step h > 0. */
  readonly h: number;
  /** Number of steps. */
  readonly steps: number;
  /** Body torques u_k: a flat `steps × 3` array or a function of (k, t); default none. */
  readonly inputs?: ArrayLike<number> | InputFunction;
}

/**
 * Simulates a heavy top / 3-D pendulum (U = m g e₃·Rρ, {@link GravityPotential}) with the SO(3)
 * LGVI (L4)–(L6) through core's `integrate`.
 *
 * @example
 * ```ts
 * const sol = simulateHeavyTop({ inertia: [1, 1, 2], mass: 1, gravity: 9.81, rho: [0, 0, 0.5],
 *   rotation: [0.1, 0, 0], omega: [0, 0, 30], h: 0.001, steps: 1000 });
 * sol.orthogonality[sol.count - 1]; // ~1e-15
 * ```
 */
export function simulateHeavyTop(options: HeavyTopOptions): Solution<So3LgviField> {
  const potential = new GravityPotential(options.mass, options.gravity, options.rho);
  const stepper = new So3LgviStepper({ ...options, potential });
  return integrate(stepper, stepper.initialState(options.rotation, options.omega), {
    steps: options.steps,
    h: options.h,
    ...(options.every === undefined ? {} : { every: options.every }),
    ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
}

/** The series of a quadrotor {@link Solution}. */
export type QuadrotorField =
  | 'R'
  | 'x'
  | 'pi'
  | 'omega'
  | 'v'
  | 'energy'
  | 'spatialMomentum'
  | 'linearMomentum'
  | 'orthogonality';

const QUADROTOR_SERIES: readonly SeriesSpec<QuadrotorField>[] = Object.freeze([
  { name: 'R', width: 9 },
  { name: 'x', width: 3 },
  { name: 'pi', width: 3 },
  { name: 'omega', width: 3 },
  { name: 'v', width: 3 },
  { name: 'energy', width: 1 },
  { name: 'spatialMomentum', width: 3 },
  { name: 'linearMomentum', width: 3 },
  { name: 'orthogonality', width: 1 },
]);

/** Options of {@link QuadrotorLgviStepper}. */
export interface QuadrotorOptions extends LgviNewtonOptions {
  /** Mass m > 0. */
  readonly mass: number;
  /** Principal moments [I₁, I₂, I₃] > 0 about the centre of mass. */
  readonly inertia: ArrayLike<number>;
  /** Gravity g ≥ 0 along −e₃ (z up). */
  readonly gravity: number;
  /** Time step h > 0. */
  readonly h: number;
}

/**
 * A rigid body in uniform gravity with a body-fixed thrust f along the body axis Re₃ and a
 * body-frame torque τ (a quadrotor), on the pair groupoid of SO(3) × R³ (LLM's LGVI on
 * SE(3) ≅ SO(3) ⋉ R³ written in the product coordinates (R, x)). Inputs u_k = [f, τ₁, τ₂, τ₃],
 * held constant over the step. State `[R (9), x (3), Π (3), v (3)]`.
 *
 * Rotational part: the SO(3) LGVI (L4)–(L6) without potential, torque τ (an internal
 * {@link So3LgviStepper}). Translational part: the pair-groupoid equations of
 * L_d^x(x₀, x₁) = (m/2h)|x₁ − x₀|² − (h/2)·m g e₃·(x₀ + x₁) with the trapezoidal thrust forces
 * f_d⁻ = (h/2) f R_k e₃, f_d⁺ = (h/2) f R_{k+1} e₃ (R_{k+1} is known from the rotational part):
 *
 *   (L7)  x_{k+1} = x_k + h v_k + (h²/2m)(f R_k e₃ − m g e₃),
 *   (L8)  v_{k+1} = v_k + (h/2m)[(f R_k e₃ − m g e₃) + (f R_{k+1} e₃ − m g e₃)],
 *
 * (m v_k = −D₁L_d^x − f_d⁻, m v_{k+1} = D₂L_d^x + f_d⁺). Each bracket is formed as f·(Re₃) − m g, so
 * at the hover thrust f = m g ({@link hoverThrust}) with R = I the brackets are exactly 0 and the
 * body stays where it is, to the last bit. With u = 0: RΠ (spatial angular momentum) is conserved
 * to round-off, the horizontal momentum m(v₁, v₂) exactly, and the translational part is the exact
 * free fall. Allocation-free.
 *
 * @example
 * ```ts
 * const q = new QuadrotorLgviStepper({ mass: 1.5, inertia: [0.02, 0.02, 0.04], gravity: 9.81, h: 0.01 });
 * const x0 = q.initialState([0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]);
 * const sol = integrate(q, x0, { h: 0.01, steps: 100, inputs: (u) => { u[0] = q.hoverThrust; } });
 * sol.x[3 * 100 + 2]; // 1: it hovers
 * ```
 */
export class QuadrotorLgviStepper implements Stepper<QuadrotorField> {
  readonly method = LGVI_METHOD;
  /** The step does not read t (core `integrate` then passes 0: no boxed time per step). */
  readonly stateSize = 18;
  readonly inputSize = 4;
  readonly series = QUADROTOR_SERIES;
  readonly h: number;
  readonly mass: number;
  readonly gravity: number;
  /**
   * The rotational LGVI (no potential, torque input). It shares its {@link So3LgviCore} with this
   * stepper, so its `lastArrow()` is the attitude arrow of the quadrotor's last step.
   */
  readonly rotation: So3LgviStepper;
  lastResidual = 0;
  private readonly core: So3LgviCore;
  private readonly mg: number;
  /** Size of the tangent state (δR, δx, δΠ, δv) of {@link stepDerivatives}. */
  readonly tangentSize = 12;
  /** The thrust of the last step (for {@link stepDerivatives}). */
  private readonly lastThrust = new Float64Array(1);

  constructor(options: QuadrotorOptions) {
    this.h = checkPositive('QuadrotorLgviStepper: h', options.h);
    this.mass = checkPositive('QuadrotorLgviStepper: mass', options.mass);
    const g = options.gravity;
    if (!(g >= 0 && Number.isFinite(g)))
      throw new DomainError('QuadrotorLgviStepper: gravity', g, 'must be finite and >= 0');
    this.gravity = g;
    this.mg = this.mass * g;
    this.rotation = new So3LgviStepper({ ...options, h: this.h });
    this.core = this.rotation.core;
  }

  /** The thrust that balances gravity, m·g (exact hover at R = I). */
  get hoverThrust(): number {
    return this.mg;
  }

  /**
   * The state for R₀ = Exp(`rotation`), position `position`, body angular velocity `omega` and
   * velocity `velocity`.
   * @throws DimensionError / DomainError for wrong-length or non-finite vectors.
   */
  initialState(
    rotation: ArrayLike<number>,
    position: ArrayLike<number>,
    omega: ArrayLike<number>,
    velocity: ArrayLike<number>,
  ): Float64Array {
    const r = this.rotation.initialState(rotation, omega);
    const x = checkVec3('QuadrotorLgviStepper: position', position);
    const v = checkVec3('QuadrotorLgviStepper: velocity', velocity);
    const s = new Float64Array(18);
    s.set(r.subarray(0, 9), 0);
    s.set(x, 9);
    s.set(r.subarray(9, 12), 12);
    s.set(v, 15);
    return s;
  }

  /**
   * One step: the rotational LGVI (L4)–(L6) with torque τ on (R, Π) ({@link So3LgviCore}), then
   * (L7), (L8). u of another length than 4: no input. `h` must be the stepper's.
   * @throws NewtonDivergedError naming step k (the state is then unchanged).
   */
  step(state: Float64Array, k: number, h: number, u: Float64Array): number {
    if (h !== this.h)
      throw new DomainError(
        'QuadrotorLgviStepper.step: h',
        h,
        `must be the stepper's h = ${this.h}`,
      );
    const mg = this.mg;
    const input = u.length === 4 ? u : NO_INPUT;
    const f = input[0]!;
    // thrust minus weight at R_k, f·(R e₃) − m g e₃ (third column of R)
    const a0 = f * state[2]!;
    const a1 = f * state[5]!;
    const a2 = f * state[8]! - mg;
    const its = this.core.advance(state, 12, input, 1, k);
    // ... and at R_{k+1}
    const b0 = f * state[2]!;
    const b1 = f * state[5]!;
    const b2 = f * state[8]! - mg;
    const m = this.mass;
    const c = (h * h) / (2 * m);
    const d = h / (2 * m);
    const v0 = state[15]!;
    const v1 = state[16]!;
    const v2 = state[17]!;
    // (L7), (L8)
    state[9] = state[9]! + h * v0 + c * a0;
    state[10] = state[10]! + h * v1 + c * a1;
    state[11] = state[11]! + h * v2 + c * a2;
    state[15] = v0 + d * (a0 + b0);
    state[16] = v1 + d * (a1 + b1);
    state[17] = v2 + d * (a2 + b2);
    this.lastResidual = this.core.lastResidual;
    this.lastThrust[0] = f;
    return its;
  }

  /**
   * The step derivatives of the last {@link step} in tangent coordinates x = (δR, δx, δΠ, δv)
   * ({@link tangentSize} 12; δR in the right-⊕ (body) coordinates R·Exp(δR), the rest additive):
   * `dxdx` (12×12) ← ∂x_{k+1}/∂x_k, `dxdu` (12×4) ← ∂x_{k+1}/∂(f, τ), row-major. The rotational
   * rows are {@link So3LgviStepper.stepDerivatives} (inputs τ), written by the shared
   * {@link So3LgviCore} into rows and columns (δR, δΠ) = (0..2, 6..8); (L7), (L8)
   * give, with δ(R e₃) = −R ê₃ δR (R·Exp(δR)e₃ = Re₃ + R(δR × e₃)), c = h²/2m, d = h/2m:
   *
   *   δx_{k+1} = δx + h δv + c(−f R_k ê₃ δR_k + R_k e₃ δf),
   *   δv_{k+1} = δv + d(−f R_k ê₃ δR_k − f R_{k+1} ê₃ δR_{k+1} + (R_k e₃ + R_{k+1} e₃) δf).
   *
   * @throws DomainError before any step; DimensionError for wrong output lengths.
   * @example
   * ```ts
   * const q = new QuadrotorLgviStepper({ mass: 1.5, inertia: [0.02, 0.02, 0.04], gravity: 9.81, h: 0.01 });
   * const x = q.initialState([0.1, 0, 0], [0, 0, 1], [0, 0, 1], [0, 0, 0]);
   * q.step(x, 0, 0.01, Float64Array.of(q.hoverThrust, 0, 0, 0));
   * const A = new Float64Array(144);
   * const B = new Float64Array(48);
   * q.stepDerivatives(A, B); // B[3 * 4 + 0] = ∂x₁/∂f = (h²/2m)(R₀e₃)₀
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    if (dxdx.length !== 144) throw new DimensionError('stepDerivatives: dxdx', 144, dxdx.length);
    if (dxdu.length !== 48) throw new DimensionError('stepDerivatives: dxdu', 48, dxdu.length);
    dxdx.fill(0);
    dxdu.fill(0);
    // tangent blocks: R 0..2, x 3..5, Π 6..8, v 9..11; the torque is input 1..3
    this.core.derivatives(dxdx, 12, 6, dxdu, 4, 1, 'QuadrotorLgviStepper');
    const arrow = this.core.arrow;
    const f = this.lastThrust[0]!;
    const h = this.h;
    const c = (h * h) / (2 * this.mass);
    const d = h / (2 * this.mass);
    // R ê₃ at R_k (arrow 0..8) and R_{k+1} (arrow 9..17)
    for (let i = 0; i < 3; i++) {
      const xr = (3 + i) * 12;
      const vr = (9 + i) * 12;
      dxdx[xr + 3 + i] = 1;
      dxdx[xr + 9 + i] = h;
      dxdx[vr + 9 + i] = 1;
      const e3k = arrow[3 * i + 2]!;
      const e3k1 = arrow[9 + 3 * i + 2]!;
      dxdu[(3 + i) * 4] = c * e3k;
      dxdu[(9 + i) * 4] = d * (e3k + e3k1);
      for (let j = 0; j < 3; j++) {
        dxdx[xr + j] = -c * f * re3hat(arrow, 0, i, j);
        // −f R_{k+1} ê₃ ∂δR_{k+1}/∂(·): the rows δR_{k+1} (0..2) written by the core
        let sR = 0;
        let sP = 0;
        let sT = 0;
        for (let l = 0; l < 3; l++) {
          const w = re3hat(arrow, 9, i, l);
          sR += w * dxdx[l * 12 + j]!;
          sP += w * dxdx[l * 12 + 6 + j]!;
          sT += w * dxdu[l * 4 + 1 + j]!;
        }
        dxdx[vr + j] = -d * f * (re3hat(arrow, 0, i, j) + sR);
        dxdx[vr + 6 + j] = -d * f * sP;
        dxdu[(9 + i) * 4 + 1 + j] = -d * f * sT;
      }
    }
  }

  /** Writes R, x, pi, omega, v, energy, spatialMomentum, linearMomentum, orthogonality. */
  record(out: Float64Array, state: Float64Array): void {
    const m = this.mass;
    for (let i = 0; i < 15; i++) out[i] = state[i]!;
    const kinetic = recordAttitude(out, 15, 22, state, 12, this.rotation.inertia);
    const v0 = state[15]!;
    const v1 = state[16]!;
    const v2 = state[17]!;
    out[18] = v0;
    out[19] = v1;
    out[20] = v2;
    out[21] = kinetic + 0.5 * m * (v0 * v0 + v1 * v1 + v2 * v2) + this.mg * state[11]!;
    out[25] = m * v0;
    out[26] = m * v1;
    out[27] = m * v2;
    out[28] = orthogonalityError(state, 0);
  }
}
