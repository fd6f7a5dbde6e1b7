// Optimal-control model files (`geomech solve --model FILE`, CLI contract "Optimal-control model
// files"): the same problem as the API gives the same answer, partly free ends and free horizons,
// coordinate bounds, and malformed files rejected with the field and the character position.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rn } from '@geomech/core';
import { defineOcp, unicycleParkingOcp } from '@geomech/groupoid';
import { describe, expect, it } from 'vitest';
import { RESERVED_NAMES } from '../src/model/expressions.js';
import {
  OCP_MODEL_FIELDS,
  OCP_MODEL_MAX_CONSTRAINTS,
  OCP_MODEL_MAX_PARAMS,
  OCP_MODEL_MAX_STEPS,
  readOcpModel,
} from '../src/model/optimalControl.js';
import { ERROR_LINE, inProcess } from './helpers.js';
import { minTimeModel } from './ocpFixtures.js';

const example = join(__dirname, '..', 'examples', 'unicycle-parking.json');
const exampleText = readFileSync(example, 'utf8');
const tight = { solver: { tol: 1e-12 } };

/** The example with some fields replaced (undefined removes a field). */
function variant(changes: Record<string, unknown>): string {
  const doc = JSON.parse(exampleText) as Record<string, unknown>;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete doc[k];
    else doc[k] = v;
  }
  return JSON.stringify(doc);
}

