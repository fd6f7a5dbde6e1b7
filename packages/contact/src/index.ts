/**
 * `@geomech/contact`: contact (Herglotz) mechanics and its discrete variational integrators
 * (seed 004, spec `004-discrete-contact.md`), on core's one machinery: the integrators are core
 * `Stepper`s run by core's `integrate` and return the one `Solution`; Newton iterations are core's
 * `NewtonSolver`; potentials and Lagrangian derivatives use core's vocabulary.
 *
 * @packageDocumentation
 */
export * from './discrete.js';
export * from './discreteFromFunction.js';
export * from './discreteMechanics.js';
export * from './exact.js';
export * from './integrator.js';
export * from './lagrangian.js';
export * from './mechanical.js';
export * from './midpoint.js';
export * from './regularity.js';
export * from './shooting.js';
export * from './stepper.js';
export * from './types.js';
