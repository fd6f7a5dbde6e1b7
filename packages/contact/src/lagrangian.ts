/**
 * Continuous contact mechanics on Q = Rⁿ (spec 004 §4, seed 004 Section 2): contact Lagrangians
 * `L(q, v, z, t)` with derivatives from forward-mode dual numbers, the energy (16), the Legendre map
 * (20) and its inverse, the contact Hamiltonian `H = p·v − L`, the Herglotz vector field (19), the
 * contact Hamiltonian vector field (10) and the Herglotz action (23)–(25).
 *
 * State layouts: the Herglotz field acts on `y = [q, v, z]`, the contact Hamiltonian field on
 * `y = [q, p, z]`, both of length 2n + 1.
 *
 * Sign convention (spec 004 §3): the paper's `+γz`, γ < 0 dissipative.
 *
 * @module
 */
import {
  DenseLU,
  DerivativeCache,
  DimensionError,
  DomainError,
  integrateDopri5,
  NEWTON_DEFAULT_TOL,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  type OdeRhs,
  type ScalarOps,
} from '@geomech/core';
import type { ContactLagrangian } from './types.js';

/**
 * A contact Lagrangian `L(q, v, z, t)` written once against {@link ScalarOps}, so that it can be
 * evaluated on numbers and differentiated with dual numbers in (q, v, z). `q` and `v` have length
 * n; the time `t` is a plain number (an autonomous L ignores it).
 *
 * @example
 * ```ts
 * // spec 004 §5.5: L = v²/2 − (1 − cos q) + γz − αz²/2 + εzv
 * const L: GenericContactLagrangian = (o, [q], [v], z) =>
 *   o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.sub(o.const(1), o.cos(q!))),
 *     o.add(o.scale(z, -0.2), o.add(o.scale(o.mul(z, z), -0.15), o.scale(o.mul(z, v!), 0.15))));
 * ```
 */
export type GenericContactLagrangian = <T>(
  ops: ScalarOps<T>,
  q: readonly T[],
  v: readonly T[],
  z: T,
  t: number,
) => T;

/**
 * The derivative members of a {@link ContactLagrangian}, any of which may be given analytically.
 *
 * @example
 * ```ts
 * const given: Partial<ContactLagrangianDerivatives> = { Lz: () => -0.05 };
 * ```
 */
export type ContactLagrangianDerivatives = Pick<
  ContactLagrangian,
  'Lq' | 'Lv' | 'Lz' | 'Lqq' | 'Lvq' | 'Lvv' | 'Lqz' | 'Lvz' | 'Lzz'
>;

/**
 * Input of {@link contactLagrangian}: the dimension, the generic L and optional analytic derivatives.
 *
 * @example
 * ```ts
 * const spec: ContactLagrangianSpec = {
 *   n: 1,
 *   L: (o, [q], [v], z) => o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.scale(o.mul(q!, q!), 0.5)), o.scale(z, -0.05)),
 *   Lz: () => -0.05, // analytic; the others by dual numbers
 * };
 * contactLagrangian(spec).Lz(Float64Array.of(1), Float64Array.of(0), 0); // −0.05
 * ```
 */
export interface ContactLagrangianSpec extends Partial<ContactLagrangianDerivatives> {
  /** Dimension n of Q = Rⁿ. */
  readonly n: number;
  readonly L: GenericContactLagrangian;
}

/**
 * A contact Lagrangian whose missing derivatives come from dual numbers:
 * - first derivatives (L_q, L_v, L_z) from one dual pass over the 2n + 1 variables `(q, v, z)`,
 *   cached for the last point (so L_q, L_v, L_z at one point cost one pass);
 * - second derivatives from central differences of that dual gradient (step
 *   {@link CENTRAL_DIFFERENCE_STEP}·max(1, |xⱼ|)), assembled once per point into the symmetrised
 *   (2n+1)×(2n+1) Hessian and cached.
 * The caches belong to one time t: a call at another t starts fresh ones (a time-dependent L
 * changes t once per step). A dual pass allocates 2n + 1 `Dual`s plus whatever L allocates; the
 * rest uses owned scratch.
 */
class DualContactLagrangian implements ContactLagrangian {
  readonly n: number;
  /** Number of variables 2n + 1. */
  private readonly m: number;
  private derivatives: DerivativeCache;
  /** The time the caches belong to. */
  private time = 0;
  /** The point x = [q, v, z] packed for the cache. */
  private readonly x: Float64Array;

