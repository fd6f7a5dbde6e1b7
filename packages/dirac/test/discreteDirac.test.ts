import { describe, expect, it } from 'vitest';
import {
  cotangentFiniteDifference,
  type DiracElement,
  discreteCanonicalFlat,
  discreteCanonicalOneForm,
  discreteCanonicalTwoForm,
  discreteDiracBasis,
  discreteDiracDifferential,
  discreteInducedDiracResidual,
  discreteLegendre,
  discreteSymmetricPairing,
  finiteDifference,
  gammaD,
  inDiscreteInducedDirac,
  kappaD,
  kappaDInverse,
} from '../src/discreteDirac.js';
import { verticalRollingDisk } from '../src/examples.js';
import { discretize, heisenbergSystem, integrateLagrangeDirac } from '../src/lagrangeDirac.js';

const row = (a: Float64Array, k: number, n: number): Float64Array => a.slice(k * n, (k + 1) * n);

const disk = verticalRollingDisk({ m: 1.3, R: 0.7, I: 0.4, J: 0.25, a: 0.8, b: 0.3, c: 0.5 });
const heis = heisenbergSystem();
const systems = [
  {
    name: 'disk',
    L: disk.lagrangian,
    D: disk.distribution,
    q0: [0.1, -0.2, 0.3, 0.4],
    p0: [0.5, 0.2, 0.6, 0.3],
  },
  {
    name: 'heisenberg',
    L: heis.lagrangian,
    D: heis.distribution,
    q0: [1, 0.5, -0.2],
    p0: [0.3, -0.2, 0.4],
  },
];

describe('integrator steps lie in D^±_{Δ_Q} (spec 000 Def 6.7 (51)/(52), Prop 5.17, §10.2)', () => {
  for (const s of systems) {
    for (const sign of ['plus', 'minus'] as const) {
      it(`${s.name} ${sign}: (X^±_d, 𝔇^±L_d) ∈ D^± at every step (residual ≤ 1e-10)`, () => {
        const h = 0.01;
        const N = 100;
        const n = s.L.n;
        const sol = integrateLagrangeDirac(
          s.L,
          s.D,
          `dirac-${sign}` as const,
          { q0: s.q0, p0: s.p0 },
          h,
          N,
        );
        const Ld = discretize(s.L, h, sign === 'plus' ? 'left' : 'right');
        let worst = 0;
        for (let k = 0; k < N; k++) {
          const z0 = { q: row(sol.q, k, n), p: row(sol.p, k, n) };
          const z1 = { q: row(sol.q, k + 1, n), p: row(sol.p, k + 1, n) };
          const dL = discreteDiracDifferential(sign, Ld, z0.q, z1.q);
          const r = discreteInducedDiracResidual(sign, s.D, z0, z1, dL, h);
          worst = Math.max(worst, r.max);
          expect(inDiscreteInducedDirac(sign, s.D, z0, z1, dL, h)).toBe(true);
        }
        expect(worst).toBeLessThan(1e-10);
      });
    }
  }
  it('fails for the wrong sign: (+) data against D⁻ on the disk', () => {
    const h = 0.05;
    const sol = integrateLagrangeDirac(
      disk.lagrangian,
      disk.distribution,
      'dirac-plus',
      { q0: systems[0]!.q0, p0: systems[0]!.p0 },
      h,
      3,
    );
    const Ld = discretize(disk.lagrangian, h, 'left');
    const z0 = { q: row(sol.q, 1, 4), p: row(sol.p, 1, 4) };
    const z1 = { q: row(sol.q, 2, 4), p: row(sol.p, 2, 4) };
    const dL = discreteDiracDifferential('plus', Ld, z0.q, z1.q);
    expect(
      discreteInducedDiracResidual('minus', disk.distribution, z0, z1, dL, h).max,
    ).toBeGreaterThan(1e-3);
  });
});

