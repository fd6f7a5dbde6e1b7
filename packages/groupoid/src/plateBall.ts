/**
 * The discrete plate-ball system of spec 003 §8.2 (seed 003, Section 6.2): a ball of radius r
 * rolling without slipping on a plate that turns with angular velocity Ω, as a discrete
 * constrained Lagrangian system on the groupoid Pair(R²) × SO(3) ⇒ R² (§3.5(d)).
 *
 * Element storage: a `Float64Array(13)` `(x0, y0, x1, y1, R)` with R the SO(3) increment row-major
 * (`rowMajor9`), the layout of the product groupoid Pair(R²) × SO(3). The arrow goes from
 * α = (x0, y0) to β = (x1, y1). Multipliers λ ∈ R³ belong to the constraints (8).
 *
 * Conventions (fixed, spec 003 §12):
 * - **Reconstruction** G_k = G_{k−1}·g_k (item 3): the ω of (8) is then the *body* angular
 *   velocity, g_k ≈ exp(h ω̂_body). {@link simulatePlateBall} also offers `frame: 'spatial'`
 *   (g_k := G_{k−1}G_kᵀ ≈ exp(−h ω̂_spatial), i.e. (8) with r → −r, c → −c).
 * - **λ3 sign** (item 2): derived from (8) as printed, φ3 = h c + ½ tr(R E3)
 *   (`lambda3Sign = 1`, the default). The paper's printed (PB-R_i) correspond to φ3 → −φ3
 *   (`lambda3Sign = −1`); both give the same (x, y, R) trajectories with λ3 of opposite sign.
 * - **(PB-y)** is implemented corrected (item 1); the printed one is kept only in
 *   {@link PlateBall.residualPaperForm} with `printedPBy: true`, for the erratum test.
 * - τ⁻¹(R) = vee((R − Rᵀ)/2) (the "sine" map, not log, not Cayley, item 4); every increment must
 *   stay on the near-identity branch tr R > 1 (rotation angle < π/2, |hω| < 1, item 5).
 *
 * With the sine vector s = vee((R − Rᵀ)/2) (so s_i = −½ tr(R E_i)) the constraints (8) read
 *   φ1 = Δy + r s1 − hΩ x̄,   φ2 = Δx − r s2 + hΩ ȳ,   φ3 = σ3 (h c − s3),
 * Δ = new − old, x̄, ȳ the midpoints, σ3 = `lambda3Sign`.
 *
 * @module
 */
import {
  checkStepDerivatives,
  DenseLU,
  DimensionError,
  DomainError,
  dtauSkew,
  hat3,
  hypot3,
  type IntegrateRecordingOptions,
  integrate,
  inv3,
  type JacobianFunction,
  type MethodTraits,
  methodTraits,
  mul3,
  mul3T,
  mulTVec3,
  mulVec3,
  NewtonSolver,
  NonFiniteError,
  type ResidualFunction,
  type SeriesSpec,
  SingularMatrixError,
  SO3,
  type Solution,
  type Stepper,
  tauSkew,
} from '@geomech/core';
import { stepSize } from './stepSize.js';

/** Length of a plate-ball element `(x0, y0, x1, y1, R row-major 9)`. */
export const PLATE_BALL_ELEMENT_SIZE = 13;

/** Offset of the rotation block in an element. */
const R0 = 4;

/**
 * Default tolerance of the one-step Newton solves: ‖residual‖∞ ≤ tol·max(1, ‖(P, Π) target‖∞).
 */
const STEP_TOL = 1e-14;

/** Default iteration cap of the one-step Newton solves. */
const STEP_MAX_ITERATIONS = 25;

/** A Newton update below this (relative to max(1, ‖u‖∞)) no longer changes the iterate. */
const STEP_STAGNATION = 4 * Number.EPSILON;

/** Storage of a step's Newton iterate `[g (13), λ (3)]` (8 tangent coordinates). */
const STEP_STORAGE = PLATE_BALL_ELEMENT_SIZE + 3;

/** Parameters of {@link PlateBall} (spec 003 §8.2). */
export interface PlateBallParameters {
  /** Time step h > 0. */
  readonly h: number;
  /** Ball radius r ≠ 0 (a negative r is the `'spatial'`-frame system, see the module comment). */
  readonly r: number;
  /** Angular velocity Ω of the plate. */
  readonly Omega: number;
  /** Spin constant c (ω_z = c). */
  readonly c: number;
  /**
   * σ3 = ±1: φ3 = σ3·(h c + ½ tr(R E3)). 1 (default) derives (PB-R_i) from (8) as printed; −1
   * reproduces the printed (PB-R_i) (spec 003 §8.2 "λ3 sign"). Only the sign of λ3 differs.
   */
  readonly lambda3Sign?: 1 | -1;
  /**
   * Tolerance of the one-step Newton solves: converged when ‖residual‖∞ ≤ tol·max(1, ‖target‖∞)
   * (target = the (P, Π) the step must match), or when an update no longer changes the iterate.
   * Default 1e-14.
   */
  readonly tol?: number;
  /** Iteration cap of the one-step Newton solves. Default 25. */
  readonly maxIterations?: number;
}

/** Options of {@link PlateBall.residualPaperForm}. */
export interface PaperFormOptions {
  /** Use (PB-y) as printed in the paper (multiplier indices 1 ↔ 2 swapped: an erratum). */
  readonly printedPBy?: boolean;
}

function checkFinite(what: string, v: number): number {
  if (!Number.isFinite(v)) throw new DomainError(what, v, 'must be finite');
  return v;
}

function checkLength(what: string, a: ArrayLike<number>, n: number): void {
  if (a.length < n) throw new DimensionError(what, n, a.length);
}

/** so(3) basis E1, E2, E3 of spec 003 §8.2, row-major (for the literal trace forms). */
const E: readonly Float64Array[] = [
  Float64Array.of(0, 0, 0, 0, 0, -1, 0, 1, 0),
  Float64Array.of(0, 0, 1, 0, 0, 0, -1, 0, 0),
  Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 0),
];

/** tr(A·B·C) of three row-major 3×3 matrices (A read from offset aOff). */
function trace3(
  a: ArrayLike<number>,
  aOff: number,
  b: ArrayLike<number>,
  bOff: number,
  c: ArrayLike<number>,
  cOff: number,
): number {
  let s = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let ab = 0;
      for (let k = 0; k < 3; k++) ab += a[aOff + 3 * i + k]! * b[bOff + 3 * k + j]!;
      s += ab * c[cOff + 3 * j + i]!;
    }
  }
  return s;
}

/** tr(A·B) of two row-major 3×3 matrices. */
function trace2(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number): number {
  let s = 0;
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 3; k++) s += a[aOff + 3 * i + k]! * b[bOff + 3 * k + i]!;
  }
  return s;
}

/**
 * The discrete plate-ball system (spec 003 §8.2, §11.5): constraints (8), discrete Lagrangian,
 * the compact discrete Legendre transforms F^± = (P^±, Π^±), the DEL residual, the printed
 * eight equations, analytic Jacobians, and Newton one-step maps forward, backward and in the
 * cheaper reduced 2-unknown form. Owns its scratch: the step maps allocate nothing.
 *
 * Element `g = (x0, y0, x1, y1, R)` (`Float64Array(13)`), multipliers `λ ∈ R³`,
 * w(λ) := (−r λ1, r λ2, σ3 λ3). Compact forms (§8.2, "[VERIFIED] compact closed forms"):
 *
 *   P⁺ = (Δx/h − (hΩ/2)λ1 + λ2,  Δy/h + λ1 + (hΩ/2)λ2),   Π⁺ = −½(tr R·I − R) w
 *   P⁻ = (Δx/h + (hΩ/2)λ1 + λ2,  Δy/h + λ1 − (hΩ/2)λ2),   Π⁻ = −½(tr R·I − Rᵀ) w
 *
 * with Π⁺_i = d/ds F(…, R e^{sE_i}) and Π⁻_i = d/ds F(e^{sE_i} R) for F = L̂ + λ·φ, and
 * Π⁺ = RᵀΠ⁻. The DEL are (P⁺, Π⁺)(g_k, λ_k) = (P⁻, Π⁻)(g_{k+1}, λ_{k+1}), φ(g_{k+1}) = 0.
 *
 * @example
 * ```ts
 * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
 * const g = pb.initialElement(0, 0, 0.02, 0.01);       // R_1 = τ_skew(s) from (8)
 * const lam = Float64Array.of(0.5, -0.4, 0.3);
 * const g2 = new Float64Array(13), lam2 = new Float64Array(3);
 * pb.stepForward(g2, lam2, g, lam);                     // 3 Newton iterations
 * pb.casimir(g2, lam2);                                 // 0.707041836261 (S5)
 * ```
 */
export class PlateBall {
  readonly h: number;
  readonly r: number;
  readonly Omega: number;
  readonly c: number;
  /** σ3 = ±1, see {@link PlateBallParameters.lambda3Sign}. */
  readonly lambda3Sign: 1 | -1;
  /** Tolerance of the one-step Newton solves. */
  readonly tol: number;
  /** Iteration cap of the one-step Newton solves. */
  readonly maxIterations: number;
  /** Newton iterations (Jacobian solves) of the last step map. */
  lastIterations = 0;
  /** ‖residual‖∞ at the end of the last step map. */
  lastResidualNorm = Number.NaN;

  private readonly tgt = new Float64Array(5);
  private readonly p5 = new Float64Array(5);
  private readonly v3 = new Float64Array(3);
  private readonly w3 = new Float64Array(3);
  private readonly a3 = new Float64Array(3);
  private readonly m9 = new Float64Array(9);
  private readonly k9 = new Float64Array(9);
  private readonly sv = new Float64Array(3);
  private readonly dv = new Float64Array(3);
  private readonly rtw = new Float64Array(3);
  private readonly rtwh9 = new Float64Array(9);
  private rr0 = Number.NaN;
  private rr1 = Number.NaN;
  private nrm = Number.NaN;
  /** λ of the Newton iterate (entries 13..15 of the iterate `[g (13), λ (3)]`). */
  private readonly lx = new Float64Array(3);
  /** The rotation part δ of a Newton update. */
  private readonly d3 = new Float64Array(3);
  /** Scratch of the cold paths, allocated on first use (construction is on the driver's path). */
  private coldScratch: ColdScratch | undefined;
  private readonly u16 = new Float64Array(STEP_STORAGE);
  /** Newton on the 8 step unknowns, forward (α-fibre) and backward (β-fibre; built on first use). */
  private readonly forwardSolver: NewtonSolver;
  private backwardSolverCache: NewtonSolver | undefined;
  /** Newton on the 2 unknowns of the reduced step (built on first use). */
  private reducedSolverCache: NewtonSolver | undefined;
  private readonly forwardF: ResidualFunction;
  private readonly forwardJ: JacobianFunction;
  private readonly backwardF: ResidualFunction;
  private readonly backwardJ: JacobianFunction;
  private readonly reducedF: ResidualFunction;
  private readonly reducedJ: JacobianFunction;

