/**
 * Lagrange–Dirac models (`"kind": "lagrange-dirac"`): a Lagrangian L(q, q̇) and m constraint
 * one-forms ωᵃ = Σᵢ aᵃᵢ(q) dqᵢ, i.e. the distribution Δ(q) = ker A(q) of Σᵢ aᵃᵢ(q) q̇ᵢ = 0
 * (nonholonomic, or holonomic in differential form), integrated by the (±)-discrete
 * Lagrange–Dirac methods `dirac-plus` (left-rectangle L_d) and `dirac-minus` (right-rectangle
 * L_d) of spec 000 §8 (Thm 6.8, (53)/(54)) through `integrateLagrangeDirac`, as the built-in
 * `rolling-disk` and `heisenberg` systems.
 *
 * The library's Lagrangian interface takes any L(q, v) with ∂L/∂q, ∂L/∂v, M = ∂²L/∂v² and
 * N = ∂²L/∂v∂q, so L needs no mechanical form here: all four are compiled from mathjs
 * derivatives (M symmetric by construction), and Ȧ = Σₖ (∂A/∂qₖ) q̇ₖ from the derivatives of the
 * coefficients.
 *
 * @module
 */
import {
  type Distribution,
  integrateLagrangeDirac,
  type LagrangeDiracMethodName,
  type Lagrangian,
  lagrangeDiracMethods,
} from '@geomech/dirac';
import { ConstantNode, type MathNode, OperatorNode, SymbolNode } from 'mathjs';
import { UsageError } from '../errors.js';
import {
  requestVector,
  type SimulateRequest,
  type SimulationOutput,
  type SystemRunner,
} from '../runner.js';
import { lagrangeDiracOutput } from '../systems/lagrangeDirac.js';
import { assignments, compile, isNumber } from './expressions.js';
import type { ModelSpec } from './parse.js';
import { ModelSymbols } from './symbols.js';

/** The library's method names are the CLI's. */
const isMethod = (name: string): name is LagrangeDiracMethodName =>
  Object.hasOwn(lagrangeDiracMethods, name);

/** Relative size of A(q0)·v0 above which the initial velocity is reported as outside Δ(q0). */
const INIT_CONSTRAINT_RTOL = 1e-9;

/** A checked and differentiated Lagrange–Dirac model (trees in internal names). */
export interface LagrangeDiracModel {
  readonly symbols: ModelSymbols;
  readonly L: MathNode;
  readonly dLdq: readonly MathNode[];
  readonly dLdv: readonly MathNode[];
  /** M = ∂²L/∂v², row-major n×n, symmetric. */
  readonly M: readonly MathNode[];
  /** N_ij = ∂²L/∂vᵢ∂qⱼ. */
  readonly N: readonly MathNode[];
  /** A(q), row-major m×n. */
  readonly A: readonly MathNode[];
  /** Ȧ(q, v) = Σₖ (∂A/∂qₖ) vₖ, row-major m×n. */
  readonly Adot: readonly MathNode[];
  readonly m: number;
}

/** Σₖ dₖ·vₖ over the nonzero dₖ, as a tree (0 when all vanish). */
function directional(terms: readonly MathNode[], v: readonly string[]): MathNode {
  const parts: MathNode[] = [];
  terms.forEach((d, k) => {
    if (!isNumber(d, 0)) parts.push(new OperatorNode('*', 'multiply', [d, new SymbolNode(v[k]!)]));
  });
  if (parts.length === 0) return new ConstantNode(0);
  return parts.length === 1 ? parts[0]! : new OperatorNode('+', 'add', parts);
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
  const sym = new ModelSymbols(spec);
  const { n, q, v } = sym;
  const field = 'lagrangian';
  const L = sym.parse(spec.lagrangian, field, { q: true, v: true }).node;
  const dLdq = q.map((qi) => sym.d(L, qi, field));
  const dLdv = v.map((vi) => sym.d(L, vi, field));
  const M = new Array<MathNode>(n * n);
  const N = new Array<MathNode>(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (j >= i) {
        const d = sym.d(dLdv[i]!, v[j]!, field);
        M[i * n + j] = d;
        M[j * n + i] = d;
      }
      N[i * n + j] = sym.d(dLdv[i]!, q[j]!, field);
    }
  }
  const A: MathNode[] = [];
  const Adot: MathNode[] = [];
  spec.oneForms.forEach((row, a) => {
    row.forEach((c, i) => {
      const cf = `constraints[${a}][${i}]`;
      const node = typeof c === 'number' ? new ConstantNode(c) : sym.parse(c, cf, { q: true }).node;
      A.push(node);
      Adot.push(
        directional(
          q.map((qk) => sym.d(node, qk, cf)),
          v,
        ),
      );
    });
  });
  return { symbols: sym, L, dLdq, dLdv, M, N, A, Adot, m: spec.oneForms.length };
}

/**
 * The library Lagrangian and distribution of a model for parameter values by internal name
 * (`ModelSymbols.values`): generated functions, compiled once.
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
  const { symbols: sym, m } = model;
  const n = sym.n;
  const bindings = sym.bindings(values, { q: 'q', v: 'v' });
  type Vec = (out: Float64Array, q: Float64Array, v: Float64Array) => Float64Array;
  const lag = sym.origin('lagrangian');
  const vector = (nodes: readonly MathNode[], field = lag): Vec =>
    compile<Vec>(
      ['out', 'q', 'v'],
      bindings,
      field,
      (e) => `${assignments(e, 'out', nodes)}return out;\n`,
    );
  const L: Lagrangian = {
    n,
    L: compile<(q: Float64Array, v: Float64Array) => number>(['q', 'v'], bindings, lag, (e) => {
      return `return ${e.expression(model.L)};\n`;
    }),
    Lq: vector(model.dLdq),
    Lv: vector(model.dLdv),
    Lvv: vector(model.M),
    Lvq: vector(model.N),
  };
  const cons = sym.origin('constraints');
  const Delta: Distribution = {
    n,
    m,
    A: compile<(out: Float64Array, q: Float64Array) => Float64Array>(
      ['out', 'q'],
      bindings,
      cons,
      (e) => {
        return `${assignments(e, 'out', model.A)}return out;\n`;
      },
    ),
    Adot: vector(model.Adot, cons),
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
