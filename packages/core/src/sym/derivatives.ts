/**
 * Automatic differentiation on a symbolic {@link SymGraph}, building the derivative graphs in the
 * same hash-consed graph (so they share nodes with the function and with each other):
 *
 * - forward mode ({@link jvp}): tangents ẋ ↦ Σⱼ ∂fᵢ/∂xⱼ ẋⱼ, one sweep over the nodes in increasing
 *   (topological) order, dot(u) = Σ_c ∂u/∂c · dot(c);
 * - reverse mode ({@link vjp}, {@link gradient}): adjoints w ↦ Σᵢ wᵢ ∂fᵢ/∂xⱼ, one sweep in
 *   decreasing order, adj(c) += adj(u) · ∂u/∂c (Griewank & Walther, *Evaluating Derivatives*,
 *   2nd ed., SIAM 2008, §3.1–3.2);
 * - sparse Jacobians ({@link jacobian}) by one reverse sweep per row or one forward sweep per
 *   column, each restricted to the nodes that depend on the seeded variable and feed the
 *   output (structural zeros are never built);
 * - Hessians ({@link hessian}) forward-over-reverse: the gradient graph by one reverse sweep,
 *   then its Jacobian by forward column sweeps; only the lower triangle j ≤ i is built, and column
 *   j visits only nodes that feed a gradient entry i ≥ j.
 *
 * Every sweep is linear in the nodes it visits; the visits are charged to the graph's work budget
 * and the new nodes to its node budget, so a derivative that would be too large fails with a
 * ComputeBudgetError instead of running away.
 *
 * @module
 */
import { DomainError } from '../errors.js';
import type { SX, SymGraph } from './graph.js';
import {
  isBinary,
  OP_ABS,
  OP_ACOS,
  OP_ACOSH,
  OP_ADD,
  OP_ASIN,
  OP_ASINH,
  OP_ATAN,
  OP_ATAN2,
  OP_ATANH,
  OP_CONST,
  OP_COS,
  OP_COSH,
  OP_DIV,
  OP_DIVZ,
  OP_EXP,
  OP_HYPOT,
  OP_LOG,
  OP_LOG10,
  OP_MUL,
  OP_NEG,
  OP_POW,
  OP_POWC,
  OP_SIGN,
  OP_SIN,
  OP_SINH,
  OP_SQRT,
  OP_STUMPFF,
  OP_SUB,
  OP_SYMBOL,
  OP_TAN,
  OP_TANH,
} from './opcodes.js';

/**
 * The structure of a sparse matrix in compressed sparse row form: the nonzeros of row i are
 * `col[rowStart[i]] … col[rowStart[i + 1] − 1]`, columns increasing. For a symmetric matrix only
 * the lower triangle (col ≤ row) is stored.
 */
export interface SparsityPattern {
  readonly rows: number;
  readonly cols: number;
  /** Number of stored entries. */
  readonly nnz: number;
  /** Row starts, length rows + 1. */
  readonly rowStart: Int32Array;
  /** Column of each stored entry, length nnz. */
  readonly col: Int32Array;
}

/** A sparse matrix of expressions: `values[k]` is the entry of the pattern's k-th nonzero. */
export interface SparseSX {
  readonly pattern: SparsityPattern;
  readonly values: readonly SX[];
  /** True when the matrix is symmetric and only its lower triangle is stored. */
  readonly symmetric: boolean;
}

