/**
 * The solutions of the implicit-system solvers ({@link integrateIndexReduced},
 * {@link integrateNullSpace}, {@link integrateDegenerate}): core's one {@link Solution}, built by a
 * {@link Recorder} from the sampled (q, v) of the solver's ODE, with p = ∂L/∂v, the multipliers μ,
 * the generalized energy (Prop 6.5), the constraint residuals and the drifts. Also the output
 * times and DOPRI5 options the solvers share.
 *
 * @module
 */
import {
  extendSolution,
  type IntegrationStats,
  type MethodTraits,
  matVec,
  methodTraits,
  Recorder,
  type SeriesSpec,
  type Solution,
} from '@geomech/core';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, maxAbs } from './internal.js';
import { generalizedEnergy } from './lagrangian.js';

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
 * const sol = integrateIndexReduced(sys, { q0, v0 }, 10);
 * sol.last('q');          // q(10)
 * sol.constraintDrift;    // { velocity: max |A v|, position: max |φ(q)| or undefined }
 * ```
 */
export type ImplicitSolution<X extends string = never> = Solution<ImplicitSeries | X> &
  ImplicitSolutionExtras;

/**
 * The method of the solutions computed by the exact matrix exponential (the degenerate solver's
 * `'expm'`): no steps, exact up to rounding.
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

/** The sampled states of a solver's run, before the derived series are added. */
export interface SampledRun {
  readonly method: MethodTraits;
  /** Output times (count). */
  readonly t: Float64Array;
  /** Step index of each output (e.g. DOPRI5's accepted steps so far), count. */
  readonly k: ArrayLike<number>;
  /** q at the outputs (count × n). */
  readonly q: Float64Array;
  /** v at the outputs (count × n). */
  readonly v: Float64Array;
  /** Steps taken by the run. */
  readonly steps: number;
  readonly stats: IntegrationStats;
}

/** A solver's own series: a name, its width and its `count × width` data. */
export interface ExtraSeries<X extends string> {
  readonly name: X;
  readonly width: number;
  readonly data: Float64Array;
}

/**
 * Builds the {@link ImplicitSolution} of a sampled run: p, energy and |A v| from (q, v), μ by the
 * solver's `muAt(out, k, q, v)`, the position residual by `positionAt` (when given) and the
 * solver's own series. Cold path (allocates the solution and one row of scratch).
 */
export function implicitSolution<X extends string = never>(
  system: ImplicitLagrangianSystem,
  run: SampledRun,
  muAt: (out: Float64Array, k: number, q: Float64Array, v: Float64Array) => void,
  positionAt: ((q: Float64Array) => number) | undefined,
  initialCorrection: number,
  extra?: ExtraSeries<X>,
): ImplicitSolution<X> {
  const { n, m, L } = system;
  const count = run.t.length;
  type F = ImplicitSeries | 'positionResidual' | X;
  const specs: SeriesSpec<F>[] = [
    { name: 'q', width: n },
    { name: 'v', width: n },
    { name: 'p', width: n },
    { name: 'mu', width: m },
    { name: 'energy', width: 1 },
    { name: 'velocityResidual', width: 1 },
  ];
  if (positionAt !== undefined) specs.push({ name: 'positionResidual', width: 1 });
  if (extra !== undefined) specs.push({ name: extra.name, width: extra.width });
  const rec = new Recorder<F>(run.method, specs, Math.max(count, 1));
  const w = extra?.width ?? 0;
  const row = new Float64Array(3 * n + m + 3 + w);
  const q = new Float64Array(n);
  const v = new Float64Array(n);
  const p = row.subarray(2 * n, 3 * n);
  const mu = row.subarray(3 * n, 3 * n + m);
  const A = new Float64Array(m * n);
  const Av = new Float64Array(m);
  let velocity = 0;
  let position = 0;
  let e0 = 0;
  let energyDrift = 0;
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < n; i++) {
      q[i] = run.q[k * n + i]!;
      v[i] = run.v[k * n + i]!;
    }
    row.set(q, 0);
    row.set(v, n);
    L.Lv(p, q, v);
    checkFinite('implicit solution: p', p);
    muAt(mu, k, q, v);
    checkFinite('implicit solution: μ', mu);
    let off = 3 * n + m;
    const energy = generalizedEnergy(L, q, v, p);
    row[off++] = energy;
    if (k === 0) e0 = energy;
    energyDrift = Math.max(energyDrift, Math.abs(energy - e0));
    system.Delta.A(A, q);
    matVec(Av, A, m, n, v);
    const vres = maxAbs(Av);
    velocity = Math.max(velocity, vres);
    row[off++] = vres;
    if (positionAt !== undefined) {
      const pres = positionAt(q);
      position = Math.max(position, pres);
      row[off++] = pres;
    }
    if (extra !== undefined) for (let c = 0; c < w; c++) row[off + c] = extra.data[k * w + c]!;
    rec.keep(run.k[k]!, run.t[k]!, row);
  }
  const sol = rec.finish({ steps: run.steps, h: Number.NaN, stats: run.stats });
  return extendSolution(sol, {
    initialCorrection,
    constraintDrift: { velocity, position: positionAt === undefined ? undefined : position },
    energyDrift,
  }) as unknown as ImplicitSolution<X>;
}
