/**
 * Model files (`geomech simulate --model FILE`, CLI contract "Model files"): the three example
 * models reproduce the built-in systems they copy (to 1e-12) at comparable speed, the descriptor
 * and the contract's JSON output, symbolic derivatives against finite differences, time-dependent
 * contact Lagrangians (measured orders), the holonomic form checks, and one clear UsageError line
 * naming the field (and the character position) for every kind of malformed file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ContactIntegrator,
  type ContactLagrangian,
  implicitZMidpointLd,
  leftRectangleLd,
  midpointLd,
} from '@geomech/contact';
import { integrateDopri5 } from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSimulate } from '../src/commands/simulate.js';
import { errorLine, UsageError } from '../src/errors.js';
import { type Io, main, modelSystem } from '../src/main.js';
import { analyzeContact, buildContactLagrangian } from '../src/model/contact.js';
import { FUNCTION_NAMES, RESERVED_NAMES } from '../src/model/expressions.js';
import { analyzeHolonomic, compileHolonomic } from '../src/model/holonomic.js';
import { loadModel, MODEL_KINDS, ModelError, readModel } from '../src/model/index.js';
import { analyzeLagrangeDirac, compileLagrangeDirac } from '../src/model/lagrangeDirac.js';
import { KIND_METHODS } from '../src/model/parse.js';
import { findSystem, type SystemDescriptor } from '../src/registry.js';
import type { SimulateRequest, SimulationOutput } from '../src/runner.js';
import type { SimulateDoc } from './helpers.js';

const examplePath = (name: string) => join(__dirname, '..', 'examples', name);
const exampleText = (name: string) => readFileSync(examplePath(name), 'utf8');
const example = (name: string) => loadModel(exampleText(name), examplePath(name));

type Values = Readonly<Record<string, number | readonly number[]>>;

function request(
  system: SystemDescriptor,
  method: string,
  h: number,
  steps: number,
  params: Values,
  init: Values,
  every = 1,
): SimulateRequest {
  const map = (v: Values) =>
    new Map(Object.entries(v).map(([k, x]) => [k, typeof x === 'number' ? [x] : [...x]]));
  return { system, method, h, steps, every, params: map(params), init: map(init) };
}

async function run(r: SimulateRequest): Promise<SimulationOutput> {
  return (await r.system.load()).simulate(r);
}

/** max |a − b|/max(1, |b|) over t and every series; the layouts must agree. */
function maxDifference(a: SimulationOutput, b: SimulationOutput): number {
  expect(a.count).toBe(b.count);
  expect(a.series.map((s) => [s.name, s.width])).toEqual(b.series.map((s) => [s.name, s.width]));
  let worst = 0;
  const compare = (x: Float64Array, y: Float64Array, n: number) => {
    for (let i = 0; i < n; i++) {
      const d = Math.abs(x[i]! - y[i]!) / Math.max(1, Math.abs(y[i]!));
      if (!(d <= worst)) worst = Number.isNaN(d) ? Number.POSITIVE_INFINITY : d;
    }
  };
  compare(a.t, b.t, a.count);
  a.series.forEach((s, j) => {
    compare(s.data, b.series[j]!.data, a.count * s.width);
  });
  return worst;
}

const builtin = (name: string) => findSystem(name, 'system')!;

describe('the example models reproduce the built-in systems', () => {
  const oscillator = example('damped-oscillator.json');
  const disk = example('rolling-disk.json');
  const pendulum = example('pendulum.json');
  const oscParams = { k: 1.3, gamma: -0.08 };

  it.each([
    ['midpoint', { q0: 1, q1: 2, z0: 0 }],
    ['midpoint', { q0: 1, v0: 0.4, z0: 0.2 }],
    ['left-rectangle', { q0: 1, q1: 2, z0: 0 }],
    ['implicit-z-midpoint', { q0: 1, v0: 0.4, z0: 0.2 }],
  ] as const)('damped-oscillator, %s from %o', async (method, init) => {
    const model = await run(request(oscillator, method, 0.5, 50, oscParams, init));
    const reference = await run(
      request(builtin('damped-oscillator'), method, 0.5, 50, oscParams, init),
    );
    // measured 0 (bit for bit: the same library path with the same V, ∇V, ∇²V values)
    expect(maxDifference(model, reference)).toBeLessThanOrEqual(1e-12);
  });

  it('damped-oscillator, exact: shooting on the model against the closed form', async () => {
    const init = { q0: 1, v0: 0.4, z0: 0 };
    const model = await run(request(oscillator, 'exact', 0.5, 20, oscParams, init));
    const reference = await run(
      request(builtin('damped-oscillator'), 'exact', 0.5, 20, oscParams, init),
    );
    // the model has no closed form: numericExactLd (DOPRI5 rtol 1e-12 shooting); measured 1.8e-12
    expect(maxDifference(model, reference)).toBeLessThan(1e-10);
  });

  it.each(['dirac-plus', 'dirac-minus'])('rolling-disk, %s, with a potential', async (method) => {
    const params = { m: 1.5, R: 0.8, I: 0.7, J: 0.4, a: 0.3, b: 0.2, c: 0.1 };
    const phi = 0.4;
    const thetaDot = 1.2;
    const phiDot = 0.7;
    const builtIn = request(builtin('rolling-disk'), method, 0.01, 500, params, {
      x: 0.1,
      y: -0.2,
      theta: 0.3,
      phi,
      thetaDot,
      phiDot,
    });
    const v0 = [0.8 * Math.cos(phi) * thetaDot, 0.8 * Math.sin(phi) * thetaDot, thetaDot, phiDot];
    const model = await run(
      request(disk, method, 0.01, 500, params, { q0: [0.1, -0.2, 0.3, phi], v0 }),
    );
    // measured 5.0e-16
    expect(maxDifference(model, await run(builtIn))).toBeLessThanOrEqual(1e-12);
  });

  it.each(['dirac-1', 'dirac-2', 'dirac-2c', 'euler', 'trapezium', 'ab3', 'rk4', 'rattle'])(
    'pendulum, %s',
    async (method) => {
      const params = { m: 1.2, g: 9.81, l: 0.9 };
      const theta0 = 0.6;
      const omega0 = 0.3;
      const l = params.l;
      const q0 = [l * Math.sin(theta0), -l * Math.cos(theta0)];
      const v0 = [l * omega0 * Math.cos(theta0), l * omega0 * Math.sin(theta0)];
      const model = await run(request(pendulum, method, 0.01, 400, params, { q0, v0 }));
      const reference = await run(
        request(builtin('pendulum'), method, 0.01, 400, params, { theta0, omega0 }),
      );
      // measured 0 for every method (C = ½∇φ and c = ½vᵀ∇²φv as the built-in's)
      expect(maxDifference(model, reference)).toBeLessThanOrEqual(1e-12);
    },
  );
});

