/**
 * Contact models (`"kind": "contact"`): a contact Lagrangian L(q, q̇, z, t) in the coordinates,
 * their `<name>dot` velocities, the action z and the time t (spec 004, seed 004), integrated by
 * the methods of the built-in contact systems (`midpoint` (79), `left-rectangle`,
 * `implicit-z-midpoint`, `exact`).
 *
 * A Lagrangian of the mechanical form L = ½|q̇|² − V(q) + γz (γ free of q, q̇, z, t) is recognised
 * symbolically and runs on the library's mechanical fast path (`mechanicalContactLagrangian`,
 * `MidpointHerglotz`) exactly as the built-in `damped-oscillator` does; any other L runs through
 * the generic discrete Lagrangians with all first and second partials compiled from mathjs
 * derivatives. A time-dependent L runs through the library too: its discrete Lagrangians receive
 * the step's start time t_k and evaluate L at their quadrature times, t_k + h/2 for `midpoint`
 * and `implicit-z-midpoint`, t_k for `left-rectangle` (the CLI offers no `exact` method then).
 *
 * @module
 */
import {
  type ContactInitialData,
  ContactIntegrator,
  type ContactLagrangian,
  type ContactSolution,
  type DiscreteContactLagrangian,
  herglotzVectorField,
  implicitZMidpointLd,
  leftRectangleLd,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  midpointLd,
  numericExactLd,
} from '@geomech/contact';
import { integrateDopri5, type Potential } from '@geomech/core';
import { type MathNode, OperatorNode } from 'mathjs';
import { UsageError } from '../errors.js';
import {
  requestScalar,
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { contactNewtonOptions, contactOutput, contactRunOptions } from '../systems/contact.js';
import { ModelError } from './errors.js';
import {
  assignments,
  compile,
  dependsOn,
  isNumber,
  simplifyNode,
  substitute,
} from './expressions.js';
import { KIND_METHODS, type ModelSpec } from './parse.js';
import { ModelSymbols, T, Z } from './symbols.js';

/** The symbolic pieces of L = ½|q̇|² − V(q) + γz. */
interface MechanicalParts {
  readonly V: MathNode;
  readonly gradV: readonly MathNode[];
  /** ∇²V, row-major n×n (symmetric by construction). */
  readonly hessV: readonly MathNode[];
  /** γ = ∂L/∂z, a tree in the parameters only. */
  readonly gamma: MathNode;
}

/** All partials of a general L(q, v, z, t); matrices row-major n×n. */
interface GeneralParts {
  readonly Lq: readonly MathNode[];
  readonly Lv: readonly MathNode[];
  readonly Lz: MathNode;
  readonly Lqq: readonly MathNode[];
  /** Entry (i, j) = ∂²L/∂vᵢ∂qⱼ (the ContactLagrangian convention). */
  readonly Lvq: readonly MathNode[];
  readonly Lvv: readonly MathNode[];
  readonly Lqz: readonly MathNode[];
  readonly Lvz: readonly MathNode[];
  readonly Lzz: MathNode;
}

/** A checked and differentiated contact model. */
export interface ContactModel {
  readonly symbols: ModelSymbols;
  readonly L: MathNode;
  /** True when L uses t. */
  readonly timeDependent: boolean;
  /** Set when L = ½|q̇|² − V(q) + γz. */
  readonly mechanical?: MechanicalParts;
  /** Set otherwise. */
  readonly general?: GeneralParts;
  /** Methods offered (no `exact` for a time-dependent L). */
  readonly methods: readonly string[];
}

/** Symmetric n×n matrix of second derivatives from the first ones (upper triangle, mirrored). */
function hessian(
  sym: ModelSymbols,
  first: readonly MathNode[],
  vars: readonly string[],
  field: string,
): MathNode[] {
  const n = vars.length;
  const out = new Array<MathNode>(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const d = sym.d(first[i]!, vars[j]!, field);
      out[i * n + j] = d;
      out[j * n + i] = d;
    }
  }
  return out;
}

