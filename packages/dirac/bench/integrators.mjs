// Per-step cost of the integrators of @geomech/dirac on their reference systems, h = 0.01.
// Run after a build: `node bench/integrators.mjs` (tables) or `--json` (for bench/run.mjs).
//
// - (±)-discrete Lagrange–Dirac (spec 000 §8): one bordered Newton solve per step
//   (LagrangeDiracStepper.step on its flat state, as core's integrate calls it) on the free vertical rolling
//   disk (m = R = I = J = 1) from q = 0, v = (1, 0, 1, 1), restarted every 2000 steps (t = 20, so
//   θ stays O(20) and the residual floor of the step stays at its start value);
// - Dirac-2c (spec 001 §5.7) and RATTLE (spec 001 §6) on the pendulum (θ0 = π/4) and on the
//   Ziegler column with n = 2, 8, 32, 64 links (see common.mjs for the load and the initial angles),
//   restarted every 2000 steps (500 for n ≥ 32).
//
// Columns: the hot path (the core Stepper's `step(state, k, h)` on a preallocated state, restarts
// included: the call core's `integrate` makes; the step runs from t_k = k·h, computed inside) in ns/step, median and
// min–max over 5 timed batches of ~150 ms after a warm-up batch; bytes allocated per step
// (heap growth between forced GCs, ≈ 0 for allocation-free code); Newton iterations per step;
// the driver (integrateLagrangeDirac / integrateDirac / integrateConstrained over one restart
// period, recording only the first and the last state) in ns/step.
import {
  dirac,
  emit,
  fmt,
  H,
  JSON_OUT,
  note,
  pendulumCase,
  perDriverStep,
  perStep,
  runSelected,
  sphericalCase,
  ziegler,
  zieglerDamped,
} from './common.mjs';

const {
  DiracStepper,
  LagrangeDiracStepper,
  createComparatorStepper,
  discretize,
  integrateConstrained,
  integrateDirac,
  integrateLagrangeDirac,
  verticalRollingDisk,
} = dirac;

/** (±) Lagrange–Dirac on the free rolling disk. */
function lagrangeDiracRow(sign) {
  const restart = 2000;
  const method = `dirac-${sign}`;
  const disk = verticalRollingDisk();
  const L = disk.lagrangian;
  const Delta = disk.distribution;
  const Ld = discretize(L, H, sign === 'plus' ? 'left' : 'right');
  const st = new LagrangeDiracStepper(Ld, Delta, method);
  const q0 = Float64Array.of(0, 0, 0, 0);
  const v0 = Float64Array.of(1, 0, 1, 1);
  const P0 = L.Lv(new Float64Array(4), q0, v0);
  const guess0 = q0.map((q, i) => q + H * v0[i]);
  const start = st.initialState(q0, P0, guess0);
  const state = new Float64Array(start.length);
  const its = new Float64Array(1);
  const reset = () => {
    state.set(start);
    st.reset();
  };
  const step = (k) => {
    its[0] += st.step(state, k, H);
  };
  note(`dirac: Lagrange–Dirac ${sign}`);
  const m = perStep(reset, step, restart);
  its[0] = 0;
  reset();
  for (let k = 0; k < restart; k++) step(k);
  const iterations = its[0] / restart;
  const driver = perDriverStep(
    () =>
      integrateLagrangeDirac(L, Delta, method, { q0, v0 }, H, restart, {
        every: restart,
      }),
    restart,
  );
  return {
    id: `ld-${sign}-disk`,
    family: 'dirac',
    system: 'free rolling disk',
    method: `Lagrange–Dirac (${sign === 'plus' ? '+' : '−'})`,
    h: H,
    ...m,
    iterations,
    driver,
    protocol: `restart every ${restart} steps`,
  };
}

/**
 * The forced chain steps are allocation-free (issues 17/20): a row whose hot path allocates a
 * boxed double or more per step (≥ 16 B; JIT noise stays below) fails the bench.
 */
function assertAllocationFree(id, c, m) {
  if (c.force !== undefined && c.sys.band !== undefined && !(m.bytes < 16))
    throw new Error(
      `${id}: ${m.bytes.toFixed(1)} B/step, expected 0 (allocation-free forced step)`,
    );
}

