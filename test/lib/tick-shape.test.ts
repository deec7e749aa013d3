import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepTickObjectShape } from '../../lib/tick-shape.js';

test('keepTickObjectShape keeps a nextTick queue entry itself: its two async-id symbols, the callback and the arguments', async () => {
  const entry = await keepTickObjectShape();
  assert.equal(Object.getOwnPropertySymbols(entry).length, 2);
  assert.deepEqual(Object.keys(entry), ['callback', 'args']);
  assert.equal(typeof (entry as { callback: unknown }).callback, 'function');
});
