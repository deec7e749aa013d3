import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedLookups } from '../../lib/shared-lookups.js';

/** A store of tiny bounds whose loads are counted per key. */
function counted(bounds: { maxEntries?: number; maxBytes?: number } = {}) {
  const lookups = new SharedLookups<string>({
    maxEntries: bounds.maxEntries ?? 100,
    maxBytes: bounds.maxBytes ?? 1_000_000,
    failureMs: 60_000,
    sizeOf: (value) => value.length,
  });
  const loads: string[] = [];
  const run = (key: string, value = `answer for ${key}`) =>
    lookups.run(key, 60_000, async () => {
      loads.push(key);
      return value;
    });
  return { run, loads };
}

test('past the entry bound the least recently used answer is asked again', async () => {
  const { run, loads } = counted({ maxEntries: 2 });
  await run('a');
  await run('b');
  await run('c');
  await run('c');
  await run('b');
  await run('a');
  assert.deepEqual(loads, ['a', 'b', 'c', 'a']);
});

test('an answer over the byte bound is answered but never kept; small ones share the bytes', async () => {
  const { run, loads } = counted({ maxBytes: 1000 });
  const big = 'x'.repeat(2000);
  assert.equal(await run('big', big), big);
  assert.equal(await run('big', big), big);
  assert.deepEqual(loads, ['big', 'big']);
  await run('small');
  await run('small');
  assert.deepEqual(loads, ['big', 'big', 'small']);
});

test('an answer whose keeping time is 0 is shared in flight but not kept', async () => {
  const lookups = new SharedLookups<string>({ maxEntries: 10, maxBytes: 1000, failureMs: 0, sizeOf: (v) => v.length });
  let loads = 0;
  const load = async () => {
    loads++;
    await new Promise((resolve) => setImmediate(resolve));
    return 'answer';
  };
  await Promise.all([lookups.run('k', 0, load), lookups.run('k', 0, load)]);
  assert.equal(loads, 1);
  await lookups.run('k', 0, load);
  assert.equal(loads, 2);
});