  constructor(private readonly spec: ContactLagrangianSpec) {
    const n = spec.n;
    this.n = n;
    this.m = 2 * n + 1;
    this.x = new Float64Array(this.m);
    this.derivatives = this.cache();
  }

  /** A derivative cache of L at the current {@link time}. */
  private cache(): DerivativeCache {
    const { n, spec } = this;
    const t = this.time;
    return new DerivativeCache(this.m, (ops, x) =>
      spec.L(ops, x.slice(0, n), x.slice(n, 2 * n), x[2 * n]!, t),
    );
  }

  /** The derivative cache of time t (a new one when t changed). */
  private at(t: number): DerivativeCache {
    if (t !== this.time) {
      this.time = t;
      this.derivatives = this.cache();
    }
    return this.derivatives;
  }

  L(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    return this.at(t).value(this.pack(q, v, z));
  }

  Lq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lq) return this.spec.Lq(out, q, v, z, t);
    const g = this.gradientAt(q, v, z, t);
    for (let i = 0; i < this.n; i++) out[i] = g[i]!;
    return out;
  }

  Lv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lv) return this.spec.Lv(out, q, v, z, t);
    const g = this.gradientAt(q, v, z, t);
    const n = this.n;
    for (let i = 0; i < n; i++) out[i] = g[n + i]!;
    return out;
  }

  Lz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    if (this.spec.Lz) return this.spec.Lz(q, v, z, t);
    return this.gradientAt(q, v, z, t)[2 * this.n]!;
  }

  Lqq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lqq) return this.spec.Lqq(out, q, v, z, t);
    return this.block(out, this.hessianAt(q, v, z, t), 0, 0);
  }

  Lvq(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lvq) return this.spec.Lvq(out, q, v, z, t);
    return this.block(out, this.hessianAt(q, v, z, t), this.n, 0);
  }

  Lvv(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lvv) return this.spec.Lvv(out, q, v, z, t);
    return this.block(out, this.hessianAt(q, v, z, t), this.n, this.n);
  }

  Lqz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lqz) return this.spec.Lqz(out, q, v, z, t);
    const { n, m } = this;
    const H = this.hessianAt(q, v, z, t);
    for (let i = 0; i < n; i++) out[i] = H[i * m + 2 * n]!;
    return out;
  }

  Lvz(out: Float64Array, q: Float64Array, v: Float64Array, z: number, t = 0): Float64Array {
    if (this.spec.Lvz) return this.spec.Lvz(out, q, v, z, t);
    const { n, m } = this;
    const H = this.hessianAt(q, v, z, t);
    for (let i = 0; i < n; i++) out[i] = H[(n + i) * m + 2 * n]!;
    return out;
  }

  Lzz(q: Float64Array, v: Float64Array, z: number, t = 0): number {
    if (this.spec.Lzz) return this.spec.Lzz(q, v, z, t);
    const { n, m } = this;
    return this.hessianAt(q, v, z, t)[2 * n * m + 2 * n]!;
  }

  /** out ← the n×n block of the Hessian starting at (row0, col0). */
  private block(out: Float64Array, H: Float64Array, row0: number, col0: number): Float64Array {
    const { n, m } = this;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) out[i * n + j] = H[(row0 + i) * m + col0 + j]!;
    }
    return out;
  }

  private pack(q: Float64Array, v: Float64Array, z: number): Float64Array {
    const { n, x } = this;
    for (let i = 0; i < n; i++) {
      x[i] = q[i]!;
      x[n + i] = v[i]!;
    }
    x[2 * n] = z;
    return x;
  }

  /** The dual gradient ∇L at (q, v, z), cached for the last point. */
  private gradientAt(q: Float64Array, v: Float64Array, z: number, t: number): Float64Array {
    return this.at(t).gradient(this.pack(q, v, z));
  }

  /** The symmetrised central-difference Hessian of the dual gradient, cached for the last point. */
  private hessianAt(q: Float64Array, v: Float64Array, z: number, t: number): Float64Array {
    return this.at(t).hessian(this.pack(q, v, z));
  }
}

