/**
 * Support of the hostile-input suites (issue 18): `main()` run in-process with the real file
 * system (safe reads, atomic writes) or an injected one, and the check of the contract's one clean
 * error line.
 */
import { expect } from 'vitest';
import { checkOutputPath, type FileSystem, openOutputFile, readTextFile } from '../src/files.js';
import { type Io, main } from '../src/index.js';

/** Result of an in-process run. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `main(argv)` with captured stdout/stderr and real files (as the binary does), or files
 * through `fs` (to simulate a full disk). `stdout` may be replaced (to simulate a closed pipe).
 */
export async function run(
  argv: readonly string[],
  options: { fs?: FileSystem; tty?: boolean; stdout?: Io['stdout'] } = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const fs = options.fs;
  const io: Io = {
    stdout:
      options.stdout ??
      ((t) => {
        stdout += t;
      }),
    stderr: (t) => {
      stderr += t;
    },
    stderrIsTTY: options.tty ?? false,
    writeFile: (path, text) => {
      const f = openOutputFile(path, '--out', fs);
      f.write(text);
      f.commit();
    },
    readFile: (path, limit, flag) => readTextFile(path, flag, limit, fs),
    checkOutput: (path, flag) => {
      checkOutputPath(path, flag, fs);
    },
    openFile: (path, flag) => openOutputFile(path, flag, fs),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A character a terminal acts on (C0, DEL, C1, bidi controls, line separators). */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x200e ||
      c === 0x200f ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    )
      return true;
  }
  return false;
}

/**
 * Asserts the contract's failure output: exactly one line `geomech: error: <what> (<where>)`,
 * no control character in it, no stack trace, no "internal error".
 */
export function expectOneCleanLine(stderr: string): void {
  expect(stderr.endsWith('\n'), JSON.stringify(stderr)).toBe(true);
  const line = stderr.slice(0, -1);
  expect(line.includes('\n'), JSON.stringify(stderr)).toBe(false);
  expect(line).toMatch(/^geomech: error: .+ \(.+\)$/);
  expect(hasControl(line), JSON.stringify(line)).toBe(false);
  expect(line).not.toMatch(/internal error| {4}at |Error: /);
}
