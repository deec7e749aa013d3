import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkReport } from '../../contract/report.js';
import { connectivitySection, probe, probeAll, STAGGER_MS } from '../../web/site/src/features/connectivity/probe.js';
import { PROBE_TIMEOUT_MS, type ProbeResult } from '../../web/site/src/features/connectivity/result.js';
import type { Target } from '../../web/site/src/features/connectivity/targets.js';
import { FakeClock, type Behaviour } from './fake-clock.js';

const target = (id: string, group = 'defaults'): Target => ({
  id,
  name: id.toUpperCase(),
  url: `https://${id}.example/favicon.ico`,
  group,
});

test('any answer is reachable, a 404 included, with its time; the request is no-cors, uncached, without cookies', async () => {
  for (const status of [200, 404, 503]) {
    const clock = new FakeClock(() => ({ kind: 'answer', after: 87, status }));
    const pending = probe('https://a.example/favicon.ico', clock);
    await clock.advance(100);
    assert.deepEqual(await pending, { status: 'ok', timeMs: 87 });
    const init = clock.requests[0]!.init!;
    assert.equal(init.mode, 'no-cors');
    assert.equal(init.cache, 'no-store');
    assert.equal(init.credentials, 'omit');
  }
});

test('a refused or blocked request is unreachable, with the time it took to fail', async () => {
  const clock = new FakeClock(() => ({ kind: 'fail', after: 12 }));
  const pending = probe('https://a.example/', clock);
  await clock.advance(50);
  assert.deepEqual(await pending, { status: 'unreachable', timeMs: 12 });
});

test('no answer by the limit is a timeout, and the request is aborted then', async () => {
  const clock = new FakeClock(() => ({ kind: 'hang' }));
  const pending = probe('https://a.example/', clock);
  await clock.advance(PROBE_TIMEOUT_MS - 1);
  assert.equal(clock.requests[0]!.init!.signal!.aborted, false);
  await clock.advance(1);
  assert.deepEqual(await pending, { status: 'timeout', timeMs: PROBE_TIMEOUT_MS });
  assert.equal(clock.requests[0]!.init!.signal!.aborted, true);
});

test('an answer just before the limit is ok, not a timeout', async () => {
  const clock = new FakeClock(() => ({ kind: 'answer', after: PROBE_TIMEOUT_MS - 1 }));
  const pending = probe('https://a.example/', clock);
  await clock.advance(PROBE_TIMEOUT_MS + 100);
  assert.deepEqual(await pending, { status: 'ok', timeMs: PROBE_TIMEOUT_MS - 1 });
});

test('a probe cancelled by a newer pass gives no result and aborts its request', async () => {
  const clock = new FakeClock(() => ({ kind: 'hang' }));
  const cancel = new AbortController();
  const pending = probe('https://a.example/', clock, cancel.signal);
  await clock.advance(10);
  cancel.abort();
  assert.equal(await pending, null);
  assert.equal(clock.requests[0]!.init!.signal!.aborted, true);
  assert.equal(await probe('https://a.example/', clock, cancel.signal), null, 'nothing starts once cancelled');
  assert.equal(clock.requests.length, 1);
});

test('a pass starts the targets STAGGER_MS apart and hands over each result as it lands', async () => {
  const behaviours: Record<string, Behaviour> = {
    'https://fast.example/favicon.ico': { kind: 'answer', after: 5 },
    'https://refused.example/favicon.ico': { kind: 'fail', after: 1 },
    'https://silent.example/favicon.ico': { kind: 'hang' },
  };
  const clock = new FakeClock((url) => behaviours[url]!);
  const seen: Array<[string, ProbeResult]> = [];
  const targets = [target('silent'), target('fast'), target('refused')];
  let finished = false;
  const pass = probeAll(targets, (t, r) => seen.push([t.id, r]), clock).then(() => (finished = true));
  await clock.advance(0);
  assert.deepEqual(
    clock.requests.map((r) => r.url),
    ['https://silent.example/favicon.ico'],
  );
  await clock.advance(STAGGER_MS);
  assert.equal(clock.requests.length, 2);
  await clock.advance(STAGGER_MS);
  assert.equal(clock.requests.length, 3);
  await clock.advance(5);
  assert.deepEqual(
    seen.map(([id]) => id),
    ['fast', 'refused'],
  );
  assert.equal(finished, false);
  await clock.advance(PROBE_TIMEOUT_MS);
  await pass;
  assert.deepEqual(seen, [
    ['fast', { status: 'ok', timeMs: 5 }],
    ['refused', { status: 'unreachable', timeMs: 1 }],
    ['silent', { status: 'timeout', timeMs: PROBE_TIMEOUT_MS }],
  ]);
});

test('the report section lists tested targets in order, a time only when reachable, custom ones marked; the service accepts it', () => {
  const targets = [target('a'), target('b', 'custom'), target('c'), target('waiting')];
  const results = new Map<string, ProbeResult>([
    ['c', { status: 'timeout', timeMs: PROBE_TIMEOUT_MS }],
    ['a', { status: 'ok', timeMs: 40 }],
    ['b', { status: 'unreachable', timeMs: 3 }],
  ]);
  const section = connectivitySection(targets, results);
  assert.deepEqual(section.targets, [
    { id: 'a', name: 'A', status: 'ok', timeMs: 40 },
    { id: 'b', name: 'B', status: 'unreachable', custom: true },
    { id: 'c', name: 'C', status: 'timeout' },
  ]);
  const report = {
    v: 1,
    generatedAt: '2026-11-26T00:00:00Z',
    origin: 'localhost',
    locale: 'en',
    sections: { connectivity: { testedAt: '2026-11-26T00:00:00Z', ...section } },
  };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
});
