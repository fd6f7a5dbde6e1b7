// `geomech sweep` on worker threads (issue 22): the speed-up from 1 to 2 workers on a 200-point
// sweep, and the per-point overhead of the sweep machinery beyond the run itself. Run after a
// build: `node packages/cli/bench/sweep.mjs` (a table) or `--json` (the `@@RESULT` line and the
// markdown section that bench/run.mjs copies into bench/RESULTS.md); `--quick` shortens it.
//
// Speed-up: the same 200 points (pendulum, RATTLE, h = 0.01, 1500 steps each, initial angle
// swept over [0.1, 1.5]) run through the sweep's worker pool with 1 and with 2 workers, alternating,
// ROUNDS rounds; each side keeps its fastest round (a load spike from the other users of this
// shared machine must not decide the ratio). The process's CPU time (all threads, getrusage) is
// reported next to the wall time, with the load average, so the reader sees whether two cores were
// actually free: CPU ms / wall ms is the parallelism the run obtained.
//
// Overhead: 2000 points of a 1-step pendulum run (the smallest run there is) through the pool with
// one worker, against the same 2000 command lines run by `main()` in a loop on the main thread
// (warm); the difference per point is what the sweep adds (messages between threads, the output
// summary, the row). The per-point cost of `main()` itself (argument parsing, resolving, the run,
// serializing its JSON) is listed too.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

const dist = new URL('../dist/', import.meta.url);
const { runPool } = await import(new URL('sweep/pool.js', dist).href);
const { parseSweepSpec, pointArgv } = await import(new URL('sweep/spec.js', dist).href);
const { main } = await import(new URL('main.js', dist).href);
const { runPoint } = await import(new URL('sweep/point.js', dist).href);

const QUICK = process.argv.includes('--quick');
const JSON_OUT = process.argv.includes('--json');
/**
 * `--vs=DIR`: also run the speed-up sweep through the pool of the built checkout DIR (e.g. main
 * before a change), alternating with this one, and report both sides' CPU (paired, round by round).
 */
const VS = process.argv.find((a) => a.startsWith('--vs='))?.slice(5);
const vsPool =
  VS === undefined
    ? undefined
    : (
        await import(
          new URL(`file://${VS.replace(/\/$/, '')}/packages/cli/dist/sweep/pool.js`).href
        )
      ).runPool;
const ROUNDS = QUICK ? 1 : 3;
const note = (s) => process.stderr.write(`${s}\n`);

const specOf = (doc) => {
  const text = JSON.stringify(doc);
  return { text, spec: parseSweepSpec(text, 'bench.sweep.json') };
};
const initOf = (text) => ({
  specText: text,
  specFile: 'bench.sweep.json',
  modelPath: undefined,
  guessPath: undefined,
  files: [],
});

/**
 * CPU ms (user + system) of each thread of this process by thread id, from /proc/self/task (Linux;
 * an empty map elsewhere). Clock ticks of 10 ms: read it over runs of seconds only.
 */
function threadCpu() {
  const out = new Map();
  if (!existsSync('/proc/self/task')) return out;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the comm
      out.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}
const TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

/**
 * Runs the points through the pool; wall ms, CPU ms of the process (all threads), the rows, and
 * the CPU by thread: the main thread, the workers (threads that appear during the run, read when
 * the last row arrives, before the pool ends them) and V8's background threads (compiler jobs
 * and GC of every isolate; the threads present before the run, the main thread excepted).
 */
async function timed(text, points, workers, pool = runPool) {
  const indices = Array.from({ length: points }, (_, i) => i);
  const rows = [];
  const arrivals = [];
  const before = threadCpu();
  let last = before;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await pool(initOf(text), indices, workers, (row) => {
    arrivals.push([performance.now(), row]);
    rows.push(row);
    if (rows.length === points) last = threadCpu();
  });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const after = threadCpu();
  rows.sort((a, b) => a[0] - b[0]);
  const threads = { main: 0, workers: 0, background: 0 };
  const main = String(process.pid);
  for (const [tid, ms] of last) {
    if (before.has(tid)) continue;
    threads.workers += ms;
  }
  for (const [tid, ms] of after) {
    if (!before.has(tid)) continue;
    const d = ms - before.get(tid);
    if (tid === main) threads.main += d;
    else threads.background += d;
  }
  return { wall, cpu: (cpu.user + cpu.system) / 1000, rows, arrivals, t0, threads };
}

// -------------------------------------------------------------------------------------------
// speed-up, 1 → 2 workers

