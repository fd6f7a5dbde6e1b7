/**
 * `geomech sweep` without worker threads: the spec reader (errors name the field), the point set
 * (grid order, seeded samples), the tables, `merge`'s checks, the journal reader, the plots and
 * the JSON Schema's agreement with the reader.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeShards } from '../src/commands/merge.js';
import { renderSweepPlot } from '../src/sweep/plot.js';
import { timeoutRow } from '../src/sweep/point.js';
import {
  axisNames,
  counterUniform,
  DOC_FIELDS,
  parseSweepSpec,
  pointArgv,
  pointCoordinates,
  SERIES_STATS,
  SWEEP_LIMITS,
  specHash,
} from '../src/sweep/spec.js';
import {
  parseShard,
  type Row,
  readJournal,
  readTable,
  shardJson,
  type TableHeader,
  tableColumns,
  tableCsv,
  tableJson,
} from '../src/sweep/table.js';
import { ERROR_LINE, inProcess } from './helpers.js';

const base = {
  command: 'simulate',
  system: 'pendulum',
  grid: { h: [0.1, 0.05] },
  outputs: ['final:q[0]'],
};
const spec = (extra: Record<string, unknown>) =>
  parseSweepSpec(JSON.stringify({ ...base, ...extra }), 's.json');
/** The `(where)` of the error a bad spec raises. */
function whereOf(extra: Record<string, unknown>): string {
  try {
    spec(extra);
  } catch (err) {
    return (err as { where: string }).where;
  }
  throw new Error('no error');
}

