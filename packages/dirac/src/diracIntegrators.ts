/**
 * The Dirac integrators of spec 001 §5 (paper §III.B): the per-step system (7) for a mechanical
 * Lagrangian L = ½ vᵀ M v − V(q) (M constant, diagonal) with constraint one-forms C(q), solved by
 * the generic linear algorithm of §5.5 — or, for a configuration-dependent M(q) (`massMatrix`),
 * by Newton on (7) with L_d = h L(q_k, q̃) (§5.5 "general L"; diracMassMatrix.ts) — and the three
 * methods
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
  BandLU,
  BandMatrix,
  CENTRAL_DIFFERENCE_STEP,
  checkForce,
  checkStepDerivatives,
  DenseLU,
  DimensionError,
  DiscreteForce,
  DomainError,
  extendSolution,
  type Force,
  type ForceQuadrature,
  type IntegrateRecordingOptions,
  integrate,
  type MethodTraits,
  methodTraits,
  NewtonDivergedError,
  NewtonSolver,
  NonFiniteError,
  recordingOptions,
  type SeriesSpec,
  SingularMatrixError,
  type Solution,
  type Stepper,
} from '@geomech/core';
import {
  type BandedForce,
  BorderedMatrix,
  bandedForceJacobian,
  ForceNode,
  forceBandwidth,
} from './borderedStep.js';
import { bandGram, bandScatterTranspose, checkBand, gramBandwidth } from './chainBand.js';
import type { ConstrainedMechanicalSystem, ConstraintBand } from './constrained.js';
import { DiracMassMatrix, type DiracMassMatrixForcing } from './diracMassMatrix.js';
import { forceJacobianWithWeights } from './internal.js';
import { MassMatrixKinetics } from './massMatrix.js';

/**
 * 1-norm condition estimate of S = C M⁻¹ Cᵀ above which {@link diracSolve} reports the
 * constraint rows as dependent ({@link SingularMatrixError}): about 1/(100·ε).
 */
export const DIRAC_SINGULAR_CONDITION = 1e14;

/** Velocity reconstruction rule q̃_k of spec §5.3 (§11 item 19: a rule with access to history). */
export type VelocityRule = 'forward' | 'central';

/**
 * The Dirac methods, by their CLI names: `'dirac-1'`, `'dirac-2'` (paper-literal) and
 * `'dirac-2c'` (extension, §5.7).
 */
export type DiracMethodName = 'dirac-1' | 'dirac-2' | 'dirac-2c';

/**
 * A Dirac method: core's {@link MethodTraits} (an unknown trait is `undefined`) plus the velocity
 * reconstructions of (7) and whether the paper defines it.
 */
export interface DiracMethod extends MethodTraits {
  readonly name: DiracMethodName;
  /** Reconstruction used in the constraint line (7, line 1). */
  readonly constraintRule: VelocityRule;
  /** Reconstruction used in the momentum lines (7, lines 2–3). */
  readonly momentumRule: VelocityRule;
  /** True for the methods the paper defines; false for the §5.7 extension. */
  readonly inPaper: boolean;
}

function diracMethod(
  name: DiracMethodName,
  description: string,
  stepsUsed: number,
  rules: Pick<DiracMethod, 'constraintRule' | 'momentumRule' | 'inPaper'>,
): DiracMethod {
  // order 1: measured in spec §5.6 / §9 item 9; explicit: one linear solve per step, no Newton
  const traits = methodTraits({ name, description, order: 1, isExplicit: true, stepsUsed });
  return Object.freeze({ ...traits, name, ...rules });
}

/**
 * The method table, keyed by the CLI names. Dirac-1 = symplectic Euler plus the constraint
 * impulse (§5.5); Dirac-2 is the literal (7) with central q̃ (a two-step method); Dirac-2c is
 * labelled non-paper (§5.7, §11 item 6). All three are first order (§5.6).
 *
 * @example
 * ```ts
 * diracMethods['dirac-2c'].inPaper;   // false
 * diracMethods['dirac-2'].stepsUsed;  // 2 (q_{k−1} and q_k)
 * ```
 */
