// Section script of bench/run.mjs: the contact (Herglotz) integrators of @geomech/contact.
//
// Section 1 rows (per-step cost on the reference systems, h = 0.01):
// - MidpointHerglotz on the damped pendulum V = 1 − cos q, γ = −0.1 (the specified problem of
//   packages/contact/bench/midpoint.mjs: 1e6 steps from (1, 0, 0) per timed batch, no restart,
//   so ~96% of the late steps need no Newton iteration) and γ = 0 (every step iterates);
// - MidpointHerglotz, the exact discrete Lagrangian (ContactIntegrator + dampedOscillatorExactLd)
//   and the implicit-z midpoint (ContactIntegrator + implicitZMidpointLd; both through
//   ContactIntegrator's dedicated n = 1 step, packages/contact/src/kernels.ts) on the damped oscillator
//   k = 1, γ = −0.1, restarted from (1, 0, 0) every 4000 steps (t = 40) so that the state never
//   decays into subnormal numbers (packages/contact/bench/c/contact_oscillator_step.c is the C
//   reference of the last two, bench/run.mjs section 3).
// Section 2: MidpointHerglotz.integrate(…, N, { every: N }) on the γ = 0 pendulum for N = 1e3 … 1e7.
// Section 3(a): the JS side of the C comparison (the `step()` rows above, plus the final q and the
// Newton totals of `integrate` for the agreement check against packages/contact/bench/c).
import {
  bytesPerCall,
  load,
  median,
  note,
  nsPerCall,
  QUICK,
  runSelected,
  scaleStats,
  slope,
  timeRuns,
} from '../lib/util.mjs';

const {
  ContactIntegrator,
  MidpointHerglotz,
  dampedOscillatorExactLd,
  implicitZMidpointLd,
  mechanicalContactLagrangian,
  pendulumPotential,
  quadraticPotential,
} = await load('contact');

const H = 0.01;
/** `--hot-only`: the hot path alone (bench/run.mjs's section-3 rounds), no bytes, no driver. */
const HOT_ONLY = process.argv.includes('--hot-only');
const STEPS = QUICK ? 200_000 : 1_000_000;
const REPS = 5;
const RESTART = 4000;

/** The Stepper's hot path `step(state, k, h)` on the flat state (q, p, z), and its driver. */
function midpoint(potential, gamma) {
  const it = new MidpointHerglotz(mechanicalContactLagrangian(potential, gamma), H);
  return {
    // as core's integrate calls it: k and the constant h (t_k = t0 + k·h inside the step)
    step: (state, k) => it.step(state, k, H),
    driver: (steps) => it.integrate({ q0: [1], v0: [0], z0: 0 }, steps, { every: steps }),
  };
}

/** ContactIntegrator with the discrete Lagrangian `makeLd(lag)` of the oscillator. */
function generic(k, gamma, makeLd) {
  const lag = mechanicalContactLagrangian(quadraticPotential(k), gamma);
  const it = new ContactIntegrator(makeLd(lag), { lagrangian: lag });
  return {
    step: (state, kk) => it.step(state, kk, H),
    driver: (steps) => it.integrate({ q0: [1], v0: [0], z0: 0 }, steps, { every: steps }),
  };
}

/**
 * ns/step of the hot path from (1, 0, 0) (restarted every `restart` steps, or only at the start of
 * each timed batch), bytes/step, Newton iterations/step, and ns/step of the driver.
 */
function measure(id, system, method, make, restart) {
  note(`contact: ${id}`);
  const m = make();
  const state = new Float64Array(3); // (q, p, z)
  const reset = () => {
    state[0] = 1;
    state[1] = 0;
    state[2] = 0;
  };
  const hot = nsPerCall(
    (k) => {
      if (k === 0 || (restart > 0 && k % restart === 0)) reset();
      m.step(state, k);
    },
    STEPS,
    REPS,
  );
  // CPU time of the same batches (the C reference of section 3 reports CPU time): median of REPS
  const cpu = [];
  for (let rep = 0; rep < REPS; rep++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < STEPS; k++) {
      if (k === 0 || (restart > 0 && k % restart === 0)) reset();
      m.step(state, k);
    }
    const c = process.cpuUsage(c0);
    cpu.push(((c.user + c.system) * 1e3) / STEPS);
  }
  hot.cpu = median(cpu);
  const qFinal = state[0];
  // the state after the last batch (its last restart period when restarted), for the C agreement
  const final = { q: state[0], p: state[1], z: state[2] };
  if (HOT_ONLY) return { id, hot, qFinal, final, steps: STEPS };
  // Newton iterations per step over one batch (untimed)
  let its = 0;
  for (let k = 0; k < STEPS; k++) {
    if (k === 0 || (restart > 0 && k % restart === 0)) reset();
    its += m.step(state, k);
  }
  // allocation: restart every 4000 steps so that Newton keeps iterating
  let c = 0;
  reset();
  const bytes = bytesPerCall(() => {
    if (c === RESTART) {
      c = 0;
      reset();
    }
    c++;
    m.step(state, c);
  });
  // the driver runs one simulation (20 000 steps, t = 200, for the restarted rows: the damped
  // oscillator's amplitude is then e^{−10}, far from subnormal numbers)
  const driverSteps = restart > 0 ? 20_000 : STEPS;
  const drv = timeRuns(() => m.driver(driverSteps), REPS, 5).t;
  const driverBytes = bytesPerCall(() => m.driver(2000), 30, 1) / 2000;
  return {
    id,
    family: 'contact',
    system,
    method,
    h: H,
    hot,
    driver: scaleStats(drv, 1e6 / driverSteps),
    bytes,
    driverBytes,
    iterations: its / STEPS,
    final,
    protocol:
      restart > 0
        ? `restart from (1, 0, 0) every ${restart} steps`
        : `${STEPS} steps from (1, 0, 0) per batch`,
    qFinal,
  };
}

