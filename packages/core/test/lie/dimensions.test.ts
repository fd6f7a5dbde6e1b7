// Dimension checks outside the LieGroup methods (those are covered by the shared suite): the so(3)
// helpers, quaternion conversions and retractions, and the example.
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../src/errors.js';
import { cayleyRetraction, coAdjoint } from '../../src/lie/retractions.js';
import { SE3 } from '../../src/lie/se3.js';
import { coAdjointSO3, hat3, SO3, vee3 } from '../../src/lie/so3.js';
import { normalizeQuat, quatFromRotation, rotationFromQuat } from '../../src/lie/so3quat.js';
import {
  cay,
  cayInv,
  dcay,
  dcayInv,
  dtauSkew,
  dtauSkewInv,
  so3Cayley,
  so3Skew,
  tauSkew,
  tauSkewInv,
} from '../../src/lie/so3Retractions.js';

const f = (n: number) => new Float64Array(n);

/** The DimensionError thrown by `fn`, or undefined. */
function caught(fn: () => unknown): DimensionError | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof DimensionError) return e;
    throw e;
  }
  return undefined;
}

describe('dimension checks', () => {
  it("issue 15's example: SE3.exp(out16, [1, 2, 3]) throws 'SE3.exp: tau' (expected 6, got 3), not NaN", () => {
    const out = f(16);
    const e = caught(() => SE3.exp(out, Float64Array.of(1, 2, 3)));
    expect(e?.what).toBe('SE3.exp: tau');
    expect(e?.expected).toBe(6);
    expect(e?.got).toBe(3);
    expect(e?.message).toBe('SE3.exp: tau: expected 6, got 3');
    expect(out.every((v) => v === 0)).toBe(true); // nothing written
  });

  it('so(3) helpers, quaternion conversions and the SO(3) retractions name function and argument', () => {
    const cases: [() => unknown, string, number, number][] = [
      [() => hat3(f(8), f(3)), 'hat3: out', 9, 8],
      [() => hat3(f(9), f(4)), 'hat3: x', 3, 4],
      [() => vee3(f(3), f(16)), 'vee3: m', 9, 16],
      [() => coAdjointSO3(f(3), f(9), f(2)), 'coAdjointSO3: nu', 3, 2],
      [() => normalizeQuat(f(3), Float64Array.of(1, 0, 0, 0)), 'normalizeQuat: out', 4, 3],
      [() => rotationFromQuat(f(9), f(3)), 'rotationFromQuat: q', 4, 3],
      [() => quatFromRotation(f(4), f(16)), 'quatFromRotation: R', 9, 16],
      [() => cay(f(9), f(6)), 'cay: x', 3, 6],
      [() => cayInv(f(3), f(16)), 'cayInv: g', 9, 16],
      [() => dcay(f(4), f(3)), 'dcay: out', 9, 4],
      [() => dcayInv(f(9), f(2)), 'dcayInv: x', 3, 2],
      [() => so3Cayley.dtauR(f(9), f(2)), 'so3Cayley.dtauR: x', 3, 2],
      [() => so3Cayley.dtauRInv(f(8), f(3)), 'so3Cayley.dtauRInv: out', 9, 8],
      [() => tauSkew(f(9), f(2)), 'tauSkew: s', 3, 2],
      [() => tauSkewInv(f(3), f(4)), 'tauSkewInv: g', 9, 4],
      [() => dtauSkew(f(8), f(3)), 'dtauSkew: out', 9, 8],
      [() => dtauSkewInv(f(9), f(4)), 'dtauSkewInv: s', 3, 4],
      [() => so3Skew.dtauR(f(9), f(2)), 'so3Skew.dtauR: x', 3, 2],
      [() => so3Skew.dtauRInv(f(9), f(4)), 'so3Skew.dtauRInv: x', 3, 4],
      [() => cayleyRetraction(SE3).dtau(f(35), f(6)), 'cayley(SE(3)): out', 36, 35],
      [() => cayleyRetraction(SE3).dtauR(f(36), f(5)), 'cayley(SE(3)): x', 6, 5],
      [() => coAdjoint(SO3, f(3), SO3.identity(f(9)), f(4)), 'coAdjoint(SO(3)): nu', 3, 4],
    ];
    for (const [fn, what, expected, got] of cases) {
      const e = caught(fn);
      expect(e?.what, what).toBe(what);
      expect(e?.expected, what).toBe(expected);
      expect(e?.got, what).toBe(got);
    }
  });
});
