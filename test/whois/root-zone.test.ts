import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { Upstream } from '../../lib/upstream.js';
import { APP_ROOT } from '../../lib/app-root.js';
import { MIN_TLDS, RootZoneTlds, parseTldList } from '../../datasets/tlds/root-zone-tlds.js';
import { REFRESH_INTERVAL_MS } from '../../datasets/daily-refreshed.js';
import { setTimeout as delay } from 'node:timers/promises';

const fake = fakeUpstreamPerFile();
const logger = pino({ level: 'silent' });

const upstream = () => new Upstream({ timeoutMs: 2000, siteUrl: '', overrideOrigin: fake.origin });
const SHIPPED = readFileSync(join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt'), 'utf8');
const SHIPPED_LABELS = SHIPPED.split('\n').slice(1).filter(Boolean);

/** IANA's file as the fake serves it: the shipped labels plus `extra`, under `version`. */
function ianaList(version: number, extra: string[] = []): string {
  return [
    `# Version ${version}, Last Updated Tue Nov 24 07:07:01 2026 UTC`,
    ...[...SHIPPED_LABELS, ...extra].sort(),
    '',
  ].join('\n');
}

function serve(body: string, status = 200) {
  fake.on('GET', 'data.iana.org', '/TLD/tlds-alpha-by-domain.txt', {
    status,
    body,
    headers: { 'content-type': 'text/plain' },
  });
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 300 && !condition(); i++) await delay(10);
  assert.ok(condition(), 'condition not reached');
}

test("the shipped list is IANA's format and holds the root zone: every TLD of the shipped RDAP bootstrap, ccTLDs, IDN TLDs", () => {
  const tlds = new RootZoneTlds(upstream(), logger);
  assert.equal(tlds.version, 2026011900);
  assert.equal(tlds.size, 1438);
  assert.match(SHIPPED.split('\n')[0]!, /^# Version 2026011900, Last Updated Mon Jan 19 07:07:02 2026 UTC$/);
  const bootstrap = JSON.parse(readFileSync(join(APP_ROOT, 'datasets', 'rdap', 'bootstrap', 'dns.json'), 'utf8')) as {
    services: Array<[string[], string[]]>;
  };
  for (const tld of bootstrap.services.flatMap(([tlds]) => tlds)) assert.ok(tlds.has(tld), tld);
  for (const tld of ['com', 'ARPA', 'de', 'uk', 'eu', 'su', 'ac', 'xn--p1ai', 'xn--fiqs8s', 'museum', 'zw']) {
    assert.ok(tlds.has(tld), tld);
  }
  // Not delegated: ISO codes without a ccTLD, special-use names, made-up labels.
  for (const tld of ['bl', 'eh', 'zz', 'internal', 'local', 'localhost', 'test', 'exampletld']) {
    assert.equal(tlds.has(tld), false, tld);
  }
});

test('parseTldList takes only the version line and upper-case labels, and at least a root zone of them', () => {
  const parsed = parseTldList(ianaList(2026112400, ['NEWTLD']));
  assert.equal(parsed.version, 2026112400);
  assert.ok(parsed.tlds.has('newtld') && parsed.tlds.has('xn--p1ai'));
  assert.throws(() => parseTldList(SHIPPED_LABELS.join('\n')), /"# Version" line/);
  assert.throws(() => parseTldList('<!doctype html>\n<html>'), /"# Version" line/);
  assert.throws(() => parseTldList(ianaList(2026112400, ['NOT A LABEL'])), /not a top-level label/);
  assert.throws(() => parseTldList(ianaList(2026112400, ['-BAD'])), /not a top-level label/);
  const cut = [
    '# Version 2026112400, Last Updated Tue Nov 24 07:07:01 2026 UTC',
    ...SHIPPED_LABELS.slice(0, MIN_TLDS - 1),
  ].join('\n');
  assert.throws(() => parseTldList(cut), new RegExp(`holds ${MIN_TLDS - 1} labels`));
});

test('a refresh takes a newer IANA list; a failed, malformed, cut-off or older one keeps the list in use', async () => {
  const tlds = new RootZoneTlds(upstream(), logger);
  for (const body of [
    '<html>maintenance</html>',
    ianaList(2026112400, ['lower']),
    ianaList(2025010100, ['OLDTLD']),
    ianaList(2026112400).slice(0, 2000),
  ]) {
    serve(body);
    await tlds.refresh();
    assert.equal(tlds.version, 2026011900, body.slice(0, 40));
  }
  serve(ianaList(2026112400, ['NEWTLD']), 500);
  await tlds.refresh();
  assert.equal(tlds.has('newtld'), false);

  serve(ianaList(2026112400, ['NEWTLD']));
  await tlds.refresh();
  assert.equal(tlds.version, 2026112400);
  assert.equal(tlds.has('newtld'), true);
  assert.equal(fake.requestsTo('data.iana.org').at(-1)?.path, '/TLD/tlds-alpha-by-domain.txt');
});

test('the scheduler refreshes at start and every 24 hours until stopped', async (t) => {
  t.after(() => mock.timers.reset());
  mock.timers.enable({ apis: ['setInterval'] });
  serve(ianaList(2026112400));
  const tlds = new RootZoneTlds(upstream(), logger);
  tlds.start();
  await until(() => tlds.version === 2026112400);

  serve(ianaList(2026112500));
  mock.timers.tick(REFRESH_INTERVAL_MS - 1);
  await delay(50);
  assert.equal(tlds.version, 2026112400);
  mock.timers.tick(1);
  await until(() => tlds.version === 2026112500);

  tlds.stop();
  serve(ianaList(2026112600));
  const asked = fake.requestsTo('data.iana.org').length;
  mock.timers.tick(REFRESH_INTERVAL_MS);
  await delay(50);
  assert.equal(fake.requestsTo('data.iana.org').length, asked);
  assert.equal(tlds.version, 2026112500);
});

test('a missing or malformed shipped copy is a broken build: the constructor throws', () => {
  assert.throws(
    () => new RootZoneTlds(upstream(), logger, join(APP_ROOT, 'datasets', 'tlds', 'missing.txt')),
    /ENOENT/,
  );
  assert.throws(
    () => new RootZoneTlds(upstream(), logger, join(APP_ROOT, 'datasets', 'rdap', 'bootstrap', 'dns.json')),
    /"# Version" line/,
  );
});
