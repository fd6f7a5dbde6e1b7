/**
 * The cache of model files (issue 20: a model file's whole process within 1.5× of the built-in
 * system's): the parse trees of a file's expressions, stored under a hash of geomech's version and
 * the file's text, so that a second run of the same file never loads mathjs (≈ 60 ms of CPU of
 * the ≈ 120 ms a model file costs above its built-in at 10 steps). Everything after parsing (the
 * grammar checks, the symbolic graph, derivatives, code generation) runs as on a miss, from the
 * same trees, so a hit gives the same graph and the same numbers bit for bit.
 *
 * What is stored is data, never code: a tree is a post-order list of numbers (constants),
 * strings (names) and `['p']`, `['o', op, fn, arity]`, `['f', name, arity]` (parenthesis,
 * operator, call), rebuilt into mathjs-shaped plain objects that the grammar checks of
 * expressions.ts then check like a fresh parse (an unknown name or function is refused there).
 * An entry is read only when its shape is valid, its key and version are this file's and its
 * digest (SHA-256 of its trees) matches; anything else (a corrupt, truncated, foreign or
 * oversized entry) is ignored and rewritten. Writes go to a temporary file renamed over the entry
 * (atomic on POSIX); a cache that cannot be read or written is skipped silently: it only saves
 * time. The directory is bounded: a write that leaves more than {@link MAX_CACHE_ENTRIES} entries
 * or {@link MAX_CACHE_BYTES} removes the least recently used ones ({@link pruneEntries}).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { MathNode } from 'mathjs';
import { MAX_EXPRESSION_NODES, type ParseMemo } from './expressions.js';

/** Version of the entry layout; an entry of another layout is ignored. */
export const CACHE_FORMAT = 1;
/** Largest entry read, in bytes (a 1 MiB model file's trees take about 3 MiB). */
export const MAX_CACHE_ENTRY_BYTES = 16 * 2 ** 20;

/**
 * Most entries kept in the cache directory, and their largest total size in bytes: a write that
 * leaves more removes the least recently used entries (by modification time, which a hit
 * refreshes at most once an hour) until both hold; the entry just written is always kept.
 */
export const MAX_CACHE_ENTRIES = 256;
export const MAX_CACHE_BYTES = 64 * 2 ** 20;
/** A hit older than this (ms) refreshes its entry's modification time (the LRU order). */
const TOUCH_AFTER_MS = 3_600_000;
/** A temporary file older than this (ms) is left over from an interrupted write: removed. */
const STALE_TMP_MS = 3_600_000;

/** One post-order item of a stored tree. */
type Item =
  | number
  | string
  | readonly ['p']
  | readonly ['o', string, string, number]
  | readonly ['f', string, number];

/** A tree node as the grammar reads it (the fields of mathjs's nodes that expressions.ts uses). */
type Tree =
  | { readonly type: 'ConstantNode'; readonly value: number }
  | { readonly type: 'SymbolNode'; readonly name: string }
  | { readonly type: 'ParenthesisNode'; readonly content: Tree }
  | {
      readonly type: 'OperatorNode';
      readonly op: string;
      readonly fn: string;
      readonly args: readonly Tree[];
    }
  | {
      readonly type: 'FunctionNode';
      readonly fn: { readonly type: 'SymbolNode'; readonly name: string };
      readonly args: readonly Tree[];
    };

/**
 * The post-order items of a parsed tree, or undefined when it has a node the cache does not store
 * (only the node types of the grammar, with finite constants; iterative, no recursion).
 *
 * @example
 * ```ts
 * encodeTree(parse('2*sin(x)')); // [2, 'x', ['f', 'sin', 1], ['o', '*', 'multiply', 2]]
 * encodeTree(parse('[1, 2]'));   // undefined (not in the grammar)
 * ```
 */
