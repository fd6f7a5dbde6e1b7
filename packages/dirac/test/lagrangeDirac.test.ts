import { checkJacobian, convergenceOrder } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verticalRollingDisk } from '../src/examples.js';
import { unconstrainedDistribution } from '../src/implicitSystem.js';
import {
  annihilatorResidual,
  consistentInitialData,
  type DiscreteLagrangian,
  discreteLagrangeDAlembertResidual,
  discretize,
  heisenbergSystem,
  integrateLagrangeDirac,
  LagrangeDiracStepper,
  projectVelocityToDistribution,
} from '../src/lagrangeDirac.js';
import { mechanicalLagrangian } from '../src/lagrangian.js';
import type { Distribution, Lagrangian } from '../src/types.js';

const row = (a: Float64Array, k: number, n: number): Float64Array => a.slice(k * n, (k + 1) * n);
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let e = 0;
  for (let i = 0; i < a.length; i++) e = Math.max(e, Math.abs(a[i]! - b[i]!));
  return e;
};

/** Spec 000 §9.1 [DERIVED] closed-form (+) step from (q_k, p_k); V = a(1−cos φ)+½bθ²+½c(x²+y²). */
function diskPlusStep(
  P: { m: number; R: number; I: number; J: number; a: number; b: number; c: number },
  h: number,
  q: Float64Array,
  p: Float64Array,
): { q1: Float64Array; p1: Float64Array; lambda: Float64Array } {
  const { m, R, I, J, a, b, c } = P;
  const g = [c * q[0]!, c * q[1]!, b * q[2]!, a * Math.sin(q[3]!)];
  const cs = Math.cos(q[3]!);
  const sn = Math.sin(q[3]!);
  const phi1 = q[3]! + (h / J) * (p[3]! - h * g[3]!);
  const u =
    (p[2]! - h * g[2]! + R * cs * (p[0]! - h * g[0]!) + R * sn * (p[1]! - h * g[1]!)) /
    (I + m * R * R);
  const q1 = Float64Array.of(q[0]! + h * R * cs * u, q[1]! + h * R * sn * u, q[2]! + h * u, phi1);
  const p1 = Float64Array.of(m * R * cs * u, m * R * sn * u, I * u, (J * (phi1 - q[3]!)) / h);
  const lambda = Float64Array.of(
    (m * R * cs * u - p[0]!) / h + g[0]!,
    (m * R * sn * u - p[1]!) / h + g[1]!,
  );
  return { q1, p1, lambda };
}

/** Spec 000 §9.1 [DERIVED] closed-form (−) step from admissible (q_k, p_k = M v_k). */
function diskMinusStep(
  P: { m: number; R: number; I: number; J: number; a: number; b: number; c: number },
  h: number,
  q: Float64Array,
  p: Float64Array,
): { q1: Float64Array; p1: Float64Array } {
  const { m, R, I, J, a, b, c } = P;
  const q1 = Float64Array.of(
    q[0]! + (h * p[0]!) / m,
    q[1]! + (h * p[1]!) / m,
    q[2]! + (h * p[2]!) / I,
    q[3]! + (h * p[3]!) / J,
  );
  const g = [c * q1[0]!, c * q1[1]!, b * q1[2]!, a * Math.sin(q1[3]!)];
  const Pv = p.map((x, i) => x - h * g[i]!);
  const phi2 = q1[3]! + (h * Pv[3]!) / J;
  const cs = Math.cos(q1[3]!);
  const sn = Math.sin(q1[3]!);
  const u = (Pv[2]! + R * (cs * Pv[0]! + sn * Pv[1]!)) / (I + m * R * R * Math.cos(phi2 - q1[3]!));
  const p1 = Float64Array.of(m * R * Math.cos(phi2) * u, m * R * Math.sin(phi2) * u, I * u, Pv[3]!);
  return { q1, p1 };
}

const diskParams = { m: 1.3, R: 0.7, I: 0.4, J: 0.25, a: 0.8, b: 0.3, c: 0.5 };
const disk = verticalRollingDisk(diskParams);
const diskQ0 = [0.1, -0.2, 0.3, 0.4];
/** v₀ ∈ Δ(q₀) with θ̇ = 1.2, φ̇ = 0.9. */
const diskV0 = [0.7 * Math.cos(0.4) * 1.2, 0.7 * Math.sin(0.4) * 1.2, 1.2, 0.9];