/**
 * Builds a {@link ContactLagrangian} from a generic `L(q, v, z, t)` (spec 004 §4.2, §10): the first
 * derivatives L_q, L_v, L_z by one dual-number pass over the 2n + 1 variables, the second
 * derivatives (L_qq, L_vq, L_vv, L_qz, L_vz, L_zz) by central differences of the dual gradient
 * (relative accuracy about 1e-10), unless given analytically in `spec`.
 *
 * @throws {@link DimensionError} unless n is a positive integer.
 * @example
 * ```ts
 * // the damped pendulum L = v²/2 − (1 − cos q) + γz, γ = −0.1
 * const lag = contactLagrangian({
 *   n: 1,
 *   L: (o, [q], [v], z) =>
 *     o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.sub(o.const(1), o.cos(q!))), o.scale(z, -0.1)),
 * });
 * lag.Lq(new Float64Array(1), Float64Array.of(0.5), Float64Array.of(1), 0); // [−sin 0.5]
 * ```
 */
export function contactLagrangian(spec: ContactLagrangianSpec): ContactLagrangian {
  if (!Number.isInteger(spec.n) || spec.n < 1)
    throw new DimensionError('contactLagrangian: n', '>= 1', spec.n);
  if (typeof spec.L !== 'function')
    throw new DomainError('contactLagrangian: L', typeof spec.L, 'must be a function');
  return new DualContactLagrangian(spec);
}

function checkLength(what: string, a: ArrayLike<number>, n: number): void {
  if (a.length < n) throw new DimensionError(what, n, a.length);
}

/**
 * The energy (16) `E_L(q, v, z) = v·∂L/∂v − L`. Not conserved: along Herglotz solutions
 * `dE_L/dt = (∂L/∂z) E_L` (eq. (11) pulled back by FL).
 *
 * @param scratch - optional n-vector for ∂L/∂v (allocated when omitted).
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * energy(lag, Float64Array.of(1), Float64Array.of(2), 3); // ½·4 + ½·1 + 0.05·3 = 2.65
 * ```
 */
export function energy(
  L: ContactLagrangian,
  q: Float64Array,
  v: Float64Array,
  z: number,
  scratch: Float64Array = new Float64Array(L.n),
): number {
  const n = L.n;
  checkLength('energy: q', q, n);
  checkLength('energy: v', v, n);
  L.Lv(scratch, q, v, z);
  let s = 0;
  for (let i = 0; i < n; i++) s += v[i]! * scratch[i]!;
  return s - L.L(q, v, z);
}

/**
 * The Legendre map (20) `FL(q, v, z) = (q, ∂L/∂v(q, v, z), z)`: writes the momentum p into `out`.
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * legendre(new Float64Array(1), lag, Float64Array.of(1), Float64Array.of(2), 0); // [2]
 * ```
 */
export function legendre(
  out: Float64Array,
  L: ContactLagrangian,
  q: Float64Array,
  v: Float64Array,
  z: number,
): Float64Array {
  const n = L.n;
  checkLength('legendre: out', out, n);
  checkLength('legendre: q', q, n);
  checkLength('legendre: v', v, n);
  return L.Lv(out, q, v, z);
}

/**
 * Newton settings of the inverse Legendre map.
 *
 * @example
 * ```ts
 * const options: InverseLegendreOptions = { tol: 1e-14, maxIterations: 20 };
 * ```
 */
export interface InverseLegendreOptions {
  /** Converged when ‖∂L/∂v(q, v, z) − p‖∞ ≤ tol (absolute). Default {@link NEWTON_DEFAULT_TOL}. */
  readonly tol?: number;
  /** Newton iteration cap. Default 50. */
  readonly maxIterations?: number;
}

/**
 * Solves ∂L/∂v(q, v, z) = p for v by Newton with Jacobian W = ∂²L/∂v∂v (regularity (12)).
 * Owns its solver and scratch: {@link LegendreInverse.solve} allocates nothing.
 */
class LegendreInverse {
  private readonly newton: NewtonSolver;
  private readonly q: Float64Array;
  private readonly p: Float64Array;
  private z = 0;
  private t = 0;
  private readonly F: (out: Float64Array, v: Float64Array) => void;
  private readonly J: (out: Float64Array, v: Float64Array) => void;

