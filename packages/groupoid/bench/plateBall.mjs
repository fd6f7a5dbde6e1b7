// Benchmark of the plate-ball trajectory solver `solvePlateBall` (spec 003 §8.2, S7): core's
// interior-point solver (OcpSolver, stage-wise KKT factorization) on the problem of
// src/ocp/plateBallSteering.ts. Run after a build (`pnpm bench`); the comparison with IPOPT and
// the SO(3) steering problem are in bench/js/ocp.mjs (RESULTS.md section 5).
//
// Problem: S7 with Ω = 0.5, ψ = +0.3 (start (0, 0, I), end (0, 0, exp(ψE3)), r = 1, c = 0,
// counter-clockwise circle guess), h = 1/n.
//
// 1. Time per interior-point iteration for n = 250, 500, 1000, 2000, 4000: the whole solve (guess, all
//    iterations with their line searches, final diagnostics) divided by its iteration count,
//    median over REPS solves after a warm-up; and the least-squares slope of log(time/iteration)
//    against log(n) (target ≤ 1.1: linear cost per iteration).
// 2. The full S7 solve at n = 1000 (target < 1 s), median of REPS.
//
// GEOMECH_GROUPOID_DIST=/path/to/index.js points at another build of @geomech/groupoid (the
// timing harness comes from ../../core/bench/harness.mjs; GEOMECH_CORE_DIST works there).
import { pathToFileURL } from 'node:url';
import { fmt, median, slope } from '../../core/bench/harness.mjs';

const libUrl = process.env.GEOMECH_GROUPOID_DIST
  ? pathToFileURL(process.env.GEOMECH_GROUPOID_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;
const { axisAngleToRotation, solvePlateBall } = await import(libUrl);

const SIZES = [250, 500, 1000, 2000, 4000];
const REPS = 9;
const EXPONENT_TARGET = 1.1;
const S7_N = 1000;
const S7_TARGET_MS = 1000;

const problem = (n) => ({
  r: 1,
  Omega: 0.5,
  c: 0,
  n,
  start: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0) },
  end: { x: 0, y: 0, R: axisAngleToRotation(0, 0, 0.3) },
  loop: 1,
});

/** Median wall time (ms) of REPS solves after one warm-up, and the last result. */
function timeSolve(n) {
  const opts = problem(n);
  let sol = solvePlateBall(opts); // warm-up (JIT)
  const ms = [];
  for (let rep = 0; rep < REPS; rep++) {
    const t0 = performance.now();
    sol = solvePlateBall(opts);
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), min: Math.min(...ms), max: Math.max(...ms), sol };
}

let failed = false;
const rows = [];
const perIteration = [];
const runs = new Map();
for (const n of SIZES) {
  const t = timeSolve(n);
  runs.set(n, t);
  const it = t.sol.iterations;
  const msPerIt = t.ms / it;
  perIteration.push(msPerIt);
  if (!t.sol.converged) failed = true;
  rows.push(
    `| ${n} | ${8 * n - 5} | ${t.sol.converged ? 'yes' : 'NO'} | ${it} | ${fmt(t.ms, 1)} (${fmt(t.min, 1)}–${fmt(t.max, 1)}) | ${fmt(msPerIt, 2)} | ${fmt((msPerIt * 1e6) / n, 0)} | ${t.sol.cost.toFixed(8)} | ${t.sol.residualNorm.toExponential(1)} |`,
  );
}
const p = slope(SIZES, perIteration);
if (!(p <= EXPONENT_TARGET)) failed = true;
const s7run = runs.get(S7_N) ?? timeSolve(S7_N);
if (!(s7run.ms < S7_TARGET_MS) || !s7run.sol.converged) failed = true;

console.log(
  '## Groupoid: plate-ball trajectory solver (S7, Ω = 0.5, ψ = 0.3, full Newton, banded LU)',
);
console.log('');
console.log(
  '| n | unknowns 8n−5 | converged | iterations | solve ms median (min–max) | ms / iteration | ns / iteration / step | cost Σ L̂ | ‖F‖∞ |',
);
console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log('');
console.log(
  `Fitted exponent of time per iteration vs n: ${fmt(p, 3)} (target ≤ ${EXPONENT_TARGET}) — ${p <= EXPONENT_TARGET ? 'ok' : 'MISSED'}`,
);
console.log(
  `Full S7 solve at n = ${S7_N}: ${fmt(s7run.ms, 1)} ms median (${fmt(s7run.min, 1)}–${fmt(s7run.max, 1)}), ${s7run.sol.iterations} iterations, cost ${s7run.sol.cost.toFixed(8)} (target < ${S7_TARGET_MS} ms) — ${s7run.ms < S7_TARGET_MS && s7run.sol.converged ? 'ok' : 'MISSED'}`,
);
if (failed) process.exitCode = 1;
