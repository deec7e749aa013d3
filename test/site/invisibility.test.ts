import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FAILED_INTERVAL_MS,
  FIRST_POLL_MS,
  isPending,
  newJobId,
  PENDING_INTERVAL_MS,
  pollJob,
  scriptUrl,
  type Detection,
} from '../../web/site/src/features/invisibility/job.js';
import { bandOf, flagsOf, invisibilitySection, SIGNALS } from '../../web/site/src/features/invisibility/results.js';
import { detailsOf } from '../../web/site/src/features/invisibility/details.js';
import type { Behaviour } from './fake-clock.js';
import { answer, polled as pollOn, privateFixture } from './private-answers.js';
import { assertAccepted, TESTED_AT } from './accepted-report.js';

const RESULT = privateFixture<Detection>('invisibility-result.json');

test("a job id is 28 alphanumerics, the route's guard, led by the time and our tag", () => {
  const id = newJobId(1_764_139_200_123, (n) => Uint8Array.from({ length: n }, (_, i) => 250 + i));
  assert.match(id, /^[A-Za-z0-9]{28}$/);
  assert.ok(id.startsWith('1764139200123netdiagtst'));
  assert.equal(scriptUrl('https://detect.example/?pdKey=k', id), `https://detect.example/?pdKey=k&pdVal=${id}`);
});

test('pending is the route’s pending answer, the companion’s "Data not found", or a result without scores', () => {
  assert.equal(isPending({ status: 'pending' }), true);
  assert.equal(isPending({ message: 'Data not found' }), true);
  assert.equal(isPending({ ...RESULT, score: undefined } as unknown as Detection), true);
  assert.equal(isPending(RESULT), false);
});

const polled = (respond: (n: number) => Behaviour) =>
  pollOn(respond, (clock) => pollJob(clock, 'a'.repeat(28), { authorization: 'Bearer x' }), 120_000);

test('the job is polled 10 s after the script starts, then 10 s apart while pending, three more times at most', async () => {
  const done = await polled((n) => answer(n < 2 ? { status: 'pending' } : RESULT));
  assert.equal(done.outcome?.kind, 'ok');
  assert.deepEqual(done.times, [
    FIRST_POLL_MS,
    FIRST_POLL_MS + PENDING_INTERVAL_MS + 10,
    FIRST_POLL_MS + 2 * (PENDING_INTERVAL_MS + 10),
  ]);
  assert.equal(done.requests[0]!.url, `/api/invisibility?id=${'a'.repeat(28)}`);
  assert.equal((done.requests[0]!.init!.headers as Record<string, string>).authorization, 'Bearer x');

  const never = await polled(() => answer({ status: 'pending' }));
  assert.deepEqual([never.outcome?.kind, never.times.length], ['pending', 4]);
});

test('failures are retried 8 s apart, three times; sign-in and quota refusals are final', async () => {
  const broken = await polled(() => answer({ error: 'API responded with status: 500' }, 500));
  assert.deepEqual([broken.outcome?.kind, broken.times.length], ['failed', 4]);
  assert.equal(broken.times[1]! - broken.times[0]!, FAILED_INTERVAL_MS + 10);
  const signIn = await polled(() => answer({ error: 'Sign in required' }, 401));
  assert.deepEqual([signIn.outcome?.kind, signIn.times.length], ['signIn', 1]);
  const quota = await polled(() => answer({ error: 'Monthly quota exceeded', code: 'quota_exceeded' }, 429));
  assert.deepEqual([quota.outcome?.kind, quota.times.length], ['quota', 1]);
});

test('the fourteen signals in the reference’s order, the scores floored, and a section the service accepts', () => {
  const flags = flagsOf(RESULT);
  assert.deepEqual(
    flags.map((f) => f.key),
    SIGNALS.map(([key]) => key),
  );
  assert.equal(flags.length, 14);
  assert.deepEqual(
    flags.filter((f) => f.flagged).map((f) => f.key),
    ['datacenter', 'blocklist.vpn', 'blocklist.vpnExitNode', 'latencyVSPing', 'timezone', 'webrtc', 'highlatency'],
  );
  const section = invisibilitySection({ ...RESULT, score: { proxy: 35.9, vpn: 180 } });
  assert.deepEqual(section.scores, { proxy: 35, vpn: 100 });
  assertAccepted({ invisibility: { testedAt: TESTED_AT, ...section } });

  const broken = { ...RESULT, ip: 'nowhere', tcp: null } as unknown as Detection;
  assert.equal(flagsOf(broken).find((f) => f.key === 'tcp')?.flagged, false, 'a missing signal is not flagged');
  assert.equal(invisibilitySection(broken).ip, undefined);
  assertAccepted({ invisibility: { testedAt: TESTED_AT, ...invisibilitySection(broken) } });
});

test('score bands: below 30 low, below 70 medium, else high; measured values named in the page’s words', () => {
  assert.deepEqual([bandOf(29), bandOf(30), bandOf(69), bandOf(70)], ['low', 'medium', 'medium', 'high']);
  const details = detailsOf(RESULT, (key, values) => `${key} ${JSON.stringify(values)}`);
  assert.equal(details.timezone, 'invisibility.detail.zone {"browser":"Europe/Berlin","address":"Europe/Amsterdam"}');
  assert.equal(details.webrtc, 'invisibility.detail.webrtc {"ips":"185.107.56.231, 91.64.12.37"}');
  assert.equal(details.headers, undefined);
});