/** w·∂u/∂(operand `which` of u), built in the graph. */
function chain(g: SymGraph, u: number, which: 0 | 1, w: SX): SX {
  const op = g.opOf(u);
  const a = g.argA(u);
  const b = g.argB(u);
  const U = u as SX;
  const one = (): SX => g.constant(1);
  switch (op) {
    case OP_ADD:
      return w;
    case OP_SUB:
      return which === 0 ? w : g.neg(w);
    case OP_MUL:
      return g.mul(w, which === 0 ? b : a);
    case OP_DIV: // ∂(a/b) = ȧ/b − (a/b)·ḃ/b
      return which === 0 ? g.div(w, b) : g.neg(g.mul(w, g.div(U, b)));
    case OP_POW: // ∂(aᵇ) = b·aᵇ⁻¹·ȧ + aᵇ·log a·ḃ
      return which === 0
        ? g.mul(w, g.mul(b, g.pow(a, g.sub(b, one()))))
        : g.mul(w, g.mul(U, g.unary(OP_LOG, a)));
    case OP_ATAN2: {
      // u = atan2(y = a, x = b): (x·ẏ − y·ẋ)/(x² + y²), zero at the origin (as DualOps)
      const r2 = g.add(g.mul(b, b), g.mul(a, a));
      return which === 0
        ? g.mul(w, g.binary(OP_DIVZ, b, r2))
        : g.neg(g.mul(w, g.binary(OP_DIVZ, a, r2)));
    }
    case OP_HYPOT: // (a·ȧ + b·ḃ)/hypot(a, b), zero at the origin
      return g.mul(w, g.binary(OP_DIVZ, which === 0 ? a : b, U));
    case OP_DIVZ: // a/b away from b = 0
      return which === 0 ? g.binary(OP_DIVZ, w, b) : g.neg(g.mul(w, g.binary(OP_DIVZ, U, b)));
    case OP_NEG:
      return g.neg(w);
    case OP_POWC: {
      const p = g.valueOf(u);
      const d = p === 2 ? g.mul(g.constant(2), a) : g.mul(g.constant(p), g.powc(a, p - 1));
      return g.mul(w, d);
    }
    case OP_SQRT:
      return g.mul(w, g.div(g.constant(0.5), U));
    case OP_EXP:
      return g.mul(w, U);
    case OP_LOG:
      return g.div(w, a);
    case OP_SIN:
      return g.mul(w, g.unary(OP_COS, a));
    case OP_COS:
      return g.neg(g.mul(w, g.unary(OP_SIN, a)));
    case OP_TAN:
      return g.mul(w, g.add(one(), g.mul(U, U)));
    case OP_ASIN:
      return g.div(w, g.unary(OP_SQRT, g.mul(g.sub(one(), a), g.add(one(), a))));
    case OP_ACOS:
      return g.neg(g.div(w, g.unary(OP_SQRT, g.mul(g.sub(one(), a), g.add(one(), a)))));
    case OP_ATAN:
      return g.div(w, g.add(one(), g.mul(a, a)));
    case OP_SINH:
      return g.mul(w, g.unary(OP_COSH, a));
    case OP_COSH:
      return g.mul(w, g.unary(OP_SINH, a));
    case OP_TANH: {
      const c = g.unary(OP_COSH, a);
      return g.div(w, g.mul(c, c));
    }
    case OP_ASINH:
      return g.div(w, g.unary(OP_SQRT, g.add(g.mul(a, a), one())));
    case OP_ACOSH:
      return g.div(w, g.unary(OP_SQRT, g.mul(g.sub(a, one()), g.add(a, one()))));
    case OP_ATANH:
      return g.div(w, g.mul(g.sub(one(), a), g.add(one(), a)));
    case OP_ABS:
      return g.mul(w, g.unary(OP_SIGN, a));
    case OP_SIGN:
      return g.constant(0);
    case OP_LOG10:
      return g.div(w, g.mul(a, g.constant(Math.LN10)));
    case OP_STUMPFF: {
      // d c_k/dt = (k·c_{k+2} − c_{k+1})/2
      const k = b as number;
      const d =
        k === 0
          ? g.mul(g.constant(-0.5), g.stumpff(1, a))
          : g.mul(
              g.constant(0.5),
              g.sub(g.mul(g.constant(k), g.stumpff(k + 2, a)), g.stumpff(k + 1, a)),
            );
      return g.mul(w, d);
    }
    default:
      throw new Error(`sym: no derivative of operation ${op}`);
  }
}

/**
 * w·(∂u/∂a + ∂u/∂b) for a binary u whose operands are one node a, as one term: a·a gives
 * w·(2a), a + a gives 2w (equal, to the last bit, to the sum of the two chain terms, since
 * doubling is exact); undefined for the other operations.
 */
function chainSame(g: SymGraph, u: number, w: SX): SX | undefined {
  const op = g.opOf(u);
  if (op === OP_MUL) return g.mul(w, g.mul(g.constant(2), g.argA(u)));
  if (op === OP_ADD) return g.mul(g.constant(2), w);
  return undefined;
}

/** Checks that `wrt` are distinct symbols of `g`. */
function checkSymbols(g: SymGraph, wrt: readonly SX[], what: string): void {
  const seen = new Set<number>();
  for (const x of wrt) {
    g.check(x, what);
    if (!g.isSymbol(x)) throw new DomainError(what, g.format(x, 40), 'symbols only');
    if (seen.has(x)) throw new DomainError(what, g.format(x, 40), 'distinct symbols');
    seen.add(x);
  }
}

