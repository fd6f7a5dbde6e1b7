// Start-up of the `geomech` process (issue 20): the CPU time (user + system, the kernel's
// accounting of the finished child, read by wait4) and the wall time of whole processes, from exec
// to exit, for `--version`, a 10-step built-in run and a model file against the equivalent
// built-in at 10 and 10⁶ steps. Run after a build: `node packages/cli/bench/startup.mjs`
// (`--quick`: fewer runs; `--runs=N`; `--json`: the `@@RESULT` line with the markdown section;
// `--vs=DIR`: the same commands also from the built checkout DIR (e.g. main), alternating, with the
// paired CPU ratio of this checkout against it; `--bare-only`: only the first table; `--no-c`:
// without the C comparison below; `--whole-only`: only that comparison; `--model-only`: only the
// tables of model files against the built-ins, simulate, solve and sweeps; `--sweep-only`: only the
// sweeps' time to first row; `--solve-only`: only `solve --model`). `node bench/run.mjs` runs it
// with `--json` as its section 8.
//
// Model files are cached (packages/cli/src/model/cache.ts: the parse trees of the file's
// expressions, so a second run never loads mathjs). Every process here runs with
// GEOMECH_CACHE_DIR in this script's temporary directory (nothing of the user's cache is read or
// written); a model file is measured warm (a cache hit: the entry written by the warm-up run) and
// cold (the entry deleted before each run, so each run parses with mathjs and writes the entry,
// as a first run does), both against the same built-in, alternating.
//
// `solve --model` (examples/unicycle-parking.json against the built-in unicycle-parking, the same
// problem) likewise, warm and cold, at n = 10 and at the file's n = 60. Sweeps over a model file
// (2 workers, 4 points): the time from exec to the first row in the `--out` journal (polled every
// millisecond) and the whole process's CPU, warm (the entry there: no thread loads mathjs), cold
// (simulate: the main thread's check parses and writes the entry before the workers start, which
// read it; solve: each worker parses and writes it) and `--no-cache` (every worker parses), against
// the same sweep of the built-in. The first-row times count python's start (the wait4 wrapper).
//
// Whole process against C (issue 20: "the whole `geomech simulate rigid-body` process for 10⁶
// steps is within 3× of a C program doing the same steps, start-up included"): bench/c/
// rigidbody_run.c (the step of bench/c/rigidbody_step.c, the CLI's defaults, every K-th state
// kept), compiled here with `cc -O2 -ffp-contract=off`, against `geomech simulate rigid-body
// --steps 1000000 --every 1000000 --quiet` for each map, alternating; the final R and ξ of the
// two processes are compared first (one untimed run each).
//
// Commands of one comparison alternate (A B A B …), so a change of the machine's load weighs on
// both alike; each row reports the median and the min–max of its runs, and each ratio is the
// median of the per-pair ratios. CPU time, not wall time, is the figure of merit on this shared
// machine (other processes' load lengthens wall time, barely CPU time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const QUICK = process.argv.includes('--quick');
const JSON_OUT = process.argv.includes('--json');
const runsFlag = process.argv.find((a) => a.startsWith('--runs='));
/** Runs per command (`--runs=N` overrides; 1 is a smoke test of the script). */
const RUNS = runsFlag ? Number(runsFlag.slice(7)) : QUICK ? 10 : 20;
/** Runs of the 10⁶-step rows (each takes a second or more). */
const BIG_RUNS = Math.min(RUNS, Math.max(5, RUNS >> 1));
const bin = fileURLToPath(new URL('../bin/geomech.js', import.meta.url));
const vsFlag = process.argv.find((a) => a.startsWith('--vs='));
/** The `geomech` launcher of the checkout compared against (`--vs=DIR`), or null. */
const vsBin = vsFlag ? join(vsFlag.slice(5), 'packages', 'cli', 'bin', 'geomech.js') : null;
const BARE_ONLY = process.argv.includes('--bare-only');
const NO_C = process.argv.includes('--no-c');
/** `--whole-only`: only the whole-process comparison with C (the last table). */
const WHOLE_ONLY = process.argv.includes('--whole-only');
/** `--model-only`: only the model files against the built-ins. */
const MODEL_ONLY = process.argv.includes('--model-only');
/** `--sweep-only`: only the sweeps over a model file; `--solve-only`: only `solve --model`. */
const SWEEP_ONLY = process.argv.includes('--sweep-only');
const SOLVE_ONLY = process.argv.includes('--solve-only');
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const note = (s) => process.stderr.write(`${s}\n`);

