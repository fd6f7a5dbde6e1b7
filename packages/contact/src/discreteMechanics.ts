/**
 * Discrete contact mechanics on Q × Q × R (spec 004 §5, seed 004 Section 3) for any
 * {@link DiscreteContactLagrangian} L_d(q0, q1, z0): the conformal factor σ_d = 1 + D_z L_d, the
 * discrete Legendre transforms F^±L_d (40), the z-recursion (35) and discrete action (36) with
 * its adjoint gradient (37), the discrete Herglotz residual (39), the discrete momentum map (52),
 * the pulled-back contact forms η^± (46)–(47) and finite-difference checks of the conformal
 * contact property (48)–(49).
 *
 * Paths q_d = (q_0, …, q_N) are flat `Float64Array`s of (N+1)·n numbers (row k = q_k), or arrays
 * of N+1 vectors. Functions returning vectors write into an `out` given first; those that need
 * scratch say so. For per-step work use {@link ContactIntegrator}, which allocates nothing.
 *
 * @module
 */
import { DimensionError, DomainError } from '@geomech/core';
import { ContactIntegrator, type ContactIntegratorOptions } from './integrator.js';
import { checkSigma } from './regularity.js';
import type { DiscreteContactLagrangian } from './types.js';

/**
 * A point (q, p, z) of T*Q × R; `out` argument of {@link legendrePlus}/{@link legendreMinus}.
 *
 * @example
 * ```ts
 * const x: ContactPoint = { q: Float64Array.of(1), p: Float64Array.of(0), z: 0 };
 * ```
 */
export interface ContactPoint {
  q: Float64Array;
  p: Float64Array;
  z: number;
}

/**
 * Allocates a {@link ContactPoint} of dimension n (zeros).
 *
 * @example
 * ```ts
 * contactPoint(2).q; // Float64Array [0, 0]
 * ```
 */
export function contactPoint(n: number): ContactPoint {
  return { q: new Float64Array(n), p: new Float64Array(n), z: 0 };
}

/**
 * A discrete path q_d: flat (N+1)·n row-major, or N+1 vectors of length n.
 *
 * @example
 * ```ts
 * const path: DiscretePath = [[1], [2], [2.5102941176470589]]; // or Float64Array.of(1, 2, 2.51…)
 * ```
 */
export type DiscretePath = Float64Array | readonly ArrayLike<number>[];

/**
 * σ_d(q0, q1, z0) = 1 + D_z L_d(q0, q1, z0), the conformal factor of the discrete flows
 * (Thm 3.9, seed 004; spec 004 §5.5). It approximates exp(∫₀ʰ L_z dt) (§6.3, §11.8).
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(zeroPotential(), -0.05, 0.5);
 * sigmaD(Ld, Float64Array.of(1), Float64Array.of(2), 0); // 0.975 = 1 + hγ
 * ```
 */
export function sigmaD(
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): number {
  return 1 + Ld.Dz(q0, q1, z0);
}

/**
 * (40) F⁺L_d(q0, q1, z0) = (q1, D2 L_d(q0, q1, z0), z0 + L_d(q0, q1, z0)), written into `out`.
 * Note that F⁺ already carries the updated z1. Allocates nothing.
 *
 * @example
 * ```ts
 * const Ld79 = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79), spec 004 §8.2
 * legendrePlus(contactPoint(1), Ld79, Float64Array.of(1), Float64Array.of(2), 0); // { q: [2], p: [1.625], z: 0.4375 }
 * ```
 */
export function legendrePlus(
  out: ContactPoint,
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): ContactPoint {
  const z1 = z0 + Ld.Ld(q0, q1, z0);
  Ld.D2(out.p, q0, q1, z0);
  out.q.set(q1);
  out.z = z1;
  return out;
}

/**
 * (40) F⁻L_d(q0, q1, z0) = (q0, −D1 L_d(q0, q1, z0)/(1 + D_z L_d(q0, q1, z0)), z0), written into
 * `out`. Allocates nothing.
 *
 * @throws {@link RegularityError} when 1 + D_z L_d vanishes (relative `SIGMA_REGULARITY_TOL`).
 * @example
 * ```ts
 * const Ld79 = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79), spec 004 §8.2
 * legendreMinus(contactPoint(1), Ld79, Float64Array.of(1), Float64Array.of(2), 0).p[0]; // 2.375/0.975
 * ```
 */
