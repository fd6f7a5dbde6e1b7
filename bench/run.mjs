#!/usr/bin/env node
// The geomech benchmark suite: runs every benchmark in one process tree and writes
// bench/RESULTS.md. Run after `pnpm build` (the section scripts import the built packages):
//
//   node bench/run.mjs            full run (≈ 3–5 min on 2 cores), writes bench/RESULTS.md
//   node bench/run.mjs --quick    shorter batches and smaller sizes (for trying changes)
//   options: --no-c, --no-python (skip those parts; --no-c also skips the C++ IPOPT driver),
//            --out=<file> (default bench/RESULTS.md)
//
// Every measurement runs in its own Node process (`node bench/js/<script>.mjs --json --only=<id>`
// or the package benches under packages/*/bench), so no row inherits the JIT feedback of another;
// the C references (bench/c, packages/contact/bench/c) are compiled with `cc -O2
// -ffp-contract=off` into a temporary directory and timed in the same run; the Python peers
// (bench/python) run when python3 with numpy and scipy is present. Missing cc or Python is
// reported in RESULTS.md, never an error. See bench/README.md for what each row means.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ipoptSection } from './lib/ipopt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const QUICK = process.argv.includes('--quick');
const NO_C = process.argv.includes('--no-c');
const NO_PY = process.argv.includes('--no-python');
const OUT = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? join(HERE, 'RESULTS.md');
const started = Date.now();
const failures = [];

const log = (msg) => process.stdout.write(`${msg}\n`);

// -------------------------------------------------------------------------------------------
// machine

function firstLine(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return `${r.stdout}${r.stderr}`.trim().split('\n')[0];
}

function cpuModel() {
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

function pythonInfo() {
  const v = spawnSync(
    'python3',
    [
      '-c',
      'import sys, json\ntry:\n import numpy, scipy\n print(json.dumps([sys.version.split()[0], numpy.__version__, scipy.__version__]))\nexcept ImportError:\n print(json.dumps([sys.version.split()[0], None, None]))',
    ],
    { encoding: 'utf8' },
  );
  if (v.error || v.status !== 0) return { python: null, numpy: null, scipy: null };
  const [python, numpy, scipy] = JSON.parse(v.stdout.trim());
  return { python, numpy, scipy };
}

const machine = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  cpu: cpuModel(),
  cores: os.cpus().length,
  memoryGB: os.totalmem() / 2 ** 30,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  cc: NO_C ? null : firstLine('cc', ['--version']),
  ...(NO_PY ? { python: null, numpy: null, scipy: null } : pythonInfo()),
  load: os.loadavg(),
};
const HAVE_PY = machine.python !== null && machine.numpy !== null && machine.scipy !== null;

for (const pkg of ['core', 'contact', 'dirac', 'groupoid']) {
  if (!existsSync(join(ROOT, 'packages', pkg, 'dist', 'index.js'))) {
    console.error(`packages/${pkg}/dist/index.js is missing: run \`pnpm build\` first.`);
    process.exit(2);
  }
}

// -------------------------------------------------------------------------------------------
// running things

/** Runs a section script for one id (or all) and returns its `@@RESULT` JSON, or null. */
function runNode(script, args = [], nodeArgs = []) {
  const full = [...nodeArgs, join(ROOT, script), '--json', ...(QUICK ? ['--quick'] : []), ...args];
  const r = spawnSync(process.execPath, full, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('@@RESULT '));
  if (r.status !== 0 || !line) {
    failures.push(`${script} ${args.join(' ')}: exit ${r.status}`);
    log(`  ! ${script} ${args.join(' ')} failed (exit ${r.status})`);
    return null;
  }
  return JSON.parse(line.slice(9));
}

/** Every id of a script, each in its own process: `{ id: result }`. */
function runEach(script, key = 'results') {
  const list = runNode(script, ['--list']);
  const out = {};
  for (const id of list?.ids ?? []) {
    log(`- ${script} ${id}`);
    const r = runNode(script, [`--only=${id}`]);
    if (!r) continue;
    if (key === 'rows') out[id] = r.rows[0];
    else out[id] = r.results[id];
  }
  return out;
}

