/**
 * Implicit Lagrangian systems (L, Δ_Q, X) (seed 002 §6, spec 002 §3.9, §5.8): the residuals of
 * the implicit Lagrange–d'Alembert equations (6.3) and of their multiplier form (6.4), the
 * multipliers, the generalized energy (Prop 6.5), a regularity check, and three solvers, none of
 * which is in the paper (spec 002 §7 item 8):
 *
 * - (a) {@link integrateIndexReduced}: the regular case (A of full row rank, GᵀMG invertible) by
 *   index reduction, [M −Aᵀ; A 0][v̇; μ] = [∂L/∂q − N v; −Ȧ v], with DOPRI5;
 * - (b) {@link integrateNullSpace}: quasi-velocities v = G(q)u, Gᵀ(d/dt ∂L/∂v − ∂L/∂q) = 0 as an
 *   ODE in (q, u);
 * - (c) {@link constraintAlgorithm} and {@link integrateDegenerate}: degenerate *linear-quadratic*
 *   systems (L = ½vᵀMv + vᵀSq − ½qᵀKq, constant A), where a Gotay–Nester / Wong-sequence
 *   iteration finds the primary and the secondary constraints (the 4-port L-C circuit's hidden
 *   q_C1/C1 = q_C3/C3, spec 002 §4.2) and the dynamics become an ODE on the constraint subspace.
 *
 * Sign conventions (spec 002 §7 item 15): ṗ − ∂L/∂q = Aᵀμ = μ_a ωᵃ, with the rows of A the
 * constraint one-forms ωᵃ exactly as given, so the paper's μ formulas hold as printed.
 *
 * @module
 */
import {
  DenseLU,
  DenseQR,
  DimensionError,
  DomainError,
  Dopri5Integrator,
  type Dopri5Options,
  type Dopri5Stats,
  eigenvalues,
  expm,
  finiteDifferenceJacobian,
  minNormSolve,
  NEWTON_DEFAULT_STEP_TOL,
  type NonRegularDefect,
  NonRegularSystemError,
  nullSpace,
  type OdeRhs,
  SINGULAR_JACOBIAN_CONDITION,
} from '@geomech/core';
import {
  INDUCED_MEMBERSHIP_TOL,
  type InducedDiracStructure,
  inducedDiracStructure,
} from './induced.js';
import { checkFinite, checkLength, maxAbs, rankAtScale, spectralNorm } from './internal.js';
import {
  DIRAC_RANK_RTOL,
  distributionBasisAt,
  FOURTH_ORDER_DIFFERENCE_STEP,
  generalizedEnergy,
  isQuadraticLagrangian,
} from './lagrangian.js';
import { diracDifferential } from './tulczyjew.js';
import type { Distribution, Lagrangian } from './types.js';

// ---------------------------------------------------------------------------------------------
// errors

/**
 * What makes an implicit Lagrangian system non-regular for a solver (core's
 * {@link NonRegularDefect} without the groupoid's bordered-Jacobian case):
 * `rank-deficient-constraints`, `singular-constrained-mass`, `undetermined-dynamics`.
 */
export type ImplicitNonRegularDefect = Exclude<NonRegularDefect, 'singular-bordered-jacobian'>;

// NonRegularSystemError is core's (one error registry); re-exported by this package's index.

// ---------------------------------------------------------------------------------------------
// helpers

/** out (r×c) ← a (r×k) · b (k×c). */
function mul(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  r: number,
  k: number,
  c: number,
): Float64Array {
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      let s = 0;
      for (let l = 0; l < k; l++) s += a[i * k + l]! * b[l * c + j]!;
      out[i * c + j] = s;
    }
  }
  return out;
}

/** out (c×r) ← aᵀ for a (r×c). */
function transposeOf(a: ArrayLike<number>, r: number, c: number): Float64Array {
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = a[i * c + j]!;
  return out;
}

/** out ← aᵀ x for a (r×c), x (r). */
function matTVecInto(
  out: Float64Array,
  a: ArrayLike<number>,
  r: number,
  c: number,
  x: ArrayLike<number>,
): Float64Array {
  for (let j = 0; j < c; j++) {
    let s = 0;
    for (let i = 0; i < r; i++) s += a[i * c + j]! * x[i]!;
    out[j] = s;
  }
  return out;
}

/** out ← a x for a (r×c), x (c). */
function matVecInto(
  out: Float64Array,
  a: ArrayLike<number>,
  r: number,
  c: number,
  x: ArrayLike<number>,
  xOff = 0,
): Float64Array {
  for (let i = 0; i < r; i++) {
    let s = 0;
    for (let j = 0; j < c; j++) s += a[i * c + j]! * x[xOff + j]!;
    out[i] = s;
  }
  return out;
}

/** Rows of an n×d column basis, transposed: the d×n matrix whose rows are the columns. */
function rowsFromColumns(basis: Float64Array, n: number, d: number): Float64Array {
  return transposeOf(basis, n, d);
}

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

/** Ranks behind regularity at a point (see {@link ImplicitLagrangianSystem.regularity}). */
export interface RegularityReport {
  /** Number m of constraint one-forms. */
  readonly m: number;
  /** Numerical rank of A(q) (relative tolerance {@link DIRAC_RANK_RTOL}·‖A‖₂). */
  readonly rankA: number;
  /** Dimension r of the basis G of Δ(q). */
  readonly r: number;
  /** Numerical rank of GᵀMG (relative to ‖M‖₂). */
  readonly rankConstrainedMass: number;
  /** The first defect found, `undefined` for a regular point. */
  readonly defect: ImplicitNonRegularDefect | undefined;
}

