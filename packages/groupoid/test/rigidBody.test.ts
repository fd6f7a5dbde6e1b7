import {
  convergenceOrder,
  DimensionError,
  DomainError,
  integrate,
  integrateDopri5,
  jacobianFromFiniteDifferences,
  NewtonDivergedError,
  newton,
  SO3,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { RigidBodyStepper, rigidBodyOCP, simulateRigidBody } from '../src/rigidBody.js';

// Scenario S3 (spec 003 §10): 𝕀 = diag(1, 2, 3), h = 0.1, ξ_1 = (0.8, −0.5, 0.3), 10³ steps.
const S3 = { inertia: [1, 2, 3], xi0: [0.8, -0.5, 0.3], h: 0.1, steps: 1000 } as const;

const spread = (v: Float64Array, stride = 1, offset = 0) => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = offset; i < v.length; i += stride) {
    lo = Math.min(lo, v[i]!);
    hi = Math.max(hi, v[i]!);
  }
  return hi - lo;
};

// measured over 10³ steps: Casimir spread, spatial momentum spread, energy oscillation, Newton its
const measured = {
  cayley: { casimir: 6.4e-14, spatial: 4.9e-14, energy: 6.05e-4 },
  exp: { casimir: 8.2e-15, spatial: 2.5e-14, energy: 2.04e-4 },
} as const;

