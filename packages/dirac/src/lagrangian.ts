/**
 * Lagrangians L: TQ → R on Q = Rⁿ for implicit Lagrangian systems (seed 002 §6, spec 002 §3.9,
 * §5.7): constructors with analytic or dual-number derivatives, the Legendre map 𝔽L, the
 * generalized energy E = ⟨p, v⟩ − L (Prop 6.5), degeneracy tests (rank of ∂²L/∂v², and of the
 * constrained mass GᵀMG on Δ, spec 002 §4.2) and membership in the primary constraint set
 * P = 𝔽L(Δ_Q) (Def 6.1).
 *
 * Conventions (spec 002 §2, `types.ts`): vectors and n×n matrices are flat `Float64Array`s,
 * matrices row-major; every derivative method writes into an output argument given first.
 * M = ∂²L/∂v∂v and N_ij = ∂²L/∂vⁱ∂qʲ.
 *
 * @module
 */
import {
  DerivativeCache,
  DimensionError,
  DomainError,
  gaussNewton,
  leastSquares,
  nullSpace,
  type Potential,
  type ScalarOps,
  SYMMETRY_RTOL,
} from '@geomech/core';
import { checkFinite, checkLength, maxAbs, rankAtScale, spectralNorm } from './internal.js';
import type { Distribution, Lagrangian } from './types.js';

// ---------------------------------------------------------------------------------------------
// named thresholds

/**
 * Relative rank tolerance of the dirac layer: a singular value s counts when s > RANK_RTOL·scale,
 * where the scale is the largest singular value of the matrix the rank is a property of (A for
 * the constraints, M for the mass, …). Spec 002 §5.1 suggests 1e-10·max(1, ‖A‖); we take the
 * scale-invariant form so that, e.g., inductances in henry and in nanohenry give the same answer.
 */
export const DIRAC_RANK_RTOL = 1e-10;

/**
 * Relative step of the fourth-order central difference
 * f′(x) ≈ [8(f(x+h) − f(x−h)) − (f(x+2h) − f(x−2h))]/(12h): ε^{1/5} ≈ 7.4e-4 balances the
 * truncation error O(h⁴) against the rounding error O(ε/h), about ε^{4/5} ≈ 3e-13 relative.
 * Used where a configuration derivative has to be differenced: ∂M/∂q and ∇V with
 * h = step·max(1, |qₖ|); the directional Ġ of the null-space solver with the perturbation
 * step·max(1, ‖q‖∞)^{1/5} (the optimum of O(h⁴) + O(ε‖q‖/h), as G often depends on angles whose
 * size says nothing about G's length scale).
 */
export const FOURTH_ORDER_DIFFERENCE_STEP = Number.EPSILON ** 0.2;

// ---------------------------------------------------------------------------------------------
// small private helpers

function checkDim(what: string, n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new DimensionError(what, '>= 1', String(n));
  return n;
}

/** Throws a DomainError unless the n×n matrix is symmetric to SYMMETRY_RTOL·max|aᵢⱼ|. */
function checkSymmetric(what: string, a: ArrayLike<number>, n: number): void {
  const tol = SYMMETRY_RTOL * maxAbs(a, n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(a[i * n + j]! - a[j * n + i]!);
      if (d > tol) throw new DomainError(`${what}[${i}, ${j}]`, d, 'matrix must be symmetric');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// quadratic Lagrangians

/**
 * A linear-quadratic Lagrangian L = ½vᵀMv + vᵀSq − ½qᵀKq with constant M, K (symmetric) and S:
 * the class on which the constraint algorithm of `constraintAlgorithm.ts` works with linear algebra alone.
 * M may be singular (L-C circuits, spec 002 §4.2), S gives gyroscopic / traditor terms
 * (spec 002 §4.3: L = ⟨α(q), v⟩ with the linear one-form α(q) = Sq).
 */
export interface QuadraticLagrangian extends Lagrangian {
  readonly kind: 'quadratic';
  /** M = ∂²L/∂v² (n×n, symmetric, may be singular). */
  readonly M: Float64Array;
  /** K (n×n, symmetric): the potential ½qᵀKq. */
  readonly K: Float64Array;
  /** S = ∂²L/∂v∂q (n×n): the coupling vᵀSq. */
  readonly S: Float64Array;
}

class QuadraticLagrangianImpl implements QuadraticLagrangian {
  readonly kind = 'quadratic' as const;
  constructor(
    readonly n: number,
    readonly M: Float64Array,
    readonly K: Float64Array,
    readonly S: Float64Array,
  ) {}

  L(q: Float64Array, v: Float64Array): number {
    const { n, M, K, S } = this;
    let s = 0;
    for (let i = 0; i < n; i++) {
      let mv = 0;
      let kq = 0;
      let sq = 0;
      for (let j = 0; j < n; j++) {
        mv += M[i * n + j]! * v[j]!;
        kq += K[i * n + j]! * q[j]!;
        sq += S[i * n + j]! * q[j]!;
      }
      s += 0.5 * v[i]! * mv + v[i]! * sq - 0.5 * q[i]! * kq;
    }
    return s;
  }

  /** ∂L/∂q = Sᵀv − Kq. */
  Lq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const { n, K, S } = this;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += S[i * n + j]! * v[i]! - K[j * n + i]! * q[i]!;
      out[j] = s;
    }
    return out;
  }

  /** ∂L/∂v = Mv + Sq. */
  Lv(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const { n, M, S } = this;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += M[i * n + j]! * v[j]! + S[i * n + j]! * q[j]!;
      out[i] = s;
    }
    return out;
  }

  Lvv(out: Float64Array): Float64Array {
    out.set(this.M);
    return out;
  }

  Lvq(out: Float64Array): Float64Array {
    out.set(this.S);
    return out;
  }
}

