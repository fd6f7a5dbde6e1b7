import {
  checkJacobian,
  DimensionError,
  DomainError,
  GeomechError,
  NewtonDivergedError,
  NonFiniteError,
  type Potential,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  implicitZMidpointLd,
  leftRectangleLd,
  mechanicalMidpointLd,
  midpointLd,
} from '../src/discrete.js';
import { contactPoint, legendreMinus } from '../src/discreteMechanics.js';
import { dampedOscillatorExactLd } from '../src/exact.js';
import { ContactIntegrator, integrateContact } from '../src/integrator.js';
import { contactLagrangian } from '../src/lagrangian.js';
import {
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
  zeroPotential,
} from '../src/mechanical.js';
import { MidpointHerglotz } from '../src/midpoint.js';
import { checkSigma, RegularityError, SIGMA_REGULARITY_TOL } from '../src/regularity.js';
import { numericExactLd } from '../src/shooting.js';
import type { ContactSolution } from '../src/stepper.js';
import type { DiscreteContactLagrangian } from '../src/types.js';
import {
  centralPotential,
  constantSigmaLd,
  maxAbsDiff,
  Z_DEPENDENT,
  zDependentHamiltonian,
  zDependentLagrangian,
  zDependentLagrangianAnalytic,
} from './integratorFixtures.js';

const v = (...xs: number[]): Float64Array => Float64Array.from(xs);
const oscillator = (gamma: number) => mechanicalContactLagrangian(quadraticPotential(1), gamma);

describe('ContactIntegrator with mechanicalMidpointLd equals MidpointHerglotz (1e-14)', () => {
  const cases = [
    [
      'oscillator, caption IC (q0, q1) = (1, 2)',
      quadraticPotential(1),
      -0.05,
      0.5,
      { q0: [1], q1: [2], z0: 0 },
      50,
    ],
    [
      'oscillator, inferred IC (q0, q1) = (0, 1)',
      quadraticPotential(1),
      -0.05,
      0.5,
      { q0: [0], q1: [1], z0: 0 },
      50,
    ],
    [
      'nonlinear pendulum from (q0, v0) = (1, 0)',
      pendulumPotential(1, 1),
      -0.1,
      0.1,
      { q0: [1], v0: [0], z0: 0.3 },
      200,
    ],
  ] as const;
  for (const [label, V, gamma, h, init, steps] of cases) {
    it(`[S] ${label}: q, p, z, energy and σ at every step`, () => {
      const lag = mechanicalContactLagrangian(V, gamma);
      const a = new ContactIntegrator(mechanicalMidpointLd(V, gamma, h), {
        lagrangian: lag,
      }).integrate(init, steps);
      const b = new MidpointHerglotz(lag, h).integrate(init, steps);
      expect(a.count).toBe(steps + 1);
      expect(Array.from(a.k)).toEqual(Array.from(b.k));
      expect(maxAbsDiff(a.t, b.t)).toBe(0);
      for (const key of ['q', 'p', 'z', 'energy', 'sigma'] as const) {
        expect(maxAbsDiff(a[key], b[key])).toBeLessThan(1e-14);
      }
      expect(a.warnings).toEqual([]);
    });
  }
});

