/**
 * The Newton matrix of a forced constrained step (internal; not re-exported from `index.ts`):
 *
 * ```
 * [ A   B ]   A = n×n (M − W for the Dirac step, M/h − W for RATTLE's position stage),
 * [ Cr  0 ]   B = n×m (Cᵀ, −(h/2)C(q_k)ᵀ), Cr = m×n (C, s·C(q_{k+1}))
 * ```
 *
 * with W = w⁻·∂F̄/∂q_{k+1} the derivative of the discrete force. For a chain (a system `band` and a
 * force whose Jacobians have a declared half-bandwidth, {@link BandedForce}) the unknowns are
 * ordered so that each λ_a follows the last column of its constraint row (for the Ziegler column:
 * x_i, y_i, λ_i joint by joint), which makes the bordered matrix a band matrix with a half-bandwidth
 * independent of n, factored by core's {@link BandLU} with partial pivoting: O(n) per Newton
 * iteration instead of the dense O(n³). Without a band it is a dense (n + m)² matrix and core's
 * {@link DenseLU}. Also the grouped central differences of ∂F̄/∂q_{k+1} for a banded force (Curtis,
 * Powell & Reid 1974): columns j ≡ g (mod 2k + 1) are perturbed together, since row i of F̄ depends
 * only on the columns within k of i, so 2(2k + 1) evaluations of F give the whole band, O(n).
 *
 * @module
 */
import {
  BandLU,
  BandMatrix,
  CENTRAL_DIFFERENCE_STEP,
  DenseLU,
  type DiscreteForce,
  DomainError,
  type Force,
  type NewtonLinearSolver,
} from '@geomech/core';
import type { ConstraintBand } from './constrained.js';

/**
 * A force whose Jacobians ∂F/∂q and ∂F/∂v vanish outside |i − j| ≤ `jacobianBandwidth` (a chain's
 * joint damping: `zieglerColumn({ damping }).force` has 5). The banded (chain) Dirac and RATTLE
 * steps then solve a forced step in O(n): ∂f_d⁻/∂q_{k+1} by grouped central differences (2(2k + 1)
 * evaluations of F) and a banded bordered Newton matrix. A force without it takes the dense
 * Jacobian (correct, O(n³)).
 *
 * @example
 * ```ts
 * const force = zieglerColumn({ n: 4, damping: 0.1 }).force as BandedForce;
 * force.jacobianBandwidth; // 5: joint i's force depends on joints i − 2 … i + 2
 * ```
 */
export interface BandedForce extends Force {
  /** Half-bandwidth k of ∂F/∂q and ∂F/∂v (an integer ≥ 0). */
  readonly jacobianBandwidth: number;
}

/** The declared half-bandwidth of a force's Jacobians, or −1 (none; dense Jacobians). */
export function forceBandwidth(force: Force, n: number): number {
  const k = (force as Partial<BandedForce>).jacobianBandwidth;
  if (k === undefined) return -1;
  if (!Number.isInteger(k) || k < 0)
    throw new DomainError('force.jacobianBandwidth', k, 'must be an integer ≥ 0');
  return Math.min(k, n - 1);
}

/**
 * The bordered matrix of a forced step (module doc), dense or banded; owns its scratch. A
 * {@link NewtonLinearSolver} of the n + m unknowns for core's `NewtonSolver` (option
 * `linearSolver`): the Jacobian callback fills it with {@link set} (after {@link clear}), the
 * solver factors and solves it (zero pivot only; no κ estimate).
 */
export class BorderedMatrix implements NewtonLinearSolver {
  /** Number of unknowns n_q + m (the Newton solver's size). */
  readonly n: number;
  /** Size of the A block (q̃ or q_{k+1}). */
  readonly nq: number;
  /** Number of multipliers. */
  readonly m: number;
  /** The stored matrix: band rows (banded path) or dense row-major (n + m)². */
  readonly matrix: Float64Array;
  /** Row/column of unknown i (q̃ or q_{k+1} first, then λ) in the stored matrix. */
  readonly pos: Int32Array;
  /** Half-bandwidth of the A block (−1: dense). */
  readonly kA: number;
  private readonly bm: BandMatrix | null;
  private readonly blu: BandLU | null;
  private readonly dm: Float64Array;
  private readonly dlu: DenseLU | null;
  private readonly tmp: Float64Array;

