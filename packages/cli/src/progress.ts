/**
 * Progress reporting on stderr: a single self-overwriting line, shown only when stderr is a
 * terminal and `--quiet` was not given (CLI contract), throttled to ~10 updates per second.
 *
 * @module
 */

/** A progress sink; `done()` clears the line. */
export interface Progress {
  update(text: string, fraction?: number): void;
  done(): void;
}

const SILENT: Progress = { update: () => {}, done: () => {} };

/**
 * A progress line writer for `write` (stderr), or a silent one when `enabled` is false.
 * `fraction` in [0, 1] draws a 24-cell bar; without it only the text is shown.
 */
export function createProgress(
  write: (text: string) => void,
  enabled: boolean,
  now: () => number = () => performance.now(),
): Progress {
  if (!enabled) return SILENT;
  let last = -Infinity;
  let shown = false;
  let width = 0;
  return {
    update(text, fraction) {
      const t = now();
      if (t - last < 100 && fraction !== 1) return;
      last = t;
      let line = text;
      if (fraction !== undefined && Number.isFinite(fraction)) {
        const f = Math.min(1, Math.max(0, fraction));
        const cells = Math.round(f * 24);
        line = `[${'#'.repeat(cells)}${'.'.repeat(24 - cells)}] ${Math.round(f * 100)
          .toString()
          .padStart(3)}% ${text}`;
      }
      const pad = Math.max(0, width - line.length);
      width = line.length;
      write(`\r${line}${' '.repeat(pad)}`);
      shown = true;
    },
    done() {
      if (shown) write(`\r${' '.repeat(width)}\r`);
      shown = false;
      width = 0;
    },
  };
}
