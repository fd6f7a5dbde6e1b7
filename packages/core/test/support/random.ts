// Shared random test data for the linalg tests: fast-check arbitraries, random orthogonal matrices
// as products of Householder reflections, matrices with a prescribed singular value decomposition
// (so singular values, conditioning, determinants and null spaces are known exactly, independently
// of the code under test), and the seeded PRNG of `@geomech/core/testing`.
import fc from 'fast-check';
import { rng } from '../../src/testing/random.js';

/** The seeded PRNG (mulberry32) of `@geomech/core/testing`, re-exported for the other tests. */
export { rng };

/**
 * Numbers in [−1, 1] with full 53-bit mantissas and magnitudes spread log-uniformly over
 * [2⁻¹¹, 1], plus exact zeros (weight 1 in 10). Not `fc.double({ min: −1, max: 1 })`: that is
 * uniform over bit patterns, so almost all of its values are tiny (1e−200 and the like) — random
 * Householder vectors would be skipped and the "random" orthogonal factors would mostly be I.
 */
export const unit = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  {
    weight: 9,
    arbitrary: fc
      .tuple(
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 10 }),
        fc.boolean(),
      )
      .map(([m, e, negative]) => (negative ? -m : m) * 2 ** -e),
  },
);

/** `len` numbers drawn from {@link unit}. */
export const vec = (len: number) => fc.array(unit, { minLength: len, maxLength: len });

/** `count` vectors of length `len` drawn from {@link vec}. */
export const vecs = (count: number, len: number) =>
  fc.array(vec(len), { minLength: count, maxLength: count });

/**
 * dim×dim orthogonal matrix H(w₁)·H(w₂)··· (H(w) = I − 2wwᵀ/wᵀw) and its determinant ±1 (one sign
 * flip per reflection); tiny vectors (wᵀw < 1e−4) are skipped.
 */
export function orthogonal(
  dim: number,
  vecs: readonly (readonly number[])[],
): { q: Float64Array; det: number } {
  const q = new Float64Array(dim * dim);
  for (let i = 0; i < dim; i++) q[i * dim + i] = 1;
  let det = 1;
  for (const w of vecs) {
    let ww = 0;
    for (let i = 0; i < dim; i++) ww += w[i]! * w[i]!;
    if (ww < 1e-4) continue;
    det = -det;
    // q ← q·H(w): row_i ← row_i − (2/ww)(row_i·w) wᵀ
    for (let i = 0; i < dim; i++) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += q[i * dim + j]! * w[j]!;
      s *= 2 / ww;
      for (let j = 0; j < dim; j++) q[i * dim + j] = q[i * dim + j]! - s * w[j]!;
    }
  }
  return { q, det };
}

/**
 * A = Σ_{l<k} s[l]·uₗ·vₗᵀ (m×n, k = s.length ≤ min(m, n)) with uₗ, vₗ the columns of the
 * orthogonal Um (m×m), Vn (n×n); for k = m = n this is A = U·diag(s)·Vᵀ.
 */
export function fromSvd(
  m: number,
  n: number,
  s: ArrayLike<number>,
  um: Float64Array,
  vn: Float64Array,
): Float64Array {
  const a = new Float64Array(m * n);
  for (let l = 0; l < s.length; l++) {
    const sl = s[l]!;
    if (sl === 0) continue;
    for (let i = 0; i < m; i++) {
      const ui = sl * um[i * m + l]!;
      for (let j = 0; j < n; j++) a[i * n + j] = a[i * n + j]! + ui * vn[j * n + l]!;
    }
  }
  return a;
}

/** `len` deterministic entries uniform in [−1, 1) from the 32-bit seed (via {@link rng}). */
export function uniformArray(len: number, seed: number): Float64Array {
  const r = rng(seed);
  const v = new Float64Array(len);
  for (let i = 0; i < len; i++) v[i] = 2 * r() - 1;
  return v;
}
