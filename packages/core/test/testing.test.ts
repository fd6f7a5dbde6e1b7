// The @geomech/core/testing entry: its helpers, and that the main entry stays free of vitest and
// fast-check (they are optional peer dependencies used only by the testing entry).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProductGroup } from '../src/lie/product.js';
import { Rn } from '../src/lie/rn.js';
import { SE3 } from '../src/lie/se3.js';
import { SE23 } from '../src/lie/se23.js';
import { SO3 } from '../src/lie/so3.js';
import { actionEmbedding, fdJacobian, maxAbsDiff, relErr, rng } from '../src/testing/index.js';

const src = join(__dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('@geomech/core/testing', () => {
  it('no module outside src/testing imports vitest, fast-check or the testing entry', () => {
    const outside = files(src).filter(
      (p) => p.endsWith('.ts') && !p.includes(join('src', 'testing')),
    );
    expect(outside.length).toBeGreaterThan(20);
    for (const p of outside) {
      const text = readFileSync(p, 'utf8');
      expect(
        /from '(vitest|fast-check)'|testing\/index\.js|from '\.\.\/testing/.test(text),
        p,
      ).toBe(false);
    }
  });

  it('package.json exports ./testing with the @geomech/source condition; vitest and fast-check are optional peers', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
    expect(pkg.exports['./testing']).toEqual({
      '@geomech/source': './src/testing/index.ts',
      types: './dist/testing/index.d.ts',
      import: './dist/testing/index.js',
    });
    expect(pkg.dependencies?.vitest).toBeUndefined();
    expect(pkg.dependencies?.['fast-check']).toBeUndefined();
    expect(pkg.peerDependenciesMeta.vitest.optional).toBe(true);
    expect(pkg.peerDependenciesMeta['fast-check'].optional).toBe(true);
  });

  it('rng is mulberry32: deterministic, in [0, 1), mean 1/2 (10⁵ draws, 5σ)', () => {
    const a = rng(42);
    const b = rng(42);
    const xs = Float64Array.from({ length: 100000 }, () => a());
    const ys = Float64Array.from({ length: 100000 }, () => b());
    expect(maxAbsDiff(xs, ys)).toBe(0);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const s = xs.reduce((acc, x) => acc + x, 0);
    expect(Math.abs(s / 100000 - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / 100000));
  });

  it('fdJacobian differentiates a known map to 1e-9; relErr and maxAbsDiff measure as documented', () => {
    const f = (x: Float64Array) => Float64Array.of(x[0]! * x[1]!, Math.sin(x[0]!), x[1]! ** 3);
    const x = Float64Array.of(0.3, -1.2);
    const J = fdJacobian(f, x, 3);
    const exact = Float64Array.of(-1.2, 0.3, Math.cos(0.3), 0, 0, 3 * 1.44);
    expect(maxAbsDiff(J, exact)).toBeLessThan(1e-9);
    expect(relErr(Float64Array.of(100), Float64Array.of(101))).toBeCloseTo(1 / 101, 15);
    expect(relErr(Float64Array.of(0.5), Float64Array.of(0.25))).toBe(0.25);
  });

  it('actionEmbedding: homogeneous SE(3), SE₂(3) [p, 1, 0], block-wise for products', () => {
    expect(Array.from(actionEmbedding(SE3).embed(Float64Array.of(1, 2, 3)))).toEqual([1, 2, 3, 1]);
    expect(Array.from(actionEmbedding(SO3).embed(Float64Array.of(1, 2, 3)))).toEqual([1, 2, 3]);
    expect(Array.from(actionEmbedding(SE23).embed(Float64Array.of(1, 2, 3)))).toEqual([
      1, 2, 3, 1, 0,
    ]);
    const G = new ProductGroup([Rn(2), SO3]);
    const e = actionEmbedding(G);
    const v = e.embed(Float64Array.of(1, 2, 3, 4, 5));
    expect(Array.from(v)).toEqual([1, 2, 1, 3, 4, 5]);
    expect(Array.from(e.project(v))).toEqual([1, 2, 3, 4, 5]);
  });
});
