import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { parse as parseVue } from '@vue/compiler-sfc';
import * as registry from '../../web/site/src/lib/storage-keys.js';

// The privacy page lists what the site keeps in the browser from lib/storage-keys.ts. These tests read the
// site's own code and fail when it reads or writes a key, a cache or a database that module does not declare,
// so a new key cannot reach a visitor's browser without reaching the page.

const SITE = join(import.meta.dirname, '../../web/site');
const REGISTRY = /(^|\/)storage-keys(\.js|\.ts)?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|vue)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The script of a file as TypeScript: a component's script blocks (a template reaches no browser global). */
function parsed(path: string): ts.SourceFile {
  const text = readFileSync(path, 'utf8');
  const script = path.endsWith('.vue')
    ? (() => {
        const { descriptor } = parseVue(text, { filename: path });
        return [descriptor.script?.content ?? '', descriptor.scriptSetup?.content ?? ''].join('\n');
      })()
    : text;
  return ts.createSourceFile(path, script, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

const files = [...sourceFiles(join(SITE, 'src')), join(SITE, 'pwa.ts')].map(parsed);
const name = (file: ts.SourceFile) => relative(SITE, file.fileName);
const at = (node: ts.Node) => {
  const file = node.getSourceFile();
  return `${name(file)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};

/** The names a file imports from the registry. */
function registryImports(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!REGISTRY.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.add(el.name.text);
  }
  return names;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** Whether `id` names a parameter of a function around it: a helper handing on its caller's key. */
function isParameter(id: ts.Identifier): boolean {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (ts.isFunctionLike(node) && node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === id.text)) {
      return true;
    }
  }
  return false;
}

// Each call that names a stored entry, and which of its arguments is that name.
const KEY_ARGUMENT = new Map([
  ['getItem', 0],
  ['setItem', 0],
  ['removeItem', 0],
  ['readKept', 1],
  ['writeKept', 1],
]);
const OPENERS = new Set(['indexedDB', 'caches']);

interface KeyUse {
  where: string;
  /** The registry's name for it, or null when it is not the registry's. */
  declared: string | null;
}

function keyUses(file: ts.SourceFile): KeyUse[] {
  const imported = registryImports(file);
  const uses: KeyUse[] = [];
  const judge = (argument: ts.Expression | undefined, where: string) => {
    if (argument && ts.isIdentifier(argument) && imported.has(argument.text)) {
      uses.push({ where, declared: argument.text });
    } else if (
      argument &&
      ts.isCallExpression(argument) &&
      ts.isIdentifier(argument.expression) &&
      imported.has(argument.expression.text)
    ) {
      uses.push({ where, declared: argument.expression.text });
    } else if (!(argument && ts.isIdentifier(argument) && isParameter(argument))) {
      uses.push({ where, declared: null });
    }
  };
  walk(file, (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const index = KEY_ARGUMENT.get(method);
      if (index !== undefined) judge(node.arguments[index], at(node));
      const opener =
        ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) ? callee.expression.text : '';
      if (OPENERS.has(opener) && ['open', 'delete', 'deleteDatabase'].includes(method)) {
        judge(node.arguments[0], at(node));
      }
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'cacheName') {
      judge(node.initializer, at(node));
    }
  });
  return uses;
}

const uses = files.flatMap(keyUses);

test('every key the site reads or writes, every cache and database it opens, is named by the registry', () => {
  assert.deepEqual(
    uses.filter((use) => !use.declared).map((use) => use.where),
    [],
    'declare the key in web/site/src/lib/storage-keys.ts (KEPT_IN_BROWSER) and import it from there',
  );
});

test('no key is spelt out anywhere else', () => {
  const spelt: string[] = [];
  for (const file of files) {
    if (REGISTRY.test(name(file).replace(/\.ts$/, ''))) continue;
    walk(file, (node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        /^(netdiag[.-]|oidc\.)/.test(node.text)
      ) {
        spelt.push(`${at(node)} ${node.text}`);
      }
    });
  }
  assert.deepEqual(spelt, []);
});

test('every key the registry declares is one the code uses, and the privacy page lists it', () => {
  const declared = Object.entries(registry).filter(
    ([, value]) => typeof value === 'string' || typeof value === 'function',
  );
  const used = new Set(uses.map((use) => use.declared));
  for (const [exported] of declared) assert.ok(used.has(exported), `${exported} is declared but never used`);
  const listed = new Set(registry.KEPT_IN_BROWSER.map((entry) => entry.name));
  for (const [exported, value] of declared) {
    if (typeof value === 'string') assert.ok(listed.has(value), `${exported} is not in KEPT_IN_BROWSER`);
  }
  const page = readFileSync(join(SITE, 'src/features/privacy/PrivacyPage.vue'), 'utf8');
  assert.match(page, /import \{[^}]*\bKEPT_IN_BROWSER\b[^}]*\} from '(\.\.\/)+lib\/storage-keys'/);
});

test('each kept entry has its line on the privacy page in every language, once', () => {
  const whats = registry.KEPT_IN_BROWSER.map((entry) => entry.what);
  assert.equal(new Set(whats).size, whats.length);
  for (const locale of ['en', 'zh-CN', 'fr', 'ru']) {
    const texts = JSON.parse(readFileSync(join(SITE, `src/features/privacy/strings/${locale}.json`), 'utf8')) as {
      browser: Record<string, unknown>;
    };
    for (const what of whats) {
      assert.equal(typeof texts.browser[what], 'string', `privacy.browser.${what} in ${locale}`);
    }
  }
});

test('the sign-in library keeps its session and its round-trip state where the registry says', () => {
  const oidc = files.find((file) => name(file) === 'src/account/oidc.ts')!;
  const settings: Record<string, string> = {};
  walk(oidc, (node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'UserManager') {
      const options = node.arguments?.[0];
      assert.ok(options && ts.isObjectLiteralExpression(options));
      for (const property of options.properties) {
        if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
          settings[property.name.text] = property.initializer.getText();
        }
      }
    }
  });
  const area = (what: string) => registry.KEPT_IN_BROWSER.find((entry) => entry.what === what)?.area;
  // The user store is ours to choose; the state store is left at the library's default, localStorage.
  assert.equal(settings.userStore, `new WebStorageStateStore({ store: ${area('signInSession')} })`);
  assert.equal(settings.stateStore, undefined);
  assert.equal(area('signInState'), 'localStorage');
});
