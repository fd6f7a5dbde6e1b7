// Section script of bench/run.mjs, section 5: the geomech column of the IPOPT comparison (issue
// 16). The same discrete problems as bench/js/ipopt.mjs's scaling studies (same formulation,
// guess, gauge and tolerance 1e-10; ids so3-steering, so3-steering-gauge, plate-ball,
// plate-ball-gauge, unicycle-parking, satellite, quadrotor-flight, quadrotor-flight-thrust-bound),
// solved in-process by @geomech/groupoid's solveSo3Steering / solvePlateBall /
// unicycleParkingOcp / satelliteOcp / quadrotorOcp on core's interior-point
// solver (OcpSolver). The cold start is measured for the first four.
//
//   node --expose-gc --max-semi-space-size=64 bench/js/ocp.mjs [--quick] [--sizes=200,…] [--only=plate-ball,...]
//
// Per id and n: wall time of the whole solve (median and min–max of 5 after a warm-up at the same
// n; the problem's tracing and compilation happen once per process, before, and the JIT is warmed
// at the first n until the solves run alone on the CPU: warmUp) and its CPU time
// (process.cpuUsage, user + system, median of the same 5: steadier than wall time on a loaded
// machine), status and
// second-order verdict, iterations, cost, ms per iteration, the split between the problem's
// evaluations and the linear algebra (a separate `profile` run), and the bytes allocated per
// iteration after the first (the heap in use sampled at every iteration of one solve from a
// perturbed guess, after a forced GC and then warm-up solves at the same n, median over 3 such
// solves; bytesPerIteration below). The same timed solves also give the time of the iterations alone:
// from the solver's line of iteration 0 (after the guess, the problem's set-up, the first
// evaluation, scaling and multiplier initialization) to its last line (before the second-order
// verdict and the optimality check), per iteration, wall and CPU (iterationMs, iterationCpuMs),
// and the set-up before the first line and the work after the last (setupMs, postMs). Per id:
// the fitted log-log exponents against n of the ms per iteration (whole solve / iterations, the
// set-up included), of the iterations alone (set-up excluded) and of the whole solve. And the
// cold cost in a fresh process at n = 200: importing the
// package, tracing and compiling the problem, and the first (unoptimized-JIT) solve.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { iterationHeapSampler } from '../lib/heap.mjs';
import {
  emit,
  load,
  median,
  note,
  OCP_SIZES,
  ocpSizes,
  QUICK,
  slope,
  stats,
  timeRuns,
} from '../lib/util.mjs';

const G = await load('groupoid');
const SIZES = OCP_SIZES;
const TOL = 1e-10;
/**
 * Perturbed solves before the allocation is measured: V8 compiles the generated stage code on a
 * background thread (~0.5 s per chunk of 1000 statements on the loaded 2-core machine), and until
 * it is installed the unoptimised code allocates a heap number per operation.
 */
const WARM_SOLVES = 6;
/**
 * …and at least this many iterations in all: V8 tiers a function up by the work it has done, so a
 * problem solved in 2–3 iterations (so3-steering) needs more solves than one taking 15.
 */
const WARM_ITERATIONS = 60;
/**
 * …and for at least this long (wall ms), ending with WARM_STEADY consecutive solves whose CPU time
 * (process.cpuUsage: every thread) is at most WARM_CPU_RATIO × their wall time + 0.5 ms, i.e. with
 * no compiler or GC thread still working beside the solve; at most WARM_MAX_MS. Before this
 * (bench/RESULTS.md of 2026-11-27) the first study of the process, so3-steering, timed its n = 200
 * solves while V8 was still optimizing the generated stage code: 49.9 ms CPU for 27.8 ms wall,
 * against ~9 ms CPU (= wall) once warm.
 */
const WARM_MS = 1500;
const WARM_STEADY = 3;
const WARM_CPU_RATIO = 1.1;
const WARM_MAX_MS = 20_000;
/** Bytes per iteration (heap readings included) below which the bytes measurement is warm. */
const WARM_ALLOC_BYTES = 1024;
/** Solves run at most for the three measured ones (a solve with a scavenge inside is not counted). */
const MEASURE_ATTEMPTS = 8;

/**
 * Solves `n` with `extra` until the JIT is warm (see WARM_SOLVES, WARM_ITERATIONS, WARM_MS);
 * `lines()` returns the iteration lines of the last solve. Returns the solves and ms spent.
 */
