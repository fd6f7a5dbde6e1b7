import {
  checkJacobian,
  convergenceOrder,
  finiteDifferenceJacobian,
  integrateDopri5,
  refinementLevels,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ComparatorMethodName,
  comparatorMethods,
  createComparatorStepper,
  IndexReducedOde,
  indexReducedRhs,
  integrateConstrained,
  RattleStepper,
} from '../src/comparators.js';
import {
  agm,
  pendulum,
  pendulumInitial,
  pendulumPeriod,
  zieglerColumn,
} from '../src/holonomicModels.js';

/** max |xᵢ| over a series. */
const maxAbs = (x: ArrayLike<number>): number => Math.max(...Array.from(x, Math.abs));
/** max |E_k − E_0| over a series. */
const maxDrift = (e: ArrayLike<number>): number =>
  Math.max(...Array.from(e, (x) => Math.abs(x - e[0]!)));

const g = 9.81;
const l = 1;
const sys = pendulum({ m: 1, g, l });
const theta0 = Math.PI / 4;
const init = pendulumInitial(theta0, 0, l);

describe('pendulum model (spec 001 §4)', () => {
  it('φ, C = [x, y], curvature |v|² and the spec λ formula', () => {
    const q = Float64Array.of(0.3, -0.9);
    const v = Float64Array.of(0.7, 0.2);
    expect(sys.phi(new Float64Array(1), q)[0]).toBeCloseTo(0.09 + 0.81 - 1, 15);
    expect(Array.from(sys.C(new Float64Array(2), q))).toEqual([0.3, -0.9]);
    expect(sys.curvature(new Float64Array(1), q, v)[0]).toBeCloseTo(0.53, 15);
    const lam = new IndexReducedOde(sys).multiplier(q, v)[0]!;
    expect(lam).toBeCloseTo((g * -0.9 - 0.53) / 0.9, 13);
    const { q0, v0 } = pendulumInitial(0.4, 1.3, 2);
    expect(q0[0]).toBeCloseTo(2 * Math.sin(0.4), 15);
    expect(q0[1]).toBeCloseTo(-2 * Math.cos(0.4), 15);
    expect(q0[0]! * v0[0]! + q0[1]! * v0[1]!).toBeCloseTo(0, 15);
    expect(Math.hypot(v0[0]!, v0[1]!)).toBeCloseTo(2.6, 14);
  });

  it('pendulumPeriod: AGM, linear limit, and the π/4 ratio 1.03997', () => {
    expect(agm(1, Math.SQRT1_2)).toBeCloseTo(0.847213084793979, 15);
    const T0 = pendulumPeriod(0, g, l, 'linear');
    expect(T0).toBeCloseTo(2 * Math.PI * Math.sqrt(l / g), 15);
    expect(pendulumPeriod(1e-8, g, l, 'exact')).toBeCloseTo(T0, 12);
    // T/T0 = 2K(sin(π/8))/π = 1.0399659...
    expect(pendulumPeriod(theta0, g, l, 'exact') / T0).toBeCloseTo(1.03997, 5);
    // RATTLE (h = 1e-3) crosses x = 0 downward-to-upward every exact period
    const T = pendulumPeriod(theta0, g, l, 'exact');
    const h = 1e-3;
    const steps = Math.round((2 * T) / h) + 10;
    const tr = integrateConstrained(sys, 'rattle', init, h, steps);
    const crossings: number[] = [];
    for (let k = 1; k < tr.count; k++) {
      const x0 = tr.q[2 * (k - 1)]!;
      const x1 = tr.q[2 * k]!;
      if (x0 > 0 && x1 <= 0) crossings.push(tr.t[k - 1]! + (h * x0) / (x0 - x1));
    }
    expect(crossings.length).toBe(2);
    expect(Math.abs(crossings[1]! - crossings[0]! - T)).toBeLessThan(1e-4);
  });
});

