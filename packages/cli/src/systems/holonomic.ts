/**
 * Runner of the holonomically constrained systems of the CLI contract (`pendulum`, `ziegler`;
 * spec 001 §4 and §7.2) with the Dirac integrators `dirac-1`, `dirac-2`, `dirac-2c` (spec 001 §5)
 * and the classical comparators `euler`, `trapezium`, `ab3`, `rk4` (on the index-reduced ODE,
 * spec 001 §6) and `rattle`.
 *
 * `geomech order` compares the final positions q only (`orderFields: ['q']`): the recorded p and λ
 * mean different things per method (Dirac p_k = M q̃ is a one-sided difference quotient, the
 * comparators' λ is the index-reduced formula), whereas q_N is the same quantity for every method.
 * The reference is DOPRI5 (rtol 1e-12) on the index-reduced ODE from the same (q0, v0).
 *
 * @module
 */
import { type Force, integrateDopri5, type Solution } from '@geomech/core';
import {
  type ComparatorMethodName,
  type ConstrainedMechanicalSystem,
  comparatorMethods,
  type DiracMethodName,
  diracMethods,
  indexReducedRhs,
  integrateConstrained,
  integrateDirac,
  pendulum,
  pendulumInitial,
  type ZieglerSystem,
  zieglerColumn,
} from '@geomech/dirac';
import { UsageError } from '../errors.js';
import {
  requestScalar,
  runFailure,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';

/** The library's method names are the CLI's (`dirac-2c`, `rattle`, …). */
const isDiracMethod = (name: string): name is DiracMethodName => Object.hasOwn(diracMethods, name);
const isComparatorMethod = (name: string): name is ComparatorMethodName =>
  Object.hasOwn(comparatorMethods, name);

/** The default tilt of the Ziegler column: 0.1 for the first link, 0 for every other one. */
const ZIEGLER_DEFAULT_THETA = [0.1, 0] as const;

const scalar = requestScalar;

/** A system of the request with its initial data (q0, v0) on the constraint manifold. */
interface Problem {
  readonly sys: ConstrainedMechanicalSystem;
  readonly q0: Float64Array;
  readonly v0: Float64Array;
  /** Set for the Ziegler column (the `angles` series). */
  readonly ziegler?: ZieglerSystem;
  /** An external force (the Ziegler column's joint damping), when there is one. */
  readonly force?: Force;
}

function pendulumProblem(request: SimulateRequest): Problem {
  const p = (name: string) => scalar(request.params, name, '--param');
  const m = p('m');
  const g = p('g');
  const l = p('l');
  if (!(m > 0)) throw new UsageError(`m must be > 0, got ${m}`, '--param m');
  if (!(g >= 0)) throw new UsageError(`g must be >= 0, got ${g}`, '--param g');
  if (!(l > 0)) throw new UsageError(`l must be > 0, got ${l}`, '--param l');
  const sys = pendulum({ m, g, l });
  const { q0, v0 } = pendulumInitial(
    scalar(request.init, 'theta0', '--init'),
    scalar(request.init, 'omega0', '--init'),
    l,
  );
  return { sys, q0, v0 };
}

/**
 * Link angles of the request: a list of length n; the untouched default (0.1, 0) stands for
 * "0.1 for the first link, 0 for the rest" at any n.
 */
function zieglerTheta(request: SimulateRequest, n: number): number[] {
  const theta = request.init.get('theta') ?? ZIEGLER_DEFAULT_THETA;
  if (theta.length === n) return [...theta];
  const isDefault =
    theta.length === ZIEGLER_DEFAULT_THETA.length &&
    theta.every((x, i) => x === ZIEGLER_DEFAULT_THETA[i]);
  if (isDefault)
    return Array.from({ length: n }, (_, i) => (i === 0 ? ZIEGLER_DEFAULT_THETA[0] : 0));
  throw new UsageError(
    `theta needs one angle per link (n = ${n}), got ${theta.length}`,
    '--init theta',
  );
}

function zieglerProblem(request: SimulateRequest): Problem {
  const p = (name: string) => scalar(request.params, name, '--param');
  const n = p('n');
  if (!(Number.isInteger(n) && n >= 1))
    throw new UsageError(`n (links) must be a positive integer, got ${n}`, '--param n');
  const m = p('m');
  const k = p('k');
  const P = p('P');
  const l = p('l');
  // absent from requests built before the parameter existed: undamped
  const damping = request.params.has('damping') ? p('damping') : 0;
  if (!(m > 0)) throw new UsageError(`m must be > 0, got ${m}`, '--param m');
  if (!(k >= 0)) throw new UsageError(`k must be >= 0, got ${k}`, '--param k');
  if (!(P >= 0)) throw new UsageError(`P must be >= 0, got ${P}`, '--param P');
  if (!(l > 0)) throw new UsageError(`l must be > 0, got ${l}`, '--param l');
  if (!(damping >= 0 && Number.isFinite(damping)))
    throw new UsageError(`damping must be finite and >= 0, got ${damping}`, '--param damping');
  const sys = zieglerColumn({ n, m, k, P, l, damping });
  const theta = zieglerTheta(request, n);
  const omegaGiven = request.init.get('omega') ?? [0];
  if (omegaGiven.length !== 1 && omegaGiven.length !== n) {
    throw new UsageError(
      `omega takes one number (for every link) or ${n}, got ${omegaGiven.length}`,
      '--init omega',
    );
  }
  const omega = omegaGiven.length === 1 ? new Array<number>(n).fill(omegaGiven[0]!) : omegaGiven;
  const q0 = sys.fromAngles(theta);
  // e_i = l (sin θ_i, cos θ_i) ⇒ ė_i = l ω_i (cos θ_i, −sin θ_i); v_i = Σ_{j≤i} ė_j.
  const v0 = new Float64Array(2 * n);
  let vx = 0;
  let vy = 0;
  for (let i = 0; i < n; i++) {
    vx += l * omega[i]! * Math.cos(theta[i]!);
    vy -= l * omega[i]! * Math.sin(theta[i]!);
    v0[2 * i] = vx;
    v0[2 * i + 1] = vy;
  }
  return { sys, q0, v0, ziegler: sys, ...(sys.force === undefined ? {} : { force: sys.force }) };
}

function problemOf(request: SimulateRequest): Problem {
  switch (request.system.name) {
    case 'pendulum':
      return pendulumProblem(request);
    case 'ziegler':
      return zieglerProblem(request);
    default:
      throw new UsageError(`not a holonomic system: ${request.system.name}`);
  }
}

export const holonomicRunner: SystemRunner = {
  orderFields: ['q'],

  simulate(request: SimulateRequest): SimulationOutput {
    const { sys, q0, v0, ziegler, force } = problemOf(request);
    const { n } = sys;
    const base = integrateHolonomic(sys, q0, v0, request, force);
    const out = { count: base.count, q: base.series[0]!.data };
    const series = [...base.series];
    if (ziegler) {
      const angles = new Float64Array(out.count * ziegler.links);
      for (let i = 0; i < out.count; i++) {
        ziegler.angles(
          out.q.subarray(i * n, (i + 1) * n),
          angles.subarray(i * ziegler.links, (i + 1) * ziegler.links),
        );
      }
      series.push({ name: 'angles', width: ziegler.links, data: angles });
    }
    return { ...base, series };
  },

  /**
   * The index-reduced ODE q̇ = v, M v̇ = −∇V(q) + C(q)ᵀλ(q, v) (spec 001 §6) from the request's
   * (q0, v0), integrated by DOPRI5 at rtol 1e-12 to t = steps·h; returns q(t).
   */
  reference(request: SimulateRequest): Float64Array {
    const { sys, q0, v0, force } = problemOf(request);
    return holonomicReference(sys, q0, v0, request, force);
  },
};

/**
 * Runs `request.method` (a Dirac integrator or a comparator) on `sys` from (q0, v0) and returns the
 * contract's series q, p, lambda, energy, constraint (shared by the built-ins and holonomic models).
 * An external `force` enters the Dirac methods and RATTLE as discrete Lagrange–d'Alembert forces
 * (midpoint quadrature, the control sequence `inputs` as u_k) and the index-reduced comparators'
 * ODE as F (at u = 0: they take no inputs).
 */
export function integrateHolonomic(
  sys: ConstrainedMechanicalSystem,
  q0: ArrayLike<number>,
  v0: ArrayLike<number>,
  request: SimulateRequest,
  force?: Force,
  inputs?: Float64Array,
): SimulationOutput {
  const { h, steps, every } = request;
  const method = request.method;
  const onProgress = request.onProgress ? { onProgress: request.onProgress } : {};
  const forced = {
    ...(force === undefined ? {} : { force }),
    ...(inputs === undefined ? {} : { inputs }),
  };
  if (isDiracMethod(method)) {
    // explicit: one linear solve per step (a few Newton steps on the discrete force when forced)
    const sol = integrateDirac(sys, method, { q0, v0 }, h, steps, {
      every,
      onFailure: 'return',
      ...onProgress,
      ...forced,
    });
    return output(sol, sol.stats.maxResidual);
  }
  if (!isComparatorMethod(method)) throw new UsageError(`unknown method '${method}'`, '--method');
  const sol = integrateConstrained(sys, method, { q0, v0 }, h, steps, {
    every,
    onFailure: 'return',
    ...onProgress,
    ...forced,
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  });
  // RATTLE's Newton residual is φ(q_{k+1}) itself: report its maximum over the kept states
  let maxResidual = 0;
  if (method === 'rattle')
    for (const c of sol.constraint) maxResidual = Math.max(maxResidual, Math.abs(c));
  return output(sol, maxResidual);
}

/** The contract's series q, p, lambda, energy, constraint of a holonomic solution. */
function output<F extends string>(
  sol: Solution<F | 'q' | 'p' | 'lambda' | 'energy' | 'constraint'>,
  maxResidual: number,
): SimulationOutput {
  const names = ['q', 'p', 'lambda', 'energy', 'constraint'] as const;
  return {
    count: sol.count,
    t: sol.t,
    series: names.map((name) => ({ name, width: sol.width(name), data: sol.get(name) })),
    stats: { newtonIterations: sol.stats.newtonIterations, maxResidual },
    ...runFailure(sol),
  };
}

/**
 * The index-reduced ODE q̇ = v, M v̇ = −∇V(q) + F + C(q)ᵀλ(q, v) (spec 001 §6; F the optional
 * external force) from (q0, v0), integrated by DOPRI5 at rtol 1e-12 to t = steps·h; returns q(t)
 * (the `geomech order` reference).
 */
export function holonomicReference(
  sys: ConstrainedMechanicalSystem,
  q0: ArrayLike<number>,
  v0: ArrayLike<number>,
  request: SimulateRequest,
  force?: Force,
): Float64Array {
  const { n } = sys;
  const y0 = new Float64Array(2 * n);
  y0.set(q0, 0);
  y0.set(v0, n);
  const sol = integrateDopri5(indexReducedRhs(sys, force), y0, 0, request.steps * request.h, {
    rtol: 1e-12,
    atol: 1e-14,
    maxSteps: 10_000_000,
    dense: false,
  });
  return Float64Array.from(sol.sample('y', sol.count - 1).subarray(0, n));
}