export function legendreMinus(
  out: ContactPoint,
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): ContactPoint {
  const sigma = checkSigma(Ld.Dz(q0, q1, z0), 0);
  Ld.D1(out.p, q0, q1, z0);
  for (let i = 0; i < Ld.n; i++) out.p[i] = -out.p[i]! / sigma;
  out.q.set(q0);
  out.z = z0;
  return out;
}

/**
 * (F⁻L_d)⁻¹ at (q0, p0, z0): the q1 with F⁻L_d(q0, q1, z0) = (q0, p0, z0), i.e. the root of
 * (1 + D_z L_d(q0, q1, z0)) p0 + D1 L_d(q0, q1, z0) = 0 (spec 004 §7.1), by Newton from `guess`
 * (default q0 + hσ̂p0). Allocates a solver: a cold-path utility (starting a run from (q0, p0, z0)).
 *
 * @throws {@link RegularityError} when σ vanishes at the root; {@link NewtonDivergedError}.
 * @example
 * ```ts
 * const Ld79 = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79), spec 004 §8.2
 * inverseLegendreMinus(Ld79, Float64Array.of(1), Float64Array.of(2.375 / 0.975), 0); // [2]
 * ```
 */
export function inverseLegendreMinus(
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  p0: Float64Array,
  z0: number,
  guess?: ArrayLike<number>,
  options: ContactIntegratorOptions = {},
): Float64Array {
  return new ContactIntegrator(Ld, options).inverseLegendreMinus(
    new Float64Array(Ld.n),
    q0,
    p0,
    z0,
    guess,
  );
}

function toFlat(what: string, qs: DiscretePath, n: number): Float64Array {
  if (qs instanceof Float64Array) {
    if (qs.length % n !== 0 || qs.length < 2 * n)
      throw new DimensionError(`${what}: flat path length`, `(N+1)·${n} with N >= 1`, qs.length);
    return qs;
  }
  if (qs.length < 2) throw new DimensionError(`${what}: path points`, '>= 2', qs.length);
  const flat = new Float64Array(qs.length * n);
  qs.forEach((v, k) => {
    checkLength(`${what}: q[${k}]`, v, n);
    for (let i = 0; i < n; i++) flat[k * n + i] = v[i]!;
  });
  return flat;
}

function checkLength(what: string, v: ArrayLike<number>, n: number): void {
  if (v.length !== n) throw new DimensionError(what, n, v.length);
}

/**
 * (35) z-recursion z_{k+1} = z_k + L_d(q_k, q_{k+1}, z_k), k = 0 … N−1: returns (z_0, …, z_N).
 *
 * @example
 * ```ts
 * const Ld79 = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79), spec 004 §8.2
 * zRecursion(Ld79, [[1], [2], [2.5102941176470589]], 0); // [0, 0.4375, −0.58445947…]
 * ```
 */
export function zRecursion(
  Ld: DiscreteContactLagrangian,
  qs: DiscretePath,
  z0: number,
): Float64Array {
  const n = Ld.n;
  const flat = toFlat('zRecursion', qs, n);
  const N = flat.length / n - 1;
  const zs = new Float64Array(N + 1);
  zs[0] = z0;
  for (let k = 0; k < N; k++) {
    const z = zs[k]!;
    zs[k + 1] = z + Ld.Ld(row(flat, k, n), row(flat, k + 1, n), z);
  }
  return zs;
}

/**
 * (36) discrete action A_{d,z0}(q_d) = z_N, the end value of the z-recursion (35). Note it is not
 * a sum of L_d's unless D_z L_d = 0.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * discreteAction(Ld, [[1], [2], [2.5102941176470589]], 0); // z_2 = −0.58445947… (spec 004 §8.2)
 * ```
 */
export function discreteAction(
  Ld: DiscreteContactLagrangian,
  qs: DiscretePath,
  z0: number,
): number {
  const zs = zRecursion(Ld, qs, z0);
  return zs[zs.length - 1]!;
}

