import { DimensionError, finiteDifferenceJacobian, GeomechError } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mechanicalMidpointLd, midpointLd } from '../src/discrete.js';
import {
  type ContactPoint,
  contactFormDefect,
  contactFormMinus,
  contactFormPlus,
  contactPoint,
  discreteAction,
  discreteActionGradient,
  discreteMomentumMap,
  herglotzResidual,
  inverseLegendreMinus,
  legendreMinus,
  legendrePlus,
  sigmaD,
  stepMapJacobian,
  zRecursion,
} from '../src/discreteMechanics.js';
import { quadraticPotential } from '../src/mechanical.js';
import { RegularityError } from '../src/regularity.js';
import type { DiscreteContactLagrangian } from '../src/types.js';
import {
  centralPotential,
  constantSigmaLd,
  maxAbsDiff,
  rotationGenerator,
  zDependentLagrangian,
} from './integratorFixtures.js';

const v = (...xs: number[]): Float64Array => Float64Array.from(xs);

/** The paper's (79): the damped oscillator, γ = −0.05, h = 0.5. */
const Ld79 = mechanicalMidpointLd(quadraticPotential(1), -0.05, 0.5);
/** The paper's midpoint rule on the z-dependent L of spec 004 §5.5, h = 0.3 (σ varies with q1). */
const LdZ = midpointLd(zDependentLagrangian(), 0.3);
// σ = 1 + h(γ − αz0 + ε(q1 − q0)/h) is not constant here, so σ-identities are not vacuous.

/** Points (q0, q1, z0) near the diagonal, where the midpoint L_d is regular. */
const lagrangianPoint = fc.record({
  q0: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
  dq: fc.double({ min: -0.4, max: 0.4, noNaN: true }),
  z0: fc.double({ min: -1, max: 1, noNaN: true }),
});

/** F^± as maps R^{2n+1} → R^{2n+1}, x = (q0, q1, z0) ↦ (q, p, z). */
function legendreMap(
  which: 'plus' | 'minus',
  Ld: DiscreteContactLagrangian,
): (out: Float64Array, x: Float64Array) => number {
  const n = Ld.n;
  const pt: ContactPoint = contactPoint(n);
  return (out, x) => {
    const q0 = x.subarray(0, n);
    const q1 = x.subarray(n, 2 * n);
    if (which === 'plus') legendrePlus(pt, Ld, q0, q1, x[2 * n]!);
    else legendreMinus(pt, Ld, q0, q1, x[2 * n]!);
    out.set(pt.q, 0);
    out.set(pt.p, n);
    out[2 * n] = pt.z;
    return 1;
  };
}

/** (F^±)*η for η = dz − p dq, as a row over (dq0, dq1, dz0), from a five-point Jacobian of F^±. */
function pulledBackForm(which: 'plus' | 'minus', Ld: DiscreteContactLagrangian, x: Float64Array) {
  const n = Ld.n;
  const m = 2 * n + 1;
  const map = legendreMap(which, Ld);
  const image = new Float64Array(m);
  map(image, x);
  const M = stepMapJacobian(new Float64Array(m * m), map, x);
  const row = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let s = M[2 * n * m + j]!;
    for (let i = 0; i < n; i++) s -= image[n + i]! * M[i * m + j]!;
    row[j] = s;
  }
  return row;
}