describe('RATTLE on the pendulum', () => {
  it('keeps |q| = l to 1e-12 and C v = 0 over 1e4 steps; energy error bounded, no drift', () => {
    const h = 0.01;
    const steps = 10_000;
    const tr = integrateConstrained(sys, 'rattle', init, h, steps);
    let maxRadius = 0;
    let maxCv = 0;
    for (let k = 0; k < tr.count; k++) {
      const x = tr.q[2 * k]!;
      const y = tr.q[2 * k + 1]!;
      maxRadius = Math.max(maxRadius, Math.abs(Math.hypot(x, y) - l));
      maxCv = Math.max(maxCv, Math.abs(x * tr.v[2 * k]! + y * tr.v[2 * k + 1]!));
    }
    expect(maxRadius).toBeLessThan(1e-12);
    expect(maxCv).toBeLessThan(1e-12);
    // energy: E0 = −g cos(π/4) ≈ −6.94; the O(h²) oscillation stays below 2e-3 (relative 3e-4)
    const E0 = tr.energy[0]!;
    const half = Math.floor(tr.count / 2);
    let first = 0;
    let second = 0;
    for (let k = 0; k < tr.count; k++) {
      const e = Math.abs(tr.energy[k]! - E0);
      if (k < half) first = Math.max(first, e);
      else second = Math.max(second, e);
    }
    expect(maxDrift(tr.energy)).toBeLessThan(2e-3);
    expect(second).toBeLessThan(1.1 * first); // bounded: the second half is no worse
    // Newton in λ per step on this reference run: measured ≤ 3 (1.9985 on average, 19985 in
    // total), to the residual ‖φ(q_{k+1})‖∞ ≤ 8.9e-16
    expect(tr.stats.maxIterations).toBeLessThanOrEqual(3);
    expect(tr.stats.newtonIterations).toBeLessThanOrEqual(2 * steps);
    expect(tr.stats.maxResidual).toBeLessThan(1e-15);
  });
});

/** Final-position error at T against DOPRI5 (rtol 1e-12) of the index-reduced ODE. */
function orderOf(method: ComparatorMethodName, n0: number, levels: number): number {
  const T = 0.5;
  const z0 = [...init.q0, ...init.v0];
  const ref = integrateDopri5(indexReducedRhs(sys), z0, 0, T, { rtol: 1e-12, atol: 1e-14 });
  const zr = ref.sample('y', ref.count - 1);
  const { h, steps } = refinementLevels(T, n0, levels);
  const errs = h.map((hk, i) => {
    const tr = integrateConstrained(sys, method, init, hk, steps[i]!, { every: steps[i]! });
    const last = tr.count - 1;
    return Math.max(Math.abs(tr.q[2 * last]! - zr[0]!), Math.abs(tr.q[2 * last + 1]! - zr[1]!));
  });
  return convergenceOrder(h, errs).order;
}

describe('measured global orders on the pendulum (T = 0.5, vs DOPRI5 rtol 1e-12)', () => {
  const cases: [ComparatorMethodName, number, number][] = [
    ['euler', 200, 5],
    ['trapezium', 20, 5],
    ['ab3', 20, 5],
    ['rk4', 10, 5],
    ['rattle', 20, 5],
  ];
  for (const [method, n0, levels] of cases) {
    it(`${method}: order ${comparatorMethods[method].order} ± 0.35`, () => {
      const p = orderOf(method, n0, levels);
      expect(Math.abs(p - comparatorMethods[method].order!)).toBeLessThanOrEqual(0.35);
    });
  }
});

describe('constraint drift (h = 0.005, θ0 = π/4)', () => {
  it("explicit Euler's |φ| grows over the run, RATTLE's stays at round-off", () => {
    const h = 0.005;
    const steps = 4000; // T = 20
    const eu = integrateConstrained(sys, 'euler', init, h, steps, { every: 1000 });
    const ra = integrateConstrained(sys, 'rattle', init, h, steps, { every: 1000 });
    const phiE = Array.from(eu.constraint, Math.abs);
    for (let k = 1; k < phiE.length; k++) expect(phiE[k]!).toBeGreaterThan(phiE[k - 1]!);
    expect(phiE[phiE.length - 1]!).toBeGreaterThan(1e-2);
    expect(maxAbs(ra.constraint)).toBeLessThan(1e-13);
  });

  it('AB3 restarts after reset(); the stepper is reusable', () => {
    const s = createComparatorStepper(sys, 'ab3');
    const run = (): Float64Array => {
      s.reset();
      const z = Float64Array.of(...init.q0, ...init.v0);
      for (let k = 0; k < 50; k++) s.step(z, k, 0.01);
      return z;
    };
    expect(Array.from(run())).toEqual(Array.from(run()));
  });
});

