import {
  conditionNumber2,
  DomainError,
  finiteDifferenceJacobian,
  mul3,
  mulTVec3,
  SO3,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { PlateBall, simulatePlateBall } from '../src/plateBall.js';

// S5 data (spec 003 §10): h = 0.05, r = 1, Ω = 0.7, c = 0.3, (x0,y0,x1,y1) = (0,0,0.02,0.01),
// λ_1 = (0.5, −0.4, 0.3).
const S5 = { h: 0.05, r: 1, Omega: 0.7, c: 0.3 } as const;
const LAMBDA1 = Float64Array.of(0.5, -0.4, 0.3);
const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);

/** A deterministic mulberry32 stream in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The S5 trajectory: elements g_1..g_{N+1} and multipliers, plus the Newton iteration counts. */
function trajectory(pb: PlateBall, start: readonly number[], lam1: Float64Array, steps: number) {
  const gs: Float64Array[] = [pb.initialElement(start[0]!, start[1]!, start[2]!, start[3]!)];
  const ls: Float64Array[] = [lam1.slice()];
  const iterations: number[] = [];
  for (let k = 1; k <= steps; k++) {
    const g = new Float64Array(13);
    const l = new Float64Array(3);
    iterations.push(pb.stepForward(g, l, gs[k - 1]!, ls[k - 1]!, k));
    gs.push(g);
    ls.push(l);
  }
  return { gs, ls, iterations };
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

const spread = (a: ArrayLike<number>): number => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < a.length; i++) {
    lo = Math.min(lo, a[i]!);
    hi = Math.max(hi, a[i]!);
  }
  return hi - lo;
};

