/**
 * The CLI's loader of model files, `simulate --model` and `solve --model`. `simulate`'s files: {@link loadModel}'s result, with only the modules
 * of the file's kind imported (a contact model does not load @geomech/dirac, a holonomic one does
 * not load @geomech/contact): the same reading, checks, analysis and runner, the same errors in
 * the same order (the file is read and checked before any kind module loads). With a cache
 * directory, the parse trees of the file's expressions come from its cache entry when there is a
 * valid one (then mathjs is never loaded) and are stored there after a successful analysis
 * (cache.ts). `solve`'s optimal-control files ({@link loadOcpModelLazily}): the same cache, around
 * optimalControl.ts's `loadOcpModel`.
 *
 * @module
 */
import type { ProblemDescriptor, SystemDescriptor } from '../registry.js';
import type { SystemRunner } from '../runner.js';
import type { ModelCache } from './cache.js';
import { modelDescriptor } from './descriptor.js';
import { withParseMemo } from './expressions.js';
import { KIND_METHODS, type ModelSpec, readModel } from './parse.js';

/** Where and for which geomech version to cache a model file's analysis. */
export interface ModelCacheOptions {
  /** The cache directory (see cacheDir.ts). */
  readonly dir: string;
  /** geomech's version: part of the entry's key, so an upgrade never reads an older entry. */
  readonly version: string;
}

/**
 * Reads, checks and compiles a model file into a system descriptor, as `loadModel` does, importing
 * the analysis of the file's kind only, and with `cache`, reading and writing the file's entry in
 * the model cache (the descriptor and its numbers are the same on a hit, a miss or without cache).
 *
 * @example
 * ```ts
 * const system = await loadModelLazily(readFileSync('examples/pendulum.json', 'utf8'), 'pendulum.json');
 * system.methods[0]; // 'dirac-1'
 * ```
 */
export async function loadModelLazily(
  text: string,
  fileName: string,
  cache?: ModelCacheOptions,
): Promise<SystemDescriptor> {
  const spec = readModel(text, fileName);
  const analyze = await analysis(spec);
  const memo: ModelCache | undefined =
    cache === undefined
      ? undefined
      : (await import('./cache.js')).ModelCache.open(cache.dir, text, cache.version);
  const { runner, methods } = withParseMemo(memo, analyze);
  memo?.save();
  return modelDescriptor(spec, runner, methods);
}

/**
 * Reads, checks and compiles an optimal-control model file into a problem descriptor, as
 * `loadOcpModel` does (the same errors in the same order), and with `cache`, reading and writing
 * the file's entry in the model cache: on a hit mathjs is never loaded, and the descriptor and its
 * numbers are the same on a hit, a miss or without cache (the tapes are built from the same trees).
 *
 * @example
 * ```ts
 * const problem = await loadOcpModelLazily(readFileSync('examples/unicycle-parking.json', 'utf8'),
 *   'unicycle-parking.json', { dir: '/tmp/geomech-cache', version: '0.0.0' });
 * problem.name; // 'unicycle-parking'
 * ```
 */
export async function loadOcpModelLazily(
  text: string,
  fileName: string,
  cache?: ModelCacheOptions,
): Promise<ProblemDescriptor> {
  const { loadOcpModel } = await import('./optimalControl.js');
  const memo: ModelCache | undefined =
    cache === undefined
      ? undefined
      : (await import('./cache.js')).ModelCache.open(cache.dir, text, cache.version);
  const problem = withParseMemo(memo, () => loadOcpModel(text, fileName));
  memo?.save();
  return problem;
}

/** The analysis of the file's kind (its module imported), to run once the parse memo is set. */
async function analysis(
  spec: ModelSpec,
): Promise<() => { runner: SystemRunner; methods: readonly string[] }> {
  switch (spec.kind) {
    case 'contact': {
      const { analyzeContact, contactRunner } = await import('./contact.js');
      return () => {
        const model = analyzeContact(spec);
        return { runner: contactRunner(model), methods: model.methods };
      };
    }
    case 'lagrange-dirac': {
      const { analyzeLagrangeDirac, lagrangeDiracRunner } = await import('./lagrangeDirac.js');
      return () => ({
        runner: lagrangeDiracRunner(analyzeLagrangeDirac(spec)),
        methods: KIND_METHODS[spec.kind],
      });
    }
    case 'holonomic': {
      const { analyzeHolonomic, holonomicRunner } = await import('./holonomic.js');
      return () => ({
        runner: holonomicRunner(analyzeHolonomic(spec)),
        methods: KIND_METHODS[spec.kind],
      });
    }
  }
}