export const diracMethods: Readonly<Record<DiracMethodName, DiracMethod>> = Object.freeze({
  'dirac-1': diracMethod('dirac-1', 'Dirac-1: forward reconstruction (spec 001 §5.3)', 1, {
    constraintRule: 'forward',
    momentumRule: 'forward',
    inPaper: true,
  }),
  'dirac-2': diracMethod('dirac-2', 'Dirac-2: central reconstruction (spec 001 §5.3)', 2, {
    constraintRule: 'central',
    momentumRule: 'central',
    inPaper: true,
  }),
  'dirac-2c': diracMethod(
    'dirac-2c',
    'Dirac-2c: central difference in the constraint line only (spec 001 §5.7, not in the paper)',
    2,
    { constraintRule: 'central', momentumRule: 'forward', inPaper: false },
  ),
});

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
  /** C(q_k), row-major m×n (dense path; empty for a system with a `band`, see {@link Cband}). */
  readonly C: Float64Array;
  /** S = C M⁻¹ Cᵀ, row-major m×m (dense path; empty for a system with a `band`). */
  readonly S: Float64Array;
  readonly minv: Float64Array;
  /** The system's diagonal mass (its `mass`). */
  readonly mass: Float64Array;
  readonly grad: Float64Array;
  readonly lu: DenseLU | null;
  /** The system's constraint band, or null (dense path). */
  readonly band: ConstraintBand | null;
  /** C(q_k) in the band storage of {@link band} (m × width; empty without a band). */
  readonly Cband: Float64Array;
  /** S = C M⁻¹ Cᵀ as a band matrix (banded path), and its LU. */
  readonly Sband: BandMatrix | null;
  readonly bandLu: BandLU | null;
  /** The Newton step of a system with `massMatrix` (null for the constant diagonal mass). */
  readonly general: DiracMassMatrix | null;

  /**
   * @param newton - tolerance (default 1e-14) and iteration cap (default 50) of the M(q) step's
   *   Newton solve (unused for a constant mass).
   */
  constructor(
    sys: ConstrainedMechanicalSystem,
    newton: { readonly tol?: number; readonly maxIterations?: number } = {},
  ) {
    const { n, m } = sys;
    if (!Number.isInteger(n) || n < 1) throw new DimensionError('DiracWorkspace: n', '>= 1', n);
    if (!Number.isInteger(m) || m < 0) throw new DimensionError('DiracWorkspace: m', '>= 0', m);
    if (sys.mass.length !== n) throw new DimensionError('DiracWorkspace: mass', n, sys.mass.length);
    this.general =
      sys.massMatrix === undefined
        ? null
        : new DiracMassMatrix(sys, newton.tol ?? 1e-14, newton.maxIterations ?? 50);
    this.n = n;
    this.m = m;
    this.qt = new Float64Array(n);
    this.lambda = new Float64Array(m);
    this.pNext = new Float64Array(n);
    this.f = new Float64Array(n);
    // M(q): the dense Newton step (the chain band is not used)
    const band = m > 0 && sys.band !== undefined && this.general === null ? sys.band : null;
    if (band !== null) checkBand('DiracWorkspace', band, n, m);
    this.band = band;
    this.C = new Float64Array(band === null ? m * n : 0);
    this.S = new Float64Array(band === null ? m * m : 0);
    this.Cband = new Float64Array(band === null ? 0 : m * band.width);
    const k = band === null ? 0 : gramBandwidth(band, m);
    this.Sband = band === null ? null : new BandMatrix(m, k, k);
    this.bandLu = band === null ? null : new BandLU(m, k, k);
    this.minv = new Float64Array(n);
    this.mass = sys.mass;
    for (let i = 0; i < n; i++) {
      const mi = sys.mass[i]!;
      if (!(mi > 0 && Number.isFinite(mi)))
        throw new DomainError(`DiracWorkspace: mass[${i}]`, mi, 'must be positive and finite');
      this.minv[i] = 1 / mi;
    }
    this.grad = new Float64Array(n);
    this.lu = m > 0 && band === null ? new DenseLU(m) : null;
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
 * A system with a constraint `band` (a chain, e.g. `zieglerColumn`) takes the banded path:
 * C(q_k) in band storage, S as a band matrix and core's {@link BandLU} (O(n) per step instead of
 * O(m·n) products and an O(m³) LU). Its products are the dense path's sums term for term; only
 * the LU rounds differently, so the two paths agree to round-off (≤ 1e-12 on the Ziegler column,
 * tested), not bit for bit.
 *
 * A system with `massMatrix` solves (7) with L_d = h L(q_k, q̃) for L = ½vᵀM(q)v − V (spec §5.1,
 * §5.5 "general L"): `M(q_k) q̃ − h g(q_k, q̃) + C(q_k)ᵀλ = f`, `C q̃ = r`, `p_{k+1} = M(q_k) q̃`
 * with g = ½∇_q(vᵀM(q)v), by Newton in (q̃, λ) (exact Jacobian; dense, n ≤ 200).
 *
 * @param r - right-hand side of the constraint line (length m); omitted means 0.
 * @param t - time t_k at which ∇V is evaluated (a time-dependent potential, spec 001 §5.5 with
 *   V(q, t)); omitted for an autonomous system.
 * @throws {@link SingularMatrixError} when S is singular or its condition estimate exceeds
 *   {@link DIRAC_SINGULAR_CONDITION} (dependent constraint rows at q_k);
 *   {@link NonFiniteError} when ∇V, C or the result is not finite.
 *
 * @example
 * ```ts
 * const sys = pendulum({ m: 1, g: 9.81, l: 1 });
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
  t?: number,
): DiracWorkspace {
  return solveStep(sys, ws, qk, pk, h, r, t, false, undefined, -1);
}

/** {@link diracSolve}; `cReady`: the banded path's `ws.Cband` already holds C(q_k). */
function solveStep(
  sys: ConstrainedMechanicalSystem,
  ws: DiracWorkspace,
  qk: Float64Array,
  pk: Float64Array,
  h: number,
  r: Float64Array | undefined,
  t: number | undefined,
  cReady: boolean,
  forcing: DiracMassMatrixForcing | undefined,
  k: number,
): DiracWorkspace {
  const { n, m } = ws;
  if (t === undefined) sys.gradV(ws.grad, qk);
  else sys.gradV(ws.grad, qk, t);
  const f = ws.f;
  for (let i = 0; i < n; i++) {
    const g = ws.grad[i]!;
    if (!Number.isFinite(g)) throw new NonFiniteError('diracSolve: gradV', i);
    f[i] = pk[i]! - h * g;
  }
  const general = ws.general;
  if (general !== null) {
    // M(q): Newton on lines 3 and 1 (diracMassMatrix.ts); C(q_k) is read again (cReady is banded)
    general.prepare(qk);
    general.solve(ws.qt, ws.lambda, ws.pNext, qk, f, h, r, forcing, k);
    return ws;
  }
  const qt = ws.qt;
  if (m === 0) {
    for (let i = 0; i < n; i++) {
      qt[i] = ws.minv[i]! * f[i]!;
      ws.pNext[i] = f[i]!;
    }
    return ws;
  }
  if (ws.band !== null) return solveBanded(sys, ws, ws.band, qk, r, cReady);
  if (ws.lu === null) throw new DimensionError('diracSolve: workspace', 'a dense LU', 'none');
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

/**
 * The banded path of {@link diracSolve} (f = p_k − h∇V(q_k) already in `ws.f`): the same
 * equations, products over each row's band, S = C M⁻¹ Cᵀ as a band matrix, core's {@link BandLU}.
 */
function solveBanded(
  sys: ConstrainedMechanicalSystem,
  ws: DiracWorkspace,
  band: ConstraintBand,
  qk: Float64Array,
  r: Float64Array | undefined,
  cReady: boolean,
): DiracWorkspace {
  const { n, m, f, minv, qt } = ws;
  const C = ws.Cband;
  const lam = ws.lambda;
  const { width: w, first } = band;
  if (!cReady) band.C(C, qk);
  for (let a = 0; a < m; a++) {
    // the right-hand side C M⁻¹ f − r over row a's band
    let rhs = r === undefined ? 0 : -r[a]!;
    const fa = first[a]!;
    const j1 = Math.min(n, fa + w);
    for (let j = Math.max(0, fa); j < j1; j++) {
      const c = C[a * w + j - fa]!;
      if (!Number.isFinite(c)) throw new NonFiniteError('diracSolve: C', a * n + j);
      rhs += c * minv[j]! * f[j]!;
    }
    lam[a] = rhs;
  }
  const S = ws.Sband!;
  bandGram(S, C, C, minv, band, n, true);
  const lu = ws.bandLu!.factor(S);
  if (lu.isSingular) throw new SingularMatrixError('diracSolve: C M⁻¹ Cᵀ', -1);
  const cond = lu.conditionEstimate();
  if (!(cond <= DIRAC_SINGULAR_CONDITION))
    throw new SingularMatrixError('diracSolve: C M⁻¹ Cᵀ', -1, cond);
  lu.solve(lam, lam);
  // q̃ = M⁻¹(f − Cᵀλ), Cᵀλ subtracted row by row as in the dense loop
  for (let j = 0; j < n; j++) qt[j] = f[j]!;
  bandScatterTranspose(qt, C, lam, band, m, n, -1);
  for (let j = 0; j < n; j++) {
    const v = minv[j]! * qt[j]!;
    if (!Number.isFinite(v)) throw new NonFiniteError('diracSolve: q̃', j);
    qt[j] = v;
    ws.pNext[j] = sys.mass[j]! * v;
  }
  return ws;
}

/** Start-up of the two-step methods (spec §10, §11 item 4). */
export type DiracStartup = 'dirac-1' | 'none';

/** Options of {@link DiracStepper}. */
export interface DiracStepperOptions {
  /**
   * Start-up of the two-step methods: `'dirac-1'` (default, as in the reference runs of §7.3)
   * takes one Dirac-1 step from (q_0, p_0) as the first step after {@link DiracStepper.reset};
   * `'none'` uses the q_{−1} of the state (e.g. the exact solution at −h: spec §11 item 4; never
   * q_{−1} = q_0).
   */
  readonly startup?: DiracStartup;
  /** Default `'shifted'` for `'dirac-2'` (p_{k+1} is the centred velocity at t_k), else `'same'`. */
  readonly energyPairing?: EnergyPairing;
  /**
   * An external (control) force F(t, q, v, u) (core's `Force`): each step adds the discrete
   * Lagrange–d'Alembert forces f_d^±(q_k, q_{k+1}) of core's `DiscreteForce` to the momentum lines
   * of (7) with the signs of the (±) Lagrange–Dirac stepper (see {@link DiracStepper}); the
   * stepper's input size is then `force.m`.
   */
  readonly force?: Force;
  /** Quadrature of the discrete force: `'midpoint'` (default), `'left'` or `'right'`. */
  readonly forceQuadrature?: ForceQuadrature;
  /**
   * Newton tolerance of a forced step on ‖f̄ − f_d⁻(q_k, q_{k+1}(f̄))‖∞ (momentum units). Default
   * 1e-14; the solve also stops once its step is at working precision (core's `stepTol`).
   */
  readonly tol?: number;
  /** Newton iteration cap of a forced step. Default 50. */
  readonly maxIterations?: number;
}

/** Energy pairing (spec §10, §11 item 5): `'same'` E_k = T(p_k) + V(q_k); `'shifted'` uses p_{k+1}. */
export type EnergyPairing = 'same' | 'shifted';

/** The series of a Dirac trajectory. */
export type DiracSeries = 'q' | 'p' | 'lambda' | 'energy' | 'constraint';

const EMPTY = new Float64Array(0);

/**
 * A Dirac method joined with a system (spec §5): a core {@link Stepper} on the flat state
 * `[q_k, p_k, q_{k−1}]` (3n; the q_{k−1} slot matters for the two-step methods), owning the
 * workspace of {@link diracSolve}. {@link step} allocates nothing.
 *
 * One step (§5.5, with f = p_k − h∇V(q_k, t_k) and λ from {@link diracSolve}):
 * - Dirac-1: C q̃ = 0, `q_{k+1} = q_k + h q̃`, `p_{k+1} = M q̃`;
 * - Dirac-2: C q̃ = 0, `q_{k+1} = q_{k−1} + 2h q̃`, `p_{k+1} = M q̃`;
 * - Dirac-2c (§5.7, extension): C q̃ = −C(q_k − q_{k−1})/h, `q_{k+1} = q_k + h q̃`,
 *   `p_{k+1} = M q̃ = M (q_{k+1} − q_k)/h`.
 *
 * Forced (option `force`, inputs u_k through core's `integrate`): Dirac-1 is the (+)
 * Lagrange–Dirac scheme with the left-rectangle L_d (§5.5), whose forced discrete Legendre
 * transforms (Marsden–West 2001 (3.2.5)) put f_d⁻ into line 3 and f_d⁺ into line 2:
 * ```
 * p_k − M q̃ − h∇V(q_k, t_k) + f_d⁻(q_k, q_{k+1}) = Cᵀλ,     p_{k+1} = M q̃ + f_d⁺(q_k, q_{k+1}),
 * ```
 * with f_d^± of core's `DiscreteForce` at (t_k, u_k) over the step's pair (q_k, q_{k+1}); Dirac-2
 * and Dirac-2c take the same two lines with their own q_{k+1}. A discrete force that depends on
 * q_{k+1} makes the step implicit: from the unforced solution, Newton solves the forced lines 3
 * and 1 in (q̃, λ), `M q̃ + Cᵀλ = p_k − h∇V + f_d⁻(q_k, base + c h q̃)`, `C q̃ = r` (C = C(q_k) as
 * read by the unforced solve; base = q_k, or q_{k−1} for Dirac-2 with c = 2, else c = 1) with the
 * bordered Jacobian [[M − c h w⁻ ∂F̄/∂q_{k+1}, Cᵀ], [C, 0]]; each iteration is one factorization
 * of that matrix. For a chain (`band`) with a force that declares `jacobianBandwidth`
 * ({@link BandedForce}, e.g. the damped `zieglerColumn`) the matrix is stored banded (λ_a after its
 * row's last column) and ∂F̄/∂q_{k+1} comes from grouped central differences: O(n) per iteration
 * (equal to the dense path to 1e-14 at n = 32, tested); otherwise it is dense.
 * With the right-rectangle quadrature (f_d⁻ = 0) the step stays explicit, and a force that
 * vanishes at the unforced q_{k+1} (u = 0 for a pure actuator) leaves the step bit-identical to
 * the unforced one.
 *
 * M(q) (a system with `massMatrix`): line 3 becomes `M(q_k) q̃ − h g(q_k, q̃) − f_d⁻ + C(q_k)ᵀλ =
 * p_k − h∇V(q_k)` with g = ½∇_q(vᵀM(q)v) and line 2 `p_{k+1} = M(q_k) q̃ + f_d⁺` (spec §5.5
 * "general L"), one Newton solve in (q̃, λ) per step with f_d⁻(q_k, q_{k+1}(q̃)) inside it (the
 * step's return value and `lastResidual` are its iterations and residual); the energy uses
 * ½pᵀM(q)⁻¹p.
 *
 * The first step after {@link reset} of a two-step method is a Dirac-1 start-up step unless
 * `startup: 'none'`. Series: `q`, `p` and `constraint` = φ(q_k) of the state; `lambda` = λ_k of
 * the step leaving it (the λ of (7) with ψ(q_k)); `energy` E = ½ pᵀM⁻¹p + V(q_k) with p = p_k
 * (`'same'`) or p_{k+1} (`'shifted'`, then it too belongs to the step leaving the state).
 *
 * @example
 * ```ts
 * const st = new DiracStepper(pendulum({ m: 1, g: 9.81, l: 1 }), 'dirac-2c');
 * const s = st.initialState([Math.SQRT1_2, -Math.SQRT1_2], [0, 0]);
 * st.reset(s);
 * for (let k = 0; k < 100; k++) st.step(s, k, 0.01);
 * s.subarray(0, 2); // q_100; the invariant q_k·q_{k+1} = q_0·q_1 holds to round-off (§5.6)
 * ```
 */
export class DiracStepper implements Stepper<DiracSeries> {
  readonly sys: ConstrainedMechanicalSystem;
  readonly method: DiracMethod;
  readonly startup: DiracStartup;
  readonly energyPairing: EnergyPairing;
  readonly stateSize: number;
  /** Input size of the force (0 unforced). */
  readonly inputSize: number;
  readonly series: readonly SeriesSpec<DiracSeries>[];
  /** ‖f̄ − f_d⁻‖∞ of the last forced step's Newton solve (0 unforced: the step is explicit). */
  lastResidual = 0;
  readonly ws: DiracWorkspace;
  /** The discrete force, when forced. */
  readonly discreteForce: DiracForcing | undefined;
  /** Multiplier λ of the last step taken (zeros after {@link reset}). */
  readonly lambda: Float64Array;
  /** Reconstructed velocity q̃ of the last step taken. */
  readonly qt: Float64Array;
  /** Number of start-up (Dirac-1) steps since {@link reset}. */
  startupSteps = 0;
  /** Whether the state's q_{k−1} is valid for the next step. */
  private hasPrev = false;
  private readonly r: Float64Array;
  private readonly qNext: Float64Array;
  private readonly phi: Float64Array;
  private readonly peekState: Float64Array;
  /** The state of the last step (its slots: q_{k+1}, p_{k+1}, q_k), for {@link recordLeaving}. */
  private last: Float64Array = EMPTY;
  /** Views of the q_k and p_k slots of {@link viewed} (made once per state array, not per step). */
  private viewed: Float64Array = EMPTY;
  private qView: Float64Array = EMPTY;
  private pView: Float64Array = EMPTY;
  private qPrevView: Float64Array = EMPTY;
  private peekFailure: string | undefined;
  /** t_k and u_k of the step being taken. */
  private tk = 0;
  /** The time argument of ∇V: t_k, or undefined for an autonomous system (no double to box). */
  private tArg: number | undefined = undefined;
  /** Initial time of the run (the last reset's t0): step k leaves t0 + k·h. */
  private t0 = 0;
  /** Step size of the run (the last reset's h), for the time of a recorded sample. */
  private hRun = Number.NaN;
  private uk: Float64Array = EMPTY;
  private lastIterations = 0;
  /** The forced part handed to the M(q) step (made on the first forced step, then reused). */
  private generalForcing: DiracMassMatrixForcing | undefined;
  /** M(q) of the recorded energy (its own LU: the step's must survive a record). */
  private readonly energyKinetics: MassMatrixKinetics | null;
  private readonly energyScratch: Float64Array;
  // the last step taken, for stepDerivatives: x_k, u_k, t_k, h, the rule used (a start-up step is
  // Dirac-1); q̃, λ are in `qt`, `lambda`, q_{k+1} in the state
  private readonly lastX: Float64Array;
  private readonly lastU: Float64Array;
  private lastT = 0;
  private lastH = 0;
  private lastName: DiracMethodName = 'dirac-1';
  private hasLastStep = false;
  private derivatives: DiracDerivativeScratch | undefined;

  constructor(
    sys: ConstrainedMechanicalSystem,
    method: DiracMethodName,
    options: DiracStepperOptions = {},
  ) {
    const traits = diracMethods[method];
    if (traits === undefined)
      throw new DomainError(
        'DiracStepper: method',
        method,
        "must be 'dirac-1' | 'dirac-2' | 'dirac-2c'",
      );
    const startup = options.startup ?? 'dirac-1';
    if (startup !== 'dirac-1' && startup !== 'none')
      throw new DomainError('DiracStepper: startup', startup, "must be 'dirac-1' or 'none'");
    const pairing = options.energyPairing ?? (method === 'dirac-2' ? 'shifted' : 'same');
    if (pairing !== 'same' && pairing !== 'shifted')
      throw new DomainError('DiracStepper: energyPairing', pairing, "must be 'same' or 'shifted'");
    this.sys = sys;
    // The table's traits describe the constant-M, unforced step (one linear solve). With M(q), or a
    // force whose f_d⁻ enters line 3 (any quadrature but 'right'), the step runs Newton: implicit.
    const newton =
      sys.massMatrix !== undefined ||
      (options.force !== undefined && (options.forceQuadrature ?? 'midpoint') !== 'right');
    this.method = newton ? Object.freeze({ ...traits, isExplicit: false }) : traits;
    this.startup = startup;
    this.energyPairing = pairing;
    this.ws = new DiracWorkspace(sys, {
      ...(options.tol === undefined ? {} : { tol: options.tol }),
      ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
    });
    const { n, m } = sys;
    this.energyKinetics =
      sys.massMatrix === undefined ? null : new MassMatrixKinetics(sys, 'DiracStepper');
    this.energyScratch = new Float64Array(sys.massMatrix === undefined ? 0 : n);
    this.stateSize = 3 * n;
    this.series = Object.freeze([
      { name: 'q', width: n },
      { name: 'p', width: n },
      { name: 'lambda', width: m, timing: 'leaving' },
      { name: 'energy', width: 1, timing: pairing === 'same' ? 'state' : 'leaving' },
      { name: 'constraint', width: m },
    ] as const);
    this.lambda = new Float64Array(m);
    this.qt = new Float64Array(n);
    this.r = new Float64Array(m);
    this.qNext = new Float64Array(n);
    this.phi = new Float64Array(m);
    this.peekState = new Float64Array(3 * n);
    const force = options.force;
    this.inputSize = force === undefined ? 0 : checkForce('DiracStepper: force', force, n);
    this.lastX = new Float64Array(3 * n);
    this.lastU = new Float64Array(this.inputSize);
    this.discreteForce =
      force === undefined
        ? undefined
        : new DiracForcing(
            force,
            options.forceQuadrature ?? 'midpoint',
            this.ws,
            options.tol ?? 1e-14,
            options.maxIterations ?? 50,
          );
  }

  /**
   * The flat state `[q_0, p_0, q_{−1}]` (a new array): q_{−1} = `qPrev` when given (use it with
   * `startup: 'none'`), else q_0 (a placeholder the start-up step does not read).
   */
  initialState(
    q0: ArrayLike<number>,
    p0: ArrayLike<number>,
    qPrev?: ArrayLike<number>,
  ): Float64Array {
    const n = this.sys.n;
    if (q0.length !== n) throw new DimensionError('DiracStepper: q0', n, q0.length);
    if (p0.length !== n) throw new DimensionError('DiracStepper: p0', n, p0.length);
    if (qPrev !== undefined && qPrev.length !== n)
      throw new DimensionError('DiracStepper: qPrev', n, qPrev.length);
    const s = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      s[i] = q0[i]!;
      s[n + i] = p0[i]!;
      s[2 * n + i] = qPrev === undefined ? q0[i]! : qPrev[i]!;
    }
    return s;
  }

  /**
   * Starts a run at time t0 (default 0; step k then leaves t0 + k·h): the next step of a two-step
   * method is the start-up step (unless `'none'`).
   */
  reset(_state?: Float64Array, t0 = 0, h = Number.NaN): void {
    this.t0 = t0;
    this.hRun = h;
    this.hasPrev = this.startup === 'none';
    this.startupSteps = 0;
    this.lastResidual = 0;
    this.lastIterations = 0;
    this.lambda.fill(0);
    this.qt.fill(0);
    this.last = EMPTY;
    this.viewed = EMPTY;
    this.peekFailure = undefined;
    this.hasLastStep = false;
  }

  /**
   * Advances `state` = [q_k, p_k, q_{k−1}] by step k of size h, from t_k = t0 + k·h (t0 of the last
   * {@link reset}; a Dirac-1 start-up step for a two-step method without q_{k−1}). Returns 0 (no
   * Newton iterations). On failure ({@link SingularMatrixError} naming step k,
   * {@link NonFiniteError}) the state is unchanged.
   */
  step(state: Float64Array, k: number, h: number, u?: Float64Array): number {
    this.setInput(this.t0 + k * h, u);
    const startup = this.method.stepsUsed > 1 && !this.hasPrev;
    // the step's data, for stepDerivatives (valid once the step succeeds)
    this.hasLastStep = false;
    this.lastX.set(state);
    if (u === undefined) this.lastU.fill(0);
    else this.lastU.set(u);
    this.lastT = this.tk;
    this.lastH = h;
    this.lastName = startup ? 'dirac-1' : this.method.name;
    this.advance(state, k, h, startup);
    this.hasLastStep = true;
    if (startup) this.startupSteps++;
    this.hasPrev = true;
    const { n, m } = this.sys;
    const ws = this.ws;
    for (let i = 0; i < n; i++) this.qt[i] = ws.qt[i]!;
    for (let a = 0; a < m; a++) this.lambda[a] = ws.lambda[a]!;
    this.last = state;
    return this.lastIterations;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) on the state
   * x = [q, p, q_{k−1}] (size 3n) and the input u (size `inputSize`): `dxdx` ← ∂x_{k+1}/∂x_k
   * (3n × 3n) and `dxdu` ← ∂x_{k+1}/∂u_k (3n × inputSize), row-major. Every rule (Dirac-1,
   * Dirac-2, Dirac-2c, and the Dirac-1 start-up step of a two-step method), forced or not, dense
   * or banded, constant M or M(q).
   *
   * The step (class doc) solves for y = (q̃, λ), with q_{k+1} = b + c h q̃ (b = q_k, c = 1; Dirac-2:
   * b = q_{k−1}, c = 2), the lines
   * ```
   * R3 = M(q_k) q̃ − h g(q_k, q̃) + C(q_k)ᵀλ − p_k + h∇V(q_k, t_k) − f_d⁻(q_k, q_{k+1}, u_k) = 0,
   * R1 = C(q_k) q̃ − r = 0,   r = 0, or (Dirac-2c) r = −C(q_k)(q_k − q_{k−1})/h,
   * ```
   * (g = ½∇_q(vᵀM(q)v), 0 for a constant M), so by the implicit function theorem
   * ∂y/∂(x, u) = −K⁻¹ ∂R/∂(x, u) with the bordered (Newton) matrix of (7),
   * K = [[M(q_k) − h ∂g/∂v − c h w⁻ ∂F̄/∂q_{k+1}, Cᵀ], [C, 0]] (f_d^± = w^± F̄, core's
   * `DiscreteForce`), and
   * ```
   * ∂R3/∂q_k = ∂(M(q)q̃ − h g(q, q̃) + C(q)ᵀλ)/∂q + h∇²V − w⁻(∂F̄/∂q_k + [b = q_k] ∂F̄/∂q_{k+1}),
   * ∂R3/∂p_k = −I,
   * ∂R3/∂q_{k−1} = −[b = q_{k−1}] w⁻ ∂F̄/∂q_{k+1},   ∂R3/∂u = −w⁻ ∂F̄/∂u,
   * ∂R1/∂q_k = ∂C/∂q[·] q̃ − ∂r/∂q_k,  ∂r/∂q_k = −(∂C/∂q[·](q_k − q_{k−1}) + C)/h,  ∂r/∂q_{k−1} = C/h,
   * ```
   * then the chain rule through q_{k+1} = b + c h q̃, p_{k+1} = M(q_k) q̃ + f_d⁺(q_k, q_{k+1}, u_k)
   * and the new q_{k−1} slot q_k. ∇²V, ∂C/∂q and ∂(M(q)q̃ − h g)/∂q are central differences
   * (relative step `CENTRAL_DIFFERENCE_STEP`; the system gives only ∇V, C and M(q)), ∂g/∂v is the
   * M(q) step's own (polarization, massMatrix.ts); K is factored densely
   * (O((n + m)³): a cold path that allocates its scratch on the first call).
   *
   * @throws {@link DomainError} for n + m > {@link STEP_DERIVATIVES_MAX_DIMENSION} and before any
   *   step (or after a failed one); {@link DimensionError} for wrong output lengths; {@link SingularMatrixError}
   *   for a singular K.
   * @example
   * ```ts
   * const st = new DiracStepper(pendulum({ m: 1, g: 9.81, l: 1 }), 'dirac-1');
   * const s = st.initialState([Math.SQRT1_2, -Math.SQRT1_2], [0, 0]);
   * st.reset(s);
   * st.step(s, 0, 0.01);
   * const A = new Float64Array(36);
   * st.stepDerivatives(A, new Float64Array(0)); // A[i·6 + j] = ∂x₁[i]/∂x₀[j]
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    const { sys, ws } = this;
    const { n, m } = sys;
    const mu = this.inputSize;
    const S = 3 * n;
    checkStepDerivatives(
      'DiracStepper.stepDerivatives',
      this.hasLastStep ? undefined : 'no step taken',
      dxdx,
      dxdu,
      S,
      mu,
      n + m,
    );
    this.derivatives ??= diracDerivativeScratch(sys, mu);
    const d = this.derivatives;
    const { K, lu, HV, DCl, DCq, DCd, C, Cp, Fq0, Fq1, Fu, a, b, q, q1, rhs, col } = d;
    const { kin, Mq, Jg, DMg, DMq, mp, mm, gp, gm } = d;
    const h = this.lastH;
    const t = this.lastT;
    const name = this.lastName;
    const two = name === 'dirac-2';
    const c = two ? 2 : 1;
    const x = this.lastX;
    const qt = this.qt;
    const lambda = this.lambda;
    const mass = ws.mass;
    for (let i = 0; i < n; i++) {
      q[i] = x[i]!;
      q1[i] = (two ? x[2 * n + i]! : x[i]!) + c * h * qt[i]!;
    }
    const { fw } = d;
    forceJacobianWithWeights(
      fw,
      Fq0,
      Fq1,
      Fu,
      this.discreteForce?.discrete(h),
      t,
      q,
      q1,
      this.lastU,
    );
    const wm = fw[0]!;
    const wp = fw[1]!;
    // central differences in q_k: ∇²V, ∂(C(q)ᵀλ)/∂q, ∂C/∂q[·] q̃ and ∂C/∂q[·](q_k − q_{k−1})
    const autonomous = sys.autonomous === true;
    for (let j = 0; j < n; j++) {
      const x0 = q[j]!;
      const e = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(x0));
      q[j] = x0 + e;
      if (autonomous) sys.gradV(a, q);
      else sys.gradV(a, q, t);
      sys.C(Cp, q);
      if (kin !== null) {
        kin.factor(q, 'DiracStepper.stepDerivatives');
        kin.mul(mp, qt);
        kin.gradient(gp, q, qt);
      }
      q[j] = x0 - e;
      if (autonomous) sys.gradV(b, q);
      else sys.gradV(b, q, t);
      sys.C(C, q);
      if (kin !== null) {
        kin.factor(q, 'DiracStepper.stepDerivatives');
        kin.mul(mm, qt);
        kin.gradient(gm, q, qt);
      }
      q[j] = x0;
      for (let i = 0; i < n; i++) HV[i * n + j] = (a[i]! - b[i]!) / (2 * e);
      if (kin !== null) {
        // ∂(M(q)q̃)/∂q_j and ∂(M(q)q̃ − h g(q, q̃))/∂q_j
        for (let i = 0; i < n; i++) {
          const dm = (mp[i]! - mm[i]!) / (2 * e);
          DMq[i * n + j] = dm;
          DMg[i * n + j] = dm - (h * (gp[i]! - gm[i]!)) / (2 * e);
        }
      }
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (let r = 0; r < m; r++) v += (Cp[r * n + i]! - C[r * n + i]!) * lambda[r]!;
        DCl[i * n + j] = v / (2 * e);
      }
      for (let r = 0; r < m; r++) {
        let vq = 0;
        let vd = 0;
        for (let i = 0; i < n; i++) {
          const dc = Cp[r * n + i]! - C[r * n + i]!;
          vq += dc * qt[i]!;
          vd += dc * (x[i]! - x[2 * n + i]!);
        }
        DCq[r * n + j] = vq / (2 * e);
        DCd[r * n + j] = vd / (2 * e);
      }
    }
    sys.C(C, q);
    // M(q_k) and ∂g/∂v(q_k, q̃) (constant M: diag(mass) and 0)
    if (kin !== null) {
      kin.factor(q, 'DiracStepper.stepDerivatives');
      Mq.set(kin.M);
      kin.gradientJacobian(Jg, q, qt);
    } else {
      Mq.fill(0);
      for (let i = 0; i < n; i++) Mq[i * n + i] = mass[i]!;
    }
    // K = [[M(q_k) − h ∂g/∂v − c h w⁻ ∂F̄/∂q_{k+1}, Cᵀ], [C, 0]]
    const s = n + m;
    const ch = c * h;
    K.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++)
        K[i * s + j] = Mq[i * n + j]! - h * Jg[i * n + j]! - ch * wm * Fq1[i * n + j]!;
      for (let r = 0; r < m; r++) {
        K[i * s + n + r] = C[r * n + i]!;
        K[(n + r) * s + i] = C[r * n + i]!;
      }
    }
    lu.factor(K);
    if (lu.isSingular) throw new SingularMatrixError('DiracStepper.stepDerivatives: K', -1);
    const twoC = name === 'dirac-2c';
    dxdx.fill(0);
    dxdu.fill(0);
    // columns: [0, n) q_k; [n, 2n) p_k; [2n, 3n) q_{k−1}; then u
    for (let j = 0; j < S + mu; j++) {
      const ju = j - S;
      const jq = j < n ? j : -1;
      const jp = j >= n && j < 2 * n ? j - n : -1;
      const jl = j >= 2 * n && j < S ? j - 2 * n : -1;
      // δb = ∂b/∂x_j (q_k or q_{k−1} column of the identity)
      const jb = two ? jl : jq;
      for (let i = 0; i < n; i++) {
        let r3 = 0;
        if (jq >= 0) {
          r3 = DCl[i * n + jq]! + h * HV[i * n + jq]! - wm * Fq0[i * n + jq]!;
          if (kin !== null) r3 += DMg[i * n + jq]!;
        } else if (jp >= 0) r3 = i === jp ? -1 : 0;
        else if (ju >= 0) r3 = -wm * Fu[i * mu + ju]!;
        if (jb >= 0) r3 -= wm * Fq1[i * n + jb]!;
        rhs[i] = -r3;
      }
      for (let r = 0; r < m; r++) {
        let r1 = 0;
        if (jq >= 0) {
          r1 = DCq[r * n + jq]!;
          if (twoC) r1 += (DCd[r * n + jq]! + C[r * n + jq]!) / h;
        } else if (jl >= 0 && twoC) r1 = -C[r * n + jl]! / h;
        rhs[n + r] = -r1;
      }
      lu.solve(rhs, col);
      const out = j < S ? dxdx : dxdu;
      const w = j < S ? S : mu;
      const cc = j < S ? j : ju;
      for (let i = 0; i < n; i++) {
        const dq1 = (jb === i ? 1 : 0) + ch * col[i]!;
        out[i * w + cc] = dq1;
        a[i] = dq1;
        out[(2 * n + i) * w + cc] = jq === i ? 1 : 0;
      }
      // δp_{k+1} = M(q_k) δq̃ + ∂(M(q)q̃)/∂q δq_k + w⁺(F̄_{q0} δq_k + F̄_{q1} δq_{k+1} + F̄_u δu)
      for (let i = 0; i < n; i++) {
        let f = jq >= 0 ? Fq0[i * n + jq]! : ju >= 0 ? Fu[i * mu + ju]! : 0;
        let v = kin !== null && jq >= 0 ? DMq[i * n + jq]! : 0;
        for (let l = 0; l < n; l++) {
          f += Fq1[i * n + l]! * a[l]!;
          v += Mq[i * n + l]! * col[l]!;
        }
        out[(n + i) * w + cc] = v + wp * f;
      }
    }
  }

  /** Sets t_k and u_k of the next step (u = 0 when omitted). */
  private setInput(t: number, u: Float64Array | undefined): void {
    this.tk = t;
    // one boxed time per step for a time-dependent V (a tagged field), none for an autonomous one
    this.tArg = this.sys.autonomous === true ? undefined : t;
    const forcing = this.discreteForce;
    if (forcing === undefined) return;
    forcing.t = t;
    const uu = u ?? forcing.zeroInput;
    if (uu.length !== this.inputSize)
      throw new DimensionError('DiracStepper: u', this.inputSize, uu.length);
    this.uk = uu;
  }

  /** Points the slot views at `state` (allocates only when the state array changes). */
  private view(state: Float64Array): void {
    if (state === this.viewed) return;
    const n = this.sys.n;
    this.viewed = state;
    this.qView = state.subarray(0, n);
    this.pView = state.subarray(n, 2 * n);
    this.qPrevView = state.subarray(2 * n, 3 * n);
  }

  /** One step in place; λ and q̃ stay in the workspace. */
  private advance(state: Float64Array, k: number, h: number, startup: boolean): void {
    const { n, m } = this.sys;
    const ws = this.ws;
    const qNext = this.qNext;
    const name = startup ? 'dirac-1' : this.method.name;
    // q = state[0, n), p = state[n, 2n), q_{k−1} = state[2n, 3n)
    this.view(state);
    const q = this.qView;
    const p = this.pView;
    const t = this.tArg;
    const r = name === 'dirac-2c' ? this.r : undefined;
    this.lastIterations = 0;
    try {
      if (ws.general !== null) {
        this.advanceGeneral(ws.general, q, h, r, name, k);
        this.commit(state, qNext, k);
        return;
      }
      if (r !== undefined && ws.band !== null) {
        // banded: C(q_k) once, for r and for the solve
        const { width: w, first } = ws.band;
        const C = ws.Cband;
        ws.band.C(C, q);
        const qPrev = this.qPrevView;
        for (let a = 0; a < m; a++) {
          let s = 0;
          const fa = first[a]!;
          const j1 = Math.min(n, fa + w);
          for (let j = Math.max(0, fa); j < j1; j++) s += C[a * w + j - fa]! * (q[j]! - qPrev[j]!);
          r[a] = -s / h;
        }
        solveStep(this.sys, ws, q, p, h, r, t, true, undefined, k);
      } else {
        if (r !== undefined) {
          const C = ws.C;
          this.sys.C(C, q);
          const qPrev = this.qPrevView;
          for (let a = 0; a < m; a++) {
            let s = 0;
            for (let j = 0; j < n; j++) s += C[a * n + j]! * (q[j]! - qPrev[j]!);
            r[a] = -s / h;
          }
        }
        diracSolve(this.sys, ws, q, p, h, r, t);
      }
      const qt = ws.qt;
      if (name === 'dirac-2') {
        const qPrev = this.qPrevView;
        for (let i = 0; i < n; i++) qNext[i] = qPrev[i]! + 2 * h * qt[i]!;
      } else {
        for (let i = 0; i < n; i++) qNext[i] = q[i]! + h * qt[i]!;
      }
      const forcing = this.discreteForce;
      if (forcing !== undefined) {
        const base = name === 'dirac-2' ? this.qPrevView : q;
        const c = name === 'dirac-2' ? 2 : 1;
        this.lastIterations = forcing.solve(ws, q, base, c, h, r, this.uk, qNext, k);
        this.lastResidual = forcing.residual;
      }
    } catch (e) {
      if (e instanceof SingularMatrixError)
        throw new SingularMatrixError(`${e.what} at step ${k}`, e.column, e.conditionEstimate);
      throw e;
    }
    this.commit(state, qNext, k);
  }

  /** state ← [q_{k+1}, p_{k+1}, q_k] after a successful step (checks q_{k+1}). */
  private commit(state: Float64Array, qNext: Float64Array, k: number): void {
    const n = this.sys.n;
    const ws = this.ws;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(qNext[i]!)) throw new NonFiniteError(`DiracStepper.step ${k}: q`, i);
    }
    for (let i = 0; i < n; i++) {
      state[2 * n + i] = state[i]!;
      state[i] = qNext[i]!;
      state[n + i] = ws.pNext[i]!;
    }
  }

  /**
   * The M(q) step (diracMassMatrix.ts): r of Dirac-2c from C(q_k), one Newton solve in (q̃, λ)
   * with f_d⁻ inside line 3 when forced, q_{k+1}, and f_d⁺ added to p_{k+1}.
   */
  private advanceGeneral(
    general: DiracMassMatrix,
    q: Float64Array,
    h: number,
    r: Float64Array | undefined,
    name: DiracMethodName,
    k: number,
  ): void {
    // t_k from the field, not an argument: a double passed to a call that is not inlined is
    // boxed (16 B per step); ∇V gets t only when V depends on it (tArg)
    const t = this.tk;
    const { n, m } = this.sys;
    const ws = this.ws;
    const qNext = this.qNext;
    const qPrev = this.qPrevView;
    if (r !== undefined) {
      const C = ws.C;
      this.sys.C(C, q);
      for (let a = 0; a < m; a++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += C[a * n + j]! * (q[j]! - qPrev[j]!);
        r[a] = -s / h;
      }
    }
    const base = name === 'dirac-2' ? qPrev : q;
    const c = name === 'dirac-2' ? 2 : 1;
    const forcing = this.discreteForce;
    let fo: DiracMassMatrixForcing | undefined;
    if (forcing !== undefined) {
      const fd = forcing.discrete(h);
      if (fd.weightMinus !== 0) {
        // one record per stepper, refilled (no allocation per step)
        fo = this.generalForcing ?? { fd, base, c, t, u: this.uk };
        this.generalForcing = fo;
        fo.fd = fd;
        fo.base = base;
        fo.c = c;
        fo.t = t;
        fo.u = this.uk;
      }
    }
    solveStep(this.sys, ws, q, this.pView, h, r, this.tArg, false, fo, k);
    this.lastIterations = general.iterations;
    this.lastResidual = general.residual;
    const qt = ws.qt;
    for (let i = 0; i < n; i++) qNext[i] = base[i]! + c * h * qt[i]!;
    if (forcing !== undefined) forcing.addPlus(ws, q, qNext, this.uk, h);
  }

  /**
   * Writes q_k, p_k, (E_k for `'same'`) and φ(q_k) of `state` (at time t, for V(q, t)): t is the
   * given time, else t_k = t0 + k·h of the last {@link reset} for a time-dependent system (core's
   * `integrate` passes t only for the first sample and a `tEnd` last one), none for an autonomous
   * one (no double to box per kept sample).
   */
  record(out: Float64Array, state: Float64Array, k?: number, tGiven?: number): void {
    const { sys } = this;
    const t =
      tGiven ?? (k === undefined || sys.autonomous === true ? undefined : this.t0 + k * this.hRun);
    const { n, m } = sys;
    for (let i = 0; i < 2 * n; i++) out[i] = state[i]!;
    let off = 2 * n;
    this.view(state);
    if (this.energyPairing === 'same') out[off++] = this.energyOf(this.qView, this.pView, t);
    if (m > 0) {
      sys.phi(this.phi, this.qView);
      for (let a = 0; a < m; a++) out[off + a] = this.phi[a]!;
    }
  }

  /** Writes λ_k (and E_k for `'shifted'`) of the step just taken. */
  recordLeaving(out: Float64Array): void {
    this.leaving(out, this.lambda, this.last);
  }

  /** λ_k (and E_k) of the step that would leave `state`; NaN when that step fails. */
  peekLeaving(
    out: Float64Array,
    state: Float64Array,
    k: number,
    t: number,
    h: number,
    u?: Float64Array,
  ): void {
    const s = this.peekState;
    s.set(state);
    const residual = this.lastResidual;
    const iterations = this.lastIterations;
    try {
      this.setInput(t, u);
      this.advance(s, k, h, this.method.stepsUsed > 1 && !this.hasPrev);
    } catch (e) {
      this.peekFailure = `the look-ahead step from the last state failed (${(e as Error).message}): its lambda${this.energyPairing === 'shifted' ? ' and energy are' : ' is'} NaN`;
      return;
    } finally {
      this.lastResidual = residual;
      this.lastIterations = iterations;
    }
    this.leaving(out, this.ws.lambda, s);
  }

  /** The diagnostics of a run: a failed look-ahead step. */
  warnings(): readonly string[] {
    return this.peekFailure === undefined ? [] : [this.peekFailure];
  }

  /** out ← [λ, E] from λ and the state after the step (q_{k+1}, p_{k+1}, q_k). */
  private leaving(out: Float64Array, lambda: Float64Array, after: Float64Array): void {
    const { m } = this.sys;
    for (let a = 0; a < m; a++) out[a] = lambda[a]!;
    if (this.energyPairing === 'shifted') {
      this.view(after);
      out[m] = this.energyOf(this.qPrevView, this.pView, this.tk);
    }
  }

  /** ½ pᵀM⁻¹p + V(q, t) (M = M(q) for a system with `massMatrix`). */
  private energyOf(q: Float64Array, p: Float64Array, t: number | undefined): number {
    const { sys } = this;
    const n = sys.n;
    const kin = this.energyKinetics;
    if (kin !== null) {
      const w = this.energyScratch;
      for (let i = 0; i < n; i++) w[i] = p[i]!;
      kin.factor(q, 'DiracStepper: energy').solve(w, w);
      let T = 0;
      for (let i = 0; i < n; i++) T += 0.5 * p[i]! * w[i]!;
      return T + (t === undefined ? sys.V(q) : sys.V(q, t));
    }
    let T = 0;
    for (let i = 0; i < n; i++) {
      const pe = p[i]!;
      T += (0.5 * pe * pe) / sys.mass[i]!;
    }
    return T + (t === undefined ? sys.V(q) : sys.V(q, t));
  }
}

