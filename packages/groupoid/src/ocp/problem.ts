/**
 * The problem layer of geomech's optimal control (issues 16 and 19): {@link defineOcp} turns an
 * {@link OcpSpec} — a state space of core groups and Rⁿ, controls, dynamics, costs, constraints,
 * bounds and boundary conditions, written as generic functions of `LieScalarOps<T>` — into a
 * {@link LieOcp}, whose functions are traced once on a symbolic graph, differentiated in the
 * chart x ⊕ δ = x·cay(δ) at δ = 0 and compiled (`program.ts`), and solved by core's
 * interior-point {@link OcpSolver}. A user never writes a derivative.
 *
 * @example
 * ```ts
 * // Sub-Riemannian steering on SO(3) (spec 003 §8.1, S4): ξ ∈ span{E1, E2}, I → exp(E3)
 * const target = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 1));
 * const ocp = defineOcp({
 *   state: SO3,
 *   controls: 3,
 *   steps: 40,
 *   dynamics: { kinematic: (_o, s) => s.u, map: 'cayley' }, // G_{k+1} = G_k·cay(h ξ_k)
 *   cost: (o, s) => o.scale(o.add(o.add(o.mul(s.u[0]!, s.u[0]!), o.mul(s.u[1]!, s.u[1]!)),
 *     o.mul(s.u[2]!, s.u[2]!)), 0.5),                       // ℓ = ½|ξ|²
 *   equalities: (_o, s) => [s.u[2]!],                       // Ψ(ξ) = ξ₃ = 0
 *   at: [{ stage: 0, equalities: (_o, s) => [s.u[1]!] }],   // gauge (symmetric target)
 *   start: SO3.identity(new Float64Array(9)),
 *   end: target,
 * });
 * const guess = ocp.rollout(Float64Array.from({ length: 120 }, (_, i) =>
 *   i % 3 === 0 ? 3.4 * Math.cos((2 * Math.PI - 1) * Math.floor(i / 3) / 40)
 *   : i % 3 === 1 ? 3.4 * Math.sin((2 * Math.PI - 1) * Math.floor(i / 3) / 40) : 0));
 * const sol = ocp.solve({ guess });
 * // sol.status 'converged', sol.secondOrder 'minimum', sol.cost ≈ 5.798604 (S4, n = 40)
 * ```
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  NonFiniteError,
  NumberOps,
  newStageEval,
  OCP_MAX_STAGES,
  type OcpGuess,
  type OcpInertia,
  type OcpResult,
  type OcpSecondOrder,
  OcpSolver,
  type OcpSolverOptions,
  type OcpStageEval,
  type OcpStatus,
  type OcpTimings,
  Rn,
} from '@geomech/core';
import { type OcpFactor, ocpFactor, ocpFactors } from './factors.js';
import {
  CompiledStageOcp,
  OcpProgram,
  type OcpStageRows,
  P_H,
  P_N,
  P_T,
  type ProgramStructure,
} from './program.js';
import {
  OCP_MAX_STAGE_SIZE,
  type OcpBoundary,
  type OcpBounds,
  type OcpFreeHorizon,
  type OcpSpec,
} from './spec.js';

/** Most named parameters of a problem. */
export const OCP_MAX_PARAMS = 1000;

/** A starting point: states in the user's storage layout ((N + 1) × S) and controls (N × n_u). */
export interface LieOcpGuess {
  readonly x: ArrayLike<number>;
  readonly u: ArrayLike<number>;
  /** The horizon (free-horizon problems). */
  readonly T?: number;
  /**
   * Multipliers of a previous solve of the same problem and N (its `lambda`, `mu`, `z`, `s`):
   * with them the solve is a warm start (as from a {@link LieOcpSolution}).
   */
  readonly multipliers?: LieOcpMultipliers;
}

/** The multipliers of a solution ({@link LieOcpSolution}'s fields of the same names). */
export interface LieOcpMultipliers {
  readonly lambda: ArrayLike<number>;
  readonly mu: ArrayLike<number>;
  readonly z: ArrayLike<number>;
  readonly s: ArrayLike<number>;
}