/**
 * Recognises L = ½|q̇|² − V(q) + γz symbolically: ∂²L/∂q̇∂q̇ = I, ∂L/∂q̇ = q̇ at q̇ = 0 ↦ 0,
 * γ = ∂L/∂z free of q, q̇, z, t, and V = −L(q, 0, 0) free of t.
 */
function mechanicalParts(sym: ModelSymbols, L: MathNode): MechanicalParts | undefined {
  const field = 'lagrangian';
  const { n, q, v } = sym;
  const Lv = v.map((vi) => sym.d(L, vi, field));
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      if (!isNumber(sym.d(Lv[i]!, v[j]!, field), i === j ? 1 : 0)) return undefined;
    }
  }
  const atRest = new Map<string, number>(v.map((vi) => [vi, 0]));
  for (const Lvi of Lv) if (!isNumber(simplifyNode(substitute(Lvi, atRest)), 0)) return undefined;
  const gamma = sym.d(L, Z, field);
  if (dependsOn(gamma, [...q, ...v, Z, T])) return undefined;
  atRest.set(Z, 0);
  const V = simplifyNode(new OperatorNode('-', 'unaryMinus', [substitute(L, atRest)]));
  if (dependsOn(V, [T])) return undefined;
  const gradV = q.map((qi) => sym.d(V, qi, field));
  return { V, gradV, hessV: hessian(sym, gradV, q, field), gamma };
}

function generalParts(sym: ModelSymbols, L: MathNode): GeneralParts {
  const field = 'lagrangian';
  const { n, q, v } = sym;
  const Lq = q.map((qi) => sym.d(L, qi, field));
  const Lv = v.map((vi) => sym.d(L, vi, field));
  const Lz = sym.d(L, Z, field);
  const Lvq = new Array<MathNode>(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) Lvq[i * n + j] = sym.d(Lv[i]!, q[j]!, field);
  return {
    Lq,
    Lv,
    Lz,
    Lqq: hessian(sym, Lq, q, field),
    Lvq,
    Lvv: hessian(sym, Lv, v, field),
    Lqz: Lq.map((d) => sym.d(d, Z, field)),
    Lvz: Lv.map((d) => sym.d(d, Z, field)),
    Lzz: sym.d(Lz, Z, field),
  };
}

/**
 * Checks and differentiates a contact model: parses L in (q, q̇, z, t, params), recognises the
 * mechanical form or takes every partial the generic integrators need.
 *
 * @throws {@link ModelError} for a malformed expression or a method the model cannot run.
 * @example
 * ```ts
 * analyzeContact(readModel(text, 'damped-oscillator.json')).mechanical?.gamma.toString(); // '_p1'
 * ```
 */
export function analyzeContact(spec: ModelSpec): ContactModel {
  const symbols = new ModelSymbols(spec);
  const L = symbols.parse(spec.lagrangian, 'lagrangian', {
    q: true,
    v: true,
    z: true,
    t: true,
  }).node;
  const timeDependent = dependsOn(L, [T]);
  const methods = KIND_METHODS.contact.filter((m) => !(timeDependent && m === 'exact'));
  if (spec.method !== undefined && !methods.includes(spec.method)) {
    throw new ModelError(
      'method',
      `method '${spec.method}' needs an autonomous Lagrangian (this one uses t; choose ${methods.join(', ')})`,
      spec.file,
    );
  }
  const mechanical = mechanicalParts(symbols, L);
  if (mechanical) return { symbols, L, timeDependent, mechanical, methods };
  return { symbols, L, timeDependent, general: generalParts(symbols, L), methods };
}

// ---------------------------------------------------------------------------------------------
// compiled functions

type VectorFn = (
  out: Float64Array,
  q: Float64Array,
  v: Float64Array,
  z: number,
  t: number,
) => Float64Array;
type ScalarFn = (q: Float64Array, v: Float64Array, z: number, t: number) => number;

/**
 * A {@link ContactLagrangian} whose value and partials are generated JavaScript functions of
 * (q, v, z, t) (the time is the last argument, default 0, as in the library's vocabulary).
 */
