import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectCliHelp, parseCommands, renderCliReference } from '../src/cliReference.js';

const repo = join(__dirname, '..', '..', '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'geomech.js');
const built = existsSync(join(repo, 'packages', 'cli', 'dist', 'bin.js'));
const page = join(__dirname, '..', 'pages', 'cli-reference.md');

const run = (args: readonly string[]): string =>
  execFileSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '80', NO_COLOR: '1' },
  });

describe('parseCommands', () => {
  it("lists the commands of commander's help without `help`, continuation lines skipped", () => {
    const help = [
      'Usage: geomech [options] [command]',
      '',
      'Commands:',
      '  list [options]               list the built-in systems and problems with their',
      '                               methods, parameters and defaults',
      '  simulate [options] <system>  integrate a built-in system',
      '  help [command]               display help for command',
      '',
    ].join('\n');
    expect(parseCommands(help)).toEqual(['list', 'simulate']);
  });

  it('rejects a help text without commands', () => {
    expect(() => parseCommands('Usage: x\n')).toThrow(/Commands:/);
  });
});

describe('renderCliReference', () => {
  it('renders a table of commands and one fenced help block per command', () => {
    const md = renderCliReference([
      { command: undefined, help: 'Usage: geomech [options] [command]\n\nTop.\n' },
      { command: 'list', help: 'Usage: geomech list [options]\n\nlist the systems\n\nOptions:\n' },
    ]);
    expect(md).toContain('| [`geomech list`](#geomech-list) | list the systems |');
    expect(md).toContain('## `geomech list`\n\n```text\nUsage: geomech list [options]');
    expect(md.match(/```text/g)?.length).toBe(2);
  });
});

describe.skipIf(!built)('pages/cli-reference.md matches the built CLI', () => {
  it('equals the page regenerated from the current --help output (run `pnpm --filter @geomech/docs cli-reference` to update)', () => {
    const expected = renderCliReference(collectCliHelp(run));
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(page, 'utf8')).toBe(expected);
  }, 60_000);
});
