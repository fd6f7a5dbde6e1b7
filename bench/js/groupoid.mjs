// Section script of bench/run.mjs: the one-step integrators of @geomech/groupoid.
//
// Section 1 rows:
// - the free rigid body on SO(3) (spec 003 S3: 𝕀 = diag(1, 2, 3), h = 0.1, ξ_1 = (0.8, −0.5, 0.3))
//   with the Cayley map and with exp: the hot path is RigidBodyStepper.step (the loop of
//   simulateRigidBody), restarted every 1000 steps (S3's horizon); the driver is
//   simulateRigidBody over 1000 steps. `simulateRigidBody` is used from the package index when it
//   is exported there, else from dist/rigidBody.js; the rows are "pending" when neither exists.
// - the plate-ball (spec 003 S5: h = 0.05, r = 1, Ω = 0.7, c = 0.3, g_1 from (0, 0) to
//   (0.02, 0.01), λ_1 = (0.5, −0.4, 0.3)): PlateBall.stepForward (the 8×8 Newton of §8.2) and
//   stepForwardReduced (the 2-unknown variant), restarted from g_1 every 200 steps (S5's
//   horizon); the driver is simulatePlateBall over 200 steps.
// Section 3: the JS side of the C comparisons, the rigid-body rows (bench/c/rigidbody_step.c, runs
// of 1000 steps) and PlateBall.stepForward in runs of 200 steps from
// g_1 exactly like bench/c/plateball_step.c, with the final state of a run for the agreement check.
// Every hot path also reports CPU ns/step (`hot.cpu`, `hot.cpuMin`, `hot.cpuMax`: 5 more batches
// timed with process.cpuUsage), the number compared with the C programs' CPU time (on a loaded
// machine wall time counts the other processes' turns).
import { load, loadOptional, median, note, perStep, runSelected } from '../lib/util.mjs';

const G = await load('groupoid');
const rb = G.simulateRigidBody ? G : await loadOptional('groupoid', 'rigidBody.js');

const REPS = 5;
/** `--hot-only`: the hot path and the iteration data alone (bench/run.mjs's section-3 rounds). */
const HOT_ONLY = process.argv.includes('--hot-only');

/**
 * perStep's result with the CPU ns/step of 5 more batches of `hot.batch` calls of `fn(k)` (k from
 * 0, so each batch starts with a restart), timed with process.cpuUsage.
 */
function perStepCpu(fn, restart) {
  const { hot, bytes } = perStep(fn, restart);
  const ns = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < hot.batch; k++) fn(k);
    const c = process.cpuUsage(c0);
    ns.push(((c.user + c.system) * 1e3) / hot.batch);
  }
  return {
    hot: { ...hot, cpu: median(ns), cpuMin: Math.min(...ns), cpuMax: Math.max(...ns) },
    bytes,
  };
}

/** ns/step of a driver over `steps` steps: 5 runs after 2 warm-ups. */
function driverStats(run, steps) {
  run();
  run();
  const ns = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    run();
    ns.push(((performance.now() - t0) * 1e6) / steps);
  }
  ns.sort((a, b) => a - b);
  return { median: ns[2], min: ns[0], max: ns[4], runs: REPS };
}

function rigidBodyRow(map) {
  const id = `rigid-body-${map}`;
  const base = {
    id,
    family: 'groupoid',
    system: 'free rigid body 𝕀 = diag(1, 2, 3) (S3)',
    method: `Lie–Poisson, ${map === 'cayley' ? 'Cayley' : 'exp'}`,
    h: 0.1,
  };
  if (!rb?.simulateRigidBody || !rb.RigidBodyStepper) {
    return { ...base, pending: 'simulateRigidBody is not built yet' };
  }
  note(`groupoid: ${id}`);
  const restart = 1000;
  // the hot path of simulateRigidBody: RigidBodyStepper.step on the state [G_k, ξ_{k+1}]
  const stepper = new rb.RigidBodyStepper([1, 2, 3], 0.1, map);
  const xi0 = Float64Array.of(0.8, -0.5, 0.3);
  const init = stepper.initialState(xi0);
  const state = new Float64Array(12);
  const its = new Float64Array(1);
  const step = (k) => {
    if (k % restart === 0) state.set(init);
    its[0] += stepper.step(state, k, 0.1);
  };
  const { hot, bytes } = perStepCpu(step, restart);
  its[0] = 0;
  for (let k = 0; k < restart; k++) step(k);
  const iterations = its[0] / restart;
  // the state after one restart period, for the C agreement check (bench/c/rigidbody_step.c)
  const final = {
    xi: Array.from(state.subarray(9)),
    G: Array.from(state.subarray(0, 9)),
    iterations: its[0],
  };
  if (HOT_ONLY) return { id, hot, bytes, iterations, final };
  const driver = driverStats(
    () =>
      rb.simulateRigidBody({
        inertia: [1, 2, 3],
        xi0,
        h: 0.1,
        steps: restart,
        map,
        every: restart,
      }),
    restart,
  );
  return {
    ...base,
    hot,
    bytes,
    iterations,
    driver,
    final,
    protocol: `restart every ${restart} steps`,
  };
}

/** The S5 plate-ball and its initial data. */
function plateBall() {
  const pb = new G.PlateBall({ h: 0.05, r: 1, Omega: 0.7, c: 0.3 });
  const g1 = pb.initialElement(0, 0, 0.02, 0.01);
  const lam1 = Float64Array.of(0.5, -0.4, 0.3);
  return { pb, g1, lam1 };
}

function plateBallRow(method) {
  const id = `plate-ball-${method}`;
  note(`groupoid: ${id}`);
  const restart = 200;
  const { pb, g1, lam1 } = plateBall();
  const g = new Float64Array(13);
  const lam = new Float64Array(3);
  const its = new Float64Array(1);
  const step =
    method === 'full'
      ? (k) => {
          if (k % restart === 0) {
            g.set(g1);
            lam.set(lam1);
          }
          its[0] += pb.stepForward(g, lam, g, lam, k);
        }
      : (k) => {
          if (k % restart === 0) {
            g.set(g1);
            lam.set(lam1);
          }
          its[0] += pb.stepForwardReduced(g, lam, g, lam, k);
        };
  const { hot, bytes } = perStepCpu(step, restart);
  its[0] = 0;
  for (let k = 0; k < restart; k++) step(k);
  const iterations = its[0] / restart;
  const final = { x: g[2], y: g[3], lambda3: lam[2], iterations: its[0] };
  if (HOT_ONLY) return { id, hot, iterations, final };
  const driver = driverStats(
    () => G.simulatePlateBall({ steps: restart, every: restart, method }),
    restart,
  );
  return {
    id,
    family: 'groupoid',
    system: 'plate-ball (S5)',
    method: method === 'full' ? 'stepForward (8×8 Newton)' : 'stepForwardReduced (2×2)',
    h: 0.05,
    hot,
    bytes,
    iterations,
    nsPerIteration: hot.median / iterations,
    driver,
    protocol: `restart from g_1 every ${restart} steps`,
    final,
  };
}

await runSelected({
  'rigid-body-cayley': () => rigidBodyRow('cayley'),
  'rigid-body-exp': () => rigidBodyRow('exp'),
  'plate-ball-full': () => plateBallRow('full'),
  'plate-ball-reduced': () => plateBallRow('reduced'),
});
