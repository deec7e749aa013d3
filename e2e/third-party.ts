import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every third party the site's browser tools call (leak-test providers, speed
 * and probe services, connectivity targets), faked on loopback. Chromium maps
 * every host name but the site's own to one loopback address per Playwright
 * worker (`hostResolverRules`), where this server answers HTTPS on 443 (a
 * throw-away certificate; the tests ignore certificate errors) and HTTP on 80,
 * routing on the Host header to what the test registered. A host nobody
 * registered answers 404, which a test sees as a failed request.
 */

export type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

export interface SeenRequest {
  host: string;
  method: string;
  url: string;
  secure: boolean;
}

export interface ThirdParty {
  /** The loopback address every third-party host name resolves to in this worker's browser. */
  address: string;
  /** Answers requests to a host (a name, or a pattern such as /\.edns\.ip-api\.com$/) with `handler`. */
  on(host: string | RegExp, handler: Handler): void;
  /** Every request the fake received since the last reset, in order. */
  seen(): SeenRequest[];
  reset(): void;
  close(): Promise<void>;
}

// One run's addresses: 127.88.<run>.<worker>, so two runs on one machine never share a port 443.
const RUN = Number(process.env.E2E_THIRD_PARTY_RUN ?? (process.env.E2E_THIRD_PARTY_RUN = String(process.pid % 250)));

export function thirdPartyAddress(workerIndex: number): string {
  return `127.88.${RUN}.${(workerIndex % 250) + 1}`;
}

/**
 * Chromium's resolver rules for one worker: `first` (a test's own mappings;
 * the first matching rule wins), the demo's IPv4-only and IPv6-only hostnames
 * (demo/demo.ts) to one loopback family each, then every other name to the
 * fake, but the site itself and loopback addresses.
 */
export function hostResolverRules(address: string, first: readonly string[] = []): string {
  return [
    ...first,
    'MAP ipv4-only.localhost 127.0.0.1',
    'MAP ipv6-only.localhost [::1]',
    `MAP * ${address}`,
    'EXCLUDE localhost',
    'EXCLUDE *.localhost',
    // The catch-all maps address literals too: loopback stays loopback (a test's own servers).
    'EXCLUDE 127.0.0.1',
    'EXCLUDE [::1]',
  ].join(', ');
}

function throwAwayCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'third-party-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=third-party.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CHROMIUM_UPDATER = 'update.googleapis.com';

export async function startThirdParty(address: string): Promise<ThirdParty> {
  const routes: Array<{ host: string | RegExp; handler: Handler }> = [];
  let seen: SeenRequest[] = [];
  const serve = (secure: boolean) => (request: IncomingMessage, response: ServerResponse) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    // Chromium's own component updater still calls home now and then despite --disable-component-update: not the site's.
    if (host !== CHROMIUM_UPDATER) {
      seen.push({ host, method: request.method ?? 'GET', url: request.url ?? '/', secure });
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // The latest registration wins, so a test can replace a default answer.
      const route = [...routes]
        .reverse()
        .find((r) => (typeof r.host === 'string' ? r.host === host : r.host.test(host)));
      if (route) return route.handler(request, response, Buffer.concat(chunks));
      response.writeHead(404, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
      response.end(`no fake answers ${host}`);
    });
  };
  const https = createHttpsServer(throwAwayCertificate(), serve(true));
  const http = createHttpServer(serve(false));
  const servers: Server[] = [https, http];
  await Promise.all([once(https.listen(443, address), 'listening'), once(http.listen(80, address), 'listening')]);
  return {
    address,
    on: (host, handler) => void routes.push({ host, handler }),
    seen: () => [...seen],
    reset: () => {
      routes.length = 0;
      seen = [];
    },
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** A JSON answer any page may read (CORS), as the real providers send. */
export function json(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  response.end(JSON.stringify(body));
}
