import { describe, expect, it } from 'vitest';
import {
  DimensionError,
  DomainError,
  EvaluationDomainError,
  NonFiniteError,
  ResourceLimitError,
} from '../../src/errors.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { resolveOcpOptions } from '../../src/ocp/options.js';
import type { StageOcp } from '../../src/ocp/problem.js';
import { OCP_MAX_BYTES, OcpSolver, solveOcp } from '../../src/ocp/solver.js';
import { StageKktSystem } from '../../src/ocp/stageKkt.js';
import { stageDerivativeError } from '../../src/testing/ocpDerivativeCheck.js';
import { rng } from '../support/random.js';
import {
  doubleIntegratorBangBang,
  hs071,
  linear,
  minimumTime,
  type RnStage,
  type Row,
  rnProblem,
  rosenbrock,
  symmetric,
  zeroH,
} from './problems.js';

// ---------------------------------------------------------------------------------------------
// linear-quadratic problems against a dense KKT solve

interface LqData {
  N: number;
  nx: number;
  nu: number;
  A: number[][][];
  B: number[][][];
  d: number[][];
  Q: number[][][];
  q: number[][];
  x0: number[];
  xN: number[] | undefined;
}

function randomLq(seed: number, N: number, terminal: boolean): LqData {
  const r = rng(seed);
  const nx = 3;
  const nu = 2;
  const u = () => 2 * r() - 1;
  const mat = (m: number, n: number, diag = 0) =>
    Array.from({ length: m }, (_, i) =>
      Array.from({ length: n }, (_, j) => u() * 0.4 + (i === j ? diag : 0)),
    );
  const spd = (n: number) => {
    const M = mat(n, n);
    return M.map((row, i) =>
      row.map((_, j) => M[i]!.reduce((s, v, t) => s + v * M[j]![t]!, 0) + (i === j ? 0.5 : 0)),
    );
  };
  return {
    N,
    nx,
    nu,
    A: Array.from({ length: N }, () => mat(nx, nx, 1)),
    B: Array.from({ length: N }, () => mat(nx, nu)),
    d: Array.from({ length: N }, () => Array.from({ length: nx }, u)),
    Q: Array.from({ length: N + 1 }, (_, k) => spd(k < N ? nx + nu : nx)),
    q: Array.from({ length: N + 1 }, (_, k) => Array.from({ length: k < N ? nx + nu : nx }, u)),
    x0: Array.from({ length: nx }, u),
    xN: terminal ? Array.from({ length: nx }, u) : undefined,
  };
}

function lqProblem(D: LqData): StageOcp {
  const stages: RnStage[] = [];
  const quad = (Q: number[][], q: number[], z: number[]): Row => {
    const Qz = Q.map((row) => row.reduce((s, v, j) => s + v * z[j]!, 0));
    return {
      v:
        0.5 * z.reduce((s, zi, i) => s + zi * Qz[i]!, 0) +
        q.reduce((s, qi, i) => s + qi * z[i]!, 0),
      g: Qz.map((v, i) => v + q[i]!),
      H: Q.map((row) => [...row]),
    };
  };
  for (let k = 0; k <= D.N; k++) {
    const last = k === D.N;
    const ng = k === 0 ? D.nx : last && D.xN ? D.nx : 0;
    stages.push({
      nx: D.nx,
      nu: last ? 0 : D.nu,
      ng,
      cost: (x, u) => quad(D.Q[k]!, D.q[k]!, [...x, ...u]),
      dynamics: last
        ? undefined
        : (x, u, xn) =>
            xn.map((_, i) => {
              const z = [...x, ...u, ...xn];
              const g = [...D.A[k]![i]!, ...D.B[k]![i]!, ...xn.map((__, j) => (i === j ? -1 : 0))];
              return linear(g, D.d[k]![i]!, z);
            }),
      eq:
        ng === 0
          ? undefined
          : (x, u) => {
              const ref = k === 0 ? D.x0 : D.xN!;
              const z = [...x, ...u];
              return ref.map((v, i) =>
                linear(
                  z.map((_, j) => (i === j ? 1 : 0)),
                  -v,
                  z,
                ),
              );
            },
    });
  }
  return rnProblem(stages);
}

