// Benchmarks of the stage-wise KKT factorization and the interior-point solver, run as
// `node bench/ocp.mjs` after a build (`pnpm bench`). `--quick` runs fewer sizes and repetitions.
//
// (0) Calibration: ns per multiply-add of a 64×64 matrix product, so that the numbers below can be
//     read against the load of the machine they ran on (≈ 1 ns on an idle desktop core); the
//     factorization rows report the process's CPU time (minimum over the runs), which waiting for
//     a core on a shared machine does not inflate.
// (a) StageKktSystem factor + solve per stage for plate-ball-like dimensions (n_x = 5, n_u = 2, the
//     states fixed at both ends: n_g = 5 at stages 0 and N) and SO(3)-steering dimensions (n_x = 3,
//     n_u = 3, one mixed equality row per stage and 3 rows at both ends), N = 250 … 4000: median
//     time per stage, the fitted log-log exponent of the time against N, and the bytes allocated
//     per factorization (heap growth between forced GCs, harness.mjs).
// (b) Whole interior-point solves of the SO(3) attitude-steering problem (test/ocp/so3Steering.ts,
//     here allocation-free): iterations, time, time per iteration and per stage, the fitted
//     exponent of the time per iteration against N, the split between the problem's evaluation
//     and the linear algebra (a separate `profile` run), and the bytes allocated per iteration
//     after the first: (bytes of a solve stopped after 3 iterations − bytes of one stopped after
//     1) / 2, which cancels the per-solve allocations (the result arrays).
//     The problem's Hessian is a central difference of its analytic gradients (as in the test), so
//     its evaluation costs 19 Jacobian evaluations per stage and dominates the total time.
import { bytesPerCall, core, fmt, median, rng, slope } from './harness.mjs';

const { StageKktSystem, OcpSolver, SO3 } = core;
const QUICK = process.argv.includes('--quick');

// ---------------------------------------------------------------------------------------------
// (0) calibration
function calibrate(reps = 60) {
  const n = 64;
  const r = rng(1);
  const a = Float64Array.from({ length: n * n }, r);
  const b = Float64Array.from({ length: n * n }, r);
  const c = new Float64Array(n * n);
  const mm = () => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
    }
  };
  for (let i = 0; i < 5; i++) mm();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) mm();
  const c1 = process.cpuUsage(c0);
  const madds = reps * n * n * n;
  return {
    wall: ((performance.now() - t0) * 1e6) / madds,
    cpu: ((c1.user + c1.system) * 1e3) / madds,
  };
}
const cal = calibrate();
console.log('## Calibration');
console.log('');
console.log(
  `A 64×64 matrix product: ${fmt(cal.wall)} ns wall, ${fmt(cal.cpu)} ns CPU per multiply-add (≈ 1 on an idle desktop core; larger means a loaded machine, and the times below scale with it).`,
);

// ---------------------------------------------------------------------------------------------
// (a) the factorization
function kktSystem(N, kind, seed) {
  const dims = [];
  for (let k = 0; k <= N; k++) {
    if (kind === 'plate-ball')
      dims.push({ nx: 5, nu: k < N ? 2 : 0, ng: k === 0 || k === N ? 5 : 0 });
    else
      dims.push({ nx: 3, nu: k < N ? 3 : 0, ng: (k < N ? 1 : 0) + (k === 0 || k === N ? 3 : 0) });
  }
  const kkt = new StageKktSystem(dims);
  const r = rng(seed);
  const u = () => 2 * r() - 1;
  const h = 1 / N;
  for (let k = 0; k <= N; k++) {
    const nx = kkt.nx[k];
    const nu = kkt.nu[k];
    const nw = nx + nu;
    const ny = kkt.ny[k];
    const hw = nw + ny;
    const ho = kkt.hessOffset[k];
    // positive definite stage Hessian with small cross-stage blocks
    for (let a = 0; a < hw; a++) {
      for (let b = 0; b <= a; b++) {
        const v = 0.1 * u() + (a === b ? (a < nw ? 2 : 0.5) : 0);
        kkt.hess[ho + a * hw + b] = v;
        kkt.hess[ho + b * hw + a] = v;
      }
    }
    // dynamics x⁺ = x + h(A x + B u) + …: [I + hA, hB, −I]
    const co = kkt.cJacOffset[k];
    for (let i = 0; i < ny; i++) {
      for (let j = 0; j < nw; j++) kkt.cJac[co + i * hw + j] = (i === j ? 1 : 0) + h * u();
      kkt.cJac[co + i * hw + nw + i] = -1;
    }
    const go = kkt.gJacOffset[k];
    let row = 0;
    if (kind === 'so3' && k < N) {
      for (let j = 0; j < nw; j++) kkt.gJac[go + j] = j === nx + 2 ? 1 : 0.1 * u();
      row = 1;
    }
    if (k === 0 || k === N) {
      for (let i = 0; i < nx; i++) kkt.gJac[go + (row + i) * nw + i] = 1;
    }
  }
  return kkt;
}

