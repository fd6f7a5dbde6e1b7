/**
 * Runs sweep points on `node:worker_threads`: one worker per requested thread, fed small batches of
 * point indices on demand (so a slow region of the sweep does not idle the other workers; a second
 * batch waits in the worker's queue, so it never idles on a message round trip), each row handed
 * to `onRow` as it arrives. The rows' order of arrival depends on timing; the caller sorts
 * them by index, so the table does not depend on the number of workers.
 *
 * With a point budget (`timeoutMs`), a worker's running point is the first of the indices sent to
 * it and not yet answered (a worker runs its queue in order); its clock starts when the worker says
 * it is ready (spec read, the point's modules loaded) or when the row of the point before arrives.
 * A point still running after the budget gets the caller's timeout row, its worker is terminated
 * (which stops even a tight loop) and replaced by a new one, and the points queued behind it go to
 * the front of the work still to hand out. The clock is read on the main thread, so a point is
 * given at least its budget (plus a message's delay), never less.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Row } from './table.js';
import type { FromWorker, ToWorker, WorkerInit } from './worker.js';

/**
 * The worker module: the bundled one that `pnpm build` writes to dist/worker.js (one file and a
 * few chunks shared with the program, instead of ~150 modules each worker would load again), else
 * tsc's dist/sweep/worker.js. From the bundle (a chunk in dist/), from tsc's dist/sweep/pool.js
 * and from the sources under vitest alike.
 */
function workerPath(): string {
  const here = fileURLToPath(new URL('./worker.js', import.meta.url));
  const candidates = [
    here.replace(/([\\/])(?:src|dist)[\\/]sweep[\\/]worker\.js$/, '$1dist$1worker.js'),
    here,
    here.replace(/([\\/])src([\\/]sweep[\\/]worker\.js)$/, '$1dist$2'),
  ];
  for (const path of candidates) if (existsSync(path)) return path;
  throw new Error(`sweep worker not found at ${here} (run \`pnpm build\`)`);
}

/**
 * Workers being started with V8's optimizing compiler synchronous (see {@link startWorker}): the
 * process-wide flag stays off until the last of them has its isolate.
 */
let synchronousStarts = 0;

/**
 * Starts a worker thread on `path`. With `synchronousJit`, its isolate compiles optimized code on
 * its own thread (V8's `--no-concurrent-recompilation`) instead of in a background job.
 *
 * Why: V8 tiers a hot function up in a compiler job on a background thread while the function
 * keeps running unoptimized; that is free when a core is idle, but when the workers occupy every
 * core the job takes its CPU from the workers, and meanwhile the worker runs its first points in
 * the interpreter. Measured on the 200-point pendulum sweep (bench/sweep.mjs), an isolate compiling
 * synchronously spends ~0.3 s less CPU in total over its warm-up (the compile itself is the same
 * work; the points wait for it instead of running slowly beside it), which on two busy cores is
 * wall time. A worker cannot take V8 flags (`execArgv` refuses them), and an isolate reads this one
 * when it is created: the flag is set for the process just before the worker starts and restored
 * once every such worker is online (the isolates already running, the main thread's among them,
 * keep their own compiler mode).
 */
function startWorker(path: string, init: WorkerInit, synchronousJit: boolean): Worker {
  if (!synchronousJit) return new Worker(path, { workerData: init });
  if (synchronousStarts++ === 0) setFlagsFromString('--no-concurrent-recompilation');
  let pending = true;
  const started = () => {
    if (!pending) return;
    pending = false;
    if (--synchronousStarts === 0) setFlagsFromString('--concurrent-recompilation');
  };
  let worker: Worker;
  try {
    worker = new Worker(path, { workerData: init });
  } catch (err) {
    started();
    throw err;
  }
  worker.once('online', started);
  worker.once('error', started);
  worker.once('exit', started);
  return worker;
}

/** Largest batch handed to one worker at a time. */
const MAX_BATCH = 16;

/** The point budget of {@link runPool}. */
export interface PoolTimeout {
  /** A point's budget in ms (an integer ≥ 1). */
  readonly ms: number;
  /** The row recorded for point `index` when it runs out of time. */
  readonly row: (index: number) => Row;
}

