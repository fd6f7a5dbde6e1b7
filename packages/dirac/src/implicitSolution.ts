/**
 * The solutions of the implicit-system solvers ({@link integrateIndexReduced},
 * {@link integrateNullSpace}, {@link integrateDegenerate}): core's one {@link Solution}, built by
 * core's `Recorder` from the sampled (q, v) of the solver's ODE, with p = ∂L/∂v, the multipliers
 * μ, the generalized energy (Prop 6.5), the constraint residuals and the drifts; and the output
 * times and tolerances the solvers share.
 *
 * @module
 */
import { type MethodTraits, methodTraits, type Solution } from '@geomech/core';

/**
 * The series every implicit-system solution records, one row per output time: `q`, `v` = q̇,
 * `p` = ∂L/∂v(q, v), the multipliers `mu` (m; ṗ − ∂L/∂q = Aᵀμ), the generalized `energy`
 * ⟨p, v⟩ − L (Prop 6.5) and `velocityResidual` = max_a |(A(q)v)_a|.
 */
export type ImplicitSeries = 'q' | 'v' | 'p' | 'mu' | 'energy' | 'velocityResidual';

/** What an implicit-system solution adds to its series. */
export interface ImplicitSolutionExtras {
  /**
   * Position-level residual per sample when the solver knows one (a series then): max |φ(q)| of a
   * given holonomic constraint (index reduction), max |Cq| of the secondary constraints
   * (degenerate).
   */
  readonly positionResidual?: Float64Array;
  /** Euclidean norm of the change the consistent initialization made to the initial data. */
  readonly initialCorrection: number;
  /** Maximum constraint violation over the samples: |A v| and (if known) the position residual. */
  readonly constraintDrift: { readonly velocity: number; readonly position: number | undefined };
  /** max_k |E_k − E_0| over the samples. */
  readonly energyDrift: number;
}

/**
 * A sampled solution curve (q(t), v(t), p(t)) of an implicit Lagrangian system with its
 * multipliers and diagnostics: core's {@link Solution} (`sol.q`, `sol.sample('q', k)`, `sol.t`,
 * `sol.stats` with DOPRI5's work counters, …) plus {@link ImplicitSolutionExtras}; `X` names the
 * solver's own series (`u` of the null-space solver, `xi` of the degenerate one).
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk();
 * const s = disk.exactSolution(0);
 * const system = new ImplicitLagrangianSystem(disk.lagrangian, disk.distribution);
 * const sol = integrateIndexReduced(system, { q0: s.q, v0: s.v }, 10);
 * sol.last('q');          // q(10)
 * sol.sample('mu', 3);    // μ at t = 0.3
 * sol.constraintDrift;    // { velocity: max |A v| (≈ 1e-10), position: undefined }
 * ```
 */
export type ImplicitSolution<X extends string = never> = Solution<ImplicitSeries | X> &
  ImplicitSolutionExtras;

/**
 * The method of the solutions computed by the exact matrix exponential (the degenerate solver's
 * `'expm'`): no steps, exact up to rounding.
 *
 * @example
 * ```ts
 * expmMethod.name;       // 'expm'
 * expmMethod.isExplicit; // true
 * ```
 */
export const expmMethod: MethodTraits = methodTraits({
  name: 'expm',
  description: 'exact linear flow by the matrix exponential (Higham scaling and squaring)',
  isExplicit: true,
});

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
