import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { JsonAnswer } from '../../web/command-line/schemas.js';
import { INDEX_HTML, startFront, type Front } from './front.js';

// What the tools send: curl, Wget and HTTPie with `Accept: */*`, PowerShell's Invoke-WebRequest with none.
const CURL = { 'user-agent': 'curl/8.5.0', accept: '*/*' };
const TOOLS = [
  CURL,
  { 'user-agent': 'Wget/1.21.3', accept: '*/*' },
  { 'user-agent': 'HTTPie/3.2.2', accept: '*/*' },
  { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.22631; en-GB) PowerShell/7.4.1' },
];
const JSON_CLIENT = { accept: 'application/json' };
const NAVIGATION = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};
// One trusted hop: a reverse proxy names the visitor in X-Forwarded-For, as the API reads it.
const FROM_GOOGLE = { 'x-forwarded-for': '8.8.8.8' };

// Each path's one line for 8.8.8.8 in the sample databases.
const LINES: ReadonlyArray<[path: string, line: string]> = [
  ['/', '8.8.8.8'],
  ['/ip', '8.8.8.8'],
  ['/country', 'United States'],
  ['/country-iso', 'US'],
  ['/city', 'Mountain View'],
  ['/asn', 'AS15169'],
  ['/asn-org', 'GOOGLE'],
];
const PATHS = [...LINES.map(([path]) => path), '/json'];

const MOUNTAIN_VIEW = {
  ip: '8.8.8.8',
  ip_decimal: 134744072,
  country: 'United States',
  country_iso: 'US',
  country_eu: false,
  region_name: 'California',
  region_code: 'CA',
  city: 'Mountain View',
  latitude: 37.4223,
  longitude: -122.085,
  time_zone: 'America/Los_Angeles',
  asn: 'AS15169',
  asn_org: 'GOOGLE',
};

let front: Front;
before(async () => {
  front = await startFront();
});
after(() => front.close());

function assertPerCaller(res: { headers: Record<string, unknown> }, label: string) {
  assert.equal(res.headers['cache-control'], 'no-store', label);
  assert.equal(res.headers.vary, 'User-Agent, Accept', label);
}

test("curl's User-Agent: each path prints its one line of the caller's record, never cached", async () => {
  for (const [path, line] of LINES) {
    const res = await front.get(path, { ...CURL, ...FROM_GOOGLE });
    assert.equal(res.status, 200, path);
    assert.equal(res.text, `${line}\n`, path);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8', path);
    assertPerCaller(res, path);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', `${path}: the front listener's headers`);
  }
  const json = await front.get('/json', { ...CURL, ...FROM_GOOGLE });
  assert.equal(json.status, 200);
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
  assertPerCaller(json, '/json');
  assert.deepEqual(JSON.parse(json.text), {
    ...MOUNTAIN_VIEW,
    user_agent: { product: 'curl', version: '8.5.0', raw_value: 'curl/8.5.0' },
  });
});

test("without a proxy's X-Forwarded-For the caller is the socket's peer, as the API finds it", async () => {
  assert.equal((await front.get('/', CURL)).text, '127.0.0.1\n');
  const json = JSON.parse((await front.get('/json', CURL)).text);
  assert.deepEqual(Object.keys(json), ['ip', 'ip_decimal', 'user_agent'], 'loopback has no record');
  assert.equal(json.ip_decimal, 2130706433);
});

test('Wget, HTTPie and PowerShell are command-line clients too', async () => {
  for (const tool of TOOLS) {
    const res = await front.get('/country', { ...tool, ...FROM_GOOGLE });
    assert.equal(res.text, 'United States\n', tool['user-agent']);
  }
});

test('Accept: application/json: / and /json answer the record as JSON, the one-line paths their line', async () => {
  for (const path of ['/', '/json']) {
    const res = await front.get(path, { ...JSON_CLIENT, ...FROM_GOOGLE });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', path);
    assertPerCaller(res, path);
    const body = JSON.parse(res.text);
    assert.deepEqual(body, MOUNTAIN_VIEW, `${path}: no User-Agent sent, none reported`);
    assert.ok(Value.Check(JsonAnswer, body), `${path}: the declared schema`);
  }
  for (const [path, line] of LINES.slice(1)) {
    const res = await front.get(path, { ...JSON_CLIENT, ...FROM_GOOGLE });
    assert.equal(res.text, `${line}\n`, path);
  }
  const plain = await front.get('/', { accept: 'text/plain', ...FROM_GOOGLE });
  assert.equal(plain.text, '8.8.8.8\n', 'Accept: text/plain is a command-line client');
});

test("a browser's navigation to each path gets the site's index.html", async () => {
  for (const path of PATHS) {
    const res = await front.get(path, { ...NAVIGATION, ...FROM_GOOGLE });
    assert.equal(res.status, 200, path);
    assert.equal(res.text, INDEX_HTML, path);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', path);
    assert.ok(res.headers['content-security-policy'], `${path}: the site's headers`);
  }
  // Accept: text/html settles it, whatever the User-Agent.
  const curlAskingForHtml = await front.get('/ip', { 'user-agent': 'curl/8.5.0', accept: 'text/html' });
  assert.equal(curlAskingForHtml.text, INDEX_HTML);
  // A client that names neither a tool nor a text or JSON type is not taken for one.
  assert.equal((await front.get('/ip')).text, INDEX_HTML);
  assert.equal((await front.get('/')).headers['cache-control'], 'no-cache', "/ is still the site's own file");
});