describe('spec 004 §8 reference tables through the generic integrator (§9.14)', () => {
  // [D] spec 004 §8.1, free particle (77), γ = −0.05, h = 0.5, (q0, q1, z0) = (1, 2, 0)
  const freeParticle = [
    [0, 1, 0, 0.7437828],
    [1, 2, 1, 0.71783979],
    [2, 2.975, 1.925625, 0.69191204],
    [10, 9.9468151657, 7.1237719236, 0.48499726],
    [20, 16.8924927912, 9.8238047315, 0.22744417],
    [40, 26.4707024045, 9.4890106462, -0.28497678],
    [50, 29.7204759064, 8.3064948709, -0.54022096],
    [60, 32.2433713369, 7.0150410508, -0.79500596],
    [80, 35.7224877845, 4.6986757291, -1.30358234],
    [100, 37.8193084055, 3.0028426861, -1.81127898],
  ] as const;

  it('[D] §8.1 (Fig. 1): q, z to 1e-10 and ln H∘F⁻L_d to 1e-8 over 100 steps', () => {
    const g = -0.05;
    const sol = new ContactIntegrator(mechanicalMidpointLd(zeroPotential(), g, 0.5), {
      lagrangian: mechanicalContactLagrangian(zeroPotential(), g),
    }).integrate({ q0: [1], q1: [2], z0: 0 }, 100);
    expect(sol.count).toBe(101);
    for (const [k, q, z, lnH] of freeParticle) {
      expect(Math.abs(sol.q[k]! - q)).toBeLessThan(1e-10);
      expect(Math.abs(sol.z[k]! - z)).toBeLessThan(1e-10);
      expect(Math.abs(Math.log(sol.energy[k]!) - lnH)).toBeLessThan(1e-8);
    }
    expect(Math.abs(sol.p[0]! - 2 / 0.975)).toBeLessThan(1e-15); // p0 = F⁻ momentum
  });

  it('[D] §8.1 closed-form discrete solution q_k, z_k, p_k (a = 1 + hγ) at every step (1e-11)', () => {
    const g = -0.05;
    const h = 0.5;
    const a = 1 + h * g;
    const sol = new ContactIntegrator(mechanicalMidpointLd(zeroPotential(), g, h)).integrate(
      { q0: [1], q1: [2], z0: 0 },
      100,
    );
    for (let k = 1; k <= 100; k++) {
      const ak = a ** k;
      expect(Math.abs(sol.q[k]! - (1 + (ak - 1) / (h * g)))).toBeLessThan(1e-11);
      expect(
        Math.abs(sol.z[k]! - (1 / (2 * h)) * a ** (k - 1) * ((ak - 1) / (h * g))),
      ).toBeLessThan(1e-11);
      expect(Math.abs(sol.p[k]! - a ** (k - 1) / h)).toBeLessThan(1e-12);
    }
  });

  // [D] spec 004 §8.2, damped oscillator (79), γ = −0.05, h = 0.5
  const caption = [
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
    [20, -0.6064509888, 0.4736638281, 0.35601468],
    [30, 1.2498685421, -0.5113269826, 0.08640932],
    [40, 0.8774252934, 0.4152435467, -0.15825129],
    [50, -0.6848574153, -0.3229534756, -0.41081341],
  ] as const;
  for (const [label, q0, table, lnH0] of [
    ['caption IC (q0, q1) = (1, 2)', 1, caption, 1.24323145],
    ['inferred IC (q0, q1) = (0, 1)', 0, inferred, 0.86503204],
  ] as const) {
    it(`[D] §8.2 (Fig. 2), ${label}: q, z to 1e-10 and ln H to 1e-8 over 50 steps`, () => {
      const sol = new ContactIntegrator(mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5), {
        lagrangian: oscillator(-0.05),
      }).integrate({ q0: [q0], q1: [q0 + 1], z0: 0 }, 50);
      expect(Math.abs(Math.log(sol.energy[0]!) - lnH0)).toBeLessThan(1e-8);
      for (const [k, q, z, lnH] of table) {
        expect(Math.abs(sol.q[k]! - q)).toBeLessThan(1e-10);
        expect(Math.abs(sol.z[k]! - z)).toBeLessThan(1e-10);
        expect(Math.abs(Math.log(sol.energy[k]!) - lnH)).toBeLessThan(1e-8);
      }
    });
  }
});

describe('starting conventions (spec 004 §7.1, §11.16)', () => {
  it('[P] (q0, q1, z0): p0 = F⁻L_d, p1 = D2 L_d = 1.625, z1 = z0 + L_d = 0.4375, σ0 = 1 + hγ', () => {
    const sol = new ContactIntegrator(
      mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5),
    ).integrate({ q0: [1], q1: [2], z0: 0 }, 1);
    expect(sol.count).toBe(2);
    expect(Math.abs(sol.p[0]! - 2.375 / 0.975)).toBeLessThan(1e-15);
    expect(Math.abs(sol.p[1]! - 1.625)).toBeLessThan(1e-15);
    expect(Math.abs(sol.z[1]! - 0.4375)).toBeLessThan(1e-15);
    expect(sol.sigma[0]).toBe(0.975);
    expect(sol.stats.newtonIterations).toBe(0); // the first step is explicit
  });

  it('[D] (q0, v0, z0) with a general L: p0 = FL = L_v = v0 + εz0', () => {
    const L = zDependentLagrangian();
    const sol = new ContactIntegrator(midpointLd(L, 0.3), { lagrangian: L }).integrate(
      { q0: [0.7], v0: [0.4], z0: 0.2 },
      0,
    );
    expect(Math.abs(sol.p[0]! - (0.4 + Z_DEPENDENT.eps * 0.2))).toBeLessThan(1e-15);
  });

  it('[S] (q0, v0, z0) without a Lagrangian: p0 = v0 (mechanical) and the energy is NaN', () => {
    const sol = new ContactIntegrator(
      mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5),
    ).integrate({ q0: [1], v0: [0.25], z0: 0 }, 3);
    expect(sol.p[0]).toBe(0.25);
    expect(Number.isNaN(sol.energy[2]!)).toBe(true);
  });
});

