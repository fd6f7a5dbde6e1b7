/**
 * Stability analytics of the Ziegler column (spec 001 §7.2 "Quantifying that explanation", §8, §10
 * "Stability"): the linearization about the upright position in angle coordinates, critical
 * (divergence, Hill/KISS and flutter) loads, buckled equilibria, the geometric degree of
 * nonconservativity (GDNC) and a KISS check, plus the closed-form values of spec §7.2 and §8.
 *
 * Angle model (spec §7.2, corrected): n links of lengths l_j from a fixed base, absolute angles θ_j
 * from the upward vertical, a point mass at each moving joint, rotational springs k between the base
 * and link 1 and between consecutive links, and a dead downward load P at every moving joint:
 * V(θ) = P Σ_i y_i + Σ_j (k/2)(θ_j − θ_{j−1})², θ_0 = 0, y_i = Σ_{j≤i} l_j cos θ_j. Indices in the
 * code are 0-based (link j = 0..n−1 carries the load of n − j joints above and including its tip).
 *
 * Everything here is a cold path (setup and diagnostics): it allocates freely.
 *
 * @module
 */
import {
  asymmetry,
  DenseLU,
  DomainError,
  eigenvalues,
  NewtonSolver,
  symmetricEigen,
} from '@geomech/core';

/** Threshold on |a_ij − a_ji| / max|a_ij| below which a stiffness matrix is treated as symmetric. */
export const ZIEGLER_SYMMETRY_RTOL = 1e-14;

function positive(what: string, x: number): number {
  if (!(x > 0 && Number.isFinite(x))) throw new DomainError(what, x, 'must be positive and finite');
  return x;
}

/** Geometry and inertia of the angle model; every field has a default (spec §7.2, §11.12). */
export interface ZieglerLinearParams {
  /** Number of links (≥ 1). Default 2, or `lengths.length` when `lengths` is given. */
  readonly n?: number;
  /** Mass at each moving joint. Default 1. */
  readonly m?: number;
  /** Rotational spring stiffness (base and every interior joint). Default 1. */
  readonly k?: number;
  /** Common link length (ignored when `lengths` is given). Default 1. */
  readonly l?: number;
  /** Individual link lengths l_1..l_n (extension; spec §7.2 allows l1 ≠ l2). */
  readonly lengths?: readonly number[];
}

/** Resolved parameters of {@link ZieglerLinearParams}. */
export interface ZieglerResolved {
  readonly n: number;
  readonly m: number;
  readonly k: number;
  readonly lengths: Float64Array;
}

/** Validates and fills the defaults of {@link ZieglerLinearParams}. */
export function resolveZieglerParams(params: ZieglerLinearParams = {}): ZieglerResolved {
  const n = params.lengths ? params.lengths.length : (params.n ?? 2);
  if (!Number.isInteger(n) || n < 1) throw new DomainError('ziegler: n', n, 'must be ≥ 1');
  if (params.lengths && params.n !== undefined && params.n !== n) {
    throw new DomainError('ziegler: n', params.n, `must equal lengths.length = ${n}`);
  }
  const m = positive('ziegler: m', params.m ?? 1);
  const k = positive('ziegler: k', params.k ?? 1);
  const lengths = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    lengths[j] = positive(`ziegler: lengths[${j}]`, params.lengths?.[j] ?? params.l ?? 1);
  }
  return { n, m, k, lengths };
}

/** The linearization `M θ̈ + K(P) θ = 0` about the upright column (spec §7.2, §10 `linearize`). */
export interface ZieglerLinearization {
  /** Number of angles. */
  readonly n: number;
  /**
   * K(P) = ∇²_θ V at θ = 0 (n×n row-major, symmetric): k·tridiag(−1, 2, −1) with K_nn = k, minus
   * diag(P l_j (n − j)) (0-based j). For n = 2: `[[2k − 2P l1, −k], [−k, k − P l2]]`.
   */
  K(P: number): Float64Array;
  /**
   * M_θ (n×n row-major, symmetric positive definite): M_ij = m l_i l_j (n − max(i, j)) (0-based),
   * from T = (m/2) Σ_i |q̇_i|² at θ = 0. For n = 2: `m [[2 l1², l1 l2], [l1 l2, l2²]]`.
   */
  readonly M: Float64Array;
  /** The load-free spring matrix K(0). */
  readonly K0: Float64Array;
  /** The load direction D with K(P) = K0 − P D: D = diag(l_j (n − j)). */
  readonly D: Float64Array;
}

