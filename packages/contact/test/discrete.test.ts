import {
  checkJacobian,
  convergenceOrder,
  DimensionError,
  DomainError,
  NewtonDivergedError,
  type Potential,
  type ScalarOps,
  SingularJacobianError,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  implicitZMidpointLd,
  leftRectangleLd,
  mechanicalMidpointLd,
  midpointLd,
} from '../src/discrete.js';
import {
  type DiscreteLagrangianFunction,
  discreteLagrangianFromFunction,
  type GenericDiscreteLagrangianFunction,
} from '../src/discreteFromFunction.js';
import { quadraticPotential } from '../src/mechanical.js';
import type { ContactLagrangian, DiscreteContactLagrangian } from '../src/types.js';
import { zDependentLagrangianAnalytic } from './integratorFixtures.js';

// ---------------------------------------------------------------------------------------------
// Test Lagrangians, written by hand with analytic partials (independent of lagrangian.ts).

/** V(q) = |q|⁴/8 − 1/√(1 + |q|²) on Rⁿ (spec 004 §5.6), optionally without its Hessian. */
function centralPotential(dim: number, withHessian = true): Potential {
  const r2 = (q: Float64Array) => {
    let s = 0;
    for (let i = 0; i < dim; i++) s += q[i]! * q[i]!;
    return s;
  };
  const p: Potential = {
    dim,
    V: (q) => {
      const s = r2(q);
      return (s * s) / 8 - 1 / Math.sqrt(1 + s);
    },
    gradV(out, q) {
      const s = r2(q);
      const c = s / 2 + (1 + s) ** -1.5;
      for (let i = 0; i < dim; i++) out[i] = c * q[i]!;
      return out;
    },
  };
  if (!withHessian) return p;
  return {
    ...p,
    hessV(out, q) {
      const s = r2(q);
      const a = s / 2 + (1 + s) ** -1.5;
      const b = 1 - 3 * (1 + s) ** -2.5;
      for (let i = 0; i < dim; i++)
        for (let j = 0; j < dim; j++) out[i * dim + j] = (i === j ? a : 0) + b * q[i]! * q[j]!;
      return out;
    },
  };
}

/** L = ½|v|² − V(q) + γz with analytic partials. */
function mechanicalL(V: Potential, gamma: number): ContactLagrangian {
  const n = V.dim;
  return {
    n,
    L(q, v, z) {
      let s = 0;
      for (let i = 0; i < n; i++) s += v[i]! * v[i]!;
      return 0.5 * s - V.V(q) + gamma * z;
    },
    Lq(out, q) {
      V.gradV(out, q);
      for (let i = 0; i < n; i++) out[i] = -out[i]!;
      return out;
    },
    Lv(out, _q, v) {
      out.set(v);
      return out;
    },
    Lz: () => gamma,
    Lqq(out, q) {
      V.hessV!(out, q);
      for (let i = 0; i < n * n; i++) out[i] = -out[i]!;
      return out;
    },
    Lvq: (out) => out.fill(0),
    Lvv(out) {
      out.fill(0);
      for (let i = 0; i < n; i++) out[i * n + i] = 1;
      return out;
    },
    Lqz: (out) => out.fill(0),
    Lvz: (out) => out.fill(0),
    Lzz: () => 0,
  };
}

/**
 * A 2-D L with every partial nonzero somewhere and a non-symmetric L_vq (to catch transposes):
 * L = ½|v|² + ρv₁⁴/4 + κq₁v₂ + μ sin(q₂)v₁ − (1 − cos q₁) − q₂²/2
 *     + γz − αz²/2 + εz(v₁ + 2v₂) + νzv₂²/2 + βzq₁.
 */
const C = {
  rho: 0.3,
  kappa: 0.7,
  mu: -0.4,
  gamma: -0.2,
  alpha: 0.3,
  eps: 0.15,
  nu: 0.25,
  beta: 0.2,
};
function coupledL(): ContactLagrangian {
  const { rho, kappa, mu, gamma, alpha, eps, nu, beta } = C;
  return {
    n: 2,
    L(q, v, z) {
      const [q1, q2, v1, v2] = [q[0]!, q[1]!, v[0]!, v[1]!];
      return (
        0.5 * (v1 * v1 + v2 * v2) +
        0.25 * rho * v1 ** 4 +
        kappa * q1 * v2 +
        mu * Math.sin(q2) * v1 -
        (1 - Math.cos(q1)) -
        0.5 * q2 * q2 +
        gamma * z -
        0.5 * alpha * z * z +
        eps * z * (v1 + 2 * v2) +
        0.5 * nu * z * v2 * v2 +
        beta * z * q1
      );
    },
    Lq(out, q, v, z) {
      out[0] = kappa * v[1]! - Math.sin(q[0]!) + beta * z;
      out[1] = mu * Math.cos(q[1]!) * v[0]! - q[1]!;
      return out;
    },
    Lv(out, q, v, z) {
      out[0] = v[0]! + rho * v[0]! ** 3 + mu * Math.sin(q[1]!) + eps * z;
      out[1] = v[1]! + kappa * q[0]! + 2 * eps * z + nu * z * v[1]!;
      return out;
    },
    Lz: (q, v, z) =>
      gamma - alpha * z + eps * (v[0]! + 2 * v[1]!) + 0.5 * nu * v[1]! ** 2 + beta * q[0]!,
    Lqq(out, q, v) {
      out[0] = -Math.cos(q[0]!);
      out[1] = 0;
      out[2] = 0;
      out[3] = -mu * Math.sin(q[1]!) * v[0]! - 1;
      return out;
    },
    Lvq(out, q) {
      // (i, j) = ∂²L/∂vᵢ∂qⱼ
      out[0] = 0;
      out[1] = mu * Math.cos(q[1]!);
      out[2] = kappa;
      out[3] = 0;
      return out;
    },
    Lvv(out, _q, v, z) {
      out[0] = 1 + 3 * rho * v[0]! ** 2;
      out[1] = 0;
      out[2] = 0;
      out[3] = 1 + nu * z;
      return out;
    },
    Lqz(out) {
      out[0] = beta;
      out[1] = 0;
      return out;
    },
    Lvz(out, _q, v) {
      out[0] = eps;
      out[1] = 2 * eps + nu * v[1]!;
      return out;
    },
    Lzz: () => -alpha,
  };
}

