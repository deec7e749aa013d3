import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import ts from 'typescript';
import { ROOT, codeFiles } from '../support/code-files.js';

// Code the server never loads: tests, benchmarks, browser tests, the site.
const NOT_SERVER = ['test/', 'bench/', 'e2e/', 'web/site/'];

/**
 * The files `file` loads when it is loaded: its static imports and
 * re-exports of our own modules. Type-only ones vanish when compiled, and a
 * dynamic import() runs later, so neither can make a circle at load time.
 */
function loadedBy(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const loaded: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typesOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      if (!typesOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = normalize(join(dirname(file), specifier.text.replace(/\.js$/, '.ts')))
      .split(sep)
      .join('/');
    if (existsSync(join(ROOT, target))) loaded.push(target);
  }
  return loaded;
}

/** One import circle among `files`, as the chain of files that closes it, or undefined. */
function findCircle(files: string[], loads: (file: string) => string[] = loadedBy): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of loads(file)) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

test('the server code has no import circle', () => {
  const server = codeFiles().filter((file) => !file.endsWith('.d.ts') && !NOT_SERVER.some((f) => file.startsWith(f)));
  assert.ok(server.includes('server.ts'), 'the walk finds the server');
  assert.deepEqual(findCircle(server), undefined, 'a module imports, through others, a module that imports it');
});

test('the circle finder finds a circle, and reads value imports only', () => {
  const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
  assert.deepEqual(
    findCircle(['d'], (file) => graph[file] ?? []),
    ['a', 'b', 'c', 'a'],
  );
  assert.equal(
    findCircle(['d'], (file) => (file === 'c' ? [] : (graph[file] ?? []))),
    undefined,
  );
  // lib/upstream.ts loads the error vocabulary; its `import type` of the metrics is no load.
  assert.ok(loadedBy('lib/upstream.ts').includes('lib/upstream-failure.ts'));
  assert.ok(!loadedBy('lib/upstream.ts').includes('operations/metrics.ts'));
});
