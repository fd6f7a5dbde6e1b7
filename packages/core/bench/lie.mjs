// Benchmarks of the Lie-group hot operations of @geomech/core: ns per call of compose, inverse,
// act, exp, log, rplus, rminus and between on SO(2), SO(3), unit quaternions, SE(2) and SE(3), the
// same with their Jacobian outputs requested, the product R² × SO(3), and the Cayley map (SO(3)
// closed form, SE(3) generic), each with its allocation per call (≈ 0: the operations write into
// an output argument). Run after a build (`pnpm bench`). Rows of features a build lacks (the
// Jacobian outputs and ProductGroup before they existed) are skipped, so the same script measures
// an older build through GEOMECH_CORE_DIST.
import { bytesPerCall, core, fmt, nsPerCall, rng } from './harness.mjs';

const { SO2, SO3, SO3Quat, SE2, SE3, so3Cayley, cayleyRetraction } = core;
const se3Cayley = cayleyRetraction(SE3);
const hasJacobians = typeof core.ProductGroup === 'function';
const r = rng(3);
const rows = [];

function bench(label, fn) {
  const t = nsPerCall(fn);
  const bytes = bytesPerCall(() => fn(0));
  rows.push(
    `| ${label} | ${fmt(t.median, 1)} | ${fmt(t.min, 1)}–${fmt(t.max, 1)} | ${fmt(bytes, 2)} |`,
  );
}

function groupRows(G, name) {
  const A = G.random(new Float64Array(G.storageSize), r);
  const B = G.random(new Float64Array(G.storageSize), r);
  const out = new Float64Array(G.storageSize);
  const tau = Float64Array.from({ length: G.dim }, () => 0.8 * (2 * r() - 1));
  const tv = new Float64Array(G.dim);
  const p = Float64Array.from({ length: G.actionDim }, () => 2 * r() - 1);
  const q = new Float64Array(G.actionDim);
  bench(`${name} compose`, () => G.compose(out, A, B));
  bench(`${name} inverse`, () => G.inverse(out, A));
  bench(`${name} act`, () => G.act(q, A, p));
  bench(`${name} exp`, (k) => {
    tau[0] = 0.1 + (k & 7) * 1e-3;
    return G.exp(out, tau);
  });
  bench(`${name} log`, () => G.log(tv, A));
  bench(`${name} rplus`, () => G.rplus(out, A, tau));
  bench(`${name} rminus`, () => G.rminus(tv, B, A));
  bench(`${name} between`, () => G.between(out, A, B));
  if (!hasJacobians) return;
  const J1 = new Float64Array(G.dim * G.dim);
  const J2 = new Float64Array(G.dim * G.dim);
  const Jx = new Float64Array(G.actionDim * G.dim);
  const Jp = new Float64Array(G.actionDim * G.actionDim);
  bench(`${name} compose + J_a, J_b`, () => G.compose(out, A, B, J1, J2));
  bench(`${name} act + J_X, J_p`, () => G.act(q, A, p, Jx, Jp));
  bench(`${name} exp + J`, (k) => {
    tau[0] = 0.1 + (k & 7) * 1e-3;
    return G.exp(out, tau, J1);
  });
  bench(`${name} log + J`, () => G.log(tv, A, J1));
  bench(`${name} rplus + J_X, J_τ`, () => G.rplus(out, A, tau, J1, J2));
  bench(`${name} rminus + J_Y, J_X`, () => G.rminus(tv, B, A, J1, J2));
}

for (const [G, name] of [
  [SO2, 'SO(2)'],
  [SO3, 'SO(3)'],
  [SO3Quat, 'SO(3) quat'],
  [SE2, 'SE(2)'],
  [SE3, 'SE(3)'],
]) {
  groupRows(G, name);
}
if (hasJacobians) groupRows(new core.ProductGroup([core.Rn(2), SO3]), 'R² × SO(3)');
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