  /**
   * @param band - the system's constraint band, or null (dense storage).
   * @param kA - half-bandwidth of A (the force's and M's), or −1 for a dense A (dense storage).
   */
  constructor(n: number, m: number, band: ConstraintBand | null, kA: number) {
    this.nq = n;
    this.m = m;
    const N = n + m;
    this.n = N;
    this.pos = new Int32Array(N);
    this.tmp = new Float64Array(N);
    const banded = band !== null && kA >= 0;
    this.kA = banded ? kA : -1;
    if (!banded) {
      for (let i = 0; i < N; i++) this.pos[i] = i;
      this.bm = null;
      this.blu = null;
      this.dm = new Float64Array(N * N);
      this.dlu = new DenseLU(Math.max(N, 1));
      this.matrix = this.dm;
      return;
    }
    // λ_a right after the last column of row a (rows sorted by `first`, so the order is kept)
    const { width, first } = band;
    let p = 0;
    let a = 0;
    for (let j = 0; j < n; j++) {
      this.pos[j] = p++;
      while (a < m && Math.min(n - 1, first[a]! + width - 1) <= j) this.pos[n + a++] = p++;
    }
    while (a < m) this.pos[n + a++] = p++;
    // half-bandwidth: A within kA, and λ_a against the columns of row a
    let k = 0;
    for (let j = 0; j < n; j++) {
      const j1 = Math.min(n - 1, j + kA);
      k = Math.max(k, Math.abs(this.pos[j1]! - this.pos[j]!));
    }
    for (let r = 0; r < m; r++) {
      const j0 = Math.max(0, first[r]!);
      const j1 = Math.min(n - 1, first[r]! + width - 1);
      const pr = this.pos[n + r]!;
      k = Math.max(k, Math.abs(pr - this.pos[j0]!), Math.abs(pr - this.pos[j1]!));
    }
    this.bm = new BandMatrix(N, k, k);
    this.blu = new BandLU(N, k, k);
    this.matrix = this.bm.rowBand;
    this.dm = new Float64Array(0);
    this.dlu = null;
  }

  /** Zeroes the matrix. */
  clear(): void {
    if (this.bm !== null) this.bm.clear();
    else this.dm.fill(0);
  }

  /** Entry (i, j) of unknowns i, j ← v (must be a structural nonzero on the banded path). */
  set(i: number, j: number, v: number): void {
    const pi = this.pos[i]!;
    const pj = this.pos[j]!;
    const bm = this.bm;
    // band storage written directly (BandMatrix.set builds its error context string per call);
    // the half-bandwidth covers every structural nonzero (constructor)
    if (bm !== null) bm.rowBand[pi * bm.rowWidth + pj - pi + bm.kl] = v;
    else this.dm[pi * this.n + pj] = v;
  }

  /** Factors the matrix; false at an exactly zero pivot (singular). */
  factor(): boolean {
    if (this.blu !== null) return !this.blu.factor(this.bm!).isSingular;
    return !this.dlu!.factor(this.dm).isSingular;
  }

  /** No κ estimate (the forced steps stop at a zero pivot only): false. */
  estimateCondition(): boolean {
    return false;
  }

  /** NaN: no κ estimate. */
  readonly condition = Number.NaN;

  /** x ← J⁻¹x (x in the unknowns' order, length n + m). */
  solve(x: Float64Array): void {
    const { pos, tmp, n: N } = this;
    for (let i = 0; i < N; i++) tmp[pos[i]!] = x[i]!;
    if (this.blu !== null) this.blu.solve(tmp, tmp);
    else this.dlu!.solve(tmp, tmp);
    for (let i = 0; i < N; i++) x[i] = tmp[pos[i]!]!;
  }
}

/** Node (a, b, c) of core's `DiscreteForce` quadratures (discreteForce.ts, Marsden–West §3.2). */
const NODE: Readonly<Record<string, readonly [number, number, number]>> = Object.freeze({
  midpoint: [0.5, 0.5, 0.5],
  left: [1, 0, 0],
  right: [0, 1, 1],
});

/**
 * F̄ = F(t + c h, a q0 + b q1, (q1 − q0)/h, u) of a {@link DiscreteForce}, the same arithmetic as
 * its `value`, `minus` and `plus` (so the same bits), but with the node time t + c h boxed once
 * per step ({@link setTime}; not at all for an `autonomous` force) instead of once per evaluation: a fresh double passed to a force the
 * engine does not inline costs a 16-byte heap number, and a forced Newton step evaluates F̄
 * 2(2k + 1) times per Jacobian. Owns its scratch; allocates only the one box per {@link setTime}.
 */
