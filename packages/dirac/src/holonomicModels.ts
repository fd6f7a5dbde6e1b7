/**
 * Holonomically constrained models of spec 001 (§4 pendulum, §7.2 Ziegler column) as
 * {@link ConstrainedMechanicalSystem}s in Cartesian coordinates, with the angle utilities and the
 * pendulum period (§10 "Models", `pendulumPeriod`).
 *
 * Conventions (spec 001 §2, CLI.md "System definitions"): constraints φᵃ = |e_a|² − l_a² with
 * one-forms ψᵃ = ½ dφᵃ stacked as the rows of C, so the acceleration-level curvature term is
 * cₐ = |ė_a|².
 *
 * @module
 */
import { DomainError } from '@geomech/core';
import type { BandedForce } from './borderedStep.js';
import type { ConstrainedMechanicalSystem } from './constrained.js';

function positive(what: string, x: number): number {
  if (!(x > 0 && Number.isFinite(x))) throw new DomainError(what, x, 'must be positive and finite');
  return x;
}

function nonNegative(what: string, x: number): number {
  if (!(x >= 0 && Number.isFinite(x))) throw new DomainError(what, x, 'must be finite and ≥ 0');
  return x;
}

/** Parameters of {@link pendulum}. */
export interface PendulumParams {
  /** Point mass m > 0. */
  readonly m: number;
  /** Gravitational acceleration g ≥ 0 (along −y). */
  readonly g: number;
  /** Rod length l > 0. */
  readonly l: number;
}

/** The Cartesian pendulum of spec 001 §4, with its parameters. */
export interface PendulumSystem extends ConstrainedMechanicalSystem {
  readonly params: PendulumParams;
}

/**
 * The planar pendulum in Cartesian coordinates q = (x, y) (spec 001 §4, (5)):
 * L = (m/2)|v|² − m g y, φ = x² + y² − l², ψ = ½ dφ = x dx + y dy so C = [x, y], and the
 * curvature term c = |v|² (from d/dt(x ẋ + y ẏ) = C v̇ + |v|²). The multiplier of the index-reduced
 * ODE is then λ = m (g y − |v|²)/(x² + y²) (spec §4), the rod tension per unit of ψ.
 *
 * @example
 * ```ts
 * const sys = pendulum({ m: 1, g: 9.81, l: 1 });
 * const { q0, v0 } = pendulumInitial(Math.PI / 4, 0, 1);
 * sys.phi(new Float64Array(1), q0)[0]; // 0 (to round-off)
 * ```
 */
export function pendulum(params: PendulumParams): PendulumSystem {
  const m = positive('pendulum: m', params.m);
  const g = nonNegative('pendulum: g', params.g);
  const l = positive('pendulum: l', params.l);
  const mg = m * g;
  return {
    n: 2,
    m: 1,
    mass: Float64Array.of(m, m),
    autonomous: true,
    params: Object.freeze({ m, g, l }),
    V: (q) => mg * q[1]!,
    gradV(out, _q) {
      out[0] = 0;
      out[1] = mg;
      return out;
    },
    phi(out, q) {
      out[0] = q[0]! * q[0]! + q[1]! * q[1]! - l * l;
      return out;
    },
    C(out, q) {
      out[0] = q[0]!;
      out[1] = q[1]!;
      return out;
    },
    curvature(out, _q, v) {
      out[0] = v[0]! * v[0]! + v[1]! * v[1]!;
      return out;
    },
  };
}

/**
 * Initial data of the pendulum from the angle θ0 from the downward vertical and the angular
 * velocity ω0 (CLI.md "System definitions"): q0 = (l sin θ0, −l cos θ0),
 * v0 = l ω0 (cos θ0, sin θ0) (tangent, so C(q0) v0 = 0).
 *
 * @example
 * ```ts
 * pendulumInitial(Math.PI / 2, 0, 2).q0; // [2, −1.2e−16]
 * ```
 */
export function pendulumInitial(
  theta0: number,
  omega0: number,
  l: number,
): { q0: Float64Array; v0: Float64Array } {
  const c = Math.cos(theta0);
  const s = Math.sin(theta0);
  return {
    q0: Float64Array.of(l * s, -l * c),
    v0: Float64Array.of(l * omega0 * c, l * omega0 * s),
  };
}

/**
 * Arithmetic–geometric mean AGM(a, b) of a, b ≥ 0 (quadratic convergence).
 *
 * @example
 * ```ts
 * agm(1, Math.SQRT1_2); // 0.8472130847939790
 * ```
 */
