/**
 * Parsing of command-line values: numbers (with `pi`), counts, comma lists and `name=value` pairs.
 * Every message quotes the user's text with its control characters escaped.
 *
 * @module
 */
import { quoteUser, UsageError } from './errors.js';
import { formatCount } from './limits.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** The literal has a non-zero digit before its exponent (so a value of 0 means underflow). */
const NON_ZERO_MANTISSA = /^[+-]?[0.]*[1-9]/;

/**
 * Parses a real number. Accepts decimal and exponent notation and products/quotients with `pi`,
 * e.g. `0.5`, `-1e-3`, `pi`, `pi/4`, `3*pi/2`, `-pi`. Rejects everything else (no NaN, no
 * Infinity), literals beyond the range of a double (`1e400`) and non-zero literals that round to
 * zero (`1e-400`), naming the cause.
 *
 * @example
 * ```ts
 * parseNumber('3*pi/2', '--init'); // 4.71238898038469
 * parseNumber('1e-400', '--h');    // throws: underflows to 0
 * ```
 */
export function parseNumber(text: string, where: string): number {
  const s = text.trim();
  if (s === '') throw new UsageError('empty number', where);
  let sign = 1;
  let body = s;
  if (body.startsWith('-') && /^-\s*pi/i.test(body)) {
    sign = -1;
    body = body.slice(1);
  }
  const tokens = body.split(/([*/])/);
  let value = 1;
  let op = '*';
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!.trim();
    if (i % 2 === 1) {
      op = tok;
      continue;
    }
    let v: number;
    if (/^pi$/i.test(tok)) v = Math.PI;
    else if (NUMBER.test(tok)) {
      v = Number(tok);
      if (!Number.isFinite(v))
        throw new UsageError(
          `number ${quoteUser(text)} is beyond the range of a double (|x| < 1.8e308)`,
          where,
        );
      if (v === 0 && NON_ZERO_MANTISSA.test(tok))
        throw new UsageError(
          `number ${quoteUser(text)} underflows to 0 (the smallest positive double is 5e-324)`,
          where,
        );
    } else throw new UsageError(`malformed number ${quoteUser(text)}`, where);
    value = op === '*' ? value * v : value / v;
  }
  if (!Number.isFinite(value))
    throw new UsageError(`number ${quoteUser(text)} is not finite`, where);
  return sign * value;
}

/**
 * Parses a comma list of numbers: `1,0.5,-0.2`.
 *
 * @example
 * ```ts
 * parseVector('1,pi/2', '--init q0'); // [1, 1.5707963267948966]
 * ```
 */
export function parseVector(text: string, where: string): number[] {
  if (text.trim() === '') throw new UsageError('empty list', where);
  return text.split(',').map((part, i) => parseNumber(part, `${where}[${i}]`));
}

/**
 * Parses a count flag (`--steps`, `--every`, `--n`, …): an integer in decimal or exponent notation
 * (`1000`, `1e6`), at least `min` and at most `max`.
 *
 * @throws UsageError naming the flag, with the limit when the count is over it.
 * @example
 * ```ts
 * parseCount('1e6', '--steps', 1, 1e8); // 1000000
 * parseCount('1e12', '--steps', 1, 1e8); // throws: 1e12 is over the limit of 1e8
 * ```
 */
export function parseCount(
  text: string,
  where: string,
  min: number,
  max: number,
  what = 'value',
): number {
  const s = text.trim();
  const kind = min >= 1 ? 'a positive integer' : 'a non-negative integer';
  if (!NUMBER.test(s) || s.startsWith('-') || s.startsWith('+'))
    throw new UsageError(`expected ${kind}, got ${quoteUser(text)}`, where);
  const v = Number(s);
  if (v > max)
    throw new UsageError(
      `${what} ${formatCount(v)} is over the limit of ${formatCount(max)}`,
      where,
    );
  if (!Number.isInteger(v)) throw new UsageError(`expected ${kind}, got ${quoteUser(text)}`, where);
  if (v < min)
    throw new UsageError(
      min <= 1
        ? `expected ${kind}, got ${quoteUser(text)}`
        : `${what} must be at least ${min}, got ${formatCount(v)}`,
      where,
    );
  return v;
}

/**
 * Parses a positive integer flag value (a count without a stated limit beyond the safe integers).
 *
 * @example
 * ```ts
 * parsePositiveInt('40', '--n'); // 40
 * ```
 */
export function parsePositiveInt(text: string, where: string): number {
  return parseCount(text, where, 1, Number.MAX_SAFE_INTEGER);
}

/**
 * Parses repeated `name=value` options into a map of comma lists.
 *
 * @example
 * ```ts
 * parseAssignments(['k=2', 'q0=1,0'], '--param'); // Map { 'k' => [2], 'q0' => [1, 0] }
 * ```
 */
export function parseAssignments(items: readonly string[], flag: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected name=value, got ${quoteUser(item)}`, flag);
    const name = item.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`bad name ${quoteUser(name)}`, flag);
    out.set(name, parseVector(item.slice(eq + 1), `${flag} ${name}`));
  }
  return out;
}
