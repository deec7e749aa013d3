import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { PeriodicCheck } from '../../lib/periodic-check.js';

const HOUR = 60 * 60 * 1000;
const settle = () => new Promise((resolve) => setImmediate(resolve));

function counting(options: { firstAfterMs: number; run?: () => Promise<unknown> }) {
  const seen = { calls: 0, errors: [] as Error[] };
  const record = async () => {
    seen.calls++;
  };
  const check = new PeriodicCheck({
    id: 'test-check',
    run: options.run ?? record,
    firstAfterMs: options.firstAfterMs,
    everyMs: 24 * HOUR,
    onError: (err) => seen.errors.push(err),
  });
  return { check, seen };
}

test('the first check runs after its delay, later ones every 24 hours from it, none after stop', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const { check, seen } = counting({ firstAfterMs: 60 * 1000 });
  check.start();
  check.start();

  mock.timers.tick(60 * 1000 - 1);
  await settle();
  assert.equal(seen.calls, 0, 'nothing before the delay');
  mock.timers.tick(1);
  await settle();
  assert.equal(seen.calls, 1, 'one check at the delay, though start() was called twice');

  mock.timers.tick(24 * HOUR - 1);
  await settle();
  assert.equal(seen.calls, 1);
  mock.timers.tick(1);
  await settle();
  assert.equal(seen.calls, 2, 'the next 24 hours after the first');

  check.stop();
  mock.timers.tick(72 * HOUR);
  await settle();
  assert.equal(seen.calls, 2);
});

test('a delay of 0 checks at once; stop before the delay means no check at all', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const now = counting({ firstAfterMs: 0 });
  now.check.start();
  await settle();
  assert.equal(now.seen.calls, 1);
  now.check.stop();

  const later = counting({ firstAfterMs: 60 * 1000 });
  later.check.start();
  later.check.stop();
  mock.timers.tick(48 * HOUR);
  await settle();
  assert.equal(later.seen.calls, 0);
});

test('a check still running is not started again, and a failed one goes to onError', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  let started = 0;
  let finish: () => void = () => {};
  const slow = counting({
    firstAfterMs: 0,
    run: () => {
      started++;
      return new Promise<void>((resolve) => (finish = resolve));
    },
  });
  slow.check.start();
  mock.timers.tick(24 * HOUR);
  await settle();
  assert.equal(started, 1, 'the second is skipped while the first runs');
  finish();
  await settle();
  mock.timers.tick(24 * HOUR);
  await settle();
  assert.equal(started, 2);
  slow.check.stop();

  const failing = counting({
    firstAfterMs: 0,
    run: async () => {
      throw new Error('upstream down');
    },
  });
  failing.check.start();
  await settle();
  failing.check.stop();
  assert.deepEqual(
    failing.seen.errors.map((e) => e.message),
    ['upstream down'],
  );
});
