import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'vue/compiler-sfc';

// The site reaches the service's code only through the `@contract` alias
// (contract/, the response schemas), and as types only: a relative path out
// of web/site couples the two trees file by file, and a value import would
// put TypeBox and the server's checks into the bundle. The one exception is a
// contract module of plain constants that loads nothing at run time (a list
// both ends read as a value, as contract/nat-answers.ts).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = join(ROOT, 'web/site');
const SOURCES = join(SITE, 'src');

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|vue)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function scriptsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.vue')) return [text];
  const { descriptor } = parse(text, { filename: file });
  return [descriptor.script?.content, descriptor.scriptSetup?.content].filter((s): s is string => s !== undefined);
}

function importsOf(file: string): Import[] {
  const found: Import[] = [];
  for (const script of scriptsOf(file)) {
    const source = ts.createSourceFile(file, script, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const typeOnly =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              clause.namedBindings !== undefined &&
              ts.isNamedImports(clause.namedBindings) &&
              clause.namedBindings.elements.length > 0 &&
              clause.namedBindings.elements.every((element) => element.isTypeOnly)));
        found.push({ file, specifier: node.moduleSpecifier.text, typeOnly });
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        found.push({ file, specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        found.push({ file, specifier: node.arguments[0].text, typeOnly: false });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const imports = sourceFiles(SOURCES).flatMap(importsOf);
const where = ({ file, specifier }: Import) => `${relative(ROOT, file)}: '${specifier}'`;

test('the site finds its imports (the walk reads .ts and .vue files)', () => {
  assert.ok(imports.some((i) => i.file.endsWith('.vue') && i.specifier === 'vue'));
  assert.ok(imports.some((i) => i.specifier.startsWith('@contract/')));
});

test('no relative import of the site leaves web/site: the service is reached through @contract only', () => {
  const outside = imports.filter(
    ({ file, specifier }) => specifier.startsWith('.') && !resolve(dirname(file), specifier).startsWith(SITE + sep),
  );
  assert.deepEqual(outside.map(where), []);
});

/** Whether a contract module (`@contract/<name>.js`) loads no other module at run time: plain constants. */
function loadsNothing(specifier: string): boolean {
  const file = join(ROOT, 'contract', specifier.replace(/^@contract\//, '').replace(/\.js$/, '.ts'));
  return importsOf(file).every((i) => i.typeOnly);
}

test('the site imports @contract as types only, or as values from a module of plain constants, so TypeBox stays out of the bundle', () => {
  const values = imports.filter((i) => i.specifier.startsWith('@contract/') && !i.typeOnly);
  assert.ok(values.length > 0, 'the site reads one list of the contract as a value (the NAT answers)');
  assert.deepEqual(values.filter((i) => !loadsNothing(i.specifier)).map(where), []);
});

test('a contract module that loads TypeBox or another module is not plain constants', () => {
  assert.ok(loadsNothing('@contract/nat-answers.js'));
  assert.ok(!loadsNothing('@contract/report.js'));
  assert.ok(!loadsNothing('@contract/string-enum.js'));
});
