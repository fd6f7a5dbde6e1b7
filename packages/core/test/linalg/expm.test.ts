import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError, NonFiniteError } from '../../src/errors.js';
import { Expm, expm, Logm, logm, Phi1m, phi1m } from '../../src/linalg/expm.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { matMul } from '../../src/linalg/matrix.js';
import { orthogonal, rng, vecs } from '../support/random.js';

// ---------------------------------------------------------------------------------------------
// Helpers: references are built from exactly known spectral data (A = Q·D·Qᵀ with Q a product of
// Householder reflections, A = S·D·S⁻¹ with S unit upper triangular), finite series of nilpotent
// matrices, and closed forms (rotations, 2×2 triangular), independently of the code under test.
// ---------------------------------------------------------------------------------------------

const mul = (a: Float64Array, b: Float64Array, n: number) =>
  matMul(new Float64Array(n * n), a, b, n, n, n);

function eye(n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  return out;
}

function norm1(a: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.abs(a[i * n + j]!);
    best = Math.max(best, s);
  }
  return best;
}

/** ‖a − b‖₁/‖b‖₁. */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  const d = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) d[i] = a[i]! - b[i]!;
  return norm1(d, n) / norm1(b, n);
}

function inverse(a: Float64Array, n: number): Float64Array {
  const lu = new DenseLU(n).factor(a);
  const out = new Float64Array(n * n);
  const col = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    col.fill(0);
    col[j] = 1;
    lu.solve(col, col);
    for (let i = 0; i < n; i++) out[i * n + j] = col[i]!;
  }
  return out;
}

/** S·diag(f(λ))·S⁻¹. */
function spectral(
  S: Float64Array,
  Sinv: Float64Array,
  lambda: ArrayLike<number>,
  f: (x: number) => number,
  n: number,
): Float64Array {
  const D = new Float64Array(n * n);
  for (let i = 0; i < n; i++) D[i * n + i] = f(lambda[i]!);
  return mul(mul(S, D, n), Sinv, n);
}

/** Unit upper triangular S with off-diagonal entries in [−c, c]. */
function unitUpper(n: number, seed: number, c: number): Float64Array {
  const r = rng(seed);
  const S = eye(n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) S[i * n + j] = c * (2 * r() - 1);
  return S;
}

/** Rotation by θ in the plane (p, q) of Rⁿ (e_p → cos θ e_p + sin θ e_q), and its generator. */
function planeRotation(n: number, p: number, q: number, theta: number) {
  const R = eye(n);
  R[p * n + p] = Math.cos(theta);
  R[q * n + q] = Math.cos(theta);
  R[q * n + p] = Math.sin(theta);
  R[p * n + q] = -Math.sin(theta);
  const G = new Float64Array(n * n);
  G[q * n + p] = theta;
  G[p * n + q] = -theta;
  return { R, G };
}

const U = Number.EPSILON / 2;
const sizes = [1, 2, 3, 5, 8];

