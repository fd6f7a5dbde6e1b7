/**
 * The data of an optimal-control problem on a Lie group (issue 19's problem API): the types a
 * user writes, and their validation. The problem layer (`problem.ts`) traces the functions once
 * and compiles them; the solver is core's interior-point {@link OcpSolver}.
 *
 * The discrete problem, stages k = 0..N, h = T/N, t_k = k·h:
 *
 *     minimize   Σ_{k<N} h·ℓ(t_k, x_k, u_k) + φ(x_N)
 *     subject to x_{k+1} = x_k·τ(h ξ(t_k, x_k, u_k))   (kinematic; or x_k·M(…), or F(…), or c(…) = 0)
 *                g(t_k, x_k, u_k) = 0, h(t_k, x_k, u_k) ≥ 0, bounds        k < N
 *                x_0 = start, x_N = end (all or some factors), terminal g, h at k = N
 *
 * @module
 */
import type { LieGroup, LieScalarOps } from '@geomech/core';
import type { OcpMap } from './factors.js';

/**
 * What a traced function of stage k sees (every entry a traced value of type T). Group elements
 * are in their storage (`packages/core/CONVENTIONS.md`: rotation matrices row-major, SE(n)
 * homogeneous, Rⁿ the vector); the state of a product is the concatenation of the factors'
 * storages, in factor order.
 */
export interface OcpStage<T> {
  /** The stage index k. */
  readonly k: T;
  /** t_k = k·h. */
  readonly t: T;
  /** The time step h = T/N. */
  readonly h: T;
  /** The horizon T (a state of the problem when it is free). */
  readonly T: T;
  /** x_k (storage of the whole state space). */
  readonly x: readonly T[];
  /** u_k (empty at the last stage). */
  readonly u: readonly T[];
  /** The named parameters. */
  readonly p: Readonly<Record<string, T>>;
  /** The start element (storage). */
  readonly start: readonly T[];
  /** The end element (storage). */
  readonly end: readonly T[];
}

/** A stage and the next state, for implicit dynamics. */
export interface OcpTransition<T> extends OcpStage<T> {
  /** x_{k+1}. */
  readonly xNext: readonly T[];
}

/** A scalar function of a stage, written once against `LieScalarOps<T>`. */
export type OcpScalarFunction = <T>(o: LieScalarOps<T>, s: OcpStage<T>) => T;
/** A vector function of a stage. */
export type OcpVectorFunction = <T>(o: LieScalarOps<T>, s: OcpStage<T>) => readonly T[];
/** A vector function of a transition (implicit dynamics). */
export type OcpTransitionFunction = <T>(o: LieScalarOps<T>, s: OcpTransition<T>) => readonly T[];

/**
 * The discrete dynamics, one of:
 * - `{ kinematic: ξ, map }`: x_{k+1} = x_k·τ(h·ξ(t_k, x_k, u_k)) with ξ in the tangent of the
 *   whole state (concatenated factor tangents; Rⁿ factors move by x + hξ), τ = cay (default) or
 *   exp (spec 003 §8.1);
 * - `{ increment: M }`: x_{k+1} = x_k·M(t_k, x_k, u_k), M a group element (storage);
 * - `{ next: F }`: x_{k+1} = F(t_k, x_k, u_k) (storage);
 * - `{ defect: c }`: c(t_k, x_k, u_k, x_{k+1}) = 0, n_x rows with ∂c/∂x_{k+1} invertible
 *   (implicit integrators).
 */
export type OcpDynamics =
  | { readonly kinematic: OcpVectorFunction; readonly map?: OcpMap }
  | { readonly increment: OcpVectorFunction }
  | { readonly next: OcpVectorFunction }
  | { readonly defect: OcpTransitionFunction };

/** A boundary condition: an element, and the factors it fixes (default: all). */
export interface OcpBoundary {
  readonly element: ArrayLike<number>;
  /** Indices of the factors fixed to `element` (the others are free). Default: every factor. */
  readonly factors?: readonly number[];
}

/** Extra constraints at one stage (e.g. a gauge condition), applied in addition to the others. */
export interface OcpStageConstraints {
  /** The stage index, or a function of N giving it. */
  readonly stage: number | ((N: number) => number);
  readonly equalities?: OcpVectorFunction;
  /** Each ≥ 0. */
  readonly inequalities?: OcpVectorFunction;
}

/** Bounds lower ≤ v ≤ upper (±∞ or omitted entries: no bound). */
export interface OcpBounds {
  readonly lower?: ArrayLike<number>;
  readonly upper?: ArrayLike<number>;
}

/** A free horizon T ∈ [min, max], carried as a constant extra state. */
export interface OcpFreeHorizon {
  readonly free: readonly [number, number];
  /** Initial guess of T. Default: the midpoint of the interval. */
  readonly guess?: number;
}

/** An optimal-control problem (module comment for the discrete problem). */
export interface OcpSpec {
  /** State space: a core group (`SO2`, `SO3`, `SE2`, `SE3`, `Rn(k)`), a product, or a list. */
  readonly state: LieGroup | readonly LieGroup[];
  /** Number of controls per stage (≥ 0). */
  readonly controls: number;
  /** Number of steps N ≥ 1 (stages 0..N). */
  readonly steps: number;
  /** Horizon T (default 1), or a free horizon. */
  readonly horizon?: number | OcpFreeHorizon;
  readonly dynamics: OcpDynamics;
  /** Running cost density ℓ (the discrete cost is Σ_{k<N} h·ℓ). */
  readonly cost?: OcpScalarFunction;
  /** Terminal cost φ(x_N). */
  readonly terminalCost?: OcpScalarFunction;
  /** Path equalities g = 0 at k < N. */
  readonly equalities?: OcpVectorFunction;
  /** Path inequalities h ≥ 0 at k < N. */
  readonly inequalities?: OcpVectorFunction;
  /** Bounds on the controls (k < N). */
  readonly controlBounds?: OcpBounds;
  /** Bounds on the state's storage entries (every stage). */
  readonly stateBounds?: OcpBounds;
  /** Start condition (required): an element fixes every factor. */
  readonly start: ArrayLike<number> | OcpBoundary;
  /** End condition (none: free end). */
  readonly end?: ArrayLike<number> | OcpBoundary;
  /** Equalities at k = N. */
  readonly terminalEqualities?: OcpVectorFunction;
  /** Inequalities ≥ 0 at k = N. */
  readonly terminalInequalities?: OcpVectorFunction;
  /** Constraints at single stages. */
  readonly at?: readonly OcpStageConstraints[];
  /** Named parameters with their values (changeable per solve without recompiling). */
  readonly params?: Readonly<Record<string, number>>;
}

/** Most controls or state-storage entries per stage. */
export const OCP_MAX_STAGE_SIZE = 200;
