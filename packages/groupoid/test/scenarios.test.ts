// Scenarios S1, S2, S9, S11 of spec 003 §10 for the generic DiscreteConstrainedSystem.
import {
  cayInv,
  DenseLU,
  NonRegularSystemError,
  nullSpace,
  SO3,
  singularValues,
} from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { type ConstrainedSystemSpec, DiscreteConstrainedSystem } from '../src/constrained.js';
import { LieGroupGroupoid } from '../src/lieGroupGroupoid.js';
import { PairGroupoid } from '../src/pair.js';
import { timeExtended } from '../src/product.js';
import {
  canonicalSymplecticMatrix,
  intersectionDimension,
  lemma215Dimensions,
  symplecticComplement,
  symplecticForm,
  symplecticityDefect,
} from '../src/symplectic.js';
import type { AStar } from '../src/types.js';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
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
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = Math.max(s, Math.abs(a[i]! - b[i]!));
  return s;
};
const astar = (n: number, r = n): AStar => ({ base: new Float64Array(n), p: new Float64Array(r) });

/** Central-difference Jacobian (n×n) of a map Rⁿ → Rⁿ. */
function fdJacobian(f: (z: Float64Array) => Float64Array, z0: Float64Array, e: number) {
  const n = z0.length;
  const J = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const zp = z0.slice();
    zp[j] = zp[j]! + e;
    const zm = z0.slice();
    zm[j] = zm[j]! - e;
    const fp = f(zp);
    const fm = f(zm);
    for (let i = 0; i < n; i++) J[i * n + j] = (fp[i]! - fm[i]!) / (2 * e);
  }
  return J;
}

// -------------------------------------------------------------------------------------------
// S1: pair groupoid on R, L = (q1 − q0)²/(2h) − (h/2)(V(q0) + V(q1)), V = q²/2, h = 0.1

const h = 0.1;
const L1 = (g: Float64Array) =>
  (g[1]! - g[0]!) ** 2 / (2 * h) - (h / 4) * (g[0]! ** 2 + g[1]! ** 2);
const d0L1 = (g: ArrayLike<number>) => -(g[1]! - g[0]!) / h - (h / 2) * g[0]!; // ∂0 L
const d1L1 = (g: ArrayLike<number>) => (g[1]! - g[0]!) / h - (h / 2) * g[1]!; // ∂1 L
const S1spec: ConstrainedSystemSpec = {
  groupoid: new PairGroupoid(1),
  m: 0,
  Lhat: L1,
  phi: () => {},
};
const S1 = new DiscreteConstrainedSystem(S1spec);
const S1A = new DiscreteConstrainedSystem({
  ...S1spec,
  leftGradL: (out, g) => {
    out[0] = d1L1(g);
  },
  rightGradL: (out, g) => {
    out[0] = -d0L1(g);
  },
});
const none = new Float64Array(0);

/** Störmer–Verlet for H = p²/2 + q²/2. */
function verlet(q: number, p: number): [number, number] {
  const ph = p - (h / 2) * q;
  const q1 = q + h * ph;
  return [q1, ph - (h / 2) * q1];
}

