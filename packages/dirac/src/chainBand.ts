/**
 * The banded linear algebra of chains (internal; not re-exported from `index.ts`): for a system
 * whose constraint rows have the {@link ConstraintBand} structure, the products of the Dirac and
 * RATTLE steps with C(q) run over each row's band, the Gram-type matrices C₁ D C₂ᵀ are band
 * matrices (core's {@link BandMatrix}), and they are factored by core's {@link BandLU}: O(n) per
 * step for a chain instead of the dense O(m·n) products and O(m³) LU.
 *
 * Every product sums the same nonzero terms in the same order as the dense loops it replaces
 * (column j ascending inside a row, row a ascending inside a column), so the products are bit for
 * bit those of the dense path; the banded LU (LAPACK `gbtrf` order, multiplication by the
 * reciprocal pivot) rounds differently from the dense one, which is why the steps agree with the
 * dense path to round-off, not bit for bit (tested at n = 2, 8, 32).
 *
 * @module
 */
import {
  BandLU,
  BandMatrix,
  DimensionError,
  DomainError,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NonFiniteError,
  SINGULAR_JACOBIAN_CONDITION,
  SingularJacobianError,
} from '@geomech/core';
import type { ConstraintBand } from './constrained.js';

/**
 * Checks a system's band against its sizes: integer width ≥ 1, `first` of length m,
 * non-decreasing, each in (−width, n), finite nonzero `phiScale`.
 * @throws {@link DimensionError} / {@link DomainError} naming `what`.
 */
export function checkBand(what: string, band: ConstraintBand, n: number, m: number): void {
  const { width, first, phiScale } = band;
  if (!Number.isInteger(width) || width < 1 || width > n + 1)
    throw new DomainError(`${what}: band.width`, width, `must be an integer in [1, ${n + 1}]`);
  if (first.length !== m) throw new DimensionError(`${what}: band.first`, m, first.length);
  for (let a = 0; a < m; a++) {
    const f = first[a]!;
    if (!(f > -width && f < n) || (a > 0 && f < first[a - 1]!))
      throw new DomainError(
        `${what}: band.first[${a}]`,
        f,
        `must be non-decreasing and in (−${width}, ${n})`,
      );
  }
  if (!(Number.isFinite(phiScale) && phiScale !== 0))
    throw new DomainError(`${what}: band.phiScale`, phiScale, 'must be finite and ≠ 0');
}

/** Half-bandwidth of C₁ D C₂ᵀ: the largest b − a whose rows' column ranges overlap. */
export function gramBandwidth(band: ConstraintBand, m: number): number {
  const { width, first } = band;
  let k = 0;
  for (let a = 0; a < m; a++) {
    let b = a + 1;
    while (b < m && first[b]! < first[a]! + width) b++;
    k = Math.max(k, b - 1 - a);
  }
  return k;
}

/**
 * out ← C₁ diag(d) C₂ᵀ (m × m) into the band storage of `out` (kl = ku ≥
 * {@link gramBandwidth}): entry (a, b) = Σ_j (C₁[a, j] d_j) C₂[b, j], j ascending over the
 * overlap of the two rows' bands, zero C₁ entries skipped (the dense loops' sums). With
 * `symmetric` only b ≤ a is summed and mirrored (C₁ = C₂; the Dirac step's S = C M⁻¹ Cᵀ),
 * otherwise every entry is summed on its own (RATTLE's matrices). C₁, C₂ in band storage
 * (m × width). Allocates nothing.
 */
export function bandGram(
  out: BandMatrix,
  C1: Float64Array,
  C2: Float64Array,
  d: Float64Array,
  band: ConstraintBand,
  n: number,
  symmetric: boolean,
): void {
  const { width: w, first } = band;
  const { n: m, kl, rowWidth } = out;
  const S = out.rowBand;
  S.fill(0);
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const bLo = Math.max(0, a - kl);
    const bHi = symmetric ? a : Math.min(m - 1, a + kl);
    for (let b = bLo; b <= bHi; b++) {
      const fb = first[b]!;
      const j0 = Math.max(0, fa, fb);
      const j1 = Math.min(n, fa + w, fb + w);
      let s = 0;
      for (let j = j0; j < j1; j++) {
        const ca = C1[a * w + j - fa]!;
        if (ca === 0) continue;
        s += ca * d[j]! * C2[b * w + j - fb]!;
      }
      S[a * rowWidth + b - a + kl] = s;
      if (symmetric && b < a) S[b * rowWidth + a - b + kl] = s;
    }
  }
}

/**
 * out_a ← Σ_j C[a, j] x_j over row a's band, j ascending (m entries). Allocates nothing.
 */
export function bandMul(
  out: Float64Array,
  C: Float64Array,
  x: Float64Array,
  band: ConstraintBand,
  m: number,
  n: number,
): void {
  const { width: w, first } = band;
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const j0 = Math.max(0, fa);
    const j1 = Math.min(n, fa + w);
    let s = 0;
    for (let j = j0; j < j1; j++) s += C[a * w + j - fa]! * x[j]!;
    out[a] = s;
  }
}

/**
 * out_j ← out_j + sign·Σ_a C[a, j] y_a (n entries; out holds the start values), accumulated one
 * row at a time, a ascending for every j, zero C entries skipped: the dense loop
 * `s = out_j; for a: s ± C[a, j]·y_a` term for term (s − x = s + (−x) exactly). Allocates nothing.
 */
