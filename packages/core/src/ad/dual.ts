/**
 * Forward-mode automatic differentiation with multi-directional dual numbers.
 *
 * A {@link Dual} carries a value `a` and a tangent `ȧ ∈ Rᵏ`, i.e. the first-order jet
 * `a + ȧ·ε` with `εᵢεⱼ = 0`. Every elementary function applies the chain rule
 * `f(a + ȧε) = f(a) + f′(a)·ȧ ε`, so seeding the n inputs of `f: Rⁿ → Rᵐ` with the unit tangents
 * `e₁ … eₙ` (k = n) gives the whole m×n Jacobian in one evaluation.
 *
 * User functions are written once against the {@link ScalarOps} interface and evaluated either on
 * plain numbers ({@link NumberOps}) or on duals ({@link DualOps}):
 *
 * ```ts
 * const f: GenericVectorFunction = (o, [x, y]) => [o.mul(x!, y!), o.sin(x!)];
 * f(NumberOps, [1, 2]);              // [2, sin 1]
 * jacobian(f, [1, 2]).jacobian;      // [2, 1, cos 1, 0] (row-major 2×2)
 * ```
 *
 * This is a setup/cold-path tool: every operation allocates one result (constants share one empty
 * tangent, so mixing constants in costs nothing extra). Hot loops should use hand-written
 * Jacobians, or compile the dual Jacobian once outside the loop.
 *
 * @module
 */
import { DimensionError } from '../errors.js';
import { stumpff, stumpffDerivative } from '../sym/stumpff.js';

/** The shared empty tangent of constants: a zero tangent of any length. */
const ZERO_TANGENT = new Float64Array(0);

/**
 * A dual number `value + tangent·ε` with a tangent of fixed length k (k directional derivatives
 * carried at once). A tangent of length 0 stands for the zero tangent of any length (constants).
 *
 * @example
 * ```ts
 * const x = Dual.variable(2, 0, 1);       // 2 + 1ε
 * const y = DualOps.mul(x, x);            // 4 + 4ε
 * y.value; y.tangent[0];                  // 4, 4
 * ```
 */
export class Dual {
  constructor(
    /** The primal value a. */
    readonly value: number,
    /** The tangent ȧ (k directional derivatives); length 0 means zero. */
    readonly tangent: Float64Array,
  ) {}

  /** A constant `c + 0ε` (shares the empty zero tangent; allocates only the Dual). */
  static constant(c: number): Dual {
    return new Dual(c, ZERO_TANGENT);
  }

  /** The variable `value + eᵢ ε` seeded along direction `index` of `k` directions. */
  static variable(value: number, index: number, k: number): Dual {
    if (!Number.isInteger(index) || index < 0 || index >= k) {
      throw new DimensionError('Dual.variable: direction index', `0 ≤ index < ${k}`, index);
    }
    const t = new Float64Array(k);
    t[index] = 1;
    return new Dual(value, t);
  }

  /** Seeds every coordinate of `x` as its own direction: `xᵢ + eᵢ ε`, k = x.length. */
  static variables(x: ArrayLike<number>): Dual[] {
    const k = x.length;
    const out: Dual[] = new Array<Dual>(k);
    for (let i = 0; i < k; i++) out[i] = Dual.variable(x[i]!, i, k);
    return out;
  }

  /** The i-th directional derivative ȧᵢ (0 for a constant). */
  d(i: number): number {
    return this.tangent.length === 0 ? 0 : (this.tangent[i] ?? 0);
  }
}

/** `new Dual(v, ca·ȧ)`: the chain rule for a unary function with f′(a) = ca. */
function lin1(v: number, ca: number, a: Dual): Dual {
  const ta = a.tangent;
  const k = ta.length;
  if (k === 0) return new Dual(v, ZERO_TANGENT);
  const t = new Float64Array(k);
  for (let i = 0; i < k; i++) t[i] = ca * ta[i]!;
  return new Dual(v, t);
}

