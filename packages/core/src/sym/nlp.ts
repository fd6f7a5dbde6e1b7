/**
 * The compiled functions of a nonlinear program min f(x; p) s.t. c(x; p) (= or ≤ bounds, the
 * solver's business): objective, gradient, constraints, constraint Jacobian and the Hessian of
 * the Lagrangian σ·f + Σᵢ yᵢ·cᵢ with σ and y given at run time (the interface of IPOPT's
 * `eval_h` and CasADi's `nlpsol`), all derived from the expressions by the graph's automatic
 * differentiation and compiled once.
 *
 * @module
 */
import { DomainError } from '../errors.js';
import {
  compileSym,
  compileSymScalar,
  type SymCompileOptions,
  type SymFunction,
  type SymScalarFunction,
} from './compile.js';
import type { SparsityPattern } from './derivatives.js';
import type { SX, SymGraph } from './graph.js';

/** The expressions of a nonlinear program (in one graph). */
export interface SymNlpSpec {
  /** The unknowns x (distinct symbols), n of them. */
  readonly variables: readonly SX[];
  /** The parameters p (symbols), fixed during a solve. */
  readonly parameters?: readonly SX[];
  /** f(x; p); 0 when absent. */
  readonly objective?: SX;
  /** c(x; p), m expressions; none when absent. */
  readonly constraints?: readonly SX[];
}

/** Options of {@link compileNlp}. */
export interface SymNlpOptions extends SymCompileOptions {
  /** Build and compile the Hessian of the Lagrangian (default true). */
  readonly hessian?: boolean;
}

/**
 * Compiled functions of an NLP. Arguments: `x` (length n), `p` (length of the parameters; any
 * Float64Array when there are none), `sigma` (a number) and `y` (length m). Layouts:
 * row-major dense matrices, or the values of the stored entries of a CSR pattern in its order.
 */
export interface CompiledSymNlp {
  /** Number of variables. */
  readonly n: number;
  /** Number of constraints. */
  readonly m: number;
  /** f(x; p). */
  objective(x: Float64Array, p: Float64Array): number;
  /** ∇f (length n). */
  gradient(out: Float64Array, x: Float64Array, p: Float64Array): void;
  /** c(x; p) (length m). */
  constraints(out: Float64Array, x: Float64Array, p: Float64Array): void;
  /** ∂c/∂x, dense m×n row-major: entry (i, j) at i·n + j. */
  jacobian(out: Float64Array, x: Float64Array, p: Float64Array): void;
  /** The structural nonzeros of ∂c/∂x (CSR, columns increasing in each row). */
  readonly jacobianPattern: SparsityPattern;
  /** The values of the entries of {@link jacobianPattern}, in its order (length nnz). */
  jacobianValues(out: Float64Array, x: Float64Array, p: Float64Array): void;
  /**
   * ∇²ₓₓ(σ·f + Σᵢ yᵢ·cᵢ), dense n×n row-major and symmetric (both triangles written).
   * @throws DomainError when compiled with `hessian: false`.
   */
  hessian(
    out: Float64Array,
    x: Float64Array,
    p: Float64Array,
    sigma: number,
    y: Float64Array,
  ): void;
  /** The structural nonzeros of the Hessian's lower triangle (col ≤ row, CSR). */
  readonly hessianPattern: SparsityPattern;
  /** The values of the entries of {@link hessianPattern}, in its order. */
  hessianValues(
    out: Float64Array,
    x: Float64Array,
    p: Float64Array,
    sigma: number,
    y: Float64Array,
  ): void;
}

const EMPTY_PATTERN = (rows: number, cols: number): SparsityPattern => ({
  rows,
  cols,
  nnz: 0,
  rowStart: new Int32Array(rows + 1),
  col: new Int32Array(0),
});

