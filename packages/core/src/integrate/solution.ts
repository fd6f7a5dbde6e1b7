/**
 * The one trajectory result of geomech: a {@link Solution} is preallocated flat storage of the kept
 * samples (times, step indices and one `Float64Array` per named series, `count × width` row-major)
 * plus diagnostics (Newton statistics, warnings, the failure of a partial run). Every public
 * trajectory function of every package returns one, built by a {@link Recorder}, most of them
 * through core's `integrate`.
 *
 * The series are also properties: a `Solution<'q' | 'p'>` has `sol.q` and `sol.p`
 * (`sol.q[j*n + i]` is coordinate i of kept sample j; `sol.sample('q', j)` is a view of it).
 *
 * @module
 */
import { DimensionError, DomainError, type GeomechError, ResourceLimitError } from '../errors.js';
import type { MethodTraits } from './traits.js';

/**
 * Largest recorded storage a trajectory may allocate by default, in bytes (1 GiB): a larger
 * request is refused with {@link ResourceLimitError} before any work. Raise it per call with the
 * `maxRecordBytes` option.
 */
export const MAX_RECORD_BYTES = 2 ** 30;

/** Names a series may not take: the fields of {@link SolutionData}. */
const RESERVED = new Set([
  'method',
  'count',
  'steps',
  'h',
  'k',
  't',
  'series',
  'stats',
  'warnings',
  'failure',
  'ok',
  'sample',
  'width',
  'last',
  'get',
]);

/**
 * A recorded quantity: `width` numbers per kept sample (0 for an empty quantity, e.g. the
 * multipliers of an unconstrained system: its data is empty and every sample an empty view).
 * `timing` says when it is known:
 * `'state'` (default) from the kept state itself; `'leaving'` from the step that leaves the kept
 * state (e.g. the conformal factor σ of a contact step, or the Newton iterations of that step), so
 * the last sample's value comes from a peek at the next step, or is NaN.
 */
export interface SeriesSpec<F extends string = string> {
  readonly name: F;
  readonly width: number;
  readonly timing?: 'state' | 'leaving';
}

/** A recorded series: its spec and its `count × width` data. */
export interface Series<F extends string = string> {
  readonly name: F;
  readonly width: number;
  readonly timing: 'state' | 'leaving';
  readonly data: Float64Array;
}

/** Newton statistics of a run (zeros for explicit methods). */
export interface IntegrationStats {
  /** Total Newton iterations over all steps. */
  readonly newtonIterations: number;
  /** Most Newton iterations of one step. */
  readonly maxIterations: number;
  /** Largest final residual ‖F‖∞ of a step's solve. */
  readonly maxResidual: number;
  /** Adaptive methods: attempted steps (accepted + rejected). */
  readonly attempts?: number;
  /** Adaptive methods: accepted steps. */
  readonly accepted?: number;
  /** Adaptive methods: rejected steps. */
  readonly rejected?: number;
  /** Right-hand-side evaluations, for methods that count them. */
  readonly fEvals?: number;
}

/** Why a partial run stopped: the failed step, its time and its error. */
export interface IntegrationFailure {
  /** Index k of the state the failed step leaves (the last good state). */
  readonly step: number;
  readonly t: number;
  readonly error: GeomechError;
}

/** The fields every solution has (the series come on top, see {@link Solution}). */
export interface SolutionData<F extends string = string> {
  readonly method: MethodTraits;
  /** Number of kept samples. */
  readonly count: number;
  /** Steps taken (for a partial run: steps completed before the failure). */
  readonly steps: number;
  /** The fixed step size, NaN for variable steps. */
  readonly h: number;
  /** Step index of each kept sample (length `count`; doubles, exact up to 2⁵³). */
  readonly k: Float64Array;
  /** Time of each kept sample (length `count`). */
  readonly t: Float64Array;
  readonly series: readonly Series<F>[];
  readonly stats: IntegrationStats;
  /** Diagnostics that did not stop the run (libraries never print). */
  readonly warnings: readonly string[];
  /** Set when the run stopped early (only with `onFailure: 'return'`). */
  readonly failure: IntegrationFailure | undefined;
  /** True when the run completed: `failure === undefined`. */
  readonly ok: boolean;
  /** The data of a series (same array as the property of that name). */
  get(name: F): Float64Array;
  /** Width of a series. */
  width(name: F): number;
  /** View (no copy) of sample `j` of a series. @throws DomainError for j outside [0, count). */
  sample(name: F, j: number): Float64Array;
  /** View of the last kept sample of a series. */
  last(name: F): Float64Array;
}

