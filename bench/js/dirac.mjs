// Section script of bench/run.mjs, section 2: steps scaling of one Dirac simulation,
// integrateDirac(pendulum, 'dirac-2c', …, N, { every: N }) for N = 1e3 … 1e7 (m = 1, g = 9.81,
// l = 1, θ0 = π/4 at rest, h = 0.01; recording only the first and the last state), wall time
// median and min–max of 5 runs after a warm-up, and the fitted log-log exponent of time against N.
import { load, note, QUICK, runSelected, slope, timeRuns } from '../lib/util.mjs';

const D = await load('dirac');

function stepsScaling() {
  const sys = D.pendulum({ m: 1, g: 9.81, l: 1 });
  const init = D.pendulumInitial(Math.PI / 4, 0, 1);
  const run = (N) => D.integrateDirac(sys, 'dirac-2c', init, 0.01, N, { every: N });
  run(200_000); // warm-up: every size is timed with optimized code
  const sizes = QUICK ? [1e3, 1e4, 1e5, 1e6] : [1e3, 1e4, 1e5, 1e6, 1e7];
  const points = [];
  for (const N of sizes) {
    note(`dirac: steps scaling N = ${N}`);
    const runs = N >= 1e6 ? 5 : Math.max(5, Math.round(1e6 / N));
    const t = timeRuns(() => run(N), runs, N >= 1e6 ? 0 : 2).t;
    points.push({ x: N, ms: t, nsPerStep: (t.median * 1e6) / N });
  }
  return {
    id: 'steps-dirac2c',
    title: "integrateDirac(pendulum, 'dirac-2c'), h = 0.01",
    xLabel: 'steps N',
    points,
    exponent: slope(
      points.map((p) => p.x),
      points.map((p) => p.ms.median),
    ),
  };
}

await runSelected({ 'steps-dirac2c': stepsScaling });
