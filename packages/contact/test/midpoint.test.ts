import {
  checkJacobian,
  convergenceOrder,
  DomainError,
  integrateDopri5,
  type Potential,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ContactIntegrator,
  herglotzVectorField,
  MidpointHerglotz,
  mechanicalContactLagrangian,
  midpointLd,
  pendulumPotential,
  quadraticPotential,
  zeroPotential,
} from '../src/index.js';
import { RegularityError } from '../src/regularity.js';
import { maxAbsDiff } from './integratorFixtures.js';

const oscillator = (gamma: number) => mechanicalContactLagrangian(quadraticPotential(1), gamma);

describe('MidpointHerglotz on the damped oscillator (spec 004 §8.2, Fig. 2)', () => {
  // Reference values [D] of spec 004 §8.2: gamma = -0.05, h = 0.5, 50 steps.
  const caption = [
    // k, q_d, z_d, lnH_d
    [2, 2.5102941176, -0.5844594777, 1.1712117],
    [10, -1.9413140853, -2.2302390658, 0.97407856],
    [20, -1.4078968575, 0.2940531453, 0.72864767],
    [30, 1.0490688874, -1.3580468606, 0.47706474],
    [40, 1.4342853582, 0.0201241806, 0.21315386],
    [50, -0.3478075467, -0.5828026421, -0.02169423],
  ] as const;
  const inferred = [
    [2, 1.7426470588, 0.9954550984, 0.79786446],
    [10, -1.8641116545, -0.3722038111, 0.58699786],
    [30, 1.2498685421, -0.5113269826, 0.08640932],
    [50, -0.6848574153, -0.3229534756, -0.41081341],
  ] as const;

  for (const [label, q1, table] of [
    ['caption IC (q0=1, q1=2)', 2, caption],
    ['inferred IC (q0=0, q1=1)', 1, inferred],
  ] as const) {
    it(`reproduces the reference table, ${label}, to 1e-10 in q, z and 1e-8 in ln H`, () => {
      const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
        { q0: [q1 - 1], q1: [q1], z0: 0 },
        50,
      );
      expect(sol.count).toBe(51);
      for (const [k, q, z, lnH] of table) {
        expect(Math.abs(sol.q[k]! - q)).toBeLessThan(1e-10);
        expect(Math.abs(sol.z[k]! - z)).toBeLessThan(1e-10);
        expect(Math.abs(Math.log(sol.energy[k]!) - lnH)).toBeLessThan(1e-8);
      }
    });
  }

  it('starts with p0 = 2.375/0.975 and p1 = D2 L_d = 1.625 (caption IC)', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], q1: [2], z0: 0 },
      1,
    );
    expect(sol.p[0]).toBeCloseTo(2.375 / 0.975, 14);
    expect(sol.p[1]).toBeCloseTo(1.625, 14);
    expect(sol.z[1]).toBeCloseTo(0.4375, 14);
  });

  it('matches the closed-form recurrence of spec 004 §7.3 at every step (1e-12)', () => {
    const h = 0.5;
    const g = -0.05;
    const sol = new MidpointHerglotz(oscillator(g), h).integrate({ q0: [1], q1: [2], z0: 0 }, 50);
    let qm = 1;
    let q = 2;
    for (let k = 2; k <= 50; k++) {
      const qn = ((2 + h * g) * (4 - h * h) * q - (1 + h * g) * (4 + h * h) * qm) / (4 + h * h);
      expect(Math.abs(sol.q[k]! - qn)).toBeLessThan(1e-12);
      qm = q;
      q = qn;
    }
  });
});

describe('MidpointHerglotz on the free particle (spec 004 §7.3)', () => {
  it('follows q_{k+1} = (hγ+2)q_k − (hγ+1)q_{k−1} and p_{k+1} = (1+hγ)p_k', () => {
    const h = 0.5;
    const g = -0.05;
    const sol = new MidpointHerglotz(mechanicalContactLagrangian(zeroPotential(), g), h).integrate(
      { q0: [1], q1: [2], z0: 0 },
      40,
    );
    for (let k = 2; k <= 40; k++) {
      const expected = (h * g + 2) * sol.q[k - 1]! - (h * g + 1) * sol.q[k - 2]!;
      expect(Math.abs(sol.q[k]! - expected)).toBeLessThan(1e-12);
      expect(Math.abs(sol.p[k]! - (1 + h * g) * sol.p[k - 1]!)).toBeLessThan(1e-14);
    }
    expect(sol.stats.newtonIterations).toBe(0); // the free-flight guess is exact
  });
});

