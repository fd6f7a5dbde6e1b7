import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseControlSequence } from '../src/inputs.js';
import { inProcess, simulate } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'geomech-forces-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

// the driven oscillator q″ + q = cos(2t) + u: forces in t, xdot and u
const forced = file(
  'forced.json',
  JSON.stringify({
    kind: 'contact',
    coordinates: ['x'],
    lagrangian: '0.5*xdot^2 - 0.5*x^2',
    forces: ['cos(w*t) + u - c*xdot'],
    inputs: ['u'],
    params: { w: 2, c: 0 },
    init: { q0: [0.7], v0: [-0.4], z0: 0 },
    h: 0.01,
    steps: 200,
  }),
);

describe('forces in model files and --input', () => {
  it('a contact model with forces follows q″ + q = cos 2t + u (u = 0.3 from a CSV file)', async () => {
    const rows = ['u', ...Array.from({ length: 200 }, () => '0.3')].join('\n');
    const doc = await simulate('--model', forced, '--input', file('u.csv', rows));
    const q = doc.series.q as number[];
    const A = 1 / (1 - 4);
    const T = 2;
    const exact = 0.3 + (0.7 - 0.3 - A) * Math.cos(T) - 0.4 * Math.sin(T) + A * Math.cos(2 * T);
    expect(Math.abs(q[200]! - exact)).toBeLessThan(1e-4); // midpoint, order 2, h = 0.01
    const unforcedU = await simulate('--model', forced);
    expect(Math.abs((unforcedU.series.q as number[])[200]! - q[200]!)).toBeGreaterThan(0.05);
  });

  it('a lagrange-dirac model with forces and a JSON --input', async () => {
    const model = file(
      'cart.json',
      JSON.stringify({
        kind: 'lagrange-dirac',
        coordinates: ['x', 'y', 'th'],
        lagrangian: '0.5*(xdot^2 + ydot^2) + 0.5*thdot^2',
        constraints: [['sin(th)', '-cos(th)', 0]],
        forces: ['F*cos(th)', 'F*sin(th)', 'tau'],
        inputs: ['F', 'tau'],
        init: { q0: [0, 0, 0], v0: [0, 0, 0] },
        h: 0.01,
        steps: 100,
      }),
    );
    const u = JSON.stringify(Array.from({ length: 100 }, () => [1, 0]));
    const doc = await simulate('--model', model, '--input', file('u.json', u));
    const q = doc.series.q as number[][];
    // pushed along its heading θ = 0 with F = 1 from rest: x(1) ≈ ½, y = 0 (rectangle rule, O(h))
    expect(Math.abs(q[100]![0]! - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(q[100]![1]!)).toBeLessThan(1e-12);
  });

  it('refuses bad --input files and misuse with exit code 2 naming --input', async () => {
    const cases: [string[], RegExp][] = [
      [['--input', file('few.csv', '0.1\n0.2\n')], /2 rows for 200 steps/],
      [['--input', file('wide.json', '[[1, 2]]')], /rows need 1 numbers/],
      [['--input', file('nan.json', '[[1], [null]]')], /row 2, column 1: expected a finite number/],
      [['--input', file('ragged.csv', '1\n2,3\n')], /row 2 has 2 numbers/],
      [['--input', file('bad.json', '[[1],')], /not valid JSON/],
    ];
    for (const [args, message] of cases) {
      const r = await inProcess('simulate', '--model', forced, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/--input/);
    }
    const builtin = await inProcess('simulate', 'damped-oscillator', '--input', file('x.csv', '1'));
    expect(builtin.code).toBe(2);
    expect(builtin.stderr).toMatch(/built-in systems take no control inputs/);
  });

  it('checks the forces and inputs fields of a model file', async () => {
    const bad = (extra: object) =>
      file(
        'bad.json',
        JSON.stringify({
          kind: 'contact',
          coordinates: ['x'],
          lagrangian: '0.5*xdot^2',
          init: { q0: [0], v0: [0], z0: 0 },
          ...extra,
        }),
      );
    for (const [extra, message] of [
      [{ forces: ['1', '2'] }, /forces: needs 1 components/],
      [{ inputs: ['u'] }, /inputs need a forces entry/],
      [{ forces: ['v'] }, /forces\[0\]/],
      [{ forces: ['u'], inputs: ['x'] }, /input name clashes with the coordinate x/],
    ] as const) {
      const r = await inProcess('simulate', '--model', bad(extra));
      expect(r.code, JSON.stringify(extra)).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('parseControlSequence reads JSON and CSV (header and comments skipped)', () => {
    expect(parseControlSequence('[[1, 2], [3, 4]]', 'u.json')).toEqual({
      rows: 2,
      width: 2,
      data: Float64Array.of(1, 2, 3, 4),
    });
    const csv = parseControlSequence('# comment\nF,tau\n1,2\n\n3,4\n', 'u.csv');
    expect([csv.rows, csv.width, ...csv.data]).toEqual([2, 2, 1, 2, 3, 4]);
  });
});