/**
 * A trajectory: {@link SolutionData} plus one `Float64Array` property per series.
 *
 * @example
 * ```ts
 * const rec = new Recorder(methodTraits({ name: 'demo' }), [{ name: 'q', width: 2 }], 2);
 * rec.keep(0, 0, Float64Array.of(1, 2));
 * rec.keep(1, 0.5, Float64Array.of(3, 4));
 * const sol: Solution<'q'> = rec.finish({ steps: 1, h: 0.5 });
 * sol.q[2];            // 3
 * sol.sample('q', 1);  // Float64Array [3, 4]
 * ```
 */
export type Solution<F extends string = never> = SolutionData<F> & {
  readonly [K in F]: Float64Array;
};

/** A solution whose series names are not known statically (read them with `get` or `series`). */
export type AnySolution = SolutionData<string>;

/**
 * Preallocated flat storage of a trajectory's kept samples, filled sample by sample, then frozen
 * into a {@link Solution} by {@link Recorder.finish}. `keep` copies one row (all 'state' series
 * concatenated in series order) and allocates nothing; 'leaving' series are written with
 * {@link Recorder.setLeaving} for the most recent sample.
 */
export class Recorder<F extends string = string> {
  readonly specs: readonly SeriesSpec<F>[];
  /** Sum of the widths of the 'state' series (the row `keep` takes). */
  readonly stateWidth: number;
  /** Sum of the widths of the 'leaving' series (the row `setLeaving` takes). */
  readonly leavingWidth: number;
  /** Samples kept so far. */
  count = 0;
  private capacity: number;
  private readonly growable: boolean;
  private readonly maxRecordBytes: number;
  private kArr: Float64Array;
  private tArr: Float64Array;
  private readonly data: Float64Array[];
  private readonly stateIdx: number[];
  private readonly leavingIdx: number[];
  // the clock of keepStep: sample k is at t0 + k·h
  private clockT0 = 0;
  private clockH = Number.NaN;

  /**
   * @param capacity - the most samples that will be kept; `'grow'` for runs whose sample count is
   *   not known in advance (adaptive steps): storage then doubles as needed.
   * @param maxRecordBytes - refuse storage above this many bytes (before allocating it).
   * @throws {@link DomainError} for bad widths, duplicate or reserved names;
   *   {@link ResourceLimitError} when the storage would exceed `maxRecordBytes` (for `'grow'`:
   *   when a sample would make it exceed the limit).
   */
  constructor(
    readonly method: MethodTraits,
    specs: readonly SeriesSpec<F>[],
    capacity: number | 'grow',
    maxRecordBytes: number = MAX_RECORD_BYTES,
  ) {
    const growable = capacity === 'grow';
    const cap = growable ? 64 : capacity;
    if (!Number.isSafeInteger(cap) || cap < 1) {
      throw new DomainError('Recorder: capacity', capacity, "must be a positive integer or 'grow'");
    }
    const seen = new Set<string>();
    let stateWidth = 0;
    let leavingWidth = 0;
    for (const s of specs) {
      if (RESERVED.has(s.name) || seen.has(s.name)) {
        throw new DomainError(
          'Recorder: series name',
          s.name,
          'must be unique and not a Solution field',
        );
      }
      seen.add(s.name);
      if (!Number.isInteger(s.width) || s.width < 0) {
        throw new DomainError(`Recorder: width of ${s.name}`, s.width, 'must be an integer >= 0');
      }
      if ((s.timing ?? 'state') === 'state') stateWidth += s.width;
      else leavingWidth += s.width;
    }
    const bytes = cap * (stateWidth + leavingWidth + 2) * 8;
    if (bytes > maxRecordBytes) {
      throw new ResourceLimitError('trajectory storage', maxRecordBytes, bytes, 'bytes');
    }
    this.specs = specs;
    this.stateWidth = stateWidth;
    this.leavingWidth = leavingWidth;
    this.capacity = cap;
    this.growable = growable;
    this.maxRecordBytes = maxRecordBytes;
    this.kArr = new Float64Array(cap);
    this.tArr = new Float64Array(cap);
    this.data = specs.map((s) => {
      const a = new Float64Array(cap * s.width);
      if (s.timing === 'leaving') a.fill(Number.NaN);
      return a;
    });
    this.stateIdx = [];
    this.leavingIdx = [];
    specs.forEach((s, i) => {
      ((s.timing ?? 'state') === 'state' ? this.stateIdx : this.leavingIdx).push(i);
    });
  }