describe('general (non-mechanical) L: energy, σ and the Lagrangian step', () => {
  const L = zDependentLagrangian();
  const Ld = midpointLd(L, 0.3);

  it('[D] records H∘F⁻L_d = p·v − L with v = FL⁻¹(p) by Newton, = ½(p − εz)² + … (1e-12)', () => {
    const sol = new ContactIntegrator(Ld, { lagrangian: L }).integrate(
      { q0: [0.7], v0: [0.4], z0: 0.2 },
      40,
    );
    for (let j = 0; j < sol.count; j++) {
      const H = zDependentHamiltonian(sol.q[j]!, sol.p[j]!, sol.z[j]!);
      expect(Math.abs(sol.energy[j]! - H)).toBeLessThan(1e-12);
    }
  });

  it('[P] σ_k = 1 + D_z L_d(q_k, q_{k+1}, z_k) of the step leaving k, the last one included', () => {
    const sol = new ContactIntegrator(Ld).integrate({ q0: [0.7], v0: [0.4], z0: 0.2 }, 20);
    const next = new ContactIntegrator(Ld).integrate({ q0: [0.7], v0: [0.4], z0: 0.2 }, 21);
    let spread = 0;
    for (let k = 0; k <= 20; k++) {
      const sigma = 1 + Ld.Dz(sol.q.subarray(k, k + 1), next.q.subarray(k + 1, k + 2), sol.z[k]!);
      expect(Math.abs(sol.sigma[k]! - sigma)).toBeLessThan(1e-14);
      spread = Math.max(spread, Math.abs(sol.sigma[k]! - sol.sigma[0]!));
    }
    expect(spread).toBeGreaterThan(1e-3); // σ really varies along this trajectory
  });

  it('[P] stepLagrangian (Φ_d) and stepHamiltonian (Φ̃_d) give the same trajectory (1e-12)', () => {
    const integrator = new ContactIntegrator(Ld, { tol: 1e-14 });
    const sol = integrator.integrate({ q0: [0.3], q1: [0.42], z0: 0.1 }, 30);
    const qPrev = v(0.3);
    const q = v(0.42);
    let z = 0.1;
    for (let k = 1; k < 30; k++) {
      z = integrator.stepLagrangian(qPrev, q, z, k);
      expect(Math.abs(z - sol.z[k]!)).toBeLessThan(1e-12);
      expect(Math.abs(q[0]! - sol.q[k + 1]!)).toBeLessThan(1e-12);
      expect(Math.abs(integrator.lastSigma - sol.sigma[k]!)).toBeLessThan(1e-12);
    }
  });

  it('[P] inverseLegendreMinus inverts F⁻L_d (1e-12)', () => {
    const integrator = new ContactIntegrator(Ld);
    const minus = legendreMinus(contactPoint(1), Ld, v(0.3), v(0.42), 0.1);
    const q1 = integrator.inverseLegendreMinus(new Float64Array(1), v(0.3), minus.p, 0.1);
    expect(Math.abs(q1[0]! - 0.42)).toBeLessThan(1e-12);
  });

  it('[S] the extrapolating Newton guess converges to the same trajectory (1e-12)', () => {
    const a = new ContactIntegrator(Ld).integrate({ q0: [0.3], q1: [0.42], z0: 0.1 }, 50);
    const b = new ContactIntegrator(Ld, { initialGuess: 'extrapolate' }).integrate(
      { q0: [0.3], q1: [0.42], z0: 0.1 },
      50,
    );
    expect(maxAbsDiff(a.q, b.q)).toBeLessThan(1e-12);
    expect(maxAbsDiff(a.z, b.z)).toBeLessThan(1e-12);
  });

  it('[S] integrateContact(problem, midpointLd) is ContactIntegrator(midpointLd(L, h))', () => {
    const problem = { lagrangian: L, init: { q0: [0.7], v0: [0.4], z0: 0.2 }, h: 0.3, steps: 25 };
    const a = integrateContact(problem, midpointLd, { every: 5 });
    const b = new ContactIntegrator(midpointLd(L, 0.3), { lagrangian: L }).integrate(
      problem.init,
      25,
      {
        every: 5,
      },
    );
    expect(Array.from(a.k)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(maxAbsDiff(a.q, b.q)).toBe(0);
    expect(maxAbsDiff(a.energy, b.energy)).toBe(0);
  });
});

describe('Newton statistics and storage', () => {
  it('[S] counts Newton iterations, bounds the residual and keeps every K-th state plus the last', () => {
    const V = pendulumPotential(1, 1);
    const sol = new ContactIntegrator(mechanicalMidpointLd(V, -0.1, 0.1)).integrate(
      { q0: [1], v0: [0], z0: 0 },
      200,
      { every: 7 },
    );
    expect(sol.count).toBe(30);
    expect(Array.from(sol.k.subarray(0, 3))).toEqual([0, 7, 14]);
    expect(sol.k[29]).toBe(200);
    expect(sol.t[29]).toBeCloseTo(20, 12);
    expect(sol.stats.newtonIterations).toBeGreaterThanOrEqual(200); // nonlinear: ≥ 1 per step
    expect(sol.stats.maxResidual).toBeLessThanOrEqual(1e-12);
  });
});

describe('regularity guard (spec 004 §9.12, §11.13) and failures', () => {
  it('[P] h = 20, γ = −0.05 (σ = 1 + hγ = 0) throws RegularityError at step 0, both starts', () => {
    const Ld = mechanicalMidpointLd(quadraticPotential(1), -0.05, 20);
    for (const init of [
      { q0: [1], q1: [2], z0: 0 },
      { q0: [1], v0: [1], z0: 0 },
    ]) {
      let caught: unknown;
      try {
        new ContactIntegrator(Ld).integrate(init, 5);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(RegularityError);
      expect(caught).toBeInstanceOf(GeomechError);
      expect((caught as RegularityError).step).toBe(0);
      expect((caught as RegularityError).sigma).toBe(0);
      expect((caught as RegularityError).threshold).toBe(SIGMA_REGULARITY_TOL);
    }
  });

  it('[S] the error names the step where σ vanishes', () => {
    const integrator = new ContactIntegrator(constantSigmaLd(-1, 0.5));
    expect(() => integrator.stepHamiltonian(v(0), v(1), 0, 17)).toThrow(/step 17/);
    expect(() => checkSigma(-1 + 1e-13, 3)).toThrow(RegularityError);
    const dz = -1 + 1e-11;
    expect(checkSigma(dz, 3)).toBe(1 + dz); // ≈ 1e-11: small but above the threshold
  });

  it('[S] σ < 0 is legal but reported once, with its step, in solution.warnings (σ = −0.5)', () => {
    const Ld = constantSigmaLd(-1.5, 0.5); // D_z L_d = −1.5 < −1: unreachable with (79) and the guard
    for (const init of [
      { q0: [0], q1: [1], z0: 0 },
      { q0: [0], v0: [1], z0: 0 },
    ]) {
      const sol = new ContactIntegrator(Ld).integrate(init, 10);
      expect(sol.count).toBe(11);
      expect(sol.warnings.length).toBe(1);
      expect(sol.warnings[0]).toMatch(/^step 0: .*σ .* = -0\.5 < 0/);
      for (let j = 0; j < sol.count; j++) expect(sol.sigma[j]).toBe(-0.5);
      // free flight with σ = −0.5: p_{k+1} = σ p_k flips sign each step
      expect(sol.p[3]! / sol.p[2]!).toBeCloseTo(-0.5, 14);
    }
    const regular = new ContactIntegrator(constantSigmaLd(-0.5, 0.5)).integrate(
      { q0: [0], q1: [1], z0: 0 },
      10,
    );
    expect(regular.warnings).toEqual([]);
  });

  it('[S] a Newton failure throws NewtonDivergedError naming the step', () => {
    const integrator = new ContactIntegrator(
      mechanicalMidpointLd(pendulumPotential(1, 1), -0.1, 0.1),
      {
        maxIterations: 0,
      },
    );
    let caught: unknown;
    try {
      integrator.integrate({ q0: [1], v0: [0], z0: 0 }, 3);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NewtonDivergedError);
    expect((caught as NewtonDivergedError).step).toBe(0);
  });

  it('[S] a non-finite state throws NonFiniteError instead of leaving the step', () => {
    const blowUp: Potential = {
      dim: 1,
      V: (q) => (q[0]! > 1.5 ? Number.NaN : 0),
      gradV: (out) => {
        out[0] = 0;
        return out;
      },
    };
    const integrator = new ContactIntegrator(mechanicalMidpointLd(blowUp, -0.1, 0.5));
    expect(() => integrator.integrate({ q0: [0], q1: [1], z0: 0 }, 10)).toThrow(NonFiniteError);
  });

  it('rejects bad input with DomainError / DimensionError', () => {
    const integrator = new ContactIntegrator(
      mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5),
    );
    expect(() => integrator.integrate({ q0: [1], q1: [2], z0: 0 }, -1)).toThrow(DomainError);
    expect(() => integrator.integrate({ q0: [1], q1: [2], z0: 0 }, 3, { every: 0 })).toThrow(
      DomainError,
    );
    expect(() => integrator.integrate({ q0: [1], q1: [2], z0: Number.NaN }, 3)).toThrow(
      DomainError,
    );
    expect(() => integrator.integrate({ q0: [1, 2], q1: [2], z0: 0 }, 3)).toThrow(DimensionError);
    expect(
      () =>
        new ContactIntegrator(mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5), {
          lagrangian: mechanicalContactLagrangian(quadraticPotential(1, 2), -0.05),
        }),
    ).toThrow(DimensionError);
  });
});