describe('optimal-control model files', () => {
  it('the example and unicycleParkingOcp (the same problem in the API) agree to 1e-10', () => {
    const a = readOcpModel(exampleText, example).ocp.solve(tight);
    const b = unicycleParkingOcp({ n: 60, vmax: 1.6 }).solve(tight);
    expect(a.success).toBe(true);
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-10);
    let d = 0;
    for (let i = 0; i < a.x.length; i++) d = Math.max(d, Math.abs(a.x[i]! - b.x[i]!));
    for (let i = 0; i < a.u.length; i++) d = Math.max(d, Math.abs(a.u[i]! - b.u[i]!));
    expect(d).toBeLessThan(1e-10);
  });
  it('without coordinate names the parameters still read their own values (w = 2 without coordinates = with them)', () => {
    const a = readOcpModel(variant({ params: { w: 2 } }), 'a.json').ocp.solve(tight);
    const b = readOcpModel(
      variant({ params: { w: 2 }, coordinates: undefined }),
      'b.json',
    ).ocp.solve(tight);
    expect(a.success).toBe(true);
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-12);
  });
  it('a null heading at the end leaves it free (same answer as the API with endHeading free)', () => {
    const m = readOcpModel(variant({ end: [1, 1, null] }), 'free.json');
    const a = m.ocp.solve(tight);
    const b = unicycleParkingOcp({ n: 60, endHeading: 'free' }).solve(tight);
    expect(a.success).toBe(true);
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-10);
  });
  it('a coordinate bound (theta ≤ 1, not a storage entry) holds at every state and is active (free: max θ = 1.053)', () => {
    const m = readOcpModel(
      variant({ end: [1, 1, null], bounds: { vx: [-1.6, 1.6], theta: [null, 1] } }),
      'b.json',
    );
    const a = m.ocp.solve(tight);
    expect(a.success).toBe(true);
    let top = -Infinity;
    for (let k = 0; k <= 60; k++) top = Math.max(top, Math.atan2(a.x[9 * k + 3]!, a.x[9 * k]!));
    expect(top).toBeLessThanOrEqual(1 + 1e-9);
    expect(top).toBeGreaterThan(1 - 1e-5);
  });
  it('a null start heading and no end: the start heading is chosen and the end is free', () => {
    // minimize ½∫(vx² + ω²) + 10·((x − 1)² + (y − 1)²) at the end, from (0, 0, free heading)
    const text = variant({
      start: [0, 0, null],
      end: undefined,
      terminalCost: '10*((x - 1)^2 + (y - 1)^2)',
    });
    const sol = readOcpModel(text, 'soft.json').ocp.solve(tight);
    expect(sol.success).toBe(true);
    expect(Math.abs(sol.x[2]!) + Math.abs(sol.x[5]!)).toBeLessThan(1e-12); // x_0 = y_0 = 0
    // the optimum drives straight at the target: heading π/4, ω = 0
    expect(Math.abs(Math.atan2(sol.x[3]!, sol.x[0]!) - Math.PI / 4)).toBeLessThan(1e-8);
    for (let k = 0; k < 60; k++) expect(Math.abs(sol.u[3 * k + 2]!)).toBeLessThan(1e-8);
  });
  it('a free horizon with a time cost: double integrator on R2, minimum time T = 2 (bang-bang)', () => {
    const text = JSON.stringify(minTimeModel);
    const sol = readOcpModel(text, 'mintime.json').ocp.solve(tight);
    expect(sol.success).toBe(true);
    expect(Math.abs(sol.T - 2)).toBeLessThan(1e-8);
  });
  it('geomech solve --model: a converged minimum with g, xi, lambda, mu series; --n and --param apply', async () => {
    const r = await inProcess('solve', '--model', example, '--n', '30', '--param', 'w=2');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.problem).toBe('unicycle-parking');
    expect(doc.params).toEqual({ n: 30, w: 2 });
    expect(doc.series.g).toHaveLength(31);
    expect(Math.abs(doc.series.g[30][2] - Math.PI / 2)).toBeLessThan(1e-10);
    expect(doc.series.xi[5]).toHaveLength(3);
    expect(doc.series.lambda[5]).toHaveLength(3);
    expect(Math.abs(doc.series.xi[5][1])).toBeLessThan(1e-10);
    const api = unicycleParkingOcp({ n: 30 }).solve({ solver: { tol: 1e-10 } });
    expect(doc.cost).not.toBeCloseTo(api.cost, 3); // w = 2 changed the problem
  });
  const bad: [string, Record<string, unknown>, RegExp][] = [
    [
      'unknown variable',
      { cost: '0.5*(vx^2 + wz^2)' },
      /^cost: unknown variable "wz" .* at char 13$/,
    ],
    [
      'syntax error',
      { constraints: ['vy +* 2'] },
      /^constraints\[0\]: syntax error: .* at char 5$/,
    ],
    [
      'velocity in the terminal cost',
      { terminalCost: 'vx^2' },
      /^terminalCost: unknown variable "vx" \(velocities are not defined at the last state/,
    ],
    ['unknown group', { state: 'SE4' }, /^state: unknown group "SE4"/],
    ['wrong number of velocity names', { velocity: ['a', 'b'] }, /^velocity: expected 3 names/],
    ['short end', { end: [1, 1] }, /^end: expected 3 entries/],
    ['unknown bound name', { bounds: { speed: [0, 1] } }, /^bounds\.speed: unknown name "speed"/],
    [
      'bad dynamics',
      { dynamics: 'hamiltonian' },
      /^dynamics: expected "kinematic" or "lagrangian"/,
    ],
    [
      'lagrangian dynamics on a group',
      { dynamics: 'lagrangian', lagrangian: 'vx^2' },
      /^state: "dynamics": "lagrangian" takes a configuration space R<n>/,
    ],
    ['reserved name', { coordinates: ['x', 'y', 't'] }, /^coordinates\[2\]: name 't' is reserved/],
    ['too many steps', { steps: 1e9 }, /^steps: an integer in \[2, 100000\]/],
    [
      'lagrangian without its dynamics',
      { lagrangian: 'vx^2' },
      /^lagrangian: only with "dynamics": "lagrangian"/,
    ],
    ['unknown field', { hamiltonian: 'vx^2' }, /^hamiltonian: unknown field/],
    ['missing start', { start: undefined }, /^start: missing field/],
  ];
  it.each(bad)('%s: ModelError naming the field (and position)', (_name, changes, message) => {
    expect(() => readOcpModel(variant(changes), 'bad.json')).toThrow(message);
  });
  it('a malformed model gets exit 2 and one line; a contact model is pointed to simulate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geomech-ocp-'));
    const files: Record<string, string> = {
      'bad.json': variant({ cost: '0.5*(vx^2 + wz^2)' }),
      'contact.json': '{"kind":"contact"}',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const cases: [string[], RegExp][] = [
      [['solve', '--model', join(dir, 'bad.json')], /cost: unknown variable "wz" .* at char 13/],
      [['solve', '--model', join(dir, 'contact.json')], /geomech simulate --model/],
      [['simulate', '--model', example], /solved with geomech solve --model/],
      [['solve', 'satellite', '--model', example], /not both/],
    ];
    for (const [args, message] of cases) {
      const r = await inProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(ERROR_LINE);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('ocp.schema.json agrees with the reader', () => {
  const schema = JSON.parse(
    readFileSync(join(__dirname, '..', 'schema', 'ocp.schema.json'), 'utf8'),
  ) as {
    properties: Record<string, Record<string, unknown>>;
  };
  it('fields, reserved names and limits', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...OCP_MODEL_FIELDS].sort());
    const velocity = schema.properties.velocity as { items: { not: { enum: string[] } } };
    expect(new Set(velocity.items.not.enum)).toEqual(new Set([...RESERVED_NAMES, 't', 'h', 'T']));
    expect(schema.properties.steps!.maximum).toBe(OCP_MODEL_MAX_STEPS);
    expect(schema.properties.constraints!.maxItems).toBe(OCP_MODEL_MAX_CONSTRAINTS);
    expect(schema.properties.params!.maxProperties).toBe(OCP_MODEL_MAX_PARAMS);
  });
});

