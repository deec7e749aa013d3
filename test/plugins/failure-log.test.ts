import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';
import { buildTestApi, LogCapture } from '../support/app.js';
import { overHttp } from '../support/over-http.js';
import { closedUpstreams } from '../support/real-server.js';
import { FailureDigest } from '../../plugins/failure-log.js';
import { createLogger } from '../../lib/logger.js';

type Line = Record<string, unknown>;

/** Every failure of `msg` on `route`: one line each, the first a warning and the repeats debug lines. */
const occurrences = (lines: Line[], route: string, msg: string) =>
  lines.filter((l) => l.route === route && l.msg === msg);

/** The summary lines of `msg` on `route`. */
const summaries = (lines: Line[], route: string, msg: string) =>
  lines.filter((l) => l.route === route && l.msg === `${msg} (repeated)`);

const warnings = (lines: Line[]) => lines.filter((l) => Number(l.level) >= 40);

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < deadline, 'condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('with every upstream refusing, each failure kind is one warning and one summary with its count', async () => {
  const { app, logs } = await buildTestApi(await closedUpstreams());
  const fetch = await overHttp(app);
  // Varied requests: each one a different address or domain, four routes, ten clients at a time.
  const paths = [
    ...Array.from({ length: 20 }, (_, i) => `/api/geo-free-a?ip=8.8.${i}.1`),
    ...Array.from({ length: 20 }, (_, i) => `/api/geo-free-b?ip=9.9.${i}.1`),
    ...Array.from({ length: 10 }, (_, i) => `/api/censorship-blocking?domain=site${i}.example.com`),
    ...Array.from({ length: 10 }, (_, i) => `/api/whois?q=example${i}.com`),
  ];
  for (let i = 0; i < paths.length; i += 10) {
    const answers = await Promise.all(paths.slice(i, i + 10).map((path) => fetch(path)));
    for (const [j, answer] of answers.entries()) assert.ok(answer.statusCode >= 500, paths[i + j]);
  }
  const beforeStop = warnings(logs.lines).length;
  await app.close();

  const kinds = new Map<string, { route: string; msg: string }>();
  for (const line of warnings(logs.lines)) {
    if (typeof line.route !== 'string' || typeof line.msg !== 'string' || line.msg.endsWith(' (repeated)')) continue;
    kinds.set(`${line.route} ${line.msg}`, { route: line.route, msg: line.msg });
  }
  assert.ok(kinds.size >= 4, `failure kinds: ${[...kinds.keys()].join(', ')}`);
  for (const { route, msg } of kinds.values()) {
    const all = occurrences(logs.lines, route, msg);
    const first = all.filter((l) => l.level === 40);
    const repeats = all.filter((l) => l.level === 20);
    const summed = summaries(logs.lines, route, msg);
    assert.equal(first.length, 1, `${route} ${msg}: one warning`);
    assert.equal(first.length + repeats.length, all.length);
    // The interval is a minute: a slow machine may write one summary before shutdown writes the last.
    assert.ok(summed.length >= 1 && summed.length <= 2, `${route} ${msg}: ${summed.length} summaries`);
    const counted = summed.reduce((sum, l) => sum + Number(l.repeats), 0);
    assert.equal(counted, repeats.length, `${route} ${msg}: the summary counts every repeat`);
    // A failure with a cause says why (the refused connection); one that only sums up others (every variant failed) has none.
    const cause = first[0]!.err as { code?: string } | undefined;
    for (const line of summed) {
      assert.equal(line.level, 40);
      if (cause?.code) assert.equal(line.reason, cause.code);
      if (cause) assert.match(String(line.lastReason), /ECONNREFUSED/);
      else assert.equal(line.reason, 'failure');
    }
    for (const line of repeats) assert.match(String(line.reqId), /^req-/, 'a repeat stays a line of its request');
  }
  // 60 failed requests: before, at least one warning each.
  const total = warnings(logs.lines).length;
  assert.ok(total <= 3 * kinds.size, `${total} warnings for ${kinds.size} kinds`);
  assert.ok(total < paths.length / 2, `${total} warnings for ${paths.length} failed requests`);
  assert.ok(total > beforeStop, 'shutdown wrote the summaries still counted');
});

