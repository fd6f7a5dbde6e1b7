/**
 * Model files (`geomech simulate --model FILE`, CLI contract "Model files"): a JSON document with
 * expressions in the mathjs syntax, checked, differentiated symbolically and turned into a
 * {@link SystemDescriptor} that `simulate` runs like a built-in system. Schema:
 * `packages/cli/schema/model.schema.json`.
 *
 * @module
 */
import type { SystemDescriptor } from '../registry.js';
import type { SystemRunner } from '../runner.js';
import { analyzeContact, contactRunner } from './contact.js';
import { modelDescriptor } from './descriptor.js';
import { analyzeHolonomic, holonomicRunner } from './holonomic.js';
import { analyzeLagrangeDirac, lagrangeDiracRunner } from './lagrangeDirac.js';
import { KIND_METHODS, readModel } from './parse.js';

export { ModelError } from './errors.js';
export { MODEL_KINDS, type ModelKind, type ModelSpec, readModel } from './parse.js';

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
  return modelDescriptor(spec, runner, methods);
}
