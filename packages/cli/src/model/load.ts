/**
 * The CLI's loader of `simulate --model` files: {@link loadModel}'s result, with only the modules
 * of the file's kind imported (a contact model does not load @geomech/dirac, a holonomic one does
 * not load @geomech/contact): the same reading, checks, analysis and runner, the same errors in
 * the same order (the file is read and checked before any kind module loads).
 *
 * @module
 */
import type { SystemDescriptor } from '../registry.js';
import { modelDescriptor } from './descriptor.js';
import { KIND_METHODS, readModel } from './parse.js';

/**
 * Reads, checks and compiles a model file into a system descriptor, as `loadModel` does, importing
 * the analysis of the file's kind only.
 *
 * @example
 * ```ts
 * const system = await loadModelLazily(readFileSync('examples/pendulum.json', 'utf8'), 'pendulum.json');
 * system.methods[0]; // 'dirac-1'
 * ```
 */
export async function loadModelLazily(text: string, fileName: string): Promise<SystemDescriptor> {
  const spec = readModel(text, fileName);
  switch (spec.kind) {
    case 'contact': {
      const { analyzeContact, contactRunner } = await import('./contact.js');
      const model = analyzeContact(spec);
      return modelDescriptor(spec, contactRunner(model), model.methods);
    }
    case 'lagrange-dirac': {
      const { analyzeLagrangeDirac, lagrangeDiracRunner } = await import('./lagrangeDirac.js');
      return modelDescriptor(
        spec,
        lagrangeDiracRunner(analyzeLagrangeDirac(spec)),
        KIND_METHODS[spec.kind],
      );
    }
    case 'holonomic': {
      const { analyzeHolonomic, holonomicRunner } = await import('./holonomic.js');
      return modelDescriptor(
        spec,
        holonomicRunner(analyzeHolonomic(spec)),
        KIND_METHODS[spec.kind],
      );
    }
  }
}