/** The same coupled L against ScalarOps, for the dual-number path. */
function coupledGeneric<T>(o: ScalarOps<T>, q: readonly T[], v: readonly T[], z: T): T {
  const { rho, kappa, mu, gamma, alpha, eps, nu, beta } = C;
  const [q1, q2, v1, v2] = [q[0]!, q[1]!, v[0]!, v[1]!];
  const terms = [
    o.scale(o.add(o.mul(v1, v1), o.mul(v2, v2)), 0.5),
    o.scale(o.pow(v1, 4), 0.25 * rho),
    o.scale(o.mul(q1, v2), kappa),
    o.scale(o.mul(o.sin(q2), v1), mu),
    o.neg(o.sub(o.const(1), o.cos(q1))),
    o.scale(o.mul(q2, q2), -0.5),
    o.scale(z, gamma),
    o.scale(o.mul(z, z), -0.5 * alpha),
    o.scale(o.mul(z, o.add(v1, o.scale(v2, 2))), eps),
    o.scale(o.mul(z, o.mul(v2, v2)), 0.5 * nu),
    o.scale(o.mul(z, q1), beta),
  ];
  return terms.reduce((acc, t) => o.add(acc, t));
}

/** The midpoint rule h·L(q_m, v, z0) of a generic L, as a generic discrete Lagrangian. */
function genericMidpoint(
  h: number,
  L: <T>(o: ScalarOps<T>, q: readonly T[], v: readonly T[], z: T) => T,
): GenericDiscreteLagrangianFunction {
  return (o, q0, q1, z0) => {
    const qm = q0.map((a, i) => o.scale(o.add(a, q1[i]!), 0.5));
    const v = q0.map((a, i) => o.scale(o.sub(q1[i]!, a), 1 / h));
    return o.scale(L(o, qm, v, z0), h);
  };
}

/** Exact discrete Lagrangian of L = ½v² − ½q² + γz (spec 004 §8.2 [D], k = 1, underdamped). */
function exactHO(gamma: number, h: number) {
  const E = Math.exp(gamma * h);
  const w = Math.sqrt(1 - (gamma * gamma) / 4);
  const A = w / Math.sin(w * h);
  const Cw = Math.cos(w * h);
  const sE = Math.sqrt(E);
  return {
    Ld: (q0: number, q1: number, z0: number) =>
      (E - 1) * z0 +
      (A / 2) * ((q1 * q1 + E * q0 * q0) * Cw - 2 * sE * q0 * q1) +
      (gamma / 4) * (q1 * q1 - E * q0 * q0),
    D1: (q0: number, q1: number) => A * (E * q0 * Cw - sE * q1) - (gamma * E * q0) / 2,
    D2: (q0: number, q1: number) => A * (q1 * Cw - sE * q0) + (gamma * q1) / 2,
    Dz: E - 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Checking helpers.

const f64 = (...x: number[]) => Float64Array.from(x);

interface DerivativeErrors {
  D1: number;
  D2: number;
  Dz: number;
  D2D1: number;
  D2Dz: number;
}

/**
 * Every derivative of a discrete Lagrangian against central differences (checkJacobian's
 * relative error |J − D|/max(1, |D|)): D1, D2 of Ld; Dz of Ld; D2D1 of D1; D2Dz of Dz.
 */
function derivativeErrors(
  Ld: DiscreteContactLagrangian,
  q0: Float64Array,
  q1: Float64Array,
  z0: number,
): DerivativeErrors {
  const n = Ld.n;
  const d1 = Ld.D1(new Float64Array(n), q0, q1, z0);
  const d2 = Ld.D2(new Float64Array(n), q0, q1, z0);
  const dz = Ld.Dz(q0, q1, z0);
  const d1q1 = Ld.D2D1(new Float64Array(n * n), q0, q1, z0);
  const dzq1 = Ld.D2Dz(new Float64Array(n), q0, q1, z0);
  const e1 = checkJacobian(
    (out, x) => {
      out[0] = Ld.Ld(x, q1, z0);
    },
    d1,
    q0,
    1,
    n,
  );
  const e2 = checkJacobian(
    (out, x) => {
      out[0] = Ld.Ld(q0, x, z0);
    },
    d2,
    q1,
    1,
    n,
  );
  const ez = checkJacobian(
    (out, x) => {
      out[0] = Ld.Ld(q0, q1, x[0]!);
    },
    [dz],
    [z0],
    1,
    1,
  );
  const e11 = checkJacobian(
    (out, x) => {
      Ld.D1(out, q0, x, z0);
    },
    d1q1,
    q1,
    n,
    n,
  );
  const ez1 = checkJacobian(
    (out, x) => {
      out[0] = Ld.Dz(q0, x, z0);
    },
    dzq1,
    q1,
    1,
    n,
  );
  return {
    D1: e1.maxRelError,
    D2: e2.maxRelError,
    Dz: ez.maxRelError,
    D2D1: e11.maxRelError,
    D2Dz: ez1.maxRelError,
  };
}

/** Random (h, q0, q1 = q0 + h·w, z0) with |w| ≤ 2, so v = (q1 − q0)/h stays O(1). */
const pointArb = (n: number) =>
  fc.record({
    h: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
    q0: fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: n, maxLength: n }),
    w: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
    z0: fc.double({ min: -1, max: 1, noNaN: true }),
  });

