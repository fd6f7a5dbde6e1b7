// Central-difference check of a StageOcp's derivatives at one stage, in the problem's chart
// (states perturbed by retract(x, ±h·e_i), controls additively). The checked quantities: the
// Jacobians of ℓ, c, g, h from the values, and the Hessian of σℓ + λᵀc + μᵀg + ηᵀh from the
// gradients (symmetric part, which is the chart-independent content at δ = 0).
import type { OcpStageEval, StageOcp } from '../../src/ocp/problem.js';
import { rng } from '../support/random.js';

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

/** Largest error of the stage-k derivatives relative to max(1, |derivative|). */
export function stageDerivativeError(
  p: StageOcp,
  k: number,
  x: Float64Array,
  u: Float64Array,
  xn: Float64Array | undefined,
  seed: number,
  checkHessian = true,
  h = 1e-6,
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
  const nxn = ny > 0 ? p.dims(k + 1).nx : 0;
  const at = (j: number, step: number) => {
    const xs = Float64Array.from(x);
    const us = Float64Array.from(u);
    const xns = xn ? Float64Array.from(xn) : undefined;
    if (j < d.nx) {
      const dx = new Float64Array(d.nx);
      dx[j] = step;
      p.retract(k, xs, x, dx);
    } else if (j < nw) {
      us[j - d.nx]! += step;
    } else {
      const dx = new Float64Array(nxn);
      dx[j - nw] = step;
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
  let jacErr = 0;
  let hessErr = 0;
  const rel = (fd: number, an: number) => Math.abs(fd - an) / Math.max(1, Math.abs(an));
  const fdH = new Float64Array(nz * nz);
  for (let j = 0; j < nz; j++) {
    const plus = at(j, h);
    const minus = at(j, -h);
    const fd = (a: number, b: number) => (a - b) / (2 * h);
    if (j < nw) jacErr = Math.max(jacErr, rel(fd(plus.e.cost, minus.e.cost), base.costGrad[j]!));
    for (let i = 0; i < ny; i++)
      jacErr = Math.max(jacErr, rel(fd(plus.e.c[i]!, minus.e.c[i]!), base.cJac[i * nz + j]!));
    if (j < nw) {
      for (let i = 0; i < d.ng; i++)
        jacErr = Math.max(jacErr, rel(fd(plus.e.g[i]!, minus.e.g[i]!), base.gJac[i * nw + j]!));
      for (let i = 0; i < d.nh; i++)
        jacErr = Math.max(jacErr, rel(fd(plus.e.h[i]!, minus.e.h[i]!), base.hJac[i * nw + j]!));
    }
    for (let a = 0; a < nz; a++) fdH[a * nz + j] = fd(plus.grad[a]!, minus.grad[a]!);
  }
  if (checkHessian) {
    for (let a = 0; a < nz; a++) {
      for (let b = 0; b < nz; b++) {
        const sym = 0.5 * (fdH[a * nz + b]! + fdH[b * nz + a]!);
        hessErr = Math.max(hessErr, rel(sym, base.hess[a * nz + b]!));
      }
    }
  }
  return { jacobian: jacErr, hessian: hessErr };
}
