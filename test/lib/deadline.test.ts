import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Deadline, DeadlinePassed, endsWithin } from '../../lib/deadline.js';

test('left() counts down, and throws DeadlinePassed once nothing is left, so a late step is not begun', async () => {
  const deadline = new Deadline(60_000);
  assert.ok(deadline.left() > 59_000 && deadline.left() <= 60_000);
  const short = new Deadline(5);
  // Any wait past the deadline will do; a busy machine only makes it longer.
  await sleep(30);
  assert.throws(() => short.left(), DeadlinePassed);
});

test('race() gives the work its answer in time, else DeadlinePassed, leaving the work to run on', async () => {
  assert.equal(await new Deadline(60_000).race(Promise.resolve('done')), 'done');
  await assert.rejects(new Deadline(60_000).race(Promise.reject(new Error('failed'))), /failed/);
  let finished = false;
  const work = sleep(100).then(() => (finished = true));
  await assert.rejects(new Deadline(5).race(work), DeadlinePassed);
  assert.equal(finished, false);
  await work;
  assert.equal(finished, true);
});

test('share() is a deadline part of the way to this one, never past it', () => {
  const deadline = new Deadline(60_000);
  const half = deadline.share(0.5);
  assert.ok(half.left() <= 30_000 && half.left() > 29_000);
  // Read a moment apart on a busy machine: within a few ms of each other, the share never the later one.
  const whole = deadline.share(1).left();
  assert.ok(whole <= 60_000 && whole >= deadline.left() - 5);
});

test('endsWithin says whether the work ended in time, and rejects as the work does when it fails in time', async () => {
  assert.equal(await endsWithin(Promise.resolve(), 60_000), true);
  assert.equal(await endsWithin(sleep(60_000, undefined, { ref: false }), 5), false);
  await assert.rejects(endsWithin(Promise.reject(new Error('failed')), 60_000), /failed/);
});
