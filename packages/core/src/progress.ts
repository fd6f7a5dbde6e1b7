/**
 * Progress reporting of long integrations: trajectory functions accept an optional
 * `onProgress(done, total)` and call it every {@link PROGRESS_INTERVAL_STEPS} steps (a modulo test
 * per step; no allocation). The CLI draws its progress bar from it.
 *
 * @module
 */

/** Called with the number of steps done and the total. */
export type ProgressCallback = (done: number, total: number) => void;

/** Steps between two progress calls. */
export const PROGRESS_INTERVAL_STEPS = 4096;
