/**
 * The free rigid body on SO(3) as a discrete Lie–Poisson system (spec 003 §8.1, scenario S3):
 * l(ξ) = ½ξᵀ𝕀ξ, no constraints, τ = Cayley or exp, L̂(g) = h·l(τ⁻¹(g)/h).
 *
 * @module
 */
import {
  checkStepDerivatives,
  DimensionError,
  DomainError,
  hypot3,
  type IntegrateRecordingOptions,
  integrate,
  inv3,
  type MethodTraits,
  methodTraits,
  type Retraction,
  type SeriesSpec,
  SingularMatrixError,
  SO3,
  type Solution,
  type Stepper,
  so3Cayley,
  so3Exp,
} from '@geomech/core';
import { LieGroupOCP, type LieGroupOCPData } from './lieGroupMechanics.js';
import { RigidBodyNewton } from './rigidBodyNewton.js';
import { stepSize } from './stepSize.js';

/** The retraction of a Lie-group integrator on SO(3): the Cayley map or the exponential. */
export type So3Map = 'cayley' | 'exp';

/**
 * The core retraction for a {@link So3Map}.
 *
 * @example
 * ```ts
 * so3Retraction('cayley') === so3Cayley; // true
 * ```
 */
export function so3Retraction(map: So3Map): Retraction {
  if (map === 'cayley') return so3Cayley;
  if (map === 'exp') return so3Exp;
  throw new DomainError('so3Retraction: map', map, "must be 'cayley' or 'exp'");
}

function checkInertia(inertia: ArrayLike<number>): Float64Array {
  if (inertia.length !== 3) throw new DimensionError('rigid body: inertia', 3, inertia.length);
  const I = Float64Array.from(inertia);
  for (let i = 0; i < 3; i++) {
    if (!(I[i]! > 0 && Number.isFinite(I[i]!))) {
      throw new DomainError(`rigid body: inertia[${i}]`, I[i], 'must be positive and finite');
    }
  }
  return I;
}

/**
 * The system data of the free rigid body, l(ξ) = ½ξᵀ𝕀ξ with 𝕀 = diag(I1, I2, I3) (spec 003 S3),
 * with its analytic gradient 𝕀ξ and Hessian 𝕀.
 *
 * @example
 * ```ts
 * const data = rigidBodyData([1, 2, 3], 'cayley');
 * data.l(Float64Array.of(1, 0, 0)); // 0.5
 * ```
 */
export function rigidBodyData(inertia: ArrayLike<number>, map: So3Map = 'cayley'): LieGroupOCPData {
  const I = checkInertia(inertia);
  const I0 = I[0]!;
  const I1 = I[1]!;
  const I2 = I[2]!;
  return {
    group: SO3,
    tau: so3Retraction(map),
    l: (x) => 0.5 * (I0 * x[0]! * x[0]! + I1 * x[1]! * x[1]! + I2 * x[2]! * x[2]!),
    dl: (out, x) => {
      out[0] = I0 * x[0]!;
      out[1] = I1 * x[1]!;
      out[2] = I2 * x[2]!;
      return out;
    },
    d2l: (out) => {
      out.fill(0);
      out[0] = I0;
      out[4] = I1;
      out[8] = I2;
      return out;
    },
  };
}

/**
 * The free rigid body as a {@link LieGroupOCP} with time step h (spec 003 §8.1, S3).
 *
 * @example
 * ```ts
 * const ocp = rigidBodyOCP([1, 2, 3], 0.1, 'cayley');
 * const none = new Float64Array(0);
 * ocp.stepLP(Float64Array.of(0.8, -0.5, 0.3), none, new Float64Array(3), none);
 * ```
 */
export function rigidBodyOCP(
  inertia: ArrayLike<number>,
  h: number,
  map: So3Map = 'cayley',
  newton: { tol?: number; maxIterations?: number } = {},
): LieGroupOCP {
  return new LieGroupOCP({ ...rigidBodyData(inertia, map), h, ...newton });
}

/** Below this |hξ| the exp-map factor (|x|/2)/sin(|x|/2) uses its series 1 + |x|²/24. */
const MODIFIED_ENERGY_SERIES = 1e-4;

