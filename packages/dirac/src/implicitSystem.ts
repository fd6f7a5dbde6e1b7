/**
 * Implicit Lagrangian systems (L, Δ_Q, X) (seed 002 §6, spec 002 §3.9, §5.8): the system and the
 * residuals of the implicit Lagrange–d'Alembert equations (6.3) and of their multiplier form
 * (6.4), the multipliers, the generalized energy (Prop 6.5) and the Dirac condition (6.2). Its
 * regularity is in `regularity.ts`; the solvers, none of which is in the paper (spec 002 §7
 * item 8), are in `indexReduction.ts` ({@link integrateIndexReduced}), `nullSpaceIntegration.ts`
 * ({@link integrateNullSpace}), `constraintAlgorithm.ts` and `degenerate.ts`
 * ({@link integrateDegenerate}).
 *
 * Sign conventions (spec 002 §7 item 15): ṗ − ∂L/∂q = Aᵀμ = μ_a ωᵃ, with the rows of A the
 * constraint one-forms ωᵃ exactly as given, so the paper's μ formulas hold as printed.
 *
 * @module
 */
import { DenseQR, DimensionError, matTVec, matVec, transpose } from '@geomech/core';
import {
  INDUCED_MEMBERSHIP_TOL,
  type InducedDiracStructure,
  inducedDiracStructure,
} from './induced.js';
import { checkFinite, checkLength, maxAbs } from './internal.js';
import { DIRAC_RANK_RTOL, distributionBasisAt, generalizedEnergy } from './lagrangian.js';
import { checkRegularity, type RegularityReport, regularityReport } from './regularity.js';
import { diracDifferential } from './tulczyjew.js';
import type { Distribution, Lagrangian } from './types.js';

/** The Legendre defect p − ∂L/∂v(q, v) of (6.3) / (6.4). */
function legendreDefect(
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  p: ArrayLike<number>,
): Float64Array {
  const out = L.Lv(new Float64Array(L.n), q, v);
  for (let i = 0; i < L.n; i++) out[i] = p[i]! - out[i]!;
  return out;
}

/** The kinematic defect q̇ − v of (6.3) / (6.4). */
function kinematicDefect(qdot: ArrayLike<number>, v: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = qdot[i]! - v[i]!;
  return out;
}

/** The unbalanced force ṗ − ∂L/∂q(q, v), which (6.3) puts in Δ°(q) and (6.4) equates to Aᵀμ. */
function forceDefect(
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  pdot: ArrayLike<number>,
): Float64Array {
  const out = L.Lq(new Float64Array(L.n), q, v);
  for (let i = 0; i < L.n; i++) out[i] = pdot[i]! - out[i]!;
  return out;
}

// ---------------------------------------------------------------------------------------------
// the system

/** The four parts of the residual of (6.3) at a point (q, v, p) with tangent (q̇, ṗ). */
export interface ImplicitResidual {
  /** p − ∂L/∂v (n): the Legendre relation, equality of base points in (6.2). */
  readonly legendre: Float64Array;
  /** q̇ − v (n): the second-order condition (Cor 6.4). */
  readonly kinematic: Float64Array;
  /** A(q)v (m): v ∈ Δ(q). */
  readonly constraint: Float64Array;
  /** Gᵀ(ṗ − ∂L/∂q) (r = dim Δ): zero iff ṗ − ∂L/∂q ∈ Δ°(q). */
  readonly dynamics: Float64Array;
}

/** The four parts of the residual of (6.4): 3n + m equations in (q, v, p, μ). */
export interface MultiplierResidual {
  /** q̇ − v (n). */
  readonly kinematic: Float64Array;
  /** ṗ − ∂L/∂q − Aᵀμ (n). */
  readonly dynamics: Float64Array;
  /** p − ∂L/∂v (n). */
  readonly legendre: Float64Array;
  /** A(q)v (m). */
  readonly constraint: Float64Array;
}

/**
 * The largest absolute entry over all parts of a residual.
 *
 * @example
 * ```ts
 * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
 * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
 * const { q, v, p, qdot, pdot } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
 * residualMaxNorm(sys.residual(q, v, p, qdot, pdot)); // ≈ 0 on a solution
 * ```
 */
