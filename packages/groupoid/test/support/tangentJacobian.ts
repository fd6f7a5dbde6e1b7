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

/** Tangent coordinates of a stepper's flat state: x ⊕ δ and y ⊖ x (out may not alias x or y). */
export interface TangentChart {
  readonly size: number;
  plus(out: Float64Array, x: Float64Array, d: Float64Array): void;
  minus(out: Float64Array, y: Float64Array, x: Float64Array): void;
}

/** The chart of a {@link TangentLayout}. */
export function layoutChart(L: TangentLayout): TangentChart {
  return {
    size: L.tangentSize,
    plus: (out, x, d) => tangentPlus(out, x, d, L),
    minus: (out, y, x) => tangentMinus(out, y, x, L),
  };
}

/**
 * The central-difference derivatives of a step x' = step(x, u) in a chart's tangent coordinates
 * at (x, u): A (size × size), column j = (step(x ⊕ εe_j, u) ⊖ x̄' − step(x ⊕ (−ε)e_j, u) ⊖ x̄')/(2ε),
 * and B (size × u.length), column j = (step(x, u + εe_j) ⊖ x̄' − step(x, u − εe_j) ⊖ x̄')/(2ε),
 * x̄' = step(x, u), with `step` advancing its first argument in place (row-major; x and u are not
 * changed). The reference of a stepper's analytic `stepDerivatives` (error O(ε²) plus round-off/ε).
 */
export function chartStepJacobians(
  step: (y: Float64Array, u: Float64Array) => void,
  chart: TangentChart,
  x: Float64Array,
  u: Float64Array,
  eps: number,
): { A: Float64Array; B: Float64Array } {
  const n = chart.size;
  const m = u.length;
  const base = x.slice();
  step(base, u);
  const A = new Float64Array(n * n);
  const B = new Float64Array(n * m);
  const d = new Float64Array(n);
  const xp = new Float64Array(x.length);
  const xm = new Float64Array(x.length);
  const tp = new Float64Array(n);
  const tm = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    d.fill(0);
    d[j] = eps;
    chart.plus(xp, x, d);
    d[j] = -eps;
    chart.plus(xm, x, d);
    step(xp, u);
    step(xm, u);
    chart.minus(tp, xp, base);
    chart.minus(tm, xm, base);
    for (let i = 0; i < n; i++) A[i * n + j] = (tp[i]! - tm[i]!) / (2 * eps);
  }
  for (let j = 0; j < m; j++) {
    const up = u.slice();
    const um = u.slice();
    up[j] = up[j]! + eps;
    um[j] = um[j]! - eps;
    xp.set(x);
    xm.set(x);
    step(xp, up);
    step(xm, um);
    chart.minus(tp, xp, base);
    chart.minus(tm, xm, base);
    for (let i = 0; i < n; i++) B[i * m + j] = (tp[i]! - tm[i]!) / (2 * eps);
  }
  return { A, B };
}

/** {@link chartStepJacobians}' A for a step without inputs, through a {@link TangentLayout}. */
export function tangentStepJacobian(
  advance: (y: Float64Array) => void,
  L: TangentLayout,
  x: Float64Array,
  eps: number,
): Float64Array {
  return chartStepJacobians((y) => advance(y), layoutChart(L), x, new Float64Array(0), eps).A;
}
