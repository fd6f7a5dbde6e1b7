/**
 * The `geomech` program: commander wiring, the contract's exit codes and its one-line errors, and
 * the delivery of results: files written atomically (all of a run's files complete before any is
 * renamed into place), stdout written in chunks with back-pressure, a closed stdout (`| head`)
 * ending the output quietly. Numerical packages are imported lazily by the commands that need them.
 *
 * @module
 */
import { Command, CommanderError, Option } from 'commander';
import { renderList } from './commands/list.js';
import { type OrderOptions, runOrder } from './commands/order.js';
import {
  resolveFormat,
  resolveSimulate,
  runSimulateWithOutput,
  type SimulateDocument,
  type SimulateOptions,
} from './commands/simulate.js';
import { resolveSolve, runSolve, type SolveOptions } from './commands/solve.js';
import { addSweepCommands } from './commands/sweepProgram.js';
import {
  errorLine,
  escapeControl,
  isNumericalError,
  NumericalFailure,
  oneSafeLine,
  quoteUser,
  UsageError,
} from './errors.js';
import {
  checkOutputPath,
  describeSystemError,
  MAX_GUESS_BYTES,
  MAX_MODEL_BYTES,
  type OutputFile,
  openOutputFile,
  readTextFile,
} from './files.js';
import { MAX_INPUT_BYTES, parseControlSequence } from './inputs.js';
import {
  formatCount,
  MAX_CONTINUATION,
  MAX_ITERATIONS,
  MAX_ORDER_LEVELS,
  MAX_ORDER_STEPS,
  MAX_SOLVE_STEPS,
  MAX_STEPS,
  MAX_ZIEGLER_LINKS,
} from './limits.js';
import { modelCacheDir } from './model/cacheDir.js';
import { MAX_OUTPUT_BYTES } from './output.js';
import { createProgress } from './progress.js';
import type { PlotChoice, ProblemDescriptor, SystemDescriptor } from './registry.js';
import type { ControlSequence, SimulationOutput } from './runner.js';
import { version } from './version.js';

/** Where the program reads and writes; injectable for tests. */
export interface Io {
  /**
   * Writes to standard output. May return a promise (back-pressure: the next chunk waits for it);
   * throws or rejects with an error of code `EPIPE` when the reader has gone.
   */
  stdout(text: string): void | Promise<void>;
  stderr(text: string): void;
  /** Whether stderr is a terminal: warnings and progress go there only then (CLI contract). */
  readonly stderrIsTTY: boolean;
  /** Writes a whole file at once: used for `--out` and `--plot` when {@link openFile} is absent. */
  writeFile(path: string, text: string): void;
  /**
   * Reads a text file (`--guess`, `--model`) of at most `limit` bytes; defaults to the safe reader
   * (regular files only, size checked before reading, UTF-8).
   */
  readFile?(path: string, limit: number, flag: string): string;
  /**
   * Checks an output path before the run (directory exists and is writable, not a directory);
   * defaults to the file system check.
   */
  checkOutput?(path: string, flag: string): void;
  /** Opens an output file for writing in chunks, committed or aborted at the end. */
  openFile?(path: string, flag: string): OutputFile;
  /**
   * Offered a JSON `simulate` document for `--out path` as values before it is serialized (when
   * the run writes no plot); returns true when it took it, and nothing is then written to `path`.
   * A sweep point takes its document so as to read its summary from the numbers instead of
   * writing them as text and parsing them back (the text costs as much as the run; issue 22).
   */
  takeDocument?(path: string, document: SimulateDocument): boolean;
  /**
   * The directory of the model-file cache (`simulate --model`, `solve --model`, sweeps over a
   * model file: parse trees of the file's expressions, model/cache.ts), or undefined for none;
   * without it nothing is cached (a sweep's workers get the main thread's choice). The
   * process's is `GEOMECH_CACHE_DIR`, `$XDG_CACHE_HOME/geomech` or `~/.cache/geomech`, off with
   * `GEOMECH_NO_CACHE=1` (model/cacheDir.ts).
   */
  modelCacheDir?(): string | undefined;
}

/** Codes of a write to a reader that has gone (`geomech … | head`). */
const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** True when `err` says the reader of our output has gone. */
function isClosedPipe(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLOSED_CODES.has(code);
}

