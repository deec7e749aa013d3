import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { fixtureBytes, closedOrigin } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call, REFERER } from '../support/app.js';
import { DARK_STYLE } from '../../routes/map/index.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'maps.googleapis.com';
const PATH = '/maps/api/staticmap';
const IMAGE = fixtureBytes(HOST, 'staticmap.jpg');
const OK_QUERY = 'latitude=52.52&longitude=13.405&language=DE';

const fake = fakeUpstreamPerFile();

async function api(env: Record<string, string> = { MAP_API_KEY: 'map-key' }) {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...env })).app;
}

interface JpegFrame {
  markers: number[];
  width: number;
  height: number;
  components: number;
  scanBytes: number;
}

/** Walks a JPEG's segments as a decoder does: SOI, length-prefixed segments, one baseline scan, EOI. */
function walkJpeg(bytes: Buffer): JpegFrame {
  assert.equal(bytes.readUInt16BE(0), 0xffd8, 'starts with SOI');
  const frame: JpegFrame = { markers: [], width: 0, height: 0, components: 0, scanBytes: 0 };
  let at = 2;
  for (;;) {
    assert.equal(bytes[at], 0xff, `a marker at ${at}`);
    const marker = bytes[at + 1]!;
    frame.markers.push(marker);
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xc0) {
      assert.equal(bytes[at + 4], 8, '8-bit samples');
      frame.height = bytes.readUInt16BE(at + 5);
      frame.width = bytes.readUInt16BE(at + 7);
      frame.components = bytes[at + 9]!;
    }
    at += 2 + length;
    if (marker === 0xda) break;
  }
  // Entropy-coded data: 0xFF is followed only by a stuffed 0x00 or a restart marker until EOI.
  const scanStart = at;
  while (!(bytes[at] === 0xff && bytes[at + 1] === 0xd9)) {
    if (bytes[at] === 0xff) {
      assert.ok(bytes[at + 1] === 0x00 || (bytes[at + 1]! >= 0xd0 && bytes[at + 1]! <= 0xd7), `stuffed byte at ${at}`);
    }
    at += 1;
    assert.ok(at < bytes.length - 1, 'ends with EOI');
  }
  frame.scanBytes = at - scanStart;
  assert.equal(at + 2, bytes.length, 'nothing after EOI');
  return frame;
}

test('the static-map fixture is a baseline JPEG of the size Static Maps sends for 640x320 at scale 2', () => {
  const frame = walkJpeg(IMAGE);
  assert.equal(frame.markers[0], 0xe0, 'JFIF header first');
  for (const required of [0xdb, 0xc4, 0xc0, 0xda]) {
    assert.ok(frame.markers.includes(required), `segment ${required.toString(16)}`);
  }
  assert.deepEqual([frame.width, frame.height, frame.components], [1280, 640, 3]);
  assert.ok(frame.scanBytes > 1000);
});