test("a path the face does not serve: a command-line client gets the face's one-line 404, a browser the site", async () => {
  for (const path of ['/no-such-path', '/dns', '/ip/8.8.8.8', '/json/8.8.8.8?ip=8.8.8.8']) {
    for (const tool of TOOLS) {
      const res = await front.get(path, { ...tool, ...FROM_GOOGLE });
      assert.equal(res.status, 404, `${path} ${tool['user-agent']}`);
      assert.equal(res.text, 'Not Found\n', path);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8', path);
      assertPerCaller(res, path);
    }
    const json = await front.get(path, { ...JSON_CLIENT, ...FROM_GOOGLE });
    assert.equal(json.status, 404, path);
    assert.deepEqual(JSON.parse(json.text), { error: 'Not Found' }, path);
    const page = await front.get(path, { ...NAVIGATION, ...FROM_GOOGLE });
    assert.equal(page.status, 200, `${path}: a browser still gets the site`);
    assert.equal(page.text, INDEX_HTML, path);
  }
  const head = await front.get('/no-such-path', CURL, 'HEAD');
  assert.equal(head.status, 404);
  assert.equal(head.text, '');
});

test('HEAD: the headers GET would send, no body', async () => {
  const res = await front.get('/city', { ...CURL, ...FROM_GOOGLE }, 'HEAD');
  assert.equal(res.status, 200);
  assert.equal(res.text, '');
  assert.equal(res.headers['content-length'], String('Mountain View\n'.length));
});

test('?ip=: another public address, IPv4 or IPv6, written canonically', async () => {
  assert.equal((await front.get('/city?ip=193.0.0.1', CURL)).text, 'Amsterdam\n');
  assert.equal((await front.get('/?ip=2a01:4f8:0:0:0:0:0:1', CURL)).text, '2a01:4f8::1\n');
  assert.equal((await front.get('/city?ip=2a01:4f8:c0c:1234::1', CURL)).text, 'Nuremberg\n');
  assert.equal((await front.get('/asn?ip=2a01:4f8:c0c:1234::1', CURL)).text, 'AS24940\n');
  assert.equal((await front.get('/asn-org?ip=2a01:4f8::1', CURL)).text, 'Hetzner Online GmbH\n');
  const json = await front.get('/json?ip=2a01:4f8:c0c:1234::1', CURL);
  // 2a01:4f8:c0c:1234::1 as one 128-bit integer, every digit exact.
  const digits = (BigInt('0x2a0104f80c0c1234') << 64n) + 1n;
  assert.match(json.text, new RegExp(`"ip_decimal": ${digits}\n?,`));
  const body = JSON.parse(json.text);
  assert.equal(body.ip, '2a01:4f8:c0c:1234::1');
  assert.equal(body.country_iso, 'DE');
  assert.equal(body.time_zone, 'Europe/Berlin');
  assert.ok(Value.Check(JsonAnswer, body));
});

