/**
 * Worked examples of implicit Lagrangian systems with closed-form solutions (seed 002 §6–§7,
 * spec 002 §4 and §5.9): the vertical rolling disk (nonholonomic, regular L), the single-loop and
 * the 4-port L-C circuits (degenerate L, KCL constraints, primary constraints p_C = 0, and for the
 * 4-port a secondary constraint), the harmonic oscillator and Duinker's traditor (a Lagrangian
 * linear in the velocities).
 *
 * Every example gives a {@link Lagrangian} and a {@link Distribution} (the interfaces of
 * `types.ts`), the generalized energy E = ⟨p, v⟩ − L (Prop 6.5), the Lagrange multipliers of the
 * multiplier form (6.4), `ṗ = ∂L/∂q + A(q)ᵀμ`, with the paper's constraint one-forms and signs
 * (spec 002 §7 item 15), a closed-form solution curve (q, v, p, μ) with its analytic q̇ and ṗ, and
 * a hand-reduced ODE (`reducedRhs`) for cross-checks with an ODE solver. The closed forms are
 * [derived] in spec 002 §4: the paper gives the equations of motion, never their solutions.
 *
 * A solution curve satisfies the implicit Lagrange–d'Alembert equations (6.3)
 *
 *     p = ∂L/∂v,   q̇ = v,   A(q) v = 0,   ṗ − ∂L/∂q ∈ Δ°(q) = {A(q)ᵀμ},
 *
 * which the tests check directly on the closed forms.
 *
 * @module
 */
import { DomainError, type OdeRhs, SMALL_ANGLE } from '@geomech/core';
import type { Distribution, Lagrangian } from './types.js';

// ---------------------------------------------------------------------------------------------
// Shared shapes

/**
 * A point (q, v, p) of the Pontryagin bundle TQ ⊕ T*Q (seed 002 §4) together with the Lagrange
 * multipliers μ ∈ Rᵐ of (6.4).
 */
export interface ExampleState {
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly p: Float64Array;
  /** Multipliers μ of (6.4), ṗ − ∂L/∂q = A(q)ᵀμ (length m; empty without constraints). */
  readonly mu: Float64Array;
}

/**
 * A point of an exact solution curve at time t, with the analytic time derivatives q̇(t), ṗ(t)
 * (the components of the partial vector field X of Def 6.1 along the curve).
 */
export interface ExampleExactPoint extends ExampleState {
  readonly t: number;
  readonly qdot: Float64Array;
  readonly pdot: Float64Array;
}

/**
 * What every example of this module provides (spec 002 §5.9). `Init` holds the named initial data
 * (the `--init` names of CLI.md); a missing field takes its value from `defaultInit`.
 */
