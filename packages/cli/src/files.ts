/**
 * Safe file input and output of the CLI.
 *
 * Input (`--model`, `--guess`): the file is opened without blocking, must be a regular file (not
 * `/dev/zero`, a FIFO or a directory), its size is checked against the flag's limit before a byte
 * is read, the read itself stops one byte past the limit (a file that grows meanwhile is still
 * refused), and the bytes must be UTF-8.
 *
 * Output (`--out`, `--plot`): paths are checked before the run (the directory exists and is
 * writable, the target is not a directory); the text is written in chunks to a temporary file in
 * the same directory, flushed to the disk (fsync) and renamed over the target only when every
 * output of the run is complete, so a failed write (full disk, quota) leaves the previous file as
 * it was and no truncated file behind. A target that exists and is not a regular file (`/dev/null`,
 * `/dev/stdout`, a FIFO) is written in place: there is nothing to replace atomically.
 *
 * @module
 */
import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { quoteUser, UsageError } from './errors.js';

/** Largest model file (`--model`) read, in bytes: 1 MiB (the model reader's own cap is 10⁶ characters). */
export const MAX_MODEL_BYTES = 2 ** 20;

/**
 * Largest guess file (`--guess`) read, in bytes: 64 MiB, about 10× the JSON output of the largest
 * problem `geomech solve` accepts (n = 10⁴ steps, ≈ 20 numbers per state).
 */
export const MAX_GUESS_BYTES = 2 ** 26;

/** The file-system calls used here; tests replace some of them to simulate a full disk. */
export type FileSystem = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'fstatSync'
  | 'readSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'closeSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'statSync'
  | 'accessSync'
  | 'fchmodSync'
  | 'constants'
>;

/** Human-readable size: `1 MiB`, `17.2 GB`, `512 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) {
      const v = bytes / size;
      return `${Number.isInteger(v) ? v : v.toPrecision(3)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** The system error's code (`ENOENT`, `ENOSPC`, …), if it has one. */
function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EXDEV: 'the temporary file and the target are on different file systems',
};

/** One phrase for a system error: `no space left on device (ENOSPC)`. */
export function describeSystemError(err: unknown): string {
  const code = codeOf(err);
  if (code !== undefined) return `${REASONS[code] ?? 'system error'} (${code})`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Reads a UTF-8 text file of at most `limit` bytes given by `flag`, refusing anything else with a
 * {@link UsageError} (exit code 2) that names the flag and the file.
 *
 * @throws UsageError when the file is missing, not a regular file, larger than `limit` or not UTF-8.
 * @example
 * ```ts
 * readTextFile('examples/pendulum.json', '--model', MAX_MODEL_BYTES).startsWith('{'); // true
 * readTextFile('/dev/zero', '--model', MAX_MODEL_BYTES); // throws: not a regular file
 * ```
 */
export function readTextFile(
  path: string,
  flag: string,
  limit: number,
  fs: FileSystem = nodeFs,
): string {
  const where = `${flag} ${quoteUser(path)}`;
  if (path === '') throw new UsageError('empty file name', flag);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer must not hang
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(`cannot open the file: ${describeSystemError(err)}`, where);
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw new UsageError('is a directory, not a file', where);
    if (!st.isFile())
      throw new UsageError(
        'is not a regular file (a device, FIFO or socket); give a JSON file',
        where,
      );
    if (st.size > limit)
      throw new UsageError(
        `file of ${formatBytes(st.size)} is over the limit of ${formatBytes(limit)} for ${flag}`,
        where,
      );
    // read at most limit + 1 bytes: a file that grew since fstat is still refused
    const buf = Buffer.alloc(Math.min(limit + 1, Math.max(st.size + 1, 1)));
    let length = 0;
    for (;;) {
      if (length === buf.length) break;
      let n: number;
      try {
        n = fs.readSync(fd, buf, length, buf.length - length, null);
      } catch (err) {
        throw new UsageError(`cannot read the file: ${describeSystemError(err)}`, where);
      }
      if (n === 0) break;
      length += n;
    }
    if (length > limit)
      throw new UsageError(
        `file grew past the limit of ${formatBytes(limit)} for ${flag} while being read`,
        where,
      );
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, length));
    } catch {
      throw new UsageError('is not UTF-8 text', where);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** What an output path is: a missing or regular file (written atomically) or a device or FIFO. */
type OutputKind = 'atomic' | 'in-place';

/**
 * Checks an output path before a run: the parent directory exists and is writable, the target (if
 * it exists) is not a directory; for `--plot` the name ends in `.svg`.
 *
 * @returns how the file will be written: `'atomic'` (temporary file and rename) or `'in-place'`
 *   (an existing device or FIFO such as `/dev/null`).
 * @throws UsageError naming the flag and the path.
 * @example
 * ```ts
 * checkOutputPath('run.json', '--out'); // 'atomic' (when the current directory is writable)
 * checkOutputPath('/no/such/dir/run.json', '--out'); // throws: directory does not exist
 * ```
 */
export function checkOutputPath(path: string, flag: string, fs: FileSystem = nodeFs): OutputKind {
  const where = `${flag} ${quoteUser(path)}`;
  if (path === '') throw new UsageError('empty file name', flag);
  if (path.endsWith('/')) throw new UsageError('names a directory, not a file', where);
  let existing: nodeFs.Stats | undefined;
  try {
    existing = fs.statSync(path);
  } catch (err) {
    if (codeOf(err) !== 'ENOENT')
      throw new UsageError(`cannot use the path: ${describeSystemError(err)}`, where);
  }
  if (existing !== undefined) {
    if (existing.isDirectory()) throw new UsageError('is a directory, not a file', where);
    if (!existing.isFile()) {
      if (!(existing.isCharacterDevice() || existing.isFIFO()))
        throw new UsageError('is not a regular file, a character device or a FIFO', where);
      try {
        fs.accessSync(path, fs.constants.W_OK);
      } catch (err) {
        throw new UsageError(`cannot write: ${describeSystemError(err)}`, where);
      }
      return 'in-place';
    }
    try {
      fs.accessSync(path, fs.constants.W_OK);
    } catch (err) {
      throw new UsageError(`cannot write the file: ${describeSystemError(err)}`, where);
    }
  }
  const dir = dirname(path);
  let dirStat: nodeFs.Stats;
  try {
    dirStat = fs.statSync(dir);
  } catch (err) {
    throw new UsageError(
      `directory ${quoteUser(dir)} does not exist or cannot be used: ${describeSystemError(err)}`,
      where,
    );
  }
  if (!dirStat.isDirectory()) throw new UsageError(`${quoteUser(dir)} is not a directory`, where);
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    throw new UsageError(
      `cannot create files in directory ${quoteUser(dir)}: ${describeSystemError(err)}`,
      where,
    );
  }
  return 'atomic';
}