export function bandScatterTranspose(
  out: Float64Array,
  C: Float64Array,
  y: Float64Array,
  band: ConstraintBand,
  m: number,
  n: number,
  sign: 1 | -1,
): void {
  const { width: w, first } = band;
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const j0 = Math.max(0, fa);
    const j1 = Math.min(n, fa + w);
    const ya = sign === 1 ? y[a]! : -y[a]!;
    for (let j = j0; j < j1; j++) {
      const c = C[a * w + j - fa]!;
      if (c !== 0) out[j] = out[j]! + c * ya;
    }
  }
}

/** Options of {@link BandNewton} (core's NewtonSolver options of the same names). */
export interface BandNewtonOptions {
  readonly tol: number;
  readonly maxIterations: number;
  readonly stallTol: number;
  readonly what: string;
}

/**
 * Newton's method on an m × m system whose Jacobian is a band matrix (half-bandwidth k), with
 * core's `NewtonSolver` iteration and stopping rule (no line search): stop when ‖F‖∞ ≤ tol; after
 * a step with ‖Δx‖∞ ≤ 4ε·max(1, ‖x‖∞) (x fixed to working precision); after a step that leaves
 * tol < ‖F‖∞ ≤ stallTol without halving ‖F‖∞ (the round-off floor); or, not converged, after
 * `maxIterations` solves. A zero pivot or a κ₁ estimate ≥ 1/ε throws
 * {@link SingularJacobianError}; non-finite F(x0) or J throws {@link NonFiniteError}; a non-finite
 * step, iterate or residual throws {@link NewtonDivergedError}. The Jacobian is factored by
 * {@link BandLU}: O(m·k²) per iteration. Owns its scratch; {@link solve} allocates nothing.
 */
export class BandNewton {
  readonly x: Float64Array;
  readonly J: BandMatrix;
  /** Iterations and final ‖F‖∞ of the last {@link solve}. */
  iterations = 0;
  residual = 0;
  private readonly f: Float64Array;
  private readonly dx: Float64Array;
  private readonly lu: BandLU;
  private readonly history: Float64Array;

  constructor(
    readonly m: number,
    k: number,
    readonly options: BandNewtonOptions,
  ) {
    this.x = new Float64Array(m);
    this.f = new Float64Array(m);
    this.dx = new Float64Array(m);
    this.J = new BandMatrix(m, k, k);
    this.lu = new BandLU(m, k, k);
    this.history = new Float64Array(options.maxIterations + 1);
  }

  /**
   * Solves F(x) = 0 from x0 (F(out, x), J(out, x) with J writing the band storage of `out`; J is
   * called right after F at the same x). The root lands in {@link x}; returns whether it converged.
   */
  solve(
    F: (out: Float64Array, x: Float64Array) => void,
    Jac: (out: BandMatrix, x: Float64Array) => void,
    x0: Float64Array,
    step: number,
  ): boolean {
    const { m, x, f, dx, lu, history, J } = this;
    const { tol, maxIterations, stallTol, what } = this.options;
    for (let i = 0; i < m; i++) x[i] = x0[i]!;
    // ‖·‖∞ written out (NaN-propagating, as core's normInf): this method inlines F and J, and
    // a call it cannot inline any more would box each returned double
    F(f, x);
    let r = 0;
    for (let i = 0; i < m; i++) {
      const v = Math.abs(f[i]!);
      if (!(v <= r)) r = v;
    }
    if (!Number.isFinite(r)) throw new NonFiniteError(`${what}: F(x0)`);
    history[0] = r;
    let xNorm = 0;
    for (let i = 0; i < m; i++) {
      const v = Math.abs(x[i]!);
      if (!(v <= xNorm)) xNorm = v;
    }
    let k = 0;
    let converged = false;
    for (;;) {
      if (r <= tol) {
        converged = true;
        break;
      }
      if (k >= maxIterations) break;
      Jac(J, x);
      lu.factor(J); // NonFiniteError naming the entry when J is not finite
      if (lu.isSingular) throw new SingularJacobianError(k, Number.POSITIVE_INFINITY, step);
      const cond = lu.conditionEstimate();
      if (!(cond < SINGULAR_JACOBIAN_CONDITION)) throw new SingularJacobianError(k, cond, step);
      for (let i = 0; i < m; i++) dx[i] = -f[i]!;
      k++;
      try {
        lu.solve(dx, dx);
      } catch (error) {
        if (!(error instanceof NonFiniteError)) throw error;
        throw this.diverged(k, r, step, 'produced a non-finite step');
      }
      let dxNorm = 0;
      for (let i = 0; i < m; i++) {
        const v = Math.abs(dx[i]!);
        if (!(v <= dxNorm)) dxNorm = v;
      }
      const smallStep = dxNorm <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, xNorm);
      xNorm = 0;
      for (let i = 0; i < m; i++) {
        const xi = x[i]! + dx[i]!;
        x[i] = xi;
        const v = Math.abs(xi);
        if (!(v <= xNorm)) xNorm = v;
      }
      if (!Number.isFinite(xNorm)) throw this.diverged(k, r, step, 'produced a non-finite iterate');
      F(f, x);
      r = 0;
      for (let i = 0; i < m; i++) {
        const v = Math.abs(f[i]!);
        if (!(v <= r)) r = v;
      }
      history[k] = r;
      if (!Number.isFinite(r)) throw this.diverged(k, r, step, 'produced a non-finite residual');
      if (smallStep && r > tol) {
        converged = true;
        break;
      }
      if (r > tol && r <= stallTol && r > 0.5 * history[k - 1]!) {
        converged = true;
        break;
      }
    }
    this.iterations = k;
    this.residual = r;
    return converged;
  }

  private diverged(k: number, r: number, step: number, reason: string): NewtonDivergedError {
    const h = Array.from(this.history.subarray(0, Math.min(k, this.history.length - 1) + 1));
    return new NewtonDivergedError(k, r, step, reason, this.options.what, h);
  }
}
