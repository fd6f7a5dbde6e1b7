/**
 * Central-difference checks of a {@link StageOcp}'s derivatives at one stage, in the problem's
 * chart, shared by the optimal-control tests of core and of the packages that define problems on
 * it (groupoid). No vitest dependency: the functions return the errors, the tests assert them.
 *
 * @module
 */
import type { LieGroup } from '../lie/types.js';
import type { OcpStageEval, StageOcp } from '../ocp/problem.js';
import { rng } from './random.js';

/** Options of {@link stageDerivativeError}. */
export interface StageDerivativeCheckOptions {
  /**
   * Step h of the central differences (states by retract(x, ±h·e_i), controls by ±h). Default
   * 1e-5: the truncation error h²|f‴|/6 and the rounding error ε|f|/h balance near h ≈ ε^(1/3).
   */
  readonly step?: number;
  /** Check the Hessian of the Lagrangian too (default true); `false` leaves `hessian` at 0. */
  readonly hessian?: boolean;
}

/** Largest errors of {@link stageDerivativeError}, each relative to max(1, |derivative|). */
export interface StageDerivativeErrors {
  /** First derivatives: ∇ℓ and the Jacobians of c, g, h. */
  readonly jacobian: number;
  /** Hessian of σℓ + λᵀc + μᵀg + ηᵀh (0 when not checked). */
  readonly hessian: number;
}

/** A stage evaluation record with buffers of the stage's sizes. */
function makeEval(nw: number, ny: number, ng: number, nh: number): OcpStageEval {
  return {
    cost: 0,
    costGrad: new Float64Array(nw),
    c: new Float64Array(ny),
    cJac: new Float64Array(ny * (nw + ny)),
    g: new Float64Array(ng),
    gJac: new Float64Array(ng * nw),
    h: new Float64Array(nh),
    hJac: new Float64Array(nh * nw),
    hess: new Float64Array((nw + ny) ** 2),
  };
}

/**
 * Largest error of stage k's first derivatives (of ℓ, c, g, h, against central differences of the
 * values) and of its Hessian of σℓ + λᵀc + μᵀg + ηᵀh (against the symmetric part of central
 * differences of the gradients), each relative to max(1, |derivative|), with σ ∈ [0.5, 1.5) and
 * λ, μ, η ∈ [−1, 1) drawn from `seed`. States (x_k and x_{k+1}) are perturbed by the problem's
 * retraction x ⊕ (±h·e_i), controls additively. Only the symmetric part of the differenced
 * Hessian is compared: the gradient at x ⊕ δ is taken in the chart at x ⊕ δ, which differs from
 * the derivative of the pullback by J_r(δ)ᵀ = I + O(δ) whose first-order term is antisymmetric,
 * so the symmetric part is the Hessian of the pullback at δ = 0 (the chart-independent content at
 * a critical point of the chart map). Central differences err by O(h²) + O(ε/h): ≈ 1e-10 at the
 * default step for derivatives of size 1.
 *
 * @example
 * ```ts
 * import type { StageOcp } from '@geomech/core';
 * import { stageDerivativeError } from '@geomech/core/testing';
 *
 * // one stage pair on R: ℓ = ½u², c = x + u − x⁺
 * const p: StageOcp = {
 *   N: 1,
 *   dims: (k) => ({ nx: 1, nu: k === 0 ? 1 : 0, ng: 0, nh: 0 }),
 *   stateStorage: () => 1,
 *   retract: (_k, out, x, dx) => { out[0] = x[0]! + dx[0]!; },
 *   evaluate: (k, x, u, xn, level, sigma, lambda, _mu, _eta, out) => {
 *     out.cost = k === 0 ? 0.5 * u[0]! ** 2 : 0;
 *     if (k === 0) out.c[0] = x[0]! + u[0]! - xn![0]!;
 *     if (level === 0) return;
 *     out.costGrad.fill(0);
 *     if (k === 0) { out.costGrad[1] = u[0]!; out.cJac.set([1, 1, -1]); }
 *     if (level === 2) { out.hess.fill(0); if (k === 0) out.hess[4] = sigma; }
 *   },
 * };
 * const e = stageDerivativeError(p, 0, Float64Array.of(0.3), Float64Array.of(-0.2), Float64Array.of(1), 7);
 * e.jacobian < 1e-9 && e.hessian < 1e-9; // true
 * ```
 */