export function residualMaxNorm(r: ImplicitResidual | MultiplierResidual): number {
  return Math.max(
    maxAbs(r.legendre),
    maxAbs(r.kinematic),
    maxAbs(r.constraint),
    maxAbs(r.dynamics),
  );
}

/**
 * An implicit Lagrangian system (L, Δ_Q) on Q = Rⁿ (Def 6.1, spec 002 §5.8): the residuals of its
 * local equations (6.3) / (6.4), multipliers, energy and regularity. The solvers are the free
 * functions {@link integrateIndexReduced}, {@link integrateNullSpace} and
 * {@link integrateDegenerate}.
 *
 * @example
 * ```ts
 * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
 * const disk = model.lagrangian, rolling = model.distribution;
 * const { q, v, p, pdot } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
 * const sys = new ImplicitLagrangianSystem(disk, rolling);
 * residualMaxNorm(sys.residual(q, v, p, v, pdot)); // ≈ 0 along the closed form of spec 002 §4.1
 * sys.multipliers(q, v, p, pdot);                   // (−mRΩω sin φ, mRΩω cos φ)
 * ```
 */
export class ImplicitLagrangianSystem {
  /** Dimension n of Q. */
  readonly n: number;
  /** Number m of constraint one-forms. */
  readonly m: number;

  constructor(
    readonly L: Lagrangian,
    readonly Delta: Distribution,
  ) {
    if (!Number.isInteger(L.n) || L.n < 1)
      throw new DimensionError('ImplicitLagrangianSystem: L.n', '>= 1', L.n);
    if (Delta.n !== L.n)
      throw new DimensionError('ImplicitLagrangianSystem: Delta.n', L.n, Delta.n);
    if (!Number.isInteger(Delta.m) || Delta.m < 0 || Delta.m > L.n)
      throw new DimensionError('ImplicitLagrangianSystem: Delta.m', `0..${L.n}`, Delta.m);
    this.n = L.n;
    this.m = Delta.m;
  }

  private induced: InducedDiracStructure | undefined;

  /**
   * The Dirac condition (6.2) at a point: (X, 𝔇L(q, v)) ∈ D_{Δ_Q}(q, p) with X = (q, p, q̇, ṗ)
   * and 𝔇L = (q, ∂L/∂v, −∂L/∂q, v) (6.1), tested by `inducedDiracStructure(Delta).containsLocal`
   * (5.5). It includes the base-point condition p = ∂L/∂v (relative tolerance `tol`).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, p, pdot } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.isSolutionPoint(q, v, p, v, pdot); // true along solution curves (spec 002 §6 item 8)
   * ```
   */
  isSolutionPoint(
    q: Float64Array,
    v: Float64Array,
    p: Float64Array,
    qdot: Float64Array,
    pdot: Float64Array,
    tol = INDUCED_MEMBERSHIP_TOL,
  ): boolean {
    const n = this.n;
    checkLength('isSolutionPoint: q', q, n);
    checkLength('isSolutionPoint: v', v, n);
    checkLength('isSolutionPoint: p', p, n);
    checkLength('isSolutionPoint: qdot', qdot, n);
    checkLength('isSolutionPoint: pdot', pdot, n);
    this.induced ??= inducedDiracStructure(this.Delta);
    const DL = diracDifferential(this.L, q, v);
    return this.induced.containsLocal({ q, p }, { q, p, dq: qdot, dp: pdot }, DL, tol);
  }

  /** A(q) (m×n, allocated): the constraint one-forms ωᵃ as rows. */
  A(q: Float64Array): Float64Array {
    checkLength('ImplicitLagrangianSystem.A: q', q, this.n);
    const A = this.Delta.A(new Float64Array(this.m * this.n), q);
    checkFinite('ImplicitLagrangianSystem.A', A, this.m * this.n);
    return A;
  }

  /**
   * A basis G(q) of Δ(q) as columns (n×r): `Delta.G` when given, else an orthonormal null space
   * of A(q). The quasi-velocities u of {@link integrateNullSpace} are coordinates in this basis.
   */
  basis(q: Float64Array): { readonly G: Float64Array; readonly r: number } {
    checkLength('ImplicitLagrangianSystem.basis: q', q, this.n);
    return distributionBasisAt(this.Delta, q);
  }

