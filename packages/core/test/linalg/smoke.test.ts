import { describe, expect, it } from 'vitest';
import { DenseLU } from '../../src/linalg/lu.js';

describe('DenseLU smoke', () => {
  it('solves a 2x2 system', () => {
    const x = new DenseLU(2).factor(Float64Array.of(4, 3, 6, 3)).solve(Float64Array.of(10, 12));
    expect(x[0]).toBeCloseTo(1, 14);
    expect(x[1]).toBeCloseTo(2, 14);
  });
});