class CompiledContactLagrangian implements ContactLagrangian {
  constructor(
    readonly n: number,
    private readonly f: {
      readonly L: ScalarFn;
      readonly Lq: VectorFn;
      readonly Lv: VectorFn;
      readonly Lz: ScalarFn;
      readonly Lqq: VectorFn;
      readonly Lvq: VectorFn;
      readonly Lvv: VectorFn;
      readonly Lqz: VectorFn;
      readonly Lvz: VectorFn;
      readonly Lzz: ScalarFn;
    },
  ) {}
  L(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.L(q, v, z, t);
  }
  Lq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lq(out, q, v, z, t);
  }
  Lv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lv(out, q, v, z, t);
  }
  Lz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.Lz(q, v, z, t);
  }
  Lqq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lqq(out, q, v, z, t);
  }
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lvq(out, q, v, z, t);
  }
  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lvv(out, q, v, z, t);
  }
  Lqz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lqz(out, q, v, z, t);
  }
  Lvz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    return this.f.Lvz(out, q, v, z, t);
  }
  Lzz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.Lzz(q, v, z, t);
  }
}

function compileGeneral(
  sym: ModelSymbols,
  parts: GeneralParts,
  L: MathNode,
  values: ReadonlyMap<string, number>,
): CompiledContactLagrangian {
  const origin = sym.origin('lagrangian');
  const bindings = sym.bindings(values, { q: 'q', v: 'v', z: 'z', t: 't' });
  const vector = (nodes: readonly MathNode[]): VectorFn =>
    compile<VectorFn>(['out', 'q', 'v', 'z', 't'], bindings, origin, (e) => {
      return `${assignments(e, 'out', nodes)}return out;\n`;
    });
  const scalar = (node: MathNode): ScalarFn =>
    compile<ScalarFn>(['q', 'v', 'z', 't'], bindings, origin, (e) => {
      return `return ${e.expression(node)};\n`;
    });
  return new CompiledContactLagrangian(sym.n, {
    L: scalar(L),
    Lq: vector(parts.Lq),
    Lv: vector(parts.Lv),
    Lz: scalar(parts.Lz),
    Lqq: vector(parts.Lqq),
    Lvq: vector(parts.Lvq),
    Lvv: vector(parts.Lvv),
    Lqz: vector(parts.Lqz),
    Lvz: vector(parts.Lvz),
    Lzz: scalar(parts.Lzz),
  });
}

