/**
 * Gradient and Hessian of a scalar function written once against {@link ScalarOps}, for setup and
 * cold paths that ask for several derivatives at the same point (a Lagrangian's L_q, L_v, L_vv, …):
 * the gradient by one forward-mode pass with `dim` tangent directions, the Hessian by central
 * differences of that gradient (step {@link CENTRAL_DIFFERENCE_STEP}·max(1, |xⱼ|), symmetrised,
 * relative accuracy ≈ 1e-10), each cached for the last point.
 *
 * @module
 */
import { CENTRAL_DIFFERENCE_STEP } from '../constants.js';
import { DimensionError } from '../errors.js';
import { Dual, DualOps, type GenericScalarFunction, NumberOps } from './dual.js';

/**
 * Cached derivatives of f: R^dim → R.
 *
 * @example
 * ```ts
 * const f: GenericScalarFunction = (o, [x, y]) => o.mul(o.sin(x!), y!);
 * const d = new DerivativeCache(2, f);
 * d.gradient(Float64Array.of(0.5, 2)); // [2 cos 0.5, sin 0.5]
 * d.hessian(Float64Array.of(0.5, 2));  // [[−2 sin 0.5, cos 0.5], [cos 0.5, 0]] (≈ 1e-10)
 * ```
 */
export class DerivativeCache {
  private readonly seeds: Float64Array[] = [];
  private readonly duals: Dual[] = [];
  private readonly numbers: number[] = [];
  private readonly gKey: Float64Array;
  private readonly g: Float64Array;
  private gValid = false;
  private readonly hKey: Float64Array;
  private readonly h: Float64Array;
  private hValid = false;
  private readonly x: Float64Array;
  private readonly gp: Float64Array;
  private readonly gm: Float64Array;

  constructor(
    readonly dim: number,
    private readonly f: GenericScalarFunction,
  ) {
    if (!Number.isInteger(dim) || dim < 1)
      throw new DimensionError('DerivativeCache: dim', '>= 1', dim);
    for (let j = 0; j < dim; j++) {
      const t = new Float64Array(dim);
      t[j] = 1;
      this.seeds.push(t);
      this.duals.push(Dual.constant(0));
      this.numbers.push(0);
    }
    this.gKey = new Float64Array(dim);
    this.g = new Float64Array(dim);
    this.hKey = new Float64Array(dim);
    this.h = new Float64Array(dim * dim);
    this.x = new Float64Array(dim);
    this.gp = new Float64Array(dim);
    this.gm = new Float64Array(dim);
  }

  /** f(x). */
  value(x: ArrayLike<number>): number {
    const { dim, numbers } = this;
    for (let i = 0; i < dim; i++) numbers[i] = x[i]!;
    return this.f(NumberOps, numbers);
  }

  /** ∇f(x), cached for the last point; returns the cache's own buffer (read, don't keep). */
  gradient(x: ArrayLike<number>): Float64Array {
    if (!(load(this.gKey, x) && this.gValid)) {
      this.gValid = false;
      this.dualGradient(this.g, this.gKey);
      this.gValid = true;
    }
    return this.g;
  }

  /** ∇²f(x) (dim×dim, row-major, symmetrised), cached for the last point; the cache's own buffer. */
  hessian(x: ArrayLike<number>): Float64Array {
    if (load(this.hKey, x) && this.hValid) return this.h;
    this.hValid = false;
    const { dim, h, hKey, gp, gm } = this;
    const y = this.x;
    y.set(hKey);
    for (let j = 0; j < dim; j++) {
      const xj = hKey[j]!;
      const d = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(xj));
      const hi = xj + d;
      const lo = xj - d;
      y[j] = hi;
      this.dualGradient(gp, y);
      y[j] = lo;
      this.dualGradient(gm, y);
      y[j] = xj;
      const inv = 1 / (hi - lo);
      for (let i = 0; i < dim; i++) h[i * dim + j] = (gp[i]! - gm[i]!) * inv;
    }
    for (let i = 0; i < dim; i++) {
      for (let j = i + 1; j < dim; j++) {
        const s = 0.5 * (h[i * dim + j]! + h[j * dim + i]!);
        h[i * dim + j] = s;
        h[j * dim + i] = s;
      }
    }
    this.hValid = true;
    return h;
  }

  /** out ← ∇f(x) by one forward-mode pass with `dim` tangent directions. */
  private dualGradient(out: Float64Array, x: Float64Array): void {
    const { dim, duals, seeds } = this;
    for (let i = 0; i < dim; i++) duals[i] = new Dual(x[i]!, seeds[i]!);
    const y = this.f(DualOps, duals);
    for (let j = 0; j < dim; j++) out[j] = y.d(j);
  }
}

/** Copies x into key; true when it equals the previous content. */
function load(key: Float64Array, x: ArrayLike<number>): boolean {
  let same = true;
  for (let i = 0; i < key.length; i++) {
    const a = x[i]!;
    if (key[i] !== a) same = false;
    key[i] = a;
  }
  return same;
}