export interface ExampleSystem<Init extends object> {
  /** The system's name in CLI.md (`rolling-disk`, `lc-circuit`, ...). */
  readonly name: string;
  readonly lagrangian: Lagrangian;
  readonly distribution: Distribution;
  /** Initial data used when `init` (or one of its fields) is omitted. */
  readonly defaultInit: Readonly<Required<Init>>;
  /**
   * Generalized energy E(q, v, p) = ⟨p, v⟩ − L(q, v) (seed 002 §6, Prop 6.5); p defaults to
   * ∂L/∂v, which gives the energy ⟨∂L/∂v, v⟩ − L on TQ.
   */
  energy(q: Float64Array, v: Float64Array, p?: Float64Array): number;
  /** The value of E along the exact solution from `init` (conserved, Prop 6.5). */
  exactEnergy(init?: Init): number;
  /**
   * out ← μ(q, v) (length m), the multipliers of (6.4) on a solution through (q, v) with v ∈ Δ(q).
   */
  multipliers(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
  /** The exact solution at time t from `init` (spec 002 §4, [derived]). */
  exactSolution(t: number, init?: Init): ExampleExactPoint;
  /** Dimension of the state of {@link ExampleSystem.reducedRhs}. */
  readonly reducedDimension: number;
  /** The hand-reduced ODE y' = f(y) equivalent to (6.4) on the constraint manifold. */
  readonly reducedRhs: OdeRhs;
  /** The reduced state of `init`. */
  reducedInitialState(init?: Init): Float64Array;
  /** The point (q, v, p, μ) of (6.4) that a reduced state y stands for. */
  stateFromReduced(y: ArrayLike<number>): ExampleState;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function requirePositive(what: string, x: number): number {
  if (!(Number.isFinite(x) && x > 0)) throw new DomainError(what, x, 'must be finite and positive');
  return x;
}

function requireFinite(what: string, x: number): number {
  if (!Number.isFinite(x)) throw new DomainError(what, x, 'must be finite');
  return x;
}

function requireNonzero(what: string, x: number): number {
  if (!(Number.isFinite(x) && x !== 0))
    throw new DomainError(what, x, 'must be finite and nonzero');
  return x;
}

/** Fills in the defaults of an initial-data object and checks that every value is finite. */
function withDefaults<Init extends object>(
  system: string,
  defaults: Readonly<Required<Init>>,
  init: Init | undefined,
): Required<Init> {
  const out = { ...defaults, ...(init ?? {}) } as Required<Init>;
  for (const [k, val] of Object.entries(out)) requireFinite(`${system}: init.${k}`, val as number);
  return out;
}

/** sin x / x, with its Taylor series below {@link SMALL_ANGLE} (error O(x⁶)). */
function sinc(x: number): number {
  if (Math.abs(x) < SMALL_ANGLE) {
    const x2 = x * x;
    return 1 - (x2 / 6) * (1 - x2 / 20);
  }
  return Math.sin(x) / x;
}

/** E = ⟨p, v⟩ − L(q, v), p = ∂L/∂v unless given (seed 002 §6, Prop 6.5). */
function generalizedEnergyOf(
  lag: Lagrangian,
  q: Float64Array,
  v: Float64Array,
  p: Float64Array | undefined,
): number {
  const mom = p ?? lag.Lv(new Float64Array(lag.n), q, v);
  let s = 0;
  for (let i = 0; i < lag.n; i++) s += mom[i]! * v[i]!;
  return s - lag.L(q, v);
}

/**
 * The flow of ẍ = −ω²x at time t from (x₀, ẋ₀): x = x₀ cos ωt + (ẋ₀/ω) sin ωt,
 * ẋ = −x₀ω sin ωt + ẋ₀ cos ωt (the closed forms of {@link simpleLC} and {@link harmonicOscillator}).
 */
function harmonicFlow(x0: number, v0: number, omega: number, t: number): [x: number, v: number] {
  const co = Math.cos(omega * t);
  const si = Math.sin(omega * t);
  return [x0 * co + (v0 / omega) * si, -x0 * omega * si + v0 * co];
}

/** Δ_Q = TQ: no constraint one-forms (m = 0), G = I (seed 002 §6, case Δ_Q = TQ). */
function fullTangentDistribution(n: number): Distribution {
  return {
    n,
    m: 0,
    A: (out) => out,
    Adot: (out) => out,
    G: (out) => {
      out.fill(0);
      for (let i = 0; i < n; i++) out[i * n + i] = 1;
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// §7 vertical rolling disk

/** Parameters of {@link verticalRollingDisk} (CLI.md `rolling-disk`; defaults 1, 1, 1, 1, 0, 0, 0). */
export interface RollingDiskParams {
  /** Mass m > 0. */
  readonly m?: number;
  /** Radius R > 0. */
  readonly R?: number;
  /** Moment of inertia I > 0 about the axle (for the rolling angle θ). */
  readonly I?: number;
  /** Moment of inertia J > 0 about the vertical axis (for the heading angle φ). */
  readonly J?: number;
  /** Potential coefficient a of V = a(1 − cos φ) + ½bθ² + ½c(x² + y²). */
  readonly a?: number;
  /** Potential coefficient b (see `a`). */
  readonly b?: number;
  /** Potential coefficient c (see `a`). */
  readonly c?: number;
}

/**
 * Initial data of the rolling disk (CLI.md names; defaults x = y = θ = φ = 0, θ̇ = φ̇ = 1). The
 * velocities (ẋ, ẏ) follow from the rolling constraints, so only θ̇ = Ω and φ̇ = ω are free
 * (spec 002 §4.1, consistent initial data).
 */
export interface RollingDiskInit {
  readonly x?: number;
  readonly y?: number;
  readonly theta?: number;
  readonly phi?: number;
  /** Rolling rate θ̇(0) = Ω. */
  readonly thetaDot?: number;
  /** Heading rate φ̇(0) = ω. */
  readonly phiDot?: number;
}

/** The vertical rolling disk of {@link verticalRollingDisk}. */
export interface VerticalRollingDisk extends ExampleSystem<RollingDiskInit> {
  readonly params: Readonly<Required<RollingDiskParams>>;
  /** True when a = b = c = 0; the closed form `exactSolution` exists only then. */
  readonly isFree: boolean;
  /** V(q) = a(1 − cos φ) + ½bθ² + ½c(x² + y²). */
  potential(q: Float64Array): number;
  /**
   * The circle traced by the contact point of the free disk: radius R|Ω/ω| and centre
   * (x₀ − (RΩ/ω) sin φ₀, y₀ + (RΩ/ω) cos φ₀) (spec 002 §4.1). For ω = 0 the contact point moves
   * on a straight line: radius ∞ and `center` null.
   */
  circle(init?: RollingDiskInit): { radius: number; center: [number, number] | null };
}

/**
 * The vertical rolling disk of seed 002 §7 (spec 002 §4.1), with the optional potential of
 * CLI.md `rolling-disk`.
 *
 * - Q = R² × S¹ × S¹, q = (x, y, θ, φ): (x, y) the contact point, θ the rolling angle about the
 *   axle, φ the heading angle. The paper and CLI.md use the same naming; angles are not wrapped.
 * - L = ½m(v_x² + v_y²) + ½I v_θ² + ½J v_φ² − V, V = a(1 − cos φ) + ½bθ² + ½c(x² + y²); the
 *   paper's Lagrangian is the free case a = b = c = 0.
 * - Rolling without slipping ẋ = R cos φ θ̇, ẏ = R sin φ θ̇: the one-forms
 *   ω¹ = dx − R cos φ dθ, ω² = dy − R sin φ dθ, A(q) = [[1, 0, −R cos φ, 0], [0, 1, −R sin φ, 0]],
 *   and the basis G(q) = [∂/∂φ, R cos φ ∂/∂x + R sin φ ∂/∂y + ∂/∂θ] of Δ_Q (4×2).
 * - Multipliers (6.4), ṗ − ∂L/∂q = A(q)ᵀμ, on a solution with v ∈ Δ:
 *   (I + mR²) v̇_θ = −bθ − cR(x cos φ + y sin φ), J v̇_φ = −a sin φ,
 *   μ₁ = mR(cos φ v̇_θ − sin φ v_φ v_θ) + c x, μ₂ = mR(sin φ v̇_θ + cos φ v_φ v_θ) + c y;
 *   in the free case μ₁ = −mRΩω sin φ, μ₂ = mRΩω cos φ.
 * - Free closed form: θ = θ₀ + Ωt, φ = φ₀ + ωt, x = x₀ + (RΩ/ω)(sin φ − sin φ₀),
 *   y = y₀ − (RΩ/ω)(cos φ − cos φ₀) (evaluated through sin(ωt/2)/(ωt/2), uniformly in ω → 0),
 *   p = (mRΩ cos φ, mRΩ sin φ, IΩ, Jω), E = ½(mR² + I)Ω² + ½Jω² + V.
 * - Reduced ODE, y = (x, y, θ, φ, v_θ, v_φ): ẋ = R cos φ v_θ, ẏ = R sin φ v_θ, θ̇ = v_θ, φ̇ = v_φ
 *   and the two accelerations above.
 *
 * Throws {@link DomainError} for non-positive m, R, I, J or non-finite a, b, c.
 *
 * @example
 * ```ts
 * const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 });
 * const s = disk.exactSolution(1.5, { thetaDot: 2, phiDot: 0.5 });
 * s.mu; // [−mRΩω sin φ, mRΩω cos φ] with φ = 0.75
 * disk.circle({ thetaDot: 2, phiDot: 0.5 }).radius; // R|Ω/ω| = 2
 * ```
 */
export function verticalRollingDisk(params: RollingDiskParams = {}): VerticalRollingDisk {
  const name = 'rolling-disk';
  const m = requirePositive(`${name}: m`, params.m ?? 1);
  const R = requirePositive(`${name}: R`, params.R ?? 1);
  const I = requirePositive(`${name}: I`, params.I ?? 1);
  const J = requirePositive(`${name}: J`, params.J ?? 1);
  const a = requireFinite(`${name}: a`, params.a ?? 0);
  const b = requireFinite(`${name}: b`, params.b ?? 0);
  const c = requireFinite(`${name}: c`, params.c ?? 0);
  const isFree = a === 0 && b === 0 && c === 0;
  const defaultInit: Readonly<Required<RollingDiskInit>> = Object.freeze({
    x: 0,
    y: 0,
    theta: 0,
    phi: 0,
    thetaDot: 1,
    phiDot: 1,
  });
  const Itot = I + m * R * R;

  const potential = (q: Float64Array): number => {
    const x = q[0]!;
    const y = q[1]!;
    const th = q[2]!;
    return a * (1 - Math.cos(q[3]!)) + 0.5 * b * th * th + 0.5 * c * (x * x + y * y);
  };

  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 4,
    L: (q, v) =>
      0.5 * m * (v[0]! * v[0]! + v[1]! * v[1]!) +
      0.5 * I * v[2]! * v[2]! +
      0.5 * J * v[3]! * v[3]! -
      potential(q),
    Lq: (out, q) => {
      out[0] = -c * q[0]!;
      out[1] = -c * q[1]!;
      out[2] = -b * q[2]!;
      out[3] = -a * Math.sin(q[3]!);
      return out;
    },
    Lv: (out, _q, v) => {
      out[0] = m * v[0]!;
      out[1] = m * v[1]!;
      out[2] = I * v[2]!;
      out[3] = J * v[3]!;
      return out;
    },
    // loops, not fill: a builtin call per evaluation costs more than the stores
    Lvv: (out) => {
      for (let i = 0; i < 16; i++) out[i] = 0;
      out[0] = m;
      out[5] = m;
      out[10] = I;
      out[15] = J;
      return out;
    },
    Lvq: (out) => {
      for (let i = 0; i < 16; i++) out[i] = 0;
      return out;
    },
  };

  const distribution: Distribution = {
    n: 4,
    m: 2,
    // ω¹ = dx − R cos φ dθ, ω² = dy − R sin φ dθ (seed 002 §7)
    A: (out, q) => {
      const cp = Math.cos(q[3]!);
      const sp = Math.sin(q[3]!);
      for (let i = 0; i < 8; i++) out[i] = 0;
      out[0] = 1;
      out[2] = -R * cp;
      out[5] = 1;
      out[6] = -R * sp;
      return out;
    },
    // Σ_k ∂A/∂qᵏ vᵏ = v_φ ∂A/∂φ
    Adot: (out, q, v) => {
      const cp = Math.cos(q[3]!);
      const sp = Math.sin(q[3]!);
      const w = v[3]!;
      for (let i = 0; i < 8; i++) out[i] = 0;
      out[2] = R * sp * w;
      out[6] = -R * cp * w;
      return out;
    },
    // ∂(A(q)w)/∂q: only ∂/∂φ is nonzero, (R sin φ w_θ, −R cos φ w_θ) in column φ
    dAw: (out, q, w) => {
      const cp = Math.cos(q[3]!);
      const sp = Math.sin(q[3]!);
      for (let i = 0; i < 8; i++) out[i] = 0;
      out[3] = R * sp * w[2]!;
      out[7] = -R * cp * w[2]!;
      return out;
    },
    // columns ∂/∂φ and R cos φ ∂/∂x + R sin φ ∂/∂y + ∂/∂θ (spec 002 §4.1)
    G: (out, q) => {
      const cp = Math.cos(q[3]!);
      const sp = Math.sin(q[3]!);
      out.fill(0);
      out[1] = R * cp;
      out[3] = R * sp;
      out[5] = 1;
      out[6] = 1;
      return out;
    },
  };

  /** (v̇_θ, v̇_φ) of the reduced dynamics at (q, v_θ). */
  const thetaAccel = (q: ArrayLike<number>): number =>
    (-b * q[2]! - c * R * (q[0]! * Math.cos(q[3]!) + q[1]! * Math.sin(q[3]!))) / Itot;
  const phiAccel = (q: ArrayLike<number>): number => (-a * Math.sin(q[3]!)) / J;

  const multipliers = (out: Float64Array, q: Float64Array, v: Float64Array): Float64Array => {
    const cp = Math.cos(q[3]!);
    const sp = Math.sin(q[3]!);
    const vt = v[2]!;
    const vp = v[3]!;
    const at = thetaAccel(q);
    out[0] = m * R * (cp * at - sp * vp * vt) + c * q[0]!;
    out[1] = m * R * (sp * at + cp * vp * vt) + c * q[1]!;
    return out;
  };

  const stateFromReduced = (y: ArrayLike<number>): ExampleState => {
    const q = Float64Array.of(y[0]!, y[1]!, y[2]!, y[3]!);
    const vt = y[4]!;
    const v = Float64Array.of(R * Math.cos(q[3]!) * vt, R * Math.sin(q[3]!) * vt, vt, y[5]!);
    const p = lagrangian.Lv(new Float64Array(4), q, v);
    const mu = multipliers(new Float64Array(2), q, v);
    return { q, v, p, mu };
  };

  return {
    name,
    params: Object.freeze({ m, R, I, J, a, b, c }),
    isFree,
    lagrangian,
    distribution,
    defaultInit,
    potential,
    energy: (q, v, p) => generalizedEnergyOf(lagrangian, q, v, p),
    exactEnergy: (init) => {
      const s = withDefaults(name, defaultInit, init);
      const q0 = Float64Array.of(s.x, s.y, s.theta, s.phi);
      return 0.5 * Itot * s.thetaDot ** 2 + 0.5 * J * s.phiDot ** 2 + potential(q0);
    },
    multipliers,
    circle: (init) => {
      const s = withDefaults(name, defaultInit, init);
      if (s.phiDot === 0) return { radius: Number.POSITIVE_INFINITY, center: null };
      const r = (R * s.thetaDot) / s.phiDot;
      return {
        radius: Math.abs(r),
        center: [s.x - r * Math.sin(s.phi), s.y + r * Math.cos(s.phi)],
      };
    },
    exactSolution: (t, init) => {
      if (!isFree) {
        throw new DomainError(
          `${name}: exactSolution`,
          `a = ${a}, b = ${b}, c = ${c}`,
          'needs the free disk a = b = c = 0 (integrate reducedRhs otherwise)',
        );
      }
      requireFinite(`${name}: t`, t);
      const s = withDefaults(name, defaultInit, init);
      const Om = s.thetaDot;
      const om = s.phiDot;
      const phi = s.phi + om * t;
      const cp = Math.cos(phi);
      const sp = Math.sin(phi);
      // (sin φ − sin φ₀)/ω = t·cos(φ₀ + ωt/2)·sinc(ωt/2), −(cos φ − cos φ₀)/ω = t·sin(…)·sinc(…)
      const h = 0.5 * om * t;
      const arc = R * Om * t * sinc(h);
      const q = Float64Array.of(
        s.x + arc * Math.cos(s.phi + h),
        s.y + arc * Math.sin(s.phi + h),
        s.theta + Om * t,
        phi,
      );
      const v = Float64Array.of(R * Om * cp, R * Om * sp, Om, om);
      const p = Float64Array.of(m * R * Om * cp, m * R * Om * sp, I * Om, J * om);
      const mu = Float64Array.of(-m * R * Om * om * sp, m * R * Om * om * cp);
      const qdot = Float64Array.of(R * Om * cp, R * Om * sp, Om, om);
      const pdot = Float64Array.of(mu[0]!, mu[1]!, 0, 0);
      return { t, q, v, p, mu, qdot, pdot };
    },
    reducedDimension: 6,
    reducedRhs: (out, _t, y) => {
      const vt = y[4]!;
      out[0] = R * Math.cos(y[3]!) * vt;
      out[1] = R * Math.sin(y[3]!) * vt;
      out[2] = vt;
      out[3] = y[5]!;
      out[4] = thetaAccel(y);
      out[5] = phiAccel(y);
    },
    reducedInitialState: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return Float64Array.of(s.x, s.y, s.theta, s.phi, s.thetaDot, s.phiDot);
    },
    stateFromReduced,
  };
}

// ---------------------------------------------------------------------------------------------
// Single-loop L-C circuit (spec 002 §4.2, "simplest sanity case")

/** Parameters of {@link simpleLC} (CLI.md `lc-circuit`; defaults L = 2, C = 0.125). */
export interface SimpleLCParams {
  /** Inductance L > 0. */
  readonly L?: number;
  /** Capacitance C > 0. */
  readonly C?: number;
}

/** Initial data of {@link simpleLC} (CLI.md: qC = 1, fL = 0; qL = 0). */
export interface SimpleLCInit {
  readonly qL?: number;
  readonly qC?: number;
  /** Loop current f_L(0) = f_C(0). */
  readonly fL?: number;
}

/** The single-loop L-C circuit of {@link simpleLC}. */
export interface SimpleLC extends ExampleSystem<SimpleLCInit> {
  readonly params: Readonly<Required<SimpleLCParams>>;
  /** ω = 1/√(LC). */
  readonly omega: number;
  /** The KCL matrix A = [[−1, 1]] (1×2, row-major), Δ = ker A. */
  readonly kcl: Float64Array;
  /** out ← e = A(q)ᵀμ(q) = (−q_C/C, q_C/C), the branch voltages (Δ°, Thm 3.1); ⟨e, f⟩ = 0 on Δ. */
  branchVoltages(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← p_C, the primary constraint of 𝔽L (length 1; zero on P = 𝔽L(Δ)). */
  primaryConstraints(out: Float64Array, q: Float64Array, p: Float64Array): Float64Array;
}

/**
 * A single L-C loop (spec 002 §4.2, simplest sanity case; CLI.md `lc-circuit`): Q = R², charges
 * q = (q_L, q_C), currents f = (f_L, f_C), 𝓛 = ½L f_L² − q_C²/(2C), KCL −f_L + f_C = 0.
 *
 * - Degenerate: ∂²𝓛/∂f² = diag(L, 0) (rank 1), primary constraint p_C = 0.
 * - (6.4) gives ṗ_L = −μ, 0 = −q_C/C + μ, so μ = q_C/C and L q̈_C = −q_C/C, ω = 1/√(LC)
 *   (L = 2, C = 0.125: ω = 2).
 * - Closed form: q_C = q_C0 cos ωt + (f_L0/ω) sin ωt, f_L = f_C = q̇_C, q_L = q_L0 + q_C − q_C0,
 *   p = (L f_L, 0), E = ½L f_L² + q_C²/(2C).
 * - Reduced ODE, y = (q_L, q_C, f_L): q̇_L = f_L, q̇_C = f_L, ḟ_L = −q_C/(LC).
 *
 * @example
 * ```ts
 * const lc = simpleLC();                 // L = 2, C = 0.125
 * lc.omega;                              // 2
 * lc.exactSolution(Math.PI / 4).q[1];   // q_C = cos(π/2) ≈ 0
 * ```
 */
export function simpleLC(params: SimpleLCParams = {}): SimpleLC {
  const name = 'lc-circuit';
  const Lind = requirePositive(`${name}: L`, params.L ?? 2);
  const C = requirePositive(`${name}: C`, params.C ?? 0.125);
  const omega = 1 / Math.sqrt(Lind * C);
  const defaultInit: Readonly<Required<SimpleLCInit>> = Object.freeze({ qL: 0, qC: 1, fL: 0 });

  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 2,
    L: (q, v) => 0.5 * Lind * v[0]! * v[0]! - (q[1]! * q[1]!) / (2 * C),
    Lq: (out, q) => {
      out[0] = 0;
      out[1] = -q[1]! / C;
      return out;
    },
    Lv: (out, _q, v) => {
      out[0] = Lind * v[0]!;
      out[1] = 0;
      return out;
    },
    Lvv: (out) => {
      out.fill(0);
      out[0] = Lind;
      return out;
    },
    Lvq: (out) => out.fill(0),
  };
  const distribution: Distribution = {
    n: 2,
    m: 1,
    A: (out) => {
      out[0] = -1;
      out[1] = 1;
      return out;
    },
    Adot: (out) => out.fill(0),
    G: (out) => {
      out[0] = 1;
      out[1] = 1;
      return out;
    },
  };
  const multipliers = (out: Float64Array, q: Float64Array): Float64Array => {
    out[0] = q[1]! / C;
    return out;
  };
  const stateOf = (qL: number, qC: number, fL: number): ExampleState => ({
    q: Float64Array.of(qL, qC),
    v: Float64Array.of(fL, fL),
    p: Float64Array.of(Lind * fL, 0),
    mu: Float64Array.of(qC / C),
  });

  return {
    name,
    params: Object.freeze({ L: Lind, C }),
    omega,
    kcl: Float64Array.of(-1, 1),
    lagrangian,
    distribution,
    defaultInit,
    energy: (q, v, p) => generalizedEnergyOf(lagrangian, q, v, p),
    exactEnergy: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return 0.5 * Lind * s.fL * s.fL + (s.qC * s.qC) / (2 * C);
    },
    multipliers,
    branchVoltages: (out, q) => {
      out[0] = -q[1]! / C;
      out[1] = q[1]! / C;
      return out;
    },
    primaryConstraints: (out, _q, p) => {
      out[0] = p[1]!;
      return out;
    },
    exactSolution: (t, init) => {
      requireFinite(`${name}: t`, t);
      const s = withDefaults(name, defaultInit, init);
      const [qC, fL] = harmonicFlow(s.qC, s.fL, omega, t);
      const st = stateOf(s.qL + (qC - s.qC), qC, fL);
      // ḟ_L = −ω² q_C, so ṗ_L = L ḟ_L = −q_C/C
      return { t, ...st, qdot: Float64Array.of(fL, fL), pdot: Float64Array.of(-qC / C, 0) };
    },
    reducedDimension: 3,
    reducedRhs: (out, _t, y) => {
      out[0] = y[2]!;
      out[1] = y[2]!;
      out[2] = -y[1]! / (Lind * C);
    },
    reducedInitialState: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return Float64Array.of(s.qL, s.qC, s.fL);
    },
    stateFromReduced: (y) => stateOf(y[0]!, y[1]!, y[2]!),
  };
}

// ---------------------------------------------------------------------------------------------
// 4-port L-C circuit (seed 002 §7, spec 002 §4.2)

/** Parameters of {@link lcCircuit4} (CLI.md `lc-circuit-4`; defaults 0.7, 0.3, 0.5, 0.9). */
export interface LcCircuit4Params {
  readonly L?: number;
  readonly C1?: number;
  readonly C2?: number;
  readonly C3?: number;
}

/**
 * Initial data of {@link lcCircuit4} (CLI.md: qC1 = 0.3, qC2 = 0, fL = 0; qL = 0). q_C3 follows
 * from the secondary constraint q_C1/C1 = q_C3/C3 and the capacitor currents from KCL and its
 * derivative (see {@link LcCircuit4.consistentInitialData}).
 */
export interface LcCircuit4Init {
  readonly qL?: number;
  readonly qC1?: number;
  readonly qC2?: number;
  readonly fL?: number;
}

/** The 4-port L-C circuit of {@link lcCircuit4}. */
export interface LcCircuit4 extends ExampleSystem<LcCircuit4Init> {
  readonly params: Readonly<Required<LcCircuit4Params>>;
  /** ω_LC = √((1/L)(1/C2 + 1/(C1 + C3))) = 1/√(L·C_eq). */
  readonly omegaLC: number;
  /** C_eq = C2(C1 + C3)/(C1 + C2 + C3): C2 in series with C1 ∥ C3. */
  readonly Ceq: number;
  /** The KCL matrix (7.2), rows ω¹ = (−1, 0, 1, 0), ω² = (0, −1, 1, −1) (2×4, row-major). */
  readonly kcl: Float64Array;
  /** out ← e = A ᵀμ(q), the branch voltages (Δ°, Thm 3.1); ⟨e, f⟩ = 0 on Δ (Cor 3.2). */
  branchVoltages(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← (p_C1, p_C2, p_C3), the primary constraints of 𝔽𝓛 (zero on P = 𝔽𝓛(Δ)). */
  primaryConstraints(out: Float64Array, q: Float64Array, p: Float64Array): Float64Array;
  /** The secondary constraint q_C1/C1 − q_C3/C3 (zero on every solution). */
  secondaryConstraint(q: Float64Array): number;
  /**
   * A point (q, f, p, μ) consistent with every constraint: q_C3 = C3·q_C1/C1,
   * f = (f_L, C1/(C1+C3) f_L, f_L, C3/(C1+C3) f_L), p = (L f_L, 0, 0, 0), μ from (6.4).
   */
  consistentInitialData(qC1: number, qC2: number, fL: number, qL?: number): ExampleState;
}

/**
 * The L-C circuit of seed 002 §7 (spec 002 §4.2; CLI.md `lc-circuit-4`). Charges
 * q = (q_L, q_C1, q_C2, q_C3), currents f, flux linkages p.
 *
 * - 𝓛 = ½L f_L² − ½q_C1²/C1 − ½q_C2²/C2 − ½q_C3²/C3 (7.1), degenerate: ∂²𝓛/∂f² = diag(L, 0, 0, 0),
 *   primary constraints p_C1 = p_C2 = p_C3 = 0.
 * - KCL (7.2): −f_L + f_C2 = 0, −f_C1 + f_C2 − f_C3 = 0; loops g₁ = (1, 1, 1, 0), g₂ = (1, 0, 1, 1)
 *   span Δ. The topology (Fig. 7.1 is missing): L in series with C2 and with C1 ∥ C3.
 * - (6.4): ṗ_L = −μ₁, μ₂ = −q_C1/C1 = −q_C3/C3, μ₁ = q_C1/C1 + q_C2/C2. The two expressions for μ₂
 *   give the secondary constraint q_C1/C1 = q_C3/C3 (not remarked on in the paper); `multipliers`
 *   uses μ₂ = −q_C1/C1 as spec 002 §4.2 does.
 * - With u = q_C1/C1 + q_C2/C2: L ḟ_L = −u, u̇ = f_L/C_eq, ω_LC = 1/√(L C_eq)
 *   (L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9: ω_LC = 2.0118695404…).
 * - Closed form: f_L = f_L0 cos ωt − (u₀/(Lω)) sin ωt, s = ∫₀ᵗ f_L = (f_L0/ω) sin ωt −
 *   (u₀/(Lω²))(1 − cos ωt), q_L = q_L0 + s, q_C2 = q_C20 + s, q_C1 = q_C10 + C1/(C1+C3)·s,
 *   q_C3 = q_C30 + C3/(C1+C3)·s; E = ½L f_L² + V(q).
 * - Reduced ODE, y = (q_L, q_C1, q_C2, q_C3, f_L): q̇ = (f_L, C1/(C1+C3) f_L, f_L, C3/(C1+C3) f_L),
 *   ḟ_L = −(q_C1/C1 + q_C2/C2)/L.
 *
 * @example
 * ```ts
 * const lc = lcCircuit4();                   // L = 0.7, C1 = 0.3, C2 = 0.5, C3 = 0.9
 * lc.omegaLC;                                // 2.0118695404…
 * const s = lc.exactSolution(1.2);           // from qC1 = 0.3, qC2 = 0, fL = 0
 * lc.secondaryConstraint(s.q);               // ≈ 0
 * ```
 */
export function lcCircuit4(params: LcCircuit4Params = {}): LcCircuit4 {
  const name = 'lc-circuit-4';
  const Lind = requirePositive(`${name}: L`, params.L ?? 0.7);
  const C1 = requirePositive(`${name}: C1`, params.C1 ?? 0.3);
  const C2 = requirePositive(`${name}: C2`, params.C2 ?? 0.5);
  const C3 = requirePositive(`${name}: C3`, params.C3 ?? 0.9);
  const C13 = C1 + C3;
  const Ceq = (C2 * C13) / (C1 + C2 + C3);
  const omegaLC = Math.sqrt((1 / Lind) * (1 / C2 + 1 / C13));
  const r1 = C1 / C13;
  const r3 = C3 / C13;
  const defaultInit: Readonly<Required<LcCircuit4Init>> = Object.freeze({
    qL: 0,
    qC1: 0.3,
    qC2: 0,
    fL: 0,
  });
  const kcl = Float64Array.of(-1, 0, 1, 0, 0, -1, 1, -1);

  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 4,
    L: (q, v) =>
      0.5 * Lind * v[0]! * v[0]! -
      (0.5 * q[1]! * q[1]!) / C1 -
      (0.5 * q[2]! * q[2]!) / C2 -
      (0.5 * q[3]! * q[3]!) / C3,
    Lq: (out, q) => {
      out[0] = 0;
      out[1] = -q[1]! / C1;
      out[2] = -q[2]! / C2;
      out[3] = -q[3]! / C3;
      return out;
    },
    Lv: (out, _q, v) => {
      out.fill(0);
      out[0] = Lind * v[0]!;
      return out;
    },
    Lvv: (out) => {
      out.fill(0);
      out[0] = Lind;
      return out;
    },
    Lvq: (out) => out.fill(0),
  };
  const distribution: Distribution = {
    n: 4,
    m: 2,
    A: (out) => {
      out.set(kcl);
      return out;
    },
    Adot: (out) => out.fill(0),
    // columns g₁ = (1, 1, 1, 0), g₂ = (1, 0, 1, 1)
    G: (out) => {
      out.set([1, 1, 1, 0, 1, 1, 0, 1]); // rows k = L, C1, C2, C3
      return out;
    },
  };
  const multipliers = (out: Float64Array, q: Float64Array): Float64Array => {
    out[0] = q[1]! / C1 + q[2]! / C2;
    out[1] = -q[1]! / C1;
    return out;
  };
  const stateOf = (q: Float64Array, fL: number): ExampleState => ({
    q,
    v: Float64Array.of(fL, r1 * fL, fL, r3 * fL),
    p: Float64Array.of(Lind * fL, 0, 0, 0),
    mu: multipliers(new Float64Array(2), q),
  });
  const consistentInitialData = (qC1: number, qC2: number, fL: number, qL = 0): ExampleState => {
    requireFinite(`${name}: qC1`, qC1);
    requireFinite(`${name}: qC2`, qC2);
    requireFinite(`${name}: fL`, fL);
    requireFinite(`${name}: qL`, qL);
    return stateOf(Float64Array.of(qL, qC1, qC2, (C3 * qC1) / C1), fL);
  };

