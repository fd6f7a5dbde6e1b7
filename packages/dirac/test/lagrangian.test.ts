import { DimensionError, DomainError } from '@geomech/core';
import { relErr } from '@geomech/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  constrainedMass,
  distributionBasisAt,
  generalizedEnergy,
  inPrimaryConstraintSet,
  isDegenerate,
  isDegenerateOnDelta,
  isQuadraticLagrangian,
  lagrangianFromFunction,
  legendre,
  legendrePreimage,
  mechanicalLagrangian,
  quadraticLagrangian,
  velocityHessianRank,
} from '../src/lagrangian.js';
import type { Distribution, Lagrangian } from '../src/types.js';
import { constantDistribution, diag } from './fixtures.js';

const vec = (n: number, lo = -2, hi = 2) =>
  fc
    .array(fc.double({ min: lo, max: hi, noNaN: true }), { minLength: n, maxLength: n })
    .map((a) => Float64Array.from(a));

function derivatives(L: Lagrangian, q: Float64Array, v: Float64Array) {
  const n = L.n;
  return {
    L: L.L(q, v),
    dq: L.Lq(new Float64Array(n), q, v),
    dv: L.Lv(new Float64Array(n), q, v),
    M: L.Lvv(new Float64Array(n * n), q, v),
    N: L.Lvq(new Float64Array(n * n), q, v),
  };
}

// the 4-port L-C circuit and the rolling disk (spec 002 §4)
const lc = { L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 };
const lc4 = quadraticLagrangian(diag([lc.L, 0, 0, 0]), diag([0, 1 / lc.C1, 1 / lc.C2, 1 / lc.C3]));
const kcl = [
  [-1, 0, 1, 0],
  [0, -1, 1, -1],
];
const disk = { m: 2, I: 0.3, J: 0.15, R: 0.5 };
const diskL = mechanicalLagrangian({ n: 4, mass: diag([disk.m, disk.m, disk.I, disk.J]) });
const rolling: Distribution = {
  n: 4,
  m: 2,
  A: (out, q) => {
    out.set([1, 0, -disk.R * Math.cos(q[3]!), 0, 0, 1, -disk.R * Math.sin(q[3]!), 0]);
    return out;
  },
  Adot: (out, q, v) => {
    out.set([
      0,
      0,
      disk.R * Math.sin(q[3]!) * v[3]!,
      0,
      0,
      0,
      -disk.R * Math.cos(q[3]!) * v[3]!,
      0,
    ]);
    return out;
  },
};

describe('quadraticLagrangian and lagrangianFromFunction', () => {
  const n = 3;
  const M = [2, 0.3, 0, 0.3, 1, -0.2, 0, -0.2, 0.5];
  const K = [1, 0, 0.4, 0, 3, 0, 0.4, 0, 2];
  const S = [0, 0.5, -1, 0.2, 0, 0.3, 0.7, -0.1, 0];
  const quad = quadraticLagrangian(M, K, S);
  // the same L written generically: ½vᵀMv + vᵀSq − ½qᵀKq
  const generic = lagrangianFromFunction(n, (o, q, v) => {
    let s = o.const(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        s = o.add(s, o.scale(o.mul(v[i]!, v[j]!), 0.5 * M[i * n + j]!));
        s = o.add(s, o.scale(o.mul(v[i]!, q[j]!), S[i * n + j]!));
        s = o.sub(s, o.scale(o.mul(q[i]!, q[j]!), 0.5 * K[i * n + j]!));
      }
    }
    return s;
  });

  it('agree: L and first derivatives (dual numbers) to 1e-13, second (differences) to 1e-9', () => {
    fc.assert(
      fc.property(vec(n), vec(n), (q, v) => {
        const a = derivatives(quad, q, v);
        const b = derivatives(generic, q, v);
        expect(Math.abs(a.L - b.L)).toBeLessThan(1e-13 * Math.max(1, Math.abs(a.L)));
        expect(relErr(b.dq, a.dq)).toBeLessThan(1e-13);
        expect(relErr(b.dv, a.dv)).toBeLessThan(1e-13);
        expect(relErr(b.M, a.M)).toBeLessThan(1e-9);
        expect(relErr(b.N, a.N)).toBeLessThan(1e-9);
        expect(Array.from(a.M)).toEqual(M);
        expect(Array.from(a.N)).toEqual(S);
      }),
      { numRuns: 50 },
    );
    expect(isQuadraticLagrangian(quad)).toBe(true);
    expect(isQuadraticLagrangian(generic)).toBe(false);
  });

  it('validates its input', () => {
    expect(() => quadraticLagrangian([1, 2, 3])).toThrow(DimensionError);
    expect(() => quadraticLagrangian([1, 2, 3, 4])).toThrow(DomainError); // not symmetric
    expect(() => quadraticLagrangian([1, 0, 0, 1], [1, 0, 0])).toThrow(DimensionError);
    expect(() => lagrangianFromFunction(0, (o) => o.const(0))).toThrow(DimensionError);
  });
});