describe('S1: pair-groupoid sanity (unconstrained, N = G = R×R)', () => {
  it('F⁻L = (q0, −∂0L) and F⁺L = (q1, ∂1L) (measured 0 analytic, 9e-12 FD on |q| ≤ 2)', () => {
    const r = rng(11);
    let errFD = 0;
    for (let t = 0; t < 50; t++) {
      const g = Float64Array.of(4 * r() - 2, 4 * r() - 2);
      for (const [sys, tol] of [
        [S1A, 0],
        [S1, 1e-10],
      ] as const) {
        const m = sys.legendreMinus(astar(1), g, none);
        const p = sys.legendrePlus(astar(1), g, none);
        expect(m.base[0]).toBe(g[0]);
        expect(p.base[0]).toBe(g[1]);
        const e = Math.max(Math.abs(m.p[0]! + d0L1(g)), Math.abs(p.p[0]! - d1L1(g)));
        expect(e).toBeLessThanOrEqual(tol);
        if (sys === S1) errFD = Math.max(errFD, e);
      }
    }
    expect(errFD).toBeGreaterThan(0); // the FD path is really exercised
  });

  it('the DEL are Störmer–Verlet to round-off over 1000 steps (measured 2.4e-13 analytic, 7e-12 FD)', () => {
    const n = 1000;
    // analytic gradients solved to tol 1e-14; FD gradients to their default tol 1e-10
    for (const [sys, tol, bound] of [
      [S1A, 1e-14, 5e-12],
      [S1, 1e-10, 2e-10],
    ] as const) {
      let [q, p] = [1, 0];
      const [q1] = verlet(q, p);
      const sol = sys.integrate(Float64Array.of(q, q1), none, { steps: n - 1, tol });
      let eq = 0;
      let ep = 0;
      const plus = astar(1);
      for (let k = 0; k < n; k++) {
        [q, p] = verlet(q, p);
        const g = sol.g.subarray(2 * k, 2 * k + 2);
        sys.legendrePlus(plus, g, none);
        eq = Math.max(eq, Math.abs(g[1]! - q));
        ep = Math.max(ep, Math.abs(plus.p[0]! - p));
      }
      expect(eq).toBeLessThan(bound);
      expect(ep).toBeLessThan(bound);
    }
  });

  it('the Hamiltonian map (q, p) ↦ (q′, p′) has det J = 1 (measured 8e-13, FD)', () => {
    const out = astar(1);
    const map = (z: Float64Array) => {
      const nu: AStar = { base: z.slice(0, 1), p: z.slice(1, 2) };
      S1A.hamiltonianMap(out, nu, Float64Array.of(z[0]!, z[0]! + h * z[1]!), { tol: 1e-15 });
      return Float64Array.of(out.base[0]!, out.p[0]!);
    };
    const z0 = Float64Array.of(0.7, -0.4);
    const img = map(z0);
    const [qv, pv] = verlet(0.7, -0.4);
    expect(Math.abs(img[0]! - qv) + Math.abs(img[1]! - pv)).toBeLessThan(1e-14);
    const J = fdJacobian(map, z0, 1e-4);
    expect(Math.abs(J[0]! * J[3]! - J[1]! * J[2]! - 1)).toBeLessThan(1e-10);
    expect(symplecticityDefect(J, 1)).toBeLessThan(1e-10);
  });

  it('2-D anharmonic example: Jᵀ𝕁J = 𝕁 for the Hamiltonian map (measured 6e-10, FD)', () => {
    // V(q) = ½|q|² + 0.3 x²y + 0.1 y⁴ on Pair(R²), FD gradients throughout
    const V2 = (x: number, y: number) => 0.5 * (x * x + y * y) + 0.3 * x * x * y + 0.1 * y ** 4;
    const sys = new DiscreteConstrainedSystem({
      groupoid: new PairGroupoid(2),
      m: 0,
      Lhat: (g) =>
        ((g[2]! - g[0]!) ** 2 + (g[3]! - g[1]!) ** 2) / (2 * h) -
        (h / 2) * (V2(g[0]!, g[1]!) + V2(g[2]!, g[3]!)),
      phi: () => {},
    });
    const out = astar(2);
    const map = (z: Float64Array) => {
      const nu: AStar = { base: z.slice(0, 2), p: z.slice(2, 4) };
      const guess = Float64Array.of(z[0]!, z[1]!, z[0]! + h * z[2]!, z[1]! + h * z[3]!);
      sys.hamiltonianMap(out, nu, guess, { tol: 1e-13 });
      return Float64Array.of(...out.base, ...out.p);
    };
    const J = fdJacobian(map, Float64Array.of(0.4, -0.3, 0.5, 0.8), 1e-4);
    expect(symplecticityDefect(J, 2)).toBeLessThan(1e-8);
    // a non-symplectic map fails the same test
    const D = Float64Array.from(J);
    D[0] = D[0]! * 1.01;
    expect(symplecticityDefect(D, 2)).toBeGreaterThan(1e-3); // measured 0.01
  });

  it('bounded energy error over 10⁴ steps (measured max |H − H0| = 1.25e-3 ≈ h²/8, no drift)', () => {
    const n = 10_000;
    const q0 = 1;
    const [q1] = verlet(q0, 0);
    const sol = S1.integrate(Float64Array.of(q0, q1), none, { steps: n - 1 });
    const plus = astar(1);
    const H = (k: number) => {
      const g = sol.g.subarray(2 * k, 2 * k + 2);
      S1.legendrePlus(plus, g, none);
      return 0.5 * plus.p[0]! ** 2 + 0.5 * g[1]! ** 2;
    };
    const H0 = 0.5;
    let first = 0;
    let last = 0;
    for (let k = 0; k < 1000; k++) first = Math.max(first, Math.abs(H(k) - H0));
    for (let k = n - 1000; k < n; k++) last = Math.max(last, Math.abs(H(k) - H0));
    expect(first).toBeLessThan(2e-3);
    expect(last).toBeLessThan(2e-3);
    expect(Math.abs(last - first)).toBeLessThan(1e-7); // no secular drift (measured 4e-9)
  });
});

