// The IPOPT reference driver of issue 16 (bench/ipopt) seen from Node: building it, running it,
// timing whole processes, and the markdown of RESULTS.md section 5. Pure Node (no import of the
// built packages), so bench/run.mjs can import it before its own checks.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUADROTOR_MAX_N } from './util.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
/** bench/ipopt. */
export const IPOPT_DIR = join(HERE, '..', 'ipopt');
/** What the bench prints when IPOPT's headers are missing. */
export const SKIPPED = 'IPOPT driver skipped: coinor-libipopt-dev not installed';

/**
 * Builds bench/ipopt into `outDir` with bench/ipopt/build.sh: `{ bin }` when built,
 * `{ skipped }` (the build script's one-line reason) when the headers or a C++ compiler are
 * missing, `{ error }` when compilation fails.
 */
export function buildIpopt(outDir) {
  const r = spawnSync('sh', [join(IPOPT_DIR, 'build.sh'), outDir], { encoding: 'utf8' });
  if (r.error) return { skipped: `${SKIPPED} (no sh: ${r.error.message})` };
  if (r.status === 0) return { bin: r.stdout.trim().split('\n').pop() };
  if (r.status === 3) return { skipped: r.stdout.trim() || SKIPPED };
  return { error: `${r.stdout}${r.stderr}`.trim() };
}

/** Runs the driver once and returns its JSON line (exit 0 or 1), or throws with its stderr. */
export function runIpopt(bin, args) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = (r.stdout ?? '').trim().split('\n').pop();
  if (r.error || (r.status !== 0 && r.status !== 1) || !line?.startsWith('{'))
    throw new Error(`${bin} ${args.join(' ')}: exit ${r.status}: ${r.stderr || r.error?.message}`);
  return JSON.parse(line);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** GNU time, for the CPU time of a whole child process (user + system), or null. */
const GNU_TIME = (() => {
  const r = spawnSync('/usr/bin/time', ['-f', '%U', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? '/usr/bin/time' : null;
})();

/**
 * Runs the driver once under GNU time: `{ out, cpuMs }` with the JSON line and the CPU time of the
 * whole process (user + system, start-up included; 10 ms resolution), cpuMs NaN without GNU time.
 */
function runIpoptCpu(bin, args) {
  if (GNU_TIME === null) return { out: runIpopt(bin, args), cpuMs: Number.NaN };
  const r = spawnSync(GNU_TIME, ['-f', '@@CPU %U %S', bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const line = (r.stdout ?? '').trim().split('\n').pop();
  const cpu = (r.stderr ?? '')
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('@@CPU '));
  if (r.error || (r.status !== 0 && r.status !== 1) || !line?.startsWith('{') || !cpu)
    throw new Error(`${bin} ${args.join(' ')}: exit ${r.status}: ${r.stderr || r.error?.message}`);
  const [, user, sys] = cpu.split(' ').map(Number);
  return { out: JSON.parse(line), cpuMs: 1000 * (user + sys) };
}

/**
 * Wall time of the whole process (ms, from spawn to exit, start-up and IPOPT's set-up included)
 * and its CPU time (user + system, under GNU time when present): `warm` untimed runs, then `runs`
 * timed ones; `{ ms: { median, min, max, runs }, cpuMs: {…}, out }` with the JSON of the last run.
 */
export function timeIpopt(bin, args, runs = 5, warm = 1) {
  let out = null;
  for (let i = 0; i < warm; i++) out = runIpopt(bin, args);
  const ms = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = runIpoptCpu(bin, args);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    cpu.push(r.cpuMs);
    out = r.out;
  }
  const st = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs });
  return { ms: st(ms), cpuMs: st(cpu), out };
}

// -------------------------------------------------------------------------------------------
// markdown

const ft = (x) =>
  !Number.isFinite(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const range = (s) => (s ? `${ft(s.median)} (${ft(s.min)}–${ft(s.max)})` : '—');
const e1 = (x) => (Number.isFinite(x) ? x.toExponential(1) : '—');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');

const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '—');

/** IPOPT's whole-process CPU time (tol 1e-10) over geomech's CPU time per solve (medians). */
const cpuRatio = (ipopt, geomech) =>
  (ipopt.processCpuMs?.median ?? Number.NaN) / (geomech.cpuMs?.median ?? Number.NaN);