describe('MidpointHerglotz on the nonlinear damped pendulum', () => {
  it('satisfies the discrete Herglotz equations (39) along the trajectory to 1e-12', () => {
    const h = 0.1;
    const gamma = -0.1;
    const integrator = new MidpointHerglotz(
      mechanicalContactLagrangian(pendulumPotential(1, 1), gamma),
      h,
    );
    const sol = integrator.integrate({ q0: [1], v0: [0], z0: 0 }, 200);
    const d1 = new Float64Array(1);
    const d2 = new Float64Array(1);
    let maxResidual = 0;
    for (let k = 1; k < 200; k++) {
      integrator.Ld.D1(d1, sol.q.subarray(k, k + 1), sol.q.subarray(k + 1, k + 2), 0);
      integrator.Ld.D2(d2, sol.q.subarray(k - 1, k), sol.q.subarray(k, k + 1), 0);
      // (39): D1 L_d(q_k, q_{k+1}) + (1 + hγ) D2 L_d(q_{k−1}, q_k) = 0
      maxResidual = Math.max(maxResidual, Math.abs(d1[0]! + (1 + h * gamma) * d2[0]!));
    }
    expect(maxResidual).toBeLessThan(1e-12);
    expect(sol.stats.newtonIterations).toBeGreaterThan(199); // nonlinear: Newton really iterates
  });

  it('gives the same trajectory with an analytic Hessian and with differenced gradients (1e-12)', () => {
    const V = pendulumPotential(1, 1);
    const { hessV: _unused, ...withoutHessian } = V;
    const a = new MidpointHerglotz(mechanicalContactLagrangian(V, -0.1), 0.1).integrate(
      { q0: [1], v0: [0], z0: 0 },
      100,
    );
    const b = new MidpointHerglotz(
      mechanicalContactLagrangian(withoutHessian, -0.1),
      0.1,
    ).integrate({ q0: [1], v0: [0], z0: 0 }, 100);
    expect(Math.abs(a.q[100]! - b.q[100]!)).toBeLessThan(1e-12);
  });
});

describe('MidpointHerglotz input checks', () => {
  it('rejects h <= 0 (DomainError) and 1 + hγ = 0 (RegularityError, spec 004 §9.12)', () => {
    expect(() => new MidpointHerglotz(oscillator(-0.05), 0)).toThrow(DomainError);
    expect(() => new MidpointHerglotz(oscillator(-0.05), 20)).toThrow(RegularityError);
  });

  it('runs with 1 + hγ < 0 and reports it in the warnings', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 30).integrate(
      { q0: [1], v0: [0], z0: 0 },
      3,
    );
    expect(sol.sigma[0]).toBe(-0.5);
    expect(sol.warnings).toHaveLength(1);
    expect(sol.warnings[0]).toMatch(/^step 0: .*= -0\.5 < 0/);
    const fine = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], v0: [0], z0: 0 },
      3,
    );
    expect(fine.warnings).toEqual([]);
  });

  it('keeps every K-th state plus the last', () => {
    const sol = new MidpointHerglotz(oscillator(-0.05), 0.5).integrate(
      { q0: [1], q1: [2], z0: 0 },
      50,
      { every: 7 },
    );
    expect(Array.from(sol.k)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 50]);
  });
});

// ---------------------------------------------------------------------------------------------
// The multi-dimensional path (n ≥ 2), which the CLI takes for multi-dimensional mechanical models.

/** V(q) = ½ qᵀKq with a symmetric positive definite K (n×n row-major). */
function quadraticForm(K: readonly number[], n: number): Potential {
  return {
    dim: n,
    V(q) {
      let s = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s += q[i]! * K[i * n + j]! * q[j]!;
      return 0.5 * s;
    },
    gradV(out, q) {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += K[i * n + j]! * q[j]!;
        out[i] = s;
      }
      return out;
    },
    hessV(out) {
      for (let i = 0; i < n * n; i++) out[i] = K[i]!;
      return out;
    },
  };
}

/** V(q) = ½ qᵀKq + (c/4)|q|⁴: nonlinear, so Newton iterates, with ∇²V = K + c(|q|² I + 2qqᵀ). */
function quarticForm(K: readonly number[], n: number, c: number): Potential {
  const base = quadraticForm(K, n);
  const r2 = (q: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += q[i]! * q[i]!;
    return s;
  };
  return {
    dim: n,
    V: (q) => base.V(q) + 0.25 * c * r2(q) ** 2,
    gradV(out, q) {
      base.gradV(out, q);
      const s = c * r2(q);
      for (let i = 0; i < n; i++) out[i] = out[i]! + s * q[i]!;
      return out;
    },
    hessV(out, q) {
      const s = r2(q);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          out[i * n + j] = K[i * n + j]! + c * ((i === j ? s : 0) + 2 * q[i]! * q[j]!);
      return out;
    },
  };
}

