// Benchmarks of @geomech/core linear algebra, run as `node bench/linalg.mjs` after a build (`pnpm bench`).
//
// (a) BandLU factor + solve of block-tridiagonal systems with 8×8 blocks, n = 1000 … 16000
//     block rows: median and min–max over repeated runs after warm-up, time per block row and
//     the least-squares log-log slope of time against n (≈ 1 means linear scaling).
// (b) DenseLU factor + solve of one 8×8 system (ns per factor + solve).
// (c) Allocation check: heap growth per factor + solve over 1e6 dense solves and over repeated
//     band refactorizations, measured between forced GCs. `global.gc` is obtained through
//     v8.setFlagsFromString('--expose-gc'), so no node flag is needed; a deliberately allocating
//     control (solve without `out`) shows that the measurement can see allocation.
import { bytesPerCall, core, fmt, median, rng } from './harness.mjs';

const { BandLU, BlockBandMatrix, DenseLU } = core;

/** Random block-tridiagonal matrix, 8×8 blocks, entries uniform in [-1, 1] (pivoting happens). */
function blockTridiagonal(n, seed) {
  const b = 8;
  const m = BlockBandMatrix.blockTridiagonal(b, n);
  const r = rng(seed);
  const blk = new Float64Array(b * b);
  for (let I = 0; I < n; I++) {
    for (let J = Math.max(0, I - 1); J <= Math.min(n - 1, I + 1); J++) {
      for (let t = 0; t < b * b; t++) blk[t] = 2 * r() - 1;
      m.setBlock(I, J, blk);
    }
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// (a) band solver scaling
const sizes = [1000, 2000, 4000, 8000, 16000];
const lines = [];
lines.push('## BandLU factor + solve, block-tridiagonal, 8×8 blocks');
lines.push('');
lines.push(
  '| block rows n | unknowns | median ms | min–max ms | runs | µs / block row | rel. residual |',
);
lines.push('|---:|---:|---:|---:|---:|---:|---:|');
const medians = [];
{
  // Global warm-up so that every size is timed with optimized code (without it the smallest sizes
  // run partly in the interpreter and the fitted exponent comes out well below 1).
  const m = blockTridiagonal(4000, 4000);
  const lu = new BandLU(m.n, m.kl, m.ku);
  const rhs = new Float64Array(m.n).fill(1);
  const x = new Float64Array(m.n);
  for (let k = 0; k < 30; k++) lu.factor(m).solve(rhs, x);
}
for (const n of sizes) {
  const m = blockTridiagonal(n, n);
  const lu = new BandLU(m.n, m.kl, m.ku);
  const rhs = new Float64Array(m.n);
  const r = rng(n + 1);
  for (let i = 0; i < m.n; i++) rhs[i] = 2 * r() - 1;
  const x = new Float64Array(m.n);
  const warm = Math.max(2, Math.round(8000 / n));
  for (let k = 0; k < warm; k++) lu.factor(m).solve(rhs, x);
  const runs = Math.max(5, Math.round(64000 / n));
  const times = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    lu.factor(m).solve(rhs, x);
    times.push(performance.now() - t0);
  }
  // ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞): a sanity check that the timed solve is a real solve
  const ax = m.matVec(new Float64Array(m.n), x);
  let res = 0;
  let xn = 0;
  for (let i = 0; i < m.n; i++) {
    res = Math.max(res, Math.abs(ax[i] - rhs[i]));
    xn = Math.max(xn, Math.abs(x[i]));
  }
  const med = median(times);
  medians.push(med);
  lines.push(
    `| ${n} | ${m.n} | ${fmt(med)} | ${fmt(Math.min(...times))}–${fmt(Math.max(...times))} | ${runs} | ${fmt((1000 * med) / n)} | ${(res / (m.normInf() * xn)).toExponential(1)} |`,
  );
}
// least-squares slope of log(t) against log(n)
{
  const lx = sizes.map(Math.log);
  const ly = medians.map(Math.log);
  const mx = lx.reduce((a, b) => a + b) / lx.length;
  const my = ly.reduce((a, b) => a + b) / ly.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  lines.push('');
  lines.push(`Fitted log-log exponent of time against n: **${fmt(sxy / sxx, 3)}** (1 = linear).`);
}
console.log(lines.join('\n'));

// ---------------------------------------------------------------------------------------------
// (b) dense 8×8 factor + solve
{
  const n = 8;
  const r = rng(8);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) a[i] = 2 * r() - 1;
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) b[i] = 2 * r() - 1;
  const out = new Float64Array(n);
  const lu = new DenseLU(n);
  const batch = 200_000;
  let sink = 0;
  for (let k = 0; k < batch; k++) sink += lu.factor(a).solve(b, out)[0];
  const ns = [];
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    for (let k = 0; k < batch; k++) {
      a[0] = 1 + k * 1e-12; // a different matrix each time, so nothing can be hoisted
      sink += lu.factor(a).solve(b, out)[0];
    }
    ns.push(((performance.now() - t0) * 1e6) / batch);
  }
  console.log('');
  console.log('## DenseLU 8×8 factor + solve');
  console.log('');
  console.log(
    `median ${fmt(median(ns), 0)} ns per factor + solve (min–max ${fmt(Math.min(...ns), 0)}–${fmt(Math.max(...ns), 0)}, 5 × ${batch}) [checksum ${sink.toExponential(3)}]`,
  );
}

// ---------------------------------------------------------------------------------------------
// (c) allocation per solve (see harness.mjs for the method)
{
  const n = 8;
  const r = rng(9);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) a[i] = 2 * r() - 1;
  const b = Float64Array.from({ length: n }, () => 2 * r() - 1);
  const out = new Float64Array(n);
  const lu = new DenseLU(n);
  const dense = bytesPerCall(() => lu.factor(a).solve(b, out), 100, 10_000);
  const control = bytesPerCall(() => lu.factor(a).solve(b), 100, 10_000);
  const m = blockTridiagonal(250, 250);
  const blu = new BandLU();
  const rhs = Float64Array.from({ length: m.n }, () => 2 * r() - 1);
  const x = new Float64Array(m.n);
  const band = bytesPerCall(() => blu.factor(m).solve(rhs, x), 50, 20);
  console.log('');
  console.log('## Allocation (heap growth between forced GCs)');
  console.log('');
  console.log('| loop | calls | bytes / call |');
  console.log('|---|---:|---:|');
  console.log(`| DenseLU(8).factor(a).solve(b, out) | 1e6 | ${fmt(dense, 2)} |`);
  console.log(
    `| control: DenseLU(8).factor(a).solve(b) (allocates x) | 1e6 | ${fmt(control, 1)} |`,
  );
  console.log(`| BandLU.factor(m).solve(rhs, x), n = 250 blocks of 8 | 1000 | ${fmt(band, 2)} |`);
}
