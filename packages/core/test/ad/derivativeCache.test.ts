import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DerivativeCache } from '../../src/ad/derivativeCache.js';
import type { GenericScalarFunction } from '../../src/ad/dual.js';

// f(x, y, z) = sin(x)·y² + exp(x·z)
const f: GenericScalarFunction = (o, [x, y, z]) =>
  o.add(o.mul(o.sin(x!), o.mul(y!, y!)), o.exp(o.mul(x!, z!)));

function exactGradient(x: number, y: number, z: number): number[] {
  const e = Math.exp(x * z);
  return [Math.cos(x) * y * y + z * e, 2 * Math.sin(x) * y, x * e];
}

function exactHessian(x: number, y: number, z: number): number[] {
  const e = Math.exp(x * z);
  return [
    -Math.sin(x) * y * y + z * z * e,
    2 * Math.cos(x) * y,
    e + x * z * e,
    2 * Math.cos(x) * y,
    2 * Math.sin(x),
    0,
    e + x * z * e,
    0,
    x * x * e,
  ];
}

const point = fc.tuple(
  fc.double({ min: -1.5, max: 1.5, noNaN: true }),
  fc.double({ min: -2, max: 2, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

describe('DerivativeCache', () => {
  it('gradient by dual numbers matches the closed form (1e-13 relative)', () => {
    const d = new DerivativeCache(3, f);
    fc.assert(
      fc.property(point, ([x, y, z]) => {
        const g = d.gradient([x, y, z]);
        exactGradient(x, y, z).forEach((e, i) => {
          expect(Math.abs(g[i]! - e)).toBeLessThan(1e-13 * (1 + Math.abs(e)));
        });
        expect(d.value([x, y, z])).toBeCloseTo(Math.sin(x) * y * y + Math.exp(x * z), 13);
      }),
      { numRuns: 200 },
    );
  });

  it('Hessian by differenced dual gradients matches the closed form (1e-8) and is symmetric', () => {
    const d = new DerivativeCache(3, f);
    fc.assert(
      fc.property(point, ([x, y, z]) => {
        const H = d.hessian([x, y, z]);
        exactHessian(x, y, z).forEach((e, i) => {
          expect(Math.abs(H[i]! - e)).toBeLessThan(1e-8 * (1 + Math.abs(e)));
        });
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++) expect(H[i * 3 + j]).toBe(H[j * 3 + i]);
      }),
      { numRuns: 200 },
    );
  });

  it('caches the last point: repeated gradient and Hessian calls do not re-evaluate f', () => {
    let calls = 0;
    const counted: GenericScalarFunction = (o, x) => {
      calls++;
      return f(o, x);
    };
    const d = new DerivativeCache(3, counted);
    d.gradient([0.1, 0.2, 0.3]);
    d.gradient([0.1, 0.2, 0.3]);
    expect(calls).toBe(1);
    d.hessian([0.1, 0.2, 0.3]);
    expect(calls).toBe(1 + 6); // two gradient passes per variable
    d.hessian([0.1, 0.2, 0.3]);
    expect(calls).toBe(7);
    d.gradient([0.1, 0.2, 0.4]);
    expect(calls).toBe(8);
  });
});
