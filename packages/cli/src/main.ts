/**
 * The `geomech` program: commander wiring, the contract's exit codes and its one-line errors.
 * Numerical packages are imported lazily by the commands that need them.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { renderList } from './commands/list.js';
import { type OrderOptions, runOrder } from './commands/order.js';
import {
  resolveFormat,
  resolveSimulate,
  runSimulate,
  type SimulateOptions,
} from './commands/simulate.js';
import { errorLine, NumericalFailure, UsageError } from './errors.js';

/** Where the program writes; injectable for tests. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal: warnings and progress go there only then (CLI contract). */
  readonly stderrIsTTY: boolean;
  writeFile(path: string, text: string): void;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  writeFile: (path, text) => writeFileSync(path, text),
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

function buildProgram(io: Io, debug: { on: boolean }): Command {
  const program = new Command('geomech')
    .description(
      'Structure-preserving mechanics and optimal control: simulations and optimal-control solves.',
    )
    .version(version(), '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of errors')
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
      .description('integrate a built-in system with a structure-preserving method')
      .argument('<system>', 'system name (see `geomech list`)'),
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
    .action(async (name: string, opts: SimulateOptions) => {
      const format = resolveFormat(opts.format, opts.out);
      const request = resolveSimulate(name, opts);
      let text: string;
      try {
        text = await runSimulate(request, format, (message) => {
          if (io.stderrIsTTY) io.stderr(`geomech: warning: ${message}\n`);
        });
      } catch (err) {
        if (opts.out !== undefined && isNumerical(err)) {
          const reason = err instanceof Error ? err.message : String(err);
          io.writeFile(
            opts.out,
            `${JSON.stringify({ ok: false, system: request.system.name, method: request.method, error: reason })}\n`,
          );
        }
        throw err;
      }
      if (opts.out !== undefined) io.writeFile(opts.out, text);
      else io.stdout(text);
    });

  modelOptions(
    program
      .command('order')
      .description('measure the convergence order of a method against the exact solution')
      .argument('<system>', 'system name (see `geomech list`)'),
  )
    .option('--levels <k>', 'number of step sizes h0, h0/2, … (default 5)')
    .option('--out <file>', 'write the result to a file instead of stdout')
    .action(async (name: string, opts: OrderOptions) => {
      const text = await runOrder(name, opts);
      if (opts.out !== undefined) io.writeFile(opts.out, text);
      else io.stdout(text);
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
