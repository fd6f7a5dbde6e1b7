/**
 * The plate-ball steering problem (spec 003 §8.2, scenarios S6, S7 and the README main job; the
 * CLI's `geomech solve plate-ball`) as a problem of the optimal-control layer, in the formulation
 * of bench/ipopt/plate_ball.cpp (issue 16's IPOPT reference): state (x_k, y_k, G_k) ∈ R² × SO(3),
 * controls v_k = (v_x, v_y), h = 1/n,
 *
 *     s_k = ( −(h v_y − hΩ(x_k + x_{k+1})/2)/r,  (h v_x + hΩ(y_k + y_{k+1})/2)/r,  h c )
 *     minimize   Σ_k (h/2)|v_k|²                                (= Σ L̂(g_k))
 *     subject to x_{k+1} = x_k + h v_x,  y_{k+1} = y_k + h v_y
 *                G_{k+1} = G_k·τ_skew(s_k),  τ_skew(s) = I + ŝ + ŝ²/(1 + √(1 − |s|²))
 *                1 − |s_k|² ≥ 0                                 (the near-identity branch)
 *                vmax² − |v_k|² ≥ 0                             (speed bound, option `vmax`)
 *                (x, y, G)_0 = start,  (x, y, G)_n = end
 *                −sin α·x_m + cos α·y_m = 0                     (gauge, symmetric data only)
 *
 * s_k is the constraints (8) of the paper solved for the sine vector of g_k = G_kᵀG_{k+1} (body
 * frame, G_{k+1} = G_k g_k); with x_{k+1} = x_k + h v_x the midpoint sums are 2x_k + h v_x. The
 * dynamics are an increment of the layer (x_{k+1} = x_k·M with M = (h v, τ_skew(s_k))), so the
 * rows the solver sees are x_{k+1} − x_k − h v and cay⁻¹(τ_skew(s_k)ᵀG_kᵀG_{k+1}); the end rows
 * are x_n − x_end and cay⁻¹(G_endᵀG_n), which vanishes only at G_n = G_end (IPOPT's
 * vee(skew(G_endᵀG_n)) = 0 also vanishes at rotation errors of π and needs the branch inequality
 * tr(G_endᵀG_n) ≥ 1 there; this chart does not).
 *
 * **Speed bound** (`vmax`, default none): the control v_k = (ẋ, ẏ), the velocity with which the
 * contact point is driven over the plane (the only speed the problem controls; the plate turns at
 * the given Ω), is bounded by |v_k| ≤ vmax. When the bound is active the paper's discrete
 * Euler–Lagrange equations (without it) do not hold on the active steps: `delResidual` is then
 * not a check of optimality, the solver's KKT error and second-order verdict are.
 *
 * **Gauge** (when it is added): with start and end at the origin and both rotations about z the
 * problem is invariant under rotating the plane by β about the origin together with
 * G ↦ Rz(β)GRz(β)ᵀ — a flat direction at every solution, which the second-order test reports as
 * `singular`. With `gauge: 'auto'` (default) exactly these data get the row
 * −sin α·x_m + cos α·y_m = 0 at m = max(1, ⌊n/4⌋), α the polar angle of the guess at stage m
 * (bench/ipopt's `--gauge`), unless the guess passes the origin there (then there is no loop to
 * rotate: ψ = 0).
 *
 * **Guess** ("line + circle", bench/ipopt's): ψ = (log(G_startᵀG_end))₃, σ = `loop` or sign ψ,
 * ρ = r√(|ψ|/π); x_k = x_0 + t(x_end − x_0) + ρ sin 2πt, y_k = y_0 + t(y_end − y_0) +
 * σρ(1 − cos 2πt), t = k/n; v_k = Δ/h; s_k from them (scaled to 0.999/|s_k| if |s_k| ≥ 1) and
 * G_{k+1} = G_k τ_skew(s_k). For S7 this is the circle of the spec, for S6 the exact solution.
 *
 * **Optimality check** ({@link plateBallOptimality}): the paper's multipliers of (8) are
 * λ_k = Mᵀ Λ_k with Λ_k the solver's multipliers of the rotation rows and M = (∂C/∂ρ)(∂φ/∂ρ)⁻¹
 * (C the rotation rows, φ the constraints (8), ρ the right perturbation of g_k: both vanish on
 * the same manifold, so DC = M·Dφ there and Λᵀ DC = (MᵀΛ)ᵀDφ); the discrete Euler–Lagrange
 * equations with multipliers are evaluated by {@link PlateBall.residual} (compact form) and
 * {@link PlateBall.residualPaperForm} (the eight printed equations, (PB-y) corrected).
 *
 * @module
 */
