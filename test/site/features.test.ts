import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import ts from 'typescript';
import { fromAppRoot } from '../../lib/app-root.js';
import { Sections } from '../../contract/report.js';

// The site's router, navigation, report and privacy page are read from the features' declarations
// (web/site/src/features/<folder>/feature.ts), which only Vite can gather; these tests read the same
// declarations with TypeScript's parser and hold them to the service's report whitelist (frontend contract
// 19.3, contract/report.ts) and to the privacy page's texts, so a forgotten line fails here.

const FEATURES = fromAppRoot('web/site/src/features');
const LANGUAGES = ['en', 'fr', 'ru', 'zh-CN'];

type Value = string | number | Declared;
interface Declared {
  [key: string]: Value | undefined;
}

/** An object literal's plain entries (strings, numbers, nested objects); functions and the rest are left out. */
function literal(node: ts.ObjectLiteralExpression): Declared {
  const out: Declared = {};
  for (const property of node.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
    const value = property.initializer;
    if (ts.isStringLiteral(value)) out[property.name.text] = value.text;
    else if (ts.isNumericLiteral(value)) out[property.name.text] = Number(value.text);
    else if (ts.isObjectLiteralExpression(value)) out[property.name.text] = literal(value);
  }
  return out;
}

/** What `folder/feature.ts` hands to defineFeature. */
function declaration(folder: string): Declared {
  const file = join(FEATURES, folder, 'feature.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let found: Declared | undefined;
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineFeature' &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      found = literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  assert.ok(found, `${folder}/feature.ts calls defineFeature with an object`);
  return found;
}

interface Feature {
  folder: string;
  name: string;
  path: string;
  report?: { section: string; order: number };
  privacy?: 'server' | { browser: string };
}

const features: Feature[] = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(FEATURES, entry.name, 'feature.ts')))
  .map(({ name: folder }) => ({ folder, ...declaration(folder) }) as unknown as Feature);
const reporting = features.filter((feature) => feature.report);
const whitelist = Object.keys(Sections.properties);

test('every page of the site is a feature with a name and a path of its own', () => {
  assert.ok(features.length >= 30, `${features.length} features found`);
  for (const feature of features) {
    assert.equal(typeof feature.name, 'string', `${feature.folder}: name`);
    assert.equal(typeof feature.path, 'string', `${feature.folder}: path`);
  }
  const names = features.map((feature) => feature.name);
  const paths = features.map((feature) => feature.path);
  assert.deepEqual([...new Set(names)], names, 'names are unique');
  assert.deepEqual([...new Set(paths)], paths, 'paths are unique');
});

test("every feature's report section is one the service accepts, and every section the service accepts has its feature", () => {
  for (const feature of reporting) {
    assert.ok(whitelist.includes(feature.report!.section), `${feature.folder}: ${feature.report!.section}`);
  }
  const sections = reporting.map((feature) => feature.report!.section);
  assert.deepEqual([...sections].sort(), [...whitelist].sort(), 'one feature for each whitelisted section');
});

test("the report lists its sections in the service's order", () => {
  const order = [...reporting].sort((a, b) => a.report!.order - b.report!.order).map((f) => f.report!.section);
  assert.deepEqual(order, whitelist);
});

test('every feature that fills a report section says on the privacy page whom it asks, in every language', () => {
  const texts = LANGUAGES.map((language) => ({
    language,
    lines: (
      JSON.parse(readFileSync(join(FEATURES, 'privacy', 'strings', `${language}.json`), 'utf8')) as {
        tools: Record<string, unknown>;
      }
    ).tools,
  }));
  for (const feature of features) {
    if (feature.report) {
      assert.ok(feature.privacy, `${feature.folder} fills ${feature.report.section} but has no privacy line`);
    }
    if (typeof feature.privacy !== 'object') continue;
    const line = feature.privacy.browser;
    for (const { language, lines } of texts) {
      assert.equal(typeof lines[line], 'string', `${feature.folder}: privacy.tools.${line} in ${language}`);
    }
  }
});
