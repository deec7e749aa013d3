import { PROVIDERS } from '../../../routes/service-status/providers.js';
import { EXAMPLE_REPORT, EXAMPLE_REPORT_ID } from '../../../routes/report/examples.js';
import { FakeKv } from '../fake-kv.js';
import { fixture, type FakeUpstream } from '../fake-upstream.js';

/** Settings that point report sharing at the fake store below (demo and benchmark). */
export const FAKE_KV_ENV = {
  RADAR_API_KEY: 'fake-radar-token',
  KV_ACCOUNT_ID: '023e105f4ecef8ad9ca31a8372d0c353',
  KV_NAMESPACE_ID: '0f2ac74b498b48028cb68387c421e279',
};

/** A report after a full run of the page: every section, tail-masked addresses, nullable fields both ways. */
export const FULL_REPORT = {
  v: 1,
  generatedAt: '2026-11-24T12:40:00.000Z',
  origin: 'ipcheck.ing',
  locale: 'de',
  sections: {
    ipinfo: {
      testedAt: '2026-11-24T12:29:41.000Z',
      cards: [
        {
          source: 'IPCheck.ing IPv4',
          ip: '203.0.113.x',
          countryCode: 'DE',
          region: 'Hessen',
          city: 'Frankfurt am Main',
          timezone: 'Europe/Berlin',
          asn: 'AS3320',
          isp: 'Deutsche Telekom AG',
          isProxy: 'no',
          ipType: 'residential',
          nativeIP: true,
          qualityScore: 92,
          proxyProtocol: 'N/A',
          proxyProvider: 'N/A',
        },
        {
          source: 'IPCheck.ing IPv6',
          ip: '2a01:4f8:c0c:1234:x',
          countryCode: 'de',
          timezone: 'Europe/Berlin',
          asn: 'AS24940',
          isp: 'Hetzner Online GmbH',
          isProxy: 'maybe',
          ipType: 'hosting',
          nativeIP: false,
          qualityScore: 41.5,
        },
        {
          source: 'MaxMind',
          ip: '8.8.8.8',
          countryCode: 'US',
          region: 'California',
          city: 'Mountain View',
          asn: 'AS15169',
          isp: 'Google LLC',
        },
      ],
    },
    connectivity: {
      testedAt: '2026-11-24T12:30:02.000Z',
      targets: [
        { id: 'google', name: 'Google', status: 'ok', timeMs: 23, minTimeMs: 19 },
        { id: 'github', name: 'GitHub', status: 'timeout' },
        { id: 'custom-1', name: 'intranet.example', status: 'unreachable', custom: true },
      ],
    },
    webrtc: {
      testedAt: '2026-11-24T12:30:05.000Z',
      servers: [
        {
          id: 'google',
          url: 'stun:stun.l.google.com:19302',
          ip: '203.0.113.x',
          natType: 'srflx',
          countryCode: 'DE',
          org: 'Deutsche Telekom AG',
        },
        { id: 'cloudflare', url: 'stun:stun.cloudflare.com:3478', natType: 'unavailable' },
      ],
    },
    dnsleak: {
      testedAt: '2026-11-24T12:30:09.000Z',
      providers: [{ id: 'dnsleak-1', name: 'Endpoint 1', ip: '172.253.226.33', countryCode: 'US', org: 'Google LLC' }],
    },
    speedtest: {
      testedAt: '2026-11-24T12:31:30.000Z',
      downloadMbps: 412.7,
      uploadMbps: null,
      latencyMs: 11.2,
      jitterMs: 1.4,
      scores: { streaming: 92, gaming: 80, rtc: 85 },
      qualities: { streaming: 'great', gaming: 'good', rtc: 'good' },
      connection: { ip: '203.0.113.x', colo: 'FRA', coloCountryCode: 'DE', coloCity: 'Frankfurt' },
    },
    pingtest: {
      testedAt: '2026-11-24T12:32:10.000Z',
      target: 'example.com',
      probes: [
        { countryCode: 'JP', stats: { min: 231.2, max: 240.9, avg: 234.1, loss: 0, total: 3, rcv: 3, drop: 0 } },
      ],
    },
    mtrtest: {
      testedAt: '2026-11-24T12:33:00.000Z',
      target: '1.1.1.1',
      probes: [
        {
          countryCode: 'DE',
          city: 'Frankfurt',
          network: 'Hetzner Online GmbH',
          asn: 24940,
          hops: [
            {
              n: 1,
              asn: null,
              host: '_gateway',
              ip: '10.0.0.1',
              lossPct: 0,
              drop: 0,
              rcv: 3,
              sntCount: 3,
              lastMs: 0.4,
              avgMs: 0.5,
              bestMs: 0.3,
              worstMs: 0.7,
              stdevMs: 0.1,
              javgMs: 0.2,
            },
            { n: 2, asn: 13335, host: 'one.one.one.one', ip: '1.1.1.1', lossPct: 0, avgMs: 1.9 },
          ],
        },
      ],
    },
    ruletest: {
      testedAt: '2026-11-24T12:33:40.000Z',
      uniqueIPCount: 2,
      workers: [{ id: 1, ip: '203.0.113.x', countryCode: 'DE', org: 'Deutsche Telekom AG' }, { id: 2 }],
    },
    browserinfo: {
      testedAt: '2026-11-24T12:29:40.000Z',
      browser: { name: 'Chrome', version: '131.0.0.0' },
      os: { name: 'Linux' },
      engine: { name: 'Blink', version: '131.0.0.0' },
      timezone: 'Europe/Berlin',
      languages: ['de-DE', 'en'],
      display: { width: 2560, height: 1440, pixelRatio: 1.5 },
      connection: null,
    },
    invisibility: {
      testedAt: '2026-11-24T12:34:20.000Z',
      ip: '203.0.113.x',
      scores: { proxy: 0, vpn: 12.5 },
      flags: [
        { key: 'timezone', flagged: false },
        { key: 'datacenter', flagged: true },
      ],
    },
    enhanceddnsleak: {
      testedAt: '2026-11-24T12:35:00.000Z',
      rawCount: 24,
      resolverCount: 2,
      dnssec: 'partial',
      queries: [
        {
          ip: '172.253.226.33',
          countryCode: 'US',
          asn: 'AS15169',
          org: 'Google LLC',
          transport: 'udp',
          ecs: '203.0.113.0/24',
          do: true,
          cd: false,
        },
      ],
    },
    persona: {
      testedAt: '2026-11-24T12:36:00.000Z',
      country: 'DE',
      grade: 'B',
      score: 78,
      counts: { total: 12, scored: 10, match: 8, mismatch: 1, unnatural: 1, leak: 0, unknown: 1, notApplicable: 1 },
      results: [
        { id: 'timezone', axis: 'match', verdict: 'match' },
        { id: 'webrtc-ip', axis: 'leak', verdict: 'not-applicable' },
      ],
    },
    ipv6readiness: {
      testedAt: '2026-11-24T12:37:00.000Z',
      tests: [
        { id: 'v4', state: 'ok', ms: 41, family: 'IPv4' },
        { id: 'v6', state: 'ok', ms: 38, family: 'IPv6' },
        { id: 'dual', state: 'ok', ms: 30, family: 'IPv6' },
        { id: 'fallback', state: 'ok', ms: 2400, family: 'IPv4' },
        { id: 'literal', state: 'not-run' },
        { id: 'v4-large', state: 'ok', ms: 210, family: 'IPv4' },
        { id: 'v6-large', state: 'failed', reason: 'timeout' },
        { id: 'v6-dns', state: 'failed', reason: 'unreachable' },
      ],
    },
    nattest: {
      testedAt: '2026-11-24T12:38:00.000Z',
      servers: 3,
      families: [
        { family: 'ipv4', mapping: 'endpoint-independent', agreeing: 4, rounds: 5 },
        { family: 'ipv6', mapping: 'address-or-port-dependent', agreeing: 5, rounds: 5 },
      ],
      carrierGrade: 'possible',
      evidence: [{ kind: 'different-address' }],
    },
  },
};