import {
  DenseLU,
  DimensionError,
  DomainError,
  type LieScalarOps,
  type OcpSecondOrder,
  type OcpSolverOptions,
  type OcpStatus,
  Rn,
  SO3,
  tauSkew,
} from '@geomech/core';
import { PLATE_BALL_ELEMENT_SIZE, PlateBall } from '../plateBall.js';
import {
  appendResiduals,
  InstanceCache,
  type SteeringProgress,
  seededUniform,
  solveHint,
  withProgress,
} from './common.js';
import { defineOcp, type LieOcp, type LieOcpGuess, type LieOcpSolution } from './problem.js';
import { compatible } from './so3Steering.js';

/** One end of the steering problem: contact point and orientation (row-major 3×3 rotation). */
export interface PlateBallEndpoint {
  readonly x: number;
  readonly y: number;
  /** Orientation G, row-major 3×3 (see {@link axisAngleToRotation}). */
  readonly R: ArrayLike<number>;
}

/**
 * The rotation matrix exp(v̂) of the rotation vector v = (ax, ay, az) (axis × angle), row-major;
 * used for the CLI's `--start x,y,ax,ay,az` and `--end`.
 *
 * @example
 * ```ts
 * axisAngleToRotation(0, 0, 0.3); // rotation by 0.3 rad about z: exp(0.3 E3)
 * ```
 */
export function axisAngleToRotation(ax: number, ay: number, az: number): Float64Array {
  for (const [name, v] of [
    ['ax', ax],
    ['ay', ay],
    ['az', az],
  ] as const) {
    if (!Number.isFinite(v))
      throw new DomainError(`axisAngleToRotation: ${name}`, v, 'must be finite');
  }
  return SO3.exp(new Float64Array(9), Float64Array.of(ax, ay, az));
}

/** τ_skew(s) = I + ŝ + ŝ²/(1 + √(1 − |s|²)) (spec 003 §8.2), generic. */
function tauSkewT<T>(o: LieScalarOps<T>, s: readonly T[]): T[] {
  const q = o.add(o.add(o.mul(s[0]!, s[0]!), o.mul(s[1]!, s[1]!)), o.mul(s[2]!, s[2]!));
  const b = o.div(o.const(1), o.add(o.const(1), o.sqrt(o.sub(o.const(1), q))));
  const M: T[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const bss = o.mul(b, o.mul(s[i]!, s[j]!));
      M.push(i === j ? o.add(o.sub(o.const(1), o.mul(b, q)), bss) : bss);
    }
  }
  M[1] = o.sub(M[1]!, s[2]!);
  M[2] = o.add(M[2]!, s[1]!);
  M[3] = o.add(M[3]!, s[2]!);
  M[5] = o.sub(M[5]!, s[0]!);
  M[6] = o.sub(M[6]!, s[1]!);
  M[7] = o.add(M[7]!, s[0]!);
  return M;
}

/** The sine vector s_k of the stage (module comment), with x_{k+1} = x_k + h v. */
function sineOf<T>(
  o: LieScalarOps<T>,
  h: T,
  x: readonly T[],
  v: readonly T[],
  p: Readonly<Record<string, T>>,
): T[] {
  const r = p.r!;
  const hOm2 = o.mul(o.scale(h, 0.5), p.Omega!);
  const hvx = o.mul(h, v[0]!);
  const hvy = o.mul(h, v[1]!);
  // x_k + x_{k+1} = 2x_k + h v_x
  const sx = o.add(o.scale(x[0]!, 2), hvx);
  const sy = o.add(o.scale(x[1]!, 2), hvy);
  return [
    o.neg(o.div(o.sub(hvy, o.mul(hOm2, sx)), r)),
    o.div(o.add(hvx, o.mul(hOm2, sy)), r),
    o.mul(h, p.c!),
  ];
}

const bases = new Map<string, LieOcp>();
const instances = new InstanceCache();

