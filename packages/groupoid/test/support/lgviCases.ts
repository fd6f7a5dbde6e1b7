// The LGVI runs whose trajectories, Newton counts, step derivatives and recorded series are kept as
// fixtures (lgvi-fixtures.json, recorded from 753adc6 before the SO(3) core of the two steppers was
// shared): lgviFixtures.test.ts checks that the steppers reproduce them bit for bit.
// Record again (only deliberately) with `GEOMECH_RECORD_LGVI=1 npx vitest run --project groupoid
// packages/groupoid/test/lgviFixtures.test.ts`.
import {
  GravityPotential,
  QuadrotorLgviStepper,
  So3LgviStepper,
  type So3Potential,
} from '../../src/lgvi.js';

/** What one case records: flat arrays of doubles (JSON keeps every bit of a finite double). */
export interface LgviRecord {
  /** The state after every step. */
  readonly states: number[];
  /** Newton iterations and the last residual of every step. */
  readonly iterations: number[];
  readonly residuals: number[];
  /** `stepDerivatives` (dxdx then dxdu) after the steps listed in the case. */
  readonly derivatives: number[];
  /** `record` of the state after the steps listed in the case. */
  readonly series: number[];
}

/** A stepper as the fixtures drive it. */
interface CaseStepper {
  readonly stateSize: number;
  readonly tangentSize: number;
  readonly inputSize: number;
  readonly series: readonly { readonly width: number }[];
  step(state: Float64Array, k: number, h: number, u: Float64Array): number;
  stepDerivatives(dxdx: Float64Array, dxdu: Float64Array): void;
  record(out: Float64Array, state: Float64Array): void;
  lastResidual: number;
}

export interface LgviCase {
  readonly name: string;
  readonly steps: number;
  /** Steps after which the derivatives and the series are recorded. */
  readonly at: readonly number[];
  /** The stepper, its initial state and u_k (an empty array: the stepper's zero-input path). */
  make(): {
    stepper: CaseStepper;
    x0: Float64Array;
    h: number;
    input: (u: Float64Array, k: number) => Float64Array;
  };
}

/** The heavy top's potential without its analytic `momentJacobian` (the central-difference path). */
function withoutJacobian(U: So3Potential): So3Potential {
  return { value: (R) => U.value(R), moment: (out, R) => U.moment(out, R) };
}

export const LGVI_CASES: readonly LgviCase[] = [
  {
    name: 'heavy top with a torque',
    steps: 300,
    at: [0, 150, 299],
    make() {
      const h = 0.01;
      const stepper = new So3LgviStepper({
        inertia: [1, 1, 2],
        h,
        potential: new GravityPotential(1, 9.81, [0, 0, 0.5]),
      });
      const u = new Float64Array(3);
      return {
        stepper,
        h,
        x0: stepper.initialState([0.3, 0, 0], [0, 0, 20]),
        input: (_u, k) => {
          u[0] = 0.1 * Math.sin(k * h);
          u[1] = 0.2 * Math.cos(k * h);
          u[2] = 0.05;
          return u;
        },
      };
    },
  },
  {
    name: 'asymmetric body, moment Jacobian by central differences, no input',
    steps: 60,
    at: [0, 59],
    make() {
      const h = 0.02;
      const stepper = new So3LgviStepper({
        inertia: [1, 2, 3],
        h,
        potential: withoutJacobian(new GravityPotential(2, 9.81, [0.1, -0.2, 0.4])),
      });
      const none = new Float64Array(0);
      return {
        stepper,
        h,
        x0: stepper.initialState([0.4, -0.7, 1.1], [0.8, -0.5, 0.3]),
        input: () => none,
      };
    },
  },
  {
    name: 'free rigid body',
    steps: 40,
    at: [39],
    make() {
      const h = 0.05;
      const stepper = new So3LgviStepper({ inertia: [1, 2, 3], h });
      const zero = new Float64Array(3);
      return {
        stepper,
        h,
        x0: stepper.initialState([0, 0, 0], [0.8, -0.5, 0.3]),
        input: () => zero,
      };
    },
  },
  {
    name: 'quadrotor with thrust and torques',
    steps: 300,
    at: [0, 150, 299],
    make() {
      const h = 0.01;
      const stepper = new QuadrotorLgviStepper({
        mass: 1.5,
        inertia: [0.02, 0.02, 0.04],
        gravity: 9.81,
        h,
      });
      const u = new Float64Array(4);
      return {
        stepper,
        h,
        x0: stepper.initialState([0.1, -0.2, 0.05], [0, 0, 1], [0.5, 0, 1], [0.1, 0, 0]),
        input: (_u, k) => {
          u[0] = stepper.hoverThrust * (1 + 0.1 * Math.sin(3 * k * h));
          u[1] = 0.002 * Math.cos(k * h);
          u[2] = -0.001;
          u[3] = 0.0005 * Math.sin(2 * k * h);
          return u;
        },
      };
    },
  },
  {
    name: 'quadrotor without inputs (free fall)',
    steps: 40,
    at: [39],
    make() {
      const h = 0.02;
      const stepper = new QuadrotorLgviStepper({
        mass: 2,
        inertia: [0.03, 0.05, 0.07],
        gravity: 9.81,
        h,
      });
      const none = new Float64Array(0);
      return {
        stepper,
        h,
        x0: stepper.initialState([0.3, 0.2, -0.1], [1, 2, 3], [1, -2, 0.5], [0.5, 0.1, 2]),
        input: () => none,
      };
    },
  },
];

/** Runs one case from its initial state (a fresh stepper). */
export function runLgviCase(c: LgviCase): LgviRecord {
  const { stepper, x0, h, input } = c.make();
  const state = Float64Array.from(x0);
  const n = stepper.tangentSize;
  const A = new Float64Array(n * n);
  const B = new Float64Array(n * stepper.inputSize);
  const width = stepper.series.reduce((s, x) => s + x.width, 0);
  const rec = new Float64Array(width);
  const out: LgviRecord = {
    states: [],
    iterations: [],
    residuals: [],
    derivatives: [],
    series: [],
  };
  for (let k = 0; k < c.steps; k++) {
    out.iterations.push(stepper.step(state, k, h, input(state, k)));
    out.residuals.push(stepper.lastResidual);
    out.states.push(...state);
    if (c.at.includes(k)) {
      stepper.stepDerivatives(A, B);
      out.derivatives.push(...A, ...B);
      stepper.record(rec, state);
      out.series.push(...rec);
    }
  }
  return out;
}
