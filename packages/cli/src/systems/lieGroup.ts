/**
 * Runner of the Lie-group variational systems of `@geomech/groupoid` (`lgvi.ts`, `unicycle.ts`):
 * `heavy-top` (the SO(3) LGVI of Lee–Leok–McClamroch with U = m g l e₃·Re₃), `quadrotor` (the LGVI
 * on SO(3) × R³ with a constant thrust `throttle`·m g along Re₃ and a constant body torque) and
 * `unicycle` (the reduced nonholonomic unicycle on SE(2) with a constant force and torque). All run
 * through core's `integrate`; the first state is the initial one at t = 0, the last at t = steps·h.
 *
 * @module
 */

import { integrate, type Solution } from '@geomech/core';
import {
  GravityPotential,
  QuadrotorLgviStepper,
  So3LgviStepper,
  UnicycleStepper,
} from '@geomech/groupoid';
import { UsageError } from '../errors.js';
import {
  requestPositive,
  requestScalar,
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';

function nonNegative(request: SimulateRequest, name: string): number {
  const x = requestScalar(request.params, name, '--param');
  if (!(x >= 0)) throw new UsageError(`${name} must be >= 0, got ${x}`, `--param ${name}`);
  return x;
}

function newton(request: SimulateRequest): { tol?: number; maxIterations?: number } {
  return {
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  };
}

function output<F extends string>(sol: Solution<F>, fields: readonly F[]): SimulationOutput {
  return {
    count: sol.count,
    t: sol.t,
    series: fields.map((name) => {
      const s = sol.series.find((x) => x.name === name)!;
      return { name, width: s.width, data: s.data };
    }),
    stats: sol.stats,
  };
}

function run<F extends string>(
  request: SimulateRequest,
  stepper: Parameters<typeof integrate<F>>[0],
  x0: Float64Array,
  inputs: ((u: Float64Array) => void) | undefined,
  fields: readonly F[],
): SimulationOutput {
  const sol = integrate(stepper, x0, {
    h: request.h,
    steps: request.steps,
    every: request.every,
    ...(inputs === undefined ? {} : { inputs }),
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  return output(sol, fields);
}

function inertia(request: SimulateRequest): number[] {
  return [
    requestPositive(request, 'I1'),
    requestPositive(request, 'I2'),
    requestPositive(request, 'I3'),
  ];
}

function heavyTop(request: SimulateRequest): SimulationOutput {
  const potential = new GravityPotential(requestPositive(request, 'm'), nonNegative(request, 'g'), [
    0,
    0,
    requestScalar(request.params, 'l', '--param'),
  ]);
  const s = new So3LgviStepper({
    inertia: inertia(request),
    h: request.h,
    potential,
    ...newton(request),
  });
  const x0 = s.initialState(
    requestVector(request.init, 'rotation', '--init', 3),
    requestVector(request.init, 'omega', '--init', 3),
  );
  return run(request, s, x0, undefined, [
    'R',
    'pi',
    'omega',
    'energy',
    'spatialMomentum',
    'orthogonality',
  ]);
}

function quadrotor(request: SimulateRequest): SimulationOutput {
  const s = new QuadrotorLgviStepper({
    mass: requestPositive(request, 'm'),
    inertia: inertia(request),
    gravity: nonNegative(request, 'g'),
    h: request.h,
    ...newton(request),
  });
  const thrust = requestScalar(request.params, 'throttle', '--param') * s.hoverThrust;
  const tau = requestVector(request.params, 'torque', '--param', 3);
  const x0 = s.initialState(
    requestVector(request.init, 'rotation', '--init', 3),
    requestVector(request.init, 'position', '--init', 3),
    requestVector(request.init, 'omega', '--init', 3),
    requestVector(request.init, 'velocity', '--init', 3),
  );
  const inputs = (u: Float64Array) => {
    u[0] = thrust;
    u[1] = tau[0]!;
    u[2] = tau[1]!;
    u[3] = tau[2]!;
  };
  return run(request, s, x0, inputs, [
    'R',
    'x',
    'v',
    'pi',
    'omega',
    'energy',
    'spatialMomentum',
    'linearMomentum',
    'orthogonality',
  ]);
}

function unicycle(request: SimulateRequest): SimulationOutput {
  const s = new UnicycleStepper({
    mass: requestPositive(request, 'm'),
    inertia: requestPositive(request, 'I'),
    h: request.h,
  });
  const force = requestScalar(request.params, 'force', '--param');
  const torque = requestScalar(request.params, 'torque', '--param');
  const x0 = s.initialState(
    requestVector(request.init, 'position', '--init', 2),
    requestScalar(request.init, 'heading', '--init'),
    requestScalar(request.init, 'v', '--init'),
    requestScalar(request.init, 'omega', '--init'),
  );
  const inputs = (u: Float64Array) => {
    u[0] = force;
    u[1] = torque;
  };
  return run(request, s, x0, inputs, ['X', 'position', 'heading', 'v', 'omega', 'energy']);
}

export const lieGroupRunner: SystemRunner = {
  simulate(request) {
    if (request.h <= 0) throw new UsageError(`h must be > 0, got ${request.h}`, '--h');
    if (request.system.name === 'heavy-top') return heavyTop(request);
    if (request.system.name === 'quadrotor') return quadrotor(request);
    if (request.system.name === 'unicycle') return unicycle(request);
    throw new UsageError(`no Lie-group runner for '${request.system.name}'`, 'geomech simulate');
  },
};
