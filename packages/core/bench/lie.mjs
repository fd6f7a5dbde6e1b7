// Benchmarks of the Lie-group hot operations of @geomech/core: ns per call of compose, act, exp,
// log (SO(3), SE(3)) and the Cayley map (SO(3) closed form, SE(3) generic), each with its
// allocation per call (≈ 0: the operations write into an output argument). Run after a build
// (`pnpm bench`).
import { bytesPerCall, core, fmt, nsPerCall, rng } from './harness.mjs';

const { SO3, SE3, so3Cayley, cayleyRetraction } = core;
const se3Cayley = cayleyRetraction(SE3);
const r = rng(3);
const rows = [];

function bench(label, fn) {
  const t = nsPerCall(fn);
  const bytes = bytesPerCall(() => fn(0));
  rows.push(
    `| ${label} | ${fmt(t.median, 1)} | ${fmt(t.min, 1)}–${fmt(t.max, 1)} | ${fmt(bytes, 2)} |`,
  );
}

for (const [G, name] of [
  [SO3, 'SO(3)'],
  [SE3, 'SE(3)'],
]) {
  const A = G.random(new Float64Array(G.storageSize), r);
  const B = G.random(new Float64Array(G.storageSize), r);
  const out = new Float64Array(G.storageSize);
  const tau = Float64Array.from({ length: G.dim }, () => 0.8 * (2 * r() - 1));
  const tv = new Float64Array(G.dim);
  const p = Float64Array.of(0.3, -0.2, 0.9);
  const q = new Float64Array(3);
  bench(`${name} compose`, () => G.compose(out, A, B));
  bench(`${name} act`, () => G.act(q, A, p));
  bench(`${name} exp`, (k) => {
    tau[0] = 0.1 + (k & 7) * 1e-3;
    return G.exp(out, tau);
  });
  bench(`${name} log`, () => G.log(tv, A));
}
{
  const x = Float64Array.of(0.3, -0.4, 0.5);
  const g = new Float64Array(9);
  bench('SO(3) cay (closed form)', () => so3Cayley.tau(g, x));
  const x6 = Float64Array.of(0.1, 0.2, -0.3, 0.3, -0.4, 0.5);
  const g4 = new Float64Array(16);
  bench('SE(3) cay (generic, LU)', () => se3Cayley.tau(g4, x6));
}

console.log('## Lie-group operations');
console.log('');
console.log('| operation | median ns | min–max ns | bytes / call |');
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(row);
