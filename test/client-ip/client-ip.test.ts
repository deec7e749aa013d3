import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { buildWeb } from '../../web/app.js';
import type { Shared } from '../../composition.js';
import { assertErrorAnswer, buildTestApi, call, REFERER } from '../support/app.js';

let app: FastifyInstance;
let shared: Shared;
before(async () => {
  ({ app, shared } = await buildTestApi());
});
after(() => app.close());

const ask = (headers: Record<string, string> = {}, remoteAddress = '192.0.2.10') =>
  call(app, { method: 'GET', url: '/api/client-ip', headers, remoteAddress });

test('an IPv4 caller gets its address and family IPv4, never cached', async () => {
  const res = await ask({}, '203.0.113.5');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ip: '203.0.113.5', family: 'IPv4' });
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.match(String(res.headers['content-type']), /^application\/json/);
});

test('an IPv6 caller gets family IPv6; an IPv4-mapped IPv6 socket address is the IPv4 address', async () => {
  assert.deepEqual((await ask({}, '2001:db8::5')).json(), { ip: '2001:db8::5', family: 'IPv6' });
  assert.deepEqual((await ask({}, '::ffff:198.51.100.7')).json(), { ip: '198.51.100.7', family: 'IPv4' });
  assert.deepEqual((await ask({ 'cf-connecting-ip': '::ffff:c633:6408' })).json(), {
    ip: '198.51.100.8',
    family: 'IPv4',
  });
  assert.deepEqual((await ask({ 'cf-connecting-ip': '2001:db8:1::1' })).json(), {
    ip: '2001:db8:1::1',
    family: 'IPv6',
  });
});

test('the spec’s order: cf-connecting-ip, the first X-Forwarded-For entry, cf-connecting-ipv6, the socket', async () => {
  const all = {
    'cf-connecting-ip': '198.51.100.1',
    'x-forwarded-for': '198.51.100.2, 10.0.0.1',
    'cf-connecting-ipv6': '2001:db8::3',
  };
  assert.equal((await ask(all)).json().ip, '198.51.100.1');
  const { 'cf-connecting-ip': _first, ...noCf } = all;
  assert.equal((await ask(noCf)).json().ip, '198.51.100.2');
  assert.equal((await ask({ 'cf-connecting-ipv6': '2001:db8::3' })).json().ip, '2001:db8::3');
  assert.equal((await ask({}, '192.0.2.44')).json().ip, '192.0.2.44');
});

test('a header that holds no address is passed over for the next source', async () => {
  const res = await ask({
    'cf-connecting-ip': 'unknown',
    'x-forwarded-for': 'garbage, 198.51.100.9',
    'cf-connecting-ipv6': '2001:db8::9',
  });
  assert.deepEqual(res.json(), { ip: '2001:db8::9', family: 'IPv6' });
});

test('behind the global chain: without an allowed Referer the gate answers 403', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/client-ip' });
  assertErrorAnswer(res, 403, 'What are you doing?');
});

test('through the front listener over a real socket: the socket peer, named by the hand-over', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'client-ip-site-'));
  const web = await buildWeb({ shared, frontendDir: dir, api: app });
  try {
    await web.listen({ port: 0, host: '127.0.0.1' });
    const res = await request(`http://127.0.0.1:${(web.server.address() as AddressInfo).port}/api/client-ip`, {
      headers: REFERER,
    });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, text);
    assert.deepEqual(JSON.parse(text), { ip: '127.0.0.1', family: 'IPv4' });
  } finally {
    await web.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('the site’s own pages on another origin (the IPv4-only and IPv6-only hostnames) may read it; no other origin may', async () => {
  const own = await ask({ origin: 'http://localhost:18966' });
  assert.equal(own.statusCode, 200);
  assert.equal(own.headers['access-control-allow-origin'], 'http://localhost:18966');
  assert.match(String(own.headers.vary), /Origin/i);
  const stranger = await ask({ origin: 'https://evil.example' });
  assert.equal(stranger.statusCode, 200, 'the gate judges the Referer; CORS only decides who may read');
  assert.equal(stranger.headers['access-control-allow-origin'], undefined);
  const { app: listed } = await buildTestApi({ ALLOWED_DOMAINS: 'netdiag.example' });
  try {
    const res = await call(listed, {
      method: 'GET',
      url: '/api/client-ip',
      headers: { origin: 'https://netdiag.example', referer: 'https://netdiag.example/addresses' },
    });
    assert.equal(res.headers['access-control-allow-origin'], 'https://netdiag.example');
    const configs = await call(listed, {
      method: 'GET',
      url: '/api/configs',
      headers: { origin: 'https://netdiag.example' },
    });
    assert.equal(configs.headers['access-control-allow-origin'], undefined, 'no other route answers cross-origin');
  } finally {
    await listed.close();
  }
});

test('the large answer: the same address with ~100 KB of padding compression cannot shrink, readable by the site’s own origins', async () => {
  const res = await call(app, {
    method: 'GET',
    url: '/api/client-ip/large',
    headers: { origin: 'http://localhost:18966', 'accept-encoding': 'gzip' },
    remoteAddress: '2001:db8::7',
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:18966');
  assert.ok(res.rawPayload.length >= 90_000, `${res.rawPayload.length} bytes on the wire`);
  const body = (
    res.headers['content-encoding'] === 'gzip' ? JSON.parse(gunzipSync(res.rawPayload).toString()) : res.json()
  ) as {
    ip: string;
    family: string;
    padding: string;
  };
  assert.deepEqual([body.ip, body.family], ['2001:db8::7', 'IPv6']);
  assert.ok(body.padding.length >= 100_000);
});
