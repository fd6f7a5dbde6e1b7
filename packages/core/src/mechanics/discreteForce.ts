/**
 * Discrete Lagrange–d'Alembert forces (Marsden–West 2001 §3.2): the virtual work of a continuous
 * force over one step [t_k, t_k + h] is approximated by
 *
 *   ∫ F(t, q, q̇, u)·δq dt ≈ f_d⁻(q_k, q_{k+1})·δq_k + f_d⁺(q_k, q_{k+1})·δq_{k+1}     (3.2.2)
 *
 * and the discrete Lagrange–d'Alembert principle gives the forced discrete Euler–Lagrange
 * equations (3.2.4)
 *
 *   D₂L_d(q_{k−1}, q_k) + D₁L_d(q_k, q_{k+1}) + f_d⁺(q_{k−1}, q_k) + f_d⁻(q_k, q_{k+1}) = 0,
 *
 * i.e. the forced discrete Legendre transforms p_k = −D₁L_d(q_k, q_{k+1}) − f_d⁻(q_k, q_{k+1}),
 * p_{k+1} = D₂L_d(q_k, q_{k+1}) + f_d⁺(q_k, q_{k+1}) (3.2.5). One quadrature node per step:
 *
 *   F̄ = F(t_k + c h, a q_k + b q_{k+1}, (q_{k+1} − q_k)/h, u_k),   f_d⁻ = h w⁻ F̄,   f_d⁺ = h w⁺ F̄,
 *
 * with (a, b, c, w⁻, w⁺) = (½, ½, ½, ½, ½) for the midpoint rule, (1, 0, 0, 1, 0) for the left
 * rectangle and (0, 1, 1, 0, 1) for the right rectangle (each the rule's quadrature of
 * F·(δq_k (1 − s) + δq_{k+1} s), s ∈ [0, 1], at its node).
 *
 * @module
 */
import { CENTRAL_DIFFERENCE_STEP } from '../constants.js';
import { DimensionError, DomainError } from '../errors.js';
import type { Force } from './vocabulary.js';

/** The quadrature of a {@link DiscreteForce}: node and weights of (3.2.2). */
export type ForceQuadrature = 'midpoint' | 'left' | 'right';

const NODES: Readonly<Record<ForceQuadrature, readonly [number, number, number, number, number]>> =
  Object.freeze({
    midpoint: [0.5, 0.5, 0.5, 0.5, 0.5],
    left: [1, 0, 0, 1, 0],
    right: [0, 1, 1, 0, 1],
  });

/**
 * The discrete forces f_d⁻, f_d⁺ of a continuous {@link Force} for a step h and a quadrature
 * (module doc, Marsden–West 2001 §3.2), with their Jacobians with respect to q_k, q_{k+1} and
 * u_k (from the force's `dFdq`, `dFdv`, `dFdu`, else central differences of `F` with relative
 * step {@link CENTRAL_DIFFERENCE_STEP}). Owns its scratch: no method allocates.
 *
 * @throws {@link DomainError} for a bad quadrature or step; {@link DimensionError} for n < 1 or
 *   m < 0.
 * @example
 * ```ts
 * const force: Force = { n: 1, m: 1, F: (out, t, _q, _v, u) => { out[0] = Math.cos(t) + u[0]!; return out; } };
 * const fd = new DiscreteForce(force, 0.1, 'midpoint');
 * const out = new Float64Array(1);
 * fd.minus(out, 0, Float64Array.of(0), Float64Array.of(0.1), Float64Array.of(0)); // [0.05·cos 0.05]
 * fd.weightMinus; // 0.05 = h/2
 * ```
 */
export class DiscreteForce {
  readonly n: number;
  readonly m: number;
  /** h·w⁻: f_d⁻ = weightMinus · F̄. */
  readonly weightMinus: number;
  /** h·w⁺: f_d⁺ = weightPlus · F̄. */
  readonly weightPlus: number;
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;
  private readonly xi: Float64Array;
  private readonly v: Float64Array;
  private readonly fp: Float64Array;
  private readonly fm: Float64Array;
  private readonly jq: Float64Array;
  private readonly jv: Float64Array;
  private readonly up: Float64Array;

  constructor(
    readonly force: Force,
    readonly h: number,
    readonly quadrature: ForceQuadrature = 'midpoint',
  ) {
    if (!Object.hasOwn(NODES, quadrature)) {
      throw new DomainError(
        'DiscreteForce: quadrature',
        String(quadrature),
        "must be 'midpoint', 'left' or 'right'",
      );
    }
    if (!(Number.isFinite(h) && h !== 0))
      throw new DomainError('DiscreteForce: h', h, 'must be finite and ≠ 0');
    const { n, m } = force;
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('DiscreteForce: n', '>= 1', n);
    if (!Number.isInteger(m) || m < 0) throw new DimensionError('DiscreteForce: m', '>= 0', m);
    this.n = n;
    this.m = m;
    const [a, b, c, wm, wp] = NODES[quadrature];
    this.a = a;
    this.b = b;
    this.c = c;
    this.weightMinus = h * wm;
    this.weightPlus = h * wp;
    this.xi = new Float64Array(n);
    this.v = new Float64Array(n);
    this.fp = new Float64Array(n);
    this.fm = new Float64Array(n);
    this.jq = new Float64Array(n * n);
    this.jv = new Float64Array(n * n);
    this.up = new Float64Array(Math.max(m, 1));
  }

