import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readiness, type Outcome, type TestId } from '../../web/site/src/features/ipv6/readiness.js';
import { fromSection, toSection } from '../../web/site/src/features/ipv6/report-section.js';
import { assertAccepted, TESTED_AT } from './accepted-report.js';

const ok = (ms: number, family: 'IPv4' | 'IPv6'): Outcome => ({ state: 'ok', ms, family });
const timeout: Outcome = { state: 'failed', reason: 'timeout' };
const refused: Outcome = { state: 'failed', reason: 'unreachable' };
const notRun = (setting: string): Outcome => ({ state: 'not-run', setting });

// A visitor with working dual stack, every test run.
const healthy: Record<TestId, Outcome> = {
  v4: ok(40, 'IPv4'),
  v6: ok(35, 'IPv6'),
  dual: ok(30, 'IPv6'),
  fallback: ok(320, 'IPv4'),
  literal: ok(33, 'IPv6'),
  'v4-large': ok(120, 'IPv4'),
  'v6-large': ok(110, 'IPv6'),
  'v6-dns': ok(60, 'IPv6'),
};

const lineKey = (result: ReturnType<typeof readiness>, test: TestId) => result.lines.find((l) => l.test === test)!.key;

test('every test passed: 10 out of 10 in each family, nothing to tell the ISP', () => {
  const result = readiness(healthy);
  assert.deepEqual(result.scores, { IPv4: 10, IPv6: 10 });
  assert.deepEqual(result.advice, []);
  assert.equal(lineKey(result, 'dual'), 'dual.ipv6');
  assert.deepEqual(result.lines.find((l) => l.test === 'fallback')!.params, { ms: 320, family: 'IPv4' });
});

test('no IPv6 at all: IPv6 scores 0, IPv4 keeps its 10, and the ISP is asked for IPv6', () => {
  const result = readiness({
    ...healthy,
    v6: refused,
    dual: ok(30, 'IPv4'),
    literal: refused,
    'v6-large': refused,
    'v6-dns': refused,
  });
  assert.deepEqual(result.scores, { IPv4: 10, IPv6: 0 });
  assert.deepEqual(result.advice, ['no-ipv6', 'dns-ipv6']);
  assert.equal(lineKey(result, 'v6'), 'v6.unreachable');
});

test('a large answer that stalls costs its family and names a path-MTU problem', () => {
  const v6 = readiness({ ...healthy, 'v6-large': timeout });
  assert.deepEqual(v6.scores, { IPv4: 10, IPv6: 6 });
  assert.deepEqual(v6.advice, ['mtu-ipv6']);
  assert.equal(lineKey(v6, 'v6-large'), 'v6-large.timeout');
  const v4 = readiness({ ...healthy, 'v4-large': timeout });
  assert.deepEqual(v4.scores, { IPv4: 5, IPv6: 10 });
  assert.deepEqual(v4.advice, ['mtu-ipv4']);
});

test('a slow fallback costs less than a failed one; both say IPv6 is broken', () => {
  const slow = readiness({ ...healthy, fallback: ok(4200, 'IPv4') });
  assert.equal(slow.scores.IPv6, 8);
  assert.equal(lineKey(slow, 'fallback'), 'fallback.slow');
  assert.deepEqual(slow.advice, ['broken-ipv6']);
  const failed = readiness({ ...healthy, fallback: timeout });
  assert.equal(failed.scores.IPv6, 7);
  assert.deepEqual(failed.advice, ['broken-ipv6']);
});

test('a browser that prefers IPv4 on a dual-stack name loses one point', () => {
  const result = readiness({ ...healthy, dual: ok(30, 'IPv4') });
  assert.deepEqual(result.scores, { IPv4: 10, IPv6: 9 });
  assert.equal(lineKey(result, 'dual'), 'dual.ipv4');
  assert.deepEqual(result.advice, []);
});

test('a test whose origin is not set is not run: it names its setting and costs nothing', () => {
  const result = readiness({
    ...healthy,
    literal: notRun('IPV6_LITERAL_ORIGIN'),
    fallback: notRun('IPV6_FALLBACK_ORIGIN'),
    'v6-dns': notRun('IPV6_DNS_ORIGIN'),
  });
  assert.deepEqual(result.scores, { IPv4: 10, IPv6: 10 });
  assert.deepEqual(result.advice, []);
  const literal = result.lines.find((l) => l.test === 'literal')!;
  assert.deepEqual([literal.key, literal.params], ['literal.not-run', { setting: 'IPV6_LITERAL_ORIGIN' }]);
});

test('a family whose own origin is not set has no score, not a zero', () => {
  const result = readiness({ dual: ok(30, 'IPv4'), v4: ok(40, 'IPv4') });
  assert.deepEqual(result.scores, { IPv4: 10, IPv6: null });
  assert.deepEqual(result.advice, []);
  assert.equal(result.lines.length, 8);
});

test('failures add up, never below 0', () => {
  const result = readiness({
    ...healthy,
    'v6-large': timeout,
    fallback: timeout,
    literal: refused,
    'v6-dns': refused,
    dual: ok(1, 'IPv4'),
  });
  assert.equal(result.scores.IPv6, 0);
  assert.deepEqual(result.advice, ['broken-ipv6', 'mtu-ipv6', 'dns-ipv6']);
});

test('the report section the page builds is one the service accepts, and scores the same when read back', () => {
  const outcomes = {
    ...healthy,
    'v6-large': timeout,
    literal: notRun('IPV6_LITERAL_ORIGIN'),
    fallback: ok(700_000, 'IPv4'),
  };
  const section = toSection(outcomes);
  assertAccepted({ ipv6readiness: { testedAt: TESTED_AT, ...section } });
  assert.equal(
    section.tests.find((t) => t.id === 'fallback')!.ms,
    600000,
    'a time over the whitelist’s bound is capped',
  );
  const back = readiness(fromSection(section));
  assert.deepEqual(back, readiness({ ...outcomes, fallback: ok(600000, 'IPv4') }));
  assert.equal(back.lines.find((l) => l.test === 'literal')!.params.setting, 'IPV6_LITERAL_ORIGIN');
});
