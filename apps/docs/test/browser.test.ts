/**
 * End-to-end test of the built site in a real browser: serves pages/.vitepress/dist on localhost,
 * opens every example page in headless Chromium (playwright-core), clicks every Run button, waits
 * until each plot canvas holds data, and fails on any console error or page error. A screenshot of
 * each page goes to test-results/. Skipped (with the reason) when the site is not built
 * (`pnpm --filter @geomech/docs build`) or /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractExampleBlocks } from '../src/examples.js';

const root = join(__dirname, '..');
const site = join(root, 'pages', '.vitepress', 'dist');
const examplesDir = join(root, 'pages', 'examples');
const shots = join(root, 'test-results');
const CHROMIUM = '/usr/bin/chromium';

const missing = !existsSync(join(site, 'index.html'))
  ? `the site is not built (${site}/index.html missing): run \`pnpm --filter @geomech/docs build\``
  : !existsSync(CHROMIUM)
    ? `${CHROMIUM} is absent (install Debian's chromium)`
    : undefined;
if (missing) console.warn(`browser.test.ts skipped: ${missing}`);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** A static server for VitePress's output with clean URLs: /a/b → a/b.html, /a/ → a/index.html. */
function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    const candidates =
      path === '' ? ['index.html'] : [path, `${path}.html`, join(path, 'index.html')];
    for (const c of candidates) {
      const file = join(dir, c);
      if (!file.startsWith(dir + sep) && file !== dir) break;
      if (existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(readFileSync(file));
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end(readFileSync(join(dir, '404.html')));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Example pages and how many examples each holds (from the Markdown sources). */
const pages = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.md') && f !== 'index.md')
  .map((f) => ({
    slug: f.replace(/\.md$/, ''),
    examples: extractExampleBlocks(readFileSync(join(examplesDir, f), 'utf8')).length,
  }))
  .filter((p) => p.examples > 0);

describe.skipIf(missing !== undefined)('the built site in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    server = await serve(site);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('finds example pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(5);
  });

  for (const page of pages) {
    it(`examples/${page.slug}: every Run draws its plots without console errors`, async () => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const tab = await ctx.newPage();
      const errors: string[] = [];
      tab.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
      });
      tab.on('pageerror', (err) => errors.push(`page: ${err.message}`));
      try {
        const response = await tab.goto(`${base}/examples/${page.slug}`, {
          waitUntil: 'networkidle',
          timeout: 60_000,
        });
        expect(response?.status()).toBe(200);
        const boxes = tab.locator('.runnable-example');
        await expect.poll(() => boxes.count(), { timeout: 30_000 }).toBe(page.examples);
        // hydrated: every component has run onMounted (data-ready), so clicks reach Vue
        await expect
          .poll(() => tab.locator('.runnable-example[data-ready="true"]').count(), {
            timeout: 30_000,
          })
          .toBe(page.examples);
        for (let i = 0; i < page.examples; i++) {
          const box = boxes.nth(i);
          await box.locator('button.runnable-run').click();
          await tab.waitForFunction(
            (el) => ['done', 'error'].includes(el?.getAttribute('data-status') ?? ''),
            await box.elementHandle(),
            { timeout: 120_000, polling: 200 },
          );
          const status = await box.getAttribute('data-status');
          const output = await box.locator('.runnable-output').allInnerTexts();
          expect(status, `example ${i + 1} failed:\n${output.join('\n')}`).toBe('done');
          const plots = box.locator('.runnable-plot');
          expect(await plots.count(), `example ${i + 1} drew no plot`).toBeGreaterThan(0);
          for (const n of await plots.evaluateAll((els) =>
            els.map((e) => Number(e.getAttribute('data-points'))),
          ))
            expect(n).toBeGreaterThan(1);
          // the canvases are painted: some pixel is not transparent
          const painted = await plots.evaluateAll((els) =>
            els.map((e) => {
              const c = e.querySelector('canvas');
              const g = c?.getContext('2d');
              if (!c || !g || c.width === 0) return false;
              const d = g.getImageData(0, 0, c.width, c.height).data;
              for (let k = 3; k < d.length; k += 4) if (d[k]! > 0) return true;
              return false;
            }),
          );
          expect(painted.every(Boolean), 'every canvas has painted pixels').toBe(true);
        }
        await tab.screenshot({ path: join(shots, `${page.slug}.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await ctx.close();
      }
    }, 300_000);
  }
});