function factorBench(kind) {
  const sizes = QUICK ? [250, 1000, 4000] : [250, 500, 1000, 2000, 4000];
  const rows = [];
  const perStage = [];
  const totals = [];
  let bytes = Number.NaN;
  for (const N of sizes) {
    const kkt = kktSystem(N, kind, N);
    const rw = Float64Array.from({ length: kkt.nPrimal }, () => 1);
    const rc = new Float64Array(kkt.cOffset[N + 1]).fill(0.1);
    const rg = new Float64Array(kkt.gOffset[N + 1]).fill(0.2);
    const dw = new Float64Array(kkt.nPrimal);
    const dl = new Float64Array(rc.length);
    const dm = new Float64Array(rg.length);
    const run = () => {
      kkt.factor(0, 0);
      kkt.solve(rw, rc, rg, dw, dl, dm);
    };
    const warm = Math.max(20, Math.round(80000 / N));
    for (let i = 0; i < warm; i++) run();
    if (kkt.status !== 'ok')
      throw new Error(`${kind} N = ${N}: factorization status ${kkt.status}`);
    const reps = QUICK ? 5 : 9;
    const batch = Math.max(2, Math.round(40000 / N));
    const times = [];
    const cpu = [];
    for (let rep = 0; rep < reps; rep++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) run();
      const c1 = process.cpuUsage(c0);
      times.push((performance.now() - t0) / batch);
      cpu.push((c1.user + c1.system) / 1000 / batch);
    }
    // the machine is shared: the process's CPU time (not the wall time, which includes waiting
    // for a core) and the minimum over the runs estimate the uncontended time
    const best = Math.min(...cpu);
    totals.push(best);
    perStage.push((1000 * best) / (N + 1));
    if (N === sizes[0]) bytes = bytesPerCall(run, QUICK ? 10 : 30, 10);
    rows.push(
      `| ${N} | ${kkt.nPrimal + kkt.nEquality} | ${kkt.carriedRows} | ${fmt(median(times), 3)} | ${fmt(best, 3)} | ${fmt((1000 * best) / (N + 1))} |`,
    );
  }
  return { sizes, rows, exponent: slope(sizes, totals), perStage, bytes };
}