/**
 * An implicit Lagrangian system (L, Δ_Q) on Q = Rⁿ (Def 6.1, spec 002 §5.8): the residuals of its
 * local equations (6.3) / (6.4), multipliers, energy and regularity. The solvers are the free
 * functions {@link integrateIndexReduced}, {@link integrateNullSpace} and
 * {@link integrateDegenerate}.
 *
 * @example
 * ```ts
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
    const constraint = matVecInto(new Float64Array(m), A, m, n, v);
    const force = forceDefect(L, q, v, pdot);
    const { G, r } = this.basis(q);
    const dynamics = matTVecInto(new Float64Array(r), G, n, r, force);
    return { legendre, kinematic, constraint, dynamics };
  }

  /**
   * The residual of the multiplier form (6.4): q̇ = v, ṗ = ∂L/∂q + A(q)ᵀμ, p = ∂L/∂v, A(q)v = 0
   * (3n + m equations in the 3n + m unknowns (q, v, p, μ) at given q̇, ṗ).
   *
   * @example
   * ```ts
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
    const Atmu = matTVecInto(new Float64Array(n), A, m, n, mu);
    const dynamics = forceDefect(L, q, v, pdot);
    for (let i = 0; i < n; i++) dynamics[i] = dynamics[i]! - Atmu[i]!;
    const legendre = legendreDefect(L, q, v, p);
    const constraint = matVecInto(new Float64Array(m), A, m, n, v);
    return { kinematic, dynamics, legendre, constraint };
  }

  /**
   * The multipliers μ of (6.4): the least-squares (minimum-norm, if A is rank-deficient) solution
   * of A(q)ᵀμ = ṗ − ∂L/∂q(q, v). `p` is not needed by the formula; it is taken so that the call
   * reads at a point (q, v, p) of the Pontryagin bundle, as in spec 002 §5.8.
   *
   * @example
   * ```ts
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
    const At = transposeOf(this.A(q), m, n);
    return new DenseQR(n, m).factor(At, n, m).solveLeastSquares(e, new Float64Array(m));
  }

  /**
   * The power ⟨Aᵀμ, v⟩ = μ·(A v) of the constraint forces; zero on Δ (they do no work, Prop 6.5).
   *
   * @example
   * ```ts
   * sys.constraintForcePower(q, v, mu); // ≈ 0 along solutions
   * ```
   */
  constraintForcePower(q: Float64Array, v: ArrayLike<number>, mu: ArrayLike<number>): number {
    const { n, m } = this;
    checkLength('constraintForcePower: v', v, n);
    checkLength('constraintForcePower: mu', mu, m);
    const force = matTVecInto(new Float64Array(n), this.A(q), m, n, mu);
    let s = 0;
    for (let i = 0; i < n; i++) s += force[i]! * v[i]!;
    return s;
  }

  /**
   * The generalized energy E = ⟨p, v⟩ − L(q, v) (Prop 6.5), constant along solutions.
   *
   * @example
   * ```ts
   * sys.energy(q, v, p); // rolling disk: ½(mR² + I)Ω² + ½Jω²
   * ```
   */
  energy(q: Float64Array, v: Float64Array, p: ArrayLike<number>): number {
    return generalizedEnergy(this.L, q, v, p);
  }

  /**
   * The ranks behind regularity at (q, v): rank A(q) = m and rank GᵀMG = dim Δ are needed by the
   * index reduction (the block matrix [M −Aᵀ; A 0] is then invertible). Reports the first
   * defect instead of throwing; see {@link checkRegular}.
   *
   * @example
   * ```ts
   * sys.regularity(q, v).defect; // undefined for the rolling disk, 'singular-constrained-mass' for the 4-port circuit
   * ```
   */
  regularity(q: Float64Array, v: Float64Array, rtol = DIRAC_RANK_RTOL): RegularityReport {
    const { n, m, L } = this;
    checkLength('regularity: q', q, n);
    checkLength('regularity: v', v, n);
    const A = this.A(q);
    const rankA = m === 0 ? 0 : rankAtScale(A, m, n, spectralNorm(A, m, n), rtol);
    const M = L.Lvv(new Float64Array(n * n), q, v);
    checkFinite('regularity: ∂²L/∂v²', M);
    // with dependent rows Delta.G (n×(n−m)) has the wrong size: use the null space of A instead
    let G: Float64Array;
    let r: number;
    if (rankA < m) {
      const ns = nullSpace(A, m, n, rtol * spectralNorm(A, m, n));
      G = ns.basis;
      r = ns.d;
    } else ({ G, r } = this.basis(q));
    const GMG = mul(
      new Float64Array(r * r),
      transposeOf(G, n, r),
      mul(new Float64Array(n * r), M, G, n, n, r),
      r,
      n,
      r,
    );
    const rankConstrainedMass = r === 0 ? 0 : rankAtScale(GMG, r, r, spectralNorm(M, n, n), rtol);
    let defect: ImplicitNonRegularDefect | undefined;
    if (rankA < m) defect = 'rank-deficient-constraints';
    else if (rankConstrainedMass < r) defect = 'singular-constrained-mass';
    return { m, rankA, r, rankConstrainedMass, defect };
  }

  /**
   * {@link regularity}, throwing {@link NonRegularSystemError} naming the defect: dependent
   * constraint rows (`rank-deficient-constraints`) or a singular constrained mass GᵀMG
   * (`singular-constrained-mass`, L degenerate on Δ: spec 002 §4.2 item 7).
   *
   * @example
   * ```ts
   * sys.checkRegular(q, v); // returns the report, or throws
   * ```
   */
  checkRegular(q: Float64Array, v: Float64Array, rtol = DIRAC_RANK_RTOL): RegularityReport {
    const rep = this.regularity(q, v, rtol);
    if (rep.defect === 'rank-deficient-constraints') {
      throw new NonRegularSystemError(rep.defect, {
        detail: `rank A(q) = ${rep.rankA} < m = ${rep.m}: the constraint one-forms are dependent; drop redundant rows`,
        rank: rep.rankA,
        expected: rep.m,
      });
    }
    if (rep.defect === 'singular-constrained-mass') {
      throw new NonRegularSystemError(rep.defect, {
        detail: `rank GᵀMG = ${rep.rankConstrainedMass} < dim Δ = ${rep.r}: L is degenerate on Δ (secondary constraints); use integrateDegenerate`,
        rank: rep.rankConstrainedMass,
        expected: rep.r,
      });
    }
    return rep;
  }
}

/**
 * The distribution Δ_Q = TQ (no constraints, m = 0) on Rⁿ: with it an implicit Lagrangian system
 * is the Euler–Lagrange equations with q̇ = v for free (spec 002 §3.9, case Δ_Q = TQ).
 *
 * @example
 * ```ts
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

// ---------------------------------------------------------------------------------------------
// solutions

/** Work counters of a solver run; `undefined` parts did not apply (e.g. the exact exponential). */
export type SolverStats = Dopri5Stats;

/** The data of an {@link ImplicitLagrangianSolution}. */
export interface ImplicitSolutionData {
  readonly n: number;
  readonly m: number;
  readonly count: number;
  readonly t: Float64Array;
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly p: Float64Array;
  readonly mu: Float64Array;
  readonly energy: Float64Array;
  readonly velocityResidual: Float64Array;
  readonly positionResidual: Float64Array | undefined;
  readonly initialCorrection: number;
  readonly stats: SolverStats | undefined;
}

/**
 * A sampled solution curve (q(t), v(t), p(t)) of an implicit Lagrangian system with its
 * multipliers and diagnostics, in flat row-major storage (`count × n`, `count × m`).
 *
 * @example
 * ```ts
 * const sol = integrateIndexReduced(sys, { q0, v0 }, 10);
 * sol.qAt(sol.count - 1); // q(10)
 * sol.constraintDrift;    // { velocity: max |A v|, position: max |φ(q)| or undefined }
 * ```
 */
export class ImplicitLagrangianSolution implements ImplicitSolutionData {
  readonly n: number;
  readonly m: number;
  /** Number of samples. */
  readonly count: number;
  /** Sample times. */
  readonly t: Float64Array;
  /** q at the samples (count × n). */
  readonly q: Float64Array;
  /** v = q̇ at the samples (count × n). */
  readonly v: Float64Array;
  /** p = ∂L/∂v(q, v) at the samples (count × n). */
  readonly p: Float64Array;
  /** Multipliers μ (count × m): ṗ − ∂L/∂q = Aᵀμ. */
  readonly mu: Float64Array;
  /** Generalized energy ⟨p, v⟩ − L at the samples (Prop 6.5). */
  readonly energy: Float64Array;
  /** max_a |(A(q)v)_a| at the samples. */
  readonly velocityResidual: Float64Array;
  /**
   * Position-level residual at the samples when the solver knows one: max |φ(q)| of a given
   * holonomic constraint (index reduction), max |Cq| of the secondary constraints (degenerate).
   */
  readonly positionResidual: Float64Array | undefined;
  /** Euclidean norm of the change the consistent initialization made to the initial data. */
  readonly initialCorrection: number;
  /** DOPRI5 work counters (summed over restarts); undefined for the matrix exponential. */
  readonly stats: SolverStats | undefined;

  constructor(data: ImplicitSolutionData) {
    this.n = data.n;
    this.m = data.m;
    this.count = data.count;
    this.t = data.t;
    this.q = data.q;
    this.v = data.v;
    this.p = data.p;
    this.mu = data.mu;
    this.energy = data.energy;
    this.velocityResidual = data.velocityResidual;
    this.positionResidual = data.positionResidual;
    this.initialCorrection = data.initialCorrection;
    this.stats = data.stats;
  }

  /** Maximum constraint violation over the samples: |A v| and (if known) the position residual. */
  get constraintDrift(): { readonly velocity: number; readonly position: number | undefined } {
    return {
      velocity: maxAbs(this.velocityResidual),
      position: this.positionResidual === undefined ? undefined : maxAbs(this.positionResidual),
    };
  }

  /** max_k |E_k − E_0|. */
  get energyDrift(): number {
    const e = this.energy;
    let d = 0;
    for (let k = 1; k < this.count; k++) d = Math.max(d, Math.abs(e[k]! - e[0]!));
    return d;
  }

  /** View of q at sample k. */
  qAt(k: number): Float64Array {
    return this.q.subarray(k * this.n, (k + 1) * this.n);
  }

  /** View of v at sample k. */
  vAt(k: number): Float64Array {
    return this.v.subarray(k * this.n, (k + 1) * this.n);
  }

  /** View of p at sample k. */
  pAt(k: number): Float64Array {
    return this.p.subarray(k * this.n, (k + 1) * this.n);
  }

  /** View of μ at sample k. */
  muAt(k: number): Float64Array {
    return this.mu.subarray(k * this.m, (k + 1) * this.m);
  }
}

/** Output times and tolerances shared by the solvers. */
export interface ImplicitIntegrationOptions {
  /** Initial time. Default 0. */
  readonly t0?: number;
  /** Output times, increasing, inside [t0, tEnd]. Default: `samples` equidistant times. */
  readonly tEval?: ArrayLike<number>;
  /** Number of equidistant output times including t0 and tEnd when `tEval` is absent. Default 101. */
  readonly samples?: number;
  /** DOPRI5 relative tolerance. Default 1e-10. */
  readonly rtol?: number;
  /** DOPRI5 absolute tolerance. Default 1e-12. */
  readonly atol?: number;
  /** DOPRI5 maximum step. */
  readonly hmax?: number;
  /** DOPRI5 step budget. */
  readonly maxSteps?: number;
}

