// Shared pieces of the @geomech/dirac benchmarks (integrators.mjs, zieglerScaling.mjs): the built
// library, the reference systems and a per-step timer. Plain Node ESM, run after a build.
//
// GEOMECH_DIRAC_DIST=/path/to/index.js points at another build of @geomech/dirac (the timing
// harness comes from ../../core/bench/harness.mjs; GEOMECH_CORE_DIST works there as usual).
// `--json` prints the results as one `@@RESULT <json>` line for bench/run.mjs instead of tables;
// `--quick` shortens every timed batch.
import { pathToFileURL } from 'node:url';
import { bytesPerCall, emit, median, nsPerCall } from '../../core/bench/harness.mjs';

export {
  bytesPerCall,
  emit,
  fmt,
  median,
  note,
  nsPerCall,
  slope,
} from '../../core/bench/harness.mjs';

const libUrl = process.env.GEOMECH_DIRAC_DIST
  ? pathToFileURL(process.env.GEOMECH_DIRAC_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;

/** The built @geomech/dirac. */
export const dirac = await import(libUrl);

export const JSON_OUT = process.argv.includes('--json');
export const QUICK = process.argv.includes('--quick');

/** Target wall time of one timed batch (ms). */
const BATCH_MS = QUICK ? 40 : 150;

/** Time step of every reference run (spec 001 §7.3 and spec 000 §9 use h = 0.01). */
export const H = 0.01;

const pc2 = dirac.zieglerCriticalLoad({ n: 2 });

/**
 * The Ziegler column with `links` links, k = m = l = 1, at the load P = 0.2·P_c(n)/P_c(2)
 * (the spec's n = 2 regression load P = 0.2 = 0.683·P_c(2), the same fraction of the critical
 * load for every n, so that every column oscillates about the upright position), from rest at
 * θ_i = 0.1·(1 + i/(n − 1)) (θ = (0.1, 0.2) for n = 2, spec 001 §7.3).
 */
export function ziegler(links) {
  const P = (0.2 * dirac.zieglerCriticalLoad({ n: links })) / pc2;
  const sys = dirac.zieglerColumn({ n: links, P });
  const theta = Array.from({ length: links }, (_, i) => 0.1 * (1 + i / Math.max(1, links - 1)));
  const q0 = sys.fromAngles(theta);
  return { sys, P, q0, v0: new Float64Array(2 * links) };
}

/** {@link ziegler} with joint damping 0.2 (the forced chain steps; its `force` is banded, k = 5). */
export function zieglerDamped(links) {
  const c = ziegler(links);
  const sys = dirac.zieglerColumn({ ...c.sys.params, damping: 0.2 });
  return { ...c, sys, force: sys.force };
}

/**
 * The spherical pendulum in spherical coordinates q = (r, θ, φ) with a configuration-dependent
 * mass M(q) = m diag(1, r², r² sin²θ), V = −m g r cos θ and the constraint r² − l² = 0 (m = 1.3,
 * g = 9.81, l = 0.7; the system of the M(q) tests), from θ = 0.9, φ = 0.2, θ̇ = 0.3, φ̇ = 1.7:
 * RATTLE and Dirac with M(q) (g = ½∇(vᵀMv) recovered from κ by polarization).
 */
export function sphericalCase() {
  const mass = 1.3;
  const g = 9.81;
  const l = 0.7;
  const sys = {
    n: 3,
    m: 1,
    mass: Float64Array.of(1, 1, 1),
    autonomous: true,
    V: (q) => -mass * g * q[0] * Math.cos(q[1]),
    gradV: (out, q) => {
      out[0] = -mass * g * Math.cos(q[1]);
      out[1] = mass * g * q[0] * Math.sin(q[1]);
      out[2] = 0;
      return out;
    },
    phi: (out, q) => {
      out[0] = q[0] * q[0] - l * l;
      return out;
    },
    C: (out, q) => {
      out[0] = q[0];
      out[1] = 0;
      out[2] = 0;
      return out;
    },
    curvature: (out, _q, v) => {
      out[0] = v[0] * v[0];
      return out;
    },
    massMatrix: (out, q) => {
      const r = q[0];
      const s = Math.sin(q[1]);
      out.fill(0);
      out[0] = mass;
      out[4] = mass * r * r;
      out[8] = mass * r * r * s * s;
      return out;
    },
    coriolis: (out, q, v) => {
      const r = q[0];
      const s = Math.sin(q[1]);
      const c = Math.cos(q[1]);
      out[0] = -mass * (r * v[1] * v[1] + r * s * s * v[2] * v[2]);
      out[1] = 2 * mass * r * v[0] * v[1] - mass * r * r * s * c * v[2] * v[2];
      out[2] = mass * (2 * r * v[0] * s * s + 2 * r * r * s * c * v[1]) * v[2];
      return out;
    },
  };
  return { sys, q0: Float64Array.of(l, 0.9, 0.2), v0: Float64Array.of(0, 0.3, 1.7) };
}

/** The Cartesian pendulum m = 1, g = 9.81, l = 1 from θ0 = π/4 at rest (spec 001 §7.3). */
export function pendulumCase() {
  const sys = dirac.pendulum({ m: 1, g: 9.81, l: 1 });
  const { q0, v0 } = dirac.pendulumInitial(Math.PI / 4, 0, 1);
  return { sys, q0, v0 };
}

/**
 * ns per call of `fn(k)` (k counts from 0 in every batch), estimated after a warm-up: runs of
 * growing length until one takes 30 ms, then that run once more, timed.
 */
function estimate(fn) {
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

/** CPU ns per call of `fn(k)` over `batch` calls (process.cpuUsage): median of 5 batches. */
export function cpuPerCall(fn, batch) {
  const ns = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < batch; k++) fn(k);
    const c = process.cpuUsage(c0);
    ns.push(((c.user + c.system) * 1e3) / batch);
  }
  return median(ns);
}