// Forced dynamics: the pendulum swing-up example (`"dynamics": "lagrangian"`, the forced
// variational midpoint rule) against the same discrete problem written with defineOcp by hand.
const pendulumFile = join(__dirname, '..', 'examples', 'pendulum-swing-up.json');
const pendulumText = readFileSync(pendulumFile, 'utf8');

function pendulumVariant(changes: Record<string, unknown>): string {
  const doc = JSON.parse(pendulumText) as Record<string, unknown>;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete doc[k];
    else doc[k] = v;
  }
  return JSON.stringify(doc);
}

/**
 * The swing-up through the API, derivatives by hand: L = ½ml²θ̇² + mgl cos θ, so at the midpoint
 * θ̄ = θ_k + (h/2)θ̇_k: L_θ̇ = ml²θ̇_k, L_θ = −mgl sin θ̄, F = u; p_{k+1} = L_θ̇ + (h/2)(L_θ + u),
 * p_k = L_θ̇ − (h/2)(L_θ + u).
 */
function pendulumApi(n: number) {
  const m = 1;
  const l = 1;
  const g = 9.81;
  return defineOcp({
    state: [Rn(1), Rn(1)],
    controls: 2,
    steps: n,
    horizon: 4,
    dynamics: {
      next: (o, s) => {
        const mid = o.add(s.x[0]!, o.mul(o.scale(s.h, 0.5), s.u[0]!));
        const Lv = o.scale(s.u[0]!, m * l * l);
        const w = o.mul(o.scale(s.h, 0.5), o.add(o.scale(o.sin(mid), -m * g * l), s.u[1]!));
        return [o.add(s.x[0]!, o.mul(s.h, s.u[0]!)), o.add(Lv, w)];
      },
    },
    equalities: (o, s) => {
      const mid = o.add(s.x[0]!, o.mul(o.scale(s.h, 0.5), s.u[0]!));
      const Lv = o.scale(s.u[0]!, m * l * l);
      const w = o.mul(o.scale(s.h, 0.5), o.add(o.scale(o.sin(mid), -m * g * l), s.u[1]!));
      return [o.sub(s.x[1]!, o.sub(Lv, w))];
    },
    cost: (o, s) => o.scale(o.mul(s.u[1]!, s.u[1]!), 0.5),
    controlBounds: { lower: [-Infinity, -3], upper: [Infinity, 3] },
    start: [0, 0],
    end: [Math.PI, 0],
  });
}