/**
 * A writer to a Node stream with back-pressure: when `write` returns false the promise waits for
 * `drain`; once the stream has failed (EPIPE), every later write rejects with that error at once.
 */
function streamWriter(stream: NodeJS.WriteStream): (text: string) => void | Promise<void> {
  let failed: Error | undefined;
  let listening = false;
  return (text) => {
    if (!listening) {
      listening = true;
      // without a listener, an EPIPE after the last write is an uncaught 'error' event
      stream.on('error', (err) => {
        failed = err;
      });
    }
    if (failed !== undefined) throw failed;
    if (stream.write(text)) return;
    return new Promise<void>((resolve, reject) => {
      const settle = () => {
        stream.off('drain', settle);
        stream.off('error', settle);
        stream.off('close', settle);
        if (failed !== undefined) reject(failed);
        else resolve();
      };
      stream.on('drain', settle);
      stream.on('error', settle);
      stream.on('close', settle);
    });
  };
}

const stderrWriter = streamWriter(process.stderr);

/** The process's own streams and files. */
export const processIo: Io = {
  stdout: streamWriter(process.stdout),
  modelCacheDir: () => modelCacheDir(process.env),
  stderr: (text) => {
    try {
      void Promise.resolve(stderrWriter(text)).catch(() => {});
    } catch {} // a closed stderr loses the message, never the exit code
  },
  stderrIsTTY: process.stderr.isTTY === true,
  writeFile: (path, text) => {
    const f = openOutputFile(path, '--out');
    f.write(text);
    f.commit();
  },
  readFile: (path, limit, flag) => readTextFile(path, flag, limit),
  checkOutput: (path, flag) => {
    checkOutputPath(path, flag);
  },
  openFile: openOutputFile,
};

export { version } from './version.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The options of `geomech solve` as commander gives them. */
type SolveCliOptions = SolveOptions & { model?: string; cache?: boolean };

/**
 * The descriptor of the last model file loaded, by its name and text: the points of a sweep run
 * `main` again and again on the same file, which is then parsed, differentiated and compiled once
 * per worker instead of once per point. A descriptor is a function of (text, name) only.
 */
let lastModel:
  | { readonly name: string; readonly text: string; readonly value: Promise<unknown> }
  | undefined;

function cachedModel<T>(name: string, text: string, load: () => Promise<T>): Promise<T> {
  if (lastModel !== undefined && lastModel.name === name && lastModel.text === text)
    return lastModel.value as Promise<T>;
  const value = load();
  lastModel = { name, text, value };
  // a file that fails to load is not kept: its error is reported by each run that reads it
  value.catch(() => {
    if (lastModel?.value === value) lastModel = undefined;
  });
  return value;
}

/**
 * A `simulate --model` file's system (mathjs loads only here, so other commands start fast), with
 * the parse trees of its expressions read from and stored in the model cache in `cacheDir`.
 */
export function modelSystem(
  text: string,
  name: string,
  cacheDir?: string,
): Promise<SystemDescriptor> {
  return cachedModel(`simulate\0${name}`, text, async () =>
    (await import('./model/load.js')).loadModelLazily(
      text,
      name,
      cacheDir === undefined ? undefined : { dir: cacheDir, version: version() },
    ),
  );
}

/**
 * A `solve --model` file's problem (also `simulate --feedback --model`), with the parse trees of
 * its expressions read from and stored in the model cache in `cacheDir`.
 */
export function modelProblem(
  text: string,
  name: string,
  cacheDir?: string,
): Promise<ProblemDescriptor> {
  return cachedModel(`solve\0${name}`, text, async () =>
    (await import('./model/load.js')).loadOcpModelLazily(
      text,
      name,
      cacheDir === undefined ? undefined : { dir: cacheDir, version: version() },
    ),
  );
}

/** Reads an input file through `io` (the safe reader by default). */
function readInput(io: Io, path: string, flag: string, limit: number): string {
  return io.readFile ? io.readFile(path, limit, flag) : readTextFile(path, flag, limit);
}

/** Output files requested by a command (`--out`, `--plot`). */
interface Targets {
  readonly out?: string | undefined;
  readonly plot?: string | undefined;
}

