/**
 * Lagrange–Dirac models (`"kind": "lagrange-dirac"`): a Lagrangian L(q, q̇) and m constraint
 * one-forms ωᵃ = Σᵢ aᵃᵢ(q) dqᵢ, i.e. the distribution Δ(q) = ker A(q) of Σᵢ aᵃᵢ(q) q̇ᵢ = 0
 * (nonholonomic, or holonomic in differential form), integrated by the (±)-discrete
 * Lagrange–Dirac methods `dirac-plus` (left-rectangle L_d) and `dirac-minus` (right-rectangle
 * L_d) of spec 000 §8 (Thm 6.8, (53)/(54)) through `integrateLagrangeDirac`, as the built-in
 * `rolling-disk` and `heisenberg` systems.
 *
 * The library's Lagrangian interface takes any L(q, v) with ∂L/∂q, ∂L/∂v, M = ∂²L/∂v² and
 * N = ∂²L/∂v∂q, so L needs no mechanical form here: all four come from one gradient and one
 * Hessian in (q, v) on L's graph (core `SymGraph`, M symmetric by construction), and
 * Ȧ = Σₖ (∂A/∂qₖ) q̇ₖ from one forward sweep of the coefficients along q̇, compiled once per model.
 *
 * @module
 */
import { compileSym, compileSymScalar, type SX } from '@geomech/core';
import {
  type Distribution,
  integrateLagrangeDirac,
  type LagrangeDiracMethodName,
  type Lagrangian,
  lagrangeDiracMethods,
} from '@geomech/dirac';
import { UsageError } from '../errors.js';
import {
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { lagrangeDiracOutput } from '../systems/lagrangeDirac.js';
import type { ModelSpec } from './parse.js';
import { ModelSymbols } from './symbols.js';

/** The library's method names are the CLI's. */
const isMethod = (name: string): name is LagrangeDiracMethodName =>
  Object.hasOwn(lagrangeDiracMethods, name);

/** Relative size of A(q0)·v0 above which the initial velocity is reported as outside Δ(q0). */
const INIT_CONSTRAINT_RTOL = 1e-9;

/** A checked and differentiated Lagrange–Dirac model (expressions of the model's graph). */
export interface LagrangeDiracModel {
  readonly symbols: ModelSymbols;
  readonly L: SX;
  readonly dLdq: readonly SX[];
  readonly dLdv: readonly SX[];
  /** M = ∂²L/∂v², row-major n×n, symmetric. */
  readonly M: readonly SX[];
  /** N_ij = ∂²L/∂vᵢ∂qⱼ. */
  readonly N: readonly SX[];
  /** A(q), row-major m×n. */
  readonly A: readonly SX[];
  /** Ȧ(q, v) = Σₖ (∂A/∂qₖ) vₖ, row-major m×n. */
  readonly Adot: readonly SX[];
  readonly m: number;
}

/**
 * Checks and differentiates a Lagrange–Dirac model: L in (q, q̇, params), one-form coefficients
 * in (q, params).
 *
 * @throws {@link ModelError} naming the field (`lagrangian`, `constraints[a][i]`) and position.
 * @example
 * ```ts
 * analyzeLagrangeDirac(readModel(text, 'rolling-disk.json')).A.length; // m·n = 8
 * ```
 */
export function analyzeLagrangeDirac(spec: ModelSpec): LagrangeDiracModel {
  const s = new ModelSymbols(spec);
  const { g, n, q, v } = s;
  const field = 'lagrangian';
  const L = s.parse(spec.lagrangian, field, { q: true, v: true }).node;
  const parts = s.within(field, () => {
    const x = [...q, ...v];
    const N2 = 2 * n;
    const grad = g.gradient(L, x);
    const H = g.dense(g.hessian(L, x));
    const M: SX[] = [];
    const N: SX[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        M.push(H[(n + i) * N2 + n + j]!);
        N.push(H[(n + i) * N2 + j]!);
      }
    }
    return { dLdq: grad.slice(0, n), dLdv: grad.slice(n), M, N };
  });
  const A: SX[] = [];
  const Adot: SX[] = [];
  spec.oneForms.forEach((row, a) => {
    row.forEach((c, i) => {
      const cf = `constraints[${a}][${i}]`;
      const node = typeof c === 'number' ? g.constant(c) : s.parse(c, cf, { q: true }).node;
      A.push(node);
      Adot.push(s.within(cf, () => g.jvp([node], q, v)[0]!));
    });
  });
  return { symbols: s, L, ...parts, A, Adot, m: spec.oneForms.length };
}

type Vec = (out: Float64Array, q: Float64Array, v: Float64Array, p: Float64Array) => void;

/** The compiled functions of a model, built on first use and shared by its runs. */
interface LagrangeDiracFunctions {
  readonly L: (q: Float64Array, v: Float64Array, p: Float64Array) => number;
  readonly dLdq: Vec;
  readonly dLdv: Vec;
  readonly M: Vec;
  readonly N: Vec;
  readonly A: (out: Float64Array, q: Float64Array, p: Float64Array) => void;
  readonly Adot: Vec;
}

const compiled = new WeakMap<LagrangeDiracModel, LagrangeDiracFunctions>();