/**
 * Linearizes the Ziegler column of spec §7.2 about the upright position in absolute angles.
 *
 * @example
 * ```ts
 * const { K, M } = linearizeZiegler({ n: 2 });
 * K(0.2); // [1.6, −1, −1, 0.8]
 * M;      // [2, 1, 1, 1]
 * ```
 */
export function linearizeZiegler(params: ZieglerLinearParams = {}): ZieglerLinearization {
  const { n, m, k, lengths } = resolveZieglerParams(params);
  const K0 = new Float64Array(n * n);
  const D = new Float64Array(n);
  const M = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    K0[i * n + i] = i + 1 < n ? 2 * k : k;
    if (i + 1 < n) {
      K0[i * n + i + 1] = -k;
      K0[(i + 1) * n + i] = -k;
    }
    D[i] = lengths[i]! * (n - i);
    for (let j = 0; j < n; j++) M[i * n + j] = m * lengths[i]! * lengths[j]! * (n - Math.max(i, j));
  }
  return {
    n,
    M,
    K0,
    D,
    K(P: number): Float64Array {
      const K = Float64Array.from(K0);
      for (let i = 0; i < n; i++) K[i * n + i] = K[i * n + i]! - P * D[i]!;
      return K;
    },
  };
}

/**
 * V(θ) of the angle model (spec §7.2): P Σ_i y_i + Σ_j (k/2)(θ_j − θ_{j−1})². Equals
 * `zieglerColumn(...).potentialFromAngles` for equal lengths.
 *
 * @example
 * ```ts
 * zieglerPotential({ n: 2 }, 0.3, [0, 0]); // 0.3·(1 + 2) = 0.9
 * ```
 */
export function zieglerPotential(
  params: ZieglerLinearParams,
  P: number,
  theta: ArrayLike<number>,
): number {
  const { n, k, lengths } = resolveZieglerParams(params);
  let y = 0;
  let sy = 0;
  let springs = 0;
  let prev = 0;
  for (let j = 0; j < n; j++) {
    const t = theta[j]!;
    y += lengths[j]! * Math.cos(t);
    sy += y;
    springs += (t - prev) * (t - prev);
    prev = t;
  }
  return P * sy + 0.5 * k * springs;
}

/** out ← ∇_θ V (spec §7.2 equilibrium equations; for n = 2: k(2θ1 − θ2) − 2P l1 sin θ1, …). */
function gradTheta(
  out: Float64Array,
  theta: ArrayLike<number>,
  r: ZieglerResolved,
  P: number,
): Float64Array {
  const { n, k, lengths } = r;
  for (let j = 0; j < n; j++) {
    const t = theta[j]!;
    const prev = j === 0 ? 0 : theta[j - 1]!;
    let g = k * (t - prev) - P * lengths[j]! * (n - j) * Math.sin(t);
    if (j + 1 < n) g -= k * (theta[j + 1]! - t);
    out[j] = g;
  }
  return out;
}

/** out ← ∇²_θ V (n×n row-major). */
function hessTheta(
  out: Float64Array,
  theta: ArrayLike<number>,
  r: ZieglerResolved,
  P: number,
): Float64Array {
  const { n, k, lengths } = r;
  out.fill(0);
  for (let j = 0; j < n; j++) {
    out[j * n + j] = (j + 1 < n ? 2 * k : k) - P * lengths[j]! * (n - j) * Math.cos(theta[j]!);
    if (j + 1 < n) {
      out[j * n + j + 1] = -k;
      out[(j + 1) * n + j] = -k;
    }
  }
  return out;
}

/**
 * ∇_θ V(θ) of the angle model (the residual of the equilibrium equations, spec §7.2).
 *
 * @example
 * ```ts
 * zieglerGradient({ n: 2 }, 0.3, [0.30981636990293915, 0.4367024872887203]); // ≈ [0, 0]
 * ```
 */
export function zieglerGradient(
  params: ZieglerLinearParams,
  P: number,
  theta: ArrayLike<number>,
): Float64Array {
  const r = resolveZieglerParams(params);
  return gradTheta(new Float64Array(r.n), theta, r, P);
}

