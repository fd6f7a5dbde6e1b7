import { DomainError, integrateDopri5, NonRegularSystemError } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  harmonicOscillator,
  lcCircuit4,
  simpleLC,
  traditor,
  verticalRollingDisk,
} from '../src/examples.js';
import {
  constraintAlgorithm,
  ImplicitLagrangianSystem,
  integrateDegenerate,
  integrateIndexReduced,
  integrateNullSpace,
  residualMaxNorm,
  unconstrainedDistribution,
} from '../src/implicit.js';
import { mechanicalLagrangian, quadraticLagrangian } from '../src/lagrangian.js';
import type { Distribution } from '../src/types.js';
import { constantDistribution, diag } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// systems, built locally (spec 002 §4)

// vertical rolling disk (spec 002 §4.1), q = (x, y, θ, φ); values of spec 002 §7 item 12
const disk = { m: 2, I: 0.3, J: 0.15, R: 0.5 };
const diskInit = { x0: 0.1, y0: -0.2, th0: 0.3, ph0: 0.4, Om: 1.3, om: 0.7 };

/** The rolling constraint; with `extraRow` a third, dependent one-form ω¹ + ω² (and no G). */
const rolling = (R: number, extraRow = false): Distribution => {
  const d = rollingWithBasis(R, extraRow);
  if (!extraRow) return d;
  const { G: _dropped, ...noBasis } = d;
  return noBasis;
};

const rollingWithBasis = (R: number, extraRow: boolean): Distribution => ({
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

const diskLagrangian = mechanicalLagrangian({ n: 4, mass: diag([disk.m, disk.m, disk.I, disk.J]) });
const diskSystem = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R));

