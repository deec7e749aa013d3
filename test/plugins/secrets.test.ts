import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { FakeUpstream, closedOrigin, type Recorded } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { exampleRequests } from '../support/example-requests.js';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';
import { SecretScrubber, secretValues } from '../../lib/secrets.js';
import { loadConfig } from '../../fastify.config.js';

// A distinctive value for every credential setting; a comma list where the setting takes one.
const SECRETS = {
  GEO_KEYED_A_API_KEY: 'sekritGeoA111,sekritGeoA222',
  GEO_KEYED_B_API_KEY: 'sekritGeoB333',
  GEO_KEYED_C_API_KEY: 'sekritGeoC444',
  MAP_API_KEY: 'sekritMap555',
  MAC_LOOKUP_API_KEY: 'sekritMac666',
  PRIVATE_API_KEY: 'sekrit/Private+777',
  RADAR_API_KEY: 'sekritRadar888',
  KV_ACCOUNT_ID: '0123456789abcdef0123456789abcdef',
  KV_NAMESPACE_ID: 'fedcba9876543210fedcba9876543210',
  GEODB_ACCOUNT_ID: '424242',
  GEODB_LICENSE_KEY: 'sekritLicence999',
  REDIS_URL: 'redis://:sekritRedisPass@127.0.0.1:9',
  REPORT_REDIS_URL: 'redis://:sekritReportRedis01@127.0.0.1:9/2',
};
const DSN = 'https://sekritDsnKey0001@o0.ingest.sentry.io/12345';
const RAW = [
  ...Object.values(SECRETS)
    .flatMap((v) => v.split(','))
    .filter((v) => !v.startsWith('redis') && v !== '424242'),
  'sekritRedisPass',
  'sekritReportRedis01',
  'sekritDsnKey0001',
];
// Every example request; the telemetry envelope names the secret DSN instead of the demo's.
const REQUESTS = exampleRequests().map((r) =>
  typeof r.payload === 'string' ? { ...r, payload: r.payload.replaceAll(EXAMPLE_TELEMETRY_DSN, DSN) } : r,
);
const FORMS = [...RAW, ...RAW.map(encodeURIComponent), Buffer.from('424242:sekritLicence999').toString('base64')];

/** An upstream that echoes everything it was sent: URL, headers and body, in the shape `shape` gives. */
function echo(shape: 'json-error' | 'json-ok' | 'text-error') {
  return (req: Recorded, res: ServerResponse) => {
    const text = `${req.method} https://${req.host}${req.path}?${req.query} ${JSON.stringify(req.headers)} ${req.body.toString('utf8')}`;
    if (shape === 'text-error') {
      return void res.writeHead(500, { 'content-type': 'text/plain' }).end(`proxy error for ${text}`);
    }
    const fields = Object.fromEntries(
      [
        'error',
        'message',
        'detail',
        'city',
        'region',
        'country_name',
        'org',
        'isp',
        'as',
        'company',
        'address',
        'name',
      ].map((k) => [k, text]),
    );
    res
      .writeHead(shape === 'json-ok' ? 200 : 403, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...fields, success: true, result: fields, data: fields }));
  };
}

let fake: FakeUpstream;
let closed: string;
before(async () => {
  fake = await FakeUpstream.start();
  closed = await closedOrigin();
});
after(() => fake.close());

for (const shape of ['json-error', 'json-ok', 'text-error'] as const) {
  test(`no secret reaches an answer or a log line when every upstream echoes our request (${shape})`, async () => {
    fake.reset();
    fake.on('*', '*', /./, echo(shape));
    const { app, logs } = await buildTestApi({
      ...SECRETS,
      TELEMETRY_DSN_FRONTEND: DSN,
      PRIVATE_API_ENDPOINT: 'https://private-api.example',
      UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
      DNS_OVERRIDE_SERVER: new URL(closed).host,
      WHOIS_OVERRIDE_SERVER: new URL(closed).host,
    });
    try {
      const leaks: string[] = [];
      for (const request of REQUESTS) {
        const res = await call(app, request);
        const seen = `${res.body} ${JSON.stringify(res.headers)}`;
        for (const secret of FORMS) {
          if (seen.includes(secret)) leaks.push(`${request.url} (${res.statusCode}) answered ${secret}`);
        }
      }
      assert.ok(
        fake.requests.some((r) => r.query.toString().includes('sekritGeoB333')),
        'the keys did go to the upstreams',
      );
      assert.deepEqual(leaks, []);
      const logText = logs.text;
      assert.deepEqual(
        FORMS.filter((secret) => logText.includes(secret)),
        [],
        'no secret in a log line',
      );
    } finally {
      await app.close();
    }
  });
}

test('the scrubber knows every credential setting, each list entry, the encoded and Basic forms, and leaves short values alone', () => {
  const values = secretValues(loadConfig({ ...SECRETS, TELEMETRY_DSN_FRONTEND: DSN, MAC_LOOKUP_API_KEY: 'abc' }));
  for (const form of FORMS.filter((f) => !f.includes('Mac'))) assert.ok(values.includes(form), form);
  assert.ok(!values.includes('abc'), 'a value this short is not taken for a secret');
  const scrubber = new SecretScrubber(values);
  assert.equal(
    scrubber.scrub('GET /?token=sekritGeoA222&k=sekrit%2FPrivate%2B777'),
    'GET /?token=[redacted]&k=[redacted]',
  );
  assert.equal(new SecretScrubber([]).scrub('sekritGeoA222'), 'sekritGeoA222');
});