/** The dense KKT solve of the LQ problem: x (flat), u (flat), λ, μ and the optimal cost. */
function denseLq(D: LqData) {
  const { N, nx, nu } = D;
  const nX = (N + 1) * nx;
  const n = nX + N * nu;
  const xi = (k: number, i: number) => k * nx + i;
  const ui = (k: number, i: number) => nX + k * nu + i;
  const rows: { a: Map<number, number>; b: number }[] = [];
  for (let k = 0; k < N; k++) {
    for (let i = 0; i < nx; i++) {
      const a = new Map<number, number>();
      for (let j = 0; j < nx; j++) a.set(xi(k, j), D.A[k]![i]![j]!);
      for (let j = 0; j < nu; j++) a.set(ui(k, j), D.B[k]![i]![j]!);
      a.set(xi(k + 1, i), (a.get(xi(k + 1, i)) ?? 0) - 1);
      rows.push({ a, b: -D.d[k]![i]! });
    }
  }
  for (let i = 0; i < nx; i++) rows.push({ a: new Map([[xi(0, i), 1]]), b: D.x0[i]! });
  if (D.xN) for (let i = 0; i < nx; i++) rows.push({ a: new Map([[xi(N, i), 1]]), b: D.xN[i]! });
  const m = rows.length;
  const size = n + m;
  const K = new Float64Array(size * size);
  const rhs = new Float64Array(size);
  for (let k = 0; k <= N; k++) {
    const idx = (a: number) => (a < nx ? xi(k, a) : ui(k, a - nx));
    const Q = D.Q[k]!;
    for (let a = 0; a < Q.length; a++) {
      rhs[idx(a)] = -D.q[k]![a]!;
      for (let b = 0; b < Q.length; b++) K[idx(a) * size + idx(b)]! += Q[a]![b]!;
    }
  }
  rows.forEach((row, r) => {
    for (const [j, v] of row.a) {
      K[(n + r) * size + j] = v;
      K[j * size + n + r] = v;
    }
    rhs[n + r] = row.b;
  });
  const sol = new DenseLU(size).factor(K).solve(rhs);
  const x = sol.slice(0, nX);
  const u = sol.slice(nX, n);
  let cost = 0;
  for (let k = 0; k <= N; k++) {
    const z = [...x.slice(k * nx, (k + 1) * nx), ...(k < N ? u.slice(k * nu, (k + 1) * nu) : [])];
    const Q = D.Q[k]!;
    for (let a = 0; a < z.length; a++) {
      cost += D.q[k]![a]! * z[a]!;
      for (let b = 0; b < z.length; b++) cost += 0.5 * z[a]! * Q[a]![b]! * z[b]!;
    }
  }
  return { x, u, lambda: sol.slice(n, n + N * nx), mu: sol.slice(n + N * nx), cost };
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe('OcpSolver on linear-quadratic problems', () => {
  for (const terminal of [false, true]) {
    it(`one iteration from a random start reaches the dense KKT solution${terminal ? ' (terminal state constraint)' : ''}`, () => {
      for (const seed of [1, 2, 3]) {
        const D = randomLq(seed, 12, terminal);
        const ref = denseLq(D);
        const r = rng(seed + 100);
        const guess = {
          x: Float64Array.from({ length: (D.N + 1) * D.nx }, () => 4 * r() - 2),
          u: Float64Array.from({ length: D.N * D.nu }, () => 4 * r() - 2),
        };
        const res = new OcpSolver(lqProblem(D)).solve(guess);
        expect(res.status).toBe('converged');
        expect(res.iterations).toBe(1);
        expect(res.secondOrder).toBe('minimum');
        expect(res.success).toBe(true);
        expect(maxDiff(res.x, ref.x)).toBeLessThan(1e-10);
        expect(maxDiff(res.u, ref.u)).toBeLessThan(1e-10);
        expect(maxDiff(res.lambda, ref.lambda)).toBeLessThan(1e-9);
        expect(maxDiff(res.mu, ref.mu)).toBeLessThan(1e-9);
        expect(Math.abs(res.cost - ref.cost)).toBeLessThan(1e-10 * Math.max(1, Math.abs(ref.cost)));
        // inertia of the unregularized KKT matrix: (n, m, 0)
        const n = (D.N + 1) * D.nx + D.N * D.nu;
        const m = D.N * D.nx + D.nx * (terminal ? 2 : 1);
        expect(res.inertia).toEqual({ positive: n, negative: m, zero: 0 });
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// nonlinear problems with known optima

describe('OcpSolver on nonlinear problems with known optima', () => {
  it('the test problems have exact derivatives (central differences, ≤ 1e-6)', () => {
    const r = rng(7);
    const cases: [StageOcp, number][] = [
      [rosenbrock(), 1],
      [hs071(), 1],
      [minimumTime(6), 4],
      [doubleIntegratorBangBang(6), 2],
    ];
    for (const [p, seed] of cases) {
      const xs: Float64Array[] = [];
      const us: Float64Array[] = [];
      for (let k = 0; k <= p.N; k++) {
        xs.push(Float64Array.from({ length: p.stateStorage(k) }, () => 1 + r()));
        us.push(Float64Array.from({ length: p.dims(k).nu }, () => 1 + r()));
      }
      for (let k = 0; k <= p.N; k++) {
        const e = stageDerivativeError(p, k, xs[k]!, us[k]!, xs[k + 1], seed + k, {
          step: 1e-6,
        });
        expect(e.jacobian).toBeLessThan(1e-6);
        expect(e.hessian).toBeLessThan(1e-6);
      }
    }
  });

  it('Rosenbrock as a 2-stage problem from (−1.2, 1): minimum (1, 1), 21 iterations as IPOPT', () => {
    const res = new OcpSolver(rosenbrock()).solve({ x: [-1.2, -1.2, 1], u: [1] });
    expect(res.status).toBe('converged');
    expect(res.secondOrder).toBe('minimum');
    expect(res.cost).toBeLessThan(1e-15);
    expect(maxDiff(res.x, [1, 1, 1])).toBeLessThan(1e-7);
    expect(res.iterations).toBeLessThanOrEqual(25);
  });

  it('Hock–Schittkowski 71: f* = 17.0140173, x* = (1, 4.7429994, 3.8211503, 1.3794082), 8 iterations as IPOPT', () => {
    const res = new OcpSolver(hs071()).solve({ x: [1, 5], u: [5, 1] });
    expect(res.status).toBe('converged');
    expect(res.success).toBe(true);
    expect(res.cost).toBeCloseTo(17.0140173, 6);
    expect(maxDiff([...res.x, ...res.u], [1, 4.7429994, 3.8211503, 1.3794082])).toBeLessThan(1e-6);
    expect(res.iterations).toBe(8);
    // KKT at the returned point: ∇f + μ∇g − Σ zᵢ∇hᵢ = 0 with z ≥ 0, zᵢhᵢ ≈ 0
    for (const z of res.z) expect(z).toBeGreaterThan(-1e-8);
    expect(res.dualInfeasibility).toBeLessThan(1e-7);
  });

  it('double integrator with |u| ≤ 1: the bang-bang discrete optimum (switch at t = T/2), p_N = 1', () => {
    for (const N of [10, 40, 160]) {
      const res = new OcpSolver(doubleIntegratorBangBang(N), { tol: 1e-10 }).solve({
        x: new Float64Array(2 * (N + 1)),
        u: new Float64Array(N),
      });
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe('minimum');
      expect(Math.abs(res.cost + 1)).toBeLessThan(1e-8);
      for (let k = 0; k < N; k++)
        expect(Math.abs(res.u[k]! - (k < N / 2 ? 1 : -1))).toBeLessThan(1e-6);
      expect(res.iterations).toBeLessThan(15);
    }
  });

  it('minimum time with the final time as a state: T* = 2 for every even N', () => {
    for (const N of [10, 40]) {
      const x = new Float64Array(3 * (N + 1));
      for (let k = 0; k <= N; k++) x[3 * k + 2] = 3;
      const res = new OcpSolver(minimumTime(N), { tol: 1e-10 }).solve({
        x,
        u: new Float64Array(N),
      });
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe('minimum');
      expect(Math.abs(res.cost - 2)).toBeLessThan(1e-8);
    }
  });
});

/**
 * The nonholonomic (Brockett) integrator x⁺ = x + hu₁, y⁺ = y + hu₂, z⁺ = z + h(xu₂ − yu₁),
 * h = 1/N, from rest at 0 back to (0, 0, 1), cost Σ h|u|²/2, gauge u₂,₀ = 0 (the problem is
 * invariant under rotations about the z axis). z_N is twice the area enclosed by the polygon of the
 * (x, y) path (shoelace formula), so by the discrete isoperimetric inequality Σ|eᵢ|² ≥ 4 tan(π/N)·A
 * (equality only for the regular N-gon) the optimum is the regular N-gon with cost N·tan(π/N).
 * At rest the linearized dynamics do not reach z: the constraint Jacobian is rank-deficient there.
 */
function brockett(N: number): StageOcp {
  const h = 1 / N;
  const stages: RnStage[] = [];
  for (let k = 0; k <= N; k++) {
    const last = k === N;
    stages.push({
      nx: 3,
      nu: last ? 0 : 2,
      ng: k === 0 ? 4 : last ? 3 : 0,
      cost: last
        ? undefined
        : (_x, [u1, u2]) => {
            const H = zeroH(5);
            H[3]![3] = h;
            H[4]![4] = h;
            return { v: 0.5 * h * (u1! ** 2 + u2! ** 2), g: [0, 0, 0, h * u1!, h * u2!], H };
          },
      dynamics: last
        ? undefined
        : ([x, y, z], [u1, u2], [xn, yn, zn]) => {
            const w = [x!, y!, z!, u1!, u2!, xn!, yn!, zn!];
            const H = zeroH(8);
            H[0]![4] = h;
            H[4]![0] = h;
            H[1]![3] = -h;
            H[3]![1] = -h;
            return [
              linear([1, 0, 0, h, 0, -1, 0, 0], 0, w),
              linear([0, 1, 0, 0, h, 0, -1, 0], 0, w),
              {
                v: z! + h * (x! * u2! - y! * u1!) - zn!,
                g: [h * u2!, -h * u1!, 1, -h * y!, h * x!, 0, 0, -1],
                H,
              },
            ];
          },
      eq:
        k === 0
          ? (x, u) => {
              const w = [...x, ...u];
              return [0, 1, 2, 4].map((i) =>
                linear(
                  w.map((_, j) => (i === j ? 1 : 0)),
                  0,
                  w,
                ),
              );
            }
          : last
            ? (x) => [linear([1, 0, 0], 0, x), linear([0, 1, 0], 0, x), linear([0, 0, 1], -1, x)]
            : undefined,
    });
  }
  return rnProblem(stages);
}

describe('a nonholonomic problem (rank-deficient constraints at rest, negative curvature)', () => {
  it('the Brockett integrator: the regular N-gon, cost N·tan(π/N), in as many iterations as IPOPT 3.11', () => {
    // IPOPT 3.11.9 (MUMPS, exact Hessian, the same problem and starting points): 8, 15, 14, 23
    const r = rng(11);
    for (const [N, amp, ipopt] of [
      [12, 2, 8],
      [12, 0.01, 15],
      [24, 0.5, 14],
      [48, 1, 23],
    ] as const) {
      const u = Float64Array.from({ length: 2 * N }, () => amp * (r() - 0.5));
      const res = new OcpSolver(brockett(N)).solve({ x: new Float64Array(3 * (N + 1)), u });
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe('minimum');
      expect(res.success).toBe(true);
      expect(Math.abs(res.cost - N * Math.tan(Math.PI / N))).toBeLessThan(1e-7);
      expect(res.iterations).toBeLessThanOrEqual(ipopt + 2);
      // the vertices are on a circle through the origin: equal edges
      const edge = (k: number) =>
        Math.hypot(res.x[3 * k + 3]! - res.x[3 * k]!, res.x[3 * k + 4]! - res.x[3 * k + 1]!);
      for (let k = 1; k < N; k++) expect(Math.abs(edge(k) - edge(0))).toBeLessThan(1e-6);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// saddles and the second-order verdict

/** ℓ = a²/2 + (b² − 1)²/4 with b + 2 ≥ 0: a saddle at (0, 0), minima at (0, ±1). */
function saddleProblem(): StageOcp {
  return rnProblem([
    {
      nx: 2,
      nu: 0,
      nh: 1,
      cost: ([a, b]) => ({
        v: (a! * a!) / 2 + (b! * b! - 1) ** 2 / 4,
        g: [a!, b! * (b! * b! - 1)],
        H: [
          [1, 0],
          [0, 3 * b! * b! - 1],
        ],
      }),
      ineq: (x) => [linear([0, 1], 2, x)],
    },
  ]);
}

describe('second-order verdict', () => {
  it('started exactly at a saddle with zero gradient, the inertia correction moves off it to a minimum', () => {
    const res = new OcpSolver(saddleProblem()).solve({ x: [0, 0], u: [] });
    expect(res.status).toBe('converged');
    expect(res.secondOrder).toBe('minimum');
    expect(res.success).toBe(true);
    expect(Math.abs(res.x[1]!)).toBeCloseTo(1, 7);
    expect(res.cost).toBeLessThan(1e-12);
  });

  it('returned at the saddle (maxIterations 0) the verdict is saddle, never success', () => {
    const res = new OcpSolver(saddleProblem(), { maxIterations: 0 }).solve({ x: [0, 0], u: [] });
    expect(res.status).toBe('maxIterations');
    expect(res.secondOrder).toBe('saddle');
    expect(res.success).toBe(false);
    // one negative eigenvalue more than the n_h = 0 kept rows... : the reduced Hessian −1 + Σ < 0
    expect(res.inertia!.negative).toBe(1);
  });

  it('a converged stationary point that is a maximum along a feasible direction is reported as saddle', () => {
    // max of −x² on x ∈ [−1, 1] started at x = 0: by symmetry the iterates stay at 0
    const p = rnProblem([
      {
        nx: 1,
        nu: 0,
        nh: 2,
        cost: ([x]) => ({ v: -x! * x!, g: [-2 * x!], H: [[-2]] }),
        ineq: (x) => [linear([1], 1, x), linear([-1], 1, x)],
      },
    ]);
    const res = new OcpSolver(p).solve({ x: [0], u: [] });
    expect(res.secondOrder).toBe('saddle');
    expect(res.success).toBe(false);
    expect(res.message).toMatch(/not a minimum/);
  });

  it('a continuous symmetry gives singular; a gauge constraint removes it', () => {
    // ℓ = (a − b)²: every (t, t) is a minimizer
    const free = new OcpSolver(symmetric(false)).solve({ x: [1, 3], u: [] });
    expect(free.status).toBe('converged');
    expect(free.secondOrder).toBe('singular');
    expect(free.success).toBe(false);
    const fixed = new OcpSolver(symmetric(true)).solve({ x: [1, 3], u: [] });
    expect(fixed.secondOrder).toBe('minimum');
    expect(fixed.success).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// restoration and statuses

/** u ≥ 1 and u ≤ 0: no feasible point. */
function incompatibleBounds(): StageOcp {
  return rnProblem([
    {
      nx: 1,
      nu: 1,
      nh: 2,
      cost: (_x, u) => ({
        v: u[0]! ** 2,
        g: [0, 2 * u[0]!],
        H: [
          [0, 0],
          [0, 2],
        ],
      }),
      dynamics: (x, u, xn) => [linear([1, 1, -1], 0, [...x, ...u, ...xn])],
      ineq: (x, u) => [linear([0, 1], -1, [...x, ...u]), linear([0, -1], 0, [...x, ...u])],
    },
    { nx: 1, nu: 0 },
  ]);
}

/** Wächter & Biegler (2000): min x₁ s.t. x₁² − x₂ − 1 = 0, x₁ − x₃ − 1/2 = 0, x₂, x₃ ≥ 0. */
function waechterBiegler(): StageOcp {
  return rnProblem([
    {
      nx: 3,
      nu: 0,
      ng: 2,
      nh: 2,
      cost: (x) => linear([1, 0, 0], 0, x),
      eq: ([a, b, c]) => {
        const H = zeroH(3);
        H[0]![0] = 2;
        return [
          { v: a! * a! - b! - 1, g: [2 * a!, -1, 0], H },
          linear([1, 0, -1], -0.5, [a!, b!, c!]),
        ];
      },
      ineq: (x) => [linear([0, 1, 0], 0, x), linear([0, 0, 1], 0, x)],
    },
  ]);
}

describe('feasibility restoration and the statuses', () => {
  it('incompatible bounds: infeasible (restoration converges to a point of positive violation)', () => {
    const res = new OcpSolver(incompatibleBounds()).solve({ x: [0, 0], u: [0.5] });
    expect(res.status).toBe('infeasible');
    expect(res.success).toBe(false);
    expect(res.restorations).toBeGreaterThan(0);
    expect(res.primalInfeasibility).toBeCloseTo(0.5, 6);
    expect(res.secondOrder).toBeUndefined();
  });

  it('Wächter–Biegler from (−2, 1, 1): restoration phases, then local infeasibility at x₁ = −1 (as IPOPT 3.11)', () => {
    const res = new OcpSolver(waechterBiegler()).solve({ x: [-2, 1, 1], u: [] });
    expect(res.status).toBe('infeasible');
    expect(res.restorations).toBeGreaterThanOrEqual(2);
    expect(res.x[0]).toBeCloseTo(-1, 6);
    // the ℓ₁ violation at the infeasible stationary point is 1.5
    const [a, b, c] = res.x as unknown as [number, number, number];
    const l1 = Math.abs(a * a - b - 1) + Math.abs(a - c - 0.5) + Math.max(0, -b) + Math.max(0, -c);
    expect(l1).toBeCloseTo(1.5, 6);
  });

  it('Wächter–Biegler from (−3, 1, 1): the restoration phase returns to the main phase, which converges', () => {
    const res = new OcpSolver(waechterBiegler()).solve({ x: [-3, 1, 1], u: [] });
    expect(res.restorations).toBeGreaterThanOrEqual(1);
    expect(res.status).toBe('converged');
    expect(res.success).toBe(true);
    expect(maxDiff(res.x, [1, 0, 0.5])).toBeLessThan(1e-7);
  });

  it('residuals: max(infPr, infDu) of every line, restoration lines included, with or without a callback', () => {
    for (const x of [
      [-3, 1, 1],
      [-2, 1, 1],
    ]) {
      const seen: number[] = [];
      let restorationLines = 0;
      const withCb = new OcpSolver(waechterBiegler(), {
        onIteration: (info) => {
          seen.push(Math.max(info.infPr, info.infDu));
          if (info.restoration) restorationLines++;
        },
      }).solve({ x, u: [] });
      expect(withCb.restorations).toBeGreaterThanOrEqual(1);
      expect(Array.from(withCb.residuals)).toEqual(seen);
      expect(restorationLines).toBeGreaterThan(0);
      const without = new OcpSolver(waechterBiegler()).solve({ x, u: [] });
      expect(Array.from(without.residuals)).toEqual(seen);
    }
  });

  it('restoration entries reuse the phase and its buffers: a second solve from the same start is identical', () => {
    // the restoration phase (its problem, interior-point core and KKT system) is created at the
    // first entry and kept; later entries, in this solve and the next, must not replace any of
    // its typed arrays, and the restoration lines (objective, unscaled infPr) must repeat exactly
    const lines: number[][] = [];
    const solver = new OcpSolver(waechterBiegler(), {
      onIteration: (info) => {
        lines.push([info.iteration, info.restoration ? 1 : 0, info.objective, info.infPr]);
      },
    });
    const a = solver.solve({ x: [-2, 1, 1], u: [] });
    expect(a.restorations).toBeGreaterThanOrEqual(2);
    const phase = (solver as unknown as { restorationPhase: Record<string, unknown> })
      .restorationPhase;
    const buffers = (o: Record<string, unknown>, prefix: string) =>
      Object.entries(o)
        .filter(([, v]) => ArrayBuffer.isView(v))
        .map(([k, v]) => [`${prefix}.${k}`, v] as [string, ArrayBufferView]);
    const all = () => {
      const core = phase.core as Record<string, unknown>;
      return [
        ...buffers(phase.problem as Record<string, unknown>, 'problem'),
        ...buffers(core, 'core'),
        ...buffers(core.kkt as Record<string, unknown>, 'kkt'),
      ];
    };
    const before = all();
    expect(before.length).toBeGreaterThan(60);
    const linesA = lines.splice(0);
    const b = solver.solve({ x: [-2, 1, 1], u: [] });
    expect((solver as unknown as { restorationPhase: unknown }).restorationPhase).toBe(phase);
    const after = new Map(all());
    for (const [name, buf] of before) expect(after.get(name), name).toBe(buf);
    expect(after.size).toBe(before.length);
    expect(b.restorations).toBe(a.restorations);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    // the restoration lines carry a finite objective and the original problem's violation
    const resto = linesA.filter((l) => l[1] === 1);
    expect(resto.length).toBeGreaterThan(0);
    for (const l of resto) {
      expect(Number.isFinite(l[2])).toBe(true);
      expect(l[3]).toBeGreaterThan(0);
    }
    expect(lines).toEqual(linesA);
  });

  it('Wächter–Biegler from a start beyond the fold converges to the solution (1, 0, 1/2)', () => {
    const res = new OcpSolver(waechterBiegler()).solve({ x: [3, 1, 1], u: [] });
    expect(res.status).toBe('converged');
    expect(res.success).toBe(true);
    expect(maxDiff(res.x, [1, 0, 0.5])).toBeLessThan(1e-7);
  });

  it('maxIterations, maxWallTime and userStop', () => {
    const guess = { x: [-1.2, -1.2, 1], u: [1] };
    const a = new OcpSolver(rosenbrock(), { maxIterations: 3 }).solve(guess);
    expect(a.status).toBe('maxIterations');
    expect(a.iterations).toBe(3);
    expect(a.success).toBe(false);
    const b = new OcpSolver(rosenbrock(), { maxWallTime: 1e-12 }).solve(guess);
    expect(b.status).toBe('maxWallTime');
    let calls = 0;
    const c = new OcpSolver(rosenbrock(), {
      onIteration: (info) => {
        calls++;
        return info.iteration < 2;
      },
    }).solve(guess);
    expect(c.status).toBe('userStop');
    expect(c.iterations).toBe(2);
    expect(calls).toBe(3);
  });

  it('acceptable: E₀ ≤ acceptableTol for acceptableIter iterations before tol is reached', () => {
    const res = new OcpSolver(rosenbrock(), {
      tol: 1e-14,
      acceptableTol: 1e-2,
      acceptableIter: 2,
    }).solve({ x: [-1.2, -1.2, 1], u: [1] });
    expect(res.status).toBe('acceptable');
    expect(res.success).toBe(true);
  });

  it('diverging: an unbounded objective', () => {
    const p = rnProblem([
      {
        nx: 1,
        nu: 1,
        cost: (x, u) => linear([0, -1], 0, [...x, ...u]),
        dynamics: (x, u, xn) => [linear([1, 0, -1], 0, [...x, ...u, ...xn])],
      },
      { nx: 1, nu: 0 },
    ]);
    const res = new OcpSolver(p, { divergingIteratesTol: 1e8 }).solve({ x: [0, 0], u: [0] });
    expect(res.status).toBe('diverging');
    expect(res.success).toBe(false);
  });

  it('invalidNumbers: NaN at the start, or in the derivatives at an accepted point', () => {
    const nanAt = (bad: (u: number) => boolean): StageOcp =>
      rnProblem([
        {
          nx: 1,
          nu: 1,
          cost: (_x, [u]) => ({
            v: (u! - 2) ** 2,
            g: [0, bad(u!) ? Number.NaN : 2 * (u! - 2)],
            H: [
              [0, 0],
              [0, 2],
            ],
          }),
          dynamics: (x, u, xn) => [linear([1, 1, -1], 0, [...x, ...u, ...xn])],
        },
        { nx: 1, nu: 0 },
      ]);
    const a = new OcpSolver(nanAt(() => true)).solve({ x: [0, 0], u: [0] });
    expect(a.status).toBe('invalidNumbers');
    const b = new OcpSolver(nanAt((u) => u > 1)).solve({ x: [0, 0], u: [0] });
    expect(b.status).toBe('invalidNumbers');
    expect(b.message).toMatch(/accepted point/);
  });

  it('stepComputationFailed: a singular dynamics Jacobian ∂c/∂x_{k+1}', () => {
    const p = rnProblem([
      {
        nx: 1,
        nu: 1,
        cost: (x, u) => linear([0, 1], 0, [...x, ...u]),
        dynamics: (x, u, xn) => [linear([1, 1, 0], 0, [...x, ...u, ...xn])],
      },
      { nx: 1, nu: 0 },
    ]);
    const res = new OcpSolver(p).solve({ x: [0, 0], u: [0] });
    expect(res.status).toBe('stepComputationFailed');
    expect(res.message).toMatch(/stage 0/);
  });

  it('restorationFailed: every trial point is outside the domain', () => {
    const start = 0.25;
    const p = rnProblem([
      {
        nx: 1,
        nu: 1,
        ng: 1,
        cost: (x, u) => {
          if (x[0] !== start || u[0] !== start)
            throw new EvaluationDomainError(0, 'only the start is defined');
          return {
            v: u[0]!,
            g: [0, 1],
            H: [
              [0, 0],
              [0, 0],
            ],
          };
        },
        eq: (x, u) => [linear([1, 0], -1, [...x, ...u])],
        dynamics: (x, u, xn) => [linear([1, 1, -1], 0, [...x, ...u, ...xn])],
      },
      { nx: 1, nu: 0 },
    ]);
    const res = new OcpSolver(p).solve({ x: [start, 2 * start], u: [start] });
    expect(res.status).toBe('restorationFailed');
    expect(res.success).toBe(false);
  });

  it('stepTooSmall: steps below 10ε at the smallest barrier parameter', () => {
    // a gradient with noise of a few ε (as from cancellation) that tol = 1e-16 cannot beat
    const p = rnProblem([
      {
        nx: 1,
        nu: 0,
        cost: ([x]) => ({
          v: 0.5 * (x! - 1) ** 2,
          g: [x! - 1 + 1e-15 * (2 + Math.sin(1e16 * x!))],
          H: [[1]],
        }),
      },
    ]);
    const res = new OcpSolver(p, { tol: 1e-16, acceptableIter: 0 }).solve({ x: [0], u: [] });
    expect(res.status).toBe('stepTooSmall');
    expect(res.success).toBe(false);
    expect(Math.abs(res.x[0]! - 1)).toBeLessThan(1e-14);
  });

  it('evaluation errors in the line search cut the step (EvaluationDomainError and NaN alike)', () => {
    for (const mode of ['throw', 'nan'] as const) {
      let errors = 0;
      const p = rnProblem([
        {
          nx: 1,
          nu: 1,
          cost: (_x, [u]) => {
            if (u! <= 0) {
              errors++;
              if (mode === 'throw')
                throw new EvaluationDomainError(0, 'log of a non-positive number');
              return {
                v: Number.NaN,
                g: [0, Number.NaN],
                H: [
                  [0, 0],
                  [0, Number.NaN],
                ],
              };
            }
            // min u − ln u at u = 1; Newton from u = 3 jumps to u = −3
            return {
              v: u! - Math.log(u!),
              g: [0, 1 - 1 / u!],
              H: [
                [0, 0],
                [0, 1 / (u! * u!)],
              ],
            };
          },
          dynamics: (x, u, xn) => [linear([1, 0, -1], 0, [...x, ...u, ...xn])],
        },
        { nx: 1, nu: 0 },
      ]);
      const res = new OcpSolver(p).solve({ x: [0, 0], u: [3] });
      expect(res.status).toBe('converged');
      expect(res.u[0]).toBeCloseTo(1, 8);
      expect(errors).toBeGreaterThan(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// warm start, options, inputs

describe('warm start, options and inputs', () => {
  it('a warm start from a solution converges in at most 2 iterations to the same point', () => {
    const solver = new OcpSolver(hs071());
    const first = solver.solve({ x: [1, 5], u: [5, 1] });
    const warm = new OcpSolver(hs071(), { warmStart: true, muInit: 1e-9 }).solve({
      x: first.x,
      u: first.u,
      mu: first.mu,
      z: first.z,
      s: first.s,
    });
    expect(warm.status).toBe('converged');
    expect(warm.iterations).toBeLessThanOrEqual(2);
    expect(Math.abs(warm.cost - first.cost)).toBeLessThan(1e-8);
  });

  it('repeated solves with one solver give identical results', () => {
    const solver = new OcpSolver(rosenbrock());
    const a = solver.solve({ x: [-1.2, -1.2, 1], u: [1] });
    const b = solver.solve({ x: [-1.2, -1.2, 1], u: [1] });
    expect(b.iterations).toBe(a.iterations);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
  });

  it('the per-iteration scratch is allocated once: a second solve reuses every buffer and line object', () => {
    // the interior-point core's and the KKT system's typed arrays (iterates, steps, right-hand
    // sides, Jacobians, Hessian, factors, filter) are created by the constructor and kept; a
    // solve with inequalities, the filter and inertia corrections must not replace any of them
    const N = 40;
    const lines: unknown[] = [];
    const solver = new OcpSolver(doubleIntegratorBangBang(N), {
      tol: 1e-10,
      onIteration: (info) => lines.push(info),
    });
    const guess = { x: new Float64Array(2 * (N + 1)), u: new Float64Array(N) };
    const core = (solver as unknown as { core: Record<string, unknown> }).core;
    const kkt = core.kkt as Record<string, unknown>;
    const buffers = (o: Record<string, unknown>, prefix: string) =>
      Object.entries(o)
        .filter(([, v]) => ArrayBuffer.isView(v))
        .map(([k, v]) => [`${prefix}.${k}`, v] as [string, ArrayBufferView]);
    const a = solver.solve(guess);
    const before = [...buffers(core, 'core'), ...buffers(kkt, 'kkt')];
    expect(before.length).toBeGreaterThan(60);
    const b = solver.solve(guess);
    const after = new Map([...buffers(core, 'core'), ...buffers(kkt, 'kkt')]);
    for (const [name, buf] of before) expect(after.get(name), name).toBe(buf);
    expect(after.size).toBe(before.length);
    // one reused line object for every iteration of both solves
    expect(lines).toHaveLength(a.iterations + b.iterations + 2);
    expect(new Set(lines).size).toBe(1);
    // and the same iterates
    expect(b.iterations).toBe(a.iterations);
    expect(Array.from(b.u)).toEqual(Array.from(a.u));
  });

  it('the history option keeps one line per iteration, as onIteration sees them', () => {
    const res = new OcpSolver(hs071(), { history: true }).solve({ x: [1, 5], u: [5, 1] });
    expect(res.history).toHaveLength(res.iterations + 1);
    expect(res.history![0]!.iteration).toBe(0);
    expect(res.history![res.iterations]!.infPr).toBeLessThan(1e-8);
    expect(res.history![1]!.alphaPr).toBeGreaterThan(0);
  });

  it('options are validated with DomainError; IPOPT defaults are filled in', () => {
    expect(() => resolveOcpOptions({ tol: -1 })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ tol: Number.NaN })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ maxIterations: 1.5 })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ muLinearDecreaseFactor: 1 })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ nlpScalingMethod: 'x' as never })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ thetaMinFact: 1e5 })).toThrow(DomainError);
    expect(() => resolveOcpOptions({ nope: 1 } as never)).toThrow(DomainError);
    expect(() => new OcpSolver(rosenbrock(), { acceptableTol: 1e-12 })).toThrow(DomainError);
    const o = resolveOcpOptions({});
    expect(o.tol).toBe(1e-8);
    expect(o.muInit).toBe(0.1);
    expect(o.maxIterations).toBe(3000);
    expect(o.acceptableIter).toBe(15);
    expect(resolveOcpOptions({ warmStart: true }).muInit).toBe(1e-4);
  });

  it('resolved options have one key order whatever is given (one hidden class for every solver)', () => {
    const keys = Object.keys(resolveOcpOptions({}));
    const given = resolveOcpOptions({
      onIteration: () => true,
      profile: true,
      warmStart: true,
      tol: 1e-10,
      maxIterations: 50,
    });
    expect(Object.keys(given)).toEqual(keys);
    // every option, muInit and onIteration (undefined when not given) included
    expect(keys).toContain('onIteration');
    expect(keys).toContain('muInit');
    expect(keys).toContain('tinyStepTol');
    expect(given.tol).toBe(1e-10);
    expect(given.maxIterations).toBe(50);
    expect(given.profile).toBe(true);
  });

  it('guesses and problems are validated', () => {
    const solver = new OcpSolver(rosenbrock());
    expect(() => solver.solve({ x: [0, 0], u: [0] })).toThrow(DimensionError);
    expect(() => solver.solve({ x: [0, 0, Number.NaN], u: [0] })).toThrow(NonFiniteError);
    expect(() => solver.solve({ x: [0, 0, 0], u: [0, 0] })).toThrow(DimensionError);
    expect(() =>
      new OcpSolver(hs071(), { warmStart: true }).solve({
        x: [1, 5],
        u: [5, 1],
        z: new Float64Array(9).fill(-1),
      }),
    ).toThrow(DomainError);
    const bad: StageOcp = { ...rosenbrock(), dims: () => ({ nx: 0, nu: 1, ng: 0, nh: 0 }) };
    expect(() => new OcpSolver(bad)).toThrow(DimensionError);
    const badN: StageOcp = { ...rosenbrock(), N: -1 };
    expect(() => new OcpSolver(badN)).toThrow(DimensionError);
  });

  it('the profile option splits the time into evaluation and linear algebra', () => {
    const plain = new OcpSolver(hs071()).solve({ x: [1, 5], u: [5, 1] });
    expect(plain.timings.evaluationMs).toBeUndefined();
    const res = new OcpSolver(hs071(), { profile: true }).solve({ x: [1, 5], u: [5, 1] });
    expect(res.timings.evaluationMs).toBeGreaterThan(0);
    expect(res.timings.linearAlgebraMs).toBeGreaterThan(0);
    expect(res.timings.evaluationMs! + res.timings.linearAlgebraMs!).toBeLessThanOrEqual(
      res.timings.totalMs,
    );
  });

  it('solveOcp is new OcpSolver(problem, options).solve(guess)', () => {
    const res = solveOcp(hs071(), { x: [1, 5], u: [5, 1] }, { tol: 1e-9 });
    expect(res.status).toBe('converged');
  });

  it('the example of the solveOcp comment: an active inequality and its multiplier', () => {
    const problem: StageOcp = {
      N: 0,
      dims: () => ({ nx: 1, nu: 0, ng: 0, nh: 1 }),
      stateStorage: () => 1,
      retract: (_k, out, x, dx) => {
        out[0] = x[0]! + dx[0]!;
      },
      evaluate: (_k, x, _u, _xn, level, sigma, _l, _m, _e, out) => {
        out.cost = (x[0]! - 2) ** 2;
        out.h[0] = x[0]! - 3;
        if (level >= 1) {
          out.costGrad[0] = 2 * (x[0]! - 2);
          out.hJac[0] = 1;
        }
        if (level === 2) out.hess[0] = 2 * sigma;
      },
    };
    const r = solveOcp(problem, { x: [5], u: [] });
    expect(r.status).toBe('converged');
    expect(r.x[0]).toBeCloseTo(3, 8);
    expect(r.z[0]).toBeCloseTo(2, 7);
    expect(r.s[0]).toBeCloseTo(0, 8);
    expect(r.secondOrder).toBe('minimum');
  });

  it('the example of the OcpSolver comment', () => {
    const problem: StageOcp = {
      N: 2,
      dims: (k) => ({ nx: 1, nu: k < 2 ? 1 : 0, ng: k === 0 || k === 2 ? 1 : 0, nh: 0 }),
      stateStorage: () => 1,
      retract: (_k, out, x, dx) => {
        out[0] = x[0]! + dx[0]!;
      },
      evaluate: (k, x, u, xn, level, sigma, _lambda, _mu, _eta, out) => {
        out.cost = k < 2 ? 0.5 * u[0]! ** 2 : 0;
        if (k < 2) out.c[0] = x[0]! + u[0]! - xn![0]!;
        if (k === 0) out.g[0] = x[0]! - 1;
        if (k === 2) out.g[0] = x[0]!;
        if (level === 0) return;
        out.costGrad.fill(0);
        if (k < 2) {
          out.costGrad[1] = u[0]!;
          out.cJac.set([1, 1, -1]);
        }
        if (k !== 1) out.gJac[0] = 1;
        if (level === 2) {
          out.hess.fill(0);
          if (k < 2) out.hess[4] = sigma;
        }
      },
    };
    const result = new OcpSolver(problem).solve({ x: [0, 0, 0], u: [0, 0] });
    expect(result.status).toBe('converged');
    expect(result.secondOrder).toBe('minimum');
    expect(maxDiff(result.u, [-0.5, -0.5])).toBeLessThan(1e-12);
    expect(result.cost).toBeCloseTo(0.25, 12);
  });
});

describe('OcpSolver: memory checked before work', () => {
  it('refuses a problem whose stage KKT system needs more than OCP_MAX_BYTES with a ResourceLimitError', () => {
    // 5·10⁶ + 1 stages with n_x 10, n_u 4, n_g 3
    const huge = {
      N: 5_000_000,
      dims: () => ({ nx: 10, nu: 4, ng: 3, nh: 0 }),
      stateStorage: () => 10,
      retract: () => undefined,
      evaluate: () => undefined,
    } as unknown as StageOcp;
    let caught: unknown;
    try {
      new OcpSolver(huge);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ResourceLimitError);
    const e = caught as ResourceLimitError;
    expect(e.limit).toBe(OCP_MAX_BYTES);
    // exactly the bytes the stage KKT system would allocate (68 GB here), computed before it is
    expect(e.requested).toBe(
      StageKktSystem.bufferSizes(
        Array.from({ length: 5_000_001 }, () => ({ nx: 10, nu: 4, ng: 3 })),
      ).bytes,
    );
    expect(e.requested).toBeGreaterThan(5e6 * 8 * 1000);
  });
});