  return {
    name,
    params: Object.freeze({ L: Lind, C1, C2, C3 }),
    omegaLC,
    Ceq,
    kcl,
    lagrangian,
    distribution,
    defaultInit,
    energy: (q, v, p) => generalizedEnergyOf(lagrangian, q, v, p),
    exactEnergy: (init) => {
      const s = withDefaults(name, defaultInit, init);
      const st = consistentInitialData(s.qC1, s.qC2, s.fL, s.qL);
      return generalizedEnergyOf(lagrangian, st.q, st.v, st.p);
    },
    multipliers,
    branchVoltages: (out, q) => {
      const mu1 = q[1]! / C1 + q[2]! / C2;
      const mu2 = -q[1]! / C1;
      // e = Aᵀμ = (−μ₁, −μ₂, μ₁ + μ₂, −μ₂)
      out[0] = -mu1;
      out[1] = -mu2;
      out[2] = mu1 + mu2;
      out[3] = -mu2;
      return out;
    },
    primaryConstraints: (out, _q, p) => {
      out[0] = p[1]!;
      out[1] = p[2]!;
      out[2] = p[3]!;
      return out;
    },
    secondaryConstraint: (q) => q[1]! / C1 - q[3]! / C3,
    consistentInitialData,
    exactSolution: (t, init) => {
      requireFinite(`${name}: t`, t);
      const s = withDefaults(name, defaultInit, init);
      const w = omegaLC;
      const u0 = s.qC1 / C1 + s.qC2 / C2;
      const co = Math.cos(w * t);
      const si = Math.sin(w * t);
      const sh = Math.sin(0.5 * w * t);
      const fL = s.fL * co - (u0 / (Lind * w)) * si;
      // s(t) = ∫₀ᵗ f_L, with 1 − cos ωt = 2 sin²(ωt/2)
      const arc = (s.fL / w) * si - (u0 / (Lind * w * w)) * 2 * sh * sh;
      const q = Float64Array.of(
        s.qL + arc,
        s.qC1 + r1 * arc,
        s.qC2 + arc,
        (C3 * s.qC1) / C1 + r3 * arc,
      );
      const st = stateOf(q, fL);
      // ṗ_L = L ḟ_L = −u(t) = −μ₁
      return {
        t,
        ...st,
        qdot: Float64Array.from(st.v),
        pdot: Float64Array.of(-st.mu[0]!, 0, 0, 0),
      };
    },
    reducedDimension: 5,
    reducedRhs: (out, _t, y) => {
      const fL = y[4]!;
      out[0] = fL;
      out[1] = r1 * fL;
      out[2] = fL;
      out[3] = r3 * fL;
      out[4] = -(y[1]! / C1 + y[2]! / C2) / Lind;
    },
    reducedInitialState: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return Float64Array.of(s.qL, s.qC1, s.qC2, (C3 * s.qC1) / C1, s.fL);
    },
    stateFromReduced: (y) => stateOf(Float64Array.of(y[0]!, y[1]!, y[2]!, y[3]!), y[4]!),
  };
}

