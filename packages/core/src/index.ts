/**
 * `@geomech/core`: the numerical core of geomech.
 *
 * @packageDocumentation
 */

export * from './ad/derivativeCache.js';
export * from './ad/dual.js';
export * from './ad/finiteDifference.js';
export * from './constants.js';
export * from './diagnostics/drift.js';
export * from './diagnostics/order.js';
export * from './errors.js';
export * from './integrate/integrate.js';
export * from './integrate/solution.js';
export * from './integrate/stepDerivatives.js';
export * from './integrate/traits.js';
export * from './lie/conversions.js';
export * from './lie/product.js';
export * from './lie/retractions.js';
export * from './lie/rn.js';
export * from './lie/se2.js';
export * from './lie/se3.js';
export * from './lie/se23.js';
export * from './lie/sen.js';
export * from './lie/so2.js';
export * from './lie/so3.js';
export * from './lie/so3quat.js';
export * from './lie/so3Retractions.js';
export * from './lie/types.js';
export * from './linalg/banded.js';
export * from './linalg/expm.js';
export * from './linalg/lu.js';
export * from './linalg/matrix.js';
export * from './linalg/qr.js';
export * from './linalg/small.js';
export * from './linalg/spectral.js';
export * from './mechanics/discreteForce.js';
export * from './mechanics/vocabulary.js';
export * from './ocp/index.js';
export * from './ode/dopri5.js';
export * from './ode/rk4.js';
export * from './progress.js';
export * from './solvers/leastSquares.js';
export * from './solvers/newton.js';
export * from './sym/index.js';