describe('spec validation names the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown command', { command: 'integrate' }, 's.json: command'],
    ['no target', { system: undefined }, 's.json: system'],
    ['two targets', { problem: 'plate-ball' }, 's.json: problem'],
    ['solve with a system', { command: 'solve' }, 's.json: system'],
    ['unknown top-level field', { grids: {} }, 's.json: grids'],
    ['unknown option', { options: { stepz: 3 } }, 's.json: options.stepz'],
    ['option of another command', { options: { n: 3 } }, 's.json: options.n'],
    ['method as a number', { options: { method: 3 } }, 's.json: options.method'],
    ['h as a string', { grid: { h: [0.1, 'x'] } }, 's.json: grid.h[1]'],
    ['empty axis', { grid: { h: [] } }, 's.json: grid.h'],
    ['bad axis name', { grid: { 'param.P.x': [1] } }, 's.json: grid.param.P.x'],
    ['range without count', { grid: { h: { from: 0.1, to: 1 } } }, 's.json: grid.h.count'],
    [
      'log range through 0',
      { grid: { h: { from: 0, to: 1, count: 3, scale: 'log' } } },
      's.json: grid.h',
    ],
    ['component without base vector', { grid: { 'init.q0[1]': [1, 2] } }, 's.json: init.q0[1]'],
    ['swept and fixed', { options: { h: 0.1 } }, 's.json: options.h'],
    ['steps and t-end', { options: { steps: 3, 't-end': 3 } }, 's.json: options.t-end'],
    ['no outputs', { outputs: [] }, 's.json: outputs'],
    ['unknown output', { outputs: ['cost'] }, 's.json: outputs[0]'],
    ['unknown statistic', { outputs: ['median:q[0]'] }, 's.json: outputs[0].stat'],
    ['tail out of range', { outputs: ['max:energy@1.5'] }, 's.json: outputs[0].tail'],
    ['duplicate output', { outputs: ['drift:energy', 'drift:energy'] }, 's.json: outputs[1]'],
    [
      'output named like a fixed column',
      { outputs: [{ stat: 'final', field: 'q', component: 0, name: 'status' }] },
      's.json: outputs[0]',
    ],
    [
      'seed not an integer',
      { samples: { count: 2, seed: 1.5, vars: { 'param.g': { uniform: [1, 2] } } } },
      's.json: samples.seed',
    ],
    [
      'unknown distribution',
      { samples: { count: 2, seed: 1, vars: { 'param.g': { cauchy: [1, 2] } } } },
      's.json: samples.vars.param.g',
    ],
    [
      'reversed uniform',
      { samples: { count: 2, seed: 1, vars: { 'param.g': { uniform: [2, 1] } } } },
      's.json: samples.vars.param.g.uniform',
    ],
    [
      'sample and grid on one axis',
      { samples: { count: 2, seed: 1, vars: { h: { uniform: [0.1, 0.2] } } } },
      's.json: samples.vars.h',
    ],
    ['plot axis not swept', { plot: { x: 'param.g' } }, 's.json: plot.x'],
    ['plot value not an output', { plot: { value: 'cost' } }, 's.json: plot.value'],
    ['time budget not an integer', { timeoutMs: 1.5 }, 's.json: timeoutMs'],
    ['time budget of 0 ms', { timeoutMs: 0 }, 's.json: timeoutMs'],
    ['time budget over one day', { timeoutMs: 86_400_001 }, 's.json: timeoutMs'],
  ];
  for (const [what, extra, where] of cases) it(what, () => expect(whereOf(extra)).toBe(where));

  it('refuses more points than the limit before enumerating anything', () => {
    const big = { from: 0, to: 1, count: 100_000 };
    expect(whereOf({ grid: { h: big, 'param.g': big } })).toBe('s.json: grid.param.g');
    expect(SWEEP_LIMITS.points).toBe(1_000_000);
    expect(
      whereOf({ samples: { count: 1_000_000, seed: 1, vars: { 'param.g': { uniform: [1, 2] } } } }),
    ).toBe('s.json: samples.count');
  });

  it('rejects a file that is not JSON, with the one-line error of the contract and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geomech-sweep-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"command": "simulate",');
    const r = await inProcess('sweep', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toContain(`(${file}: (file))`);
    writeFileSync(file, JSON.stringify({ ...base, grid: { h: [0.1, 'fast'] } }));
    const r2 = await inProcess('sweep', file);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toBe(`geomech: error: h takes one number, got 'fast' (${file}: grid.h[1])\n`);
    const r3 = await inProcess('sweep', file, '--workers', '1000');
    expect(r3.code).toBe(2);
    expect(r3.stderr).toBe('geomech: error: at most 256 workers, got 1000 (--workers)\n');
    const r4 = await inProcess('sweep', file, '--shard', '4/4');
    expect(r4.code).toBe(2);
    expect(r4.stderr).toBe('geomech: error: K must be in [0, 3] (0-based), got 4 (--shard)\n');
    const r5 = await inProcess('sweep', file, '--shard', '0/4', '--out', join(dir, 'shard.csv'));
    expect(r5.code).toBe(2);
    expect(r5.stderr).toBe(
      'geomech: error: a shard file is JSON (merge the shards, then choose csv) (--out)\n',
    );
    const r6 = await inProcess('sweep', file, '--resume');
    expect(r6.code).toBe(2);
    expect(r6.stderr).toBe(
      'geomech: error: --resume needs --out (the table to continue) (--resume)\n',
    );
  });
});