describe('discretize (spec 000 §11)', () => {
  const L: Lagrangian = mechanicalLagrangianLike();
  for (const rule of ['left', 'right', 'midpoint', 'trapezoid'] as const) {
    it(`${rule}: D1, D2, D2D1 match finite differences of Ld (≤ 1e-6)`, () => {
      const h = 0.1;
      const Ld = discretize(L, h, rule);
      const q0 = Float64Array.of(0.3, -0.4);
      const q1 = Float64Array.of(0.35, -0.31);
      const d1 = Ld.D1(new Float64Array(2), q0, q1);
      const d2 = Ld.D2(new Float64Array(2), q0, q1);
      const A = Ld.D2D1(new Float64Array(4), q0, q1);
      const e = 1e-6;
      for (let i = 0; i < 2; i++) {
        const a = Float64Array.from(q0);
        const b = Float64Array.from(q0);
        a[i] = a[i]! + e;
        b[i] = b[i]! - e;
        expect(Math.abs((Ld.Ld(a, q1) - Ld.Ld(b, q1)) / (2 * e) - d1[i]!)).toBeLessThan(1e-6);
        const c = Float64Array.from(q1);
        const d = Float64Array.from(q1);
        c[i] = c[i]! + e;
        d[i] = d[i]! - e;
        expect(Math.abs((Ld.Ld(q0, c) - Ld.Ld(q0, d)) / (2 * e) - d2[i]!)).toBeLessThan(1e-6);
        const gp = Ld.D1(new Float64Array(2), q0, c);
        const gm = Ld.D1(new Float64Array(2), q0, d);
        for (let r = 0; r < 2; r++) {
          expect(Math.abs((gp[r]! - gm[r]!) / (2 * e) - A[r * 2 + i]!)).toBeLessThan(1e-5);
        }
      }
    });
  }
});

/** A 2-dof Lagrangian with q-dependent mass and a v–q coupling (exercises every Jacobian term). */
function mechanicalLagrangianLike(): Lagrangian {
  return {
    n: 2,
    L: (q, v) =>
      0.5 * (1 + q[1]! * q[1]!) * v[0]! * v[0]! +
      0.5 * v[1]! * v[1]! +
      q[0]! * v[1]! -
      Math.cos(q[0]!) * q[1]! ** 2,
    Lq: (out, q, v) => {
      out[0] = v[1]! + Math.sin(q[0]!) * q[1]! ** 2;
      out[1] = q[1]! * v[0]! * v[0]! - 2 * Math.cos(q[0]!) * q[1]!;
      return out;
    },
    Lv: (out, q, v) => {
      out[0] = (1 + q[1]! * q[1]!) * v[0]!;
      out[1] = v[1]! + q[0]!;
      return out;
    },
    Lvv: (out, q) => {
      out[0] = 1 + q[1]! * q[1]!;
      out[1] = 0;
      out[2] = 0;
      out[3] = 1;
      return out;
    },
    // N_ij = ∂²L/∂vⁱ∂qʲ
    Lvq: (out, q, v) => {
      out[0] = 0;
      out[1] = 2 * q[1]! * v[0]!;
      out[2] = 1;
      out[3] = 0;
      return out;
    },
  };
}

describe('vertical rolling disk: closed-form steps (spec 000 §9.1, §10.11)', () => {
  const h = 0.01;
  it('(+) generic Newton step = closed form, every step of 200 (≤ 1e-12)', () => {
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      h,
      200,
    );
    let e = 0;
    let el = 0;
    for (let k = 0; k < 200; k++) {
      const cf = diskPlusStep(diskParams, h, row(sol.q, k, 4), row(sol.p, k, 4));
      e = Math.max(e, maxDiff(cf.q1, row(sol.q, k + 1, 4)), maxDiff(cf.p1, row(sol.p, k + 1, 4)));
      el = Math.max(el, maxDiff(cf.lambda, row(sol.lambda, k, 2)));
    }
    expect(e).toBeLessThan(1e-12);
    expect(el).toBeLessThan(1e-9); // λ carries a 1/h
    expect(Math.max(...sol.constraint)).toBeLessThan(1e-13); // W(q_k)(q_{k+1}−q_k)/h
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(2); // affine residual
  });
  it('(−) generic Newton step = closed form, every step of 200 (≤ 1e-12)', () => {
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-minus',
      { q0: diskQ0, v0: diskV0 },
      h,
      200,
    );
    let e = 0;
    for (let k = 0; k < 200; k++) {
      const cf = diskMinusStep(diskParams, h, row(sol.q, k, 4), row(sol.p, k, 4));
      e = Math.max(e, maxDiff(cf.q1, row(sol.q, k + 1, 4)), maxDiff(cf.p1, row(sol.p, k + 1, 4)));
    }
    expect(e).toBeLessThan(1e-12);
    expect(Math.max(...sol.constraint)).toBeLessThan(1e-12); // W(q_{k+1})(q_{k+1}−q_k)/h
  });
});

