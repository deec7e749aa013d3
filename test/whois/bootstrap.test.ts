import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { fixture } from '../support/fake-upstream.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { Upstream } from '../../lib/upstream.js';
import { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { REFRESH_INTERVAL_MS } from '../../datasets/daily-refreshed.js';
import { setTimeout as delay } from 'node:timers/promises';

const fake = fakeUpstreamPerFile();
const logger = pino({ level: 'silent' });

const upstream = () => new Upstream({ timeoutMs: 2000, siteUrl: '', overrideOrigin: fake.origin });

function serveIana(publication: string) {
  for (const file of ['dns', 'ipv4', 'ipv6']) {
    const json = fixture('data.iana.org', `${file}.json`) as Record<string, unknown>;
    fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: { ...json, publication } });
  }
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 300 && !condition(); i++) await delay(10);
  assert.ok(condition(), 'condition not reached');
}

test('the shipped copy covers the five RIRs and the common TLDs on a cold start', () => {
  const bootstrap = new RdapBootstrap(upstream(), logger);
  assert.equal(bootstrap.baseForIp('41.1.2.3'), 'https://rdap.afrinic.net/rdap/');
  assert.equal(bootstrap.baseForIp('1.1.1.1'), 'https://rdap.apnic.net/');
  assert.equal(bootstrap.baseForIp('8.8.8.8'), 'https://rdap.arin.net/registry/');
  assert.equal(bootstrap.baseForIp('200.1.2.3'), 'https://rdap.lacnic.net/rdap/');
  assert.equal(bootstrap.baseForIp('193.0.6.139'), 'https://rdap.db.ripe.net/');
  assert.equal(bootstrap.baseForIp('2a00:1450:4001::1'), 'https://rdap.db.ripe.net/');
  assert.equal(bootstrap.baseForIp('2600:1f18::1'), 'https://rdap.arin.net/registry/');
  assert.equal(bootstrap.baseForTld('com'), 'https://rdap.verisign.com/com/v1/');
  assert.equal(bootstrap.baseForTld('ORG'), 'https://rdap.publicinterestregistry.org/rdap/');
  assert.equal(bootstrap.baseForTld('de'), undefined);
  assert.equal(bootstrap.isKnownBase('https://rdap.db.ripe.net/ip/1.2.3.4'), true);
  assert.equal(bootstrap.isKnownBase('https://rdap.db.ripe.net.attacker.example/ip/1.2.3.4'), false);
  assert.equal(bootstrap.isKnownBase('http://rdap.arin.net/registry/ip/1.2.3.4'), false);
});

test('the longest matching prefix wins', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rdap-'));
  try {
    const services = [
      [['193.0.0.0/8'], ['https://wide.example/']],
      [['193.0.0.0/21'], ['https://narrow.example/']],
    ];
    writeFileSync(join(dir, 'ipv4.json'), JSON.stringify({ services }));
    const bootstrap = new RdapBootstrap(upstream(), logger, dir);
    assert.equal(bootstrap.baseForIp('193.0.6.139'), 'https://narrow.example/');
    assert.equal(bootstrap.baseForIp('193.1.0.1'), 'https://wide.example/');
    assert.equal(bootstrap.baseForTld('com'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a refresh replaces the tables with IANA files; a failed or malformed file keeps its copy', async () => {
  serveIana('2026-11-20T18:00:02Z');
  fake.on('GET', 'data.iana.org', '/rdap/ipv6.json', { status: 500 });
  fake.on('GET', 'data.iana.org', '/rdap/ipv4.json', { json: { services: 'nope' } });
  const bootstrap = new RdapBootstrap(upstream(), logger);
  const shippedV4 = bootstrap.publication('ipv4');
  await bootstrap.refresh();
  assert.equal(bootstrap.publication('dns'), '2026-11-20T18:00:02Z');
  assert.equal(bootstrap.baseForTld('de'), 'https://rdap.denic.de/');
  assert.equal(bootstrap.baseForTld('org'), undefined);
  assert.equal(bootstrap.publication('ipv4'), shippedV4);
  assert.equal(bootstrap.baseForIp('2a00:1450:4001::1'), 'https://rdap.db.ripe.net/');
  assert.deepEqual(
    fake
      .requestsTo('data.iana.org')
      .map((r) => r.path)
      .sort(),
    ['/rdap/dns.json', '/rdap/ipv4.json', '/rdap/ipv6.json'],
  );
});

test('the scheduler refreshes at start and every 24 hours until stopped', async (t) => {
  t.after(() => mock.timers.reset());
  mock.timers.enable({ apis: ['setInterval'] });
  serveIana('first');
  const bootstrap = new RdapBootstrap(upstream(), logger);
  bootstrap.start();
  await until(() => bootstrap.publication('dns') === 'first' && bootstrap.publication('ipv6') === 'first');

  serveIana('second');
  mock.timers.tick(REFRESH_INTERVAL_MS - 1);
  await delay(50);
  assert.equal(bootstrap.publication('dns'), 'first');
  mock.timers.tick(1);
  await until(() => bootstrap.publication('dns') === 'second' && bootstrap.publication('ipv4') === 'second');

  bootstrap.stop();
  serveIana('third');
  const before = fake.requestsTo('data.iana.org').length;
  mock.timers.tick(REFRESH_INTERVAL_MS);
  await delay(50);
  assert.equal(fake.requestsTo('data.iana.org').length, before);
  assert.equal(bootstrap.publication('dns'), 'second');
});
