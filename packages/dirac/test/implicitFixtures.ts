/**
 * The implicit Lagrangian systems of spec 002 §4 built locally for the implicit-system tests
 * (rolling disk, 4-port and single L-C circuits, harmonic oscillator) with their closed forms,
 * and small helpers.
 */
import { NonRegularSystemError } from '@geomech/core';
import { expect } from 'vitest';
import { ImplicitLagrangianSystem, unconstrainedDistribution } from '../src/implicitSystem.js';
import { mechanicalLagrangian, quadraticLagrangian } from '../src/lagrangian.js';
import type { Distribution } from '../src/types.js';
import { constantDistribution, diag } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// systems, built locally (spec 002 §4)

// vertical rolling disk (spec 002 §4.1), q = (x, y, θ, φ); values of spec 002 §7 item 12
export const disk = { m: 2, I: 0.3, J: 0.15, R: 0.5 };
export const diskInit = { x0: 0.1, y0: -0.2, th0: 0.3, ph0: 0.4, Om: 1.3, om: 0.7 };

/** The rolling constraint; with `extraRow` a third, dependent one-form ω¹ + ω² (and no G). */
export const rolling = (R: number, extraRow = false): Distribution => {
  const d = rollingWithBasis(R, extraRow);
  if (!extraRow) return d;
  const { G: _dropped, ...noBasis } = d;
  return noBasis;
};

export const rollingWithBasis = (R: number, extraRow: boolean): Distribution => ({
  n: 4,
  m: extraRow ? 3 : 2,
  A: (out, q) => {
    const c = Math.cos(q[3]!);
    const s = Math.sin(q[3]!);
    out.set([1, 0, -R * c, 0, 0, 1, -R * s, 0]);
    if (extraRow) out.set([1, 1, -R * (c + s), 0], 8); // ω¹ + ω²: dependent
    return out;
  },
  Adot: (out, q, v) => {
    const c = Math.cos(q[3]!);
    const s = Math.sin(q[3]!);
    const w = v[3]!;
    out.set([0, 0, R * s * w, 0, 0, 0, -R * c * w, 0]);
    if (extraRow) out.set([0, 0, R * (s - c) * w, 0], 8);
    return out;
  },
  G: (out, q) => {
    const c = Math.cos(q[3]!);
    const s = Math.sin(q[3]!);
    // columns ∂_φ and R cos φ ∂_x + R sin φ ∂_y + ∂_θ: u = (v_φ, v_θ)
    out.set([0, R * c, 0, R * s, 0, 1, 1, 0]);
    return out;
  },
});

export const diskLagrangian = mechanicalLagrangian({
  n: 4,
  mass: diag([disk.m, disk.m, disk.I, disk.J]),
});
export const diskSystem = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R));

/** The closed form of spec 002 §4.1 (ω ≠ 0). */
export function diskExact(t: number) {
  const { m, I, J, R } = disk;
  const { x0, y0, th0, ph0, Om, om } = diskInit;
  const ph = ph0 + om * t;
  const k = (R * Om) / om;
  const q = Float64Array.of(
    x0 + k * (Math.sin(ph) - Math.sin(ph0)),
    y0 - k * (Math.cos(ph) - Math.cos(ph0)),
    th0 + Om * t,
    ph,
  );
  const v = Float64Array.of(R * Om * Math.cos(ph), R * Om * Math.sin(ph), Om, om);
  const p = Float64Array.of(m * v[0]!, m * v[1]!, I * Om, J * om);
  const mu = Float64Array.of(-m * R * Om * om * Math.sin(ph), m * R * Om * om * Math.cos(ph));
  const pdot = Float64Array.of(mu[0]!, mu[1]!, 0, 0);
  const energy = 0.5 * (m * R * R + I) * Om * Om + 0.5 * J * om * om;
  return { q, v, p, mu, pdot, energy };
}