describe('free disk energy: analytic O(h) drift (spec 000 §9.1, §10.9)', () => {
  const P = { m: 1, R: 1, I: 1, J: 1 };
  const free = verticalRollingDisk(P);
  const h = 0.01;
  const N = 5000;
  const q0 = [0, 0, 0, 0];
  const v0 = [1, 0, 1, 1]; // θ̇ = φ̇ = 1, φ₀ = 0
  it('(+) E⁺_k = ½(I+mR²) r^{2k} + ½J, r = (I + mR² cos hω)/(I + mR²) (≤ 5e-11 over 5000 steps)', () => {
    const sol = integrateLagrangeDirac(
      free.lagrangian,
      free.distribution,
      'dirac-plus',
      { q0, v0 },
      h,
      N,
    );
    const r = (1 + Math.cos(h)) / 2;
    let e = 0;
    for (let k = 0; k <= N; k++) e = Math.max(e, Math.abs(sol.energy[k]! - (r ** (2 * k) + 0.5)));
    // round-off of (q_{k+1} − q_k)/h with |q| ≤ 50 accumulates over 5000 steps
    expect(e).toBeLessThan(5e-11);
    expect(sol.energy[N]!).toBeCloseTo(1.2788, 4); // spec 000 §9.1 reference value
    for (let k = 1; k <= N; k++) expect(sol.energy[k]!).toBeLessThan(sol.energy[k - 1]!);
    // φ_k exactly affine in k
    for (let k = 0; k <= N; k += 500)
      expect(Math.abs(sol.q[4 * k + 3]! - k * h)).toBeLessThan(1e-10);
  });
  it('(−) E⁻_k = ½(I+mR²) ρ^{2(k+1)} + ½J, ρ = (I + mR²)/(I + mR² cos hω) (≤ 5e-11 over 5000 steps)', () => {
    const sol = integrateLagrangeDirac(
      free.lagrangian,
      free.distribution,
      'dirac-minus',
      { q0, v0 },
      h,
      N,
    );
    const rho = 2 / (1 + Math.cos(h));
    let e = 0;
    for (let k = 0; k <= N; k++)
      e = Math.max(e, Math.abs(sol.energy[k]! - (rho ** (2 * (k + 1)) + 0.5)) / sol.energy[k]!);
    expect(e).toBeLessThan(5e-11);
    expect(sol.energy[N - 1]!).toBeCloseTo(1.784, 3);
    for (let k = 1; k <= N; k++) expect(sol.energy[k]!).toBeGreaterThan(sol.energy[k - 1]!);
  });
  it('straight rolling (φ̇ = 0): both energies exact (≤ 1e-12)', () => {
    for (const s of ['plus', 'minus'] as const) {
      const sol = integrateLagrangeDirac(
        free.lagrangian,
        free.distribution,
        `dirac-${s}` as const,
        { q0, v0: [1, 0, 1, 0] },
        h,
        500,
      );
      for (let k = 0; k <= 500; k++) expect(Math.abs(sol.energy[k]! - 1)).toBeLessThan(1e-12);
    }
  });
});

describe('Heisenberg system (spec 000 §9.2, §10.10)', () => {
  const { lagrangian, distribution } = heisenbergSystem();
  const q0 = [1, 0.5, -0.2];
  const h = 0.01;
  const N = 1000;
  // p₀ ∉ Δ(q₀): the first step projects it
  const p0 = [0.3, -0.2, 0.4];
  it('multipliers vanish after the first step; ± trajectories identical; p and ½|p|² constant', () => {
    const plus = integrateLagrangeDirac(lagrangian, distribution, 'dirac-plus', { q0, p0 }, h, N);
    const minus = integrateLagrangeDirac(lagrangian, distribution, 'dirac-minus', { q0, p0 }, h, N);
    expect(Math.abs(plus.lambda[0]!)).toBeGreaterThan(1);
    expect(Math.abs(minus.lambda[0]!)).toBeGreaterThan(1);
    let lam = 0;
    for (let k = 1; k <= N; k++)
      lam = Math.max(lam, Math.abs(plus.lambda[k]!), Math.abs(minus.lambda[k]!));
    expect(lam).toBeLessThan(1e-11);
    expect(maxDiff(plus.q, minus.q)).toBeLessThan(1e-12);
    const pp1 = row(plus.p, 1, 3);
    for (let k = 1; k <= N; k++) expect(maxDiff(row(plus.p, k, 3), pp1)).toBeLessThan(5e-14);
    for (let k = 0; k <= N; k++) expect(maxDiff(row(minus.p, k, 3), pp1)).toBeLessThan(5e-14);
    const E = plus.energy[0]!;
    for (let k = 0; k <= N; k++) {
      expect(Math.abs(plus.energy[k]! - E)).toBeLessThan(5e-14);
      expect(Math.abs(minus.energy[k]! - E)).toBeLessThan(5e-14);
    }
    // positions affine in k
    const d = row(plus.q, 1, 3).map((x, i) => x - q0[i]!);
    const qN = row(plus.q, N, 3);
    for (let i = 0; i < 3; i++) expect(Math.abs(qN[i]! - q0[i]! - N * d[i]!)).toBeLessThan(1e-12);
    // the discrete constraints hold
    expect(Math.max(...plus.constraint, ...minus.constraint)).toBeLessThan(1e-12);
  });
  it('with v₀ ∈ Δ(q₀) (CLI.md ẋ, ẏ = 0.3, −0.2) every multiplier vanishes', () => {
    const v0 = [0.3, -0.2, 0.5 * 0.3 - 1 * -0.2];
    for (const s of ['plus', 'minus'] as const) {
      const sol = integrateLagrangeDirac(
        lagrangian,
        distribution,
        `dirac-${s}` as const,
        { q0, v0 },
        h,
        200,
      );
      expect(Math.max(...sol.lambda.map(Math.abs))).toBeLessThan(1e-11);
    }
  });
});

