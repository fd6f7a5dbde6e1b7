// Generates the API reference (pages/api/, not committed) with TypeDoc, typedoc-plugin-markdown and
// typedoc-vitepress-theme (VitePress-compatible anchors), the API sidebar (pages/api/sidebar.json),
// and the source pages the "Defined in" links point to (pages/public/source/, not committed).
//
// Every package under packages/ with a src/index.ts is documented, so new packages and modules
// appear by themselves. A package whose index only re-exports whole modules (`export * from
// './lie/so3.js'`) gets one page per module (api/<pkg>/<module path>) and a package page listing
// them; any other index is documented as one page. Either way /api/<pkg>/ is the package's page.
// Members inherited from outside the repository (Node's Error.captureStackTrace,
// stackTraceLimit, …) are dropped.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, Converter, ReflectionKind } from 'typedoc';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = join(root, '..', '..');
const out = join(root, 'pages', 'api');
const sourceOut = join(root, 'pages', 'public', 'source');
/** The order of the packages on the site; packages not listed follow in name order. */
const ORDER = ['core', 'groupoid', 'contact', 'dirac', 'cli'];

const t0 = Date.now();

/** The packages to document: packages/<name>/src/index.ts, in ORDER. */
const packages = readdirSync(join(repo, 'packages'))
  .filter((name) => existsSync(join(repo, 'packages', name, 'src', 'index.ts')))
  .sort((a, b) => {
    const ia = ORDER.indexOf(a);
    const ib = ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });

/**
 * The entry points of one package: the modules its index re-exports whole, or the index itself
 * when it also has named exports or declarations (then the page shows exactly the public API).
 */
function entryPoints(pkg) {
  const src = join(repo, 'packages', pkg, 'src');
  const index = readFileSync(join(src, 'index.ts'), 'utf8');
  const code = index.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const statements = code
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const modules = [];
  for (const s of statements) {
    const m = /^export (?:type )?\* from '\.\/([^']+)\.js'$/.exec(s);
    if (!m) return [join(src, 'index.ts')];
    const file = [join(src, `${m[1]}.ts`), join(src, m[1], 'index.ts')].find(existsSync);
    if (!file)
      throw new Error(`api-reference: ${pkg}/src/index.ts re-exports missing ./${m[1]}.js`);
    modules.push(file);
  }
  return modules;
}

const entries = packages.flatMap(entryPoints);

/** True when a package is documented as one page (its index has more than `export *` lines). */
const onePage = (pkg) => entryPoints(pkg)[0]?.endsWith(`${pkg}/src/index.ts`) === true;

/** The label of a module in tables and the sidebar. */
const label = (pkg, name) =>
  name === `${pkg}/index` ? `@geomech/${pkg}` : name.slice(pkg.length + 1);

/** `packages/core/src/lie/so3.ts` → `core/lie/so3`; a package's index → `core`. */
function moduleName(file) {
  const rel = relative(join(repo, 'packages'), file).split('\\').join('/');
  const m = /^([^/]+)\/src\/(.*)\.ts$/.exec(rel);
  if (!m) return rel;
  // a package documented as one page (its index) is api/<pkg>/index.md, so /api/<pkg>/ is the
  // package's page whichever way it is documented
  if (m[2] === 'index') return `${m[1]}/index`;
  return `${m[1]}/${m[2].replace(/\/index$/, '')}`;
}

rmSync(out, { recursive: true, force: true });
rmSync(sourceOut, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({
  options: join(root, 'typedoc.json'),
  entryPoints: entries,
});

// module names from their files, so pages are api/<pkg>/<module path>.md
app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
  if (!reflection.kindOf(ReflectionKind.Module)) return;
  const symbol = context.getSymbolFromReflection?.(reflection);
  const file = symbol?.declarations?.[0]?.getSourceFile()?.fileName;
  if (file) reflection.name = moduleName(file);
});
// drop members declared outside the repository's sources (inherited from Node's and the DOM's
// Error: captureStackTrace, stackTraceLimit, prepareStackTrace, cause, …)
app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
  const project = context.project;
  for (const r of Object.values(project.reflections)) {
    if (!r.kindOf(ReflectionKind.Property | ReflectionKind.Method | ReflectionKind.Accessor))
      continue;
    const sources = r.sources ?? [];
    if (
      sources.length > 0 &&
      sources.every((s) => /node_modules/.test(s.fullFileName ?? s.fileName))
    )
      project.removeReflection(r);
  }
});

