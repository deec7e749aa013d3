import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream, fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, buildTestApiWith, call } from '../support/app.js';
import { heldAtLeast, overHttp, slowDownProbe } from '../support/over-http.js';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';
import { parseEnvelope, TOO_DEEP_ENVELOPE } from '../../routes/monitoring/envelope.js';
import { MAX_JSON_DEPTH } from '../../lib/json-depth.js';

const INGEST_HOST = 'o0.ingest.sentry.io';
const INGEST_PATH = '/api/0/envelope/';
const DSN = EXAMPLE_TELEMETRY_DSN;

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.on('POST', INGEST_HOST, INGEST_PATH, { json: fixture(INGEST_HOST, 'envelope-accepted.json') });
});

const env = (extra: Record<string, string> = {}) => ({
  UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
  TELEMETRY_DSN_FRONTEND: DSN,
  ...extra,
});

function envelope(dsn: string, ...items: Array<[Record<string, unknown>, Buffer | string]>): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      JSON.stringify({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc', dsn, sent_at: '2026-11-22T23:59:00.000Z' }),
    ),
  ];
  for (const [header, payload] of items) {
    parts.push(Buffer.from('\n'), Buffer.from(JSON.stringify(header)), Buffer.from('\n'), Buffer.from(payload));
  }
  parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

const event = JSON.stringify({
  event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
  level: 'error',
  platform: 'javascript',
  user: { id: 'u1', ip_address: '{{auto}}' },
});

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

// What the browser SDK sends an envelope as.
const ENVELOPE_TYPE = { 'content-type': 'text/plain;charset=UTF-8' };

function send(app: Parameters<typeof call>[0], body: Buffer | string, headers: Record<string, string> = ENVELOPE_TYPE) {
  return call(app, { method: 'POST', url: '/api/monitoring', payload: body, headers });
}

test('without TELEMETRY_DSN_FRONTEND, or with one that is no DSN, the tunnel answers 404 Tunnel not configured', async () => {
  for (const extra of [{}, { TELEMETRY_DSN_FRONTEND: 'not a dsn' }] as Array<Record<string, string>>) {
    const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...extra });
    for (const headers of [ENVELOPE_TYPE, { 'content-type': 'application/x-sentry-envelope' }, {}]) {
      const res = await send(app, envelope(DSN, [{ type: 'event' }, event]), headers);
      assertErrorAnswer(res, 404, 'Tunnel not configured');
    }
    // Even a body past the tunnel's 10 MB is not read.
    const huge = await send(app, Buffer.alloc(11 * 1024 * 1024, 0x41));
    assert.deepEqual([huge.statusCode, huge.json()], [404, { error: 'Tunnel not configured' }]);
    await app.close();
  }
  assert.equal(fake.requestsTo(INGEST_HOST).length, 0);
});

test('an envelope for the configured DSN is relayed with the visitor address written into its events', async () => {
  const { app } = await buildTestApi(env());
  const res = await send(app, envelope(DSN, [{ type: 'event', length: Buffer.byteLength(event) }, event]), {
    ...ENVELOPE_TYPE,
    'cf-connecting-ip': '203.0.113.50',
    'x-forwarded-for': '198.51.100.1',
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, JSON.stringify(fixture(INGEST_HOST, 'envelope-accepted.json')));
  assert.deepEqual(res.json(), { id: '9ec79c33ec9942ab8353589fcb2e04dc' });
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.headers['cache-control'], 'no-store');
  const [relayed] = fake.requestsTo(INGEST_HOST, INGEST_PATH);
  assert.equal(relayed?.headers['content-type'], 'application/x-sentry-envelope');
  const sent = parseEnvelope(relayed!.body);
  assert.equal(sent.header.dsn, DSN);
  const [eventItem] = sent.items;
  const payload = JSON.parse(eventItem!.payload.toString());
  assert.deepEqual(payload.user, { id: 'u1', ip_address: '203.0.113.50' });
  assert.equal(eventItem!.header.length, eventItem!.payload.length);
  await app.close();
});

test('without a valid CF-Connecting-IP no address is written: the event goes on as it came (the spec)', async () => {
  const { app } = await buildTestApi(env());
  const bare = JSON.stringify({ event_id: 'abc', message: 'x' });
  const cases: Array<Record<string, string>> = [
    { 'cf-connecting-ip': 'not-an-ip', 'x-forwarded-for': '198.51.100.7' },
    { 'x-forwarded-for': '198.51.100.7' },
    {},
  ];
  for (const headers of cases) {
    const res = await send(app, envelope(DSN, [{ type: 'event' }, bare]), { 'content-type': 'text/plain', ...headers });
    assert.equal(res.statusCode, 200);
    const sent = parseEnvelope(fake.requestsTo(INGEST_HOST).at(-1)!.body);
    assert.equal(sent.items[0]!.payload.toString(), bare, JSON.stringify(headers));
  }
  const withUser = await send(app, envelope(DSN, [{ type: 'event' }, event]), { 'content-type': 'text/plain' });
  assert.equal(withUser.statusCode, 200);
  const relayed = parseEnvelope(fake.requestsTo(INGEST_HOST).at(-1)!.body);
  assert.deepEqual(JSON.parse(relayed.items[0]!.payload.toString()).user, { id: 'u1', ip_address: '{{auto}}' });
  await app.close();
});