describe('(±) adjointness by reverse time (spec 000 §10.7)', () => {
  const h = 0.02;
  const N = 100;
  it('(+) with step −h from the end of a (−) trajectory retraces it (≤ 1e-12)', () => {
    const fwd = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-minus',
      { q0: diskQ0, v0: diskV0 },
      h,
      N,
    );
    const bwd = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: row(fwd.q, N, 4), p0: row(fwd.p, N, 4) },
      -h,
      N,
    );
    let e = 0;
    for (let j = 0; j <= N; j++) {
      e = Math.max(e, maxDiff(row(bwd.q, j, 4), row(fwd.q, N - j, 4)));
      e = Math.max(e, maxDiff(row(bwd.p, j, 4), row(fwd.p, N - j, 4)));
    }
    expect(e).toBeLessThan(1e-12);
  });
  it('(−) with step −h from the end of a (+) trajectory retraces all positions', () => {
    const fwd = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      h,
      N,
    );
    const bwd = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-minus',
      { q0: row(fwd.q, N, 4), p0: row(fwd.p, N, 4) },
      -h,
      N,
    );
    let e = 0;
    for (let j = 0; j <= N; j++) e = Math.max(e, maxDiff(row(bwd.q, j, 4), row(fwd.q, N - j, 4)));
    expect(e).toBeLessThan(1e-12);
    // momenta agree except p₀ (not in the image of (+))
    let ep = 0;
    for (let j = 0; j < N; j++) ep = Math.max(ep, maxDiff(row(bwd.p, j, 4), row(fwd.p, N - j, 4)));
    expect(ep).toBeLessThan(1e-12);
  });
});

describe('(+) scheme ⇔ discrete Lagrange–d’Alembert (spec 000 Thm 6.8, §10.1)', () => {
  const h = 0.01;
  it('(+) positions solve (20) with W(q_k), momenta = D₂L_d (≤ 1e-12)', () => {
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      h,
      100,
    );
    const Ld = discretize(disk.lagrangian, h, 'left');
    let e = 0;
    let ep = 0;
    for (let k = 1; k < 100; k++) {
      e = Math.max(
        e,
        discreteLagrangeDAlembertResidual(
          Ld,
          disk.distribution,
          'plus',
          row(sol.q, k - 1, 4),
          row(sol.q, k, 4),
          row(sol.q, k + 1, 4),
        ),
      );
      const p = Ld.D2(new Float64Array(4), row(sol.q, k - 1, 4), row(sol.q, k, 4));
      ep = Math.max(ep, maxDiff(p, row(sol.p, k, 4)));
    }
    expect(e).toBeLessThan(1e-12);
    expect(ep).toBeLessThan(1e-12);
  });
  it('(−) positions solve the shifted (−) LdA equations; p_k = −D₁L_d (≤ 1e-12)', () => {
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-minus',
      { q0: diskQ0, v0: diskV0 },
      h,
      100,
    );
    const Ld = discretize(disk.lagrangian, h, 'right');
    let e = 0;
    let ep = 0;
    for (let k = 1; k < 100; k++) {
      e = Math.max(
        e,
        discreteLagrangeDAlembertResidual(
          Ld,
          disk.distribution,
          'minus',
          row(sol.q, k - 1, 4),
          row(sol.q, k, 4),
          row(sol.q, k + 1, 4),
        ),
      );
      const p = Ld.D1(new Float64Array(4), row(sol.q, k, 4), row(sol.q, k + 1, 4)).map((x) => -x);
      ep = Math.max(ep, maxDiff(p, row(sol.p, k, 4)));
    }
    expect(e).toBeLessThan(1e-12);
    expect(ep).toBeLessThan(1e-12);
  });
  it('position form {q0, q1} reproduces the phase-space run (≤ 1e-12)', () => {
    for (const s of ['plus', 'minus'] as const) {
      const a = integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        `dirac-${s}` as const,
        { q0: diskQ0, v0: diskV0 },
        h,
        50,
      );
      const b = integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        `dirac-${s}` as const,
        { q0: diskQ0, q1: row(a.q, 1, 4) },
        h,
        50,
      );
      expect(maxDiff(a.q, b.q)).toBeLessThan(1e-12);
      expect(Math.max(...b.lambda.slice(0, 2).map(Math.abs))).toBeLessThan(1e-9);
    }
  });
});

