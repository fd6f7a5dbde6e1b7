/**
 * `@geomech/core/testing`: the shared property suites of geomech's Lie groups and retractions for
 * vitest, and their helpers (plus the fixture helpers of the forced-integrator tests), so that packages building on core (groupoids, products, user groups)
 * test their groups with the same properties. Uses `vitest` and `fast-check`, optional peer
 * dependencies of `@geomech/core` that only this entry imports (the main entry stays free of them).
 *
 * @example
 * ```ts
 * import { ProductGroup, Rn, SO3 } from '@geomech/core';
 * import { describeLieGroup } from '@geomech/core/testing';
 *
 * describeLieGroup(new ProductGroup([Rn(2), SO3]));
 * ```
 *
 * @packageDocumentation
 */

export { actuatorForce, expectBitIdentical } from './fixtures.js';
export {
  type ActionEmbedding,
  actionEmbedding,
  describeLieGroup,
  describeRetraction,
  expmSeries,
  fdJacobian,
  type LieSuiteOptions,
  maxAbsDiff,
  type RetractionSuiteOptions,
  relErr,
} from './lieGroupSuite.js';
export {
  randomElement,
  type StageDerivativeCheckOptions,
  type StageDerivativeErrors,
  stageDerivativeError,
} from './ocpDerivativeCheck.js';
export { rng } from './random.js';
export { centralJacobian, nonlinearForce, stepJacobians } from './steps.js';
