import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkReport } from '../../contract/report.js';
import {
  ANSWER_TIMEOUT_MS,
  askAll,
  askProvider,
  ATTEMPTS,
  PROVIDER_STAGGER_MS,
  type Outcome,
} from '../../web/site/src/features/dnsleak/leak-test.js';
import { PROVIDERS, type Provider } from '../../web/site/src/features/dnsleak/providers.js';
import type { NameSource } from '../../web/site/src/features/dnsleak/random-names.js';
import {
  dnsleakSection,
  pageRows,
  reportRows,
  resolverCountries,
  type ProviderResult,
} from '../../web/site/src/features/dnsleak/results.js';
import { FakeClock, type Behaviour } from './fake-clock.js';

let counter = 0;
const names: NameSource = { now: () => 1_000, random: () => (++counter % 97) / 97, bytes: (n) => new Uint8Array(n) };
const ipApi = PROVIDERS[0]!;
const answer = (body: unknown, status = 200): Behaviour => ({
  kind: 'answer',
  after: 20,
  status,
  body: JSON.stringify(body),
});

test('a provider that names its resolver is asked once, over CORS without cookies', async () => {
  const clock = new FakeClock(() => answer({ dns: { ip: '193.0.0.10' } }));
  const pending = askProvider(ipApi, clock, names);
  await clock.advance(100);
  assert.deepEqual(await pending, { status: 'found', ip: '193.0.0.10' });
  assert.equal(clock.requests.length, 1);
  assert.equal(clock.requests[0]!.init!.mode, undefined, 'a plain CORS read');
  assert.equal(clock.requests[0]!.init!.credentials, 'omit');
});

test('a blocked provider is asked ATTEMPTS times, each with a fresh name, then fails as blocked', async () => {
  const clock = new FakeClock(() => ({ kind: 'fail', after: 3 }));
  const pending = askProvider(ipApi, clock, names);
  await clock.advance(100);
  assert.deepEqual(await pending, { status: 'failed', failure: 'blocked' });
  assert.equal(clock.requests.length, ATTEMPTS);
  assert.equal(new Set(clock.requests.map((r) => r.url)).size, ATTEMPTS);
});

test('an answer without a resolver, an error status or broken JSON is tried again, then fails as naming none', async () => {
  for (const behaviour of [
    answer({ dns: {} }),
    answer({ dns: { ip: '8.8.8.8' } }, 500),
    { kind: 'answer', after: 5, body: '{' } as const,
  ]) {
    const clock = new FakeClock(() => behaviour);
    const pending = askProvider(ipApi, clock, names);
    await clock.advance(200);
    assert.deepEqual(await pending, { status: 'failed', failure: 'noResolver' }, JSON.stringify(behaviour));
    assert.equal(clock.requests.length, ATTEMPTS);
  }
});

test('a failed attempt followed by a good one finds the resolver', async () => {
  let n = 0;
  const clock = new FakeClock(() => (n++ === 0 ? { kind: 'fail', after: 1 } : answer({ dns: { ip: '8.8.8.8' } })));
  const pending = askProvider(ipApi, clock, names);
  await clock.advance(100);
  assert.deepEqual(await pending, { status: 'found', ip: '8.8.8.8' });
  assert.equal(clock.requests.length, 2);
});

test('a provider silent for ANSWER_TIMEOUT_MS times out and is not asked again', async () => {
  const clock = new FakeClock(() => ({ kind: 'hang' }));
  const pending = askProvider(ipApi, clock, names);
  await clock.advance(ANSWER_TIMEOUT_MS - 1);
  assert.equal(clock.requests[0]!.init!.signal!.aborted, false);
  await clock.advance(1);
  assert.deepEqual(await pending, { status: 'failed', failure: 'timeout' });
  assert.equal(clock.requests.length, 1);
  assert.equal(clock.requests[0]!.init!.signal!.aborted, true);
});

