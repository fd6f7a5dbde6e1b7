/**
 * The kinetic terms of a configuration-dependent mass matrix (internal; not re-exported from
 * `index.ts`), shared by the M(q) paths of the Dirac steps and RATTLE: M(q) and its LU, and the
 * gradient of the kinetic energy at fixed velocity
 *
 *   g(q, v) = ½ ∇_q (vᵀ M(q) v),   g_i = ½ Σ_jk ∂_i M_jk v_j v_k,
 *
 * which is −∂L/∂q − ∇V for L = ½ vᵀM(q)v − V(q), and gives ∂H/∂q = ∇V − g(q, M(q)⁻¹p) for
 * H = ½ pᵀM(q)⁻¹p + V(q) (since ∂_i M⁻¹ = −M⁻¹ ∂_i M M⁻¹).
 *
 * A system that gives `kineticGradient` supplies g itself. Otherwise g comes from the system's
 * `coriolis` κ(q, v) = Ṁv − g without any derivative of M: κ_i(v) = Σ_jk Γ_{i,jk} v_j v_k with
 * Γ_{i,jk} = ½(∂_k M_ij + ∂_j M_ik − ∂_i M_jk) the Christoffel symbols of the first kind, and
 * ∂_i M_jk = Γ_{j,ik} + Γ_{k,ij} (do Carmo, Riemannian Geometry, §2.3), so
 *
 *   g_i = Σ_jk Γ_{j,ik} v_j v_k = Σ_j v_j B_j(e_i, v),   B_j(a, b) = ½[κ_j(a + b) − κ_j(a) − κ_j(b)]
 *
 * (B_j the polarization of the quadratic form κ_j): 2n + 1 evaluations of κ, exact for a quadratic
 * κ up to rounding. Since g is quadratic in v, its Jacobian ∂g/∂v has column l = g(v + e_l) − g(v)
 * − g(e_l) (polarization again).
 *
 * @module
 */
import {
  DenseLU,
  DimensionError,
  DomainError,
  NonFiniteError,
  SingularMatrixError,
} from '@geomech/core';
import type { ConstrainedMechanicalSystem } from './constrained.js';

/**
 * Largest n of the M(q) paths: they are dense (M(q), its LU and the Newton Jacobians are n×n or
 * (2n + m)², and g from κ costs O(n) evaluations of κ), meant for models in generalized
 * coordinates with a few degrees of freedom.
 */
export const MASS_MATRIX_MAX_DIMENSION = 200;

/** M(q), its LU and g(q, v) of a system with `massMatrix` (module doc). Owns its scratch. */
export class MassMatrixKinetics {
  readonly n: number;
  /** M(q) of the last {@link factor} (n×n row-major). */
  readonly M: Float64Array;
  /** The LU of {@link M}. */
  readonly lu: DenseLU;
  private readonly kv: Float64Array;
  private readonly ke: Float64Array;
  private readonly kev: Float64Array;
  private readonly a: Float64Array;
  private readonly gv: Float64Array;
  private readonly gl: Float64Array;
  private readonly g1: Float64Array;
  private readonly e: Float64Array;
  private readonly va: Float64Array;

  constructor(
    readonly sys: ConstrainedMechanicalSystem,
    what: string,
  ) {
    const n = sys.n;
    if (sys.massMatrix === undefined)
      throw new DomainError(`${what}: massMatrix`, 'missing', 'is required for the M(q) path');
    if (sys.coriolis === undefined && sys.kineticGradient === undefined)
      throw new DomainError(
        `${what}: coriolis`,
        'missing',
        'is required with massMatrix (or give kineticGradient)',
      );
    if (!Number.isInteger(n) || n < 1 || n > MASS_MATRIX_MAX_DIMENSION)
      throw new DimensionError(`${what}: n (M(q) path)`, `1..${MASS_MATRIX_MAX_DIMENSION}`, n);
    this.n = n;
    this.M = new Float64Array(n * n);
    this.lu = new DenseLU(n);
    this.kv = new Float64Array(n);
    this.ke = new Float64Array(n);
    this.kev = new Float64Array(n);
    this.a = new Float64Array(n);
    this.gv = new Float64Array(n);
    this.gl = new Float64Array(n);
    this.g1 = new Float64Array(n);
    this.e = new Float64Array(n);
    this.va = new Float64Array(n);
  }

  /**
   * M ← M(q) and its LU. @throws {@link NonFiniteError} for a non-finite entry,
   * {@link SingularMatrixError} for a singular M(q).
   */
  factor(q: Float64Array, what: string): DenseLU {
    const { M, n } = this;
    this.sys.massMatrix!(M, q);
    for (let i = 0; i < n * n; i++)
      if (!Number.isFinite(M[i]!)) throw new NonFiniteError(`${what}: M(q)`, i);
    const lu = this.lu.factor(M);
    if (lu.isSingular) throw new SingularMatrixError(`${what}: M(q)`, -1);
    return lu;
  }

  /** out ← M v with the M of the last {@link factor}. */
  mul(out: Float64Array, v: Float64Array): Float64Array {
    const { M, n } = this;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += M[i * n + j]! * v[j]!;
      out[i] = s;
    }
    return out;
  }

  /** out ← g(q, v) = ½∇_q(vᵀM(q)v) (module doc). `out` must not alias v. */
  gradient(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const sys = this.sys;
    if (sys.kineticGradient !== undefined) return sys.kineticGradient(out, q, v);
    const { n, kv, ke, kev, a } = this;
    const kappa = sys.coriolis!;
    kappa(kv, q, v);
    for (let i = 0; i < n; i++) {
      a.fill(0);
      a[i] = 1;
      kappa(ke, q, a);
      for (let j = 0; j < n; j++) a[j] = v[j]! + (i === j ? 1 : 0);
      kappa(kev, q, a);
      let s = 0;
      for (let j = 0; j < n; j++) s += v[j]! * 0.5 * (kev[j]! - ke[j]! - kv[j]!);
      out[i] = s;
    }
    return out;
  }

  /** out ← ∂g/∂v(q, v) (n×n row-major): column l = g(v + e_l) − g(v) − g(e_l). */
  gradientJacobian(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    const { n, gv, gl, g1, e, va } = this;
    this.gradient(gv, q, v);
    for (let l = 0; l < n; l++) {
      e.fill(0);
      e[l] = 1;
      this.gradient(gl, q, e);
      for (let j = 0; j < n; j++) va[j] = v[j]! + (j === l ? 1 : 0);
      this.gradient(g1, q, va);
      for (let i = 0; i < n; i++) out[i * n + l] = g1[i]! - gv[i]! - gl[i]!;
    }
    return out;
  }
}
