/** The messages between the example component and its Web Worker (example.worker.ts). */
import type { PreparedPlot } from '../../../src/plot.ts';

/** Run `source`; replies carry the same `id`. */
export interface WorkerRequest {
  readonly id: number;
  readonly source: string;
}

export type WorkerReply =
  | {
      readonly id: number;
      readonly type: 'line';
      readonly kind: 'log' | 'warn' | 'error';
      readonly text: string;
    }
  | { readonly id: number; readonly type: 'plot'; readonly plot: PreparedPlot }
  | { readonly id: number; readonly type: 'done'; readonly ms: number }
  | {
      readonly id: number;
      readonly type: 'error';
      readonly ms: number;
      readonly text: string;
      readonly line: number | undefined;
    };
