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
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
for (const f of readdirSync(dist)) if (/^bundle-.*\.js$/.test(f)) rmSync(dist + f);

const result = await build({
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
  metafile: true,
});

// esbuild writes every top-level `const` of the bundled modules as `var` (deliberately, for other
// engines' TDZ costs; no option turns it off). V8 reads a module-level `const` that holds a number
// as a constant in optimized code, a `var` from its context slot at every use: the rigid body's
// Newton kernel indexes its scratch array by such constants (`sc[X + 1]`), and the whole
// `geomech simulate rigid-body` process for 10^6 steps took ~15% more CPU from the bundle than
// from tsc's modules (issue 20). So a top-level `var NAME = <number>;` of an output chunk becomes
// `const` again when NAME was a top-level `const` in an input module and no input declares it
// otherwise at the top level (so it is not a renamed `let` that the program assigns).
const declared = (kind, text) =>
  new Set(
    [...text.matchAll(new RegExp(`^(?:export )?${kind} ([A-Za-z_$][\\w$]*)\\b`, 'gm'))].map(
      (m) => m[1],
    ),
  );
const constants = new Set();
const others = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const text = readFileSync(input, 'utf8');
  for (const name of declared('const', text)) constants.add(name);
  for (const kind of ['let', 'var', 'function', 'class', 'async function'])
    for (const name of declared(kind, text)) others.add(name);
}
const NUMBER_VAR = /^var ([A-Za-z_$][\w$]*) = (-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?);$/gm;
let restored = 0;
for (const f of readdirSync(dist)) {
  if (!f.endsWith('.js') || !(f.startsWith('bundle-') || f === 'geomech.js' || f === 'worker.js'))
    continue;
  const text = readFileSync(dist + f, 'utf8');
  const topLevel = [...text.matchAll(/^var ([A-Za-z_$][\w$]*)\b/gm)].map((m) => m[1]);
  const once = (name) => topLevel.filter((n) => n === name).length === 1;
  const next = text.replace(NUMBER_VAR, (line, name, value) => {
    if (!constants.has(name) || others.has(name) || !once(name)) return line;
    restored++;
    return `const ${name} = ${value};`;
  });
  if (next !== text) writeFileSync(dist + f, next);
}
if (restored === 0)
  throw new Error('bundle.mjs: no numeric top-level constant restored (esbuild changed?)');

// commander requires `node:child_process` when its module loads, for the one feature that needs it
// (executable subcommands, which geomech does not use): loading it cost each sweep worker thread
// 7–22 ms of its start-up (issue 22). Its only uses are `childProcess.spawn(...)`, so the
// `require` becomes a getter that loads the module on the first such call.
const CHILD_PROCESS = 'var childProcess = __require("node:child_process");';
const LAZY_CHILD_PROCESS =
  'var childProcess = { get spawn() { return __require("node:child_process").spawn; } };';
let lazied = 0;
for (const f of readdirSync(dist)) {
  if (!f.endsWith('.js') || !(f.startsWith('bundle-') || f === 'geomech.js' || f === 'worker.js'))
    continue;
  const text = readFileSync(dist + f, 'utf8');
  const parts = text.split(CHILD_PROCESS);
  if (parts.length === 1) continue;
  const uses = [...text.matchAll(/\bchildProcess\.(\w+)/g)].map((m) => m[1]);
  if (uses.some((u) => u !== 'spawn'))
    throw new Error(`bundle.mjs: commander uses childProcess.${uses.find((u) => u !== 'spawn')}`);
  lazied += parts.length - 1;
  writeFileSync(dist + f, parts.join(LAZY_CHILD_PROCESS));
}
if (lazied !== 1)
  throw new Error(`bundle.mjs: commander's require of node:child_process found ${lazied} times`);