describe('S5: plate-ball forward stepping (spec 003 §8.2, §10)', () => {
  const pb = new PlateBall(S5);
  const { gs, ls, iterations } = trajectory(pb, [0, 0, 0.02, 0.01], LAMBDA1, 200);

  it('g_1 satisfies (8) and every step solves the DEL residual', () => {
    // measured: max |φ(g_1)| = 1.5e-18, max ‖residual‖∞ over 200 steps 1.7e-14
    expect(maxAbsDiff(pb.phi(new Float64Array(3), gs[0]!), [0, 0, 0])).toBeLessThan(1e-16);
    let worst = 0;
    const res = new Float64Array(8);
    for (let k = 0; k < 200; k++) {
      pb.residual(res, gs[k]!, ls[k]!, gs[k + 1]!, ls[k + 1]!);
      worst = Math.max(worst, maxAbsDiff(res, new Float64Array(8)));
    }
    expect(worst).toBeLessThan(5e-13);
  });

  it('Newton takes 3 iterations per step (197 of 200 steps; 3 steps need only 2)', () => {
    // measured with the default tol 1e-14: 197 × 3 and 3 × 2 iterations
    const threes = iterations.filter((n) => n === 3).length;
    expect(Math.max(...iterations)).toBe(3);
    expect(Math.min(...iterations)).toBeGreaterThanOrEqual(2);
    expect(threes).toBeGreaterThanOrEqual(195);
  });

  it('Casimir |Π⁻_k| = 0.707041836261 ± 2e-13', () => {
    // measured: |Π⁻| − 0.707041836261 within 1.9e-14 (the 12-digit rounding of the prototype's
    // value), spread 6.3e-15 over 201 states
    const cas = gs.map((g, k) => pb.casimir(g, ls[k]!));
    for (const c of cas) expect(Math.abs(c - 0.707041836261)).toBeLessThan(2e-13);
    expect(spread(cas)).toBeLessThan(1e-13);
  });

  it('spatial momentum G_{k−1}Π⁻_k is constant to 4e-13 (G_0 = I, G_k = G_{k−1}g_k)', () => {
    // measured: max deviation from the k = 1 value 6.6e-15
    const G = I3.slice();
    const m0 = pb.spatialMomentum(new Float64Array(3), G, gs[0]!, ls[0]!);
    const m = new Float64Array(3);
    let worst = 0;
    for (let k = 0; k < gs.length; k++) {
      pb.spatialMomentum(m, G, gs[k]!, ls[k]!);
      worst = Math.max(worst, maxAbsDiff(m, m0));
      mul3(G, G, gs[k]!, 0, 0, 4);
    }
    expect(worst).toBeLessThan(4e-13);
  });

  it('reproduces the prototype end state after 200 step solves (g_201)', () => {
    // spec: β-end ≈ (−6.62381, −9.44369), λ_201 ≈ (−0.1135, −0.6814, 0.3081)
    const g = gs[200]!;
    const l = ls[200]!;
    expect(g[2]).toBeCloseTo(-6.62381, 5);
    expect(g[3]).toBeCloseTo(-9.44369, 5);
    expect(l[0]).toBeCloseTo(-0.1135, 4);
    expect(l[1]).toBeCloseTo(-0.6814, 4);
    expect(l[2]).toBeCloseTo(0.3081, 4);
  });

  it('identity Π⁺ = RᵀΠ⁻ (Cayley–Hamilton) on the trajectory', () => {
    // measured 2.2e-16
    const pp = new Float64Array(5);
    const pm = new Float64Array(5);
    const rt = new Float64Array(3);
    let worst = 0;
    for (let k = 0; k < gs.length; k += 10) {
      pb.legendrePlus(pp, gs[k]!, ls[k]!);
      pb.legendreMinus(pm, gs[k]!, ls[k]!);
      mulTVec3(rt, gs[k]!, pm, 0, 4, 2);
      worst = Math.max(worst, maxAbsDiff(rt, pp.subarray(2)));
    }
    expect(worst).toBeLessThan(1e-14);
  });

  it('reversibility: one step back recovers (x0, y0, R_1, λ_1) to ~1e-16, 200 back to 1e-11', () => {
    // measured: one step 1.1e-16 (element) and 1.7e-16 (λ); 200 steps back: 4.4e-13, 2.0e-13
    const g = new Float64Array(13);
    const l = new Float64Array(3);
    pb.stepBackward(g, l, gs[1]!, ls[1]!);
    expect(maxAbsDiff(g, gs[0]!)).toBeLessThan(2e-15);
    expect(maxAbsDiff(l, ls[0]!)).toBeLessThan(2e-15);
    g.set(gs[200]!);
    l.set(ls[200]!);
    for (let k = 200; k >= 1; k--) pb.stepBackward(g, l, g, l, k);
    expect(maxAbsDiff(g, gs[0]!)).toBeLessThan(1e-11);
    expect(maxAbsDiff(l, ls[0]!)).toBeLessThan(1e-11);
  });

  it("the Newton loop's fused residual is residual()'s bit for bit: the reported ‖F‖∞ at the solution", () => {
    const out = new Float64Array(8);
    const ninf = (v: Float64Array) => Math.max(...Array.from(v, Math.abs));
    for (let k = 1; k <= 200; k += 13) {
      const g = new Float64Array(13);
      const l = new Float64Array(3);
      pb.stepForward(g, l, gs[k - 1]!, ls[k - 1]!, k);
      expect(pb.lastResidualNorm).toBe(ninf(pb.residual(out, gs[k - 1]!, ls[k - 1]!, g, l)));
      // backward: [P⁺(g_k, λ_k) − P⁻(g_{k+1}, λ_{k+1}); φ(g_k)/h]
      const gb = new Float64Array(13);
      const lb = new Float64Array(3);
      pb.stepBackward(gb, lb, gs[k]!, ls[k]!, k);
      const pm = pb.legendreMinus(new Float64Array(5), gs[k]!, ls[k]!);
      pb.legendrePlus(out, gb, lb);
      for (let i = 0; i < 5; i++) out[i] = out[i]! - pm[i]!;
      pb.phi(out.subarray(5), gb);
      for (let i = 5; i < 8; i++) out[i] = out[i]! * (1 / pb.h);
      expect(pb.lastResidualNorm).toBe(ninf(out));
    }
  });

  it('the cheaper reduced 2-unknown step agrees with the full 8×8 step', () => {
    // measured: max difference over 200 steps 1.1e-15 (element), 4.6e-15 (λ); 2 iterations/step
    const g = gs[0]!.slice();
    const l = ls[0]!.slice();
    let worstG = 0;
    let worstL = 0;
    let most = 0;
    for (let k = 1; k <= 200; k++) {
      most = Math.max(most, pb.stepForwardReduced(g, l, gs[k - 1]!, ls[k - 1]!, k));
      worstG = Math.max(worstG, maxAbsDiff(g, gs[k]!));
      worstL = Math.max(worstL, maxAbsDiff(l, ls[k]!));
    }
    expect(worstG).toBeLessThan(1e-13);
    expect(worstL).toBeLessThan(1e-13);
    // quadratic convergence of the reduced Newton: ≤ 3 iterations (measured 2 in 199 of 200
    // steps, 3 in one); a wrong sign in its 2×2 chain-rule Jacobian needs ≥ 5 or diverges
    expect(most).toBeLessThanOrEqual(3);
  });

  it('the 8×8 step Jacobian has condition ≈ 24 (φ rows unscaled), 32.7 with the φ/h rows', () => {
    // measured κ₂ at g_2: 24.29 unscaled (spec: ≈ 24), 32.69 with the scaled φ rows we use
    const J = pb.stepJacobian(new Float64Array(64), gs[1]!, ls[1]!);
    expect(conditionNumber2(J, 8, 8)).toBeCloseTo(32.69, 1);
    for (let i = 5; i < 8; i++) for (let j = 0; j < 8; j++) J[8 * i + j]! *= S5.h;
    expect(conditionNumber2(J, 8, 8)).toBeCloseTo(24.29, 1);
  });
});