/**
 * (37) Prop. 3.1: the gradient of the discrete action z_N with respect to every q_k, by the
 * adjoint (reverse) recursion
 *
 *   ∂z_N/∂q_0 = [Π_{j=2}^N σ_j] D1 L_d(q_0, q_1, z_0)
 *   ∂z_N/∂q_k = [Π_{j=k+2}^N σ_j] (D1 L_d(q_k, q_{k+1}, z_k) + σ_{k+1} D2 L_d(q_{k−1}, q_k, z_{k−1}))
 *   ∂z_N/∂q_N = D2 L_d(q_{N−1}, q_N, z_{N−1})
 *
 * with σ_j = 1 + D_z L_d(q_{j−1}, q_j, z_{j−1}) (empty product 1). Returns the flat (N+1)·n
 * gradient (row k = ∂z_N/∂q_k). The interior rows are σ-weighted discrete Herglotz residuals
 * (39); they vanish exactly on solutions (Thm 3.4).
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5);
 * const path = new ContactIntegrator(Ld).integrate({ q0: [1], q1: [2], z0: 0 }, 10).q;
 * const g = discreteActionGradient(Ld, path, 0); // g[1…9] ≈ 0 (1e-12) on the trajectory
 * ```
 */
export function discreteActionGradient(
  Ld: DiscreteContactLagrangian,
  qs: DiscretePath,
  z0: number,
): Float64Array {
  const n = Ld.n;
  const flat = toFlat('discreteActionGradient', qs, n);
  const N = flat.length / n - 1;
  const zs = zRecursion(Ld, flat, z0);
  const sigma = new Float64Array(N + 1); // sigma[j], j = 1..N
  for (let j = 1; j <= N; j++)
    sigma[j] = 1 + Ld.Dz(row(flat, j - 1, n), row(flat, j, n), zs[j - 1]!);
  const grad = new Float64Array((N + 1) * n);
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  // ∂z_N/∂q_N
  Ld.D2(d2, row(flat, N - 1, n), row(flat, N, n), zs[N - 1]!);
  grad.set(d2, N * n);
  let P = 1; // Π_{j=k+2}^N σ_j
  for (let k = N - 1; k >= 0; k--) {
    Ld.D1(d1, row(flat, k, n), row(flat, k + 1, n), zs[k]!);
    if (k >= 1) {
      Ld.D2(d2, row(flat, k - 1, n), row(flat, k, n), zs[k - 1]!);
      const s = sigma[k + 1]!;
      for (let i = 0; i < n; i++) grad[k * n + i] = P * (d1[i]! + s * d2[i]!);
    } else {
      for (let i = 0; i < n; i++) grad[i] = P * d1[i]!;
    }
    P *= sigma[k + 1]!;
  }
  return grad;
}

/**
 * (39) discrete Herglotz residual at q_k = q, given (q_{k−1}, z_{k−1}) = (qPrev, zPrev) and
 * q_{k+1} = qNext:
 *
 *   out ← D1 L_d(q_k, q_{k+1}, z_k) + (1 + D_z L_d(q_k, q_{k+1}, z_k)) D2 L_d(q_{k−1}, q_k, z_{k−1}),
 *   z_k = z_{k−1} + L_d(q_{k−1}, q_k, z_{k−1})                                       (35)
 *
 * σ on the forward interval (§11.12). This is also Vermeeren et al.'s condition of Remark 3.5,
 * ∂Z_{k+1}/∂q_k + ∂Z_{k+1}/∂z_k ∂Z_k/∂q_k; dividing by σ gives the momentum-matching form (41),
 * D2 L_d(q_{k−1}, q_k, z_{k−1}) − F⁻ momentum = 0. Allocates one n-vector of scratch.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * const q = [1, 2, 2.5102941176470589].map((x) => Float64Array.of(x)); // spec 004 §8.2
 * herglotzResidual(new Float64Array(1), Ld, q[0]!, q[1]!, q[2]!, 0); // ≈ [0] (1e-15)
 * ```
 */
export function herglotzResidual(
  out: Float64Array,
  Ld: DiscreteContactLagrangian,
  qPrev: Float64Array,
  q: Float64Array,
  qNext: Float64Array,
  zPrev: number,
): Float64Array {
  const n = Ld.n;
  const d2 = new Float64Array(n);
  const z = zPrev + Ld.Ld(qPrev, q, zPrev);
  Ld.D2(d2, qPrev, q, zPrev);
  Ld.D1(out, q, qNext, z);
  const s = 1 + Ld.Dz(q, qNext, z);
  for (let i = 0; i < n; i++) out[i] = out[i]! + s * d2[i]!;
  return out;
}

