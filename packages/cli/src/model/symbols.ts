/**
 * The symbols of a model: one symbolic graph (core's `SymGraph`) per model file, holding a symbol for
 * each coordinate, velocity (`<name>dot`), the action z, the time t and each parameter, named as
 * the user named them; the scopes of each field's expressions; the budget of the symbolic work,
 * which turns into a one-line ModelError naming the field; and the parameter values of a run.
 *
 * @module
 */
import { ComputeBudgetError, compileSymScalar, type SX, SymGraph } from '@geomech/core';
import { requestScalar, type SimulateRequest } from '../runner.js';
import { ModelError } from './errors.js';
import {
  type Expression,
  type Origin,
  parseExpression,
  type Scope,
  simpleScope,
} from './expressions.js';
import type { ModelSpec } from './parse.js';

/**
 * Most nodes of a model's symbolic graph (expressions, all their derivatives and the compiled
 * functions' operations): 10⁶ nodes, about 30 MB. The graph of a model is linear in the size of
 * its expressions per derivative direction (measured: a 128-coordinate coupled oscillator needs
 * ≈ 2·10⁴ nodes), so only hostile files come near it.
 */
export const MODEL_MAX_NODES = 1_000_000;
/**
 * Most node visits of the differentiation and compilation sweeps of one model: 3·10⁷, about a
 * second of work. A sweep per derivative direction visits the nodes that depend on it, so this
 * bounds the (number of coordinates) × (expression size) product that a file may ask for.
 */
export const MODEL_MAX_WORK = 30_000_000;

/** Which variables an expression may use besides the parameters. */
export interface Roles {
  readonly q?: boolean;
  readonly v?: boolean;
  readonly z?: boolean;
  readonly t?: boolean;
  /** The control inputs (forces). */
  readonly u?: boolean;
}

/**
 * The symbol tables of one model: its graph and symbols, the scope of each field, and the
 * parameter values of a run.
 *
 * @example
 * ```ts
 * const s = new ModelSymbols(readModel(text, 'pendulum.json'));
 * s.display(s.parse('x^2 + y^2 - l^2', 'constraints[0]', { q: true }).node); // 'x ^ 2 + y ^ 2 - l ^ 2'
 * ```
 */
export class ModelSymbols {
  /** The model's symbolic graph (with its node and work budgets). */
  readonly g: SymGraph;
  /** The coordinates. */
  readonly q: readonly SX[];
  /** The velocities. */
  readonly v: readonly SX[];
  /** The action z (contact models). */
  readonly z: SX;
  /** The time t (contact models). */
  readonly t: SX;
  /** The parameters, in file order. */
  readonly p: readonly SX[];
  /** The control inputs, in file order. */
  readonly u: readonly SX[];
  /** Parameter names, in file order. */
  readonly paramNames: readonly string[];

  constructor(readonly spec: ModelSpec) {
    const g = new SymGraph({ maxNodes: MODEL_MAX_NODES, maxWork: MODEL_MAX_WORK });
    this.g = g;
    this.q = spec.coordinates.map((c) => g.symbol(c));
    this.v = spec.velocities.map((c) => g.symbol(c));
    this.z = g.symbol('z');
    this.t = g.symbol('t');
    this.paramNames = [...spec.params.keys()];
    this.p = this.paramNames.map((c) => g.symbol(c));
    this.u = spec.inputs.map((c) => g.symbol(c));
  }

  get n(): number {
    return this.q.length;
  }

  /** The origin (field and file) of an expression, for messages. */
  origin(field: string): Origin {
    return { field, file: this.spec.file };
  }

  /** The scope of expressions that may use `roles` (and always the parameters). */
  scope(roles: Roles): Scope {
    const { spec } = this;
    const names = new Map<string, SX>();
    if (roles.q) for (const [i, c] of spec.coordinates.entries()) names.set(c, this.q[i]!);
    if (roles.v) for (const [i, c] of spec.velocities.entries()) names.set(c, this.v[i]!);
    if (roles.z) names.set('z', this.z);
    if (roles.t) names.set('t', this.t);
    if (roles.u) for (const [i, c] of spec.inputs.entries()) names.set(c, this.u[i]!);
    for (const [j, c] of this.paramNames.entries()) names.set(c, this.p[j]!);
    const hint = (name: string): string | undefined => {
      if (!roles.v && spec.velocities.includes(name))
        return 'velocities are not allowed here: constraints depend on the coordinates only';
      if (!roles.q && spec.coordinates.includes(name)) return 'coordinates are not allowed here';
      if (!roles.u && spec.inputs.includes(name)) return 'inputs are allowed in forces only';
      if (name === 't' && !roles.t && spec.kind !== 'contact')
        return `${spec.kind} models have the time t in their forces only`;
      if ((name === 'z' || name === 't') && spec.kind !== 'contact' && !roles.t)
        return `${spec.kind} models have no action variable z and no time t`;
      return undefined;
    };
    return simpleScope(names, hint);
  }

  /** Parses the expression of `field` in the scope of `roles`. */
  parse(source: string, field: string, roles: Roles): Expression {
    return this.within(field, () =>
      parseExpression(source, this.origin(field), this.scope(roles), this.g),
    );
  }

  /** An expression in the user's names, for messages. */
  display(node: SX): string {
    return this.g.format(node, 120);
  }

  /**
   * Runs symbolic work for `field`, turning an exhausted budget into a one-line ModelError that
   * names the field.
   */
  within<T>(field: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof ComputeBudgetError) {
        const what =
          error.resource === 'nodes'
            ? `more than ${error.budget} symbolic nodes`
            : `more than ${error.budget} node visits`;
        throw new ModelError(
          field,
          `the expression is too large to differentiate and compile (needs ${what})`,
          this.spec.file,
        );
      }
      throw error;
    }
  }

  /**
   * The parameter values of a request by internal name `_p0`, `_p1`, … in file order
   * (`--param` overrides the file).
   */
  values(request: SimulateRequest): Map<string, number> {
    const out = new Map<string, number>();
    this.paramNames.forEach((name, j) => {
      out.set(`_p${j}`, requestScalar(request.params, name, '--param'));
    });
    return out;
  }

  /** The parameter vector (file order) of values by internal name (see {@link values}). */
  parameters(values: ReadonlyMap<string, number>): Float64Array {
    return Float64Array.from(this.paramNames, (name, j) => {
      const v = values.get(`_p${j}`);
      if (v === undefined) throw new Error(`model: no value for parameter ${name}`);
      return v;
    });
  }

  /** The value of an expression in the parameters alone, for parameter values by internal name. */
  evaluateConstant(node: SX, values: ReadonlyMap<string, number>, field: string): number {
    const f = this.within(field, () =>
      compileSymScalar(this.g, [this.p], node, { mode: 'interpreter', name: field }),
    );
    return f(this.parameters(values));
  }
}
