/**
 * The `geomech` program: commander wiring, the contract's exit codes and its one-line errors.
 * Numerical packages are imported lazily by the commands that need them.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { renderList } from './commands/list.js';
import { type OrderOptions, runOrder } from './commands/order.js';
import {
  resolveFormat,
  resolveSimulate,
  runSimulateWithOutput,
  type SimulateOptions,
} from './commands/simulate.js';
import { resolveSolve, runSolve, type SolveOptions } from './commands/solve.js';
import { errorLine, NumericalFailure, UsageError } from './errors.js';
import { plotFromSeries, renderLinePlot } from './plot.js';
import { createProgress } from './progress.js';
import type { PlotChoice, ProblemDescriptor, SystemDescriptor } from './registry.js';
import type { SimulationOutput } from './runner.js';

/** Where the program writes; injectable for tests. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal: warnings and progress go there only then (CLI contract). */
  readonly stderrIsTTY: boolean;
  writeFile(path: string, text: string): void;
  /** Reads a text file (`--guess`, `--model`); defaults to the file system. */
  readFile?(path: string): string;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  writeFile: (path, text) => writeFileSync(path, text),
  readFile: (path) => readFileSync(path, 'utf8'),
};

/** The package version, read from package.json at run time. */
export function version(): string {
  const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
  return pkg.version;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Library errors whose names mean a numerical failure (exit 1); other library errors are bad input (exit 2). */
const NUMERICAL = new Set([
  'RegularityError',
  'NonRegularSystemError',
  'MaxStepsExceededError',
  'NewtonDivergedError',
  'SingularJacobianError',
  'SingularMatrixError',
  'NonFiniteError',
  'StepSizeUnderflowError',
]);

/** Checks a `--plot` path before the run, so a typo does not cost a long computation. */
function checkPlotPath(path: string | undefined): void {
  if (path !== undefined && !path.toLowerCase().endsWith('.svg'))
    throw new UsageError(`plot file must end in .svg, got '${path}'`, '--plot');
}

/** Draws the main series of a run (the descriptor's choice) to an SVG file. */
function writePlot(
  io: Io,
  path: string,
  out: SimulationOutput,
  choice: PlotChoice,
  title: string,
): void {
  const series: Record<string, { width: number; data: Float64Array }> = {
    t: { width: 1, data: out.t.subarray(0, out.count) },
  };
  for (const s of out.series)
    series[s.name] = { width: s.width, data: s.data.subarray(0, out.count * s.width) };
  io.writeFile(path, renderLinePlot(plotFromSeries(series, choice, { title })));
}

function buildProgram(io: Io, debug: { on: boolean }): Command {
  const program = new Command('geomech')
    .description(
      'Structure-preserving mechanics and optimal control: simulations and optimal-control solves.',
    )
    .version(version(), '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of errors')
    .addHelpText(
      'after',
      '\nExamples:\n  $ geomech list\n  $ geomech simulate pendulum --method dirac-2c --t-end 20 --plot pendulum.svg\n  $ geomech solve plate-ball --param Omega=0.5 --n 200 --out loop.json\n\nExit codes: 0 success, 1 numerical failure, 2 bad usage or input.',
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
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
    .action((opts: { json?: boolean }) => {
      io.stdout(renderList(Boolean(opts.json)));
    });

  const modelOptions = (cmd: Command): Command =>
    cmd
      .option('--method <name>', 'integrator (default: the first listed for the system)')
      .option('--h <step>', 'time step')
      .option('--t-end <T>', 'horizon; steps = round(T/h)')
      .option('--param <name=value>', 'model parameter, repeatable', collect, [])
      .option(
        '--init <name=value>',
        'initial datum (comma list for vectors), repeatable',
        collect,
        [],
      )
      .option('--tol <x>', 'Newton tolerance per step')
      .option('--max-iter <k>', 'Newton iteration cap per step');

  modelOptions(
    program
      .command('simulate')
      .description(
        'integrate a built-in system, or a user model (--model), with a structure-preserving method',
      )
      .argument('[system]', 'system name (see `geomech list`); omit with --model'),
  )
    .option('--steps <n>', 'number of steps')
    .option('--every <k>', 'keep every k-th state (first and last always kept)')
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: from --out extension, else json)',
      ).choices(['json', 'csv']),
    )
    .option('--out <file>', 'write the result to a file instead of stdout')
    .option('--model <file.json>', 'user-defined system: a JSON model file (see the CLI README)')
    .option('--plot <file.svg>', 'also draw the main series to an SVG file')
    .option('--quiet', 'no warnings or progress on stderr')
    .addHelpText(
      'after',
      '\nExamples:\n  $ geomech simulate damped-oscillator --h 0.5 --steps 50\n  $ geomech simulate pendulum --method rattle --t-end 20 --every 10 --out pendulum.csv --plot pendulum.svg',
    )
    .action(
      async (
        name: string | undefined,
        opts: SimulateOptions & { plot?: string; quiet?: boolean },
      ) => {
        const format = resolveFormat(opts.format, opts.out);
        let model: SystemDescriptor | undefined;
        if (opts.model !== undefined) {
          if (name !== undefined)
            throw new UsageError(
              `give a system name or --model, not both (got '${name}')`,
              '--model',
            );
          const read = io.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
          // mathjs loads only here, so other commands start fast
          const { loadModel } = await import('./model/index.js');
          model = loadModel(read(opts.model), opts.model);
        } else if (name === undefined) {
          throw new UsageError('missing system name (or give --model FILE)', 'geomech simulate');
        }
        const resolved = resolveSimulate(name ?? '', opts, model);
        checkPlotPath(opts.plot);
        const bar = createProgress((t) => io.stderr(t), io.stderrIsTTY && !opts.quiet);
        const request =
          io.stderrIsTTY && !opts.quiet
            ? {
                ...resolved,
                onProgress: (done: number, total: number) =>
                  bar.update(`step ${done} of ${total}`, done / total),
              }
            : resolved;
        let text: string;
        let output: SimulationOutput;
        try {
          ({ text, output } = await runSimulateWithOutput(request, format, (message) => {
            if (io.stderrIsTTY && !opts.quiet) io.stderr(`geomech: warning: ${message}\n`);
          }));
        } catch (err) {
          if (opts.out !== undefined && isNumerical(err)) {
            const reason = err instanceof Error ? err.message : String(err);
            io.writeFile(
              opts.out,
              `${JSON.stringify({ ok: false, system: request.system.name, method: request.method, error: reason })}\n`,
            );
          }
          throw err;
        } finally {
          bar.done();
        }
        if (opts.out !== undefined) io.writeFile(opts.out, text);
        else io.stdout(text);
        if (opts.plot !== undefined) {
          const sys = request.system;
          writePlot(
            io,
            opts.plot,
            output,
            sys.plot ?? { y: [sys.fields[0]!] },
            `${sys.name} (${request.method}, h = ${request.h})`,
          );
        }
      },
    );

  modelOptions(
    program
      .command('order')
      .description('measure the convergence order of a method against the exact solution')
      .argument('<system>', 'system name (see `geomech list`)'),
  )
    .option('--levels <k>', 'number of step sizes h0, h0/2, … (default 5)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ geomech order damped-oscillator --method implicit-z-midpoint --param gamma=-0.5\n  $ geomech order pendulum --method rk4 --h 0.01 --t-end 2 --levels 4',
    )
    .option('--out <file>', 'write the result to a file instead of stdout')
    .action(async (name: string, opts: OrderOptions) => {
      const text = await runOrder(name, opts);
      if (opts.out !== undefined) io.writeFile(opts.out, text);
      else io.stdout(text);
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
    .option('--n <n>', 'number of steps (h = 1/n)')
    .option(
      '--start <v1,v2,...>',
      'start (plate-ball: x,y,ax,ay,az; unicycle-parking: x,y,theta; see `geomech list`)',
    )
    .option(
      '--end <v1,v2,...>',
      'end (plate-ball: x,y,ax,ay,az; unicycle-parking: x,y,theta; satellite: ax,ay,az)',
    )
    .option('--tol <x>', "the solver's tolerance on its scaled optimality error (default 1e-10)")
    .option(
      '--max-iter <k>',
      'iteration cap of each solve (default 3000; 0 only evaluates the --guess)',
    )
    .option('--guess <file.json>', 'warm start from a previous solution (its JSON output)')
    .option('--continuation <k>', 'solve k intermediate problems from an easy one first')
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: from --out extension, else json)',
      ).choices(['json', 'csv']),
    )
    .option('--out <file>', 'write the result to a file instead of stdout')
    .option('--plot <file.svg>', 'also draw the solution to an SVG file')
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      '\nOutput: one JSON document with ok, status (converged, acceptable, iteration-limit, infeasible,\n' +
        'diverging, restoration-failed, ...), secondOrder (minimum, saddle, singular, not-checked: the\n' +
        'reduced Hessian at the answer), iterations, residualNorm (the KKT error), cost and the series.\n' +
        'Exit code 1 (with a hint) unless the answer is a converged minimum.\n' +
        '\nExamples:\n  $ geomech solve so3-steering --param phi=2 --n 80\n  $ geomech solve plate-ball --n 200 --end 0,0,0,0,0.3 --out loop.json\n  $ geomech solve --model examples/unicycle-parking.json',
    )
    .action(async (name: string | undefined, opts: SolveOptions & { model?: string }) => {
      const format = resolveFormat(opts.format, opts.out);
      const read = io.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
      let model: ProblemDescriptor | undefined;
      if (opts.model !== undefined) {
        if (name !== undefined)
          throw new UsageError(
            `give a problem name or --model, not both (got '${name}')`,
            '--model',
          );
        // mathjs loads only here, so other commands start fast
        const { loadOcpModel } = await import('./model/optimalControl.js');
        model = loadOcpModel(read(opts.model), opts.model);
      } else if (name === undefined) {
        throw new UsageError('missing problem name (or give --model FILE)', 'geomech solve');
      }
      const request = resolveSolve(name ?? '', opts, read, model);
      checkPlotPath(opts.plot);
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
      if (opts.out !== undefined) io.writeFile(opts.out, result.text);
      else io.stdout(result.text);
      const out = result.output;
      if (opts.plot !== undefined) {
        const n = request.params.get('n')![0]!;
        writePlot(
          io,
          opts.plot,
          out,
          request.problem.plot,
          `${request.problem.name} (n = ${n}, cost ${out.cost.toPrecision(7)})`,
        );
      }
      if (!out.ok) {
        const what = out.converged
          ? `the solver converged to a ${out.secondOrder} point, not a minimum (status ${out.status}, second-order test ${out.secondOrder})`
          : `the solver did not converge (status ${out.status} after ${out.iterations} iterations, KKT error ${out.residualNorm.toExponential(3)})`;
        throw new NumericalFailure(
          `${what}${out.hint ? `; ${out.hint}` : ''}`,
          `geomech solve ${request.problem.name}`,
        );
      }
    });

  return program;
}

