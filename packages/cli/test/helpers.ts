/**
 * Shared test helpers of the CLI suites: the built binary run as a user would, and `main()` run
 * in-process with captured output.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Io, main } from '../src/index.js';

/** The built binary (run `pnpm build` first). */
export const bin = join(__dirname, '..', 'bin', 'geomech.js');

/** The contract's one error line. */
export const ERROR_LINE = /^geomech: error: .+ \(.+\)\n$/;

/** The model cache of the binary's runs: one per test file, never the user's (removed at exit). */
const testCache = mkdtempSync(join(tmpdir(), 'geomech-test-cache-'));
process.on('exit', () => rmSync(testCache, { recursive: true, force: true }));
// every binary a test file starts, however it spawns it (sweeps' workers included), inherits it
process.env.GEOMECH_CACHE_DIR = testCache;

/** Runs the built binary as a user would (its model cache in a temporary directory). */
export function geomech(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GEOMECH_CACHE_DIR: testCache, GEOMECH_NO_CACHE: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs main() in-process with captured output. */
export async function inProcess(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const files = new Map<string, string>();
  const io: Io = {
    stderrIsTTY: false,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    writeFile: (p, t) => {
      files.set(p, t);
    },
  };
  const code = await main(args, io);
  return { code, stdout, stderr, files };
}

/** The JSON document of `geomech simulate`. */
export interface SimulateDoc {
  ok: boolean;
  h: number;
  steps: number;
  params: Record<string, number | number[]>;
  init: Record<string, number | number[]>;
  series: Record<string, (number | number[])[]>;
  stats: { newtonIterations: number; maxResidual: number };
}

/** Runs `geomech simulate …` in-process, expecting success and no stderr. */
export async function simulate(...args: string[]): Promise<SimulateDoc> {
  const r = await inProcess('simulate', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as SimulateDoc;
}

/** Width of each kept state of a series (1 for scalars), checked equal across states. */
export function widthOf(values: (number | number[])[]): number {
  const widths = new Set(values.map((v) => (Array.isArray(v) ? v.length : 1)));
  expect(widths.size).toBe(1);
  return [...widths][0]!;
}