// -------------------------------------------------------------------------------------------
// Polynomial constrained systems on Pair(Rⁿ) with analytic derivatives (for S2 and S11):
//   L̂(x) = ½xᵀAx + bᵀx + Σ_i c_i x_i³,  φ^a(x) = ½xᵀB_a x + d_aᵀx − k_a,  x = (q0, q1) ∈ R^{2n}.

interface Poly {
  readonly n: number;
  readonly m: number;
  readonly A: Float64Array; // 2n×2n symmetric
  readonly b: Float64Array;
  readonly c: Float64Array;
  readonly B: Float64Array[]; // m of 2n×2n symmetric
  readonly d: Float64Array[];
  readonly k: Float64Array;
}

function gradLpoly(P: Poly, out: Float64Array, x: ArrayLike<number>) {
  const N = 2 * P.n;
  for (let i = 0; i < N; i++) {
    let s = P.b[i]! + 3 * P.c[i]! * x[i]! ** 2;
    for (let j = 0; j < N; j++) s += P.A[i * N + j]! * x[j]!;
    out[i] = s;
  }
}
function gradPhiPoly(P: Poly, a: number, out: Float64Array, x: ArrayLike<number>) {
  const N = 2 * P.n;
  for (let i = 0; i < N; i++) {
    let s = P.d[a]![i]!;
    for (let j = 0; j < N; j++) s += P.B[a]![i * N + j]! * x[j]!;
    out[i] = s;
  }
}
function polySystem(P: Poly): DiscreteConstrainedSystem {
  const { n, m } = P;
  const N = 2 * n;
  const gx = new Float64Array(N);
  return new DiscreteConstrainedSystem({
    groupoid: new PairGroupoid(n),
    m,
    Lhat: (x) => {
      let s = 0;
      for (let i = 0; i < N; i++) {
        s += P.b[i]! * x[i]! + P.c[i]! * x[i]! ** 3;
        for (let j = 0; j < N; j++) s += 0.5 * x[i]! * P.A[i * N + j]! * x[j]!;
      }
      return s;
    },
    phi: (out, x) => {
      for (let a = 0; a < m; a++) {
        let s = -P.k[a]!;
        for (let i = 0; i < N; i++) {
          s += P.d[a]![i]! * x[i]!;
          for (let j = 0; j < N; j++) s += 0.5 * x[i]! * P.B[a]![i * N + j]! * x[j]!;
        }
        out[a] = s;
      }
    },
    // ←e_i = ∂/∂q1ⁱ, →e_i = −∂/∂q0ⁱ
    leftGradL: (out, x) => {
      gradLpoly(P, gx, x);
      for (let i = 0; i < n; i++) out[i] = gx[n + i]!;
    },
    rightGradL: (out, x) => {
      gradLpoly(P, gx, x);
      for (let i = 0; i < n; i++) out[i] = -gx[i]!;
    },
    leftGradPhi: (out, x) => {
      for (let a = 0; a < m; a++) {
        gradPhiPoly(P, a, gx, x);
        for (let i = 0; i < n; i++) out[a * n + i] = gx[n + i]!;
      }
    },
    rightGradPhi: (out, x) => {
      for (let a = 0; a < m; a++) {
        gradPhiPoly(P, a, gx, x);
        for (let i = 0; i < n; i++) out[a * n + i] = -gx[i]!;
      }
    },
  });
}

/**
 * dim ker T(F∓L|Σ_L) at (x, λ), computed directly (not from the bordered Jacobians): T Σ_L =
 * {(δx, δλ) : dφ·δx = 0} and F⁻ = (q0, −∂_{q0}(L̂+λφ)), F⁺ = (q1, ∂_{q1}(L̂+λφ)), with the
 * analytic Hessian H(λ) = A + 6 diag(c∘x) + λ_a B_a. Returns the singular values too.
 */
