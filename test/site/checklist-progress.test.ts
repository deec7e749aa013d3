import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  ALL_ITEMS,
  GROUPS,
  PRIORITIES,
  type ItemId,
  type Priority,
} from '../../web/site/src/features/checklist/items.js';
import { clearDone, countDone, loadDone, saveDone } from '../../web/site/src/features/checklist/progress.js';

/** A Storage that keeps strings in a Map, as a browser's localStorage does. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const refusing = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

test('the checklist is a full one: about 260 items in groups, every id once, each with a priority', () => {
  assert.ok(ALL_ITEMS.length >= 250 && ALL_ITEMS.length <= 300, `${ALL_ITEMS.length} items`);
  assert.equal(new Set(ALL_ITEMS).size, ALL_ITEMS.length);
  assert.ok(GROUPS.length >= 12);
  assert.ok(GROUPS.every((group) => group.items.length >= 10));
  const items: readonly { id: string; priority: Priority }[] = GROUPS.flatMap((group) => [...group.items]);
  assert.ok(items.every((item) => PRIORITIES.includes(item.priority)));
  for (const priority of PRIORITIES) {
    assert.ok(
      items.some((item) => item.priority === priority),
      priority,
    );
  }
});

test('every item has a title, what to do and why in every language, and every group its name', () => {
  for (const locale of ['en', 'fr', 'ru', 'zh-CN']) {
    const url = new URL(`../../web/site/src/features/checklist/strings/${locale}.json`, import.meta.url);
    const strings = JSON.parse(readFileSync(url, 'utf8')) as {
      groups: Record<string, string>;
      items: Record<string, { title?: string; do?: string; why?: string }>;
    };
    assert.deepEqual(
      Object.keys(strings.groups),
      GROUPS.map((group) => group.id),
      locale,
    );
    assert.deepEqual(Object.keys(strings.items), [...ALL_ITEMS], locale);
    for (const [id, item] of Object.entries(strings.items)) {
      for (const part of ['title', 'do', 'why'] as const) assert.ok(item[part]?.trim(), `${locale} ${id}.${part}`);
    }
  }
});

test('the items of the first, shorter checklist keep their ids, so ticks kept before still count', () => {
  const before = [
    'unique-passwords',
    'password-manager',
    'long-passphrase',
    'breach-alerts',
    'recovery-details',
    'old-accounts',
    'enable-2fa',
    'app-over-sms',
    'backup-codes',
    'passkeys',
    'security-key',
    'browser-updates',
    'extensions',
    'https-only',
    'third-party-cookies',
    'site-permissions',
    'system-updates',
    'screen-lock',
    'disk-encryption',
    'find-device',
    'official-stores',
    'app-permissions',
    'router-password',
    'router-firmware',
    'wifi-encryption',
    'guest-network',
    'wps-off',
    'public-wifi',
    'phishing-signs',
    'unexpected-attachments',
    'email-aliases',
    'forwarding-rules',
    'end-to-end',
    'verify-contacts',
    'disappearing-messages',
    'backup-copies',
    'offline-copy',
    'test-restore',
    'social-audience',
    'location-history',
    'ad-personalisation',
    'share-less',
  ];
  const storage = memoryStorage();
  storage.setItem('netdiag.checklist.done', JSON.stringify(before));
  assert.equal(loadDone(storage).size, before.length);
});

test('ticked items are kept and read back; a new visit starts empty', () => {
  const storage = memoryStorage();
  assert.deepEqual([...loadDone(storage)], []);
  const done = new Set<ItemId>(['enable-2fa', 'unique-passwords']);
  assert.equal(saveDone(storage, done), true);
  // Kept in the list's order, whatever the order of ticking.
  assert.deepEqual(JSON.parse(storage.map.get('netdiag.checklist.done')!), ['unique-passwords', 'enable-2fa']);
  assert.deepEqual(loadDone(storage), done);
});

test('clearing forgets the progress in this browser', () => {
  const storage = memoryStorage();
  saveDone(storage, new Set<ItemId>(['screen-lock']));
  assert.equal(clearDone(storage), true);
  assert.equal(storage.map.has('netdiag.checklist.done'), false);
  assert.equal(loadDone(storage).size, 0);
});

test('what else is stored there is read as far as it names known items', () => {
  const storage = memoryStorage();
  storage.setItem('netdiag.checklist.done', JSON.stringify(['screen-lock', 'no-such-item', 7, null]));
  assert.deepEqual([...loadDone(storage)], ['screen-lock']);
  for (const text of ['{"screen-lock":true}', 'not json', '"screen-lock"']) {
    storage.setItem('netdiag.checklist.done', text);
    assert.equal(loadDone(storage).size, 0, text);
  }
});

test('storage switched off or full: nothing is read, and saving or clearing says it could not', () => {
  assert.equal(loadDone(refusing).size, 0);
  assert.equal(saveDone(refusing, new Set<ItemId>(['screen-lock'])), false);
  assert.equal(clearDone(refusing), false);
  assert.equal(loadDone(null).size, 0);
  assert.equal(saveDone(null, new Set()), false);
});

test('progress is counted per group and overall', () => {
  const counts = countDone(new Set<ItemId>(['enable-2fa', 'app-over-sms', 'backup-copies']));
  assert.deepEqual(counts.groups.twofactor, { done: 2, total: 16 });
  assert.deepEqual(counts.groups.backups, { done: 1, total: 16 });
  assert.deepEqual(counts.groups.accounts, { done: 0, total: 16 });
  assert.deepEqual(counts.overall, { done: 3, total: ALL_ITEMS.length });
});