function sampleTimes(
  what: string,
  t0: number,
  tEnd: number,
  o: ImplicitIntegrationOptions,
): Float64Array {
  if (!Number.isFinite(t0)) throw new DomainError(`${what}: t0`, t0, 'must be finite');
  if (!(Number.isFinite(tEnd) && tEnd > t0))
    throw new DomainError(`${what}: tEnd`, tEnd, `must be finite and > t0 = ${t0}`);
  if (o.tEval !== undefined) {
    const t = Float64Array.from(o.tEval);
    if (t.length < 1) throw new DomainError(`${what}: tEval`, t.length, 'must not be empty');
    for (let k = 0; k < t.length; k++) {
      const tk = t[k]!;
      if (!(tk >= t0 && tk <= tEnd) || (k > 0 && !(tk > t[k - 1]!)))
        throw new DomainError(`${what}: tEval[${k}]`, tk, `must increase inside [${t0}, ${tEnd}]`);
    }
    return t;
  }
  const s = o.samples ?? 101;
  if (!Number.isInteger(s) || s < 2)
    throw new DomainError(`${what}: samples`, s, 'must be an integer ≥ 2');
  const t = new Float64Array(s);
  for (let k = 0; k < s; k++) t[k] = t0 + ((tEnd - t0) * k) / (s - 1);
  t[s - 1] = tEnd;
  return t;
}

function dopriOptions(
  o: ImplicitIntegrationOptions,
  tEval: Float64Array | undefined,
): Dopri5Options {
  const out: { -readonly [K in keyof Dopri5Options]: Dopri5Options[K] } = {
    rtol: o.rtol ?? 1e-10,
    atol: o.atol ?? 1e-12,
    dense: false,
  };
  if (o.hmax !== undefined) out.hmax = o.hmax;
  if (o.maxSteps !== undefined) out.maxSteps = o.maxSteps;
  if (tEval !== undefined) out.tEval = tEval;
  return out;
}

function addStats(a: SolverStats | undefined, b: SolverStats): SolverStats {
  if (a === undefined) return { ...b };
  return {
    ...a,
    attempts: a.attempts + b.attempts,
    accepted: a.accepted + b.accepted,
    rejected: a.rejected + b.rejected,
    fEvals: a.fEvals + b.fEvals,
  };
}

/** v ← v − Aᵀ(AAᵀ)⁻¹Av: the Euclidean projection onto ker A (A m×n of full row rank). */
function projectOntoKernel(v: Float64Array, A: Float64Array, m: number, n: number): void {
  if (m === 0) return;
  const Av = matVecInto(new Float64Array(m), A, m, n, v);
  const d = minNormSolve(A, m, n, Av);
  for (let i = 0; i < n; i++) v[i] = v[i]! - d[i]!;
}

// ---------------------------------------------------------------------------------------------
// (a) index reduction

/** A holonomic constraint φ(q) = 0 (k equations) whose differential the rows of A span. */
export interface PositionConstraint {
  /** Number k of equations. */
  readonly k: number;
  /** out ← φ(q) (k). */
  phi(out: Float64Array, q: Float64Array): void;
  /** out ← ∂φ/∂q (k×n). When absent, central differences. */
  jacobian?(out: Float64Array, q: Float64Array): void;
}

/** Options of {@link integrateIndexReduced}. */
export interface IndexReducedOptions extends ImplicitIntegrationOptions {
  /**
   * Project onto the constraints at every output time and restart from the projected state
   * (drift control): q onto φ(q) = 0 when `positionConstraint` is given (Gauss–Newton with
   * minimum-norm steps), then v onto ker A(q) (Euclidean). Default false.
   */
  readonly project?: boolean;
  /** A holonomic position constraint to monitor (and, with `project`, to enforce). */
  readonly positionConstraint?: PositionConstraint;
}

/** Initial data of the index-reduced solver; v0 is projected onto Δ(q0). */
export interface IndexReducedInitial {
  readonly q0: ArrayLike<number>;
  readonly v0: ArrayLike<number>;
}

/**
 * The index-1 form of (6.4) (spec 002 §5.8(a)): with M = ∂²L/∂v², N = ∂²L/∂v∂q,
 *
 *   [ M  −Aᵀ ] [ v̇ ]   [ ∂L/∂q − N v ]
 *   [ A   0  ] [ μ  ] = [ −Ȧ v        ],
 *
 * solved with an owned LU; q̇ = v. Allocation-free per evaluation.
 */
class IndexReducedField {
  private readonly n: number;
  private readonly m: number;
  private readonly M: Float64Array;
  private readonly N: Float64Array;
  private readonly A: Float64Array;
  private readonly Ad: Float64Array;
  private readonly kkt: Float64Array;
  private readonly b: Float64Array;
  readonly x: Float64Array;
  private readonly f: Float64Array;
  private readonly lu: DenseLU;
  private readonly q: Float64Array;
  private readonly v: Float64Array;

  constructor(private readonly sys: ImplicitLagrangianSystem) {
    const { n, m } = sys;
    this.n = n;
    this.m = m;
    this.M = new Float64Array(n * n);
    this.N = new Float64Array(n * n);
    this.A = new Float64Array(m * n);
    this.Ad = new Float64Array(m * n);
    this.kkt = new Float64Array((n + m) * (n + m));
    this.b = new Float64Array(n + m);
    this.x = new Float64Array(n + m);
    this.f = new Float64Array(n);
    this.lu = new DenseLU(n + m);
    this.q = new Float64Array(n);
    this.v = new Float64Array(n);
  }

  /** x ← [v̇; μ] at (q, v) read from y = [q, v] (offset `off`). */
  solve(y: ArrayLike<number>, off = 0): Float64Array {
    const { n, m, M, N, A, Ad, kkt, b, x, f, lu, q, v, sys } = this;
    for (let i = 0; i < n; i++) {
      q[i] = y[off + i]!;
      v[i] = y[off + n + i]!;
    }
    const L = sys.L;
    L.Lvv(M, q, v);
    L.Lvq(N, q, v);
    L.Lq(f, q, v);
    sys.Delta.A(A, q);
    sys.Delta.Adot(Ad, q, v);
    const w = n + m;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) kkt[i * w + j] = M[i * n + j]!;
      for (let a = 0; a < m; a++) kkt[i * w + n + a] = -A[a * n + i]!;
      let s = f[i]!;
      for (let j = 0; j < n; j++) s -= N[i * n + j]! * v[j]!;
      b[i] = s;
    }
    for (let a = 0; a < m; a++) {
      for (let j = 0; j < n; j++) kkt[(n + a) * w + j] = A[a * n + j]!;
      for (let c = 0; c < m; c++) kkt[(n + a) * w + n + c] = 0;
      let s = 0;
      for (let j = 0; j < n; j++) s -= Ad[a * n + j]! * v[j]!;
      b[n + a] = s;
    }
    checkFinite('integrateIndexReduced: right-hand side', b);
    lu.factor(kkt);
    if (lu.isSingular || lu.conditionEstimate() >= SINGULAR_JACOBIAN_CONDITION) {
      sys.checkRegular(q, v);
      throw new NonRegularSystemError('singular-constrained-mass', {
        detail: 'the index-reduction matrix [M −Aᵀ; A 0] is singular to working precision',
        rank: n + m - 1,
        expected: n + m,
      });
    }
    lu.solve(b, x);
    checkFinite('integrateIndexReduced: [v̇; μ]', x);
    return x;
  }

  readonly rhs: OdeRhs = (out, _t, y) => {
    const n = this.n;
    const x = this.solve(y);
    for (let i = 0; i < n; i++) {
      out[i] = y[n + i]!;
      out[n + i] = x[i]!;
    }
  };
}

/** Gauss–Newton projection of q onto φ(q) = 0 with minimum-norm steps (at most 20). */
function projectPosition(q: Float64Array, pc: PositionConstraint, n: number): void {
  const k = pc.k;
  const phi = new Float64Array(k);
  const J = new Float64Array(k * n);
  for (let it = 0; it < 20; it++) {
    pc.phi(phi, q);
    checkFinite('projectPosition: φ(q)', phi);
    if (pc.jacobian !== undefined) pc.jacobian(J, q);
    else finiteDifferenceJacobian(J, (out, x) => pc.phi(out, x), q, k, n);
    const d = minNormSolve(J, k, n, phi);
    for (let i = 0; i < n; i++) q[i] = q[i]! - d[i]!;
    if (maxAbs(d) <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, maxAbs(q))) return;
  }
}

interface RawTrajectory {
  readonly t: Float64Array;
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly count: number;
}

