// The work of a solve outside its iterations (issue 16): the second-order verdict reuses the final
// level-2 evaluation and does not refactor the unshifted matrix after a `minimum`, the set-up
// does not re-evaluate after an identity scaling, and iteration 0 reuses the dynamics factors of
// the least-squares multipliers' factorization. The verdict and the inertia must be those of
// the old procedure (fresh evaluation; refactor at shift 0), checked here against it.
import { describe, expect, it } from 'vitest';
import { OCP_SECOND_ORDER_DUAL_REG, OCP_SECOND_ORDER_MARGIN } from '../../src/constants.js';
import type { IpmCore } from '../../src/ocp/ipm.js';
import type { StageOcp } from '../../src/ocp/problem.js';
import { type OcpResult, OcpSolver } from '../../src/ocp/solver.js';
import { StageKktSystem } from '../../src/ocp/stageKkt.js';
import {
  doubleIntegratorBangBang,
  hs071,
  linear,
  minimumTime,
  rnProblem,
  rosenbrock,
  symmetric,
} from './problems.js';

/** max of −x² on [−1, 1] from x = 0: converges to the stationary point 0, a saddle. */
function maximum(): StageOcp {
  return rnProblem([
    {
      nx: 1,
      nu: 0,
      nh: 2,
      cost: ([x]) => ({ v: -x! * x!, g: [-2 * x!], H: [[-2]] }),
      ineq: (x) => [linear([1], 1, x), linear([-1], 1, x)],
    },
  ]);
}

/** ½Σ u_k² + ½(x_N − 1)²·w on a scalar chain x_{k+1} = x_k + u_k, x_0 = 0 (w scales the cost). */
function chain(N: number, w: number, evalCount?: { n: number }): StageOcp {
  return rnProblem(
    Array.from({ length: N + 1 }, (_, k) => ({
      nx: 1,
      nu: k < N ? 1 : 0,
      ng: k === 0 ? 1 : 0,
      cost:
        k < N
          ? (_x: number[], u: number[]) => ({
              v: 0.5 * u[0]! ** 2,
              g: [0, u[0]!],
              H: [
                [0, 0],
                [0, 1],
              ],
            })
          : (x: number[]) => ({ v: 0.5 * w * (x[0]! - 1) ** 2, g: [w * (x[0]! - 1)], H: [[w]] }),
      dynamics:
        k < N
          ? (x: number[], u: number[], xn: number[]) => [
              linear([1, 1, -1], 0, [x[0]!, u[0]!, xn[0]!]),
            ]
          : undefined,
      eq: k === 0 ? (x: number[], u: number[]) => [linear([1, 0], 0, [x[0]!, u[0]!])] : undefined,
    })),
    evalCount,
  );
}

const verdictOf = { ok: 'minimum', wrongInertia: 'saddle', singular: 'singular' } as const;

/**
 * The old procedure at the returned point: a fresh level-2 evaluation, the ±ε factorizations, and
 * the unshifted matrix factored for the inertia.
 */
function referenceVerdict(solver: OcpSolver) {
  const core = (solver as unknown as { core: IpmCore }).core;
  (core as unknown as { evaluatedAtPoint: boolean }).evaluatedAtPoint = false;
  const st = core.factorForVerdict(OCP_SECOND_ORDER_MARGIN, OCP_SECOND_ORDER_DUAL_REG);
  const shifted = Array.from(core.kkt.inertia);
  const kkt = core.kkt;
  // the unshifted matrix of the last pass (δ_c of the verdict is 0 in these problems)
  const unshifted = kkt.refactor(0, 0);
  return {
    verdict: st in verdictOf ? verdictOf[st as keyof typeof verdictOf] : undefined,
    shifted,
    unshifted,
    unshiftedInertia: Array.from(kkt.inertia),
    n: kkt.nPrimal,
    m: kkt.nEquality,
  };
}

const inertiaOf = (r: OcpResult) =>
  r.inertia === undefined ? undefined : [r.inertia.positive, r.inertia.negative, r.inertia.zero];

describe('second-order verdict without the final re-evaluation and refactorization', () => {
  const cases: [string, () => StageOcp, { x: number[]; u: number[] }, number][] = [
    ['rosenbrock', rosenbrock, { x: [-1.2, 1, 1], u: [1] }, 3000],
    ['hs071', hs071, { x: [1, 5], u: [5, 1] }, 3000],
    ['symmetric (singular)', () => symmetric(false), { x: [1, 3], u: [] }, 3000],
    ['symmetric with gauge', () => symmetric(true), { x: [1, 3], u: [] }, 3000],
    ['maximum (saddle)', maximum, { x: [0], u: [] }, 3000],
    ['rosenbrock stopped after 2 iterations', rosenbrock, { x: [-1.2, 1, 1], u: [1] }, 2],
    [
      'chain stopped at iteration 0',
      () => chain(8, 1),
      { x: Array(9).fill(0), u: Array(8).fill(0) },
      0,
    ],
  ];
  for (const [name, make, guess, maxIterations] of cases) {
    it(`${name}: the verdict and inertia of the old procedure`, () => {
      const problem = make();
      const solver = new OcpSolver(problem, { maxIterations });
      const res = solver.solve(guess);
      const ref = referenceVerdict(solver);
      expect(res.secondOrder).toBe(ref.verdict);
      if (res.secondOrder === 'minimum') {
        // the −ε matrix has the inertia (n, m, 0), and so has the unshifted one (its reduced
        // Hessian is larger by ε): that is what is reported
        expect(ref.shifted).toEqual([ref.n, ref.m, 0]);
        expect(inertiaOf(res)).toEqual([ref.n, ref.m, 0]);
        // where the stage-wise recursion factors the unshifted matrix, it agrees
        if (ref.unshifted === 'ok') expect(ref.unshiftedInertia).toEqual(inertiaOf(res));
      } else {
        expect(inertiaOf(res)).toEqual(ref.unshiftedInertia);
      }
    });
  }

  it('bang-bang and minimum-time problems (active inequalities kept as rows) keep their verdicts', () => {
    for (const problem of [doubleIntegratorBangBang(10), minimumTime(10)]) {
      const solver = new OcpSolver(problem);
      const nx = solver.stateOffset[problem.N + 1]!;
      const nu = solver.controlOffset[problem.N + 1]!;
      const res = solver.solve({ x: new Float64Array(nx).fill(0.1), u: new Float64Array(nu) });
      const ref = referenceVerdict(solver);
      expect(res.status).toBe('converged');
      expect(res.secondOrder).toBe(ref.verdict);
    }
  });
});

