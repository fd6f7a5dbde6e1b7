// Cost per step of Dirac-2c and RATTLE on the Ziegler chain (undamped, and forced by the joint
// damping 0.2) against the number of links
// n = 2, 4, …, 128 (h = 0.01; the load and initial angles of common.mjs), with the fitted log-log
// exponents of ns/step against n. Run after a build: `node bench/zieglerScaling.mjs` or `--json`.
//
// What to expect: the column declares its constraint band (row i of C couples joints i − 1 and i),
// so both steps take the banded path: C(q) in band storage (O(n)), products over each row's band,
// the tridiagonal C M⁻¹ Cᵀ (Dirac-2c) and RATTLE's tridiagonal Newton Jacobian and velocity-stage
// matrix factored by core's BandLU (O(n) each). So ns/step grows linearly in n (exponent ≈ 1; a
// fixed per-step overhead pulls it below 1 at small n).
//
// Columns: wall ns/step (median, min–max, the harness's batches) and CPU ns/step (common.mjs
// perStep: median of 5 batches timed with process.cpuUsage; on a loaded machine the CPU time is
// the steadier of the two, and the fitted exponents use it).
import {
  dirac,
  emit,
  fmt,
  H,
  JSON_OUT,
  note,
  perStep,
  QUICK,
  slope,
  ziegler,
  zieglerDamped,
} from './common.mjs';

const { DiracStepper, createComparatorStepper } = dirac;

const LINKS = QUICK ? [2, 4, 8, 16, 32, 64] : [2, 4, 8, 16, 32, 64, 128];

const series = { dirac2c: [], rattle: [], dirac2cForced: [], rattleForced: [] };
for (const links of LINKS) {
  const c = ziegler(links);
  const restart = links >= 32 ? 200 : links >= 16 ? 500 : 2000;
  note(`ziegler scaling: n = ${links}`);
  {
    const st = new DiracStepper(c.sys, 'dirac-2c');
    const start = st.initialState(c.q0, new Float64Array(c.sys.n));
    const state = new Float64Array(start.length);
    const reset = () => {
      state.set(start);
      st.reset();
    };
    const step = (k) => st.step(state, k, H);
    const m = perStep(reset, step, restart);
    series.dirac2c.push({ x: links, ...m.hot, bytes: m.bytes });
  }
  {
    const st = createComparatorStepper(c.sys, 'rattle');
    const z = new Float64Array(2 * c.sys.n);
    const reset = () => {
      z.set(c.q0);
      z.set(c.v0, c.sys.n);
      st.reset();
    };
    const m = perStep(reset, (k) => st.step(z, k, H), restart);
    reset();
    let its = 0;
    for (let k = 0; k < restart; k++) its += st.step(z, k, H);
    series.rattle.push({ x: links, ...m.hot, bytes: m.bytes, iterations: its / restart });
  }
  // the damped column (joint damping 0.2, a BandedForce of half-bandwidth 5): the forced Newton
  // runs every step, on the banded bordered matrix
  const cd = zieglerDamped(links);
  {
    const st = new DiracStepper(cd.sys, 'dirac-2c', { force: cd.force });
    const start = st.initialState(cd.q0, new Float64Array(cd.sys.n));
    const state = new Float64Array(start.length);
    const reset = () => {
      state.set(start);
      st.reset();
    };
    const m = perStep(reset, (k) => st.step(state, k, H), restart);
    reset();
    let its = 0;
    for (let k = 0; k < restart; k++) its += st.step(state, k, H);
    series.dirac2cForced.push({ x: links, ...m.hot, bytes: m.bytes, iterations: its / restart });
  }
  {
    const st = createComparatorStepper(cd.sys, 'rattle', { force: cd.force });
    const z = new Float64Array(2 * cd.sys.n);
    const reset = () => {
      z.set(cd.q0);
      st.reset();
    };
    const m = perStep(reset, (k) => st.step(z, k, H), restart);
    reset();
    let its = 0;
    for (let k = 0; k < restart; k++) its += st.step(z, k, H);
    series.rattleForced.push({ x: links, ...m.hot, bytes: m.bytes, iterations: its / restart });
  }
}

const fit = (pts, from = 0, key = 'cpu') => {
  const sel = pts.filter((p) => p.x >= from);
  return slope(
    sel.map((p) => p.x),
    sel.map((p) => p[key]),
  );
};
const studies = [
  {
    id: 'links-dirac2c',
    title: 'Dirac-2c step, Ziegler chain, h = 0.01',
    xLabel: 'links n',
    points: series.dirac2c,
    exponent: fit(series.dirac2c),
    exponentLarge: fit(series.dirac2c, 8),
    exponentWall: fit(series.dirac2c, 0, 'median'),
  },
  {
    id: 'links-rattle',
    title: 'RATTLE step, Ziegler chain, h = 0.01',
    xLabel: 'links n',
    points: series.rattle,
    exponent: fit(series.rattle),
    exponentLarge: fit(series.rattle, 8),
    exponentWall: fit(series.rattle, 0, 'median'),
  },
  {
    id: 'links-dirac2c-forced',
    title: 'forced Dirac-2c step (joint damping 0.2), Ziegler chain, h = 0.01',
    xLabel: 'links n',
    points: series.dirac2cForced,
    exponent: fit(series.dirac2cForced),
    exponentLarge: fit(series.dirac2cForced, 8),
    exponentWall: fit(series.dirac2cForced, 0, 'median'),
  },
  {
    id: 'links-rattle-forced',
    title: 'forced RATTLE step (joint damping 0.2), Ziegler chain, h = 0.01',
    xLabel: 'links n',
    points: series.rattleForced,
    exponent: fit(series.rattleForced),
    exponentLarge: fit(series.rattleForced, 8),
    exponentWall: fit(series.rattleForced, 0, 'median'),
  },
];

if (JSON_OUT) emit({ studies });
else {
  for (const s of studies) {
    console.log(`## ${s.title}`);
    console.log('');
    console.log(
      '| links n | wall ns/step median (min–max) | CPU ns/step | bytes/step | Newton its/step |',
    );
    console.log('|---:|---:|---:|---:|---:|');
    for (const p of s.points) {
      console.log(
        `| ${p.x} | ${fmt(p.median, 0)} (${fmt(p.min, 0)}–${fmt(p.max, 0)}) | ${fmt(p.cpu, 0)} | ${fmt(p.bytes, 1)} | ${p.iterations === undefined ? '—' : fmt(p.iterations, 2)} |`,
      );
    }
    console.log('');
    console.log(
      `Fitted exponent of CPU ns/step against n: ${fmt(s.exponent, 2)} (all n), ${fmt(s.exponentLarge, 2)} (n ≥ 8); of wall ns/step: ${fmt(s.exponentWall, 2)}.`,
    );
    console.log('');
  }
}