/**
 * The linear-quadratic Lagrangian L(q, v) = ½vᵀMv + vᵀSq − ½qᵀKq with analytic derivatives
 * ∂L/∂v = Mv + Sq, ∂L/∂q = Sᵀv − Kq, ∂²L/∂v² = M, ∂²L/∂v∂q = S. n is read from M (n² entries);
 * K and S default to zero. M and K must be symmetric; M may be singular.
 *
 * @throws DimensionError when M is not square or K, S have other sizes.
 * @throws DomainError when M or K is not symmetric (relative {@link SYMMETRY_RTOL}).
 * @throws NonFiniteError for non-finite entries.
 * @example
 * ```ts
 * // the 4-port L-C circuit (7.1) of spec 002 §4.2, q = (q_L, q_C1, q_C2, q_C3)
 * const lc = quadraticLagrangian([0.7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
 *   [0, 0, 0, 0, 0, 1 / 0.3, 0, 0, 0, 0, 1 / 0.5, 0, 0, 0, 0, 1 / 0.9]);
 * isDegenerate(lc, new Float64Array(4), new Float64Array(4)); // true: rank ∂²L/∂v² = 1
 * ```
 */
export function quadraticLagrangian(
  M: ArrayLike<number>,
  K?: ArrayLike<number>,
  S?: ArrayLike<number>,
): QuadraticLagrangian {
  const n = Math.round(Math.sqrt(M.length));
  if (n < 1 || n * n !== M.length)
    throw new DimensionError(
      'quadraticLagrangian: M (n×n)',
      'a square number of entries',
      M.length,
    );
  const Mm = Float64Array.from(M);
  const Km = K === undefined ? new Float64Array(n * n) : Float64Array.from(K);
  const Sm = S === undefined ? new Float64Array(n * n) : Float64Array.from(S);
  checkLength('quadraticLagrangian: K', Km, n * n);
  checkLength('quadraticLagrangian: S', Sm, n * n);
  checkFinite('quadraticLagrangian: M', Mm);
  checkFinite('quadraticLagrangian: K', Km);
  checkFinite('quadraticLagrangian: S', Sm);
  checkSymmetric('quadraticLagrangian: M', Mm, n);
  checkSymmetric('quadraticLagrangian: K', Km, n);
  return new QuadraticLagrangianImpl(n, Mm, Km, Sm);
}

/** True when `L` was built by {@link quadraticLagrangian} (and so carries exact M, K, S). */
export function isQuadraticLagrangian(L: Lagrangian): L is QuadraticLagrangian {
  return (L as Partial<QuadraticLagrangian>).kind === 'quadratic';
}

// ---------------------------------------------------------------------------------------------
// mechanical Lagrangians

/** `mass(out, q)`: writes M(q) (n×n, symmetric positive semi-definite) into `out`. */
export type MassMatrixFunction = (out: Float64Array, q: Float64Array) => void;

