/**
 * Typed errors of the symbolic graphs (`SymGraph`): a budget exhausted while building, differentiating
 * or compiling, and a numeric value asked of a symbolic expression while tracing.
 *
 * @module
 */
import { GeomechError, type GeomechErrorTag } from '../errors.js';

/**
 * A symbolic computation reached its budget: `resource` is `'nodes'` (the number of distinct
 * nodes in the graph, checked whenever a node is created) or `'work'` (node visits of the
 * differentiation and compilation sweeps, cumulative over the graph's life). Thrown before the
 * work or memory grows further, so an oversized expression fails fast instead of hanging.
 *
 * @example
 * ```ts
 * const g = new SymGraph({ maxNodes: 10 });
 * const [x] = g.symbols(1);
 * let y = x!;
 * for (let i = 0; i < 20; i++) y = g.ops.sin(y); // throws ComputeBudgetError { resource: 'nodes', budget: 10, count: 11 }
 * ```
 */
export class ComputeBudgetError extends GeomechError {
  override name: GeomechErrorTag = 'ComputeBudgetError';
  constructor(
    /** Which budget ran out. */
    readonly resource: 'nodes' | 'work',
    /** The budget. */
    readonly budget: number,
    /** The count that exceeded it. */
    readonly count: number,
  ) {
    super(
      `symbolic ${resource === 'nodes' ? 'graph' : 'work'} exceeds its budget of ${budget} ${
        resource === 'nodes' ? 'nodes' : 'node visits'
      } (reached ${count})`,
    );
  }
}

/**
 * `value(x)` was asked of a symbolic expression that is not a constant: a traced function cannot
 * branch on the values of its inputs. Write the function branch-free (the smooth primitives such
 * as `stumpff` replace the usual `θ < ε ? series : closed form` switches).
 *
 * @example
 * ```ts
 * const g = new SymGraph();
 * const [x] = g.symbols(1);
 * g.ops.value(g.ops.const(2)); // 2
 * g.ops.value(x!);             // throws SymbolicValueError
 * ```
 */
export class SymbolicValueError extends GeomechError {
  override name: GeomechErrorTag = 'SymbolicValueError';
  constructor(
    /** A short rendering of the expression. */
    readonly expression: string,
  ) {
    super(
      `value() of the symbolic expression ${expression}: a traced function cannot branch on its inputs' values`,
    );
  }
}