const RUNS = { numRuns: 40 };

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** Normwise relative error max|x − y| / max(1, max|y|) (D2D1 is O(1/h): errors scale with it). */
function normRel(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let scale = 1;
  for (let i = 0; i < y.length; i++) scale = Math.max(scale, Math.abs(y[i]!));
  return maxAbsDiff(x, y) / scale;
}

// ---------------------------------------------------------------------------------------------

describe('test Lagrangians (oracle check)', () => {
  const cases: [string, ContactLagrangian][] = [
    ['mechanical 1-D', mechanicalL(centralPotential(1), -0.3)],
    ['mechanical 2-D', mechanicalL(centralPotential(2), -0.3)],
    ['§5.5 nonlinear z-dependent', zDependentLagrangianAnalytic(-0.2, 0.3, 0.15)],
    ['coupled 2-D', coupledL()],
  ];
  for (const [label, L] of cases) {
    it(`[S] ${label}: analytic partials agree with central differences (1e-7)`, () => {
      const n = L.n;
      fc.assert(
        fc.property(pointArb(n), ({ q0, w, z0 }) => {
          const q = Float64Array.from(q0);
          const v = Float64Array.from(w);
          const tol = { tol: 1e-7 };
          const scalar =
            (g: (x: Float64Array) => number) => (out: Float64Array, x: Float64Array) => {
              out[0] = g(x);
            };
          const r = [
            checkJacobian(
              scalar((x) => L.L(x, v, z0)),
              L.Lq(new Float64Array(n), q, v, z0),
              q,
              1,
              n,
              tol,
            ),
            checkJacobian(
              scalar((x) => L.L(q, x, z0)),
              L.Lv(new Float64Array(n), q, v, z0),
              v,
              1,
              n,
              tol,
            ),
            checkJacobian(
              (o, x) => L.Lq(o, x, v, z0),
              L.Lqq(new Float64Array(n * n), q, v, z0),
              q,
              n,
              n,
              tol,
            ),
            checkJacobian(
              (o, x) => L.Lv(o, x, v, z0),
              L.Lvq(new Float64Array(n * n), q, v, z0),
              q,
              n,
              n,
              tol,
            ),
            checkJacobian(
              (o, x) => L.Lv(o, q, x, z0),
              L.Lvv(new Float64Array(n * n), q, v, z0),
              v,
              n,
              n,
              tol,
            ),
            checkJacobian(
              (o, x) => L.Lq(o, q, v, x[0]!),
              L.Lqz(new Float64Array(n), q, v, z0),
              [z0],
              n,
              1,
              tol,
            ),
            checkJacobian(
              (o, x) => L.Lv(o, q, v, x[0]!),
              L.Lvz(new Float64Array(n), q, v, z0),
              [z0],
              n,
              1,
              tol,
            ),
            checkJacobian(
              (o, x) => {
                o[0] = L.L(q, v, x[0]!);
              },
              [L.Lz(q, v, z0)],
              [z0],
              1,
              1,
              tol,
            ),
            checkJacobian(
              (o, x) => {
                o[0] = L.Lz(q, v, x[0]!);
              },
              [L.Lzz(q, v, z0)],
              [z0],
              1,
              1,
              tol,
            ),
          ];
          for (const c of r) expect(c.maxRelError).toBeLessThan(1e-7);
        }),
        RUNS,
      );
    });
  }
});