describe('the Newton system of a step: ∂G/∂x = D2D1 + p ⊗ D2Dz against central differences', () => {
  /** A 2-D Lagrangian with every coupling (dual-number derivatives, second ones ≈ 1e-10). */
  const coupled = contactLagrangian({
    n: 2,
    L: (o, q, v, z) =>
      o.add(
        o.add(
          o.scale(
            o.mul(o.mul(v[0]!, v[0]!), o.add(o.const(1), o.scale(o.mul(q[1]!, q[1]!), 0.2))),
            0.5,
          ),
          o.scale(o.mul(v[1]!, v[1]!), 0.5),
        ),
        o.add(
          o.add(o.scale(o.sub(o.const(1), o.cos(q[0]!)), -1), o.scale(o.mul(q[1]!, q[1]!), -0.5)),
          o.add(o.scale(z, -0.2), o.scale(o.mul(z, o.add(v[0]!, o.mul(v[1]!, q[0]!))), 0.15)),
        ),
      ),
  });
  const zLag = zDependentLagrangianAnalytic();
  const cases: [string, DiscreteContactLagrangian, number][] = [
    ['midpointLd, z-dependent §5.5 L', midpointLd(zLag, 0.3), 1e-7],
    ['leftRectangleLd, z-dependent §5.5 L', leftRectangleLd(zLag, 0.3), 1e-7],
    ['implicitZMidpointLd, z-dependent §5.5 L', implicitZMidpointLd(zLag, 0.3), 1e-7],
    ['midpointLd, coupled 2-D L', midpointLd(coupled, 0.2), 1e-6],
    ['implicitZMidpointLd, coupled 2-D L', implicitZMidpointLd(coupled, 0.2), 1e-6],
    [
      'mechanicalMidpointLd, 2-D central potential',
      mechanicalMidpointLd(centralPotential, -0.3, 0.2),
      1e-7,
    ],
    ['dampedOscillatorExactLd, n = 2', dampedOscillatorExactLd(1.3, -0.4, 0.3, 2), 1e-7],
  ];
  for (const [label, Ld, tol] of cases) {
    it(`[S] ${label}: relative error ≤ ${tol} at random states`, () => {
      const n = Ld.n;
      const integrator = new ContactIntegrator(Ld);
      let worst = 0;
      let dzq1 = 0;
      fc.assert(
        fc.property(
          fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
            minLength: 3 * n + 2,
            maxLength: 3 * n + 2,
          }),
          (xs) => {
            const q = Float64Array.from(xs.slice(0, n));
            const p = Float64Array.from(xs.slice(n, 2 * n));
            // q1 near q + h p, as Newton meets it
            const x = Float64Array.from(
              xs.slice(2 * n, 3 * n),
              (d, i) => q[i]! + Ld.h * (p[i]! + 0.3 * d),
            );
            const z = xs[3 * n]!;
            const t = 2 * xs[3 * n + 1]!;
            const J = new Float64Array(n * n);
            integrator.newtonSystem(new Float64Array(n), x, q, p, z, t, J);
            const check = checkJacobian(
              (out, y) => {
                integrator.newtonSystem(out, y, q, p, z, t);
              },
              J,
              x,
              n,
              n,
              { tol },
            );
            worst = Math.max(worst, check.maxRelError);
            dzq1 = Math.max(dzq1, Math.abs(Ld.D2Dz(new Float64Array(n), q, x, z, t)[0]!));
            return check.ok;
          },
        ),
        { numRuns: 40, seed: 7 },
      );
      expect(worst).toBeLessThan(tol); // measured ≤ 6e-11
      if (label.includes('z-dependent') || label.includes('coupled'))
        expect(dzq1).toBeGreaterThan(1e-3); // the p ⊗ D2Dz term is really exercised
    });
  }

  it('[S] numericExactLd (shooting sensitivities), z-dependent §5.5 L: relative error ≤ 1e-5', () => {
    const Ld = numericExactLd(zLag, 0.2);
    const integrator = new ContactIntegrator(Ld);
    const q = v(0.4);
    const p = v(0.3);
    for (const x of [0.45, 0.5, 0.38]) {
      const J = new Float64Array(1);
      integrator.newtonSystem(new Float64Array(1), v(x), q, p, 0.2, 0, J);
      const check = checkJacobian(
        (out, y) => {
          integrator.newtonSystem(out, y, q, p, 0.2);
        },
        J,
        [x],
        1,
        1,
        { tol: 1e-5 },
      );
      expect(check.maxRelError).toBeLessThan(1e-5); // measured ≤ 5e-11
    }
  });
});