describe('optimal-control model files with forced dynamics ("dynamics": "lagrangian")', () => {
  it('the pendulum swing-up example and the same problem through the API agree to 1e-10; a minimum with the torque bound active', () => {
    const model = readOcpModel(pendulumText, pendulumFile);
    const a = model.ocp.solve(tight);
    const b = pendulumApi(80).solve(tight);
    expect(a.status).toBe('converged');
    expect(a.secondOrder).toBe('minimum');
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-10);
    let d = 0;
    for (let i = 0; i < a.x.length; i++) d = Math.max(d, Math.abs(a.x[i]! - b.x[i]!));
    for (let i = 0; i < a.u.length; i++) d = Math.max(d, Math.abs(a.u[i]! - b.u[i]!));
    expect(d).toBeLessThan(1e-10);
    let top = 0;
    for (let k = 0; k < 80; k++) top = Math.max(top, Math.abs(a.u[2 * k + 1]!));
    // unbounded, the optimal torque peaks at 3.95 (measured): the bound 3 is active
    expect(top).toBeGreaterThan(3 - 1e-6);
    expect(top).toBeLessThanOrEqual(3 + 1e-9);
    expect(Math.abs(a.x[2 * 80]! - Math.PI)).toBeLessThan(1e-10);
  });
  it('velocities at the boundary become momenta p = ∂L/∂q̇ (ml²θ̇ for the pendulum)', () => {
    const model = readOcpModel(pendulumVariant({ start: [0, 0.5], end: [0.1, null] }), 'p.json');
    expect(Array.from(model.ocp.start)).toEqual([0, 0.5]);
  });
  it('geomech solve --model: g = (θ, p), xi = θ̇ and u series', async () => {
    const r = await inProcess('solve', '--model', pendulumFile);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.series.g[80]).toHaveLength(2);
    expect(Math.abs(doc.series.g[80][0] - Math.PI)).toBeLessThan(1e-10);
    expect(typeof doc.series.xi[3]).toBe('number'); // one velocity, one control
    expect(Math.max(...doc.series.u.map(Math.abs))).toBeLessThanOrEqual(3 + 1e-9);
  });
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['missing lagrangian', { lagrangian: undefined }, /^lagrangian: missing field/],
    [
      'controls in the lagrangian',
      { lagrangian: 'u*theta' },
      /^lagrangian: unknown variable "u" \(the lagrangian cannot use controls/,
    ],
    ['wrong number of forces', { forces: ['u', '0'] }, /^forces: expected 1 expressions/],
    [
      'syntax error in a force',
      { forces: ['u +* 1'] },
      /^forces\[0\]: syntax error: .* at char 4$/,
    ],
    ['missing coordinates', { coordinates: undefined }, /^coordinates: missing field/],
    [
      'short end',
      { end: [3.14] },
      /^end: expected 2 entries \(the coordinates q, then the velocities q̇\)/,
    ],
    [
      'velocity without its coordinate',
      { end: [null, 0] },
      /^end: give every coordinate and every velocity/,
    ],
    [
      'retraction with lagrangian dynamics',
      { retraction: 'cayley' },
      /^retraction: only with "dynamics": "kinematic"/,
    ],
    [
      'unknown bound name',
      { bounds: { torque: [0, 1] } },
      /^bounds\.torque: unknown name "torque" \(bounds take velocity, control, coordinate or momentum names\)/,
    ],
    ['control named like a coordinate', { controls: ['theta'] }, /duplicate name 'theta'/],
  ];
  it.each(bad)('%s: ModelError naming the field (and position)', (_name, changes, message) => {
    expect(() => readOcpModel(pendulumVariant(changes), 'bad.json')).toThrow(message);
  });
  it('a malformed forced model through the CLI: exit 2 and one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geomech-ocp-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, pendulumVariant({ forces: ['u + w'] }));
    const r = await inProcess('solve', '--model', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(ERROR_LINE);
    expect(r.stderr).toMatch(/forces\[0\]: unknown variable "w"/);
  });
});
