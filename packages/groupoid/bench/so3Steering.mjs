// Benchmark of the full-trajectory solver of SO(3) sub-Riemannian steering (spec 003 §8.1, S4):
// the time of ONE Newton (Levenberg–Marquardt) iteration of the banded BVP, for n = 250 … 4000
// increments (4n − 3 unknowns, block-tridiagonal Jacobian with 4×4 blocks), and the fitted
// exponent p of time ∝ n^p (expected 1: assembly, JᵀJ, the band LU with kl = ku = 11 and the
// line search are all linear in n). Run after a build (`pnpm bench`).
//
// One iteration = assemble J (per-node Legendre kernels, analytic), form JᵀJ + μI and JᵀF in band
// storage, factor, solve with one refinement step, and one trial residual for the line search. It
// is timed from the O(h²) geodesic guess (so3GeodesicTrajectory), reset before every timed call,
// so every call does the same work. Also reported: iterations and time of the whole solve from
// that guess, the final cost against φ(4π − φ)/2, and bytes allocated per iteration.
//
// GEOMECH_GROUPOID_DIST=/path/to/index.js points at another build of @geomech/groupoid (the
// timing harness comes from ../../core/bench/harness.mjs).
import { pathToFileURL } from 'node:url';
import { bytesPerCall, fmt, median, slope } from '../../core/bench/harness.mjs';

const libUrl = process.env.GEOMECH_GROUPOID_DIST
  ? pathToFileURL(process.env.GEOMECH_GROUPOID_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;
const { so3GeodesicTrajectory, so3SteeringProblem, solveSo3Steering } = await import(libUrl);

const PHI = 1;
const NS = [250, 500, 1000, 2000, 4000];
const REPS = 15;
const limit = (PHI * (4 * Math.PI - PHI)) / 2;

/** Median ms of one iterate() from the reset guess. */
function timeIteration(n) {
  const bvp = so3SteeringProblem({ phi: PHI, n });
  const g = so3GeodesicTrajectory(PHI, n);
  const ms = [];
  for (let rep = -3; rep < REPS; rep++) {
    bvp.setTrajectory(g.R, g.lambda);
    bvp.residualNorm(); // evaluate the guess outside the timed region
    const t0 = performance.now();
    bvp.iterate();
    const t1 = performance.now();
    if (rep >= 0) ms.push(t1 - t0);
  }
  // allocation of one iteration, from the converged state (same work, no reset needed); enough
  // calls first that the optimizing compiler has run (interpreted code boxes doubles)
  const bytes = n <= 1000 ? bytesPerCall(() => bvp.iterate(), 10, 50) : Number.NaN;
  return { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), bytes };
}

function timeSolve(n) {
  const t0 = performance.now();
  const r = solveSo3Steering({ phi: PHI, n, initialGuess: 'geodesic' });
  return { ms: performance.now() - t0, r };
}

// warm-up: let the optimizing compiler see every code path before anything is timed
for (let i = 0; i < 3; i++) timeIteration(NS[0]);

const rows = [];
const medians = [];
for (const n of NS) {
  const it = timeIteration(n);
  const { ms, r } = timeSolve(n);
  medians.push(it.median);
  rows.push(
    `| ${n} | ${4 * n - 3} | ${fmt(it.median, 2)} (${fmt(it.min, 2)}–${fmt(it.max, 2)}) | ${fmt((1e6 * it.median) / n, 0)} | ${Number.isNaN(it.bytes) ? 'n/a' : fmt(it.bytes, 0)} | ${r.converged ? r.iterations : 'FAIL'} | ${fmt(ms, 1)} | ${r.cost.toFixed(9)} | ${(r.cost - limit).toExponential(2)} |`,
  );
}
const p = slope(NS, medians);

console.log(`## Groupoid: S4 steering, full banded LM (φ = ${PHI}, Cayley, geodesic guess)`);
console.log('');
console.log(
  '| n | unknowns | ms / iteration median (min–max) | ns / iteration / n | bytes / iteration | iterations to 1e-10 | whole solve ms | cost | cost − φ(4π−φ)/2 |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log('');
console.log(`Fitted exponent: time per iteration ∝ n^${fmt(p, 3)} (expected 1).`);
if (!(p > 0.7 && p < 1.3)) {
  console.log('The time per iteration does not scale linearly in n.');
  process.exitCode = 1;
}
