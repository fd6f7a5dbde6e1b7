/**
 * Contact models (`"kind": "contact"`): a contact Lagrangian L(q, q̇, z, t) in the coordinates,
 * their `<name>dot` velocities, the action z and the time t (spec 004, seed 004), integrated by
 * the methods of the built-in contact systems (`midpoint` (79), `left-rectangle`,
 * `implicit-z-midpoint`, `exact`).
 *
 * A Lagrangian of the mechanical form L = ½|q̇|² − V(q) + γz (γ free of q, q̇, z, t) is recognised
 * on its derivative graph and runs on the library's mechanical fast path
 * (`mechanicalContactLagrangian`, `MidpointHerglotz`) exactly as the built-in `damped-oscillator`
 * does; any other L runs through the generic discrete Lagrangians with all first and second
 * partials from automatic differentiation (core `SymGraph`: one reverse sweep for the gradient,
 * forward-over-reverse for the Hessian in (q, q̇, z)), compiled once per model. A time-dependent
 * L runs through the library: its discrete Lagrangians receive the step's start time t_k and
 * evaluate L at their quadrature times, t_k + h/2 for `midpoint` and `implicit-z-midpoint`, t_k
 * for `left-rectangle` (the CLI offers no `exact` method then).
 *
 * A `forces` entry (expressions in t, q, q̇, the `inputs` u and the parameters; `./forces.ts`)
 * adds an external force to every method: the forced discrete Herglotz step of the library with
 * the midpoint discrete force f_d^± = (h/2)F (the left rectangle f_d⁻ = hF for `left-rectangle`),
 * the inputs u_k from the rows of `--input` (u = 0 without it).
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
  type MechanicalPotential,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  midpointLd,
  numericExactLd,
} from '@geomech/contact';
import { compileSym, compileSymScalar, integrateDopri5, type SX } from '@geomech/core';
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
import { analyzeForces, compileForce, controlSequence, type ForceModel } from './forces.js';
import { KIND_METHODS, type ModelSpec } from './parse.js';
import { ModelSymbols } from './symbols.js';

/** The symbolic pieces of L = ½|q̇|² − V(q) + γz. */
interface MechanicalParts {
  readonly V: SX;
  readonly gradV: readonly SX[];
  /** ∇²V, row-major n×n (symmetric). */
  readonly hessV: readonly SX[];
  /** γ = ∂L/∂z, an expression in the parameters only. */
  readonly gamma: SX;
}

/** All partials of a general L(q, v, z, t); matrices row-major n×n. */
interface GeneralParts {
  readonly Lq: readonly SX[];
  readonly Lv: readonly SX[];
  readonly Lz: SX;
  readonly Lqq: readonly SX[];
  /** Entry (i, j) = ∂²L/∂vᵢ∂qⱼ (the ContactLagrangian convention). */
  readonly Lvq: readonly SX[];
  readonly Lvv: readonly SX[];
  readonly Lqz: readonly SX[];
  readonly Lvz: readonly SX[];
  readonly Lzz: SX;
}

/** A checked and differentiated contact model. */
export interface ContactModel {
  readonly symbols: ModelSymbols;
  readonly L: SX;
  /** True when L uses t. */
  readonly timeDependent: boolean;
  /** Set when L = ½|q̇|² − V(q) + γz. */
  readonly mechanical?: MechanicalParts;
  /** Set otherwise. */
  readonly general?: GeneralParts;
  /** Methods offered (no `exact` for a time-dependent L). */
  readonly methods: readonly string[];
  /** The external force F(t, q, q̇, u) of the `forces` entry, when given. */
  readonly forces?: ForceModel;
}

/**
 * Recognises L = ½|q̇|² − V(q) + γz on the graph: ∂²L/∂q̇∂q̇ = I (structurally: constant 1 on the
 * diagonal, no other entry), ∂L/∂q̇ = 0 at q̇ = 0, γ = ∂L/∂z free of q, q̇, z, t, and
 * V = −L(q, 0, 0) free of t.
 */
function mechanicalParts(s: ModelSymbols, L: SX): MechanicalParts | undefined {
  const { g, n, q, v, z, t } = s;
  const Lv = g.gradient(L, v);
  const J = g.jacobian(Lv, v);
  const { rowStart, col } = J.pattern;
  const M = J.values;
  for (let i = 0; i < n; i++) {
    const k = rowStart[i]!;
    if (rowStart[i + 1]! - k !== 1 || col[k] !== i || g.constantValue(M[k]!) !== 1)
      return undefined;
  }
  const zero = g.constant(0);
  const atRest = g.substitute(
    Lv,
    v,
    v.map(() => zero),
  );
  if (!atRest.every((e) => g.constantValue(e) === 0)) return undefined;
  const [gamma] = g.gradient(L, [z]);
  if (g.dependsOn([gamma!], [...q, ...v, z, t])) return undefined;
  const [L0] = g.substitute([L], [...v, z], [...v.map(() => zero), zero]);
  const V = g.neg(L0!);
  if (g.dependsOn([V], [t])) return undefined;
  const gradV = g.gradient(V, q);
  return { V, gradV, hessV: g.dense(g.hessian(V, q)), gamma: gamma! };
}