/**
 * The forced part of a Dirac step (see {@link DiracStepper}): the discrete force of the step size
 * in use and Newton's method on the forced lines 3 and 1 in (q̃, λ),
 * ```
 * M q̃ + Cᵀλ − f − f_d⁻(q_k, base + c h q̃) = 0,    C q̃ − r = 0      (C = C(q_k), f = p_k − h∇V)
 * ```
 * from the unforced solution, with the bordered Jacobian [[M − c h w⁻ ∂F̄/∂q_{k+1}, Cᵀ], [C, 0]]
 * (borderedStep.ts): banded for a chain with a {@link BandedForce} (O(n) per iteration), dense
 * otherwise. C(q_k) is the one the unforced solve just read (no further solves of
 * {@link diracSolve}). Scratch allocated once; a new step size rebuilds the discrete force (cold).
 */
class DiracForcing {
  readonly n: number;
  readonly m: number;
  /** u = 0, for steps taken without an input. */
  readonly zeroInput: Float64Array;
  /** ‖residual‖∞ of the last solve (0 when no Newton step was needed). */
  residual = Number.NaN;
  /**
   * t_k of the step being taken, set by the stepper before {@link solve} and {@link addPlus}: a
   * field, not an argument, since a double passed to a call V8 does not inline is boxed (16 B).
   */
  t = Number.NaN;
  /** c·h of the solve in progress (a field for the same reason). */
  private ch = Number.NaN;
  /**
   * Core's Newton on (q̃, λ) with the bordered matrix as its linear solver (null on the M(q)
   * path, which solves the forced lines itself): stop at ‖R‖∞ ≤ tol, at a step below 4ε·‖x‖∞, or
   * at the round-off floor max(tol, 1e-11) (`stallTol`).
   */
  private readonly solver: NewtonSolver | null;
  private readonly F: (out: Float64Array, x: Float64Array) => void;
  private readonly J: (out: Float64Array, x: Float64Array) => void;
  // the data of the solve in progress, read by F and J (fields: no closure per step)
  private ws: DiracWorkspace;
  private q: Float64Array;
  private base: Float64Array;
  private r: Float64Array | undefined = undefined;
  private u: Float64Array;
  private fdNow: DiscreteForce;
  private fd: DiscreteForce | undefined;
  /** F̄ of {@link fd} with the node time boxed once per step (borderedStep.ts). */
  private node: ForceNode;
  /** The t whose node time {@link node} holds (NaN: none yet). */
  private nodeT = Number.NaN;
  private readonly bordered: BorderedMatrix;
  /** Half-bandwidth of the force's Jacobians (−1: dense). */
  private readonly kF: number;
  private readonly x: Float64Array;
  private readonly q1: Float64Array;
  private readonly fm: Float64Array;
  private readonly fvec: Float64Array;
  private readonly ct: Float64Array;
  /** ∂F̄/∂q_{k+1}: band storage n × (2kF + 1), or dense n×n. */
  private readonly F1: Float64Array;
  private readonly fp: Float64Array;
  private readonly fm2: Float64Array;
  private readonly e: Float64Array;
  private readonly save: Float64Array;