describe('erratum (PB-y) and the printed eight equations (spec 003 §8.2, §12 item 1)', () => {
  const pb = new PlateBall(S5);
  const { gs, ls } = trajectory(pb, [0, 0, 0.02, 0.01], LAMBDA1, 20);

  it('corrected equations vanish on the trajectory; the printed (PB-y) has residual ≈ −0.767', () => {
    // measured: corrected max |row| 9.3e-15 over 20 steps; printed (PB-y) at k = 1: −0.76658
    const out = new Float64Array(8);
    let worst = 0;
    for (let k = 0; k < 20; k++) {
      pb.residualPaperForm(out, gs[k]!, ls[k]!, gs[k + 1]!, ls[k + 1]!);
      worst = Math.max(worst, maxAbsDiff(out, new Float64Array(8)));
    }
    expect(worst).toBeLessThan(5e-14);
    const printed = pb.residualPaperForm(out, gs[0]!, ls[0]!, gs[1]!, ls[1]!, { printedPBy: true });
    expect(printed[1]).toBeCloseTo(-0.767, 3);
    expect(Math.abs(printed[0]!)).toBeLessThan(5e-14); // the other rows are unchanged
  });

  it('printed trace forms = compact forms: (PB-x,y) = rows/h, (PB-R) = −2·rows, (PB-c) = φ/h', () => {
    // on random, non-trajectory data (independent check of the compact closed forms);
    // measured max mismatch 1.1e-13 on rows up to 660, i.e. ≤ 2e-16 relative
    const next = rng(11);
    const rnd = (s = 1) => (2 * next() - 1) * s;
    for (const sign of [1, -1] as const) {
      const sys = new PlateBall({ h: 0.07, r: 0.8, Omega: 0.6, c: 0.4, lambda3Sign: sign });
      for (let trial = 0; trial < 20; trial++) {
        const s1 = Float64Array.of(rnd(0.4), rnd(0.4), rnd(0.4));
        const s2 = Float64Array.of(rnd(0.4), rnd(0.4), rnd(0.4));
        const gk = new Float64Array(13);
        const gk1 = new Float64Array(13);
        gk.set([rnd(), rnd(), rnd(), rnd()]);
        gk1.set([gk[2]!, gk[3]!, rnd(), rnd()]);
        SO3.exp(gk.subarray(4), s1);
        SO3.exp(gk1.subarray(4), s2);
        const lk = Float64Array.of(rnd(), rnd(), rnd());
        const lk1 = Float64Array.of(rnd(), rnd(), rnd());
        const res = sys.residual(new Float64Array(8), gk, lk, gk1, lk1);
        const paper = sys.residualPaperForm(new Float64Array(8), gk, lk, gk1, lk1);
        const expected = [
          res[0]! / 0.07,
          res[1]! / 0.07,
          -2 * res[2]!,
          -2 * res[3]!,
          -2 * res[4]!,
          res[5]!,
          res[6]!,
          sign * res[7]!,
        ];
        for (let i = 0; i < 8; i++) {
          expect(Math.abs(paper[i]! - expected[i]!)).toBeLessThan(
            4e-15 * Math.max(1, Math.abs(expected[i]!)),
          );
        }
      }
    }
  });
});

describe('λ3 sign convention (spec 003 §8.2, §12 item 2)', () => {
  it('lambda3Sign = −1 gives the same (x, y, R) with λ3 negated, and satisfies the printed (PB-R)', () => {
    // measured: element difference 0 (bitwise), λ1, λ2 identical, λ3 exactly opposite
    const plus = new PlateBall(S5);
    const minus = new PlateBall({ ...S5, lambda3Sign: -1 });
    const a = trajectory(plus, [0, 0, 0.02, 0.01], LAMBDA1, 50);
    const b = trajectory(minus, [0, 0, 0.02, 0.01], Float64Array.of(0.5, -0.4, -0.3), 50);
    let worstG = 0;
    let worstL = 0;
    for (let k = 0; k <= 50; k++) {
      worstG = Math.max(worstG, maxAbsDiff(a.gs[k]!, b.gs[k]!));
      const la = a.ls[k]!;
      const lb = b.ls[k]!;
      worstL = Math.max(worstL, maxAbsDiff([la[0]!, la[1]!, -la[2]!], lb));
    }
    expect(worstG).toBeLessThan(1e-15);
    expect(worstL).toBeLessThan(1e-15);
    // the printed (PB-R_i) (λ3 terms −λ3 tr(g E_iE3) + λ3' tr(E_i g' E3)) hold for σ3 = −1 ...
    const out = new Float64Array(8);
    minus.residualPaperForm(out, b.gs[3]!, b.ls[3]!, b.gs[4]!, b.ls[4]!);
    expect(maxAbsDiff(out, new Float64Array(8))).toBeLessThan(1e-13);
    // ... and fail with the derived-from-(8) multipliers (measured max |(PB-R_i)| 0.041)
    minus.residualPaperForm(out, a.gs[3]!, a.ls[3]!, a.gs[4]!, a.ls[4]!);
    expect(Math.max(Math.abs(out[2]!), Math.abs(out[3]!), Math.abs(out[4]!))).toBeGreaterThan(1e-3);
  });
});