  constructor(
    private readonly L: ContactLagrangian,
    options: InverseLegendreOptions,
  ) {
    const n = L.n;
    this.newton = new NewtonSolver(n, {
      tol: options.tol ?? NEWTON_DEFAULT_TOL,
      maxIterations: options.maxIterations ?? 50,
    });
    this.q = new Float64Array(n);
    this.p = new Float64Array(n);
    this.F = (out, v) => {
      this.L.Lv(out, this.q, v, this.z, this.t);
      for (let i = 0; i < n; i++) out[i] = out[i]! - this.p[i]!;
    };
    this.J = (out, v) => {
      this.L.Lvv(out, this.q, v, this.z, this.t);
    };
  }

  /** out ← v with FL(q, v, z, t) = (q, p, z), starting Newton from `guess`. */
  solve(
    out: Float64Array,
    q: Float64Array,
    p: Float64Array,
    z: number,
    guess: ArrayLike<number>,
    t = 0,
  ): Float64Array {
    const n = this.L.n;
    for (let i = 0; i < n; i++) {
      this.q[i] = q[i]!;
      this.p[i] = p[i]!;
    }
    this.z = z;
    this.t = t;
    const r = this.newton.solve(this.F, this.J, guess);
    if (!r.converged)
      throw new NewtonDivergedError(
        r.iterations,
        r.residualNorm,
        undefined,
        'did not converge (inverse Legendre map)',
      );
    for (let i = 0; i < n; i++) out[i] = r.x[i]!;
    return out;
  }
}

/**
 * The inverse Legendre map `FL⁻¹(q, p, z) = (q, v, z)` (20): solves `∂L/∂v(q, v, z) = p` for v by
 * Newton with Jacobian `∂²L/∂v∂v`, from `guess` (default p, exact for `L = ½|v|² + …`). Writes v
 * into `out`. Builds a Newton solver per call; for repeated use see
 * {@link hamiltonianFromLagrangian}, which owns one.
 *
 * @throws {@link NewtonDivergedError} when Newton does not converge;
 *   `SingularJacobianError` when W is singular (L not regular, (12)).
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * inverseLegendre(new Float64Array(1), lag, Float64Array.of(1), Float64Array.of(2), 0); // [2]
 * ```
 */
export function inverseLegendre(
  out: Float64Array,
  L: ContactLagrangian,
  q: Float64Array,
  p: Float64Array,
  z: number,
  guess?: ArrayLike<number>,
  options: InverseLegendreOptions = {},
): Float64Array {
  const n = L.n;
  checkLength('inverseLegendre: out', out, n);
  checkLength('inverseLegendre: q', q, n);
  checkLength('inverseLegendre: p', p, n);
  if (guess !== undefined) checkLength('inverseLegendre: guess', guess, n);
  return new LegendreInverse(L, options).solve(out, q, p, z, guess ?? p);
}

/**
 * A contact Hamiltonian `H(q, p, z, t)` on T*Q × R with its partial derivatives (spec 004 §4.1).
 * The vector-valued derivatives write into `out` (length n) and return it; `t` is the time
 * (omitted: 0).
 *
 * @example
 * ```ts
 * const H: ContactHamiltonian = mechanicalContactHamiltonian(mechanicalContactLagrangian(quadraticPotential(1), -0.05));
 * H.H(Float64Array.of(1), Float64Array.of(2), 3); // 2.65
 * ```
 */
export interface ContactHamiltonian {
  /** Dimension n of Q. */
  readonly n: number;
  H(q: Float64Array, p: Float64Array, z: number, t?: number): number;
  /** out ← ∂H/∂q. */
  dHdq(out: Float64Array, q: Float64Array, p: Float64Array, z: number, t?: number): Float64Array;
  /** out ← ∂H/∂p. */
  dHdp(out: Float64Array, q: Float64Array, p: Float64Array, z: number, t?: number): Float64Array;
  /** ∂H/∂z (= R(H), the Reeb derivative in Darboux coordinates (4)). */
  dHdz(q: Float64Array, p: Float64Array, z: number, t?: number): number;
}

/**
 * A {@link ContactHamiltonian} obtained from a Lagrangian, which also exposes FL⁻¹.
 *
 * @example
 * ```ts
 * const H: LegendreHamiltonian = hamiltonianFromLagrangian(mechanicalContactLagrangian(quadraticPotential(1), -0.05));
 * H.velocity(new Float64Array(1), Float64Array.of(1), Float64Array.of(2), 0); // [2]
 * ```
 */