describe('loadModel: the descriptor', () => {
  it('takes name, methods, parameters, initial data and defaults from the file', () => {
    const d = example('damped-oscillator.json');
    expect(d.name).toBe('damped-oscillator');
    expect(d.kind).toBe('system');
    expect(d.package).toBe('@geomech/contact');
    expect(d.methods).toEqual(['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact']);
    expect(d.params.map((q) => [q.name, q.default])).toEqual([
      ['k', 1],
      ['gamma', -0.05],
    ]);
    expect(d.init.map((q) => [q.name, q.default])).toEqual([
      ['q0', 1],
      ['q1', 2],
      ['z0', 0],
    ]);
    expect(d.initAlternatives).toEqual([
      ['q0', 'q1', 'z0'],
      ['q0', 'v0', 'z0'],
    ]);
    expect(d.fields).toEqual(['q', 'p', 'z', 'energy', 'sigma']);
    expect(d.defaults).toEqual({ h: 0.5, steps: 50 });
    expect(d.description).toMatch(/^Damped harmonic oscillator/);
  });

  it('puts the file method first and applies the kind defaults of h and steps', () => {
    const spec = JSON.parse(exampleText('pendulum.json')) as Record<string, unknown>;
    spec.method = 'rk4';
    delete spec.h;
    delete spec.steps;
    const d = loadModel(JSON.stringify(spec), 'models/my pendulum.json');
    expect(d.name).toBe('my pendulum');
    expect(d.methods[0]).toBe('rk4');
    expect([...d.methods].sort()).toEqual([...KIND_METHODS.holonomic].sort());
    expect(d.defaults).toEqual({ h: 0.01, steps: 1000 });
    expect(d.init.map((q) => [q.name, q.default])).toEqual([
      ['q0', [Math.sin(Math.PI / 4), -Math.cos(Math.PI / 4)]],
      ['v0', [0, 0]],
    ]);
    expect(example('rolling-disk.json').fields).toEqual([
      'q',
      'p',
      'lambda',
      'energy',
      'constraint',
    ]);
  });

  it('runSimulate writes the contract JSON of a model as of the built-in system', async () => {
    const osc = example('damped-oscillator.json');
    const init = { q0: 1, q1: 2, z0: 0 };
    const params = { k: 1, gamma: -0.05 };
    const model = JSON.parse(
      await runSimulate(request(osc, 'midpoint', 0.5, 50, params, init), 'json'),
    );
    const reference = JSON.parse(
      await runSimulate(
        request(builtin('damped-oscillator'), 'midpoint', 0.5, 50, params, init),
        'json',
      ),
    );
    expect(model.ok).toBe(true);
    expect(model.system).toBe('damped-oscillator');
    expect(model.params).toEqual(params);
    expect(model.series).toEqual(reference.series);
    // spec 004 §8.2 reference table: q2 = 2.5102941176470589
    expect(model.series.q[2]).toBe(2.510294117647059);
  });
});

/** Central difference of f along coordinate j of x (relative step 1e-6). */
function central(f: (x: Float64Array) => number, x: Float64Array, j: number): number {
  const e = 1e-6 * Math.max(1, Math.abs(x[j]!));
  const xp = Float64Array.from(x);
  const xm = Float64Array.from(x);
  xp[j] = x[j]! + e;
  xm[j] = x[j]! - e;
  return (f(xp) - f(xm)) / (xp[j]! - xm[j]!);
}

const point = (n: number) =>
  fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: n, maxLength: n });