  constructor(
    readonly force: Force,
    readonly quadrature: ForceQuadrature,
    ws: DiracWorkspace,
    readonly tol: number,
    readonly maxIterations: number,
  ) {
    if (!(tol >= 0)) throw new DomainError('DiracStepper: tol', tol, 'must be ≥ 0');
    if (!Number.isInteger(maxIterations) || maxIterations < 0)
      throw new DomainError('DiracStepper: maxIterations', maxIterations, 'must be an integer ≥ 0');
    // validates the quadrature now (rebuilt for the step size of the first step)
    this.fd = new DiscreteForce(force, 1, quadrature);
    this.fdNow = this.fd;
    this.node = new ForceNode(this.fd);
    this.ws = ws;
    this.q = ws.qt;
    this.base = ws.qt;
    const { n, m } = ws;
    this.n = n;
    this.m = m;
    this.zeroInput = new Float64Array(force.m);
    const kF = ws.band === null ? -1 : forceBandwidth(force, n);
    this.kF = kF;
    // the M(q) step solves the forced lines itself (diracMassMatrix.ts)
    const used = ws.general === null;
    this.bordered = new BorderedMatrix(used ? n : 0, used ? m : 0, ws.band, kF);
    const N = used ? n + m : 0;
    this.x = new Float64Array(N);
    this.u = this.zeroInput;
    this.F = (out, x) => this.residualAt(out, x);
    this.J = () => this.jacobian();
    this.solver = used
      ? new NewtonSolver(N, {
          tol,
          maxIterations,
          stallTol: Math.max(tol, 1e-11),
          conditionCheck: 'pivot',
          linearSolver: this.bordered,
          onSingular: () => new SingularMatrixError('forced Dirac step: Newton matrix', -1),
          what: 'forced Dirac step',
        })
      : null;
    this.q1 = new Float64Array(n);
    this.fm = new Float64Array(n);
    this.fvec = new Float64Array(n);
    this.ct = new Float64Array(n);
    this.F1 = new Float64Array(!used ? 0 : kF >= 0 ? n * (2 * kF + 1) : n * n);
    this.fp = new Float64Array(kF >= 0 ? n : 0);
    this.fm2 = new Float64Array(kF >= 0 ? n : 0);
    this.e = new Float64Array(kF >= 0 ? n : 0);
    this.save = new Float64Array(kF >= 0 ? n : 0);
  }

