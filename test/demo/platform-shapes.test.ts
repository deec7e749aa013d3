import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequest } from '../support/example-requests.js';
import { EXAMPLE_REPORT, EXAMPLE_REPORT_ID } from '../../routes/report/examples.js';
import { Detail, Overview } from '../../contract/service-status.js';
import { UserInfo } from '../../contract/user-info.js';
import { PROVIDERS } from '../../routes/service-status/providers.js';

// The platform routes on the demo's fakes (npm run demo): each answers 2xx in
// the frontend contract's shape, with the fakes' example values.

let app: FastifyInstance;
let close: () => Promise<void>;
before(async () => {
  ({ app, close } = await bootOnAllFakes());
});
after(() => close());

test('configs: the eight booleans, every feature on with the demo settings', async () => {
  const res = await call(app, exampleRequest('/api/configs'));
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    map: true,
    ipInfo: true,
    ipChecking: true,
    ip2location: true,
    originalSite: false,
    cloudFlare: true,
    ipapiis: true,
    reportSharing: true,
  });
});

test('repo-stars: {stars} as a number', async () => {
  const res = await call(app, exampleRequest('/api/repo-stars'));
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { stars: 9120 });
});

test('service-status: every card has a light; every detail has components and incidents', async () => {
  const res = await call(app, exampleRequest('/api/service-status'));
  assert.equal(res.statusCode, 200);
  const overview = res.json();
  assert.ok(Value.Check(Overview, overview));
  assert.equal(overview.providers.length, 16);
  for (const provider of overview.providers) {
    assert.notEqual(provider.indicator, 'unknown', provider.id);
    assert.match(provider.page, /^https:\/\//);
  }
  for (const { id } of PROVIDERS) {
    const detail = await call(app, `/api/service-status/detail?id=${id}`);
    assert.equal(detail.statusCode, 200, id);
    const body = detail.json();
    assert.ok(Value.Check(Detail, body), id);
    assert.ok(body.components.length > 0 && body.incidents.length > 0, id);
    for (const incident of body.incidents) {
      assert.equal(incident.url, `${PROVIDERS.find((p) => p.id === id)!.page}/incidents/${incident.id}`);
    }
  }
});

test('getuserinfo: every field the site reads; updateuserachievement: 2xx', async () => {
  const info = await call(app, exampleRequest('/api/getuserinfo'));
  assert.equal(info.statusCode, 200);
  const body = info.json();
  assert.ok(Value.Check(UserInfo, body));
  assert.equal(typeof body.userLevel, 'string');
  assert.equal(typeof body.functionUses.total, 'number');
  assert.equal(typeof body.quota.multiplier, 'number');
  for (const feature of ['ipinfo', 'invisibility_test', 'dns_leak_test', 'persona_check'] as const) {
    assert.equal(typeof body.quota.features[feature].used, 'number', feature);
    assert.equal(typeof body.quota.features[feature].limit, 'number', feature);
  }
  const unlock = await call(app, exampleRequest('/api/updateuserachievement', 'PUT'));
  assert.equal(unlock.statusCode, 200);
});

test('report: 201 {id, expiresAt}, then GET {expiresAt, report} as posted; the demo holds the example report', async () => {
  const created = await call(app, exampleRequest('/api/report', 'POST'));
  assert.equal(created.statusCode, 201);
  const { id, expiresAt } = created.json();
  assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  const read = await call(app, `/api/report/${id}`);
  assert.equal(read.statusCode, 200);
  assert.deepEqual(read.json(), { expiresAt, report: EXAMPLE_REPORT });
  const held = await call(app, exampleRequest(`/api/report/${EXAMPLE_REPORT_ID}`));
  assert.equal(held.statusCode, 200);
  assert.deepEqual(held.json().report, EXAMPLE_REPORT);
});

test("monitoring: the ingest's answer as received", async () => {
  const res = await call(app, exampleRequest('/api/monitoring', 'POST'));
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { id: '9ec79c33ec9942ab8353589fcb2e04dc' });
});