describe('symbolic derivatives against central differences (fast-check, 25 points each)', () => {
  it('a general contact Lagrangian L(q, v, z, t): all ten partials', () => {
    const spec = readModel(
      JSON.stringify({
        kind: 'contact',
        coordinates: ['x', 'y'],
        lagrangian:
          '0.5*(1 + 0.2*x^2)*xdot^2 + 0.5*ydot^2 + 0.3*x*ydot*sin(y) - (1 - cos(x))*(1 + y^2)' +
          ' + gamma*z*(1 + 0.1*xdot) - 0.05*z^2*y + 0.1*t*x*y + exp(-y^2)/(2 + tanh(x))',
        params: { gamma: -0.2 },
        init: { q0: [0.1, 0.2], v0: [0, 0], z0: 0 },
      }),
      'general.json',
    );
    const model = analyzeContact(spec);
    expect(model.mechanical).toBeUndefined();
    expect(model.timeDependent).toBe(true);
    const L = buildContactLagrangian(model, new Map([['_p0', -0.2]]));
    const n = 2;
    let worst = 0;
    const close = (a: number, b: number) => {
      worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
    };
    fc.assert(
      fc.property(point(6), ([q0, q1, v0, v1, z, t]) => {
        const q = Float64Array.of(q0!, q1!);
        const v = Float64Array.of(v0!, v1!);
        const x = Float64Array.of(q0!, q1!, v0!, v1!, z!);
        const at = (y: Float64Array) =>
          [y.subarray(0, n), y.subarray(n, 2 * n), y[2 * n]!, t!] as const;
        const value = (y: Float64Array) => L.L(...at(y));
        const grad = (which: 'Lq' | 'Lv', i: number) => (y: Float64Array) =>
          L[which](new Float64Array(n), ...at(y))[i]!;
        const lz = (y: Float64Array) => L.Lz(...at(y));
        const Lq = L.Lq(new Float64Array(n), q, v, z!, t!);
        const Lv = L.Lv(new Float64Array(n), q, v, z!, t!);
        const Lqq = L.Lqq(new Float64Array(n * n), q, v, z!, t!);
        const Lvq = L.Lvq(new Float64Array(n * n), q, v, z!, t!);
        const Lvv = L.Lvv(new Float64Array(n * n), q, v, z!, t!);
        const Lqz = L.Lqz(new Float64Array(n), q, v, z!, t!);
        const Lvz = L.Lvz(new Float64Array(n), q, v, z!, t!);
        close(L.Lz(q, v, z!, t!), central(value, x, 2 * n));
        close(L.Lzz(q, v, z!, t!), central(lz, x, 2 * n));
        for (let i = 0; i < n; i++) {
          close(Lq[i]!, central(value, x, i));
          close(Lv[i]!, central(value, x, n + i));
          close(Lqz[i]!, central(lz, x, i));
          close(Lvz[i]!, central(lz, x, n + i));
          for (let j = 0; j < n; j++) {
            close(Lqq[i * n + j]!, central(grad('Lq', i), x, j));
            close(Lvq[i * n + j]!, central(grad('Lv', i), x, j)); // ∂²L/∂vᵢ∂qⱼ
            close(Lvv[i * n + j]!, central(grad('Lv', i), x, n + j));
          }
        }
      }),
      { numRuns: 25, seed: 20240611 },
    );
    // measured 1.1e-10 (the truncation and rounding error of the central differences)
    expect(worst).toBeLessThan(1e-8);
  });

  it('a Lagrange–Dirac model: ∂L/∂q, ∂L/∂v, M, N and Ȧ = Σ (∂A/∂qₖ) vₖ', () => {
    const model = analyzeLagrangeDirac(
      readModel(
        JSON.stringify({
          kind: 'lagrange-dirac',
          coordinates: ['x', 'y', 'th'],
          lagrangian: '0.5*m*(xdot^2 + ydot^2) + 0.5*(1 + x^2)*thdot^2 + b*y*xdot - V0*cos(th)*y',
          constraints: [['sin(th)', '-cos(th)', 'x*y']],
          params: { m: 1.3, b: 0.4, V0: 0.7 },
          init: { q0: [0, 0, 0], v0: [1, 0, 0] },
        }),
        'ld.json',
      ),
    );
    const values = new Map([
      ['_p0', 1.3],
      ['_p1', 0.4],
      ['_p2', 0.7],
    ]);
    const { L, Delta } = compileLagrangeDirac(model, values);
    const n = 3;
    let worst = 0;
    const close = (a: number, b: number) => {
      worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
    };
    fc.assert(
      fc.property(point(6), (xs) => {
        const x = Float64Array.from(xs);
        const q = x.subarray(0, n);
        const v = x.subarray(n);
        const value = (y: Float64Array) => L.L(y.subarray(0, n), y.subarray(n));
        const dLdv = (i: number) => (y: Float64Array) =>
          L.Lv(new Float64Array(n), y.subarray(0, n), y.subarray(n))[i]!;
        const dq = L.Lq(new Float64Array(n), q, v);
        const dv = L.Lv(new Float64Array(n), q, v);
        const M = L.Lvv(new Float64Array(n * n), q, v);
        const N = L.Lvq(new Float64Array(n * n), q, v);
        for (let i = 0; i < n; i++) {
          close(dq[i]!, central(value, x, i));
          close(dv[i]!, central(value, x, n + i));
          for (let j = 0; j < n; j++) {
            close(M[i * n + j]!, central(dLdv(i), x, n + j));
            close(N[i * n + j]!, central(dLdv(i), x, j));
          }
        }
        // Ȧ(q, v) = d/ds A(q + s v) at s = 0
        const Adot = Delta.Adot(new Float64Array(n), q, v);
        for (let i = 0; i < n; i++) {
          const along = (s: Float64Array) =>
            Delta.A(
              new Float64Array(n),
              q.map((qk, k) => qk + s[0]! * v[k]!),
            )[i]!;
          close(Adot[i]!, central(along, Float64Array.of(0), 0));
        }
      }),
      { numRuns: 25, seed: 7 },
    );
    // measured 2.8e-10
    expect(worst).toBeLessThan(1e-8);
  });
});

/** A double pendulum with two constraints, i.e. the built-in ziegler column with k = 0. */
const doublePendulum = {
  kind: 'holonomic',
  coordinates: ['x1', 'y1', 'x2', 'y2'],
  lagrangian: 'm/2*(x1dot^2 + y1dot^2 + x2dot^2 + y2dot^2) - P*(y1 + y2)',
  constraints: ['x1^2 + y1^2 - l^2', '(x2 - x1)^2 + (y2 - y1)^2 - l^2'],
  params: { m: 1, P: 0.2, l: 1 },
  init: { q0: [0, 1, 0, 2], v0: [0, 0, 0, 0] },
};

