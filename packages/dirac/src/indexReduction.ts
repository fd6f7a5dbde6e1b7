/**
 * Solver (a) of spec 002 §5.8 (not in the paper, spec 002 §7 item 8): the regular case of an
 * implicit Lagrangian system (A of full row rank, GᵀMG invertible) by index reduction,
 * [M −Aᵀ; A 0][v̇; μ] = [∂L/∂q − N v; −Ȧ v], integrated with core's DOPRI5, with optional drift
 * control by projection onto the constraints.
 *
 * @module
 */
import {
  DenseLU,
  Dopri5Integrator,
  dopri5Method,
  finiteDifferenceJacobian,
  type IntegrationStats,
  matVec,
  minNormSolve,
  NEWTON_DEFAULT_STEP_TOL,
  NewtonDivergedError,
  NonRegularSystemError,
  type OdeRhs,
  SINGULAR_JACOBIAN_CONDITION,
} from '@geomech/core';
import { dopriOptions, implicitSolution, sampleTimes } from './implicitRun.js';
import type { ImplicitIntegrationOptions, ImplicitSolution } from './implicitSolution.js';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, checkLength, maxAbs } from './internal.js';

/** Work counters of a run without steps. */
const ZERO_STATS: Required<IntegrationStats> = Object.freeze({
  newtonIterations: 0,
  maxIterations: 0,
  maxResidual: 0,
  attempts: 0,
  accepted: 0,
  rejected: 0,
  fEvals: 0,
});

/** DOPRI5 work counters summed over restarts. */
function addStats(
  a: Required<IntegrationStats> | undefined,
  b: Required<IntegrationStats>,
): Required<IntegrationStats> {
  if (a === undefined) return { ...b };
  return {
    ...a,
    attempts: a.attempts + b.attempts,
    accepted: a.accepted + b.accepted,
    rejected: a.rejected + b.rejected,
    fEvals: a.fEvals + b.fEvals,
  };
}

/** v ← v − Aᵀ(AAᵀ)⁻¹Av: the Euclidean projection onto ker A (A m×n of full row rank). */
function projectOntoKernel(v: Float64Array, A: Float64Array, m: number, n: number): void {
  if (m === 0) return;
  const Av = matVec(new Float64Array(m), A, m, n, v);
  const d = minNormSolve(A, m, n, Av);
  for (let i = 0; i < n; i++) v[i] = v[i]! - d[i]!;
}

/** A holonomic constraint φ(q) = 0 (k equations) whose differential the rows of A span. */
export interface PositionConstraint {
  /** Number k of equations. */
  readonly k: number;
  /** out ← φ(q) (k). */
  phi(out: Float64Array, q: Float64Array): void;
  /** out ← ∂φ/∂q (k×n). When absent, central differences. */
  jacobian?(out: Float64Array, q: Float64Array): void;
}

/** Options of {@link integrateIndexReduced}. */
export interface IndexReducedOptions extends ImplicitIntegrationOptions {
  /**
   * Project onto the constraints at every output time and restart from the projected state
   * (drift control): q onto φ(q) = 0 when `positionConstraint` is given (Gauss–Newton with
   * minimum-norm steps), then v onto ker A(q) (Euclidean). Default false.
   */
  readonly project?: boolean;
  /** A holonomic position constraint to monitor (and, with `project`, to enforce). */
  readonly positionConstraint?: PositionConstraint;
}

/** Initial data of the index-reduced solver; v0 is projected onto Δ(q0). */
export interface IndexReducedInitial {
  readonly q0: ArrayLike<number>;
  readonly v0: ArrayLike<number>;
}

/**
 * The index-1 form of (6.4) (spec 002 §5.8(a)): with M = ∂²L/∂v², N = ∂²L/∂v∂q,
 *
 *   [ M  −Aᵀ ] [ v̇ ]   [ ∂L/∂q − N v ]
 *   [ A   0  ] [ μ  ] = [ −Ȧ v        ],
 *
 * solved with an owned LU; q̇ = v. Allocation-free per evaluation.
 */
class IndexReducedField {
  private readonly n: number;
  private readonly m: number;
  private readonly M: Float64Array;
  private readonly N: Float64Array;
  private readonly A: Float64Array;
  private readonly Ad: Float64Array;
  private readonly kkt: Float64Array;
  private readonly b: Float64Array;
  readonly x: Float64Array;
  private readonly f: Float64Array;
  private readonly lu: DenseLU;
  private readonly q: Float64Array;
  private readonly v: Float64Array;