/** Every partial by one gradient and one Hessian in x = (q, v, z). */
function generalParts(s: ModelSymbols, L: SX): GeneralParts {
  const { g, n, q, v, z } = s;
  const x = [...q, ...v, z];
  const N = 2 * n + 1;
  const grad = g.gradient(L, x);
  const H = g.dense(g.hessian(L, x));
  const block = (r0: number, c0: number, rows: number, cols: number): SX[] => {
    const out: SX[] = [];
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) out.push(H[(r0 + i) * N + c0 + j]!);
    return out;
  };
  return {
    Lq: grad.slice(0, n),
    Lv: grad.slice(n, 2 * n),
    Lz: grad[2 * n]!,
    Lqq: block(0, 0, n, n),
    Lvq: block(n, 0, n, n),
    Lvv: block(n, n, n, n),
    Lqz: block(0, 2 * n, n, 1),
    Lvz: block(n, 2 * n, n, 1),
    Lzz: H[N * N - 1]!,
  };
}

/**
 * Checks and differentiates a contact model: parses L in (q, q̇, z, t, params), recognises the
 * mechanical form or takes every partial the generic integrators need.
 *
 * @throws {@link ModelError} for a malformed expression, a method the model cannot run, or
 *   derivatives beyond the symbolic budget.
 * @example
 * ```ts
 * const model = analyzeContact(readModel(text, 'damped-oscillator.json'));
 * model.symbols.display(model.mechanical!.gamma); // 'gamma'
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
  const timeDependent = symbols.g.dependsOn([L], [symbols.t]);
  const methods = KIND_METHODS.contact.filter((m) => !(timeDependent && m === 'exact'));
  if (spec.method !== undefined && !methods.includes(spec.method)) {
    throw new ModelError(
      'method',
      `method '${spec.method}' needs an autonomous Lagrangian (this one uses t; choose ${methods.join(', ')})`,
      spec.file,
    );
  }
  const forces = analyzeForces(symbols);
  const withForces = forces === undefined ? {} : { forces };
  return symbols.within('lagrangian', () => {
    const mechanical = mechanicalParts(symbols, L);
    if (mechanical) return { symbols, L, timeDependent, mechanical, methods, ...withForces };
    return {
      symbols,
      L,
      timeDependent,
      general: generalParts(symbols, L),
      methods,
      ...withForces,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// compiled functions

type VectorFn = (
  out: Float64Array,
  q: Float64Array,
  v: Float64Array,
  z: number,
  t: number,
  p: Float64Array,
) => void;
type ScalarFn = (q: Float64Array, v: Float64Array, z: number, t: number, p: Float64Array) => number;

/** The compiled partials of a general L, functions of (q, v, z, t, p). */
interface GeneralFunctions {
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
}

/**
 * A {@link ContactLagrangian} whose value and partials are compiled functions of (q, v, z, t, p);
 * the time is the last argument (default 0, as in the library's vocabulary), the parameters are
 * fixed per run.
 */
class CompiledContactLagrangian implements ContactLagrangian {
  constructor(
    readonly n: number,
    private readonly f: GeneralFunctions,
    private readonly p: Float64Array,
  ) {}
  L(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.L(q, v, z, t, this.p);
  }
  Lq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lq(out, q, v, z, t, this.p);
    return out;
  }
  Lv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lv(out, q, v, z, t, this.p);
    return out;
  }
  Lz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.Lz(q, v, z, t, this.p);
  }
  Lqq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lqq(out, q, v, z, t, this.p);
    return out;
  }
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lvq(out, q, v, z, t, this.p);
    return out;
  }
  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lvv(out, q, v, z, t, this.p);
    return out;
  }
  Lqz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lqz(out, q, v, z, t, this.p);
    return out;
  }
  Lvz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    this.f.Lvz(out, q, v, z, t, this.p);
    return out;
  }
  Lzz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.f.Lzz(q, v, z, t, this.p);
  }
}

/** Compiled functions of each model, built on first use and shared by its runs. */
const compiled = new WeakMap<ContactModel, GeneralFunctions | MechanicalFunctions>();