/**
 * The discrete Lie–Poisson method with retraction τ = `map` on the free rigid body (spec 003 §8.1):
 * variational (L̂(g) = h·l(τ⁻¹(g)/h)), Lie–Poisson (it preserves the Casimir and the spatial
 * momentum), symmetric (τ(x)τ(−x) = e and l even), order 2 (measured, `rigidBody.test.ts`); one
 * Newton solve of (6.1-e) per step. Its name is the CLI's method name.
 *
 * @example
 * ```ts
 * rigidBodyMethod('exp').name; // 'exp'
 * ```
 */
export function rigidBodyMethod(map: So3Map): MethodTraits {
  so3Retraction(map);
  return map === 'cayley' ? CAYLEY_METHOD : EXP_METHOD;
}

const lpTraits = (map: So3Map, what: string): MethodTraits =>
  methodTraits({
    name: map,
    description: `discrete Lie–Poisson integrator with ${what} (spec 003 §8.1)`,
    order: 2,
    isExplicit: false,
    isSymplectic: true,
    isSymmetric: true,
    isVariational: true,
  });
const CAYLEY_METHOD = lpTraits('cayley', 'the Cayley map');
const EXP_METHOD = lpTraits('exp', 'the exponential map');

/** The series of a rigid-body {@link Solution}. */
export type RigidBodyField =
  | 'R'
  | 'xi'
  | 'pi'
  | 'casimir'
  | 'spatialMomentum'
  | 'energy'
  | 'modifiedEnergy';

/**
 * A free rigid-body trajectory. Sample j is the node G_k (k = `k[j]`, t = `t[j]` = t0 + k·h, the
 * first at G_0 = I, t0) with the velocity of the increment that leaves it:
 * - `R`: G_k (`count × 9`, row-major), G_{k+1} = G_k·τ(hξ_{k+1});
 * - `xi`: ξ_{k+1}, the body velocity of the step from G_k (`xi[0..3]` = `xi0`);
 * - `pi`: the body momentum at G_k, π_k = F⁻(g_{k+1}) = (dτ⁻¹_{−hξ_{k+1}})ᵀ𝕀ξ_{k+1}
 *   (= F⁺(g_k) = (dτ⁻¹_{hξ_k})ᵀ𝕀ξ_k by (6.1-e));
 * - `casimir`: |π_k|, the Casimir of the Lie–Poisson bracket (conserved exactly by the scheme);
 * - `spatialMomentum`: G_kπ_k (conserved exactly);
 * - `energy`: ½ξᵀ𝕀ξ at ξ_{k+1} (O(h²) oscillation, no drift);
 * - `modifiedEnergy`: a better discrete energy, found numerically (no proof):
 *   E_h = ½ξᵀ𝕀ξ·(|hξ|/(2 sin(θ/2)))⁴ with θ the rotation angle of τ(hξ); the factor is
 *   (1 + h²|ξ|²/4)² for Cayley and ((h|ξ|/2)/sin(h|ξ|/2))⁴ for exp. Its oscillation is O(h⁴) (S3:
 *   2.0e-7 against 6.0e-4 for `energy` with Cayley, 4.6e-7 against 2.0e-4 with exp).
 */
export type RigidBodySolution = Solution<RigidBodyField>;

const RIGID_BODY_SERIES: readonly SeriesSpec<RigidBodyField>[] = Object.freeze([
  { name: 'R', width: 9 },
  { name: 'xi', width: 3 },
  { name: 'pi', width: 3 },
  { name: 'casimir', width: 1 },
  { name: 'spatialMomentum', width: 3 },
  { name: 'energy', width: 1 },
  { name: 'modifiedEnergy', width: 1 },
]);

const NONE = new Float64Array(0);

/**
 * The free rigid body's discrete Lie–Poisson integrator as a core {@link Stepper} (spec 003 §8.1,
 * S3). The state is the node and the velocity of the increment leaving it, `[G_k (9, row-major),
 * ξ_{k+1} (3)]`; a step reconstructs G_{k+1} = G_kτ(hξ_{k+1}) (6.1-c) and solves
 * (dτ⁻¹_{−hξ_{k+2}})ᵀ𝕀ξ_{k+2} = (dτ⁻¹_{hξ_{k+1}})ᵀ𝕀ξ_{k+1} (6.1-e) for ξ_{k+2} by Newton's method
 * (the iterates of {@link LieGroupOCP.stepLP}, computed by a kernel written out for diagonal 𝕀
 * with the analytic 3×3 Jacobian). Allocates nothing per step.
 *
 * @example
 * ```ts
 * const s = new RigidBodyStepper([1, 2, 3], 0.1, 'cayley');
 * const sol = integrate(s, s.initialState([0.8, -0.5, 0.3]), { h: 0.1, steps: 10 });
 * sol.casimir[10]! - sol.casimir[0]!; // ≈ 1e-16
 * ```
 */