describe('holonomic models', () => {
  it('two constraints: C = ½∇φ and c = ½vᵀ∇²φv; the ziegler column with k = 0 reproduced', async () => {
    const text = JSON.stringify(doublePendulum);
    const model = analyzeHolonomic(readModel(text, 'double.json'));
    const sys = compileHolonomic(
      model,
      new Map([
        ['_p0', 1],
        ['_p1', 0.2],
        ['_p2', 1],
      ]),
    );
    const q = Float64Array.of(0.3, 0.9, 0.5, 1.8);
    expect(Array.from(sys.C(new Float64Array(8), q))).toEqual([
      0.3, 0.9, 0, 0, -0.2, -0.9, 0.2, 0.9,
    ]);
    const v = Float64Array.of(0.1, -0.2, 0.3, 0.4);
    // c₂ = |ė₂|² with ė₂ = (v2 − v1)
    const c = sys.curvature(new Float64Array(2), q, v);
    // measured 1.1e-16 (rounding)
    expect(Math.abs(c[0]! - (0.1 * 0.1 + 0.2 * 0.2))).toBeLessThan(1e-15);
    expect(Math.abs(c[1]! - (0.2 * 0.2 + 0.6 * 0.6))).toBeLessThan(1e-15);
    const theta = [0.1, -0.05];
    const omega = [0.2, -0.1];
    const l = 1.1;
    const params = { n: 2, m: 0.9, k: 0, P: 0.3, l };
    const q0: number[] = [];
    const v0: number[] = [];
    let [x, y, vx, vy] = [0, 0, 0, 0];
    theta.forEach((th, i) => {
      x += l * Math.sin(th);
      y += l * Math.cos(th);
      vx += l * omega[i]! * Math.cos(th);
      vy -= l * omega[i]! * Math.sin(th);
      q0.push(x, y);
      v0.push(vx, vy);
    });
    const system = loadModel(text, 'double.json');
    for (const method of ['dirac-2c', 'rattle']) {
      const a = await run(request(system, method, 0.01, 300, { m: 0.9, P: 0.3, l }, { q0, v0 }));
      const b = await run(request(builtin('ziegler'), method, 0.01, 300, params, { theta, omega }));
      const common = { ...b, series: b.series.filter((s) => s.name !== 'angles') };
      // measured 0
      expect(maxDifference(a, common), method).toBeLessThanOrEqual(1e-12);
    }
  });

  it('a model without constraints (a free particle): RATTLE is velocity Verlet, exact on a uniform field', async () => {
    const free = loadModel(
      JSON.stringify({
        kind: 'holonomic',
        coordinates: ['x', 'y'],
        lagrangian: '0.5*m*(xdot^2 + ydot^2) - m*g*y',
        params: { m: 2, g: 3 },
        init: { q0: [0.1, -0.2], v0: [0.4, 1.5] },
      }),
      'free.json',
    );
    const h = 0.01;
    const steps = 150;
    for (const method of ['rattle', 'rk4', 'dirac-2c']) {
      const out = await run(
        request(free, method, h, steps, { m: 2, g: 3 }, { q0: [0.1, -0.2], v0: [0.4, 1.5] }),
      );
      const q = out.series.find((x) => x.name === 'q')!.data;
      const T = h * steps;
      // x = x0 + vx t, y = y0 + vy t − g t²/2 (Dirac-2c: symplectic Euler, y − g h T/2)
      expect(Math.abs(q[2 * steps]! - (0.1 + 0.4 * T)), method).toBeLessThan(1e-12);
      const y = -0.2 + 1.5 * T - 1.5 * T * T - (method === 'dirac-2c' ? 1.5 * h * T : 0);
      expect(Math.abs(q[2 * steps + 1]! - y), method).toBeLessThan(1e-12);
      expect(out.series.find((x) => x.name === 'constraint')!.width).toBe(0);
      expect(out.warnings ?? []).toEqual([]);
    }
  });

  it('a configuration-dependent mass: the spherical pendulum in angles matches the Cartesian model', async () => {
    const l = 0.7;
    const angles = loadModel(
      JSON.stringify({
        kind: 'holonomic',
        coordinates: ['th', 'ph'],
        lagrangian: '0.5*m*l^2*(thdot^2 + sin(th)^2*phdot^2) + m*g*l*cos(th)',
        params: { m: 1.3, g: 9.81, l },
        init: { q0: [0.9, 0.2], v0: [0.3, 1.7] },
      }),
      'angles.json',
    );
    const cartesian = loadModel(
      JSON.stringify({
        kind: 'holonomic',
        coordinates: ['x', 'y', 'z'],
        lagrangian: '0.5*m*(xdot^2 + ydot^2 + zdot^2) - m*g*z',
        constraints: ['x^2 + y^2 + z^2 - l^2'],
        params: { m: 1.3, g: 9.81, l },
        init: { q0: [0, 0, -l], v0: [0, 0, 0] },
      }),
      'cartesian.json',
    );
    const [th0, ph0, thd, phd] = [0.9, 0.2, 0.3, 1.7];
    const q0 = [
      l * Math.sin(th0) * Math.cos(ph0),
      l * Math.sin(th0) * Math.sin(ph0),
      -l * Math.cos(th0),
    ];
    const v0 = [
      l * (Math.cos(th0) * Math.cos(ph0) * thd - Math.sin(th0) * Math.sin(ph0) * phd),
      l * (Math.cos(th0) * Math.sin(ph0) * thd + Math.sin(th0) * Math.cos(ph0) * phd),
      l * Math.sin(th0) * thd,
    ];
    const params = { m: 1.3, g: 9.81, l };
    const steps = 2000;
    const a = await run(
      request(angles, 'rk4', 1e-3, steps, params, { q0: [th0, ph0], v0: [thd, phd] }),
    );
    const c = await run(request(cartesian, 'rk4', 1e-3, steps, params, { q0, v0 }));
    const qa = a.series.find((x) => x.name === 'q')!.data;
    const qc = c.series.find((x) => x.name === 'q')!.data;
    const th = qa[2 * steps]!;
    const ph = qa[2 * steps + 1]!;
    const x = [l * Math.sin(th) * Math.cos(ph), l * Math.sin(th) * Math.sin(ph), -l * Math.cos(th)];
    // both fourth order at h = 1e-3: measured 1e-11
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - qc[3 * steps + i]!)).toBeLessThan(1e-8);
    const ea = a.series.find((x) => x.name === 'energy')!.data;
    const ec = c.series.find((x) => x.name === 'energy')!.data;
    expect(Math.abs(ea[0]! - ec[0]!)).toBeLessThan(1e-12);
    // RATTLE (generalized, HLW VII.1.4) and Dirac-1 take M(q): their errors against the Cartesian
    // RK4 run shrink at orders 2 and 1 from h = 2e-3 to 1e-3 (same final time 2).
    for (const [method, order] of [
      ['rattle', 2],
      ['dirac-1', 1],
    ] as const) {
      const err: number[] = [];
      for (const h of [2e-3, 1e-3]) {
        const r = await run(
          request(angles, method, h, Math.round(2 / h), params, { q0: [th0, ph0], v0: [thd, phd] }),
        );
        const q = r.series.find((s) => s.name === 'q')!.data;
        const n = Math.round(2 / h);
        const t = q[2 * n]!;
        const p = q[2 * n + 1]!;
        const xm = [l * Math.sin(t) * Math.cos(p), l * Math.sin(t) * Math.sin(p), -l * Math.cos(t)];
        err.push(Math.max(...xm.map((v, i) => Math.abs(v - qc[3 * steps + i]!))));
      }
      expect(Math.abs(Math.log2(err[0]! / err[1]!) - order)).toBeLessThan(0.1);
    }
  });

  it('forces and inputs: a damped, driven pendulum (u = 0 and c = 0 give the unforced run, bit for bit)', async () => {
    const base = JSON.parse(exampleText('pendulum.json')) as Record<string, unknown>;
    const forced = loadModel(
      JSON.stringify({
        ...base,
        forces: ['-c*xdot - u*y', '-c*ydot + u*x'],
        inputs: ['u'],
        params: { m: 1, g: 9.81, l: 1, c: 0 },
      }),
      'driven.json',
    );
    const plain = example('pendulum.json');
    const init = { q0: [Math.SQRT1_2, -Math.SQRT1_2], v0: [0, 0] };
    const steps = 300;
    const zero = { rows: steps, width: 1, data: new Float64Array(steps) };
    for (const method of ['rattle', 'dirac-2c', 'dirac-1']) {
      const a = await run(request(plain, method, 0.01, steps, { m: 1, g: 9.81, l: 1 }, init));
      const b = await run({
        ...request(forced, method, 0.01, steps, { m: 1, g: 9.81, l: 1, c: 0 }, init),
        inputs: zero,
      });
      expect(maxDifference(b, a), method).toBe(0);
      // damped (c = 0.4) and twisted by u = 0.5: the energy changes by the discrete work
      const torque = { rows: steps, width: 1, data: new Float64Array(steps).fill(0.5) };
      const c = await run({
        ...request(forced, method, 0.01, steps, { m: 1, g: 9.81, l: 1, c: 0.4 }, init),
        inputs: torque,
      });
      const E = c.series.find((x) => x.name === 'energy')!.data;
      expect(Math.abs(E[steps]! - E[0]!), method).toBeGreaterThan(0.05);
      expect(maxDifference(c, a), method).toBeGreaterThan(1e-3);
    }
    // the index-reduced comparators take a force but no inputs
    await expect(
      run({
        ...request(forced, 'rk4', 0.01, steps, { m: 1, g: 9.81, l: 1, c: 0.4 }, init),
        inputs: zero,
      }),
    ).rejects.toThrow(/takes no control inputs/);
  });

  it('initial velocities: the warning for |Dφ(q0)·v0| > 1e-9, none for tangent data', async () => {
    const system = loadModel(JSON.stringify(doublePendulum), 'double.json');
    const params = { m: 1, P: 0.2, l: 1 };
    const tangent = await run(
      request(system, 'rattle', 0.01, 2, params, { q0: [0, 1, 0, 2], v0: [0.3, 0, 0.5, 0] }),
    );
    expect(tangent.warnings ?? []).toEqual([]);
    const normal = await run(
      request(system, 'rattle', 0.01, 2, params, { q0: [0, 1, 0, 2], v0: [0, 1e-6, 0, 1e-6] }),
    );
    expect(normal.warnings).toEqual([
      'init: v0 is not tangent to the constraints (|Dφ(q0)·v0| = 2.000e-6 > 1e-9)',
    ]);
  });

  it('initial data off the constraints and non-positive masses are reported', async () => {
    const system = loadModel(JSON.stringify(doublePendulum), 'double.json');
    const params = { m: 1, P: 0.2, l: 1 };
    const off = await run(
      request(system, 'dirac-1', 0.01, 2, params, { q0: [0, 1.1, 0, 2], v0: [0, 0.1, 0, 0] }),
    );
    expect(off.warnings).toEqual([
      'init: q0 violates the constraints (|φ(q0)| = 2.100e-1)',
      'init: v0 is not tangent to the constraints (|Dφ(q0)·v0| = 2.200e-1 > 1e-9)',
    ]);
    const bad = request(
      system,
      'dirac-1',
      0.01,
      2,
      { ...params, m: -1 },
      { q0: [0, 1, 0, 2], v0: [0, 0, 0, 0] },
    );
    await expect(run(bad)).rejects.toMatchObject({
      name: 'UsageError',
      what: 'the mass of x1 (∂²L/∂x1dot²) is -1, must be > 0',
      where: '--param',
    });
  });
});