describe('Newton iterations per step (quadratic convergence) on the reference runs', () => {
  const zLag = zDependentLagrangianAnalytic();
  const runs: [string, () => ContactSolution, number][] = [
    [
      'midpointLd, z-dependent L, h = 0.1',
      () =>
        new ContactIntegrator(midpointLd(zLag, 0.1)).integrate(
          { q0: [0.7], v0: [0.4], z0: 0.2 },
          300,
        ),
      3,
    ],
    [
      'implicitZMidpointLd, z-dependent L, h = 0.1',
      () =>
        new ContactIntegrator(implicitZMidpointLd(zLag, 0.1)).integrate(
          { q0: [0.7], v0: [0.4], z0: 0.2 },
          300,
        ),
      3,
    ],
    [
      'leftRectangleLd, z-dependent L, h = 0.1',
      () =>
        new ContactIntegrator(leftRectangleLd(zLag, 0.1)).integrate(
          { q0: [0.7], v0: [0.4], z0: 0.2 },
          300,
        ),
      3,
    ],
    [
      'mechanicalMidpointLd, 2-D central potential, h = 0.2',
      () =>
        new ContactIntegrator(mechanicalMidpointLd(centralPotential, -0.3, 0.2)).integrate(
          { q0: [1, 0], v0: [0.3, 0.8], z0: 0 },
          300,
        ),
      3,
    ],
  ];
  for (const [label, run, bound] of runs) {
    it(`[S] ${label}: at most ${bound} a step, residual ≤ 1e-12`, () => {
      const sol = run();
      expect(sol.stats.maxIterations).toBeLessThanOrEqual(bound); // measured 1 to 3
      expect(sol.stats.newtonIterations).toBeGreaterThanOrEqual(300);
      expect(sol.stats.maxResidual).toBeLessThanOrEqual(1e-12);
    });
  }
});

describe('the inverse Legendre map of the energy: its Newton Jacobian W = L_vv', () => {
  it('[S] L_vv equals central differences of L_v in v (1e-7), coupled analytic §5.5 L and a 2-D dual L', () => {
    for (const L of [zDependentLagrangianAnalytic(), zDependentLagrangian()]) {
      for (const [q, vv, z] of [
        [0.3, 0.4, 0.2],
        [-1.2, 2, -0.7],
      ] as const) {
        const check = checkJacobian(
          (out, x) => {
            L.Lv(out, v(q), x, z);
          },
          (out, x) => {
            L.Lvv(out, v(q), x, z);
          },
          [vv],
          1,
          1,
          { tol: 1e-7 },
        );
        expect(check.ok).toBe(true);
      }
    }
  });
});