const project = await app.convert();
if (!project) {
  console.error('api-reference: TypeDoc could not convert the project');
  process.exit(1);
}
await app.generateOutputs(project);
if (app.logger.hasErrors()) process.exit(1);

// ------------------------------------------------------------------------------------------------
// post-processing of the Markdown: math-like brackets that are not links, and the index page

/** Applies `fix` to the Markdown outside fenced code blocks and inline code. */
const outsideCode = (text, fix) =>
  text
    .split(/(^```[^\n]*\n[\s\S]*?^```$|`[^`\n]*`)/m)
    .map((part, i) => (i % 2 === 1 ? part : fix(part)))
    .join('');

/** Applies `fix` to the Markdown outside fenced code blocks. */
const outsideFences = (text, fix) =>
  text
    .split(/(^```[^\n]*\n[\s\S]*?^```$)/m)
    .map((part, i) => (i % 2 === 1 ? part : fix(part)))
    .join('');

/** A Markdown link target TypeDoc can have produced; anything else is math like e_i[f](g). */
const LINK = /^(#|\.{0,2}\/|https?:|mailto:|[\w.-]+\.md(#|$))/;
const fixText = (text) =>
  text.replace(/\[([^\][]*)\]\(([^)\s]*)\)/g, (m, label, target) =>
    LINK.test(target) ? m : `\\[${label}\\](${target})`,
  );

function walk(dir) {
  const files = [];
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    if (f.isDirectory()) files.push(...walk(p));
    else if (f.name.endsWith('.md')) files.push(p);
  }
  return files;
}

for (const file of walk(out)) {
  const text = readFileSync(file, 'utf8');
  let fixed = outsideCode(text, fixText)
    // "Defined in" a file outside the repository's sources (TypeScript's lib): no page to link
    .replace(/^Defined in: \[node\\_modules[^\n]*\n\n?/gm, '');
  // the package a module's exports are imported from, under the title
  const name = relative(out, file)
    .split('\\')
    .join('/')
    .replace(/(\/index)?\.md$/, '');
  const pkg = packages.find((p) => name === p || name.startsWith(`${p}/`));
  if (pkg && name !== 'index') {
    if (name === pkg) fixed = fixed.replace(/^# .*\n/, `# @geomech/${pkg}\n`);
    const where = name === pkg ? '' : ` (module \`${name.slice(pkg.length + 1)}.ts\`)`;
    fixed = fixed.replace(/^# .*\n/, (h) => `${h}\nImport from \`@geomech/${pkg}\`${where}.\n`);
  }
  if (fixed !== text) writeFileSync(file, fixed);
}

// ------------------------------------------------------------------------------------------------
// anchors: every link into an API page must name an id that VitePress gives a heading of that page.
// typedoc-vitepress-theme slugifies same-page anchors only, and typedoc-plugin-markdown sometimes
// numbers an anchor (#name-1) for a heading that VitePress does not number, so every link is
// checked against the headings VitePress will render and mended: the slug, the slug without its
// number, or the slug of the link text; a link whose anchor matches nothing keeps only its page.

/** VitePress's heading slug (@mdit-vue/shared slugify). */
const slugify = (str) =>
  str
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: slugify drops control characters
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();

/** The plain text of a Markdown heading or link label. */
const plain = (md) =>
  md
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\\(.)/g, '$1')
    .trim();

/** The ids VitePress gives the headings of a Markdown page, deduplicated as markdown-it-anchor. */
function headingIds(text) {
  const ids = new Set();
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slugify(plain(m[1]));
    let id = base;
    for (let i = 1; ids.has(id); i++) id = `${base}-${i}`;
    ids.add(id);
  }
  return ids;
}

