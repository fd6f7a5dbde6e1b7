/**
 * The one stepping loop of geomech. Packages define *steppers* (a method joined with a problem,
 * owning its caches and its Newton solver) and call {@link integrate}, which advances the state,
 * passes time and inputs, keeps every `every`-th state (and always the first and the last), reports
 * progress, gathers Newton statistics and warnings, and returns the one {@link Solution}.
 *
 * Time: step k leaves t_k = t0 + k·h (computed directly, no accumulated round-off) and the last
 * sample is at t0 + steps·h (exactly `tEnd` when the run is given by its final time). Inputs: step k receives u_k (a row of the `inputs` matrix, or what an
 * input function writes for (k, t_k)); steppers without inputs receive an empty array.
 *
 * @module
 */
import { DimensionError, DomainError, GeomechError, NonFiniteError } from '../errors.js';
import { PROGRESS_INTERVAL_STEPS, type ProgressCallback } from '../progress.js';
import {
  type IntegrationFailure,
  keptCount,
  MAX_RECORD_BYTES,
  Recorder,
  type SeriesSpec,
  type Solution,
} from './solution.js';
import type { MethodTraits } from './traits.js';

/** Writes the input u_k of step k (leaving time t) into `out` (length `inputSize`). */
export type InputFunction = (out: Float64Array, k: number, t: number) => void;

/**
 * A method joined with a problem: advances a flat state in place and records it. Steppers own
 * their scratch, so `step` and `record` allocate nothing.
 *
 * The state holds everything a step needs (e.g. (q_{k−1}, q_k) for a two-step method); `record`
 * writes the 'state'-timed series of {@link series} concatenated in order.
 */
export interface Stepper<F extends string = string> {
  readonly method: MethodTraits;
  /** Length of the flat state. */
  readonly stateSize: number;
  /** Length of an input u_k (0 for an unforced system). */
  readonly inputSize: number;
  /** The recorded series, in the order `record` and `recordLeaving` write them. */
  readonly series: readonly SeriesSpec<F>[];
  /**
   * Advances `state` in place by step k, of size `h` with input `u`: from t_k = t0 + k·h to
   * t_{k+1}, where t0 is the initial time given to the last {@link reset}. Returns the Newton
   * iterations used (0 for an explicit step). Throws a {@link GeomechError} naming step `k` when the
   * step fails; then `state` must be left at its value before the call.
   *
   * Time is not an argument: a step that reads t keeps t0 from {@link reset} and computes
   * t_k = t0 + k·h itself (the same double, operation for operation, as the sample times of the
   * {@link Solution}). A double passed to a call that V8 does not inline is boxed (16 B per call),
   * and the stepping loop's call of `step` is not inlined; k is a small integer and h the same
   * value at every step, so the call allocates nothing.
   */
  step(state: Float64Array, k: number, h: number, u: Float64Array): number;
  /** ‖F‖∞ at the accepted solution of the last step's solve (0 for explicit steps). */
  readonly lastResidual: number;
  /**
   * Writes the 'state' series of `state` (the state after k steps) into `out`. Its time is
   * t_k = t0 + k·h (t0 and h of the last {@link reset}), which a record that reads t computes
   * itself, as {@link step} does: {@link integrate} passes `t` only where the sample's time is not
   * that double (the initial sample, t0 exactly, and the last sample of a run given by `tEnd`,
   * tEnd exactly), so that the kept samples between allocate nothing (a double passed to a call
   * that V8 does not inline is boxed, 16 B). A stepper whose record reads t implements
   * {@link reset}.
   */
  record(out: Float64Array, state: Float64Array, k: number, t?: number): void;
  /** Writes the 'leaving' series of the step just taken into `out` (needed when any exist). */
  recordLeaving?(out: Float64Array): void;
  /**
   * Writes the 'leaving' series of the step that would leave `state`, without changing `state` or
   * the stepper's diagnostics (for the last kept sample); NaN entries when that step fails. Without
   * it, the last sample's 'leaving' series stay NaN.
   */
  peekLeaving?(
    out: Float64Array,
    state: Float64Array,
    k: number,
    t: number,
    h: number,
    u: Float64Array,
  ): void;
  /**
   * Called by {@link integrate} once before the first step, with the initial time t0 and the step
   * size: resets diagnostics and start-up flags, and a step that reads time keeps t0 (step k then
   * runs from t0 + k·h). A stepper whose step reads t must implement it; called directly, such a
   * stepper runs from t0 = 0 until its first reset.
   */
  reset?(state: Float64Array, t0: number, h: number): void;
  /** Warnings gathered during the run, read once at its end. */
  warnings?(): readonly string[];
  /**
   * Optional step derivatives of the step just taken by {@link step} (x_{k+1} = Φ(x_k, u_k)):
   * `dxdx` ← ∂x_{k+1}/∂x_k (stateSize × stateSize, row-major, entry (i, j) = ∂x_{k+1,i}/∂x_{k,j})
   * and `dxdu` ← ∂x_{k+1}/∂u_k (stateSize × inputSize). An implicit step computes them from its
   * Newton Jacobian G_y at the accepted solution y by the implicit function theorem,
   * ∂y/∂(x, u) = −G_y⁻¹ ∂G/∂(x, u), then the chain rule through the explicit updates. What a
   * linearization needs (optimal control, time-varying LQR). Cold path: it may factor a matrix,
   * but allocates nothing after the first call. Throws a `DomainError` when no step has been taken
   * or the last step has no derivatives (each stepper says which).
   */
  stepDerivatives?(dxdx: Float64Array, dxdu: Float64Array): void;
}