describe('every derivative of every rule against central differences (spec 004 §7.4 [D])', () => {
  const lagrangians: [string, ContactLagrangian][] = [
    ['mechanical 1-D', mechanicalL(centralPotential(1), -0.3)],
    ['mechanical 2-D', mechanicalL(centralPotential(2), -0.3)],
    ['§5.5 nonlinear z-dependent', zDependentLagrangianAnalytic(-0.2, 0.3, 0.15)],
    ['coupled 2-D', coupledL()],
  ];
  const rules: [string, (L: ContactLagrangian, h: number) => DiscreteContactLagrangian][] = [
    ['midpointLd', midpointLd],
    ['leftRectangleLd', leftRectangleLd],
    ['implicitZMidpointLd [S]', (L, h) => implicitZMidpointLd(L, h)],
  ];
  for (const [ruleName, rule] of rules) {
    for (const [label, L] of lagrangians) {
      it(`[D] ${ruleName}, ${label}: D1, D2, Dz, D2D1, D2Dz to 1e-7`, () => {
        fc.assert(
          fc.property(pointArb(L.n), ({ h, q0, w, z0 }) => {
            const a = Float64Array.from(q0);
            const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
            const e = derivativeErrors(rule(L, h), a, b, z0);
            expect(e.D1).toBeLessThan(1e-7);
            expect(e.D2).toBeLessThan(1e-7);
            expect(e.Dz).toBeLessThan(1e-7);
            expect(e.D2D1).toBeLessThan(1e-7);
            expect(e.D2Dz).toBeLessThan(1e-7);
          }),
          RUNS,
        );
      });
    }
  }

  for (const dim of [1, 2]) {
    for (const withHessian of [true, false]) {
      it(`[D] mechanicalMidpointLd, ${dim}-D, ${withHessian ? 'analytic' : 'differenced'} Hessian: all derivatives to 1e-7`, () => {
        fc.assert(
          fc.property(pointArb(dim), ({ h, q0, w, z0 }) => {
            const Ld = mechanicalMidpointLd(centralPotential(dim, withHessian), -0.3, h);
            const a = Float64Array.from(q0);
            const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
            const e = derivativeErrors(Ld, a, b, z0);
            for (const k of ['D1', 'D2', 'Dz', 'D2D1', 'D2Dz'] as const)
              expect(e[k]).toBeLessThan(1e-7);
          }),
          RUNS,
        );
      });
    }
  }
});

describe('midpointLd (the paper’s rule, spec 004 §7.2)', () => {
  it('[D] mechanicalMidpointLd equals midpointLd of ½|v|² − V + γz (2-D, 1e-13)', () => {
    fc.assert(
      fc.property(pointArb(2), ({ h, q0, w, z0 }) => {
        const V = centralPotential(2);
        const fast = mechanicalMidpointLd(V, -0.3, h);
        const gen = midpointLd(mechanicalL(V, -0.3), h);
        const a = Float64Array.from(q0);
        const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
        const tol = 1e-13;
        expect(Math.abs(fast.Ld(a, b, z0) - gen.Ld(a, b, z0))).toBeLessThan(tol);
        expect(Math.abs(fast.Dz(a, b, z0) - gen.Dz(a, b, z0))).toBeLessThan(tol);
        const m = (f: DiscreteContactLagrangian, k: 'D1' | 'D2' | 'D2Dz') =>
          f[k](new Float64Array(2), a, b, z0);
        for (const k of ['D1', 'D2', 'D2Dz'] as const)
          expect(maxAbsDiff(m(fast, k), m(gen, k))).toBeLessThan(tol);
        // D2D1 ~ 1/h: compare relative to its size
        const J1 = fast.D2D1(new Float64Array(4), a, b, z0);
        const J2 = gen.D2D1(new Float64Array(4), a, b, z0);
        expect(maxAbsDiff(J1, J2)).toBeLessThan(tol * (1 / h));
      }),
      RUNS,
    );
  });

  it('[P] mechanicalMidpointLd is eq. (79) for the oscillator; §8.2 first-step values', () => {
    const h = 0.5;
    const g = -0.05;
    const Ld = mechanicalMidpointLd(quadraticPotential(1), g, h);
    expect(Ld.name).toBe('midpoint');
    expect(Ld.traits.order).toBe(1);
    const q0 = f64(1);
    const q1 = f64(2);
    // z1 = z0 + L_d = 0.4375, p1 = D2 L_d = 1.625, p0 = −D1/(1 + hγ) = 2.375/0.975 (§8.2)
    expect(Math.abs(Ld.Ld(q0, q1, 0) - 0.4375)).toBeLessThan(1e-15);
    expect(Math.abs(Ld.D2(new Float64Array(1), q0, q1, 0)[0]! - 1.625)).toBeLessThan(1e-15);
    const p0 = -Ld.D1(new Float64Array(1), q0, q1, 0)[0]! / (1 + Ld.Dz(q0, q1, 0));
    expect(Math.abs(p0 - 2.375 / 0.975)).toBeLessThan(1e-15);
    expect(1 + Ld.Dz(q0, q1, 0)).toBe(1 + h * g);
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        (hh, a, b, z) => {
          const L79 = mechanicalMidpointLd(quadraticPotential(1), g, hh);
          const x0 = f64(a);
          const x1 = f64(b);
          const ref = (b - a) ** 2 / (2 * hh) - (hh / 8) * (a + b) ** 2 + hh * g * z; // (79)
          expect(Math.abs(L79.Ld(x0, x1, z) - ref)).toBeLessThan(
            1e-13 * Math.max(1, Math.abs(ref)),
          );
          const d1 = -(b - a) / hh - (hh / 4) * (a + b);
          const d2 = (b - a) / hh - (hh / 4) * (a + b);
          expect(Math.abs(L79.D1(new Float64Array(1), x0, x1, z)[0]! - d1)).toBeLessThan(
            1e-13 * Math.max(1, Math.abs(d1)),
          );
          expect(Math.abs(L79.D2(new Float64Array(1), x0, x1, z)[0]! - d2)).toBeLessThan(
            1e-13 * Math.max(1, Math.abs(d2)),
          );
          expect(
            Math.abs(L79.D2D1(new Float64Array(1), x0, x1, z)[0]! - (-1 / hh - hh / 4)),
          ).toBeLessThan(1e-13 / hh);
          expect(L79.D2Dz(new Float64Array(1), x0, x1, z)[0]).toBe(0);
          // and midpointLd of the same L gives the same numbers
          const gen = midpointLd(mechanicalL(quadraticPotential(1), g), hh);
          expect(Math.abs(gen.Ld(x0, x1, z) - ref)).toBeLessThan(
            1e-13 * Math.max(1, Math.abs(ref)),
          );
        },
      ),
      RUNS,
    );
  });

  it('[D] σ_d = 1 + hγ for midpoint and left rectangle on ½|v|² − V + γz (exactly)', () => {
    const L = mechanicalL(centralPotential(2), -0.3);
    const q0 = f64(0.3, -0.2);
    const q1 = f64(0.35, -0.1);
    for (const rule of [midpointLd(L, 0.2), leftRectangleLd(L, 0.2)])
      expect(1 + rule.Dz(q0, q1, 0.4)).toBe(1 + 0.2 * -0.3);
  });

  it('[D] midpoint on the §5.5 Lagrangian: σ = 1 + hL_z(q_m, v, z0) varies with q1', () => {
    const h = 0.3;
    const L = zDependentLagrangianAnalytic(-0.2, 0.3, 0.15);
    const Ld = midpointLd(L, h);
    const q0 = f64(0.7);
    const q1 = f64(0.82);
    const z0 = 0.2;
    const v = (0.82 - 0.7) / h;
    expect(Math.abs(Ld.Dz(q0, q1, z0) - h * (-0.2 - 0.3 * z0 + 0.15 * v))).toBeLessThan(1e-16);
    expect(Math.abs(Ld.D2Dz(new Float64Array(1), q0, q1, z0)[0]! - 0.15)).toBeLessThan(1e-16);
  });
});

