/**
 * Discrete optimal control on stages: the stage-wise KKT factorization and the interior-point
 * solver built on it.
 *
 * @module
 */
export * from './ldlt.js';
export * from './stageKkt.js';
