// Cost per step of Dirac-2c and RATTLE on the Ziegler chain against the number of links
// n = 2, 4, …, 64 (h = 0.01; the load and initial angles of common.mjs), with the fitted log-log
// exponents of ns/step against n. Run after a build: `node bench/zieglerScaling.mjs` or `--json`.
//
// What to expect: both steps assemble C(q) (m × 2m dense storage, O(m²) to fill), products with
// C in O(m²) (dense storage) and the sparse Gram matrix C M⁻¹ Cᵀ (O(m²)), and factor m × m dense
// matrices (O(m³)): Dirac-2c one LU per step, RATTLE one per Newton iteration plus one for the
// velocity stage. So the exponent climbs from ≈ 2 (small n, assembly-dominated) towards 3.
import { dirac, emit, fmt, H, JSON_OUT, note, perStep, QUICK, slope, ziegler } from './common.mjs';

const { DiracStepper, createComparatorStepper } = dirac;

const LINKS = QUICK ? [2, 4, 8, 16, 32] : [2, 4, 8, 16, 32, 64];

const series = { dirac2c: [], rattle: [] };
for (const links of LINKS) {
  const c = ziegler(links);
  const restart = links >= 32 ? 200 : links >= 16 ? 500 : 2000;
  note(`ziegler scaling: n = ${links}`);
  {
    const st = new DiracStepper(c.sys, 'dirac-2c');
    const start = st.initialState(c.q0, new Float64Array(c.sys.n));
    const state = new Float64Array(start.length);
    const m = perStep(
      () => {
        state.set(start);
        st.reset();
      },
      (k) => st.step(state, k, 0, H),
      restart,
    );
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
    const m = perStep(reset, (k) => st.step(z, k, 0, H), restart);
    reset();
    let its = 0;
    for (let k = 0; k < restart; k++) its += st.step(z, k, 0, H);
    series.rattle.push({ x: links, ...m.hot, bytes: m.bytes, iterations: its / restart });
  }
}

const fit = (pts, from = 0) => {
  const sel = pts.filter((p) => p.x >= from);
  return slope(
    sel.map((p) => p.x),
    sel.map((p) => p.median),
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
  },
  {
    id: 'links-rattle',
    title: 'RATTLE step, Ziegler chain, h = 0.01',
    xLabel: 'links n',
    points: series.rattle,
    exponent: fit(series.rattle),
    exponentLarge: fit(series.rattle, 8),
  },
];

if (JSON_OUT) emit({ studies });
else {
  for (const s of studies) {
    console.log(`## ${s.title}`);
    console.log('');
    console.log('| links n | ns/step median (min–max) | bytes/step | Newton its/step |');
    console.log('|---:|---:|---:|---:|');
    for (const p of s.points) {
      console.log(
        `| ${p.x} | ${fmt(p.median, 0)} (${fmt(p.min, 0)}–${fmt(p.max, 0)}) | ${fmt(p.bytes, 1)} | ${p.iterations === undefined ? '—' : fmt(p.iterations, 2)} |`,
      );
    }
    console.log('');
    console.log(
      `Fitted exponent of ns/step against n: ${fmt(s.exponent, 2)} (all n), ${fmt(s.exponentLarge, 2)} (n ≥ 8).`,
    );
    console.log('');
  }
}
