/**
 * Fuzzing `loadModel` (fast-check): random strings, random JSON documents, random values mapped to
 * JSON and structured mutations of valid models. A model file is either accepted or rejected with
 * a UsageError whose message is one line; nothing else may escape. Accepted mutants are also run
 * for a few steps, where only the CLI's and the libraries' typed errors may appear.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GeomechError } from '@geomech/core';
import fc from 'fast-check';
import { evaluate } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { NumericalFailure, UsageError } from '../src/errors.js';
import { analyzeContact, buildContactLagrangian } from '../src/model/contact.js';
import { loadModel, readModel } from '../src/model/index.js';
import type { SystemDescriptor } from '../src/registry.js';
import type { SimulateRequest } from '../src/runner.js';

const ONE_LINE = /^[^\r\n\u2028\u2029]+$/;

/** Loads `text`; a rejection must be a UsageError with a one-line message and where. */
function load(text: string): SystemDescriptor | undefined {
  try {
    return loadModel(text, 'fuzz.json');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(ONE_LINE);
    expect(error.where ?? '').toMatch(ONE_LINE);
    return undefined;
  }
}

/** Runs an accepted model for 3 steps from its own defaults; only typed errors may appear. */
async function runBriefly(system: SystemDescriptor): Promise<void> {
  const toMap = (qs: SystemDescriptor['params']) =>
    new Map(qs.map((q) => [q.name, typeof q.default === 'number' ? [q.default] : [...q.default]]));
  const request: SimulateRequest = {
    system,
    method: system.methods[0]!,
    h: system.defaults.h,
    steps: 3,
    every: 1,
    params: toMap(system.params),
    init: toMap(system.init),
  };
  try {
    const out = (await system.load()).simulate(request);
    // a failed step ends the run early with a typed error and the states before it
    if (out.failure === undefined) expect(out.count).toBe(4);
    else {
      expect(out.failure.error).toBeInstanceOf(GeomechError);
      expect(out.count).toBe(out.failure.step + 1);
    }
  } catch (error) {
    const typed =
      error instanceof UsageError ||
      error instanceof NumericalFailure ||
      error instanceof GeomechError;
    if (!typed) throw error;
  }
}

const examples = ['damped-oscillator.json', 'rolling-disk.json', 'pendulum.json'].map(
  (name) =>
    JSON.parse(readFileSync(join(__dirname, '..', 'examples', name), 'utf8')) as Record<
      string,
      unknown
    >,
);
const timeDependent = {
  kind: 'contact',
  coordinates: ['x', 'y'],
  lagrangian: '0.5*m*xdot^2 + 0.5*ydot^2 - 0.5*x^2*y^2 + F*x*cos(t) + gamma*z',
  params: { m: 1.1, F: 0.3, gamma: -0.1 },
  init: { q0: [1, 0.5], v0: [0, 0.2], z0: 0 },
};
const bases = [...examples, timeDependent];

/** Pieces of expressions: the examples' names, unknown names, numbers, operators, functions. */
const piece = fc.oneof(
  fc.constantFrom(
    'x',
    'xdot',
    'y',
    'ydot',
    'theta',
    'phi',
    'phidot',
    'z',
    't',
    'k',
    'gamma',
    'm',
    'g',
    'l',
    'R',
    'pi',
    'e',
    'w',
    'foo',
    'sin(',
    'cos(',
    'exp(',
    'log(',
    'sqrt(',
    'tanh(',
    'pow(',
    'abs(',
    '+',
    '-',
    '*',
    '/',
    '^',
    '(',
    ')',
    ',',
    '.',
    ' ',
    '==',
    '?',
    ':',
    '[',
    ']',
    ';',
    '!',
    "'",
    '"',
    '=',
    '\n',
    '1e999',
    '0x1F',
    '2.5e-3',
    '#',
  ),
  fc.integer({ min: -9, max: 99 }).map(String),
  fc.string({ maxLength: 3 }),
);
const expression = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''));

/** Syntactically valid expressions over `names` (any of them may still be out of scope). */
const validExpression = (names: readonly string[]) =>
  fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...names, 'pi', 'e'),
      fc.double({ min: -5, max: 5, noNaN: true }).map((x) => `(${x})`),
      fc
        .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '^'), tie('e'))
        .map(([a, op, b]) => `(${a} ${op} ${b})`),
      tie('e').map((a) => `-${a}`),
      fc
        .tuple(
          fc.constantFrom('sin', 'cos', 'exp', 'log', 'sqrt', 'tanh', 'atan', 'cosh'),
          tie('e'),
        )
        .map(([f, a]) => `${f}(${a})`),
      fc.tuple(tie('e'), tie('e')).map(([a, b]) => `pow(${a}, ${b})`),
    ),
  })).e;