/**
 * The plate-ball problem as a {@link LieOcp} (module comment), with or without the gauge row.
 * The compiled program is shared by every call with the same gauge flag.
 *
 * @example
 * ```ts
 * const ocp = plateBallOcp({ n: 30, r: 1, Omega: 0.5, c: 0, alpha: 0,
 *   start: Float64Array.of(0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1),
 *   end: Float64Array.of(0, 0, ...axisAngleToRotation(0, 0, 0.3)) }, false);
 * ocp.N; // 30
 * ```
 */
export function plateBallOcp(
  data: {
    readonly n: number;
    readonly r: number;
    readonly Omega: number;
    readonly c: number;
    readonly alpha: number;
    readonly start: ArrayLike<number>;
    readonly end: ArrayLike<number>;
    /** Speed bound |v_k| ≤ vmax (a row vmax² − |v_k|² ≥ 0); undefined or ∞: none. */
    readonly vmax?: number;
  },
  gauge: boolean,
): LieOcp {
  const vmax = data.vmax ?? Infinity;
  if (!(vmax > 0)) throw new DomainError('plate-ball: vmax', vmax, 'must be > 0 (or Infinity)');
  const bounded = Number.isFinite(vmax);
  const key = `${gauge}:${bounded}`;
  let ocp = bases.get(key);
  if (ocp === undefined) {
    const I = Float64Array.of(0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
    ocp = defineOcp({
      state: [Rn(2), SO3],
      controls: 2,
      steps: 2,
      params: { r: 1, Omega: 0, c: 0, alpha: 0, ...(bounded ? { vmax: 1 } : {}) },
      dynamics: {
        increment: (o, s) => [
          o.mul(s.h, s.u[0]!),
          o.mul(s.h, s.u[1]!),
          ...tauSkewT(o, sineOf(o, s.h, s.x, s.u, s.p)),
        ],
      },
      cost: (o, s) => o.scale(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[1]!, s.u[1]!)), 0.5),
      inequalities: (o, s) => {
        const v = sineOf(o, s.h, s.x, s.u, s.p);
        const branch = o.sub(
          o.const(1),
          o.add(o.add(o.mul(v[0]!, v[0]!), o.mul(v[1]!, v[1]!)), o.mul(v[2]!, v[2]!)),
        );
        if (!bounded) return [branch];
        // the speed bound vmax² − |v_k|² ≥ 0
        const speed2 = o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[1]!, s.u[1]!));
        return [branch, o.sub(o.mul(s.p.vmax!, s.p.vmax!), speed2)];
      },
      ...(gauge
        ? {
            at: [
              {
                stage: (N: number) => Math.max(1, Math.floor(N / 4)),
                equalities: <T>(
                  o: LieScalarOps<T>,
                  s: { readonly x: readonly T[]; readonly p: Readonly<Record<string, T>> },
                ) => [
                  o.add(
                    o.neg(o.mul(o.sin(s.p.alpha!), s.x[0]!)),
                    o.mul(o.cos(s.p.alpha!), s.x[1]!),
                  ),
                ],
              },
            ],
          }
        : {}),
      start: I,
      end: I,
    });
    bases.set(key, ocp);
  }
  if (!(data.r > 0 && Number.isFinite(data.r)))
    throw new DomainError('plate-ball: r', data.r, 'must be > 0 and finite');
  for (const [name, v] of [
    ['Omega', data.Omega],
    ['c', data.c],
  ] as const)
    if (!Number.isFinite(v)) throw new DomainError(`plate-ball: ${name}`, v, 'must be finite');
  return ocp.with({
    steps: data.n,
    params: {
      r: data.r,
      Omega: data.Omega,
      c: data.c,
      alpha: data.alpha,
      ...(bounded ? { vmax } : {}),
    },
    start: data.start,
    end: data.end,
  });
}

