import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { FakeDns } from '../support/fake-dns.js';
import { NameNotResolved, NameResolver } from '../../lib/network/name-resolver.js';

// Outbound names resolve through c-ares against a real UDP server on loopback
// (FakeDns), which counts the questions it receives: the cache and the shared
// in-flight questions show as questions not asked.

async function fakeDns(t: TestContext): Promise<FakeDns> {
  const dns = await FakeDns.start();
  t.after(() => dns.close());
  return dns;
}

const asked = (dns: FakeDns, name: string) => dns.questions.filter((q) => q.name === name).length;

function answersA(dns: FakeDns, name: string, address: string, ttl = 300): void {
  dns.on(name, 'A', { answers: [{ type: 'A', name, ttl, data: address }] });
}

test('a name resolves through the given server, and a repeated lookup is answered from the cache', async (t) => {
  const dns = await fakeDns(t);
  answersA(dns, 'api.upstream.test', '192.0.2.10');
  const names = new NameResolver({ server: dns.address });
  assert.deepEqual(await names.all('api.upstream.test'), [{ address: '192.0.2.10', family: 4 }]);
  // One question per record type (A and AAAA), then none.
  assert.equal(asked(dns, 'api.upstream.test'), 2);
  for (let i = 0; i < 5; i++) assert.equal((await names.all('API.upstream.test.'))[0]?.address, '192.0.2.10');
  assert.equal(asked(dns, 'api.upstream.test'), 2);
});

test('concurrent lookups of one name share its questions', async (t) => {
  const dns = await fakeDns(t);
  dns.delayMs = 100;
  answersA(dns, 'shared.upstream.test', '192.0.2.11');
  const names = new NameResolver({ server: dns.address });
  const answers = await Promise.all(Array.from({ length: 10 }, () => names.all('shared.upstream.test')));
  assert.ok(answers.every((a) => a[0]?.address === '192.0.2.11'));
  assert.equal(asked(dns, 'shared.upstream.test'), 2);
});

test('an answer with a short TTL is asked again once it has expired', async (t) => {
  const dns = await fakeDns(t);
  answersA(dns, 'brief.upstream.test', '192.0.2.12', 1);
  const names = new NameResolver({ server: dns.address });
  await names.all('brief.upstream.test');
  await names.all('brief.upstream.test');
  assert.equal(asked(dns, 'brief.upstream.test'), 2);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await names.all('brief.upstream.test');
  assert.equal(asked(dns, 'brief.upstream.test'), 4);
});

test('a server that never answers: the lookup fails at its timeout, and the failure is remembered briefly', async (t) => {
  const dns = await fakeDns(t);
  dns.on('hang.upstream.test', 'A', { drop: true }).on('hang.upstream.test', 'AAAA', { drop: true });
  const names = new NameResolver({ server: dns.address, timeoutMs: 1000 });
  const started = performance.now();
  const err = await names.all('hang.upstream.test').catch((e: unknown) => e);
  const elapsed = performance.now() - started;
  assert.ok(err instanceof NameNotResolved, String(err));
  assert.equal(err.code, 'EAI_AGAIN');
  assert.ok(elapsed >= 950 && elapsed < 3000, `failed after ${elapsed} ms`);
  const questions = asked(dns, 'hang.upstream.test');
  assert.ok(questions >= 2, `${questions} questions`);

  const again = performance.now();
  await assert.rejects(names.all('hang.upstream.test'), { code: 'EAI_AGAIN' });
  assert.ok(performance.now() - again < 500, 'the remembered failure answers without waiting');
  assert.equal(asked(dns, 'hang.upstream.test'), questions);
});

test('a name that does not exist: ENOTFOUND, remembered briefly', async (t) => {
  const dns = await fakeDns(t);
  const names = new NameResolver({ server: dns.address });
  await assert.rejects(names.all('missing.upstream.test'), { name: 'NameNotResolved', code: 'ENOTFOUND' });
  await assert.rejects(names.all('missing.upstream.test'), { code: 'ENOTFOUND' });
  assert.equal(asked(dns, 'missing.upstream.test'), 2);
});

test("the caller's abort ends a lookup at once and is not remembered as the name's failure", async (t) => {
  const dns = await fakeDns(t);
  dns.on('slow.upstream.test', 'A', {
    delayMs: 600,
    answers: [{ type: 'A', name: 'slow.upstream.test', data: '192.0.2.13' }],
  });
  const names = new NameResolver({ server: dns.address });
  const started = performance.now();
  await assert.rejects(names.all('slow.upstream.test', AbortSignal.timeout(50)), { name: 'TimeoutError' });
  assert.ok(performance.now() - started < 500, 'the abort ended the wait');
  assert.equal((await names.all('slow.upstream.test'))[0]?.address, '192.0.2.13');
});

test('IP literals and localhost names are answered without a question', async (t) => {
  const dns = await fakeDns(t);
  const names = new NameResolver({ server: dns.address });
  assert.deepEqual(await names.all('127.0.0.1'), [{ address: '127.0.0.1', family: 4 }]);
  assert.deepEqual(await names.all('::1'), [{ address: '::1', family: 6 }]);
  assert.equal((await names.all('api.localhost'))[0]?.address, '127.0.0.1');
  assert.equal(dns.questions.length, 0);
});

test("the connector's lookup: one address of the asked family, or all of them", async (t) => {
  const dns = await fakeDns(t);
  answersA(dns, 'both.upstream.test', '192.0.2.14');
  dns.on('both.upstream.test', 'AAAA', {
    answers: [{ type: 'AAAA', name: 'both.upstream.test', data: '2001:db8::14' }],
  });
  const names = new NameResolver({ server: dns.address });
  const lookup = (options: { family?: number; all?: boolean }) =>
    new Promise<unknown>((resolve, reject) =>
      names.lookup('both.upstream.test', options, (err, address, family) =>
        err ? reject(err) : resolve(options.all ? address : { address, family }),
      ),
    );
  assert.deepEqual(await lookup({ family: 6 }), { address: '2001:db8::14', family: 6 });
  assert.deepEqual(await lookup({}), { address: '192.0.2.14', family: 4 });
  assert.deepEqual((await lookup({ all: true })) as LookupAddress[], [
    { address: '192.0.2.14', family: 4 },
    { address: '2001:db8::14', family: 6 },
  ]);
  await assert.rejects(
    new Promise((resolve, reject) =>
      names.lookup('missing.upstream.test', {}, (err, address) => (err ? reject(err) : resolve(address))),
    ),
    { code: 'ENOTFOUND' },
  );
});

test('a name DNS says does not exist is asked of the system (/etc/hosts); a resolver that does not answer is not', async (t) => {
  const dns = await fakeDns(t);
  dns.on('hang.internal', 'A', { drop: true }).on('hang.internal', 'AAAA', { drop: true });
  const asked: string[] = [];
  // As /etc/hosts would answer: one IPv4 address, asked once per family.
  const hostsLookup = ((
    hostname: string,
    options: { family?: number },
    callback: (e: null, a: LookupAddress[]) => void,
  ) => {
    asked.push(hostname);
    callback(null, options.family === 6 ? [] : [{ address: '192.0.2.77', family: 4 }]);
  }) as unknown as typeof import('node:dns').lookup;
  const names = new NameResolver({ server: dns.address, timeoutMs: 1000, hostsLookup });
  // The fake server knows no such name: it answers that it does not exist.
  assert.deepEqual(await names.all('companion.internal'), [{ address: '192.0.2.77', family: 4 }]);
  await assert.rejects(names.all('hang.internal'), NameNotResolved);
  assert.deepEqual([...new Set(asked)], ['companion.internal']);
});
