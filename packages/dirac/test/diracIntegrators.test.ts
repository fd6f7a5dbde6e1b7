import { convergenceOrder, DomainError, integrateDopri5, SingularMatrixError } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConstrainedMechanicalSystem } from '../src/constrained.js';
import {
  DiracStepper,
  DiracWorkspace,
  diracMethods,
  diracSolve,
  integrateDirac,
} from '../src/diracIntegrators.js';
import { zieglerColumn } from '../src/holonomicModels.js';

/** Local pendulum (spec §2, §4): q = (x, y), C = [x, y] (ψ = ½dφ), V = m g y. */
function pendulumSys(mass = 1, g = 9.81, l = 1): ConstrainedMechanicalSystem {
  return {
    n: 2,
    m: 1,
    mass: Float64Array.of(mass, mass),
    V: (q) => mass * g * q[1]!,
    gradV: (out, _q) => {
      out[0] = 0;
      out[1] = mass * g;
      return out;
    },
    phi: (out, q) => {
      out[0] = q[0]! * q[0]! + q[1]! * q[1]! - l * l;
      return out;
    },
    C: (out, q) => {
      out[0] = q[0]!;
      out[1] = q[1]!;
      return out;
    },
    curvature: (out, _q, v) => {
      out[0] = v[0]! * v[0]! + v[1]! * v[1]!;
      return out;
    },
  };
}

/** Local corrected 2-link Ziegler column (spec §7.2 [D]): order (x1, y1, x2, y2). */
function zieglerSys(k: number, P: number, l1 = 1, l2 = 1, mass = 1): ConstrainedMechanicalSystem {
  const angles = (q: Float64Array): [number, number] => [
    Math.atan2(q[0]!, q[1]!),
    Math.atan2(q[2]! - q[0]!, q[3]! - q[1]!),
  ];
  return {
    n: 4,
    m: 2,
    mass: Float64Array.of(mass, mass, mass, mass),
    V: (q) => {
      const [t1, t2] = angles(q);
      return P * (q[1]! + q[3]!) + 0.5 * k * t1 * t1 + 0.5 * k * (t2 - t1) ** 2;
    },
    gradV: (out, q) => {
      const [t1, t2] = angles(q);
      const x1 = q[0]!;
      const y1 = q[1]!;
      const ex = q[2]! - x1;
      const ey = q[3]! - y1;
      const r1 = x1 * x1 + y1 * y1;
      const r2 = ex * ex + ey * ey;
      const V1 = k * (2 * t1 - t2);
      const V2 = k * (t2 - t1);
      out[0] = (V1 * y1) / r1 - (V2 * ey) / r2;
      out[1] = (-V1 * x1) / r1 + (V2 * ex) / r2 + P;
      out[2] = (V2 * ey) / r2;
      out[3] = (-V2 * ex) / r2 + P;
      return out;
    },
    phi: (out, q) => {
      const ex = q[2]! - q[0]!;
      const ey = q[3]! - q[1]!;
      out[0] = q[0]! ** 2 + q[1]! ** 2 - l1 * l1;
      out[1] = ex * ex + ey * ey - l2 * l2;
      return out;
    },
    C: (out, q) => {
      const ex = q[2]! - q[0]!;
      const ey = q[3]! - q[1]!;
      out.set([q[0]!, q[1]!, 0, 0, -ex, -ey, ex, ey]);
      return out;
    },
    curvature: (out, _q, v) => {
      const dx = v[2]! - v[0]!;
      const dy = v[3]! - v[1]!;
      out[0] = v[0]! ** 2 + v[1]! ** 2;
      out[1] = dx * dx + dy * dy;
      return out;
    },
  };
}

const G = 9.81;
const T0 = 2 * Math.PI * Math.sqrt(1 / G);
const th0 = Math.PI / 4;
const q0 = [Math.sin(th0), -Math.cos(th0)];
const zero2 = [0, 0];
const dot = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number) =>
  a[i]! * b[j]! + a[i + 1]! * b[j + 1]!;

/** §5.4 closed-form pendulum step (f = p − h m g e_y; λ = q·f/|q|²; q̃ = (f − λq)/m). */
function closedForm(q: number[], p: number[], h: number, mass: number) {
  const f = [p[0]!, p[1]! - h * mass * G];
  const lam = (q[0]! * f[0]! + q[1]! * f[1]!) / (q[0]! ** 2 + q[1]! ** 2);
  const qt = [(f[0]! - lam * q[0]!) / mass, (f[1]! - lam * q[1]!) / mass];
  return { lam, qt, pNext: [mass * qt[0]!, mass * qt[1]!] };
}

