import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractRunnableBlocks } from '../src/index.js';

const pagesDir = join(__dirname, '..', 'pages');
const scratch = join(__dirname, '..', '.runnable');

describe('extractRunnableBlocks', () => {
  it('keeps only blocks marked runnable, with their line numbers', () => {
    const md = '# t\n```ts runnable\nconst a = 1;\n```\n\n```sh\nls\n```\n~~~js runnable\nx\n~~~\n';
    expect(extractRunnableBlocks(md)).toEqual([
      { lang: 'ts', code: 'const a = 1;\n', line: 2 },
      { lang: 'js', code: 'x\n', line: 9 },
    ]);
  });

  it('rejects an unclosed fence', () => {
    expect(() => extractRunnableBlocks('```ts runnable\nconst a = 1;\n')).toThrow(/line 1/);
  });
});

describe('every runnable block of every page runs', () => {
  mkdirSync(scratch, { recursive: true });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const pages = readdirSync(pagesDir).filter((f) => f.endsWith('.md'));
  it('finds runnable examples', () => {
    const total = pages.reduce(
      (s, p) => s + extractRunnableBlocks(readFileSync(join(pagesDir, p), 'utf8')).length,
      0,
    );
    expect(total).toBeGreaterThan(0);
  });
  for (const page of pages) {
    const blocks = extractRunnableBlocks(readFileSync(join(pagesDir, page), 'utf8'));
    for (const block of blocks) {
      it(`${page}:${block.line}`, async () => {
        const file = join(
          scratch,
          `${page.replace(/\W/g, '_')}_${block.line}.${block.lang === 'js' ? 'mjs' : 'ts'}`,
        );
        writeFileSync(file, block.code);
        const mod = (await import(file)) as Record<string, unknown>;
        expect(mod).toBeDefined();
      });
    }
  }
});

describe('getting-started example', () => {
  it('prints the spec 004 §8.2 reference values (q_50 = −0.3478075467, ln H_50 = −0.02169423)', async () => {
    const [block] = extractRunnableBlocks(
      readFileSync(join(pagesDir, 'getting-started.md'), 'utf8'),
    );
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, 'getting_started_check.ts');
    writeFileSync(file, block!.code);
    const { result } = (await import(file)) as { result: { q50: number; lnH50: number } };
    expect(Math.abs(result.q50 - -0.3478075467)).toBeLessThan(1e-10);
    expect(Math.abs(result.lnH50 - -0.02169423)).toBeLessThan(1e-8);
  });
});

describe('contact page examples', () => {
  const run = async (index: number, tag: string) => {
    const block = extractRunnableBlocks(readFileSync(join(pagesDir, 'contact.md'), 'utf8'))[index]!;
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `contact_${tag}.ts`);
    writeFileSync(file, block.code);
    return ((await import(file)) as { result: Record<string, number> }).result;
  };

  it('the exact flow samples q(25) = 0.3504530104 and ln H falls by γh = −0.025 per step (1e-12)', async () => {
    const r = await run(0, 'exact');
    expect(Math.abs(r.paperQ50! - -0.3478075467)).toBeLessThan(1e-10);
    expect(Math.abs(r.exactQ50! - 0.3504530104)).toBeLessThan(1e-10);
    expect(Math.abs(r.exactSlope! - -0.025)).toBeLessThan(1e-12);
    expect(Math.abs(r.paperSlope! - -0.025)).toBeGreaterThan(1e-4);
  });

  it('measures orders 1, 1 and 2 (±0.35)', async () => {
    const r = await run(1, 'orders');
    expect(Math.abs(r.midpoint! - 1)).toBeLessThan(0.35);
    expect(Math.abs(r['left-rectangle']! - 1)).toBeLessThan(0.35);
    expect(Math.abs(r['implicit-z-midpoint']! - 2)).toBeLessThan(0.35);
  });
});

describe('dirac page examples', () => {
  const run = async (index: number, tag: string) => {
    const block = extractRunnableBlocks(readFileSync(join(pagesDir, 'dirac.md'), 'utf8'))[index]!;
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `dirac_${tag}.ts`);
    writeFileSync(file, block.code);
    return ((await import(file)) as { result: Record<string, number> }).result;
  };

  it('index reduction follows the rolling disk closed form (1e-8), drift ≤ 1e-9, energy 1e-10', async () => {
    const r = await run(0, 'disk');
    expect(r.error!).toBeLessThan(1e-8);
    expect(r.drift!).toBeLessThan(1e-9);
    expect(r.energySpread!).toBeLessThan(1e-10);
  });

  it('the constraint algorithm finds one position constraint and ω_LC = 2.0118695404 (1e-10)', async () => {
    const r = await run(1, 'lc4');
    expect(r.positionConstraints).toBe(1);
    expect(Math.abs(r.omega! - 2.0118695404)).toBeLessThan(1e-10);
    expect(Math.abs(r.omega! - r.omegaLC!)).toBeLessThan(1e-10);
  });
});
