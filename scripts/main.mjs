#!/usr/bin/env node
// The README's main job: a real optimal-control solve with the geomech CLI. The ball rolls on a
// plate turning at Ω = 0.5 and must come back to its start point turned by 0.3 rad about the
// vertical, at minimal ∫ ½(ẋ² + ẏ²) dt (spec 003 §8.2, scenario S7, here with n = 200 steps).
// The trajectory goes to out/plate-ball.json and its plot to out/plate-ball.svg.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', 'geomech');
const outDir = join(root, 'out');
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, 'plate-ball.json');
const plotFile = join(outDir, 'plate-ball.svg');

const args = [
  'solve',
  'plate-ball',
  '--param',
  'Omega=0.5',
  '--n',
  '200',
  '--start',
  '0,0,0,0,0',
  '--end',
  '0,0,0,0,0.3',
  '--out',
  relative(process.cwd(), outFile),
  '--plot',
  relative(process.cwd(), plotFile),
];
console.log(`$ geomech ${args.join(' ')}`);
const run = spawnSync(bin, args, { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

const doc = JSON.parse(readFileSync(outFile, 'utf8'));
const { t, x, y, R, lambda } = doc.series;
const angle = (m) => Math.acos(Math.max(-1, Math.min(1, (m[0] + m[4] + m[8] - 1) / 2)));
console.log(
  '\nPlate-ball optimal control (spec 003 §8.2): r = 1, Ω = 0.5, c = 0, from (0, 0, I) to (0, 0, exp(0.3 E3))',
);
console.log(
  `${doc.status}, second-order test: ${doc.secondOrder}, in ${doc.iterations} interior-point iterations; ` +
    `KKT error ${doc.residualNorm.toExponential(2)}, constraints (8) ${doc.constraintNorm.toExponential(2)}, ` +
    `paper's DEL ${doc.delResidual.toExponential(2)}`,
);
console.log(`optimal discrete cost Σ L̂(g_k) = ${doc.cost.toFixed(8)}`);
console.log('\n    t        x           y        angle(G)     λ1          λ2');
const n = t.length - 1;
for (let k = 0; k <= n; k += n / 10) {
  const cells = [
    t[k].toFixed(2).padStart(5),
    x[k].toFixed(6).padStart(11),
    y[k].toFixed(6).padStart(11),
    angle(R[k]).toFixed(6).padStart(10),
    lambda[k][0].toFixed(6).padStart(11),
    lambda[k][1].toFixed(6).padStart(11),
  ];
  console.log(`  ${cells.join(' ')}`);
}
let length = 0;
for (let k = 1; k <= n; k++) length += Math.hypot(x[k] - x[k - 1], y[k] - y[k - 1]);
console.log(`\npath length of the contact point: ${length.toFixed(6)}`);
console.log(
  `trajectory: ${relative(process.cwd(), outFile)}, plot: ${relative(process.cwd(), plotFile)}`,
);
console.log(`solve time: ${doc.stats.wallMs} ms`);
