import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slots } from '../../lib/slots.js';

/** A task that runs until `finish` is called, recording that it started. */
function pending(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve(name)));
  const task = () => {
    started.push(name);
    return done;
  };
  return { task, finish: () => finish() };
}

test('at most `size` tasks run at once; the next waiting one starts as one ends, in arrival order', async () => {
  const slots = new Slots(2);
  const started: string[] = [];
  const a = pending(started, 'a');
  const b = pending(started, 'b');
  const c = pending(started, 'c');
  const d = pending(started, 'd');
  const never = new AbortController().signal;
  const runs = [a, b, c, d].map((p) => slots.run(p.task, never));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'b']);
  b.finish();
  await runs[1];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'b', 'c']);
  a.finish();
  c.finish();
  d.finish();
  assert.deepEqual(await Promise.all(runs), ['a', 'b', 'c', 'd']);
});

test('a waiting task whose signal aborts gives up its place without running; a failing task frees its slot', async () => {
  const slots = new Slots(1);
  const started: string[] = [];
  const first = pending(started, 'first');
  const never = new AbortController().signal;
  const running = slots.run(first.task, never);
  const deadline = new AbortController();
  const waiting = slots.run(pending(started, 'gave up').task, deadline.signal);
  deadline.abort();
  assert.equal(await waiting, undefined);
  first.finish();
  await running;
  await assert.rejects(
    slots.run(() => Promise.reject(new Error('no answer')), never),
    /no answer/,
  );
  assert.equal(await slots.run(async () => 'next', never), 'next');
  assert.equal(await slots.run(async () => 'never', AbortSignal.abort()), undefined);
  assert.deepEqual(started, ['first']);
});
