/**
 * Discrete optimal control on stages: the problem contract ({@link StageOcp}), the stage-wise KKT
 * factorization ({@link StageKktSystem}) and the interior-point solver built on it
 * ({@link OcpSolver}).
 *
 * @module
 */
export * from './ldlt.js';
export * from './lqr.js';
export type { OcpIterationInfo, OcpSolverOptions } from './options.js';
export { OCP_MAX_ITERATIONS, resolveOcpOptions } from './options.js';
export type { OcpStageDims, OcpStageEval, StageOcp } from './problem.js';
export { newStageEval } from './problem.js';
export * from './solver.js';
export * from './stageKkt.js';
