import { describe, expect, it } from 'vitest';
import { constraintAlgorithm } from '../src/constraintAlgorithm.js';
import { ImplicitLagrangianSystem } from '../src/implicitSystem.js';
import { integrateIndexReduced } from '../src/indexReduction.js';
import { integrateNullSpace } from '../src/nullSpaceIntegration.js';
import { constantDistribution } from './fixtures.js';
import {
  disk,
  diskExact,
  diskLagrangian,
  diskSystem,
  expectDefect,
  kcl,
  lc1System,
  lcLagrangian,
  lcQ0,
  lcSystem,
  lcV0,
  rolling,
} from './implicitFixtures.js';

describe('regularity', () => {
  it('names the defects: dependent rows, singular GᵀMG', () => {
    const s = diskExact(0);
    expect(diskSystem.checkRegular(s.q, s.v)).toMatchObject({
      rankA: 2,
      r: 2,
      rankConstrainedMass: 2,
      defect: undefined,
    });
    const dep = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R, true));
    expect(dep.regularity(s.q, s.v)).toMatchObject({
      m: 3,
      rankA: 2,
      defect: 'rank-deficient-constraints',
    });
    expectDefect(() => dep.checkRegular(s.q, s.v), 'rank-deficient-constraints');
    // spec 002 §4.2 item 7: GᵀMG = L[[1, 1], [1, 1]] is singular for the 4-port circuit
    expect(lcSystem.regularity(lcQ0, lcV0)).toMatchObject({
      rankA: 2,
      r: 2,
      rankConstrainedMass: 1,
    });
    expectDefect(() => lcSystem.checkRegular(lcQ0, lcV0), 'singular-constrained-mass');
    // … but not for the single loop, although its L is degenerate too
    expect(
      lc1System.regularity(Float64Array.of(0, 0), Float64Array.of(1, 1)).defect,
    ).toBeUndefined();
  });

  it('the solvers of the regular case refuse non-regular systems', () => {
    const s = diskExact(0);
    const dep = new ImplicitLagrangianSystem(diskLagrangian, rolling(disk.R, true));
    expectDefect(
      () => integrateIndexReduced(dep, { q0: s.q, v0: s.v }, 1),
      'rank-deficient-constraints',
    );
    expectDefect(
      () => integrateIndexReduced(lcSystem, { q0: lcQ0, v0: lcV0 }, 1),
      'singular-constrained-mass',
    );
    expectDefect(
      () => integrateNullSpace(lcSystem, { q0: lcQ0, u0: [0.1, 0.2] }, 1),
      'singular-constrained-mass',
    );
    const lcDep = new ImplicitLagrangianSystem(
      lcLagrangian,
      constantDistribution([...kcl, [1, 1, -2, 1]]),
    );
    expectDefect(() => constraintAlgorithm(lcDep), 'rank-deficient-constraints');
  });
});
