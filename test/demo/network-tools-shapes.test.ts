import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApi, call } from '../support/app.js';
import { startAllFakes } from '../support/fakes.js';
import { exampleRequest } from '../support/example-requests.js';

// The demo's own wiring (every fake, its settings): each network-tool panel of
// the site must get its contract shape with data in every field it reads.
test('on the demo fakes every network tool answers 2xx in the contract shape, with data for every panel', async () => {
  const fakes = await startAllFakes();
  const { app } = await buildTestApi(fakes.env);
  try {
    const censorship = await call(app, exampleRequest('/api/censorship-blocking'));
    assert.equal(censorship.statusCode, 200);
    const blocking = censorship.json();
    assert.match(blocking.since, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(blocking.until, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(
      [...new Set(blocking.countries.map((c: { tier: string }) => c.tier))],
      ['confirmed', 'likely', 'signs', 'ok'],
    );
    assert.ok(blocking.countries.some((c: { methods: object }) => Object.keys(c.methods).length > 0));

    const probes = (await call(app, exampleRequest('/api/probe-countries'))).json();
    assert.ok(probes.countries.length >= 5 && probes.countries.every((c: unknown) => typeof c === 'string'));
    assert.deepEqual(
      probes.continents.map((b: { key: string }) => b.key),
      ['asia', 'europe', 'africa', 'americas', 'oceania'],
    );

    const mac = await call(app, exampleRequest('/api/macchecker'));
    assert.equal(mac.statusCode, 200);
    const vendor = mac.json();
    assert.equal(vendor.success, true);
    assert.match(vendor.macPrefix, /^[0-9A-F]{2}(:[0-9A-F]{2})+$/);
    assert.match(vendor.country, /^[A-Z]{2}$/);
    assert.notEqual(vendor.company, 'N/A');
    for (const bit of ['isMulticast', 'isUnicast', 'isLocal', 'isGlobal', 'isRand', 'isPrivate']) {
      assert.equal(typeof vendor[bit], 'boolean', bit);
    }

    const map = await call(app, exampleRequest('/api/map'));
    assert.equal(map.statusCode, 200);
    assert.equal(map.headers['content-type'], 'image/jpeg');
    assert.equal(map.rawPayload.readUInt16BE(0), 0xffd8);
    assert.equal(map.rawPayload.readUInt16BE(map.rawPayload.length - 2), 0xffd9);

    const session = await call(app, exampleRequest('/api/dnsleaktest/session/'));
    assert.equal(session.statusCode, 200);
    const leak = session.json();
    assert.ok(leak.rawCount > 0 && leak.resolverCount > 0 && leak.queries.length > 0);
    assert.ok(leak.queries.every((q: { ipInfo?: { country_code?: string } }) => q.ipInfo?.country_code));

    const invisibility = await call(app, exampleRequest('/api/invisibility'));
    assert.equal(invisibility.statusCode, 200);
    const proxy = invisibility.json();
    assert.equal(typeof proxy.score.vpn, 'number');
    assert.equal(typeof proxy.headers.proxy, 'boolean');
    assert.ok(proxy.webrtc.allips.length > 0);

    const evaluation = await call(app, exampleRequest('/api/persona/evaluate', 'POST'));
    assert.equal(evaluation.statusCode, 200);
    const persona = evaluation.json();
    assert.match(persona.grade, /^(A|B|C|D|unknown)$/);
    assert.ok(persona.score >= 0 && persona.score <= 1);
    assert.equal(persona.results.length, persona.counts.total);
  } finally {
    await app.close();
    await fakes.close();
  }
});
