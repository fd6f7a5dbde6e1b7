import { describe, expect, it } from 'vitest';
import { constraintAlgorithm } from '../src/constraintAlgorithm.js';
import { integrateDegenerate } from '../src/degenerate.js';
import { ImplicitLagrangianSystem, unconstrainedDistribution } from '../src/implicitSystem.js';
import { quadraticLagrangian } from '../src/lagrangian.js';
import { diag } from './fixtures.js';
import { grid, lc, lcExact, lcQ0, lcSystem, lcV0, maxDiff } from './implicitFixtures.js';

describe('(c) integrateDegenerate: degenerate linear-quadratic systems on the constraint subspace', () => {
  const alg = constraintAlgorithm(lcSystem);

  it('integrateDegenerate reproduces the closed form of spec 002 §4.2 (expm 1e-10, DOPRI5 1e-8)', () => {
    const T = 20;
    const tEval = grid(0, T, 80);
    const ex = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, T, { tEval });
    const dp = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, T, {
      tEval,
      method: 'dopri5',
      algorithm: alg,
    });
    expect(ex.initialCorrection).toBeLessThan(1e-14);
    for (const [sol, tol] of [
      [ex, 1e-10],
      [dp, 1e-8],
    ] as const) {
      let err = 0;
      for (let k = 0; k < sol.count; k++) {
        const s = lcExact(sol.t[k]!);
        err = Math.max(
          err,
          maxDiff(sol.sample('q', k), s.q),
          maxDiff(sol.sample('v', k), s.v),
          maxDiff(sol.sample('p', k), s.p),
          maxDiff(sol.sample('mu', k), s.mu),
        );
      }
      expect(err).toBeLessThan(tol);
    }
    // energy ½Lf_L² + V, the secondary constraint, KCL
    expect(ex.energyDrift).toBeLessThan(1e-12);
    expect(ex.constraintDrift.position!).toBeLessThan(1e-12);
    expect(ex.constraintDrift.velocity).toBeLessThan(1e-12);
  });

  it('along the solution: capacitor and inductor laws, Tellegen Σ e_k f_k = 0 (1e-10), zero constraint power', () => {
    const sol = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, 20, {
      samples: 81,
      algorithm: alg,
    });
    for (let k = 0; k < sol.count; k++) {
      const q = sol.sample('q', k);
      const f = sol.sample('v', k);
      const [m1, m2] = sol.sample('mu', k);
      const e = [-m1!, -m2!, m1! + m2!, -m2!]; // e = Aᵀμ ∈ Δ° (KVL)
      // e_Ck = q_Ck/Ck, e_L = L ḟ_L = −(q_C1/C1 + q_C2/C2)
      expect(Math.abs(e[1]! - q[1]! / lc.C1)).toBeLessThan(1e-10);
      expect(Math.abs(e[2]! - q[2]! / lc.C2)).toBeLessThan(1e-10);
      expect(Math.abs(e[3]! - q[3]! / lc.C3)).toBeLessThan(1e-10);
      expect(Math.abs(e[0]! + q[1]! / lc.C1 + q[2]! / lc.C2)).toBeLessThan(1e-10);
      let tellegen = 0;
      for (let i = 0; i < 4; i++) tellegen += e[i]! * f[i]!;
      expect(Math.abs(tellegen)).toBeLessThan(1e-10);
      expect(Math.abs(lcSystem.constraintForcePower(q, f, sol.sample('mu', k)))).toBeLessThan(
        1e-10,
      );
    }
  });

  it('projects inconsistent initial data onto the constraint subspace', () => {
    const q0 = Float64Array.of(0.2, 0.1, 0.1, 0.05); // q_C1/C1 ≠ q_C3/C3
    const sol = integrateDegenerate(lcSystem, { q0, v0: [0.5, 0, 0.5, 0] }, 5, {
      samples: 21,
      algorithm: alg,
    });
    expect(sol.initialCorrection).toBeGreaterThan(1e-2);
    const q = sol.sample('q', 0);
    expect(Math.abs(q[1]! / lc.C1 - q[3]! / lc.C3)).toBeLessThan(1e-12);
    expect(sol.constraintDrift.position!).toBeLessThan(1e-12);
    expect(sol.energyDrift).toBeLessThan(1e-12);
  });

  it('traditor (spec 002 §4.3): primary p = Sq, first-order rotation at rate 1/κ (1e-10)', () => {
    const kappa = 0.8;
    const S = [0, -kappa / 2, kappa / 2, 0];
    const trad = new ImplicitLagrangianSystem(
      quadraticLagrangian([0, 0, 0, 0], diag([1, 1]), S),
      unconstrainedDistribution(2),
    );
    const a = constraintAlgorithm(trad);
    expect(a.primaryCount).toBe(2);
    // the rows annihilate (q, Sq) for every q: P = graph α, α(q) = Sq
    for (const q of [
      [1, 0],
      [0, 1],
    ]) {
      const Sq = [S[0]! * q[0]! + S[1]! * q[1]!, S[2]! * q[0]! + S[3]! * q[1]!];
      for (let c = 0; c < 2; c++) {
        const row = a.primary.subarray(c * 4, c * 4 + 4);
        expect(
          Math.abs(row[0]! * q[0]! + row[1]! * q[1]! + row[2]! * Sq[0]! + row[3]! * Sq[1]!),
        ).toBeLessThan(1e-14);
      }
    }
    expect(a.dimension).toBe(2);
    expect(Math.abs(a.frequencies[0]! - 1 / kappa)).toBeLessThan(1e-12);
    const sol = integrateDegenerate(trad, { q0: [1, 0], v0: [0, 1 / kappa] }, 10, {
      samples: 41,
      algorithm: a,
    });
    expect(sol.initialCorrection).toBeLessThan(1e-14);
    for (let k = 0; k < sol.count; k++) {
      const t = sol.t[k]!;
      expect(maxDiff(sol.sample('q', k), [Math.cos(t / kappa), Math.sin(t / kappa)])).toBeLessThan(
        1e-10,
      );
    }
    expect(sol.energyDrift).toBeLessThan(1e-12); // E = V
  });
});