/** Checks the output paths before the run, so a typo does not cost a long computation. */
function checkTargets(io: Io, targets: Targets): void {
  const { out, plot } = targets;
  if (plot !== undefined && !plot.toLowerCase().endsWith('.svg'))
    throw new UsageError(`plot file must end in .svg, got ${quoteUser(plot)}`, '--plot');
  if (out !== undefined && plot !== undefined && out === plot)
    throw new UsageError('--out and --plot name the same file', '--plot');
  const check = io.checkOutput ?? ((path: string, flag: string) => checkOutputPath(path, flag));
  if (out !== undefined) check(out, '--out');
  if (plot !== undefined) check(plot, '--plot');
}

/** Opens an output file through `io`; without `openFile`, buffers and writes it whole at commit. */
function openTarget(io: Io, path: string, flag: string): OutputFile {
  if (io.openFile) return io.openFile(path, flag);
  const parts: string[] = [];
  return {
    write: (chunk) => {
      parts.push(chunk);
    },
    commit: () => io.writeFile(path, parts.join('')),
    abort: () => {},
  };
}

/**
 * Writes the files of a run, all or none: each is completed in a temporary file first, then all
 * are renamed into place. A failure aborts every one (the previous files stay) and is rethrown.
 */
function writeFiles(io: Io, files: readonly [string, string, () => Iterable<string>][]): void {
  const open: OutputFile[] = [];
  try {
    for (const [path, flag, chunks] of files) {
      const f = openTarget(io, path, flag);
      open.push(f);
      for (const chunk of chunks()) f.write(chunk);
    }
    for (const f of open.splice(0)) f.commit();
  } catch (err) {
    for (const f of open) f.abort();
    throw err;
  }
}

/** Streams chunks to stdout; a reader that has gone ends the output quietly (exit code 0). */
async function writeStdout(io: Io, chunks: Iterable<string>): Promise<void> {
  try {
    for (const chunk of chunks) {
      const pending = io.stdout(chunk);
      if (pending !== undefined) await pending;
    }
  } catch (err) {
    if (isClosedPipe(err)) return;
    throw new UsageError(`cannot write the output: ${describeSystemError(err)}`, 'stdout');
  }
}

/**
 * Delivers a command's document (to `--out`, else stdout) and plot: files first (atomically,
 * together), then stdout.
 */
async function deliver(
  io: Io,
  targets: Targets,
  document: () => Iterable<string>,
  plot?: () => string,
): Promise<void> {
  const files: [string, string, () => Iterable<string>][] = [];
  if (targets.out !== undefined) files.push([targets.out, '--out', document]);
  if (targets.plot !== undefined && plot !== undefined)
    files.push([targets.plot, '--plot', () => [plot()]]);
  writeFiles(io, files);
  if (targets.out === undefined) await writeStdout(io, document());
}

/** Flags of `simulate` that do not apply to a `--feedback` run (its problem fixes them). */
const NOT_WITH_FEEDBACK = [
  ['method', '--method'],
  ['h', '--h'],
  ['steps', '--steps'],
  ['tEnd', '--t-end'],
  ['every', '--every'],
  ['tol', '--tol'],
  ['maxIter', '--max-iter'],
  ['input', '--input'],
] as const;

/**
 * `geomech simulate --feedback FILE [--model OCP.json] [--perturb …]`: the closed loop of the LQR
 * gains of a solve against the open loop (`commands/feedback.ts`).
 */