const POINTS = 200;
const STEPS = QUICK ? 1500 : 5000;
const speed = specOf({
  command: 'simulate',
  system: 'pendulum',
  options: { method: 'rattle', h: 0.01, steps: STEPS },
  grid: { 'init.theta0': { from: 0.1, to: 1.5, count: POINTS } },
  outputs: ['final:q[0]', 'drift:energy', 'maxabs:constraint'],
});
// Calibration: the same CPU-bound loop in one process, then in two processes at once. Their
// wall-time ratio is the speed-up this machine gave two independent processes at the time, the
// ceiling for two workers whatever the pool does.
const LOOP = `let s = 0; for (let i = 0; i < ${QUICK ? 2e8 : 6e8}; i++) s += i % 7; if (s < 0) console.log(s); const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));`;
/** One calibration process: resolves with its own CPU ms (user + system, as it reports at exit). */
const proc = () =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOOP], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(Number(out)) : reject(new Error(`calibration exit ${code}`)),
    );
  });
async function calibrate() {
  let t = performance.now();
  const cpuAlone = await proc();
  const alone = performance.now() - t;
  t = performance.now();
  const [c1, c2] = await Promise.all([proc(), proc()]);
  const pair = performance.now() - t;
  // cpuInflation: the CPU two identical processes take at once against twice one alone; above 1
  // when the two cores slow each other down (shared caches, SMT siblings, frequency), which the
  // CPU ratio of 2 workers against 1 pays too
  return { alone, pair, speedup: (2 * alone) / pair, cpuInflation: (c1 + c2) / (2 * cpuAlone) };
}
const calibration = [];

const best = { 1: null, 2: null };
const versus = [];
const load = [];
let same = true;
let reference = null;
for (let round = 1; round <= ROUNDS; round++) {
  const c = await calibrate();
  calibration.push(c);
  note(
    `calibration round ${round}: one process ${c.alone.toFixed(0)} ms, two at once ${c.pair.toFixed(0)} ms: ${c.speedup.toFixed(2)}×; CPU of the two / 2 × one: ${c.cpuInflation.toFixed(3)}`,
  );
  for (const workers of [1, 2]) {
    load.push(os.loadavg()[0]);
    const r = await timed(speed.text, POINTS, workers);
    note(
      `speed-up round ${round}, ${workers} worker(s): ${r.wall.toFixed(0)} ms wall, ${r.cpu.toFixed(0)} ms CPU (main ${r.threads.main.toFixed(0)}, workers ${r.threads.workers.toFixed(0)}, V8 background ${r.threads.background.toFixed(0)})`,
    );
    const key = JSON.stringify(r.rows);
    reference ??= key;
    same &&= key === reference;
    if (best[workers] === null || r.wall < best[workers].wall)
      best[workers] = { wall: r.wall, cpu: r.cpu, threads: r.threads };
    if (vsPool !== undefined) {
      const v = await timed(speed.text, POINTS, workers, vsPool);
      note(
        `speed-up round ${round}, ${workers} worker(s), ${VS}: ${v.wall.toFixed(0)} ms wall, ${v.cpu.toFixed(0)} ms CPU (main ${v.threads.main.toFixed(0)}, workers ${v.threads.workers.toFixed(0)}, V8 background ${v.threads.background.toFixed(0)})`,
      );
      same &&= JSON.stringify(v.rows) === reference;
      versus.push({ round, workers, cpu: r.cpu, vsCpu: v.cpu, wall: r.wall, vsWall: v.wall });
    }
  }
}
/** Paired rounds against `--vs`: this checkout's CPU and DIR's, same round, same worker count. */
const versusRows = versus.map(
  (x) =>
    `| ${x.round} | ${x.workers} | ${x.vsCpu.toFixed(0)} | ${x.cpu.toFixed(0)} | ${(x.cpu / x.vsCpu).toFixed(3)} |`,
);
const speedup = best[1].wall / best[2].wall;

/**
 * A warm point's CPU (ms): the speed-up sweep's points through runPoint on the main thread, the
 * first STEADY_WARM of them to warm its JIT, then the main thread's CPU time (/proc/self/task, robust to
 * the machine's other users, unlike a wall-time gap) over the rest, per point.
 */
const STEADY_WARM = 80;
async function steadyPointCpu() {
  const WARM = STEADY_WARM;
  for (let i = 0; i < WARM; i++) await runPoint(speed.spec, i, new Map(), undefined, undefined);
  const main = String(process.pid);
  const t0 = threadCpu().get(main);
  for (let i = WARM; i < POINTS; i++)
    await runPoint(speed.spec, i, new Map(), undefined, undefined);
  const t1 = threadCpu().get(main);
  return t0 === undefined || t1 === undefined ? Number.NaN : (t1 - t0) / (POINTS - WARM);
}
const steady = await steadyPointCpu();
note(`a warm point of the speed-up sweep: ${steady.toFixed(2)} ms CPU`);