  constructor(params: PlateBallParameters) {
    this.h = checkFinite('PlateBall: h', params.h);
    if (!(this.h > 0)) throw new DomainError('PlateBall: h', params.h, 'must be > 0');
    this.r = checkFinite('PlateBall: r', params.r);
    if (this.r === 0) throw new DomainError('PlateBall: r', params.r, 'must be nonzero');
    this.Omega = checkFinite('PlateBall: Omega', params.Omega);
    this.c = checkFinite('PlateBall: c', params.c);
    const s3 = params.lambda3Sign ?? 1;
    if (s3 !== 1 && s3 !== -1)
      throw new DomainError('PlateBall: lambda3Sign', s3, 'must be 1 or -1');
    this.lambda3Sign = s3;
    this.tol = params.tol ?? STEP_TOL;
    if (!(this.tol >= 0)) throw new DomainError('PlateBall: tol', this.tol, 'must be >= 0');
    this.maxIterations = params.maxIterations ?? STEP_MAX_ITERATIONS;
    if (!Number.isInteger(this.maxIterations) || this.maxIterations < 1) {
      throw new DomainError(
        'PlateBall: maxIterations',
        this.maxIterations,
        'must be an integer >= 1',
      );
    }
    this.forwardSolver = this.stepSolver('plate-ball forward step', true);
    this.forwardF = (out, u) => this.stepResidual(out, u, true);
    this.backwardF = (out, u) => this.stepResidual(out, u, false);
    this.forwardJ = (out, u) => this.forwardJacobianInto(out, u, u, 13);
    this.backwardJ = (out, u) => {
      this.lambdaOf(u);
      this.backwardJacobian(out, u, this.lx);
    };
    this.reducedF = (out, u) => {
      this.reducedResidual(u);
      out[0] = this.rr0;
      out[1] = this.rr1;
    };
    this.reducedJ = (out, u) => this.reducedJacobian(out, u);
  }

  /**
   * out ← φ(g), the constraints (8): φ1 = (y1 − y0) − (r/2)tr(R E1) − hΩ(x0 + x1)/2,
   * φ2 = (x1 − x0) + (r/2)tr(R E2) + hΩ(y0 + y1)/2, φ3 = σ3·(h c + ½ tr(R E3)).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * pb.phi(new Float64Array(3), pb.initialElement(0, 0, 0.02, 0.01)); // [0, 0, 0]
   * ```
   */
  phi(out: Float64Array, g: ArrayLike<number>): Float64Array {
    const { h, r, Omega } = this;
    const s1 = 0.5 * (g[11]! - g[9]!);
    const s2 = 0.5 * (g[6]! - g[10]!);
    const s3 = 0.5 * (g[7]! - g[5]!);
    out[0] = g[3]! - g[1]! + r * s1 - 0.5 * h * Omega * (g[0]! + g[2]!);
    out[1] = g[2]! - g[0]! - r * s2 + 0.5 * h * Omega * (g[1]! + g[3]!);
    out[2] = this.lambda3Sign * (h * this.c - s3);
    return out;
  }

  /**
   * L̂(g) = (h/2)[((x1 − x0)/h)² + ((y1 − y0)/h)²] (spec 003 §8.2, discrete Lagrangian).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * pb.Lhat(Float64Array.of(0, 0, 0.1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)); // 0.1 (h = 0.05)
   * ```
   */
  Lhat(g: ArrayLike<number>): number {
    const dx = g[2]! - g[0]!;
    const dy = g[3]! - g[1]!;
    return (dx * dx + dy * dy) / (2 * this.h);
  }

  /** w(λ) = (−rλ1, rλ2, σ3λ3) into `out`. */
  private wOf(out: Float64Array, lam: ArrayLike<number>): Float64Array {
    out[0] = -this.r * lam[0]!;
    out[1] = this.r * lam[1]!;
    out[2] = this.lambda3Sign * lam[2]!;
    return out;
  }

  /**
   * out ← F⁺(g, λ) = (P⁺_x, P⁺_y, Π⁺) ∈ A*_{(x1,y1)}G, the β̃-coordinates (left-invariant
   * derivatives, eq. (4)) of d(L̂ + λ·φ)(g) in the compact form of spec 003 §8.2:
   * P⁺ = (Δx/h − (hΩ/2)λ1 + λ2, Δy/h + λ1 + (hΩ/2)λ2), Π⁺ = −½(tr R·I − R) w(λ).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g = pb.initialElement(0, 0, 0.02, 0.01); // R_1 = τ_skew(s) from (8)
   * pb.legendrePlus(new Float64Array(5), g, Float64Array.of(0.5, -0.4, 0.3));
   * ```
   */
  legendrePlus(out: Float64Array, g: ArrayLike<number>, lam: ArrayLike<number>): Float64Array {
    const { h } = this;
    const a = 0.5 * h * this.Omega;
    const l1 = lam[0]!;
    const l2 = lam[1]!;
    out[0] = (g[2]! - g[0]!) / h - a * l1 + l2;
    out[1] = (g[3]! - g[1]!) / h + l1 + a * l2;
    const w = this.wOf(this.w3, lam);
    const t = g[4]! + g[8]! + g[12]!;
    mulVec3(this.a3, g, w, 0, R0, 0);
    out[2] = -0.5 * (t * w[0]! - this.a3[0]!);
    out[3] = -0.5 * (t * w[1]! - this.a3[1]!);
    out[4] = -0.5 * (t * w[2]! - this.a3[2]!);
    return out;
  }

  /**
   * out ← F⁻(g, λ) = (P⁻_x, P⁻_y, Π⁻) ∈ A*_{(x0,y0)}G, the α̃-coordinates (right-invariant
   * derivatives, with the minus sign of (2)) of d(L̂ + λ·φ)(g), spec 003 §8.2:
   * P⁻ = (Δx/h + (hΩ/2)λ1 + λ2, Δy/h + λ1 − (hΩ/2)λ2), Π⁻ = −½(tr R·I − Rᵀ) w(λ).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g = pb.initialElement(0, 0, 0.02, 0.01); // R_1 = τ_skew(s) from (8)
   * pb.legendreMinus(new Float64Array(5), g, Float64Array.of(0.5, -0.4, 0.3));
   * ```
   */
  legendreMinus(out: Float64Array, g: ArrayLike<number>, lam: ArrayLike<number>): Float64Array {
    const { h } = this;
    const a = 0.5 * h * this.Omega;
    const l1 = lam[0]!;
    const l2 = lam[1]!;
    out[0] = (g[2]! - g[0]!) / h + a * l1 + l2;
    out[1] = (g[3]! - g[1]!) / h + l1 - a * l2;
    const w = this.wOf(this.w3, lam);
    const t = g[4]! + g[8]! + g[12]!;
    mulTVec3(this.a3, g, w, 0, R0, 0);
    out[2] = -0.5 * (t * w[0]! - this.a3[0]!);
    out[3] = -0.5 * (t * w[1]! - this.a3[1]!);
    out[4] = -0.5 * (t * w[2]! - this.a3[2]!);
    return out;
  }

  /**
   * out (8) ← the DEL residual in compact form (spec 003 §8.2, §5.2):
   * `[P⁻(g_{k+1}, λ_{k+1}) − P⁺(g_k, λ_k); Π⁻(g_{k+1}, λ_{k+1}) − Π⁺(g_k, λ_k); φ(g_{k+1})/h]`.
   * It vanishes on a trajectory. Scaling to the printed equations: (PB-x, PB-y) = rows 0–1 / h,
   * (PB-R_i) = −2·row 2+i, (PB-c_j) = rows 5–7 (row 7 times σ3). Composability
   * β(g_k) = α(g_{k+1}) is the caller's responsibility.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const gk = pb.initialElement(0, 0, 0.02, 0.01), lamk = Float64Array.of(0.5, -0.4, 0.3);
   * const gk1 = new Float64Array(13), lamk1 = new Float64Array(3);
   * pb.stepForward(gk1, lamk1, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * pb.residual(new Float64Array(8), gk, lamk, gk1, lamk1); // ≈ 0 on a trajectory
   * ```
   */
  residual(
    out: Float64Array,
    gk: ArrayLike<number>,
    lamk: ArrayLike<number>,
    gk1: ArrayLike<number>,
    lamk1: ArrayLike<number>,
  ): Float64Array {
    const p = this.legendrePlus(this.p5, gk, lamk);
    const p0 = p[0]!;
    const p1 = p[1]!;
    const p2 = p[2]!;
    const p3 = p[3]!;
    const p4 = p[4]!;
    this.legendreMinus(out, gk1, lamk1);
    out[0] = out[0]! - p0;
    out[1] = out[1]! - p1;
    out[2] = out[2]! - p2;
    out[3] = out[3]! - p3;
    out[4] = out[4]! - p4;
    this.phiScaled(out, 5, gk1);
    return out;
  }

  /** out[off..off+3] ← φ(g)/h. */
  private phiScaled(out: Float64Array, off: number, g: ArrayLike<number>): void {
    const v = this.phi(this.v3, g);
    const ih = 1 / this.h;
    out[off] = v[0]! * ih;
    out[off + 1] = v[1]! * ih;
    out[off + 2] = v[2]! * ih;
  }