/**
 * ξ_Q: writes the infinitesimal generator ξ_Q(q) of a symmetry (a vector field on Q) into `out`.
 *
 * @example
 * ```ts
 * const rotation: InfinitesimalGenerator = (out, q) => {
 *   out[0] = -q[1]!;
 *   out[1] = q[0]!;
 * };
 * ```
 */
export type InfinitesimalGenerator = (out: Float64Array, q: Float64Array) => void;

/**
 * (52) discrete momentum map ⟨J_d(q0, q1, z0), ξ⟩ = ⟨η⁻, ξ̃⟩ = D1 L_d(q0, q1, z0)·ξ_Q(q0) /
 * (1 + D_z L_d(q0, q1, z0)) = −p0⁻·ξ_Q(q0). Note the minus sign relative to the continuous
 * J_L = +p·ξ_Q (34) (§11.9). For an invariant L_d it is dissipated (Thm 3.11):
 * Ĵ_d(Φ_d(x)) = σ_d(x) Ĵ_d(x). The returned function owns its scratch: calls allocate nothing.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(zeroPotential(), -0.05, 0.5); // a free particle
 * const J = discreteMomentumMap(Ld, (out) => { out.fill(1); }); // translations
 * J(Float64Array.of(1), Float64Array.of(2), 0); // −(q1 − q0)/(h(1 + hγ)) = −2/0.975
 * ```
 */
export function discreteMomentumMap(
  Ld: DiscreteContactLagrangian,
  xiQ: InfinitesimalGenerator,
): (q0: Float64Array, q1: Float64Array, z0: number) => number {
  const n = Ld.n;
  const d1 = new Float64Array(n);
  const xi = new Float64Array(n);
  return (q0, q1, z0) => {
    Ld.D1(d1, q0, q1, z0);
    xiQ(xi, q0);
    let s = 0;
    for (let i = 0; i < n; i++) s += d1[i]! * xi[i]!;
    return s / (1 + Ld.Dz(q0, q1, z0));
  };
}

/**
 * (47) η⁺ = (F⁺L_d)*η = D1 L_d dq0 + (1 + D_z L_d) dz0 (no dq1 term), as the coefficient row over
 * (dq0, dq1, dz0) ∈ R^{2n+1}, written into `out`.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * contactFormPlus(new Float64Array(3), Ld, Float64Array.of(1), Float64Array.of(2), 0); // [−2.375, 0, 0.975]
 * ```
 */
export function contactFormPlus(
  out: Float64Array,
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): Float64Array {
  const n = Ld.n;
  checkLength('contactFormPlus: out', out, 2 * n + 1);
  Ld.D1(out.subarray(0, n), q0, q1, z0);
  for (let i = n; i < 2 * n; i++) out[i] = 0;
  out[2 * n] = 1 + Ld.Dz(q0, q1, z0);
  return out;
}

/**
 * (46) η⁻ = (F⁻L_d)*η = dz0 + [D1 L_d/(1 + D_z L_d)] dq0, as the coefficient row over
 * (dq0, dq1, dz0) ∈ R^{2n+1}, written into `out`. Lemma 3.8(i): η⁺ = σ_d η⁻.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5); // (79)
 * contactFormMinus(new Float64Array(3), Ld, Float64Array.of(1), Float64Array.of(2), 0); // [−2.375/0.975, 0, 1]
 * ```
 */
export function contactFormMinus(
  out: Float64Array,
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): Float64Array {
  const n = Ld.n;
  checkLength('contactFormMinus: out', out, 2 * n + 1);
  const sigma = checkSigma(Ld.Dz(q0, q1, z0), 0);
  Ld.D1(out.subarray(0, n), q0, q1, z0);
  for (let i = 0; i < n; i++) out[i] = out[i]! / sigma;
  for (let i = n; i < 2 * n; i++) out[i] = 0;
  out[2 * n] = 1;
  return out;
}

