/**
 * Process entry of the `geomech` binary (see `bin/geomech.js`).
 *
 * @module
 */
import { main, processIo } from './main.js';

/** Runs the program and sets the process exit code without cutting pending output short. */
export function run(argv: readonly string[]): void {
  void main(argv, processIo).then((code) => {
    process.exitCode = code;
  });
}
