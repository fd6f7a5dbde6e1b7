/**
 * `@geomech/contact`: contact (Herglotz) mechanics and its discrete variational integrators
 * (seed 004, spec `004-discrete-contact.md`).
 *
 * @packageDocumentation
 */
export * from './mechanical.js';
export * from './midpoint.js';