function directNullities(P: Poly, x: Float64Array, lambda: ArrayLike<number>, rtol: number) {
  const { n, m } = P;
  const N = 2 * n;
  const H = new Float64Array(N * N);
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      let s = P.A[i * N + j]! + (i === j ? 6 * P.c[i]! * x[i]! : 0);
      for (let a = 0; a < m; a++) s += lambda[a]! * P.B[a]![i * N + j]!;
      H[i * N + j] = s;
    }
  const C = new Float64Array(m * N);
  const gp = new Float64Array(N);
  for (let a = 0; a < m; a++) {
    gradPhiPoly(P, a, gp, x);
    C.set(gp, a * N);
  }
  const Z = nullSpace(C, m, N); // N×(N−m)
  expect(Z.d).toBe(N - m);
  const dim = N; // = (N − m) + m
  const result = (sign: -1 | 1, off: number) => {
    // rows: δ(base) = δx[off..off+n]; δ(p) = sign·(H[off+i,:]δx + Σ δλ_a ∂_{off+i}φ^a)
    const M = new Float64Array(2 * n * dim);
    for (let col = 0; col < dim; col++) {
      const dx = new Float64Array(N);
      const dl = new Float64Array(m);
      if (col < N - m) for (let i = 0; i < N; i++) dx[i] = Z.basis[i * Z.d + col]!;
      else dl[col - (N - m)] = 1;
      for (let i = 0; i < n; i++) {
        M[i * dim + col] = dx[off + i]!;
        let s = 0;
        for (let j = 0; j < N; j++) s += H[(off + i) * N + j]! * dx[j]!;
        for (let a = 0; a < m; a++) s += dl[a]! * C[a * N + off + i]!;
        M[(n + i) * dim + col] = sign * s;
      }
    }
    const s = singularValues(M, 2 * n, dim);
    let z = 0;
    for (const v of s) if (v <= rtol * s[0]!) z++;
    return { nullity: z, sMin: s[s.length - 1]! };
  };
  return { minus: result(-1, 0), plus: result(1, n) };
}

function randomSym(r: () => number, N: number, scale: number): Float64Array {
  const S = new Float64Array(N * N);
  for (let i = 0; i < N; i++)
    for (let j = i; j < N; j++) {
      const v = scale * (2 * r() - 1);
      S[i * N + j] = v;
      S[j * N + i] = v;
    }
  return S;
}

/** A random polynomial system whose constraint set N contains the returned point x*. */
function randomPoly(seed: number, n: number, m: number): { P: Poly; x: Float64Array } {
  const r = rng(seed);
  const N = 2 * n;
  const A = randomSym(r, N, 0.5);
  for (let i = 0; i < n; i++) {
    // kinetic part |q1 − q0|²/(2h)
    A[i * N + i] = A[i * N + i]! + 1 / h;
    A[(n + i) * N + n + i] = A[(n + i) * N + n + i]! + 1 / h;
    A[i * N + n + i] = A[i * N + n + i]! - 1 / h;
    A[(n + i) * N + i] = A[(n + i) * N + i]! - 1 / h;
  }
  const b = Float64Array.from({ length: N }, () => 2 * r() - 1);
  const c = Float64Array.from({ length: N }, () => 0.3 * (2 * r() - 1));
  const B = Array.from({ length: m }, () => randomSym(r, N, 1));
  const d = Array.from({ length: m }, () => Float64Array.from({ length: N }, () => 2 * r() - 1));
  const x = Float64Array.from({ length: N }, () => 2 * r() - 1);
  const k = new Float64Array(m);
  const P0: Poly = { n, m, A, b, c, B, d, k };
  // k_a := ½xᵀB_a x + d_aᵀx so that φ(x*) = 0
  const ph = new Float64Array(m);
  polyPhi(P0, ph, x);
  for (let a = 0; a < m; a++) k[a] = ph[a]!;
  return { P: P0, x };
}
function polyPhi(P: Poly, out: Float64Array, x: ArrayLike<number>) {
  const N = 2 * P.n;
  for (let a = 0; a < P.m; a++) {
    let s = -P.k[a]!;
    for (let i = 0; i < N; i++) {
      s += P.d[a]![i]! * x[i]!;
      for (let j = 0; j < N; j++) s += 0.5 * x[i]! * P.B[a]![i * N + j]! * x[j]!;
    }
    out[a] = s;
  }
}

// -------------------------------------------------------------------------------------------
// S2: holonomic constraint φ = |q1|² − 1 via the pair groupoid on R² — not regular

const S2poly: Poly = (() => {
  const n = 2;
  const N = 4;
  const A = new Float64Array(N * N);
  for (let i = 0; i < n; i++) {
    // |q1 − q0|²/(2h) − (h/2)(|q0|²/2 + |q1|²/2)
    A[i * N + i] = 1 / h - h / 2;
    A[(n + i) * N + n + i] = 1 / h - h / 2;
    A[i * N + n + i] = -1 / h;
    A[(n + i) * N + i] = -1 / h;
  }
  const B = new Float64Array(N * N);
  B[2 * N + 2] = 2;
  B[3 * N + 3] = 2;
  return {
    n,
    m: 1,
    A,
    b: new Float64Array(N),
    c: new Float64Array(N),
    B: [B],
    d: [new Float64Array(N)],
    k: Float64Array.of(1),
  };
})();
const S2 = polySystem(S2poly);
const S2g = Float64Array.of(0.9, 0.3, Math.cos(0.4), Math.sin(0.4)); // q1 on the unit circle

