import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnlockQueue } from '../../web/site/src/account/unlock-queue.js';

/** A queue whose waits are recorded and pass at once, and whose unlocks are logged. */
function queueWith(fail: (name: string) => boolean = () => false) {
  const sent: string[] = [];
  const waits: number[] = [];
  const queue = new UnlockQueue(
    async (name) => {
      sent.push(name);
      if (fail(name)) throw new Error('refused');
    },
    2000,
    async (ms) => {
      waits.push(ms);
    },
  );
  return { queue, sent, waits };
}

test('each name is unlocked once, in order, the spacing between two unlocks and none before the first', async () => {
  const { queue, sent, waits } = queueWith();
  queue.offer(['AddSweetAdd', 'BarelyEnough', 'AddSweetAdd']);
  queue.offer(['BarelyEnough', 'RapidPace']);
  await queue.idle();
  assert.deepEqual(sent, ['AddSweetAdd', 'BarelyEnough', 'RapidPace']);
  assert.deepEqual(waits, [2000, 2000]);
});

test('what the profile already holds is never sent', async () => {
  const { queue, sent } = queueWith();
  queue.hold(['IAmHuman', 'BarelyEnough']);
  queue.offer(['IAmHuman', 'BarelyEnough', 'RapidPace']);
  await queue.idle();
  assert.deepEqual(sent, ['RapidPace']);
});

test('a refused unlock is tried again when a later result earns it; a recorded one is not', async () => {
  let refuse = true;
  const { queue, sent } = queueWith((name) => name === 'SlipUp' && refuse);
  queue.offer(['JustInCase', 'SlipUp']);
  await queue.idle();
  refuse = false;
  queue.offer(['JustInCase', 'SlipUp']);
  await queue.idle();
  assert.deepEqual(sent, ['JustInCase', 'SlipUp', 'SlipUp']);
});
