import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequest } from '../support/example-requests.js';
import type { ExampleRequest } from '../../routes/example-request.js';

// What `npm run demo` shows on the ASN panels: every route 2xx, in the frontend contract's shapes, every REQUIRED field filled.

const PERCENT = /^\d+\.\d{2}%$/;
const RIPE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

test('the demo answers every ASN route in the contract shapes with realistic data', async (t) => {
  const { app, close } = await bootOnAllFakes();
  t.after(close);
  const get = async (request: ExampleRequest) => {
    const res = await call(app, request);
    assert.equal(res.statusCode, 200, `${request.url}: ${res.body.slice(0, 200)}`);
    return res.json();
  };

  const profile = await get(exampleRequest('/api/asn-radar?view=asn'));
  assert.equal(profile.asnName, 'GOOGLE');
  assert.equal(profile.asnCountryCode, 'US');
  assert.equal(profile.asnOrgName, 'Google LLC');
  assert.equal(profile.estimatedUsers, '1,834,562');
  for (const field of [
    'IPv4_Pct',
    'IPv6_Pct',
    'HTTP_Pct',
    'HTTPS_Pct',
    'Desktop_Pct',
    'Mobile_Pct',
    'Bot_Pct',
    'Human_Pct',
  ]) {
    assert.match(profile[field], PERCENT, field);
  }

  const { events } = await get(exampleRequest('/api/asn-radar?view=outages'));
  assert.ok(events.length >= 3);
  assert.deepEqual(new Set(events.map((e: { kind: string }) => e.kind)), new Set(['outage', 'anomaly']));
  assert.equal(events[0].endDate, null, 'an ongoing event comes first');
  for (const e of events) {
    assert.match(e.id, /^[oa]-./);
    assert.ok(!Number.isNaN(Date.parse(e.startDate)));
    assert.ok(e.endDate === null || !Number.isNaN(Date.parse(e.endDate)));
    assert.ok(Array.isArray(e.locations) && Array.isArray(e.asns));
    for (const a of e.asns) assert.ok(Number.isInteger(a.asn) && typeof a.name === 'string');
    for (const key of ['cause', 'level', 'description', 'scope']) assert.ok(key in e, key);
  }
  assert.ok(
    events.some(
      (e: { kind: string; cause: string | null }) => e.kind === 'outage' && e.cause !== null && e.cause !== 'UNKNOWN',
    ),
  );

  const activity = await get(exampleRequest('/api/asn-radar?view=activity'));
  assert.ok(activity.days.length > 0);

  const { history } = await get(exampleRequest('/api/asn-history'));
  assert.ok(history.length >= 3, 'several origins');
  for (const row of history) {
    assert.match(row.asn, /^\d+$/);
    assert.equal(typeof row.org, 'string');
    assert.match(row.firstSeen, RIPE_TIME);
    assert.match(row.lastSeen, RIPE_TIME);
    assert.ok(Number.isInteger(row.peers) && Number.isInteger(row.peersPct) && row.peersPct <= 100);
    assert.ok(row.prefixes.length > 0);
  }

  for (const asn of [15169, 13335]) {
    const graph = await get({ url: `/api/asn-connectivity?asn=${asn}` });
    const types = graph.nodes.map((n: { type: string }) => n.type);
    assert.equal(types[0], 'origin', `AS${asn}`);
    assert.ok(types.includes('tier1') && types.includes('intermediate'), `AS${asn}: ${types}`);
    for (const n of graph.nodes) assert.equal(typeof n.name, 'string', `AS${asn}: AS${n.asn} named`);
    const ids = new Set(graph.nodes.map((n: { asn: number }) => n.asn));
    for (const e of graph.edges) assert.ok(ids.has(e.from) && ids.has(e.to));
  }
});
