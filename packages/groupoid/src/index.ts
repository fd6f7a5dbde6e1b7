/**
 * `@geomech/groupoid`: Lie groupoids and discrete constrained Lagrangian mechanics (seed 003, spec
 * `003-groupoids-constrained.md`).
 *
 * @packageDocumentation
 */

export * from './gradients.js';
export * from './pair.js';
export type * from './types.js';
export * from './algebroid.js';
export * from './cotangent.js';
export * from './lieGroupGroupoid.js';
export * from './product.js';
export * from './constrained.js';
export * from './symplectic.js';
export * from './plateBall.js';
export * from './plateBallBvp.js';
