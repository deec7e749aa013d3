import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalReportStore } from '../../routes/report/local-store.js';

const DAY_S = 24 * 60 * 60;

test('local store: a value written again with a later expiry outlives the sweep of its first expiry; delete() removes it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'local-store-rewrite-'));
  let now = Date.parse('2026-11-29T12:00:00.000Z');
  const store = new LocalReportStore(dir, { now: () => now });
  try {
    await store.open();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    await store.put('watch.abc', { expiresAt: at(DAY_S), report: { n: 1 } }, DAY_S);
    await store.put('watch.abc', { expiresAt: at(3 * DAY_S), report: { n: 2 } }, 3 * DAY_S);
    await store.put('gone', { expiresAt: at(DAY_S), report: { n: 0 } }, DAY_S);

    now += 2 * DAY_S * 1000;
    assert.equal(await store.sweep(), 1, 'only the value past its expiry');
    assert.deepEqual((await store.get('watch.abc'))?.report, { n: 2 });
    assert.equal(await store.get('gone'), undefined);

    await store.delete('watch.abc');
    assert.equal(await store.get('watch.abc'), undefined);
    await store.delete('never-stored');
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