async function simulateWithFeedback(
  io: Io,
  name: string | undefined,
  opts: SimulateOptions & {
    feedback: string;
    perturb?: string;
    input?: string;
    plot?: string;
    cache?: boolean;
  },
  format: 'json' | 'csv',
): Promise<void> {
  if (name !== undefined)
    throw new UsageError(
      `give --feedback FILE without a system name (the file names its problem; got ${quoteUser(name)})`,
      '--feedback',
    );
  for (const [key, flag] of NOT_WITH_FEEDBACK) {
    if ((opts as unknown as Record<string, unknown>)[key] !== undefined)
      throw new UsageError(`${flag} does not apply with --feedback (the gains fix the run)`, flag);
  }
  if (opts.param.length > 0 || opts.init.length > 0)
    throw new UsageError(
      'give no --param or --init with --feedback (the file holds the problem)',
      opts.param.length > 0 ? '--param' : '--init',
    );
  if (format !== 'json') throw new UsageError('a --feedback run writes JSON', '--format');
  const { runFeedbackSimulation } = await import('./commands/feedback.js');
  let model: ProblemDescriptor | undefined;
  if (opts.model !== undefined) {
    model = await modelProblem(
      readInput(io, opts.model, '--model', MAX_MODEL_BYTES),
      opts.model,
      opts.cache === false ? undefined : io.modelCacheDir?.(),
    );
  }
  const text = readInput(io, opts.feedback, '--feedback', MAX_GUESS_BYTES);
  const result = await runFeedbackSimulation(text, opts.feedback, {
    ...(opts.perturb === undefined ? {} : { perturb: opts.perturb }),
    ...(model === undefined ? {} : { model }),
  });
  await loadPlot(opts.plot);
  await deliver(
    io,
    opts,
    () => [result.text],
    () =>
      plotOf(
        result.output,
        { y: ['error', 'openLoopError'] },
        'tracking error: closed and open loop',
      ),
  );
}

/** The plot module, imported only by a run with --plot (it loads @geomech/core). */
let plotModule: typeof import('./plot.js') | undefined;

async function loadPlot(plot: string | undefined): Promise<void> {
  if (plot !== undefined) plotModule ??= await import('./plot.js');
}

/** The SVG of the main series of a run (the descriptor's choice); {@link loadPlot} first. */
function plotOf(out: SimulationOutput, choice: PlotChoice, title: string): string {
  if (plotModule === undefined) throw new Error('plotOf: the plot module is not loaded');
  const { plotFromSeries, renderLinePlot } = plotModule;
  const series: Record<string, { width: number; data: Float64Array }> = {
    t: { width: 1, data: out.t.subarray(0, out.count) },
  };
  for (const s of out.series)
    series[s.name] = { width: s.width, data: s.data.subarray(0, out.count * s.width) };
  return renderLinePlot(plotFromSeries(series, choice, { title }));
}

/** The limits stated in `--help` (and the CLI README). */
const LIMITS_HELP = `
Limits (each refused with exit 2 before any work): --steps (or --t-end/--h) ${formatCount(MAX_STEPS)};
Ziegler links --param n ${MAX_ZIEGLER_LINKS}; solve --n ${formatCount(MAX_SOLVE_STEPS)}; --continuation ${MAX_CONTINUATION};
--max-iter ${formatCount(MAX_ITERATIONS)}; order --levels ${MAX_ORDER_LEVELS} and ${formatCount(MAX_ORDER_STEPS)} steps over all levels;
output ${MAX_OUTPUT_BYTES / 2 ** 30} GiB (estimated before the run: use --every); --model files ${MAX_MODEL_BYTES / 2 ** 20} MiB,
--guess files ${MAX_GUESS_BYTES / 2 ** 20} MiB, --input files ${MAX_INPUT_BYTES / 2 ** 20} MiB (regular files only).`;

