import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../../src/constants.js';
import { DimensionError } from '../../src/errors.js';
import { coAdjoint } from '../../src/lie/retractions.js';
import { coAdjointSO3, hat3, rjacInvCoefficientsSO3, SO3, vee3 } from '../../src/lie/so3.js';
import { axisForm3 } from '../../src/linalg/small.js';
import { describeLieGroup, expmSeries } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

describeLieGroup(SO3);

// ---------------------------------------------------------------------------------------------
// helpers (independent of the code under test)

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

const mul = (a: ArrayLike<number>, b: ArrayLike<number>): Float64Array => {
  const out = new Float64Array(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += a[i * 3 + k]! * b[k * 3 + j]!;
      out[i * 3 + j] = s;
    }
  return out;
};

const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);

/** The hat map written out entry by entry from spec 003 §8.2: x₁E1 + x₂E2 + x₃E3. */
const E = [
  Float64Array.of(0, 0, 0, 0, 0, -1, 0, 1, 0),
  Float64Array.of(0, 0, 1, 0, 0, 0, -1, 0, 0),
  Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 0),
];

/** A unit vector from a seed. */
const unitVec = (seed: number): Float64Array => {
  const r = rng(seed);
  for (;;) {
    const v = Float64Array.from({ length: 3 }, () => 2 * r() - 1);
    const n = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (n > 0.1) return v.map((x) => x / n);
  }
};

/** Σ_{k≥0} c_k·M^k for a 3×3 M (plain power series, 80 terms). */
const series = (m: Float64Array, coef: (k: number) => number, terms = 80): Float64Array => {
  let p: Float64Array = I3.slice();
  const out = new Float64Array(9);
  for (let k = 0; k < terms; k++) {
    const c = coef(k);
    for (let i = 0; i < 9; i++) out[i] = out[i]! + c * p[i]!;
    p = mul(p, m);
  }
  return out;
};

const factorial = (k: number): number => {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return f;
};

/** b_k = B_k/k!, the Taylor coefficients of z/(eᶻ − 1) (B₁ = −½): Σ_{j≤k} b_j/(k+1−j)! = 0. */
const bernoulliOverFactorial: number[] = [1];
for (let k = 1; k < 60; k++) {
  let s = 0;
  for (let j = 0; j < k; j++) s += bernoulliOverFactorial[j]! / factorial(k + 1 - j);
  bernoulliOverFactorial.push(-s);
}

/** J_r(τ) = Σ (−τ̂)^k/(k+1)!,  J_l(τ) = Σ τ̂^k/(k+1)!. */
const jrSeries = (t: Float64Array) =>
  series(hat3(new Float64Array(9), t), (k) => (k % 2 ? -1 : 1) / factorial(k + 1));
const jlSeries = (t: Float64Array) =>
  series(hat3(new Float64Array(9), t), (k) => 1 / factorial(k + 1));
/** J_r⁻¹(τ) = Σ b_k (−τ̂)^k,  J_l⁻¹(τ) = Σ b_k τ̂^k (converge for θ < 2π). */
const jrInvSeries = (t: Float64Array) =>
  series(hat3(new Float64Array(9), t), (k) => (k % 2 ? -1 : 1) * bernoulliOverFactorial[k]!, 60);
const jlInvSeries = (t: Float64Array) =>
  series(hat3(new Float64Array(9), t), (k) => bernoulliOverFactorial[k]!, 60);

/** Central-difference Jacobian of f: R³ → R³ at x (column j = ∂f/∂x_j), step h. */
const fd = (f: (x: Float64Array) => Float64Array, x: Float64Array, h = 1e-6): Float64Array => {
  const J = new Float64Array(9);
  for (let j = 0; j < 3; j++) {
    const xp = x.slice();
    const xm = x.slice();
    xp[j] = xp[j]! + h;
    xm[j] = xm[j]! - h;
    const fp = f(xp);
    const fm = f(xm);
    for (let i = 0; i < 3; i++) J[i * 3 + j] = (fp[i]! - fm[i]!) / (2 * h);
  }
  return J;
};

const exp = (t: ArrayLike<number>) => SO3.exp(new Float64Array(9), Float64Array.from(t));
const log = (R: Float64Array) => SO3.log(new Float64Array(3), R);

/** Rotation vectors θn with n random and θ log-uniform in [1e-10, 3.1] or exactly 0. */
const tangent$ = fc.tuple(fc.integer(), fc.double({ min: -10, max: Math.log10(3.1), noNaN: true }));
const tangentOf = ([seed, lg]: [number, number]) => unitVec(seed).map((v) => v * 10 ** lg);