console.log('');
console.log('## Stage-wise KKT factorization + solve');
for (const kind of ['plate-ball', 'so3']) {
  const r = factorBench(kind);
  const label =
    kind === 'plate-ball'
      ? 'plate-ball dims (n_x = 5, n_u = 2, n_g = 5 at both ends)'
      : 'SO(3)-steering dims (n_x = 3, n_u = 3, 1 row per stage + 3 at both ends)';
  console.log('');
  console.log(`### ${label}`);
  console.log('');
  console.log('| N | KKT order | carried rows | median wall ms | min CPU ms | CPU µs per stage |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const row of r.rows) console.log(row);
  console.log('');
  console.log(
    `Fitted log-log exponent of the CPU time against N: **${fmt(r.exponent, 3)}**; ${fmt(r.bytes, 1)} B allocated per factor + solve (N = ${r.sizes[0]}).`,
  );
}

// ---------------------------------------------------------------------------------------------
// (b) whole solves of SO(3) steering

/**
 * The SO(3) steering problem of test/ocp/so3Steering.ts, allocation-free: G_{k+1} = G_k·Exp(hω_k),
 * cost Σ h|ω|²/2, G_0 and G_N fixed, exact chart Jacobians, Hessian by central differences of the
 * analytic gradients (symmetrized).
 */
function so3Problem(N, start, target) {
  const h = 1 / N;
  const s9 = () => new Float64Array(9);
  const s3 = () => new Float64Array(3);
  const hw = s3();
  const R = s9();
  const GtGn = s9();
  const D = s9();
  const cc = s3();
  const jrInv = s9();
  const jlInv = s9();
  const jr = s9();
  const J = new Float64Array(27);
  const Gp = s9();
  const Gnp = s9();
  const wp = s3();
  const d3 = s3();
  const gp = new Float64Array(9);
  const gm = new Float64Array(9);
  const cols = new Float64Array(81);
  const mulT = (out, a, b) => {
    // out ← aᵀb
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        out[i * 3 + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
    return out;
  };
  const T1 = s9();
  // c and J (3 × 9 over (δ_k, ω, δ_{k+1})) into cc, J
  const dynamics = (G, w, Gn, wantJ) => {
    for (let i = 0; i < 3; i++) hw[i] = h * w[i];
    SO3.exp(R, hw);
    mulT(GtGn, G, Gn);
    mulT(D, R, GtGn);
    SO3.log(cc, D);
    if (!wantJ) return;
    SO3.rjacInv(jrInv, cc);
    SO3.ljacInv(jlInv, cc);
    SO3.rjac(jr, hw);
    // −J_l⁻¹ Rᵀ, −h J_l⁻¹ J_r(hω), J_r⁻¹
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let a = 0;
        let b = 0;
        for (let t = 0; t < 3; t++) {
          a += jlInv[i * 3 + t] * R[j * 3 + t];
          b += jlInv[i * 3 + t] * jr[t * 3 + j];
        }
        J[i * 9 + j] = -a;
        J[i * 9 + 3 + j] = -h * b;
        J[i * 9 + 6 + j] = jrInv[i * 3 + j];
      }
    }
  };
  const gb = s3();
  const jb = s9();
  const boundary = (G, ref, wantJ) => {
    SO3.log(gb, mulT(T1, ref, G));
    if (wantJ) SO3.rjacInv(jb, gb);
  };
  const FD = 1e-5;
  // `sign` is ±1 (a small integer): a computed double argument would be boxed on every call
  const gradDyn = (out, lambda, x, u, xn, j, sign) => {
    const step = sign * FD;
    Gp.set(x);
    Gnp.set(xn);
    wp.set(u);
    if (j < 3) {
      d3.fill(0);
      d3[j] = step;
      SO3.rplus(Gp, x, d3);
    } else if (j < 6) wp[j - 3] += step;
    else {
      d3.fill(0);
      d3[j - 6] = step;
      SO3.rplus(Gnp, xn, d3);
    }
    dynamics(Gp, wp, Gnp, true);
    for (let a = 0; a < 9; a++)
      out[a] = lambda[0] * J[a] + lambda[1] * J[9 + a] + lambda[2] * J[18 + a];
  };
  const gradBnd = (out, mu, x, ref, j, sign) => {
    const step = sign * FD;
    d3.fill(0);
    d3[j] = step;
    SO3.rplus(Gp, x, d3);
    boundary(Gp, ref, true);
    for (let a = 0; a < 3; a++) out[a] = mu[0] * jb[a] + mu[1] * jb[3 + a] + mu[2] * jb[6 + a];
  };
  return {
    N,
    dims: (k) => ({ nx: 3, nu: k < N ? 3 : 0, ng: k === 0 || k === N ? 3 : 0, nh: 0 }),
    stateStorage: () => 9,
    retract: (_k, out, x, dx) => {
      SO3.rplus(out, x, dx);
    },
    evaluate: (k, x, u, xn, level, sigma, lambda, mu, _eta, out) => {
      const last = k === N;
      out.cost = last ? 0 : 0.5 * h * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      if (!last) {
        dynamics(x, u, xn, level >= 1);
        out.c[0] = cc[0];
        out.c[1] = cc[1];
        out.c[2] = cc[2];
        if (level >= 1) out.cJac.set(J);
      }
      const nw = last ? 3 : 6;
      if (k === 0 || last) {
        boundary(x, k === 0 ? start : target, level >= 1);
        out.g[0] = gb[0];
        out.g[1] = gb[1];
        out.g[2] = gb[2];
        if (level >= 1) {
          out.gJac.fill(0);
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++) out.gJac[i * nw + j] = jb[i * 3 + j];
        }
      }
      if (level === 0) return;
      out.costGrad.fill(0);
      if (!last) for (let i = 0; i < 3; i++) out.costGrad[3 + i] = h * u[i];
      if (level === 1) return;
      const H = out.hess;
      const n = last ? 3 : 9;
      H.fill(0);
      if (!last) {
        for (let i = 0; i < 3; i++) H[(3 + i) * 9 + 3 + i] = sigma * h;
        for (let j = 0; j < 9; j++) {
          gradDyn(gp, lambda, x, u, xn, j, 1);
          gradDyn(gm, lambda, x, u, xn, j, -1);
          for (let a = 0; a < 9; a++) cols[j * 9 + a] = (gp[a] - gm[a]) / (2 * FD);
        }
        for (let a = 0; a < 9; a++)
          for (let b = 0; b < 9; b++) H[a * 9 + b] += 0.5 * (cols[b * 9 + a] + cols[a * 9 + b]);
      }
      if (k === 0 || last) {
        const ref = k === 0 ? start : target;
        for (let j = 0; j < 3; j++) {
          gradBnd(gp, mu, x, ref, j, 1);
          gradBnd(gm, mu, x, ref, j, -1);
          for (let a = 0; a < 3; a++) cols[j * 3 + a] = (gp[a] - gm[a]) / (2 * FD);
        }
        for (let a = 0; a < 3; a++)
          for (let b = 0; b < 3; b++) H[a * n + b] += 0.5 * (cols[b * 3 + a] + cols[a * 3 + b]);
      }
    },
  };
}