function buildProgram(io: Io, debug: { on: boolean }): Command {
  const out = (text: string) => writeStdout(io, [text]);
  const program = new Command('geomech')
    .description(
      'Structure-preserving mechanics and optimal control: simulations and optimal-control solves.',
    )
    .version(version(), '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of errors')
    .addHelpText(
      'after',
      `\nExamples:\n  $ geomech list\n  $ geomech simulate pendulum --method dirac-2c --t-end 20 --plot pendulum.svg\n  $ geomech solve plate-ball --param Omega=0.5 --n 200 --out loop.json\n\nExit codes: 0 success (also when the reader of stdout has gone, as with | head), 1 numerical failure, 2 bad usage or input (also a file that cannot be read or written).\n${LIMITS_HELP}`,
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        void out(text).catch(() => {});
      },
      writeErr: (text) => io.stderr(text),
      outputError: () => {}, // errors are printed once, by main(), in the contract's format
    });
  program.hook('preAction', (cmd) => {
    debug.on = Boolean(cmd.opts().debug);
  });

  program
    .command('list')
    .description(
      'list the built-in systems and problems with their methods, parameters and defaults',
    )
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ geomech list\n  $ geomech list --json')
    .action(async (opts: { json?: boolean }) => {
      await out(renderList(Boolean(opts.json)));
    });

  const modelOptions = (cmd: Command): Command =>
    cmd
      .option('--method <name>', 'integrator (default: the first listed for the system)')
      .option('--h <step>', 'time step')
      .option('--t-end <T>', `horizon; steps = round(T/h), at most ${formatCount(MAX_STEPS)}`)
      .option('--param <name=value>', 'model parameter, repeatable', collect, [])
      .option(
        '--init <name=value>',
        'initial datum (comma list for vectors), repeatable',
        collect,
        [],
      )
      .option('--tol <x>', 'Newton tolerance per step')
      .option(
        '--max-iter <k>',
        `Newton iteration cap per step (at most ${formatCount(MAX_ITERATIONS)})`,
      );

  modelOptions(
    program
      .command('simulate')
      .description(
        'integrate a built-in system, or a user model (--model), with a structure-preserving method',
      )
      .argument('[system]', 'system name (see `geomech list`); omit with --model'),
  )
    .option('--steps <n>', `number of steps (at most ${formatCount(MAX_STEPS)})`)
    .option('--every <k>', 'keep every k-th state (first and last always kept)')
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: from --out extension, else json)',
      ).choices(['json', 'csv']),
    )
    .option('--out <file>', 'write the result to a file instead of stdout (atomically)')
    .option(
      '--model <file.json>',
      `user-defined system: a JSON model file of at most ${MAX_MODEL_BYTES / 2 ** 20} MiB (see the CLI README)`,
    )
    .option(
      '--input <file>',
      `control sequence of a --model with "inputs": one row of u per step, JSON [[...], ...] or CSV, at most ${MAX_INPUT_BYTES / 2 ** 20} MiB`,
    )
    .option('--plot <file.svg>', 'also draw the main series to an SVG file')
    .option(
      '--feedback <file.json>',
      'closed-loop run of the LQR gains of `geomech solve --feedback FILE` (with --model: the optimal-control model they belong to)',
    )
    .option(
      '--perturb <v1,v2,...>',
      'with --feedback: tangent perturbation of the start, x0 = x*0·exp(δ) (default 0.01 in every coordinate)',
    )
    .option('--quiet', 'no warnings or progress on stderr')
    .option(
      '--no-cache',
      'with --model: neither read nor write the model cache (parse trees of the file, kept in $GEOMECH_CACHE_DIR, else $XDG_CACHE_HOME/geomech or ~/.cache/geomech; GEOMECH_NO_CACHE=1 also turns it off)',
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ geomech simulate damped-oscillator --h 0.5 --steps 50\n  $ geomech simulate pendulum --method rattle --t-end 20 --every 10 --out pendulum.csv --plot pendulum.svg\n\nWarnings (stderr on a terminal, "warnings" in the JSON) report a step above the system's time scale and a run that leaves the system's accuracy bands (constraint residual, energy drift; see the CLI README). A failed run exits 1 and, with --out, writes its partial result with "ok": false (CSV: a last line "# ok=false reason=...").\n${LIMITS_HELP}`,
    )
    .action(
      async (
        name: string | undefined,
        opts: SimulateOptions & {
          plot?: string;
          quiet?: boolean;
          input?: string;
          feedback?: string;
          perturb?: string;
          cache?: boolean;
        },
      ) => {
        const format = resolveFormat(opts.format, opts.out);
        checkTargets(io, opts);
        if (opts.feedback !== undefined) {
          await simulateWithFeedback(io, name, { ...opts, feedback: opts.feedback }, format);
          return;
        }
        if (opts.perturb !== undefined)
          throw new UsageError('--perturb needs --feedback FILE', '--perturb');
        let model: SystemDescriptor | undefined;
        if (opts.model !== undefined) {
          if (name !== undefined)
            throw new UsageError(
              `give a system name or --model, not both (got ${quoteUser(name)})`,
              '--model',
            );
          const text = readInput(io, opts.model, '--model', MAX_MODEL_BYTES);
          model = await modelSystem(
            text,
            opts.model,
            opts.cache === false ? undefined : io.modelCacheDir?.(),
          );
        } else if (name === undefined) {
          throw new UsageError('missing system name (or give --model FILE)', 'geomech simulate');
        }
        let controls: ControlSequence | undefined;
        if (opts.input !== undefined) {
          if (model === undefined)
            throw new UsageError(
              'built-in systems take no control inputs (use --model with "inputs" and "forces")',
              '--input',
            );
          controls = parseControlSequence(
            readInput(io, opts.input, '--input', MAX_INPUT_BYTES),
            opts.input,
          );
        }
        const checked = resolveSimulate(name ?? '', opts, model);
        const resolved = controls === undefined ? checked : { ...checked, inputs: controls };
        const loud = io.stderrIsTTY && !opts.quiet;
        const bar = createProgress((t) => io.stderr(t), loud);
        const request = loud
          ? {
              ...resolved,
              onProgress: (done: number, total: number) =>
                bar.update(`step ${done} of ${total}`, done / total),
            }
          : resolved;
        let result: Awaited<ReturnType<typeof runSimulateWithOutput>>;
        try {
          result = await runSimulateWithOutput(request, format, (message) => {
            if (loud) {
              bar.done();
              io.stderr(`geomech: warning: ${oneSafeLine(message)}\n`);
            }
          });
        } finally {
          bar.done();
        }
        const sys = request.system;
        const taken =
          opts.out !== undefined &&
          opts.plot === undefined &&
          format === 'json' &&
          io.takeDocument?.(opts.out, result.document) === true;
        if (result.failure !== undefined) {
          // the contract's partial result, in the requested format, only to --out
          if (opts.out !== undefined && !taken)
            writeFiles(io, [[opts.out, '--out', result.chunks]]);
          throw result.failure;
        }
        if (taken) return;
        await loadPlot(opts.plot);
        await deliver(io, opts, result.chunks, () =>
          plotOf(
            result.output,
            sys.plot ?? { y: [sys.fields[0]!] },
            `${sys.name} (${request.method}, h = ${request.h})`,
          ),
        );
      },
    );

  modelOptions(
    program
      .command('order')
      .description('measure the convergence order of a method against the exact solution')
      .argument('<system>', 'system name (see `geomech list`)'),
  )
    .option(
      '--levels <k>',
      `number of step sizes h0, h0/2, … (default 5, at most ${MAX_ORDER_LEVELS}; all levels together at most ${formatCount(MAX_ORDER_STEPS)} steps)`,
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ geomech order damped-oscillator --method implicit-z-midpoint --param gamma=-0.5\n  $ geomech order pendulum --method rk4 --h 0.01 --t-end 2 --levels 4\n${LIMITS_HELP}`,
    )
    .option('--out <file>', 'write the result to a file instead of stdout (atomically)')
    .action(async (name: string, opts: OrderOptions) => {
      checkTargets(io, opts);
      const text = await runOrder(name, opts);
      await deliver(io, opts, () => [text]);
    });

  program
    .command('solve')
    .description(
      'solve a discrete optimal-control problem with an interior-point method over the whole trajectory',
    )
    .argument('[problem]', 'problem name (see `geomech list`); omit with --model')
    .option(
      '--model <file.json>',
      'user-defined problem: an optimal-control model file (see the CLI README)',
    )
    .option('--method <name>', 'interior-point (the only one, default)')
    .option(
      '--param <name=value>',
      'problem parameter, repeatable (e.g. phi=2, map=exp)',
      collect,
      [],
    )
    .option('--n <n>', `number of steps (h = 1/n), at most ${formatCount(MAX_SOLVE_STEPS)}`)
    .option(
      '--start <v1,v2,...>',
      'start (plate-ball: x,y,ax,ay,az; unicycle-parking: x,y,theta; quadrotor-flight: x,y,z,yaw; see `geomech list`)',
    )
    .option(
      '--end <v1,v2,...>',
      'end (plate-ball: x,y,ax,ay,az; unicycle-parking: x,y,theta; satellite: ax,ay,az; quadrotor-flight: x,y,z,yaw)',
    )
    .option('--tol <x>', "the solver's tolerance on its scaled optimality error (default 1e-10)")
    .option(
      '--max-iter <k>',
      `iteration cap of each solve (default 3000, at most ${formatCount(MAX_ITERATIONS)}; 0 only evaluates the --guess)`,
    )
    .option(
      '--guess <file.json>',
      `warm start from a previous solution (its JSON output, at most ${MAX_GUESS_BYTES / 2 ** 20} MiB)`,
    )
    .option(
      '--continuation <k>',
      `solve k intermediate problems from an easy one first (at most ${MAX_CONTINUATION})`,
    )
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: from --out extension, else json)',
      ).choices(['json', 'csv']),
    )
    .option('--out <file>', 'write the result to a file instead of stdout (atomically)')
    .option('--plot <file.svg>', 'also draw the solution to an SVG file')
    .option(
      '--feedback <file.json>',
      'also write the time-varying LQR gains around the solution (unicycle-parking, satellite, --model problems); run them with `geomech simulate --feedback FILE`',
    )
    .option(
      '--feedback-weights <w>',
      'weights of the gains: lagrangian (default: the Hessian of the Lagrangian at the optimum) or unit (Q = I, R = I)',
    )
    .option('--quiet', 'no progress output')
    .option(
      '--no-cache',
      'with --model: neither read nor write the model cache (as `simulate --no-cache`; GEOMECH_NO_CACHE=1 also turns it off)',
    )
    .addHelpText(
      'after',
      '\nOutput: one JSON document with ok, status (converged, acceptable, iteration-limit, infeasible,\n' +
        'diverging, restoration-failed, ...), secondOrder (minimum, saddle, singular, not-checked: the\n' +
        'reduced Hessian at the answer), iterations, residualNorm (the KKT error), cost and the series.\n' +
        'Exit code 1 (with a hint) unless the answer is a converged minimum; the result is still written,\n' +
        'with "ok": false (CSV: a last line "# ok=false reason=...").\n' +
        `\nExamples:\n  $ geomech solve so3-steering --param phi=2 --n 80\n  $ geomech solve plate-ball --n 200 --end 0,0,0,0,0.3 --out loop.json\n  $ geomech solve --model examples/unicycle-parking.json\n${LIMITS_HELP}`,
    )
    .action(async (name: string | undefined, opts: SolveCliOptions) => {
      const format = resolveFormat(opts.format, opts.out);
      checkTargets(io, opts);
      if (opts.feedback !== undefined) {
        if (opts.feedback === opts.out)
          throw new UsageError('--out and --feedback name the same file', '--feedback');
        const check =
          io.checkOutput ?? ((path: string, flag: string) => checkOutputPath(path, flag));
        check(opts.feedback, '--feedback');
      }
      let model: ProblemDescriptor | undefined;
      if (opts.model !== undefined) {
        if (name !== undefined)
          throw new UsageError(
            `give a problem name or --model, not both (got '${name}')`,
            '--model',
          );
        model = await modelProblem(
          readInput(io, opts.model, '--model', MAX_MODEL_BYTES),
          opts.model,
          opts.cache === false ? undefined : io.modelCacheDir?.(),
        );
      } else if (name === undefined) {
        throw new UsageError('missing problem name (or give --model FILE)', 'geomech solve');
      }
      const request = resolveSolve(
        name ?? '',
        opts,
        (path) => readInput(io, path, '--guess', MAX_GUESS_BYTES),
        model,
      );
      const bar = createProgress((t) => io.stderr(t), io.stderrIsTTY && !opts.quiet);
      let result: Awaited<ReturnType<typeof runSolve>>;
      try {
        result = await runSolve(request, format, (p) =>
          bar.update(
            `${p.stage}: iteration ${p.iteration}, residual ${p.residualNorm.toExponential(2)}`,
          ),
        );
      } finally {
        bar.done();
      }
      const solved = result.output;
      const document = () => [result.text];
      if (!solved.ok) {
        if (opts.out !== undefined) writeFiles(io, [[opts.out, '--out', document]]);
        else await writeStdout(io, document());
        const what = solved.converged
          ? `the solver converged to a ${solved.secondOrder} point, not a minimum (status ${solved.status}, second-order test ${solved.secondOrder})`
          : `the solver did not converge (status ${solved.status} after ${solved.iterations} iterations, KKT error ${solved.residualNorm.toExponential(3)})`;
        throw new NumericalFailure(
          `${what}${solved.hint ? `; ${solved.hint}` : ''}`,
          `geomech solve ${request.problem.name}`,
        );
      }
      if (opts.feedback !== undefined) {
        if (solved.feedback === undefined)
          throw new NumericalFailure(
            'no LQR gains for this solution',
            `geomech solve ${request.problem.name}`,
          );
        const { feedbackDocument } = await import('./commands/feedback.js');
        const gains = feedbackDocument(request, model !== undefined, solved.feedback);
        writeFiles(io, [[opts.feedback, '--feedback', () => [gains]]]);
      }
      const n = request.params.get('n')![0]!;
      await loadPlot(opts.plot);
      await deliver(io, opts, document, () =>
        plotOf(
          solved,
          request.problem.plot,
          `${request.problem.name} (n = ${n}, cost ${solved.cost.toPrecision(7)})`,
        ),
      );
      if (solved.hint !== undefined && io.stderrIsTTY && !opts.quiet)
        io.stderr(`geomech: warning: ${oneSafeLine(solved.hint)}\n`);
    });

  addSweepCommands(program, io);
  return program;
}