/** The names a base model's expressions may use. */
function namesOf(doc: Record<string, unknown>): string[] {
  const coords = Array.isArray(doc.coordinates) ? doc.coordinates.map(String) : ['x'];
  const params =
    typeof doc.params === 'object' && doc.params !== null ? Object.keys(doc.params) : [];
  return [...coords, ...coords.map((c) => `${c}dot`), ...params, 'z', 't'];
}

/** One edit of a text: insert, delete or replace a character. */
const editText = (text: string) =>
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'replace'),
      fc.string({ minLength: 1, maxLength: 2 }),
    )
    .map(([at, op, s]) => {
      const i = text.length === 0 ? 0 : at % text.length;
      if (op === 'insert') return text.slice(0, i) + s + text.slice(i);
      if (op === 'delete') return text.slice(0, i) + text.slice(i + 1);
      return text.slice(0, i) + s + text.slice(i + 1);
    });

type Doc = Record<string, unknown>;
type Mutation = (doc: Doc) => fc.Arbitrary<Doc>;

const FIELDS = [
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
  'extra',
];
const clone = (doc: Doc): Doc => JSON.parse(JSON.stringify(doc)) as Doc;

const mutations: Mutation[] = [
  // a field set to any JSON value
  (doc) =>
    fc.tuple(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 3 })).map(([key, value]) => ({
      ...doc,
      [key]: value,
    })),
  // a field removed
  (doc) =>
    fc.constantFrom(...Object.keys(doc)).map((key) => {
      const out = clone(doc);
      delete out[key];
      return out;
    }),
  // the Lagrangian replaced or edited
  (doc) =>
    fc
      .oneof(expression, editText(String(doc.lagrangian)), fc.string({ maxLength: 30 }))
      .map((lagrangian) => ({ ...doc, lagrangian })),
  // the Lagrangian or a constraint replaced by a valid expression in the model's names
  (doc) =>
    fc.tuple(validExpression(namesOf(doc)), fc.nat(), fc.boolean()).map(([text, i, lagrangian]) => {
      const out = clone(doc);
      if (lagrangian || !Array.isArray(out.constraints) || out.constraints.length === 0)
        return { ...out, lagrangian: text };
      const list = out.constraints;
      const a = i % list.length;
      const row = list[a];
      if (Array.isArray(row) && row.length > 0) row[i % row.length] = text;
      else list[a] = text;
      return out;
    }),
  // a constraint (or a one-form coefficient) replaced
  (doc) =>
    fc
      .tuple(fc.nat(), fc.nat(), fc.oneof(expression, fc.jsonValue({ maxDepth: 1 })))
      .map(([a, i, value]) => {
        const out = clone(doc);
        const list = Array.isArray(out.constraints) ? out.constraints : [];
        if (list.length === 0) return { ...out, constraints: [value] };
        const row = list[a % list.length];
        if (Array.isArray(row) && row.length > 0) row[i % row.length] = value;
        else list[a % list.length] = value;
        return out;
      }),
  // a coordinate renamed, duplicated, dropped or added
  (doc) =>
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom('rename', 'duplicate', 'drop', 'add'),
        fc.oneof(
          fc.constantFrom('sin', 'pi', 'e', 'z', 't', 'k', 'xdot', 'x', 'mod'),
          fc.string({ maxLength: 4 }),
        ),
      )
      .map(([i, op, name]) => {
        const out = clone(doc);
        const coords: unknown[] = Array.isArray(out.coordinates) ? out.coordinates.slice() : [];
        const j = coords.length === 0 ? 0 : i % coords.length;
        if (op === 'rename') coords[j] = name;
        if (op === 'duplicate') coords.push(coords[j]);
        if (op === 'drop') coords.splice(j, 1);
        if (op === 'add') coords.push(name);
        return { ...out, coordinates: coords };
      }),
  // a parameter renamed or given any value (non-finite ones through the text)
  (doc) =>
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom('k', 'gamma', 'm', 'exp', 'x', 'z', 'e'),
          fc.string({ maxLength: 4 }),
        ),
        fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.double()),
      )
      .map(([name, value]) => ({
        ...doc,
        params: { ...(doc.params as object), [name]: Number.isNaN(value) ? 0 : value },
      })),
  // initial data resized or replaced
  (doc) =>
    fc
      .tuple(
        fc.constantFrom('q0', 'v0', 'q1', 'z0', 'w0'),
        fc.oneof(
          fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { maxLength: 6 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
      )
      .map(([key, value]) => ({ ...doc, init: { ...(doc.init as object), [key]: value } })),
  // another kind, method, step or horizon
  (doc) =>
    fc
      .record({
        kind: fc.constantFrom('contact', 'lagrange-dirac', 'holonomic', 'hamiltonian'),
        method: fc.constantFrom('midpoint', 'exact', 'dirac-plus', 'rattle', 'rk4', 'nope'),
        h: fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constant(1e-3)),
        steps: fc.oneof(fc.integer({ min: -2, max: 100 }), fc.double({ noNaN: true })),
      })
      .chain((r) =>
        fc.subarray(Object.keys(r), { minLength: 1 }).map((keys) => ({
          ...doc,
          ...Object.fromEntries(keys.map((k) => [k, r[k as keyof typeof r]])),
        })),
      ),
];