  /**
   * out (8) ← the eight equations of spec 003 §8.2 as printed, evaluated literally with the
   * matrices E_i and traces (independent of the compact forms), k = step between g_k and g_{k+1}:
   *
   * - (PB-x) (x_{k+1} − 2x_k + x_{k−1})/h² + ((λ_{k+1})_2 − (λ_k)_2)/h + Ω((λ_{k+1})_1 + (λ_k)_1)/2
   * - (PB-y) corrected: (y_{k+1} − 2y_k + y_{k−1})/h² + ((λ_{k+1})_1 − (λ_k)_1)/h
   *   − Ω((λ_{k+1})_2 + (λ_k)_2)/2; with `printedPBy` the printed erratum (indices 1 ↔ 2 swapped)
   * - (PB-R_i) −rλ1 tr(g_kE_iE1) + rλ1' tr(E_i g' E1) + rλ2 tr(g_kE_iE2) − rλ2' tr(E_i g' E2)
   *   + σ3 λ3 tr(g_kE_iE3) − σ3 λ3' tr(E_i g' E3) (σ3 = −1 is exactly the printed sign)
   * - (PB-c1..3) as printed: φ_j(g_{k+1})/h of (8).
   *
   * x_k, y_k are read from g_k's target.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const gk = pb.initialElement(0, 0, 0.02, 0.01), lamk = Float64Array.of(0.5, -0.4, 0.3);
   * const gk1 = new Float64Array(13), lamk1 = new Float64Array(3);
   * pb.stepForward(gk1, lamk1, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * pb.residualPaperForm(new Float64Array(8), gk, lamk, gk1, lamk1);                       // ≈ 0
   * pb.residualPaperForm(new Float64Array(8), gk, lamk, gk1, lamk1, { printedPBy: true })[1]; // ≠ 0
   * ```
   */
  residualPaperForm(
    out: Float64Array,
    gk: ArrayLike<number>,
    lamk: ArrayLike<number>,
    gk1: ArrayLike<number>,
    lamk1: ArrayLike<number>,
    options: PaperFormOptions = {},
  ): Float64Array {
    const { h, r, Omega, c } = this;
    const s3 = this.lambda3Sign;
    const xm = gk[0]!;
    const ym = gk[1]!;
    const x = gk[2]!;
    const y = gk[3]!;
    const xp = gk1[2]!;
    const yp = gk1[3]!;
    const [l1, l2, l3] = [lamk[0]!, lamk[1]!, lamk[2]!];
    const [m1, m2, m3] = [lamk1[0]!, lamk1[1]!, lamk1[2]!];
    out[0] = (xp - 2 * x + xm) / (h * h) + (m2 - l2) / h + (Omega * (m1 + l1)) / 2;
    out[1] = options.printedPBy
      ? (yp - 2 * y + ym) / (h * h) + (m2 - l2) / h - (Omega * (m1 + l1)) / 2
      : (yp - 2 * y + ym) / (h * h) + (m1 - l1) / h - (Omega * (m2 + l2)) / 2;
    for (let i = 0; i < 3; i++) {
      const Ei = E[i]!;
      out[2 + i] =
        -r * l1 * trace3(gk, R0, Ei, 0, E[0]!, 0) +
        r * m1 * trace3(Ei, 0, gk1, R0, E[0]!, 0) +
        r * l2 * trace3(gk, R0, Ei, 0, E[1]!, 0) -
        r * m2 * trace3(Ei, 0, gk1, R0, E[1]!, 0) +
        s3 * l3 * trace3(gk, R0, Ei, 0, E[2]!, 0) -
        s3 * m3 * trace3(Ei, 0, gk1, R0, E[2]!, 0);
    }
    out[5] = (yp - y) / h - (r / (2 * h)) * trace2(gk1, R0, E[0]!, 0) - (Omega * (xp + x)) / 2;
    out[6] = (xp - x) / h + (r / (2 * h)) * trace2(gk1, R0, E[1]!, 0) + (Omega * (yp + y)) / 2;
    out[7] = c + trace2(gk1, R0, E[2]!, 0) / (2 * h);
    return out;
  }

  /**
   * out (13×13 row-major) ← the partial derivatives of the thirteen element functions
   * `[P⁺ (2), Π⁺ (3), P⁻ (2), Π⁻ (3), φ/h (3)]` of (g, λ) with respect to
   * `[x0, y0, x1, y1, ρ (3), ℓ (3), λ (3)]`, where ρ moves R ← R·exp(ρ̂) (the α-fibre,
   * left-invariant fields) and ℓ moves R ← exp(ℓ̂)·R (the β-fibre), both at 0. Closed forms,
   * with s = vee((R − Rᵀ)/2), t = tr R, w = w(λ), D = diag(r, −r, −σ3) (so w = −Dλ):
   *
   *   ∂Π⁺/∂ρ = w sᵀ − ½ R ŵ,   ∂Π⁺/∂ℓ = w sᵀ − ½ (Rw)^,   ∂Π⁺/∂λ = ½(tI − R) D
   *   ∂Π⁻/∂ρ = w sᵀ + ½ (Rᵀw)^, ∂Π⁻/∂ℓ = w sᵀ + ½ Rᵀŵ,    ∂Π⁻/∂λ = ½(tI − Rᵀ) D
   *   ∂φ/∂ρ = D·½(tI − Rᵀ),    ∂φ/∂ℓ = D·½(tI − R)   (½(tI − Rᵀ) = dτ⁻¹ of the sine map)
   *
   * and the linear P and base-point terms (spec 003 §8.2 Newton solver list). The step
   * Jacobians and the trajectory solver are assembled from it.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g = pb.initialElement(0, 0, 0.02, 0.01); // R_1 = τ_skew(s) from (8)
   * const lam = Float64Array.of(0.5, -0.4, 0.3);
   * pb.elementJacobian(new Float64Array(169), g, lam);
   * ```
   */
  elementJacobian(out: Float64Array, g: ArrayLike<number>, lam: ArrayLike<number>): Float64Array {
    checkLength('PlateBall.elementJacobian: out', out, 169);
    const { h, r, Omega, sv, dv } = this;
    const ih = 1 / h;
    const a = 0.5 * h * Omega;
    out.fill(0, 0, 169);
    const w = this.wOf(this.w3, lam);
    const t = g[4]! + g[8]! + g[12]!;
    sv[0] = 0.5 * (g[11]! - g[9]!);
    sv[1] = 0.5 * (g[6]! - g[10]!);
    sv[2] = 0.5 * (g[7]! - g[5]!);
    dv[0] = r;
    dv[1] = -r;
    dv[2] = -this.lambda3Sign;
    // The rotation blocks from core's group Jacobians (manif's J_out_in, core CONVENTIONS.md):
    // with Π⁺ = −½(t w − Rw), Π⁻ = −½(t w − Rᵀw), t = tr R and ∂t/∂ρ = ∂t/∂ℓ = −2sᵀ,
    //   ∂(Rw)/∂ρ = J_act_X(R, w) = −Rŵ,        ∂(Rw)/∂ℓ = J_act_X(R, w)·Ad_{R⁻¹} = −(Rw)^,
    //   ∂(Rᵀw)/∂ρ = J_act_X(Rᵀ, w)·J_inv(R),  ∂(Rᵀw)/∂ℓ = −J_act_X(Rᵀ, w)
    // (a left perturbation Exp(ℓ)R is the right perturbation R·Exp(Ad_{R⁻¹}ℓ); (Exp(ℓ)R)ᵀ = Rᵀ·Exp(−ℓ)).
    const { r9, rt9, jInv, jActR, jActRt, jRl, jRtr } = this.cold;
    for (let i = 0; i < 9; i++) r9[i] = g[R0 + i]!;
    SO3.inverse(rt9, r9, jInv);
    SO3.act(this.a3, r9, w, jActR);
    SO3.act(this.a3, rt9, w, jActRt);
    mul3T(jRl, jActR, r9);
    mul3(jRtr, jActRt, jInv);
    // P rows: 0, 1 (P⁺) and 5, 6 (P⁻); columns x0 0, y0 1, x1 2, y1 3, λ 10..12
    out[0] = -ih;
    out[2] = ih;
    out[10] = -a;
    out[11] = 1;
    out[13 + 1] = -ih;
    out[13 + 3] = ih;
    out[13 + 10] = 1;
    out[13 + 11] = a;
    out[65 + 0] = -ih;
    out[65 + 2] = ih;
    out[65 + 10] = a;
    out[65 + 11] = 1;
    out[78 + 1] = -ih;
    out[78 + 3] = ih;
    out[78 + 10] = 1;
    out[78 + 11] = -a;
    for (let i = 0; i < 3; i++) {
      const wi = w[i]!;
      const di = dv[i]!;
      const rowPp = (2 + i) * 13;
      const rowPm = (7 + i) * 13;
      const rowPhi = (10 + i) * 13;
      for (let j = 0; j < 3; j++) {
        const ws = wi * sv[j]!;
        const ij = 3 * i + j;
        const dij = i === j ? t : 0;
        const Rij = g[R0 + ij]!;
        const Rji = g[R0 + 3 * j + i]!;
        const dj = dv[j]!;
        out[rowPp + 4 + j] = ws + 0.5 * jActR[ij]!;
        out[rowPp + 7 + j] = ws + 0.5 * jRl[ij]!;
        out[rowPp + 10 + j] = 0.5 * (dij - Rij) * dj;
        out[rowPm + 4 + j] = ws + 0.5 * jRtr[ij]!;
        out[rowPm + 7 + j] = ws - 0.5 * jActRt[ij]!;
        out[rowPm + 10 + j] = 0.5 * (dij - Rji) * dj;
        out[rowPhi + 4 + j] = di * 0.5 * (dij - Rji) * ih;
        out[rowPhi + 7 + j] = di * 0.5 * (dij - Rij) * ih;
      }
    }
    out[130 + 0] = -0.5 * Omega;
    out[130 + 2] = -0.5 * Omega;
    out[130 + 1] = -ih;
    out[130 + 3] = ih;
    out[143 + 0] = -ih;
    out[143 + 2] = ih;
    out[143 + 1] = 0.5 * Omega;
    out[143 + 3] = 0.5 * Omega;
    return out;
  }

  /**
   * out (8×8 row-major) ← the Jacobian of {@link residual} with respect to the forward unknowns
   * u = (x_{k+1}, y_{k+1}, δ (3), λ_{k+1} (3)) with R_{k+1} ← R_{k+1}·exp(δ̂), at δ = 0
   * (spec 003 §8.2 Newton solver, step 5): rows [P⁻ (2), Π⁻ (3), φ/h (3)] of
   * {@link elementJacobian} at (g_{k+1}, λ_{k+1}), columns [x1, y1, ρ, λ].
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const gk1 = new Float64Array(13), lamk1 = new Float64Array(3);
   * pb.stepForward(gk1, lamk1, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * pb.stepJacobian(new Float64Array(64), gk1, lamk1);
   * ```
   */
  stepJacobian(out: Float64Array, gk1: ArrayLike<number>, lamk1: ArrayLike<number>): Float64Array {
    checkLength('PlateBall.stepJacobian: out', out, 64);
    this.forwardJacobianInto(out, gk1, lamk1, 0);
    return out;
  }