describe('analytic Jacobians against central differences', () => {
  const next = rng(7);
  const rnd = (s = 1) => (2 * next() - 1) * s;
  const systems = [
    new PlateBall(S5),
    new PlateBall({ h: 0.1, r: 0.7, Omega: -0.4, c: 0.5, lambda3Sign: -1 }),
  ];

  it('elementJacobian: ∂(P⁺, Π⁺, P⁻, Π⁻, φ/h)/∂(x0, y0, x1, y1, ρ, ℓ, λ)', () => {
    // 13×13 at random points; measured max relative error 8.0e-10
    for (const sys of systems) {
      for (let trial = 0; trial < 10; trial++) {
        const g = new Float64Array(13);
        g.set([rnd(), rnd(), rnd(), rnd()]);
        SO3.exp(g.subarray(4), Float64Array.of(rnd(0.6), rnd(0.6), rnd(0.6)));
        const lam = Float64Array.of(rnd(2), rnd(2), rnd(2));
        const R = g.slice(4);
        const f = (out: Float64Array, u: Float64Array): void => {
          const gg = new Float64Array(13);
          gg.set([g[0]! + u[0]!, g[1]! + u[1]!, g[2]! + u[2]!, g[3]! + u[3]!]);
          const er = SO3.exp(new Float64Array(9), u.subarray(4, 7));
          const el = SO3.exp(new Float64Array(9), u.subarray(7, 10));
          const t = mul3(new Float64Array(9), R, er);
          mul3(gg, el, t, 4, 0, 0);
          const l = Float64Array.of(lam[0]! + u[10]!, lam[1]! + u[11]!, lam[2]! + u[12]!);
          sys.legendrePlus(out.subarray(0, 5), gg, l);
          sys.legendreMinus(out.subarray(5, 10), gg, l);
          sys.phi(out.subarray(10, 13), gg);
          for (let i = 10; i < 13; i++) out[i] = out[i]! / sys.h;
        };
        const fd = finiteDifferenceJacobian(new Float64Array(169), f, new Float64Array(13), 13, 13);
        const an = sys.elementJacobian(new Float64Array(169), g, lam);
        let worst = 0;
        for (let i = 0; i < 169; i++) {
          worst = Math.max(worst, Math.abs(an[i]! - fd[i]!) / Math.max(1, Math.abs(fd[i]!)));
        }
        expect(worst).toBeLessThan(1e-7);
      }
    }
  });

  it('stepJacobian (forward, R ← R exp(δ̂)) and backwardJacobian (R ← exp(δ̂) R)', () => {
    // FD of the residuals in the Newton charts; measured max error 1.2e-10 and 1.3e-10
    const pb = systems[0]!;
    const { gs, ls } = trajectory(pb, [0, 0, 0.02, 0.01], LAMBDA1, 3);
    const gk = gs[1]!;
    const lk = ls[1]!;
    const gk1 = gs[2]!.slice();
    const lk1 = ls[2]!.slice();
    // evaluate away from the solution too
    gk1[2]! += 0.003;
    SO3.exp(gk1.subarray(4), Float64Array.of(0.02, -0.01, 0.015));
    lk1[0]! += 0.1;
    const fwd = (out: Float64Array, u: Float64Array): void => {
      const g = gk1.slice();
      g[2]! += u[0]!;
      g[3]! += u[1]!;
      mul3(g, g, SO3.exp(new Float64Array(9), u.subarray(2, 5)), 4, 4, 0);
      const l = Float64Array.of(lk1[0]! + u[5]!, lk1[1]! + u[6]!, lk1[2]! + u[7]!);
      pb.residual(out, gk, lk, g, l);
    };
    const Jf = pb.stepJacobian(new Float64Array(64), gk1, lk1);
    // every entry is written (the structural zeros too): a NaN-filled out gives the same matrix
    const Jnan = pb.stepJacobian(new Float64Array(64).fill(Number.NaN), gk1, lk1);
    expect(Array.from(Jnan)).toEqual(Array.from(Jf));
    const Ff = finiteDifferenceJacobian(new Float64Array(64), fwd, new Float64Array(8), 8, 8);
    expect(maxAbsDiff(Jf, Ff)).toBeLessThan(1e-8);
    // the directly assembled forward block (closed form) is the elementJacobian block (through
    // core's group Jacobians) to rounding (measured 5.6e-17)
    const E = pb.elementJacobian(new Float64Array(169), gk1, lk1);
    const cols = [2, 3, 4, 5, 6, 10, 11, 12];
    for (let i = 0; i < 8; i++)
      for (let j = 0; j < 8; j++)
        expect(Math.abs(Jf[8 * i + j]! - E[13 * (5 + i) + cols[j]!]!)).toBeLessThan(1e-14);
    const tgt = pb.legendreMinus(new Float64Array(5), gk1, lk1);
    const bwd = (out: Float64Array, u: Float64Array): void => {
      const g = gk.slice();
      g[0]! += u[0]!;
      g[1]! += u[1]!;
      mul3(g, SO3.exp(new Float64Array(9), u.subarray(2, 5)), g, 4, 0, 4);
      const l = Float64Array.of(lk[0]! + u[5]!, lk[1]! + u[6]!, lk[2]! + u[7]!);
      pb.legendrePlus(out, g, l);
      for (let i = 0; i < 5; i++) out[i] = out[i]! - tgt[i]!;
      pb.phi(out.subarray(5), g);
      for (let i = 5; i < 8; i++) out[i] = out[i]! / pb.h;
    };
    const Jb = pb.backwardJacobian(new Float64Array(64), gk, lk);
    const Fb = finiteDifferenceJacobian(new Float64Array(64), bwd, new Float64Array(8), 8, 8);
    expect(maxAbsDiff(Jb, Fb)).toBeLessThan(1e-8);
  });
});

