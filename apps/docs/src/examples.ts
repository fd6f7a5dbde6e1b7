/**
 * Extraction of the editable browser examples of a page: fenced blocks whose info string holds the
 * word `example` (` ```js example `). The site turns each into a `RunnableExample` component
 * (`pages/.vitepress/config.ts`), and `test/runnable.test.ts` runs each in Node with the same
 * runner (`src/runner.ts`), so no example rots.
 *
 * @module
 */

/** A fenced code block marked as an editable example. */
export interface ExampleBlock {
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence in the page. */
  readonly line: number;
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]+)?(.*)$/;

/** True when a fence info string (language and the rest) marks an editable example. */
export function isExampleInfo(info: string): boolean {
  return /(^|\s)example(\s|$)/.test(info.trim());
}

/**
 * Returns the example blocks of a Markdown page in page order. Examples are plain JavaScript:
 * a block marked `example` whose language is not `js` is an error, as is an unclosed fence.
 *
 * @example
 * ```ts
 * extractExampleBlocks('```js example\nplot(spec)\n```\n'); // [{ lang: 'js', code: 'plot(spec)\n', line: 1 }]
 * ```
 */
export function extractExampleBlocks(markdown: string): ExampleBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const lang = open[2] ?? '';
    const info = open[3] ?? '';
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(fence); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`unclosed code fence opened at line ${start + 1}`);
    if (!isExampleInfo(info)) continue;
    if (lang !== 'js')
      throw new Error(`example at line ${start + 1} must be plain JavaScript (\`\`\`js example)`);
    blocks.push({ lang, code: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}
