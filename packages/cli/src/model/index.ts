/**
 * Model files (`geomech simulate --model FILE`, CLI contract "Model files"): a JSON document with
 * expressions in the mathjs syntax, checked, differentiated symbolically and turned into a
 * {@link SystemDescriptor} that `simulate` runs like a built-in system. Schema:
 * `packages/cli/schema/model.schema.json`.
 *
 * @module
 */
import type { AccuracyBand, Quantity, SystemDescriptor } from '../registry.js';
import type { SystemRunner } from '../runner.js';
import { analyzeContact, contactRunner } from './contact.js';
import { analyzeHolonomic, holonomicRunner } from './holonomic.js';
import { analyzeLagrangeDirac, lagrangeDiracRunner } from './lagrangeDirac.js';
import { KIND_DEFAULTS, KIND_METHODS, type ModelSpec, readModel } from './parse.js';

export { ModelError } from './errors.js';
export { MODEL_KINDS, type ModelKind, type ModelSpec, readModel } from './parse.js';

const FIELDS = {
  contact: ['q', 'p', 'z', 'energy', 'sigma'],
  'lagrange-dirac': ['q', 'p', 'lambda', 'energy', 'constraint'],
  holonomic: ['q', 'p', 'lambda', 'energy', 'constraint'],
} as const;

const PACKAGES = {
  contact: '@geomech/contact',
  'lagrange-dirac': '@geomech/dirac',
  holonomic: '@geomech/dirac',
} as const;

const INIT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  q0: 'initial position',
  v0: 'initial velocity',
  q1: 'second position (two-point start)',
  z0: 'initial action',
};

/**
 * Numbers per kept state of a model's output, t included (the output size is estimated from it
 * before the run): contact t, q, p, z, energy, sigma; lagrange-dirac t, q, p, λ (one per one-form,
 * more if the constraint algorithm adds hidden ones), energy, constraint; holonomic t, q, p, λ,
 * energy, constraint (one per constraint).
 */
function outputWidth(spec: ModelSpec): number {
  const n = spec.coordinates.length;
  if (spec.kind === 'contact') return 2 * n + 4;
  if (spec.kind === 'lagrange-dirac') return 2 * n + spec.oneForms.length + 3;
  return 2 * n + 2 * spec.positions.length + 2;
}

/**
 * Accuracy bands of model runs, as for the built-ins of the same kind (CLI README, "Accuracy
 * bands"): a holonomic model keeps its constraints within 1e-3 and its energy within 1% of
 * max(|E0|, 1); a Lagrange–Dirac model its energy within 5% (first-order methods).
 */
const MODEL_BANDS: Readonly<Record<'lagrange-dirac' | 'holonomic', readonly AccuracyBand[]>> = {
  'lagrange-dirac': [{ field: 'energy', measure: 'drift', tol: 5e-2, scaleText: '|E0|' }],
  holonomic: [
    { field: 'constraint', measure: 'residual', tol: 1e-3 },
    { field: 'energy', measure: 'drift', tol: 1e-2, scale: () => 1, scaleText: 'max(|E0|, 1)' },
  ],
};

/** `methods` with the file's default method first. */
function ordered(methods: readonly string[], first: string | undefined): string[] {
  return first === undefined ? [...methods] : [first, ...methods.filter((m) => m !== first)];
}

function quantities(spec: ModelSpec): { params: Quantity[]; init: Quantity[] } {
  const coords = spec.coordinates.join(', ');
  const params = [...spec.params].map(([name, value]) => ({
    name,
    default: value,
    description: 'model parameter',
  }));
  const init = [...spec.init].map(([name, value]) => ({
    name,
    default: value.length === 1 ? value[0]! : [...value],
    description: `${INIT_DESCRIPTIONS[name] ?? name}${name === 'z0' ? '' : ` (${coords})`}`,
  }));
  return { params, init };
}

/**
 * Reads, checks and compiles a model file into a system descriptor: the symbolic work (parsing,
 * derivatives, form checks) happens here, once; `load()` returns the runner, which substitutes the
 * run's parameter values (`--param` overrides the file's `params`) and generates plain JavaScript
 * functions before integrating. Initial data and parameters of the file are the defaults of
 * `--init` and `--param`; the file's `method`, `h` and `steps` are the defaults of the flags.
 *
 * Kinds (CLI contract): `contact` (variables: coordinates, `<name>dot`, `z`, `t`),
 * `lagrange-dirac` (constraint one-forms Σᵢ aᵢ(q) q̇ᵢ = 0), `holonomic` (φ(q) = 0, mechanical L).
 *
 * @param text - the file's contents.
 * @param fileName - the file's name: the system name is its base name without `.json`, and
 *   errors name it.
 * @throws {@link ModelError} (a UsageError, exit code 2) with a one-line message naming the
 *   field's JSON path and, for an expression, the character position of the fault.
 * @example
 * ```ts
 * const system = loadModel(readFileSync('examples/damped-oscillator.json', 'utf8'),
 *   'examples/damped-oscillator.json');
 * system.name;    // 'damped-oscillator'
 * system.methods; // ['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact']
 * const runner = await system.load();
 * ```
 */
export function loadModel(text: string, fileName: string): SystemDescriptor {
  const spec = readModel(text, fileName);
  const { params, init } = quantities(spec);
  let runner: SystemRunner;
  let methods: readonly string[];
  switch (spec.kind) {
    case 'contact': {
      const model = analyzeContact(spec);
      runner = contactRunner(model);
      methods = model.methods;
      break;
    }
    case 'lagrange-dirac':
      runner = lagrangeDiracRunner(analyzeLagrangeDirac(spec));
      methods = KIND_METHODS[spec.kind];
      break;
    case 'holonomic':
      runner = holonomicRunner(analyzeHolonomic(spec));
      methods = KIND_METHODS[spec.kind];
      break;
  }
  const start = spec.init.has('q1') ? 'q1' : 'v0';
  const other = start === 'q1' ? 'v0' : 'q1';
  const defaults = KIND_DEFAULTS[spec.kind];
  const description =
    spec.description ??
    `${spec.kind} model from ${spec.name}, L = ${spec.lagrangian.replace(/\s+/g, ' ').trim()}`;
  return {
    name: spec.name,
    kind: 'system',
    package: PACKAGES[spec.kind],
    description,
    methods: ordered(methods, spec.method),
    params,
    init,
    ...(spec.kind === 'contact'
      ? {
          initAlternatives: [
            ['q0', start, 'z0'],
            ['q0', other, 'z0'],
          ],
        }
      : {}),
    fields: FIELDS[spec.kind],
    defaults: { h: spec.h ?? defaults.h, steps: spec.steps ?? defaults.steps },
    outputWidth: () => outputWidth(spec),
    ...(spec.kind === 'contact' ? {} : { bands: MODEL_BANDS[spec.kind] }),
    load: async () => runner,
  };
}