export function agm(a: number, b: number): number {
  let x = a;
  let y = b;
  for (let i = 0; i < 64 && Math.abs(x - y) > 2.3e-16 * x; i++) {
    const xn = 0.5 * (x + y);
    y = Math.sqrt(x * y);
    x = xn;
  }
  return 0.5 * (x + y);
}

/**
 * Period of the pendulum released from rest at amplitude θ0 (spec 001 §10, §11.3):
 * `'linear'`: T0 = 2π √(l/g); `'exact'`: T = 4 K(k) √(l/g) with k = sin(θ0/2) and the complete
 * elliptic integral K(k) = π / (2 AGM(1, √(1 − k²))).
 *
 * @throws {@link DomainError} for g or l not positive, or |θ0| ≥ π with `'exact'` (no oscillation).
 *
 * @example
 * ```ts
 * pendulumPeriod(Math.PI / 4, 9.81, 1, 'exact') / pendulumPeriod(0, 9.81, 1, 'linear'); // 1.0399
 * ```
 */
export function pendulumPeriod(
  theta0: number,
  g: number,
  l: number,
  kind: 'linear' | 'exact' = 'exact',
): number {
  positive('pendulumPeriod: g', g);
  positive('pendulumPeriod: l', l);
  const T0 = 2 * Math.PI * Math.sqrt(l / g);
  if (kind === 'linear') return T0;
  if (!(Math.abs(theta0) < Math.PI)) {
    throw new DomainError('pendulumPeriod: theta0', theta0, 'must satisfy |θ0| < π');
  }
  const k = Math.sin(0.5 * theta0);
  return T0 / agm(1, Math.sqrt(1 - k * k));
}

/** Parameters of {@link zieglerColumn}; every field has a default. */
export interface ZieglerParams {
  /** Number of links (≥ 1). Default 2. */
  readonly n?: number;
  /** Mass at each moving joint. Default 1. */
  readonly m?: number;
  /** Angular spring stiffness (base–first link and between consecutive links). Default 1. */
  readonly k?: number;
  /** Dead downward load at each moving joint (≥ 0). Default 0.2. */
  readonly P?: number;
  /** Link length. Default 1. */
  readonly l?: number;
  /**
   * Viscous damping c ≥ 0 of every angular spring (base–first link and between consecutive links):
   * the Rayleigh force of R = (c/2) Σ_i (θ̇_i − θ̇_{i−1})², see {@link ZieglerSystem.force}. Default 0
   * (no force: the column is conservative and its runs are those without the parameter).
   */
  readonly damping?: number;
}