function warmUp(solve, n, extra, lines) {
  const t0 = performance.now();
  let solves = 0;
  let its = 0;
  let steady = 0;
  for (;;) {
    const w0 = performance.now();
    const c0 = process.cpuUsage();
    const out = solve(n, extra);
    const c = process.cpuUsage(c0);
    const wall = performance.now() - w0;
    solves++;
    its += lines === undefined ? out.iterations + 1 : lines();
    steady = (c.user + c.system) / 1000 <= WARM_CPU_RATIO * wall + 0.5 ? steady + 1 : 0;
    const elapsed = performance.now() - t0;
    if (elapsed >= WARM_MAX_MS) break;
    if (
      solves >= WARM_SOLVES &&
      its >= WARM_ITERATIONS &&
      elapsed >= WARM_MS &&
      steady >= WARM_STEADY
    )
      break;
  }
  return { solves, ms: performance.now() - t0 };
}

const I3 = G.axisAngleToRotation(0, 0, 0);

/**
 * A problem posed with defineOcp (issue 19) as the studies call it: one compiled LieOcp shared by
 * every n (`with({ steps })`), solved at tol 1e-10 from `guess` (default: at rest); `extra.solver`
 * is passed on, `extra.perturb` is ignored (these problems have no perturbed guess: their bytes per
 * iteration are measured from the default guess).
 */
function lieOcpStudy(make, guess) {
  let base = null;
  const byN = new Map();
  return (n, extra = {}) => {
    base ??= make(n);
    let ocp = byN.get(n);
    if (ocp === undefined) {
      ocp = base.N === n ? base : base.with({ steps: n });
      byN.set(n, ocp);
    }
    const sol = ocp.solve({
      ...(guess === undefined ? {} : { guess: guess(ocp) }),
      solver: { tol: TOL, ...(extra.solver ?? {}) },
    });
    return {
      iterations: sol.iterations,
      cost: sol.cost,
      status: sol.status,
      secondOrder: sol.secondOrder,
      residualNorm: sol.kktError,
      delResidual: Number.NaN,
      solution: sol,
    };
  };
}

const PROBLEMS = {
  'so3-steering': (n, extra = {}) =>
    G.solveSo3Steering({ phi: 1, n, tol: TOL, gauge: false, ...extra }),
  'so3-steering-gauge': (n, extra = {}) =>
    G.solveSo3Steering({ phi: 1, n, tol: TOL, gauge: true, ...extra }),
  'plate-ball': (n, extra = {}) =>
    G.solvePlateBall({
      n,
      Omega: 0.5,
      start: { x: 0, y: 0, R: I3 },
      end: { x: 0, y: 0, R: G.axisAngleToRotation(0, 0, 0.3) },
      tol: TOL,
      gauge: false,
      ...extra,
    }),
  'plate-ball-gauge': (n, extra = {}) =>
    G.solvePlateBall({
      n,
      Omega: 0.5,
      start: { x: 0, y: 0, R: I3 },
      end: { x: 0, y: 0, R: G.axisAngleToRotation(0, 0, 0.3) },
      tol: TOL,
      gauge: true,
      ...extra,
    }),
  // issue 19's built-ins, the same discrete problems as bench/ipopt's unicycle_parking.cpp and
  // satellite.cpp (default data: unicycle (0, 0, 0) → (1, 1, π/2), T = 1, vmax = 1.6, constant-
  // velocity guess; satellite J = (1, 2, 3), rotation 1.5 about z, T = 4.4, umax = 1, at rest)
  'unicycle-parking': lieOcpStudy(
    (n) => G.unicycleParkingOcp({ n }),
    (ocp) => G.unicycleGuess(ocp),
  ),
  satellite: lieOcpStudy((n) => G.satelliteOcp({ n })),
  // the quadrotor of bench/ipopt's quadrotor.cpp (default flight (0, 0, 1, 0) → (2, 0, 2, π/2),
  // T = 2; and in T = 1.5 with fmax = 17, the thrust bound active), from quadrotorGuess
  'quadrotor-flight': lieOcpStudy(
    (n) => G.quadrotorOcp({ n }),
    (ocp) => G.quadrotorGuess(ocp),
  ),
  'quadrotor-flight-thrust-bound': lieOcpStudy(
    (n) => G.quadrotorOcp({ n, T: 1.5, fmax: 17 }),
    (ocp) => G.quadrotorGuess(ocp),
  ),
};