describe('discrete Legendre transforms (40) and σ_d', () => {
  it('[P] σ_d = 1 + hγ = 0.975 for (79), and F^± at the §8.2 caption IC (1e-15)', () => {
    expect(sigmaD(Ld79, v(1), v(2), 0)).toBe(1 + 0.5 * -0.05);
    const minus = legendreMinus(contactPoint(1), Ld79, v(1), v(2), 0);
    expect(minus.q[0]).toBe(1);
    expect(Math.abs(minus.p[0]! - 2.375 / 0.975)).toBeLessThan(1e-15);
    expect(minus.z).toBe(0);
    // [D] spec 004 §8.2: p1 = D2 L_d = 1.625 and F⁺ carries z1 = z0 + L_d = 0.4375
    const plus = legendrePlus(contactPoint(1), Ld79, v(1), v(2), 0);
    expect(plus.q[0]).toBe(2);
    expect(Math.abs(plus.p[0]! - 1.625)).toBeLessThan(1e-15);
    expect(Math.abs(plus.z - 0.4375)).toBeLessThan(1e-15);
  });

  it('[P] F⁻L_d needs σ ≠ 0: h = 20, γ = −0.05 throws RegularityError { step: 0, sigma: 0 }', () => {
    const singular = mechanicalMidpointLd(quadraticPotential(1), -0.05, 20);
    let caught: unknown;
    try {
      legendreMinus(contactPoint(1), singular, v(1), v(2), 0);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RegularityError);
    expect(caught).toBeInstanceOf(GeomechError);
    expect((caught as RegularityError).step).toBe(0);
    expect((caught as RegularityError).sigma).toBe(0);
  });

  it('[D] inverseLegendreMinus inverts F⁻L_d (z-dependent L, σ depends on q1): 1e-12', () => {
    fc.assert(
      fc.property(lagrangianPoint, ({ q0, dq, z0 }) => {
        const q1 = v(q0 + dq);
        const minus = legendreMinus(contactPoint(1), LdZ, v(q0), q1, z0);
        const back = inverseLegendreMinus(LdZ, v(q0), minus.p, z0);
        expect(Math.abs(back[0]! - q1[0]!)).toBeLessThan(1e-12);
        const fromGuess = inverseLegendreMinus(LdZ, v(q0), minus.p, z0, [q0 + 0.9 * dq]);
        expect(Math.abs(fromGuess[0]! - q1[0]!)).toBeLessThan(1e-12);
      }),
      { numRuns: 50 },
    );
  });

  it('[D] inverseLegendreMinus on (79) recovers q1 = 2 from p0 = 2.375/0.975 (1e-14)', () => {
    const q1 = inverseLegendreMinus(Ld79, v(1), v(2.375 / 0.975), 0);
    expect(Math.abs(q1[0]! - 2)).toBeLessThan(1e-14);
  });
});

describe('z-recursion (35) and discrete action (36)', () => {
  // the §8.2 caption trajectory of (79): q = 1, 2, 2.5102941176… (closed-form recurrence §7.3)
  const h = 0.5;
  const g = -0.05;
  const q2 = ((2 + h * g) * (4 - h * h) * 2 - (1 + h * g) * (4 + h * h) * 1) / (4 + h * h);

  it('[D] reproduces z_1 = 0.4375 and z_2 = −0.5844594777 of the §8.2 table (1e-10)', () => {
    const zs = zRecursion(Ld79, [[1], [2], [q2]], 0);
    expect(zs.length).toBe(3);
    expect(zs[0]).toBe(0);
    expect(Math.abs(zs[1]! - 0.4375)).toBeLessThan(1e-15);
    expect(Math.abs(zs[2]! - -0.5844594777)).toBeLessThan(1e-10);
    expect(discreteAction(Ld79, [[1], [2], [q2]], 0)).toBe(zs[2]);
  });

  it('[P] the action is the end of the recursion, not a sum of L_d (z enters through hγ z_k)', () => {
    const path = v(1, 2, q2);
    const zN = discreteAction(Ld79, path, 0);
    const sum = Ld79.Ld(v(1), v(2), 0) + Ld79.Ld(v(2), v(q2), 0);
    // z_2 = z_1 + L_d(q_1, q_2, z_1) and L_d(…, z_1) − L_d(…, 0) = hγ z_1
    expect(Math.abs(zN - (sum + h * g * 0.4375))).toBeLessThan(1e-15);
    expect(Math.abs(zN - sum)).toBeGreaterThan(1e-2);
  });

  it('accepts flat and array paths alike and rejects bad shapes', () => {
    expect(Array.from(zRecursion(Ld79, v(1, 2, q2), 0))).toEqual(
      Array.from(zRecursion(Ld79, [[1], [2], [q2]], 0)),
    );
    expect(() => zRecursion(Ld79, [[1]], 0)).toThrow(DimensionError);
    expect(() => zRecursion(centralPotentialLd(), v(1, 2, 3), 0)).toThrow(DimensionError);
  });
});

function centralPotentialLd(): DiscreteContactLagrangian {
  return mechanicalMidpointLd(centralPotential, -0.3, 0.2);
}