/** Per-node slots valid for one stamp: values of a sweep without clearing between sweeps. */
class Slots {
  readonly stamps: Int32Array;
  readonly values: Int32Array;
  stamp = 0;
  constructor(size: number) {
    this.stamps = new Int32Array(size);
    this.values = new Int32Array(size);
  }
  next(): void {
    this.stamp++;
  }
  has(u: number): boolean {
    return this.stamps[u] === this.stamp;
  }
  get(u: number): SX {
    return this.values[u]! as SX;
  }
  set(u: number, x: SX): void {
    this.stamps[u] = this.stamp;
    this.values[u] = x;
  }
}

/**
 * Reverse sweep over `cone` (increasing ids) with the adjoints seeded in `adj`: accumulates
 * adj(c) += adj(u)·∂u/∂c over the nodes that depend on a symbol marked in `active`.
 */
function reverseSweep(g: SymGraph, cone: Int32Array, active: Slots, adj: Slots): void {
  // activity: a node is active when an operand is (symbols were marked by the caller)
  for (let i = 0; i < cone.length; i++) {
    const u = cone[i]!;
    const op = g.opOf(u);
    if (op === OP_CONST || op === OP_SYMBOL) continue;
    if (active.has(g.argA(u)) || (isBinary(op) && active.has(g.argB(u)))) active.set(u, 1 as SX);
  }
  for (let i = cone.length - 1; i >= 0; i--) {
    const u = cone[i]!;
    if (!adj.has(u) || !active.has(u)) continue;
    const op = g.opOf(u);
    if (op === OP_CONST || op === OP_SYMBOL) continue;
    const w = adj.get(u);
    const a = g.argA(u);
    if (isBinary(op) && g.argB(u) === a) {
      const once = chainSame(g, u, w);
      if (once !== undefined) {
        accumulate(g, adj, a, once);
        continue;
      }
    }
    if (active.has(a)) accumulate(g, adj, a, chain(g, u, 0, w));
    if (isBinary(op)) {
      const b = g.argB(u);
      if (active.has(b)) accumulate(g, adj, b, chain(g, u, 1, w));
    }
  }
  g.charge(cone.length);
}

function accumulate(g: SymGraph, slots: Slots, c: number, x: SX): void {
  if (g.isZero(x)) return;
  slots.set(c, slots.has(c) ? g.add(slots.get(c), x) : x);
}

/**
 * Reverse mode: the vector-Jacobian product Σᵢ wᵢ·∂fᵢ/∂xⱼ for j = 1 … n, as expressions. One sweep
 * over the graph of `outputs`; the weights are expressions too (constants or symbols).
 *
 * @throws DomainError when `wrt` are not distinct symbols or the lengths differ.
 */
export function vjp(
  g: SymGraph,
  outputs: readonly SX[],
  wrt: readonly SX[],
  weights: readonly SX[],
): SX[] {
  if (weights.length !== outputs.length) {
    throw new DomainError('vjp: weights', weights.length, `${outputs.length} (one per output)`);
  }
  checkSymbols(g, wrt, 'vjp: wrt');
  for (const w of weights) g.check(w, 'vjp: weight');
  const size = g.size;
  const cone = g.cone(outputs);
  const active = new Slots(size);
  const adj = new Slots(size);
  active.next();
  adj.next();
  for (const x of wrt) active.set(x, 1 as SX);
  outputs.forEach((f, i) => {
    accumulate(g, adj, f, weights[i]!);
  });
  reverseSweep(g, cone, active, adj);
  return wrt.map((x) => (adj.has(x) ? adj.get(x) : g.constant(0)));
}

/**
 * Forward mode: the Jacobian-vector product Σⱼ ∂fᵢ/∂xⱼ·ẋⱼ for every output, as expressions. One
 * sweep over the graph of `outputs`; the seeds ẋ are expressions too (e.g. velocity symbols, for
 * directional derivatives along them).
 *
 * @throws DomainError when `wrt` are not distinct symbols or the lengths differ.
 */
export function jvp(
  g: SymGraph,
  outputs: readonly SX[],
  wrt: readonly SX[],
  seeds: readonly SX[],
): SX[] {
  if (seeds.length !== wrt.length) {
    throw new DomainError('jvp: seeds', seeds.length, `${wrt.length} (one per variable)`);
  }
  checkSymbols(g, wrt, 'jvp: wrt');
  for (const s of seeds) g.check(s, 'jvp: seed');
  const size = g.size;
  const cone = g.cone(outputs);
  const dot = new Slots(size);
  dot.next();
  wrt.forEach((x, j) => {
    if (!g.isZero(seeds[j]!)) dot.set(x, seeds[j]!);
  });
  forwardSweep(g, cone, dot);
  return outputs.map((f) => (dot.has(f) ? dot.get(f) : g.constant(0)));
}

