/**
 * `@geomech/groupoid`: Lie groupoids and discrete constrained Lagrangian mechanics (seed 003, spec
 * `003-groupoids-constrained.md`).
 *
 * @packageDocumentation
 */

// errors of this package, defined once in core's registry
export { NewtonDivergedError, NonRegularSystemError, NotComposableError } from '@geomech/core';
export * from './adaptive.js';
export * from './algebroid.js';
export * from './constrained.js';
export * from './cotangent.js';
export * from './gradients.js';
export * from './lgvi.js';
export * from './lieGroupGroupoid.js';
export * from './lieGroupMechanics.js';
export * from './lieGroupPair.js';
export * from './ocp/index.js';
export * from './pair.js';
export * from './plateBall.js';
export * from './product.js';
export * from './rigidBody.js';
export * from './symplectic.js';
export type * from './types.js';
export * from './unicycle.js';