describe('branch guard tr R > 1 (|hω| < 1, spec 003 §12 item 5)', () => {
  it('initialElement rejects |s| ≥ 1', () => {
    const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0, c: 0 });
    expect(() => pb.initialElement(0, 0, 1.2, 0)).toThrow(DomainError);
    expect(() => pb.initialElement(0, 0, 0.9, 0)).not.toThrow();
  });

  it('a step whose Newton solution lies on the far branch (θ > π/2) throws a DomainError', () => {
    // from (0,0)→(0.9,0) with λ = (20, 0, 0): Newton converges (9 iterations, residual 1.8e-15)
    // to an increment with tr R = −0.032 ≤ 1, a solution of the same equations on the far branch
    const pb = new PlateBall({ h: 0.05, r: 1, Omega: 0, c: 0 });
    const g = pb.initialElement(0, 0, 0.9, 0);
    const lam = Float64Array.of(20, 0, 0);
    const out = new Float64Array(13);
    const outL = new Float64Array(3);
    expect(() => pb.stepForward(out, outL, g, lam, 1)).toThrow(DomainError);
    expect(pb.lastResidualNorm).toBeLessThan(1e-13);
    expect(out[4]! + out[8]! + out[12]!).toBeLessThanOrEqual(1);
  });
});

describe('Noether symmetry X = (−y∂x + x∂y, −E3) (spec 003 §6, S5)', () => {
  it('F_X = 0.51694092602079 is constant over 100 steps (spread ≤ 1e-14)', () => {
    // measured: F_X = 0.5169409260207913, spread 2.0e-15 (prototype 2e-15)
    const sol = simulatePlateBall({
      h: 0.05,
      r: 0.8,
      Omega: 0.7,
      c: 0.3,
      x0: 0.3,
      y0: -0.2,
      x1: 0.32,
      y1: -0.19,
      lambda1: [0.5, -0.4, 0.3],
      steps: 100,
    });
    expect(sol.noether[0]).toBeCloseTo(0.51694092602079, 13);
    expect(spread(sol.noether)).toBeLessThan(1e-14);
  });
});