/** Options of {@link solvePlateBall}. */
export interface PlateBallOptions {
  /** Ball radius. Default 1. */
  readonly r?: number;
  /** Plate angular velocity. Default 0. */
  readonly Omega?: number;
  /** Spin constant (ω_z = c). Default 0. */
  readonly c?: number;
  /** Number of steps n ≥ 2 (h = 1/n). */
  readonly n: number;
  readonly start: PlateBallEndpoint;
  readonly end: PlateBallEndpoint;
  /** The solver's tolerance (IPOPT's `tol`). Default 1e-10. */
  readonly tol?: number;
  /** Iteration cap of each solve. Default 3000. */
  readonly maxIterations?: number;
  /** A previous result with the same n (warm start) or a trajectory (x, y, R; v from Δx/h). */
  readonly guess?: PlateBallResult | PlateBallTrajectory;
  /**
   * Solve K problems with targets G_start·exp(s·log(G_start⁻¹G_end)) and end points
   * start + s·(end − start), s = 1/K, …, 1, each from the previous solution. Default 1.
   */
  readonly continuation?: number;
  /**
   * Bound on the rolling speed, |v_k| ≤ vmax for every step (the control: the contact point's
   * velocity (ẋ, ẏ) in the plane), as the inequality vmax² − |v_k|² ≥ 0. Default ∞ (none).
   */
  readonly vmax?: number;
  /** Orientation of the loop guess: +1 counter-clockwise, −1 clockwise. Default: sign of ψ. */
  readonly loop?: 1 | -1;
  /** The gauge row: `'auto'` (default: exactly for symmetric data), true, false. */
  readonly gauge?: boolean | 'auto';
  /** Adds amplitude·U(−1, 1) to each velocity component of the guess (seeded), re-summing x, y. */
  readonly perturb?: { readonly amplitude: number; readonly seed?: number };
  /** σ3 = ±1 of {@link PlateBall} for the reported multipliers (the λ3 sign). Default 1. */
  readonly lambda3Sign?: 1 | -1;
  /** Called after every iteration (one reused object). */
  readonly onProgress?: (p: SteeringProgress) => void;
  /** Further options of core's OcpSolver. */
  readonly solver?: OcpSolverOptions;
}

/** A trajectory in the result layout (a primal guess). */
export interface PlateBallTrajectory {
  /** x_0..x_n. */
  readonly x: ArrayLike<number>;
  /** y_0..y_n. */
  readonly y: ArrayLike<number>;
  /** G_0..G_n, (n + 1)×9 row-major. */
  readonly R: ArrayLike<number>;
}

/** Result of {@link solvePlateBall}. Never a silent wrong answer: check `success`. */
export interface PlateBallResult {
  readonly n: number;
  readonly status: OcpStatus;
  /** status `converged` or `acceptable` (every continuation stage). */
  readonly converged: boolean;
  readonly secondOrder: OcpSecondOrder | undefined;
  /** A converged minimum. */
  readonly success: boolean;
  readonly gauge: boolean;
  /** Iterations, summed over continuation stages. */
  readonly iterations: number;
  /** The KKT error max(primal, dual infeasibility, complementarity), unscaled. */
  readonly residualNorm: number;
  /** max_k ‖φ(g_k)‖∞, the constraints (8) at the returned trajectory. */
  readonly constraintNorm: number;
  /** max-norm of the discrete Euler–Lagrange equations with the paper's multipliers. */
  readonly delResidual: number;
  /** Σ_k L̂(g_k) = Σ (h/2)|v_k|². */
  readonly cost: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** G_0..G_n, (n + 1)×9. */
  readonly R: Float64Array;
  /** The paper's multipliers λ_1..λ_n of (8), n×3. */
  readonly lambda: Float64Array;
  /** max(primal, dual infeasibility) per iteration over all stages. */
  readonly history: number[];
  readonly stages: readonly {
    readonly status: OcpStatus;
    readonly secondOrder: OcpSecondOrder | undefined;
    readonly iterations: number;
    readonly cost: number;
  }[];
  readonly solution: LieOcpSolution;
  readonly hint?: string;
}

function checkRotation(what: string, R: ArrayLike<number>): Float64Array {
  if (R.length !== 9) throw new DimensionError(`${what}: R`, 9, R.length);
  const m = Float64Array.from(R);
  if (!SO3.isValid(m, 1e-8))
    throw new DomainError(
      `${what}: R`,
      `[${Array.from(m).join(', ')}]`,
      'a rotation matrix (RᵀR = I to 1e-8, det +1)',
    );
  return SO3.normalize(m, m);
}

function stateOf(p: { x: number; y: number }, R: Float64Array): Float64Array {
  const s = new Float64Array(11);
  s[0] = p.x;
  s[1] = p.y;
  s.set(R, 2);
  return s;
}

