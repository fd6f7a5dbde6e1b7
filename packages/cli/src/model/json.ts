/**
 * A strict JSON reader (RFC 8259) for model files. `JSON.parse` reports syntax errors in
 * engine-specific words and forgets duplicate keys; this reader names the line and column of every
 * syntax error, rejects duplicate keys, bounds the nesting depth (so no input can exhaust the
 * stack) and builds objects without a prototype (so keys like `__proto__` are plain data).
 *
 * @module
 */
import { ModelError } from './errors.js';

/** A JSON value; objects are prototype-less records. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object, created with a null prototype. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Deepest nesting of arrays and objects accepted (a model file needs 3). */
export const MAX_JSON_DEPTH = 64;

/** Largest model file accepted, in characters. */
export const MAX_MODEL_CHARS = 1_000_000;

/**
 * True for a JSON object as built by {@link parseJson} (not null, not a list).
 *
 * @example
 * ```ts
 * isJsonObject(parseJson('{"a": 1}', 'm.json')); // true
 * isJsonObject(parseJson('[1]', 'm.json'));      // false
 * ```
 */
export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Reader {
  private i: number;
  constructor(
    private readonly s: string,
    private readonly file: string,
  ) {
    // a leading byte-order mark is not part of the document (and counts no column)
    this.i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  /** Throws the syntax error at the current position (or at `at`). */
  fail(what: string, at = this.i): never {
    let line = 1;
    let col = 1;
    for (let k = this.s.charCodeAt(0) === 0xfeff ? 1 : 0; k < at && k < this.s.length; k++) {
      if (this.s.charCodeAt(k) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new ModelError(
      '(file)',
      `invalid JSON: ${what} at line ${line}, column ${col}`,
      this.file,
    );
  }

  private describe(): string {
    if (this.i >= this.s.length) return 'end of input';
    const c = this.s[this.i]!;
    return /[\x21-\x7e]/.test(c)
      ? `'${c}'`
      : `character U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  document(): JsonValue {
    this.ws();
    const v = this.value(0);
    this.ws();
    if (this.i < this.s.length) this.fail(`unexpected ${this.describe()} after the document`);
    return v;
  }

  private value(depth: number): JsonValue {
    const s = this.s;
    if (this.i >= s.length) this.fail('unexpected end of input, expected a value');
    const c = s[this.i]!;
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) this.fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.fail(`unexpected ${this.describe()}, expected a value`);
  }

  private object(depth: number): JsonObject {
    const out = Object.create(null) as JsonObject;
    this.i++; // {
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail(`unexpected ${this.describe()}, expected a "key"`);
      const keyAt = this.i;
      const key = this.string();
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${JSON.stringify(key)}`, keyAt);
      this.ws();
      if (this.s[this.i] !== ':') this.fail(`unexpected ${this.describe()}, expected ':'`);
      this.i++;
      this.ws();
      out[key] = this.value(depth);
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      this.fail(`unexpected ${this.describe()}, expected ',' or '}'`);
    }
  }

  private array(depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.i++; // [
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(depth));
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      this.fail(`unexpected ${this.describe()}, expected ',' or ']'`);
    }
  }

  private number(): number {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (m === null) this.fail('malformed number');
    this.i += m[0].length;
    return Number(m[0]);
  }

  private string(): string {
    const s = this.s;
    this.i++; // opening quote
    let out = '';
    let start = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail('unterminated string');
      const c = s.charCodeAt(this.i);
      if (c === 34) {
        out += s.slice(start, this.i);
        this.i++;
        return out;
      }
      if (c < 32) this.fail('control character in string (escape it)');
      if (c !== 92) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      const e = s[this.i + 1];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && Object.hasOwn(simple, e)) {
        out += simple[e]!;
        this.i += 2;
      } else if (e === 'u') {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('malformed \\u escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.i += 6;
      } else {
        this.fail('unknown escape in string');
      }
      start = this.i;
    }
  }
}

/**
 * Parses a model file's text as strict JSON (RFC 8259; a leading byte-order mark is skipped).
 *
 * @param file - the file name, for the error's `where`.
 * @throws {@link ModelError} (a UsageError, exit code 2) naming the line and column of a syntax
 *   error, a duplicate key, nesting deeper than {@link MAX_JSON_DEPTH} or a text longer than
 *   {@link MAX_MODEL_CHARS}.
 * @example
 * ```ts
 * parseJson('{"kind": "contact"}', 'm.json'); // { kind: 'contact' }
 * parseJson('{"kind" "contact"}', 'm.json');  // throws "(file): invalid JSON: unexpected '"', expected ':' at line 1, column 8"
 * ```
 */
export function parseJson(text: string, file: string): JsonValue {
  if (text.length > MAX_MODEL_CHARS)
    throw new ModelError('(file)', `file too large (over ${MAX_MODEL_CHARS} characters)`, file);
  return new Reader(text, file).document();
}