function functions(model: LagrangeDiracModel): LagrangeDiracFunctions {
  const known = compiled.get(model);
  if (known !== undefined) return known;
  const s = model.symbols;
  const { g, q, v, p } = s;
  const vec = (outputs: readonly SX[], name: string) =>
    compileSym(g, [q, v, p], outputs, { name }) as unknown as Vec;
  const f: LagrangeDiracFunctions = {
    ...s.within('lagrangian', () => ({
      L: compileSymScalar(g, [q, v, p], model.L, {
        name: 'L',
      }) as unknown as LagrangeDiracFunctions['L'],
      dLdq: vec(model.dLdq, 'dLdq'),
      dLdv: vec(model.dLdv, 'dLdv'),
      M: vec(model.M, 'M'),
      N: vec(model.N, 'N'),
    })),
    ...s.within('constraints', () => ({
      A: compileSym(g, [q, p], model.A, { name: 'A' }) as unknown as LagrangeDiracFunctions['A'],
      Adot: vec(model.Adot, 'Adot'),
    })),
  };
  compiled.set(model, f);
  return f;
}

/**
 * The library Lagrangian and distribution of a model for parameter values by internal name
 * (`ModelSymbols.values`): compiled functions (once per model) bound to the parameters.
 *
 * @example
 * ```ts
 * const model = analyzeLagrangeDirac(readModel(text, 'disk.json'));
 * const { L, Delta } = compileLagrangeDirac(model, model.symbols.values(request));
 * ```
 */
export function compileLagrangeDirac(
  model: LagrangeDiracModel,
  values: ReadonlyMap<string, number>,
): { L: Lagrangian; Delta: Distribution } {
  const { symbols: s, m } = model;
  const n = s.n;
  const p = s.parameters(values);
  const f = functions(model);
  const bind =
    (fn: Vec) =>
    (out: Float64Array, q: Float64Array, v: Float64Array): Float64Array => {
      fn(out, q, v, p);
      return out;
    };
  const L: Lagrangian = {
    n,
    L: (q, v) => f.L(q, v, p),
    Lq: bind(f.dLdq),
    Lv: bind(f.dLdv),
    Lvv: bind(f.M),
    Lvq: bind(f.N),
  };
  const Delta: Distribution = {
    n,
    m,
    A: (out, q) => {
      f.A(out, q, p);
      return out;
    },
    Adot: bind(f.Adot),
  };
  return { L, Delta };
}

/**
 * The runner of a Lagrange–Dirac model, with the series of the built-in Lagrange–Dirac systems:
 * `q`, the LdAP momentum `p`, `lambda`, the discrete energy E^±_d and `constraint`, the
 * velocity-level residual ‖A(c)(q_{k+1} − q_k)/h‖∞ of step k. A v0 outside Δ(q0) is reported as
 * a warning (the first step moves in Δ regardless).
 *
 * @example
 * ```ts
 * const runner = lagrangeDiracRunner(analyzeLagrangeDirac(readModel(text, 'disk.json')));
 * runner.simulate(request).series.map((s) => s.name); // ['q', 'p', 'lambda', 'energy', 'constraint']
 * ```
 */
export function lagrangeDiracRunner(model: LagrangeDiracModel): SystemRunner {
  return {
    simulate(request: SimulateRequest): SimulationOutput {
      const method = request.method;
      if (!isMethod(method)) throw new UsageError(`unknown method '${method}'`, '--method');
      const { symbols: sym } = model;
      const n = sym.n;
      const { L, Delta } = compileLagrangeDirac(model, sym.values(request));
      const q0 = requestVector(request.init, 'q0', '--init', n);
      const v0 = requestVector(request.init, 'v0', '--init', n);
      const warnings = initWarnings(Delta, q0, v0);
      const { h, steps, every } = request;
      // the library keeps k = 0, every, 2·every, … and the last state, as the contract asks
      const sol = integrateLagrangeDirac(L, Delta, method, { q0, v0 }, h, steps, {
        every,
        onFailure: 'return',
        ...(request.tol === undefined ? {} : { tol: request.tol }),
        ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
      });
      const out = lagrangeDiracOutput(sol);
      return { ...out, warnings: [...warnings, ...(out.warnings ?? [])] };
    },
  };
}

/** A warning when v0 ∉ Δ(q0), i.e. ‖A(q0)v0‖∞ > {@link INIT_CONSTRAINT_RTOL}·max(1, ‖A‖‖v0‖). */
function initWarnings(Delta: Distribution, q0: readonly number[], v0: readonly number[]): string[] {
  const { n, m } = Delta;
  const A = Delta.A(new Float64Array(m * n), Float64Array.from(q0));
  let worst = 0;
  let scale = 1;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += A[a * n + i]! * v0[i]!;
      scale = Math.max(scale, Math.abs(A[a * n + i]! * v0[i]!));
    }
    worst = Math.max(worst, Math.abs(s));
  }
  if (!(worst <= INIT_CONSTRAINT_RTOL * scale)) {
    return [
      `init: v0 is not in the constraint distribution at q0 (|A(q0)·v0| = ${worst.toExponential(3)}); the first step moves in it`,
    ];
  }
  return [];
}