  /** The discrete force of step size h (rebuilt when h changes). */
  discrete(h: number): DiscreteForce {
    let fd = this.fd;
    if (fd === undefined || fd.h !== h) {
      fd = new DiscreteForce(this.force, h, this.quadrature);
      this.fd = fd;
      this.node = new ForceNode(fd);
      this.nodeT = Number.NaN;
    }
    return fd;
  }

  /** {@link node} at the step leaving {@link t} (sets the node time when t changes). */
  private nodeAt(): ForceNode {
    if (this.nodeT !== this.t) {
      this.node.setTime(this.t);
      this.nodeT = this.t;
    }
    return this.node;
  }

  /**
   * Line 2 of a forced step leaving {@link t}: p_{k+1} ← p_{k+1} + f_d⁺(q_k, q_{k+1}) (exact
   * zeros skipped).
   */
  addPlus(
    ws: DiracWorkspace,
    q: Float64Array,
    qNext: Float64Array,
    u: Float64Array,
    h: number,
  ): void {
    const fd = this.discrete(h);
    if (fd.weightPlus === 0) return;
    const { n, fvec } = this;
    this.nodeAt().plus(fvec, q, qNext, u);
    for (let i = 0; i < n; i++) {
      const f = fvec[i]!;
      if (f !== 0) ws.pNext[i] = ws.pNext[i]! + f;
    }
  }