test('sends the image byte for byte with the upstream content type, cacheable for a year', async () => {
  fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': 'image/jpeg' } });
  const app = await api();
  const res = await call(app, {
    url: `/api/map?${OK_QUERY}`,
    headers: { authorization: 'Bearer caller', cookie: 'sid=1' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'image/jpeg');
  assert.equal(res.headers['cache-control'], 'public, max-age=31536000');
  assert.ok(res.rawPayload.equals(IMAGE));

  const [sent] = fake.requestsTo(HOST, PATH);
  assert.equal(sent?.query.get('center'), '52.52,13.405');
  assert.equal(sent?.query.get('markers'), 'color:blue|52.52,13.405');
  assert.equal(sent?.query.get('zoom'), '3');
  assert.equal(sent?.query.get('size'), '640x320');
  assert.equal(sent?.query.get('scale'), '2');
  assert.equal(sent?.query.get('maptype'), 'roadmap');
  assert.equal(sent?.query.get('language'), 'de');
  assert.equal(sent?.query.get('format'), 'jpg');
  assert.equal(sent?.query.get('key'), 'map-key');
  assert.deepEqual(sent?.query.getAll('style'), []);
  assert.equal(sent?.headers.authorization, undefined);
  assert.equal(sent?.headers.cookie, undefined);
  await app.close();
});

test('coordinates as the site sends them (rounded to 0.1°, signed) reach center and marker unchanged', async () => {
  fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': 'image/jpeg' } });
  const app = await api();
  const res = await call(app, '/api/map?latitude=-33.9&longitude=151.2&language=en');
  assert.equal(res.statusCode, 200);
  const [sent] = fake.requestsTo(HOST, PATH);
  assert.equal(sent?.query.get('center'), '-33.9,151.2');
  assert.equal(sent?.query.get('markers'), 'color:blue|-33.9,151.2');
  await app.close();
});

test('a PNG passes as image/png; HTML, JSON or untyped bytes are an upstream error, never cached', async () => {
  fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': 'image/png' } });
  const app = await api();
  const res = await call(app, `/api/map?${OK_QUERY}`);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'image/png');
  await app.close();
  // A fresh app for each answer: the same question's answer would be the one kept.
  for (const type of ['text/html; charset=utf-8', 'application/json', 'application/octet-stream']) {
    fake.on('GET', HOST, PATH, { body: '<html>not a map</html>', headers: { 'content-type': type } });
    const fresh = await api();
    const other = await call(fresh, `/api/map?${OK_QUERY}`);
    assertErrorAnswer(other, 502, 'Upstream error', type);
    await fresh.close();
  }
});

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';

/** GET /api/map over a real socket, the body read whole. */
async function overSocket(app: Awaited<ReturnType<typeof api>>) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return async () => {
    const res = await request(`http://127.0.0.1:${port}/api/map?${OK_QUERY}`, { headers: REFERER });
    return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
  };
}

/** GET /api/map over a real socket, on a fresh app: the same question's answer would be the one kept. */
async function freshGet() {
  const app = await api();
  const res = await (await overSocket(app))();
  await app.close();
  return res;
}

test('only JPEG and PNG pass, by media type: SVG, image/*, HTML or no type is a 502 with none of its bytes, never cached', async () => {
  const refused: Array<string | undefined> = [
    'image/svg+xml',
    'IMAGE/SVG+XML; charset=utf-8',
    'image/*',
    'image/jpeg+svg',
    'image/pngx',
    'image/webp',
    'text/html; charset=utf-8',
    undefined,
  ];
  for (const type of refused) {
    fake.on('GET', HOST, PATH, { body: SVG, headers: type === undefined ? {} : { 'content-type': type } });
    const res = await freshGet();
    const label = type ?? 'no Content-Type';
    assert.equal(res.status, 502, label);
    assert.deepEqual(JSON.parse(res.bytes.toString('utf8')), { error: 'Upstream error' }, label);
    assert.equal(res.headers['cache-control'], 'no-store', label);
    assert.doesNotMatch(res.bytes.toString('utf8'), /svg|script/i, label);
  }

  const accepted: Array<[upstream: string, sent: string]> = [
    ['image/jpeg', 'image/jpeg'],
    ['Image/JPEG; charset=binary', 'image/jpeg'],
    ['image/png', 'image/png'],
  ];
  for (const [upstream, sent] of accepted) {
    fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': upstream } });
    const res = await freshGet();
    assert.equal(res.status, 200, upstream);
    assert.equal(res.headers['content-type'], sent, upstream);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000', upstream);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', upstream);
    assert.ok(res.bytes.equals(IMAGE), upstream);
  }
});

test('CanvasMode=Dark adds the dark style rules; other values keep the default style', async () => {
  fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': 'image/jpeg' } });
  const app = await api();
  await call(app, `/api/map?${OK_QUERY}&CanvasMode=Dark`);
  await call(app, `/api/map?${OK_QUERY}&CanvasMode=Light`);
  const [dark, light] = fake.requestsTo(HOST, PATH);
  assert.equal(DARK_STYLE.length, 18);
  assert.deepEqual(dark?.query.getAll('style'), DARK_STYLE);
  assert.deepEqual(light?.query.getAll('style'), []);
  await app.close();
});

