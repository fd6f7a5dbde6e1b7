// Benchmark of MidpointHerglotz (the paper's midpoint contact integrator) against a C reference
// of the same step (bench/c/midpoint_pendulum.c): the damped pendulum V(q) = (g/l)(1 − cos q),
// g = l = 1, h = 0.01, from q0 = 1, p0 = 0, z0 = 0, 1e6 steps. Run after a build (`pnpm bench`).
//
// Per problem: ns/step of the hot path (the core Stepper's `step(state, k, h)` on the flat state
// (q, p, z), restarted from the initial state at every timed batch, exactly like the C loop),
// ns/step of the whole `integrate(…, { every: N })` loop (core's `integrate`), the C time (compiled with `cc -O2 -ffp-contract=off`, skipped
// when there is no `cc`), bytes allocated per step, and the agreement of JS and C: final q after
// N steps and after a short run, and equal Newton iteration totals.
//
// Rows: γ = −0.1 is the specified problem. Its amplitude decays like e^{γt/2}, so after
// t ≈ 450 (step ≈ 45 000) the free-flight guess already meets |G| ≤ 1e-12 and ~96% of steps take
// no Newton iteration (and z ends subnormal in both languages); γ = 0 keeps the pendulum
// swinging, so every step takes one Newton iteration.
//
// Agreement: C is compiled without FMA contraction and mirrors the TypeScript's operation order,
// so the iterates agree bit for bit except where V8's Math.sin/cos (an fdlibm port) and glibc's
// sin/cos round differently in the last bit; over 1e6 undamped steps that drifts q by ~3e-10
// (a JS port of the C loop reproduces the library's q exactly).
//
// GEOMECH_CONTACT_DIST=/path/to/index.js points at another build of @geomech/contact (the timing
// harness comes from ../../core/bench/harness.mjs; GEOMECH_CORE_DIST works there as usual).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bytesPerCall, fmt, median, nsPerCall } from '../../core/bench/harness.mjs';

const libUrl = process.env.GEOMECH_CONTACT_DIST
  ? pathToFileURL(process.env.GEOMECH_CONTACT_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;
const { MidpointHerglotz, mechanicalContactLagrangian, pendulumPotential } = await import(libUrl);

const STEPS = 1_000_000;
const CHECK_STEPS = 2000; // t = 20: the damped state is still O(0.1) there
const H = 0.01;
const REPS = 5;
const AGREE_TOL = 1e-9;
const CASES = [
  { label: 'γ = −0.1 (specified)', gamma: -0.1 },
  { label: 'γ = 0 (every step iterates)', gamma: 0 },
];

/** Compiles the C reference; returns a runner `(steps, gamma, reps) → result`, or null. */
function compileC(dir) {
  const cc = spawnSync('cc', ['--version'], { encoding: 'utf8' });
  if (cc.error || cc.status !== 0) return null;
  const src = fileURLToPath(new URL('./c/midpoint_pendulum.c', import.meta.url));
  const bin = join(dir, 'midpoint_pendulum');
  // -ffp-contract=off: no fused multiply-adds, so C rounds like JS and the iterates agree.
  const build = spawnSync('cc', ['-O2', '-ffp-contract=off', '-o', bin, src, '-lm'], {
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`cc failed:\n${build.stderr}`);
  return (steps, gamma, reps) => {
    const run = spawnSync(bin, [String(steps), String(gamma), String(reps)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`C reference failed:\n${run.stderr}`);
    return JSON.parse(run.stdout);
  };
}

function integrator(gamma) {
  return new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), gamma), H);
}

/** ns/step of `step` from (1, 0, 0), restarted at each batch; the final state of the last batch. */
function timeStep(gamma) {
  const it = integrator(gamma);
  const state = new Float64Array(3); // (q, p, z)
  const t = nsPerCall(
    (k) => {
      if (k === 0) {
        state[0] = 1;
        state[1] = 0;
        state[2] = 0;
      }
      it.step(state, k, H);
    },
    STEPS,
    REPS,
  );
  const qFinal = state[0];
  // Allocation: restart every 4000 steps so that Newton keeps iterating (q stays ≥ 0.1).
  let c = 0;
  const bytes = bytesPerCall(() => {
    if (c === 4000) {
      c = 0;
      state[0] = 1;
      state[1] = 0;
      state[2] = 0;
    }
    c++;
    it.step(state, c, H);
  });
  return { ...t, bytes, q: qFinal };
}

