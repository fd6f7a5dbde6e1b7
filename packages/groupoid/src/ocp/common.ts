/**
 * Helpers shared by the built-in optimal-control problems (internal): a seeded generator for
 * perturbed restarts, the angle–axis of a rotation as bench/ipopt computes it, progress plumbing.
 *
 * @module
 */
import type { OcpIterationInfo, OcpSolverOptions } from '@geomech/core';
import type { LieOcp, LieOcpChanges } from './problem.js';

/**
 * The last few instances of a built-in problem by key (map, gauge, n), whose data each solve
 * updates in place ({@link LieOcp.update}): repeated solves reuse the solver's buffers instead of
 * allocating O(n) storage per call. Least recently used instances beyond `capacity` are dropped.
 */
export class InstanceCache {
  private readonly map = new Map<string, LieOcp>();
  constructor(private readonly capacity = 4) {}

  /** The instance for `key` (made by `make` when absent), with `changes` applied. */
  get(key: string, make: () => LieOcp, changes: LieOcpChanges): LieOcp {
    let ocp = this.map.get(key);
    if (ocp === undefined) {
      ocp = make();
      if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value!);
    } else this.map.delete(key);
    this.map.set(key, ocp);
    return ocp.update(changes);
  }
}

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): uniform numbers in [0, 1) from a 32-bit seed,
 * for reproducible perturbed guesses.
 */
export function seededUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Rotation angle θ ∈ [0, π] and unit axis u of a row-major rotation R (u = e3 at θ = 0), as
 * bench/ipopt/lie.hpp's `angleAxis` (so that guesses agree with the IPOPT reference): from the
 * skew part w = vee((R − Rᵀ)/2) = sin θ·u and cos θ = (tr R − 1)/2, and near θ = π from the
 * largest diagonal entry of R ≈ 2uuᵀ − I with the sign of w.
 */
export function angleAxis(R: ArrayLike<number>, u: Float64Array): number {
  const w0 = 0.5 * (R[7]! - R[5]!);
  const w1 = 0.5 * (R[2]! - R[6]!);
  const w2 = 0.5 * (R[3]! - R[1]!);
  const sn = Math.sqrt(w0 * w0 + w1 * w1 + w2 * w2);
  const cs = 0.5 * (R[0]! + R[4]! + R[8]! - 1);
  const theta = Math.atan2(sn, cs);
  if (sn > 1e-7 || cs > 0) {
    if (sn === 0) {
      u[0] = 0;
      u[1] = 0;
      u[2] = 1;
    } else {
      u[0] = w0 / sn;
      u[1] = w1 / sn;
      u[2] = w2 / sn;
    }
    return theta;
  }
  let k = 0;
  for (let i = 1; i < 3; i++) if (R[4 * i]! > R[4 * k]!) k = i;
  const uk = Math.sqrt(Math.max(0, 0.5 * (R[4 * k]! + 1)));
  for (let i = 0; i < 3; i++)
    u[i] = i === k ? uk : (0.5 * (R[3 * k + i]! + R[3 * i + k]!)) / (2 * uk);
  const nu = Math.hypot(u[0]!, u[1]!, u[2]!);
  const dot = (u[0]! * w0 + u[1]! * w1 + u[2]! * w2) / nu;
  for (let i = 0; i < 3; i++) u[i] = (dot < 0 ? -u[i]! : u[i]!) / nu;
  return theta;
}

/** Progress of a built-in problem's solve (one reused object: copy what you keep). */
export interface SteeringProgress {
  /** E.g. `'interior-point'` or `'continuation 2/5 (phi = 0.75)'`. */
  stage: string;
  /** Iteration within the stage (0 is the starting point). */
  iteration: number;
  /** max(primal, dual infeasibility) of the iterate (unscaled primal, scaled dual). */
  residualNorm: number;
  /** The solver's full iteration line. */
  info: Readonly<OcpIterationInfo> | undefined;
}

/**
 * Solver options with an `onIteration` that reports max(infPr, infDu) to `onProgress`; the
 * user's own `onIteration` still runs. Without either, the options are returned unchanged: the
 * residual history is the solver's `result.residuals` (recorded without a callback, which would
 * run unoptimized and allocate every double it reads).
 */
export function withProgress(
  base: OcpSolverOptions,
  stage: string,
  onProgress: ((p: SteeringProgress) => void) | undefined,
): OcpSolverOptions {
  if (onProgress === undefined) return base;
  const progress: SteeringProgress = { stage, iteration: 0, residualNorm: 0, info: undefined };
  const user = base.onIteration;
  return {
    ...base,
    onIteration: (info) => {
      progress.iteration = info.iteration;
      progress.residualNorm = Math.max(info.infPr, info.infDu);
      progress.info = info;
      onProgress(progress);
      return user === undefined ? true : user(info);
    },
  };
}

/** Appends the residuals of a solve's iteration lines (its `result.residuals`) to `history`. */
export function appendResiduals(history: number[], residuals: Float64Array): void {
  for (let i = 0; i < residuals.length; i++) history.push(residuals[i]!);
}

/** A hint for a solve that did not end at a converged minimum, in the library's terms. */
export function solveHint(
  status: string,
  secondOrder: string | undefined,
  extra: string,
): string | undefined {
  if ((status === 'converged' || status === 'acceptable') && secondOrder === 'minimum')
    return undefined;
  if (status === 'converged' || status === 'acceptable') {
    return `the solver stopped at a ${secondOrder ?? 'non-factorable'} point, not a minimum; restart from a perturbed guess (perturb) or use continuation${extra}`;
  }
  if (status === 'maxIterations' || status === 'maxWallTime')
    return `stopped by the ${status === 'maxIterations' ? 'iteration' : 'time'} limit; allow more iterations (maxIterations) or use continuation${extra}`;
  return `the solve failed (${status}); use continuation, a nearby solution as guess, or a perturbed guess (perturb)${extra}`;
}