// ---------------------------------------------------------------------------------------------
// Harmonic oscillator (spec 002 §4.4)

/** Parameters of {@link harmonicOscillator} (defaults m = k = 1). */
export interface HarmonicOscillatorParams {
  readonly m?: number;
  readonly k?: number;
}

/** Initial data of {@link harmonicOscillator} (defaults q = 1, v = 0). */
export interface HarmonicOscillatorInit {
  readonly q?: number;
  readonly v?: number;
}

/** The harmonic oscillator of {@link harmonicOscillator}. */
export interface HarmonicOscillator extends ExampleSystem<HarmonicOscillatorInit> {
  readonly params: Readonly<Required<HarmonicOscillatorParams>>;
  /** ω = √(k/m). */
  readonly omega: number;
}

/**
 * The harmonic oscillator L = ½m v² − ½k q² on Q = R with Δ_Q = TQ (spec 002 §4.4): (6.3) is
 * p = m v, q̇ = v, ṗ = −k q (seed 002 §6, case Δ_Q = TQ; no multipliers, m = 0).
 * Closed form q = q₀ cos ωt + (v₀/ω) sin ωt, ω = √(k/m), E = ½m v² + ½k q².
 * Reduced ODE, y = (q, v): q̇ = v, v̇ = −ω² q.
 *
 * @example
 * ```ts
 * const ho = harmonicOscillator({ m: 2, k: 8 });
 * ho.omega;                                   // 2
 * ho.exactSolution(Math.PI / 2, { q: 1 }).q;  // [cos π] = [−1]
 * ```
 */
