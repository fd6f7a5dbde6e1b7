/**
 * Optimal control on Lie groups: the problem layer ({@link defineOcp}, {@link LieOcp}) on core's
 * interior-point solver, and the problems of spec 003 §8 built on it (SO(3) sub-Riemannian
 * steering, plate-ball steering) with their optimality checks against the paper's discrete
 * Euler–Lagrange equations.
 *
 * @module
 */

export type { SteeringProgress } from './common.js';
export * from './factors.js';
export * from './feedback.js';
export * from './plateBallSteering.js';
export * from './problem.js';
export { OCP_CHART_MARGIN, type OcpRowBlock, type OcpStageRows } from './program.js';
export * from './quadrotor.js';
export * from './satellite.js';
export * from './so3Steering.js';
export * from './spec.js';
export * from './unicycle.js';
