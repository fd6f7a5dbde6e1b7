import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { isExampleInfo } from '../../src/examples.ts';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** The site imports the libraries from their TypeScript sources (Vite transpiles them). */
const packages = ['core', 'groupoid', 'contact', 'dirac'] as const;
const alias = packages.map((name) => ({
  find: new RegExp(`^@geomech/${name}$`),
  replacement: here(`../../../../packages/${name}/src/index.ts`),
}));

/** API pages exist once TypeDoc has run (`pnpm --filter @geomech/docs build`). */
const apiModules = [...packages, 'cli']
  .filter((name) => existsSync(here(`../api/${name}.md`)))
  .map((name) => ({ text: `@geomech/${name}`, link: `/api/${name}` }));

export default defineConfig({
  title: 'geomech',
  description:
    'Structure-preserving mechanics and optimal control in TypeScript: Lie groups and groupoids, Dirac structures, contact integrators.',
  cleanUrls: true,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  lastUpdated: false,
  srcExclude: ['**/README.md'],
  markdown: {
    // TSDoc math like `T*_{g⁻¹}G` must stay text: no `{…}` attribute syntax on any page
    attrs: { disable: true },
    config(md) {
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
    // pre-bundled for `vitepress dev`, so the first Run does not trigger a dependency re-optimization
    optimizeDeps: { include: ['chart.js', 'vue', '@geomech/core > ml-matrix'] },
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
      { text: 'Errata', link: '/errata' },
    ],
    sidebar: [
      {
        text: 'Introduction',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'Getting started', link: '/getting-started' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'Overview', link: '/concepts/' },
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
        ],
      },
      {
        text: 'Examples (run in the browser)',
        items: [
          { text: 'Overview', link: '/examples/' },
          { text: 'Damped oscillator', link: '/examples/damped-oscillator' },
          { text: 'Rolling disk', link: '/examples/rolling-disk' },
          { text: 'Pendulum: Table I', link: '/examples/pendulum' },
          { text: 'Ziegler column', link: '/examples/ziegler' },
          { text: 'Rigid body', link: '/examples/rigid-body' },
          { text: 'SO(3) steering', link: '/examples/so3-steering' },
          { text: 'Plate-ball', link: '/examples/plate-ball' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'CLI reference', link: '/cli-reference' },
          { text: 'API reference', link: '/api/', items: apiModules },
          { text: 'Errata of the papers', link: '/errata' },
        ],
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