/**
 * Double integrator p⁺ = p + hv, v⁺ = v + hu with |u| ≤ 1 (two inequality rows per stage), from
 * rest at 0, v_N = 0, maximizing p_N: an allocation-free evaluate, for the solver's own allocation.
 */
function doubleIntegrator(N) {
  const h = 2 / N;
  return {
    N,
    dims: (k) => ({
      nx: 2,
      nu: k < N ? 1 : 0,
      ng: k === 0 ? 2 : k === N ? 1 : 0,
      nh: k < N ? 2 : 0,
    }),
    stateStorage: () => 2,
    retract: (_k, out, x, dx) => {
      out[0] = x[0] + dx[0];
      out[1] = x[1] + dx[1];
    },
    evaluate: (k, x, u, xn, level, _sigma, _l, _m, _e, out) => {
      out.cost = k === N ? -x[0] : 0;
      if (k < N) {
        out.c[0] = x[0] + h * x[1] - xn[0];
        out.c[1] = x[1] + h * u[0] - xn[1];
        out.h[0] = 1 - u[0];
        out.h[1] = 1 + u[0];
      }
      if (k === 0) {
        out.g[0] = x[0];
        out.g[1] = x[1];
      }
      if (k === N) out.g[0] = x[1];
      if (level === 0) return;
      out.costGrad.fill(0);
      if (k === N) out.costGrad[0] = -1;
      if (k < N) {
        out.cJac.fill(0);
        out.cJac[0] = 1;
        out.cJac[1] = h;
        out.cJac[3] = -1;
        out.cJac[6] = 1;
        out.cJac[7] = h;
        out.cJac[9] = -1;
        out.hJac.fill(0);
        out.hJac[2] = -1;
        out.hJac[5] = 1;
      }
      if (k === 0) {
        out.gJac.fill(0);
        out.gJac[0] = 1;
        out.gJac[4] = 1;
      }
      if (k === N) {
        out.gJac[0] = 0;
        out.gJac[1] = 1;
      }
      if (level === 2) out.hess.fill(0);
    },
  };
}