describe('the point set', () => {
  it('is the cartesian product, the first axis slowest, and each point is one command line', () => {
    const s = spec({
      options: { 't-end': 2, param: { g: 9.81 }, init: { theta0: 0.5 } },
      grid: { method: ['rattle', 'dirac-2c'], h: { from: 0.1, to: 0.3, count: 3 } },
    });
    expect(s.points).toBe(6);
    expect(axisNames(s)).toEqual(['method', 'h']);
    const coords = Array.from({ length: 6 }, (_, i) => pointCoordinates(s, i));
    expect(coords).toEqual([
      ['rattle', 0.1],
      ['rattle', 0.2],
      ['rattle', 0.3],
      ['dirac-2c', 0.1],
      ['dirac-2c', 0.2],
      ['dirac-2c', 0.3],
    ]);
    expect(pointArgv(s, 4, undefined, undefined)).toEqual([
      'simulate',
      'pendulum',
      '--t-end=2',
      '--method=dirac-2c',
      '--h=0.2',
      '--param=g=9.81',
      '--init=theta0=0.5',
      '--every=10', // only the final state is read: keep the ends only
    ]);
  });

  it('a log range is geometric with exact ends', () => {
    const s = spec({ grid: { h: { from: 0.001, to: 0.1, count: 3, scale: 'log' } } });
    const h = [0, 1, 2].map((i) => pointCoordinates(s, i)[0] as number);
    expect(h[0]).toBe(0.001);
    expect(h[2]).toBe(0.1);
    expect(h[1]).toBeCloseTo(0.01, 15);
  });

  it('varies one component of a vector initial datum', () => {
    const s = spec({
      system: 'ziegler',
      options: { init: { theta: [0.1, 0.2] } },
      grid: { 'init.theta[1]': [0.3, 0.4] },
    });
    expect(pointArgv(s, 1, undefined, undefined)).toContain('--init=theta=0.1,0.4');
  });

  it('samples are seeded, in range, and independent of which points run', () => {
    const samples = {
      count: 2000,
      seed: 7,
      vars: { 'param.g': { uniform: [9, 10] }, 'param.l': { normal: [1, 0.1] } },
    };
    const s = spec({ samples });
    expect(s.points).toBe(4000);
    const g = Array.from({ length: 2000 }, (_, j) => pointCoordinates(s, j)[1] as number);
    expect(Math.min(...g)).toBeGreaterThanOrEqual(9);
    expect(Math.max(...g)).toBeLessThan(10);
    // mean of U(9, 10): 9.5 ± 3·(1/√12)/√2000
    expect(Math.abs(g.reduce((a, b) => a + b, 0) / 2000 - 9.5)).toBeLessThan(0.02);
    const l = Array.from({ length: 2000 }, (_, j) => pointCoordinates(s, j)[2] as number);
    const mean = l.reduce((a, b) => a + b, 0) / 2000;
    const sd = Math.sqrt(l.reduce((a, b) => a + (b - mean) ** 2, 0) / 1999);
    expect(Math.abs(mean - 1)).toBeLessThan(3 * (0.1 / Math.sqrt(2000)));
    expect(Math.abs(sd - 0.1)).toBeLessThan(0.01);
    // the same sample under the second grid value; the same values from a new parse
    expect(pointCoordinates(s, 2000 + 17).slice(1)).toEqual(pointCoordinates(s, 17).slice(1));
    expect(pointCoordinates(spec({ samples }), 1234)).toEqual(pointCoordinates(s, 1234));
    // another seed, other values
    expect(pointCoordinates(spec({ samples: { ...samples, seed: 8 } }), 3)[1]).not.toBe(g[3]);
    expect(counterUniform(7, 3, 0, 0)).toBe(counterUniform(7, 3, 0, 0));
  });

  it('the hash ignores key order, description and plot, but not the grid order or the files', () => {
    const a = JSON.stringify({ ...base, grid: { h: [1], 'param.g': [2] } });
    const b = JSON.stringify({
      outputs: base.outputs,
      grid: { h: [1], 'param.g': [2] },
      system: 'pendulum',
      command: 'simulate',
      description: 'x',
      plot: {},
    });
    const c = JSON.stringify({ ...base, grid: { 'param.g': [2], h: [1] } });
    expect(specHash(a, [])).toBe(specHash(b, []));
    expect(specHash(a, [])).not.toBe(specHash(c, []));
    expect(specHash(a, ['model'])).not.toBe(specHash(a, ['model2']));
  });
});

const header: TableHeader = {
  command: 'simulate',
  target: ['system', 'pendulum'],
  points: 5,
  specHash: 'abc',
};
const columns = tableColumns(['h', 'init.q0'], ['final:q[0]', 'status']);
const rows: Row[] = [0, 1, 2, 3, 4].map((i) => [
  i,
  0.1 * (i + 1),
  [1, i],
  i === 3 ? 'failed' : 'ok',
  i === 3 ? null : 1 / (i + 3),
  'converged',
  i === 3 ? 'Newton did not converge, "really" (numerical failure)' : null,
]);

