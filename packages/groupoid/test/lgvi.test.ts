import {
  convergenceOrder,
  DimensionError,
  DomainError,
  integrate,
  integrateDopri5,
  ProductGroup,
  Rn,
  SO3,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { rng as mulberry32 } from '../../core/test/support/random.js';
import {
  GravityPotential,
  orthogonalityError,
  QuadrotorLgviStepper,
  So3DiscreteLagrangian,
  So3FSolver,
  So3LgviStepper,
  simulateHeavyTop,
} from '../src/lgvi.js';
import { LieGroupPairGroupoid } from '../src/lieGroupPair.js';
import { symmetricTopRun, TOP } from './support/heavyTop.js';

const FD = 1e-6;

/** Central difference of f(R·Exp(δ)) at δ = 0 (the left-trivialized gradient). */
function fdGrad(f: (R: Float64Array) => number, R: Float64Array): Float64Array {
  const out = new Float64Array(3);
  const Rp = new Float64Array(9);
  const Rm = new Float64Array(9);
  for (let j = 0; j < 3; j++) {
    const d = new Float64Array(3);
    d[j] = FD;
    SO3.rplus(Rp, R, d);
    d[j] = -FD;
    SO3.rplus(Rm, R, d);
    out[j] = (f(Rp) - f(Rm)) / (2 * FD);
  }
  return out;
}

function randomRotation(rng: () => number, scale = 1.5): Float64Array {
  const t = Float64Array.of(
    scale * (2 * rng() - 1),
    scale * (2 * rng() - 1),
    scale * (2 * rng() - 1),
  );
  return SO3.exp(new Float64Array(9), t);
}

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

describe.each([
  ['SO(3)', SO3, [6, 18, 9, 3, 3], 'Pair(SO3)'],
  ['SO(3) × R³', new ProductGroup([SO3, Rn(3)]), [12, 24, 12, 6, 6], undefined],
] as const)(
  'LieGroupPairGroupoid over %s (spec 003 §3.5(a) with Q = G)',
  (_name, group, dims, name) => {
    const P = new LieGroupPairGroupoid(group);
    const N = P.arrowDim;
    const B = P.baseDim;
    const D = P.dim;
    const rng = mulberry32(7);

    it('has the dimensions of SO(3) × SO(3) ⇒ SO(3)', () => {
      expect([P.dim, P.arrowDim, P.baseDim, P.baseTangentDim, P.rank]).toEqual([...dims]);
      if (name !== undefined) expect(P.name).toBe(name);
    });

    it('satisfies the groupoid axioms exactly', () => {
      for (let s = 0; s < 20; s++) {
        const g = P.random(new Float64Array(N), rng);
        const h = P.randomAfter(new Float64Array(N), g, rng);
        const k = P.randomAfter(new Float64Array(N), h, rng);
        const gh = P.multiply(new Float64Array(N), g, h);
        expect(P.source(new Float64Array(B), gh)).toEqual(P.source(new Float64Array(B), g));
        expect(P.target(new Float64Array(B), gh)).toEqual(P.target(new Float64Array(B), h));
        const a = P.multiply(new Float64Array(N), gh, k);
        const b = P.multiply(new Float64Array(N), g, P.multiply(new Float64Array(N), h, k));
        expect(a).toEqual(b);
        const gi = P.inverse(new Float64Array(N), g);
        const e = P.multiply(new Float64Array(N), g, gi);
        expect(e).toEqual(P.identityAt(new Float64Array(N), g.subarray(0, B)));
        expect(P.isComposable(g, g)).toBe(P.gap(g, g) === 0);
      }
    });

    it('throws NotComposable / DimensionError on bad arrows', () => {
      const g = P.random(new Float64Array(N), rng);
      const h = P.random(new Float64Array(N), rng);
      expect(() => P.multiply(new Float64Array(N), g, h)).toThrow(/composable/i);
      expect(() => P.source(new Float64Array(B), new Float64Array(B))).toThrow(DimensionError);
      expect(() => P.identityAt(new Float64Array(N), [1, 0, 0])).toThrow(DimensionError);
    });

    it('chart∘chartInverse = id, and the retractions have velocities ←v, →v (central differences)', () => {
      const g = P.random(new Float64Array(N), rng);
      const x = Float64Array.from({ length: D }, (_, i) => 0.1 * Math.sin(i + 1));
      const k = P.chart(new Float64Array(N), g, x);
      expect(maxAbs(P.chartInverse(new Float64Array(D), g, k), x)).toBeLessThan(1e-14);
      const v = Float64Array.from({ length: P.rank }, (_, i) => 0.3 * Math.cos(i + 1));
      for (const [retract, field] of [
        [P.leftRetract.bind(P), P.leftField.bind(P)],
        [P.rightRetract.bind(P), P.rightField.bind(P)],
      ] as const) {
        const vp = Float64Array.from(v, (a) => a * FD);
        const vm = Float64Array.from(v, (a) => -a * FD);
        const cp = P.chartInverse(new Float64Array(D), g, retract(new Float64Array(N), g, vp));
        const cm = P.chartInverse(new Float64Array(D), g, retract(new Float64Array(N), g, vm));
        const vel = Float64Array.from(cp, (a, i) => (a - cm[i]!) / (2 * FD));
        expect(maxAbs(vel, field(new Float64Array(D), g, v))).toBeLessThan(1e-8);
      }
    });

    it('bracket is ad_x y (x × y on so(3))', () => {
      const r = P.rank;
      const ex = new Float64Array(r);
      const ey = new Float64Array(r);
      ex[0] = 1;
      ey[1] = 1;
      const out = P.bracket(new Float64Array(r), new Float64Array(B), ex, ey);
      expect(Array.from(out.subarray(0, 3))).toEqual([0, 0, 1]);
      if (r > 3) expect(Array.from(out.subarray(3))).toEqual([0, 0, 0]);
    });
  },
);

describe('GravityPotential and the discrete Lagrangian (L1)–(L3)', () => {
  const U = new GravityPotential(1.3, 9.81, [0.1, -0.2, 0.5]);
  const rng = mulberry32(11);

  it('M(R) is minus the left-trivialized gradient of U (central differences, 1e-8)', () => {
    for (let s = 0; s < 10; s++) {
      const R = randomRotation(rng);
      const fd = fdGrad((X) => U.value(X), R);
      const M = U.moment(new Float64Array(3), R);
      expect(
        maxAbs(
          M,
          fd.map((a) => -a),
        ),
      ).toBeLessThan(1e-8);
    }
  });

  it('D₁L_d and D₂L_d are the left-trivialized partials of L_d (central differences, 1e-7 relative)', () => {
    const h = 0.05;
    const Ld = new So3DiscreteLagrangian([1, 2, 3.5], U, h);
    for (let s = 0; s < 10; s++) {
      const R0 = randomRotation(rng);
      const F = randomRotation(rng, 0.3);
      const g = new Float64Array(18);
      g.set(R0, 0);
      g.set(SO3.compose(new Float64Array(9), R0, F), 9);
      const d1 = Ld.d1(new Float64Array(3), g);
      const d2 = Ld.d2(new Float64Array(3), g);
      const f1 = fdGrad((X) => {
        const a = Float64Array.from(g);
        a.set(X, 0);
        return Ld.value(a);
      }, R0);
      const f2 = fdGrad((X) => {
        const a = Float64Array.from(g);
        a.set(X, 9);
        return Ld.value(a);
      }, g.subarray(9, 18).slice());
      const scale = Math.max(1, ...Array.from(d1, Math.abs), ...Array.from(d2, Math.abs));
      expect(maxAbs(d1, f1) / scale).toBeLessThan(1e-7);
      expect(maxAbs(d2, f2) / scale).toBeLessThan(1e-7);
    }
  });

  it('the F-solve Jacobian tr(FJ_d)F − FJ_dF matches central differences (1e-8)', () => {
    const solver = new So3FSolver([1, 1.5, 2.2]);
    solver.setTarget([0.3, -0.2, 0.5], 0.1);
    for (let s = 0; s < 10; s++) {
      const F = randomRotation(rng, 0.8);
      const J = solver.jacobian(new Float64Array(9), F);
      for (let j = 0; j < 3; j++) {
        const col = fdGrad((X) => solver.residual(new Float64Array(3), X)[0]!, F);
        expect(Math.abs(col[j]! - J[j]!)).toBeLessThan(1e-8);
      }
      for (let i = 0; i < 3; i++) {
        const row = fdGrad((X) => solver.residual(new Float64Array(3), X)[i]!, F);
        for (let j = 0; j < 3; j++) expect(Math.abs(row[j]! - J[3 * i + j]!)).toBeLessThan(1e-8);
      }
    }
  });

  it('solves (L4) to round-off from the Cayley guess in ≤ 4 iterations', () => {
    const solver = new So3FSolver([1, 1.5, 2.2]);
    const F = new Float64Array(9);
    const hg = Float64Array.of(0.05, -0.1, 0.2);
    const its = solver.solve(F, hg);
    expect(its).toBeLessThanOrEqual(4);
    expect(orthogonalityError(F)).toBeLessThan(1e-15);
    expect(Math.abs(solver.residual(new Float64Array(3), F)[0]!)).toBeLessThan(1e-15);
  });
});

describe('So3LgviStepper: heavy top (L4)–(L6)', () => {
  it('(L6) is the pair groupoid momentum ←e[L_d] + f_d⁺ = D₂L_d + (h/2)u at the solution', () => {
    const h = 0.02;
    const s = new So3LgviStepper({
      inertia: [1, 2, 3],
      h,
      potential: new GravityPotential(1, 9.81, [0.1, 0.2, 0.4]),
    });
    const x = s.initialState([0.3, -0.2, 0.1], [1, -2, 3]);
    const R0 = x.slice(0, 9);
    const u = Float64Array.of(0.3, -0.1, 0.2);
    s.step(x, 0, h, u);
    const g = new Float64Array(18);
    g.set(R0, 0);
    g.set(x.subarray(0, 9), 9);
    const p1 = s.lagrangian.pair.leftGrad(
      new Float64Array(3),
      s.lagrangian.d2(new Float64Array(3), g),
    );
    // D₂L_d divides the Newton residual (≈ ε·tr J) by h: 1e-12 is its round-off
    expect(
      maxAbs(
        Float64Array.from(p1, (a, i) => a + 0.5 * h * u[i]!),
        x.subarray(9, 12),
      ),
    ).toBeLessThan(1e-12);
    // and the momentum at the source: Π_0 = →e[L_d] − f_d⁻ = −D₁L_d − (h/2)u
    const p0 = s.lagrangian.pair.rightGrad(
      new Float64Array(3),
      s.lagrangian.d1(new Float64Array(3), g),
    );
    const pi0 = [1 * 1, 2 * -2, 3 * 3];
    expect(
      maxAbs(
        Float64Array.from(p0, (a, i) => a - 0.5 * h * u[i]!),
        pi0,
      ),
    ).toBeLessThan(1e-12);
  });

  it('with u = 0 it equals the unforced run bit for bit', () => {
    const s = new So3LgviStepper({
      ...TOP,
      h: 0.01,
      potential: new GravityPotential(1, 9.81, [0, 0, 0.5]),
    });
    const x0 = s.initialState([0.3, 0, 0], [0.5, 0, 20]);
    const a = integrate(s, x0, { h: 0.01, steps: 500 });
    const b = integrate(s, x0, { h: 0.01, steps: 500, inputs: new Float64Array(1500) });
    expect(a.R).toEqual(b.R);
    expect(a.pi).toEqual(b.pi);
  });

  it('keeps R orthogonal, the Noether charges e₃·RΠ and Π₃, and a bounded energy over 10⁵ steps', () => {
    // symmetric top (I₁ = I₂, ρ ∥ e₃): U is invariant under rotations about the vertical (left)
    // and about the body axis (right), so e₃·RΠ and Π₃ are the discrete Noether charges
    const run = symmetricTopRun(100_000, 1000);
    const { sol } = run;
    const n = sol.count;
    const E0 = sol.energy[0]!;
    // measured: 8.4e-13, 1.7e-11 (relative 4.4e-13), 3.6e-14, 5.2e-5 (relative 1.3e-7)
    expect(run.orthogonality).toBeLessThan(2e-12);
    expect(run.spatialMomentum).toBeLessThan(2e-12);
    expect(run.bodyMomentum).toBeLessThan(1e-14);
    expect(run.energy).toBeLessThan(2e-7);
    // no drift: the energy error of the second half is no larger than that of the first
    let first = 0;
    let second = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.abs(sol.energy[j]! - E0);
      if (j < n / 2) first = Math.max(first, e);
      else second = Math.max(second, e);
    }
    expect(second).toBeLessThan(1.5 * first);
  });

  it('is of order 2 against DOPRI5 on Ṙ = RΩ^, Π̇ = Π × Ω + M(R) + u (constant torque)', () => {
    const inertia = [1, 2, 3];
    const U = new GravityPotential(1, 9.81, [0.1, -0.1, 0.3]);
    const u = [0.2, -0.1, 0.3];
    const rot = [0.4, -0.3, 0.2];
    const omega = [1, -0.5, 2];
    const T = 1;
    const rhs = (out: Float64Array, _t: number, y: Float64Array) => {
      const R = y.subarray(0, 9);
      const W = [y[9]! / inertia[0]!, y[10]! / inertia[1]!, y[11]! / inertia[2]!];
      // Ṙ = R Ω^
      for (let i = 0; i < 3; i++) {
        const a = R[3 * i]!;
        const b = R[3 * i + 1]!;
        const c = R[3 * i + 2]!;
        out[3 * i] = b * W[2]! - c * W[1]!;
        out[3 * i + 1] = c * W[0]! - a * W[2]!;
        out[3 * i + 2] = a * W[1]! - b * W[0]!;
      }
      const M = U.moment(new Float64Array(3), R.slice());
      out[9] = y[10]! * W[2]! - y[11]! * W[1]! + M[0]! + u[0]!;
      out[10] = y[11]! * W[0]! - y[9]! * W[2]! + M[1]! + u[1]!;
      out[11] = y[9]! * W[1]! - y[10]! * W[0]! + M[2]! + u[2]!;
    };
    const probe = new So3LgviStepper({ inertia, h: 1, potential: U });
    const x0 = probe.initialState(rot, omega);
    const ref = integrateDopri5(rhs, x0, 0, T, { rtol: 1e-13, atol: 1e-14, tEval: [T] });
    const yT = ref.sample('y', 0);
    const hs: number[] = [];
    const errs: number[] = [];
    for (let k = 0; k < 4; k++) {
      const n = 40 * 2 ** k;
      const h = T / n;
      const s = new So3LgviStepper({ inertia, h, potential: U });
      const x = new Float64Array(12);
      const inputs = new Float64Array(3 * n);
      for (let i = 0; i < n; i++) inputs.set(u, 3 * i);
      const run = integrate(s, x0, { h, steps: n, inputs });
      x.set(run.sample('R', run.count - 1), 0);
      x.set(run.sample('pi', run.count - 1), 9);
      hs.push(h);
      errs.push(maxAbs(x, yT));
    }
    const r = convergenceOrder(hs, errs);
    // measured: 2.0002 (errors 2.8e-3 … 4.3e-5)
    expect(Math.abs(r.order - 2)).toBeLessThanOrEqual(0.35);
  });

  it('a fast top precesses at the gyroscopic rate Ω_p ≈ m g l/(I₃ω₃) (within 0.1 %)', () => {
    const omega3 = 200;
    const h = 1e-3;
    const T = 10;
    const sol = simulateHeavyTop({
      ...TOP,
      rotation: [0.3, 0, 0],
      omega: [0, 0, omega3],
      h,
      steps: T / h,
      every: 10,
    });
    // azimuth of the symmetry axis R e₃ (third column), unwrapped
    let phi0 = Number.NaN;
    let prev = 0;
    let turns = 0;
    let phi = 0;
    for (let j = 0; j < sol.count; j++) {
      const R = sol.sample('R', j);
      const a = Math.atan2(R[5]!, R[2]!);
      if (j === 0) phi0 = a;
      else if (a - prev > Math.PI) turns -= 1;
      else if (a - prev < -Math.PI) turns += 1;
      prev = a;
      phi = a + 2 * Math.PI * turns;
    }
    const rate = (phi - phi0) / T;
    const gyro = (1 * 9.81 * 0.5) / (2 * omega3);
    // measured: 0.0122645 against 0.0122625, relative 1.7e-4 (the exact slow-precession root
    // differs from the gyroscopic approximation by ≈ I₁mgl·cosθ/(I₃ω₃)² = 3e-5)
    expect(Math.abs(rate / gyro - 1)).toBeLessThan(1e-3);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => new So3LgviStepper({ inertia: [1, 0, 1], h: 0.1 })).toThrow(DomainError);
    expect(() => new So3LgviStepper({ inertia: [1, 1], h: 0.1 })).toThrow(DimensionError);
    expect(() => new So3LgviStepper({ inertia: [1, 1, 1], h: 0 })).toThrow(DomainError);
    expect(() => new GravityPotential(1, 9.81, [0, 0])).toThrow(DimensionError);
    expect(() => new GravityPotential(-1, 9.81, [0, 0, 1])).toThrow(DomainError);
    const s = new So3LgviStepper({ inertia: [1, 1, 1], h: 0.1 });
    expect(() => s.initialState([0, 0, Number.NaN], [0, 0, 0])).toThrow(DomainError);
    expect(() => s.step(s.initialState([0, 0, 0], [0, 0, 1]), 0, 0.2, new Float64Array(3))).toThrow(
      DomainError,
    );
  });
});

