import { CENTRAL_DIFFERENCE_STEP, NewtonDivergedError, NonFiniteError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { RigidBodyStepper, rigidBodyOCP } from '../src/rigidBody.js';
import { RigidBodyNewton } from '../src/rigidBodyNewton.js';

const INERTIA = Float64Array.of(1, 2, 3);
const NONE = new Float64Array(0);

describe('RigidBodyNewton: the written-out rigid-body Newton kernel (spec 003 §8.1)', () => {
  for (const map of ['cayley', 'exp'] as const) {
    // points on both branches of the exp coefficients: |sξ| below SMALL_ANGLE (1e-4), below the
    // dexp series switch (0.5) and above it
    const points = [
      [0.8, -0.5, 0.3],
      [3, -2, 4],
      [2e-4, -1e-4, 3e-4],
      [1e-6, 2e-6, -1e-6],
    ];
    for (const h of [0.1, 1]) {
      for (const p of points) {
        it(`${map}, h = ${h}, ξ = (${p.join(', ')}): the analytic Jacobian ∂F⁻/∂ξ matches central differences of F⁻ to 1e-8 relative`, () => {
          const nw = new RigidBodyNewton(INERTIA, h, map, 1e-14, 50);
          const Jan = nw.jacobian(new Float64Array(9), p, -h);
          const Jfd = new Float64Array(9);
          const xp = new Float64Array(3);
          const fp = new Float64Array(3);
          const fm = new Float64Array(3);
          for (let j = 0; j < 3; j++) {
            const eps = CENTRAL_DIFFERENCE_STEP * Math.max(1, Math.abs(p[j]!));
            xp.set(p);
            xp[j] = p[j]! + eps;
            nw.momentum(fp, xp, -h);
            xp[j] = p[j]! - eps;
            nw.momentum(fm, xp, -h);
            for (let i = 0; i < 3; i++) Jfd[i * 3 + j] = (fp[i]! - fm[i]!) / (2 * eps);
          }
          let scale = 0;
          let err = 0;
          for (let i = 0; i < 9; i++) {
            scale = Math.max(scale, Math.abs(Jan[i]!));
            err = Math.max(err, Math.abs(Jan[i]! - Jfd[i]!));
          }
          expect(err / scale).toBeLessThan(1e-8);
          // and it is the generic kernel's Jacobian, bit for bit
          const ocp = rigidBodyOCP(INERTIA, h, map);
          const Jgen = ocp.stepJacobian(new Float64Array(9), Float64Array.from(p), NONE);
          expect(Array.from(Jan)).toEqual(Array.from(Jgen));
        });
      }
    }

    it(`${map}: RigidBodyStepper reproduces LieGroupOCP.stepLP + reconstruct bit for bit over 10³ steps (S3 and h = 0.5), with the same Newton iterations`, () => {
      for (const [h, xi0] of [
        [0.1, [0.8, -0.5, 0.3]],
        [0.5, [1.5, -1, 0.7]],
        [0.1, [1e-5, 2e-5, -3e-5]],
      ] as const) {
        const stepper = new RigidBodyStepper(INERTIA, h, map);
        const state = stepper.initialState(xi0);
        const ocp = rigidBodyOCP(INERTIA, h, map);
        const G = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
        const xi = Float64Array.from(xi0);
        let itsFast = 0;
        let itsGeneric = 0;
        for (let k = 0; k < 1000; k++) {
          itsFast += stepper.step(state, k, h);
          ocp.reconstruct(G, G, xi);
          itsGeneric += ocp.stepLP(xi, NONE, xi, NONE, k).iterations;
        }
        expect(Array.from(state.subarray(0, 9))).toEqual(Array.from(G));
        expect(Array.from(state.subarray(9))).toEqual(Array.from(xi));
        expect(itsFast).toBe(itsGeneric);
        expect(itsFast).toBeGreaterThanOrEqual(1000);
      }
    });

    it(`${map}: failures are typed: non-finite ξ, Newton capped at 1 iteration`, () => {
      const nw = new RigidBodyNewton(INERTIA, 0.1, map, 1e-14, 1);
      const out = new Float64Array(3);
      expect(() => nw.solve([Number.NaN, 0, 0], out, 3)).toThrow(NonFiniteError);
      expect(() => nw.solve([0.8, -0.5, 0.3], out, 7)).toThrow(NewtonDivergedError);
      try {
        nw.solve([0.8, -0.5, 0.3], out, 7);
      } catch (e) {
        expect((e as NewtonDivergedError).step).toBe(7);
        expect((e as NewtonDivergedError).iterations).toBe(1);
      }
      // the generic path fails the same way at the same iteration
      const ocp = rigidBodyOCP(INERTIA, 0.1, map, { maxIterations: 1 });
      expect(() => ocp.stepLP(Float64Array.of(0.8, -0.5, 0.3), NONE, out, NONE, 7)).toThrow(
        NewtonDivergedError,
      );
    });
  }
});
