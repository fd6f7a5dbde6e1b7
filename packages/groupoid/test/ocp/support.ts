// Test support of the optimal-control layer: a central-difference check of a compiled stage's
// derivatives in the problem's chart, and random group elements.
import type { LieGroup, OcpStageEval, StageOcp } from '@geomech/core';

/** A seeded uniform generator on [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random element X = Exp(τ), τ uniform in [−a, a]^dim. */
export function randomElement(G: LieGroup, r: () => number, a = 1): Float64Array {
  const tau = Float64Array.from({ length: G.dim }, () => a * (2 * r() - 1));
  return G.exp(new Float64Array(G.storageSize), tau);
}

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
 * Largest error of stage k's first derivatives (of ℓ, c, g, h from central differences of the
 * values) and of its Hessian of σℓ + λᵀc + μᵀg + ηᵀh (the symmetric part of central differences
 * of the gradients: the gradient at x ⊕ δ is taken in the chart at x ⊕ δ, which differs from the
 * derivative of the pullback by J_r(δ)ᵀ = I + O(δ) whose first-order term is antisymmetric, so
 * the symmetric part is the Hessian of the pullback at δ = 0), each relative to
 * max(1, |derivative|). States are perturbed by the problem's retraction, controls additively.
 */
export function stageDerivativeError(
  p: StageOcp,
  k: number,
  x: Float64Array,
  u: Float64Array,
  xn: Float64Array | undefined,
  seed: number,
  step = 1e-5,
): { jacobian: number; hessian: number } {
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
  for (let a = 0; a < nz; a++) {
    for (let b = 0; b < nz; b++) {
      const sym = 0.5 * (fdH[a * nz + b]! + fdH[b * nz + a]!);
      hess = Math.max(hess, rel(sym, base.hess[a * nz + b]!));
    }
  }
  return { jacobian: jac, hessian: hess };
}