describe('QuadrotorLgviStepper (SO(3) × R³, (L7)–(L8))', () => {
  const opts = { mass: 1.5, inertia: [0.02, 0.025, 0.04], gravity: 9.81, h: 0.01 };

  it('hovers exactly under the hover thrust: position and attitude unchanged to the last bit', () => {
    const q = new QuadrotorLgviStepper(opts);
    const x0 = q.initialState([0, 0, 0], [0.3, -1.2, 2.5], [0, 0, 0], [0, 0, 0]);
    const sol = integrate(q, x0, {
      h: 0.01,
      steps: 10_000,
      every: 1000,
      inputs: (u) => {
        u[0] = q.hoverThrust;
      },
    });
    for (let j = 0; j < sol.count; j++) {
      expect(Array.from(sol.sample('x', j))).toEqual([0.3, -1.2, 2.5]);
      expect(Array.from(sol.sample('v', j))).toEqual([0, 0, 0]);
      expect(Array.from(sol.sample('R', j))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    }
  });

  it('with zero input conserves RΠ to round-off, the horizontal momentum exactly, and falls freely', () => {
    const q = new QuadrotorLgviStepper(opts);
    const x0 = q.initialState([0.2, -0.1, 0.3], [0, 0, 10], [1, -2, 3], [0.5, -0.25, 1]);
    const steps = 2000;
    const sol = integrate(q, x0, { h: 0.01, steps, every: 100 });
    const n = sol.count - 1;
    const L0 = sol.sample('spatialMomentum', 0);
    const Ln = sol.sample('spatialMomentum', n);
    expect(maxAbs(L0, Ln)).toBeLessThan(1e-14 * steps);
    expect(sol.linearMomentum[3 * n]).toBe(sol.linearMomentum[0]);
    expect(sol.linearMomentum[3 * n + 1]).toBe(sol.linearMomentum[1]);
    const T = steps * 0.01;
    const z = 10 + 1 * T - 0.5 * 9.81 * T * T;
    // the exact free fall, to round-off (measured 9.6e-15 relative)
    expect(Math.abs(sol.x[3 * n + 2]! - z) / Math.abs(z)).toBeLessThan(5e-14);
    // 2000 additions of h·v₁: round-off ≤ steps·ε·|x| = 4.4e-12 (measured 1.6e-13)
    expect(Math.abs(sol.x[3 * n]! - 0.5 * T)).toBeLessThan(1e-12);
    const E0 = sol.energy[0]!;
    let dE = 0;
    for (let j = 0; j <= n; j++) dE = Math.max(dE, Math.abs(sol.energy[j]! - E0) / Math.abs(E0));
    // measured 1.4e-11: the translational part is the exact free fall, the rotational kinetic
    // energy oscillates at O(h²) but is small against the total
    expect(dE).toBeLessThan(1e-10);
  });

  it('u = 0 equals the unforced run bit for bit; a torque turns it and a tilted thrust moves it sideways', () => {
    const q = new QuadrotorLgviStepper(opts);
    const x0 = q.initialState([0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]);
    const a = integrate(q, x0, { h: 0.01, steps: 200 });
    const b = integrate(q, x0, { h: 0.01, steps: 200, inputs: new Float64Array(800) });
    expect(a.R).toEqual(b.R);
    expect(a.x).toEqual(b.x);
    const c = integrate(q, x0, {
      h: 0.01,
      steps: 200,
      inputs: (u, k) => {
        u[0] = q.hoverThrust * 1.1;
        u[1] = k < 20 ? 0.01 : 0;
      },
    });
    const n = c.count - 1;
    // a positive torque about e₁ tilts the thrust axis Re₃ towards −e₂
    expect(c.x[3 * n + 1]!).toBeLessThan(-0.01);
    expect(c.x[3 * n + 2]!).toBeGreaterThan(0);
  });
});