describe('S2: holonomic constraint via the pair groupoid is not regular', () => {
  it('both bordered Jacobians are singular with equal nullity 1 (σ_min = 0 exactly)', () => {
    for (const lam of [0, 0.7, -2]) {
      const rep = S2.isRegularAt(S2g, [lam]);
      expect(rep.regular).toBe(false);
      expect(rep.nullityForward).toBe(1);
      expect(rep.nullityBackward).toBe(1);
      expect(rep.sigmaMinForward).toBe(0);
      expect(rep.sigmaMinBackward).toBe(0);
    }
  });

  it('F⁻L does not depend on λ (λ_k is only fixed one step later)', () => {
    const a = S2.legendreMinus(astar(2), S2g, [0]);
    const b = S2.legendreMinus(astar(2), S2g, [3.5]);
    expect(Array.from(b.p)).toEqual(Array.from(a.p));
    const c = S2.legendrePlus(astar(2), S2g, [0]);
    const d = S2.legendrePlus(astar(2), S2g, [3.5]);
    expect(maxAbsDiff(c.p, d.p)).toBeGreaterThan(1); // F⁺ does: 2λq1
  });

  it('stepForward and stepBackward throw NonRegularSystemError', () => {
    for (const dir of ['forward', 'backward'] as const) {
      try {
        if (dir === 'forward') S2.stepForward(S2g, [0.5]);
        else S2.stepBackward(S2g, [0.5]);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(NonRegularSystemError);
        const err = e as NonRegularSystemError;
        expect(err.direction).toBe(dir);
        expect(err.sigmaMin).toBe(0);
        expect(err.conditionEstimate).toBe(Number.POSITIVE_INFINITY);
        expect(err.message).toMatch(/non-regular/);
      }
    }
  });

  it('direct D(F∓L) on Σ_L: nullity 1 = 1 (Remark 2.17)', () => {
    for (const lam of [0, 0.7]) {
      const { minus, plus } = directNullities(S2poly, S2g, [lam], 1e-10);
      expect(minus.nullity).toBe(1);
      expect(plus.nullity).toBe(1);
    }
  });
});

// -------------------------------------------------------------------------------------------
// S9: Example 6.2 — fixed step imposed as the constraint φ_R = t1 − t0 − h on timeExtended(G)