const ROWS = {
  'contact-midpoint-pendulum-damped': () =>
    measure(
      'contact-midpoint-pendulum-damped',
      'damped pendulum, γ = −0.1',
      'midpoint (79)',
      () => midpoint(pendulumPotential(1, 1), -0.1),
      0,
    ),
  'contact-midpoint-pendulum': () =>
    measure(
      'contact-midpoint-pendulum',
      'pendulum, γ = 0',
      'midpoint (79)',
      () => midpoint(pendulumPotential(1, 1), 0),
      0,
    ),
  'contact-midpoint-oscillator': () =>
    measure(
      'contact-midpoint-oscillator',
      'damped oscillator k = 1, γ = −0.1',
      'midpoint (79)',
      () => midpoint(quadraticPotential(1), -0.1),
      RESTART,
    ),
  'contact-exact-oscillator': () =>
    measure(
      'contact-exact-oscillator',
      'damped oscillator k = 1, γ = −0.1',
      'exact L_d (§8.2)',
      () => generic(1, -0.1, () => dampedOscillatorExactLd(1, -0.1, H)),
      RESTART,
    ),
  'contact-implicit-z-oscillator': () =>
    measure(
      'contact-implicit-z-oscillator',
      'damped oscillator k = 1, γ = −0.1',
      'implicit-z midpoint (§7.4)',
      () => generic(1, -0.1, (lag) => implicitZMidpointLd(lag, H)),
      RESTART,
    ),
};

/** Section 3(a) agreement data: integrate() over the C reference's runs. */
function agreement() {
  const out = [];
  for (const [gamma, steps] of [
    [-0.1, STEPS],
    [0, STEPS],
    [-0.1, 2000],
    [0, 2000],
  ]) {
    const it = new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), gamma), H);
    const sol = it.integrate({ q0: [1], v0: [0], z0: 0 }, steps, { every: steps });
    out.push({ gamma, steps, q: sol.q[sol.count - 1], iterations: sol.stats.newtonIterations });
  }
  return out;
}

/** Section 2: steps scaling of one simulation. */
function stepsScaling() {
  const sizes = QUICK ? [1e3, 1e4, 1e5, 1e6] : [1e3, 1e4, 1e5, 1e6, 1e7];
  const points = [];
  const it = new MidpointHerglotz(mechanicalContactLagrangian(pendulumPotential(1, 1), 0), H);
  const init = { q0: [1], v0: [0], z0: 0 };
  it.integrate(init, 200_000, { every: 200_000 }); // warm-up: every size is timed with optimized code
  for (const N of sizes) {
    note(`contact: steps scaling N = ${N}`);
    const runs = N >= 1e6 ? 5 : Math.max(5, Math.round(1e6 / N));
    const t = timeRuns(() => it.integrate(init, N, { every: N }), runs, N >= 1e6 ? 0 : 2).t;
    points.push({ x: N, ms: t, nsPerStep: (t.median * 1e6) / N });
  }
  return {
    id: 'steps-contact-midpoint',
    title: 'MidpointHerglotz.integrate, pendulum γ = 0, h = 0.01',
    xLabel: 'steps N',
    points,
    exponent: slope(
      points.map((p) => p.x),
      points.map((p) => p.ms.median),
    ),
  };
}

await runSelected({
  ...ROWS,
  agreement: () => ({ steps: STEPS, runs: agreement() }),
  'steps-contact-midpoint': stepsScaling,
});