// ---------------------------------------------------------------------------------------------

describe('so(3): hat, vee and the basis E1, E2, E3 (spec 003 §8.2)', () => {
  it('hat3(x) = x₁E1 + x₂E2 + x₃E3, hat3(x)·p = x × p, vee3∘hat3 = id exactly', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const x = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const p = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const h = hat3(new Float64Array(9), x);
        const fromBasis = E[0]!.map(
          (_, i) => x[0]! * E[0]![i]! + x[1]! * E[1]![i]! + x[2]! * E[2]![i]!,
        );
        expect(maxAbsDiff(h, fromBasis)).toBe(0);
        const hp = [0, 1, 2].map(
          (i) => h[3 * i]! * p[0]! + h[3 * i + 1]! * p[1]! + h[3 * i + 2]! * p[2]!,
        );
        const cross = [
          x[1]! * p[2]! - x[2]! * p[1]!,
          x[2]! * p[0]! - x[0]! * p[2]!,
          x[0]! * p[1]! - x[1]! * p[0]!,
        ];
        expect(maxAbsDiff(hp, cross)).toBeLessThan(1e-15);
        expect(Array.from(vee3(new Float64Array(3), h))).toEqual(Array.from(x));
      }),
    );
  });

  it('tr(â b̂) = −2 a·b (1e-14 relative)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const a = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const b = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const ab = mul(hat3(new Float64Array(9), a), hat3(new Float64Array(9), b));
        const tr = ab[0]! + ab[4]! + ab[8]!;
        const dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
        expect(Math.abs(tr + 2 * dot)).toBeLessThan(1e-14 * (1 + Math.abs(dot)));
      }),
    );
  });

  it('−½ tr(g E_i) = sin θ · n_i for g = Exp(θn), θ ∈ [0, π] (1e-15)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0, max: Math.PI, noNaN: true }), (seed, th) => {
        const n = unitVec(seed);
        const g = exp(n.map((v) => th * v));
        for (let i = 0; i < 3; i++) {
          const gE = mul(g, E[i]!);
          const lhs = -0.5 * (gE[0]! + gE[4]! + gE[8]!);
          expect(Math.abs(lhs - Math.sin(th) * n[i]!)).toBeLessThan(1e-15);
        }
      }),
    );
  });
});

