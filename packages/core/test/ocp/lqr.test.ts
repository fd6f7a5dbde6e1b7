// Time-varying LQR (issue 19): the Riccati recursion with constraints against independent
// references: the discrete algebraic Riccati equation (free end, terminal weight P∞: every gain is
// the stationary one) and a dense solve of the tail problems (fixed end: the constraint propagated
// backwards); the linearization of a StageOcp (A, B by the implicit function theorem on an
// implicit defect) against central differences.
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError } from '../../src/errors.js';
import { solveDense } from '../../src/linalg/lu.js';
import { linearizeOcp, ocpFeedbackGains, riccatiGains } from '../../src/ocp/lqr.js';
import type { StageOcp } from '../../src/ocp/problem.js';
import { OcpSolver } from '../../src/ocp/solver.js';

const h = 0.1;
/** Double integrator, exact discretization: x = (q, v), u the acceleration. */
const A = [1, h, 0, 1];
const B = [(h * h) / 2, h];
const Q = [1, 0, 0, 0.5];
const R = 0.2;

/** 2×2 helpers (row-major). */
const mul = (a: number[], b: number[]) => [
  a[0]! * b[0]! + a[1]! * b[2]!,
  a[0]! * b[1]! + a[1]! * b[3]!,
  a[2]! * b[0]! + a[3]! * b[2]!,
  a[2]! * b[1]! + a[3]! * b[3]!,
];
const tr = (a: number[]) => [a[0]!, a[2]!, a[1]!, a[3]!];

/** K = (R + BᵀPB)⁻¹BᵀPA (1×2) and the Riccati map P ↦ Q + AᵀPA − AᵀPB K. */
function gainOf(P: number[]): number[] {
  const PB = [P[0]! * B[0]! + P[1]! * B[1]!, P[2]! * B[0]! + P[3]! * B[1]!];
  const r = R + B[0]! * PB[0]! + B[1]! * PB[1]!;
  // BᵀPA = (PB)ᵀA
  return [(PB[0]! * A[0]! + PB[1]! * A[2]!) / r, (PB[0]! * A[1]! + PB[1]! * A[3]!) / r];
}
function riccatiMap(P: number[]): number[] {
  const K = gainOf(P);
  const APA = mul(tr(A), mul(P, A));
  const PB = [P[0]! * B[0]! + P[1]! * B[1]!, P[2]! * B[0]! + P[3]! * B[1]!];
  const ApB = [A[0]! * PB[0]! + A[2]! * PB[1]!, A[1]! * PB[0]! + A[3]! * PB[1]!]; // AᵀPB
  return [
    Q[0]! + APA[0]! - ApB[0]! * K[0]!,
    Q[1]! + APA[1]! - ApB[0]! * K[1]!,
    Q[2]! + APA[2]! - ApB[1]! * K[0]!,
    Q[3]! + APA[3]! - ApB[1]! * K[1]!,
  ];
}

/**
 * The linear problem as a StageOcp: dynamics defect c = A x + B u − x_{k+1} (or, with
 * `implicit`, the nonlinear but equivalent defect M(A x + B u − x_{k+1}) with M = diag(2, 1) +
 * a term quadratic in the defect, which changes ∂c/∂x_{k+1} and the Hessian's λ terms), start
 * fixed, end fixed or weighted by QN.
 */