let tmp = null;
/** Compiles a C file; returns the binary path or null (no cc, or --no-c). */
function compile(name, src) {
  if (!machine.cc) return null;
  tmp ??= mkdtempSync(join(os.tmpdir(), 'geomech-bench-'));
  const bin = join(tmp, name);
  const r = spawnSync('cc', ['-O2', '-ffp-contract=off', '-o', bin, join(ROOT, src), '-lm'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    failures.push(`cc ${src}: ${r.stderr}`);
    log(`  ! cc ${src} failed:\n${r.stderr}`);
    return null;
  }
  return bin;
}

function runJson(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    failures.push(`${cmd} ${args.join(' ')}: ${r.stderr}`);
    log(`  ! ${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
    return null;
  }
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// -------------------------------------------------------------------------------------------
// measure

log(`geomech benchmarks${QUICK ? ' (quick)' : ''}: ${machine.cpu}, ${machine.cores} cores`);
log('Section 1: per-step cost');
const contact = runEach('bench/js/contact.mjs');
const diracRows = runEach('packages/dirac/bench/integrators.mjs', 'rows');
const groupoid = runEach('bench/js/groupoid.mjs');

log('Section 2: scaling');
log('- packages/dirac/bench/zieglerScaling.mjs');
const zieglerScaling = runNode('packages/dirac/bench/zieglerScaling.mjs');
const diracSteps = runEach('bench/js/dirac.mjs');
const bvp = runEach('bench/js/bvp.mjs');

log('Section 3: limits vs C');
// TypeScript and C alternate in ROUNDS rounds and each side keeps its best (lowest-median) round,
// so that a load spike on the shared machine during one of them does not decide the ratio.
const ROUNDS = QUICK ? 1 : 3;
const STEPS = contact.agreement?.steps ?? 1_000_000;
const LU_CALLS = QUICK ? 500_000 : 1_000_000;
const PB_RUNS = QUICK ? 500 : 2000;
const RB_RUNS = QUICK ? 50 : 200;
const LD_RUNS = QUICK ? 20 : 100;
const cRuns = {};
const kernels = {};
const s3js = {};
const best = (a, b) => (!a || (b && b.median < a.median) ? b : a);
const bestRun = (a, b, get) => (!a || (b && get(b) < get(a)) ? b : a);
{
  const mid = compile('midpoint_pendulum', 'packages/contact/bench/c/midpoint_pendulum.c');
  const cos = compile(
    'contact_oscillator_step',
    'packages/contact/bench/c/contact_oscillator_step.c',
  );
  const lu = compile('lu8', 'bench/c/lu8.c');
  const pb = compile('plateball_step', 'bench/c/plateball_step.c');
  const rbc = compile('rigidbody_step', 'bench/c/rigidbody_step.c');
  const ldc = compile('lagrange_dirac_step', 'bench/c/lagrange_dirac_step.c');
  const zrc = compile('ziegler_rattle_step', 'bench/c/ziegler_rattle_step.c');
  for (let round = 1; round <= ROUNDS; round++) {
    log(`- round ${round}/${ROUNDS}`);
    for (const [id, gamma] of [
      ['contact-midpoint-pendulum-damped', -0.1],
      ['contact-midpoint-pendulum', 0],
    ]) {
      const js = runNode('bench/js/contact.mjs', [`--only=${id}`, '--hot-only'])?.results[id];
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.median);
      if (mid) {
        const c = runJson(mid, [String(STEPS), String(gamma), '7']);
        cRuns[`midpoint ${gamma}`] = bestRun(cRuns[`midpoint ${gamma}`], c, (r) => r.nsPerStep);
        if (round === 1)
          cRuns[`midpoint ${gamma} check`] = runJson(mid, ['2000', String(gamma), '1']);
      }
    }
    // the ContactIntegrator step with the exact and the implicit-z L_d (its dedicated n = 1 step,
    // packages/contact/src/kernels.ts; CPU ns/step)
    for (const [id, method] of [
      ['contact-exact-oscillator', 'exact'],
      ['contact-implicit-z-oscillator', 'implicit-z'],
    ]) {
      const js = runNode('bench/js/contact.mjs', [`--only=${id}`, '--hot-only'])?.results[id];
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.cpu);
      if (cos)
        cRuns[id] = bestRun(
          cRuns[id],
          runJson(cos, [method, String(js?.steps ?? STEPS), '7']),
          (r) => r.nsPerStep,
        );
    }
    for (const id of ['lu8-dense', 'lu8-kernels']) {
      const r = runNode('bench/js/kernels.mjs', [`--only=${id}`, `--calls=${LU_CALLS}`])?.results[
        id
      ];
      kernels[id] = best(kernels[id], r);
    }
    if (lu)
      cRuns.lu8 = bestRun(cRuns.lu8, runJson(lu, ['8', String(LU_CALLS), '7']), (r) => r.nsPerCall);
    for (const map of ['cayley', 'exp']) {
      const id = `rigid-body-${map}`;
      const js = runNode('bench/js/groupoid.mjs', [`--only=${id}`, '--hot-only'])?.results[id];
      // CPU ns/step on both sides (js: hot.cpu, C: cpuNsPerStep)
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.cpu);
      if (rbc)
        cRuns[id] = bestRun(
          cRuns[id],
          runJson(rbc, [map, '1000', String(RB_RUNS), '7']),
          (r) => r.cpuNsPerStep,
        );
    }
    // the dirac families (issue 20): CPU ns/step on both sides (js: hot.cpu)
    for (const sign of ['plus', 'minus']) {
      const id = `ld-${sign}-disk`;
      const js = runNode('packages/dirac/bench/integrators.mjs', [`--only=${id}`])?.rows[0];
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.cpu);
      if (ldc)
        cRuns[id] = bestRun(
          cRuns[id],
          runJson(ldc, [sign, '2000', String(LD_RUNS), '7']),
          (r) => r.nsPerStep,
        );
    }
    for (const links of [8, 64]) {
      const id = `rattle-ziegler-${links}`;
      const js = runNode('packages/dirac/bench/integrators.mjs', [`--only=${id}`])?.rows[0];
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.cpu);
      if (zrc && js?.load !== undefined)
        cRuns[id] = bestRun(
          cRuns[id],
          runJson(zrc, [
            String(links),
            String(js.load),
            String(links >= 32 ? 500 : 2000),
            String(links >= 32 ? 4 : 10),
            '7',
          ]),
          (r) => r.nsPerStep,
        );
    }
    {
      const id = 'plate-ball-full';
      const js = runNode('bench/js/groupoid.mjs', [`--only=${id}`, '--hot-only'])?.results[id];
      if (js) s3js[id] = bestRun(s3js[id], js, (r) => r.hot.cpu);
      if (pb)
        cRuns.plateball = bestRun(
          cRuns.plateball,
          runJson(pb, ['200', String(PB_RUNS), '7']),
          (r) => r.cpuNsPerStep,
        );
    }
  }
}

log('Section 4: peers');
const peers = runEach('bench/js/peers.mjs');
const py = {};
if (HAVE_PY) {
  log('- python contact_midpoint.py');
  py.contact = runJson('python3', [
    join(HERE, 'python/contact_midpoint.py'),
    QUICK ? '50000' : '200000',
    '5',
  ]);
  log('- python pendulum_ivp.py');
  py.pendulum = runJson('python3', [join(HERE, 'python/pendulum_ivp.py'), '5']);
  log('- python plateball_bvp.py');
  py.bvp = runJson('python3', [
    join(HERE, 'python/plateball_bvp.py'),
    ...(QUICK ? ['30'] : ['30', '60', '120']),
  ]);
}

// Section 5: the IPOPT reference driver (bench/ipopt, C++; bench/js/ipopt.mjs builds it when
// IPOPT's headers are present and emits { skipped } with the reason when not)
log('Section 5: optimal control, IPOPT reference');
const ipopt = NO_C ? { skipped: 'IPOPT driver skipped: --no-c' } : runNode('bench/js/ipopt.mjs');
if (ipopt?.skipped) log(`  ${ipopt.skipped}`);
// the geomech column (bench/js/ocp.mjs: in-process solves of the same problems on groupoid's
// solveSo3Steering/solvePlateBall; --expose-gc for the bytes per iteration); it runs with or
// without IPOPT
log('Section 5: optimal control, geomech (bench/js/ocp.mjs)');
const ocp = runNode('bench/js/ocp.mjs', [], ['--expose-gc', '--max-semi-space-size=64']);
if (tmp) rmSync(tmp, { recursive: true, force: true });

log('Section 6: sweeps on worker threads');
log('- packages/cli/bench/sweep.mjs');
const sweep = runNode('packages/cli/bench/sweep.mjs');

// -------------------------------------------------------------------------------------------
// format

const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const e1 = (x) => (Number.isFinite(x) ? x.toExponential(1) : '—');
/** A time with adaptive precision. */
const ft = (x) =>
  !Number.isFinite(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const range = (s) => (s ? `${ft(s.median)} (${ft(s.min)}–${ft(s.max)})` : '—');
const bytes = (b) => (Number.isFinite(b) ? (Math.abs(b) < 0.5 ? '0' : b.toFixed(0)) : '—');
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '—');
const md = [];
const p = (s = '') => md.push(s);

// Section 3 data first (the headline table uses it)
const limits = [];
/** { median, min, max } of the CPU ns/step of a section-3 JS hot path (bench/js/groupoid.mjs). */
const cpuStats = (hot) => ({ median: hot.cpu, min: hot.cpuMin, max: hot.cpuMax });
// the dirac families against their C references (CPU ns/step on both sides; issue 20)
const diracVsC = [];
for (const [id, what] of [
  ['ld-plus-disk', 'Lagrange–Dirac (+), free rolling disk (6×6 Newton)'],
  ['ld-minus-disk', 'Lagrange–Dirac (−), free rolling disk (6×6 Newton)'],
  ['rattle-ziegler-8', 'RATTLE, Ziegler column n = 8 (banded)'],
  ['rattle-ziegler-64', 'RATTLE, Ziegler column n = 64 (banded)'],
]) {
  const js = s3js[id];
  const c = cRuns[id];
  diracVsC.push({
    family: 'dirac',
    what: `${what}, CPU time`,
    label: `dirac ${id}`,
    bytes: js?.bytes,
    js: js ? { median: js.hot.cpu } : null,
    c: c ? { median: c.nsPerStep } : null,
  });
}
// the contact step of ContactIntegrator (its dedicated n = 1 step for these two L_d, bit-identical
// to the generic path) against its C reference (CPU ns/step on both sides)
const contactVsC = [];
for (const [id, what] of [
  ['contact-exact-oscillator', 'exact L_d (§8.2), damped oscillator (ContactIntegrator)'],
  [
    'contact-implicit-z-oscillator',
    'implicit-z midpoint (§7.4), damped oscillator (ContactIntegrator)',
  ],
]) {
  const js = s3js[id];
  const c = cRuns[id];
  const f = js?.final;
  const gap =
    f && c ? Math.max(Math.abs(f.q - c.q), Math.abs(f.p - c.p), Math.abs(f.z - c.z)) : NaN;
  contactVsC.push({
    family: 'contact',
    what: `${what}, CPU time`,
    label: `contact ${id}`,
    bytes: contact[id]?.bytes,
    js: js ? { median: js.hot.cpu } : null,
    c: c ? { median: c.nsPerStep } : null,
    agreement: f && c ? `${js.steps} restarted steps: \\|Δ(q, p, z)\\| = ${e1(gap)}` : '',
  });
}
{
  const cm = (g) => cRuns[`midpoint ${g}`];
  for (const [id, g, label] of [
    ['contact-midpoint-pendulum-damped', -0.1, 'contact midpoint step, damped pendulum γ = −0.1'],
    ['contact-midpoint-pendulum', 0, 'contact midpoint step, pendulum γ = 0 (1 Newton its/step)'],
  ]) {
    const js = s3js[id];
    const c = cm(g);
    const agree = [];
    if (c && contact.agreement) {
      for (const [steps, cr] of [
        [STEPS, c],
        [2000, cRuns[`midpoint ${g} check`]],
      ]) {
        const jr = contact.agreement.runs.find((r) => r.gamma === g && r.steps === steps);
        if (jr && cr) {
          const dq = Math.abs(jr.q - cr.q);
          agree.push(
            `${steps} steps: \\|Δq\\| = ${e1(dq)}, Newton ${jr.iterations}/${cr.iterations}${dq <= 1e-9 && jr.iterations === cr.iterations ? '' : ' **MISMATCH**'}`,
          );
        }
      }
    }
    limits.push({
      label,
      unit: 'ns/step',
      js: js?.hot,
      c: c ? { median: c.nsPerStep, min: c.min, max: c.max } : null,
      target: 3,
      agreement: agree.join('; '),
    });
  }
  const c = cRuns.lu8;
  for (const [id, label] of [
    ['lu8-dense', '8×8 LU factor + solve: core DenseLU'],
    ['lu8-kernels', '8×8 LU factor + solve: core kernels (luFactorInPlace + luSolveInPlace)'],
  ]) {
    const js = kernels[id];
    limits.push({
      label,
      unit: 'ns/call',
      js,
      c: c ? { median: c.nsPerCall, min: c.min, max: c.max } : null,
      target: 2,
      agreement:
        js && c
          ? `checksum over ${(8 * js.calls).toExponential(0)} solves: ${js.checksum === c.checksum ? 'identical' : `JS ${js.checksum} vs C ${c.checksum}`}`
          : '',
    });
  }
  for (const map of ['cayley', 'exp']) {
    const id = `rigid-body-${map}`;
    const js = s3js[id];
    const c = cRuns[id];
    let agree = '';
    if (js?.final && c) {
      let d = 0;
      for (let i = 0; i < 3; i++) d = Math.max(d, Math.abs(js.final.xi[i] - c.xi[i]));
      for (let i = 0; i < 9; i++) d = Math.max(d, Math.abs(js.final.G[i] - c.G[i]));
      agree = `1000 steps: \\|Δ(G, ξ)\\| = ${e1(d)}, Newton ${js.final.iterations}/${c.iterations}${d <= 1e-12 && js.final.iterations === c.iterations ? '' : ' **MISMATCH**'}`;
    }
    limits.push({
      label: `rigid body Lie–Poisson step (S3), ${map === 'cayley' ? 'Cayley' : 'exp'}, CPU time`,
      unit: 'ns/step',
      js: js ? cpuStats(js.hot) : null,
      c: c ? { median: c.cpuNsPerStep, min: c.cpuMin, max: c.cpuMax } : null,
      target: 3,
      agreement: agree,
      family: 'groupoid',
      bytes: groupoid[id]?.bytes ?? js?.bytes,
    });
  }
  const pb = s3js['plate-ball-full'];
  const cp = cRuns.plateball;
  let agreePb = '';
  if (pb && cp) {
    const cIts = cp.iterations / cp.runs;
    const dx = Math.max(Math.abs(pb.final.x - cp.x), Math.abs(pb.final.y - cp.y));
    agreePb = `200 steps: \\|Δ(x, y)\\| = ${e1(dx)}, \\|Δλ3\\| = ${e1(Math.abs(pb.final.lambda3 - cp.lambda3))}, Newton ${pb.final.iterations}/${cIts}`;
  }
  limits.push({
    label: 'plate-ball Newton step (§8.2), CPU time, per step',
    unit: 'ns/step',
    js: pb ? cpuStats(pb.hot) : null,
    c: cp ? { median: cp.cpuNsPerStep, min: cp.cpuMin, max: cp.cpuMax } : null,
    target: 3,
    agreement: agreePb,
  });
  if (pb && cp) {
    const its = cp.iterations / (cp.runs * cp.steps);
    limits.push({
      label: 'plate-ball Newton step (§8.2), CPU time, per Newton iteration',
      unit: 'ns/iteration',
      js: {
        median: pb.hot.cpu / pb.iterations,
        min: pb.hot.cpuMin / pb.iterations,
        max: pb.hot.cpuMax / pb.iterations,
      },
      c: { median: cp.cpuNsPerStep / its, min: cp.cpuMin / its, max: cp.cpuMax / its },
      target: 3,
      agreement: `${f2(pb.iterations)} / ${f2(its)} iterations per step`,
    });
  }
}

p('# geomech benchmark results');
p();
p(
  `Generated by \`node bench/run.mjs${QUICK ? ' --quick' : ''}\` on ${machine.date} in ${f0((Date.now() - started) / 1000)} s. Do not edit: re-run to update. What every row measures: [README.md](README.md).`,
);
p();
p('| machine | |');
p('|---|---|');
p(`| CPU | ${machine.cpu} |`);
p(`| cores | ${machine.cores} |`);
p(`| memory | ${f1(machine.memoryGB)} GB |`);
p(`| OS | ${machine.platform} |`);
p(`| Node | ${machine.node} |`);
p(`| C compiler | ${machine.cc ?? 'absent (C rows skipped)'} |`);
p(
  `| Python / numpy / scipy | ${machine.python ?? 'absent'} / ${machine.numpy ?? 'absent'} / ${machine.scipy ?? 'absent'} |`,
);
p(
  `| load average at start / end (1/5/15 min) | ${machine.load.map(f2).join(' / ')} — ${os.loadavg().map(f2).join(' / ')} |`,
);
p();
p(
  'Times are wall-clock medians with the min–max over the repeated runs (≥ 5 unless a row says otherwise). On a shared or virtualized machine the median of the same row can move by tens of percent between runs minutes apart (up to ±40% on the 2-core VM of the committed results): read the spread and the ratios, not single digits. Section 3 alternates TypeScript and C over three rounds for that reason.',
);
p();

// headline
p('## Headline ratios');
p();
p('| comparison | ratio | target |');
p('|---|---:|---:|');
for (const l of limits) {
  if (!l.js || !l.c || l.label.endsWith('per step')) continue;
  const r = l.js.median / l.c.median;
  p(
    `| ${l.label}: TypeScript / C | ${r.toFixed(2)}× | ≤ ${l.target}× ${r <= l.target ? '✓' : '✗'} |`,
  );
}
if (py.contact && contact['contact-midpoint-pendulum']) {
  p(
    `| contact midpoint loop: Python (math, hand Newton) / TypeScript | ${ratio(py.contact.math.median, contact['contact-midpoint-pendulum'].hot.median)} | |`,
  );
  p(
    `| contact midpoint loop: numpy / TypeScript | ${ratio(py.contact.numpy.median, contact['contact-midpoint-pendulum'].hot.median)} | |`,
  );
}
const ladder = peers['pendulum-ladder'];
if (py.pendulum && ladder) {
  const s = py.pendulum.runs.find((r) => r.method === 'RK45' && r.rtol === 1e-10);
  const d = ladder.dopri.find((r) => r.rtol === 1e-10);
  if (s && d)
    p(
      `| pendulum to T = 10, rtol 1e-10: scipy solve_ivp RK45 / core integrateDopri5 | ${ratio(s.ms.median, d.ms.median)} | |`,
    );
}
if (py.bvp && peers['plate-ball-bvp-small']) {
  for (const r of py.bvp.runs) {
    const o = peers['plate-ball-bvp-small'].find((q) => q.n === r.n);
    if (o)
      p(
        `| plate-ball BVP n = ${r.n}: scipy least_squares / solvePlateBall | ${ratio(r.ms.median, o.ms.median)} | |`,
      );
  }
}
for (const s of [
  zieglerScaling?.studies?.[0],
  zieglerScaling?.studies?.[1],
  bvp['bvp-plate-ball'],
  bvp['bvp-so3-steering'],
  contact['steps-contact-midpoint'],
  diracSteps['steps-dirac2c'],
]) {
  if (s && !s.pending) p(`| fitted exponent: ${s.title} vs ${s.xLabel} | ${f2(s.exponent)} | |`);
}
p();

// Section 1
p('## 1. Per-step cost of every integrator family on its reference system');
p();
p(
  'Hot path: the one-step method on preallocated state (restarts included, see "protocol"), ns/step over 5 timed batches of ~150 ms after a warm-up batch. B/step: heap growth between forced GCs per step (0 = allocation-free; 16 B is one boxed double; a few tens of bytes that show in one run and not the next come from JIT activity during the measurement). Driver: the package\'s trajectory function over one protocol period, recording only the first and last state.',
);
p();
p(
  '| family | system | method | h | hot path ns/step median (min–max) | B/step | Newton its/step | driver ns/step | protocol |',
);
p('|---|---|---|---:|---:|---:|---:|---:|---|');
const s1 = [
  ...Object.values(contact).filter((r) => r?.family),
  ...Object.values(diracRows),
  ...Object.values(groupoid),
];
for (const r of s1) {
  if (!r) continue;
  if (r.pending) {
    p(`| ${r.family} | ${r.system} | ${r.method} | ${r.h} | pending: ${r.pending} | | | | |`);
    continue;
  }
  p(
    `| ${r.family} | ${r.system} | ${r.method} | ${r.h} | ${range(r.hot)} | ${bytes(r.bytes)} | ${f2(r.iterations)} | ${range(r.driver)} | ${r.protocol} |`,
  );
}
p();

// Section 2
p('## 2. Scaling studies');
p();
function scalingTable(s, unit, cols) {
  p(`### ${s.title}`);
  p();
  if (s.pending) {
    p(`Pending: ${s.pending}.`);
    p();
    return;
  }
  p(`| ${s.xLabel} | ${unit} median (min–max) | ${cols.map((c) => c[0]).join(' | ')} |`);
  p(`|---:|---:|${cols.map(() => '---:').join('|')}|`);
  for (const pt of s.points) {
    const t = pt.ms ?? pt;
    p(`| ${pt.x} | ${range(t)} | ${cols.map((c) => c[1](pt)).join(' | ')} |`);
  }
  p();
}
for (const s of [contact['steps-contact-midpoint'], diracSteps['steps-dirac2c']]) {
  if (!s) continue;
  scalingTable(s, 'ms per simulation', [['ns/step', (pt) => f1(pt.nsPerStep)]]);
  p(`Fitted log-log exponent of time against N: **${f2(s.exponent)}** (1 = linear).`);
  p();
}
for (const s of [bvp['bvp-plate-ball'], bvp['bvp-so3-steering']]) {
  if (!s) continue;
  scalingTable(s, 'ms per solve', [
    ['iterations', (pt) => pt.iterations],
    ['ms/iteration', (pt) => f2(pt.msPerIteration)],
    ['converged', (pt) => (pt.converged ? 'yes' : 'NO')],
    ['cost', (pt) => pt.cost.toFixed(8)],
    ['‖F‖∞', (pt) => e1(pt.residualNorm)],
  ]);
  if (!s.pending && s.primary === 'total')
    p(
      `Fitted exponent of the whole solve against n: **${f2(s.exponentTotal)}** (1 = linear; the solve from the geodesic guess takes 1–2 iterations, so ms/iteration mixes in the guess; exponent ${f2(s.exponentPerIteration)}).`,
    );
  else if (!s.pending)
    p(
      `Fitted exponent of ms/iteration against n: **${f2(s.exponentPerIteration)}** (1 = linear cost per iteration); of the whole solve: ${f2(s.exponentTotal)}.`,
    );
  p();
}
for (const s of zieglerScaling?.studies ?? []) {
  scalingTable(s, 'ns/step', [
    ['CPU ns/step', (pt) => ft(pt.cpu)],
    ['B/step', (pt) => bytes(pt.bytes)],
    ['Newton its/step', (pt) => (pt.iterations === undefined ? '—' : f2(pt.iterations))],
  ]);
  p(
    `Fitted exponent of CPU ns/step against n: **${f2(s.exponent)}** over all n, ${f2(s.exponentLarge)} for n ≥ 8; of wall ns/step ${f2(s.exponentWall)} (the column's constraint band: C(q) in band storage, the tridiagonal C M⁻¹ Cᵀ and RATTLE Jacobian factored by core's BandLU, O(n) per step).`,
  );
  p();
}

// Section 3
p('## 3. Limits: TypeScript against minimal C');
p();
if (!machine.cc) p('No C compiler (`cc`) on PATH: the C rows were skipped.');
else {
  p(
    `C compiled with \`cc -O2 -ffp-contract=off\` (no FMA contraction, so both languages round alike) and timed in the same run: packages/contact/bench/c/midpoint_pendulum.c (${STEPS} steps per run), packages/contact/bench/c/contact_oscillator_step.c (the same steps, CPU time), bench/c/lu8.c (${LU_CALLS} calls per run), bench/c/plateball_step.c (${PB_RUNS} runs of 200 steps), bench/c/rigidbody_step.c (${RB_RUNS} runs of 1000 steps); the rigid-body, plate-ball and contact-oscillator rows compare CPU time on both sides (process.cpuUsage, CLOCK_PROCESS_CPUTIME_ID). The TypeScript side is the section-1 hot path (bench/js/kernels.mjs for the LU), re-measured here: TypeScript and C alternate in ${ROUNDS} round(s) and each side shows its best round (lowest median; a load spike on a shared machine then does not decide the ratio).`,
  );
  p();
  p(
    '| kernel | unit | TypeScript median (min–max) | C median (min–max) | TS/C | target | agreement |',
  );
  p('|---|---|---:|---:|---:|---:|---|');
  for (const l of limits) {
    const r = l.js && l.c ? l.js.median / l.c.median : Number.NaN;
    p(
      `| ${l.label} | ${l.unit} | ${range(l.js)} | ${range(l.c)} | ${ratio(l.js?.median, l.c?.median)} | ≤ ${l.target}× ${Number.isFinite(r) ? (r <= l.target ? '✓' : '✗') : ''} | ${l.agreement} |`,
    );
  }
  p();
  p('### Every family against C');
  p();
  p(
    'ns/step of the section-1 hot path (best round of the alternation above) against the C reference of the same step (same Newton stopping rule, same operation order, `cc -O2 -ffp-contract=off`), and the allocation per step of the TypeScript step. Families without a C reference are not listed (see README.md).',
  );
  p();
  p('| family | step | TypeScript ns/step | C ns/step | TS/C | B/step |');
  p('|---|---|---:|---:|---:|---:|');
  const fam = [
    [
      'contact',
      'midpoint (79), damped pendulum γ = −0.1',
      'contact midpoint step, damped pendulum',
      contact['contact-midpoint-pendulum-damped']?.bytes,
    ],
    [
      'contact',
      'midpoint (79), pendulum γ = 0',
      'contact midpoint step, pendulum γ = 0',
      contact['contact-midpoint-pendulum']?.bytes,
    ],
    [
      'groupoid',
      'rigid body Lie–Poisson, Cayley (S3), CPU time',
      'rigid body Lie–Poisson step (S3), Cayley',
      groupoid['rigid-body-cayley']?.bytes,
    ],
    [
      'groupoid',
      'rigid body Lie–Poisson, exp (S3), CPU time',
      'rigid body Lie–Poisson step (S3), exp',
      groupoid['rigid-body-exp']?.bytes,
    ],
    [
      'groupoid',
      'plate-ball stepForward (S5, 8×8 Newton), CPU time',
      'plate-ball Newton step (§8.2), CPU time, per step',
      groupoid['plate-ball-full']?.bytes,
    ],
    ...contactVsC.map((d) => [d.family, d.what, d.label, d.bytes]),
    ...diracVsC.map((d) => [d.family, d.what, d.label, d.bytes]),
  ];
  for (const [family, what, label, b] of fam) {
    const l = [...limits, ...contactVsC, ...diracVsC].find((x) => x.label.startsWith(label));
    if (!l?.js || !l.c) continue;
    p(
      `| ${family} | ${what} | ${ft(l.js.median)} | ${ft(l.c.median)} | ${ratio(l.js.median, l.c.median)} | ${bytes(b)} |`,
    );
  }
  p();
  const lr = (label) => {
    const l = limits.find((x) => x.label.startsWith(label));
    return l?.js && l.c ? (l.js.median / l.c.median).toFixed(1) : '?';
  };
  const cAgree = contactVsC.filter((d) => d.agreement);
  if (cAgree.length > 0) {
    p(
      `Agreement of the contact ContactIntegrator rows with packages/contact/bench/c/contact_oscillator_step.c (state after the last 4000-step restart period): ${cAgree.map((d) => `${d.label.slice(8)}: ${d.agreement}`).join('; ')}.`,
    );
    p();
  }
  p('Where the time goes (node --cpu-prof of the TypeScript rows; details in README.md):');
  p();
  p(
    `- **8×8 LU.** The bare kernels (luFactorInPlace + luSolveInPlace) run at ${lr('8×8 LU factor + solve: core kernels')}× C: V8 bounds-checks every typed-array access and does not vectorize the row updates, which gcc -O2 does. DenseLU (${lr('8×8 LU factor + solve: core DenseLU')}× C) adds the per-call bookkeeping the integrators rely on: the copy of A, a finiteness check, the copy kept for the condition estimate's ‖A‖₁ and the solve guards. The finiteness check is one branch-free sum and ‖A‖₁ is computed only when conditionEstimate asks for it (both changed while building this suite: −15% per factor + solve); what remains is mostly not that bookkeeping. Measured per factor (CPU, one process each, machine at load ~14, ±15 % run to run): DenseLU 946–997 ns; a replica of DenseLU.factor 974 with its bookkeeping, 915 without the finiteness check, 1021 without the copy for ‖A‖₁, 998 without both; luFactorInPlace on module-level \`let\` arrays 833, on module-level \`const\` arrays (the kernels row) 640–866 — V8 constant-folds the latter (and their lengths) into the benchmark loop and drops bounds checks it must keep on the arrays of an object, DenseLU's or any integrator's. The kernels row was therefore a lower bound that a reusable factorization object did not reach in V8 with loops; DenseLU now runs n-specialized code for n ≤ 8 (packages/core/src/linalg/luUnrolled.ts, generated by packages/core/scripts/genLuUnrolled.mjs: every index a constant, the right-hand side and the pivot row in locals, the same pivots and operations in the same order, bit-identical), which took 8×8 factor + solve from 1427 to 932 CPU ns and 6×6 factor + condition estimate + solve from 2460 to 1517 (paired in one process against the loop version, load ~10), and the Lagrange–Dirac rolling-disk steps, whose 6×6 Newton solve with its condition estimate was half the step, by 18–22 %.`,
  );
  p(
    `- **Plate-ball step** (${lr('plate-ball Newton step (§8.2), CPU time, per Newton iteration')}× C per iteration, bit-identical iterates). About half of an iteration is the 8×8 DenseLU factor + solve (above). \`stepJacobian\` used to fill the full 13×13 element Jacobian and copy the 8×8 forward block out of it (3.15× C); it now writes the 64 entries directly, as the C port does (bit-identical to the element Jacobian's block, tested), which brought the step from 3.4 to 2.9 µs.`,
  );
  p(
    '- **Contact midpoint step.** The scalar Newton path of MidpointHerglotz mirrors the C operation for operation (identical iterates, identical Newton counts); the rest is the potential called through an interface on Float64Array(1) buffers and the per-step bookkeeping (σ check, statistics).',
  );
  p(
    "- **Contact exact L_d and implicit-z steps (ContactIntegrator).** The generic step called the discrete Lagrangian's closures once per derivative (D1, D_z, D2D1, D2Dz, L_d, D2: 9.2× and 5.5× C, 88 B/step for implicit-z, whose Λ iteration and L partials ran through two more interfaces). For n = 1 and the package's own closed forms, ContactIntegrator now runs a dedicated step (packages/contact/src/kernels.ts: the same operations in the same order on doubles in locals and in the fields of one exchange object, bit-identical, 0 B/step). Slots of a Float64Array indexed by imported constants cost ~25 ns of an ~80 ns exact step (each use of an imported binding is a module-cell load with a hole check); fields of an object do not. The rest of the exact step's gap is the ContactStepper bookkeeping (σ check, the data kept for stepDerivatives) and V8's checks on doubles.",
  );
  p();
}

// Section 4
p('## 4. Peers: the same problems as research code writes them');
p();
if (!HAVE_PY) {
  p(
    `Python with numpy and scipy is not available (python3: ${machine.python ?? 'absent'}, numpy: ${machine.numpy ?? 'absent'}, scipy: ${machine.scipy ?? 'absent'}): the peer rows were skipped.`,
  );
  p();
} else {
  const js = contact['contact-midpoint-pendulum'];
  const agreeC = peers['contact-agreement'];
  p('### Contact midpoint step loop (pendulum γ = 0, h = 0.01, one Newton iteration per step)');
  p();
  p(
    '| implementation | steps per run | ns/step median (min–max) | × TypeScript | final q (vs TypeScript) |',
  );
  p('|---|---:|---:|---:|---|');
  if (js) p(`| TypeScript MidpointHerglotz.step | ${STEPS} | ${range(js.hot)} | 1 | — |`);
  for (const [k, label] of [
    ['math', 'Python loop, floats + math.sin/cos, hand Newton'],
    ['numpy', 'Python loop, 1-element numpy arrays, hand Newton'],
    ['scipy', 'Python loop, scipy.optimize.newton per step'],
  ]) {
    const r = py.contact?.[k];
    if (!r) continue;
    const ref = agreeC?.[r.steps]?.q;
    p(
      `| ${label} | ${r.steps} | ${range(r)} | ${ratio(r.median, js?.hot.median)} | ${Number.isFinite(ref) ? `\\|Δq\\| = ${e1(Math.abs(r.q - ref))}` : '—'} |`,
    );
  }
  p();
  p('### Constrained pendulum to T = 10 (θ0 = π/4, g = 9.81): work against accuracy');
  p();
  p(
    'Error = max(|x − x*|, |y − y*|) at T = 10 against the exact solution (x*, y*) = (0.21194414383058224, −0.9772817812155926) (elliptic-function formula at 30 digits). scipy and core DOPRI5 integrate the index-reduced ODE with atol = 1e-3·rtol.',
  );
  p();
  p('| method | setting | steps | error | ms median (min–max) |');
  p('|---|---|---:|---:|---:|');
  for (const r of py.pendulum?.runs ?? [])
    p(
      `| scipy solve_ivp ${r.method} | rtol ${r.rtol} | ${r.steps} (${r.fEvals} f) | ${e1(r.error)} | ${range(r.ms)} |`,
    );
  for (const r of ladder?.dopri ?? [])
    p(
      `| core integrateDopri5 | rtol ${r.rtol} | ${r.steps} (${r.fEvals} f) | ${e1(r.error)} | ${range(r.ms)} |`,
    );
  p();
  p(
    'Matched accuracy: the cheapest h = 0.01/2^j of each fixed-step method whose error is at most the scipy error.',
  );
  p();
  p('| scipy run (error, ms) | method | h | steps | error | ms | scipy ms / ours |');
  p('|---|---|---:|---:|---:|---:|---:|');
  for (const s of (py.pendulum?.runs ?? []).filter((r) => r.method === 'RK45')) {
    const head = `RK45 rtol ${s.rtol} (${e1(s.error)}, ${ft(s.ms.median)})`;
    const d = ladder?.dopri.find((r) => r.rtol === s.rtol);
    if (d)
      p(
        `| ${head} | DOPRI5 (core), same rtol | adaptive | ${d.steps} | ${e1(d.error)} | ${ft(d.ms.median)} | ${ratio(s.ms.median, d.ms.median)} |`,
      );
    for (const [name, label] of [
      ['rk4', 'RK4 (index-reduced)'],
      ['rattle', 'RATTLE'],
      ['dirac2c', 'Dirac-2c'],
    ]) {
      const rungs = ladder?.ladders[name] ?? [];
      const hit = rungs.find((r) => r.error <= s.error);
      if (hit)
        p(
          `| ${head} | ${label} | ${hit.h.toExponential(2)} | ${hit.steps} | ${e1(hit.error)} | ${ft(hit.ms.median)} | ${ratio(s.ms.median, hit.ms.median)} |`,
        );
      else if (rungs.length) {
        const best = rungs.reduce((a, b) => (b.error < a.error ? b : a));
        p(
          `| ${head} | ${label} | — | — | not reached: best ${e1(best.error)} at ${best.steps} steps (${ft(best.ms.median)} ms) | — | — |`,
        );
      }
    }
  }
  p();
  p(
    'RATTLE stalls near 1e-7 below h ≈ 4e-5: its velocity v_{k+1/2} = (q_{k+1} − q_k)/h carries a rounding error ≈ ε|q|/h per step that accumulates over the ~10⁶ steps (a floating-point floor of the scheme as written, not of the method); Dirac-2c is first order (spec 001 §5.6).',
  );
  p();
  const ours = peers['plate-ball-bvp-small'] ?? [];
  p('### Plate-ball steering BVP (S7: Ω = 0.5, ψ = 0.3, same unknowns, residual and guess)');
  p();
  p(
    'scipy.optimize.least_squares with its defaults for a square system (trf, dense 2-point finite-difference Jacobian, exact trust-region subproblem; numpy may use both cores for its dense linear algebra) against solvePlateBall (analytic banded Jacobian, BandLU, single thread).',
  );
  p();
  p(
    '| n | unknowns | scipy ms (runs) | scipy nfev / njev | scipy cost | scipy ‖F‖∞ | solvePlateBall ms median (min–max) | iterations | cost | ‖F‖∞ | scipy / ours |',
  );
  p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of py.bvp?.runs ?? []) {
    const o = ours.find((q) => q.n === r.n);
    p(
      `| ${r.n} | ${r.unknowns} | ${ft(r.ms.median)} (${r.ms.runs}) | ${r.nfev} / ${r.njev} | ${r.cost.toFixed(10)} | ${e1(r.residualNorm)} | ${o ? range(o.ms) : '—'} | ${o?.iterations ?? '—'} | ${o ? o.cost.toFixed(10) : '—'} | ${o ? e1(o.residualNorm) : '—'} | ${o ? ratio(r.ms.median, o.ms.median) : '—'} |`,
    );
  }
  p();
}

// Section 5: IPOPT's scaling studies with the geomech column of bench/js/ocp.mjs (ids and n as in
// bench/js/ipopt.mjs: so3-steering, so3-steering-gauge, plate-ball, plate-ball-gauge,
// unicycle-parking, satellite, quadrotor-flight, quadrotor-flight-thrust-bound).
for (const line of ipoptSection(ipopt, ocp)) p(line);

// Section 6: the sweep bench writes its own section
for (const line of sweep?.markdown ?? [
  '## 6. Parameter sweeps on worker threads',
  '',
  'Not measured (see Failures).',
  '',
])
  p(line);

// Section 7: the SO(3) Lie-group variational integrator against its C reference (bench/js/lgvi.mjs
// compiles bench/c/lgvi_step.c itself and alternates TS and C over 3 rounds).
log('Section 7: LGVI against C');
{
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bench/js/lgvi.mjs'), ...(QUICK ? ['--quick'] : []), ...(NO_C ? ['--no-c'] : [])],
    { encoding: 'utf8' },
  );
  p('## 7. Lie-group variational integrator (SO(3), Lee–Leok–McClamroch) against C');
  p();
  p(
    'So3LgviStepper.step (packages/groupoid/src/lgvi.ts) and bench/c/lgvi_step.c (same step, same Newton stopping rule, `cc -O2 -ffp-contract=off`), runs of 1000 steps restarted from the initial state; heavy top J = (1, 1, 2), m g = 9.81, ρ = (0, 0, 0.5), Ω₀ = (0, 0, 20); forced rigid body J = (1, 2, 3) under u = (0.1 sin t, 0.2 cos t, 0.05); h = 0.01. The last column compares the final Π of a 1000-step run (TS − C).',
  );
  p();
  if (r.status === 0) for (const line of r.stdout.trim().split('\n')) p(line);
  else failures.push(`bench/js/lgvi.mjs: ${r.stderr}`);
  p();
}