describe('expm: scaling and squaring with Padé approximants (Al-Mohy & Higham 2009)', () => {
  it('symmetric A = Q·diag(λ)·Qᵀ, λ ∈ [−20, 20]: relative error ≤ 50u·n', () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...sizes),
        vecs(3, 8),
        fc.integer(),
        fc.double({ min: 0.01, max: 20, noNaN: true }),
        (n, ws, seed, spread) => {
          const { q } = orthogonal(
            n,
            ws.map((w) => w.slice(0, n)),
          );
          const r = rng(seed);
          const lambda = Float64Array.from({ length: n }, () => spread * (2 * r() - 1));
          const qt = new Float64Array(n * n);
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) qt[j * n + i] = q[i * n + j]!;
          const A = spectral(q, qt, lambda, (x) => x, n);
          const ref = spectral(q, qt, lambda, Math.exp, n);
          const e = relErr(expm(new Float64Array(n * n), A, n), ref, n);
          worst = Math.max(worst, e / n);
          expect(e).toBeLessThan(50 * U * n * Math.max(1, spread));
        },
      ),
      { numRuns: 200 },
    );
    expect(worst).toBeLessThan(1e-12);
  });

  it('nonnormal diagonalizable A = S·diag(λ)·S⁻¹ (S unit upper triangular): ≤ 1e-13·κ₁(S)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 2 + (seed % 6);
      const S = unitUpper(n, seed, 1);
      const Sinv = inverse(S, n);
      const r = rng(seed + 1000);
      const lambda = Float64Array.from({ length: n }, () => 6 * (2 * r() - 1));
      const A = spectral(S, Sinv, lambda, (x) => x, n);
      const ref = spectral(S, Sinv, lambda, Math.exp, n);
      const kappa = norm1(S, n) * norm1(Sinv, n);
      expect(relErr(expm(new Float64Array(n * n), A, n), ref, n)).toBeLessThan(1e-14 * kappa);
    }
  });

  it('rotation generators: exp([[0, −θ], [θ, 0]]) = R(θ) to 2e-15·(1 + θ), also embedded in R⁵', () => {
    for (let theta = -10; theta <= 10; theta += 0.37) {
      const { R, G } = planeRotation(2, 0, 1, theta);
      const E = expm(new Float64Array(4), G, 2);
      for (let i = 0; i < 4; i++)
        expect(Math.abs(E[i]! - R[i]!)).toBeLessThan(2e-15 * (1 + Math.abs(theta)));
      // two commuting rotations in orthogonal planes of R⁵
      const a = planeRotation(5, 0, 3, theta);
      const b = planeRotation(5, 1, 4, 0.5 * theta + 1);
      const G5 = a.G.map((x, i) => x + b.G[i]!);
      const E5 = expm(new Float64Array(25), G5, 5);
      const R5 = mul(a.R, b.R, 5);
      for (let i = 0; i < 25; i++)
        expect(Math.abs(E5[i]! - R5[i]!)).toBeLessThan(4e-15 * (1 + Math.abs(theta)));
    }
  });

  it('nilpotent N (strictly upper triangular, entries up to 10): e^N = Σ_{k<n} N^k/k! exactly', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const n = 2 + (seed % 7);
      const N = unitUpper(n, seed, 10);
      for (let i = 0; i < n; i++) N[i * n + i] = 0;
      let term = eye(n);
      const ref = eye(n);
      for (let k = 1; k < n; k++) {
        term = mul(term, N, n).map((x) => x / k);
        for (let i = 0; i < n * n; i++) ref[i] = ref[i]! + term[i]!;
      }
      const E = new Expm(n);
      expect(relErr(E.compute(new Float64Array(n * n), N), ref, n)).toBeLessThan(1e-15 * n);
      expect(E.squarings).toBe(0); // ‖N^k‖ = 0 for k ≥ n: the nilpotent case needs no scaling
    }
  });

  it('no overscaling: [[1, b], [0, −1]] with b up to 1e8 (Al-Mohy & Higham 2009, §1)', () => {
    for (const b of [1, 1e2, 1e4, 1e6, 1e8]) {
      const E = new Expm(2);
      const out = E.compute(new Float64Array(4), Float64Array.of(1, b, 0, -1));
      const ref = Float64Array.of(Math.E, (b * (Math.E - 1 / Math.E)) / 2, 0, 1 / Math.E);
      for (let i = 0; i < 4; i++)
        expect(Math.abs(out[i]! - ref[i]!)).toBeLessThan(4 * U * Math.abs(ref[i]!) + 1e-300);
      expect(E.squarings).toBeLessThanOrEqual(1);
    }
  });

  it('degree and scaling follow the norm: 3 near 0, 13 with squarings for large A', () => {
    const E = new Expm(3);
    const out = new Float64Array(9);
    E.compute(out, new Float64Array(9));
    expect([E.degree, E.squarings]).toEqual([3, 0]);
    expect(Array.from(out)).toEqual(Array.from(eye(3)));
    E.compute(out, Float64Array.of(1e-3, 2e-3, 0, 0, -1e-3, 1e-3, 3e-3, 0, 0));
    expect(E.degree).toBeLessThanOrEqual(5);
    const E2 = new Expm(2);
    E2.compute(new Float64Array(4), Float64Array.of(0, -1, 1, 0)); // ‖A^k‖^{1/k} = 1
    expect([E2.degree, E2.squarings]).toEqual([9, 0]);
    E.compute(out, Float64Array.of(30, 1, 0, 0, -40, 1, 2, 0, 5));
    expect(E.degree).toBe(13);
    expect(E.squarings).toBeGreaterThanOrEqual(4);
  });

  it('1×1: exp(x) over [−700, 700] to 1e-14·(1 + |x|) relative (|x| is its condition number)', () => {
    const E = new Expm(1);
    const out = new Float64Array(1);
    for (let x = -700; x <= 700; x += 13.7) {
      E.compute(out, Float64Array.of(x));
      expect(Math.abs(out[0]! - Math.exp(x)) / Math.exp(x)).toBeLessThan(1e-14 * (1 + Math.abs(x)));
    }
  });

  it('out may alias a; errors are typed', () => {
    const a = Float64Array.of(0, -1, 1, 0);
    expm(a, a, 2);
    expect(Math.abs(a[0]! - Math.cos(1))).toBeLessThan(1e-15);
    expect(() => expm(new Float64Array(4), Float64Array.of(0, Number.NaN, 0, 0), 2)).toThrow(
      NonFiniteError,
    );
    expect(() => expm(new Float64Array(1), Float64Array.of(800), 1)).toThrow(NonFiniteError);
    expect(() => expm(new Float64Array(3), new Float64Array(4), 2)).toThrow(DimensionError);
    expect(() => new Expm(0)).toThrow(DimensionError);
  });
});