describe('Ziegler column (spec 001 §7.2, CLI.md)', () => {
  const z = zieglerColumn({ n: 2, m: 1, k: 1, P: 0.2, l: 1 });

  it('angles∘fromAngles = id, zero constraint residual, V matches the formula', () => {
    for (const th of [
      [0.1, -0.2],
      [1.2, 2.9],
      [-3.0, 0.4],
      [0, 0],
    ]) {
      const q = z.fromAngles(th);
      const back = z.angles(q);
      expect(Math.abs(back[0]! - th[0]!)).toBeLessThan(1e-14);
      expect(Math.abs(back[1]! - th[1]!)).toBeLessThan(1e-14);
      const phi = z.phi(new Float64Array(2), q);
      expect(Math.abs(phi[0]!)).toBeLessThan(1e-15);
      expect(Math.abs(phi[1]!)).toBeLessThan(1e-15);
      const [t1, t2] = th as [number, number];
      const y1 = Math.cos(t1);
      const y2 = y1 + Math.cos(t2);
      // the spring acts on the relative angle wrapped to (−π, π] (a bend of 3.4 rad is the bend
      // of 3.4 − 2π: the same configuration q)
      let bend = t2 - t1;
      if (bend > Math.PI) bend -= 2 * Math.PI;
      if (bend <= -Math.PI) bend += 2 * Math.PI;
      const V = 0.2 * (y1 + y2) + 0.5 * t1 * t1 + 0.5 * bend ** 2;
      expect(z.V(q)).toBeCloseTo(V, 14);
      expect(z.potentialFromAngles(th)).toBeCloseTo(V, 14);
    }
  });

  it('∇V, C = ½∇φ and the curvature match finite differences (3 links, off-constraint)', () => {
    const z3 = zieglerColumn({ n: 3, m: 1.5, k: 2, P: 0.4, l: 0.8 });
    const q = Float64Array.of(0.3, 0.9, 0.1, 1.5, 0.6, 2.2);
    const Jv = finiteDifferenceJacobian(
      new Float64Array(6),
      (out, x) => {
        out[0] = z3.V(x);
      },
      q,
      1,
      6,
    );
    const gv = z3.gradV(new Float64Array(6), q);
    for (let j = 0; j < 6; j++) expect(Math.abs(gv[j]! - Jv[j]!)).toBeLessThan(1e-8);
    const Jphi = finiteDifferenceJacobian(
      new Float64Array(18),
      (out, x) => {
        z3.phi(out, x);
      },
      q,
      3,
      6,
    );
    const C = z3.C(new Float64Array(18), q);
    for (let i = 0; i < 18; i++) expect(Math.abs(C[i]! - 0.5 * Jphi[i]!)).toBeLessThan(1e-8);
    // c = d/dt(C(q + t v) v) at t = 0
    const v = Float64Array.of(0.2, -0.1, 0.5, 0.3, -0.4, 0.1);
    const eps = 1e-6;
    const Cp = z3.C(
      new Float64Array(18),
      q.map((x, i) => x + eps * v[i]!),
    );
    const Cm = z3.C(
      new Float64Array(18),
      q.map((x, i) => x - eps * v[i]!),
    );
    const c = z3.curvature(new Float64Array(3), q, v);
    for (let a = 0; a < 3; a++) {
      let d = 0;
      for (let j = 0; j < 6; j++) d += ((Cp[a * 6 + j]! - Cm[a * 6 + j]!) / (2 * eps)) * v[j]!;
      expect(Math.abs(c[a]! - d)).toBeLessThan(1e-8);
    }
  });

  it('the spec §7.2 buckled equilibrium at P = 0.30 is a constrained equilibrium', () => {
    const zp = zieglerColumn({ n: 2, P: 0.3 });
    const q = zp.fromAngles([0.30981636990293915, 0.4367024872887203]);
    // M⁻¹ = I: the index-reduced acceleration at v = 0 is the tangential part of −∇V
    const ode = new IndexReducedOde(zp);
    const dz = ode.rhs(new Float64Array(8), Float64Array.of(...q, 0, 0, 0, 0));
    for (let j = 4; j < 8; j++) expect(Math.abs(dz[j]!)).toBeLessThan(1e-10);
    // and the upright column is not at P = 0.3 a minimum (P > P_c)
    const qu = zp.fromAngles([0, 0]);
    expect(zp.V(qu)).toBeGreaterThan(zp.V(q));
  });

  it('critical load P_c from det K(P) = 0 matches k[(l1+l2) − √(l1²+l2²)]/(2 l1 l2)', () => {
    for (const [k, l] of [
      [1, 1],
      [3, 2],
    ] as const) {
      const zz = zieglerColumn({ n: 2, k, l });
      const det = (P: number): number => {
        const K = zz.stiffnessMatrix(P);
        return K[0]! * K[3]! - K[1]! * K[2]!;
      };
      let lo = 0;
      let hi = k / l; // det(0) = k² > 0, det(k/l) = 2k² − 4k² + k² < 0
      expect(det(lo)).toBeGreaterThan(0);
      expect(det(hi)).toBeLessThan(0);
      for (let i = 0; i < 200; i++) {
        const mid = 0.5 * (lo + hi);
        if (det(mid) > 0) lo = mid;
        else hi = mid;
      }
      const closed = (k * (2 * l - Math.sqrt(2 * l * l))) / (2 * l * l);
      expect(lo).toBeCloseTo(closed, 13);
      expect(closed).toBeCloseTo((1 - Math.SQRT1_2) * (k / l), 14);
    }
    // K = [[2k − 2Pl, −k], [−k, k − Pl]] at k = l = 1, P = 0.2
    expect(Array.from(z.stiffnessMatrix())).toEqual([1.6, -1, -1, 0.8]);
  });

  it('RATTLE keeps both link lengths on the Ziegler column', () => {
    const q0 = z.fromAngles([0.3, 0.5]);
    const tr = integrateConstrained(z, 'rattle', { q0, v0: new Float64Array(4) }, 0.05, 2000, {
      every: 100,
    });
    expect(maxAbs(tr.constraint)).toBeLessThan(1e-13);
    expect(maxDrift(tr.energy)).toBeLessThan(5e-3);
  });
});