/** dot(u) = Σ_c ∂u/∂c·dot(c) over `nodes` in increasing order (leaves keep their seeds). */
function forwardSweep(g: SymGraph, nodes: Int32Array | readonly number[], dot: Slots): void {
  for (let i = 0; i < nodes.length; i++) {
    const u = nodes[i]!;
    const op = g.opOf(u);
    if (op === OP_CONST || op === OP_SYMBOL) continue;
    const a = g.argA(u);
    if (isBinary(op) && g.argB(u) === a && dot.has(a)) {
      const once = chainSame(g, u, dot.get(a));
      if (once !== undefined) {
        if (!g.isZero(once)) dot.set(u, once);
        continue;
      }
    }
    let d = dot.has(a) ? chain(g, u, 0, dot.get(a)) : (-1 as SX);
    if (isBinary(op)) {
      const b = g.argB(u);
      if (dot.has(b)) {
        const c = chain(g, u, 1, dot.get(b));
        d = d === -1 ? c : g.add(d, c);
      }
    }
    if (d !== -1 && !g.isZero(d)) dot.set(u, d);
  }
  g.charge(nodes.length);
}

/**
 * The gradient ∇f with respect to `wrt` (reverse mode, one sweep), as expressions.
 */
export function gradient(g: SymGraph, f: SX, wrt: readonly SX[]): SX[] {
  return vjp(g, [f], wrt, [g.constant(1)]);
}

/** Builds a CSR pattern from per-row column lists (columns increasing). */
function csr(rows: number, cols: number, perRow: number[][], perRowValues: SX[][]): SparseSX {
  const rowStart = new Int32Array(rows + 1);
  for (let i = 0; i < rows; i++) rowStart[i + 1] = rowStart[i]! + perRow[i]!.length;
  const nnz = rowStart[rows]!;
  const col = new Int32Array(nnz);
  const values: SX[] = new Array<SX>(nnz);
  for (let i = 0; i < rows; i++) {
    const start = rowStart[i]!;
    perRow[i]!.forEach((j, k) => {
      col[start + k] = j;
      values[start + k] = perRowValues[i]![k]!;
    });
  }
  return { pattern: { rows, cols, nnz, rowStart, col }, values, symmetric: false };
}

/** Jacobian rows by reverse sweeps, one per output. */
function jacobianRows(g: SymGraph, outputs: readonly SX[], wrt: readonly SX[]): SparseSX {
  const size = g.size;
  const active = new Slots(size);
  const adj = new Slots(size);
  const perRow: number[][] = [];
  const perRowValues: SX[][] = [];
  for (const f of outputs) {
    const cone = g.cone([f]);
    active.next();
    adj.next();
    for (const x of wrt) active.set(x, 1 as SX);
    adj.set(f, g.constant(1));
    reverseSweep(g, cone, active, adj);
    const cols: number[] = [];
    const vals: SX[] = [];
    wrt.forEach((x, j) => {
      if (adj.has(x) && !g.isZero(adj.get(x))) {
        cols.push(j);
        vals.push(adj.get(x));
      }
    });
    perRow.push(cols);
    perRowValues.push(vals);
  }
  return csr(outputs.length, wrt.length, perRow, perRowValues);
}

/**
 * Jacobian columns by forward sweeps, one per variable, over the nodes that depend on it; with
 * `lower`, column j builds only rows i ≥ j and skips nodes that feed no such row.
 */
