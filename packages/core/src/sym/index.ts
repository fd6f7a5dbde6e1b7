/**
 * Symbolic scalar graphs with automatic differentiation and code generation (CasADi SX style):
 * trace generic `ScalarOps` functions into a hash-consed graph ({@link SymGraph}), differentiate
 * it (forward and reverse mode, sparse Jacobians, Hessians), and compile the results once into
 * flat functions over Float64Arrays ({@link compileSym}, {@link compileSymNlp}).
 *
 * @example
 * ```ts
 * import { SymGraph, compileSym } from '@geomech/core';
 * const g = new SymGraph();
 * const x = g.symbols(2, 'x');
 * const o = g.ops;
 * const f = o.add(o.mul(x[0]!, x[0]!), o.sin(x[1]!));
 * const grad = compileSym(g, [x], g.gradient(f, x));
 * const out = new Float64Array(2);
 * grad(out, Float64Array.of(3, 0)); // [6, 1]
 * ```
 *
 * @module
 */
export {
  canGenerateCode,
  compileSym,
  compileSymScalar,
  SYM_JS_CHUNK,
  SYM_JS_MAX_OPERATIONS,
  SYM_MAX_INPUTS,
  type SymArgument,
  type SymCompileOptions,
  type SymFunction,
  type SymInput,
  type SymScalarFunction,
  symSource,
} from './compile.js';
export type { SparseSX, SparsityPattern } from './derivatives.js';
export { ComputeBudgetError, SymbolicValueError } from './errors.js';
export {
  type SX,
  SYM_DEFAULT_MAX_NODES,
  SYM_DEFAULT_MAX_WORK,
  SymGraph,
  type SymGraphOptions,
  type SymOps,
  type SymUnaryName,
} from './graph.js';
export {
  type CompiledSymNlp,
  compileSymNlp,
  type SymNlpOptions,
  type SymNlpSpec,
} from './nlp.js';
export {
  STUMPFF_MAX_ORDER,
  stumpff,
  stumpffDerivative,
  stumpffSeriesRadius,
  stumpffTo,
} from './stumpff.js';