describe('SO(3) exp and the Jacobians against power series', () => {
  it('Exp(τ) = Σ τ̂^k/k! (1e-13), |τ| from 1e-10 to 3.1 and 0', () => {
    fc.assert(
      fc.property(tangent$, (s) => {
        const t = tangentOf(s);
        expect(maxAbsDiff(exp(t), expmSeries(hat3(new Float64Array(9), t), 3))).toBeLessThan(1e-13);
        expect(
          maxAbsDiff(
            exp(t),
            series(hat3(new Float64Array(9), t), (k) => 1 / factorial(k)),
          ),
        ).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
    expect(Array.from(exp([0, 0, 0]))).toEqual(Array.from(I3));
  });

  it('J_r = Σ(−τ̂)^k/(k+1)!, J_l = Σ τ̂^k/(k+1)!, J_r⁻¹ = Σ B_k(−τ̂)^k/k!, J_l⁻¹ = Σ B_k τ̂^k/k! (1e-13)', () => {
    fc.assert(
      fc.property(tangent$, (s) => {
        const t = tangentOf(s);
        expect(maxAbsDiff(SO3.rjac(new Float64Array(9), t), jrSeries(t))).toBeLessThan(1e-13);
        expect(maxAbsDiff(SO3.ljac(new Float64Array(9), t), jlSeries(t))).toBeLessThan(1e-13);
        expect(maxAbsDiff(SO3.rjacInv(new Float64Array(9), t), jrInvSeries(t))).toBeLessThan(1e-13);
        expect(maxAbsDiff(SO3.ljacInv(new Float64Array(9), t), jlInvSeries(t))).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
  });

  it("J_r⁻¹ is the papers' dexp⁻¹ = I + x̂/2 + (1 − (θ/2)cot(θ/2))/θ²·x̂² (spec 003 §8.1, 1e-14)", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const x = unitVec(seed).map((v) => v * 0.4 * seed);
      const th = 0.4 * seed;
      const xh = hat3(new Float64Array(9), x);
      const xh2 = mul(xh, xh);
      const c = (1 - th / 2 / Math.tan(th / 2)) / (th * th);
      const expected = I3.map((v, i) => v + 0.5 * xh[i]! + c * xh2[i]!);
      expect(maxAbsDiff(SO3.rjacInv(new Float64Array(9), x), expected)).toBeLessThan(1e-14);
    }
  });

  it('J_l(τ) = Ad_{Exp τ}·J_r(τ) = Exp(τ)·J_r(τ) (1e-14)', () => {
    fc.assert(
      fc.property(tangent$, (s) => {
        const t = tangentOf(s);
        const lhs = SO3.ljac(new Float64Array(9), t);
        const rhs = mul(SO3.adj(new Float64Array(9), exp(t)), SO3.rjac(new Float64Array(9), t));
        expect(maxAbsDiff(lhs, rhs)).toBeLessThan(1e-14);
      }),
    );
  });
});

describe('SO(3) Jacobians against finite differences (h = 1e-6, tolerance 1e-8)', () => {
  it('J_r, J_l, J_r⁻¹ = ∂Log(Exp(τ)Exp(δ))/∂δ, J_l⁻¹ = ∂Log(Exp(δ)Exp(τ))/∂δ', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0, max: 3, noNaN: true }), (seed, th) => {
        const t = unitVec(seed).map((v) => v * th);
        const E0 = exp(t);
        const E0inv = SO3.inverse(new Float64Array(9), E0);
        const fdJr = fd((x) => log(mul(E0inv, exp(x))), t);
        const fdJl = fd((x) => log(mul(exp(x), E0inv)), t);
        const zero = new Float64Array(3);
        const fdJrInv = fd((d) => log(mul(E0, exp(d))), zero);
        const fdJlInv = fd((d) => log(mul(exp(d), E0)), zero);
        expect(maxAbsDiff(SO3.rjac(new Float64Array(9), t), fdJr)).toBeLessThan(1e-8);
        expect(maxAbsDiff(SO3.ljac(new Float64Array(9), t), fdJl)).toBeLessThan(1e-8);
        expect(maxAbsDiff(SO3.rjacInv(new Float64Array(9), t), fdJrInv)).toBeLessThan(1e-8);
        expect(maxAbsDiff(SO3.ljacInv(new Float64Array(9), t), fdJlInv)).toBeLessThan(1e-8);
      }),
      { numRuns: 100 },
    );
  });
});

describe('SO(3) Taylor branches: continuity across SMALL_ANGLE', () => {
  const fns: [string, (t: Float64Array) => Float64Array][] = [
    ['exp', (t) => SO3.exp(new Float64Array(9), t)],
    ['rjac', (t) => SO3.rjac(new Float64Array(9), t)],
    ['ljac', (t) => SO3.ljac(new Float64Array(9), t)],
    ['rjacInv', (t) => SO3.rjacInv(new Float64Array(9), t)],
    ['ljacInv', (t) => SO3.ljacInv(new Float64Array(9), t)],
    ['log∘exp', (t) => SO3.log(new Float64Array(3), SO3.exp(new Float64Array(9), t))],
  ];
  const refs: Record<string, (t: Float64Array) => Float64Array> = {
    exp: (t) => expmSeries(hat3(new Float64Array(9), t), 3),
    rjac: jrSeries,
    ljac: jlSeries,
    rjacInv: jrInvSeries,
    ljacInv: jlInvSeries,
    'log∘exp': (t) => t,
  };
  for (const [name, f] of fns) {
    it(`${name}: jump between θ = SMALL_ANGLE(1 ∓ 1e-12) < 1e-15, both sides match the series to 1e-15`, () => {
      for (const seed of [11, 12, 13, 14]) {
        const n = unitVec(seed);
        const below = n.map((v) => v * SMALL_ANGLE * (1 - 1e-12));
        const above = n.map((v) => v * SMALL_ANGLE * (1 + 1e-12));
        expect(Math.hypot(...below)).toBeLessThan(SMALL_ANGLE);
        expect(Math.hypot(...above)).toBeGreaterThan(SMALL_ANGLE);
        const a = f(below);
        const b = f(above);
        expect(maxAbsDiff(a, b)).toBeLessThan(1e-15);
        expect(maxAbsDiff(a, refs[name]!(below))).toBeLessThan(1e-15);
        expect(maxAbsDiff(b, refs[name]!(above))).toBeLessThan(1e-15);
      }
    });
  }

  it('log(exp(τ)) = τ to 1e-15 relative for |τ| = 1e-12 … 1e-3', () => {
    for (let k = 3; k <= 12; k++) {
      const t = unitVec(k).map((v) => v * 10 ** -k);
      expect(maxAbsDiff(log(exp(t)), t)).toBeLessThan(1e-15 * 10 ** -k);
    }
  });
});