describe('implicitZMidpointLd (extension [S], spec 004 §7.4 row 3)', () => {
  it('[S] for L affine in z it is h(L0(q_m, v) + γz0)/(1 − hγ/2) and σ = (1 + hγ/2)/(1 − hγ/2) (1e-14)', () => {
    fc.assert(
      fc.property(
        pointArb(2),
        fc.double({ min: -1, max: 0.5, noNaN: true }),
        ({ h, q0, w, z0 }, gamma) => {
          const V = centralPotential(2);
          const Ld = implicitZMidpointLd(mechanicalL(V, gamma), h);
          const a = Float64Array.from(q0);
          const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
          const qm = Float64Array.from(a, (x, i) => 0.5 * (x + b[i]!));
          const v2 = ((b[0]! - a[0]!) / h) ** 2 + ((b[1]! - a[1]!) / h) ** 2;
          const closed = (h * (0.5 * v2 - V.V(qm) + gamma * z0)) / (1 - (h * gamma) / 2);
          expect(Math.abs(Ld.Ld(a, b, z0) - closed)).toBeLessThan(
            1e-14 * Math.max(1, Math.abs(closed)),
          );
          const sigma = (1 + (h * gamma) / 2) / (1 - (h * gamma) / 2);
          expect(Math.abs(1 + Ld.Dz(a, b, z0) - sigma)).toBeLessThan(1e-14);
          expect(maxAbsDiff(Ld.D2Dz(new Float64Array(2), a, b, z0), [0, 0])).toBe(0);
        },
      ),
      RUNS,
    );
  });

  it('[S] for the §5.5 Lagrangian Λ solves Λ = hL(q_m, v, z0 + Λ/2) and σ = (1 + hL_z/2)/(1 − hL_z/2)', () => {
    const L = zDependentLagrangianAnalytic(-0.2, 0.3, 0.15);
    fc.assert(
      fc.property(pointArb(1), ({ h, q0, w, z0 }) => {
        const Ld = implicitZMidpointLd(L, h);
        const a = f64(q0[0]!);
        const b = f64(q0[0]! + h * w[0]!);
        const lam = Ld.Ld(a, b, z0);
        const qm = f64(0.5 * (a[0]! + b[0]!));
        const v = f64((b[0]! - a[0]!) / h);
        const zs = z0 + lam / 2;
        expect(Math.abs(lam - h * L.L(qm, v, zs))).toBeLessThan(1e-14 * Math.max(1, Math.abs(lam)));
        const lz = L.Lz(qm, v, zs);
        const sigma = (1 + (h / 2) * lz) / (1 - (h / 2) * lz);
        expect(Math.abs(1 + Ld.Dz(a, b, z0) - sigma)).toBeLessThan(1e-14);
        // nonzero, q1-dependent Dz: the rank-one Newton term of §7.1 is exercised
        expect(Math.abs(Ld.D2Dz(new Float64Array(1), a, b, z0)[0]!)).toBeGreaterThan(1e-3);
      }),
      RUNS,
    );
  });

  it('[S] its scalar Newton (F′ = 1 − (h/2)L_z) converges quadratically: ≤ 3 L evaluations for affine L, ≤ 6 for §5.5', () => {
    let calls = 0;
    const counted = (L: ContactLagrangian): ContactLagrangian => ({
      ...L,
      n: L.n,
      L: (q, v, z, t) => {
        calls++;
        return L.L(q, v, z, t);
      },
    });
    let worstAffine = 0;
    let worstZ = 0;
    fc.assert(
      fc.property(
        pointArb(1),
        fc.double({ min: -1, max: 0.5, noNaN: true }),
        ({ h, q0, w, z0 }, g) => {
          const a = f64(q0[0]!);
          const b = f64(q0[0]! + h * w[0]!);
          calls = 0;
          implicitZMidpointLd(counted(mechanicalL(centralPotential(1), g)), h).Ld(a, b, z0);
          worstAffine = Math.max(worstAffine, calls);
          calls = 0;
          implicitZMidpointLd(counted(zDependentLagrangianAnalytic(g, 0.3, 0.15)), h).Ld(a, b, z0);
          worstZ = Math.max(worstZ, calls);
        },
      ),
      RUNS,
    );
    // measured 3 (F(0), F(Λ₁) with Λ₁ the root, F(Λ₂) after the confirming correction) and at
    // most 6 over 2·10⁵ random points of these ranges
    expect(worstAffine).toBeLessThanOrEqual(3);
    expect(worstZ).toBeLessThanOrEqual(6);
  });

  it('[S] the cached root follows the point: values match a fresh object after in-place edits', () => {
    const L = coupledL();
    const h = 0.2;
    const Ld = implicitZMidpointLd(L, h);
    const q0 = f64(0.3, -0.4);
    const q1 = f64(0.4, -0.3);
    const A = Ld.Ld(q0, q1, 0.1);
    q1[1] = -0.25; // mutate in place: the cache compares values, so it must notice
    const B = Ld.Ld(q0, q1, 0.1);
    const fresh = implicitZMidpointLd(L, h).Ld(q0, q1, 0.1);
    expect(B).toBe(fresh);
    expect(A).not.toBe(B);
    const d1 = Ld.D1(new Float64Array(2), q0, q1, 0.1);
    const d1Fresh = implicitZMidpointLd(L, h).D1(new Float64Array(2), q0, q1, 0.1);
    expect(Array.from(d1)).toEqual(Array.from(d1Fresh));
    expect(Ld.Ld(q0, q1, 0.2)).toBe(implicitZMidpointLd(L, h).Ld(q0, q1, 0.2));
  });

  it('[S] throws SingularJacobianError when 1 − (h/2)L_z = 0 and NewtonDivergedError past the cap', () => {
    const L = mechanicalL(centralPotential(1), 0.5);
    // h = 2/γ = 4 makes c = 1 − hγ/2 = 0 exactly
    expect(() => implicitZMidpointLd(L, 4).Ld(f64(0), f64(1), 0)).toThrow(SingularJacobianError);
    const capped = implicitZMidpointLd(zDependentLagrangianAnalytic(-0.2, 0.3, 0.15), 0.3, {
      maxIterations: 1,
    });
    expect(() => capped.Ld(f64(0.7), f64(0.9), 0.2)).toThrow(NewtonDivergedError);
    expect(() => implicitZMidpointLd(L, 0.1, { tol: 0 })).toThrow(DomainError);
  });
});