/**
 * Closed-form critical (divergence/buckling) load of the 2-link column (spec §7.2):
 * P_c = k [(l1 + l2) − √(l1² + l2²)] / (2 l1 l2), the smaller root of
 * det K = 2P² l1 l2 − 2P k (l1 + l2) + k². For l1 = l2 = l: (1 − 1/√2) k/l.
 *
 * @example
 * ```ts
 * zieglerCriticalLoad2(1, 1, 1); // 0.2928932188134524
 * ```
 */
export function zieglerCriticalLoad2(k: number, l1: number, l2: number): number {
  positive('zieglerCriticalLoad2: k', k);
  positive('zieglerCriticalLoad2: l1', l1);
  positive('zieglerCriticalLoad2: l2', l2);
  // rationalized form of k[(l1 + l2) − √(l1² + l2²)]/(2 l1 l2), free of cancellation
  return k / (l1 + l2 + Math.hypot(l1, l2));
}

/** A load-dependent n×n matrix (row-major), e.g. K(P). */
export type LoadMatrix = (P: number) => ArrayLike<number>;

/** Search range and resolution of the critical-load searches. */
export interface LoadSearchOptions {
  /** Lower end of the search. Default 0. */
  readonly Pmin?: number;
  /** Upper end of the search (required finite, > Pmin). */
  readonly Pmax: number;
  /** Number of equal sub-intervals scanned for the first sign change before bisection. Default 64. */
  readonly samples?: number;
  /** Absolute tolerance on P of the bisection. Default 4ε·max(1, |P|). */
  readonly tol?: number;
}

function symPart(a: ArrayLike<number>, n: number): Float64Array {
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) s[i * n + j] = 0.5 * (a[i * n + j]! + a[j * n + i]!);
  }
  return s;
}

function lambdaMin(a: ArrayLike<number>, n: number): number {
  return symmetricEigen(a, n).values[0]!;
}

function determinant(a: ArrayLike<number>, n: number): number {
  return new DenseLU(n).factor(a).determinant();
}

/**
 * The smallest P in [Pmin, Pmax] where the predicate `unstable(P)` first holds, assuming it is
 * false at Pmin: a scan over `samples` sub-intervals, then bisection to `tol`. `undefined` if the
 * predicate never holds on the scan grid.
 */