const SYMMETRY_TOL = 1e-12;

/**
 * Solves the plate-ball steering problem (module comment) with the interior-point solver from
 * the line + circle guess (or a warm start), optionally with continuation. `success` only for a
 * converged minimum; the paper's multipliers and the residual of its discrete Euler–Lagrange
 * equations come with the answer.
 *
 * @throws DomainError / DimensionError for bad input (n < 2, a non-rotation R, a bad guess).
 * @example
 * ```ts
 * const sol = solvePlateBall({
 *   r: 1, Omega: 0.5, c: 0, n: 30,
 *   start: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0) },
 *   end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
 * });
 * sol.success; // true
 * sol.cost;    // 3.247543 (S7)
 * ```
 */
export function solvePlateBall(options: PlateBallOptions): PlateBallResult {
  const r = options.r ?? 1;
  const Omega = options.Omega ?? 0;
  const c = options.c ?? 0;
  const { n } = options;
  if (!Number.isInteger(n) || n < 2)
    throw new DomainError('solvePlateBall: n', n, 'an integer ≥ 2');
  const tol = options.tol ?? 1e-10;
  if (!(tol > 0)) throw new DomainError('solvePlateBall: tol', tol, 'must be > 0');
  const maxIterations = options.maxIterations ?? 3000;
  const K = options.continuation ?? 1;
  if (!Number.isInteger(K) || K < 1)
    throw new DomainError('solvePlateBall: continuation', K, 'an integer ≥ 1');
  const vmax = options.vmax ?? Infinity;
  if (!(vmax > 0)) throw new DomainError('solvePlateBall: vmax', vmax, 'must be > 0 (or Infinity)');
  const bounded = Number.isFinite(vmax);
  const loop = options.loop;
  if (loop !== undefined && loop !== 1 && loop !== -1)
    throw new DomainError('solvePlateBall: loop', loop, 'must be 1 or -1');
  for (const [what, v] of [
    ['start.x', options.start.x],
    ['start.y', options.start.y],
    ['end.x', options.end.x],
    ['end.y', options.end.y],
  ] as const) {
    if (!Number.isFinite(v)) throw new DomainError(`solvePlateBall: ${what}`, v, 'must be finite');
  }
  const g = options.guess;
  if (g !== undefined && !('solution' in g)) {
    if (g.x.length !== n + 1)
      throw new DimensionError('solvePlateBall: guess.x', n + 1, g.x.length);
    if (g.y.length !== n + 1)
      throw new DimensionError('solvePlateBall: guess.y', n + 1, g.y.length);
    if (g.R.length !== 9 * (n + 1))
      throw new DimensionError('solvePlateBall: guess.R', 9 * (n + 1), g.R.length);
  }
  const G0 = checkRotation('solvePlateBall: start', options.start.R);
  const Gn = checkRotation('solvePlateBall: end', options.end.R);
  const symmetric =
    Math.abs(options.start.x) <= SYMMETRY_TOL &&
    Math.abs(options.start.y) <= SYMMETRY_TOL &&
    Math.abs(options.end.x) <= SYMMETRY_TOL &&
    Math.abs(options.end.y) <= SYMMETRY_TOL &&
    [G0, Gn].every((G) => [2, 5, 6, 7].every((i) => Math.abs(G[i]!) <= SYMMETRY_TOL));
  const gaugeOpt = options.gauge ?? 'auto';
  if (gaugeOpt === true && !symmetric)
    throw new DomainError(
      'solvePlateBall: gauge',
      true,
      'only for start and end at the origin with rotations about z (the symmetric case)',
    );
  // continuation stages
  const rel = SO3.between(new Float64Array(9), G0, Gn);
  const relLog = SO3.log(new Float64Array(3), rel);
  const stageEnd = (s: number) => ({
    x: options.start.x + s * (options.end.x - options.start.x),
    y: options.start.y + s * (options.end.y - options.start.y),
    R:
      s === 1
        ? Gn
        : SO3.compose(
            new Float64Array(9),
            G0,
            SO3.exp(
              new Float64Array(9),
              relLog.map((e) => s * e),
            ),
          ),
  });
  const first = stageEnd(1 / K);
  const firstGuess =
    options.guess === undefined
      ? lineCircleGuess(n, r, Omega, c, options.start, G0, first, loop, options.perturb)
      : undefined;
  let gauge = gaugeOpt === 'auto' ? symmetric : gaugeOpt;
  let alpha = 0;
  if (gauge) {
    const m = Math.max(1, Math.floor(n / 4));
    const gx = firstGuess !== undefined ? firstGuess.x[11 * m]! : options.guess!.x[m]!;
    const gy = firstGuess !== undefined ? firstGuess.x[11 * m + 1]! : options.guess!.y[m]!;
    if (Math.hypot(gx, gy) < SYMMETRY_TOL) {
      if (gaugeOpt === true)
        throw new DomainError(
          'solvePlateBall: gauge',
          'the guess passes the origin at stage n/4',
          'a loop guess',
        );
      gauge = false;
    } else alpha = Math.atan2(gy, gx);
  }
  const history: number[] = [];
  const stages: {
    status: OcpStatus;
    secondOrder: OcpSecondOrder | undefined;
    iterations: number;
    cost: number;
  }[] = [];
  let iterations = 0;
  let sol: LieOcpSolution | undefined;
  let ocp: LieOcp | undefined;
  for (let j = 1; j <= K; j++) {
    const e = j === K ? { x: options.end.x, y: options.end.y, R: Gn } : stageEnd(j / K);
    const data = {
      n,
      r,
      Omega,
      c,
      alpha,
      start: stateOf(options.start, G0),
      end: stateOf(e, e.R),
      ...(bounded ? { vmax } : {}),
    };
    ocp = instances.get(`${gauge}:${n}:${bounded}`, () => plateBallOcp(data, gauge), {
      params: { r, Omega, c, alpha, ...(bounded ? { vmax } : {}) },
      start: data.start,
      end: data.end,
    });
    const label = K > 1 ? `continuation ${j}/${K}` : 'interior-point';
    const solverOptions = withProgress(
      { ...options.solver, tol, maxIterations },
      label,
      options.onProgress,
    );
    let guess: LieOcpGuess | LieOcpSolution;
    if (j > 1) guess = compatible(sol!, ocp) ? sol! : { x: sol!.x, u: sol!.u };
    else if (firstGuess !== undefined) guess = firstGuess;
    else guess = guessFrom(ocp, options.guess!, n);
    sol = ocp.solve({ guess, solver: solverOptions });
    appendResiduals(history, sol.result.residuals);
    iterations += sol.iterations;
    stages.push({
      status: sol.status,
      secondOrder: sol.secondOrder,
      iterations: sol.iterations,
      cost: sol.cost,
    });
    if (!(sol.status === 'converged' || sol.status === 'acceptable')) break;
  }
  const last = sol!;
  const check = plateBallOptimality(last, ocp!, {
    r,
    Omega,
    c,
    lambda3Sign: options.lambda3Sign ?? 1,
  });
  const X = new Float64Array(n + 1);
  const Y = new Float64Array(n + 1);
  const R = new Float64Array(9 * (n + 1));
  for (let k = 0; k <= n; k++) {
    X[k] = last.x[11 * k]!;
    Y[k] = last.x[11 * k + 1]!;
    for (let i = 0; i < 9; i++) R[9 * k + i] = last.x[11 * k + 2 + i]!;
  }
  const done = stages.length === K;
  const converged = done && (last.status === 'converged' || last.status === 'acceptable');
  const hint = done
    ? solveHint(
        last.status,
        last.secondOrder,
        '; the other loop orientation (loop) may lead to another minimum',
      )
    : `continuation stage ${stages.length}/${K} stopped (${last.status}); use more stages or a nearby solution as guess`;
  return {
    n,
    status: last.status,
    converged,
    secondOrder: last.secondOrder,
    success: done && last.success,
    gauge,
    iterations,
    residualNorm: last.kktError,
    constraintNorm: check.constraintNorm,
    delResidual: check.residual,
    cost: last.cost,
    x: X,
    y: Y,
    R,
    lambda: check.lambda,
    history,
    stages,
    solution: last,
    ...(hint === undefined ? {} : { hint }),
  };
}

