import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_ITEMS, GROUPS, type ItemId } from '../../web/site/src/features/checklist/items.js';
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

test('the checklist has between 30 and 50 items in groups, every id once', () => {
  assert.ok(ALL_ITEMS.length >= 30 && ALL_ITEMS.length <= 50, `${ALL_ITEMS.length} items`);
  assert.equal(new Set(ALL_ITEMS).size, ALL_ITEMS.length);
  assert.ok(GROUPS.every((group) => group.items.length >= 3));
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
  assert.deepEqual(counts.groups.twofactor, { done: 2, total: 5 });
  assert.deepEqual(counts.groups.backups, { done: 1, total: 3 });
  assert.deepEqual(counts.groups.accounts, { done: 0, total: 6 });
  assert.deepEqual(counts.overall, { done: 3, total: ALL_ITEMS.length });
});
