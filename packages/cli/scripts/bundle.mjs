// Bundles the compiled `geomech` program (dist/, from tsc) into a few files for the process entry
// `bin/geomech.js` (issue 20: start-up). Node 20's ESM loader costs ~1.5 ms of CPU per module
// file (resolve, read, compile, link): the ~190 modules of the CLI and the four libraries took
// about 0.25 s of CPU before the first line of a 10-step run, and commander's CommonJS went
// through Node's CJS export lexer. esbuild joins them into one file per entry plus shared chunks
// (code splitting keeps `--version` and the lazily imported commands lazy), and commander's
// CommonJS becomes plain functions. The libraries are bundled from their built dist/ (their
// package `exports`), mathjs stays external: model/mathjs.ts loads it on demand with `require`.
//
// Output, next to tsc's files in dist/ so that paths relative to `import.meta.url` resolve as in
// tsc's dist/ (`../package.json` in version.ts; `./worker.js` in sweep/pool.ts, which in the
// bundle finds the bundled worker beside it):
//   dist/geomech.js   the entry of bin.ts (`run(argv)`)
//   dist/worker.js    the sweep's worker thread
//   dist/bundle-*.js  chunks shared by the two and the lazily imported modules
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
for (const f of readdirSync(dist)) if (/^bundle-.*\.js$/.test(f)) rmSync(dist + f);

await build({
  entryPoints: { geomech: `${dist}bin.js`, worker: `${dist}sweep/worker.js` },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'bundle-[hash]',
  external: ['mathjs'],
  // commander's CommonJS `require('node:events')` and the like, inside an ES module
  banner: {
    js: "import { createRequire as __geomechRequire } from 'node:module'; const require = __geomechRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