export function harmonicOscillator(params: HarmonicOscillatorParams = {}): HarmonicOscillator {
  const name = 'harmonic-oscillator';
  const m = requirePositive(`${name}: m`, params.m ?? 1);
  const k = requirePositive(`${name}: k`, params.k ?? 1);
  const omega = Math.sqrt(k / m);
  const defaultInit: Readonly<Required<HarmonicOscillatorInit>> = Object.freeze({ q: 1, v: 0 });
  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 1,
    L: (q, v) => 0.5 * m * v[0]! * v[0]! - 0.5 * k * q[0]! * q[0]!,
    Lq: (out, q) => {
      out[0] = -k * q[0]!;
      return out;
    },
    Lv: (out, _q, v) => {
      out[0] = m * v[0]!;
      return out;
    },
    Lvv: (out) => {
      out[0] = m;
      return out;
    },
    Lvq: (out) => {
      out[0] = 0;
      return out;
    },
  };
  const stateOf = (q: number, v: number): ExampleState => ({
    q: Float64Array.of(q),
    v: Float64Array.of(v),
    p: Float64Array.of(m * v),
    mu: new Float64Array(0),
  });
  return {
    name,
    params: Object.freeze({ m, k }),
    omega,
    lagrangian,
    distribution: fullTangentDistribution(1),
    defaultInit,
    energy: (q, v, p) => generalizedEnergyOf(lagrangian, q, v, p),
    exactEnergy: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return 0.5 * m * s.v * s.v + 0.5 * k * s.q * s.q;
    },
    multipliers: (out) => out,
    exactSolution: (t, init) => {
      requireFinite(`${name}: t`, t);
      const s = withDefaults(name, defaultInit, init);
      const [q, v] = harmonicFlow(s.q, s.v, omega, t);
      return {
        t,
        ...stateOf(q, v),
        qdot: Float64Array.of(v),
        pdot: Float64Array.of(-k * q),
      };
    },
    reducedDimension: 2,
    reducedRhs: (out, _t, y) => {
      out[0] = y[1]!;
      out[1] = -omega * omega * y[0]!;
    },
    reducedInitialState: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return Float64Array.of(s.q, s.v);
    },
    stateFromReduced: (y) => stateOf(y[0]!, y[1]!),
  };
}

