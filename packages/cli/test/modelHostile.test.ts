/**
 * The model files of issue 18, item 1, whose symbolic work exploded under tree rewriting (mathjs
 * `derivative` + `simplify`: 78–296 s, 2 GB, or a stack overflow), and larger ones up to the
 * 256-coordinate limit. With derivatives by automatic differentiation on the expression graph each
 * is answered in seconds: in process, with results checked against hand-written systems; as the
 * built binary (run `pnpm build` first) under a time limit and a 256 MB heap, with exit 0 and the
 * contract's JSON, or exit 2 and one line naming the field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MidpointHerglotz, mechanicalContactLagrangian } from '@geomech/contact';
import { Dual, DualOps, type ScalarOps } from '@geomech/core';
import type { ConstrainedMechanicalSystem } from '@geomech/dirac';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import {
  analyzeContact,
  buildContactLagrangian,
  type TimedContactLagrangian,
} from '../src/model/contact.js';
import { loadModel, ModelError, readModel } from '../src/model/index.js';
import type { SystemDescriptor } from '../src/registry.js';
import type { SimulateRequest, SimulationOutput } from '../src/runner.js';
import { integrateHolonomic } from '../src/systems/holonomic.js';
import { bin } from './helpers.js';
import {
  budgetBuster,
  contactSum,
  coupledOscillator,
  holonomicSphere,
  holonomicSum,
  lagrangeDiracChain,
  manyMinus,
  nestedSin,
} from './hostileModels.js';

type Doc = Record<string, unknown>;

/** A request for a model's own defaults (params, init, h, first method), `steps` steps. */
function defaults(system: SystemDescriptor, steps = 10): SimulateRequest {
  const toMap = (qs: SystemDescriptor['params']) =>
    new Map(qs.map((q) => [q.name, typeof q.default === 'number' ? [q.default] : [...q.default]]));
  return {
    system,
    method: system.methods[0]!,
    h: system.defaults.h,
    steps,
    every: 1,
    params: toMap(system.params),
    init: toMap(system.init),
  };
}

async function run(doc: Doc, name: string, steps = 10): Promise<SimulationOutput> {
  const system = loadModel(JSON.stringify(doc), `${name}.json`);
  return (await system.load()).simulate(defaults(system, steps));
}

/** max |a − b|/max(1, |b|) over the named series (which must have the same layout). */
function worst(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let w = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!));
    w = Number.isNaN(d) ? Number.POSITIVE_INFINITY : Math.max(w, d);
  }
  return w;
}

const series = (out: SimulationOutput, name: string) =>
  out.series
    .find((s) => s.name === name)!
    .data.subarray(0, out.count * out.series.find((s) => s.name === name)!.width);