function compilePotential(
  sym: ModelSymbols,
  parts: MechanicalParts,
  values: ReadonlyMap<string, number>,
): Potential {
  const origin = sym.origin('lagrangian');
  const bindings = sym.bindings(values, { q: 'q' });
  type Out = (out: Float64Array, q: Float64Array) => Float64Array;
  return {
    dim: sym.n,
    V: compile<(q: Float64Array) => number>(['q'], bindings, origin, (e) => {
      return `return ${e.expression(parts.V)};\n`;
    }),
    gradV: compile<Out>(
      ['out', 'q'],
      bindings,
      origin,
      (e) => `${assignments(e, 'out', parts.gradV)}return out;\n`,
    ),
    hessV: compile<Out>(
      ['out', 'q'],
      bindings,
      origin,
      (e) => `${assignments(e, 'out', parts.hessV)}return out;\n`,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// running

function initialData(request: SimulateRequest, n: number): ContactInitialData {
  const q0 = requestVector(request.init, 'q0', '--init', n);
  const z0 = requestScalar(request.init, 'z0', '--init');
  return request.init.has('v0')
    ? { q0, v0: requestVector(request.init, 'v0', '--init', n), z0 }
    : { q0, q1: requestVector(request.init, 'q1', '--init', n), z0 };
}

function discreteLagrangian(
  method: string,
  L: ContactLagrangian,
  h: number,
): DiscreteContactLagrangian {
  switch (method) {
    case 'midpoint':
      return midpointLd(L, h);
    case 'left-rectangle':
      return leftRectangleLd(L, h);
    case 'implicit-z-midpoint':
      return implicitZMidpointLd(L, h);
    case 'exact':
      return numericExactLd(L, h);
    default:
      throw new UsageError(`unknown method '${method}'`, '--method');
  }
}

/**
 * The continuous Lagrangian of a contact model for parameter values given by internal name
 * (`ModelSymbols.values`): `mechanicalContactLagrangian` with a compiled potential for the
 * mechanical form, else a {@link TimedContactLagrangian} of compiled partials.
 *
 * @throws UsageError when γ = ∂L/∂z is not finite for these values.
 * @example
 * ```ts
 * const model = analyzeContact(readModel(text, 'm.json'));
 * const L = buildContactLagrangian(model, model.symbols.values(request));
 * L.Lv(new Float64Array(1), q, v, z);
 * ```
 */
export function buildContactLagrangian(
  model: ContactModel,
  values: ReadonlyMap<string, number>,
): ContactLagrangian {
  const { symbols } = model;
  if (model.mechanical) {
    const gamma = symbols.evaluateConstant(model.mechanical.gamma, values, 'lagrangian');
    if (!Number.isFinite(gamma))
      throw new UsageError(
        `the damping ∂L/∂z = ${gamma} is not finite for these parameters`,
        '--param',
      );
    return mechanicalContactLagrangian(compilePotential(symbols, model.mechanical, values), gamma);
  }
  return compileGeneral(symbols, model.general!, model.L, values);
}

/**
 * Integrates a contact model with the library: the mechanical fast path `MidpointHerglotz` for
 * L = ½|q̇|² − V(q) + γz with `midpoint`, else `ContactIntegrator` over the method's discrete
 * Lagrangian of the compiled L (time-dependent or not).
 */
function run(model: ContactModel, request: SimulateRequest): ContactSolution {
  const { h, steps, method } = request;
  if (!model.methods.includes(method))
    throw new UsageError(
      `unknown method '${method}' (choose ${model.methods.join(', ')})`,
      '--method',
    );
  const init = initialData(request, model.symbols.n);
  const L = buildContactLagrangian(model, model.symbols.values(request));
  const options = contactNewtonOptions(request);
  const integrator =
    model.mechanical && method === 'midpoint' && 'potential' in L
      ? // the library's fast path of (79), as the built-in contact systems use it
        new MidpointHerglotz(L as never, h, options)
      : new ContactIntegrator(discreteLagrangian(method, L, h), { ...options, lagrangian: L });
  return integrator.integrate(init, steps, contactRunOptions(request));
}

/**
 * The runner of a contact model: the series `q`, `p`, `z`, `energy` (the contact Hamiltonian at
 * F⁻L_d) and `sigma` of the built-in contact systems; `reference` (for `geomech order`) is the
 * Herglotz flow (19) by DOPRI5 at rtol 1e-13, for an autonomous L started from (q0, v0, z0).
 *
 * @example
 * ```ts
 * const runner = contactRunner(analyzeContact(readModel(text, 'oscillator.json')));
 * runner.simulate(request).series[0]!.name; // 'q'
 * ```
 */
export function contactRunner(model: ContactModel): SystemRunner {
  const n = model.symbols.n;
  return {
    orderFields: ['q', 'p', 'z'],
    orderInit: ['v0'],
    simulate(request: SimulateRequest): SimulationOutput {
      return contactOutput(run(model, request));
    },
    reference(request: SimulateRequest): Float64Array {
      if (model.timeDependent)
        throw new UsageError(
          'the reference solution needs an autonomous Lagrangian (no t)',
          '--model',
        );
      const init = initialData(request, n);
      if (!('v0' in init))
        throw new UsageError('the reference solution starts from (q0, v0, z0)', '--init');
      const L = buildContactLagrangian(model, model.symbols.values(request));
      const y0 = [...Array.from(init.q0), ...Array.from(init.v0), init.z0];
      const sol = integrateDopri5(herglotzVectorField(L), y0, 0, request.steps * request.h, {
        rtol: 1e-13,
        atol: 1e-15,
        maxSteps: 10_000_000,
      });
      const last = sol.sample('y', sol.count - 1);
      const q = Float64Array.from(last.subarray(0, n));
      const v = Float64Array.from(last.subarray(n, 2 * n));
      const z = last[2 * n]!;
      const p = L.Lv(new Float64Array(n), q, v, z);
      const out = new Float64Array(2 * n + 1);
      out.set(q, 0);
      out.set(p, n);
      out[2 * n] = z;
      return out;
    },
  };
}