describe('SO(3) log near and at θ = π', () => {
  it('θ = π − 10⁻ᵏ, k = 1..12: log R = θn and exp(log R) = R (both ≤ 5e-15)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const n = unitVec(seed);
      for (let k = 1; k <= 12; k++) {
        const th = Math.PI - 10 ** -k;
        const R = exp(n.map((v) => v * th));
        const l = log(R);
        expect(
          maxAbsDiff(
            l,
            n.map((v) => v * th),
          ),
        ).toBeLessThan(5e-15);
        expect(maxAbsDiff(exp(l), R)).toBeLessThan(5e-15);
      }
    }
  });

  it('the generic branch is what fails there: θ/sin θ·vee(skew R) at π − 1e-12 errs by > 1e-6', () => {
    const n = unitVec(3);
    const th = Math.PI - 1e-12;
    const R = exp(n.map((v) => v * th));
    const s = [R[7]! - R[5]!, R[2]! - R[6]!, R[3]! - R[1]!].map((v) => v / 2);
    const generic = s.map((v) => (v * th) / Math.hypot(...s));
    expect(
      maxAbsDiff(
        generic,
        n.map((v) => v * th),
      ),
    ).toBeGreaterThan(1e-6);
  });

  it('exactly π: R = 2nnᵀ − I gives ±πn (1e-15) and exp(log R) = R (5e-15)', () => {
    const axes = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 1, 1].map((v) => v / Math.sqrt(3)),
      [1, -2, 0.5].map((v) => v / Math.hypot(1, -2, 0.5)),
      ...[21, 22, 23, 24].map((s) => Array.from(unitVec(s))),
    ];
    for (const n of axes) {
      const R = new Float64Array(9);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) R[3 * i + j] = 2 * n[i]! * n[j]! - (i === j ? 1 : 0);
      const l = log(R);
      expect(Math.abs(Math.hypot(...l) - Math.PI)).toBeLessThan(1e-15);
      const sign = l[0]! * n[0]! + l[1]! * n[1]! + l[2]! * n[2]! >= 0 ? 1 : -1;
      expect(
        maxAbsDiff(
          l,
          n.map((v) => sign * Math.PI * v),
        ),
      ).toBeLessThan(1e-15);
      expect(maxAbsDiff(exp(l), R)).toBeLessThan(5e-15);
    }
  });

  it('both sides of π − SO3_LOG_NEAR_PI agree with θn to 1e-15', () => {
    for (const seed of [31, 32, 33]) {
      const n = unitVec(seed);
      for (const d of [SO3_LOG_NEAR_PI * (1 - 1e-9), SO3_LOG_NEAR_PI * (1 + 1e-9)]) {
        const th = Math.PI - d;
        expect(
          maxAbsDiff(
            log(exp(n.map((v) => v * th))),
            n.map((v) => v * th),
          ),
        ).toBeLessThan(4e-15);
      }
    }
  });

  it('log of a random rotation has |τ| ≤ π and exp(log R) = R (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const R = SO3.random(new Float64Array(9), rng(seed));
        const l = log(R);
        expect(Math.hypot(...l)).toBeLessThanOrEqual(Math.PI);
        expect(maxAbsDiff(exp(l), R)).toBeLessThan(1e-14);
      }),
      { numRuns: 500 },
    );
  });
});