  /**
   * out (8×8) ← {@link stepJacobian} at (g, λ = lam[lo..lo+3)): the forward block of
   * elementJacobian written directly in closed form, all 64 entries on locals (the hot path of
   * every Newton iteration; assembling all 169 entries through the group Jacobians and copying 64
   * cost ≈ 30 % of a step), equal to elementJacobian's block to rounding (tested). Rows
   * [P⁻ (2), Π⁻ (3), φ/h (3)], columns [x1, y1, δ (3), λ (3)]; with w = w(λ), s = vee((R − Rᵀ)/2),
   * t = tr R, d = (r, −r, −σ3), ½(tI − Rᵀ)_ij = m_ij:
   *
   *   ∂Π⁻_i/∂δ_j = w_i s_j + ½((Rᵀw)^)_ij,  ∂Π⁻_i/∂λ_j = m_ij d_j,  ∂(φ/h)_i/∂δ_j = d_i m_ij / h.
   */
  private forwardJacobianInto(
    out: Float64Array,
    g: ArrayLike<number>,
    lam: ArrayLike<number>,
    lo: number,
  ): void {
    const { h, r, Omega } = this;
    const s3 = this.lambda3Sign;
    const ih = 1 / h;
    const a = 0.5 * h * Omega;
    // w(λ) (wOf), d = (r, −r, −σ3), t = tr R, s = vee((R − Rᵀ)/2)
    const w0 = -r * lam[lo]!;
    const w1 = r * lam[lo + 1]!;
    const w2 = s3 * lam[lo + 2]!;
    const d0 = r;
    const d1 = -r;
    const d2 = -s3;
    const R00 = g[4]!;
    const R01 = g[5]!;
    const R02 = g[6]!;
    const R10 = g[7]!;
    const R11 = g[8]!;
    const R12 = g[9]!;
    const R20 = g[10]!;
    const R21 = g[11]!;
    const R22 = g[12]!;
    const t = R00 + R11 + R22;
    const sv0 = 0.5 * (R21 - R12);
    const sv1 = 0.5 * (R02 - R20);
    const sv2 = 0.5 * (R10 - R01);
    // q = Rᵀw (core's mulTVec3), whose hat is [0, −q2, q1; q2, 0, −q0; −q1, q0, 0] (core's hat3)
    const q0 = R00 * w0 + R10 * w1 + R20 * w2;
    const q1 = R01 * w0 + R11 * w1 + R21 * w2;
    const q2 = R02 * w0 + R12 * w1 + R22 * w2;
    // m_ij = ½(t δ_ij − R_ji)
    const m00 = 0.5 * (t - R00);
    const m01 = 0.5 * (0 - R10);
    const m02 = 0.5 * (0 - R20);
    const m10 = 0.5 * (0 - R01);
    const m11 = 0.5 * (t - R11);
    const m12 = 0.5 * (0 - R21);
    const m20 = 0.5 * (0 - R02);
    const m21 = 0.5 * (0 - R12);
    const m22 = 0.5 * (t - R22);
    // P⁻ rows 0, 1
    out[0] = ih;
    out[1] = 0;
    out[2] = 0;
    out[3] = 0;
    out[4] = 0;
    out[5] = a;
    out[6] = 1;
    out[7] = 0;
    out[8] = 0;
    out[9] = ih;
    out[10] = 0;
    out[11] = 0;
    out[12] = 0;
    out[13] = 1;
    out[14] = -a;
    out[15] = 0;
    // Π⁻ rows 2..4
    out[16] = 0;
    out[17] = 0;
    out[18] = w0 * sv0 + 0.5 * 0;
    out[19] = w0 * sv1 + 0.5 * -q2;
    out[20] = w0 * sv2 + 0.5 * q1;
    out[21] = m00 * d0;
    out[22] = m01 * d1;
    out[23] = m02 * d2;
    out[24] = 0;
    out[25] = 0;
    out[26] = w1 * sv0 + 0.5 * q2;
    out[27] = w1 * sv1 + 0.5 * 0;
    out[28] = w1 * sv2 + 0.5 * -q0;
    out[29] = m10 * d0;
    out[30] = m11 * d1;
    out[31] = m12 * d2;
    out[32] = 0;
    out[33] = 0;
    out[34] = w2 * sv0 + 0.5 * -q1;
    out[35] = w2 * sv1 + 0.5 * q0;
    out[36] = w2 * sv2 + 0.5 * 0;
    out[37] = m20 * d0;
    out[38] = m21 * d1;
    out[39] = m22 * d2;
    // φ/h rows 5..7
    out[40] = -0.5 * Omega;
    out[41] = ih;
    out[42] = d0 * 0.5 * (t - R00) * ih;
    out[43] = d0 * 0.5 * (0 - R10) * ih;
    out[44] = d0 * 0.5 * (0 - R20) * ih;
    out[45] = 0;
    out[46] = 0;
    out[47] = 0;
    out[48] = ih;
    out[49] = 0.5 * Omega;
    out[50] = d1 * 0.5 * (0 - R01) * ih;
    out[51] = d1 * 0.5 * (t - R11) * ih;
    out[52] = d1 * 0.5 * (0 - R21) * ih;
    out[53] = 0;
    out[54] = 0;
    out[55] = 0;
    out[56] = 0;
    out[57] = 0;
    out[58] = d2 * 0.5 * (0 - R02) * ih;
    out[59] = d2 * 0.5 * (0 - R12) * ih;
    out[60] = d2 * 0.5 * (t - R22) * ih;
    out[61] = 0;
    out[62] = 0;
    out[63] = 0;
  }

  /**
   * out (8×8) ← the Jacobian of the backward residual `[P⁺(g_k, λ_k) − P⁻(g_{k+1}, λ_{k+1});
   * Π⁺ − Π⁻; φ(g_k)/h]` with respect to u = (x_{k−1}, y_{k−1}, δ (3), λ_k (3)) with
   * R_k ← exp(δ̂)·R_k (the β-fibre), at δ = 0: rows [P⁺, Π⁺, φ/h], columns [x0, y0, ℓ, λ] of
   * {@link elementJacobian}.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const gk = pb.initialElement(0, 0, 0.02, 0.01), lamk = Float64Array.of(0.5, -0.4, 0.3);
   * pb.backwardJacobian(new Float64Array(64), gk, lamk);
   * ```
   */
  backwardJacobian(
    out: Float64Array,
    gk: ArrayLike<number>,
    lamk: ArrayLike<number>,
  ): Float64Array {
    checkLength('PlateBall.backwardJacobian: out', out, 64);
    const f = this.elementJacobian(this.cold.full, gk, lamk);
    copyBlock(out, f, BACKWARD_ROWS, BACKWARD_COLS);
    return out;
  }

  /**
   * The element g_1 = (x0, y0, x1, y1, τ_skew(s)) of the initial data (spec 003 §8.2), with
   * s = (−(Δy − hΩx̄)/r, (Δx + hΩȳ)/r, hc) = hω solving (8): φ(g_1) = 0.
   *
   * @throws DomainError when |s| ≥ 1 (no increment on the near-identity branch, |hω| ≥ 1).
   *
   * @example
   * ```ts
   * new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 }).initialElement(0, 0, 0.02, 0.01);
   * ```
   */
  initialElement(x0: number, y0: number, x1: number, y1: number): Float64Array {
    const g = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
    g[0] = checkFinite('initialElement: x0', x0);
    g[1] = checkFinite('initialElement: y0', y0);
    g[2] = checkFinite('initialElement: x1', x1);
    g[3] = checkFinite('initialElement: y1', y1);
    this.rotationFromConstraints(g);
    return g;
  }

  /** g's R ← τ_skew(s(x0, y0, x1, y1)), the rotation that satisfies (8). */
  private rotationFromConstraints(g: Float64Array): void {
    const { h, r, Omega } = this;
    const v = this.v3;
    v[0] = -(g[3]! - g[1]! - 0.5 * h * Omega * (g[0]! + g[2]!)) / r;
    v[1] = (g[2]! - g[0]! + 0.5 * h * Omega * (g[1]! + g[3]!)) / r;
    v[2] = h * this.c;
    const n2 = v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
    if (!(n2 < 1)) {
      throw new DomainError(
        'plate-ball increment: |s| = |hω|',
        Math.sqrt(n2),
        'must be < 1 (rotation angle < π/2; reduce h or the displacement)',
      );
    }
    tauSkew(this.k9, v);
    for (let i = 0; i < 9; i++) g[R0 + i] = this.k9[i]!;
  }

  /**
   * |Π⁻(g, λ)|, the Casimir of the discrete Lie–Poisson flow (spec 003 §8.1, S5): constant along
   * trajectories because Π⁻_{k+1} = Π⁺_k = R_kᵀΠ⁻_k.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * pb.casimir(pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3)); // 0.70704…
   * ```
   */
  casimir(g: ArrayLike<number>, lam: ArrayLike<number>): number {
    const p = this.legendreMinus(this.p5, g, lam);
    return Math.hypot(p[2]!, p[3]!, p[4]!);
  }

  /**
   * out (3) ← the spatial momentum G_{k−1}·Π⁻(g_k, λ_k) (spec 003 §8.1: conserved for
   * G_k = G_{k−1}g_k). `Gprev` is G_{k−1}, row-major 3×3.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g1 = pb.initialElement(0, 0, 0.02, 0.01), lam1 = Float64Array.of(0.5, -0.4, 0.3);
   * pb.spatialMomentum(new Float64Array(3), Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1), g1, lam1);
   * ```
   */
  spatialMomentum(
    out: Float64Array,
    Gprev: ArrayLike<number>,
    g: ArrayLike<number>,
    lam: ArrayLike<number>,
  ): Float64Array {
    const p = this.legendreMinus(this.p5, g, lam);
    return mulVec3(out, Gprev, p, 0, 0, 2);
  }

  /**
   * The Noether charge F_X = −y P⁺_x + x P⁺_y − Π⁺_3 of the symmetry
   * X = (−y∂x + x∂y, −E3), f = 0 (spec 003 §6, derived finding), at (x, y) = β(g): constant along
   * trajectories for every r, Ω, c (Theorem 4.9).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g = pb.initialElement(0, 0, 0.02, 0.01); // R_1 = τ_skew(s) from (8)
   * const lam = Float64Array.of(0.5, -0.4, 0.3);
   * pb.noether(g, lam); // J(g, λ); 0.51694092602079 for the S5 Noether data
   * ```
   */
  noether(g: ArrayLike<number>, lam: ArrayLike<number>): number {
    const p = this.legendrePlus(this.p5, g, lam);
    return -g[3]! * p[0]! + g[2]! * p[1]! - p[4]!;
  }

  /**
   * One step forward (spec 003 §8.2 Newton solver): given (g_k, λ_k), solves the DEL residual
   * for (g_{k+1}, λ_{k+1}) with α(g_{k+1}) = β(g_k): unknowns x_{k+1}, y_{k+1}, R_{k+1} (moved by
   * R ← R·exp(δ̂), re-centred every iteration) and λ_{k+1}; initial guess x' = 2x_k − x_{k−1},
   * y' likewise, R' = R_k (re-projected onto SO(3) through its sine vector, so that rounding drift
   * does not accumulate), λ' = λ_k. Converged when ‖residual‖∞ ≤ tol·max(1, ‖(P⁺, Π⁺)_k‖∞).
   * Allocates nothing. `outG`/`outLambda` may alias the inputs.
   *
   * @returns the number of Newton iterations (3 for the S5 data).
   * @throws NewtonDivergedError (naming `step`) when the residual does not reach `tol`.
   * @throws SingularJacobianError when the 8×8 Jacobian is singular (regularity lost).
   * @throws DomainError when the solution leaves the near-identity branch (tr R ≤ 1, |hω| ≥ 1).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g = pb.initialElement(0, 0, 0.02, 0.01); // R_1 = τ_skew(s) from (8)
   * const lam = Float64Array.of(0.5, -0.4, 0.3);
   * const iterations = pb.stepForward(g, lam, g, lam); // in place
   * ```
   */
  stepForward(
    outG: Float64Array,
    outLambda: Float64Array,
    gk: ArrayLike<number>,
    lamk: ArrayLike<number>,
    step?: number,
  ): number {
    this.legendrePlus(this.tgt, gk, lamk);
    const x1 = gk[2]!;
    const y1 = gk[3]!;
    const gx = 2 * x1 - gk[0]!;
    const gy = 2 * y1 - gk[1]!;
    for (let i = 0; i < 9; i++) outG[R0 + i] = gk[R0 + i]!;
    for (let i = 0; i < 3; i++) outLambda[i] = lamk[i]!;
    outG[0] = x1;
    outG[1] = y1;
    outG[2] = gx;
    outG[3] = gy;
    this.reprojectRotation(outG);
    return this.solveForward(outG, outLambda, step);
  }