function isNumerical(err: unknown): boolean {
  return err instanceof NumericalFailure || (err instanceof Error && NUMERICAL.has(err.name));
}

/**
 * Runs the program on `argv` (without the node and script entries) and returns the exit code:
 * 0 success, 1 numerical failure, 2 bad usage or input. Never throws.
 */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const debug = { on: argv.includes('--debug') };
  try {
    const program = buildProgram(io, debug);
    if (argv.length === 0) {
      program.outputHelp();
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
      io.stderr(`${errorLine(err.message.replace(/^error:\s*/, ''), 'usage: geomech --help')}\n`);
      return 2;
    }
    if (debug.on && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    if (err instanceof UsageError || err instanceof NumericalFailure) {
      io.stderr(`${errorLine(err.what, err.where)}\n`);
      return err.exitCode;
    }
    if (err instanceof Error && NUMERICAL.has(err.name)) {
      io.stderr(`${errorLine(err.message, 'numerical failure')}\n`);
      return 1;
    }
    if (err instanceof Error && (err.name === 'DomainError' || err.name === 'DimensionError')) {
      io.stderr(`${errorLine(err.message, 'input')}\n`);
      return 2;
    }
    if (
      err instanceof Error &&
      'code' in err &&
      typeof err.code === 'string' &&
      err.code.startsWith('E')
    ) {
      io.stderr(`${errorLine(err.message, 'file system')}\n`);
      return 2;
    }
    io.stderr(
      `${errorLine(`internal error: ${err instanceof Error ? err.message : String(err)}`, 'please report with --debug')}\n`,
    );
    return 1;
  }
}
