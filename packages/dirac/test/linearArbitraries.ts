/**
 * fast-check generators shared by `subspace.test.ts` and `linear.test.ts`: random well-conditioned
 * constraint matrices (distributions Δ = ker A), skew two-forms and bivectors, and connected
 * circuit graphs.
 */
import { singularValues } from '@geomech/core';
import fc from 'fast-check';

/** Smallest accepted s_min/s_max of a random constraint matrix (full row rank, not nearly dependent). */
export const MIN_RELATIVE_SINGULAR_VALUE = 1e-3;

/** Resolution of {@link entries}: values are multiples of 2⁻²⁰ ≈ 1e-6. */
const GRID = 2 ** 20;

/**
 * A flat array of `len` numbers in [−1, 1], multiples of 2⁻²⁰: moderate scales, no subnormals
 * (fc.double's bias towards 5e-324 and 1e-300 produces elements that underflow and have lost
 * their relative precision before any Dirac test sees them; the subnormal paths of Subspace have
 * their own tests).
 */
export const entries = (len: number): fc.Arbitrary<Float64Array> =>
  fc
    .array(fc.integer({ min: -GRID, max: GRID }), { minLength: len, maxLength: len })
    .map((a) => Float64Array.from(a, (k) => k / GRID));

/** True when the m×n matrix has s_min ≥ MIN_RELATIVE_SINGULAR_VALUE·s_max (or is empty). */
export function wellConditioned(A: ArrayLike<number>, m: number, n: number): boolean {
  if (m === 0 || n === 0) return true;
  const s = singularValues(A, m, n);
  const sMax = s[0]!;
  return sMax > 0 && s[s.length - 1]! >= MIN_RELATIVE_SINGULAR_VALUE * sMax;
}

/** A random constraint matrix A (m × n, m < n, entries in [−1, 1]); check `wellConditioned` with fc.pre. */
export const constraints = (maxN = 6): fc.Arbitrary<{ n: number; m: number; A: Float64Array }> =>
  fc
    .integer({ min: 1, max: maxN })
    .chain((n) => fc.record({ n: fc.constant(n), m: fc.integer({ min: 0, max: n - 1 }) }))
    .chain(({ n, m }) => entries(m * n).map((A) => ({ n, m, A })));

/** W = M − Mᵀ for a random n×n M: a random skew matrix. */
export function skewFrom(M: ArrayLike<number>, n: number): Float64Array {
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) W[i * n + j] = M[i * n + j]! - M[j * n + i]!;
  return W;
}

/** Euclidean norm. */
export function norm(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s);
}

/**
 * A random connected directed graph with `nodes` nodes and `branches` ≥ nodes − 1 branches, as a
 * full node-branch incidence matrix (nodes × branches; +1 where a branch leaves a node, −1 where it
 * enters). Branch i < nodes − 1 joins node i + 1 to a random earlier node (a spanning tree); the
 * rest join random distinct nodes.
 */
export const circuitGraph = (): fc.Arbitrary<{
  nodes: number;
  branches: number;
  incidence: Float64Array;
}> =>
  fc
    .integer({ min: 2, max: 6 })
    .chain((nodes) =>
      fc.record({
        nodes: fc.constant(nodes),
        extra: fc.integer({ min: 0, max: 4 }),
      }),
    )
    .chain(({ nodes, extra }) => {
      const branches = nodes - 1 + extra;
      const ends = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), {
        minLength: branches,
        maxLength: branches,
      });
      return ends.map((raw) => {
        const incidence = new Float64Array(nodes * branches);
        raw.forEach(([r1, r2, flip], b) => {
          let from: number;
          let to: number;
          if (b < nodes - 1) {
            from = b + 1;
            to = r1 % (b + 1);
          } else {
            from = r1 % nodes;
            to = (from + 1 + (r2 % (nodes - 1))) % nodes;
          }
          if (flip) [from, to] = [to, from];
          incidence[from * branches + b] = 1;
          incidence[to * branches + b] = -1;
        });
        return { nodes, branches, incidence };
      });
    });