describe('local consistency against the exact oscillator L_h^e (spec 004 §6.4, §8.2)', () => {
  // Along the true solution q(t) of q̈ = −q + γq̇ through (q0, v0): |L_d − L_h^e|(q0, q(h), z0).
  // (v0 = 1: at v0 = 0.5 the left rectangle's h² coefficient nearly cancels, −0.069, and its
  // slope over h = 0.2 … 0.00625 is still pre-asymptotic.)
  const gamma = -0.5;
  const q0 = 1;
  const v0 = 1;
  const z0 = 0.7;
  const w = Math.sqrt(1 - (gamma * gamma) / 4);
  const B = (v0 - (gamma * q0) / 2) / w;
  const qExact = (t: number) =>
    Math.exp((gamma * t) / 2) * (q0 * Math.cos(w * t) + B * Math.sin(w * t));
  const L = mechanicalL(quadraticPotential(1), gamma);
  const hs = Array.from({ length: 6 }, (_, k) => 0.2 / 2 ** k);
  const localErrors = (rule: (h: number) => DiscreteContactLagrangian) =>
    hs.map((h) =>
      Math.abs(rule(h).Ld(f64(q0), f64(qExact(h)), z0) - exactHO(gamma, h).Ld(q0, qExact(h), z0)),
    );

  const cases: [string, (h: number) => DiscreteContactLagrangian, number][] = [
    ['midpointLd', (h) => midpointLd(L, h), 2],
    ['mechanicalMidpointLd', (h) => mechanicalMidpointLd(quadraticPotential(1), gamma, h), 2],
    ['leftRectangleLd', (h) => leftRectangleLd(L, h), 2],
    ['implicitZMidpointLd [S]', (h) => implicitZMidpointLd(L, h), 3],
  ];
  for (const [label, rule, order] of cases) {
    it(`[D] ${label}: |L_d − L_h^e| = O(h^${order}) (slope ± 0.35)`, () => {
      const r = convergenceOrder(hs, localErrors(rule));
      expect(r.used.length).toBeGreaterThanOrEqual(3);
      expect(Math.abs(r.order - order)).toBeLessThanOrEqual(0.35);
    });
  }

  it('[D] the oracle: exactHO derivatives match its differences and Dz = e^{γh} − 1', () => {
    const h = 0.3;
    const ex = exactHO(gamma, h);
    const Ld = discreteLagrangianFromFunction(1, h, (a, b, z) => ex.Ld(a[0]!, b[0]!, z));
    const a = f64(0.4);
    const b = f64(0.7);
    expect(Math.abs(Ld.D1(new Float64Array(1), a, b, 0.2)[0]! - ex.D1(0.4, 0.7))).toBeLessThan(
      1e-9,
    );
    expect(Math.abs(Ld.D2(new Float64Array(1), a, b, 0.2)[0]! - ex.D2(0.4, 0.7))).toBeLessThan(
      1e-9,
    );
    expect(Math.abs(Ld.Dz(a, b, 0.2) - (Math.exp(gamma * h) - 1))).toBeLessThan(1e-10);
  });

  it('[D] σ of the implicit-z midpoint approximates e^{γh} to O(h³), the paper’s 1 + hγ to O(h²)', () => {
    const x0 = f64(q0);
    const impl = hs.map((h) =>
      Math.abs(1 + implicitZMidpointLd(L, h).Dz(x0, f64(qExact(h)), z0) - Math.exp(gamma * h)),
    );
    const mid = hs.map((h) =>
      Math.abs(1 + midpointLd(L, h).Dz(x0, f64(qExact(h)), z0) - Math.exp(gamma * h)),
    );
    expect(Math.abs(convergenceOrder(hs, impl).order - 3)).toBeLessThanOrEqual(0.35);
    expect(Math.abs(convergenceOrder(hs, mid).order - 2)).toBeLessThanOrEqual(0.35);
  });
});