describe('tables', () => {
  it('JSON: a header, the columns, one row per line; CSV: quoted where needed, null empty', () => {
    const json = tableJson(header, columns, rows);
    expect(json.split('\n')[0]).toBe(
      '{"sweep":{"command":"simulate","system":"pendulum","points":5,"failed":1,"invalid":0,"specHash":"abc"},"columns":["index","h","init.q0","status","final:q[0]","status","error"],"rows":[',
    );
    expect(json.split('\n')[4]).toBe(
      '[3,0.4,[1,3],"failed",null,"converged","Newton did not converge, \\"really\\" (numerical failure)"],',
    );
    const back = readTable(json, 't.json');
    expect(back.rows).toEqual(rows);
    const csv = tableCsv(columns, rows).split('\n');
    expect(csv[0]).toBe('index,h,init.q0,status,final:q[0],status,error');
    expect(csv[1]).toBe('0,0.1,"1,0",ok,0.3333333333333333,converged,');
    expect(csv[4]).toBe(
      '3,0.4,"1,3",failed,,converged,"Newton did not converge, ""really"" (numerical failure)"',
    );
  });

  it('a timed-out point is counted in the header only when there is one', () => {
    const spec = parseSweepSpec(JSON.stringify({ ...base, timeoutMs: 250 }), 's.json');
    expect(spec.timeoutMs).toBe(250);
    const late = timeoutRow(spec, 1, 250);
    expect(late).toEqual([
      1,
      0.05,
      'timeout',
      null,
      'no result within the point time budget of 250 ms',
    ]);
    const cols = tableColumns(['h'], ['final:q[0]']);
    const ok: Row = [0, 0.1, 'ok', 0.5, null];
    expect(tableJson(header, cols, [ok, late]).split('\n')[0]).toBe(
      '{"sweep":{"command":"simulate","system":"pendulum","points":5,"failed":0,"invalid":0,"timeout":1,"specHash":"abc"},"columns":["index","h","status","final:q[0]","error"],"rows":[',
    );
    expect(tableJson(header, cols, [ok]).split('\n')[0]).toContain('"invalid":0,"specHash"');
    expect(tableCsv(cols, [late]).split('\n')[1]).toBe(
      '1,0.05,timeout,,no result within the point time budget of 250 ms',
    );
  });

  it('merge joins shards in any order into the single table, byte for byte', () => {
    const shards = [0, 1, 2].map((k) =>
      readTable(
        shardJson(
          header,
          { k, n: 3 },
          columns,
          rows.filter((r) => (r[0] as number) % 3 === k),
          null,
        ),
        `s${k}`,
      ),
    );
    const merged = mergeShards([shards[2]!, shards[0]!, shards[1]!], ['s2', 's0', 's1']);
    expect(tableJson(merged.header, merged.columns, merged.rows)).toBe(
      tableJson(header, columns, rows),
    );
  });

  it('merge refuses missing, duplicate, foreign and incomplete shards', () => {
    const shard = (k: number, n: number, h = header, keep = (_: Row) => true) =>
      readTable(
        shardJson(
          h,
          { k, n },
          columns,
          rows.filter((r) => (r[0] as number) % n === k && keep(r)),
          null,
        ),
        `s${k}`,
      );
    const err = (list: ReturnType<typeof shard>[]) => {
      try {
        mergeShards(
          list,
          list.map((_, k) => `f${k}`),
        );
      } catch (e) {
        return `${(e as Error).message} (${(e as { where: string }).where})`;
      }
      return 'merged';
    };
    expect(err([shard(0, 3), shard(2, 3)])).toBe('missing shard 1/3 (geomech merge)');
    expect(err([shard(0, 2), shard(1, 2), shard(1, 2)])).toBe('duplicate shard 1/2 (also f1) (f2)');
    expect(err([shard(0, 2), shard(1, 2, { ...header, specHash: 'abd' })])).toMatch(
      /^shard of another spec .* \(f1\)$/,
    );
    expect(err([shard(0, 2), shard(1, 3)])).toBe('shard 1/3 of a split into 3, not 2 (f1)');
    expect(err([shard(0, 2), shard(1, 2, header, (r) => r[0] !== 3)])).toBe(
      'incomplete shard 1/2: 1 of 2 points (f1)',
    );
    expect(err([shard(0, 2), shard(1, 2)])).toBe('merged');
    expect(() => parseShard('1/0', 10)).toThrow(/N must be in \[1, 10\]/);
    expect(() => parseShard('a/b', 10)).toThrow(/expected K\/N/);
  });

  it('a journal cut by a kill keeps every whole line before the cut', () => {
    const head = JSON.stringify({ geomechSweepJournal: 1, specHash: 'abc', shard: null });
    const text = `${head}\n${JSON.stringify(rows[0])}\n${JSON.stringify(rows[1])}\n[2,0.3,[1`;
    const j = readJournal(text);
    expect(j.head?.specHash).toBe('abc');
    expect(j.rows).toEqual([rows[0], rows[1]]);
    expect(readJournal('garbage').head).toBeUndefined();
  });
});