/** `new Dual(v, ca·ȧ + cb·ḃ)`: the chain rule for a binary function with ∂₁f = ca, ∂₂f = cb. */
function lin2(v: number, ca: number, a: Dual, cb: number, b: Dual): Dual {
  const ta = a.tangent;
  const tb = b.tangent;
  if (tb.length === 0) return lin1(v, ca, a);
  if (ta.length === 0) return lin1(v, cb, b);
  const k = ta.length;
  if (tb.length !== k) throw new DimensionError('Dual: tangent lengths', k, tb.length);
  const t = new Float64Array(k);
  for (let i = 0; i < k; i++) t[i] = ca * ta[i]! + cb * tb[i]!;
  return new Dual(v, t);
}

/**
 * The arithmetic a generic function may use. Implemented by {@link NumberOps} (plain numbers)
 * and {@link DualOps} (dual numbers), so one definition serves evaluation and differentiation.
 * Branch on {@link ScalarOps.value}, never on `T` itself.
 *
 * Derivative rules used by {@link DualOps} (ȧ, ḃ are tangents) are stated on each member.
 *
 * @example
 * ```ts
 * // f(x) = x·sin x, written once
 * const f = <T>(o: ScalarOps<T>, x: T): T => o.mul(x, o.sin(x));
 * f(NumberOps, 2);                              // 1.8185948536 = 2 sin 2
 * f(DualOps, Dual.variable(2, 0, 1)).d(0);      // sin 2 + 2 cos 2
 * ```
 */
export interface ScalarOps<T> {
  /** A constant (zero tangent). */
  const(c: number): T;
  /** The primal value (for branching and comparisons). */
  value(a: T): number;
  /** a + b; tangent ȧ + ḃ. */
  add(a: T, b: T): T;
  /** a − b; tangent ȧ − ḃ. */
  sub(a: T, b: T): T;
  /** a·b; tangent b·ȧ + a·ḃ. */
  mul(a: T, b: T): T;
  /** a/b; tangent (ȧ − (a/b)·ḃ)/b. */
  div(a: T, b: T): T;
  /** −a; tangent −ȧ. */
  neg(a: T): T;
  /** c·a for a number c; tangent c·ȧ. */
  scale(a: T, c: number): T;
  /** aᵖ for a number p; tangent p·aᵖ⁻¹·ȧ (p = 0 gives 1 with zero tangent; non-finite at a = 0 for p < 1). */
  pow(a: T, p: number): T;
  /** √a; tangent ȧ/(2√a) (non-finite at a = 0). */
  sqrt(a: T): T;
  /** eᵃ; tangent eᵃ·ȧ. */
  exp(a: T): T;
  /** ln a; tangent ȧ/a. */
  log(a: T): T;
  /** sin a; tangent cos a·ȧ. */
  sin(a: T): T;
  /** cos a; tangent −sin a·ȧ. */
  cos(a: T): T;
  /** tan a; tangent (1 + tan²a)·ȧ. */
  tan(a: T): T;
  /** asin a; tangent ȧ/√((1 − a)(1 + a)) (the factored form keeps accuracy near |a| = 1). */
  asin(a: T): T;
  /** acos a; tangent −ȧ/√((1 − a)(1 + a)). */
  acos(a: T): T;
  /** atan a; tangent ȧ/(1 + a²). */
  atan(a: T): T;
  /** atan2(y, x); tangent (x·ẏ − y·ẋ)/(x² + y²) (zero at the origin). */
  atan2(y: T, x: T): T;
  /** sinh a; tangent cosh a·ȧ. */
  sinh(a: T): T;
  /** cosh a; tangent sinh a·ȧ. */
  cosh(a: T): T;
  /** tanh a; tangent ȧ/cosh²a (= (1 − tanh²a)·ȧ without its cancellation for large |a|). */
  tanh(a: T): T;
  /** |a|; tangent sign(a)·ȧ, with sign(0) = 0 (the zero subgradient). */
  abs(a: T): T;
  /** √(a² + b²) without overflow; tangent (a·ȧ + b·ḃ)/hypot(a, b) (zero at the origin). */
  hypot(a: T, b: T): T;
}

