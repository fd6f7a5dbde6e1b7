/**
 * Reading and checking a model file's fields (CLI contract, "Model files";
 * `packages/cli/schema/model.schema.json`). Expressions are checked later, by the kind's
 * analysis; this module checks everything else: field names and types, coordinate and parameter
 * names, initial data against the coordinates, and the optional method, step and horizon.
 *
 * @module
 */
import { ModelError, quote } from './errors.js';
import { NAME, RESERVED_NAMES } from './expressions.js';
import { isJsonObject, type JsonObject, type JsonValue, parseJson } from './json.js';

/** The kinds of model file. */
export const MODEL_KINDS = ['contact', 'lagrange-dirac', 'holonomic'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Methods of each kind, in the order of the built-in systems (the first is the default). */
export const KIND_METHODS: Readonly<Record<ModelKind, readonly string[]>> = {
  contact: ['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact'],
  'lagrange-dirac': ['dirac-plus', 'dirac-minus'],
  holonomic: ['dirac-1', 'dirac-2', 'dirac-2c', 'euler', 'trapezium', 'ab3', 'rk4', 'rattle'],
};

/** Default step and horizon of each kind when the file gives none. */
export const KIND_DEFAULTS: Readonly<Record<ModelKind, { h: number; steps: number }>> = {
  contact: { h: 0.1, steps: 100 },
  'lagrange-dirac': { h: 0.01, steps: 1000 },
  holonomic: { h: 0.01, steps: 1000 },
};

/**
 * Most coordinates a model may have. The derivatives cost (number of coordinates) × (size of the
 * expressions) node visits, linear in each (measured: 256 coordinates compile in about a second);
 * the integrators' dense Newton steps cost O(n³) per step beyond that.
 */
export const MAX_COORDINATES = 256;
/** Most constraints a model may have. */
export const MAX_CONSTRAINTS = 64;
/** Most parameters a model may have. */
export const MAX_PARAMS = 256;
/** Most control inputs (`inputs`) a model may have. */
export const MAX_INPUTS = 64;

/** A model file with its fields checked (expressions still as text). */
export interface ModelSpec {
  /** The file name, for messages. */
  readonly file: string;
  /** The system name shown in the output (the file's base name without `.json`). */
  readonly name: string;
  readonly kind: ModelKind;
  readonly description?: string;
  readonly coordinates: readonly string[];
  /** Velocity names `<coordinate>dot`, in the order of the coordinates. */
  readonly velocities: readonly string[];
  readonly lagrangian: string;
  /** `lagrange-dirac`: one-forms, each n coefficients (text or number). */
  readonly oneForms: readonly (readonly (string | number)[])[];
  /** `holonomic`: position constraints φ(q) = 0. */
  readonly positions: readonly string[];
  /** Parameters in file order. */
  readonly params: ReadonlyMap<string, number>;
  /** Initial data in file order; scalars as one-element lists. */
  readonly init: ReadonlyMap<string, readonly number[]>;
  readonly method?: string;
  readonly h?: number;
  readonly steps?: number;
  /**
   * `contact`, `lagrange-dirac`: the external force F(t, q, q̇, u), n components (text or number);
   * empty when the file has none.
   */
  readonly forces: readonly (string | number)[];
  /** Names of the control inputs u (the columns of `--input`); empty when none. */
  readonly inputs: readonly string[];
}

const FIELDS = [
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
] as const;

/** The JSON path of `key` inside `parent`. */
export function keyPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${quote(key)}]`;
}

function typeName(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  return `${String(v)}`;
}

class Fields {
  constructor(readonly file: string) {}

  fail(field: string, what: string): never {
    throw new ModelError(field, what, this.file);
  }

  string(v: JsonValue | undefined, field: string): string {
    if (typeof v !== 'string') this.fail(field, `expected a string, got ${typeName(v)}`);
    return v;
  }

  finite(v: JsonValue | undefined, field: string): number {
    if (typeof v !== 'number') this.fail(field, `expected a number, got ${typeName(v)}`);
    if (!Number.isFinite(v)) this.fail(field, 'must be a finite number');
    return v;
  }

  list(v: JsonValue | undefined, field: string): JsonValue[] {
    if (!Array.isArray(v)) this.fail(field, `expected a list, got ${typeName(v)}`);
    return v;
  }

  object(v: JsonValue | undefined, field: string): JsonObject {
    if (!isJsonObject(v)) this.fail(field, `expected an object, got ${typeName(v)}`);
    return v;
  }

  /** A vector of `n` finite numbers (a bare number when n = 1). */
  vector(v: JsonValue | undefined, field: string, n: number, what: string): number[] {
    if (typeof v === 'number' && n === 1) return [this.finite(v, field)];
    if (!Array.isArray(v)) {
      const expected = n === 1 ? 'a number or a list of one number' : `a list of ${n} numbers`;
      this.fail(field, `expected ${expected} (${what}), got ${typeName(v)}`);
    }
    if (v.length !== n) {
      this.fail(field, `expected ${n} number${n === 1 ? '' : 's'} (${what}), got ${v.length}`);
    }
    return v.map((x, i) => this.finite(x, `${field}[${i}]`));
  }
}

/** The system name of a model file: its base name without the `.json` extension. */
export function modelName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const name = base.replace(/\.json$/i, '');
  return (name === '' ? 'model' : name).replace(/[\r\n\u2028\u2029]/g, ' ');
}

/**
 * Reads a model file's text and checks its fields (not yet its expressions).
 *
 * @throws {@link ModelError} (exit code 2) naming the JSON path of the first fault: JSON syntax
 *   (line and column), an unknown or missing field, a wrong type, an unknown kind, a bad or
 *   duplicate coordinate name, a name that clashes with a function, constant, velocity or another
 *   name, a non-finite parameter, initial data of the wrong length, an unknown method, a bad h or
 *   steps.
 * @example
 * ```ts
 * const spec = readModel('{"kind":"contact","coordinates":["x"],"lagrangian":"0.5*xdot^2",' +
 *   '"init":{"q0":[1],"v0":[0],"z0":0}}', 'free.json');
 * spec.velocities; // ['xdot']
 * ```
 */
export function readModel(text: string, file: string): ModelSpec {
  const f: Fields = new Fields(file);
  const doc = parseJson(text, file);
  if (!isJsonObject(doc)) f.fail('(file)', `a model file is a JSON object, got ${typeName(doc)}`);
  if (doc.kind === 'optimal-control')
    f.fail('kind', 'optimal-control models are solved with geomech solve --model FILE');
  for (const key of Object.keys(doc)) {
    if (!(FIELDS as readonly string[]).includes(key)) {
      const field = /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
      f.fail(field, `unknown field (known: ${FIELDS.slice(1).join(', ')})`);
    }
  }
  const required = (key: string): JsonValue => {
    const v = doc[key];
    if (v === undefined) f.fail(key, 'missing field');
    return v;
  };

  const kindText = f.string(required('kind'), 'kind');
  const kind = MODEL_KINDS.find((k) => k === kindText);
  if (kind === undefined) {
    f.fail('kind', `unknown kind ${quote(kindText)} (choose ${MODEL_KINDS.join(', ')})`);
  }

  // coordinates and their velocities
  const coordList = f.list(required('coordinates'), 'coordinates');
  if (coordList.length === 0) f.fail('coordinates', 'needs at least one coordinate');
  if (coordList.length > MAX_COORDINATES)
    f.fail('coordinates', `at most ${MAX_COORDINATES} coordinates, got ${coordList.length}`);
  const coordinates = coordList.map((c, i) => f.string(c, `coordinates[${i}]`));
  // a model with forces has the time t (contact models always)
  const reservedForKind = kind === 'contact' ? ['z', 't'] : doc.forces !== undefined ? ['t'] : [];
  const velocities = coordinates.map((c) => `${c}dot`);
  const taken = new Map<string, string>(); // name → what it is
  coordinates.forEach((c, i) => {
    const field = `coordinates[${i}]`;
    checkName(f, c, field);
    if (reservedForKind.includes(c))
      f.fail(
        field,
        kind === 'contact'
          ? `'${c}' is reserved in contact models (the action z and the time t)`
          : `'${c}' is reserved in models with forces (the time t)`,
      );
    const before = taken.get(c);
    if (before !== undefined) f.fail(field, `duplicate name '${c}' (already ${before})`);
    const owner = velocities.indexOf(c);
    if (owner >= 0)
      f.fail(field, `name '${c}' clashes with the velocity of coordinate ${coordinates[owner]}`);
    taken.set(c, `coordinate ${c}`);
  });
  velocities.forEach((v, i) => {
    if (reservedForKind.includes(v)) f.fail(`coordinates[${i}]`, `its velocity '${v}' is reserved`);
    taken.set(v, `velocity of ${coordinates[i]}`);
  });
  for (const r of reservedForKind) taken.set(r, r === 'z' ? 'action z' : 'time t');

  // parameters
  const params = new Map<string, number>();
  if (doc.params !== undefined) {
    const obj = f.object(doc.params, 'params');
    const keys = Object.keys(obj);
    if (keys.length > MAX_PARAMS)
      f.fail('params', `at most ${MAX_PARAMS} parameters, got ${keys.length}`);
    for (const key of keys) {
      const field = keyPath('params', key);
      checkName(f, key, field);
      const before = taken.get(key);
      if (before !== undefined) f.fail(field, `parameter name clashes with the ${before}`);
      taken.set(key, `parameter ${key}`);
      params.set(key, f.finite(obj[key], field));
    }
  }

  // control inputs: names of u, distinct from every other name
  const inputs: string[] = [];
  if (doc.inputs !== undefined) {
    if (doc.forces === undefined) f.fail('inputs', 'inputs need a forces entry that uses them');
    const list = f.list(doc.inputs, 'inputs');
    if (list.length > MAX_INPUTS)
      f.fail('inputs', `at most ${MAX_INPUTS} inputs, got ${list.length}`);
    list.forEach((x, i) => {
      const field = `inputs[${i}]`;
      const name = f.string(x, field);
      checkName(f, name, field);
      const before = taken.get(name);
      if (before !== undefined) f.fail(field, `input name clashes with the ${before}`);
      taken.set(name, `input ${name}`);
      inputs.push(name);
    });
  }

  const lagrangian = f.string(required('lagrangian'), 'lagrangian');

  // constraints
  const n = coordinates.length;
  // forces: n components
  let forces: (string | number)[] = [];
  if (doc.forces !== undefined) {
    const list = f.list(doc.forces, 'forces');
    if (list.length !== n)
      f.fail('forces', `needs ${n} components (one per coordinate), got ${list.length}`);
    forces = list.map((c, i) =>
      typeof c === 'number' ? f.finite(c, `forces[${i}]`) : f.string(c, `forces[${i}]`),
    );
  }
  let oneForms: (string | number)[][] = [];
  let positions: string[] = [];
  if (kind === 'contact') {
    if (doc.constraints !== undefined)
      f.fail(
        'constraints',
        'contact models take no constraints (use kind lagrange-dirac or holonomic)',
      );
  } else {
    // holonomic models may have none (a free system); lagrange-dirac ones need a one-form
    const list =
      kind === 'holonomic' && doc.constraints === undefined
        ? []
        : f.list(required('constraints'), 'constraints');
    if (list.length === 0 && kind === 'lagrange-dirac')
      f.fail('constraints', 'needs at least one constraint');
    if (list.length > MAX_CONSTRAINTS)
      f.fail('constraints', `at most ${MAX_CONSTRAINTS} constraints, got ${list.length}`);
    if (kind === 'lagrange-dirac') {
      if (list.length >= n)
        f.fail(
          'constraints',
          `${list.length} one-forms leave no motion in ${n} coordinates (need fewer than ${n})`,
        );
      oneForms = list.map((row, a) => {
        const field = `constraints[${a}]`;
        const coefficients = f.list(row, field);
        if (coefficients.length !== n) {
          f.fail(
            field,
            `a one-form needs ${n} coefficients (one per coordinate), got ${coefficients.length}`,
          );
        }
        return coefficients.map((c, i) =>
          typeof c === 'number' ? f.finite(c, `${field}[${i}]`) : f.string(c, `${field}[${i}]`),
        );
      });
    } else {
      if (list.length >= n)
        f.fail(
          'constraints',
          `${list.length} constraints leave no motion in ${n} coordinates (need fewer than ${n})`,
        );
      positions = list.map((c, a) => f.string(c, `constraints[${a}]`));
    }
  }

  // initial data
  const initObj = f.object(required('init'), 'init');
  const init = new Map<string, number[]>();
  const allowed = kind === 'contact' ? ['q0', 'v0', 'q1', 'z0'] : ['q0', 'v0'];
  const expectedText = kind === 'contact' ? 'give q0, z0 and one of v0 or q1' : 'give q0 and v0';
  for (const key of Object.keys(initObj)) {
    const field = keyPath('init', key);
    if (!allowed.includes(key)) f.fail(field, `unknown initial datum (${expectedText})`);
    const value = initObj[key];
    if (key === 'z0') init.set(key, f.vector(value, field, 1, 'the initial action'));
    else {
      const what =
        key === 'q0' || key === 'q1'
          ? 'one position per coordinate'
          : 'one velocity per coordinate';
      init.set(key, f.vector(value, field, n, what));
    }
  }
  const needed = kind === 'contact' ? ['q0', 'z0'] : ['q0', 'v0'];
  for (const key of needed) if (!init.has(key)) f.fail(`init.${key}`, `missing (${expectedText})`);
  if (kind === 'contact') {
    const has = ['v0', 'q1'].filter((k) => init.has(k));
    if (has.length !== 1)
      f.fail(
        'init',
        has.length === 0 ? `missing v0 or q1 (${expectedText})` : 'give v0 or q1, not both',
      );
  }

  // optional defaults
  let method: string | undefined;
  if (doc.method !== undefined) {
    method = f.string(doc.method, 'method');
    if (!KIND_METHODS[kind].includes(method)) {
      f.fail(
        'method',
        `unknown method ${quote(method)} for kind ${kind} (choose ${KIND_METHODS[kind].join(', ')})`,
      );
    }
  }
  let h: number | undefined;
  if (doc.h !== undefined) {
    h = f.finite(doc.h, 'h');
    if (!(h > 0)) f.fail('h', `must be > 0, got ${h}`);
  }
  let steps: number | undefined;
  if (doc.steps !== undefined) {
    steps = f.finite(doc.steps, 'steps');
    if (!(Number.isSafeInteger(steps) && steps >= 1))
      f.fail('steps', `must be a positive integer, got ${steps}`);
  }
  const description =
    doc.description === undefined ? undefined : f.string(doc.description, 'description');

  return {
    file,
    name: modelName(file),
    kind,
    ...(description === undefined ? {} : { description: description.replace(/\s+/g, ' ').trim() }),
    coordinates,
    velocities,
    lagrangian,
    oneForms,
    positions,
    params,
    init,
    ...(method === undefined ? {} : { method }),
    ...(h === undefined ? {} : { h }),
    ...(steps === undefined ? {} : { steps }),
    forces,
    inputs,
  };
}

/** Checks a coordinate or parameter name: an identifier that is no function, constant or keyword. */
function checkName(f: Fields, name: string, field: string): void {
  if (!NAME.test(name)) {
    f.fail(field, `bad name ${quote(name)} (letters, digits and _, not starting with a digit)`);
  }
  if (RESERVED_NAMES.has(name)) {
    f.fail(
      field,
      `name '${name}' clashes with a built-in function, constant or keyword of expressions`,
    );
  }
}
