/**
 * Extracts the ```ts blocks of the TSDoc `@example`s in packages/{core,groupoid,contact,dirac}/src,
 * typechecks them against the packages' public API in one TypeScript program and turns them into
 * CommonJS function bodies that `doc-examples.test.ts` runs. The conventions are in CONTRIBUTING.md
 * ("Doc examples"):
 *
 * - an example sees the exports of its own package and of `@geomech/core` without importing them
 *   (its own imports win; a name it declares itself is never imported);
 * - `expr; // 0.4375`, `// [1.625, 2]`, `// ≈ [0, 1] (1e-12)`, `// { q: [2], z: 0.4375 }`,
 *   `// true` after an expression statement assert its value (see {@link parseExpectation});
 *   a comment that starts with anything else is prose and is not checked;
 * - `stmt; // throws DimensionError` asserts that the statement throws that error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The libraries whose examples run; each may use its own exports and core's. */
export const PACKAGES = ['core', 'groupoid', 'contact', 'dirac'] as const;
export type PackageName = (typeof PACKAGES)[number];

/** One ```ts block of an `@example`. */
export interface DocExample {
  pkg: PackageName;
  /** Path relative to the repository root. */
  file: string;
  /** 1-based line in `file` of the block's first code line. */
  line: number;
  /** The code as written (doc-comment stars stripped). */
  code: string;
  /** Module text that is typechecked and run: one prelude line of implicit imports, then code. */
  source: string;
  /** How many value assertions and throw assertions the transform inserted. */
  asserts: number;
  throwsChecks: number;
  /** Calls a `describe…` suite of `@geomech/core/testing` (registers tests: runs at collection). */
  registersTests: boolean;
}