/** Library errors (by name) that mean bad input or a request over a limit: exit code 2. */
const INPUT_ERRORS = new Set([
  'DomainError',
  'DimensionError',
  'ResourceLimitError',
  'ComputeBudgetError',
  'SymbolicValueError',
]);

/** Allocation failures of the engine: a request too large for this machine (exit code 2). */
const OUT_OF_MEMORY =
  /Invalid (typed )?array length|Array buffer allocation failed|Invalid string length|Array buffer too large/;

/**
 * Where a library's input error arose, for its message: the command and its system or model
 * (`geomech simulate plate-ball`, `geomech simulate --model 'm.json'`), quoted and escaped.
 */
function commandWhere(argv: readonly string[]): string {
  const word = (w: string) => (/^[a-z0-9-]{1,40}$/.test(w) ? w : quoteUser(w));
  const [command, name] = argv;
  if (command === undefined) return 'input';
  const model = argv.indexOf('--model');
  const file = model >= 0 ? argv[model + 1] : undefined;
  const subject =
    name !== undefined && !name.startsWith('-')
      ? ` ${word(name)}`
      : file === undefined
        ? ''
        : ` --model ${quoteUser(file)}`;
  return `geomech ${word(command)}${subject}`;
}

/**
 * Runs the program on `argv` (without the node and script entries) and returns the exit code:
 * 0 success, 1 numerical failure, 2 bad usage or input. Never throws. Every failure prints one
 * line `geomech: error: <what> (<where>)` on stderr, its control characters escaped.
 */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const debug = { on: argv.includes('--debug') };
  const fail = (what: string, where: string | undefined, code: number): number => {
    io.stderr(`${errorLine(what, where)}\n`);
    return code;
  };
  try {
    const program = buildProgram(io, debug);
    if (argv.length === 0) {
      await writeStdout(io, [program.helpInformation()]);
      return 0;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      ) {
        return 0;
      }
      return fail(err.message.replace(/^error:\s*/, ''), 'usage: geomech --help', 2);
    }
    if (isClosedPipe(err)) return 0;
    if (debug.on && err instanceof Error && err.stack)
      io.stderr(`${err.stack.split('\n').map(escapeControl).join('\n')}\n`);
    if (err instanceof UsageError || err instanceof NumericalFailure)
      return fail(err.what, err.where, err.exitCode);
    if (isNumericalError(err)) return fail(err.message, 'numerical failure', 1);
    if (err instanceof Error && INPUT_ERRORS.has(err.name))
      return fail(err.message, commandWhere(argv), 2);
    if (err instanceof RangeError && OUT_OF_MEMORY.test(err.message))
      return fail(
        `out of memory (${err.message}): the request is too large for this machine; reduce --steps, --n or the model's size, or keep fewer states with --every`,
        'resources',
        2,
      );
    if (
      err instanceof Error &&
      'code' in err &&
      typeof err.code === 'string' &&
      err.code.startsWith('E')
    ) {
      return fail(err.message, 'file system', 2);
    }
    return fail(
      `internal error: ${err instanceof Error ? err.message : String(err)}`,
      'please report with --debug',
      1,
    );
  }
}