describe('SO(3) random', () => {
  it('is a rotation (RᵀR = I, det R = 1 to 4e-15) and deterministic in the seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const R = SO3.random(new Float64Array(9), rng(seed));
        const RtR = mul(SO3.inverse(new Float64Array(9), R), R);
        expect(maxAbsDiff(RtR, I3)).toBeLessThan(4e-15);
        const det =
          R[0]! * (R[4]! * R[8]! - R[5]! * R[7]!) -
          R[1]! * (R[3]! * R[8]! - R[5]! * R[6]!) +
          R[2]! * (R[3]! * R[7]! - R[4]! * R[6]!);
        expect(Math.abs(det - 1)).toBeLessThan(4e-15);
        expect(Array.from(SO3.random(new Float64Array(9), rng(seed)))).toEqual(Array.from(R));
      }),
    );
  });

  it('is Haar-uniform: E[R] = 0 and E[θ] = π/2 + 2/π (20000 samples, 5σ)', () => {
    const N = 20000;
    const r = rng(12345);
    const mean = new Float64Array(9);
    let thetaSum = 0;
    for (let k = 0; k < N; k++) {
      const R = SO3.random(new Float64Array(9), r);
      for (let i = 0; i < 9; i++) mean[i] = mean[i]! + R[i]! / N;
      thetaSum += Math.hypot(...log(R));
    }
    // each entry has variance 1/3; θ has density (1 − cos θ)/π, mean π/2 + 2/π, sd ≈ 0.75
    for (let i = 0; i < 9; i++) expect(Math.abs(mean[i]!)).toBeLessThan(5 * Math.sqrt(1 / 3 / N));
    expect(Math.abs(thetaSum / N - (Math.PI / 2 + 2 / Math.PI))).toBeLessThan(
      (5 * 0.75) / Math.sqrt(N),
    );
  });
});

describe('coadjoint action on SO(3) (spec 003 §2): Ad*_g ν = gᵀν', () => {
  it('⟨Ad*_g ν, ξ⟩ = ⟨ν, Ad_g ξ⟩, Ad*_{gh} = Ad*_h Ad*_g, and it equals the generic coAdjoint (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (s1, s2) => {
        const g = SO3.random(new Float64Array(9), rng(s1));
        const h = SO3.random(new Float64Array(9), rng(s2));
        const r = rng(s1 ^ (s2 * 7));
        const nu = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const xi = Float64Array.from({ length: 3 }, () => 4 * r() - 2);
        const star = coAdjointSO3(new Float64Array(3), g, nu);
        const Ad = SO3.adj(new Float64Array(9), g);
        const adXi = [0, 1, 2].map(
          (i) => Ad[3 * i]! * xi[0]! + Ad[3 * i + 1]! * xi[1]! + Ad[3 * i + 2]! * xi[2]!,
        );
        const left = star[0]! * xi[0]! + star[1]! * xi[1]! + star[2]! * xi[2]!;
        const right = nu[0]! * adXi[0]! + nu[1]! * adXi[1]! + nu[2]! * adXi[2]!;
        expect(Math.abs(left - right)).toBeLessThan(1e-14);
        const gh = SO3.compose(new Float64Array(9), g, h);
        const lhs = coAdjointSO3(new Float64Array(3), gh, nu);
        const rhs = coAdjointSO3(new Float64Array(3), h, coAdjointSO3(new Float64Array(3), g, nu));
        expect(maxAbsDiff(lhs, rhs)).toBeLessThan(1e-14);
        expect(maxAbsDiff(coAdjoint(SO3, new Float64Array(3), g, nu), star)).toBeLessThan(1e-15);
      }),
    );
  });

  it('is the transpose: Ad*_g ν = gᵀν ≠ gν for a rotation by π/2 about z', () => {
    const g = exp([0, 0, Math.PI / 2]);
    const out = coAdjointSO3(new Float64Array(3), g, Float64Array.of(1, 0, 0));
    expect(maxAbsDiff(out, [0, -1, 0])).toBeLessThan(1e-15);
  });

  it('in place: out may alias ν', () => {
    const g = SO3.random(new Float64Array(9), rng(3));
    const nu = Float64Array.of(0.3, -1, 2);
    const expected = coAdjointSO3(new Float64Array(3), g, nu);
    expect(maxAbsDiff(coAdjointSO3(nu, g, nu), expected)).toBe(0);
  });
});

