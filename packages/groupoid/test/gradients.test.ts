import { describe, expect, it } from 'vitest';
import { leftGrad, PairGroupoid, rightGrad } from '../src/index.js';

describe('trivialized gradients (spec 003 §2, §3.5(a))', () => {
  it('pair groupoid: ←e_i[f] = D₂f, →e_i[f] = −D₁f (4th-order differences, measured 2e-12)', () => {
    const G = new PairGroupoid(2);
    const f = (g: Float64Array) => Math.sin(g[0]!) * g[3]! + g[1]! * g[2]! ** 2;
    const g = Float64Array.of(0.3, -0.7, 1.1, 0.4);
    const L = leftGrad(new Float64Array(2), G, f, g);
    const R = rightGrad(new Float64Array(2), G, f, g);
    expect(Math.abs(L[0]! - 2 * g[1]! * g[2]!)).toBeLessThan(1e-10);
    expect(Math.abs(L[1]! - Math.sin(g[0]!))).toBeLessThan(1e-10);
    expect(Math.abs(R[0]! + Math.cos(g[0]!) * g[3]!)).toBeLessThan(1e-10);
    expect(Math.abs(R[1]! + g[2]! ** 2)).toBeLessThan(1e-10);
  });
  it('rejects a non-positive step and wrong arrow lengths', () => {
    const G = new PairGroupoid(1);
    expect(() =>
      leftGrad(new Float64Array(1), G, () => 0, Float64Array.of(1, 2), { step: 0 }),
    ).toThrow(/step/);
    expect(() => rightGrad(new Float64Array(1), G, () => 0, Float64Array.of(1))).toThrow(/arrow/);
  });
});