const ANISOTROPIC: Record<number, readonly number[]> = {
  2: [2, 0.5, 0.5, 1],
  3: [2, 0.5, 0, 0.5, 1, 0.3, 0, 0.3, 3],
};
const inits = (n: number) =>
  [
    { q0: [1, -0.5, 0.25].slice(0, n), v0: [0.2, 0.7, -0.4].slice(0, n), z0: 0.3 },
    { q0: [1, -0.5, 0.25].slice(0, n), q1: [1.02, -0.45, 0.2].slice(0, n), z0: 0.3 },
  ] as const;

describe('MidpointHerglotz for n = 2 and 3 (spec 004 §7.2 on Rⁿ)', () => {
  for (const n of [2, 3]) {
    const potentials: [string, Potential][] = [
      ['isotropic oscillator', quadraticPotential(1.5, n)],
      ['anisotropic oscillator', quadraticForm(ANISOTROPIC[n]!, n)],
      ['anisotropic quartic', quarticForm(ANISOTROPIC[n]!, n, 0.4)],
    ];
    for (const [label, V] of potentials) {
      it(`[S] n = ${n}, ${label}: equals ContactIntegrator with the generic midpointLd to round-off (1e-13)`, () => {
        const lag = mechanicalContactLagrangian(V, -0.2);
        for (const init of inits(n)) {
          const a = new MidpointHerglotz(lag, 0.05).integrate(init, 200, { every: 3 });
          const b = new ContactIntegrator(midpointLd(lag, 0.05), { lagrangian: lag }).integrate(
            init,
            200,
            { every: 3 },
          );
          expect(a.width('q')).toBe(n);
          for (const key of ['q', 'p', 'z', 'energy', 'sigma'] as const) {
            // measured ≤ 6e-15
            expect(maxAbsDiff(a[key], b[key]), key).toBeLessThan(1e-13);
          }
          expect(a.sigma[0]).toBe(1 + 0.05 * -0.2);
          // not vacuous: the trajectory moves by O(1)
          expect(maxAbsDiff(a.sample('q', 0), a.last('q'))).toBeGreaterThan(0.1);
        }
      });
    }

    it(`[S] n = ${n}, isotropic: every coordinate is the 1-D integrator, and z is the sum of the 1-D z's (1e-14)`, () => {
      // V = ½k|q|² decouples q and p by coordinate; z is linear: z = Σᵢ zᵢ with z0 split evenly
      const h = 0.1;
      const gamma = -0.3;
      const init = inits(n)[0];
      const sol = new MidpointHerglotz(
        mechanicalContactLagrangian(quadraticPotential(1.5, n), gamma),
        h,
      ).integrate(init, 100);
      let zSum = new Float64Array(sol.count);
      for (let i = 0; i < n; i++) {
        const one = new MidpointHerglotz(
          mechanicalContactLagrangian(quadraticPotential(1.5, 1), gamma),
          h,
        ).integrate({ q0: [init.q0[i]!], v0: [init.v0[i]!], z0: init.z0 / n }, 100);
        for (let j = 0; j < sol.count; j++) {
          expect(Math.abs(sol.q[j * n + i]! - one.q[j]!)).toBeLessThan(1e-14);
          expect(Math.abs(sol.p[j * n + i]! - one.p[j]!)).toBeLessThan(1e-14);
        }
        zSum = zSum.map((z, j) => z + one.z[j]!);
      }
      expect(maxAbsDiff(sol.z, zSum)).toBeLessThan(1e-14);
    });

    it(`[S] n = ${n}, anisotropic oscillator: first order against DOPRI5 on the Herglotz equations (19)`, () => {
      // (19) for L = ½|v|² − ½qᵀKq + γz: q̈ = −Kq + γq̇, ż = L; compare (q, p = q̇, z) at T = 2
      const gamma = -0.2;
      const lag = mechanicalContactLagrangian(quadraticForm(ANISOTROPIC[n]!, n), gamma);
      const init = inits(n)[0];
      const T = 2;
      const exact = integrateDopri5(
        herglotzVectorField(lag),
        [...init.q0, ...init.v0, init.z0],
        0,
        T,
        { rtol: 1e-13, atol: 1e-15 },
      );
      const yT = exact.sample('y', exact.count - 1);
      const hs = [0.1, 0.05, 0.025, 0.0125];
      const errors = hs.map((h) => {
        const sol = new MidpointHerglotz(lag, h).integrate(init, Math.round(T / h), {
          every: Math.round(T / h),
        });
        let e = Math.abs(sol.last('z')[0]! - yT[2 * n]!);
        for (let i = 0; i < n; i++) {
          e = Math.max(
            e,
            Math.abs(sol.last('q')[i]! - yT[i]!),
            Math.abs(sol.last('p')[i]! - yT[n + i]!),
          );
        }
        return e;
      });
      const { order } = convergenceOrder(hs, errors);
      // measured 1.04 (n = 2) and 1.00 (n = 3); error at h = 0.0125 ≈ 8e-4
      expect(Math.abs(order - 1)).toBeLessThanOrEqual(0.35);
      expect(errors[3]!).toBeLessThan(2e-3);
    });

    it(`[S] n = ${n}: the Newton Jacobian I/h + (h/4)∇²V equals central differences of G (1e-7), random states`, () => {
      const V = quarticForm(ANISOTROPIC[n]!, n, 0.4);
      const integrator = new MidpointHerglotz(mechanicalContactLagrangian(V, -0.2), 0.1);
      const coords = fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), {
        minLength: 3 * n,
        maxLength: 3 * n,
      });
      let worst = 0;
      fc.assert(
        fc.property(coords, (xs) => {
          const q = Float64Array.from(xs.slice(0, n));
          const p = Float64Array.from(xs.slice(n, 2 * n));
          const x = Float64Array.from(xs.slice(2 * n));
          const G = (out: Float64Array, y: Float64Array) => {
            integrator.newtonSystem(out, y, q, p, 0.3);
          };
          const J = new Float64Array(n * n);
          integrator.newtonSystem(new Float64Array(n), x, q, p, 0.3, J);
          const check = checkJacobian(G, J, x, n, n, { tol: 1e-7 });
          worst = Math.max(worst, check.maxRelError);
          return check.ok;
        }),
        { numRuns: 50, seed: 15 },
      );
      expect(worst).toBeLessThan(1e-7); // measured ≤ 6e-10
    });

    it(`[S] n = ${n}, anisotropic quartic: Newton converges quadratically (≤ 3 iterations a step, h = 0.05)`, () => {
      const lag = mechanicalContactLagrangian(quarticForm(ANISOTROPIC[n]!, n, 0.4), -0.2);
      const sol = new MidpointHerglotz(lag, 0.05).integrate(inits(n)[0], 400);
      // measured max 2, total ≈ 2.0 per step
      expect(sol.stats.maxIterations).toBeLessThanOrEqual(3);
      expect(sol.stats.newtonIterations).toBeGreaterThanOrEqual(400);
      expect(sol.stats.maxResidual).toBeLessThanOrEqual(1e-12);
    });
  }
});

