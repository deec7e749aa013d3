import { request } from 'undici';
import { FakeUpstream, fixture } from './fake-upstream.js';
import { startServer, stopServer, type Running } from './real-server.js';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';

/** Where the example DSN's envelopes go; the fake answers for it. */
export const INGEST_HOST = 'o0.ingest.sentry.io';

/** The service's body limit, which the tunnel's envelopes share. */
export const TEN_MB = 10 * 1024 * 1024;

/** The real service with its monitoring tunnel on, relaying to a fake ingest that accepts every envelope. */
export interface RelayBed {
  fake: FakeUpstream;
  server: Running;
  close(): Promise<void>;
}

export async function startRelayBed(): Promise<RelayBed> {
  const fake = await FakeUpstream.start();
  fake.on('POST', INGEST_HOST, /./, { json: fixture(INGEST_HOST, 'envelope-accepted.json') });
  const server = await startServer({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    TELEMETRY_DSN_FRONTEND: EXAMPLE_TELEMETRY_DSN,
  });
  return {
    fake,
    server,
    async close() {
      await stopServer(server);
      await fake.close();
    },
  };
}

/** POSTs an envelope to the tunnel as the site's SDK does (text/plain, the site's Referer). */
export async function postEnvelope(server: Running, body: Buffer): Promise<{ status: number; body: string }> {
  const res = await request(`${server.apiUrl}/api/monitoring`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain;charset=UTF-8', referer: 'http://localhost/' },
  });
  return { status: res.statusCode, body: await res.body.text() };
}
