/**
 * Sub-Riemannian steering on SO(3) (spec 003 §8.1, scenario S4; the CLI's `geomech solve
 * so3-steering`) as a problem of the optimal-control layer, in the formulation of
 * bench/ipopt/so3_steering.cpp (issue 16's IPOPT reference):
 *
 *     minimize   Σ_k h·½|ξ_k|²                          h = 1/n, k = 0..n−1
 *     subject to G_{k+1} = G_k·τ(hξ_k)                  τ = cay (default) or exp
 *                ξ_{k,3} = 0                            (Ψ(ξ) = ξ₃: controls in span{E1, E2})
 *                G_0 = I,  G_n = G_target               (target exp(φE3) or any rotation)
 *                ξ_{0,2} = 0                            (gauge, targets about z only)
 *
 * The rows the solver sees (`program.ts`): dynamics cay⁻¹(G_kᵀG_{k+1}) − hξ_k (Cayley) or
 * cay⁻¹(exp(hξ_k)ᵀG_kᵀG_{k+1}) (exp), boundary cay⁻¹(G_0) and cay⁻¹(G_targetᵀG_n): the same
 * feasible set as IPOPT's G_{k+1} − G_kτ(hξ_k) = 0, vee(skew(G_targetᵀG_n)) = 0,
 * tr(G_targetᵀG_n) ≥ 1 (the Cayley chart of the end condition vanishes only at G_n = G_target,
 * so the branch inequality IPOPT needs there is not needed here).
 *
 * **Gauge** (when it is added): a target about z is invariant under conjugation by rotations
 * about z, which rotates every ξ_k in the (ξ1, ξ2) plane, a one-parameter family of optima whose
 * flat direction the second-order test would report as `singular`. With `gauge: 'auto'` (the
 * default) the row ξ_{0,2} = 0 is added exactly for targets about z (off-axis entries of G_target
 * ≤ 1e-6), as bench/ipopt's `--gauge`; it leaves the isolated pair ξ ↦ −ξ.
 *
 * **Guess** ("extremal", bench/ipopt's): the cheapest normal extremal ξ(t) = Rz(λt)(X1, X2, 0),
 * G(1) = exp(X̂)Rz(−λ) reaching the target, sampled at t_k = k/n, with G from the discrete
 * dynamics (G_n misses the target by O(h²)). About z this is the circle of S4,
 * X = (√(|φ|(4π − |φ|)), 0, sign φ·(2π − |φ|)).
 *
 * **Optimality check** ({@link so3SteeringOptimality}): the paper's multipliers are λ_k = μ_k/h
 * (μ_k the solver's multiplier of ξ_{k,3} = 0: L̂ + λφ = h(l + λΨ)), and the discrete
 * Euler–Lagrange equations with multipliers (6.1-e) are evaluated by {@link LieGroupOCP.delResidual}.
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type OcpSecondOrder,
  type OcpSolverOptions,
  type OcpStatus,
  SO3,
} from '@geomech/core';
import { type AlgebraFunction, LieGroupOCP, type LieGroupOCPData } from '../lieGroupMechanics.js';
import { type So3Map, so3Retraction } from '../rigidBody.js';
import {
  angleAxis,
  appendResiduals,
  InstanceCache,
  type SteeringProgress,
  seededUniform,
  solveHint,
  withProgress,
} from './common.js';
import { defineOcp, type LieOcp, type LieOcpGuess, type LieOcpSolution } from './problem.js';

/** l(ξ) = ½|ξ|² and Ψ(ξ) = ξ₃ on so(3) (spec 003 S4), with analytic derivatives. */
export function so3SteeringData(map: So3Map = 'cayley'): LieGroupOCPData {
  const psi: AlgebraFunction = {
    value: (x) => x[2]!,
    grad: (out) => {
      out[0] = 0;
      out[1] = 0;
      out[2] = 1;
      return out;
    },
    hess: (out) => out.fill(0),
  };
  return {
    group: SO3,
    tau: so3Retraction(map),
    l: (x) => 0.5 * (x[0]! * x[0]! + x[1]! * x[1]! + x[2]! * x[2]!),
    dl: (out, x) => {
      out[0] = x[0]!;
      out[1] = x[1]!;
      out[2] = x[2]!;
      return out;
    },
    d2l: (out) => {
      out.fill(0);
      out[0] = 1;
      out[4] = 1;
      out[8] = 1;
      return out;
    },
    Psi: [psi],
  };
}