  /**
   * R ← τ_skew(vee((R − Rᵀ)/2)) when R is on the near branch: the exact rotation with the same
   * sine vector. Applied to the Newton guess (the previous increment) so that rounding drift away
   * from SO(3) does not accumulate from step to step (the Newton updates R·exp(δ̂) are exact
   * rotations to a few ε).
   */
  private reprojectRotation(g: Float64Array): void {
    const v = this.v3;
    v[0] = 0.5 * (g[11]! - g[9]!);
    v[1] = 0.5 * (g[6]! - g[10]!);
    v[2] = 0.5 * (g[7]! - g[5]!);
    const n2 = v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
    if (!(n2 < 1) || !(g[4]! + g[8]! + g[12]! > 1)) return;
    tauSkew(this.k9, v);
    for (let i = 0; i < 9; i++) g[R0 + i] = this.k9[i]!;
  }

  private get cold(): ColdScratch {
    this.coldScratch ??= coldScratch();
    return this.coldScratch;
  }

  /**
   * One step's Newton (spec 003 §8.2, Newton solver): core's {@link NewtonSolver} on the iterate
   * u = [g (13), λ (3)] with the update of `retractStep`; `'pivot'`: the step Jacobian is well
   * conditioned on the branch (κ₂ ≈ 33 for S5, `plateBall.test.ts`), so the condition estimate's
   * two extra solves are not spent.
   */
  private stepSolver(what: string, forward: boolean): NewtonSolver {
    return new NewtonSolver(8, {
      storageSize: STEP_STORAGE,
      retract: (out, u, du) => this.retractStep(out, u, du, forward),
      maxIterations: this.maxIterations,
      stepTol: STEP_STAGNATION,
      throwOnFailure: true,
      conditionCheck: 'pivot',
      what,
    });
  }

  private get backwardSolver(): NewtonSolver {
    this.backwardSolverCache ??= this.stepSolver('plate-ball backward step', false);
    return this.backwardSolverCache;
  }

  private get reducedSolver(): NewtonSolver {
    this.reducedSolverCache ??= new NewtonSolver(2, {
      maxIterations: this.maxIterations,
      stepTol: STEP_STAGNATION,
      throwOnFailure: true,
      conditionCheck: 'pivot',
      what: 'plate-ball reduced step',
    });
    return this.reducedSolverCache;
  }

  /**
   * Newton on the forward equations from the guess in (outG, outLambda): target (P, Π) in
   * `this.tgt`, base point outG[0..1] fixed.
   */
  private solveForward(g: Float64Array, lam: Float64Array, step?: number): number {
    return this.solveStep(g, lam, true, step);
  }