/** bench/ipopt's line + circle guess (module comment) as a {@link LieOcpGuess} (storage 11). */
function lineCircleGuess(
  n: number,
  r: number,
  Omega: number,
  c: number,
  start: PlateBallEndpoint,
  G0: Float64Array,
  end: { x: number; y: number; R: Float64Array },
  loop: 1 | -1 | undefined,
  perturb: { readonly amplitude: number; readonly seed?: number } | undefined,
): LieOcpGuess {
  const h = 1 / n;
  const w = SO3.log(new Float64Array(3), SO3.between(new Float64Array(9), G0, end.R));
  const psi = w[2]!;
  const sigma = loop ?? (psi >= 0 ? 1 : -1);
  const rho = r * Math.sqrt(Math.abs(psi) / Math.PI);
  const X = new Float64Array(n + 1);
  const Y = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    const t = k / n;
    X[k] = start.x + t * (end.x - start.x) + rho * Math.sin(2 * Math.PI * t);
    Y[k] = start.y + t * (end.y - start.y) + sigma * rho * (1 - Math.cos(2 * Math.PI * t));
  }
  X[n] = end.x;
  Y[n] = end.y;
  const V = new Float64Array(2 * n);
  const rand = perturb === undefined ? null : seededUniform(perturb.seed ?? 1);
  const a = perturb?.amplitude ?? 0;
  if (!Number.isFinite(a)) throw new DomainError('solvePlateBall: perturb.amplitude', a, 'finite');
  for (let k = 0; k < n; k++) {
    V[2 * k] = (X[k + 1]! - X[k]!) / h;
    V[2 * k + 1] = (Y[k + 1]! - Y[k]!) / h;
    if (rand !== null) {
      V[2 * k] = V[2 * k]! + a * (2 * rand() - 1);
      V[2 * k + 1] = V[2 * k + 1]! + a * (2 * rand() - 1);
      X[k + 1] = X[k]! + h * V[2 * k]!;
      Y[k + 1] = Y[k]! + h * V[2 * k + 1]!;
    }
  }
  const x = new Float64Array(11 * (n + 1));
  const G = Float64Array.from(G0);
  const M = new Float64Array(9);
  const s = new Float64Array(3);
  for (let k = 0; k <= n; k++) {
    x[11 * k] = X[k]!;
    x[11 * k + 1] = Y[k]!;
    x.set(G, 11 * k + 2);
    if (k === n) break;
    s[0] = -(h * V[2 * k + 1]! - 0.5 * h * Omega * (X[k]! + X[k + 1]!)) / r;
    s[1] = (h * V[2 * k]! + 0.5 * h * Omega * (Y[k]! + Y[k + 1]!)) / r;
    s[2] = h * c;
    const ns = Math.hypot(s[0]!, s[1]!, s[2]!);
    if (ns >= 1) for (let i = 0; i < 3; i++) s[i] = (s[i]! * 0.999) / ns;
    tauSkew(M, s);
    SO3.compose(G, G, M);
  }
  return { x, u: V };
}

