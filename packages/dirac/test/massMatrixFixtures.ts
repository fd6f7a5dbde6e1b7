/** The spherical pendulum in spherical coordinates (M(q)) and in Cartesian ones, for the M(q) tests. */
import { type Force, integrateDopri5 } from '@geomech/core';
import { indexReducedRhs } from '../src/comparators.js';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';

export const mass = 1.3;
export const g = 9.81;
export const l = 0.7;

/**
 * The spherical pendulum in spherical coordinates q = (r, θ, φ) (θ from the downward vertical):
 * M(q) = m diag(1, r², r² sin²θ), V = −m g r cos θ, one constraint φ = r² − l² (ψ = ½dφ, C =
 * [r, 0, 0], curvature ṙ²). κ = Ṁv − ½∇(vᵀMv) written out; `kineticGradient` analytic only in
 * the variant `withGradient`.
 */
export function spherical(withGradient: boolean): ConstrainedMechanicalSystem {
  const sys: ConstrainedMechanicalSystem = {
    n: 3,
    m: 1,
    mass: Float64Array.of(1, 1, 1),
    V: (q) => -mass * g * q[0]! * Math.cos(q[1]!),
    gradV: (out, q) => {
      out[0] = -mass * g * Math.cos(q[1]!);
      out[1] = mass * g * q[0]! * Math.sin(q[1]!);
      out[2] = 0;
      return out;
    },
    phi: (out, q) => {
      out[0] = q[0]! * q[0]! - l * l;
      return out;
    },
    C: (out, q) => {
      out[0] = q[0]!;
      out[1] = 0;
      out[2] = 0;
      return out;
    },
    curvature: (out, _q, v) => {
      out[0] = v[0]! * v[0]!;
      return out;
    },
    massMatrix: (out, q) => {
      const r = q[0]!;
      const s = Math.sin(q[1]!);
      out.fill(0);
      out[0] = mass;
      out[4] = mass * r * r;
      out[8] = mass * r * r * s * s;
      return out;
    },
    coriolis: (out, q, v) => {
      const r = q[0]!;
      const s = Math.sin(q[1]!);
      const c = Math.cos(q[1]!);
      const [rd, td, pd] = [v[0]!, v[1]!, v[2]!];
      out[0] = -mass * (r * td * td + r * s * s * pd * pd);
      out[1] = 2 * mass * r * rd * td - mass * r * r * s * c * pd * pd;
      out[2] = mass * (2 * r * rd * s * s + 2 * r * r * s * c * td) * pd;
      return out;
    },
  };
  if (!withGradient) return sys;
  return {
    ...sys,
    kineticGradient: (out, q, v) => {
      const r = q[0]!;
      const s = Math.sin(q[1]!);
      const c = Math.cos(q[1]!);
      out[0] = mass * (r * v[1]! ** 2 + r * s * s * v[2]! ** 2);
      out[1] = mass * r * r * s * c * v[2]! ** 2;
      out[2] = 0;
      return out;
    },
  };
}

/** The same pendulum in Cartesian coordinates (M = m I, |x|² = l²). */
export const cartesian: ConstrainedMechanicalSystem = {
  n: 3,
  m: 1,
  mass: Float64Array.of(mass, mass, mass),
  V: (q) => mass * g * q[2]!,
  gradV: (out) => {
    out[0] = 0;
    out[1] = 0;
    out[2] = mass * g;
    return out;
  },
  phi: (out, q) => {
    out[0] = q[0]! ** 2 + q[1]! ** 2 + q[2]! ** 2 - l * l;
    return out;
  },
  C: (out, q) => {
    out.set(q.subarray(0, 3));
    return out;
  },
  curvature: (out, _q, v) => {
    out[0] = v[0]! ** 2 + v[1]! ** 2 + v[2]! ** 2;
    return out;
  },
};

export const toCartesian = (q: ArrayLike<number>): number[] => {
  const [r, th, ph] = [q[0]!, q[1]!, q[2]!];
  return [r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), -r * Math.cos(th)];
};

// initial data on the constraint (r = l, ṙ = 0)
export const th0 = 0.9;
export const ph0 = 0.2;
export const thd0 = 0.3;
export const phd0 = 1.7;
export const q0 = [l, th0, ph0];
export const v0 = [0, thd0, phd0];
export const x0 = toCartesian(q0);
export const xd0 = [
  l * (Math.cos(th0) * Math.cos(ph0) * thd0 - Math.sin(th0) * Math.sin(ph0) * phd0),
  l * (Math.cos(th0) * Math.sin(ph0) * thd0 + Math.sin(th0) * Math.cos(ph0) * phd0),
  l * Math.sin(th0) * thd0,
];

/** The pendulum in angles (θ, φ) without constraints: M(q) = m l² diag(1, sin²θ). */
export const angles: ConstrainedMechanicalSystem = {
  n: 2,
  m: 0,
  mass: Float64Array.of(1, 1),
  V: (q) => -mass * g * l * Math.cos(q[0]!),
  gradV: (out, q) => {
    out[0] = mass * g * l * Math.sin(q[0]!);
    out[1] = 0;
    return out;
  },
  phi: (out) => out,
  C: (out) => out,
  curvature: (out) => out,
  massMatrix: (out, q) => {
    const s = Math.sin(q[0]!);
    out[0] = mass * l * l;
    out[1] = 0;
    out[2] = 0;
    out[3] = mass * l * l * s * s;
    return out;
  },
  coriolis: (out, q, v) => {
    const D = 2 * mass * l * l * Math.sin(q[0]!) * Math.cos(q[0]!);
    out[0] = -0.5 * D * v[1]! * v[1]!;
    out[1] = D * v[0]! * v[1]!;
    return out;
  },
};

/**
 * Viscous damping of θ only, F = (−0.4 θ̇, 0) on {@link angles} (no input): p_φ stays conserved,
 * so the centrifugal barrier keeps θ away from the pole where M(q) is singular.
 */
export const thetaDamping: Force = {
  n: 2,
  m: 0,
  F: (out, _t, _q, v) => {
    out[0] = -0.4 * v[0]!;
    out[1] = 0;
    return out;
  },
};

/**
 * max(|Δθ|, |Δφ|) at T = 1 of `run(h, steps)` (the final q of a damped run of {@link angles} from
 * (θ0, 0.2, θ̇0, φ̇0)) against the damped index-reduced DOPRI5 reference (rtol 1e-12), for each h;
 * `free` is the undamped run's error at the last h (the damping must matter).
 */
export function dampedErrors(
  run: (h: number, steps: number, force: Force | undefined) => Float64Array,
  hs: readonly number[],
): { errors: number[]; free: number } {
  const ref = integrateDopri5(indexReducedRhs(angles, thetaDamping), [th0, 0.2, thd0, phd0], 0, 1, {
    rtol: 1e-12,
    atol: 1e-14,
  });
  const yRef = ref.sample('y', ref.count - 1);
  const err = (q: Float64Array): number =>
    Math.max(Math.abs(q[0]! - yRef[0]!), Math.abs(q[1]! - yRef[1]!));
  const errors = hs.map((h) => err(run(h, Math.round(1 / h), thetaDamping)));
  const hLast = hs[hs.length - 1]!;
  return { errors, free: err(run(hLast, Math.round(1 / hLast), undefined)) };
}