/** Off-axis tolerance of "a target about z" (bench/ipopt's). */
const ABOUT_Z_TOL = 1e-6;

/** True when the rotation's entries (0,2), (1,2), (2,0), (2,1) are all ≤ 1e-6 in magnitude. */
function aboutZ(T: ArrayLike<number>): boolean {
  return (
    Math.abs(T[2]!) <= ABOUT_Z_TOL &&
    Math.abs(T[5]!) <= ABOUT_Z_TOL &&
    Math.abs(T[6]!) <= ABOUT_Z_TOL &&
    Math.abs(T[7]!) <= ABOUT_Z_TOL
  );
}

const base = new Map<string, LieOcp>();
const instances = new InstanceCache();

/**
 * The S4 problem as a {@link LieOcp} (module comment): n steps, target rotation `target`
 * (row-major), retraction `map`, with or without the gauge row. The compiled program is shared by
 * every call with the same map and gauge.
 *
 * @example
 * ```ts
 * const ocp = so3SteeringOcp(40, SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 1)), 'cayley', true);
 * ocp.N; // 40
 * ```
 */
export function so3SteeringOcp(
  n: number,
  target: ArrayLike<number>,
  map: So3Map = 'cayley',
  gauge = false,
): LieOcp {
  const key = `${map}:${gauge}`;
  let ocp = base.get(key);
  if (ocp === undefined) {
    ocp = defineOcp({
      state: SO3,
      controls: 3,
      steps: 2,
      dynamics: { kinematic: (_o, s) => s.u, map },
      cost: (o, s) =>
        o.scale(
          o.add(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[1]!, s.u[1]!)), o.mul(s.u[2]!, s.u[2]!)),
          0.5,
        ),
      equalities: (_o, s) => [s.u[2]!],
      ...(gauge ? { at: [{ stage: 0, equalities: (_o, s) => [s.u[1]!] }] } : {}),
      start: SO3.identity(new Float64Array(9)),
      end: SO3.identity(new Float64Array(9)),
    });
    base.set(key, ocp);
  }
  return ocp.with({ steps: n, end: target });
}

/**
 * The cheapest normal extremal X = (X1, X2, λ) of the continuous problem reaching `target`
 * (bench/ipopt's "extremal" guess, module comment): about z the circle; otherwise, for
 * m ∈ {−2, −1, 0, 1}, sign changes of f_m(λ) = (θ + 2πm)u₃ − λ on 6001 points of [−3π, 3π],
 * (θ, u) the angle–axis of G_target·Rz(λ), refined by 80 bisections and kept when |f_m| < 1e-8
 * and ‖exp(X̂)Rz(−λ) − G_target‖max < 1e-8; the least ½(X1² + X2²) wins.
 *
 * @throws DomainError when no extremal reaches the target.
 * @example
 * ```ts
 * so3SteeringExtremal(SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 1)));
 * // [√(4π − 1), 0, 2π − 1]
 * ```
 */
