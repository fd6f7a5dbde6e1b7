import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess, simulate } from './helpers.js';

interface SolveDoc {
  ok: boolean;
  problem: string;
  converged: boolean;
  iterations: number;
  residualNorm: number;
  cost: number;
  constraintNorm?: number;
  history: number[];
  params: Record<string, number | string>;
  series: Record<string, (number | number[])[]>;
  stats: { newtonIterations: number; maxResidual: number; wallMs: number };
}

async function solve(...args: string[]): Promise<SolveDoc> {
  const r = await inProcess('solve', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as SolveDoc;
}

describe('simulate plate-ball (spec 003 S5)', () => {
  it('defaults: Casimir |Π⁻| = 0.707041836261 and the Noether charge are conserved', async () => {
    const doc = await simulate('plate-ball');
    const num = (f: string) => doc.series[f] as number[];
    const vec = (f: string) => doc.series[f] as number[][];
    expect(num('x')).toHaveLength(201);
    expect(vec('R')[0]).toHaveLength(9);
    expect(vec('lambda')[0]).toHaveLength(3);
    for (const c of num('casimir')) expect(Math.abs(c - 0.707041836261)).toBeLessThan(2e-13);
    const n0 = num('noether')[0]!;
    // measured spread 1.2e-13 (|x|, |y| grow to ~10, so the charge's terms are ~10× larger)
    for (const q of num('noether')) expect(Math.abs(q - n0)).toBeLessThan(1e-12);
    // node 200 at t = 10 (the S5 prototype's −6.62381, −9.44369 is node 201, the β-end of the
    // 200th step's element)
    expect(num('t')[0]).toBe(0);
    expect(num('t')[200]).toBe(10);
    expect(num('x')[0]).toBe(0);
    expect(num('x')[200]).toBeCloseTo(-6.566361, 5);
    expect(num('y')[200]).toBeCloseTo(-9.319102, 5);
    expect(doc.stats.newtonIterations).toBeGreaterThanOrEqual(590);
    expect(doc.stats.newtonIterations).toBeLessThanOrEqual(600);
  });
  it('--t-end 1 ends at t = 1 (20 steps of 0.05, 21 nodes from t = 0)', async () => {
    const doc = await simulate('plate-ball', '--t-end', '1');
    const t = doc.series.t as number[];
    expect(t).toHaveLength(21);
    expect(t[0]).toBe(0);
    expect(t[20]).toBe(1);
  });
  it('an increment past the branch |hω| < 1 is a clean input error', async () => {
    const r = await inProcess('simulate', 'plate-ball', '--init', 'x1=5');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});

describe('solve plate-ball (spec 003 S7)', () => {
  it('Ω = 0.5, ψ = 0.3, n = 30: cost 3.247543 (the S7 table), residual ≤ 1e-10', async () => {
    const doc = await solve('plate-ball', '--param', 'Omega=0.5', '--n', '30');
    expect(doc.ok).toBe(true);
    expect(doc.converged).toBe(true);
    expect(doc.cost).toBeCloseTo(3.247543, 6);
    expect(doc.residualNorm).toBeLessThanOrEqual(1e-10);
    expect(doc.constraintNorm).toBeLessThanOrEqual(1e-12);
    expect(doc.series.x).toHaveLength(31);
    expect(doc.series.t![30]).toBe(1);
    // boundary data: back at the origin, turned by 0.3 about z
    expect(Math.abs(doc.series.x![30] as number)).toBeLessThan(1e-12);
    const G = doc.series.R![30] as number[];
    expect(Math.abs(G[0]! - Math.cos(0.3))).toBeLessThan(1e-12);
    expect(Math.abs(G[3]! - Math.sin(0.3))).toBeLessThan(1e-12);
    expect(doc.history.length).toBe(doc.iterations); // ‖F‖ before each step
  });
  it('a previous solution as --guess converges at once, and --continuation reaches the same cost', async () => {
    const first = await inProcess('solve', 'plate-ball', '--param', 'Omega=0.5', '--n', '30');
    const files = new Map([['prev.json', first.stdout]]);
    const { main } = await import('../src/index.js');
    let out = '';
    const code = await main(
      ['solve', 'plate-ball', '--param', 'Omega=0.5', '--n', '30', '--guess', 'prev.json'],
      {
        stderrIsTTY: false,
        stdout: (t) => {
          out += t;
        },
        stderr: () => {},
        writeFile: () => {},
        readFile: (p) => {
          const text = files.get(p);
          if (text === undefined) throw new Error(`ENOENT ${p}`);
          return text;
        },
      },
    );
    expect(code).toBe(0);
    const warm = JSON.parse(out) as SolveDoc;
    expect(warm.iterations).toBeLessThanOrEqual(1);
    expect(warm.cost).toBeCloseTo(3.247543, 6);
    const cont = await solve(
      'plate-ball',
      '--param',
      'Omega=0.5',
      '--n',
      '30',
      '--continuation',
      '3',
    );
    expect(cont.cost).toBeCloseTo(3.247543, 6);
  });
  it('CSV holds the series with one header line', async () => {
    const r = await inProcess('solve', 'plate-ball', '--n', '10', '--format', 'csv');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      't,x,y,R[0],R[1],R[2],R[3],R[4],R[5],R[6],R[7],R[8],lambda[0],lambda[1],lambda[2]',
    );
    expect(lines).toHaveLength(12);
  });
  it('--plot writes an SVG of the contact-point path', async () => {
    const r = await inProcess('solve', 'plate-ball', '--n', '20', '--plot', 'path.svg');
    expect(r.code).toBe(0);
    const svg = r.files.get('path.svg')!;
    expect(svg.startsWith('<svg') || svg.startsWith('<?xml')).toBe(true);
    expect(svg).toContain('<polyline');
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
  for (const [label, args] of [
    ['unknown problem', ['nope']],
    ['unknown parameter', ['plate-ball', '--param', 'phi=1']],
    ['n < 2', ['plate-ball', '--n', '1']],
    ['malformed --end', ['plate-ball', '--end', '0,0,0,x,0']],
    ['short --start', ['plate-ball', '--start', '0,0']],
    ['--start on a fixed problem', ['so3-steering', '--start', '0,0,0,0,0']],
    ['unknown map', ['so3-steering', '--param', 'map=quat']],
    ['missing guess file', ['plate-ball', '--guess', 'none.json']],
    ['plot without .svg', ['plate-ball', '--plot', 'x.png']],
  ] as const) {
    it(`${label}: exit 2 with one error line`, async () => {
      const r = await inProcess('solve', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(ERROR_LINE);
      expect(r.stdout).toBe('');
    });
  }
  it('non-convergence: exit 1, the document still written with ok: false and a hint', async () => {
    const r = await inProcess(
      'solve',
      'plate-ball',
      '--n',
      '30',
      '--max-iter',
      '1',
      '--out',
      'f.json',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/did not converge/);
    const doc = JSON.parse(r.files.get('f.json')!) as SolveDoc;
    expect(doc.ok).toBe(false);
    expect(doc.converged).toBe(false);
    expect(doc.history.length).toBeGreaterThan(0);
  });
});

describe('simulate rigid-body (spec 003 S3)', () => {
  for (const method of ['cayley', 'exp']) {
    it(`${method}: |π| and the spatial momentum conserved to round-off over 1000 steps`, async () => {
      const doc = await simulate('rigid-body', '--method', method);
      const cas = doc.series.casimir as number[];
      const sp = doc.series.spatialMomentum as number[][];
      expect(cas).toHaveLength(1001);
      // the first state is the initial node G_0 = I at t = 0 with ξ_1 = xi0; the last is t = 100
      const t = doc.series.t as number[];
      expect([t[0], t[1000]]).toEqual([0, 100]);
      expect(doc.series.R![0]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      expect(doc.series.xi![0]).toEqual([0.8, -0.5, 0.3]);
      // measured 6.4e-14 (Cayley) and 5.8e-15 (exp)
      for (const c of cas) expect(Math.abs(c - cas[0]!)).toBeLessThan(5e-13);
      for (const m of sp)
        for (let i = 0; i < 3; i++) expect(Math.abs(m[i]! - sp[0]![i]!)).toBeLessThan(5e-13);
      const R = doc.series.R as number[][];
      const G = R[1000]!;
      // G stays a rotation: GᵀG = I
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          let s = 0;
          for (let k = 0; k < 3; k++) s += G[3 * k + i]! * G[3 * k + j]!;
          expect(Math.abs(s - (i === j ? 1 : 0))).toBeLessThan(1e-12);
        }
    });
  }
});

describe('solve so3-steering (spec 003 S4)', () => {
  it('φ = 1, n = 40: cost 5.798604 (the S4 table), λ_k ≈ 2π − φ', async () => {
    const doc = await solve('so3-steering');
    expect(doc.converged).toBe(true);
    expect(doc.cost).toBeCloseTo(5.798604, 6);
    const lam = doc.series.lambda as number[];
    expect(lam).toHaveLength(41);
    // λ is constant along the discrete extremal and tends to 2π − φ at O(h²)
    expect(Math.abs(lam[20]! - (2 * Math.PI - 1))).toBeLessThan(0.05);
    const xi = doc.series.xi as number[][];
    for (const x of xi) expect(Math.abs(x[2]!)).toBeLessThan(1e-10); // Ψ(ξ) = ξ₃ = 0
  });
  it('shooting and exp agree with the table; --continuation reaches φ = 3 (14.400675)', async () => {
    const shoot = await solve('so3-steering', '--method', 'shooting', '--n', '20');
    expect(shoot.cost).toBeCloseTo(5.845383, 6);
    // from the default guess, shooting at φ = 2 finds a high-cost extremal and says so
    const far = await solve(
      'so3-steering',
      '--method',
      'shooting',
      '--param',
      'phi=2',
      '--n',
      '20',
    );
    expect(far.cost).toBeGreaterThan(100);
    expect((far as SolveDoc & { hint?: string }).hint).toMatch(/high-cost extremal/);
    const exp = await solve('so3-steering', '--param', 'map=exp', '--n', '20');
    expect(exp.converged).toBe(true);
    expect(exp.params.map).toBe('exp');
    const cont = await solve('so3-steering', '--param', 'phi=3', '--continuation', '5');
    expect(cont.cost).toBeCloseTo(14.400675, 6);
  });
});
