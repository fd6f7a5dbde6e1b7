import { centralJacobian } from '@geomech/core/testing';

/**
 * The symplecticity check of a one-step map y = (q, p) ↦ y' on R^{2d}: the Jacobian J of `step`
 * at y0 by central differences (core's `centralJacobian`, relative step CENTRAL_DIFFERENCE_STEP)
 * and the defect max |JᵀΩJ − Ω| with Ω = [[0, I], [−I, 0]] in (q, p) order, which is zero for a
 * symplectic map up to the central-difference error (O(step²) plus round-off/step). Also returns
 * J (row-major), so that a test can check the map is not the identity.
 */
export function symplecticDefect(
  step: (y: number[]) => number[],
  y0: readonly number[],
): { defect: number; J: Float64Array } {
  const s = y0.length;
  const d = s / 2;
  const J = centralJacobian(
    (out, y) => {
      out.set(step(Array.from(y)));
    },
    y0,
    s,
  );
  const Om = (i: number, j: number): number => (j === i + d ? 1 : i === j + d ? -1 : 0);
  let defect = 0;
  for (let i = 0; i < s; i++)
    for (let j = 0; j < s; j++) {
      let v = 0;
      for (let a = 0; a < s; a++)
        for (let b = 0; b < s; b++) v += J[a * s + i]! * Om(a, b) * J[b * s + j]!;
      defect = Math.max(defect, Math.abs(v - Om(i, j)));
    }
  return { defect, J };
}