/** Index-reduced ODE (spec §6): M v̇ = −∇V + Cᵀλ_c, C v̇ + |v|² = 0 ⇒ λ_c = (q·∇V − m|v|²)/|q|². */
function pendulumReference(T: number, mass = 1): Float64Array {
  const sol = integrateDopri5(
    (out, _t, z) => {
      const r2 = z[0]! ** 2 + z[1]! ** 2;
      const v2 = z[2]! ** 2 + z[3]! ** 2;
      const lamC = (z[1]! * mass * G - mass * v2) / r2;
      out[0] = z[2]!;
      out[1] = z[3]!;
      out[2] = (lamC * z[0]!) / mass;
      out[3] = (-mass * G + lamC * z[1]!) / mass;
    },
    [q0[0]!, q0[1]!, 0, 0],
    0,
    T,
    { rtol: 1e-12, atol: 1e-14, tEval: [T] },
  );
  return sol.sample('y', 0).slice();
}

describe('diracSolve (§5.5) against the closed-form pendulum step (§5.4)', () => {
  it('agrees to 1e-12 and satisfies the five equations of (7)', () => {
    const mass = 1.7;
    const sys = pendulumSys(mass);
    const ws = new DiracWorkspace(sys);
    let seed = 3;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed / 2147483647) * 4 - 2;
    };
    for (let s = 0; s < 200; s++) {
      const q = [rnd(), rnd()];
      const p = [rnd(), rnd()];
      const h = 0.001 + Math.abs(rnd()) * 0.02;
      diracSolve(sys, ws, Float64Array.from(q), Float64Array.from(p), h);
      const cf = closedForm(q, p, h, mass);
      expect(Math.abs(ws.lambda[0]! - cf.lam)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(cf.lam)));
      for (let i = 0; i < 2; i++) {
        expect(Math.abs(ws.qt[i]! - cf.qt[i]!)).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(ws.pNext[i]! - cf.pNext[i]!)).toBeLessThanOrEqual(1e-12);
      }
      // (7): line 1 q·q̃ = 0; line 3 p − m q̃ − h m g e_y − λ q = 0 (line 2 is pNext = m q̃)
      const scale = 1 + Math.abs(p[0]!) + Math.abs(p[1]!) + h * mass * G;
      expect(Math.abs(q[0]! * ws.qt[0]! + q[1]! * ws.qt[1]!)).toBeLessThanOrEqual(
        1e-14 * scale * 4,
      );
      expect(Math.abs(p[0]! - mass * ws.qt[0]! - ws.lambda[0]! * q[0]!)).toBeLessThanOrEqual(
        1e-14 * scale * 4,
      );
      expect(
        Math.abs(p[1]! - mass * ws.qt[1]! - h * mass * G - ws.lambda[0]! * q[1]!),
      ).toBeLessThanOrEqual(1e-14 * scale * 4);
    }
  });

  it('throws SingularMatrixError for dependent constraint rows and at q = 0', () => {
    const base = pendulumSys();
    const twice: ConstrainedMechanicalSystem = {
      ...base,
      m: 2,
      phi: (out, q) => {
        out[0] = q[0]! ** 2 + q[1]! ** 2 - 1;
        out[1] = out[0];
        return out;
      },
      C: (out, q) => {
        out.set([q[0]!, q[1]!, 2 * q[0]!, 2 * q[1]!]);
        return out;
      },
    };
    const ws = new DiracWorkspace(twice);
    expect(() =>
      diracSolve(twice, ws, Float64Array.of(0.6, -0.8), Float64Array.of(0, 0), 0.01),
    ).toThrow(SingularMatrixError);
    const ws1 = new DiracWorkspace(base);
    expect(() => diracSolve(base, ws1, Float64Array.of(0, 0), Float64Array.of(1, 0), 0.01)).toThrow(
      SingularMatrixError,
    );
    const st = new DiracStepper(base, 'dirac-1');
    const s = st.initialState([0, 0], [1, 0]);
    st.reset(s);
    expect(() => st.step(s, 0, 0.01)).toThrow(/at step 0/);
    expect(Array.from(s)).toEqual([0, 0, 1, 0, 0, 0]); // a failed step leaves the state alone
    expect(() => integrateDirac(base, 'dirac-1', { q0, v0: zero2 }, -1, 10)).toThrow(DomainError);
    expect(() => new DiracStepper(base, 'dirac2c' as 'dirac-2c')).toThrow(DomainError);
  });

  it('with m = 0 Dirac-1 is symplectic Euler bit for bit (§9 item 8)', () => {
    const osc: ConstrainedMechanicalSystem = {
      n: 1,
      m: 0,
      mass: Float64Array.of(1),
      V: (q) => 0.5 * q[0]! ** 2,
      gradV: (out, q) => {
        out[0] = q[0]!;
        return out;
      },
      phi: (out) => out,
      C: (out) => out,
      curvature: (out) => out,
    };
    const h = 0.1;
    const tr = integrateDirac(osc, 'dirac-1', { q0: [1], p0: [0] }, h, 1000);
    let q = 1;
    let p = 0;
    let maxE = 0;
    for (let k = 1; k <= 1000; k++) {
      p = p - h * q;
      q = q + h * p;
      expect(tr.q[k]).toBe(q);
      expect(tr.p[k]).toBe(p);
      maxE = Math.max(maxE, Math.abs(tr.energy[k]! - 0.5));
    }
    expect(maxE).toBeLessThan(0.06); // bounded O(h) energy error of symplectic Euler
  });
});

