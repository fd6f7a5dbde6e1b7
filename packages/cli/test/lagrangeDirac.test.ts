/**
 * `rolling-disk`, `heisenberg`, `lc-circuit` and `lc-circuit-4` (CLI.md built-in systems) with the
 * (±)-discrete Lagrange–Dirac methods `dirac-plus` / `dirac-minus`: defaults, contract fields and
 * widths, the velocity-level discrete constraint, the energy behaviour of spec 000 §9,
 * `list --json` and usage errors.
 */
import { lcCircuit4 } from '@geomech/dirac';
import { describe, expect, it } from 'vitest';
import { ERROR_LINE, inProcess, simulate, widthOf } from './helpers.js';

const METHODS = ['dirac-plus', 'dirac-minus'] as const;
const FIELDS = ['q', 'p', 'lambda', 'energy', 'constraint'] as const;

const maxAbs = (values: (number | number[])[]): number =>
  values.flat().reduce((s, x) => Math.max(s, Math.abs(x)), 0);

const WIDTHS = {
  'rolling-disk': { t: 1, q: 4, p: 4, lambda: 2, energy: 1, constraint: 1 },
  heisenberg: { t: 1, q: 3, p: 3, lambda: 1, energy: 1, constraint: 1 },
  'lc-circuit': { t: 1, q: 2, p: 2, lambda: 1, energy: 1, constraint: 1 },
  'lc-circuit-4': { t: 1, q: 4, p: 4, lambda: 3, energy: 1, constraint: 1 },
} as const;
const SYSTEMS = Object.keys(WIDTHS) as (keyof typeof WIDTHS)[];

describe.each(SYSTEMS)('simulate %s', (system) => {
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
      for (const x of Object.values(doc.series).flat(2)) expect(Number.isFinite(x)).toBe(true);
      // the discrete (velocity-level) constraint holds at every state
      expect(maxAbs(doc.series.constraint!)).toBeLessThanOrEqual(1e-10);
    },
  );

  it('the default method is dirac-plus', async () => {
    const a = await simulate(system, '--steps', '5');
    const b = await simulate(system, '--method', 'dirac-plus', '--steps', '5');
    expect(a.series).toEqual(b.series);
  });

  it('--every keeps every k-th state and the last', async () => {
    const doc = await simulate(system, '--method', 'dirac-minus', '--every', '300');
    expect(doc.series.t).toEqual([0, 3, 6, 9, 10]);
    const full = await simulate(system, '--method', 'dirac-minus');
    expect(doc.series.q![4]).toEqual(full.series.q![1000]);
    expect(doc.series.q![1]).toEqual(full.series.q![300]);
  });
});

describe('rolling-disk: energy of the free disk (spec 000 §9.1)', () => {
  it('E⁺ decreases strictly, E⁺_k = ½(I + mR²) r^{2k} + ½J with r = (1 + cos h)/2', async () => {
    const doc = await simulate('rolling-disk', '--method', 'dirac-plus');
    const e = doc.series.energy as number[];
    expect(e[0]).toBeCloseTo(1.5, 14);
    for (let k = 1; k < e.length; k++) expect(e[k]!).toBeLessThan(e[k - 1]!);
    const r = (1 + Math.cos(0.01)) / 2;
    expect(Math.abs(e[1000]! - (r ** 2000 + 0.5))).toBeLessThan(1e-11);
  });

  it('E⁻ increases strictly, E⁻_k = ½(I + mR²) ρ^{2(k+1)} + ½J with ρ = 2/(1 + cos h)', async () => {
    const doc = await simulate('rolling-disk', '--method', 'dirac-minus');
    const e = doc.series.energy as number[];
    for (let k = 1; k < e.length; k++) expect(e[k]!).toBeGreaterThan(e[k - 1]!);
    const rho = 2 / (1 + Math.cos(0.01));
    expect(Math.abs(e[1000]! - (rho ** 2002 + 0.5))).toBeLessThan(1e-11);
  });

  it('starts at the contract state q = 0 with ẋ = R cos φ θ̇: p₀ = (m R θ̇, 0, I θ̇, J φ̇) for (+)', async () => {
    const doc = await simulate('rolling-disk', '--steps', '1', '--param', 'R=2');
    expect(doc.series.q![0]).toEqual([0, 0, 0, 0]);
    expect(doc.series.p![0]).toEqual([2, 0, 1, 1]);
  });

  it('with a potential the energy stays bounded and the constraint ≤ 1e-10', async () => {
    const doc = await simulate(
      'rolling-disk',
      '--param',
      'a=0.5',
      '--param',
      'b=0.3',
      '--param',
      'c=0.2',
    );
    const e = doc.series.energy as number[];
    for (const x of e) expect(Math.abs(x - e[0]!)).toBeLessThan(0.1 * e[0]!);
    expect(maxAbs(doc.series.constraint!)).toBeLessThanOrEqual(1e-10);
  });
});