interface MechanicalFunctions {
  readonly V: (q: Float64Array, p: Float64Array) => number;
  readonly gradV: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly hessV: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
}

function generalFunctions(model: ContactModel, parts: GeneralParts): GeneralFunctions {
  const known = compiled.get(model);
  if (known !== undefined) return known as GeneralFunctions;
  const { g, q, v, z, t, p } = model.symbols;
  const inputs = [q, v, z, t, p];
  const functions = model.symbols.within('lagrangian', () => {
    const vector = (outputs: readonly SX[], name: string) =>
      compileSym(g, inputs, outputs, { name }) as unknown as VectorFn;
    const scalar = (output: SX, name: string) =>
      compileSymScalar(g, inputs, output, { name }) as unknown as ScalarFn;
    return {
      L: scalar(model.L, 'L'),
      Lq: vector(parts.Lq, 'Lq'),
      Lv: vector(parts.Lv, 'Lv'),
      Lz: scalar(parts.Lz, 'Lz'),
      Lqq: vector(parts.Lqq, 'Lqq'),
      Lvq: vector(parts.Lvq, 'Lvq'),
      Lvv: vector(parts.Lvv, 'Lvv'),
      Lqz: vector(parts.Lqz, 'Lqz'),
      Lvz: vector(parts.Lvz, 'Lvz'),
      Lzz: scalar(parts.Lzz, 'Lzz'),
    };
  });
  compiled.set(model, functions);
  return functions;
}

function mechanicalFunctions(model: ContactModel, parts: MechanicalParts): MechanicalFunctions {
  const known = compiled.get(model);
  if (known !== undefined) return known as MechanicalFunctions;
  const { g, q, p } = model.symbols;
  const functions = model.symbols.within('lagrangian', () => ({
    V: compileSymScalar(g, [q, p], parts.V, { name: 'V' }) as unknown as MechanicalFunctions['V'],
    gradV: compileSym(g, [q, p], parts.gradV, {
      name: 'gradV',
    }) as unknown as MechanicalFunctions['gradV'],
    hessV: compileSym(g, [q, p], parts.hessV, {
      name: 'hessV',
    }) as unknown as MechanicalFunctions['hessV'],
  }));
  compiled.set(model, functions);
  return functions;
}

function compilePotential(
  model: ContactModel,
  parts: MechanicalParts,
  p: Float64Array,
): MechanicalPotential {
  const f = mechanicalFunctions(model, parts);
  // the mechanical form has V free of t (mechanicalParts): autonomous, called without t
  return {
    dim: model.symbols.n,
    autonomous: true,
    V: (q) => f.V(q, p),
    gradV: (out, q) => {
      f.gradV(out, q, p);
      return out;
    },
    hessV: (out, q) => {
      f.hessV(out, q, p);
      return out;
    },
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
 * mechanical form, else a contact Lagrangian of compiled partials (time as its last argument).
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
  const p = symbols.parameters(values);
  if (model.mechanical) {
    const gamma = symbols.evaluateConstant(model.mechanical.gamma, values, 'lagrangian');
    if (!Number.isFinite(gamma))
      throw new UsageError(
        `the damping ∂L/∂z = ${gamma} is not finite for these parameters`,
        '--param',
      );
    return mechanicalContactLagrangian(compilePotential(model, model.mechanical, p), gamma);
  }
  return new CompiledContactLagrangian(symbols.n, generalFunctions(model, model.general!), p);
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
  const values = model.symbols.values(request);
  const L = buildContactLagrangian(model, values);
  // forces: core's Force of the compiled expressions, the control sequence of --input (u = 0
  // without it), f_d^± by the midpoint rule (the left rectangle for left-rectangle)
  const forces = model.forces;
  const force =
    forces === undefined
      ? undefined
      : compileForce(forces, model.symbols, model.symbols.parameters(values));
  const inputs = controlSequence(request, forces?.m ?? 0);
  const options = {
    ...contactNewtonOptions(request),
    ...(force === undefined ? {} : { force }),
  };
  const integrator =
    model.mechanical && method === 'midpoint' && 'potential' in L
      ? // the library's fast path of (79), as the built-in contact systems use it
        new MidpointHerglotz(L as never, h, options)
      : new ContactIntegrator(discreteLagrangian(method, L, h), {
          ...options,
          lagrangian: L,
          ...(method === 'left-rectangle' ? { forceQuadrature: 'left' as const } : {}),
        });
  return integrator.integrate(init, steps, {
    ...contactRunOptions(request),
    ...(inputs === undefined ? {} : { inputs }),
  });
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
      if (model.forces !== undefined)
        throw new UsageError('the reference solution needs a model without forces', '--model');
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