function firstCrossing(
  unstable: (P: number) => boolean,
  options: LoadSearchOptions,
): number | undefined {
  const Pmin = options.Pmin ?? 0;
  const { Pmax } = options;
  const samples = options.samples ?? 64;
  if (!(Number.isFinite(Pmin) && Number.isFinite(Pmax) && Pmax > Pmin)) {
    throw new DomainError('critical load: range', [Pmin, Pmax], 'must be finite with Pmax > Pmin');
  }
  if (!Number.isInteger(samples) || samples < 1) {
    throw new DomainError('critical load: samples', samples, 'must be a positive integer');
  }
  if (unstable(Pmin)) return Pmin;
  let lo = Pmin;
  let hi = Number.NaN;
  for (let s = 1; s <= samples; s++) {
    const P = Pmin + ((Pmax - Pmin) * s) / samples;
    if (unstable(P)) {
      hi = P;
      break;
    }
    lo = P;
  }
  if (Number.isNaN(hi)) return undefined;
  for (let it = 0; it < 200; it++) {
    const tol = options.tol ?? 4 * Number.EPSILON * Math.max(1, Math.abs(hi));
    if (hi - lo <= tol) break;
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (unstable(mid)) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Critical divergence (buckling) load (spec §10 `criticalDivergenceLoad`): the smallest P in the
 * range where K(P) loses definiteness. For a symmetric K(P) (conservative load, spec §8) this is
 * the first P with λ_min(K(P)) ≤ 0 (the smallest root of det K(P) = 0 when K(Pmin) is positive
 * definite); for a non-symmetric family (K(P) tested at Pmin, the midpoint and Pmax) it is the
 * first sign change of det K(P). `undefined` when no
 * crossing is found on the scan grid.
 *
 * @throws {@link DomainError} for an empty or non-finite range.
 *
 * @example
 * ```ts
 * const { K, n } = linearizeZiegler({ n: 2 });
 * criticalDivergenceLoad(K, n, { Pmax: 1 }); // 0.2928932188134524 = 1 − 1/√2
 * ```
 */
export function criticalDivergenceLoad(
  K: LoadMatrix,
  n: number,
  options: LoadSearchOptions,
): number | undefined {
  const Pmin = options.Pmin ?? 0;
  const K0 = K(Pmin);
  // symmetric for the whole family (checked at both ends and the middle of the range)
  const symmetric = [Pmin, 0.5 * (Pmin + options.Pmax), options.Pmax].every(
    (P) => asymmetry(K(P), n) <= ZIEGLER_SYMMETRY_RTOL,
  );
  if (symmetric) return firstCrossing((P) => lambdaMin(symPart(K(P), n), n) <= 0, options);
  const s0 = Math.sign(determinant(K0, n));
  return firstCrossing((P) => Math.sign(determinant(K(P), n)) !== s0, options);
}

/**
 * Hill / KISS-divergence load (spec §8): P_K = inf{P : λ_min(K_s(P)) ≤ 0}, K_s = (K + Kᵀ)/2,
 * searched like {@link criticalDivergenceLoad}. Equals the divergence load for symmetric K.
 *
 * @example
 * ```ts
 * const { K, n } = followerZieglerLinearization({});
 * hillLoad(K, n, { Pmax: 5 }); // 2 = 2k/l (spec §8)
 * ```
 */
export function hillLoad(K: LoadMatrix, n: number, options: LoadSearchOptions): number | undefined {
  return firstCrossing((P) => lambdaMin(symPart(K(P), n), n) <= 0, options);
}

/** out ← M⁻¹ K (n×n row-major), by LU of M. */
function massInverseTimes(K: ArrayLike<number>, M: ArrayLike<number>, n: number): Float64Array {
  const lu = new DenseLU(n).factor(M);
  const col = new Float64Array(n);
  const out = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    for (let i = 0; i < n; i++) col[i] = K[i * n + c]!;
    lu.solve(col, col);
    for (let i = 0; i < n; i++) out[i * n + c] = col[i]!;
  }
  return out;
}

/** Squared frequencies ω² of `M θ̈ + K θ = 0`: the eigenvalues of M⁻¹K (re, im; spec §7.2). */
export function squaredFrequencies(
  K: ArrayLike<number>,
  M: ArrayLike<number>,
  n: number,
): { re: Float64Array; im: Float64Array } {
  return eigenvalues(massInverseTimes(K, M, n), n);
}

/**
 * Linear (Lyapunov-marginal) stability of `M θ̈ + K θ = 0`: every ω² (eigenvalue of M⁻¹K) real and
 * positive, to a relative tolerance `tol` (default 1e-10) of the largest |ω²|.
 */
export function isLinearlyStable(
  K: ArrayLike<number>,
  M: ArrayLike<number>,
  n: number,
  tol = 1e-10,
): boolean {
  const { re, im } = squaredFrequencies(K, M, n);
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.hypot(re[i]!, im[i]!));
  for (let i = 0; i < n; i++) {
    if (Math.abs(im[i]!) > tol * scale || !(re[i]! > tol * scale)) return false;
  }
  return true;
}

/**
 * Flutter load (spec §10 `flutterLoad`): the smallest P in the range where some ω² of
 * `M θ̈ + K(P) θ = 0` becomes complex (a pair of eigenvalues of M⁻¹K(P) leaves the real axis).
 * A divergence (real ω² crossing 0) does not count. `undefined` when none is found on the grid.
 *
 * @example
 * ```ts
 * const { K, M, n } = followerZieglerLinearization({});
 * flutterLoad(K, M, n, { Pmax: 3 }); // 2.0857864376269… = (7/2 − √2) k/l (spec §8)
 * ```
 */
export function flutterLoad(
  K: LoadMatrix,
  M: ArrayLike<number>,
  n: number,
  options: LoadSearchOptions,
): number | undefined {
  return firstCrossing((P) => {
    const { re, im } = squaredFrequencies(K(P), M, n);
    let scale = 0;
    let maxIm = 0;
    for (let i = 0; i < n; i++) {
      scale = Math.max(scale, Math.hypot(re[i]!, im[i]!));
      maxIm = Math.max(maxIm, Math.abs(im[i]!));
    }
    return maxIm > 1e-12 * scale;
  }, options);
}