// wait4 gives the child's own rusage (µs resolution); python only forks and waits, its own start
// is not counted
const WAIT4 = `
import os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
print(ru.ru_utime + ru.ru_stime, wall, os.waitstatus_to_exitcode(status))
`;

const dir = mkdtempSync(join(os.tmpdir(), 'geomech-startup-'));
const helper = join(dir, 'wait4.py');
writeFileSync(helper, WAIT4);
/** The model cache of the warm runs (and of every other command). */
const warmCache = join(dir, 'cache-warm');
/** The model cache of the cold runs, deleted before each. */
const coldCache = join(dir, 'cache-cold');

/** One run of the command line `cmd` (model cache in `cache`): CPU seconds, wall seconds. */
function once(cmd, cache = warmCache) {
  const r = spawnSync('python3', [helper, ...cmd], {
    encoding: 'utf8',
    env: { ...process.env, GEOMECH_CACHE_DIR: cache, GEOMECH_NO_CACHE: '' },
  });
  const [cpu, wall, code] = r.stdout.trim().split(/\s+/).map(Number);
  if (code !== 0) throw new Error(`${cmd.join(' ')}: exit ${code}\n${r.stderr}`);
  return { cpu, wall };
}
/** `geomech ARGS` as a command line. */
const geomech = (...args) => [process.execPath, bin, ...args];
/** The same from the checkout of `--vs`. */
const geomechVs = (...args) => [process.execPath, vsBin, ...args];

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

/**
 * Runs the commands of `cases` alternately, RUNS times each after one warm-up round; a case with
 * `cold` set runs with an empty model cache each time.
 */
function compare(cases, runs = RUNS) {
  const run = (c) => {
    if (c.cold) rmSync(coldCache, { recursive: true, force: true });
    return once(c.cmd, c.cold ? coldCache : warmCache);
  };
  for (const c of cases) run(c);
  const samples = cases.map(() => ({ cpu: [], wall: [] }));
  for (let k = 0; k < runs; k++)
    cases.forEach((c, i) => {
      const r = run(c);
      samples[i].cpu.push(r.cpu);
      samples[i].wall.push(r.wall);
    });
  return cases.map((c, i) => ({
    ...c,
    cpu: stats(samples[i].cpu),
    wall: stats(samples[i].wall),
    cpuSamples: samples[i].cpu,
    wallSamples: samples[i].wall,
  }));
}

/** Median over the runs of the per-pair ratio of CPU times a/b. */
const pairedRatio = (a, b) => median(a.cpuSamples.map((x, k) => x / b.cpuSamples[k]));

const load0 = os.loadavg();
note('start-up: node alone, --version, 10-step built-in runs');
/** The start-up commands: one built-in per library, an OCP solve and a model file, 10 steps. */
const BARE = [
  ['`geomech --version`', ['--version']],
  ['`geomech list`', ['list']],
  ['`geomech simulate pendulum --steps 10` (dirac)', ['simulate', 'pendulum', '--steps', '10']],
  [
    '`geomech simulate rolling-disk --steps 10` (dirac)',
    ['simulate', 'rolling-disk', '--steps', '10'],
  ],
  [
    '`geomech simulate damped-oscillator --steps 10` (contact)',
    ['simulate', 'damped-oscillator', '--steps', '10'],
  ],
  [
    '`geomech simulate rigid-body --steps 10` (groupoid)',
    ['simulate', 'rigid-body', '--steps', '10'],
  ],
  ['`geomech solve so3-steering --n 10` (core OCP)', ['solve', 'so3-steering', '--n', '10']],
  [
    '`geomech simulate --model examples/pendulum.json --steps 10` (warm cache)',
    ['simulate', '--model', join(examples, 'pendulum.json'), '--steps', '10'],
  ],
];
const bare = (WHOLE_ONLY || MODEL_ONLY || SWEEP_ONLY || SOLVE_ONLY ? () => [] : compare)([
  { name: '`node -e 0` (the floor: Node.js itself)', cmd: [process.execPath, '-e', '0'] },
  ...BARE.flatMap(([name, args]) => [
    { name, cmd: geomech(...args) },
    ...(vsBin === null ? [] : [{ name: `${name}, --vs`, cmd: geomechVs(...args), vs: true }]),
  ]),
]);
/** Rows of the first table: this checkout's run and, with --vs, the other's and the ratio. */
const bareRows = bare
  .filter((r) => !r.vs)
  .map((r) => {
    const other = bare.find((o) => o.vs && o.name === `${r.name}, --vs`);
    return other === undefined ? { r } : { r, other, ratio: pairedRatio(r, other) };
  });

