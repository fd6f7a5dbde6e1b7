/**
 * Runner of the optimal-control problems of the CLI contract (`geomech solve`): `plate-ball`
 * (spec 003 §8.2, S6, S7; {@link solvePlateBall}) and `so3-steering` (spec 003 §8.1, S4;
 * {@link solveSo3Steering}), both solved by core's interior-point solver through groupoid's
 * optimal-control layer.
 *
 * Output states are k = 0, …, n at t = k/n (h = 1/n). Per-state quantities (x, y, R = G_k) are
 * those of state k; per-step quantities (λ_k, ξ_k) belong to the step g_k from state k − 1 to
 * state k, so state k carries step k's value and state 0 repeats step 1's (there is no step 0).
 * A `--guess` file is a previous solution in this layout (its states and controls are the
 * starting point).
 *
 * The JSON header reports the solver's `status` (kebab-case IPOPT statuses, {@link cliStatus})
 * and the `secondOrder` verdict; `ok` is true only for a converged minimum.
 *
 * @module
 */
import { type OcpSolverOptions, SE2, SO3 } from '@geomech/core';
import {
  axisAngleToRotation,
  type LieOcp,
  type LieOcpGuess,
  type LieOcpMultipliers,
  type LieOcpSolution,
  lqrGains,
  type PlateBallTrajectory,
  poseFromSe2,
  quadrotorGuess,
  quadrotorHoverState,
  quadrotorOcp,
  type So3SteeringGuess,
  satelliteOcp,
  se2FromPose,
  solvePlateBall,
  solveSo3Steering,
  unicycleParkingOcp,
} from '@geomech/groupoid';
import { UsageError } from '../errors.js';
import type {
  FeedbackData,
  ProblemRunner,
  Series,
  SolveOutput,
  SolveProgress,
  SolveRequest,
} from '../runner.js';

const scalar = (request: SolveRequest, name: string): number => request.params.get(name)![0]!;

/** The CLI's name of a solver status (the contract's kebab-case vocabulary). */
export function cliStatus(status: string): string {
  switch (status) {
    case 'maxIterations':
      return 'iteration-limit';
    case 'maxWallTime':
      return 'time-limit';
    case 'restorationFailed':
      return 'restoration-failed';
    case 'invalidNumbers':
      return 'invalid-numbers';
    case 'stepComputationFailed':
      return 'step-failed';
    case 'stepTooSmall':
      return 'step-too-small';
    case 'userStop':
      return 'user-stop';
    default:
      return status;
  }
}

/** What to try when a solve is not a converged minimum, in CLI flags. */
function cliHint(
  status: string,
  secondOrder: string | undefined,
  extra: string,
): string | undefined {
  const converged = status === 'converged' || status === 'acceptable';
  if (converged && secondOrder === 'minimum') return undefined;
  if (converged)
    return `the answer is a ${secondOrder ?? 'non-factorable'} point, not a minimum: start elsewhere (--guess FILE${extra}) or use --continuation K`;
  if (status === 'maxIterations')
    return `raise --max-iter, use --continuation K, or start from a nearby solution with --guess FILE${extra}`;
  return `use --continuation K or start from a nearby solution with --guess FILE${extra}`;
}

/** Per-step data (n rows of `width`) → per-state rows (n + 1), state 0 repeating step 1. */
export function stepsToStates(data: ArrayLike<number>, n: number, width: number): Float64Array {
  const out = new Float64Array((n + 1) * width);
  for (let j = 0; j < width; j++) out[j] = data[j]!;
  for (let i = 0; i < n * width; i++) out[width + i] = data[i]!;
  return out;
}

/** Per-state rows → per-step rows (drops state 0). */
function statesToSteps(data: Float64Array, n: number, width: number): Float64Array {
  return data.slice(width, (n + 1) * width);
}