/**
 * Per-step cost of a hot path `step(k)` that `reset()`s to the initial state every `restart`
 * steps: ns/step median (min–max) over 5 timed batches of ~BATCH_MS after a warm-up batch, the
 * CPU ns/step (`cpu`: median of 5 more batches timed with process.cpuUsage, the steadier number
 * on a loaded machine) and the bytes allocated per step (heap growth between forced GCs).
 */
export function perStep(reset, step, restart) {
  const fn = (k) => {
    if (k % restart === 0) reset();
    step(k);
  };
  reset();
  const est = estimate(fn);
  const batch = Math.max(restart, Math.round((BATCH_MS * 1e6) / est / restart) * restart);
  const t = nsPerCall(fn, batch, 5);
  reset();
  const cpu = cpuPerCall(fn, batch);
  let c = 0;
  const perBatch = Math.max(10, Math.min(10_000, Math.round(2e6 / est)));
  const wrapped = () => {
    fn(c);
    c = (c + 1) % restart;
  };
  // ~50 ms of calls first, so that the wrapper runs optimized code (interpreted and baseline
  // code box doubles, which would count as the step's allocation)
  for (let k = Math.round(5e7 / est); k > 0; k--) wrapped();
  const bytes = bytesPerCall(wrapped, 20, perBatch);
  return { hot: { ...t, runs: 5, batch, cpu }, bytes };
}

/** ns/step of a driver call `run()` covering `steps` steps: median (min–max) of 5 after 2 warm-ups. */
export function perDriverStep(run, steps) {
  run();
  run();
  const ns = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    run();
    ns.push(((performance.now() - t0) * 1e6) / steps);
  }
  return { median: median(ns), min: Math.min(...ns), max: Math.max(...ns), runs: 5 };
}

/**
 * Runs the entries of `table` (id → () => result) selected by `--only=a,b` (default: all) and
 * returns `{ id: result }`; with `--list` (bench/run.mjs asks for the ids, then runs every row in
 * its own process) it prints the ids and exits.
 */
export function runSelected(table) {
  if (process.argv.includes('--list')) {
    emit({ ids: Object.keys(table) });
    process.exit(0);
  }
  const only = process.argv.find((a) => a.startsWith('--only='));
  const ids = only ? only.slice(7).split(',') : Object.keys(table);
  const results = {};
  for (const id of ids) {
    const f = table[id];
    if (!f) throw new Error(`unknown id ${id}; known: ${Object.keys(table).join(', ')}`);
    results[id] = f();
  }
  return results;
}