/**
 * The recording options of {@link integrate}: time origin, inputs, thinning, progress, failure
 * policy and storage limit. The drivers of the packages (`integrateDirac`, `integrateConstrained`,
 * `integrateLagrangeDirac`, the contact integrators, …) take these unchanged and pass them on with
 * {@link recordingOptions}, so that each is documented and defaulted once, here.
 *
 * @example
 * ```ts
 * // explicit Euler for y' = −y, from t0 = 1, keeping every 5th state
 * const euler: Stepper<'y'> = {
 *   method: methodTraits({ name: 'euler', order: 1, isExplicit: true }),
 *   stateSize: 1, inputSize: 0, lastResidual: 0,
 *   series: [{ name: 'y', width: 1 }],
 *   step: (s, _k, h) => { s[0] = s[0]! - h * s[0]!; return 0; },
 *   record: (out, s) => { out[0] = s[0]!; },
 * };
 * const rec: IntegrateRecordingOptions = { every: 5, t0: 1, onFailure: 'return' };
 * const sol = integrate(euler, [1], { h: 0.1, steps: 10, ...recordingOptions(rec) });
 * sol.t[2]; // 2 (= 1 + 10·0.1)
 * ```
 */
export interface IntegrateRecordingOptions {
  /**
   * Initial time t0: step k leaves t_k = t0 + k·h (a time-dependent stepper, its force and an
   * input function see it). Default 0.
   */
  readonly t0?: number;
  /** Keep every `every`-th state; the first and the last are always kept. Default 1. */
  readonly every?: number;
  /**
   * The inputs u_0 … u_{steps−1}: a flat `steps × inputSize` array, or a function of (k, t).
   * Required when the stepper has inputs; a missing one means u = 0.
   */
  readonly inputs?: ArrayLike<number> | InputFunction;
  /** Called every {@link PROGRESS_INTERVAL_STEPS} steps with (steps done, steps). */
  readonly onProgress?: ProgressCallback;
  /**
   * What a failed step does: `'throw'` (default) rethrows the step's error; `'return'` returns the
   * samples recorded so far plus the last good state, with `failure` set and `ok: false`.
   */
  readonly onFailure?: 'throw' | 'return';
  /** Largest recorded storage in bytes. Default {@link MAX_RECORD_BYTES}. */
  readonly maxRecordBytes?: number;
}