/** Reads field `name` of a guess (one entry per state: a number or a `width`-vector). */
export function guessField(
  guess: Readonly<Record<string, unknown>>,
  name: string,
  states: number,
  width: number,
): Float64Array {
  const where = `--guess series.${name}`;
  const v = guess[name];
  if (!Array.isArray(v)) throw new UsageError('missing or not an array', where);
  if (v.length !== states)
    throw new UsageError(`has ${v.length} states, expected ${states} (n + 1 for this n)`, where);
  const out = new Float64Array(states * width);
  for (let k = 0; k < states; k++) {
    const row = v[k] as unknown;
    const items = width === 1 && typeof row === 'number' ? [row] : row;
    if (!Array.isArray(items) || items.length !== width)
      throw new UsageError(
        `state ${k} must be ${width === 1 ? 'a number' : `${width} numbers`}`,
        where,
      );
    for (let j = 0; j < width; j++) {
      const x = items[j] as unknown;
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new UsageError(`state ${k} has a non-finite entry`, where);
      out[k * width + j] = x;
    }
  }
  return out;
}

/** The common part of the output of both problems. */
function outcome(
  sol: {
    readonly status: string;
    readonly secondOrder: string | undefined;
    readonly success: boolean;
    readonly converged: boolean;
    readonly iterations: number;
    readonly residualNorm: number;
    readonly cost: number;
    readonly history: readonly number[];
  },
  hintExtra: string,
) {
  const hint = cliHint(sol.status, sol.secondOrder, hintExtra);
  return {
    ok: sol.success,
    converged: sol.converged,
    status: cliStatus(sol.status),
    secondOrder: sol.secondOrder ?? 'not-checked',
    iterations: sol.iterations,
    residualNorm: sol.residualNorm,
    cost: sol.cost,
    history: sol.history,
    stats: { newtonIterations: sol.iterations, maxResidual: sol.residualNorm },
    ...(hint === undefined ? {} : { hint }),
  };
}

const progressOf =
  (progress: (p: SolveProgress) => void) =>
  (p: { stage: string; iteration: number; residualNorm: number }): void =>
    progress({ stage: p.stage, iteration: p.iteration, residualNorm: p.residualNorm });

/** Rejects `--feedback` for the problems not posed with `defineOcp`. */
function noFeedback(request: SolveRequest): void {
  if (request.feedback === true)
    throw new UsageError(
      `${request.problem.name} has no LQR feedback (it is given for unicycle-parking, satellite and --model problems)`,
      '--feedback',
    );
}

/**
 * The LQR gains of a solution (groupoid's {@link lqrGains}, weights the Hessian of the Lagrangian)
 * when the request asks for them and the solution is a converged minimum.
 */
export function feedbackOf(
  request: Pick<SolveRequest, 'feedback' | 'feedbackWeights'>,
  ocp: LieOcp,
  sol: LieOcpSolution,
): { feedback?: FeedbackData } {
  if (request.feedback !== true || !sol.success) return {};
  const eye = (n: number) => Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0));
  const nx = ocp.program.nx;
  const fb = lqrGains(
    ocp,
    sol,
    request.feedbackWeights === 'unit' ? { weights: { Q: eye(nx), R: eye(ocp.controls) } } : {},
  );
  return {
    feedback: {
      N: fb.N,
      T: fb.T,
      storage: ocp.storage,
      dim: fb.dim,
      controls: fb.controls,
      x: fb.x,
      u: fb.u,
      K: fb.K,
    },
  };
}