describe('discrete Legendre transforms and κ_{Q_d} (spec 000 (14), (44), (45))', () => {
  it('LdAP momenta are F^±L_d: p_{k+1} = D₂L_d (+), p_k = −D₁L_d (−) (≤ 1e-13)', () => {
    const h = 0.01;
    for (const sign of ['plus', 'minus'] as const) {
      const sol = integrateLagrangeDirac(
        disk.lagrangian,
        disk.distribution,
        `dirac-${sign}` as const,
        { q0: systems[0]!.q0, p0: systems[0]!.p0 },
        h,
        20,
      );
      const Ld = discretize(disk.lagrangian, h, sign === 'plus' ? 'left' : 'right');
      for (let k = 0; k < 20; k++) {
        const F = discreteLegendre(sign, Ld, row(sol.q, k, 4), row(sol.q, k + 1, 4));
        const j = sign === 'plus' ? k + 1 : k;
        for (let i = 0; i < 4; i++) {
          expect(Math.abs(F.p[i]! - sol.p[4 * j + i]!)).toBeLessThan(1e-13);
          expect(F.q[i]).toBe(sol.q[4 * j + i]);
        }
      }
    }
  });
  it('κ_{Q_d} maps the unconstrained discrete flow graph onto dL_d = (D₁L_d, D₂L_d)', () => {
    const free = verticalRollingDisk({ a: 0.5, b: 0.2, c: 0.1 });
    const h = 0.02;
    const un = { n: 4, m: 0, A: (o: Float64Array) => o, Adot: (o: Float64Array) => o };
    const sol = integrateLagrangeDirac(
      free.lagrangian,
      un,
      'dirac-plus',
      { q0: [0.1, 0.2, 0.3, 0.4], p0: [0.4, -0.3, 0.2, 0.1] },
      h,
      5,
    );
    const Ld = discretize(free.lagrangian, h, 'left');
    for (let k = 0; k < 5; k++) {
      const z0 = { q: row(sol.q, k, 4), p: row(sol.p, k, 4) };
      const z1 = { q: row(sol.q, k + 1, 4), p: row(sol.p, k + 1, 4) };
      const K = kappaD(z0, z1);
      const d1 = Ld.D1(new Float64Array(4), z0.q, z1.q);
      const d2 = Ld.D2(new Float64Array(4), z0.q, z1.q);
      for (let i = 0; i < 4; i++) {
        expect(Math.abs(K.P0[i]! - d1[i]!)).toBeLessThan(1e-12);
        expect(Math.abs(K.P1[i]! - d2[i]!)).toBeLessThan(1e-12);
      }
      const [w0, w1] = kappaDInverse(K.q0, K.q1, K.P0, K.P1);
      expect([...w0.p]).toEqual([...z0.p]);
      expect([...w1.q]).toEqual([...z1.q]);
    }
  });
  it('γ^±_{Q_d}: base points (q₀, P₁) / (q₁, −P₀), α = −(P₀ + P₁)/h, w = Δq', () => {
    const g = gammaD('plus', [1, 2], [3, 5], [0.5, 1], [2, -1], 0.5);
    expect([...g.q, ...g.p, ...g.alpha, ...g.w].map((x) => x + 0)).toEqual([
      1, 2, 2, -1, -5, 0, 4, 6,
    ]);
    const gm = gammaD('minus', [1, 2], [3, 5], [0.5, 1], [2, -1], 0.5);
    expect([...gm.q, ...gm.p]).toEqual([3, 5, -0.5, -1]);
  });
});