/** Fills p, energy, |Av| (and φ) for sampled (q, v); μ by the given callback. */
function assemble(
  sys: ImplicitLagrangianSystem,
  raw: RawTrajectory,
  muAt: (out: Float64Array, k: number, q: Float64Array, v: Float64Array) => void,
  positionAt: ((q: Float64Array) => number) | undefined,
  initialCorrection: number,
  stats: SolverStats | undefined,
): ImplicitLagrangianSolution {
  const { n, m, L } = sys;
  const { count } = raw;
  const p = new Float64Array(count * n);
  const mu = new Float64Array(count * m);
  const energy = new Float64Array(count);
  const vres = new Float64Array(count);
  const pres = positionAt === undefined ? undefined : new Float64Array(count);
  const A = new Float64Array(m * n);
  const Av = new Float64Array(m);
  for (let k = 0; k < count; k++) {
    const q = raw.q.subarray(k * n, (k + 1) * n);
    const v = raw.v.subarray(k * n, (k + 1) * n);
    const pk = p.subarray(k * n, (k + 1) * n);
    L.Lv(pk, q, v);
    energy[k] = generalizedEnergy(L, q, v, pk);
    sys.Delta.A(A, q);
    matVecInto(Av, A, m, n, v);
    vres[k] = maxAbs(Av);
    muAt(mu.subarray(k * m, (k + 1) * m), k, q, v);
    if (pres !== undefined && positionAt !== undefined) pres[k] = positionAt(q);
  }
  checkFinite('implicit solution: p', p);
  checkFinite('implicit solution: μ', mu);
  return new ImplicitLagrangianSolution({
    n,
    m,
    count,
    t: raw.t,
    q: raw.q,
    v: raw.v,
    p,
    mu,
    energy,
    velocityResidual: vres,
    positionResidual: pres,
    initialCorrection,
    stats,
  });
}

/**
 * Solver (a) of spec 002 §5.8: the regular case (rank A = m, GᵀMG invertible) by index
 * reduction. Differentiating A(q)v = 0 along q̇ = v and p = ∂L/∂v in (6.4) gives
 *
 *   [ M  −Aᵀ ] [ v̇ ]   [ ∂L/∂q − N v ]
 *   [ A   0  ] [ μ  ] = [ −Ȧ v        ],   q̇ = v,   p = ∂L/∂v,
 *
 * an ODE in y = (q, v) integrated with adaptive DOPRI5. Consistent initialization projects v0
 * onto ker A(q0) (and q0 onto φ = 0 when a `positionConstraint` is given). A v = 0 is then an
 * invariant that drifts only by the integration error; `project: true` restarts from the
 * projected state at every output time. Returns t, q, v, p, μ, energy and the constraint drift.
 *
 * @throws NonRegularSystemError naming the defect (dependent constraint rows, singular GᵀMG).
 * @example
 * ```ts
 * const sol = integrateIndexReduced(new ImplicitLagrangianSystem(disk, rolling), { q0, v0 }, 10);
 * sol.constraintDrift.velocity; // max |A v| ≲ 1e-11
 * sol.energyDrift;              // ≲ 1e-12
 * ```
 */
