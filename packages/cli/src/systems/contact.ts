/**
 * Runner of the contact systems (`free-particle`, `damped-oscillator`, `damped-pendulum`),
 * as defined in the CLI contract.
 *
 * @module
 */
import {
  MidpointHerglotz,
  mechanicalContactLagrangian,
  type Potential,
  pendulumPotential,
  quadraticPotential,
  zeroPotential,
} from '@geomech/contact';
import { UsageError } from '../errors.js';
import type { SimulateRequest, SimulationOutput, SystemRunner } from '../runner.js';

function scalar(map: ReadonlyMap<string, readonly number[]>, name: string, flag: string): number {
  const v = map.get(name);
  if (v === undefined) throw new UsageError(`missing ${name}`, flag);
  if (v.length !== 1)
    throw new UsageError(`${name} takes one number, got ${v.length}`, `${flag} ${name}`);
  return v[0]!;
}

function potentialOf(request: SimulateRequest): Potential {
  const p = (name: string) => scalar(request.params, name, '--param');
  switch (request.system.name) {
    case 'free-particle':
      return zeroPotential(1);
    case 'damped-oscillator':
      return quadraticPotential(p('k'), 1);
    case 'damped-pendulum':
      if (!(p('l') > 0)) throw new UsageError('l must be > 0', '--param l');
      return pendulumPotential(p('g'), p('l'));
    default:
      throw new UsageError(`not a contact system: ${request.system.name}`);
  }
}

export const contactRunner: SystemRunner = {
  simulate(request: SimulateRequest): SimulationOutput {
    const gamma = scalar(request.params, 'gamma', '--param');
    const lagrangian = mechanicalContactLagrangian(potentialOf(request), gamma);
    if (!(1 + request.h * gamma > 0)) {
      throw new UsageError(`1 + h*gamma = ${1 + request.h * gamma} must be > 0; reduce h`, '--h');
    }
    const options = {
      ...(request.tol === undefined ? {} : { tol: request.tol }),
      ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
    };
    const integrator = new MidpointHerglotz(lagrangian, request.h, options);
    const q0 = [scalar(request.init, 'q0', '--init')];
    const z0 = scalar(request.init, 'z0', '--init');
    const init = request.init.has('v0')
      ? { q0, v0: [scalar(request.init, 'v0', '--init')], z0 }
      : { q0, q1: [scalar(request.init, 'q1', '--init')], z0 };
    const sol = integrator.integrate(init, request.steps, request.every);
    const trim = (a: Float64Array) => a.subarray(0, sol.count);
    return {
      count: sol.count,
      t: trim(sol.t),
      series: [
        { name: 'q', width: 1, data: trim(sol.q) },
        { name: 'p', width: 1, data: trim(sol.p) },
        { name: 'z', width: 1, data: trim(sol.z) },
        { name: 'energy', width: 1, data: trim(sol.energy) },
        { name: 'sigma', width: 1, data: trim(sol.sigma) },
      ],
      stats: sol.stats,
    };
  },
};
