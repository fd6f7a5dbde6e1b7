/**
 * Parsing of command-line values: numbers (with `pi`), comma lists and `name=value` pairs.
 *
 * @module
 */
import { UsageError } from './errors.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Parses a real number. Accepts decimal and exponent notation and products/quotients with `pi`,
 * e.g. `0.5`, `-1e-3`, `pi`, `pi/4`, `3*pi/2`, `-pi`. Rejects everything else (no NaN, no Infinity).
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
    else if (NUMBER.test(tok)) v = Number(tok);
    else throw new UsageError(`malformed number '${text}'`, where);
    value = op === '*' ? value * v : value / v;
  }
  if (!Number.isFinite(value)) throw new UsageError(`number '${text}' is not finite`, where);
  return sign * value;
}

/** Parses a comma list of numbers: `1,0.5,-0.2`. */
export function parseVector(text: string, where: string): number[] {
  if (text.trim() === '') throw new UsageError('empty list', where);
  return text.split(',').map((part, i) => parseNumber(part, `${where}[${i}]`));
}

/** Parses a positive integer flag value. */
export function parsePositiveInt(text: string, where: string): number {
  const s = text.trim();
  if (!/^\d+$/.test(s)) throw new UsageError(`expected a positive integer, got '${text}'`, where);
  const v = Number(s);
  if (v < 1 || !Number.isSafeInteger(v))
    throw new UsageError(`expected a positive integer, got '${text}'`, where);
  return v;
}

/** Parses repeated `name=value` options into a map of comma lists. */
export function parseAssignments(items: readonly string[], flag: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected name=value, got '${item}'`, flag);
    const name = item.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`bad name '${name}'`, flag);
    out.set(name, parseVector(item.slice(eq + 1), `${flag} ${name}`));
  }
  return out;
}