  /**
   * The residual of the implicit Euler–Lagrange (Lagrange–d'Alembert) equations (6.3),
   *
   *   p = ∂L/∂v,  q̇ = v,  q̇ ∈ Δ(q),  ṗ − ∂L/∂q ∈ Δ°(q),
   *
   * as {legendre: p − ∂L/∂v, kinematic: q̇ − v, constraint: A(q)v, dynamics: Gᵀ(ṗ − ∂L/∂q)}.
   * (With q̇ = v the condition q̇ ∈ Δ is the constraint part.) All parts vanish exactly on
   * solution curves (Def 6.2).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, p, qdot, pdot } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * const r = sys.residual(q, v, p, qdot, pdot);
   * r.dynamics; // zero iff ṗ − ∂L/∂q is a combination of the rows of A(q)
   * ```
   */
  residual(
    q: Float64Array,
    v: Float64Array,
    p: ArrayLike<number>,
    qdot: ArrayLike<number>,
    pdot: ArrayLike<number>,
  ): ImplicitResidual {
    const { n, m, L } = this;
    checkLength('residual: q', q, n);
    checkLength('residual: v', v, n);
    checkLength('residual: p', p, n);
    checkLength('residual: qdot', qdot, n);
    checkLength('residual: pdot', pdot, n);
    const legendre = legendreDefect(L, q, v, p);
    const kinematic = kinematicDefect(qdot, v, n);
    const A = this.A(q);
    const constraint = matVec(new Float64Array(m), A, m, n, v);
    const force = forceDefect(L, q, v, pdot);
    const { G, r } = this.basis(q);
    const dynamics = matTVec(new Float64Array(r), G, n, r, force);
    return { legendre, kinematic, constraint, dynamics };
  }

  /**
   * The residual of the multiplier form (6.4): q̇ = v, ṗ = ∂L/∂q + A(q)ᵀμ, p = ∂L/∂v, A(q)v = 0
   * (3n + m equations in the 3n + m unknowns (q, v, p, μ) at given q̇, ṗ).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, p, pdot, mu } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * residualMaxNorm(sys.residualWithMultipliers(q, v, p, mu, v, pdot)); // ≈ 0 on a solution
   * ```
   */
  residualWithMultipliers(
    q: Float64Array,
    v: Float64Array,
    p: ArrayLike<number>,
    mu: ArrayLike<number>,
    qdot: ArrayLike<number>,
    pdot: ArrayLike<number>,
  ): MultiplierResidual {
    const { n, m, L } = this;
    checkLength('residualWithMultipliers: q', q, n);
    checkLength('residualWithMultipliers: v', v, n);
    checkLength('residualWithMultipliers: p', p, n);
    checkLength('residualWithMultipliers: mu', mu, m);
    checkLength('residualWithMultipliers: qdot', qdot, n);
    checkLength('residualWithMultipliers: pdot', pdot, n);
    const kinematic = kinematicDefect(qdot, v, n);
    const A = this.A(q);
    const Atmu = matTVec(new Float64Array(n), A, m, n, mu);
    const dynamics = forceDefect(L, q, v, pdot);
    for (let i = 0; i < n; i++) dynamics[i] = dynamics[i]! - Atmu[i]!;
    const legendre = legendreDefect(L, q, v, p);
    const constraint = matVec(new Float64Array(m), A, m, n, v);
    return { kinematic, dynamics, legendre, constraint };
  }

