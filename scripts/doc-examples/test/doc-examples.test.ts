/**
 * Runs every TSDoc `@example` of packages/{core,groupoid,contact,dirac}/src as a test: each must
 * typecheck against the public API and run; trailing `// value` comments are asserted and
 * `// throws Name` comments checked (conventions: CONTRIBUTING.md, "Doc examples").
 */
import { fileURLToPath } from 'node:url';
import * as contact from '@geomech/contact';
import * as core from '@geomech/core';
import * as coreTesting from '@geomech/core/testing';
import * as dirac from '@geomech/dirac';
import * as groupoid from '@geomech/groupoid';
import { describe, expect, it } from 'vitest';
import { compileExamples, type Expected, PACKAGES } from '../extract.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const modules: Record<string, unknown> = {
  '@geomech/core': core,
  '@geomech/core/testing': coreTesting,
  '@geomech/groupoid': groupoid,
  '@geomech/contact': contact,
  '@geomech/dirac': dirac,
};

function require(name: string): unknown {
  const m = modules[name];
  if (m === undefined) throw new Error(`an example may import only @geomech/* libraries: ${name}`);
  return m;
}

/** Compares a value with what its comment says, naming the path of the first mismatch. */
function mismatch(actual: unknown, exp: Expected, path: string): string | undefined {
  switch (exp.kind) {
    case 'number': {
      if (ArrayBuffer.isView(actual) || Array.isArray(actual)) {
        // a scalar for a vector: every entry (`// ≈ 0` for a residual)
        const a = actual as ArrayLike<unknown>;
        for (let i = 0; i < a.length; i++) {
          const m = mismatch(a[i], exp, `${path}[${i}]`);
          if (m !== undefined) return m;
        }
        return undefined;
      }
      const v = typeof actual === 'bigint' ? Number(actual) : actual;
      if (typeof v !== 'number') return `${path}: expected a number ${exp.value}, got ${str(v)}`;
      // Digits past the 12th are round-off (integers shown are exact up to it).
      const tol = Math.max(exp.tol, 1e-12 * Math.abs(exp.value), exp.tol > 0 ? 0 : 1e-12);
      return Math.abs(v - exp.value) <= tol * (1 + 1e-9)
        ? undefined
        : `${path}: expected ${exp.value} (±${tol}), got ${v}`;
    }
    case 'boolean':
    case 'string':
      return actual === exp.value
        ? undefined
        : `${path}: expected ${str(exp.value)}, got ${str(actual)}`;
    case 'list': {
      if (typeof actual !== 'object' || actual === null || !('length' in actual)) {
        return `${path}: expected a list, got ${str(actual)}`;
      }
      const a = actual as ArrayLike<unknown>;
      if (a.length !== exp.items.length) {
        return `${path}: expected length ${exp.items.length}, got ${a.length} (${str(actual)})`;
      }
      for (let i = 0; i < a.length; i++) {
        const m = mismatch(a[i], exp.items[i] as Expected, `${path}[${i}]`);
        if (m !== undefined) return m;
      }
      return undefined;
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null) {
        return `${path}: expected an object, got ${str(actual)}`;
      }
      for (const [k, v] of exp.fields) {
        const m = mismatch((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
        if (m !== undefined) return m;
      }
      return undefined;
    }
  }
}

function str(v: unknown): string {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    return `[${Array.from(v as unknown as ArrayLike<number>).join(', ')}]`;
  }
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function errorName(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const tag = (e as { _tag?: unknown })._tag;
  if (typeof tag === 'string') return tag;
  const name = (e as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

const compiled = compileExamples(root);

function runner(i: number, where: string): () => void {
  const ex = compiled.examples[i];
  if (ex === undefined) throw new Error(`no example ${i}`);
  return () => {
    const failures: string[] = [];
    const __check = (value: unknown, expected: Expected, line: number): void => {
      const m = mismatch(value, expected, 'value');
      if (m !== undefined) failures.push(`${where} line ${ex.line + line - 1}: ${m}`);
    };
    const __throws = (run: () => unknown, name: string, line: number): void => {
      try {
        run();
      } catch (e) {
        const got = errorName(e);
        if (got !== name) failures.push(`${where} line ${ex.line + line - 1}: threw ${got}: ${e}`);
        return;
      }
      failures.push(`${where} line ${ex.line + line - 1}: expected ${name}, nothing was thrown`);
    };
    const body = new Function('require', 'exports', '__check', '__throws', compiled.js[i] ?? '');
    body(require, {}, __check, __throws);
    if (failures.length > 0) throw new Error(failures.join('\n'));
  };
}

for (const pkg of PACKAGES) {
  describe(pkg, () => {
    compiled.examples.forEach((ex, i) => {
      if (ex.pkg !== pkg) return;
      const where = `${ex.file}:${ex.line}`;
      const diags = compiled.diagnostics[i] ?? [];
      if (ex.registersTests) {
        // The example registers vitest suites (the property suite): it runs here, at collection.
        describe(`${where} (registers tests)`, () => {
          it('typechecks', () => expect(diags).toEqual([]));
          // it runs here, where `describe` may be called, and registers its suites
          runner(i, where)();
        });
        return;
      }
      it(where, () => {
        if (diags.length > 0) throw new Error(`${where} does not typecheck:\n${diags.join('\n')}`);
        runner(i, where)();
      });
    });
  });
}

describe('counts', () => {
  it('finds the examples of every package and asserts values in them', () => {
    const by = (pkg: string) => compiled.examples.filter((e) => e.pkg === pkg);
    const summary = PACKAGES.map((p) => ({
      pkg: p,
      examples: by(p).length,
      asserts: by(p).reduce((a, e) => a + e.asserts, 0),
      throws: by(p).reduce((a, e) => a + e.throwsChecks, 0),
    }));
    console.log(summary);
    for (const s of summary) expect(s.examples).toBeGreaterThan(50);
  });
});