/** The Ziegler column of spec 001 §7.2 with its angle utilities. */
export interface ZieglerSystem extends ConstrainedMechanicalSystem {
  readonly params: Readonly<Required<ZieglerParams>>;
  /**
   * The joint damping as a force for the steppers' `force` option (core's `Force`, no input):
   * F = −∂R/∂v of the Rayleigh dissipation R = (c/2) Σ_i (θ̇_i − θ̇_{i−1})², θ̇_i = ∇θ_i·v, i.e.
   * F = −c Σ_i (θ̇_i − θ̇_{i−1})(∇θ_i − ∇θ_{i−1}) with ∂F/∂v = −c Σ_i (∇θ_i − ∇θ_{i−1})(∇θ_i −
   * ∇θ_{i−1})ᵀ analytic (∂F/∂q by central differences). Its power is F·v = −2R ≤ 0. `undefined`
   * when `damping` is 0. A {@link BandedForce} of half-bandwidth 5, so the forced chain steps stay
   * O(n).
   */
  readonly force: BandedForce | undefined;
  /** The Rayleigh dissipation R(q, v) = (c/2) Σ_i (θ̇_i − θ̇_{i−1})² (0 without damping). */
  dissipation(q: Float64Array, v: Float64Array): number;
  /** Number of links (= number of constraints). */
  readonly links: number;
  /** out ← θ, θ_i = atan2(e_ix, e_iy) (principal value, from the upward vertical). */
  angles(q: Float64Array, out?: Float64Array): Float64Array;
  /** out ← q with e_i = l (sin θ_i, cos θ_i), q_i = q_{i−1} + e_i, q_0 = 0. */
  fromAngles(theta: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** V as a function of the angles: V(θ) = P l Σ_i Σ_{j≤i} cos θ_j + Σ (k/2)(θ_i − θ_{i−1})². */
  potentialFromAngles(theta: ArrayLike<number>): number;
  /**
   * Linearized stiffness K = ∇²_θ V at the upright position for the load `P` (n×n row-major):
   * K = k·tridiag(−1, 2, −1) with K_nn = k, minus diag(P l (n − i + 1)) (spec 001 §7.2).
   */
  stiffnessMatrix(P?: number): Float64Array;
}

/**
 * The angle between consecutive links, θ_i − θ_{i−1} wrapped to (−π, π]. The absolute link angles
 * come from atan2 and jump by 2π when a link passes the downward vertical; their difference is the
 * spring's angle only modulo 2π (without the wrap the energy jumped by ≈ 14 and the torque by 2πk
 * when two neighbouring links crossed −y together). Identity (bit for bit) for |d| ≤ π.
 */
function relativeAngle(d: number): number {
  if (d > -Math.PI && d <= Math.PI) return d;
  const w = d - 2 * Math.PI * Math.round(d / (2 * Math.PI));
  return w <= -Math.PI ? w + 2 * Math.PI : w;
}

/**
 * Most links {@link zieglerColumn} accepts (the CLI's limit is 1000). The Dirac and RATTLE steps
 * solve the chain's band systems (its `band`), O(n) per step; the dense m × 2m matrix C(q) of the
 * interface (64 MB at n = 2000) is filled only by cold paths (recording λ, diagnostics).
 */
export const ZIEGLER_MAX_LINKS = 2000;

/**
 * The paper's "Ziegler column" with the corrected spring sign (spec 001 §7.2, §11.12): n links of
 * length l from a fixed base at the origin, a point mass m at each moving joint q_i = (x_i, y_i),
 * link vectors e_i = q_i − q_{i−1} (q_0 = 0), absolute angles θ_i = atan2(e_ix, e_iy) from the
 * upward vertical, and
 * V = P Σ_i y_i + Σ_{i=1..n} (k/2)(θ_i − θ_{i−1})², θ_0 = 0 (springs stabilise the upright column,
 * the dead load P pushes down at every moving joint). Constraints φ_i = |e_i|² − l², ψ = ½dφ: row i
 * of C has −e_iᵀ in block i−1 and +e_iᵀ in block i (the system's `band`: width 4, first column
 * 2i − 2, dφ = 2C); curvature c_i = |ė_i|².
 *
 * ∇V uses ∂θ_i/∂e_i = (e_iy, −e_ix)/|e_i|² with the actual |e_i|² (not l²), so it stays exact off
 * the constraint. The angle is the principal value: V jumps when a link passes straight down
 * (spec §11.13); unwrapped angles are not offered yet.
 *
 * @example
 * ```ts
 * const z = zieglerColumn({ n: 2, P: 0.2 });
 * const q = z.fromAngles([0.1, -0.2]);
 * z.angles(q); // [0.1, −0.2]
 * ```
 */
export function zieglerColumn(params: ZieglerParams = {}): ZieglerSystem {
  const nl = params.n ?? 2;
  if (!Number.isInteger(nl) || nl < 1 || nl > ZIEGLER_MAX_LINKS) {
    throw new DomainError(
      'zieglerColumn: n',
      nl,
      `must be an integer in [1, ${ZIEGLER_MAX_LINKS}]`,
    );
  }
  const mass = positive('zieglerColumn: m', params.m ?? 1);
  const k = nonNegative('zieglerColumn: k', params.k ?? 1);
  const P = nonNegative('zieglerColumn: P', params.P ?? 0.2);
  const l = positive('zieglerColumn: l', params.l ?? 1);
  const damping = nonNegative('zieglerColumn: damping', params.damping ?? 0);
  const dim = 2 * nl;
  // joint damping: g_i = ∇_{e_i} θ_i = (e_iy, −e_ix)/|e_i|², rates d_i = θ̇_i − θ̇_{i−1}
  const gx = new Float64Array(nl);
  const gy = new Float64Array(nl);
  const rate = new Float64Array(nl);
  const jointRates = (q: Float64Array, v: Float64Array): void => {
    let px = 0;
    let py = 0;
    let pvx = 0;
    let pvy = 0;
    let prev = 0;
    for (let i = 0; i < nl; i++) {
      const ex = q[2 * i]! - px;
      const ey = q[2 * i + 1]! - py;
      const r2 = ex * ex + ey * ey;
      const gxi = ey / r2;
      const gyi = -ex / r2;
      gx[i] = gxi;
      gy[i] = gyi;
      const w = gxi * (v[2 * i]! - pvx) + gyi * (v[2 * i + 1]! - pvy); // θ̇_i
      rate[i] = w - prev;
      prev = w;
      px = q[2 * i]!;
      py = q[2 * i + 1]!;
      pvx = v[2 * i]!;
      pvy = v[2 * i + 1]!;
    }
  };
  // out ← Σ_j s_j ∇_q θ_j (∇θ_j: +g_j in block j, −g_j in block j − 1), s_j = coef[j]
  const coef = new Float64Array(nl);
  const spread = (out: Float64Array): void => {
    out.fill(0, 0, dim);
    for (let j = 0; j < nl; j++) {
      const c = coef[j]!;
      if (c === 0) continue;
      out[2 * j] = out[2 * j]! + c * gx[j]!;
      out[2 * j + 1] = out[2 * j + 1]! + c * gy[j]!;
      if (j > 0) {
        out[2 * j - 2] = out[2 * j - 2]! - c * gx[j]!;
        out[2 * j - 1] = out[2 * j - 1]! - c * gy[j]!;
      }
    }
  };
  const rowD = new Float64Array(dim);
  const force: BandedForce | undefined =
    damping === 0
      ? undefined
      : {
          n: dim,
          m: 0,
          autonomous: true,
          // term i couples joints i − 2 … i: |a − b| ≤ 5 in ∂F/∂q and ∂F/∂v
          jacobianBandwidth: 5,
          F(out, _t, q, v) {
            jointRates(q, v);
            // F = −c Σ_i d_i (∇θ_i − ∇θ_{i−1}) = −c Σ_j (d_j − d_{j+1}) ∇θ_j
            for (let j = 0; j < nl; j++)
              coef[j] = -damping * (rate[j]! - (j + 1 < nl ? rate[j + 1]! : 0));
            spread(out);
            return out;
          },
          dFdv(out, _t, q, v) {
            jointRates(q, v);
            out.fill(0, 0, dim * dim);
            for (let i = 0; i < nl; i++) {
              // row vector ∇θ_i − ∇θ_{i−1}
              coef.fill(0);
              coef[i] = 1;
              if (i > 0) coef[i - 1] = -1;
              spread(rowD);
              const lo = Math.max(0, 2 * i - 4);
              const hi = Math.min(dim, 2 * i + 2);
              for (let a = lo; a < hi; a++) {
                const ra = rowD[a]!;
                if (ra === 0) continue;
                for (let b = lo; b < hi; b++)
                  out[a * dim + b] = out[a * dim + b]! - damping * ra * rowD[b]!;
              }
            }
            return out;
          },
        };
  const theta = new Float64Array(nl);
  const Vth = new Float64Array(nl);

  const anglesInto = (out: Float64Array, q: Float64Array): Float64Array => {
    let px = 0;
    let py = 0;
    for (let i = 0; i < nl; i++) {
      const x = q[2 * i]!;
      const y = q[2 * i + 1]!;
      out[i] = Math.atan2(x - px, y - py);
      px = x;
      py = y;
    }
    return out;
  };

  const springs = (th: ArrayLike<number>): number => {
    let s = 0;
    let prev = 0;
    for (let i = 0; i < nl; i++) {
      const d = relativeAngle(th[i]! - prev);
      s += d * d;
      prev = th[i]!;
    }
    return 0.5 * k * s;
  };

  // row i of C couples joints i − 1 and i: columns 2i − 2 … 2i + 1 (row 0 starts in the padding)
  const first = new Int32Array(nl);
  for (let i = 0; i < nl; i++) first[i] = 2 * i - 2;
  const sys: ZieglerSystem = {
    n: dim,
    m: nl,
    mass: new Float64Array(dim).fill(mass),
    autonomous: true,
    band: Object.freeze({
      width: 4,
      first,
      phiScale: 2,
      // the entries of C below, row by row: (−e_i, +e_i) (row 0: padding, then +e_1)
      C(out: Float64Array, q: Float64Array): Float64Array {
        let px = 0;
        let py = 0;
        for (let i = 0; i < nl; i++) {
          const ex = q[2 * i]! - px;
          const ey = q[2 * i + 1]! - py;
          const row = 4 * i;
          out[row] = i > 0 ? -ex : 0;
          out[row + 1] = i > 0 ? -ey : 0;
          out[row + 2] = ex;
          out[row + 3] = ey;
          px = q[2 * i]!;
          py = q[2 * i + 1]!;
        }
        return out;
      },
    }),
    links: nl,
    params: Object.freeze({ n: nl, m: mass, k, P, l, damping }),
    force,
    dissipation(q, v) {
      if (damping === 0) return 0;
      jointRates(q, v);
      let s = 0;
      for (let i = 0; i < nl; i++) s += rate[i]! * rate[i]!;
      return 0.5 * damping * s;
    },
    V(q) {
      let sy = 0;
      for (let i = 0; i < nl; i++) sy += q[2 * i + 1]!;
      return P * sy + springs(anglesInto(theta, q));
    },
    gradV(out, q) {
      anglesInto(theta, q);
      // V_θi = k(θ_i − θ_{i−1}) − k(θ_{i+1} − θ_i), relative angles wrapped to (−π, π]
      for (let i = 0; i < nl; i++) {
        const prev = i === 0 ? 0 : theta[i - 1]!;
        let d = k * relativeAngle(theta[i]! - prev);
        if (i + 1 < nl) d -= k * relativeAngle(theta[i + 1]! - theta[i]!);
        Vth[i] = d;
      }
      for (let j = 0; j < dim; j++) out[j] = 0;
      let px = 0;
      let py = 0;
      for (let i = 0; i < nl; i++) {
        const ex = q[2 * i]! - px;
        const ey = q[2 * i + 1]! - py;
        const r2 = ex * ex + ey * ey;
        const gx = (Vth[i]! * ey) / r2;
        const gy = (-Vth[i]! * ex) / r2;
        out[2 * i] = out[2 * i]! + gx;
        out[2 * i + 1] = out[2 * i + 1]! + gy + P;
        if (i > 0) {
          out[2 * i - 2] = out[2 * i - 2]! - gx;
          out[2 * i - 1] = out[2 * i - 1]! - gy;
        }
        px = q[2 * i]!;
        py = q[2 * i + 1]!;
      }
      return out;
    },
    phi(out, q) {
      let px = 0;
      let py = 0;
      for (let i = 0; i < nl; i++) {
        const ex = q[2 * i]! - px;
        const ey = q[2 * i + 1]! - py;
        out[i] = ex * ex + ey * ey - l * l;
        px = q[2 * i]!;
        py = q[2 * i + 1]!;
      }
      return out;
    },
    C(out, q) {
      out.fill(0, 0, nl * dim);
      let px = 0;
      let py = 0;
      for (let i = 0; i < nl; i++) {
        const ex = q[2 * i]! - px;
        const ey = q[2 * i + 1]! - py;
        const row = i * dim;
        out[row + 2 * i] = ex;
        out[row + 2 * i + 1] = ey;
        if (i > 0) {
          out[row + 2 * i - 2] = -ex;
          out[row + 2 * i - 1] = -ey;
        }
        px = q[2 * i]!;
        py = q[2 * i + 1]!;
      }
      return out;
    },
    curvature(out, _q, v) {
      let px = 0;
      let py = 0;
      for (let i = 0; i < nl; i++) {
        const dx = v[2 * i]! - px;
        const dy = v[2 * i + 1]! - py;
        out[i] = dx * dx + dy * dy;
        px = v[2 * i]!;
        py = v[2 * i + 1]!;
      }
      return out;
    },
    angles(q, out = new Float64Array(nl)) {
      return anglesInto(out, q);
    },
    fromAngles(th, out = new Float64Array(dim)) {
      let px = 0;
      let py = 0;
      for (let i = 0; i < nl; i++) {
        px += l * Math.sin(th[i]!);
        py += l * Math.cos(th[i]!);
        out[2 * i] = px;
        out[2 * i + 1] = py;
      }
      return out;
    },
    potentialFromAngles(th) {
      let sy = 0;
      let y = 0;
      for (let i = 0; i < nl; i++) {
        y += l * Math.cos(th[i]!);
        sy += y;
      }
      return P * sy + springs(th);
    },
    stiffnessMatrix(load = P) {
      const K = new Float64Array(nl * nl);
      for (let i = 0; i < nl; i++) {
        K[i * nl + i] = (i + 1 < nl ? 2 * k : k) - load * l * (nl - i);
        if (i + 1 < nl) {
          K[i * nl + i + 1] = -k;
          K[(i + 1) * nl + i] = -k;
        }
      }
      return K;
    },
  };
  return sys;
}