/**
 * A one-step map on R^{2n+1} (phase space (q, p, z) or Q × Q × R): writes the image of x into
 * `out` and returns the step's conformal factor σ.
 *
 * @example
 * ```ts
 * const map: StepMap = new ContactIntegrator(mechanicalMidpointLd(zeroPotential(), -0.05, 0.5)).hamiltonianMap();
 * map(new Float64Array(3), Float64Array.of(1, 2, 0)); // σ = 0.975
 * ```
 */
export type StepMap = (out: Float64Array, x: Float64Array) => number;

/**
 * Default relative step of the five-point differences of {@link stepMapJacobian}: ε^{1/5} ≈ 7.4e-4
 * balances the truncation error O(e⁴) against the rounding error O(ε/e), both ≈ 1e-13 relative
 * for a map computed to working precision (its Newton solve must converge to ~ε, not to 1e-12).
 *
 * @example
 * ```ts
 * FIVE_POINT_STEP; // ε^{1/5} ≈ 7.4e-4
 * ```
 */
export const FIVE_POINT_STEP = Number.EPSILON ** 0.2;

/**
 * out ← Jacobian ∂x′/∂x of a {@link StepMap} at x (m×m row-major, m = x.length), by five-point
 * central differences f′ ≈ (−f(x+2e) + 8f(x+e) − 8f(x−e) + f(x−2e))/(12e), e = eps·max(1, |x_j|).
 * Allocates its scratch (cold path).
 *
 * @example
 * ```ts
 * const map = new ContactIntegrator(mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5), { tol: 0 }).hamiltonianMap();
 * stepMapJacobian(new Float64Array(9), map, [1, 2, 0]); // the 3×3 Jacobian of Φ̃_d at (q, p, z) = (1, 2, 0)
 * ```
 */
export function stepMapJacobian(
  out: Float64Array,
  map: StepMap,
  x: ArrayLike<number>,
  eps: number = FIVE_POINT_STEP,
): Float64Array {
  if (!(eps > 0) || !Number.isFinite(eps))
    throw new DomainError('stepMapJacobian: eps', eps, 'must be a positive finite number');
  const m = x.length;
  if (out.length < m * m) throw new DimensionError('stepMapJacobian: out', m * m, out.length);
  const xw = Float64Array.from(x);
  const f = [new Float64Array(m), new Float64Array(m), new Float64Array(m), new Float64Array(m)];
  const offsets = [2, 1, -1, -2];
  const weights = [-1, 8, -8, 1];
  for (let j = 0; j < m; j++) {
    const xj = xw[j]!;
    const e = eps * Math.max(1, Math.abs(xj));
    for (let s = 0; s < 4; s++) {
      xw[j] = xj + offsets[s]! * e;
      map(f[s]!, xw);
    }
    xw[j] = xj;
    for (let i = 0; i < m; i++) {
      let d = 0;
      for (let s = 0; s < 4; s++) d += weights[s]! * f[s]![i]!;
      out[i * m + j] = d / (12 * e);
    }
  }
  return out;
}

/**
 * Result of {@link contactFormDefect} and {@link lagrangianContactFormDefect}.
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(pendulumPotential(1, 1), -0.1, 0.1);
 * const d: ContactFormDefect = contactFormDefect(new ContactIntegrator(Ld, { tol: 0 }).hamiltonianMap(), [0.7, 0.4, 0.2]);
 * d.sigma; // 0.99 = 1 + hγ
 * ```
 */
export interface ContactFormDefect {
  /** The pulled-back form (map*η)(x) as a row over the 2n+1 coordinates. */
  readonly lhs: Float64Array;
  /** σ·η(x). */
  readonly rhs: Float64Array;
  /** The conformal factor σ returned by the map at x. */
  readonly sigma: number;
  /** max_i |lhs_i − rhs_i|. */
  readonly maxAbs: number;
}

