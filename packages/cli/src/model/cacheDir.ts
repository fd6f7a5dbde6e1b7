/**
 * Where the cache of model files lives (see cache.ts), from the environment alone, so that the
 * process's start-up resolves it without loading the cache itself.
 *
 * @module
 */
import os from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment variables the cache reads. */
export type CacheEnv = Readonly<Record<string, string | undefined>>;

/**
 * The directory of the model-file cache, or undefined when the cache is off:
 * `GEOMECH_NO_CACHE` set to anything but `''` or `'0'` turns it off; otherwise
 * `GEOMECH_CACHE_DIR`, else `$XDG_CACHE_HOME/geomech` (an absolute `XDG_CACHE_HOME` only, as the
 * XDG base directory specification says), else `~/.cache/geomech`; undefined when none of these
 * is known (no home directory).
 *
 * @example
 * ```ts
 * modelCacheDir({ XDG_CACHE_HOME: '/tmp/c' });                       // '/tmp/c/geomech'
 * modelCacheDir({ GEOMECH_CACHE_DIR: '/tmp/g', XDG_CACHE_HOME: '/x' }); // '/tmp/g'
 * modelCacheDir({ GEOMECH_NO_CACHE: '1', GEOMECH_CACHE_DIR: '/tmp/g' }); // undefined
 * ```
 */
export function modelCacheDir(env: CacheEnv): string | undefined {
  const off = env.GEOMECH_NO_CACHE;
  if (off !== undefined && off !== '' && off !== '0') return undefined;
  const dir = env.GEOMECH_CACHE_DIR;
  if (dir !== undefined && dir !== '') return dir;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'geomech');
  let home: string;
  try {
    home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : os.homedir();
  } catch {
    return undefined;
  }
  return home === '' ? undefined : join(home, '.cache', 'geomech');
}