// Section 8: whole processes (start-up of `geomech`, model files against built-ins, and the whole
// `geomech simulate rigid-body` process against bench/c/rigidbody_run.c; issue 20): the start-up
// bench writes its own section (it compiles the C program itself; --no-c skips that table)
log('Section 8: whole processes');
log('- packages/cli/bench/startup.mjs');
const startup = runNode('packages/cli/bench/startup.mjs', NO_C ? ['--no-c'] : []);
for (const line of startup?.markdown ?? [
  '## 8. Whole processes: start-up and runs of `geomech` (issue 20)',
  '',
  'Not measured (see Failures).',
  '',
])
  p(line);
log('- packages/cli/bench/modelSteps.mjs');
const modelSteps = runNode('packages/cli/bench/modelSteps.mjs');
for (const line of modelSteps?.markdown ?? [
  '### Model files against the built-ins: the steps alone (in one process)',
  '',
  'Not measured (see Failures).',
  '',
])
  p(line);

if (failures.length) {
  p('## Failures');
  p();
  for (const f of failures) p(`- ${f.split('\n')[0]}`);
  p();
}

writeFileSync(OUT, `${md.join('\n')}\n`);
log(
  `wrote ${OUT} in ${f0((Date.now() - started) / 1000)} s${failures.length ? ` with ${failures.length} failure(s)` : ''}`,
);
if (failures.length) process.exitCode = 1;