test('a comma list of keys rotates through pickKey', async (t) => {
  fake.on('GET', HOST, PATH, { body: IMAGE, headers: { 'content-type': 'image/jpeg' } });
  const app = await api({ MAP_API_KEY: 'key-one, key-two' });
  const random = t.mock.method(Math, 'random', () => 0);
  await call(app, `/api/map?${OK_QUERY}`);
  random.mock.mockImplementation(() => 0.99);
  // Another place: the map of the first is kept, whatever key asked.
  await call(app, `/api/map?${OK_QUERY.replace('latitude=52.52', 'latitude=48.85')}`);
  assert.deepEqual(
    fake.requestsTo(HOST, PATH).map((r) => r.query.get('key')),
    ['key-one', 'key-two'],
  );
  await app.close();
});

test('without MAP_API_KEY the answer is 500 API key is missing, uncached, with no upstream call', async () => {
  const app = await api({});
  const res = await call(app, `/api/map?${OK_QUERY}`);
  assertErrorAnswer(res, 500, 'API key is missing');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('invalid or missing parameters get their own 400 as JSON, uncached', async () => {
  const app = await api();
  const cases: Array<[string, string]> = [
    ['longitude=13&language=de', 'No latitude provided'],
    ['latitude=52&language=de', 'No longitude provided'],
    ['latitude=52&longitude=13', 'No language provided'],
    ['latitude=90.5&longitude=13&language=de', 'Invalid latitude'],
    ['latitude=1e1&longitude=13&language=de', 'Invalid latitude'],
    ['latitude=abc&longitude=13&language=de', 'Invalid latitude'],
    ['latitude=52&longitude=-180.01&language=de', 'Invalid longitude'],
    ['latitude=52&longitude=Infinity&language=de', 'Invalid longitude'],
    ['latitude=52&longitude=13&language=deu', 'Invalid language'],
    ['latitude=52&longitude=13&language=d1', 'Invalid language'],
  ];
  for (const [query, error] of cases) {
    const res = await call(app, `/api/map?${query}`);
    assertErrorAnswer(res, 400, error, query);
    assert.match(String(res.headers['content-type']), /^application\/json/);
  }
  const edges = await call(app, '/api/map?latitude=-90&longitude=180&language=en');
  assert.notEqual(edges.statusCode, 400);
  assert.equal(fake.requestsTo(HOST).length, 1);
  await app.close();
});

test('parameters cannot inject upstream parameters or a host', async () => {
  const app = await api();
  for (const query of [
    'latitude=52%26key%3Dmine&longitude=13&language=de',
    'latitude=52&longitude=13%40evil.example&language=de',
    'latitude=52&longitude=13&language=de%2F..',
  ]) {
    const res = await call(app, `/api/map?${query}`);
    assert.equal(res.statusCode, 400, query);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('an upstream error status becomes a 502 JSON answer, uncached', async () => {
  fake.on('GET', HOST, PATH, {
    status: 403,
    body: Buffer.alloc(256 * 1024, 1),
    headers: { 'content-type': 'text/html' },
  });
  const app = await api();
  const res = await call(app, `/api/map?${OK_QUERY}`);
  assertErrorAnswer(res, 502, 'Upstream error');
  await app.close();
});

test('an unreachable map server is a 502 JSON answer, uncached', async () => {
  const app = (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin(), MAP_API_KEY: 'map-key' })).app;
  const res = await call(app, `/api/map?${OK_QUERY}`);
  assertErrorAnswer(res, 502, 'Upstream fetch failed');
  await app.close();
});

test('an endless image is cut off at the cap: an upstream error, no bytes of it sent, never cached', async () => {
  let sent = 0;
  fake.on('GET', HOST, PATH, (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  const app = await api();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const res = await request(`http://127.0.0.1:${port}/api/map?${OK_QUERY}`, { headers: REFERER });
  assert.equal(res.statusCode, 502);
  assert.deepEqual(await res.body.json(), { error: 'Upstream error' });
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.ok(sent < 16 * 1024 * 1024, `the upstream was cut off after ${sent} bytes`);
  await app.close();
});
