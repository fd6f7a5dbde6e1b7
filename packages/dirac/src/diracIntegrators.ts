/**
 * The Dirac integrators of spec 001 §5 (paper §III.B): the per-step system (7) for a mechanical
 * Lagrangian L = ½ vᵀ M v − V(q) (M constant, diagonal) with constraint one-forms C(q), solved by
 * the generic linear algorithm of §5.5, and the three methods
 *
 * - **Dirac-1** (paper, §5.3): forward reconstruction q̃_k = (q_{k+1} − q_k)/h;
 * - **Dirac-2** (paper-literal, §5.3): central reconstruction q̃_k = (q_{k+1} − q_{k−1})/(2h),
 *   substituted into (7) (a two-step method; weakly unstable, §5.6);
 * - **Dirac-2c** (NOT in the paper: a stabilised extension, §5.7): the central difference only in
 *   the constraint line, C(q_k)(q_{k+1} − q_{k−1}) = 0, the forward difference in lines 2–3.
 *
 * Multiplier convention (spec §5.2, §11 item 10): λ is the λ of (7) line 3,
 * `p_k − M q̃_k − h ∇V(q_k) = C(q_k)ᵀ λ`, so λ ≈ −h λ_c with λ_c the continuous multiplier of
 * `ṗ − ∂L/∂q = λ_c ψ`, in the units of the rows of C (ψ = ½ dφ for the papers' examples).
 *
 * @module
 */
import {
  DenseLU,
  DimensionError,
  DomainError,
  NonFiniteError,
  PROGRESS_INTERVAL_STEPS,
  type ProgressCallback,
  SingularMatrixError,
} from '@geomech/core';
import type { ConstrainedMechanicalSystem } from './constrained.js';

/**
 * 1-norm condition estimate of S = C M⁻¹ Cᵀ above which {@link diracSolve} reports the
 * constraint rows as dependent ({@link SingularMatrixError}): about 1/(100·ε).
 */
export const DIRAC_SINGULAR_CONDITION = 1e14;

/** Velocity reconstruction rule q̃_k of spec §5.3 (§11 item 19: a rule with access to history). */
export type VelocityRule = 'forward' | 'central';

/** The Dirac methods: `'dirac1'`, `'dirac2'` (paper-literal) and `'dirac2c'` (extension, §5.7). */
export type DiracMethodName = 'dirac1' | 'dirac2' | 'dirac2c';

/** Traits of a Dirac method (house style: an unknown trait is `undefined`). */
export interface DiracMethodTraits {
  readonly name: DiracMethodName;
  /** Reconstruction used in the constraint line (7, line 1). */
  readonly constraintRule: VelocityRule;
  /** Reconstruction used in the momentum lines (7, lines 2–3). */
  readonly momentumRule: VelocityRule;
  /** Global order measured in spec §5.6 / §9 item 9 (all three are first order). */
  readonly order: number;
  /** Number of time levels the step needs (2 = one-step, 3 = two-step). */
  readonly levels: 2 | 3;
  readonly isExplicit: boolean;
  /** True for the methods the paper defines; false for the §5.7 extension. */
  readonly inPaper: boolean;
}

/**
 * The method table. Dirac-1 = symplectic Euler plus the constraint impulse (§5.5); Dirac-2 is
 * the literal (7) with central q̃; Dirac-2c is labelled non-paper (§5.7, §11 item 6).
 *
 * @example
 * ```ts
 * DIRAC_METHODS.dirac2c.inPaper; // false
 * ```
 */
export const DIRAC_METHODS: Readonly<Record<DiracMethodName, DiracMethodTraits>> = Object.freeze({
  dirac1: Object.freeze({
    name: 'dirac1',
    constraintRule: 'forward',
    momentumRule: 'forward',
    order: 1,
    levels: 2,
    isExplicit: true,
    inPaper: true,
  }),
  dirac2: Object.freeze({
    name: 'dirac2',
    constraintRule: 'central',
    momentumRule: 'central',
    order: 1,
    levels: 3,
    isExplicit: true,
    inPaper: true,
  }),
  dirac2c: Object.freeze({
    name: 'dirac2c',
    constraintRule: 'central',
    momentumRule: 'forward',
    order: 1,
    levels: 3,
    isExplicit: true,
    inPaper: false,
  }),
} as const);