describe('the explosive models give correct results (in process)', () => {
  it('0.5*xdot^2 − sin(x + p0 + … + p34) (296 s before) equals the model with c = Σp', async () => {
    const doc = contactSum();
    const c = Object.values(doc.params as Record<string, number>).reduce((a, b) => a + b);
    const one = { ...doc, lagrangian: '0.5*xdot^2 - sin(x + c)', params: { c } };
    const a = await run(doc, 'sum35');
    const b = await run(one, 'one');
    // Σp summed left to right in both: measured 2.8e-17
    for (const f of ['q', 'p', 'z'])
      expect(worst(series(a, f), series(b, f))).toBeLessThanOrEqual(1e-14);
  });

  it.each([24, 128])(
    'a %i-coordinate coupled oscillator (78–86 s at 24 before) equals a hand-written potential',
    async (n) => {
      const doc = coupledOscillator(n);
      const k = 1;
      const gamma = -0.01;
      // V = ½k(q₀² + Σ(qᵢ − qᵢ₊₁)²): ∇V and the tridiagonal ∇²V by hand
      const L = mechanicalContactLagrangian(
        {
          dim: n,
          value: (q) => {
            let v = q[0]! * q[0]!;
            for (let i = 0; i + 1 < n; i++) v += (q[i]! - q[i + 1]!) ** 2;
            return 0.5 * k * v;
          },
          gradient: (out, q) => {
            for (let i = 0; i < n; i++) {
              let g = i === 0 ? k * q[0]! : 0;
              if (i > 0) g += k * (q[i]! - q[i - 1]!);
              if (i + 1 < n) g += k * (q[i]! - q[i + 1]!);
              out[i] = g;
            }
          },
          hessian: (out, _q) => {
            out.fill(0);
            for (let i = 0; i < n; i++) {
              out[i * n + i] = (i === 0 ? k : 0) + (i > 0 ? k : 0) + (i + 1 < n ? k : 0);
              if (i + 1 < n) {
                out[i * n + i + 1] = -k;
                out[(i + 1) * n + i] = -k;
              }
            }
          },
        },
        gamma,
      );
      const init = doc.init as { q0: number[]; v0: number[]; z0: number };
      const hand = new MidpointHerglotz(L, 0.05).integrate(init, 10);
      const model = await run(doc, `coupled-${n}`);
      // the model's ∇V is (½k)·(2(qᵢ − qᵢ₊₁)) + …, exact here: measured 0
      expect(worst(series(model, 'q'), hand.q.subarray(0, 11 * n))).toBeLessThan(1e-13);
      expect(worst(series(model, 'p'), hand.p.subarray(0, 11 * n))).toBeLessThan(1e-13);
    },
  );

  /** A hand-written holonomic system of unit masses with V, φ and their derivatives given. */
  function handSystem(
    n: number,
    V: (q: Float64Array) => number,
    gradV: (out: Float64Array, q: Float64Array) => void,
    phi: (q: Float64Array) => number,
    C: (out: Float64Array, q: Float64Array) => void,
    curvature: (q: Float64Array, v: Float64Array) => number,
  ): ConstrainedMechanicalSystem {
    return {
      n,
      m: 1,
      mass: new Float64Array(n).fill(1),
      V,
      gradV: (out, q) => {
        gradV(out, q);
        return out;
      },
      phi: (out, q) => {
        out[0] = phi(q);
        return out;
      },
      C: (out, q) => {
        C(out, q);
        return out;
      },
      curvature: (out, q, v) => {
        out[0] = curvature(q, v);
        return out;
      },
    };
  }

  async function compareHolonomic(doc: Doc, sys: ConstrainedMechanicalSystem, name: string) {
    const system = loadModel(JSON.stringify(doc), `${name}.json`);
    const request = defaults(system);
    const model = (await system.load()).simulate(request);
    const init = doc.init as { q0: number[]; v0: number[] };
    const hand = integrateHolonomic(sys, init.q0, init.v0, request);
    for (const f of ['q', 'p', 'lambda', 'constraint']) {
      // measured 0 (the same operations on these data; λ comes from a Newton solve)
      expect(worst(series(model, f), series(hand, f)), f).toBeLessThan(1e-11);
    }
  }

  it.each([24, 40])(
    'holonomic, %i coordinates with (a0 + a1 + …)² = 1 (did not finish before): the hand-written system',
    async (n) => {
      const sum = (x: Float64Array) => x.reduce((a, b) => a + b, 0);
      const sys = handSystem(
        n,
        (q) => 0.5 * q.reduce((a, b) => a + b * b, 0),
        (out, q) => out.set(q),
        (q) => sum(q) ** 2 - 1,
        (out, q) => out.fill(sum(q)),
        (_q, v) => sum(v) ** 2,
      );
      await compareHolonomic(holonomicSum(n), sys, `sum-${n}`);
    },
  );

  it.each([64, 256])(
    'holonomic with %i coordinates on a sphere (a stack overflow at 64 before)',
    async (n) => {
      const sys = handSystem(
        n,
        (q) => 9.81 * q[0]!,
        (out) => {
          out.fill(0);
          out[0] = 9.81;
        },
        (q) => q.reduce((a, b) => a + b * b, 0) - 1,
        (out, q) => out.set(q),
        (_q, v) => v.reduce((a, b) => a + b * b, 0),
      );
      await compareHolonomic(holonomicSphere(n), sys, `sphere-${n}`);
    },
  );

  it('sin nested 9 deep in 64 coordinates, general contact (240 s, 2 GB before): all ten partials', () => {
    const n = 64;
    const doc = nestedSin(n);
    const model = analyzeContact(readModel(JSON.stringify(doc), 'nested.json'));
    expect(model.general).toBeDefined();
    const L = buildContactLagrangian(model, new Map([['_p0', -0.05]])) as TimedContactLagrangian;
    // the same L, written once on ScalarOps, differentiated by dual numbers
    const generic = <T>(o: ScalarOps<T>, x: readonly T[]): T => {
      let s: T = x[0] as T;
      for (let i = 1; i < n; i++) s = o.add(s, x[i] as T);
      for (let k = 0; k < 9; k++) s = o.sin(s);
      const at = (i: number) => x[i] as T;
      let kin = o.const(0);
      for (let i = 0; i < n; i++) kin = o.add(kin, o.mul(at(n + i), at(n + i)));
      const damp = o.mul(o.mul(o.const(-0.05), at(2 * n)), o.add(o.const(1), o.scale(at(n), 0.1)));
      return o.add(o.sub(o.scale(kin, 0.5), s), damp);
    };
    const x = Float64Array.from({ length: 2 * n + 1 }, (_, i) => 0.01 * Math.sin(i + 1));
    const q = x.subarray(0, n);
    const v = x.subarray(n, 2 * n);
    const z = x[2 * n]!;
    const dual = generic(DualOps, Dual.variables(x));
    const Lq = L.Lq(new Float64Array(n), q, v, z);
    const Lv = L.Lv(new Float64Array(n), q, v, z);
    let first = Math.abs(L.Lz(q, v, z) - dual.d(2 * n));
    for (let i = 0; i < n; i++) {
      first = Math.max(first, Math.abs(Lq[i]! - dual.d(i)), Math.abs(Lv[i]! - dual.d(n + i)));
    }
    // measured 1.1e-16
    expect(first).toBeLessThan(1e-14);
    // second partials against central differences of the dual gradient
    const Lqq = L.Lqq(new Float64Array(n * n), q, v, z);
    const Lvq = L.Lvq(new Float64Array(n * n), q, v, z);
    const Lqz = L.Lqz(new Float64Array(n), q, v, z);
    let second = 0;
    for (const j of [0, 1, 31, 63, n, n + 1, 2 * n]) {
      const h = 1e-6;
      const plus = Float64Array.from(x);
      const minus = Float64Array.from(x);
      plus[j]! += h;
      minus[j]! -= h;
      const gp = generic(DualOps, Dual.variables(plus));
      const gm = generic(DualOps, Dual.variables(minus));
      const column = (i: number) => (gp.d(i) - gm.d(i)) / (plus[j]! - minus[j]!);
      for (let i = 0; i < n; i++) {
        if (j < n) {
          second = Math.max(second, Math.abs(Lqq[i * n + j]! - column(i)));
          second = Math.max(second, Math.abs(Lvq[i * n + j]! - column(n + i)));
        } else if (j === 2 * n) second = Math.max(second, Math.abs(Lqz[i]! - column(i)));
      }
    }
    // measured 2.8e-11 (the differences' truncation and rounding)
    expect(second).toBeLessThan(1e-7);
  });

  it('3000 unary minus signs in a row: the harmonic oscillator, as written without them', async () => {
    const a = await run(manyMinus(3000), 'minus');
    const b = await run({ ...manyMinus(0), lagrangian: '0.5*xdot^2 - 0.5*x^2' }, 'plain');
    for (const f of ['q', 'p', 'z', 'energy']) expect(worst(series(a, f), series(b, f))).toBe(0);
  });

  it('a Lagrange–Dirac chain of 256 coordinates runs and keeps its constraint', async () => {
    const out = await run(lagrangeDiracChain(256), 'ld-256');
    expect(out.count).toBe(11);
    // ‖A(c)(q_{k+1} − q_k)/h‖∞: the velocity constraint of each step (measured 2e-19)
    expect(Math.max(...Array.from(series(out, 'constraint'), Math.abs))).toBeLessThan(1e-12);
  });

  it('a file within every limit whose derivatives are not: one ModelError line naming the field', () => {
    const t0 = performance.now();
    let error: unknown;
    try {
      loadModel(JSON.stringify(budgetBuster()), 'budget.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as ModelError).field).toBe('lagrangian');
    expect((error as ModelError).message).toBe(
      'lagrangian: the expression is too large to differentiate and compile (needs more than 1000000 symbolic nodes)',
    );
    // fails fast: the budget is checked while the graph grows (measured 1–3 s)
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});

describe('the built binary under a time limit and a 256 MB heap', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geomech-hostile-'));
  const cases: [string, Doc, 0 | 2][] = [
    ['contact-sum35', contactSum(), 0],
    ['coupled-24', coupledOscillator(24), 0],
    ['coupled-256', coupledOscillator(256), 0],
    ['holonomic-sum40', holonomicSum(40), 0],
    ['nested-64', nestedSin(64), 0],
    ['nested-256', nestedSin(256), 0],
    ['sphere-64', holonomicSphere(64), 0],
    ['sphere-256', holonomicSphere(256), 0],
    ['minus-3000', manyMinus(3000), 0],
    ['ld-256', lagrangeDiracChain(256), 0],
    ['budget', budgetBuster(), 2],
    ['minus-15000', manyMinus(15_000), 2],
    ['coordinates-257', coupledOscillator(257), 2],
  ];
  it.each(cases)('%s', (name, doc, code) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc));
    const t0 = performance.now();
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=256', bin, 'simulate', '--model', file, '--steps', '10'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    const seconds = (performance.now() - t0) / 1000;
    expect(r.signal, `killed after ${seconds.toFixed(1)} s`).toBeNull();
    expect(r.status).toBe(code);
    if (code === 0) {
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { ok: boolean; series: { t: number[] } };
      expect(out.ok).toBe(true);
      expect(out.series.t).toHaveLength(11);
    } else {
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^geomech: error: [^\n]+ \(.+\)\n$/);
    }
  });
});