/** Options of {@link LieOcp.solve}. */
export interface LieOcpSolveOptions {
  /**
   * Starting point: a guess, or a previous solution of a problem with the same N (a warm start:
   * its multipliers are used and the solver's `warmStart` option is on unless `solver` says
   * otherwise). Default: {@link LieOcp.restGuess}.
   */
  readonly guess?: LieOcpGuess | LieOcpSolution;
  /** Options of core's {@link OcpSolver} (IPOPT's names; `onIteration` for progress). */
  readonly solver?: OcpSolverOptions;
}

/** The answer of {@link LieOcp.solve}. */
export interface LieOcpSolution {
  /** IPOPT's kind of status (core's {@link OcpStatus}). */
  readonly status: OcpStatus;
  /** A converged (or acceptable) local minimum: status and second-order verdict both good. */
  readonly success: boolean;
  readonly secondOrder: OcpSecondOrder | undefined;
  readonly inertia: OcpInertia | undefined;
  readonly message: string;
  readonly iterations: number;
  /** Σ h·ℓ + φ at the returned point. */
  readonly cost: number;
  /** max(primal infeasibility, dual infeasibility, complementarity), unscaled. */
  readonly kktError: number;
  readonly primalInfeasibility: number;
  readonly dualInfeasibility: number;
  readonly complementarity: number;
  /** Number of steps N. */
  readonly N: number;
  /** States in the user's storage layout, (N + 1) × S. */
  readonly x: Float64Array;
  /** Controls, N × n_u. */
  readonly u: Float64Array;
  /** The horizon T. */
  readonly T: number;
  /** Multipliers of the dynamics rows (N × n_x, the horizon row last when free). */
  readonly lambda: Float64Array;
  /** Multipliers of the equality rows (stage by stage; {@link LieOcp.rows}). */
  readonly mu: Float64Array;
  /** Multipliers z ≥ 0 of the inequality rows and their slacks. */
  readonly z: Float64Array;
  readonly s: Float64Array;
  /** The solver's raw result (internal state layout). */
  readonly result: OcpResult;
  readonly timings: OcpTimings;
}

/** What {@link LieOcp.with} may change without retracing: data, not functions. */
export interface LieOcpChanges {
  readonly steps?: number;
  readonly params?: Readonly<Record<string, number>>;
  readonly start?: ArrayLike<number>;
  readonly end?: ArrayLike<number>;
  /** A fixed horizon (fixed-horizon problems) or a new interval (free ones). */
  readonly horizon?: number | OcpFreeHorizon;
}

/** Instance data (what `with` changes). */
interface Data {
  readonly N: number;
  readonly T: number;
  readonly Tmin: number;
  readonly Tmax: number;
  readonly Tguess: number;
  readonly params: Readonly<Record<string, number>>;
  readonly start: Float64Array;
  readonly end: Float64Array;
}

/**
 * An optimal-control problem on a Lie group, compiled (see the module comment and
 * {@link defineOcp}). Holds the compiled program (shared by {@link with}), the
 * {@link StageOcp} of its N and data, and an {@link OcpSolver} reused by repeated solves.
 */
export class LieOcp {
  readonly spec: OcpSpec;
  readonly program: OcpProgram;
  /** Number of steps. */
  readonly N: number;
  /** User storage and tangent size of a state, and number of controls. */
  readonly storage: number;
  readonly dim: number;
  readonly controls: number;
  /** The factors of the user's state space. */
  readonly factors: readonly OcpFactor[];
  /** The stage-structured problem handed to core's solver. */
  readonly stageOcp: CompiledStageOcp;
  /** Offsets of each stage's equality rows in `mu` and inequality rows in `z` (length N + 2). */
  readonly gOffset: Int32Array;
  readonly hOffset: Int32Array;
  private data: Data;
  private solverCache: { key: string; solver: OcpSolver } | null = null;
  private scratch: Float64Array[] | null = null;
  /** The progress callback of the running solve (the cached solver's onIteration calls it). */
  private hook: OcpSolverOptions['onIteration'] = undefined;

