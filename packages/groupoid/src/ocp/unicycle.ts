/**
 * Unicycle parking on SE(2) (issue 19's first built-in problem; the CLI's `geomech solve
 * unicycle-parking`), posed with {@link defineOcp}:
 *
 *     minimize   Σ_k h·½(v_k² + ω_k²)                    h = T/n, k = 0..n−1
 *     subject to g_{k+1} = g_k·cay(h ξ_k),  ξ_k = (v_k, w_k, ω_k) ∈ se(2) = [vx, vy, ω]
 *                w_k = 0                                   (no lateral slip)
 *                −vmax ≤ v_k ≤ vmax                        (speed bound)
 *                g_0 = start,  g_n = end                   (x, y, θ of each)
 *
 * The body velocity ξ_k is the control; the lateral component w_k is a control too, held at zero
 * by a path equality, so the solver reports the multiplier of the no-slip constraint (the lateral
 * force it takes). With `free heading` (`endHeading: 'free'`) only the end position is imposed
 * (two terminal equalities on the translation entries of g_n).
 *
 * @module
 */
import { DomainError, type LieScalarOps, SE2 } from '@geomech/core';
import { defineOcp, type LieOcp, type LieOcpGuess, type LieOcpSolution } from './problem.js';

/** Options of {@link unicycleParkingOcp}. */
export interface UnicycleParkingOptions {
  /** Number of steps n ≥ 2. Default 60. */
  readonly n?: number;
  /** Horizon T > 0. Default 1. */
  readonly T?: number;
  /** Speed bound vmax > 0 (|v_k| ≤ vmax); `Infinity` for none. Default 1.6. */
  readonly vmax?: number;
  /** Start pose (x, y, θ). Default (0, 0, 0). */
  readonly start?: readonly [number, number, number];
  /** End pose (x, y, θ). Default (1, 1, π/2). */
  readonly end?: readonly [number, number, number];
  /** `'fixed'` (default) or `'free'`: impose only the end position. */
  readonly endHeading?: 'fixed' | 'free';
}

/**
 * The SE(2) element (homogeneous 3×3 row-major) of a pose (x, y, θ):
 * [[cos θ, −sin θ, x], [sin θ, cos θ, y], [0, 0, 1]].
 *
 * @example
 * ```ts
 * se2FromPose(1, 2, 0); // [1, -0, 1, 0, 1, 2, 0, 0, 1]
 * ```
 */
export function se2FromPose(x: number, y: number, theta: number): Float64Array {
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  return Float64Array.of(c, -s, x, s, c, y, 0, 0, 1);
}

/**
 * The pose (x, y, θ) of an SE(2) element (θ = atan2(R₂₁, R₁₁) ∈ (−π, π]).
 *
 * @example
 * ```ts
 * poseFromSe2(se2FromPose(1, 2, 0.5)); // [1, 2, 0.5]
 * ```
 */
export function poseFromSe2(g: ArrayLike<number>): [number, number, number] {
  return [g[2]!, g[5]!, Math.atan2(g[3]!, g[0]!)];
}

function checkPose(p: readonly number[], what: string): void {
  if (p.length !== 3 || !p.every(Number.isFinite))
    throw new DomainError(`unicycleParkingOcp: ${what}`, `[${p.join(', ')}]`, '3 finite numbers');
}

/**
 * The unicycle parking problem (module comment) as a compiled {@link LieOcp}: state SE(2),
 * controls (v, w, ω), equality w = 0, bound |v| ≤ vmax.
 *
 * @throws DomainError for bad options.
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 40, vmax: 1.6 });
 * const sol = ocp.solve({ guess: unicycleGuess(ocp) });
 * sol.success; // true: a converged minimum
 * ```
 */