/** Input of {@link mechanicalLagrangian}. */
export interface MechanicalLagrangianSpec {
  /** Dimension n of Q. */
  readonly n: number;
  /** The mass matrix: constant (n² entries, row-major) or a function of q. */
  readonly mass: ArrayLike<number> | MassMatrixFunction;
  /**
   * ∂M/∂q for a configuration-dependent mass: `out[k·n² + i·n + j] = ∂M_ij/∂qᵏ` (n³ entries).
   * When absent, fourth-order central differences of `mass` ({@link FOURTH_ORDER_DIFFERENCE_STEP}).
   */
  readonly massDerivative?: (out: Float64Array, q: Float64Array) => void;
  /**
   * The potential: core's {@link Potential} `{ dim, V, gradV }` (dim = n), or V(q) alone, whose
   * gradient is then differenced (fourth order, {@link FOURTH_ORDER_DIFFERENCE_STEP}). Absent
   * means V = 0.
   */
  readonly potential?: Potential | ((q: Float64Array) => number);
}

/** A mechanical Lagrangian L = ½vᵀM(q)v − V(q) that keeps its parts. */
export interface MechanicalLagrangian extends Lagrangian {
  readonly kind: 'mechanical';
  /** True when M does not depend on q. */
  readonly constantMass: boolean;
  /** out ← M(q). */
  mass(out: Float64Array, q: Float64Array): Float64Array;
  /** V(q). */
  V(q: Float64Array): number;
  /** out ← ∇V(q). */
  gradV(out: Float64Array, q: Float64Array): Float64Array;
}

class MechanicalLagrangianImpl implements MechanicalLagrangian {
  readonly kind = 'mechanical' as const;
  readonly n: number;
  readonly constantMass: boolean;
  private readonly Mc: Float64Array | undefined;
  private readonly Mq: Float64Array;
  private readonly dM: Float64Array;
  private readonly dMKey: Float64Array;
  private dMValid = false;
  private readonly qw: Float64Array;
  private readonly Mw: Float64Array;

  constructor(private readonly spec: MechanicalLagrangianSpec) {
    const n = spec.n;
    this.n = n;
    this.Mq = new Float64Array(n * n);
    this.dM = new Float64Array(n * n * n);
    this.dMKey = new Float64Array(n);
    this.qw = new Float64Array(n);
    this.Mw = new Float64Array(n * n);
    if (typeof spec.mass === 'function') {
      this.constantMass = false;
      this.Mc = undefined;
    } else {
      this.constantMass = true;
      this.Mc = Float64Array.from(spec.mass);
      checkLength('mechanicalLagrangian: mass', this.Mc, n * n);
      checkFinite('mechanicalLagrangian: mass', this.Mc);
      checkSymmetric('mechanicalLagrangian: mass', this.Mc, n);
    }
  }

  mass(out: Float64Array, q: Float64Array): Float64Array {
    const m = this.spec.mass;
    if (this.Mc !== undefined) out.set(this.Mc);
    else if (typeof m === 'function') m(out, q);
    return out;
  }

  V(q: Float64Array): number {
    const potential = this.spec.potential;
    if (potential === undefined) return 0;
    return typeof potential === 'function' ? potential(q) : potential.V(q);
  }

  gradV(out: Float64Array, q: Float64Array): Float64Array {
    const potential = this.spec.potential;
    if (potential === undefined) {
      out.fill(0);
      return out;
    }
    if (typeof potential !== 'function') {
      potential.gradV(out, q);
      return out;
    }
    const { n, qw } = this;
    qw.set(q);
    for (let k = 0; k < n; k++) {
      const qk = q[k]!;
      const h = FOURTH_ORDER_DIFFERENCE_STEP * Math.max(1, Math.abs(qk));
      qw[k] = qk + h;
      const p1 = potential(qw);
      qw[k] = qk - h;
      const m1 = potential(qw);
      qw[k] = qk + 2 * h;
      const p2 = potential(qw);
      qw[k] = qk - 2 * h;
      const m2 = potential(qw);
      qw[k] = qk;
      out[k] = (8 * (p1 - m1) - (p2 - m2)) / (12 * h);
    }
    return out;
  }

  L(q: Float64Array, v: Float64Array): number {
    const { n, Mq } = this;
    this.mass(Mq, q);
    let s = 0;
    for (let i = 0; i < n; i++) {
      let mv = 0;
      for (let j = 0; j < n; j++) mv += Mq[i * n + j]! * v[j]!;
      s += v[i]! * mv;
    }
    return 0.5 * s - this.V(q);
  }

