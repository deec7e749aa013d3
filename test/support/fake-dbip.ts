import { DBIP_EDITIONS } from '../../datasets/geo/dbip-source.js';
import type { Edition } from '../../datasets/geo/databases.js';
import type { FakeUpstream } from './fake-upstream.js';

export const DBIP_HOST = 'download.db-ip.com';

/** Where DB-IP publishes an edition's release of `month` (YYYY-MM). */
export const dbipPath = (edition: Edition, month: string) => `/free/${DBIP_EDITIONS[edition]}-${month}.mmdb.gz`;

/** Serves `body` (a database gzip'd, as DB-IP publishes it, or whatever a test needs) as the edition's release of `month`, GET and HEAD. */
export function serveDbip(fake: FakeUpstream, edition: Edition, month: string, body: Buffer<ArrayBufferLike>): void {
  fake.on('*', DBIP_HOST, dbipPath(edition, month), (req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

/** Serves `body` as every month's release of the edition, whatever month the clock says. */
export function serveDbipEveryMonth(fake: FakeUpstream, edition: Edition, body: Buffer<ArrayBufferLike>): void {
  fake.on('*', DBIP_HOST, new RegExp(`^/free/${DBIP_EDITIONS[edition]}-\\d{4}-\\d{2}\\.mmdb\\.gz$`), { body });
}
