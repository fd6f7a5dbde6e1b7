import { SO3 } from '@geomech/core';
import { LieGroupOCP, so3SteeringData } from '@geomech/groupoid';
import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess, simulate } from './helpers.js';

interface SolveDoc {
  ok: boolean;
  problem: string;
  method: string;
  converged: boolean;
  status: string;
  secondOrder: string;
  hint?: string;
  delResidual?: number;
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
  it('Ω = 0.5, ψ = 0.3, n = 30: cost 3.247543 (the S7 table), a converged minimum', async () => {
    const doc = await solve('plate-ball', '--param', 'Omega=0.5', '--n', '30');
    expect(doc.ok).toBe(true);
    expect(doc.converged).toBe(true);
    expect(doc.status).toBe('converged');
    expect(doc.secondOrder).toBe('minimum');
    expect(doc.method).toBe('interior-point');
    expect(doc.cost).toBeCloseTo(3.247543, 6);
    expect(doc.residualNorm).toBeLessThanOrEqual(1e-10);
    expect(doc.constraintNorm).toBeLessThanOrEqual(1e-12);
    expect(doc.delResidual).toBeLessThanOrEqual(1e-9);
    expect(doc.series.x).toHaveLength(31);
    expect(doc.series.t![30]).toBe(1);
    // boundary data: back at the origin, turned by 0.3 about z
    expect(Math.abs(doc.series.x![30] as number)).toBeLessThan(1e-12);
    const G = doc.series.R![30] as number[];
    expect(Math.abs(G[0]! - Math.cos(0.3))).toBeLessThan(1e-12);
    expect(Math.abs(G[3]! - Math.sin(0.3))).toBeLessThan(1e-12);
    // one entry per iteration and one for the starting point
    expect(doc.history.length).toBe(doc.iterations + 1);
  });
  it('a previous solution as --guess converges in fewer iterations, and --continuation reaches the same cost', async () => {
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
    const cold = JSON.parse(first.stdout) as SolveDoc;
    const warm = JSON.parse(out) as SolveDoc;
    // the guess file holds the states (no multipliers): measured 5 iterations against 9 cold
    expect(warm.iterations).toBeLessThan(cold.iterations);
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
    ['an old method name', ['so3-steering', '--method', 'shooting']],
    ['bad loop orientation', ['plate-ball', '--param', 'loop=2']],
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
  it('the iteration limit: exit 1, the document still written with ok: false, status and a hint in CLI flags', async () => {
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
    expect(r.stderr).toMatch(/did not converge \(status iteration-limit/);
    expect(r.stderr).toMatch(/--max-iter/);
    const doc = JSON.parse(r.files.get('f.json')!) as SolveDoc;
    expect(doc.ok).toBe(false);
    expect(doc.converged).toBe(false);
    expect(doc.status).toBe('iteration-limit');
    expect(doc.history.length).toBe(2);
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
  it('φ = 1, n = 40: cost 5.798604 (the S4 table), a minimum, λ_k ≈ 2π − φ', async () => {
    const doc = await solve('so3-steering');
    expect(doc.ok).toBe(true);
    expect(doc.secondOrder).toBe('minimum');
    expect(doc.cost).toBeCloseTo(5.798604, 6);
    const lam = doc.series.lambda as number[];
    expect(lam).toHaveLength(41);
    // λ is constant along the discrete extremal and tends to 2π − φ at O(h²)
    expect(Math.abs(lam[20]! - (2 * Math.PI - 1))).toBeLessThan(0.05);
    const xi = doc.series.xi as number[][];
    for (const x of xi) expect(Math.abs(x[2]!)).toBeLessThan(1e-10); // Ψ(ξ) = ξ₃ = 0
  });
  it('exp agrees with its own S4 value; --continuation reaches φ = 3 (14.400675)', async () => {
    const exp = await solve('so3-steering', '--param', 'map=exp', '--n', '20');
    expect(exp.ok).toBe(true);
    expect(exp.params.map).toBe('exp');
    expect(exp.cost).toBeCloseTo(5.817067, 6);
    const cont = await solve('so3-steering', '--param', 'phi=3', '--continuation', '5');
    expect(cont.cost).toBeCloseTo(14.400675, 6);
  });
  it('a saddle given as --guess with --max-iter 0: secondOrder saddle, ok false, exit 1 with a hint', async () => {
    const n = 40;
    const phi = 2.5;
    const guess = saddleGuess(phi, n);
    const files = new Map([['saddle.json', JSON.stringify({ series: guess })]]);
    const { main } = await import('../src/index.js');
    let out = '';
    let err = '';
    const code = await main(
      [
        'solve',
        'so3-steering',
        '--param',
        `phi=${phi}`,
        '--n',
        String(n),
        '--guess',
        'saddle.json',
        '--max-iter',
        '0',
      ],
      {
        stderrIsTTY: false,
        stdout: (t) => {
          out += t;
        },
        stderr: (t) => {
          err += t;
        },
        writeFile: () => {},
        readFile: (p) => files.get(p)!,
      },
    );
    expect(code).toBe(1);
    const doc = JSON.parse(out) as SolveDoc;
    expect(doc.ok).toBe(false);
    expect(doc.converged).toBe(true);
    expect(doc.status).toBe('converged');
    expect(doc.secondOrder).toBe('saddle');
    expect(doc.cost).toBeGreaterThan(70); // measured 75.80 (the minimum: 12.63)
    expect(err).toMatch(ERROR_LINE);
    expect(err).toMatch(/saddle point, not a minimum/);
    expect(err).toMatch(/--guess FILE/);
  });
});

/**
 * The high-cost discrete extremal of S4 at φ (|X| = 4π, λ = −φ), by shooting on the DEL (6.1-e)
 * (test-only), in the CLI's series layout (R per state, ξ per step with state 0 repeating step 1).
 */
function saddleGuess(phi: number, n: number): { R: number[][]; xi: number[][] } {
  const lg = new LieGroupOCP({ ...so3SteeringData('cayley'), h: 1 / n });
  const T = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, phi));
  const march = (p: readonly number[]) => {
    const xi = Float64Array.of(p[0]!, 0, 0);
    const lam = Float64Array.of(p[1]!);
    const G = SO3.identity(new Float64Array(9));
    const R: number[][] = [Array.from(G)];
    const X: number[][] = [];
    for (let k = 1; k <= n; k++) {
      if (k > 1) lg.stepLP(xi, lam, xi, lam);
      X.push(Array.from(xi));
      lg.reconstruct(G, G, xi);
      R.push(Array.from(G));
    }
    const E = SO3.between(new Float64Array(9), T, G);
    const f = 2 / (1 + E[0]! + E[4]! + E[8]!);
    return { r: [f * (E[7]! - E[5]!), f * (E[2]! - E[6]!), f * (E[3]! - E[1]!)], R, X };
  };
  let p = [Math.sqrt(16 * Math.PI ** 2 - phi ** 2), -phi];
  for (let it = 0; it < 40; it++) {
    const { r } = march(p);
    if (Math.max(...r.map(Math.abs)) < 1e-14) break;
    const J = [0, 1].map((j) => {
      const e = 1e-7 * Math.max(1, Math.abs(p[j]!));
      const a = march(p.map((v, i) => (i === j ? v + e : v))).r;
      const b = march(p.map((v, i) => (i === j ? v - e : v))).r;
      return a.map((v, i) => (v - b[i]!) / (2 * e));
    });
    const A = [0, 1].map((i) => [0, 1].map((j) => J[i]!.reduce((s, v, k) => s + v * J[j]![k]!, 0)));
    const g = [0, 1].map((i) => J[i]!.reduce((s, v, k) => s + v * r[k]!, 0));
    const det = A[0]![0]! * A[1]![1]! - A[0]![1]! * A[1]![0]!;
    p = [
      p[0]! - (A[1]![1]! * g[0]! - A[0]![1]! * g[1]!) / det,
      p[1]! - (A[0]![0]! * g[1]! - A[1]![0]! * g[0]!) / det,
    ];
  }
  const { R, X } = march(p);
  return { R, xi: [X[0]!, ...X] };
}
