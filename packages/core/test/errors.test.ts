import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import {
  DimensionError,
  GEOMECH_ERROR_TAGS,
  GeomechError,
  hasErrorTag,
  NonRegularSystemError,
  RegularityError,
  ResourceLimitError,
} from '../src/index.js';

describe('the error registry', () => {
  it('every exported error class has a unique registered tag equal to its name', () => {
    const classes = (Object.values(core) as unknown[]).filter(
      (v): v is typeof GeomechError =>
        typeof v === 'function' &&
        (v === GeomechError || (v as { prototype: unknown }).prototype instanceof GeomechError),
    );
    const tags = new Set<string>();
    for (const C of classes) {
      // every constructor takes strings and numbers first; these placeholders make an instance
      const e = new (C as unknown as new (...a: unknown[]) => GeomechError)('x', 1, 1, 1);
      expect(e.name).toBe(C.name);
      expect(e._tag).toBe(e.name);
      expect(GEOMECH_ERROR_TAGS).toContain(e.name);
      expect(tags.has(e.name)).toBe(false);
      tags.add(e.name);
    }
    expect(tags.size).toBe(GEOMECH_ERROR_TAGS.length);
  });

  it('hasErrorTag works without instanceof (another copy of the library)', () => {
    const foreign = { _tag: 'DimensionError', name: 'DimensionError', message: 'x' };
    expect(hasErrorTag(foreign, 'DimensionError')).toBe(true);
    expect(hasErrorTag(foreign, 'DomainError')).toBe(false);
    expect(hasErrorTag({ _tag: 'Nope' })).toBe(false);
    expect(hasErrorTag(new DimensionError('a', 1, 2))).toBe(true);
    expect(new DimensionError('a', 1, 2)._tag).toBe('DimensionError');
    expect(hasErrorTag(new Error('plain'))).toBe(false);
    expect(hasErrorTag(null)).toBe(false);
  });

  it('messages carry the numbers', () => {
    expect(new ResourceLimitError('steps', 10, 20).message).toBe('steps: 20 exceeds the limit 10');
    expect(new RegularityError(3, 1e-14, 1e-12).message).toMatch(/at step 3: 1 \+ Dz Ld = 1e-14/);
    const b = new NonRegularSystemError('singular-bordered-jacobian', {
      direction: 'forward',
      sigmaMin: 1e-17,
      sigmaMax: 2,
      conditionEstimate: 1e17,
      iteration: 0,
      step: 4,
    });
    expect(b.message).toBe(
      'non-regular constrained system: forward bordered Jacobian is singular at Newton iteration 0 of step 4 ' +
        '(sigma_min = 1.000e-17, sigma_max = 2.000e+0, condition estimate 1.00e+17)',
    );
    const r = new NonRegularSystemError('rank-deficient-constraints', {
      rank: 1,
      expected: 2,
      detail: 'A(q) has rank 1 < 2',
    });
    expect(r.message).toBe(
      'non-regular implicit Lagrangian system (rank-deficient-constraints): A(q) has rank 1 < 2',
    );
    expect(r.rank).toBe(1);
    expect(Number.isNaN(r.sigmaMin)).toBe(true);
  });
});