export class RigidBodyStepper implements Stepper<RigidBodyField> {
  readonly method: MethodTraits;
  /** The step does not read t (core `integrate` then passes 0: no boxed time per step). */
  readonly stateSize = 12;
  readonly inputSize = 0;
  readonly series = RIGID_BODY_SERIES;
  readonly ocp: LieGroupOCP;
  readonly map: So3Map;
  readonly h: number;
  lastResidual = 0;
  private readonly I: Float64Array;
  private readonly G: Float64Array;
  private readonly Gnext: Float64Array;
  private readonly xi: Float64Array;
  private readonly xiNext: Float64Array;
  private readonly mom = { plus: new Float64Array(3), minus: new Float64Array(3) };
  private readonly sp = new Float64Array(3);
  private readonly newton: RigidBodyNewton;
  /** (ξ_{k+1}, ξ_{k+2}) of the last step taken, for {@link stepDerivatives} (6 copies per step). */
  private readonly lastXi = new Float64Array(6);
  private stepTaken = false;
  /** Scratch of {@link stepDerivatives}, allocated on its first call. */
  private derivScratch: Float64Array | undefined;
  /** Size of the tangent state (δG, δξ) of {@link stepDerivatives}. */
  readonly tangentSize = 6;

  constructor(
    inertia: ArrayLike<number>,
    h: number,
    map: So3Map = 'cayley',
    newton: { tol?: number; maxIterations?: number } = {},
  ) {
    this.method = rigidBodyMethod(map);
    this.I = checkInertia(inertia);
    this.ocp = rigidBodyOCP(inertia, h, map, newton);
    this.map = map;
    this.h = h;
    this.G = new Float64Array(9);
    this.Gnext = new Float64Array(9);
    this.xi = new Float64Array(3);
    this.xiNext = new Float64Array(3);
    this.newton = new RigidBodyNewton(
      this.I,
      h,
      map,
      newton.tol ?? 1e-14,
      newton.maxIterations ?? 50,
    );
  }

  /**
   * The state `[G_0 = I, ξ_1]` of a run from the identity with first body velocity `xi0`.
   * @throws DimensionError / DomainError for a wrong-length or non-finite `xi0`.
   */
  initialState(xi0: ArrayLike<number>): Float64Array {
    if (xi0.length !== 3) throw new DimensionError('RigidBodyStepper: xi0', 3, xi0.length);
    const s = new Float64Array(12);
    s[0] = 1;
    s[4] = 1;
    s[8] = 1;
    for (let i = 0; i < 3; i++) {
      const v = xi0[i]!;
      if (!Number.isFinite(v))
        throw new DomainError(`RigidBodyStepper: xi0[${i}]`, v, 'must be finite');
      s[9 + i] = v;
    }
    return s;
  }

  /**
   * One step: G ← G·τ(hξ) and ξ ← the solution of (6.1-e). `h` must be the stepper's.
   * @throws NewtonDivergedError naming step `k` (the state is then unchanged).
   */
  step(state: Float64Array, k: number, h: number): number {
    if (h !== this.h)
      throw new DomainError('RigidBodyStepper.step: h', h, `must be the stepper's h = ${this.h}`);
    const { G, Gnext, xi, xiNext, ocp, newton, lastXi } = this;
    this.stepTaken = false;
    for (let i = 0; i < 9; i++) G[i] = state[i]!;
    for (let i = 0; i < 3; i++) xi[i] = state[9 + i]!;
    ocp.reconstruct(Gnext, G, xi);
    newton.solve(xi, xiNext, k);
    this.lastResidual = newton.residualNorm;
    for (let i = 0; i < 9; i++) state[i] = Gnext[i]!;
    for (let i = 0; i < 3; i++) {
      state[9 + i] = xiNext[i]!;
      lastXi[i] = xi[i]!;
      lastXi[3 + i] = xiNext[i]!;
    }
    this.stepTaken = true;
    return newton.iterations;
  }

