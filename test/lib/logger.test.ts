import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamError } from '../../lib/upstream-failure.js';
import { createLogger } from '../../lib/logger.js';
import { ServiceStopping } from '../../lib/lifecycle.js';
import { buildTestApi, LogCapture, REFERER } from '../support/app.js';
import { closedOrigin } from '../support/fake-upstream.js';

const logged = (err: unknown) => {
  const logs = new LogCapture();
  createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, logs).warn({ err }, 'something failed');
  return logs.lines[0]?.err as Record<string, unknown>;
};

test('an expected failure is logged as one line: kind, reason and code, no stack', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  assert.deepEqual(logged(refused), {
    type: 'Error',
    message: 'connect ECONNREFUSED 127.0.0.1:9',
    code: 'ECONNREFUSED',
  });
  assert.deepEqual(logged(new UpstreamError('Upstream answered 503', 503)), {
    type: 'UpstreamError',
    message: 'Upstream answered 503',
  });
  assert.deepEqual(logged(new ServiceStopping()), {
    type: 'ServiceStopping',
    message: 'abandoned: the service is stopping',
  });
  assert.deepEqual(logged(new DOMException('This operation was aborted', 'AbortError')), {
    type: 'AbortError',
    message: 'This operation was aborted',
    reason: 'timed out',
  });
  const refusedWithin = new Error('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
  assert.deepEqual(logged(refusedWithin), {
    type: 'Error',
    message: 'fetch failed',
    reason: 'connect ECONNREFUSED 127.0.0.1:9',
  });
});

test('an unexpected error keeps its stack', () => {
  const bug = logged(new TypeError("Cannot read properties of undefined (reading 'x')"));
  assert.equal(bug.type, 'TypeError');
  assert.match(String(bug.stack), /\n\s+at /);
});

test('a failed upstream at request time is one log line without a stack', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() });
  const res = await app.inject({ url: '/api/geo-free-b?ip=8.8.8.8', headers: REFERER });
  assert.equal(res.statusCode, 500);
  const failures = logs.find('geo source failed');
  assert.equal(failures.length, 1);
  assert.equal(failures[0]?.level, 40);
  assert.ok(!JSON.stringify(failures[0]).includes('"stack"'), JSON.stringify(failures[0]));
  assert.ok(!logs.text.includes('    at '), 'no stack frame in any line');
  await app.close();
});
