import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapStatistics } from 'node:v8';
import { memoized, memoryCache } from '../../lib/memory-cache.js';

test('memoized answers a repeated key from memory and, when full, forgets the least recently used key', () => {
  const seen: string[] = [];
  const memo = memoized((key) => {
    seen.push(key);
    return key.length;
  }, 2);
  assert.equal(memo('aa'), 2);
  assert.equal(memo('aa'), 2);
  assert.deepEqual(seen, ['aa']);
  memo('bbb');
  memo('aa');
  memo('c');
  assert.equal(memo('aa'), 2);
  assert.equal(memo('bbb'), 3);
  assert.deepEqual(seen, ['aa', 'bbb', 'c', 'bbb'], 'the third distinct key pushed out bbb, the least recently used');
});

test('memoryCache holds an entry until its ttl has passed', async () => {
  const lasting = memoryCache<string, string>({ max: 10, ttlMs: 60_000 });
  lasting.set('a', 'kept');
  assert.equal(lasting.get('a'), 'kept');
  const brief = memoryCache<string, string>({ max: 10, ttlMs: 5 });
  brief.set('a', 'gone');
  // Any wait past the ttl will do; a busy machine only makes it longer.
  await sleep(30);
  assert.equal(brief.get('a'), undefined);
});

test('memoryCache load: concurrent fetches of one key share one call; an undefined answer is not kept', async () => {
  const calls: string[] = [];
  const upstream: { answer?: string } = {};
  const cache = memoryCache<string, string>({
    max: 10,
    load: async (key) => {
      calls.push(key);
      return upstream.answer;
    },
  });
  assert.deepEqual(await Promise.all([cache.fetch('k'), cache.fetch('k')]), [undefined, undefined]);
  assert.deepEqual(calls, ['k']);
  upstream.answer = 'found';
  assert.equal(await cache.fetch('k'), 'found', 'the undefined answer was not kept');
  assert.equal(await cache.fetch('k'), 'found');
  assert.deepEqual(calls, ['k', 'k']);
});

test('memoryCache ttlOf: a loaded answer is kept for the time its own value says', async () => {
  const cache = memoryCache<string, { failed: boolean }>({
    max: 10,
    ttlMs: 60_000,
    load: async (key) => ({ failed: key.startsWith('bad') }),
    ttlOf: (value) => (value.failed ? 5 : 60_000),
  });
  await cache.fetch('good');
  await cache.fetch('bad');
  assert.equal(cache.getRemainingTTL('bad') <= 5, true);
  // Any wait past the short ttl will do; a busy machine only makes it longer.
  await sleep(30);
  assert.equal(cache.has('bad'), false);
  assert.equal(cache.has('good'), true);
});

test('memoryCache makes its slots as entries come, not all of them when built', () => {
  const before = getHeapStatistics().used_heap_size;
  // Held until measured: twenty limiter-sized caches, empty.
  const caches = Array.from({ length: 20 }, () => memoryCache<string, number>({ max: 50_000 }));
  const grown = getHeapStatistics().used_heap_size - before;
  // Slots made up front would be about 1 MB each (two 50,000-element arrays of pointers).
  assert.ok(grown < 2 * 1024 * 1024, `${caches.length} empty caches took ${(grown / 1048576).toFixed(1)} MB`);
});

test('memoryCache without a byte bound still holds at most max entries, pushing out the least recently used', () => {
  const cache = memoryCache<string, number>({ max: 3 });
  for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, i);
  assert.equal(cache.size, 3);
  assert.equal(cache.has('a'), false);
  assert.deepEqual([...cache.keys()].sort(), ['b', 'c', 'd']);
});