describe('global order 1 on the free disk (spec 000 §10.8)', () => {
  for (const s of ['plus', 'minus'] as const) {
    it(`${s}: slope of log error vs log h in [0.9, 1.1]`, () => {
      const free = verticalRollingDisk();
      const T = 2;
      const hs: number[] = [];
      const errs: number[] = [];
      const exact = free.exactSolution(T, { thetaDot: 1, phiDot: 1 });
      for (let k = 0; k < 4; k++) {
        const N = 50 * 2 ** k;
        const h = T / N;
        const sol = integrateLagrangeDirac(
          free.lagrangian,
          free.distribution,
          `dirac-${s}` as const,
          { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] },
          h,
          N,
        );
        hs.push(h);
        errs.push(maxDiff(row(sol.q, N, 4), exact.q));
      }
      const r = convergenceOrder(hs, errs);
      expect(r.order).toBeGreaterThan(0.9);
      expect(r.order).toBeLessThan(1.1);
    });
  }
});

describe('unconstrained limit: symplectic Euler (spec 000 §8.3, §10.5)', () => {
  const osc = mechanicalLagrangian({
    n: 1,
    mass: [2],
    potential: {
      dim: 1,
      V: (q) => 1.5 * q[0]! ** 2,
      gradV: (out, q) => {
        out[0] = 3 * q[0]!;
        return out;
      },
    },
  });
  const D = unconstrainedDistribution(1);
  it('(+) = p⁺ = p − h∇V(q), q⁺ = q + hp⁺/m; (−) = q⁺ = q + hp/m, p⁺ = p − h∇V(q⁺)', () => {
    const h = 0.1;
    const a = integrateLagrangeDirac(osc, D, 'dirac-plus', { q0: [1], p0: [0.5] }, h, 1);
    expect(a.p[1]!).toBeCloseTo(0.5 - h * 3, 14);
    expect(a.q[1]!).toBeCloseTo(1 + (h * (0.5 - h * 3)) / 2, 14);
    const b = integrateLagrangeDirac(osc, D, 'dirac-minus', { q0: [1], p0: [0.5] }, h, 1);
    const q1 = 1 + (h * 0.5) / 2;
    expect(b.q[1]!).toBeCloseTo(q1, 14);
    expect(b.p[1]!).toBeCloseTo(0.5 - h * 3 * q1, 14);
  });
  it('one-step map is symplectic for the midpoint rule (det Φ = 1 to 1e-8)', () => {
    const L = mechanicalLagrangianLike();
    const D2 = unconstrainedDistribution(2);
    const Ld = discretize(L, 0.05, 'midpoint');
    const st = new LagrangeDiracStepper(Ld, D2, 'dirac-plus');
    const map = (z: number[]): number[] => {
      const r = st.solve(Float64Array.of(z[0]!, z[1]!), Float64Array.of(z[2]!, z[3]!));
      return [...r.q1, ...r.P1];
    };
    const z0 = [0.3, -0.4, 0.2, 0.1];
    const e = 1e-6;
    const Phi: number[][] = [];
    for (let j = 0; j < 4; j++) {
      const zp = [...z0];
      const zm = [...z0];
      zp[j] = zp[j]! + e;
      zm[j] = zm[j]! - e;
      const fp = map(zp);
      const fm = map(zm);
      Phi.push(fp.map((x, i) => (x - fm[i]!) / (2 * e)));
    }
    // Φᵀ J Φ = J with columns Phi[j]; J = [[0, I], [−I, 0]]
    const omega = (u: number[], v: number[]): number =>
      u[0]! * v[2]! + u[1]! * v[3]! - u[2]! * v[0]! - u[3]! * v[1]!;
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        const Jij = (i < 2 && j === i + 2 ? 1 : 0) - (j < 2 && i === j + 2 ? 1 : 0);
        expect(Math.abs(omega(Phi[i]!, Phi[j]!) - Jij)).toBeLessThan(1e-7);
      }
  });
});