export function integrateIndexReduced(
  system: ImplicitLagrangianSystem,
  initial: IndexReducedInitial,
  tEnd: number,
  options: IndexReducedOptions = {},
): ImplicitLagrangianSolution {
  const what = 'integrateIndexReduced';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkLength(`${what}: v0`, initial.v0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: v0`, initial.v0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const pc = options.positionConstraint;
  const q0 = Float64Array.from(initial.q0);
  const v0 = Float64Array.from(initial.v0);
  if (pc !== undefined) projectPosition(q0, pc, n);
  system.checkRegular(q0, v0);
  projectOntoKernel(v0, system.A(q0), m, n);
  let corr = 0;
  for (let i = 0; i < n; i++)
    corr += (q0[i]! - initial.q0[i]!) ** 2 + (v0[i]! - initial.v0[i]!) ** 2;

  const field = new IndexReducedField(system);
  const count = times.length;
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const y = new Float64Array(2 * n);
  y.set(q0, 0);
  y.set(v0, n);
  let stats: SolverStats | undefined;
  if (options.project === true) {
    const integ = new Dopri5Integrator(2 * n, field.rhs, dopriOptions(options, undefined));
    let tPrev = t0;
    const q = new Float64Array(n);
    const v = new Float64Array(n);
    for (let k = 0; k < count; k++) {
      const tk = times[k]!;
      if (tk > tPrev) {
        const sol = integ.integrate(y, tPrev, tk);
        y.set(sol.sample('y', sol.count - 1));
        stats = addStats(stats, sol.stats);
        q.set(y.subarray(0, n));
        v.set(y.subarray(n));
        if (pc !== undefined) projectPosition(q, pc, n);
        projectOntoKernel(v, system.A(q), m, n);
        y.set(q, 0);
        y.set(v, n);
        tPrev = tk;
      }
      qs.set(y.subarray(0, n), k * n);
      vs.set(y.subarray(n), k * n);
    }
  } else {
    const integ = new Dopri5Integrator(2 * n, field.rhs, dopriOptions(options, times));
    const sol = integ.integrate(y, t0, tEnd);
    stats = { ...sol.stats };
    for (let k = 0; k < count; k++) {
      const s = sol.sample('y', k);
      qs.set(s.subarray(0, n), k * n);
      vs.set(s.subarray(n), k * n);
    }
  }
  const yk = new Float64Array(2 * n);
  const phi = pc === undefined ? undefined : new Float64Array(pc.k);
  return assemble(
    system,
    { t: times, q: qs, v: vs, count },
    (out, _k, q, v) => {
      yk.set(q, 0);
      yk.set(v, n);
      const x = field.solve(yk);
      for (let a = 0; a < m; a++) out[a] = x[n + a]!;
    },
    pc === undefined || phi === undefined
      ? undefined
      : (q) => {
          pc.phi(phi, q);
          return maxAbs(phi);
        },
    Math.sqrt(corr),
    stats,
  );
}

// ---------------------------------------------------------------------------------------------
// (b) null space / quasi-velocities

/** Options of {@link integrateNullSpace}. */
export interface NullSpaceOptions extends ImplicitIntegrationOptions {
  /**
   * out ← Ġ = Σ_k (∂G/∂qᵏ) vᵏ (n×r). When absent, fourth-order central differences of G along v
   * (step ε^{1/5}·max(1, ‖q‖∞)^{1/5}/‖v‖∞, about 1e-13 relative).
   */
  readonly Gdot?: (out: Float64Array, q: Float64Array, v: Float64Array) => void;
}

/** Initial data of the null-space solver: u0 are coordinates in the basis G(q0) of Δ(q0). */
export interface NullSpaceInitial {
  readonly q0: ArrayLike<number>;
  readonly u0: ArrayLike<number>;
}

/**
 * The quasi-velocity field: v = G(q)u, q̇ = Gu, (GᵀMG) u̇ = Gᵀ(∂L/∂q − N v − M Ġ u). When Δ has
 * no G, the smooth basis G(q) = (I − A⁺A)G₀ with G₀ the orthonormal null space of A(q₀).
 */
class NullSpaceField {
  readonly n: number;
  readonly r: number;
  private readonly G0: Float64Array | undefined;
  private readonly G: Float64Array;
  private readonly Gd: Float64Array;
  private readonly Gp: Float64Array;
  private readonly qw: Float64Array;
  private readonly M: Float64Array;
  private readonly N: Float64Array;
  private readonly f: Float64Array;
  private readonly MG: Float64Array;
  private readonly Mr: Float64Array;
  private readonly w: Float64Array;
  private readonly b: Float64Array;
  private readonly lu: DenseLU | undefined;
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly udot: Float64Array;
  readonly vdot: Float64Array;

  constructor(
    private readonly sys: ImplicitLagrangianSystem,
    q0: Float64Array,
    private readonly Gdot: NullSpaceOptions['Gdot'],
  ) {
    const n = sys.n;
    this.n = n;
    const { G, r } = sys.basis(q0);
    this.r = r;
    this.G0 = sys.Delta.G === undefined ? Float64Array.from(G) : undefined;
    this.G = new Float64Array(n * r);
    this.Gd = new Float64Array(n * r);
    this.Gp = new Float64Array(n * r);
    this.qw = new Float64Array(n);
    this.M = new Float64Array(n * n);
    this.N = new Float64Array(n * n);
    this.f = new Float64Array(n);
    this.MG = new Float64Array(n * r);
    this.Mr = new Float64Array(r * r);
    this.w = new Float64Array(n);
    this.b = new Float64Array(r);
    this.lu = r > 0 ? new DenseLU(r) : undefined;
    this.q = new Float64Array(n);
    this.v = new Float64Array(n);
    this.udot = new Float64Array(r);
    this.vdot = new Float64Array(n);
  }

  /** out ← G(q) (n×r). */
  basisAt(out: Float64Array, q: Float64Array): Float64Array {
    const { n, r, sys, G0 } = this;
    if (G0 === undefined) {
      sys.Delta.G?.(out, q);
      return out;
    }
    const m = sys.m;
    out.set(G0);
    if (m === 0) return out;
    const A = sys.A(q);
    const AG = mul(new Float64Array(m * r), A, G0, m, n, r);
    // (I − A⁺A)G₀ = G₀ − Aᵀ(AAᵀ)⁻¹(AG₀), column by column with the minimum-norm solve
    const col = new Float64Array(m);
    for (let b = 0; b < r; b++) {
      for (let a = 0; a < m; a++) col[a] = AG[a * r + b]!;
      const d = minNormSolve(A, m, n, col);
      for (let i = 0; i < n; i++) out[i * r + b] = out[i * r + b]! - d[i]!;
    }
    return out;
  }

  /** Gd ← Ġ(q, v) = d/ds G(q + s v) at s = 0. */
  private basisRate(q: Float64Array, v: Float64Array): void {
    const { n, r, Gd, Gp, qw } = this;
    if (this.Gdot !== undefined) {
      this.Gdot(Gd, q, v);
      return;
    }
    const vn = maxAbs(v);
    Gd.fill(0);
    if (vn === 0) return;
    const h = (FOURTH_ORDER_DIFFERENCE_STEP * Math.max(1, maxAbs(q)) ** 0.2) / vn;
    const c = [8, -8, -1, 1];
    const s = [h, -h, 2 * h, -2 * h];
    for (let k = 0; k < 4; k++) {
      for (let i = 0; i < n; i++) qw[i] = q[i]! + s[k]! * v[i]!;
      this.basisAt(Gp, qw);
      const wk = c[k]! / (12 * h);
      for (let e = 0; e < n * r; e++) Gd[e] = Gd[e]! + wk * Gp[e]!;
    }
  }

  /** Evaluates at y = [q, u]: fills q, v = Gu, u̇, v̇ = Ġu + Gu̇. */
  evaluate(y: ArrayLike<number>): void {
    const { n, r, sys, G, Gd, M, N, f, MG, Mr, w, b, q, v, udot, vdot } = this;
    for (let i = 0; i < n; i++) q[i] = y[i]!;
    this.basisAt(G, q);
    matVecInto(v, G, n, r, y, n);
    const L = sys.L;
    L.Lvv(M, q, v);
    L.Lvq(N, q, v);
    L.Lq(f, q, v);
    this.basisRate(q, v);
    // w = ∂L/∂q − N v − M (Ġ u)
    const gu = matVecInto(vdot, Gd, n, r, y, n);
    for (let i = 0; i < n; i++) {
      let s = f[i]!;
      for (let j = 0; j < n; j++) s -= N[i * n + j]! * v[j]! + M[i * n + j]! * gu[j]!;
      w[i] = s;
    }
    matTVecInto(b, G, n, r, w);
    mul(MG, M, G, n, n, r);
    for (let a = 0; a < r; a++) {
      for (let c = 0; c < r; c++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += G[k * r + a]! * MG[k * r + c]!;
        Mr[a * r + c] = s;
      }
    }
    checkFinite('integrateNullSpace: right-hand side', b);
    if (this.lu !== undefined) {
      this.lu.factor(Mr);
      if (this.lu.isSingular || this.lu.conditionEstimate() >= SINGULAR_JACOBIAN_CONDITION) {
        sys.checkRegular(q, v);
        throw new NonRegularSystemError('singular-constrained-mass', {
          detail: 'GᵀMG is singular to working precision',
          rank: r - 1,
          expected: r,
        });
      }
      this.lu.solve(b, udot);
    }
    // v̇ = Ġu + G u̇ (vdot holds Ġu)
    for (let i = 0; i < n; i++) {
      let s = vdot[i]!;
      for (let c = 0; c < r; c++) s += G[i * r + c]! * udot[c]!;
      vdot[i] = s;
    }
  }

  readonly rhs: OdeRhs = (out, _t, y) => {
    this.evaluate(y);
    const { n, r, v, udot } = this;
    for (let i = 0; i < n; i++) out[i] = v[i]!;
    for (let c = 0; c < r; c++) out[n + c] = udot[c]!;
  };
}

/** The solution of {@link integrateNullSpace}: adds the quasi-velocities u (count × r). */
export class NullSpaceSolution extends ImplicitLagrangianSolution {
  constructor(
    data: ImplicitSolutionData,
    /** Quasi-velocities u (count × r), v = G(q)u. */
    readonly u: Float64Array,
    /** Dimension r of Δ. */
    readonly r: number,
  ) {
    super(data);
  }
}

/**
 * Solver (b) of spec 002 §5.8: quasi-velocities. With v = G(q)u (so A v = 0 holds exactly) the
 * equations (6.3) become Gᵀ(d/dt ∂L/∂v − ∂L/∂q) = 0, i.e.
 *
 *   q̇ = G(q)u,   (GᵀMG) u̇ = Gᵀ(∂L/∂q − N v − M Ġ u),   Ġ = Σ_k (∂G/∂qᵏ) vᵏ,
 *
 * an ODE in (q, u) of dimension n + r integrated with DOPRI5. u0 are coordinates in
 * `system.basis(q0)` (`Delta.G`, or an orthonormal null space of A(q0), continued smoothly as
 * (I − A⁺A)G₀). μ is recovered afterwards by least squares from Aᵀμ = M v̇ + N v − ∂L/∂q.
 *
 * @throws NonRegularSystemError when GᵀMG is singular (or A rank-deficient).
 * @example
 * ```ts
 * // rolling disk, G = [∂_φ, R cos φ ∂_x + R sin φ ∂_y + ∂_θ]: u = (v_φ, v_θ)
 * const sol = integrateNullSpace(sys, { q0, u0: [omega, Omega] }, 10);
 * ```
 */
export function integrateNullSpace(
  system: ImplicitLagrangianSystem,
  initial: NullSpaceInitial,
  tEnd: number,
  options: NullSpaceOptions = {},
): NullSpaceSolution {
  const what = 'integrateNullSpace';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: u0`, initial.u0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const q0 = Float64Array.from(initial.q0);
  const field = new NullSpaceField(system, q0, options.Gdot);
  const r = field.r;
  checkLength(`${what}: u0 (dim Δ)`, initial.u0, r);
  const G0 = field.basisAt(new Float64Array(n * r), q0);
  system.checkRegular(q0, matVecInto(new Float64Array(n), G0, n, r, initial.u0));
  const y0 = new Float64Array(n + r);
  y0.set(q0, 0);
  y0.set(Float64Array.from(initial.u0), n);
  const integ = new Dopri5Integrator(n + r, field.rhs, dopriOptions(options, times));
  const sol = integ.integrate(y0, t0, tEnd);
  const count = times.length;
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const us = new Float64Array(count * r);
  for (let k = 0; k < count; k++) {
    const s = sol.sample('y', k);
    field.evaluate(s);
    qs.set(field.q, k * n);
    vs.set(field.v, k * n);
    us.set(s.subarray(n), k * r);
  }
  const e = new Float64Array(n);
  const N = new Float64Array(n * n);
  const M = new Float64Array(n * n);
  const qr = new DenseQR(n, m);
  const yk = new Float64Array(n + r);
  const base = assemble(
    system,
    { t: times, q: qs, v: vs, count },
    (out, k, q, v) => {
      if (m === 0) return;
      yk.set(q, 0);
      yk.set(us.subarray(k * r, (k + 1) * r), n);
      field.evaluate(yk);
      const L = system.L;
      L.Lvv(M, q, v);
      L.Lvq(N, q, v);
      L.Lq(e, q, v);
      // e = M v̇ + N v − ∂L/∂q = ṗ − ∂L/∂q
      for (let i = 0; i < n; i++) {
        let s = -e[i]!;
        for (let j = 0; j < n; j++) s += M[i * n + j]! * field.vdot[j]! + N[i * n + j]! * v[j]!;
        e[i] = s;
      }
      qr.factor(transposeOf(system.A(q), m, n), n, m);
      qr.solveLeastSquares(e, out);
    },
    undefined,
    0,
    { ...sol.stats },
  );
  return new NullSpaceSolution(base, us, r);
}

// ---------------------------------------------------------------------------------------------
// (c) degenerate linear-quadratic systems: constraint algorithm

/**
 * The data of a linear-quadratic implicit Lagrangian system: L = ½vᵀMv + vᵀSq − ½qᵀKq (+ const)
 * and constant constraint one-forms A (m×n).
 */
export interface LinearQuadraticData {
  readonly n: number;
  readonly m: number;
  readonly M: Float64Array;
  readonly S: Float64Array;
  readonly K: Float64Array;
  readonly A: Float64Array;
}

/** Deterministic probe point for the linear-quadratic check (no special structure). */
function probe(n: number, a: number, b: number): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = a + b * Math.sin(1.7 * i + 0.3);
  return x;
}