export function encodeTree(root: MathNode): Item[] | undefined {
  const out: Item[] = [];
  const work: { node: MathNode; done: boolean }[] = [{ node: root, done: false }];
  while (work.length > 0) {
    const { node, done } = work.pop()!;
    const n = node as unknown as Record<string, unknown>;
    switch (node.type) {
      case 'ConstantNode': {
        const value = n.value;
        if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
        out.push(value);
        continue;
      }
      case 'SymbolNode':
        if (typeof n.name !== 'string') return undefined;
        out.push(n.name);
        continue;
      default:
        break;
    }
    let children: readonly MathNode[];
    let item: Item;
    if (node.type === 'ParenthesisNode') {
      children = [n.content as MathNode];
      item = ['p'];
    } else if (node.type === 'OperatorNode') {
      if (typeof n.op !== 'string' || typeof n.fn !== 'string') return undefined;
      children = n.args as MathNode[];
      item = ['o', n.op, n.fn, children.length];
    } else if (node.type === 'FunctionNode') {
      const f = n.fn as { type?: unknown; name?: unknown };
      if (f.type !== 'SymbolNode' || typeof f.name !== 'string') return undefined;
      children = n.args as MathNode[];
      item = ['f', f.name, children.length];
    } else return undefined;
    if (done) {
      out.push(item);
      continue;
    }
    work.push({ node, done: true });
    for (let i = children.length - 1; i >= 0; i--) work.push({ node: children[i]!, done: false });
  }
  return out;
}

/**
 * The tree of post-order items (mathjs-shaped plain objects), or undefined when they are not a
 * well-formed single tree of at most `MAX_EXPRESSION_NODES` items.
 *
 * @example
 * ```ts
 * decodeTree([2, 'x', ['o', '*', 'multiply', 2]])?.type; // 'OperatorNode'
 * decodeTree([2, 'x']);                                  // undefined (two trees)
 * ```
 */
export function decodeTree(items: unknown): MathNode | undefined {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_EXPRESSION_NODES)
    return undefined;
  const stack: Tree[] = [];
  const take = (k: unknown): Tree[] | undefined =>
    Number.isInteger(k) && (k as number) >= 0 && (k as number) <= stack.length
      ? stack.splice(stack.length - (k as number))
      : undefined;
  for (const item of items as unknown[]) {
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return undefined;
      stack.push({ type: 'ConstantNode', value: item });
    } else if (typeof item === 'string') {
      stack.push({ type: 'SymbolNode', name: item });
    } else if (Array.isArray(item) && item[0] === 'p' && item.length === 1) {
      const content = stack.pop();
      if (content === undefined) return undefined;
      stack.push({ type: 'ParenthesisNode', content });
    } else if (Array.isArray(item) && item[0] === 'o' && item.length === 4) {
      const [, op, fn, arity] = item as unknown[];
      if (typeof op !== 'string' || typeof fn !== 'string' || arity === 0) return undefined;
      const args = take(arity);
      if (args === undefined) return undefined;
      stack.push({ type: 'OperatorNode', op, fn, args });
    } else if (Array.isArray(item) && item[0] === 'f' && item.length === 3) {
      const [, name, arity] = item as unknown[];
      if (typeof name !== 'string') return undefined;
      const args = take(arity);
      if (args === undefined) return undefined;
      stack.push({ type: 'FunctionNode', fn: { type: 'SymbolNode', name }, args });
    } else return undefined;
  }
  return stack.length === 1 ? (stack[0] as unknown as MathNode) : undefined;
}

/** SHA-256 (hex) of a string. */
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The stored form of an entry. */
interface Entry {
  readonly format: number;
  readonly geomech: string;
  readonly key: string;
  readonly digest: string;
  readonly expressions: readonly (readonly [string, Item[]])[];
}

/**
 * The cache entry of one model file: a {@link ParseMemo} of its expressions' trees, read from
 * `dir` when a valid entry exists, and {@link ModelCache.save}d after a successful analysis when
 * it learned a tree.
 *
 * @example
 * ```ts
 * const cache = ModelCache.open('/tmp/geomech-cache', text, '0.0.0');
 * const model = withParseMemo(cache, () => analyzeContact(readModel(text, 'm.json')));
 * cache.save(); // the next open of the same text and version is a hit
 * ```
 */
export class ModelCache implements ParseMemo {
  /** Trees by source: the entry's (rebuilt on first use), then those learned by this run. */
  private readonly stored = new Map<string, unknown>();
  private readonly learned = new Map<string, Item[]>();
  /** Whether the entry on disk was valid (a hit); false for a miss or an ignored entry. */
  readonly hit: boolean;

  private constructor(
    private readonly file: string,
    private readonly key: string,
    private readonly version: string,
    entry: Entry | undefined,
  ) {
    this.hit = entry !== undefined;
    if (entry !== undefined)
      for (const [source, items] of entry.expressions) this.stored.set(source, items);
  }