  constructor(private readonly sys: ImplicitLagrangianSystem) {
    const { n, m } = sys;
    this.n = n;
    this.m = m;
    this.M = new Float64Array(n * n);
    this.N = new Float64Array(n * n);
    this.A = new Float64Array(m * n);
    this.Ad = new Float64Array(m * n);
    this.kkt = new Float64Array((n + m) * (n + m));
    this.b = new Float64Array(n + m);
    this.x = new Float64Array(n + m);
    this.f = new Float64Array(n);
    this.lu = new DenseLU(n + m);
    this.q = new Float64Array(n);
    this.v = new Float64Array(n);
  }

  /** x ← [v̇; μ] at (q, v) read from y = [q, v] (offset `off`). */
  solve(y: ArrayLike<number>, off = 0): Float64Array {
    const { n, m, M, N, A, Ad, kkt, b, x, f, lu, q, v, sys } = this;
    for (let i = 0; i < n; i++) {
      q[i] = y[off + i]!;
      v[i] = y[off + n + i]!;
    }
    const L = sys.L;
    L.Lvv(M, q, v);
    L.Lvq(N, q, v);
    L.Lq(f, q, v);
    sys.Delta.A(A, q);
    sys.Delta.Adot(Ad, q, v);
    const w = n + m;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) kkt[i * w + j] = M[i * n + j]!;
      for (let a = 0; a < m; a++) kkt[i * w + n + a] = -A[a * n + i]!;
      let s = f[i]!;
      for (let j = 0; j < n; j++) s -= N[i * n + j]! * v[j]!;
      b[i] = s;
    }
    for (let a = 0; a < m; a++) {
      for (let j = 0; j < n; j++) kkt[(n + a) * w + j] = A[a * n + j]!;
      for (let c = 0; c < m; c++) kkt[(n + a) * w + n + c] = 0;
      let s = 0;
      for (let j = 0; j < n; j++) s -= Ad[a * n + j]! * v[j]!;
      b[n + a] = s;
    }
    checkFinite('integrateIndexReduced: right-hand side', b);
    lu.factor(kkt);
    if (lu.isSingular || lu.conditionEstimate() >= SINGULAR_JACOBIAN_CONDITION) {
      sys.checkRegular(q, v);
      throw new NonRegularSystemError('singular-constrained-mass', {
        detail: 'the index-reduction matrix [M −Aᵀ; A 0] is singular to working precision',
        rank: n + m - 1,
        expected: n + m,
      });
    }
    lu.solve(b, x);
    checkFinite('integrateIndexReduced: [v̇; μ]', x);
    return x;
  }

  readonly rhs: OdeRhs = (out, _t, y) => {
    const n = this.n;
    const x = this.solve(y);
    for (let i = 0; i < n; i++) {
      out[i] = y[n + i]!;
      out[n + i] = x[i]!;
    }
  };
}

/** Iteration cap of {@link projectPosition}. */
const PROJECT_MAX_ITERATIONS = 20;

/**
 * Gauss–Newton projection of q onto φ(q) = 0 with minimum-norm steps: stops when the step is at
 * the round-off of q (converged), and throws {@link NewtonDivergedError} (naming the projection,
 * with the residual history) when it has not stopped after {@link PROJECT_MAX_ITERATIONS}
 * steps — a start that cannot be projected is never returned as if it were consistent.
 */
function projectPosition(q: Float64Array, pc: PositionConstraint, n: number): void {
  const k = pc.k;
  const phi = new Float64Array(k);
  const J = new Float64Array(k * n);
  const history: number[] = [];
  for (let it = 0; it < PROJECT_MAX_ITERATIONS; it++) {
    pc.phi(phi, q);
    checkFinite('projectPosition: φ(q)', phi);
    history.push(maxAbs(phi));
    if (pc.jacobian !== undefined) pc.jacobian(J, q);
    else finiteDifferenceJacobian(J, (out, x) => pc.phi(out, x), q, k, n);
    const d = minNormSolve(J, k, n, phi);
    for (let i = 0; i < n; i++) q[i] = q[i]! - d[i]!;
    if (maxAbs(d) <= NEWTON_DEFAULT_STEP_TOL * Math.max(1, maxAbs(q))) return;
  }
  pc.phi(phi, q);
  throw new NewtonDivergedError(
    PROJECT_MAX_ITERATIONS,
    maxAbs(phi),
    undefined,
    'did not converge',
    'projection of q0 onto φ(q) = 0 (integrateIndexReduced positionConstraint)',
    history,
  );
}

