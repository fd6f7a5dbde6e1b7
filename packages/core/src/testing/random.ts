/**
 * Seeded randomness for property tests: one integer seeds a whole sample, so a failing case is
 * reproducible from its seed.
 *
 * @module
 */

/**
 * A small deterministic PRNG (mulberry32, Tommy Ettinger's 32-bit mixer), uniform in [0, 1):
 * `rng(seed)` returns a generator; the same seed gives the same sequence on every platform.
 * Statistical quality is ample for test samples, not for cryptography or Monte Carlo at scale.
 *
 * @example
 * ```ts
 * const r = rng(42);
 * const x = r(); // in [0, 1), the same on every run
 * ```
 */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
