import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { plainHttpOrigins } from '../../web/site-settings.js';
import type { SiteSettings } from '../../contract/site-settings.js';
import { runStartupStep } from '../support/app.js';
import { startFront } from '../support/front-server.js';
import { GEO_DATABASES_STEP } from '../../datasets/geo/service-databases.js';
import { cityDatabase } from '../support/sample-geo-databases.js';
import { dbipAsnDatabase, dbipCityDatabase } from '../support/sample-dbip-databases.js';
import { FakeUpstream } from '../support/fake-upstream.js';
import { DBIP_HOST } from '../support/fake-dbip.js';
import { until } from '../support/until.js';

async function frontWith(env: Record<string, string>) {
  const front = await startFront(env);
  return {
    ...front,
    get: async (path: string) => {
      const res = await request(`${front.origin}${path}`);
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    },
  };
}

test('the front listener serves the public settings the pages read, from the running service', async () => {
  for (const [value, cloudflare] of [
    ['false', false],
    ['true', true],
  ] as const) {
    const front = await frontWith({ SPEEDTEST_CLOUDFLARE: value });
    try {
      const res = await front.get('/site-settings.json');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(JSON.parse(res.text), {
        addresses: { ipv4Origin: null, ipv6Origin: null },
        ipv6Readiness: { literalOrigin: null, fallbackOrigin: null, dnsOrigin: null },
        watch: { ttlDays: 30, maxEntries: 50 },
        ruleTest: { origins: [] },
        signIn: null,
        speedTest: { cloudflare, maxDownloadBytes: 100_000_000, maxUploadBytes: 50_000_000 },
        telemetry: null,
        webrtc: {
          stunServers: [
            'stun:stun.l.google.com:19302',
            'stun:stun.voip.blackberry.com:3478',
            'stun:global.stun.twilio.com:3478',
            'stun:stun.cloudflare.com:3478',
          ],
        },
        globalping: { apiBase: 'https://api.globalping.io' },
        geoDatabase: null,
        connectivity: { targets: [] },
        dnsLeak: {
          providers: [
            { id: 'ipapi', url: null },
            { id: 'surfshark', url: null },
            { id: 'ipleak', url: null },
            { id: 'fastly', url: null },
          ],
        },
        geoLocal: { provider: 'maxmind', missing: 'noAccount', retry: 'nextStart' },
        repository: '',
        source: { url: null, licence: 'MIT' },
        privateTools: { leakZone: 'leak.ipcheck.ing', invisibilityScript: null },
      });
    } finally {
      await front.close();
    }
  }
});

test('the repository the star count is read from is named for the footer, and is the source unless SOURCE_CODE_URL says', async () => {
  const front = await frontWith({ REPO_STARS_REPOSITORY: 'netdiag/netdiag' });
  try {
    const settings = JSON.parse((await front.get('/site-settings.json')).text) as SiteSettings;
    assert.equal(settings.repository, 'netdiag/netdiag');
    assert.deepEqual(settings.source, { url: 'https://github.com/netdiag/netdiag', licence: 'MIT' });
  } finally {
    await front.close();
  }
  const own = await frontWith({
    REPO_STARS_REPOSITORY: 'netdiag/netdiag',
    SOURCE_CODE_URL: 'https://git.example.org/n',
  });
  try {
    const settings = JSON.parse((await own.get('/site-settings.json')).text) as SiteSettings;
    assert.deepEqual(settings.source, { url: 'https://git.example.org/n', licence: 'MIT' });
  } finally {
    await own.close();
  }
});

test('GLOBALPING_API_BASE reaches the pages without its trailing slash, and a plain-HTTP one is allowed by the CSP', async () => {
  const front = await frontWith({ GLOBALPING_API_BASE: 'http://globalping.internal:8080/' });
  try {
    const res = await front.get('/site-settings.json');
    assert.deepEqual(JSON.parse(res.text).globalping, { apiBase: 'http://globalping.internal:8080' });
    const policy = String((await front.get('/')).headers['content-security-policy']);
    assert.match(policy, /(^|; )connect-src 'self' https: http:\/\/globalping\.internal:8080(;|$)/);
  } finally {
    await front.close();
  }
});

test('the WebRTC leak test asks the STUN servers WEBRTC_STUN_SERVERS names, in its order', async () => {
  const front = await frontWith({ WEBRTC_STUN_SERVERS: 'stun:stun.example.net, stun:[2001:db8::1]:3479' });
  try {
    const settings = JSON.parse((await front.get('/site-settings.json')).text) as SiteSettings;
    assert.deepEqual(settings.webrtc, { stunServers: ['stun:stun.example.net', 'stun:[2001:db8::1]:3479'] });
  } finally {
    await front.close();
  }
});