describe('evaluations outside the iterations', () => {
  it('a converged solve evaluates nothing after its last iteration line (the verdict reuses it)', () => {
    const count = { n: 0 };
    let atLastLine = 0;
    const problem = chain(6, 1, count);
    const solver = new OcpSolver(problem, {
      onIteration: () => {
        atLastLine = count.n;
        return true;
      },
    });
    const res = solver.solve({ x: new Float64Array(7), u: new Float64Array(6) });
    expect(res.status).toBe('converged');
    expect(res.secondOrder).toBe('minimum');
    expect(count.n - atLastLine).toBe(0);
  });

  it('set-up: one level-1 and one level-2 evaluation when the gradient-based scaling is 1; one more otherwise', () => {
    for (const [w, extra] of [
      [1, 0],
      [1e4, 1], // ∇f = 1e4 > 100: s_f = 0.01, the scaled values need a new evaluation
    ] as const) {
      const count = { n: 0 };
      let atFirstLine = -1;
      const N = 6;
      const solver = new OcpSolver(chain(N, w, count), {
        onIteration: (info) => {
          if (info.iteration === 0) atFirstLine = count.n;
          return true;
        },
      });
      const res = solver.solve({ x: new Float64Array(N + 1), u: new Float64Array(N) });
      expect(res.status).toBe('converged');
      // stage evaluations before the line of iteration 0: level 1, (level 1 scaled), level 2
      expect(atFirstLine).toBe((2 + extra) * (N + 1));
      // the optimum of ½Σu² + ½w(x_N − 1)² with x_N = Σu: u_k = w/(1 + N w)
      const uk = w / (1 + N * w);
      for (let k = 0; k < N; k++) expect(Math.abs(res.u[k]! - uk)).toBeLessThan(1e-9);
    }
  });
});

describe('dynamics factors of the least-squares multipliers reused by iteration 0', () => {
  type Kkt = { refactorLoop(): unknown; dynFrom: number; N: number };
  const proto = StageKktSystem.prototype as unknown as Kkt;

  /** Solves with every factorization fresh (the dynamics step redone at every stage). */
  function solveFresh(solver: OcpSolver, guess: { x: Float64Array; u: Float64Array }) {
    const loop = proto.refactorLoop;
    proto.refactorLoop = function (this: Kkt) {
      this.dynFrom = this.N + 1;
      return loop.call(this);
    };
    try {
      return solver.solve(guess);
    } finally {
      proto.refactorLoop = loop;
    }
  }

  /**
   * Solves counting the fresh factorizations: `invalidateDynamics` calls (`factor` is
   * `invalidateDynamics` + `refactor`; the search direction calls the two itself).
   */
  function solveCounting(solver: OcpSolver, guess: { x: Float64Array; u: Float64Array }) {
    const invalidate = StageKktSystem.prototype.invalidateDynamics;
    let fresh = 0;
    StageKktSystem.prototype.invalidateDynamics = function (this: StageKktSystem) {
      fresh++;
      invalidate.call(this);
    };
    try {
      return { res: solver.solve(guess), fresh };
    } finally {
      StageKktSystem.prototype.invalidateDynamics = invalidate;
    }
  }

  const cases: [string, () => StageOcp, number][] = [
    ['chain', () => chain(8, 3), 0],
    ['bang-bang double integrator', () => doubleIntegratorBangBang(10), 0.1],
    ['minimum time', () => minimumTime(10), 0.1],
  ];
  for (const [name, make, x0] of cases) {
    it(`${name}: bit-identical to fresh factorizations, one fresh factorization less`, () => {
      const problem = make();
      const solver = new OcpSolver(problem);
      const guess = {
        x: new Float64Array(solver.stateOffset[problem.N + 1]!).fill(x0),
        u: new Float64Array(solver.controlOffset[problem.N + 1]!),
      };
      const ref = solveFresh(new OcpSolver(problem), guess);
      const { res, fresh } = solveCounting(solver, guess);
      expect(res.status).toBe('converged');
      expect(res.restorations).toBe(0);
      expect(res.iterations).toBe(ref.iterations);
      expect(res.secondOrder).toBe(ref.secondOrder);
      expect(res.inertia).toEqual(ref.inertia);
      expect(res.cost).toBe(ref.cost);
      for (const key of ['x', 'u', 'lambda', 'mu', 'z', 's'] as const) {
        expect(Array.from(res[key])).toEqual(Array.from(ref[key]));
      }
      // the least-squares multipliers, iterations 1 … (its − 1) and the verdict: iteration 0
      // refactors the least-squares matrix's dynamics factors
      expect(fresh).toBe(res.iterations + 1);
    });
  }
});