describe('rjacInvCoefficientsSO3: the axis-form coefficients of J_r⁻¹ (the D7 helper)', () => {
  // θ = 0, 1e-8, across SMALL_ANGLE, moderate, and up to π − 1e-6, in fixed random directions,
  // plus 300 random τ with |τ| < π
  const angles = [
    0,
    1e-8,
    1e-6,
    SMALL_ANGLE * (1 - 1e-12),
    SMALL_ANGLE,
    SMALL_ANGLE * (1 + 1e-12),
    1e-3,
    0.1,
    0.5,
    1,
    2,
    3,
    Math.PI - 1e-3,
    Math.PI - 1e-6,
  ];
  const cases: Float64Array[] = [];
  for (const [k, t] of angles.entries()) cases.push(unitVec(100 + k).map((v) => v * t));
  const rand = rng(2026);
  for (let k = 0; k < 300; k++) {
    const n = unitVec(1000 + k);
    cases.push(n.map((v) => v * Math.PI * rand()));
  }

  it('axisForm3(τ, a, b, c) with its (a, b, c) is SO3.rjacInv(τ), and with (a, −b, c) SO3.ljacInv(τ), bit for bit', () => {
    const k = new Float64Array(3);
    for (const tau of cases) {
      rjacInvCoefficientsSO3(k, tau);
      expect(k[1]).toBe(0.5);
      expect(Array.from(axisForm3(new Float64Array(9), tau, k[0]!, k[1]!, k[2]!))).toEqual(
        Array.from(SO3.rjacInv(new Float64Array(9), tau)),
      );
      expect(Array.from(axisForm3(new Float64Array(9), tau, k[0]!, -k[1]!, k[2]!))).toEqual(
        Array.from(SO3.ljacInv(new Float64Array(9), tau)),
      );
    }
  });

  it('a = (θ/2)cot(θ/2) to 2ε, c = (1 − a)/θ² (series 1/12 + θ²/720 + θ⁴/30240 near 0) to 2e-15 relative + 3e-16/θ²; J_r⁻¹·J_r = I to 1e-13', () => {
    const k = new Float64Array(3);
    for (const tau of cases) {
      rjacInvCoefficientsSO3(k, tau);
      const t = Math.hypot(tau[0]!, tau[1]!, tau[2]!);
      // references independent of the helper: the closed forms in another arrangement
      // (θ/2)/tan(θ/2) and, where they cancel (θ < 1e-2), their Maclaurin series to θ⁸
      const t2 = t * t;
      const aRef =
        t < 1e-2 ? 1 - t2 / 12 - (t2 * t2) / 720 - (t2 * t2 * t2) / 30240 : t / 2 / Math.tan(t / 2);
      const cRef =
        t < 1e-2
          ? 1 / 12 + t2 / 720 + (t2 * t2) / 30240 + (t2 * t2 * t2) / 1209600
          : (1 - aRef) / t2;
      // a ∈ (0, 1]: to 2ε absolute (near θ = π both forms lose relative accuracy as a → 0)
      expect(Math.abs(k[0]! - aRef)).toBeLessThanOrEqual(4.5e-16);
      // c's closed form (1 − a)/θ² cancels above SMALL_ANGLE: ≈ ε/θ² relative, harmless in
      // J_r⁻¹ where c multiplies ττᵀ (|c·ττᵀ| error ≤ ε)
      expect(Math.abs(k[2]! - cRef)).toBeLessThanOrEqual(
        2e-15 * Math.abs(cRef) + (t > 0 ? 3e-16 / t2 : 0),
      );
      if (t === 0) {
        expect(k[0]).toBe(1);
        expect(k[2]).toBe(1 / 12);
      }
      if (t < Math.PI - 1e-3) {
        const prod = mul(
          axisForm3(new Float64Array(9), tau, k[0]!, k[1]!, k[2]!),
          SO3.rjac(new Float64Array(9), tau),
        );
        expect(maxAbsDiff(prod, I3)).toBeLessThan(1e-13);
      }
    }
  });

  it('reads x[xOff..xOff+3), writes out[outOff..outOff+3) only (out may alias x), checks the lengths', () => {
    const tau = Float64Array.of(0.3, -0.4, 1.2);
    const ref = rjacInvCoefficientsSO3(new Float64Array(3), tau);
    const buf = Float64Array.of(7, 0.3, -0.4, 1.2, 7, 7, 7, 7);
    rjacInvCoefficientsSO3(buf, buf, 4, 1);
    expect(Array.from(buf)).toEqual([7, 0.3, -0.4, 1.2, ref[0], ref[1], ref[2], 7]);
    // in place over its own input
    const same = Float64Array.of(0.3, -0.4, 1.2);
    expect(Array.from(rjacInvCoefficientsSO3(same, same))).toEqual(Array.from(ref));
    expect(() => rjacInvCoefficientsSO3(new Float64Array(2), tau)).toThrow(DimensionError);
    expect(() => rjacInvCoefficientsSO3(new Float64Array(5), tau, 3)).toThrow(DimensionError);
    expect(() => rjacInvCoefficientsSO3(new Float64Array(3), tau, 0, 1)).toThrow(DimensionError);
    expect(() => rjacInvCoefficientsSO3(new Float64Array(3), tau, -1)).toThrow(DimensionError);
  });
});