function jacobianColumns(
  g: SymGraph,
  outputs: readonly SX[],
  wrt: readonly SX[],
  lower: boolean,
): SparseSX {
  const m = outputs.length;
  const size = g.size;
  const reach = g.cone(outputs);
  // users of each reachable node (CSR over node ids)
  const userStart = new Int32Array(size + 1);
  for (let i = 0; i < reach.length; i++) {
    const u = reach[i]!;
    const op = g.opOf(u);
    if (op === OP_CONST || op === OP_SYMBOL) continue;
    userStart[g.argA(u) + 1]!++;
    if (isBinary(op) && g.argB(u) !== g.argA(u)) userStart[g.argB(u) + 1]!++;
  }
  for (let i = 0; i < size; i++) userStart[i + 1]! += userStart[i]!;
  const users = new Int32Array(userStart[size]!);
  const fill = userStart.slice(0, size);
  for (let i = 0; i < reach.length; i++) {
    const u = reach[i]!;
    const op = g.opOf(u);
    if (op === OP_CONST || op === OP_SYMBOL) continue;
    const a = g.argA(u);
    users[fill[a]!++] = u;
    if (isBinary(op) && g.argB(u) !== a) users[fill[g.argB(u)]!++] = u;
  }
  // the largest output row each node feeds (for the lower triangle)
  const maxRow = new Int32Array(size).fill(-1);
  outputs.forEach((f, i) => {
    if (i > maxRow[f]!) maxRow[f] = i;
  });
  for (let i = reach.length - 1; i >= 0; i--) {
    const u = reach[i]!;
    const r = maxRow[u]!;
    const op = g.opOf(u);
    if (r < 0 || op === OP_CONST || op === OP_SYMBOL) continue;
    const a = g.argA(u);
    if (r > maxRow[a]!) maxRow[a] = r;
    if (isBinary(op)) {
      const b = g.argB(u);
      if (r > maxRow[b]!) maxRow[b] = r;
    }
  }
  g.charge(2 * reach.length);

  const perRow: number[][] = outputs.map(() => []);
  const perRowValues: SX[][] = outputs.map(() => []);
  const seen = new Slots(size);
  const dot = new Slots(size);
  const stack: number[] = [];
  wrt.forEach((x, j) => {
    const minRow = lower ? j : 0;
    if (maxRow[x]! < minRow) return;
    seen.next();
    dot.next();
    // the nodes depending on x that feed a row ≥ minRow
    const cone: number[] = [x];
    seen.set(x, 1 as SX);
    stack.push(x);
    while (stack.length > 0) {
      const u = stack.pop()!;
      for (let k = userStart[u]!; k < userStart[u + 1]!; k++) {
        const v = users[k]!;
        if (seen.has(v) || maxRow[v]! < minRow) continue;
        seen.set(v, 1 as SX);
        cone.push(v);
        stack.push(v);
      }
    }
    cone.sort((p, q) => p - q);
    dot.set(x, g.constant(1));
    forwardSweep(g, cone, dot);
    for (let i = minRow; i < m; i++) {
      const f = outputs[i]!;
      if (dot.has(f)) {
        perRow[i]!.push(j);
        perRowValues[i]!.push(dot.get(f));
      }
    }
  });
  return csr(m, wrt.length, perRow, perRowValues);
}

/**
 * The Jacobian ∂fᵢ/∂xⱼ as a sparse matrix of expressions (structural zeros are not stored). By
 * reverse sweeps over the rows when there are no more outputs than variables, else by forward
 * sweeps over the columns (`mode` forces one).
 *
 * @throws DomainError when `wrt` are not distinct symbols.
 */
export function jacobian(
  g: SymGraph,
  outputs: readonly SX[],
  wrt: readonly SX[],
  mode: 'auto' | 'forward' | 'reverse' = 'auto',
): SparseSX {
  checkSymbols(g, wrt, 'jacobian: wrt');
  for (const f of outputs) g.check(f, 'jacobian: output');
  const reverse = mode === 'reverse' || (mode === 'auto' && outputs.length <= wrt.length);
  return reverse ? jacobianRows(g, outputs, wrt) : jacobianColumns(g, outputs, wrt, false);
}

/**
 * The Hessian ∂²f/∂xᵢ∂xⱼ, forward-over-reverse: the gradient by one reverse sweep, then the lower
 * triangle (j ≤ i) of its Jacobian by forward sweeps. Returned with `symmetric: true`.
 *
 * @throws DomainError when `wrt` are not distinct symbols.
 */
export function hessian(g: SymGraph, f: SX, wrt: readonly SX[]): SparseSX {
  const grad = gradient(g, f, wrt);
  return { ...jacobianColumns(g, grad, wrt, true), symmetric: true };
}

/**
 * The dense row-major matrix of a sparse one (zeros as the constant 0; a symmetric matrix is
 * mirrored from its lower triangle).
 */
export function dense(g: SymGraph, s: SparseSX): SX[] {
  const { rows, cols, rowStart, col } = s.pattern;
  const zero = g.constant(0);
  const out: SX[] = new Array<SX>(rows * cols).fill(zero);
  for (let i = 0; i < rows; i++) {
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!;
      out[i * cols + j] = s.values[k]!;
      if (s.symmetric) out[j * cols + i] = s.values[k]!;
    }
  }
  return out;
}
