// Bytes allocated per kept sample: a stepper's `record` (what core's `integrate` calls for every
// kept state), called 20000 and 40000 times on one state after a warm-up, by V8's sampling heap
// profiler (every 64 B, objects freed by the collections included), counting the samples under
// `loop`: (bytes of the 2R calls − bytes of the R calls)/R, the median of 7 such pairs. 0 means
// that recording allocates nothing; a boxed double is 16 B.
//
//   node bench/js/record.mjs [repository root, default this checkout] [all|groupoid|contact] [where]
//
// A second checkout's root (e.g. main's) measures its dist for a before/after comparison.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampledAllocation } from '../lib/heap.mjs';

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const C = await import(`${root}/packages/contact/dist/index.js`);
const G = await import(`${root}/packages/groupoid/dist/index.js`);
const BY = new Map();
// samples under `loop` (the R record calls), by allocating function for `where`
async function sampled(run) {
  const { total, by } = await sampledAllocation(run, 'loop');
  for (const [k, v] of by) BY.set(k, (BY.get(k) ?? 0) + v);
  return total;
}
function loop(st, out, s, R) {
  for (let k = 0; k < R; k++) st.record(out, s, k);
}
async function perCall(name, st, s) {
  const out = new Float64Array(64);
  for (let w = 0; w < 50; w++) loop(st, out, s, 2000);
  const R = 20000;
  const per = [];
  for (let p = 0; p < 7; p++) {
    const a = await sampled(() => loop(st, out, s, R));
    const b = await sampled(() => loop(st, out, s, 2 * R));
    per.push((b - a) / R);
  }
  per.sort((x, y) => x - y);
  if (process.argv[4] === 'where')
    for (const [k, v] of BY)
      if (v / R > 1) console.log(`   ${k}: ${(v / (21 * R)).toFixed(1)} B/record`);
  BY.clear();
  console.log(
    `${name}: ${per[3].toFixed(1)} B/record (pairs ${per.map((x) => x.toFixed(0)).join(' ')})`,
  );
}
const which = process.argv[3] ?? 'all';
if (which !== 'contact') {
  const st = new G.RigidBodyStepper([1, 2, 3], 0.1, 'cayley');
  const s = st.initialState(Float64Array.of(0.8, -0.5, 0.3));
  st.reset?.(s, 0, 0.1);
  await perCall('groupoid RigidBodyStepper', st, s);
}
if (which !== 'groupoid') {
  const lag = C.mechanicalContactLagrangian(C.pendulumPotential(1, 1), -0.1);
  const st = new C.MidpointHerglotz(lag, 0.01);
  const s = st.initialState({ q0: [1], v0: [0], z0: 0 });
  st.reset(s, 0, 0.01);
  await perCall('contact MidpointHerglotz pendulum', st, s);
}
{
  const lag = C.mechanicalContactLagrangian(C.quadraticPotential(1), -0.1);
  const st = new C.ContactIntegrator(C.dampedOscillatorExactLd(1, -0.1, 0.01), { lagrangian: lag });
  const s = st.initialState({ q0: [1], v0: [0], z0: 0 });
  st.reset(s, 0, 0.01);
  await perCall('contact ContactIntegrator exact L_d oscillator', st, s);
}
