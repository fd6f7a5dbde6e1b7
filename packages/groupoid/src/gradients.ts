/**
 * Trivialized gradients on a Lie groupoid (spec 003 §2, "the key computational abstraction"):
 *
 *   leftGrad(f)(g)_i  = ←e_i[f](g)  = d/ds f(leftRetract(g, s e_i))|_{s=0}
 *   rightGrad(f)(g)_i = →e_i[f](g)  = d/ds f(rightRetract(g, s e_i))|_{s=0}
 *
 * so that β̃(df(g)) = (β(g), leftGrad(f)(g)) and α̃(df(g)) = (α(g), rightGrad(f)(g)) (eq. (4)).
 * These are the finite-difference forms for user functions without analytic derivatives: a
 * fourth-order central difference (error O(ε⁴) + O(u/ε), ≈ 1e-11 relative at the default
 * ε = 1e-3·max(1, scale)); systems with analytic derivatives pass their own.
 *
 * @module
 */
import { DimensionError, DomainError } from '@geomech/core';
import type { LieGroupoid } from './types.js';

/** A scalar function on the arrows of a groupoid. */
export type ArrowFunction = (g: Float64Array) => number;

/** Options of the finite-difference gradients. */
export interface GradientOptions {
  /** Difference step ε in the algebroid coordinates. Default 1e-3. */
  readonly step?: number;
}

/** Reusable buffers of {@link leftGrad} / {@link rightGrad} for one groupoid (no allocation per call). */
export class GradientWorkspace {
  readonly v: Float64Array;
  readonly k: Float64Array;
  constructor(readonly groupoid: LieGroupoid) {
    this.v = new Float64Array(groupoid.rank);
    this.k = new Float64Array(groupoid.arrowDim);
  }
}

function trivializedGradient(
  which: 'left' | 'right',
  out: Float64Array,
  G: LieGroupoid,
  f: ArrowFunction,
  g: Float64Array,
  ws: GradientWorkspace,
  step: number,
): Float64Array {
  const r = G.rank;
  if (out.length < r) throw new DimensionError(`${which}Grad: out`, r, out.length);
  if (g.length !== G.arrowDim)
    throw new DimensionError(`${which}Grad: arrow`, G.arrowDim, g.length);
  if (!(step > 0 && Number.isFinite(step)))
    throw new DomainError(`${which}Grad: step`, step, 'must be positive and finite');
  const { v, k } = ws;
  v.fill(0);
  const left = which === 'left';
  // f'(0) ≈ [8(f(ε) − f(−ε)) − (f(2ε) − f(−2ε))] / (12ε); no closure per call (hot path)
  for (let i = 0; i < r; i++) {
    v[i] = step;
    const f1 = f(left ? G.leftRetract(k, g, v) : G.rightRetract(k, g, v));
    v[i] = -step;
    const fm1 = f(left ? G.leftRetract(k, g, v) : G.rightRetract(k, g, v));
    v[i] = 2 * step;
    const f2 = f(left ? G.leftRetract(k, g, v) : G.rightRetract(k, g, v));
    v[i] = -2 * step;
    const fm2 = f(left ? G.leftRetract(k, g, v) : G.rightRetract(k, g, v));
    v[i] = 0;
    out[i] = (8 * (f1 - fm1) - (f2 - fm2)) / (12 * step);
  }
  return out;
}

/**
 * out (length r) ← ←e_i[f](g), the left-trivialized gradient (spec 003 §2, eq. (1)), by a
 * fourth-order central difference along `leftRetract`.
 *
 * @example
 * ```ts
 * const G = new PairGroupoid(1);
 * leftGrad(new Float64Array(1), G, (g) => g[0]! * g[1]! ** 2, Float64Array.of(2, 3)); // D₂f = 12
 * ```
 */
export function leftGrad(
  out: Float64Array,
  G: LieGroupoid,
  f: ArrowFunction,
  g: Float64Array,
  options: GradientOptions = {},
  ws: GradientWorkspace = new GradientWorkspace(G),
): Float64Array {
  return trivializedGradient('left', out, G, f, g, ws, options.step ?? 1e-3);
}

/**
 * out (length r) ← →e_i[f](g), the right-trivialized gradient (eq. (2), with its minus sign:
 * for the pair groupoid →e_i[f] = −D₁f).
 *
 * @example
 * ```ts
 * rightGrad(new Float64Array(1), new PairGroupoid(1), (g) => g[0]! * g[1]! ** 2, Float64Array.of(2, 3)); // −9
 * ```
 */
export function rightGrad(
  out: Float64Array,
  G: LieGroupoid,
  f: ArrowFunction,
  g: Float64Array,
  options: GradientOptions = {},
  ws: GradientWorkspace = new GradientWorkspace(G),
): Float64Array {
  return trivializedGradient('right', out, G, f, g, ws, options.step ?? 1e-3);
}
