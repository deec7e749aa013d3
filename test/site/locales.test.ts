import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { fromAppRoot } from '../../lib/app-root.js';

type Tree = { [key: string]: string | Tree };
const SRC = fromAppRoot('web/site/src');
const read = (name: string) => JSON.parse(readFileSync(join(SRC, 'locales', name), 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.(vue|ts)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const en = flatten(read('en.json'));

test('every language has exactly the English keys, with as many plural forms', () => {
  for (const file of readdirSync(join(SRC, 'locales')).filter((f) => f !== 'en.json')) {
    const other = flatten(read(file));
    assert.deepEqual([...other.keys()].sort(), [...en.keys()].sort(), file);
    for (const [key, text] of en) {
      assert.equal(other.get(key)?.split(' | ').length, text.split(' | ').length, `${file} ${key}`);
    }
  }
});

test('every text key the site names literally exists in English', () => {
  const missing: string[] = [];
  for (const file of sources(SRC)) {
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/\$?\bt\(\s*'([a-zA-Z][\w.]*)'/g)) {
      if (!en.has(match[1]!)) missing.push(`${match[1]} (${file.slice(SRC.length + 1)})`);
    }
  }
  assert.deepEqual(missing, []);
});