/**
 * The {@link IntegrateRecordingOptions} set in `options` (a driver's options, which may hold more
 * fields, or fewer of these), as a new object without the unset ones (so that spreading it into
 * {@link IntegrateOptions} keeps `exactOptionalPropertyTypes`). Cold path: once per run.
 *
 * @example
 * ```ts
 * const driverOptions = { every: 10, tol: 1e-12 }; // a driver's options, with one of its own
 * recordingOptions(driverOptions); // { every: 10 }
 * ```
 */
export function recordingOptions(options: IntegrateRecordingOptions): IntegrateRecordingOptions {
  const out: {
    -readonly [K in keyof IntegrateRecordingOptions]: IntegrateRecordingOptions[K];
  } = {};
  if (options.t0 !== undefined) out.t0 = options.t0;
  if (options.every !== undefined) out.every = options.every;
  if (options.inputs !== undefined) out.inputs = options.inputs;
  if (options.onProgress !== undefined) out.onProgress = options.onProgress;
  if (options.onFailure !== undefined) out.onFailure = options.onFailure;
  if (options.maxRecordBytes !== undefined) out.maxRecordBytes = options.maxRecordBytes;
  return out;
}

/** Options of {@link integrate}: the run (steps and h or tEnd) and its recording options. */
export interface IntegrateOptions extends IntegrateRecordingOptions {
  /** Number of steps (a safe integer ≥ 0). */
  readonly steps: number;
  /** Step size (negative integrates backward). Give `h` or `tEnd`. */
  readonly h?: number;
  /**
   * Final time: h = (tEnd − t0)/steps, and the last sample is at exactly `tEnd`. Give `h` or
   * `tEnd`; with `steps = 0` only `h` makes sense.
   */
  readonly tEnd?: number;
}

const EMPTY = new Float64Array(0);

/**
 * Integrates a {@link Stepper} from `x0` for `steps` steps of size `h`, recording every `every`-th
 * state (and the first and the last) in one {@link Solution}.
 *
 * @throws {@link DomainError} for bad options, {@link DimensionError} for a wrong-length state or
 *   input, {@link NonFiniteError} for a non-finite initial state,
 *   {@link ResourceLimitError} when the record would exceed `maxRecordBytes` (before any step),
 *   and the step's own error when a step fails (unless `onFailure: 'return'`).
 * @example
 * ```ts
 * // explicit Euler for y' = −y, as a stepper
 * const euler: Stepper<'y'> = {
 *   method: methodTraits({ name: 'euler', order: 1, isExplicit: true }),
 *   stateSize: 1, inputSize: 0, lastResidual: 0,
 *   series: [{ name: 'y', width: 1 }],
 *   step: (s, _k, h) => { s[0] = s[0]! - h * s[0]!; return 0; },
 *   record: (out, s) => { out[0] = s[0]!; },
 * };
 * const sol = integrate(euler, [1], { h: 0.1, steps: 10, every: 5 });
 * sol.count; // 3 (states 0, 5, 10)
 * sol.y[2];  // 0.3486784401 = 0.9¹⁰
 * ```
 */