  /** ∂L/∂qᵏ = ½ vᵀ(∂M/∂qᵏ)v − ∂V/∂qᵏ. */
  Lq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const n = this.n;
    this.gradV(out, q);
    for (let k = 0; k < n; k++) out[k] = -out[k]!;
    if (this.constantMass) return out;
    const dM = this.massDerivativeAt(q);
    for (let k = 0; k < n; k++) {
      let s = 0;
      const o = k * n * n;
      for (let i = 0; i < n; i++) {
        let row = 0;
        for (let j = 0; j < n; j++) row += dM[o + i * n + j]! * v[j]!;
        s += v[i]! * row;
      }
      out[k] = out[k]! + 0.5 * s;
    }
    return out;
  }

  /** ∂L/∂v = M(q)v. */
  Lv(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const { n, Mq } = this;
    this.mass(Mq, q);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += Mq[i * n + j]! * v[j]!;
      out[i] = s;
    }
    return out;
  }

  Lvv(out: Float64Array, q: Float64Array): Float64Array {
    return this.mass(out, q);
  }

  /** N_ij = Σ_l (∂M_il/∂qʲ) vˡ. */
  Lvq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const n = this.n;
    if (this.constantMass) {
      out.fill(0, 0, n * n);
      return out;
    }
    const dM = this.massDerivativeAt(q);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        const o = j * n * n + i * n;
        for (let l = 0; l < n; l++) s += dM[o + l]! * v[l]!;
        out[i * n + j] = s;
      }
    }
    return out;
  }

  /** ∂M/∂q at q (n³), cached for the last q. */
  private massDerivativeAt(q: Float64Array): Float64Array {
    const { n, dM, dMKey } = this;
    let same = this.dMValid;
    for (let k = 0; k < n; k++) if (dMKey[k] !== q[k]) same = false;
    if (same) return dM;
    dMKey.set(q);
    this.dMValid = false;
    if (this.spec.massDerivative !== undefined) {
      this.spec.massDerivative(dM, q);
    } else {
      const { qw, Mw } = this;
      const nn = n * n;
      qw.set(q);
      for (let k = 0; k < n; k++) {
        const qk = q[k]!;
        const h = FOURTH_ORDER_DIFFERENCE_STEP * Math.max(1, Math.abs(qk));
        const o = k * nn;
        const c = [8, -8, -1, 1];
        const at = [qk + h, qk - h, qk + 2 * h, qk - 2 * h];
        dM.fill(0, o, o + nn);
        for (let s = 0; s < 4; s++) {
          qw[k] = at[s]!;
          this.mass(Mw, qw);
          const w = c[s]! / (12 * h);
          for (let e = 0; e < nn; e++) dM[o + e] = dM[o + e]! + w * Mw[e]!;
        }
        qw[k] = qk;
      }
    }
    checkFinite('mechanicalLagrangian: ∂M/∂q', dM);
    this.dMValid = true;
    return dM;
  }
}

/**
 * The mechanical Lagrangian L(q, v) = ½vᵀM(q)v − V(q) with analytic derivatives
 *
 *   ∂L/∂v = M(q)v,  ∂L/∂qᵏ = ½vᵀ(∂M/∂qᵏ)v − ∂V/∂qᵏ,  ∂²L/∂v² = M(q),  N_ij = Σ_l (∂M_il/∂qʲ)vˡ.
 *
 * ∂M/∂q and ∇V are differenced (fourth order, ~1e-12 relative) only when not supplied.
 *
 * @throws DimensionError for a bad n or a constant mass of the wrong size.
 * @throws DomainError when a constant mass is not symmetric; DimensionError when `potential.dim` ≠ n.
 * @example
 * ```ts
 * const q = new Float64Array(4);
 * const v = Float64Array.of(1, 0, 2, 0.5);
 * // the vertical rolling disk of spec 002 §4.1: L = ½m(v_x² + v_y²) + ½I v_θ² + ½J v_φ²
 * const disk = mechanicalLagrangian({ n: 4, mass: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0.3, 0, 0, 0, 0, 0.15] });
 * disk.Lv(new Float64Array(4), q, v); // (m v_x, m v_y, I v_θ, J v_φ)
 * ```
 */
