import { NewtonDivergedError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { ImplicitLagrangianSystem } from '../src/implicitSystem.js';
import { integrateIndexReduced } from '../src/indexReduction.js';
import { mechanicalLagrangian } from '../src/lagrangian.js';
import { diag } from './fixtures.js';
import {
  disk,
  diskExact,
  diskInit,
  diskSystem,
  grid,
  lc1Exact,
  lc1System,
  maxDiff,
  osc,
  oscSystem,
} from './implicitFixtures.js';

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
        maxDiff(sol.sample('q', k), s.q),
        maxDiff(sol.sample('v', k), s.v),
        maxDiff(sol.sample('p', k), s.p),
      );
      muErr = Math.max(muErr, maxDiff(sol.sample('mu', k), s.mu));
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
        Math.abs(
          diskSystem.constraintForcePower(
            sol.sample('q', k),
            sol.sample('v', k),
            sol.sample('mu', k),
          ),
        ),
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
      const q = sol.sample('q', k);
      const p = sol.sample('p', k);
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
      const q = proj.sample('q', k);
      const v = proj.sample('v', k);
      const lam = (mass * (g * q[1]! - v[0]! ** 2 - v[1]! ** 2)) / (q[0]! ** 2 + q[1]! ** 2);
      expect(Math.abs(proj.sample('mu', k)[0]! - lam)).toBeLessThan(1e-9 * mass * g);
    }
    // a position constraint without a root (x² + y² + l² = 0): the projection of q0 throws a
    // typed error with its residual history instead of returning an inconsistent start
    const impossible = {
      k: 1,
      phi: (out: Float64Array, q: Float64Array) => {
        out[0] = q[0]! ** 2 + q[1]! ** 2 + l * l;
      },
      jacobian: phi.jacobian,
    };
    let caught: unknown;
    try {
      integrateIndexReduced(pend, init, 1, { positionConstraint: impossible });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NewtonDivergedError);
    const e = caught as NewtonDivergedError;
    expect(e.iterations).toBe(20);
    expect(e.residualNorm).toBeGreaterThanOrEqual(l * l);
    expect(e.history).toHaveLength(20);
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
        maxDiff(out.sample('q', k), s.q),
        maxDiff(out.sample('v', k), s.v),
        maxDiff(out.sample('mu', k), s.mu),
      );
    }
    expect(err).toBeLessThan(1e-8);
    // Tellegen (2.1): e = Aᵀμ, f = v: Σ e_k f_k = 0
    for (let k = 0; k < out.count; k++) {
      const mu = out.sample('mu', k)[0]!;
      const v = out.sample('v', k);
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
