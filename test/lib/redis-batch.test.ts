import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { RedisLink } from '../../lib/redis-link.js';
import { RedisServer } from '../support/redis-server.js';

const COUNT = "return redis.call('INCR', KEYS[1])";
let redis: RedisServer;
let link: RedisLink;
let pipelines = 0;

before(async () => {
  redis = await RedisServer.start();
  link = new RedisLink(redis.url, pino({ level: 'silent' }));
  link.client.defineCommand('countUp', { numberOfKeys: 1, lua: COUNT });
  const pipeline = link.client.pipeline.bind(link.client);
  link.client.pipeline = (...args: Parameters<typeof pipeline>) => {
    pipelines++;
    return pipeline(...args);
  };
  while (!link.usable) await new Promise((resolve) => setTimeout(resolve, 20));
});
after(async () => {
  await link.close();
  await redis.stop();
});

const send = (key: string) =>
  new Promise<unknown>((resolve, reject) =>
    link.batch.send('countUp', [key], (error, result) => (error ? reject(error) : resolve(result))),
  );

test('commands sent in one event-loop turn go to Redis in one pipeline, each answered with its own reply', async () => {
  pipelines = 0;
  const replies = await Promise.all([send('batch:a'), send('batch:a'), send('batch:b'), send('batch:a')]);
  assert.deepEqual(replies, [1, 2, 1, 3]);
  assert.equal(pipelines, 1);
});

test('a command sent after the batch went out goes in the next one', async () => {
  pipelines = 0;
  assert.equal(await send('later'), 1);
  assert.equal(await send('later'), 2);
  assert.equal(pipelines, 2);
});

test('Redis gone: every command of the batch is answered with an error, none hangs', async () => {
  await redis.stop();
  try {
    const outcomes = await Promise.allSettled([send('gone'), send('gone')]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
  } finally {
    await redis.start();
  }
});