/**
 * {@link ScalarOps} with the smooth functions of θ² that Lie-group formulas are written with, so
 * that a formula such as Exp(ω) = I + c₁(θ²)ω̂ + c₂(θ²)ω̂² (θ² = ωᵀω) has no branch on θ and can
 * be traced symbolically and differentiated at ω = 0 (see `stumpff` for the definitions and
 * the accuracy). Implemented by {@link NumberOps}, {@link DualOps} and the symbolic `SymGraph.ops`.
 *
 * @example
 * ```ts
 * // sin θ/θ at θ² = t, written once
 * const sinc = <T>(o: LieScalarOps<T>, t: T): T => o.stumpff(1, t);
 * sinc(NumberOps, 0);                             // 1
 * sinc(DualOps, Dual.variable(0, 0, 1)).d(0);     // d/dt c₁(0) = −1/6
 * ```
 */
export interface LieScalarOps<T> extends ScalarOps<T> {
  /**
   * The Stumpff function c_k(t) = Σ_{m≥0} (−t)^m/(2m + k)! of an integer order k: c₁(θ²) = sin θ/θ,
   * c₂(θ²) = (1 − cos θ)/θ², c₃(θ²) = (θ − sin θ)/θ³; tangent (k·c_{k+2}(t) − c_{k+1}(t))/2·ṫ.
   */
  stumpff(k: number, t: T): T;
}

/**
 * {@link ScalarOps} on plain numbers: `Math` with the generic vocabulary.
 *
 * @example
 * ```ts
 * NumberOps.atan2(NumberOps.const(1), 1); // π/4
 * ```
 */
export const NumberOps: LieScalarOps<number> = Object.freeze({
  const: (c: number) => c,
  value: (a: number) => a,
  add: (a: number, b: number) => a + b,
  sub: (a: number, b: number) => a - b,
  mul: (a: number, b: number) => a * b,
  div: (a: number, b: number) => a / b,
  neg: (a: number) => -a,
  scale: (a: number, c: number) => c * a,
  pow: (a: number, p: number) => (p === 0 ? 1 : a ** p),
  sqrt: Math.sqrt,
  exp: Math.exp,
  log: Math.log,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  abs: Math.abs,
  hypot: (a: number, b: number) => Math.hypot(a, b),
  stumpff,
});

/**
 * {@link ScalarOps} on {@link Dual} numbers: forward-mode differentiation. Each member documents
 * its tangent rule on {@link ScalarOps}; all are exact chain rules, so derivatives are as accurate
 * as the closed-form derivative evaluated in floating point.
 *
 * @example
 * ```ts
 * const x = Dual.variable(0.5, 0, 1);
 * DualOps.sin(DualOps.mul(x, x)).tangent[0]; // d/dx sin(x²) = 2x·cos(x²) = cos(0.25)
 * ```
 */