/** The heap sampler of bytesPerIteration, one for the process (created at its first call). */
let heap;

/**
 * Bytes allocated per iteration after the first (see the header), or NaN without --expose-gc:
 * the heap in use read by the solver's per-iteration callback (bench/lib/heap.mjs's
 * iterationHeapSampler: twice back to back at every line; the interval from a line's second
 * reading to the next line's first, less what one reading allocates, is one iteration of the
 * solver) during three solves. `bytes` is the median of these intervals over the three solves,
 * `mean` the median over the solves of their mean (spikes included), `max` the largest single
 * interval. The solve starts from a perturbed guess so that every problem takes several
 * iterations; run with a large young generation (--max-semi-space-size) so that a scavenge rarely
 * falls inside the solve (a solve with a negative interval had one and is not counted; up to
 * MEASURE_ATTEMPTS solves are run for the three).
 *
 * The warm-up, at every measured n, in this order:
 * 1. one full GC (`gc()`). A full GC clears the weak references of optimized code, and code that
 *    embedded an object which has died is marked for deoptimization ("marking dependent code …
 *    reason: weak objects" under --trace-deopt): the previous solver of the cached instance,
 *    replaced when the options change (e.g. by the `profile` solve), and the closures and the
 *    LieGroupOCP that solveSo3Steering's optimality check (so3SteeringOptimality, after the last
 *    iteration) creates at every call. Until V8 has re-optimized that code it runs unoptimized
 *    and boxes its doubles: with a GC before each measured solve (bench/RESULTS.md of
 *    2026-11-27) so3-steering-gauge n = 400 read 108896 B per iteration (272 B per stage).
 * 2. warmUp on the measured solve itself (same n, same perturbed guess, the callback attached):
 *    at least WARM_SOLVES solves, WARM_ITERATIONS iterations and WARM_MS, ending with
 *    WARM_STEADY consecutive solves whose CPU time is their wall time (no compiler thread at work
 *    beside them), so that every function of the whole solve (the guess, the iterations, the
 *    optimality check after them) is re-optimized before the measured solves.
 * 3. solves until WARM_STEADY consecutive ones allocate at most WARM_ALLOC_BYTES per iteration
 *    (median over the solve's intervals, the readings included), or WARM_MAX_MS.
 *
 * One heap sampler serves every study and n of the process: with a new one per n (a new closure
 * of the same function, whose optimized code V8 caches per creation site) the readings at the
 * second or third n of a study allocated 160 B each (perReading; --trace-opt showed no
 * optimization of the new closure), which the intervals subtract but need not carry.
 *
 * No GC runs between the warm-up and the measured solves. Before (bench/RESULTS.md of
 * 2026-11-27: so3-steering-gauge n = 200, median 0, mean 2272) the GC came after step 2, and
 * step 3 looks at the iterations only: the functions of the optimality check, deoptimized by the
 * GC and called once per solve after the last line, were still being re-optimized (V8 marks them
 * hot at the end of one solve and compiles them on its background thread, 15–220 ms on the loaded
 * machine), and the main thread installed their code (a Code object and its metadata) at an
 * interrupt inside an iteration of a later solve. Under --trace-opt (4 runs of so3-steering and
 * so3-steering-gauge at n = 200, 400, 1000 with that protocol: 73 measured solves), each of the 8
 * solves with a nonzero interval (12728–168624 B) had V8 complete an optimization inside it, of
 * LieGroupOCP's delResidual, momentum or momentumAtStep or of so3SteeringOptimality, and no solve
 * read bytes without one (plate-ball likewise: 3 of 12 measured solves at n = 200 and 1000 in 2
 * runs, each with plateBallOptimality and residualPaperForm or phi installed inside it);
 * `v8.getHeapSpaceStatistics()` around two such intervals: code_space
 * +24112 B and +55440 B, old_space 0 and +17048 B, new_space +3792 B and +336 B. That is
 * V8 installing code, not the solver allocating: the same intervals read 0 once it is done.
 */