  /**
   * Newton (core's {@link NewtonSolver}) on the 8 unknowns of one step against the target `tgt`,
   * forward (x1, y1, R ← R·exp(δ̂), λ; residual [P⁻ − tgt; φ/h]) or backward (x0, y0,
   * R ← exp(δ̂)·R, λ; residual [P⁺ − tgt; φ/h]), from the guess in (g, lam), which receive the
   * solution. Converged when ‖residual‖∞ ≤ tol·max(1, ‖tgt‖∞) or when an update no longer
   * changes the iterate (‖Δ‖∞ ≤ 4ε·max(1, ‖u‖∞)). Allocates nothing; throws like
   * {@link stepForward}.
   */
  private solveStep(g: Float64Array, lam: Float64Array, forward: boolean, step?: number): number {
    const u = this.u16;
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++) u[i] = g[i]!;
    u[13] = lam[0]!;
    u[14] = lam[1]!;
    u[15] = lam[2]!;
    this.normInto(this.tgt, 5);
    // the tolerance goes through the solver's field: a double argument of a call V8 does not
    // inline is boxed (16 B per step)
    const solver = forward ? this.forwardSolver : this.backwardSolver;
    solver.tol = this.tol * Math.max(1, this.nrm);
    const r = forward
      ? solver.solve(this.forwardF, this.forwardJ, u, step)
      : solver.solve(this.backwardF, this.backwardJ, u, step);
    const x = r.x;
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++) g[i] = x[i]!;
    lam[0] = x[13]!;
    lam[1] = x[14]!;
    lam[2] = x[15]!;
    this.lastIterations = r.iterations;
    this.lastResidualNorm = r.residualNorm;
    checkBranch(g, step);
    return r.iterations;
  }

  /**
   * The update of a step's Newton iterate u = [g (13), λ (3)] by du = (Δx, Δy, δ (3), Δλ (3)):
   * forward x1 += Δx, y1 += Δy, R ← R·Exp(δ) (the α-fibre, left-invariant fields); backward
   * x0 += Δx, y0 += Δy, R ← Exp(δ)·R (the β-fibre); λ += Δλ. `out` may alias `u`.
   */
  private retractStep(
    out: Float64Array,
    u: Float64Array,
    du: Float64Array,
    forward: boolean,
  ): void {
    if (out !== u) out.set(u);
    const xi = forward ? 2 : 0;
    out[xi] = u[xi]! + du[0]!;
    out[xi + 1] = u[xi + 1]! + du[1]!;
    const d3 = this.d3;
    d3[0] = du[2]!;
    d3[1] = du[3]!;
    d3[2] = du[4]!;
    SO3.exp(this.m9, d3);
    if (forward) mul3(out, u, this.m9, R0, R0, 0);
    else mul3(out, this.m9, u, R0, 0, R0);
    out[13] = u[13]! + du[5]!;
    out[14] = u[14]! + du[6]!;
    out[15] = u[15]! + du[7]!;
  }

  /** this.lx ← λ of the iterate u = [g (13), λ (3)]. */
  private lambdaOf(u: Float64Array): void {
    this.lx[0] = u[13]!;
    this.lx[1] = u[14]!;
    this.lx[2] = u[15]!;
  }

  /**
   * out (8) ← [P⁻(g, λ) − tgt (forward) or P⁺(g, λ) − tgt (backward); φ(g)/h] at the iterate
   * u = [g (13), λ (3)]: {@link legendreMinus} / {@link legendrePlus} and {@link phi} fused into one
   * pass (the hot residual of every Newton iteration), with the same operations in the same order,
   * so the values are theirs bit for bit (tested).
   */
  private stepResidual(out: Float64Array, u: Float64Array, forward: boolean): void {
    const { h, r, tgt } = this;
    const a = 0.5 * h * this.Omega;
    const l0 = u[13]!;
    const l1 = u[14]!;
    const l2 = u[15]!;
    const dx = (u[2]! - u[0]!) / h;
    const dy = (u[3]! - u[1]!) / h;
    // w(λ) = (−rλ1, rλ2, σ3λ3); Π∓ = −½(t w − R^{(T)} w), t = tr R
    const w0 = -r * l0;
    const w1 = r * l1;
    const w2 = this.lambda3Sign * l2;
    const t = u[4]! + u[8]! + u[12]!;
    let a0: number;
    let a1: number;
    let a2: number;
    if (forward) {
      out[0] = dx + a * l0 + l1 - tgt[0]!;
      out[1] = dy + l0 - a * l1 - tgt[1]!;
      a0 = u[4]! * w0 + u[7]! * w1 + u[10]! * w2;
      a1 = u[5]! * w0 + u[8]! * w1 + u[11]! * w2;
      a2 = u[6]! * w0 + u[9]! * w1 + u[12]! * w2;
    } else {
      out[0] = dx - a * l0 + l1 - tgt[0]!;
      out[1] = dy + l0 + a * l1 - tgt[1]!;
      a0 = u[4]! * w0 + u[5]! * w1 + u[6]! * w2;
      a1 = u[7]! * w0 + u[8]! * w1 + u[9]! * w2;
      a2 = u[10]! * w0 + u[11]! * w1 + u[12]! * w2;
    }
    out[2] = -0.5 * (t * w0 - a0) - tgt[2]!;
    out[3] = -0.5 * (t * w1 - a1) - tgt[3]!;
    out[4] = -0.5 * (t * w2 - a2) - tgt[4]!;
    // φ(g)/h, (8) with the sine vector s = vee((R − Rᵀ)/2)
    const ih = 1 / h;
    const s1 = 0.5 * (u[11]! - u[9]!);
    const s2 = 0.5 * (u[6]! - u[10]!);
    const s3 = 0.5 * (u[7]! - u[5]!);
    out[5] = (u[3]! - u[1]! + r * s1 - 0.5 * h * this.Omega * (u[0]! + u[2]!)) * ih;
    out[6] = (u[2]! - u[0]! - r * s2 + 0.5 * h * this.Omega * (u[1]! + u[3]!)) * ih;
    out[7] = this.lambda3Sign * (h * this.c - s3) * ih;
  }

  /**
   * nrm ← ‖v[0..n)‖∞ (NaN propagates). Results go through a double field, not a return value:
   * a double returned from a call V8 does not inline is boxed (a heap allocation per call).
   */
  private normInto(v: Float64Array, n: number): void {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const a = Math.abs(v[i]!);
      if (!(a <= m)) m = a;
    }
    this.nrm = m;
  }

  /**
   * One step backward (reversibility, spec 003 §8.2): given (g_{k+1}, λ_{k+1}), solves
   * P⁺(g_k, λ_k) = P⁻(g_{k+1}, λ_{k+1}), Π⁺(g_k, λ_k) = Π⁻(g_{k+1}, λ_{k+1}), φ(g_k) = 0 for
   * x_{k−1}, y_{k−1}, R_k (moved in the β-fibre, R ← exp(δ̂)·R) and λ_k, with β(g_k) = α(g_{k+1}).
   * Allocates nothing; throws like {@link stepForward}.
   *
   * @returns the number of Newton iterations.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const gPrev = new Float64Array(13), lamPrev = new Float64Array(3);
   * const g2 = new Float64Array(13), lam2 = new Float64Array(3);
   * pb.stepForward(g2, lam2, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * pb.stepBackward(gPrev, lamPrev, g2, lam2); // recovers (g1, λ1) to ~1e-16
   * ```
   */
  stepBackward(
    outG: Float64Array,
    outLambda: Float64Array,
    gk1: ArrayLike<number>,
    lamk1: ArrayLike<number>,
    step?: number,
  ): number {
    this.legendreMinus(this.tgt, gk1, lamk1);
    const x0 = gk1[0]!;
    const y0 = gk1[1]!;
    const gx = 2 * x0 - gk1[2]!;
    const gy = 2 * y0 - gk1[3]!;
    for (let i = 0; i < 9; i++) outG[R0 + i] = gk1[R0 + i]!;
    for (let i = 0; i < 3; i++) outLambda[i] = lamk1[i]!;
    const g = outG;
    const lam = outLambda;
    g[0] = gx;
    g[1] = gy;
    g[2] = x0;
    g[3] = y0;
    this.reprojectRotation(g);
    return this.solveStep(g, lam, false, step);
  }

  /**
   * The cheaper reduced forward step (spec 003 §8.2, "Cheaper reduced variant"): the constraints
   * give R_{k+1} = τ_skew(s) explicitly, s = (−(Δy − hΩx̄)/r, (Δx + hΩȳ)/r, hc), and Π⁻ is linear
   * in λ: λ_{k+1} = [½(tr R'·I − R'ᵀ) D]⁻¹ Π⁺_k. Newton then solves the 2 equations
   * P⁻(g_{k+1}, λ_{k+1}) = P⁺(g_k, λ_k) for (x_{k+1}, y_{k+1}), with the analytic 2×2 Jacobian
   * (chain rule through dτ_skew and the 3×3 solve). Agrees with {@link stepForward} to rounding.
   *
   * @returns the number of Newton iterations.
   * @throws DomainError when an iterate needs |s| ≥ 1 (branch), NewtonDivergedError,
   *   SingularJacobianError.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g1 = pb.initialElement(0, 0, 0.02, 0.01), lam1 = Float64Array.of(0.5, -0.4, 0.3);
   * const g2 = new Float64Array(13), lam2 = new Float64Array(3);
   * pb.stepForward(g2, lam2, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * pb.stepForwardReduced(g2, lam2, g1, lam1);
   * ```
   */
  stepForwardReduced(
    outG: Float64Array,
    outLambda: Float64Array,
    gk: ArrayLike<number>,
    lamk: ArrayLike<number>,
    step?: number,
  ): number {
    const { tgt } = this;
    const { rg, rl, u2 } = this.cold;
    this.legendrePlus(tgt, gk, lamk);
    const x0 = gk[2]!;
    const y0 = gk[3]!;
    rg[0] = x0;
    rg[1] = y0;
    rg[2] = Number.NaN;
    u2[0] = 2 * x0 - gk[0]!;
    u2[1] = 2 * y0 - gk[1]!;
    this.normInto(tgt, 5);
    const solver = this.reducedSolver;
    solver.tol = this.tol * Math.max(1, this.nrm); // a field, not a boxed double argument
    const r = solver.solve(this.reducedF, this.reducedJ, u2, step);
    // (rg, rl) hold the element and multipliers of the last residual evaluation: the solution
    if (rg[2] !== r.x[0] || rg[3] !== r.x[1]) this.reducedResidual(r.x);
    outG.set(rg);
    outLambda[0] = rl[0]!;
    outLambda[1] = rl[1]!;
    outLambda[2] = rl[2]!;
    this.lastIterations = r.iterations;
    this.lastResidualNorm = r.residualNorm;
    checkBranch(outG, step);
    return r.iterations;
  }

  /**
   * out (2×2) ← the Jacobian of the reduced residual at u = (x', y'): with s(u), ds/dx' =
   * (hΩ/(2r), 1/r, 0), ds/dy' = (−1/r, hΩ/(2r), 0), ρ = dτ_s·ds (the body rotation of
   * R' = τ_skew(s)), and dλ = −M⁻¹(∂Π⁻/∂ρ)ρ from Π⁻(R', λ') = Π⁺_k, with
   * ∂Π⁻/∂ρ = w sᵀ + ½(Rᵀw)^ ({@link elementJacobian}) (chain rule through dτ_skew and M⁻¹).
   */
  private reducedJacobian(out: Float64Array, u: Float64Array): void {
    const { h, r, Omega, k9, w3, rtw } = this;
    const { mi9, rg, rl } = this.cold;
    if (rg[2] !== u[0] || rg[3] !== u[1]) this.reducedResidual(u);
    const a = 0.5 * h * Omega;
    const s = this.a3;
    s[0] = 0.5 * (rg[11]! - rg[9]!);
    s[1] = 0.5 * (rg[6]! - rg[10]!);
    s[2] = 0.5 * (rg[7]! - rg[5]!);
    dtauSkew(k9, s);
    // B = ∂Π⁻/∂ρ = w sᵀ + ½ (Rᵀw)^ at (R', λ')
    const w = this.wOf(this.sv, rl);
    mulTVec3(rtw, rg, w, 0, R0, 0);
    const B = hat3(this.rtwh9, rtw);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) B[3 * i + j] = w[i]! * s[j]! + 0.5 * B[3 * i + j]!;
    out[0] = 1 / h;
    out[1] = 0;
    out[2] = 0;
    out[3] = 1 / h;
    for (let col = 0; col < 2; col++) {
      const ds0 = col === 0 ? a / r : -1 / r;
      const ds1 = col === 0 ? 1 / r : a / r;
      const rho0 = k9[0]! * ds0 + k9[1]! * ds1;
      const rho1 = k9[3]! * ds0 + k9[4]! * ds1;
      const rho2 = k9[6]! * ds0 + k9[7]! * ds1;
      for (let i = 0; i < 3; i++) {
        w3[i] = -(B[3 * i]! * rho0 + B[3 * i + 1]! * rho1 + B[3 * i + 2]! * rho2);
      }
      // dλ/du_col = M⁻¹w3 (mi9 = M⁻¹ of the residual evaluation at u)
      mulVec3(w3, mi9, w3);
      out[col] = out[col]! + a * w3[0]! + w3[1]!;
      out[2 + col] = out[2 + col]! + w3[0]! - a * w3[1]!;
    }
  }

  /**
   * Reduced step residual at u = (x', y'): rg ← the element with β = u and R' = τ_skew(s), M (in
   * n9) and M⁻¹ (in mi9), rl ← λ' = M⁻¹Π⁺_k, and the residual P⁻(g', λ') − P⁺_k in (rr0, rr1).
   */
  private reducedResidual(u: ArrayLike<number>): void {
    const { h, tgt } = this;
    const { rg: g, rl: lam, n9, mi9 } = this.cold;
    const a = 0.5 * h * this.Omega;
    g[2] = u[0]!;
    g[3] = u[1]!;
    this.rotationFromConstraints(g);
    // M = ½(tr R·I − Rᵀ)D is singular only at θ = π/2 (|s| = 1, excluded above)
    inv3(mi9, this.lambdaMatrix(n9, g));
    mulVec3(lam, mi9, tgt, 0, 0, 2);
    this.rr0 = (g[2]! - g[0]!) / h + a * lam[0]! + lam[1]! - tgt[0]!;
    this.rr1 = (g[3]! - g[1]!) / h + lam[0]! - a * lam[1]! - tgt[1]!;
  }

  /** out (3×3) ← M = ½(tr R·I − Rᵀ)·diag(r, −r, −σ3), so that Π⁻ = M λ. */
  private lambdaMatrix(out: Float64Array, g: ArrayLike<number>): Float64Array {
    const t = g[4]! + g[8]! + g[12]!;
    const D0 = this.r;
    const D1 = -this.r;
    const D2 = -this.lambda3Sign;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const v = 0.5 * ((i === j ? t : 0) - g[R0 + 3 * j + i]!);
        out[3 * i + j] = v * (j === 0 ? D0 : j === 1 ? D1 : D2);
      }
    }
    return out;
  }

  /**
   * The discrete Hamiltonian map F⁺∘(F⁻)⁻¹ on A*G = T*R² × so(3)* (spec 003 §4, §8.2): from
   * z = (x, y, P_x, P_y, Π) solves F⁻(g, λ) = (P, Π), φ(g) = 0 with α(g) = (x, y) by Newton, and
   * writes z' = F⁺(g, λ) = (x1, y1, P⁺_x, P⁺_y, Π⁺) into `out` (7). The guess (x1, y1, R, λ) comes
   * from `guess`/`guessLambda` when given, else x1 = x + hP_x, y1 = y + hP_y, R = I, λ = 0.
   * It is a Poisson map for {x, P_x} = {y, P_y} = 1, {Π_i, Π_j} = −ε_ijk Π_k (S5).
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const g2 = new Float64Array(13), lam2 = new Float64Array(3);
   * pb.stepForward(g2, lam2, pb.initialElement(0, 0, 0.02, 0.01), Float64Array.of(0.5, -0.4, 0.3));
   * const z = Float64Array.of(0, 0, 0.5, -0.4, 0.3, 0, 0);
   * pb.hamiltonianMap(new Float64Array(7), z, g2, lam2);
   * ```
   */
  hamiltonianMap(
    out: Float64Array,
    z: ArrayLike<number>,
    guess?: ArrayLike<number>,
    guessLambda?: ArrayLike<number>,
  ): Float64Array {
    checkLength('PlateBall.hamiltonianMap: z', z, 7);
    const g = this.cold.ge;
    const lam = this.cold.le;
    g[0] = z[0]!;
    g[1] = z[1]!;
    for (let i = 0; i < 5; i++) this.tgt[i] = z[2 + i]!;
    if (guess) {
      g[2] = guess[2]!;
      g[3] = guess[3]!;
      for (let i = 0; i < 9; i++) g[R0 + i] = guess[R0 + i]!;
    } else {
      g[2] = z[0]! + this.h * z[2]!;
      g[3] = z[1]! + this.h * z[3]!;
      g.fill(0, R0);
      g[4] = 1;
      g[8] = 1;
      g[12] = 1;
    }
    for (let i = 0; i < 3; i++) lam[i] = guessLambda ? guessLambda[i]! : 0;
    this.solveForward(g, lam);
    out[0] = g[2]!;
    out[1] = g[3]!;
    const p = this.legendrePlus(this.p5, g, lam);
    for (let i = 0; i < 5; i++) out[2 + i] = p[i]!;
    return out;
  }
}

/** Scratch of {@link PlateBall}'s cold paths (element Jacobian, reduced step, Hamiltonian map). */
interface ColdScratch {
  readonly full: Float64Array;
  readonly r9: Float64Array;
  readonly rt9: Float64Array;
  readonly jInv: Float64Array;
  readonly jActR: Float64Array;
  readonly jActRt: Float64Array;
  readonly jRl: Float64Array;
  readonly jRtr: Float64Array;
  /** The reduced step: M, M⁻¹, element and multipliers of the last residual, the 2 unknowns. */
  readonly n9: Float64Array;
  readonly mi9: Float64Array;
  readonly rg: Float64Array;
  readonly rl: Float64Array;
  readonly u2: Float64Array;
  /** The Hamiltonian map's element and multipliers. */
  readonly ge: Float64Array;
  readonly le: Float64Array;
}

