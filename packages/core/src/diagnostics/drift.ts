/**
 * Drift statistics of a quantity that should be conserved (energy, a Casimir, a momentum map,
 * a constraint) sampled along a trajectory.
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';

/** Options of {@link driftStats}. */
export interface DriftStatsOptions {
  /** Sample times (same length as the values); default: the sample index 0, 1, 2, … */
  readonly times?: ArrayLike<number>;
  /** Value the samples should keep; default: the first sample. */
  readonly reference?: number;
}

/** Result of {@link driftStats}; deviations are `dₖ = vₖ − reference`. */
export interface DriftStats {
  readonly reference: number;
  /** `max |dₖ|`. */
  readonly maxAbsDeviation: number;
  /**
   * `max |dₖ| / |reference|`; `Infinity` when the reference is 0 and some deviation is not, 0 when
   * both are 0.
   */
  readonly maxRelDeviation: number;
  /** `√( (1/N) Σ dₖ² )`. */
  readonly rmsDeviation: number;
  /** `d_{N−1}`, the last value minus the reference. */
  readonly final: number;
  /**
   * Least-squares slope of the values against the times (or the sample index), in value units
   * per unit time (or per sample): `Σ (tₖ − t̄)(vₖ − v̄) / Σ (tₖ − t̄)²`. A secular drift shows up
   * here; a bounded oscillation gives a slope that shrinks with the length of the record.
   */
  readonly linearTrend: number;
}

/**
 * Drift statistics of samples `vₖ` of a conserved quantity; see {@link DriftStats} for the
 * formulas.
 *
 * @throws {@link DomainError} for fewer than 2 samples, a non-finite reference, or times that are
 *   all equal; {@link NonFiniteError} for a non-finite value or time; {@link DimensionError} if
 *   `times` has a different length.
 *
 * @example
 * ```ts
 * const s = driftStats([1, 1.001, 1.002, 1.003], { times: [0, 0.5, 1, 1.5] });
 * s.final;        // ≈ 0.003
 * s.linearTrend;  // ≈ 0.002 per unit time
 * ```
 */
export function driftStats(values: ArrayLike<number>, options: DriftStatsOptions = {}): DriftStats {
  const N = values.length;
  if (N < 2) throw new DomainError('driftStats: number of samples', N, 'need at least 2');
  for (let k = 0; k < N; k++) {
    if (!Number.isFinite(values[k]!)) throw new NonFiniteError('driftStats: values', k);
  }
  const times = options.times;
  if (times !== undefined) {
    if (times.length !== N) throw new DimensionError('driftStats: times length', N, times.length);
    for (let k = 0; k < N; k++) {
      if (!Number.isFinite(times[k]!)) throw new NonFiniteError('driftStats: times', k);
    }
  }
  const reference = options.reference ?? values[0]!;
  if (!Number.isFinite(reference)) {
    throw new DomainError('driftStats: reference', reference, 'must be finite');
  }
  const tOf = (k: number): number => (times === undefined ? k : times[k]!);

  let maxAbs = 0;
  let ss = 0;
  let vbar = 0;
  let tbar = 0;
  for (let k = 0; k < N; k++) {
    const v = values[k]!;
    const d = v - reference;
    const a = Math.abs(d);
    if (a > maxAbs) maxAbs = a;
    ss += d * d;
    vbar += v;
    tbar += tOf(k);
  }
  vbar /= N;
  tbar /= N;
  let stt = 0;
  let stv = 0;
  for (let k = 0; k < N; k++) {
    const dt = tOf(k) - tbar;
    stt += dt * dt;
    stv += dt * (values[k]! - vbar);
  }
  if (!(stt > 0)) {
    throw new DomainError('driftStats: times', 'all equal', 'need at least two distinct times');
  }
  const absRef = Math.abs(reference);
  const maxRel = absRef > 0 ? maxAbs / absRef : maxAbs === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    reference,
    maxAbsDeviation: maxAbs,
    maxRelDeviation: maxRel,
    rmsDeviation: Math.sqrt(ss / N),
    final: values[N - 1]! - reference,
    linearTrend: stv / stt,
  };
}