/** What a trailing comment says a value is. */
export type Expected =
  | { kind: 'number'; value: number; tol: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'list'; items: Expected[] }
  | { kind: 'object'; fields: [string, Expected][] };

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listSources(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** The ```ts blocks of every `@example` in a file's doc comments, with their line numbers. */
export function blocksOf(text: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = text.split('\n');
  let inDoc = false;
  let inExample = false;
  let code: string[] | undefined;
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (!inDoc) {
      if (/^\s*\/\*\*/.test(raw) && !/\*\/\s*$/.test(raw)) {
        inDoc = true;
        inExample = false;
      }
      continue;
    }
    if (/^\s*\*\/\s*$/.test(raw) || /\*\/\s*$/.test(raw)) {
      inDoc = false;
      code = undefined;
      continue;
    }
    const body = raw.replace(/^\s*\* ?/, '');
    if (code !== undefined) {
      if (/^\s*```\s*$/.test(body)) {
        blocks.push({ line: start, code: code.join('\n') });
        code = undefined;
      } else code.push(body);
      continue;
    }
    if (/^@\w+/.test(body.trim())) inExample = body.trim().startsWith('@example');
    if (inExample && /^\s*```(ts|typescript)\s*$/.test(body)) {
      code = [];
      start = i + 2;
    }
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Expected values in trailing comments

const NUM = /^[0-9]|^\.[0-9]|^[-−][0-9.]/;

/** Tolerance of a literal from the digits it shows: one unit in the last digit shown. */
function literalTol(lit: string, approx: boolean): number {
  const m = /^[-−]?([0-9]*)(?:\.([0-9]+))?(?:e([-−+]?[0-9]+))?…?$/i.exec(lit);
  if (m === null) return 0;
  const exp = m[3] === undefined ? 0 : Number(m[3].replace('−', '-'));
  if (m[2] !== undefined) return Number(`1e${exp - m[2].length}`);
  if (m[3] !== undefined) return Number(`1e${exp}`); // 4e-14: one digit
  // An integer is exact (up to round-off) unless marked ≈, when round-off of a solve is allowed.
  return approx ? 1e-8 : 0;
}

interface Cursor {
  s: string;
  i: number;
}

function skipWs(c: Cursor): void {
  while (c.i < c.s.length && /\s/.test(c.s[c.i] ?? '')) c.i++;
}

/** A number literal, or a product/quotient/sum of literals, π and √(…): `2.375/0.975`, `2/π + 1`. */
function parseArith(c: Cursor, approx: boolean): { value: number; tol: number } | undefined {
  const terms: { value: number; tol: number }[] = [];
  let sign = 1;
  let exact = true;
  const factor = (): { value: number; tol: number } | undefined => {
    skipWs(c);
    let neg = false;
    if (c.s[c.i] === '-' || c.s[c.i] === '−') {
      neg = true;
      c.i++;
    }
    let v: { value: number; tol: number } | undefined;
    const rest = c.s.slice(c.i);
    const lit = /^(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:e[-−+]?[0-9]+)?…?/i.exec(rest);
    if (lit !== null) {
      c.i += lit[0].length;
      const value = Number(lit[0].replace('…', '').replace('−', '-'));
      v = { value, tol: literalTol(lit[0], approx) };
    } else if (rest.startsWith('π')) {
      c.i += 1;
      v = { value: Math.PI, tol: 0 };
    } else if (rest.startsWith('√(')) {
      c.i += 2;
      const inner = parseArith(c, approx);
      skipWs(c);
      if (inner === undefined || c.s[c.i] !== ')') return undefined;
      c.i++;
      v = { value: Math.sqrt(inner.value), tol: inner.tol };
    } else if (rest.startsWith('√')) {
      c.i += 1;
      const inner = factor();
      if (inner === undefined) return undefined;
      v = { value: Math.sqrt(inner.value), tol: inner.tol };
    } else if (rest.startsWith('(')) {
      c.i += 1;
      const inner = parseArith(c, approx);
      skipWs(c);
      if (inner === undefined || c.s[c.i] !== ')') return undefined;
      c.i++;
      v = inner;
    }
    if (v === undefined) return undefined;
    return neg ? { value: -v.value, tol: v.tol } : v;
  };
  const term = (): { value: number; tol: number } | undefined => {
    let t = factor();
    if (t === undefined) return undefined;
    for (;;) {
      const save = c.i;
      skipWs(c);
      const op = c.s[c.i];
      if (op !== '/' && op !== '*' && op !== '·') {
        c.i = save;
        return t;
      }
      c.i++;
      const f = factor();
      if (f === undefined) {
        c.i = save;
        return t;
      }
      exact = false;
      t =
        op === '/'
          ? { value: t.value / f.value, tol: Math.max(t.tol, f.tol) }
          : { value: t.value * f.value, tol: Math.max(t.tol, f.tol) };
    }
  };
  for (;;) {
    const t = term();
    if (t === undefined) return terms.length === 0 ? undefined : combine();
    terms.push({ value: sign * t.value, tol: t.tol });
    const save = c.i;
    skipWs(c);
    const op = c.s[c.i];
    // `a + b` continues only when a number follows: `0.975 = 1 + hγ` ends at 0.975.
    if (op === '+' || op === '-' || op === '−') {
      c.i++;
      skipWs(c);
      const rest = c.s.slice(c.i);
      if (/^[0-9.π√(]/.test(rest)) {
        sign = op === '+' ? 1 : -1;
        exact = false;
        continue;
      }
    }
    c.i = save;
    return combine();
  }
  function combine(): { value: number; tol: number } {
    const value = terms.reduce((a, t) => a + t.value, 0);
    const tol = Math.max(...terms.map((t) => t.tol));
    // An expression of exact literals (2.375/0.975) is exact up to round-off.
    return { value, tol: exact ? tol : Math.max(tol, 0) };
  }
}

function parseValue(c: Cursor, approx: boolean): Expected | undefined {
  skipWs(c);
  const rest = c.s.slice(c.i);
  if (rest.startsWith('[')) {
    c.i++;
    const items: Expected[] = [];
    skipWs(c);
    if (c.s[c.i] === ']') {
      c.i++;
      return { kind: 'list', items };
    }
    for (;;) {
      const v = parseValue(c, approx);
      if (v === undefined) return undefined;
      items.push(v);
      skipWs(c);
      if (c.s[c.i] === ',') {
        c.i++;
        continue;
      }
      if (c.s[c.i] === ']') {
        c.i++;
        return { kind: 'list', items };
      }
      return undefined;
    }
  }
  if (rest.startsWith('{')) {
    c.i++;
    const fields: [string, Expected][] = [];
    for (;;) {
      skipWs(c);
      if (c.s[c.i] === '}') {
        c.i++;
        return { kind: 'object', fields };
      }
      const key = /^[A-Za-z_$][\w$]*/.exec(c.s.slice(c.i));
      if (key === null) return undefined;
      c.i += key[0].length;
      skipWs(c);
      if (c.s[c.i] !== ':') return undefined;
      c.i++;
      const v = parseValue(c, approx);
      if (v === undefined) return undefined;
      fields.push([key[0], v]);
      skipWs(c);
      if (c.s[c.i] === ',') c.i++;
      else if (c.s[c.i] !== '}') return undefined;
    }
  }
  const str = /^'([^']*)'/.exec(rest);
  if (str !== null) {
    c.i += str[0].length;
    return { kind: 'string', value: str[1] ?? '' };
  }
  const bool = /^(true|false)\b/.exec(rest);
  if (bool !== null) {
    c.i += bool[0].length;
    return { kind: 'boolean', value: bool[1] === 'true' };
  }
  const a = parseArith(c, approx);
  return a === undefined ? undefined : { kind: 'number', ...a };
}

/**
 * The value a trailing comment asserts, or `undefined` for prose. Asserted: a number (`0.4375`,
 * `−0.58445947…`, `2.375/0.975`, `4e-14`), a bracketed list of them, `true`/`false`, a quoted string,
 * or an object of such fields (`{ q: [2], z: 0.4375 }`, a subset of the value's fields), optionally
 * after `≈`, optionally followed by an explicit tolerance in parentheses (`≈ [0] (1e-15)`) and then
 * any prose after white space or `,;:` (`// 0.975 = 1 + hγ`, `// ≈ 0 on a solution`). A number
 * glued to more formula (`// 0.9¹⁰`, `// 90° about z`, `// 2×1`) is prose. A number compared with
 * an array asserts every entry (`// ≈ 0` for a residual vector). Tolerance: one unit in the last digit shown (a truncated `…` value included); integers
 * are exact up to round-off (1e-12 relative), or 1e-8 after `≈`.
 */
export function parseExpectation(comment: string): Expected | undefined {
  let s = comment.trim();
  let approx = false;
  if (s.startsWith('≈')) {
    approx = true;
    s = s.slice(1).trim();
  }
  if (!(NUM.test(s) || s.startsWith('[') || s.startsWith('{') || /^(true|false)\b/.test(s))) {
    return undefined;
  }
  if (s.startsWith('{') && !/^\{\s*[A-Za-z_$][\w$]*\s*:/.test(s)) return undefined;
  const c: Cursor = { s, i: 0 };
  const v = parseValue(c, approx);
  if (v === undefined) {
    // A bracketed list or an object that does not parse is prose (`[[2, 1], …] blocks`), but a
    // leading number always asserts.
    return undefined;
  }
  const after = c.s.slice(c.i);
  // `90° about z`, `0.9¹⁰`, `2×1`, `4n`: the value was part of a formula or a word, so the comment
  // is prose. A value ends at the end, at white space or at `,;:)`.
  if (after.length > 0 && !/^[\s,;:)]/.test(after)) return undefined;
  const tol = /^\s*\(([0-9.]+e[-−]?[0-9]+)\)/i.exec(after);
  if (tol !== null) return withTol(v, Number((tol[1] ?? '').replace('−', '-')));
  return v;
}

function withTol(e: Expected, tol: number): Expected {
  switch (e.kind) {
    case 'number':
      return { ...e, tol };
    case 'list':
      return { kind: 'list', items: e.items.map((i) => withTol(i, tol)) };
    case 'object':
      return { kind: 'object', fields: e.fields.map(([k, v]) => [k, withTol(v, tol)]) };
    default:
      return e;
  }
}

/** `throws Name`, optionally followed by `:`, `{` or `(` and details, and nothing else. */
export function parseThrows(comment: string): string | undefined {
  const m = /^\s*throws:?\s+([A-Z][A-Za-z0-9]*)\s*($|[:({])/.exec(comment);
  return m?.[1];
}

// ---------------------------------------------------------------------------------------------
// Transform: implicit imports and assertion calls

function trailingComment(text: string, end: number): string | undefined {
  const ranges = ts.getTrailingCommentRanges(text, end);
  const r = ranges?.[0];
  if (r === undefined || r.kind !== ts.SyntaxKind.SingleLineCommentTrivia) return undefined;
  return text.slice(r.pos + 2, r.end);
}

/**
 * Rewrites the top-level statements that carry an expected value or a `throws` comment into calls
 * of `__check(value, expected, line)` and `__throws(() => { … }, name, line)`, on the same lines.
 */
export function instrument(code: string): { code: string; asserts: number; throwsChecks: number } {
  const sf = ts.createSourceFile('x.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  let asserts = 0;
  let throwsChecks = 0;
  for (const st of sf.statements) {
    const comment = trailingComment(code, st.end);
    if (comment === undefined) continue;
    const line = sf.getLineAndCharacterOfPosition(st.getStart()).line + 1;
    const thrown = parseThrows(comment);
    if (thrown !== undefined) {
      edits.push({
        start: st.getStart(),
        end: st.end,
        text: `__throws(() => { ${st.getText()} }, ${JSON.stringify(thrown)}, ${line});`,
      });
      throwsChecks++;
      continue;
    }
    if (!ts.isExpressionStatement(st)) continue;
    const expected = parseExpectation(comment);
    if (expected === undefined) continue;
    edits.push({
      start: st.getStart(),
      end: st.end,
      text: `__check((${st.expression.getText()}), ${JSON.stringify(expected)}, ${line});`,
    });
    asserts++;
  }
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  return { code: out, asserts, throwsChecks };
}

/** Top-level names an example declares or imports itself (never imported implicitly). */
function ownNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const bind = (n: ts.BindingName): void => {
    if (ts.isIdentifier(n)) names.add(n.text);
    else for (const el of n.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const cl = node.importClause;
      if (cl?.name) names.add(cl.name.text);
      const nb = cl?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) names.add(nb.name.text);
      if (nb && ts.isNamedImports(nb)) for (const el of nb.elements) names.add(el.name.text);
    } else if (ts.isVariableDeclaration(node)) bind(node.name);
    else if (
      (ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node)) &&
      node.name
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

function identifiersOf(sf: ts.SourceFile): Set<string> {
  const ids = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) ids.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return ids;
}

// ---------------------------------------------------------------------------------------------
// The program

export interface Compiled {
  examples: DocExample[];
  /** Diagnostics per example index (empty when it typechecks). */
  diagnostics: string[][];
  /** CommonJS body per example index. */
  js: string[];
}

const virtualName = (root: string, pkg: string, i: number): string =>
  join(root, 'packages', pkg, '__examples__', `example${i}.ts`);

/**
 * Collects every example of the four libraries, typechecks them all in one program (the sources
 * of the packages through `paths`; strict options of tsconfig.base.json but unused locals allowed)
 * and transpiles each to a CommonJS body.
 */
export function compileExamples(root: string): Compiled {
  // The public API of each package: its index's export names (one cheap program over the sources).
  const paths: Record<string, string[]> = {
    '@geomech/core/testing': [join(root, 'packages/core/src/testing/index.ts')],
  };
  for (const p of PACKAGES) paths[`@geomech/${p}`] = [join(root, `packages/${p}/src/index.ts`)];
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths,
  };
  const host = ts.createCompilerHost(options, true);
  const virtual = new Map<string, string>();
  const baseGet = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => {
    const v = virtual.get(name);
    if (v !== undefined) return ts.createSourceFile(name, v, lang, true, ts.ScriptKind.TS);
    return baseGet(name, lang, onError, create);
  };
  const baseExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || baseExists(name);
  const baseRead = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? baseRead(name);

  // Export names of each package's index, from a first light program (no example files yet).
  // `core/testing` is the entry point `@geomech/core/testing`: its own examples see its exports.
  const entries = [...PACKAGES, 'core/testing'] as const;
  const indexFiles = entries.map((p) =>
    join(
      root,
      p === 'core/testing' ? 'packages/core/src/testing/index.ts' : `packages/${p}/src/index.ts`,
    ),
  );
  const exportsProgram = ts.createProgram(indexFiles, options, host);
  const checker = exportsProgram.getTypeChecker();
  const exportNames = new Map<string, Set<string>>();
  for (const [k, p] of entries.entries()) {
    const sf = exportsProgram.getSourceFile(indexFiles[k] ?? '');
    const sym = sf === undefined ? undefined : checker.getSymbolAtLocation(sf);
    const names = new Set<string>();
    if (sym !== undefined) for (const e of checker.getExportsOfModule(sym)) names.add(e.name);
    exportNames.set(p, names);
  }

  const examples: DocExample[] = [];
  for (const pkg of PACKAGES) {
    const core = exportNames.get('core') ?? new Set<string>();
    for (const path of listSources(join(root, 'packages', pkg, 'src'))) {
      const testing = path.includes(`${join('core', 'src', 'testing')}`);
      const entry = testing ? 'core/testing' : pkg;
      const own = exportNames.get(entry) ?? new Set<string>();
      const text = readFileSync(path, 'utf8');
      for (const b of blocksOf(text)) {
        const { code, asserts, throwsChecks } = instrument(b.code);
        const sf = ts.createSourceFile('x.ts', b.code, ts.ScriptTarget.ES2022, true);
        const mine = ownNames(sf);
        const used = identifiersOf(sf);
        const fromOwn: string[] = [];
        const fromCore: string[] = [];
        for (const id of [...used].sort()) {
          if (mine.has(id)) continue;
          if (own.has(id)) fromOwn.push(id);
          else if (entry !== 'core' && core.has(id)) fromCore.push(id);
        }
        const prelude = [
          fromOwn.length > 0 ? `import { ${fromOwn.join(', ')} } from '@geomech/${entry}';` : '',
          fromCore.length > 0 ? `import { ${fromCore.join(', ')} } from '@geomech/core';` : '',
          'export {};',
        ].join(' ');
        examples.push({
          pkg,
          file: path.slice(root.length + 1),
          line: b.line,
          code: b.code,
          source: `${prelude}\n${code}\n`,
          asserts,
          throwsChecks,
          registersTests: /\bdescribe\w*\(/.test(b.code),
        });
      }
    }
  }

  const ambient = join(root, 'packages', 'core', '__examples__', 'ambient.d.ts');
  virtual.set(
    ambient,
    'declare function __check(value: unknown, expected: unknown, line: number): void;\n' +
      'declare function __throws(run: () => unknown, name: string, line: number): void;\n',
  );
  const counters = new Map<string, number>();
  const names = examples.map((e) => {
    const i = counters.get(e.pkg) ?? 0;
    counters.set(e.pkg, i + 1);
    const name = virtualName(root, e.pkg, i);
    virtual.set(name, e.source);
    return name;
  });
  const program = ts.createProgram([ambient, ...names], options, host, exportsProgram);
  const diagnostics = names.map((name) => {
    const sf = program.getSourceFile(name);
    if (sf === undefined) return [`not in the program: ${name}`];
    return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map(
      (d) => {
        const pos = d.start === undefined ? undefined : sf.getLineAndCharacterOfPosition(d.start);
        const where = pos === undefined ? '' : `example line ${pos.line}: `;
        return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
      },
    );
  });
  const js = examples.map(
    (e) =>
      ts.transpileModule(e.source, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText,
  );
  return { examples, diagnostics, js };
}