function coldScratch(): ColdScratch {
  const m9 = () => new Float64Array(9);
  return {
    full: new Float64Array(169),
    r9: m9(),
    rt9: m9(),
    jInv: m9(),
    jActR: m9(),
    jActRt: m9(),
    jRl: m9(),
    jRtr: m9(),
    n9: m9(),
    mi9: m9(),
    rg: new Float64Array(PLATE_BALL_ELEMENT_SIZE),
    rl: new Float64Array(3),
    u2: new Float64Array(2),
    ge: new Float64Array(PLATE_BALL_ELEMENT_SIZE),
    le: new Float64Array(3),
  };
}

/** Rows/columns of {@link PlateBall.elementJacobian} that form the 8×8 step Jacobians. */
const BACKWARD_ROWS = Int32Array.of(0, 1, 2, 3, 4, 10, 11, 12);
const BACKWARD_COLS = Int32Array.of(0, 1, 7, 8, 9, 10, 11, 12);

function copyBlock(
  out: Float64Array,
  full: Float64Array,
  rows: Int32Array,
  cols: Int32Array,
): void {
  for (let i = 0; i < 8; i++) {
    const ro = rows[i]! * 13;
    for (let j = 0; j < 8; j++) out[8 * i + j] = full[ro + cols[j]!]!;
  }
}

