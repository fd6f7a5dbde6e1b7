/**
 * Holonomic models (`"kind": "holonomic"`): a mechanical Lagrangian L = ½ Σᵢ mᵢ q̇ᵢ² − V(q) and
 * position constraints φᵃ(q) = 0 (spec 001 §2), integrated by the methods of the built-in
 * `pendulum` and `ziegler` systems: the Dirac integrators `dirac-1`, `dirac-2`, `dirac-2c`
 * (spec 001 §5) and the comparators `euler`, `trapezium`, `ab3`, `rk4` (index-reduced ODE,
 * spec 001 §6) and `rattle`.
 *
 * The form of L is checked on its derivative graph (core `SymGraph`): L = ½ q̇ᵀM(q)q̇ − V(q), i.e.
 * M = ∂²L/∂q̇∂q̇ free of q̇ and ∂L/∂q̇ = 0 at q̇ = 0 (no gyroscopic or velocity-linear terms); then
 * V = −L(q, 0). Other forms are rejected with the term at fault. A constant diagonal M (each mᵢ an
 * expression in the parameters) runs every method; a configuration-dependent M(q) (or a constant
 * one with couplings) gives the library system `massMatrix` and the velocity-quadratic
 * κ(q, q̇) = Ṁq̇ − ∂T/∂q (one forward sweep of ∂L/∂q̇ along q̇ minus ∂T/∂q = ∂L/∂q + ∇V), which the
 * index-reduced comparators `euler`, `trapezium`, `ab3`, `rk4` integrate (the Dirac methods and
 * RATTLE need the constant diagonal mass and are refused).
 *
 * Constraint one-forms follow the papers' convention ψᵃ = ½ dφᵃ (spec 001 §2: C = ½∇φ, the
 * pendulum's C = [x, y]), with the curvature cₐ(q, v) = ½ vᵀ∇²φᵃ v of d/dt (C(q)v) = C v̇ + c, so
 * the multipliers λ mean what they mean for the built-in systems. ∇φ comes from one reverse sweep
 * per constraint and vᵀ∇²φ v from two forward sweeps along v (a second directional derivative),
 * so no Hessian of φ is ever built: the work is linear in φ's size.
 *
 * @module
 */

