import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FACE_PATHS } from '../../web/command-line/paths.js';
import { startFront } from './front.js';

const CLIENTS: ReadonlyArray<Record<string, string>> = [
  { 'user-agent': 'curl/8.5.0', accept: '*/*', 'x-forwarded-for': '8.8.8.8' },
  { accept: 'application/json', 'x-forwarded-for': '2a01:4f8::7' },
  { 'user-agent': 'Wget/1.21.3', accept: 'text/plain' },
];
const QUERIES = [
  '',
  '?ip=193.0.0.9',
  '?ip=2a01:4f8:0::1',
  '?ip=1.1.1.1',
  '?ip=10.0.0.1',
  '?ip=x',
  '?ip=',
  '?ip=8.8.8.8&ip=1.1.1.1',
];
// Per answer, or the limiter's own: every other header must match, in any order.
const OWN = new Set(['date', 'connection', 'keep-alive', 'retry-after']);

test("the speed device (no limiter) answers exactly as the face's routes (a limiter counting)", async () => {
  const device = await startFront();
  const routes = await startFront({ SECURITY_RATE_LIMIT: '1000000' });
  try {
    assert.equal(device.shared.globalLimiter, undefined, 'no limiter: the raw listener answers');
    assert.ok(routes.shared.globalLimiter, 'a limiter: every request goes through the routes');
    for (const { url } of FACE_PATHS) {
      for (const query of QUERIES) {
        for (const headers of CLIENTS) {
          for (const method of ['GET', 'HEAD'] as const) {
            const label = `${method} ${url}${query} ${JSON.stringify(headers)}`;
            const [a, b] = await Promise.all([
              device.get(`${url}${query}`, headers, method),
              routes.get(`${url}${query}`, headers, method),
            ]);
            assert.equal(a.status, b.status, label);
            assert.equal(a.text, b.text, label);
            const kept = (h: Record<string, unknown>) =>
              Object.entries(h)
                .filter(([name]) => !OWN.has(name))
                .sort(([x], [y]) => x.localeCompare(y));
            assert.deepEqual(kept(a.headers), kept(b.headers), label);
          }
        }
      }
    }
  } finally {
    await device.close();
    await routes.close();
  }
});
