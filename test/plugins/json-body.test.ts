import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overHttp, type TimedAnswer, type TimedRequest } from '../support/over-http.js';
import { demoAppPerFile } from '../support/fake-upstream-per-file.js';
import { TOO_DEEP } from '../../plugins/json-body.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../lib/json-depth.js';

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const JSON_TYPE = { 'content-type': 'application/json' };

const demo = demoAppPerFile();
// Listening starts with the first request, once the file's app exists.
let overSocket: ((path: string, options?: TimedRequest) => Promise<TimedAnswer>) | undefined;
const send = async (path: string, options?: TimedRequest): Promise<TimedAnswer> => {
  overSocket ??= await overHttp(demo.app);
  return overSocket(path, options);
};

// Each route with a JSON body, and where a deep value can sit in it.
const BODIES: Array<[method: 'POST' | 'PUT', path: string, body: (deep: string) => string]> = [
  ['POST', '/api/report', (deep) => `{"report":${deep},"ttlDays":1}`],
  ['POST', '/api/persona/evaluate', (deep) => `{"persona":{"country":"US"},"observation":${deep}}`],
  ['PUT', '/api/updateuserachievement', (deep) => `{"achievement":${deep}}`],
];

test('a JSON body nested 10,000 deep is a 400 with a clear error on every JSON route, never a 500', async () => {
  for (const [method, path, body] of BODIES) {
    const res = await send(path, { method, headers: JSON_TYPE, body: body(nested(10_000)) });
    assert.equal(res.statusCode, 400, path);
    assert.deepEqual(JSON.parse(res.body), { error: TOO_DEEP }, path);
  }
});

test(`nesting up to ${MAX_JSON_DEPTH} levels is parsed as usual`, async () => {
  const res = await send('/api/persona/evaluate', {
    method: 'POST',
    headers: JSON_TYPE,
    body: `{"persona":{"country":"US"},"observation":${nested(MAX_JSON_DEPTH - 2)}}`,
  });
  assert.notEqual(res.statusCode, 400);
});

test('the depth check skips brackets inside strings, escaped quotes included', () => {
  assert.equal(nestedDeeperThan(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 2), false);
  assert.equal(nestedDeeperThan(nested(3), 3), false);
  assert.equal(nestedDeeperThan(nested(4), 3), true);
  assert.equal(nestedDeeperThan(`[${'[]'.repeat(1000)}]`, 2), false, 'siblings are not depth');
});