  /**
   * R ← the residual of the forced lines at x = (q̃, λ) (module doc of the class), for the step
   * data in the fields; also leaves q_{k+1} = base + c h q̃ in `q1` (c h from {@link ch}).
   */
  private residualAt(R: Float64Array, x: Float64Array): void {
    const { n, m, q1, fm, ct, ws, q, base, r, u } = this;
    const ch = this.ch;
    for (let i = 0; i < n; i++) q1[i] = base[i]! + ch * x[i]!;
    this.nodeAt().minus(fm, q, q1, u);
    ct.fill(0);
    const band = ws.band;
    if (band !== null) {
      // Cᵀλ and C q̃ over the rows' bands
      const { width: w, first } = band;
      const C = ws.Cband;
      for (let a = 0; a < m; a++) {
        const fa = first[a]!;
        const j0 = Math.max(0, fa);
        const j1 = Math.min(n, fa + w);
        const la = x[n + a]!;
        let s = r === undefined ? 0 : -r[a]!;
        for (let j = j0; j < j1; j++) {
          const c = C[a * w + j - fa]!;
          ct[j] = ct[j]! + c * la;
          s += c * x[j]!;
        }
        R[n + a] = s;
      }
    } else {
      const C = ws.C;
      for (let a = 0; a < m; a++) {
        const la = x[n + a]!;
        let s = r === undefined ? 0 : -r[a]!;
        for (let j = 0; j < n; j++) {
          const c = C[a * n + j]!;
          ct[j] = ct[j]! + c * la;
          s += c * x[j]!;
        }
        R[n + a] = s;
      }
    }
    const mass = ws.mass;
    const f = ws.f;
    for (let i = 0; i < n; i++) R[i] = mass[i]! * x[i]! + ct[i]! - f[i]! - fm[i]!;
  }