describe('helpers', () => {
  it('projectVelocityToDistribution lands in Δ(q) and is M-orthogonal', () => {
    const q = Float64Array.from(diskQ0);
    const v = Float64Array.of(1, 2, 3, 4);
    const u = projectVelocityToDistribution(disk.lagrangian, disk.distribution, q, v);
    const W = disk.distribution.A(new Float64Array(8), q);
    for (let a = 0; a < 2; a++) {
      let s = 0;
      for (let i = 0; i < 4; i++) s += W[a * 4 + i]! * u[i]!;
      expect(Math.abs(s)).toBeLessThan(1e-14);
    }
    const M = [1.3, 1.3, 0.4, 0.25];
    const d = Float64Array.from(v.map((x, i) => M[i]! * (x - u[i]!)));
    expect(annihilatorResidual(disk.distribution, q, d)).toBeLessThan(1e-14);
  });
  it('rejects bad init and an L_d with a different h', () => {
    const Ld = discretize(disk.lagrangian, 0.1, 'left');
    expect(() =>
      integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        'dirac-plus',
        { q0: diskQ0 },
        0.1,
        1,
      ),
    ).toThrow();
    expect(() =>
      integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        'dirac-plus',
        { q0: diskQ0, v0: diskV0 },
        0.2,
        1,
        { Ld },
      ),
    ).toThrow();
  });
  it('every: stores k = 0, every, …', () => {
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      0.01,
      10,
      { every: 5 },
    );
    expect([...sol.k]).toEqual([0, 5, 10]);
    expect(sol.t[2]).toBeCloseTo(0.1, 15);
    // the last state is kept even when every does not divide steps, equal to the dense run's
    const dense = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      0.01,
      12,
    );
    const sparse = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: diskQ0, v0: diskV0 },
      0.01,
      12,
      { every: 5 },
    );
    expect([...sparse.k]).toEqual([0, 5, 10, 12]);
    expect([...sparse.q.slice(12, 16)]).toEqual([...dense.q.slice(48, 52)]);
    expect(sparse.energy[3]).toBe(dense.energy[12]);
  });
});

/** L = ½(1+y²)v_x² + ½v_y² + ½v_z² − ½x² − 0.3yz² on R³ (q-dependent mass; nonlinear steps). */
const nonlinearL: Lagrangian = {
  n: 3,
  L: (q, v) =>
    0.5 * (1 + q[1]! ** 2) * v[0]! ** 2 +
    0.5 * v[1]! ** 2 +
    0.5 * v[2]! ** 2 -
    0.5 * q[0]! ** 2 -
    0.3 * q[1]! * q[2]! ** 2,
  Lq: (out, q, v) => {
    out[0] = -q[0]!;
    out[1] = q[1]! * v[0]! ** 2 - 0.3 * q[2]! ** 2;
    out[2] = -0.6 * q[1]! * q[2]!;
    return out;
  },
  Lv: (out, q, v) => {
    out[0] = (1 + q[1]! ** 2) * v[0]!;
    out[1] = v[1]!;
    out[2] = v[2]!;
    return out;
  },
  Lvv: (out, q) => {
    out.fill(0);
    out[0] = 1 + q[1]! ** 2;
    out[4] = 1;
    out[8] = 1;
    return out;
  },
  Lvq: (out, q, v) => {
    out.fill(0);
    out[1] = 2 * q[1]! * v[0]!;
    return out;
  },
};