/**
 * Scratch and outputs of {@link diracSolve} for one system: allocate once, reuse every step.
 * After a solve, `qt` holds q̃_k, `lambda` holds λ_k and `pNext` holds p_{k+1} = M q̃_k.
 */
export class DiracWorkspace {
  readonly n: number;
  readonly m: number;
  /** Reconstructed velocity q̃_k (length n). */
  readonly qt: Float64Array;
  /** Multiplier λ_k of (7) line 3 (length m). */
  readonly lambda: Float64Array;
  /** p_{k+1} = M q̃_k (length n). */
  readonly pNext: Float64Array;
  /** f = p_k − h ∇V(q_k) (length n). */
  readonly f: Float64Array;
  /** C(q_k), row-major m×n. */
  readonly C: Float64Array;
  /** S = C M⁻¹ Cᵀ, row-major m×m. */
  readonly S: Float64Array;
  readonly minv: Float64Array;
  readonly grad: Float64Array;
  readonly lu: DenseLU | null;

  constructor(sys: ConstrainedMechanicalSystem) {
    const { n, m } = sys;
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('DiracWorkspace: n', '>= 1', n);
    if (!Number.isInteger(m) || m < 0) throw new DimensionError('DiracWorkspace: m', '>= 0', m);
    if (sys.mass.length !== n) throw new DimensionError('DiracWorkspace: mass', n, sys.mass.length);
    this.n = n;
    this.m = m;
    this.qt = new Float64Array(n);
    this.lambda = new Float64Array(m);
    this.pNext = new Float64Array(n);
    this.f = new Float64Array(n);
    this.C = new Float64Array(m * n);
    this.S = new Float64Array(m * m);
    this.minv = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const mi = sys.mass[i]!;
      if (!(mi > 0 && Number.isFinite(mi)))
        throw new DomainError(`DiracWorkspace: mass[${i}]`, mi, 'must be positive and finite');
      this.minv[i] = 1 / mi;
    }
    this.grad = new Float64Array(n);
    this.lu = m > 0 ? new DenseLU(m) : null;
  }
}

/**
 * The linear solve of spec §5.5, shared by every Dirac variant: with f = p_k − h ∇V(q_k) and
 * C = C(q_k), solve the bordered system of (7)
 * ```
 * [ M  Cᵀ ] [ q̃ ]   [ f ]
 * [ C  0  ] [ λ ] = [ r ]
 * ```
 * (line 3: p_k − M q̃ − h∇V = Cᵀλ; line 1: C q̃ = r, r = 0 for Dirac-1/Dirac-2, r = −C(q_k −
 * q_{k−1})/h for Dirac-2c) through the Schur complement S = C M⁻¹ Cᵀ:
 * `S λ = C M⁻¹ f − r`, `q̃ = M⁻¹(f − Cᵀλ)`, and (line 2) `p_{k+1} = M q̃`.
 * Results land in `ws.qt`, `ws.lambda`, `ws.pNext`. Allocates nothing.
 *
 * @param r - right-hand side of the constraint line (length m); omitted means 0.
 * @throws {@link SingularMatrixError} when S is singular or its condition estimate exceeds
 *   {@link DIRAC_SINGULAR_CONDITION} (dependent constraint rows at q_k);
 *   {@link NonFiniteError} when ∇V, C or the result is not finite.
 *
 * @example
 * ```ts
 * const ws = new DiracWorkspace(sys);            // pendulum, C = [x, y]
 * diracSolve(sys, ws, Float64Array.of(1, 0), Float64Array.of(0, 0), 0.01);
 * ws.qt;     // (0, −h g): f/m projected on q⊥ (§5.4)
 * ```
 */