export function unicycleParkingOcp(options: UnicycleParkingOptions = {}): LieOcp {
  const n = options.n ?? 60;
  if (!Number.isInteger(n) || n < 2)
    throw new DomainError('unicycleParkingOcp: n', n, 'an integer ≥ 2');
  const T = options.T ?? 1;
  if (!(Number.isFinite(T) && T > 0))
    throw new DomainError('unicycleParkingOcp: T', T, 'a finite number > 0');
  const vmax = options.vmax ?? 1.6;
  if (!(vmax > 0)) throw new DomainError('unicycleParkingOcp: vmax', vmax, '> 0 (or Infinity)');
  const start = options.start ?? [0, 0, 0];
  const end = options.end ?? [1, 1, Math.PI / 2];
  checkPose(start, 'start');
  checkPose(end, 'end');
  const heading = options.endHeading ?? 'fixed';
  if (heading !== 'fixed' && heading !== 'free')
    throw new DomainError('unicycleParkingOcp: endHeading', heading, "'fixed' or 'free'");
  const endElement = se2FromPose(...end);
  return defineOcp({
    state: SE2,
    controls: 3,
    steps: n,
    horizon: T,
    dynamics: { kinematic: (_o, s) => s.u, map: 'cayley' },
    cost: <V>(o: LieScalarOps<V>, s: { u: readonly V[] }) =>
      o.scale(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[2]!, s.u[2]!)), 0.5),
    equalities: (_o, s) => [s.u[1]!],
    ...(Number.isFinite(vmax)
      ? {
          controlBounds: {
            lower: [-vmax, -Infinity, -Infinity],
            upper: [vmax, Infinity, Infinity],
          },
        }
      : {}),
    start: se2FromPose(...start),
    ...(heading === 'fixed'
      ? { end: endElement }
      : {
          terminalEqualities: (o, s) => [o.sub(s.x[2]!, s.end[2]!), o.sub(s.x[5]!, s.end[5]!)],
          end: { element: endElement, factors: [] },
        }),
  });
}

/**
 * The constant-velocity guess for {@link unicycleParkingOcp}: ξ_k = c·Log(start⁻¹·end)/T for
 * every k, where c = tan(φ/2)/(φ/2) with φ = Δθ/n the turn of one step corrects for the Cayley
 * map (on SE(2), cay(x) = exp((θ/ω)·x) with θ = 2·atan(ω/2), so n Cayley steps of hξ reach
 * exp(Log(start⁻¹end)) exactly), rolled out through the dynamics: it satisfies the dynamics and both end conditions,
 * and the no-slip condition w = 0 when start and end lie on one circular arc or line (the default
 * poses: a quarter circle of radius 1, v = ω = π/2·c). With v ≤ vmax it is feasible, and the
 * solver's cost must lie below its cost.
 *
 * @example
 * ```ts
 * const ocp = unicycleParkingOcp({ n: 40 });
 * const sol = ocp.solve({ guess: unicycleGuess(ocp) }); // same optimum as from rest
 * ```
 */
export function unicycleGuess(ocp: LieOcp): LieOcpGuess {
  const N = ocp.N;
  const h = ocp.h;
  const rel = SE2.compose(
    new Float64Array(9),
    SE2.inverse(new Float64Array(9), ocp.start),
    ocp.end,
  );
  const xi = SE2.log(new Float64Array(3), rel);
  const phi = xi[2]! / N; // rotation of each step
  const c = Math.abs(phi) < 1e-8 ? 1 : Math.tan(phi / 2) / (phi / 2);
  const u = new Float64Array(N * 3);
  for (let k = 0; k < N; k++) for (let i = 0; i < 3; i++) u[3 * k + i] = (c * xi[i]!) / (N * h);
  return ocp.rollout(u);
}

/**
 * The poses (x, y, θ) of a solution's states, (N + 1) × 3.
 *
 * @example
 * ```ts
 * const poses = unicyclePoses(unicycleParkingOcp({ n: 40 }).solve());
 * poses.subarray(3 * 40); // ≈ [1, 1, π/2]
 * ```
 */
export function unicyclePoses(sol: LieOcpSolution): Float64Array {
  const out = new Float64Array((sol.N + 1) * 3);
  for (let k = 0; k <= sol.N; k++) out.set(poseFromSe2(sol.x.subarray(9 * k, 9 * k + 9)), 3 * k);
  return out;
}