export interface LegendreHamiltonian extends ContactHamiltonian {
  /** out ← v = FL⁻¹(q, p, z, t) (the velocity, = ∂H/∂p). */
  velocity(
    out: Float64Array,
    q: Float64Array,
    p: Float64Array,
    z: number,
    t?: number,
  ): Float64Array;
}

class HamiltonianOfLagrangian implements LegendreHamiltonian {
  readonly n: number;
  private readonly inverse: LegendreInverse;
  private readonly key: Float64Array;
  private readonly v: Float64Array;
  private valid = false;
  private solved = false;

  constructor(
    private readonly L: ContactLagrangian,
    options: InverseLegendreOptions,
  ) {
    const n = L.n;
    this.n = n;
    this.inverse = new LegendreInverse(L, options);
    this.key = new Float64Array(2 * n + 2);
    this.v = new Float64Array(n);
  }

  /** v = FL⁻¹(q, p, z, t), cached for the last point; warm-started from the previous solve. */
  private velocityAt(q: Float64Array, p: Float64Array, z: number, t: number): Float64Array {
    const { n, key } = this;
    let same = this.valid;
    for (let i = 0; i < n; i++) {
      if (key[i] !== q[i] || key[n + i] !== p[i]) same = false;
      key[i] = q[i]!;
      key[n + i] = p[i]!;
    }
    if (key[2 * n] !== z || key[2 * n + 1] !== t) same = false;
    key[2 * n] = z;
    key[2 * n + 1] = t;
    if (same) return this.v;
    this.valid = false;
    this.inverse.solve(this.v, q, p, z, this.solved ? this.v : p, t);
    this.solved = true;
    this.valid = true;
    return this.v;
  }

  velocity(out: Float64Array, q: Float64Array, p: Float64Array, z: number, t = 0): Float64Array {
    const v = this.velocityAt(q, p, z, t);
    for (let i = 0; i < this.n; i++) out[i] = v[i]!;
    return out;
  }

  H(q: Float64Array, p: Float64Array, z: number, t = 0): number {
    const v = this.velocityAt(q, p, z, t);
    let s = 0;
    for (let i = 0; i < this.n; i++) s += p[i]! * v[i]!;
    return s - this.L.L(q, v, z, t);
  }

  dHdq(out: Float64Array, q: Float64Array, p: Float64Array, z: number, t = 0): Float64Array {
    const v = this.velocityAt(q, p, z, t);
    this.L.Lq(out, q, v, z, t);
    for (let i = 0; i < this.n; i++) out[i] = -out[i]!;
    return out;
  }

  dHdp(out: Float64Array, q: Float64Array, p: Float64Array, z: number, t = 0): Float64Array {
    return this.velocity(out, q, p, z, t);
  }

  dHdz(q: Float64Array, p: Float64Array, z: number, t = 0): number {
    return -this.L.Lz(q, this.velocityAt(q, p, z, t), z, t);
  }
}

/**
 * The contact Hamiltonian of a regular contact Lagrangian (spec 004 §4.2, (20)):
 * `H(q, p, z, t) = p·v − L(q, v, z, t)` at `v = FL⁻¹(q, p, z, t)`, so that `E_L = H ∘ FL` (16), with
 *
 *   ∂H/∂p = v,   ∂H/∂q = −∂L/∂q(q, v, z, t),   ∂H/∂z = −∂L/∂z(q, v, z, t).
 *
 * FL⁻¹ is computed by Newton on `∂L/∂v = p` (owned solver, warm-started from the previous point;
 * the last point is cached, so H and its derivatives at one point cost one solve).
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const H = hamiltonianFromLagrangian(lag);
 * H.H(Float64Array.of(1), Float64Array.of(2), 3); // ½·4 + ½·1 + 0.05·3 = 2.65
 * ```
 */
export function hamiltonianFromLagrangian(
  L: ContactLagrangian,
  options: InverseLegendreOptions = {},
): LegendreHamiltonian {
  return new HamiltonianOfLagrangian(L, options);
}

