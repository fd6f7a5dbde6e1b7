// Section script of bench/run.mjs, section 3(b): an 8×8 dense LU factor + solve with partial
// pivoting, core's DenseLU (`lu.factor(a).solve(b, out)`, with its finiteness check and the copy
// kept for the condition estimate) and the bare kernels (luFactorInPlace + luSolveInPlace on
// preallocated storage), timed with exactly the loop of bench/c/lu8.c: the same mulberry32 matrix
// and right-hand side, a[0] = 1 + k·1e-12 in call k (nothing can be hoisted), one warm-up batch
// and `reps` timed batches of `calls` calls, x[0] summed into a checksum. With the same number
// of calls the checksum equals the C one bit for bit when the arithmetic agrees.
import { load, median, QUICK, rng, runSelected } from '../lib/util.mjs';

const { DenseLU, luFactorInPlace, luSolveInPlace } = await load('core');

const callsArg = process.argv.find((a) => a.startsWith('--calls='));
export const CALLS = callsArg ? Number(callsArg.slice(8)) : QUICK ? 500_000 : 1_000_000;
export const REPS = 7;

function setup(n) {
  const r = rng(8);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) a[i] = 2 * r() - 1;
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) b[i] = 2 * r() - 1;
  return { a, b };
}

function time(call) {
  let sink = 0;
  const ns = [];
  for (let rep = -1; rep < REPS; rep++) {
    const t0 = performance.now();
    for (let k = 0; k < CALLS; k++) sink += call(k);
    if (rep >= 0) ns.push(((performance.now() - t0) * 1e6) / CALLS);
  }
  return {
    median: median(ns),
    min: Math.min(...ns),
    max: Math.max(...ns),
    runs: REPS,
    calls: CALLS,
    checksum: sink,
  };
}

function denseLU(n) {
  const { a, b } = setup(n);
  const lu = new DenseLU(n);
  const out = new Float64Array(n);
  return time((k) => {
    a[0] = 1 + k * 1e-12;
    return lu.factor(a).solve(b, out)[0];
  });
}

function kernels(n) {
  const { a, b } = setup(n);
  const f = new Float64Array(n * n);
  const piv = new Int32Array(n);
  const x = new Float64Array(n);
  return time((k) => {
    a[0] = 1 + k * 1e-12;
    f.set(a);
    if (luFactorInPlace(f, n, piv) >= 0) throw new Error('singular');
    x.set(b);
    luSolveInPlace(f, n, piv, x);
    return x[0];
  });
}

await runSelected({
  'lu8-dense': () => denseLU(8),
  'lu8-kernels': () => kernels(8),
});
