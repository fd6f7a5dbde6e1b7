/**
 * Holonomic models (`"kind": "holonomic"`): a mechanical Lagrangian L = ½ Σᵢ mᵢ q̇ᵢ² − V(q) and
 * position constraints φᵃ(q) = 0 (spec 001 §2), integrated by the methods of the built-in
 * `pendulum` and `ziegler` systems: the Dirac integrators `dirac-1`, `dirac-2`, `dirac-2c`
 * (spec 001 §5) and the comparators `euler`, `trapezium`, `ab3`, `rk4` (index-reduced ODE,
 * spec 001 §6) and `rattle`.
 *
 * Those integrators need a constant diagonal mass matrix, so the form of L is checked
 * symbolically: ∂²L/∂q̇ᵢ∂q̇ⱼ must vanish for i ≠ j and be free of q and q̇ for i = j (the mass mᵢ,
 * a tree in the parameters), and ∂L/∂q̇ must vanish at q̇ = 0 (no gyroscopic or velocity-linear
 * terms); then V = −L(q, 0). Other forms are rejected with the term at fault.
 *
 * Constraint one-forms follow the papers' convention ψᵃ = ½ dφᵃ (spec 001 §2: C = ½∇φ, the
 * pendulum's C = [x, y]), with the curvature cₐ(q, v) = ½ vᵀ∇²φᵃ v of d/dt (C(q)v) = C v̇ + c, so
 * the multipliers λ mean what they mean for the built-in systems.
 *
 * @module
 */
import type { ConstrainedMechanicalSystem } from '@geomech/dirac';
import { ConstantNode, type MathNode, OperatorNode, SymbolNode } from 'mathjs';
import { UsageError } from '../errors.js';
import {
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { holonomicReference, integrateHolonomic } from '../systems/holonomic.js';
import { ModelError } from './errors.js';
import {
  assignments,
  compile,
  dependsOn,
  isNumber,
  simplifyNode,
  substitute,
} from './expressions.js';
import type { ModelSpec } from './parse.js';
import { ModelSymbols } from './symbols.js';

/** Size of φ(q0) or C(q0)·v0 above which the initial data are reported as off the constraints. */
const INIT_CONSTRAINT_TOL = 1e-9;

/** A checked and differentiated holonomic model (trees in internal names). */
export interface HolonomicModel {
  readonly symbols: ModelSymbols;
  /** The masses mᵢ = ∂²L/∂q̇ᵢ², trees in the parameters. */
  readonly mass: readonly MathNode[];
  readonly V: MathNode;
  readonly gradV: readonly MathNode[];
  /** φ(q), m trees. */
  readonly phi: readonly MathNode[];
  /** C = ½∇φ, row-major m×n. */
  readonly C: readonly MathNode[];
  /** cₐ = ½ vᵀ∇²φᵃ v, m trees in (q, v). */
  readonly curvature: readonly MathNode[];
  readonly m: number;
}

const half = (node: MathNode): MathNode =>
  new OperatorNode('*', 'multiply', [new ConstantNode(0.5), node]);

/**
 * Checks the mechanical form of L and differentiates L and the constraints.
 *
 * @throws {@link ModelError} naming `lagrangian` (a form other than ½ Σ mᵢ q̇ᵢ² − V(q), saying
 *   which term is at fault) or `constraints[a]`.
 * @example
 * ```ts
 * const model = analyzeHolonomic(readModel(text, 'pendulum.json'));
 * model.C.map(String); // ['_q0', '_q1'] (C = ½∇(x² + y² − l²))
 * ```
 */
export function analyzeHolonomic(spec: ModelSpec): HolonomicModel {
  const sym = new ModelSymbols(spec);
  const { n, q, v } = sym;
  const field = 'lagrangian';
  const reject = (what: string): never => {
    throw new ModelError(
      field,
      `holonomic models need L = ½ Σ m_i qdot_i² − V(q) with constant masses; ${what}`,
      spec.file,
    );
  };
  const L = sym.parse(spec.lagrangian, field, { q: true, v: true }).node;
  const Lv = v.map((vi) => sym.d(L, vi, field));
  const mass: MathNode[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const d = sym.d(Lv[i]!, v[j]!, field);
      if (i !== j && !isNumber(d, 0)) {
        reject(
          `it couples ${spec.velocities[i]} and ${spec.velocities[j]} (∂²L/∂${spec.velocities[i]}∂${spec.velocities[j]} = ${sym.display(d)})`,
        );
      }
      if (i === j) {
        if (dependsOn(d, [...q, ...v])) {
          reject(
            `the mass of ${spec.coordinates[i]} depends on the state (∂²L/∂${spec.velocities[i]}² = ${sym.display(d)})`,
          );
        }
        mass.push(d);
      }
    }
  }
  const atRest = new Map<string, number>(v.map((vi) => [vi, 0]));
  Lv.forEach((Lvi, i) => {
    const b = simplifyNode(substitute(Lvi, atRest));
    if (!isNumber(b, 0)) {
      reject(
        `it has a term linear in ${spec.velocities[i]} (∂L/∂${spec.velocities[i]} at rest = ${sym.display(b)})`,
      );
    }
  });
  const V = simplifyNode(new OperatorNode('-', 'unaryMinus', [substitute(L, atRest)]));
  const gradV = q.map((qi) => sym.d(V, qi, field));

  const phi: MathNode[] = [];
  const C: MathNode[] = [];
  const curvature: MathNode[] = [];
  spec.positions.forEach((source, a) => {
    const cf = `constraints[${a}]`;
    const node = sym.parse(source, cf, { q: true }).node;
    if (!dependsOn(node, q)) {
      throw new ModelError(cf, 'a position constraint must depend on the coordinates', spec.file);
    }
    phi.push(node);
    const grad = q.map((qi) => sym.d(node, qi, cf));
    for (const g of grad) C.push(simplifyNode(half(g)));
    // cₐ = ½ Σᵢ H_ii vᵢ² + Σ_{i<j} H_ij vᵢ vⱼ
    const terms: MathNode[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        const H = sym.d(grad[i]!, q[j]!, cf);
        if (isNumber(H, 0)) continue;
        const vv = new OperatorNode('*', 'multiply', [
          new SymbolNode(v[i]!),
          new SymbolNode(v[j]!),
        ]);
        const term = new OperatorNode('*', 'multiply', [H, vv]);
        terms.push(i === j ? half(term) : term);
      }
    }
    const sum =
      terms.length === 0
        ? new ConstantNode(0)
        : terms.length === 1
          ? terms[0]!
          : new OperatorNode('+', 'add', terms);
    curvature.push(simplifyNode(sum));
  });
  return { symbols: sym, mass, V, gradV, phi, C, curvature, m: phi.length };
}