describe('heisenberg (spec 000 §9.2)', () => {
  it.each(METHODS)(
    '%s: v0 ∈ Δ(q0) from the constraint; λ ≡ 0; energy constant; positions affine',
    async (method) => {
      const doc = await simulate('heisenberg', '--method', method);
      expect(doc.series.q![0]).toEqual([1, 0.5, -0.2]);
      expect(maxAbs(doc.series.lambda!)).toBeLessThan(1e-11);
      const e = doc.series.energy as number[];
      // ½|v|² with ż = yẋ − xẏ = 0.5·0.3 + 0.2 = 0.35
      expect(e[0]).toBeCloseTo(0.5 * (0.09 + 0.04 + 0.35 ** 2), 13);
      for (const x of e) expect(Math.abs(x - e[0]!)).toBeLessThan(5e-14);
      const qN = doc.series.q![1000] as number[];
      expect(qN[0]).toBeCloseTo(1 + 0.3 * 10, 10);
      expect(qN[1]).toBeCloseTo(0.5 - 0.2 * 10, 10);
    },
  );

  it('dirac-plus and dirac-minus give the same positions', async () => {
    const a = await simulate('heisenberg', '--method', 'dirac-plus');
    const b = await simulate('heisenberg', '--method', 'dirac-minus');
    for (let k = 0; k <= 1000; k += 100) {
      const qa = a.series.q![k] as number[];
      const qb = b.series.q![k] as number[];
      for (let i = 0; i < 3; i++) expect(Math.abs(qa[i]! - qb[i]!)).toBeLessThan(1e-12);
    }
  });
});

describe('lc-circuit (degenerate Lagrangian, spec 002 §4.2)', () => {
  it.each(METHODS)(
    '%s: q_C follows cos(ωt), ω = 2, to O(h); the energy stays near ½q_C²/C = 4',
    async (method) => {
      const doc = await simulate('lc-circuit', '--method', method);
      for (let k = 0; k <= 1000; k += 50) {
        const qC = (doc.series.q![k] as number[])[1]!;
        expect(Math.abs(qC - Math.cos(2 * k * 0.01))).toBeLessThan(0.05);
      }
      for (const x of doc.series.energy as number[]) expect(Math.abs(x - 4)).toBeLessThan(0.1);
    },
  );
});

describe('list', () => {
  it('--json lists the Lagrange–Dirac systems with their methods in order, params and init', async () => {
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
    const byName = (n: string) => doc.systems.find((s) => s.name === n)!;
    for (const name of SYSTEMS) {
      const s = byName(name);
      expect(s.package).toBe('@geomech/dirac');
      expect(s.methods).toEqual([...METHODS]);
      expect(s.fields).toEqual([...FIELDS]);
    }
    expect(byName('rolling-disk').params).toEqual({ m: 1, R: 1, I: 1, J: 1, a: 0, b: 0, c: 0 });
    expect(byName('rolling-disk').init).toEqual({
      x: 0,
      y: 0,
      theta: 0,
      phi: 0,
      thetaDot: 1,
      phiDot: 1,
    });
    expect(byName('heisenberg').params).toEqual({});
    expect(byName('heisenberg').init).toEqual({ q0: [1, 0.5, -0.2], v0: [0.3, -0.2] });
    expect(byName('lc-circuit').params).toEqual({ L: 2, C: 0.125 });
    expect(byName('lc-circuit').init).toEqual({ qC: 1, fL: 0 });
    // contract order: rolling-disk, heisenberg before pendulum; lc-circuit after ziegler
    const names = doc.systems.map((s) => s.name);
    expect(names.indexOf('rolling-disk')).toBeLessThan(names.indexOf('heisenberg'));
    expect(names.indexOf('heisenberg')).toBeLessThan(names.indexOf('pendulum'));
    expect(names.indexOf('ziegler')).toBeLessThan(names.indexOf('lc-circuit'));
  });
});

describe('lc-circuit-4 (hidden constraint from the constraint algorithm)', () => {
  it('keeps q_C1/C1 = q_C3/C3 to 1e-12, converges at order 1 to the closed form, energy within 2e-3', async () => {
    const errors: number[] = [];
    for (const h of [0.01, 0.005, 0.0025]) {
      const doc = await simulate(
        'lc-circuit-4',
        '--h',
        String(h),
        '--t-end',
        '10',
        '--every',
        String(Math.round(10 / h)),
      );
      const q = doc.series.q as number[][];
      for (const row of q) expect(Math.abs(row[1]! / 0.3 - row[3]! / 0.9)).toBeLessThan(1e-12);
      const energy = doc.series.energy as number[];
      expect(Math.abs(energy[energy.length - 1]! - 0.6)).toBeLessThan(2e-3);
      // the closed form of spec 002 §4.2 (library example, CLI default initial data)
      const exact = lcCircuit4({ L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 }).exactSolution(10);
      errors.push(
        Math.max(...[0, 1, 2, 3].map((i) => Math.abs(q[q.length - 1]![i]! - exact.q[i]!))),
      );
    }
    expect(errors[0]!).toBeLessThan(5e-3);
    const p = Math.log2(errors[0]! / errors[1]!) / 2 + Math.log2(errors[1]! / errors[2]!) / 2;
    expect(Math.abs(p - 1)).toBeLessThan(0.35);
  });
});

describe('usage errors', () => {
  it.each([
    ['heisenberg', ['--init', 'q0=1,2']],
    ['heisenberg', ['--init', 'v0=1,2,3']],
    ['rolling-disk', ['--init', 'x=1,2']],
    ['lc-circuit', ['--init', 'qC=1,0']],
    ['rolling-disk', ['--param', 'm=0']],
    ['lc-circuit', ['--param', 'C=-1']],
    ['heisenberg', ['--method', 'dirac-1']],
    ['lc-circuit-4', ['--param', 'C2=0']],
  ] as const)('%s %j exits 2 with one error line', async (system, extra) => {
    const r = await inProcess('simulate', system, ...extra);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(ERROR_LINE);
  });
});
