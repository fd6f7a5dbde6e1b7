/**
 * `@geomech/groupoid`: Lie groupoids and discrete constrained Lagrangian mechanics (seed 003, spec
 * `003-groupoids-constrained.md`).
 *
 * @packageDocumentation
 */

export * from './gradients.js';
export * from './pair.js';
export type * from './types.js';
