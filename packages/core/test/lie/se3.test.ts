import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SE3_SERIES_ANGLE, SMALL_ANGLE, SO3_LOG_NEAR_PI } from '../../src/constants.js';
import { SE3, SE3Group } from '../../src/lie/se3.js';
import { describeLieGroup } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

describeLieGroup(SE3);

// ---------------------------------------------------------------------------------------------
// independent oracles
// ---------------------------------------------------------------------------------------------

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

function matMul(a: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++)
      for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + a[i * n + k]! * b[k * n + j]!;
  return out;
}

function matVec(a: ArrayLike<number>, x: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}

/** Σ_{k ≤ 40} M^k/k!, the plain truncated power series of the 4×4 matrix exponential. */
function expTruncated(m: Float64Array): Float64Array {
  const sum = new Float64Array(16);
  let term = new Float64Array(16);
  for (let i = 0; i < 4; i++) {
    sum[i * 5] = 1;
    term[i * 5] = 1;
  }
  for (let k = 1; k <= 40; k++) {
    term = matMul(term, m, 4).map((x) => x / k);
    for (let i = 0; i < 16; i++) sum[i] = sum[i]! + term[i]!;
  }
  return sum;
}

/** Rotation by angle `theta` about the unit axis n, by Rodrigues' formula written out here. */
function rodrigues(n: ArrayLike<number>, theta: number): Float64Array {
  const [x, y, z] = [n[0]!, n[1]!, n[2]!];
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const k = 1 - c;
  return Float64Array.of(
    c + k * x * x,
    k * x * y - s * z,
    k * x * z + s * y,
    k * x * y + s * z,
    c + k * y * y,
    k * y * z - s * x,
    k * x * z - s * y,
    k * y * z + s * x,
    c + k * z * z,
  );
}

function unitVector(r: () => number): Float64Array {
  for (;;) {
    const v = Float64Array.of(2 * r() - 1, 2 * r() - 1, 2 * r() - 1);
    const n = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (n > 0.1 && n <= 1) return v.map((x) => x / n);
  }
}

/** τ = [ρ; θ n] with |ρ_i| ≤ rhoScale and a random unit axis n. */
function tangentWithAngle(r: () => number, theta: number, rhoScale = 2): Float64Array {
  const n = unitVector(r);
  return Float64Array.of(
    rhoScale * (2 * r() - 1),
    rhoScale * (2 * r() - 1),
    rhoScale * (2 * r() - 1),
    theta * n[0]!,
    theta * n[1]!,
    theta * n[2]!,
  );
}

const el = () => new Float64Array(16);
const tv = () => new Float64Array(6);
const m6 = () => new Float64Array(36);

/** Central differences of the right (Log(Exp(τ)⁻¹Exp(τ + hδ))) or left version of Exp. */
function fdJacobian(tau: Float64Array, side: 'right' | 'left', h = 1e-6): Float64Array {
  const Einv = SE3.inverse(el(), SE3.exp(el(), tau));
  const f = (x: Float64Array) =>
    side === 'right'
      ? SE3.log(tv(), SE3.compose(el(), Einv, SE3.exp(el(), x)))
      : SE3.log(tv(), SE3.compose(el(), SE3.exp(el(), x), Einv));
  const J = m6();
  for (let j = 0; j < 6; j++) {
    const xp = tau.slice();
    const xm = tau.slice();
    xp[j] = xp[j]! + h;
    xm[j] = xm[j]! - h;
    const fp = f(xp);
    const fm = f(xm);
    for (let i = 0; i < 6; i++) J[i * 6 + j] = (fp[i]! - fm[i]!) / (2 * h);
  }
  return J;
}

const I6 = (() => {
  const I = m6();
  for (let i = 0; i < 6; i++) I[i * 7] = 1;
  return I;
})();

