import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

// A stand-in for the probe network's API (GLOBALPING_API_BASE), which the
// latency, traceroute and censorship pages call from the browser: a
// measurement is created (202 with its id) and then read, finished, one probe
// per chosen country. The browser tests build their own answers from the same
// pieces (e2e/globalping.spec.ts).

/** A probe as the network describes it in a result. */
export const probe = (country: string, city: string, network: string, asn: number) => ({
  continent: 'EU',
  country,
  city,
  asn,
  network,
  tags: [],
});

/** A finished ping: its round-trip times in milliseconds and how many of its 8 packets came back. */
export const pingResult = (min: number, avg: number, max: number, rcv = 8) => ({
  status: 'finished',
  rawOutput: 'PING example.com',
  stats: { min, avg, max, total: 8, rcv, drop: 8 - rcv, loss: ((8 - rcv) / 8) * 100 },
});

/** A finished MTR's table, as the network's probes print it: a gateway, a hop, a silent hop, the target. */
export const MTR_OUTPUT = [
  'Host                                          Loss% Drop Rcv   Avg  StDev  Javg',
  ' 1. AS???    _gateway (172.31.1.1)               0.0%    0   3   0.4    0.1   0.1',
  ' 2. AS24940  core21.fsn1.hetzner.com (213.239.229.1)  0.0%    0   3   0.9    0.2   0.2',
  ' 3. (waiting for reply)',
  ' 4. AS13335  one.one.one.one (1.1.1.1)          0.0%    0   3   5.1    0.1   0.1',
].join('\n');

/** A finished HTTP HEAD that reached the site. */
export const HTTP_REACHED = { status: 'finished', rawOutput: 'HTTP/1.1 200 OK', statusCode: 200 };

// Where the demo's probe in each country sits; any other country gets one of its own, named by its code.
const PLACES: Record<string, [city: string, network: string, asn: number]> = {
  DE: ['Frankfurt', 'Hetzner Online GmbH', 24940],
  US: ['Ashburn', 'Amazon.com, Inc.', 14618],
  GB: ['London', 'DigitalOcean, LLC', 14061],
  JP: ['Tokyo', 'Sakura Internet Inc.', 9370],
  SG: ['Singapore', 'Vultr Holdings, LLC', 20473],
  ZA: ['Johannesburg', 'Afrihost (Pty) Ltd', 37611],
  BR: ['São Paulo', 'Locaweb Serviços de Internet S/A', 27715],
  AU: ['Sydney', 'Vocus Group', 4826],
};

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'content-type',
};

interface Asked {
  type: string;
  countries: string[];
}

// The id carries what was asked (`ping-DE-US`, in the alphabet of the network's
// ids), so the stand-in keeps nothing between the two calls.
const idOf = ({ type, countries }: Asked) => [type, ...countries].join('-').slice(0, 64);
function askedIn(id: string): Asked {
  const [type = '', ...countries] = id.split('-');
  return { type, countries };
}

function asked(body: string): Asked | undefined {
  try {
    const { type, locations } = JSON.parse(body) as { type?: unknown; locations?: Array<{ country?: unknown }> };
    if (typeof type !== 'string' || !Array.isArray(locations)) return undefined;
    const countries = locations.flatMap((l) =>
      typeof l.country === 'string' && /^[A-Z]{2}$/.test(l.country) ? [l.country] : [],
    );
    return /^[a-z]+$/.test(type) && countries.length ? { type, countries } : undefined;
  } catch {
    return undefined;
  }
}

function resultFor(type: string, index: number): object {
  if (type === 'mtr') return { status: 'finished', rawOutput: MTR_OUTPUT };
  if (type === 'http') return HTTP_REACHED;
  const base = 4 + index * 21;
  return pingResult(base, base + 0.6, base + 1.4);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...CORS, 'access-control-max-age': '600' });
    return void res.end();
  }
  if (req.method === 'POST' && req.url === '/v1/measurements') {
    const what = asked(body);
    if (!what) return send(res, 400, { error: { message: 'Parameter validation failed.' } });
    return send(res, 202, { id: idOf(what), probesCount: what.countries.length });
  }
  const id = /^\/v1\/measurements\/([\w-]{1,64})$/.exec(req.url ?? '')?.[1];
  if (req.method === 'GET' && id) {
    const { type, countries } = askedIn(id);
    const results = countries.map((country, i) => {
      const [city, network, asn] = PLACES[country] ?? [country, 'Demo probe network', 64512];
      return { probe: probe(country, city, network, asn), result: resultFor(type, i) };
    });
    return send(res, 200, { id, type, status: 'finished', results });
  }
  send(res, 404, { error: { message: 'Not found.' } });
}

export interface ProbeNetwork {
  /** The API's base as GLOBALPING_API_BASE names it. */
  apiBase: string;
  close(): Promise<void>;
}

/** The stand-in on loopback at `port`, named by localhost (the browser's page is on localhost too). */
export async function startProbeNetwork(port: number): Promise<ProbeNetwork> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    apiBase: `http://localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