export function diracSolve(
  sys: ConstrainedMechanicalSystem,
  ws: DiracWorkspace,
  qk: Float64Array,
  pk: Float64Array,
  h: number,
  r?: Float64Array,
): DiracWorkspace {
  const { n, m } = ws;
  sys.gradV(ws.grad, qk);
  const f = ws.f;
  for (let i = 0; i < n; i++) {
    const g = ws.grad[i]!;
    if (!Number.isFinite(g)) throw new NonFiniteError('diracSolve: gradV', i);
    f[i] = pk[i]! - h * g;
  }
  const qt = ws.qt;
  if (m === 0 || ws.lu === null) {
    for (let i = 0; i < n; i++) {
      qt[i] = ws.minv[i]! * f[i]!;
      ws.pNext[i] = f[i]!;
    }
    return ws;
  }
  const C = ws.C;
  const S = ws.S;
  const lam = ws.lambda;
  sys.C(C, qk);
  const minv = ws.minv;
  for (let a = 0; a < m; a++) {
    // S row a and the right-hand side C M⁻¹ f − r
    let rhs = r === undefined ? 0 : -r[a]!;
    for (let j = 0; j < n; j++) {
      const c = C[a * n + j]!;
      if (!Number.isFinite(c)) throw new NonFiniteError('diracSolve: C', a * n + j);
      rhs += c * minv[j]! * f[j]!;
    }
    lam[a] = rhs;
    // S_ab = Σ_j C_aj M⁻¹_j C_bj (b ≤ a), accumulated over the nonzeros of row a only: C of a
    // chain has a few nonzeros per row, so this is O(m·n + m²·nnz) instead of O(m²·n), with the
    // same terms summed in the same order as the dense loop (the skipped terms are zeros).
    const row = a * m;
    S.fill(0, row, row + a + 1);
    for (let j = 0; j < n; j++) {
      const ca = C[a * n + j]!;
      if (ca === 0) continue;
      const cm = ca * minv[j]!;
      for (let b = 0; b <= a; b++) S[row + b] = S[row + b]! + cm * C[b * n + j]!;
    }
    for (let b = 0; b < a; b++) S[b * m + a] = S[row + b]!;
  }
  const lu = ws.lu.factor(S);
  if (lu.isSingular) throw new SingularMatrixError('diracSolve: C M⁻¹ Cᵀ', -1);
  const cond = lu.conditionEstimate();
  if (!(cond <= DIRAC_SINGULAR_CONDITION))
    throw new SingularMatrixError('diracSolve: C M⁻¹ Cᵀ', -1, cond);
  lu.solve(lam, lam);
  for (let j = 0; j < n; j++) {
    let s = f[j]!;
    for (let a = 0; a < m; a++) s -= C[a * n + j]! * lam[a]!;
    const v = ws.minv[j]! * s;
    if (!Number.isFinite(v)) throw new NonFiniteError('diracSolve: q̃', j);
    qt[j] = v;
    ws.pNext[j] = sys.mass[j]! * v;
  }
  return ws;
}

/** Options of {@link DiracIntegrator}. */
export interface DiracIntegratorOptions {
  /**
   * Start-up of the two-step methods when no q_{−1} is given (spec §10, §11 item 4): `'dirac1'`
   * (default, as in the reference runs of §7.3) takes one Dirac-1 step from (q_0, p_0).
   */
  readonly startup?: 'dirac1';
}

/**
 * A Dirac integrator (spec §5): the method, the system, the step h, the state and its scratch.
 * State after `k` steps: `q` = q_k, `p` = p_k, `qPrev` = q_{k−1} (two-step methods, valid when
 * `hasPrev`), and from the last step `lambda` = λ_{k−1}, `qt` = q̃_{k−1}. {@link step}
 * allocates nothing.
 *
 * One step (§5.5, with f = p_k − h∇V(q_k) and λ from {@link diracSolve}):
 * - Dirac-1: C q̃ = 0, `q_{k+1} = q_k + h q̃`, `p_{k+1} = M q̃`;
 * - Dirac-2: C q̃ = 0, `q_{k+1} = q_{k−1} + 2h q̃`, `p_{k+1} = M q̃`;
 * - Dirac-2c (§5.7, extension): C q̃ = −C(q_k − q_{k−1})/h, `q_{k+1} = q_k + h q̃`,
 *   `p_{k+1} = M q̃ = M (q_{k+1} − q_k)/h`.
 *
 * @example
 * ```ts
 * const it = new DiracIntegrator(pendulumSys, 'dirac2c', 0.01).init(q0, p0);
 * for (let k = 0; k < 100; k++) it.step();
 * it.q; // q_100; the invariant q_k·q_{k+1} = q_0·q_1 holds to round-off (§5.6)
 * ```
 */
