/**
 * The control sequence of `geomech simulate --input FILE`: one row of the inputs u_k per step,
 * as a JSON array of arrays (`[[0.1, 0], [0.2, 0], ...]`) or as CSV (one row per line, numbers
 * separated by commas; blank lines and lines starting with `#` are skipped, and a first line
 * that is not numeric is a header and skipped). Every row must have the same width and finite
 * numbers; the model's runner checks the width against its `inputs` and the row count against the
 * steps.
 *
 * @module
 */
import { quoteUser, UsageError } from './errors.js';
import type { ControlSequence } from './runner.js';

/**
 * Largest `--input` file read, in bytes: 64 MiB, about 3·10⁶ rows of one input written with full
 * precision (a run that long should take its inputs from a model expression in t instead).
 */
export const MAX_INPUT_BYTES = 2 ** 26;

/**
 * Parses a control sequence (module doc) from the text of `file`.
 *
 * @throws UsageError naming `--input`, the file and the row of the first fault: bad JSON, not a
 *   list of lists, an empty file, rows of different widths, a non-finite or non-numeric entry.
 * @example
 * ```ts
 * parseControlSequence('[[1, 2], [3, 4]]', 'u.json'); // { rows: 2, width: 2, data: [1, 2, 3, 4] }
 * parseControlSequence('u\n0.5\n0.25\n', 'u.csv').rows; // 2
 * ```
 */
export function parseControlSequence(text: string, file: string): ControlSequence {
  const trimmed = text.trimStart();
  const rows = trimmed.startsWith('[') ? jsonRows(trimmed, file) : csvRows(text, file);
  if (rows.length === 0) fail(file, 'no rows (one row of inputs per step)');
  const width = rows[0]!.length;
  if (width === 0) fail(file, 'row 1 is empty');
  const data = new Float64Array(rows.length * width);
  rows.forEach((row, k) => {
    if (row.length !== width)
      fail(file, `row ${k + 1} has ${row.length} numbers, row 1 has ${width}`);
    row.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isFinite(x))
        fail(file, `row ${k + 1}, column ${i + 1}: expected a finite number`);
      data[k * width + i] = x;
    });
  });
  return { rows: rows.length, width, data };
}

function fail(file: string, what: string): never {
  throw new UsageError(`${quoteUser(file)}: ${what}`, '--input');
}

function jsonRows(text: string, file: string): unknown[][] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    fail(file, `not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(doc)) fail(file, 'expected a JSON list of rows');
  return doc.map((row, k) => {
    if (!Array.isArray(row)) fail(file, `row ${k + 1} is not a list of numbers`);
    return row as unknown[];
  });
}

function csvRows(text: string, file: string): number[][] {
  const rows: number[][] = [];
  let first = true;
  const lines = text.split(/\r?\n/);
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((c) => c.trim());
    const numeric = cells.every((c) => c !== '' && !Number.isNaN(Number(c)));
    if (first && !numeric) {
      first = false; // a header line
      continue;
    }
    first = false;
    if (!numeric) fail(file, `line ${l + 1}: expected numbers separated by commas`);
    rows.push(cells.map(Number));
  }
  return rows;
}
