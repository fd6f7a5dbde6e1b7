/**
 * Small fixtures shared by the dirac tests: diagonal matrices, distributions given by constant
 * one-forms, and the free Lagrangian with a diagonal mass matrix written out by hand.
 */
import type { Distribution, Lagrangian } from '../src/types.js';

/** The n×n diagonal matrix diag(d), row-major. */
export const diag = (d: readonly number[]): number[] => {
  const n = d.length;
  const a = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) a[i * n + i] = d[i]!;
  return a;
};

/** Constant one-forms: Δ = ker A, Ȧ = 0 (with `G`, a constant basis of Δ as well). */
export const constantDistribution = (
  rows: readonly (readonly number[])[],
  G?: readonly number[],
): Distribution => {
  const m = rows.length;
  const n = rows[0]!.length;
  const A = Float64Array.from(rows.flat());
  const base: Distribution = {
    n,
    m,
    A: (out) => {
      out.set(A);
      return out;
    },
    Adot: (out) => {
      out.fill(0, 0, m * n);
      return out;
    },
  };
  if (G === undefined) return base;
  const Gm = Float64Array.from(G);
  return {
    ...base,
    G: (out) => {
      out.set(Gm);
      return out;
    },
  };
};

/**
 * L(q, v) = ½ Σᵢ mᵢ vᵢ², written out here (not built with the library's `mechanicalLagrangian`):
 * ∂L/∂q = 0, ∂L/∂v = M v, ∂²L/∂v² = M = diag(mass), ∂²L/∂v∂q = 0.
 */
export const diagonalMassLagrangian = (mass: readonly number[]): Lagrangian => {
  const n = mass.length;
  return {
    n,
    L: (_q, v) => 0.5 * mass.reduce((s, mi, i) => s + mi * v[i]! ** 2, 0),
    Lq: (out) => out.fill(0),
    Lv: (out, _q, v) => {
      for (let i = 0; i < n; i++) out[i] = mass[i]! * v[i]!;
      return out;
    },
    Lvv: (out) => {
      out.fill(0);
      for (let i = 0; i < n; i++) out[i * (n + 1)] = mass[i]!;
      return out;
    },
    Lvq: (out) => out.fill(0),
  };
};