describe('logm: inverse scaling and squaring (Higham 2008, Algorithm 11.10)', () => {
  it('expm(logm(A)) = A for random A near I (‖A − I‖ up to 0.5), relative 1e-14', () => {
    let worst = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const n = 1 + (seed % 8);
      const r = rng(seed);
      const size = 0.5 * r();
      const A = eye(n);
      for (let i = 0; i < n * n; i++) A[i] = A[i]! + (size / n) * (2 * r() - 1);
      const L = logm(new Float64Array(n * n), A, n);
      const e = relErr(expm(new Float64Array(n * n), L, n), A, n);
      worst = Math.max(worst, e);
    }
    expect(worst).toBeLessThan(1e-14);
  });

  it('rotations up to angle 3: logm(R) is the generator and expm(logm(R)) = R to 1e-13', () => {
    for (let theta = -3; theta <= 3; theta += 0.125) {
      for (const n of [2, 3, 5]) {
        const a = planeRotation(n, 0, n - 1, theta);
        let R = a.R;
        let G = a.G;
        if (n === 5) {
          const b = planeRotation(5, 1, 3, 0.7 * theta);
          R = mul(a.R, b.R, 5);
          G = a.G.map((x, i) => x + b.G[i]!);
        }
        const Lg = logm(new Float64Array(n * n), R, n);
        for (let i = 0; i < n * n; i++) expect(Math.abs(Lg[i]! - G[i]!)).toBeLessThan(1e-13);
        const back = expm(new Float64Array(n * n), Lg, n);
        for (let i = 0; i < n * n; i++) expect(Math.abs(back[i]! - R[i]!)).toBeLessThan(1e-13);
      }
    }
  });

  it('rotations about random axes in R³ up to angle 3 (Rodrigues): expm(logm(R)) = R to 1e-12', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const axis = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
        const len = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
        const th = 3 * r();
        const [x, y, z] = axis.map((c) => (th * c) / len) as [number, number, number];
        const K = Float64Array.of(0, -z, y, z, 0, -x, -y, x, 0);
        const K2 = mul(K, K, 3);
        const s = Math.sin(th) / th;
        const c = (1 - Math.cos(th)) / (th * th);
        const R = eye(3).map((v, i) => v + s * K[i]! + c * K2[i]!);
        const Lg = logm(new Float64Array(9), R, 3);
        for (let i = 0; i < 9; i++) expect(Math.abs(Lg[i]! - K[i]!)).toBeLessThan(1e-12);
        const back = expm(new Float64Array(9), Lg, 3);
        for (let i = 0; i < 9; i++) expect(Math.abs(back[i]! - R[i]!)).toBeLessThan(1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it('logm(expm(B)) = B for small B: ‖error‖₁ ≤ 16u·n·max(1, ‖B‖₁) (e^B itself rounds at u)', () => {
    // Near I, e^B is only known to ≈ u absolutely, so the relative error in B is ≈ u/‖B‖: the
    // bound is absolute (a relative bound 1e-14 holds for ‖B‖ ≳ 0.1).
    let worst = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const n = 1 + (seed % 8);
      const r = rng(seed + 7);
      const size = seed % 3 === 0 ? 1e-6 * r() : r();
      const B = Float64Array.from({ length: n * n }, () => (size / n) * (2 * r() - 1));
      const back = logm(new Float64Array(n * n), expm(new Float64Array(n * n), B, n), n);
      const d = back.map((x, i) => x - B[i]!);
      const e = norm1(d, n) / (n * Math.max(1, norm1(B, n)));
      worst = Math.max(worst, e);
      if (norm1(B, n) > 0.1) expect(relErr(back, B, n)).toBeLessThan(1e-14);
    }
    expect(worst).toBeLessThan(16 * U); // measured 6u
  });

  it('A = S·diag(λ)·S⁻¹ with λ ∈ [1e-3, 1e3]: log(A) = S·diag(log λ)·S⁻¹ to 1e-12·κ₁(S)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 2 + (seed % 5);
      const S = unitUpper(n, seed, 0.5);
      const Sinv = inverse(S, n);
      const r = rng(seed + 99);
      const lambda = Float64Array.from({ length: n }, () => 10 ** (6 * r() - 3));
      const A = spectral(S, Sinv, lambda, (x) => x, n);
      const ref = spectral(S, Sinv, lambda, Math.log, n);
      const kappa = norm1(S, n) * norm1(Sinv, n);
      const L = new Logm(n);
      const out = L.compute(new Float64Array(n * n), A);
      // κ(A) reaches 1e6 here, so log is ill-conditioned; measured ≤ 2e-13 relative
      expect(relErr(out, ref, n)).toBeLessThan(1e-12 * kappa);
      if (Math.max(...lambda.map((x) => Math.abs(Math.log(x)))) > 1)
        expect(L.squareRoots).toBeGreaterThan(0);
    }
  });

  it('Jordan block [[λ, 1], [0, λ]]: log = [[log λ, 1/λ], [0, log λ]] to 1e-14 relative', () => {
    for (const lambda of [1e-4, 0.1, 0.9, 1, 1.1, 7, 1e5]) {
      const out = logm(new Float64Array(4), Float64Array.of(lambda, 1, 0, lambda), 2);
      const ref = Float64Array.of(Math.log(lambda), 1 / lambda, 0, Math.log(lambda));
      expect(relErr(out, ref, 2)).toBeLessThan(1e-14);
      expect(out[2]).toBe(0);
    }
  });

  it('logm(I) = 0 exactly without square roots; out may alias a', () => {
    const L = new Logm(4);
    const a = eye(4);
    expect(Array.from(L.compute(a, a))).toEqual(Array.from(new Float64Array(16)));
    expect(L.squareRoots).toBe(0);
  });

  it('eigenvalues on (−∞, 0] throw DomainError; non-finite input NonFiniteError', () => {
    expect(() => logm(new Float64Array(4), Float64Array.of(-1, 0, 0, -1), 2)).toThrow(DomainError);
    expect(() => logm(new Float64Array(4), Float64Array.of(-2, 0, 0, 3), 2)).toThrow(DomainError);
    expect(() => logm(new Float64Array(4), Float64Array.of(1, 0, 0, 0), 2)).toThrow(DomainError);
    expect(() => logm(new Float64Array(1), Float64Array.of(-0.5), 1)).toThrow(DomainError);
    expect(() => logm(new Float64Array(1), Float64Array.of(Number.POSITIVE_INFINITY), 1)).toThrow(
      NonFiniteError,
    );
  });
});

