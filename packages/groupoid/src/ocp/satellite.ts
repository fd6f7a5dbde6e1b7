/**
 * A satellite attitude maneuver on SO(3) with torque bounds (issue 19's second built-in problem;
 * the CLI's `geomech solve satellite`), posed with {@link defineOcp}. The state is the attitude R
 * and the body angular momentum Π = Jω (state space SO(3) × R³), the control the body torque u:
 *
 *     minimize   Σ_k h·½|u_k|²                          (objective 'energy', fixed T)
 *                or T                                    (objective 'time', free T ∈ [Tmin, Tmax])
 *     subject to F_k = cay(h J⁻¹Π_k)
 *                R_{k+1} = R_k·F_k,   Π_{k+1} = F_kᵀ·Π_k + h·u_k      (forced rigid body)
 *                −umax ≤ u_{k,i} ≤ umax
 *                (R_0, Π_0) = (I, 0),  (R_n, Π_n) = (R_target, 0)      (rest to rest)
 *
 * The step is the discrete Euler–Poincaré (Lie–Poisson) map of the rigid body with the Cayley
 * retraction, forced by the impulse h·u_k in the body frame, written through the group
 * operations of SO(3) (compose, inverse, cay; `factors.ts`). Unforced, it conserves the spatial
 * angular momentum exactly: R_{k+1}Π_{k+1} = R_kF_kF_kᵀΠ_k = R_kΠ_k (a test checks it to
 * round-off), and |Π| since F_k is a rotation.
 *
 * For a rotation by φ about a principal axis the problem stays on that axis and becomes the double
 * integrator Jθ̈ = u (up to the Cayley angle 2·atan(hω/2) = hω + O(h³)): the minimum-energy torque
 * is u(t) = 6Jφ/T²·(1 − 2t/T) when that stays within the bound, and clip(c(1 − 2t/T), ±umax) with
 * the c that reaches φ when it does not (saturated arcs at the start and the end); as T decreases
 * to T* = 2√(Jφ/umax) this tends to bang-bang, u = +umax then −umax, the minimum-time solution.
 * With bounds on all three torques the eigenaxis maneuver stops being optimal near T* (Bilimoria
 * and Wie, J. Guid. Control Dyn. 16(3), 1993: the time-optimal rest-to-rest rotation leaves the
 * axis): there the single-axis solution is a critical point that the second-order verdict reports
 * as a `saddle` (a test shows it at T = 1.01·T*).
 *
 * @module
 */
import { DomainError, type LieScalarOps, Rn, SO3 } from '@geomech/core';
import { ocpFactor } from './factors.js';
import { defineOcp, type LieOcp } from './problem.js';
import type { OcpStage } from './spec.js';

/** Options of {@link satelliteOcp}. */
export interface SatelliteOptions {
  /** Number of steps n ≥ 2. Default 60. */
  readonly n?: number;
  /** Principal moments of inertia (J₁, J₂, J₃), each > 0. Default (1, 2, 3). */
  readonly inertia?: readonly [number, number, number];
  /** Torque bound umax > 0 per axis. Default 1. */
  readonly umax?: number;
  /** The target attitude as a rotation vector (axis × angle). Default (0, 0, 1.5). */
  readonly target?: readonly [number, number, number];
  /** `'energy'` (default; fixed horizon T) or `'time'` (free horizon in [Tmin, Tmax]). */
  readonly objective?: 'energy' | 'time';
  /**
   * Horizon of the energy objective. Default 4.4 (the default rotation needs T ≥ T* = 2√(J₃φ/umax)
   * = 4.243 about its axis; at 4.4 the torque saturates on a third of the steps).
   */
  readonly T?: number;
  /** Interval of the free horizon (objective 'time'). Default [0.1, 20]. */
  readonly Trange?: readonly [number, number];
}

const so3 = ocpFactor(SO3);

/**
 * The forced rigid-body step as an increment M_k = (F_k, F_kᵀΠ_k − Π_k + h·u_k) of the state
 * (R, Π) ∈ SO(3) × R³ (module comment), generic in the scalar type; reads the parameters J1, J2,
 * J3 (principal moments) and the controls u (torques, 3).
 *
 * @example
 * ```ts
 * // as the dynamics of a problem: { increment: rigidBodyIncrement }, params { J1, J2, J3 }
 * const ocp = defineOcp({ state: [SO3, Rn(3)], controls: 3, steps: 20, horizon: 2,
 *   dynamics: { increment: rigidBodyIncrement }, params: { J1: 1, J2: 2, J3: 3 },
 *   start: Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0) });
 * ocp.rollout(new Float64Array(60).fill(0.1)); // a spin-up under a constant torque
 * ```
 */
export function rigidBodyIncrement<T>(o: LieScalarOps<T>, s: OcpStage<T>): T[] {
  const J = [s.p.J1!, s.p.J2!, s.p.J3!];
  const Pi = s.x.slice(9, 12);
  const hw = Pi.map((p, i) => o.mul(s.h, o.div(p, J[i]!)));
  const F = so3.tau(o, hw, 'cayley');
  const Ft = so3.inverse(o, F);
  const dPi = [0, 1, 2].map((i) => {
    let r = o.mul(Ft[3 * i]!, Pi[0]!);
    r = o.add(r, o.mul(Ft[3 * i + 1]!, Pi[1]!));
    r = o.add(r, o.mul(Ft[3 * i + 2]!, Pi[2]!));
    return o.add(o.sub(r, Pi[i]!), o.mul(s.h, s.u[i]!));
  });
  return [...F, ...dPi];
}