import { compileSym, compileSymScalar, type SX, type SymInput } from '@geomech/core';
import type { ConstrainedMechanicalSystem } from '@geomech/dirac';
import { UsageError } from '../errors.js';
import {
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { holonomicReference, integrateHolonomic } from '../systems/holonomic.js';
import { ModelError } from './errors.js';
import { analyzeForces, compileForce, controlSequence, type ForceModel } from './forces.js';
import type { ModelSpec } from './parse.js';
import { ModelSymbols } from './symbols.js';

/**
 * Size of |φ(q0)|∞ or |Dφ(q0)·v0|∞ above which the initial data are reported as off the
 * constraints or not tangent to them (a warning: stderr on a TTY, `warnings` in the JSON output).
 */
export const INIT_CONSTRAINT_TOL = 1e-9;

/** A checked and differentiated holonomic model (expressions of the model's graph). */
export interface HolonomicModel {
  readonly symbols: ModelSymbols;
  /** The masses mᵢ = ∂²L/∂q̇ᵢ², expressions in the parameters (constant diagonal M only). */
  readonly mass: readonly SX[];
  /** M(q) = ∂²L/∂q̇∂q̇ row-major (n²), when M is not a constant diagonal; else null. */
  readonly massMatrix: readonly SX[] | null;
  /** κ(q, q̇) = Ṁq̇ − ∂T/∂q (n), with `massMatrix`; else null. */
  readonly coriolis: readonly SX[] | null;
  readonly V: SX;
  readonly gradV: readonly SX[];
  /** φ(q), m expressions. */
  readonly phi: readonly SX[];
  /** C = ½∇φ, row-major m×n. */
  readonly C: readonly SX[];
  /** cₐ = ½ vᵀ∇²φᵃ v, m expressions in (q, v). */
  readonly curvature: readonly SX[];
  readonly m: number;
  /** The external force F(t, q, q̇, u) of the `forces` entry, when given. */
  readonly forces?: ForceModel;
}

/**
 * Checks the mechanical form of L and differentiates L and the constraints.
 *
 * @throws {@link ModelError} naming `lagrangian` (a form other than ½ Σ mᵢ q̇ᵢ² − V(q), saying
 *   which term is at fault) or `constraints[a]`, or derivatives beyond the symbolic budget.
 * @example
 * ```ts
 * const model = analyzeHolonomic(readModel(text, 'pendulum.json'));
 * model.C.map((c) => model.symbols.display(c)); // ['0.5 * (2 * x)', '0.5 * (2 * y)'] (C = ½∇(x² + y² − l²))
 * ```
 */
export function analyzeHolonomic(spec: ModelSpec): HolonomicModel {
  const s = new ModelSymbols(spec);
  const { g, n, q, v } = s;
  const field = 'lagrangian';
  const reject = (what: string): never => {
    throw new ModelError(
      field,
      `holonomic models need L = ½ qdotᵀ M(q) qdot − V(q); ${what}`,
      spec.file,
    );
  };
  const L = s.parse(spec.lagrangian, field, { q: true, v: true }).node;
  const zero = g.constant(0);
  const { mass, V, gradV, massMatrix, coriolis } = s.within(field, () => {
    const Lv = g.gradient(L, v);
    const J = g.jacobian(Lv, v, 'reverse');
    const { rowStart, col } = J.pattern;
    const entry = (i: number, j: number): SX => {
      for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] === j) return J.values[k]!;
      return zero;
    };
    const masses: SX[] = [];
    const matrix: SX[] = [];
    let constantDiagonal = true;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const d = entry(i, j);
        matrix.push(d);
        if (j < i) continue;
        if (g.dependsOn([d], v)) {
          reject(
            `it is not quadratic in the velocities (∂²L/∂${spec.velocities[i]}∂${spec.velocities[j]} = ${s.display(d)} depends on them)`,
          );
        }
        if (i !== j && g.constantValue(d) !== 0) constantDiagonal = false;
        if (i === j) {
          if (g.dependsOn([d], q)) constantDiagonal = false;
          masses.push(d);
        }
      }
    }
    const atRest = g.substitute(
      Lv,
      v,
      v.map(() => zero),
    );
    atRest.forEach((b, i) => {
      if (g.constantValue(b) !== 0) {
        reject(
          `it has a term linear in ${spec.velocities[i]} (∂L/∂${spec.velocities[i]} at rest = ${s.display(b)})`,
        );
      }
    });
    const [L0] = g.substitute(
      [L],
      v,
      v.map(() => zero),
    );
    const potential = g.neg(L0!);
    const gradV = g.gradient(potential, q);
    if (constantDiagonal) {
      return { mass: masses, V: potential, gradV, massMatrix: null, coriolis: null };
    }
    // κ = Ṁ q̇ − ∂T/∂q with Ṁq̇ = d/ds ∂L/∂q̇(q + s q̇) and ∂T/∂q = ∂L/∂q + ∇V
    const Mdot = g.jvp(Lv, q, v);
    const Lq = g.gradient(L, q);
    const coriolis = Mdot.map((x, i) => g.sub(x, g.add(Lq[i]!, gradV[i]!)));
    return { mass: masses, V: potential, gradV, massMatrix: matrix, coriolis };
  });

  const phi: SX[] = [];
  const C: SX[] = [];
  const curvature: SX[] = [];
  const half = g.constant(0.5);
  spec.positions.forEach((source, a) => {
    const cf = `constraints[${a}]`;
    const node = s.parse(source, cf, { q: true }).node;
    if (!g.dependsOn([node], q)) {
      throw new ModelError(cf, 'a position constraint must depend on the coordinates', spec.file);
    }
    phi.push(node);
    s.within(cf, () => {
      for (const d of g.gradient(node, q)) C.push(g.mul(half, d));
      // cₐ = ½ vᵀ∇²φ v = ½ d²/ds² φ(q + s v) at s = 0: two forward sweeps along v
      const [dphi] = g.jvp([node], q, v);
      const [d2phi] = g.jvp([dphi!], q, v);
      curvature.push(g.mul(half, d2phi!));
    });
  });
  const forces = analyzeForces(s);
  return {
    symbols: s,
    mass,
    massMatrix,
    coriolis,
    V,
    gradV,
    phi,
    C,
    curvature,
    m: phi.length,
    ...(forces === undefined ? {} : { forces }),
  };
}