// -------------------------------------------------------------------------------------------
// per-point overhead

const TINY = QUICK ? 500 : 2000;
const tiny = specOf({
  command: 'simulate',
  system: 'pendulum',
  options: { method: 'rattle', h: 0.01, steps: 1 },
  grid: { 'init.theta0': { from: 0.1, to: 1.5, count: TINY } },
  outputs: ['final:q[0]', 'drift:energy', 'wallMs'],
});
// checkOutput accepts the virtual --out (main checks output paths before a run); takeDocument
// takes the document as values, as a sweep point does (no JSON text)
const silent = {
  stdout() {},
  stderr() {},
  stderrIsTTY: false,
  writeFile() {},
  checkOutput() {},
  takeDocument: () => true,
};
async function mainLoop() {
  const t0 = performance.now();
  for (let i = 0; i < TINY; i++) {
    const code = await main(
      [
        ...pointArgv(tiny.spec, i, undefined, undefined),
        `--out=${os.tmpdir()}/geomech-sweep-bench-out.json`,
      ],
      silent,
    );
    if (code !== 0) throw new Error(`point ${i}: exit ${code}`);
  }
  return performance.now() - t0;
}
/** The same points through runPoint (command line, captured output, summary, row), in-thread. */
async function pointLoop() {
  const t0 = performance.now();
  for (let i = 0; i < TINY; i++) await runPoint(tiny.spec, i, new Map(), undefined, undefined);
  return performance.now() - t0;
}
let inMain = Infinity;
let inPoint = Infinity;
for (let round = 0; round <= ROUNDS; round++) {
  // round 0 warms both
  const m = await mainLoop();
  const q = await pointLoop();
  if (round > 0) {
    inMain = Math.min(inMain, m);
    inPoint = Math.min(inPoint, q);
  }
}
await mainLoop(); // warm the main thread's JIT as the worker warms its own
let mainBest = Infinity;
const medianOf = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const perPools = [];
const perRuns = [];
const startups = [];
for (let round = 1; round <= ROUNDS; round++) {
  mainBest = Math.min(mainBest, await mainLoop());
  // One worker runs the points one after the other. Over the second half (steady state: the
  // worker is started and its code optimized), the gap between two rows arriving on the main
  // thread is a point's whole cost in the sweep; the point's own wallMs (main() timed inside the
  // worker) is the run. Same run, same seconds, so the machine's load weighs on both alike.
  const r = await timed(tiny.text, TINY, 1);
  const a = r.arrivals;
  const k0 = a.length >> 1;
  const span = a.length - 1 - k0;
  const perPool = (a[a.length - 1][0] - a[k0][0]) / span;
  let run = 0;
  for (let k = k0 + 1; k < a.length; k++) run += a[k][1][a[k][1].length - 2];
  perPools.push(perPool);
  perRuns.push(run / span);
  startups.push(a[0][0] - r.t0); // the first row's arrival, from the pool's start
  note(
    `overhead round ${round}: main() ${(mainBest / TINY).toFixed(3)} ms/point; pool ${perPool.toFixed(3)} ms/point, of which the run ${(run / span).toFixed(3)}`,
  );
}
const perMain = mainBest / TINY;
const perPool = medianOf(perPools);
const perRun = medianOf(perRuns);
const overheadRounds = perPools.map((p, k) => p - perRuns[k]);
const overhead = medianOf(overheadRounds);
const inThread = (inPoint - inMain) / TINY;
const firstRow = medianOf(startups);

// -------------------------------------------------------------------------------------------
// deoptimizations in the workers (issue 22)

/**
 * V8's deoptimizations during a 30-point sweep of the speed-up sweep's system with 2 workers (the
 * pool's JIT mode with workers on every core), by function and reason: `geomech sweep` run in a
 * child process with `--trace-deopt` (a V8 flag is process-wide: the workers' isolates trace too),
 * and with `--vs`, the same through DIR's build. Counts, not times: the machine's load does not
 * change them (V8's tier-up decisions depend on its timing only through the concurrent compiler,
 * off with 2 workers on 2 cores).
 */