describe('mechanicalLagrangian L = ½vᵀM(q)v − V(q)', () => {
  // a particle in the plane in polar coordinates q = (r, ϑ): M = diag(m, m r²), V = −k/r + ε cos ϑ
  const m = 1.7;
  const k = 0.9;
  const eps = 0.2;
  const mass = (out: Float64Array, q: Float64Array) => {
    out.set([m, 0, 0, m * q[0]! * q[0]!]);
  };
  const potential = (q: Float64Array) => -k / q[0]! + eps * Math.cos(q[1]!);
  const gradV = (out: Float64Array, q: Float64Array) => {
    out[0] = k / (q[0]! * q[0]!);
    out[1] = -eps * Math.sin(q[1]!);
    return out;
  };
  const massDerivative = (out: Float64Array, q: Float64Array) => {
    out.fill(0);
    out[3] = 2 * m * q[0]!; // ∂M_11/∂r
  };
  const exact = mechanicalLagrangian({
    n: 2,
    mass,
    massDerivative,
    potential: { dim: 2, V: potential, gradV },
  });
  const differenced = mechanicalLagrangian({ n: 2, mass, potential });
  const generic = lagrangianFromFunction(2, (o, [r, th], [vr, vth]) =>
    o.add(
      o.scale(o.add(o.mul(vr!, vr!), o.mul(o.mul(r!, r!), o.mul(vth!, vth!))), 0.5 * m),
      o.sub(o.div(o.const(k), r!), o.scale(o.cos(th!), eps)),
    ),
  );
  const points = fc.tuple(
    fc.double({ min: 0.5, max: 3, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
    vec(2),
  );

  it('analytic derivatives match dual numbers (1e-13) and differences (1e-9)', () => {
    fc.assert(
      fc.property(points, ([r, th, v]) => {
        const q = Float64Array.of(r, th);
        const a = derivatives(exact, q, v);
        const b = derivatives(generic, q, v);
        expect(Math.abs(a.L - b.L)).toBeLessThan(1e-13 * Math.max(1, Math.abs(a.L)));
        expect(relErr(a.dq, b.dq)).toBeLessThan(1e-13);
        expect(relErr(a.dv, b.dv)).toBeLessThan(1e-13);
        expect(relErr(b.M, a.M)).toBeLessThan(1e-9);
        expect(relErr(b.N, a.N)).toBeLessThan(1e-9);
        // N_ij = Σ_l ∂M_il/∂qʲ vˡ: only N_10 = 2 m r v_ϑ
        expect(Math.abs(a.N[2]! - 2 * m * r * v[1]!)).toBeLessThan(
          1e-13 * Math.max(1, Math.abs(a.N[2]!)),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('differenced ∂M/∂q and ∇V (fourth order) agree with the analytic ones to 1e-10', () => {
    fc.assert(
      fc.property(points, ([r, th, v]) => {
        const q = Float64Array.of(r, th);
        const a = derivatives(exact, q, v);
        const c = derivatives(differenced, q, v);
        expect(relErr(c.dq, a.dq)).toBeLessThan(1e-10);
        expect(relErr(c.N, a.N)).toBeLessThan(1e-10);
      }),
      { numRuns: 50 },
    );
  });

  it('Legendre map and generalized energy (Prop 6.5): p = M(q)v, E = ½vᵀMv + V (1e-13)', () => {
    fc.assert(
      fc.property(points, ([r, th, v]) => {
        const q = Float64Array.of(r, th);
        const p = legendre(new Float64Array(2), exact, q, v);
        expect(relErr(p, [m * v[0]!, m * r * r * v[1]!])).toBeLessThan(1e-14);
        const T = 0.5 * m * (v[0]! ** 2 + r * r * v[1]! ** 2);
        const E = generalizedEnergy(exact, q, v, p);
        expect(Math.abs(E - (T + potential(q)))).toBeLessThan(1e-13 * Math.max(1, Math.abs(E)));
      }),
      { numRuns: 50 },
    );
  });

  it('validates its input', () => {
    expect(() => mechanicalLagrangian({ n: 2, mass: [1, 0, 0] })).toThrow(DimensionError);
    expect(() => mechanicalLagrangian({ n: 2, mass: [1, 1, 0, 1] })).toThrow(DomainError);
    const flat = { dim: 2, V: () => 0, gradV: (out: Float64Array) => out.fill(0) };
    expect(() => mechanicalLagrangian({ n: 1, mass: [1], potential: flat })).toThrow(
      DimensionError,
    );
  });
});

describe('degeneracy (spec 002 §4.2, §6 item 11)', () => {
  const q = Float64Array.of(0.2, 0.1, -0.3, 0.4);
  const f = Float64Array.of(0.5, 0.2, 0.5, 0.3);

  it('4-port circuit: rank ∂²L/∂f² = 1; GᵀMG = L[[1, 1], [1, 1]] in the loop basis g1, g2, singular', () => {
    expect(velocityHessianRank(lc4, q, f)).toBe(1);
    expect(isDegenerate(lc4, q, f)).toBe(true);
    const loops = constantDistribution(kcl, [1, 1, 1, 0, 1, 0, 0, 1]); // g1 = (1,1,1,0), g2 = (1,0,1,1) as columns
    const { GMG, r } = constrainedMass(lc4, loops, q, f);
    expect(r).toBe(2);
    expect(Array.from(GMG)).toEqual([lc.L, lc.L, lc.L, lc.L]);
    expect(isDegenerateOnDelta(lc4, loops, q, f)).toBe(true);
    expect(isDegenerateOnDelta(lc4, constantDistribution(kcl), q, f)).toBe(true); // orthonormal null space
  });

  it('single LC loop: degenerate on TQ, not on Δ; rolling disk: neither; traditor: rank 0', () => {
    const lc1 = quadraticLagrangian(diag([2, 0]), diag([0, 8]));
    const z2 = new Float64Array(2);
    expect(isDegenerate(lc1, z2, z2)).toBe(true);
    expect(isDegenerateOnDelta(lc1, constantDistribution([[-1, 1]]), z2, z2)).toBe(false);
    const z4 = new Float64Array(4);
    expect(isDegenerate(diskL, z4, z4)).toBe(false);
    expect(isDegenerateOnDelta(diskL, rolling, q, f)).toBe(false);
    const kappa = 0.8;
    const trad = lagrangianFromFunction(2, (o, [x, y], [vx, vy]) =>
      o.sub(
        o.scale(o.sub(o.mul(x!, vy!), o.mul(y!, vx!)), kappa / 2),
        o.scale(o.add(o.mul(x!, x!), o.mul(y!, y!)), 0.5),
      ),
    );
    expect(velocityHessianRank(trad, Float64Array.of(0.3, -1), Float64Array.of(2, 1))).toBe(0);
  });

  it('distributionBasisAt: Delta.G when given, else an orthonormal basis of ker A', () => {
    const { G, r } = distributionBasisAt(constantDistribution(kcl), q);
    expect(r).toBe(2);
    for (let a = 0; a < 2; a++) {
      for (let i = 0; i < 2; i++) {
        let Ag = 0;
        for (let k = 0; k < 4; k++) Ag += kcl[i]![k]! * G[k * 2 + a]!;
        expect(Math.abs(Ag)).toBeLessThan(1e-15);
      }
      for (let b = 0; b < 2; b++) {
        let g = 0;
        for (let k = 0; k < 4; k++) g += G[k * 2 + a]! * G[k * 2 + b]!;
        expect(Math.abs(g - (a === b ? 1 : 0))).toBeLessThan(1e-14);
      }
    }
  });
});

describe('primary constraint set P = 𝔽L(Δ) (Def 6.1)', () => {
  const q = Float64Array.of(0.2, 0.1, -0.3, 0.4);

  it('4-port circuit: P = {p_C1 = p_C2 = p_C3 = 0}', () => {
    const D = constantDistribution(kcl);
    expect(inPrimaryConstraintSet(lc4, D, q, [0.35, 0, 0, 0])).toBe(true);
    expect(inPrimaryConstraintSet(lc4, D, q, [-2, 0, 0, 0])).toBe(true);
    expect(inPrimaryConstraintSet(lc4, D, q, [0.35, 1e-3, 0, 0])).toBe(false);
    expect(inPrimaryConstraintSet(lc4, D, q, [0.35, 0, 0, -1e-3])).toBe(false);
    const pre = legendrePreimage(lc4, D, q, [0.35, 0, 0, 0]);
    expect(Math.abs(pre.v[0]! - 0.5)).toBeLessThan(1e-14); // f_L = p_L/L
  });

  it('rolling disk: p = Mv with v ∈ Δ(q) is in P, p = M·∂_x is not', () => {
    const phi = q[3]!;
    const v = [disk.R * Math.cos(phi) * 1.3, disk.R * Math.sin(phi) * 1.3, 1.3, -0.4];
    const p = [disk.m * v[0]!, disk.m * v[1]!, disk.I * v[2]!, disk.J * v[3]!];
    const pre = legendrePreimage(diskL, rolling, q, p);
    expect(pre.found).toBe(true);
    expect(relErr(pre.v, v)).toBeLessThan(1e-13);
    expect(inPrimaryConstraintSet(diskL, rolling, q, [disk.m, 0, 0, 0])).toBe(false);
  });

  it('non-quadratic L (relativistic particle, −√(1 − |v|²)) on Δ = {v_y = 0}: Gauss–Newton preimage', () => {
    const rel = lagrangianFromFunction(2, (o, _q, [vx, vy]) =>
      o.neg(o.sqrt(o.sub(o.const(1), o.add(o.mul(vx!, vx!), o.mul(vy!, vy!))))),
    );
    const D = constantDistribution([[0, 1]]);
    const z = new Float64Array(2);
    const px = 0.5 / Math.sqrt(0.75);
    const pre = legendrePreimage(rel, D, z, [px, 0]);
    expect(pre.found).toBe(true);
    expect(Math.abs(pre.v[0]! - 0.5)).toBeLessThan(1e-10);
    expect(Math.abs(pre.v[1]!)).toBeLessThan(1e-15);
    expect(inPrimaryConstraintSet(rel, D, z, [0.3, 0.3])).toBe(false);
  });
});
