/**
 * `pendulum` and `ziegler` (CLI.md built-in systems): every method with the defaults, constraint
 * preservation of RATTLE, CSV/JSON agreement, measured convergence orders of `geomech order` and
 * the usage errors of the link-angle list.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess, simulate, widthOf } from './helpers.js';

/** RATTLE first: the default run stays on its constraint (issue 18). */
const METHODS = [
  'rattle',
  'dirac-1',
  'dirac-2',
  'dirac-2c',
  'euler',
  'trapezium',
  'ab3',
  'rk4',
] as const;

const WIDTHS = {
  pendulum: { t: 1, q: 2, p: 2, lambda: 1, energy: 1, constraint: 1 },
  ziegler: { t: 1, q: 4, p: 4, lambda: 2, energy: 1, constraint: 2, angles: 2 },
} as const;

describe.each(['pendulum', 'ziegler'] as const)('simulate %s', (system) => {
  it.each(METHODS)(
    '%s runs with the defaults: h 0.01, 1000 steps, the contract fields',
    async (method) => {
      const doc = await simulate(system, '--method', method);
      expect(doc.ok).toBe(true);
      expect(doc.h).toBe(0.01);
      expect(doc.steps).toBe(1000);
      expect(Object.keys(doc.series)).toEqual(Object.keys(WIDTHS[system]));
      for (const [field, width] of Object.entries(WIDTHS[system])) {
        expect(doc.series[field]).toHaveLength(1001);
        expect(widthOf(doc.series[field]!), field).toBe(width);
      }
      expect(doc.series.t![1000]).toBeCloseTo(10, 12);
      // the start is on the constraint manifold, at the contract's initial angles
      const q0 = doc.series.q![0] as number[];
      if (system === 'pendulum') {
        expect(q0[0]).toBeCloseTo(Math.SQRT1_2, 15);
        expect(q0[1]).toBeCloseTo(-Math.SQRT1_2, 15);
        expect(Math.abs(doc.series.constraint![0] as number)).toBeLessThan(1e-15);
      } else {
        expect(doc.series.angles![0]).toEqual([0.1, 0]);
        for (const c of doc.series.constraint![0] as number[])
          expect(Math.abs(c)).toBeLessThan(1e-15);
      }
    },
  );

  it('rattle keeps every constraint below 1e-12 at every state', async () => {
    const doc = await simulate(system, '--method', 'rattle');
    let max = 0;
    for (const c of doc.series.constraint!)
      for (const x of [c].flat()) max = Math.max(max, Math.abs(x));
    expect(max).toBeLessThan(1e-12);
    expect(doc.stats.newtonIterations).toBeGreaterThan(0);
  });

  it('CSV and JSON agree number for number', async () => {
    const args = [system, '--method', 'rk4', '--steps', '20'];
    const doc = await simulate(...args);
    const csv = (await inProcess('simulate', ...args, '--format', 'csv')).stdout;
    const [header, ...rows] = csv.trim().split('\n');
    const columns: [string, number | null][] = [];
    for (const [field, width] of Object.entries(WIDTHS[system])) {
      if (width === 1) columns.push([field, null]);
      else for (let j = 0; j < width; j++) columns.push([field, j]);
    }
    expect(header).toBe(columns.map(([f, j]) => (j === null ? f : `${f}[${j}]`)).join(','));
    expect(rows).toHaveLength(21);
    for (const [i, row] of rows.entries()) {
      const cells = row.split(',').map(Number);
      for (const [c, [f, j]] of columns.entries()) {
        const v = doc.series[f]![i]!;
        expect(cells[c]).toBe(j === null ? v : (v as number[])[j]);
      }
    }
  });

  it('--every keeps every k-th state and the last', async () => {
    const doc = await simulate(system, '--method', 'dirac-2c', '--every', '300');
    expect(doc.series.t).toEqual([0, 3, 6, 9, 10]);
  });
});

