/**
 * The package version, on its own so that `geomech --version` loads nothing else.
 *
 * @module
 */
import { createRequire } from 'node:module';

/**
 * The package version, read from package.json at run time.
 *
 * @example
 * ```ts
 * version(); // '0.0.0'
 * ```
 */
export function version(): string {
  const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
  return pkg.version;
}
