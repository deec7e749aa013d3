import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startServer, stopServer } from '../support/real-server.js';
import { startHangingResolvers } from '../support/hanging-resolvers.js';
import { REFERER } from '../support/app.js';

const PER_CLIENT = 2;
const AT_ONCE = 12;

test('one client asking many names at once gets its share of comparisons and 429 for the rest; another client is answered meanwhile', async (t) => {
  const hanging = await startHangingResolvers();
  t.after(() => hanging.close());
  const server = await startServer({
    UPSTREAM_OVERRIDE_ORIGIN: hanging.origin,
    DNS_OVERRIDE_SERVER: hanging.dnsServer,
    // Every query's deadline, so each comparison holds its turn this long.
    UPSTREAM_TIMEOUT_MS: '1500',
    DNSRESOLVER_CLIENT_LOOKUPS: String(PER_CLIENT),
  });
  t.after(() => stopServer(server));
  const client = new Agent({ connections: AT_ONCE + 1 });
  t.after(() => client.close());
  const lookup = async (name: string, headers: Record<string, string>) => {
    const res = await request(`${server.apiUrl}/api/dnsresolver?hostname=${name}.example.com&type=A`, {
      dispatcher: client,
      headers: { ...REFERER, ...headers },
      headersTimeout: 60_000,
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: (await res.body.json()) as unknown };
  };

  // Both addresses are in one /64: one client to the limiters, as here.
  const flood = Array.from({ length: AT_ONCE }, (_, i) =>
    lookup(`n${i}`, { 'cf-connecting-ip': `2001:db8:1:2::${i + 1}` }),
  );
  const other = await lookup('other', { 'cf-connecting-ip': '203.0.113.9' });
  const answers = await Promise.all(flood);

  assert.equal(other.status, 200, 'another client is not held back by the first');
  const answered = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status !== 200);
  // Its share runs, as many wait for a turn; a busy machine may let a waiter's turn pass.
  assert.ok(answered.length >= PER_CLIENT && answered.length <= 2 * PER_CLIENT, `${answered.length} answered`);
  assert.equal(answered.length + refused.length, AT_ONCE);
  for (const answer of refused) {
    assert.deepEqual(answer, { status: 429, retryAfter: '1', body: { message: 'Too Many Requests' } });
  }

  // Once its comparisons have ended, the client is answered again.
  assert.equal((await lookup('later', { 'cf-connecting-ip': '2001:db8:1:2::99' })).status, 200);
});