  /** @internal use {@link defineOcp}. */
  constructor(spec: OcpSpec, program: OcpProgram, data: Data) {
    this.spec = spec;
    this.program = program;
    this.data = data;
    this.N = data.N;
    this.storage = program.userStorage;
    this.dim = program.userDim;
    this.controls = program.nu;
    this.factors = program.s.factors;
    const p = new Float64Array(program.np);
    writeParameters(p, program, data);
    const atStages: number[][] = Array.from({ length: data.N + 1 }, () => []);
    (spec.at ?? []).forEach((entry, j) => {
      const k = typeof entry.stage === 'number' ? entry.stage : entry.stage(data.N);
      if (!Number.isInteger(k) || k < 0 || k > data.N)
        throw new DomainError(`defineOcp: at[${j}].stage`, k, `an integer in [0, ${data.N}]`);
      atStages[k]!.push(j);
    });
    this.stageOcp = new CompiledStageOcp(program, data.N, p, atStages);
    this.gOffset = new Int32Array(data.N + 2);
    this.hOffset = new Int32Array(data.N + 2);
    for (let k = 0; k <= data.N; k++) {
      const d = this.stageOcp.dims(k);
      this.gOffset[k + 1] = this.gOffset[k]! + d.ng;
      this.hOffset[k + 1] = this.hOffset[k]! + d.nh;
    }
  }

  /** The horizon T (a fixed horizon; the guess for a free one). */
  get T(): number {
    return this.data.T;
  }

  /** The time step T/N (of the fixed horizon, or of the guess of a free one). */
  get h(): number {
    return this.data.T / this.data.N;
  }

  /** The parameters in use. */
  get params(): Readonly<Record<string, number>> {
    return this.data.params;
  }

  /** The start element (storage). */
  get start(): Float64Array {
    return this.data.start;
  }

  /** The end element (storage). */
  get end(): Float64Array {
    return this.data.end;
  }

  /** The rows of stage k by origin (offsets within the stage's g and h). */
  rows(k: number): OcpStageRows {
    this.checkStage('rows', k);
    return this.stageOcp.kinds[this.stageOcp.stageKind[k]!]!.rows;
  }

  /**
   * The same problem with other data (steps, parameter values, start, end, horizon), sharing the
   * compiled program: nothing is retraced.
   *
   * @example
   * ```ts
   * const ocp = so3SteeringOcp(40, axisAngleToRotation(0, 0, 1), 'cayley', true);
   * const finer = ocp.with({ steps: 80 });
   * finer.N; // 80
   * ```
   */
  with(changes: LieOcpChanges): LieOcp {
    return new LieOcp(this.spec, this.program, this.changed(changes));
  }

  /**
   * Changes this instance's data in place (parameter values, start, end, horizon; not the number
   * of steps), keeping its stage layout and its solver's buffers: for sequences of solves
   * (continuation, parameter studies) without per-solve allocation. Solutions returned before
   * keep their values.
   *
   * @throws DomainError when `steps` differs from N.
   * @example
   * ```ts
   * const ocp = plateBallOcp({ n: 30, r: 1, Omega: 0.5, c: 0, alpha: 0,
   *   start: Float64Array.of(0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1),
   *   end: Float64Array.of(0, 0, ...axisAngleToRotation(0, 0, 0.3)) }, false);
   * ocp.update({ params: { Omega: 0.6 } }).N; // 30
   * ```
   */
  update(changes: LieOcpChanges): this {
    if (changes.steps !== undefined && changes.steps !== this.N)
      throw new DomainError(
        'LieOcp.update: steps',
        changes.steps,
        `${this.N} (use with() to change N)`,
      );
    this.data = this.changed(changes);
    writeParameters(this.stageOcp.p, this.program, this.data);
    return this;
  }

