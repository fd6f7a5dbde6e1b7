/**
 * The contract between the CLI and a system implementation: a request of plain numbers in, flat
 * series out.
 *
 * @module
 */
import { UsageError } from './errors.js';
import type { SystemDescriptor } from './registry.js';

/** A fully resolved simulation request (defaults applied, names checked). */
export interface SimulateRequest {
  readonly system: SystemDescriptor;
  readonly method: string;
  readonly h: number;
  readonly steps: number;
  readonly every: number;
  readonly params: ReadonlyMap<string, readonly number[]>;
  /** Initial data actually given or defaulted, by name. */
  readonly init: ReadonlyMap<string, readonly number[]>;
  readonly tol?: number;
  readonly maxIterations?: number;
}

/** One output series: `width` numbers per kept state (1 for scalars). */
export interface Series {
  readonly name: string;
  readonly width: number;
  readonly data: Float64Array;
}

/** What a runner returns. */
export interface SimulationOutput {
  readonly count: number;
  readonly t: Float64Array;
  readonly series: readonly Series[];
  readonly stats: { readonly newtonIterations: number; readonly maxResidual: number };
  /** Diagnostics that did not stop the run; shown on stderr when it is a terminal. */
  readonly warnings?: readonly string[];
}

export interface SystemRunner {
  simulate(request: SimulateRequest): SimulationOutput;
  /**
   * The exact (or reference-accurate) final state of the request's initial-value problem at
   * t = steps·h, in the layout of {@link orderFields}; used by `geomech order`.
   */
  reference?(request: SimulateRequest): Float64Array;
  /** Series compared by `geomech order` (their last entries, concatenated). */
  readonly orderFields?: readonly string[];
  /** Initial-data names `geomech order` requires (a start independent of h). */
  readonly orderInit?: readonly string[];
}

/**
 * A resolved parameter or initial datum of exactly `length` finite numbers.
 * @throws UsageError naming the flag and the datum otherwise.
 */
export function requestVector(
  map: ReadonlyMap<string, readonly number[]>,
  name: string,
  flag: string,
  length: number,
): readonly number[] {
  const v = map.get(name);
  if (v === undefined) throw new UsageError(`missing ${name}`, flag);
  if (v.length !== length) {
    const expected = length === 1 ? 'one number' : `${length} numbers`;
    throw new UsageError(`${name} takes ${expected}, got ${v.length}`, `${flag} ${name}`);
  }
  for (const x of v) {
    if (!Number.isFinite(x)) throw new UsageError(`${name} must be finite`, `${flag} ${name}`);
  }
  return v;
}

/** A resolved scalar parameter or initial datum (see {@link requestVector}). */
export function requestScalar(
  map: ReadonlyMap<string, readonly number[]>,
  name: string,
  flag: string,
): number {
  return requestVector(map, name, flag, 1)[0]!;
}
