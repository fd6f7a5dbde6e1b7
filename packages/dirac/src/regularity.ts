/**
 * Regularity of an implicit Lagrangian system at a point (spec 002 §5.8, §4.2 item 7): the ranks
 * behind it — rank A(q) = m (independent constraint one-forms) and rank GᵀMG = dim Δ (L not
 * degenerate on Δ) — that the index reduction needs ([M −Aᵀ; A 0] is then invertible), and the
 * typed error naming the first defect. {@link ImplicitLagrangianSystem.regularity} and
 * {@link ImplicitLagrangianSystem.checkRegular} call these.
 *
 * @module
 */
import {
  matMul,
  type NonRegularDefect,
  NonRegularSystemError,
  nullSpace,
  transpose,
} from '@geomech/core';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, checkLength, rankAtScale, spectralNorm } from './internal.js';
import { DIRAC_RANK_RTOL } from './lagrangian.js';

/**
 * What makes an implicit Lagrangian system non-regular for a solver (core's
 * {@link NonRegularDefect} without the groupoid's bordered-Jacobian case):
 * `rank-deficient-constraints`, `singular-constrained-mass`, `undetermined-dynamics`.
 */
export type ImplicitNonRegularDefect = Exclude<NonRegularDefect, 'singular-bordered-jacobian'>;

// NonRegularSystemError is core's (one error registry); re-exported by this package's index.

/** Ranks behind regularity at a point (see {@link regularityReport}). */
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
 * The ranks behind regularity at (q, v): rank A(q) = m and rank GᵀMG = dim Δ (M = ∂²L/∂v², G a
 * basis of Δ(q) = ker A(q)), with the first defect found (`undefined` when regular). Singular
 * values count above `rtol` times the scale of their matrix (‖A‖₂, ‖M‖₂).
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk();
 * const s = disk.exactSolution(0);
 * regularityReport(new ImplicitLagrangianSystem(disk.lagrangian, disk.distribution), s.q, s.v).defect; // undefined
 * const lc = lcCircuit4();
 * const z = new Float64Array(4);
 * regularityReport(new ImplicitLagrangianSystem(lc.lagrangian, lc.distribution), z, z).defect; // 'singular-constrained-mass'
 * ```
 */
export function regularityReport(
  system: ImplicitLagrangianSystem,
  q: Float64Array,
  v: Float64Array,
  rtol = DIRAC_RANK_RTOL,
): RegularityReport {
  const { n, m, L } = system;
  checkLength('regularity: q', q, n);
  checkLength('regularity: v', v, n);
  const A = system.A(q);
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
  } else ({ G, r } = system.basis(q));
  const GMG = matMul(
    new Float64Array(r * r),
    transpose(new Float64Array(n * r), G, n, r),
    matMul(new Float64Array(n * r), M, G, n, n, r),
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
 * {@link regularityReport}, throwing {@link NonRegularSystemError} naming the defect: dependent
 * constraint rows (`rank-deficient-constraints`) or a singular constrained mass GᵀMG
 * (`singular-constrained-mass`, L degenerate on Δ: spec 002 §4.2 item 7).
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk();
 * const s = disk.exactSolution(0);
 * checkRegularity(new ImplicitLagrangianSystem(disk.lagrangian, disk.distribution), s.q, s.v).rankA; // 2
 * ```
 */
export function checkRegularity(
  system: ImplicitLagrangianSystem,
  q: Float64Array,
  v: Float64Array,
  rtol = DIRAC_RANK_RTOL,
): RegularityReport {
  const rep = regularityReport(system, q, v, rtol);
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
