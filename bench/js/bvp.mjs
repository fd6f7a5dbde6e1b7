// Section script of bench/run.mjs, section 2: scaling of the trajectory (boundary-value) solvers
// of @geomech/groupoid with the number of steps n = 250 … 4000.
//
// - solvePlateBall (spec 003 §8.2, S7: r = 1, Ω = 0.5, c = 0, start (0, 0, I), end
//   (0, 0, exp(0.3E3)), the ccw loop guess, h = 1/n) and solveSo3Steering (spec 003 §8.1, S4:
//   φ = 1, the extremal guess), both on core's interior-point solver (OcpSolver, stage-wise KKT
//   factorization; section 5 compares them with IPOPT). "unknowns" counts the tangent
//   coordinates of the plate-ball trajectory's interior stages (5 per stage).
//
// Per n: wall time of the whole solve (median and min–max of 5 after a warm-up at the same n),
// iterations, ms per iteration, and the fitted log-log exponents of ms/iteration and of the
// whole solve against n (1 = linear). The plate-ball's headline exponent is per iteration; the
// steering solve from the extremal guess takes 1–2 iterations, so its headline exponent is that
// of the whole solve.
import { load, note, QUICK, runSelected, slope, timeRuns } from '../lib/util.mjs';

const G = await load('groupoid');
const SIZES = QUICK ? [250, 500, 1000] : [250, 500, 1000, 2000, 4000];

function study(id, title, solve, summary, primary = 'iteration') {
  const points = [];
  // a global warm-up so that the smallest n is timed with optimized code
  solve(SIZES[Math.min(2, SIZES.length - 1)]);
  for (const n of SIZES) {
    note(`bvp: ${id} n = ${n}`);
    const r = timeRuns(() => solve(n), 5, 1);
    const s = r.last;
    points.push({
      x: n,
      ms: r.t,
      iterations: s.iterations,
      msPerIteration: r.t.median / s.iterations,
      ...summary(s),
    });
  }
  const perIteration = slope(
    points.map((p) => p.x),
    points.map((p) => p.msPerIteration),
  );
  const total = slope(
    points.map((p) => p.x),
    points.map((p) => p.ms.median),
  );
  return {
    id,
    title,
    xLabel: 'steps n',
    points,
    primary,
    exponent: primary === 'iteration' ? perIteration : total,
    exponentPerIteration: perIteration,
    exponentTotal: total,
  };
}

function plateBall() {
  const start = { x: 0, y: 0, R: G.axisAngleToRotation(0, 0, 0) };
  const end = { x: 0, y: 0, R: G.axisAngleToRotation(0, 0, 0.3) };
  return study(
    'bvp-plate-ball',
    'solvePlateBall (S7, Ω = 0.5, ψ = 0.3), interior point (core OcpSolver)',
    (n) => G.solvePlateBall({ r: 1, Omega: 0.5, c: 0, n, start, end, loop: 1 }),
    (s) => ({
      converged: s.converged,
      cost: s.cost,
      residualNorm: s.residualNorm,
      unknowns: (s.x.length - 2) * 5,
    }),
  );
}

function so3Steering() {
  if (typeof G.solveSo3Steering !== 'function') {
    return {
      id: 'bvp-so3-steering',
      title: 'solveSo3Steering (S4, φ = 1)',
      pending: 'solveSo3Steering is not exported from @geomech/groupoid yet',
    };
  }
  return study(
    'bvp-so3-steering',
    'solveSo3Steering (S4, φ = 1, extremal guess), interior point (core OcpSolver)',
    (n) => G.solveSo3Steering({ phi: 1, n }),
    (s) => ({ converged: s.converged, cost: s.cost, residualNorm: s.residualNorm }),
    // from the extremal guess the solve takes 1–2 iterations, so the whole solve (guess +
    // iterations) is the quantity that scales
    'total',
  );
}

await runSelected({
  'bvp-plate-ball': plateBall,
  'bvp-so3-steering': so3Steering,
});