/** The geomech column's notes under a scaling table (or alone when IPOPT is absent). */
function geomechNotes(study, p) {
  if (!study) return;
  const r = study.rows;
  p(
    `geomech (bench/js/ocp.mjs, in-process \`${study.id.startsWith('plate') ? 'solvePlateBall' : study.id.startsWith('so3') ? 'solveSo3Steering' : study.id === 'satellite' ? 'satelliteOcp' : study.id.startsWith('quadrotor') ? 'quadrotorOcp' : 'unicycleParkingOcp'}\`, tol 1e-10): status / verdict ${r.map((q) => `${q.status}/${q.secondOrder}`).join(', ')}; CPU ms per solve (median) ${r.map((q) => ft(q.cpuMs?.median)).join(', ')}; ms per iteration ${r.map((q) => ft(q.msPerIteration)).join(', ')} (fitted exponent in n ${f2(study.exponentPerIteration)}; on CPU ms per iteration ${r.map((q) => ft(q.cpuMsPerIteration)).join(', ')}: ${f2(study.exponentPerIterationCpu)}); the iterations alone, set-up excluded (from the solver's line of iteration 0 to its last line), ms per iteration ${r.map((q) => ft(q.iterationMs)).join(', ')} (fitted exponent ${f2(study.exponentIteration)}; CPU ${r.map((q) => ft(q.iterationCpuMs)).join(', ')}: ${f2(study.exponentIterationCpu)}), set-up before iteration 0 / after the last iteration ms ${r.map((q) => `${ft(q.setupMs)} / ${ft(q.postMs)}`).join(', ')}; whole solve fitted exponent ${f2(study.exponentSolve)} (CPU ${f2(study.exponentSolveCpu)}); evaluation / linear-algebra ms (profiled run) ${r.map((q) => `${ft(q.evaluationMs)} / ${ft(q.linearAlgebraMs)}`).join(', ')}; bytes allocated per iteration after the first (median / mean over the iterations / largest single iteration) ${r.map((q) => `${f0(q.bytesPerIteration)} / ${f0(q.bytesPerIterationMean)} / ${f0(q.bytesPerIterationMax)}`).join(', ')}.`,
  );
  p();
}

/** The geomech rows alone (IPOPT skipped or failed). */
function geomechOnly(geomech, p) {
  if (!geomech?.studies) return;
  for (const s of geomech.studies) {
    p(`### geomech: ${s.id}`);
    p();
    p('| n | geomech ms | iterations | status | verdict | cost |');
    p('|---:|---:|---:|---|---|---:|');
    for (const q of s.rows)
      p(
        `| ${q.n} | ${range(q.ms)} | ${q.iterations} | ${q.status} | ${q.secondOrder} | ${q.cost.toFixed(10)} |`,
      );
    p();
    geomechNotes(s, p);
  }
}

/**
 * Markdown lines of RESULTS.md section 5 from the @@RESULT of bench/js/ipopt.mjs (`res`) and of
 * bench/js/ocp.mjs (`geomech`: `{ studies: [{ id, rows, exponentPerIteration }], rows, cold }`,
 * rows `{ id, n, ms: { median, min, max, runs }, iterations, cost, status, secondOrder,
 * msPerIteration, evaluationMs, linearAlgebraMs, bytesPerIteration }` with the ids and n of the
 * scaling studies, timed in-process), or null when that script failed ("pending" columns).
 */