/**
 * Derives and compiles the functions of an NLP: ∇f by one reverse sweep, ∂c/∂x sparse (rows by
 * reverse or columns by forward sweeps), and the Hessian of L = σ·f + Σᵢ yᵢ·cᵢ forward-over-
 * reverse with σ and y as symbols, so one compiled function serves every multiplier. New symbols
 * and nodes are added to `g`.
 *
 * @throws DomainError for variables that are not distinct symbols.
 * @throws ComputeBudgetError when the graph's budgets run out.
 * @example
 * ```ts
 * const g = new SymGraph();
 * const x = g.symbols(2, 'x');
 * const [a] = g.symbols(1, 'a');
 * const o = g.ops;
 * const nlp = compileSymNlp(g, {
 *   variables: x, parameters: [a!],
 *   objective: o.add(o.mul(x[0]!, x[0]!), o.mul(a!, o.mul(x[1]!, x[1]!))),
 *   constraints: [o.sub(o.add(x[0]!, x[1]!), o.const(1))],
 * });
 * const H = new Float64Array(4);
 * nlp.hessian(H, Float64Array.of(0.3, 0.7), Float64Array.of(5), 1, Float64Array.of(2));
 * H; // [2, 0, 0, 10]
 * ```
 */
export function compileSymNlp(
  g: SymGraph,
  spec: SymNlpSpec,
  options: SymNlpOptions = {},
): CompiledSymNlp {
  const x = spec.variables;
  const p = spec.parameters ?? [];
  const f = spec.objective ?? g.constant(0);
  const c = spec.constraints ?? [];
  const n = x.length;
  const m = c.length;
  const name = options.name ?? 'nlp';
  const opts = (what: string): SymCompileOptions => ({
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    name: `${name} ${what}`,
  });
  const inputs = [x, p];
  const objective = compileSymScalar(g, inputs, f, opts('objective'));
  const gradient = compileSym(g, inputs, g.gradient(f, x), opts('gradient'));
  const constraints = compileSym(g, inputs, c, opts('constraints'));
  const J = g.jacobian(c, x);
  const jacobianValues = compileSym(g, inputs, J.values, opts('jacobian'));
  const jacobian = compileSym(g, inputs, g.dense(J), opts('jacobian'));
  let hessian: SymFunction | undefined;
  let hessianValues: SymFunction | undefined;
  let hessianPattern = EMPTY_PATTERN(n, n);
  if (options.hessian ?? true) {
    const sigma = g.symbol('sigma');
    const y = g.symbols(m, 'y');
    let L = g.mul(sigma, f);
    c.forEach((ci, i) => {
      L = g.add(L, g.mul(y[i]!, ci));
    });
    const H = g.hessian(L, x);
    hessianPattern = H.pattern;
    const hInputs = [x, p, sigma, y];
    hessianValues = compileSym(g, hInputs, H.values, opts('hessian'));
    hessian = compileSym(g, hInputs, g.dense(H), opts('hessian'));
  }
  const noHessian = (): never => {
    throw new DomainError(`${name}: hessian`, 'not compiled', 'compileNlp without hessian: false');
  };
  return bind(objective, {
    n,
    m,
    gradient,
    constraints,
    jacobian,
    jacobianValues,
    jacobianPattern: J.pattern,
    hessian: hessian ?? noHessian,
    hessianValues: hessianValues ?? noHessian,
    hessianPattern,
  });
}

function bind(
  objective: SymScalarFunction,
  parts: {
    n: number;
    m: number;
    gradient: SymFunction;
    constraints: SymFunction;
    jacobian: SymFunction;
    jacobianValues: SymFunction;
    jacobianPattern: SparsityPattern;
    hessian: SymFunction | (() => never);
    hessianValues: SymFunction | (() => never);
    hessianPattern: SparsityPattern;
  },
): CompiledSymNlp {
  const { gradient, constraints, jacobian, jacobianValues, hessian, hessianValues } = parts;
  return {
    n: parts.n,
    m: parts.m,
    objective: (x, p) => objective(x, p),
    gradient: (out, x, p) => gradient(out, x, p),
    constraints: (out, x, p) => constraints(out, x, p),
    jacobian: (out, x, p) => jacobian(out, x, p),
    jacobianPattern: parts.jacobianPattern,
    jacobianValues: (out, x, p) => jacobianValues(out, x, p),
    hessian: (out, x, p, sigma, y) => hessian(out, x, p, sigma, y),
    hessianPattern: parts.hessianPattern,
    hessianValues: (out, x, p, sigma, y) => hessianValues(out, x, p, sigma, y),
  };
}
