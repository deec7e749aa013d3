import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callPrivate, readPrivate } from '../../web/site/src/lib/private-call.js';
import { poll } from '../../web/site/src/lib/poll.js';
import { FakeClock } from './fake-clock.js';

const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

test("a private answer's refusals read as the contract's markers say", async () => {
  assert.deepEqual(await readPrivate(reply(200, { a: 1 })), { kind: 'ok', data: { a: 1 } });
  assert.deepEqual(await readPrivate(reply(401, { message: 'whatever' })), { kind: 'signIn' });
  assert.deepEqual(await readPrivate(reply(403, { error: 'Sign in required' })), { kind: 'signIn' });
  assert.deepEqual(await readPrivate(reply(401, { error: 'Invalid token' })), { kind: 'invalidToken' });
  assert.deepEqual(await readPrivate(reply(429, { error: 'Monthly quota exceeded', code: 'quota_exceeded' })), {
    kind: 'quota',
  });
  const limiter = await readPrivate(reply(429, { message: 'Too Many Requests' }));
  assert.equal(limiter.kind === 'failed' && limiter.error.kind, 'rateLimited', 'the limiter is not the quota');
  const gate = await readPrivate(reply(403, { error: 'Access denied' }));
  assert.equal(gate.kind === 'failed' && gate.error.kind, 'forbidden', "the Referer gate's 403 is not a sign-in");
  const upstream = await readPrivate(reply(502, { error: 'Upstream fetch failed' }));
  assert.equal(upstream.kind === 'failed' && upstream.error.kind, 'upstream');
  const odd = await readPrivate(new Response('<html>', { status: 500 }));
  assert.equal(odd.kind === 'failed' && odd.error.detail, '', 'a body that is not JSON says nothing');
  const garbled = await readPrivate(new Response('{"rawCount": 1', { status: 200 }));
  assert.equal(garbled.kind === 'failed' && garbled.error.kind, 'upstream', 'a success that is not JSON is a failure');
});

test('a private call sends the sign-in headers, and a lost connection is a network failure', async () => {
  const seen: Array<RequestInit | undefined> = [];
  const fetcher = (async (_: RequestInfo | URL, init?: RequestInit) => {
    seen.push(init);
    return reply(200, {});
  }) as typeof fetch;
  await callPrivate(fetcher, '/api/x', { authorization: 'Bearer t' }, { method: 'POST' });
  assert.deepEqual(seen[0]!.headers, { accept: 'application/json', authorization: 'Bearer t' });
  assert.equal(seen[0]!.method, 'POST');
  const lost = await callPrivate((() => Promise.reject(new TypeError('x'))) as typeof fetch, '/api/x', {});
  assert.equal(lost.kind === 'failed' && lost.error.kind, 'network');
});

test('a poll asks after the first delay, then as long as the answer names another, and stops on abort', async () => {
  const clock = new FakeClock(() => ({ kind: 'hang' }));
  const asked: number[] = [];
  const answers = [1, 2, 3];
  const done = poll(
    clock,
    1000,
    async () => {
      asked.push(clock.now());
      return answers.shift()!;
    },
    (n) => (n < 3 ? 500 : null),
  );
  await clock.advance(5000);
  assert.equal(await done, 3);
  assert.deepEqual(asked, [1000, 1500, 2000]);

  const controller = new AbortController();
  const stopped = poll(
    clock,
    1000,
    async () => 1,
    () => 100,
    controller.signal,
  );
  await clock.advance(1500);
  controller.abort();
  assert.equal(await stopped, null);
});