describe('free rigid body, discrete Lie–Poisson integrator (spec 003 §8.1, S3)', () => {
  for (const map of ['cayley', 'exp'] as const) {
    describe(`τ = ${map}`, () => {
      const sol = simulateRigidBody({ ...S3, map });

      it(`keeps 1001 states from G_0 = I at t = 0 to t = 100; Newton converges to round-off in ≤ 3 iterations a step (max residual measured 1e-14)`, () => {
        expect(sol.count).toBe(1001);
        expect(sol.k[0]).toBe(0);
        expect(sol.t[0]).toBe(0);
        expect(Array.from(sol.sample('R', 0))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
        expect(Array.from(sol.sample('xi', 0))).toEqual([...S3.xi0]);
        expect(sol.k[1000]).toBe(1000);
        expect(sol.t[1000]).toBeCloseTo(100, 12);
        expect(sol.method.name).toBe(map);
        expect(sol.stats.maxResidual).toBeLessThan(1e-13);
        expect(sol.stats.maxIterations).toBeLessThanOrEqual(3);
        expect(sol.stats.newtonIterations).toBeLessThanOrEqual(3 * 1000);
      });

      it(`conserves the Casimir |π| (measured ${measured[map].casimir}) and the spatial momentum G_kπ_k (measured ${measured[map].spatial}) to round-off`, () => {
        expect(spread(sol.casimir)).toBeLessThan(1e-12);
        for (let i = 0; i < 3; i++) expect(spread(sol.spatialMomentum, 3, i)).toBeLessThan(1e-12);
        // and it is a genuine rotation: G_k orthogonal (measured 8e-15)
        const R = sol.R.subarray(1000 * 9, 1001 * 9);
        const RtR = new Float64Array(9);
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++)
            for (let k = 0; k < 3; k++)
              RtR[i * 3 + j] = RtR[i * 3 + j]! + R[k * 3 + i]! * R[k * 3 + j]!;
        for (let i = 0; i < 9; i++)
          expect(Math.abs(RtR[i]! - (i % 4 === 0 ? 1 : 0))).toBeLessThan(1e-13);
      });

      it(`energy ½ξᵀ𝕀ξ oscillates without drift (spread measured ${measured[map].energy})`, () => {
        const e = sol.energy;
        const first = spread(e.subarray(0, 500));
        const second = spread(e.subarray(500));
        expect(spread(e)).toBeLessThan(1e-3);
        // the oscillation of the two halves agrees to 1e-4 relative (measured 4e-5 cayley, 3e-4 exp)
        expect(Math.abs(first - second)).toBeLessThan(1e-3 * first);
      });

      it('(6.1-b) with µ_k, Φ_k agrees with (6.1-e) along the trajectory (measured ≤ 6e-15, the Newton tolerance)', () => {
        const ocp = rigidBodyOCP(S3.inertia, S3.h, map);
        const none = new Float64Array(0);
        const lp = new Float64Array(3);
        const del = new Float64Array(3);
        let worstLp = 0;
        let worstDel = 0;
        for (let k = 0; k < 1000; k += 37) {
          const a = sol.xi.subarray(k * 3, k * 3 + 3);
          const b = sol.xi.subarray(k * 3 + 3, k * 3 + 6);
          ocp.liePoissonResidual(lp, a, none, b, none);
          ocp.delResidual(del, a, none, b, none);
          for (let i = 0; i < 3; i++) {
            worstLp = Math.max(worstLp, Math.abs(lp[i]!));
            worstDel = Math.max(worstDel, Math.abs(del[i]!));
          }
        }
        expect(worstDel).toBeLessThan(1e-13);
        expect(worstLp).toBeLessThan(1e-13);
      });

      // With the default Newton tolerance 1e-14 the Cayley run returns to 1.1e-12 (ξ) and 3.3e-12
      // (G): the per-step solve error, amplified along the trajectory. With tol = 1e-15 (one more
      // Newton iteration in 1% of the steps) it is measured: cayley 1.0e-13 (ξ), 3.0e-13 (G);
      // exp 4.2e-14, 9.9e-14.
      it('is reversible: 10³ steps back recover ξ_1 and G_0 = I to 1e-12 (Newton tol 1e-15)', () => {
        const fine = simulateRigidBody({ ...S3, map, tol: 1e-15 });
        const ocp = rigidBodyOCP(S3.inertia, S3.h, map, { tol: 1e-15 });
        const none = new Float64Array(0);
        // the last sample: G_1000 and ξ_1001
        const xi = Float64Array.from(fine.last('xi'));
        const G = Float64Array.from(fine.last('R'));
        const g = new Float64Array(9);
        for (let k = 1000; k >= 1; k--) {
          // ξ_k from ξ_{k+1}, then G_{k−1} = G_k g_k⁻¹
          ocp.stepBackward(xi, none, xi, none, k);
          ocp.increment(g, xi);
          SO3.compose(G, G, SO3.inverse(g, g));
        }
        let dx = 0;
        for (let i = 0; i < 3; i++) dx = Math.max(dx, Math.abs(xi[i]! - S3.xi0[i]!));
        let dG = 0;
        for (let i = 0; i < 9; i++) dG = Math.max(dG, Math.abs(G[i]! - (i % 4 === 0 ? 1 : 0)));
        expect(dx).toBeLessThan(1e-12);
        expect(dG).toBeLessThan(1e-12);
      });
    });
  }

  it('modifiedEnergy ½ξᵀ𝕀ξ·(|hξ|/(2 sin(θ/2)))⁴ oscillates at O(h⁴), energy at O(h²) (measured orders 3.98/4.00 and 1.97/2.00)', () => {
    for (const map of ['cayley', 'exp'] as const) {
      const hs = [0.2, 0.1, 0.05];
      const mod: number[] = [];
      const plain: number[] = [];
      for (const h of hs) {
        const s = simulateRigidBody({ ...S3, h, steps: Math.round(30 / h), map });
        mod.push(spread(s.modifiedEnergy));
        plain.push(spread(s.energy));
      }
      expect(Math.abs(convergenceOrder(hs, mod).order - 4)).toBeLessThan(0.35);
      expect(Math.abs(convergenceOrder(hs, plain).order - 2)).toBeLessThan(0.35);
      // at S3's h = 0.1 it is 400–3000 times flatter (measured 2.0e-7 vs 6.0e-4 cayley,
      // 4.6e-7 vs 2.0e-4 exp)
      expect(mod[1]!).toBeLessThan(1e-2 * plain[1]!);
    }
  });

  it('converges at order 2 to the continuous rigid body from consistent data (measured 1.995 cayley, 2.000 exp)', () => {
    // the continuous body: Ṙ = Rω̂, 𝕀ω̇ = (𝕀ω) × ω, R(0) = I, ω(0) = (0.8, −0.5, 0.3), to t = 1 by
    // DOPRI5 at rtol 1e-13; the discrete run starts from the same node momentum π_0 = 𝕀ω(0),
    // ξ_1 solving F⁻(ξ_1) = (dτ⁻¹_{−hξ_1})ᵀ𝕀ξ_1 = π_0 (ξ_1 = ω(0) would be an O(h) datum)
    const I = [1, 2, 3];
    const w0 = [0.8, -0.5, 0.3];
    const ref = integrateDopri5(
      (out, _t, y) => {
        const [a, b, c] = [y[9]!, y[10]!, y[11]!];
        for (let i = 0; i < 3; i++) {
          // Ṙ = R ω̂: row i of R times ω̂
          const [r0, r1, r2] = [y[3 * i]!, y[3 * i + 1]!, y[3 * i + 2]!];
          out[3 * i] = r1 * c - r2 * b;
          out[3 * i + 1] = r2 * a - r0 * c;
          out[3 * i + 2] = r0 * b - r1 * a;
        }
        out[9] = ((I[1]! - I[2]!) * b * c) / I[0]!;
        out[10] = ((I[2]! - I[0]!) * c * a) / I[1]!;
        out[11] = ((I[0]! - I[1]!) * a * b) / I[2]!;
      },
      [1, 0, 0, 0, 1, 0, 0, 0, 1, ...w0],
      0,
      1,
      { rtol: 1e-13, atol: 1e-14 },
    );
    const Rref = ref.last('y').subarray(0, 9);
    const pi0 = w0.map((w, i) => I[i]! * w);
    for (const map of ['cayley', 'exp'] as const) {
      const hs = [0.1, 0.05, 0.025, 0.0125];
      const errors = hs.map((h) => {
        const stepper = new RigidBodyStepper(I, h, map, { tol: 1e-15 });
        const none = new Float64Array(0);
        const mom = { plus: new Float64Array(3), minus: new Float64Array(3) };
        const F = (out: Float64Array, xi: Float64Array): void => {
          stepper.ocp.momenta(xi, none, mom);
          for (let i = 0; i < 3; i++) out[i] = mom.minus[i]! - pi0[i]!;
        };
        const xi1 = newton(F, jacobianFromFiniteDifferences(F, 3, 3), w0, { tol: 1e-15 }).x;
        const sol = integrate(stepper, stepper.initialState(xi1), { h, steps: Math.round(1 / h) });
        let e = 0;
        const R = sol.last('R');
        for (let i = 0; i < 9; i++) e = Math.max(e, Math.abs(R[i]! - Rref[i]!));
        return e;
      });
      const { order } = convergenceOrder(hs, errors);
      expect(Math.abs(order - 2)).toBeLessThan(0.35);
    }
  });

  it('every: keeps the first, every e-th and the last state', () => {
    const s = simulateRigidBody({ ...S3, steps: 10, every: 4 });
    expect(Array.from(s.k)).toEqual([0, 4, 8, 10]);
    const full = simulateRigidBody({ ...S3, steps: 10 });
    expect(Array.from(s.xi.subarray(9, 12))).toEqual(Array.from(full.xi.subarray(30, 33)));
  });

  it('the two maps differ by O(h²) at t = 1 (measured 7.9e-4 at h = 0.1, 2.0e-4 at h = 0.05: order 1.97)', () => {
    const diff = (h: number) => {
      const steps = Math.round(1 / h);
      const a = simulateRigidBody({ ...S3, h, steps, map: 'cayley' });
      const b = simulateRigidBody({ ...S3, h, steps, map: 'exp' });
      let m = 0;
      for (let i = 0; i < 9; i++)
        m = Math.max(m, Math.abs(a.R[steps * 9 + i]! - b.R[steps * 9 + i]!));
      return m;
    };
    const d1 = diff(0.1);
    const d2 = diff(0.05);
    expect(Math.log2(d1 / d2)).toBeGreaterThan(2 - 0.35);
    expect(Math.log2(d1 / d2)).toBeLessThan(2 + 0.35);
  });

  it('bad input throws typed errors', () => {
    expect(() => simulateRigidBody({ ...S3, inertia: [1, 0, 3] })).toThrow(DomainError);
    expect(() => simulateRigidBody({ ...S3, inertia: [1, 2] })).toThrow(DimensionError);
    expect(() => simulateRigidBody({ ...S3, xi0: [1, 2] })).toThrow(DimensionError);
    expect(() => simulateRigidBody({ ...S3, steps: -1 })).toThrow(DomainError);
    expect(() => simulateRigidBody({ ...S3, every: 0 })).toThrow(DomainError);
    expect(() => simulateRigidBody({ ...S3, h: Number.NaN })).toThrow(DomainError);
    expect(() => simulateRigidBody({ ...S3, tEnd: 1 })).toThrow(DomainError); // h and tEnd
    expect(() => simulateRigidBody({ inertia: [1, 2, 3], xi0: [1, 2, 3], steps: 3 })).toThrow(
      DomainError,
    );
    expect(() => simulateRigidBody({ ...S3, map: 'quat' as 'exp' })).toThrow(DomainError);
    expect(() => simulateRigidBody({ ...S3, maxIterations: 1 })).toThrow(NewtonDivergedError);
  });

  it('a run given by its final time ends exactly there (tEnd = 1 with 30 steps: t = 1, h = 1/30)', () => {
    const { h: _h, ...rest } = S3;
    const s = simulateRigidBody({ ...rest, tEnd: 1, steps: 30 });
    expect(s.count).toBe(31);
    expect(s.t[30]).toBe(1);
    expect(s.h).toBe(1 / 30);
    // the same run as h = 1/30
    const b = simulateRigidBody({ ...S3, h: 1 / 30, steps: 30 });
    expect(Array.from(s.R)).toEqual(Array.from(b.R));
  });

  it("onFailure 'return' keeps the samples before a failed step (maxIterations 1 fails the first step)", () => {
    const s = simulateRigidBody({ ...S3, steps: 5, maxIterations: 1, onFailure: 'return' });
    expect(s.ok).toBe(false);
    expect(s.failure?.step).toBe(0);
    expect(s.failure?.error).toBeInstanceOf(NewtonDivergedError);
    expect(s.count).toBe(1);
    expect(Array.from(s.sample('xi', 0))).toEqual([...S3.xi0]);
  });
});
