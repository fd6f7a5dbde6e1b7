/**
 * A quadrotor flying from hover at one pose to hover at another in fixed time (issue 19's third
 * built-in problem; the CLI's `geomech solve quadrotor-flight`), posed with {@link defineOcp}.
 * The state is that of {@link QuadrotorLgviStepper}, (R, x, Π, v) ∈ SO(3) × R³ × R³ × R³ (the
 * attitude, the position, the body angular momentum and the velocity: SE(3) ≅ SO(3) ⋉ R³ in
 * product coordinates, as the stepper writes it), the control u = (f, τ₁, τ₂, τ₃) the thrust
 * along the body axis Re₃ and the body torque, held over each step; h = T/n:
 *
 *     minimize   Σ_k h·|u_k − u_hover|²,   u_hover = (m g, 0, 0, 0)
 *     subject to the forced LGVI step (lgvi.ts (L4)–(L8)) as stage equality constraints:
 *                (1/h)·vee(F_kJ_d − J_dF_kᵀ) − g_k = 0,      F_k = R_kᵀR_{k+1},  g_k = Π_k + (h/2)τ_k
 *                (x_{k+1} − x_k)/h − v_k − (h/2m)(f_k R_k e₃ − m g e₃) = 0
 *                Π_{k+1} − F_kᵀg_k − (h/2)τ_k = 0
 *                v_{k+1} − v_k − (h/2m)[(f_k R_k e₃ − m g e₃) + (f_k R_{k+1} e₃ − m g e₃)] = 0
 *                0 ≤ f_k ≤ fmax,   −τmax ≤ τ_{k,i} ≤ τmax
 *                (R, x, Π, v)_0 = (Rz(ψ₀), x₀, 0, 0),  (R, x, Π, v)_n = (Rz(ψ₁), x₁, 0, 0)
 *
 * (L4) is divided by h and (L7) by h so that every row is O(1) in h; the rows vanish exactly where
 * the stepper's step holds, so the optimal inputs re-simulated by {@link QuadrotorLgviStepper}
 * reproduce the optimal trajectory (a test checks the end pose to 1e-8). The step is implicit in
 * F_k, so the dynamics are the layer's `defect` form; ∂c/∂(R, x, Π, v)_{k+1} is invertible for
 * h|ω| small (its rotation block is (tr(FJ_d)F − FJ_dF)/h ≈ J/h).
 *
 * Narrow torque bounds: from a guess at τ = 0 with the initial z = 1, both sides of a torque bound
 * narrower than ±1 start with z/s > 1 and would be kept as KKT rows, a pair on one control of
 * which the stage eliminates one and carries the other; core's interior-point method condenses
 * such rows when they would exceed `OCP_MAX_CARRIED_CONSTRAINTS`, so τmax = 0.2 solves to the
 * minimum IPOPT finds (a test). The default τmax = 1.5 is not active on the default flight.
 *
 * Hover is exact: at R = Rz(ψ) (third column e₃ exactly), f = m g and τ = 0 every bracket
 * f·(Re₃) − m g e₃ is 0 to the last bit, so the hover problem (start = end) is solved by
 * u = u_hover with cost 0 (a test). A hover pose has a vertical thrust axis: poses are
 * (x, y, z, ψ), the attitude a yaw Rz(ψ).
 *
 * @module
 */
import { DomainError, type LieScalarOps, Rn, SO3 } from '@geomech/core';
import { ocpFactor } from './factors.js';
import { defineOcp, type LieOcp, type LieOcpGuess } from './problem.js';
import type { OcpTransition } from './spec.js';

/** A hover pose: position (x, y, z) and yaw ψ (the attitude Rz(ψ)). */
export type QuadrotorPose = readonly [number, number, number, number];

/** Options of {@link quadrotorOcp}. */
export interface QuadrotorOcpOptions {
  /** Number of steps n ≥ 2. Default 40. */
  readonly n?: number;
  /** Horizon T > 0. Default 2. */
  readonly T?: number;
  /** Mass m > 0. Default 1.5 (the CLI's `quadrotor` system). */
  readonly mass?: number;
  /** Principal moments (I₁, I₂, I₃) > 0. Default (0.02, 0.02, 0.04). */
  readonly inertia?: readonly [number, number, number];
  /** Gravity g ≥ 0 along −e₃. Default 9.81. */
  readonly gravity?: number;
  /** Thrust bound fmax > m g (0 ≤ f ≤ fmax). Default 2·m·g. */
  readonly fmax?: number;
  /** Torque bound τmax > 0 per axis. Default 1.5 (not active on the default flight). */
  readonly taumax?: number;
  /** Start pose (x, y, z, ψ). Default (0, 0, 1, 0). */
  readonly start?: QuadrotorPose;
  /** Target pose (x, y, z, ψ). Default (2, 0, 2, π/2). */
  readonly end?: QuadrotorPose;
}

const so3 = ocpFactor(SO3);

