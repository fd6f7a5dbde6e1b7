/**
 * Process entry of the `geomech` binary (see `bin/geomech.js`). `geomech --version` (or `-V`)
 * alone is answered here, as the program would answer it, without loading the program
 * (commander and the commands' modules): the version is the one command whose start-up is all
 * of its cost.
 *
 * @module
 */
import { version } from './version.js';

/** Runs the program and sets the process exit code without cutting pending output short. */
export function run(argv: readonly string[]): void {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  void import('./main.js')
    .then(({ main, processIo }) => main(argv, processIo))
    .then((code) => {
      process.exitCode = code;
    });
}