/** The closed form of spec 002 §4.1 (ω ≠ 0). */
function diskExact(t: number) {
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
const lc = { L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 };
const omegaLC = Math.sqrt((1 / lc.L) * (1 / lc.C2 + 1 / (lc.C1 + lc.C3)));
const kcl = [
  [-1, 0, 1, 0],
  [0, -1, 1, -1],
];
const lcLagrangian = quadraticLagrangian(
  diag([lc.L, 0, 0, 0]),
  diag([0, 1 / lc.C1, 1 / lc.C2, 1 / lc.C3]),
);
const lcSystem = new ImplicitLagrangianSystem(lcLagrangian, constantDistribution(kcl));
// consistent data: q_C1/C1 = q_C3/C3 = 0.4, f ∈ Δ with f_C1/C1 = f_C3/C3
const lcQ0 = Float64Array.of(0.2, lc.C1 * 0.4, 0.1, lc.C3 * 0.4);
const lcF0 = 0.5;
const lcV0 = Float64Array.of(
  lcF0,
  (lc.C1 / (lc.C1 + lc.C3)) * lcF0,
  lcF0,
  (lc.C3 / (lc.C1 + lc.C3)) * lcF0,
);

/** Closed form of spec 002 §4.2 item 4. */
function lcExact(t: number) {
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
const lc1 = { L: 2, C: 0.125 };
const lc1System = new ImplicitLagrangianSystem(
  quadraticLagrangian(diag([lc1.L, 0]), diag([0, 1 / lc1.C])),
  constantDistribution([[-1, 1]]),
);
function lc1Exact(t: number, qL0: number, qC0: number, f0: number) {
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
const osc = { m: 2, k: 8 };
const oscSystem = new ImplicitLagrangianSystem(
  quadraticLagrangian([osc.m], [osc.k]),
  unconstrainedDistribution(1),
);

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

const grid = (t0: number, t1: number, steps: number): number[] =>
  Array.from({ length: steps + 1 }, (_, k) => t0 + ((t1 - t0) * k) / steps);

function expectDefect(f: () => unknown, defect: NonRegularSystemError['defect']): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(NonRegularSystemError);
  expect((caught as NonRegularSystemError).defect).toBe(defect);
}

// ---------------------------------------------------------------------------------------------

describe('residuals (6.3) and (6.4) vanish on closed-form solutions', () => {
  it('rolling disk (spec 002 §4.1): all parts ≤ 1e-10, μ as printed', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), (t) => {
        const s = diskExact(t);
        expect(residualMaxNorm(diskSystem.residual(s.q, s.v, s.p, s.v, s.pdot))).toBeLessThan(
          1e-10,
        );
        expect(
          residualMaxNorm(diskSystem.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
        ).toBeLessThan(1e-10);
        expect(maxDiff(diskSystem.multipliers(s.q, s.v, s.p, s.pdot), s.mu)).toBeLessThan(1e-10);
        expect(Math.abs(diskSystem.constraintForcePower(s.q, s.v, s.mu))).toBeLessThan(1e-12);
        expect(Math.abs(diskSystem.energy(s.q, s.v, s.p) - s.energy)).toBeLessThan(1e-12);
        // (6.2): (X, 𝔇L) ∈ D_Δ via inducedDiracStructure(Δ).containsLocal, base point p = ∂L/∂v
        expect(diskSystem.isSolutionPoint(s.q, s.v, s.p, s.v, s.pdot)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('a wrong ṗ is detected: the dynamics part is the Δ-component of the error', () => {
    const s = diskExact(1.3);
    const bad = Float64Array.from(s.pdot);
    bad[3] = bad[3]! + 1e-3; // a torque about the vertical axis is not a constraint force
    expect(maxDiff(diskSystem.residual(s.q, s.v, s.p, s.v, bad).dynamics, [1e-3, 0])).toBeLessThan(
      1e-12,
    );
    expect(diskSystem.isSolutionPoint(s.q, s.v, s.p, s.v, bad)).toBe(false);
    const pBad = Float64Array.from(s.p);
    pBad[2] = pBad[2]! + 1e-6; // off the Legendre graph: base points of X and 𝔇L differ
    expect(diskSystem.isSolutionPoint(s.q, s.v, pBad, s.v, s.pdot)).toBe(false);
  });

  it('4-port L-C circuit (spec 002 §4.2 item 4): residuals and μ1 = q_C1/C1 + q_C2/C2, μ2 = −q_C1/C1 to 1e-10', () => {
    for (const t of grid(0, 7, 28)) {
      const s = lcExact(t);
      expect(residualMaxNorm(lcSystem.residual(s.q, s.v, s.p, s.v, s.pdot))).toBeLessThan(1e-10);
      expect(
        residualMaxNorm(lcSystem.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
      ).toBeLessThan(1e-10);
      expect(maxDiff(lcSystem.multipliers(s.q, s.v, s.p, s.pdot), s.mu)).toBeLessThan(1e-10);
      expect(lcSystem.isSolutionPoint(s.q, s.v, s.p, s.v, s.pdot)).toBe(true);
    }
  });

  it('single LC loop (μ = q_C/C) and harmonic oscillator to 1e-10', () => {
    for (const t of grid(0, 5, 20)) {
      const s = lc1Exact(t, 0.3, 0.2, -0.4);
      expect(
        residualMaxNorm(lc1System.residualWithMultipliers(s.q, s.v, s.p, s.mu, s.v, s.pdot)),
      ).toBeLessThan(1e-10);
      const w = Math.sqrt(osc.k / osc.m);
      const q = Float64Array.of(0.3 * Math.cos(w * t));
      const v = Float64Array.of(-0.3 * w * Math.sin(w * t));
      const pdot = Float64Array.of(-osc.m * 0.3 * w * w * Math.cos(w * t));
      const r = oscSystem.residual(q, v, Float64Array.of(osc.m * v[0]!), v, pdot);
      expect(r.constraint.length).toBe(0);
      expect(residualMaxNorm(r)).toBeLessThan(1e-10);
    }
  });
});

describe('regularity', () => {
  it('names the defects: dependent rows, singular GᵀMG', () => {
    const s = diskExact(0);
    expect(diskSystem.checkRegular(s.q, s.v)).toMatchObject({
      rankA: 2,
      r: 2,
      rankConstrainedMass: 2,
      defect: undefined,
    });
    const dep = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R, true));
    expect(dep.regularity(s.q, s.v)).toMatchObject({
      m: 3,
      rankA: 2,
      defect: 'rank-deficient-constraints',
    });
    expectDefect(() => dep.checkRegular(s.q, s.v), 'rank-deficient-constraints');
    // spec 002 §4.2 item 7: GᵀMG = L[[1, 1], [1, 1]] is singular for the 4-port circuit
    expect(lcSystem.regularity(lcQ0, lcV0)).toMatchObject({
      rankA: 2,
      r: 2,
      rankConstrainedMass: 1,
    });
    expectDefect(() => lcSystem.checkRegular(lcQ0, lcV0), 'singular-constrained-mass');
    // … but not for the single loop, although its L is degenerate too
    expect(
      lc1System.regularity(Float64Array.of(0, 0), Float64Array.of(1, 1)).defect,
    ).toBeUndefined();
  });

  it('the solvers of the regular case refuse non-regular systems', () => {
    const s = diskExact(0);
    const dep = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R, true));
    expectDefect(
      () => integrateIndexReduced(dep, { q0: s.q, v0: s.v }, 1),
      'rank-deficient-constraints',
    );
    expectDefect(
      () => integrateIndexReduced(lcSystem, { q0: lcQ0, v0: lcV0 }, 1),
      'singular-constrained-mass',
    );
    expectDefect(
      () => integrateNullSpace(lcSystem, { q0: lcQ0, u0: [0.1, 0.2] }, 1),
      'singular-constrained-mass',
    );
    const lcDep = new ImplicitLagrangianSystem(
      lcLagrangian,
      constantDistribution([...kcl, [1, 1, -2, 1]]),
    );
    expectDefect(() => constraintAlgorithm(lcDep), 'rank-deficient-constraints');
  });
});

describe('(a) index reduction', () => {
  const T = 10;
  const tEval = grid(0, T, 40);
  const s0 = diskExact(0);
  const sol = integrateIndexReduced(diskSystem, { q0: s0.q, v0: s0.v }, T, { tEval });

  it('reproduces the rolling-disk closed form over T = 10 to 1e-8, μ included', () => {
    let err = 0;
    let muErr = 0;
    for (let k = 0; k < sol.count; k++) {
      const s = diskExact(sol.t[k]!);
      err = Math.max(
        err,
        maxDiff(sol.qAt(k), s.q),
        maxDiff(sol.vAt(k), s.v),
        maxDiff(sol.pAt(k), s.p),
      );
      muErr = Math.max(muErr, maxDiff(sol.muAt(k), s.mu));
    }
    expect(err).toBeLessThan(1e-8);
    expect(muErr).toBeLessThan(1e-8);
  });

  it('conserves energy (1e-10 relative), keeps |A v| ≤ 1e-9, constraint forces do no work', () => {
    const E = s0.energy;
    expect(Math.abs(sol.energy[0]! - E)).toBeLessThan(1e-14);
    expect(sol.energyDrift / E).toBeLessThan(1e-10);
    expect(sol.constraintDrift.velocity).toBeLessThan(1e-9);
    expect(sol.constraintDrift.position).toBeUndefined();
    for (let k = 0; k < sol.count; k++) {
      expect(
        Math.abs(diskSystem.constraintForcePower(sol.qAt(k), sol.vAt(k), sol.muAt(k))),
      ).toBeLessThan(1e-10);
    }
  });

  it('p_θ, p_φ are constant and the contact point stays on its circle of radius R|Ω/ω|', () => {
    const { R } = disk;
    const { x0, y0, ph0, Om, om } = diskInit;
    const rad = Math.abs((R * Om) / om);
    const cx = x0 - ((R * Om) / om) * Math.sin(ph0);
    const cy = y0 + ((R * Om) / om) * Math.cos(ph0);
    for (let k = 0; k < sol.count; k++) {
      const q = sol.qAt(k);
      const p = sol.pAt(k);
      expect(Math.abs(p[2]! - disk.I * Om)).toBeLessThan(1e-9);
      expect(Math.abs(p[3]! - disk.J * om)).toBeLessThan(1e-9);
      expect(Math.abs(Math.hypot(q[0]! - cx, q[1]! - cy) - rad)).toBeLessThan(1e-8);
    }
  });

  it('initializes consistently: v0 is projected onto Δ(q0)', () => {
    const v0 = Float64Array.from(s0.v);
    v0[0] = v0[0]! + 0.1;
    v0[1] = v0[1]! - 0.05;
    const out = integrateIndexReduced(diskSystem, { q0: s0.q, v0 }, 1, { samples: 3 });
    expect(out.velocityResidual[0]!).toBeLessThan(1e-14);
    expect(out.initialCorrection).toBeGreaterThan(0.05);
    expect(out.initialCorrection).toBeLessThan(Math.hypot(0.1, 0.05) + 1e-15);
  });

  it('pendulum (holonomic): position drift is reported and removed by projection', () => {
    const mass = 1.5;
    const g = 9.81;
    const l = 0.8;
    const pend = new ImplicitLagrangianSystem(
      mechanicalLagrangian({
        n: 2,
        mass: diag([mass, mass]),
        potential: {
          dim: 2,
          V: (q) => mass * g * q[1]!,
          gradV: (out) => {
            out[0] = 0;
            out[1] = mass * g;
            return out;
          },
        },
      }),
      {
        n: 2,
        m: 1,
        A: (out, q) => {
          out[0] = q[0]!;
          out[1] = q[1]!;
          return out;
        },
        Adot: (out, _q, v) => {
          out[0] = v[0]!;
          out[1] = v[1]!;
          return out;
        },
      },
    );
    const phi = {
      k: 1,
      phi: (out: Float64Array, q: Float64Array) => {
        out[0] = q[0]! ** 2 + q[1]! ** 2 - l * l;
      },
      jacobian: (out: Float64Array, q: Float64Array) => {
        out[0] = 2 * q[0]!;
        out[1] = 2 * q[1]!;
      },
    };
    const th = 1.2;
    const init = { q0: [l * Math.sin(th), -l * Math.cos(th)], v0: [0, 0] };
    const free = integrateIndexReduced(pend, init, 20, {
      samples: 201,
      positionConstraint: phi,
      rtol: 1e-9,
      atol: 1e-11,
    });
    const proj = integrateIndexReduced(pend, init, 20, {
      samples: 201,
      positionConstraint: phi,
      rtol: 1e-9,
      atol: 1e-11,
      project: true,
    });
    const dFree = free.constraintDrift.position!;
    const dProj = proj.constraintDrift.position!;
    expect(dFree).toBeGreaterThan(0);
    expect(dFree).toBeLessThan(1e-6);
    expect(dProj).toBeLessThan(1e-14);
    expect(proj.constraintDrift.velocity).toBeLessThan(1e-14);
    expect(proj.energyDrift).toBeLessThan(1e-7 * mass * g * l);
    // spec 001 §4: μ = m(g y − |v|²)/(x² + y²)
    for (let k = 0; k < proj.count; k++) {
      const q = proj.qAt(k);
      const v = proj.vAt(k);
      const lam = (mass * (g * q[1]! - v[0]! ** 2 - v[1]! ** 2)) / (q[0]! ** 2 + q[1]! ** 2);
      expect(Math.abs(proj.muAt(k)[0]! - lam)).toBeLessThan(1e-9 * mass * g);
    }
  });

  it('single LC loop: regular on Δ although L is degenerate; ω = 1/√(LC) = 2 (1e-8)', () => {
    const out = integrateIndexReduced(lc1System, { q0: [0.3, 0.2], v0: [-0.4, -0.4] }, 10, {
      tEval: grid(0, 10, 50),
    });
    let err = 0;
    for (let k = 0; k < out.count; k++) {
      const s = lc1Exact(out.t[k]!, 0.3, 0.2, -0.4);
      err = Math.max(
        err,
        maxDiff(out.qAt(k), s.q),
        maxDiff(out.vAt(k), s.v),
        maxDiff(out.muAt(k), s.mu),
      );
    }
    expect(err).toBeLessThan(1e-8);
    // Tellegen (2.1): e = Aᵀμ, f = v: Σ e_k f_k = 0
    for (let k = 0; k < out.count; k++) {
      const mu = out.muAt(k)[0]!;
      const v = out.vAt(k);
      expect(Math.abs(-mu * v[0]! + mu * v[1]!)).toBeLessThan(1e-10);
    }
  });

  it('harmonic oscillator (Δ = TQ): q = q0 cos ωt, ω = √(k/m), to 1e-9', () => {
    const out = integrateIndexReduced(oscSystem, { q0: [0.3], v0: [0] }, 10, { samples: 51 });
    const w = Math.sqrt(osc.k / osc.m);
    for (let k = 0; k < out.count; k++)
      expect(Math.abs(out.q[k]! - 0.3 * Math.cos(w * out.t[k]!))).toBeLessThan(1e-9);
    expect(out.mu.length).toBe(0);
  });
});

describe('(b) null space / quasi-velocities', () => {
  it('agrees with index reduction on the rolling disk to 1e-8 (q, v, p, μ)', () => {
    const T = 10;
    const tEval = grid(0, T, 40);
    const s0 = diskExact(0);
    const a = integrateIndexReduced(diskSystem, { q0: s0.q, v0: s0.v }, T, { tEval });
    const b = integrateNullSpace(diskSystem, { q0: s0.q, u0: [diskInit.om, diskInit.Om] }, T, {
      tEval,
    });
    expect(b.r).toBe(2);
    expect(maxDiff(a.q, b.q)).toBeLessThan(1e-8);
    expect(maxDiff(a.v, b.v)).toBeLessThan(1e-8);
    expect(maxDiff(a.p, b.p)).toBeLessThan(1e-8);
    expect(maxDiff(a.mu, b.mu)).toBeLessThan(1e-8);
    expect(b.constraintDrift.velocity).toBeLessThan(1e-14); // A G u = 0 exactly
    expect(b.energyDrift / s0.energy).toBeLessThan(1e-10);
    for (let k = 0; k < b.count; k++) {
      expect(Math.abs(b.u[2 * k]! - diskInit.om)).toBeLessThan(1e-9);
      expect(Math.abs(b.u[2 * k + 1]! - diskInit.Om)).toBeLessThan(1e-9);
    }
  });

  it('without Delta.G: the projected basis (I − A⁺A)G₀ and differenced Ġ still match (1e-8)', () => {
    const T = 5;
    const tEval = grid(0, T, 20);
    const s0 = diskExact(0);
    const { G: _drop, ...noBasis } = rolling(disk.R);
    const sys = new ImplicitLagrangianSystem(diskLagrangian, noBasis);
    const { G, r } = sys.basis(s0.q);
    expect(r).toBe(2);
    // coordinates of v0 in the orthonormal G₀
    const u0 = [0, 0];
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < 4; i++) u0[c] = u0[c]! + G[i * 2 + c]! * s0.v[i]!;
    const b = integrateNullSpace(sys, { q0: s0.q, u0 }, T, { tEval });
    let err = 0;
    for (let k = 0; k < b.count; k++) {
      const s = diskExact(b.t[k]!);
      err = Math.max(err, maxDiff(b.qAt(k), s.q), maxDiff(b.vAt(k), s.v), maxDiff(b.muAt(k), s.mu));
    }
    expect(err).toBeLessThan(1e-8);
  });
});

describe('(c) constraint algorithm for degenerate linear-quadratic systems', () => {
  const alg = constraintAlgorithm(lcSystem);

  it('4-port circuit: primary p_C1 = p_C2 = p_C3 = 0', () => {
    const n = 4;
    expect(alg.primaryCount).toBe(3);
    const span = new Float64Array(3 * 3); // components of each row on (p_C1, p_C2, p_C3)
    for (let c = 0; c < 3; c++) {
      const row = alg.primary.subarray(c * 2 * n, (c + 1) * 2 * n);
      for (let j = 0; j < n; j++) expect(Math.abs(row[j]!)).toBeLessThan(1e-14); // no q part (S = 0)
      expect(Math.abs(row[n]!)).toBeLessThan(1e-14); // no p_L part
      for (let j = 0; j < 3; j++) span[c * 3 + j] = row[n + 1 + j]!;
    }
    // the three rows span {p_C}: |det| = 1 for orthonormal rows
    const d =
      span[0]! * (span[4]! * span[8]! - span[5]! * span[7]!) -
      span[1]! * (span[3]! * span[8]! - span[5]! * span[6]!) +
      span[2]! * (span[3]! * span[7]! - span[4]! * span[6]!);
    expect(Math.abs(Math.abs(d) - 1)).toBeLessThan(1e-12);
  });

  it('discovers the secondary constraint q_C1/C1 = q_C3/C3: one row ∝ (0, 1/C1, 0, −1/C3) (1e-12)', () => {
    expect(alg.stageDimensions).toEqual([6, 5, 4]);
    expect(alg.secondaryStages).toBe(2);
    expect(alg.positionConstraintCount).toBe(1);
    const want = [0, 1 / lc.C1, 0, -1 / lc.C3];
    const nw = Math.hypot(...want);
    let dot = 0;
    for (let j = 0; j < 4; j++) dot += (alg.positionConstraints[j]! * want[j]!) / nw;
    expect(Math.abs(Math.abs(dot) - 1)).toBeLessThan(1e-12);
    // velocity level: the two KCL rows and the hidden f_C1/C1 = f_C3/C3
    expect(alg.velocityConstraintCount).toBe(3);
    const V = alg.velocityConstraints;
    for (const w of [...kcl, want]) {
      const wn = Math.hypot(...w);
      let proj = 0;
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let j = 0; j < 4; j++) s += V[c * 4 + j]! * w[j]!;
        proj += (s / wn) ** 2;
      }
      expect(Math.abs(proj - 1)).toBeLessThan(1e-12);
    }
    expect(alg.dimension).toBe(4);
    expect(alg.constraints.length).toBe((8 - 4) * 8);
  });

  it('finds ω_LC = √((1/L)(1/C2 + 1/(C1 + C3))) = 2.0118695404… (1e-10)', () => {
    expect(Math.abs(omegaLC - 2.0118695404)).toBeLessThan(1e-9);
    expect(alg.frequencies.length).toBe(1);
    expect(Math.abs(alg.frequencies[0]! - omegaLC)).toBeLessThan(1e-10 * omegaLC);
  });

  it('is unit-invariant: the same circuit in mH / µF (× 1e-3, 1e-6) gives ω × 1e4/…, same constraints', () => {
    const sL = 1e-3;
    const sC = 1e-6;
    const sys = new ImplicitLagrangianSystem(
      quadraticLagrangian(
        diag([lc.L * sL, 0, 0, 0]),
        diag([0, 1 / (lc.C1 * sC), 1 / (lc.C2 * sC), 1 / (lc.C3 * sC)]),
      ),
      constantDistribution(kcl),
    );
    const a = constraintAlgorithm(sys);
    expect(a.stageDimensions).toEqual([6, 5, 4]);
    expect(Math.abs(a.frequencies[0]! - omegaLC / Math.sqrt(sL * sC))).toBeLessThan(
      1e-10 * (omegaLC / Math.sqrt(sL * sC)),
    );
  });

  it('integrateDegenerate reproduces the closed form of spec 002 §4.2 (expm 1e-10, DOPRI5 1e-8)', () => {
    const T = 20;
    const tEval = grid(0, T, 80);
    const ex = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, T, { tEval });
    const dp = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, T, {
      tEval,
      method: 'dopri5',
      algorithm: alg,
    });
    expect(ex.initialCorrection).toBeLessThan(1e-14);
    for (const [sol, tol] of [
      [ex, 1e-10],
      [dp, 1e-8],
    ] as const) {
      let err = 0;
      for (let k = 0; k < sol.count; k++) {
        const s = lcExact(sol.t[k]!);
        err = Math.max(
          err,
          maxDiff(sol.qAt(k), s.q),
          maxDiff(sol.vAt(k), s.v),
          maxDiff(sol.pAt(k), s.p),
          maxDiff(sol.muAt(k), s.mu),
        );
      }
      expect(err).toBeLessThan(tol);
    }
    // energy ½Lf_L² + V, the secondary constraint, KCL
    expect(ex.energyDrift).toBeLessThan(1e-12);
    expect(ex.constraintDrift.position!).toBeLessThan(1e-12);
    expect(ex.constraintDrift.velocity).toBeLessThan(1e-12);
  });

  it('along the solution: capacitor and inductor laws, Tellegen Σ e_k f_k = 0 (1e-10), zero constraint power', () => {
    const sol = integrateDegenerate(lcSystem, { q0: lcQ0, v0: lcV0 }, 20, {
      samples: 81,
      algorithm: alg,
    });
    for (let k = 0; k < sol.count; k++) {
      const q = sol.qAt(k);
      const f = sol.vAt(k);
      const [m1, m2] = sol.muAt(k);
      const e = [-m1!, -m2!, m1! + m2!, -m2!]; // e = Aᵀμ ∈ Δ° (KVL)
      // e_Ck = q_Ck/Ck, e_L = L ḟ_L = −(q_C1/C1 + q_C2/C2)
      expect(Math.abs(e[1]! - q[1]! / lc.C1)).toBeLessThan(1e-10);
      expect(Math.abs(e[2]! - q[2]! / lc.C2)).toBeLessThan(1e-10);
      expect(Math.abs(e[3]! - q[3]! / lc.C3)).toBeLessThan(1e-10);
      expect(Math.abs(e[0]! + q[1]! / lc.C1 + q[2]! / lc.C2)).toBeLessThan(1e-10);
      let tellegen = 0;
      for (let i = 0; i < 4; i++) tellegen += e[i]! * f[i]!;
      expect(Math.abs(tellegen)).toBeLessThan(1e-10);
      expect(Math.abs(lcSystem.constraintForcePower(q, f, sol.muAt(k)))).toBeLessThan(1e-10);
    }
  });

  it('projects inconsistent initial data onto the constraint subspace', () => {
    const q0 = Float64Array.of(0.2, 0.1, 0.1, 0.05); // q_C1/C1 ≠ q_C3/C3
    const sol = integrateDegenerate(lcSystem, { q0, v0: [0.5, 0, 0.5, 0] }, 5, {
      samples: 21,
      algorithm: alg,
    });
    expect(sol.initialCorrection).toBeGreaterThan(1e-2);
    const q = sol.qAt(0);
    expect(Math.abs(q[1]! / lc.C1 - q[3]! / lc.C3)).toBeLessThan(1e-12);
    expect(sol.constraintDrift.position!).toBeLessThan(1e-12);
    expect(sol.energyDrift).toBeLessThan(1e-12);
  });

  it('single LC loop and harmonic oscillator: no secondary constraints, ω = 2 (1e-12)', () => {
    const a1 = constraintAlgorithm(lc1System);
    expect(a1.stageDimensions).toEqual([3]);
    expect(a1.primaryCount).toBe(1); // p_C = 0
    expect(Math.abs(a1.primary[2]!)).toBeLessThan(1e-14);
    expect(Math.abs(Math.abs(a1.primary[3]!) - 1)).toBeLessThan(1e-14);
    expect(a1.positionConstraintCount).toBe(0);
    expect(Math.abs(a1.frequencies[0]! - 2)).toBeLessThan(1e-12);
    const a2 = constraintAlgorithm(oscSystem);
    expect(a2.stageDimensions).toEqual([2]);
    expect(a2.primaryCount).toBe(0);
    expect(Math.abs(a2.frequencies[0]! - 2)).toBeLessThan(1e-12);
  });

  it('traditor (spec 002 §4.3): primary p = Sq, first-order rotation at rate 1/κ (1e-10)', () => {
    const kappa = 0.8;
    const S = [0, -kappa / 2, kappa / 2, 0];
    const trad = new ImplicitLagrangianSystem(
      quadraticLagrangian([0, 0, 0, 0], diag([1, 1]), S),
      unconstrainedDistribution(2),
    );
    const a = constraintAlgorithm(trad);
    expect(a.primaryCount).toBe(2);
    // the rows annihilate (q, Sq) for every q: P = graph α, α(q) = Sq
    for (const q of [
      [1, 0],
      [0, 1],
    ]) {
      const Sq = [S[0]! * q[0]! + S[1]! * q[1]!, S[2]! * q[0]! + S[3]! * q[1]!];
      for (let c = 0; c < 2; c++) {
        const row = a.primary.subarray(c * 4, c * 4 + 4);
        expect(
          Math.abs(row[0]! * q[0]! + row[1]! * q[1]! + row[2]! * Sq[0]! + row[3]! * Sq[1]!),
        ).toBeLessThan(1e-14);
      }
    }
    expect(a.dimension).toBe(2);
    expect(Math.abs(a.frequencies[0]! - 1 / kappa)).toBeLessThan(1e-12);
    const sol = integrateDegenerate(trad, { q0: [1, 0], v0: [0, 1 / kappa] }, 10, {
      samples: 41,
      algorithm: a,
    });
    expect(sol.initialCorrection).toBeLessThan(1e-14);
    for (let k = 0; k < sol.count; k++) {
      const t = sol.t[k]!;
      expect(maxDiff(sol.qAt(k), [Math.cos(t / kappa), Math.sin(t / kappa)])).toBeLessThan(1e-10);
    }
    expect(sol.energyDrift).toBeLessThan(1e-12); // E = V
  });

  it('rejects gauge freedom (undetermined-dynamics) and non-linear-quadratic systems (DomainError)', () => {
    const gauge = new ImplicitLagrangianSystem(
      quadraticLagrangian(diag([1, 0]), diag([4, 0])),
      unconstrainedDistribution(2),
    );
    expectDefect(() => constraintAlgorithm(gauge), 'undetermined-dynamics');
    expect(() => constraintAlgorithm(diskSystem)).toThrow(DomainError);
  });
});