test("the connectivity test's first list and the DNS leak test's providers come from their settings, and their plain-HTTP stand-ins are allowed by the CSP", async () => {
  const front = await frontWith({
    CONNECTIVITY_TARGETS: 'Google=http://google.sites.localhost:18979/favicon.ico,My intranet=https://intra.example/',
    DNS_LEAK_PROVIDERS: 'fastly,ipapi=http://*.ipapi.localhost:18980/json,fastly=https://*.other.example/',
  });
  try {
    const settings = JSON.parse((await front.get('/site-settings.json')).text) as SiteSettings;
    assert.deepEqual(settings.connectivity.targets, [
      { name: 'Google', url: 'http://google.sites.localhost:18979/favicon.ico' },
      { name: 'My intranet', url: 'https://intra.example/' },
    ]);
    // In the setting's order, each provider once: its first mention wins.
    assert.deepEqual(settings.dnsLeak.providers, [
      { id: 'fastly', url: null },
      { id: 'ipapi', url: 'http://*.ipapi.localhost:18980/json' },
    ]);
    const policy = String((await front.get('/')).headers['content-security-policy']);
    const connect = /(?:^|; )connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    assert.ok(connect.includes('http://google.sites.localhost:18979'), policy);
    assert.ok(connect.includes('http://*.ipapi.localhost:18980'), policy);
  } finally {
    await front.close();
  }
});

test('the proxy-detection script reaches the pages with its key, and only its origin joins script-src', async () => {
  const front = await frontWith({
    INVISIBILITY_TEST_KEY: 'pd-key_1',
    INVISIBILITY_SCRIPT_ORIGIN: 'https://detect.example',
    DNS_LEAK_ZONE: 'leak.netdiag.example',
  });
  try {
    const res = await front.get('/site-settings.json');
    assert.deepEqual(JSON.parse(res.text).privateTools, {
      leakZone: 'leak.netdiag.example',
      invisibilityScript: 'https://detect.example/?pdKey=pd-key_1',
    });
    const policy = String((await front.get('/')).headers['content-security-policy']);
    assert.match(policy, /(^|; )script-src 'self' https:\/\/detect\.example(;|$)/);
    assert.match(policy, /(^|; )connect-src 'self' https:(;|$)/);
  } finally {
    await front.close();
  }
});

test('sign-in reaches the page as the provider, the public client and the scopes, never more', async () => {
  const front = await frontWith({
    OIDC_ISSUER: 'https://id.netdiag.example/realms/site',
    OIDC_CLIENT_ID: 'netdiag-site',
    OIDC_SCOPES: 'openid profile offline_access',
    PRIVATE_API_KEY: 'private-key-never-public',
    PRIVATE_API_ENDPOINT: 'https://private.netdiag.example',
  });
  try {
    const res = await front.get('/site-settings.json');
    assert.deepEqual(JSON.parse(res.text).signIn, {
      issuer: 'https://id.netdiag.example/realms/site',
      clientId: 'netdiag-site',
      scopes: 'openid profile offline_access',
    });
    assert.doesNotMatch(res.text, /private-key-never-public|private\.netdiag\.example/);
  } finally {
    await front.close();
  }
});

