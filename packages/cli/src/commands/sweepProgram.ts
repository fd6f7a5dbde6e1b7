/**
 * Commander wiring of `geomech sweep` and `geomech merge` (kept out of main.ts, which only calls
 * {@link addSweepCommands}). The commands' modules are imported when they run, so that the other
 * commands (and `--version`) do not load them.
 *
 * @module
 */
import { type Command, Option } from 'commander';
import { SWEEP_LIMITS } from '../limits.js';
import type { Io } from '../main.js';
import type { MergeOptions } from './merge.js';
import type { SweepOptions } from './sweep.js';

const formatOption = () =>
  new Option(
    '--format <format>',
    'output format (default: from --out extension, else json)',
  ).choices(['json', 'csv']);

/** Adds `sweep` and `merge` to the program. */
export function addSweepCommands(program: Command, io: Io): void {
  program
    .command('sweep')
    .description(
      'run a parameter sweep (grid and/or seeded samples) of simulate, solve or order on all cores',
    )
    .argument('<spec.json>', 'sweep specification (schema: schema/sweep.schema.json)')
    .option(
      '--workers <n>',
      `worker threads (default: the number of cores; at most ${SWEEP_LIMITS.workers})`,
    )
    .option(
      '--point-timeout <ms>',
      `time budget of each point in ms (overrides the spec's timeoutMs; at most ${SWEEP_LIMITS.timeoutMs}): a point still running is recorded with status timeout and its worker replaced`,
    )
    .option(
      '--shard <K/N>',
      'run only the points with index mod N = K (0-based) and write a shard file',
    )
    .option('--resume', 'skip the points already in --out (or its .partial journal) and continue')
    .addOption(formatOption())
    .option('--out <file>', 'write the table (or shard file) to a file instead of stdout')
    .option('--plot <file.svg>', 'draw a 1-D sweep as lines, a 2-D sweep as a heat map')
    .option('--quiet', 'no progress or warnings on stderr')
    .option(
      '--no-cache',
      'with a model file: neither the sweep nor its workers read or write the model cache (GEOMECH_NO_CACHE=1 also turns it off)',
    )
    .addHelpText(
      'after',
      `
The table has a row per point, ordered by point index: index, the swept coordinates, status
(ok | failed | invalid | timeout), the spec's outputs, error. A failing point is recorded and the
sweep goes on; so is a point over its time budget (timeoutMs in the spec, or --point-timeout). Limits: ${SWEEP_LIMITS.points} points, ${SWEEP_LIMITS.axes} axes, ${SWEEP_LIMITS.outputs} outputs, ${SWEEP_LIMITS.workers} workers.

Examples:
  $ geomech sweep examples/ziegler-stability.sweep.json --out ziegler.csv --plot ziegler.svg
  $ geomech sweep spec.json --workers 2 --out table.json --resume
  $ geomech sweep spec.json --shard 3/8 --out shard-3.json     # on a cluster, one task per K
  $ geomech merge shard-*.json --out table.csv`,
    )
    .action(async (spec: string, opts: SweepOptions) => {
      // imported when run: the sweep's plots load @geomech/core, which other commands may not need
      const { runSweep } = await import('./sweep.js');
      await runSweep(spec, opts, io);
    });

  program
    .command('merge')
    .description('join the shard files of `geomech sweep --shard K/N` into the full table')
    .argument('<shard...>', 'shard files (all N of them, any order)')
    .addOption(formatOption())
    .option('--out <file>', 'write the table to a file instead of stdout')
    .option('--plot <file.svg>', 'draw the merged table (as `sweep --plot`)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ geomech merge shard-0.json shard-1.json shard-2.json --out table.csv\n  $ geomech merge shards/*.json --plot map.svg > table.json',
    )
    .action(async (files: string[], opts: MergeOptions) => {
      const { runMerge } = await import('./merge.js');
      await runMerge(files, opts, io);
    });
}