function guessFrom(
  ocp: LieOcp,
  g: PlateBallResult | PlateBallTrajectory,
  n: number,
): LieOcpGuess | LieOcpSolution {
  if ('solution' in g && compatible(g.solution, ocp)) return g.solution;
  if (g.x.length !== n + 1) throw new DimensionError('solvePlateBall: guess.x', n + 1, g.x.length);
  const x = new Float64Array(11 * (n + 1));
  const u = new Float64Array(2 * n);
  for (let k = 0; k <= n; k++) {
    x[11 * k] = g.x[k]!;
    x[11 * k + 1] = g.y[k]!;
    for (let i = 0; i < 9; i++) x[11 * k + 2 + i] = g.R[9 * k + i]!;
    if (k < n) {
      u[2 * k] = n * (g.x[k + 1]! - g.x[k]!);
      u[2 * k + 1] = n * (g.y[k + 1]! - g.y[k]!);
    }
  }
  return { x, u };
}

/**
 * The optimality check of a plate-ball solution against the paper (module comment): the
 * multipliers λ_k of the constraints (8) from the solver's, the residuals of the discrete
 * Euler–Lagrange equations in compact form ({@link PlateBall.residual}) and as the eight printed
 * equations with (PB-y) corrected ({@link PlateBall.residualPaperForm}) for k = 1..n−1 (max-norm),
 * and max_k ‖φ(g_k)‖∞.
 *
 * @example
 * ```ts
 * const start = { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0) };
 * const end = { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) };
 * const sol = solvePlateBall({ n: 30, Omega: 0.5, start, end });
 * const ocp = plateBallOcp({ n: 30, r: 1, Omega: 0.5, c: 0, alpha: 0,
 *   start: Float64Array.of(0, 0, ...start.R), end: Float64Array.of(0, 0, ...end.R) }, false);
 * plateBallOptimality(sol.solution, ocp, { r: 1, Omega: 0.5, c: 0 }).residual < 1e-9; // true
 * ```
 */