  /**
   * Keeps a sample: step index `k`, time `t`, and the 'state' series concatenated in `row`.
   * @throws {@link DomainError} when the capacity is used up.
   */
  keep(k: number, t: number, row: ArrayLike<number>): void {
    const j = this.slot();
    this.kArr[j] = k;
    this.tArr[j] = t;
    this.store(j, row);
  }

  /** Index of the next sample, after growing the storage if needed. */
  private slot(): number {
    const j = this.count;
    if (j >= this.capacity) {
      if (!this.growable) {
        throw new DomainError('Recorder.keep: sample', j, `exceeds the capacity ${this.capacity}`);
      }
      this.grow();
    }
    return j;
  }

  /** Copies the 'state' series of sample `j` from `row` and counts the sample. */
  private store(j: number, row: ArrayLike<number>): void {
    let off = 0;
    const { specs, data, stateIdx } = this;
    for (let a = 0; a < stateIdx.length; a++) {
      const i = stateIdx[a]!;
      const w = specs[i]!.width;
      const d = data[i]!;
      const base = j * w;
      for (let c = 0; c < w; c++) d[base + c] = row[off + c]!;
      off += w;
    }
    this.count = j + 1;
  }

  /**
   * Sets the clock of {@link keepStep}: sample k is at t0 + k·h (the fixed-step grid of a run).
   * @throws {@link DomainError} for a non-finite t0 or h.
   */
  setClock(t0: number, h: number): void {
    if (!Number.isFinite(t0)) throw new DomainError('Recorder.setClock: t0', t0, 'must be finite');
    if (!Number.isFinite(h)) throw new DomainError('Recorder.setClock: h', h, 'must be finite');
    this.clockT0 = t0;
    this.clockH = h;
  }

  /**
   * Keeps the sample after k steps of the clock set by {@link setClock}: as {@link keep} at the
   * time t = t0 + k·h, computed here (the same double as `t0 + k * h` at the caller), so that no
   * double is passed, hence boxed, per kept sample. Allocates nothing.
   * @throws {@link DomainError} without a clock, or when the capacity is used up.
   * @example
   * ```ts
   * const rec = new Recorder(methodTraits({ name: 'demo' }), [{ name: 'y', width: 1 }], 2);
   * rec.setClock(1, 0.1);
   * rec.keepStep(0, [5]);
   * rec.keepStep(3, [6]);
   * rec.finish({ steps: 3, h: 0.1 }).t[1]; // 1.3000000000000003 = 1 + 3·0.1
   * ```
   */
  keepStep(k: number, row: ArrayLike<number>): void {
    const h = this.clockH;
    if (Number.isNaN(h)) throw new DomainError('Recorder.keepStep', k, 'needs setClock first');
    const j = this.slot();
    this.kArr[j] = k;
    this.tArr[j] = this.clockT0 + k * h;
    this.store(j, row);
  }

  /** Doubles the storage (growable recorders), within `maxRecordBytes`. */
  private grow(): void {
    const cap = this.capacity * 2;
    const bytes = cap * (this.stateWidth + this.leavingWidth + 2) * 8;
    if (bytes > this.maxRecordBytes) {
      throw new ResourceLimitError('trajectory storage', this.maxRecordBytes, bytes, 'bytes');
    }
    const k = new Float64Array(cap);
    k.set(this.kArr);
    this.kArr = k;
    const t = new Float64Array(cap);
    t.set(this.tArr);
    this.tArr = t;
    this.specs.forEach((s, i) => {
      const a = new Float64Array(cap * s.width);
      a.set(this.data[i]!);
      if (s.timing === 'leaving') a.fill(Number.NaN, this.capacity * s.width);
      this.data[i] = a;
    });
    this.capacity = cap;
  }