/** The methods that integrate a configuration-dependent mass M(q) (the index-reduced ODE). */
const INDEX_REDUCED: ReadonlySet<string> = new Set(['euler', 'trapezium', 'ab3', 'rk4']);

/** The compiled functions of a model (of q, v and the parameter vector), built on first use. */
interface HolonomicFunctions {
  readonly V: (q: Float64Array, p: Float64Array) => number;
  readonly gradV: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly phi: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly C: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly curvature: (
    out: Float64Array,
    q: Float64Array,
    v: Float64Array,
    p: Float64Array,
  ) => void;
  /** M(q) and κ(q, v), for a model whose mass is not a constant diagonal. */
  readonly massMatrix?: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly coriolis?: (
    out: Float64Array,
    q: Float64Array,
    v: Float64Array,
    p: Float64Array,
  ) => void;
}

const compiled = new WeakMap<HolonomicModel, HolonomicFunctions>();

function functions(model: HolonomicModel): HolonomicFunctions {
  const known = compiled.get(model);
  if (known !== undefined) return known;
  const { g, q, v, p } = model.symbols;
  const s = model.symbols;
  const vector = (outputs: readonly SX[], name: string, inputs: readonly SymInput[] = [q, p]) =>
    compileSym(g, inputs, outputs, { name });
  const f: HolonomicFunctions = {
    ...s.within('lagrangian', () => ({
      V: compileSymScalar(g, [q, p], model.V, {
        name: 'V',
      }) as unknown as HolonomicFunctions['V'],
      gradV: vector(model.gradV, 'gradV') as unknown as HolonomicFunctions['gradV'],
      ...(model.massMatrix === null || model.coriolis === null
        ? {}
        : {
            massMatrix: vector(model.massMatrix, 'M') as unknown as NonNullable<
              HolonomicFunctions['massMatrix']
            >,
            coriolis: vector(model.coriolis, 'coriolis', [q, v, p]) as unknown as NonNullable<
              HolonomicFunctions['coriolis']
            >,
          }),
    })),
    ...s.within('constraints', () => ({
      phi: vector(model.phi, 'phi') as unknown as HolonomicFunctions['phi'],
      C: vector(model.C, 'C') as unknown as HolonomicFunctions['C'],
      curvature: vector(model.curvature, 'curvature', [
        q,
        v,
        p,
      ]) as unknown as HolonomicFunctions['curvature'],
    })),
  };
  compiled.set(model, f);
  return f;
}

/**
 * The library system of a model for parameter values by internal name (`ModelSymbols.values`):
 * the masses evaluated and checked > 0, everything else compiled functions (compiled once per
 * model, shared by its runs).
 *
 * @throws UsageError (naming `--param`) for a mass that is not a positive finite number.
 * @example
 * ```ts
 * const model = analyzeHolonomic(readModel(text, 'pendulum.json'));
 * const sys = compileHolonomic(model, model.symbols.values(request));
 * sys.C(new Float64Array(2), Float64Array.of(0.6, -0.8)); // [0.6, −0.8] = ½∇φ
 * ```
 */
export function compileHolonomic(
  model: HolonomicModel,
  values: ReadonlyMap<string, number>,
): ConstrainedMechanicalSystem {
  const { symbols: s, m } = model;
  const n = s.n;
  const p = s.parameters(values);
  const f = functions(model);
  if (f.massMatrix !== undefined && f.coriolis !== undefined) {
    // M(q): `mass` is unused by the methods that run it (documented as ignored)
    const Mf = f.massMatrix;
    const kf = f.coriolis;
    return {
      ...systemFunctions(f, p, n, m, new Float64Array(n).fill(1)),
      massMatrix: (out, q) => {
        Mf(out, q, p);
        return out;
      },
      coriolis: (out, q, v) => {
        kf(out, q, v, p);
        return out;
      },
    };
  }
  const mass = Float64Array.from(model.mass, (node, i) => {
    const mi = s.evaluateConstant(node, values, 'lagrangian');
    if (!(mi > 0 && Number.isFinite(mi))) {
      throw new UsageError(
        `the mass of ${s.spec.coordinates[i]} (∂²L/∂${s.spec.velocities[i]}²) is ${mi}, must be > 0`,
        '--param',
      );
    }
    return mi;
  });
  return systemFunctions(f, p, n, m, mass);
}

