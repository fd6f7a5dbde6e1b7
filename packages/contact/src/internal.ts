/**
 * Helpers shared by the integrators of this package; not part of the public API (not exported
 * from the package index).
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  jacobianFromFiniteDifferences,
  NonFiniteError,
  type Potential,
} from '@geomech/core';

/** A finite copy of an initial-data vector of length n (shared by the integrators). */
export function copyVector(what: string, v: ArrayLike<number>, n: number): Float64Array {
  if (v.length !== n) throw new DimensionError(`integrate: ${what}`, n, v.length);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) throw new DomainError(`integrate: ${what}[${i}]`, x, 'must be finite');
    out[i] = x;
  }
  return out;
}

/** out ← ∇²V(q, t) (n×n row-major); returns out. */
export type PotentialHessian = (out: Float64Array, q: Float64Array, t: number) => Float64Array;

/**
 * ∇²V of a potential: its own `hessV` when given, otherwise core's central differences of `gradV`
 * (`jacobianFromFiniteDifferences`, step ∛ε·max(1, |qⱼ|) over the exact distance of the two
 * evaluation points, ≈ 1e-10 relative). The returned function owns its scratch and allocates
 * nothing.
 */
export function potentialHessian(V: Potential): PotentialHessian {
  const hessV = V.hessV;
  if (hessV !== undefined) return (out, q, t) => hessV.call(V, out, q, t);
  const n = V.dim;
  let time = 0;
  const J = jacobianFromFiniteDifferences(
    (out, x) => {
      V.gradV(out, x, time);
    },
    n,
    n,
  );
  return (out, q, t) => {
    time = t;
    J(out, q);
    return out;
  };
}

/** Throws DomainError unless h is a finite number > 0. */
export function checkStepSize(what: string, h: number): void {
  if (!(h > 0) || !Number.isFinite(h))
    throw new DomainError(`${what}: h`, h, 'must be a finite number > 0');
}

/** Throws DimensionError unless n is a positive integer. */
export function checkDimension(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new DimensionError(`${what}: n`, '>= 1', n);
}

/** Cheap per-call shape checks (two comparisons; no allocation). */
export function checkPoint(what: string, n: number, q0: Float64Array, q1: Float64Array): void {
  if (q0.length !== n) throw new DimensionError(`${what}: q0`, n, q0.length);
  if (q1.length !== n) throw new DimensionError(`${what}: q1`, n, q1.length);
}

/** Throws DimensionError unless `out` has exactly `size` entries. */
export function checkOut(what: string, size: number, out: Float64Array): void {
  if (out.length !== size) throw new DimensionError(`${what}: out`, size, out.length);
}

/** Throws NonFiniteError naming step k when q, p or z is not finite. */
export function assertFinite(q: Float64Array, p: Float64Array, z: number, k: number): void {
  assertFiniteQP(q, p, k);
  if (!Number.isFinite(z)) throw new NonFiniteError(`step ${k}: z`);
}

/**
 * Throws NonFiniteError naming step k when q or p is not finite: the part of {@link assertFinite}
 * without a double argument, for hot paths (a double passed to a call V8 does not inline is boxed;
 * the caller tests z itself).
 */
export function assertFiniteQP(q: Float64Array, p: Float64Array, k: number): void {
  for (let i = 0; i < q.length; i++)
    if (!Number.isFinite(q[i]!)) throw new NonFiniteError(`step ${k}: q`, i);
  for (let i = 0; i < p.length; i++)
    if (!Number.isFinite(p[i]!)) throw new NonFiniteError(`step ${k}: p`, i);
}

/**
 * The discrete Lagrangians whose own evaluation runs core's `NewtonSolver.solveScalar` (the
 * implicit-z midpoint): `ContactIntegrator` does not step them through `solveScalar` as well (two
 * problem classes make the solver's call sites polymorphic; see its constructor).
 */
export const SOLVES_BY_SOLVE_SCALAR: WeakSet<object> = new WeakSet();

/**
 * The Lagrangians built by `mechanicalContactLagrangian` (L = ½|v|² − V(q, t) + γz exactly):
 * `implicitZMidpointLd` registers a dedicated step kernel (kernels.ts) only for these, never for
 * a user's object that merely has `potential` and `gamma` fields.
 */
export const MECHANICAL_LAGRANGIANS: WeakSet<object> = new WeakSet();
