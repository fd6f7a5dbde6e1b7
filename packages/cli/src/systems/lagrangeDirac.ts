/**
 * Runner of the (±)-discrete Lagrange–Dirac systems of the CLI contract (`rolling-disk`,
 * `heisenberg`, `lc-circuit`; spec 000 §8, §9) with the methods `dirac-plus` (left-rectangle L_d)
 * and `dirac-minus` (right-rectangle L_d), through {@link integrateLagrangeDirac}.
 *
 * Series: `q`, the LdAP momentum `p` (spec 000 (53)/(54)), the multipliers `lambda` (m per state),
 * the discrete generalized energy E^±_d and `constraint`, the velocity-level discrete residual
 * ‖W(c)(q_{k+1} − q_k)/h‖∞ of step k → k+1 (one number per state; c = q_k (+), q_{k+1} (−)).
 *
 * `lc-circuit-4` is degenerate with a hidden (secondary) constraint q_C1/C1 = q_C3/C3 (spec 002
 * §4.2): with the KCL one-forms alone the bordered step matrix [[D₂D₁L_d, hWᵀ], [W/h, 0]] is
 * singular for every h (ker D₂D₁L_d ∩ ker W ∋ the constraint's direction). The runner therefore
 * uses the library's `withSecondaryConstraints`, which appends the position constraints found by
 * the constraint algorithm to the one-forms and makes every step regular.
 *
 * @module
 */
import {
  type Distribution,
  heisenbergSystem,
  ImplicitLagrangianSystem,
  integrateLagrangeDirac,
  type LagrangeDiracMethodName,
  type LagrangeDiracSolution,
  type Lagrangian,
  lagrangeDiracMethods,
  lcCircuit4,
  simpleLC,
  verticalRollingDisk,
  withSecondaryConstraints,
} from '@geomech/dirac';
import { UsageError } from '../errors.js';
import {
  requestScalar,
  requestVector,
  runFailure,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';

/** The library's method names are the CLI's (it picks the left/right rule from the sign). */
const isMethod = (name: string): name is LagrangeDiracMethodName =>
  Object.hasOwn(lagrangeDiracMethods, name);

const vector = requestVector;
const scalar = requestScalar;

function positive(request: SimulateRequest, name: string): number {
  const x = scalar(request.params, name, '--param');
  if (!(x > 0)) throw new UsageError(`${name} must be > 0, got ${x}`, `--param ${name}`);
  return x;
}

/** A system of the request with its initial data (q0, v0), v0 ∈ Δ(q0). */
interface Problem {
  readonly L: Lagrangian;
  readonly Delta: Distribution;
  readonly q0: readonly number[];
  readonly v0: readonly number[];
}

function rollingDiskProblem(request: SimulateRequest): Problem {
  const m = positive(request, 'm');
  const R = positive(request, 'R');
  const I = positive(request, 'I');
  const J = positive(request, 'J');
  const a = scalar(request.params, 'a', '--param');
  const b = scalar(request.params, 'b', '--param');
  const c = scalar(request.params, 'c', '--param');
  const disk = verticalRollingDisk({ m, R, I, J, a, b, c });
  const i = (name: string) => scalar(request.init, name, '--init');
  const phi = i('phi');
  const thetaDot = i('thetaDot');
  // rolling without slipping: ẋ = R cos φ θ̇, ẏ = R sin φ θ̇
  return {
    L: disk.lagrangian,
    Delta: disk.distribution,
    q0: [i('x'), i('y'), i('theta'), phi],
    v0: [R * Math.cos(phi) * thetaDot, R * Math.sin(phi) * thetaDot, thetaDot, i('phiDot')],
  };
}

function heisenbergProblem(request: SimulateRequest): Problem {
  const { lagrangian, distribution } = heisenbergSystem();
  const q0 = vector(request.init, 'q0', '--init', 3);
  const [xd, yd] = vector(request.init, 'v0', '--init', 2) as [number, number];
  // ż = yẋ − xẏ (one-form dz − y dx + x dy)
  return {
    L: lagrangian,
    Delta: distribution,
    q0,
    v0: [xd, yd, q0[1]! * xd - q0[0]! * yd],
  };
}

function lcCircuitProblem(request: SimulateRequest): Problem {
  const lc = simpleLC({ L: positive(request, 'L'), C: positive(request, 'C') });
  const qC = scalar(request.init, 'qC', '--init');
  const fL = scalar(request.init, 'fL', '--init');
  // q = (q_L, q_C) with q_L(0) = 0; KCL f_C = f_L
  return { L: lc.lagrangian, Delta: lc.distribution, q0: [0, qC], v0: [fL, fL] };
}

/**
 * The 4-port circuit with its secondary constraints appended by the library's
 * {@link withSecondaryConstraints} (the constraint algorithm's q_C1/C1 = q_C3/C3). The initial
 * data are made consistent by the example (q_C3 from q_C1).
 */
function lcCircuit4Problem(request: SimulateRequest): Problem {
  const circuit = lcCircuit4({
    L: positive(request, 'L'),
    C1: positive(request, 'C1'),
    C2: positive(request, 'C2'),
    C3: positive(request, 'C3'),
  });
  const Delta = withSecondaryConstraints(
    new ImplicitLagrangianSystem(circuit.lagrangian, circuit.distribution),
  );
  const state = circuit.consistentInitialData(
    scalar(request.init, 'qC1', '--init'),
    scalar(request.init, 'qC2', '--init'),
    scalar(request.init, 'fL', '--init'),
  );
  return { L: circuit.lagrangian, Delta, q0: Array.from(state.q), v0: Array.from(state.v) };
}

function problemOf(request: SimulateRequest): Problem {
  switch (request.system.name) {
    case 'rolling-disk':
      return rollingDiskProblem(request);
    case 'heisenberg':
      return heisenbergProblem(request);
    case 'lc-circuit':
      return lcCircuitProblem(request);
    case 'lc-circuit-4':
      return lcCircuit4Problem(request);
    default:
      throw new UsageError(`not a Lagrange–Dirac system: ${request.system.name}`);
  }
}

export const lagrangeDiracRunner: SystemRunner = {
  simulate(request: SimulateRequest): SimulationOutput {
    const method = request.method;
    if (!isMethod(method)) throw new UsageError(`unknown method '${method}'`, '--method');
    const { L, Delta, q0, v0 } = problemOf(request);
    const { h, steps, every } = request;
    // the library keeps k = 0, every, 2·every, … and the last state, as the contract asks
    const sol = integrateLagrangeDirac(L, Delta, method, { q0, v0 }, h, steps, {
      every,
      onFailure: 'return',
      ...(request.tol === undefined ? {} : { tol: request.tol }),
      ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    });
    return lagrangeDiracOutput(sol);
  },
};

/**
 * The contract's output of a (±) Lagrange–Dirac solution: the series q, p, lambda, energy,
 * constraint and the Newton statistics (shared by the built-ins and Lagrange–Dirac models).
 */
export function lagrangeDiracOutput(sol: LagrangeDiracSolution): SimulationOutput {
  const names = ['q', 'p', 'lambda', 'energy', 'constraint'] as const;
  return {
    count: sol.count,
    t: sol.t,
    series: names.map((name) => ({ name, width: sol.width(name), data: sol[name] })),
    stats: { newtonIterations: sol.stats.newtonIterations, maxResidual: sol.stats.maxResidual },
    ...(sol.warnings.length === 0 ? {} : { warnings: [...sol.warnings] }),
    ...runFailure(sol),
  };
}