export function integrate<F extends string>(
  stepper: Stepper<F>,
  x0: ArrayLike<number>,
  options: IntegrateOptions,
): Solution<F> {
  const { steps } = options;
  const t0 = options.t0 ?? 0;
  if (!Number.isFinite(t0)) throw new DomainError('integrate: t0', t0, 'must be finite');
  if ((options.h === undefined) === (options.tEnd === undefined)) {
    throw new DomainError(
      'integrate: h, tEnd',
      `${options.h}, ${options.tEnd}`,
      'give exactly one',
    );
  }
  const tEnd = options.tEnd;
  if (tEnd !== undefined && !Number.isFinite(tEnd)) {
    throw new DomainError('integrate: tEnd', tEnd, 'must be finite');
  }
  if (tEnd !== undefined && !(Number.isSafeInteger(steps) && steps >= 1)) {
    throw new DomainError('integrate: steps', steps, 'must be an integer >= 1 with tEnd');
  }
  const h = options.h ?? (tEnd! - t0) / steps;
  const every = options.every ?? 1;
  const onFailure = options.onFailure ?? 'throw';
  if (!Number.isFinite(h) || h === 0)
    throw new DomainError('integrate: h', h, 'must be finite and non-zero');
  if (!Number.isSafeInteger(steps) || steps < 0) {
    throw new DomainError('integrate: steps', steps, 'must be an integer >= 0');
  }
  if (!Number.isSafeInteger(every) || every < 1) {
    throw new DomainError('integrate: every', every, 'must be an integer >= 1');
  }
  if (!Number.isFinite(t0 + steps * h)) {
    throw new DomainError('integrate: t0 + steps·h', t0 + steps * h, 'must be finite');
  }
  if (onFailure !== 'throw' && onFailure !== 'return') {
    throw new DomainError('integrate: onFailure', onFailure, "must be 'throw' or 'return'");
  }
  const n = stepper.stateSize;
  if (x0.length !== n) throw new DimensionError('integrate: x0', n, x0.length);
  const state = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = x0[i]!;
    if (!Number.isFinite(v)) throw new NonFiniteError('integrate: x0', i);
    state[i] = v;
  }
  const m = stepper.inputSize;
  const inputs = options.inputs;
  let inputMatrix: ArrayLike<number> | undefined;
  let inputFn: InputFunction | undefined;
  if (typeof inputs === 'function') inputFn = inputs;
  else if (inputs !== undefined) {
    if (inputs.length !== steps * m) {
      throw new DimensionError('integrate: inputs (steps × inputSize)', steps * m, inputs.length);
    }
    inputMatrix = inputs;
  }
  const u = m === 0 ? EMPTY : new Float64Array(m);

  const recorder = new Recorder<F>(
    stepper.method,
    stepper.series,
    keptCount(steps, every),
    options.maxRecordBytes ?? MAX_RECORD_BYTES,
  );
  const row = new Float64Array(Math.max(recorder.stateWidth, 1));
  const leaving = recorder.leavingWidth > 0 ? new Float64Array(recorder.leavingWidth) : undefined;
  if (leaving !== undefined && stepper.recordLeaving === undefined) {
    throw new DomainError(
      'integrate: stepper',
      stepper.method.name,
      "has 'leaving' series but no recordLeaving",
    );
  }
  const onProgress = options.onProgress;

  stepper.reset?.(state, t0, h);
  recorder.setClock(t0, h);
  stepper.record(row, state, 0, t0);
  recorder.keep(0, t0, row);
  const loop: StepLoop<F> = {
    stepper,
    state,
    steps,
    t0,
    h,
    tEnd,
    every,
    m,
    u,
    inputFn,
    inputMatrix,
    onFailure,
    onProgress,
    recorder,
    row,
    leaving,
    k: 0,
    newtonIterations: 0,
    maxIterations: 0,
    maxResidual: 0,
    failure: undefined,
  };
  runSteps(loop);
  const { k, newtonIterations, maxIterations, maxResidual, failure } = loop;
  if (failure !== undefined && recorder.lastK !== k) {
    // keep the last good state
    stepper.record(row, state, k, t0 + k * h);
    recorder.keep(k, t0 + k * h, row);
  }
  if (leaving !== undefined && stepper.peekLeaving !== undefined && failure === undefined) {
    if (m > 0) u.fill(0);
    leaving.fill(Number.NaN);
    stepper.peekLeaving(leaving, state, k, t0 + k * h, h, u);
    recorder.setLeaving(leaving);
  }
  return recorder.finish({
    steps: k,
    h,
    stats: { newtonIterations, maxIterations, maxResidual },
    warnings: stepper.warnings?.() ?? [],
    ...(failure === undefined ? {} : { failure }),
  });
}