  /**
   * The entry of the file `text` for geomech `version` in the directory `dir` (not created
   * until {@link save}); a missing, unreadable or invalid entry gives an empty cache.
   */
  static open(dir: string, text: string, version: string): ModelCache {
    const key = sha256(`geomech ${version}\0format ${CACHE_FORMAT}\0${text}`);
    const file = join(dir, 'models', `${key}.json`);
    return new ModelCache(file, key, version, readEntry(file, key, version));
  }

  get(source: string): MathNode | undefined {
    const items = this.stored.get(source);
    if (items === undefined) return undefined;
    const tree = decodeTree(items);
    if (tree === undefined) this.stored.delete(source);
    return tree;
  }

  record(source: string, tree: MathNode): void {
    if (this.stored.has(source) || this.learned.has(source)) return;
    const items = encodeTree(tree);
    if (items !== undefined) this.learned.set(source, items);
  }

  /**
   * Writes the entry (atomically: a temporary file renamed over it) when this run learned trees
   * and the entry is at most {@link MAX_CACHE_ENTRY_BYTES}; errors are ignored.
   */
  save(): void {
    if (this.learned.size === 0) return;
    const expressions: [string, unknown][] = [...this.stored, ...this.learned];
    const body = JSON.stringify(expressions);
    const text = `{"format":${CACHE_FORMAT},"geomech":${JSON.stringify(this.version)},"key":"${this.key}","digest":"${sha256(body)}","expressions":${body}}\n`;
    // an entry too large to be read back is not written (it would be rewritten by every run)
    if (Buffer.byteLength(text) > MAX_CACHE_ENTRY_BYTES) return;
    const tmp = `${this.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      try {
        rmSync(tmp, { force: true });
      } catch {}
      return;
    }
    pruneEntries(join(this.file, '..'), this.file);
  }
}

/**
 * Removes the least recently used entries of the directory `models` until at most
 * {@link MAX_CACHE_ENTRIES} entries of at most {@link MAX_CACHE_BYTES} in total are left, never
 * `keep`; and temporary files of writes interrupted more than an hour ago. Run after a write
 * only (a miss), so a hit never lists the directory; errors are ignored (another process may be
 * pruning the same directory).
 */
export function pruneEntries(models: string, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(models);
  } catch {
    return;
  }
  const now = Date.now();
  const entries: { file: string; size: number; mtime: number }[] = [];
  let bytes = 0;
  for (const name of names) {
    const file = join(models, name);
    try {
      const st = statSync(file);
      if (!st.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - st.mtimeMs > STALE_TMP_MS) rmSync(file, { force: true });
        continue;
      }
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
      bytes += st.size;
      if (file !== keep) entries.push({ file, size: st.size, mtime: st.mtimeMs });
    } catch {}
  }
  let count = entries.length + 1;
  if (count <= MAX_CACHE_ENTRIES && bytes <= MAX_CACHE_BYTES) return;
  entries.sort((a, b) => a.mtime - b.mtime);
  for (const e of entries) {
    if (count <= MAX_CACHE_ENTRIES && bytes <= MAX_CACHE_BYTES) break;
    try {
      rmSync(e.file, { force: true });
    } catch {
      continue;
    }
    count--;
    bytes -= e.size;
  }
}

/** The valid entry at `file` for `key` and `version`, or undefined. */
function readEntry(file: string, key: string, version: string): Entry | undefined {
  let text: string;
  let mtime: number;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_CACHE_ENTRY_BYTES) return undefined;
    mtime = st.mtimeMs;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  if (e.format !== CACHE_FORMAT || e.geomech !== version || e.key !== key) return undefined;
  const list = e.expressions;
  if (!Array.isArray(list) || typeof e.digest !== 'string') return undefined;
  for (const pair of list as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') return undefined;
    if (decodeTree(pair[1]) === undefined) return undefined;
  }
  if (sha256(JSON.stringify(list)) !== e.digest) return undefined;
  // a hit: keep the entry recent in the LRU order of pruneEntries (at most once an hour)
  const now = Date.now();
  if (now - mtime > TOUCH_AFTER_MS) {
    try {
      utimesSync(file, now / 1000, now / 1000);
    } catch {}
  }
  return entry as Entry;
}