  private changed(changes: LieOcpChanges): Data {
    const d = this.data;
    const steps = changes.steps ?? d.N;
    const params = { ...d.params, ...(changes.params ?? {}) };
    checkParams(params, this.program.s.paramNames);
    const start =
      changes.start === undefined ? d.start : element(this.factors, changes.start, 'start');
    const end = changes.end === undefined ? d.end : element(this.factors, changes.end, 'end');
    const hz = horizonData(changes.horizon ?? this.spec.horizon, this.program.s.freeHorizon);
    const same = changes.horizon === undefined;
    return {
      N: checkSteps(steps),
      T: same ? d.T : hz.T,
      Tmin: same ? d.Tmin : hz.Tmin,
      Tmax: same ? d.Tmax : hz.Tmax,
      Tguess: same ? d.Tguess : hz.Tguess,
      params,
      start,
      end,
    };
  }

  /** A guess at rest: every state at the start element, controls 0 (the default guess). */
  restGuess(): LieOcpGuess {
    const S = this.storage;
    const x = new Float64Array((this.N + 1) * S);
    for (let k = 0; k <= this.N; k++) x.set(this.start, k * S);
    return { x, u: new Float64Array(this.N * this.controls), T: this.data.Tguess };
  }

  /**
   * The states reached from the start by the controls `u` (N × n_u) through the dynamics
   * (explicit dynamics only): a feasible guess.
   *
   * @throws DomainError for implicit dynamics; DimensionError for a wrong length of u.
   */
  rollout(u: ArrayLike<number>, T: number = this.data.Tguess): LieOcpGuess {
    const { N, controls: nu } = this;
    if (u.length !== N * nu) throw new DimensionError('LieOcp.rollout: u', N * nu, u.length);
    const next = this.program.next();
    const Si = this.program.storage;
    const S = this.storage;
    const xi = new Float64Array(Si);
    const xn = new Float64Array(Si);
    const uk = new Float64Array(nu);
    xi.set(this.start);
    if (this.program.s.freeHorizon) xi[Si - 1] = T;
    const x = new Float64Array((N + 1) * S);
    x.set(this.start);
    const p = this.stageOcp.p;
    const uu = Float64Array.from(u);
    for (let k = 0; k < N; k++) {
      p[0] = k;
      for (let i = 0; i < nu; i++) uk[i] = uu[k * nu + i]!;
      next(xn, xi, uk, p);
      xi.set(xn);
      for (let i = 0; i < S; i++) x[(k + 1) * S + i] = xn[i]!;
    }
    return { x, u: uu, T };
  }

  /**
   * Evaluates stage k of the compiled problem at a point (internal state layout; allocates the
   * output: for checks and diagnostics, not for loops).
   */
  evaluateStage(
    k: number,
    x: Float64Array,
    u: Float64Array,
    xNext: Float64Array | undefined,
    level: 0 | 1 | 2,
    weights: { sigma: number; lambda: Float64Array; mu: Float64Array; eta: Float64Array } = {
      sigma: 1,
      lambda: new Float64Array(this.program.nx),
      mu: new Float64Array(this.stageOcp.dims(k).ng),
      eta: new Float64Array(this.stageOcp.dims(k).nh),
    },
  ): OcpStageEval {
    this.checkStage('evaluateStage', k);
    const d = this.stageOcp.dims(k);
    const ny = k < this.N ? this.program.nx : 0;
    const out = newStageEval(d, ny);
    this.stageOcp.evaluate(
      k,
      x,
      u,
      k < this.N ? xNext : undefined,
      level,
      weights.sigma,
      weights.lambda,
      weights.mu,
      weights.eta,
      out,
    );
    return out;
  }