/**
 * The Herglotz vector field ξ_L (18)–(19) on `y = [q, v, z]` (length 2n + 1) at time t (L and its
 * partials evaluated at t), in the explicit form of spec 004 §4.2 [D]:
 *
 *   q̇ = v,   W·v̇ = L_q + L_v·L_z − L_vq·v − L_vz·L,   ż = L,      W = ∂²L/∂v∂v,
 *
 * where `(L_vq·v)ᵢ = Σⱼ ∂²L/∂vᵢ∂qⱼ vⱼ`. For `L = ½|v|² − V + γz` this is `q̈ = −∇V + γq̇`.
 * The closure owns a `DenseLU` and its scratch: evaluating it allocates nothing (beyond the dual
 * passes of a dual-built L).
 *
 * @throws {@link DomainError} when W is singular at y (L not regular there, (12));
 *   {@link DimensionError} when y or out is shorter than 2n + 1.
 * @example
 * ```ts
 * const f = herglotzVectorField(mechanicalContactLagrangian(quadraticPotential(1), -0.05));
 * const out = new Float64Array(3);
 * f(out, 0, Float64Array.of(1, 2, 0));
 * out; // [2, −1 − 0.1, 1.5]
 * const sol = integrateDopri5(f, [1, 2, 0], 0, 10, { rtol: 1e-12, atol: 1e-14 });
 * ```
 */
export function herglotzVectorField(L: ContactLagrangian): OdeRhs {
  const n = L.n;
  const size = 2 * n + 1;
  const q = new Float64Array(n);
  const v = new Float64Array(n);
  const lq = new Float64Array(n);
  const lv = new Float64Array(n);
  const lvz = new Float64Array(n);
  const rhs = new Float64Array(n);
  const W = new Float64Array(n * n);
  const Wq = new Float64Array(n * n);
  const lu = new DenseLU(n);
  return (out, t, y) => {
    if (y.length < size) throw new DimensionError('herglotzVectorField: y', size, y.length);
    if (out.length < size) throw new DimensionError('herglotzVectorField: out', size, out.length);
    for (let i = 0; i < n; i++) {
      q[i] = y[i]!;
      v[i] = y[n + i]!;
    }
    const z = y[2 * n]!;
    // (19) expanded: d/dt L_v = L_vq·q̇ + W·v̇ + L_vz·ż = L_q + L_v·L_z
    const Lval = L.L(q, v, z, t);
    L.Lq(lq, q, v, z, t);
    L.Lv(lv, q, v, z, t);
    const lz = L.Lz(q, v, z, t);
    L.Lvq(Wq, q, v, z, t);
    L.Lvz(lvz, q, v, z, t);
    L.Lvv(W, q, v, z, t);
    for (let i = 0; i < n; i++) {
      let s = lq[i]! + lv[i]! * lz - lvz[i]! * Lval;
      for (let j = 0; j < n; j++) s -= Wq[i * n + j]! * v[j]!;
      rhs[i] = s;
    }
    lu.factor(W);
    if (lu.isSingular) {
      throw new DomainError(
        'herglotzVectorField: W = ∂²L/∂v∂v',
        'singular',
        'must be nonsingular (regularity (12))',
      );
    }
    lu.solve(rhs, rhs);
    for (let i = 0; i < n; i++) {
      out[i] = v[i]!;
      out[n + i] = rhs[i]!;
    }
    out[2 * n] = Lval;
  };
}

/**
 * The contact Hamiltonian vector field X_H (10) on `y = [q, p, z]` (length 2n + 1) at time t, in
 * Darboux coordinates with η = dz − p dq (spec 004 §4.1 [D]):
 *
 *   q̇ = ∂H/∂p,   ṗ = −∂H/∂q − p ∂H/∂z,   ż = p·∂H/∂p − H,
 *
 * so that `dH/dt = −(∂H/∂z) H` (11). The closure owns its scratch and allocates nothing.
 *
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
 * const X = contactHamiltonianVectorField(hamiltonianFromLagrangian(lag));
 * const out = new Float64Array(3);
 * X(out, 0, Float64Array.of(1, 2, 0));
 * out; // [2, −1 − 0.1, 1.5]
 * ```
 */
