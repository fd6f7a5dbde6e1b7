import { describe, expect, it } from 'vitest';
import { lcCircuit4, simpleLC } from '../src/examples.js';
import { ImplicitLagrangianSystem } from '../src/implicitSystem.js';
import { integrateLagrangeDirac } from '../src/lagrangeDirac.js';
import { withSecondaryConstraints } from '../src/secondary.js';

describe('withSecondaryConstraints (spec 002 §4.2)', () => {
  const [L, C1, C2, C3] = [0.7, 0.3, 0.5, 0.9];
  const circuit = lcCircuit4({ L, C1, C2, C3 });
  const system = new ImplicitLagrangianSystem(circuit.lagrangian, circuit.distribution);

  it('appends one row ∝ (0, 1/C1, 0, −1/C3) to the two KCL rows (1e-12)', () => {
    const Delta = withSecondaryConstraints(system);
    expect(Delta.m).toBe(3);
    const A = Delta.A(new Float64Array(12), new Float64Array(4));
    const row = A.subarray(8, 12);
    const scale = row[1]! * C1;
    expect(Math.abs(row[0]!)).toBeLessThan(1e-12);
    expect(Math.abs(row[2]!)).toBeLessThan(1e-12);
    expect(Math.abs(row[3]! / scale + 1 / C3)).toBeLessThan(1e-12);
    expect(
      Array.from(Delta.Adot(new Float64Array(12), new Float64Array(4), new Float64Array(4))),
    ).toEqual(new Array(12).fill(0));
  });

  it('makes the (±) steps regular: both run, keep q_C1/C1 = q_C3/C3 to 1e-12 and approach the closed form at order 1', () => {
    const Delta = withSecondaryConstraints(system);
    const start = circuit.consistentInitialData(0.3, 0, 0);
    for (const sign of ['plus', 'minus'] as const) {
      const errors: number[] = [];
      for (const h of [0.01, 0.005, 0.0025]) {
        const steps = Math.round(10 / h);
        const sol = integrateLagrangeDirac(
          circuit.lagrangian,
          Delta,
          `dirac-${sign}` as const,
          { q0: start.q, v0: start.v },
          h,
          steps,
        );
        const last = sol.count - 1;
        for (let k = 0; k <= last; k += 100) {
          expect(Math.abs(sol.q[k * 4 + 1]! / C1 - sol.q[k * 4 + 3]! / C3)).toBeLessThan(1e-12);
        }
        const exact = circuit.exactSolution(last * h);
        errors.push(
          Math.max(...[0, 1, 2, 3].map((i) => Math.abs(sol.q[last * 4 + i]! - exact.q[i]!))),
        );
      }
      const order = (Math.log2(errors[0]! / errors[1]!) + Math.log2(errors[1]! / errors[2]!)) / 2;
      expect(Math.abs(order - 1)).toBeLessThan(0.35);
      expect(errors[0]!).toBeLessThan(5e-3);
    }
  });

  it('returns the distribution unchanged when there is no hidden constraint (single loop)', () => {
    const lc = simpleLC({ L: 2, C: 0.125 });
    const s = new ImplicitLagrangianSystem(lc.lagrangian, lc.distribution);
    expect(withSecondaryConstraints(s)).toBe(lc.distribution);
  });
});
