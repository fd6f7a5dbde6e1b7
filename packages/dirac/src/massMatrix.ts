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
 * The Newton Jacobians of the M(q) steps read the Christoffel symbols at a fixed q instead
 * ({@link MassMatrixKinetics.christoffel}): Γ_{j,il} = B_j(e_i, e_l) from n(n + 1)/2 evaluations of
 * κ (κ(e_i) and κ(e_i + e_l), i < l), after which, with no further call of κ,
 *
 *   ∂g_i/∂v_l(q, v) = Σ_k Γ_{l,ik} v_k + Σ_j Γ_{j,il} v_j,     (∂_l M v)_i = ∂g_l/∂v_i(q, v)
 *
 * (the second since g_l = ½ vᵀ ∂_l M v and M is symmetric), so ∂/∂q (M(q)⁻¹p) = −M⁻¹ (∂g/∂v)ᵀ at
 * v = M⁻¹p. A system with `kineticGradient` and no `coriolis` keeps the polarization of g.
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
  /** Γ_{j,il} at `out[(j·n + i)·n + l]` of the last {@link christoffel} (n³; empty without κ). */
  private readonly gamma: Float64Array;
  /** Whether {@link gamma} holds the symbols of the q of the last {@link christoffel}. */
  private gammaReady = false;

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
    this.gamma = new Float64Array(sys.coriolis === undefined ? 0 : n * n * n);
  }

  /**
   * Γ_{j,il}(q) = B_j(e_i, e_l) (module doc) from n(n + 1)/2 evaluations of κ, for
   * {@link gradientJacobianAt} at this q. Without `coriolis` (a system with `kineticGradient`) it
   * only marks the symbols absent: {@link gradientJacobianAt} then polarizes g.
   */
  christoffel(q: Float64Array): void {
    const kappa = this.sys.coriolis;
    if (kappa === undefined) {
      this.gammaReady = false;
      return;
    }
    const { n, gamma, a, ke, kev } = this;
    const nn = n * n;
    // diagonal: B_j(e_i, e_i) = κ_j(e_i), kept in Γ_{j,ii} first
    for (let i = 0; i < n; i++) {
      a.fill(0);
      a[i] = 1;
      kappa(ke, q, a);
      for (let j = 0; j < n; j++) gamma[j * nn + i * n + i] = ke[j]!;
    }
    for (let i = 0; i < n; i++) {
      for (let l = i + 1; l < n; l++) {
        a.fill(0);
        a[i] = 1;
        a[l] = 1;
        kappa(kev, q, a);
        for (let j = 0; j < n; j++) {
          const b = 0.5 * (kev[j]! - gamma[j * nn + i * n + i]! - gamma[j * nn + l * n + l]!);
          gamma[j * nn + i * n + l] = b;
          gamma[j * nn + l * n + i] = b;
        }
      }
    }
    this.gammaReady = true;
  }

  /**
   * out ← g(q, v) = Σ_jk Γ_{j,ik}(q) v_j v_k from the Christoffel symbols of the last
   * {@link christoffel} at this q (no call of κ); the system's `kineticGradient` when it gives one,
   * and the polarization of κ ({@link gradient}) when the symbols are not ready. `out` must not
   * alias v.
   */
  gradientAt(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    if (!this.gammaReady || this.sys.kineticGradient !== undefined) return this.gradient(out, q, v);
    const { n, gamma } = this;
    const nn = n * n;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) {
        const row = j * nn + i * n;
        let t = 0;
        for (let k = 0; k < n; k++) t += gamma[row + k]! * v[k]!;
        s += v[j]! * t;
      }
      out[i] = s;
    }
    return out;
  }

  /**
   * out ← ∂g/∂v(q, v) (n×n row-major) from the Christoffel symbols of the last
   * {@link christoffel}, which must have been called at this q after its {@link factor}
   * (module doc); otherwise, or without `coriolis`, the polarization of g ({@link gradientJacobian}).
   */
  gradientJacobianAt(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
    if (!this.gammaReady) return this.gradientJacobian(out, q, v);
    const { n, gamma } = this;
    const nn = n * n;
    for (let i = 0; i < n; i++) {
      for (let l = 0; l < n; l++) {
        let s = 0;
        const rowL = l * nn + i * n;
        for (let k = 0; k < n; k++) s += gamma[rowL + k]! * v[k]!;
        for (let j = 0; j < n; j++) s += gamma[j * nn + i * n + l]! * v[j]!;
        out[i * n + l] = s;
      }
    }
    return out;
  }

  /**
   * M ← M(q) and its LU. @throws {@link NonFiniteError} for a non-finite entry,
   * {@link SingularMatrixError} for a singular M(q).
   */
  factor(q: Float64Array, what: string): DenseLU {
    const { M, n } = this;
    this.gammaReady = false; // Γ belongs to the q of the next christoffel
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