test('the site may connect to any HTTPS origin and to the plain-HTTP origins the settings name, and nothing else', async () => {
  const front = await frontWith({});
  try {
    const policy = String((await front.get('/')).headers['content-security-policy']);
    assert.match(policy, /(^|; )connect-src 'self' https:(;|$)/);
    assert.match(policy, /(^|; )script-src 'self'(;|$)/);
  } finally {
    await front.close();
  }
  const v4Only = await frontWith({
    IPV4_ONLY_ORIGIN: 'http://ipv4-only.localhost:8080',
    IPV6_ONLY_ORIGIN: 'https://ipv6.netdiag.example',
    RULE_TEST_ORIGINS: 'https://rule-1.netdiag.example,http://rule-2.localhost:9090',
  });
  try {
    const policy = String((await v4Only.get('/')).headers['content-security-policy']);
    assert.match(
      policy,
      /(^|; )connect-src 'self' https: http:\/\/ipv4-only\.localhost:8080 http:\/\/rule-2\.localhost:9090(;|$)/,
    );
    assert.deepEqual(JSON.parse((await v4Only.get('/site-settings.json')).text).ruleTest, {
      origins: ['https://rule-1.netdiag.example', 'http://rule-2.localhost:9090'],
    });
    assert.deepEqual(JSON.parse((await v4Only.get('/site-settings.json')).text).addresses, {
      ipv4Origin: 'http://ipv4-only.localhost:8080',
      ipv6Origin: 'https://ipv6.netdiag.example',
    });
  } finally {
    await v4Only.close();
  }
  const signIn = await frontWith({ OIDC_ISSUER: 'http://localhost:4000', OIDC_CLIENT_ID: 'netdiag-site' });
  try {
    const policy = String((await signIn.get('/')).headers['content-security-policy']);
    assert.match(policy, /(^|; )connect-src 'self' https: http:\/\/localhost:4000(;|$)/);
  } finally {
    await signIn.close();
  }
  const named = {
    speedTest: { cloudflare: false },
    globalping: { apiBase: 'https://api.globalping.io' },
    extra: ['http://v4.example:8080/x', 'https://secure.example'],
  };
  assert.deepEqual(plainHttpOrigins(named as unknown as SiteSettings), ['http://v4.example:8080']);
});

test('the site is told the telemetry DSN only when the tunnel relays it, and never connects to its host', async () => {
  for (const [dsn, expected] of [
    ['', null],
    ['not a dsn', null],
    ['http://publickey@ingest.example:9000/42', { dsn: 'http://publickey@ingest.example:9000/42' }],
  ] as const) {
    const front = await frontWith(dsn ? { TELEMETRY_DSN_FRONTEND: dsn } : {});
    try {
      assert.deepEqual(JSON.parse((await front.get('/site-settings.json')).text).telemetry, expected);
      const policy = String((await front.get('/')).headers['content-security-policy']);
      assert.match(policy, /(^|; )connect-src 'self' https:(;|$)/);
    } finally {
      await front.close();
    }
  }
});

test("the settings name whose geo database is loaded, for its licence's credit, and follow a replacement while running", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-settings-geo-'));
  const geo = join(dataDir, 'geo');
  await mkdir(geo);
  await writeFile(join(geo, 'dbip-city-lite.mmdb'), dbipCityDatabase());
  await writeFile(join(geo, 'dbip-asn-lite.mmdb'), dbipAsnDatabase());
  const front = await frontWith({ DATA_DIR: dataDir, GEODB_PROVIDER: 'dbip' });
  const geoDatabase = async () =>
    (JSON.parse((await front.get('/site-settings.json')).text) as SiteSettings).geoDatabase;
  try {
    assert.equal(await geoDatabase(), null, 'nothing loaded yet');
    await runStartupStep(front.api, GEO_DATABASES_STEP);
    assert.equal(await geoDatabase(), 'dbip');
    assert.deepEqual(JSON.parse((await front.get('/site-settings.json')).text).geoLocal, {
      provider: 'dbip',
      missing: null,
      retry: 'nextStart',
    });

    // A GeoLite2 file put in place by hand under DB-IP's name is credited to MaxMind once reloaded.
    await writeFile(join(geo, 'incoming.tmp'), cityDatabase());
    await rename(join(geo, 'incoming.tmp'), join(geo, 'dbip-city-lite.mmdb'));
    await runStartupStep(front.api, GEO_DATABASES_STEP);
    assert.equal(await geoDatabase(), 'maxmind');
  } finally {
    await front.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('while no city database is loaded, the settings say a download is under way during start-up, and when a failed one is tried again', async () => {
  const fake = await FakeUpstream.start();
  // DB-IP's download never answers: the start-up step stays on it.
  fake.on('*', DBIP_HOST, /^\//, { hang: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'site-settings-geo-'));
  const front = await frontWith({
    DATA_DIR: dataDir,
    GEODB_PROVIDER: 'dbip',
    GEODB_AUTO_UPDATE: 'true',
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
  });
  const geoLocal = async () => (JSON.parse((await front.get('/site-settings.json')).text) as SiteSettings).geoLocal;
  const booting = front.api.lifecycle.boot();
  try {
    await until(async () => (await geoLocal()).missing === 'loading', 30_000, 'the settings to say loading');
    assert.deepEqual(await geoLocal(), { provider: 'dbip', missing: 'loading', retry: 'daily' });
  } finally {
    // Closing abandons the download; start-up then ends, its temporary folder removed.
    await front.close();
    await booting;
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
