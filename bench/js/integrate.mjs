// Allocation of core's one stepping loop (issue 15): bytes allocated per step by `integrate` at
// every = 1, 10 and 1000, for a contact, a dirac and a groupoid stepper, and for the (−)
// Lagrange–Dirac stepper on a time-dependent user Lagrangian (whose closures receive t). Each row
// builds its stepper once and calls core's `integrate(stepper, x0, { h, steps, every })`.
//
// B/step by V8's sampling heap profiler (the inspector's HeapProfiler.startSampling, every 64 B
// on average, objects that the young and old collections freed included), counting only samples
// whose stack passes through core's `runSteps` (the loop of `integrate`: the steps, the records,
// the recorder, the user's closures they call): bytes sampled over R runs of 2N steps less those
// over R runs of N steps, over R·N (median over several such pairs), after a warm-up of the driver so that every counted step runs
// optimized code. Allocation-free code reads ≈ 0 (a boxed double is 16 B; the sampling's
// statistical error is about ±1 B/step). `--where` prints the functions (with their callers)
// whose allocation scales with the steps. (The heap growth between forced GCs of the other
// benches, and the whole profile, are too noisy for tens of bytes per step here.)
//
//   node bench/js/integrate.mjs [--only=euler,contact,dirac,groupoid,ld-minus-t] [--quick] [--where]
import { sampledAllocation } from '../lib/heap.mjs';
import { load, note, QUICK, runSelected } from '../lib/util.mjs';

const K = await load('core');
const C = await load('contact');
const D = await load('dirac');
const G = await load('groupoid');

const N = 2000;
const RUNS = QUICK ? 5 : 10;
const PAIRS = QUICK ? 5 : 9;
const EVERY = [1, 10, 1000];

const WHERE = process.argv.includes('--where');
/** Sampled allocation of `run()` in core's stepping loop: samples whose stack passes through
 * runSteps (the loop of integrate, the stepper's step and record, the recorder, the user's
 * closures); the per-run set-up and the inspector's own messages are outside it. */
const sampled = (run) => sampledAllocation(run, 'runSteps');

/** B/step of `driver(steps, every)` at each `every` (see the header). */
async function bytesPerStep(driver) {
  const out = {};
  for (const every of EVERY) {
    for (let w = 0; w < (QUICK ? 20 : 40); w++) driver(2 * N, every); // warm-up
    // median over PAIRS pairs of (R runs of 2N) − (R runs of N): a run that hits a deoptimization
    // (unoptimized code boxes every double) would otherwise charge its pair
    const per = [];
    let a;
    let b;
    for (let pr = 0; pr < PAIRS; pr++) {
      a = await sampled(() => {
        for (let r = 0; r < RUNS; r++) driver(N, every);
      });
      b = await sampled(() => {
        for (let r = 0; r < RUNS; r++) driver(2 * N, every);
      });
      per.push((b.total - a.total) / (RUNS * N));
    }
    per.sort((x, y) => x - y);
    out[`every${every}`] = per[PAIRS >> 1];
    if (WHERE) {
      for (const [key, bytes] of b.by) {
        const d = (bytes - (a.by.get(key) ?? 0)) / (RUNS * N);
        if (d > 0.5) note(`  every ${every}: ${d.toFixed(1)} B/step in ${key}`);
      }
    }
  }
  return out;
}

/** Explicit Euler for y' = −y as a bare core Stepper: the loop of integrate alone. */
async function eulerRow() {
  note('integrate: core (explicit Euler, a bare Stepper)');
  const euler = {
    method: K.methodTraits({ name: 'euler', order: 1, isExplicit: true }),
    stateSize: 1,
    inputSize: 0,
    lastResidual: 0,
    series: [{ name: 'y', width: 1 }],
    step: (s, _k, h) => {
      s[0] = s[0] - h * s[0];
      return 0;
    },
    record: (out, s) => {
      out[0] = s[0];
    },
  };
  return {
    stepper: "core explicit Euler y' = −y (a bare Stepper: the loop alone), h = 1e-4",
    bytes: await bytesPerStep(through(euler, [1], 1e-4)),
  };
}

/** `driver(steps, every)`: core's integrate of one stepper (built once) from x0, step h. */
const through = (stepper, x0, h) => (steps, every) => K.integrate(stepper, x0, { h, steps, every });

