import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';

// Stand-ins for the DNS leak test's providers, which the page asks from the
// browser (DNS_LEAK_PROVIDERS): each answers in its provider's shape, naming
// the resolver that looked the fresh name up. On loopback no resolver does,
// so each names the one given. The browser tests answer with the same shapes
// (e2e/dnsleak.spec.ts).

export type ProviderId = 'ipapi' | 'surfshark' | 'ipleak' | 'fastly';

/** Each provider's answer naming `resolver`, for a name asked under `host`. */
export const PROVIDER_ANSWERS: Record<ProviderId, (resolver: string, host: string) => unknown> = {
  ipapi: (resolver) => ({ dns: { ip: resolver, geo: 'United States - Google' } }),
  surfshark: (resolver, host) => ({ [host]: { Country: 'United States', IP: resolver, ISP: 'Google' } }),
  ipleak: (resolver) => ({ ip: { [resolver]: 3 } }),
  fastly: (resolver) => ({ dns_resolver_info: { ip: resolver } }),
};

// Where each provider reads its answer, as the real ones do.
const PATHS: Record<ProviderId, string> = {
  ipapi: '/json',
  surfshark: '/',
  ipleak: '/dnsdetection/',
  fastly: '/debug_resolver',
};

export interface LeakProviders {
  /** DNS_LEAK_PROVIDERS placing every provider here: `<id>=http://*.<id>.localhost:<port><path>`. */
  setting: string;
  /** The resolver each answer names. */
  resolver: string;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  response.end(JSON.stringify(body));
}

/** The four stand-ins on loopback at `port`, under `*.<id>.localhost` (browsers resolve every *.localhost to loopback). */
export async function startLeakProviders(port: number, resolver: string): Promise<LeakProviders> {
  const ids = Object.keys(PATHS) as ProviderId[];
  const server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const id = ids.find((p) => host.endsWith(`.${p}.localhost`));
    if (!id || request.method !== 'GET' || (request.url ?? '').split('?')[0] !== PATHS[id]) {
      return send(response, 404, { error: 'no such provider here' });
    }
    send(response, 200, PROVIDER_ANSWERS[id](resolver, host));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    setting: ids.map((id) => `${id}=http://*.${id}.localhost:${port}${PATHS[id]}`).join(','),
    resolver,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