function bytesPerIteration(solve, n) {
  if (typeof globalThis.gc !== 'function')
    return { bytes: Number.NaN, mean: Number.NaN, max: Number.NaN, samples: 0 };
  globalThis.gc();
  heap ??= iterationHeapSampler();
  const extra = {
    perturb: { amplitude: 1, seed: 1 },
    solver: { onIteration: heap.onIteration },
  };
  const sampled = (nn, e) => {
    heap.start();
    return solve(nn, e);
  };
  warmUp(sampled, n, extra, () => heap.lines);
  const t0 = performance.now();
  for (let low = 0; low < WARM_STEADY && performance.now() - t0 < WARM_MAX_MS; ) {
    sampled(n, extra);
    const { perReading, perIteration } = heap.read();
    const raw = perIteration.map((v) => v + perReading);
    low = raw.length > 0 && median(raw) <= WARM_ALLOC_BYTES ? low + 1 : 0;
  }
  const d = [];
  const means = [];
  const readings = [];
  for (let rep = 0; rep < MEASURE_ATTEMPTS && means.length < 3; rep++) {
    sampled(n, extra);
    const { lines, perReading, perIteration: di } = heap.read();
    if (lines < 3) continue;
    readings.push(perReading);
    if (di.some((v) => v < 0)) continue; // a scavenge inside the solve
    d.push(...di);
    means.push(di.reduce((a, b) => a + b, 0) / di.length);
  }
  return {
    bytes: d.length ? median(d) : Number.NaN,
    mean: means.length ? median(means) : Number.NaN,
    max: d.length ? Math.max(...d) : Number.NaN,
    samples: d.length,
    perReading: readings.length ? median(readings) : Number.NaN,
  };
}

/**
 * A timed solve's split from its iteration lines (wall and CPU milliseconds): set-up before the
 * line of iteration 0, the iterations from it to the last line, per iteration, and the rest.
 */
function lineTimer() {
  const wall = new Float64Array(4096);
  const cpu = new Float64Array(4096);
  let m = 0;
  const onIteration = () => {
    if (m < wall.length) {
      wall[m] = performance.now();
      const c = process.cpuUsage();
      cpu[m] = (c.user + c.system) / 1000;
      m++;
    }
    return true;
  };
  return {
    extra: { solver: { onIteration } },
    start() {
      m = 0;
    },
    /** The split of the solve that ran from (t0, c0) to (t1, c1) (ms). */
    split(t0, c0, t1, c1) {
      if (m === 0) return null;
      const its = m - 1;
      return {
        setupMs: wall[0] - t0,
        postMs: t1 - wall[m - 1],
        iterationMs: its > 0 ? (wall[m - 1] - wall[0]) / its : Number.NaN,
        iterationCpuMs: its > 0 ? (cpu[m - 1] - cpu[0]) / its : Number.NaN,
        setupCpuMs: cpu[0] - c0,
        postCpuMs: c1 - cpu[m - 1],
      };
    },
  };
}

function study(id) {
  const solve = PROBLEMS[id];
  const sizes = ocpSizes(id);
  // compile the problem and warm the JIT (at the first size, whose solves are the shortest)
  const warm = warmUp(solve, sizes[0]);
  const rows = [];
  for (const n of sizes) {
    note(`ocp: ${id} n = ${n}`);
    const cpu = [];
    const splits = [];
    const lines = lineTimer();
    const r = timeRuns(
      () => {
        lines.start();
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const out = solve(n, lines.extra);
        const c = process.cpuUsage(c0);
        const t1 = performance.now();
        const ms = (c.user + c.system) / 1000;
        cpu.push(ms);
        const c0ms = (c0.user + c0.system) / 1000;
        splits.push(lines.split(t0, c0ms, t1, c0ms + ms));
        return out;
      },
      5,
      1,
    );
    const s = r.last;
    const cpuMs = stats(cpu.slice(1)); // the first entry is the warm-up
    const split = (k) => median(splits.slice(1).map((q) => q?.[k] ?? Number.NaN));
    const prof = solve(n, { solver: { profile: true } }).solution.timings;
    rows.push({
      id,
      n,
      ms: r.t,
      cpuMs,
      iterations: s.iterations,
      msPerIteration: r.t.median / Math.max(1, s.iterations),
      cpuMsPerIteration: cpuMs.median / Math.max(1, s.iterations),
      // the iterations alone (from the line of iteration 0 to the last line), and the rest
      iterationMs: split('iterationMs'),
      iterationCpuMs: split('iterationCpuMs'),
      setupMs: split('setupMs'),
      postMs: split('postMs'),
      setupCpuMs: split('setupCpuMs'),
      postCpuMs: split('postCpuMs'),
      cost: s.cost,
      status: s.status,
      secondOrder: s.secondOrder ?? 'not-checked',
      residualNorm: s.residualNorm,
      delResidual: s.delResidual,
      evaluationMs: prof.evaluationMs,
      linearAlgebraMs: prof.linearAlgebraMs,
      profiledMs: prof.totalMs,
      ...(({ bytes, mean, max, samples, perReading }) => ({
        bytesPerIteration: bytes,
        bytesPerIterationMean: mean,
        bytesPerIterationMax: max,
        bytesSamples: samples,
        bytesPerHeapReading: perReading,
      }))(bytesPerIteration(solve, n)),
    });
  }
  return {
    id,
    rows,
    warmUpSolves: warm.solves,
    warmUpMs: warm.ms,
    exponentPerIteration: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.msPerIteration),
    ),
    // the same fit on CPU time per iteration (steadier than wall time on a loaded machine)
    exponentPerIterationCpu: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.cpuMsPerIteration),
    ),
    // the iterations alone, set-up excluded (wall and CPU), and the whole solve
    exponentIteration: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.iterationMs),
    ),
    exponentIterationCpu: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.iterationCpuMs),
    ),
    // the fixed work of a solve outside its iterations (set-up before iteration 0: evaluations,
    // the least-squares multipliers; after the last line: the second-order verdict's factorizations)
    exponentFixed: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.setupMs + q.postMs),
    ),
    exponentFixedCpu: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.setupCpuMs + q.postCpuMs),
    ),
    exponentSolve: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.ms.median),
    ),
    exponentSolveCpu: slope(
      rows.map((q) => q.n),
      rows.map((q) => q.cpuMs.median),
    ),
  };
}

