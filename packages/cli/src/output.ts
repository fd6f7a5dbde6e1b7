/**
 * Serializes simulation results as the contract's JSON object or CSV table. Numbers are written in
 * JavaScript's shortest round-trip form, so output is byte-for-byte deterministic; a non-finite
 * value is a numerical failure, never a silent `null` or `NaN`.
 *
 * @module
 */
import { NumericalFailure } from './errors.js';
import type { SimulationOutput } from './runner.js';

export type Format = 'json' | 'csv';

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

/** The contract's JSON document, as one line followed by a newline. */
export function toJson(
  header: Record<string, unknown>,
  out: SimulationOutput,
  stats: Record<string, number>,
): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(header))
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  const series: string[] = [
    `"t":[${Array.from(out.t.subarray(0, out.count), (x, i) => num(x, 't', i)).join(',')}]`,
  ];
  for (const s of out.series) {
    const items: string[] = new Array<string>(out.count);
    for (let i = 0; i < out.count; i++) {
      if (s.width === 1) items[i] = num(s.data[i]!, s.name, i);
      else {
        const row: string[] = new Array<string>(s.width);
        for (let j = 0; j < s.width; j++) row[j] = num(s.data[i * s.width + j]!, s.name, i);
        items[i] = `[${row.join(',')}]`;
      }
    }
    series.push(`${JSON.stringify(s.name)}:[${items.join(',')}]`);
  }
  parts.push(`"series":{${series.join(',')}}`);
  parts.push(`"stats":${JSON.stringify(stats)}`);
  return `{${parts.join(',')}}\n`;
}

/** CSV with one header line: `t`, then each field, vector fields split as `q[0],q[1],...`. */
export function toCsv(out: SimulationOutput): string {
  const header = ['t'];
  for (const s of out.series) {
    if (s.width === 1) header.push(s.name);
    else for (let j = 0; j < s.width; j++) header.push(`${s.name}[${j}]`);
  }
  const lines = [header.join(',')];
  for (let i = 0; i < out.count; i++) {
    const row = [num(out.t[i]!, 't', i)];
    for (const s of out.series)
      for (let j = 0; j < s.width; j++) row.push(num(s.data[i * s.width + j]!, s.name, i));
    lines.push(row.join(','));
  }
  return `${lines.join('\n')}\n`;
}
