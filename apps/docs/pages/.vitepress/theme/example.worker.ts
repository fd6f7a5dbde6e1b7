/**
 * The Web Worker that runs the site's editable examples, off the main thread so a long run never
 * freezes the page and Stop can end it (the component terminates the worker). It loads the
 * packages on demand, runs the example through the runner the Node tests use (src/runner.ts),
 * and posts back what the example prints and draws, each chart already thinned and with its axis
 * ranges (src/plot.ts). Output beyond OUTPUT_LIMITS is dropped, with one line saying so.
 */
import { preparePlot } from '../../../src/plot.ts';
import {
  type ExamplePackage,
  formatConsoleArgs,
  OUTPUT_LIMITS,
  runExample,
} from '../../../src/runner.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

const loaders: Record<ExamplePackage, () => Promise<unknown>> = {
  '@geomech/core': () => import('@geomech/core'),
  '@geomech/groupoid': () => import('@geomech/groupoid'),
  '@geomech/contact': () => import('@geomech/contact'),
  '@geomech/dirac': () => import('@geomech/dirac'),
};

const post = (reply: WorkerReply): void => (self as unknown as Worker).postMessage(reply);

self.onmessage = async (ev: MessageEvent<WorkerRequest>) => {
  const { id, source } = ev.data;
  let lines = 0;
  let plots = 0;
  const say =
    (kind: 'log' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      lines++;
      if (lines <= OUTPUT_LIMITS.lines)
        post({ id, type: 'line', kind, text: formatConsoleArgs(args) });
      else if (lines === OUTPUT_LIMITS.lines + 1)
        post({
          id,
          type: 'line',
          kind: 'warn',
          text: `… output beyond ${OUTPUT_LIMITS.lines} lines is not shown`,
        });
    };
  const t0 = performance.now();
  try {
    await runExample(source, (pkg) => loaders[pkg](), {
      plot: (spec) => {
        const plot = preparePlot(spec);
        plots++;
        if (plots <= OUTPUT_LIMITS.plots) post({ id, type: 'plot', plot });
        else if (plots === OUTPUT_LIMITS.plots + 1)
          post({
            id,
            type: 'line',
            kind: 'warn',
            text: `… charts beyond ${OUTPUT_LIMITS.plots} are not drawn`,
          });
      },
      console: { log: say('log'), info: say('log'), warn: say('warn'), error: say('error') },
    });
    post({ id, type: 'done', ms: performance.now() - t0 });
  } catch (e) {
    const err = e as { name?: string; message?: string; line?: number };
    const text =
      err?.name === 'ExampleError'
        ? String(err.message)
        : e instanceof Error
          ? `${e.name}: ${e.message}`
          : `uncaught ${String(e)}`;
    post({ id, type: 'error', ms: performance.now() - t0, text, line: err?.line });
  }
};