async function contactRow() {
  note('integrate: contact (MidpointHerglotz, damped pendulum)');
  const lag = C.mechanicalContactLagrangian(C.pendulumPotential(1, 1), -0.1);
  const st = new C.MidpointHerglotz(lag, 0.01);
  return {
    stepper: 'contact MidpointHerglotz, pendulum γ = 0.1, h = 0.01',
    bytes: await bytesPerStep(through(st, st.initialState({ q0: [1], v0: [0], z0: 0 }), 0.01)),
  };
}

async function diracRow() {
  note("integrate: dirac (DiracStepper 'dirac-2c', pendulum)");
  const sys = D.pendulum({ m: 1, g: 9.81, l: 1 });
  const init = D.pendulumInitial(Math.PI / 4, 0, 1);
  const st = new D.DiracStepper(sys, 'dirac-2c', { startup: 'dirac-1' });
  return {
    stepper: "dirac DiracStepper(pendulum, 'dirac-2c'), h = 0.01",
    bytes: await bytesPerStep(through(st, st.initialState(init.q0, init.v0), 0.01)),
  };
}

async function groupoidRow() {
  note('integrate: groupoid (RigidBodyStepper, Cayley)');
  const st = new G.RigidBodyStepper([1, 2, 3], 0.1, 'cayley');
  return {
    stepper: 'groupoid RigidBodyStepper, 𝕀 = diag(1, 2, 3), Cayley, h = 0.1',
    bytes: await bytesPerStep(through(st, st.initialState(Float64Array.of(0.8, -0.5, 0.3)), 0.1)),
  };
}

/**
 * The vertical rolling disk's kinetic energy (m = R = I = J = 1) with a time-dependent spring on
 * x: L = ½(ẋ² + ẏ² + θ̇² + φ̇²) − ½(1 + ½ cos t) x², written as a user writes closures.
 */
function timeDependentDisk() {
  const k = (t = 0) => 1 + 0.5 * Math.cos(t);
  return {
    n: 4,
    L: (q, v, t) => 0.5 * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2 + v[3] ** 2) - 0.5 * k(t) * q[0] ** 2,
    Lq: (out, q, _v, t) => {
      out[0] = -k(t) * q[0];
      out[1] = 0;
      out[2] = 0;
      out[3] = 0;
      return out;
    },
    Lv: (out, _q, v) => {
      for (let i = 0; i < 4; i++) out[i] = v[i];
      return out;
    },
    Lvv: (out) => {
      out.fill(0);
      for (let i = 0; i < 4; i++) out[i * 5] = 1;
      return out;
    },
    Lvq: (out) => out.fill(0),
  };
}

async function ldMinusTimeRow() {
  note("integrate: dirac integrateLagrangeDirac 'dirac-minus', time-dependent L");
  const disk = D.verticalRollingDisk();
  const L = timeDependentDisk();
  const st = new D.LagrangeDiracStepper(
    D.discretize(L, 0.01, 'right'),
    disk.distribution,
    'dirac-minus',
  );
  // q0 = 0, v0 = (1, 0, 1, 1): P0 = v0, guess q0 + h v0
  const x0 = st.initialState([0, 0, 0, 0], [1, 0, 1, 1], [0.01, 0, 0.01, 0.01]);
  return {
    stepper:
      "dirac LagrangeDiracStepper('dirac-minus'), rolling disk with a spring ½(1 + ½cos t)x², h = 0.01",
    bytes: await bytesPerStep(through(st, x0, 0.01)),
  };
}

const rows = {
  euler: eulerRow,
  contact: contactRow,
  dirac: diracRow,
  groupoid: groupoidRow,
  'ld-minus-t': ldMinusTimeRow,
};

if (process.argv.includes('--json') || process.argv.includes('--list')) await runSelected(rows);
else {
  const only = process.argv.find((a) => a.startsWith('--only='));
  const ids = only ? only.slice(7).split(',') : Object.keys(rows);
  process.stdout.write(
    '| stepper | B/step every = 1 | every = 10 | every = 1000 |\n|---|---|---|---|\n',
  );
  for (const id of ids) {
    const r = await rows[id]();
    const b = r.bytes;
    const f = (x) => x.toFixed(1);
    process.stdout.write(
      `| ${r.stepper} | ${f(b.every1)} | ${f(b.every10)} | ${f(b.every1000)} |\n`,
    );
  }
}