export function mechanicalLagrangian(spec: MechanicalLagrangianSpec): MechanicalLagrangian {
  checkDim('mechanicalLagrangian: n', spec.n);
  const potential = spec.potential;
  if (potential !== undefined && typeof potential !== 'function' && potential.dim !== spec.n)
    throw new DimensionError('mechanicalLagrangian: potential.dim', spec.n, potential.dim);
  return new MechanicalLagrangianImpl(spec);
}

// ---------------------------------------------------------------------------------------------
// Lagrangians from generic functions (dual numbers)

/**
 * A Lagrangian L(q, v) written once against {@link ScalarOps}, so that it can be evaluated on
 * numbers and differentiated with dual numbers. q and v have length n.
 *
 * @example
 * ```ts
 * // pendulum in an angle: L = ½ v² + cos q
 * const L: GenericLagrangian = (o, [q], [v]) => o.add(o.scale(o.mul(v!, v!), 0.5), o.cos(q!));
 * ```
 */
export type GenericLagrangian = <T>(ops: ScalarOps<T>, q: readonly T[], v: readonly T[]) => T;

/** Analytic second derivatives that {@link lagrangianFromFunction} should use instead of differences. */
export type LagrangianSecondDerivatives = Partial<Pick<Lagrangian, 'Lvv' | 'Lvq'>>;

class DualLagrangian implements Lagrangian {
  readonly n: number;
  private readonly derivatives: DerivativeCache;
  /** The point x = [q, v] packed for the cache. */
  private readonly x: Float64Array;

  constructor(
    n: number,
    fn: GenericLagrangian,
    private readonly second: LagrangianSecondDerivatives,
  ) {
    this.n = n;
    this.x = new Float64Array(2 * n);
    this.derivatives = new DerivativeCache(2 * n, (ops, x) => fn(ops, x.slice(0, n), x.slice(n)));
  }

  L(q: Float64Array, v: Float64Array): number {
    return this.derivatives.value(this.pack(q, v));
  }

  Lq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const g = this.derivatives.gradient(this.pack(q, v));
    for (let i = 0; i < this.n; i++) out[i] = g[i]!;
    return out;
  }

  Lv(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const g = this.derivatives.gradient(this.pack(q, v));
    const n = this.n;
    for (let i = 0; i < n; i++) out[i] = g[n + i]!;
    return out;
  }

  Lvv(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    if (this.second.Lvv) return this.second.Lvv(out, q, v);
    return this.block(out, q, v, this.n);
  }

  Lvq(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    if (this.second.Lvq) return this.second.Lvq(out, q, v);
    return this.block(out, q, v, 0);
  }

  /** out ← rows v, columns col0…col0+n−1 of the (symmetrised, differenced) Hessian in (q, v). */
  private block(out: Float64Array, q: Float64Array, v: Float64Array, col0: number): Float64Array {
    const n = this.n;
    const H = this.derivatives.hessian(this.pack(q, v));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) out[i * n + j] = H[(n + i) * 2 * n + col0 + j]!;
    }
    checkFinite('lagrangianFromFunction: second derivatives', out);
    return out;
  }

  private pack(q: Float64Array, v: Float64Array): Float64Array {
    const { n, x } = this;
    for (let i = 0; i < n; i++) {
      x[i] = q[i]!;
      x[n + i] = v[i]!;
    }
    return x;
  }
}

/**
 * A {@link Lagrangian} from a generic L(q, v): ∂L/∂q and ∂L/∂v by one dual-number pass over the
 * 2n variables (exact to rounding, cached for the last point); M = ∂²L/∂v² and N = ∂²L/∂v∂q by
 * central differences of the dual gradient (core's DerivativeCache: step ∛ε·max(1, |xⱼ|), about
 * 1e-10 relative accuracy, symmetrised), computed together and cached for the last point, unless given in `second`.
 *
 * @throws DimensionError unless n is a positive integer.
 * @example
 * ```ts
 * const kappa = 0.5;
 * const q = Float64Array.of(1, 0), v = Float64Array.of(0, 1);
 * // the traditor of spec 002 §4.3: L = (κ/2)(x v_y − y v_x) − ½(x² + y²)
 * const trad = lagrangianFromFunction(2, (o, [x, y], [vx, vy]) =>
 *   o.sub(o.scale(o.sub(o.mul(x!, vy!), o.mul(y!, vx!)), 0.5 * kappa),
 *     o.scale(o.add(o.mul(x!, x!), o.mul(y!, y!)), 0.5)));
 * isDegenerate(trad, q, v); // true: L is linear in v
 * ```
 */
