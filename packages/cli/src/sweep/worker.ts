/**
 * The sweep's worker thread: reads the spec once from `workerData`, loads the modules its points
 * need, says it is ready, then runs the batches of point indices the main thread sends and posts
 * one row per point, in the order it ran them.
 *
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { preparePoints, runPoint } from './point.js';
import { parseSweepSpec } from './spec.js';
import type { Row } from './table.js';

/** What the main thread hands every worker. */
export interface WorkerInit {
  readonly specText: string;
  readonly specFile: string;
  readonly modelPath: string | undefined;
  readonly guessPath: string | undefined;
  readonly files: readonly (readonly [string, string])[];
  /** The model cache's directory, or undefined for none (the main thread's choice). */
  readonly cacheDir: string | undefined;
}

/** Main thread → worker: queue these points (or stop). */
export type ToWorker = { readonly indices: readonly number[] } | { readonly stop: true };
/**
 * Worker → main thread: ready (once, when the modules of the points are loaded: a point's time
 * budget counts from then), or one finished row.
 */
export type FromWorker = { readonly ready: true } | { readonly row: Row };

const init = workerData as WorkerInit;
const spec = parseSweepSpec(init.specText, init.specFile);
const files = new Map(init.files);
const port = parentPort!;

// one queue, drained by one loop: the main thread sends the next batch before this one is done,
// so the worker never waits for a message round trip between points
const queue: number[] = [];
let ready = false;
let draining = false;
async function drain(): Promise<void> {
  draining = true;
  while (queue.length > 0) {
    const index = queue.shift()!;
    const row = await runPoint(spec, index, files, init.modelPath, init.guessPath);
    port.postMessage({ row } satisfies FromWorker);
  }
  draining = false;
}

port.on('message', (msg: ToWorker) => {
  if ('stop' in msg) {
    port.close();
    return;
  }
  queue.push(...msg.indices);
  if (ready && !draining) void drain();
});

await preparePoints(spec, files, init.modelPath, init.cacheDir);
ready = true;
port.postMessage({ ready: true } satisfies FromWorker);
if (!draining) void drain();