describe('sweep plots', () => {
  const cols = tableColumns(['method', 'h', 'param.P'], ['amp']);
  const grid: Row[] = [];
  let i = 0;
  for (const m of ['a', 'b'])
    for (const h of [0.1, 0.2, 0.3])
      for (const P of [1, 2])
        grid.push([i++, m, h, P, h === 0.3 && m === 'b' ? 'failed' : 'ok', h * P, null]);

  it('a 2-D sweep with a third small axis is a heat map with one panel per value', () => {
    const svg = renderSweepPlot(cols, grid, { x: 'param.P', y: 'h' }, 'z');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('>method = a</text>');
    expect(svg).toContain('>method = b</text>');
    // 12 cells, the failed points grey, the extremes at the ends of the colour map
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(12);
    expect(svg.match(/fill="#bbbbbb"/g)).toHaveLength(2);
    expect(svg).toContain('fill="#440154"><title>param.P = 1, h = 0.1: 0.1</title>');
    expect(svg).toContain('fill="#fde725"><title>param.P = 2, h = 0.3: 0.6</title>');
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(renderSweepPlot(cols, grid, { x: 'param.P', y: 'h' }, 'z')).toBe(svg);
  });

  it('a 1-D sweep with a second axis is a line plot, one line per value', () => {
    const one = grid.filter((r) => r[1] === 'a');
    const svg = renderSweepPlot(cols, one, { x: 'h', panels: 'param.P' }, 'z');
    expect(svg).toContain('param.P = 1');
    expect(svg).toContain('param.P = 2');
    expect(svg).toContain('<polyline');
  });

  it('refuses a sweep of more dimensions', () => {
    const cols4 = tableColumns(['a', 'b', 'c', 'd'], ['v']);
    const rows4: Row[] = [];
    let k = 0;
    for (const a of [1, 2])
      for (const b of [1, 2])
        for (const c of [1, 2])
          for (const d of [1, 2]) rows4.push([k++, a, b, c, d, 'ok', a + b + c + d, null]);
    expect(() => renderSweepPlot(cols4, rows4, undefined, 'z')).toThrow(
      /this sweep also varies c, d$/,
    );
  });
});

describe('sweep.schema.json agrees with the reader', () => {
  const schema = JSON.parse(
    readFileSync(join(__dirname, '..', 'schema', 'sweep.schema.json'), 'utf8'),
  );
  it('lists the same top-level fields, commands, statistics and limits', () => {
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        '$schema',
        'command',
        'description',
        'grid',
        'model',
        'options',
        'outputs',
        'plot',
        'problem',
        'samples',
        'system',
        'timeoutMs',
      ].sort(),
    );
    expect(schema.properties.timeoutMs.maximum).toBe(SWEEP_LIMITS.timeoutMs);
    expect(schema.properties.command.enum).toEqual(['simulate', 'solve', 'order']);
    expect(schema.properties.outputs.items.oneOf[1].properties.stat.enum).toEqual([
      ...SERIES_STATS,
    ]);
    expect(schema.properties.outputs.maxItems).toBe(SWEEP_LIMITS.outputs);
    expect(schema.properties.samples.properties.count.maximum).toBe(SWEEP_LIMITS.points);
    expect(schema.$defs.vector.maxItems).toBe(SWEEP_LIMITS.vector);
    for (const f of [...DOC_FIELDS.simulate, ...DOC_FIELDS.solve, ...DOC_FIELDS.order])
      expect(schema.properties.outputs.description).toContain(f);
    const options = Object.keys(schema.properties.options.properties).sort();
    expect(options).toEqual(
      [
        'method',
        'h',
        'steps',
        't-end',
        'every',
        'tol',
        'max-iter',
        'levels',
        'n',
        'start',
        'end',
        'continuation',
        'guess',
        'param',
        'init',
      ].sort(),
    );
  });

  it('the example spec parses', () => {
    const file = join(__dirname, '..', 'examples', 'ziegler-stability.sweep.json');
    const s = parseSweepSpec(readFileSync(file, 'utf8'), file);
    expect(s.points).toBe(2 * 6 * 11);
  });
});