export class ForceNode {
  readonly fd: DiscreteForce;
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;
  private readonly xi: Float64Array;
  private readonly v: Float64Array;
  /** The node time, held as a tagged value (an array of generic elements: no re-boxing per call). */
  private readonly box: (number | null)[] = [null];
  /** The force's `autonomous` flag (core's `Force`): its time argument is then a constant 0. */
  private readonly autonomous: boolean;

  constructor(fd: DiscreteForce) {
    this.fd = fd;
    const node = NODE[fd.quadrature];
    if (node === undefined)
      throw new DomainError('ForceNode: quadrature', String(fd.quadrature), 'unknown');
    [this.a, this.b, this.c] = node;
    this.autonomous = fd.force.autonomous === true;
    this.xi = new Float64Array(fd.n);
    this.v = new Float64Array(fd.n);
  }

  /**
   * The node time of the step leaving t: t + c h (one heap number), or 0 for a force that
   * declares itself `autonomous` (it ignores the time: nothing is allocated).
   */
  setTime(t: number): void {
    this.box[0] = this.autonomous ? 0 : t + this.c * this.fd.h;
  }

  /** out ← F̄ at (q0, q1) with the node time of the last {@link setTime}. */
  value(out: Float64Array, q0: Float64Array, q1: Float64Array, u: Float64Array): Float64Array {
    const { a, b, xi, v, fd } = this;
    const h = fd.h;
    const n = fd.n;
    for (let i = 0; i < n; i++) {
      xi[i] = a * q0[i]! + b * q1[i]!;
      v[i] = (q1[i]! - q0[i]!) / h;
    }
    return fd.force.F(out, this.box[0] as number, xi, v, u);
  }

  /** out ← f_d⁻ = h w⁻ F̄ (core's `minus`, bit for bit). */
  minus(out: Float64Array, q0: Float64Array, q1: Float64Array, u: Float64Array): Float64Array {
    // the weight read here, not passed to a shared helper: a double argument of a call V8 does
    // not inline is boxed (16 B)
    const w = this.fd.weightMinus;
    const n = this.fd.n;
    if (w === 0) return out.fill(0, 0, n);
    this.value(out, q0, q1, u);
    for (let i = 0; i < n; i++) out[i] = w * out[i]!;
    return out;
  }

  /** out ← f_d⁺ = h w⁺ F̄ (core's `plus`, bit for bit). */
  plus(out: Float64Array, q0: Float64Array, q1: Float64Array, u: Float64Array): Float64Array {
    const w = this.fd.weightPlus;
    const n = this.fd.n;
    if (w === 0) return out.fill(0, 0, n);
    this.value(out, q0, q1, u);
    for (let i = 0; i < n; i++) out[i] = w * out[i]!;
    return out;
  }
}

/**
 * ∂F̄/∂q_{k+1} of a banded force (half-bandwidth k) by grouped central differences (module doc):
 * `out[i·(2k+1) + j − i + k]` = ∂F̄_i/∂q_{k+1, j} for |i − j| ≤ k (n × (2k + 1) band storage),
 * relative step {@link CENTRAL_DIFFERENCE_STEP}, at the node time of the last `setTime` of
 * `node`. `q1` is perturbed in place and restored bit for bit. Allocates nothing (scratch `fp`,
 * `fm`, `e`, `save` of length n).
 */
export function bandedForceJacobian(
  out: Float64Array,
  node: ForceNode,
  k: number,
  q0: Float64Array,
  q1: Float64Array,
  u: Float64Array,
  fp: Float64Array,
  fm: Float64Array,
  e: Float64Array,
  save: Float64Array,
): void {
  const n = node.fd.n;
  const w = 2 * k + 1;
  for (let g = 0; g < w && g < n; g++) {
    for (let j = g; j < n; j += w) {
      const x = q1[j]!;
      save[j] = x;
      e[j] = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x));
      q1[j] = x + e[j]!;
    }
    node.value(fp, q0, q1, u);
    for (let j = g; j < n; j += w) q1[j] = save[j]! - e[j]!;
    node.value(fm, q0, q1, u);
    for (let j = g; j < n; j += w) {
      q1[j] = save[j]!;
      const i0 = Math.max(0, j - k);
      const i1 = Math.min(n - 1, j + k);
      const d = 2 * e[j]!;
      for (let i = i0; i <= i1; i++) out[i * w + j - i + k] = (fp[i]! - fm[i]!) / d;
    }
  }
}