// the 4-port L-C circuit (spec 002 §4.2), q = (q_L, q_C1, q_C2, q_C3)
export const lc = { L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 };
export const omegaLC = Math.sqrt((1 / lc.L) * (1 / lc.C2 + 1 / (lc.C1 + lc.C3)));
export const kcl = [
  [-1, 0, 1, 0],
  [0, -1, 1, -1],
];
export const lcLagrangian = quadraticLagrangian(
  diag([lc.L, 0, 0, 0]),
  diag([0, 1 / lc.C1, 1 / lc.C2, 1 / lc.C3]),
);
export const lcSystem = new ImplicitLagrangianSystem(lcLagrangian, constantDistribution(kcl));
// consistent data: q_C1/C1 = q_C3/C3 = 0.4, f ∈ Δ with f_C1/C1 = f_C3/C3
export const lcQ0 = Float64Array.of(0.2, lc.C1 * 0.4, 0.1, lc.C3 * 0.4);
export const lcF0 = 0.5;
export const lcV0 = Float64Array.of(
  lcF0,
  (lc.C1 / (lc.C1 + lc.C3)) * lcF0,
  lcF0,
  (lc.C3 / (lc.C1 + lc.C3)) * lcF0,
);

/** Closed form of spec 002 §4.2 item 4. */
export function lcExact(t: number) {
  const { L, C1, C2, C3 } = lc;
  const w = omegaLC;
  const u0 = lcQ0[1]! / C1 + lcQ0[2]! / C2;
  const fL = lcF0 * Math.cos(w * t) - (u0 / (L * w)) * Math.sin(w * t);
  const fLdot = -lcF0 * w * Math.sin(w * t) - (u0 / L) * Math.cos(w * t);
  const s = (lcF0 / w) * Math.sin(w * t) - (u0 / (L * w * w)) * (1 - Math.cos(w * t));
  const a1 = C1 / (C1 + C3);
  const a3 = C3 / (C1 + C3);
  const q = Float64Array.of(lcQ0[0]! + s, lcQ0[1]! + a1 * s, lcQ0[2]! + s, lcQ0[3]! + a3 * s);
  const v = Float64Array.of(fL, a1 * fL, fL, a3 * fL);
  const p = Float64Array.of(L * fL, 0, 0, 0);
  const pdot = Float64Array.of(L * fLdot, 0, 0, 0);
  const mu = Float64Array.of(q[1]! / C1 + q[2]! / C2, -q[1]! / C1);
  return { q, v, p, pdot, mu };
}

// the single LC loop (spec 002 §4.2, simplest case): L = 2, C = 0.125, ω = 2
export const lc1 = { L: 2, C: 0.125 };
export const lc1System = new ImplicitLagrangianSystem(
  quadraticLagrangian(diag([lc1.L, 0]), diag([0, 1 / lc1.C])),
  constantDistribution([[-1, 1]]),
);
export function lc1Exact(t: number, qL0: number, qC0: number, f0: number) {
  const w = 1 / Math.sqrt(lc1.L * lc1.C);
  const qC = qC0 * Math.cos(w * t) + (f0 / w) * Math.sin(w * t);
  const f = -qC0 * w * Math.sin(w * t) + f0 * Math.cos(w * t);
  const fdot = -w * w * qC;
  const q = Float64Array.of(qL0 + qC - qC0, qC);
  const v = Float64Array.of(f, f);
  return {
    q,
    v,
    p: Float64Array.of(lc1.L * f, 0),
    pdot: Float64Array.of(lc1.L * fdot, 0),
    mu: Float64Array.of(qC / lc1.C),
  };
}

// harmonic oscillator (spec 002 §4.4): m = 2, k = 8, ω = 2
export const osc = { m: 2, k: 8 };
export const oscSystem = new ImplicitLagrangianSystem(
  quadraticLagrangian([osc.m], [osc.k]),
  unconstrainedDistribution(1),
);

export const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

export const grid = (t0: number, t1: number, steps: number): number[] =>
  Array.from({ length: steps + 1 }, (_, k) => t0 + ((t1 - t0) * k) / steps);

export function expectDefect(f: () => unknown, defect: NonRegularSystemError['defect']): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(NonRegularSystemError);
  expect((caught as NonRegularSystemError).defect).toBe(defect);
}