/** An output file being written: chunks, then `commit` (rename into place) or `abort`. */
export interface OutputFile {
  write(chunk: string): void;
  /** Flushes the text to the disk and moves it into place. */
  commit(): void;
  /** Removes the temporary file; the target is left as it was. Never throws. */
  abort(): void;
}

let serial = 0;

/**
 * Opens `path` for writing: a temporary file beside it (same directory, so the rename is atomic)
 * for a regular or missing target, the target itself for a device or FIFO. Errors are
 * {@link UsageError}s naming the flag and the path; a failed `write` or `commit` removes the
 * temporary file, so the previous file stays intact.
 *
 * @example
 * ```ts
 * const f = openOutputFile('run.json', '--out');
 * f.write('{"ok":true}\n');
 * f.commit(); // run.json now holds the text; before this line it held its old contents
 * ```
 */
export function openOutputFile(path: string, flag: string, fs: FileSystem = nodeFs): OutputFile {
  const where = `${flag} ${quoteUser(path)}`;
  const kind = checkOutputPath(path, flag, fs);
  const fail = (what: string, err: unknown): UsageError =>
    new UsageError(
      `cannot write the file: ${describeSystemError(err)}${kind === 'atomic' ? `; ${what}` : ''}`,
      where,
    );
  if (kind === 'in-place') {
    let fd: number;
    try {
      fd = fs.openSync(path, 'w');
    } catch (err) {
      throw fail('', err);
    }
    let closed = false;
    const close = () => {
      if (!closed) {
        closed = true;
        fs.closeSync(fd);
      }
    };
    return {
      write(chunk) {
        try {
          writeAll(fs, fd, chunk);
        } catch (err) {
          close();
          throw fail('', err);
        }
      },
      commit: close,
      abort() {
        try {
          close();
        } catch {}
      },
    };
  }
  let mode = 0o666; // the umask applies, as for any new file
  let existed = false;
  try {
    mode = fs.statSync(path).mode & 0o7777; // replacing a file keeps its permissions
    existed = true;
  } catch {}
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${serial++}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', mode);
    if (mode !== 0o666) fs.fchmodSync(fd, mode);
  } catch (err) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
        fs.unlinkSync(temp);
      } catch {}
    }
    throw new UsageError(
      `cannot create a temporary file in ${quoteUser(dirname(path))}: ${describeSystemError(err)}`,
      where,
    );
  }
  let open = true;
  const discard = () => {
    if (open) {
      open = false;
      try {
        fs.closeSync(fd);
      } catch {}
    }
    try {
      fs.unlinkSync(temp);
    } catch {}
  };
  const previous = existed ? 'the previous file is unchanged' : 'no file was written';
  return {
    write(chunk) {
      if (!open) throw new UsageError('file already closed', where);
      try {
        writeAll(fs, fd, chunk);
      } catch (err) {
        discard();
        throw fail(previous, err);
      }
    },
    commit() {
      if (!open) throw new UsageError('file already closed', where);
      try {
        fs.fsyncSync(fd);
        open = false;
        fs.closeSync(fd);
        fs.renameSync(temp, path);
      } catch (err) {
        discard();
        throw fail(previous, err);
      }
      syncDirectory(fs, dirname(path));
    },
    abort: discard,
  };
}

/** Writes the whole chunk (writeSync may write less than asked). */
function writeAll(fs: FileSystem, fd: number, chunk: string): void {
  const bytes = Buffer.from(chunk, 'utf8');
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes a rename durable (best effort: some file systems refuse fsync on directories). */
function syncDirectory(fs: FileSystem, dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {}
}