/** ns/step of the whole `integrate` loop, and its final state and Newton total. */
function timeIntegrate(gamma) {
  const it = integrator(gamma);
  const init = { q0: [1], v0: [0], z0: 0 };
  const ns = [];
  let sol;
  for (let rep = -1; rep < REPS; rep++) {
    const t0 = performance.now();
    sol = it.integrate(init, STEPS, { every: STEPS });
    if (rep >= 0) ns.push(((performance.now() - t0) * 1e6) / STEPS);
  }
  const check = it.integrate(init, CHECK_STEPS, { every: CHECK_STEPS });
  const bytes =
    bytesPerCall(() => it.integrate(init, CHECK_STEPS, { every: CHECK_STEPS }), 30, 1) /
    CHECK_STEPS;
  return {
    median: median(ns),
    min: Math.min(...ns),
    max: Math.max(...ns),
    q: sol.q[sol.count - 1],
    iterations: sol.stats.newtonIterations,
    checkQ: check.q[check.count - 1],
    checkIterations: check.stats.newtonIterations,
    bytes,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'geomech-contact-bench-'));
let runC;
try {
  runC = compileC(dir);
  const timing = [];
  const agreement = [];
  let disagree = false;
  for (const { label, gamma } of CASES) {
    const js = timeStep(gamma);
    const whole = timeIntegrate(gamma);
    const c = runC?.(STEPS, gamma, 7);
    const cCheck = runC?.(CHECK_STEPS, gamma, 1);
    const range = (t) => `${fmt(t.median, 1)} (${fmt(t.min, 1)}–${fmt(t.max, 1)})`;
    const ratio = (t) => (c ? `${fmt(t.median / c.nsPerStep, 2)}×` : 'n/a');
    timing.push(
      `| ${label} | ${range(js)} | ${range(whole)} | ${c ? range({ median: c.nsPerStep, ...c }) : 'skipped'} | ${ratio(js)} | ${ratio(whole)} | ${fmt(js.bytes, 1)} / ${fmt(whole.bytes, 1)} | ${fmt(whole.iterations / STEPS, 3)} |`,
    );
    if (js.q !== whole.q) disagree = true; // the two JS paths run the same arithmetic
    if (c) {
      for (const [steps, qJs, qC, itJs, itC] of [
        [STEPS, whole.q, c.q, whole.iterations, c.iterations],
        [CHECK_STEPS, whole.checkQ, cCheck.q, whole.checkIterations, cCheck.iterations],
      ]) {
        const dq = Math.abs(qJs - qC);
        const ok = dq <= AGREE_TOL && itJs === itC;
        if (!ok) disagree = true;
        agreement.push(
          `| ${label} | ${steps} | ${qJs.toPrecision(17)} | ${qC.toPrecision(17)} | ${dq.toExponential(1)} | ${itJs} / ${itC} | ${ok ? 'ok' : 'FAIL'} |`,
        );
      }
    }
  }

  console.log('## Contact: MidpointHerglotz vs C (damped pendulum, h = 0.01, 1e6 steps)');
  console.log('');
  console.log(
    '| problem | JS step() ns/step median (min–max) | JS integrate() ns/step | C ns/step | JS/C step() | JS/C integrate() | bytes / step: step() / integrate() | Newton its / step |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of timing) console.log(row);
  console.log('');
  if (runC) {
    console.log(`Agreement of JS (integrate) and C, |Δq| ≤ ${AGREE_TOL} and equal Newton totals:`);
    console.log('');
    console.log('| problem | steps | q JS | q C | abs(Δq) | Newton its JS / C | |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const row of agreement) console.log(row);
  } else {
    console.log('No `cc` on PATH: the C reference was skipped.');
  }
  if (disagree) {
    console.log('');
    console.log('JS and C (or the two JS paths) disagree.');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
