/**
 * Serializes simulation results as the contract's JSON object or CSV table. Numbers are written in
 * JavaScript's shortest round-trip form, so output is byte-for-byte deterministic; a non-finite
 * value is a numerical failure, never a silent `null` or `NaN`.
 *
 * The text is produced in chunks of about 64 KiB ({@link jsonChunks}, {@link csvChunks}), so an
 * output of any size allowed by {@link MAX_OUTPUT_BYTES} is written without building one string
 * (V8 strings end at 2²⁹ characters: "Invalid string length").
 *
 * @module
 */
import { NumericalFailure, oneSafeLine } from './errors.js';
import type { SimulationOutput } from './runner.js';

export type Format = 'json' | 'csv';

/** Largest output a run may produce, estimated before the run: 1 GiB of text. */
export const MAX_OUTPUT_BYTES = 2 ** 30;

/**
 * Bytes one number takes in the output at most: 24 characters for the longest shortest-round-trip
 * form of a double (`-2.2250738585072014e-308`) and one separator.
 */
export const BYTES_PER_NUMBER = 25;

/** Size of the chunks the serializers yield, in characters. */
const CHUNK = 2 ** 16;

/**
 * Upper estimate of the text of `states` kept states of `width` numbers each (t included):
 * {@link BYTES_PER_NUMBER} per number plus two brackets per state and field.
 *
 * @example
 * ```ts
 * estimateOutputBytes(10_000_001, 8, 6); // ≈ 2.1e9: over MAX_OUTPUT_BYTES
 * ```
 */
export function estimateOutputBytes(states: number, width: number, fields = 1): number {
  return states * (width * BYTES_PER_NUMBER + 2 * fields);
}

/** Number of kept states of a run of `steps` steps keeping every `every`-th (and the last). */
export function keptStates(steps: number, every: number): number {
  return Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
}

function num(x: number, field: string, row: number): string {
  if (!Number.isFinite(x))
    throw new NumericalFailure(`non-finite value ${x} in series '${field}'`, `state ${row}`);
  return String(x);
}

/** Checks that every series value is finite (the contract forbids NaN in output). */
export function assertFinite(out: SimulationOutput): void {
  for (let i = 0; i < out.count; i++) num(out.t[i]!, 't', i);
  for (const s of out.series) {
    for (let i = 0; i < out.count * s.width; i++) num(s.data[i]!, s.name, Math.floor(i / s.width));
  }
}

/**
 * The number of leading states whose every value is finite: what a failed run can still report
 * (the contract forbids NaN in output; the rows after the first non-finite one are dropped).
 */
export function finiteStates(out: SimulationOutput): number {
  for (let i = 0; i < out.count; i++) {
    if (!Number.isFinite(out.t[i]!)) return i;
    for (const s of out.series)
      for (let j = 0; j < s.width; j++) if (!Number.isFinite(s.data[i * s.width + j]!)) return i;
  }
  return out.count;
}

/** `out` cut to its first `count` states (views, no copies). */
export function truncated(out: SimulationOutput, count: number): SimulationOutput {
  if (count >= out.count) return out;
  return {
    ...out,
    count,
    t: out.t.subarray(0, count),
    series: out.series.map((s) => ({ ...s, data: s.data.subarray(0, count * s.width) })),
  };
}

/**
 * The contract's JSON document as chunks of text; the whole is one line followed by a newline.
 * Header entries come first, then `series`, then `stats`.
 */
export function* jsonChunks(
  header: Record<string, unknown>,
  out: SimulationOutput,
  stats: Record<string, number>,
): Generator<string> {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(header))
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  let buf = `{${parts.join(',')}${parts.length > 0 ? ',' : ''}"series":{"t":[`;
  for (let i = 0; i < out.count; i++) {
    buf += (i === 0 ? '' : ',') + num(out.t[i]!, 't', i);
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  }
  buf += ']';
  for (const s of out.series) {
    buf += `,${JSON.stringify(s.name)}:[`;
    for (let i = 0; i < out.count; i++) {
      if (i > 0) buf += ',';
      if (s.width === 1) buf += num(s.data[i]!, s.name, i);
      else {
        buf += '[';
        for (let j = 0; j < s.width; j++)
          buf += (j === 0 ? '' : ',') + num(s.data[i * s.width + j]!, s.name, i);
        buf += ']';
      }
      if (buf.length >= CHUNK) {
        yield buf;
        buf = '';
      }
    }
    buf += ']';
  }
  yield `${buf}},"stats":${JSON.stringify(stats)}}\n`;
}

/** The contract's JSON document, as one line followed by a newline (see {@link jsonChunks}). */
export function toJson(
  header: Record<string, unknown>,
  out: SimulationOutput,
  stats: Record<string, number>,
): string {
  return [...jsonChunks(header, out, stats)].join('');
}

/**
 * The trailing line that marks a CSV table as the partial result of a failed run:
 * `# ok=false reason=<one line>` (the CSV counterpart of the JSON's `"ok": false`).
 *
 * @example
 * ```ts
 * csvFailureLine('Newton did not converge\nat step 3'); // '# ok=false reason=Newton did not converge at step 3\n'
 * ```
 */
export function csvFailureLine(reason: string): string {
  return `# ok=false reason=${oneSafeLine(reason)}\n`;
}

/**
 * CSV as chunks: one header line (`t`, then each field, vector fields split as `q[0],q[1],...`),
 * one row per kept state, and for a failed run ({@link csvFailureLine}) a trailing marker line.
 */
export function* csvChunks(out: SimulationOutput, failure?: string): Generator<string> {
  const header = ['t'];
  for (const s of out.series) {
    if (s.width === 1) header.push(s.name);
    else for (let j = 0; j < s.width; j++) header.push(`${s.name}[${j}]`);
  }
  let buf = `${header.join(',')}\n`;
  for (let i = 0; i < out.count; i++) {
    buf += num(out.t[i]!, 't', i);
    for (const s of out.series)
      for (let j = 0; j < s.width; j++) buf += `,${num(s.data[i * s.width + j]!, s.name, i)}`;
    buf += '\n';
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  }
  if (failure !== undefined) buf += csvFailureLine(failure);
  yield buf;
}

/** CSV with one header line (see {@link csvChunks}). */
export function toCsv(out: SimulationOutput, failure?: string): string {
  return [...csvChunks(out, failure)].join('');
}
