/**
 * Citations of the papers on the site. The code and its TSDoc number the five source papers 000–004
 * ("seed 003") and cite sections of the repository's specification notes on them ("spec 004
 * §8.2"), which are not part of the site. This markdown-it plugin turns every such mention in the
 * text of a page (the API reference included, outside code and links) into a link to the paper's
 * entry on the Papers page, `/papers#seed-003`, where the full reference is.
 *
 * @module
 */

/** The papers' numbers, and the anchor of each on the Papers page. */
export const PAPERS = ['000', '001', '002', '003', '004'] as const;

/** The anchor of paper `n` on the Papers page. */
export const paperAnchor = (n: string): string => `seed-${n}`;

/**
 * "seed 003", "seeds 000–002", "spec 004 §8.2", "spec 001 §7.2–7.3", "seed 003 §6.1", case
 * insensitive; group 2 is the (first) paper number.
 */
export const CITATION =
  /\b(seeds?|specs?) (00[0-4])(?:[–-]00[0-4])?(?: ?§ ?\d+(?:\.\d+)*(?:[–-]\d+(?:\.\d+)*)?)?/gi;

/** One piece of a text after {@link splitCitations}: plain text, or a citation and its anchor. */
export type CitationPart =
  | { readonly text: string; readonly anchor?: undefined }
  | { readonly text: string; readonly anchor: string };

/**
 * Splits a text into plain pieces and citations of the papers.
 *
 * @example
 * ```ts
 * splitCitations('see spec 003 §8.2.'); // [{ text: 'see ' }, { text: 'spec 003 §8.2', anchor: 'seed-003' }, { text: '.' }]
 * ```
 */
export function splitCitations(text: string): CitationPart[] {
  const parts: CitationPart[] = [];
  let last = 0;
  for (const m of text.matchAll(CITATION)) {
    const at = m.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at) });
    parts.push({ text: m[0], anchor: paperAnchor(m[2]!) });
    last = at + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The parts of markdown-it's token and state this plugin uses. */
interface Token {
  type: string;
  content: string;
  children: Token[] | null;
  attrs: [string, string][] | null;
}
interface CoreState {
  tokens: Token[];
  Token: new (type: string, tag: string, nesting: number) => Token;
  env: { relativePath?: string };
}
interface MarkdownItLike {
  core: { ruler: { push(name: string, rule: (state: CoreState) => void): void } };
}

/**
 * The markdown-it plugin: a core rule that rewrites the text tokens of inline content (not in
 * headings, links or code) into text and links to `/papers#seed-NNN`. The Papers page itself is
 * left alone.
 */
export function citations(md: MarkdownItLike): void {
  md.core.ruler.push('geomech_citations', (state) => {
    if (state.env.relativePath === 'papers.md') return;
    let heading = false;
    for (const block of state.tokens) {
      if (block.type === 'heading_open') heading = true;
      else if (block.type === 'heading_close') heading = false;
      if (block.type !== 'inline' || heading || !block.children) continue;
      const out: Token[] = [];
      let inLink = 0;
      for (const t of block.children) {
        if (t.type === 'link_open') inLink++;
        else if (t.type === 'link_close') inLink--;
        if (t.type !== 'text' || inLink > 0) {
          out.push(t);
          continue;
        }
        const parts = splitCitations(t.content);
        if (parts.length === 1 && parts[0]!.anchor === undefined) {
          out.push(t);
          continue;
        }
        for (const p of parts) {
          if (p.anchor === undefined) {
            const text = new state.Token('text', '', 0);
            text.content = p.text;
            out.push(text);
            continue;
          }
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [['href', `/papers#${p.anchor}`]];
          const text = new state.Token('text', '', 0);
          text.content = p.text;
          out.push(open, text, new state.Token('link_close', 'a', -1));
        }
      }
      block.children = out;
    }
  });
}