/**
 * The forced quadrotor LGVI step as 12 defect rows (module comment) of a transition
 * (R, x, Π, v)_k, u_k → (R, x, Π, v)_{k+1}, generic in the scalar type; reads the parameters m,
 * g, J1, J2, J3.
 *
 * @example
 * ```ts
 * // the dynamics of quadrotorOcp: { defect: quadrotorDefect } with params m, g, J1, J2, J3
 * const ocp = quadrotorOcp({ n: 20 });
 * ocp.controls; // 4
 * ```
 */
export function quadrotorDefect<T>(o: LieScalarOps<T>, s: OcpTransition<T>): T[] {
  const { h, p } = s;
  const m = p.m!;
  const mg = o.mul(m, p.g!);
  const J = [p.J1!, p.J2!, p.J3!];
  const half = o.scale(o.add(o.add(J[0]!, J[1]!), J[2]!), 0.5);
  const d = J.map((Ji) => o.sub(half, Ji));
  const R0 = s.x.slice(0, 9);
  const R1 = s.xNext.slice(0, 9);
  const F = so3.compose(o, so3.inverse(o, R0), R1);
  const hh = o.scale(h, 0.5);
  const f = s.u[0]!;
  const tau = [s.u[1]!, s.u[2]!, s.u[3]!];
  const Pi0 = s.x.slice(12, 15);
  const gk = Pi0.map((v, i) => o.add(v, o.mul(hh, tau[i]!)));
  // (L4)/h: vee(FJ_d − J_dFᵀ) = (F₇d₁ − F₅d₂, F₂d₂ − F₆d₀, F₃d₀ − F₁d₁)
  const vee = [
    o.sub(o.mul(F[7]!, d[1]!), o.mul(F[5]!, d[2]!)),
    o.sub(o.mul(F[2]!, d[2]!), o.mul(F[6]!, d[0]!)),
    o.sub(o.mul(F[3]!, d[0]!), o.mul(F[1]!, d[1]!)),
  ];
  const rot = vee.map((e, i) => o.sub(o.div(e, h), gk[i]!));
  // thrust minus weight at both ends, f·(Re₃) − m g e₃ (third column of R)
  const a = [o.mul(f, R0[2]!), o.mul(f, R0[5]!), o.sub(o.mul(f, R0[8]!), mg)];
  const b = [o.mul(f, R1[2]!), o.mul(f, R1[5]!), o.sub(o.mul(f, R1[8]!), mg)];
  const c = o.div(hh, m);
  const pos = [0, 1, 2].map((i) =>
    o.sub(o.sub(o.div(o.sub(s.xNext[9 + i]!, s.x[9 + i]!), h), s.x[15 + i]!), o.mul(c, a[i]!)),
  );
  // (L6): Π_{k+1} − Fᵀg − (h/2)τ
  const mom = [0, 1, 2].map((i) => {
    let r = o.mul(F[i]!, gk[0]!);
    r = o.add(r, o.mul(F[3 + i]!, gk[1]!));
    r = o.add(r, o.mul(F[6 + i]!, gk[2]!));
    return o.sub(o.sub(s.xNext[12 + i]!, r), o.mul(hh, tau[i]!));
  });
  // (L8)
  const vel = [0, 1, 2].map((i) =>
    o.sub(o.sub(s.xNext[15 + i]!, s.x[15 + i]!), o.mul(c, o.add(a[i]!, b[i]!))),
  );
  return [...rot, ...pos, ...mom, ...vel];
}

/**
 * The state (R, x, Π, v) of hover at a pose (x, y, z, ψ), in the storage of
 * {@link QuadrotorLgviStepper}: R = Rz(ψ) (row-major), the position, Π = 0, v = 0.
 *
 * @example
 * ```ts
 * const s = quadrotorHoverState([1, 2, 3, Math.PI / 2]); // R = Rz(π/2): sin ψ = 1 at (2, 1)
 * s[3]; // 1
 * s[11]; // 3
 * ```
 */
export function quadrotorHoverState(pose: QuadrotorPose): Float64Array {
  const [x, y, z, psi] = pose;
  const c = Math.cos(psi);
  const s = Math.sin(psi);
  return Float64Array.of(c, -s, 0, s, c, 0, 0, 0, 1, x, y, z, 0, 0, 0, 0, 0, 0);
}

function checkPose(p: readonly number[], what: string): void {
  if (p.length !== 4 || !p.every(Number.isFinite))
    throw new DomainError(
      `quadrotorOcp: ${what}`,
      `[${p.join(', ')}]`,
      '4 finite numbers (x, y, z, ψ)',
    );
}

const positive = (what: string, v: number): number => {
  if (!(Number.isFinite(v) && v > 0))
    throw new DomainError(`quadrotorOcp: ${what}`, v, 'a finite number > 0');
  return v;
};

