/**
 * The banded linear algebra of chains (internal; not re-exported from `index.ts`): for a system
 * whose constraint rows have the {@link ConstraintBand} structure, the products of the Dirac and
 * RATTLE steps with C(q) run over each row's band, the Gram-type matrices C₁ D C₂ᵀ are band
 * matrices (core's {@link BandMatrix}), and they are factored by core's {@link BandLU}: O(n) per
 * step for a chain instead of the dense O(m·n) products and O(m³) LU.
 *
 * Every product sums the same nonzero terms in the same order as the dense loops it replaces
 * (column j ascending inside a row, row a ascending inside a column), so the products are bit for
 * bit those of the dense path; the banded LU (LAPACK `gbtrf` order, multiplication by the
 * reciprocal pivot) rounds differently from the dense one, which is why the steps agree with the
 * dense path to round-off, not bit for bit (tested at n = 2, 8, 32).
 *
 * @module
 */
import { type BandMatrix, DimensionError, DomainError } from '@geomech/core';
import type { ConstraintBand } from './constrained.js';

/**
 * Checks a system's band against its sizes: integer width ≥ 1, `first` of length m,
 * non-decreasing, each in (−width, n), finite nonzero `phiScale`.
 * @throws {@link DimensionError} / {@link DomainError} naming `what`.
 */
export function checkBand(what: string, band: ConstraintBand, n: number, m: number): void {
  const { width, first, phiScale } = band;
  if (!Number.isInteger(width) || width < 1 || width > n + 1)
    throw new DomainError(`${what}: band.width`, width, `must be an integer in [1, ${n + 1}]`);
  if (first.length !== m) throw new DimensionError(`${what}: band.first`, m, first.length);
  for (let a = 0; a < m; a++) {
    const f = first[a]!;
    if (!(f > -width && f < n) || (a > 0 && f < first[a - 1]!))
      throw new DomainError(
        `${what}: band.first[${a}]`,
        f,
        `must be non-decreasing and in (−${width}, ${n})`,
      );
  }
  if (!(Number.isFinite(phiScale) && phiScale !== 0))
    throw new DomainError(`${what}: band.phiScale`, phiScale, 'must be finite and ≠ 0');
}

/** Half-bandwidth of C₁ D C₂ᵀ: the largest b − a whose rows' column ranges overlap. */
export function gramBandwidth(band: ConstraintBand, m: number): number {
  const { width, first } = band;
  let k = 0;
  for (let a = 0; a < m; a++) {
    let b = a + 1;
    while (b < m && first[b]! < first[a]! + width) b++;
    k = Math.max(k, b - 1 - a);
  }
  return k;
}

/**
 * out ← C₁ diag(d) C₂ᵀ (m × m) into the band storage of `out` (kl = ku ≥
 * {@link gramBandwidth}): entry (a, b) = Σ_j (C₁[a, j] d_j) C₂[b, j], j ascending over the
 * overlap of the two rows' bands, zero C₁ entries skipped (the dense loops' sums). With
 * `symmetric` only b ≤ a is summed and mirrored (C₁ = C₂; the Dirac step's S = C M⁻¹ Cᵀ),
 * otherwise every entry is summed on its own (RATTLE's matrices). C₁, C₂ in band storage
 * (m × width). Allocates nothing.
 */
export function bandGram(
  out: BandMatrix,
  C1: Float64Array,
  C2: Float64Array,
  d: Float64Array,
  band: ConstraintBand,
  n: number,
  symmetric: boolean,
): void {
  const { width: w, first } = band;
  const { n: m, kl, rowWidth } = out;
  const S = out.rowBand;
  S.fill(0);
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const bLo = Math.max(0, a - kl);
    const bHi = symmetric ? a : Math.min(m - 1, a + kl);
    for (let b = bLo; b <= bHi; b++) {
      const fb = first[b]!;
      const j0 = Math.max(0, fa, fb);
      const j1 = Math.min(n, fa + w, fb + w);
      let s = 0;
      for (let j = j0; j < j1; j++) {
        const ca = C1[a * w + j - fa]!;
        if (ca === 0) continue;
        s += ca * d[j]! * C2[b * w + j - fb]!;
      }
      S[a * rowWidth + b - a + kl] = s;
      if (symmetric && b < a) S[b * rowWidth + a - b + kl] = s;
    }
  }
}

/**
 * out_a ← Σ_j C[a, j] x_j over row a's band, j ascending (m entries). Allocates nothing.
 */
export function bandMul(
  out: Float64Array,
  C: Float64Array,
  x: Float64Array,
  band: ConstraintBand,
  m: number,
  n: number,
): void {
  const { width: w, first } = band;
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const j0 = Math.max(0, fa);
    const j1 = Math.min(n, fa + w);
    let s = 0;
    for (let j = j0; j < j1; j++) s += C[a * w + j - fa]! * x[j]!;
    out[a] = s;
  }
}

/**
 * out_j ← out_j + sign·Σ_a C[a, j] y_a (n entries; out holds the start values), accumulated one
 * row at a time, a ascending for every j, zero C entries skipped: the dense loop
 * `s = out_j; for a: s ± C[a, j]·y_a` term for term (s − x = s + (−x) exactly). Allocates nothing.
 */
export function bandScatterTranspose(
  out: Float64Array,
  C: Float64Array,
  y: Float64Array,
  band: ConstraintBand,
  m: number,
  n: number,
  sign: 1 | -1,
): void {
  const { width: w, first } = band;
  for (let a = 0; a < m; a++) {
    const fa = first[a]!;
    const j0 = Math.max(0, fa);
    const j1 = Math.min(n, fa + w);
    const ya = sign === 1 ? y[a]! : -y[a]!;
    for (let j = j0; j < j1; j++) {
      const c = C[a * w + j - fa]!;
      if (c !== 0) out[j] = out[j]! + c * ya;
    }
  }
}
