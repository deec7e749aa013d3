import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seenAt, type WatchEntry } from '../../routes/watch/record.js';
import { startFront } from '../command-line/front.js';
import { api, curlWatch } from './watch-flow.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const place = (address: string) => ({ address, asn: null, network: null, country: null });

test('at most WATCH_MAX_ENTRIES entries per watch: the oldest goes first', async () => {
  const front = await startFront({ REPORT_STORE: 'local', WATCH_MAX_ENTRIES: '2' });
  try {
    const token = (await api(front, 'POST', '/api/watch')).json!.token as string;
    for (const address of ['8.8.8.8', '1.1.1.1', '193.0.0.1']) {
      assert.equal((await curlWatch(front, token, address)).status, 200);
    }
    const entries = (await api(front, 'GET', `/api/watch/${token}`)).json!.entries as WatchEntry[];
    assert.deepEqual(
      entries.map((entry) => [entry.address, entry.asn]),
      [
        ['1.1.1.1', 'AS13335'],
        ['193.0.0.1', 'AS3333'],
      ],
    );
  } finally {
    await front.close();
  }
});

test('an entry expires WATCH_TTL_DAYS after it was last seen: an address seen again after that is a first sighting', () => {
  const start = new Date('2026-11-01T00:00:00.000Z');
  const first = seenAt([], place('8.8.8.8'), start, 30 * DAY_MS, 50);
  assert.equal(first.seen, 'first');
  const later = new Date(start.getTime() + 29 * DAY_MS);
  const again = seenAt(first.entries, place('8.8.8.8'), later, 30 * DAY_MS, 50);
  assert.deepEqual([again.seen, again.entries[0]!.lastSeen], ['unchanged', later.toISOString()]);
  const past = new Date(later.getTime() + 31 * DAY_MS);
  const expired = seenAt(again.entries, place('1.1.1.1'), past, 30 * DAY_MS, 50);
  assert.equal(expired.seen, 'first', 'the expired entry is no previous address');
  assert.deepEqual(
    expired.entries.map((entry) => entry.address),
    ['1.1.1.1'],
  );
});
