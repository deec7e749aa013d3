import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GlobalpingFailure,
  HTTP_SCHEDULE,
  PING_SCHEDULE,
  REQUEST_TIMEOUT_MS,
  runMeasurement,
  type Clock,
  type FailureKind,
} from '../../web/site/src/features/globalping/client.js';
import { pingRows } from '../../web/site/src/features/globalping/rows.js';

const BASE = 'https://gp.test';

// Globalping as a queue of answers, and a clock whose sleeps return at once and are written down.
type Answer = { status: number; body: unknown } | 'network' | 'hang';
function fakes(answers: Answer[]) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  const sleeps: number[] = [];
  const timeouts: Array<{ ms: number; controller: AbortController }> = [];
  const clock: Clock = {
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal.aborted) throw signal.reason;
    },
    timeout: (ms) => {
      const controller = new AbortController();
      timeouts.push({ ms, controller });
      return controller.signal;
    },
  };
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : null });
    const answer = answers.shift() ?? { status: 500, body: {} };
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if (answer === 'hang') {
      return new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }) as typeof globalThis.fetch;
  return { calls, sleeps, timeouts, clock, fetch };
}

const probe = { country: 'DE', city: 'Frankfurt', network: 'Hetzner Online GmbH', asn: 24940 };
const stats = { min: 10.1, avg: 11.5, max: 14.2, total: 8, rcv: 8, drop: 0, loss: 0 };
const inProgress = { status: 'in-progress', results: [{ probe, result: { status: 'in-progress', rawOutput: '' } }] };
const finished = { status: 'finished', results: [{ probe, result: { status: 'finished', rawOutput: 'PING', stats } }] };
const created = { status: 202, body: { id: 'abc123', probesCount: 1 } };

async function failureOf(promise: Promise<unknown>): Promise<GlobalpingFailure> {
  const err = await promise.then(
    () => assert.fail('the run should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof GlobalpingFailure, String(err));
  return err;
}

const run = (f: ReturnType<typeof fakes>, signal = new AbortController().signal, onRows?: (rows: unknown[]) => void) =>
  runMeasurement({
    base: BASE,
    body: { type: 'ping', target: 'example.com' },
    schedule: PING_SCHEDULE,
    select: pingRows,
    onRows,
    signal,
    fetch: f.fetch,
    clock: f.clock,
  });

test('a run posts the measurement, waits the poll interval before each GET, and ends when it is finished', async () => {
  const f = fakes([created, { status: 200, body: inProgress }, { status: 200, body: finished }]);
  const seen: number[] = [];
  const rows = await run(f, undefined, (r) => seen.push(r.length));
  assert.deepEqual(
    f.calls.map((c) => `${c.method} ${c.url}`),
    [`POST ${BASE}/v1/measurements`, `GET ${BASE}/v1/measurements/abc123`, `GET ${BASE}/v1/measurements/abc123`],
  );
  assert.deepEqual(f.calls[0]!.body, { type: 'ping', target: 'example.com' });
  assert.deepEqual(f.sleeps, [1000, 1000]);
  assert.deepEqual(seen, [0, 1, 1], 'each answer re-renders the rows, then the final rows');
  assert.equal(rows.length, 1);
  assert.ok(
    f.timeouts.every((t) => t.ms === REQUEST_TIMEOUT_MS),
    'every request has its timeout',
  );
});

test('a measurement that never finishes is asked 1 + retries times and ends as a timeout', async () => {
  const f = fakes([created, ...Array.from({ length: 10 }, () => ({ status: 200, body: inProgress }))]);
  assert.equal((await failureOf(run(f))).kind, 'timeout');
  assert.equal(f.calls.filter((c) => c.method === 'GET').length, PING_SCHEDULE.retries + 1);
  assert.deepEqual(
    f.sleeps,
    Array.from({ length: PING_SCHEDULE.retries + 1 }, () => PING_SCHEDULE.pollMs),
  );
  assert.deepEqual(HTTP_SCHEDULE, { pollMs: 3000, retries: 5 });
});

test('a finished measurement without a usable row is empty', async () => {
  const lost = {
    status: 'finished',
    results: [{ probe, result: { status: 'finished', stats: { ...stats, min: null } } }],
  };
  const f = fakes([created, { status: 200, body: lost }]);
  assert.equal((await failureOf(run(f))).kind, 'empty');
});

test('the creation errors: 429 is the hourly budget, other 4xx refusals carry Globalping’s words, no connection is unreachable, a 5xx or a bad answer is unusable', async () => {
  const cases: Array<[Answer, FailureKind, string]> = [
    [{ status: 429, body: { error: { type: 'too_many_requests', message: 'Too many requests.' } } }, 'rateLimited', ''],
    [
      { status: 422, body: { error: { type: 'no_probes_found', message: 'No suitable probes found.' } } },
      'create',
      'No suitable probes found.',
    ],
    [
      { status: 400, body: { error: { type: 'validation_error', message: 'Parameter validation failed.' } } },
      'create',
      'Parameter validation failed.',
    ],
    [{ status: 202, body: { probesCount: 1 } }, 'unusable', ''],
    [{ status: 202, body: { id: '../../etc' } }, 'unusable', ''],
    [{ status: 503, body: { error: { message: 'Service unavailable.' } } }, 'unusable', 'Service unavailable.'],
    ['network', 'unreachable', ''],
  ];
  for (const [answer, kind, detail] of cases) {
    const f = fakes([answer]);
    const failure = await failureOf(run(f));
    assert.equal(failure.kind, kind, JSON.stringify(answer));
    assert.equal(failure.detail, detail);
    assert.equal(f.calls.length, 1, 'nothing is polled after a refused creation');
  }
});

test('a poll that fails, answers an error or answers no measurement is a poll failure', async () => {
  for (const answer of ['network', { status: 500, body: {} }, { status: 200, body: { nothing: true } }] as Answer[]) {
    const f = fakes([created, answer]);
    assert.equal((await failureOf(run(f))).kind, 'poll', JSON.stringify(answer));
  }
});

test('a request that hangs fails when its timeout fires', async () => {
  const f = fakes(['hang']);
  const pending = run(f);
  await new Promise((resolve) => setImmediate(resolve));
  f.timeouts[0]!.controller.abort();
  assert.equal((await failureOf(pending)).kind, 'unreachable');
});

test('leaving the page aborts the run: no further request, and the abort is no failure', async () => {
  const f = fakes([created, 'hang']);
  const leave = new AbortController();
  const pending = run(f, leave.signal);
  while (f.calls.length < 2) await new Promise((resolve) => setImmediate(resolve));
  leave.abort(new DOMException('left', 'AbortError'));
  const err = await pending.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(!(err instanceof GlobalpingFailure));
  assert.equal((err as DOMException).name, 'AbortError');
  assert.equal(f.calls.length, 2);
});