describe('exact discrete properties (§5.6)', () => {
  it('Dirac-1: |q_{k+1}|² = |q_k|² + h²|q̃_k|² (measured ≤ 4.5e-16), radius non-decreasing', () => {
    const h = 0.01;
    const st = new DiracStepper(pendulumSys(), 'dirac-1');
    const s = st.initialState(q0, zero2);
    st.reset(s);
    let maxDev = 0;
    for (let k = 0; k < 1000; k++) {
      const r0 = s[0]! ** 2 + s[1]! ** 2;
      st.step(s, k, h);
      const r1 = s[0]! ** 2 + s[1]! ** 2;
      const qt2 = st.qt[0]! ** 2 + st.qt[1]! ** 2;
      maxDev = Math.max(maxDev, Math.abs(r1 - r0 - h * h * qt2) / r1);
      expect(r1).toBeGreaterThanOrEqual(r0);
    }
    expect(maxDev).toBeLessThanOrEqual(1e-15);
  });

  it('Dirac-2 and Dirac-2c: q_k·q_{k+1} = q_0·q_1 (relative ≤ 1e-14 over 20000 steps)', () => {
    for (const method of ['dirac-2', 'dirac-2c'] as const) {
      const h = 0.001;
      const tr = integrateDirac(pendulumSys(), method, { q0, v0: zero2 }, h, 20000);
      const inv0 = dot(tr.q, 0, tr.q, 2);
      let maxDev = 0;
      for (let k = 1; k < 20000; k++)
        maxDev = Math.max(maxDev, Math.abs(dot(tr.q, 2 * k, tr.q, 2 * k + 2) - inv0) / inv0);
      expect(maxDev).toBeLessThanOrEqual(1e-14);
    }
  });

  it('Dirac-2c keeps |q| = l to O(h²), bounded over 100 periods (§5.7, §7.3 table)', () => {
    // Derivation from the invariant q_k·q_{k+1} = q_0·q_1 = l² (Dirac-1 start-up: q_0·q̃_0 = 0):
    // (φ_k + φ_{k+1})/2 = |q_{k+1} − q_k|²/2 exactly, hence |φ| ≲ h² v_max²/2 with
    // v_max² = 2 g l (1 − cos θ0). Asserted: the identity to 2e-14 (measured 8.5e-15) and max |φ_k| ≤ 1.05·h²v_max²/2
    // (measured 1.00·) over 100 periods; halving h divides the error by ≈ 4 (ratio in [3.5, 4.5]).
    const vmax2 = 2 * G * (1 - Math.cos(th0));
    const maxErr: number[] = [];
    for (const h of [0.01, 0.005]) {
      const N = Math.round((100 * T0) / h);
      const tr = integrateDirac(pendulumSys(), 'dirac-2c', { q0, v0: zero2 }, h, N);
      let mx = 0;
      let maxId = 0;
      for (let j = 0; j < tr.count; j++) {
        mx = Math.max(mx, Math.abs(tr.constraint[j]!));
        if (j + 1 < tr.count) {
          const dx = tr.q[2 * j + 2]! - tr.q[2 * j]!;
          const dy = tr.q[2 * j + 3]! - tr.q[2 * j + 1]!;
          const id = (tr.constraint[j]! + tr.constraint[j + 1]!) / 2 - (dx * dx + dy * dy) / 2;
          maxId = Math.max(maxId, Math.abs(id));
        }
      }
      expect(maxId).toBeLessThanOrEqual(2e-14);
      expect(mx).toBeLessThanOrEqual((1.05 * h * h * vmax2) / 2);
      // first vs last tenth of the run: no growth
      const tenth = Math.floor(tr.count / 10);
      let first = 0;
      let last = 0;
      for (let j = 0; j < tenth; j++) {
        first = Math.max(first, Math.abs(tr.constraint[j]!));
        last = Math.max(last, Math.abs(tr.constraint[tr.count - 1 - j]!));
      }
      expect(last).toBeLessThanOrEqual(1.1 * first);
      maxErr.push(mx);
    }
    const ratio = maxErr[0]! / maxErr[1]!;
    expect(ratio).toBeGreaterThan(3.5);
    expect(ratio).toBeLessThan(4.5);
  });

  it("Dirac-1's radius drift grows over the periods, Dirac-2c's does not (§7.2 root cause)", () => {
    const h = 0.005;
    const perPeriod = Math.round(T0 / h);
    const d1 = integrateDirac(pendulumSys(), 'dirac-1', { q0, v0: zero2 }, h, 20 * perPeriod, {
      every: perPeriod,
    });
    const d2c = integrateDirac(pendulumSys(), 'dirac-2c', { q0, v0: zero2 }, h, 20 * perPeriod, {
      every: perPeriod,
    });
    for (let j = 1; j < d1.count; j++)
      expect(d1.constraint[j]!).toBeGreaterThan(d1.constraint[j - 1]!);
    expect(d1.constraint[d1.count - 1]!).toBeGreaterThan(0.1);
    for (let j = 0; j < d2c.count; j++) expect(Math.abs(d2c.constraint[j]!)).toBeLessThan(1e-4);
  });
});