export function so3SteeringExtremal(target: ArrayLike<number>): Float64Array {
  const T = target;
  if (aboutZ(T)) {
    const phi = Math.atan2(T[3]!, T[0]!);
    if (Math.abs(phi) <= 1e-12) return new Float64Array(3);
    const p = Math.abs(phi);
    return Float64Array.of(Math.sqrt(p * (4 * Math.PI - p)), 0, Math.sign(phi) * (2 * Math.PI - p));
  }
  const Rl = new Float64Array(9);
  const Q = new Float64Array(9);
  const u = new Float64Array(3);
  const X = new Float64Array(3);
  const E = new Float64Array(9);
  const G1 = new Float64Array(9);
  const rz = (out: Float64Array, a: number) => SO3.exp(out, Float64Array.of(0, 0, a));
  const fm = (m: number, lam: number): number => {
    rz(Rl, lam);
    SO3.compose(Q, Float64Array.from(T), Rl);
    const th = angleAxis(Q, u);
    for (let i = 0; i < 3; i++) X[i] = (th + 2 * Math.PI * m) * u[i]!;
    return X[2]! - lam;
  };
  const N = 6000;
  const lo = -3 * Math.PI;
  const hi = 3 * Math.PI;
  let best: Float64Array | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let m = -2; m <= 1; m++) {
    let la = lo;
    let fa = fm(m, la);
    for (let i = 1; i <= N; i++) {
      const lb = lo + ((hi - lo) * i) / N;
      const fb = fm(m, lb);
      if (fa * fb <= 0) {
        let a = la;
        let b = lb;
        let fA = fa;
        for (let it = 0; it < 80; it++) {
          const c = 0.5 * (a + b);
          const fc = fm(m, c);
          if (fc <= 0 === fA <= 0) {
            a = c;
            fA = fc;
          } else b = c;
        }
        const lam = 0.5 * (a + b);
        const f = fm(m, lam);
        X[2] = lam;
        SO3.exp(E, X);
        rz(Rl, -lam);
        SO3.compose(G1, E, Rl);
        let err = 0;
        for (let k = 0; k < 9; k++) err = Math.max(err, Math.abs(G1[k]! - T[k]!));
        const cost = 0.5 * (X[0]! * X[0]! + X[1]! * X[1]!);
        if (Math.abs(f) < 1e-8 && err < 1e-8 && cost < bestCost) {
          bestCost = cost;
          best = Float64Array.from(X);
        }
      }
      la = lb;
      fa = fb;
    }
  }
  if (best === null)
    throw new DomainError('so3SteeringExtremal: target', '…', 'reachable by a normal extremal');
  return best;
}

/** A primal starting point: ξ (n × 3) and, optionally, the states G_0..G_n ((n + 1) × 9). */
export interface So3SteeringGuess {
  readonly xi: ArrayLike<number>;
  readonly R?: ArrayLike<number>;
}

/** Options of {@link solveSo3Steering}. */
export interface So3SteeringOptions {
  /** Number of steps n ≥ 2 (h = 1/n). */
  readonly n: number;
  /** Target exp(φE3) (default φ = 1 when no `target` is given). */
  readonly phi?: number;
  /** Target as a rotation vector (axis × angle), any axis; exclusive with `phi`. */
  readonly target?: ArrayLike<number>;
  /** Retraction τ. Default `'cayley'`. */
  readonly map?: So3Map;
  /** The gauge row ξ_{0,2} = 0: `'auto'` (default: exactly for targets about z), true, false. */
  readonly gauge?: boolean | 'auto';
  /** The solver's tolerance (IPOPT's `tol`, scaled optimality error). Default 1e-10. */
  readonly tol?: number;
  /** Iteration cap of each solve. Default 3000 (IPOPT's). */
  readonly maxIterations?: number;
  /**
   * Starting point: a previous result with the same n (warm start with its multipliers), or a
   * primal guess (ξ, and G or G from the dynamics). Default: the extremal guess.
   */
  readonly guess?: So3SteeringResult | So3SteeringGuess;
  /** Adds amplitude·U(−1, 1) to ξ_{k,1}, ξ_{k,2} of the guess (seeded): a perturbed restart. */
  readonly perturb?: { readonly amplitude: number; readonly seed?: number };
  /**
   * Continuation: K solves along the target's rotation vector scaled by s_j = s₀ + j(1 − s₀)/K,
   * s₀ = min(1, 0.5/angle) (for φ: φ_j = 0.5 + j(φ − 0.5)/K), each from the previous solution;
   * or the list of angles φ_j (targets about z).
   */
  readonly continuation?: number | readonly number[];
  /** Called after every iteration (one reused object). */
  readonly onProgress?: (p: SteeringProgress) => void;
  /** Further options of core's OcpSolver. */
  readonly solver?: OcpSolverOptions;
}