  /**
   * The multipliers μ of (6.4): the least-squares (minimum-norm, if A is rank-deficient) solution
   * of A(q)ᵀμ = ṗ − ∂L/∂q(q, v). `p` is not needed by the formula; it is taken so that the call
   * reads at a point (q, v, p) of the Pontryagin bundle, as in spec 002 §5.8.
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, p, pdot } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.multipliers(q, v, p, pdot); // rolling disk: (−mRΩω sin φ, mRΩω cos φ), spec 002 §4.1
   * ```
   */
  multipliers(
    q: Float64Array,
    v: Float64Array,
    _p: ArrayLike<number>,
    pdot: ArrayLike<number>,
  ): Float64Array {
    const { n, m, L } = this;
    checkLength('multipliers: q', q, n);
    checkLength('multipliers: v', v, n);
    checkLength('multipliers: pdot', pdot, n);
    if (m === 0) return new Float64Array(0);
    const e = forceDefect(L, q, v, pdot);
    const At = transpose(new Float64Array(n * m), this.A(q), m, n);
    return new DenseQR(n, m).factor(At, n, m).solveLeastSquares(e, new Float64Array(m));
  }

  /**
   * The power ⟨Aᵀμ, v⟩ = μ·(A v) of the constraint forces; zero on Δ (they do no work, Prop 6.5).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, mu } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.constraintForcePower(q, v, mu); // ≈ 0 along solutions
   * ```
   */
  constraintForcePower(q: Float64Array, v: ArrayLike<number>, mu: ArrayLike<number>): number {
    const { n, m } = this;
    checkLength('constraintForcePower: v', v, n);
    checkLength('constraintForcePower: mu', mu, m);
    const force = matTVec(new Float64Array(n), this.A(q), m, n, mu);
    let s = 0;
    for (let i = 0; i < n; i++) s += force[i]! * v[i]!;
    return s;
  }

  /**
   * The generalized energy E = ⟨p, v⟩ − L(q, v) (Prop 6.5), constant along solutions.
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v, p } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.energy(q, v, p); // rolling disk: ½(mR² + I)Ω² + ½Jω²
   * ```
   */
  energy(q: Float64Array, v: Float64Array, p: ArrayLike<number>): number {
    return generalizedEnergy(this.L, q, v, p);
  }

  /**
   * The ranks behind regularity at (q, v): rank A(q) = m and rank GᵀMG = dim Δ are needed by the
   * index reduction (the block matrix [M −Aᵀ; A 0] is then invertible). Reports the first
   * defect instead of throwing; see {@link checkRegular} ({@link regularityReport}).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.regularity(q, v).defect; // undefined for the rolling disk, 'singular-constrained-mass' for the 4-port circuit
   * ```
   */
  regularity(q: Float64Array, v: Float64Array, rtol = DIRAC_RANK_RTOL): RegularityReport {
    return regularityReport(this, q, v, rtol);
  }

  /**
   * {@link regularity}, throwing {@link NonRegularSystemError} naming the defect: dependent
   * constraint rows (`rank-deficient-constraints`) or a singular constrained mass GᵀMG
   * (`singular-constrained-mass`, L degenerate on Δ: spec 002 §4.2 item 7) ({@link checkRegularity}).
   *
   * @example
   * ```ts
   * const model = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
   * const sys = new ImplicitLagrangianSystem(model.lagrangian, model.distribution);
   * const { q, v } = model.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 }); // on the closed form
   * sys.checkRegular(q, v); // returns the report, or throws
   * ```
   */
  checkRegular(q: Float64Array, v: Float64Array, rtol = DIRAC_RANK_RTOL): RegularityReport {
    return checkRegularity(this, q, v, rtol);
  }
}

/**
 * The distribution Δ_Q = TQ (no constraints, m = 0) on Rⁿ: with it an implicit Lagrangian system
 * is the Euler–Lagrange equations with q̇ = v for free (spec 002 §3.9, case Δ_Q = TQ).
 *
 * @example
 * ```ts
 * const m = 2, k = 8;
 * const osc = new ImplicitLagrangianSystem(quadraticLagrangian([m], [k]), unconstrainedDistribution(1));
 * ```
 */
export function unconstrainedDistribution(n: number): Distribution {
  if (!Number.isInteger(n) || n < 1)
    throw new DimensionError('unconstrainedDistribution: n', '>= 1', n);
  return {
    n,
    m: 0,
    A: (out) => out,
    Adot: (out) => out,
    G: (out) => {
      out.fill(0, 0, n * n);
      for (let i = 0; i < n; i++) out[i * n + i] = 1;
      return out;
    },
  };
}
