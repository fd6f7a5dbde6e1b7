/**
 * `@geomech/dirac`: Dirac structures, implicit Lagrangian systems and discrete Lagrange–Dirac
 * integrators (seeds 000–002, specs `000-discrete-dirac.md`, `001-dirac-integrators.md`,
 * `002-yoshimura-marsden.md`).
 *
 * @packageDocumentation
 */

// errors of this package, defined once in core's registry
export { type NonRegularDefect, NonRegularSystemError } from '@geomech/core';
export type { BandedForce } from './borderedStep.js';
export * from './comparators.js';
export * from './constrained.js';
export * from './constraintAlgorithm.js';
export * from './degenerate.js';
export * from './diracIntegrators.js';
export * from './discreteDirac.js';
export * from './examples.js';
export * from './holonomicModels.js';
export * from './implicitSolution.js';
export * from './implicitSystem.js';
export * from './indexReduction.js';
export * from './induced.js';
export * from './lagrangeDirac.js';
export * from './lagrangian.js';
export * from './linear.js';
export * from './nullSpaceIntegration.js';
export * from './regularity.js';
export * from './secondary.js';
export * from './subspace.js';
export * from './tulczyjew.js';
export * from './types.js';
export * from './ziegler.js';