export function ipoptSection(res, geomech = null) {
  const md = [];
  const p = (s = '') => md.push(s);
  p('## 5. Optimal control: IPOPT reference (issue 16)');
  p();
  if (!res) {
    p('The IPOPT section failed (see "Failures").');
    p();
    geomechOnly(geomech, p);
    return md;
  }
  if (res.skipped) {
    p(`${res.skipped}: no comparison; the geomech solves alone follow.`);
    p();
    geomechOnly(geomech, p);
    return md;
  }
  p(
    `bench/ipopt: the discrete problems as a direct transcription for IPOPT ${res.version ?? ''} (C++ TNLP, exact first and second derivatives, MUMPS), options ${Object.entries(
      res.options ?? {},
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}. Times are of the whole process (start-up, IPOPT's set-up and the solve), median (min–max) of ${res.runs} runs after a warm-up; IPOPT's own CPU time and this driver's function-evaluation time are from the same runs. Every n is solved twice from the same guess: with these options (tol 1e-8) and converged further (tol 1e-10): IPOPT's tol bounds its scaled optimality error, and "cost error at tol 1e-8" shows that its cost can then still be off by ~1e-7 relative, so the cost comparison (to 1e-8) is against the tol 1e-10 solve. Formulations, guesses and gauges: [ipopt/README.md](ipopt/README.md).`,
  );
  p();
  if (res.check) {
    p('### Derivative checks');
    p();
    p(
      "IPOPT's `derivative_test = second-order` (forward differences of f, g and of the exact first derivatives, tol 1e-4) at a random point near the guess, and this driver's central-difference check (dense, every entry of ∇f, the Jacobian and the Hessian of the Lagrangian with random multipliers; max |FD − exact|/(1 + |exact|), tolerance 1e-6).",
    );
    p();
    p('| problem | IPOPT errors | central ∇f | central Jacobian | central Hessian | verdict |');
    p('|---|---:|---:|---:|---:|---|');
    for (const c of res.check)
      p(
        `| ${c.label} | ${c.ipoptErrors} | ${e1(c.centralGrad)} | ${e1(c.centralJacobian)} | ${e1(c.centralHessian)} | ${c.passed ? 'pass' : '**FAIL**'} |`,
      );
    p();
  }
  if (res.references) {
    p('### Published reference costs (spec 003 S4, S6, S7, README main job)');
    p();
    p(
      '| case | n | reference | IPOPT status | IPOPT cost | IPOPT iterations | cost agrees to the printed digits |',
    );
    p('|---|---:|---:|---|---:|---:|---|');
    for (const r of res.references) {
      // the cost alone (half a unit in the last printed place); IPOPT's status is its own column
      const digits = r.reference.includes('.') ? r.reference.split('.')[1].length : 0;
      const costAgrees = Math.abs(r.cost - Number(r.reference)) <= 0.5 * 10 ** -digits + 1e-12;
      p(
        `| ${r.label} | ${r.n} | ${r.reference} | ${r.status} | ${r.cost.toFixed(10)} | ${r.iterations} | ${costAgrees ? 'yes' : '**NO**'} |`,
      );
    }
    p();
    p(
      'Solved_To_Acceptable_Level: IPOPT stopped on its acceptable tolerances (its dual infeasibility stalled above tol = 1e-8) with the cost shown.',
    );
    p();
  }
  const byKey = new Map((geomech?.rows ?? []).map((g) => [`${g.id} ${g.n}`, g]));
  for (const s of res.scaling ?? []) {
    p(`### ${s.label}`);
    p();
    if (s.id.startsWith('quadrotor')) {
      p(
        `n ≤ ${QUADROTOR_MAX_N} for the quadrotor rows unless \`--sizes=\` is given (bench/lib/util.mjs QUADROTOR_MAX_N: IPOPT's whole process takes about 40 s of CPU per solve at n = 4000, and the two rows would add about 25 minutes to a full run).`,
      );
      p();
    }
    p(
      '| n | unknowns | IPOPT its tol 1e-8 / 1e-10 | IPOPT cost (tol 1e-10) | cost error at tol 1e-8 | whole process ms, tol 1e-8 | whole process ms, tol 1e-10 | ms/iteration (1e-10) | IPOPT CPU ms (1e-10) | whole process CPU ms (1e-10) | eval ms (1e-10) | geomech ms | geomech CPU ms | geomech its | geomech ms/iteration | geomech bytes/iteration (median / mean) | geomech cost − IPOPT (rel.) | IPOPT (1e-10) / geomech, wall | IPOPT process / geomech, CPU |',
    );
    p(
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const st = (r) => (r.status === 'Solve_Succeeded' ? '' : ` (${r.status})`);
    for (const r of s.points) {
      const a = r.tol8;
      const b = r.tol10;
      const g = byKey.get(`${s.id} ${r.n}`);
      const rel = g ? (g.cost - b.cost) / Math.abs(b.cost) : Number.NaN;
      p(
        `| ${r.n} | ${r.unknowns} | ${a.iterations}${st(a)} / ${b.iterations}${st(b)} | ${b.cost.toFixed(10)} | ${e1(r.costError)} | ${range(a.ms)} | ${range(b.ms)} | ${ft(b.msPerIteration)} | ${ft(b.ipoptCpuMs)} | ${range(b.processCpuMs)} | ${ft(b.evalMs)} | ${g ? range(g.ms) : 'pending'} | ${g ? range(g.cpuMs) : 'pending'} | ${g ? g.iterations : 'pending'} | ${g ? ft(g.msPerIteration) : 'pending'} | ${g ? `${f0(g.bytesPerIteration)} / ${f0(g.bytesPerIterationMean)}` : 'pending'} | ${g ? e1(rel) : 'pending'} | ${g ? `${(b.ms.median / g.ms.median).toFixed(2)}×` : 'pending'} | ${g ? `${cpuRatio(b, g).toFixed(2)}×` : 'pending'} |`,
      );
    }
    p();
    const x = s.exponents;
    p(
      `Fitted exponent against n (1 = linear): whole process ${f2(x.tol8.whole)} (tol 1e-8), ${f2(x.tol10.whole)} (tol 1e-10); whole process per iteration ${f2(x.tol8.perIteration)} / ${f2(x.tol10.perIteration)}; IPOPT CPU per iteration ${f2(x.tol8.cpuPerIteration)} / ${f2(x.tol10.cpuPerIteration)}.`,
    );
    p();
    geomechNotes(
      geomech?.studies?.find((g) => g.id === s.id),
      p,
    );
  }
  const targets = (res.scaling ?? []).flatMap((s) => {
    const g = geomech?.studies?.find((q) => q.id === s.id);
    if (!g) return [];
    const ratios = s.points.flatMap((r) => {
      const q = byKey.get(`${s.id} ${r.n}`);
      return q ? [r.tol10.ms.median / q.ms.median] : [];
    });
    const cpuRatios = s.points.flatMap((r) => {
      const q = byKey.get(`${s.id} ${r.n}`);
      return q ? [cpuRatio(r.tol10, q)] : [];
    });
    const its = g.rows.map((q) => q.iterations);
    const bytes = Math.max(...g.rows.map((q) => q.bytesPerIteration));
    const bytesMean = Math.max(...g.rows.map((q) => q.bytesPerIterationMean));
    const expIt = g.exponentIteration;
    const expItCpu = g.exponentIterationCpu;
    const expFixedCpu = g.exponentFixedCpu;
    const ok = (c) => (c ? '✓' : '✗');
    return [
      `| ${s.id} | ${f2(Math.min(...cpuRatios))}× ${ok(Math.min(...cpuRatios) >= 2)} | ${f2(Math.min(...ratios))}× ${ok(Math.min(...ratios) >= 2)} | ${Math.min(...its)}–${Math.max(...its)} (IPOPT ${Math.min(...s.points.map((r) => r.tol10.iterations))}–${Math.max(...s.points.map((r) => r.tol10.iterations))}) | ${f2(expIt)} ${ok(expIt <= 1.1)} | ${f2(expItCpu)} ${ok(expItCpu <= 1.1)} | ${f2(expFixedCpu)} ${ok(expFixedCpu <= 1.1)} | ${f2(g.exponentPerIteration)} / ${f2(g.exponentPerIterationCpu)} | ${f0(bytes)} / ${f0(bytesMean)} ${ok(bytes <= 0 && bytesMean <= 0)} |`,
    ];
  });
  if (targets.length) {
    p('### geomech against the targets of issue 16');
    p();
    p(
      'Least ratio IPOPT whole process (tol 1e-10) / geomech solve over n (target ≥ 2×), on CPU time (user + system of the whole IPOPT process under GNU time, start-up included, against process.cpuUsage of the in-process solve) and on wall time; geomech iterations over n (target: flat); fitted exponent in n of the time per iteration (target ≤ 1.1): the iterations alone, from the solver’s line of iteration 0 to its last line over their number, on wall and on CPU time; of the fixed work of a solve outside its iterations, on CPU time (set-up: evaluations and the least-squares multipliers; after the last iteration: the second-order verdict’s factorizations; target ≤ 1.1, so that no part of a solve grows faster than n); for reference the whole solve over its iterations (wall / CPU), which mixes the two: where the iterations fall from 2 to 1 as n grows (the SO(3) rows) while the fixed work costs about 1.6–2.5 iterations, this quotient rises faster than n although every part is linear; largest bytes allocated per iteration after the first, median and mean over the iterations (target 0).',
    );
    p();
    p(
      '| problem | IPOPT / geomech, CPU (least) | IPOPT / geomech, wall (least) | iterations over n | exponent, ms/iteration (iterations alone, wall) | exponent, ms/iteration (iterations alone, CPU) | exponent, fixed work per solve (CPU) | for reference: exponent of whole solve / iterations (wall / CPU) | bytes/iteration (largest median / mean) |',
    );
    p('|---|---:|---:|---|---:|---:|---:|---:|---:|');
    for (const line of targets) p(line);
    p();
  }
  if (res.cases) {
    p('### Robustness sets (bench/ipopt/cases, the references of issue 16)');
    p();
    p(
      'Solved once by `node bench/js/ipopt.mjs --write-cases` and committed; the costs are those of a tol = 1e-10 solve from the default guess, "best restart" the least cost over the perturbed/flipped restarts listed in the file.',
    );
    p();
    p(
      '| set | cases | n | default guess: Solve_Succeeded | IPOPT iterations (min–max) | a restart found a lower cost | generated |',
    );
    p('|---|---:|---|---:|---|---:|---|');
    for (const c of res.cases)
      p(
        `| ${c.file} | ${c.count} | ${c.nValues.join(', ')} | ${c.succeeded}/${c.count} | ${c.itMin}–${c.itMax} | ${c.lowerByRestart} | ${c.generated} |`,
      );
    p();
  }
  return md;
}
