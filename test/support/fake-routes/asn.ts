import type { FakeUpstream, Handler } from '../fake-upstream.js';
import { fixture, fixtureBytes } from '../fake-upstream.js';

const RADAR = 'api.cloudflare.com';
const RIPE = 'stat.ripe.net';
const CAIDA = 'publicdata.caida.org';
const R = '/client/v4/radar';

/** Answers `https://host/path` with `files[query parameter]`, or with `files.default`. */
function byQuery(host: string, param: string, files: Record<string, string> & { default: string }): Handler {
  return (req, res) => {
    const file = files[req.query.get(param) ?? ''] ?? files.default;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fixture(host, file)));
  };
}

/** Cloudflare Radar answers for every view: AS15169's entity for AS15169, AS13335's example answers for any other ASN. */
export function registerRadarFakeRoutes(fake: FakeUpstream): void {
  const json = (name: string) => ({ json: fixture(RADAR, `radar-${name}`) });
  fake.on('GET', RADAR, /^\/client\/v4\/radar\/entities\/asns\/\d+$/, json('entities-asns-13335.json'));
  fake.on('GET', RADAR, `${R}/entities/asns/15169`, json('entities-asns-15169.json'));
  fake.on('GET', RADAR, /^\/client\/v4\/radar\/entities\/asns\/\d+\/rel$/, json('entities-asns-13335-rel.json'));
  for (const dimension of ['ip_version', 'http_protocol', 'device_type', 'bot_class']) {
    fake.on('GET', RADAR, `${R}/http/summary/${dimension}`, json(`http-summary-${dimension}.json`));
  }
  fake.on('GET', RADAR, `${R}/bgp/routes/stats`, json('bgp-routes-stats.json'));
  fake.on('GET', RADAR, `${R}/quality/speed/summary`, json('quality-speed-summary.json'));
  fake.on('GET', RADAR, `${R}/annotations/outages`, json('annotations-outages.json'));
  fake.on('GET', RADAR, `${R}/traffic_anomalies`, json('traffic-anomalies.json'));
  fake.on('GET', RADAR, `${R}/http/timeseries`, json('http-timeseries-DE.json'));
}

/** RIPEstat routing-history (8.8.8.0/24's history, or 193.0.0.0/21's for any other prefix) and as-overview (AS3333's, or AS200000's for any other AS). */
export function registerRipeStatFakeRoutes(fake: FakeUpstream): void {
  fake.on(
    'GET',
    RIPE,
    '/data/routing-history/data.json',
    byQuery(RIPE, 'resource', {
      '8.8.8.0/24': 'routing-history-8.8.8.0_24.json',
      default: 'routing-history-193.0.0.0_21.json',
    }),
  );
  fake.on(
    'GET',
    RIPE,
    '/data/as-overview/data.json',
    byQuery(RIPE, 'resource', { AS3333: 'as-overview-AS3333.json', default: 'as-overview-AS200000.json' }),
  );
}

/** CAIDA listing pages and the 20261101 snapshots they name. */
export function registerCaidaFakeRoutes(fake: FakeUpstream): void {
  fake.on('GET', CAIDA, '/datasets/as-relationships/serial-2/', {
    body: fixture(CAIDA, 'as-relationships-serial-2.html') as string,
    headers: { 'content-type': 'text/html' },
  });
  fake.on('GET', CAIDA, '/datasets/as-relationships/serial-2/20261101.as-rel2.txt.bz2', {
    body: fixtureBytes(CAIDA, '20261101.as-rel2.txt.bz2'),
  });
  fake.on('GET', CAIDA, '/datasets/as-organizations/', {
    body: fixture(CAIDA, 'as-organizations.html') as string,
    headers: { 'content-type': 'text/html' },
  });
  fake.on('GET', CAIDA, '/datasets/as-organizations/20261101.as-org2info.txt.gz', {
    body: fixtureBytes(CAIDA, '20261101.as-org2info.txt.gz'),
  });
}

export function registerAsnFakeRoutes(fake: FakeUpstream): void {
  registerRadarFakeRoutes(fake);
  registerRipeStatFakeRoutes(fake);
  registerCaidaFakeRoutes(fake);
}