/** A base model with one to three mutations applied. */
const mutant = fc
  .tuple(
    fc.constantFrom(...bases),
    fc.array(fc.nat({ max: mutations.length - 1 }), { minLength: 1, maxLength: 3 }),
  )
  .chain(([base, ops]) => {
    let arb: fc.Arbitrary<Doc> = fc.constant(clone(base));
    for (const op of ops) arb = arb.chain((doc) => mutations[op]!(doc));
    return arb;
  });

describe('loadModel never throws anything but a one-line UsageError (fast-check)', () => {
  it('random strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })),
        (text) => {
          load(text);
        },
      ),
      { numRuns: 500, seed: 1 },
    );
  });

  it('random JSON documents and values', () => {
    const anything = fc
      .anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true })
      .map((v) => JSON.stringify(v))
      .filter((text): text is string => typeof text === 'string');
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 4 }), anything), (text) => {
        load(text);
      }),
      { numRuns: 500, seed: 2 },
    );
  });

  it('structured mutations of valid models; accepted mutants run with typed errors only', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(mutant, async (doc) => {
        const system = load(JSON.stringify(doc));
        if (system !== undefined) {
          accepted++;
          await runBriefly(system);
        }
      }),
      { numRuns: 300, seed: 3 },
    );
    // the mutations keep a share valid, so the numerical path is exercised too (measured 30 of 300)
    expect(accepted).toBeGreaterThan(10);
  });

  it('random valid contact Lagrangians load, run with typed errors only, and compile to their value', async () => {
    const names = ['x', 'y', 'xdot', 'ydot', 'z', 't', 'a', 'b'];
    let compared = 0;
    let worst = 0;
    await fc.assert(
      fc.asyncProperty(
        validExpression(names),
        fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 6, maxLength: 6 }),
        async (lagrangian, [x, y, xd, yd, z, t]) => {
          const doc = {
            kind: 'contact',
            coordinates: ['x', 'y'],
            lagrangian,
            params: { a: 0.7, b: -1.3 },
            init: { q0: [0.3, -0.2], v0: [0.1, 0.4], z0: 0.05 },
          };
          const text = JSON.stringify(doc);
          const system = load(text);
          expect(system, lagrangian).toBeDefined();
          await runBriefly(system!);
          const model = analyzeContact(readModel(text, 'fuzz.json'));
          const L = buildContactLagrangian(
            model,
            new Map([
              ['_p0', 0.7],
              ['_p1', -1.3],
            ]),
          );
          const value = L.L(Float64Array.of(x!, y!), Float64Array.of(xd!, yd!), z!, t!);
          const expected: unknown = evaluate(lagrangian, {
            x,
            y,
            xdot: xd,
            ydot: yd,
            z,
            t,
            a: 0.7,
            b: -1.3,
          });
          if (typeof expected !== 'number' || !Number.isFinite(expected)) return;
          if (!Number.isFinite(value) && Math.abs(expected) > 1e300) return;
          compared++;
          worst = Math.max(worst, Math.abs(value - expected) / Math.max(1, Math.abs(expected)));
        },
      ),
      { numRuns: 60, seed: 4 },
    );
    expect(compared).toBeGreaterThan(20);
    // the generated code evaluates the simplified tree, mathjs the parsed one (measured 0)
    expect(worst).toBeLessThan(1e-12);
  });

  it('the valid bases are accepted and run', async () => {
    for (const base of bases) {
      const system = load(JSON.stringify(base));
      expect(system).toBeDefined();
      await runBriefly(system!);
    }
  });
});