describe('(±)-finite differences and canonical forms (spec 000 Defs 5.1, 5.8, 5.10–5.12)', () => {
  const z0 = { q: [1, 2], p: [3, 4] };
  const z1 = { q: [2, 4], p: [2, 7] };
  it('base points: Ψ⁺ at x_k, Ψ⁻ at x_{k+1}; twisted (q_k, p_{k+1}) / (q_{k+1}, p_k)', () => {
    expect([...finiteDifference('plus', [1], [3], 0.5).base]).toEqual([1]);
    expect([
      ...finiteDifference('minus', [1], [3], 0.5).base,
      ...finiteDifference('minus', [1], [3], 0.5).vel,
    ]).toEqual([3, 4]);
    const X = cotangentFiniteDifference('plus', z0, z1, 0.5);
    expect([...X.q, ...X.p, ...X.qdot, ...X.pdot]).toEqual([1, 2, 2, 7, 2, 4, -2, 6]);
    const Y = cotangentFiniteDifference('minus', z0, z1, 0.5);
    expect([...Y.q, ...Y.p]).toEqual([2, 4, 3, 4]);
  });
  it('Θ^±_d, and ⟨Ω^{±♭}_d(z_d), z′_d⟩^± = Ω^±_d(z_d, z′_d) for pairs sharing the base', () => {
    expect(discreteCanonicalOneForm('plus', z0, z1, 0.5)).toBe(2 * 2 + 7 * 4);
    expect(discreteCanonicalOneForm('minus', z0, z1, 0.5)).toBe(3 * 2 + 4 * 4);
    for (const sign of ['plus', 'minus'] as const) {
      // z′ shares the twisted base: (+) same q_k and p_{k+1}; (−) same q_{k+1} and p_k
      const a0 = sign === 'plus' ? { q: z0.q, p: [0.1, -0.7] } : { q: [0.3, 0.9], p: z0.p };
      const a1 = sign === 'plus' ? { q: [-1, 0.5], p: z1.p } : { q: z1.q, p: [1.5, -2] };
      const Om = discreteCanonicalTwoForm(sign, [z0, z1], [a0, a1], 0.5);
      const flat = discreteCanonicalFlat(sign, z0, z1, 0.5);
      const Y = cotangentFiniteDifference(sign, a0, a1, 0.5);
      const pair =
        flat.alpha.reduce((s, x, i) => s + x * Y.qdot[i]!, 0) +
        flat.w.reduce((s, x, i) => s + x * Y.pdot[i]!, 0);
      expect(Math.abs(pair - Om)).toBeLessThan(1e-13);
      expect(Om).not.toBe(0);
      expect(() => discreteCanonicalTwoForm(sign, [z0, z1], [z1, z0], 0.5)).toThrow();
    }
  });
});

/** Numerical rank by Gaussian elimination with partial pivoting. */
function rank(rows: number[][], tol = 1e-10): number {
  const a = rows.map((r) => [...r]);
  let rk = 0;
  const cols = a[0]?.length ?? 0;
  for (let c = 0; c < cols && rk < a.length; c++) {
    let p = rk;
    for (let r = rk + 1; r < a.length; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    if (Math.abs(a[p]![c]!) < tol) continue;
    [a[rk], a[p]] = [a[p]!, a[rk]!];
    for (let r = rk + 1; r < a.length; r++) {
      const f = a[r]![c]! / a[rk]![c]!;
      for (let k = c; k < cols; k++) a[r]![k] = a[r]![k]! - f * a[rk]![k]!;
    }
    rk++;
  }
  return rk;
}

const flatten = (e: DiracElement): number[] => [...e.dq, ...e.dp, ...e.alpha, ...e.w];

describe('D^± is a Dirac structure, D = D^⊥ (spec 000 Thm 5.7/5.16, §10.4)', () => {
  for (const s of systems) {
    it(`${s.name}: isotropic (pairing ≤ 1e-14), dim 2n, and a non-member pairs non-zero`, () => {
      const n = s.L.n;
      const c = Float64Array.from(s.q0, (x) => x + 0.37);
      const B = discreteDiracBasis(s.D, c);
      expect(B.length).toBe(2 * n);
      expect(rank(B.map(flatten))).toBe(2 * n);
      let worst = 0;
      for (const e1 of B)
        for (const e2 of B) worst = Math.max(worst, Math.abs(discreteSymmetricPairing(e1, e2)));
      expect(worst).toBeLessThan(1e-14);
      // random combination stays isotropic
      const coef = B.map((_, i) => Math.sin(3.1 * i + 1));
      const comb = (f: (e: DiracElement) => ArrayLike<number>): Float64Array => {
        const out = new Float64Array(n);
        B.forEach((e, j) => {
          for (let i = 0; i < n; i++) out[i] = out[i]! + coef[j]! * f(e)[i]!;
        });
        return out;
      };
      const r: DiracElement = {
        dq: comb((e) => e.dq),
        dp: comb((e) => e.dp),
        alpha: comb((e) => e.alpha),
        w: comb((e) => e.w),
      };
      for (const e of B) expect(Math.abs(discreteSymmetricPairing(r, e))).toBeLessThan(1e-13);
      // w ≠ δq: outside D, so some basis element pairs non-zero with it
      const bad: DiracElement = { ...r, w: r.w.map((x, i) => (i === 0 ? x + 1 : x)) };
      expect(Math.max(...B.map((e) => Math.abs(discreteSymmetricPairing(bad, e))))).toBeGreaterThan(
        0.1,
      );
      expect(rank([...B.map(flatten), flatten(bad)])).toBe(2 * n + 1);
    });
  }
});