describe('S9: time-extended fixed step (Example 6.2)', () => {
  // "exactly" means to round-off: τ = t1 − t0 is recomputed from t_k ≈ kh and carries
  // ulp(t) ≈ 4e-15 at t = 30, so the two trajectories separate at the 1e-13 level over 300 steps.
  it('wrapping S1: the same trajectory to round-off, λ_{k+1} − λ_k = ∂_t′L̂_R(k) + ∂_tL̂_R(k+1) (measured 6e-13, 2e-14)', () => {
    // arrows (t0, t1, q0, q1); L̂_R = (q1 − q0)²/(2τ) − (τ/2)(V(q0) + V(q1)), τ = t1 − t0
    const GR = timeExtended(new PairGroupoid(1));
    expect(GR.arrowDim).toBe(4);
    expect(GR.rank).toBe(2);
    const LR = (g: ArrayLike<number>) => {
      const tau = g[1]! - g[0]!;
      return (g[3]! - g[2]!) ** 2 / (2 * tau) - (tau / 4) * (g[2]! ** 2 + g[3]! ** 2);
    };
    // ∂/∂t1 L̂_R = −(q1 − q0)²/(2τ²) − ¼(q0² + q1²) = −∂/∂t0 L̂_R
    const dt1 = (g: ArrayLike<number>) => {
      const tau = g[1]! - g[0]!;
      return -((g[3]! - g[2]!) ** 2) / (2 * tau * tau) - 0.25 * (g[2]! ** 2 + g[3]! ** 2);
    };
    const sysR = new DiscreteConstrainedSystem({
      groupoid: GR,
      m: 1,
      Lhat: (g) => LR(g),
      phi: (out, g) => {
        out[0] = g[1]! - g[0]! - h;
      },
      // basis (∂/∂t, 0), (0, ∂/∂q): ← = (∂/∂t1, ∂/∂q1), → = (−∂/∂t0, −∂/∂q0)
      leftGradL: (out, g) => {
        const tau = g[1]! - g[0]!;
        out[0] = dt1(g);
        out[1] = (g[3]! - g[2]!) / tau - (tau / 2) * g[3]!;
      },
      rightGradL: (out, g) => {
        const tau = g[1]! - g[0]!;
        out[0] = dt1(g); // −∂/∂t0 L̂_R = ∂/∂t1 L̂_R
        out[1] = (g[3]! - g[2]!) / tau + (tau / 2) * g[2]!;
      },
      leftGradPhi: (out) => {
        out[0] = 1;
        out[1] = 0;
      },
      rightGradPhi: (out) => {
        out[0] = 1; // −∂/∂t0 (t1 − t0 − h)
        out[1] = 0;
      },
    });
    const n = 300;
    const [q1] = verlet(1, 0);
    const plain = S1A.integrate(Float64Array.of(1, q1), none, { steps: n - 1, tol: 1e-14 });
    const ext = sysR.integrate(Float64Array.of(0, h, 1, q1), [0.3], { steps: n - 1, tol: 1e-14 });
    let eq = 0;
    let et = 0;
    let el = 0;
    for (let k = 0; k < n; k++) {
      const g = ext.g.subarray(4 * k, 4 * k + 4);
      eq = Math.max(eq, Math.abs(g[3]! - plain.g[2 * k + 1]!), Math.abs(g[2]! - plain.g[2 * k]!));
      et = Math.max(et, Math.abs(g[1]! - g[0]! - h));
      if (k + 1 < n) {
        const g1 = ext.g.subarray(4 * (k + 1), 4 * (k + 2));
        const predicted = dt1(g) - dt1(g1); // ∂_t′L̂_R(k) + ∂_tL̂_R(k+1), ∂_t = −∂_t′
        el = Math.max(el, Math.abs(ext.lambda[k + 1]! - ext.lambda[k]! - predicted));
      }
    }
    expect(eq).toBeLessThan(1e-11);
    expect(et).toBeLessThan(1e-14);
    expect(el).toBeLessThan(1e-12);
    // λ is minus a discrete energy up to a constant: it is not constant itself
    expect(Math.abs(ext.lambda[n - 1]! - ext.lambda[0]!)).toBeGreaterThan(5e-4); // measured 2.5e-3
  });

  it('wrapping the free rigid body on SO(3) (Cayley, FD gradients): same rotations, energy jump law (measured 1.5e-11, 9e-11)', () => {
    // L̂(g) = h·l(cay⁻¹(g)/h), l(ξ) = ½ξᵀ𝕀ξ, 𝕀 = diag(1, 2, 3); L̂_R(t0, t1, g) = τ·l(cay⁻¹(g)/τ)
    const I3 = [1, 2, 3];
    const x = new Float64Array(3);
    const l = (xi: ArrayLike<number>) =>
      0.5 * (I3[0]! * xi[0]! ** 2 + I3[1]! * xi[1]! ** 2 + I3[2]! * xi[2]! ** 2);
    const Lg = (R: ArrayLike<number>, tau: number) => {
      cayInv(x, R);
      for (let i = 0; i < 3; i++) x[i] = x[i]! / tau;
      return tau * l(x);
    };
    const GS = new LieGroupGroupoid(SO3);
    const plainSys = new DiscreteConstrainedSystem({
      groupoid: GS,
      m: 0,
      Lhat: (g) => Lg(g, h),
      phi: () => {},
    });
    const GR = timeExtended(GS);
    const sub = new Float64Array(9);
    const extSys = new DiscreteConstrainedSystem({
      groupoid: GR,
      m: 1,
      Lhat: (g) => {
        for (let i = 0; i < 9; i++) sub[i] = g[2 + i]!;
        return Lg(sub, g[1]! - g[0]!);
      },
      phi: (out, g) => {
        out[0] = g[1]! - g[0]! - h;
      },
    });
    const g1 = new Float64Array(9);
    SO3.exp(g1, Float64Array.of(0.08, -0.05, 0.03));
    const n = 60;
    const plain = plainSys.integrate(g1, none, { steps: n - 1 });
    const gR1 = new Float64Array(11);
    gR1[1] = h;
    gR1.set(g1, 2);
    const ext = extSys.integrate(gR1, [0], { steps: n - 1 });
    let eg = 0;
    let el = 0;
    const energy = (k: number) => {
      // ∂_t′L̂_R = l(ξ) − ⟨dl(ξ), ξ⟩ = −l(ξ) for quadratic l, ξ = cay⁻¹(g)/τ
      const g = ext.g.subarray(11 * k, 11 * k + 11);
      for (let i = 0; i < 9; i++) sub[i] = g[2 + i]!;
      cayInv(x, sub);
      const tau = g[1]! - g[0]!;
      for (let i = 0; i < 3; i++) x[i] = x[i]! / tau;
      return l(x);
    };
    for (let k = 0; k < n; k++) {
      eg = Math.max(
        eg,
        maxAbsDiff(ext.g.subarray(11 * k + 2, 11 * k + 11), plain.g.subarray(9 * k, 9 * k + 9)),
      );
      if (k + 1 < n)
        el = Math.max(
          el,
          Math.abs(ext.lambda[k + 1]! - ext.lambda[k]! - (energy(k + 1) - energy(k))),
        );
    }
    expect(eg).toBeLessThan(3e-10);
    expect(el).toBeLessThan(5e-9);
  });
});

