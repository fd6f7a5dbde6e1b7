// The symmetric heavy top of the LGVI's conservation tests (lgvi.test.ts over 10⁵ steps,
// verification/lgvi.long.test.ts over 10⁶): the run and its largest deviations.
import { simulateHeavyTop } from '../../src/lgvi.js';

/** J = (1, 1, 2), m g = 9.81, ρ = (0, 0, 0.5): U is invariant about e₃ (left) and the body axis. */
export const TOP = { inertia: [1, 1, 2], mass: 1, gravity: 9.81, rho: [0, 0, 0.5] } as const;

/**
 * `steps` steps of h = 0.01 from R₀ = Exp(0.3 e₁), Ω₀ = (0, 0, 20), keeping every `every`-th
 * state: the solution, max |RᵀR − I| and the largest relative deviations of the discrete Noether
 * charges e₃·RΠ and Π₃ and of the energy from their initial values.
 */
export function symmetricTopRun(steps: number, every: number) {
  const sol = simulateHeavyTop({
    ...TOP,
    rotation: [0.3, 0, 0],
    omega: [0, 0, 20],
    h: 0.01,
    steps,
    every,
  });
  let orthogonality = 0;
  let dE = 0;
  let dL = 0;
  let dP = 0;
  const E0 = sol.energy[0]!;
  const L0 = sol.spatialMomentum[2]!;
  const P0 = sol.pi[2]!;
  for (let j = 0; j < sol.count; j++) {
    orthogonality = Math.max(orthogonality, sol.orthogonality[j]!);
    dE = Math.max(dE, Math.abs(sol.energy[j]! - E0));
    dL = Math.max(dL, Math.abs(sol.spatialMomentum[3 * j + 2]! - L0));
    dP = Math.max(dP, Math.abs(sol.pi[3 * j + 2]! - P0));
  }
  return {
    sol,
    orthogonality,
    spatialMomentum: dL / Math.abs(L0),
    bodyMomentum: dP / Math.abs(P0),
    energy: dE / Math.abs(E0),
  };
}