/**
 * Critical buckling load of the n-link column of spec §7.2 by an eigenvalue computation: the
 * smallest P with det K(P) = 0, found by bisection on λ_min(K(P)) (K symmetric, λ_min decreasing
 * in P since K = K0 − P D with D positive diagonal) over [0, k/l_n] (the last link alone bounds it:
 * e_nᵀ K e_n = k − P l_n). For n = 2 it agrees with {@link zieglerCriticalLoad2}.
 *
 * @example
 * ```ts
 * zieglerCriticalLoad({ n: 2 }); // 0.29289321881345…
 * zieglerCriticalLoad({ n: 3 }); // smaller: a longer column buckles earlier
 * ```
 */
export function zieglerCriticalLoad(params: ZieglerLinearParams = {}): number {
  const lin = linearizeZiegler(params);
  const r = resolveZieglerParams(params);
  const Pmax = r.k / r.lengths[r.n - 1]!;
  const Pc = criticalDivergenceLoad(lin.K, lin.n, { Pmax, samples: 1 });
  // λ_min(K(Pmax)) ≤ e_nᵀK(Pmax)e_n = 0, so a crossing always exists in (0, Pmax]
  return Pc ?? Pmax;
}

/** A buckled equilibrium of the angle model (spec §7.2). */
export interface ZieglerEquilibrium {
  /** Angles θ_1..θ_n (rad, from the upward vertical). */
  readonly theta: Float64Array;
  /** ‖∇_θ V(θ)‖∞ at the returned point. */
  readonly residual: number;
  /** V(θ) (same zero as {@link zieglerPotential}). */
  readonly energy: number;
  /** True when the Hessian ∇²_θ V is positive definite (a stable equilibrium). */
  readonly stable: boolean;
}

/** Options of {@link buckledEquilibria}. */
export interface BuckledEquilibriaOptions {
  /** Extra Newton seeds (each of length n), tried after the built-in ones. */
  readonly seeds?: readonly (readonly number[])[];
  /** Keep only equilibria with max_j |θ_j| ≤ maxAngle. Default π. */
  readonly maxAngle?: number;
  /** Newton tolerance on ‖∇V‖∞. Default 1e-13. */
  readonly tol?: number;
}

/**
 * Non-trivial (buckled) equilibria at the load P (spec §7.2, §10 `buckledEquilibria`): the
 * solutions θ ≠ 0 of ∇_θ V = 0, for n = 2
 * `k(2θ1 − θ2) − 2P l1 sin θ1 = 0`, `k(θ2 − θ1) − P l2 sin θ2 = 0`. Found by damped Newton (line
 * search, analytic Hessian) from the seeds a·v for a ∈ {±0.1, ±0.25, ±0.5, ±1, ±1.5, ±2, ±2.5, ±3}
 * with v the critical buckling mode scaled to max|v_j| = 1, plus `options.seeds`; duplicates
 * (within 1e-8) and the upright position are removed. Mirror images come in pairs. Sorted by
 * descending θ_1.
 *
 * @example
 * ```ts
 * buckledEquilibria({ n: 2 }, 0.3)[0]!.theta; // [0.30981636990293915, 0.4367024872887203]
 * ```
 */