  /**
   * The step derivatives of the last {@link step} (core's `Stepper.stepDerivatives`) in tangent
   * coordinates x = (δG, δξ) ({@link tangentSize} 6, not the storage's 12): δG in the right-⊕
   * (body) coordinates G·Exp(δG), δξ additive. With g = τ(hξ_{k+1}) and G_{k+1} = G_k·g (6.1-c),
   * G_kExp(δ)g = G_{k+1}Exp(gᵀδ) and τ(h(ξ + δξ)) = g·Exp(h·dτ_{hξ}δξ + O(δξ²)) (dτ the
   * left-trivialized differential of the retraction), and ξ_{k+2} does not depend on G_k. By the
   * implicit function theorem on (6.1-e), P_{−h}(ξ_{k+2}) = P_h(ξ_{k+1}) with
   * P_s(ξ) = (dτ⁻¹_{sξ})ᵀ𝕀ξ: ∂ξ_{k+2}/∂ξ_{k+1} = (∂P_{−h}/∂ξ(ξ_{k+2}))⁻¹ ∂P_h/∂ξ(ξ_{k+1}), the
   * first factor the step's Newton Jacobian at the accepted solution (recomputed, analytic). So
   *
   *   dxdx = [[gᵀ, h·dτ_{hξ_{k+1}}], [0, (∂P_{−h}/∂ξ)⁻¹ ∂P_h/∂ξ]]   (6×6, row-major).
   *
   * The body is unforced (`inputSize` 0): `dxdu` has length 0. Cold path: allocates its scratch on
   * the first call.
   * @throws DomainError before any step (or after a failed one); DimensionError unless
   *   `dxdx.length` = 36 and `dxdu.length` = 0; SingularMatrixError for a singular Newton Jacobian.
   *
   * @example
   * ```ts
   * const s = new RigidBodyStepper([1, 2, 3], 0.1, 'cayley');
   * const x = s.initialState([0.8, -0.5, 0.3]);
   * s.step(x, 0, 0.1);
   * const A = new Float64Array(36);
   * s.stepDerivatives(A, new Float64Array(0));
   * // ∂ξ_2/∂ξ_1 is close to the identity for small h
   * A[3 * 6 + 3]; // 0.9998…
   * ```
   */
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void {
    checkStepDerivatives(
      'RigidBodyStepper.stepDerivatives',
      this.stepTaken ? undefined : 'no step taken',
      dxdx,
      dxdu,
      6,
      0,
    );
    // layout: hx (3) | g (9) | dτ (9) | Jm (9) | Jp (9) | A (9)
    this.derivScratch ??= new Float64Array(48);
    const d = this.derivScratch;
    const hx = d.subarray(0, 3);
    const g = d.subarray(3, 12);
    const dt = d.subarray(12, 21);
    const Jm = d.subarray(21, 30);
    const Jp = d.subarray(30, 39);
    const A = d.subarray(39, 48);
    const { lastXi, h, newton } = this;
    const xiK = lastXi.subarray(0, 3);
    const xiN = lastXi.subarray(3, 6);
    for (let i = 0; i < 3; i++) hx[i] = h * lastXi[i]!;
    const tau = this.ocp.tau;
    tau.tau(g, hx);
    tau.dtau(dt, hx);
    newton.jacobian(Jm, xiN, -h);
    newton.jacobian(Jp, xiK, h);
    try {
      inv3(Jm, Jm);
    } catch (e) {
      if (e instanceof SingularMatrixError)
        throw new SingularMatrixError('RigidBodyStepper.stepDerivatives: ∂P₋/∂ξ', -1);
      throw e;
    }
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        A[3 * i + j] =
          Jm[3 * i]! * Jp[j]! + Jm[3 * i + 1]! * Jp[3 + j]! + Jm[3 * i + 2]! * Jp[6 + j]!;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        dxdx[6 * i + j] = g[3 * j + i]!;
        dxdx[6 * i + 3 + j] = h * dt[3 * i + j]!;
        dxdx[6 * (3 + i) + j] = 0;
        dxdx[6 * (3 + i) + 3 + j] = A[3 * i + j]!;
      }
    }
  }

  /** Writes R, xi, pi, casimir, spatialMomentum, energy, modifiedEnergy of the node `state`. */
  record(out: Float64Array, state: Float64Array): void {
    const { G, xi, mom, sp, I, ocp } = this;
    for (let i = 0; i < 9; i++) G[i] = state[i]!;
    for (let i = 0; i < 3; i++) xi[i] = state[9 + i]!;
    out.set(G, 0);
    out.set(xi, 9);
    ocp.momenta(xi, NONE, mom);
    const p = mom.minus;
    out[12] = p[0]!;
    out[13] = p[1]!;
    out[14] = p[2]!;
    // the scalars through arrays (hypot3) and written out here: a double passed to or returned
    // from a call V8 does not inline is boxed, and momenta/spatialMomentum take the inlining budget
    hypot3(out, 15, p); // the Casimir |Π|, Math.hypot's bits
    ocp.spatialMomentum(sp, G, xi, NONE);
    out[16] = sp[0]!;
    out[17] = sp[1]!;
    out[18] = sp[2]!;
    const e = 0.5 * (I[0]! * xi[0]! * xi[0]! + I[1]! * xi[1]! * xi[1]! + I[2]! * xi[2]! * xi[2]!);
    out[19] = e;
    hypot3(out, 20, xi);
    // the factor |x|/(2 sin(θ/2)), θ the rotation angle of τ(x), x = hξ: √(1 + |x|²/4) (Cayley)
    // or (|x|/2)/|sin(|x|/2)| (exp; its series 1 + |x|²/24 below MODIFIED_ENERGY_SERIES)
    const r = this.h * out[20]!;
    const f =
      this.map === 'cayley'
        ? Math.sqrt(1 + (r * r) / 4)
        : r < MODIFIED_ENERGY_SERIES
          ? 1 + (r * r) / 24
          : r / (2 * Math.abs(Math.sin(r / 2)));
    out[20] = e * f * f * f * f;
  }
}

