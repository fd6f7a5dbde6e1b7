import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PlainSummaryReporter } from './scripts/plain-summary-reporter.ts';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** Tests run on the TypeScript sources of the libraries; only the CLI's end-to-end tests use dist. */
const alias = {
  '@geomech/core/testing': here('./packages/core/src/testing/index.ts'),
  '@geomech/core': here('./packages/core/src/index.ts'),
  '@geomech/groupoid': here('./packages/groupoid/src/index.ts'),
  '@geomech/contact': here('./packages/contact/src/index.ts'),
  '@geomech/dirac': here('./packages/dirac/src/index.ts'),
};

const project = (name: string, root: string, testTimeout = 20_000) => ({
  resolve: { alias },
  test: {
    name,
    root: here(root),
    include: ['test/**/*.test.ts'],
    setupFiles: [here('./scripts/vitest-setup.ts')],
    testTimeout,
  },
});

export default defineConfig({
  test: {
    reporters: ['default', new PlainSummaryReporter()],
    projects: [
      project('core', './packages/core'),
      project('groupoid', './packages/groupoid'),
      project('contact', './packages/contact'),
      project('dirac', './packages/dirac'),
      project('cli', './packages/cli', 60_000),
      project('docs', './apps/docs'),
      // Every TSDoc @example of the libraries, typechecked and run (scripts/doc-examples).
      project('examples', './scripts/doc-examples', 120_000),
    ],
  },
});
