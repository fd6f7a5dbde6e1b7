// Unforced runs of DiscreteConstrainedSystem whose outputs were recorded from main (26ec42f)
// before forces were added, in `constrained-fixtures-unforced.json` (JSON: NaN → null); the
// forces tests check that the same runs, without a force and with a force at u = 0, are
// bit-identical to them.
import { SO3 } from '@geomech/core';
import { type ConstrainedSystemSpec, DiscreteConstrainedSystem } from '../../src/constrained.js';
import { PairGroupoid } from '../../src/pair.js';
import { plateBallGroupoid } from '../../src/product.js';

/** The particle of constant discrete speed in a central potential (constrained.test.ts). */
export function speedSpec(analytic: boolean): ConstrainedSystemSpec {
  const h = 0.1;
  const c = 1;
  const beta = 0.2;
  const V = (q: ArrayLike<number>, o: number) => {
    const r2 = q[o]! ** 2 + q[o + 1]! ** 2 + q[o + 2]! ** 2;
    return 0.5 * r2 + 0.25 * beta * r2 * r2;
  };
  const addGradV = (out: Float64Array, q: ArrayLike<number>, o: number, s: number) => {
    const r2 = q[o]! ** 2 + q[o + 1]! ** 2 + q[o + 2]! ** 2;
    const f = s * (1 + beta * r2);
    for (let i = 0; i < 3; i++) out[i] = out[i]! + f * q[o + i]!;
  };
  const spec: ConstrainedSystemSpec = {
    groupoid: new PairGroupoid(3),
    m: 1,
    Lhat: (g) => {
      let d2 = 0;
      for (let i = 0; i < 3; i++) d2 += (g[3 + i]! - g[i]!) ** 2;
      return d2 / (2 * h) - (h / 2) * (V(g, 0) + V(g, 3));
    },
    phi: (out, g) => {
      let d2 = 0;
      for (let i = 0; i < 3; i++) d2 += (g[3 + i]! - g[i]!) ** 2;
      out[0] = (d2 - (h * c) ** 2) / (2 * h);
    },
  };
  if (!analytic) return spec;
  return {
    ...spec,
    leftGradL: (out, g) => {
      for (let i = 0; i < 3; i++) out[i] = (g[3 + i]! - g[i]!) / h;
      addGradV(out, g, 3, -h / 2);
    },
    rightGradL: (out, g) => {
      for (let i = 0; i < 3; i++) out[i] = (g[3 + i]! - g[i]!) / h;
      addGradV(out, g, 0, h / 2);
    },
    leftGradPhi: (out, g) => {
      for (let i = 0; i < 3; i++) out[i] = (g[3 + i]! - g[i]!) / h;
    },
    rightGradPhi: (out, g) => {
      for (let i = 0; i < 3; i++) out[i] = (g[3 + i]! - g[i]!) / h;
    },
  };
}

export const SPEED_G1 = Float64Array.of(1, 0, 0, 1, 0.08, 0.06);
export const SPEED_LAMBDA1 = Float64Array.of(2);

/** The plate-ball written generically on Pair(R²) × SO(3) (plateBallOracle.test.ts, S5 data). */
export function plateBallSpec(): ConstrainedSystemSpec {
  const h = 0.05;
  const r = 1;
  const Omega = 0.7;
  const c = 0.3;
  const E = [
    [0, 0, 0, 0, 0, -1, 0, 1, 0],
    [0, 0, 1, 0, 0, 0, -1, 0, 0],
    [0, -1, 0, 1, 0, 0, 0, 0, 0],
  ] as const;
  const trRE = (g: Float64Array, e: readonly number[]): number => {
    let s = 0;
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) s += g[4 + 3 * i + k]! * e[3 * k + i]!;
    return s;
  };
  return {
    groupoid: plateBallGroupoid(),
    m: 3,
    Lhat: (g) => (h / 2) * (((g[2]! - g[0]!) / h) ** 2 + ((g[3]! - g[1]!) / h) ** 2),
    phi: (out, g) => {
      out[0] = g[3]! - g[1]! - (r / 2) * trRE(g, E[0]) - (h * Omega * (g[0]! + g[2]!)) / 2;
      out[1] = g[2]! - g[0]! + (r / 2) * trRE(g, E[1]) + (h * Omega * (g[1]! + g[3]!)) / 2;
      out[2] = h * c + 0.5 * trRE(g, E[2]);
    },
  };
}

/** The plate-ball's first arrow: (x, y) = (0, 0) → (0.02, 0.01) with R = Exp(0.05·(0.1, −0.2, 1)). */
export function plateBallG1(): Float64Array {
  const g = new Float64Array(13);
  g.set([0, 0, 0.02, 0.01], 0);
  SO3.exp(g.subarray(4), Float64Array.of(0.005, -0.01, 0.05));
  return g;
}
export const PLATE_BALL_LAMBDA1 = Float64Array.of(0.5, -0.4, 0.3);

/** The recorded numbers of one system: a forward run, a backward step and a Hamiltonian map. */
export interface UnforcedRecord {
  readonly g: number[];
  readonly lambda: number[];
  readonly iterations: number[];
  readonly backward: number[];
  readonly hamilton: number[];
}

/** Runs the recorded computations on `sys` (the same calls before and after forces). */
export function runUnforced(
  sys: DiscreteConstrainedSystem,
  g1: Float64Array,
  lambda1: Float64Array,
  steps: number,
  tol: number,
): UnforcedRecord {
  const sol = sys.integrate(g1, lambda1, { steps, tol });
  const iterations: number[] = [];
  let g = g1.slice();
  let l = lambda1.slice();
  for (let k = 0; k < 5; k++) {
    const r = sys.stepForward(g, l, { tol });
    iterations.push(r.iterations, r.residualNorm);
    g = r.g.slice();
    l = r.lambda.slice();
  }
  const back = sys.stepBackward(g, l, { tol });
  const G = sys.groupoid;
  const nu = { base: new Float64Array(G.baseDim), p: new Float64Array(sys.r) };
  sys.legendreMinus(nu, g, l);
  const out = { base: new Float64Array(G.baseDim), p: new Float64Array(sys.r) };
  const ham = sys.hamiltonianMap(out, nu, g, { tol, lambdaGuess: l });
  return {
    g: [...sol.g],
    lambda: [...sol.lambda],
    iterations,
    backward: [...back.g, ...back.lambda, back.iterations],
    hamilton: [...ham.image.base, ...ham.image.p, ...ham.g, ...ham.lambda, ham.iterations],
  };
}

/** The recorded systems: name → (system factory, g_1, λ_1, steps, tol). */
export const UNFORCED_CASES = {
  speedAnalytic: () =>
    [new DiscreteConstrainedSystem(speedSpec(true)), SPEED_G1, SPEED_LAMBDA1, 60, 1e-14] as const,
  speedFD: () =>
    [new DiscreteConstrainedSystem(speedSpec(false)), SPEED_G1, SPEED_LAMBDA1, 40, 1e-10] as const,
  plateBall: () =>
    [
      new DiscreteConstrainedSystem(plateBallSpec()),
      plateBallG1(),
      PLATE_BALL_LAMBDA1,
      20,
      1e-12,
    ] as const,
};