  /**
   * Solves the problem with core's interior-point solver from `options.guess` (default: at rest,
   * {@link restGuess}). Never throws for a failed solve: see `status`, `secondOrder`, `success`.
   *
   * @throws DimensionError, NonFiniteError for a malformed guess.
   */
  solve(options: LieOcpSolveOptions = {}): LieOcpSolution {
    const g = options.guess ?? this.restGuess();
    const warm = 'result' in g || g.multipliers !== undefined;
    const solverOptions: OcpSolverOptions =
      warm && options.solver?.warmStart === undefined
        ? { ...options.solver, warmStart: true }
        : (options.solver ?? {});
    const solver = this.solverFor(solverOptions);
    const internal = this.internalGuess(g);
    this.hook = solverOptions.onIteration;
    try {
      return this.solution(solver.solve(internal));
    } finally {
      this.hook = undefined;
    }
  }

  /** The internal state layout of a user guess (states normalized onto their groups). */
  private internalGuess(g: LieOcpGuess | LieOcpSolution): OcpGuess {
    const { N, storage: S } = this;
    const Si = this.program.storage;
    if (g.x.length !== (N + 1) * S)
      throw new DimensionError('LieOcp.solve: guess.x', (N + 1) * S, g.x.length);
    if (g.u.length !== N * this.controls)
      throw new DimensionError('LieOcp.solve: guess.u', N * this.controls, g.u.length);
    const T = g.T ?? this.data.Tguess;
    const x = new Float64Array((N + 1) * Si);
    const so = this.program.so;
    const factors = this.factors;
    const scratch = this.normalizeScratch();
    const free = this.program.s.freeHorizon;
    for (let k = 0; k <= N; k++) {
      const base = k * Si;
      for (let i = 0; i < S; i++) {
        const v = g.x[k * S + i]!;
        if (!Number.isFinite(v)) throw new NonFiniteError('LieOcp.solve: guess.x', k * S + i);
        x[base + i] = v;
      }
      // each group factor onto its group, in place through one scratch per factor (no per-stage
      // views; normalize may alias its input, so the values are those of normalizing in place)
      for (let i = 0; i < factors.length; i++) {
        const t = scratch[i]!;
        if (t.length === 0) continue;
        const o = base + so[i]!;
        for (let j = 0; j < t.length; j++) t[j] = x[o + j]!;
        factors[i]!.group.normalize(t, t);
        x.set(t, o);
      }
      if (free) x[base + Si - 1] = T;
    }
    const u = Float64Array.from(g.u);
    if ('result' in g) {
      const r = g.result;
      return { x, u, lambda: r.lambda, mu: r.mu, z: r.z, s: r.s };
    }
    const m = g.multipliers;
    if (m !== undefined) {
      const sizes = {
        lambda: N * this.program.nx,
        mu: this.gOffset[N + 1]!,
        z: this.hOffset[N + 1]!,
        s: this.hOffset[N + 1]!,
      };
      const out: Record<string, Float64Array> = {};
      for (const key of ['lambda', 'mu', 'z', 's'] as const) {
        const v = m[key];
        if (v.length !== sizes[key])
          throw new DimensionError(`LieOcp.solve: guess.multipliers.${key}`, sizes[key], v.length);
        const a = Float64Array.from(v);
        const bad = a.findIndex((e) => !Number.isFinite(e));
        if (bad >= 0) throw new NonFiniteError(`LieOcp.solve: guess.multipliers.${key}`, bad);
        out[key] = a;
      }
      return { x, u, lambda: out.lambda!, mu: out.mu!, z: out.z!, s: out.s! };
    }
    return { x, u };
  }

  /** Per factor, a scratch of its storage (empty for Rⁿ factors, which need no normalization). */
  private normalizeScratch(): Float64Array[] {
    this.scratch ??= this.factors.map(
      (f, i) =>
        new Float64Array(f.kind === 'Rn' ? 0 : this.program.so[i + 1]! - this.program.so[i]!),
    );
    return this.scratch;
  }

