// Steps of a model file against the equivalent built-in system, in one process (no start-up, no
// parsing: the model is loaded once, then only `simulate` is timed). A model file compiles its
// expressions into closures over Float64Arrays (packages/cli/src/model); the built-in systems are
// hand-written steppers of the same library methods. The target of the CLI README is "a model runs
// within 3× of the built-in system"; this table is where that is measured (it used to be a timed
// unit test, which a loaded CI machine could fail for reasons that are not the code's).
//
// Rows: the damped oscillator (contact midpoint), the planar pendulum (dirac-1), the rolling disk
// (dirac-plus), 10⁵ steps each, every 1000th state kept. Each round times the model and the built-in
// back to back (CPU time of this process, `process.cpuUsage`; the order alternates per round);
// after one untimed warm-up run of each at 10⁴ steps. The ratio is the median of the per-round
// ratios, with the min–max.
//
// Run after a build: `node packages/cli/bench/modelSteps.mjs` (`--quick`: 3 rounds instead of 9;
// `--json`: the `@@RESULT` line with the markdown section). `node bench/run.mjs` runs it in its
// section 8.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../../core/bench/harness.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DIST = join(HERE, '..', 'dist');
const EXAMPLES = join(HERE, '..', 'examples');
const QUICK = process.argv.includes('--quick');
const JSON_OUT = process.argv.includes('--json');
const ROUNDS = QUICK ? 3 : 9;
const STEPS = 100_000;
const TARGET = 3;

const { loadModel } = await import(join(DIST, 'model', 'index.js'));
const { findSystem } = await import(join(DIST, 'registry.js'));

const example = (name) =>
  loadModel(readFileSync(join(EXAMPLES, name), 'utf8'), join(EXAMPLES, name));
const builtin = (name) => findSystem(name, 'system');

/** A simulate request as the CLI's runner takes it (each value a list). */
function request(system, method, h, steps, params, init, every = 1000) {
  const map = (v) =>
    new Map(Object.entries(v).map(([k, x]) => [k, typeof x === 'number' ? [x] : [...x]]));
  return { system, method, h, steps, every, params: map(params), init: map(init) };
}

/** One comparison: the model file and the built-in, each with its own initial values. */
const rows = [
  {
    name: 'damped oscillator, midpoint',
    method: 'midpoint',
    params: { k: 1, gamma: -0.05 },
    model: ['damped-oscillator.json', { q0: 1, q1: 1.01, z0: 0 }],
    builtin: ['damped-oscillator', { q0: 1, q1: 1.01, z0: 0 }],
  },
  {
    name: 'pendulum, dirac-1',
    method: 'dirac-1',
    params: { m: 1, g: 9.81, l: 1 },
    model: ['pendulum.json', { q0: [Math.SQRT1_2, -Math.SQRT1_2], v0: [0, 0] }],
    builtin: ['pendulum', { theta0: Math.PI / 4, omega0: 0 }],
  },
  {
    name: 'rolling disk, dirac-plus',
    method: 'dirac-plus',
    params: { m: 1, R: 1, I: 1, J: 1, a: 0, b: 0, c: 0 },
    model: ['rolling-disk.json', { q0: [0, 0, 0, 0], v0: [1, 0, 1, 1] }],
    builtin: ['rolling-disk', { x: 0, y: 0, theta: 0, phi: 0, thetaDot: 1, phiDot: 1 }],
  },
];

/** CPU ms of one simulate run. */
function cpuMs(runner, req) {
  const c0 = process.cpuUsage();
  const out = runner.simulate(req);
  const c = process.cpuUsage(c0);
  if (!out || out.count !== Math.floor(req.steps / req.every) + 1)
    throw new Error(`${req.system.name ?? 'system'}: unexpected output (${out?.count} rows)`);
  return (c.user + c.system) / 1000;
}

const results = [];
for (const row of rows) {
  const modelSystem = example(row.model[0]);
  const builtinSystem = builtin(row.builtin[0]);
  const modelRun = (steps) =>
    request(modelSystem, row.method, 0.01, steps, row.params, row.model[1]);
  const builtinRun = (steps) =>
    request(builtinSystem, row.method, 0.01, steps, row.params, row.builtin[1]);
  const model = modelRun(STEPS);
  const built = builtinRun(STEPS);
  const rm = await modelSystem.load();
  const rb = await builtinSystem.load();
  cpuMs(rm, modelRun(10_000));
  cpuMs(rb, builtinRun(10_000));
  const tm = [];
  const tb = [];
  const ratios = [];
  for (let i = 0; i < ROUNDS; i++) {
    let a;
    let b;
    if (i % 2 === 0) {
      a = cpuMs(rm, model);
      b = cpuMs(rb, built);
    } else {
      b = cpuMs(rb, built);
      a = cpuMs(rm, model);
    }
    tm.push(a);
    tb.push(b);
    ratios.push(a / b);
  }
  results.push({
    name: row.name,
    modelMs: median(tm),
    builtinMs: median(tb),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
  });
}

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const markdown = [
  '### Model files against the built-ins: the steps alone (in one process)',
  '',
  `${f0(STEPS)} steps, every 1000th state kept, after a warm-up run of each; CPU time, ${ROUNDS} alternating rounds; the ratio is the median of the per-round ratios (min–max). Target: a model within ${TARGET}× of the built-in (packages/cli/bench/modelSteps.mjs).`,
  '',
  '| system, method | model file (ms) | built-in (ms) | model / built-in | target |',
  '|---|---:|---:|---:|:---:|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${f1(r.modelMs)} | ${f1(r.builtinMs)} | ${f2(r.ratio)} (${f2(r.ratioMin)}–${f2(r.ratioMax)}) | ${r.ratio <= TARGET ? '✓' : '✗'} ≤ ${TARGET} |`,
  ),
  '',
];

function f0(x) {
  return x.toLocaleString('en-US');
}

if (JSON_OUT) process.stdout.write(`@@RESULT ${JSON.stringify({ results, markdown })}\n`);
else process.stdout.write(`${markdown.join('\n')}\n`);