/** Result of {@link solveSo3Steering}. */
export interface So3SteeringResult {
  /** φ for targets about z (undefined otherwise). */
  readonly phi: number | undefined;
  /** The target rotation vector and matrix. */
  readonly target: Float64Array;
  readonly targetR: Float64Array;
  readonly n: number;
  readonly map: So3Map;
  readonly gauge: boolean;
  readonly status: OcpStatus;
  /** status `converged` or `acceptable`. */
  readonly converged: boolean;
  readonly secondOrder: OcpSecondOrder | undefined;
  /** A converged minimum (the only outcome reported as success). */
  readonly success: boolean;
  /** Iterations over all stages. */
  readonly iterations: number;
  /** The KKT error max(primal, dual infeasibility, complementarity), unscaled. */
  readonly residualNorm: number;
  /** (1/n)Σ ½|ξ_k|², the discrete action (6.1-c). */
  readonly cost: number;
  /** max-norm of the DEL (6.1-e) and Ψ residuals with the paper's multipliers. */
  readonly delResidual: number;
  /** ξ_1..ξ_n (n × 3; ξ_k drives step k from G_{k−1} to G_k). */
  readonly xi: Float64Array;
  /** The paper's multipliers λ_1..λ_n of Ψ. */
  readonly lambda: Float64Array;
  /** G_0..G_n, (n + 1) × 9 row-major. */
  readonly R: Float64Array;
  /** max(primal, dual infeasibility) per iteration, over all stages. */
  readonly history: number[];
  readonly stages: readonly {
    readonly phi: number | undefined;
    readonly status: OcpStatus;
    readonly secondOrder: OcpSecondOrder | undefined;
    readonly iterations: number;
    readonly cost: number;
  }[];
  /** The last solve's solution (warm starts). */
  readonly solution: LieOcpSolution;
  /** Advice when the answer is not a converged minimum. */
  readonly hint?: string;
}

function rotationOfVector(v: ArrayLike<number>): Float64Array {
  return SO3.exp(new Float64Array(9), Float64Array.from(v));
}

/**
 * Solves the S4 steering problem (module comment) with the interior-point solver, from the
 * extremal guess, a warm start or a primal guess, optionally with continuation in the target.
 * Never a silent wrong answer: `success` is true only for a converged minimum; otherwise
 * `status`, `secondOrder` and `hint` say what happened.
 *
 * @throws DomainError for bad options (n < 2, both phi and target, a gauge for a target not
 *   about z, non-finite data).
 * @example
 * ```ts
 * const r = solveSo3Steering({ phi: 1, n: 40 });
 * r.cost;        // 5.798604 (spec 003 S4)
 * r.success;     // true (converged, second-order verdict 'minimum')
 * r.delResidual < 1e-9; // true: the optimum satisfies (6.1-e) (measured 5e-11)
 * ```
 */