describe('global order on the pendulum vs DOPRI5 (rtol 1e-12) of the index-reduced ODE', () => {
  it('Dirac-1, Dirac-2 and Dirac-2c are first order at T = 2 (§5.6, §9 item 9)', () => {
    const T = 2;
    const ref = pendulumReference(T);
    const hs: number[] = [];
    const errs: Record<string, number[]> = { 'dirac-1': [], 'dirac-2': [], 'dirac-2c': [] };
    for (let i = 0; i < 5; i++) {
      const N = 200 * 2 ** i;
      hs.push(T / N);
      for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
        const tr = integrateDirac(pendulumSys(), method, { q0, v0: zero2 }, T / N, N, {
          every: N,
        });
        const j = tr.count - 1;
        errs[method]!.push(Math.hypot(tr.q[2 * j]! - ref[0]!, tr.q[2 * j + 1]! - ref[1]!));
      }
    }
    for (const method of ['dirac-1', 'dirac-2', 'dirac-2c'] as const) {
      const { order } = convergenceOrder(hs, errs[method]!);
      expect(Math.abs(order - diracMethods[method].order!)).toBeLessThanOrEqual(0.35);
    }
    // §5.7: Dirac-2c has a markedly smaller error constant than Dirac-1 (spec: about 14×; measured 14.2)
    expect(errs['dirac-1']![4]! / errs['dirac-2c']![4]!).toBeGreaterThan(10); // measured 14.2
  });
});