test("?ip= refused with the public-IP guard's words: 400, one line, or { error } for JSON", async () => {
  const cases: ReadonlyArray<[query: string, error: string]> = [
    ['ip=10.0.0.1', 'Not a public IP address'],
    ['ip=127.0.0.1', 'Not a public IP address'],
    ['ip=fd00::1', 'Not a public IP address'],
    ['ip=2001:db8::1', 'Not a public IP address'],
    ['ip=8.8.8', 'Invalid IP address'],
    ['ip=not-an-address', 'Invalid IP address'],
    ['ip=8.8.8.8&ip=1.1.1.1', 'Invalid IP address'],
    ['ip=', 'No IP address provided'],
  ];
  for (const [path] of LINES) {
    for (const [query, error] of cases) {
      const label = `${path}?${query}`;
      const text = await front.get(`${path}?${query}`, CURL);
      assert.equal(text.status, 400, label);
      assert.equal(text.headers['content-type'], 'text/plain; charset=utf-8', label);
      assert.equal(text.text, `${error}\n`, label);
      assertPerCaller(text, label);
      const json = await front.get(`${path}?${query}`, JSON_CLIENT);
      assert.equal(json.status, 400, label);
      assert.equal(json.headers['content-type'], 'application/json; charset=utf-8', label);
      assert.deepEqual(JSON.parse(json.text), { error }, label);
    }
  }
  // /json's errors are JSON whoever asks, for a script piping it to a JSON reader.
  for (const [query, error] of cases) {
    const res = await front.get(`/json?${query}`, CURL);
    assert.equal(res.status, 400, query);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', query);
    assert.deepEqual(JSON.parse(res.text), { error }, query);
  }
});

test('an address the databases hold no field for: 404 saying so; /json leaves the field out', async () => {
  // The sample databases place 1.1.1.0/24 by its registered country only, as the real one does.
  assert.equal((await front.get('/country?ip=1.1.1.1', CURL)).text, 'Australia\n');
  const city = await front.get('/city?ip=1.1.1.1', CURL);
  assert.equal(city.status, 404);
  assert.equal(city.text, 'No city known for 1.1.1.1\n');
  const unknown = await front.get('/asn?ip=9.9.9.9', JSON_CLIENT);
  assert.equal(unknown.status, 404);
  assert.deepEqual(JSON.parse(unknown.text), { error: 'No AS number known for 9.9.9.9' });
  const json = JSON.parse((await front.get('/json?ip=1.1.1.1', CURL)).text);
  assert.equal(json.city, undefined);
  assert.equal(json.asn, 'AS13335');
});

test('databases not loaded: the one-line paths answer 503 saying so, / and /json what is known', async () => {
  const bare = await startFront({}, false);
  try {
    for (const path of ['/country', '/country-iso', '/city', '/asn', '/asn-org']) {
      const res = await bare.get(`${path}?ip=8.8.8.8`, CURL);
      assert.equal(res.status, 503, path);
      assert.equal(res.text, 'Geolocation database is not loaded\n', path);
      assertPerCaller(res, path);
    }
    assert.deepEqual(JSON.parse((await bare.get('/asn?ip=8.8.8.8', JSON_CLIENT)).text), {
      error: 'Geolocation database is not loaded',
    });
    assert.equal((await bare.get('/?ip=8.8.8.8', CURL)).text, '8.8.8.8\n');
    const json = await bare.get('/json?ip=8.8.8.8', JSON_CLIENT);
    assert.equal(json.status, 200);
    assert.deepEqual(JSON.parse(json.text), { ip: '8.8.8.8', ip_decimal: 134744072 });
  } finally {
    await bare.close();
  }
});

test('a database that fails as it is read: 500 in fixed words, nothing of the cause, and the listener answers on', async () => {
  for (const env of [{}, { SECURITY_RATE_LIMIT: '1000' }] as Array<Record<string, string>>) {
    const broken = await startFront(env);
    try {
      // Fault injection: the loaded reader's lookups now fail, as a damaged file's would.
      broken.shared.geoDatabases.city!.get = () => {
        throw new Error('corrupt search tree in /var/lib/secret.mmdb');
      };
      const res = await broken.get('/city?ip=8.8.8.8', CURL);
      assert.equal(res.status, 500, JSON.stringify(env));
      assert.equal(res.text, 'Internal server error\n');
      const json = await broken.get('/json?ip=8.8.8.8', CURL);
      assert.equal(json.status, 500);
      assert.deepEqual(JSON.parse(json.text), { error: 'Internal server error' });
      assert.equal((await broken.get('/asn?ip=8.8.8.8', CURL)).text, 'AS15169\n', 'the ASN database still answers');
      assert.equal((await broken.get('/ip?ip=8.8.8.8', CURL)).text, '8.8.8.8\n');
    } finally {
      await broken.close();
    }
  }
});

test('a long User-Agent is reported whole in /json', async () => {
  const agent = `curl/8.5.0 ${'x'.repeat(4000)}`;
  const body = JSON.parse((await front.get('/json?ip=8.8.8.8', { 'user-agent': agent })).text);
  assert.deepEqual(body.user_agent, { product: 'curl', version: '8.5.0', comment: 'x'.repeat(4000), raw_value: agent });
});
