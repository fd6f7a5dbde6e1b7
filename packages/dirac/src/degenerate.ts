/**
 * Solver (c) of spec 002 §5.8 (not in the paper, spec 002 §7 item 8): degenerate
 * LINEAR-QUADRATIC implicit Lagrangian systems, evolved on the constraint subspace that
 * {@link constraintAlgorithm} finds — exactly by the matrix exponential or with core's DOPRI5.
 *
 * @module
 */
import {
  DenseQR,
  Dopri5Integrator,
  dopri5Method,
  expm,
  extendSolution,
  type IntegrationStats,
  matVec,
  type OdeRhs,
  transpose,
} from '@geomech/core';
import {
  type ConstraintAlgorithmOptions,
  type ConstraintAlgorithmResult,
  constraintAlgorithm,
} from './constraintAlgorithm.js';
import { dopriOptions, implicitSolution, sampleTimes } from './implicitRun.js';
import {
  expmMethod,
  type ImplicitIntegrationOptions,
  type ImplicitSolution,
} from './implicitSolution.js';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, checkLength, maxAbs } from './internal.js';

/** Options of {@link integrateDegenerate}. */
export interface DegenerateOptions extends ImplicitIntegrationOptions, ConstraintAlgorithmOptions {
  /**
   * `'expm'` (default): ξ(t) = exp(R(t − t0))ξ0, exact up to rounding; `'dopri5'`: integrate
   * ξ̇ = Rξ with DOPRI5 (`rtol`, `atol`).
   */
  readonly method?: 'expm' | 'dopri5';
  /** A result of {@link constraintAlgorithm} to reuse. */
  readonly algorithm?: ConstraintAlgorithmResult;
}

/** Initial data of {@link integrateDegenerate}; projected onto the constraint subspace. */
export interface DegenerateInitial {
  readonly q0: ArrayLike<number>;
  readonly v0: ArrayLike<number>;
}

/**
 * The solution of {@link integrateDegenerate}: the coordinates ξ on the constraint subspace as the
 * series `xi` (count × dimension) and the constraint algorithm's result used.
 */
export type DegenerateSolution = ImplicitSolution<'xi'> & {
  /** The constraint algorithm's result used. */
  readonly algorithm: ConstraintAlgorithmResult;
};

/**
 * Solver (c) of spec 002 §5.8 for degenerate LINEAR-QUADRATIC systems (see
 * {@link constraintAlgorithm} for the scope): runs the constraint algorithm, projects (q0, v0)
 * onto the constraint subspace 𝒞 (consistent initialization, including secondary constraints
 * such as q_C1/C1 = q_C3/C3), and evolves the reduced linear ODE ξ̇ = Rξ, (q, v) = Bξ, exactly
 * (matrix exponential) or with DOPRI5. Then p = Mv + Sq, μ from Aᵀμ = ṗ − ∂L/∂q (least
 * squares), the energy, |A v| and, as `positionResidual`, max |Cq| over the secondary position
 * constraints; the coordinates ξ are the series `xi`. With `'expm'` the solution's method is
 * {@link expmMethod} (no steps: k is the sample index), with `'dopri5'` core's DOPRI5.
 *
 * @throws DomainError / NonRegularSystemError as {@link constraintAlgorithm}.
 * @example
 * ```ts
 * const circuit = lcCircuit4(); // spec 002 §4.2
 * const { q: q0, v: v0 } = circuit.consistentInitialData(0.3, 0, 0);
 * const sol = integrateDegenerate(new ImplicitLagrangianSystem(circuit.lagrangian, circuit.distribution), { q0, v0 }, 20);
 * sol.algorithm?.frequencies[0]; // ω_LC
 * ```
 */
export function integrateDegenerate(
  system: ImplicitLagrangianSystem,
  initial: DegenerateInitial,
  tEnd: number,
  options: DegenerateOptions = {},
): DegenerateSolution {
  const what = 'integrateDegenerate';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkLength(`${what}: v0`, initial.v0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: v0`, initial.v0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const alg =
    options.algorithm ??
    constraintAlgorithm(system, options.rtol === undefined ? {} : { rtol: options.rtol });
  const { M, S, K, A } = alg.data;
  const d = alg.dimension;
  const start = alg.project(initial.q0, initial.v0);
  const count = times.length;
  const xis = new Float64Array(count * d);
  const ks = new Float64Array(count);
  let method = expmMethod;
  let steps = count - 1;
  let stats: IntegrationStats = { newtonIterations: 0, maxIterations: 0, maxResidual: 0 };
  if (d > 0) {
    if ((options.method ?? 'expm') === 'expm') {
      const Rt = new Float64Array(d * d);
      const eRt = new Float64Array(d * d);
      for (let k = 0; k < count; k++) {
        const dt = times[k]! - t0;
        for (let i = 0; i < d * d; i++) Rt[i] = alg.flow[i]! * dt;
        expm(eRt, Rt, d);
        matVec(xis.subarray(k * d, (k + 1) * d), eRt, d, d, start.xi);
        ks[k] = k;
      }
    } else {
      const R = alg.flow;
      const rhs: OdeRhs = (out, _t, y) => {
        matVec(out, R, d, d, y);
      };
      const sol = new Dopri5Integrator(d, rhs, dopriOptions(options, times)).integrate(
        start.xi,
        t0,
        tEnd,
      );
      stats = { ...sol.stats };
      method = dopri5Method;
      steps = sol.steps;
      for (let k = 0; k < count; k++) {
        xis.set(sol.sample('y', k), k * d);
        ks[k] = sol.k[k]!;
      }
    }
  }
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const x = new Float64Array(2 * n);
  const xdot = new Float64Array(2 * n);
  const xiDot = new Float64Array(d);
  const velocities: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    const xi = xis.subarray(k * d, (k + 1) * d);
    matVec(x, alg.basis, 2 * n, d, xi);
    qs.set(x.subarray(0, n), k * n);
    vs.set(x.subarray(n), k * n);
    matVec(xiDot, alg.flow, d, d, xi);
    matVec(xdot, alg.basis, 2 * n, d, xiDot);
    velocities.push(Float64Array.from(xdot));
  }
  const At = transpose(new Float64Array(n * m), A, m, n);
  const qr = m > 0 ? new DenseQR(n, m).factor(At, n, m) : undefined;
  const e = new Float64Array(n);
  const C = alg.positionConstraints;
  const kC = alg.positionConstraintCount;
  const Cq = new Float64Array(kC);
  const out = implicitSolution(
    system,
    { method, t: times, k: ks, q: qs, v: vs, steps, stats },
    (out, k, q, v) => {
      if (qr === undefined) return;
      // e = ṗ − ∂L/∂q = M v̇ + S q̇ − Sᵀ v + K q
      const xd = velocities[k]!;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++)
          s +=
            M[i * n + j]! * xd[n + j]! +
            S[i * n + j]! * xd[j]! -
            S[j * n + i]! * v[j]! +
            K[i * n + j]! * q[j]!;
        e[i] = s;
      }
      qr.solveLeastSquares(e, out);
    },
    kC === 0
      ? undefined
      : (q) => {
          matVec(Cq, C, kC, n, q);
          return maxAbs(Cq);
        },
    start.correction,
    { name: 'xi', width: d, data: xis },
  );
  return extendSolution(out, { algorithm: alg }) as DegenerateSolution;
}