  /**
   * The bordered Jacobian at the q_{k+1} of the last {@link residualAt} (the solver calls J right
   * after F at the same x), into {@link bordered}; the solver factors it.
   */
  private jacobian(): void {
    const { n, m, bordered, F1, kF, q1, ws, q, u } = this;
    const fd = this.fdNow;
    const mass = ws.mass;
    const wgt = fd.weightMinus * this.ch;
    bordered.clear();
    if (kF >= 0) {
      bandedForceJacobian(F1, this.nodeAt(), kF, q, q1, u, this.fp, this.fm2, this.e, this.save);
      const w = 2 * kF + 1;
      for (let i = 0; i < n; i++) {
        const j0 = Math.max(0, i - kF);
        const j1 = Math.min(n - 1, i + kF);
        for (let j = j0; j <= j1; j++) {
          const v = (i === j ? mass[i]! : 0) - wgt * F1[i * w + j - i + kF]!;
          bordered.set(i, j, v);
        }
      }
    } else {
      fd.jacobian(undefined, F1, undefined, this.t, q, q1, u);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          bordered.set(i, j, (i === j ? mass[i]! : 0) - wgt * F1[i * n + j]!);
    }
    const band = ws.band;
    if (band !== null) {
      const { width: w, first } = band;
      const C = ws.Cband;
      for (let a = 0; a < m; a++) {
        const fa = first[a]!;
        const j1 = Math.min(n, fa + w);
        for (let j = Math.max(0, fa); j < j1; j++) {
          const c = C[a * w + j - fa]!;
          bordered.set(j, n + a, c);
          bordered.set(n + a, j, c);
        }
      }
    } else {
      const C = ws.C;
      for (let a = 0; a < m; a++)
        for (let j = 0; j < n; j++) {
          const c = C[a * n + j]!;
          bordered.set(j, n + a, c);
          bordered.set(n + a, j, c);
        }
    }
  }