describe('discreteLagrangianFromFunction (spec 004 §10)', () => {
  const L = coupledL();
  const gen = genericMidpoint(0.2, coupledGeneric);

  it('[D] dual path: D1, D2, Dz exact (1e-12), D2D1, D2Dz by differenced duals (1e-9 normwise), vs analytic midpointLd', () => {
    fc.assert(
      fc.property(pointArb(2), ({ h, q0, w, z0 }) => {
        const user = discreteLagrangianFromFunction(2, h, {
          generic: genericMidpoint(h, coupledGeneric),
        });
        const ref = midpointLd(L, h);
        const a = Float64Array.from(q0);
        const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
        expect(normRel([user.Ld(a, b, z0)], [ref.Ld(a, b, z0)])).toBeLessThan(1e-14);
        const v = (d: DiscreteContactLagrangian, k: 'D1' | 'D2' | 'D2Dz') =>
          d[k](new Float64Array(2), a, b, z0);
        expect(normRel(v(user, 'D1'), v(ref, 'D1'))).toBeLessThan(1e-12);
        expect(normRel(v(user, 'D2'), v(ref, 'D2'))).toBeLessThan(1e-12);
        expect(normRel([user.Dz(a, b, z0)], [ref.Dz(a, b, z0)])).toBeLessThan(1e-12);
        // measured max over 2000 random points: 4e-11 (D2Dz), 8e-11 (D2D1)
        expect(normRel(v(user, 'D2Dz'), v(ref, 'D2Dz'))).toBeLessThan(1e-9);
        const J = user.D2D1(new Float64Array(4), a, b, z0);
        const Jr = ref.D2D1(new Float64Array(4), a, b, z0);
        expect(normRel(J, Jr)).toBeLessThan(1e-9);
      }),
      RUNS,
    );
  });

  it('[D] plain path: first derivatives to 1e-9, mixed second derivatives to 5e-7 (normwise), vs analytic midpointLd', () => {
    fc.assert(
      fc.property(pointArb(2), ({ h, q0, w, z0 }) => {
        const ref = midpointLd(L, h);
        const plain: DiscreteLagrangianFunction = (a, b, z) => ref.Ld(a, b, z);
        const user = discreteLagrangianFromFunction(2, h, plain, {
          name: 'mine',
          traits: { order: 1 },
        });
        const a = Float64Array.from(q0);
        const b = Float64Array.from(q0, (x, i) => x + h * w[i]!);
        const v = (d: DiscreteContactLagrangian, k: 'D1' | 'D2' | 'D2Dz') =>
          d[k](new Float64Array(2), a, b, z0);
        // measured max over 2000 random points: 6e-11 (first), 4e-8 (second derivatives)
        expect(normRel(v(user, 'D1'), v(ref, 'D1'))).toBeLessThan(1e-9);
        expect(normRel(v(user, 'D2'), v(ref, 'D2'))).toBeLessThan(1e-9);
        expect(normRel([user.Dz(a, b, z0)], [ref.Dz(a, b, z0)])).toBeLessThan(1e-9);
        expect(normRel(v(user, 'D2Dz'), v(ref, 'D2Dz'))).toBeLessThan(5e-7);
        expect(
          normRel(
            user.D2D1(new Float64Array(4), a, b, z0),
            ref.D2D1(new Float64Array(4), a, b, z0),
          ),
        ).toBeLessThan(5e-7);
        expect(user.name).toBe('mine');
        expect(user.traits.order).toBe(1);
      }),
      RUNS,
    );
  });

  it('[D] dual path on the exact oscillator L_h^e reproduces the §8.2 closed-form derivatives (1e-13)', () => {
    const gamma = -0.05;
    const h = 0.5;
    const ex = exactHO(gamma, h);
    const E = Math.exp(gamma * h);
    const w = Math.sqrt(1 - (gamma * gamma) / 4);
    const A = w / Math.sin(w * h);
    const Cw = Math.cos(w * h);
    const generic: GenericDiscreteLagrangianFunction = (o, q0, q1, z0) => {
      const a = q0[0]!;
      const b = q1[0]!;
      return o.add(
        o.add(
          o.scale(z0, E - 1),
          o.scale(
            o.sub(
              o.scale(o.add(o.mul(b, b), o.scale(o.mul(a, a), E)), Cw),
              o.scale(o.mul(a, b), 2 * Math.sqrt(E)),
            ),
            A / 2,
          ),
        ),
        o.scale(o.sub(o.mul(b, b), o.scale(o.mul(a, a), E)), gamma / 4),
      );
    };
    const Ld = discreteLagrangianFromFunction(1, h, { generic }, { traits: { isExact: true } });
    const a = f64(1);
    const b = f64(2);
    expect(Math.abs(Ld.Ld(a, b, 0.3) - ex.Ld(1, 2, 0.3))).toBeLessThan(1e-14);
    expect(Math.abs(Ld.D1(new Float64Array(1), a, b, 0.3)[0]! - ex.D1(1, 2))).toBeLessThan(1e-13);
    expect(Math.abs(Ld.D2(new Float64Array(1), a, b, 0.3)[0]! - ex.D2(1, 2))).toBeLessThan(1e-13);
    expect(Math.abs(Ld.Dz(a, b, 0.3) - ex.Dz)).toBeLessThan(1e-15);
    // ∂(D1)/∂q1 = −A√E, D_z constant
    expect(Math.abs(Ld.D2D1(new Float64Array(1), a, b, 0.3)[0]! + A * Math.sqrt(E))).toBeLessThan(
      1e-9,
    );
    expect(Math.abs(Ld.D2Dz(new Float64Array(1), a, b, 0.3)[0]!)).toBeLessThan(1e-12);
    // the exact discrete Legendre transform: −D1/(1 + Dz) = q̇(0) (spec 004 §6.2, (64))
    const Bc = (2 * Math.exp((-gamma * h) / 2) - Cw) / Math.sin(w * h);
    const qdot0 = gamma / 2 + w * Bc;
    expect(
      Math.abs(-Ld.D1(new Float64Array(1), a, b, 0.3)[0]! / (1 + Ld.Dz(a, b, 0.3)) - qdot0),
    ).toBeLessThan(1e-13);
    expect(Ld.traits.isExact).toBe(true);
    expect(Ld.name).toBe('user');
  });

  it('[S] validates its inputs', () => {
    expect(() => discreteLagrangianFromFunction(0, 0.1, () => 0)).toThrow(DimensionError);
    expect(() => discreteLagrangianFromFunction(1, -0.1, () => 0)).toThrow(DomainError);
    expect(() => discreteLagrangianFromFunction(1, 0.1, () => 0, { step: 0 })).toThrow(DomainError);
    const Ld = discreteLagrangianFromFunction(2, 0.2, { generic: gen });
    expect(() => Ld.D1(new Float64Array(2), f64(1), f64(1, 2), 0)).toThrow(DimensionError);
    expect(() => Ld.D2D1(new Float64Array(2), f64(1, 2), f64(1, 2), 0)).toThrow(DimensionError);
  });
});

