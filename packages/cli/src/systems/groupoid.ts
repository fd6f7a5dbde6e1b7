/**
 * Runner of the `@geomech/groupoid` systems of the CLI contract: `plate-ball` (spec 003 §8.2, S5;
 * method `lagrange-multiplier`: one 8×8 Newton solve per step for (x, y, g, λ)) and `rigid-body`
 * (spec 003 §8.1, S3; discrete Lie–Poisson with τ = Cayley or exp). Both run through core's
 * `integrate`, so the first state is the initial node at t = 0 and the last is at t = steps·h.
 *
 * Plate-ball states are the nodes k = 0, …, steps: the contact point (x_k, y_k), the
 * reconstructed orientation G_k (G_0 = I, row-major), the multipliers λ_{k+1} of the element
 * leaving the node (λ₃'s sign derived from constraint (8) as printed), the Casimir |Π⁻| and the
 * Noether charge F_X = −yP_x + xP_y − Π_3 of the node's momentum; t = k·h. Rigid-body states are
 * the nodes G_k with the body velocity ξ_{k+1} of the step leaving them (ξ_1 = `xi0`).
 *
 * @module
 */
import { simulatePlateBall, simulateRigidBody } from '@geomech/groupoid';
import { UsageError } from '../errors.js';
import {
  requestPositive,
  requestScalar,
  requestVector,
  runFailure,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';

function plateBall(request: SimulateRequest): SimulationOutput {
  const init = (name: string) => requestScalar(request.init, name, '--init');
  const sol = simulatePlateBall({
    h: request.h,
    r: requestPositive(request, 'r'),
    Omega: requestScalar(request.params, 'Omega', '--param'),
    c: requestScalar(request.params, 'c', '--param'),
    x0: init('x0'),
    y0: init('y0'),
    x1: init('x1'),
    y1: init('y1'),
    lambda1: requestVector(request.init, 'lambda1', '--init', 3),
    steps: request.steps,
    every: request.every,
    onFailure: 'return',
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  });
  return {
    count: sol.count,
    t: sol.t,
    series: [
      { name: 'x', width: 1, data: sol.x },
      { name: 'y', width: 1, data: sol.y },
      { name: 'R', width: 9, data: sol.R },
      { name: 'lambda', width: 3, data: sol.lambda },
      { name: 'casimir', width: 1, data: sol.casimir },
      { name: 'noether', width: 1, data: sol.noether },
    ],
    stats: sol.stats,
    ...runFailure(sol),
  };
}

const RIGID_BODY_MAPS: Readonly<Record<string, 'cayley' | 'exp'>> = {
  cayley: 'cayley',
  exp: 'exp',
};

function rigidBody(request: SimulateRequest): SimulationOutput {
  const map = RIGID_BODY_MAPS[request.method];
  if (map === undefined) throw new UsageError(`unknown method '${request.method}'`, '--method');
  const sol = simulateRigidBody({
    inertia: [
      requestPositive(request, 'I1'),
      requestPositive(request, 'I2'),
      requestPositive(request, 'I3'),
    ],
    xi0: requestVector(request.init, 'xi0', '--init', 3),
    h: request.h,
    steps: request.steps,
    map,
    every: request.every,
    onFailure: 'return',
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  });
  return {
    count: sol.count,
    t: sol.t,
    series: [
      { name: 'R', width: 9, data: sol.R },
      { name: 'xi', width: 3, data: sol.xi },
      { name: 'pi', width: 3, data: sol.pi },
      { name: 'casimir', width: 1, data: sol.casimir },
      { name: 'spatialMomentum', width: 3, data: sol.spatialMomentum },
      { name: 'energy', width: 1, data: sol.energy },
    ],
    stats: sol.stats,
    ...runFailure(sol),
  };
}

export const groupoidRunner: SystemRunner = {
  simulate(request) {
    if (request.system.name === 'plate-ball') return plateBall(request);
    if (request.system.name === 'rigid-body') return rigidBody(request);
    throw new UsageError(`no groupoid runner for '${request.system.name}'`, 'geomech simulate');
  },
};
