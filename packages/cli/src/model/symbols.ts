/**
 * The symbols of a model: user names of coordinates, velocities, the action z, the time t and the
 * parameters, their internal names in the symbolic trees (`_q0`, `_v0`, `_z`, `_t`, `_p0`, …),
 * the scopes of each field's expressions, and the bindings that turn internal names into
 * generated code (inputs read from the arguments, parameters substituted as constants).
 *
 * @module
 */
import { isSymbolNode, type MathNode, SymbolNode } from 'mathjs';
import { requestScalar, type SimulateRequest } from '../runner.js';
import {
  type Binding,
  compile,
  differentiate,
  type Expression,
  type Origin,
  parseExpression,
  type Scope,
  simpleScope,
} from './expressions.js';
import type { ModelSpec } from './parse.js';

/** Internal name of the action variable z (contact models). */
export const Z = '_z';
/** Internal name of the time t (contact models). */
export const T = '_t';

/** Which variables an expression may use besides the parameters. */
export interface Roles {
  readonly q?: boolean;
  readonly v?: boolean;
  readonly z?: boolean;
  readonly t?: boolean;
}

/** Which generated-function arguments carry the variables (`q[i]`, `v[i]`, `z`, `t`). */
export interface Inputs {
  readonly q?: string;
  readonly v?: string;
  readonly z?: string;
  readonly t?: string;
}

/**
 * The symbol tables of one model: internal names, the scope of each field, derivatives with the
 * user's names in messages, and the bindings of generated code.
 *
 * @example
 * ```ts
 * const sym = new ModelSymbols(readModel(text, 'pendulum.json'));
 * sym.parse('x^2 + y^2 - l^2', 'constraints[0]', { q: true }).node.toString(); // '_q0 ^ 2 + …'
 * sym.label('_v1'); // 'ydot'
 * ```
 */
export class ModelSymbols {
  /** Internal names of the coordinates. */
  readonly q: readonly string[];
  /** Internal names of the velocities. */
  readonly v: readonly string[];
  /** Internal names of the parameters, in file order. */
  readonly p: readonly string[];
  /** Parameter names, in file order. */
  readonly paramNames: readonly string[];

  constructor(readonly spec: ModelSpec) {
    this.q = spec.coordinates.map((_, i) => `_q${i}`);
    this.v = spec.coordinates.map((_, i) => `_v${i}`);
    this.paramNames = [...spec.params.keys()];
    this.p = this.paramNames.map((_, j) => `_p${j}`);
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
    const names = new Map<string, string>();
    if (roles.q) for (const [i, c] of spec.coordinates.entries()) names.set(c, this.q[i]!);
    if (roles.v) for (const [i, c] of spec.velocities.entries()) names.set(c, this.v[i]!);
    if (roles.z) names.set('z', Z);
    if (roles.t) names.set('t', T);
    for (const [j, c] of this.paramNames.entries()) names.set(c, this.p[j]!);
    const hint = (name: string): string | undefined => {
      if (!roles.v && spec.velocities.includes(name))
        return 'velocities are not allowed here: constraints depend on the coordinates only';
      if (!roles.q && spec.coordinates.includes(name)) return 'coordinates are not allowed here';
      if ((name === 'z' || name === 't') && spec.kind !== 'contact')
        return `${spec.kind} models have no action variable z and no time t`;
      return undefined;
    };
    return simpleScope(names, hint);
  }

  /** Parses the expression of `field` in the scope of `roles`. */
  parse(source: string, field: string, roles: Roles): Expression {
    return parseExpression(source, this.origin(field), this.scope(roles));
  }

  /** ∂node/∂(internal variable), with the user's name of the variable in messages. */
  d(node: MathNode, variable: string, field: string): MathNode {
    return differentiate(node, variable, this.label(variable), this.origin(field));
  }

  /** A tree in the user's names, for messages. */
  display(node: MathNode): string {
    return node
      .transform((n) => (isSymbolNode(n) ? new SymbolNode(this.label(n.name)) : n))
      .toString();
  }

  /** The user's name of an internal symbol. */
  label(internal: string): string {
    if (internal === Z) return 'z';
    if (internal === T) return 't';
    const i = this.q.indexOf(internal);
    if (i >= 0) return this.spec.coordinates[i]!;
    const k = this.v.indexOf(internal);
    if (k >= 0) return this.spec.velocities[k]!;
    const j = this.p.indexOf(internal);
    return j >= 0 ? this.paramNames[j]! : internal;
  }

  /** The parameter values of a request, by internal name (`--param` overrides the file). */
  values(request: SimulateRequest): Map<string, number> {
    const out = new Map<string, number>();
    this.paramNames.forEach((name, j) => {
      out.set(this.p[j]!, requestScalar(request.params, name, '--param'));
    });
    return out;
  }

  /**
   * Bindings of generated code: parameters as constants from `values`, the variables read from
   * the argument names in `inputs` (locals `q0`, `v0`, `zeta`, `time`).
   */
  bindings(values: ReadonlyMap<string, number>, inputs: Inputs): Map<string, Binding> {
    const out = new Map<string, Binding>();
    if (inputs.q !== undefined) {
      this.q.forEach((s, i) => {
        out.set(s, { kind: 'input', local: `q${i}`, load: `${inputs.q}[${i}]` });
      });
    }
    if (inputs.v !== undefined) {
      this.v.forEach((s, i) => {
        out.set(s, { kind: 'input', local: `v${i}`, load: `${inputs.v}[${i}]` });
      });
    }
    if (inputs.z !== undefined) out.set(Z, { kind: 'input', local: 'zeta', load: inputs.z });
    if (inputs.t !== undefined) out.set(T, { kind: 'input', local: 'time', load: inputs.t });
    for (const [name, value] of values) out.set(name, { kind: 'value', value });
    return out;
  }

  /** The number a tree in the parameters alone takes for the given values. */
  evaluateConstant(node: MathNode, values: ReadonlyMap<string, number>, field: string): number {
    const f = compile<() => number>([], this.bindings(values, {}), this.origin(field), (e) => {
      return `return ${e.expression(node)};\n`;
    });
    return f();
  }
}