/**
 * The satellite maneuver (module comment) as a compiled {@link LieOcp}; its default guess (at
 * rest) is a good start.
 *
 * @throws DomainError for bad options.
 * @example
 * ```ts
 * const sol = satelliteOcp({ n: 40, target: [0, 0, 1.5], T: 4.4 }).solve();
 * sol.success; // true: a converged minimum, the torque saturated at the start and the end
 * // (below T* = 2√(J₃φ/umax) = 4.243 no admissible torque reaches the target: status 'infeasible')
 * ```
 */
export function satelliteOcp(options: SatelliteOptions = {}): LieOcp {
  const n = options.n ?? 60;
  if (!Number.isInteger(n) || n < 2) throw new DomainError('satelliteOcp: n', n, 'an integer ≥ 2');
  const J = options.inertia ?? [1, 2, 3];
  if (J.length !== 3 || !J.every((v) => Number.isFinite(v) && v > 0))
    throw new DomainError('satelliteOcp: inertia', `[${J.join(', ')}]`, '3 finite numbers > 0');
  const umax = options.umax ?? 1;
  if (!(Number.isFinite(umax) && umax > 0))
    throw new DomainError('satelliteOcp: umax', umax, 'a finite number > 0');
  const target = options.target ?? [0, 0, 1.5];
  if (target.length !== 3 || !target.every(Number.isFinite))
    throw new DomainError('satelliteOcp: target', `[${target.join(', ')}]`, '3 finite numbers');
  const objective = options.objective ?? 'energy';
  if (objective !== 'energy' && objective !== 'time')
    throw new DomainError('satelliteOcp: objective', objective, "'energy' or 'time'");
  const R = SO3.exp(new Float64Array(9), Float64Array.from(target));
  const I = SO3.identity(new Float64Array(9));
  const start = Float64Array.of(...I, 0, 0, 0);
  const end = Float64Array.of(...R, 0, 0, 0);
  const common = {
    state: [SO3, Rn(3)],
    controls: 3,
    steps: n,
    dynamics: { increment: rigidBodyIncrement },
    controlBounds: { lower: [-umax, -umax, -umax], upper: [umax, umax, umax] },
    start,
    end,
    params: { J1: J[0], J2: J[1], J3: J[2] },
  } as const;
  if (objective === 'energy') {
    const T = options.T ?? 4.4;
    if (!(Number.isFinite(T) && T > 0))
      throw new DomainError('satelliteOcp: T', T, 'a finite number > 0');
    return defineOcp({
      ...common,
      horizon: T,
      cost: (o, s) =>
        o.scale(
          o.add(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[1]!, s.u[1]!)), o.mul(s.u[2]!, s.u[2]!)),
          0.5,
        ),
    });
  }
  const [lo, hi] = options.Trange ?? [0.1, 20];
  return defineOcp({
    ...common,
    horizon: { free: [lo, hi] },
    terminalCost: (_o, s) => s.T,
  });
}

/**
 * The continuous minimum-energy torque of a rest-to-rest rotation by φ about a principal axis of
 * inertia J in time T with |u| ≤ umax (module comment): u(t) = clip(c(1 − 2t/T), ±umax), c from
 * the condition θ(T) = (1/J)∫₀ᵀ(T − t)u(t)dt = φ (bisection). Returns undefined when
 * T < T* = 2√(Jφ/umax) (no admissible torque reaches φ).
 *
 * @example
 * ```ts
 * const u = saturatedTorque(3, 1.5, 4.4, 1)!; // J₃ = 3, φ = 1.5, T = 4.4, umax = 1
 * u(0);   // 1 (saturated)
 * u(2.2); // 0 (the switch at T/2)
 * ```
 */
export function saturatedTorque(
  J: number,
  phi: number,
  T: number,
  umax: number,
): ((t: number) => number) | undefined {
  if (T < 2 * Math.sqrt((J * Math.abs(phi)) / umax)) return undefined;
  const sgn = Math.sign(phi);
  const a = Math.abs(phi);
  // θ(T)·J for c: ∫₀ᵀ (T − t)·clip(c(1 − 2t/T)) dt, by the closed form of each piece
  const reach = (c: number): number => {
    const m = 200_000;
    // midpoint rule (smooth pieces; 2e5 points give ~1e-10 relative)
    let s = 0;
    const dt = T / m;
    for (let i = 0; i < m; i++) {
      const t = (i + 0.5) * dt;
      s += (T - t) * Math.max(-umax, Math.min(umax, c * (1 - (2 * t) / T)));
    }
    return s * dt;
  };
  let lo = 0;
  let hi = 1;
  while (reach(hi) < J * a) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (reach(mid) < J * a) lo = mid;
    else hi = mid;
  }
  const c = 0.5 * (lo + hi);
  return (t) => sgn * Math.max(-umax, Math.min(umax, c * (1 - (2 * t) / T)));
}