describe('discrete action gradient (37), Prop. 3.1', () => {
  const pathArb = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
    minLength: 5,
    maxLength: 5,
  });

  it('[P] the adjoint gradient equals central differences of z_N on random paths (1e-6)', () => {
    fc.assert(
      fc.property(pathArb, fc.double({ min: -1, max: 1, noNaN: true }), (steps, z0) => {
        // q_0 … q_5 with increments ≤ 0.25 (F⁻-regular region of the midpoint rule)
        const path = new Float64Array(6);
        for (let k = 0; k < 5; k++) path[k + 1] = path[k]! + 0.25 * steps[k]!;
        const adjoint = discreteActionGradient(LdZ, path, z0);
        const fd = finiteDifferenceJacobian(
          new Float64Array(6),
          (out, qs) => {
            out[0] = discreteAction(LdZ, Float64Array.from(qs), z0);
          },
          path,
          1,
          6,
        );
        for (let k = 0; k <= 5; k++) {
          expect(Math.abs(adjoint[k]! - fd[k]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd[k]!)));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('[P] (38), N = 2, written out term by term (1e-14)', () => {
    const q = [v(0.3), v(0.55), v(0.7)];
    const z0 = 0.4;
    const z1 = z0 + LdZ.Ld(q[0]!, q[1]!, z0);
    const s2 = 1 + LdZ.Dz(q[1]!, q[2]!, z1);
    const d1 = (a: Float64Array, b: Float64Array, z: number) =>
      LdZ.D1(new Float64Array(1), a, b, z)[0]!;
    const d2 = (a: Float64Array, b: Float64Array, z: number) =>
      LdZ.D2(new Float64Array(1), a, b, z)[0]!;
    const expected = [
      s2 * d1(q[0]!, q[1]!, z0),
      d1(q[1]!, q[2]!, z1) + s2 * d2(q[0]!, q[1]!, z0),
      d2(q[1]!, q[2]!, z1),
    ];
    const g = discreteActionGradient(LdZ, q, z0);
    expect(maxAbsDiff(g, expected)).toBeLessThan(1e-14);
  });
});

describe('discrete Herglotz residual (39) and Remark 3.5', () => {
  it('[P] Vermeeren form = σ · (momentum-matching form (41)) at arbitrary points (1e-13)', () => {
    fc.assert(
      fc.property(lagrangianPoint, fc.double({ min: -0.4, max: 0.4, noNaN: true }), (pt, dq2) => {
        const qPrev = v(pt.q0);
        const q = v(pt.q0 + pt.dq);
        const qNext = v(pt.q0 + pt.dq + dq2);
        const res = herglotzResidual(new Float64Array(1), LdZ, qPrev, q, qNext, pt.z0);
        const plus = legendrePlus(contactPoint(1), LdZ, qPrev, q, pt.z0);
        const minus = legendreMinus(contactPoint(1), LdZ, q, qNext, plus.z);
        const sigma = sigmaD(LdZ, q, qNext, plus.z);
        // D1 + σ D2 = σ (D2 − (−D1/σ)) = σ (p⁺ − p⁻)
        expect(Math.abs(res[0]! - sigma * (plus.p[0]! - minus.p[0]!))).toBeLessThan(1e-13);
      }),
      { numRuns: 100 },
    );
  });

  it('[P] the two forms share their zero set when σ ≠ 0, and only then (σ ≡ 0 example)', () => {
    // σ ≡ 0 (D_z L_d = −1): the Vermeeren form D1 L_d(q, qNext) vanishes at qNext = q for ANY
    // history, while F⁻L_d (hence (41)) is undefined: Thm 3.4 needs σ ≠ 0.
    const degenerate = constantSigmaLd(-1, 0.5);
    const res = herglotzResidual(new Float64Array(1), degenerate, v(0), v(1), v(1), 0);
    expect(res[0]).toBe(0);
    expect(() => legendreMinus(contactPoint(1), degenerate, v(1), v(1), 0)).toThrow(
      RegularityError,
    );
  });
});

describe('discrete momentum map (52)', () => {
  it('[D] J_d = D1·ξ_Q(q0)/σ = −p0⁻·ξ_Q(q0): the sign flip of spec 004 §11.9 (1e-15)', () => {
    const Ld = centralPotentialLd();
    const J = discreteMomentumMap(Ld, rotationGenerator);
    const q0 = v(0.8, -0.3);
    const q1 = v(0.85, -0.2);
    const minus = legendreMinus(contactPoint(2), Ld, q0, q1, 0.7);
    const xi = new Float64Array(2);
    rotationGenerator(xi, q0);
    const pDotXi = minus.p[0]! * xi[0]! + minus.p[1]! * xi[1]!;
    expect(Math.abs(J(q0, q1, 0.7) + pDotXi)).toBeLessThan(1e-15);
    expect(Math.abs(pDotXi)).toBeGreaterThan(0.1);
  });

  it('[P] Lemma 3.10 (51): D1·ξ_Q(q0) + D2·ξ_Q(q1) = 0 for the rotation-invariant L_d (1e-14)', () => {
    const Ld = centralPotentialLd();
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
        ([a, b, c, d, z]) => {
          const q0 = v(a!, b!);
          const q1 = v(a! + 0.3 * c!, b! + 0.3 * d!);
          const d1 = Ld.D1(new Float64Array(2), q0, q1, z!);
          const d2 = Ld.D2(new Float64Array(2), q0, q1, z!);
          const x0 = new Float64Array(2);
          const x1 = new Float64Array(2);
          rotationGenerator(x0, q0);
          rotationGenerator(x1, q1);
          const s = d1[0]! * x0[0]! + d1[1]! * x0[1]! + d2[0]! * x1[0]! + d2[1]! * x1[1]!;
          expect(Math.abs(s)).toBeLessThan(1e-14);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('discrete contact forms η^± (46)–(47), Lemma 3.8(i)', () => {
  it('[P] (46), (47) equal the pull-backs (F^±L_d)*η computed by differences (1e-9)', () => {
    fc.assert(
      fc.property(lagrangianPoint, ({ q0, dq, z0 }) => {
        const x = v(q0, q0 + dq, z0);
        const plus = contactFormPlus(new Float64Array(3), LdZ, v(q0), v(q0 + dq), z0);
        const minus = contactFormMinus(new Float64Array(3), LdZ, v(q0), v(q0 + dq), z0);
        expect(maxAbsDiff(pulledBackForm('plus', LdZ, x), plus)).toBeLessThan(1e-9);
        expect(maxAbsDiff(pulledBackForm('minus', LdZ, x), minus)).toBeLessThan(1e-9);
        expect(plus[1]).toBe(0); // (47): no dq1 component
      }),
      { numRuns: 25 },
    );
  });

  it('[P] Lemma 3.8(i): η⁺ = σ_d η⁻, on the differenced pull-backs (1e-9) and on (46)–(47)', () => {
    fc.assert(
      fc.property(lagrangianPoint, ({ q0, dq, z0 }) => {
        const a = v(q0);
        const b = v(q0 + dq);
        const sigma = sigmaD(LdZ, a, b, z0);
        const x = v(q0, q0 + dq, z0);
        const etaPlus = pulledBackForm('plus', LdZ, x);
        const etaMinus = pulledBackForm('minus', LdZ, x);
        for (let i = 0; i < 3; i++)
          expect(Math.abs(etaPlus[i]! - sigma * etaMinus[i]!)).toBeLessThan(1e-9);
        const plus = contactFormPlus(new Float64Array(3), LdZ, a, b, z0);
        const minus = contactFormMinus(new Float64Array(3), LdZ, a, b, z0);
        for (let i = 0; i < 3; i++) {
          expect(Math.abs(plus[i]! - sigma * minus[i]!)).toBeLessThan(
            4e-16 * Math.max(1, Math.abs(plus[i]!)),
          );
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('five-point Jacobian and contactFormDefect input checks', () => {
  it('differentiates a smooth map to 1e-11', () => {
    const map = (out: Float64Array, x: Float64Array): number => {
      out[0] = Math.sin(x[0]!) * x[1]!;
      out[1] = Math.exp(x[2]!);
      out[2] = x[0]! * x[2]!;
      return 1;
    };
    const x = v(0.4, -1.3, 0.2);
    const M = stepMapJacobian(new Float64Array(9), map, x);
    const exact = [Math.cos(0.4) * -1.3, Math.sin(0.4), 0, 0, 0, Math.exp(0.2), 0.2, 0, 0.4];
    expect(maxAbsDiff(M, exact)).toBeLessThan(1e-11);
  });

  it('rejects a point of even dimension', () => {
    expect(() => contactFormDefect(() => 1, [1, 2])).toThrow(DimensionError);
  });
});
