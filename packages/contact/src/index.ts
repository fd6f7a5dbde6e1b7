/**
 * `@geomech/contact`: contact (Herglotz) mechanics and its discrete variational integrators
 * (seed 004, spec `004-discrete-contact.md`).
 *
 * @packageDocumentation
 */
export * from './discrete.js';
export * from './discreteMechanics.js';
export * from './exact.js';
export * from './integrator.js';
export * from './lagrangian.js';
export * from './mechanical.js';
export * from './midpoint.js';
export * from './regularity.js';
export * from './types.js';
