import { integrateDopri5 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { indexReducedRhs, integrateConstrained } from '../src/comparators.js';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import { integrateDirac } from '../src/diracIntegrators.js';
import { angles, cartesian, l, mass } from './massMatrixFixtures.js';

// the spherical pendulum in Cartesian coordinates (M = m I, |q|² = l²) and in angles (θ, φ)
// without constraints (M(q) = m l² diag(1, sin²θ)), shared with the M(q) tests
const m = mass;

const toCartesian = (th: number, ph: number): number[] => [
  l * Math.sin(th) * Math.cos(ph),
  l * Math.sin(th) * Math.sin(ph),
  -l * Math.cos(th),
];

describe('configuration-dependent mass M(q): the spherical pendulum in angles vs in Cartesian coordinates', () => {
  const th0 = 0.9;
  const ph0 = 0.2;
  const thd0 = 0.3;
  const phd0 = 1.7;
  // Cartesian initial data: q0 = x(θ, φ), v0 = ∂x/∂θ θ̇ + ∂x/∂φ φ̇ (tangent to the sphere)
  const q0 = toCartesian(th0, ph0);
  const v0 = [
    l * (Math.cos(th0) * Math.cos(ph0) * thd0 - Math.sin(th0) * Math.sin(ph0) * phd0),
    l * (Math.cos(th0) * Math.sin(ph0) * thd0 + Math.sin(th0) * Math.cos(ph0) * phd0),
    l * Math.sin(th0) * thd0,
  ];
  const T = 2;
  it('DOPRI5 on both index-reduced ODEs gives the same motion (to 1e-9)', () => {
    const opts = { rtol: 1e-12, atol: 1e-14 };
    const a = integrateDopri5(indexReducedRhs(angles), [th0, ph0, thd0, phd0], 0, T, opts);
    const c = integrateDopri5(indexReducedRhs(cartesian), [...q0, ...v0], 0, T, opts);
    const ya = a.sample('y', a.count - 1);
    const yc = c.sample('y', c.count - 1);
    const x = toCartesian(ya[0]!, ya[1]!);
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - yc[i]!)).toBeLessThan(1e-9);
    // and the motion is not trivial
    expect(Math.abs(yc[0]! - q0[0]!)).toBeGreaterThan(0.05);
  });
  it('rk4 in angles (M(q), no constraint) vs RATTLE in Cartesian: within 2e-5 at h = 1e-3, energies agree', () => {
    const h = 1e-3;
    const steps = Math.round(T / h);
    const a = integrateConstrained(angles, 'rk4', { q0: [th0, ph0], v0: [thd0, phd0] }, h, steps);
    const c = integrateConstrained(cartesian, 'rattle', { q0, v0 }, h, steps);
    const qa = a.last('q');
    const x = toCartesian(qa[0]!, qa[1]!);
    const qc = c.last('q');
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - qc[i]!)).toBeLessThan(2e-5);
    // E = ½ vᵀM(q)v + V recorded with M(q); the same energy in both coordinates
    expect(Math.abs(a.energy[0]! - c.energy[0]!)).toBeLessThan(1e-12);
    expect(Math.abs(a.last('energy')[0]! - a.energy[0]!)).toBeLessThan(1e-9);
    // p = M(q) v
    const s0 = Math.sin(th0);
    expect(a.p[1]).toBeCloseTo(m * l * l * s0 * s0 * phd0, 14);
  });
});

describe('no constraints: a free particle in a uniform field', () => {
  const free: ConstrainedMechanicalSystem = {
    n: 2,
    m: 0,
    mass: Float64Array.of(2, 0.5),
    V: (q) => 3 * q[1]!,
    gradV: (out) => {
      out[0] = 0;
      out[1] = 3;
      return out;
    },
    phi: (out) => out,
    C: (out) => out,
    curvature: (out) => out,
  };
  // exact: x = x0 + vx t, y = y0 + vy t − (3/0.5) t²/2
  const exact = (t: number): number[] => [0.1 + 0.4 * t, -0.2 + 1.5 * t - 3 * t * t];
  const h = 0.01;
  const steps = 150;
  const T = h * steps;
  it('RATTLE (velocity Verlet without constraints) is exact on a quadratic V, to round-off', () => {
    const r = integrateConstrained(free, 'rattle', { q0: [0.1, -0.2], v0: [0.4, 1.5] }, h, steps);
    const q = r.last('q');
    const want = exact(T);
    // |y| ≈ 4.7 after 150 steps: round-off ≈ 150·ε·|y|
    for (let i = 0; i < 2; i++) expect(Math.abs(q[i]! - want[i]!)).toBeLessThan(1e-12);
    expect(r.lambda.length).toBe(0);
    expect(r.constraint.length).toBe(0);
  });
  it('Dirac-1 (symplectic Euler) and rk4 run with m = 0: rk4 exact, Dirac-1 within h·T·g/2', () => {
    const d = integrateDirac(free, 'dirac-1', { q0: [0.1, -0.2], v0: [0.4, 1.5] }, h, steps);
    const k = integrateConstrained(free, 'rk4', { q0: [0.1, -0.2], v0: [0.4, 1.5] }, h, steps);
    const want = exact(T);
    const qd = d.last('q');
    const qk = k.last('q');
    expect(Math.abs(qd[0]! - want[0]!)).toBeLessThan(1e-13);
    // symplectic Euler: y_N = exact − (g/2)·h·T with g = 6 (p-first kick, forward drift)
    expect(Math.abs(qd[1]! - (want[1]! - 3 * h * T))).toBeLessThan(1e-12);
    for (let i = 0; i < 2; i++) expect(Math.abs(qk[i]! - want[i]!)).toBeLessThan(1e-13);
  });
});
