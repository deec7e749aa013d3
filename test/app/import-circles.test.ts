import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import ts from 'typescript';
import { parse } from 'vue/compiler-sfc';
import { ROOT, codeFiles } from '../support/code-files.js';

// Code the server never loads: tests, benchmarks, browser tests, the site.
const NOT_SERVER = ['test/', 'bench/', 'e2e/', 'web/site/'];

/** The relative module a statement loads (a value import or re-export), or undefined. */
function valueSpecifier(statement: ts.Node): string | undefined {
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
  return specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.') ? specifier.text : undefined;
}

/** `specifier` from `file` as a path of ROOT, tried as the bundler and tsx try it, or undefined. */
function resolved(file: string, specifier: string, endings: string[]): string | undefined {
  const base = normalize(join(dirname(file), specifier))
    .split(sep)
    .join('/');
  return endings.map((ending) => base.replace(/\.js$/, '') + ending).find((path) => existsSync(join(ROOT, path)));
}

/**
 * The files `file` loads when it is loaded: its static imports and
 * re-exports of our own modules. Type-only ones vanish when compiled, and a
 * dynamic import() runs later, so neither can make a circle at load time.
 */
function loadedBy(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    const specifier = valueSpecifier(statement);
    const target = specifier && resolved(file, specifier, ['.ts']);
    return target ? [target] : [];
  });
}

/**
 * The site's modules `file` needs (a .vue file's scripts read too): its value
 * imports and, unlike the server's walk, its dynamic import()s. A lazy chunk
 * that imports the module that loads it is still two modules each needing the
 * other: one of them has two jobs.
 */
function siteNeeds(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const { descriptor } = file.endsWith('.vue') ? parse(text, { filename: file }) : { descriptor: undefined };
  const scripts = descriptor ? [descriptor.script?.content, descriptor.scriptSetup?.content] : [text];
  const needed: string[] = [];
  for (const script of scripts) {
    if (script === undefined) continue;
    const visit = (node: ts.Node): void => {
      const dynamic =
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0]) &&
        node.arguments[0].text.startsWith('.')
          ? node.arguments[0].text
          : undefined;
      const specifier = dynamic ?? valueSpecifier(node);
      const target = specifier && resolved(file, specifier, ['', '.ts', '/index.ts']);
      if (target && /\.(ts|vue)$/.test(target)) needed.push(target);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, script, ts.ScriptTarget.Latest, true));
  }
  return needed;
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

test('the site has no import circle, lazy imports included', () => {
  const site = codeFiles(join(ROOT, 'web/site/src'), ['.ts', '.vue']).filter((file) => !file.endsWith('.d.ts'));
  assert.ok(site.includes('web/site/src/main.ts') && site.includes('web/site/src/App.vue'), 'the walk finds the site');
  assert.deepEqual(findCircle(site, siteNeeds), undefined, 'a module needs, through others, a module that needs it');
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
  // The account loads the OpenID Connect client only when needed: a lazy import is read on the site.
  assert.ok(siteNeeds('web/site/src/account/account.ts').includes('web/site/src/account/oidc.ts'));
  assert.ok(siteNeeds('web/site/src/App.vue').some((file) => file.endsWith('.vue')));
});
