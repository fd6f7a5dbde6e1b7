import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import katexModule from '@vscode/markdown-it-katex';
import { type DefaultTheme, defineConfig } from 'vitepress';
import { citations } from '../../src/citations.ts';
import { isExampleInfo } from '../../src/examples.ts';

/** The plugin is CommonJS with `exports.default`; Node's ESM interop may wrap it once more. */
const katex = (katexModule as unknown as { default?: typeof katexModule }).default ?? katexModule;

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** The site imports the libraries from their TypeScript sources (Vite transpiles them). */
const packages = ['core', 'groupoid', 'contact', 'dirac'] as const;
const alias = packages.map((name) => ({
  find: new RegExp(`^@geomech/${name}$`),
  replacement: here(`../../../../packages/${name}/src/index.ts`),
}));

/**
 * The API sidebar: one group per package with its module pages, written by
 * scripts/api-reference.mjs once TypeDoc has run (`pnpm --filter @geomech/docs build`).
 */
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(here('../api/sidebar.json'))
  ? JSON.parse(readFileSync(here('../api/sidebar.json'), 'utf8'))
  : [];

export default defineConfig({
  title: 'geomech',
  description:
    'Structure-preserving mechanics and optimal control in TypeScript: Lie groups and groupoids, Dirac structures, contact integrators.',
  cleanUrls: true,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  lastUpdated: false,
  srcExclude: ['**/README.md'],
  // Deterministic output: the local search index numbers its entries in the order pages finish
  // rendering, which the default concurrency (64) leaves to chance.
  buildConcurrency: 1,
  markdown: {
    // Shiki gives up highlighting a line after 500 ms by default, so a loaded machine produced
    // different colours from run to run; no time limit makes the highlighting deterministic.
    codeTransformers: [
      {
        name: 'geomech:deterministic-highlighting',
        preprocess(code, options) {
          (options as { tokenizeTimeLimit?: number }).tokenizeTimeLimit = 0;
          return code;
        },
      },
    ],
    // TSDoc math like `T*_{g⁻¹}G` must stay text: no `{…}` attribute syntax on any page
    attrs: { disable: true },
    config(md) {
      // $…$ and $$…$$ are typeset by KaTeX at build time (no client-side script). The plugin is
      // VS Code's own (@vscode/markdown-it-katex, maintained with VS Code's Markdown preview);
      // a TeX error fails the build instead of leaving a red formula on a page, and the output
      // is v-pre so Vue never reads `{{` in a formula as an interpolation.
      md.use(katex, { throwOnError: false });
      for (const rule of ['math_inline', 'math_block', 'math_inline_block'] as const) {
        const render = md.renderer.rules[rule];
        if (!render) throw new Error(`markdown-it-katex has no ${rule} renderer`);
        md.renderer.rules[rule] = (tokens, idx, options, env, self) => {
          const html = render(tokens, idx, options, env, self);
          if (html.includes('katex-error'))
            throw new Error(
              `KaTeX cannot typeset $${tokens[idx]?.content}$ in ${(env as { relativePath?: string }).relativePath}: ${html.replace(/<[^>]*>/g, '')}`,
            );
          return html.replace(/^<(span|p) class="katex/, '<$1 v-pre class="katex');
        };
      }
      // "seed 003", "spec 004 §8.2" → links to the paper on the Papers page
      md.use(citations);
      // ```js example blocks become editable, runnable examples (theme/RunnableExample.vue); the
      // same blocks are run in Node by test/runnable.test.ts.
      const fence = md.renderer.rules.fence;
      if (!fence) throw new Error('markdown-it has no fence renderer');
      md.renderer.rules.fence = (tokens, idx, options, env, self) => {
        const token = tokens[idx];
        if (token) {
          const [lang = '', ...rest] = token.info.trim().split(/\s+/);
          if (lang === 'js' && isExampleInfo(rest.join(' ')))
            return `<RunnableExample code="${encodeURIComponent(token.content)}" />\n`;
        }
        return fence(tokens, idx, options, env, self);
      };
    },
  },
  vite: {
    resolve: { alias },
    // the examples run in a module Web Worker that loads the packages on demand
    worker: { format: 'es' },
    // pre-bundled for `vitepress dev`, so the first Run does not trigger a dependency re-optimization
    optimizeDeps: { include: ['chart.js', 'vue'] },
    build: { chunkSizeWarningLimit: 2000 },
  },
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Concepts', link: '/concepts/' },
      { text: 'Guides', link: '/core' },
      { text: 'Examples', link: '/examples/' },
      { text: 'CLI', link: '/cli-reference' },
      { text: 'API', link: '/api/' },
      { text: 'Papers', link: '/papers' },
    ],
    sidebar: [
      {
        text: 'Introduction',
        items: [
          { text: 'Home', link: '/' },
          { text: 'Getting started', link: '/getting-started' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'What the concepts cover', link: '/concepts/' },
          { text: 'Conventions', link: '/concepts/conventions' },
          { text: 'Lie groups', link: '/concepts/lie-groups' },
          { text: 'Lie groupoids', link: '/concepts/groupoids' },
          { text: 'Dirac structures', link: '/concepts/dirac-structures' },
          { text: 'Contact integrators', link: '/concepts/contact-integrators' },
        ],
      },
      {
        text: 'Package guides',
        items: [
          { text: '@geomech/core', link: '/core' },
          { text: '@geomech/groupoid', link: '/groupoid' },
          { text: '@geomech/contact', link: '/contact' },
          { text: '@geomech/dirac', link: '/dirac' },
          { text: '@geomech/cli', link: '/cli' },
          { text: 'CLI: sweeps and clusters', link: '/sweeps' },
          { text: 'Pose your own optimal-control problem', link: '/optimal-control' },
        ],
      },
      {
        text: 'Examples (run in the browser)',
        items: [
          { text: 'All examples', link: '/examples/' },
          { text: 'Damped oscillator', link: '/examples/damped-oscillator' },
          { text: 'Rolling disk', link: '/examples/rolling-disk' },
          { text: 'Pendulum: Table I', link: '/examples/pendulum' },
          { text: 'Ziegler column', link: '/examples/ziegler' },
          { text: 'Rigid body', link: '/examples/rigid-body' },
          { text: 'Heavy top', link: '/examples/heavy-top' },
          { text: 'SO(3) steering', link: '/examples/so3-steering' },
          { text: 'Plate-ball', link: '/examples/plate-ball' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'CLI reference', link: '/cli-reference' },
          { text: 'Papers', link: '/papers' },
          { text: 'Errata of the papers', link: '/errata' },
        ],
      },
      {
        text: 'API reference',
        link: '/api/',
        items: apiSidebar,
      },
    ],
    search: {
      provider: 'local',
      options: {
        // the API pages are indexed by their headings (the export names) only: the full text
        // would make the search index several megabytes
        _render(src, env, md) {
          if (!env.relativePath.startsWith('api/')) return md.render(src, env);
          const headings = src.split('\n').filter((line) => /^#{1,4} /.test(line));
          return md.render(headings.join('\n\n'), env);
        },
      },
    },
    outline: { level: [2, 3] },
  },
});
