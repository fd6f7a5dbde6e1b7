// Reproducer of the OCP bytes per iteration in the "two solver instances" state (not a section of
// bench/run.mjs): the satellite (groupoid's satelliteOcp, tol 1e-10) solved WARM times with one
// cached OcpSolver, then (with `two`) once with maxIterations 2999 (a new solver instance, the
// cached one replaced) and WARM times more with the default options (a third instance); then the
// bytes allocated per iteration after the first of REPORT solves, read as bench/js/ocp.mjs reads
// them (the heap in use, twice back to back, at every iteration line; the interval from a line's
// second reading to the next line's first, less one reading).
//
//   node --expose-gc --max-semi-space-size=64 bench/js/ocp-two-solvers.mjs [n] [one|two]
//
// Before 4852472 (computeSearchDirection's factorization from one call site) `two` read 48 B at
// every such iteration of n = 200 in 3 of 3 runs (and `one` in some runs): V8 had deoptimized
// computeSearchDirection at its iteration-0 refactor site and kept running it unoptimized around
// its on-stack-replaced loop. After: 0 B.
import { iterationHeapSampler } from '../lib/heap.mjs';
import { load, median } from '../lib/util.mjs';

const G = await load('groupoid');
const n = Number(process.argv[2] ?? 200);
const mode = process.argv[3] ?? 'two';
const WARM = 40;
const REPORT = 3;
const ocp = G.satelliteOcp({ n });
// the heap read at every iteration line, its callback optimized first (unoptimized, a reading
// allocates)
const heap = iterationHeapSampler();
function measure(extra = {}) {
  heap.start();
  ocp.solve({ solver: { tol: 1e-10, onIteration: heap.onIteration, ...extra } });
  const { lines, perReading, perIteration } = heap.read();
  return { lines, perReading, median: median(perIteration), perIteration };
}
for (let i = 0; i < WARM; i++) measure();
if (mode === 'two') {
  measure({ maxIterations: 2999 });
  for (let i = 0; i < WARM; i++) measure();
}
for (let i = 0; i < REPORT; i++) console.log(JSON.stringify({ n, mode, ...measure() }));