note('start-up: model files against the built-ins');
const model = join(examples, 'pendulum.json');
const oscillator = join(examples, 'damped-oscillator.json');
const pairs = [];
for (const steps of BARE_ONLY || WHOLE_ONLY || SWEEP_ONLY || SOLVE_ONLY ? [] : [10, 1_000_000]) {
  const every = String(Math.max(1, steps / 10));
  const common = ['--h', '0.01', '--steps', String(steps), '--every', every, '--quiet'];
  for (const [label, file, builtinName, method] of [
    ['pendulum', model, 'pendulum', 'dirac-1'],
    ['damped-oscillator', oscillator, 'damped-oscillator', 'midpoint'],
  ]) {
    const fileArgs = ['simulate', '--model', file, '--method', method, ...common];
    const [warm, cold, builtin] = compare(
      [
        {
          name: `${label} model file, ${method}, ${steps} steps, warm (cache hit)`,
          cmd: geomech(...fileArgs),
        },
        {
          name: `${label} model file, ${method}, ${steps} steps, cold (first run)`,
          cmd: geomech(...fileArgs),
          cold: true,
        },
        {
          name: `built-in ${builtinName}, ${method}, ${steps} steps`,
          cmd: geomech('simulate', builtinName, '--method', method, ...common),
        },
      ],
      steps > 1000 ? BIG_RUNS : RUNS,
    );
    pairs.push({
      steps,
      warm,
      cold,
      builtin,
      ratio: pairedRatio(warm, builtin),
      coldRatio: pairedRatio(cold, builtin),
    });
  }
}
note('start-up: solve --model against the built-in problem');
const unicycle = join(examples, 'unicycle-parking.json');
const solvePairs = [];
for (const n of BARE_ONLY || WHOLE_ONLY || SWEEP_ONLY ? [] : [10, 60]) {
  const fileArgs = ['solve', '--model', unicycle, '--n', String(n), '--quiet'];
  const [warm, cold, builtin] = compare([
    { name: `unicycle-parking model file, n = ${n}, warm (cache hit)`, cmd: geomech(...fileArgs) },
    {
      name: `unicycle-parking model file, n = ${n}, cold (first run)`,
      cmd: geomech(...fileArgs),
      cold: true,
    },
    {
      name: `built-in unicycle-parking, n = ${n}`,
      cmd: geomech('solve', 'unicycle-parking', '--n', String(n), '--quiet'),
    },
  ]);
  solvePairs.push({
    n,
    warm,
    cold,
    builtin,
    ratio: pairedRatio(warm, builtin),
    coldRatio: pairedRatio(cold, builtin),
  });
}

/**
 * One `geomech sweep` process (model cache `cache`, emptied first when `cold`): wall seconds from
 * spawn to the first row in the journal, CPU and wall seconds of the whole process (wait4).
 */