describe('time-dependent contact Lagrangians', () => {
  // Herglotz (19) of L = ½ẋ² − ½x² + F x cos(ωt) + γz: ẍ = −x + F cos(ωt) + γẋ, ż = L, p = ẋ
  const [F, w, gamma] = [0.8, 2.3, -0.5];
  const forced = {
    kind: 'contact',
    coordinates: ['x'],
    lagrangian: '0.5*xdot^2 - 0.5*x^2 + F*x*cos(w*t) + gamma*z',
    params: { F, w, gamma },
    init: { q0: [1], v0: [0.2], z0: 0 },
  };
  const T = 2;
  const exact = (() => {
    const sol = integrateDopri5(
      (out, t, y) => {
        const [x, v, z] = [y[0]!, y[1]!, y[2]!];
        out[0] = v;
        out[1] = -x + F * Math.cos(w * t) + gamma * v;
        out[2] = 0.5 * v * v - 0.5 * x * x + F * x * Math.cos(w * t) + gamma * z;
      },
      [1, 0.2, 0],
      0,
      T,
      { rtol: 1e-13, atol: 1e-15 },
    );
    return sol.sample('y', sol.count - 1); // (q, p = ẋ, z) at T
  })();
  /** max |(q, p, z)_N − exact| of a run (spec 004 §6.4's error measure). */
  const error = (q: number, p: number, z: number) =>
    Math.max(Math.abs(q - exact[0]!), Math.abs(p - exact[1]!), Math.abs(z - exact[2]!));
  const system = loadModel(JSON.stringify(forced), 'forced.json');

  /** Least-squares slope of log(error) against log(h). */
  const slope = (hs: number[], errors: number[]) => {
    const x = hs.map(Math.log);
    const y = errors.map(Math.log);
    const mx = x.reduce((a, b) => a + b) / x.length;
    const my = y.reduce((a, b) => a + b) / y.length;
    let sxy = 0;
    let sxx = 0;
    x.forEach((xi, i) => {
      sxy += (xi - mx) * (y[i]! - my);
      sxx += (xi - mx) ** 2;
    });
    return sxy / sxx;
  };
  const hs = [0.1, 0.05, 0.025, 0.0125];

  it('exact is not offered, and the orders are measured: midpoint 1, implicit-z-midpoint 2', async () => {
    expect(system.methods).toEqual(['midpoint', 'left-rectangle', 'implicit-z-midpoint']);
    const order = async (method: string) => {
      const errors: number[] = [];
      for (const h of hs) {
        const out = await run(
          request(system, method, h, Math.round(T / h), forced.params, forced.init),
        );
        const last = (j: number) => out.series[j]!.data[out.count - 1]!;
        errors.push(error(last(0), last(1), last(2)));
      }
      return slope(hs, errors);
    };
    const orders = [
      await order('midpoint'),
      await order('left-rectangle'),
      await order('implicit-z-midpoint'),
    ];
    // measured 1.01, 1.01 and 2.00 (max error over (q, p, z) at T = 2, γ = −0.5)
    expect(Math.abs(orders[0]! - 1)).toBeLessThan(0.15);
    expect(Math.abs(orders[1]! - 1)).toBeLessThan(0.15);
    expect(Math.abs(orders[2]! - 2)).toBeLessThan(0.15);
  });

  /** L at a time shifted by `shift`: L_s(q, v, z, t) = L(q, v, z, t + shift). */
  const shifted = (L: ContactLagrangian, shift: number): ContactLagrangian => ({
    n: L.n,
    L: (q, v, z, t = 0) => L.L(q, v, z, t + shift),
    Lq: (out, q, v, z, t = 0) => L.Lq(out, q, v, z, t + shift),
    Lv: (out, q, v, z, t = 0) => L.Lv(out, q, v, z, t + shift),
    Lz: (q, v, z, t = 0) => L.Lz(q, v, z, t + shift),
    Lqq: (out, q, v, z, t = 0) => L.Lqq(out, q, v, z, t + shift),
    Lvq: (out, q, v, z, t = 0) => L.Lvq(out, q, v, z, t + shift),
    Lvv: (out, q, v, z, t = 0) => L.Lvv(out, q, v, z, t + shift),
    Lqz: (out, q, v, z, t = 0) => L.Lqz(out, q, v, z, t + shift),
    Lvz: (out, q, v, z, t = 0) => L.Lvz(out, q, v, z, t + shift),
    Lzz: (q, v, z, t = 0) => L.Lzz(q, v, z, t + shift),
  });
  const values = new Map([
    ['_p0', F],
    ['_p1', w],
    ['_p2', gamma],
  ]);

  it('evaluating implicit-z-midpoint at t_k instead of t_k + h/2 would lose the second order', () => {
    const model = analyzeContact(readModel(JSON.stringify(forced), 'forced.json'));
    // the library evaluates L at t_k + h/2; L shifted by −h/2 is evaluated at t_k
    const errors = (shift: number) =>
      hs.map((h) => {
        const L = shifted(buildContactLagrangian(model, values), shift * h);
        const sol = new ContactIntegrator(implicitZMidpointLd(L, h), { lagrangian: L }).integrate(
          { q0: [1], v0: [0.2], z0: 0 },
          Math.round(T / h),
        );
        const last = sol.count - 1;
        return error(sol.q[last]!, sol.p[last]!, sol.z[last]!);
      });
    // measured orders 2.00 (at t_k + h/2) and 1.01 (at t_k)
    expect(Math.abs(slope(hs, errors(0)) - 2)).toBeLessThan(0.15);
    expect(Math.abs(slope(hs, errors(-0.5)) - 1)).toBeLessThan(0.15);
  });

  it('the model runner is the library on the compiled L, and t0 shifts the time of every step', async () => {
    const model = analyzeContact(readModel(JSON.stringify(forced), 'forced.json'));
    const h = 0.1;
    for (const method of ['midpoint', 'left-rectangle', 'implicit-z-midpoint'] as const) {
      const make =
        method === 'midpoint'
          ? midpointLd
          : method === 'left-rectangle'
            ? leftRectangleLd
            : implicitZMidpointLd;
      for (const init of [
        { q0: [1], v0: [0.2], z0: 0.1 },
        { q0: [1], q1: [1.05], z0: 0.1 },
      ]) {
        const out = await run(request(system, method, h, 57, forced.params, init, 4));
        const L = buildContactLagrangian(model, values);
        const sol = new ContactIntegrator(make(L, h), { lagrangian: L }).integrate(init, 57, {
          every: 4,
        });
        expect(out.count).toBe(sol.count);
        // the same steps in the same order (measured 0)
        expect(Array.from(out.series[0]!.data)).toEqual(Array.from(sol.q));
        expect(Array.from(out.series[4]!.data)).toEqual(Array.from(sol.sigma));
        // L shifted by τ from t0 = 0 is L from t0 = τ (t_k = τ + kh in both, up to rounding)
        const tau = 0.7;
        const a = new ContactIntegrator(make(shifted(L, tau), h), {
          lagrangian: shifted(L, tau),
        }).integrate(init, 57, { every: 4 });
        const b = new ContactIntegrator(make(L, h), { lagrangian: L }).integrate(init, 57, {
          every: 4,
          t0: tau,
        });
        expect(Math.abs(b.t[b.count - 1]! - (tau + 57 * h))).toBeLessThan(1e-14);
        for (const key of ['q', 'p', 'z', 'energy', 'sigma'] as const) {
          let d = 0;
          for (let i = 0; i < a[key].length; i++)
            d = Math.max(d, Math.abs(a[key][i]! - b[key][i]!));
          expect(d, `${method} ${key}`).toBeLessThan(1e-12); // measured ≤ 1e-15
        }
        // and it is not vacuous: without t0 the forced trajectory differs
        expect(Math.abs(sol.q[sol.count - 1]! - b.q[b.count - 1]!)).toBeGreaterThan(1e-3);
      }
    }
  });
});

