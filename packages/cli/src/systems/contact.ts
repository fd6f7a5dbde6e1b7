/**
 * Runner of the contact systems (`free-particle`, `damped-oscillator`, `damped-pendulum`) of the
 * CLI contract, with the methods of seed 004: the paper's `midpoint` rule (79), the
 * `left-rectangle` rule, the second-order `implicit-z-midpoint` extension and the `exact` discrete
 * Lagrangian (closed forms for the free particle (corrected (78)) and the damped oscillator,
 * shooting for the pendulum).
 *
 * @module
 */
import {
  type ContactIntegrateOptions,
  ContactIntegrator,
  type ContactSolution,
  type DiscreteContactLagrangian,
  dampedOscillatorExactLd,
  freeParticleExactLd,
  implicitZMidpointLd,
  leftRectangleLd,
  type MechanicalContactLagrangian,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  numericExactLd,
  pendulumPotential,
  quadraticPotential,
  zeroPotential,
} from '@geomech/contact';
import { integrateDopri5, type Potential } from '@geomech/core';
import { UsageError } from '../errors.js';
import {
  requestScalar,
  runFailure,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';

const scalar = requestScalar;

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

function lagrangianOf(request: SimulateRequest): MechanicalContactLagrangian {
  const gamma = scalar(request.params, 'gamma', '--param');
  return mechanicalContactLagrangian(potentialOf(request), gamma);
}

/** The discrete Lagrangian of a method (the `midpoint` method runs on its own fast path). */
function discreteLagrangian(
  request: SimulateRequest,
  L: MechanicalContactLagrangian,
): DiscreteContactLagrangian {
  const { h } = request;
  switch (request.method) {
    case 'left-rectangle':
      return leftRectangleLd(L, h);
    case 'implicit-z-midpoint':
      return implicitZMidpointLd(L, h);
    case 'exact':
      if (request.system.name === 'free-particle') return freeParticleExactLd(L.gamma, h);
      if (request.system.name === 'damped-oscillator') {
        return dampedOscillatorExactLd(scalar(request.params, 'k', '--param'), L.gamma, h);
      }
      return numericExactLd(L, h);
    default:
      throw new UsageError(`unknown method '${request.method}'`, '--method');
  }
}

function initialData(request: SimulateRequest) {
  const q0 = [scalar(request.init, 'q0', '--init')];
  const z0 = scalar(request.init, 'z0', '--init');
  return request.init.has('v0')
    ? { q0, v0: [scalar(request.init, 'v0', '--init')], z0 }
    : { q0, q1: [scalar(request.init, 'q1', '--init')], z0 };
}

/** Newton options of the contact integrators from `--tol` and `--max-iter`. */
export function contactNewtonOptions(request: SimulateRequest): {
  tol?: number;
  maxIterations?: number;
} {
  return {
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  };
}

/** The `integrate` options of a request: `--every` and the progress bar. */
export function contactRunOptions(request: SimulateRequest): ContactIntegrateOptions {
  return {
    every: request.every,
    // a failed step ends the run with the states before it (written with "ok": false)
    onFailure: 'return',
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  };
}

/**
 * A contact trajectory as the CLI's output: the series q, p, z, energy (H∘F⁻L_d) and sigma of the
 * library's one `Solution`, its Newton statistics and warnings.
 */
export function contactOutput(sol: ContactSolution): SimulationOutput {
  const n = sol.width('q');
  return {
    count: sol.count,
    t: sol.t,
    series: [
      { name: 'q', width: n, data: sol.q },
      { name: 'p', width: n, data: sol.p },
      { name: 'z', width: 1, data: sol.z },
      { name: 'energy', width: 1, data: sol.energy },
      { name: 'sigma', width: 1, data: sol.sigma },
    ],
    stats: { newtonIterations: sol.stats.newtonIterations, maxResidual: sol.stats.maxResidual },
    warnings: sol.warnings,
    ...runFailure(sol),
  };
}

export const contactRunner: SystemRunner = {
  orderFields: ['q', 'p', 'z'],
  orderInit: ['v0'],

  simulate(request: SimulateRequest): SimulationOutput {
    const L = lagrangianOf(request);
    const options = contactNewtonOptions(request);
    const integrator =
      request.method === 'midpoint'
        ? new MidpointHerglotz(L, request.h, options)
        : new ContactIntegrator(discreteLagrangian(request, L), { ...options, lagrangian: L });
    return contactOutput(
      integrator.integrate(initialData(request), request.steps, contactRunOptions(request)),
    );
  },

  /**
   * The Herglotz flow (spec 004 §4.2): q̈ = −∇V(q) + γq̇, ż = ½q̇² − V(q) + γz, p = q̇, from
   * (q0, v0, z0), integrated by DOPRI5 at rtol 1e-13 to t = steps·h; returns [q, p, z].
   */
  reference(request: SimulateRequest): Float64Array {
    const L = lagrangianOf(request);
    const V = L.potential;
    const gamma = L.gamma;
    const init = initialData(request);
    if (!('v0' in init))
      throw new UsageError('the reference solution starts from (q0, v0, z0)', '--init');
    const q = new Float64Array(1);
    const g = new Float64Array(1);
    const sol = integrateDopri5(
      (out, _t, y) => {
        q[0] = y[0]!;
        V.gradV(g, q);
        out[0] = y[1]!;
        out[1] = -g[0]! + gamma * y[1]!;
        out[2] = 0.5 * y[1]! * y[1]! - V.V(q) + gamma * y[2]!;
      },
      [init.q0[0]!, init.v0[0]!, init.z0],
      0,
      request.steps * request.h,
      { rtol: 1e-13, atol: 1e-15, maxSteps: 10_000_000 },
    );
    const last = sol.sample('y', sol.count - 1);
    return Float64Array.of(last[0]!, last[1]!, last[2]!);
  },
};