export const DualOps: LieScalarOps<Dual> = Object.freeze({
  const: (c: number) => Dual.constant(c),
  value: (a: Dual) => a.value,
  add: (a: Dual, b: Dual) => lin2(a.value + b.value, 1, a, 1, b),
  sub: (a: Dual, b: Dual) => lin2(a.value - b.value, 1, a, -1, b),
  mul: (a: Dual, b: Dual) => lin2(a.value * b.value, b.value, a, a.value, b),
  div: (a: Dual, b: Dual) => {
    const q = a.value / b.value;
    return lin2(q, 1 / b.value, a, -q / b.value, b);
  },
  neg: (a: Dual) => lin1(-a.value, -1, a),
  scale: (a: Dual, c: number) => lin1(c * a.value, c, a),
  pow: (a: Dual, p: number) =>
    p === 0 ? lin1(1, 0, a) : lin1(a.value ** p, p * a.value ** (p - 1), a),
  sqrt: (a: Dual) => {
    const s = Math.sqrt(a.value);
    return lin1(s, 0.5 / s, a);
  },
  exp: (a: Dual) => {
    const e = Math.exp(a.value);
    return lin1(e, e, a);
  },
  log: (a: Dual) => lin1(Math.log(a.value), 1 / a.value, a),
  sin: (a: Dual) => lin1(Math.sin(a.value), Math.cos(a.value), a),
  cos: (a: Dual) => lin1(Math.cos(a.value), -Math.sin(a.value), a),
  tan: (a: Dual) => {
    const t = Math.tan(a.value);
    return lin1(t, 1 + t * t, a);
  },
  asin: (a: Dual) => lin1(Math.asin(a.value), 1 / Math.sqrt((1 - a.value) * (1 + a.value)), a),
  acos: (a: Dual) => lin1(Math.acos(a.value), -1 / Math.sqrt((1 - a.value) * (1 + a.value)), a),
  atan: (a: Dual) => lin1(Math.atan(a.value), 1 / (1 + a.value * a.value), a),
  atan2: (y: Dual, x: Dual) => {
    const r2 = x.value * x.value + y.value * y.value;
    const v = Math.atan2(y.value, x.value);
    if (r2 === 0) return lin2(v, 0, y, 0, x);
    return lin2(v, x.value / r2, y, -y.value / r2, x);
  },
  sinh: (a: Dual) => lin1(Math.sinh(a.value), Math.cosh(a.value), a),
  cosh: (a: Dual) => lin1(Math.cosh(a.value), Math.sinh(a.value), a),
  tanh: (a: Dual) => {
    const c = Math.cosh(a.value);
    return lin1(Math.tanh(a.value), 1 / (c * c), a);
  },
  abs: (a: Dual) => lin1(Math.abs(a.value), a.value > 0 ? 1 : a.value < 0 ? -1 : 0, a),
  hypot: (a: Dual, b: Dual) => {
    const h = Math.hypot(a.value, b.value);
    if (h === 0) return lin2(0, 0, a, 0, b);
    return lin2(h, a.value / h, a, b.value / h, b);
  },
  stumpff: (k: number, a: Dual) => lin1(stumpff(k, a.value), stumpffDerivative(k, a.value), a),
});

/** A function R → R written once against {@link ScalarOps}. */
export type GenericUnivariateFunction = <T>(ops: ScalarOps<T>, x: T) => T;
/** A function Rⁿ → R written once against {@link ScalarOps}. */
export type GenericScalarFunction = <T>(ops: ScalarOps<T>, x: readonly T[]) => T;
/**
 * A function Rⁿ → Rᵐ written once against {@link ScalarOps}; must return m values for every x.
 *
 * @example
 * ```ts
 * const F: GenericVectorFunction = (o, [x, y]) => [o.sub(o.mul(x!, y!), o.const(1)), o.sub(x!, y!)];
 * ```
 */
export type GenericVectorFunction = <T>(ops: ScalarOps<T>, x: readonly T[]) => T[];

/** Value and Jacobian of a vector function at a point (see {@link jacobian}). */
export interface DualJacobian {
  /** f(x), length m. */
  readonly value: Float64Array;
  /** ∂f/∂x, m×n row-major: entry (i, j) = ∂fᵢ/∂xⱼ at `i*n + j`. */
  readonly jacobian: Float64Array;
  readonly m: number;
  readonly n: number;
}

/**
 * f′(x) for f: R → R by one dual evaluation: f(x + ε) = f(x) + f′(x)ε.
 *
 * @example
 * ```ts
 * derivative((o, x) => o.mul(x, o.exp(x)), 1); // (1 + x)eˣ at 1 = 2e
 * ```
 */
export function derivative(f: GenericUnivariateFunction, x: number): number {
  return f(DualOps, Dual.variable(x, 0, 1)).d(0);
}

/**
 * ∇f(x) for f: Rⁿ → R by one dual evaluation with n tangent directions. Writes into `out`
 * (allocated when omitted).
 *
 * @example
 * ```ts
 * gradient((o, [x, y]) => o.mul(x!, o.sin(y!)), [2, 0]); // [sin 0, 2 cos 0] = [0, 2]
 * ```
 */