  /** Sets the node ξ = a q0 + b q1 and v = (q1 − q0)/h; returns the node's time t + c h. */
  private node(t: number, q0: Float64Array, q1: Float64Array): number {
    const { n, a, b, h, xi, v } = this;
    for (let i = 0; i < n; i++) {
      xi[i] = a * q0[i]! + b * q1[i]!;
      v[i] = (q1[i]! - q0[i]!) / h;
    }
    return t + this.c * h;
  }

  /** out ← F̄ = F(t + c h, a q0 + b q1, (q1 − q0)/h, u), the force at the quadrature node. */
  value(
    out: Float64Array,
    t: number,
    q0: Float64Array,
    q1: Float64Array,
    u: Float64Array,
  ): Float64Array {
    const tau = this.node(t, q0, q1);
    return this.force.F(out, tau, this.xi, this.v, u);
  }

  /** out ← f_d⁻(q0, q1) = h w⁻ F̄ of the step leaving q0 at time t with input u. */
  minus(
    out: Float64Array,
    t: number,
    q0: Float64Array,
    q1: Float64Array,
    u: Float64Array,
  ): Float64Array {
    return this.scaled(out, this.weightMinus, t, q0, q1, u);
  }

  /** out ← f_d⁺(q0, q1) = h w⁺ F̄ of the step leaving q0 at time t with input u. */
  plus(
    out: Float64Array,
    t: number,
    q0: Float64Array,
    q1: Float64Array,
    u: Float64Array,
  ): Float64Array {
    return this.scaled(out, this.weightPlus, t, q0, q1, u);
  }

  private scaled(
    out: Float64Array,
    w: number,
    t: number,
    q0: Float64Array,
    q1: Float64Array,
    u: Float64Array,
  ): Float64Array {
    if (w === 0) return out.fill(0, 0, this.n);
    this.value(out, t, q0, q1, u);
    for (let i = 0; i < this.n; i++) out[i] = w * out[i]!;
    return out;
  }

  /**
   * The Jacobians of F̄ (so of f_d^± = h w^± F̄): dq0 ← ∂F̄/∂q0 = a F_q − F_v/h, dq1 ← ∂F̄/∂q1 =
   * b F_q + F_v/h (n×n), du ← ∂F̄/∂u = F_u (n×m); an `undefined` output is skipped. Analytic where
   * the force gives `dFdq`, `dFdv`, `dFdu`, else central differences of F.
   */
  jacobian(
    dq0: Float64Array | undefined,
    dq1: Float64Array | undefined,
    du: Float64Array | undefined,
    t: number,
    q0: Float64Array,
    q1: Float64Array,
    u: Float64Array,
  ): void {
    const { n, m, a, b, h, xi, v, jq, jv, force } = this;
    const tau = this.node(t, q0, q1);
    if (dq0 !== undefined || dq1 !== undefined) {
      if (force.dFdq !== undefined) force.dFdq(jq, tau, xi, v, u);
      else this.difference(jq, tau, xi, u, xi);
      if (force.dFdv !== undefined) force.dFdv(jv, tau, xi, v, u);
      else this.difference(jv, tau, v, u, xi);
      for (let i = 0; i < n * n; i++) {
        if (dq0 !== undefined) dq0[i] = a * jq[i]! - jv[i]! / h;
        if (dq1 !== undefined) dq1[i] = b * jq[i]! + jv[i]! / h;
      }
    }
    if (du !== undefined && m > 0) {
      if (force.dFdu !== undefined) force.dFdu(du, tau, xi, v, u);
      else {
        const { up, fp, fm } = this;
        up.set(u);
        for (let j = 0; j < m; j++) {
          const u0 = u[j]!;
          const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(u0));
          up[j] = u0 + e;
          force.F(fp, tau, xi, v, up);
          up[j] = u0 - e;
          force.F(fm, tau, xi, v, up);
          up[j] = u0;
          for (let i = 0; i < n; i++) du[i * m + j] = (fp[i]! - fm[i]!) / (2 * e);
        }
      }
    }
  }

  /** out ← ∂F/∂x by central differences, x being `xi` or `v` (perturbed in place, restored). */
  private difference(
    out: Float64Array,
    tau: number,
    x: Float64Array,
    u: Float64Array,
    xi: Float64Array,
  ): void {
    const { n, v, fp, fm, force } = this;
    for (let j = 0; j < n; j++) {
      const x0 = x[j]!;
      const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x0));
      x[j] = x0 + e;
      force.F(fp, tau, xi, v, u);
      x[j] = x0 - e;
      force.F(fm, tau, xi, v, u);
      x[j] = x0;
      for (let i = 0; i < n; i++) out[i * n + j] = (fp[i]! - fm[i]!) / (2 * e);
    }
  }
}

/**
 * Checks that a {@link Force} fits a system of dimension n (throws a {@link DimensionError} naming
 * `what` otherwise) and returns its input size m.
 *
 * @example
 * ```ts
 * checkForce('my integrator: force', { n: 2, m: 1, F: (out) => out.fill(0) }, 2); // 1
 * ```
 */
export function checkForce(what: string, force: Force, n: number): number {
  if (force.n !== n) throw new DimensionError(`${what}.n`, n, force.n);
  if (!Number.isInteger(force.m) || force.m < 0)
    throw new DimensionError(`${what}.m`, '>= 0', force.m);
  return force.m;
}