/** The stepping loop's inputs and results (one object per run). */
interface StepLoop<F extends string> {
  readonly stepper: Stepper<F>;
  readonly state: Float64Array;
  readonly steps: number;
  readonly t0: number;
  readonly h: number;
  readonly tEnd: number | undefined;
  readonly every: number;
  readonly m: number;
  readonly u: Float64Array;
  readonly inputFn: InputFunction | undefined;
  readonly inputMatrix: ArrayLike<number> | undefined;
  readonly onFailure: 'throw' | 'return';
  readonly onProgress: ProgressCallback | undefined;
  readonly recorder: Recorder<F>;
  readonly row: Float64Array;
  readonly leaving: Float64Array | undefined;
  /** Steps taken. */
  k: number;
  newtonIterations: number;
  maxIterations: number;
  maxResidual: number;
  failure: IntegrationFailure | undefined;
}

/**
 * The loop of {@link integrate}, in its own function: V8 optimizes a long run's loop on the stack
 * (OSR) before the code after the loop has run, and code there, without type feedback, deoptimizes
 * the optimized loop at the end of the run. V8 keeps that mid-loop code and enters it again in
 * every later run, so the deopt repeated once per run (30 in 30 runs of a sweep worker, issue 22,
 * when the stores of the results came after the loop). So there is no code after the loop: the
 * results are stored in `loop` as they change, inside the loop body (which has run, and has
 * feedback, before V8 optimizes it); a failure is stored where it is caught.
 * No double crosses a call per step or per kept sample: time reaches the stepper as k (`step` and
 * `record` compute t_k = t0 + k·h) and the recorder as k ({@link Recorder.keepStep}), so the loop
 * allocates nothing at any `every` (it boxed t_k for `record` and `Recorder.keep`, 32 B per kept
 * sample, before; `node bench/js/integrate.mjs` measures B/step at every = 1, 10, 1000).
 */
function runSteps<F extends string>(loop: StepLoop<F>): void {
  const { stepper, state, steps, t0, h, tEnd, every, m, u, inputFn, inputMatrix } = loop;
  const { onFailure, onProgress, recorder, row, leaving } = loop;
  // local copies of the statistics beside their stores in `loop`: the comparisons read registers,
  // not the heap object (without them the bare loop of an explicit Euler stepper took 2–8 % more
  // CPU time per step, 7.7 → 8.0 ns at every = 1000, paired in one process; 2026-11-27)
  let newtonIterations = 0;
  let maxIterations = 0;
  let maxResidual = 0;
  for (let k = 0; k < steps; k++) {
    if (m > 0) {
      if (inputFn !== undefined) inputFn(u, k, t0 + k * h);
      else if (inputMatrix !== undefined)
        for (let i = 0; i < m; i++) u[i] = inputMatrix[k * m + i]!;
    }
    let it: number;
    try {
      it = stepper.step(state, k, h, u);
    } catch (error) {
      if (onFailure === 'throw' || !(error instanceof GeomechError)) throw error;
      loop.failure = { step: k, t: t0 + k * h, error };
      return;
    }
    newtonIterations += it;
    loop.newtonIterations = newtonIterations;
    if (it > maxIterations) {
      maxIterations = it;
      loop.maxIterations = it;
    }
    const r = stepper.lastResidual;
    if (r > maxResidual) {
      maxResidual = r;
      loop.maxResidual = r;
    }
    // the state this step left was kept (k = 0 or a multiple of every; no step leaves the last):
    // an integer test, not the recorder's lastK (a double read from its Float64Array)
    if (leaving !== undefined && k % every === 0) {
      stepper.recordLeaving!(leaving);
      recorder.setLeaving(leaving);
    }
    const done = k + 1;
    loop.k = done;
    if (done % every === 0 || done === steps) {
      if (done === steps && tEnd !== undefined) {
        // once per run: the last sample is at exactly tEnd
        stepper.record(row, state, done, tEnd);
        recorder.keep(done, tEnd, row);
      } else {
        // t_done = t0 + done·h, computed by the stepper and the recorder (no double crosses a call)
        stepper.record(row, state, done);
        recorder.keepStep(done, row);
      }
    }
    if (onProgress !== undefined && done % PROGRESS_INTERVAL_STEPS === 0) onProgress(done, steps);
  }
}