test('a valid CF-Connecting-IP is written into an event without a user', async () => {
  const { app } = await buildTestApi(env());
  const bare = JSON.stringify({ event_id: 'abc', message: 'x' });
  const res = await send(app, envelope(DSN, [{ type: 'event' }, bare]), {
    'content-type': 'text/plain',
    'cf-connecting-ip': '198.51.100.7',
  });
  assert.equal(res.statusCode, 200);
  const sent = parseEnvelope(fake.requestsTo(INGEST_HOST)[0]!.body);
  assert.deepEqual(JSON.parse(sent.items[0]!.payload.toString()).user, { ip_address: '198.51.100.7' });
  await app.close();
});

test('a body without a Content-Type header is accepted', async () => {
  const { app } = await buildTestApi(env());
  const res = await send(app, envelope(DSN, [{ type: 'event' }, event]), {});
  assert.equal(res.statusCode, 200);
  assert.equal(fake.requestsTo(INGEST_HOST).length, 1);
  await app.close();
});

test('a different DSN is 403 and nothing is relayed', async () => {
  const { app } = await buildTestApi(env());
  for (const dsn of ['https://other@o0.ingest.sentry.io/0', `${DSN}/`, DSN.toUpperCase()]) {
    const res = await send(app, envelope(dsn, [{ type: 'event' }, event]));
    assertErrorAnswer(res, 403, 'DSN not allowed');
  }
  const noDsn = await send(app, '{"event_id":"abc"}\n{"type":"event"}\n{}\n');
  assert.equal(noDsn.statusCode, 403);
  assert.equal(fake.requestsTo(INGEST_HOST).length, 0);
  await app.close();
});

test('malformed envelopes are 400, never 500', async () => {
  const { app, logs } = await buildTestApi(env());
  const header = JSON.stringify({ dsn: DSN });
  const bodies: Array<string | Buffer> = [
    header,
    'not json\n{"type":"event"}\n{}',
    '[1,2]\n{"type":"event"}\n{}',
    `${header}\nnot json\n{}`,
    `${header}\n{"type":"event","length":100}\nshort`,
    `${header}\n{"type":"event","length":-1}\nx`,
    `${header}\n{"type":"event"}\nnot json`,
    `${header}\n{"length":2}\nab`,
  ];
  // An item without a `length` runs to the first newline; the bytes after it are no item header.
  bodies.push(Buffer.concat([Buffer.from(`${header}\n{"type":"event"}\n{}\n`), Buffer.from([0x00, 0xff, 0x0a])]));
  for (const body of bodies) {
    const res = await send(app, body);
    assert.equal(res.statusCode, 400, body.toString());
    assert.deepEqual(res.json(), { error: 'Invalid envelope' });
  }
  const empty = await send(app, '', {});
  assertErrorAnswer(empty, 400, 'Invalid envelope');
  assert.equal(fake.requestsTo(INGEST_HOST).length, 0);
  assert.equal(logs.find('request failed').length, 0);
  await app.close();
});

test('a JSON line nested 10,000 deep (event, item header or envelope header) is a 400 over a socket, nothing relayed, no error logged', async () => {
  const { app, logs } = await buildTestApi(env());
  const post = await overHttp(app);
  const deep = nested(10_000);
  const bodies = [
    envelope(DSN, [{ type: 'event' }, deep]),
    envelope(DSN, [{ type: 'event', length: Buffer.byteLength(deep) }, deep]),
    Buffer.from(`${JSON.stringify({ dsn: DSN })}\n${deep}\n${event}\n`),
    Buffer.from(`{"dsn":${JSON.stringify(DSN)},"sdk":${deep}}\n{"type":"event"}\n${event}\n`),
  ];
  for (const body of bodies) {
    const res = await post('/api/monitoring', { method: 'POST', headers: ENVELOPE_TYPE, body });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(JSON.parse(res.body), { error: TOO_DEEP_ENVELOPE });
  }
  assert.equal(fake.requestsTo(INGEST_HOST).length, 0, 'nothing relayed');
  assert.deepEqual(
    logs.lines.filter((line) => Number(line.level) >= 50),
    [],
    'no error line',
  );
  assert.doesNotMatch(logs.text, /stack|Maximum call stack/);

  // At the depth limit an event is still relayed.
  const atLimit = envelope(DSN, [{ type: 'event' }, nested(MAX_JSON_DEPTH)]);
  const relayed = await post('/api/monitoring', { method: 'POST', headers: ENVELOPE_TYPE, body: atLimit });
  assert.equal(relayed.statusCode, 200, relayed.body);
  assert.equal(fake.requestsTo(INGEST_HOST).length, 1);
  await app.close();
});