/** A valid model of each kind, for the error table. */
const VALID = {
  contact: {
    kind: 'contact',
    coordinates: ['x'],
    lagrangian: '0.5*xdot^2 - 0.5*k*x^2 + gamma*z',
    params: { k: 1, gamma: -0.1 },
    init: { q0: [1], v0: [0], z0: 0 },
  },
  disk: JSON.parse(exampleText('rolling-disk.json')) as Record<string, unknown>,
  pendulum: JSON.parse(exampleText('pendulum.json')) as Record<string, unknown>,
} as const;
const variant = (kind: keyof typeof VALID, change: Record<string, unknown>) =>
  JSON.stringify({ ...VALID[kind], ...change });

describe('malformed model files: one UsageError line naming the field (and the position)', () => {
  const cases: [string, string, string][] = [
    [
      'JSON syntax',
      '{"kind": "contact",\n  "coordinates": ["x"] "lagrangian": "x"}',
      `(file): invalid JSON: unexpected '"', expected ',' or '}' at line 2, column 24`,
    ],
    [
      'duplicate key',
      '{"kind": "contact", "kind": "holonomic"}',
      '(file): invalid JSON: duplicate key "kind" at line 1, column 21',
    ],
    ['not an object', '[1, 2]', '(file): a model file is a JSON object, got a list'],
    [
      'too deep',
      '['.repeat(100),
      '(file): invalid JSON: nesting deeper than 64 levels at line 1, column 65',
    ],
    [
      'unknown field',
      variant('contact', { lagrangain: 'x' }),
      'lagrangain: unknown field (known: kind, description, coordinates, lagrangian, constraints, params, init, method, h, steps, forces, inputs)',
    ],
    ['missing field', variant('contact', { lagrangian: undefined }), 'lagrangian: missing field'],
    [
      'unknown kind',
      variant('contact', { kind: 'hamiltonian' }),
      'kind: unknown kind "hamiltonian" (choose contact, lagrange-dirac, holonomic)',
    ],
    [
      'duplicate coordinate',
      variant('pendulum', { coordinates: ['x', 'x'] }),
      "coordinates[1]: duplicate name 'x' (already coordinate x)",
    ],
    [
      'coordinate named like a function',
      variant('contact', { coordinates: ['sin'] }),
      "coordinates[0]: name 'sin' clashes with a built-in function, constant or keyword of expressions",
    ],
    [
      'coordinate named like a velocity',
      variant('pendulum', { coordinates: ['x', 'xdot'] }),
      "coordinates[1]: name 'xdot' clashes with the velocity of coordinate x",
    ],
    [
      'bad coordinate name',
      variant('contact', { coordinates: ['2x'] }),
      'coordinates[0]: bad name "2x" (letters, digits and _, not starting with a digit)',
    ],
    [
      'z in a contact model',
      variant('contact', { coordinates: ['z'] }),
      "coordinates[0]: 'z' is reserved in contact models (the action z and the time t)",
    ],
    [
      'non-finite parameter',
      variant('contact', {}).replace('"k":1', '"k":1e999'),
      'params.k: must be a finite number',
    ],
    [
      'parameter named like a function',
      variant('contact', { params: { exp: 1, k: 1, gamma: 0 } }),
      "params.exp: name 'exp' clashes with a built-in function, constant or keyword of expressions",
    ],
    [
      'parameter clashing with a coordinate',
      variant('contact', { params: { x: 1, k: 1, gamma: 0 } }),
      'params.x: parameter name clashes with the coordinate x',
    ],
    [
      'syntax error',
      variant('contact', { lagrangian: '0.5*xdot^2 +* x' }),
      'lagrangian: syntax error: Value expected at char 13',
    ],
    [
      'unknown variable',
      variant('contact', { lagrangian: '0.5*xdot^2 - w*x' }),
      'lagrangian: unknown variable "w" (known: x, xdot, z, t, k, gamma, pi, e) at char 14',
    ],
    [
      'unknown function',
      variant('contact', { lagrangian: 'xdot^2 - abs(x)' }),
      `lagrangian: unknown function "abs" (allowed: ${FUNCTION_NAMES.join(', ')}) at char 10`,
    ],
    [
      'parameter called',
      variant('contact', { lagrangian: 'xdot^2 - k (x + 1)' }),
      "lagrangian: 'k' is not a function; write k*(...) for a product at char 10",
    ],
    [
      'wrong arity',
      variant('contact', { lagrangian: 'xdot^2 - sin(x, k)' }),
      'lagrangian: sin takes 1 argument, got 2 at char 10',
    ],
    [
      'comparison',
      variant('contact', { lagrangian: 'xdot^2 + (x == 1)' }),
      `lagrangian: operator "==" is not allowed (use + - * / ^) at char 13`,
    ],
    [
      'conditional',
      variant('contact', { lagrangian: 'x > 0 ? x : -x' }),
      'lagrangian: conditionals (a ? b : c) are not allowed at char 7',
    ],
    [
      'matrix',
      variant('contact', { lagrangian: '[x, 1]' }),
      'lagrangian: matrices and vectors are not allowed at char 1',
    ],
    [
      'non-finite number',
      variant('contact', { lagrangian: 'xdot^2 + 1e999*x' }),
      'lagrangian: the number Infinity is not finite at char 10',
    ],
    ['empty expression', variant('contact', { lagrangian: '  ' }), 'lagrangian: empty expression'],
    [
      'exact with t',
      variant('contact', { lagrangian: '0.5*xdot^2 + t*x', method: 'exact' }),
      "method: method 'exact' needs an autonomous Lagrangian (this one uses t; choose midpoint, left-rectangle, implicit-z-midpoint)",
    ],
    [
      'constraints in a contact model',
      variant('contact', { constraints: ['x'] }),
      'constraints: contact models take no constraints (use kind lagrange-dirac or holonomic)',
    ],
    [
      'velocity in a one-form',
      variant('disk', {
        constraints: [
          [1, 0, '-R*cos(phi)', 0],
          [0, 1, '-R*sin(phi)*xdot', 0],
        ],
      }),
      'constraints[1][2]: unknown variable "xdot" (velocities are not allowed here: constraints depend on the coordinates only) at char 13',
    ],
    [
      'unknown variable in a one-form',
      variant('disk', {
        constraints: [
          [1, 0, '-R*cos(phi)', 0],
          ['2*w', 1, 0, 0],
        ],
      }),
      'constraints[1][0]: unknown variable "w" (known: x, y, theta, phi, m, R, I, J, a, b, c, pi, e) at char 3',
    ],
    [
      'one-form of the wrong length',
      variant('disk', {
        constraints: [
          [1, 0, '-R*cos(phi)', 0],
          [0, 1, 0],
        ],
      }),
      'constraints[1]: a one-form needs 4 coefficients (one per coordinate), got 3',
    ],
    [
      'z in a dirac model',
      variant('disk', { lagrangian: 'xdot^2 + z' }),
      'lagrangian: unknown variable "z" (lagrange-dirac models have no action variable z and no time t) at char 10',
    ],
    [
      'as many constraints as coordinates',
      variant('pendulum', { constraints: ['x', 'y'] }),
      'constraints: 2 constraints leave no motion in 2 coordinates (need fewer than 2)',
    ],
    [
      'constant constraint',
      variant('pendulum', { constraints: ['l - 1'] }),
      'constraints[0]: a position constraint must depend on the coordinates',
    ],
    [
      'init of the wrong length',
      variant('pendulum', { init: { q0: [1, 0, 0], v0: [0, 0] } }),
      'init.q0: expected 2 numbers (one position per coordinate), got 3',
    ],
    [
      'init missing',
      variant('pendulum', { init: { q0: [1, 0] } }),
      'init.v0: missing (give q0 and v0)',
    ],
    [
      'contact init with v0 and q1',
      variant('contact', { init: { q0: [1], v0: [0], q1: [1], z0: 0 } }),
      'init: give v0 or q1, not both',
    ],
    [
      'unknown init',
      variant('pendulum', { init: { q0: [1, 0], v0: [0, 0], z0: 0 } }),
      'init.z0: unknown initial datum (give q0 and v0)',
    ],
    [
      'unknown method',
      variant('pendulum', { method: 'midpoint' }),
      'method: unknown method "midpoint" for kind holonomic (choose dirac-1, dirac-2, dirac-2c, euler, trapezium, ab3, rk4, rattle)',
    ],
    ['bad h', variant('contact', { h: 0 }), 'h: must be > 0, got 0'],
    ['bad steps', variant('contact', { steps: 2.5 }), 'steps: must be a positive integer, got 2.5'],
    [
      'mass depending on the velocities',
      variant('pendulum', { lagrangian: '0.5*(1 + xdot^2)*xdot^2 + 0.5*ydot^2 - g*y' }),
      // the second derivative as automatic differentiation builds it (nothing is simplified)
      'lagrangian: holonomic models need L = ½ qdotᵀ M(q) qdot − V(q); it is not quadratic in the velocities (∂²L/∂xdot∂xdot = (0.5 * (1 + xdot ^ 2) + xdot ^ 2 * 0.5) * 2 + (2 * xdot * 0.5 + 2 * xdot * 0.5) * (2 * xdot) depends on them)',
    ],
    [
      'velocity-linear term',
      variant('pendulum', { lagrangian: '0.5*(xdot^2 + ydot^2) + y*xdot - g*y' }),
      'lagrangian: holonomic models need L = ½ qdotᵀ M(q) qdot − V(q); it has a term linear in xdot (∂L/∂xdot at rest = y)',
    ],
  ];

  it.each(cases)('%s', (_name, text, message) => {
    let error: unknown;
    try {
      loadModel(text, 'models/m.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(ModelError);
    const e = error as ModelError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(message);
    expect(e.where).toBe('models/m.json');
    expect(errorLine(e.what, e.where)).toBe(`geomech: error: ${message} (models/m.json)`);
    // the JSON path is the message's first word; the position is kept as data
    expect(message.startsWith(`${e.field}: `)).toBe(true);
    const at = /at char (\d+)$/.exec(message);
    expect(e.position).toBe(at ? Number(at[1]) : undefined);
  });
});

describe('model.schema.json agrees with the reader', () => {
  const schema = JSON.parse(
    readFileSync(join(__dirname, '..', 'schema', 'model.schema.json'), 'utf8'),
  ) as {
    $schema: string;
    properties: Record<string, { enum?: string[]; items?: { not?: { enum: string[] } } }>;
    allOf: {
      if: { properties: { kind: { const: string } } };
      then: { properties: { method: { enum: string[] } } };
    }[];
  };

  it('fields, kinds, reserved names and methods', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        '$schema',
        'kind',
        'description',
        'coordinates',
        'lagrangian',
        'constraints',
        'params',
        'init',
        'method',
        'h',
        'steps',
        'forces',
        'inputs',
      ].sort(),
    );
    expect(schema.properties.kind!.enum).toEqual([...MODEL_KINDS]);
    expect(new Set(schema.properties.coordinates!.items!.not!.enum)).toEqual(RESERVED_NAMES);
    for (const branch of schema.allOf) {
      const kind = branch.if.properties.kind.const as keyof typeof KIND_METHODS;
      expect(branch.then.properties.method.enum).toEqual([...KIND_METHODS[kind]]);
    }
  });
});

