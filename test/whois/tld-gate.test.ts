import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../support/fake-upstream.js';
import { fakeUpstreamPerFile, fakeWhoisPerFile } from '../support/fake-upstream-per-file.js';
import { buildTestApi, call, assertErrorAnswer } from '../support/app.js';
import { APP_ROOT } from '../../lib/app-root.js';
import { noTldServer } from '../../routes/whois/index.js';
import { setTimeout as delay } from 'node:timers/promises';

// Finding 3 of the hardening issue: a top-level label outside the root zone
// costs no outbound query, and one TLD costs one IANA query however many
// requests wait for it.

const fake = fakeUpstreamPerFile();
const whois = fakeWhoisPerFile();

async function api(t: TestContext, timeoutMs = 2000) {
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    WHOIS_OVERRIDE_SERVER: whois.address,
    UPSTREAM_TIMEOUT_MS: String(timeoutMs),
    // The TLD cache's own sharing and keeping show only without the whole lookup's failure memory.
    UPSTREAM_FAILURE_MEMORY_MS: '0',
  });
  // Closed even when an assertion fails, so no scheduler keeps the test process alive.
  t.after(() => app.close());
  return app;
}

const DE = fixture('whois.iana.org', 'de.txt') as string;
const EXAMPLE_DE = fixture('whois.denic.de', 'example.de.txt') as string;

/** Distinct labels that are not top-level domains: "nxa", "nxb", … "nxaa", … */
function unknownTlds(count: number): string[] {
  const labels: string[] = [];
  for (let i = 0; labels.length < count; i++) {
    labels.push(`nx${i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)))}`);
  }
  return labels;
}

test('a domain under a label outside the root zone answers the 404 for a TLD without WHOIS or RDAP, with no outbound query', async (t) => {
  const app = await api(t);
  const tlds = unknownTlds(300);
  for (const tld of tlds) {
    const res = await call(app, `/api/whois?q=example.${tld}`);
    assertErrorAnswer(res, 404, noTldServer(tld), tld);
  }
  assert.equal(whois.connections, 0);
  assert.deepEqual(whois.queries, []);
  assert.deepEqual(fake.requests, []);
});

test('concurrent requests for one TLD share one IANA query', async (t) => {
  whois.on('de', { text: DE, delayMs: 200 });
  const names = Array.from({ length: 20 }, (_, i) => `example${i}.de`);
  for (const name of names) whois.on(name, EXAMPLE_DE);
  const app = await api(t);
  const answers = await Promise.all(names.map((name) => call(app, `/api/whois?q=${name}`)));
  for (const res of answers) assert.equal(res.statusCode, 200);
  assert.equal(whois.queries.filter((q) => q === 'de').length, 1);
  assert.equal(whois.queries.length, 1 + names.length);
});

test('a failed IANA query is shared by the requests waiting for it and not kept: the next request asks again', async (t) => {
  whois.on('de', { hang: true });
  const app = await api(t, 300);
  const first = await Promise.all([call(app, '/api/whois?q=a.de'), call(app, '/api/whois?q=b.de')]);
  for (const res of first) assert.equal(res.statusCode, 502);
  assert.deepEqual(whois.queries, ['de']);
  // The shared query has its own timeout and may outlive the requests that stopped waiting at their deadline.
  await whois.idle();
  whois.on('de', DE);
  whois.on('a.de', EXAMPLE_DE);
  const again = await call(app, '/api/whois?q=a.de');
  assert.equal(again.statusCode, 200);
  assert.deepEqual(whois.queries, ['de', 'de', 'a.de']);
});

test('the start-up step refreshes the TLD list from IANA: a newly delegated TLD is looked up after it', async (t) => {
  const shipped = readFileSync(join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt'), 'utf8').split('\n');
  const newer = [
    '# Version 2026112400, Last Updated Tue Nov 24 07:07:01 2026 UTC',
    ...[...shipped.slice(1).filter(Boolean), 'NEWTLD'].sort(),
    '',
  ].join('\n');
  fake.on('GET', 'data.iana.org', '/TLD/tlds-alpha-by-domain.txt', {
    body: newer,
    headers: { 'content-type': 'text/plain' },
  });
  whois.on('newtld', DE.replaceAll('DE', 'NEWTLD').replaceAll('whois.denic.de', 'whois.nic.newtld'));
  whois.on('example.newtld', 'Domain: example.newtld\r\n');
  const app = await api(t);
  const before = await call(app, '/api/whois?q=example.newtld');
  assert.equal(before.statusCode, 404);
  assert.deepEqual(whois.queries, []);

  await app.lifecycle.boot();
  let res = before;
  for (let i = 0; i < 200 && res.statusCode !== 200; i++) {
    await delay(10);
    res = await call(app, '/api/whois?q=example.newtld');
  }
  assert.equal(res.statusCode, 200);
  assert.deepEqual(Object.keys(res.json()), ['whois.nic.newtld']);
  assert.deepEqual(whois.queries, ['newtld', 'example.newtld']);
});
