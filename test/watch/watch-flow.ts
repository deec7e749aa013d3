import assert from 'node:assert/strict';
import { request } from 'undici';
import type { Front } from '../command-line/front.js';
import { until } from '../support/until.js';
import type { Receiver } from './receiver.js';

export const CURL = { 'user-agent': 'curl/8.5.0' };
const REFERER = { referer: 'http://localhost/' };

/** An /api call through the front listener, as the site makes it. */
export async function api(front: Front, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const res = await request(`${front.origin}${path}`, {
    method,
    headers: { ...REFERER, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** `curl <site>/watch/<token>` from `address` (X-Forwarded-For, as a proxy in front of the service sets it). */
export const curlWatch = (front: Front, token: string, address: string) =>
  front.get(`/watch/${token}`, { ...CURL, 'x-forwarded-for': address });

/**
 * The acceptance walk: a watch created, its webhook set to a loopback
 * receiver, hit twice from one address and once from another, the change
 * received, the history read, then deleted and refused after.
 */
export async function walkThrough(front: Front, receiver: Receiver): Promise<string> {
  const created = await api(front, 'POST', '/api/watch');
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const token = created.json!.token as string;
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(created.json!.path, `/watch/${token}`);

  const hook = await api(front, 'PUT', `/api/watch/${token}/webhook`, { url: receiver.url() });
  assert.deepEqual(hook, { status: 200, json: { webhook: receiver.url() } });

  assert.deepEqual(pick(await curlWatch(front, token, '8.8.8.8')), [200, '8.8.8.8 first seen\n']);
  assert.deepEqual(pick(await curlWatch(front, token, '8.8.8.8')), [200, '8.8.8.8 unchanged\n']);
  assert.deepEqual(pick(await curlWatch(front, token, '1.1.1.1')), [200, '1.1.1.1 changed\n']);

  await until(async () => receiver.received.length === 1, 30_000, 'the change notice at the receiver');
  const notice = receiver.notices[0]!;
  assert.equal(notice.event, 'address-changed');
  assert.equal(notice.address, '1.1.1.1');
  assert.equal(notice.previous, '8.8.8.8');
  assert.equal(notice.asn, 'AS13335');
  assert.equal(notice.country, 'AU');
  assert.equal(receiver.received[0]!.headers['content-type'], 'application/json');

  const read = await api(front, 'GET', `/api/watch/${token}`);
  assert.equal(read.status, 200);
  const entries = read.json!.entries as Array<Record<string, unknown>>;
  assert.deepEqual(
    entries.map(({ address, asn, country }) => [address, asn, country]),
    [
      ['8.8.8.8', 'AS15169', 'US'],
      ['1.1.1.1', 'AS13335', 'AU'],
    ],
  );
  assert.equal(read.json!.webhook, receiver.url());

  const tested = await api(front, 'POST', `/api/watch/${token}/webhook/test`);
  assert.deepEqual(tested, { status: 200, json: { delivered: true, status: 204, reason: null } });
  assert.equal(receiver.notices[1]!.event, 'test');

  assert.equal((await api(front, 'DELETE', `/api/watch/${token}`)).status, 204);
  assert.deepEqual(await api(front, 'GET', `/api/watch/${token}`), {
    status: 404,
    json: { error: 'Watch not found or expired' },
  });
  assert.deepEqual(pick(await curlWatch(front, token, '1.1.1.1')), [404, 'Watch not found or expired\n']);
  assert.equal((await api(front, 'DELETE', `/api/watch/${token}`)).status, 404);
  return token;
}

const pick = ({ status, text }: { status: number; text: string }) => [status, text];