function lqProblem(N: number, end: 'fixed' | number[], x0: number[]): StageOcp {
  return {
    N,
    dims: (k) => ({
      nx: 2,
      nu: k < N ? 1 : 0,
      ng: k === 0 || (k === N && end === 'fixed') ? 2 : 0,
      nh: 0,
    }),
    stateStorage: () => 2,
    retract: (_k, out, x, dx) => {
      out[0] = x[0]! + dx[0]!;
      out[1] = x[1]! + dx[1]!;
    },
    evaluate: (k, x, u, xn, level, sigma, _lambda, _mu, _eta, out) => {
      const q = x[0]!;
      const v = x[1]!;
      out.cost =
        k < N
          ? 0.5 * (Q[0]! * q * q + 2 * Q[1]! * q * v + Q[3]! * v * v + R * u[0]! ** 2)
          : end === 'fixed'
            ? 0
            : 0.5 * (end[0]! * q * q + 2 * end[1]! * q * v + end[3]! * v * v);
      if (k < N) {
        out.c[0] = A[0]! * q + A[1]! * v + B[0]! * u[0]! - xn![0]!;
        out.c[1] = A[2]! * q + A[3]! * v + B[1]! * u[0]! - xn![1]!;
      }
      if (k === 0) {
        out.g[0] = q - x0[0]!;
        out.g[1] = v - x0[1]!;
      } else if (k === N && end === 'fixed') {
        out.g[0] = q;
        out.g[1] = v;
      }
      if (level === 0) return;
      if (k < N) {
        out.costGrad.set([Q[0]! * q + Q[1]! * v, Q[1]! * q + Q[3]! * v, R * u[0]!]);
        out.cJac.set([A[0]!, A[1]!, B[0]!, -1, 0, A[2]!, A[3]!, B[1]!, 0, -1]);
      } else if (end === 'fixed') out.costGrad.set([0, 0]);
      else out.costGrad.set([end[0]! * q + end[1]! * v, end[2]! * q + end[3]! * v]);
      if (k === 0)
        out.gJac.set([1, 0, 0, 0, 1, 0]); // over (δq, δv, u)
      else if (k === N && end === 'fixed') out.gJac.set([1, 0, 0, 1]);
      if (level < 2) return;
      out.hess.fill(0);
      if (k < N) {
        // (δq, δv, u, δq', δv'): 5 × 5
        out.hess[0] = sigma * Q[0]!;
        out.hess[1] = sigma * Q[1]!;
        out.hess[5] = sigma * Q[2]!;
        out.hess[6] = sigma * Q[3]!;
        out.hess[12] = sigma * R;
      } else if (end !== 'fixed') {
        out.hess.set([sigma * end[0]!, sigma * end[1]!, sigma * end[2]!, sigma * end[3]!]);
      }
    },
  };
}

/**
 * The dense reference of the tail problem from stage j (states eliminated): minimize
 * Σ_{i≥j} ½(xᵢᵀQxᵢ + R uᵢ²) subject to x_N = 0, x_j given; returns the 1 × 2 map x_j ↦ u_j.
 */
function denseTailGain(N: number, j: number): number[] {
  const n = N - j; // controls u_j..u_{N−1}
  // x_i = Φ_i x_j + Σ_l Γ_{i,l} u_l: columns 0..1 for x_j, 2.. for u
  const cols = 2 + n;
  const X: number[][] = [[1, 0, ...new Array(n).fill(0), 0, 1, ...new Array(n).fill(0)]];
  for (let i = 0; i < n; i++) {
    const prev = X[i]!;
    const row: number[] = new Array(2 * cols).fill(0);
    for (let c = 0; c < cols; c++) {
      row[c] = A[0]! * prev[c]! + A[1]! * prev[cols + c]!;
      row[cols + c] = A[2]! * prev[c]! + A[3]! * prev[cols + c]!;
    }
    row[2 + i] = row[2 + i]! + B[0]!;
    row[cols + 2 + i] = row[cols + 2 + i]! + B[1]!;
    X.push(row);
  }
  // Hessian over U and the cross term with x_j: ½ Σ_i x_iᵀQx_i over i = j..N−1 + ½R|U|²
  const H = new Array(n * n).fill(0);
  const F = new Array(n * 2).fill(0);
  for (let i = 0; i < n; i++) {
    const row = X[i]!;
    for (let a = 0; a < cols; a++) {
      for (let b = 0; b < cols; b++) {
        const w =
          Q[0]! * row[a]! * row[b]! +
          Q[1]! * (row[a]! * row[cols + b]! + row[cols + a]! * row[b]!) +
          Q[3]! * row[cols + a]! * row[cols + b]!;
        if (a >= 2 && b >= 2) H[(a - 2) * n + (b - 2)] += w;
        else if (a >= 2 && b < 2) F[(a - 2) * 2 + b] += w;
      }
    }
  }
  for (let i = 0; i < n; i++) H[i * n + i] += R;
  // KKT [H Cᵀ; C 0] with C U + Cx x_j = 0 the end condition x_N = 0
  const last = X[n]!;
  const m = n + 2;
  const gain: number[] = [];
  for (let e = 0; e < 2; e++) {
    const K = new Float64Array(m * m);
    const rhs = new Float64Array(m);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) K[a * m + b] = H[a * n + b];
      rhs[a] = -F[a * 2 + e];
    }
    for (let r = 0; r < 2; r++) {
      for (let a = 0; a < n; a++) {
        K[(n + r) * m + a] = last[r * cols + 2 + a]!;
        K[a * m + n + r] = last[r * cols + 2 + a]!;
      }
      rhs[n + r] = -last[r * cols + e]!;
    }
    gain.push(-solveDense(K, m, rhs)[0]!);
  }
  return gain;
}

