/**
 * A sweep point takes its `simulate` document as values (`Io.takeDocument`) instead of writing it
 * as JSON text and parsing it back (issue 22: the text cost as much as the run). Its row must be
 * the one the text gives, cell for cell: these tests run each point both ways, in-process, and
 * compare every cell but the point's own wall time.
 */
import { describe, expect, it } from 'vitest';
import type { SimulateDocument } from '../src/commands/simulate.js';
import { type Io, main } from '../src/main.js';
import { toJson } from '../src/output.js';
import { runPoint, summarize, TakenDocument } from '../src/sweep/point.js';
import { parseSweepSpec, pointArgv, type SweepSpec } from '../src/sweep/spec.js';

const OUT = '/virtual/point.json';

/** The point's JSON text as `main` writes it to `--out` (no document taken). */
async function pointText(spec: SweepSpec, index: number): Promise<string | undefined> {
  let text: string | undefined;
  const io: Io = {
    stdout: () => {},
    stderr: () => {},
    stderrIsTTY: false,
    checkOutput: () => {},
    writeFile: (path, t) => {
      if (path === OUT) text = t;
    },
  };
  await main([...pointArgv(spec, index, undefined, undefined), `--out=${OUT}`], io);
  return text;
}

/** The row's cells without the wallMs column (the only one that depends on timing). */
const timeless = (spec: SweepSpec, row: readonly unknown[]): unknown[] => {
  const wall = spec.outputs.findIndex((o) => o.kind === 'wallMs');
  const first = row.length - 1 - spec.outputs.length; // index, coordinates, status, outputs, error
  return row.filter((_, k) => wall < 0 || k !== first + wall);
};

describe('a point reads its simulate document as values, with the cells of its JSON text', () => {
  const cases: [string, unknown][] = [
    [
      'pendulum, RATTLE and Dirac-2c, series statistics with tails, doc fields, wallMs',
      {
        command: 'simulate',
        system: 'pendulum',
        options: { steps: 60 },
        grid: { method: ['rattle', 'dirac-2c'], h: [0.05, 0.2] },
        outputs: [
          'final:q[0]',
          'initial:q[1]',
          'drift:energy',
          'maxabs:constraint@0.5',
          'mean:p[1]@0.3',
          'min:q[1]',
          'max:q[0]',
          'final:t',
          'newtonIterations',
          'maxResidual',
          'wallMs',
        ],
      },
    ],
    [
      'rigid body with failing points (h too large: a partial result with ok false)',
      {
        command: 'simulate',
        system: 'rigid-body',
        options: { steps: 50, every: 7 },
        grid: { h: [0.1, 20, 80], method: ['cayley', 'exp'] },
        outputs: ['final:xi[0]', 'final:R[8]', 'drift:casimir', 'newtonIterations', 'maxResidual'],
      },
    ],
    [
      'outputs the result does not have: the same invalid rows and messages',
      {
        command: 'simulate',
        system: 'rigid-body',
        options: { steps: 5 },
        grid: { h: [0.1, -1] },
        outputs: ['final:nosuch'],
      },
    ],
    [
      'a vector series without a component',
      {
        command: 'simulate',
        system: 'rigid-body',
        options: { steps: 5 },
        grid: { h: [0.1] },
        outputs: ['final:xi'],
      },
    ],
    [
      'a scalar series with a component',
      {
        command: 'simulate',
        system: 'rigid-body',
        options: { steps: 5 },
        grid: { h: [0.1] },
        outputs: ['final:energy[1]'],
      },
    ],
    [
      'a component past the width',
      {
        command: 'simulate',
        system: 'rigid-body',
        options: { steps: 5 },
        grid: { h: [0.1] },
        outputs: ['final:xi[5]'],
      },
    ],
  ];
  for (const [what, doc] of cases) {
    it(what, async () => {
      const spec = parseSweepSpec(JSON.stringify(doc), 'spec.json');
      const points = spec.points;
      expect(points).toBeGreaterThan(0);
      for (let i = 0; i < points; i++) {
        const row = await runPoint(spec, i, new Map(), undefined, undefined);
        const text = await pointText(spec, i);
        const parsed =
          text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
        const outputs = row.slice(row.length - 1 - spec.outputs.length, row.length - 1);
        let fromText: unknown[];
        try {
          fromText = summarize(spec, parsed, 0);
        } catch (err) {
          // an output the result does not have: the row is invalid with the text's message
          expect(row.at(-2 - spec.outputs.length)).toBe('invalid');
          expect(row.at(-1)).toBe((err as Error).message);
          fromText = summarize(spec, undefined, 0);
        }
        expect(timeless(spec, [0, ...outputs, 0])).toEqual(timeless(spec, [0, ...fromText, 0]));
      }
    });
  }
});

describe('summarize on a document taken as values', () => {
  const spec = parseSweepSpec(
    JSON.stringify({
      command: 'simulate',
      system: 'pendulum',
      grid: { h: [0.1] },
      outputs: ['final:q[0]', 'initial:e', 'max:e', 'newtonIterations', 'maxResidual'],
    }),
    'spec.json',
  );
  const document: SimulateDocument = {
    header: { ok: true, system: 'pendulum', method: 'rattle', h: 0.1, steps: 2 },
    output: {
      count: 3,
      t: Float64Array.of(0, 0.1, 0.2),
      series: [
        { name: 'q', width: 2, data: Float64Array.of(1, 0, 0.5, -1, -0, 2) },
        { name: 'e', width: 1, data: Float64Array.of(-0, -0, -0) },
      ],
      stats: { newtonIterations: 4, maxResidual: Number.NaN },
    },
    stats: { newtonIterations: 4, maxResidual: Number.NaN, wallMs: 1 },
  };

  it('gives the cells of the JSON text: −0 as 0, a non-finite stats number as null', () => {
    const taken = summarize(spec, new TakenDocument(document), 0);
    const text = toJson(document.header, document.output, document.stats);
    const parsed = summarize(spec, JSON.parse(text) as Record<string, unknown>, 0);
    expect(taken).toEqual(parsed);
    expect(taken).toEqual([0, 0, 0, 4, null]);
    expect(Object.is(taken[0], 0)).toBe(true);
    expect(Object.is(taken[1], 0)).toBe(true);
  });
});
