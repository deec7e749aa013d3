import assert from 'node:assert/strict';
import test from 'node:test';
import { countryNames } from '../../web/site/country-names-plugin.js';

type Load = (this: { error: (message: string) => never }, id: string) => string | undefined;

const plugin = countryNames();
const resolveId = plugin.resolveId as (id: string) => string | undefined;
const load = plugin.load as Load;
const context = {
  error: (message: string): never => {
    throw new Error(message);
  },
};

function table(locale: string): Record<string, string> {
  const id = resolveId(`virtual:country-names/${locale}`);
  assert.ok(id, 'the virtual module resolves');
  const code = load.call(context, id);
  assert.ok(code, 'the plugin makes the module');
  assert.ok(code.startsWith('export default '));
  return JSON.parse(code.slice('export default '.length, -1)) as Record<string, string>;
}

test('the site build names every region ICU knows, in English and in Chinese', () => {
  const en = table('en');
  const zh = table('zh-CN');
  assert.equal(en.US, 'United States');
  assert.equal(en.EU, 'European Union');
  assert.equal(zh.US, '美国');
  assert.equal(zh.DE, '德国');
  assert.ok(Object.keys(en).length > 250, 'every ISO 3166 country and the special regions');
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort(), 'the same regions in both languages');
  assert.equal(en.QQ, undefined, 'a code that names no region is left out, so the page shows the code');
});

test('the build stops on a language this Node has no names for, rather than shipping codes', () => {
  assert.throws(() => table('xx-unknown'), /no ICU data for xx-unknown/);
});

test('other imports are not the plugin’s', () => {
  assert.equal(resolveId('./locales/en.json'), undefined);
  assert.equal(load.call(context, '/some/file.ts'), undefined);
});

test('French and Russian get every region too, in their own words', () => {
  const en = table('en');
  const fr = table('fr');
  const ru = table('ru');
  assert.equal(fr.DE, 'Allemagne');
  assert.equal(fr.US, 'États-Unis');
  assert.equal(ru.DE, 'Германия');
  assert.equal(ru.CN, 'Китай');
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  assert.deepEqual(Object.keys(ru).sort(), Object.keys(en).sort());
});