describe('general L_d: every rule × sign on a nonlinear nonholonomic system', () => {
  const { distribution } = heisenbergSystem();
  const h = 0.02;
  const N = 100;
  const init = { q0: [0.4, -0.3, 0.2], v0: [0.5, 0.7, -0.3 * 0.5 - 0.4 * 0.7] };
  for (const rule of ['left', 'right', 'midpoint', 'trapezoid'] as const) {
    for (const s of ['plus', 'minus'] as const) {
      it(`${rule}/${s}: discrete LdA residual ≤ 1e-11, constraint ≤ 1e-12, Newton converges`, () => {
        const sol = integrateLagrangeDirac(
          nonlinearL,
          distribution,
          `dirac-${s}` as const,
          init,
          h,
          N,
          { rule },
        );
        const Ld = discretize(nonlinearL, h, rule);
        let e = 0;
        for (let k = 1; k < N; k++)
          e = Math.max(
            e,
            discreteLagrangeDAlembertResidual(
              Ld,
              distribution,
              s,
              row(sol.q, k - 1, 3),
              row(sol.q, k, 3),
              row(sol.q, k + 1, 3),
            ),
          );
        expect(e).toBeLessThan(1e-11);
        expect(Math.max(...sol.constraint)).toBeLessThan(1e-12);
        expect(sol.count).toBe(N + 1);
        expect(sol.stats.maxIterations).toBeGreaterThan(1); // genuinely nonlinear
        expect(sol.stats.maxIterations).toBeLessThan(8);
        expect(sol.stats.maxResidual).toBeLessThan(1e-12);
      });
    }
  }
  it('a user L_d (hand-written midpoint) reproduces discretize(…, midpoint) (≤ 1e-12)', () => {
    const mid = discretize(nonlinearL, h, 'midpoint');
    const user: DiscreteLagrangian = {
      n: 3,
      h,
      Ld: (a, b) => mid.Ld(a, b),
      D1: (o, a, b) => mid.D1(o, a, b),
      D2: (o, a, b) => mid.D2(o, a, b),
      D2D1: (o, a, b) => mid.D2D1(o, a, b),
    };
    const a = integrateLagrangeDirac(nonlinearL, distribution, 'dirac-minus', init, h, 40, {
      rule: 'midpoint',
    });
    const b = integrateLagrangeDirac(nonlinearL, distribution, 'dirac-minus', init, h, 40, {
      Ld: user,
    });
    expect(maxDiff(a.q, b.q)).toBeLessThan(1e-12);
  });
  it('stepPosition and consistentInitialData agree with the trajectory (≤ 1e-12)', () => {
    const Ld = discretize(nonlinearL, h, 'right');
    const sol = integrateLagrangeDirac(nonlinearL, distribution, 'dirac-minus', init, h, 5, {
      rule: 'right',
    });
    const st = new LagrangeDiracStepper(Ld, distribution, 'dirac-minus');
    const r = st.stepPosition(row(sol.q, 1, 3), row(sol.q, 2, 3));
    expect(maxDiff(r.q1, row(sol.q, 3, 3))).toBeLessThan(1e-12);
    expect(maxDiff(r.p, row(sol.p, 2, 3))).toBeLessThan(1e-12);
    expect(maxDiff(r.lambda, row(sol.lambda, 2, 1))).toBeLessThan(1e-9);
    const p0 = nonlinearL.Lv(
      new Float64Array(3),
      Float64Array.from(init.q0),
      Float64Array.from(init.v0),
    );
    const c = consistentInitialData(Ld, distribution, 'dirac-minus', init.q0, p0);
    expect(maxDiff(c.p0, row(sol.p, 0, 3))).toBeLessThan(1e-12);
    expect(Math.abs(c.lambda[0]!)).toBeGreaterThan(1e-6); // p₀ = M v₀ was not admissible for (−)
    // an admissible p₀ is a fixed point of the projection
    const c2 = consistentInitialData(Ld, distribution, 'dirac-minus', init.q0, c.p0);
    expect(Math.abs(c2.lambda[0]!)).toBeLessThan(1e-10);
    expect(maxDiff(c2.p0, c.p0)).toBeLessThan(1e-12);
  });
});

describe('Newton tolerance at the round-off floor of a grown state', () => {
  it('the rolling disk at h = 1e-3 runs past θ ≈ 47, where ‖F‖ cannot reach 1e-12 (floor ≈ 3e-12)', () => {
    // Before the floor was used this failed at step 47125 with residual 3.29e-12 after 50 iterations.
    const disk = verticalRollingDisk();
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] },
      1e-3,
      60000,
      { every: 10000 },
    );
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(2);
    expect(sol.stats.maxResidual).toBeLessThan(1e-10);
    // straight-line parts of the rolling constraint still hold to round-off of |q| ≈ 60
    expect(Math.max(...sol.constraint)).toBeLessThan(1e-10);
  });
});

