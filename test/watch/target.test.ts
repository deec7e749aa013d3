import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { NameResolver } from '../../lib/network/name-resolver.js';
import { publicOnlyLookup } from '../../routes/watch/target.js';
import { FakeDns } from '../support/fake-dns.js';
import { startFront, type Front } from '../command-line/front.js';
import { Receiver } from './receiver.js';
import { api } from './watch-flow.js';

let dns: FakeDns;
before(async () => {
  dns = await FakeDns.start();
});
after(async () => {
  await dns.close();
});

const answer = (name: string, address: string) => ({ answers: [{ type: 'A' as const, name, ttl: 0, data: address }] });

function lookup(names: NameResolver, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    publicOnlyLookup(names)(host, {}, (err, address: string | LookupAddress[]) =>
      err ? reject(err) : resolve(String(address)),
    );
  });
}

test("the connector's lookup refuses a name with a private address, so the address connected to is the one checked", async () => {
  dns.on('public.example', 'A', answer('public.example', '8.8.8.8'));
  dns.on('inward.example', 'A', answer('inward.example', '10.0.0.7'));
  const names = new NameResolver({ server: dns.address });
  assert.equal(await lookup(names, 'public.example'), '8.8.8.8');
  await assert.rejects(lookup(names, 'inward.example'), { code: 'EACCES', message: /10\.0\.0\.7, not public/ });
});

test('a webhook whose name resolved publicly when set, and to loopback when sent, is not sent', async () => {
  let front: Front | undefined;
  const receiver = await Receiver.start();
  try {
    front = await startFront({ REPORT_STORE: 'local', DNS_OVERRIDE_SERVER: dns.address });
    dns.on('rebind.example', 'A', answer('rebind.example', '8.8.8.8'));
    const token = (await api(front, 'POST', '/api/watch')).json!.token as string;
    const port = new URL(receiver.url()).port;
    const url = `http://rebind.example:${port}/hook`;
    assert.equal((await api(front, 'PUT', `/api/watch/${token}/webhook`, { url })).status, 200);

    dns.on('rebind.example', 'A', answer('rebind.example', '127.0.0.1'));
    const tested = await api(front, 'POST', `/api/watch/${token}/webhook/test`);
    assert.deepEqual(tested, {
      status: 200,
      json: { delivered: false, status: null, reason: 'Webhook URL points at a private address' },
    });
    assert.equal(receiver.received.length, 0);
  } finally {
    await front?.close();
    await receiver.close();
  }
});
