// An independent oracle for the plate-ball integrator (issue 15; spec 003 §3.5(d), §8.2, S10):
// the same system written as a generic discrete constrained Lagrangian system on the pair
// groupoid of R² times SO(3), Pair(R²) × SO(3) ⇒ R² (`plateBallGroupoid()`, the product of
// PairGroupoid(2) and LieGroupGroupoid(SO3)), with L̂ and the constraints (8) as printed in the
// spec (literal traces with E_i) and the generic machinery's own trivialized gradients (fourth-order
// central differences along the groupoid's retractions) and bordered Newton. Nothing of `PlateBall`
// (its compact Legendre forms, closed-form Jacobians, sine-vector shortcuts, predictor) is used.
import { SO3 } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { DiscreteConstrainedSystem } from '../src/constrained.js';
import { PlateBall } from '../src/plateBall.js';
import { plateBallGroupoid } from '../src/product.js';
import type { AStar } from '../src/types.js';

// S5 data (spec 003 §10)
const h = 0.05;
const r = 1;
const Omega = 0.7;
const c = 0.3;
const LAMBDA1 = Float64Array.of(0.5, -0.4, 0.3);
const STEPS = 50;

/** so(3) basis E1, E2, E3 of spec 003 §8.2, row-major. */
const E = [
  [0, 0, 0, 0, 0, -1, 0, 1, 0],
  [0, 0, 1, 0, 0, 0, -1, 0, 0],
  [0, -1, 0, 1, 0, 0, 0, 0, 0],
] as const;

/** tr(R·E) for the rotation block of an arrow (offset 4) and a basis matrix. */
const trRE = (g: Float64Array, e: readonly number[]): number => {
  let s = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) s += g[4 + 3 * i + k]! * e[3 * k + i]!;
  return s;
};

const G = plateBallGroupoid();
const generic = new DiscreteConstrainedSystem({
  groupoid: G,
  m: 3,
  // L̂(g) = (h/2)[((x1 − x0)/h)² + ((y1 − y0)/h)²] (spec 003 §8.2)
  Lhat: (g) => (h / 2) * (((g[2]! - g[0]!) / h) ** 2 + ((g[3]! - g[1]!) / h) ** 2),
  // (8): (y1 − y0) − (r/2)tr(R E1) − hΩ(x0 + x1)/2, (x1 − x0) + (r/2)tr(R E2) + hΩ(y0 + y1)/2,
  // h c + ½ tr(R E3)
  phi: (out, g) => {
    out[0] = g[3]! - g[1]! - (r / 2) * trRE(g, E[0]) - (h * Omega * (g[0]! + g[2]!)) / 2;
    out[1] = g[2]! - g[0]! + (r / 2) * trRE(g, E[1]) + (h * Omega * (g[1]! + g[3]!)) / 2;
    out[2] = h * c + 0.5 * trRE(g, E[2]);
  },
});
const pb = new PlateBall({ h, r, Omega, c });
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};
const astar = (): AStar => ({ base: new Float64Array(2), p: new Float64Array(5) });

describe('PlateBall against the generic DiscreteConstrainedSystem on Pair(R²) × SO(3) (S5)', () => {
  const g1 = pb.initialElement(0, 0, 0.02, 0.01);
  // the generic trajectory (its default predictor; FD gradients solved to 1e-12)
  const sol = generic.integrate(g1, LAMBDA1, { steps: STEPS, tol: 1e-12 });
  // the plate-ball's own steps
  const gs = [g1];
  const ls = [LAMBDA1];
  for (let k = 1; k <= STEPS; k++) {
    const g = new Float64Array(13);
    const l = new Float64Array(3);
    pb.stepForward(g, l, gs[k - 1]!, ls[k - 1]!, k);
    gs.push(g);
    ls.push(l);
  }

  it('the Legendre transforms agree: F⁻ = (P⁻, Π⁻) and F⁺ = (P⁺, Π⁺) (measured 2.3e-14)', () => {
    let worst = 0;
    for (let k = 0; k <= STEPS; k += 10) {
      const minus = generic.legendreMinus(astar(), gs[k]!, ls[k]!);
      const plus = generic.legendrePlus(astar(), gs[k]!, ls[k]!);
      worst = Math.max(
        worst,
        maxAbsDiff(minus.p, pb.legendreMinus(new Float64Array(5), gs[k]!, ls[k]!)),
        maxAbsDiff(plus.p, pb.legendrePlus(new Float64Array(5), gs[k]!, ls[k]!)),
        maxAbsDiff(minus.base, gs[k]!.subarray(0, 2)),
        maxAbsDiff(plus.base, gs[k]!.subarray(2, 4)),
      );
    }
    expect(worst).toBeLessThan(1e-11);
  });

  it(`the same ${STEPS} forward steps (x, y, R, λ) to ≤ 1e-10 (measured 4.7e-12 in x, y; 3.8e-13 in R; 4.0e-12 in λ)`, () => {
    let dx = 0;
    let dR = 0;
    let dl = 0;
    for (let k = 0; k <= STEPS; k++) {
      const g = sol.sample('g', k);
      dx = Math.max(dx, maxAbsDiff(g.subarray(0, 4), gs[k]!.subarray(0, 4)));
      dR = Math.max(dR, maxAbsDiff(g.subarray(4), gs[k]!.subarray(4)));
      dl = Math.max(dl, maxAbsDiff(sol.sample('lambda', k), ls[k]!));
    }
    expect(dx).toBeLessThan(1e-10);
    expect(dR).toBeLessThan(1e-10);
    expect(dl).toBeLessThan(1e-10);
    // and the generic increments are rotations (the product groupoid moves R by R·Exp(δ))
    const R = sol.sample('g', STEPS).subarray(4);
    const RtR = SO3.compose(
      new Float64Array(9),
      SO3.inverse(new Float64Array(9), R.slice()),
      R.slice(),
    );
    expect(maxAbsDiff(RtR, [1, 0, 0, 0, 1, 0, 0, 0, 1])).toBeLessThan(1e-14);
    // Newton of the generic system: ≤ 3 iterations a step (measured 118 in 50 steps)
    expect(sol.stats.maxIterations).toBeLessThanOrEqual(3);
  });

  it('the same Noether charge F_X, X = (−y∂x + x∂y, −E3), conserved by both (measured 1.2e-12)', () => {
    // section coefficients in the basis (∂x, ∂y, E1, E2, E3) of TR² × so(3)
    const FX = generic.noetherCharge((out, q) => {
      out[0] = -q[1]!;
      out[1] = q[0]!;
      out[2] = 0;
      out[3] = 0;
      out[4] = -1;
    });
    const F0 = pb.noether(gs[0]!, ls[0]!);
    let worst = 0;
    let drift = 0;
    for (let k = 0; k <= STEPS; k++) {
      const a = FX(sol.sample('g', k), sol.sample('lambda', k));
      worst = Math.max(worst, Math.abs(a - pb.noether(gs[k]!, ls[k]!)));
      drift = Math.max(drift, Math.abs(a - F0));
    }
    expect(worst).toBeLessThan(1e-10);
    expect(drift).toBeLessThan(1e-10);
    // and X is a Noether symmetry of the generic system (Def 4.8 (a), (b) on the trajectory)
    const check = generic.checkNoetherSymmetry(
      (out, q) => {
        out[0] = -q[1]!;
        out[1] = q[0]!;
        out[2] = 0;
        out[3] = 0;
        out[4] = -1;
      },
      undefined,
      gs.slice(0, 10),
    );
    expect(check.maxViolation).toBeLessThan(1e-12); // measured 3.4e-15
  });
});
