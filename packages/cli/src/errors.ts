/**
 * The CLI's two failure kinds, mapped to the exit codes of the contract (`../shared/spec/CLI.md`):
 * 2 for bad usage or input, 1 for numerical failure.
 *
 * @module
 */

/** Bad usage or bad input: exit code 2. `where` names the flag, field or position. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly exitCode = 2;
  constructor(
    readonly what: string,
    readonly where?: string,
  ) {
    super(what);
  }
}

/** A numerical failure (Newton did not converge, singular step, NaN): exit code 1. */
export class NumericalFailure extends Error {
  override name = 'NumericalFailure';
  readonly exitCode = 1;
  constructor(
    readonly what: string,
    readonly where?: string,
  ) {
    super(what);
  }
}

/** Formats the one error line of the contract: `geomech: error: <what> (<where>)`. */
export function errorLine(what: string, where?: string): string {
  const oneLine = what.replace(/\s*\n\s*/g, ' ').trim();
  return `geomech: error: ${oneLine}${where ? ` (${where})` : ''}`;
}
