import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FIRST_POLL_MS,
  lookUp,
  newSession,
  pollSession,
  POLL_INTERVAL_MS,
  type Session,
} from '../../web/site/src/features/dnsdeep/session.js';
import {
  dnssecOf,
  enhancedDnsLeakSection,
  reportRows,
  resolverRows,
} from '../../web/site/src/features/dnsdeep/results.js';
import { FakeClock, type Behaviour } from './fake-clock.js';
import { answer, polled as pollOn, privateFixture } from './private-answers.js';
import { assertAccepted, TESTED_AT } from './accepted-report.js';

const SESSION = privateFixture<Session>('dnsleaktest-session.json');
const EMPTY = { rawCount: 0, resolverCount: 0, queries: [] };
let seed = 0;
const random = (n: number) => Uint8Array.from({ length: n }, () => (seed = (seed * 31 + 7) % 256));

test("a session's token passes the route's guard, and each of its four names is fresh under the zone", () => {
  const { token, names } = newSession('leak.example.net', random);
  assert.match(token, /^[0-9a-f]{32}$/);
  assert.equal(names.length, 4);
  for (const name of names) assert.match(name, new RegExp(`^[0-9a-f]{8}\\.${token}\\.leak\\.example\\.net$`));
  assert.equal(new Set(names).size, 4);
});

test('the lookups go to every name at once as no-cors requests, and a failed connection is expected', async () => {
  const clock = new FakeClock(() => ({ kind: 'fail', after: 5 }));
  const done = lookUp(clock, ['a.t.zone.example', 'b.t.zone.example']);
  await clock.advance(10);
  await done;
  assert.deepEqual(
    clock.requests.map((r) => [new URL(r.url).host, new URL(r.url).pathname, r.init?.mode]),
    [
      ['a.t.zone.example', '/probe.gif', 'no-cors'],
      ['b.t.zone.example', '/probe.gif', 'no-cors'],
    ],
  );
});

async function polled(respond: (n: number) => Behaviour) {
  const progress: Array<{ attempt: number; most: number }> = [];
  const run = (clock: FakeClock) =>
    pollSession(clock, 'f'.repeat(32), 'zh-CN', { authorization: 'Bearer x' }, (p) => progress.push(p));
  return { ...(await pollOn(respond, run, 30_000)), progress };
}

test('the session is polled 3.5 s after the lookups, and again 2.5 s apart while no resolver has been seen', async () => {
  const { outcome, times, requests, progress } = await polled((n) => answer(n < 2 ? EMPTY : SESSION));
  assert.equal(outcome?.kind, 'ok');
  assert.deepEqual(times, [
    FIRST_POLL_MS,
    FIRST_POLL_MS + POLL_INTERVAL_MS + 10,
    FIRST_POLL_MS + 2 * (POLL_INTERVAL_MS + 10),
  ]);
  assert.equal(requests[0]!.url, `/api/dnsleaktest/session/${'f'.repeat(32)}?lang=zh-CN`);
  assert.equal((requests[0]!.init!.headers as Record<string, string>).authorization, 'Bearer x');
  assert.deepEqual(
    progress.map((p) => p.attempt),
    [1, 2, 3],
  );

  const never = await polled(() => answer(EMPTY));
  assert.equal(never.times.length, 3, 'two more pulls, then the empty session is the answer');
  assert.equal(never.outcome?.kind === 'ok' && never.outcome.data.resolverCount, 0);
});

test('a refusal is final; a failure is tried three times in all', async () => {
  const signIn = await polled(() => answer({ error: 'Sign in required' }, 401));
  assert.deepEqual([signIn.outcome?.kind, signIn.times.length], ['signIn', 1]);
  const quota = await polled(() => answer({ error: 'Monthly quota exceeded', code: 'quota_exceeded' }, 429));
  assert.deepEqual([quota.outcome?.kind, quota.times.length], ['quota', 1]);
  const broken = await polled(() => answer({ error: 'Upstream fetch failed' }, 502));
  assert.deepEqual([broken.outcome?.kind, broken.times.length], ['failed', 3]);
  const recovers = await polled((n) => (n === 0 ? answer({}, 502) : answer(SESSION)));
  assert.deepEqual([recovers.outcome?.kind, recovers.times.length], ['ok', 2]);
});

test('rows: subnet carriers first, then by country, IPv4 before IPv6; one row per resolver and subnet on request', () => {
  const session: Session = {
    ...SESSION,
    queries: [
      ...SESSION.queries,
      { ...SESSION.queries[3]!, ip: '2001:4860::1', ipInfo: { ...SESSION.queries[3]!.ipInfo, asn: 'N/A' } },
    ],
  };
  const all = resolverRows(session, false);
  assert.deepEqual(
    all.map((r) => r.ip),
    ['172.253.226.34', '172.253.226.34', '162.158.180.22', '217.0.43.113', '2001:4860::1'],
  );
  assert.equal(all[4]!.asn, '', '"N/A" is no number');
  assert.equal(all[0]!.transport, 'UDP');
  assert.deepEqual(
    resolverRows(session, true).map((r) => r.ip),
    ['172.253.226.34', '162.158.180.22', '217.0.43.113', '2001:4860::1'],
  );
});

test('DNSSEC: ok when every query asks and none switches validation off, none when no query asks', () => {
  assert.equal(dnssecOf([{ do: true, cd: false }]), 'ok');
  assert.equal(dnssecOf([{ do: true, cd: true }]), 'partial');
  assert.equal(
    dnssecOf([
      { do: true, cd: false },
      { do: false, cd: false },
    ]),
    'partial',
  );
  assert.equal(dnssecOf([{ do: false, cd: false }]), 'none');
  assert.equal(dnssecOf([]), 'none');
});

test("the report section is one the service accepts, and a shared report's rows read back the same", () => {
  const section = enhancedDnsLeakSection(SESSION);
  assert.equal(section.dnssec, 'partial');
  assert.equal(section.queries.length, 4);
  assertAccepted({ enhanceddnsleak: { testedAt: TESTED_AT, ...section } });
  assert.deepEqual(reportRows(section), resolverRows(SESSION, false));

  const hostile = enhancedDnsLeakSection({
    rawCount: -3,
    resolverCount: 1.5,
    queries: Array.from({ length: 200 }, () => ({
      ...SESSION.queries[0]!,
      ip: 'not an ip',
      transport: 'x'.repeat(40),
    })),
  } as Session);
  assert.equal(hostile.queries.length, 128);
  assertAccepted({ enhanceddnsleak: { testedAt: TESTED_AT, ...hostile } });
});