/**
 * The quadrotor flight (module comment) as a compiled {@link LieOcp}: state SO(3) × R³ × R³ × R³
 * in the storage of {@link QuadrotorLgviStepper}, controls (f, τ₁, τ₂, τ₃). Solve it from
 * {@link quadrotorGuess}.
 *
 * @throws DomainError for bad options (fmax ≤ m g: hover is not admissible).
 * @example
 * ```ts
 * const ocp = quadrotorOcp({ n: 30, T: 2, end: [1, 0, 1.5, 0] });
 * const sol = ocp.solve({ guess: quadrotorGuess(ocp) });
 * sol.success; // true: a converged minimum
 * ```
 */
export function quadrotorOcp(options: QuadrotorOcpOptions = {}): LieOcp {
  const n = options.n ?? 40;
  if (!Number.isInteger(n) || n < 2) throw new DomainError('quadrotorOcp: n', n, 'an integer ≥ 2');
  const T = positive('T', options.T ?? 2);
  const m = positive('mass', options.mass ?? 1.5);
  const J = options.inertia ?? [0.02, 0.02, 0.04];
  if (J.length !== 3 || !J.every((v) => Number.isFinite(v) && v > 0))
    throw new DomainError('quadrotorOcp: inertia', `[${J.join(', ')}]`, '3 finite numbers > 0');
  const g = options.gravity ?? 9.81;
  if (!(Number.isFinite(g) && g >= 0))
    throw new DomainError('quadrotorOcp: gravity', g, 'a finite number ≥ 0');
  const fmax = options.fmax ?? 2 * m * g;
  if (!(Number.isFinite(fmax) && fmax > m * g))
    throw new DomainError('quadrotorOcp: fmax', fmax, `a finite number > m g = ${m * g}`);
  const taumax = positive('taumax', options.taumax ?? 1.5);
  const start = options.start ?? [0, 0, 1, 0];
  const end = options.end ?? [2, 0, 2, Math.PI / 2];
  checkPose(start, 'start');
  checkPose(end, 'end');
  const fh = m * g;
  return defineOcp({
    state: [SO3, Rn(3), Rn(3), Rn(3)],
    controls: 4,
    steps: n,
    horizon: T,
    dynamics: { defect: quadrotorDefect },
    params: { m, g, J1: J[0], J2: J[1], J3: J[2], fhover: fh },
    cost: (o, s) => {
      const df = o.sub(s.u[0]!, s.p.fhover!);
      let c = o.mul(df, df);
      for (let i = 1; i < 4; i++) c = o.add(c, o.mul(s.u[i]!, s.u[i]!));
      return c;
    },
    controlBounds: { lower: [0, -taumax, -taumax, -taumax], upper: [fmax, taumax, taumax, taumax] },
    start: quadrotorHoverState(start),
    end: quadrotorHoverState(end),
  });
}

/**
 * The default guess of {@link quadrotorOcp}: hover thrust and zero torque at every step, the
 * position and the yaw interpolated linearly from start to end (x_k = x₀ + (k/n)(x₁ − x₀),
 * R_k = Rz(ψ₀ + (k/n)(ψ₁ − ψ₀))) with the matching constant velocity and yaw momentum inside
 * and rest at both ends. Not feasible (the interior-point solver restores the dynamics); it
 * converges to the minimum where the rest guess (thrust 0) takes many more iterations.
 *
 * @example
 * ```ts
 * const ocp = quadrotorOcp({ n: 30 });
 * quadrotorGuess(ocp).u[0]; // ≈ 14.715 (1e-12)
 * ```
 */
export function quadrotorGuess(ocp: LieOcp): LieOcpGuess {
  const N = ocp.N;
  const T = ocp.T;
  const a = ocp.start;
  const b = ocp.end;
  const psi0 = Math.atan2(a[3]!, a[0]!);
  let dpsi = Math.atan2(b[3]!, b[0]!) - psi0;
  if (dpsi > Math.PI) dpsi -= 2 * Math.PI;
  if (dpsi < -Math.PI) dpsi += 2 * Math.PI;
  const J3 = ocp.params.J3!;
  const x = new Float64Array((N + 1) * 18);
  for (let k = 0; k <= N; k++) {
    const t = k / N;
    const inner = k > 0 && k < N ? 1 : 0;
    const pos: [number, number, number, number] = [
      a[9]! + t * (b[9]! - a[9]!),
      a[10]! + t * (b[10]! - a[10]!),
      a[11]! + t * (b[11]! - a[11]!),
      psi0 + t * dpsi,
    ];
    const s = quadrotorHoverState(pos);
    s[14] = (inner * J3 * dpsi) / T;
    for (let i = 0; i < 3; i++) s[15 + i] = (inner * (b[9 + i]! - a[9 + i]!)) / T;
    x.set(s, 18 * k);
  }
  const u = new Float64Array(N * 4);
  for (let k = 0; k < N; k++) u[4 * k] = ocp.params.fhover!;
  return { x, u };
}