describe('simulate pendulum: numbers', () => {
  it('dirac-1 drifts off the circle to x²+y²−l² ≈ 0.2585 at t = 10 (spec 001 §7.3)', async () => {
    const doc = await simulate('pendulum', '--method', 'dirac-1');
    expect(Math.abs((doc.series.constraint![1000] as number) - 0.2585)).toBeLessThan(5e-4);
  });

  it('theta0 and omega0 set the start: q0 = l(sin θ0, −cos θ0), p0 = m l ω0 (cos θ0, sin θ0)', async () => {
    const doc = await simulate(
      'pendulum',
      '--method',
      'rk4',
      '--steps',
      '1',
      '--param',
      'l=2',
      '--param',
      'm=3',
      '--init',
      'theta0=pi/2',
      '--init',
      'omega0=0.5',
    );
    const [x, y] = doc.series.q![0] as number[];
    const [px, py] = doc.series.p![0] as number[];
    expect(x).toBeCloseTo(2, 15);
    expect(y).toBeCloseTo(0, 15);
    expect(px).toBeCloseTo(0, 15);
    expect(py).toBeCloseTo(3, 15);
  });

  it('rk4 conserves the energy of the default run to 1e-4', async () => {
    const doc = await simulate('pendulum', '--method', 'rk4');
    const e = doc.series.energy as number[];
    expect(Math.abs(e[1000]! - e[0]!)).toBeLessThan(1e-4);
    expect(e[0]).toBeCloseTo(-9.81 * Math.SQRT1_2, 12);
  });
});

