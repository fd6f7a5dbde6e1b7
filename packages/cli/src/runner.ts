/**
 * The contract between the CLI and a system implementation: a request of plain numbers in, flat
 * series out.
 *
 * @module
 */
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
}

export interface SystemRunner {
  simulate(request: SimulateRequest): SimulationOutput;
}