/** Import, compile and first solve of `id` at n = 200 in a fresh process (ms). */
function cold(id) {
  const script = `
    const t0 = performance.now();
    const G = await import(${JSON.stringify(new URL('../../packages/groupoid/dist/index.js', import.meta.url).href)});
    const t1 = performance.now();
    const I3 = G.axisAngleToRotation(0, 0, 0);
    const pb = ${JSON.stringify(id.startsWith('plate-ball'))};
    const gauge = ${JSON.stringify(id.endsWith('-gauge'))};
    const s0 = performance.now();
    if (pb) G.plateBallOcp({ n: 200, r: 1, Omega: 0.5, c: 0, alpha: 0.1, start: Float64Array.of(0, 0, ...I3), end: Float64Array.of(0, 0, ...I3) }, gauge);
    else G.so3SteeringOcp(200, I3, 'cayley', gauge);
    const s1 = performance.now();
    const solve = () => pb
      ? G.solvePlateBall({ n: 200, Omega: 0.5, start: { x: 0, y: 0, R: I3 }, end: { x: 0, y: 0, R: G.axisAngleToRotation(0, 0, 0.3) }, tol: 1e-10, gauge })
      : G.solveSo3Steering({ phi: 1, n: 200, tol: 1e-10, gauge });
    const r = solve();
    const s2 = performance.now();
    solve();
    const s3 = performance.now();
    process.stdout.write(JSON.stringify({ importMs: t1 - t0, compileMs: s1 - s0, firstSolveMs: s2 - s1, secondSolveMs: s3 - s2, iterations: r.iterations }) + '\\n');
  `;
  const samples = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    if (p.status !== 0) throw new Error(`cold ${id}: ${p.stderr}`);
    samples.push(JSON.parse(p.stdout.trim().split('\n').pop()));
  }
  const pick = (k) => stats(samples.map((s) => s[k]));
  return {
    id,
    n: 200,
    importMs: pick('importMs'),
    compileMs: pick('compileMs'),
    firstSolveMs: pick('firstSolveMs'),
    secondSolveMs: pick('secondSolveMs'),
  };
}

const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
if (process.argv.includes('--list')) {
  emit({ ids: Object.keys(PROBLEMS) });
} else {
  const ids = Object.keys(PROBLEMS).filter((id) => !only || only.includes(id));
  const studies = ids.map(study);
  const colds = ids
    .filter((id) => id.startsWith('so3') || id.startsWith('plate'))
    .map((id) => {
      note(`ocp: cold start ${id}`);
      return cold(id);
    });
  emit({
    tol: TOL,
    sizes: SIZES,
    script: fileURLToPath(import.meta.url),
    studies,
    rows: studies.flatMap((s) => s.rows),
    cold: colds,
  });
}