/** Dirac-2c (or another Dirac method) on a constrained system, forced when `c.force` is set. */
function dirac2cRow(id, system, c, restart, method = 'dirac-2c') {
  const opts = c.force === undefined ? {} : { force: c.force };
  const st = new DiracStepper(c.sys, method, opts);
  const start = st.initialState(c.q0, new Float64Array(c.sys.n));
  const state = new Float64Array(start.length);
  note(`dirac: ${id}`);
  const reset = () => {
    state.set(start);
    st.reset();
  };
  const m = perStep(reset, (k) => st.step(state, k, H), restart);
  assertAllocationFree(id, c, m);
  // Newton iterations per step: the forced and the M(q) steps solve; the others are linear
  reset();
  let its = 0;
  for (let k = 0; k < restart; k++) its += st.step(state, k, H);
  const driver = perDriverStep(
    () =>
      integrateDirac(c.sys, method, { q0: c.q0, v0: c.v0 }, H, restart, {
        every: restart,
        ...opts,
      }),
    restart,
  );
  const name = method === 'dirac-2c' ? 'Dirac-2c (§5.7)' : 'Dirac-1 (§5.3)';
  return {
    id,
    family: 'dirac',
    system,
    method: `${name}${c.force === undefined ? '' : ', forced'}${c.sys.massMatrix === undefined ? '' : ', M(q)'}`,
    h: H,
    ...m,
    iterations: its === 0 ? null : its / restart,
    driver,
    protocol: `restart every ${restart} steps`,
  };
}

/** RATTLE on a constrained system. */
function rattleRow(id, system, c, restart) {
  const opts = c.force === undefined ? {} : { force: c.force };
  const st = createComparatorStepper(c.sys, 'rattle', opts);
  const n = c.sys.n;
  const z = new Float64Array(2 * n);
  const reset = () => {
    z.set(c.q0);
    z.set(c.v0, n);
    st.reset();
  };
  note(`dirac: ${id}`);
  const m = perStep(reset, (k) => st.step(z, k, H), restart);
  assertAllocationFree(id, c, m);
  reset();
  let its = 0;
  for (let k = 0; k < restart; k++) its += st.step(z, k, H);
  const iterations = its / restart;
  const driver = perDriverStep(
    () => integrateConstrained(c.sys, 'rattle', c, H, restart, { every: restart, ...opts }),
    restart,
  );
  return {
    id,
    family: 'dirac',
    system,
    method: `RATTLE (§6)${c.force === undefined ? '' : ', forced'}${c.sys.massMatrix === undefined ? '' : ', M(q) (HLW VII.1.4)'}`,
    h: H,
    ...(c.P === undefined ? {} : { load: c.P }),
    ...m,
    iterations,
    driver,
    protocol: `restart every ${restart} steps`,
  };
}

const table = {
  'ld-plus-disk': () => lagrangeDiracRow('plus'),
  'ld-minus-disk': () => lagrangeDiracRow('minus'),
  'dirac2c-pendulum': () =>
    dirac2cRow('dirac2c-pendulum', 'pendulum θ0 = π/4', pendulumCase(), 2000),
  'rattle-pendulum': () => rattleRow('rattle-pendulum', 'pendulum θ0 = π/4', pendulumCase(), 2000),
  'rattle-mq-spherical': () =>
    rattleRow(
      'rattle-mq-spherical',
      'spherical pendulum in (r, θ, φ), M(q)',
      sphericalCase(),
      2000,
    ),
  'dirac1-mq-spherical': () =>
    dirac2cRow(
      'dirac1-mq-spherical',
      'spherical pendulum in (r, θ, φ), M(q)',
      sphericalCase(),
      2000,
      'dirac-1',
    ),
};
for (const links of [2, 8, 32, 64]) {
  const restart = links >= 32 ? 500 : 2000;
  const system = (c) => `Ziegler column, n = ${links} (P = ${c.P.toPrecision(3)})`;
  table[`dirac2c-ziegler-${links}`] = () => {
    const c = ziegler(links);
    return dirac2cRow(`dirac2c-ziegler-${links}`, system(c), c, restart);
  };
  table[`rattle-ziegler-${links}`] = () => {
    const c = ziegler(links);
    return rattleRow(`rattle-ziegler-${links}`, system(c), c, restart);
  };
  const damped = (c) => `${system(c)}, damping 0.2`;
  table[`dirac2c-forced-ziegler-${links}`] = () => {
    const c = zieglerDamped(links);
    return dirac2cRow(`dirac2c-forced-ziegler-${links}`, damped(c), c, restart);
  };
  table[`rattle-forced-ziegler-${links}`] = () => {
    const c = zieglerDamped(links);
    return rattleRow(`rattle-forced-ziegler-${links}`, damped(c), c, restart);
  };
}
const rows = Object.values(runSelected(table));

if (JSON_OUT) emit({ rows });
else {
  const range = (t) => `${fmt(t.median, 0)} (${fmt(t.min, 0)}–${fmt(t.max, 0)})`;
  console.log('## Dirac integrators: per-step cost, h = 0.01');
  console.log('');
  console.log(
    '| system | method | hot path ns/step median (min–max) | bytes/step | Newton its/step | driver ns/step |',
  );
  console.log('|---|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.system} | ${r.method} | ${range(r.hot)} | ${fmt(r.bytes, 1)} | ${r.iterations === null ? '—' : fmt(r.iterations, 2)} | ${range(r.driver)} |`,
    );
  }
}