export class DiracIntegrator {
  readonly sys: ConstrainedMechanicalSystem;
  readonly method: DiracMethodTraits;
  readonly h: number;
  readonly startup: 'dirac1';
  readonly ws: DiracWorkspace;
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly qPrev: Float64Array;
  /** Multiplier λ of the last step (λ_{k−1}); zeros before the first step. */
  readonly lambda: Float64Array;
  /** Reconstructed velocity q̃ of the last step (q̃_{k−1}). */
  readonly qt: Float64Array;
  /** Steps taken since {@link init}. */
  k = 0;
  /** Whether q_{k−1} is available (two-step methods). */
  hasPrev = false;
  /** Number of start-up (Dirac-1) steps taken. */
  startupSteps = 0;
  private readonly r: Float64Array;
  private readonly d: Float64Array;
  private readonly qNext: Float64Array;

  constructor(
    sys: ConstrainedMechanicalSystem,
    method: DiracMethodName,
    h: number,
    options: DiracIntegratorOptions = {},
  ) {
    if (!(h > 0 && Number.isFinite(h)))
      throw new DomainError('DiracIntegrator: h', h, 'must be positive and finite');
    const traits = DIRAC_METHODS[method];
    if (traits === undefined)
      throw new DomainError(
        'DiracIntegrator: method',
        method,
        "must be 'dirac1' | 'dirac2' | 'dirac2c'",
      );
    this.sys = sys;
    this.method = traits;
    this.h = h;
    this.startup = options.startup ?? 'dirac1';
    this.ws = new DiracWorkspace(sys);
    const { n, m } = sys;
    this.q = new Float64Array(n);
    this.p = new Float64Array(n);
    this.qPrev = new Float64Array(n);
    this.lambda = new Float64Array(m);
    this.qt = new Float64Array(n);
    this.r = new Float64Array(m);
    this.d = new Float64Array(n);
    this.qNext = new Float64Array(n);
  }

  /**
   * Sets (q_0, p_0) and, optionally, q_{−1} for the two-step methods (e.g. the exact solution at
   * −h: spec §11 item 4; never q_{−1} = q_0). Resets the step counter.
   */
  init(q0: ArrayLike<number>, p0: ArrayLike<number>, qPrev?: ArrayLike<number>): this {
    const n = this.sys.n;
    if (q0.length !== n) throw new DimensionError('DiracIntegrator.init: q0', n, q0.length);
    if (p0.length !== n) throw new DimensionError('DiracIntegrator.init: p0', n, p0.length);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(q0[i]!)) throw new NonFiniteError('DiracIntegrator.init: q0', i);
      if (!Number.isFinite(p0[i]!)) throw new NonFiniteError('DiracIntegrator.init: p0', i);
      this.q[i] = q0[i]!;
      this.p[i] = p0[i]!;
    }
    this.hasPrev = qPrev !== undefined;
    if (qPrev !== undefined) {
      if (qPrev.length !== n)
        throw new DimensionError('DiracIntegrator.init: qPrev', n, qPrev.length);
      for (let i = 0; i < n; i++) this.qPrev[i] = qPrev[i]!;
    }
    this.lambda.fill(0);
    this.qt.fill(0);
    this.k = 0;
    this.startupSteps = 0;
    return this;
  }

  /** Advances one step (a Dirac-1 start-up step for a two-step method without q_{k−1}). */
  step(): this {
    const { n, m } = this.sys;
    const h = this.h;
    const ws = this.ws;
    const q = this.q;
    const qNext = this.qNext;
    let name = this.method.name;
    if (name !== 'dirac1' && !this.hasPrev) {
      name = 'dirac1';
      this.startupSteps++;
    }
    try {
      if (name === 'dirac2c') {
        const C = ws.C;
        this.sys.C(C, q);
        for (let i = 0; i < n; i++) this.d[i] = q[i]! - this.qPrev[i]!;
        for (let a = 0; a < m; a++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += C[a * n + j]! * this.d[j]!;
          this.r[a] = -s / h;
        }
        diracSolve(this.sys, ws, q, this.p, h, this.r);
      } else {
        diracSolve(this.sys, ws, q, this.p, h);
      }
    } catch (e) {
      if (e instanceof SingularMatrixError)
        throw new SingularMatrixError(`${e.what} at step ${this.k}`, e.column, e.conditionEstimate);
      throw e;
    }
    const qt = ws.qt;
    if (name === 'dirac2') {
      for (let i = 0; i < n; i++) qNext[i] = this.qPrev[i]! + 2 * h * qt[i]!;
    } else {
      for (let i = 0; i < n; i++) qNext[i] = q[i]! + h * qt[i]!;
    }
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(qNext[i]!))
        throw new NonFiniteError(`DiracIntegrator.step ${this.k}: q`, i);
      this.qPrev[i] = q[i]!;
      q[i] = qNext[i]!;
      this.p[i] = ws.pNext[i]!;
      this.qt[i] = qt[i]!;
    }
    for (let a = 0; a < m; a++) this.lambda[a] = ws.lambda[a]!;
    this.hasPrev = true;
    this.k++;
    return this;
  }
}