  /**
   * The solver for these options, reused while they are equal (by value; `onIteration` is not
   * part of the key: the solver's callback forwards to the running solve's {@link hook}).
   */
  private solverFor(options: OcpSolverOptions): OcpSolver {
    const key = JSON.stringify(
      Object.entries(options)
        .filter(([k]) => k !== 'onIteration')
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    const c = this.solverCache;
    if (c !== null && c.key === key) return c.solver;
    const solver = new OcpSolver(this.stageOcp, {
      ...options,
      onIteration: (info) => (this.hook === undefined ? true : this.hook(info)),
    });
    this.solverCache = { key, solver };
    return solver;
  }

  private solution(r: OcpResult): LieOcpSolution {
    const { N, storage: S } = this;
    const Si = this.program.storage;
    const x = new Float64Array((N + 1) * S);
    for (let k = 0; k <= N; k++) {
      for (let i = 0; i < S; i++) x[k * S + i] = r.x[k * Si + i]!;
    }
    const T = this.program.s.freeHorizon ? r.x[Si - 1]! : this.data.T;
    return {
      status: r.status,
      success: r.success,
      secondOrder: r.secondOrder,
      inertia: r.inertia,
      message: r.message,
      iterations: r.iterations,
      cost: r.cost,
      kktError: Math.max(r.primalInfeasibility, r.dualInfeasibility, r.complementarity),
      primalInfeasibility: r.primalInfeasibility,
      dualInfeasibility: r.dualInfeasibility,
      complementarity: r.complementarity,
      N,
      x,
      u: r.u,
      T,
      lambda: r.lambda,
      mu: r.mu,
      z: r.z,
      s: r.s,
      result: r,
      timings: r.timings,
    };
  }

  private checkStage(what: string, k: number): void {
    if (!Number.isInteger(k) || k < 0 || k > this.N)
      throw new DomainError(`LieOcp.${what}: k`, k, `an integer in [0, ${this.N}]`);
  }
}

// ---------------------------------------------------------------------------------------------
// building

/** Writes the data of an instance into its parameter vector p. */
function writeParameters(p: Float64Array, program: OcpProgram, data: Data): void {
  p[P_H] = data.T / data.N;
  p[P_N] = data.N;
  p[P_T] = data.T;
  program.s.paramNames.forEach((name, i) => {
    p[program.pParams + i] = data.params[name]!;
  });
  p.set(data.start, program.pStart);
  p.set(data.end, program.pEnd);
  p[program.pTmin] = data.Tmin;
  p[program.pTmax] = data.Tmax;
}

function checkSteps(steps: number): number {
  if (!Number.isInteger(steps) || steps < 1 || steps > OCP_MAX_STAGES - 1)
    throw new DomainError('defineOcp: steps', steps, `an integer in [1, ${OCP_MAX_STAGES - 1}]`);
  return steps;
}

function checkParams(params: Readonly<Record<string, number>>, names: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!names.includes(key))
      throw new DomainError(
        'defineOcp: params',
        key,
        `one of the declared parameters (${names.join(', ') || 'none'})`,
      );
  }
  for (const name of names) {
    const v = params[name];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new DomainError(`defineOcp: params.${name}`, v, 'a finite number');
  }
}

/** A group element of the whole (user) state space, validated factor by factor. */
function element(factors: readonly OcpFactor[], e: ArrayLike<number>, what: string): Float64Array {
  const S = factors.reduce((a, f) => a + f.storage, 0);
  if (e === null || typeof e !== 'object' || typeof e.length !== 'number')
    throw new DimensionError(`defineOcp: ${what}`, `an element (${S} numbers)`, typeof e);
  if (e.length !== S) throw new DimensionError(`defineOcp: ${what}`, S, e.length);
  const out = Float64Array.from(e);
  let off = 0;
  for (const f of factors) {
    const view = out.subarray(off, off + f.storage);
    if (!f.group.isValid(view))
      throw new DomainError(
        `defineOcp: ${what}`,
        `[${Array.from(view).join(', ')}]`,
        `an element of ${f.group.name}`,
      );
    off += f.storage;
  }
  return out;
}