export function lagrangianFromFunction(
  n: number,
  L: GenericLagrangian,
  second: LagrangianSecondDerivatives = {},
): Lagrangian {
  checkDim('lagrangianFromFunction: n', n);
  if (typeof L !== 'function')
    throw new DomainError('lagrangianFromFunction: L', typeof L, 'must be a function');
  return new DualLagrangian(n, L, second);
}

// ---------------------------------------------------------------------------------------------
// Legendre map, energy, degeneracy

/**
 * The Legendre map (fibre derivative) 𝔽L(q, v) = (q, ∂L/∂v) (spec 002 §3.9): writes p into `out`.
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }).lagrangian;
 * const q = new Float64Array(4);
 * const v = Float64Array.of(1, 0, 2, 0.5);
 * legendre(new Float64Array(4), disk, q, v); // (m v_x, m v_y, I v_θ, J v_φ)
 * ```
 */
export function legendre(
  out: Float64Array,
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
): Float64Array {
  checkLength('legendre: q', q, L.n);
  checkLength('legendre: v', v, L.n);
  return L.Lv(out, q, v);
}

/**
 * The generalized energy E(q, v, p) = ⟨p, v⟩ − L(q, v) on the Pontryagin bundle TQ ⊕ T*Q
 * (spec 002 §3.9); constant along solutions of an implicit Lagrangian system (Prop 6.5). On the
 * Legendre graph p = ∂L/∂v it is the usual energy.
 *
 * @example
 * ```ts
 * const m = 2, osc = quadraticLagrangian([m], [8]);
 * // L = ½mv² − ½kq², p = mv: E = ½mv² + ½kq²
 * generalizedEnergy(osc, Float64Array.of(1), Float64Array.of(2), Float64Array.of(2 * m));
 * ```
 */
export function generalizedEnergy(
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  p: ArrayLike<number>,
): number {
  const n = L.n;
  checkLength('generalizedEnergy: q', q, n);
  checkLength('generalizedEnergy: v', v, n);
  checkLength('generalizedEnergy: p', p, n);
  let s = 0;
  for (let i = 0; i < n; i++) s += p[i]! * v[i]!;
  return s - L.L(q, v);
}

/**
 * Numerical rank of M = ∂²L/∂v² at (q, v), singular values above `rtol`·‖M‖₂ (0 for M = 0).
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const q = new Float64Array(4);
 * const f = Float64Array.of(0.5, 0.125, 0.5, 0.375); // currents satisfying KCL
 * velocityHessianRank(lc, q, f); // 1 for the 4-port L-C circuit (spec 002 §4.2)
 * ```
 */
export function velocityHessianRank(
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  rtol = DIRAC_RANK_RTOL,
): number {
  const n = L.n;
  checkLength('velocityHessianRank: q', q, n);
  checkLength('velocityHessianRank: v', v, n);
  const M = L.Lvv(new Float64Array(n * n), q, v);
  checkFinite('velocityHessianRank: ∂²L/∂v²', M);
  return rankAtScale(M, n, n, spectralNorm(M, n, n), rtol);
}

/**
 * True when L is degenerate at (q, v): rank ∂²L/∂v² < n (relative tolerance `rtol`, see
 * {@link DIRAC_RANK_RTOL}). Degenerate Lagrangians have primary constraints (spec 002 §4.2).
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }).lagrangian;
 * const q = new Float64Array(4);
 * const v = Float64Array.of(1, 0, 2, 0.5);
 * const f = Float64Array.of(0.5, 0.125, 0.5, 0.375); // currents satisfying KCL
 * isDegenerate(lc, q, f);   // true  (L-C circuit: ∂²L/∂f² = diag(L, 0, 0, 0))
 * isDegenerate(disk, q, v); // false (rolling disk)
 * ```
 */
export function isDegenerate(
  L: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  rtol = DIRAC_RANK_RTOL,
): boolean {
  return velocityHessianRank(L, q, v, rtol) < L.n;
}

/**
 * A basis of Δ(q) as the columns of an n×r matrix: `Delta.G(q)` when the distribution has one
 * (r = n − m), otherwise an orthonormal null space of A(q) (r = n − rank A).
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const q = new Float64Array(4);
 * const { G, r } = distributionBasisAt(kcl, q); // r = 2 for the 4-port circuit
 * ```
 */