function sweepOnce(args, cache, cold) {
  if (cold) rmSync(cache, { recursive: true, force: true });
  const out = join(dir, 'sweep-table.json');
  const journal = `${out}.partial`;
  rmSync(out, { force: true });
  rmSync(journal, { force: true });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first;
    const child = spawn('python3', [helper, ...geomech('sweep', ...args, '--out', out)], {
      env: { ...process.env, GEOMECH_CACHE_DIR: cache, GEOMECH_NO_CACHE: '' },
    });
    let text = '';
    let err = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const poll = setInterval(() => {
      if (first !== undefined || !existsSync(journal)) return;
      let body = '';
      try {
        body = readFileSync(journal, 'utf8');
      } catch {}
      // a head line, then one line per finished row
      if (body.split('\n').length > 2) first = (performance.now() - t0) / 1000;
    }, 1);
    child.on('close', () => {
      clearInterval(poll);
      const [cpu, wall, code] = text.trim().split(/\s+/).map(Number);
      if (code !== 0) reject(new Error(`sweep ${args.join(' ')}: exit ${code}\n${err}`));
      // a sweep whose rows all came between two polls: its first row is its end
      else resolve({ first: first ?? wall, cpu, wall });
    });
  });
}

note('sweeps over a model file: time to first row');
const SWEEP_RUNS = Math.max(1, Math.min(RUNS, QUICK ? 5 : 10));
const sweepTables = [];
const specOf = (name, doc) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
};
for (const [label, fileDoc, builtinDoc] of BARE_ONLY || WHOLE_ONLY || SOLVE_ONLY
  ? []
  : [
      [
        'simulate pendulum, 4 points of 20 steps',
        { command: 'simulate', model: model, options: { steps: 20 } },
        { command: 'simulate', system: 'pendulum', options: { steps: 20 } },
      ],
      [
        'solve unicycle-parking, 4 points, n = 20',
        { command: 'solve', model: unicycle, options: { n: 20 } },
        { command: 'solve', problem: 'unicycle-parking', options: { n: 20 } },
      ],
    ]) {
  const simulate = fileDoc.command === 'simulate';
  const grid = simulate ? { h: [0.01, 0.02, 0.03, 0.04] } : { 'param.w': [1, 2, 3, 4] };
  const outputs = simulate ? ['final:q[0]'] : ['cost', 'converged'];
  const fileSpec = specOf('file.sweep.json', { ...fileDoc, grid, outputs });
  // the built-in unicycle-parking has no parameter w: sweep its n instead (the same four points' cost)
  const builtinSpec = specOf('builtin.sweep.json', {
    ...builtinDoc,
    grid: simulate ? grid : { n: [20, 21, 22, 23] },
    options: simulate ? builtinDoc.options : {},
    outputs,
  });
  const cases = [
    { name: 'warm (cache hit)', args: [fileSpec], cache: warmCache },
    { name: 'cold (first run)', args: [fileSpec], cache: coldCache, cold: true },
    { name: '--no-cache', args: [fileSpec, '--no-cache'], cache: warmCache },
    { name: 'built-in', args: [builtinSpec], cache: warmCache },
  ].map((c) => ({ ...c, args: [...c.args, '--workers', '2', '--quiet'] }));
  for (const c of cases) await sweepOnce(c.args, c.cache, c.cold);
  const samples = cases.map(() => ({ first: [], cpu: [], wall: [] }));
  for (let k = 0; k < SWEEP_RUNS; k++)
    for (const [i, c] of cases.entries()) {
      const r = await sweepOnce(c.args, c.cache, c.cold);
      samples[i].first.push(r.first);
      samples[i].cpu.push(r.cpu);
      samples[i].wall.push(r.wall);
    }
  sweepTables.push({
    label,
    rows: cases.map((c, i) => ({
      name: c.name,
      first: stats(samples[i].first),
      cpu: stats(samples[i].cpu),
      wall: stats(samples[i].wall),
      firstSamples: samples[i].first,
    })),
  });
}

// whole processes against C: the rigid body, 10⁶ steps
const WHOLE_STEPS = 1_000_000;
const whole = [];
/** Why the C comparison did not run, or null. */
let wholeSkipped = BARE_ONLY
  ? 'not run (--bare-only)'
  : MODEL_ONLY || SWEEP_ONLY || SOLVE_ONLY
    ? `not run (${MODEL_ONLY ? '--model-only' : SWEEP_ONLY ? '--sweep-only' : '--solve-only'})`
    : NO_C
      ? 'not run (--no-c)'
      : null;