describe('simulate ziegler: links and initial angles', () => {
  it('n = 3 with the default theta tilts the first link only; widths follow n', async () => {
    const doc = await simulate('ziegler', '--param', 'n=3', '--steps', '2');
    expect(doc.series.angles![0]).toEqual([0.1, 0, 0]);
    expect(widthOf(doc.series.q!)).toBe(6);
    expect(widthOf(doc.series.lambda!)).toBe(3);
    expect(widthOf(doc.series.constraint!)).toBe(3);
  });

  it('a scalar omega is broadcast to every link', async () => {
    const a = await simulate('ziegler', '--method', 'rk4', '--steps', '3', '--init', 'omega=0.2');
    const b = await simulate(
      'ziegler',
      '--method',
      'rk4',
      '--steps',
      '3',
      '--init',
      'omega=0.2,0.2',
    );
    expect(a.series.q).toEqual(b.series.q);
    expect(a.series.p![0]).not.toEqual([0, 0, 0, 0]);
  });

  it.each([
    [['--init', 'theta=0.1']],
    [['--init', 'theta=0.1,0,0']],
    [['--param', 'n=3', '--init', 'theta=0.2,0.1']],
    [['--init', 'omega=1,2,3']],
    [['--param', 'n=1.5']],
  ])('%j exits 2 with one error line', async (extra) => {
    const r = await inProcess('simulate', 'ziegler', ...extra);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});

describe('simulate ziegler: joint damping (--param damping)', () => {
  it('damping=0 is the undamped run, number for number, for every method', async () => {
    for (const method of ['rattle', 'dirac-2c', 'rk4']) {
      const a = await inProcess('simulate', 'ziegler', '--method', method, '--steps', '200');
      const b = await inProcess(
        'simulate',
        'ziegler',
        '--method',
        method,
        '--steps',
        '200',
        '--param',
        'damping=0',
      );
      expect(b.code).toBe(0);
      type Doc = { series: unknown; stats: { newtonIterations: number; maxResidual: number } };
      const da = JSON.parse(a.stdout) as Doc;
      const db = JSON.parse(b.stdout) as Doc;
      expect(db.series).toEqual(da.series);
      expect(db.stats.newtonIterations).toBe(da.stats.newtonIterations);
      expect(db.stats.maxResidual).toBe(da.stats.maxResidual);
    }
  });
  it('damping > 0: the energy decays (no energy-band warning), the tilt dies out below P_c', async () => {
    for (const method of ['rattle', 'dirac-2c', 'dirac-1', 'trapezium']) {
      const doc = await simulate(
        'ziegler',
        '--method',
        method,
        '--t-end',
        '60',
        '--h',
        '0.02',
        '--param',
        'damping=0.5',
        '--init',
        'theta=0.2,0',
      );
      expect(doc.ok).toBe(true);
      const E = doc.series.energy as number[];
      expect(E[E.length - 1]!, method).toBeLessThan(E[0]! - 0.01);
      const warnings = (doc as { warnings?: string[] }).warnings ?? [];
      expect(warnings.filter((w) => w.includes('energy'))).toEqual([]);
      const last = doc.series.angles![E.length - 1] as number[];
      expect(Math.abs(last[0]!), method).toBeLessThan(0.02);
    }
  });
  it('a negative damping is a usage error naming --param damping', async () => {
    const r = await inProcess('simulate', 'ziegler', '--param', 'damping=-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/damping/);
  });
  it('order ziegler with damping: rattle 2, dirac-2c 1 against the damped DOPRI5 reference', async () => {
    for (const [method, expected] of [
      ['rattle', 2],
      ['dirac-2c', 1],
    ] as const) {
      const r = await inProcess(
        'order',
        'ziegler',
        '--method',
        method,
        '--t-end',
        '1',
        '--h',
        '0.02',
        '--levels',
        '4',
        '--param',
        'damping=0.8',
      );
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { order: number };
      expect(Math.abs(doc.order - expected), method).toBeLessThanOrEqual(0.35);
    }
  });
});

describe('numerical failure', () => {
  it('rattle with one Newton iteration per step exits 1 with one error line', async () => {
    const r = await inProcess('simulate', 'pendulum', '--method', 'rattle', '--max-iter', '1');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});

describe('order pendulum (positions q against DOPRI5 of the index-reduced ODE)', () => {
  it.each([
    ['rk4', 4],
    ['rattle', 2],
    ['trapezium', 2],
    ['ab3', 3],
    ['euler', 1],
    ['dirac-1', 1],
    ['dirac-2c', 1],
  ] as const)('%s has order %d ± 0.35', async (method, expected) => {
    const r = await inProcess(
      'order',
      'pendulum',
      '--method',
      method,
      '--t-end',
      '1',
      '--h',
      '0.02',
      '--levels',
      '4',
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      fields: string[];
      h: number[];
      error: number[];
      order: number;
    };
    expect(doc.fields).toEqual(['q']);
    expect(doc.h).toHaveLength(4);
    expect(Math.abs(doc.order - expected)).toBeLessThanOrEqual(0.35);
  });
});

describe('list', () => {
  it('--json lists pendulum and ziegler with the contract methods (RATTLE the default), params and init', async () => {
    const r = await inProcess('list', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      systems: {
        name: string;
        package: string;
        methods: string[];
        params: Record<string, number>;
        init: Record<string, number | number[]>;
        fields: string[];
      }[];
    };
    const pendulum = doc.systems.find((s) => s.name === 'pendulum')!;
    const ziegler = doc.systems.find((s) => s.name === 'ziegler')!;
    for (const s of [pendulum, ziegler]) {
      expect(s.package).toBe('@geomech/dirac');
      expect(s.methods).toEqual([...METHODS]);
    }
    expect(pendulum.params).toEqual({ m: 1, g: 9.81, l: 1 });
    expect(pendulum.init).toEqual({ theta0: Math.PI / 4, omega0: 0 });
    expect(pendulum.fields).toEqual(['q', 'p', 'lambda', 'energy', 'constraint']);
    expect(ziegler.params).toEqual({ n: 2, m: 1, k: 1, P: 0.2, l: 1, damping: 0 });
    expect(ziegler.init).toEqual({ theta: [0.1, 0], omega: 0 });
    expect(ziegler.fields).toEqual(['q', 'p', 'lambda', 'energy', 'constraint', 'angles']);
  });
});
