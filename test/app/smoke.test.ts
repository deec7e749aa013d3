import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

test('configs answers booleans only, cacheable for an hour', async () => {
  const { app } = await buildTestApi({
    MAP_API_KEY: 'secret-map-key',
    KV_ACCOUNT_ID: 'a',
    KV_NAMESPACE_ID: 'b',
    RADAR_API_KEY: 'r',
  });
  const res = await call(app, '/api/configs');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  const body = res.json();
  assert.equal(body.map, true);
  assert.equal(body.reportSharing, true);
  assert.equal(body.ipInfo, false);
  for (const value of Object.values(body)) assert.equal(typeof value, 'boolean');
  assert.ok(!res.body.includes('secret-map-key'));
  await app.close();
});

test('repo-stars reads the count through the upstream client', async () => {
  fake.on('GET', 'api.github.com', '/repos/owner/repo', { json: { stargazers_count: 1234 } });
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    REPO_STARS_REPOSITORY: 'owner/repo',
    SITE_URL: 'https://example.org/',
  });
  const res = await call(app, '/api/repo-stars');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { stars: 1234 });
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  const [sent] = fake.requestsTo('api.github.com');
  assert.equal(sent?.headers['user-agent'], 'netdiag-backend/v1.0.0/https://example.org');
  await app.close();
});