/**
 * The library system of a model for parameter values by internal name (`ModelSymbols.values`):
 * the masses evaluated and checked > 0, everything else generated functions, compiled once.
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
  const { symbols: sym, m } = model;
  const n = sym.n;
  const mass = Float64Array.from(model.mass, (node, i) => {
    const mi = sym.evaluateConstant(node, values, 'lagrangian');
    if (!(mi > 0 && Number.isFinite(mi))) {
      throw new UsageError(
        `the mass of ${sym.spec.coordinates[i]} (∂²L/∂${sym.spec.velocities[i]}²) is ${mi}, must be > 0`,
        '--param',
      );
    }
    return mi;
  });
  const bindings = sym.bindings(values, { q: 'q', v: 'v' });
  const lag = sym.origin('lagrangian');
  const cons = sym.origin('constraints');
  type OfQ = (out: Float64Array, q: Float64Array) => Float64Array;
  type OfQV = (out: Float64Array, q: Float64Array, v: Float64Array) => Float64Array;
  const ofQ = (nodes: readonly MathNode[], origin = lag): OfQ =>
    compile<OfQ>(
      ['out', 'q'],
      bindings,
      origin,
      (e) => `${assignments(e, 'out', nodes)}return out;\n`,
    );
  return {
    n,
    m,
    mass,
    V: compile<(q: Float64Array) => number>(['q'], bindings, lag, (e) => {
      return `return ${e.expression(model.V)};\n`;
    }),
    gradV: ofQ(model.gradV),
    phi: ofQ(model.phi, cons),
    C: ofQ(model.C, cons),
    curvature: compile<OfQV>(['out', 'q', 'v'], bindings, cons, (e) => {
      return `${assignments(e, 'out', model.curvature)}return out;\n`;
    }),
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
  const worstPhi = Math.max(...Array.from(phi, Math.abs));
  if (!(worstPhi <= INIT_CONSTRAINT_TOL))
    out.push(`init: q0 violates the constraints (|φ(q0)| = ${worstPhi.toExponential(3)})`);
  const C = sys.C(new Float64Array(m * n), q0);
  let worst = 0;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += C[a * n + i]! * v0[i]!;
    worst = Math.max(worst, Math.abs(s));
  }
  if (!(worst <= INIT_CONSTRAINT_TOL))
    out.push(`init: v0 is not tangent to the constraints (|C(q0)·v0| = ${worst.toExponential(3)})`);
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
    const sys = compileHolonomic(model, model.symbols.values(request));
    const q0 = Float64Array.from(requestVector(request.init, 'q0', '--init', n));
    const v0 = Float64Array.from(requestVector(request.init, 'v0', '--init', n));
    return { sys, q0, v0 };
  };
  return {
    orderFields: ['q'],
    simulate(request: SimulateRequest): SimulationOutput {
      const { sys, q0, v0 } = problem(request);
      return { ...integrateHolonomic(sys, q0, v0, request), warnings: initWarnings(sys, q0, v0) };
    },
    reference(request: SimulateRequest): Float64Array {
      const { sys, q0, v0 } = problem(request);
      return holonomicReference(sys, q0, v0, request);
    },
  };
}
