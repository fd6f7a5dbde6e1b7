/**
 * The system descriptor of a checked model file from its runner and methods (shared by
 * {@link loadModel} and the CLI's lazy loader `./load.ts`).
 *
 * @module
 */
import type { AccuracyBand, Quantity, SystemDescriptor } from '../registry.js';
import type { SystemRunner } from '../runner.js';
import { KIND_DEFAULTS, type ModelSpec } from './parse.js';

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
 * The descriptor of the model `spec`, run by `runner` with `methods` (the file's default first):
 * the file's params and init as the defaults of `--param` and `--init`, its `method`, `h` and
 * `steps` as the defaults of the flags.
 *
 * @example
 * ```ts
 * const spec = readModel(text, 'damped-oscillator.json');
 * const model = analyzeContact(spec);
 * modelDescriptor(spec, contactRunner(model), model.methods).name; // 'damped-oscillator'
 * ```
 */
export function modelDescriptor(
  spec: ModelSpec,
  runner: SystemRunner,
  methods: readonly string[],
): SystemDescriptor {
  const { params, init } = quantities(spec);
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
