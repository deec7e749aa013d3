import { test, before, after } from 'node:test';
import { setImmediate as loopTurn } from 'node:timers/promises';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequests } from '../support/example-requests.js';

// Every route with every parameter name the API uses (both from the example
// requests of routes/*/examples.ts), each given odd values in odd shapes:
// whatever the answer, it is never a 5xx and never a stack trace.
const EXAMPLES = exampleRequests().map((r) => ({ method: r.method ?? 'GET', url: new URL(r.url, 'http://localhost') }));
const GET_PATHS = [...new Set(EXAMPLES.filter((e) => e.method === 'GET').map((e) => e.url.pathname))];
const PARAMS = [...new Set(EXAMPLES.flatMap((e) => [...e.url.searchParams.keys()]))];
const VALUES = [
  '',
  '%00',
  '%E0%A4%A',
  'a'.repeat(5000),
  '[]',
  '{}',
  '..%2F..%2Fetc',
  '%F0%9F%98%80',
  '-1',
  '1e309',
  'AS99999999999',
  '::ffff:8.8.8.8',
  '2001:db8::1',
  'example.com.',
  'xn--',
  '__proto__',
  'constructor',
];
const shapes = (p: string, v: string) => [
  `${p}=${v}`,
  `${p}=${v}&${p}=${v}`,
  `${p}[]=${v}`,
  `ip=8.8.8.8&view=asn&hostname=example.com&${p}=${v}`,
];

// Each body an example sends, then a POST to every GET route.
const BODY_TARGETS = [
  ...new Set([
    ...EXAMPLES.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.url.pathname}`),
    ...GET_PATHS.map((path) => `POST ${path}`),
  ]),
].map((target) => target.split(' ') as [InjectOptions['method'], string]);
const BODIES: Array<[string, string]> = [
  ['application/json', ''],
  ['application/json', '{'],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '"x"'],
  ['application/json', '{"__proto__":{"x":1}}'],
  [
    'application/json',
    '{"report":{"v":1,"generatedAt":"2026-11-24T12:00:00Z","origin":"localhost","locale":"en","sections":{"ipinfo":{"testedAt":"2026-11-24T12:00:00Z","cards":[{"source":"IPCheck.ing IPv4","ip":"8.8.8.8","constructor":{}}]}}}}',
  ],
  ['application/json', `{"a":"${'x'.repeat(600 * 1024)}"}`],
  ['application/json; charset=latin1', '{}'],
  ['text/plain', 'hello'],
  ['text/plain;charset=UTF-8', '{}\n{}\n'],
  ['application/x-www-form-urlencoded', 'a=b'],
  ['application/octet-stream', '\u0000\u0001'],
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
  for (const path of GET_PATHS) {
    for (const param of PARAMS) {
      for (const value of VALUES) {
        for (const query of shapes(param, value)) {
          const res = await ask(`${path}?${query}`);
          if (broken(res.statusCode, res.body)) failed.push(`${res.statusCode} ${path}?${query.slice(0, 60)}`);
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
      if (broken(res.statusCode, res.body)) {
        failed.push(`${res.statusCode} ${method} ${url} ${contentType} ${payload.slice(0, 30)}`);
      }
    }
  }
  assert.deepEqual(failed, []);
});