export function gradient(
  f: GenericScalarFunction,
  x: ArrayLike<number>,
  out: Float64Array = new Float64Array(x.length),
): Float64Array {
  const n = x.length;
  if (out.length < n) throw new DimensionError('gradient: out', n, out.length);
  const y = f(DualOps, Dual.variables(x));
  for (let j = 0; j < n; j++) out[j] = y.d(j);
  return out;
}

/**
 * Value and Jacobian of f: Rⁿ → Rᵐ in one dual pass: the inputs are seeded `xⱼ + eⱼε`, and row i
 * of the Jacobian is the tangent of output i, `J[i*n + j] = ∂fᵢ/∂xⱼ`.
 *
 * @example
 * ```ts
 * const { value, jacobian: J } = jacobian((o, [r, t]) => [o.mul(r!, o.cos(t!)), o.mul(r!, o.sin(t!))], [2, 0]);
 * // value = [2, 0], J = [cos t, −r sin t, sin t, r cos t] = [1, 0, 0, 2]
 * ```
 */
export function jacobian(f: GenericVectorFunction, x: ArrayLike<number>): DualJacobian {
  const n = x.length;
  const y = f(DualOps, Dual.variables(x));
  const m = y.length;
  const value = new Float64Array(m);
  const jac = new Float64Array(m * n);
  writeJacobian(y, n, value, jac);
  return { value, jacobian: jac, m, n };
}

function writeJacobian(
  y: readonly Dual[],
  n: number,
  value: Float64Array | null,
  jac: Float64Array,
) {
  const m = y.length;
  for (let i = 0; i < m; i++) {
    const yi = y[i]!;
    if (value !== null) value[i] = yi.value;
    const t = yi.tangent;
    const r = i * n;
    if (t.length === 0) jac.fill(0, r, r + n);
    else for (let j = 0; j < n; j++) jac[r + j] = t[j]!;
  }
}

/**
 * A Jacobian callback `J(out, x)` (row-major m×n, as the Newton and least-squares solvers take)
 * computed by forward-mode AD of a generic function. Each call allocates the duals of one pass.
 *
 * @param m - number of outputs; checked on every call (`DimensionError` on mismatch). Defaults to
 *   `x.length` (square systems).
 * @example
 * ```ts
 * const F: GenericVectorFunction = (o, [x, y]) => [o.sub(o.mul(x!, x!), y!), o.sub(y!, o.const(1))];
 * newton(residualFromGeneric(F), jacobianFromDual(F), Float64Array.of(2, 2));
 * ```
 */
export function jacobianFromDual(
  f: GenericVectorFunction,
  m?: number,
): (out: Float64Array, x: Float64Array) => void {
  return (out, x) => {
    const n = x.length;
    const y = f(DualOps, Dual.variables(x));
    const rows = m ?? n;
    if (y.length !== rows) throw new DimensionError('jacobianFromDual: outputs', rows, y.length);
    if (out.length < rows * n)
      throw new DimensionError('jacobianFromDual: out', rows * n, out.length);
    writeJacobian(y, n, null, out);
  };
}

/**
 * A residual callback `F(out, x)` evaluating a generic function on plain numbers
 * ({@link NumberOps}). Allocates the argument and result arrays of `f` on each call.
 *
 * @example
 * ```ts
 * const F = residualFromGeneric((o, [x]) => [o.sub(o.mul(x!, x!), o.const(2))]);
 * const out = new Float64Array(1); F(out, Float64Array.of(1)); // out = [-1]
 * ```
 */
export function residualFromGeneric(
  f: GenericVectorFunction,
): (out: Float64Array, x: Float64Array) => void {
  return (out, x) => {
    const y = f(NumberOps, Array.from(x));
    if (out.length < y.length)
      throw new DimensionError('residualFromGeneric: out', y.length, out.length);
    for (let i = 0; i < y.length; i++) out[i] = y[i]!;
  };
}