describe("RATTLE's Newton Jacobian in λ at random states", () => {
  // G(λ) = φ(q_k + h v_k − (h²/2) M⁻¹(∇V(q_k) − C(q_k)ᵀλ)): RATTLE differences G centrally (any ψ
  // scaling of C); for ψ = ½dφ (pendulum, Ziegler column) ∂G/∂λ = 2 C(q_{k+1}) (h²/2) M⁻¹ C(q_k)ᵀ.
  // Both comparisons at relative 1e-7 (measured: 0 against core's central differences, which
  // RATTLE's are; 6e-11 against the analytic form): the Jacobian Newton uses is that of the
  // equation it solves, and that equation has the sign of (h²/2)M⁻¹Cᵀλ of Hairer–Lubich–Wanner.
  const z3 = zieglerColumn({ n: 3, m: 1.5, k: 2, P: 0.3, l: 0.8 });
  const cases = [
    ['pendulum', sys],
    ['Ziegler column, 3 links', z3],
  ] as const;
  for (const [name, s] of cases) {
    it(name, () => {
      const { n, m } = s;
      const st = new RattleStepper(s);
      fc.assert(
        fc.property(
          fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
          fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
          fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { minLength: m, maxLength: m }),
          fc.constantFrom(0.001, 0.01, 0.05),
          (dq, v, lam, h) => {
            // q_k near the constraint manifold (C(q_k) of full rank), v_k arbitrary
            const q0 = s === sys ? init.q0 : z3.fromAngles([0.2, -0.1, 0.3]);
            const z = Float64Array.from([...Array.from(q0, (x, i) => x + 0.1 * dq[i]!), ...v]);
            const lambda = Float64Array.from(lam);
            const G = (out: Float64Array, x: Float64Array) => st.positionResidual(out, z, h, x);
            const J = (out: Float64Array, x: Float64Array) => st.positionJacobian(out, z, h, x);
            expect(checkJacobian(G, J, lambda, m, m).maxRelError).toBeLessThan(1e-7);
            // analytic: 2 C(q_{k+1}) (h²/2) M⁻¹ C(q_k)ᵀ with q_{k+1} = q_k + h v − (h²/2)M⁻¹(∇V − Cᵀλ)
            const qk = z.slice(0, n);
            const Ck = s.C(new Float64Array(m * n), qk);
            const gV = s.gradV(new Float64Array(n), qk);
            const q1 = new Float64Array(n);
            for (let j = 0; j < n; j++) {
              let ct = 0;
              for (let a = 0; a < m; a++) ct += Ck[a * n + j]! * lambda[a]!;
              q1[j] = qk[j]! + h * v[j]! - ((0.5 * h * h) / s.mass[j]!) * (gV[j]! - ct);
            }
            const C1 = s.C(new Float64Array(m * n), q1);
            const exact = new Float64Array(m * m);
            for (let a = 0; a < m; a++)
              for (let b = 0; b < m; b++) {
                let e = 0;
                for (let j = 0; j < n; j++) e += (C1[a * n + j]! * Ck[b * n + j]!) / s.mass[j]!;
                exact[a * m + b] = h * h * e;
              }
            expect(checkJacobian(G, exact, lambda, m, m).maxRelError).toBeLessThan(1e-7);
          },
        ),
        { numRuns: 30 },
      );
    });
  }

  it("RATTLE's λ is the continuous multiplier to O(h) (the sign of its equation)", () => {
    // M q̈ = −∇V + Cᵀλ_c: q_{k+1} = q_k + h v_k + (h²/2) q̈ + O(h³) gives λ = λ_c(q_k, v_k) + O(h);
    // measured |λ − λ_c| = 0.30·h·|λ_c| at h = 1e-3 and 1e-4 (a sign error would give 2|λ_c|)
    const ode = new IndexReducedOde(sys);
    for (const h of [1e-3, 1e-4]) {
      const st = new RattleStepper(sys);
      st.reset();
      const z = Float64Array.of(...init.q0, 0.3 * init.q0[1]!, -0.3 * init.q0[0]!);
      const lc = ode.multiplier(z.slice(0, 2), z.slice(2))[0]!;
      st.step(z, 0, h);
      expect(Math.abs(st.lambda[0]! - lc)).toBeLessThan(h * Math.abs(lc));
    }
  });
});
