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
import type { OcpSolverOptions } from '@geomech/core';
import {
  axisAngleToRotation,
  type LieOcp,
  type LieOcpSolution,
  lqrGains,
  type PlateBallTrajectory,
  poseFromSe2,
  type So3SteeringGuess,
  satelliteOcp,
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
function guessField(
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

/**
 * Solves a problem of groupoid's optimal-control layer from its default guess (at rest) with the
 * request's tolerance and iteration cap, recording max(primal, dual infeasibility) per iteration
 * (iteration 0 included) and reporting progress. Used by the built-ins posed with `defineOcp` and
 * by model files.
 */
export function solveLieOcp(
  ocp: LieOcp,
  request: Pick<SolveRequest, 'tol' | 'maxIterations'>,
  progress: (p: SolveProgress) => void,
): { sol: LieOcpSolution; history: number[] } {
  const history: number[] = [];
  const solver: OcpSolverOptions = {
    tol: request.tol,
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
    onIteration: (info) => {
      const r = Math.max(info.infPr, info.infDu);
      history.push(r);
      progress({ stage: 'interior-point', iteration: info.iteration, residualNorm: r });
      return true;
    },
  };
  return { sol: ocp.solve({ solver }), history };
}

/** The common output fields of a {@link LieOcpSolution}. */
export function lieOcpOutcome(sol: LieOcpSolution, history: readonly number[]) {
  return outcome(
    {
      status: sol.status,
      secondOrder: sol.secondOrder,
      success: sol.success,
      converged: sol.status === 'converged' || sol.status === 'acceptable',
      iterations: sol.iterations,
      residualNorm: sol.kktError,
      cost: sol.cost,
      history,
    },
    '',
  );
}

/** Rejects the flags a problem without warm start or continuation does not take. */
function noWarmStart(request: SolveRequest): void {
  if (request.guess !== undefined)
    throw new UsageError(`${request.problem.name} takes no --guess`, '--guess');
  if (request.continuation > 0)
    throw new UsageError(`${request.problem.name} takes no --continuation`, '--continuation');
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
  noWarmStart(request);
  const n = scalar(request, 'n');
  const ocp = unicycleOcp(request);
  const { sol, history } = solveLieOcp(ocp, request, progress);
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
    ],
    ...lieOcpOutcome(sol, history),
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
  noWarmStart(request);
  const n = scalar(request, 'n');
  const T = scalar(request, 'T');
  const ocp = satelliteOcpOf(request);
  const { sol, history } = solveLieOcp(ocp, request, progress);
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
    ],
    ...lieOcpOutcome(sol, history),
    ...feedbackOf(request, ocp, sol),
  };
}

export const optimalControlRunner: ProblemRunner = {
  solve(request, progress) {
    if (request.problem.name === 'plate-ball') return plateBall(request, progress);
    if (request.problem.name === 'so3-steering') return so3Steering(request, progress);
    if (request.problem.name === 'unicycle-parking') return unicycleParking(request, progress);
    if (request.problem.name === 'satellite') return satellite(request, progress);
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