/** Energy pairing (spec §10, §11 item 5): `'same'` E_k = T(p_k) + V(q_k); `'shifted'` uses p_{k+1}. */
export type EnergyPairing = 'same' | 'shifted';

/** Initial data of {@link integrateDirac}: q_0 and either v_0 (p_0 = M v_0) or p_0. */
export type DiracInitialData =
  | {
      readonly q0: ArrayLike<number>;
      readonly v0: ArrayLike<number>;
      readonly qPrev?: ArrayLike<number>;
    }
  | {
      readonly q0: ArrayLike<number>;
      readonly p0: ArrayLike<number>;
      readonly qPrev?: ArrayLike<number>;
    };

/** Options of {@link integrateDirac}. */
export interface IntegrateDiracOptions extends DiracIntegratorOptions {
  /** Record every `every`-th step (the last step is always recorded). Default 1. */
  readonly every?: number;
  /** Default `'shifted'` for `'dirac2'` (p_{k+1} is the centred velocity at t_k), else `'same'`. */
  readonly energyPairing?: EnergyPairing;
  /** Called every {@link PROGRESS_INTERVAL_STEPS} steps with (steps done, steps). */
  readonly onProgress?: ProgressCallback;
}

/** Work counters of {@link integrateDirac}. */
export interface DiracStats {
  /** Steps of the reported trajectory (= `steps`). */
  readonly steps: number;
  /** Dirac-1 start-up steps (1 for the two-step methods without q_{−1}). */
  readonly startupSteps: number;
  /** Extra look-ahead step taken to fill λ_N and p_{N+1} of the last sample (always 1). */
  readonly lookaheadSteps: number;
  /** max over samples and constraints of |φᵃ(q_k)|. */
  readonly maxConstraint: number;
}

/**
 * A recorded Dirac trajectory: `count` samples at steps `k_j` (flat row-major series).
 * Sample j holds t_k = k h, q_k, p_k, λ_k (the multiplier of the step *from* t_k, i.e. the λ of
 * (7) with ψ(q_k)), E_k under `energyPairing`, and φ(q_k) per constraint.
 */
export interface DiracTrajectory {
  readonly method: DiracMethodTraits;
  readonly h: number;
  readonly n: number;
  readonly m: number;
  readonly count: number;
  /** Step index of each sample. */
  readonly k: Int32Array;
  readonly t: Float64Array;
  /** count × n. */
  readonly q: Float64Array;
  /** count × n. */
  readonly p: Float64Array;
  /** count × m. */
  readonly lambda: Float64Array;
  readonly energy: Float64Array;
  readonly energyPairing: EnergyPairing;
  /** count × m: φ(q_k). */
  readonly constraint: Float64Array;
  readonly stats: DiracStats;
}

