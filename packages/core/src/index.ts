/**
 * `@geomech/core`: the numerical core of geomech.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './linalg/lu.js';
export * from './linalg/matrix.js';
export * from './linalg/mlmatrix.js';