export function buckledEquilibria(
  params: ZieglerLinearParams,
  P: number,
  options: BuckledEquilibriaOptions = {},
): ZieglerEquilibrium[] {
  const r = resolveZieglerParams(params);
  const { n } = r;
  if (!(P >= 0 && Number.isFinite(P)))
    throw new DomainError('buckledEquilibria: P', P, 'must be ≥ 0');
  const maxAngle = options.maxAngle ?? Math.PI;
  const tol = options.tol ?? 1e-13;
  // critical mode: eigenvector of the smallest eigenvalue of D^{-1/2} K0 D^{-1/2}
  const lin = linearizeZiegler(params);
  const S = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      S[i * n + j] = lin.K0[i * n + j]! / Math.sqrt(lin.D[i]! * lin.D[j]!);
    }
  }
  const { vectors } = symmetricEigen(S, n);
  const mode = new Float64Array(n);
  let vmax = 0;
  for (let j = 0; j < n; j++) {
    mode[j] = vectors[j * n]! / Math.sqrt(lin.D[j]!);
    if (Math.abs(mode[j]!) > Math.abs(vmax)) vmax = mode[j]!;
  }
  for (let j = 0; j < n; j++) mode[j] = mode[j]! / vmax;
  const seeds: number[][] = [];
  for (const a of [0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3]) {
    for (const s of [1, -1]) seeds.push(Array.from(mode, (v) => s * a * v));
  }
  for (const seed of options.seeds ?? []) {
    if (seed.length !== n)
      throw new DomainError('buckledEquilibria: seed length', seed.length, `must be ${n}`);
    seeds.push([...seed]);
  }
  const solver = new NewtonSolver(n, { tol, lineSearch: true, maxIterations: 100 });
  const F = (out: Float64Array, x: Float64Array): void => {
    gradTheta(out, x, r, P);
  };
  const J = (out: Float64Array, x: Float64Array): void => {
    hessTheta(out, x, r, P);
  };
  const found: ZieglerEquilibrium[] = [];
  const H = new Float64Array(n * n);
  for (const seed of seeds) {
    let res: ReturnType<NewtonSolver['solve']>;
    try {
      res = solver.solve(F, J, seed);
    } catch {
      continue; // a singular Hessian on the way: this seed gives nothing
    }
    if (!res.converged) continue;
    const theta = Float64Array.from(res.x);
    let norm = 0;
    for (let j = 0; j < n; j++) norm = Math.max(norm, Math.abs(theta[j]!));
    if (norm < 1e-8 || norm > maxAngle) continue;
    if (found.some((e) => e.theta.every((t, j) => Math.abs(t - theta[j]!) < 1e-8))) continue;
    const g = gradTheta(new Float64Array(n), theta, r, P);
    let residual = 0;
    for (let j = 0; j < n; j++) residual = Math.max(residual, Math.abs(g[j]!));
    const stable = symmetricEigen(hessTheta(H, theta, r, P), n).values[0]! > 0;
    found.push({ theta, residual, energy: zieglerPotential(params, P, theta), stable });
  }
  return found.sort((a, b) => b.theta[0]! - a.theta[0]!);
}

/**
 * Closed-form critical loads of spec §7.2 and §8 for links of length l, springs k and joint mass m
 * (the classical column has masses 2m, m). Values in units of k/l.
 */
export interface ZieglerAnalyticValues {
  /** Paper model (dead load P at both joints): P_c = (1 − 1/√2) k/l (§7.2). */
  readonly pcDeadEachJoint: number;
  /** Its second root of det K = 0: (1 + 1/√2) k/l (§7.2). */
  readonly pcDeadEachJointSecond: number;
  /** Classical follower-force column: flutter load P_f = (7/2 − √2) k/l (§8). */
  readonly pfFollower: number;
  /** Its second discriminant root (7/2 + √2) k/l (§8). */
  readonly pfFollowerSecond: number;
  /** Its KISS/Hill load P_K = 2k/l (§8). */
  readonly pkFollower: number;
  /** Ziegler's destabilization paradox, vanishing dashpots D = b[[2,−1],[−1,1]]: 41k/(28l) (§8). */
  readonly pParadox: number;
  /** The same limit with D = b·I: 5k/(3l) (§8). */
  readonly pParadoxIdentityDamping: number;
  /** Divergence load with a dead vertical tip load only: (3 − √5)/2 · k/l (§8). */
  readonly pDivDeadTip: number;
  /** Upright squared frequencies of the paper model at P = 0: (3 ∓ 2√2) k/(m l²) (§7.2). */
  readonly omega2AtZeroLoad: readonly [number, number];
}

/**
 * The closed-form values of spec §7.2 and §8 (§10 `zieglerAnalytic`).
 *
 * @example
 * ```ts
 * zieglerAnalytic({ k: 1, l: 1, m: 1 }).pfFollower; // 2.085786437626905
 * ```
 */
export function zieglerAnalytic(params: {
  readonly k: number;
  readonly l: number;
  readonly m: number;
}): ZieglerAnalyticValues {
  const k = positive('zieglerAnalytic: k', params.k);
  const l = positive('zieglerAnalytic: l', params.l);
  const m = positive('zieglerAnalytic: m', params.m);
  const u = k / l;
  const w = k / (m * l * l);
  return Object.freeze({
    pcDeadEachJoint: (1 - Math.SQRT1_2) * u,
    pcDeadEachJointSecond: (1 + Math.SQRT1_2) * u,
    pfFollower: (3.5 - Math.SQRT2) * u,
    pfFollowerSecond: (3.5 + Math.SQRT2) * u,
    pkFollower: 2 * u,
    pParadox: (41 / 28) * u,
    pParadoxIdentityDamping: (5 / 3) * u,
    pDivDeadTip: ((3 - Math.sqrt(5)) / 2) * u,
    omega2AtZeroLoad: Object.freeze([(3 - 2 * Math.SQRT2) * w, (3 + 2 * Math.SQRT2) * w] as const),
  });
}

