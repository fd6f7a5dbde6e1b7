import {
  DimensionError,
  DomainError,
  type GeomechError,
  integrateDopri5,
  type OdeRhs,
  type Potential,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContactLagrangianSpec,
  contactHamiltonianVectorField,
  contactLagrangian,
  energy,
  type GenericContactLagrangian,
  hamiltonianFromLagrangian,
  herglotzAction,
  herglotzVectorField,
  inverseLegendre,
  legendre,
} from '../src/lagrangian.js';
import {
  mechanicalContactHamiltonian,
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
} from '../src/mechanical.js';
import type { ContactLagrangian } from '../src/types.js';

const TIGHT = { rtol: 1e-12, atol: 1e-14 } as const;

const f64 = (...x: number[]) => Float64Array.from(x);
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>, len = a.length): number => {
  let m = 0;
  for (let i = 0; i < len; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};
const coord = (lim = 2) => fc.double({ min: -lim, max: lim, noNaN: true });

// ---------------------------------------------------------------------------------------------
// Test Lagrangians
// ---------------------------------------------------------------------------------------------

/** Spec 004 §5.5: L = v²/2 − (1 − cos q) + γz − αz²/2 + εzv. */
const G55 = -0.2;
const A55 = 0.3;
const E55 = 0.15;
const nonlinear55: GenericContactLagrangian = (o, q, v, z) => {
  const q0 = q[0]!;
  const v0 = v[0]!;
  return o.add(
    o.sub(o.scale(o.mul(v0, v0), 0.5), o.sub(o.const(1), o.cos(q0))),
    o.add(o.scale(z, G55), o.add(o.scale(o.mul(z, z), -A55 / 2), o.scale(o.mul(z, v0), E55))),
  );
};
/** Analytic derivatives of the §5.5 Lagrangian: [Lq, Lv, Lz, Lqq, Lvq, Lvv, Lqz, Lvz, Lzz]. */
const analytic55 = (q: number, v: number, z: number) => [
  -Math.sin(q),
  v + E55 * z,
  G55 - A55 * z + E55 * v,
  -Math.cos(q),
  0,
  1,
  0,
  E55,
  -A55,
];

/**
 * A 2-D coupled Lagrangian whose L_vq is not symmetric (checks the (i, j) = ∂²L/∂vᵢ∂qⱼ layout):
 * L = ½(1 + q0²)v0² + ½v1² + q0 v1 + 0.3 sin(q1) v0 + γz − αz²/2 + ε z v0 q1.
 */
const coupled2: GenericContactLagrangian = (o, q, v, z) => {
  const [q0, q1] = [q[0]!, q[1]!];
  const [v0, v1] = [v[0]!, v[1]!];
  const kin = o.add(
    o.scale(o.mul(o.add(o.const(1), o.mul(q0, q0)), o.mul(v0, v0)), 0.5),
    o.scale(o.mul(v1, v1), 0.5),
  );
  const gyro = o.add(o.mul(q0, v1), o.scale(o.mul(o.sin(q1), v0), 0.3));
  const zpart = o.add(
    o.add(o.scale(z, G55), o.scale(o.mul(z, z), -A55 / 2)),
    o.scale(o.mul(z, o.mul(v0, q1)), E55),
  );
  return o.add(kin, o.add(gyro, zpart));
};
const analyticCoupled2 = (q: Float64Array, v: Float64Array, z: number) => {
  const [q0, q1] = [q[0]!, q[1]!];
  const [v0, v1] = [v[0]!, v[1]!];
  return {
    Lq: [q0 * v0 * v0 + v1, 0.3 * Math.cos(q1) * v0 + E55 * z * v0],
    Lv: [(1 + q0 * q0) * v0 + 0.3 * Math.sin(q1) + E55 * z * q1, v1 + q0],
    Lz: G55 - A55 * z + E55 * v0 * q1,
    Lqq: [v0 * v0, 0, 0, -0.3 * Math.sin(q1) * v0],
    Lvq: [2 * q0 * v0, 0.3 * Math.cos(q1) + E55 * z, 1, 0],
    Lvv: [1 + q0 * q0, 0, 0, 1],
    Lqz: [0, E55 * v0],
    Lvz: [E55 * q1, 0],
    Lzz: -A55,
  };
};

/** L = v²/2 + v⁴/12 − q²/2 + γz + εzv: L_v is nonlinear in v (W = 1 + v² > 0). */
const quartic: GenericContactLagrangian = (o, [q], [v], z) =>
  o.add(
    o.add(o.scale(o.mul(v!, v!), 0.5), o.scale(o.pow(v!, 4), 1 / 12)),
    o.add(o.scale(o.mul(q!, q!), -0.5), o.add(o.scale(z, G55), o.scale(o.mul(z, v!), E55))),
  );

/** The 2-D central potential of spec 004 §5.6, V = |q|⁴/8 − 1/√(1 + |q|²), gradient only. */
const centralPotential: Potential = {
  dim: 2,
  V(q) {
    const r2 = q[0]! ** 2 + q[1]! ** 2;
    return (r2 * r2) / 8 - 1 / Math.sqrt(1 + r2);
  },
  gradV(out, q) {
    const r2 = q[0]! ** 2 + q[1]! ** 2;
    const c = r2 / 2 + (1 + r2) ** -1.5;
    out[0] = c * q[0]!;
    out[1] = c * q[1]!;
    return out;
  },
};
const centralGeneric =
  (gamma: number): GenericContactLagrangian =>
  (o, q, v, z) => {
    const r2 = o.add(o.mul(q[0]!, q[0]!), o.mul(q[1]!, q[1]!));
    const V = o.sub(
      o.scale(o.mul(r2, r2), 1 / 8),
      o.div(o.const(1), o.sqrt(o.add(o.const(1), r2))),
    );
    const T = o.scale(o.add(o.mul(v[0]!, v[0]!), o.mul(v[1]!, v[1]!)), 0.5);
    return o.add(o.sub(T, V), o.scale(z, gamma));
  };
const pendulumGeneric =
  (gamma: number): GenericContactLagrangian =>
  (o, [q], [v], z) =>
    o.add(o.sub(o.scale(o.mul(v!, v!), 0.5), o.sub(o.const(1), o.cos(q!))), o.scale(z, gamma));

/** All nine derivatives of a Lagrangian at a point, flattened in a fixed order. */
function allDerivatives(L: ContactLagrangian, q: Float64Array, v: Float64Array, z: number) {
  const n = L.n;
  return {
    first: [
      ...L.Lq(new Float64Array(n), q, v, z),
      ...L.Lv(new Float64Array(n), q, v, z),
      L.Lz(q, v, z),
    ],
    second: [
      ...L.Lqq(new Float64Array(n * n), q, v, z),
      ...L.Lvq(new Float64Array(n * n), q, v, z),
      ...L.Lvv(new Float64Array(n * n), q, v, z),
      ...L.Lqz(new Float64Array(n), q, v, z),
      ...L.Lvz(new Float64Array(n), q, v, z),
      L.Lzz(q, v, z),
    ],
  };
}

// ---------------------------------------------------------------------------------------------

describe('contactLagrangian: dual-number derivatives (spec 004 §4.2, §10)', () => {
  it('[D] mechanical pendulum, γ = −0.05: dual vs analytic, 1e-12 (first) / 1e-7 (second)', () => {
    const dual = contactLagrangian({ n: 1, L: pendulumGeneric(-0.05) });
    const exact = mechanicalContactLagrangian(pendulumPotential(1, 1), -0.05);
    fc.assert(
      fc.property(coord(4), coord(), coord(), (q, v, z) => {
        const a = allDerivatives(dual, f64(q), f64(v), z);
        const b = allDerivatives(exact, f64(q), f64(v), z);
        expect(Math.abs(dual.L(f64(q), f64(v), z) - exact.L(f64(q), f64(v), z))).toBeLessThan(
          1e-14,
        );
        expect(maxAbsDiff(a.first, b.first)).toBeLessThan(1e-12);
        expect(maxAbsDiff(a.second, b.second)).toBeLessThan(1e-7);
      }),
      { numRuns: 100 },
    );
  });

  it('[D] mechanical 2-D central potential (no Hessian: L_qq by differenced ∇V) vs dual', () => {
    const gamma = -0.3;
    const dual = contactLagrangian({ n: 2, L: centralGeneric(gamma) });
    const mech = mechanicalContactLagrangian(centralPotential, gamma);
    fc.assert(
      fc.property(coord(), coord(), coord(), coord(), coord(), (q0, q1, v0, v1, z) => {
        const q = f64(q0, q1);
        const v = f64(v0, v1);
        const a = allDerivatives(dual, q, v, z);
        const b = allDerivatives(mech, q, v, z);
        expect(maxAbsDiff(a.first, b.first)).toBeLessThan(1e-12);
        // both sides carry a central-difference error of ~1e-10 relative
        expect(maxAbsDiff(a.second, b.second)).toBeLessThan(1e-7);
      }),
      { numRuns: 50 },
    );
  });

  it('[D] spec §5.5 nonlinear z-dependent L (γ=−0.2, α=0.3, ε=0.15): 1e-12 / 1e-7', () => {
    const lag = contactLagrangian({ n: 1, L: nonlinear55 });
    fc.assert(
      fc.property(coord(4), coord(), coord(), (q, v, z) => {
        const d = allDerivatives(lag, f64(q), f64(v), z);
        const ex = analytic55(q, v, z);
        expect(maxAbsDiff(d.first, ex.slice(0, 3))).toBeLessThan(1e-12);
        expect(maxAbsDiff(d.second, ex.slice(3))).toBeLessThan(1e-7);
      }),
      { numRuns: 100 },
    );
  });

  it('[D] 2-D coupled L: block layout, L_vq(i, j) = ∂²L/∂vᵢ∂qⱼ (not symmetric)', () => {
    const lag = contactLagrangian({ n: 2, L: coupled2 });
    fc.assert(
      fc.property(coord(), coord(), coord(), coord(), coord(), (q0, q1, v0, v1, z) => {
        const q = f64(q0, q1);
        const v = f64(v0, v1);
        const d = allDerivatives(lag, q, v, z);
        const ex = analyticCoupled2(q, v, z);
        expect(maxAbsDiff(d.first, [...ex.Lq, ...ex.Lv, ex.Lz])).toBeLessThan(1e-12);
        const second = [...ex.Lqq, ...ex.Lvq, ...ex.Lvv, ...ex.Lqz, ...ex.Lvz, ex.Lzz];
        expect(maxAbsDiff(d.second, second)).toBeLessThan(1e-7);
      }),
      { numRuns: 50 },
    );
  });

  it('[S] one dual pass serves L_q, L_v, L_z at a point; the Hessian costs 2(2n+1) passes', () => {
    let dualPasses = 0;
    const counted: GenericContactLagrangian = (o, q, v, z, t) => {
      if (typeof o.const(0) !== 'number') dualPasses++;
      return coupled2(o, q, v, z, t);
    };
    const lag = contactLagrangian({ n: 2, L: counted });
    const q = f64(0.1, 0.2);
    const v = f64(0.3, -0.4);
    lag.Lq(new Float64Array(2), q, v, 0.5);
    lag.Lv(new Float64Array(2), q, v, 0.5);
    lag.Lz(q, v, 0.5);
    expect(dualPasses).toBe(1);
    lag.Lvv(new Float64Array(4), q, v, 0.5);
    lag.Lvq(new Float64Array(4), q, v, 0.5);
    lag.Lvz(new Float64Array(2), q, v, 0.5);
    expect(dualPasses).toBe(1 + 2 * 5);
    v[0] = 0.31; // a new point invalidates both caches
    lag.Lz(q, v, 0.5);
    expect(dualPasses).toBe(12);
  });

  it('[S] analytic overrides are used when given', () => {
    let calls = 0;
    const spec: ContactLagrangianSpec = {
      n: 1,
      L: nonlinear55,
      Lvv(out) {
        calls++;
        out[0] = 42; // deliberately wrong, to see that it is used
        return out;
      },
      Lz: () => 7,
    };
    const lag = contactLagrangian(spec);
    expect(lag.Lvv(new Float64Array(1), f64(0.1), f64(0.2), 0.3)[0]).toBe(42);
    expect(lag.Lz(f64(0.1), f64(0.2), 0.3)).toBe(7);
    expect(calls).toBe(1);
    // the others still come from the duals
    expect(lag.Lvz(new Float64Array(1), f64(0.1), f64(0.2), 0.3)[0]).toBeCloseTo(E55, 9);
  });

  it('rejects a bad dimension', () => {
    expect(() => contactLagrangian({ n: 0, L: nonlinear55 })).toThrow(DimensionError);
    expect(() => contactLagrangian({ n: 1.5, L: nonlinear55 })).toThrow(DimensionError);
  });
});

describe('mechanicalContactLagrangian as a ContactLagrangian (spec 004 §7.2)', () => {
  it('[D] analytic derivatives of L = ½|v|² − V + γz', () => {
    const lag = mechanicalContactLagrangian(quadraticPotential(2, 2), -0.05);
    const q = f64(1, -2);
    const v = f64(0.5, 3);
    expect(lag.n).toBe(2);
    expect(lag.gamma).toBe(-0.05);
    expect(lag.L(q, v, 4)).toBeCloseTo(0.5 * 9.25 - 5 - 0.2, 14);
    expect([...lag.Lq(new Float64Array(2), q, v, 4)]).toEqual([-2, 4]);
    expect([...lag.Lv(new Float64Array(2), q, v, 4)]).toEqual([0.5, 3]);
    expect(lag.Lz(q, v, 4)).toBe(-0.05);
    expect([...lag.Lqq(new Float64Array(4), q, v, 4)]).toEqual([-2, -0, -0, -2]);
    expect([...lag.Lvq(new Float64Array(4).fill(9), q, v, 4)]).toEqual([0, 0, 0, 0]);
    expect([...lag.Lvv(new Float64Array(4).fill(9), q, v, 4)]).toEqual([1, 0, 0, 1]);
    expect([...lag.Lqz(new Float64Array(2).fill(9), q, v, 4)]).toEqual([0, 0]);
    expect([...lag.Lvz(new Float64Array(2).fill(9), q, v, 4)]).toEqual([0, 0]);
    expect(lag.Lzz(q, v, 4)).toBe(0);
  });

  it('rejects a non-finite γ and a bad dimension', () => {
    expect(() => mechanicalContactLagrangian(quadraticPotential(1), Number.NaN)).toThrow(
      DomainError,
    );
    expect(() => mechanicalContactLagrangian({ ...quadraticPotential(1), dim: 0 }, -0.1)).toThrow(
      DimensionError,
    );
  });
});

describe('energy, Legendre map and contact Hamiltonian (spec 004 (16), (20))', () => {
  const cases: [string, ContactLagrangian][] = [
    ['§5.5 nonlinear', contactLagrangian({ n: 1, L: nonlinear55 })],
    ['quartic in v', contactLagrangian({ n: 1, L: quartic })],
    ['2-D coupled', contactLagrangian({ n: 2, L: coupled2 })],
  ];

  for (const [label, lag] of cases) {
    const n = lag.n;
    const point = fc.tuple(
      fc.array(coord(), { minLength: n, maxLength: n }),
      fc.array(coord(), { minLength: n, maxLength: n }),
      coord(),
    );

    it(`[P] FL⁻¹ ∘ FL = id and FL ∘ FL⁻¹ = id, ${label} (1e-12)`, () => {
      fc.assert(
        fc.property(point, ([qa, va, z]) => {
          const q = Float64Array.from(qa);
          const v = Float64Array.from(va);
          const p = legendre(new Float64Array(n), lag, q, v, z);
          const vBack = inverseLegendre(new Float64Array(n), lag, q, p, z);
          expect(maxAbsDiff(vBack, v)).toBeLessThan(1e-12);
          // here v plays the momentum: FL(FL⁻¹(p)) = p
          const w = inverseLegendre(new Float64Array(n), lag, q, v, z);
          expect(maxAbsDiff(legendre(new Float64Array(n), lag, q, w, z), v)).toBeLessThan(1e-12);
        }),
        { numRuns: 50 },
      );
    });

    it(`[P] E_L = H ∘ FL, ∂H/∂p = v, ∂H/∂q = −L_q, ∂H/∂z = −L_z, ${label} (1e-12)`, () => {
      const H = hamiltonianFromLagrangian(lag);
      fc.assert(
        fc.property(point, ([qa, va, z]) => {
          const q = Float64Array.from(qa);
          const v = Float64Array.from(va);
          const p = legendre(new Float64Array(n), lag, q, v, z);
          expect(Math.abs(H.H(q, p, z) - energy(lag, q, v, z))).toBeLessThan(1e-12);
          expect(maxAbsDiff(H.dHdp(new Float64Array(n), q, p, z), v)).toBeLessThan(1e-12);
          const lq = lag.Lq(new Float64Array(n), q, v, z);
          const hq = H.dHdq(new Float64Array(n), q, p, z);
          for (let i = 0; i < n; i++) expect(Math.abs(hq[i]! + lq[i]!)).toBeLessThan(1e-12);
          expect(Math.abs(H.dHdz(q, p, z) + lag.Lz(q, v, z))).toBeLessThan(1e-12);
        }),
        { numRuns: 50 },
      );
    });

    it(`[D] ∂H/∂q, ∂H/∂p, ∂H/∂z match central differences of H, ${label} (1e-7)`, () => {
      const H = hamiltonianFromLagrangian(lag);
      const q = Float64Array.from({ length: n }, (_, i) => 0.3 - 0.4 * i);
      const p = Float64Array.from({ length: n }, (_, i) => 0.7 + 0.2 * i);
      const z = 0.4;
      const d = 1e-6;
      const hq = H.dHdq(new Float64Array(n), q, p, z);
      const hp = H.dHdp(new Float64Array(n), q, p, z);
      for (let i = 0; i < n; i++) {
        for (const [x, analyticValue] of [
          [q, hq[i]!],
          [p, hp[i]!],
        ] as const) {
          const x0 = x[i]!;
          x[i] = x0 + d;
          const up = H.H(q, p, z);
          x[i] = x0 - d;
          const dn = H.H(q, p, z);
          x[i] = x0;
          expect(Math.abs((up - dn) / (2 * d) - analyticValue)).toBeLessThan(1e-7);
        }
      }
      const fdz = (H.H(q, p, z + d) - H.H(q, p, z - d)) / (2 * d);
      expect(Math.abs(fdz - H.dHdz(q, p, z))).toBeLessThan(1e-7);
    });
  }

  it('[D] energy of the mechanical L: ½|v|² + V − γz; the mechanical H agrees with the generic one', () => {
    const lag = mechanicalContactLagrangian(quadraticPotential(1), -0.05);
    expect(energy(lag, f64(1), f64(2), 3)).toBeCloseTo(2.65, 14);
    const Hg = hamiltonianFromLagrangian(lag);
    const Hm = mechanicalContactHamiltonian(lag);
    expect(Hg.H(f64(1), f64(2), 3)).toBeCloseTo(Hm.H(f64(1), f64(2), 3), 14);
    expect(Hg.dHdz(f64(1), f64(2), 3)).toBe(0.05);
    expect(Hm.dHdz(f64(1), f64(2), 3)).toBe(0.05);
  });

  it('inverseLegendre throws a typed error when ∂L/∂v = p has no solution', () => {
    // L = −cos v: ∂L/∂v = sin v never reaches p = 2
    const lag = contactLagrangian({ n: 1, L: (o, _q, [v]) => o.neg(o.cos(v!)) });
    let err: unknown;
    try {
      inverseLegendre(new Float64Array(1), lag, f64(0), f64(2), 0, [0.3], { maxIterations: 30 });
    } catch (e) {
      err = e;
    }
    expect((err as GeomechError).name).toMatch(/NewtonDivergedError|SingularJacobianError/);
  });
});

describe('herglotzVectorField (spec 004 §4.2 [D])', () => {
  const potentials: [string, Potential, GenericContactLagrangian][] = [
    ['pendulum', pendulumPotential(1, 1), pendulumGeneric(-0.05)],
    ['2-D central potential', centralPotential, centralGeneric(-0.05)],
  ];
  for (const [label, V, generic] of potentials) {
    it(`[D] mechanical ${label}: q̈ = −∇V + γq̇, ż = L, analytic and dual-built L (1e-14)`, () => {
      const n = V.dim;
      const size = 2 * n + 1;
      const mech = mechanicalContactLagrangian(V, -0.05);
      const fields = [
        herglotzVectorField(mech),
        herglotzVectorField(contactLagrangian({ n, L: generic })),
      ];
      const grad = new Float64Array(n);
      fc.assert(
        fc.property(fc.array(coord(), { minLength: size, maxLength: size }), (ya) => {
          const y = Float64Array.from(ya);
          const q = y.slice(0, n);
          const v = y.slice(n, 2 * n);
          V.gradV(grad, q);
          const expected = new Float64Array(size);
          for (let i = 0; i < n; i++) {
            expected[i] = v[i]!;
            expected[n + i] = -grad[i]! + -0.05 * v[i]!;
          }
          expected[2 * n] = mech.L(q, v, y[2 * n]!);
          for (const f of fields) {
            const out = new Float64Array(size);
            f(out, 0, y);
            expect(maxAbsDiff(out, expected)).toBeLessThan(1e-14);
          }
        }),
        { numRuns: 50 },
      );
    });
  }

  it('[P] (11) dissipation: along a DOPRI5 solution of the damped oscillator, H(t) = H(0)e^{γt} (1e-9)', () => {
    const gamma = -0.3;
    const lag = mechanicalContactLagrangian(quadraticPotential(1), gamma);
    const ts = Array.from({ length: 21 }, (_, k) => 0.5 * k);
    const sol = integrateDopri5(herglotzVectorField(lag), [1, 1, 0], 0, 10, {
      ...TIGHT,
      tEval: ts,
    });
    const E0 = energy(lag, f64(1), f64(1), 0);
    expect(E0).toBeCloseTo(1, 14);
    let worst = 0;
    for (let k = 0; k < sol.count; k++) {
      const y = sol.sample('y', k);
      const E = energy(lag, y.subarray(0, 1), y.subarray(1, 2), y[2]!);
      const expected = E0 * Math.exp(gamma * sol.t[k]!);
      worst = Math.max(worst, Math.abs(E - expected) / expected);
    }
    expect(worst).toBeLessThan(1e-9);
    // and the decay is real: H(10) = e^{−3} H(0)
    const yEnd = sol.sample('y', sol.count - 1);
    expect(energy(lag, yEnd.subarray(0, 1), yEnd.subarray(1, 2), yEnd[2]!)).toBeLessThan(0.05);
  });

  it('[D] (11) for the §5.5 L: E(t) = E(0)·exp(∫₀ᵗ L_z) along the Herglotz flow (1e-9)', () => {
    const lag = contactLagrangian({ n: 1, L: nonlinear55 });
    const f = herglotzVectorField(lag);
    const q = new Float64Array(1);
    const v = new Float64Array(1);
    // augmented with ḃ = L_z
    const aug: OdeRhs = (out, t, y) => {
      f(out, t, y);
      q[0] = y[0]!;
      v[0] = y[1]!;
      out[3] = lag.Lz(q, v, y[2]!);
    };
    const y0 = [0.7, 0.4, 0.2, 0];
    const ts = Array.from({ length: 11 }, (_, k) => k);
    const sol = integrateDopri5(aug, y0, 0, 10, { ...TIGHT, tEval: ts });
    const E0 = energy(lag, f64(0.7), f64(0.4), 0.2);
    for (let k = 0; k < sol.count; k++) {
      const y = sol.sample('y', k);
      const E = energy(lag, y.subarray(0, 1), y.subarray(1, 2), y[2]!);
      expect(Math.abs(E - E0 * Math.exp(y[3]!))).toBeLessThan(1e-9 * Math.abs(E0));
    }
  });

  it('throws DomainError where W = ∂²L/∂v∂v is singular (L not regular, (12))', () => {
    const lag = contactLagrangian({
      n: 1,
      L: (o, [q], [v], z) => o.add(o.mul(q!, v!), o.scale(z, -0.1)),
    });
    expect(() => herglotzVectorField(lag)(new Float64Array(3), 0, f64(1, 1, 0))).toThrow(
      DomainError,
    );
    expect(() => herglotzVectorField(lag)(new Float64Array(3), 0, f64(1, 1))).toThrow(
      DimensionError,
    );
  });
});

describe('contactHamiltonianVectorField (spec 004 §4.1 [D])', () => {
  const cases: [string, ContactLagrangian][] = [
    ['mechanical pendulum', mechanicalContactLagrangian(pendulumPotential(1, 1), -0.05)],
    ['§5.5 nonlinear', contactLagrangian({ n: 1, L: nonlinear55 })],
    ['quartic in v', contactLagrangian({ n: 1, L: quartic })],
    ['2-D coupled', contactLagrangian({ n: 2, L: coupled2 })],
  ];
  for (const [label, lag] of cases) {
    it(`[P] FL_* ξ_L = X_H: the Herglotz and contact Hamiltonian fields agree, ${label} (1e-12)`, () => {
      const n = lag.n;
      const size = 2 * n + 1;
      const xiL = herglotzVectorField(lag);
      const XH = contactHamiltonianVectorField(hamiltonianFromLagrangian(lag));
      const Wq = new Float64Array(n * n);
      const W = new Float64Array(n * n);
      const lvz = new Float64Array(n);
      fc.assert(
        fc.property(fc.array(coord(1), { minLength: size, maxLength: size }), (ya) => {
          const yL = Float64Array.from(ya);
          const q = yL.slice(0, n);
          const v = yL.slice(n, 2 * n);
          const z = yL[2 * n]!;
          const fL = new Float64Array(size);
          xiL(fL, 0, yL);
          const yH = new Float64Array(size);
          yH.set(q);
          yH.set(legendre(new Float64Array(n), lag, q, v, z), n);
          yH[2 * n] = z;
          const fH = new Float64Array(size);
          XH(fH, 0, yH);
          // push ξ_L forward by FL: ṗ = L_vq·q̇ + L_vv·v̇ + L_vz·ż
          lag.Lvq(Wq, q, v, z);
          lag.Lvv(W, q, v, z);
          lag.Lvz(lvz, q, v, z);
          const pushed = new Float64Array(size);
          for (let i = 0; i < n; i++) {
            pushed[i] = fL[i]!;
            let s = lvz[i]! * fL[2 * n]!;
            for (let j = 0; j < n; j++) s += Wq[i * n + j]! * fL[j]! + W[i * n + j]! * fL[n + j]!;
            pushed[n + i] = s;
          }
          pushed[2 * n] = fL[2 * n]!;
          expect(maxAbsDiff(fH, pushed)).toBeLessThan(1e-12);
        }),
        { numRuns: 50 },
      );
    });
  }

  it('[D] (11) along X_H of the damped oscillator: H(t) = H(0)e^{γt} (1e-9)', () => {
    const gamma = -0.3;
    const lag = mechanicalContactLagrangian(quadraticPotential(1), gamma);
    const Hm = mechanicalContactHamiltonian(lag);
    const ts = Array.from({ length: 11 }, (_, k) => k);
    const sol = integrateDopri5(contactHamiltonianVectorField(Hm), [1, 1, 0], 0, 10, {
      ...TIGHT,
      tEval: ts,
    });
    for (let k = 0; k < sol.count; k++) {
      const y = sol.sample('y', k);
      const H = Hm.H(y.subarray(0, 1), y.subarray(1, 2), y[2]!);
      expect(Math.abs(H - Math.exp(gamma * sol.t[k]!)) / H).toBeLessThan(1e-9);
    }
  });

  it('[D] the Herglotz and Hamiltonian flows of the §5.5 L correspond through FL (1e-9)', () => {
    const lag = contactLagrangian({ n: 1, L: nonlinear55 });
    const ts = [0, 1, 2, 3, 4, 5];
    const solL = integrateDopri5(herglotzVectorField(lag), [0.7, 0.4, 0.2], 0, 5, {
      ...TIGHT,
      tEval: ts,
    });
    const p0 = legendre(new Float64Array(1), lag, f64(0.7), f64(0.4), 0.2)[0]!;
    const solH = integrateDopri5(
      contactHamiltonianVectorField(hamiltonianFromLagrangian(lag)),
      [0.7, p0, 0.2],
      0,
      5,
      { ...TIGHT, tEval: ts },
    );
    for (let k = 0; k < ts.length; k++) {
      const yL = solL.sample('y', k);
      const yH = solH.sample('y', k);
      const p = legendre(new Float64Array(1), lag, yL.subarray(0, 1), yL.subarray(1, 2), yL[2]!);
      expect(Math.abs(yH[0]! - yL[0]!)).toBeLessThan(1e-9);
      expect(Math.abs(yH[1]! - p[0]!)).toBeLessThan(1e-9);
      expect(Math.abs(yH[2]! - yL[2]!)).toBeLessThan(1e-9);
    }
  });
});

describe('herglotzAction (spec 004 (23)–(29), Thm 2.1)', () => {
  it('[D] free particle on the line c(t) = t: z(1) = (e^γ − 1)/(2γ) for z0 = 0 (1e-12)', () => {
    const gamma = -0.05;
    const lag = mechanicalContactLagrangian(quadraticPotential(0), gamma);
    const line = {
      q: (t: number, o: Float64Array) => {
        o[0] = t;
      },
      v: (_t: number, o: Float64Array) => {
        o[0] = 1;
      },
    };
    const A = herglotzAction(lag, line, 0, 1);
    expect(Math.abs(A - (Math.exp(gamma) - 1) / (2 * gamma))).toBeLessThan(1e-12);
    expect(herglotzAction(lag, line, 0.7, 0)).toBe(0.7);
    expect(() => herglotzAction(lag, line, 0, -1)).toThrow(DomainError);
    expect(() => herglotzAction(lag, line, Number.NaN, 1)).toThrow(DomainError);
  });

  it('[P] (29) ∂z(1)/∂z0 = exp(∫₀¹ L_z) by finite differences of the action, §5.5 L (1e-6)', () => {
    const lag = contactLagrangian({ n: 1, L: nonlinear55 });
    const curve = {
      q: (t: number, o: Float64Array) => {
        o[0] = 0.3 + 0.5 * Math.sin(2 * t);
      },
      v: (t: number, o: Float64Array) => {
        o[0] = Math.cos(2 * t);
      },
    };
    const qb = new Float64Array(1);
    const vb = new Float64Array(1);
    const weights: number[] = [];
    for (const z0 of [-0.5, 0.2, 1]) {
      // z and b = ∫ L_z along the curve
      const sol = integrateDopri5(
        (out, t, y) => {
          curve.q(t, qb);
          curve.v(t, vb);
          out[0] = lag.L(qb, vb, y[0]!);
          out[1] = lag.Lz(qb, vb, y[0]!);
        },
        [z0, 0],
        0,
        1,
        TIGHT,
      );
      const yEnd = sol.sample('y', sol.count - 1);
      expect(Math.abs(herglotzAction(lag, curve, z0, 1) - yEnd[0]!)).toBeLessThan(1e-12);
      const d = 1e-4;
      const fd =
        (herglotzAction(lag, curve, z0 + d, 1) - herglotzAction(lag, curve, z0 - d, 1)) / (2 * d);
      expect(Math.abs(fd - Math.exp(yEnd[1]!))).toBeLessThan(1e-6);
      weights.push(fd);
    }
    // L_z = γ − αz + εv depends on z, so the weight depends on z0 (unlike the mechanical e^{γT})
    expect(Math.max(...weights) - Math.min(...weights)).toBeGreaterThan(0.1);
  });

  it('[P] (29) mechanical case: ∂z(T)/∂z0 = e^{γT} (1e-6)', () => {
    const gamma = -0.05;
    const lag = mechanicalContactLagrangian(quadraticPotential(1), gamma);
    const curve = {
      q: (t: number, o: Float64Array) => {
        o[0] = Math.cos(t);
      },
      v: (t: number, o: Float64Array) => {
        o[0] = -Math.sin(t);
      },
    };
    const d = 1e-4;
    const fd =
      (herglotzAction(lag, curve, 0.5 + d, 3) - herglotzAction(lag, curve, 0.5 - d, 3)) / (2 * d);
    expect(Math.abs(fd - Math.exp(gamma * 3))).toBeLessThan(1e-6);
  });

  /** Central-difference first variation d/dε A(c + εη, z0) at ε = 0, η(0) = η(1) = 0. */
  function firstVariation(
    lag: ContactLagrangian,
    c: (t: number) => [number, number],
    eta: (t: number) => [number, number],
    z0: number,
  ): number {
    const action = (eps: number) =>
      herglotzAction(
        lag,
        {
          q: (t, o) => {
            o[0] = c(t)[0] + eps * eta(t)[0];
          },
          v: (t, o) => {
            o[0] = c(t)[1] + eps * eta(t)[1];
          },
        },
        z0,
        1,
      );
    const eps = 1e-4;
    return (action(eps) - action(-eps)) / (2 * eps);
  }
  const etas: [string, (t: number) => [number, number]][] = [
    ['sin πt', (t) => [Math.sin(Math.PI * t), Math.PI * Math.cos(Math.PI * t)]],
    ['t²(1 − t)', (t) => [t * t * (1 - t), 2 * t - 3 * t * t]],
    ['sin 2πt', (t) => [Math.sin(2 * Math.PI * t), 2 * Math.PI * Math.cos(2 * Math.PI * t)]],
  ];

  it('[P] Thm 2.1, damped oscillator: the first variation vanishes at the exact solution, not elsewhere', () => {
    const gamma = -0.5;
    const lag = mechanicalContactLagrangian(quadraticPotential(1), gamma);
    // exact solution of q̈ = −q + γq̇ with q(0) = 1, q̇(0) = 0.5
    const w = Math.sqrt(1 - (gamma * gamma) / 4);
    const B = (0.5 - gamma / 2) / w;
    const exact = (t: number): [number, number] => {
      const e = Math.exp((gamma * t) / 2);
      const c = Math.cos(w * t);
      const s = Math.sin(w * t);
      return [e * (c + B * s), e * ((gamma / 2) * (c + B * s) + w * (-s + B * c))];
    };
    // a non-solution with the same endpoints
    const other = (t: number): [number, number] => {
      const [q, v] = exact(t);
      return [q + 0.3 * t * (1 - t), v + 0.3 * (1 - 2 * t)];
    };
    for (const [, eta] of etas) {
      for (const z0 of [0, 0.8]) {
        expect(Math.abs(firstVariation(lag, exact, eta, z0))).toBeLessThan(1e-6);
        expect(Math.abs(firstVariation(lag, other, eta, z0))).toBeGreaterThan(1e-2);
      }
    }
  });

  it('[P] Thm 2.1, §5.5 L: stationary at a DOPRI5 Herglotz solution (dense output), not elsewhere', () => {
    const lag = contactLagrangian({ n: 1, L: nonlinear55 });
    const z0 = 0.2;
    const sol = integrateDopri5(herglotzVectorField(lag), [0.7, 0.4, z0], 0, 1, TIGHT);
    const buf = new Float64Array(3);
    const solution = (t: number): [number, number] => {
      sol.at(t, buf);
      return [buf[0]!, buf[1]!];
    };
    // the action of the solution is its own z(1)
    const zEnd = sol.sample('y', sol.count - 1)[2]!;
    const A = herglotzAction(
      lag,
      {
        q: (t, o) => {
          o[0] = solution(t)[0];
        },
        v: (t, o) => {
          o[0] = solution(t)[1];
        },
      },
      z0,
      1,
    );
    expect(Math.abs(A - zEnd)).toBeLessThan(1e-9);
    const other = (t: number): [number, number] => {
      const [q, v] = solution(t);
      return [q + 0.3 * Math.sin(Math.PI * t), v + 0.3 * Math.PI * Math.cos(Math.PI * t)];
    };
    for (const [, eta] of etas) {
      expect(Math.abs(firstVariation(lag, solution, eta, z0))).toBeLessThan(1e-6);
      expect(Math.abs(firstVariation(lag, other, eta, z0))).toBeGreaterThan(1e-2);
    }
  });
});
