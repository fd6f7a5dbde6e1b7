/**
 * Tools of the documentation site. For now: extraction of the runnable code blocks of a page, so
 * that every example on the site is executed by a test and cannot rot.
 *
 * @packageDocumentation
 */

/** A fenced code block marked runnable: ` ```ts runnable `. */
export interface RunnableBlock {
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence in the page. */
  readonly line: number;
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]+)?(.*)$/;

/**
 * Returns the fenced blocks of a Markdown page whose info string contains the word `runnable`,
 * in page order. Unclosed fences are an error, so a broken page fails its test.
 *
 * @example
 * ```ts
 * extractRunnableBlocks('```ts runnable\nconsole.log(1)\n```\n'); // [{ lang: 'ts', code: 'console.log(1)\n', line: 1 }]
 * ```
 */
export function extractRunnableBlocks(markdown: string): RunnableBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: RunnableBlock[] = [];
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
    if (/\brunnable\b/.test(info))
      blocks.push({ lang, code: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}