export function plateBallOptimality(
  sol: LieOcpSolution,
  ocp: LieOcp,
  params: {
    readonly r: number;
    readonly Omega: number;
    readonly c: number;
    readonly lambda3Sign?: 1 | -1;
  },
): { residual: number; paperResidual: number; constraintNorm: number; lambda: Float64Array } {
  const n = sol.N;
  const h = 1 / n;
  const pb = new PlateBall({
    h,
    r: params.r,
    Omega: params.Omega,
    c: params.c,
    lambda3Sign: params.lambda3Sign ?? 1,
  });
  const S = 11;
  const elems: Float64Array[] = [];
  const lambda = new Float64Array(3 * n);
  const J = new Float64Array(169);
  const dPhi = new Float64Array(9);
  const dC = new Float64Array(9);
  const lu = new DenseLU(3);
  const rhs = new Float64Array(3);
  const lam = new Float64Array(3);
  const phi = new Float64Array(3);
  let constraintNorm = 0;
  for (let k = 1; k <= n; k++) {
    const j = k - 1; // the solver's stage
    const g = new Float64Array(PLATE_BALL_ELEMENT_SIZE);
    g[0] = sol.x[S * j]!;
    g[1] = sol.x[S * j + 1]!;
    g[2] = sol.x[S * k]!;
    g[3] = sol.x[S * k + 1]!;
    const Gj = sol.x.subarray(S * j + 2, S * j + 11);
    const Gk = sol.x.subarray(S * k + 2, S * k + 11);
    g.set(SO3.between(new Float64Array(9), Gj, Gk), 4);
    elems.push(g);
    pb.phi(phi, g);
    for (let i = 0; i < 3; i++) constraintNorm = Math.max(constraintNorm, Math.abs(phi[i]!));
    // ∂φ/∂ρ (rows φ/h of the element Jacobian, times h) and ∂C/∂ρ (cJac, rotation rows and the
    // rotation columns of δx_{k+1})
    pb.elementJacobian(J, g, lam);
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) dPhi[3 * a + b] = h * J[(10 + a) * 13 + 4 + b]!;
    const ev = ocp.evaluateStage(
      j,
      sol.x.subarray(S * j, S * j + S),
      sol.u.subarray(2 * j, 2 * j + 2),
      sol.x.subarray(S * k, S * k + S),
      1,
    );
    const cw = 7 + 5;
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) dC[3 * a + b] = ev.cJac[(2 + a) * cw + 7 + 2 + b]!;
    // λ = Mᵀ Λ = (∂φ/∂ρ)⁻ᵀ (∂C/∂ρ)ᵀ Λ: solve (∂φ/∂ρ)ᵀ λ = (∂C/∂ρ)ᵀ Λ
    for (let b = 0; b < 3; b++) {
      let t = 0;
      for (let a = 0; a < 3; a++) t += dC[3 * a + b]! * sol.lambda[5 * j + 2 + a]!;
      rhs[b] = t;
    }
    lu.factor(dPhi);
    lu.solveTranspose(rhs, lam);
    lambda.set(lam, 3 * j);
  }
  let residual = 0;
  let paperResidual = 0;
  const res = new Float64Array(8);
  for (let k = 1; k < n; k++) {
    const la = lambda.subarray(3 * (k - 1), 3 * k);
    const lb = lambda.subarray(3 * k, 3 * k + 3);
    pb.residual(res, elems[k - 1]!, la, elems[k]!, lb);
    for (let i = 0; i < 8; i++) residual = Math.max(residual, Math.abs(res[i]!));
    pb.residualPaperForm(res, elems[k - 1]!, la, elems[k]!, lb);
    for (let i = 0; i < 8; i++) paperResidual = Math.max(paperResidual, Math.abs(res[i]!));
  }
  return { residual, paperResidual, constraintNorm, lambda };
}
