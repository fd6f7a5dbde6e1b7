/**
 * Every size a user of the CLI controls, with its limit. Each is checked before any work and a
 * request over it is refused with exit code 2 and one line naming the limit (CLI README,
 * "Limits"). The numbers are chosen so that a request at the limit still ends within minutes and a
 * few hundred MB on a laptop; the reasons are stated beside each.
 *
 * @module
 */
import { UsageError } from './errors.js';

/**
 * Most steps of one `simulate` run: 10⁸. The cheapest built-in step costs ≈ 1 µs, a Newton step of
 * a larger system ≈ 100 µs, so a run at the limit takes minutes to hours, never days; with
 * `--every` its memory stays small.
 */
export const MAX_STEPS = 100_000_000;

/**
 * Most links of the Ziegler column (`--param n`): 1000. Its steps work on dense (2n)×(2n)
 * matrices: at n = 1000 a RATTLE step takes ≈ 1 s and ≈ 200 MB (measured), and both grow as n²
 * to n³ (n = 20 000 took 8 GB for one step).
 */
export const MAX_ZIEGLER_LINKS = 1000;

/**
 * Most steps n of an optimal-control problem (`solve --n`, `--param n`): 10⁴. Memory grows
 * linearly (≈ 2.4 KB per step: n = 10⁷ needed 24 GB); at n = 2000 a solve takes ≈ 10 s
 * (measured), and h = 1/n = 10⁻⁴ is far finer than any of these problems needs.
 */
export const MAX_SOLVE_STEPS = 10_000;

/** Most intermediate problems of `solve --continuation`: 100 (each is a full solve). */
export const MAX_CONTINUATION = 100;

/** Most Newton (or interior-point) iterations per solve or step, `--max-iter`: 10⁴. */
export const MAX_ITERATIONS = 10_000;

/** Most levels of `geomech order --levels`: 20 (the finest step is h0/2¹⁹). */
export const MAX_ORDER_LEVELS = 20;

/**
 * Most steps of all levels of one `geomech order` study together: 10⁷. Level k runs
 * steps0·2^k steps, so the total is steps0·(2^levels − 1): the work doubles with each level.
 */
export const MAX_ORDER_STEPS = 10_000_000;

/**
 * Writes a count for a message: below 10⁶ as it is, above in exponent form with up to six
 * significant digits (`1e8`, `4.29497e9`), non-finite as `more than 1.8e308`.
 *
 * @example
 * ```ts
 * formatCount(100_000_000); // '1e8'
 * formatCount(2048);        // '2048'
 * ```
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? 'more than 1.8e308' : String(n);
  if (Math.abs(n) < 1e6) return String(n);
  return Number(n.toPrecision(6)).toExponential().replace('e+', 'e');
}

/**
 * Checks `value` against an inclusive upper limit.
 * @throws UsageError `<what> <value> is over the limit of <limit><unit>` at `where`.
 */
export function checkLimit(
  what: string,
  value: number,
  limit: number,
  where: string,
  hint = '',
): void {
  if (value > limit)
    throw new UsageError(
      `${what} ${formatCount(value)} is over the limit of ${formatCount(limit)}${hint ? `; ${hint}` : ''}`,
      where,
    );
}

/**
 * Writes a real number for a message with three significant digits: `0.259`, `1.41e-6`, `7.07e5`.
 *
 * @example
 * ```ts
 * formatShort(Math.sqrt(2e-12)); // '1.41e-6'
 * formatShort(0.25853849);       // '0.259'
 * ```
 */
export function formatShort(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(3)));
  const [m, e] = x.toExponential(2).split('e') as [string, string];
  return `${Number(m)}e${Number(e)}`;
}

/** Limits of `geomech sweep` specs, checked before any work (each refused with exit code 2 and one line). */
export const SWEEP_LIMITS = {
  /** Points of one sweep (grid size × samples). */
  points: 1_000_000,
  /** Values of one grid axis. */
  axisValues: 100_000,
  /** Grid axes plus sampled variables. */
  axes: 16,
  /** Summary outputs per point. */
  outputs: 64,
  /** Worker threads. */
  workers: 256,
  /** Shards of one sweep (`--shard K/N`). */
  shards: 100_000,
  /** Length of a vector value. */
  vector: 256,
  /** Size of the spec file, in characters. */
  specChars: 1_000_000,
  /** A point's time budget (`timeoutMs`, `--point-timeout`), in ms: one day. */
  timeoutMs: 86_400_000,
} as const;
