import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HISTORY_CAP, readHistory, saveHistory, withSighting } from '../../web/site/src/lib/address-history.js';
import { HISTORY_KEY } from '../../web/site/src/lib/storage-keys.js';
import { memoryStore } from './memory-store.js';

const t0 = new Date('2026-01-01T10:00:00Z');
const t1 = new Date('2026-01-02T10:00:00Z');

test('a new address goes on top with its country; seeing the newest again only moves its last sighting', () => {
  let history = withSighting([], '203.0.113.7', 'US', t0);
  history = withSighting(history, '198.51.100.2', 'DE', t0);
  history = withSighting(history, '198.51.100.2', '', t1);
  assert.deepEqual(history, [
    { ip: '198.51.100.2', country: 'DE', firstSeen: t0.toISOString(), lastSeen: t1.toISOString() },
    { ip: '203.0.113.7', country: 'US', firstSeen: t0.toISOString(), lastSeen: t0.toISOString() },
  ]);
});

test(`the history keeps the newest ${HISTORY_CAP} addresses`, () => {
  let history = withSighting([], '192.0.2.0', 'US', t0);
  for (let i = 1; i <= HISTORY_CAP + 5; i++) history = withSighting(history, `192.0.2.${i}`, 'US', t0);
  assert.equal(history.length, HISTORY_CAP);
  assert.equal(history[0]?.ip, `192.0.2.${HISTORY_CAP + 5}`);
  assert.equal(history.at(-1)?.ip, '192.0.2.6');
});

test('saved and read back; an empty history leaves nothing in storage', () => {
  const store = memoryStore();
  const history = withSighting([], '2001:db8::1', 'JP', t0);
  saveHistory(store, history);
  assert.deepEqual(readHistory(store), history);
  saveHistory(store, []);
  assert.equal(store.data.has(HISTORY_KEY), false);
  assert.deepEqual(readHistory(store), []);
});

test('a damaged store gives what can be read: no JSON, no list, or entries that are not addresses', () => {
  const store = memoryStore();
  store.data.set(HISTORY_KEY, '{not json');
  assert.deepEqual(readHistory(store), []);
  store.data.set(HISTORY_KEY, '{"ip":"192.0.2.1"}');
  assert.deepEqual(readHistory(store), []);
  const good = { ip: '192.0.2.1', country: 'FR', firstSeen: t0.toISOString(), lastSeen: t1.toISOString() };
  store.data.set(
    HISTORY_KEY,
    JSON.stringify([good, { ...good, ip: '<img src=x>' }, { ...good, country: 'France' }, { ...good, lastSeen: 'x' }]),
  );
  assert.deepEqual(readHistory(store), [good]);
});

test('without storage, or with one that refuses, nothing throws and nothing is read', () => {
  assert.deepEqual(readHistory(null), []);
  const refusing = memoryStore(true);
  assert.doesNotThrow(() => saveHistory(refusing, withSighting([], '192.0.2.1', '', t0)));
  assert.deepEqual(readHistory(refusing), []);
});
