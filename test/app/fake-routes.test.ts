import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../support/fake-upstream.js';
import { registerUpstreamAnswers } from '../support/fake-routes/index.js';
import { buildTestApi, call } from '../support/app.js';

test('the demo and bench fake answers repo-stars for jason5ng32/MyIP', async () => {
  const fake = await FakeUpstream.start();
  registerUpstreamAnswers(fake);
  // The default: the reference project's repository, as the contract's route counts.
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const res = await call(app, '/api/repo-stars');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { stars: 9120 });
  assert.equal(fake.requestsTo('api.github.com', '/repos/jason5ng32/MyIP').length, 1);
  await app.close();
  await fake.close();
});

test('the fake upstream can answer any status, a malformed body, a delay and a dropped connection', async () => {
  const fake = await FakeUpstream.start();
  fake.on('GET', 'x.example', '/teapot', { status: 418, body: 'not json', headers: { 'x-reason': 'short' } });
  fake.on('GET', 'x.example', '/late', { delayMs: 20, json: { late: true } });
  fake.on('GET', 'x.example', '/drop', { destroy: true });
  const teapot = await fetch(`${fake.origin}/x.example/teapot`);
  assert.equal(teapot.status, 418);
  assert.equal(teapot.headers.get('x-reason'), 'short');
  assert.equal(await teapot.text(), 'not json');
  assert.deepEqual(await (await fetch(`${fake.origin}/x.example/late?a=1`)).json(), { late: true });
  await assert.rejects(fetch(`${fake.origin}/x.example/drop`));
  const unknown = await fetch(`${fake.origin}/x.example/nothing`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(
    fake.requestsTo('x.example').map((r) => r.path),
    ['/teapot', '/late', '/drop', '/nothing'],
  );
  assert.equal(fake.requestsTo('x.example', '/late')[0]?.query.get('a'), '1');
  await fake.close();
});