/**
 * Runs a Dirac method for `steps` steps of size h and records the series (spec §10 driver).
 * Energy: E = ½ pᵀ M⁻¹ p + V(q_k) with p = p_k (`'same'`) or p_{k+1} (`'shifted'`, §11 item 5).
 * λ_k and p_{k+1} of the last sample come from one look-ahead step (reported in `stats`).
 *
 * @example
 * ```ts
 * const tr = integrateDirac(pendulumSys, 'dirac1', { q0: [Math.SQRT1_2, -Math.SQRT1_2], v0: [0, 0] },
 *   0.01, 1000, { every: 10 });
 * tr.constraint[tr.count - 1]; // x² + y² − l² at t = 10 (≈ 0.2585, §7.3)
 * ```
 */
export function integrateDirac(
  sys: ConstrainedMechanicalSystem,
  method: DiracMethodName,
  init: DiracInitialData,
  h: number,
  steps: number,
  options: IntegrateDiracOptions = {},
): DiracTrajectory {
  const every = options.every ?? 1;
  if (!Number.isSafeInteger(steps) || steps < 0)
    throw new DomainError('integrateDirac: steps', steps, 'must be a non-negative integer');
  if (!Number.isSafeInteger(every) || every < 1)
    throw new DomainError('integrateDirac: every', every, 'must be a positive integer');
  const { n, m } = sys;
  const integ = new DiracIntegrator(sys, method, h, options);
  const p0 = new Float64Array(n);
  if ('p0' in init) {
    if (init.p0.length !== n) throw new DimensionError('integrateDirac: p0', n, init.p0.length);
    for (let i = 0; i < n; i++) p0[i] = init.p0[i]!;
  } else {
    if (init.v0.length !== n) throw new DimensionError('integrateDirac: v0', n, init.v0.length);
    for (let i = 0; i < n; i++) p0[i] = sys.mass[i]! * init.v0[i]!;
  }
  integ.init(init.q0, p0, init.qPrev);
  const pairing = options.energyPairing ?? (method === 'dirac2' ? 'shifted' : 'same');
  const count = Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
  const kk = new Int32Array(count);
  const t = new Float64Array(count);
  const qs = new Float64Array(count * n);
  const ps = new Float64Array(count * n);
  const lams = new Float64Array(count * m);
  const energy = new Float64Array(count);
  const cons = new Float64Array(count * m);
  const phi = new Float64Array(m);
  const pOld = new Float64Array(n);
  const qOld = new Float64Array(n);
  let j = 0;
  let maxC = 0;
  const onProgress = options.onProgress;
  for (let k = 0; k <= steps; k++) {
    if (onProgress !== undefined && k % PROGRESS_INTERVAL_STEPS === 0) onProgress(k, steps);
    const record = k % every === 0 || k === steps;
    if (record) {
      for (let i = 0; i < n; i++) {
        qOld[i] = integ.q[i]!;
        pOld[i] = integ.p[i]!;
      }
    }
    // every state needs its step: the look-ahead step at k = steps fills λ_N and p_{N+1}
    integ.step();
    if (!record) continue;
    kk[j] = k;
    t[j] = k * h;
    let T = 0;
    for (let i = 0; i < n; i++) {
      qs[j * n + i] = qOld[i]!;
      ps[j * n + i] = pOld[i]!;
      const pe = pairing === 'same' ? pOld[i]! : integ.p[i]!;
      T += (0.5 * pe * pe) / sys.mass[i]!;
    }
    energy[j] = T + sys.V(qOld);
    if (m > 0) {
      sys.phi(phi, qOld);
      for (let a = 0; a < m; a++) {
        lams[j * m + a] = integ.lambda[a]!;
        cons[j * m + a] = phi[a]!;
        maxC = Math.max(maxC, Math.abs(phi[a]!));
      }
    }
    j++;
  }
  return {
    method: integ.method,
    h,
    n,
    m,
    count,
    k: kk,
    t,
    q: qs,
    p: ps,
    lambda: lams,
    energy,
    energyPairing: pairing,
    constraint: cons,
    stats: { steps, startupSteps: integ.startupSteps, lookaheadSteps: 1, maxConstraint: maxC },
  };
}