const cBin = join(dir, 'rigidbody_run');
if (wholeSkipped === null) {
  const src = fileURLToPath(new URL('../../../bench/c/rigidbody_run.c', import.meta.url));
  const cc = spawnSync('cc', ['-O2', '-ffp-contract=off', '-o', cBin, src, '-lm'], {
    encoding: 'utf8',
  });
  if (cc.error !== undefined || cc.status !== 0)
    wholeSkipped = `not run: cc failed (${cc.error?.message ?? cc.stderr.trim().split('\n')[0]})`;
}
for (const map of wholeSkipped === null ? ['cayley', 'exp'] : []) {
  note(`whole process: rigid-body ${map}, ${WHOLE_STEPS} steps, against C`);
  const args = ['--method', map, '--steps', String(WHOLE_STEPS), '--every', String(WHOLE_STEPS)];
  // agreement first: the last kept state of each process
  const ts = spawnSync(process.execPath, [bin, 'simulate', 'rigid-body', ...args, '--quiet'], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const c = spawnSync(cBin, [map, String(WHOLE_STEPS), String(WHOLE_STEPS)], { encoding: 'utf8' });
  if (ts.status !== 0 || c.status !== 0)
    throw new Error(`rigid-body ${map}: exit ${ts.status} / ${c.status}\n${ts.stderr}${c.stderr}`);
  const doc = JSON.parse(ts.stdout);
  const ref = JSON.parse(c.stdout);
  const tsLast = [...doc.series.R.at(-1), ...doc.series.xi.at(-1)];
  const cLast = [...ref.R, ...ref.xi];
  const delta = Math.max(...tsLast.map((x, k) => Math.abs(x - cLast[k])));
  const sameIterations = doc.stats.newtonIterations === ref.iterations;
  const [geo, cRun] = compare(
    [
      {
        name: `\`geomech simulate rigid-body --method ${map} --steps 1000000 --every 1000000 --quiet\``,
        cmd: geomech('simulate', 'rigid-body', ...args, '--quiet'),
      },
      {
        name: `\`rigidbody_run ${map} 1000000 1000000\``,
        cmd: [cBin, map, String(WHOLE_STEPS), String(WHOLE_STEPS)],
      },
    ],
    BIG_RUNS,
  );
  const wallRatios = geo.wallSamples.map((x, k) => x / cRun.wallSamples[k]);
  const cpuRatios = geo.cpuSamples.map((x, k) => x / cRun.cpuSamples[k]);
  whole.push({
    map,
    geo,
    c: cRun,
    cpuRatio: stats(cpuRatios),
    wallRatio: stats(wallRatios),
    delta,
    sameIterations,
    iterations: ref.iterations,
    tsIterations: doc.stats.newtonIterations,
  });
}
const load1 = os.loadavg();
rmSync(dir, { recursive: true, force: true });

const ms = (s) => (s * 1000).toFixed(1);
const cell = (s) => `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
const markdown = [
  '## 8. Whole processes: start-up and runs of `geomech` (issue 20)',
  '',
  `Measured by \`node packages/cli/bench/startup.mjs\`${QUICK ? ' --quick' : ''}: whole processes from exec to exit, CPU = user + system of the child (wait4), median (min–max) of ${RUNS} runs (${BIG_RUNS} for the 10⁶-step rows) after a warm-up run, the commands of one table alternating. Load average ${load0.map((x) => x.toFixed(2)).join(' / ')} at the start, ${load1.map((x) => x.toFixed(2)).join(' / ')} at the end; Node ${process.version}.`,
  '',
  ...(bareRows.length === 0
    ? [
        `The start-up table was not run (${MODEL_ONLY ? '--model-only' : SWEEP_ONLY ? '--sweep-only' : SOLVE_ONLY ? '--solve-only' : '--whole-only'}).`,
      ]
    : vsBin === null
      ? [
          '| command | CPU ms | CPU ms above `node -e 0` (medians) | wall ms |',
          '|---|---:|---:|---:|',
          ...bareRows.map(
            ({ r }) =>
              `| ${r.name} | ${cell(r.cpu)} | ${r === bareRows[0].r ? '' : ms(r.cpu.median - bareRows[0].r.cpu.median)} | ${cell(r.wall)} |`,
          ),
          '',
          'Issue 20 asks for `--version` and a 10-step built-in run under 0.1 s of CPU "where the platform allows": the third column is what `geomech` adds to Node.js\'s own start-up.',
        ]
      : [
          `| command | CPU ms, this checkout | CPU ms, ${vsFlag.slice(5)} | CPU ratio (paired median) |`,
          '|---|---:|---:|---:|',
          ...bareRows.map(({ r, other, ratio }) =>
            other === undefined
              ? `| ${r.name} | ${cell(r.cpu)} | | |`
              : `| ${r.name} | ${cell(r.cpu)} | ${cell(other.cpu)} | ${ratio.toFixed(2)} |`,
          ),
        ]),
  '',
  'Model files against the equivalent built-in (h = 0.01, `--every` steps/10, `--quiet`): warm is a run whose model cache holds the file (its parse trees: mathjs is not loaded), the target row; cold is a first run (the cache entry deleted before each run: mathjs parses, the entry is written).',
  '',
  '| model file against the equivalent built-in | CPU ms | wall ms | CPU ratio file / built-in (paired median) | target |',
  '|---|---:|---:|---:|---:|',
  ...pairs.flatMap((p) => {
    const target = p.steps <= 10 ? 1.5 : 1.2;
    return [
      `| ${p.warm.name} | ${cell(p.warm.cpu)} | ${cell(p.warm.wall)} | **${p.ratio.toFixed(2)}×** | ≤ ${target}× ${p.ratio <= target ? '✓' : '✗'} |`,
      `| ${p.cold.name} | ${cell(p.cold.cpu)} | ${cell(p.cold.wall)} | ${p.coldRatio.toFixed(2)}× | |`,
      `| ${p.builtin.name} | ${cell(p.builtin.cpu)} | ${cell(p.builtin.wall)} | | |`,
    ];
  }),
  '',
  '`solve --model` against the built-in problem (examples/unicycle-parking.json is the built-in unicycle-parking as a model file), warm and cold as above:',
  '',
  '| model file against the built-in problem | CPU ms | wall ms | CPU ratio file / built-in (paired median) |',
  '|---|---:|---:|---:|',
  ...solvePairs.flatMap((p) => [
    `| ${p.warm.name} | ${cell(p.warm.cpu)} | ${cell(p.warm.wall)} | **${p.ratio.toFixed(2)}×** |`,
    `| ${p.cold.name} | ${cell(p.cold.cpu)} | ${cell(p.cold.wall)} | ${p.coldRatio.toFixed(2)}× |`,
    `| ${p.builtin.name} | ${cell(p.builtin.cpu)} | ${cell(p.builtin.wall)} | |`,
  ]),
  '',
  `Sweeps over a model file (\`geomech sweep SPEC --workers 2 --quiet --out T\`, 4 points): time from exec to the first row in the journal T.partial (polled every ms), and the whole process (all threads), median (min–max) of ${SWEEP_RUNS} runs, the four cases alternating. Warm: the entry in the cache (no thread loads mathjs); cold: simulate's main thread (its check of the file) parses and writes the entry before the workers start, every worker reads it; solve's workers each parse and write it; \`--no-cache\`: every worker parses (simulate: the main thread's check as well). First-row times include the start of the python wait4 wrapper. The built-in's sweep (solve: its n over 20–23, the built-in has no w) is the floor.`,
  '',
  ...sweepTables.flatMap((t) => [
    `| ${t.label} | first row, wall ms | first row / warm (paired median) | CPU ms | wall ms |`,
    '|---|---:|---:|---:|---:|',
    ...t.rows.map(
      (r) =>
        `| ${r.name} | ${cell(r.first)} | ${median(r.firstSamples.map((x, k) => x / t.rows[0].firstSamples[k])).toFixed(2)} | ${cell(r.cpu)} | ${cell(r.wall)} |`,
    ),
    '',
  ]),
  '### The whole `geomech simulate rigid-body` process against C, 10⁶ steps',
  '',
  ...(wholeSkipped !== null
    ? [`The comparison with bench/c/rigidbody_run.c was ${wholeSkipped}.`, '']
    : [
        `bench/c/rigidbody_run.c (\`cc -O2 -ffp-contract=off\`): the step of bench/c/rigidbody_step.c (the same step as the CLI's RigidBodyStepper: analytic 3×3 Newton Jacobian, same stopping rule, same operation order) from the CLI's defaults (I = diag(1, 2, 3), h = 0.1, ξ₁ = (0.8, −0.5, 0.3), G₀ = I), keeping every 10⁶-th state and the last, then printing the last. Both processes from exec to exit (wait4), alternating, ${BIG_RUNS} runs each after a warm-up run; the ratios are the medians (min–max) of the per-pair ratios.`,
        '',
        '| run | CPU ms | wall ms | CPU ratio geomech / C | wall ratio geomech / C | target |',
        '|---|---:|---:|---:|---:|---:|',
        ...whole.flatMap((w) => [
          `| ${w.geo.name} | ${cell(w.geo.cpu)} | ${cell(w.geo.wall)} | **${w.cpuRatio.median.toFixed(2)}×** (${w.cpuRatio.min.toFixed(2)}–${w.cpuRatio.max.toFixed(2)}) | ${w.wallRatio.median.toFixed(2)}× (${w.wallRatio.min.toFixed(2)}–${w.wallRatio.max.toFixed(2)}) | ≤ 3× ${w.cpuRatio.median <= 3 ? '✓' : '✗'} |`,
          `| ${w.c.name} | ${cell(w.c.cpu)} | ${cell(w.c.wall)} | | | |`,
        ]),
        '',
        `Agreement of the two processes (their last R and ξ, one untimed run each): ${whole.map((w) => `${w.map} max |Δ| = ${w.delta.toExponential(1)}, Newton iterations ${w.sameIterations ? `equal (${w.iterations})` : `${w.tsIterations} (geomech) and ${w.iterations} (C)`}`).join('; ')}. Cayley needs only correctly rounded operations (+ − × ÷ √), in the same order on both sides (bit-identical); exp calls sin, cos and tan, where glibc's last bit and V8's differ, and the difference grows over 10⁶ steps.`,
        '',
      ]),
];
const strip = (r) => ({ name: r.name, cmd: r.cmd.slice(1), cpu: r.cpu, wall: r.wall });
const result = {
  runs: RUNS,
  load: [load0, load1],
  bare: bare.map(strip),
  vs: vsFlag ? vsFlag.slice(5) : null,
  pairs: pairs.map((p) => ({
    steps: p.steps,
    ratio: p.ratio,
    coldRatio: p.coldRatio,
    file: strip(p.warm),
    cold: strip(p.cold),
    builtin: strip(p.builtin),
  })),
  solve: solvePairs.map((p) => ({
    n: p.n,
    ratio: p.ratio,
    coldRatio: p.coldRatio,
    file: strip(p.warm),
    cold: strip(p.cold),
    builtin: strip(p.builtin),
  })),
  sweeps: sweepTables.map((t) => ({
    label: t.label,
    rows: t.rows.map((r) => ({ name: r.name, first: r.first, cpu: r.cpu, wall: r.wall })),
  })),
  whole:
    wholeSkipped ??
    whole.map((w) => ({
      map: w.map,
      geomech: strip(w.geo),
      c: { name: w.c.name, cpu: w.c.cpu, wall: w.c.wall },
      cpuRatio: w.cpuRatio,
      wallRatio: w.wallRatio,
      maxAbsDelta: w.delta,
      sameIterations: w.sameIterations,
    })),
  markdown,
};
if (JSON_OUT) process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`);
else process.stdout.write(`${markdown.join('\n')}\n`);