function plateBall(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput {
  noFeedback(request);
  const n = scalar(request, 'n');
  const r = scalar(request, 'r');
  if (!(r > 0)) throw new UsageError(`r must be > 0, got ${r}`, '--param r');
  const loop = scalar(request, 'loop');
  if (loop !== 0 && loop !== 1 && loop !== -1)
    throw new UsageError(`loop must be 1, -1 or 0 (automatic), got ${loop}`, '--param loop');
  const vmax = scalar(request, 'vmax');
  if (!(vmax >= 0))
    throw new UsageError(`vmax must be > 0 (or 0: no bound), got ${vmax}`, '--param vmax');
  const end = (name: string) => {
    const [x, y, ax, ay, az] = request.boundary.get(name)! as [
      number,
      number,
      number,
      number,
      number,
    ];
    return { x, y, R: axisAngleToRotation(ax, ay, az) };
  };
  const g = request.guess;
  const guess: PlateBallTrajectory | undefined =
    g === undefined
      ? undefined
      : {
          x: guessField(g, 'x', n + 1, 1),
          y: guessField(g, 'y', n + 1, 1),
          R: guessField(g, 'R', n + 1, 9),
        };
  const sol = solvePlateBall({
    r,
    Omega: scalar(request, 'Omega'),
    c: scalar(request, 'c'),
    n,
    start: end('start'),
    end: end('end'),
    tol: request.tol,
    continuation: request.continuation > 0 ? request.continuation + 1 : 1,
    ...(loop === 0 ? {} : { loop: loop as 1 | -1 }),
    ...(vmax > 0 ? { vmax } : {}),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
    ...(guess === undefined ? {} : { guess }),
    onProgress: progressOf(progress),
  });
  const t = Float64Array.from({ length: n + 1 }, (_, k) => k / n);
  const series: Series[] = [
    { name: 'x', width: 1, data: sol.x },
    { name: 'y', width: 1, data: sol.y },
    { name: 'R', width: 9, data: sol.R },
    { name: 'lambda', width: 3, data: stepsToStates(sol.lambda, n, 3) },
  ];
  return {
    count: n + 1,
    t,
    series,
    ...outcome(sol, ', or the other loop orientation --param loop=±1'),
    extra: { constraintNorm: sol.constraintNorm, delResidual: sol.delResidual },
  };
}

const SO3_MAPS: Readonly<Record<string, 'cayley' | 'exp'>> = { cayley: 'cayley', exp: 'exp' };

function so3Steering(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput {
  noFeedback(request);
  const n = scalar(request, 'n');
  const phi = scalar(request, 'phi');
  const map = SO3_MAPS[request.choices.get('map') ?? 'cayley']!;
  const g = request.guess;
  const guess: So3SteeringGuess | undefined =
    g === undefined
      ? undefined
      : {
          R: guessField(g, 'R', n + 1, 9),
          xi: statesToSteps(guessField(g, 'xi', n + 1, 3), n, 3),
        };
  const sol = solveSo3Steering({
    phi,
    n,
    map,
    tol: request.tol,
    ...(request.continuation > 0 ? { continuation: request.continuation } : {}),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
    ...(guess === undefined ? {} : { guess }),
    onProgress: progressOf(progress),
  });
  const t = Float64Array.from({ length: n + 1 }, (_, k) => k / n);
  return {
    count: n + 1,
    t,
    series: [
      { name: 'xi', width: 3, data: stepsToStates(sol.xi, n, 3) },
      { name: 'lambda', width: 1, data: stepsToStates(sol.lambda, n, 1) },
      { name: 'R', width: 9, data: sol.R },
    ],
    ...outcome(sol, ''),
    extra: { bvpResidual: sol.delResidual, delResidual: sol.delResidual },
  };
}

/** The common output fields of a {@link LieOcpSolution}. */
export function lieOcpOutcome(
  sol: LieOcpSolution,
  history: readonly number[],
  iterations: number = sol.iterations,
) {
  return outcome(
    {
      status: sol.status,
      secondOrder: sol.secondOrder,
      success: sol.success,
      converged: sol.status === 'converged' || sol.status === 'acceptable',
      iterations,
      residualNorm: sol.kktError,
      cost: sol.cost,
      history,
    },
    '',
  );
}

/** Widths of the `multipliers` series of a problem: λ (n_x), and the widest stage's μ and z. */
function multiplierWidths(ocp: LieOcp): { nx: number; ng: number; nh: number; width: number } {
  const nx = ocp.program.nx;
  let ng = 0;
  let nh = 0;
  for (let k = 0; k <= ocp.N; k++) {
    ng = Math.max(ng, ocp.gOffset[k + 1]! - ocp.gOffset[k]!);
    nh = Math.max(nh, ocp.hOffset[k + 1]! - ocp.hOffset[k]!);
  }
  return { nx, ng, nh, width: nx + ng + 2 * nh };
}

/**
 * The `multipliers` series of a solution, for warm starts with `--guess`: per state k the
 * multipliers of stage k, [λ_k (the dynamics rows; 0 at k = n), μ_k (equality rows), z_k
 * (inequality rows), s_k (their slacks)], each block zero-padded to the widest stage.
 */
export function multiplierSeries(ocp: LieOcp, sol: LieOcpSolution): Series {
  const { nx, ng, nh, width } = multiplierWidths(ocp);
  const N = ocp.N;
  const data = new Float64Array((N + 1) * width);
  for (let k = 0; k <= N; k++) {
    const row = k * width;
    if (k < N) for (let i = 0; i < nx; i++) data[row + i] = sol.lambda[k * nx + i]!;
    const g0 = ocp.gOffset[k]!;
    for (let i = 0; i < ocp.gOffset[k + 1]! - g0; i++) data[row + nx + i] = sol.mu[g0 + i]!;
    const h0 = ocp.hOffset[k]!;
    for (let i = 0; i < ocp.hOffset[k + 1]! - h0; i++) {
      data[row + nx + ng + i] = sol.z[h0 + i]!;
      data[row + nx + ng + nh + i] = sol.s[h0 + i]!;
    }
  }
  return { name: 'multipliers', width, data };
}

/** The multipliers of a `--guess` file's `multipliers` series (undefined when it has none). */
function guessMultipliers(
  ocp: LieOcp,
  guess: Readonly<Record<string, unknown>>,
): LieOcpMultipliers | undefined {
  if (guess.multipliers === undefined) return undefined;
  const { nx, ng, nh, width } = multiplierWidths(ocp);
  const N = ocp.N;
  const rows = guessField(guess, 'multipliers', N + 1, width);
  const lambda = new Float64Array(N * nx);
  const mu = new Float64Array(ocp.gOffset[N + 1]!);
  const z = new Float64Array(ocp.hOffset[N + 1]!);
  const s = new Float64Array(ocp.hOffset[N + 1]!);
  for (let k = 0; k <= N; k++) {
    const row = k * width;
    if (k < N) for (let i = 0; i < nx; i++) lambda[k * nx + i] = rows[row + i]!;
    const g0 = ocp.gOffset[k]!;
    for (let i = 0; i < ocp.gOffset[k + 1]! - g0; i++) mu[g0 + i] = rows[row + nx + i]!;
    const h0 = ocp.hOffset[k]!;
    for (let i = 0; i < ocp.hOffset[k + 1]! - h0; i++) {
      z[h0 + i] = rows[row + nx + ng + i]!;
      s[h0 + i] = rows[row + nx + ng + nh + i]!;
    }
  }
  for (const v of [z, s])
    if (v.some((e) => !(e > 0)))
      throw new UsageError('series.multipliers has a z or s entry ≤ 0', '--guess');
  return { lambda, mu, z, s };
}

/**
 * How a problem posed with `defineOcp` (a built-in or a model file) starts and continues (see
 * {@link solveBuiltin}).
 */
export interface BuiltinSolve {
  /** The default guess of the instance as it is (its end already set). */
  readonly defaultGuess: (ocp: LieOcp) => LieOcpGuess | undefined;
  /** States (storage, (n + 1) × S) and controls (n × n_u) of a `--guess` file's series. */
  readonly fromFile: (guess: Readonly<Record<string, unknown>>) => {
    x: Float64Array;
    u: Float64Array;
    /** The horizon (free-horizon problems). */
    T?: number;
  };
  /** The end element of continuation stage s ∈ (0, 1) (s = 1 is the problem's own end). */
  readonly endAt: (s: number) => ArrayLike<number>;
}

/**
 * Solves a built-in or a model file posed with `defineOcp` with the request's `--guess` (a
 * previous solution: its states and controls, and its `multipliers` for a warm start) and
 * `--continuation K` (K problems with the end moved along a path from the start, s = j/(K + 1),
 * each from the previous solution, then the problem itself).
 */
export function solveBuiltin(
  ocp: LieOcp,
  request: SolveRequest,
  progress: (p: SolveProgress) => void,
  how: BuiltinSolve,
): { sol: LieOcpSolution; history: number[]; iterations: number } {
  const K = request.continuation;
  const end = Float64Array.from(ocp.end);
  const history: number[] = [];
  let iterations = 0;
  let sol: LieOcpSolution | undefined;
  for (let j = 1; j <= K + 1; j++) {
    ocp.update({ end: j === K + 1 ? end : how.endAt(j / (K + 1)) });
    let guess: LieOcpGuess | LieOcpSolution | undefined;
    let warm: OcpSolverOptions = {};
    if (sol !== undefined) guess = sol;
    else if (request.guess !== undefined) {
      const primal = how.fromFile(request.guess);
      const multipliers = guessMultipliers(ocp, request.guess);
      guess = { ...primal, ...(multipliers === undefined ? {} : { multipliers }) };
      // IPOPT's warm-start settings for a start at a solution: the barrier and the pushes of
      // slacks and bound multipliers off zero at the level of the tolerance, not 1e-4 and 1e-3
      if (multipliers !== undefined) warm = WARM_FROM_SOLUTION;
    } else guess = how.defaultGuess(ocp);
    const stage = K > 0 ? `continuation ${j}/${K + 1}` : 'interior-point';
    const solver: OcpSolverOptions = {
      ...warm,
      tol: request.tol,
      ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
      onIteration: (info) => {
        const r = Math.max(info.infPr, info.infDu);
        history.push(r);
        progress({ stage, iteration: info.iteration, residualNorm: r });
        return true;
      },
    };
    sol = ocp.solve({ solver, ...(guess === undefined ? {} : { guess }) });
    iterations += sol.iterations;
    if (!(sol.status === 'converged' || sol.status === 'acceptable')) break;
  }
  return { sol: sol!, history, iterations };
}

/** Solver options of a warm start at a previous solution of the same problem (IPOPT's advice). */
const WARM_FROM_SOLUTION: OcpSolverOptions = {
  warmStart: true,
  muInit: 1e-9,
  warmStartBoundPush: 1e-9,
  warmStartMultBoundPush: 1e-9,
};

/** Per-state rows of a guess field → per-step rows (drops state 0, which repeats step 1). */
export function guessSteps(
  guess: Readonly<Record<string, unknown>>,
  name: string,
  n: number,
  width: number,
): Float64Array {
  return statesToSteps(guessField(guess, name, n + 1, width), n, width);
}

function unicycleOcp(request: SolveRequest): LieOcp {
  const n = scalar(request, 'n');
  const T = scalar(request, 'T');
  if (!(T > 0)) throw new UsageError(`T must be > 0, got ${T}`, '--param T');
  const vmax = scalar(request, 'vmax');
  if (!(vmax > 0)) throw new UsageError(`vmax must be > 0, got ${vmax}`, '--param vmax');
  const pose = (name: string) => request.boundary.get(name)! as [number, number, number];
  return unicycleParkingOcp({
    n,
    T,
    vmax,
    start: pose('start'),
    end: pose('end'),
    endHeading: request.choices.get('heading') === 'free' ? 'free' : 'fixed',
  });
}

function unicycleParking(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput {
  const n = scalar(request, 'n');
  const ocp = unicycleOcp(request);
  const g0 = Float64Array.from(ocp.start);
  const rel = SE2.log(
    new Float64Array(3),
    SE2.compose(new Float64Array(9), SE2.inverse(new Float64Array(9), g0), ocp.end),
  );
  const { sol, history, iterations } = solveBuiltin(ocp, request, progress, {
    defaultGuess: () => undefined,
    fromFile: (g) => {
      const x = guessField(g, 'x', n + 1, 1);
      const y = guessField(g, 'y', n + 1, 1);
      const th = guessField(g, 'theta', n + 1, 1);
      const X = new Float64Array((n + 1) * 9);
      for (let k = 0; k <= n; k++) X.set(se2FromPose(x[k]!, y[k]!, th[k]!), 9 * k);
      return { x: X, u: guessSteps(g, 'xi', n, 3) };
    },
    // start·exp(s·log(start⁻¹end))
    endAt: (t) =>
      SE2.compose(
        new Float64Array(9),
        g0,
        SE2.exp(
          new Float64Array(9),
          rel.map((e) => t * e),
        ),
      ),
  });
  const x = new Float64Array(n + 1);
  const y = new Float64Array(n + 1);
  const theta = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    const p = poseFromSe2(sol.x.subarray(9 * k, 9 * k + 9));
    x[k] = p[0];
    y[k] = p[1];
    theta[k] = p[2];
  }
  const slipMultiplier = new Float64Array(n);
  for (let k = 0; k < n; k++)
    slipMultiplier[k] = sol.mu[ocp.gOffset[k]! + ocp.rows(k).equalities.offset]!;
  let slip = 0;
  for (let k = 0; k < n; k++) slip = Math.max(slip, Math.abs(sol.u[3 * k + 1]!));
  return {
    count: n + 1,
    t: Float64Array.from({ length: n + 1 }, (_, k) => (k * sol.T) / n),
    series: [
      { name: 'x', width: 1, data: x },
      { name: 'y', width: 1, data: y },
      { name: 'theta', width: 1, data: theta },
      { name: 'xi', width: 3, data: stepsToStates(sol.u, n, 3) },
      { name: 'slipMultiplier', width: 1, data: stepsToStates(slipMultiplier, n, 1) },
      multiplierSeries(ocp, sol),
    ],
    ...lieOcpOutcome(sol, history, iterations),
    extra: { slipNorm: slip },
    ...feedbackOf(request, ocp, sol),
  };
}

function satelliteOcpOf(request: SolveRequest): LieOcp {
  const n = scalar(request, 'n');
  const T = scalar(request, 'T');
  if (!(T > 0)) throw new UsageError(`T must be > 0, got ${T}`, '--param T');
  const umax = scalar(request, 'umax');
  if (!(umax > 0)) throw new UsageError(`umax must be > 0, got ${umax}`, '--param umax');
  const J = (['J1', 'J2', 'J3'] as const).map((name) => {
    const v = scalar(request, name);
    if (!(v > 0)) throw new UsageError(`${name} must be > 0, got ${v}`, `--param ${name}`);
    return v;
  }) as [number, number, number];
  return satelliteOcp({
    n,
    T,
    umax,
    inertia: J,
    target: request.boundary.get('end')! as [number, number, number],
  });
}

function satellite(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput {
  const n = scalar(request, 'n');
  const T = scalar(request, 'T');
  const ocp = satelliteOcpOf(request);
  const target = request.boundary.get('end')!;
  const { sol, history, iterations } = solveBuiltin(ocp, request, progress, {
    defaultGuess: () => undefined,
    fromFile: (g) => {
      const R = guessField(g, 'R', n + 1, 9);
      const Pi = guessField(g, 'Pi', n + 1, 3);
      const X = new Float64Array((n + 1) * 12);
      for (let k = 0; k <= n; k++) {
        X.set(R.subarray(9 * k, 9 * k + 9), 12 * k);
        X.set(Pi.subarray(3 * k, 3 * k + 3), 12 * k + 9);
      }
      return { x: X, u: guessSteps(g, 'u', n, 3) };
    },
    // the rotation exp(s·target) at rest
    endAt: (t) =>
      Float64Array.of(
        ...SO3.exp(
          new Float64Array(9),
          Float64Array.from(target, (e) => t * e),
        ),
        0,
        0,
        0,
      ),
  });
  const R = new Float64Array((n + 1) * 9);
  const Pi = new Float64Array((n + 1) * 3);
  for (let k = 0; k <= n; k++) {
    R.set(sol.x.subarray(12 * k, 12 * k + 9), 9 * k);
    Pi.set(sol.x.subarray(12 * k + 9, 12 * k + 12), 3 * k);
  }
  return {
    count: n + 1,
    t: Float64Array.from({ length: n + 1 }, (_, k) => (k * T) / n),
    series: [
      { name: 'R', width: 9, data: R },
      { name: 'Pi', width: 3, data: Pi },
      { name: 'u', width: 3, data: stepsToStates(sol.u, n, 3) },
      multiplierSeries(ocp, sol),
    ],
    ...lieOcpOutcome(sol, history, iterations),
    ...feedbackOf(request, ocp, sol),
  };
}

function quadrotorFlight(request: SolveRequest, progress: (p: SolveProgress) => void): SolveOutput {
  const n = scalar(request, 'n');
  const positive = (name: string): number => {
    const v = scalar(request, name);
    if (!(v > 0)) throw new UsageError(`${name} must be > 0, got ${v}`, `--param ${name}`);
    return v;
  };
  const T = positive('T');
  const m = positive('m');
  const inertia = [positive('I1'), positive('I2'), positive('I3')] as const;
  const g = scalar(request, 'g');
  if (!(g >= 0)) throw new UsageError(`g must be ≥ 0, got ${g}`, '--param g');
  const fmax = scalar(request, 'fmax');
  if (!(fmax > m * g))
    throw new UsageError(
      `fmax must exceed the hover thrust m g = ${m * g}, got ${fmax}`,
      '--param fmax',
    );
  const taumax = positive('taumax');
  const pose = (name: string) => request.boundary.get(name)! as [number, number, number, number];
  const ocp = quadrotorOcp({
    n,
    T,
    mass: m,
    inertia,
    gravity: g,
    fmax,
    taumax,
    start: pose('start'),
    end: pose('end'),
  });
  const a = pose('start');
  const b = pose('end');
  const { sol, history, iterations } = solveBuiltin(ocp, request, progress, {
    defaultGuess: quadrotorGuess,
    fromFile: (g) => {
      const parts = [
        guessField(g, 'R', n + 1, 9),
        guessField(g, 'x', n + 1, 3),
        guessField(g, 'Pi', n + 1, 3),
        guessField(g, 'v', n + 1, 3),
      ];
      const X = new Float64Array((n + 1) * 18);
      for (let k = 0; k <= n; k++) {
        let off = 18 * k;
        for (const [i, w] of [9, 3, 3, 3].entries()) {
          X.set(parts[i]!.subarray(w * k, w * k + w), off);
          off += w;
        }
      }
      return { x: X, u: guessSteps(g, 'u', n, 4) };
    },
    // hover at the pose a + s(b − a)
    endAt: (t) => {
      const at = (i: number) => a[i]! + t * (b[i]! - a[i]!);
      return quadrotorHoverState([at(0), at(1), at(2), at(3)]);
    },
  });
  const R = new Float64Array((n + 1) * 9);
  const x = new Float64Array((n + 1) * 3);
  const Pi = new Float64Array((n + 1) * 3);
  const v = new Float64Array((n + 1) * 3);
  for (let k = 0; k <= n; k++) {
    R.set(sol.x.subarray(18 * k, 18 * k + 9), 9 * k);
    x.set(sol.x.subarray(18 * k + 9, 18 * k + 12), 3 * k);
    Pi.set(sol.x.subarray(18 * k + 12, 18 * k + 15), 3 * k);
    v.set(sol.x.subarray(18 * k + 15, 18 * k + 18), 3 * k);
  }
  return {
    count: n + 1,
    t: Float64Array.from({ length: n + 1 }, (_, k) => (k * T) / n),
    series: [
      { name: 'R', width: 9, data: R },
      { name: 'x', width: 3, data: x },
      { name: 'Pi', width: 3, data: Pi },
      { name: 'v', width: 3, data: v },
      { name: 'u', width: 4, data: stepsToStates(sol.u, n, 4) },
      multiplierSeries(ocp, sol),
    ],
    ...lieOcpOutcome(sol, history, iterations),
  };
}

export const optimalControlRunner: ProblemRunner = {
  solve(request, progress) {
    if (request.problem.name === 'plate-ball') return plateBall(request, progress);
    if (request.problem.name === 'so3-steering') return so3Steering(request, progress);
    if (request.problem.name === 'unicycle-parking') return unicycleParking(request, progress);
    if (request.problem.name === 'satellite') return satellite(request, progress);
    if (request.problem.name === 'quadrotor-flight') return quadrotorFlight(request, progress);
    throw new UsageError(`no solver for '${request.problem.name}'`, 'geomech solve');
  },
  ocp(request) {
    if (request.problem.name === 'unicycle-parking') return unicycleOcp(request);
    if (request.problem.name === 'satellite') return satelliteOcpOf(request);
    throw new UsageError(
      `${request.problem.name} has no LQR feedback (it is given for unicycle-parking, satellite and --model problems)`,
      '--feedback',
    );
  },
};
