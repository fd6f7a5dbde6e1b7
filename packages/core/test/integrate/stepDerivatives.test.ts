import { describe, expect, it } from 'vitest';
import {
  checkStepDerivatives,
  DimensionError,
  DomainError,
  STEP_DERIVATIVES_MAX_DIMENSION,
} from '../../src/index.js';

describe('checkStepDerivatives: the argument checks of every stepDerivatives', () => {
  const A = new Float64Array(9);
  const B = new Float64Array(6);
  it('accepts S² and S·m outputs after a step (S = 3, m = 2), and m = 0 with an empty dxdu', () => {
    expect(() => checkStepDerivatives('demo', undefined, A, B, 3, 2)).not.toThrow();
    expect(() =>
      checkStepDerivatives('demo', undefined, A, new Float64Array(0), 3, 0),
    ).not.toThrow();
    expect(() =>
      checkStepDerivatives('demo', undefined, A, B, 3, 2, STEP_DERIVATIVES_MAX_DIMENSION),
    ).not.toThrow();
  });
  it('names the argument of a wrong length in a DimensionError (expected, got)', () => {
    try {
      checkStepDerivatives('X.stepDerivatives', undefined, new Float64Array(8), B, 3, 2);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DimensionError);
      const d = e as DimensionError;
      expect([d.what, d.expected, d.got]).toEqual(['X.stepDerivatives: dxdx', 9, 8]);
    }
    try {
      checkStepDerivatives('X.stepDerivatives', undefined, A, new Float64Array(5), 3, 2);
      expect.unreachable();
    } catch (e) {
      const d = e as DimensionError;
      expect([d.what, d.expected, d.got]).toEqual(['X.stepDerivatives: dxdu', 6, 5]);
    }
  });
  it('refuses a missing step (DomainError with the reason), before the lengths', () => {
    const empty = new Float64Array(0);
    expect(() => checkStepDerivatives('X', 'no step taken', empty, empty, 3, 2)).toThrow(
      DomainError,
    );
    expect(() => checkStepDerivatives('X', 'no step taken', empty, empty, 3, 2)).toThrow(
      /no step taken/,
    );
  });
  it(`refuses a dimension above ${STEP_DERIVATIVES_MAX_DIMENSION} first (before the step and the lengths)`, () => {
    const empty = new Float64Array(0);
    const big = STEP_DERIVATIVES_MAX_DIMENSION + 1;
    expect(() => checkStepDerivatives('X', 'no step taken', empty, empty, 3, 2, big)).toThrow(
      /n \+ m/,
    );
    expect(() => checkStepDerivatives('X', 'no step taken', empty, empty, 3, 2, big)).toThrow(
      DomainError,
    );
  });
});
