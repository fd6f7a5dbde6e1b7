/**
 * The CLI's two failure kinds, mapped to the exit codes of the contract (`../shared/spec/CLI.md`):
 * 2 for bad usage or input, 1 for numerical failure; and the one-line error format, with every
 * control character of user text escaped so that no input can drive the terminal.
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

/**
 * Whether a terminal may act on the character with code `c`: C0 controls, DEL, C1 controls (ESC
 * and CSI start escape sequences that move the cursor, clear the screen or retitle the window),
 * the line and paragraph separators, and the bidirectional marks, overrides and isolates (which
 * reorder the text shown).
 */
function isControl(c: number): boolean {
  return (
    c <= 0x1f ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0x200e ||
    c === 0x200f ||
    c === 0x2028 ||
    c === 0x2029 ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  );
}

const NAMED: Readonly<Record<number, string>> = { 10: '\\n', 13: '\\r', 9: '\\t' };

/**
 * Escapes every control character of `text` (see {@link isControl}): `\n`, `\r`, `\t` by name,
 * other characters up to U+00FF as `\xNN`, the rest as `\uNNNN`. Printable text, including
 * non-Latin letters, is left as it is.
 *
 * @example
 * ```ts
 * escapeControl('a\u001b[2Jb\u0007'); // 'a\\x1b[2Jb\\x07'
 * ```
 */
export function escapeControl(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isControl(c)) continue;
    out += text.slice(from, i);
    from = i + 1;
    out +=
      NAMED[c] ??
      (c <= 0xff
        ? `\\x${c.toString(16).padStart(2, '0')}`
        : `\\u${c.toString(16).padStart(4, '0')}`);
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Longest user text quoted in a message, in characters. */
const MAX_QUOTE = 60;

/**
 * Quotes user text (a name, a flag value, a file name) for a message: in single quotes, control
 * characters escaped, shortened to 60 characters with `…`.
 *
 * @example
 * ```ts
 * quoteUser('pen\u001bdulum'); // "'pen\\x1bdulum'"
 * ```
 */
export function quoteUser(text: string): string {
  const short = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
  return `'${escapeControl(short)}'`;
}

/**
 * Makes a message safe to print as one line: line breaks (of our own multi-line texts) become
 * single spaces, every other control character is escaped.
 *
 * @example
 * ```ts
 * oneSafeLine('first\n  second \u001b[31m'); // 'first second \\x1b[31m'
 * ```
 */
export function oneSafeLine(text: string): string {
  return escapeControl(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

/**
 * Formats the one error line of the contract: `geomech: error: <what> (<where>)`, one line, with
 * control characters escaped.
 *
 * @example
 * ```ts
 * errorLine('unknown system \'x\'', 'geomech simulate');
 * // "geomech: error: unknown system 'x' (geomech simulate)"
 * ```
 */
export function errorLine(what: string, where?: string): string {
  return `geomech: error: ${oneSafeLine(what)}${where ? ` (${oneSafeLine(where)})` : ''}`;
}

/** Library errors (by name) that mean a numerical failure: exit code 1. */
const NUMERICAL = new Set([
  'RegularityError',
  'NonRegularSystemError',
  'MaxStepsExceededError',
  'NewtonDivergedError',
  'SingularJacobianError',
  'SingularMatrixError',
  'NonFiniteError',
  'StepSizeUnderflowError',
  'EvaluationDomainError',
]);

/**
 * True for a numerical failure: a {@link NumericalFailure} or a library error that means one
 * (Newton did not converge, singular step, non-finite value, …). Checked by name, so errors from
 * another copy of a library count too.
 *
 * @example
 * ```ts
 * isNumericalError(new NumericalFailure('NaN')); // true
 * isNumericalError(new UsageError('bad flag'));  // false
 * ```
 */
export function isNumericalError(err: unknown): err is Error {
  return err instanceof NumericalFailure || (err instanceof Error && NUMERICAL.has(err.name));
}