// ---------------------------------------------------------------------------------------------
// Traditor / Birkhoff Lagrangian (seed 002 §6 Remarks, spec 002 §4.3)

/** Parameters of {@link traditor} (default κ = 1). */
export interface TraditorParams {
  /** κ ≠ 0 in α = (κ/2)(−y dx + x dy). */
  readonly kappa?: number;
}

/** Initial data of {@link traditor} (defaults x = 1, y = 0); the velocity is not free. */
export interface TraditorInit {
  readonly x?: number;
  readonly y?: number;
}

/** The traditor of {@link traditor}. */
export interface Traditor extends ExampleSystem<TraditorInit> {
  readonly params: Readonly<Required<TraditorParams>>;
  /** Angular rate 1/κ of the rotation. */
  readonly omega: number;
  /** out ← α(q) = (κ/2)(−y, x), the one-form of L = ⟨α(q), v⟩ − V(q). */
  alpha(out: Float64Array, q: Float64Array): Float64Array;
  /** out ← p − α(q), the primary constraints (P = graph α, length 2). */
  primaryConstraints(out: Float64Array, q: Float64Array, p: Float64Array): Float64Array;
}

/**
 * Duinker's traditor, a Lagrangian linear in the velocity (seed 002 §6 Remarks; worked example
 * [derived] in spec 002 §4.3): Q = R², Δ_Q = TQ, L = ⟨α(q), v⟩ − V(q) with
 * α = (κ/2)(−y dx + x dy) and V = ½(x² + y²), i.e. L = (κ/2)(x v_y − y v_x) − ½(x² + y²).
 *
 * - ∂²L/∂v² = 0 (rank 0): (6.3) gives the primary constraint p = α(q) (P = graph α) and the
 *   first-order equations (∂_j α_i − ∂_i α_j) q̇ʲ = −∂_i V, here ẋ = −y/κ, ẏ = x/κ.
 * - Closed form: rotation at rate 1/κ, x = x₀ cos(t/κ) − y₀ sin(t/κ), y = x₀ sin(t/κ) + y₀ cos(t/κ),
 *   v = q̇, p = α(q), ṗ = (κ/2)(−ẏ, ẋ) = −q/2.
 * - E = ⟨p, v⟩ − L = V(q), conserved (a circle is a level set of V).
 * - Reduced ODE, y = (x, y): ẋ = −y/κ, ẏ = x/κ.
 *
 * @example
 * ```ts
 * const tr = traditor({ kappa: 0.5 });
 * tr.exactSolution(Math.PI / 4).q; // rotated by (π/4)/κ = π/2: ≈ [0, 1]
 * ```
 */