describe('riccatiGains on the double integrator', () => {
  it('free end with the terminal weight P∞ of the DARE: every K_k is the stationary gain to 1e-10', () => {
    let P = [...Q];
    for (let i = 0; i < 20_000; i++) P = riccatiMap(P);
    const residual = riccatiMap(P).map((v, i) => Math.abs(v - P[i]!));
    expect(Math.max(...residual)).toBeLessThan(1e-12 * Math.abs(P[0]!));
    const Kinf = gainOf(P);
    const N = 30;
    const problem = lqProblem(N, P, [1, 0]);
    const zero = (n: number) => new Float64Array(n);
    const { K, P: Pk } = ocpFeedbackGains(problem, {
      x: zero(2 * (N + 1)),
      u: zero(N),
      lambda: zero(2 * N),
      mu: zero(2),
      z: zero(0),
      s: zero(0),
    });
    for (let k = 0; k < N; k++) {
      expect(Math.abs(K[k]![0]! - Kinf[0]!)).toBeLessThan(1e-10 * Math.abs(Kinf[0]!));
      expect(Math.abs(K[k]![1]! - Kinf[1]!)).toBeLessThan(1e-10 * Math.abs(Kinf[0]!));
      for (let i = 0; i < 4; i++)
        expect(Math.abs(Pk[k]![i]! - P[i]!)).toBeLessThan(1e-10 * Math.abs(P[0]!));
    }
  });

  it('fixed end: K_k equals the dense solve of the tail problem to 1e-10 (k ≤ N − 2)', () => {
    const N = 12;
    const problem = lqProblem(N, 'fixed', [1, 0]);
    const result = new OcpSolver(problem).solve({
      x: new Float64Array(2 * (N + 1)),
      u: new Float64Array(N),
    });
    expect(result.status).toBe('converged');
    const { K, eRows } = ocpFeedbackGains(problem, result);
    // the end condition (2 rows) passes 1 row to stage N − 1, which stage N − 2 absorbs
    expect(eRows[N]).toBe(2);
    expect(eRows[N - 1]).toBe(1);
    expect(eRows[N - 2]).toBe(0);
    for (let k = 0; k <= N - 2; k++) {
      const ref = denseTailGain(N, k);
      const scale = Math.max(Math.abs(ref[0]!), Math.abs(ref[1]!));
      expect(Math.abs(K[k]![0]! - ref[0]!)).toBeLessThan(1e-10 * scale);
      expect(Math.abs(K[k]![1]! - ref[1]!)).toBeLessThan(1e-10 * scale);
    }
    // the optimum itself follows the feedback: u*_k = −K_k x*_k along the solution
    for (let k = 0; k < N; k++) {
      const u = -(K[k]![0]! * result.x[2 * k]! + K[k]![1]! * result.x[2 * k + 1]!);
      expect(Math.abs(u - result.u[k]!)).toBeLessThan(1e-8);
    }
  });
});