describe('phi1m: φ₁(A) = Σ A^k/(k+1)! by the block trick (Van Loan 1978)', () => {
  it('1×1: (eˣ − 1)/x to 1e-15 relative, including x → 0', () => {
    const P = new Phi1m(1);
    const out = new Float64Array(1);
    for (const x of [-30, -3, -1, -1e-3, -1e-9, 0, 1e-12, 1e-6, 0.5, 2, 20]) {
      P.compute(out, Float64Array.of(x));
      const ref = x === 0 ? 1 : Math.expm1(x) / x;
      expect(Math.abs(out[0]! - ref) / ref).toBeLessThan(1e-14);
    }
  });

  it('nilpotent N: φ₁(N) = Σ_{k<n} N^k/(k+1)! exactly (1e-15 relative)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 2 + (seed % 6);
      const N = unitUpper(n, seed, 3);
      for (let i = 0; i < n; i++) N[i * n + i] = 0;
      let term = eye(n);
      const ref = eye(n);
      for (let k = 1; k < n; k++) {
        term = mul(term, N, n).map((x) => x / (k + 1));
        for (let i = 0; i < n * n; i++) ref[i] = ref[i]! + term[i]!;
      }
      expect(relErr(phi1m(new Float64Array(n * n), N, n), ref, n)).toBeLessThan(1e-15 * n);
    }
  });

  it('A·φ₁(A) = e^A − I and φ₁ = S·diag(φ₁(λ))·S⁻¹; computeWithExp returns e^A too', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const n = 2 + (seed % 5);
      const S = unitUpper(n, seed, 0.5);
      const Sinv = inverse(S, n);
      const r = rng(seed + 5);
      const lambda = Float64Array.from({ length: n }, () => 4 * (2 * r() - 1));
      const A = spectral(S, Sinv, lambda, (x) => x, n);
      const ref = spectral(S, Sinv, lambda, (x) => Math.expm1(x) / x, n);
      const kappa = norm1(S, n) * norm1(Sinv, n);
      const P = new Phi1m(n);
      const eA = new Float64Array(n * n);
      const phi = P.computeWithExp(eA, new Float64Array(n * n), A);
      expect(relErr(phi, ref, n)).toBeLessThan(1e-14 * kappa);
      expect(relErr(eA, expm(new Float64Array(n * n), A, n), n)).toBeLessThan(1e-14 * kappa);
      const lhs = mul(A, phi, n);
      const rhs = eA.map((x, i) => x - (i % (n + 1) === 0 ? 1 : 0));
      expect(relErr(lhs, rhs, n)).toBeLessThan(1e-13 * kappa);
    }
  });
});
