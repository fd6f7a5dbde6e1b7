import { describe, expect, it } from 'vitest';
import { blocksOf, instrument, parseExpectation, parseThrows } from '../extract.ts';

describe('parseExpectation', () => {
  it('reads numbers with a tolerance of one unit in the last digit shown', () => {
    expect(parseExpectation(' 0.4375')).toEqual({ kind: 'number', value: 0.4375, tol: 1e-4 });
    const e = parseExpectation(' −0.58445947… (spec 004 §8.2)');
    expect(e?.kind).toBe('number');
    if (e?.kind === 'number') {
      expect(e.value).toBe(-0.58445947);
      expect(e.tol).toBe(1e-8);
    }
    expect(parseExpectation(' 2')).toEqual({ kind: 'number', value: 2, tol: 0 });
    expect(parseExpectation(' ≈ 0 on a solution')).toEqual({ kind: 'number', value: 0, tol: 1e-8 });
    expect(parseExpectation(' 0.975 = 1 + hγ')).toEqual({
      kind: 'number',
      value: 0.975,
      tol: 1e-3,
    });
  });

  it('evaluates a quotient of literals and reads lists, objects, booleans and explicit tolerances', () => {
    const q = parseExpectation(' 2.375/0.975');
    expect(q?.kind === 'number' && Math.abs(q.value - 2.375 / 0.975) < 1e-15).toBe(true);
    expect(parseExpectation(' ≈ [0] (1e-15)')).toEqual({
      kind: 'list',
      items: [{ kind: 'number', value: 0, tol: 1e-15 }],
    });
    expect(parseExpectation(" { kind: 'contact' }")).toEqual({
      kind: 'object',
      fields: [['kind', { kind: 'string', value: 'contact' }]],
    });
    expect(parseExpectation(' true: the graph of a skew map')).toEqual({
      kind: 'boolean',
      value: true,
    });
  });

  it('leaves prose alone', () => {
    for (const c of [
      ' 90° about z',
      ' 0.9¹⁰ = 0.35',
      ' 2×1',
      ' 4n entries',
      ' x',
      ' ~1e-14',
      ' π/4',
    ]) {
      expect(parseExpectation(c), c).toBeUndefined();
    }
  });
});

describe('parseThrows and instrument', () => {
  it('reads `throws Name` and rewrites asserted statements on their own lines', () => {
    expect(parseThrows(' throws DomainError')).toBe('DomainError');
    expect(parseThrows(' throws SingularMatrixError if singular')).toBeUndefined();
    const r = instrument('const a = 1;\na + 1; // 2\nf(a); // throws DimensionError\n');
    expect(r.asserts).toBe(1);
    expect(r.throwsChecks).toBe(1);
    expect(r.code.split('\n')[1]).toMatch(/^__check\(\(a \+ 1\), .*, 2\);/);
    expect(r.code.split('\n')[2]).toMatch(
      /^__throws\(\(\) => \{ f\(a\); \}, "DimensionError", 3\);/,
    );
  });

  it('finds the ```ts blocks of @example tags with their lines', () => {
    const text =
      '/**\n * Doc.\n *\n * @example\n * ```ts\n * f(1); // 2\n * ```\n */\nexport const f = 1;\n';
    expect(blocksOf(text)).toEqual([{ line: 6, code: 'f(1); // 2' }]);
  });
});