/** Relative agreement test ‖x − y‖∞ ≤ tol·max(1, ‖x‖∞, ‖y‖∞). */
function close(x: ArrayLike<number>, y: ArrayLike<number>, tol: number): boolean {
  let d = 0;
  let s = 1;
  for (let i = 0; i < x.length; i++) {
    d = Math.max(d, Math.abs(x[i]! - y[i]!));
    s = Math.max(s, Math.abs(x[i]!), Math.abs(y[i]!));
  }
  return d <= tol * s;
}

/** Agreement tolerance of the linear-quadratic probe (the probe derivatives are exact or ~1e-10). */
const LINEAR_QUADRATIC_PROBE_RTOL = 1e-8;

/**
 * Reads M, S, K and A off a system if it is linear-quadratic — L = ½vᵀMv + vᵀSq − ½qᵀKq up to a
 * constant, A constant — exactly from a {@link quadraticLagrangian}, otherwise by probing the
 * first derivatives (∂L/∂v(0, eⱼ) = Meⱼ, ∂L/∂v(eⱼ, 0) = Seⱼ, ∂L/∂q(eⱼ, 0) = −Keⱼ) and checking
 * ∂L/∂v, ∂L/∂q, A and Ȧ = 0 at a generic point (relative 1e-8).
 *
 * @throws DomainError when the system is not linear-quadratic with constant A (then the linear
 *   constraint algorithm does not apply).
 * @example
 * ```ts
 * linearQuadraticData(lc4).M; // diag(L, 0, 0, 0)
 * ```
 */
export function linearQuadraticData(system: ImplicitLagrangianSystem): LinearQuadraticData {
  const what = 'linearQuadraticData';
  const { n, m, L, Delta } = system;
  const z = new Float64Array(n);
  const A = Delta.A(new Float64Array(m * n), z);
  checkFinite(`${what}: A`, A);
  const qs = probe(n, 0.31, 0.9);
  const vs = probe(n, -0.27, 1.1);
  const As = Delta.A(new Float64Array(m * n), qs);
  const Ads = Delta.Adot(new Float64Array(m * n), qs, vs);
  if (
    !close(A, As, LINEAR_QUADRATIC_PROBE_RTOL) ||
    maxAbs(Ads) > LINEAR_QUADRATIC_PROBE_RTOL * Math.max(1, maxAbs(A))
  )
    throw new DomainError(
      `${what}: Delta`,
      'A depends on q',
      'the linear constraint algorithm needs constant one-forms A',
    );
  let M: Float64Array;
  let S: Float64Array;
  let K: Float64Array;
  if (isQuadraticLagrangian(L)) {
    M = Float64Array.from(L.M);
    S = Float64Array.from(L.S);
    K = Float64Array.from(L.K);
  } else {
    M = new Float64Array(n * n);
    S = new Float64Array(n * n);
    K = new Float64Array(n * n);
    const e = new Float64Array(n);
    const out = new Float64Array(n);
    const p0 = L.Lv(new Float64Array(n), z, z);
    const f0 = L.Lq(new Float64Array(n), z, z);
    if (maxAbs(p0) > 0 || maxAbs(f0) > 0)
      throw new DomainError(
        `${what}: L`,
        'has linear terms',
        'must be homogeneous quadratic (no constant forces or momenta)',
      );
    for (let j = 0; j < n; j++) {
      e.fill(0);
      e[j] = 1;
      L.Lv(out, z, e);
      for (let i = 0; i < n; i++) M[i * n + j] = out[i]!;
      L.Lv(out, e, z);
      for (let i = 0; i < n; i++) S[i * n + j] = out[i]!;
      L.Lq(out, e, z);
      for (let i = 0; i < n; i++) K[i * n + j] = -out[i]!;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = 0.5 * (M[i * n + j]! + M[j * n + i]!);
        M[i * n + j] = a;
        M[j * n + i] = a;
        const b = 0.5 * (K[i * n + j]! + K[j * n + i]!);
        K[i * n + j] = b;
        K[j * n + i] = b;
      }
    }
    const pv = L.Lv(new Float64Array(n), qs, vs);
    const fv = L.Lq(new Float64Array(n), qs, vs);
    const pe = new Float64Array(n);
    const fe = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let a = 0;
      let b = 0;
      for (let j = 0; j < n; j++) {
        a += M[i * n + j]! * vs[j]! + S[i * n + j]! * qs[j]!;
        b += S[j * n + i]! * vs[j]! - K[i * n + j]! * qs[j]!;
      }
      pe[i] = a;
      fe[i] = b;
    }
    if (!close(pv, pe, LINEAR_QUADRATIC_PROBE_RTOL) || !close(fv, fe, LINEAR_QUADRATIC_PROBE_RTOL))
      throw new DomainError(
        `${what}: L`,
        'not quadratic',
        'must be ½vᵀMv + vᵀSq − ½qᵀKq with constant M, S, K',
      );
  }
  checkFinite(`${what}: M`, M);
  checkFinite(`${what}: S`, S);
  checkFinite(`${what}: K`, K);
  return { n, m, M, S, K, A };
}

/** Options of {@link constraintAlgorithm}. */
export interface ConstraintAlgorithmOptions {
  /** Relative rank tolerance of the subspace iteration (after balancing). Default {@link DIRAC_RANK_RTOL}. */
  readonly rtol?: number;
}

/**
 * The outcome of the constraint algorithm for a linear-quadratic implicit Lagrangian system: the
 * constraint subspace 𝒞 ⊂ TQ (consistent (q, v)), its constraints, and the linear flow on it.
 */
export class ConstraintAlgorithmResult {
  constructor(
    /** The system's M, S, K, A. */
    readonly data: LinearQuadraticData,
    /** Orthonormal basis of Δ = ker A (n×r). */
    readonly G: Float64Array,
    readonly r: number,
    /**
     * Primary constraints as rows on (q, p) ∈ R²ⁿ (count × 2n): P = 𝔽L(Δ) = {(q, Mv + Sq) : v ∈ Δ}
     * is their common kernel, i.e. b·(p − Sq) = 0 for b ⊥ range(MG). For the 4-port circuit these
     * are p_C1 = p_C2 = p_C3 = 0.
     */
    readonly primary: Float64Array,
    readonly primaryCount: number,
    /**
     * Secondary constraints on positions, orthonormal rows (count × n): Cq = 0 on 𝒞. For the
     * 4-port circuit one row ∝ (0, 1/C1, 0, −1/C3), i.e. q_C1/C1 = q_C3/C3.
     */
    readonly positionConstraints: Float64Array,
    readonly positionConstraintCount: number,
    /**
     * All linear conditions on v alone on 𝒞 (count × n, orthonormal rows): the rows of A and the
     * hidden velocity constraints (for the circuit f_C1/C1 = f_C3/C3).
     */
    readonly velocityConstraints: Float64Array,
    readonly velocityConstraintCount: number,
    /** Every linear constraint of 𝒞 as rows on (q, v) ∈ R²ⁿ ((2n − dimension) × 2n). */
    readonly constraints: Float64Array,
    /** dim V_k of the iteration in (q, u) space, u the coordinates on Δ: [n + r, …, dimension]. */
    readonly stageDimensions: readonly number[],
    /** dim 𝒞. */
    readonly dimension: number,
    /** Basis of 𝒞 in (q, v) coordinates (2n × dimension, columns; not orthonormal). */
    readonly basis: Float64Array,
    /** The flow on 𝒞: ξ̇ = R ξ for (q, v) = basis·ξ (dimension × dimension). */
    readonly flow: Float64Array,
    /** Eigenvalues of `flow`. */
    readonly eigenvalues: { readonly re: Float64Array; readonly im: Float64Array },
    /** The positive imaginary parts of the eigenvalues, ascending: the angular frequencies. */
    readonly frequencies: Float64Array,
  ) {}

  /** Number of stages that found new (secondary, tertiary, …) constraints. */
  get secondaryStages(): number {
    return this.stageDimensions.length - 1;
  }