function boundary(
  factors: readonly OcpFactor[],
  b: ArrayLike<number> | OcpBoundary | undefined,
  what: string,
): { element: Float64Array; factors: number[] } {
  const identity = (): Float64Array => {
    const out: number[] = [];
    for (const f of factors) out.push(...f.identity(NumberOps));
    return Float64Array.from(out);
  };
  if (b === undefined) return { element: identity(), factors: [] };
  const isBoundary = (v: unknown): v is OcpBoundary =>
    typeof v === 'object' && v !== null && 'element' in v;
  if (isBoundary(b)) {
    const list = b.factors ?? factors.map((_, i) => i);
    for (const i of list) {
      if (!Number.isInteger(i) || i < 0 || i >= factors.length)
        throw new DomainError(
          `defineOcp: ${what}.factors`,
          i,
          `factor indices in [0, ${factors.length - 1}]`,
        );
    }
    return {
      element: element(factors, b.element, `${what}.element`),
      factors: [...new Set(list)].sort((p, q) => p - q),
    };
  }
  return { element: element(factors, b, what), factors: factors.map((_, i) => i) };
}

function bounds(b: OcpBounds | undefined, n: number, what: string) {
  const lower: [number, number][] = [];
  const upper: [number, number][] = [];
  if (b === undefined) return { lower, upper };
  for (const [side, arr, list] of [
    ['lower', b.lower, lower],
    ['upper', b.upper, upper],
  ] as const) {
    if (arr === undefined) continue;
    if (arr.length !== n) throw new DimensionError(`defineOcp: ${what}.${side}`, n, arr.length);
    for (let i = 0; i < n; i++) {
      const v = arr[i]!;
      if (Number.isNaN(v))
        throw new DomainError(`defineOcp: ${what}.${side}[${i}]`, v, 'a number or ±∞');
      if (Number.isFinite(v)) list.push([i, v]);
    }
  }
  for (const [i, lo] of lower) {
    const hi = upper.find(([j]) => j === i)?.[1];
    if (hi !== undefined && !(lo <= hi))
      throw new DomainError(`defineOcp: ${what}[${i}]`, `[${lo}, ${hi}]`, 'lower ≤ upper');
  }
  return { lower, upper };
}

function horizonData(
  horizon: number | OcpFreeHorizon | undefined,
  free: boolean,
): { T: number; Tmin: number; Tmax: number; Tguess: number } {
  if (horizon === undefined || typeof horizon === 'number') {
    if (free)
      throw new DomainError(
        'defineOcp: horizon',
        horizon,
        'a free horizon { free: [min, max] } (the problem was defined with one)',
      );
    const T = horizon ?? 1;
    if (!(Number.isFinite(T) && T > 0))
      throw new DomainError('defineOcp: horizon', T, 'a finite number > 0');
    return { T, Tmin: T, Tmax: T, Tguess: T };
  }
  if (!free)
    throw new DomainError(
      'defineOcp: horizon',
      'free',
      'a number (the problem was defined with a fixed horizon)',
    );
  const [lo, hi] = horizon.free;
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo > 0 && lo < hi))
    throw new DomainError('defineOcp: horizon.free', `[${lo}, ${hi}]`, '0 < min < max, finite');
  const g = horizon.guess ?? 0.5 * (lo + hi);
  if (!(g >= lo && g <= hi))
    throw new DomainError('defineOcp: horizon.guess', g, `in [${lo}, ${hi}]`);
  return { T: g, Tmin: lo, Tmax: hi, Tguess: g };
}

/**
 * Compiles an optimal-control problem (see {@link OcpSpec} for the discrete problem and the
 * module comment of `program.ts` for the charts, defects and derivatives): validates the data,
 * traces each function once (they must be branch-free in their arguments: `o.value` of a traced
 * value throws), and returns a {@link LieOcp} ready to solve.
 *
 * @throws DomainError, DimensionError for malformed specs (the message names the field);
 *   `SymbolicValueError` when a function branches on a traced value.
 * @example
 * ```ts
 * // a double integrator on R¹ × R¹: steer (1, 0) to (0, 0) with Σ h u²/2
 * const ocp = defineOcp({
 *   state: [Rn(1), Rn(1)],
 *   controls: 1,
 *   steps: 20,
 *   dynamics: { kinematic: (_o, s) => [s.x[1]!, s.u[0]!] }, // q̇ = v, v̇ = u
 *   cost: (o, s) => o.scale(o.mul(s.u[0]!, s.u[0]!), 0.5),
 *   start: [1, 0],
 *   end: [0, 0],
 * });
 * ocp.solve().success; // true
 * ```
 */
