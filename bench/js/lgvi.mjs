// The SO(3) Lie-group variational integrator (So3LgviStepper, packages/groupoid/src/lgvi.ts)
// against its C reference bench/c/lgvi_step.c, same problems, same step, same Newton stopping rule:
// - heavy-top: J = (1, 1, 2), m g = 9.81, ρ = (0, 0, 0.5), R_0 = Exp(0.3 e₁), Ω_0 = (0, 0, 20),
//   h = 0.01, u = 0;
// - forced: the rigid body J = (1, 2, 3) without potential under the torque
//   u_k = (0.1 sin t_k, 0.2 cos t_k, 0.05), R_0 = I, Ω_0 = (0.8, −0.5, 0.3), h = 0.01.
// Hot path: stepper.step on a preallocated state, restarted every 1000 steps; ns/step and bytes
// allocated per step by the harness of bench/lib/util.mjs (perStep). With --c (default on when
// `cc` exists; --no-c skips it) the C reference is compiled with `cc -O2 -ffp-contract=off` and run
// in the same process tree, TS and C alternating over 3 rounds (best median of each side), and the
// final Π of a 1000-step run is compared between the two.
//
// Usage: node bench/js/lgvi.mjs [--quick] [--no-c] [--json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, perStep, QUICK } from '../lib/util.mjs';

const G = await load('groupoid');
const HERE = dirname(fileURLToPath(import.meta.url));
const RESTART = 1000;
const H = 0.01;

function setup(system) {
  if (system === 'heavy-top') {
    const s = new G.So3LgviStepper({
      inertia: [1, 1, 2],
      h: H,
      potential: new G.GravityPotential(1, 9.81, [0, 0, 0.5]),
    });
    return { s, x0: s.initialState([0.3, 0, 0], [0, 0, 20]), input: null };
  }
  const s = new G.So3LgviStepper({ inertia: [1, 2, 3], h: H });
  const input = (u, k) => {
    const t = k * H;
    u[0] = 0.1 * Math.sin(t);
    u[1] = 0.2 * Math.cos(t);
    u[2] = 0.05;
  };
  return { s, x0: s.initialState([0, 0, 0], [0.8, -0.5, 0.3]), input };
}

function measureTs(system) {
  const { s, x0, input } = setup(system);
  const state = Float64Array.from(x0);
  const u = new Float64Array(3);
  let its = 0;
  const step = (k) => {
    const j = k % RESTART;
    if (j === 0) state.set(x0);
    if (input) input(u, j);
    // as core's integrate calls it: step(state, k, h, u)
    its += s.step(state, j, H, u);
  };
  const { hot, bytes } = perStep(step, RESTART);
  its = 0;
  for (let k = 0; k < RESTART; k++) step(k);
  return { hot, bytes, iterations: its / RESTART, pi: Array.from(state.subarray(9, 12)) };
}

function measureC(exe, system) {
  const runs = QUICK ? 300 : 2000;
  return JSON.parse(
    execFileSync(exe, [system, String(RESTART), String(runs), '5'], { encoding: 'utf8' }),
  );
}

let exe;
if (!process.argv.includes('--no-c')) {
  try {
    exe = join(mkdtempSync(join(tmpdir(), 'lgvi-')), 'lgvi_step');
    execFileSync('cc', [
      '-O2',
      '-ffp-contract=off',
      '-o',
      exe,
      join(HERE, '../c/lgvi_step.c'),
      '-lm',
    ]);
  } catch {
    exe = undefined;
  }
}

const rows = [];
for (const system of ['heavy-top', 'forced']) {
  let ts;
  let c;
  for (let round = 0; round < 3; round++) {
    const t = measureTs(system);
    if (!ts || t.hot.median < ts.hot.median) ts = t;
    if (exe) {
      const r = measureC(exe, system);
      if (!c || r.nsPerStep < c.nsPerStep) c = r;
    }
  }
  const agree = c ? Math.max(...ts.pi.map((p, i) => Math.abs(p - c.pi[i]))) : undefined;
  rows.push({ system, ts, c, ratio: c ? ts.hot.median / c.nsPerStep : undefined, agree });
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(rows)}\n`);
} else {
  console.log(
    '| system | TS ns/step (min–max) | B/step | Newton its/step | C ns/step (min–max) | TS/C | max |ΔΠ| after 1000 steps |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const t = r.ts.hot;
    const c = r.c;
    console.log(
      `| ${r.system} | ${t.median.toFixed(0)} (${t.min.toFixed(0)}–${t.max.toFixed(0)}) | ${r.ts.bytes} | ${r.ts.iterations.toFixed(2)} | ${c ? `${c.nsPerStep.toFixed(0)} (${c.min.toFixed(0)}–${c.max.toFixed(0)})` : '—'} | ${r.ratio ? r.ratio.toFixed(2) : '—'} | ${r.agree === undefined ? '—' : r.agree.toExponential(1)} |`,
    );
  }
}