export function solveSo3Steering(options: So3SteeringOptions): So3SteeringResult {
  const { n } = options;
  if (!Number.isInteger(n) || n < 2)
    throw new DomainError('solveSo3Steering: n', n, 'an integer ≥ 2');
  if (options.phi !== undefined && options.target !== undefined)
    throw new DomainError('solveSo3Steering: target', 'phi and target', 'give one of them');
  const map = options.map ?? 'cayley';
  if (map !== 'cayley' && map !== 'exp')
    throw new DomainError('solveSo3Steering: map', map, "'cayley' or 'exp'");
  let vec: Float64Array;
  if (options.target !== undefined) {
    if (options.target.length !== 3)
      throw new DimensionError('solveSo3Steering: target', 3, options.target.length);
    vec = Float64Array.from(options.target);
  } else vec = Float64Array.of(0, 0, options.phi ?? 1);
  for (const v of vec)
    if (!Number.isFinite(v)) throw new DomainError('solveSo3Steering: target', v, 'finite');
  const targetR = rotationOfVector(vec);
  const zTarget = aboutZ(targetR);
  const gaugeOpt = options.gauge ?? 'auto';
  if (gaugeOpt === true && !zTarget)
    throw new DomainError(
      'solveSo3Steering: gauge',
      true,
      'only for targets about z (the symmetric case)',
    );
  const gauge = gaugeOpt === 'auto' ? zTarget : gaugeOpt;
  const tol = options.tol ?? 1e-10;
  if (!(tol > 0)) throw new DomainError('solveSo3Steering: tol', tol, 'must be > 0');
  const maxIterations = options.maxIterations ?? 3000;
  // continuation stages: rotation vectors
  const stagesVec: Float64Array[] = [];
  const cont = options.continuation;
  const phiOf = (v: Float64Array): number | undefined =>
    v[0] === 0 && v[1] === 0 ? v[2]! : undefined;
  if (cont === undefined) stagesVec.push(vec);
  else if (typeof cont === 'number') {
    if (!Number.isInteger(cont) || cont < 1)
      throw new DomainError('solveSo3Steering: continuation', cont, 'an integer ≥ 1');
    const angle = Math.hypot(vec[0]!, vec[1]!, vec[2]!);
    if (phiOf(vec) !== undefined) {
      const phi = vec[2]!;
      for (let j = 0; j <= cont; j++)
        stagesVec.push(Float64Array.of(0, 0, j === cont ? phi : 0.5 + ((phi - 0.5) * j) / cont));
    } else {
      const s0 = Math.min(1, 0.5 / angle);
      for (let j = 0; j <= cont; j++) {
        const s = j === cont ? 1 : s0 + ((1 - s0) * j) / cont;
        stagesVec.push(vec.map((e) => s * e));
      }
    }
  } else {
    if (phiOf(vec) === undefined)
      throw new DomainError(
        'solveSo3Steering: continuation',
        'a list',
        'a count for targets not about z',
      );
    for (const p of cont) {
      if (!Number.isFinite(p))
        throw new DomainError('solveSo3Steering: continuation', p, 'finite angles');
      stagesVec.push(Float64Array.of(0, 0, p));
    }
    if (stagesVec.length === 0 || stagesVec[stagesVec.length - 1]![2] !== vec[2])
      stagesVec.push(vec);
  }
  const history: number[] = [];
  const stages: {
    phi: number | undefined;
    status: OcpStatus;
    secondOrder: OcpSecondOrder | undefined;
    iterations: number;
    cost: number;
  }[] = [];
  let iterations = 0;
  let prev: LieOcpSolution | undefined;
  let ocp: LieOcp | undefined;
  let sol: LieOcpSolution | undefined;
  for (let j = 0; j < stagesVec.length; j++) {
    const v = stagesVec[j]!;
    const R = rotationOfVector(v);
    const g = gauge && aboutZ(R);
    ocp = instances.get(`${map}:${g}:${n}`, () => so3SteeringOcp(n, R, map, g), { end: R });
    const label =
      stagesVec.length > 1
        ? `continuation ${j + 1}/${stagesVec.length}${phiOf(v) === undefined ? '' : ` (phi = ${phiOf(v)})`}`
        : 'interior-point';
    const solverOptions = withProgress(
      { ...options.solver, tol, maxIterations },
      label,
      options.onProgress,
    );
    let guess: LieOcpGuess | LieOcpSolution;
    if (j > 0) guess = compatible(prev!, ocp) ? prev! : { x: prev!.x, u: prev!.u };
    else if (options.guess !== undefined) guess = guessFrom(ocp, options.guess, n);
    else guess = extremalGuess(ocp, R, n, options.perturb);
    sol = ocp.solve({ guess, solver: solverOptions });
    appendResiduals(history, sol.result.residuals);
    iterations += sol.iterations;
    stages.push({
      phi: phiOf(v),
      status: sol.status,
      secondOrder: sol.secondOrder,
      iterations: sol.iterations,
      cost: sol.cost,
    });
    prev = sol;
    if (!(sol.status === 'converged' || sol.status === 'acceptable')) break;
  }
  const last = sol!;
  const del = so3SteeringOptimality(last, ocp!, map);
  const converged = last.status === 'converged' || last.status === 'acceptable';
  const done = stages.length === stagesVec.length;
  const success = done && last.success;
  const hint = done
    ? solveHint(last.status, last.secondOrder, '')
    : `continuation stage ${stages.length}/${stagesVec.length} stopped (${last.status}); use more stages or a nearby solution as guess`;
  return {
    phi: phiOf(vec),
    target: vec,
    targetR,
    n,
    map,
    gauge,
    status: last.status,
    converged: converged && done,
    secondOrder: last.secondOrder,
    success,
    iterations,
    residualNorm: last.kktError,
    cost: last.cost,
    delResidual: del.residual,
    xi: Float64Array.from(last.u),
    lambda: del.lambda,
    R: Float64Array.from(last.x),
    history,
    stages,
    solution: last,
    ...(hint === undefined ? {} : { hint }),
  };
}

