/**
 * Runs sweep points on `node:worker_threads`: one worker per requested thread, fed small batches of
 * point indices on demand (so a slow region of the sweep does not idle the other workers; a second
 * batch waits in the worker's queue, so it never idles on a message round trip), each row handed
 * to `onRow` as it arrives. The rows' order of arrival depends on timing; the caller sorts
 * them by index, so the table does not depend on the number of workers.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Row } from './table.js';
import type { FromWorker, ToWorker, WorkerInit } from './worker.js';

/** The compiled worker module (from the sources under vitest, the built one in dist/). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = here.replace(/([\\/])src([\\/]sweep[\\/]worker\.js)$/, '$1dist$2');
  if (existsSync(built)) return built;
  throw new Error(`sweep worker not found at ${here} (run \`pnpm build\`)`);
}

/** Largest batch handed to one worker at a time. */
const MAX_BATCH = 16;

/**
 * Runs `indices` over `workers` threads. Resolves when every point has a row; rejects if a worker
 * dies (a crash, not a failing point: failing points come back as rows).
 */
export function runPool(
  init: WorkerInit,
  indices: readonly number[],
  workers: number,
  onRow: (row: Row) => void,
): Promise<void> {
  if (indices.length === 0) return Promise.resolve();
  const count = Math.max(1, Math.min(workers, indices.length));
  const path = workerPath();
  return new Promise((resolve, reject) => {
    let next = 0;
    let remaining = indices.length;
    let failed = false;
    const pool: Worker[] = [];
    const finish = (err?: unknown) => {
      if (failed) return;
      if (err !== undefined) failed = true;
      for (const w of pool) void w.terminate();
      if (err !== undefined) reject(err);
      else resolve();
    };
    const inFlight = new Map<Worker, number>();
    const feed = (w: Worker) => {
      if (next >= indices.length) return;
      // batches shrink towards the end, so the workers finish together
      const size = Math.max(
        1,
        Math.min(MAX_BATCH, Math.floor((indices.length - next) / (4 * count))),
      );
      const batch = indices.slice(next, next + size);
      next += batch.length;
      inFlight.set(w, (inFlight.get(w) ?? 0) + batch.length);
      w.postMessage({ indices: batch } satisfies ToWorker);
    };
    for (let k = 0; k < count; k++) {
      const w = new Worker(path, { workerData: init });
      pool.push(w);
      w.on('message', (msg: FromWorker) => {
        try {
          onRow(msg.row);
        } catch (err) {
          finish(err);
          return;
        }
        remaining--;
        if (remaining === 0) {
          finish();
          return;
        }
        // keep a batch queued behind the running points: a late main thread (a loaded machine)
        // does not leave the worker idle
        const left = inFlight.get(w)! - 1;
        inFlight.set(w, left);
        if (left <= MAX_BATCH) feed(w);
      });
      w.on('error', (err) => finish(err));
      w.on('exit', (code) => {
        if (remaining > 0 && !failed) finish(new Error(`a sweep worker exited with code ${code}`));
      });
      feed(w);
      feed(w);
    }
  });
}