/** Angles that exercise every branch: 0, tiny, both sides of the thresholds, large, near π. */
const ANGLES = [
  0,
  1e-9,
  SMALL_ANGLE / 2,
  SMALL_ANGLE * 2,
  0.3,
  SE3_SERIES_ANGLE * 0.999,
  SE3_SERIES_ANGLE * 1.001,
  2,
  Math.PI - 2 * SO3_LOG_NEAR_PI,
  Math.PI - SO3_LOG_NEAR_PI / 2,
  3.1,
];

// ---------------------------------------------------------------------------------------------

describe('SE(3) specifics', () => {
  it('has the documented sizes', () => {
    expect([SE3.dim, SE3.storageSize, SE3.matrixSize, SE3.actionDim]).toEqual([6, 16, 4, 3]);
    expect(SE3.name).toBe('SE(3)');
    expect(SE3).toBeInstanceOf(SE3Group);
  });

  it('exp equals the truncated power series Σ (τ^)^k/k! of the 4×4 matrix (1e-13)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...ANGLES.filter((a) => a < 2.5)), (seed, a) => {
        const r = rng(seed);
        const tau = tangentWithAngle(r, a, 1);
        const expected = expTruncated(SE3.hat(el(), tau));
        expect(maxAbsDiff(SE3.exp(el(), tau), expected)).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
    // a fixed case: rotation π/2 about z with ρ = e_x gives t = (2/π, 2/π, 0)
    const X = SE3.exp(el(), Float64Array.of(1, 0, 0, 0, 0, Math.PI / 2));
    expect(
      maxAbsDiff(SE3.translation(new Float64Array(3), X), [2 / Math.PI, 2 / Math.PI, 0]),
    ).toBeLessThan(1e-15);
    expect(
      maxAbsDiff(SE3.rotation(new Float64Array(9), X), [0, -1, 0, 1, 0, 0, 0, 0, 1]),
    ).toBeLessThan(1e-15);
  });

  it('exp∘log = id on random elements with rotation angle π − 10⁻ᵏ, k = 1..12, and π (1e-11)', () => {
    for (let seed = 0; seed < 40; seed++) {
      const r = rng(seed);
      for (let k = 0; k <= 12; k++) {
        const theta = k === 0 ? Math.PI : Math.PI - 10 ** -k;
        const n = unitVector(r);
        const t = Float64Array.of(4 * r() - 2, 4 * r() - 2, 4 * r() - 2);
        const X = SE3.fromRotationTranslation(el(), rodrigues(n, theta), t);
        const tau = SE3.log(tv(), X);
        expect(maxAbsDiff(SE3.exp(el(), tau), X)).toBeLessThan(1e-11);
        // the rotation part of Log is θ n (for θ < π the sign is determined)
        const w = tau.subarray(3);
        if (k > 0)
          expect(
            maxAbsDiff(
              w,
              n.map((x) => theta * x),
            ),
          ).toBeLessThan(1e-12);
        else expect(Math.abs(Math.hypot(w[0]!, w[1]!, w[2]!) - Math.PI)).toBeLessThan(1e-14);
      }
    }
  });

  it('log∘exp = id near π as well (1e-11)', () => {
    for (let seed = 0; seed < 40; seed++) {
      const r = rng(seed);
      for (let k = 1; k <= 12; k++) {
        const tau = tangentWithAngle(r, Math.PI - 10 ** -k);
        expect(maxAbsDiff(SE3.log(tv(), SE3.exp(el(), tau)), tau)).toBeLessThan(1e-11);
      }
    }
  });

  it('is continuous across SMALL_ANGLE, SE3_SERIES_ANGLE and π − SO3_LOG_NEAR_PI (1e-12)', () => {
    // The jump at a threshold T is op(T + δ) − [2·op(T − δ) − op(T − 3δ)]: the bracket
    // extrapolates linearly from below (error ≈ 4δ²|op″|, negligible for δ = 1e-9·T).
    const jump = (op: (theta: number) => Float64Array, T: number): number => {
      const d = 1e-9 * T;
      const b1 = op(T - d);
      const b3 = op(T - 3 * d);
      return maxAbsDiff(
        op(T + d),
        b1.map((x, i) => 2 * x - b3[i]!),
      );
    };
    const ops = [
      (t: Float64Array) => SE3.exp(el(), t),
      (t: Float64Array) => SE3.log(tv(), SE3.exp(el(), t)),
      (t: Float64Array) => SE3.rjac(m6(), t),
      (t: Float64Array) => SE3.ljac(m6(), t),
      (t: Float64Array) => SE3.rjacInv(m6(), t),
      (t: Float64Array) => SE3.ljacInv(m6(), t),
    ];
    for (const T of [SMALL_ANGLE, SE3_SERIES_ANGLE, Math.PI - SO3_LOG_NEAR_PI]) {
      for (let seed = 0; seed < 20; seed++) {
        const r = rng(seed);
        const n = unitVector(r);
        const rho = Float64Array.of(4 * r() - 2, 4 * r() - 2, 4 * r() - 2);
        const at = (theta: number) =>
          Float64Array.of(rho[0]!, rho[1]!, rho[2]!, theta * n[0]!, theta * n[1]!, theta * n[2]!);
        for (const op of ops) expect(jump((theta) => op(at(theta)), T)).toBeLessThan(1e-12);
      }
    }
    // log's near-π switch on rotations given directly (not through exp)
    for (let seed = 0; seed < 20; seed++) {
      const r = rng(seed);
      const n = unitVector(r);
      const t = Float64Array.of(4 * r() - 2, 4 * r() - 2, 4 * r() - 2);
      const logAt = (theta: number) =>
        SE3.log(tv(), SE3.fromRotationTranslation(el(), rodrigues(n, theta), t));
      expect(jump(logAt, Math.PI - SO3_LOG_NEAR_PI)).toBeLessThan(1e-12);
    }
  });

  it('J_r, J_l and their inverses match central differences of Exp (1e-7); J·J⁻¹ = I (1e-12)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...ANGLES), (seed, a) => {
        const tau = tangentWithAngle(rng(seed), a);
        const Jr = SE3.rjac(m6(), tau);
        const Jl = SE3.ljac(m6(), tau);
        const JrInv = SE3.rjacInv(m6(), tau);
        const JlInv = SE3.ljacInv(m6(), tau);
        expect(maxAbsDiff(Jr, fdJacobian(tau, 'right'))).toBeLessThan(1e-7);
        expect(maxAbsDiff(Jl, fdJacobian(tau, 'left'))).toBeLessThan(1e-7);
        // the inverses are the Jacobians of Log: d Log(Exp(τ)·Exp(δ))/dδ = J_r⁻¹
        const X = SE3.exp(el(), tau);
        const fdLogR = m6();
        const fdLogL = m6();
        const h = 1e-6;
        for (let j = 0; j < 6; j++) {
          const d = tv();
          d[j] = h;
          const dm = d.map((x) => -x);
          const rp = SE3.log(tv(), SE3.rplus(el(), X, d));
          const rm = SE3.log(tv(), SE3.rplus(el(), X, dm));
          const lp = SE3.log(tv(), SE3.lplus(el(), d, X));
          const lm = SE3.log(tv(), SE3.lplus(el(), dm, X));
          for (let i = 0; i < 6; i++) {
            fdLogR[i * 6 + j] = (rp[i]! - rm[i]!) / (2 * h);
            fdLogL[i * 6 + j] = (lp[i]! - lm[i]!) / (2 * h);
          }
        }
        expect(maxAbsDiff(JrInv, fdLogR)).toBeLessThan(1e-7);
        expect(maxAbsDiff(JlInv, fdLogL)).toBeLessThan(1e-7);
        expect(maxAbsDiff(matMul(Jr, JrInv, 6), I6)).toBeLessThan(1e-12);
        expect(maxAbsDiff(matMul(JrInv, Jr, 6), I6)).toBeLessThan(1e-12);
        expect(maxAbsDiff(matMul(Jl, JlInv, 6), I6)).toBeLessThan(1e-12);
        expect(maxAbsDiff(matMul(JlInv, Jl, 6), I6)).toBeLessThan(1e-12);
        // J_l(τ) = J_r(−τ) and Ad_{Exp(τ)} = J_l J_r⁻¹ (CONVENTIONS.md)
        expect(
          maxAbsDiff(
            Jl,
            SE3.rjac(
              m6(),
              tau.map((x) => -x),
            ),
          ),
        ).toBe(0);
        expect(maxAbsDiff(SE3.adj(m6(), X), matMul(Jl, JrInv, 6))).toBeLessThan(1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it('J_l(τ) = Σ ad_τᵏ/(k+1)! and J_r(τ) = Σ (−ad_τ)ᵏ/(k+1)! (truncated series, 1e-13)', () => {
    // An oracle independent of Q's closed form and as accurate as double allows for |ad_τ| ≲ 5,
    // so it sees the ≈ ε/θ error the closed-form Q coefficients would have at small θ.
    const series = (ad: Float64Array): Float64Array => {
      const sum = Float64Array.from(I6);
      let term = Float64Array.from(I6);
      for (let k = 1; k <= 40; k++) {
        term = matMul(term, ad, 6).map((x) => x / (k + 1));
        for (let i = 0; i < 36; i++) sum[i] = sum[i]! + term[i]!;
      }
      return sum;
    };
    const angles = [0, 1e-6, SMALL_ANGLE * 0.9, SMALL_ANGLE * 1.1, 3e-4, 1e-3, 1e-2, 0.1, 0.9];
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...angles, 1.1, 1.5), (seed, a) => {
        const tau = tangentWithAngle(rng(seed), a);
        const ad = SE3.smallAdj(m6(), tau);
        expect(maxAbsDiff(SE3.ljac(m6(), tau), series(ad))).toBeLessThan(1e-13);
        expect(maxAbsDiff(SE3.rjac(m6(), tau), series(ad.map((x) => -x)))).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
  });

  it('J_r(0) = J_l(0)⁻¹ = I and J_r([ρ; 0]) = [[I, −ρ̂/2], [0, I]] exactly', () => {
    expect(maxAbsDiff(SE3.rjac(m6(), tv()), I6)).toBe(0);
    expect(maxAbsDiff(SE3.ljacInv(m6(), tv()), I6)).toBe(0);
    // pure translation τ = [ρ; 0]: J_r = [[I, −ρ̂/2], [0, I]]
    const J = SE3.rjac(m6(), Float64Array.of(1, 2, 3, 0, 0, 0));
    const expected = Float64Array.from(I6);
    const half = [0, 1.5, -1, -1.5, 0, 0.5, 1, -0.5, 0]; // −ρ̂/2 for ρ = (1, 2, 3)
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) expected[6 * r + 3 + c] = half[3 * r + c]!;
    expect(maxAbsDiff(J, expected)).toBe(0);
  });

  it('adjoint identity X·Exp(τ) = Exp(Ad_X τ)·X on random elements (1e-12)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0.01, 0.5, 1.5, 2.5), (seed, a) => {
        const r = rng(seed);
        const X = SE3.random(el(), r);
        const tau = tangentWithAngle(r, a, 1);
        const left = SE3.compose(el(), X, SE3.exp(el(), tau));
        const adTau = matVec(SE3.adj(m6(), X), tau, 6);
        const right = SE3.compose(el(), SE3.exp(el(), adTau), X);
        expect(maxAbsDiff(left, right)).toBeLessThan(1e-12);
        // and Ad_X τ = (X τ^ X⁻¹)∨ directly
        const conj = matMul(matMul(X, SE3.hat(el(), tau), 4), SE3.inverse(el(), X), 4);
        expect(maxAbsDiff(adTau, SE3.vee(tv(), conj))).toBeLessThan(1e-14 * 20);
      }),
      { numRuns: 200 },
    );
  });

  it('ad_τ σ = [τ^, σ^]∨ via the commutator of hats (1e-14)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const tau = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
        const sigma = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
        const th = SE3.hat(el(), tau);
        const sh = SE3.hat(el(), sigma);
        const ts = matMul(th, sh, 4);
        const st = matMul(sh, th, 4);
        const bracket = SE3.vee(
          tv(),
          ts.map((x, i) => x - st[i]!),
        );
        expect(maxAbsDiff(matVec(SE3.smallAdj(m6(), tau), sigma, 6), bracket)).toBeLessThan(1e-14);
      }),
      { numRuns: 200 },
    );
  });

  it('acts on points as R p + t, composes as an action, and pure translations translate', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const X = SE3.random(el(), r);
        const Y = SE3.random(el(), r);
        const p = Float64Array.of(2 * r() - 1, 2 * r() - 1, 2 * r() - 1);
        const M = SE3.toMatrix(el(), X);
        const homog = matVec(M, [p[0]!, p[1]!, p[2]!, 1], 4);
        expect(maxAbsDiff(SE3.act(new Float64Array(3), X, p), homog.subarray(0, 3))).toBeLessThan(
          1e-15 * 8,
        );
        const viaXY = SE3.act(new Float64Array(3), SE3.compose(el(), X, Y), p);
        const stepwise = SE3.act(new Float64Array(3), X, SE3.act(new Float64Array(3), Y, p));
        expect(maxAbsDiff(viaXY, stepwise)).toBeLessThan(1e-14);
        const back = SE3.act(
          new Float64Array(3),
          SE3.inverse(el(), X),
          SE3.act(new Float64Array(3), X, p),
        );
        expect(maxAbsDiff(back, p)).toBeLessThan(1e-14);
      }),
      { numRuns: 200 },
    );
    const shift = SE3.exp(el(), Float64Array.of(1, -2, 0.5, 0, 0, 0));
    expect(Array.from(SE3.act(new Float64Array(3), shift, Float64Array.of(1, 1, 1)))).toEqual([
      2, -1, 1.5,
    ]);
  });

  it('random: R is a rotation (RᵀR = I, det 1), t ∈ [−2, 2]³, and R is Haar-distributed', () => {
    const r = rng(12345);
    const N = 20000;
    const mean = new Float64Array(9);
    const second = new Float64Array(9);
    let orthErr = 0;
    let detErr = 0;
    let tMax = 0;
    let lastRowOk = true;
    const X = el();
    const R = new Float64Array(9);
    for (let s = 0; s < N; s++) {
      SE3.random(X, r);
      SE3.rotation(R, X);
      const Rt = [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!];
      orthErr = Math.max(orthErr, maxAbsDiff(matMul(Rt, R, 3), [1, 0, 0, 0, 1, 0, 0, 0, 1]));
      const det =
        R[0]! * (R[4]! * R[8]! - R[5]! * R[7]!) -
        R[1]! * (R[3]! * R[8]! - R[5]! * R[6]!) +
        R[2]! * (R[3]! * R[7]! - R[4]! * R[6]!);
      detErr = Math.max(detErr, Math.abs(det - 1));
      tMax = Math.max(tMax, Math.abs(X[3]!), Math.abs(X[7]!), Math.abs(X[11]!));
      lastRowOk &&= X[12] === 0 && X[13] === 0 && X[14] === 0 && X[15] === 1;
      for (let i = 0; i < 9; i++) {
        mean[i] = mean[i]! + R[i]! / N;
        second[i] = second[i]! + (R[i]! * R[i]!) / N;
      }
    }
    expect(orthErr).toBeLessThan(1e-14);
    expect(detErr).toBeLessThan(1e-14);
    expect(tMax).toBeLessThanOrEqual(2);
    expect(tMax).toBeGreaterThan(1.99);
    expect(lastRowOk).toBe(true);
    // Haar measure: E[R] = 0 and E[R_ij²] = 1/3 (standard error ≈ 0.004 and ≈ 0.002)
    for (let i = 0; i < 9; i++) {
      expect(Math.abs(mean[i]!)).toBeLessThan(0.02);
      expect(Math.abs(second[i]! - 1 / 3)).toBeLessThan(0.01);
    }
  });

  it('hat/vee, inverse, between and the rotation/translation helpers agree with the matrices', () => {
    const r = rng(99);
    for (let s = 0; s < 50; s++) {
      const X = SE3.random(el(), r);
      const Y = SE3.random(el(), r);
      const R = SE3.rotation(new Float64Array(9), X);
      const t = SE3.translation(new Float64Array(3), X);
      expect(Array.from(SE3.fromRotationTranslation(el(), R, t))).toEqual(Array.from(X));
      const Xinv = SE3.inverse(el(), X);
      expect(maxAbsDiff(matMul(X, Xinv, 4), SE3.identity(el()))).toBeLessThan(1e-15 * 8);
      expect(maxAbsDiff(SE3.between(el(), X, Y), matMul(Xinv, Y, 4))).toBeLessThan(1e-14);
      const tau = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
      const H = SE3.hat(el(), tau);
      expect(Array.from(SE3.vee(tv(), H))).toEqual(Array.from(tau));
      // τ^ = [[θ̂, ρ], [0, 0]]: θ̂ p = θ × p
      const p = [0.3, -0.7, 1.1];
      const cross = [
        tau[4]! * p[2]! - tau[5]! * p[1]!,
        tau[5]! * p[0]! - tau[3]! * p[2]!,
        tau[3]! * p[1]! - tau[4]! * p[0]!,
      ];
      const Hp = matVec(H, [...p, 0], 4);
      expect(maxAbsDiff(Hp, [...cross, 0])).toBeLessThan(1e-15 * 4);
    }
  });

  it('compose/act/exp/log return their out; compose, inverse, between and act may alias', () => {
    const r = rng(3);
    const A = SE3.random(el(), r);
    const B = SE3.random(el(), r);
    const AB = matMul(A, B, 4);
    const out = el();
    expect(SE3.compose(out, A, B)).toBe(out);
    const tau = tv();
    expect(SE3.log(tau, A)).toBe(tau);
    expect(SE3.exp(out, tau)).toBe(out);
    const p = Float64Array.of(1, 2, 3);
    const expected = SE3.act(new Float64Array(3), A, p);
    expect(SE3.act(p, A, p)).toBe(p);
    expect(Array.from(p)).toEqual(Array.from(expected));

    const a1 = A.slice();
    expect(SE3.compose(a1, a1, B)).toBe(a1);
    expect(maxAbsDiff(a1, AB)).toBeLessThan(1e-15 * 8);
    const b1 = B.slice();
    expect(SE3.compose(b1, A, b1)).toBe(b1);
    expect(maxAbsDiff(b1, AB)).toBeLessThan(1e-15 * 8);
    const a2 = A.slice();
    SE3.inverse(a2, a2);
    expect(Array.from(a2)).toEqual(Array.from(SE3.inverse(el(), A)));
    const a3 = A.slice();
    SE3.between(a3, a3, B);
    expect(Array.from(a3)).toEqual(Array.from(SE3.between(el(), A, B)));
    const b3 = B.slice();
    SE3.between(b3, A, b3);
    expect(Array.from(b3)).toEqual(Array.from(SE3.between(el(), A, B)));
    const a4 = A.slice();
    SE3.rplus(a4, a4, Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6));
    expect(Array.from(a4)).toEqual(
      Array.from(SE3.rplus(el(), A, Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6))),
    );
  });
});
