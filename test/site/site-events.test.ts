import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitSiteEvent, latestSiteEvents, onSiteEvent } from '../../web/site/src/lib/site-events.js';

test('a listener hears each event from the moment it listens until it stops; the latest of each is kept', () => {
  emitSiteEvent('whoisLookup', { query: 'before.example' });
  const heard: unknown[] = [];
  const stop = onSiteEvent((name, detail) => heard.push([name, detail]));
  emitSiteEvent('checklistProgress', { done: 1, total: 42 });
  emitSiteEvent('checklistProgress', { done: 2, total: 42 });
  stop();
  emitSiteEvent('censorshipTested', { blocked: true });
  assert.deepEqual(heard, [
    ['checklistProgress', { done: 1, total: 42 }],
    ['checklistProgress', { done: 2, total: 42 }],
  ]);
  assert.deepEqual(latestSiteEvents(), {
    whoisLookup: { query: 'before.example' },
    checklistProgress: { done: 2, total: 42 },
    censorshipTested: { blocked: true },
  });
});
