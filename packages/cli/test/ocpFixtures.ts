/**
 * Optimal-control model files shared by the CLI tests: a minimum-time double integrator on R2
 * (free horizon in [0.5, 5], |v̇| ≤ 1, from (1, 0) to rest at 0; bang-bang optimum T* = 2).
 */
export const minTimeModel = Object.freeze({
  kind: 'optimal-control',
  state: 'R2',
  steps: 40,
  horizon: { free: [0.5, 5] },
  velocity: ['qdot', 'vdot'],
  coordinates: ['q', 'v'],
  constraints: ['qdot - v'],
  bounds: { vdot: [-1, 1] },
  terminalCost: 'T',
  start: [1, 0],
  end: [0, 0],
});