describe('Poisson property of the Hamiltonian map F⁺∘(F⁻)⁻¹ (S5)', () => {
  it('J B(z) Jᵀ = B(z′) to ~1e-9 (FD), and the other sign of {Π_i, Π_j} fails', () => {
    // measured (FD step 1e-5): 1.4e-11 with B = blockdiag([[0, I], [−I, 0]], Π̂); 0.054 with −Π̂
    const pb = new PlateBall(S5);
    const { gs, ls } = trajectory(pb, [0, 0, 0.02, 0.01], LAMBDA1, 5);
    const g = gs[3]!;
    const l = ls[3]!;
    const z = new Float64Array(7);
    z[0] = g[0]!;
    z[1] = g[1]!;
    pb.legendreMinus(z.subarray(2), g, l);
    const map = (out: Float64Array, zz: Float64Array): void => {
      pb.hamiltonianMap(out, zz, g, l);
    };
    const zp = new Float64Array(7);
    map(zp, z);
    // the map sends F⁻(g_k) to F⁺(g_k)
    const pp = pb.legendrePlus(new Float64Array(5), g, l);
    expect(maxAbsDiff(zp, [g[2]!, g[3]!, ...pp])).toBeLessThan(1e-13);
    const J = finiteDifferenceJacobian(new Float64Array(49), map, z, 7, 7, { step: 1e-5 });
    const B = (zz: ArrayLike<number>, sign: number): Float64Array => {
      const b = new Float64Array(49);
      b[0 * 7 + 2] = 1;
      b[1 * 7 + 3] = 1;
      b[2 * 7 + 0] = -1;
      b[3 * 7 + 1] = -1;
      const [p1, p2, p3] = [zz[4]!, zz[5]!, zz[6]!];
      // Π̂ = [[0, −Π3, Π2], [Π3, 0, −Π1], [−Π2, Π1, 0]]: {Π_i, Π_j} = −ε_ijk Π_k
      const hat = [0, -p3, p2, p3, 0, -p1, -p2, p1, 0];
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) b[(4 + i) * 7 + 4 + j] = sign * hat[3 * i + j]!;
      return b;
    };
    const JBJt = (b: Float64Array): Float64Array => {
      const out = new Float64Array(49);
      for (let i = 0; i < 7; i++)
        for (let j = 0; j < 7; j++) {
          let s = 0;
          for (let a = 0; a < 7; a++)
            for (let c = 0; c < 7; c++) s += J[i * 7 + a]! * b[a * 7 + c]! * J[j * 7 + c]!;
          out[i * 7 + j] = s;
        }
      return out;
    };
    expect(maxAbsDiff(JBJt(B(z, 1)), B(zp, 1))).toBeLessThan(1e-9);
    expect(maxAbsDiff(JBJt(B(z, -1)), B(zp, -1))).toBeGreaterThan(1e-2);
  });
});