describe('regression values of §7.3 [E]', () => {
  it('pendulum, h = 0.01, θ0 = π/4, 1000 steps: Dirac-1 and Dirac-2 to 1e-12 relative', () => {
    const d1 = integrateDirac(pendulumSys(), 'dirac-1', { q0, v0: zero2 }, 0.01, 1000, {
      every: 1000,
    });
    const d2 = integrateDirac(pendulumSys(), 'dirac-2', { q0, v0: zero2 }, 0.01, 1000, {
      every: 1000,
    });
    const close = (got: number, want: number) =>
      expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));
    const check = (tr: ReturnType<typeof integrateDirac>, q: number[], p: number[], c: number) => {
      close(tr.q[2]!, q[0]!);
      close(tr.q[3]!, q[1]!);
      close(tr.p[2]!, p[0]!);
      close(tr.p[3]!, p[1]!);
      expect(Math.abs(tr.constraint[1]! - c)).toBeLessThanOrEqual(1e-12 * Math.abs(c) + 1e-15);
    };
    check(
      d1,
      [-0.34806933263781914, -1.0664831141900857],
      [1.8539303274538061, -0.641151853526032],
      0.25853849317552013,
    );
    check(
      d2,
      [0.32329724187178155, -0.9465187611989452],
      [1.3835833361419483, 0.4510312654524587],
      4.1887190348699477e-4,
    );
    // the two-step method starts with one Dirac-1 step (spec §10): q_1 of Dirac-2 is Dirac-1's
    const first = (m: 'dirac-1' | 'dirac-2') =>
      Array.from(integrateDirac(pendulumSys(), m, { q0, v0: zero2 }, 0.01, 1).sample('q', 1));
    expect(first('dirac-2')).toEqual(first('dirac-1'));
    expect(d2.method).toBe(diracMethods['dirac-2']);
  });

  it('pendulum, 100 periods: constraint errors of the §7.3 table (3 digits)', () => {
    const table: [string, number, number][] = [
      ['dirac-1', 0.01, 3.21],
      ['dirac-1', 0.005, 1.9],
      ['dirac-1', 0.002, 0.906],
      ['dirac-2', 0.01, 2.14],
      ['dirac-2', 0.005, 4.77e-4],
      ['dirac-2', 0.002, 4.35e-5],
      ['dirac-2c', 0.01, 1.97e-4],
      ['dirac-2c', 0.005, 4.84e-5],
      ['dirac-2c', 0.002, 7.76e-6],
    ];
    for (const [method, h, want] of table) {
      const N = Math.round((100 * T0) / h);
      const tr = integrateDirac(
        pendulumSys(),
        method as 'dirac-1' | 'dirac-2' | 'dirac-2c',
        { q0, v0: zero2 },
        h,
        N,
        { every: N },
      );
      const err = Math.abs(tr.constraint[tr.count - 1]!);
      expect(Math.abs(err - want) / want).toBeLessThanOrEqual(6e-3);
    }
  });

  it('Ziegler column (corrected model), h = 0.01, 1000 steps: Dirac-1 and Dirac-2', () => {
    const sys = zieglerSys(1, 0.2);
    const z0 = [
      Math.sin(0.1),
      Math.cos(0.1),
      Math.sin(0.1) + Math.sin(0.2),
      Math.cos(0.1) + Math.cos(0.2),
    ];
    const want = {
      'dirac-1': {
        q: [-0.06788459538986491, 0.9977680715203715, -0.2088828156811281, 1.9879432632197305],
        p: [
          -0.04947387137081296, -0.003341383180760585, -0.03694880730744354, -0.0015562320310133137,
        ],
        c: [1.494e-4, 3.274e-4],
      },
      'dirac-2': {
        q: [-0.06985743981732498, 0.997556055748695, -0.20791563813798167, 1.9879831666524679],
        p: [
          -0.046036293386977005, -0.003202640982785687, -0.03822857037034021, -0.002113703478396841,
        ],
        c: [-1.854e-6, 5.928e-6],
      },
    };
    for (const method of ['dirac-1', 'dirac-2'] as const) {
      const tr = integrateDirac(sys, method, { q0: z0, v0: [0, 0, 0, 0] }, 0.01, 1000, {
        every: 1000,
      });
      const w = want[method];
      for (let i = 0; i < 4; i++) {
        expect(Math.abs(tr.q[4 + i]! - w.q[i]!)).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(tr.p[4 + i]! - w.p[i]!)).toBeLessThanOrEqual(1e-12);
      }
      for (let a = 0; a < 2; a++)
        expect(Math.abs(tr.constraint[2 + a]! - w.c[a]!)).toBeLessThanOrEqual(
          1e-3 * Math.abs(w.c[a]!),
        );
    }
  });
});