test('a summary comes once an interval, and a kind quiet for an interval is reported at once again', async () => {
  const logs = new LogCapture();
  const logger = pino({ level: 'debug' }, logs);
  const digest = new FailureDigest(logger, 200);
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const timedOut = new DOMException('This operation was aborted', 'AbortError');
  try {
    for (let i = 0; i < 5; i++) digest.report(logger, '/api/t', { err: refused }, 'lookup failed');
    digest.report(logger, '/api/t', { err: timedOut }, 'lookup failed');
    await until(() => logs.find('lookup failed (repeated)').length === 1, 10_000);
    const [summary] = logs.find('lookup failed (repeated)');
    assert.equal(summary!.repeats, 4);
    assert.equal(summary!.reason, 'ECONNREFUSED');
    assert.equal(summary!.lastReason, 'connect ECONNREFUSED 127.0.0.1:9');
    // The timeout is a kind of its own: its one warning, nothing to sum up.
    assert.equal(warnings(logs.find('lookup failed')).length, 3);

    // Quiet for a whole interval, the kind is forgotten: its next failure is a warning at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = warnings(logs.lines).length;
    digest.report(logger, '/api/t', { err: refused }, 'lookup failed');
    assert.equal(warnings(logs.lines).length, before + 1);
  } finally {
    digest.stop();
  }
});

test('stop writes the pending summary, and after it every failure is a warning of its own', () => {
  const logs = new LogCapture();
  const logger = pino({ level: 'debug' }, logs);
  const digest = new FailureDigest(logger);
  const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  for (let i = 0; i < 3; i++) digest.report(logger, '/api/t', { err }, 'lookup failed');
  digest.stop();
  assert.equal(logs.find('lookup failed (repeated)')[0]?.repeats, 2);
  digest.report(logger, '/api/t', { err }, 'lookup failed');
  digest.report(logger, '/api/t', { err }, 'lookup failed');
  assert.equal(warnings(logs.find('lookup failed')).length, 4);
});

test("a summary's last reason keeps no secret: the logger scrubs it as every line", () => {
  const logs = new LogCapture();
  const logger = createLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, logs, ['s3cret-licence-key']);
  const digest = new FailureDigest(logger);
  const err = new Error('fetch https://provider.example/?key=s3cret-licence-key failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
  digest.report(logger, '/api/t', { err }, 'lookup failed');
  digest.report(logger, '/api/t', { err }, 'lookup failed');
  digest.stop();
  const [summary] = logs.find('lookup failed (repeated)');
  assert.equal(summary?.repeats, 1);
  assert.equal(summary?.reason, 'ECONNREFUSED');
  assert.ok(!logs.text.includes('s3cret-licence-key'), logs.text);
});

test("with LOG_HTTP, the access line of an upstream failure is an error, as the spec says of a 5xx; its cause is the failure log's warning", async () => {
  const { app, logs } = await buildTestApi({ ...(await closedUpstreams()), LOG_HTTP: 'true' });
  const fetch = await overHttp(app);
  for (let i = 0; i < 3; i++) assert.equal((await fetch(`/api/geo-free-a?ip=8.8.${i}.8`)).statusCode, 500);
  await app.close();
  const access = logs.find('request completed');
  assert.deepEqual(
    access.map((l) => [l.statusCode, l.level]),
    [
      [500, 50],
      [500, 50],
      [500, 50],
    ],
  );
  assert.deepEqual(
    logs.lines.filter((l) => Number(l.level) >= 50 && l.msg !== 'request completed'),
    [],
    'the failure itself is a warning',
  );
  assert.ok(
    logs.lines.some((l) => Number(l.level) === 40 && l.msg !== 'request completed'),
    'the failure is logged as a warning',
  );
});

test("a pending summary never keeps the process alive: its timer is unref'd", async () => {
  // A process that reports two failures and then has nothing left to do must exit on its own, long before the minute.
  const script = `
    import pino from 'pino';
    import { FailureDigest } from ${JSON.stringify(new URL('../../plugins/failure-log.ts', import.meta.url).href)};
    const logger = pino({ level: 'silent' });
    const digest = new FailureDigest(logger);
    const err = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    digest.report(logger, '/api/t', { err }, 'lookup failed');
    digest.report(logger, '/api/t', { err }, 'lookup failed');
  `;
  const started = Date.now();
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url).pathname,
    timeout: 50_000,
  });
  assert.ok(Date.now() - started < 50_000);
});