export function defineOcp(spec: OcpSpec): LieOcp {
  if (spec === null || typeof spec !== 'object')
    throw new DomainError('defineOcp', spec, 'a problem object');
  const factors = ocpFactors(spec.state);
  const nu = spec.controls;
  if (!Number.isInteger(nu) || nu < 0 || nu > OCP_MAX_STAGE_SIZE)
    throw new DomainError('defineOcp: controls', nu, `an integer in [0, ${OCP_MAX_STAGE_SIZE}]`);
  const S = factors.reduce((a, f) => a + f.storage, 0);
  if (S > OCP_MAX_STAGE_SIZE)
    throw new DomainError(
      'defineOcp: state',
      S,
      `a storage of at most ${OCP_MAX_STAGE_SIZE} numbers`,
    );
  const N = checkSteps(spec.steps);
  const free = typeof spec.horizon === 'object' && spec.horizon !== null;
  const hz = horizonData(spec.horizon, free);
  const paramNames = Object.keys(spec.params ?? {});
  if (paramNames.length > OCP_MAX_PARAMS)
    throw new DomainError('defineOcp: params', paramNames.length, `at most ${OCP_MAX_PARAMS}`);
  const params = { ...(spec.params ?? {}) };
  checkParams(params, paramNames);
  if (spec.start === undefined)
    throw new DomainError('defineOcp: start', undefined, 'a start element');
  const start = boundary(factors, spec.start, 'start');
  const end = boundary(factors, spec.end, 'end');
  const dyn = spec.dynamics;
  let dynamics: ProgramStructure['dynamics'];
  if (dyn === null || typeof dyn !== 'object')
    throw new DomainError(
      'defineOcp: dynamics',
      dyn,
      '{ kinematic }, { increment }, { next } or { defect }',
    );
  if ('kinematic' in dyn) {
    const map = dyn.map ?? 'cayley';
    if (map !== 'cayley' && map !== 'exp')
      throw new DomainError('defineOcp: dynamics.map', map, "'cayley' or 'exp'");
    dynamics = { kind: 'kinematic', f: dyn.kinematic, map };
  } else if ('increment' in dyn) dynamics = { kind: 'increment', f: dyn.increment };
  else if ('next' in dyn) dynamics = { kind: 'next', f: dyn.next };
  else if ('defect' in dyn) dynamics = { kind: 'defect', f: dyn.defect };
  else
    throw new DomainError(
      'defineOcp: dynamics',
      Object.keys(dyn).join(', '),
      '{ kinematic }, { increment }, { next } or { defect }',
    );
  const cb = bounds(spec.controlBounds, nu, 'controlBounds');
  const sb = bounds(spec.stateBounds, S, 'stateBounds');
  const structure: ProgramStructure = {
    factors,
    freeHorizon: free,
    nu,
    dynamics,
    cost: spec.cost,
    terminalCost: spec.terminalCost,
    equalities: spec.equalities,
    inequalities: spec.inequalities,
    terminalEqualities: spec.terminalEqualities,
    terminalInequalities: spec.terminalInequalities,
    controlLower: cb.lower,
    controlUpper: cb.upper,
    stateLower: sb.lower,
    stateUpper: sb.upper,
    startFactors: start.factors,
    endFactors: end.factors,
    at: (spec.at ?? []).map((a) => ({ equalities: a.equalities, inequalities: a.inequalities })),
    paramNames,
  };
  const program = new OcpProgram(structure, free ? ocpFactor(Rn(1)) : undefined);
  return new LieOcp(spec, program, {
    N,
    ...hz,
    params,
    start: start.element,
    end: end.element,
  });
}