describe('MidpointHerglotz Newton on the 1-D pendulum: Jacobian and iteration bound', () => {
  it('[S] G′ = 1/h + (h/4)V″ equals central differences of G (1e-7) on a grid', () => {
    const integrator = new MidpointHerglotz(
      mechanicalContactLagrangian(pendulumPotential(1, 1), -0.1),
      0.3,
    );
    let worst = 0;
    for (const q of [-2, -0.5, 0.3, 1.7])
      for (const x of [-1, 0.2, 2.5]) {
        const qa = Float64Array.of(q);
        const pa = Float64Array.of(0.4);
        const J = new Float64Array(1);
        integrator.newtonSystem(new Float64Array(1), Float64Array.of(x), qa, pa, 0, J);
        const check = checkJacobian(
          (out, y) => {
            integrator.newtonSystem(out, y, qa, pa);
          },
          J,
          [x],
          1,
          1,
          { tol: 1e-7 },
        );
        worst = Math.max(worst, check.maxRelError);
      }
    expect(worst).toBeLessThan(1e-7);
  });

  it('[S] at most 3 Newton iterations a step on the γ = 0 pendulum (h = 0.1, 500 steps)', () => {
    const sol = new MidpointHerglotz(
      mechanicalContactLagrangian(pendulumPotential(1, 1), 0),
      0.1,
    ).integrate({ q0: [2.5], v0: [0], z0: 0 }, 500);
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(3); // measured 2
    expect(sol.stats.newtonIterations).toBeGreaterThanOrEqual(500);
  });
});