test('a run asks every provider PROVIDER_STAGGER_MS apart and hands over each outcome; a newer run cancels it', async () => {
  const clock = new FakeClock((url) =>
    url.includes('surfshark') ? { kind: 'hang' } : answer(url.includes('ipleak') ? { ip: { '1.1.1.1': 1 } } : {}),
  );
  const seen: Array<[string, Outcome]> = [];
  const cancel = new AbortController();
  const run = askAll(PROVIDERS, (p, o) => seen.push([p.id, o]), clock, names, cancel.signal);
  const asked = () => new Set(clock.requests.map((r) => new URL(r.url).hostname.split('.').slice(-2)[0]));
  await clock.advance(0);
  assert.deepEqual([...asked()], ['ip-api']);
  await clock.advance(PROVIDER_STAGGER_MS);
  assert.deepEqual([...asked()], ['ip-api', 'surfsharkdns']);
  await clock.advance(PROVIDER_STAGGER_MS * 2 + 200);
  assert.deepEqual(seen.map(([id]) => id).sort(), ['fastly', 'ipapi', 'ipleak']);
  assert.deepEqual(seen.find(([id]) => id === 'ipleak')![1], { status: 'found', ip: '1.1.1.1' });
  cancel.abort();
  await run;
  assert.equal(seen.length, 3, 'the cancelled provider hands over nothing');
});

const results = (entries: Array<[string, ProviderResult]>) => new Map(entries);

test('the section holds every provider asked, its resolver, country and network where known; the service accepts it', () => {
  const map = results([
    [
      'ipapi',
      {
        outcome: { status: 'found', ip: '193.0.0.10' },
        located: { status: 'located', countryCode: 'NL', org: 'RIPE NCC' },
      },
    ],
    ['surfshark', { outcome: { status: 'failed', failure: 'blocked' } }],
    ['ipleak', { outcome: { status: 'found', ip: '10.0.0.1' }, located: { status: 'reserved' } }],
    [
      'fastly',
      {
        outcome: { status: 'found', ip: '8.8.8.8' },
        located: { status: 'located', countryCode: '', org: 'x'.repeat(300) },
      },
    ],
  ]);
  const section = dnsleakSection(PROVIDERS, map);
  assert.deepEqual(section.providers, [
    { id: 'ipapi', name: 'ip-api.com', ip: '193.0.0.10', countryCode: 'NL', org: 'RIPE NCC' },
    { id: 'surfshark', name: 'Surfshark' },
    { id: 'ipleak', name: 'IPLeak.net', ip: '10.0.0.1' },
    { id: 'fastly', name: 'Fastly', ip: '8.8.8.8', org: 'x'.repeat(128) },
  ]);
  const report = {
    v: 1,
    generatedAt: '2026-11-26T00:00:00Z',
    origin: 'localhost',
    locale: 'en',
    sections: { dnsleak: { testedAt: '2026-11-26T00:00:00Z', ...section } },
  };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
  assert.deepEqual(resolverCountries(map.values()), ['NL', '', '']);
});

test('rows say, for each provider, that it is being asked, why it named none, or its resolver and where it is', () => {
  const providers: Provider[] = PROVIDERS.slice(0, 4);
  const map = results([
    ['ipapi', { outcome: { status: 'found', ip: '193.0.0.10' } }],
    ['surfshark', { outcome: { status: 'failed', failure: 'timeout' } }],
    ['ipleak', { outcome: { status: 'found', ip: '8.8.8.8' }, located: { status: 'failed', error: new Error('503') } }],
  ]);
  assert.deepEqual(
    pageRows(providers, map).map((r) => [r.id, r.answer, r.place]),
    [
      ['ipapi', { ip: '193.0.0.10' }, 'pending'],
      ['surfshark', 'timeout', null],
      ['ipleak', { ip: '8.8.8.8' }, 'failed'],
      ['fastly', 'asking', null],
    ],
  );
  const shared = reportRows({
    providers: [
      { id: 'a', name: 'A', ip: '8.8.8.x', countryCode: 'US' },
      { id: 'b', name: 'B' },
    ],
  });
  assert.deepEqual(
    shared.map((r) => [r.answer, r.place]),
    [
      [{ ip: '8.8.8.x' }, { countryCode: 'US', org: '' }],
      ['none', null],
    ],
  );
});