/** Branch guard (spec 003 §12 item 5): tr R > 1, i.e. rotation angle < π/2, |hω| < 1. */
function checkBranch(g: ArrayLike<number>, step?: number): void {
  const t = g[4]! + g[8]! + g[12]!;
  if (!(t > 1)) {
    throw new DomainError(
      `plate-ball step${step === undefined ? '' : ` ${step}`}: tr R of the new increment`,
      t,
      'must be > 1 (rotation angle < π/2, |hω| < 1): the solution left the near-identity branch; reduce h',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Simulation

/**
 * The plate-ball integrator of spec 003 §8.2 (the CLI's method `lagrange-multiplier`): the
 * discrete constrained Euler–Lagrange equations on Pair(R²) × SO(3) with multipliers for (8), one
 * Newton solve per step (8 unknowns, or 2 in the reduced variant, which gives the same flow to
 * rounding). Variational, and its Hamiltonian map is a Poisson map (S5, tested); order and
 * symmetry are not claimed.
 *
 * @example
 * ```ts
 * plateBallMethod.name; // 'lagrange-multiplier'
 * ```
 */
export const plateBallMethod: MethodTraits = methodTraits({
  name: 'lagrange-multiplier',
  description: 'discrete constrained Euler–Lagrange equations with multipliers (spec 003 §8.2)',
  isExplicit: false,
  isSymplectic: true,
  isVariational: true,
});

/** The series of a plate-ball {@link Solution}. */
export type PlateBallField = 'x' | 'y' | 'R' | 'lambda' | 'casimir' | 'noether';

/**
 * A plate-ball trajectory. Sample j is the node k = `k[j]` at t = `t[j]` = k·h (the first at
 * k = 0, t = 0) with the element g_{k+1} that leaves it (from (x_k, y_k) to (x_{k+1}, y_{k+1}))
 * and its multipliers:
 * - `x`, `y`: the contact point (x_k, y_k) = α(g_{k+1});
 * - `R`: the reconstructed orientation G_k (`count × 9`, row-major; G_0 = I, G_{k+1} = G_k·g_{k+1}
 *   in the body frame);
 * - `lambda`: λ_{k+1} (`count × 3`; `lambda[0..3]` = `lambda1`);
 * - `casimir`: |Π⁻(g_{k+1}, λ_{k+1})|, the norm of the body momentum at node k (constant);
 * - `noether`: F_X = −y_k P_x + x_k P_y − Π_3 of the momentum (P, Π) = F⁻(g_{k+1}, λ_{k+1}) at
 *   node k (= F⁺(g_k, λ_k) by the DEL; constant, spec 003 §6).
 */
export type PlateBallSolution = Solution<PlateBallField>;

const PLATE_BALL_SERIES: readonly SeriesSpec<PlateBallField>[] = Object.freeze([
  { name: 'x', width: 1 },
  { name: 'y', width: 1 },
  { name: 'R', width: 9 },
  { name: 'lambda', width: 3 },
  { name: 'casimir', width: 1 },
  { name: 'noether', width: 1 },
]);

/** Offsets in the stepper state `[g (13), λ (3), G (9)]`. */
const ST_LAMBDA = PLATE_BALL_ELEMENT_SIZE;
const ST_G = PLATE_BALL_ELEMENT_SIZE + 3;
const PLATE_BALL_STATE = ST_G + 9;
/** Tangent size of the stepper state: (x_k, y_k, x_{k+1}, y_{k+1}), ρ, λ, δG. */
const PLATE_BALL_TANGENT = 13;
/** Length of PlateBallStepper's copy of the last step: g, λ before and after, and G after. */
const LAST_SIZE = 41;

/** Scratch of {@link PlateBallStepper.stepDerivatives}. */
interface PlateBallDerivativeScratch {
  readonly ejOld: Float64Array;
  readonly ejNew: Float64Array;
  readonly J: Float64Array;
  readonly lu: DenseLU;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
}

/**
 * The plate-ball integrator as a core {@link Stepper} (spec 003 §8.2, S5). The state of node k is
 * `[g_{k+1} (13), λ_{k+1} (3), G_k (9)]`: the element leaving the node, its multipliers and the
 * reconstructed orientation. A step reconstructs G_{k+1} = G_k·g_{k+1} (`'body'`) or
 * g_{k+1}ᵀG_k (`'spatial'`) and solves the DEL for (g_{k+2}, λ_{k+2}) with
 * {@link PlateBall.stepForward} (or {@link PlateBall.stepForwardReduced}). Allocates nothing.
 *
 * @example
 * ```ts
 * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
 * const s = new PlateBallStepper(pb);
 * const sol = integrate(s, s.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]), { h: 0.05, steps: 10 });
 * sol.casimir[10]; // 0.707041836261…
 * ```
 */
export class PlateBallStepper implements Stepper<PlateBallField> {
  readonly method = plateBallMethod;
  /** The step does not read t (core `integrate` then passes 0: no boxed time per step). */
  readonly stateSize = PLATE_BALL_STATE;
  readonly inputSize = 0;
  readonly series = PLATE_BALL_SERIES;
  lastResidual = 0;
  private readonly g = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
  private readonly lam = new Float64Array(3);
  private readonly G = new Float64Array(9);
  private readonly p5 = new Float64Array(5);
  /**
   * What {@link stepDerivatives} needs of the last step: `[g_{k+1} (13), λ_{k+1} (3), g_{k+2} (13),
   * λ_{k+2} (3), G_{k+1} (9)]` (41 copies per step).
   */
  private readonly last = new Float64Array(LAST_SIZE);
  private stepTaken = false;
  /** Scratch of {@link stepDerivatives}, allocated on its first call. */
  private derivScratch: PlateBallDerivativeScratch | undefined;
  /** Size of the tangent state (δ(x_k, y_k, x_{k+1}, y_{k+1}), ρ, δλ, δG) of {@link stepDerivatives}. */
  readonly tangentSize = PLATE_BALL_TANGENT;

  constructor(
    readonly pb: PlateBall,
    /** `'body'` (default) or `'spatial'` reconstruction, see {@link PlateBallSimulationOptions.frame}. */
    readonly frame: 'body' | 'spatial' = 'body',
    /** `'full'` (default): the 8×8 Newton step; `'reduced'`: the 2-unknown step. */
    readonly variant: 'full' | 'reduced' = 'full',
  ) {
    if (frame !== 'body' && frame !== 'spatial')
      throw new DomainError('PlateBallStepper: frame', frame, "must be 'body' or 'spatial'");
    if (variant !== 'full' && variant !== 'reduced')
      throw new DomainError('PlateBallStepper: method', variant, "must be 'full' or 'reduced'");
  }

  /**
   * The state `[g_1, λ_1, G_0 = I]` of node 0.
   * @throws DimensionError / DomainError for wrong lengths or non-finite entries.
   */
  initialState(g1: ArrayLike<number>, lambda1: ArrayLike<number>): Float64Array {
    checkLength('PlateBallStepper: g1', g1, PLATE_BALL_ELEMENT_SIZE);
    if (lambda1.length !== 3)
      throw new DimensionError('PlateBallStepper: lambda1', 3, lambda1.length);
    const s = new Float64Array(PLATE_BALL_STATE);
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++)
      s[i] = checkFinite(`PlateBallStepper: g1[${i}]`, g1[i]!);
    for (let i = 0; i < 3; i++)
      s[ST_LAMBDA + i] = checkFinite(`PlateBallStepper: lambda1[${i}]`, lambda1[i]!);
    s[ST_G] = 1;
    s[ST_G + 4] = 1;
    s[ST_G + 8] = 1;
    return s;
  }

  /**
   * One step from node k: G ← G·g (or gᵀG), (g, λ) ← the next element and multipliers.
   * @throws NewtonDivergedError, SingularJacobianError naming step `k`; DomainError when the new
   *   increment leaves the branch |hω| < 1 (the state is then unchanged).
   */
  step(state: Float64Array, k: number, h: number): number {
    const { pb, g, lam, G, last } = this;
    if (h !== pb.h)
      throw new DomainError('PlateBallStepper.step: h', h, `must be the system's h = ${pb.h}`);
    this.stepTaken = false;
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++) g[i] = state[i]!;
    for (let i = 0; i < 3; i++) lam[i] = state[ST_LAMBDA + i]!;
    for (let i = 0; i < PLATE_BALL_STATE - 9; i++) last[i] = state[i]!;
    // G_{k+1} = G_k·g_{k+1} (body) or g_{k+1}ᵀ·G_k (spatial)
    if (this.frame === 'body') mul3(G, state, g, 0, ST_G, R0);
    else {
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          let s = 0;
          for (let m = 0; m < 3; m++) s += g[R0 + 3 * m + i]! * state[ST_G + 3 * m + j]!;
          G[3 * i + j] = s;
        }
      }
    }
    const it =
      this.variant === 'full'
        ? pb.stepForward(g, lam, g, lam, k)
        : pb.stepForwardReduced(g, lam, g, lam, k);
    if (!Number.isFinite(g[2]!) || !Number.isFinite(g[3]!))
      throw new NonFiniteError(`plate-ball step ${k}: new contact point`);
    this.lastResidual = pb.lastResidualNorm;
    state.set(g, 0);
    state.set(lam, ST_LAMBDA);
    state.set(G, ST_G);
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++) last[16 + i] = g[i]!;
    for (let i = 0; i < 3; i++) last[29 + i] = lam[i]!;
    for (let i = 0; i < 9; i++) last[32 + i] = G[i]!;
    this.stepTaken = true;
    return it;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) in tangent
   * coordinates ({@link tangentSize} 13, not the storage's 25): x = (x_k, y_k, x_{k+1}, y_{k+1}
   * additive, ρ of R_{k+1}·exp(ρ̂) (the α-fibre coordinates of {@link PlateBall.stepJacobian}),
   * δλ_{k+1} additive, δG of G_k·Exp(δG)). With u = (x_{k+2}, y_{k+2}, ρ', λ_{k+2}) the unknowns of
   * the DEL residual F(u; g_{k+1}, λ_{k+1}) = 0 ({@link PlateBall.residual}), the implicit function
   * theorem gives ∂u/∂x = −(∂F/∂u)⁻¹ ∂F/∂x with ∂F/∂u = {@link PlateBall.stepJacobian} at the
   * accepted (g_{k+2}, λ_{k+2}) and ∂F/∂x from {@link PlateBall.elementJacobian}: −[P⁺; Π⁺] rows
   * at (g_{k+1}, λ_{k+1}), plus the [P⁻; Π⁻; φ/h] rows' x0, y0 columns at (g_{k+2}, λ_{k+2}), since
   * α(g_{k+2}) = β(g_{k+1}) = (x_{k+1}, y_{k+1}). The new (x_{k+1}, y_{k+1}) rows are copies, and
   * the reconstruction G_{k+1} = G_kR_{k+1} ('body') has ∂δG'/∂δG = R_{k+1}ᵀ, ∂δG'/∂ρ = I;
   * G_{k+1} = R_{k+1}ᵀG_k ('spatial') has ∂δG'/∂δG = I, ∂δG'/∂ρ = −G_{k+1}ᵀ. The same map for both
   * variants (the reduced step solves the same equations; its flow equals the full one to rounding).
   * The system is unforced (`inputSize` 0): `dxdu` has length 0. Cold path: allocates its scratch
   * on the first call.
   * @throws DomainError before any step (or after a failed one); DimensionError unless
   *   `dxdx.length` = 169 and `dxdu.length` = 0; SingularMatrixError for a singular ∂F/∂u.
   *
   * @example
   * ```ts
   * const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
   * const s = new PlateBallStepper(pb);
   * const x = s.initialState(pb.initialElement(0, 0, 0.02, 0.01), [0.5, -0.4, 0.3]);
   * s.step(x, 0, 0.05);
   * const A = new Float64Array(169);
   * s.stepDerivatives(A, new Float64Array(0));
   * A[2]; // 1: the new element starts where the old one ended
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    checkStepDerivatives(
      'PlateBallStepper.stepDerivatives',
      this.stepTaken ? undefined : 'no step taken',
      dxdx,
      dxdu,
      PLATE_BALL_TANGENT,
      0,
    );
    const n = PLATE_BALL_TANGENT;
    this.derivScratch ??= {
      ejOld: new Float64Array(169),
      ejNew: new Float64Array(169),
      J: new Float64Array(64),
      lu: new DenseLU(8),
      rhs: new Float64Array(8),
      col: new Float64Array(8),
    };
    const { ejOld, ejNew, J, lu, rhs, col } = this.derivScratch;
    const { pb, last } = this;
    const gOld = last.subarray(0, 13);
    const lamOld = last.subarray(13, 16);
    const gNew = last.subarray(16, 29);
    const lamNew = last.subarray(29, 32);
    pb.elementJacobian(ejOld, gOld, lamOld);
    pb.elementJacobian(ejNew, gNew, lamNew);
    pb.stepJacobian(J, gNew, lamNew);
    lu.factor(J);
    if (lu.isSingular) throw new SingularMatrixError('PlateBallStepper.stepDerivatives: ∂F/∂u', -1);
    dxdx.fill(0);
    dxdx[2] = 1;
    dxdx[n + 3] = 1;
    // tangent columns 0..9 ↔ elementJacobian columns [x0, y0, x1, y1, ρ (3), λ (3)]
    for (let c = 0; c < 10; c++) {
      const ec = c < 7 ? c : c + 3;
      for (let r = 0; r < 8; r++) {
        let v = r < 5 ? -ejOld[13 * r + ec]! : 0;
        if (c === 2) v += ejNew[13 * (5 + r)]!;
        else if (c === 3) v += ejNew[13 * (5 + r) + 1]!;
        rhs[r] = -v;
      }
      lu.solve(rhs, col);
      // u = (x_{k+2}, y_{k+2}, ρ', λ_{k+2}) → tangent rows 2..9
      for (let r = 0; r < 8; r++) dxdx[n * (2 + r) + c] = col[r]!;
    }
    // δG rows 10..12
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const row = n * (10 + i);
        if (this.frame === 'body') {
          dxdx[row + 10 + j] = gOld[R0 + 3 * j + i]!;
          dxdx[row + 4 + j] = i === j ? 1 : 0;
        } else {
          dxdx[row + 10 + j] = i === j ? 1 : 0;
          dxdx[row + 4 + j] = -last[32 + 3 * j + i]!;
        }
      }
    }
  }

  /** Writes x, y, R, lambda, casimir, noether of node k (see {@link PlateBallSolution}). */
  record(out: Float64Array, state: Float64Array): void {
    const { g, lam } = this;
    for (let i = 0; i < PLATE_BALL_ELEMENT_SIZE; i++) g[i] = state[i]!;
    for (let i = 0; i < 3; i++) lam[i] = state[ST_LAMBDA + i]!;
    out[0] = g[0]!;
    out[1] = g[1]!;
    for (let i = 0; i < 9; i++) out[2 + i] = state[ST_G + i]!;
    out[11] = lam[0]!;
    out[12] = lam[1]!;
    out[13] = lam[2]!;
    const p = this.pb.legendreMinus(this.p5, g, lam);
    hypot3(out, 14, p, 2); // Math.hypot's bits, without its ~100 B per call
    out[15] = -g[1]! * p[0]! + g[0]! * p[1]! - p[4]!;
  }
}

/** Options of {@link simulatePlateBall} (defaults: `../shared/spec/CLI.md`, spec 003 S5). */
export interface PlateBallSimulationOptions
  extends Pick<IntegrateRecordingOptions, 'every' | 'onProgress' | 'onFailure'> {
  /** Time step. Default 0.05 (unless `tEnd` is given). */
  readonly h?: number;
  /** Final time: h = tEnd/steps, and the last sample is at exactly `tEnd`. Instead of `h`. */
  readonly tEnd?: number;
  /** Ball radius. Default 1. */
  readonly r?: number;
  /** Plate angular velocity. Default 0.7. */
  readonly Omega?: number;
  /** Spin constant. Default 0.3. */
  readonly c?: number;
  /** First contact point. Default (0, 0). */
  readonly x0?: number;
  readonly y0?: number;
  /** Second contact point. Default (0.02, 0.01). */
  readonly x1?: number;
  readonly y1?: number;
  /** Initial multipliers λ_1 (of g_1). Default (0.5, −0.4, 0.3). */
  readonly lambda1?: ArrayLike<number>;
  /** Number of steps (step solves). Default 200. */
  readonly steps?: number;
  /** See {@link PlateBallParameters.lambda3Sign}. Default 1. */
  readonly lambda3Sign?: 1 | -1;
  /**
   * `'body'` (default): G_k = G_{k−1}g_k, ω in (8) is the body angular velocity (spec 003 §12
   * item 3). `'spatial'`: g_k := G_{k−1}G_kᵀ ≈ exp(−hω̂_spatial), so (8) is used with r → −r,
   * c → −c and G_k = g_kᵀG_{k−1}; the multipliers are then those of that system.
   */
  readonly frame?: 'body' | 'spatial';
  /** `'full'` (default): the 8×8 Newton step; `'reduced'`: the 2-unknown reduced step. */
  readonly method?: 'full' | 'reduced';
  /** Tolerance and iteration cap of the step solves. */
  readonly tol?: number;
  readonly maxIterations?: number;
}

/**
 * Simulates the discrete plate-ball system (spec 003 §8.2, S5; backs `geomech simulate
 * plate-ball`): core's `integrate` over a {@link PlateBallStepper} from node 0 with
 * g_1 = {@link PlateBall.initialElement}(x0, y0, x1, y1) and λ_1; sample j is node k at t = k·h
 * (see {@link PlateBallSolution}), the first at t = 0, the last at `steps`·h (exactly `tEnd` when
 * given).
 *
 * @throws DomainError for bad options or when an increment leaves the branch |hω| < 1;
 *   NewtonDivergedError / SingularJacobianError naming the step (unless `onFailure: 'return'`).
 *
 * @example
 * ```ts
 * const sol = simulatePlateBall({ steps: 200 }); // S5 defaults
 * sol.casimir[0]; // 0.707041836261…
 * sol.t[200];     // 10
 * ```
 */
export function simulatePlateBall(options: PlateBallSimulationOptions = {}): PlateBallSolution {
  const steps = options.steps ?? 200;
  if (!Number.isSafeInteger(steps) || steps < 0)
    throw new DomainError('simulatePlateBall: steps', steps, 'must be an integer >= 0');
  const h = stepSize(
    'simulatePlateBall',
    options.tEnd === undefined ? (options.h ?? 0.05) : options.h,
    options.tEnd,
    steps,
  );
  const frame = options.frame ?? 'body';
  if (frame !== 'body' && frame !== 'spatial')
    throw new DomainError('simulatePlateBall: frame', frame, "must be 'body' or 'spatial'");
  const flip = frame === 'spatial' ? -1 : 1;
  const pb = new PlateBall({
    h,
    r: flip * (options.r ?? 1),
    Omega: options.Omega ?? 0.7,
    c: flip * (options.c ?? 0.3),
    lambda3Sign: options.lambda3Sign ?? 1,
    ...(options.tol === undefined ? {} : { tol: options.tol }),
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
  });
  const stepper = new PlateBallStepper(pb, frame, options.method ?? 'full');
  const lambda1 = options.lambda1 ?? [0.5, -0.4, 0.3];
  if (lambda1.length !== 3)
    throw new DimensionError('simulatePlateBall: lambda1', 3, lambda1.length);
  const g1 = pb.initialElement(
    options.x0 ?? 0,
    options.y0 ?? 0,
    options.x1 ?? 0.02,
    options.y1 ?? 0.01,
  );
  return integrate(stepper, stepper.initialState(g1, lambda1), {
    steps,
    ...(options.tEnd === undefined ? { h } : { tEnd: options.tEnd }),
    ...(options.every === undefined ? {} : { every: options.every }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.onFailure === undefined ? {} : { onFailure: options.onFailure }),
  });
}
