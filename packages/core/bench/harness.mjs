// Shared tools of the core benchmarks: the library under test, a seeded RNG, robust timing and an
// allocation meter. Plain Node ESM, run after `pnpm build`.
//
// GEOMECH_CORE_DIST=/path/to/index.js points the benchmarks at another build (for trying changes
// before `pnpm build`); by default they use ../dist/index.js.
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const libUrl = process.env.GEOMECH_CORE_DIST
  ? pathToFileURL(process.env.GEOMECH_CORE_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;

/** The built @geomech/core. */
export const core = await import(libUrl);

v8.setFlagsFromString('--expose-gc');
const gc = globalThis.gc ?? vm.runInNewContext('gc');

/** mulberry32: deterministic uniform numbers in [0, 1). */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const fmt = (x, digits = 2) => x.toFixed(digits);

/**
 * ns per call of `fn(k)`: a warm-up batch, then `reps` timed batches of `batch` calls.
 * @returns {{ median: number, min: number, max: number }}
 */
export function nsPerCall(fn, batch = 200_000, reps = 5) {
  for (let k = 0; k < batch; k++) fn(k);
  const ns = [];
  for (let rep = 0; rep < reps; rep++) {
    const t0 = performance.now();
    for (let k = 0; k < batch; k++) fn(k);
    ns.push(((performance.now() - t0) * 1e6) / batch);
  }
  return { median: median(ns), min: Math.min(...ns), max: Math.max(...ns) };
}

// Allocation per call: heap growth between forced GCs, over batches small enough that no
// young-generation collection interrupts a batch (1e4 calls × ~100 B ≪ the 16 MB semi-space).
// Median growth per batch. The measurement itself (process.memoryUsage() returns a fresh object)
// costs a few hundred bytes per batch; an empty loop of the same shape measures that and is
// subtracted.
function heapGrowth(fn, batches, perBatch) {
  for (let k = 0; k < perBatch; k++) fn(); // warm-up (feedback vectors, optimized code)
  const grown = [];
  for (let bt = 0; bt < batches; bt++) {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    for (let k = 0; k < perBatch; k++) fn();
    grown.push(process.memoryUsage().heapUsed - h0);
  }
  return median(grown);
}
let noopSink = 0;

/** Bytes allocated per call of `fn` (≈ 0 for allocation-free code). */
export function bytesPerCall(fn, batches = 100, perBatch = 10_000) {
  const base = heapGrowth(() => noopSink++, batches, perBatch);
  return (heapGrowth(fn, batches, perBatch) - base) / perBatch;
}

/** Least-squares slope of log(y) against log(x): the fitted exponent of a scaling study. */
export function slope(xs, ys) {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return num / den;
}

/** Prints a section result for bench/run.mjs as one `@@RESULT <json>` line. */
export function emit(result) {
  process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`);
}

/** A progress note on stderr (the JSON channel on stdout stays clean). */
export function note(msg) {
  process.stderr.write(`  ${msg}\n`);
}
