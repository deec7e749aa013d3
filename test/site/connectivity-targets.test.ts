import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SITES, firstSites, SITE_GROUPS } from '../../web/site/src/features/connectivity/lists.js';
import { loadTargets, saveTargets } from '../../web/site/src/features/connectivity/saved-targets.js';
import {
  addCustom,
  addGroup,
  CUSTOM,
  defaultTargets,
  grouped,
  hostOf,
  MAX_TARGETS,
  readAddress,
  removeGroup,
  removeTarget,
  type Change,
  type Target,
} from '../../web/site/src/features/connectivity/targets.js';

function listOf(change: Change): Target[] {
  assert.ok('list' in change, JSON.stringify(change));
  return change.list;
}

/** A Storage of one map, as localStorage behaves. */
function memoryStorage(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

test("the reference's seven defaults, then every group a visitor can add, each site probed over HTTPS at a unique host", () => {
  assert.deepEqual(
    DEFAULT_SITES.map((s) => s.id),
    ['google', 'youtube', 'github', 'cloudflare', 'claude', 'chatgpt', 'wechat'],
  );
  assert.equal(DEFAULT_SITES.find((s) => s.id === 'cloudflare')!.url, 'https://speed.cloudflare.com/favicon.ico');
  assert.deepEqual(Object.keys(SITE_GROUPS).sort(), [
    'ai',
    'brazil',
    'china',
    'cloud',
    'crypto',
    'defaults',
    'developer',
    'ecommerce',
    'gaming',
    'iran',
    'news',
    'russia',
    'social',
    'streaming',
  ]);
  for (const [group, sites] of Object.entries(SITE_GROUPS)) {
    const hosts = sites.map((s) => hostOf(s.url));
    assert.equal(new Set(hosts).size, hosts.length, group);
    for (const s of sites) {
      assert.ok(s.url.startsWith('https://') && s.name && s.id.length <= 48, `${group}: ${s.url}`);
    }
  }
  assert.equal(SITE_GROUPS.iran!.length, 10);
  assert.ok(
    SITE_GROUPS.china!.some((s) => s.id === 'wechat'),
    'china reuses the WeChat default',
  );
});

test('an address is read as a visitor types it: https added, a bare site tested at its icon, credentials and fragment dropped', () => {
  assert.deepEqual(readAddress('example.com'), { url: 'https://example.com/favicon.ico' });
  assert.deepEqual(readAddress('  https://Example.com/  '), { url: 'https://example.com/favicon.ico' });
  assert.deepEqual(readAddress('https://cdn.example.com/logo.png'), { url: 'https://cdn.example.com/logo.png' });
  assert.deepEqual(readAddress('example.com/?v=1'), { url: 'https://example.com/?v=1' });
  assert.deepEqual(readAddress('https://user:pw@example.com/a#top'), { url: 'https://example.com/a' });
  assert.deepEqual(readAddress('http://example.com'), { refusal: 'notHttps' });
  assert.deepEqual(readAddress('ftp://example.com'), { refusal: 'notHttps' });
  assert.deepEqual(readAddress('localhost'), { refusal: 'noHost' });
  assert.deepEqual(readAddress('https://exa mple.com'), { refusal: 'noHost' });
  assert.deepEqual(readAddress(''), { refusal: 'noHost' });
});

test('a site of their own goes at the end, named as typed or by its host, and is refused when already there', () => {
  const start = defaultTargets();
  const list = listOf(addCustom(start, '  My intranet status page with a long name  ', 'status.example.org', 1000));
  const added = list.at(-1)!;
  assert.equal(added.group, CUSTOM);
  assert.equal(added.name, 'My intranet status page with a l');
  assert.equal(added.url, 'https://status.example.org/favicon.ico');
  assert.match(added.id, /^custom-/);
  const unnamed = listOf(addCustom(list, ' ', 'https://other.example/x.png', 1000)).at(-1)!;
  assert.equal(unnamed.name, 'other.example');
  assert.notEqual(unnamed.id, added.id, 'two sites added in the same millisecond still differ');
  assert.deepEqual(addCustom(list, 'again', 'https://status.example.org/other.ico', 2000), { refusal: 'duplicate' });
  assert.deepEqual(addCustom(list, 'google', 'www.google.com', 2000), { refusal: 'duplicate' });
  assert.deepEqual(addCustom(list, 'x', 'http://plain.example', 2000), { refusal: 'notHttps' });
});

test('the list never passes its cap: a site past it is refused, a group goes in whole or not at all', () => {
  let list = defaultTargets();
  for (let i = list.length; i < MAX_TARGETS; i++) list = listOf(addCustom(list, '', `s${i}.example`, i));
  assert.equal(list.length, MAX_TARGETS);
  assert.deepEqual(addCustom(list, '', 'one-more.example', 99), { refusal: 'full' });
  assert.deepEqual(addGroup(list, 'news'), { refusal: 'full' });
  const roomy = removeGroup(list, CUSTOM);
  const withNews = listOf(addGroup(roomy, 'news'));
  assert.equal(withNews.length, roomy.length + SITE_GROUPS.news!.length);
  assert.ok(withNews.slice(roomy.length).every((t) => t.group === 'news'));
});

test('a group skips the sites already in the list, and adds nothing when it holds no new one', () => {
  const list = listOf(addGroup(defaultTargets(), 'ai'));
  const ai = grouped(list).find((g) => g.group === 'ai')!;
  assert.equal(ai.targets.length, SITE_GROUPS.ai!.length - 2, 'Claude and ChatGPT are defaults already');
  assert.deepEqual(addGroup(list, 'ai'), { refusal: 'duplicate' });
  assert.deepEqual(addGroup(list, 'no-such-group'), { refusal: 'duplicate' });
  const restored = listOf(addGroup(removeTarget(list, 'google'), 'defaults'));
  assert.ok(
    restored.some((t) => t.id === 'google'),
    'the defaults group restores a removed default',
  );
});

test('groups show in the order they were first added; removing a site or a group keeps the rest', () => {
  const list = listOf(addCustom(listOf(addGroup(defaultTargets(), 'gaming')), '', 'mine.example', 5));
  assert.deepEqual(
    grouped(list).map((g) => g.group),
    ['defaults', 'gaming', CUSTOM],
  );
  assert.equal(removeTarget(list, 'github').length, list.length - 1);
  assert.deepEqual(
    grouped(removeGroup(list, 'gaming')).map((g) => g.group),
    ['defaults', CUSTOM],
  );
});

test('the list survives a reload through storage; a first visit gets the defaults, an emptied list stays empty', () => {
  const storage = memoryStorage();
  assert.deepEqual(loadTargets(storage), defaultTargets());
  const list = listOf(addCustom(removeTarget(defaultTargets(), 'google'), 'Mine', 'mine.example', 7));
  assert.equal(saveTargets(storage, list), true);
  assert.deepEqual(loadTargets(storage), list);
  saveTargets(storage, []);
  assert.deepEqual(loadTargets(storage), []);
});

test('whatever else storage holds is read as far as it is a list of sites, never past the cap', () => {
  const storage = memoryStorage();
  const key = () => [...storage.map.keys()][0] ?? 'netdiag.connectivity.targets';
  saveTargets(storage, defaultTargets());
  for (const text of ['not json', '{"a":1}', 'null', '42']) {
    storage.setItem(key(), text);
    assert.deepEqual(loadTargets(storage), defaultTargets(), text);
  }
  const good = { id: 'custom-1', name: 'Mine', url: 'https://mine.example/favicon.ico', group: CUSTOM };
  storage.setItem(
    key(),
    JSON.stringify([
      good,
      good,
      { ...good, id: 'plain', url: 'http://plain.example/' },
      { ...good, id: 'js', url: 'javascript:alert(1)' },
      { ...good, id: 'long', name: 'x'.repeat(500) },
      { ...good, id: 'extra', url: 'https://extra.example/', extra: 'dropped' },
      'text',
      null,
    ]),
  );
  assert.deepEqual(loadTargets(storage), [good, { ...good, id: 'extra', url: 'https://extra.example/' }]);
  const many = Array.from({ length: 200 }, (_, i) => ({ ...good, id: `c${i}`, url: `https://s${i}.example/` }));
  storage.setItem(key(), JSON.stringify(many));
  assert.equal(loadTargets(storage).length, MAX_TARGETS);
});

test("the operator's first list (CONNECTIVITY_TARGETS) replaces the reference's, as the first visit's list, the defaults group and what storage may hold", () => {
  assert.equal(firstSites([]), DEFAULT_SITES);
  const first = firstSites([
    { name: 'Google', url: 'http://google.sites.localhost:18979/favicon.ico' },
    { name: 'Intranet', url: 'https://intranet.example/favicon.ico' },
  ]);
  assert.deepEqual(
    first.map((site) => site.id),
    ['site-1', 'site-2'],
  );
  const storage = memoryStorage();
  assert.deepEqual(
    loadTargets(storage, first).map((t) => [t.name, t.group]),
    [
      ['Google', 'defaults'],
      ['Intranet', 'defaults'],
    ],
  );
  // Its plain-HTTP stand-in survives a reload; one the operator's list does not hold is dropped.
  const list = [...defaultTargets(first), { id: 'plain', name: 'P', url: 'http://plain.example/', group: CUSTOM }];
  saveTargets(storage, list);
  assert.deepEqual(loadTargets(storage, first), defaultTargets(first));
  assert.deepEqual(listOf(addGroup(removeTarget(defaultTargets(first), 'site-1'), 'defaults', first)).length, 2);
});

test('storage that is switched off or full leaves the list for this visit only', () => {
  const throwing = {
    getItem: () => {
      throw new Error('SecurityError');
    },
    setItem: () => {
      throw new Error('QuotaExceededError');
    },
  };
  assert.deepEqual(loadTargets(throwing), defaultTargets());
  assert.equal(saveTargets(throwing, defaultTargets()), false);
  assert.equal(saveTargets(null, defaultTargets()), false);
  assert.deepEqual(loadTargets(null), defaultTargets());
});
