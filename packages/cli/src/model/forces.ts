/**
 * The `forces` entry of contact and Lagrange–Dirac model files: an external (control) force
 * F(t, q, q̇, u) with one expression per coordinate, in the time t, the coordinates, their
 * velocities, the control inputs named by `inputs` and the parameters. F and its Jacobians
 * ∂F/∂q, ∂F/∂q̇, ∂F/∂u come from core's `SymGraph` (one sparse Jacobian on the model's graph),
 * compiled once per model into core's `Force` (the vocabulary every integrator takes), which the
 * integrators discretize as the discrete Lagrange–d'Alembert forces f_d^± of Marsden–West 2001
 * §3.2 (core `DiscreteForce`).
 *
 * @module
 */
import { compileSym, type Force, type SX } from '@geomech/core';
import { UsageError } from '../errors.js';
import type { SimulateRequest } from '../runner.js';
import type { ModelSymbols } from './symbols.js';

/** The differentiated force of a model: F (n) and its Jacobians, row-major. */
export interface ForceModel {
  readonly F: readonly SX[];
  /** ∂F/∂q (n×n). */
  readonly dFdq: readonly SX[];
  /** ∂F/∂q̇ (n×n). */
  readonly dFdv: readonly SX[];
  /** ∂F/∂u (n×m). */
  readonly dFdu: readonly SX[];
  /** Number m of inputs. */
  readonly m: number;
}

/**
 * Parses and differentiates a model's `forces` (undefined when it has none).
 *
 * @throws ModelError naming `forces[i]` and the position of a bad expression.
 * @example
 * ```ts
 * const spec = readModel('{"kind":"contact","coordinates":["x"],"lagrangian":"0.5*xdot^2",' +
 *   '"forces":["u - 0.1*xdot"],"inputs":["u"],"init":{"q0":[1],"v0":[0],"z0":0}}', 'f.json');
 * analyzeForces(new ModelSymbols(spec))?.m; // 1
 * ```
 */
export function analyzeForces(s: ModelSymbols): ForceModel | undefined {
  const { spec, g, q, v, u } = s;
  if (spec.forces.length === 0) return undefined;
  const n = s.n;
  const m = u.length;
  const F = spec.forces.map((c, i) =>
    typeof c === 'number'
      ? g.constant(c)
      : s.parse(c, `forces[${i}]`, { q: true, v: true, t: true, u: true }).node,
  );
  const x = [...q, ...v, ...u];
  const w = 2 * n + m;
  const J = s.within('forces', () => g.dense(g.jacobian(F, x)));
  const dFdq: SX[] = [];
  const dFdv: SX[] = [];
  const dFdu: SX[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      dFdq.push(J[i * w + j]!);
      dFdv.push(J[i * w + n + j]!);
    }
    for (let j = 0; j < m; j++) dFdu.push(J[i * w + 2 * n + j]!);
  }
  return { F, dFdq, dFdv, dFdu, m };
}

type ForceFn = (
  out: Float64Array,
  t: number,
  q: Float64Array,
  v: Float64Array,
  u: Float64Array,
  p: Float64Array,
) => void;

interface ForceFunctions {
  readonly F: ForceFn;
  readonly dFdq: ForceFn;
  readonly dFdv: ForceFn;
  readonly dFdu: ForceFn;
}

const compiled = new WeakMap<ForceModel, ForceFunctions>();

/**
 * Core's {@link Force} of a model's forces for the parameter vector `p` (file order): compiled
 * functions (once per model) bound to the parameters.
 *
 * @example
 * ```ts
 * const s = new ModelSymbols(spec);
 * const force = compileForce(analyzeForces(s)!, s, s.parameters(s.values(request)));
 * force.F(new Float64Array(1), 0, q, v, u);
 * ```
 */
export function compileForce(model: ForceModel, s: ModelSymbols, p: Float64Array): Force {
  let f = compiled.get(model);
  if (f === undefined) {
    const { g, t, q, v, u } = s;
    const inputs = [t, q, v, u, s.p];
    const fn = (outputs: readonly SX[], name: string): ForceFn =>
      compileSym(g, inputs, outputs, { name }) as unknown as ForceFn;
    f = s.within('forces', () => ({
      F: fn(model.F, 'F'),
      dFdq: fn(model.dFdq, 'dFdq'),
      dFdv: fn(model.dFdv, 'dFdv'),
      dFdu: fn(model.dFdu, 'dFdu'),
    }));
    compiled.set(model, f);
  }
  const { F, dFdq, dFdv, dFdu } = f;
  const bind =
    (fn: ForceFn) =>
    (out: Float64Array, t: number, q: Float64Array, v: Float64Array, u: Float64Array) => {
      fn(out, t, q, v, u, p);
      return out;
    };
  return {
    n: s.n,
    m: model.m,
    F: bind(F),
    dFdq: bind(dFdq),
    dFdv: bind(dFdv),
    ...(model.m > 0 ? { dFdu: bind(dFdu) } : {}),
  };
}

/**
 * The control sequence of a run for a model with `m` inputs: the first `steps` rows of `--input`
 * as a flat `steps × m` array, or undefined (u = 0) when no `--input` was given.
 *
 * @throws UsageError naming `--input` when the model has no inputs, or the file has fewer rows
 *   than steps or rows of another width.
 * @example
 * ```ts
 * controlSequence({ ...request, inputs: { rows: 100, width: 1, data } }, 1); // data.subarray(0, steps)
 * ```
 */
export function controlSequence(request: SimulateRequest, m: number): Float64Array | undefined {
  const given = request.inputs;
  if (given === undefined) return undefined;
  if (m === 0)
    throw new UsageError(
      'this model has no control inputs (declare "inputs" and use them in "forces")',
      '--input',
    );
  if (given.width !== m)
    throw new UsageError(`rows need ${m} numbers (one per input), got ${given.width}`, '--input');
  if (given.rows < request.steps)
    throw new UsageError(
      `${given.rows} rows for ${request.steps} steps (need one row per step)`,
      '--input',
    );
  return given.data.subarray(0, request.steps * m);
}