/**
 * Linearization of the classical Ziegler column (spec §8, [X]): two rods of length l, masses 2m
 * (middle) and m (tip), springs k, a follower force P along the last rod. K(P) =
 * `[[2k − P l, P l − k], [−k, k]]` (non-symmetric), M_θ = m l² `[[3, 1], [1, 1]]`.
 *
 * @example
 * ```ts
 * followerZieglerLinearization({}).K(1); // [1, 0, −1, 1]
 * ```
 */
export function followerZieglerLinearization(params: {
  readonly k?: number;
  readonly l?: number;
  readonly m?: number;
}): { readonly n: 2; K(P: number): Float64Array; readonly M: Float64Array } {
  const k = positive('followerZieglerLinearization: k', params.k ?? 1);
  const l = positive('followerZieglerLinearization: l', params.l ?? 1);
  const m = positive('followerZieglerLinearization: m', params.m ?? 1);
  const ml2 = m * l * l;
  return {
    n: 2,
    K: (P) => Float64Array.of(2 * k - P * l, P * l - k, -k, k),
    M: Float64Array.of(3 * ml2, ml2, ml2, ml2),
  };
}

/** Result of {@link geometricDegreeOfNonconservativity}. */
export interface GdncResult {
  /** GDNC = rank(K_a)/2 (spec §8). */
  readonly degree: number;
  /** rank(K_a) at the tolerance. */
  readonly rankKa: number;
  /** The constraint normals w_1..w_d as the rows of a d×n matrix (constraints w_i·θ = 0). */
  readonly constraints: Float64Array;
  /**
   * Orthonormal basis of W = ker K_a ⊕ span{u_1..u_d} as the columns of an n×(n − d) matrix;
   * P_Wᵀ K P_W is symmetric.
   */
  readonly conservativeSubspace: Float64Array;
}

/**
 * Geometric degree of nonconservativity (spec §8, Lerbet et al. 2014): with K_a = (K − Kᵀ)/2,
 * GDNC = rank(K_a)/2. Construction [D]: eigen-decompose the symmetric negative semidefinite K_a²;
 * for each invariant plane pick u_i (orthogonal to the previous u_j, w_j) and set
 * w_i = K_a u_i/β_i; the constraints w_i·θ = 0 leave W = ker K_a ⊕ span{u_i}, which is K_a-isotropic
 * so the restricted stiffness is symmetric. `tol` is relative to the largest |eigenvalue| of K_a²
 * and to ‖K‖² (default 1e-12).
 *
 * @example
 * ```ts
 * geometricDegreeOfNonconservativity(followerZieglerLinearization({}).K(1), 2).degree; // 1
 * ```
 */