// -------------------------------------------------------------------------------------------
// S11: Lemma 2.15 and Theorem 2.16 property tests

describe('S11: Lemma 2.15 — dim(V ∩ W) = dim(V^ω ∩ W^ω) when dim V + dim W = 2d', () => {
  it('random V, W with prescribed (non-generic) intersections, d = 1..4 (200 cases)', () => {
    const r = rng(2024);
    let nonGeneric = 0;
    for (let t = 0; t < 200; t++) {
      const d = 1 + Math.floor(4 * r());
      const n = 2 * d;
      const kV = Math.floor((n + 1) * r());
      const kW = n - kV;
      const j = Math.floor((Math.min(kV, kW) + 1) * r()); // forced common directions
      const common = Array.from({ length: j }, () => Array.from({ length: n }, () => 2 * r() - 1));
      const build = (k: number) => {
        const M = new Float64Array(n * k);
        for (let a = 0; a < k; a++)
          for (let i = 0; i < n; i++) M[i * k + a] = a < j ? common[a]![i]! : 2 * r() - 1;
        return M;
      };
      const V = build(kV);
      const W = build(kW);
      const dims = lemma215Dimensions(V, kV, W, kW, d);
      expect(dims.dimV + dims.dimW).toBe(n);
      expect(dims.intersection).toBe(j);
      expect(dims.complementIntersection).toBe(dims.intersection);
      if (j > 0) nonGeneric++;
    }
    expect(nonGeneric).toBeGreaterThan(50);
  });

  it('Lagrangian pairs (V = V^ω): graphs of random symmetric maps, intersecting in ker(S1 − S2)', () => {
    const r = rng(7);
    for (let t = 0; t < 30; t++) {
      const d = 2 + (t % 3);
      const n = 2 * d;
      // V = graph(S1) = {(q, S1 q)}, W = graph(S2), S2 = S1 + (rank-ρ symmetric perturbation)
      const S1 = randomSym(r, d, 1);
      const rho = t % (d + 1);
      const S2 = Float64Array.from(S1);
      for (let l = 0; l < rho; l++) {
        const u = Array.from({ length: d }, () => 2 * r() - 1);
        for (let i = 0; i < d; i++)
          for (let k = 0; k < d; k++) S2[i * d + k] = S2[i * d + k]! + u[i]! * u[k]!;
      }
      const graph = (S: Float64Array) => {
        const M = new Float64Array(n * d);
        for (let a = 0; a < d; a++) {
          M[a * d + a] = 1;
          for (let i = 0; i < d; i++) M[(d + i) * d + a] = S[i * d + a]!;
        }
        return M;
      };
      const V = graph(S1);
      const W = graph(S2);
      // Lagrangian: ω vanishes on V (measured 0: the graph of a symmetric map)
      let omegaV = 0;
      for (let a = 0; a < d; a++)
        for (let b = 0; b < d; b++) {
          const u = Array.from({ length: n }, (_, i) => V[i * d + a]!);
          const v = Array.from({ length: n }, (_, i) => V[i * d + b]!);
          omegaV = Math.max(omegaV, Math.abs(symplecticForm(u, v, d)));
        }
      expect(omegaV).toBeLessThan(1e-14);
      const Vw = symplecticComplement(V, d, d);
      expect(Vw.d).toBe(d);
      expect(intersectionDimension(V, d, Vw.basis, Vw.d, n)).toBe(d); // V^ω = V
      const dims = lemma215Dimensions(V, d, W, d, d);
      expect(dims.intersection).toBe(d - rho);
      expect(dims.complementIntersection).toBe(d - rho);
    }
  });

  it('fails when dim V + dim W ≠ 2d (the hypothesis matters)', () => {
    // V = W = span{e1} ⊂ R⁴: dim(V ∩ W) = 1, dim(V^ω ∩ W^ω) = 3
    const e1 = Float64Array.of(1, 0, 0, 0);
    const dims = lemma215Dimensions(e1, 1, e1, 1, 2);
    expect(dims.intersection).toBe(1);
    expect(dims.complementIntersection).toBe(3);
    expect(Array.from(canonicalSymplecticMatrix(1))).toEqual([0, 1, -1, 0]);
  });
});

