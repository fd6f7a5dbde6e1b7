// Shared helpers of the repository benchmark suite (bench/run.mjs and the section scripts in
// bench/js): the built packages, the core timing harness (robust ns/call and the bytes/call
// allocation meter of packages/core/bench/harness.mjs), run statistics, log-log fits and the
// JSON hand-off to the orchestrator.
//
// Every section script is a plain Node ESM program run after `pnpm build`; it prints its results
// as one line `@@RESULT <json>` on stdout (anything else it prints is a progress note), which
// bench/run.mjs parses. `--quick` asks for fewer repetitions.
import { pathToFileURL } from 'node:url';

export {
  bytesPerCall,
  emit,
  fmt,
  median,
  note,
  nsPerCall,
  rng,
  slope,
} from '../../packages/core/bench/harness.mjs';

import {
  bytesPerCall as bytesPerCallImpl,
  emit,
  median,
  nsPerCall as nsPerCallImpl,
} from '../../packages/core/bench/harness.mjs';

/** True when the run was asked to be quick (development runs; RESULTS.md uses full runs). */
export const QUICK = process.argv.includes('--quick');

const SIZES_ARG = process.argv.find((a) => a.startsWith('--sizes='));
/**
 * n of the optimal-control scaling studies (bench/js/ipopt.mjs and bench/js/ocp.mjs):
 * `--sizes=200,400,…` overrides, e.g. the full range with --quick's runs.
 */
export const OCP_SIZES = SIZES_ARG
  ? SIZES_ARG.slice(8).split(',').map(Number)
  : QUICK
    ? [200, 400, 1000]
    : [200, 400, 1000, 2000, 4000];

/**
 * Largest n of the quadrotor rows when no `--sizes=` is given: IPOPT's whole process takes about
 * 40 s of CPU per solve at n = 4000 on this machine, so the two quadrotor rows at n = 2000 and 4000
 * would add about 25 minutes to a full run; the other problems go to 4000.
 */
export const QUADROTOR_MAX_N = 1000;

/** n of the scaling study of problem `id`: {@link OCP_SIZES}, capped for the quadrotor rows. */
export function ocpSizes(id) {
  return SIZES_ARG || !id.startsWith('quadrotor')
    ? OCP_SIZES
    : OCP_SIZES.filter((n) => n <= QUADROTOR_MAX_N);
}

/** The built package `@geomech/<name>` (GEOMECH_<NAME>_DIST overrides the path, as in the package benches). */
export async function load(name) {
  const env = process.env[`GEOMECH_${name.toUpperCase()}_DIST`];
  const url = env
    ? pathToFileURL(env).href
    : new URL(`../../packages/${name}/dist/index.js`, import.meta.url).href;
  return import(url);
}

/** Optional module of a built package (e.g. a file not yet exported from its index), or null. */
export async function loadOptional(name, file) {
  try {
    return await import(new URL(`../../packages/${name}/dist/${file}`, import.meta.url).href);
  } catch {
    return null;
  }
}

/** { median, min, max, runs } of a list of samples. */
export function stats(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length };
}

/**
 * Wall time (ms) of `runs` calls of `fn` after `warm` untimed calls: `{ t: stats, last }` with
 * the value of the last call.
 */
export function timeRuns(fn, runs = 5, warm = 1) {
  let last;
  for (let i = 0; i < warm; i++) last = fn(-1 - i);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = fn(i);
    ms.push(performance.now() - t0);
  }
  return { t: stats(ms), last };
}

/** Multiplies every time field of a stats object by `factor` (e.g. ms per run → ns per step). */
export function scaleStats(s, factor) {
  return {
    median: s.median * factor,
    min: s.min * factor,
    max: s.max * factor,
    runs: s.runs,
  };
}

/**
 * Runs the entries of `table` (id → () => result) selected on the command line and emits
 * `{ results: { id: result } }`: `--list` prints the ids instead, `--only=a,b` selects (default:
 * all). bench/run.mjs runs every row in its own process (`--only=<id>`), so that no measurement
 * inherits the JIT feedback of another.
 */
export async function runSelected(table) {
  if (process.argv.includes('--list')) {
    process.stdout.write(`@@RESULT ${JSON.stringify({ ids: Object.keys(table) })}\n`);
    return;
  }
  const only = process.argv.find((a) => a.startsWith('--only='));
  const ids = only ? only.slice(7).split(',') : Object.keys(table);
  const results = {};
  for (const id of ids) {
    const f = table[id];
    if (!f) throw new Error(`unknown id ${id}; known: ${Object.keys(table).join(', ')}`);
    results[id] = await f();
  }
  emit({ results });
}

/**
 * ns per call of `fn(k)` (k counts from 0), estimated after a warm-up: runs of growing length
 * until one takes 30 ms, then that run once more, timed.
 */
export function estimate(fn) {
  let calls = 1;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < calls; k++) fn(k);
    const ms = performance.now() - t0;
    if (ms > 30 || calls >= 1 << 24) break;
    calls *= 2;
  }
  const t0 = performance.now();
  for (let k = 0; k < calls; k++) fn(k);
  return ((performance.now() - t0) * 1e6) / calls;
}

/**
 * Per-step cost of a hot path `fn(k)` that restarts itself when k % restart = 0: ns/step median
 * (min–max) over 5 timed batches of ~150 ms (40 ms with --quick, a multiple of `restart` steps)
 * after a warm-up batch, and bytes allocated per step.
 */
export function perStep(fn, restart) {
  const est = estimate(fn);
  const ms = QUICK ? 40 : 150;
  const batch = Math.max(restart, Math.round((ms * 1e6) / est / restart) * restart);
  const t = nsPerCallImpl(fn, batch, 5);
  let c = 0;
  const perBatch = Math.max(10, Math.min(10_000, Math.round(2e6 / est)));
  const wrapped = () => {
    fn(c);
    c = (c + 1) % restart;
  };
  // ~50 ms of calls first, so that the wrapper runs optimized code (interpreted and baseline
  // code box doubles, which would count as the step's allocation)
  for (let k = Math.round(5e7 / est); k > 0; k--) wrapped();
  const bytes = bytesPerCallImpl(wrapped, 20, perBatch);
  return { hot: { ...t, runs: 5, batch }, bytes };
}