/** Options of {@link simulateRigidBody}. */
export interface RigidBodyOptions
  extends Pick<IntegrateRecordingOptions, 'every' | 'onProgress' | 'onFailure'> {
  /** Principal moments of inertia [I1, I2, I3] (all > 0). */
  readonly inertia: ArrayLike<number>;
  /** The body velocity ξ_1 of the first step (g_1 = τ(hξ_1), G_1 = g_1 from G_0 = I). */
  readonly xi0: ArrayLike<number>;
  /** Time step h > 0. Give `h` or `tEnd`. */
  readonly h?: number;
  /** Final time: h = tEnd/steps, and the last sample is at exactly `tEnd`. Give `h` or `tEnd`. */
  readonly tEnd?: number;
  /** Number of Lie–Poisson steps (each solves (6.1-e) once). */
  readonly steps: number;
  /** Retraction τ. Default `'cayley'`. */
  readonly map?: So3Map;
  /** Newton tolerance per step (max-norm). Default 1e-14. */
  readonly tol?: number;
  /** Newton iteration cap per step. Default 50. */
  readonly maxIterations?: number;
}

/**
 * Simulates the free rigid body with the discrete Lie–Poisson integrator (spec 003 §8.1, S3; the
 * CLI's `geomech simulate rigid-body`): core's `integrate` over a {@link RigidBodyStepper} from
 * G_0 = I with first velocity ξ_1 = xi0; sample j is the node G_k at t = k·h (see
 * {@link RigidBodySolution}), the first at t = 0, the last at `steps`·h (exactly `tEnd` when given).
 *
 * @throws DomainError / DimensionError for bad options; NewtonDivergedError naming the step when
 *   a step fails (e.g. h|ξ| too large for the map), unless `onFailure: 'return'`.
 *
 * @example
 * ```ts
 * const s = simulateRigidBody({ inertia: [1, 2, 3], xi0: [0.8, -0.5, 0.3], h: 0.1, steps: 1000 });
 * s.casimir[s.count - 1]! - s.casimir[0]!; // ~1e-14 (round-off)
 * s.t[s.count - 1]; // 100
 * ```
 */
export function simulateRigidBody(options: RigidBodyOptions): RigidBodySolution {
  const { steps } = options;
  if (!Number.isSafeInteger(steps) || steps < 0)
    throw new DomainError('simulateRigidBody: steps', steps, 'must be an integer >= 0');
  const h = stepSize('simulateRigidBody', options.h, options.tEnd, steps);
  const newton: { tol?: number; maxIterations?: number } = {};
  if (options.tol !== undefined) newton.tol = options.tol;
  if (options.maxIterations !== undefined) newton.maxIterations = options.maxIterations;
  const stepper = new RigidBodyStepper(options.inertia, h, options.map ?? 'cayley', newton);
  return integrate(stepper, stepper.initialState(options.xi0), {
    steps,
    ...(options.tEnd === undefined ? { h } : { tEnd: options.tEnd }),
    ...(options.every === undefined ? {} : { every: options.every }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.onFailure === undefined ? {} : { onFailure: options.onFailure }),
  });
}