/** The library system of compiled functions at the parameter vector p. */
function systemFunctions(
  f: HolonomicFunctions,
  p: Float64Array,
  n: number,
  m: number,
  mass: Float64Array,
): ConstrainedMechanicalSystem {
  return {
    n,
    m,
    mass,
    V: (q) => f.V(q, p),
    gradV: (out, q) => {
      f.gradV(out, q, p);
      return out;
    },
    phi: (out, q) => {
      f.phi(out, q, p);
      return out;
    },
    C: (out, q) => {
      f.C(out, q, p);
      return out;
    },
    curvature: (out, q, v) => {
      f.curvature(out, q, v, p);
      return out;
    },
  };
}

/** Warnings when (q0, v0) is off the constraint manifold or its tangent space. */
function initWarnings(
  sys: ConstrainedMechanicalSystem,
  q0: Float64Array,
  v0: Float64Array,
): string[] {
  const { n, m } = sys;
  const out: string[] = [];
  const phi = sys.phi(new Float64Array(m), q0);
  const worstPhi = Math.max(0, ...Array.from(phi, Math.abs));
  if (!(worstPhi <= INIT_CONSTRAINT_TOL))
    out.push(`init: q0 violates the constraints (|φ(q0)| = ${worstPhi.toExponential(3)})`);
  // the model's one-forms are C = ½∇φ (ψ = ½dφ), so Dφ(q0)·v0 = 2 C(q0)·v0
  const C = sys.C(new Float64Array(m * n), q0);
  let worst = 0;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += C[a * n + i]! * v0[i]!;
    worst = Math.max(worst, Math.abs(2 * s));
  }
  if (!(worst <= INIT_CONSTRAINT_TOL))
    out.push(
      `init: v0 is not tangent to the constraints (|Dφ(q0)·v0| = ${worst.toExponential(3)} > ${INIT_CONSTRAINT_TOL})`,
    );
  return out;
}

/**
 * The runner of a holonomic model, with the series of the built-in `pendulum`: `q`, `p`,
 * `lambda`, `energy`, `constraint` (φ(q), one per constraint); `reference` (for `geomech order`)
 * is DOPRI5 at rtol 1e-12 on the index-reduced ODE, compared on q.
 *
 * @example
 * ```ts
 * const runner = holonomicRunner(analyzeHolonomic(readModel(text, 'pendulum.json')));
 * runner.simulate(request).series[4]!.name; // 'constraint'
 * ```
 */
export function holonomicRunner(model: HolonomicModel): SystemRunner {
  const n = model.symbols.n;
  const problem = (request: SimulateRequest) => {
    const values = model.symbols.values(request);
    const sys = compileHolonomic(model, values);
    const q0 = Float64Array.from(requestVector(request.init, 'q0', '--init', n));
    const v0 = Float64Array.from(requestVector(request.init, 'v0', '--init', n));
    const forces = model.forces;
    const force =
      forces === undefined
        ? undefined
        : compileForce(forces, model.symbols, model.symbols.parameters(values));
    return { sys, q0, v0, force };
  };
  return {
    orderFields: ['q'],
    simulate(request: SimulateRequest): SimulationOutput {
      const { sys, q0, v0, force } = problem(request);
      const inputs = controlSequence(request, force?.m ?? 0);
      if (force !== undefined && force.m > 0 && INDEX_REDUCED.has(request.method)) {
        throw new UsageError(
          `${request.method} integrates the index-reduced ODE and takes no control inputs; use rattle or a Dirac method`,
          '--method',
        );
      }
      const out = integrateHolonomic(sys, q0, v0, request, force, inputs);
      return { ...out, warnings: [...initWarnings(sys, q0, v0), ...(out.warnings ?? [])] };
    },
    reference(request: SimulateRequest): Float64Array {
      const { sys, q0, v0, force } = problem(request);
      if (force !== undefined && force.m > 0) {
        throw new UsageError(
          'a model with control inputs has no reference solution for an order study (its reference is the flow at u = 0)',
        );
      }
      return holonomicReference(sys, q0, v0, request, force);
    },
  };
}