describe('the model descriptor kept between runs (sweep points run main() again and again)', () => {
  const oscillator = readFileSync(
    join(__dirname, '..', 'examples', 'damped-oscillator.json'),
    'utf8',
  );
  /** `geomech simulate --model FILE ARGS` in-process, the file's text given. */
  async function run(file: string, text: string, ...args: string[]) {
    let stdout = '';
    const io: Io = {
      stderrIsTTY: false,
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => {},
      writeFile: () => {},
      readFile: () => text,
    };
    const code = await main(['simulate', '--model', file, ...args], io);
    // the run's wall time is the one field that differs between identical runs
    return { code, stdout: stdout.replace(/"wallMs":[0-9.e+-]+/, '"wallMs":0') };
  }

  it('is reused for the same name and text, with byte-identical output', async () => {
    const a = await modelSystem(oscillator, 'x.json');
    expect(await modelSystem(oscillator, 'x.json')).toBe(a);
    const first = await run('m.json', oscillator, '--steps', '20');
    const second = await run('m.json', oscillator, '--steps', '20');
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // a descriptor built afresh (another path, same base name 'm'): the same bytes
    expect((await run('dir/m.json', oscillator, '--steps', '20')).stdout).toBe(first.stdout);
  });

  it('is never reused for a changed file, and a file that fails is not kept', async () => {
    const a = await modelSystem(oscillator, 'y.json');
    const changed = oscillator.replace('"k": 1', '"k": 4');
    expect(changed).not.toBe(oscillator);
    expect(await modelSystem(changed, 'y.json')).not.toBe(a);
    const before = await run('y.json', oscillator, '--steps', '20');
    const after = await run('y.json', changed, '--steps', '20');
    const lastQ = (text: string) => (JSON.parse(text) as SimulateDoc).series.q!.at(-1);
    expect(lastQ(after.stdout)).not.toEqual(lastQ(before.stdout));
    const broken = oscillator.replace('0.5*xdot^2', '0.5*xdot^^2');
    expect((await run('y.json', broken, '--steps', '20')).code).toBe(2);
    expect((await run('y.json', broken, '--steps', '20')).code).toBe(2);
    expect((await run('y.json', oscillator, '--steps', '20')).stdout).toBe(before.stdout);
  });
});