export function distributionBasisAt(
  Delta: Distribution,
  q: Float64Array,
): { readonly G: Float64Array; readonly r: number } {
  const { n, m } = Delta;
  if (Delta.G !== undefined) {
    const r = n - m;
    const G = Delta.G(new Float64Array(n * r), q);
    checkFinite('distributionBasisAt: G(q)', G, n * r);
    return { G, r };
  }
  const A = Delta.A(new Float64Array(m * n), q);
  checkFinite('distributionBasisAt: A(q)', A, m * n);
  const scale = spectralNorm(A, m, n);
  const ns = nullSpace(A, m, n, scale > 0 ? DIRAC_RANK_RTOL * scale : 0);
  return { G: ns.basis, r: ns.d };
}

/**
 * The constrained mass GᵀMG (r×r) at (q, v), G a basis of Δ(q) ({@link distributionBasisAt})
 * and M = ∂²L/∂v²: the matrix of the kinetic part of L restricted to Δ. The implicit system is
 * regular where it is invertible (spec 002 §5.8(a)).
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const q = new Float64Array(4);
 * const f = Float64Array.of(0.5, 0.125, 0.5, 0.375); // currents satisfying KCL
 * constrainedMass(lc, kcl, q, f).GMG; // L·[[1, 1], [1, 1]] in the basis g1, g2 — singular
 * ```
 */
export function constrainedMass(
  L: Lagrangian,
  Delta: Distribution,
  q: Float64Array,
  v: Float64Array,
): { readonly GMG: Float64Array; readonly r: number; readonly M: Float64Array } {
  const n = L.n;
  if (Delta.n !== n) throw new DimensionError('constrainedMass: Delta.n', n, Delta.n);
  checkLength('constrainedMass: q', q, n);
  checkLength('constrainedMass: v', v, n);
  const M = L.Lvv(new Float64Array(n * n), q, v);
  checkFinite('constrainedMass: ∂²L/∂v²', M);
  const { G, r } = distributionBasisAt(Delta, q);
  const MG = new Float64Array(n * r);
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < r; b++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += M[i * n + k]! * G[k * r + b]!;
      MG[i * r + b] = s;
    }
  }
  const GMG = new Float64Array(r * r);
  for (let a = 0; a < r; a++) {
    for (let b = 0; b < r; b++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += G[k * r + a]! * MG[k * r + b]!;
      GMG[a * r + b] = s;
    }
  }
  return { GMG, r, M };
}

/**
 * True when L is degenerate on Δ at (q, v): GᵀMG is singular (singular values ≤ `rtol`·‖M‖₂;
 * scaling with M itself, so a vanishing kinetic energy on Δ counts as singular). A Lagrangian
 * can be degenerate on TQ but not on Δ (the single LC loop), or on both (the 4-port circuit,
 * spec 002 §4.2 item 7).
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc4 = circuit.lagrangian, kcl4 = circuit.distribution;
 * const q = new Float64Array(4);
 * const f = Float64Array.of(0.5, 0.125, 0.5, 0.375); // currents satisfying KCL
 * isDegenerateOnDelta(lc4, kcl4, q, f); // true
 * const single = simpleLC(); // one L-C loop: Q = R², KCL f_L = f_C
 * isDegenerateOnDelta(single.lagrangian, single.distribution, new Float64Array(2), Float64Array.of(1, 1)); // false: ½L f_L² > 0 on f_L = f_C
 * ```
 */
export function isDegenerateOnDelta(
  L: Lagrangian,
  Delta: Distribution,
  q: Float64Array,
  v: Float64Array,
  rtol = DIRAC_RANK_RTOL,
): boolean {
  const { GMG, r, M } = constrainedMass(L, Delta, q, v);
  if (r === 0) return false;
  return rankAtScale(GMG, r, r, spectralNorm(M, L.n, L.n), rtol) < r;
}

/** Options of {@link legendrePreimage} and {@link inPrimaryConstraintSet}. */
export interface PrimaryConstraintOptions {
  /** Accept when ‖∂L/∂v(q, v) − p‖₂ ≤ tol·max(1, ‖p‖₂). Default 1e-10. */
  readonly tol?: number;
  /** Starting velocity (projected onto Δ); default 0. */
  readonly v0?: ArrayLike<number>;
  /** Gauss–Newton iterations. Default 50. */
  readonly maxIterations?: number;
}

