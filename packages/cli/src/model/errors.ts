/**
 * The error of a malformed model file (CLI contract, "Model files"): a {@link UsageError} (exit
 * code 2) that also carries the JSON path of the offending field and, for an expression, the
 * 1-based character position of the fault (mathjs counts the same way).
 *
 * @module
 */
import { UsageError } from '../errors.js';

/** Longest user text quoted in a message. */
const MAX_QUOTE = 40;

/**
 * Quotes user text for an error message: JSON string syntax (so control characters and line
 * breaks are escaped and the message stays on one line), shortened to {@link MAX_QUOTE} characters.
 *
 * @example
 * ```ts
 * quote('a\nb'); // '"a\\nb"'
 * ```
 */
export function quote(text: string): string {
  const short = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
  return JSON.stringify(short).replace(/[\u2028\u2029]/g, ' ');
}

/** Replaces line breaks by spaces: every model message is one line (CLI contract). */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/**
 * A malformed model file. The message reads `<field>: <what>[ at char <position>]`, where
 * `field` is a JSON path such as `constraints[1][0]` (or `(file)` for the document as a whole);
 * `where` is the file name, so the CLI prints `geomech: error: <message> (<file>)`.
 *
 * @example
 * ```ts
 * throw new ModelError('lagrangian', "unknown variable 'w'", 'pendulum.json', 7);
 * // message: "lagrangian: unknown variable 'w' at char 7"
 * ```
 */
export class ModelError extends UsageError {
  override name = 'ModelError';
  constructor(
    /** JSON path of the offending field, e.g. `constraints[1][0]`. */
    readonly field: string,
    what: string,
    file: string,
    /** 1-based character position inside the field's expression, when the fault has one. */
    readonly position?: number,
  ) {
    const at = position === undefined ? '' : ` at char ${position}`;
    super(oneLine(`${field}: ${what}${at}`), oneLine(file));
  }
}