/**
 * Solver (a) of spec 002 §5.8: the regular case (rank A = m, GᵀMG invertible) by index
 * reduction. Differentiating A(q)v = 0 along q̇ = v and p = ∂L/∂v in (6.4) gives
 *
 *   [ M  −Aᵀ ] [ v̇ ]   [ ∂L/∂q − N v ]
 *   [ A   0  ] [ μ  ] = [ −Ȧ v        ],   q̇ = v,   p = ∂L/∂v,
 *
 * an ODE in y = (q, v) integrated with adaptive DOPRI5. Consistent initialization projects v0
 * onto ker A(q0) (and q0 onto φ = 0 when a `positionConstraint` is given). A v = 0 is then an
 * invariant that drifts only by the integration error; `project: true` restarts from the
 * projected state at every output time. Returns core's Solution of t, q, v, p, μ, energy and the
 * constraint residuals (an {@link ImplicitSolution}; `stats` holds DOPRI5's work, summed over the
 * restarts of `project`).
 *
 * @throws NonRegularSystemError naming the defect (dependent constraint rows, singular GᵀMG).
 * @example
 * ```ts
 * const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 }); // spec 002 §4.1
 * const { q: q0, v: v0 } = disk.exactSolution(0, { thetaDot: 2, phiDot: 0.5 });
 * const sol = integrateIndexReduced(new ImplicitLagrangianSystem(disk.lagrangian, disk.distribution), { q0, v0 }, 10);
 * sol.constraintDrift.velocity; // max |A v| ≲ 1e-11
 * sol.energyDrift;              // ≲ 1e-12
 * ```
 */
export function integrateIndexReduced(
  system: ImplicitLagrangianSystem,
  initial: IndexReducedInitial,
  tEnd: number,
  options: IndexReducedOptions = {},
): ImplicitSolution {
  const what = 'integrateIndexReduced';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkLength(`${what}: v0`, initial.v0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: v0`, initial.v0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const pc = options.positionConstraint;
  const q0 = Float64Array.from(initial.q0);
  const v0 = Float64Array.from(initial.v0);
  if (pc !== undefined) projectPosition(q0, pc, n);
  system.checkRegular(q0, v0);
  projectOntoKernel(v0, system.A(q0), m, n);
  let corr = 0;
  for (let i = 0; i < n; i++)
    corr += (q0[i]! - initial.q0[i]!) ** 2 + (v0[i]! - initial.v0[i]!) ** 2;

  const field = new IndexReducedField(system);
  const count = times.length;
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const ks = new Float64Array(count);
  const y = new Float64Array(2 * n);
  y.set(q0, 0);
  y.set(v0, n);
  let stats: Required<IntegrationStats> | undefined;
  let steps = 0;
  if (options.project === true) {
    const integ = new Dopri5Integrator(2 * n, field.rhs, dopriOptions(options, undefined));
    let tPrev = t0;
    const q = new Float64Array(n);
    const v = new Float64Array(n);
    for (let k = 0; k < count; k++) {
      const tk = times[k]!;
      if (tk > tPrev) {
        const sol = integ.integrate(y, tPrev, tk);
        y.set(sol.sample('y', sol.count - 1));
        stats = addStats(stats, sol.stats as Required<IntegrationStats>);
        steps += sol.steps;
        q.set(y.subarray(0, n));
        v.set(y.subarray(n));
        if (pc !== undefined) projectPosition(q, pc, n);
        projectOntoKernel(v, system.A(q), m, n);
        y.set(q, 0);
        y.set(v, n);
        tPrev = tk;
      }
      qs.set(y.subarray(0, n), k * n);
      vs.set(y.subarray(n), k * n);
      ks[k] = steps;
    }
  } else {
    const integ = new Dopri5Integrator(2 * n, field.rhs, dopriOptions(options, times));
    const sol = integ.integrate(y, t0, tEnd);
    stats = { ...sol.stats };
    steps = sol.steps;
    for (let k = 0; k < count; k++) {
      const s = sol.sample('y', k);
      qs.set(s.subarray(0, n), k * n);
      vs.set(s.subarray(n), k * n);
      ks[k] = sol.k[k]!;
    }
  }
  const yk = new Float64Array(2 * n);
  const phi = pc === undefined ? undefined : new Float64Array(pc.k);
  return implicitSolution(
    system,
    { method: dopri5Method, t: times, k: ks, q: qs, v: vs, steps, stats: stats ?? ZERO_STATS },
    (out, _k, q, v) => {
      yk.set(q, 0);
      yk.set(v, n);
      const x = field.solve(yk);
      for (let a = 0; a < m; a++) out[a] = x[n + a]!;
    },
    pc === undefined || phi === undefined
      ? undefined
      : (q) => {
          pc.phi(phi, q);
          return maxAbs(phi);
        },
    Math.sqrt(corr),
  );
}