describe('cross-check with the examples module (its own Lagrangian objects)', () => {
  it('rolling disk with a potential: index reduction = null space = the hand-reduced ODE (1e-8)', () => {
    const ex = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15, a: 0.4, b: 0.3, c: 0.2 });
    const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
    const init = { x: 0.1, y: -0.2, theta: 0.3, phi: 0.4, thetaDot: 1.3, phiDot: 0.7 };
    const y0 = ex.reducedInitialState(init);
    const s0 = ex.stateFromReduced(y0);
    const tEval = grid(0, 8, 32);
    const ref = integrateDopri5(ex.reducedRhs, y0, 0, 8, { rtol: 1e-12, atol: 1e-14, tEval });
    const a = integrateIndexReduced(sys, { q0: s0.q, v0: s0.v }, 8, { tEval });
    const b = integrateNullSpace(sys, { q0: s0.q, u0: [s0.v[3]!, s0.v[2]!] }, 8, { tEval });
    let err = 0;
    for (let k = 0; k < a.count; k++) {
      const s = ex.stateFromReduced(ref.sample('y', k));
      for (const sol of [a, b]) {
        err = Math.max(
          err,
          maxDiff(sol.qAt(k), s.q),
          maxDiff(sol.vAt(k), s.v),
          maxDiff(sol.muAt(k), s.mu),
        );
      }
    }
    expect(err).toBeLessThan(1e-8);
    expect(a.energyDrift).toBeLessThan(1e-10);
    expect(b.energyDrift).toBeLessThan(1e-10);
  });

  it('4-port circuit through the probed (non-quadratic-object) Lagrangian: constraints, ω_LC, closed form (1e-10)', () => {
    const ex = lcCircuit4();
    const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
    const a = constraintAlgorithm(sys);
    expect(a.stageDimensions).toEqual([6, 5, 4]);
    expect(Math.abs(a.frequencies[0]! - ex.omegaLC)).toBeLessThan(1e-10 * ex.omegaLC);
    const s0 = ex.exactSolution(0);
    const sol = integrateDegenerate(sys, { q0: s0.q, v0: s0.v }, 15, { samples: 61, algorithm: a });
    let err = 0;
    for (let k = 0; k < sol.count; k++) {
      const s = ex.exactSolution(sol.t[k]!);
      err = Math.max(
        err,
        maxDiff(sol.qAt(k), s.q),
        maxDiff(sol.vAt(k), s.v),
        maxDiff(sol.muAt(k), s.mu),
      );
      expect(Math.abs(ex.secondaryConstraint(sol.qAt(k)))).toBeLessThan(1e-12);
    }
    expect(err).toBeLessThan(1e-10);
  });

  it('single LC loop, harmonic oscillator, traditor: frequencies and trajectories (1e-10)', () => {
    for (const ex of [simpleLC(), harmonicOscillator({ m: 2, k: 8 }), traditor({ kappa: 0.8 })]) {
      const sys = new ImplicitLagrangianSystem(ex.lagrangian, ex.distribution);
      const a = constraintAlgorithm(sys);
      expect(Math.abs(a.frequencies[0]! - ex.omega)).toBeLessThan(1e-10 * ex.omega);
      const s0 = ex.exactSolution(0);
      const sol = integrateDegenerate(sys, { q0: s0.q, v0: s0.v }, 10, {
        samples: 41,
        algorithm: a,
      });
      let err = 0;
      for (let k = 0; k < sol.count; k++) {
        const s = ex.exactSolution(sol.t[k]!);
        err = Math.max(
          err,
          maxDiff(sol.qAt(k), s.q),
          maxDiff(sol.vAt(k), s.v),
          maxDiff(sol.pAt(k), s.p),
        );
        expect(sys.isSolutionPoint(s.q, s.v, s.p, s.qdot, s.pdot)).toBe(true);
      }
      expect(err).toBeLessThan(1e-10);
    }
  });
});