export function contactHamiltonianVectorField(H: ContactHamiltonian): OdeRhs {
  const n = H.n;
  const size = 2 * n + 1;
  const q = new Float64Array(n);
  const p = new Float64Array(n);
  const hp = new Float64Array(n);
  const hq = new Float64Array(n);
  return (out, t, y) => {
    if (y.length < size)
      throw new DimensionError('contactHamiltonianVectorField: y', size, y.length);
    if (out.length < size)
      throw new DimensionError('contactHamiltonianVectorField: out', size, out.length);
    for (let i = 0; i < n; i++) {
      q[i] = y[i]!;
      p[i] = y[n + i]!;
    }
    const z = y[2 * n]!;
    const Hval = H.H(q, p, z, t);
    H.dHdp(hp, q, p, z, t);
    H.dHdq(hq, q, p, z, t);
    const hz = H.dHdz(q, p, z, t);
    let pv = 0;
    for (let i = 0; i < n; i++) {
      out[i] = hp[i]!;
      out[n + i] = -hq[i]! - p[i]! * hz;
      pv += p[i]! * hp[i]!;
    }
    out[2 * n] = pv - Hval;
  };
}

/**
 * A curve c: [t0, t0 + T] → Q = Rⁿ with its velocity, both writing into `out` (length n).
 *
 * @example
 * ```ts
 * const line: ConfigurationCurve = {
 *   q: (t, out) => {
 *     out[0] = t;
 *   },
 *   v: (_t, out) => {
 *     out[0] = 1;
 *   },
 * };
 * ```
 */
export interface ConfigurationCurve {
  /** out ← c(t). */
  q(t: number, out: Float64Array): void;
  /** out ← ċ(t). */
  v(t: number, out: Float64Array): void;
}

/**
 * Options of {@link herglotzAction}.
 *
 * @example
 * ```ts
 * const options: HerglotzActionOptions = { rtol: 1e-10, atol: 1e-12, t0: 1 };
 * ```
 */
export interface HerglotzActionOptions {
  /** DOPRI5 relative tolerance. Default 1e-12. */
  readonly rtol?: number;
  /** DOPRI5 absolute tolerance. Default 1e-14. */
  readonly atol?: number;
  /** Start time t0 of the curve. Default 0. */
  readonly t0?: number;
  /** DOPRI5 step budget. Default 100000. */
  readonly maxSteps?: number;
}

/**
 * The Herglotz (contact) action (23)–(25): integrates `ż = L(c(t), ċ(t), z, t)`, `z(t0) = z0`, along
 * the curve c with adaptive DOPRI5 (default rtol 1e-12) and returns `A(c, z0) = z(t0 + T)`, the
 * end value (not a definite integral). By Thm 2.1, c solves the Herglotz equations (19) iff it is
 * a critical point of A among curves with fixed endpoints; by (29),
 * `∂A/∂z0 = exp(∫ L_z dt)`.
 *
 * @throws {@link DomainError} for a non-finite z0 or T, or T < 0; {@link NonFiniteError} when L
 *   is not finite along the curve.
 * @example
 * ```ts
 * const lag = mechanicalContactLagrangian(zeroPotential(1), -0.05);
 * // the straight line c(t) = t with ċ = 1: ż = ½ + γz, so z(1) = (e^{γ} − 1)/(2γ)
 * herglotzAction(lag, { q: (t, o) => { o[0] = t; }, v: (_t, o) => { o[0] = 1; } }, 0, 1);
 * ```
 */
export function herglotzAction(
  L: ContactLagrangian,
  curve: ConfigurationCurve,
  z0: number,
  T: number,
  options: HerglotzActionOptions = {},
): number {
  if (!Number.isFinite(z0)) throw new DomainError('herglotzAction: z0', z0, 'must be finite');
  if (!(Number.isFinite(T) && T >= 0))
    throw new DomainError('herglotzAction: T', T, 'must be finite and >= 0');
  const t0 = options.t0 ?? 0;
  if (!Number.isFinite(t0)) throw new DomainError('herglotzAction: t0', t0, 'must be finite');
  const n = L.n;
  const q = new Float64Array(n);
  const v = new Float64Array(n);
  // (24) dZ/dt = L(c, ċ, Z)
  const f: OdeRhs = (out, t, y) => {
    curve.q(t, q);
    curve.v(t, v);
    out[0] = L.L(q, v, y[0]!, t);
  };
  const sol = integrateDopri5(f, [z0], t0, t0 + T, {
    rtol: options.rtol ?? 1e-12,
    atol: options.atol ?? 1e-14,
    maxSteps: options.maxSteps ?? 100_000,
    dense: false,
  });
  const zT = sol.y[sol.count - 1]!;
  if (!Number.isFinite(zT)) throw new NonFiniteError('herglotzAction: z(T)');
  return zT;
}
