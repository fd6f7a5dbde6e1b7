// Allocation measured by V8's sampling heap profiler (the inspector's HeapProfiler.startSampling,
// every 64 B on average, objects that the young and old collections freed included), shared by
// bench/js/integrate.mjs and bench/js/record.mjs; and the heap in use read at every iteration line
// of an optimal-control solve (iterationHeapSampler), shared by bench/js/ocp.mjs and
// bench/js/ocp-two-solvers.mjs.
import { Session } from 'node:inspector/promises';
import { median } from './util.mjs';

let session;

/**
 * Sampled allocation of `run()` under the function named `root` (samples whose stack passes
 * through it; set-up outside it and the inspector's own messages are not counted): the total in
 * bytes and the bytes by allocating function with its caller ("name:line < caller:line").
 */
export async function sampledAllocation(run, root) {
  if (!session) {
    session = new Session();
    session.connect();
  }
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  run();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const by = new Map();
  let total = 0;
  const walk = (node, caller, inRoot) => {
    const name = `${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
    const under = inRoot || node.callFrame.functionName === root;
    if (under && node.selfSize > 0) {
      total += node.selfSize;
      const key = `${name} < ${caller}`;
      by.set(key, (by.get(key) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, name, under);
  };
  walk(profile.head, '', false);
  return { total, by };
}

/** Calls of the heap-reading callback before it is handed out (so that V8 optimizes it first). */
const SAMPLER_WARM_CALLS = 100_000;

/**
 * The heap in use (process.memoryUsage().heapUsed) read twice, back to back, at every iteration
 * line of a solve: `onIteration` is the solver's per-iteration callback (options.solver
 * .onIteration), `start()` rewinds before a solve, `lines` is the number of lines read so far
 * (at most `capacity`) and `read()` the solve's result: `perReading`, the median over the lines of
 * the second reading less the first (what one reading allocates, measured where it runs), and
 * `perIteration`, for each line after the first but the last, the next line's first reading less
 * this line's second, less `perReading` (one iteration of the solver, after the first). A negative
 * entry means a scavenge fell inside the solve.
 *
 * The callback is called SAMPLER_WARM_CALLS times before it is returned: unoptimized, a reading
 * allocates (the memoryUsage object and a heap number per double, 160–256 B in bench/RESULTS.md of
 * 2026-11-27); optimized, it allocates nothing (perReading 0).
 */
export function iterationHeapSampler(capacity = 1024) {
  const first = new Float64Array(capacity);
  const second = new Float64Array(capacity);
  let m = 0;
  const onIteration = () => {
    if (m < first.length) {
      first[m] = process.memoryUsage().heapUsed;
      second[m] = process.memoryUsage().heapUsed;
      m++;
    }
    return true;
  };
  for (let i = 0; i < SAMPLER_WARM_CALLS; i++) {
    m = 0;
    onIteration();
  }
  m = 0;
  return {
    onIteration,
    start() {
      m = 0;
    },
    get lines() {
      return m;
    },
    read() {
      const own = [];
      for (let i = 0; i < m; i++) own.push(second[i] - first[i]);
      const perReading = own.length ? median(own) : Number.NaN;
      const perIteration = [];
      for (let i = 1; i + 1 < m; i++) perIteration.push(first[i + 1] - second[i] - perReading);
      return { lines: m, perReading, perIteration };
    },
  };
}