const DEOPT_POINTS = 30;
async function deopts(root) {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const dir = mkdtempSync(`${os.tmpdir()}/geomech-sweep-deopt-`);
  const specPath = `${dir}/spec.json`;
  writeFileSync(
    specPath,
    JSON.stringify({
      command: 'simulate',
      system: 'pendulum',
      options: { method: 'rattle', h: 0.01, steps: STEPS },
      grid: { 'init.theta0': { from: 0.1, to: 1.5, count: DEOPT_POINTS } },
      outputs: ['final:q[0]', 'drift:energy', 'maxabs:constraint'],
    }),
  );
  const bin =
    root === undefined
      ? new URL('../bin/geomech.js', import.meta.url).pathname
      : `${root.replace(/\/$/, '')}/packages/cli/bin/geomech.js`;
  const text = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--trace-deopt', bin, 'sweep', specPath, '--workers', '2', '--out', `${dir}/out.csv`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`deopt run: exit ${code}`)),
    );
  });
  rmSync(dir, { recursive: true, force: true });
  const counts = new Map();
  for (const m of text.matchAll(
    /\[bailout \(kind: [\w-]+, reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction ([^ >(]*) ?\(sfi/g,
  )) {
    const key = `${m[2] || '(anonymous)'}: ${m[1]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
const deoptsHere = await deopts(undefined);
const deoptsVs = VS === undefined ? undefined : await deopts(VS);
const deoptTotal = (c) => [...c.values()].reduce((a, b) => a + b, 0);
note(
  `deopts (2 workers, ${DEOPT_POINTS} points): ${deoptTotal(deoptsHere)}${deoptsVs === undefined ? '' : `, ${VS}: ${deoptTotal(deoptsVs)}`}`,
);

const result = {
  machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown', load },
  speedup: {
    points: POINTS,
    steps: STEPS,
    rounds: ROUNDS,
    wall1: best[1].wall,
    wall2: best[2].wall,
    cpu1: best[1].cpu,
    cpu2: best[2].cpu,
    threads1: best[1].threads,
    threads2: best[2].threads,
    steadyPointCpuMs: steady,
    speedup,
    target: 1.8,
    identical: same,
    versus: VS === undefined ? null : { dir: VS, rounds: versus },
    calibration,
  },
  overhead: {
    points: TINY,
    perMainMs: perMain,
    perRunMs: perRun,
    perPoolMs: perPool,
    overheadMs: overhead,
    inThreadMs: inThread,
    firstRowMs: firstRow,
    rounds: { perPool: perPools, perRun: perRuns },
    target: 1,
  },
  deopts: {
    points: DEOPT_POINTS,
    here: Object.fromEntries(deoptsHere),
    vs: deoptsVs === undefined ? null : Object.fromEntries(deoptsVs),
  },
};

const f = (x, d = 0) => x.toFixed(d);
const markdown = [
  '## 6. Parameter sweeps on worker threads (`geomech sweep`, issue 22)',
  '',
  `Measured by \`node packages/cli/bench/sweep.mjs\`${QUICK ? ' --quick' : ''}: the sweep's worker pool in one Node process, each side's fastest of ${ROUNDS} alternating round(s). CPU time is the process's (all threads); CPU/wall is the parallelism the run obtained on this shared machine (load average ${load.map((x) => x.toFixed(2)).join(', ')} before the rounds).`,
  '',
  `| ${POINTS}-point sweep (pendulum, RATTLE, h = 0.01, ${STEPS} steps per point) | wall ms | CPU ms | CPU / wall |`,
  '|---|---:|---:|---:|',
  `| 1 worker | ${f(best[1].wall)} | ${f(best[1].cpu)} | ${f(best[1].cpu / best[1].wall, 2)} |`,
  `| 2 workers | ${f(best[2].wall)} | ${f(best[2].cpu)} | ${f(best[2].cpu / best[2].wall, 2)} |`,
  `| **speed-up 1 → 2 workers** | **${f(speedup, 2)}×** (target ≥ 1.8×) | | |`,
  '',
  ...(best[1].threads.workers > 0
    ? [
        '| CPU ms by thread (/proc/self/task, 10 ms ticks), the rounds above | main thread | worker threads | V8 background threads (compiler jobs, GC) |',
        '|---|---:|---:|---:|',
        ...[1, 2].map(
          (w) =>
            `| ${w} worker${w > 1 ? 's' : ''} | ${f(best[w].threads.main)} | ${f(best[w].threads.workers)} | ${f(best[w].threads.background)} |`,
        ),
        '',
      ]
    : []),
  `Two independent processes running the same CPU-bound loop got ${calibration.map((c) => `${f(c.speedup, 2)}×`).join(', ')} (round by round) over one process alone at the time of these rounds: the ceiling this shared machine offered two workers. Their CPU time against twice one process's: ${calibration.map((c) => f(c.cpuInflation, 3)).join(', ')} (above 1 when two busy cores slow each other down; the 2-worker run pays this too).`,
  '',
  `Work of the 2-worker run against the 1-worker run (CPU ms): ${f(best[2].cpu / best[1].cpu, 3)}, ${f(best[2].cpu - best[1].cpu, 0)} ms more: each worker loads the bundled program (dist/worker.js and the chunks of the sweep's system) and JIT-compiles it on its own (V8 shares no compiled code between isolates; the first points of a worker run mostly unoptimized, ${f(firstRow, 0)} ms to the first row of the 1-step sweep below), and the two cores slow each other down as in the calibration. With as many workers as cores (${result.machine.cores} here) the pool starts them with V8's optimizing compiler synchronous (no background compiler jobs competing with the workers; the V8 background column above), with fewer workers V8's default (concurrent jobs on an idle core).`,
  '',
  `The ceiling this work leaves: the 1-worker run's wall time is about its worker thread's CPU (its background compiler jobs run on the idle core), while 2 workers must fit all of their CPU onto the two cores, so the speed-up is at most 2 × ${f(best[1].threads.workers, 0)} / ${f(best[2].cpu, 0)} = ${f((2 * best[1].threads.workers) / best[2].cpu, 2)}× with two free cores; the measured wall-time ratio is lower when the other users of the machine took CPU (CPU/wall < 2). A warm point costs ${f(steady, 2)} ms of CPU (the same points run on the main thread after ${STEADY_WARM} to warm it up), ${f(POINTS * steady, 0)} ms for the ${POINTS} points; the rest is the fixed cost of a worker (start-up, loading, JIT warm-up): ${f(best[1].threads.workers - POINTS * steady, 0)} ms on the thread of the one worker, ${f((best[2].cpu - POINTS * steady) / 2, 0)} ms per worker (all threads) with two; 1.8× needs the latter at most ${f(best[1].threads.workers / 1.8 - (POINTS * steady) / 2, 0)} ms. A point reads its summary from the run's numbers (no JSON text written and parsed back), so the work per point is about the run alone and this fixed cost per worker weighs more than when a point cost twice its run.`,
  '',
  `Tables from 1 and 2 workers identical in every round${VS === undefined ? '' : ` (and to ${VS}'s)`}: ${same ? 'yes' : '**no**'}.`,
  '',
  ...(VS === undefined
    ? []
    : [
        `| round | workers | CPU ms, ${VS} | CPU ms, this checkout | this / ${VS} |`,
        '|---:|---:|---:|---:|---:|',
        ...versusRows,
        '',
      ]),
  `| per point, ${TINY} points of a 1-step pendulum run (the smallest run there is), 1 worker; steady state = the second half of the points; median of ${ROUNDS} round(s) | ms |`,
  '|---|---:|',
  `| \`main()\` on the main thread, warm, for reference (parse, resolve, run; the document taken as values, as a point does) | ${f(perMain, 3)} |`,
  `| the run itself: \`main()\` timed inside the worker (the wallMs column) | ${f(perRun, 3)} |`,
  `| a point in the sweep: gap between two rows arriving on the main thread | ${f(perPool, 3)} |`,
  `| **overhead of the sweep per point beyond the run** (messages, output summary, row), rounds: ${overheadRounds.map((x) => f(x, 3)).join(', ')} | **${f(overhead, 3)}** (target < 1) |`,
  `| of which in the worker's thread: runPoint() − main(), same points, one thread, fastest of ${ROUNDS} | ${f(inThread, 3)} |`,
  `| once per sweep: the first row's arrival after the pool starts (worker start-up, module loading, a cold first point) | ${f(firstRow, 0)} |`,
  '',
];
{
  const keys = [...new Set([...deoptsHere.keys(), ...(deoptsVs?.keys() ?? [])])].sort();
  markdown.push(
    `| V8 deoptimizations in the workers, ${DEOPT_POINTS}-point sweep, 2 workers (\`--trace-deopt\`): function: reason |${VS === undefined ? '' : ` ${VS} |`} this checkout |`,
    `|---|${VS === undefined ? '' : '---:|'}---:|`,
    ...keys.map(
      (k) =>
        `| ${k} |${deoptsVs === undefined ? '' : ` ${deoptsVs.get(k) ?? 0} |`} ${deoptsHere.get(k) ?? 0} |`,
    ),
    `| **total** |${deoptsVs === undefined ? '' : ` ${deoptTotal(deoptsVs)} |`} **${deoptTotal(deoptsHere)}** |`,
    '',
  );
}
result.markdown = markdown;

if (JSON_OUT) process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`);
else process.stdout.write(`${markdown.join('\n')}\n`);