export function geometricDegreeOfNonconservativity(
  K: ArrayLike<number>,
  n: number,
  tol = 1e-12,
): GdncResult {
  if (K.length !== n * n) throw new DomainError('GDNC: K length', K.length, `must be ${n * n}`);
  const Ka = new Float64Array(n * n);
  let knorm = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      Ka[i * n + j] = 0.5 * (K[i * n + j]! - K[j * n + i]!);
      knorm = Math.max(knorm, Math.abs(K[i * n + j]!));
    }
  }
  const Ka2 = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let l = 0; l < n; l++) s += Ka[i * n + l]! * Ka[l * n + j]!;
      Ka2[i * n + j] = s;
    }
  }
  const { values, vectors } = symmetricEigen(symPart(Ka2, n), n);
  const thresh = tol * Math.max(knorm * knorm, Number.MIN_VALUE);
  const us: Float64Array[] = [];
  const ws: Float64Array[] = [];
  const kernel: Float64Array[] = [];
  let rankKa = 0;
  for (let c = 0; c < n; c++) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = vectors[i * n + c]!;
    if (Math.abs(values[c]!) <= thresh) {
      kernel.push(v);
      continue;
    }
    rankKa++;
    // orthogonalize against the planes already chosen (twice, for stability)
    for (let pass = 0; pass < 2; pass++) {
      for (const b of [...us, ...ws]) {
        let d = 0;
        for (let i = 0; i < n; i++) d += v[i]! * b[i]!;
        for (let i = 0; i < n; i++) v[i] = v[i]! - d * b[i]!;
      }
    }
    let nv = 0;
    for (let i = 0; i < n; i++) nv += v[i]! * v[i]!;
    if (Math.sqrt(nv) < 0.5) continue; // already in a chosen plane
    nv = Math.sqrt(nv);
    for (let i = 0; i < n; i++) v[i] = v[i]! / nv;
    const w = new Float64Array(n);
    let nw = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += Ka[i * n + j]! * v[j]!;
      w[i] = s;
      nw += s * s;
    }
    nw = Math.sqrt(nw);
    for (let i = 0; i < n; i++) w[i] = w[i]! / nw;
    us.push(v);
    ws.push(w);
  }
  const d = us.length;
  const constraints = new Float64Array(d * n);
  for (let i = 0; i < d; i++) constraints.set(ws[i]!, i * n);
  const basis = [...kernel, ...us];
  const r = basis.length;
  const conservativeSubspace = new Float64Array(n * r);
  basis.forEach((b, c) => {
    for (let i = 0; i < n; i++) conservativeSubspace[i * r + c] = b[i]!;
  });
  return { degree: rankKa / 2, rankKa, constraints, conservativeSubspace };
}

/** Options of {@link isKISS}. */
export interface KissOptions {
  /** Random subspaces tried per dimension 2..n−1 (n ≥ 3 only). Default 200. */
  readonly samples?: number;
  /** Seed of the deterministic generator of those subspaces. Default 1. */
  readonly seed?: number;
  /** Relative tolerance of the stability tests. Default 1e-10. */
  readonly tol?: number;
}

/**
 * Kinematic structural stability check (spec §8, [X]): the equilibrium of `M θ̈ + K θ = 0` is KISS
 * if it is stable under every set of added kinematic constraints θ ∈ W. Checked here: (i) the
 * unconstrained system is linearly stable, (ii) K_s = (K + Kᵀ)/2 is positive definite (exactly the
 * 1-DOF restrictions: uᵀKu = uᵀK_s u); for n = 2 these two are equivalent to KISS (spec §8). For
 * n ≥ 3 the restrictions to `samples` pseudo-random subspaces of each dimension 2..n−1 are also
 * checked — a necessary condition only, since the set of subspaces is infinite.
 *
 * @example
 * ```ts
 * const { K, M } = followerZieglerLinearization({});
 * isKISS(K(1.9), M, 2); // true  (below P_K = 2k/l)
 * isKISS(K(2.05), M, 2); // false (K_s indefinite, though P < P_f: stable but not KISS)
 * ```
 */
export function isKISS(
  K: ArrayLike<number>,
  M: ArrayLike<number>,
  n: number,
  options: KissOptions = {},
): boolean {
  const tol = options.tol ?? 1e-10;
  if (!isLinearlyStable(K, M, n, tol)) return false;
  const Ks = symPart(K, n);
  const ev = symmetricEigen(Ks, n).values;
  const scale = Math.max(Math.abs(ev[0]!), Math.abs(ev[n - 1]!));
  if (!(ev[0]! > tol * scale)) return false;
  if (n <= 2) return true;
  const samples = options.samples ?? 200;
  let state = (options.seed ?? 1) >>> 0 || 1;
  const rand = (): number => {
    // xorshift32, deterministic
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296 - 0.5;
  };
  for (let r = 2; r < n; r++) {
    for (let s = 0; s < samples; s++) {
      const B = new Float64Array(n * r);
      for (let i = 0; i < n * r; i++) B[i] = rand();
      const Kr = new Float64Array(r * r);
      const Mr = new Float64Array(r * r);
      for (let a = 0; a < r; a++) {
        for (let b = 0; b < r; b++) {
          let sk = 0;
          let sm = 0;
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
              sk += B[i * r + a]! * K[i * n + j]! * B[j * r + b]!;
              sm += B[i * r + a]! * M[i * n + j]! * B[j * r + b]!;
            }
          }
          Kr[a * r + b] = sk;
          Mr[a * r + b] = sm;
        }
      }
      if (!isLinearlyStable(Kr, Mr, r, tol)) return false;
    }
  }
  return true;
}