describe('S11: Theorem 2.16 — nullity D(F⁻L)|Σ_L = nullity D(F⁺L)|Σ_L', () => {
  it('random polynomial systems on Pair(Rⁿ), m = 0..2, at regular and engineered singular points', () => {
    let singular = 0;
    let cases = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const n = 1 + (seed % 3);
      const m = seed % 3 === 0 ? 0 : Math.min(n, 1 + (seed % 2));
      const { P, x } = randomPoly(seed, n, m);
      const sys = polySystem(P);
      const ph = new Float64Array(m);
      polyPhi(P, ph, x);
      for (let a = 0; a < m; a++) expect(Math.abs(ph[a]!)).toBeLessThan(1e-14);
      const lam = Float64Array.from({ length: m }, (_, a) => 0.3 * (a + 1));
      const check = (l: Float64Array) => {
        const rep = sys.isRegularAt(x, l);
        const dir = directNullities(P, x, l, 1e-8);
        expect(rep.nullityForward).toBe(rep.nullityBackward);
        expect(dir.minus.nullity).toBe(dir.plus.nullity);
        expect(dir.minus.nullity).toBe(rep.nullityForward);
        cases++;
        return rep;
      };
      const rep = check(lam);
      expect(rep.regular).toBe(true); // generic systems are regular
      if (m !== 1) continue;
      // engineer a singular point: λ* with det(bordered forward Jacobian)(λ*) = 0, by bisection
      const J = new Float64Array(sys.size * sys.size);
      const lu = new DenseLU(sys.size);
      const det = (l: number) =>
        lu.factor(sys.borderedJacobian(J, 'forward', x, [l])).determinant();
      let lo = -20;
      let flo = det(lo);
      for (let s = 1; s <= 400; s++) {
        const hi = -20 + 0.1 * s;
        const fhi = det(hi);
        if (Math.sign(fhi) !== Math.sign(flo)) {
          let a = lo;
          let b = hi;
          for (let it = 0; it < 200 && b - a > 1e-15 * Math.max(1, Math.abs(a)); it++) {
            const mid = 0.5 * (a + b);
            if (Math.sign(det(mid)) === Math.sign(flo)) a = mid;
            else b = mid;
          }
          const rs = check(Float64Array.of(0.5 * (a + b)));
          expect(rs.regular).toBe(false);
          expect(rs.nullityForward).toBe(1);
          singular++;
          break;
        }
        lo = hi;
        flo = fhi;
      }
    }
    expect(cases).toBeGreaterThan(24); // measured 28 cases, 4 of them engineered singular
    expect(singular).toBeGreaterThanOrEqual(3);
  });

  it('the speed constraint at zero mass (λ = −1): nullity 2 both ways, bordered and direct', () => {
    // L̂ = |q1 − q0|²/(2h), φ = (|q1 − q0|² − h²)/(2h) on Pair(R³): H(λ) = (1 + λ)·(kinetic Hessian)
    const n = 3;
    const N = 6;
    const K = new Float64Array(N * N);
    for (let i = 0; i < n; i++) {
      K[i * N + i] = 1 / h;
      K[(n + i) * N + n + i] = 1 / h;
      K[i * N + n + i] = -1 / h;
      K[(n + i) * N + i] = -1 / h;
    }
    const P: Poly = {
      n,
      m: 1,
      A: K,
      b: new Float64Array(N),
      c: new Float64Array(N),
      B: [K],
      d: [new Float64Array(N)],
      k: Float64Array.of(h / 2),
    };
    const sys = polySystem(P);
    const x = Float64Array.of(1, 0, 0, 1, 0.08, 0.06); // |q1 − q0| = h
    for (const [lam, nul] of [
      [-1, 2],
      [0.5, 0],
    ] as const) {
      const rep = sys.isRegularAt(x, [lam]);
      const dir = directNullities(P, x, [lam], 1e-10);
      expect(rep.nullityForward).toBe(nul);
      expect(rep.nullityBackward).toBe(nul);
      expect(dir.minus.nullity).toBe(nul);
      expect(dir.plus.nullity).toBe(nul);
    }
  });
});