  /**
   * Consistent initialization: the Euclidean least-squares projection of (q, v) onto 𝒞,
   * ξ = argmin ‖basis·ξ − (q, v)‖₂, with the projected (q, v) and the size of the correction.
   * (q and v carry different units; pass consistent data when the metric matters.)
   */
  project(
    q: ArrayLike<number>,
    v: ArrayLike<number>,
  ): {
    readonly xi: Float64Array;
    readonly q: Float64Array;
    readonly v: Float64Array;
    readonly correction: number;
  } {
    const n = this.data.n;
    checkLength('ConstraintAlgorithmResult.project: q', q, n);
    checkLength('ConstraintAlgorithmResult.project: v', v, n);
    const d = this.dimension;
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      x[i] = q[i]!;
      x[n + i] = v[i]!;
    }
    const xi =
      d === 0
        ? new Float64Array(0)
        : new DenseQR(2 * n, d)
            .factor(this.basis, 2 * n, d)
            .solveLeastSquares(x, new Float64Array(d));
    const y = matVecInto(new Float64Array(2 * n), this.basis, 2 * n, d, xi);
    let c = 0;
    for (let i = 0; i < 2 * n; i++) c += (y[i]! - x[i]!) ** 2;
    return { xi, q: y.slice(0, n), v: y.slice(n), correction: Math.sqrt(c) };
  }
}

/** out ← orthonormal basis (columns) of the kernel of the r×c matrix a, tolerance tol (absolute). */
function kernel(
  a: Float64Array,
  r: number,
  c: number,
  tol: number,
): { basis: Float64Array; d: number } {
  if (c === 0) return { basis: new Float64Array(0), d: 0 };
  if (r === 0) {
    const basis = new Float64Array(c * c);
    for (let i = 0; i < c; i++) basis[i * c + i] = 1;
    return { basis, d: c };
  }
  return nullSpace(a, r, c, tol);
}

/**
 * Orthonormal basis (columns, r×k) of the vectors orthogonal to the columns of the r×c matrix a:
 * the kernel of aᵀ, singular values relative to ‖a‖₂ (all of Rʳ when a = 0 or c = 0).
 */
function cokernel(
  a: Float64Array,
  r: number,
  c: number,
  rtol: number,
): { basis: Float64Array; d: number } {
  if (c === 0) return kernel(a, 0, r, 0);
  return kernel(transposeOf(a, r, c), c, r, rtol * spectralNorm(a, r, c));
}

/**
 * The constraint algorithm (Gotay–Nester / Dirac–Bergmann, done with linear algebra) for
 * LINEAR-QUADRATIC implicit Lagrangian systems, L = ½vᵀMv + vᵀSq − ½qᵀKq with constant M, S, K
 * (M possibly singular) and constant one-forms A of full row rank. Scope: exactly this class
 * (L-C circuits, spec 002 §4.2; linear traditors, §4.3; linearized mechanics); anything else
 * throws a DomainError.
 *
 * With v = Gu (G an orthonormal basis of Δ = ker A) the equations (6.4) are the linear DAE
 *
 *   E ẋ = F x,   x = (q, u),   E = [I 0; 0 GᵀMG],   F = [0 G; −GᵀK −Gᵀ(S − Sᵀ)G],
 *
 * whose u-rows are Gᵀ(ṗ − ∂L/∂q) = 0 (the multipliers drop out). Where GᵀMG is singular, some
 * combinations of these rows contain no derivative: they are constraints. The algorithm is the
 * Wong sequence V₀ = R^{n+r}, V_{k+1} = {x ∈ V_k : F x ∈ E V_k} — "the state must stay where the
 * equations can be solved with a velocity tangent to the current constraint set" — which stops
 * at the consistent subspace V* (the final constraint manifold). Primary constraints are those of
 * P = 𝔽L(Δ); the secondary ones are read off V*: on positions (Cq = 0) and on velocities. For
 * the 4-port circuit: V₀ = R⁶ → V₁ (q_C1/C1 = q_C3/C3) → V₂ (f_C1/C1 = f_C3/C3) = V*.
 *
 * On V* the flow is unique iff E restricted to V* is injective (else `undetermined-dynamics`);
 * then ξ̇ = Rξ with R = (E B)⁺ F B. Rank decisions are made after balancing (M/‖M‖, K/‖K‖ with
 * time scaled by ω₀ = √(‖K‖/‖M‖)), so physical units (nH, pF) do not fool the tolerances.
 *
 * @throws DomainError when the system is not linear-quadratic with constant A.
 * @throws NonRegularSystemError `rank-deficient-constraints` (dependent rows of A) or
 *   `undetermined-dynamics` (gauge freedom left on V*).
 * @example
 * ```ts
 * const alg = constraintAlgorithm(new ImplicitLagrangianSystem(lc4, kcl));
 * alg.positionConstraints; // one row ∝ (0, 1/C1, 0, −1/C3)
 * alg.frequencies;         // [ω_LC] = [√((1/L)(1/C2 + 1/(C1 + C3)))]
 * ```
 */
export function constraintAlgorithm(
  system: ImplicitLagrangianSystem,
  options: ConstraintAlgorithmOptions = {},
): ConstraintAlgorithmResult {
  const rtol = options.rtol ?? DIRAC_RANK_RTOL;
  const data = linearQuadraticData(system);
  const { n, m, M, S, K, A } = data;
  if (m > 0) {
    const rankA = rankAtScale(A, m, n, spectralNorm(A, m, n), rtol);
    if (rankA < m)
      throw new NonRegularSystemError('rank-deficient-constraints', {
        detail: `rank A = ${rankA} < m = ${m}: the constraint one-forms are dependent; drop redundant rows`,
        rank: rankA,
        expected: m,
      });
  }
  const ker = kernel(A, m, n, m > 0 ? rtol * spectralNorm(A, m, n) : 0);
  const G = ker.basis;
  const r = ker.d;
  const Gt = transposeOf(G, n, r);
  const Mr = mul(new Float64Array(r * r), Gt, mul(new Float64Array(n * r), M, G, n, n, r), r, n, r);
  const GK = mul(new Float64Array(r * n), Gt, K, r, n, n);
  const Sg = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) Sg[i * n + j] = S[i * n + j]! - S[j * n + i]!;
  const GSG = mul(
    new Float64Array(r * r),
    Gt,
    mul(new Float64Array(n * r), Sg, G, n, n, r),
    r,
    n,
    r,
  );

  // balancing: u = ω₀ w, t = s/ω₀, u-rows divided by ρ (see the doc comment)
  const sM = spectralNorm(M, n, n);
  const sK = spectralNorm(K, n, n);
  const sS = spectralNorm(GSG, r, r);
  let omega0 = 1;
  let rho = 1;
  if (sM > 0 && sK > 0) {
    omega0 = Math.sqrt(sK / sM);
    rho = sK;
  } else if (sK > 0) {
    omega0 = sS > 0 ? sK / sS : 1;
    rho = sK;
  } else if (sM > 0) {
    omega0 = sS > 0 ? sS / sM : 1;
    rho = sM * omega0 * omega0;
  } else if (sS > 0) {
    rho = sS;
  }
  const N = n + r;
  const E = new Float64Array(N * N);
  const F = new Float64Array(N * N);
  for (let i = 0; i < n; i++) {
    E[i * N + i] = 1;
    for (let c = 0; c < r; c++) F[i * N + n + c] = G[i * r + c]!;
  }
  for (let a = 0; a < r; a++) {
    for (let c = 0; c < r; c++) {
      E[(n + a) * N + n + c] = (Mr[a * r + c]! * omega0 * omega0) / rho;
      F[(n + a) * N + n + c] = (-GSG[a * r + c]! * omega0) / rho;
    }
    for (let j = 0; j < n; j++) F[(n + a) * N + j] = -GK[a * n + j]! / rho;
  }

  // Wong sequence V_{k+1} = {x ∈ V_k : F x ∈ E V_k}
  let B: Float64Array = new Float64Array(N * N);
  for (let i = 0; i < N; i++) B[i * N + i] = 1;
  let d = N;
  const stageDimensions = [N];
  const tolF = rtol * Math.max(1, spectralNorm(F, N, N));
  for (let iter = 0; iter <= N && d > 0; iter++) {
    const EB = mul(new Float64Array(N * d), E, B, N, N, d);
    const P = kernel(transposeOf(EB, N, d), d, N, rtol * Math.max(1, spectralNorm(EB, N, d)));
    if (P.d === 0) break;
    const FB = mul(new Float64Array(N * d), F, B, N, N, d);
    const C = mul(new Float64Array(P.d * d), transposeOf(P.basis, N, P.d), FB, P.d, N, d);
    const Z = kernel(C, P.d, d, tolF);
    if (Z.d === d) break;
    B = mul(new Float64Array(N * Z.d), B, Z.basis, N, d, Z.d);
    d = Z.d;
    stageDimensions.push(d);
  }

  // the flow on V*: (E B) ξ' = (F B) ξ in scaled time, unique iff E B has full column rank
  const EB = mul(new Float64Array(N * d), E, B, N, N, d);
  const FB = mul(new Float64Array(N * d), F, B, N, N, d);
  const Rhat = new Float64Array(d * d);
  if (d > 0) {
    const rankEB = rankAtScale(EB, N, d, Math.max(1, spectralNorm(EB, N, d)), rtol);
    if (rankEB < d)
      throw new NonRegularSystemError('undetermined-dynamics', {
        detail: `E is not injective on the ${d}-dimensional constraint subspace: ${d - rankEB} velocity direction(s) stay free (gauge freedom)`,
        rank: rankEB,
        expected: d,
      });
    const qr = new DenseQR(N, d).factor(EB, N, d);
    const col = new Float64Array(N);
    const sol = new Float64Array(d);
    for (let c = 0; c < d; c++) {
      for (let i = 0; i < N; i++) col[i] = FB[i * d + c]!;
      qr.solveLeastSquares(col, sol);
      for (let i = 0; i < d; i++) Rhat[i * d + c] = sol[i]!;
    }
  }
  const flow = new Float64Array(d * d);
  for (let i = 0; i < d * d; i++) flow[i] = omega0 * Rhat[i]!;

  // basis of 𝒞 in (q, v): q = B_q ξ, v = G u = ω₀ G B_w ξ
  const basis = new Float64Array(2 * n * d);
  for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) basis[i * d + c] = B[i * d + c]!;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let s = 0;
      for (let a = 0; a < r; a++) s += G[i * r + a]! * B[(n + a) * d + c]!;
      basis[(n + i) * d + c] = omega0 * s;
    }
  }

  // constraints read off V*
  const posKer = cokernel(B.subarray(0, n * d), n, d, rtol);
  const velKer = cokernel(basis.subarray(n * d), n, d, rtol);
  const allKer = cokernel(basis, 2 * n, d, rtol);

  // primary constraints: b ⊥ range(MG), rows (−bᵀS, bᵀ) on (q, p)
  const MG = mul(new Float64Array(n * r), M, G, n, n, r);
  const prim = kernel(transposeOf(MG, n, r), r, n, rtol * sM);
  const kP = prim.d;
  const primary = new Float64Array(kP * 2 * n);
  for (let c = 0; c < kP; c++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += prim.basis[i * kP + c]! * S[i * n + j]!;
      primary[c * 2 * n + j] = -s;
      primary[c * 2 * n + n + j] = prim.basis[j * kP + c]!;
    }
  }

  const eig = eigenvalues(flow, d);
  const freqTol = rtol * Math.max(1, maxAbs(eig.re), maxAbs(eig.im));
  const freqs: number[] = [];
  for (let i = 0; i < d; i++) if (eig.im[i]! > freqTol) freqs.push(eig.im[i]!);
  freqs.sort((a, b) => a - b);

  return new ConstraintAlgorithmResult(
    data,
    Float64Array.from(G),
    r,
    primary,
    kP,
    rowsFromColumns(posKer.basis, n, posKer.d),
    posKer.d,
    rowsFromColumns(velKer.basis, n, velKer.d),
    velKer.d,
    rowsFromColumns(allKer.basis, 2 * n, allKer.d),
    stageDimensions,
    d,
    basis,
    flow,
    eig,
    Float64Array.from(freqs),
  );
}

