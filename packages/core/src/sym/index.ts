/**
 * Symbolic scalar graphs with automatic differentiation and code generation (CasADi SX style):
 * trace generic `ScalarOps` functions into a hash-consed graph, differentiate it (forward and
 * reverse mode, sparse Jacobians, Hessians), and compile the results once into flat functions
 * over Float64Arrays. Exported from `@geomech/core` as the namespace `sym`.
 *
 * @example
 * ```ts
 * import { sym } from '@geomech/core';
 * const g = new sym.Graph();
 * const x = g.symbols(2, 'x');
 * const o = g.ops;
 * const f = o.add(o.mul(x[0]!, x[0]!), o.sin(x[1]!));
 * const grad = sym.compile(g, [x], g.gradient(f, x));
 * const out = new Float64Array(2);
 * grad(out, Float64Array.of(3, 0)); // [6, 1]
 * ```
 *
 * @module
 */
export {
  type CompileOptions,
  canGenerateCode,
  compile,
  compiledSource,
  compileScalar,
  SYM_JS_CHUNK,
  SYM_JS_MAX_OPERATIONS,
  SYM_MAX_INPUTS,
  type SymArgument,
  type SymFunction,
  type SymInput,
  type SymScalarFunction,
} from './compile.js';
export type { SparseSX, SparsityPattern } from './derivatives.js';
export { ComputeBudgetError, SymbolicValueError } from './errors.js';
export {
  Graph,
  type GraphOptions,
  type SX,
  SYM_DEFAULT_MAX_NODES,
  SYM_DEFAULT_MAX_WORK,
  type SymOps,
  type SymUnaryName,
} from './graph.js';
export { type CompiledNlp, compileNlp, type NlpOptions, type NlpSpec } from './nlp.js';
export {
  STUMPFF_MAX_ORDER,
  stumpff,
  stumpffDerivative,
  stumpffSeriesRadius,
} from './stumpff.js';