export function stageDerivativeError(
  p: StageOcp,
  k: number,
  x: Float64Array,
  u: Float64Array,
  xn: Float64Array | undefined,
  seed: number,
  options: StageDerivativeCheckOptions = {},
): StageDerivativeErrors {
  const step = options.step ?? 1e-5;
  const checkHessian = options.hessian ?? true;
  const d = p.dims(k);
  const nw = d.nx + d.nu;
  const ny = k < p.N ? p.dims(k + 1).nx : 0;
  const nz = nw + ny;
  const r = rng(seed);
  const sigma = 0.5 + r();
  const lam = Float64Array.from({ length: ny }, () => 2 * r() - 1);
  const mu = Float64Array.from({ length: d.ng }, () => 2 * r() - 1);
  const eta = Float64Array.from({ length: d.nh }, () => 2 * r() - 1);
  const base = makeEval(nw, ny, d.ng, d.nh);
  p.evaluate(k, x, u, xn, 2, sigma, lam, mu, eta, base);
  const at = (j: number, s: number) => {
    const xs = Float64Array.from(x);
    const us = Float64Array.from(u);
    const xns = xn ? Float64Array.from(xn) : undefined;
    if (j < d.nx) {
      const dx = new Float64Array(d.nx);
      dx[j] = s;
      p.retract(k, xs, x, dx);
    } else if (j < nw) {
      us[j - d.nx]! += s;
    } else {
      const dx = new Float64Array(ny);
      dx[j - nw] = s;
      p.retract(k + 1, xns!, xn!, dx);
    }
    const e = makeEval(nw, ny, d.ng, d.nh);
    p.evaluate(k, xs, us, xns, 1, sigma, lam, mu, eta, e);
    // gradient of σℓ + λᵀc + μᵀg + ηᵀh over (x, u, x⁺)
    const grad = new Float64Array(nz);
    for (let a = 0; a < nw; a++) grad[a] = sigma * e.costGrad[a]!;
    for (let i = 0; i < ny; i++)
      for (let a = 0; a < nz; a++) grad[a]! += lam[i]! * e.cJac[i * nz + a]!;
    for (let i = 0; i < d.ng; i++)
      for (let a = 0; a < nw; a++) grad[a]! += mu[i]! * e.gJac[i * nw + a]!;
    for (let i = 0; i < d.nh; i++)
      for (let a = 0; a < nw; a++) grad[a]! += eta[i]! * e.hJac[i * nw + a]!;
    return { e, grad };
  };
  let jac = 0;
  let hess = 0;
  const rel = (fd: number, an: number) => Math.abs(fd - an) / Math.max(1, Math.abs(an));
  const fdH = new Float64Array(nz * nz);
  for (let j = 0; j < nz; j++) {
    const plus = at(j, step);
    const minus = at(j, -step);
    const fd = (a: number, b: number) => (a - b) / (2 * step);
    if (j < nw) jac = Math.max(jac, rel(fd(plus.e.cost, minus.e.cost), base.costGrad[j]!));
    for (let i = 0; i < ny; i++)
      jac = Math.max(jac, rel(fd(plus.e.c[i]!, minus.e.c[i]!), base.cJac[i * nz + j]!));
    if (j < nw) {
      for (let i = 0; i < d.ng; i++)
        jac = Math.max(jac, rel(fd(plus.e.g[i]!, minus.e.g[i]!), base.gJac[i * nw + j]!));
      for (let i = 0; i < d.nh; i++)
        jac = Math.max(jac, rel(fd(plus.e.h[i]!, minus.e.h[i]!), base.hJac[i * nw + j]!));
    }
    for (let a = 0; a < nz; a++) fdH[a * nz + j] = fd(plus.grad[a]!, minus.grad[a]!);
  }
  if (checkHessian) {
    for (let a = 0; a < nz; a++) {
      for (let b = 0; b < nz; b++) {
        const sym = 0.5 * (fdH[a * nz + b]! + fdH[b * nz + a]!);
        hess = Math.max(hess, rel(sym, base.hess[a * nz + b]!));
      }
    }
  }
  return { jacobian: jac, hessian: hess };
}

/**
 * A random group element X = Exp(τ) with τ uniform in [−a, a]^dim, drawn from `r` (e.g.
 * {@link rng}).
 *
 * @example
 * ```ts
 * import { SO3 } from '@geomech/core';
 * import { randomElement, rng } from '@geomech/core/testing';
 *
 * const R = randomElement(SO3, rng(1), 0.5); // a rotation by at most 0.5·√3 rad
 * SO3.isValid(R, 1e-12); // true
 * ```
 */
export function randomElement(G: LieGroup, r: () => number, a = 1): Float64Array {
  const tau = Float64Array.from({ length: G.dim }, () => a * (2 * r() - 1));
  return G.exp(new Float64Array(G.storageSize), tau);
}