describe('the (±) step Jacobian against central differences at random states', () => {
  // J of the bordered system F(q_{k+1}, λ) = [P_k + D₁L_d + hWᵀλ; W(c)Δq/h] (spec 000 §8.1/§8.2)
  // against core's central differences of F (step ∛ε, error ~1e-10 relative on these systems).
  // The analytic blocks are exact (∂(W(q)Δq)/∂q of (−) from the distribution's dAw, or its Adot
  // along unit vectors) except one differenced term: L_qq of the midpoint rule (step 1e-5).
  // Measured max relative error 8e-11; asserted: 1e-7. Dropping the (−) term
  // ∂W/∂q(q_{k+1})[q_{k+1} − q_k]/h, or flipping a sign in any block, gives errors ≥ 1e-3 here.
  const TOL = 1e-7;
  const disk = verticalRollingDisk({ m: 1.3, R: 0.7, I: 0.4, J: 0.9, a: 0.3, b: -0.2, c: 0.5 });
  const heis = heisenbergSystem();
  const systems: [string, Lagrangian, Distribution][] = [
    ['rolling disk, W(φ)', disk.lagrangian, disk.distribution],
    ['Heisenberg, W(x, y)', heis.lagrangian, heis.distribution],
    ['q-dependent mass on the Heisenberg distribution', nonlinearL, heis.distribution],
  ];
  const state = (n: number, m: number) =>
    fc.record({
      q: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
      P: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
      v: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
      lambda: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: m, maxLength: m }),
      h: fc.constantFrom(0.01, 0.05, -0.02),
    });
  for (const [name, L, D] of systems) {
    for (const rule of ['left', 'right', 'midpoint', 'trapezoid'] as const) {
      for (const method of ['dirac-plus', 'dirac-minus'] as const) {
        it(`${name}, ${rule} rule, ${method}`, () => {
          const { n } = L;
          const s = n + D.m;
          fc.assert(
            fc.property(state(n, D.m), ({ q, P, v, lambda, h }) => {
              const st = new LagrangeDiracStepper(discretize(L, h, rule), D, method);
              // x = (q_{k+1}, λ) near a step: q_{k+1} = q_k + h v
              const x = Float64Array.from([...q.map((qi, i) => qi + h * v[i]!), ...lambda]);
              const F = (out: Float64Array, y: Float64Array) => st.residual(out, q, P, y);
              const J = (out: Float64Array, y: Float64Array) => st.jacobian(out, q, P, y);
              const check = checkJacobian(F, J, x, s, s);
              expect(check.maxRelError).toBeLessThan(TOL);
            }),
            { numRuns: 25 },
          );
        });
      }
    }
  }

  it('Newton converges quadratically on the reference runs: bounded iterations per step', () => {
    // Measured with the exact Jacobian: disk (+) 1 per step (F is affine in q_{k+1}), disk (−) 2;
    // q-dependent mass on the Heisenberg distribution, (−), every rule, h = 0.02: 2 per step and
    // 202 over 100 steps + the look-ahead; a potential on the Heisenberg distribution, (−): 1.
    // Without the ∂W/∂q term the last two need 5 per step (451 and 2059 in total): linear
    // convergence.
    const steps = 2000;
    for (const method of ['dirac-plus', 'dirac-minus'] as const) {
      const sol = integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        method,
        { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] },
        0.01,
        steps,
        { every: steps },
      );
      const perStep = method === 'dirac-plus' ? 1 : 2;
      expect(sol.stats.maxIterations).toBe(perStep);
      expect(sol.stats.newtonIterations).toBeLessThanOrEqual(perStep * (steps + 1));
      // the tolerance is raised to the round-off floor of F as θ grows (≈ 6e-12 at t = 20)
      expect(sol.stats.maxResidual).toBeLessThan(1e-10);
    }
    const init = { q0: [0.4, -0.3, 0.2], v0: [0.5, 0.7, -0.3 * 0.5 - 0.4 * 0.7] };
    for (const rule of ['left', 'right', 'midpoint', 'trapezoid'] as const) {
      const N = 100;
      const sol = integrateLagrangeDirac(
        nonlinearL,
        heis.distribution,
        'dirac-minus',
        init,
        0.02,
        N,
        {
          rule,
          every: N,
        },
      );
      expect(sol.stats.maxIterations).toBeLessThanOrEqual(2);
      expect(sol.stats.newtonIterations).toBeLessThanOrEqual(2 * (N + 1));
    }
    const oscillator = mechanicalLagrangian({
      n: 3,
      mass: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      potential: {
        dim: 3,
        V: (q) => 0.5 * (q[0]! ** 2 + 2 * q[1]! ** 2),
        gradV: (out, q) => {
          out[0] = q[0]!;
          out[1] = 2 * q[1]!;
          out[2] = 0;
          return out;
        },
      },
    });
    const sol = integrateLagrangeDirac(
      oscillator,
      heis.distribution,
      'dirac-minus',
      { q0: [1, 0.5, -0.2], v0: [0.3, -0.2, 0.5 * 0.3 + 0.2] },
      0.01,
      500,
      { every: 500 },
    );
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(2);
    expect(sol.stats.newtonIterations).toBeLessThanOrEqual(2 * 501);
  });
});
