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
 * L is evaluated at the quadrature time of each step: t_k + h/2 for `midpoint` and
 * `implicit-z-midpoint`, t_k for `left-rectangle` (the exact discrete Lagrangian needs an
 * autonomous L and is not offered then).
 *
 * @module
 */
import {
  type ContactInitialData,
  ContactIntegrator,
  type ContactLagrangian,
  checkSigma,
  type DiscreteContactLagrangian,
  herglotzVectorField,
  implicitZMidpointLd,
  leftRectangleLd,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  midpointLd,
  negativeSigmaWarning,
  numericExactLd,
  type Potential,
} from '@geomech/contact';
import {
  compileSym,
  compileSymScalar,
  GeomechError,
  integrateDopri5,
  type SX,
} from '@geomech/core';
import { UsageError } from '../errors.js';
import {
  requestScalar,
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { ModelError } from './errors.js';
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
  return symbols.within('lagrangian', () => {
    const mechanical = mechanicalParts(symbols, L);
    if (mechanical) return { symbols, L, timeDependent, mechanical, methods };
    return { symbols, L, timeDependent, general: generalParts(symbols, L), methods };
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

/** A contact Lagrangian of (q, v, z) at the time held in its mutable field `t`. */
export interface TimedContactLagrangian extends ContactLagrangian {
  /** The time at which L and its partials are evaluated. */
  t: number;
}

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
 * the time is the mutable field {@link t} (set by the stepping loop before each step), the
 * parameters are fixed per run.
 */
class CompiledContactLagrangian implements TimedContactLagrangian {
  /** The time at which L and its partials are evaluated. */
  t = 0;
  constructor(
    readonly n: number,
    private readonly f: GeneralFunctions,
    private readonly p: Float64Array,
  ) {}
  L(q: Float64Array, v: Float64Array, z: number): number {
    return this.f.L(q, v, z, this.t, this.p);
  }
  Lq(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lq(out, q, v, z, this.t, this.p);
    return out;
  }
  Lv(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lv(out, q, v, z, this.t, this.p);
    return out;
  }
  Lz(q: Float64Array, v: Float64Array, z: number): number {
    return this.f.Lz(q, v, z, this.t, this.p);
  }
  Lqq(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lqq(out, q, v, z, this.t, this.p);
    return out;
  }
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lvq(out, q, v, z, this.t, this.p);
    return out;
  }
  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lvv(out, q, v, z, this.t, this.p);
    return out;
  }
  Lqz(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lqz(out, q, v, z, this.t, this.p);
    return out;
  }
  Lvz(out: Float64Array, q: Float64Array, v: Float64Array, z: number): Float64Array {
    this.f.Lvz(out, q, v, z, this.t, this.p);
    return out;
  }
  Lzz(q: Float64Array, v: Float64Array, z: number): number {
    return this.f.Lzz(q, v, z, this.t, this.p);
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

function compilePotential(model: ContactModel, parts: MechanicalParts, p: Float64Array): Potential {
  const f = mechanicalFunctions(model, parts);
  return {
    dim: model.symbols.n,
    value: (q) => f.V(q, p),
    gradient: (out, q) => {
      f.gradV(out, q, p);
    },
    hessian: (out, q) => {
      f.hessV(out, q, p);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// running

/** Quadrature time of a step of each method, as a fraction of h after t_k. */
const TIME_OFFSET: Readonly<Record<string, number>> = {
  midpoint: 0.5,
  'left-rectangle': 0,
  'implicit-z-midpoint': 0.5,
};

/** The flat trajectory the contact runner turns into series. */
interface Trajectory {
  readonly count: number;
  readonly t: Float64Array;
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly z: Float64Array;
  readonly energy: Float64Array;
  readonly sigma: Float64Array;
  readonly stats: { readonly newtonIterations: number; readonly maxResidual: number };
  readonly warnings: readonly string[];
}

/**
 * The loop of `ContactIntegrator.integrate` (spec 004 §7.1: F⁻L_d for a two-point start, then the
 * discrete Hamiltonian flow (43)) with the time of a time-dependent L set before each step: the
 * quadrature time t_k + offset·h while stepping, t_k when recording the energy H(q_k, p_k, z_k).
 * Exported for tests (it reproduces `integrate` on an autonomous L).
 *
 * @example
 * ```ts
 * const L = buildContactLagrangian(model, values) as TimedContactLagrangian;
 * const Ld = implicitZMidpointLd(L, 0.1);
 * integrateWithTime(L, Ld, new ContactIntegrator(Ld, { lagrangian: L }),
 *   { q0: [1], v0: [0], z0: 0 }, 100, 1, 0.5).q; // q_k with L at t_k + h/2 in each step
 * ```
 */
export function integrateWithTime(
  L: TimedContactLagrangian,
  Ld: DiscreteContactLagrangian,
  integrator: ContactIntegrator,
  init: ContactInitialData,
  steps: number,
  every: number,
  offset: number,
): Trajectory {
  const { n, h } = Ld;
  const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
  const tArr = new Float64Array(count);
  const qArr = new Float64Array(count * n);
  const pArr = new Float64Array(count * n);
  const zArr = new Float64Array(count);
  const energy = new Float64Array(count);
  const sigmaArr = new Float64Array(count).fill(Number.NaN);
  const warnings: string[] = [];
  const q = Float64Array.from(init.q0);
  const p = new Float64Array(n);
  let z = init.z0;
  let kept = 0;
  let pending = -1;
  let energyFailed = false;
  let newtonIterations = 0;
  let maxResidual = 0;
  integrator.resetDiagnostics();
  const keep = (k: number): void => {
    L.t = k * h;
    tArr[kept] = k * h;
    qArr.set(q, kept * n);
    pArr.set(p, kept * n);
    zArr[kept] = z;
    const e = integrator.energy(q, p, z);
    energy[kept] = e;
    if (Number.isNaN(e) && !energyFailed) {
      energyFailed = true;
      warnings.push(`step ${k}: energy is NaN (the inverse Legendre map FL⁻¹(p) failed)`);
    }
    pending = kept;
    kept++;
  };
  let k = 0;
  if ('q1' in init) {
    const q1 = Float64Array.from(init.q1);
    L.t = offset * h;
    // F⁻L_d (40): p0 = −D1 L_d(q0, q1, z0)/(1 + D_z L_d(q0, q1, z0))
    const sigma0 = checkSigma(Ld.Dz(q, q1, z), 0);
    if (sigma0 < 0) {
      integrator.firstNegativeSigmaStep = 0;
      integrator.firstNegativeSigma = sigma0;
    }
    Ld.D1(p, q, q1, z);
    for (let i = 0; i < n; i++) p[i] = -p[i]! / sigma0;
    keep(0);
    sigmaArr[pending] = sigma0;
    pending = -1;
    if (steps >= 1) {
      // F⁺L_d (40): p1 = D2 L_d(q0, q1, z0), z1 = z0 + L_d(q0, q1, z0)
      L.t = offset * h;
      const ld = Ld.Ld(q, q1, z);
      Ld.D2(p, q, q1, z);
      q.set(q1);
      z += ld;
      k = 1;
      if (k % every === 0 || k === steps) keep(k);
    }
  } else {
    L.t = 0;
    L.Lv(p, q, Float64Array.from(init.v0), z);
    keep(0);
  }
  for (; k < steps; ) {
    L.t = (k + offset) * h;
    z = integrator.stepHamiltonian(q, p, z, k);
    if (pending >= 0) {
      sigmaArr[pending] = integrator.lastSigma;
      pending = -1;
    }
    k++;
    newtonIterations += integrator.lastIterations;
    if (integrator.lastResidual > maxResidual) maxResidual = integrator.lastResidual;
    if (k % every === 0 || k === steps) keep(k);
  }
  const { firstNegativeSigmaStep, firstNegativeSigma } = integrator;
  if (firstNegativeSigmaStep >= 0)
    warnings.push(negativeSigmaWarning(firstNegativeSigmaStep, firstNegativeSigma));
  if (pending >= 0) {
    // σ of the step leaving the last state (not taken): NaN if that step fails
    L.t = (k + offset) * h;
    try {
      integrator.stepHamiltonian(Float64Array.from(q), Float64Array.from(p), z, k);
      sigmaArr[pending] = integrator.lastSigma;
    } catch (error) {
      if (!(error instanceof GeomechError)) throw error;
    }
  }
  return {
    count: kept,
    t: tArr,
    q: qArr,
    p: pArr,
    z: zArr,
    energy,
    sigma: sigmaArr,
    stats: { newtonIterations, maxResidual },
    warnings,
  };
}

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

/** Options for the integrators from `--tol` and `--max-iter`. */
function newtonOptions(request: SimulateRequest) {
  return {
    ...(request.tol === undefined ? {} : { tol: request.tol }),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
  };
}

function run(model: ContactModel, request: SimulateRequest): Trajectory {
  const { h, steps, every, method } = request;
  if (!model.methods.includes(method))
    throw new UsageError(
      `unknown method '${method}' (choose ${model.methods.join(', ')})`,
      '--method',
    );
  const init = initialData(request, model.symbols.n);
  const L = buildContactLagrangian(model, model.symbols.values(request));
  const options = newtonOptions(request);
  if (model.mechanical && method === 'midpoint' && 'potential' in L) {
    // the library's fast path of (79), as the built-in contact systems use it
    return new MidpointHerglotz(L as never, h, options).integrate(
      init,
      steps,
      every,
      request.onProgress,
    );
  }
  const Ld = discreteLagrangian(method, L, h);
  const integrator = new ContactIntegrator(Ld, { ...options, lagrangian: L });
  if (model.timeDependent && L instanceof CompiledContactLagrangian) {
    return integrateWithTime(L, Ld, integrator, init, steps, every, TIME_OFFSET[method] ?? 0);
  }
  return integrator.integrate(init, steps, {
    every,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
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
      const sol = run(model, request);
      const trim = (a: Float64Array, width: number) => a.subarray(0, sol.count * width);
      return {
        count: sol.count,
        t: trim(sol.t, 1),
        series: [
          { name: 'q', width: n, data: trim(sol.q, n) },
          { name: 'p', width: n, data: trim(sol.p, n) },
          { name: 'z', width: 1, data: trim(sol.z, 1) },
          { name: 'energy', width: 1, data: trim(sol.energy, 1) },
          { name: 'sigma', width: 1, data: trim(sol.sigma, 1) },
        ],
        stats: sol.stats,
        warnings: sol.warnings,
      };
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