/**
 * Every provider's status page answers its own Statuspage fixtures
 * (test/fixtures/<host>/): lights of every colour, grouped and flat pages,
 * open and resolved incidents, pages without `shortlink` or `started_at`.
 */
export function registerStatusPages(fake: FakeUpstream): void {
  for (const provider of PROVIDERS) {
    const host = new URL(provider.page).host;
    fake.on('GET', host, '/api/v2/summary.json', { json: fixture(host, 'summary.json') });
    fake.on('GET', host, '/api/v2/incidents.json', { json: fixture(host, 'incidents.json') });
  }
}

/**
 * The key-value store for FAKE_KV_ENV, holding the example report under
 * EXAMPLE_REPORT_ID for a year; a capacity keeps a long benchmark's writes bounded.
 */
export function registerFakeKv(fake: FakeUpstream): FakeKv {
  const kv = new FakeKv(fake, {
    accountId: FAKE_KV_ENV.KV_ACCOUNT_ID,
    namespaceId: FAKE_KV_ENV.KV_NAMESPACE_ID,
    token: FAKE_KV_ENV.RADAR_API_KEY,
    capacity: 10_000,
  });
  const year = 365 * 24 * 60 * 60;
  kv.set(
    EXAMPLE_REPORT_ID,
    JSON.stringify({ expiresAt: new Date(Date.now() + year * 1000).toISOString(), report: EXAMPLE_REPORT }),
    year,
  );
  return kv;
}

export function registerPlatformFakeRoutes(fake: FakeUpstream): void {
  registerStatusPages(fake);
  registerFakeKv(fake);
}