export function traditor(params: TraditorParams = {}): Traditor {
  const name = 'traditor';
  const kappa = requireNonzero(`${name}: kappa`, params.kappa ?? 1);
  const omega = 1 / kappa;
  const h = 0.5 * kappa;
  const defaultInit: Readonly<Required<TraditorInit>> = Object.freeze({ x: 1, y: 0 });
  const alpha = (out: Float64Array, q: Float64Array): Float64Array => {
    out[0] = -h * q[1]!;
    out[1] = h * q[0]!;
    return out;
  };
  const lagrangian: Lagrangian = {
    autonomous: true,
    n: 2,
    L: (q, v) => h * (q[0]! * v[1]! - q[1]! * v[0]!) - 0.5 * (q[0]! * q[0]! + q[1]! * q[1]!),
    Lq: (out, q, v) => {
      out[0] = h * v[1]! - q[0]!;
      out[1] = -h * v[0]! - q[1]!;
      return out;
    },
    Lv: (out, q) => alpha(out, q),
    Lvv: (out) => out.fill(0),
    // N_ij = ∂α_i/∂qʲ
    Lvq: (out) => {
      out[0] = 0;
      out[1] = -h;
      out[2] = h;
      out[3] = 0;
      return out;
    },
  };
  const stateOf = (x: number, y: number): ExampleState => {
    const q = Float64Array.of(x, y);
    return {
      q,
      v: Float64Array.of(-y * omega, x * omega),
      p: alpha(new Float64Array(2), q),
      mu: new Float64Array(0),
    };
  };
  return {
    name,
    params: Object.freeze({ kappa }),
    omega,
    alpha,
    lagrangian,
    distribution: fullTangentDistribution(2),
    defaultInit,
    energy: (q, v, p) => generalizedEnergyOf(lagrangian, q, v, p),
    exactEnergy: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return 0.5 * (s.x * s.x + s.y * s.y);
    },
    multipliers: (out) => out,
    primaryConstraints: (out, q, p) => {
      out[0] = p[0]! + h * q[1]!;
      out[1] = p[1]! - h * q[0]!;
      return out;
    },
    exactSolution: (t, init) => {
      requireFinite(`${name}: t`, t);
      const s = withDefaults(name, defaultInit, init);
      const co = Math.cos(omega * t);
      const si = Math.sin(omega * t);
      const st = stateOf(s.x * co - s.y * si, s.x * si + s.y * co);
      return {
        t,
        ...st,
        qdot: Float64Array.from(st.v),
        pdot: Float64Array.of(-0.5 * st.q[0]!, -0.5 * st.q[1]!),
      };
    },
    reducedDimension: 2,
    reducedRhs: (out, _t, y) => {
      out[0] = -y[1]! * omega;
      out[1] = y[0]! * omega;
    },
    reducedInitialState: (init) => {
      const s = withDefaults(name, defaultInit, init);
      return Float64Array.of(s.x, s.y);
    },
    stateFromReduced: (y) => stateOf(y[0]!, y[1]!),
  };
}