/** Bytes per iteration after the first: (bytes of an M2-iteration solve − of an M1-iteration one)/(M2 − M1). */
function bytesPerIteration(p, guess, m1, m2, options = {}) {
  const s1 = new OcpSolver(p, { ...options, maxIterations: m1 });
  const s2 = new OcpSolver(p, { ...options, maxIterations: m2 });
  for (let i = 0; i < 5; i++) {
    s1.solve(guess);
    s2.solve(guess);
  }
  const b1 = bytesPerCall(() => s1.solve(guess), QUICK ? 5 : 11, 1);
  const b2 = bytesPerCall(() => s2.solve(guess), QUICK ? 5 : 11, 1);
  return { perIteration: (b2 - b1) / (m2 - m1), b1, b2 };
}

function so3Bench() {
  const sizes = QUICK ? [200, 1000, 4000] : [200, 500, 1000, 2000, 4000];
  const G0 = SO3.exp(new Float64Array(9), Float64Array.of(0.3, -0.2, 0.5));
  const GN = SO3.exp(new Float64Array(9), Float64Array.of(1.0, 1.2, -0.4));
  const rel = SO3.log(
    new Float64Array(3),
    SO3.compose(new Float64Array(9), SO3.inverse(new Float64Array(9), G0), GN),
  );
  const exact = 0.5 * (rel[0] ** 2 + rel[1] ** 2 + rel[2] ** 2);
  const rows = [];
  const perIter = [];
  let bytesRow = '';
  for (const N of sizes) {
    const p = so3Problem(N, G0, GN);
    const x = new Float64Array(9 * (N + 1));
    for (let k = 0; k <= N; k++) SO3.identity(x.subarray(9 * k, 9 * k + 9));
    const guess = { x, u: new Float64Array(3 * N) };
    const solver = new OcpSolver(p);
    const warm = Math.max(2, Math.round(4000 / N));
    for (let i = 0; i < warm; i++) solver.solve(guess);
    const reps = QUICK ? 3 : 5;
    const times = [];
    let res;
    for (let i = 0; i < reps; i++) {
      res = solver.solve(guess);
      times.push(res.timings.totalMs);
    }
    const med = median(times);
    const prof = new OcpSolver(p, { profile: true }).solve(guess);
    perIter.push(med / res.iterations);
    rows.push(
      `| ${N} | ${res.status} / ${res.secondOrder} | ${res.iterations} | ${(res.cost - exact).toExponential(1)} | ${fmt(med, 1)} | ${fmt(med / res.iterations, 2)} | ${fmt((1000 * med) / res.iterations / (N + 1), 2)} | ${fmt(prof.timings.evaluationMs, 1)} / ${fmt(prof.timings.linearAlgebraMs, 1)} |`,
    );
    if (N === 1000 || (QUICK && N === sizes[1])) {
      const b = bytesPerIteration(p, guess, 1, 3);
      const N2 = 1000;
      const di = bytesPerIteration(
        doubleIntegrator(N2),
        { x: new Float64Array(2 * (N2 + 1)), u: new Float64Array(N2) },
        2,
        10,
        { tol: 1e-12, acceptableIter: 0 },
      );
      bytesRow =
        `Allocation per iteration after the first: SO(3) steering at N = ${N}: ${fmt(b.perIteration, 0)} B ` +
        `((${fmt(b.b2, 0)} − ${fmt(b.b1, 0)}) B / 2, the problem's own evaluation included); the solver alone ` +
        `(double integrator with |u| ≤ 1, N = ${N2}, an allocation-free evaluate): ${fmt(di.perIteration, 0)} B ` +
        `((${fmt(di.b2, 0)} − ${fmt(di.b1, 0)}) B / 8). A solve allocates its result arrays once.`;
    }
  }
  return { sizes, rows, exponent: slope(sizes, perIter), bytesRow };
}

{
  const r = so3Bench();
  console.log('');
  console.log('## Interior-point solves: SO(3) attitude steering (exact Jacobians, FD Hessian)');
  console.log('');
  console.log(
    '| N | status / verdict | iterations | cost − exact | ms per solve | ms per iteration | µs per stage per iteration | profile: evaluation / linear algebra ms |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const row of r.rows) console.log(row);
  console.log('');
  console.log(
    `Fitted log-log exponent of the time per iteration against N: **${fmt(r.exponent, 3)}**.`,
  );
  console.log(r.bytesRow);
}
