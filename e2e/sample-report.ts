/**
 * A report holding every section the whitelist allows, so `/r/<id>` shows
 * every tool's view at once (npm run screenshots). Its values are ones the
 * demo's fakes would give: a visitor at 8.8.8.8, resolvers in the United
 * States and the Netherlands.
 */
function sampleReport(now: string) {
  const probes = ['US', 'DE', 'JP'];
  return {
    v: 1,
    generatedAt: now,
    origin: 'localhost',
    locale: 'en',
    sections: {
      ipinfo: {
        testedAt: now,
        cards: [
          {
            source: 'IPinfo',
            ip: '8.8.8.8',
            countryCode: 'US',
            region: 'California',
            city: 'Mountain View',
            asn: 'AS15169',
            isp: 'Google LLC',
          },
          {
            source: 'ip-api',
            ip: '8.8.8.8',
            countryCode: 'US',
            region: 'Virginia',
            city: 'Ashburn',
            asn: 'AS15169',
            isp: 'Google LLC',
          },
        ],
      },
      connectivity: {
        testedAt: now,
        targets: [
          { id: 'google', name: 'Google', status: 'ok', timeMs: 38 },
          { id: 'github', name: 'GitHub', status: 'unreachable' },
          { id: 'wechat', name: 'WeChat', status: 'timeout' },
          { id: 'custom-1', name: 'example.org', status: 'ok', timeMs: 412, custom: true },
        ],
      },
      webrtc: {
        testedAt: now,
        servers: [
          {
            id: 'google',
            url: 'stun:stun.l.google.com:19302',
            ip: '8.8.8.8',
            natType: 'srflx',
            countryCode: 'US',
            org: 'GOOGLE',
          },
          { id: 'cloudflare', url: 'stun:stun.cloudflare.com:3478', natType: 'error' },
        ],
      },
      dnsleak: {
        testedAt: now,
        providers: [
          { id: 'ipapi', name: 'ip-api.com', ip: '193.0.0.10', countryCode: 'NL', org: 'RIPE NCC' },
          { id: 'surfshark', name: 'Surfshark', ip: '8.8.8.53', countryCode: 'US', org: 'GOOGLE' },
          { id: 'ipleak', name: 'IPLeak.net' },
        ],
      },
      speedtest: {
        testedAt: now,
        downloadMbps: 94.2,
        uploadMbps: 38.5,
        latencyMs: 12.4,
        jitterMs: 1.8,
        loadedLatencyDownMs: 48.1,
        loadedLatencyUpMs: 35.7,
        qualities: { streaming: 'great', gaming: 'good', rtc: 'average' },
      },
      pingtest: {
        testedAt: now,
        target: 'example.com',
        probes: probes.map((countryCode, i) => ({
          countryCode,
          stats: {
            min: 10 + i * 40,
            max: 14 + i * 40,
            avg: 12 + i * 40,
            loss: i === 2 ? 12.5 : 0,
            total: 8,
            rcv: i === 2 ? 7 : 8,
            drop: i === 2 ? 1 : 0,
          },
        })),
      },
      mtrtest: {
        testedAt: now,
        target: '1.1.1.1',
        probes: [
          {
            countryCode: 'DE',
            city: 'Frankfurt',
            network: 'Hetzner Online GmbH',
            asn: 24940,
            hops: [
              { n: 1, host: '_gateway', ip: '192.168.1.1', lossPct: 0, avgMs: 0.5, bestMs: 0.3, worstMs: 0.9 },
              {
                n: 2,
                asn: 24940,
                host: 'core1.fra.hetzner.com',
                ip: '213.239.245.1',
                lossPct: 0,
                avgMs: 1.9,
                bestMs: 1.5,
                worstMs: 3.1,
              },
              {
                n: 3,
                asn: 13335,
                host: 'one.one.one.one',
                ip: '1.1.1.1',
                lossPct: 0,
                avgMs: 2.4,
                bestMs: 2.1,
                worstMs: 3.3,
              },
            ],
          },
        ],
      },
      ruletest: {
        testedAt: now,
        uniqueIPCount: 2,
        workers: [
          { id: 1, ip: '8.8.8.8', countryCode: 'US', org: 'GOOGLE' },
          { id: 2, ip: '193.0.0.10', countryCode: 'NL', org: 'RIPE NCC' },
        ],
      },
      browserinfo: {
        testedAt: now,
        browser: { name: 'Chrome', version: '131.0' },
        os: { name: 'Linux' },
        engine: { name: 'Blink', version: '131.0' },
        timezone: 'Europe/Paris',
        languages: ['fr-FR', 'en'],
        display: { width: 1280, height: 900, pixelRatio: 1 },
        connection: { effectiveType: '4g', downlink: 10, rtt: 50 },
      },
      invisibility: {
        testedAt: now,
        ip: '8.8.8.8',
        scores: { proxy: 20, vpn: 65 },
        flags: [
          { key: 'headers', flagged: false },
          { key: 'datacenter', flagged: true },
          { key: 'timezone', flagged: true },
        ],
      },
      enhanceddnsleak: {
        testedAt: now,
        rawCount: 12,
        resolverCount: 2,
        dnssec: 'partial',
        queries: [
          { ip: '8.8.8.53', countryCode: 'US', asn: 'AS15169', org: 'GOOGLE', transport: 'udp', do: true },
          { ip: '193.0.0.10', countryCode: 'NL', asn: 'AS3333', org: 'RIPE NCC', transport: 'tcp', ecs: '8.8.8.0/24' },
        ],
      },
      persona: {
        testedAt: now,
        country: 'US',
        grade: 'B',
        score: 78,
        counts: { total: 4, scored: 3, match: 2, mismatch: 1, unnatural: 0, leak: 0, unknown: 1, notApplicable: 0 },
        results: [
          { id: 'ip-country', axis: 'match', verdict: 'match' },
          { id: 'timezone-vs-persona', axis: 'coherence', verdict: 'mismatch' },
          { id: 'webrtc-leak', axis: 'leak', verdict: 'match' },
          { id: 'language-match', axis: 'match', verdict: 'unknown' },
        ],
      },
    },
  };
}

/** Stores the sample report through the site's own API, as its Share button would, and returns its page. */
export async function storeSampleReport(site: string): Promise<string> {
  const response = await fetch(`${site}/api/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', referer: `${site}/` },
    body: JSON.stringify({ report: sampleReport(new Date().toISOString()), ttlDays: 1 }),
  });
  if (response.status !== 201) {
    throw new Error(`the service refused the sample report: ${response.status} ${await response.text()}`);
  }
  const { id } = (await response.json()) as { id: string };
  return `/r/${id}`;
}