  /**
   * Turns the unforced step just solved into the forced one: `qNext` (q_{k+1} = base + c h q̃)
   * and `ws` (q̃, λ, p_{k+1}) in, the forced q_{k+1}, q̃, λ and p_{k+1} = M q̃ + f_d⁺ out. Returns
   * the Newton iterations (0 when f_d⁻ vanishes at the unforced q_{k+1}).
   */
  solve(
    ws: DiracWorkspace,
    q: Float64Array,
    base: Float64Array,
    c: number,
    h: number,
    r: Float64Array | undefined,
    u: Float64Array,
    qNext: Float64Array,
    k: number,
  ): number {
    const { n, m, x } = this;
    const fd = this.discrete(h);
    this.residual = 0;
    const fm = this.fm;
    this.nodeAt().minus(fm, q, qNext, u);
    let moved = false;
    for (let i = 0; i < n; i++) if (fm[i] !== 0) moved = true;
    let iterations = 0;
    if (moved) {
      this.ch = c * h;
      this.ws = ws;
      this.q = q;
      this.base = base;
      this.r = r;
      this.u = u;
      this.fdNow = fd;
      for (let i = 0; i < n; i++) x[i] = ws.qt[i]!;
      for (let a = 0; a < m; a++) x[n + a] = ws.lambda[a]!;
      const res = this.solver!.solve(this.F, this.J, x, k);
      iterations = res.iterations;
      if (!res.converged)
        throw new NewtonDivergedError(iterations, res.residualNorm, k, 'forced Dirac step');
      this.residual = res.residualNorm;
      // the solver's last F was at the accepted x (no line search): q1 is its q_{k+1}
      const y = res.x;
      const mass = ws.mass;
      for (let i = 0; i < n; i++) {
        const v = y[i]!;
        ws.qt[i] = v;
        ws.pNext[i] = mass[i]! * v;
        qNext[i] = this.q1[i]!;
      }
      for (let a = 0; a < m; a++) ws.lambda[a] = y[n + a]!;
    }
    this.addPlus(ws, q, qNext, u, h);
    return iterations;
  }
}

/** Scratch of {@link DiracStepper.stepDerivatives} (allocated on its first call). */
interface DiracDerivativeScratch {
  readonly K: Float64Array;
  readonly lu: DenseLU;
  readonly HV: Float64Array;
  readonly DCl: Float64Array;
  readonly DCq: Float64Array;
  readonly DCd: Float64Array;
  readonly C: Float64Array;
  readonly Cp: Float64Array;
  readonly Fq0: Float64Array;
  readonly Fq1: Float64Array;
  readonly Fu: Float64Array;
  /** [h w⁻, h w⁺] of the force (0, 0 without one). */
  readonly fw: Float64Array;
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly q: Float64Array;
  readonly q1: Float64Array;
  readonly rhs: Float64Array;
  readonly col: Float64Array;
  /** M(q) kinetics of a system with `massMatrix` (its own LU; null for a constant mass). */
  readonly kin: MassMatrixKinetics | null;
  /** M(q_k) (diag(mass) for a constant mass). */
  readonly Mq: Float64Array;
  /** ∂g/∂v(q_k, q̃) (0 for a constant mass). */
  readonly Jg: Float64Array;
  /** ∂(M(q)q̃ − h g(q, q̃))/∂q and ∂(M(q)q̃)/∂q at q_k (M(q) only). */
  readonly DMg: Float64Array;
  readonly DMq: Float64Array;
  readonly mp: Float64Array;
  readonly mm: Float64Array;
  readonly gp: Float64Array;
  readonly gm: Float64Array;
}

function diracDerivativeScratch(
  sys: ConstrainedMechanicalSystem,
  mu: number,
): DiracDerivativeScratch {
  const { n, m } = sys;
  const s = n + m;
  const general = sys.massMatrix !== undefined;
  const g = general ? n : 0;
  return {
    kin: general ? new MassMatrixKinetics(sys, 'DiracStepper.stepDerivatives') : null,
    Mq: new Float64Array(n * n),
    Jg: new Float64Array(n * n),
    DMg: new Float64Array(g * n),
    DMq: new Float64Array(g * n),
    mp: new Float64Array(g),
    mm: new Float64Array(g),
    gp: new Float64Array(g),
    gm: new Float64Array(g),
    K: new Float64Array(s * s),
    lu: new DenseLU(s),
    HV: new Float64Array(n * n),
    DCl: new Float64Array(n * n),
    DCq: new Float64Array(m * n),
    DCd: new Float64Array(m * n),
    C: new Float64Array(m * n),
    Cp: new Float64Array(m * n),
    Fq0: new Float64Array(n * n),
    Fq1: new Float64Array(n * n),
    Fu: new Float64Array(Math.max(1, n * mu)),
    fw: new Float64Array(2),
    a: new Float64Array(n),
    b: new Float64Array(n),
    q: new Float64Array(n),
    q1: new Float64Array(n),
    rhs: new Float64Array(s),
    col: new Float64Array(s),
  };
}

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

/**
 * Options of {@link integrateDirac}: the stepper's options, the energy pairing, and core's
 * recording options (`every`, `onProgress`, `onFailure`, `maxRecordBytes`, `t0`, and `inputs`, the
 * control sequence u_0 … u_{steps−1} of a forced run, a flat `steps × force.m` array or a function
 * of (k, t); a time-dependent V and the force see t).
 */
export interface IntegrateDiracOptions
  extends Pick<DiracStepperOptions, 'force' | 'forceQuadrature' | 'tol' | 'maxIterations'>,
    IntegrateRecordingOptions {
  /** Default `'shifted'` for `'dirac-2'` (p_{k+1} is the centred velocity at t_k), else `'same'`. */
  readonly energyPairing?: EnergyPairing;
}

/** A Dirac trajectory: core's {@link Solution} of the {@link DiracSeries} and the energy pairing. */
export type DiracSolution = Solution<DiracSeries> & { readonly energyPairing: EnergyPairing };

/**
 * Runs a Dirac method for `steps` steps of size h > 0 (spec §10 driver) through core's
 * `integrate` over a {@link DiracStepper}: sample j holds t_k = k h, q_k, p_k, λ_k (the multiplier
 * of the step *from* t_k, i.e. the λ of (7) with ψ(q_k)), E_k (see {@link EnergyPairing}) and
 * φ(q_k) per constraint. λ (and the shifted energy) of the last sample come from a look-ahead
 * step (NaN and a warning when it fails). With `qPrev` the two-step methods start from it
 * instead of a Dirac-1 step.
 *
 * @throws {@link DomainError} for h ≤ 0 or bad options, {@link DimensionError} for wrong
 *   lengths, and the step's error (naming the step) when a step fails.
 * @example
 * ```ts
 * const sol = integrateDirac(pendulum({ m: 1, g: 9.81, l: 1 }), 'dirac-1',
 *   { q0: [Math.SQRT1_2, -Math.SQRT1_2], v0: [0, 0] }, 0.01, 1000, { every: 10 });
 * sol.last('constraint')[0]; // x² + y² − l² at t = 10 (≈ 0.2585, §7.3)
 * ```
 */
export function integrateDirac(
  sys: ConstrainedMechanicalSystem,
  method: DiracMethodName,
  init: DiracInitialData,
  h: number,
  steps: number,
  options: IntegrateDiracOptions = {},
): DiracSolution {
  if (!(h > 0 && Number.isFinite(h)))
    throw new DomainError('integrateDirac: h', h, 'must be positive and finite');
  const n = sys.n;
  const stepper = new DiracStepper(sys, method, {
    startup: init.qPrev === undefined ? 'dirac-1' : 'none',
    ...(options.energyPairing === undefined ? {} : { energyPairing: options.energyPairing }),
    ...(options.force === undefined ? {} : { force: options.force }),
    ...(options.forceQuadrature === undefined ? {} : { forceQuadrature: options.forceQuadrature }),
    ...(options.tol === undefined ? {} : { tol: options.tol }),
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
  });
  const p0 = new Float64Array(n);
  if ('p0' in init) {
    if (init.p0.length !== n) throw new DimensionError('integrateDirac: p0', n, init.p0.length);
    for (let i = 0; i < n; i++) p0[i] = init.p0[i]!;
  } else {
    if (init.v0.length !== n) throw new DimensionError('integrateDirac: v0', n, init.v0.length);
    if (sys.massMatrix !== undefined) {
      // p_0 = M(q_0) v_0
      if (init.q0.length !== n) throw new DimensionError('integrateDirac: q0', n, init.q0.length);
      const M = sys.massMatrix(new Float64Array(n * n), Float64Array.from(init.q0));
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += M[i * n + j]! * init.v0[j]!;
        p0[i] = s;
      }
    } else for (let i = 0; i < n; i++) p0[i] = sys.mass[i]! * init.v0[i]!;
  }
  if (init.q0.length !== n) throw new DimensionError('integrateDirac: q0', n, init.q0.length);
  const sol = integrate(stepper, stepper.initialState(init.q0, p0, init.qPrev), {
    h,
    steps,
    ...recordingOptions(options),
  });
  return extendSolution(sol, { energyPairing: stepper.energyPairing });
}