/** One worker and the indices sent to it, in the order it runs them. */
interface Slot {
  readonly worker: Worker;
  readonly queue: number[];
  /** The worker has loaded what its points need; the clock of `queue[0]` runs. */
  ready: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Terminated after a timeout (or at the end): its late messages and its exit are ignored. */
  retired: boolean;
}

/**
 * Runs `indices` over `workers` threads. Resolves when every point has a row; rejects if a worker
 * dies (a crash, not a failing point: failing points come back as rows). With `timeout`, a point
 * over its budget is recorded with `timeout.row(index)` and its worker replaced.
 */
export function runPool(
  init: WorkerInit,
  indices: readonly number[],
  workers: number,
  onRow: (row: Row) => void,
  timeout?: PoolTimeout,
): Promise<void> {
  if (indices.length === 0) return Promise.resolve();
  const count = Math.max(1, Math.min(workers, indices.length));
  const path = workerPath();
  // workers on every core: no idle core for V8's background compiler jobs (see startWorker)
  const synchronousJit = count >= availableParallelism();
  return new Promise((resolve, reject) => {
    let next = 0;
    // points taken back from a replaced worker, handed out before the rest
    const requeued: number[] = [];
    let remaining = indices.length;
    let failed = false;
    const pool = new Set<Slot>();
    const stop = (slot: Slot) => {
      slot.retired = true;
      if (slot.timer !== undefined) clearTimeout(slot.timer);
      slot.timer = undefined;
      void slot.worker.terminate();
    };
    const finish = (err?: unknown) => {
      if (failed) return;
      if (err !== undefined) failed = true;
      for (const slot of pool) stop(slot);
      pool.clear();
      if (err !== undefined) reject(err);
      else resolve();
    };
    const feed = (slot: Slot) => {
      const left = requeued.length + indices.length - next;
      if (left === 0) return;
      // batches shrink towards the end, so the workers finish together
      const size = Math.max(1, Math.min(MAX_BATCH, Math.floor(left / (4 * count))));
      const batch = requeued.splice(0, size);
      while (batch.length < size && next < indices.length) batch.push(indices[next++]!);
      slot.queue.push(...batch);
      slot.worker.postMessage({ indices: batch } satisfies ToWorker);
    };
    /** (Re)starts the clock of the slot's running point, or stops it when the slot is idle. */
    const arm = (slot: Slot) => {
      if (timeout === undefined || !slot.ready) return;
      if (slot.timer !== undefined) clearTimeout(slot.timer);
      slot.timer = slot.queue.length === 0 ? undefined : setTimeout(() => expire(slot), timeout.ms);
    };
    const deliver = (row: Row): boolean => {
      try {
        onRow(row);
      } catch (err) {
        finish(err);
        return false;
      }
      remaining--;
      if (remaining === 0) {
        finish();
        return false;
      }
      return true;
    };
    /** The running point of `slot` is over its budget: record it, replace the worker. */
    const expire = (slot: Slot) => {
      if (slot.retired || failed) return;
      slot.timer = undefined;
      const index = slot.queue.shift()!;
      pool.delete(slot);
      stop(slot);
      requeued.unshift(...slot.queue);
      if (!deliver(timeout!.row(index))) return;
      spawn();
    };
    const spawn = () => {
      const slot: Slot = {
        worker: startWorker(path, init, synchronousJit),
        queue: [],
        ready: false,
        timer: undefined,
        retired: false,
      };
      pool.add(slot);
      const w = slot.worker;
      w.on('message', (msg: FromWorker) => {
        if (slot.retired) return;
        if ('ready' in msg) {
          slot.ready = true;
          arm(slot);
          return;
        }
        slot.queue.shift();
        if (!deliver(msg.row)) return;
        // keep a batch queued behind the running points: a late main thread (a loaded machine)
        // does not leave the worker idle
        if (slot.queue.length <= MAX_BATCH) feed(slot);
        arm(slot);
      });
      w.on('error', (err) => {
        if (!slot.retired) finish(err);
      });
      w.on('exit', (code) => {
        if (!slot.retired && remaining > 0 && !failed)
          finish(new Error(`a sweep worker exited with code ${code}`));
      });
      feed(slot);
      feed(slot);
    };
    for (let k = 0; k < count; k++) spawn();
  });
}