describe('S10: reduction by Φ((x0,y0,G0),(x1,y1,G1)) = (x0,y0,x1,y1,G0ᵀG1) (Cor 4.6)', () => {
  // The unreduced system on the pair groupoid over Q = R² × SO(3): L_u = L̂∘Φ, φ_u = φ∘Φ with φ
  // written here from (8) with the trace forms, independently of PlateBall.phi.
  const { h, r, Omega, c } = S5;
  const E = [
    Float64Array.of(0, 0, 0, 0, 0, -1, 0, 1, 0),
    Float64Array.of(0, 0, 1, 0, 0, 0, -1, 0, 0),
    Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 0),
  ];
  const tr = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
    let s = 0;
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) s += a[3 * i + k]! * b[3 * k + i]!;
    return s;
  };
  /** F_u(q0, q1) = L̂ + λ·φ at Φ(q0, q1); q = [x, y, G row-major 9]. */
  const Fu = (q0: Float64Array, q1: Float64Array, lam: ArrayLike<number>): number => {
    const Rg = new Float64Array(9);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let m = 0; m < 3; m++) s += q0[2 + 3 * m + i]! * q1[2 + 3 * m + j]!;
        Rg[3 * i + j] = s;
      }
    const dx = q1[0]! - q0[0]!;
    const dy = q1[1]! - q0[1]!;
    const L = (dx * dx + dy * dy) / (2 * h);
    const phi1 = dy - (r / 2) * tr(Rg, E[0]!) - (h * Omega * (q0[0]! + q1[0]!)) / 2;
    const phi2 = dx + (r / 2) * tr(Rg, E[1]!) + (h * Omega * (q0[1]! + q1[1]!)) / 2;
    const phi3 = h * c + 0.5 * tr(Rg, E[2]!);
    return L + lam[0]! * phi1 + lam[1]! * phi2 + lam[2]! * phi3;
  };
  /** Left-trivialized gradient (∂x, ∂y, d/dε G·exp(εE_j)) of F_u in slot 0 or 1, central FD. */
  const grad = (slot: 0 | 1, q0: Float64Array, q1: Float64Array, lam: ArrayLike<number>) => {
    const eps = 1e-6;
    const out = new Float64Array(5);
    for (let a = 0; a < 5; a++) {
      const vals = [1, -1].map((sg) => {
        const p = (slot === 0 ? q0 : q1).slice();
        if (a < 2) p[a]! += sg * eps;
        else {
          const v = new Float64Array(3);
          v[a - 2] = sg * eps;
          mul3(p, p, SO3.exp(new Float64Array(9), v), 2, 2, 0);
        }
        return slot === 0 ? Fu(p, q1, lam) : Fu(q0, p, lam);
      });
      out[a] = (vals[0]! - vals[1]!) / (2 * eps);
    }
    return out;
  };

  const pb = new PlateBall(S5);
  const { gs, ls } = trajectory(pb, [0, 0, 0.02, 0.01], LAMBDA1, 30);
  // lift: q_0 = (x0, y0, I), q_k = (x_k, y_k, G_k) with G_k = G_{k−1}g_k
  const qs: Float64Array[] = [Float64Array.of(0, 0, ...I3)];
  for (let k = 1; k <= 31; k++) {
    const G = mul3(new Float64Array(9), qs[k - 1]!.subarray(2), gs[k - 1]!.subarray(4));
    qs.push(Float64Array.of(gs[k - 1]![2]!, gs[k - 1]![3]!, ...G));
  }

  it('the lifted trajectory solves the pair-groupoid DEL D2F_k(q_{k−1},q_k) + D1F_{k+1}(q_k,q_{k+1}) = 0 with the same λ_k', () => {
    // measured max |DEL| 1.5e-11 (central differences, step 1e-6)
    let worst = 0;
    for (let k = 1; k <= 30; k++) {
      const d2 = grad(1, qs[k - 1]!, qs[k]!, ls[k - 1]!);
      const d1 = grad(0, qs[k]!, qs[k + 1]!, ls[k]!);
      for (let a = 0; a < 5; a++) worst = Math.max(worst, Math.abs(d2[a]! + d1[a]!));
    }
    expect(worst).toBeLessThan(1e-9);
    // and a wrong multiplier breaks it (measured 0.1)
    const d2 = grad(1, qs[4]!, qs[5]!, ls[4]!);
    const bad = Float64Array.of(ls[5]![0]! + 0.1, ls[5]![1]!, ls[5]![2]!);
    const d1 = grad(0, qs[5]!, qs[6]!, bad);
    expect(Math.max(...d2.map((v, a) => Math.abs(v + d1[a]!)))).toBeGreaterThan(1e-2);
  });

  it('Φ*-related covectors have A*Φ-related Legendre images: α̃ = F⁻, β̃ = F⁺ in left-trivialized coordinates', () => {
    // unreduced α̃(µ) = (q0, −∂_{q0}F_u), β̃(µ) = (q1, ∂_{q1}F_u); AΦ(v_x, v_y, ξ) = (v_x, v_y, ξ);
    // measured max difference 1.9e-11
    let worst = 0;
    for (let k = 1; k <= 30; k += 7) {
      const q0 = qs[k - 1]!;
      const q1 = qs[k]!;
      const lam = ls[k - 1]!;
      const d0 = grad(0, q0, q1, lam);
      const d1 = grad(1, q0, q1, lam);
      const fm = pb.legendreMinus(new Float64Array(5), gs[k - 1]!, lam);
      const fp = pb.legendrePlus(new Float64Array(5), gs[k - 1]!, lam);
      for (let a = 0; a < 5; a++) {
        worst = Math.max(worst, Math.abs(-d0[a]! - fm[a]!), Math.abs(d1[a]! - fp[a]!));
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });
});