const pages = walk(out);
const idsOf = new Map(pages.map((f) => [f, headingIds(readFileSync(f, 'utf8'))]));
let mended = 0;
let dropped = 0;
for (const file of pages) {
  const text = readFileSync(file, 'utf8');
  // links only (inline code inside a label is part of the link): fenced blocks are skipped
  const fixed = outsideFences(text, (part) =>
    part.replace(
      /\[((?:[^\][]|\[[^\]]*\])*)\]\(([^)\s#]*)#([^)\s]+)\)/g,
      (m, label, path, anchor) => {
        if (/^(https?:|\/)/.test(path)) return m;
        const target = path === '' ? file : join(dirname(file), decodeURI(path));
        const ids = idsOf.get(target);
        if (!ids || ids.has(anchor)) return m;
        const found = [
          slugify(anchor),
          slugify(anchor).replace(/-\d+$/, ''),
          slugify(plain(label)),
        ].find((c) => ids.has(c));
        if (found) mended++;
        else dropped++;
        return found ? `[${label}](${path}#${found})` : `[${label}](${path === '' ? '#' : path})`;
      },
    ),
  );
  if (fixed !== text) writeFileSync(file, fixed);
}

/** The first paragraph of a module page (its module comment), as plain text for a table cell. */
function summary(file) {
  if (!existsSync(file)) return '';
  const lines = readFileSync(file, 'utf8').split('\n');
  let i = lines.findIndex(
    (l, k) => k > 0 && l.trim() !== '' && !l.startsWith('#') && !l.startsWith('Import from'),
  );
  if (i < 0) return '';
  const para = [];
  for (; i < lines.length && lines[i].trim() !== '' && !lines[i].startsWith('#'); i++)
    para.push(lines[i].trim());
  const text = para
    .join(' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\|/g, '\\|');
  // the first sentence
  const end = /\.(\s|$)/.exec(text.slice(30));
  return end ? text.slice(0, 30 + end.index + 1) : text;
}

/** The page of a module: api/<name>.md, or api/<name>/index.md for a module with children. */
const pageOf = (name) =>
  existsSync(join(out, name, 'index.md')) ? `${name}/index.md` : `${name}.md`;

/** The package comment of src/index.ts (its first paragraph), as Markdown. */
function packageComment(pkg) {
  const index = readFileSync(join(repo, 'packages', pkg, 'src', 'index.ts'), 'utf8');
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(index.trimStart());
  if (!m) return '';
  const lines = m[1].split('\n').map((l) => l.replace(/^\s*\* ?/, ''));
  const para = [];
  for (const l of lines) {
    if (l.startsWith('@')) break;
    if (l.trim() === '' && para.length > 0) break;
    if (l.trim() !== '') para.push(l.trim());
  }
  const text = para
    .join(' ')
    .replace(/^`@geomech\/[\w-]+`:\s*/, '')
    .replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, '`$1`');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The rows of a package's module table. */
const moduleRows = (pkg, prefix) =>
  entryPoints(pkg)
    .map(moduleName)
    .map(
      (name) =>
        `| [\`${label(pkg, name)}\`](${prefix}${pageOf(name)}) | ${summary(join(out, pageOf(name)))} |`,
    );

// api/<pkg>/index.md for a package documented module by module
for (const pkg of packages) {
  if (onePage(pkg)) continue;
  writeFileSync(
    join(out, pkg, 'index.md'),
    [
      `# @geomech/${pkg}`,
      '',
      packageComment(pkg),
      '',
      `Everything below is imported from \`@geomech/${pkg}\`; the modules only group the exports.`,
      '',
      '| module | |',
      '|---|---|',
      ...moduleRows(pkg, '../').map((r) => r.replace(`](../${pkg}/`, '](./')),
      '',
    ].join('\n'),
  );
}

/** The landing page of a package, whichever way it is documented. */
const packagePage = (pkg) => `${pkg}/index.md`;

const sections = packages.map((pkg) =>
  [
    `## @geomech/${pkg}`,
    '',
    `${packageComment(pkg)} [All of \`@geomech/${pkg}\`](./${packagePage(pkg)}).`,
    '',
    '| module | |',
    '|---|---|',
    ...moduleRows(pkg, './'),
    '',
  ].join('\n'),
);
writeFileSync(
  join(out, 'index.md'),
  [
    '---',
    'outline: [2, 2]',
    '---',
    '',
    '# API reference',
    '',
    'Generated by TypeDoc from the TSDoc comments of the packages at build time, one page per',
    'module. Every export cites the equation it implements (the papers are listed on the',
    '[Papers](../papers.md) page) and carries an example; "Defined in" links open the source.',
    '',
    ...sections,
  ].join('\n'),
);

// the sidebar: packages, then their modules (typedoc-vitepress-theme writes typedoc-sidebar.json)
const sidebar = packages.map((pkg) => {
  const names = entryPoints(pkg).map(moduleName);
  const link = `/api/${packagePage(pkg).replace(/(index)?\.md$/, '')}`;
  if (onePage(pkg)) return { text: `@geomech/${pkg}`, link };
  return {
    text: `@geomech/${pkg}`,
    link,
    collapsed: true,
    items: names.map((name) => ({
      text: label(pkg, name),
      link: `/api/${pageOf(name).replace(/(index)?\.md$/, '')}`,
    })),
  };
});
writeFileSync(join(out, 'sidebar.json'), `${JSON.stringify(sidebar, null, 2)}\n`);
rmSync(join(out, 'typedoc-sidebar.json'), { force: true });

// ------------------------------------------------------------------------------------------------
// source pages: /source/<pkg>/src/<path>.ts.html with one anchor per line (#L12); TypeDoc's
// sourceLinkTemplate (typedoc.json) gives {path} relative to packages/

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const CSS = `body{margin:0;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#fff;color:#24292f}
header{position:sticky;top:0;padding:8px 16px;background:#f6f8fa;border-bottom:1px solid #d0d7de;font-family:system-ui,sans-serif}
header a{color:#0969da}
pre{margin:0;padding:8px 0;overflow-x:auto}
.l{display:block;padding:0 16px 0 0;white-space:pre}
.l:target{background:#fff3b0}
.n{display:inline-block;width:5ch;margin-right:2ch;text-align:right;color:#6e7781;text-decoration:none;user-select:none}
@media (prefers-color-scheme:dark){body{background:#1b1b1f;color:#dfdfd6}header{background:#202127;border-color:#3c3f44}header a{color:#a8b1ff}.l:target{background:#4a3f00}.n{color:#8b949e}}`;
const sourceFiles = packages.flatMap((pkg) => {
  const dir = join(repo, 'packages', pkg, 'src');
  const list = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((f) =>
      f.isDirectory() ? list(join(d, f.name)) : f.name.endsWith('.ts') ? [join(d, f.name)] : [],
    );
  return list(dir);
});
for (const file of sourceFiles) {
  const rel = relative(join(repo, 'packages'), file).split('\\').join('/');
  const lines = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
  const body = lines
    .map(
      (l, i) =>
        `<span class="l" id="L${i + 1}"><a class="n" href="#L${i + 1}">${i + 1}</a>${escapeHtml(l)}</span>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>packages/${escapeHtml(rel)} · geomech</title><link rel="icon" type="image/svg+xml" href="/favicon.svg"><style>${CSS}</style></head>
<body><header><a href="/api/">API reference</a> · packages/${escapeHtml(rel)}</header><pre>${body}</pre></body></html>
`;
  const target = join(sourceOut, `${rel}.html`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, html);
}

console.log(
  `api-reference: ${mended} anchors mended, ${dropped} dropped; ${entries.length} modules of ${packages.length} packages → pages/api/, ${sourceFiles.length} source pages, in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