describe('linearizeOcp', () => {
  it('A and B of an implicit defect match central differences of the solved step (≤ 1e-7)', () => {
    // c = x + h·f(x_{k+1}, u) − x_{k+1} with f = (v', −sin q' + u): implicit Euler of a pendulum
    const N = 3;
    const problem: StageOcp = {
      N,
      dims: (k) => ({ nx: 2, nu: k < N ? 1 : 0, ng: 0, nh: 0 }),
      stateStorage: () => 2,
      retract: (_k, out, x, dx) => {
        out[0] = x[0]! + dx[0]!;
        out[1] = x[1]! + dx[1]!;
      },
      evaluate: (k, x, u, xn, level, _sigma, lambda, _mu, _eta, out) => {
        out.cost = 0;
        if (k === N) {
          if (level >= 1) out.costGrad.fill(0);
          if (level === 2) out.hess.fill(0);
          return;
        }
        const [q1, v1] = [xn![0]!, xn![1]!];
        out.c[0] = x[0]! + h * v1 - q1;
        out.c[1] = x[1]! + h * (-Math.sin(q1) + u[0]!) - v1;
        if (level === 0) return;
        out.costGrad.fill(0);
        out.cJac.set([1, 0, 0, -1, h, 0, 1, h, -h * Math.cos(q1), -1]);
        if (level === 2) {
          out.hess.fill(0);
          out.hess[3 * 5 + 3] = lambda[1]! * h * Math.sin(q1);
        }
      },
    };
    const step = (x: number[], u: number): number[] => {
      // Newton on the implicit step
      let [q1, v1] = [x[0]!, x[1]!];
      for (let i = 0; i < 50; i++) {
        const r0 = x[0]! + h * v1 - q1;
        const r1 = x[1]! + h * (-Math.sin(q1) + u) - v1;
        const J = [-1, h, -h * Math.cos(q1), -1];
        const det = J[0]! * J[3]! - J[1]! * J[2]!;
        q1 -= (J[3]! * r0 - J[1]! * r1) / det;
        v1 -= (-J[2]! * r0 + J[0]! * r1) / det;
      }
      return [q1, v1];
    };
    const x = [0.7, -0.3];
    const u = 0.4;
    const x1 = step(x, u);
    const pt = {
      x: Float64Array.of(...x, ...x1, ...step(x1, 0), ...step(step(x1, 0), 0)),
      u: Float64Array.of(u, 0, 0),
      lambda: new Float64Array(6),
      mu: new Float64Array(0),
      z: new Float64Array(0),
      s: new Float64Array(0),
    };
    const lq = linearizeOcp(problem, pt, { weights: { Q: [1, 0, 0, 1], R: [1] } });
    const eps = 1e-6;
    const s0 = lq.stages[0]!;
    for (let j = 0; j < 3; j++) {
      const plus =
        j < 2
          ? step(
              x.map((v, i) => v + (i === j ? eps : 0)),
              u,
            )
          : step(x, u + eps);
      const minus =
        j < 2
          ? step(
              x.map((v, i) => v - (i === j ? eps : 0)),
              u,
            )
          : step(x, u - eps);
      for (let i = 0; i < 2; i++) {
        const fd = (plus[i]! - minus[i]!) / (2 * eps);
        const an = j < 2 ? s0.A[i * 2 + j]! : s0.B[i]!;
        expect(Math.abs(fd - an)).toBeLessThan(1e-7);
      }
    }
    // user weights are copied as given
    expect(Array.from(s0.Q)).toEqual([1, 0, 0, 1]);
    expect(Array.from(s0.R)).toEqual([1]);
  });

  it('rejects a point of the wrong size and weights of the wrong size', () => {
    const problem = lqProblem(3, 'fixed', [1, 0]);
    const z = (n: number) => new Float64Array(n);
    const pt = { x: z(8), u: z(3), lambda: z(6), mu: z(4), z: z(0), s: z(0) };
    expect(() => linearizeOcp(problem, { ...pt, x: z(7) })).toThrow(DimensionError);
    expect(() => linearizeOcp(problem, pt, { weights: { Q: [1], R: [1] } })).toThrow(
      DimensionError,
    );
  });
});

describe('riccatiGains: bad input', () => {
  const one = Float64Array.of(1);
  const empty = new Float64Array(0);
  const terminal = { nx: 1, Q: Float64Array.of(0), D: empty, m: 0 };
  it('a reduced Hessian that is not positive definite is a DomainError', () => {
    const stage = {
      nx: 1,
      nu: 1,
      nxNext: 1,
      A: one,
      B: one,
      Q: one,
      R: Float64Array.of(-1),
      S: Float64Array.of(0),
      D: empty,
      m: 0,
    };
    expect(() => riccatiGains({ stages: [stage], terminal })).toThrow(DomainError);
  });
  it('a matrix of the wrong size or chained dimensions that do not match are DimensionErrors', () => {
    const stage = {
      nx: 1,
      nu: 1,
      nxNext: 1,
      A: Float64Array.of(1, 2),
      B: one,
      Q: one,
      R: one,
      S: Float64Array.of(0),
      D: empty,
      m: 0,
    };
    expect(() => riccatiGains({ stages: [stage], terminal })).toThrow(DimensionError);
    const wide = { ...stage, A: one, nxNext: 2 };
    expect(() => riccatiGains({ stages: [wide], terminal })).toThrow(DimensionError);
  });
  it('an active control bound keeps its control: that row of K is 0', () => {
    // two controls, the second fixed by an equality row (as an active bound is)
    const stage = {
      nx: 1,
      nu: 2,
      nxNext: 1,
      A: one,
      B: Float64Array.of(1, 1),
      Q: one,
      R: Float64Array.of(1, 0, 0, 1),
      S: Float64Array.of(0, 0),
      D: Float64Array.of(0, 0, 1),
      m: 1,
    };
    const { K } = riccatiGains({ stages: [stage], terminal: { ...terminal, Q: one } });
    // min ½u₁² + ½(x + u₁)²: u₁ = −x/2
    expect(Math.abs(K[0]![0]! - 0.5)).toBeLessThan(1e-15);
    expect(Math.abs(K[0]![1]!)).toBeLessThan(1e-15);
  });
});