  /** Writes the 'leaving' series (concatenated in `row`) of sample `j` (default: the last kept). */
  setLeaving(row: ArrayLike<number>, j: number = this.count - 1): void {
    if (j < 0 || j >= this.count) return;
    let off = 0;
    const { specs, data, leavingIdx } = this;
    for (let a = 0; a < leavingIdx.length; a++) {
      const i = leavingIdx[a]!;
      const w = specs[i]!.width;
      const d = data[i]!;
      const base = j * w;
      for (let c = 0; c < w; c++) d[base + c] = row[off + c]!;
      off += w;
    }
  }

  /** Time of the last kept sample (NaN before the first). */
  get lastT(): number {
    return this.count === 0 ? Number.NaN : this.tArr[this.count - 1]!;
  }

  /** Step index of the last kept sample (−1 before the first). */
  get lastK(): number {
    return this.count === 0 ? -1 : this.kArr[this.count - 1]!;
  }

  /**
   * Freezes the kept samples into a {@link Solution} (the arrays are trimmed views when fewer
   * samples than the capacity were kept).
   */
  finish(info: {
    readonly steps: number;
    readonly h: number;
    readonly stats?: IntegrationStats;
    readonly warnings?: readonly string[];
    readonly failure?: IntegrationFailure;
  }): Solution<F> {
    const n = this.count;
    const trim = (a: Float64Array, w: number): Float64Array =>
      n === this.capacity ? a : this.growable ? a.slice(0, n * w) : a.subarray(0, n * w);
    const series: Series<F>[] = this.specs.map((s, i) => ({
      name: s.name,
      width: s.width,
      timing: s.timing ?? 'state',
      data: trim(this.data[i]!, s.width),
    }));
    const byName = new Map<string, Series<F>>(series.map((s) => [s.name, s]));
    const lookup = (name: F): Series<F> => {
      const s = byName.get(name);
      if (s === undefined) throw new DomainError('Solution: series', name, 'is not recorded');
      return s;
    };
    const failure = info.failure;
    const base: SolutionData<F> = {
      method: this.method,
      count: n,
      steps: info.steps,
      h: info.h,
      k: trim(this.kArr, 1),
      t: trim(this.tArr, 1),
      series,
      stats: info.stats ?? { newtonIterations: 0, maxIterations: 0, maxResidual: 0 },
      warnings: info.warnings ?? [],
      failure,
      ok: failure === undefined,
      get: (name) => lookup(name).data,
      width: (name) => lookup(name).width,
      sample: (name, j) => {
        const s = lookup(name);
        if (!Number.isInteger(j) || j < 0 || j >= n) {
          throw new DomainError(`Solution.sample(${name})`, j, `must be an integer in [0, ${n})`);
        }
        return s.data.subarray(j * s.width, (j + 1) * s.width);
      },
      last: (name) => {
        const s = lookup(name);
        if (n === 0) throw new DimensionError(`Solution.last(${name})`, '>= 1 sample', 0);
        return s.data.subarray((n - 1) * s.width, n * s.width);
      },
    };
    const out = base as Solution<F>;
    for (const s of series) (out as Record<string, unknown>)[s.name] = s.data;
    return Object.freeze(out);
  }
}

/**
 * Number of samples kept by a run of `steps` steps keeping every `every`-th state and always the
 * first and the last: ⌊steps/every⌋ + 1, plus 1 when `every` does not divide `steps`.
 *
 * @example
 * ```ts
 * keptCount(10, 3); // 5: states 0, 3, 6, 9, 10
 * ```
 */
export function keptCount(steps: number, every: number): number {
  return Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
}

/**
 * A solution with extra, method-specific members (e.g. DOPRI5's dense output `at(t)`): a new
 * frozen object holding the solution's fields and arrays (shared, not copied) plus `extras`.
 *
 * @example
 * ```ts
 * const rec = new Recorder(methodTraits({ name: 'demo' }), [{ name: 'y', width: 1 }], 1);
 * rec.keep(0, 0, [1]);
 * const sol = extendSolution(rec.finish({ steps: 0, h: 1 }), { note: 'hi' });
 * sol.note; // 'hi'
 * ```
 */
export function extendSolution<F extends string, X extends object>(
  sol: Solution<F>,
  extras: X,
): Solution<F> & X {
  return Object.freeze({ ...sol, ...extras }) as Solution<F> & X;
}
