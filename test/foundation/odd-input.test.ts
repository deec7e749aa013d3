import { test, before, after } from 'node:test';
import { setImmediate as loopTurn } from 'node:timers/promises';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';

// Every route with every parameter name the API uses, each given odd values in
// odd shapes: whatever the answer, it is never a 5xx and never a stack trace.
const ROUTES = [
  'configs', 'repo-stars', 'geo-keyed-a', 'geo-free-a', 'geo-free-b', 'geo-keyed-b', 'geo-keyed-c', 'geo-local', 'geo-private',
  'whois', 'dnsresolver', 'asn-connectivity', 'asn-history', 'asn-radar', 'censorship-blocking', 'probe-countries', 'macchecker',
  'map', 'invisibility', 'getuserinfo', 'service-status', 'report/x', 'dnsleaktest/session/x', 'client-ip',
];
const PARAMS = ['ip', 'lang', 'q', 'hostname', 'type', 'asn', 'prefix', 'view', 'country', 'domain', 'mac', 'latitude', 'longitude', 'language', 'id', 'token'];
const VALUES = [
  '', '%00', '%E0%A4%A', 'a'.repeat(5000), '[]', '{}', '..%2F..%2Fetc', '%F0%9F%98%80', '-1', '1e309', 'AS99999999999',
  '::ffff:8.8.8.8', '2001:db8::1', 'example.com.', 'xn--', '__proto__', 'constructor',
];
const shapes = (p: string, v: string) => [`${p}=${v}`, `${p}=${v}&${p}=${v}`, `${p}[]=${v}`, `ip=8.8.8.8&view=asn&hostname=example.com&${p}=${v}`];

const BODY_TARGETS: Array<[InjectOptions['method'], string]> = [
  ['POST', '/api/report'], ['POST', '/api/persona/evaluate'], ['PUT', '/api/updateuserachievement'], ['POST', '/api/monitoring'],
  ['POST', '/api/configs'], ['PUT', '/api/report'], ['PATCH', '/api/persona/evaluate'],
];
const BODIES: Array<[string, string]> = [
  ['application/json', ''], ['application/json', '{'], ['application/json', 'null'], ['application/json', '[]'], ['application/json', '"x"'],
  ['application/json', '{"__proto__":{"x":1}}'],
  ['application/json', '{"report":{"v":1,"generatedAt":"2026-11-24T12:00:00Z","origin":"localhost","locale":"en","sections":{"ipinfo":{"testedAt":"2026-11-24T12:00:00Z","cards":[{"source":"IPCheck.ing IPv4","ip":"8.8.8.8","constructor":{}}]}}}}'],
  ['application/json', `{"a":"${'x'.repeat(600 * 1024)}"}`], ['application/json; charset=latin1', '{}'],
  ['text/plain', 'hello'], ['text/plain;charset=UTF-8', '{}\n{}\n'], ['application/x-www-form-urlencoded', 'a=b'], ['application/octet-stream', '\u0000\u0001'],
];

let app: FastifyInstance;
let close: () => Promise<void>;
before(async () => {
  ({ app, close } = await bootOnAllFakes());
});
after(() => close());

const broken = (statusCode: number, body: string) => statusCode >= 500 || /\n\s+at /.test(body);

/**
 * One injected request, then a turn of the event loop, as between requests
 * that arrive over sockets. Thousands of injected requests answered from
 * memory otherwise run as one chain of microtasks that starves the timers for
 * over a second, and the load shedding rightly reads that as an overloaded
 * process and answers 503.
 */
async function ask(options: string | InjectOptions) {
  const res = await call(app, options);
  await loopTurn();
  return res;
}

test('odd query strings on every route: no 5xx, no stack trace', async () => {
  const failed: string[] = [];
  for (const route of ROUTES) {
    for (const param of PARAMS) {
      for (const value of VALUES) {
        for (const query of shapes(param, value)) {
          const res = await ask(`/api/${route}?${query}`);
          if (broken(res.statusCode, res.body)) failed.push(`${res.statusCode} /api/${route}?${query.slice(0, 60)}`);
        }
      }
    }
  }
  assert.deepEqual(failed, []);
});

test('odd bodies and content types on every body route: no 5xx, no stack trace', async () => {
  const failed: string[] = [];
  for (const [method, url] of BODY_TARGETS) {
    for (const [contentType, payload] of BODIES) {
      const res = await ask({ method, url, payload, headers: { 'content-type': contentType } });
      if (broken(res.statusCode, res.body)) failed.push(`${res.statusCode} ${method} ${url} ${contentType} ${payload.slice(0, 30)}`);
    }
  }
  assert.deepEqual(failed, []);
});