describe('simulatePlateBall (geomech simulate plate-ball)', () => {
  it('CLI defaults reproduce S5; every keeps the first and the last state', () => {
    // measured: 597 Newton iterations for 200 steps (≤ 3 per step), max step residual 1.7e-14
    const sol = simulatePlateBall({ steps: 200, every: 30 });
    expect(sol.count).toBe(8); // nodes k = 0, 30, 60, …, 180, 200
    expect(Array.from(sol.k)).toEqual([0, 30, 60, 90, 120, 150, 180, 200]);
    expect(sol.t[0]).toBe(0);
    expect(sol.t[7]).toBe(10);
    expect(sol.method.name).toBe('lagrange-multiplier');
    // node 0: (x0, y0), G_0 = I, λ_1
    expect([sol.x[0], sol.y[0]]).toEqual([0, 0]);
    expect(Array.from(sol.sample('R', 0))).toEqual(Array.from(I3));
    expect(Array.from(sol.sample('lambda', 0))).toEqual(Array.from(LAMBDA1));
    // node 200 (S5 prototype: x_201 = −6.62381 is the β-end of g_201, one node later)
    expect(sol.x[7]).toBeCloseTo(-6.566361, 5);
    expect(sol.y[7]).toBeCloseTo(-9.319102, 5);
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(3);
    expect(sol.casimir[3]).toBeCloseTo(0.707041836261, 12);
    expect(sol.stats.newtonIterations).toBeGreaterThanOrEqual(590);
    expect(sol.stats.newtonIterations).toBeLessThanOrEqual(600);
    expect(sol.stats.maxResidual).toBeLessThan(1e-13);
    // G_k stays a rotation: measured ‖GᵀG − I‖ 7.0e-15 after 201 products
    const G = sol.R.subarray(63, 72);
    const GtG = new Float64Array(9);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let m = 0; m < 3; m++) s += G[3 * m + i]! * G[3 * m + j]!;
        GtG[3 * i + j] = s;
      }
    expect(maxAbsDiff(GtG, I3)).toBeLessThan(1e-13);
  });

  it("frame 'spatial' reconstructs G_k with G_kG_{k−1}ᵀ ≈ exp(hω̂_spatial) satisfying (8) with ω spatial", () => {
    // (8) with s = vee skew(G_k G_{k−1}ᵀ) = hω_spatial: Δy + r s1 − hΩx̄ = 0, Δx − r s2 + hΩȳ = 0,
    // s3 = hc. measured max violation 1.3e-16
    const sol = simulatePlateBall({ steps: 40, frame: 'spatial' });
    const { h } = S5;
    let worst = 0;
    for (let j = 1; j < sol.count; j++) {
      const Gp = sol.R.subarray(9 * (j - 1), 9 * j);
      const G = sol.R.subarray(9 * j, 9 * j + 9);
      const M = new Float64Array(9); // G Gpᵀ
      for (let i = 0; i < 3; i++)
        for (let k = 0; k < 3; k++) {
          let s = 0;
          for (let m = 0; m < 3; m++) s += G[3 * i + m]! * Gp[3 * k + m]!;
          M[3 * i + k] = s;
        }
      const s = [0.5 * (M[7]! - M[5]!), 0.5 * (M[2]! - M[6]!), 0.5 * (M[3]! - M[1]!)];
      const dx = sol.x[j]! - sol.x[j - 1]!;
      const dy = sol.y[j]! - sol.y[j - 1]!;
      const xb = (sol.x[j]! + sol.x[j - 1]!) / 2;
      const yb = (sol.y[j]! + sol.y[j - 1]!) / 2;
      worst = Math.max(
        worst,
        Math.abs(dy + S5.r * s[0]! - h * S5.Omega * xb),
        Math.abs(dx - S5.r * s[1]! + h * S5.Omega * yb),
        Math.abs(s[2]! - h * S5.c),
      );
    }
    expect(worst).toBeLessThan(1e-14);
  });

  it('a run given by its final time ends exactly there (tEnd 1, 20 steps: h = 0.05, t = 1)', () => {
    const a = simulatePlateBall({ tEnd: 1, steps: 20 });
    expect(a.t[20]).toBe(1);
    expect(a.h).toBe(0.05);
    const b = simulatePlateBall({ steps: 20 });
    expect(Array.from(a.x)).toEqual(Array.from(b.x));
    expect(() => simulatePlateBall({ tEnd: 1, h: 0.05, steps: 20 })).toThrow(DomainError);
  });

  it("onFailure 'return' keeps the nodes before a step that leaves the branch", () => {
    // λ_1 = (20, 0, 0) from (0, 0) → (0.9, 0): the first step's solution has tr R ≤ 1
    const sol = simulatePlateBall({
      Omega: 0,
      c: 0,
      x1: 0.9,
      y1: 0,
      lambda1: [20, 0, 0],
      steps: 5,
      onFailure: 'return',
    });
    expect(sol.ok).toBe(false);
    expect(sol.failure?.step).toBe(0);
    expect(sol.failure?.error).toBeInstanceOf(DomainError);
    expect(sol.count).toBe(1);
  });

  it("method 'reduced' gives the same series", () => {
    const a = simulatePlateBall({ steps: 50 });
    const b = simulatePlateBall({ steps: 50, method: 'reduced' });
    // measured 5.2e-15 (x), 7.6e-15 (λ)
    expect(maxAbsDiff(a.x, b.x)).toBeLessThan(1e-13);
    expect(maxAbsDiff(a.lambda, b.lambda)).toBeLessThan(1e-13);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => simulatePlateBall({ steps: -1 })).toThrow(DomainError);
    expect(() => simulatePlateBall({ every: 0 })).toThrow(DomainError);
    expect(() => simulatePlateBall({ h: 0 })).toThrow(DomainError);
    expect(() => simulatePlateBall({ r: 0 })).toThrow(DomainError);
    expect(() => new PlateBall({ h: 0.1, r: 1, Omega: Number.NaN, c: 0 })).toThrow(DomainError);
    expect(() => simulatePlateBall({ x1: 2 })).toThrow(DomainError);
  });
});