test('a relay failure is 502 with a warning', async () => {
  const { app, logs } = await buildTestApi(env());
  fake.on('POST', INGEST_HOST, INGEST_PATH, { destroy: true });
  const dropped = await send(app, envelope(DSN, [{ type: 'event' }, event]));
  assertErrorAnswer(dropped, 502, 'Relay failed');
  fake.on('POST', INGEST_HOST, INGEST_PATH, { status: 503, body: 'unavailable' });
  const refused = await send(app, envelope(DSN, [{ type: 'event' }, event]));
  assertErrorAnswer(refused, 502, 'Relay failed');
  const warnings = logs.find('telemetry relay failed');
  assert.equal(warnings.length, 2);
  assert.ok(warnings.every((l) => l.level === 40));
  await app.close();
});

test('the ingest rate-limit answer is passed on to the SDK', async () => {
  const { app } = await buildTestApi(env());
  fake.on('POST', INGEST_HOST, INGEST_PATH, {
    status: 429,
    json: {},
    headers: { 'retry-after': '60', 'x-sentry-rate-limits': '60:error:organization' },
  });
  const res = await send(app, envelope(DSN, [{ type: 'event' }, event]));
  assert.equal(res.statusCode, 429);
  assert.equal(res.body, '{}');
  assert.equal(res.headers['retry-after'], '60');
  assert.equal(res.headers['x-sentry-rate-limits'], '60:error:organization');
  await app.close();
});

test('an answer of the ingest that is not JSON is passed on as received', async () => {
  const { app } = await buildTestApi(env());
  fake.on('POST', INGEST_HOST, INGEST_PATH, {
    status: 400,
    body: 'envelope header is not valid',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
  const res = await send(app, envelope(DSN, [{ type: 'event' }, event]));
  assert.equal(res.statusCode, 400);
  assert.equal(res.body, 'envelope header is not valid');
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  await app.close();
});

test('its own limiter allows 600 requests per client per window', async () => {
  const { app } = await buildTestApi(env());
  const body = envelope('https://other@o0.ingest.sentry.io/0', [{ type: 'event' }, event]);
  const headers = { 'content-type': 'text/plain', 'x-forwarded-for': '198.51.100.20' };
  for (let i = 0; i < 600; i++) assert.equal((await send(app, body, headers)).statusCode, 403);
  const limited = await send(app, body, headers);
  assert.equal(limited.statusCode, 429);
  assert.deepEqual(limited.json(), { message: 'Too Many Requests' });
  const other = await send(app, body, { ...headers, 'x-forwarded-for': '198.51.100.21' });
  assert.equal(other.statusCode, 403);
  await app.close();
});

test('it is exempt from the global rate limiter', async () => {
  const { app } = await buildTestApi(env({ SECURITY_RATE_LIMIT: '1' }));
  for (let i = 0; i < 5; i++) {
    assert.equal((await send(app, envelope(DSN, [{ type: 'event' }, event]))).statusCode, 200);
  }
  assert.equal((await call(app, '/api/configs')).statusCode, 200);
  assert.equal((await call(app, '/api/configs')).statusCode, 429);
  assert.equal(fake.requestsTo(INGEST_HOST).length, 5);
  await app.close();
});

test('it is exempt from the global slow-down', async () => {
  const { app } = await buildTestApiWith(env({ SECURITY_DELAY_AFTER: '1' }), slowDownProbe);
  const fetch = await overHttp(app);
  for (let i = 0; i < 5; i++) {
    const res = await fetch('/api/monitoring', {
      method: 'POST',
      headers: ENVELOPE_TYPE,
      body: envelope(DSN, [{ type: 'event' }, event]),
    });
    assert.equal(res.statusCode, 200);
  }
  // Had the five envelopes counted, this would be the sixth request, held 2 s.
  assert.deepEqual(JSON.parse((await fetch('/api/t/slow-down')).body), { delay: 0, counted: true });
  // The next ordinary request from the same client is the first one slowed down.
  const slowed = await fetch('/api/t/slow-down');
  assert.deepEqual(JSON.parse(slowed.body), { delay: 400, counted: true });
  assert.ok(heldAtLeast(slowed.ms, 400), `${slowed.ms} ms`);
  await app.close();
});
