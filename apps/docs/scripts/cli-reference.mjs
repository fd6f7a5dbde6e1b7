// Writes pages/cli-reference.md from the built CLI's --help output (run after `tsc` and after the
// CLI is built: `pnpm --filter @geomech/docs build`). `--check` only compares and exits 1 on a
// difference.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectCliHelp, renderCliReference } from '../dist/cliReference.js';

const bin = fileURLToPath(new URL('../../../packages/cli/bin/geomech.js', import.meta.url));
const page = fileURLToPath(new URL('../pages/cli-reference.md', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url)))) {
  console.error('cli-reference: packages/cli is not built (run `pnpm build` first)');
  process.exit(1);
}
const run = (args) =>
  execFileSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '80', NO_COLOR: '1' },
  });
const md = renderCliReference(collectCliHelp(run));
if (process.argv.includes('--check')) {
  const old = existsSync(page) ? readFileSync(page, 'utf8') : '';
  if (old !== md) {
    console.error('cli-reference: pages/cli-reference.md is out of date');
    process.exit(1);
  }
} else if (!existsSync(page) || readFileSync(page, 'utf8') !== md) {
  writeFileSync(page, md);
  console.log('cli-reference: wrote pages/cli-reference.md');
}