/** Result of {@link legendrePreimage}. */
export interface LegendrePreimage {
  /** The best v ∈ Δ(q) found (v = G u). */
  readonly v: Float64Array;
  /** ‖∂L/∂v(q, v) − p‖₂ at that v. */
  readonly residualNorm: number;
  /** True when residualNorm ≤ tol·max(1, ‖p‖₂). */
  readonly found: boolean;
}

/**
 * Solves p = ∂L/∂v(q, v) for v ∈ Δ(q) in the least-squares sense: Gauss–Newton on u ↦
 * ∂L/∂v(q, Gu) − p with Jacobian M(q, Gu)G and minimum-norm steps (so degenerate directions
 * stay at their start). For L quadratic in v the map is affine and one step is exact.
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const q = new Float64Array(4);
 * legendrePreimage(lc, kcl, q, Float64Array.of(0.35, 0, 0, 0)).v; // f with f_L = 0.5, in Δ
 * ```
 */
export function legendrePreimage(
  L: Lagrangian,
  Delta: Distribution,
  q: Float64Array,
  p: ArrayLike<number>,
  options: PrimaryConstraintOptions = {},
): LegendrePreimage {
  const n = L.n;
  if (Delta.n !== n) throw new DimensionError('legendrePreimage: Delta.n', n, Delta.n);
  checkLength('legendrePreimage: q', q, n);
  checkLength('legendrePreimage: p', p, n);
  checkFinite('legendrePreimage: p', p);
  const tol = options.tol ?? 1e-10;
  const { G, r } = distributionBasisAt(Delta, q);
  const v = new Float64Array(n);
  const Mw = new Float64Array(n * n);
  const toV = (u: ArrayLike<number>): Float64Array => {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let b = 0; b < r; b++) s += G[i * r + b]! * u[b]!;
      v[i] = s;
    }
    return v;
  };
  const u0 = new Float64Array(r);
  if (options.v0 !== undefined) {
    checkLength('legendrePreimage: v0', options.v0, n);
    // least-squares coordinates of v0 in the basis G (the projection onto Δ for orthonormal G)
    if (r > 0) u0.set(leastSquares(G, n, r, options.v0));
  }
  let pn = 0;
  for (let i = 0; i < n; i++) pn += p[i]! * p[i]!;
  const accept = tol * Math.max(1, Math.sqrt(pn));
  if (r === 0) {
    v.fill(0);
    const res = new Float64Array(n);
    L.Lv(res, q, v);
    let rn = 0;
    for (let i = 0; i < n; i++) rn += (res[i]! - p[i]!) ** 2;
    return { v: Float64Array.from(v), residualNorm: Math.sqrt(rn), found: Math.sqrt(rn) <= accept };
  }
  const sol = gaussNewton(
    (out, u) => {
      L.Lv(out, q, toV(u));
      for (let i = 0; i < n; i++) out[i] = out[i]! - p[i]!;
    },
    (out, u) => {
      L.Lvv(Mw, q, toV(u));
      for (let i = 0; i < n; i++) {
        for (let b = 0; b < r; b++) {
          let s = 0;
          for (let k = 0; k < n; k++) s += Mw[i * n + k]! * G[k * r + b]!;
          out[i * r + b] = s;
        }
      }
    },
    u0,
    n,
    { tol: accept, maxIterations: options.maxIterations ?? 50 },
  );
  return {
    v: Float64Array.from(toV(sol.x)),
    residualNorm: sol.residualNorm,
    found: sol.residualNorm <= accept,
  };
}

/**
 * True when (q, p) lies in the primary constraint set P = 𝔽L(Δ_Q) (Def 6.1): some v ∈ Δ(q) has
 * ∂L/∂v(q, v) = p (to `tol`, see {@link legendrePreimage}). For the 4-port circuit P is
 * {p_C1 = p_C2 = p_C3 = 0}.
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2: L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * const lc = circuit.lagrangian, kcl = circuit.distribution;
 * const q = new Float64Array(4);
 * inPrimaryConstraintSet(lc, kcl, q, Float64Array.of(0.35, 0, 0, 0));   // true
 * inPrimaryConstraintSet(lc, kcl, q, Float64Array.of(0.35, 0.1, 0, 0)); // false: p_C1 ≠ 0
 * ```
 */
export function inPrimaryConstraintSet(
  L: Lagrangian,
  Delta: Distribution,
  q: Float64Array,
  p: ArrayLike<number>,
  options: PrimaryConstraintOptions = {},
): boolean {
  return legendrePreimage(L, Delta, q, p, options).found;
}
