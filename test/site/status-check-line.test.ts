import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Overview } from '../../contract/service-status.js';
import { checkLine } from '../../web/site/src/features/status/checked.js';

const AT = '2026-11-29T15:00:00.000Z';
const light = (id: string, checkedAt: string | null) => ({
  id,
  name: id,
  page: `https://status.${id}.test`,
  indicator: checkedAt ? ('none' as const) : ('unknown' as const),
  checkedAt,
});
const overview = (updatedAt: string | null, ...providers: Overview['providers']): Overview => ({
  updatedAt,
  providers,
});

test('a round that reached no status page is said as such, with no time', () => {
  assert.deepEqual(checkLine(overview(AT, light('a', null), light('b', null))), { key: 'unreachedAll', n: 2 });
});

test('a round that reached some: its time, and how many were never reached', () => {
  assert.deepEqual(checkLine(overview(AT, light('a', AT), light('b', null))), {
    key: 'checked',
    time: AT,
    unreached: 1,
  });
  assert.deepEqual(checkLine(overview(AT, light('a', AT), light('b', AT))), { key: 'checked', time: AT, unreached: 0 });
});

test('before the first round ends, whatever the lights', () => {
  assert.deepEqual(checkLine(overview(null, light('a', null))), { key: 'notChecked' });
  assert.deepEqual(checkLine(overview(null)), { key: 'notChecked' });
});
