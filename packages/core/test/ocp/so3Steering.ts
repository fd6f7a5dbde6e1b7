// Attitude steering on SO(3) as a StageOcp (test problem): kinematic rotation G_{k+1} = G_k·Exp(hω_k),
// cost Σ h|ω_k|²/2, fixed G_0 and G_N, states updated by the exp retraction G ← G·Exp(δ).
//
// Constraint values and first derivatives are exact (from core's right/left Jacobians); the
// Hessian of the Lagrangian uses central differences of the analytic gradients in the moving
// chart, symmetrized (test only: the retraction's first-order term J_r(δ) = I − δ^/2 + … is
// antisymmetric and drops out of the symmetric part, so this is the Hessian of the pullback).
//
// Dynamics defect c_k = Log(Exp(−hω)·G_kᵀ·G_{k+1}) with, for D = Exp(−hω)G_kᵀG_{k+1}, c = Log D:
//   ∂c/∂δ_{k+1} = J_r⁻¹(c),
//   ∂c/∂δ_k    = −J_l⁻¹(c)·Exp(hω)ᵀ       (G_k·Exp(δ): D ↦ Exp(−Ad_{Exp(−hω)}δ)·D),
//   ∂c/∂ω      = −h·J_l⁻¹(c)·J_r(hω)       (Exp(−h(ω+dω)) ≈ Exp(−hJ_r(hω)dω)·Exp(−hω)).
// Boundary rows g = Log(G_refᵀ·G) with ∂g/∂δ = J_r⁻¹(g).
import { SO3 } from '../../src/lie/so3.js';
import { mul3, mulT3 } from '../../src/linalg/small.js';
import type { OcpStageEval, StageOcp } from '../../src/ocp/problem.js';

function matT3(a: Float64Array): Float64Array {
  const o = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) o[i * 3 + j] = a[j * 3 + i]!;
  return o;
}

function mm(a: Float64Array, b: Float64Array): Float64Array {
  return mul3(new Float64Array(9), a, b);
}

/** c, ∂c/∂(δ_k, ω, δ_{k+1}) (3×9 row-major) of the dynamics defect. */
function dynamics(G: Float64Array, w: Float64Array, Gn: Float64Array, h: number) {
  const hw = Float64Array.from(w, (v) => h * v);
  const R = SO3.exp(new Float64Array(9), hw);
  const D = mulT3(new Float64Array(9), R, mulT3(new Float64Array(9), G, Gn));
  const c = SO3.log(new Float64Array(3), D);
  const jrInv = SO3.rjacInv(new Float64Array(9), c);
  const jlInv = SO3.ljacInv(new Float64Array(9), c);
  const dk = mm(jlInv, matT3(R));
  const dw = mm(jlInv, SO3.rjac(new Float64Array(9), hw));
  const J = new Float64Array(27);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      J[i * 9 + j] = -dk[i * 3 + j]!;
      J[i * 9 + 3 + j] = -h * dw[i * 3 + j]!;
      J[i * 9 + 6 + j] = jrInv[i * 3 + j]!;
    }
  }
  return { c, J };
}

/** g = Log(G_refᵀG) and ∂g/∂δ = J_r⁻¹(g) (3×3). */
function boundary(G: Float64Array, ref: Float64Array) {
  const g = SO3.log(new Float64Array(3), mulT3(new Float64Array(9), ref, G));
  return { g, J: SO3.rjacInv(new Float64Array(9), g) };
}

function rplus(G: Float64Array, d: number[]): Float64Array {
  return SO3.rplus(new Float64Array(9), G, Float64Array.from(d));
}

const FD = 1e-5;

/** The steering problem from `start` to `target` in time T = 1 with N steps. */
export function so3Steering(N: number, start: Float64Array, target: Float64Array): StageOcp {
  const h = 1 / N;
  return {
    N,
    dims: (k) => ({ nx: 3, nu: k < N ? 3 : 0, ng: k === 0 || k === N ? 3 : 0, nh: 0 }),
    stateStorage: () => 9,
    retract: (_k, out, x, dx) => {
      SO3.rplus(out, x, dx);
    },
    evaluate: (k, x, u, xn, level, sigma, lambda, mu, _eta, out: OcpStageEval) => {
      const nu = k < N ? 3 : 0;
      let cost = 0;
      for (let i = 0; i < nu; i++) cost += 0.5 * h * u[i]! * u[i]!;
      out.cost = cost;
      const ref = k === 0 ? start : target;
      if (k < N) {
        const { c, J } = dynamics(x, u, xn!, h);
        out.c.set(c);
        if (level >= 1) out.cJac.set(J);
      }
      if (k === 0 || k === N) {
        const { g, J } = boundary(x, ref);
        out.g.set(g);
        if (level >= 1)
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++) out.gJac[i * (3 + nu) + j] = J[i * 3 + j]!;
        if (level >= 1)
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < nu; j++) out.gJac[i * (3 + nu) + 3 + j] = 0;
      }
      if (level === 0) return;
      for (let i = 0; i < 3; i++) out.costGrad[i] = 0;
      for (let i = 0; i < nu; i++) out.costGrad[3 + i] = h * u[i]!;
      if (level === 1) return;
      const hw = k < N ? 9 : 3;
      const H = out.hess;
      H.fill(0);
      for (let i = 0; i < nu; i++) H[(3 + i) * hw + 3 + i] = sigma * h;
      // λᵀc: central differences of the analytic gradient Jᵀλ over (δ_k, ω, δ_{k+1})
      if (k < N) {
        const grad = (d: number[]) => {
          const G = rplus(x, d.slice(0, 3));
          const w = Float64Array.from(u, (v, i) => v + d[3 + i]!);
          const Gn = rplus(xn!, d.slice(6, 9));
          const { J } = dynamics(G, w, Gn, h);
          const out9 = new Array<number>(9).fill(0);
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 9; j++) out9[j]! += lambda[i]! * J[i * 9 + j]!;
          return out9;
        };
        addFdHessian(H, 9, 9, grad);
      }
      if (k === 0 || k === N) {
        const grad = (d: number[]) => {
          const { J } = boundary(rplus(x, d), ref);
          const out3 = [0, 0, 0];
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++) out3[j]! += mu[i]! * J[i * 3 + j]!;
          return out3;
        };
        addFdHessian(H, hw, 3, grad);
      }
    },
  };
}

/** H[0..n, 0..n] (row width `hw`) += symmetrized central differences of `grad`. */
function addFdHessian(
  H: Float64Array,
  hw: number,
  n: number,
  grad: (d: number[]) => number[],
): void {
  const cols: number[][] = [];
  for (let j = 0; j < n; j++) {
    const dp = new Array<number>(n).fill(0);
    const dm = new Array<number>(n).fill(0);
    dp[j] = FD;
    dm[j] = -FD;
    const gp = grad(dp);
    const gm = grad(dm);
    cols.push(gp.map((v, i) => (v - gm[i]!) / (2 * FD)));
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) H[i * hw + j]! += 0.5 * (cols[j]![i]! + cols[i]![j]!);
  }
}

/** A trajectory at rest at G: x (9 per stage), u = 0. */
export function restGuess(N: number, G: Float64Array): { x: Float64Array; u: Float64Array } {
  const x = new Float64Array(9 * (N + 1));
  for (let k = 0; k <= N; k++) x.set(G, 9 * k);
  return { x, u: new Float64Array(3 * N) };
}
