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

// The site's shared texts, and each feature's, under its namespace (as features/strings.ts merges them): the
// feature's name, or the folder's for one without a page (features/globalping).
const FEATURES = join(SRC, 'features');
const folders = readdirSync(FEATURES, { withFileTypes: true }).flatMap((entry) =>
  entry.isDirectory() && readdirSync(join(FEATURES, entry.name)).includes('strings') ? [entry.name] : [],
);
const declaration = (folder: string): string | null => {
  const file = join(FEATURES, folder, 'feature.ts');
  return readdirSync(join(FEATURES, folder)).includes('feature.ts') ? readFileSync(file, 'utf8') : null;
};
const namespaceOf = (folder: string): string => /name: '([^']+)'/.exec(declaration(folder) ?? '')?.[1] ?? folder;
// The locale folder also holds its README (the translators' guide).
const LANGUAGES = readdirSync(join(SRC, 'locales')).flatMap((file) => /^(.+)\.json$/.exec(file)?.[1] ?? []);
const textsIn = (language: string): Map<string, string> => {
  const texts = flatten(read(`${language}.json`));
  for (const folder of folders) {
    const file = join(FEATURES, folder, 'strings', `${language}.json`);
    const namespace = namespaceOf(folder);
    const own = flatten(JSON.parse(readFileSync(file, 'utf8')) as Tree, `${namespace}.`);
    for (const [key, text] of own) {
      assert.ok(!texts.has(key), `${key} is both the site's and feature ${folder}'s`);
      texts.set(key, text);
    }
  }
  return texts;
};
const en = textsIn('en');

test("every language has exactly the English keys, with as many plural forms, the tools' included", () => {
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    const other = textsIn(language);
    assert.deepEqual([...other.keys()].sort(), [...en.keys()].sort(), language);
    for (const [key, text] of en) {
      assert.equal(other.get(key)?.split(' | ').length, formsIn(language, text), `${language} ${key}`);
    }
  }
});

// Russian counts one, few and many (web/site/src/lib/plural.ts): three forms where English has two.
function formsIn(language: string, english: string): number {
  const forms = english.split(' | ').length;
  return language === 'ru' && forms === 2 ? 3 : forms;
}

// Texts that read the same in English: names, codes, bare placeholders and dashes no language translates.
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  '*': [
    'site.name',
    'nav.whois',
    'nav.dns',
    'nav.mac',
    'nav.reference',
    'dns.doh',
    'dns.plain',
    'asn.tier1',
    'asn.prefixCounts',
    'lookup.placeholder',
    'reference.version',
    'connectivity.add.groupOption',
    'globalping.live.code',
    'webrtc.nat.unavailable',
    'webrtc.nat.error',
    'browser.gpc',
  ],
  // French words spelt as the English ones.
  fr: [
    'nav.traceroute',
    'nav.menu',
    'nav.groups.tests',
    'errors.minutes',
    'geo.org',
    'asn.share.clients',
    'asn.share.mobile',
    'censorship.tier',
    'censorship.continents.europe',
    'globalping.picker.sections.europe',
    'status.indicator.maintenance',
    'outages.cause',
    'reference.stable',
    'rules.destination',
    'connectivity.site',
    'connectivity.actions',
    'connectivity.group.iran',
    'browser.bits',
    'browser.pixels',
    'browser.cookies',
    'profile.level.Standard',
    'profile.level.Premium',
    'profile.feature',
    'dnsdeep.transport',
    'invisibility.signal',
  ],
  ru: ['geo.consensusJoin'],
};

test('French and Russian leave no English text behind, beyond names and codes', () => {
  for (const language of ['fr', 'ru']) {
    const other = textsIn(language);
    const allowed = new Set([...SAME_AS_ENGLISH['*']!, ...SAME_AS_ENGLISH[language]!]);
    const untranslated = [...en].filter(([key, text]) => other.get(key) === text && !allowed.has(key));
    assert.deepEqual(
      untranslated.map(([key]) => key),
      [],
      `${language}: texts still in English`,
    );
  }
});

test('the list of texts allowed to read as English holds none that no longer do', () => {
  const same = (language: string) => {
    const other = textsIn(language);
    return new Set([...en].filter(([key, text]) => other.get(key) === text).map(([key]) => key));
  };
  const fr = same('fr');
  const ru = same('ru');
  const stale = [
    ...SAME_AS_ENGLISH['*']!.filter((key) => !fr.has(key) && !ru.has(key)),
    ...SAME_AS_ENGLISH.fr!.filter((key) => !fr.has(key)).map((key) => `fr: ${key}`),
    ...SAME_AS_ENGLISH.ru!.filter((key) => !ru.has(key)).map((key) => `ru: ${key}`),
  ];
  assert.deepEqual(stale, []);
});

test("every feature has its texts in every language, and one in the navigation its label in the site's", () => {
  for (const folder of folders) {
    for (const language of LANGUAGES) {
      assert.ok(readdirSync(join(FEATURES, folder, 'strings')).includes(`${language}.json`), `${folder}: ${language}`);
    }
  }
  const listed = readdirSync(FEATURES, { withFileTypes: true }).flatMap((entry) => {
    const declared = entry.isDirectory() ? declaration(entry.name) : null;
    return declared && /\bnav: \{/.test(declared) && !/\blabel: /.test(declared) ? [namespaceOf(entry.name)] : [];
  });
  for (const name of listed) assert.ok(en.has(`nav.${name}`), `nav.${name}`);
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

test('every translation keeps the English text’s placeholders, no more and no fewer', () => {
  const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    const other = textsIn(language);
    for (const [key, text] of en) {
      assert.deepEqual(placeholders(other.get(key) ?? ''), placeholders(text), `${language} ${key}`);
    }
  }
});
