import type { LieGroup } from '@geomech/core';

/**
 * The tangent coordinates of a stepper's flat state (issue 17's step derivatives): group blocks
 * (storage offset `at`, tangent offset `tangentAt`, the group, right-⊕ X·Exp(δ)) and additive runs
 * (storage offset → tangent offset, length).
 */
export interface TangentLayout {
  readonly groups: readonly {
    readonly at: number;
    readonly tangentAt: number;
    readonly G: LieGroup;
  }[];
  readonly vectors: readonly {
    readonly at: number;
    readonly tangentAt: number;
    readonly n: number;
  }[];
  readonly tangentSize: number;
}

/** x ⊕ δ through the layout (out may not alias x). */
export function tangentPlus(
  out: Float64Array,
  x: Float64Array,
  d: Float64Array,
  L: TangentLayout,
): void {
  out.set(x);
  for (const { at, tangentAt, G } of L.groups) {
    const X = x.slice(at, at + G.storageSize);
    const Y = new Float64Array(G.storageSize);
    G.rplus(Y, X, d.slice(tangentAt, tangentAt + G.dim));
    out.set(Y, at);
  }
  for (const { at, tangentAt, n } of L.vectors)
    for (let i = 0; i < n; i++) out[at + i] = x[at + i]! + d[tangentAt + i]!;
}

/** y ⊖ x through the layout. */
export function tangentMinus(
  out: Float64Array,
  y: Float64Array,
  x: Float64Array,
  L: TangentLayout,
): void {
  for (const { at, tangentAt, G } of L.groups) {
    const t = new Float64Array(G.dim);
    G.rminus(t, y.slice(at, at + G.storageSize), x.slice(at, at + G.storageSize));
    out.set(t, tangentAt);
  }
  for (const { at, tangentAt, n } of L.vectors)
    for (let i = 0; i < n; i++) out[tangentAt + i] = y[at + i]! - x[at + i]!;
}

/**
 * The central-difference Jacobian of a step x ↦ x' in the layout's tangent coordinates at x:
 * column j = (advance(x ⊕ εe_j) ⊖ x̄' − advance(x ⊕ (−ε)e_j) ⊖ x̄')/(2ε), x̄' = advance(x), with
 * `advance` stepping its argument in place (row-major, tangentSize²; x is not changed). The
 * reference of a stepper's analytic `stepDerivatives` (error O(ε²) plus round-off/ε).
 */
export function tangentStepJacobian(
  advance: (y: Float64Array) => void,
  L: TangentLayout,
  x: Float64Array,
  eps: number,
): Float64Array {
  const n = L.tangentSize;
  const base = x.slice();
  advance(base);
  const fd = new Float64Array(n * n);
  const d = new Float64Array(n);
  const xp = new Float64Array(x.length);
  const xm = new Float64Array(x.length);
  const tp = new Float64Array(n);
  const tm = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    d.fill(0);
    d[j] = eps;
    tangentPlus(xp, x, d, L);
    d[j] = -eps;
    tangentPlus(xm, x, d, L);
    advance(xp);
    advance(xm);
    tangentMinus(tp, xp, base, L);
    tangentMinus(tm, xm, base, L);
    for (let i = 0; i < n; i++) fd[i * n + j] = (tp[i]! - tm[i]!) / (2 * eps);
  }
  return fd;
}