describe('construction and shapes', () => {
  it('[S] rejects bad h and mismatched sizes; methods return their out argument', () => {
    const L = coupledL();
    expect(() => midpointLd(L, 0)).toThrow(DomainError);
    expect(() => leftRectangleLd(L, Number.NaN)).toThrow(DomainError);
    expect(() => implicitZMidpointLd(L, Number.POSITIVE_INFINITY)).toThrow(DomainError);
    expect(() => mechanicalMidpointLd(centralPotential(2), Number.NaN, 0.1)).toThrow(DomainError);
    for (const Ld of [midpointLd(L, 0.1), leftRectangleLd(L, 0.1), implicitZMidpointLd(L, 0.1)]) {
      const q0 = f64(0.1, 0.2);
      const q1 = f64(0.15, 0.1);
      const out = new Float64Array(2);
      expect(Ld.D1(out, q0, q1, 0)).toBe(out);
      expect(Ld.D2(out, q0, q1, 0)).toBe(out);
      expect(Ld.D2Dz(out, q0, q1, 0)).toBe(out);
      const M = new Float64Array(4);
      expect(Ld.D2D1(M, q0, q1, 0)).toBe(M);
      expect(() => Ld.Ld(f64(1), q1, 0)).toThrow(DimensionError);
      expect(() => Ld.D2D1(new Float64Array(2), q0, q1, 0)).toThrow(DimensionError);
      expect(Ld.n).toBe(2);
      expect(Ld.h).toBe(0.1);
    }
    expect(midpointLd(L, 0.1).name).toBe('midpoint');
    expect(leftRectangleLd(L, 0.1).name).toBe('left-rectangle');
    expect(implicitZMidpointLd(L, 0.1).name).toBe('implicit-z-midpoint');
    expect(implicitZMidpointLd(L, 0.1).traits.order).toBe(2);
    expect(leftRectangleLd(L, 0.1).traits.order).toBe(1);
  });
});
