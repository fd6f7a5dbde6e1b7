// Test problems for the interior-point solver: a builder of Rⁿ stage problems from functions with
// hand-written gradients and Hessians (checked against central differences in problems.test.ts),
// and the problems of the test suite.
import type { OcpStageEval, StageOcp } from '../../src/ocp/problem.js';

/** A scalar function with its gradient and Hessian over the stage's variables. */
export interface Row {
  v: number;
  g: number[];
  H: number[][];
}

/** One stage of an Rⁿ problem; functions of (x, u) or, for the dynamics, (x, u, x⁺). */
export interface RnStage {
  nx: number;
  nu: number;
  cost?: ((x: number[], u: number[]) => Row) | undefined;
  dynamics?: ((x: number[], u: number[], xn: number[]) => Row[]) | undefined;
  eq?: ((x: number[], u: number[]) => Row[]) | undefined;
  ineq?: ((x: number[], u: number[]) => Row[]) | undefined;
  ng?: number | undefined;
  nh?: number | undefined;
}

export const zeros = (n: number): number[] => new Array<number>(n).fill(0);
export const zeroH = (n: number): number[][] => Array.from({ length: n }, () => zeros(n));
/** The linear function a·z + b over n variables. */
export const linear = (a: number[], b = 0, z: number[] = zeros(a.length)): Row => ({
  v: a.reduce((s, ai, i) => s + ai * z[i]!, b),
  g: [...a],
  H: zeroH(a.length),
});

/** A StageOcp on Rⁿ states (retract(x, δ) = x + δ) from per-stage functions. */
export function rnProblem(stages: RnStage[], evalCount?: { n: number }): StageOcp {
  const N = stages.length - 1;
  return {
    N,
    dims: (k) => ({
      nx: stages[k]!.nx,
      nu: stages[k]!.nu,
      ng: stages[k]!.ng ?? 0,
      nh: stages[k]!.nh ?? 0,
    }),
    stateStorage: (k) => stages[k]!.nx,
    retract: (k, out, x, dx) => {
      for (let i = 0; i < stages[k]!.nx; i++) out[i] = x[i]! + dx[i]!;
    },
    evaluate: (k, x, u, xn, level, sigma, lambda, mu, eta, out: OcpStageEval) => {
      if (evalCount) evalCount.n++;
      const st = stages[k]!;
      const nw = st.nx + st.nu;
      const ny = k < N ? stages[k + 1]!.nx : 0;
      const hw = nw + ny;
      const X = Array.from(x);
      const U = Array.from(u);
      const XN = xn ? Array.from(xn) : [];
      const cost = st.cost ? st.cost(X, U) : { v: 0, g: zeros(nw), H: zeroH(nw) };
      const dyn = st.dynamics ? st.dynamics(X, U, XN) : [];
      const eq = st.eq ? st.eq(X, U) : [];
      const ineq = st.ineq ? st.ineq(X, U) : [];
      if (dyn.length !== ny || eq.length !== (st.ng ?? 0) || ineq.length !== (st.nh ?? 0)) {
        throw new Error(`stage ${k}: row counts do not match the dimensions`);
      }
      out.cost = cost.v;
      dyn.forEach((r, i) => {
        out.c[i] = r.v;
      });
      eq.forEach((r, i) => {
        out.g[i] = r.v;
      });
      ineq.forEach((r, i) => {
        out.h[i] = r.v;
      });
      if (level === 0) return;
      for (let a = 0; a < nw; a++) out.costGrad[a] = cost.g[a]!;
      dyn.forEach((r, i) => {
        for (let a = 0; a < hw; a++) out.cJac[i * hw + a] = r.g[a]!;
      });
      eq.forEach((r, i) => {
        for (let a = 0; a < nw; a++) out.gJac[i * nw + a] = r.g[a]!;
      });
      ineq.forEach((r, i) => {
        for (let a = 0; a < nw; a++) out.hJac[i * nw + a] = r.g[a]!;
      });
      if (level === 1) return;
      out.hess.fill(0);
      const add = (H: number[][], w: number, n: number) => {
        for (let a = 0; a < n; a++)
          for (let b = 0; b < n; b++) out.hess[a * hw + b]! += w * H[a]![b]!;
      };
      add(cost.H, sigma, nw);
      dyn.forEach((r, i) => {
        add(r.H, lambda[i]!, hw);
      });
      eq.forEach((r, i) => {
        add(r.H, mu[i]!, nw);
      });
      ineq.forEach((r, i) => {
        add(r.H, eta[i]!, nw);
      });
    },
  };
}