/** Whether a solution can warm-start `ocp` (same N and rows: its multipliers fit). */
export function compatible(sol: LieOcpSolution, ocp: LieOcp): boolean {
  return (
    sol.N === ocp.N &&
    sol.mu.length === ocp.gOffset[ocp.N + 1] &&
    sol.z.length === ocp.hOffset[ocp.N + 1] &&
    sol.x.length === (ocp.N + 1) * ocp.storage
  );
}

/** The extremal guess: ξ_k = Rz(λt_k)(X1, X2, 0) (+ perturbation), G from the dynamics. */
function extremalGuess(
  ocp: LieOcp,
  target: Float64Array,
  n: number,
  perturb: { readonly amplitude: number; readonly seed?: number } | undefined,
) {
  const X = so3SteeringExtremal(target);
  const u = new Float64Array(3 * n);
  const rand = perturb === undefined ? null : seededUniform(perturb.seed ?? 1);
  const a = perturb?.amplitude ?? 0;
  if (!Number.isFinite(a))
    throw new DomainError('solveSo3Steering: perturb.amplitude', a, 'finite');
  for (let k = 0; k < n; k++) {
    const c = Math.cos((X[2]! * k) / n);
    const s = Math.sin((X[2]! * k) / n);
    u[3 * k] = c * X[0]! - s * X[1]!;
    u[3 * k + 1] = s * X[0]! + c * X[1]!;
    if (rand !== null) {
      u[3 * k] = u[3 * k]! + a * (2 * rand() - 1);
      u[3 * k + 1] = u[3 * k + 1]! + a * (2 * rand() - 1);
    }
  }
  return ocp.rollout(u);
}

function guessFrom(ocp: LieOcp, g: So3SteeringResult | So3SteeringGuess, n: number) {
  if ('solution' in g && compatible(g.solution, ocp)) return g.solution;
  if (g.xi === undefined || typeof g.xi.length !== 'number')
    throw new DomainError(
      'solveSo3Steering: guess.xi',
      String(g.xi),
      'must be an array of 3n numbers',
    );
  if (g.xi.length !== 3 * n)
    throw new DimensionError('solveSo3Steering: guess.xi', 3 * n, g.xi.length);
  if (g.R === undefined) return ocp.rollout(Float64Array.from(g.xi));
  if (g.R.length !== 9 * (n + 1))
    throw new DimensionError('solveSo3Steering: guess.R', 9 * (n + 1), g.R.length);
  return { x: Float64Array.from(g.R), u: Float64Array.from(g.xi) };
}

/**
 * The optimality check of a solution of the S4 problem against the paper: the multipliers
 * λ_k = μ_k/h of Ψ and the residual of the discrete Euler–Lagrange equations with multipliers
 * (6.1-e), F⁺(ξ_k, λ_k) − F⁻(ξ_{k+1}, λ_{k+1}) and Ψ(ξ_{k+1}) for k = 1..n−1
 * ({@link LieGroupOCP.delResidual}), as a max-norm.
 *
 * @example
 * ```ts
 * const r = solveSo3Steering({ phi: 1, n: 40 });
 * so3SteeringOptimality(r.solution, so3SteeringOcp(40, r.targetR, 'cayley', true), 'cayley')
 *   .residual < 1e-9; // true (measured 5e-11)
 * ```
 */
export function so3SteeringOptimality(
  sol: LieOcpSolution,
  ocp: LieOcp,
  map: So3Map,
): { residual: number; lambda: Float64Array } {
  const n = sol.N;
  const h = 1 / n;
  const lambda = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const rows = ocp.rows(k);
    lambda[k] = sol.mu[ocp.gOffset[k]! + rows.equalities.offset]! / h;
  }
  const lg = new LieGroupOCP({ ...so3SteeringData(map), h });
  const res = new Float64Array(4);
  const a = new Float64Array(3);
  const b = new Float64Array(3);
  const la = new Float64Array(1);
  const lb = new Float64Array(1);
  let r = 0;
  for (let k = 0; k + 1 < n; k++) {
    for (let i = 0; i < 3; i++) {
      a[i] = sol.u[3 * k + i]!;
      b[i] = sol.u[3 * (k + 1) + i]!;
    }
    la[0] = lambda[k]!;
    lb[0] = lambda[k + 1]!;
    lg.delResidual(res, a, la, b, lb);
    for (let i = 0; i < 4; i++) r = Math.max(r, Math.abs(res[i]!));
  }
  return { residual: r, lambda };
}