describe('the bordered system (7) at random states: Ziegler column, 4 links (n = 8, m = 4)', () => {
  // Dirac-1/2/2c need no Newton: each step is one solve of the linear system (7) in (q̃, λ),
  //   [ M  Cᵀ ] [q̃]   [p_k − h∇V(q_k)]
  //   [ C  0  ] [λ] = [r            ],
  // by the Schur complement S = C M⁻¹ Cᵀ. Its "Jacobian" is right iff the solution satisfies the
  // equations: residual of every line ≤ 1e-12 relative to the size of its terms, those of the
  // Schur system included (measured ≤ 1.5e-14 over 2000 random states).
  const z = zieglerColumn({ n: 4, m: 1.3, k: 2, P: 0.3, l: 0.9 });
  const { n, m } = z;
  const ws = new DiracWorkspace(z);
  it('takes the banded path (the column declares its constraint band)', () => {
    expect(ws.band).toBe(z.band);
    expect(ws.Sband?.kl).toBe(1);
  });
  const vec = (len: number, r: number) =>
    fc.array(fc.double({ min: -r, max: r, noNaN: true }), { minLength: len, maxLength: len });
  it('lines 1–3 of (7) hold for the solve, with r = 0 (Dirac-1/2) and r ≠ 0 (Dirac-2c)', () => {
    fc.assert(
      fc.property(
        vec(4, 0.6),
        vec(n, 0.05),
        vec(n, 3),
        vec(m, 2),
        fc.constantFrom(0.001, 0.01, 0.1),
        fc.boolean(),
        (theta, dq, p, r, h, withR) => {
          const q = z.fromAngles(theta).map((x, i) => x + dq[i]!);
          const rr = withR ? Float64Array.from(r) : undefined;
          diracSolve(z, ws, q, Float64Array.from(p), h, rr);
          const C = z.C(new Float64Array(m * n), q);
          const g = z.gradV(new Float64Array(n), q);
          for (let j = 0; j < n; j++) {
            // line 3: p_k − M q̃ − h∇V − Cᵀλ = 0; line 2: p_{k+1} = M q̃
            let ct = 0;
            let scale = Math.abs(p[j]!) + Math.abs(h * g[j]!) + Math.abs(z.mass[j]! * ws.qt[j]!);
            for (let a = 0; a < m; a++) {
              ct += C[a * n + j]! * ws.lambda[a]!;
              scale += Math.abs(C[a * n + j]! * ws.lambda[a]!);
            }
            const line3 = p[j]! - z.mass[j]! * ws.qt[j]! - h * g[j]! - ct;
            expect(Math.abs(line3)).toBeLessThanOrEqual(1e-12 * scale);
            expect(ws.pNext[j]).toBe(z.mass[j]! * ws.qt[j]!);
          }
          for (let a = 0; a < m; a++) {
            // line 1: C q̃ = r, to the rounding of the Schur system S λ = C M⁻¹ f − r
            let cq = 0;
            let scale = Math.abs(rr?.[a] ?? 0);
            // S as the solve stored it: a band matrix for the column (its constraint band)
            const S = (b: number) => (ws.Sband === null ? ws.S[a * m + b]! : ws.Sband.get(a, b));
            for (let b = 0; b < m; b++) scale += Math.abs(S(b) * ws.lambda[b]!);
            for (let j = 0; j < n; j++) {
              cq += C[a * n + j]! * ws.qt[j]!;
              scale += Math.abs(C[a * n + j]! * ws.qt[j]!);
              scale += Math.abs((C[a * n + j]! * ws.f[j]!) / z.mass[j]!);
            }
            expect(Math.abs(cq - (rr?.[a] ?? 0))).toBeLessThanOrEqual(1e-12 * scale);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('Dirac-2c steps keep C(q_k)(q_{k+1} − q_{k−1}) = 0 to 1e-14 (its constraint line, §5.7; measured 3.9e-16)', () => {
    const st = new DiracStepper(z, 'dirac-2c');
    const s = st.initialState(z.fromAngles([0.1, 0.3, -0.2, 0.2]), new Float64Array(n));
    st.reset(s);
    const C = new Float64Array(m * n);
    let worst = 0;
    for (let k = 0; k < 300; k++) {
      const qPrev = s.slice(2 * n, 3 * n);
      const qk = s.slice(0, n);
      st.step(s, k, 0.01);
      if (k === 0) continue; // the Dirac-1 start-up step has C q̃ = 0 instead
      z.C(C, qk);
      for (let a = 0; a < m; a++) {
        let d = 0;
        for (let j = 0; j < n; j++) d += C[a * n + j]! * (s[j]! - qPrev[j]!);
        worst = Math.max(worst, Math.abs(d));
      }
    }
    expect(worst).toBeLessThan(1e-14);
  });
});