/** Linear dynamics x⁺ = A x + B u written as c = A x + B u − x⁺ (rows over (x, u, x⁺)). */
export function linearDynamics(A: number[][], B: number[][]) {
  return (x: number[], u: number[], xn: number[]): Row[] =>
    xn.map((_, i) => {
      const g = [...A[i]!, ...(B[i] ?? []), ...xn.map((__, j) => (i === j ? -1 : 0))];
      return linear(g, 0, [...x, ...u, ...xn]);
    });
}

/** ½ zᵀQz + qᵀz over z = (x, u). */
export function quadratic(Q: number[][], q: number[]) {
  return (x: number[], u: number[]): Row => {
    const z = [...x, ...u];
    const Qz = Q.map((row) => row.reduce((s, v, j) => s + v * z[j]!, 0));
    return {
      v:
        0.5 * z.reduce((s, zi, i) => s + zi * Qz[i]!, 0) +
        q.reduce((s, qi, i) => s + qi * z[i]!, 0),
      g: Qz.map((v, i) => v + q[i]!),
      H: Q.map((r) => [...r]),
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Problems

/**
 * Double integrator p⁺ = p + h v, v⁺ = v + h u, |u| ≤ 1, from rest at 0, v_N = 0, maximizing p_N
 * (cost −p_N), h = T/N. For even N the discrete optimum is bang-bang, u = +1 for k < N/2 and −1
 * after (the LP max Σ_j (N−1−j)u_j s.t. Σ u_j = 0, |u_j| ≤ 1 puts +1 on the larger weights), with
 * p_N = (T/2)²: the switch at t = T/2 as in the continuous limit.
 */
export function doubleIntegratorBangBang(N: number, T = 2): StageOcp {
  const h = T / N;
  const stages: RnStage[] = [];
  for (let k = 0; k <= N; k++) {
    const last = k === N;
    stages.push({
      nx: 2,
      nu: last ? 0 : 1,
      ng: k === 0 ? 2 : last ? 1 : 0,
      nh: last ? 0 : 2,
      cost: last ? (x) => linear([-1, 0], 0, x) : undefined,
      dynamics: last
        ? undefined
        : linearDynamics(
            [
              [1, h],
              [0, 1],
            ],
            [[0], [h]],
          ),
      eq:
        k === 0
          ? (x, u) => [linear([1, 0, 0], 0, [...x, ...u]), linear([0, 1, 0], 0, [...x, ...u])]
          : last
            ? (x) => [linear([0, 1], 0, x)]
            : undefined,
      ineq: last
        ? undefined
        : (x, u) => [linear([0, 0, -1], 1, [...x, ...u]), linear([0, 0, 1], 1, [...x, ...u])],
    });
  }
  return rnProblem(stages);
}

/**
 * Rosenbrock's function as a 2-stage problem: stage 0 has state p and control q, the dynamics
 * x₁ = (p, q) (n_x,1 = 2), costs ℓ₀ = (1 − p)², ℓ₁ = 100(x₁[1] − x₁[0]²)². Minimum 0 at (1, 1).
 */
export function rosenbrock(): StageOcp {
  return rnProblem([
    {
      nx: 1,
      nu: 1,
      cost: ([p]) => ({
        v: (1 - p!) ** 2,
        g: [-2 * (1 - p!), 0],
        H: [
          [2, 0],
          [0, 0],
        ],
      }),
      dynamics: (x, u, xn) => [
        linear([1, 0, -1, 0], 0, [...x, ...u, ...xn]),
        linear([0, 1, 0, -1], 0, [...x, ...u, ...xn]),
      ],
    },
    {
      nx: 2,
      nu: 0,
      cost: ([a, b]) => {
        const r = b! - a! * a!;
        return {
          v: 100 * r * r,
          g: [-400 * a! * r, 200 * r],
          H: [
            [-400 * r + 800 * a! * a!, -400 * a!],
            [-400 * a!, 200],
          ],
        };
      },
    },
  ]);
}

/**
 * Hock–Schittkowski problem 71 in stage form (one stage, state (x₁, x₂), controls (x₃, x₄)):
 * min x₁x₄(x₁ + x₂ + x₃) + x₃ s.t. x₁x₂x₃x₄ ≥ 25, Σxᵢ² = 40, 1 ≤ xᵢ ≤ 5.
 * Optimum f* = 17.0140173, x* = (1, 4.7429994, 3.8211503, 1.3794082) (Hock & Schittkowski 1981).
 */
export function hs071(): StageOcp {
  const f = (z: number[]): Row => {
    const [a, b, c, d] = z as [number, number, number, number];
    return {
      v: a * d * (a + b + c) + c,
      g: [d * (2 * a + b + c), a * d, a * d + 1, a * (a + b + c)],
      H: [
        [2 * d, d, d, 2 * a + b + c],
        [d, 0, 0, a],
        [d, 0, 0, a],
        [2 * a + b + c, a, a, 0],
      ],
    };
  };
  return rnProblem([
    {
      nx: 2,
      nu: 2,
      ng: 1,
      nh: 9,
      cost: (x, u) => f([...x, ...u]),
      eq: (x, u) => {
        const z = [...x, ...u];
        return [
          {
            v: z.reduce((s, v) => s + v * v, 0) - 40,
            g: z.map((v) => 2 * v),
            H: z.map((_, i) => z.map((__, j) => (i === j ? 2 : 0))),
          },
        ];
      },
      ineq: (x, u) => {
        const [a, b, c, d] = [...x, ...u] as [number, number, number, number];
        const rows: Row[] = [
          {
            v: a * b * c * d - 25,
            g: [b * c * d, a * c * d, a * b * d, a * b * c],
            H: [
              [0, c * d, b * d, b * c],
              [c * d, 0, a * d, a * c],
              [b * d, a * d, 0, a * b],
              [b * c, a * c, a * b, 0],
            ],
          },
        ];
        const z = [a, b, c, d];
        for (let i = 0; i < 4; i++) {
          rows.push(
            linear(
              z.map((_, j) => (i === j ? 1 : 0)),
              -1,
              z,
            ),
          );
          rows.push(
            linear(
              z.map((_, j) => (i === j ? -1 : 0)),
              5,
              z,
            ),
          );
        }
        return rows;
      },
    },
  ]);
}

/**
 * Minimum time for the double integrator with the final time as a state: x = (p, v, T),
 * p⁺ = p + (T/N)v, v⁺ = v + (T/N)u, T⁺ = T, |u| ≤ 1, T ≥ 0.1, from (0, 0) to (1, 0), cost T_N.
 * For even N the discrete optimum is T* = 2 (the reachable distance with step h is (hN/2)²).
 */
export function minimumTime(N: number): StageOcp {
  const stages: RnStage[] = [];
  for (let k = 0; k <= N; k++) {
    const last = k === N;
    stages.push({
      nx: 3,
      nu: last ? 0 : 1,
      ng: k === 0 ? 2 : last ? 2 : 0,
      nh: last ? 1 : 3,
      cost: last ? (x) => linear([0, 0, 1], 0, x) : undefined,
      dynamics: last
        ? undefined
        : ([p, v, T], [u], [pn, vn, Tn]) => {
            const h = T! / N;
            const z = [p!, v!, T!, u!, pn!, vn!, Tn!];
            const H1 = zeroH(7);
            H1[1]![2] = H1[2]![1] = 1 / N;
            const H2 = zeroH(7);
            H2[3]![2] = H2[2]![3] = 1 / N;
            return [
              { v: p! + h * v! - pn!, g: [1, h, v! / N, 0, -1, 0, 0], H: H1 },
              { v: v! + h * u! - vn!, g: [0, 1, u! / N, h, 0, -1, 0], H: H2 },
              linear([0, 0, 1, 0, 0, 0, -1], 0, z),
            ];
          },
      eq:
        k === 0
          ? (x, u) => [linear([1, 0, 0, 0], 0, [...x, ...u]), linear([0, 1, 0, 0], 0, [...x, ...u])]
          : last
            ? (x) => [linear([1, 0, 0], -1, x), linear([0, 1, 0], 0, x)]
            : undefined,
      ineq: last
        ? (x) => [linear([0, 0, 1], -0.1, x)]
        : (x, u) => [
            linear([0, 0, 0, -1], 1, [...x, ...u]),
            linear([0, 0, 0, 1], 1, [...x, ...u]),
            linear([0, 0, 1, 0], -0.1, [...x, ...u]),
          ],
    });
  }
  return rnProblem(stages);
}

/** ℓ = (a − b)² on one stage: a flat direction (singular), or fixed by the gauge a = 0. */
export function symmetric(gauge: boolean, evalCount?: { n: number }): StageOcp {
  return rnProblem(
    [
      {
        nx: 2,
        nu: 0,
        ng: gauge ? 1 : 0,
        cost: ([a, b]) => ({
          v: (a! - b!) ** 2,
          g: [2 * (a! - b!), -2 * (a! - b!)],
          H: [
            [2, -2],
            [-2, 2],
          ],
        }),
        eq: gauge ? (x) => [linear([1, 0], 0, x)] : undefined,
      },
    ],
    evalCount,
  );
}