/**
 * (49) Thm 3.9 in coordinates (spec 004 §5.5 [D]): for the discrete Hamiltonian map
 * Φ̃_d: x = (q, p, z) ↦ x′ = (q′, p′, z′) with Jacobian M = ∂x′/∂x (by {@link stepMapJacobian}),
 *
 *   lhs = [−p′ᵀ, 0ₙᵀ, 1]·M,   rhs = σ_k [−pᵀ, 0ₙᵀ, 1],   σ_k = 1 + D_z L_d(q_k, q_{k+1}, z_k).
 *
 * `stepFn` is e.g. `ContactIntegrator.hamiltonianMap()` (use a tight Newton tolerance, e.g.
 * `tol: 0`, so the map is smooth to working precision).
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(pendulumPotential(1, 1), -0.1, 0.1);
 * const d = contactFormDefect(new ContactIntegrator(Ld, { tol: 0 }).hamiltonianMap(), [0.7, 0.4, 0.2]);
 * d.maxAbs; // ≈ 2e-14: conformal with σ = d.sigma (49)
 * ```
 */
export function contactFormDefect(
  stepFn: StepMap,
  x: ArrayLike<number>,
  eps: number = FIVE_POINT_STEP,
): ContactFormDefect {
  const m = x.length;
  if (m < 3 || m % 2 !== 1) throw new DimensionError('contactFormDefect: x', '2n+1 with n >= 1', m);
  const n = (m - 1) / 2;
  const xv = Float64Array.from(x);
  const image = new Float64Array(m);
  const sigma = stepFn(image, xv);
  const M = stepMapJacobian(new Float64Array(m * m), stepFn, xv, eps);
  const eta1 = new Float64Array(m); // η at x′
  for (let i = 0; i < n; i++) eta1[i] = -image[n + i]!;
  eta1[2 * n] = 1;
  const lhs = rowTimes(eta1, M, m);
  const rhs = new Float64Array(m);
  for (let i = 0; i < n; i++) rhs[i] = -sigma * xv[n + i]!;
  rhs[2 * n] = sigma;
  return { lhs, rhs, sigma, maxAbs: maxAbsDiff(lhs, rhs) };
}

/**
 * (48) Thm 3.9 on the Lagrangian side (spec 004 §5.5 [D]): for Φ_d: x = (q0, q1, z0) ↦
 * (q1, q2, z1), lhs = η⁻(Φ_d(x))·JΦ_d(x) and rhs = σ_d(x) η⁻(x), η⁻ = [D1 L_d/(1 + D_z L_d), 0ₙ, 1]
 * (46). `stepFn` is e.g. `ContactIntegrator.lagrangianMap()`, returning σ_d(x).
 *
 * @example
 * ```ts
 * const Ld = mechanicalMidpointLd(pendulumPotential(1, 1), -0.1, 0.1);
 * lagrangianContactFormDefect(Ld, new ContactIntegrator(Ld, { tol: 0 }).lagrangianMap(), [0.7, 0.75, 0.2]).maxAbs; // ≈ 4e-14: (48) holds
 * ```
 */
export function lagrangianContactFormDefect(
  Ld: DiscreteContactLagrangian,
  stepFn: StepMap,
  x: ArrayLike<number>,
  eps: number = FIVE_POINT_STEP,
): ContactFormDefect {
  const n = Ld.n;
  const m = 2 * n + 1;
  checkLength('lagrangianContactFormDefect: x', x, m);
  const xv = Float64Array.from(x);
  const image = new Float64Array(m);
  const sigma = stepFn(image, xv);
  const M = stepMapJacobian(new Float64Array(m * m), stepFn, xv, eps);
  const etaImage = contactFormMinus(
    new Float64Array(m),
    Ld,
    image.subarray(0, n),
    image.subarray(n, 2 * n),
    image[2 * n]!,
  );
  const lhs = rowTimes(etaImage, M, m);
  const rhs = contactFormMinus(
    new Float64Array(m),
    Ld,
    xv.subarray(0, n),
    xv.subarray(n, 2 * n),
    xv[2 * n]!,
  );
  for (let i = 0; i < m; i++) rhs[i] = sigma * rhs[i]!;
  return { lhs, rhs, sigma, maxAbs: maxAbsDiff(lhs, rhs) };
}

function rowTimes(v: Float64Array, M: Float64Array, m: number): Float64Array {
  const out = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += v[i]! * M[i * m + j]!;
    out[j] = s;
  }
  return out;
}

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

function row(flat: Float64Array, k: number, n: number): Float64Array {
  return flat.subarray(k * n, (k + 1) * n);
}