/** Options of {@link integrateDegenerate}. */
export interface DegenerateOptions extends ImplicitIntegrationOptions, ConstraintAlgorithmOptions {
  /**
   * `'expm'` (default): ξ(t) = exp(R(t − t0))ξ0, exact up to rounding; `'dopri5'`: integrate
   * ξ̇ = Rξ with DOPRI5 (`rtol`, `atol`).
   */
  readonly method?: 'expm' | 'dopri5';
  /** A result of {@link constraintAlgorithm} to reuse. */
  readonly algorithm?: ConstraintAlgorithmResult;
}

/** Initial data of {@link integrateDegenerate}; projected onto the constraint subspace. */
export interface DegenerateInitial {
  readonly q0: ArrayLike<number>;
  readonly v0: ArrayLike<number>;
}

/** The solution of {@link integrateDegenerate}: adds the algorithm and the coordinates ξ. */
export class DegenerateSolution extends ImplicitLagrangianSolution {
  constructor(
    data: ImplicitSolutionData,
    /** The constraint algorithm's result used. */
    readonly algorithm: ConstraintAlgorithmResult,
    /** Coordinates ξ on the constraint subspace (count × dimension). */
    readonly xi: Float64Array,
  ) {
    super(data);
  }
}

/**
 * Solver (c) of spec 002 §5.8 for degenerate LINEAR-QUADRATIC systems (see
 * {@link constraintAlgorithm} for the scope): runs the constraint algorithm, projects (q0, v0)
 * onto the constraint subspace 𝒞 (consistent initialization, including secondary constraints
 * such as q_C1/C1 = q_C3/C3), and evolves the reduced linear ODE ξ̇ = Rξ, (q, v) = Bξ, exactly
 * (matrix exponential) or with DOPRI5. Then p = Mv + Sq, μ from Aᵀμ = ṗ − ∂L/∂q (least
 * squares), the energy, |A v| and, as `positionResidual`, max |Cq| over the secondary position
 * constraints.
 *
 * @throws DomainError / NonRegularSystemError as {@link constraintAlgorithm}.
 * @example
 * ```ts
 * const sol = integrateDegenerate(new ImplicitLagrangianSystem(lc4, kcl), { q0, v0 }, 20);
 * sol.algorithm?.frequencies[0]; // ω_LC
 * ```
 */
export function integrateDegenerate(
  system: ImplicitLagrangianSystem,
  initial: DegenerateInitial,
  tEnd: number,
  options: DegenerateOptions = {},
): DegenerateSolution {
  const what = 'integrateDegenerate';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkLength(`${what}: v0`, initial.v0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: v0`, initial.v0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const alg =
    options.algorithm ??
    constraintAlgorithm(system, options.rtol === undefined ? {} : { rtol: options.rtol });
  const { M, S, K, A } = alg.data;
  const d = alg.dimension;
  const start = alg.project(initial.q0, initial.v0);
  const count = times.length;
  const xis = new Float64Array(count * d);
  let stats: SolverStats | undefined;
  if (d > 0) {
    if ((options.method ?? 'expm') === 'expm') {
      const Rt = new Float64Array(d * d);
      const eRt = new Float64Array(d * d);
      for (let k = 0; k < count; k++) {
        const dt = times[k]! - t0;
        for (let i = 0; i < d * d; i++) Rt[i] = alg.flow[i]! * dt;
        expm(eRt, Rt, d);
        matVecInto(xis.subarray(k * d, (k + 1) * d), eRt, d, d, start.xi);
      }
    } else {
      const R = alg.flow;
      const rhs: OdeRhs = (out, _t, y) => {
        matVecInto(out, R, d, d, y);
      };
      const sol = new Dopri5Integrator(d, rhs, dopriOptions(options, times)).integrate(
        start.xi,
        t0,
        tEnd,
      );
      stats = { ...sol.stats };
      for (let k = 0; k < count; k++) xis.set(sol.sample('y', k), k * d);
    }
  }
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const x = new Float64Array(2 * n);
  const xdot = new Float64Array(2 * n);
  const xiDot = new Float64Array(d);
  const velocities: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    const xi = xis.subarray(k * d, (k + 1) * d);
    matVecInto(x, alg.basis, 2 * n, d, xi);
    qs.set(x.subarray(0, n), k * n);
    vs.set(x.subarray(n), k * n);
    matVecInto(xiDot, alg.flow, d, d, xi);
    matVecInto(xdot, alg.basis, 2 * n, d, xiDot);
    velocities.push(Float64Array.from(xdot));
  }
  const At = transposeOf(A, m, n);
  const qr = m > 0 ? new DenseQR(n, m).factor(At, n, m) : undefined;
  const e = new Float64Array(n);
  const C = alg.positionConstraints;
  const kC = alg.positionConstraintCount;
  const Cq = new Float64Array(kC);
  const base = assemble(
    system,
    { t: times, q: qs, v: vs, count },
    (out, k, q, v) => {
      if (qr === undefined) return;
      // e = ṗ − ∂L/∂q = M v̇ + S q̇ − Sᵀ v + K q
      const xd = velocities[k]!;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++)
          s +=
            M[i * n + j]! * xd[n + j]! +
            S[i * n + j]! * xd[j]! -
            S[j * n + i]! * v[j]! +
            K[i * n + j]! * q[j]!;
        e[i] = s;
      }
      qr.solveLeastSquares(e, out);
    },
    kC === 0
      ? undefined
      : (q) => {
          matVecInto(Cq, C, kC, n, q);
          return maxAbs(Cq);
        },
    start.correction,
    stats,
  );
  return new DegenerateSolution(base, alg, xis);
}
