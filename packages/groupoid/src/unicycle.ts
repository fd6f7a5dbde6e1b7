/**
 * A dynamic unicycle on SE(2) with a forward force and a steering torque as inputs.
 *
 * The knife edge / unicycle is nonholonomic (no sideways velocity): its constraint is not of the
 * variational form in time that the LGVI of `lgvi.ts` discretizes (a discrete nonholonomic
 * integrator would need the discrete Lagrange–d'Alembert principle with constraint distributions,
 * or the constrained groupoid integrators of spec 003 with a nonholonomic constraint), so it is
 * done here as a forced dynamic system on SE(2) in its constraint-reduced form: with the body
 * velocity ξ = [v, 0, ω] (forward speed v, no lateral speed, turning rate ω), mass m and moment of
 * inertia I about the vertical through the wheel contact (centre of mass on the axle), the
 * reduced equations are m v̇ = F, I ω̇ = τ, Ẋ = X·ξ^. The step (ours, explicit, order 2):
 *
 *   (U1)  v_{k+1} = v_k + h F_k/m,   ω_{k+1} = ω_k + h τ_k/I,
 *   (U2)  X_{k+1} = X_k·Exp(h·[(v_k + v_{k+1})/2, 0, (ω_k + ω_{k+1})/2]),
 *
 * so every increment Exp(h[v̄, 0, ω̄]) satisfies the constraint exactly (it is a circular arc
 * without sideways slip), the kinetic energy balance E_{k+1} − E_k = F_k·h v̄ + τ_k·h ω̄ holds
 * exactly (the discrete work of the inputs; ½m(v_{k+1}² − v_k²) = m(v_{k+1} − v_k)v̄), and with zero
 * input the motion is the exact circle X_k = X_0·Exp(k h [v, 0, ω]).
 *
 * @module
 */
import {
  DimensionError,
  DomainError,
  type MethodTraits,
  methodTraits,
  SE2,
  type SeriesSpec,
  type Stepper,
} from '@geomech/core';

/** The series of a unicycle `Solution`. */
export type UnicycleField = 'X' | 'position' | 'heading' | 'v' | 'omega' | 'energy';

const UNICYCLE_SERIES: readonly SeriesSpec<UnicycleField>[] = Object.freeze([
  { name: 'X', width: 9 },
  { name: 'position', width: 2 },
  { name: 'heading', width: 1 },
  { name: 'v', width: 1 },
  { name: 'omega', width: 1 },
  { name: 'energy', width: 1 },
]);

const UNICYCLE_METHOD = methodTraits({
  name: 'se2-midpoint',
  description: 'reduced nonholonomic unicycle on SE(2): explicit, midpoint twist (U1)–(U2)',
  order: 2,
  isExplicit: true,
  isSymmetric: true,
  isVariational: false,
});

/**
 * The unicycle step's method traits: `'se2-midpoint'`, explicit, order 2, symmetric, not variational.
 *
 * @example
 * ```ts
 * unicycleMethod().isExplicit; // true
 * ```
 */
export function unicycleMethod(): MethodTraits {
  return UNICYCLE_METHOD;
}

/**
 * The dynamic unicycle (U1)–(U2) as a core `Stepper`: state `[X (9, SE(2) row-major), v, ω]`,
 * inputs `[F, τ]` (forward force, steering torque; held over the step). Allocation-free.
 *
 * @example
 * ```ts
 * const s = new UnicycleStepper({ mass: 2, inertia: 0.1, h: 0.01 });
 * const sol = integrate(s, s.initialState([0, 0], 0, 1, 0.5), { h: 0.01, steps: 100 });
 * sol.heading[100]; // 0.5: a circle at constant speed without input
 * ```
 */
export class UnicycleStepper implements Stepper<UnicycleField> {
  readonly method = UNICYCLE_METHOD;
  readonly stateSize = 11;
  readonly inputSize = 2;
  readonly series = UNICYCLE_SERIES;
  readonly lastResidual = 0;
  readonly mass: number;
  readonly inertia: number;
  readonly h: number;
  private readonly X = new Float64Array(9);
  private readonly E = new Float64Array(9);
  private readonly tw = new Float64Array(3);

  constructor(options: { readonly mass: number; readonly inertia: number; readonly h: number }) {
    for (const key of ['mass', 'inertia', 'h'] as const) {
      const x = options[key];
      if (!(x > 0 && Number.isFinite(x)))
        throw new DomainError(`UnicycleStepper: ${key}`, x, 'must be positive and finite');
    }
    this.mass = options.mass;
    this.inertia = options.inertia;
    this.h = options.h;
  }

  /**
   * The state at position `position` = (x, y), heading θ, forward speed v and turning rate ω.
   * @throws DimensionError / DomainError for a wrong-length or non-finite value.
   */
  initialState(
    position: ArrayLike<number>,
    heading: number,
    v: number,
    omega: number,
  ): Float64Array {
    if (position.length !== 2)
      throw new DimensionError('UnicycleStepper: position', 2, position.length);
    const vals = [position[0]!, position[1]!, heading, v, omega];
    vals.forEach((x, i) => {
      if (!Number.isFinite(x))
        throw new DomainError(`UnicycleStepper: initial value ${i}`, x, 'must be finite');
    });
    const s = new Float64Array(11);
    const c = Math.cos(heading);
    const sn = Math.sin(heading);
    s.set([c, -sn, position[0]!, sn, c, position[1]!, 0, 0, 1], 0);
    s[9] = v;
    s[10] = omega;
    return s;
  }

  /** One step (U1)–(U2). `h` must be the stepper's. */
  step(state: Float64Array, _k: number, _t: number, h: number, u: Float64Array): number {
    if (h !== this.h)
      throw new DomainError('UnicycleStepper.step: h', h, `must be the stepper's h = ${this.h}`);
    const { X, E, tw } = this;
    const F = u.length === 2 ? u[0]! : 0;
    const tau = u.length === 2 ? u[1]! : 0;
    const v0 = state[9]!;
    const w0 = state[10]!;
    const v1 = v0 + (h * F) / this.mass; // (U1)
    const w1 = w0 + (h * tau) / this.inertia;
    tw[0] = 0.5 * h * (v0 + v1); // (U2)
    tw[1] = 0;
    tw[2] = 0.5 * h * (w0 + w1);
    SE2.exp(E, tw);
    for (let i = 0; i < 9; i++) X[i] = state[i]!;
    SE2.compose(X, X, E);
    for (let i = 0; i < 9; i++) state[i] = X[i]!;
    state[9] = v1;
    state[10] = w1;
    return 0;
  }

  /** Writes X, position, heading, v, omega, energy (½mv² + ½Iω²). */
  record(out: Float64Array, state: Float64Array): void {
    for (let i = 0; i < 9; i++) out[i] = state[i]!;
    out[9] = state[2]!;
    out[10] = state[5]!;
    out[11] = Math.atan2(state[3]!, state[0]!);
    const v = state[9]!;
    const w = state[10]!;
    out[12] = v;
    out[13] = w;
    out[14] = 0.5 * this.mass * v * v + 0.5 * this.inertia * w * w;
  }
}
