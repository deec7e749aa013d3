import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { FakeUpstream, fixture } from '../support/fake-upstream.js';
import { buildTestApi, REFERER } from '../support/app.js';
import { rawRequest } from '../support/http-raw.js';
import { FAKE_PRIVATE_ENV } from '../support/fake-routes/network-tools.js';
import { registerUpstreamAnswers } from '../support/fake-routes/index.js';
import { EXAMPLE_PRIVATE_API_HOST as HOST } from '../../routes/example-request.js';

// What the private companion API receives of a caller's request, over a real
// socket (so Connection lists and Expect reach the server as sent) into the
// app, and from it to a real fake server that records what arrives.

let fake: FakeUpstream;
let app: FastifyInstance;
let origin: string;
before(async () => {
  fake = await FakeUpstream.start();
  registerUpstreamAnswers(fake);
  fake.on('GET', HOST, '/ipinfo', { json: fixture(HOST, 'ipinfo-signed-in.json') });
  app = (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...FAKE_PRIVATE_ENV })).app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
after(async () => {
  await app.close();
  await fake.close();
});

interface PrivateRoute {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  body?: unknown;
}

// Every route that calls the private API, each answered 200 by the fake.
const ROUTES: readonly PrivateRoute[] = [
  { method: 'GET', url: '/api/geo-private?ip=8.8.8.8' },
  { method: 'GET', url: '/api/dnsleaktest/session/0123456789abcdef0123456789abcdef' },
  { method: 'GET', url: '/api/invisibility?id=Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9b' },
  {
    method: 'POST',
    url: '/api/persona/evaluate',
    body: { persona: { country: 'DE' }, observation: { timezone: 'Europe/Berlin' } },
  },
  { method: 'GET', url: '/api/getuserinfo' },
  { method: 'PUT', url: '/api/updateuserachievement', body: { achievement: 'IAmHuman' } },
];

/** Sends `route` with the caller's `headers` over a socket; returns our answer's status and the headers the private API got. */
async function through(
  route: PrivateRoute,
  headers: Record<string, string>,
): Promise<{ status: number; answer: string; sent: IncomingHttpHeaders }> {
  const before = fake.requests.length;
  const body = route.body === undefined ? undefined : JSON.stringify(route.body);
  const res = await rawRequest(origin, route.url, {
    method: route.method,
    headers: { ...REFERER, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body,
  });
  const calls = fake.requests.slice(before).filter((r) => r.host === HOST);
  assert.equal(
    calls.length,
    1,
    `${route.url}: one private API call, answered ${res.status} ${res.body.toString('utf8')}`,
  );
  return { status: res.status, answer: res.body.toString('utf8'), sent: calls[0]!.headers };
}

/** Each route answers 200 with the caller's `headers`, and none of `absent` reaches the private API. */
async function assertNoneArrive(headers: Record<string, string>, absent: readonly string[]): Promise<void> {
  for (const route of ROUTES) {
    const { status, answer, sent } = await through(route, headers);
    assert.equal(status, 200, `${route.url}: ${answer}`);
    for (const name of absent) assert.equal(sent[name], undefined, `${route.url}: ${name} reached the private API`);
  }
}

test('headers named in the caller’s Connection header, and the hop-by-hop ones, do not reach the private API', async () => {
  await assertNoneArrive(
    {
      connection: 'keep-alive, X-Hop-Secret, Accept-Language',
      'x-hop-secret': 'for this hop only',
      'accept-language': 'de-DE',
      'keep-alive': 'timeout=5',
      te: 'trailers',
      'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
      'proxy-connection': 'keep-alive',
    },
    ['x-hop-secret', 'accept-language', 'keep-alive', 'te', 'proxy-authorization', 'proxy-connection'],
  );
});

test('Forwarded and X-Forwarded-Host/-Proto/-Port of a proxy in front of us do not reach the private API', async () => {
  await assertNoneArrive(
    {
      forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': '8443',
    },
    ['forwarded', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'],
  );
});

test('CF-* headers do not reach the private API', async () => {
  await assertNoneArrive(
    {
      'cf-connecting-ip': '203.0.113.9',
      'cf-connecting-ipv6': '2001:db8::9',
      'cf-ipcountry': 'XX',
      'cf-ray': '8f1e2d3c4b5a6978-EWR',
      'cf-visitor': '{"scheme":"https"}',
    },
    ['cf-connecting-ip', 'cf-connecting-ipv6', 'cf-ipcountry', 'cf-ray', 'cf-visitor'],
  );
});

test('X-Forwarded-For arrives as the one client address we resolved, never the caller’s list', async () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ 'x-forwarded-for': '198.51.100.7, 10.0.0.1' }, '198.51.100.7'],
    [{ 'x-forwarded-for': '198.51.100.7', 'cf-connecting-ip': '203.0.113.9' }, '203.0.113.9'],
    [{ 'x-forwarded-for': 'not-an-address, 198.51.100.7' }, '127.0.0.1'],
    [{}, '127.0.0.1'],
  ];
  for (const route of ROUTES) {
    for (const [headers, resolved] of cases) {
      const { status, sent } = await through(route, headers);
      assert.equal(status, 200, route.url);
      assert.equal(sent['x-forwarded-for'], resolved, `${route.url} with ${JSON.stringify(headers)}`);
    }
  }
});

test('the caller’s Content-Encoding and Content-Length never describe the body we re-serialised', async () => {
  for (const route of ROUTES.filter((r) => r.body !== undefined)) {
    const { status, sent } = await through(route, { 'content-encoding': 'identity' });
    assert.equal(status, 200, route.url);
    assert.equal(sent['content-encoding'], undefined, route.url);
    assert.equal(sent['content-type'], 'application/json', route.url);
    assert.equal(sent['content-length'], String(Buffer.byteLength(JSON.stringify(route.body))), route.url);
  }
});

test('anything else the caller sends stays with us: Cookie, Referer, Origin, a custom header', async () => {
  await assertNoneArrive({ cookie: 'session=ours', origin: 'http://localhost', 'x-custom': 'caller' }, [
    'cookie',
    'referer',
    'origin',
    'x-custom',
  ]);
});

test('Expect: 100-continue gets the normal answer on every route, and Expect never reaches the private API', async () => {
  await assertNoneArrive({ expect: '100-continue' }, ['expect']);
});

test('the caller’s Authorization, Accept-Language and User-Agent (and browser client hints) still arrive, beside all of the above', async () => {
  const caller = {
    authorization: 'Bearer caller-token',
    'accept-language': 'de-DE,de;q=0.9',
    'user-agent': 'CallerBrowser/1.0',
    'sec-ch-ua': '"Chromium";v="131"',
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"Linux"',
  };
  for (const route of ROUTES) {
    const { status, sent } = await through(route, {
      ...caller,
      connection: 'keep-alive, x-hop-secret',
      'x-hop-secret': 'hop',
      forwarded: 'for=192.0.2.60',
      'cf-ray': '8f1e2d3c4b5a6978-EWR',
      'x-forwarded-for': '198.51.100.7, 10.0.0.1',
      expect: '100-continue',
    });
    assert.equal(status, 200, route.url);
    for (const [name, value] of Object.entries(caller)) assert.equal(sent[name], value, `${route.url}: ${name}`);
    assert.equal(sent.accept, 'application/json', route.url);
  }
});
